"""API: a club's ratings of a game (issue 26), best first, a page at a time."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import ERRORS, StrictInput, valid
from seasons.models import Rating
from seasons.rating import PROVISIONAL_MATCHES
from seasons.selectors import ratings as selectors
from seasons.selectors.players import private_name
from tournaments.models import Club, Game


class RatingSerializer(serializers.ModelSerializer[Rating]):
    """A rating; a player who hides their page keeps their row with ``player`` null and
    the private name (``Player.profile_hidden``)."""

    player = serializers.SerializerMethodField(help_text="Null: a private player.")
    name = serializers.SerializerMethodField(
        help_text="The private name when the player hides their page."
    )
    rating = serializers.FloatField(source="ordinal", read_only=True)
    provisional = serializers.SerializerMethodField(
        help_text=f"Fewer than {PROVISIONAL_MATCHES} matches rated: the figure is a guess."
    )

    class Meta:
        model = Rating
        fields = ["player", "name", "rating", "mu", "sigma", "matches", "provisional"]

    def get_player(self, obj: Rating) -> int | None:
        return None if obj.player.profile_hidden else obj.player_id

    def get_name(self, obj: Rating) -> str:
        return private_name() if obj.player.profile_hidden else obj.player.display_name

    def get_provisional(self, obj: Rating) -> bool:
        return obj.matches < PROVISIONAL_MATCHES


class RatingsQuery(StrictInput):
    game = serializers.ChoiceField(choices=Game.choices, help_text="Which game's ratings.")
    page = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False)
    page_size = serializers.IntegerField(min_value=1, max_value=500, required=False)


class ClubRatingsView(generics.ListAPIView[Rating]):
    """A club's ratings of one game (openskill's Plackett-Luce, from every confirmed
    result of the club's tournaments of that game, in play order), best first: ``rating``
    is the conservative ``mu - 3 sigma``."""

    serializer_class = RatingSerializer
    queryset = Rating.objects.none()  # the schema's model; the rows: get_queryset

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the schema's generation
            return Rating.objects.none()
        club = get_object_or_404(Club.objects.only("pk"), slug=self.kwargs["club_slug"])
        query = valid(RatingsQuery, self.request.query_params.dict())
        return selectors.leaderboard(club.pk, query["game"])

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=True, enum=Game.values)],
        responses={200: RatingSerializer(many=True), **ERRORS},
        summary="A club's ratings of a game",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
