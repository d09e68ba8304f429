"""Reordering the tiebreakers on the Swiss settings page (issue 14): the chosen tiebreakers
are listed in the order they apply, each with up and down buttons that work as a plain form
(the order is saved with that one moved a place) and that ``static/js/reorder.js`` turns
into moves on the page, with drag and drop; the order posted is the order saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.factories import running_tournament
from tournaments.models import SwissSettings
from tournaments.web.forms import SwissSettingsForm

pytestmark = pytest.mark.django_db


def _settings(tournament: Any) -> SwissSettings:
    return SwissSettings.objects.get(stage__tournament=tournament)


def _post_data(settings: SwissSettings, tiebreakers: list[str], **extra: str) -> dict[str, Any]:
    form = SwissSettingsForm(instance=settings)
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if name == "tiebreakers" or value is None:
            continue
        if value is False:
            continue
        data[name] = "on" if value is True else value
    data["tiebreakers"] = tiebreakers
    data.update(extra)
    return data


def test_the_page_lists_the_tiebreakers_in_their_order_with_up_and_down(client) -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    SwissSettings.objects.filter(pk=_settings(tournament).pk).update(
        tiebreakers=["ogw", "omw", "gw"]
    )
    client.force_login(organiser)
    page = client.get(reverse("swiss-settings", args=[tournament.pk])).content.decode()
    listed = page[page.index('id="tiebreakers"') :]
    positions = [listed.index(f'data-value="{code}"') for code in ("ogw", "omw", "gw", "buchholz")]
    assert positions == sorted(positions)
    assert 'value="up:omw"' in listed and 'value="down:omw"' in listed
    assert "js/reorder.js" in page


def test_the_order_posted_is_the_order_saved(client) -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    settings = _settings(tournament)
    assert settings.tiebreakers == ["omw", "gw", "ogw"]
    client.force_login(organiser)
    response = client.post(
        reverse("swiss-settings", args=[tournament.pk]),
        _post_data(settings, ["gw", "ogw", "omw"]),
    )
    assert response.status_code == 302
    assert _settings(tournament).tiebreakers == ["gw", "ogw", "omw"]


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        ("up:ogw", ["omw", "ogw", "gw"]),
        ("down:omw", ["gw", "omw", "ogw"]),
        ("up:omw", ["omw", "gw", "ogw"]),  # already first: no change
        ("down:buchholz", ["omw", "gw", "ogw"]),  # not chosen: nothing moves
        ("sideways:gw", ["omw", "gw", "ogw"]),
    ],
)
def test_an_up_or_down_button_without_javascript_saves_the_order_moved_a_place(
    client,
    move: str,
    expected: list[str],
) -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    settings = _settings(tournament)
    client.force_login(organiser)
    client.post(
        reverse("swiss-settings", args=[tournament.pk]),
        _post_data(settings, ["omw", "gw", "ogw"], move=move),
    )
    assert _settings(tournament).tiebreakers == expected
