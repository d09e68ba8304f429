"""API: rounds and their pairings; the round clock and repairs (organisers)."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, valid
from core.errors import InvalidInput
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.api.common import round_of, tournament_for
from tournaments.models import Registration, Round
from tournaments.services import round_clock, swiss


class RoundListView(APIView):
    @extend_schema(responses={200: s.RoundSerializer(many=True), **ERRORS}, summary="List rounds")
    def get(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        return Response(s.RoundSerializer(selectors.tournament_rounds(tournament), many=True).data)

    @extend_schema(
        request=None,
        responses={201: s.RoundDetailSerializer, **ERRORS},
        summary="Pair the next round (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        rnd = swiss.pair_next_round(actor=request.user, tournament=tournament)
        return Response(s.RoundDetailSerializer(rnd).data, status=status.HTTP_201_CREATED)


class RoundDetailView(APIView):
    @extend_schema(responses={200: s.RoundDetailSerializer, **ERRORS}, summary="A round's pairings")
    def get(self, request: Request, pk: str, number: str) -> Response:
        rnd = round_of(tournament_for(request, pk), number)
        return Response(s.RoundDetailSerializer(rnd).data)


def _registrations(rnd: Round, data: dict[str, int]) -> tuple[Registration, Registration]:
    found = selectors.registrations_by_id(rnd.tournament, [data["first"], data["second"]])
    for key in ("first", "second"):
        if data[key] not in found:
            raise InvalidInput(
                gettext("No registration %(registration)s in this tournament.")
                % {"registration": data[key]},
                code="unknown_registration",
                field=key,
            )
    return found[data["first"]], found[data["second"]]


class RoundStartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=s.StartRoundInput,
        responses={200: s.RoundDetailSerializer, **ERRORS},
        summary="Start the round's clock (organisers)",
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        rnd = round_of(tournament_for(request, pk), number)
        data = valid(s.StartRoundInput, request.data)
        rnd = round_clock.start_round(actor=request.user, round=rnd, minutes=data.get("minutes"))
        return Response(s.RoundDetailSerializer(rnd).data)


class RoundExtendView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=s.ExtendInput,
        responses={200: s.RoundDetailSerializer, **ERRORS},
        summary="Give the round more time (judges)",
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        rnd = round_of(tournament_for(request, pk), number)
        data = valid(s.ExtendInput, request.data)
        rnd = round_clock.extend_round(actor=request.user, round=rnd, minutes=data["minutes"])
        return Response(s.RoundDetailSerializer(rnd).data)


class RoundRepairView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: s.RoundDetailSerializer, **ERRORS},
        summary="Pair an unstarted round again (organisers)",
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        rnd = swiss.repair_round(
            actor=request.user, round=round_of(tournament_for(request, pk), number)
        )
        return Response(s.RoundDetailSerializer(rnd).data)


class RoundSwapView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=s.SwapInput,
        responses={200: s.RoundDetailSerializer, **ERRORS},
        summary="Swap two players' tables before the round starts (organisers)",
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        rnd = round_of(tournament_for(request, pk), number)
        first, second = _registrations(rnd, valid(s.SwapInput, request.data))
        rnd = swiss.swap_players(actor=request.user, round=rnd, first=first, second=second)
        return Response(s.RoundDetailSerializer(rnd).data)
