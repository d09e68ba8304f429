"""API: a tournament's stages and the settings of its Swiss stage."""

from __future__ import annotations

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.api.common import tournament_for
from tournaments.models import Round, Stage
from tournaments.selectors.tournaments import stages_with_rounds
from tournaments.services import swiss


class StageSerializer(serializers.ModelSerializer[Stage]):
    rounds: serializers.SlugRelatedField[Round] = serializers.SlugRelatedField(
        slug_field="number",
        many=True,
        read_only=True,
        help_text="The numbers of the stage's rounds (numbered through the tournament).",
    )

    class Meta:
        model = Stage
        fields = [
            "number",
            "kind",
            "name",
            "label",
            "status",
            "started_at",
            "completed_at",
            "rounds",
        ]
        read_only_fields = fields
        # ``label`` is the ``Stage.label`` property, read as it is: a field declared by that
        # name would shadow the serializer's own ``Field.label``.
        extra_kwargs = {"label": {"help_text": "The name, or 'Stage 1 (Swiss)'."}}


class StageListView(APIView):
    @extend_schema(
        responses={200: StageSerializer(many=True), **ERRORS},
        summary="A tournament's stages, in order, with their rounds",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        return Response(StageSerializer(stages_with_rounds(tournament), many=True).data)


class SwissSettingsView(APIView):
    @extend_schema(responses={200: s.SwissSettingsSerializer, **ERRORS}, summary="Swiss settings")
    def get(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        return Response(s.SwissSettingsSerializer(selectors.swiss_settings_of(tournament)).data)

    @extend_schema(
        request=s.SwissSettingsSerializer,
        responses={200: s.SwissSettingsSerializer, **ERRORS},
        summary="Change Swiss settings (organisers)",
    )
    def patch(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        serializer = s.SwissSettingsSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        settings = swiss.update_swiss_settings(
            actor=request.user, tournament=tournament, changes=dict(serializer.validated_data)
        )
        return Response(s.SwissSettingsSerializer(settings).data)
