"""Tournaments and their registrations (the entrants, for single-player events).

An *entrant* is what gets paired: a registration of one player now, a team of two later
(``Tournament.entrant_type`` leaves room for it).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from tournaments.models.clubs import Club, Player


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
