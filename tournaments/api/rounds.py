"""API for Swiss rounds: pairings, matches and their results, standings, the event feed,
and CSV/JSON exports. Views parse input, check who is asking, call one service or
selector and render; the rules live in the services and the pure engines.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import exports, selectors
from tournaments.api.views import ERRORS, _int, _valid
from tournaments.errors import InvalidInput, NotFound
from tournaments.models import (
    Match,
    MatchStatus,
    OverduePolicy,
    Registration,
    Round,
    SwissSettings,
    Tournament,
)
from tournaments.pairing.standings import Tiebreaker
from tournaments.services import results, rounds

# --- serializers -------------------------------------------------------------------------------


class EntrantRef(serializers.Serializer):
    registration = serializers.IntegerField(source="pk")
    display_name = serializers.CharField(source="player.display_name")


class MatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    a = EntrantRef()
    b = EntrantRef(allow_null=True)
    score = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "round",
            "table",
            "a",
            "b",
            "status",
            "overdue",
            "notes",
            "result",
            "winner",
            "games_a",
            "games_b",
            "games_drawn",
            "game_rounds_a",
            "game_rounds_b",
            "score_a",
            "score_b",
            "score",
            "confirmed_at",
        ]

    def get_score(self, match: Match) -> str:
        return results.score_line(match) if match.status == MatchStatus.CONFIRMED else ""


class ReportSerializer(serializers.Serializer):
    side = serializers.CharField()
    games = serializers.JSONField()
    complete = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class MatchDetailSerializer(MatchSerializer):
    reports = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "reports"]

    def get_reports(self, match: Match) -> list[dict[str, Any]]:
        current = [r for r in match.reports.all() if r.current]
        return ReportSerializer(current, many=True).data  # type: ignore[no-any-return]


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = [
            "number",
            "status",
            "paired_at",
            "started_at",
            "ends_at",
            "completed_at",
            "pairing_stats",
        ]


class RoundDetailSerializer(RoundSerializer):
    matches = serializers.SerializerMethodField()

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "matches"]

    def get_matches(self, rnd: Round) -> list[dict[str, Any]]:
        return MatchSerializer(selectors.round_matches(rnd), many=True).data  # type: ignore[no-any-return]


GAMES_EXAMPLE = [{"rounds": [[31, 25], [18, 40], [27, 22]]}]


class ReportInput(serializers.Serializer):
    games = serializers.JSONField(
        help_text="The match's games, each {'rounds': [[score_a, score_b], ...]} with 'a' the "
        "match's first entrant; Vanilla Gwent games add 'alignments': ['might', null]."
    )
    final = serializers.BooleanField(
        default=True, help_text="False: the game rounds played so far (progress)."
    )


class JudgeInput(serializers.Serializer):
    games = serializers.JSONField()


class StartRoundInput(serializers.Serializer):
    minutes = serializers.IntegerField(required=False, min_value=1, max_value=600)


class ExtendInput(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=120)


class SwapInput(serializers.Serializer):
    first = serializers.IntegerField(help_text="A registration id paired in this round.")
    second = serializers.IntegerField()


class UsernameInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class SwissSettingsSerializer(serializers.ModelSerializer):
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in Tiebreaker]), required=False
    )
    overdue_policy = serializers.ChoiceField(choices=OverduePolicy.choices, required=False)

    class Meta:
        model = SwissSettings
        fields = SwissSettings.EDITABLE


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    registration = serializers.IntegerField()
    display_name = serializers.CharField()
    points = serializers.IntegerField()
    record = serializers.CharField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    tiebreakers = serializers.DictField(child=serializers.CharField())


class StandingsSerializer(serializers.Serializer):
    tiebreakers = serializers.ListField(child=serializers.CharField())
    definitions = serializers.DictField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


class EventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    message = serializers.CharField()
    payload = serializers.JSONField()
    created_at = serializers.DateTimeField()


# --- helpers -----------------------------------------------------------------------------------


def _tournament(request: Request, pk: str) -> Tournament:
    return get_object_or_404(selectors.visible_tournaments(request.user), pk=_int(pk))


def _round(tournament: Tournament, number: str) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=_int(number))


def _match(request: Request, pk: str) -> Match:
    match = selectors.match_for_page(_int(pk))
    visible = selectors.visible_tournaments(request.user)
    if match is None or not visible.filter(pk=match.round.tournament_id).exists():
        raise NotFound("No such match.")
    return match


def _match_response(match: Match, code: int = status.HTTP_200_OK) -> Response:
    fresh = selectors.match_for_page(match.pk)
    return Response(MatchDetailSerializer(fresh).data, status=code)


# --- rounds --------------------------------------------------------------------------------------


class RoundListView(APIView):
    @extend_schema(responses={200: RoundSerializer(many=True), **ERRORS}, summary="List rounds")
    def get(self, request: Request, pk: str) -> Response:
        tournament = _tournament(request, pk)
        return Response(RoundSerializer(selectors.tournament_rounds(tournament), many=True).data)

    @extend_schema(
        request=None,
        responses={201: RoundDetailSerializer, **ERRORS},
        summary="Pair the next round (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = _tournament(request, pk)
        rnd = rounds.pair_next_round(actor=request.user, tournament=tournament)
        return Response(RoundDetailSerializer(rnd).data, status=status.HTTP_201_CREATED)


class RoundDetailView(APIView):
    @extend_schema(responses={200: RoundDetailSerializer, **ERRORS}, summary="A round's pairings")
    def get(self, request: Request, pk: str, number: str) -> Response:
        rnd = _round(_tournament(request, pk), number)
        return Response(RoundDetailSerializer(rnd).data)


def _registrations(rnd: Round, data: dict[str, int]) -> tuple[Registration, Registration]:
    found = {
        r.pk: r
        for r in Registration.objects.select_related("player").filter(
            tournament=rnd.tournament_id, pk__in=[data["first"], data["second"]]
        )
    }
    for key in ("first", "second"):
        if data[key] not in found:
            raise InvalidInput(
                f"No registration {data[key]} in this tournament.",
                code="unknown_registration",
                field=key,
            )
    return found[data["first"]], found[data["second"]]


class RoundStartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=StartRoundInput,
        responses={200: RoundDetailSerializer, **ERRORS},
        summary="Start the round's clock (organisers)",
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        rnd = _round(_tournament(request, pk), number)
        data = _valid(StartRoundInput, request.data)
        rnd = rounds.start_round(actor=request.user, round=rnd, minutes=data.get("minutes"))
        return Response(RoundDetailSerializer(rnd).data)


class RoundExtendView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ExtendInput,
        responses={200: RoundDetailSerializer, **ERRORS},
        summary="Give the round more time (judges)",
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        rnd = _round(_tournament(request, pk), number)
        data = _valid(ExtendInput, request.data)
        rnd = rounds.extend_round(actor=request.user, round=rnd, minutes=data["minutes"])
        return Response(RoundDetailSerializer(rnd).data)


class RoundRepairView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: RoundDetailSerializer, **ERRORS},
        summary="Pair an unstarted round again (organisers)",
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        rnd = rounds.repair_round(
            actor=request.user, round=_round(_tournament(request, pk), number)
        )
        return Response(RoundDetailSerializer(rnd).data)


class RoundSwapView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=SwapInput,
        responses={200: RoundDetailSerializer, **ERRORS},
        summary="Swap two players' tables before the round starts (organisers)",
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        rnd = _round(_tournament(request, pk), number)
        first, second = _registrations(rnd, _valid(SwapInput, request.data))
        rnd = rounds.swap_players(actor=request.user, round=rnd, first=first, second=second)
        return Response(RoundDetailSerializer(rnd).data)


# --- matches and results ---------------------------------------------------------------------


class MatchListView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, description="Only this round"),
            OpenApiParameter(
                "status",
                str,
                enum=[*MatchStatus.values, "overdue"],
                description="Only matches in this state",
            ),
        ],
        responses={200: MatchSerializer(many=True), **ERRORS},
        summary="Matches (the judges' results grid)",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = _tournament(request, pk)
        round_number = request.query_params.get("round")
        state = request.query_params.get("status") or None
        if state is not None and state not in [*MatchStatus.values, "overdue"]:
            raise InvalidInput(f"Unknown match status {state!r}.", code="invalid", field="status")
        qs = selectors.matches_for_judge(
            tournament,
            round_number=_int(round_number) if round_number else None,
            status=state,
        )
        return Response(MatchSerializer(qs, many=True).data)


class MatchDetailView(APIView):
    @extend_schema(responses={200: MatchDetailSerializer, **ERRORS}, summary="A match")
    def get(self, request: Request, pk: str) -> Response:
        return Response(MatchDetailSerializer(_match(request, pk)).data)


class MatchReportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ReportInput,
        responses={200: MatchDetailSerializer, **ERRORS},
        summary="Report your match's result, game round by game round (players)",
        examples=[
            OpenApiExample("Final result", value={"games": GAMES_EXAMPLE, "final": True}),
            OpenApiExample(
                "Progress after one game round",
                value={"games": [{"rounds": [[31, 25]]}], "final": False},
            ),
        ],
    )
    def post(self, request: Request, pk: str) -> Response:
        match = _match(request, pk)
        data = _valid(ReportInput, request.data)
        match = results.report_result(
            actor=request.user, match=match, games=data["games"], final=data["final"]
        )
        return _match_response(match)


class MatchConfirmView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: MatchDetailSerializer, **ERRORS},
        summary="Confirm the result your opponent reported (players)",
    )
    def post(self, request: Request, pk: str) -> Response:
        match = results.confirm_result(actor=request.user, match=_match(request, pk))
        return _match_response(match)


class MatchJudgeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=JudgeInput,
        responses={200: MatchDetailSerializer, **ERRORS},
        summary="Enter or override a result (judges and organisers)",
        examples=[OpenApiExample("Result", value={"games": GAMES_EXAMPLE})],
    )
    def post(self, request: Request, pk: str) -> Response:
        data = _valid(JudgeInput, request.data)
        match = results.judge_result(
            actor=request.user, match=_match(request, pk), games=data["games"]
        )
        return _match_response(match)


# --- tournament-level actions ---------------------------------------------------------------


class TournamentStartView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: None, **ERRORS}, summary="Start now (organisers)")
    def post(self, request: Request, pk: str) -> Response:
        tournament = rounds.start_tournament_now(
            actor=request.user, tournament=_tournament(request, pk)
        )
        return Response({"status": tournament.status})


class TournamentFinishView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None, responses={200: None, **ERRORS}, summary="End the tournament (organisers)"
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = rounds.finish_tournament(
            actor=request.user, tournament=_tournament(request, pk)
        )
        return Response({"status": tournament.status})


class SwissSettingsView(APIView):
    @extend_schema(responses={200: SwissSettingsSerializer, **ERRORS}, summary="Swiss settings")
    def get(self, request: Request, pk: str) -> Response:
        tournament = _tournament(request, pk)
        return Response(SwissSettingsSerializer(rounds.swiss_settings(tournament)).data)

    @extend_schema(
        request=SwissSettingsSerializer,
        responses={200: SwissSettingsSerializer, **ERRORS},
        summary="Change Swiss settings (organisers)",
    )
    def patch(self, request: Request, pk: str) -> Response:
        tournament = _tournament(request, pk)
        serializer = SwissSettingsSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        settings = rounds.update_swiss_settings(
            actor=request.user, tournament=tournament, changes=dict(serializer.validated_data)
        )
        return Response(SwissSettingsSerializer(settings).data)


class DropView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: None, **ERRORS},
        summary="Drop from a running tournament (yourself, or anyone as organiser)",
    )
    def post(self, request: Request, tournament_pk: str, pk: str) -> Response:
        reg = get_object_or_404(
            Registration, tournament=_tournament(request, tournament_pk), pk=_int(pk)
        )
        reg = rounds.drop_player(actor=request.user, registration=reg)
        return Response({"registration": reg.pk, "status": reg.status})


class ReaddView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None, responses={200: None, **ERRORS}, summary="Undo a drop (organisers)"
    )
    def post(self, request: Request, tournament_pk: str, pk: str) -> Response:
        reg = get_object_or_404(
            Registration, tournament=_tournament(request, tournament_pk), pk=_int(pk)
        )
        reg = rounds.readd_player(actor=request.user, registration=reg)
        return Response({"registration": reg.pk, "status": reg.status})


class LateEntrantView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=UsernameInput,
        responses={201: None, **ERRORS},
        summary="Add a late entrant to a running tournament (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        data = _valid(UsernameInput, request.data)
        reg = rounds.add_late_entrant(
            actor=request.user, tournament=_tournament(request, pk), username=data["username"]
        )
        return Response(
            {"registration": reg.pk, "joined_round": reg.joined_round},
            status=status.HTTP_201_CREATED,
        )


# --- standings, events, exports -------------------------------------------------------------


class StandingsView(APIView):
    @extend_schema(responses={200: StandingsSerializer, **ERRORS}, summary="Standings")
    def get(self, request: Request, pk: str) -> Response:
        tournament = _tournament(request, pk)
        return Response(exports.standings_data(selectors.tournament_standings(tournament)))


class EventFeedView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="Only events after this id")],
        responses={200: EventSerializer(many=True), **ERRORS},
        summary="The tournament's event feed (round paired, result confirmed, time)",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = _tournament(request, pk)
        after = request.query_params.get("after")
        events = selectors.tournament_events(tournament, after=_int(after) if after else None)
        return Response(EventSerializer(events[:200], many=True).data)


class ExportView(APIView):
    """``pairings`` (of a round, default the latest) or ``standings``, as CSV or JSON."""

    @extend_schema(
        parameters=[OpenApiParameter("round", int, description="Pairings of this round")],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
            **ERRORS,
        },
        summary="Export pairings or standings (CSV or JSON)",
    )
    def get(self, request: Request, pk: str, what: str, fmt: str) -> HttpResponse | Response:
        tournament = _tournament(request, pk)
        if what == "standings":
            table = selectors.tournament_standings(tournament)
            header, rows = exports.standings_rows(table)
            data: Any = exports.standings_data(table)
        else:
            number = request.query_params.get("round")
            rnd = _round(tournament, number) if number else selectors.current_round(tournament)
            if rnd is None:
                raise NotFound("No round has been paired yet.", code="no_round")
            header, rows = exports.pairing_rows(rnd)
            data = {
                "round": rnd.number,
                "pairings": [dict(zip(header, r, strict=True)) for r in rows],
            }
        if fmt == "json":
            return Response(data)
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(header)
        writer.writerows(rows)
        response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="tournament-{tournament.pk}-{what}.csv"'
        )
        return response
