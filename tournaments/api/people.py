"""API: who you are, and signing in for a token."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions, permissions
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import throttle
from core.api import ERRORS, ErrorSerializer, valid
from core.auth import require_user
from tournaments.api import serializers as s
from tournaments.services import people


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, **ERRORS}, summary="Who am I")
    def get(self, request: Request) -> Response:
        user = require_user(request.user)  # IsAuthenticated: always an account here
        return self._me(user, people.ensure_player(user))

    @extend_schema(
        request=s.MeInput,
        responses={200: s.MeSerializer, **ERRORS},
        summary="Hide or show your player page",
    )
    def patch(self, request: Request) -> Response:
        user = require_user(request.user)
        data = valid(s.MeInput, request.data)
        return self._me(user, people.set_profile_hidden(user=user, hidden=data["profile_hidden"]))

    def _me(self, user: Any, player: Any) -> Response:
        memberships = [
            {"club": m.club.slug, "club_name": m.club.name, "role": m.role}
            for m in user.memberships.select_related("club")
        ]
        return Response(
            {
                "username": user.get_username(),
                "display_name": player.display_name,
                "memberships": memberships,
                "player": player.pk,
                "profile_hidden": player.profile_hidden,
            }
        )


class SignInThrottled(exceptions.Throttled):
    """429 ``too_many_sign_ins`` with ``Retry-After`` (seconds): the exception handler
    sends DRF's ``wait`` as that header."""

    default_code = "too_many_sign_ins"

    def __init__(self, wait: int) -> None:
        super().__init__(detail=throttle.message(wait), code=self.default_code)
        self.wait = wait


class TokenView(ObtainAuthToken):
    """DRF's token sign-in, throttled like the login page (``core.throttle``)."""

    # ObtainAuthToken names DRF's own parsers; the API's are bounded (core.parsers).
    parser_classes = APIView.parser_classes

    @extend_schema(
        summary="Get the API token of an account",
        description=(
            "After too many failed sign-ins for one user name or from one address, every "
            "sign-in for it is refused with 429 `too_many_sign_ins` and a `Retry-After` "
            "header (seconds), even with the right password."
        ),
        request=AuthTokenSerializer,
        responses={
            200: s.TokenSerializer,
            400: ERRORS[400],
            429: OpenApiResponse(ErrorSerializer, description="Too many failed sign-ins"),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = request.data
        username = data.get("username") if hasattr(data, "get") else None
        wait = throttle.retry_after(request, username if isinstance(username, str) else None)
        if wait:
            raise SignInThrottled(wait)
        return super().post(request, *args, **kwargs)
