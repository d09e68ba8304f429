"""API: matches and their results: report, confirm, judge; the results grid."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, path_int, query_int, valid
from core.errors import InvalidInput
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.api.common import (
    hidden_unless_visible,
    result_response,
    tournament_for,
    visible_match,
)
from tournaments.models import MatchStatus
from tournaments.services import results
from tournaments.services.seat_rules import TWO_SIDES


class MatchListView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, description="Only this round"),
            OpenApiParameter(
                "status",
                str,
                enum=[*MatchStatus.values, "overdue"],
                description="Only matches in this state",
            ),
        ],
        responses={200: s.MatchSerializer(many=True), **ERRORS},
        summary="Matches (the judges' results grid)",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        round_number = query_int(request, "round")
        state = request.query_params.get("status") or None
        if state is not None and state not in [*MatchStatus.values, "overdue"]:
            raise InvalidInput(
                gettext("Unknown match status %(status)s.") % {"status": repr(state)},
                code="invalid",
                field="status",
            )
        qs = selectors.matches_for_judge(tournament, round_number=round_number, status=state)
        return Response(s.MatchSerializer(qs, many=True).data)


class MatchDetailView(APIView):
    @extend_schema(responses={200: s.MatchDetailSerializer, **ERRORS}, summary="A match")
    def get(self, request: Request, pk: str) -> Response:
        return Response(s.MatchDetailSerializer(visible_match(request, pk)).data)


class MatchReportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=s.ReportInput,
        responses={200: s.MatchDetailSerializer, **ERRORS},
        summary="Report your match's result, game round by game round (players)",
        examples=[
            OpenApiExample("Final result", value={"games": s.GAMES_EXAMPLE, "final": True}),
            OpenApiExample(
                "Progress after one game round",
                value={"games": [{"rounds": [[31, 25]]}], "final": False},
            ),
        ],
    )
    def post(self, request: Request, pk: str) -> Response:
        match_id = path_int(pk)
        data = valid(s.ReportInput, request.data)
        with hidden_unless_visible(request, match_id):
            match = results.report_result(
                actor=request.user,
                match=match_id,
                games=data["games"],
                final=data["final"],
                form=TWO_SIDES,
            )
        return result_response(match)


class MatchConfirmView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: s.MatchDetailSerializer, **ERRORS},
        summary="Confirm the result your opponent reported (players)",
    )
    def post(self, request: Request, pk: str) -> Response:
        match_id = path_int(pk)
        with hidden_unless_visible(request, match_id):
            match = results.confirm_result(actor=request.user, match=match_id, form=TWO_SIDES)
        return result_response(match)


class MatchJudgeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=s.JudgeInput,
        responses={200: s.MatchDetailSerializer, **ERRORS},
        summary="Enter or override a result (judges and organisers)",
        examples=[OpenApiExample("Result", value={"games": s.GAMES_EXAMPLE})],
    )
    def post(self, request: Request, pk: str) -> Response:
        match_id = path_int(pk)
        data = valid(s.JudgeInput, request.data)
        with hidden_unless_visible(request, match_id):
            match = results.judge_result(
                actor=request.user, match=match_id, games=data["games"], form=TWO_SIDES
            )
        return result_response(match)
