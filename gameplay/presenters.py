"""The words of the gameplay app's audit entries and feed events (``core.presenters``
collects ``AUDIT`` and ``EVENT``): live tables and drafts, made at display from a code and
its parameters (seats by their players' names, cards by their codes, numbers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as _

from core.presenters import Present, said
from gameplay.models import TurnKind
from gameplay.selectors.table_words import card_label

P = Mapping[str, Any]


def _table(words: Present) -> Present:
    """A live table's entry: "round 2, table 3: " and the words of what happened."""

    def present(p: P) -> str:
        return gettext("round %(round)d, table %(table)d: %(what)s") % {**p, "what": words(p)}

    return present


def _tap(p: P) -> str:
    """One tap in words: "Ana passed", "Bruno played 7♥ (extra turn)"."""
    if p["tap"] == TurnKind.PASS:
        return gettext("%(seat)s passed") % p
    if p["card"]:
        text = gettext("%(seat)s played %(card)s") % {**p, "card": card_label(p["card"])}
    else:
        text = gettext("%(seat)s played a card") % p
    return text + (gettext(" (extra turn)") if p["tap"] == TurnKind.EXTRA else "")


def _scores(p: P) -> str:
    if "seats" in p:  # a pod's table: each seat's score
        scores = ", ".join(f"{name} {value}" for name, value in p["seats"])
        text = gettext("game round %(game_round)d: %(scores)s") % {**p, "scores": scores}
        if p["decided"]:
            return text + gettext(" (the pod is decided)")
        return text + (gettext(" (a new deal follows)") if p.get("redeal") else "")
    a, b = p["scores"]
    text = gettext("game round %(game_round)d: %(a)s-%(b)s") % {**p, "a": a, "b": b}
    return text + (gettext(" (the match is decided)") if p["decided"] else "")


AUDIT: dict[str, Present] = {
    "table.opened": _table(lambda p: gettext("live table opened")),
    "table.judge_turn": _table(lambda p: gettext("a judge recorded %(tap)s") % {"tap": _tap(p)}),
    "table.undo": _table(lambda p: gettext("undone: %(tap)s") % {"tap": _tap(p)}),
    "table.scores": _table(_scores),
    "table.settings": said(_("live table settings changed")),
    "draft.pod_created": lambda p: (
        gettext("%(tournament)s: draft pod %(pod)d seated (%(players)s)")
        % {
            **p,
            "players": ngettext("%(count)d player", "%(count)d players", p["players"])
            % {"count": p["players"]},
        }
    ),
    "draft.started": said(_("%(tournament)s: pod %(pod)d draft started")),
    "draft.paused": said(_("%(tournament)s: pod %(pod)d paused")),
    "draft.resumed": said(_("%(tournament)s: pod %(pod)d resumed")),
    "draft.ended": said(_("%(tournament)s: pod %(pod)d ended by the organiser")),
    "draft.seat_auto": said(_("%(tournament)s: pod %(pod)d seat %(seat)d (%(name)s) on auto-pick")),
    "draft.seat_returned": said(
        _("%(tournament)s: pod %(pod)d seat %(seat)d (%(name)s) back to the player")
    ),
}

EVENT: dict[str, Present] = {
    "draft.started": said(_("%(tournament)s: draft pod %(pod)d has started")),
}
