"""Reads about judge calls (``services.judge_calls``): who may call, the open calls of a
tournament for the judges' grid and the control page (one query), a match's open call
for its page and its live table, and the words the players and judges read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext

from core.auth import AnyUser
from tournaments.models import JudgeCall, Match, MatchSeat, Tournament
from tournaments.selectors.policies import side_in_match
from tournaments.selectors.tournaments import member_of_entrant


def plays_in(user: AnyUser, match: Match) -> bool:
    """The user plays in the match: a side's player or teammate, or a pod's seat."""
    if not user.is_authenticated:
        return False
    if side_in_match(user, match) is not None:
        return True
    return MatchSeat.objects.filter(
        member_of_entrant(user.pk, prefix="registration__"), match=match
    ).exists()


def open_calls(tournament: Tournament) -> dict[int, JudgeCall]:
    """Match id -> its open call, for every match of the tournament (one query)."""
    return {
        call.match_id: call
        for call in JudgeCall.objects.filter(
            closed_at__isnull=True, match__round__tournament=tournament
        ).select_related("called_by__player", "answered_by__player", "match")
    }


def open_call_of(match: Match) -> JudgeCall | None:
    return (
        JudgeCall.objects.filter(closed_at__isnull=True, match=match)
        .select_related("called_by__player", "answered_by__player")
        .first()
    )


def _person(user: object) -> str:
    player = getattr(user, "player", None)
    if player is not None:
        return str(player.display_name)
    return str(getattr(user, "username", "") or gettext("a player"))


@dataclass(frozen=True)
class CallWords:
    call: JudgeCall
    #: "Ana called a judge 3 minutes ago"
    called: str
    #: "Jonas is on the way" ("" until a judge takes it)
    answered: str


def words_for(
    call: JudgeCall, *, now: datetime | None = None, viewer_id: int | None = None
) -> CallWords:
    """The call in words; ``viewer_id``: who reads it ("You called a judge just now")."""
    now = now or timezone.now()
    just_now = (now - call.called_at).total_seconds() < 60
    # "3 minutes": the largest unit alone (Django words it in the reader's language).
    since = "" if just_now else timesince(call.called_at, now, depth=1)
    if viewer_id is not None and call.called_by_id == viewer_id:
        called = (
            gettext("You called a judge just now")
            if just_now
            else gettext("You called a judge %(time)s ago") % {"time": since}
        )
    else:
        who = _person(call.called_by) if call.called_by is not None else gettext("A player")
        called = (
            gettext("%(name)s called a judge just now") % {"name": who}
            if just_now
            else gettext("%(name)s called a judge %(time)s ago") % {"name": who, "time": since}
        )
    answered = (
        gettext("%(name)s is on the way") % {"name": _person(call.answered_by)}
        if call.answered_by is not None
        else ""
    )
    return CallWords(call=call, called=called, answered=answered)
