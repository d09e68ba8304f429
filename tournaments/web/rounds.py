"""Round pages: pairings by table and by name, printable match slips, the organiser's
round controls and the round timer."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_POST

from core.errors import InvalidInput
from core.web import parse_int, run_action, safe_next
from tournaments import formats, selectors
from tournaments.models import (
    EntrantType,
    Registration,
    Round,
    Tournament,
)
from tournaments.selectors import policies, timer
from tournaments.selectors.pairings import pairings_page
from tournaments.selectors.rounds import pair_again_of
from tournaments.services import lifecycle, round_clock, swiss
from tournaments.web.common import tournament_context, tournament_for
from tournaments.web.forms import (
    report_grid,
)
from tournaments.web.paging import paging_of
from tournaments.web.pieces import pairings_piece


def round_current(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    rnd = selectors.current_round(tournament)
    if rnd is None:
        context = tournament_context(request, tournament)
        _hold_controls(context, tournament)
        return render(request, "tournaments/round.html", context)
    # Keep the view asked for (``?by=name``: a projector's bookmark of the pairings by name).
    target = reverse("round-detail", args=[pk, rnd.number])
    query = request.GET.urlencode()
    return redirect(f"{target}?{query}" if query else target)


def _hold_controls(context: dict[str, Any], tournament: Tournament) -> None:
    """Pairing or starting a round waits for what it waits for (a draft before it): the
    page says why in place of the button (``policies.hold_round_controls``)."""
    actions, blocker = policies.hold_round_controls(
        tournament, context["actions"], current_round=context["current_round"]
    )
    context["actions"] = actions
    context["round_blocker"] = blocker
    if blocker is not None:
        context["round_controls"] = True


def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    # Printed (``?all=1``): the sheet the room reads, in the event's language.
    tournament = tournament_for(request, pk, room=request.GET.get("all") == "1")
    # Every round (the tabs list them, the latest is the current one), this one among them.
    rounds = selectors.tournament_rounds(tournament)
    rnd = next((r for r in rounds if r.number == number), None)
    if rnd is None:
        raise Http404("No such round.")
    plays_on = formats.format_of(rnd.stage).plays_on
    if plays_on is not None:  # a pod round's pods are on the pods page
        return redirect(f"{reverse(plays_on, args=[tournament.pk])}#round-{rnd.number}")
    by_name = request.GET.get("by") == "name"
    context = tournament_context(request, tournament, rounds=rounds)
    if context["current_round"] != rnd:
        # The controls act on the latest round: they are shown on its page only.
        context["round_controls"] = False
    else:
        _hold_controls(context, tournament)
        if "start_round" in context["actions"]:
            context["round_minutes"] = formats.round_minutes(rnd.stage)
        if "repair" in context["actions"]:
            context["pair_again"] = pair_again_of(rnd)
    shared = {
        "tournament": tournament,
        "round": rnd,
        "view": "name" if by_name else "table",
        "by_param": "name" if by_name else "",
        # What the pager counts, in the reader's words ("tables 1-100 of 1,024").
        "pager_what": pgettext("counted by the pager", "names")
        if by_name
        else pgettext("counted by the pager", "tables"),
        "teams": tournament.entrant_type == EntrantType.TEAM,
    }
    context.update(shared)
    context["rounds"] = rounds
    # A page of rows (``?page=``, ``?q=``; ``?all=1`` to print) and the viewer's own table.
    paging = paging_of(request)
    if context["round_controls"] and "swap" in context["actions"]:
        # The swap lists hold the page's rows: the organiser's page is rendered whole.
        pairings = pairings_page(rnd, paging, by_name=by_name, user_id=request.user.pk)
        context.update({"pairings": pairings, "my_entrant": pairings.my_entrant})
    else:
        # The page of rows is kept per version (no rows read); the viewer's own read alone.
        piece, mine, html = pairings_piece(request, rnd, paging, by_name=by_name, shared=shared)
        context.update(
            {
                "pairings": {"page": piece["page"], "mine": mine.mine},
                "piece_html": html,
                # The viewer's entrant (theirs or their team's), its rows highlighted.
                "my_entrant": mine.my_entrant,
            }
        )
    return render(request, "tournaments/round.html", context)


def round_slips(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Printable match slips: one per table, a box per game round (the event's language)."""
    tournament = tournament_for(request, pk, room=True)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    grid = report_grid(tournament)
    return render(
        request,
        "tournaments/slips.html",
        {
            "tournament": tournament,
            "round": rnd,
            "matches": [m for m in selectors.round_matches(rnd) if not m.is_bye],
            "games": grid["games"],
        },
    )


@login_required
@require_POST
def round_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """The organiser's buttons: start now, pair next, start/extend/repair/swap, finish."""
    tournament = tournament_for(request, pk)
    rnd = selectors.current_round(tournament)
    user = request.user
    post = request.POST

    def need_round() -> Round:
        if rnd is None:
            raise InvalidInput(gettext("No round has been paired yet."), code="no_round")
        return rnd

    def minutes(field: str) -> int | None:
        return parse_int(post.get(field), field=field)

    def registration(field: str) -> Registration:
        pk = parse_int(post.get(field), field=field)
        found = selectors.registrations_by_id(tournament, [pk] if pk is not None else [])
        if pk not in found:
            raise InvalidInput(gettext("Choose two players to swap."), code="unknown_registration")
        return found[pk]

    actions: dict[str, tuple[Any, str]] = {
        "start-tournament": (
            lambda: lifecycle.start_tournament_now(actor=user, tournament=tournament),
            gettext("The tournament has started."),
        ),
        "pair": (
            lambda: swiss.pair_next_round(actor=user, tournament=tournament),
            gettext("The next round is paired."),
        ),
        "start-round": (
            lambda: round_clock.start_round(
                actor=user, round=need_round(), minutes=minutes("minutes")
            ),
            gettext("The round has started: the clock is running."),
        ),
        "extend": (
            lambda: round_clock.extend_round(
                actor=user, round=need_round(), minutes=minutes("minutes") or 5
            ),
            gettext("The round has more time."),
        ),
        "repair": (
            lambda: _pair_again(request, need_round()),
            "",
        ),
        "swap": (
            lambda: swiss.swap_players(
                actor=user,
                round=need_round(),
                first=registration("first"),
                second=registration("second"),
            ),
            gettext("The two players were swapped."),
        ),
        "finish": (
            lambda: lifecycle.finish_tournament(actor=user, tournament=tournament),
            gettext("The tournament is finished."),
        ),
    }
    if action not in actions:
        raise Http404
    call, success = actions[action]
    run_action(request, call, success)
    return redirect(safe_next(request, reverse("round-current", args=[pk])))


def _pair_again(request: HttpRequest, rnd: Round) -> None:
    """ "Pair again", and say what it did: a new random draw (with its seed) or the
    engine's pairing recomputed, the same as before or not."""
    again = swiss.pair_round_again(actor=request.user, round=rnd)
    number = again.round.number
    if again.redrawn and not again.same:
        said = gettext(
            "Round %(round)d was paired again: a new random pairing "
            "(seed %(seed)s, kept in the audit log)."
        )
    elif again.redrawn:
        said = gettext(
            "Round %(round)d was paired again: no other pairing is possible, so it is the same."
        )
    elif again.same:
        said = gettext(
            "Round %(round)d was paired again: the engine gives the same pairing as before "
            "(nothing that decides it has changed)."
        )
    else:
        said = gettext("Round %(round)d was paired again: the engine's pairing has changed.")
    messages.success(request, said % {"round": number, "seed": again.seed})


def round_timer(request: HttpRequest, pk: int) -> HttpResponse:
    """The timer fragment, polled by htmx on every tournament page."""
    tournament = tournament_for(request, pk)
    return render(
        request,
        "tournaments/_round_timer.html",
        {
            "tournament": tournament,
            "clock": timer.round_clock(selectors.current_round(tournament)),
            "latest_event": selectors.tournament_events(tournament).first(),
        },
    )
