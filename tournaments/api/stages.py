"""API: a tournament's stages (adding an elimination stage), a bracket, and the settings of
its Swiss stage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext, pgettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, path_int, valid
from core.web import csv_response
from tournaments import formats, selectors
from tournaments.api import serializers as s
from tournaments.api.common import tournament_for
from tournaments.models import GrandFinal, Round, Stage
from tournaments.pairing import elimination
from tournaments.selectors import brackets as bracket_reads
from tournaments.selectors import exports
from tournaments.selectors.names import round_namer
from tournaments.selectors.tournaments import stages_with_rounds
from tournaments.services import brackets, swiss


class StageSerializer(serializers.ModelSerializer[Stage]):
    rounds: serializers.SlugRelatedField[Round] = serializers.SlugRelatedField(
        slug_field="number",
        many=True,
        read_only=True,
        help_text="The numbers of the stage's rounds (numbered through the tournament).",
    )

    class Meta:
        model = Stage
        fields = [
            "number",
            "kind",
            "name",
            "label",
            "status",
            "started_at",
            "completed_at",
            "rounds",
        ]
        read_only_fields = fields
        # ``label`` is the ``Stage.label`` property, read as it is: a field declared by that
        # name would shadow the serializer's own ``Field.label``.
        extra_kwargs = {"label": {"help_text": "The name, or 'Stage 1 (Swiss)'."}}


class StageInput(StrictInput):
    kind = serializers.ChoiceField(
        choices=formats.choices(formats.kinds(lambda f: f.options is not None)),
        help_text="The stage's format.",
    )
    position = serializers.ChoiceField(
        choices=[
            (brackets.AFTER, "After the last stage (a cut)"),
            (brackets.ONLY, "The whole event"),
        ],
        default=brackets.AFTER,
        help_text="'after': a cut after the last stage; 'only': the whole event (before "
        "the start).",
    )
    cut_top = serializers.IntegerField(
        min_value=2,
        max_value=elimination.MAX_ENTRANTS,
        required=False,
        allow_null=True,
        help_text="How many of the previous stage's standings go through (empty: all).",
    )
    cut_min_points = serializers.IntegerField(
        min_value=0,
        max_value=1000,
        required=False,
        allow_null=True,
        help_text="Only players with at least these match points go through.",
    )
    third_place = serializers.BooleanField(
        default=False, help_text="Single elimination: a match for third place."
    )
    grand_final = serializers.ChoiceField(choices=GrandFinal.choices, default=GrandFinal.RESET)
    round_minutes = serializers.IntegerField(min_value=1, max_value=600, default=50)
    cycles = serializers.IntegerField(
        min_value=1, max_value=2, default=1, help_text="Round robin: once or twice through."
    )
    groups = serializers.IntegerField(
        min_value=1,
        max_value=64,
        default=1,
        help_text="A round robin that starts the event: split into this many groups.",
    )
    cut_per_group = serializers.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        allow_null=True,
        help_text="After a group stage: the best of each group go through (cross-seeded).",
    )


class StageListView(APIView):
    @extend_schema(
        responses={200: StageSerializer(many=True), **ERRORS},
        summary="A tournament's stages, in order, with their rounds",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        return Response(StageSerializer(stages_with_rounds(tournament), many=True).data)

    @extend_schema(
        request=StageInput,
        responses={201: StageSerializer, **ERRORS},
        summary="Add an elimination or round-robin stage: a top cut after the Swiss, or the "
        "whole event (organisers)",
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        data = valid(StageInput, request.data)
        stage = brackets.add_stage(actor=request.user, tournament=tournament, **data)
        fresh = stages_with_rounds(tournament).get(pk=stage.pk)
        return Response(StageSerializer(fresh).data, status=201)


class BracketEntrantSerializer(serializers.Serializer[Any]):
    registration = serializers.IntegerField()
    display_name = serializers.CharField()
    seed = serializers.IntegerField()


class BracketSlotSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(
        help_text="The slot: W2-3 (winners' round 2, match 3), L1-1, GF, GF2, P3."
    )
    title = serializers.CharField(help_text="The slot in words.")
    round = serializers.CharField(help_text="Its bracket round: 'Quarterfinals', 'Losers round 2'.")
    side = serializers.ChoiceField(choices=[s.value for s in elimination.Side])
    status = serializers.ChoiceField(
        choices=[s.value for s in elimination.Status],
        help_text="waiting (an entrant is not known yet), ready, done, bye, void (never played).",
    )
    a = BracketEntrantSerializer(allow_null=True)
    b = BracketEntrantSerializer(allow_null=True)
    a_from = serializers.CharField(help_text="Where the first entrant comes from, in words.")
    b_from = serializers.CharField(help_text="Where the second entrant comes from, in words.")
    winner = serializers.IntegerField(allow_null=True, help_text="The winner's registration.")
    match = serializers.IntegerField(allow_null=True, help_text="The match, once it is ready.")
    round_number = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)


class BracketPlacementSerializer(BracketEntrantSerializer):
    place = serializers.IntegerField()


class BracketSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=formats.kinds(lambda f: f.stage_page == "bracket"))
    status = serializers.CharField()
    seeds = BracketEntrantSerializer(many=True)
    slots = BracketSlotSerializer(many=True)
    ready = serializers.ListField(child=serializers.CharField(), help_text="Slots ready to play.")
    champion = BracketEntrantSerializer(allow_null=True)
    placements = BracketPlacementSerializer(many=True, help_text="Places decided so far.")


def _feeder_words(
    feeder: elimination.Feeder, bracket: elimination.Bracket, name: Callable[[str], str]
) -> str:
    if isinstance(feeder, elimination.Seeded):
        if feeder.entrant is None:
            return pgettext("a match without an opponent", "bye")
        return pgettext("in a bracket", "seed %(seed)s") % {"seed": feeder.seed}
    said = {"round": name(bracket.slot(feeder.key).round_code)}
    if isinstance(feeder, elimination.WinnerOf):
        return gettext("winner of %(round)s") % said
    return gettext("loser of %(round)s") % said


def bracket_data(view: bracket_reads.BracketView) -> dict[str, Any]:
    """The bracket as the API shows it (a plain dict: ``BracketSerializer`` documents it)."""
    stage = view.stage
    seeds = view.seeds

    def entrant(pk: int | None) -> dict[str, Any] | None:
        if pk is None:
            return None
        return {"registration": pk, "display_name": view.name(pk), "seed": seeds.get(pk, 0)}

    data: dict[str, Any] = {
        "stage": stage.number,
        "kind": stage.kind,
        "status": stage.status,
        "seeds": [entrant(pk) for pk in stage.bracket.seeded],
        "slots": [],
        "ready": [],
        "champion": None,
        "placements": [],
    }
    if view.bracket is None or view.state is None:
        return data
    name = round_namer()
    labels = {key: name(rnd.code) for rnd in view.bracket.rounds for key in rnd.keys}
    for slot in view.bracket.slots:
        state = view.state.slot(slot.key)
        match = view.matches.get(slot.key)
        data["slots"].append(
            {
                "key": slot.key,
                "title": name(slot.round_code),
                "round": labels.get(slot.key, ""),
                "side": slot.side.value,
                "status": state.status.value,
                "a": entrant(state.a),
                "b": entrant(state.b),
                "a_from": _feeder_words(slot.a, view.bracket, name),
                "b_from": _feeder_words(slot.b, view.bracket, name),
                "winner": state.winner,
                "match": match.pk if match else None,
                "round_number": match.round.number if match else None,
                "table": match.table if match else None,
            }
        )
    data["ready"] = list(view.state.ready)
    data["champion"] = entrant(view.state.champion)
    data["placements"] = [
        {**(entrant(pk) or {}), "place": place}
        for pk, place in sorted(view.state.placements.items(), key=lambda item: item[1])
    ]
    return data


class BracketView(APIView):
    @extend_schema(
        responses={200: BracketSerializer, **ERRORS},
        summary="An elimination stage's bracket: every slot with its entrants, feeders and "
        "match, what is ready, the places decided",
    )
    def get(self, request: Request, pk: str, number: str) -> Response:
        tournament = tournament_for(request, pk)
        stage = bracket_reads.stage_of(tournament, path_int(number))
        return Response(bracket_data(bracket_reads.bracket_view(stage)))


class SwissSettingsView(APIView):
    @extend_schema(responses={200: s.SwissSettingsSerializer, **ERRORS}, summary="Swiss settings")
    def get(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        return Response(s.SwissSettingsSerializer(selectors.swiss_settings_of(tournament)).data)

    @extend_schema(
        request=s.SwissSettingsSerializer,
        responses={200: s.SwissSettingsSerializer, **ERRORS},
        summary="Change Swiss settings (organisers)",
    )
    def patch(self, request: Request, pk: str) -> Response:
        tournament = tournament_for(request, pk)
        serializer = s.SwissSettingsSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        settings = swiss.update_swiss_settings(
            actor=request.user, tournament=tournament, changes=dict(serializer.validated_data)
        )
        return Response(s.SwissSettingsSerializer(settings).data)


class BracketExportView(APIView):
    @extend_schema(
        responses={(200, "text/csv"): OpenApiTypes.STR, **ERRORS},
        summary="Export a bracket as CSV: a row a slot (its players, the winner, their places)",
    )
    def get(self, request: Request, pk: str, number: str) -> HttpResponse:
        tournament = tournament_for(request, pk)
        stage = bracket_reads.stage_of(tournament, path_int(number))
        header, rows = exports.bracket_rows(bracket_reads.bracket_view(stage))
        return csv_response(
            f"tournament-{tournament.pk}-stage-{stage.number}-bracket.csv", header, rows
        )
