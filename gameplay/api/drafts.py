"""Draft API: the same actions as the websocket, for clients without one (and for pages
whose socket dropped: they poll the snapshot and post picks here), plus the pick log.

What is secret until a draft is over (``gameplay.selectors.drafts``): the pod's ``seed``
(with it the pure engine deals every opening pack again, so it would show a player the
packs of the seats before them and what those seats picked), every seat's pack and pool
but the viewer's own, and before the organiser starts, every card. So:

- ``seed`` is ``null`` in the pods list and the pick log until the draft is over; then it
  is shown, so that anyone can deal the packs again from it and check the draft was fair;
- the snapshot (``GET drafts/<id>/``) shows a player their own pack and pool only, and no
  pack before the start; organisers who do not play see every seat;
- the pick log (every pack's contents before each pick) is for organisers who do not play
  until the draft is over, then for everyone.

A pick and a highlight name cards by ``positions`` in the pack in front of the player (0 is
the first card as the snapshot lists them): a pack may hold two copies of a card (two
``7H``), and a player may keep one or both. ``cards`` (card codes) is still accepted from
older clients, and takes the first copy; a request names one or the other.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, path_int, valid
from core.errors import NotAllowed, NotFound
from core.web import csv_response
from gameplay import selectors
from gameplay.models import DraftPod, DraftTiming, TeamSeating
from gameplay.selectors import drafts as draft_selectors
from gameplay.services import drafts as services
from gameplay.services import picks
from tournaments import selectors as tournament_selectors


class PodInput(StrictInput):
    pod_size = serializers.IntegerField(required=False, min_value=2, max_value=16)
    seconds_per_pick = serializers.IntegerField(required=False, min_value=0, max_value=600)
    shrinking_timer = serializers.BooleanField(required=False)
    direction = serializers.ChoiceField(choices=["left", "right"], required=False)
    pack_size = serializers.IntegerField(required=False, min_value=2, max_value=20)
    timing = serializers.ChoiceField(
        choices=DraftTiming.choices,
        required=False,
        help_text="first: one draft before round 1; each: a draft before every round.",
    )
    team_seating = serializers.ChoiceField(
        choices=TeamSeating.choices,
        required=False,
        help_text="Team events: teammates sit next to each other (adjacent, the default) or "
        "across the pod (opposite). Every player of a team drafts at a seat of their own.",
    )


#: What the schema says of the pod's seed.
SEED_HELP = (
    "Seeds the shuffled decks the packs are dealt from. null until the draft is over (with "
    "it anyone could deal the packs again and see what others hold); once it is over, "
    "anyone may deal the packs again from it and check the draft was fair."
)


class PodSerializer(serializers.ModelSerializer[DraftPod]):
    seats = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField(help_text=SEED_HELP)

    class Meta:
        model = DraftPod
        fields = [
            "id",
            "number",
            "before_round",
            "status",
            "pack_size",
            "first_pick_keeps",
            "direction",
            "deck_type",
            "seed",
            "seconds_per_pick",
            "shrinking_timer",
            "version",
            "seats",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True, help_text=SEED_HELP))
    def get_seed(self, pod: DraftPod) -> int | None:
        return draft_selectors.public_seed(pod)

    def get_seats(self, pod: DraftPod) -> list[dict[str, Any]]:
        # A seat is its player's; in a team event its registration is the team it drafts
        # for (two seats each), and its name carries the team's.
        return [
            {
                "position": s.position,
                "registration": s.registration_id,
                "player": s.player_id,
                "name": s.label,
                "team": s.registration.team_name or None,
            }
            for s in pod.seats.all()
        ]


#: A pack holds at most this many cards (the API's bound on a position).
MAX_POSITION = 63


def _positions_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_POSITION),
        max_length=4,
        required=False,
        help_text="The cards kept, by their places in the pack as the snapshot lists its "
        "cards (0 is the first). Two copies of one card are two places.",
    )


def _cards_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(max_length=4),
        max_length=4,
        required=False,
        help_text='Older clients: the cards kept by code ("7H"), the first copy of each. '
        "Send positions instead.",
    )


class PickInput(StrictInput):
    pack = serializers.IntegerField(min_value=0, help_text="The pack's id (from the snapshot).")
    pick = serializers.IntegerField(min_value=1, help_text="Which pick of that pack this is.")
    positions = _positions_field()
    cards = _cards_field()


class HighlightInput(StrictInput):
    positions = _positions_field()
    cards = _cards_field()
    pack = serializers.IntegerField(
        min_value=0, required=False, help_text="The pack the positions are in (the snapshot's)."
    )
    pick = serializers.IntegerField(
        min_value=1, required=False, help_text="Which pick of that pack (the snapshot's)."
    )


class AutoInput(StrictInput):
    on = serializers.BooleanField()


def _pod(request: Request, pk: str) -> DraftPod:
    pod = selectors.pod_for_viewer(path_int(pk), request.user)
    if pod is None:
        raise NotFound(gettext("No such draft pod."))
    return pod


def _snapshot(request: Request, pod: DraftPod) -> dict[str, Any]:
    full = selectors.full_snapshot(pod.pk)
    assert full is not None
    who = selectors.viewer(pod, request.user)
    return selectors.view_for(full, user_id=who.user_id, manager=who.manager, plays=who.plays)


class TournamentPodsView(APIView):
    @extend_schema(responses={200: PodSerializer(many=True), **ERRORS}, summary="Draft pods")
    def get(self, request: Request, pk: str) -> Response:
        tournament = get_object_or_404(
            tournament_selectors.visible_tournaments(request.user), pk=path_int(pk)
        )
        return Response(PodSerializer(selectors.tournament_pods(tournament), many=True).data)

    @extend_schema(
        request=PodInput,
        responses={201: PodSerializer(many=True), **ERRORS},
        summary="Seat the checked-in players in draft pods (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = get_object_or_404(
            tournament_selectors.visible_tournaments(request.user), pk=path_int(pk)
        )
        data = valid(PodInput, request.data)
        pods = services.create_pods(actor=request.user, tournament=tournament, **data)
        seated = draft_selectors.pods_by_id([pod.pk for pod in pods])  # seats in 2 queries
        return Response(PodSerializer(seated, many=True).data, status=status.HTTP_201_CREATED)


class PodView(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="The pod's snapshot for you (versioned; pages poll this without a socket)",
    )
    def get(self, request: Request, pk: str) -> Response:
        return Response(_snapshot(request, _pod(request, pk)))


class PickView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=PickInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Pick from the pack in front of you (players)",
        examples=[OpenApiExample("First pick", value={"pack": 0, "pick": 1, "positions": [0, 4]})],
    )
    def post(self, request: Request, pk: str) -> Response:
        pod = _pod(request, pk)
        data = valid(PickInput, request.data)
        result = picks.make_pick(
            actor=request.user,
            pod=pod,
            pack=data["pack"],
            pick_number=data["pick"],
            positions=data.get("positions"),
            cards=data.get("cards"),
        )
        return Response({"applied": result.applied, "snapshot": _snapshot(request, pod)})


class HighlightView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=HighlightInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Highlight cards: the auto-pick takes them if your time runs out",
    )
    def post(self, request: Request, pk: str) -> Response:
        pod = _pod(request, pk)
        data = valid(HighlightInput, request.data)
        seat = picks.highlight(
            actor=request.user,
            pod=pod,
            positions=data.get("positions"),
            cards=data.get("cards"),
            pack=data.get("pack"),
            pick_number=data.get("pick"),
        )
        return Response({"highlighted": seat.highlighted})


def _control(request: Request, pk: str, action: Any) -> Response:
    pod = _pod(request, pk)
    action(actor=request.user, pod=pod)
    return Response(_snapshot(request, pod))


#: What the organisers' controls answer: the pod's snapshot for them.
CONTROL_RESPONSES = {200: OpenApiTypes.OBJECT, **ERRORS}


class PodStartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Start the draft (organisers)", request=None, responses=CONTROL_RESPONSES
    )
    def post(self, request: Request, pk: str) -> Response:
        return _control(request, pk, services.start_pod)


class PodPauseView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Pause the draft: the pick timers stop (organisers)",
        request=None,
        responses=CONTROL_RESPONSES,
    )
    def post(self, request: Request, pk: str) -> Response:
        return _control(request, pk, services.pause_pod)


class PodResumeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Resume the draft (organisers)", request=None, responses=CONTROL_RESPONSES
    )
    def post(self, request: Request, pk: str) -> Response:
        return _control(request, pk, services.resume_pod)


class PodEndView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="End now: the server makes the remaining picks (organisers)",
        request=None,
        responses=CONTROL_RESPONSES,
    )
    def post(self, request: Request, pk: str) -> Response:
        return _control(request, pk, services.end_pod)


class SeatAutoView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=AutoInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Put a seat on auto-pick (player gone) or give it back (organisers)",
    )
    def post(self, request: Request, pk: str, position: str) -> Response:
        pod = _pod(request, pk)
        data = valid(AutoInput, request.data)
        services.set_auto_pick(
            actor=request.user, pod=pod, position=path_int(position), auto=data["on"]
        )
        return Response(_snapshot(request, pod))


PICK_LOG_HEADER = ["seat", "player", "pick", "pack", "picked", "pack_contents", "source", "at"]


class PickLogView(APIView):
    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
            **ERRORS,
        },
        summary="The pod's pick log (organisers who do not play during the draft, everyone "
        "after; the seed once the draft is over)",
    )
    def get(self, request: Request, pk: str, fmt: str) -> HttpResponse | Response:
        pod = _pod(request, pk)
        if not draft_selectors.may_see_every_seat(pod, selectors.viewer(pod, request.user)):
            raise NotAllowed(
                gettext("The pick log is public once the draft is over."), code="draft_not_over"
            )
        rows = [
            [
                p.seat.position + 1,
                p.seat.label,
                p.seat_pick,
                p.pack,
                " ".join(p.cards),
                " ".join(p.pack_before),
                p.source,
                p.created_at.isoformat(),
            ]
            for p in selectors.pick_log(pod)
        ]
        if fmt == "json":
            return Response(
                {
                    "pod": pod.pk,
                    "seed": draft_selectors.public_seed(pod),
                    "picks": [dict(zip(PICK_LOG_HEADER, r, strict=True)) for r in rows],
                }
            )
        return csv_response(f"draft-pod-{pod.pk}-picks.csv", PICK_LOG_HEADER, rows)
