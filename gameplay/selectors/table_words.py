"""The live table in words: a card as players write it, a tap ("Bruno played 7♥"), each
seat's box ("On turn", "3 turns left"), the team limit line, the result once the match is
over (``outcome_words``: "Greta wins 2-1", as the match page says it) and the headline.

The words are made in the active language: the snapshot's (``tables.snapshot_of``) are the
language of whoever's action built it; a live page in another language reads its own
(``gameplay.realtime.consumers.TableConsumer``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from core.errors import RuleViolation
from core.words import why_words
from gameplay.models import LiveTable, TableStatus, TurnEvent, TurnKind
from gameplay.table_engine import is_pod, is_pod_table, seat_names, side_names
from rules import games as game_rules
from rules import turn_limit
from rules.cards import Card
from tournaments.models import (
    Match,
    MatchStatus,
    ResultReport,
)
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors.result_words import pod_result_words, score_line
from tournaments.selectors.results import report_outcome

#: A limited player with this many turns left or fewer is "near the limit".
NEAR_LIMIT = 2


def card_label(code: str) -> str:
    """A card as players write it: 7♥, Q♠, Joker."""
    if not code:
        return ""
    card = Card.parse(code)
    if card.rank is None or card.suit is None:
        return "Joker"
    rank = str(card)[:-1]
    return rank + {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[card.suit.value]


def describe_event(table: LiveTable, event: TurnEvent) -> str:
    """One tap in words: "Ana passed", "Bruno played 7♥ (extra turn)"."""
    who = seat_names(table)[event.player]
    if event.kind == TurnKind.PASS:
        return gettext("%(name)s passed") % {"name": who}
    extra = event.kind == TurnKind.EXTRA
    if event.card:
        played = (
            gettext("%(name)s played %(card)s (extra turn)")
            if extra
            else gettext("%(name)s played %(card)s")
        )
        return played % {"name": who, "card": card_label(event.card)}
    played = (
        gettext("%(name)s played a card (extra turn)")
        if extra
        else gettext("%(name)s played a card")
    )
    return played % {"name": who}


def limit_line(
    table: LiveTable, state: turn_limit.TableState | None, names: list[str]
) -> str | None:
    """At a table of four, once a whole team has passed: the other team's turns left, each
    player's share ("Ada: 3 turns left, Bruno: 5"); else None."""
    if table.players != 4 or state is None or table.turn_limit is None or is_pod_table(table):
        return None
    for team, side in (((0, 2), 0), ((1, 3), 1)):
        limited = [p for p in team if p not in state.passed and state.turns_left.get(p) is not None]
        if not limited:
            continue
        shares = []
        for index, p in enumerate(limited):
            left = state.turns_left[p] or 0  # never None: ``limited`` has a count
            values = {"name": names[p], "count": left}
            if index == 0:
                share = ngettext(
                    "%(name)s: %(count)d turn left", "%(name)s: %(count)d turns left", left
                )
            else:  # the first share says what the numbers are
                share = pgettext("a player's turns left", "%(name)s: %(count)d")
            shares.append(share % values)
        return gettext("Turn limit for %(side)s: %(shares)s") % {
            "side": side_names(table)[side],
            "shares": ", ".join(shares),
        }
    return None


#: A seat's turns left while the infinity rule's granted extra turn is played (none are
#: left after it: the headline says so).
INFINITY_TURN = gettext_lazy("Extra turn (infinity rule)")


def seat_words(
    table: LiveTable, state: turn_limit.TableState | None, closed: bool
) -> list[dict[str, Any]]:
    """Each seat's box in words: its turn (``state``: "On turn", "Waiting", "Passed"), its
    turns left (``left``: "3 turns left", "No limit yet", the infinity rule's
    ``INFINITY_TURN``), whether it is on turn and near the limit. Once the table is closed
    (the match over) no seat has a turn or a limit: every word is empty."""
    blank = {"state": "", "left": "", "on_turn": False, "near": False}
    if closed or state is None:
        return [dict(blank) for _ in range(table.players)]
    out = []
    for seat in range(table.players):
        passed = seat in state.passed
        on_turn = state.to_play == seat
        if passed:
            words = (
                pgettext("a seat at a live table", "Passed · may still play or pass again")
                if on_turn and not table.pass_is_final
                else pgettext("a seat at a live table", "Passed")
            )
        elif on_turn:
            words = pgettext("a seat at a live table", "On turn")
        else:
            words = pgettext("a seat at a live table", "Waiting")
        left = state.turns_left.get(seat)
        if left is not None and not passed:
            if on_turn and state.infinity:
                left_words = str(INFINITY_TURN)
            else:
                left_words = ngettext("%(count)d turn left", "%(count)d turns left", left) % {
                    "count": left
                }
            near = left <= NEAR_LIMIT
        elif table.turn_limit is None or passed:
            left_words, near = "", False
        else:
            left_words, near = gettext("No limit yet"), False
        out.append({"state": words, "left": left_words, "on_turn": on_turn, "near": near})
    return out


def confirmed_words(table: LiveTable, match: Match) -> str | None:
    """A confirmed result in words, from the winner's side ("Greta wins 2-1", "Draw 1-1",
    a team by its name; a pod "Greta wins the pod"), as the match page says it; no query
    (a pod's seats read once, ``pod_seats``). None before it is confirmed."""
    if match.status != MatchStatus.CONFIRMED:
        return None
    if not is_pod(match):
        return score_line(match)
    position = match.winner_position
    return pod_result_words(seat_names(table)[position]) if position is not None else None


def _reported_words(
    table: LiveTable, match: Match, reports: dict[str, ResultReport] | None
) -> str | None:
    """The result waiting for a confirmation, in words from the winner's side: what the
    report to confirm gives (the match page's ``report_outcome``; a pod's winner). One
    query (the game options, a pod's settings); None when nothing waits."""
    if match.status != MatchStatus.REPORTED or not reports:
        return None
    report = next((r for side, r in sorted(reports.items()) if r.complete), None)
    if report is None:
        return None
    if not is_pod(match):
        return report_outcome(match, report)
    settings = pod_selectors.settings_of(match.round.stage)
    try:
        outcome = game_rules.pod_outcome(
            match.round.tournament.game,
            report.games[0]["rounds"],
            players=table.players,
            rounds_to_win=settings.rounds_to_win,
        )
    except (RuleViolation, KeyError, IndexError, TypeError):
        return None  # a stored report the rules refuse now: no words rather than a crash
    if outcome.winner is None:
        return None
    return pod_result_words(seat_names(table)[outcome.winner])


def outcome_words(
    table: LiveTable, match: Match, reports: dict[str, ResultReport] | None
) -> str | None:
    """The match's result in words once the match is over (confirmed, or reported and
    waiting for a confirmation), else None: what every confirmation at the table and its
    headline say first."""
    return confirmed_words(table, match) or _reported_words(table, match, reports)


def headline(
    table: LiveTable,
    state: turn_limit.TableState | None,
    names: list[str],
    outcome: str | None = None,
    waiting_for: str | None = None,
    *,
    pod_waits: bool = False,
) -> str:
    """The table's line at the top: whose turn, the game round over, or the match's result
    (``waiting_for``: the side whose confirmation it waits for; ``pod_waits``: a pod's,
    which any other player of the pod gives)."""
    if table.status == TableStatus.DONE or table.match.status == MatchStatus.CONFIRMED:
        return _end_line(table.match, outcome, waiting_for, pod_waits=pod_waits)
    if state is None or state.to_play is None:
        why = state.why if state is not None else None
        if why:
            return gettext("Game round over (%(why)s): enter the scores.") % {"why": why_words(why)}
        return gettext("Game round over.")
    who = names[state.to_play]
    left = state.turns_left.get(state.to_play)
    if state.infinity:
        return gettext("%(name)s's turn: the extra turn just granted (no turns left after it)") % {
            "name": who
        }
    if left is not None:
        return ngettext(
            "%(name)s's turn · %(count)d turn left", "%(name)s's turn · %(count)d turns left", left
        ) % {"name": who, "count": left}
    return gettext("%(name)s's turn") % {"name": who}


def _end_line(
    match: Match, outcome: str | None, waiting_for: str | None, *, pod_waits: bool = False
) -> str:
    """The headline once the match is over: its result first, from the winner's side."""
    if outcome is None:
        if match.status == MatchStatus.DISPUTED:
            return gettext("The match is over: the reports differ, and a judge decides.")
        return gettext("The match is over.")
    if match.status == MatchStatus.CONFIRMED:
        return gettext("%(outcome)s: the result is confirmed.") % {"outcome": outcome}
    if waiting_for:
        return gettext("%(outcome)s: waiting for %(name)s to confirm.") % {
            "outcome": outcome,
            "name": waiting_for,
        }
    if pod_waits:
        return gettext("%(outcome)s: waiting for another player of the pod to confirm.") % {
            "outcome": outcome
        }
    return gettext("%(outcome)s: waiting for a confirmation.") % {"outcome": outcome}
