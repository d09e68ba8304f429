"""The tiebreakers in words: their labels ("OMW%"), what each means (the standings page's
definitions, the API's ``definitions``) and what a row's value is made of (the page's
explanation under a value). The pure standings package returns codes and numbers
(``standings.Explanation``); this is the one place they become words, through gettext.

Among the selectors, not the presenters, for the reason ``selectors.names`` gives: a
selector (the standings export's header) needs the labels and never imports a presenter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as _

from rules.outcome import GAME_DRAW_POINTS, GAME_WIN_POINTS
from tournaments.pairing.standings import Explanation, Tiebreaker, TiebreakerValue
from tournaments.selectors.numbers import tiebreaker_value

__all__ = ["definitions", "explanation_words", "tiebreaker_label", "tiebreaker_labels"]

T = Tiebreaker

_LABELS: Mapping[Tiebreaker, str] = {
    T.OMW: _("OMW%"),
    T.GW: _("GW%"),
    T.OGW: _("OGW%"),
    T.BUCHHOLZ: _("Buchholz"),
    T.MEDIAN_BUCHHOLZ: _("Median Buchholz"),
    T.SONNEBORN_BERGER: _("Sonneborn-Berger"),
    T.GAME_ROUND_DIFF: _("Game-round differential"),
    T.SCORE_DIFF: _("Score differential"),
    T.HEAD_TO_HEAD: _("Head-to-head"),
}

#: What each tiebreaker means, after its label.
_MEANS: Mapping[Tiebreaker, str] = {
    T.OMW: _("average of your opponents' match-win percentages, each at least 33%"),
    T.GW: _(
        "your game points (%(win)d a game won, %(draw)d a game drawn) over %(win)d per game "
        "played, at least 33%%"
    ),
    T.OGW: _("average of your opponents' game-win percentages, each at least 33%"),
    T.BUCHHOLZ: _("sum of your opponents' match points"),
    T.MEDIAN_BUCHHOLZ: _("sum of your opponents' match points without the highest and the lowest"),
    T.SONNEBORN_BERGER: _("match points of the opponents you beat, plus half of those you drew"),
    T.GAME_ROUND_DIFF: _("game rounds won minus game rounds lost"),
    T.SCORE_DIFF: _("points scored minus points conceded"),
    T.HEAD_TO_HEAD: _(
        "match points against the entrants tied with you, when each of them has met every other"
    ),
}


def tiebreaker_label(tiebreaker: Tiebreaker | str) -> str:
    """ "OMW%", "Median Buchholz"; a key no tiebreaker has (a stored one renamed) as it is."""
    try:
        return gettext(_LABELS[Tiebreaker(tiebreaker)])
    except ValueError:
        return str(tiebreaker)


def tiebreaker_labels() -> dict[str, str]:
    """Every tiebreaker's key -> its label, in the engine's order (the settings form)."""
    return {t.value: tiebreaker_label(t) for t in Tiebreaker}


def _definition(tiebreaker: Tiebreaker) -> str:
    means = gettext(_MEANS[tiebreaker])
    if tiebreaker is T.GW:
        means %= {"win": GAME_WIN_POINTS, "draw": GAME_DRAW_POINTS}
    return gettext("%(label)s: %(means)s") % {
        "label": tiebreaker_label(tiebreaker),
        "means": means,
    }


def definitions(tiebreakers: Iterable[Tiebreaker]) -> dict[str, str]:
    """Each tiebreaker's key -> what it means ("OMW%: average of your opponents' ...")."""
    return {t.value: _definition(t) for t in tiebreakers}


def _your_opponents(count: int) -> str:
    """ "your 1 opponent's", "your 3 opponents'"."""
    return ngettext("your %(count)d opponent's", "your %(count)d opponents'", count) % {
        "count": count
    }


def _explained(e: Explanation, shown: str) -> str:
    """What the value ``shown`` ("OMW% 59.26%") is made of."""
    t, yours = e.tiebreaker, _your_opponents(e.opponents)
    p = {"shown": shown, "yours": yours}
    if t is T.OMW:
        return (
            gettext("%(shown)s: average of %(yours)s match-win percentages, each at least 33%%") % p
        )
    if t is T.OGW:
        return (
            gettext("%(shown)s: average of %(yours)s game-win percentages, each at least 33%%") % p
        )
    if t is T.GW:
        got, possible = e.game_points or (0, 0)
        return gettext("%(shown)s: %(got)d game points of %(possible)d possible, at least 33%%") % {
            **p,
            "got": got,
            "possible": possible,
        }
    if t is T.BUCHHOLZ:
        return gettext("%(shown)s: sum of %(yours)s match points") % p
    if t is T.MEDIAN_BUCHHOLZ:
        if e.opponents >= 3:
            return (
                gettext("%(shown)s: %(yours)s match points without the highest and the lowest") % p
            )
        return gettext("%(shown)s: %(yours)s match points (nothing dropped below 3 opponents)") % p
    if t is T.SONNEBORN_BERGER:
        return (
            gettext(
                "%(shown)s: match points of the opponents you beat, plus half of those you drew"
            )
            % p
        )
    if t is T.GAME_ROUND_DIFF:
        return gettext("%(shown)s: game rounds won minus game rounds lost") % p
    if t is T.SCORE_DIFF:
        return gettext("%(shown)s: points scored minus points conceded") % p
    return (
        gettext(
            "%(shown)s: match points against the entrants tied with you, who all met each other"
        )
        % p
    )


def explanation_words(e: Explanation) -> str:
    """A row's value explained: "OMW% 59.26%: average of your 3 opponents' match-win
    percentages, each at least 33%"; "Head-to-head: not applied (...)" when it was not."""
    if e.shown is None:
        if e.tiebreaker is T.HEAD_TO_HEAD:
            return gettext(
                "Head-to-head: not applied (not tied, or the tied entrants did not all meet)"
            )
        return _explained(e, gettext("n/a"))
    shown = e.shown if e.value is None else tiebreaker_value(TiebreakerValue(e.tiebreaker, e.value))
    label = gettext("%(label)s %(value)s") % {
        "label": tiebreaker_label(e.tiebreaker),
        "value": shown,
    }
    return _explained(e, label)
