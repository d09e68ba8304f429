"""API: standings, the event feed for club bots, and CSV/JSON exports."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, query_int
from core.errors import NotFound
from core.web import csv_response
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.api.common import round_of, tournament_for
from tournaments.selectors import exports


class StandingsView(APIView):
    @extend_schema(responses={200: s.StandingsSerializer, **ERRORS}, summary="Standings")
    def get(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        return Response(exports.standings_data(selectors.tournament_standings(tournament)))


class EventFeedView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="Only events after this id")],
        responses={200: s.EventSerializer(many=True), **ERRORS},
        summary="The tournament's event feed (round paired, result confirmed, time)",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        # A hidden profile's figures withheld from the per-player kinds (issue 26).
        events = selectors.feed_events(tournament, after=query_int(request, "after"))
        # One EventSerializer per event: ``EventSerializer(events, many=True)``, spelled out.
        return Response(serializers.ListSerializer(events, child=s.EventSerializer()).data)


class ExportView(APIView):
    """``pairings`` (of a round, default the latest) or ``standings``, as CSV or JSON."""

    @extend_schema(
        parameters=[OpenApiParameter("round", int, description="Pairings of this round")],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
            **ERRORS,
        },
        summary="Export pairings or standings (CSV or JSON)",
    )
    def get(self, request: Request, pk: str, what: str, fmt: str) -> HttpResponse:
        tournament = tournament_for(request, pk)
        if what == "standings":
            table = selectors.tournament_standings(tournament)
            header, rows = exports.standings_rows(table)
            data: Any = exports.standings_data(table)
        else:
            number = query_int(request, "round")
            rnd = (
                round_of(tournament, number)
                if number is not None
                else selectors.current_round(tournament)
            )
            if rnd is None:
                raise NotFound(gettext("No round has been paired yet."), code="no_round")
            header, rows = exports.pairing_rows(rnd)
            data = {
                "round": rnd.number,
                "pairings": [dict(zip(header, r, strict=True)) for r in rows],
            }
        if fmt == "json":
            return Response(data)
        return csv_response(f"tournament-{tournament.pk}-{what}.csv", header, rows)
