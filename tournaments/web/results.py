"""Result pages: "my match" (report game round by game round, confirm, a judge's entry)
and the judges' results grid.

The match page words the result's state from ``selectors.results.result_status`` (and the
message after a report from the same state). For a judge, a reported or disputed match
shows the players' reports side by side (``reports_to_compare``); one tap takes a report as
the judge's result (``results.take_report``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext

from core.errors import DomainError, InvalidInput, RuleViolation
from core.text import possessive
from core.web import parse_int, safe_next
from core.words import problem as problem_of
from tournaments import formats, selectors
from tournaments.models import (
    Match,
    MatchStatus,
    ReportSide,
    Tournament,
)
from tournaments.selectors import judge_calls as call_selectors
from tournaments.selectors import policies
from tournaments.selectors.judges import (
    judge_page,
    judge_rows,
    match_counts,
    quick_result_games,
)
from tournaments.selectors.result_words import side_names
from tournaments.selectors.results import (
    correction_impact,
    report_message,
    report_outcome,
    reports_to_compare,
    result_status,
)
from tournaments.services import results
from tournaments.web.common import tournament_context, tournament_for
from tournaments.web.forms import (
    games_from_post,
    report_grid,
)
from tournaments.web.paging import paging_of


def match_detail(request: HttpRequest, pk: int, match_pk: int) -> HttpResponse:
    """ "My match": report game round by game round; confirm; judges enter or override.

    A ``next`` page on this site (the judges' grid links here with one) is where the
    forms go back to after a change; any other ``next`` is ignored."""
    tournament = tournament_for(request, pk)
    match = selectors.match_for_page(match_pk)
    if match is None or match.round.tournament_id != tournament.pk:
        raise Http404
    plays_on = formats.format_of(match.round.stage).plays_on
    if plays_on is not None:  # a pod is played on the pods page
        return redirect(f"{reverse(plays_on, args=[tournament.pk])}#pod-{match.pk}")
    side = policies.side_in_match(request.user, match)
    error = ""
    next_page = safe_next(request, "")
    if request.method == "POST" and request.user.is_authenticated:
        action = request.POST.get("action", "")
        try:
            if action == "confirm":
                results.confirm_result(actor=request.user, match=match)
                messages.success(request, gettext("Result confirmed. Thanks!"))
            elif action == "take":
                report = parse_int(request.POST.get("report"), field="report")
                if report is None:
                    raise InvalidInput(gettext("Choose the report to take."), code="no_report")
                _, player = results.take_report(actor=request.user, match=match, report=report)
                messages.success(
                    request,
                    gettext("Result entered: %(whose)s report.") % {"whose": possessive(player)},
                )
            else:
                games = games_from_post(request.POST, tournament)
                if action == "judge":
                    results.judge_result(actor=request.user, match=match, games=games)
                    messages.success(request, gettext("Result entered."))
                else:
                    final = action != "progress"
                    reported = results.report_result(
                        actor=request.user, match=match, games=games, final=final
                    )
                    if not final:
                        messages.success(request, gettext("Progress saved."))
                    else:
                        # Said from where the report left the match: a dispute is not a
                        # success (selectors.results.report_message).
                        level, words = report_message(reported)
                        say = messages.warning if level == "warning" else messages.success
                        say(request, words)
        except (DomainError, RuleViolation) as exc:
            # A rule the result breaks, said with the match's names (``core.words``).
            problem = problem_of(exc, names=side_names(match))
            assert problem is not None
            error = problem.text
        else:
            return redirect(next_page or request.path)
    reports = {r.side: r for r in match.reports.all() if r.current}
    mine = reports.get(side) if side else None
    theirs = reports.get(ReportSide.B if side == ReportSide.A else ReportSide.A) if side else None
    prefill = mine.games if mine else (theirs.games if theirs else (match.result or []))
    if request.method == "POST" and error:
        prefill = _posted_games(request, tournament)
    confirmed = match.status == MatchStatus.CONFIRMED
    actions = policies.match_actions(request.user, match)
    status = result_status(match, side)
    their_report = theirs if theirs and theirs.complete and not confirmed else None
    return render(
        request,
        "tournaments/match.html",
        {
            **tournament_context(request, tournament),
            "match": match,
            "match_actions": actions,
            "side": side,
            "error": error,
            "mine": mine,
            "theirs": theirs,
            "reports": reports,
            "their_report": their_report,
            "their_name": (
                (match.a if their_report.side == ReportSide.A else match.b).name  # type: ignore[union-attr]
                if their_report
                else ""
            ),
            "their_outcome": (report_outcome(match, their_report) if their_report else ""),
            "status": status,
            "judge_reports": reports_to_compare(match, actions, status),
            "correction": (
                correction_impact(match).words if confirmed and "judge" in actions else ""
            ),
            "confirmed": confirmed,
            "next": next_page,
            "grid": report_grid(tournament, prefill=prefill),
            "score": selectors.score_line(match) if confirmed else "",
            **_judge_call_context(request, tournament, match, side, actions),
        },
    )


def _judge_call_context(
    request: HttpRequest, tournament: Tournament, match: Match, side: str | None, actions: Any
) -> dict[str, Any]:
    """The match's open judge call in words, and who may call, answer or close (one query)."""
    call = call_selectors.open_call_of(match)
    return {
        "judge_call": (
            call_selectors.words_for(call, viewer_id=request.user.pk) if call is not None else None
        ),
        "may_call": side is not None and match.status != MatchStatus.CONFIRMED,
        "may_answer": "judge" in actions,
        "call_next": request.path,
    }


def _posted_games(request: HttpRequest, tournament: Tournament) -> list[Any]:
    try:
        return games_from_post(request.POST, tournament)
    except (DomainError, RuleViolation):
        return []


def _count_of(status: str, n: int) -> str | None:
    """One of the grid's counts in words ("3 waiting for a report"); None for a state the
    grid does not count."""
    if status == MatchStatus.PENDING:
        return ngettext("%(count)d waiting for a report", "%(count)d waiting for a report", n) % {
            "count": n
        }
    if status == MatchStatus.REPORTED:
        return ngettext("%(count)d to confirm", "%(count)d to confirm", n) % {"count": n}
    if status == MatchStatus.DISPUTED:
        return ngettext("%(count)d disputed", "%(count)d disputed", n) % {"count": n}
    if status == MatchStatus.CONFIRMED:
        return ngettext("%(count)d confirmed", "%(count)d confirmed", n) % {"count": n}
    return None


@login_required
def judge_grid(request: HttpRequest, pk: int) -> HttpResponse:
    """The judges' results grid; a POST is a one-tap result (:func:`_quick_result`)."""
    tournament = tournament_for(request, pk)
    if not policies.can_judge(request.user, tournament.club):
        raise Http404
    if request.method == "POST":
        return _quick_result(request, tournament)
    round_raw = request.GET.get("round", "")
    state = request.GET.get("status", "")
    if state not in [*MatchStatus.values, "overdue"]:
        state = ""
    try:
        round_number = parse_int(round_raw, field="round")
    except InvalidInput:
        round_number = None  # a filter: an odd value shows every round
    paging = paging_of(request)
    search = paging.query
    # What needs a judge first, a page at a time (issue 24: 1,024 rows were 1.3 MB).
    page = judge_page(
        tournament,
        round_number=round_number,
        status=state or None,
        query=search,
        page=paging.page,
    )
    # The body (counts and rows) is fetched again after every change of the tournament
    # (static/js/live.js), with the page's own filters, search and page number.
    page_query = request.GET.copy()
    page_query.pop("part", None)
    if page.number > 1:
        page_query["page"] = str(page.number)
    else:
        page_query.pop("page", None)
    query = page_query.copy()
    query["part"] = "body"
    return render(
        request,
        "tournaments/_judge_body.html"
        if request.GET.get("part") == "body"
        else "tournaments/judge.html",
        {
            "body_url": f"{request.path}?{query.urlencode()}",
            **tournament_context(request, tournament),
            "rows": judge_rows(page.matches, tournament),
            "page": page,
            "pages": _page_links(request.path, page_query, page.number, page.pages),
            "calls": call_selectors.open_calls(tournament),
            "rounds": selectors.tournament_rounds(tournament),
            "filter_round": round_raw,
            "filter_status": state,
            "search": search,
            "statuses": [*MatchStatus.choices, ("overdue", pgettext("match status", "Overdue"))],
            "counts": _count_words(tournament),
            "grid_next": f"{request.path}?{page_query.urlencode()}" if page_query else request.path,
        },
    )


def _page_links(path: str, query: Any, number: int, pages: int) -> dict[str, str]:
    """The grid's pager: the first, previous, next and last pages' addresses (with the
    filters and the search), each only where it leads elsewhere."""
    links: dict[str, str] = {}
    for name, target in (
        ("first", 1),
        ("previous", number - 1),
        ("next", number + 1),
        ("last", pages),
    ):
        if 1 <= target <= pages and target != number:
            there = query.copy()
            there["page"] = str(target)
            links[name] = f"{path}?{there.urlencode()}"
    return links


def _count_words(tournament: Tournament) -> list[str]:
    """The grid's counts: ``["7 waiting for a report", "1 confirmed"]`` (one query)."""
    counts = match_counts(tournament)
    said = (_count_of(status, n) for status, n in counts.items())
    return [words for words in said if words is not None]


def _quick_result(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One tap on the grid: the match's standard result for the button's winner (or a
    draw), entered as a judge's result (``results.judge_result``). With htmx the answer is
    the match's row, showing the result, or the refusal in words; without, the grid again
    (back at ``next``) with the message on top."""
    grid = safe_next(request, "") or reverse("judge", args=[tournament.pk])
    try:
        match_pk = parse_int(request.POST.get("match"), field="match")
    except InvalidInput:
        match_pk = None
    match = (
        selectors.matches_for_judge(tournament, pk=match_pk).first()
        if match_pk is not None
        else None
    )
    if match is None:
        raise Http404
    error = ""
    entered = False
    try:
        games = quick_result_games(match, tournament, request.POST.get("result", ""))
        results.judge_result(actor=request.user, match=match, games=games)
        entered = True
    except (DomainError, RuleViolation) as exc:
        problem = problem_of(exc, names=side_names(match))
        assert problem is not None
        error = problem.text
    if not getattr(request, "htmx", False):
        if error:
            messages.error(
                request,
                gettext("Table %(table)d: %(problem)s") % {"table": match.table, "problem": error},
            )
        else:
            messages.success(
                request, gettext("Table %(table)d: result entered.") % {"table": match.table}
            )
        return redirect(grid)
    if entered:  # read again: its state, winner and score as the grid shows them
        match = selectors.matches_for_judge(tournament, pk=match.pk).first() or match
    return render(
        request,
        "tournaments/_judge_tap.html",
        {
            "tournament": tournament,
            "counts": _count_words(tournament) if entered else [],
            "row": judge_rows([match], tournament)[0],
            "calls": {c.match_id: c for c in [call_selectors.open_call_of(match)] if c is not None},
            "row_error": error,
            "entered": entered,
            "grid_next": grid,
        },
    )
