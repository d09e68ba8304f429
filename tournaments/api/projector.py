"""API: the projector's announcement (``services.projector``): read by anyone who may see
the tournament, set or cleared by its organisers."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, valid
from tournaments.api.common import tournament_for
from tournaments.models import Tournament
from tournaments.services import projector


class AnnouncementInput(StrictInput):
    announcement = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,  # the service cleans it (core.text.clean_text)
        # A bound on what is read at all; the service refuses past 280 with its own words.
        max_length=4000,
        help_text=f"The text shown on the projector, at most "
        f"{projector.ANNOUNCEMENT_MAX_LENGTH} characters; empty clears it.",
    )


class AnnouncementSerializer(serializers.Serializer[Tournament]):
    tournament = serializers.IntegerField(source="pk", read_only=True)
    announcement = serializers.CharField(read_only=True)


class AnnouncementView(APIView):
    @extend_schema(
        responses={200: AnnouncementSerializer, **ERRORS},
        summary="The projector's announcement",
    )
    def get(self, request: Request, pk: str) -> Response:
        return Response(AnnouncementSerializer(tournament_for(request, pk)).data)

    @extend_schema(
        request=AnnouncementInput,
        responses={200: AnnouncementSerializer, **ERRORS},
        summary="Set or clear the projector's announcement (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        data = valid(AnnouncementInput, request.data)
        tournament = projector.set_announcement(
            actor=request.user, tournament=tournament, text=data["announcement"]
        )
        return Response(AnnouncementSerializer(tournament).data)
