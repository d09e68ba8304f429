"""Clubs, people, tournaments, registrations and the audit log.

Vocabulary (``../shared/DESIGN.md``): a *club* runs *tournaments*; a *member* of a club has
a role (owner, organiser, judge, member); a *player* is a user's profile (display name);
an *entrant* is what gets paired: a registration of one player now, a team of two later
(``Tournament.entrant_type`` leaves room for it).

Models hold fields, choices and the database constraints that make bad states impossible;
the rules about who may do what and when live in ``services.py``.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone


class Player(models.Model):
    """A person's public face in the tournaments: one per user account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    ORGANISER = "organiser", "Organiser"
    JUDGE = "judge", "Judge"
    MEMBER = "member", "Member"


#: Roles that may create and edit a club's tournaments.
MANAGING_ROLES = (Role.OWNER, Role.ORGANISER)
#: Roles that may enter and override results.
JUDGING_ROLES = (Role.OWNER, Role.ORGANISER, Role.JUDGE)


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.club}"


class Invitation(models.Model):
    """An owner's invitation, by e-mail, to join a club with a role."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.email} → {self.club} as {self.role}"


class Game(models.TextChoices):
    GESOSEKA = "gesoseka", "Gesoseka"
    VANILLA_GWENT = "vanilla_gwent", "Vanilla Gwent"
    KONTSINA = "kontsina", "Kontsina"
    GENERIC = "generic", "Other pass-based card game"


class EntrantType(models.TextChoices):
    PLAYER = "player", "Single players"
    TEAM = "team", "Teams of two"


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    REGISTRATION = "registration", "Registration"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Tournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    game = models.CharField(max_length=20, choices=Game.choices)
    entrant_type = models.CharField(
        max_length=10, choices=EntrantType.choices, default=EntrantType.PLAYER
    )
    best_of = models.PositiveSmallIntegerField(
        default=1, help_text="Games per match: best of 1, 3 or 5."
    )
    capacity = models.PositiveIntegerField(help_text="Most players who can register.")
    status = models.CharField(
        max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.DRAFT
    )
    scheduled_start = models.DateTimeField()
    registration_opens_at = models.DateTimeField(
        null=True, blank=True, help_text="Empty: open as soon as the tournament is published."
    )
    registration_closes_at = models.DateTimeField(
        null=True, blank=True, help_text="Empty: registration closes at the scheduled start."
    )
    check_in_opens_at = models.DateTimeField(null=True, blank=True)
    check_in_closes_at = models.DateTimeField(null=True, blank=True)
    #: Set by the clock job when the scheduled start was handled: makes it run once.
    start_handled_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-scheduled_start", "name"]
        indexes = [
            # The clock sweeper's query: starts due and not handled yet.
            models.Index(
                fields=["scheduled_start"],
                name="tournament_start_due",
                condition=Q(start_handled_at__isnull=True),
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(capacity__gte=2), name="capacity_at_least_two"),
            models.CheckConstraint(
                condition=Q(best_of__in=[1, 3, 5]), name="best_of_one_three_or_five"
            ),
            models.CheckConstraint(condition=Q(game__in=Game.values), name="game_known"),
            models.CheckConstraint(
                condition=Q(status__in=TournamentStatus.values), name="status_known"
            ),
            models.CheckConstraint(
                condition=Q(check_in_opens_at__isnull=True)
                | Q(check_in_closes_at__isnull=True)
                | Q(check_in_opens_at__lt=F("check_in_closes_at")),
                name="check_in_window_ordered",
            ),
            models.CheckConstraint(
                condition=Q(registration_opens_at__isnull=True)
                | Q(registration_closes_at__isnull=True)
                | Q(registration_opens_at__lt=F("registration_closes_at")),
                name="registration_window_ordered",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    # Cheap, derived views of the fields (no queries).
    @property
    def registration_closes(self) -> datetime:
        return self.registration_closes_at or self.scheduled_start

    def registration_is_open(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        if self.status != TournamentStatus.REGISTRATION:
            return False
        if self.registration_opens_at and now < self.registration_opens_at:
            return False
        return now < self.registration_closes

    def check_in_is_open(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        if self.status != TournamentStatus.REGISTRATION:
            return False
        if not (self.check_in_opens_at and self.check_in_closes_at):
            return False
        return self.check_in_opens_at <= now < self.check_in_closes_at


class RegistrationStatus(models.TextChoices):
    REGISTERED = "registered", "Registered"
    WITHDRAWN = "withdrawn", "Withdrawn"
    NOT_PLAYING = "not_playing", "Not playing (did not check in)"
    DROPPED = "dropped", "Dropped"


class Registration(models.Model):
    """A player's entry in a tournament (the entrant, for single-player events)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations")
    status = models.CharField(
        max_length=16, choices=RegistrationStatus.choices, default=RegistrationStatus.REGISTERED
    )
    registered_at = models.DateTimeField(default=timezone.now)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    rating = models.IntegerField(
        null=True, blank=True, help_text="Seed or rating, for a first round paired by rating."
    )
    #: The first round this entrant could be paired in (late entrants join later).
    joined_round = models.PositiveSmallIntegerField(default=1)
    #: The last round this entrant played before dropping (status ``dropped``).
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="one_registration_per_player"
            ),
            models.CheckConstraint(
                condition=Q(status__in=RegistrationStatus.values), name="registration_status_known"
            ),
            models.CheckConstraint(
                condition=Q(checked_in_at__isnull=True)
                | Q(status__in=[RegistrationStatus.REGISTERED, RegistrationStatus.DROPPED]),
                name="only_registered_players_checked_in",
            ),
            models.CheckConstraint(
                condition=Q(dropped_after_round__isnull=True)
                | Q(status=RegistrationStatus.DROPPED),
                name="dropped_round_only_when_dropped",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    @property
    def is_active(self) -> bool:
        return self.status == RegistrationStatus.REGISTERED

    @property
    def checked_in(self) -> bool:
        return self.checked_in_at is not None


class AuditEntry(models.Model):
    """Who changed what, when, with the state before and after (DESIGN.md, "Results")."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Empty when the system acted (a clock job).",
    )
    action = models.CharField(max_length=60)
    summary = models.CharField(max_length=255)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True)
    object_type = models.CharField(max_length=60)
    object_id = models.CharField(max_length=40)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"


# --- Swiss rounds, matches and results -------------------------------------------------------


class OverduePolicy(models.TextChoices):
    NONE = "none", "Flag overdue matches for a judge"
    DRAW = "draw", "Record unfinished matches as draws"
    AHEAD = "ahead", "The player ahead in game rounds wins; level is a draw"


class FirstRoundPairing(models.TextChoices):
    RANDOM = "random", "Random (seeded)"
    RATING = "rating", "By seed / rating"


class LateEntry(models.TextChoices):
    LOSSES = "losses", "Missed rounds count as losses"
    ZERO = "zero", "Missed rounds are not counted"


DEFAULT_TIEBREAKERS = ["omw", "gw", "ogw"]


class SwissSettings(models.Model):
    """How a tournament's Swiss stage runs; one row per tournament, created with it."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="swiss", primary_key=True
    )
    rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text="Empty: from attendance (MTR table).",
    )
    round_minutes = models.PositiveSmallIntegerField(
        default=50, validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    auto_pair = models.BooleanField(
        default=True, help_text="Pair the next round as soon as the last result is confirmed."
    )
    overdue_policy = models.CharField(
        max_length=8, choices=OverduePolicy.choices, default=OverduePolicy.NONE
    )
    first_round = models.CharField(
        max_length=8, choices=FirstRoundPairing.choices, default=FirstRoundPairing.RANDOM
    )
    late_entry = models.CharField(max_length=8, choices=LateEntry.choices, default=LateEntry.LOSSES)
    tiebreakers = models.JSONField(default=list, blank=True)
    bye_counts_in_own_mw = models.BooleanField(
        default=True, help_text="MTR: a bye counts as a match win in your own MW%."
    )
    rounds_to_win = models.PositiveSmallIntegerField(
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(5)],
        help_text="Generic games: game-round wins that win a game.",
    )
    kontsina_rounds = models.PositiveSmallIntegerField(
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text="Kontsina: game rounds in a game.",
    )
    seed = models.BigIntegerField(default=0, help_text="Seeds random pairings (reproducible).")

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
        constraints = [
            models.CheckConstraint(
                condition=Q(round_minutes__gte=1), name="round_minutes_positive"
            ),
            models.CheckConstraint(
                condition=Q(rounds_to_win__gte=1), name="rounds_to_win_positive"
            ),
            models.CheckConstraint(
                condition=Q(kontsina_rounds__gte=1), name="kontsina_rounds_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Swiss settings of {self.tournament}"


class RoundStatus(models.TextChoices):
    PAIRED = "paired", "Paired"
    IN_PROGRESS = "in_progress", "In progress"
    COMPLETE = "complete", "Complete"


class Round(models.Model):
    """A tournament round (Swiss round 3). Its deadline fields drive the round clock."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=12, choices=RoundStatus.choices, default=RoundStatus.PAIRED
    )
    paired_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    #: When the 10-minute and time warnings were given (null: not yet): each once.
    warned_10_at = models.DateTimeField(null=True, blank=True)
    warned_0_at = models.DateTimeField(null=True, blank=True)
    time_handled_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    #: Engine statistics of the pairing (rematches, pair-downs, point difference).
    pairing_stats = models.JSONField(default=dict, blank=True)

    class Meta:
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


class MatchStatus(models.TextChoices):
    PENDING = "pending", "Waiting for a report"
    REPORTED = "reported", "Reported, waiting for the opponent"
    DISPUTED = "disputed", "Disputed"
    CONFIRMED = "confirmed", "Confirmed"


class Winner(models.TextChoices):
    A = "a", "First player"
    B = "b", "Second player"
    DRAW = "draw", "Draw"


class Match(models.Model):
    """Two entrants at a table in a round (or one entrant with the bye: ``b`` empty).

    ``result`` is the confirmed list of games, each a list of game rounds; the outcome
    columns are derived from it by the game's rules when it is confirmed, and stored so
    that standings are a single query.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField()
    #: RESTRICT: a paired registration cannot be deleted on its own, but deleting the
    #: tournament deletes its matches too.
    a = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="+")
    b = models.ForeignKey(
        Registration, on_delete=models.RESTRICT, related_name="+", null=True, blank=True
    )
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.PENDING
    )
    overdue = models.BooleanField(default=False)
    notes = models.JSONField(default=list, blank=True, help_text="Why this pairing.")
    result = models.JSONField(null=True, blank=True)
    winner = models.CharField(max_length=4, choices=Winner.choices, blank=True)
    games_a = models.PositiveSmallIntegerField(default=0)
    games_b = models.PositiveSmallIntegerField(default=0)
    games_drawn = models.PositiveSmallIntegerField(default=0)
    game_rounds_a = models.PositiveSmallIntegerField(default=0)
    game_rounds_b = models.PositiveSmallIntegerField(default=0)
    score_a = models.IntegerField(default=0)
    score_b = models.IntegerField(default=0)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["round", "table"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_match_per_table"),
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


class MatchSeat(models.Model):
    """One row per entrant per round: the database guarantees nobody is paired twice."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "registration"], name="entrant_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration} in {self.round}"


class ReportSide(models.TextChoices):
    A = "a", "First player"
    B = "b", "Second player"
    JUDGE = "judge", "Judge"


class ResultReport(models.Model):
    """What one side (or a judge) said the result was. The match keeps the confirmed one."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    side = models.CharField(max_length=6, choices=ReportSide.choices)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    games = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    #: The latest report of each side is current; a newer one from the same side replaces it.
    current = models.BooleanField(default=True)
    #: A final result (False: the game rounds played so far, saved during the match).
    complete = models.BooleanField(default=True)

    class Meta:
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


class Event(models.Model):
    """The tournament's public event feed (round paired, result confirmed, time warnings),
    read by pages, club bots (``/api/v1/tournaments/{id}/events/``) and webhooks."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=40)
    message = models.CharField(max_length=255)
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["tournament", "id"])]

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"
