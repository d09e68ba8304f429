"""Calling a judge to a table (issue 22): a player of a match calls; the event's judges are
told (the feed's ``judge.called`` event: the judges' grid and the control page flag the
match, and the outbox tells the club's judges by push and e-mail as they chose); a judge
takes the call ("on my way", which the players see); a judge or the caller closes it.

Each call is written under the match's lock, so a double tap (or both players tapping at
once) finds the open call instead of making a second one; the database allows one open
call a match (``one_open_call_a_match``) besides.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import record_audit, record_event
from core.auth import AnyUser, require_user
from core.errors import Conflict, NotAllowed, NotFound
from core.events import EventKind
from core.locks import lock_one
from tournaments.models import JudgeCall, Match
from tournaments.selectors import policies
from tournaments.selectors.judge_calls import plays_in
from tournaments.services.locks import lock_match


@transaction.atomic(durable=True)
def call_judge(*, actor: AnyUser, match: Match | int) -> JudgeCall:
    """A player of the match calls a judge (the open call if there is one)."""
    user = require_user(actor)
    match = lock_match(match.pk if isinstance(match, Match) else match)
    if not plays_in(user, match):
        raise NotAllowed(
            gettext("Only the players of this match can call a judge to it."), code="not_player"
        )
    open_call = JudgeCall.objects.filter(match=match, closed_at__isnull=True).first()
    if open_call is not None:
        return open_call
    call = JudgeCall.objects.create(match=match, called_by=user)
    tournament = match.round.tournament
    record_event(
        tournament=tournament,
        kind=EventKind.JUDGE_CALLED,
        payload={"match": match.pk, "round": match.round.number, "table": match.table},
        params={"table": match.table, "a": match.a.name, "b": match.b.name if match.b else ""},
    )
    record_audit(
        actor=user,
        action="judge.called",
        params={"tournament": tournament.name, "table": match.table},
        obj=call,
        club=tournament.club,
        tournament=tournament,
    )
    return call


def _locked_call(call: JudgeCall | int) -> JudgeCall:
    pk = call.pk if isinstance(call, JudgeCall) else call
    found = lock_one(JudgeCall, related=("match__round__tournament__club",), pk=pk)
    if found is None:
        raise NotFound(gettext("No such call."))
    return found


@transaction.atomic(durable=True)
def answer_call(*, actor: AnyUser, call: JudgeCall | int) -> JudgeCall:
    """A judge takes the call: the players see who is on the way."""
    user = require_user(actor)
    call = _locked_call(call)
    tournament = call.match.round.tournament
    if not policies.can_judge(user, tournament.club):
        raise NotAllowed(
            gettext("Only the judges of %(club)s answer calls.") % {"club": tournament.club.name},
            code="not_judge",
        )
    if call.closed_at is not None:
        raise Conflict(gettext("This call is closed already."), code="call_closed")
    if call.answered_by_id is not None and call.answered_by_id != user.pk:
        raise Conflict(gettext("Another judge is on the way already."), code="call_taken")
    if call.answered_by_id is None:
        call.answered_by = user
        call.answered_at = timezone.now()
        call.save(update_fields=["answered_by", "answered_at"])
        record_event(
            tournament=tournament,
            kind=EventKind.JUDGE_ON_THE_WAY,
            payload={"match": call.match_id, "call": call.pk},
            params={"table": call.match.table},
        )
    return call


@transaction.atomic(durable=True)
def close_call(*, actor: AnyUser, call: JudgeCall | int) -> JudgeCall:
    """A judge, or the player who called, closes the call (done, or not needed after all)."""
    user = require_user(actor)
    call = _locked_call(call)
    tournament = call.match.round.tournament
    if not (policies.can_judge(user, tournament.club) or call.called_by_id == user.pk):
        raise NotAllowed(
            gettext("Only a judge or the player who called closes a call."), code="not_judge"
        )
    if call.closed_at is None:
        call.closed_at = timezone.now()
        call.save(update_fields=["closed_at"])
        record_event(
            tournament=tournament,
            kind=EventKind.JUDGE_CALL_CLOSED,
            payload={"match": call.match_id, "call": call.pk},
            params={"table": call.match.table},
        )
    return call
