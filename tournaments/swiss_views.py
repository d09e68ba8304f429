"""Pages of a running Swiss tournament: pairings, match slips, standings, "my match",
the judges' results grid, round history, and the organiser's round controls.

Thin views: parse the form, call one service or selector, render. A domain error from a
service becomes a message (buttons) or a form error (the report form), never a 500.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from gameplay.rules.errors import RuleViolation
from tournaments import selectors
from tournaments.errors import DomainError, InvalidInput
from tournaments.models import (
    MatchStatus,
    Registration,
    ReportSide,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.pairing.standings import LABELS, Tiebreaker
from tournaments.services import results, rounds
from tournaments.swiss_forms import SwissSettingsForm, games_from_post, report_grid


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)


def _base_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "can_manage": selectors.can_manage_club(request.user, tournament.club),
        "can_judge": selectors.can_judge(request.user, tournament.club),
        "current_round": selectors.current_round(tournament),
        "my_match": selectors.current_match_of(request.user, tournament),
    }


def _run(request: HttpRequest, action: Any, success: str) -> bool:
    try:
        action()
    except DomainError as error:
        messages.error(request, error.detail)
        return False
    messages.success(request, success)
    return True


# --- pairings -------------------------------------------------------------------------------


def round_current(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rnd = selectors.current_round(tournament)
    if rnd is None:
        return render(request, "tournaments/round.html", _base_context(request, tournament))
    return redirect("round-detail", pk=pk, number=rnd.number)


def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    matches = list(selectors.round_matches(rnd))
    by_name = sorted(
        [(m.a, m.b, m) for m in matches] + [(m.b, m.a, m) for m in matches if m.b is not None],
        key=lambda row: row[0].player.display_name.lower(),
    )
    context = {
        **_base_context(request, tournament),
        "round": rnd,
        "matches": matches,
        "by_name": by_name,
        "view": "name" if request.GET.get("by") == "name" else "table",
        "rounds": selectors.tournament_rounds(tournament),
        "swap_choices": [(m.a, m.b) for m in matches],
    }
    return render(request, "tournaments/round.html", context)


def round_slips(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Printable match slips: one per table, a box per game round."""
    tournament = _tournament(request, pk)
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
    tournament = _tournament(request, pk)
    rnd = selectors.current_round(tournament)
    user = request.user
    post = request.POST

    def need_round() -> Round:
        if rnd is None:
            raise InvalidInput("No round has been paired yet.", code="no_round")
        return rnd

    def minutes(field: str) -> int | None:
        raw = post.get(field, "").strip()
        if not raw:
            return None
        if not raw.isdigit():
            raise InvalidInput("Minutes are a whole number.", code="invalid_minutes", field=field)
        return int(raw)

    def registration(field: str) -> Registration:
        raw = post.get(field, "")
        reg = Registration.objects.select_related("player").filter(
            tournament=tournament, pk=int(raw) if raw.isdigit() else 0
        )
        found = reg.first()
        if found is None:
            raise InvalidInput("Choose two players to swap.", code="unknown_registration")
        return found

    actions: dict[str, tuple[Any, str]] = {
        "start-tournament": (
            lambda: rounds.start_tournament_now(actor=user, tournament=tournament),
            "The tournament has started.",
        ),
        "pair": (
            lambda: rounds.pair_next_round(actor=user, tournament=tournament),
            "The next round is paired.",
        ),
        "start-round": (
            lambda: rounds.start_round(actor=user, round=need_round(), minutes=minutes("minutes")),
            "The round has started: the clock is running.",
        ),
        "extend": (
            lambda: rounds.extend_round(
                actor=user, round=need_round(), minutes=minutes("minutes") or 5
            ),
            "The round has more time.",
        ),
        "repair": (
            lambda: rounds.repair_round(actor=user, round=need_round()),
            "The round was paired again.",
        ),
        "swap": (
            lambda: rounds.swap_players(
                actor=user,
                round=need_round(),
                first=registration("first"),
                second=registration("second"),
            ),
            "The two players were swapped.",
        ),
        "finish": (
            lambda: rounds.finish_tournament(actor=user, tournament=tournament),
            "The tournament is finished.",
        ),
    }
    if action not in actions:
        raise Http404
    call, success = actions[action]
    _run(request, call, success)
    return redirect(post.get("next") or reverse("round-current", args=[pk]))


@login_required
@require_POST
def registration_action(request: HttpRequest, pk: int, reg_pk: int, action: str) -> HttpResponse:
    tournament = _tournament(request, pk)
    reg = get_object_or_404(Registration, tournament=tournament, pk=reg_pk)
    if action == "drop":
        _run(
            request,
            lambda: rounds.drop_player(actor=request.user, registration=reg),
            f"{reg.player.display_name} dropped: not paired from the next round.",
        )
    elif action == "readd":
        _run(
            request,
            lambda: rounds.readd_player(actor=request.user, registration=reg),
            f"{reg.player.display_name} is back in.",
        )
    else:
        raise Http404
    return redirect(request.POST.get("next") or reverse("standings", args=[pk]))


@login_required
@require_POST
def late_entrant(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    username = request.POST.get("username", "")
    _run(
        request,
        lambda: rounds.add_late_entrant(
            actor=request.user, tournament=tournament, username=username
        ),
        f"{username} joins from the next round.",
    )
    return redirect("standings", pk=pk)


# --- standings and history ------------------------------------------------------------------


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    table = selectors.tournament_standings(tournament)
    columns = list(table.table.tiebreakers)
    return render(
        request,
        "tournaments/standings.html",
        {
            **_base_context(request, tournament),
            "table": table,
            "rows": table.rows(),
            "columns": [(t.value, LABELS[t]) for t in columns],
            "definitions": [(LABELS[Tiebreaker(k)], v) for k, v in table.table.definitions.items()],
        },
    )


def history(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rounds_with_matches = [
        (rnd, list(selectors.round_matches(rnd))) for rnd in selectors.tournament_rounds(tournament)
    ]
    return render(
        request,
        "tournaments/history.html",
        {**_base_context(request, tournament), "rounds_with_matches": rounds_with_matches},
    )


# --- matches and results --------------------------------------------------------------------


def match_detail(request: HttpRequest, pk: int, match_pk: int) -> HttpResponse:
    """ "My match": report game round by game round; confirm; judges enter or override."""
    tournament = _tournament(request, pk)
    match = selectors.match_for_page(match_pk)
    if match is None or match.round.tournament_id != tournament.pk:
        raise Http404
    side = None
    if request.user.is_authenticated:
        if match.a.player.user_id == request.user.pk:
            side = ReportSide.A
        elif match.b is not None and match.b.player.user_id == request.user.pk:
            side = ReportSide.B
    can_judge = selectors.can_judge(request.user, tournament.club)
    error = ""
    if request.method == "POST" and request.user.is_authenticated:
        action = request.POST.get("action", "")
        try:
            if action == "confirm":
                results.confirm_result(actor=request.user, match=match)
                messages.success(request, "Result confirmed. Thanks!")
            else:
                games = games_from_post(request.POST, tournament)
                if action == "judge":
                    results.judge_result(actor=request.user, match=match, games=games)
                    messages.success(request, "Result entered.")
                else:
                    final = action != "progress"
                    results.report_result(actor=request.user, match=match, games=games, final=final)
                    messages.success(
                        request,
                        "Result reported: your opponent confirms it."
                        if final
                        else "Progress saved.",
                    )
        except DomainError as exc:
            error = exc.detail
        except RuleViolation as exc:
            error = f"{exc.detail} ({exc.where})" if exc.where else exc.detail
        else:
            return redirect(request.POST.get("next") or request.path)
    reports = {r.side: r for r in match.reports.all() if r.current}
    mine = reports.get(side) if side else None
    theirs = reports.get(ReportSide.B if side == ReportSide.A else ReportSide.A) if side else None
    prefill = mine.games if mine else (theirs.games if theirs else (match.result or []))
    if request.method == "POST" and error:
        prefill = _posted_games(request, tournament)
    return render(
        request,
        "tournaments/match.html",
        {
            **_base_context(request, tournament),
            "match": match,
            "side": side,
            "can_judge_here": can_judge,
            "error": error,
            "mine": mine,
            "theirs": theirs,
            "reports": reports,
            "grid": report_grid(tournament, prefill=prefill),
            "score": results.score_line(match) if match.status == MatchStatus.CONFIRMED else "",
            "can_report": side is not None
            and match.round.status != RoundStatus.COMPLETE
            and match.status != MatchStatus.CONFIRMED
            and not match.is_bye,
        },
    )


def _posted_games(request: HttpRequest, tournament: Tournament) -> list[Any]:
    try:
        return games_from_post(request.POST, tournament)
    except (DomainError, RuleViolation):
        return []


@login_required
def judge_grid(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if not selectors.can_judge(request.user, tournament.club):
        raise Http404
    round_raw = request.GET.get("round", "")
    state = request.GET.get("status", "")
    if state not in [*MatchStatus.values, "overdue"]:
        state = ""
    matches = selectors.matches_for_judge(
        tournament,
        round_number=int(round_raw) if round_raw.isdigit() else None,
        status=state or None,
    )
    counts: dict[str, int] = {}
    for m in selectors.matches_for_judge(tournament):
        counts[m.status] = counts.get(m.status, 0) + 1
    return render(
        request,
        "tournaments/judge.html",
        {
            **_base_context(request, tournament),
            "matches": matches,
            "rounds": selectors.tournament_rounds(tournament),
            "filter_round": round_raw,
            "filter_status": state,
            "statuses": [*MatchStatus.choices, ("overdue", "Overdue")],
            "counts": counts,
        },
    )


@login_required
def swiss_settings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if not selectors.can_manage_club(request.user, tournament.club):
        raise Http404
    settings = rounds.swiss_settings(tournament)
    form = SwissSettingsForm(request.POST or None, instance=settings)
    if request.method == "POST" and form.is_valid():
        try:
            rounds.update_swiss_settings(
                actor=request.user,
                tournament=tournament,
                changes={name: form.cleaned_data[name] for name in form.changed_data},
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.detail)
        else:
            messages.success(request, "Swiss settings saved.")
            return redirect("tournament-detail", pk=pk)
    return render(
        request,
        "tournaments/swiss_settings.html",
        {**_base_context(request, tournament), "form": form},
    )


def round_timer(request: HttpRequest, pk: int) -> HttpResponse:
    """The timer fragment, polled by htmx on every tournament page."""
    tournament = _tournament(request, pk)
    return render(
        request,
        "tournaments/_round_timer.html",
        {
            "tournament": tournament,
            "current_round": selectors.current_round(tournament),
            "latest_event": selectors.tournament_events(tournament).first(),
        },
    )
