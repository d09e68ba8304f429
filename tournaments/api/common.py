"""What the API views share: finding what the user may see (a 404 otherwise)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import path_int
from core.errors import NotAllowed, NotFound
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
        raise NotFound(gettext("No such match."))
    return match


@contextmanager
def hidden_unless_visible(request: Request, match_id: int) -> Iterator[None]:
    """Around a result post: a refusal for a match the user may not see is a 404, as if it
    did not exist (it must not tell them it does). Checked only on refusal: a player of the
    match may always see it, so the posts that succeed (nearly all) spend no query on it;
    the services refuse a non-player before reading anything of the match's result."""
    try:
        yield
    except (NotAllowed, NotFound):
        if not selectors.match_visible_to(request.user, match_id):
            raise NotFound(gettext("No such match.")) from None
        raise


def visible_match_id(request: Request, pk: str) -> int:
    """The match's id if the user may see it (else 404), for the posts: the service locks
    and reads the match itself, so loading it here too would be wasted."""
    match_id = path_int(pk)
    if not selectors.match_visible_to(request.user, match_id):
        raise NotFound(gettext("No such match."))
    return match_id


def result_response(match: Match) -> Response:
    """A result post's answer from the match the service returned (read under its lock,
    with its entrants and, mostly, its current reports; else those are read)."""
    if not hasattr(match, "current_reports"):
        selectors.with_current_reports(match)
    return Response(s.MatchDetailSerializer(match).data)
