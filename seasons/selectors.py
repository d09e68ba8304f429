"""What the ratings are computed from: a club's confirmed matches of one game, in play
order, as the pure ``rating`` module takes them (two statements for any number).

Play order: the tournaments by their scheduled start (then id), each tournament's rounds
by number, a round's matches by table. A correction changes a match's result, never its
place in the order; the recompute therefore changes what follows it, and nothing before.
"""

from __future__ import annotations

from django.db.models import Count, Max, QuerySet

from seasons.models import Rating
from seasons.rating import Played
from tournaments.models import Match, MatchSeat, MatchStatus, Winner

#: A two-seat match's places by its winner (1 best; a draw shares the first place).
PLACES: dict[str, tuple[int, int]] = {
    Winner.A.value: (1, 2),
    Winner.B.value: (2, 1),
    Winner.DRAW.value: (1, 1),
}
ORDER = (
    "round__tournament__scheduled_start",
    "round__tournament_id",
    "round__number",
    "table",
    "pk",
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
    """Every confirmed match of the club's game with at least two sides, in play order."""
    rows = list(
        confirmed(club_id, game)
        .exclude(b__isnull=True)
        .order_by(*ORDER)
        .values_list(
            "pk", "seat_count", "winner",
            "a__player_id", "a__partner_id", "b__player_id", "b__partner_id",
        )
    )  # fmt: skip
    pods = [row[0] for row in rows if row[1] > 2]
    seats: dict[int, list[tuple[int, tuple[int, ...], int | None]]] = {}
    if pods:
        found = (
            MatchSeat.objects.filter(match_id__in=pods)
            .order_by("match_id", "position")
            .values_list("match_id", "position", "registration__player_id",
                         "registration__partner_id", "place")
        )  # fmt: skip
        for match_id, position, player, partner, place in found:
            seats.setdefault(match_id, []).append((position, _players(player, partner), place))
    played = []
    for pk, seat_count, winner, a, a_partner, b, b_partner in rows:
        if seat_count > 2:
            pod = seats.get(pk, [])
            if any(place is None for _, _, place in pod):
                continue  # a pod confirmed before its seats said their places
            played.append(
                Played(pk, tuple(s for _, s, _ in pod), tuple(int(p or 0) for _, _, p in pod))
            )
        elif winner in PLACES:
            played.append(
                Played(pk, (_players(a, a_partner), _players(b, b_partner)), PLACES[winner])
            )
    return played


def leaderboard(club_id: int, game: str) -> QuerySet[Rating]:
    """A club's ratings of a game, best first (the conservative ``ordinal``), with each
    player's name: one statement a page."""
    return (
        Rating.objects.filter(club_id=club_id, game=game)
        .select_related("player")
        .only("player__display_name", "mu", "sigma", "ordinal", "matches", "player_id")
        .order_by("-ordinal", "player_id")
    )
