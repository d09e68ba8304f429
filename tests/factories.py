"""factory_boy factories. Rows with rules attached (tournaments, registrations) are built
through the services where it matters; these factories make plain, valid rows fast."""

from __future__ import annotations

from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from tournaments.models import (
    Club,
    EntrantType,
    Membership,
    Player,
    Registration,
    Role,
    Stage,
    StageStatus,
    SwissSettings,
    Tournament,
    TournamentStatus,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("pass-word-123")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    display_name = factory.LazyAttribute(lambda p: p.user.username.title())


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.MEMBER


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Tournament {n}")
    game = "gesoseka"
    capacity = 16
    status = TournamentStatus.REGISTRATION
    scheduled_start = factory.LazyFunction(lambda: timezone.now() + timedelta(days=1))
    check_in_opens_at = factory.LazyFunction(lambda: timezone.now() - timedelta(minutes=5))
    check_in_closes_at = factory.LazyAttribute(lambda t: t.scheduled_start)

    @factory.post_generation
    def stage(self, create: bool, extracted: object, **kwargs: object) -> None:
        """Like ``lifecycle.create_tournament``: one Swiss stage with default settings
        (running when the tournament is)."""
        if not create:
            return
        stage = Stage.objects.create(
            tournament=self,
            number=1,
            status=StageStatus.RUNNING
            if self.status == TournamentStatus.RUNNING
            else StageStatus.PENDING,
        )
        SwissSettings.objects.create(stage=stage, tiebreakers=["omw", "gw", "ogw"])


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)


def member(club: Club, role: str = Role.MEMBER, **user_kwargs):
    """A user with a player profile and a membership of ``club`` with ``role``."""
    player = PlayerFactory(**({"user__" + k: v for k, v in user_kwargs.items()}))
    MembershipFactory(club=club, user=player.user, role=role)
    return player.user


def running_tournament(players: int = 8, *, game: str = "generic", best_of: int = 1, **swiss):
    """A started tournament with ``players`` checked-in entrants and an organiser.

    Returns ``(tournament, organiser, registrations)``; ``swiss`` sets ``SwissSettings``
    fields (default: automatic pairing, 3 rounds, seed 7).
    """
    tournament = TournamentFactory(
        game=game,
        best_of=best_of,
        capacity=max(players, 2),
        status=TournamentStatus.RUNNING,
        scheduled_start=timezone.now() - timedelta(minutes=1),
        check_in_opens_at=timezone.now() - timedelta(hours=1),
        check_in_closes_at=timezone.now() - timedelta(minutes=1),
        start_handled_at=timezone.now(),
    )
    options = {"rounds": 3, "seed": 7, "tiebreakers": ["omw", "gw", "ogw"], **swiss}
    SwissSettings.objects.filter(stage__tournament=tournament).update(**options)
    organiser = member(tournament.club, Role.ORGANISER)
    registrations = [
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
        for _ in range(players)
    ]
    return tournament, organiser, registrations


def team_registration(tournament: Tournament, *, checked_in: bool = True, name: str = ""):
    """A complete team of two in ``tournament`` (both members accepted; checked in)."""
    now = timezone.now()
    captain, partner = PlayerFactory(), PlayerFactory()
    return RegistrationFactory(
        tournament=tournament,
        player=captain,
        partner=partner,
        team_name=name or f"{captain.display_name} & {partner.display_name}",
        partner_accepted_at=now,
        player_checked_in_at=now if checked_in else None,
        partner_checked_in_at=now if checked_in else None,
        checked_in_at=now if checked_in else None,
    )


def running_team_tournament(teams: int = 8, *, game: str = "generic", best_of: int = 1, **swiss):
    """A started 2 vs 2 tournament with ``teams`` checked-in teams of two and an organiser
    (``running_tournament`` for teams). Returns ``(tournament, organiser, registrations)``."""
    tournament, organiser, _ = running_tournament(0, game=game, best_of=best_of, **swiss)
    tournament.entrant_type = EntrantType.TEAM
    tournament.capacity = max(teams, 2)
    tournament.save(update_fields=["entrant_type", "capacity"])
    return tournament, organiser, [team_registration(tournament) for _ in range(teams)]


#: A finished generic game (first to 2 game-round wins) won by the match's first entrant.
A_WINS = [{"rounds": [[10, 5], [10, 5]]}]
B_WINS = [{"rounds": [[5, 10], [5, 10]]}]


def draft_pods(
    players: int = 4,
    *,
    pod_size: int = 4,
    seconds: int = 60,
    game: str = "generic",
    auto_pair: bool = True,
):
    """A running tournament with its players seated in draft pods (not started).

    Returns ``(pods, organiser, registrations)``. ``auto_pair=False`` for a live server
    whose embedded clock would otherwise pair round 1 before the pods are seated.
    """
    from gameplay.services import drafts as draft_services

    tournament, organiser, registrations = running_tournament(
        players, game=game, auto_pair=auto_pair
    )
    pods = draft_services.create_pods(
        actor=organiser, tournament=tournament, pod_size=pod_size, seconds_per_pick=seconds
    )
    return pods, organiser, registrations
