"""The live draft pages (pick, control, watch), which render the first snapshot and then
follow the pod's websocket, and the tournament page's draft buttons."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext

from core.errors import DomainError
from core.web import parse_int
from gameplay import selectors as draft_selectors
from gameplay.models import DraftPod, PodStatus
from gameplay.services import drafts as draft_services
from tournaments import selectors as tournament_selectors


def _pod_page(request: HttpRequest, pk: int, mode: str) -> HttpResponse:
    pod = draft_selectors.pod_for_viewer(pk, request.user)
    if pod is None:
        raise Http404
    who = draft_selectors.viewer(pod, request.user)
    user_id, manager = who.user_id, who.manager
    if mode == "control" and not manager:
        return HttpResponseForbidden(gettext("Only the organisers run the draft."))
    full = draft_selectors.full_snapshot(pod.pk)
    assert full is not None
    seated = user_id is not None and any(s["user_id"] == user_id for s in full["seats"])
    if mode == "pick" and not seated:
        mode = "watch"  # not seated in this pod: read-only
    snapshot = draft_selectors.view_for(full, user_id=user_id, manager=manager, plays=who.plays)
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
            # Before the start nobody sees a card (the snapshot has no pack): say why.
            "not_started": pod.status == PodStatus.READY,
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
                pod_size=parse_int(request.POST.get("pod_size"), field="pod_size"),
                seconds_per_pick=parse_int(
                    request.POST.get("seconds_per_pick"), field="seconds_per_pick"
                ),
                shrinking_timer=request.POST.get("shrinking_timer") == "on",
                direction=request.POST.get("direction") or None,
                timing=request.POST.get("timing") or None,
                # Team events only (the form shows it there); the service refuses a value
                # it does not know, by name.
                team_seating=request.POST.get("team_seating") or None,
            )
            messages.success(
                request,
                ngettext("%(count)d draft pod seated.", "%(count)d draft pods seated.", len(pods))
                % {"count": len(pods)},
            )
        elif action == "start":
            pod = get_object_or_404(
                DraftPod,
                tournament=tournament,
                pk=parse_int(request.POST.get("pod"), field="pod") or 0,
            )
            draft_services.start_pod(actor=request.user, pod=pod)
            messages.success(request, gettext("Pod %(pod)d is drafting.") % {"pod": pod.number})
            return redirect("draft-control", pk=pod.pk)
    except DomainError as error:
        messages.error(request, error.detail)
    return redirect("tournament-detail", pk=tournament_pk)
