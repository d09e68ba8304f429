"""What every tournament page shares: finding the tournament the user may see, and the
header's context (roles, the current round, the user's match, and ``actions``: what the
user may do now, from ``selectors.policies``; templates ask ``{% if "pair" in actions %}``
instead of comparing statuses)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from tournaments import selectors
from tournaments.models import EntrantType, Tournament
from tournaments.selectors import policies
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors.brackets import stage_page
from tournaments.web.forms import AddPlayerForm


def tournament_for(request: HttpRequest, pk: int) -> Tournament:
    """The tournament if this user may see it (drafts: its organisers only), else a 404."""
    return get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)


def tournament_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The header of every tournament page: the tabs, the round timer, the user's match.

    ``started`` (pairings and standings exist), ``live`` (running: the timer shows) and
    ``final`` (finished) say what there is to show; ``actions`` what the user may do."""
    user = request.user
    current = selectors.current_round(tournament)
    actions = policies.tournament_actions(user, tournament, current_round=current)
    return {
        "tournament": tournament,
        "can_manage": policies.can_manage_club(user, tournament.club),
        "can_judge": policies.can_judge(user, tournament.club),
        "current_round": current,
        "clock": round_selectors.round_clock(current),
        "my_match": selectors.current_match_of(user, tournament, latest=current),
        "actions": actions,
        "round_controls": bool(actions & policies.ROUND_CONTROLS),
        "started": policies.tournament_has_started(tournament),
        "live": policies.tournament_is_running(tournament),
        "final": policies.tournament_is_finished(tournament),
    }


def detail_context(request: HttpRequest, pk: int) -> dict[str, Any]:
    """The tournament page (and its registration panel and players list): the header's
    context plus the registrations, the user's own and what they may do about it."""
    tournament = tournament_for(request, pk)
    registrations = list(selectors.tournament_registrations(tournament))
    mine = next(
        (r for r in registrations if r.is_active and r.has_member(request.user.pk)),
        next((r for r in registrations if r.has_member(request.user.pk)), None),
    )
    invitations = [r for r in registrations if r.is_active and r.is_invited(request.user.pk)]
    context = tournament_context(request, tournament)
    context.update(
        {
            "registrations": [r for r in registrations if r.is_active],
            "inactive_registrations": [r for r in registrations if not r.is_active],
            "my_registration": mine,
            "my_invitations": invitations,
            "team_event": tournament.entrant_type == EntrantType.TEAM,
            "actions": context["actions"]
            | policies.entrant_actions(request.user, tournament, mine),
            "add_player_form": AddPlayerForm(),
            "stages": [
                (stage, stage_page(stage)) for stage in selectors.tournament_stages(tournament)
            ],
        }
    )
    return context
