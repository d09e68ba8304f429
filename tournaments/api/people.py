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
from tournaments.api import serializers as s
from tournaments.services import people


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, **ERRORS}, summary="Who am I")
    def get(self, request: Request) -> Response:
        player = people.ensure_player(request.user)
        memberships = [
            {"club": m.club.slug, "club_name": m.club.name, "role": m.role}
            for m in request.user.memberships.select_related("club")
        ]
        return Response(
            {
                "username": request.user.get_username(),
                "display_name": player.display_name,
                "memberships": memberships,
            }
        )
