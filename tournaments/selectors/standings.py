"""Standings: every confirmed result as the standings engine reads it, the table with the
tournament's tiebreakers, and the field the Swiss engine pairs. Three queries whatever the
number of entrants."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments import formats
from tournaments.formats import Standings
from tournaments.models import (
    DEFAULT_TIEBREAKERS,
    LateEntry,
    Match,
    MatchStatus,
    Registration,
    RegistrationStatus,
    SwissSettings,
    Tournament,
)
from tournaments.pairing import standings
from tournaments.pairing import swiss as pairing
from tournaments.selectors.standings_words import tiebreaker_label
from tournaments.selectors.tournaments import UNSHOWN_TIMES, swiss_settings_or_defaults


def confirmed_results(tournament: Tournament) -> list[standings.MatchResult]:
    """Every confirmed match of the tournament's Swiss and round-robin rounds as the
    standings engine reads it (1 query; a bracket's standings are its placements)."""
    rows = (
        Match.objects.filter(
            round__tournament=tournament,
            round__stage__kind__in=formats.kinds(lambda f: f.standings == Standings.TABLE),
            status=MatchStatus.CONFIRMED,
        )
        .order_by("round__number", "table")
        .values_list(
            "round__number",
            "a_id",
            "b_id",
            "winner",
            "games_a",
            "games_b",
            "games_drawn",
            "game_rounds_a",
            "game_rounds_b",
            "score_a",
            "score_b",
        )
    )
    return [standings.MatchResult(*row) for row in rows]


def standings_entrants(tournament: Tournament) -> QuerySet[Registration]:
    """Registrations that are (or were) playing: registered and dropped (with a team's
    partner: pages name a team's members; not their accounts: ``has_member`` reads the
    player's ``user_id``, and 2,048 accounts cost a third of the read)."""
    return (
        tournament.registrations.select_related("player", "partner")
        .defer(*UNSHOWN_TIMES)
        .filter(status__in=[RegistrationStatus.REGISTERED, RegistrationStatus.DROPPED])
    )


def tournament_standings(
    tournament: Tournament, *, settings: SwissSettings | None = None
) -> StandingsTable:
    """Standings with the tournament's tiebreakers; 3 queries whatever the field size (2
    when the caller has the Swiss settings at hand)."""
    registrations = {r.pk: r for r in standings_entrants(tournament)}
    table = computed_standings(
        tournament,
        settings=settings,
        entrants=[(r.pk, r.dropped_after_round, r.joined_round) for r in registrations.values()],
    )
    return StandingsTable(table=table, registrations=registrations)


def computed_standings(
    tournament: Tournament,
    *,
    settings: SwissSettings | None,
    entrants: list[tuple[int, int | None, int]],
) -> standings.Standings:
    """The engine's standings of ``entrants`` (id, dropped after round, joined round) with
    the tournament's tiebreakers (1 query; 2 without ``settings``)."""
    if settings is None:
        settings = swiss_settings_or_defaults(tournament)
    late_losses = settings.late_entry == LateEntry.LOSSES
    ids = {pk for pk, _, _ in entrants}
    field = [
        standings.Entrant(
            id=pk,
            dropped_after=dropped_after,
            missed_rounds_lost=(joined - 1) if late_losses else 0,
        )
        for pk, dropped_after, joined in entrants
    ]
    # A withdrawn entrant's old matches stay out of the table.
    matches = [
        m for m in confirmed_results(tournament) if m.a in ids and (m.b is None or m.b in ids)
    ]
    return standings.compute_standings(
        field,
        matches,
        tiebreakers=settings.tiebreakers or DEFAULT_TIEBREAKERS,
        bye_counts_in_own_mw=settings.bye_counts_in_own_mw,
    )


class StandingsTable:
    """The engine's standings plus the registrations they name (for pages and the API)."""

    def __init__(
        self, *, table: standings.Standings, registrations: dict[int, Registration]
    ) -> None:
        self.table = table
        self.registrations = registrations
        self.labels = [tiebreaker_label(t) for t in table.tiebreakers]

    def rows(self) -> list[tuple[standings.Row, Registration]]:
        return [(row, self.registrations[row.entrant]) for row in self.table.rows]


def swiss_field(
    tournament: Tournament, *, settings: SwissSettings, round_number: int
) -> list[pairing.Entrant]:
    """The entrants the engine pairs in ``round_number``, with points, rank, opponents."""
    table = tournament_standings(tournament, settings=settings)
    opponents: dict[int, set[int]] = {pk: set() for pk in table.registrations}
    byes: set[int] = set()
    seats = Match.objects.filter(round__tournament=tournament).values_list("a_id", "b_id")
    for a, b in seats:
        if b is None:
            byes.add(a)
        elif a in opponents and b in opponents:
            opponents[a].add(b)
            opponents[b].add(a)
    field: list[pairing.Entrant] = []
    for row, reg in table.rows():
        if reg.joined_round > round_number:
            continue
        field.append(
            pairing.Entrant(
                id=reg.pk,
                points=row.points,
                rank=row.rank,
                opponents=frozenset(opponents[reg.pk]),
                had_bye=reg.pk in byes,
                rating=reg.rating,
                dropped=reg.status != RegistrationStatus.REGISTERED,
            )
        )
    return field
