"""``{{ obj|tone }}``: the colour of a status badge (``ok``, ``warn``, ``bad`` or none).

Templates show a status with its label (``get_status_display``) and this tone; what a page
offers in a given state is decided in ``selectors.policies`` (``actions``), never by
comparing status strings in a template.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext, pgettext_lazy

from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    Stage,
    StageStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors.result_words import score_line

register = template.Library()

TOURNAMENT_TONES: dict[str, str] = {
    TournamentStatus.REGISTRATION: "ok",
    TournamentStatus.RUNNING: "warn",
}
MATCH_TONES: dict[str, str] = {MatchStatus.DISPUTED: "bad", MatchStatus.REPORTED: "warn"}


#: Statuses in lower case, as a badge or a parenthesis in a sentence shows them ("(not
#: started)", "waiting for a report"): words of their own, not the labels lowercased
#: (German keeps its nouns' capitals, Greek its accents).
STATUS_WORDS: dict[type, dict[str, Any]] = {
    Match: {
        MatchStatus.PENDING: pgettext_lazy("result state", "waiting for a report"),
        MatchStatus.REPORTED: pgettext_lazy("result state", "reported, waiting for the opponent"),
        MatchStatus.DISPUTED: pgettext_lazy("result state", "disputed"),
        MatchStatus.CONFIRMED: pgettext_lazy("result state", "confirmed"),
    },
    Round: {
        RoundStatus.PAIRED: pgettext_lazy("round status, in lower case", "paired"),
        RoundStatus.IN_PROGRESS: pgettext_lazy("round status, in lower case", "in progress"),
        RoundStatus.COMPLETE: pgettext_lazy("round status, in lower case", "complete"),
    },
    Stage: {
        StageStatus.PENDING: pgettext_lazy("stage status, in lower case", "not started"),
        StageStatus.RUNNING: pgettext_lazy("stage status, in lower case", "running"),
        StageStatus.COMPLETE: pgettext_lazy("stage status, in lower case", "complete"),
    },
    Registration: {
        RegistrationStatus.REGISTERED: pgettext_lazy(
            "registration status, in lower case", "registered"
        ),
        RegistrationStatus.WITHDRAWN: pgettext_lazy(
            "registration status, in lower case", "withdrawn"
        ),
        RegistrationStatus.NOT_PLAYING: pgettext_lazy(
            "registration status, in lower case", "not playing (did not check in)"
        ),
        RegistrationStatus.DROPPED: pgettext_lazy("registration status, in lower case", "dropped"),
    },
}


@register.filter
def status_word(obj: Any) -> str:
    """``{{ match|status_word }}``: a match's, round's, stage's or registration's status
    in lower case (:data:`STATUS_WORDS`), in the reader's language."""
    words = STATUS_WORDS.get(type(obj), {}).get(getattr(obj, "status", ""))
    if words is not None:
        return str(words)
    display = getattr(obj, "get_status_display", None)
    return str(display()) if display is not None else ""


@register.filter
def tone(obj: object) -> str:
    if isinstance(obj, Tournament):
        return TOURNAMENT_TONES.get(obj.status, "")
    if isinstance(obj, Match):
        return MATCH_TONES.get(obj.status, "")
    return ""


@register.filter
def result(match: Match) -> str:
    """A confirmed match's result as the pairings show it, from the winner's side: "Ann
    wins 2-0" (whichever seat Ann has), "Draw 1-1 with 1 drawn game"."""
    return score_line(match)


@register.simple_tag(takes_context=True)
def match_state(context: template.Context, match: Match) -> SafeString:
    """``{% match_state m %}``: a match's state in a table row, as ``_match_state.html``
    shows it (a test holds the two to the same markup):
    a bye, the confirmed result, or the status badge (and "overdue"), linked to the
    match page (``grid_next``: where that page goes back to). A tag, not an include:
    a table of a hundred rows renders it a hundred times."""
    if match.is_bye:
        return format_html(
            '<span class="badge ok">{} (2-0)</span>',
            pgettext("a match without an opponent", "bye"),
        )
    href = reverse("match", args=[context["tournament"].pk, match.pk])
    grid_next = context.get("grid_next")
    if grid_next:
        href += "?next=" + quote(str(grid_next), safe="/")  # as the ``urlencode`` filter
    if match.winner:
        return format_html('<a href="{}">{}</a>', href, score_line(match))
    badge = format_html(
        '<a href="{}"><span class="badge {}">{}</span></a>',
        href,
        MATCH_TONES.get(match.status, ""),
        status_word(match),
    )
    if match.overdue:
        return format_html(
            '{} <span class="badge bad">{}</span>',
            badge,
            pgettext("a match past its time", "overdue"),
        )
    return badge
