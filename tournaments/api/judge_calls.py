"""API: calling a judge to a match's table (players), taking and closing the call (judges)."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, path_int
from core.errors import NotFound
from tournaments import selectors
from tournaments.api.common import hidden_unless_visible
from tournaments.models import JudgeCall
from tournaments.services import judge_calls


class JudgeCallSerializer(serializers.Serializer[JudgeCall]):
    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id")
    called_at = serializers.DateTimeField()
    answered = serializers.SerializerMethodField()
    answered_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)

    def get_answered(self, call: JudgeCall) -> bool:
        return call.answered_by_id is not None


def _answer(call: JudgeCall, status: int = 200) -> Response:
    return Response(JudgeCallSerializer(call).data, status=status)


class CallJudgeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={201: JudgeCallSerializer, **ERRORS},
        summary="Call a judge to your match's table (players; the open call if one is open)",
    )
    def post(self, request: Request, pk: str) -> Response:
        match_id = path_int(pk)
        with hidden_unless_visible(request, match_id):
            call = judge_calls.call_judge(actor=request.user, match=match_id)
        return _answer(call, 201)


class _CallAction(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def _call_id(self, request: Request, pk: str) -> int:
        call_id = path_int(pk)
        match_id = JudgeCall.objects.filter(pk=call_id).values_list("match_id", flat=True).first()
        if match_id is None or not selectors.match_visible_to(request.user, match_id):
            raise NotFound(gettext("No such call."))
        return call_id


class AnswerCallView(_CallAction):
    @extend_schema(
        request=None,
        responses={200: JudgeCallSerializer, **ERRORS},
        summary="Take a judge call: the players see you are on your way (judges)",
    )
    def post(self, request: Request, pk: str) -> Response:
        return _answer(judge_calls.answer_call(actor=request.user, call=self._call_id(request, pk)))


class CloseCallView(_CallAction):
    @extend_schema(
        request=None,
        responses={200: JudgeCallSerializer, **ERRORS},
        summary="Close a judge call (judges, or the player who called)",
    )
    def post(self, request: Request, pk: str) -> Response:
        return _answer(judge_calls.close_call(actor=request.user, call=self._call_id(request, pk)))
