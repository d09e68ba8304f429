"""The live table pages: opening a match's table, the table itself (each player's phone, a
shared tablet, a judge's screen), and the judges' list of a round's tables with the
tournament's table settings. The table page renders its first snapshot and then follows
the table's websocket (``static/js/table.js``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from core.errors import DomainError
from core.web import parse_int, run_action
from gameplay.models import TableMode, TableSettings
from gameplay.selectors import table_lists
from gameplay.selectors import tables as selectors
from gameplay.services import tables as services
from rules import games as game_rules
from rules.cards import DeckType, one_deck
from tournaments import selectors as tournament_selectors
from tournaments.selectors import judge_calls as call_selectors
from tournaments.selectors import policies

_SUITS = (("C", "\u2663"), ("D", "\u2666"), ("H", "\u2665"), ("S", "\u2660"))


def _deck_ranks(game: str) -> list[str]:
    """The ranks the game's deck holds, in order, for the score helper's card picker."""
    deck = one_deck(DeckType(game_rules.rules_for(game).deck_type))
    ranks: list[str] = []
    for card in deck:
        rank = "JK" if card.is_joker else str(card)[:-1]
        if rank not in ranks:
            ranks.append(rank)
    return ranks


def open_table(request: HttpRequest, match_pk: int) -> HttpResponse:
    """The match page's buttons: open the live table (or join it) in the chosen mode."""
    tournament_pk = selectors.tournament_of_match(match_pk)
    if tournament_pk is None or not tournament_selectors.match_visible_to(request.user, match_pk):
        raise Http404
    back = reverse("match", args=[tournament_pk, match_pk])
    if request.method != "POST" or not request.user.is_authenticated:
        return redirect(back)
    mode = request.POST.get("mode", TableMode.PHONES)
    table = run_action(
        request, lambda: services.open_table(actor=request.user, match=match_pk, mode=mode)
    )
    if table is None:
        return redirect(back)
    return redirect("live-table", pk=table.pk)


def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_viewer(pk, request.user)
    if table is None:
        raise Http404
    who = selectors.viewer(table, request.user)
    full = selectors.full_snapshot(table.pk)
    assert full is not None
    tournament = table.match.round.tournament
    return render(
        request,
        "gameplay/table.html",
        {
            "table": table,
            "match": table.match,
            "tournament": tournament,
            "snapshot": selectors.view_for(full, who),
            "viewer": who,
            "ranks": _deck_ranks(tournament.game) if table.score_helper else [],
            "suits": _SUITS,
            **_judge_call(request, table, tournament),
        },
    )


def _judge_call(request: HttpRequest, table: Any, tournament: Any) -> dict[str, Any]:
    """ "Call a judge" at the table: the match's open call, who may call or answer."""
    match = table.match
    call = call_selectors.open_call_of(match)
    return {
        "judge_call": (
            call_selectors.words_for(call, viewer_id=request.user.pk) if call is not None else None
        ),
        "may_call": call_selectors.plays_in(request.user, match),
        "may_answer": policies.can_judge(request.user, tournament.club),
        "call_next": request.path,
    }


def round_tables(request: HttpRequest, tournament_pk: int) -> HttpResponse:
    """The judges' page: every live table of the current round, and (organisers) the
    tournament's table settings."""
    tournament = get_object_or_404(
        tournament_selectors.visible_tournaments(request.user), pk=tournament_pk
    )
    if not policies.can_judge(request.user, tournament.club):
        raise Http404
    manager = policies.can_manage_club(request.user, tournament.club)
    if request.method == "POST" and manager:
        try:
            changes: dict[str, Any] = {
                "turn_limit_on": request.POST.get("turn_limit_on") == "on",
                "score_helper": request.POST.get("score_helper") == "on",
            }
            for name in ("turn_limit", "turn_seconds", "undo_seconds"):
                value = parse_int(request.POST.get(name), field=name)
                if value is not None:
                    changes[name] = value
        except DomainError as error:
            messages.error(request, error.detail)
        else:
            if run_action(
                request,
                lambda: services.update_settings(
                    actor=request.user, tournament=tournament, **changes
                ),
                gettext("Table settings saved: tables opened from now on use them."),
            ):
                return redirect(reverse("round-tables", args=[tournament.pk]))
    current = tournament_selectors.current_round(tournament)
    rows = table_lists.tables_of_round(current) if current is not None else []
    settings: TableSettings = selectors.settings_of(tournament)
    template = "gameplay/_tables_list.html" if request.headers.get("HX-Request") else None
    context = {
        "tournament": tournament,
        "round": current,
        "rows": rows,
        "settings": settings,
        "manager": manager,
    }
    return render(request, template or "gameplay/tables.html", context)
