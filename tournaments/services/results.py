"""Results per game round: players report, opponents confirm or dispute, judges decide.

A result is the list of games of a match, each game the list of its game rounds
``[score_a, score_b]`` (``a`` is the match's first entrant, whoever reports; Vanilla Gwent
games also carry ``alignments``). The game's rules (``rules.games``) check it and
derive the outcome; a result they reject is refused with the rule's name and where.

Flow (DESIGN.md, "Results"):

- a player of the match reports the final result → *reported*;
- the opponent reports the same result, or confirms it → *confirmed*;
- the opponent reports something else → *disputed*, for a judge;
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
from django.utils import timezone

from core.audit import record_audit, record_event
from core.auth import Actor, AnyUser, user_or_none
from core.errors import Conflict, InvalidInput, NotAllowed, RuleViolation
from core.events import EventKind, Result
from core.locks import try_lock
from core.queue import enqueue_on_commit
from rules import games as game_rules
from rules.outcome import (
    GameOptions,
    GameRecord,
    MatchOutcome,
    ahead_at_time,
    drawn_at_time,
)
from tournaments import formats
from tournaments.models import (
    Match,
    MatchStatus,
    OverduePolicy,
    ReportSide,
    ResultReport,
    Round,
    RoundStatus,
    Tournament,
    TournamentStatus,
    Winner,
)
from tournaments.selectors import policies
from tournaments.selectors.result_words import side_names
from tournaments.selectors.results import correction_impact
from tournaments.selectors.tournaments import game_options, round_game_options
from tournaments.services import stages
from tournaments.services.locks import lock_match, lock_round
from tournaments.services.outcomes import OUTCOME_FIELDS, apply_outcome

ADVANCE_BRACKET = "tournaments.tasks.advance_bracket"
REPAIR_ROUND = "tournaments.tasks.pair_round_again"


def check_result(
    *,
    tournament: Tournament,
    games: object,
    final: bool = True,
    options: GameOptions | None = None,
) -> tuple[list[Any], MatchOutcome]:
    """Parse and judge a result; returns its canonical form and the outcome.

    ``final``: the match must be finished; otherwise it is progress so far. ``options``:
    the game options, when the caller has them (else the tournament's, one query).
    """
    records = game_rules.parse_games(games, game=tournament.game)
    check = game_rules.match_result if final else game_rules.match_progress
    outcome = check(
        tournament.game,
        records,
        options=options if options is not None else game_options(tournament),
        best_of=tournament.best_of,
    )
    return [_canonical(record, tournament.game) for record in records], outcome


def _check_match_result(
    match: Match, games: object, *, final: bool = True
) -> tuple[list[Any], MatchOutcome]:
    """:func:`check_result` for a match read by ``lock_match`` (its options read with it).
    A bracket match must have a winner: a drawn result is refused. A pod's result has a
    score for every seat: it is the pod services' (``services.pods``)."""
    if formats.format_of(match.round.stage).many_seats:
        raise Conflict(
            "This is a pod: enter every player's scores with the pod's result.",
            code="pod_result",
        )
    try:
        canonical, outcome = check_result(
            tournament=match.round.tournament,
            games=games,
            final=final,
            options=round_game_options(match.round),
        )
    except RuleViolation as error:  # said with the match's names (``core.words``)
        raise error.named(side_names(match)) from None
    if (
        final
        and match.slot
        and outcome.winner is None
        and not formats.format_of(match.round.stage).draws_stand
    ):
        raise InvalidInput(
            "A bracket match needs a winner, and this result is a draw: play another game "
            "and enter it too.",
            code="draw_in_bracket",
            field="games",
        )
    return canonical, outcome


def _canonical(record: GameRecord, game: str) -> dict[str, Any]:
    data: dict[str, Any] = {"rounds": [list(r.scores) for r in record.rounds]}
    if game_rules.rules_for(game).has_alignments:
        data["alignments"] = [a.value if a else None for a in record.alignments]
    return data


def _other(side: str) -> str:
    return ReportSide.B if side == ReportSide.A else ReportSide.A


def _current_reports(match: Match) -> dict[str, ResultReport]:
    """The current report of each side, by side: one query (the caller holds the match's
    lock, which every report write takes). Kept on the match as ``current_reports``,
    which :func:`_new_report` keeps up to date: the answer to a result post shows them
    without reading them again."""
    # Unsorted: the default ordering (by match, then time) would join the match's round
    # and tournament to sort at most three rows.
    reports = ResultReport.objects.filter(match=match, current=True).order_by()
    current = {r.side: r for r in reports}
    match.current_reports = current
    return current


def _match_state(match: Match) -> dict[str, Any]:
    return {"status": match.status, "result": match.result, "winner": match.winner}


def _described(match: Match) -> dict[str, Any]:
    """The match in a result's words: round, table and sides (no ``b``: a bye)."""
    b = match.b.name if match.b else ""
    return {"round": match.round.number, "table": match.table, "a": match.a.name, "b": b}


def _scored(match: Match) -> dict[str, Any]:
    """The result in a confirmation's words: the winner's name (empty: a draw), games."""
    if match.is_bye:
        return {"bye": True}
    winner = match.a if match.winner == Winner.A else match.b
    return {
        "winner": "" if match.winner == Winner.DRAW or winner is None else winner.name,
        "games": [match.games_a, match.games_b],
        "drawn": match.games_drawn,
    }


def _new_report(
    match: Match, side: str, actor: Actor, games: list[Any], *, final: bool
) -> ResultReport:
    current = match.current_reports if hasattr(match, "current_reports") else None
    if current is None:
        current = _current_reports(match)
    replaced = current.get(side)
    if replaced is not None:
        ResultReport.objects.filter(pk=replaced.pk).update(current=False)
    report = ResultReport.objects.create(
        match=match, side=side, reported_by=user_or_none(actor), games=games, complete=final
    )
    current[side] = report
    return report


def _require_player(actor: AnyUser, match: Match) -> str:
    side = policies.side_in_match(actor, match)
    if side is None:
        raise NotAllowed("You are not playing in this match.", code="not_in_match")
    if match.is_bye:
        raise Conflict("A bye needs no report.", code="bye")
    if match.round.status == RoundStatus.COMPLETE:
        raise Conflict(
            "This round is complete: only a judge can change its results.", code="round_complete"
        )
    return side


@transaction.atomic(durable=True)
def report_result(
    *, actor: AnyUser, match: Match | int, games: object, final: bool = True
) -> Match:
    """A player of the match reports its result (or, ``final=False``, their progress)."""
    return record_report(
        actor=actor,
        match=lock_match(match if isinstance(match, int) else match.pk),
        games=games,
        final=final,
    )


def record_report(*, actor: AnyUser, match: Match, games: object, final: bool = True) -> Match:
    """:func:`report_result` inside the caller's transaction, for a match it locked with
    ``locks.lock_match`` (the live table reports the game rounds played at it this way,
    in the transaction that records them)."""
    tournament = match.round.tournament
    if match.status == MatchStatus.CONFIRMED and policies.side_in_match(actor, match) is not None:
        canonical, _ = _check_match_result(match, games, final=final)
        if final and match.result == canonical:
            complete_round_after_commit(match.round_id)  # in case a look failed before
            return match  # the same report again, after confirmation: harmless
        raise Conflict(
            "This result is already confirmed: ask a judge to change it.",
            code="already_confirmed",
        )
    side = _require_player(actor, match)
    canonical, outcome = _check_match_result(match, games, final=final)
    current = _current_reports(match)
    mine = current.get(side)
    if mine is not None and mine.games == canonical and mine.complete == final:
        return match  # re-sending the same report changes nothing
    if not final:
        if match.status in (MatchStatus.REPORTED, MatchStatus.DISPUTED) and mine and mine.complete:
            raise Conflict(
                "You already reported the final result of this match.", code="already_reported"
            )
        _new_report(match, side, actor, canonical, final=False)
        return match
    theirs = current.get(_other(side))
    before = _match_state(match)
    _new_report(match, side, actor, canonical, final=True)
    if theirs is not None and theirs.complete and theirs.games == canonical:
        return _confirm(
            match=match,
            games=canonical,
            outcome=outcome,
            actor=actor,
            before=before,
            how="both_reported",
        )
    disputed = theirs is not None and theirs.complete
    match.status = MatchStatus.DISPUTED if disputed else MatchStatus.REPORTED
    match.save(update_fields=["status"])
    said = _described(match)
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
def confirm_result(*, actor: AnyUser, match: Match | int) -> Match:
    """The opponent agrees with the result the other player reported."""
    match = lock_match(match if isinstance(match, int) else match.pk)
    if match.status == MatchStatus.CONFIRMED and policies.side_in_match(actor, match) is not None:
        complete_round_after_commit(match.round_id)  # in case a look failed before
        return match  # confirming twice changes nothing
    side = _require_player(actor, match)
    current = _current_reports(match)
    theirs = current.get(_other(side))
    if theirs is None or not theirs.complete:
        raise Conflict("Your opponent has not reported this match yet.", code="nothing_to_confirm")
    mine = current.get(side)
    if match.status == MatchStatus.DISPUTED and mine is not None and mine.complete:
        raise Conflict(
            "You reported a different result: a judge will decide, or report theirs.",
            code="disputed",
        )
    canonical, outcome = _check_match_result(match, theirs.games)
    before = _match_state(match)
    _new_report(match, side, actor, canonical, final=True)
    return _confirm(
        match=match,
        games=canonical,
        outcome=outcome,
        actor=actor,
        before=before,
        how="opponent_confirmed",
    )


@transaction.atomic(durable=True)
def judge_result(*, actor: AnyUser, match: Match | int, games: object) -> Match:
    """A judge or organiser enters or overrides a result, at any time."""
    match = _lock_for_judge(actor, match)
    return _judge(actor, match, games)


def record_judged(*, actor: AnyUser, match: Match, games: object) -> Match:
    """:func:`judge_result` inside the caller's transaction, for a match it locked with
    ``locks.lock_match`` (a judge entering scores at a live table)."""
    if not policies.can_judge(actor, match.round.tournament.club):
        raise NotAllowed(
            "Only judges and organisers can enter results for others.", code="not_judge"
        )
    return _judge(actor, match, games)


@transaction.atomic(durable=True)
def take_report(*, actor: AnyUser, match: Match | int, report: int) -> tuple[Match, str]:
    """A judge takes one of the players' current final reports as the result (the judges'
    "take this report" button). Read under the match's lock: a report replaced since the
    judge looked is refused, so they look again. Returns the match and whose report it was."""
    match = _lock_for_judge(actor, match)
    taken = next(
        (r for r in _current_reports(match).values() if r.pk == report and r.complete), None
    )
    if taken is None or taken.side == ReportSide.JUDGE:
        raise Conflict(
            "That report is not one of this match's current reports any more: look again.",
            code="report_replaced",
            field="report",
        )
    player = match.a if taken.side == ReportSide.A else match.b
    assert player is not None  # a bye has no reports (refused above)
    return _judge(actor, match, taken.games), player.name


def _lock_for_judge(actor: AnyUser, match: Match | int) -> Match:
    match = lock_match(match if isinstance(match, int) else match.pk)
    if not policies.can_judge(actor, match.round.tournament.club):
        raise NotAllowed(
            "Only judges and organisers can enter results for others.", code="not_judge"
        )
    if match.is_bye:
        raise Conflict("A bye needs no result.", code="bye")
    return match


def _judge(actor: AnyUser, match: Match, games: object) -> Match:
    canonical, outcome = _check_match_result(match, games)
    if match.status == MatchStatus.CONFIRMED and match.result == canonical:
        return match
    impact = correction_impact(match)
    if impact.refused:
        raise Conflict(impact.refused, code="later_results_exist")
    if impact.repair is not None:
        # Paired from the standings this result changes: paired again, after commit.
        enqueue_on_commit(REPAIR_ROUND, impact.repair.pk)
    before = _match_state(match)
    _new_report(match, ReportSide.JUDGE, actor, canonical, final=True)
    return _confirm(
        match=match,
        games=canonical,
        outcome=outcome,
        actor=actor,
        before=before,
        how="judge",
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
        _, so_far = check_result(tournament=tournament, games=progress, final=False)
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
        games=progress,
        outcome=outcome,
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
    games: list[Any] | None,
    outcome: MatchOutcome,
    actor: Actor,
    before: dict[str, Any],
    how: str,
    complete_round: bool = True,
) -> Match:
    tournament = match.round.tournament
    was_confirmed = match.status == MatchStatus.CONFIRMED
    apply_outcome(match, games, outcome)
    match.status = MatchStatus.CONFIRMED
    match.confirmed_at = timezone.now()
    match.confirmed_by = user_or_none(actor)
    match.save(update_fields=[*OUTCOME_FIELDS, "status", "confirmed_at", "confirmed_by"])
    said = {**_described(match), **_scored(match), "how": how}
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
    was = str(before.get("status", ""))
    _event(tournament, EventKind.RESULT_CONFIRMED, said, match, was=was)
    if tournament.status == TournamentStatus.FINISHED:
        stages.record_final_places(tournament)  # a correction after the end moves places
    if match.slot:
        # The bracket moves on after commit, under the tournament's lock (a task).
        enqueue_on_commit(ADVANCE_BRACKET, match.round.stage_id)
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


def _event(
    tournament: Tournament, kind: EventKind, said: dict[str, Any], match: Match, *, was: str = ""
) -> None:
    """The result's event in the feed (``was``: the match's status before a confirmation,
    so a dispute a judge resolved reads as such to bots and notifications)."""
    payload: Result = {
        "match": match.pk,
        "round": match.round.number,
        "table": match.table,
        "status": match.status,
        "winner": match.winner,
    }
    if was:
        payload["was"] = was
    record_event(tournament=tournament, kind=kind, payload=payload, params=said)
