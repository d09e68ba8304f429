"""API: a player's page (their events across clubs, ratings with history, head-to-head)
and a club's public results feed (issue 26). Read-only, open to anyone.

A hidden player (``Player.profile_hidden``) answers 404 ``profile_private`` to everyone
but themselves; in the feed their seat stays with a null id and the private name.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.urls import URLPattern, path
from django.utils.http import http_date, quote_etag
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, valid
from core.errors import InvalidInput, NotFound
from seasons.rating import PROVISIONAL_MATCHES
from seasons.selectors import feed
from seasons.selectors import players as selectors
from tournaments.models import Game, Player
from tournaments.selectors.paging import Paging

# --- output shapes (the schema's; the views build plain dicts) --------------------------


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(allow_null=True, help_text="Null: a private player.")
    name = serializers.CharField(help_text="The private name when the player hides their page.")


class MatchRecordSerializer(serializers.Serializer[Any]):
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


class PlayerEventSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    tournament_name = serializers.CharField()
    club = serializers.CharField(help_text="The club's slug.")
    club_name = serializers.CharField()
    date = serializers.DateTimeField(help_text="The tournament's scheduled start.")
    game = serializers.ChoiceField(choices=Game.choices)
    formats = serializers.ListField(
        child=serializers.CharField(), help_text="The stages' kinds, in order."
    )
    finished = serializers.BooleanField()
    team_name = serializers.CharField(allow_blank=True)
    teammate = PlayerRefSerializer(allow_null=True)
    final_place = serializers.IntegerField(allow_null=True, help_text="1: the champion.")
    field_size = serializers.IntegerField(help_text="Entrants who played in the event.")
    record = MatchRecordSerializer(help_text="Over the entrant's confirmed matches, a bye a win.")


class PlayerPageSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    count = serializers.IntegerField(help_text="Events played, in all.")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    events = PlayerEventSerializer(many=True, help_text="Newest first.")


class RatingPointSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    tournament = serializers.IntegerField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField(help_text="Rated matches so far.")


class PlayerRatingSerializer(serializers.Serializer[Any]):
    club = serializers.CharField(help_text="The club's slug.")
    club_name = serializers.CharField()
    game = serializers.ChoiceField(choices=Game.choices)
    rating = serializers.FloatField(help_text="The conservative mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField(
        help_text=f"Fewer than {PROVISIONAL_MATCHES} matches rated: the figure is a guess."
    )
    history = RatingPointSerializer(many=True, help_text="After each rated match, in order.")


class PlayerRatingsSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ratings = PlayerRatingSerializer(many=True)


class MeetingSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    tournament = serializers.IntegerField()
    tournament_name = serializers.CharField()
    date = serializers.DateTimeField()
    round = serializers.CharField(help_text="The round's title, in the reader's language.")
    table = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["win", "loss", "draw"], help_text="The player's.")
    place = serializers.IntegerField()
    opponent_place = serializers.IntegerField()


class HeadToHeadSerializer(serializers.Serializer[Any]):
    player = PlayerRefSerializer()
    opponent = PlayerRefSerializer()
    record = MatchRecordSerializer(help_text="The player's, against the opponent.")
    matches = MeetingSerializer(many=True, help_text="Newest first.")


class FeedSeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="The seat, from 0.")
    place = serializers.IntegerField(allow_null=True, help_text="1 best; a draw shares 1.")
    score = serializers.IntegerField(allow_null=True, help_text="Over every game.")
    round_wins = serializers.IntegerField(allow_null=True)
    game_scores = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seat's score in each game."
    )
    team_name = serializers.CharField(allow_null=True)
    players = PlayerRefSerializer(many=True)


class FeedTournamentSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=Game.choices)
    date = serializers.DateTimeField()


class FeedMatchSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The match's id: pass it as `after`.")
    tournament = FeedTournamentSerializer()
    round = serializers.IntegerField(help_text="The round's number in its tournament.")
    round_code = serializers.CharField(allow_blank=True, help_text="A bracket round's code.")
    table = serializers.IntegerField()
    confirmed_at = serializers.DateTimeField(allow_null=True)
    draw = serializers.BooleanField()
    seats = FeedSeatSerializer(many=True)


class FeedSerializer(serializers.Serializer[Any]):
    results = FeedMatchSerializer(many=True, help_text="In play order.")
    next_after = serializers.IntegerField(
        allow_null=True, help_text="Pass as `after` for the next page; null: the last page."
    )
    as_of = serializers.DateTimeField(help_text="Pass as `since` next time: what is new.")


# --- input ------------------------------------------------------------------------------


class NoInput(StrictInput):
    """No query parameter is taken (a misspelt one is refused by name)."""


class EventsQuery(StrictInput):
    page = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False)
    page_size = serializers.IntegerField(min_value=1, max_value=100, required=False)


class FeedQuery(StrictInput):
    game = serializers.ChoiceField(choices=Game.choices, required=False)
    after = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, required=False, help_text="A match id: what follows."
    )
    since = serializers.DateTimeField(required=False, help_text="Confirmed at or after.")
    limit = serializers.IntegerField(min_value=1, max_value=feed.MAX_LIMIT, required=False)


def _person(who: selectors.PersonRef | None) -> dict[str, Any] | None:
    return None if who is None else {"id": who.id, "name": who.name}


def _record(record: selectors.Record) -> dict[str, int]:
    return {"wins": record.wins, "losses": record.losses, "draws": record.draws}


def _visible(request: Request, pk: int) -> Player:
    """Player ``pk`` if the reader may see their page: 404 ``not_found`` or
    ``profile_private`` otherwise."""
    player = selectors.player_by_id(pk)
    if player is None:
        raise NotFound(gettext("No such player."))
    if not selectors.may_see(request.user, player):
        raise NotFound(gettext("This player's page is private."), code="profile_private")
    return player


class PlayerView(APIView):
    """A player and the events they played in any club of the site, newest first."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[EventsQuery],
        responses={200: PlayerPageSerializer, **ERRORS},
        summary="A player and their events",
    )
    def get(self, request: Request, pk: int) -> Response:
        query = valid(EventsQuery, request.query_params.dict())
        player = _visible(request, pk)
        size = query.get("page_size", selectors.EVENTS_PAGE)
        page = selectors.events_page(player.pk, Paging(page=query.get("page", 1)), size=size)
        events = [
            {
                "tournament": e.tournament_id,
                "tournament_name": e.tournament_name,
                "club": e.club_slug,
                "club_name": e.club_name,
                "date": e.date.isoformat(),
                "game": e.game,
                "formats": list(e.formats),
                "finished": e.finished,
                "team_name": e.team_name,
                "teammate": _person(e.teammate),
                "final_place": e.final_place,
                "field_size": e.field_size,
                "record": _record(e.record),
            }
            for e in page.rows
        ]
        return Response(
            {
                "id": player.pk,
                "name": player.display_name,
                "count": page.total,
                "page": page.number,
                "pages": page.count,
                "events": events,
            }
        )


class PlayerRatingsView(APIView):
    """A player's ratings per club and game, each with its history in play order."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PlayerRatingsSerializer, **ERRORS}, summary="A player's ratings")
    def get(self, request: Request, pk: int) -> Response:
        valid(NoInput, request.query_params.dict())
        player = _visible(request, pk)
        ratings = [
            {
                "club": r.club_slug,
                "club_name": r.club_name,
                "game": r.game,
                "rating": r.rating,
                "mu": r.mu,
                "sigma": r.sigma,
                "matches": r.matches,
                "provisional": r.provisional,
                "history": [
                    {
                        "match": p.match_id,
                        "tournament": p.tournament_id,
                        "rating": p.rating,
                        "mu": p.mu,
                        "sigma": p.sigma,
                        "matches": p.matches,
                    }
                    for p in r.history
                ],
            }
            for r in selectors.ratings_of(player.pk)
        ]
        return Response({"id": player.pk, "name": player.display_name, "ratings": ratings})


class HeadToHeadView(APIView):
    """Every confirmed match between two players, newest first, and the first's record."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={200: HeadToHeadSerializer, **ERRORS}, summary="Two players' head-to-head"
    )
    def get(self, request: Request, pk: int, other: int) -> Response:
        valid(NoInput, request.query_params.dict())
        player, opponent = _visible(request, pk), _visible(request, other)
        found = selectors.meetings(player.pk, opponent.pk)
        matches = [
            {
                "match": m.match_id,
                "tournament": m.tournament_id,
                "tournament_name": m.tournament_name,
                "date": m.date.isoformat(),
                "round": m.round_title,
                "table": m.table,
                "outcome": m.outcome,
                "place": m.place,
                "opponent_place": m.their_place,
            }
            for m in found
        ]
        return Response(
            {
                "player": {"id": player.pk, "name": player.display_name},
                "opponent": {"id": opponent.pk, "name": opponent.display_name},
                "record": _record(selectors.record_of(found)),
                "matches": matches,
            }
        )


class ClubResultsView(APIView):
    """A club's public results feed: every confirmed match of its tournaments in play
    order, for outside rankers to import (docs/api.md, "The club's results feed").
    ``after=<match id>`` pages on; ``since=<as_of>`` asks only what was confirmed or
    corrected since. ``ETag`` (the answer's hash) and ``Last-Modified`` (the club's latest
    confirmation); ``If-None-Match`` answers 304."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            FeedQuery,
            OpenApiParameter("club_slug", str, OpenApiParameter.PATH),
        ],
        responses={200: FeedSerializer, 304: None, **ERRORS},
        summary="A club's results feed",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        query = valid(FeedQuery, request.query_params.dict())
        club = selectors.club_by_slug(club_slug)
        if club is None:
            raise NotFound(gettext("No such club."))
        after = None
        if "after" in query:
            after = feed.play_key(club.pk, query["after"])
            if after is None:
                raise InvalidInput(
                    gettext("%(match)d is not a match of this club.") % {"match": query["after"]},
                    code="unknown_match",
                    field="after",
                )
        page = feed.results_page(
            club.pk,
            game=query.get("game"),
            after=after,
            since=query.get("since"),
            limit=query.get("limit", feed.DEFAULT_LIMIT),
        )
        body = {
            "results": [_feed_match(m) for m in page.matches],
            "next_after": page.next_after,
            "as_of": page.as_of.isoformat(),
        }
        # The tag of what the answer says, not of when it was asked (``as_of`` moves).
        said = json.dumps([body["results"], body["next_after"]], sort_keys=True, default=str)
        etag = quote_etag(hashlib.sha256(said.encode()).hexdigest()[:32])
        headers = {"ETag": etag, "Cache-Control": "public, max-age=60"}
        newest = feed.newest_confirmation(club.pk)
        if newest is not None:
            headers["Last-Modified"] = http_date(newest.timestamp())
        if etag in request.headers.get("If-None-Match", ""):
            return Response(status=304, headers=headers)
        return Response(body, headers=headers)


def _feed_match(match: feed.FeedMatch) -> dict[str, Any]:
    return {
        "id": match.id,
        "tournament": {
            "id": match.tournament_id,
            "name": match.tournament_name,
            "game": match.game,
            "date": match.date.isoformat(),
        },
        "round": match.round,
        "round_code": match.round_code,
        "table": match.table,
        "confirmed_at": match.confirmed_at.isoformat() if match.confirmed_at else None,
        "draw": match.draw,
        "seats": [
            {
                "position": seat.position,
                "place": seat.place,
                "score": seat.score,
                "round_wins": seat.round_wins,
                "game_scores": seat.game_scores,
                "team_name": seat.team_name,
                "players": [_person(p) for p in seat.players],
            }
            for seat in match.seats
        ],
    }


urlpatterns: list[URLPattern] = [
    path("players/<int:pk>/", PlayerView.as_view(), name="api-player"),
    path("players/<int:pk>/ratings/", PlayerRatingsView.as_view(), name="api-player-ratings"),
    path(
        "players/<int:pk>/head-to-head/<int:other>/",
        HeadToHeadView.as_view(),
        name="api-player-head-to-head",
    ),
    path("clubs/<slug:club_slug>/results/", ClubResultsView.as_view(), name="api-club-results"),
]
