"""A club's public results feed (issue 26): every confirmed match of the club's
tournaments, in play order (``selectors.ratings.ORDER``: the tournaments by scheduled
start, then id, each tournament's rounds by number, a round's matches by table), for
outside rankers to import instead of scraping.

Terms:
- *Play key*: a match's place in play order, (start, tournament, round, table, id): it
  never changes when a result is corrected, so a match id is a stable cursor (``after``).
- *Since*: the matches confirmed (or corrected: a correction confirms again) at or after
  a moment; an importer keeps the feed's ``as_of`` and asks ``since`` it next time.
- *Hidden*: a seat's player who hides their page (``Player.profile_hidden``) is listed
  with a null id and the private name; a team with a hidden member without its name.

A page is three statements whatever its size (the cursor's key, the matches, their seats).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import F, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from seasons.selectors.players import PersonRef
from tournaments.models import Match, MatchSeat, MatchStatus, Round, Tournament, Winner

#: The play order of matches (``selectors.ratings.ORDER`` from a match).
MATCH_ORDER = (
    "round__tournament__scheduled_start",
    "round__tournament_id",
    "round__number",
    "table",
    "id",
)
#: How far behind the clock ``as_of`` is: a confirmation's transaction commits a moment
#: after its ``confirmed_at`` is read, so the newest moment is not yet final.
SETTLE = timedelta(seconds=60)
DEFAULT_LIMIT = 100
MAX_LIMIT = 500


@dataclass(frozen=True)
class FeedSeat:
    position: int
    place: int | None
    score: int | None
    round_wins: int | None
    team_name: str | None
    players: list[PersonRef]
    #: The seat's total in each game (the games' rounds summed), in game order.
    game_scores: list[int]


@dataclass(frozen=True)
class FeedMatch:
    id: int
    tournament_id: int
    tournament_name: str
    game: str
    date: datetime
    round: int
    round_code: str
    table: int
    confirmed_at: datetime | None
    draw: bool
    seats: list[FeedSeat]


@dataclass(frozen=True)
class FeedPage:
    matches: list[FeedMatch]
    #: The last match's id when more follow (the next page's ``after``), else None.
    next_after: int | None
    #: What to pass as ``since`` next time to get only what is new.
    as_of: datetime


def confirmed_in_club(club_id: int, game: str | None = None) -> QuerySet[Match]:
    found = Match.objects.filter(round__tournament__club_id=club_id, status=MatchStatus.CONFIRMED)
    return found.filter(round__tournament__game=game) if game else found


def newest_confirmation(club_id: int) -> datetime | None:
    """The club's latest confirmation (the feed's ``Last-Modified``; one statement, from
    the newest end of the confirmations' index: ``bench.seasons``, 43 -> 0.1 ms at 100,000
    matches)."""
    found: datetime | None = (
        confirmed_in_club(club_id)
        .filter(confirmed_at__isnull=False)
        .order_by("-confirmed_at")
        .values_list("confirmed_at", flat=True)
        .first()
    )
    return found


def play_key(club_id: int, match_id: int) -> tuple[Any, ...] | None:
    """Match ``match_id``'s play key, if it is one of the club's matches."""
    found: tuple[Any, ...] | None = (
        Match.objects.filter(pk=match_id, round__tournament__club_id=club_id)
        .values_list(*MATCH_ORDER)
        .first()
    )
    return found


def _after(key: tuple[Any, ...]) -> Q:
    """The matches after ``key`` in play order (a row comparison, spelled out)."""
    after = Q()
    for i, name in enumerate(MATCH_ORDER):
        step = Q(**{f"{name}__gt": key[i]})
        for earlier, value in zip(MATCH_ORDER[:i], key[:i], strict=True):
            step &= Q(**{earlier: value})
        after |= step
    return after


def _page_ids(
    club_id: int,
    game: str | None,
    after: tuple[Any, ...] | None,
    since: datetime | None,
    limit: int,
) -> RawSQL:
    """The ids of the page's matches (PostgreSQL): the club's rounds in play order, and
    each round's first matches by table through its ``(round, table)`` index, so the page
    reads about ``limit`` matches, not every match of the club sorted (``bench.seasons``:
    46 ms -> 1 ms at 100,000 matches)."""
    rounds, tournaments, matches = (
        Round._meta.db_table,
        Tournament._meta.db_table,
        Match._meta.db_table,
    )
    outer, inner = ["t.club_id = %s"], ["m.round_id = rounds.round_id", "m.status = %s"]
    outer_params: list[Any] = [club_id]
    inner_params: list[Any] = [MatchStatus.CONFIRMED]
    if game:
        outer.append("t.game = %s")
        outer_params.append(game)
    if after is not None:
        outer.append("(t.scheduled_start, t.id, r.number) >= (%s, %s, %s)")
        outer_params.extend(after[:3])
        inner.append(
            '(rounds.start, rounds.tid, rounds.number, m."table", m.id) > (%s, %s, %s, %s, %s)'
        )
        inner_params.extend(after)
    if since is not None:
        inner.append("m.confirmed_at >= %s")
        inner_params.append(since)
    sql = f"""
        SELECT m.id FROM (
            SELECT r.id AS round_id, t.scheduled_start AS start, t.id AS tid, r.number
            FROM {rounds} r JOIN {tournaments} t ON t.id = r.tournament_id
            WHERE {" AND ".join(outer)}
            ORDER BY t.scheduled_start, t.id, r.number
        ) AS rounds
        CROSS JOIN LATERAL (
            SELECT m.id, m."table" FROM {matches} m WHERE {" AND ".join(inner)}
            ORDER BY m."table", m.id LIMIT %s
        ) AS m
        ORDER BY rounds.start, rounds.tid, rounds.number, m."table", m.id
        LIMIT %s
    """  # table names from the models; every value a parameter
    return RawSQL(sql, [*outer_params, *inner_params, limit, limit])


def _game_scores(result: Any, position: int) -> list[int]:
    """The seat's total of each game of a stored result (games of rounds of scores)."""
    totals = []
    for game in result if isinstance(result, list) else []:
        rounds = game.get("rounds", []) if isinstance(game, dict) else []
        totals.append(sum(r[position] for r in rounds if isinstance(r, list) and len(r) > position))
    return totals


def _members(row: Any) -> list[PersonRef]:
    members = [(row["registration__player_id"], row["name"], row["hidden"])]
    if row["registration__partner_id"] is not None and row["accepted"] is not None:
        members.append(
            (row["registration__partner_id"], row["partner_name"], row["partner_hidden"])
        )
    return [PersonRef.of(pk, name, hidden) for pk, name, hidden in members]


def results_page(
    club_id: int,
    *,
    game: str | None = None,
    after: tuple[Any, ...] | None = None,
    since: datetime | None = None,
    limit: int = DEFAULT_LIMIT,
) -> FeedPage:
    """A page of the club's confirmed matches in play order: after the match whose play
    key is ``after``, confirmed at or after ``since``, at most ``limit``."""
    as_of = timezone.now() - SETTLE
    if connection.vendor == "postgresql":
        matches = Match.objects.filter(id__in=_page_ids(club_id, game, after, since, limit + 1))
    else:  # the embedded default (SQLite): every match of the club sorted, small clubs
        matches = confirmed_in_club(club_id, game)
        if after is not None:
            matches = matches.filter(_after(after))
        if since is not None:
            matches = matches.filter(confirmed_at__gte=since)
    rows = list(
        matches.order_by(*MATCH_ORDER).values(
            "id",
            "round__tournament_id",
            "round__tournament__name",
            "round__tournament__game",
            "round__tournament__scheduled_start",
            "round__number",
            "round__name",
            "table",
            "confirmed_at",
            "winner",
            "result",
        )[: limit + 1]
    )
    more = len(rows) > limit
    rows = rows[:limit]
    seats: dict[int, list[FeedSeat]] = defaultdict(list)
    results = {row["id"]: row["result"] for row in rows}
    seat_rows = (
        MatchSeat.objects.filter(match_id__in=list(results))
        .order_by("match_id", "position")
        .values(
            "match_id",
            "position",
            "place",
            "score",
            "round_wins",
            "registration__team_name",
            "registration__player_id",
            "registration__partner_id",
            name=F("registration__player__display_name"),
            hidden=F("registration__player__profile_hidden"),
            partner_name=F("registration__partner__display_name"),
            partner_hidden=F("registration__partner__profile_hidden"),
            accepted=F("registration__partner_accepted_at"),
        )
    )
    for seat in seat_rows:
        players = _members(seat)
        team = seat["registration__team_name"] or None
        seats[seat["match_id"]].append(
            FeedSeat(
                position=seat["position"],
                place=seat["place"],
                score=seat["score"],
                round_wins=seat["round_wins"],
                team_name=None if team and any(p.hidden for p in players) else team,
                players=players,
                game_scores=_game_scores(results[seat["match_id"]], seat["position"]),
            )
        )
    found = [
        FeedMatch(
            id=row["id"],
            tournament_id=row["round__tournament_id"],
            tournament_name=row["round__tournament__name"],
            game=row["round__tournament__game"],
            date=row["round__tournament__scheduled_start"],
            round=row["round__number"],
            round_code=row["round__name"],
            table=row["table"],
            confirmed_at=row["confirmed_at"],
            draw=row["winner"] == Winner.DRAW,
            seats=seats.get(row["id"], []),
        )
        for row in rows
    ]
    return FeedPage(found, found[-1].id if more and found else None, as_of)
