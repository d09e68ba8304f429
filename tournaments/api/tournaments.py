"""API: tournaments (list, create, edit, publish), starting and ending them."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, path_int, valid
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.api.common import tournament_for
from tournaments.api.filters import TournamentFilter
from tournaments.models import Club, Tournament, TournamentStatus
from tournaments.services import lifecycle


@extend_schema_view(
    list=extend_schema(
        summary="List tournaments", responses={200: s.TournamentSerializer(many=True), **ERRORS}
    ),
    retrieve=extend_schema(
        summary="A tournament", responses={200: s.TournamentSerializer, **ERRORS}
    ),
)
class TournamentViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Tournament]
):
    serializer_class = s.TournamentSerializer
    filterset_class = TournamentFilter
    search_fields = ["name", "club__name"]
    ordering_fields = ["scheduled_start", "name", "created_at"]

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.visible_tournaments(self.request.user).order_by("-scheduled_start", "id")

    def get_object(self) -> Tournament:
        return get_object_or_404(self.get_queryset(), pk=path_int(self.kwargs["pk"]))

    @extend_schema(
        request=s.TournamentInput,
        responses={201: s.TournamentSerializer, **ERRORS},
        summary="Create a tournament (club owners and organisers)",
    )
    def create(self, request: Request) -> Response:
        data = valid(s.TournamentInput, request.data)
        club = get_object_or_404(Club, slug=data.pop("club"))
        tournament = lifecycle.create_tournament(actor=request.user, club=club, **data)
        return Response(self._render(tournament), status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.TournamentUpdateInput,
        responses={200: s.TournamentSerializer, **ERRORS},
        summary="Edit a tournament (club owners and organisers)",
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        data = valid(s.TournamentUpdateInput, request.data)
        tournament = lifecycle.update_tournament(
            actor=request.user, tournament=tournament, changes=data
        )
        return Response(self._render(tournament))

    @extend_schema(
        request=None,
        responses={200: s.TournamentSerializer, **ERRORS},
        summary="Publish a draft: open registration",
    )
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str) -> Response:
        tournament = lifecycle.publish_tournament(actor=request.user, tournament=self.get_object())
        return Response(self._render(tournament))

    def _render(self, tournament: Tournament) -> dict[str, Any]:
        fresh = selectors.visible_tournaments(self.request.user).get(pk=tournament.pk)
        return s.TournamentSerializer(fresh).data


class TournamentStatusSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=TournamentStatus.choices)


class TournamentStartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: TournamentStatusSerializer, **ERRORS},
        summary="Start now (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = lifecycle.start_tournament_now(
            actor=request.user, tournament=tournament_for(request, pk)
        )
        return Response({"status": tournament.status})


class TournamentFinishView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: TournamentStatusSerializer, **ERRORS},
        summary="End the tournament (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = lifecycle.finish_tournament(
            actor=request.user, tournament=tournament_for(request, pk)
        )
        return Response({"status": tournament.status})
