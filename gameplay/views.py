"""Pages of the games at the table: the score helper (a Gesoseka field or Kontsina piles,
scored with the breakdown; it stores nothing) and the live draft pages (pick, control,
watch), which render the first snapshot and then follow the pod's websocket."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render

from gameplay import selectors as draft_selectors
from gameplay import services as draft_services
from gameplay.forms import GesosekaBoardForm, GesosekaFieldForm, KontsinaForm
from gameplay.models import DraftPod
from gameplay.rules import games
from gameplay.rules.errors import RuleViolation
from tournaments import selectors as tournament_selectors
from tournaments.errors import DomainError, InvalidInput


def _gesoseka(request: HttpRequest) -> dict[str, Any]:
    data = request.POST if request.method == "POST" else None
    board = GesosekaBoardForm(data, prefix="board")
    fields = [GesosekaFieldForm(data, prefix=f"p{i}") for i in (1, 2)]
    context: dict[str, Any] = {"board_form": board, "field_forms": fields}
    if data is not None and board.is_valid() and all(f.is_valid() for f in fields):
        try:
            request_data = {
                "deck": board.cleaned_data["deck"],
                "decks": board.cleaned_data["decks"],
                "fields": [f.field_data(opponent=1 - i) for i, f in enumerate(fields)],
            }
            context["score"] = games.score("gesoseka", request_data)
        except forms.ValidationError as error:
            context["error"] = " ".join(error.messages)
        except RuleViolation as error:
            context["error"] = f"{error.detail} ({error.where})" if error.where else error.detail
    return context


def _kontsina(request: HttpRequest) -> dict[str, Any]:
    form = KontsinaForm(request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {"form": form}
    if request.method == "POST" and form.is_valid():
        try:
            context["score"] = games.score("kontsina", form.piles_data())
        except RuleViolation as error:
            context["error"] = f"{error.detail} ({error.where})" if error.where else error.detail
    return context


def score_helper(request: HttpRequest, game: str = "gesoseka") -> HttpResponse:
    game = "kontsina" if game == "kontsina" else "gesoseka"
    context = _gesoseka(request) if game == "gesoseka" else _kontsina(request)
    context["game"] = game
    template = "gameplay/score_helper.html"
    if request.htmx and request.method == "POST":
        template = "gameplay/_score_result.html"
    return render(request, template, context)


# --- the live draft ----------------------------------------------------------------------------


def _pod_page(request: HttpRequest, pk: int, mode: str) -> HttpResponse:
    pod = draft_selectors.pod_for_viewer(pk, request.user)
    if pod is None:
        raise Http404
    user_id, manager = draft_selectors.viewer(pod, request.user)
    seated = pod.seats.filter(registration__player__user_id=user_id).exists() if user_id else False
    if mode == "control" and not manager:
        return HttpResponseForbidden("Only the organisers run the draft.")
    if mode == "pick" and not seated:
        mode = "watch"  # not seated in this pod: read-only
    full = draft_selectors.full_snapshot(pod.pk)
    assert full is not None
    snapshot = draft_selectors.view_for(full, user_id=user_id, manager=manager)
    return render(
        request,
        "gameplay/draft.html",
        {
            "pod": pod,
            "tournament": pod.tournament,
            "mode": mode,
            "snapshot": snapshot,
            "manager": manager,
            "seated": seated,
        },
    )


def draft_pick(request: HttpRequest, pk: int) -> HttpResponse:
    return _pod_page(request, pk, "pick")


def draft_control(request: HttpRequest, pk: int) -> HttpResponse:
    return _pod_page(request, pk, "control")


def draft_watch(request: HttpRequest, pk: int) -> HttpResponse:
    return _pod_page(request, pk, "watch")


def draft_action(request: HttpRequest, tournament_pk: int, action: str) -> HttpResponse:
    """The tournament page's draft buttons: seat the pods, start one."""
    if request.method != "POST" or not request.user.is_authenticated:
        return redirect("tournament-detail", pk=tournament_pk)
    tournament = get_object_or_404(
        tournament_selectors.visible_tournaments(request.user), pk=tournament_pk
    )
    try:
        if action == "seat":
            pods = draft_services.create_pods(
                actor=request.user,
                tournament=tournament,
                pod_size=_int_or_none(request.POST.get("pod_size")),
                seconds_per_pick=_int_or_none(request.POST.get("seconds_per_pick")),
                shrinking_timer=request.POST.get("shrinking_timer") == "on",
                direction=request.POST.get("direction") or None,
                timing=request.POST.get("timing") or None,
            )
            messages.success(request, f"{len(pods)} draft pod(s) seated.")
        elif action == "start":
            pod = get_object_or_404(
                DraftPod, tournament=tournament, pk=_int_or_none(request.POST.get("pod")) or 0
            )
            draft_services.start_pod(actor=request.user, pod=pod)
            messages.success(request, f"Pod {pod.number} is drafting.")
            return redirect("draft-control", pk=pod.pk)
    except DomainError as error:
        messages.error(request, error.detail)
    return redirect("tournament-detail", pk=tournament_pk)


def _int_or_none(raw: str | None) -> int | None:
    if raw is None or raw.strip() == "":
        return None
    if not raw.strip().isdigit():
        raise InvalidInput(f"{raw!r} is not a whole number.", code="invalid_number")
    return int(raw)
