"""Live table API: the same actions as the table's websocket, for clients without one (and
for pages whose socket dropped: they poll the snapshot and post taps here), the judges'
list of a round's tables, and the turn log export.

A tap names the turn number it takes (``number``: the snapshot's ``turn_number``), so a
repeated tap is answered 200 without being recorded twice, and a tap whose number was taken
meanwhile is refused (409 ``turn_taken``, naming what took it). Nothing at a table is
secret: anyone who may see the tournament may read a table's snapshot and log. A team
match's table seats four (``seats``, by seat; ``sides``, the teams): a tap names a seat
0 to 3, scores stay one per side. A pod's table (issue 13) seats its 3 or 4 players each
on their own (``free_for_all``), in the pod's seat order: a tap names a seat 0 to 3, and
the scores are one per seat.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, path_int, valid
from core.errors import NotAllowed, NotFound
from core.web import csv_response
from gameplay import table_engine
from gameplay.models import LiveTable, TableMode, TurnKind
from gameplay.selectors import table_lists
from gameplay.selectors import tables as selectors
from gameplay.services import tables as services
from tournaments import selectors as tournament_selectors
from tournaments.selectors import policies

SNAPSHOT = {200: OpenApiTypes.OBJECT, **ERRORS}


class OpenInput(StrictInput):
    mode = serializers.ChoiceField(
        choices=TableMode.choices,
        required=False,
        help_text="phones: each player on their own phone; shared: one phone or tablet.",
    )


class TurnInput(StrictInput):
    number = serializers.IntegerField(
        min_value=0, max_value=9999, help_text="The turn it takes: the snapshot's turn_number."
    )
    kind = serializers.ChoiceField(choices=TurnKind.choices)
    player = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        help_text="The seat on turn (0: the match's first player, 1: the second; at a team "
        "match's table of four 0 and 2 are the first team's player and partner, 1 and 3 the "
        "second's; at a pod's table, the pod's seats in order). Default: your own seat.",
    )
    card = serializers.CharField(
        max_length=6, required=False, allow_blank=True, help_text='Score helper: "7H", "JK".'
    )
    row = serializers.ChoiceField(
        choices=["clubs", "spades", "diamonds"],
        required=False,
        allow_blank=True,
        help_text="Vanilla Gwent's score helper: the row a heart goes to.",
    )


class NumberInput(StrictInput):
    number = serializers.IntegerField(min_value=0, max_value=9999)


class FirstInput(StrictInput):
    player = serializers.IntegerField(min_value=0, max_value=3)


class ScoresInput(StrictInput):
    game_round = serializers.IntegerField(
        min_value=1, max_value=99, help_text="The game round of the match (1 for the first)."
    )
    scores = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=services.MAX_SCORE),
        min_length=2,
        max_length=4,
        help_text="The first player's (or team's) score, then the second's; at a pod's "
        "table, one per seat in seat order.",
    )


class ConfirmInput(StrictInput):
    pass


def _table(request: Request, pk: str) -> LiveTable:
    table = selectors.table_for_viewer(path_int(pk), request.user)
    if table is None:
        raise NotFound(gettext("No such table."))
    return table


def _snapshot(request: Request, table_id: int) -> dict[str, Any]:
    table = selectors.table_for_viewer(table_id, request.user)
    if table is None:
        raise NotFound(gettext("No such table."))
    full = selectors.full_snapshot(table.pk)
    assert full is not None
    return selectors.view_for(full, selectors.viewer(table, request.user))


class OpenTableView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=OpenInput,
        responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Open the match's live table (its players or a judge), or join the open one",
        examples=[OpenApiExample("Each on their phone", value={"mode": "phones"})],
    )
    def post(self, request: Request, pk: str) -> Response:
        match_id = path_int(pk)
        if not tournament_selectors.match_visible_to(request.user, match_id):
            raise NotFound(gettext("No such match."))
        data = valid(OpenInput, request.data)
        existed = table_lists.table_of_match(match_id) is not None
        table = services.open_table(
            actor=request.user, match=match_id, mode=data.get("mode", TableMode.PHONES)
        )
        return Response(
            _snapshot(request, table.pk),
            status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED,
        )


class TableView(APIView):
    @extend_schema(
        responses=SNAPSHOT,
        summary="The table's snapshot (versioned; pages poll this without a socket)",
    )
    def get(self, request: Request, pk: str) -> Response:
        return Response(_snapshot(request, _table(request, pk).pk))


class TurnView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=TurnInput,
        responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Tap a turn: a play, a play with an extra turn, or a pass",
        examples=[OpenApiExample("A pass", value={"number": 7, "kind": "pass"})],
    )
    def post(self, request: Request, pk: str) -> Response:
        table = _table(request, pk)
        data = valid(TurnInput, request.data)
        result = services.take_turn(
            actor=request.user,
            table=table.pk,
            number=data["number"],
            kind=data["kind"],
            player=data.get("player"),
            card=data.get("card", ""),
            row=data.get("row", ""),
        )
        return Response(
            _snapshot(request, table.pk),
            status=status.HTTP_201_CREATED if result.recorded else status.HTTP_200_OK,
        )


class UndoView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=NumberInput,
        responses=SNAPSHOT,
        summary="Undo the last tap (its player within the undo window, a judge any time)",
    )
    def post(self, request: Request, pk: str) -> Response:
        table = _table(request, pk)
        data = valid(NumberInput, request.data)
        services.undo_turn(actor=request.user, table=table.pk, number=data["number"])
        return Response(_snapshot(request, table.pk))


class FirstView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=FirstInput,
        responses=SNAPSHOT,
        summary="Who starts the game round (before its first tap)",
    )
    def post(self, request: Request, pk: str) -> Response:
        table = _table(request, pk)
        data = valid(FirstInput, request.data)
        services.choose_first(actor=request.user, table=table.pk, player=data["player"])
        return Response(_snapshot(request, table.pk))


class ScoresView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ScoresInput,
        responses=SNAPSHOT,
        summary="The scores of the game round that ended: reported as that game round",
        examples=[OpenApiExample("Scores", value={"game_round": 1, "scores": [31, 27]})],
    )
    def post(self, request: Request, pk: str) -> Response:
        table = _table(request, pk)
        data = valid(ScoresInput, request.data)
        services.enter_scores(
            actor=request.user, table=table.pk, game_round=data["game_round"], scores=data["scores"]
        )
        return Response(_snapshot(request, table.pk))


class ConfirmView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ConfirmInput,
        responses=SNAPSHOT,
        summary="Confirm the result the table reported (the opponent)",
    )
    def post(self, request: Request, pk: str) -> Response:
        table = _table(request, pk)
        valid(ConfirmInput, request.data)
        services.confirm_result(actor=request.user, table=table.pk)
        return Response(_snapshot(request, table.pk))


TURN_LOG_HEADER = [
    "game",
    "game_round",
    "turn",
    "kind",
    "player",
    "card",
    "row",
    "by",
    "at",
    "undone_at",
    "undone_by",
]


class TurnLogView(APIView):
    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
            **ERRORS,
        },
        summary="The table's turn log: every tap, undone ones too",
    )
    def get(self, request: Request, pk: str, fmt: str) -> HttpResponse | Response:
        table = _table(request, pk)
        names = table_engine.seat_names(table)
        rows = [
            [
                e.game,
                e.game_round,
                e.number + 1,
                e.kind,
                names[e.player] if e.player < len(names) else str(e.player + 1),
                e.card,
                e.row,
                e.by.username if e.by else "",
                e.created_at.isoformat(),
                e.undone_at.isoformat() if e.undone_at else "",
                e.undone_by.username if e.undone_by else "",
            ]
            for e in table_lists.turn_log(table)
        ]
        if fmt == "json":
            return Response(
                {
                    "table": table.pk,
                    "match": table.match_id,
                    "turns": [dict(zip(TURN_LOG_HEADER, r, strict=True)) for r in rows],
                }
            )
        return csv_response(f"table-{table.pk}-turns.csv", TURN_LOG_HEADER, rows)


class RoundTablesView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="The live tables of the current round (judges): who is on turn, near the "
        "limit, stalled",
    )
    def get(self, request: Request, pk: str) -> Response:
        tournament = get_object_or_404(
            tournament_selectors.visible_tournaments(request.user), pk=path_int(pk)
        )
        if not policies.can_judge(request.user, tournament.club):
            raise NotAllowed(
                gettext("Only judges and organisers see the live tables."), code="not_judge"
            )
        current = tournament_selectors.current_round(tournament)
        rows = table_lists.tables_of_round(current) if current is not None else []
        return Response(
            {
                "round": current.number if current is not None else None,
                "tables": [
                    {
                        "table": row.table.pk,
                        "match": row.match.pk,
                        "table_number": row.match.table,
                        "players": table_engine.seat_names(row.table),
                        "sides": table_engine.side_names(row.table),
                        "status": row.table.status,
                        "headline": row.headline,
                        "to_play": row.to_play,
                        "near_limit": row.near_limit,
                        "stalled": row.stalled,
                        "over_time": row.over_time,
                    }
                    for row in rows
                ],
            }
        )
