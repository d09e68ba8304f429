"""``{{ obj|tone }}``: the colour of a status badge (``ok``, ``warn``, ``bad`` or none).

Templates show a status with its label (``get_status_display``) and this tone; what a page
offers in a given state is decided in ``selectors.policies`` (``actions``), never by
comparing status strings in a template.
"""

from __future__ import annotations

from urllib.parse import quote

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import Match, MatchStatus, Tournament, TournamentStatus
from tournaments.selectors.result_words import score_line

register = template.Library()

TOURNAMENT_TONES: dict[str, str] = {
    TournamentStatus.REGISTRATION: "ok",
    TournamentStatus.RUNNING: "warn",
}
MATCH_TONES: dict[str, str] = {MatchStatus.DISPUTED: "bad", MatchStatus.REPORTED: "warn"}


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
        return mark_safe('<span class="badge ok">bye (2-0)</span>')
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
        match.get_status_display().lower(),
    )
    if match.overdue:
        return format_html('{} <span class="badge bad">overdue</span>', badge)
    return badge
