"""``{{ entry|audit_lines }}``: an audit entry's state before and after, in sentences.

"Score changed from 10-5, 5-10 to 10-5, 10-5" (en dashes), "Status changed from Waiting for a report
to Confirmed", "Not playing: Ann, Bob". A key this module has no words for reads as
"key: value" (its underscores as spaces); a value is never shown as Python or JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django import template
from django.db import models
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.functional import Promise as StrPromise
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext, pgettext_lazy

from tournaments.models import (
    EntrantType,
    FirstRoundPairing,
    Game,
    LateEntry,
    MatchStatus,
    OverduePolicy,
    RegistrationStatus,
    ReportSide,
    Role,
    RoundStatus,
    StageKind,
    StageStatus,
    TournamentStatus,
    Winner,
)
from tournaments.presenters.notes import describe_stats
from tournaments.selectors.names import clauses
from tournaments.selectors.standings_words import tiebreaker_label

register = template.Library()

DASH = "\N{EN DASH}"

#: The words for each key of the states the services record (said in the reader's
#: language when a line is made: :func:`_label`).
LABELS: Mapping[str, StrPromise] = {
    "result": pgettext_lazy("a field in the audit log", "score"),
    "reported": pgettext_lazy("a field in the audit log", "reported score"),
    "side": pgettext_lazy("a field in the audit log", "reported by"),
    "checked_in_at": pgettext_lazy("a field in the audit log", "checked in"),
    "ends_at": pgettext_lazy("a field in the audit log", "round ends"),
    "not_playing": pgettext_lazy("a field in the audit log", "not playing"),
    "number": pgettext_lazy("a field in the audit log", "round"),
    "stats": pgettext_lazy("a field in the audit log", "pairing"),
    "overdue": pgettext_lazy("a field in the audit log", "overdue tables"),
    "decided": pgettext_lazy("a field in the audit log", "decided by the overdue policy"),
    "display_name": pgettext_lazy("a field in the audit log", "display name"),
    "dropped_after_round": pgettext_lazy("a field in the audit log", "dropped after round"),
    "joined_round": pgettext_lazy("a field in the audit log", "joins in round"),
    "scheduled_start": pgettext_lazy("a field in the audit log", "scheduled start"),
    "registration_opens_at": pgettext_lazy("a field in the audit log", "registration opens"),
    "registration_closes_at": pgettext_lazy("a field in the audit log", "registration closes"),
    "check_in_opens_at": pgettext_lazy("a field in the audit log", "check-in opens"),
    "check_in_closes_at": pgettext_lazy("a field in the audit log", "check-in closes"),
    "best_of": pgettext_lazy("a field in the audit log", "best of"),
    "entrant_type": pgettext_lazy("a field in the audit log", "entrants"),
    "round_minutes": pgettext_lazy("a field in the audit log", "round length in minutes"),
    "auto_pair": pgettext_lazy("a field in the audit log", "automatic pairing"),
    "overdue_policy": pgettext_lazy("a field in the audit log", "at time"),
    "first_round": pgettext_lazy("a field in the audit log", "round 1 pairing"),
    "seed": pgettext_lazy("a field in the audit log", "pairing seed"),
    "late_entry": pgettext_lazy("a field in the audit log", "late entrants"),
    "rounds_to_win": pgettext_lazy("a field in the audit log", "game-round wins to win a game"),
    "kontsina_rounds": pgettext_lazy("a field in the audit log", "game rounds in a Kontsina game"),
    "seating_seed": pgettext_lazy("a field in the audit log", "seating seed"),
}

#: The choices a key's value is one of (its label is what the pages show).
CHOICES: Mapping[str, type[models.TextChoices]] = {
    "winner": Winner,
    "side": ReportSide,
    "role": Role,
    "game": Game,
    "entrant_type": EntrantType,
    "overdue_policy": OverduePolicy,
    "first_round": FirstRoundPairing,
    "late_entry": LateEntry,
    "kind": StageKind,
}

#: The status choices of each kind of object the log names.
STATUSES: Mapping[str, type[models.TextChoices]] = {
    "Match": MatchStatus,
    "Tournament": TournamentStatus,
    "Registration": RegistrationStatus,
    "Round": RoundStatus,
    "Stage": StageStatus,
}


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _score(games: Any) -> str | None:
    """A result (games, each ``{"rounds": [[a, b], ...]}``) as "10-5, 5-10" (en dashes)."""
    if not isinstance(games, list) or not all(
        isinstance(g, Mapping) and isinstance(g.get("rounds"), list) for g in games
    ):
        return None
    texts = []
    for game in games:
        rounds = ", ".join(
            DASH.join(str(s) for s in r) if isinstance(r, list) else _words(r)
            for r in game["rounds"]
        )
        alignments = [a for a in game.get("alignments") or [] if a]
        if alignments:
            shown = [str(a or DASH).capitalize() for a in game["alignments"]]
            if len(shown) == 2:
                versus = gettext("%(a)s v %(b)s") % {"a": shown[0], "b": shown[1]}
            else:
                versus = " v ".join(shown)
            rounds = gettext("%(score)s (%(alignments)s)") % {
                "score": rounds,
                "alignments": versus,
            }
        texts.append(rounds or gettext("no game rounds"))
    if len(texts) == 1:
        return texts[0]
    return clauses(
        gettext("game %(game)d: %(score)s") % {"game": n, "score": text}
        for n, text in enumerate(texts, start=1)
    )


def _when(value: str) -> str | None:
    try:
        moment = parse_datetime(value)
    except ValueError:
        return None
    if moment is None:
        return None
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return str(formats.date_format(moment, "j M Y, H:i"))


def _words(value: Any, key: str = "", object_type: str = "") -> str:
    """One value in words."""
    if _empty(value):
        return pgettext("a value in the audit log", "none")
    if isinstance(value, bool):
        return (
            pgettext("a value in the audit log", "yes")
            if value
            else pgettext("a value in the audit log", "no")
        )
    if key in ("result", "reported") and (score := _score(value)) is not None:
        return score
    if key == "stats" and isinstance(value, Mapping):
        return describe_stats(value)
    if key == "tiebreakers" and isinstance(value, list):
        return ", ".join(tiebreaker_label(str(t)) for t in value)
    choices = STATUSES.get(object_type) if key == "status" else CHOICES.get(key)
    if choices is not None and isinstance(value, str) and value in choices.values:
        return str(choices(value).label)
    if key == "status" and isinstance(value, str):
        return value.replace("_", " ").capitalize()
    if isinstance(value, str):
        return _when(value) or value
    if isinstance(value, datetime):
        return str(formats.date_format(timezone.localtime(value), "j M Y, H:i"))
    if isinstance(value, Mapping):
        return ", ".join(
            gettext("%(label)s: %(value)s") % {"label": _label(k), "value": _words(v, str(k))}
            for k, v in value.items()
        )
    if isinstance(value, Sequence):
        return ", ".join(_words(v) for v in value)
    return str(value)


def _label(key: Any) -> str:
    words = LABELS.get(str(key))
    return str(words) if words is not None else str(key).replace("_", " ")


def change_lines(
    before: Mapping[str, Any] | None, after: Mapping[str, Any] | None, *, object_type: str = ""
) -> list[str]:
    """What changed, one sentence a key, in the order the service recorded them."""
    before = before if isinstance(before, Mapping) else {}
    after = after if isinstance(after, Mapping) else {}
    lines = []
    for key in [*before, *(k for k in after if k not in before)]:
        label = capfirst(_label(key))
        old, new = before.get(key), after.get(key)
        if key in before and key in after and old == new:
            continue
        if key not in after:
            lines.append(
                gettext("%(label)s was %(value)s")
                % {"label": label, "value": _words(old, key, object_type)}
            )
        elif _empty(old):
            lines.append(
                gettext("%(label)s: %(value)s")
                % {"label": label, "value": _words(new, key, object_type)}
            )
        elif _empty(new):
            lines.append(
                gettext("%(label)s cleared (was %(value)s)")
                % {"label": label, "value": _words(old, key, object_type)}
            )
        else:
            lines.append(
                gettext("%(label)s changed from %(old)s to %(new)s")
                % {
                    "label": label,
                    "old": _words(old, key, object_type),
                    "new": _words(new, key, object_type),
                }
            )
    return lines


@register.filter
def audit_lines(entry: Any) -> list[str]:
    """``{% for line in entry|audit_lines %}``: an ``AuditEntry``'s change in sentences."""
    return change_lines(
        getattr(entry, "before", None),
        getattr(entry, "after", None),
        object_type=str(getattr(entry, "object_type", "")),
    )
