"""Demo data: a club, an organiser, a judge, 24 players and a tournament open for
registration, created through the real services. Safe to run twice (it does nothing the
second time). Prints the logins to use."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from tournaments import services
from tournaments.models import Club, Game, Role

DEMO_PASSWORD = "demo-pass-2026"
CLUB_NAME = "Riverside Card Club"
PLAYER_NAMES = [
    "Ada",
    "Bruno",
    "Chloe",
    "Dario",
    "Elena",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kasia",
    "Luca",
    "Mila",
    "Nico",
    "Olga",
    "Pavel",
    "Quinn",
    "Rosa",
    "Sven",
    "Tara",
    "Umar",
    "Vera",
    "Wiktor",
    "Yara",
]


class Command(BaseCommand):
    help = "Create demo data (club, organiser, judge, 24 players, an open tournament)."

    def handle(self, *args: Any, **options: Any) -> None:
        if Club.objects.filter(name=CLUB_NAME).exists():
            self.stdout.write("Demo data already present.")
            self._print_logins()
            return
        with transaction.atomic():
            self._create()
        self._print_logins()

    def _create(self) -> None:
        User = get_user_model()
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.com", DEMO_PASSWORD)
        owner = services.sign_up(
            username="organiser",
            email="organiser@example.com",
            password=DEMO_PASSWORD,
            display_name="Olivia Organiser",
        ).user
        club = services.create_club(
            actor=owner,
            name=CLUB_NAME,
            description="Thursday evenings: Gesoseka, Vanilla Gwent and Kontsina.",
        )
        services.sign_up(
            username="judge",
            email="judge@example.com",
            password=DEMO_PASSWORD,
            display_name="Jules Judge",
        )
        services.add_member(actor=owner, club=club, username="judge", role=Role.JUDGE)
        now = timezone.now()
        tournament = services.create_tournament(
            actor=owner,
            club=club,
            name="Thursday Gesoseka Swiss",
            game=Game.GESOSEKA,
            capacity=32,
            best_of=1,
            scheduled_start=now + timedelta(days=2),
            description="Swiss rounds, best of one. Bring your own deck.",
            check_in_opens_at=now,
            check_in_closes_at=now + timedelta(days=2),
            publish=True,
        )
        for index, name in enumerate(PLAYER_NAMES, start=1):
            player = services.sign_up(
                username=f"player{index}",
                email=f"player{index}@example.com",
                password=DEMO_PASSWORD,
                display_name=name,
            )
            services.add_member(actor=owner, club=club, username=player.user.username)
            if index <= 20:  # leave a few places to register live
                services.register(actor=player.user, tournament=tournament)
            if index <= 12:
                services.check_in(
                    actor=player.user,
                    registration=player.registrations.get(tournament=tournament),
                )

    def _print_logins(self) -> None:
        self.stdout.write(self.style.SUCCESS(f"Demo logins (password for all: {DEMO_PASSWORD})"))
        self.stdout.write("  organiser  club owner, runs the tournament")
        self.stdout.write("  judge      club judge")
        self.stdout.write("  player1 … player24  players (1-20 registered, 1-12 checked in)")
        self.stdout.write("  admin      staff, for /admin/")
