"""API: clubs and their members (owners add, change roles, remove and invite)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import ERRORS, path_int, valid
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.models import Club, Membership
from tournaments.services import clubs


@extend_schema_view(
    list=extend_schema(
        summary="List clubs", responses={200: s.ClubSerializer(many=True), **ERRORS}
    ),
    retrieve=extend_schema(summary="A club", responses={200: s.ClubSerializer, **ERRORS}),
)
class ClubViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Club]):
    serializer_class = s.ClubSerializer
    lookup_field = "slug"
    search_fields = ["name"]
    ordering_fields = ["name", "created_at"]

    def get_queryset(self) -> QuerySet[Club]:
        return selectors.club_list().order_by("name")

    @extend_schema(
        request=s.ClubInput,
        responses={201: s.ClubSerializer, **ERRORS},
        summary="Create a club (you become its owner)",
    )
    def create(self, request: Request) -> Response:
        data = valid(s.ClubInput, request.data)
        club = clubs.create_club(actor=request.user, **data)
        fresh = selectors.club_list().get(pk=club.pk)  # with its counts, as the list shows it
        return Response(s.ClubSerializer(fresh).data, status=status.HTTP_201_CREATED)


class InvitationSentSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="To whom the invitation went, in words.")


class ClubMemberViewSet(viewsets.GenericViewSet[Membership]):
    """Members of a club: anyone may list; only owners add, change roles or remove."""

    serializer_class = s.MembershipSerializer
    pagination_class = None

    def club(self) -> Club:
        return get_object_or_404(Club, slug=self.kwargs["club_slug"])

    def get_queryset(self) -> QuerySet[Membership]:
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
        data = valid(s.MemberInput, request.data)
        membership = clubs.add_member(actor=request.user, club=self.club(), **data)
        return Response(s.MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.RoleInput,
        responses={200: s.MembershipSerializer, **ERRORS},
        summary="Change a member's role (owners)",
    )
    def partial_update(self, request: Request, club_slug: str, pk: str) -> Response:
        membership = get_object_or_404(Membership, club__slug=club_slug, pk=path_int(pk))
        data = valid(s.RoleInput, request.data)
        membership = clubs.set_role(actor=request.user, membership=membership, role=data["role"])
        return Response(s.MembershipSerializer(membership).data)

    @extend_schema(responses={204: None, **ERRORS}, summary="Remove a member (owners, or yourself)")
    def destroy(self, request: Request, club_slug: str, pk: str) -> Response:
        membership = get_object_or_404(Membership, club__slug=club_slug, pk=path_int(pk))
        clubs.remove_member(actor=request.user, membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=s.InvitationInput,
        responses={201: InvitationSentSerializer, **ERRORS},
        summary="Invite someone by e-mail (owners)",
    )
    @action(detail=False, methods=["post"])
    def invite(self, request: Request, club_slug: str) -> Response:
        data = valid(s.InvitationInput, request.data)
        clubs.invite_member(actor=request.user, club=self.club(), **data)
        return Response(
            {"detail": gettext("Invitation sent to %(email)s.") % {"email": data["email"]}},
            status=status.HTTP_201_CREATED,
        )
