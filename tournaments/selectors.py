"""Every non-trivial read: lists for pages and the API, and who-may-do-what questions.

Querysets here use ``select_related``/``prefetch_related`` so that the number of queries
does not grow with the number of rows shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments.models import (
    JUDGING_ROLES,
    MANAGING_ROLES,
    AuditEntry,
    Club,
    Invitation,
    Membership,
    Registration,
    RegistrationStatus,
    Tournament,
    TournamentStatus,
)

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
