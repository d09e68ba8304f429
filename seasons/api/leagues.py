"""API: a club's seasons, their rules and leaderboards (issue 26).

- ``GET /api/v1/clubs/{slug}/seasons/``: the club's seasons with their rules; ``POST``
  (organisers): a new season;
- ``GET /api/v1/clubs/{slug}/seasons/{id}/``: one season; ``PATCH`` (organisers): any of
  its rules; ``DELETE`` (organisers);
- ``POST .../seasons/{id}/left-out/`` (organisers): an event left out, or counted again;
- ``POST .../seasons/{id}/finals/`` (organisers): the finals event made with the top N
  registered (``{"name", "scheduled_start", "game"}``);
- ``GET .../seasons/{id}/leaderboard/``: the standings, a page at a time (``page``,
  ``page_size``); a hidden profile's row keeps its place with no player id and the name
  withheld.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, path_int, valid
from seasons import points
from seasons.models import Season, SeasonStanding
from seasons.selectors import leagues as selectors
from seasons.services import leagues
from tournaments.models import Club, Game, StageKind, Tournament


class SeasonSerializer(serializers.ModelSerializer[Season]):
    club = serializers.CharField(source="club.slug", read_only=True)
    excluded = serializers.SerializerMethodField(help_text="The events left out, by id.")

    class Meta:
        model = Season
        fields = ["id", "club", *leagues.RULE_FIELDS, "excluded", "computed_at"]

    def get_excluded(self, obj: Season) -> list[int]:
        return sorted(t.pk for t in obj.excluded.all())


class SeasonInput(StrictInput):
    """A season's rules: every number bounded (``seasons.points``)."""

    name = serializers.CharField(max_length=points.MAX_NAME)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(help_text="The last day, included.")
    game = serializers.ChoiceField(
        choices=Game.choices, allow_blank=True, required=False, help_text="Empty: every game."
    )
    stage_kind = serializers.ChoiceField(
        choices=StageKind.choices,
        allow_blank=True,
        required=False,
        help_text="The format of an event's first stage; empty: every format.",
    )
    placement_points = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=points.MAX_PLACE_POINTS),
        max_length=points.MAX_PLACES,
        required=False,
        help_text="Points for 1st, 2nd, ... place.",
    )
    win_points = serializers.IntegerField(
        min_value=0, max_value=points.MAX_MATCH_POINTS, required=False
    )
    draw_points = serializers.IntegerField(
        min_value=0, max_value=points.MAX_MATCH_POINTS, required=False
    )
    attendance_points = serializers.IntegerField(
        min_value=0, max_value=points.MAX_MATCH_POINTS, required=False
    )
    best_of = serializers.IntegerField(
        min_value=1,
        max_value=points.MAX_EVENTS,
        allow_null=True,
        required=False,
        help_text="Only each player's best N events count; null: all.",
    )
    team_events = serializers.BooleanField(
        required=False, help_text="Team events count for each member (else not at all)."
    )
    qualifiers = serializers.IntegerField(
        min_value=1,
        max_value=points.MAX_QUALIFIERS,
        allow_null=True,
        required=False,
        help_text="The top N go to the finals; null: no finals.",
    )


class LeftOutInput(StrictInput):
    tournament = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    left_out = serializers.BooleanField(help_text="True: leave it out; false: count it again.")


class LeaderboardQuery(StrictInput):
    page = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False)
    page_size = serializers.IntegerField(min_value=1, max_value=500, required=False)


class StandingSerializer(serializers.ModelSerializer[SeasonStanding]):
    player = serializers.SerializerMethodField(help_text="Null for a hidden profile.")
    name = serializers.SerializerMethodField(help_text="Withheld for a hidden profile.")
    events_counted = serializers.IntegerField(source="counted", read_only=True)
    events_played = serializers.IntegerField(source="played", read_only=True)
    qualified = serializers.SerializerMethodField(help_text="Within the top N to the finals.")

    class Meta:
        model = SeasonStanding
        fields = [
            "place",
            "player",
            "name",
            "points",
            "events_counted",
            "events_played",
            "events_won",
            "best_place",
            "wins",
            "draws",
            "losses",
            "qualified",
        ]

    def get_player(self, obj: SeasonStanding) -> int | None:
        return selectors.shown_as(obj)[0]

    def get_name(self, obj: SeasonStanding) -> str:
        return selectors.shown_as(obj)[1]

    def get_qualified(self, obj: SeasonStanding) -> bool:
        season: Season | None = self.context.get("season")
        return season is not None and season.qualifies(obj.place)


def _club(slug: str) -> Club:
    return get_object_or_404(Club.objects.only("pk", "slug", "name"), slug=slug)


def _season(slug: str, pk: str) -> Season:
    season = selectors.season_of(slug, path_int(pk))
    if season is None:
        raise Http404
    return season


def _shown(season_id: int) -> Season:
    return Season.objects.select_related("club").prefetch_related("excluded").get(pk=season_id)


class ClubSeasonsView(APIView):
    @extend_schema(
        responses={200: SeasonSerializer(many=True), **ERRORS}, summary="A club's seasons"
    )
    def get(self, request: Request, club_slug: str) -> Response:
        club = _club(club_slug)
        found = selectors.club_seasons(club.pk).select_related("club").prefetch_related("excluded")
        return Response(SeasonSerializer(found, many=True).data)

    @extend_schema(
        request=SeasonInput,
        responses={201: SeasonSerializer, **ERRORS},
        summary="Create a season (the club's organisers)",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        club = _club(club_slug)
        data = valid(SeasonInput, request.data)
        season = leagues.create_season(actor=request.user, club=club, **data)
        return Response(SeasonSerializer(_shown(season.pk)).data, status=status.HTTP_201_CREATED)


class SeasonView(APIView):
    @extend_schema(responses={200: SeasonSerializer, **ERRORS}, summary="A season and its rules")
    def get(self, request: Request, club_slug: str, pk: str) -> Response:
        return Response(SeasonSerializer(_shown(_season(club_slug, pk).pk)).data)

    @extend_schema(
        request=SeasonInput(partial=True),
        responses={200: SeasonSerializer, **ERRORS},
        summary="Change a season's rules (the club's organisers)",
    )
    def patch(self, request: Request, club_slug: str, pk: str) -> Response:
        season = _season(club_slug, pk)
        serializer = SeasonInput(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        leagues.update_season(
            actor=request.user, season=season, changes=dict(serializer.validated_data)
        )
        return Response(SeasonSerializer(_shown(season.pk)).data)

    @extend_schema(
        responses={204: None, **ERRORS}, summary="Delete a season (the club's organisers)"
    )
    def delete(self, request: Request, club_slug: str, pk: str) -> Response:
        leagues.delete_season(actor=request.user, season=_season(club_slug, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonLeftOutView(APIView):
    @extend_schema(
        request=LeftOutInput,
        responses={200: SeasonSerializer, **ERRORS},
        summary="Leave an event out of a season, or count it again (the club's organisers)",
    )
    def post(self, request: Request, club_slug: str, pk: str) -> Response:
        season = _season(club_slug, pk)
        data = valid(LeftOutInput, request.data)
        tournament = get_object_or_404(Tournament, pk=data["tournament"], club_id=season.club_id)
        leagues.leave_out(
            actor=request.user, season=season, tournament=tournament, left_out=data["left_out"]
        )
        return Response(SeasonSerializer(_shown(season.pk)).data)


class FinalsInput(StrictInput):
    name = serializers.CharField(max_length=120, help_text="The finals event's name.")
    scheduled_start = serializers.DateTimeField()
    game = serializers.ChoiceField(
        choices=Game.choices,
        required=False,
        default="",
        help_text="Empty: the season's game (required when the season counts every game).",
    )


class FinalsSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The finals event (a draft: publish it to open it).")
    name = serializers.CharField()
    game = serializers.CharField()
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Who was registered, in season order."
    )


class SeasonFinalsView(APIView):
    @extend_schema(
        request=FinalsInput,
        responses={201: FinalsSerializer, **ERRORS},
        summary="Create the finals event from the season's top N (the club's organisers)",
    )
    def post(self, request: Request, club_slug: str, pk: str) -> Response:
        season = _season(club_slug, pk)
        data = valid(FinalsInput, request.data)
        tournament = leagues.create_finals(actor=request.user, season=season, **data)
        shown = {
            "id": tournament.pk,
            "name": tournament.name,
            "game": tournament.game,
            "players": selectors.registered_names(tournament.pk),
        }
        return Response(FinalsSerializer(shown).data, status=status.HTTP_201_CREATED)


class SeasonLeaderboardView(generics.ListAPIView[SeasonStanding]):
    """A season's standings, first place first (points, then events won, best place,
    matches won, name): recomputed after each result of its events."""

    serializer_class = StandingSerializer
    queryset = SeasonStanding.objects.none()  # the schema's model; the rows: get_queryset

    def season(self) -> Season:
        found = getattr(self, "_found", None)
        if found is None:
            found = self._found = _season(self.kwargs["club_slug"], self.kwargs["pk"])
        return found

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the schema's generation
            return SeasonStanding.objects.none()
        valid(LeaderboardQuery, self.request.query_params.dict())
        return selectors.leaderboard(self.season().pk)

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if not getattr(self, "swagger_fake_view", False):
            context["season"] = self.season()
        return context

    @extend_schema(
        responses={200: StandingSerializer(many=True), **ERRORS}, summary="A season's leaderboard"
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:club_slug>/seasons/", ClubSeasonsView.as_view(), name="api-club-seasons"),
    path("clubs/<slug:club_slug>/seasons/<str:pk>/", SeasonView.as_view(), name="api-season"),
    path(
        "clubs/<slug:club_slug>/seasons/<str:pk>/left-out/",
        SeasonLeftOutView.as_view(),
        name="api-season-left-out",
    ),
    path(
        "clubs/<slug:club_slug>/seasons/<str:pk>/finals/",
        SeasonFinalsView.as_view(),
        name="api-season-finals",
    ),
    path(
        "clubs/<slug:club_slug>/seasons/<str:pk>/leaderboard/",
        SeasonLeaderboardView.as_view(),
        name="api-season-leaderboard",
    ),
]
