"""Where a match's result stands, in words for each viewer (``result_status``, the
message after a report), the players' reports as a judge compares them
(``reports_for_judge``), and what a correction of a confirmed result would touch
(``correction_impact``)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from core import words
from core.errors import RuleViolation
from rules import games as game_rules
from rules.outcome import GameOptions
from tournaments import formats
from tournaments.models import (
    Match,
    MatchStatus,
    ReportSide,
    ResultReport,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.selectors.brackets import later_matches
from tournaments.selectors.names import clauses, round_name
from tournaments.selectors.result_words import outcome_line, side_names
from tournaments.selectors.tournaments import game_options

if TYPE_CHECKING:
    pass


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


#: Each state's badge (in the reader's language when it is read) and tone.
_LABELS = {
    ResultState.BYE: (pgettext_lazy("result state", "bye (2-0)"), "ok"),
    ResultState.PENDING: (pgettext_lazy("result state", "waiting for a report"), ""),
    ResultState.IN_PROGRESS: (pgettext_lazy("result state", "in progress"), ""),
    ResultState.REPORTED: (
        pgettext_lazy("result state", "reported, waiting for the opponent"),
        "warn",
    ),
    ResultState.DISPUTED: (pgettext_lazy("result state", "disputed, waiting for a judge"), "bad"),
    ResultState.CONFIRMED: (pgettext_lazy("result state", "confirmed"), "ok"),
    ResultState.JUDGED: (pgettext_lazy("result state", "decided by a judge"), "ok"),
}


def result_status(match: Match, side: str | None) -> ResultStatus:
    """The result's state in words for the viewer playing ``side`` (None: anyone else).

    The only place that words a result's state: the match page shows it, and the message
    after a report is chosen from the same state (``report_message``)."""
    state = result_state(match)
    if state == ResultState.BYE:
        words = gettext("A bye counts as a 2-0 match win.")
    elif state == ResultState.PENDING and side is not None:
        words = gettext(
            "Report the result here once you have played: game round by game round as you "
            "go, or all at once at the end."
        )
    elif state == ResultState.PENDING:
        words = gettext("Nobody has reported this match yet.")
    elif state == ResultState.IN_PROGRESS:
        words = _progress_words(match, side)
    elif state == ResultState.REPORTED and side is not None:
        mine = any(r.current and r.complete and r.side == side for r in match.reports.all())
        words = (
            gettext("You reported this result: waiting for your opponent to confirm it.")
            if mine
            else gettext(
                "Your opponent reported a result: confirm it, or enter what you played and "
                "a judge will decide."
            )
        )
    elif state == ResultState.REPORTED:
        words = gettext("One player reported; the other can confirm it or enter what they played.")
    elif state == ResultState.DISPUTED:
        words = gettext("The two reports differ: a judge compares them and decides.")
    elif state == ResultState.CONFIRMED and match.confirmed_by_id is None:
        words = gettext("Decided at time by the overdue policy.")
    elif state == ResultState.CONFIRMED:
        words = gettext("Both players agree.")
    else:
        words = gettext("A judge entered this result.")
    label, tone = _LABELS[state]
    return ResultStatus(state=state, label=str(label), words=words, tone=tone)


def _progress_words(match: Match, side: str | None) -> str:
    """ "Ann saved 3 game rounds so far: report the final result when the match is over." """
    names: dict[str, str] = {
        ReportSide.A: match.a.name,
        ReportSide.B: match.b.name if match.b else "",
    }
    parts = []
    for report in _progress(match):
        count = _game_rounds(report)
        if side is not None and report.side == side:
            parts.append(
                ngettext(
                    "You saved %(count)d game round so far",
                    "You saved %(count)d game rounds so far",
                    count,
                )
                % {"count": count}
            )
            continue
        who = names[report.side] if report.side in names else gettext("A judge")
        parts.append(
            ngettext(
                "%(who)s saved %(count)d game round so far",
                "%(who)s saved %(count)d game rounds so far",
                count,
            )
            % {"who": who, "count": count}
        )
    said = {"saved": clauses(parts)}
    if side is not None:
        return gettext("%(saved)s: report the final result when the match is over.") % said
    return gettext("%(saved)s: the players report the final result when the match is over.") % said


def report_message(match: Match) -> tuple[str, str]:
    """(level, words) of the message after a player's final report, by where it left the
    match: ``success`` when it is on its way, ``warning`` when a judge must decide."""
    state = result_state(match)
    if state == ResultState.DISPUTED:
        return "warning", gettext(
            "Result reported, but it differs from your opponent's: a judge will decide."
        )
    if state in (ResultState.CONFIRMED, ResultState.JUDGED):
        return "success", gettext(
            "Result reported: it is the same as your opponent's, so it is confirmed."
        )
    return "success", gettext("Result reported: waiting for your opponent to confirm it.")


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
        return gettext("The rules refuse it: %(problem)s") % {"problem": problem.text}
    return outcome_line(match, outcome)


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
            return gettext("Changing this result changes who plays: %(matches)s.") % {
                "matches": clauses(self.moves)
            }
        if self.repair is not None:
            again = round_name(self.repair.name, in_sentence=True) or pgettext(
                "round, in a sentence", "round %(round)d"
            ) % {"round": self.repair.number}
            return gettext(
                "Changing this result pairs %(round)s again from the corrected standings "
                "(it has no results yet)."
            ) % {"round": again}
        return ""


def correction_impact(match: Match) -> CorrectionImpact:
    """What a judge's change of ``match``'s confirmed result would touch: for a Swiss
    match, the later rounds paired from its standings; for a bracket match, the later
    bracket matches built on it; for a pod, refused once the next round is seated (a few
    queries; nothing for a first result or a round robin, whose results build on nothing
    but the standings)."""
    if match.status != MatchStatus.CONFIRMED:
        return CorrectionImpact()
    if formats.format_of(match.round.stage).correction == formats.Correction.UNTIL_NEXT_ROUND:
        seated = Round.objects.filter(stage_id=match.round.stage_id, number__gt=match.round.number)
        if seated.exists():
            return CorrectionImpact(
                refused=gettext(
                    "A later round was seated from this result: it can no longer change."
                )
            )
        return CorrectionImpact()
    if match.slot:
        if formats.format_of(match.round.stage).correction != formats.Correction.LATER_MATCHES:
            return CorrectionImpact()  # a round robin's results build on nothing
        blocking, unplayed = later_matches(match)
        if blocking:
            return CorrectionImpact(
                refused=gettext(
                    "Later matches already have results that depend on this one "
                    "(%(matches)s): correct those first, the latest first."
                )
                % {"matches": clauses(blocking)}
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
            refused=gettext(
                "%(stage)s was seeded from the standings this result is part of: it can no "
                "longer change."
            )
            % {"stage": cut.stage.label}
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
            refused=gettext(
                "Round %(round)d was paired from these standings and already has results: "
                "this result can no longer change."
            )
            % {"round": played.round.number}
        )
    started = next((r for r in later if r.status != RoundStatus.PAIRED), None)
    if started is not None:
        return CorrectionImpact(
            refused=gettext(
                "Round %(round)d was paired from these standings and has started: this "
                "result can no longer change."
            )
            % {"round": started.number}
        )
    return CorrectionImpact(repair=later[0])
