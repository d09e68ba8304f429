"""The outcome of a match, set from the game rules' outcome: per seat (``MatchSeat``:
place, score, game-round wins), with the winning seat's letter and the two-player columns
the two-player pages, API and standings read (results, byes, pods)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import Case, Q, Value, When
from django.db.models.sql import UpdateQuery

from rules.outcome import MatchOutcome
from tournaments.models import SEAT_LETTERS, Match, MatchSeat, MatchStatus, Winner


def _winner_code(winner: int | None) -> str:
    return Winner.DRAW if winner is None else SEAT_LETTERS[winner]


#: The columns :func:`apply_outcome` sets.
OUTCOME_FIELDS = (
    "result",
    "winner",
    "games_a",
    "games_b",
    "games_drawn",
    "game_rounds_a",
    "game_rounds_b",
    "score_a",
    "score_b",
)


def places(winner: int | None, seats: int) -> list[int]:
    """A two-sided outcome's places: the winner first, the other second; a draw both
    first (a bye's one seat: first)."""
    return [1 if winner is None or winner == s else 2 for s in range(seats)]


def apply_outcome(match: Match, games: list[Any] | None, outcome: MatchOutcome) -> None:
    """Store the derived outcome columns on the match (no save)."""
    match.result = games
    match.winner = _winner_code(outcome.winner)
    match.games_a, match.games_b = outcome.games_won
    match.games_drawn = outcome.games_drawn
    match.game_rounds_a, match.game_rounds_b = outcome.round_wins
    match.score_a, match.score_b = outcome.totals


def seat_rows(match: Match) -> list[MatchSeat]:
    """The seat rows of a two-sided match just made (not saved): ``a`` at 0, ``b`` at 1,
    a bye confirmed when made with its one seat's outcome."""
    rows = []
    entrants = [e for e in (match.a_id, match.b_id) if e is not None]
    for position, entrant in enumerate(entrants):
        seat = MatchSeat(
            match=match, round_id=match.round_id, registration_id=entrant, position=position
        )
        if match.status == MatchStatus.CONFIRMED:
            seat.place = places(match.winner_position, len(entrants))[position]
            seat.score = (match.score_a, match.score_b)[position]
            seat.round_wins = (match.game_rounds_a, match.game_rounds_b)[position]
        rows.append(seat)
    return rows


#: The seats' outcome, each column from an array by the seat's position, as the leading
#: part of the statement that saves the match (:func:`save_outcome`).
_SEATS_SQL = (
    'WITH seats AS (UPDATE "tournaments_matchseat" SET "place" = (%s::int[])["position" + 1], '
    '"score" = (%s::int[])["position" + 1], "round_wins" = (%s::int[])["position" + 1] '
    'WHERE "match_id" = %s) '
)


def save_outcome(
    match: Match,
    fields: Sequence[str],
    *,
    winner: int | None,
    places: Sequence[int],
    scores: Sequence[int],
    round_wins: Sequence[int],
) -> None:
    """Save the match's ``fields`` with the winning seat's letter, and each seat's outcome
    (by position), in one statement on PostgreSQL: the match's update after the seats' (a
    writable common table expression), so a confirmation costs what it did before seats
    had one. The embedded default (SQLite) takes two."""
    match.winner = _winner_code(winner)
    if connection.vendor != "postgresql":  # the embedded default (SQLite): no arrays
        match.save(update_fields=[f.name for f in _fields(fields)])
        by_position = {"place": places, "score": scores, "round_wins": round_wins}
        MatchSeat.objects.filter(match=match).update(
            **{
                column: Case(*(When(position=i, then=Value(v)) for i, v in enumerate(values)))
                for column, values in by_position.items()
            }
        )
        return
    query = UpdateQuery(Match)
    query.add_update_fields(
        [(field, None, field.pre_save(match, False)) for field in _fields(fields)]
    )
    query.add_q(Q(pk=match.pk))
    sql, params = query.get_compiler(using=DEFAULT_DB_ALIAS).as_sql()
    seats: list[Any] = [list(places), list(scores), list(round_wins), match.pk]
    with connection.cursor() as cursor:
        cursor.execute(_SEATS_SQL + sql, [*seats, *params])


def _fields(names: Sequence[str]) -> list[Any]:
    found = {f.name: f for f in Match._meta.concrete_fields}
    return [found[name] for name in dict.fromkeys([*names, "winner"])]
