"""Tournaments and their registrations (the entrants).

An *entrant* is what gets paired: a registration. In a single-player event it is one
player; in a team event (``Tournament.entrant_type`` TEAM) it is a team of two: the
registration's ``player`` (who registered the team: its captain) and ``partner`` (the
teammate, invited until ``partner_accepted_at``), under a ``team_name``. Pairing, results
and standings work per registration, so they treat a team exactly as a player.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models.clubs import Club, Player


class Game(models.TextChoices):
    GESOSEKA = "gesoseka", pgettext_lazy("game", "Gesoseka")
    VANILLA_GWENT = "vanilla_gwent", pgettext_lazy("game", "Vanilla Gwent")
    KONTSINA = "kontsina", pgettext_lazy("game", "Kontsina")
    GENERIC = "generic", pgettext_lazy("game", "Other pass-based card game")


class EntrantType(models.TextChoices):
    PLAYER = "player", pgettext_lazy("entrant type", "Single players")
    TEAM = "team", pgettext_lazy("entrant type", "Teams of two")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", pgettext_lazy("tournament status", "Draft")
    REGISTRATION = "registration", pgettext_lazy("tournament status", "Registration")
    RUNNING = "running", pgettext_lazy("tournament status", "Running")
    FINISHED = "finished", pgettext_lazy("tournament status", "Finished")


class Tournament(models.Model):
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="tournaments"
    )
    name = models.CharField(verbose_name=_("name"), max_length=120)
    description = models.TextField(verbose_name=_("description"), blank=True)
    game = models.CharField(
        verbose_name=pgettext_lazy("which card game", "game"), max_length=20, choices=Game.choices
    )
    entrant_type = models.CharField(
        verbose_name=_("entrant type"),
        max_length=10,
        choices=EntrantType.choices,
        default=EntrantType.PLAYER,
    )
    best_of = models.PositiveSmallIntegerField(
        verbose_name=_("best of"), default=1, help_text=_("Games per match: best of 1, 3 or 5.")
    )
    capacity = models.PositiveIntegerField(
        verbose_name=_("capacity"), help_text=_("Most players who can register.")
    )
    status = models.CharField(
        verbose_name=_("status"),
        max_length=16,
        choices=TournamentStatus.choices,
        default=TournamentStatus.DRAFT,
    )
    scheduled_start = models.DateTimeField(verbose_name=_("scheduled start"))
    registration_opens_at = models.DateTimeField(
        verbose_name=_("registration opens at"),
        null=True,
        blank=True,
        help_text=_("Empty: open as soon as the tournament is published."),
    )
    registration_closes_at = models.DateTimeField(
        verbose_name=_("registration closes at"),
        null=True,
        blank=True,
        help_text=_("Empty: registration closes at the scheduled start."),
    )
    check_in_opens_at = models.DateTimeField(
        verbose_name=_("check in opens at"), null=True, blank=True
    )
    check_in_closes_at = models.DateTimeField(
        verbose_name=_("check in closes at"), null=True, blank=True
    )
    #: Set by the clock job when the scheduled start was handled: makes it run once.
    start_handled_at = models.DateTimeField(
        verbose_name=_("start handled at"), null=True, blank=True, editable=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    #: A short note the organisers show on the projector ("Lunch at 13:00"); empty: none.
    #: Set through ``services.projector.set_announcement`` (audited).
    announcement = models.TextField(
        verbose_name=_("announcement"), max_length=280, blank=True, default=""
    )
    #: The event's language (one of ``settings.LANGUAGES``), "" for its club's: what the
    #: sheets the whole room reads speak (the projector, printed pairings, standings and
    #: match slips, the final results), whatever each reader's own language
    #: (``event_language``).
    language = models.CharField(verbose_name=_("language"), max_length=12, blank=True, default="")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
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

    @property
    def event_language(self) -> str:
        """The language of the event's shared sheets: its own, else its club's, else the
        site's (the club is read with the tournament by every page that asks)."""
        return self.language or self.club.language or settings.LANGUAGE_CODE

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
    REGISTERED = "registered", pgettext_lazy("registration status", "Registered")
    WITHDRAWN = "withdrawn", pgettext_lazy("registration status", "Withdrawn")
    NOT_PLAYING = (
        "not_playing",
        pgettext_lazy("registration status", "Not playing (did not check in)"),
    )
    DROPPED = "dropped", pgettext_lazy("registration status", "Dropped")


class Registration(models.Model):
    """An entrant: a player's entry in a tournament, or a team of two's.

    A team is a registration with a ``team_name`` (never empty for a team): ``player``
    registered it, ``partner`` is the teammate (invited: ``partner_accepted_at`` empty;
    a member: set). ``checked_in_at`` is the entrant's check-in: for a team, the moment
    its second member checked in (each member's own is ``player_checked_in_at`` and
    ``partner_checked_in_at``).
    """

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="registrations",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="registrations"
    )
    #: A team's name (empty: a single player's entry).
    team_name = models.CharField(verbose_name=_("team name"), max_length=60, blank=True, default="")
    #: A team's second player: invited, then a member once ``partner_accepted_at`` is set.
    #: RESTRICT: a teammate's account cannot vanish from under a team's results.
    partner = models.ForeignKey(
        Player,
        verbose_name=_("partner"),
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="partnerships",
    )
    partner_accepted_at = models.DateTimeField(
        verbose_name=_("partner accepted at"), null=True, blank=True
    )
    player_checked_in_at = models.DateTimeField(
        verbose_name=_("player checked in at"), null=True, blank=True
    )
    partner_checked_in_at = models.DateTimeField(
        verbose_name=_("partner checked in at"), null=True, blank=True
    )
    status = models.CharField(
        verbose_name=_("status"),
        max_length=16,
        choices=RegistrationStatus.choices,
        default=RegistrationStatus.REGISTERED,
    )
    registered_at = models.DateTimeField(verbose_name=_("registered at"), default=timezone.now)
    checked_in_at = models.DateTimeField(verbose_name=_("checked in at"), null=True, blank=True)
    rating = models.IntegerField(
        verbose_name=_("rating"),
        null=True,
        blank=True,
        help_text=_("Seed or rating, for a first round paired by rating."),
    )
    #: The first round this entrant could be paired in (late entrants join later).
    joined_round = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("round", "joined round"), default=1
    )
    #: The last round this entrant played before dropping (status ``dropped``).
    dropped_after_round = models.PositiveSmallIntegerField(
        verbose_name=pgettext_lazy("round", "dropped after round"), null=True, blank=True
    )
    #: A table this entrant always plays at (accessibility: a wheelchair-friendly table,
    #: one near the door); empty: any table. Swiss pairing honours it where it can
    #: (``pairing.tables.assign_tables``); set through ``services.seating.set_fixed_table``.
    fixed_table = models.PositiveSmallIntegerField(
        verbose_name=_("fixed table"), null=True, blank=True
    )
    #: Where the entrant finished (1: the champion; places may be shared, as a bracket's
    #: semi-finalists share 3rd), set when the tournament finishes and again after a
    #: correction (``services.stages.record_final_places``); empty before.
    final_place = models.PositiveSmallIntegerField(
        verbose_name=_("final place"), null=True, blank=True
    )
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
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
            models.CheckConstraint(
                condition=Q(fixed_table__isnull=True) | Q(fixed_table__gte=1),
                name="fixed_table_positive",
            ),
            # A team of one: a player cannot be their own teammate.
            models.CheckConstraint(
                condition=Q(partner__isnull=True) | ~Q(partner=F("player")),
                name="partner_not_self",
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=False) | Q(partner_accepted_at__isnull=True),
                name="accepted_only_with_partner",
            ),
            # Only a team with two members checks in (so only such a team ever plays).
            models.CheckConstraint(
                condition=Q(checked_in_at__isnull=True)
                | Q(team_name="")
                | Q(partner_accepted_at__isnull=False),
                name="team_checked_in_with_two",
            ),
            # One team per teammate (a player who registered a team is checked by the
            # service, under the tournament's row lock: a constraint sees one column).
            models.UniqueConstraint(
                fields=["tournament", "partner"],
                condition=Q(partner__isnull=False),
                name="one_team_per_partner",
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

    # Teams: cheap views (the partner is read with the player where a page needs names).
    @property
    def is_team(self) -> bool:
        return bool(self.team_name)

    @property
    def team_complete(self) -> bool:
        """A team whose teammate accepted (a single player's entry: always)."""
        return not self.is_team or self.partner_accepted_at is not None

    @property
    def name(self) -> str:
        """The entrant's name: the team's, or the player's."""
        return self.team_name or self.player.display_name

    @property
    def members(self) -> list[Player]:
        """Who plays for this entrant: the player, and a team's accepted teammate."""
        if self.partner_id is not None and self.partner_accepted_at is not None:
            return [self.player, self.partner]  # type: ignore[list-item]
        return [self.player]

    @property
    def member_names(self) -> str:
        """ "Ada & Bruno" for a team of two; the player's name otherwise."""
        return " & ".join(p.display_name for p in self.members)

    def has_member(self, user_id: int | None) -> bool:
        """Whether the user plays for this entrant (reads ``player`` and, for a team with
        a teammate, ``partner``: load them with the registration)."""
        if user_id is None:
            return False
        if self.player.user_id == user_id:
            return True
        return (
            self.partner_id is not None
            and self.partner_accepted_at is not None
            and self.partner.user_id == user_id  # type: ignore[union-attr]
        )

    def is_invited(self, user_id: int | None) -> bool:
        """Whether the user is invited to this team and has not answered yet."""
        return (
            user_id is not None
            and self.partner_id is not None
            and self.partner_accepted_at is None
            and self.partner.user_id == user_id  # type: ignore[union-attr]
        )
