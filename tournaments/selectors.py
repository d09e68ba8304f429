"""Every non-trivial read: lists for pages and the API, and who-may-do-what questions.

Querysets here use ``select_related``/``prefetch_related`` so that the number of queries
does not grow with the number of rows shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery

from tournaments.models import (
    DEFAULT_TIEBREAKERS,
    JUDGING_ROLES,
    MANAGING_ROLES,
    AuditEntry,
    Club,
    Event,
    Invitation,
    LateEntry,
    Match,
    MatchSeat,
    MatchStatus,
    Membership,
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    SwissSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.pairing import standings, swiss

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser


def role_in_club(user: AnyUser, club: Club) -> str | None:
    """The user's role in the club, or None for non-members and anonymous users."""
    if not user.is_authenticated:
        return None
    cache = getattr(user, "_club_roles", None)
    if cache is None:
        cache = {}
        user._club_roles = cache  # type: ignore[union-attr]
    if club.pk not in cache:
        cache[club.pk] = (
            Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
        )
    return cache[club.pk]


def can_manage_club(user: AnyUser, club: Club) -> bool:
    """Owners and organisers create and edit the club's tournaments."""
    return role_in_club(user, club) in MANAGING_ROLES


def can_judge(user: AnyUser, club: Club) -> bool:
    return role_in_club(user, club) in JUDGING_ROLES


def is_club_owner(user: AnyUser, club: Club) -> bool:
    return role_in_club(user, club) == "owner"


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(
        member_count=Count("memberships", distinct=True),
        tournament_count=Count(
            "tournaments", filter=~Q(tournaments__status=TournamentStatus.DRAFT), distinct=True
        ),
    )


def club_members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user", "user__player").order_by(
        "role", "user__username"
    )


def visible_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """Published tournaments for everyone; drafts only for their club's managers."""
    qs = Tournament.objects.select_related("club").annotate(
        registered_count=Count(
            "registrations",
            filter=Q(registrations__status=RegistrationStatus.REGISTERED),
            distinct=True,
        ),
        checked_in_count=Count(
            "registrations",
            filter=Q(
                registrations__status=RegistrationStatus.REGISTERED,
                registrations__checked_in_at__isnull=False,
            ),
            distinct=True,
        ),
    )
    published = ~Q(status=TournamentStatus.DRAFT)
    if not user.is_authenticated:
        return qs.filter(published)
    managed_clubs = Membership.objects.filter(user=user, role__in=MANAGING_ROLES).values("club")
    return qs.filter(published | Q(club__in=managed_clubs))


def tournament_registrations(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player", "player__user").order_by(
        "status", "registered_at", "id"
    )


def active_registration_count(tournament: Tournament) -> int:
    return tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()


def registration_of(user: AnyUser, tournament: Tournament) -> Registration | None:
    if not user.is_authenticated:
        return None
    return tournament.registrations.select_related("player").filter(player__user=user).first()


def tournaments_with_registrations(user: AnyUser) -> QuerySet[Tournament]:
    return visible_tournaments(user).prefetch_related(
        Prefetch(
            "registrations",
            queryset=Registration.objects.select_related("player"),
        )
    )


def audit_log(
    *, club: Club | None = None, tournament: Tournament | None = None
) -> QuerySet[AuditEntry]:
    qs = AuditEntry.objects.select_related("actor")
    if club is not None:
        qs = qs.filter(club=club)
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    return qs


def due_tournament_starts(now):  # type: ignore[no-untyped-def]
    """Ids of tournaments whose scheduled start passed and was not handled yet."""
    return list(
        Tournament.objects.filter(
            start_handled_at__isnull=True,
            status=TournamentStatus.REGISTRATION,
            scheduled_start__lte=now,
        )
        .order_by("scheduled_start")
        .values_list("pk", flat=True)[:100]
    )


def invitation_by_token(token: str) -> Invitation | None:
    return Invitation.objects.select_related("club", "invited_by").filter(token=token).first()


def tournament_by_pk(pk: int) -> Tournament:
    """A fresh copy of the row (a form's ``instance`` was changed by validation)."""
    return Tournament.objects.select_related("club").get(pk=pk)


# --- Swiss rounds, pairings and standings ------------------------------------------------------


def confirmed_results(tournament: Tournament) -> list[standings.MatchResult]:
    """Every confirmed match of the tournament as the standings engine reads it (1 query)."""
    rows = (
        Match.objects.filter(round__tournament=tournament, status=MatchStatus.CONFIRMED)
        .order_by("round__number", "table")
        .values_list(
            "round__number",
            "a_id",
            "b_id",
            "winner",
            "games_a",
            "games_b",
            "games_drawn",
            "game_rounds_a",
            "game_rounds_b",
            "score_a",
            "score_b",
        )
    )
    return [standings.MatchResult(*row) for row in rows]


def standings_entrants(tournament: Tournament) -> QuerySet[Registration]:
    """Registrations that are (or were) playing: registered and dropped."""
    return tournament.registrations.select_related("player", "player__user").filter(
        status__in=[RegistrationStatus.REGISTERED, RegistrationStatus.DROPPED]
    )


def tournament_standings(tournament: Tournament) -> StandingsTable:
    """Standings with the tournament's tiebreakers; 3 queries whatever the field size."""
    settings = SwissSettings.objects.filter(tournament=tournament).first() or SwissSettings(
        tournament=tournament
    )
    late_losses = settings.late_entry == LateEntry.LOSSES
    registrations = {r.pk: r for r in standings_entrants(tournament)}
    entrants = [
        standings.Entrant(
            id=r.pk,
            dropped_after=r.dropped_after_round,
            missed_rounds_lost=(r.joined_round - 1) if late_losses else 0,
        )
        for r in registrations.values()
    ]
    matches = [
        m for m in confirmed_results(tournament) if m.a in registrations
    ]  # a withdrawn entrant's old matches stay out of the table
    table = standings.compute_standings(
        entrants,
        [m for m in matches if m.b is None or m.b in registrations],
        tiebreakers=settings.tiebreakers or DEFAULT_TIEBREAKERS,
        bye_counts_in_own_mw=settings.bye_counts_in_own_mw,
    )
    return StandingsTable(table=table, registrations=registrations)


class StandingsTable:
    """The engine's standings plus the registrations they name (for pages and the API)."""

    def __init__(
        self, *, table: standings.Standings, registrations: dict[int, Registration]
    ) -> None:
        self.table = table
        self.registrations = registrations
        self.labels = [standings.LABELS[t] for t in table.tiebreakers]

    def rows(self) -> list[tuple[standings.Row, Registration]]:
        return [(row, self.registrations[row.entrant]) for row in self.table.rows]


def swiss_field(
    tournament: Tournament, *, settings: SwissSettings, round_number: int
) -> list[swiss.Entrant]:
    """The entrants the engine pairs in ``round_number``, with points, rank, opponents."""
    table = tournament_standings(tournament)
    opponents: dict[int, set[int]] = {pk: set() for pk in table.registrations}
    byes: set[int] = set()
    seats = Match.objects.filter(round__tournament=tournament).values_list("a_id", "b_id")
    for a, b in seats:
        if b is None:
            byes.add(a)
        elif a in opponents and b in opponents:
            opponents[a].add(b)
            opponents[b].add(a)
    field: list[swiss.Entrant] = []
    for row, reg in table.rows():
        if reg.joined_round > round_number:
            continue
        field.append(
            swiss.Entrant(
                id=reg.pk,
                points=row.points,
                rank=row.rank,
                opponents=frozenset(opponents[reg.pk]),
                had_bye=reg.pk in byes,
                rating=reg.rating,
                dropped=reg.status != RegistrationStatus.REGISTERED,
            )
        )
    return field


def tournament_rounds(tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.order_by("number")


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def round_matches(rnd: Round) -> QuerySet[Match]:
    """A round's matches with both entrants' names (1 query)."""
    return rnd.matches.select_related("a__player__user", "b__player__user").order_by("table")


def match_for_page(pk: int) -> Match | None:
    return (
        Match.objects.select_related(
            "round__tournament__club", "a__player__user", "b__player__user"
        )
        .prefetch_related("reports__reported_by")
        .filter(pk=pk)
        .first()
    )


def current_match_of(user: AnyUser, tournament: Tournament) -> Match | None:
    """The user's match in the tournament's latest round, if they are paired in it."""
    if not user.is_authenticated:
        return None
    rnd = current_round(tournament)
    if rnd is None:
        return None
    seat = (
        MatchSeat.objects.select_related("match")
        .filter(round=rnd, registration__player__user=user)
        .first()
    )
    return None if seat is None else match_for_page(seat.match_id)


def matches_for_judge(
    tournament: Tournament, *, round_number: int | None = None, status: str | None = None
) -> QuerySet[Match]:
    qs = Match.objects.select_related("round", "a__player", "b__player").filter(
        round__tournament=tournament, b__isnull=False
    )
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    if status == "overdue":
        qs = qs.filter(overdue=True).exclude(status=MatchStatus.CONFIRMED)
    elif status:
        qs = qs.filter(status=status)
    return qs.order_by("-round__number", "table")


def tournament_events(tournament: Tournament, *, after: int | None = None) -> QuerySet[Event]:
    qs = tournament.events.all()
    if after is not None:
        qs = qs.filter(pk__gt=after)
    return qs.order_by("-pk")


def due_round_clocks(now):  # type: ignore[no-untyped-def]
    """Ids of running rounds whose warning or time passed unhandled."""
    from datetime import timedelta

    from tournaments.services.rounds import WARNING_MINUTES

    running = Round.objects.filter(status=RoundStatus.IN_PROGRESS, time_handled_at__isnull=True)
    due = running.filter(
        Q(ends_at__lte=now)
        | Q(warned_10_at__isnull=True, ends_at__lte=now + timedelta(minutes=WARNING_MINUTES))
    )
    return list(due.order_by("ends_at").values_list("pk", flat=True)[:100])


def rounds_waiting_for_pairing():  # type: ignore[no-untyped-def]
    """(tournament id, next round number) for running tournaments with automatic pairing
    whose latest round is complete but the next one was not paired (a lost task)."""
    latest = (
        Round.objects.filter(tournament=OuterRef("pk")).order_by("-number").values("status")[:1]
    )
    latest_number = (
        Round.objects.filter(tournament=OuterRef("pk")).order_by("-number").values("number")[:1]
    )
    rows = (
        Tournament.objects.filter(status=TournamentStatus.RUNNING, swiss__auto_pair=True)
        .annotate(latest_status=Subquery(latest), latest_number=Subquery(latest_number))
        .filter(Q(latest_status=RoundStatus.COMPLETE) | Q(latest_status__isnull=True))
        .values_list("pk", "latest_number")[:100]
    )
    return [(pk, (number or 0) + 1) for pk, number in rows]
