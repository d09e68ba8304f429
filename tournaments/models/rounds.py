"""Rounds of a stage, their matches (with one seat row per entrant), and result reports.

A round belongs to a stage but is numbered through the tournament; a match's outcome
columns are derived from its confirmed ``result`` so that standings are a single query.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models.stages import Stage
from tournaments.models.tournaments import Registration, Tournament


class RoundStatus(models.TextChoices):
    PAIRED = "paired", pgettext_lazy("round status", "Paired")
    IN_PROGRESS = "in_progress", pgettext_lazy("round status", "In progress")
    COMPLETE = "complete", pgettext_lazy("round status", "Complete")


class Round(models.Model):
    """A round of a stage (Swiss round 3). Its deadline fields drive the round clock."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    #: The stage this round belongs to (its tournament is the stage's: kept on the round
    #: too because rounds are numbered through the tournament).
    stage = models.ForeignKey(
        Stage, verbose_name=_("stage"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    #: A bracket, round-robin or pods round's code ("quarterfinals", "losers:2":
    #: ``tournaments.pairing.round_codes``; ``selectors.names`` says it); empty: "Round <number>".
    name = models.CharField(verbose_name=_("name"), max_length=40, blank=True)
    status = models.CharField(
        verbose_name=_("status"),
        max_length=12,
        choices=RoundStatus.choices,
        default=RoundStatus.PAIRED,
    )
    paired_at = models.DateTimeField(verbose_name=_("paired at"), default=timezone.now)
    started_at = models.DateTimeField(verbose_name=_("started at"), null=True, blank=True)
    ends_at = models.DateTimeField(verbose_name=_("ends at"), null=True, blank=True)
    #: When the 10-minute and time warnings were given (null: not yet): each once.
    warned_10_at = models.DateTimeField(verbose_name=_("warned 10 at"), null=True, blank=True)
    warned_0_at = models.DateTimeField(verbose_name=_("warned 0 at"), null=True, blank=True)
    time_handled_at = models.DateTimeField(verbose_name=_("time handled at"), null=True, blank=True)
    completed_at = models.DateTimeField(verbose_name=_("completed at"), null=True, blank=True)
    #: Engine statistics of the pairing (rematches, pair-downs, point difference).
    pairing_stats = models.JSONField(verbose_name=_("pairing stats"), default=dict, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("round", "round")
        verbose_name_plural = pgettext_lazy("round", "rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]
        indexes = [
            models.Index(
                fields=["ends_at"],
                name="round_clock_due",
                condition=Q(status="in_progress", time_handled_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


#: The relations that load a match's entrants with everyone who plays for them (a team's
#: teammate too): what names, "my match" and ``policies.side_in_match`` read.
MATCH_ENTRANTS = ("a__player__user", "b__player__user", "a__partner__user", "b__partner__user")


class MatchStatus(models.TextChoices):
    PENDING = "pending", pgettext_lazy("match status", "Waiting for a report")
    REPORTED = "reported", pgettext_lazy("match status", "Reported, waiting for the opponent")
    DISPUTED = "disputed", pgettext_lazy("match status", "Disputed")
    CONFIRMED = "confirmed", pgettext_lazy("match status", "Confirmed")


class Winner(models.TextChoices):
    """Who won a match: the letter of the winner's seat (``MatchSeat.position`` 0 is
    ``a``; a pod's third and fourth seats ``c`` and ``d``), or a draw (a pod nobody won)."""

    A = "a", pgettext_lazy("winner", "First player")
    B = "b", pgettext_lazy("winner", "Second player")
    C = "c", pgettext_lazy("winner", "Third player")
    D = "d", pgettext_lazy("winner", "Fourth player")
    DRAW = "draw", pgettext_lazy("winner", "Draw")


#: The seat letters, by ``MatchSeat.position`` (a report's side and a winner say a seat so).
SEAT_LETTERS: tuple[str, ...] = (Winner.A, Winner.B, Winner.C, Winner.D)


class Match(models.Model):
    """Entrants at a table in a round: two (or one with the bye: ``b`` empty), or a pod's
    three or four. Its seats (``MatchSeat``, by ``position``) say who sits where and, once
    confirmed, each seat's place, score and game-round wins; ``winner`` says the winning
    seat's letter (or a draw). ``a`` and ``b`` are the first two seats, kept for the
    two-player pages, API and standings.

    ``result`` is the confirmed list of games, each a list of game rounds; the outcome
    columns (the seats' and the two-player ones) are derived from it by the game's rules
    when it is confirmed (``services.outcomes``), and stored so that standings are a
    single query.
    """

    #: Not a field: the current report of each side, by side, when the results service
    #: has read them under the match's lock (``results._current_reports``).
    current_reports: dict[str, ResultReport]

    round = models.ForeignKey(
        Round,
        verbose_name=pgettext_lazy("round", "round"),
        on_delete=models.CASCADE,
        related_name="matches",
    )
    table = models.PositiveIntegerField(verbose_name=_("table"))
    #: The bracket slot this match plays (``W2-3``, ``L1-1``, ``GF``: the keys of
    #: ``tournaments.pairing.elimination``), or its place in a round robin's schedule
    #: (``RR3-2``, ``B3-2`` in group B); empty in a Swiss round.
    slot = models.CharField(verbose_name=_("slot"), max_length=16, blank=True, default="")
    #: RESTRICT: a paired registration cannot be deleted on its own, but deleting the
    #: tournament deletes its matches too.
    a = models.ForeignKey(
        Registration,
        verbose_name=pgettext_lazy("seat letter", "a"),
        on_delete=models.RESTRICT,
        related_name="+",
    )
    #: How many seats the match is played with: 2 for two sides (a bye too, its second
    #: seat empty), a pod's 3 or 4 (a pod's bye 1). The result's rules are chosen by it
    #: (``services.seat_rules``): read with the match, no query for its seats.
    seat_count = models.PositiveSmallIntegerField(verbose_name=_("seat count"), default=2)
    b = models.ForeignKey(
        Registration,
        verbose_name=pgettext_lazy("seat letter", "b"),
        on_delete=models.RESTRICT,
        related_name="+",
        null=True,
        blank=True,
    )
    status = models.CharField(
        verbose_name=_("status"),
        max_length=10,
        choices=MatchStatus.choices,
        default=MatchStatus.PENDING,
    )
    overdue = models.BooleanField(verbose_name=_("overdue"), default=False)
    notes = models.JSONField(
        verbose_name=_("notes"), default=list, blank=True, help_text=_("Why this pairing.")
    )
    result = models.JSONField(verbose_name=_("result"), null=True, blank=True)
    winner = models.CharField(
        verbose_name=_("winner"), max_length=4, choices=Winner.choices, blank=True
    )
    games_a = models.PositiveSmallIntegerField(verbose_name=_("games a"), default=0)
    games_b = models.PositiveSmallIntegerField(verbose_name=_("games b"), default=0)
    games_drawn = models.PositiveSmallIntegerField(verbose_name=_("games drawn"), default=0)
    game_rounds_a = models.PositiveSmallIntegerField(verbose_name=_("game rounds a"), default=0)
    game_rounds_b = models.PositiveSmallIntegerField(verbose_name=_("game rounds b"), default=0)
    score_a = models.IntegerField(verbose_name=_("score a"), default=0)
    score_b = models.IntegerField(verbose_name=_("score b"), default=0)
    confirmed_at = models.DateTimeField(verbose_name=_("confirmed at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("match")
        ordering = ["round", "table"]
        verbose_name_plural = _("matches")
        # A club's latest confirmation (the results feed's Last-Modified: seasons.selectors
        # .feed) read from the newest end, not from every match of the club (bench.seasons).
        indexes = [models.Index(fields=["confirmed_at"], name="match_confirmed_at")]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_match_per_table"),
            models.UniqueConstraint(
                fields=["round", "slot"], condition=~Q(slot=""), name="one_match_per_slot"
            ),
            models.CheckConstraint(condition=~Q(a=F("b")), name="match_two_different_entrants"),
            models.CheckConstraint(
                condition=Q(status="confirmed") | Q(winner=""), name="winner_only_when_confirmed"
            ),
            models.CheckConstraint(
                condition=~Q(status="confirmed") | ~Q(winner=""), name="confirmed_has_winner"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}, table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.b_id is None

    @property
    def winner_position(self) -> int | None:
        """The winning seat's position (None: a draw, or not confirmed)."""
        return SEAT_LETTERS.index(self.winner) if self.winner in SEAT_LETTERS else None


class MatchSeat(models.Model):
    """One row per entrant per round: the database guarantees nobody is paired twice.
    Its outcome (``place``, ``score``, ``round_wins``) is written with the match's
    confirmation (``services.outcomes.write_seats``); null before."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="seats"
    )
    round = models.ForeignKey(
        Round,
        verbose_name=pgettext_lazy("round", "round"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    registration = models.ForeignKey(
        Registration, verbose_name=_("registration"), on_delete=models.CASCADE, related_name="seats"
    )
    #: The seat (0 first: ``Match.a``; 1: ``Match.b``; a pod's scores are listed so).
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    #: The seat's place once confirmed: 1 best, ties sharing the better place (a draw:
    #: both first; a bye: first).
    place = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("a seat's rank in its match", "place"), null=True, blank=True
    )
    #: The seat's total score over the confirmed games' rounds.
    score = models.IntegerField(verbose_name=_("score"), null=True, blank=True)
    #: The game rounds the seat won.
    round_wins = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("game round", "round wins"), null=True, blank=True
    )

    class Meta:
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "registration"], name="entrant_once_per_round"
            ),
            models.UniqueConstraint(fields=["match", "position"], name="one_entrant_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.registration} in {self.round}"


class ReportSide(models.TextChoices):
    A = "a", pgettext_lazy("report side", "First player")
    B = "b", pgettext_lazy("report side", "Second player")
    #: The third and fourth seats of a pod (``MatchSeat.position`` 2 and 3).
    C = "c", pgettext_lazy("report side", "Third player")
    D = "d", pgettext_lazy("report side", "Fourth player")
    JUDGE = "judge", pgettext_lazy("report side", "Judge")


class ResultReport(models.Model):
    """What one side (or a judge) said the result was. The match keeps the confirmed one."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="reports"
    )
    side = models.CharField(verbose_name=_("side"), max_length=6, choices=ReportSide.choices)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    games = models.JSONField(verbose_name=_("games"))
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)
    #: The latest report of each side is current; a newer one from the same side replaces it.
    current = models.BooleanField(
        verbose_name=pgettext_lazy("a result report", "current"), default=True
    )
    #: A final result (False: the game rounds played so far, saved during the match).
    complete = models.BooleanField(
        verbose_name=pgettext_lazy("a result report", "complete"), default=True
    )

    class Meta:
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "side"],
                condition=Q(current=True),
                name="one_current_report_per_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_side_display()} report for {self.match}"


class JudgeCall(models.Model):
    """A player of a match calls a judge to the table: open until a judge (or the caller)
    closes it; a judge takes it first ("on my way"), which the players see. One open call
    a match: a second tap while one is open finds that one."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="judge_calls"
    )
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("called by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    called_at = models.DateTimeField(verbose_name=_("called at"), default=timezone.now)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("answered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    answered_at = models.DateTimeField(verbose_name=_("answered at"), null=True, blank=True)
    closed_at = models.DateTimeField(verbose_name=_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("judge call")
        verbose_name_plural = _("judge calls")
        ordering = ["called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=Q(closed_at__isnull=True), name="one_open_call_a_match"
            ),
        ]

    def __str__(self) -> str:
        return f"Judge call for {self.match}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None
