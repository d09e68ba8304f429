"""Reads about rounds and matches: a round's tables, a match with its reports, the
player's current match, the judges' grid.

Also what the pages say about them, in one place: the state of a match's result in words
(``result_status``), the players' reports as a judge compares them (``reports_for_judge``),
and what "pair again" does to a round (``pair_again_of``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from django.db.models import Count, Prefetch, QuerySet, prefetch_related_objects
from django.dispatch import Signal
from django.utils.translation import ngettext

from core import words
from core.errors import RuleViolation
from gameplay.rules import games as game_rules
from gameplay.rules.outcome import GameOptions, MatchOutcome
from tournaments.models import (
    BRACKET_KINDS,
    MATCH_ENTRANTS,
    POD_KINDS,
    FirstRoundPairing,
    Match,
    MatchSeat,
    MatchStatus,
    Registration,
    ReportSide,
    ResultReport,
    Round,
    RoundStatus,
    SwissSettings,
    Tournament,
    Winner,
)
from tournaments.selectors import policies
from tournaments.selectors.brackets import later_matches
from tournaments.selectors.names import round_title
from tournaments.selectors.tournaments import (
    game_options,
    member_of_entrant,
    round_game_options,
)

if TYPE_CHECKING:
    from core.auth import AnyUser


def tournament_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The tournament's rounds in order, each with its stage (1 query)."""
    return tournament.rounds.select_related("stage").order_by("number")


def current_round(tournament: Tournament) -> Round | None:
    """The tournament's latest round, with its stage (what the round controls ask)."""
    return tournament.rounds.select_related("stage").order_by("-number").first()


def round_matches(rnd: Round) -> QuerySet[Match]:
    """A round's matches with both entrants' names (1 query)."""
    return rnd.matches.select_related(*MATCH_ENTRANTS).order_by("table")


def rounds_with_matches(tournament: Tournament) -> list[tuple[Round, list[Match]]]:
    """Every round in order with its matches by table and both entrants' names: 2 queries
    whatever the number of rounds."""
    matches = Match.objects.select_related(*MATCH_ENTRANTS).order_by("table")
    rounds = tournament.rounds.order_by("number").prefetch_related(
        Prefetch("matches", queryset=matches)
    )
    return [(rnd, list(rnd.matches.all())) for rnd in rounds]


class ByName(NamedTuple):
    """A row of the pairings by name: ``name`` is whose row it is (a player's name: each
    member of a team has a row of their own, so a player finds their table by their own
    name), ``entrant`` their registration, ``opponent`` its opponent (None: a bye)."""

    name: str
    entrant: Registration
    opponent: Registration | None
    match: Match


def pairings_by_name(matches: list[Match]) -> list[ByName]:
    """The pairings by name, sorted by name (no query: ``round_matches`` read the
    entrants, with their players and partners). A single player's row is named by the
    player's name; a team has a row per member."""
    sides = [(m.a, m.b, m) for m in matches] + [(m.b, m.a, m) for m in matches if m.b]
    rows = [
        ByName(name, me, opponent, m)
        for me, opponent, m in sides
        if me is not None
        for name in ([p.display_name for p in me.members] if me.is_team else [me.name])
    ]
    return sorted(rows, key=lambda row: row.name.lower())


def entrant_of(user_id: int | None, registrations: Iterable[Registration | None]) -> int | None:
    """The id of the registration ``user_id`` plays for among ``registrations`` (the
    viewer's own row, to highlight: the player's, or either member's of a team), else
    None. No query: the registrations were read with their players and partners."""
    if user_id is None:
        return None
    return next((r.pk for r in registrations if r is not None and r.has_member(user_id)), None)


@dataclass(frozen=True)
class RoundClock:
    """The round clock as the timer shows it (no query)."""

    number: int
    #: "Round 3", or a bracket or round-robin round's own name ("Quarterfinals").
    title: str
    paired: bool  # paired, its clock not started
    running: bool  # the clock runs
    time_called: bool  # the clock ran out (results may still come in)
    complete: bool
    ends_at: datetime | None


def round_clock(rnd: Round | None) -> RoundClock | None:
    if rnd is None:
        return None
    in_progress = rnd.status == RoundStatus.IN_PROGRESS
    return RoundClock(
        number=rnd.number,
        title=round_title(rnd),
        paired=rnd.status == RoundStatus.PAIRED,
        running=in_progress and rnd.time_handled_at is None,
        time_called=in_progress and rnd.time_handled_at is not None,
        complete=rnd.status == RoundStatus.COMPLETE,
        ends_at=rnd.ends_at,
    )


def match_for_page(pk: int) -> Match | None:
    """A match with what its page and the API show: players, tournament, reports (with who
    sent them). Two queries; not ``.first()``, which would sort the one row by its key."""
    rows = list(
        Match.objects.select_related("round__tournament__club", "round__stage", *MATCH_ENTRANTS)
        .prefetch_related(
            Prefetch("reports", queryset=ResultReport.objects.select_related("reported_by"))
        )
        .filter(pk=pk)[:1]
    )
    return rows[0] if rows else None


def with_current_reports(match: Match) -> Match:
    """``match`` with its current reports (``match.reports.all()``), one query: for the
    answer to a result post, whose match the service has just read."""
    prefetch_related_objects(
        [match], Prefetch("reports", queryset=ResultReport.objects.filter(current=True))
    )
    return match


def current_match_of(
    user: AnyUser, tournament: Tournament, *, latest: Round | None = None
) -> Match | None:
    """The user's match to play now: their unconfirmed one (in a double elimination it can
    be in an earlier round than the latest), else theirs in the tournament's latest round
    (``latest``: that round, when the caller has read it already)."""
    if not user.is_authenticated:
        return None
    rnd = latest or current_round(tournament)
    if rnd is None:
        return None
    seats = list(
        MatchSeat.objects.select_related("match")
        .filter(member_of_entrant(user.pk, "registration__"), round__tournament=tournament)
        .order_by("-round__number")[:4]
    )
    unplayed = next((s for s in seats if s.match.status != MatchStatus.CONFIRMED), None)
    if unplayed is not None:
        return match_for_page(unplayed.match_id)
    if seats and seats[0].round_id == rnd.pk:
        return match_for_page(seats[0].match_id)
    return None


def matches_for_judge(
    tournament: Tournament,
    *,
    round_number: int | None = None,
    status: str | None = None,
    pk: int | None = None,
) -> QuerySet[Match]:
    """The judges' grid: the tournament's matches (byes left out), latest round first, by
    table, with their entrants, round and stage (``quick_results`` reads them) and a
    pod's seats; two queries. ``pk``: that one match only (a row the grid replaces)."""
    qs = (
        Match.objects.select_related("round__stage", *MATCH_ENTRANTS)
        .prefetch_related(pod_seats_prefetch())
        .filter(round__tournament=tournament, b__isnull=False)
    )
    if pk is not None:
        qs = qs.filter(pk=pk)
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    if status == "overdue":
        qs = qs.filter(overdue=True).exclude(status=MatchStatus.CONFIRMED)
    elif status:
        qs = qs.filter(status=status)
    return qs.order_by("-round__number", "table")


#: The one-tap results of the judges' grid: what each button posts, and which entrant it
#: makes the winner (0: the match's ``a``, 1: its ``b``; None: a draw).
QUICK_WINNERS: dict[str, int | None] = {"a": 0, "b": 1, "draw": None}


@dataclass(frozen=True)
class QuickResult:
    """A one-tap result button: ``value`` posted (a key of ``QUICK_WINNERS``), ``label``
    shown ("Ann 2-0", "Draw 1-1-1") and ``words`` for a screen reader."""

    value: str
    label: str
    words: str


def draw_allowed(match: Match) -> bool:
    """Whether a drawn result can stand for the match: not in a bracket, whose matches
    need a winner (``results.judge_result`` refuses ``draw_in_bracket``). No query: the
    match was read with its round's stage."""
    return not (match.slot and match.round.stage.kind in BRACKET_KINDS)


def quick_results(match: Match, tournament: Tournament) -> list[QuickResult]:
    """The one-tap results the judges' grid offers for a match (no query): for a
    two-entrant match whose result is not confirmed, each entrant winning the match the
    plain way (``game_rules.standard_result``: 2-0 in a best of 3) and, where a draw can
    stand (:func:`draw_allowed`), a draw. None for a bye, a pod or a confirmed match (a
    judge changes those on the match page)."""
    if (
        match.is_bye
        or match.status == MatchStatus.CONFIRMED
        or match.round.stage.kind in POD_KINDS
        or match.a is None
        or match.b is None
    ):
        return []
    best_of = tournament.best_of
    win = game_rules.standard_score(winner=0, best_of=best_of)
    choices = [
        QuickResult("a", f"{match.a.name} {win}", f"{match.a.name} wins {win}"),
        QuickResult("b", f"{match.b.name} {win}", f"{match.b.name} wins {win}"),
    ]
    if draw_allowed(match):
        half = best_of // 2
        choices.append(QuickResult("draw", "Draw", result_words(None, (half, half), best_of % 2)))
    return choices


class JudgeRow(NamedTuple):
    """A row of the judges' grid: the match and its one-tap results."""

    match: Match
    quick: list[QuickResult]


def judge_rows(matches: Iterable[Match], tournament: Tournament) -> list[JudgeRow]:
    """The grid's rows for ``matches`` (read by :func:`matches_for_judge`): no query."""
    return [JudgeRow(m, quick_results(m, tournament)) for m in matches]


def quick_result_games(match: Match, tournament: Tournament, value: str) -> list[dict[str, object]]:
    """The games a one-tap result ``value`` enters for a match of ``tournament`` (read by
    ``matches_for_judge``; a Swiss stage's settings, the game options, cost one query):
    the game's standard result (``game_rules.standard_result``). Refuses an unknown
    value."""
    if value not in QUICK_WINNERS:
        raise RuleViolation("result.quick", "choose one of the result buttons")
    return game_rules.standard_result(
        tournament.game,
        winner=QUICK_WINNERS[value],
        best_of=tournament.best_of,
        options=round_game_options(match.round),
    )


def match_counts(tournament: Tournament) -> dict[str, int]:
    """How many of the tournament's matches (byes left out) are in each state, as the
    judges' grid shows them: one aggregate query."""
    rows = (
        Match.objects.filter(round__tournament=tournament, b__isnull=False)
        .values_list("status")
        .annotate(n=Count("pk"))
        .order_by()
    )
    found = dict(rows)
    return {status: found[status] for status in MatchStatus.values if status in found}


def pod_seats_prefetch(*, users: bool = False) -> Prefetch[Any]:
    """A pod's seats in order as ``match.pod_seats``, with their players and partners (and
    their accounts: ``users``); two-player matches have none with a position."""
    related = ["registration__player", "registration__partner"]
    if users:
        related += ["registration__player__user", "registration__partner__user"]
    return Prefetch(
        "seats",
        queryset=MatchSeat.objects.filter(position__isnull=False)
        .select_related(*related)
        .order_by("position"),
        to_attr="pod_seats",
    )


def side_names(match: Match) -> list[str]:
    """The names of the match's two sides, in order: a player's display name, a team's
    name (what a rule violation about ``player`` 0 or 1 is said with, ``core.words``)."""
    return [match.a.name, match.b.name if match.b is not None else "bye"]


def games_words(a: int, b: int, drawn: int = 0) -> str:
    """ "2-1", "1-1 with 1 drawn game": games won, the higher first for a winner."""
    text = f"{a}-{b}"
    if drawn:
        text += ngettext(" with %(count)d drawn game", " with %(count)d drawn games", drawn) % {
            "count": drawn
        }
    return text


def result_words(winner: str | None, games: tuple[int, int], drawn: int = 0) -> str:
    """A result read from the winner's side: "Ann wins 2-1" (whichever seat Ann has), a
    draw as a draw: "Draw 1-1 with 1 drawn game"."""
    a, b = games
    if winner is None:
        return f"Draw {games_words(a, b, drawn)}"
    return f"{winner} wins {games_words(max(a, b), min(a, b), drawn)}"


def pod_result_words(winner: str) -> str:
    """A pod's result from its winner's side: "Greta wins the pod"."""
    return f"{winner} wins the pod"


def score_line(match: Match) -> str:
    """ "Ann wins 2-1", "Draw 1-1 with 1 drawn game", "bye" for pages, logs and exports (a
    team by its name: "The Aces wins 2-1")."""
    if match.is_bye:
        return "bye"
    games = (match.games_a, match.games_b)
    if match.winner == Winner.DRAW:
        return result_words(None, games, match.games_drawn)
    winner = match.a if match.winner == Winner.A else match.b
    assert winner is not None
    return result_words(winner.name, games, match.games_drawn)


# --- the state of a match's result, in words ------------------------------------------------


class ResultState(StrEnum):
    """Where a match's result stands (``Match.status``, and who confirmed it)."""

    BYE = "bye"
    PENDING = "pending"  # nothing reported yet
    IN_PROGRESS = "in_progress"  # game rounds saved as they are played, no final report yet
    REPORTED = "reported"  # one player reported: waiting for the opponent
    DISPUTED = "disputed"  # the two reports differ: waiting for a judge
    CONFIRMED = "confirmed"  # both players agree (or the overdue policy decided at time)
    JUDGED = "judged"  # a judge entered or overrode it


def result_state(match: Match) -> ResultState:
    """The match's result state. Reads the current reports from ``match.reports.all()``
    (prefetched by ``match_for_page``): a confirmed match whose current judge report
    stands was decided by a judge."""
    if match.is_bye:
        return ResultState.BYE
    if match.status == MatchStatus.CONFIRMED:
        judged = any(r.current and r.side == ReportSide.JUDGE for r in match.reports.all())
        return ResultState.JUDGED if judged else ResultState.CONFIRMED
    state = {
        MatchStatus.REPORTED: ResultState.REPORTED,
        MatchStatus.DISPUTED: ResultState.DISPUTED,
    }.get(MatchStatus(match.status), ResultState.PENDING)
    if state == ResultState.PENDING and _progress(match):
        return ResultState.IN_PROGRESS
    return state


def _progress(match: Match) -> list[ResultReport]:
    """The current reports that saved game rounds without finishing (progress)."""
    return [r for r in match.reports.all() if r.current and not r.complete and r.games]


def _game_rounds(report: ResultReport) -> int:
    return sum(len(g.get("rounds") or []) for g in report.games or [] if isinstance(g, dict))


@dataclass(frozen=True)
class ResultStatus:
    """What the match page says about the result, for one viewer."""

    state: ResultState
    label: str  # the badge: "disputed, waiting for a judge"
    words: str  # the sentence under it
    tone: str  # the badge's colour: ok, warn, bad or ""


_LABELS = {
    ResultState.BYE: ("bye (2-0)", "ok"),
    ResultState.PENDING: ("waiting for a report", ""),
    ResultState.IN_PROGRESS: ("in progress", ""),
    ResultState.REPORTED: ("reported, waiting for the opponent", "warn"),
    ResultState.DISPUTED: ("disputed, waiting for a judge", "bad"),
    ResultState.CONFIRMED: ("confirmed", "ok"),
    ResultState.JUDGED: ("decided by a judge", "ok"),
}


def result_status(match: Match, side: str | None) -> ResultStatus:
    """The result's state in words for the viewer playing ``side`` (None: anyone else).

    The only place that words a result's state: the match page shows it, and the message
    after a report is chosen from the same state (``report_message``)."""
    state = result_state(match)
    words = {
        ResultState.BYE: "A bye counts as a 2-0 match win.",
        ResultState.PENDING: "Nobody has reported this match yet.",
        ResultState.IN_PROGRESS: "",
        ResultState.REPORTED: "One player reported; the other can confirm it or enter what "
        "they played.",
        ResultState.DISPUTED: "The two reports differ: a judge compares them and decides.",
        ResultState.CONFIRMED: "Both players agree.",
        ResultState.JUDGED: "A judge entered this result.",
    }[state]
    if state == ResultState.PENDING and side is not None:
        words = (
            "Report the result here once you have played: game round by game round as you "
            "go, or all at once at the end."
        )
    if state == ResultState.IN_PROGRESS:
        words = _progress_words(match, side)
    if state == ResultState.REPORTED and side is not None:
        mine = any(r.current and r.complete and r.side == side for r in match.reports.all())
        words = (
            "You reported this result: waiting for your opponent to confirm it."
            if mine
            else "Your opponent reported a result: confirm it, or enter what you played and "
            "a judge will decide."
        )
    if state == ResultState.CONFIRMED and match.confirmed_by_id is None:
        words = "Decided at time by the overdue policy."
    label, tone = _LABELS[state]
    return ResultStatus(state=state, label=label, words=words, tone=tone)


def _progress_words(match: Match, side: str | None) -> str:
    """ "Ann saved 3 game rounds so far: report the final result when the match is over." """
    names: dict[str, str] = {
        ReportSide.A: match.a.name,
        ReportSide.B: match.b.name if match.b else "",
    }
    parts = []
    for report in _progress(match):
        count = _game_rounds(report)
        who = (
            "You" if side is not None and report.side == side else names.get(report.side, "A judge")
        )
        parts.append(
            ngettext(
                "%(who)s saved %(count)d game round so far",
                "%(who)s saved %(count)d game rounds so far",
                count,
            )
            % {"who": who, "count": count}
        )
    then = (
        "report the final result when the match is over."
        if side is not None
        else "the players report the final result when the match is over."
    )
    return f"{'; '.join(parts)}: {then}"


def report_message(match: Match) -> tuple[str, str]:
    """(level, words) of the message after a player's final report, by where it left the
    match: ``success`` when it is on its way, ``warning`` when a judge must decide."""
    state = result_state(match)
    if state == ResultState.DISPUTED:
        return "warning", (
            "Result reported, but it differs from your opponent's: a judge will decide."
        )
    if state in (ResultState.CONFIRMED, ResultState.JUDGED):
        return "success", "Result reported: it is the same as your opponent's, so it is confirmed."
    return "success", "Result reported: waiting for your opponent to confirm it."


# --- the players' reports, as a judge compares them -------------------------------------------


@dataclass(frozen=True)
class ReportGame:
    number: int
    rounds: list[tuple[Any, Any]]  # (first player's score, second player's), per game round
    alignments: list[Any]


@dataclass(frozen=True)
class ReportForJudge:
    """One player's current final report: who said what, and when."""

    pk: int
    side: str
    player: str  # the side's entrant's name (only a match's players report)
    at: datetime
    games: list[ReportGame]
    outcome: str  # what the rules make of it: "Ann wins 2-1", or why they refuse it
    games_data: list[Any]  # as stored: what "take this report" enters


def reports_to_compare(
    match: Match, actions: Collection[str], status: ResultStatus
) -> list[ReportForJudge]:
    """The players' reports side by side, as the judge's page shows them: for judges only
    (``actions`` from ``policies.match_actions``), while the result waits for a
    confirmation or a judge; otherwise none."""
    waiting = status.state in (ResultState.REPORTED, ResultState.DISPUTED)
    return reports_for_judge(match) if "judge" in actions and waiting else []


def reports_for_judge(match: Match) -> list[ReportForJudge]:
    """Both players' current final reports, first player first (one query for the game
    options; the reports are ``match.reports.all()``, prefetched by ``match_for_page``).

    For judges only: the page asks ``policies.can_judge`` before it calls this."""
    if match.is_bye:
        return []
    tournament = match.round.tournament
    options = game_options(tournament)
    names: dict[str, str] = {
        ReportSide.A: match.a.name,
        ReportSide.B: match.b.name if match.b else "",
    }
    found = []
    for report in sorted(match.reports.all(), key=lambda r: r.side):
        if not (report.current and report.complete and report.side in names):
            continue
        games = [
            ReportGame(
                number=n,
                rounds=[tuple(r) for r in (g.get("rounds") or [])],
                # None recorded: nothing to show (not "— v —").
                alignments=list(g.get("alignments") or [])
                if any(g.get("alignments") or [])
                else [],
            )
            for n, g in enumerate(report.games or [], start=1)
            if isinstance(g, dict)
        ]
        found.append(
            ReportForJudge(
                pk=report.pk,
                side=report.side,
                player=names[report.side],
                at=report.created_at,
                games=games,
                outcome=_outcome_words(tournament, match, report.games, options),
                games_data=report.games,
            )
        )
    return found


def report_outcome(match: Match, report: ResultReport) -> str:
    """What a report gives, in words first ("Greta wins 2-1"), for the player asked to
    confirm it (one query for the game options)."""
    tournament = match.round.tournament
    return _outcome_words(tournament, match, report.games, game_options(tournament))


def _outcome_words(
    tournament: Tournament, match: Match, games: object, options: GameOptions
) -> str:
    try:
        records = game_rules.parse_games(games, game=tournament.game)
        outcome = game_rules.match_result(
            tournament.game, records, options=options, best_of=tournament.best_of
        )
    except RuleViolation as error:
        problem = words.problem(error, names=side_names(match))
        assert problem is not None
        return f"The rules refuse it: {problem.text}"
    return outcome_line(match, outcome)


def outcome_line(match: Match, outcome: MatchOutcome) -> str:
    """ "Ann wins 2-1", "Draw 1-1": what a result gives, before it is confirmed."""
    if outcome.winner is None:
        return result_words(None, outcome.games_won, outcome.games_drawn)
    winner = match.a if outcome.winner == 0 else match.b
    assert winner is not None
    return result_words(winner.name, outcome.games_won, outcome.games_drawn)


# --- pairing a round again ----------------------------------------------------------------


@dataclass(frozen=True)
class PairAgain:
    """What "pair again" does to a round: draws round 1 anew (random round 1), or
    recomputes the engine's pairing (later rounds, round 1 by rating)."""

    number: int
    redraws: bool


def pair_again_of(rnd: Round) -> PairAgain:
    """For the round page's button (one query: the round's round-1 method)."""
    first_round = (
        SwissSettings.objects.filter(stage_id=rnd.stage_id)
        .values_list("first_round", flat=True)
        .first()
        or FirstRoundPairing.RANDOM
    )
    return PairAgain(
        number=rnd.number,
        redraws=policies.pair_again_draws_anew(number=rnd.number, first_round=first_round),
    )


@dataclass(frozen=True)
class CorrectionImpact:
    """What changing a confirmed Swiss result would touch, for the judge to see first.

    ``refused``: why it cannot change now (a later round has results, or has started, or a
    cut was seeded from these standings); ``repair``: the later round, paired but not
    played, that would be paired again from the corrected standings."""

    refused: str = ""
    repair: Round | None = None
    #: Later bracket matches, not played yet, that would change players.
    moves: tuple[str, ...] = ()

    @property
    def words(self) -> str:
        if self.refused:
            return self.refused
        if self.moves:
            return "Changing this result changes who plays: " + "; ".join(self.moves) + "."
        if self.repair is not None:
            return (
                f"Changing this result pairs {self.repair.name or f'round {self.repair.number}'}"
                " again from the corrected standings (it has no results yet)."
            )
        return ""


def correction_impact(match: Match) -> CorrectionImpact:
    """What a judge's change of ``match``'s confirmed result would touch: for a Swiss
    match, the later rounds paired from its standings; for a bracket match, the later
    bracket matches built on it (a few queries; nothing for a first result or a round
    robin, whose results build on nothing but the standings)."""
    if match.status != MatchStatus.CONFIRMED:
        return CorrectionImpact()
    if match.slot:
        if match.round.stage.kind not in BRACKET_KINDS:
            return CorrectionImpact()  # a round robin's results build on nothing
        blocking, unplayed = later_matches(match)
        if blocking:
            return CorrectionImpact(
                refused="Later matches already have results that depend on this one ("
                + "; ".join(blocking)
                + "): correct those first, the latest first."
            )
        return CorrectionImpact(moves=tuple(unplayed))
    later = list(
        Round.objects.filter(tournament_id=match.round.tournament_id, number__gt=match.round.number)
        .select_related("stage")
        .order_by("number")
    )
    if not later:
        return CorrectionImpact()
    cut = next((r for r in later if r.stage_id != match.round.stage_id), None)
    if cut is not None:
        return CorrectionImpact(
            refused=f"{cut.stage.label} was seeded from the standings this result is part "
            "of: it can no longer change."
        )
    played = (
        Match.objects.filter(round__in=later, b__isnull=False)
        .exclude(status=MatchStatus.PENDING, reports__isnull=True)
        .select_related("round")
        .order_by("round__number")
        .first()
    )
    if played is not None:
        return CorrectionImpact(
            refused=f"Round {played.round.number} was paired from these standings and "
            "already has results: this result can no longer change."
        )
    started = next((r for r in later if r.status != RoundStatus.PAIRED), None)
    if started is not None:
        return CorrectionImpact(
            refused=f"Round {started.number} was paired from these standings and has "
            "started: this result can no longer change."
        )
    return CorrectionImpact(repair=later[0])


# --- the player's home during an event ------------------------------------------------------


@dataclass(frozen=True)
class PlayingLinks:
    """Where a player's card links (``playing_links``): the open live table of each match
    (match id -> table id) and the open draft pod in each tournament (tournament id ->
    pod id)."""

    tables: Mapping[int, int]
    drafts: Mapping[int, int]


#: Asked for the links of the player's cards: ``send(sender=Match, user_id=...,
#: match_ids=[...], tournament_ids=[...])``; each receiver answers a ``PlayingLinks``.
#: The gameplay app answers it (``gameplay.selectors.home``), connected in its
#: ``AppConfig.ready``: live tables and drafts are its rows, and this app never imports it.
playing_links = Signal()


def _links(user_id: int, matches: list[Match]) -> PlayingLinks:
    tables: dict[int, int] = {}
    drafts: dict[int, int] = {}
    for _, reply in playing_links.send(
        sender=Match,
        user_id=user_id,
        match_ids=[m.pk for m in matches],
        tournament_ids=sorted({m.round.tournament_id for m in matches}),
    ):
        if isinstance(reply, PlayingLinks):
            tables.update(reply.tables)
            drafts.update(reply.drafts)
    return PlayingLinks(tables=tables, drafts=drafts)


@dataclass(frozen=True)
class PlayingNow:
    """A player's "your match" card: "Round 3 · table 4 · vs Bruno", the round's clock,
    the report button (``report``: the result is not confirmed) and the links to their
    open live table or draft."""

    tournament: Tournament
    match: Match
    title: str  # "Round 3", "Quarterfinals"
    table: int
    #: Who they play: "Bruno", a team's name, a pod's other players ("Ann, Bo and Cy");
    #: empty for a bye.
    against: str
    bye: bool
    pod: bool
    clock: RoundClock | None
    report: bool
    live_table_id: int | None
    draft_pod_id: int | None


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _card(
    user_id: int,
    tournament: Tournament,
    match: Match,
    pod_seats: list[MatchSeat],
    links: PlayingLinks,
) -> PlayingNow:
    pod = bool(pod_seats)
    if pod:
        against = _names(
            [s.registration.name for s in pod_seats if not s.registration.has_member(user_id)]
        )
    elif match.b is None:
        against = ""
    else:
        mine_is_a = match.a is not None and match.a.has_member(user_id)
        other = match.b if mine_is_a else match.a
        against = other.name if other is not None else ""
    return PlayingNow(
        tournament=tournament,
        match=match,
        title=round_title(match.round),
        table=match.table,
        against=against,
        bye=match.is_bye and not pod,
        pod=pod,
        clock=round_clock(match.round),
        report=match.status != MatchStatus.CONFIRMED and (pod or not match.is_bye),
        live_table_id=links.tables.get(match.pk),
        draft_pod_id=links.drafts.get(tournament.pk),
    )


def playing_now(
    user: AnyUser, tournaments: Iterable[Tournament], *, latest: dict[int, int] | None = None
) -> list[PlayingNow]:
    """The user's card in each of ``tournaments`` that is running and where they have a
    match to play now (the rule of :func:`current_match_of`: their unconfirmed match, else
    theirs in the latest round; ``latest``: tournament id -> its latest round number, when
    the caller read it; else one query more). At most four queries whatever the number of
    tournaments: the latest rounds (unless given), the user's seats with their matches and
    entrants, the seats of pods among them; and what the ``playing_links`` receivers read
    (gameplay: the open tables, the open draft pods)."""
    running = {t.pk: t for t in tournaments if policies.tournament_is_running(t)}
    if not user.is_authenticated or not running:
        return []
    if latest is None:
        latest = {}
        for tournament_id, number in Round.objects.filter(
            tournament_id__in=list(running)
        ).values_list("tournament_id", "number"):
            latest[tournament_id] = max(number, latest.get(tournament_id, 0))
    seats = (
        MatchSeat.objects.filter(
            member_of_entrant(user.pk, "registration__"), round__tournament_id__in=list(running)
        )
        .select_related(
            "match__round__stage",
            *(f"match__{name}" for name in MATCH_ENTRANTS),
        )
        .order_by("-round__number")
    )
    chosen: dict[int, Match] = {}
    last_seen: dict[int, Match] = {}
    for seat in seats:
        tournament_id = seat.match.round.tournament_id
        last_seen.setdefault(tournament_id, seat.match)
        if tournament_id not in chosen and seat.match.status != MatchStatus.CONFIRMED:
            chosen[tournament_id] = seat.match
    for tournament_id, match in last_seen.items():
        if tournament_id not in chosen and match.round.number == latest.get(tournament_id):
            chosen[tournament_id] = match
    if not chosen:
        return []
    pods: dict[int, list[MatchSeat]] = {}
    pod_matches = [m.pk for m in chosen.values() if m.round.stage.kind in POD_KINDS]
    if pod_matches:
        for seat in (
            MatchSeat.objects.filter(match_id__in=pod_matches, position__isnull=False)
            .select_related("registration__player", "registration__partner")
            .order_by("position")
        ):
            pods.setdefault(seat.match_id, []).append(seat)
    links = _links(user.pk, list(chosen.values()))
    return [
        _card(user.pk, running[tid], match, pods.get(match.pk, []), links)
        for tid, match in sorted(chosen.items(), key=lambda kv: running[kv[0]].scheduled_start)
    ]
