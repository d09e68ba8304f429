"""The score helper page: a Gesoseka field or Kontsina piles, scored with a line per
group; it stores nothing."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext

from core.errors import RuleViolation
from core.web import HtmxHttpRequest
from core.words import problem as problem_of
from gameplay.web.forms import GesosekaBoardForm, GesosekaFieldForm, KontsinaForm
from rules import games, kontsina

#: The most characters of a field taken from the address (a live table's link fills in
#: the cards each player played: a game round has far fewer than this).
_PREFILL_MAX = 400


def _prefill(request: HttpRequest, prefix: str) -> dict[str, str]:
    """A field's cards from the address (``?p1-cards=7H 10S``): the live table links here
    with the cards each player played in the game round, for them to group and score."""
    cards = request.GET.get(f"{prefix}-cards", "")
    return {"cards": cards[:_PREFILL_MAX]} if cards else {}


def _said(error: RuleViolation) -> str:
    """A refused board or piles as the page says it: the helper scores a board nobody's
    name is on ("player 1's field"), so the engine's words and where, as they are."""
    problem = problem_of(error)
    assert problem is not None
    return problem.text


def _gesoseka(request: HttpRequest) -> dict[str, Any]:
    data = request.POST if request.method == "POST" else None
    board = GesosekaBoardForm(data, prefix="board")
    fields = [
        GesosekaFieldForm(data, prefix=f"p{i}", initial=_prefill(request, f"p{i}")) for i in (1, 2)
    ]
    context: dict[str, Any] = {"board_form": board, "field_forms": fields}
    if data is not None and board.is_valid() and all(f.is_valid() for f in fields):
        try:
            request_data = {
                "deck": board.cleaned_data["deck"],
                "decks": board.cleaned_data["decks"],
                "fields": [f.field_data(opponent=1 - i) for i, f in enumerate(fields)],
            }
            context["score"] = games.score("gesoseka", request_data)
        except forms.ValidationError as error:
            context["error"] = " ".join(error.messages)
        except RuleViolation as error:
            context["error"] = _said(error)
    return context


_DASH = "\N{EN DASH}"


def _counted(category: kontsina.Category, counts: list[int]) -> str:
    """What each player has towards a category, in words."""
    # The noun is singular only when both players have one ("1 - 1 card").
    number = 1 if counts == [1, 1] else max(2, *counts)
    values = {"a": counts[0], "b": counts[1], "dash": _DASH}
    if category is kontsina.Category.MOST_CARDS:
        return ngettext("%(a)d %(dash)s %(b)d card", "%(a)d %(dash)s %(b)d cards", number) % values
    if category is kontsina.Category.MOST_CLUBS:
        return ngettext("%(a)d %(dash)s %(b)d club", "%(a)d %(dash)s %(b)d clubs", number) % values
    if counts[0]:
        return gettext("in the first player's pile")
    if counts[1]:
        return gettext("in the second player's pile")
    return gettext("in neither pile")


def _kontsina_rows(score: dict[str, Any]) -> list[dict[str, Any]]:
    """The score's categories as the page shows them: the rules' words, never codes."""
    rows = []
    for entry in score["categories"]:
        category = kontsina.Category(entry["category"])
        rows.append(
            {
                "label": kontsina.CATEGORY_LABELS[category],
                "worth": entry["worth"],
                "counted": _counted(category, entry["counts"]),
                "winner": entry["winner"],
            }
        )
    return rows


def _kontsina(request: HttpRequest) -> dict[str, Any]:
    form = KontsinaForm(request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {"form": form}
    if request.method == "POST" and form.is_valid():
        try:
            score = games.score("kontsina", form.piles_data())
        except RuleViolation as error:
            context["error"] = _said(error)
        else:
            context["score"] = score
            context["categories"] = _kontsina_rows(score)
    return context


def score_helper(request: HtmxHttpRequest, game: str = "gesoseka") -> HttpResponse:
    game = "kontsina" if game == "kontsina" else "gesoseka"
    context = _gesoseka(request) if game == "gesoseka" else _kontsina(request)
    context["game"] = game
    template = "gameplay/score_helper.html"
    if request.htmx and request.method == "POST":
        template = "gameplay/_score_result.html"
    return render(request, template, context)
