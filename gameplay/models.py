"""Live Gosu drafts: pods, seats, packs and picks (DESIGN.md, "Live pages").

Terms (``../shared/rules/README.md``, "Gosu draft"; ``rules.draft``): a *pod* is a
group of players drafting together, each at a *seat*; every seat opens a *pack* of P
cards; a seat *picks* from the pack at the head of its *queue* (2 cards on a pack's first
pick, 1 after) and passes the rest to the next seat; what a seat picked is its *pool*.

The engine's state (packs, queues, pools) is kept on the pod as JSON and changed only
under the pod's row lock, one pick at a time; ``Pick`` rows are the durable log, and
their unique constraints make a double pick impossible even if a lock were forgotten:
one row per (pod, pack, pick number of that pack) and per (seat, pick number of that
seat). ``version`` grows with every change: every snapshot sent to a page carries it, so
a page can tell a stale update from a new one.

``state_token`` is a random value written with every state: the state cache
(``gameplay.selectors.state_cache``) keys parsed states by (pod, version, token), so a
database restored from a backup (the same pod and version, another state) is never served
from what a running process parsed before.

Deadlines are fields: ``DraftSeat.deadline`` is when the seat's current pick times out
(null: no pack waits for it, or the pod is paused). ``timer_token`` changes whenever the
deadline does, so a timer task queued for an older deadline does nothing.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class PodStatus(models.TextChoices):
    READY = "ready", pgettext_lazy("draft pod status", "Ready to start")
    RUNNING = "running", pgettext_lazy("draft pod status", "Drafting")
    PAUSED = "paused", pgettext_lazy("draft pod status", "Paused")
    FINISHED = "finished", pgettext_lazy("draft pod status", "Finished")


class PassDirection(models.TextChoices):
    LEFT = "left", pgettext_lazy("pass direction", "Left (to the next seat)")
    RIGHT = "right", pgettext_lazy("pass direction", "Right (to the previous seat)")


class DraftPod(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="draft_pods",
    )
    #: The stage this draft is for, and the tournament round it comes before (1: before
    #: round 1). The round has no row until it is paired, so the pod names the stage and
    #: the round's number.
    stage = models.ForeignKey(
        "tournaments.Stage",
        verbose_name=_("stage"),
        on_delete=models.CASCADE,
        related_name="draft_pods",
    )
    before_round = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("round", "before round"), default=1
    )
    number = models.PositiveSmallIntegerField(
        verbose_name=_("number"), help_text=_("Pod 1, pod 2… within the round.")
    )
    status = models.CharField(
        verbose_name=_("status"), max_length=10, choices=PodStatus.choices, default=PodStatus.READY
    )
    pack_size = models.PositiveSmallIntegerField(verbose_name=_("pack size"))
    first_pick_keeps = models.PositiveSmallIntegerField(
        verbose_name=_("first pick keeps"), default=2
    )
    direction = models.CharField(
        verbose_name=_("direction"),
        max_length=5,
        choices=PassDirection.choices,
        default=PassDirection.LEFT,
    )
    deck_type = models.CharField(verbose_name=_("deck type"), max_length=12)
    seed = models.BigIntegerField(
        verbose_name=_("seed"), help_text=_("Seeds the shuffled decks (reproducible).")
    )
    seconds_per_pick = models.PositiveSmallIntegerField(
        verbose_name=_("seconds per pick"), default=60, help_text=_("0: no pick timer.")
    )
    shrinking_timer = models.BooleanField(
        verbose_name=_("shrinking timer"),
        default=False,
        help_text=_("Less time per pick as packs empty (5 s a card, at least 10 s)."),
    )
    #: The engine's state (``rules.draft``), changed under this row's lock.
    state = models.JSONField(verbose_name=_("state"), default=dict)
    version = models.PositiveIntegerField(verbose_name=_("version"), default=0)
    #: A new random value with every state written (see the module's docstring).
    state_token = models.UUIDField(
        verbose_name=_("state token"), default=uuid.uuid4, editable=False
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)
    started_at = models.DateTimeField(verbose_name=_("started at"), null=True, blank=True)
    paused_at = models.DateTimeField(verbose_name=_("paused at"), null=True, blank=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("draft pod")
        verbose_name_plural = _("draft pods")
        ordering = ["tournament", "before_round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "before_round", "number"], name="one_pod_per_number"
            ),
            models.CheckConstraint(condition=Q(pack_size__gte=2), name="pod_pack_size_min"),
            models.CheckConstraint(condition=Q(first_pick_keeps__gte=1), name="pod_keeps_min"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} pod {self.number}"

    @property
    def is_live(self) -> bool:
        return self.status in (PodStatus.RUNNING, PodStatus.PAUSED)


class DraftSeat(models.Model):
    pod = models.ForeignKey(
        DraftPod,
        verbose_name=pgettext_lazy("a draft pod", "pod"),
        on_delete=models.CASCADE,
        related_name="seats",
    )
    position = models.PositiveSmallIntegerField(
        verbose_name=_("position"), help_text=_("0 is the first seat.")
    )
    #: The entrant the seat drafts for. RESTRICT: a registration with a seat cannot be
    #: deleted on its own, but deleting the tournament deletes both.
    registration = models.ForeignKey(
        "tournaments.Registration",
        verbose_name=_("registration"),
        on_delete=models.RESTRICT,
        related_name="draft_seats",
    )
    #: Who sits here: the registration's player, or in a team event either member of the
    #: team (each drafts at a seat of their own). Their seat, pack and pool are theirs
    #: alone: a teammate sees them no more than anyone else does.
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.RESTRICT,
        related_name="draft_seats",
    )
    #: Picks for this seat are made by the server (the player left or was replaced).
    auto_pick = models.BooleanField(verbose_name=_("auto pick"), default=False)
    #: The cards the player tapped once (the auto-pick takes them if time runs out).
    highlighted = models.JSONField(verbose_name=_("highlighted"), default=list, blank=True)
    deadline = models.DateTimeField(verbose_name=_("deadline"), null=True, blank=True)
    #: Time left on the pick timer while the pod is paused.
    paused_remaining = models.DurationField(
        verbose_name=_("paused remaining"), null=True, blank=True
    )
    timer_token = models.PositiveIntegerField(verbose_name=_("timer token"), default=0)

    class Meta:
        verbose_name = _("draft seat")
        verbose_name_plural = _("draft seats")
        ordering = ["pod", "position"]
        constraints = [
            models.UniqueConstraint(fields=["pod", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(fields=["pod", "player"], name="one_seat_per_player"),
        ]
        indexes = [
            models.Index(
                fields=["deadline"], name="seat_deadline_due", condition=Q(deadline__isnull=False)
            )
        ]

    def __str__(self) -> str:
        return f"{self.pod}, seat {self.position + 1}"

    @property
    def label(self) -> str:
        """The name shown for the seat: the player's, and their team's in a team event
        (reads ``player`` and ``registration``: load them with the seat)."""
        name = self.player.display_name
        team = self.registration.team_name
        return f"{name} ({team})" if team else name


class DraftPack(models.Model):
    """A pack as it was opened (its cards now are in the pod's state)."""

    pod = models.ForeignKey(
        DraftPod,
        verbose_name=pgettext_lazy("a draft pod", "pod"),
        on_delete=models.CASCADE,
        related_name="packs",
    )
    number = models.PositiveSmallIntegerField(
        verbose_name=_("number"), help_text=_("The engine's pack id.")
    )
    opened_by = models.PositiveSmallIntegerField(
        verbose_name=_("opened by"), help_text=_("The seat position that opened it.")
    )
    cards = models.JSONField(verbose_name=_("cards"))

    class Meta:
        verbose_name = _("draft pack")
        verbose_name_plural = _("draft packs")
        ordering = ["pod", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pod", "number"], name="one_pack_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.pod}, pack {self.number}"


class PickSource(models.TextChoices):
    PLAYER = "player", pgettext_lazy("pick source", "The player")
    TIMER = "timer", pgettext_lazy("pick source", "Timed out: picked by the server")
    AUTO = "auto", pgettext_lazy("pick source", "Seat on auto-pick")
    ORGANISER = "organiser", pgettext_lazy("pick source", "Ended by the organiser")


class Pick(models.Model):
    pod = models.ForeignKey(
        DraftPod,
        verbose_name=pgettext_lazy("a draft pod", "pod"),
        on_delete=models.CASCADE,
        related_name="picks",
    )
    seat = models.ForeignKey(
        DraftSeat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="picks"
    )
    pack = models.PositiveSmallIntegerField(verbose_name=_("pack"))
    #: Which pick of this pack it is (1: the first, keeping two cards).
    pack_pick = models.PositiveSmallIntegerField(verbose_name=_("pack pick"))
    #: Which pick of this seat it is (1, 2, …).
    seat_pick = models.PositiveSmallIntegerField(verbose_name=_("seat pick"))
    cards = models.JSONField(verbose_name=_("cards"))
    #: The pack's cards just before this pick (for the pick log).
    pack_before = models.JSONField(verbose_name=_("pack before"))
    source = models.CharField(verbose_name=_("source"), max_length=10, choices=PickSource.choices)
    picked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("picked by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("pick")
        verbose_name_plural = _("picks")
        ordering = ["pod", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["pod", "pack", "pack_pick"], name="one_pick_per_pack_turn"
            ),
            models.UniqueConstraint(fields=["seat", "seat_pick"], name="one_pick_per_seat_turn"),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: pick {self.seat_pick} {self.cards}"


class DraftTiming(models.TextChoices):
    BEFORE_FIRST_ROUND = "first", pgettext_lazy("draft timing", "Once, before round 1")
    BEFORE_EACH_ROUND = "each", pgettext_lazy("draft timing", "Before every round")


class TeamSeating(models.TextChoices):
    """Where teammates sit in a team event's pod (``rules.draft.TeamSeating``)."""

    ADJACENT = "adjacent", pgettext_lazy("team seating", "Next to each other")
    OPPOSITE = "opposite", pgettext_lazy("team seating", "Opposite each other (across the pod)")


class DraftSettings(models.Model):
    """How a tournament drafts; one row per tournament that drafts."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="draft_settings",
        primary_key=True,
    )
    timing = models.CharField(
        verbose_name=_("timing"),
        max_length=5,
        choices=DraftTiming.choices,
        default=DraftTiming.BEFORE_FIRST_ROUND,
    )
    pod_size = models.PositiveSmallIntegerField(
        verbose_name=_("pod size"), default=8, help_text=_("Seats per pod (at most).")
    )
    pack_size = models.PositiveSmallIntegerField(
        verbose_name=_("pack size"),
        null=True,
        blank=True,
        help_text=_("Empty: the game's (Gesoseka 10, Vanilla Gwent 12, 7)."),
    )
    seconds_per_pick = models.PositiveSmallIntegerField(
        verbose_name=_("seconds per pick"), default=60, help_text=_("0: no timer.")
    )
    shrinking_timer = models.BooleanField(verbose_name=_("shrinking timer"), default=False)
    direction = models.CharField(
        verbose_name=_("direction"),
        max_length=5,
        choices=PassDirection.choices,
        default=PassDirection.LEFT,
    )
    #: Team events only: teammates sit next to each other or across the pod.
    team_seating = models.CharField(
        verbose_name=_("team seating"),
        max_length=8,
        choices=TeamSeating.choices,
        default=TeamSeating.ADJACENT,
        help_text=_("Team events: where teammates sit in their pod."),
    )

    #: For the seating form's choices.
    TEAM_SEATINGS = TeamSeating.choices

    class Meta:
        verbose_name = _("draft settings")
        verbose_name_plural = _("draft settings")
        constraints = [
            models.CheckConstraint(condition=Q(pod_size__gte=2), name="draft_pod_size_min"),
            models.CheckConstraint(
                condition=Q(team_seating__in=TeamSeating.values), name="draft_team_seating_known"
            ),
        ]

    def __str__(self) -> str:
        return f"Draft settings of {self.tournament}"


# --- live tables (DESIGN.md, "Live pages"; rules.turn_limit) -----------------------


class TableSettings(models.Model):
    """How a tournament's live tables run; one row per tournament that changed the defaults
    (``selectors.tables.settings_of`` gives the defaults otherwise)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="table_settings",
        primary_key=True,
    )
    turn_limit_on = models.BooleanField(
        verbose_name=_("turn limit on"),
        default=True,
        help_text=_("Enforce the turn limit after a pass (GOSU: 10 turns)."),
    )
    turn_limit = models.PositiveSmallIntegerField(
        verbose_name=_("turn limit"),
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Turns allowed after the opponent passed."),
    )
    score_helper = models.BooleanField(
        verbose_name=_("score helper"),
        default=False,
        help_text=_("Players choose the card they play; the table keeps the score."),
    )
    turn_seconds = models.PositiveSmallIntegerField(
        verbose_name=_("turn seconds"),
        default=0,
        validators=[MaxValueValidator(600)],
        help_text=_("Seconds per turn (0: no turn timer)."),
    )
    undo_seconds = models.PositiveSmallIntegerField(
        verbose_name=_("undo seconds"),
        default=30,
        validators=[MaxValueValidator(600)],
        help_text=_("How long a player may undo their last tap (judges: any time)."),
    )

    EDITABLE = ("turn_limit_on", "turn_limit", "score_helper", "turn_seconds", "undo_seconds")

    class Meta:
        verbose_name = _("table settings")
        verbose_name_plural = _("table settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(turn_limit__gte=1, turn_limit__lte=100), name="table_limit_bounds"
            ),
            models.CheckConstraint(condition=Q(turn_seconds__lte=600), name="table_turn_secs_max"),
            models.CheckConstraint(condition=Q(undo_seconds__lte=600), name="table_undo_secs_max"),
        ]

    def __str__(self) -> str:
        return f"Table settings of {self.tournament}"


class TableMode(models.TextChoices):
    PHONES = "phones", pgettext_lazy("live table mode", "Each player on their own phone")
    SHARED = "shared", pgettext_lazy("live table mode", "One shared phone or tablet")


class TableStatus(models.TextChoices):
    #: A game round is being played: turns are tapped.
    PLAYING = "playing", pgettext_lazy("live table status", "Playing")
    #: The game round has ended: its scores are to be entered.
    SCORING = "scoring", pgettext_lazy("live table status", "Scores to enter")
    #: The match is decided: the table's result is in the match's report.
    DONE = "done", pgettext_lazy("live table status", "Result reported")


class LiveTable(models.Model):
    """A match played at a live table: the turn counter and its limit, game round by game
    round, and the scores that become the match's result.

    The settings are copied from the tournament's when the table opens: a change made
    mid-round does not change a game round in play. ``turn_limit`` null: no limit.
    ``version`` grows with every change (snapshots carry it). ``games`` is the result so far
    in the results service's shape (``[{"rounds": [[a, b], ...]}, ...]``); the game round
    being played is ``game`` / ``game_round`` (1-based), its first player ``first``.
    ``turn_deadline``: when the player on turn runs out of time (null: no timer or nobody
    on turn); ``last_event_at``: when the table last changed (judges see stalled tables).
    """

    match = models.OneToOneField(
        "tournaments.Match",
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="live_table",
    )
    mode = models.CharField(
        verbose_name=_("mode"), max_length=6, choices=TableMode.choices, default=TableMode.PHONES
    )
    players = models.PositiveSmallIntegerField(verbose_name=_("players"), default=2)
    turn_limit = models.PositiveSmallIntegerField(
        verbose_name=_("turn limit"), null=True, blank=True
    )
    pass_is_final = models.BooleanField(verbose_name=_("pass is final"), default=True)
    score_helper = models.BooleanField(verbose_name=_("score helper"), default=False)
    turn_seconds = models.PositiveSmallIntegerField(verbose_name=_("turn seconds"), default=0)
    undo_seconds = models.PositiveSmallIntegerField(verbose_name=_("undo seconds"), default=30)
    status = models.CharField(
        verbose_name=_("status"),
        max_length=8,
        choices=TableStatus.choices,
        default=TableStatus.PLAYING,
    )
    game = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("a game of a match", "game"), default=1
    )
    game_round = models.PositiveSmallIntegerField(verbose_name=_("game round"), default=1)
    first = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("the seat that plays first", "first"), default=0
    )
    games = models.JSONField(
        verbose_name=pgettext_lazy("a game of a match", "games"), default=list, blank=True
    )
    version = models.PositiveIntegerField(verbose_name=_("version"), default=0)
    turn_deadline = models.DateTimeField(verbose_name=_("turn deadline"), null=True, blank=True)
    last_event_at = models.DateTimeField(verbose_name=_("last event at"), default=timezone.now)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=pgettext_lazy("a live table", "opened by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    opened_at = models.DateTimeField(verbose_name=_("opened at"), default=timezone.now)

    class Meta:
        verbose_name = _("live table")
        verbose_name_plural = _("live tables")
        ordering = ["match"]
        constraints = [
            # 2: 1 vs 1; 4: 2 vs 2 or a pod of four; 3: a pod of three (a free-for-all).
            models.CheckConstraint(condition=Q(players__in=[2, 3, 4]), name="table_seats_2_to_4"),
            models.CheckConstraint(condition=Q(first__lt=F("players")), name="table_first_seated"),
            models.CheckConstraint(
                condition=Q(turn_limit__isnull=True) | Q(turn_limit__gte=1, turn_limit__lte=100),
                name="table_turn_limit_bounds",
            ),
            models.CheckConstraint(
                condition=Q(status__in=TableStatus.values), name="table_status_known"
            ),
            models.CheckConstraint(condition=Q(mode__in=TableMode.values), name="table_mode_known"),
        ]

    def __str__(self) -> str:
        return f"Live table of match {self.match_id}"


class TurnKind(models.TextChoices):
    PLAY = "play", pgettext_lazy("turn kind", "Played a card")
    EXTRA = "extra", pgettext_lazy("turn kind", "Played a card with an extra turn")
    PASS = "pass", pgettext_lazy("turn kind", "Passed")


class TurnEvent(models.Model):
    """One tap of a game round's turn log (``rules.turn_limit.Event``).

    ``number`` is the event's place in its game round's log (0 first). An undone event
    stays, marked ``undone_at`` (the audit of who undid what); the partial unique
    constraint lets only one live event hold each number, so two phones tapping at once
    can never both take the same turn, even if a lock were forgotten.
    """

    table = models.ForeignKey(
        LiveTable, verbose_name=_("table"), on_delete=models.CASCADE, related_name="events"
    )
    game = models.PositiveSmallIntegerField(verbose_name=pgettext_lazy("a game of a match", "game"))
    game_round = models.PositiveSmallIntegerField(verbose_name=_("game round"))
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    kind = models.CharField(verbose_name=_("kind"), max_length=5, choices=TurnKind.choices)
    player = models.PositiveSmallIntegerField(verbose_name=_("player"))
    #: The card played (score helper), as its code ("7H"); blank when not chosen.
    card = models.CharField(verbose_name=_("card"), max_length=3, blank=True, default="")
    #: The row a card went to where the game asks (Vanilla Gwent: a heart), else blank.
    row = models.CharField(verbose_name=_("row"), max_length=8, blank=True, default="")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)
    undone_at = models.DateTimeField(verbose_name=_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("undone by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("turn event")
        verbose_name_plural = _("turn events")
        ordering = ["table", "game", "game_round", "number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "game", "game_round", "number"],
                condition=Q(undone_at__isnull=True),
                name="one_turn_per_number",
            ),
            models.CheckConstraint(condition=Q(kind__in=TurnKind.values), name="turn_kind_known"),
            models.CheckConstraint(condition=Q(player__lt=4), name="turn_player_seated"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, game {self.game} round {self.game_round}: turn {self.number}"
