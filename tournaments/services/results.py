"""Results per game round: players report, opponents confirm or dispute, judges decide.

A result is the list of games of a match, each game the list of its game rounds
``[score_a, score_b]`` (``a`` is the match's first entrant, whoever reports; Vanilla Gwent
games also carry ``alignments``). The game's rules (``gameplay.rules.games``) check it and
derive the outcome; a result they reject is refused with the rule's name and where.

Flow (DESIGN.md, "Results"):

- a player of the match reports the final result → *reported*;
- the opponent reports the same result, or confirms it → *confirmed*;
- the opponent reports something else → *disputed*, for a judge;
- a judge or organiser enters or overrides a result at any time → *confirmed*.

Players may also save their *progress* (``final=False``): the game rounds played so far,
checked by the same rules but not yet a finished match. Progress does not change the
match's status; the round clock's "ahead" policy reads it at time.

Concurrency: every write locks the match's round row, then the match row. So two reports
sent at the same instant are applied one after the other: identical ones confirm,
different ones make one dispute, none is lost; and of two last confirmations in a round,
the second sees the first and completes the round (which pairs the next, on commit).
Re-sending the same report changes nothing. Every change is in the audit log.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from gameplay.rules import games as game_rules
from gameplay.rules.outcome import GameOptions, GameRecord, MatchOutcome
from tournaments import selectors
from tournaments.errors import Conflict, NotAllowed, NotFound
from tournaments.models import (
    Match,
    MatchStatus,
    OverduePolicy,
    ReportSide,
    ResultReport,
    Round,
    RoundStatus,
    SwissSettings,
    Tournament,
    Winner,
)
from tournaments.services.core import record_audit, record_event


def game_options(tournament: Tournament) -> GameOptions:
    settings = SwissSettings.objects.filter(tournament=tournament).first()
    if settings is None:
        return GameOptions()
    return GameOptions(
        rounds_to_win=settings.rounds_to_win, kontsina_rounds=settings.kontsina_rounds
    )


def check_result(
    *, tournament: Tournament, games: object, final: bool = True
) -> tuple[list[Any], MatchOutcome]:
    """Parse and judge a result; returns its canonical form and the outcome.

    ``final``: the match must be finished; otherwise it is progress so far.
    """
    records = game_rules.parse_games(games, game=tournament.game)
    check = game_rules.match_result if final else game_rules.match_progress
    outcome = check(
        tournament.game, records, options=game_options(tournament), best_of=tournament.best_of
    )
    return [_canonical(record, tournament.game) for record in records], outcome


def _canonical(record: GameRecord, game: str) -> dict[str, Any]:
    data: dict[str, Any] = {"rounds": [list(r.scores) for r in record.rounds]}
    if game_rules.rules_for(game).has_alignments:
        data["alignments"] = [a.value if a else None for a in record.alignments]
    return data


def _lock_match(match: Match | int) -> Match:
    """Lock the match's round, then the match (the order every result write uses)."""
    pk = match if isinstance(match, int) else match.pk
    round_id = Match.objects.filter(pk=pk).values_list("round_id", flat=True).first()
    if round_id is None:
        raise NotFound("No such match.")
    Round.objects.select_for_update().filter(pk=round_id).first()
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament__club", "a__player", "b__player")
        .get(pk=pk)
    )


def _side_of(actor: AbstractBaseUser, match: Match) -> str | None:
    if match.a.player.user_id == actor.pk:
        return ReportSide.A
    if match.b is not None and match.b.player.user_id == actor.pk:
        return ReportSide.B
    return None


def _other(side: str) -> str:
    return ReportSide.B if side == ReportSide.A else ReportSide.A


def _current_report(match: Match, side: str) -> ResultReport | None:
    return ResultReport.objects.filter(match=match, side=side, current=True).first()


def _match_state(match: Match) -> dict[str, Any]:
    return {"status": match.status, "result": match.result, "winner": match.winner}


def _describe(match: Match) -> str:
    b = match.b.player.display_name if match.b else "bye"
    return f"round {match.round.number}, table {match.table}: {match.a.player.display_name} v {b}"


def _new_report(
    match: Match, side: str, actor: AbstractBaseUser | None, games: list[Any], *, final: bool
) -> ResultReport:
    ResultReport.objects.filter(match=match, side=side, current=True).update(current=False)
    return ResultReport.objects.create(
        match=match, side=side, reported_by=actor, games=games, complete=final
    )


def _require_player(actor: AbstractBaseUser, match: Match) -> str:
    side = _side_of(actor, match)
    if side is None:
        raise NotAllowed("You are not playing in this match.", code="not_in_match")
    if match.is_bye:
        raise Conflict("A bye needs no report.", code="bye")
    if match.round.status == RoundStatus.COMPLETE:
        raise Conflict(
            "This round is complete: only a judge can change its results.", code="round_complete"
        )
    return side


@transaction.atomic
def report_result(
    *, actor: AbstractBaseUser, match: Match | int, games: object, final: bool = True
) -> Match:
    """A player of the match reports its result (or, ``final=False``, their progress)."""
    match = _lock_match(match)
    tournament = match.round.tournament
    if match.status == MatchStatus.CONFIRMED and _side_of(actor, match) is not None:
        canonical, _ = check_result(tournament=tournament, games=games, final=final)
        if final and match.result == canonical:
            return match  # the same report again, after confirmation: harmless
        raise Conflict(
            "This result is already confirmed: ask a judge to change it.",
            code="already_confirmed",
        )
    side = _require_player(actor, match)
    canonical, outcome = check_result(tournament=tournament, games=games, final=final)
    mine = _current_report(match, side)
    if mine is not None and mine.games == canonical and mine.complete == final:
        return match  # re-sending the same report changes nothing
    if not final:
        if match.status in (MatchStatus.REPORTED, MatchStatus.DISPUTED) and mine and mine.complete:
            raise Conflict(
                "You already reported the final result of this match.", code="already_reported"
            )
        _new_report(match, side, actor, canonical, final=False)
        return match
    theirs = _current_report(match, _other(side))
    before = _match_state(match)
    _new_report(match, side, actor, canonical, final=True)
    if theirs is not None and theirs.complete and theirs.games == canonical:
        return _confirm(
            match=match,
            games=canonical,
            outcome=outcome,
            actor=actor,
            before=before,
            how="both players reported it",
        )
    disputed = theirs is not None and theirs.complete
    match.status = MatchStatus.DISPUTED if disputed else MatchStatus.REPORTED
    match.save(update_fields=["status"])
    summary = (
        f"{_describe(match)}: the players' reports differ, a judge will decide"
        if disputed
        else f"{_describe(match)}: result reported, waiting for the opponent"
    )
    record_audit(
        actor=actor,
        action="result.disputed" if disputed else "result.reported",
        summary=summary,
        obj=match,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after={**_match_state(match), "reported": canonical, "side": side},
    )
    _event(tournament, "result.disputed" if disputed else "result.reported", summary, match)
    return match


@transaction.atomic
def confirm_result(*, actor: AbstractBaseUser, match: Match | int) -> Match:
    """The opponent agrees with the result the other player reported."""
    match = _lock_match(match)
    if match.status == MatchStatus.CONFIRMED and _side_of(actor, match) is not None:
        return match  # confirming twice changes nothing
    side = _require_player(actor, match)
    theirs = _current_report(match, _other(side))
    if theirs is None or not theirs.complete:
        raise Conflict("Your opponent has not reported this match yet.", code="nothing_to_confirm")
    mine = _current_report(match, side)
    if match.status == MatchStatus.DISPUTED and mine is not None and mine.complete:
        raise Conflict(
            "You reported a different result: a judge will decide, or report theirs.",
            code="disputed",
        )
    canonical, outcome = check_result(tournament=match.round.tournament, games=theirs.games)
    before = _match_state(match)
    _new_report(match, side, actor, canonical, final=True)
    return _confirm(
        match=match,
        games=canonical,
        outcome=outcome,
        actor=actor,
        before=before,
        how="confirmed by the opponent",
    )


@transaction.atomic
def judge_result(*, actor: AbstractBaseUser, match: Match | int, games: object) -> Match:
    """A judge or organiser enters or overrides a result, at any time."""
    match = _lock_match(match)
    tournament = match.round.tournament
    if not selectors.can_judge(actor, tournament.club):
        raise NotAllowed(
            "Only judges and organisers can enter results for others.", code="not_judge"
        )
    if match.is_bye:
        raise Conflict("A bye needs no result.", code="bye")
    canonical, outcome = check_result(tournament=tournament, games=games)
    if match.status == MatchStatus.CONFIRMED and match.result == canonical:
        return match
    before = _match_state(match)
    _new_report(match, ReportSide.JUDGE, actor, canonical, final=True)
    return _confirm(
        match=match,
        games=canonical,
        outcome=outcome,
        actor=actor,
        before=before,
        how="entered by a judge",
    )


def decide_at_time(*, match: Match, policy: str) -> bool:
    """The round clock's overdue policy for one unfinished match (the caller holds the
    round's lock). Returns whether the match was decided."""
    tournament = match.round.tournament
    if policy == OverduePolicy.DRAW:
        outcome = MatchOutcome(
            games_won=(0, 0), games_drawn=1, finished=True, winner=None, game_points=(1, 1)
        )
        progress: list[Any] | None = _agreed_progress(match)
        if progress is not None:
            _, so_far = check_result(tournament=tournament, games=progress, final=False)
            outcome = _with_rounds(outcome, so_far)
        how = "time: recorded as a draw"
    elif policy == OverduePolicy.AHEAD:
        progress = _agreed_progress(match)
        if progress is None:
            return False  # nothing recorded, or the players disagree: a judge decides
        _, so_far = check_result(tournament=tournament, games=progress, final=False)
        a, b = so_far.round_wins
        winner = None if a == b else (0 if a > b else 1)
        won = (int(winner == 0), int(winner == 1))
        drawn = int(winner is None)
        outcome = MatchOutcome(
            games_won=won,
            games_drawn=drawn,
            finished=True,
            winner=winner,
            game_points=(3 * won[0] + drawn, 3 * won[1] + drawn),
            round_wins=so_far.round_wins,
            totals=so_far.totals,
        )
        how = "time: the player ahead in game rounds wins"
    else:
        return False
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


def _with_rounds(outcome: MatchOutcome, so_far: MatchOutcome) -> MatchOutcome:
    return MatchOutcome(
        games_won=outcome.games_won,
        games_drawn=outcome.games_drawn,
        finished=True,
        winner=outcome.winner,
        game_points=outcome.game_points,
        round_wins=so_far.round_wins,
        totals=so_far.totals,
    )


def _agreed_progress(match: Match) -> list[Any] | None:
    """The game rounds both players recorded so far, or the only side's that did."""
    reports = [
        r
        for r in (_current_report(match, ReportSide.A), _current_report(match, ReportSide.B))
        if r is not None
    ]
    if not reports:
        return None
    if len(reports) == 2 and reports[0].games != reports[1].games:
        return None
    games: list[Any] = reports[0].games
    return games


def _winner_code(outcome: MatchOutcome) -> str:
    if outcome.winner is None:
        return Winner.DRAW
    return Winner.A if outcome.winner == 0 else Winner.B


def _confirm(
    *,
    match: Match,
    games: list[Any] | None,
    outcome: MatchOutcome,
    actor: AbstractBaseUser | None,
    before: dict[str, Any],
    how: str,
    complete_round: bool = True,
) -> Match:
    from tournaments.services.rounds import complete_round_if_done

    tournament = match.round.tournament
    was_confirmed = match.status == MatchStatus.CONFIRMED
    apply_outcome(match, games, outcome)
    match.status = MatchStatus.CONFIRMED
    match.confirmed_at = timezone.now()
    match.confirmed_by = actor if actor is not None and actor.is_authenticated else None
    match.save()
    summary = f"{_describe(match)}: {score_line(match)} ({how})"
    record_audit(
        actor=actor,
        action="result.overridden" if was_confirmed else "result.confirmed",
        summary=summary,
        obj=match,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after=_match_state(match),
    )
    _event(tournament, "result.confirmed", summary, match)
    if complete_round:
        complete_round_if_done(round_id=match.round_id)
    return match


def apply_outcome(match: Match, games: list[Any] | None, outcome: MatchOutcome) -> None:
    """Store the derived outcome columns on the match (no save)."""
    match.result = games
    match.winner = _winner_code(outcome)
    match.games_a, match.games_b = outcome.games_won
    match.games_drawn = outcome.games_drawn
    match.game_rounds_a, match.game_rounds_b = outcome.round_wins
    match.score_a, match.score_b = outcome.totals


def score_line(match: Match) -> str:
    """ "Ann wins 2-1", "draw 1-1-1", "bye" for pages, logs and exports."""
    if match.is_bye:
        return "bye"
    if match.winner == Winner.DRAW:
        return f"draw {match.games_a}-{match.games_b}-{match.games_drawn}"
    winner = match.a if match.winner == Winner.A else match.b
    assert winner is not None
    high, low = max(match.games_a, match.games_b), min(match.games_a, match.games_b)
    drawn = f"-{match.games_drawn}" if match.games_drawn else ""
    return f"{winner.player.display_name} wins {high}-{low}{drawn}"


def _event(tournament: Tournament, kind: str, message: str, match: Match) -> None:
    record_event(
        tournament=tournament,
        kind=kind,
        message=message,
        payload={
            "match": match.pk,
            "round": match.round.number,
            "table": match.table,
            "status": match.status,
            "winner": match.winner,
        },
    )
