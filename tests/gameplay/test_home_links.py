"""The player's card on their home links to their open live table and their open draft
pod (``gameplay.selectors.home.card_links``: subqueries on the card's match, no query of
their own), and to neither once the table is done or for another player."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay.models import DraftPod, LiveTable, TableStatus
from tests.factories import running_tournament
from tournaments.models import Match
from tournaments.selectors.home import home_page
from tournaments.services import swiss

pytestmark = pytest.mark.django_db


def _card(user: Any) -> Any:
    [card] = home_page(user)["playing"]
    return card


def test_the_card_links_to_the_open_live_table_of_the_match(client) -> None:
    from gameplay.services import tables

    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.select_related("a__player__user", "b__player__user").filter(
        round__tournament=tournament, b__isnull=False
    )[0]
    player = match.a.player.user
    assert _card(player).live_table_id is None
    table = tables.open_table(actor=player, match=match)
    assert _card(player).live_table_id == table.pk
    assert _card(match.b.player.user).live_table_id == table.pk  # their opponent's too
    client.force_login(player)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/").content.decode()
    assert f'href="/tables/{table.pk}/"' in page and ">Live table</a>" in page
    assert len(queries) <= 4  # the links cost no query of their own
    LiveTable.objects.filter(pk=table.pk).update(status=TableStatus.DONE)
    assert _card(player).live_table_id is None


def test_the_card_links_to_the_players_open_draft_pod_only() -> None:
    """A draft seated while round 1 is played (for the rounds after it)."""
    from gameplay.models import DraftSettings, DraftTiming
    from gameplay.services import drafts

    tournament, organiser, registrations = running_tournament(4, auto_pair=False)
    DraftSettings.objects.create(tournament=tournament, timing=DraftTiming.BEFORE_EACH_ROUND)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    [pod] = drafts.create_pods(
        actor=organiser, tournament=tournament, pod_size=4, seconds_per_pick=60
    )
    seated = registrations[0].player.user
    assert _card(seated).draft_pod_id == pod.pk
    DraftPod.objects.filter(pk=pod.pk).update(status="done")
    assert _card(seated).draft_pod_id is None
