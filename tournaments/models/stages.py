"""Stages of a tournament (one format each: a Swiss, a single or double elimination) and
each kind's settings."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournaments import Tournament


class StageKind(models.TextChoices):
    SWISS = "swiss", pgettext_lazy("stage kind", "Swiss")
    SINGLE_ELIMINATION = "single_elim", pgettext_lazy("stage kind", "Single elimination")
    DOUBLE_ELIMINATION = "double_elim", pgettext_lazy("stage kind", "Double elimination")
    ROUND_ROBIN = "round_robin", pgettext_lazy("stage kind", "Round robin")
    PODS = "pods", pgettext_lazy("stage kind", "Pods of four")


#: The kinds played as a bracket (``tournaments.pairing.elimination``).
BRACKET_KINDS = (StageKind.SINGLE_ELIMINATION, StageKind.DOUBLE_ELIMINATION)
#: The kinds played from a schedule fixed when the stage begins (a bracket, or a round
#: robin's Berger tables: ``tournaments.pairing.round_robin``), with ``BracketSettings``.
SCHEDULED_KINDS = (*BRACKET_KINDS, StageKind.ROUND_ROBIN)
#: The kinds whose matches seat three or four entrants (``tournaments.pairing.pods``).
POD_KINDS = (StageKind.PODS,)


class StageStatus(models.TextChoices):
    PENDING = "pending", pgettext_lazy("stage status", "Not started")
    RUNNING = "running", pgettext_lazy("stage status", "Running")
    COMPLETE = "complete", pgettext_lazy("stage status", "Complete")


class Stage(models.Model):
    """One format within a tournament (DESIGN.md, "Vocabulary"): a Swiss, then perhaps a
    top cut. A tournament is the ordered list of its stages (``number`` 1, 2, ...); every
    round belongs to one. Rounds are numbered through the whole tournament (a top 8 after
    five Swiss rounds starts at round 6), so pages and the API name a round by its number.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="stages"
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"), default=1)
    kind = models.CharField(
        verbose_name=_("kind"), max_length=16, choices=StageKind.choices, default=StageKind.SWISS
    )
    name = models.CharField(verbose_name=_("name"), max_length=80, blank=True)
    status = models.CharField(
        verbose_name=_("status"),
        max_length=10,
        choices=StageStatus.choices,
        default=StageStatus.PENDING,
    )
    started_at = models.DateTimeField(verbose_name=_("started at"), null=True, blank=True)
    completed_at = models.DateTimeField(verbose_name=_("completed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_stage_per_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="stage_number_positive"),
            models.CheckConstraint(condition=Q(kind__in=StageKind.values), name="stage_kind_known"),
            models.CheckConstraint(
                condition=Q(status__in=StageStatus.values), name="stage_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.label}"

    @property
    def label(self) -> str:
        """The organiser's name for the stage, else "Stage 2 (Single elimination)" in the
        reader's language."""
        if self.name:
            return self.name
        return gettext("Stage %(number)s (%(kind)s)") % {
            "number": self.number,
            "kind": self.get_kind_display(),
        }


class OverduePolicy(models.TextChoices):
    NONE = "none", pgettext_lazy("overdue policy", "Flag overdue matches for a judge")
    DRAW = "draw", pgettext_lazy("overdue policy", "Record unfinished matches as draws")
    AHEAD = (
        "ahead",
        pgettext_lazy("overdue policy", "The player ahead in game rounds wins; level is a draw"),
    )


class FirstRoundPairing(models.TextChoices):
    RANDOM = "random", pgettext_lazy("first round pairing", "Random (seeded)")
    RATING = "rating", pgettext_lazy("first round pairing", "By seed / rating")


class LateEntry(models.TextChoices):
    LOSSES = "losses", pgettext_lazy("late entry", "Missed rounds count as losses")
    ZERO = "zero", pgettext_lazy("late entry", "Missed rounds are not counted")


DEFAULT_TIEBREAKERS = ["omw", "gw", "ogw"]


class SwissSettings(models.Model):
    """How a Swiss stage runs; one row per Swiss stage, created with it."""

    stage = models.OneToOneField(
        Stage,
        verbose_name=_("stage"),
        on_delete=models.CASCADE,
        related_name="swiss",
        primary_key=True,
    )
    rounds = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("swiss setting", "rounds"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text=_("Empty: from attendance (MTR table)."),
    )
    round_minutes = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("swiss setting", "round minutes"),
        default=50,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
    )
    auto_pair = models.BooleanField(
        verbose_name=pgettext_lazy("swiss setting", "auto pair"),
        default=True,
        help_text=_("Pair the next round as soon as the last result is confirmed."),
    )
    overdue_policy = models.CharField(
        verbose_name=pgettext_lazy("swiss setting", "overdue policy"),
        max_length=8,
        choices=OverduePolicy.choices,
        default=OverduePolicy.NONE,
    )
    first_round = models.CharField(
        verbose_name=pgettext_lazy("swiss setting", "first round"),
        max_length=8,
        choices=FirstRoundPairing.choices,
        default=FirstRoundPairing.RANDOM,
    )
    late_entry = models.CharField(
        verbose_name=pgettext_lazy("swiss setting", "late entry"),
        max_length=8,
        choices=LateEntry.choices,
        default=LateEntry.LOSSES,
    )
    tiebreakers = models.JSONField(
        verbose_name=pgettext_lazy("swiss setting", "tiebreakers"), default=list, blank=True
    )
    bye_counts_in_own_mw = models.BooleanField(
        verbose_name=pgettext_lazy("swiss setting", "A bye counts in the player's own match-win %"),
        default=True,
        help_text=_(
            "MTR: a bye counts as a match win in the player's own MW% (not in their opponents')."
        ),
    )
    rounds_to_win = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("swiss setting", "rounds to win"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(5)],
        help_text=_("Generic games: game-round wins that win a game."),
    )
    kontsina_rounds = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("swiss setting", "kontsina rounds"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text=_("Kontsina: game rounds in a game."),
    )
    seed = models.BigIntegerField(
        verbose_name=_("seed"), default=0, help_text=_("Seeds random pairings (reproducible).")
    )

    #: What organisers change (the page's form and the API's serializer both list these;
    #: the limits are the fields' validators, checked again by the service).
    EDITABLE = (
        "rounds",
        "round_minutes",
        "auto_pair",
        "overdue_policy",
        "first_round",
        "late_entry",
        "tiebreakers",
        "bye_counts_in_own_mw",
        "rounds_to_win",
        "kontsina_rounds",
    )

    class Meta:
        verbose_name = _("swiss settings")
        verbose_name_plural = _("swiss settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(round_minutes__gte=1), name="swiss_round_minutes_positive"
            ),
            models.CheckConstraint(
                condition=Q(rounds_to_win__gte=1), name="swiss_rounds_to_win_positive"
            ),
            models.CheckConstraint(
                condition=Q(kontsina_rounds__gte=1), name="swiss_kontsina_rounds_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Swiss settings of {self.stage}"


#: The Swiss settings in words, in lower case as a sentence says them (the audit log:
#: "Swiss settings changed (round minutes, late entry)"); the settings page shows them
#: capitalised. Keys: ``SwissSettings.EDITABLE``.
SWISS_SETTING_WORDS = {
    "rounds": pgettext_lazy("swiss setting", "rounds"),
    "round_minutes": pgettext_lazy("swiss setting", "round minutes"),
    "auto_pair": pgettext_lazy("swiss setting", "auto pair"),
    "overdue_policy": pgettext_lazy("swiss setting", "overdue policy"),
    "first_round": pgettext_lazy("swiss setting", "first round"),
    "late_entry": pgettext_lazy("swiss setting", "late entry"),
    "tiebreakers": pgettext_lazy("swiss setting", "tiebreakers"),
    "bye_counts_in_own_mw": pgettext_lazy(
        "swiss setting", "A bye counts in the player's own match-win %"
    ),
    "rounds_to_win": pgettext_lazy("swiss setting", "rounds to win"),
    "kontsina_rounds": pgettext_lazy("swiss setting", "kontsina rounds"),
}


class GrandFinal(models.TextChoices):
    RESET = (
        "reset",
        pgettext_lazy(
            "grand final", "Grand final, and a second one if the losers' bracket player wins"
        ),
    )
    SINGLE = "single", pgettext_lazy("grand final", "One grand final match")
    NONE = (
        "none",
        pgettext_lazy(
            "grand final", "No grand final (the two brackets' winners are first and second)"
        ),
    )


class BracketSettings(models.Model):
    """How an elimination or round-robin stage runs; one row per such stage, created with it.

    A stage after another is a *cut*: the best ``cut_top`` of the previous stage's standings
    (all of them when empty), and only those with at least ``cut_min_points`` match points
    when set, seeded in standings order; after a group stage, the best ``cut_per_group`` of
    each group, cross-seeded (``round_robin.cross_seed``). ``seeded`` is that list of
    registration ids, fixed when the stage begins: the bracket (or the round robin's
    schedule) is rebuilt from it whenever it is read, so it never changes afterwards.
    """

    stage = models.OneToOneField(
        Stage,
        verbose_name=_("stage"),
        on_delete=models.CASCADE,
        related_name="bracket",
        primary_key=True,
    )
    cut_top = models.PositiveSmallIntegerField(
        verbose_name=_("cut top"),
        null=True,
        blank=True,
        validators=[MinValueValidator(2), MaxValueValidator(4096)],
        help_text=_("How many of the previous stage's standings go through (empty: all)."),
    )
    cut_min_points = models.PositiveSmallIntegerField(
        verbose_name=_("cut min points"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(1000)],
        help_text=_("Only entrants with at least these match points go through (empty: any)."),
    )
    third_place = models.BooleanField(
        verbose_name=_("third place"),
        default=False,
        help_text=_("Single elimination: the semifinal losers play for third."),
    )
    grand_final = models.CharField(
        verbose_name=_("grand final"),
        max_length=8,
        choices=GrandFinal.choices,
        default=GrandFinal.RESET,
    )
    round_minutes = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("round", "round minutes"),
        default=50,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
    )
    cycles = models.PositiveSmallIntegerField(
        verbose_name=_("cycles"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(2)],
        help_text=_("Round robin: every two players meet once (1) or twice (2)."),
    )
    groups = models.PositiveSmallIntegerField(
        verbose_name=_("groups"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(64)],
        help_text=_(
            "Round robin as the first stage: split into this many groups (snake seeding), "
            "each its own round robin."
        ),
    )
    cut_per_group = models.PositiveSmallIntegerField(
        verbose_name=_("cut per group"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(64)],
        help_text=_("After a group stage: the best of each group go through (cross-seeded)."),
    )
    seeded = models.JSONField(verbose_name=_("seeded"), default=list, blank=True)

    class Meta:
        verbose_name = _("bracket settings")
        verbose_name_plural = _("bracket settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(cut_top__isnull=True) | Q(cut_top__gte=2), name="bracket_cut_two"
            ),
            models.CheckConstraint(
                condition=Q(grand_final__in=GrandFinal.values), name="bracket_grand_final_known"
            ),
            models.CheckConstraint(
                condition=Q(cycles__gte=1, cycles__lte=2), name="round_robin_cycles_one_or_two"
            ),
            models.CheckConstraint(condition=Q(groups__gte=1), name="stage_groups_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.stage}: bracket settings"


class PodFill(models.TextChoices):
    THREES = "threes", pgettext_lazy("pod fill", "Pods of three where the count needs them")
    BYES = "byes", pgettext_lazy("pod fill", "Byes for the entrants left over")


class PodScoring(models.TextChoices):
    WINNER = "winner", pgettext_lazy("pod scoring", "The winner scores 3, the others 0")
    PLACEMENT = "placement", pgettext_lazy("pod scoring", "Places score 4, 2, 1 and 0")


class PodSettings(models.Model):
    """How a pod stage runs (``tournaments.pairing.pods``); one row per pod stage."""

    stage = models.OneToOneField(
        Stage,
        verbose_name=_("stage"),
        on_delete=models.CASCADE,
        related_name="pod_settings",
        primary_key=True,
    )
    rounds = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("round", "rounds"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(20)],
    )
    fill = models.CharField(
        verbose_name=_("fill"), max_length=8, choices=PodFill.choices, default=PodFill.THREES
    )
    scoring = models.CharField(
        verbose_name=_("scoring"),
        max_length=10,
        choices=PodScoring.choices,
        default=PodScoring.WINNER,
    )
    rounds_to_win = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("game round", "rounds to win"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(5)],
        help_text=_("Game-round wins that win a pod (Gesoseka: 2)."),
    )
    round_minutes = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("round", "round minutes"),
        default=50,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
    )

    class Meta:
        verbose_name = _("pod settings")
        verbose_name_plural = _("pod settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds__gte=1, rounds__lte=20), name="pod_rounds_bounds"
            ),
            models.CheckConstraint(
                condition=Q(rounds_to_win__gte=1, rounds_to_win__lte=5), name="pod_wins_bounds"
            ),
            models.CheckConstraint(condition=Q(fill__in=PodFill.values), name="pod_fill_known"),
            models.CheckConstraint(
                condition=Q(scoring__in=PodScoring.values), name="pod_scoring_known"
            ),
        ]

    def __str__(self) -> str:
        return f"Pod settings of {self.stage}"
