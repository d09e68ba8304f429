"""A club's life across events in the outbox (issue 26): "your rating changed" after a
tournament (the ``ratings.changed`` event, recorded by the seasons app) and "your season
standings after tonight" (``season.standings``). Both are opt-in topics
(``Topic.RATING_CHANGED``, ``Topic.SEASON_STANDINGS``: in no default list).

- Each player named in the event's payload who has an account is told their OWN figures,
  in their own language, and nobody else's: a player's rating never goes to someone
  else by e-mail or push.
- The club's webhooks get the figures of every player but those who hide their profile
  (``Player.profile_hidden``): their figures are withheld (left out, counted in
  ``withheld``), as a club's cross-event lists withhold their names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from core.events import EventKind
from core.models import Event
from tournaments.models import Game, Player, Tournament
from tournaments.selectors.placements import ordinal

#: Players read from one event's payload at most (a club night's field, and more).
MOST = 4096

#: A person's subject and line, made in the language active when it is called.
Words = Callable[[], tuple[str, str]]


def _rows(event: Event) -> dict[int, dict[str, Any]]:
    """The payload's parallel lists as one row of figures per player id."""
    payload = event.payload
    players = payload.get("players", [])[:MOST]
    keys: tuple[str, ...] = ("places", "points")
    if event.kind == EventKind.RATINGS_CHANGED:
        keys = ("before", "after", "matches")
    rows: dict[int, dict[str, Any]] = {}
    for index, player in enumerate(players):
        figures = {key: payload.get(key, [])[index : index + 1] for key in keys}
        if isinstance(player, int) and all(figures.values()):
            rows[player] = {key: value[0] for key, value in figures.items()}
    return rows


def _signed(value: float) -> str:
    """+1.20, -0.45 in the reader's number format."""
    value = round(value, 2)  # 27.31 - 26.11 is 1.1999...: say 1.20
    return ("+" if value >= 0 else "-") + number_format(abs(value), 2)


def _rating_words(tournament: Tournament, game: str, row: dict[str, Any]) -> Words:
    def words() -> tuple[str, str]:
        named = {
            "game": Game(game).label if game in Game.values else game,
            "club": tournament.club.name,
            "tournament": tournament.name,
            "rating": number_format(round(row["after"], 2), 2),
            "change": _signed(row["after"] - row["before"]),
        }
        return (
            gettext("Your %(game)s rating at %(club)s") % named,
            gettext(
                "Your %(game)s rating at %(club)s: %(rating)s (%(change)s) after %(tournament)s."
            )
            % named,
        )

    return words


def _standing_words(tournament: Tournament, season: str, row: dict[str, Any]) -> Words:
    def words() -> tuple[str, str]:
        named = {
            "season": season,
            "tournament": tournament.name,
            "place": ordinal(row["places"]),
            "points": row["points"],
        }
        return (
            gettext("%(season)s: your standing") % named,
            ngettext(
                "%(season)s: you are %(place)s with %(points)d point after %(tournament)s.",
                "%(season)s: you are %(place)s with %(points)d points after %(tournament)s.",
                row["points"],
            )
            % named,
        )

    return words


def personal(event: Event, tournament: Tournament) -> Iterator[tuple[Any, Player, Words]]:
    """Each player of the payload with an account: (their user, their player, their own
    words). One query, whatever the number of players."""
    rows = _rows(event)
    players = Player.objects.filter(pk__in=list(rows), user__isnull=False).select_related("user")
    for player in players.order_by("pk"):
        row = rows[player.pk]
        if event.kind == EventKind.RATINGS_CHANGED:
            words = _rating_words(tournament, str(event.payload.get("game", "")), row)
        else:
            words = _standing_words(tournament, str(event.payload.get("name", "")), row)
        yield player.user, player, words


def page(event: Event, tournament: Tournament) -> str:
    """Where a player's message links to: the tournament's final results."""
    return f"/tournaments/{tournament.pk}/results/"


def webhook_figures(event: Event) -> dict[str, Any]:
    """The figures a club's webhook receives: every player's but the hidden profiles'
    (withheld: left out, and counted). One query."""
    rows = _rows(event)
    found = Player.objects.filter(pk__in=list(rows)).values_list(
        "pk", "display_name", "profile_hidden"
    )
    shown = []
    withheld = 0
    for pk, name, hidden in sorted(found):
        if hidden:
            withheld += 1
            continue
        shown.append({"player": pk, "name": name, **rows[pk]})
    key = "ratings" if event.kind == EventKind.RATINGS_CHANGED else "standings"
    figures: dict[str, Any] = {key: shown, "withheld": withheld}
    if event.kind == EventKind.RATINGS_CHANGED:
        figures["game"] = event.payload.get("game", "")
    else:
        figures["season"] = {"id": event.payload.get("season"), "name": event.payload.get("name")}
    return figures
