"""``{{ obj|tone }}``: the colour of a status badge (``ok``, ``warn``, ``bad`` or none).

Templates show a status with its label (``get_status_display``) and this tone; what a page
offers in a given state is decided in ``selectors.policies`` (``actions``), never by
comparing status strings in a template.
"""

from __future__ import annotations

from django import template

from tournaments.models import Match, MatchStatus, Tournament, TournamentStatus, Winner

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
    """A confirmed match's result as the pairings show it: "Ann wins 2-0", "draw 1-1-1"
    (games in table order: the first entrant's first; a team by its name)."""
    games = f"{match.games_a}-{match.games_b}"
    if match.games_drawn:
        games += f"-{match.games_drawn}"
    if match.winner == Winner.DRAW:
        return f"draw {games}"
    winner = match.a if match.winner == Winner.A else match.b
    return f"{winner.name if winner else ''} wins {games}"
