"""API: registrations (register, withdraw, check in; search; add many by name, check many
in), drops, re-adds, late entrants."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, ngettext
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
)
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, path_int, valid
from core.errors import InvalidInput
from tournaments import selectors
from tournaments.api import serializers as s
from tournaments.api.common import tournament_for
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.selectors.tournaments import SEARCH_MAX, search_registrations
from tournaments.services import entrants, guests, teams


class RegistrationCreateInput(StrictInput):
    username = serializers.CharField(
        max_length=150,
        required=False,
        help_text="Organisers only: register this user instead of yourself.",
    )
    team_name = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="Team events: the team's name (60 characters at most; organisers may "
        "leave it out).",
    )
    teammate = serializers.CharField(
        max_length=150,
        required=False,
        allow_blank=True,
        help_text="Team events: the teammate's username (invited; an organiser's joins at once).",
    )


class TeammateInput(StrictInput):
    username = serializers.CharField(max_length=150, help_text="The teammate's username.")


class InvitationAnswerInput(StrictInput):
    accept = serializers.BooleanField(help_text="true: join the team; false: decline.")


class TeamNameInput(StrictInput):
    team_name = serializers.CharField(max_length=200)


class RegistrationViewSet(viewsets.GenericViewSet[Registration]):
    """A tournament's registrations: register, withdraw, check in."""

    serializer_class = s.RegistrationSerializer
    filterset_fields = ["status"]

    def tournament(self) -> Tournament:
        qs = selectors.visible_tournaments(self.request.user)
        return get_object_or_404(qs, pk=path_int(self.kwargs["tournament_pk"]))

    def registration(self, pk: str) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player", "partner", "tournament__club"),
            tournament=self.tournament(),
            pk=path_int(pk),
        )

    def get_queryset(self) -> QuerySet[Registration]:
        if getattr(self, "swagger_fake_view", False):  # schema generation has no URL kwargs
            return Registration.objects.none()
        registrations = selectors.tournament_registrations(self.tournament())
        search = self.request.query_params.get("search", "")
        if len(search) > SEARCH_MAX:
            raise InvalidInput(
                gettext("A search has at most %(count)d characters.") % {"count": SEARCH_MAX},
                code="search_too_long",
                field="search",
            )
        return search_registrations(registrations, search)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "search",
                str,
                description=f"Only entrants whose player, teammate, team or user name "
                f"contains this (at most {SEARCH_MAX} characters).",
            )
        ],
        responses={200: s.RegistrationSerializer(many=True), **ERRORS},
        summary="List a tournament's registrations",
    )
    def list(self, request: Request, tournament_pk: str) -> Response:
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(s.RegistrationSerializer(page, many=True).data)

    @extend_schema(
        request=RegistrationCreateInput,
        responses={201: s.RegistrationSerializer, **ERRORS},
        summary="Register yourself or your team (or, as an organiser, a player or team)",
    )
    def create(self, request: Request, tournament_pk: str) -> Response:
        data = valid(RegistrationCreateInput, request.data)
        tournament = self.tournament()
        team = {"team_name": data.get("team_name", ""), "teammate": data.get("teammate", "")}
        if data.get("username"):
            registration = entrants.add_player(
                actor=request.user, tournament=tournament, username=data["username"], **team
            )
        else:
            registration = entrants.register(actor=request.user, tournament=tournament, **team)
        return Response(s.RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Withdraw a registration (yours, or any as an organiser)",
    )
    def destroy(self, request: Request, tournament_pk: str, pk: str) -> Response:
        registration = entrants.withdraw_entry(
            actor=request.user, registration=self.registration(pk)
        )
        return Response(s.RegistrationSerializer(registration).data)

    @extend_schema(
        request=None,
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Check in (yourself during the window, or any as an organiser)",
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, tournament_pk: str, pk: str) -> Response:
        registration = entrants.check_in_entry(
            actor=request.user, registration=self.registration(pk)
        )
        return Response(s.RegistrationSerializer(registration).data)

    # Teams ---------------------------------------------------------------------------------

    @extend_schema(
        request=TeammateInput,
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Invite a teammate (who registered the team)",
    )
    @action(detail=True, methods=["post"], url_path="invite")
    def invite(self, request: Request, tournament_pk: str, pk: str) -> Response:
        data = valid(TeammateInput, request.data)
        registration = teams.invite_teammate(
            actor=request.user, registration=self.registration(pk), username=data["username"]
        )
        return Response(s.RegistrationSerializer(registration).data)

    @extend_schema(
        request=InvitationAnswerInput,
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Accept or decline an invitation to a team (the invited player)",
    )
    @action(detail=True, methods=["post"], url_path="answer")
    def answer(self, request: Request, tournament_pk: str, pk: str) -> Response:
        data = valid(InvitationAnswerInput, request.data)
        registration = teams.answer_invitation(
            actor=request.user, registration=self.registration(pk), accept=data["accept"]
        )
        return Response(s.RegistrationSerializer(registration).data)

    @extend_schema(
        request=None,
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Leave a team, cancel its invitation or remove its teammate",
    )
    @action(detail=True, methods=["post"], url_path="remove-teammate")
    def remove_teammate(self, request: Request, tournament_pk: str, pk: str) -> Response:
        registration = teams.remove_teammate(actor=request.user, registration=self.registration(pk))
        return Response(s.RegistrationSerializer(registration).data)

    @extend_schema(
        request=TeammateInput,
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Put a player in a team at once (organisers)",
    )
    @action(detail=True, methods=["post"], url_path="assign")
    def assign(self, request: Request, tournament_pk: str, pk: str) -> Response:
        data = valid(TeammateInput, request.data)
        registration = teams.assign_teammate(
            actor=request.user, registration=self.registration(pk), username=data["username"]
        )
        return Response(s.RegistrationSerializer(registration).data)

    @extend_schema(
        request=TeamNameInput,
        responses={200: s.RegistrationSerializer, **ERRORS},
        summary="Rename a team (its members or organisers)",
    )
    @action(detail=True, methods=["post"], url_path="rename")
    def rename(self, request: Request, tournament_pk: str, pk: str) -> Response:
        data = valid(TeamNameInput, request.data)
        registration = teams.rename_team(
            actor=request.user, registration=self.registration(pk), team_name=data["team_name"]
        )
        return Response(s.RegistrationSerializer(registration).data)


class LateEntrantInput(StrictInput):
    username = serializers.CharField(max_length=150)
    team_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    teammate = serializers.CharField(
        max_length=150, required=False, allow_blank=True, help_text="Team events: required."
    )


class EntrantStatusSerializer(serializers.Serializer[Any]):
    registration = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RegistrationStatus.choices)


class LateEntrantSerializer(serializers.Serializer[Any]):
    registration = serializers.IntegerField()
    joined_round = serializers.IntegerField(help_text="The first round the entrant is paired in.")


class DropView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: EntrantStatusSerializer, **ERRORS},
        summary="Drop from a running tournament (yourself, or anyone as organiser)",
    )
    def post(self, request: Request, tournament_pk: str, pk: str) -> Response:
        reg = get_object_or_404(
            Registration, tournament=tournament_for(request, tournament_pk), pk=path_int(pk)
        )
        reg = entrants.drop_player(actor=request.user, registration=reg)
        return Response({"registration": reg.pk, "status": reg.status})


class ReaddView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: EntrantStatusSerializer, **ERRORS},
        summary="Undo a drop (organisers)",
    )
    def post(self, request: Request, tournament_pk: str, pk: str) -> Response:
        reg = get_object_or_404(
            Registration, tournament=tournament_for(request, tournament_pk), pk=path_int(pk)
        )
        reg = entrants.readd_player(actor=request.user, registration=reg)
        return Response({"registration": reg.pk, "status": reg.status})


class LateEntrantView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=LateEntrantInput,
        responses={201: LateEntrantSerializer, **ERRORS},
        summary="Add a late entrant (a player, or a team) to a running tournament (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        data = valid(LateEntrantInput, request.data)
        reg = entrants.add_late_entrant(
            actor=request.user,
            tournament=tournament_for(request, pk),
            username=data["username"],
            team_name=data.get("team_name", ""),
            teammate=data.get("teammate", ""),
        )
        return Response(
            {"registration": reg.pk, "joined_round": reg.joined_round},
            status=status.HTTP_201_CREATED,
        )


# --- many at once -----------------------------------------------------------------------------

#: The most lines a bulk request takes before the service counts its names (a guard on the
#: work done for one request; the service refuses more than ``guests.MAX_NAMES`` names
#: with how many were sent).
BULK_LINES_MAX = 10_000


class BulkAddInput(StrictInput):
    names = serializers.ListField(
        child=serializers.CharField(max_length=200, allow_blank=True, trim_whitespace=False),
        max_length=BULK_LINES_MAX,
        help_text=f"Entrants to add, all or none (at most {guests.MAX_NAMES} names): "
        '"@username" for an account, any other name for a guest (no account; a guest the '
        "club knows by that name is the same guest again); names separated by commas in one "
        "item count as several. Team events: one team an item, "
        '"Team name: Ada, @bruno" or "Ada, @bruno".',
    )


class BulkAddedSerializer(serializers.Serializer[Any]):
    added = serializers.IntegerField(help_text="How many entrants were added.")
    new_guests = serializers.IntegerField()
    known_guests = serializers.IntegerField(help_text="Guests the club knew by name, reused.")
    registrations = s.RegistrationSerializer(many=True)


class CheckInManyInput(StrictInput):
    registrations = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
        required=False,
        max_length=entrants.CHECK_IN_MAX,
        help_text="The registrations to check in, by id.",
    )
    all = serializers.BooleanField(
        required=False, default=False, help_text="true: every registered entrant."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("all") and attrs.get("registrations"):
            raise serializers.ValidationError(
                {"all": gettext("Send either registrations or all, not both.")}
            )
        if not attrs.get("all") and not attrs.get("registrations"):
            raise serializers.ValidationError(
                {"registrations": gettext("Name the registrations to check in, or send all: true.")}
            )
        return attrs


class CheckedInSerializer(serializers.Serializer[Any]):
    checked_in = serializers.ListField(child=serializers.IntegerField())
    already = serializers.ListField(
        child=serializers.IntegerField(), help_text="Checked in before this request."
    )
    skipped = serializers.ListField(
        child=serializers.IntegerField(), help_text="Teams of one: they need a second player."
    )
    detail = serializers.CharField()


class BulkAddView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=BulkAddInput,
        responses={201: BulkAddedSerializer, **ERRORS},
        operation_id="tournaments_registrations_bulk_create",
        summary="Add many entrants by name, accounts or guests, all or none (organisers)",
    )
    def post(self, request: Request, tournament_pk: str) -> Response:
        data = valid(BulkAddInput, request.data)
        added = guests.add_players_by_name(
            actor=request.user,
            tournament=tournament_for(request, tournament_pk),
            names=data["names"],
        )
        body = {
            "added": added.count,
            "new_guests": added.new_guests,
            "known_guests": added.known_guests,
            "registrations": s.RegistrationSerializer(added.registrations, many=True).data,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class CheckInManyView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=CheckInManyInput,
        responses={200: CheckedInSerializer, **ERRORS},
        operation_id="tournaments_registrations_check_in_many",
        summary="Check in the registrations named, or everyone registered (organisers)",
    )
    def post(self, request: Request, tournament_pk: str) -> Response:
        data = valid(CheckInManyInput, request.data)
        result = entrants.check_in_many(
            actor=request.user,
            tournament=tournament_for(request, tournament_pk),
            registration_ids=data.get("registrations") or [],
            everyone=data["all"],
        )
        done = len(result.checked_in)
        said = {"count": done, "names": ", ".join(r.name for r in result.skipped)}
        if result.skipped:
            detail = ngettext(
                "%(count)d checked in. Skipped, a team needs its second player first: %(names)s",
                "%(count)d checked in. Skipped, a team needs its second player first: %(names)s",
                done,
            )
        else:
            detail = ngettext("%(count)d checked in.", "%(count)d checked in.", done)
        detail %= said
        return Response(
            {
                "checked_in": [r.pk for r in result.checked_in],
                "already": [r.pk for r in result.already],
                "skipped": [r.pk for r in result.skipped],
                "detail": detail,
            }
        )
