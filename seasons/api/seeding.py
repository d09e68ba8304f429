"""API: seeding a tournament by the club's ratings (organisers)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, path_int
from seasons.services import seeding
from tournaments import selectors


class SeedSerializer(serializers.Serializer[Any]):
    registration = serializers.IntegerField()
    seed = serializers.IntegerField(
        allow_null=True, help_text="The rating's ordinal x 100, rounded; null: unrated."
    )


class SeededSerializer(serializers.Serializer[Any]):
    rated = serializers.IntegerField()
    unrated = serializers.IntegerField()
    seeds = SeedSerializer(many=True)


class SeedByRatingView(APIView):
    """Each active entrant's seed from the club's current rating of the tournament's game
    (a team: its two members' mean; unrated entrants last): what a bracket that is the
    first stage is drawn from, and a Swiss round 1 paired by rating pairs by. Refused
    (``seeding_closed``) once a round is paired or the first stage's seeds are fixed."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: SeededSerializer, **ERRORS},
        summary="Seed by the club's ratings (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=path_int(pk))
        done = seeding.seed_by_club_rating(actor=request.user, tournament=tournament)
        return Response(
            {
                "rated": done.rated,
                "unrated": done.unrated,
                "seeds": [{"registration": reg, "seed": seed} for reg, seed in done.seeds.items()],
            }
        )


urlpatterns: list[URLPattern] = [
    path(
        "tournaments/<int:pk>/seed-by-rating/",
        SeedByRatingView.as_view(),
        name="api-tournament-seed-by-rating",
    ),
]
