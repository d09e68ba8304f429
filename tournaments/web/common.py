"""What every tournament page shares: finding the tournament the user may see, and the
header's context (roles, the current round, the user's match, and ``actions``: what the
user may do now, from ``selectors.policies``; templates ask ``{% if "pair" in actions %}``
instead of comparing statuses)."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.core.signals import request_finished, request_started
from django.http import Http404, HttpRequest
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import pgettext

from core.languages import fall_back_to, speak_for_the_room
from tournaments import selectors
from tournaments.models import Club, EntrantType, Round, Tournament
from tournaments.selectors import policies
from tournaments.selectors.brackets import stage_page
from tournaments.selectors.home import playing_now
from tournaments.selectors.page_versions import ReaderTournament
from tournaments.selectors.timer import round_clock
from tournaments.selectors.tournaments import visible_tournament
from tournaments.web.forms import AddPlayerForm
from tournaments.web.paging import paging_of

#: The request's attribute holding what ``caching.public`` read first for a signed-in
#: reader (``selectors.page_versions.ReaderTournament``).
_READER_TOURNAMENT = "_reader_tournament"


def remember_reader_tournament(request: HttpRequest, read: ReaderTournament) -> None:
    """Keep ``read`` for the page: its tournament, the reader's role and match are not
    asked again (:func:`tournament_for`, :func:`tournament_context`)."""
    setattr(request, _READER_TOURNAMENT, read)
    policies.remember_role(request.user, read.tournament.club_id, read.role)


def _reader_tournament(request: HttpRequest, pk: int) -> ReaderTournament | None:
    read: ReaderTournament | None = getattr(request, _READER_TOURNAMENT, None)
    if read is None or read.tournament.pk != pk or read.user_id != request.user.pk:
        return None
    return read


def tournament_for(
    request: HttpRequest, pk: int, *, counted: bool = False, room: bool = False
) -> Tournament:
    """The tournament if this user may see it (drafts: its organisers only), else a 404.

    Its club's time zone is made the current one for the rest of the request, so every
    time the page shows (starts, deadlines, the audit log) is in the club's time, as
    players in the room read it. Done here rather than in a middleware: every tournament
    page finds its tournament through this function, with its club in the same query, so
    the zone costs no query and no second lookup of the URL's tournament; a middleware
    would have to resolve the URL and read the club again. The zone is reset when each
    request starts and ends (:func:`_reset_time_zone`), so it never leaks into the next
    request a thread serves. ``counted``: with the counts of entrants
    (``selectors.visible_tournament``), for a page that shows them. ``room``: a sheet the
    whole room reads (the projector, printed pairings, standings and slips, the final
    results), in the event's language whatever the reader's
    (``core.languages.speak_for_the_room``)."""
    read = None if counted else _reader_tournament(request, pk)
    tournament = read.tournament if read else visible_tournament(request.user, pk, counted=counted)
    if tournament is None:
        raise Http404("No tournament here.")
    activate_club_time_zone(tournament.club)
    # And the club's language, for a reader whose own choices name none of the site's.
    fall_back_to(request, tournament.club.language)
    if room:
        speak_for_the_room(request, tournament.event_language)
    return tournament


def activate_club_time_zone(club: Club) -> None:
    """Show times in the club's zone for the rest of the request (an unknown name, which
    the model refuses but an old row might hold: the site's zone)."""
    try:
        timezone.activate(zoneinfo.ZoneInfo(club.time_zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()


def _reset_time_zone(**kwargs: Any) -> None:
    timezone.deactivate()


request_started.connect(_reset_time_zone, dispatch_uid="tournaments.web.reset_time_zone.start")
request_finished.connect(_reset_time_zone, dispatch_uid="tournaments.web.reset_time_zone.end")


def tournament_context(
    request: HttpRequest, tournament: Tournament, *, rounds: list[Round] | None = None
) -> dict[str, Any]:
    """The header of every tournament page: the tabs, the round timer, the user's match.

    ``started`` (pairings and standings exist), ``live`` (running: the timer shows) and
    ``final`` (finished) say what there is to show; ``actions`` what the user may do.
    ``rounds``: the tournament's rounds in order, when the page read them (the latest is
    the current one: no query for it)."""
    user = request.user
    if rounds is None:
        current = selectors.current_round(tournament)
    else:
        current = rounds[-1] if rounds else None
    actions = policies.tournament_actions(user, tournament, current_round=current)
    return {
        "tournament": tournament,
        "can_manage": policies.can_manage_club(user, tournament.club),
        "can_judge": policies.can_judge(user, tournament.club),
        "current_round": current,
        "clock": round_clock(current),
        # Where the tabs' "My match" leads: its id alone, in one query (or read with the
        # tournament: ``caching.public``).
        "my_match_id": read.my_match_id
        if (read := _reader_tournament(request, tournament.pk))
        else selectors.current_match_id_of(user, tournament),
        "actions": actions,
        "round_controls": bool(actions & policies.ROUND_CONTROLS),
        "started": policies.tournament_has_started(tournament),
        "live": policies.tournament_is_running(tournament),
        "final": policies.tournament_is_finished(tournament),
        # Times on the page are in this zone (``tournament_for``); pages say which.
        "time_zone": tournament.club.time_zone,
    }


def detail_context(request: HttpRequest, pk: int) -> dict[str, Any]:
    """The tournament page (and its registration panel and players list): the header's
    context plus a page of the registrations (``?page=``, ``?all=1``; ``?q=``: a search),
    the user's own and what they may do about it. Never every registration: a page of
    them, counts and the reader's own (``selectors.registrations_panel``), but for the
    organisers' fixed tables, whose list offers every entrant."""
    tournament = tournament_for(request, pk, counted=True)  # the panel's count
    paging = paging_of(request)
    panel = selectors.registrations_panel(tournament, request.user, paging)
    mine = panel.mine
    context = tournament_context(request, tournament)
    my_match = context["my_match_id"]
    current = context["current_round"]
    team_event = tournament.entrant_type == EntrantType.TEAM
    context.update(
        {
            # The player's "your match" card (no query unless they have a match now): the
            # match the tabs' "My match" leads to, read by its id.
            "playing": (
                playing_now(request.user, [tournament], current={tournament.pk: my_match})
                if my_match is not None and current is not None
                else []
            ),
            "registered_count": panel.registered,
            "search": paging.query,
            # The list shows a page of them (``?page=``; ``?all=1``): 2,048 rows are not read.
            "players_page": panel.page,
            "full": policies.tournament_is_full(tournament, panel.registered),
            "inactive_registrations": panel.not_playing,
            "inactive_more": panel.not_playing_more,
            "my_registration": mine,
            "my_invitations": panel.invitations,
            "team_event": team_event,
            "players_what": pgettext("counted by the pager", "teams")
            if team_event
            else pgettext("counted by the pager", "players"),
            "actions": context["actions"]
            | policies.entrant_actions(request.user, tournament, mine),
            "add_player_form": AddPlayerForm(),
            "stages": [
                (stage, stage_page(stage)) for stage in selectors.tournament_stages(tournament)
            ],
        }
    )
    if context["can_manage"] and not context["final"] and panel.registered:
        # The fixed tables' list offers every entrant playing: the organisers' page only,
        # read when the template shows it (not for the players list's fragment).
        context["fixed_table_choices"] = SimpleLazyObject(
            lambda: [
                r
                for r in selectors.tournament_registrations(tournament, accounts=False)
                if r.is_active
            ]
        )
    if context["final"]:
        # Where everyone finished (stored at the finish): the first 8 and whether there
        # are more, in one query.
        placed = selectors.final_placements(tournament, 8)
        firsts = [r for r in placed if r.final_place == 1]
        context["placements"] = placed[:8]
        context["placements_more"] = len(placed) > 8
        context["champion"] = firsts[0] if len(firsts) == 1 else None
    return context
