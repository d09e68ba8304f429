"""What the ratings are computed from: a club's confirmed matches of one game, in play
order, as the pure ``rating`` module takes them (one statement for any number).

Play order: the tournaments by their scheduled start (then id), each tournament's rounds
by number, a round's matches by table. A correction changes a match's result, never its
place in the order; the recompute therefore changes what follows it, and nothing before.
"""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter

from django.db.models import Count, Exists, Max, OuterRef, QuerySet

from seasons.models import Rating, RatingBook, RatingChange
from seasons.rating import Played, Stored
from tournaments.models import Match, MatchSeat, MatchStatus, Tournament

#: Play order, from a seat: its match's tournament by start, the round, the table.
ORDER = (
    "match__round__tournament__scheduled_start",
    "match__round__tournament_id",
    "match__round__number",
    "match__table",
    "match_id",
    "position",
)


def confirmed(club_id: int, game: str) -> QuerySet[Match]:
    return Match.objects.filter(
        round__tournament__club_id=club_id,
        round__tournament__game=game,
        status=MatchStatus.CONFIRMED,
    )


def mark(club_id: int, game: str) -> str:
    """What a book computed from: the confirmed matches' count, latest confirmation and
    highest id (a new, corrected or withdrawn result changes it)."""
    found = confirmed(club_id, game).aggregate(n=Count("pk"), at=Max("confirmed_at"), top=Max("pk"))
    at = found["at"].isoformat() if found["at"] else ""
    return f"{found['n']}:{at}:{found['top'] or 0}"


def _players(player: int | None, partner: int | None) -> tuple[int, ...]:
    return tuple(p for p in (player, partner) if p is not None)


def played_in_order(club_id: int, game: str) -> list[Played]:
    """Every confirmed match of the club's game with at least two sides, in play order,
    from its seats (one statement): each seat's players and the place the results
    service gave it (``services.outcomes``: a two-seat match's winner first, a draw both
    first; a pod's places), whatever the number of seats."""
    seats = (
        MatchSeat.objects.filter(
            match__round__tournament__club_id=club_id,
            match__round__tournament__game=game,
            match__status=MatchStatus.CONFIRMED,
            match__b__isnull=False,
        )
        .order_by(*ORDER)
        .values_list("match_id", "registration__player_id", "registration__partner_id", "place")
    )
    played = []
    for match_id, rows in groupby(seats.iterator(chunk_size=5000), key=itemgetter(0)):
        found = list(rows)
        places = tuple(place for *_, place in found if place is not None)
        if len(places) < len(found):
            continue  # confirmed before its seats said their places
        sides = tuple(_players(player, partner) for _, player, partner, _ in found)
        played.append(Played(match_id, sides, places))
    return played


def history(club_id: int, game: str) -> list[Stored]:
    """The club's stored changes of ``game`` in play order, as ``rating.resume`` reads
    them (one statement)."""
    return list(
        RatingChange.objects.filter(club_id=club_id, game=game)
        .order_by("position", "side", "player_id")
        .values_list(
            "position", "match_id", "player_id", "side", "place", "mu_after", "sigma_after"
        )
        .iterator(chunk_size=10000)
    )


def stored_ratings(club_id: int, game: str) -> dict[int, tuple[float, float, int, int | None]]:
    """The club's ratings of ``game`` as stored, by player: mu, sigma, matches rated and
    the last match (one statement)."""
    rows = Rating.objects.filter(club_id=club_id, game=game).values_list(
        "player_id", "mu", "sigma", "matches", "last_match_id"
    )
    return {player: (mu, sigma, matches, last) for player, mu, sigma, matches, last in rows}


def books_to_check() -> list[tuple[int, str]]:
    """Every club's game with a confirmed match or a rating book (a book whose last
    tournament was deleted must be emptied): what the sweeper looks at, two statements."""
    has_confirmed = Match.objects.filter(
        round__tournament_id=OuterRef("pk"), status=MatchStatus.CONFIRMED
    )
    played = set(
        Tournament.objects.filter(Exists(has_confirmed))
        .order_by()
        .values_list("club_id", "game")
        .distinct()
    )
    booked = set(RatingBook.objects.values_list("club_id", "game"))
    return sorted(played | booked)


def club_and_game(tournament_id: int) -> tuple[int, str] | None:
    """A tournament's club and game (None: no such tournament)."""
    return Tournament.objects.filter(pk=tournament_id).values_list("club_id", "game").first()


def leaderboard(club_id: int, game: str) -> QuerySet[Rating]:
    """A club's ratings of a game, best first (the conservative ``ordinal``), with each
    player's name and whether they hide it: one statement a page."""
    return (
        Rating.objects.filter(club_id=club_id, game=game)
        .select_related("player")
        .only(
            "player__display_name",
            "player__profile_hidden",
            "mu",
            "sigma",
            "ordinal",
            "matches",
            "player_id",
        )
        .order_by("-ordinal", "player_id")
    )
