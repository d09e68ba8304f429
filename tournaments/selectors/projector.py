"""What the projector screen shows of a tournament: the current round's clock, its tables
(two entrants, a pod's every seat, or a bye) with each confirmed result, and for an
elimination stage the bracket to draw.

Terms: the *current round* is the tournament's latest round (``rounds.current_round``). In
an elimination stage the tables are that round's matches plus every unplayed match of the
stage from an earlier round (a double elimination plays its winners' and losers' rounds
side by side). A *table* lists its *seats* in order; a result shows once confirmed.

A big event's screen turns *pages* (issue 24: 1,024 tables cannot be read across a room,
and were 366 KB a fetch): a round of more than ``PAGE_TABLES`` tables (``POD_PAGE_TABLES``
for pods) is shown a page of tables at a time, in table order, and the screen turns to the
next page every ``PAGE_SECONDS`` (``static/js/projector.js``); a smaller round is shown
whole, as before. Only the page's matches are read; the round's counts ("310 of 1,024
results in") come from one aggregate.

Query count: 4 whatever the number of matches (the round with its stage and the stage's
bracket settings; the round's counts; then the page's matches with their entrants and a
pod's seats, or, for an elimination stage, ``brackets.bracket_view``'s matches and
entrants); asserted in tests/tournaments/test_projector.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count, Q, Subquery
from django.utils.translation import gettext, pgettext

from tournaments import formats
from tournaments.formats import Projector
from tournaments.models import (
    MATCH_ENTRANTS,
    EntrantType,
    Match,
    MatchStatus,
    Registration,
    Round,
    Tournament,
    Winner,
)
from tournaments.selectors.brackets import BracketView, bracket_view
from tournaments.selectors.matches import pod_seats_prefetch
from tournaments.selectors.names import round_title
from tournaments.selectors.result_words import games_words
from tournaments.selectors.timer import RoundClock, round_clock
from tournaments.selectors.tournaments import visible_tournament_ids

if TYPE_CHECKING:
    from core.auth import AnyUser


@dataclass(frozen=True)
class Seat:
    """One entrant at a table."""

    name: str  # the team's name, or the player's
    members: str  # a team's players ("Ada & Bruno"); empty for a single player
    won: bool  # the confirmed winner (a pod's, or a match's)


@dataclass(frozen=True)
class Table:
    """One table of the current round, as the projector lists it."""

    number: int
    seats: tuple[Seat, ...]  # two entrants, a pod's seats in order, or one (the bye)
    bye: bool
    pod: bool
    done: bool  # the result is confirmed
    #: Once confirmed: "2-1", "Draw 1-1", "bye", a pod's "Ada wins"; empty before.
    result: str
    #: An elimination match's round ("Quarterfinals"), when the tables mix rounds.
    label: str = ""


#: A big round's page: two columns of 14 tables, what fits under the header of a 16:9
#: screen in type read across a room (a pod's seats take more room: 12 pods).
PAGE_TABLES = 28
POD_PAGE_TABLES = 12
#: How long the screen shows a page before it turns to the next (projector.js reads it).
PAGE_SECONDS = 15


@dataclass(frozen=True)
class ProjectorView:
    tournament: Tournament
    round: Round | None
    clock: RoundClock | None
    tables: list[Table] = field(default_factory=list)
    #: The elimination stage's bracket, resolved from its results (None: not a bracket).
    bracket: BracketView | None = None
    #: A big round's page of tables (1-based) and how many pages it has (1: shown whole).
    page: int = 1
    pages: int = 1
    #: The round's counts when only a page of its tables is read (None: ``tables`` is all).
    counts: tuple[int, int] | None = None

    @property
    def teams(self) -> bool:
        return self.tournament.entrant_type == EntrantType.TEAM

    @property
    def pods(self) -> bool:
        return (
            self.round is not None
            and formats.format_of(self.round.stage).projector == Projector.PODS
        )

    @property
    def results_in(self) -> int:
        if self.counts is not None:
            return self.counts[1]
        return sum(1 for t in self.tables if t.done and not t.bye)

    @property
    def matches_played(self) -> int:
        """Tables that play (byes left out): what "5 of 8 results in" counts."""
        if self.counts is not None:
            return self.counts[0]
        return sum(1 for t in self.tables if not t.bye)

    @property
    def paged(self) -> bool:
        return self.pages > 1

    @property
    def columns(self) -> list[list[Table]]:
        """A page's tables in the columns the screen shows side by side: two halves of a
        two-sided round's page, one column of pods (or of a round shown whole)."""
        if not self.paged or self.pods:
            return [self.tables]
        half = -(-len(self.tables) // 2)
        return [self.tables[:half], self.tables[half:]] if self.tables[half:] else [self.tables]

    @property
    def first_table(self) -> int:
        return self.tables[0].number if self.tables else 0

    @property
    def last_table(self) -> int:
        return self.tables[-1].number if self.tables else 0


def _seat(registration: Registration, *, won: bool, teams: bool) -> Seat:
    return Seat(
        name=registration.name,
        members=registration.member_names if teams and registration.is_team else "",
        won=won,
    )


def _two_player_table(match: Match, *, teams: bool, label: str = "") -> Table:
    done = match.status == MatchStatus.CONFIRMED
    if match.b is None:
        return Table(
            number=match.table,
            seats=(_seat(match.a, won=done, teams=teams),),
            bye=True,
            pod=False,
            done=done,
            result=pgettext("a match without an opponent", "bye"),
            label=label,
        )
    result = ""
    if done:
        # Between the two names, in seat order ("Ann 2-1 Bruno"); a draw says so.
        score = games_words(match.games_a, match.games_b, match.games_drawn)
        result = (
            gettext("Draw %(score)s") % {"score": score} if match.winner == Winner.DRAW else score
        )
    return Table(
        number=match.table,
        seats=(
            _seat(match.a, won=done and match.winner == Winner.A, teams=teams),
            _seat(match.b, won=done and match.winner == Winner.B, teams=teams),
        ),
        bye=False,
        pod=False,
        done=done,
        result=result,
        label=label,
    )


def _pod_table(match: Match, *, teams: bool) -> Table:
    if match.b is None:  # a pod stage's bye is a two-player bye
        return _two_player_table(match, teams=teams)
    done = match.status == MatchStatus.CONFIRMED
    seats = [s.registration for s in match.pod_seats]  # type: ignore[attr-defined]
    position = match.winner_position if done else None
    winner = seats[position] if position is not None else None
    result = ""
    if done:
        result = (
            gettext("%(winner)s wins") % {"winner": winner.name}
            if winner is not None
            else gettext("no winner")
        )
    return Table(
        number=match.table,
        seats=tuple(_seat(r, won=r is winner, teams=teams) for r in seats),
        bye=False,
        pod=True,
        done=done,
        result=result,
    )


def _round_tables(
    rnd: Round, *, teams: bool, pods: bool, offset: int = 0, limit: int | None = None
) -> list[Table]:
    """The round's tables in order (``offset`` and ``limit``: a page of them): 2 queries
    (the matches with their entrants, and the seats of its pods)."""
    matches = (
        rnd.matches.select_related(*MATCH_ENTRANTS)
        .prefetch_related(pod_seats_prefetch())
        .order_by("table")
    )
    if limit is not None:
        # The page's matches chosen on the bare rows, then joined to their entrants: an
        # offset over the joined rows made the database join every match of the round.
        page = rnd.matches.order_by("table").values("pk")[offset : offset + limit]
        matches = matches.filter(pk__in=Subquery(page))
    if pods:
        return [_pod_table(m, teams=teams) for m in matches]
    return [_two_player_table(m, teams=teams) for m in matches]


def _paged(
    tournament: Tournament, rnd: Round, clock: RoundClock | None, *, teams: bool, page: int
) -> ProjectorView:
    """A round's view, a page of its tables when it has more than a page (one query for
    its counts, then the page's matches)."""
    pods = formats.format_of(rnd.stage).projector == Projector.PODS
    size = POD_PAGE_TABLES if pods else PAGE_TABLES
    counts = rnd.matches.aggregate(
        tables=Count("pk"),
        played=Count("pk", filter=Q(b__isnull=False)),
        done=Count("pk", filter=Q(b__isnull=False, status=MatchStatus.CONFIRMED)),
    )
    pages = max(1, -(-counts["tables"] // size))
    if pages == 1:
        tables = _round_tables(rnd, teams=teams, pods=pods)
        return ProjectorView(tournament=tournament, round=rnd, clock=clock, tables=tables)
    number = min(max(1, page), pages)
    return ProjectorView(
        tournament=tournament,
        round=rnd,
        clock=clock,
        tables=_round_tables(rnd, teams=teams, pods=pods, offset=(number - 1) * size, limit=size),
        page=number,
        pages=pages,
        counts=(counts["played"], counts["done"]),
    )


def _bracket_tables(view: BracketView, rnd: Round, *, teams: bool) -> list[Table]:
    """An elimination stage's tables: the current round's matches and the unplayed ones
    of earlier rounds (no query: ``bracket_view`` read them with their entrants)."""

    def entrant(pk: int | None) -> Registration | None:
        return None if pk is None else view.entrants.get(pk)

    tables = []
    for match in sorted(view.matches.values(), key=lambda m: (m.round.number, m.table)):
        if match.round_id != rnd.pk and match.status == MatchStatus.CONFIRMED:
            continue
        a, b = entrant(match.a_id), entrant(match.b_id)
        if a is None:  # not one of the stage's seeds: nothing sensible to show
            continue
        # The match's entrants from the view's (no query for the foreign keys).
        match.a = a
        match.b = b
        tables.append(_two_player_table(match, teams=teams, label=round_title(match.round)))
    return tables


def projector_view(tournament: Tournament, *, page: int = 1) -> ProjectorView:
    """The projector's content for ``tournament`` (see the module docstring); ``page``: a
    big round's page of tables (past the last: the last)."""
    teams = tournament.entrant_type == EntrantType.TEAM
    rnd = (
        Round.objects.filter(tournament=tournament)
        .select_related("stage", "stage__bracket")
        .order_by("-number")
        .first()
    )
    if rnd is None:
        return ProjectorView(tournament=tournament, round=None, clock=None)
    clock = round_clock(rnd)
    if formats.format_of(rnd.stage).projector == Projector.BRACKET:
        view = bracket_view(rnd.stage)
        if view.bracket is not None:
            return ProjectorView(
                tournament=tournament,
                round=rnd,
                clock=clock,
                tables=_bracket_tables(view, rnd, teams=teams),
                bracket=view,
            )
    return _paged(tournament, rnd, clock, teams=teams, page=page)


def tournament_visible_to(user: AnyUser, tournament_id: int) -> bool:
    """Whether the tournament exists and ``user`` may see it (one query): the projector's
    websocket asks before it joins the tournament's group."""
    return visible_tournament_ids(user).filter(pk=tournament_id).exists()
