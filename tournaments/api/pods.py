"""API: a pod stage (4-player Gesoseka, generic free-for-all): making the event one, its
rounds with every pod's seats and result, its standings, and a pod's result (a seated
player reports the game rounds, another confirms, judges enter)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, valid
from core.errors import NotFound
from rules import games as game_rules
from rules import pod_game
from tournaments.api.common import hidden_unless_visible, tournament_for, visible_match_id
from tournaments.models import PodFill, PodScoring
from tournaments.selectors import pods as selectors
from tournaments.selectors.names import round_title
from tournaments.services import pods

ROUNDS_EXAMPLE = [[31, 20, 18, 25], [40, 22, 30, 12]]


class PodStageInput(StrictInput):
    rounds = serializers.IntegerField(min_value=1, max_value=20, default=3)
    fill = serializers.ChoiceField(choices=PodFill.choices, default=PodFill.THREES)
    scoring = serializers.ChoiceField(choices=PodScoring.choices, default=PodScoring.WINNER)
    rounds_to_win = serializers.IntegerField(
        min_value=1, max_value=5, default=2, help_text="Game-round wins that win a pod."
    )
    round_minutes = serializers.IntegerField(min_value=1, max_value=600, default=50)


class PodResultInput(StrictInput):
    # The schema bounds any pod (4 seats, first to 5); the service holds each pod to its
    # own bound, from its seats and win target (``pod_game.max_game_rounds``).
    rounds = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=game_rules.MAX_POD_SCORE),
            min_length=min(pod_game.POD_SEATS),
            max_length=max(pod_game.POD_SEATS),
        ),
        min_length=1,
        max_length=pod_game.LONGEST_POD_GAME,
        help_text="Each game round: every seat's score, in seat order (the pod's seats). "
        "A pod of N seats, first to K game-round wins, records at most 2(N(K-1)+1) game "
        "rounds: N(K-1)+1 won by someone and as many ties (the pod's `max_game_rounds`).",
    )


def _seat(seat: Any) -> dict[str, Any]:
    return {
        "position": seat.position,
        "registration": seat.registration_id,
        "name": seat.registration.name,
    }


def _pod(view: selectors.PodView) -> dict[str, Any]:
    match = view.match
    return {
        "match": match.pk,
        "table": match.table,
        "status": match.status,
        "seats": [_seat(s) for s in view.seats],
        "rounds": match.result[0]["rounds"] if match.result else None,
        "winner": view.winner.pk if view.winner else None,
    }


def stage_data(tournament_id: int) -> dict[str, Any]:
    stage = selectors.pod_stage_of(tournament_id)
    if stage is None:
        raise NotFound(gettext("This tournament has no pod stage."))
    settings = selectors.settings_of(stage)
    return {
        "stage": stage.number,
        "status": stage.status,
        "settings": {
            "rounds": settings.rounds,
            "fill": settings.fill,
            "scoring": settings.scoring,
            "rounds_to_win": settings.rounds_to_win,
            "round_minutes": settings.round_minutes,
        },
        "rounds": [
            {
                "number": view.round.number,
                "name": round_title(view.round),
                "status": view.round.status,
                "pods": [_pod(p) for p in view.pods],
                "byes": [{"registration": r.pk, "name": r.name} for r in view.byes],
            }
            for view in selectors.rounds_of(stage)
        ],
        "standings": [selectors.describe(row) for row in selectors.standings_of(stage)],
    }


class PodStageView(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="The pod stage: its rounds with every pod's seats and result, its standings",
    )
    def get(self, request: Request, pk: str) -> Response:
        return Response(stage_data(tournament_for(request, pk).pk))

    @extend_schema(
        request=PodStageInput,
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
        summary="Make the event a pod stage (organisers, before the start)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        data = valid(PodStageInput, request.data)
        pods.add_stage(actor=request.user, tournament=tournament, **data)
        return Response(stage_data(tournament.pk), status=status.HTTP_201_CREATED)


def _pod_answer(match_id: int) -> Response:
    view = selectors.pod_of(match_id)
    if view is None:
        raise NotFound(gettext("No such pod."))
    return Response(_pod(view))


class PodReportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=PodResultInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Report your pod's result: every seat's score for each game round",
        examples=[OpenApiExample("Two game rounds", value={"rounds": ROUNDS_EXAMPLE})],
    )
    def post(self, request: Request, pk: str) -> Response:
        match_id = visible_match_id(request, pk)
        data = valid(PodResultInput, request.data)
        with hidden_unless_visible(request, match_id):
            pods.report(actor=request.user, match=match_id, rounds=data["rounds"])
        return _pod_answer(match_id)


class PodConfirmView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Confirm the result another player of your pod reported",
    )
    def post(self, request: Request, pk: str) -> Response:
        match_id = visible_match_id(request, pk)
        with hidden_unless_visible(request, match_id):
            pods.confirm(actor=request.user, match=match_id)
        return _pod_answer(match_id)


class PodJudgeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=PodResultInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Enter or override a pod's result (judges)",
    )
    def post(self, request: Request, pk: str) -> Response:
        match_id = visible_match_id(request, pk)
        data = valid(PodResultInput, request.data)
        with hidden_unless_visible(request, match_id):
            pods.judge(actor=request.user, match=match_id, rounds=data["rounds"])
        return _pod_answer(match_id)
