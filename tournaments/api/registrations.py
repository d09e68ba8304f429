"""API: registrations (register, withdraw, check in), drops, re-adds, late entrants."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, path_int, valid
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.api.common import tournament_for
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.services import entrants


class RegistrationViewSet(viewsets.GenericViewSet[Registration]):
    """A tournament's registrations: register, withdraw, check in."""

    serializer_class = s.RegistrationSerializer
    filterset_fields = ["status"]

    def tournament(self) -> Tournament:
        qs = selectors.visible_tournaments(self.request.user)
        return get_object_or_404(qs, pk=path_int(self.kwargs["tournament_pk"]))

    def registration(self, pk: str) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player", "tournament__club"),
            tournament=self.tournament(),
            pk=path_int(pk),
        )

    def get_queryset(self) -> QuerySet[Registration]:
        if getattr(self, "swagger_fake_view", False):  # schema generation has no URL kwargs
            return Registration.objects.none()
        return selectors.tournament_registrations(self.tournament())

    @extend_schema(
        responses={200: s.RegistrationSerializer(many=True), **ERRORS},
        summary="List a tournament's registrations",
    )
    def list(self, request: Request, tournament_pk: str) -> Response:
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(s.RegistrationSerializer(page, many=True).data)

    @extend_schema(
        request=s.RegistrationInput,
        responses={201: s.RegistrationSerializer, **ERRORS},
        summary="Register yourself (or, as an organiser, a player by username)",
    )
    def create(self, request: Request, tournament_pk: str) -> Response:
        data = valid(s.RegistrationInput, request.data)
        tournament = self.tournament()
        if data.get("username"):
            registration = entrants.add_player(
                actor=request.user, tournament=tournament, username=data["username"]
            )
        else:
            registration = entrants.register(actor=request.user, tournament=tournament)
        return Response(s.RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Withdraw a registration (yours, or any as an organiser)",
    )
    def destroy(self, request: Request, tournament_pk: str, pk: str) -> Response:
        registration = entrants.withdraw_entry(
            actor=request.user, registration=self.registration(pk)
        )
        return Response(s.RegistrationSerializer(registration).data)

    @extend_schema(
        request=None,
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Check in (yourself during the window, or any as an organiser)",
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, tournament_pk: str, pk: str) -> Response:
        registration = entrants.check_in_entry(
            actor=request.user, registration=self.registration(pk)
        )
        return Response(s.RegistrationSerializer(registration).data)


class EntrantStatusSerializer(serializers.Serializer[Any]):
    registration = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RegistrationStatus.choices)


class LateEntrantSerializer(serializers.Serializer[Any]):
    registration = serializers.IntegerField()
    joined_round = serializers.IntegerField(help_text="The first round the entrant is paired in.")


class DropView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: EntrantStatusSerializer, **ERRORS},
        summary="Drop from a running tournament (yourself, or anyone as organiser)",
    )
    def post(self, request: Request, tournament_pk: str, pk: str) -> Response:
        reg = get_object_or_404(
            Registration, tournament=tournament_for(request, tournament_pk), pk=path_int(pk)
        )
        reg = entrants.drop_player(actor=request.user, registration=reg)
        return Response({"registration": reg.pk, "status": reg.status})


class ReaddView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: EntrantStatusSerializer, **ERRORS},
        summary="Undo a drop (organisers)",
    )
    def post(self, request: Request, tournament_pk: str, pk: str) -> Response:
        reg = get_object_or_404(
            Registration, tournament=tournament_for(request, tournament_pk), pk=path_int(pk)
        )
        reg = entrants.readd_player(actor=request.user, registration=reg)
        return Response({"registration": reg.pk, "status": reg.status})


class LateEntrantView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=s.UsernameInput,
        responses={201: LateEntrantSerializer, **ERRORS},
        summary="Add a late entrant to a running tournament (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        data = valid(s.UsernameInput, request.data)
        reg = entrants.add_late_entrant(
            actor=request.user, tournament=tournament_for(request, pk), username=data["username"]
        )
        return Response(
            {"registration": reg.pk, "joined_round": reg.joined_round},
            status=status.HTTP_201_CREATED,
        )
