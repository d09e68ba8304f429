"""The "Call a judge" buttons (match page, live table) and the judges' "On my way" and
"Done" (results grid, control page, match page): one POST view, back to ``next``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.web import parse_int, run_action, safe_next
from tournaments.models import JudgeCall, Match
from tournaments.services import judge_calls
from tournaments.web.common import tournament_for


@login_required
@require_POST
def judge_call(request: HttpRequest, pk: int, match_pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    if not Match.objects.filter(pk=match_pk, round__tournament=tournament).exists():
        raise Http404
    action = request.POST.get("action", "call")
    if action == "call":
        run_action(
            request,
            lambda: judge_calls.call_judge(actor=request.user, match=match_pk),
            gettext("A judge is called: stay at your table, they see your table number."),
        )
    elif action in ("answer", "close"):
        call_pk = parse_int(request.POST.get("call"), field="call")
        if call_pk is None or not JudgeCall.objects.filter(pk=call_pk, match_id=match_pk).exists():
            raise Http404
        if action == "answer":
            run_action(
                request,
                lambda: judge_calls.answer_call(actor=request.user, call=call_pk),
                gettext("The players see you are on your way."),
            )
        else:
            run_action(
                request,
                lambda: judge_calls.close_call(actor=request.user, call=call_pk),
                gettext("The call is closed."),
            )
    else:
        raise Http404
    return redirect(safe_next(request, reverse("match", args=[pk, match_pk])))
