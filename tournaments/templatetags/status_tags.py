"""``{{ obj|tone }}``: the colour of a status badge (``ok``, ``warn``, ``bad`` or none).

Templates show a status with its label (``get_status_display``) and this tone; what a page
offers in a given state is decided in ``selectors.policies`` (``actions``), never by
comparing status strings in a template.
"""

from __future__ import annotations

from django import template

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
