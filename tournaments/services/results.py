"""Results per game round, of any match whatever its number of seats: players report,
the other players confirm or dispute, judges decide. One path: two sides and a pod's
seats differ only in the rules their seats play (``services.seat_rules``).

A result is the list of games of a match, each game the list of its game rounds, each a
score per seat (``[score_a, score_b]``: ``a`` is the match's first entrant, whoever
reports; Vanilla Gwent games also carry ``alignments``; a pod's one game lists its seats'
scores in ``MatchSeat.position`` order). The game's rules check it and derive the
outcome, per seat (``outcomes.save_outcome``); a result they reject is refused with the
rule's name and where. A report's side is the reporter's seat letter.

Flow (DESIGN.md, "Results"):

- a player of the match reports the final result → *reported*;
- another player reports the same result, or confirms it → *confirmed*;
- another player reports something else → *disputed*, for a judge;
- a judge or organiser enters or overrides a result at any time → *confirmed*.

Players may also save their *progress* (``final=False``): the game rounds played so far,
checked by the same rules but not yet a finished match. Progress does not change the
match's status; the round clock's "ahead" policy reads it at time.

Concurrency: every write locks the match's round row shared, then the match row
(``core.locks``). So two reports of one match sent at the same instant are applied one
after the other: identical ones confirm, different ones make one dispute, none is lost;
the results of different matches of a round are written side by side; and whoever changes
the round itself (its clock, a re-pair) waits for the results in flight and they for it.
A confirmation completes its round after it has committed (``complete_round_after_commit``):
of two last confirmations in a round, the later to commit sees both and completes the
round (which pairs the next, on commit). Re-sending the same report changes nothing. Every
change is in the audit log.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import record_audit, record_event
from core.auth import Actor, AnyUser, user_or_none
from core.compiled import insert, rows
from core.errors import Conflict, NotAllowed
from core.events import EventKind, Result, ResultConfirmed
from core.locks import try_lock
from core.queue import enqueue_on_commit
from rules.outcome import MatchOutcome, ahead_at_time, drawn_at_time
from tournaments.models import (
    SEAT_LETTERS,
    Match,
    MatchStatus,
    OverduePolicy,
    Registration,
    ReportSide,
    ResultReport,
    Round,
    RoundStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import policies
from tournaments.selectors.pods import seats_of
from tournaments.selectors.results import correction_impact
from tournaments.services import seat_rules, stages
from tournaments.services.locks import lock_match, lock_round
from tournaments.services.outcomes import save_outcome
from tournaments.services.seat_rules import Checked

REPAIR_ROUND = "tournaments.tasks.pair_round_again"


def _seated(match: Match) -> list[Registration]:
    """The match's entrants by seat: a two-sided match's ``a`` and ``b`` (read with it,
    no query), else its seats in position order (one query)."""
    if match.seat_count <= 2:
        return [e for e in (match.a, match.b) if e is not None]
    return [seat.registration for seat in seats_of(match)]


def _check(
    match: Match, entrants: list[Registration], games: object, *, final: bool = True
) -> Checked:
    """The result checked by the rules its seats play (``seat_rules``)."""
    return seat_rules.rules_of(match).check(match, entrants, games, final=final)


def _current_of(match_id: int) -> QuerySet[ResultReport]:
    # Unsorted: the default ordering (by match, then time) would join the match's round
    # and tournament to sort at most three rows. Compiled once (``core.compiled``).
    return ResultReport.objects.filter(match_id=match_id, current=True).order_by()


def _current_reports(match: Match) -> dict[str, ResultReport]:
    """The current report of each side, by side: one query (the caller holds the match's
    lock, which every report write takes). Kept on the match as ``current_reports``,
    which :func:`_new_report` keeps up to date: the answer to a result post shows them
    without reading them again."""
    current = {r.side: r for r in rows("results.current_reports", _current_of, match.pk)}
    match.current_reports = current
    return current


def _others(current: dict[str, ResultReport], side: str) -> list[ResultReport]:
    """The other seats' current final reports (not a judge's)."""
    return [r for s, r in current.items() if s not in (side, ReportSide.JUDGE) and r.complete]


def _match_state(match: Match) -> dict[str, Any]:
    return {"status": match.status, "result": match.result, "winner": match.winner}


def _new_report(
    match: Match, side: str, actor: Actor, games: list[Any], *, final: bool
) -> ResultReport:
    current = match.current_reports if hasattr(match, "current_reports") else None
    if current is None:
        current = _current_reports(match)
    replaced = current.get(side)
    if replaced is not None:
        ResultReport.objects.filter(pk=replaced.pk).update(current=False)
    report = insert(
        ResultReport(
            match=match, side=side, reported_by=user_or_none(actor), games=games, complete=final
        )
    )
    current[side] = report
    return report


def _side(actor: AnyUser, match: Match, entrants: list[Registration]) -> str | None:
    """The letter of the actor's seat (a team's: either member's), None: not seated."""
    if not actor.is_authenticated:
        return None
    found = (p for p, e in enumerate(entrants) if e.has_member(actor.pk))
    position = next(found, None)
    return SEAT_LETTERS[position] if position is not None else None


def _require_player(actor: AnyUser, match: Match, entrants: list[Registration]) -> str:
    side = _side(actor, match, entrants)
    if side is None:
        raise NotAllowed(str(seat_rules.rules_of(match).not_playing), code="not_in_match")
    if match.is_bye:
        raise Conflict(gettext("A bye needs no report."), code="bye")
    if match.round.status == RoundStatus.COMPLETE:
        raise Conflict(
            gettext("This round is complete: only a judge can change its results."),
            code="round_complete",
        )
    return side


@transaction.atomic(durable=True)
def report_result(
    *,
    actor: AnyUser,
    match: Match | int,
    games: object,
    final: bool = True,
    form: seat_rules.Rules | None = None,
) -> Match:
    """A player of the match reports its result (or, ``final=False``, their progress),
    whatever its number of seats (``form``: the rules the caller's form speaks; refused
    for a match that plays others)."""
    return record_report(
        actor=actor,
        match=lock_match(match if isinstance(match, int) else match.pk),
        games=games,
        final=final,
        form=form,
    )


def record_report(
    *,
    actor: AnyUser,
    match: Match,
    games: object,
    final: bool = True,
    form: seat_rules.Rules | None = None,
) -> Match:
    """:func:`report_result` inside the caller's transaction, for a match it locked with
    ``locks.lock_match`` (the live table reports the game rounds played at it this way,
    in the transaction that records them)."""
    tournament = match.round.tournament
    rules = seat_rules.rules_for_form(match, form)
    entrants = _seated(match)
    if match.status == MatchStatus.CONFIRMED and _side(actor, match, entrants) is not None:
        checked = _check(match, entrants, games, final=final)
        if final and match.result == checked.games:
            complete_round_after_commit(match.round_id)  # in case a look failed before
            return match  # the same report again, after confirmation: harmless
        raise Conflict(str(rules.already), code="already_confirmed")
    side = _require_player(actor, match, entrants)
    checked = _check(match, entrants, games, final=final)
    canonical = checked.games
    current = _current_reports(match)
    mine = current.get(side)
    if mine is not None and mine.games == canonical and mine.complete == final:
        return match  # re-sending the same report changes nothing
    if not final:
        if match.status in (MatchStatus.REPORTED, MatchStatus.DISPUTED) and mine and mine.complete:
            raise Conflict(
                gettext("You already reported the final result of this match."),
                code="already_reported",
            )
        _new_report(match, side, actor, canonical, final=False)
        return match
    others = _others(current, side)
    before = _match_state(match)
    _new_report(match, side, actor, canonical, final=True)
    if others and all(r.games == canonical for r in others):
        return _confirm(
            match=match,
            entrants=entrants,
            checked=checked,
            actor=actor,
            before=before,
            how=rules.agreed,
        )
    disputed = bool(others)
    match.status = MatchStatus.DISPUTED if disputed else MatchStatus.REPORTED
    match.save(update_fields=["status"])
    said = rules.described(match)
    record_audit(
        actor=actor,
        action="result.disputed" if disputed else "result.reported",
        params=said,
        obj=match,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after={**_match_state(match), "reported": canonical, "side": side},
    )
    kind = EventKind.RESULT_DISPUTED if disputed else EventKind.RESULT_REPORTED
    _event(tournament, kind, said, match)
    return match


@transaction.atomic(durable=True)
def confirm_result(
    *, actor: AnyUser, match: Match | int, form: seat_rules.Rules | None = None
) -> Match:
    """Another player of the match agrees with the result one reported."""
    match = lock_match(match if isinstance(match, int) else match.pk)
    rules = seat_rules.rules_for_form(match, form)
    entrants = _seated(match)
    if match.status == MatchStatus.CONFIRMED and _side(actor, match, entrants) is not None:
        complete_round_after_commit(match.round_id)  # in case a look failed before
        return match  # confirming twice changes nothing
    side = _require_player(actor, match, entrants)
    current = _current_reports(match)
    mine = current.get(side)
    if match.status == MatchStatus.DISPUTED and (mine is None or mine.complete):
        raise Conflict(str(rules.differ), code="disputed")
    theirs = _others(current, side)
    if not theirs:
        raise Conflict(str(rules.nothing), code="nothing_to_confirm")
    checked = _check(match, entrants, theirs[0].games)
    before = _match_state(match)
    _new_report(match, side, actor, checked.games, final=True)
    return _confirm(
        match=match,
        entrants=entrants,
        checked=checked,
        actor=actor,
        before=before,
        how=rules.confirmed,
    )


@transaction.atomic(durable=True)
def judge_result(
    *, actor: AnyUser, match: Match | int, games: object, form: seat_rules.Rules | None = None
) -> Match:
    """A judge or organiser enters or overrides a result, at any time (a correction:
    what it touches, ``selectors.results.correction_impact``)."""
    match = lock_match(match if isinstance(match, int) else match.pk)
    seat_rules.rules_for_form(match, form)
    _require_judge(actor, match)
    return _judge(actor, match, games)


def record_judged(*, actor: AnyUser, match: Match, games: object) -> Match:
    """:func:`judge_result` inside the caller's transaction, for a match it locked with
    ``locks.lock_match`` (a judge entering scores at a live table)."""
    if not policies.can_judge(actor, match.round.tournament.club):
        raise NotAllowed(
            gettext("Only judges and organisers can enter results for others."), code="not_judge"
        )
    return _judge(actor, match, games)


@transaction.atomic(durable=True)
def take_report(*, actor: AnyUser, match: Match | int, report: int) -> tuple[Match, str]:
    """A judge takes one of the players' current final reports as the result (the judges'
    "take this report" button). Read under the match's lock: a report replaced since the
    judge looked is refused, so they look again. Returns the match and whose report it was."""
    match = lock_match(match if isinstance(match, int) else match.pk)
    _require_judge(actor, match)
    taken = next(
        (r for r in _current_reports(match).values() if r.pk == report and r.complete), None
    )
    if taken is None or taken.side == ReportSide.JUDGE:
        raise Conflict(
            gettext("That report is not one of this match's current reports any more: look again."),
            code="report_replaced",
            field="report",
        )
    player = _seated(match)[SEAT_LETTERS.index(taken.side)]
    return _judge(actor, match, taken.games), player.name


def _require_judge(actor: AnyUser, match: Match) -> None:
    if not policies.can_judge(actor, match.round.tournament.club):
        raise NotAllowed(
            gettext("Only judges and organisers can enter results for others."), code="not_judge"
        )
    if match.is_bye:
        raise Conflict(gettext("A bye needs no result."), code="bye")


def _judge(actor: AnyUser, match: Match, games: object) -> Match:
    entrants = _seated(match)
    checked = _check(match, entrants, games)
    if match.status == MatchStatus.CONFIRMED and match.result == checked.games:
        return match
    impact = correction_impact(match)
    if impact.refused:
        raise Conflict(impact.refused, code="later_results_exist")
    if impact.repair is not None:
        # Paired from the standings this result changes: paired again, after commit.
        enqueue_on_commit(REPAIR_ROUND, impact.repair.pk)
    before = _match_state(match)
    _new_report(match, ReportSide.JUDGE, actor, checked.games, final=True)
    return _confirm(
        match=match, entrants=entrants, checked=checked, actor=actor, before=before, how="judge"
    )


def decide_at_time(*, match: Match, policy: str) -> bool:
    """The round clock's overdue policy for one unfinished match (the caller holds the
    round's lock). Returns whether the match was decided."""
    if policy not in (OverduePolicy.DRAW, OverduePolicy.AHEAD):
        return False
    tournament = match.round.tournament
    # The game rounds recorded so far (None: nothing recorded, or the players disagree).
    progress: list[Any] | None = _agreed_progress(match)
    so_far: MatchOutcome | None = None
    if progress is not None:
        _, so_far = seat_rules.check_result(tournament=tournament, games=progress, final=False)
    if policy == OverduePolicy.DRAW:
        outcome = drawn_at_time(so_far)
        how = "time_draw"
    else:
        if so_far is None:
            return False  # nothing to go by: a judge decides
        outcome = ahead_at_time(so_far)
        how = "time_ahead"
    before = _match_state(match)
    _confirm(
        match=match,
        entrants=_seated(match),
        checked=seat_rules.two_sided(progress, outcome),
        actor=None,
        before=before,
        how=how,
        complete_round=False,
    )
    return True


def _agreed_progress(match: Match) -> list[Any] | None:
    """The game rounds both players recorded so far, or the only side's that did."""
    current = _current_reports(match)
    reports = [r for r in (current.get(ReportSide.A), current.get(ReportSide.B)) if r is not None]
    if not reports:
        return None
    if len(reports) == 2 and reports[0].games != reports[1].games:
        return None
    games: list[Any] = reports[0].games
    return games


def _confirm(
    *,
    match: Match,
    entrants: list[Registration],
    checked: seat_rules.Checked,
    actor: Actor,
    before: dict[str, Any],
    how: str,
    complete_round: bool = True,
) -> Match:
    """The one writer of a confirmed result, whatever the number of seats: the match's
    columns and each seat's outcome in one statement, the audit entry and the event, then
    the bracket or the round moves on."""
    tournament = match.round.tournament
    rules = seat_rules.rules_of(match)
    was_confirmed = match.status == MatchStatus.CONFIRMED
    for column, value in checked.columns.items():
        setattr(match, column, value)
    match.status = MatchStatus.CONFIRMED
    match.confirmed_at = timezone.now()
    match.confirmed_by = user_or_none(actor)
    save_outcome(
        match,
        [*checked.columns, "status", "confirmed_at", "confirmed_by"],
        winner=checked.winner,
        places=checked.places,
        scores=checked.scores,
        round_wins=checked.round_wins,
    )
    said = {**rules.described(match), **rules.scored(match, entrants), "how": how}
    record_audit(
        actor=actor,
        action="result.overridden" if was_confirmed else "result.confirmed",
        params=said,
        obj=match,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after=_match_state(match),
    )
    confirmed: ResultConfirmed = {
        "match": match.pk,
        "round": match.round.number,
        "table": match.table,
        "status": match.status,
        "winner": match.winner,
        "seats": [entrant.pk for entrant in entrants],
        "places": list(checked.places),
        "scores": list(checked.scores),
        "stage": match.round.stage_id,
    }
    if match.slot:
        confirmed["slot"] = match.slot
    if before.get("status"):
        confirmed["was"] = str(before["status"])
    record_event(
        tournament=tournament, kind=EventKind.RESULT_CONFIRMED, payload=confirmed, params=said
    )
    if tournament.status == TournamentStatus.FINISHED:
        stages.record_final_places(tournament)  # a correction after the end moves places
    if match.slot:
        # Its stage moves on from the result.confirmed event (``stages.on_result_confirmed``).
        return match
    if complete_round:
        _complete_round_if_done(match)
    return match


def _complete_round_if_done(match: Match) -> None:
    """After a confirmation: complete the match's round if it was the last open match.
    Now, when every other match is confirmed and no other result write shares the round
    (the usual last confirmation); else after this transaction commits, when the others'
    have too (``core.locks``: two sharers cannot both take the round for themselves)."""
    others_open = (
        Match.objects.filter(round_id=match.round_id).exclude(status=MatchStatus.CONFIRMED).exists()
    )
    if not others_open and try_lock(Round, pk=match.round_id):
        stages.complete_if_done(match.round)
    else:
        complete_round_after_commit(match.round_id)


def complete_round_after_commit(round_id: int) -> None:
    """After this transaction commits: complete the round if no match of it is left
    unconfirmed. A result write holds its round shared, so it cannot complete the round
    itself (``core.locks``); looking only after its own commit, the last of several
    confirmations committing at once sees them all. A failure there is logged, not
    raised: the result is saved, and the round is completed by the next look."""
    transaction.on_commit(partial(_complete_round_if_all_confirmed, round_id), robust=True)


def _complete_round_if_all_confirmed(round_id: int) -> None:
    if Match.objects.filter(round_id=round_id).exclude(status=MatchStatus.CONFIRMED).exists():
        return  # the usual case, and no lock taken for it
    complete_round(round_id=round_id)


@transaction.atomic(durable=True)
def complete_round(*, round_id: int) -> bool:
    """Complete the round if every match in it is confirmed (under the round's lock, so
    once), then pair the next or complete the stage. Returns whether it completed now."""
    return stages.complete_if_done(lock_round(round_id))


def _event(tournament: Tournament, kind: EventKind, said: dict[str, Any], match: Match) -> None:
    """A result reported or disputed, in the feed."""
    payload: Result = {
        "match": match.pk,
        "round": match.round.number,
        "table": match.table,
        "status": match.status,
        "winner": match.winner,
    }
    record_event(tournament=tournament, kind=kind, payload=payload, params=said)
