"""Reads about clubs: the list, members, invitations."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from tournaments.models import Club, Invitation, Membership, TournamentStatus


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


def invitation_by_token(token: str) -> Invitation | None:
    return Invitation.objects.select_related("club", "invited_by").filter(token=token).first()
