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


def round_of(tournament: Tournament, number: str | int) -> Round:
    """The round by its number (from the path, or already parsed), or a 404."""
    number = number if isinstance(number, int) else path_int(number)
    return get_object_or_404(
        Round.objects.select_related("stage"), tournament=tournament, number=number
    )


def visible_match(request: Request, pk: str) -> Match:
    """The match with what its detail shows, if the user may see its tournament (else 404)."""
    match_id = visible_match_id(request, pk)
    match = selectors.match_for_page(match_id)
    if match is None:  # deleted since (a re-pair)
        raise NotFound("No such match.")
    return match


def visible_match_id(request: Request, pk: str) -> int:
    """The match's id if the user may see it (else 404), for the posts: the service locks
    and reads the match itself, so loading it here too would be wasted."""
    match_id = path_int(pk)
    if not selectors.match_visible_to(request.user, match_id):
        raise NotFound("No such match.")
    return match_id


def match_response(match: Match | int, code: int = status.HTTP_200_OK) -> Response:
    fresh = selectors.match_for_page(match if isinstance(match, int) else match.pk)
    return Response(s.MatchDetailSerializer(fresh).data, status=code)
