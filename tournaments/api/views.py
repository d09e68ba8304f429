"""API views: parse input, call one service or selector, render. No rules live here."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.api import serializers as s
from tournaments.api.errors import ErrorSerializer
from tournaments.api.filters import TournamentFilter
from tournaments.errors import NotAllowed
from tournaments.models import Club, Membership, Registration, Tournament

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input"),
    401: OpenApiResponse(ErrorSerializer, description="Not logged in"),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed"),
    404: OpenApiResponse(ErrorSerializer, description="Not found"),
    409: OpenApiResponse(ErrorSerializer, description="Not possible in the current state"),
}


def _valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, **ERRORS}, summary="Who am I")
    def get(self, request: Request) -> Response:
        player = services.ensure_player(request.user)
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


@extend_schema_view(
    list=extend_schema(summary="List clubs"),
    retrieve=extend_schema(summary="A club", responses={200: s.ClubSerializer, **ERRORS}),
)
class ClubViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = s.ClubSerializer
    lookup_field = "slug"
    search_fields = ["name"]
    ordering_fields = ["name", "created_at"]

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.club_list().order_by("name")

    @extend_schema(
        request=s.ClubInput,
        responses={201: s.ClubSerializer, **ERRORS},
        summary="Create a club (you become its owner)",
    )
    def create(self, request: Request) -> Response:
        data = _valid(s.ClubInput, request.data)
        club = services.create_club(actor=request.user, **data)
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubMemberViewSet(viewsets.GenericViewSet):
    """Members of a club: anyone may list; only owners add, change roles or remove."""

    serializer_class = s.MembershipSerializer
    pagination_class = None

    def club(self) -> Club:
        return get_object_or_404(Club, slug=self.kwargs["club_slug"])

    def get_queryset(self):  # type: ignore[no-untyped-def]
        if getattr(self, "swagger_fake_view", False):  # schema generation has no URL kwargs
            return Membership.objects.none()
        return selectors.club_members(self.club())

    @extend_schema(
        responses={200: s.MembershipSerializer(many=True), **ERRORS},
        summary="List a club's members",
    )
    def list(self, request: Request, club_slug: str) -> Response:
        return Response(s.MembershipSerializer(self.get_queryset(), many=True).data)

    @extend_schema(
        request=s.MemberInput,
        responses={201: s.MembershipSerializer, **ERRORS},
        summary="Add a member (owners)",
    )
    def create(self, request: Request, club_slug: str) -> Response:
        data = _valid(s.MemberInput, request.data)
        membership = services.add_member(actor=request.user, club=self.club(), **data)
        return Response(s.MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.RoleInput,
        responses={200: s.MembershipSerializer, **ERRORS},
        summary="Change a member's role (owners)",
    )
    def partial_update(self, request: Request, club_slug: str, pk: str) -> Response:
        membership = get_object_or_404(Membership, club__slug=club_slug, pk=_int(pk))
        data = _valid(s.RoleInput, request.data)
        membership = services.set_role(actor=request.user, membership=membership, role=data["role"])
        return Response(s.MembershipSerializer(membership).data)

    @extend_schema(responses={204: None, **ERRORS}, summary="Remove a member (owners, or yourself)")
    def destroy(self, request: Request, club_slug: str, pk: str) -> Response:
        membership = get_object_or_404(Membership, club__slug=club_slug, pk=_int(pk))
        services.remove_member(actor=request.user, membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=s.InvitationInput,
        responses={201: None, **ERRORS},
        summary="Invite someone by e-mail (owners)",
    )
    @action(detail=False, methods=["post"])
    def invite(self, request: Request, club_slug: str) -> Response:
        data = _valid(s.InvitationInput, request.data)
        services.invite_member(actor=request.user, club=self.club(), **data)
        return Response(
            {"detail": f"Invitation sent to {data['email']}."}, status=status.HTTP_201_CREATED
        )


def _int(value: str) -> int:
    from django.http import Http404

    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404 from None


@extend_schema_view(
    list=extend_schema(summary="List tournaments"),
    retrieve=extend_schema(
        summary="A tournament", responses={200: s.TournamentSerializer, **ERRORS}
    ),
)
class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = s.TournamentSerializer
    filterset_class = TournamentFilter
    search_fields = ["name", "club__name"]
    ordering_fields = ["scheduled_start", "name", "created_at"]

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.visible_tournaments(self.request.user).order_by("-scheduled_start", "id")

    def get_object(self) -> Tournament:
        return get_object_or_404(self.get_queryset(), pk=_int(self.kwargs["pk"]))

    @extend_schema(
        request=s.TournamentInput,
        responses={201: s.TournamentSerializer, **ERRORS},
        summary="Create a tournament (club owners and organisers)",
    )
    def create(self, request: Request) -> Response:
        data = _valid(s.TournamentInput, request.data)
        club = get_object_or_404(Club, slug=data.pop("club"))
        tournament = services.create_tournament(actor=request.user, club=club, **data)
        return Response(self._render(tournament), status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.TournamentUpdateInput,
        responses={200: s.TournamentSerializer, **ERRORS},
        summary="Edit a tournament (club owners and organisers)",
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        data = _valid(s.TournamentUpdateInput, request.data)
        tournament = services.update_tournament(
            actor=request.user, tournament=tournament, changes=data
        )
        return Response(self._render(tournament))

    @extend_schema(
        request=None,
        responses={200: s.TournamentSerializer, **ERRORS},
        summary="Publish a draft: open registration",
    )
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str) -> Response:
        tournament = services.publish_tournament(actor=request.user, tournament=self.get_object())
        return Response(self._render(tournament))

    def _render(self, tournament: Tournament) -> dict[str, Any]:
        fresh = selectors.visible_tournaments(self.request.user).get(pk=tournament.pk)
        return s.TournamentSerializer(fresh).data


class RegistrationViewSet(viewsets.GenericViewSet):
    """A tournament's registrations: register, withdraw, check in."""

    serializer_class = s.RegistrationSerializer
    filterset_fields = ["status"]

    def tournament(self) -> Tournament:
        qs = selectors.visible_tournaments(self.request.user)
        return get_object_or_404(qs, pk=_int(self.kwargs["tournament_pk"]))

    def registration(self, pk: str) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player", "tournament__club"),
            tournament=self.tournament(),
            pk=_int(pk),
        )

    def get_queryset(self):  # type: ignore[no-untyped-def]
        if getattr(self, "swagger_fake_view", False):  # schema generation has no URL kwargs
            return Registration.objects.none()
        return selectors.tournament_registrations(self.tournament())

    @extend_schema(
        responses={200: s.RegistrationSerializer(many=True), **ERRORS},
        summary="List a tournament's registrations",
    )
    def list(self, request: Request, tournament_pk: str) -> Response:
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(s.RegistrationSerializer(page, many=True).data)

    @extend_schema(
        request=s.RegistrationInput,
        responses={201: s.RegistrationSerializer, **ERRORS},
        summary="Register yourself (or, as an organiser, a player by username)",
    )
    def create(self, request: Request, tournament_pk: str) -> Response:
        data = _valid(s.RegistrationInput, request.data)
        tournament = self.tournament()
        if data.get("username"):
            registration = services.add_player(
                actor=request.user, tournament=tournament, username=data["username"]
            )
        else:
            registration = services.register(actor=request.user, tournament=tournament)
        return Response(s.RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Withdraw a registration (yours, or any as an organiser)",
    )
    def destroy(self, request: Request, tournament_pk: str, pk: str) -> Response:
        registration = self.registration(pk)
        if registration.player.user_id == request.user.pk:
            registration = services.unregister(actor=request.user, registration=registration)
        elif selectors.can_manage_club(request.user, registration.tournament.club):
            registration = services.remove_player(actor=request.user, registration=registration)
        else:
            raise NotAllowed(
                "You can only change your own registration.", code="not_your_registration"
            )
        return Response(s.RegistrationSerializer(registration).data)

    @extend_schema(
        request=None,
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Check in (yourself during the window, or any as an organiser)",
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, tournament_pk: str, pk: str) -> Response:
        registration = self.registration(pk)
        if registration.player.user_id == request.user.pk:
            registration = services.check_in(actor=request.user, registration=registration)
        elif selectors.can_manage_club(request.user, registration.tournament.club):
            registration = services.check_in_player(actor=request.user, registration=registration)
        else:
            raise NotAllowed("You can only check yourself in.", code="not_your_registration")
        return Response(s.RegistrationSerializer(registration).data)
