"""Final placements: where every entrant finished, the last stage first.

A tournament's final order reads its stages from the last to the first: the entrants of
the last stage take the first places in that stage's own order (a bracket's placements,
shared as Challonge shows them: both losing semi-finalists are 3rd; a Swiss's, a round
robin's or a pod stage's standings), then the entrants who did not reach it follow in the
order of the stage before, and so on. So a top-4 cut's champion is 1st, its finalist 2nd,
its semi-finalists 3rd, and the Swiss's 5th is 5th.

Each format answers how its entrants are ordered (``Format.standings``: its bracket's
placements, the standings table, pod points); :data:`_ORDERS` has one function for each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import pgettext

from tournaments import formats
from tournaments.formats import Standings
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    RegistrationStatus,
    Stage,
    StageStatus,
    Tournament,
    Winner,
)
from tournaments.selectors.brackets import bracket_view
from tournaments.selectors.pods import standings_of
from tournaments.selectors.standings import tournament_standings

#: A stage's order: (registration id, place within the stage), best first.
Order = list[tuple[int, int]]


@dataclass(frozen=True)
class Placement:
    place: int
    registration: Registration
    #: Match record over the whole tournament, wins-losses-draws ("" in a pod stage).
    record: str


def _bracket_order(stage: Stage, tournament: Tournament) -> Order:
    view = bracket_view(stage)
    if view.state is None:
        return []
    placed = sorted(view.state.placements.items(), key=lambda item: item[1])
    order = [(pk, place) for pk, place in placed]
    # Ended early: those whose place is not certain yet follow, by seed.
    last = max((place for _, place in order), default=0)
    seen = {pk for pk, _ in order}
    rest = [pk for pk in stage.bracket.seeded if pk not in seen]
    return order + [(pk, last + 1) for pk in rest]


def _standings_order(stage: Stage, tournament: Tournament) -> Order:
    """A Swiss or a round robin: the standings' rank (a round robin: its entrants only)."""
    table = tournament_standings(tournament)
    seeds = formats.format_of(stage).seeds(stage)
    members = None if seeds is None else set(seeds)
    rows = [row for row in table.table.rows if members is None or row.entrant in members]
    return [(row.entrant, index) for index, row in enumerate(rows, start=1)]


def _pods_order(stage: Stage, tournament: Tournament) -> Order:
    return [(row.registration.pk, row.row.rank) for row in standings_of(stage)]


#: Each way a format orders its entrants (``Format.standings``).
_ORDERS: dict[Standings, Callable[[Stage, Tournament], Order]] = {
    Standings.BRACKET: _bracket_order,
    Standings.TABLE: _standings_order,
    Standings.PODS: _pods_order,
}


def final_order(tournament: Tournament) -> list[tuple[int, int]]:
    """(registration id, final place) for every entrant who played, best first."""
    stages = [
        s
        for s in Stage.objects.filter(tournament=tournament)
        .select_related("bracket")
        .order_by("-number")
        if s.status != StageStatus.PENDING
    ]
    placed: list[tuple[int, int]] = []
    seen: set[int] = set()
    for stage in stages:
        offset = len(placed)
        rest = [
            (pk, p)
            for pk, p in _ORDERS[formats.format_of(stage).standings](stage, tournament)
            if pk not in seen
        ]
        previous: tuple[int, int] | None = None  # (place in the stage, final place)
        for index, (pk, stage_place) in enumerate(rest, start=1):
            # Competition ranking among those left: a shared place stays shared.
            if previous is not None and previous[0] == stage_place:
                final = previous[1]
            else:
                final = offset + index
            previous = (stage_place, final)
            seen.add(pk)
            placed.append((pk, final))
    return placed


def records(tournament: Tournament) -> dict[int, str]:
    """Registration id -> its match record over every two-sided match of the tournament,
    wins-losses-draws, a bye a win (one query)."""
    tally: dict[int, list[int]] = {}
    for a, b, winner in (
        Match.objects.filter(round__tournament=tournament, status=MatchStatus.CONFIRMED)
        .exclude(round__stage__kind__in=formats.kinds(lambda f: f.many_seats))
        .values_list("a_id", "b_id", "winner")
    ):
        for pk, mine in ((a, Winner.A), (b, Winner.B)):
            if pk is None:
                continue
            row = tally.setdefault(pk, [0, 0, 0])
            if winner == Winner.DRAW:
                row[2] += 1
            elif winner == mine or b is None:
                row[0] += 1
            else:
                row[1] += 1
    return {pk: f"{w}-{lost}-{d}" for pk, (w, lost, d) in tally.items()}


def final_placements(tournament: Tournament) -> list[Placement]:
    """The stored final places (set when the tournament finished), best first, with each
    entrant's record: a fixed number of queries whatever the field size."""
    registrations = list(
        Registration.objects.filter(tournament=tournament, final_place__isnull=False)
        .exclude(status=RegistrationStatus.WITHDRAWN)
        .select_related("player", "partner")
        .order_by("final_place", "id")
    )
    if not registrations:
        return []
    by_record = records(tournament)
    return [
        Placement(place=r.final_place or 0, registration=r, record=by_record.get(r.pk, ""))
        for r in registrations
    ]


def ordinal(number: int | None) -> str:
    """A place in words, in the reader's language: "1st", "2nd", "3rd", "4th", "11th",
    "22nd" ("" for none).

    One message for each of English's endings, so that every language says each kind
    of number its own way: 1 alone (French "1er", then "21e"), then numbers ending in 1,
    2 or 3 but for 11 to 13, then every other number ("%(number)se" in French, "%(number)sη"
    in Greek, which says "η θέση", whatever the ending)."""
    if not number:
        return ""
    if number == 1:
        template = pgettext("placement: 1", "%(number)sst")
    elif 10 <= number % 100 <= 20:
        template = pgettext("placement: 4 to 20, and any other number", "%(number)sth")
    elif number % 10 == 1:
        template = pgettext("placement: 21, 31, 41...", "%(number)sst")
    elif number % 10 == 2:
        template = pgettext("placement: 2, 22, 32...", "%(number)snd")
    elif number % 10 == 3:
        template = pgettext("placement: 3, 23, 33...", "%(number)srd")
    else:
        template = pgettext("placement: 4 to 20, and any other number", "%(number)sth")
    return template % {"number": number}


def champion(placements: list[Placement]) -> Registration | None:
    """The one entrant in 1st place (None when 1st is shared or nobody placed)."""
    first = [p for p in placements if p.place == 1]
    return first[0].registration if len(first) == 1 else None
