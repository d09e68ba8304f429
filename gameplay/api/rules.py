"""The stateless rules API: score a board or piles, and read an outcome from game rounds.

Anyone may call it (no login): it stores nothing. The engines do all the work; a board or
result they reject is a 400 ``{"code": <rule>, "detail": ..., "where": ...}``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from core.api import ERRORS, StrictInput, games_input
from rules import games, gesoseka, kontsina
from rules.outcome import GameOptions

GAME_PARAMETER = OpenApiParameter(
    "game",
    str,
    OpenApiParameter.PATH,
    enum=list(games.GAMES),
    description="The game's code.",
)


class OutcomeInput(StrictInput):
    games = games_input(
        "Games so far, each {'rounds': [[score_a, score_b], ...]}; Vanilla Gwent "
        "games add 'alignments': ['might', null]."
    )
    best_of = serializers.IntegerField(default=1, min_value=1, max_value=9)
    rounds_to_win = serializers.IntegerField(default=2, min_value=1, max_value=9)
    kontsina_rounds = serializers.IntegerField(default=3, min_value=1, max_value=20)


def _known_game(game: str) -> str:
    games.rules_for(game)  # RuleViolation → 400 naming the known games
    return game


def _examples() -> list[OpenApiExample]:
    examples = []
    for code, helper in games.SCORE_HELPERS.items():
        examples.append(
            OpenApiExample(
                f"{games.GAMES[code].name} request",
                value=dict(helper.example_request),
                request_only=True,
                description=f"POST /api/v1/rules/{code}/score/",
            )
        )
        examples.append(
            OpenApiExample(
                f"{games.GAMES[code].name} response",
                value=dict(helper.example_response),
                response_only=True,
            )
        )
    return examples


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


#: What the score helper answers, with every scoring category's code and its words.
_SCORE_DESCRIPTION = (
    "Gesoseka: each player's field (cards with their strengtheners, declared series and "
    "sequences, face cards placed by the opponent); the answer is each player's score with "
    "a line per group or card, its `explanation` in words and its `kind`: "
    + ", ".join(f"`{k}` ({label})" for k, label in gesoseka.LINE_LABELS.items())
    + ". Kontsina: both players' score piles (the cards each captured); the answer is the "
    "round points per category, its `category` one of "
    + ", ".join(
        f"`{c}` ({label}, {_points(kontsina.CATEGORY_POINTS[c])})"
        for c, label in kontsina.CATEGORY_LABELS.items()
    )
    + "; a tie for most cards or most clubs gives nobody that point. `leftovers` are the "
    "cards in neither score pile (the `layout` sent, or every card not sent): they are not "
    "scored unless `last_capturer_takes_layout` gives them to `last_capturer`. Vanilla "
    "Gwent: a game round's events in order; the answer is each row's (`clubs`, `spades`, "
    "`diamonds`) and each player's power with the reason for each unit's power. Generic "
    "games have no score helper."
)


class RulesThrottle(AnonRateThrottle):
    rate = "120/min"


class ScoreView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [RulesThrottle]

    @extend_schema(
        parameters=[GAME_PARAMETER],
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        examples=_examples(),
        summary="Score helper: a Gesoseka board, Kontsina piles or a Vanilla Gwent game round",
        description=_SCORE_DESCRIPTION,
    )
    def post(self, request: Request, game: str) -> Response:
        return Response(games.score(_known_game(game), request.data))


class OutcomeView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [RulesThrottle]

    @extend_schema(
        parameters=[GAME_PARAMETER],
        request=OutcomeInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        examples=[
            OpenApiExample(
                "Gesoseka, a game tied after two game rounds",
                value={"games": [{"rounds": [[40, 30], [20, 35]]}], "best_of": 1},
                request_only=True,
            ),
            OpenApiExample(
                "Answer",
                value={
                    "games": [
                        {
                            "round_winners": [[0], [1]],
                            "round_wins": [1, 1],
                            "totals": [60, 65],
                            "decided": True,
                            "winner": None,
                            "draw": True,
                            "can_add_round": True,
                            "max_rounds": 3,
                        }
                    ],
                    "match": {
                        "finished": True,
                        "winner": None,
                        "draw": True,
                        "games_won": [0, 0],
                        "games_drawn": 1,
                        "game_points": [1, 1],
                        "round_wins": [1, 1],
                        "totals": [60, 65],
                    },
                },
                response_only=True,
            ),
        ],
        summary="Outcome of the game rounds recorded so far (who won, is it over, may "
        "another game round be recorded)",
    )
    def post(self, request: Request, game: str) -> Response:
        game = _known_game(game)
        data = OutcomeInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        options = GameOptions(
            rounds_to_win=values["rounds_to_win"], kontsina_rounds=values["kontsina_rounds"]
        )
        return Response(
            games.outcome_report(game, values["games"], options=options, best_of=values["best_of"])
        )
