"""API: who you are."""

from __future__ import annotations

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS
from core.auth import require_user
from tournaments.api import serializers as s
from tournaments.services import people


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, **ERRORS}, summary="Who am I")
    def get(self, request: Request) -> Response:
        user = require_user(request.user)  # IsAuthenticated: always an account here
        player = people.ensure_player(user)
        memberships = [
            {"club": m.club.slug, "club_name": m.club.name, "role": m.role}
            for m in user.memberships.select_related("club")
        ]
        return Response(
            {
                "username": user.get_username(),
                "display_name": player.display_name,
                "memberships": memberships,
            }
        )
