"""What the API views share: finding what the user may see (a 404 otherwise)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import path_int
from core.errors import NotFound
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.models import Match, Round, Tournament


def tournament_for(request: Request, pk: str) -> Tournament:
    return get_object_or_404(selectors.visible_tournaments(request.user), pk=path_int(pk))


def round_of(tournament: Tournament, number: str) -> Round:
    return get_object_or_404(
        Round.objects.select_related("stage"), tournament=tournament, number=path_int(number)
    )


def visible_match(request: Request, pk: str) -> Match:
    match = selectors.match_for_page(path_int(pk))
    visible = selectors.visible_tournaments(request.user)
    if match is None or not visible.filter(pk=match.round.tournament_id).exists():
        raise NotFound("No such match.")
    return match


def match_response(match: Match, code: int = status.HTTP_200_OK) -> Response:
    fresh = selectors.match_for_page(match.pk)
    return Response(s.MatchDetailSerializer(fresh).data, status=code)
