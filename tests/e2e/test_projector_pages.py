"""A big round on the projector turns its pages by itself (issue 24): a page of tables in
two columns, then the next one after ``PAGE_SECONDS``, round and round, and a refresh of
the content between two turns (a result, the poll while the socket is away) shows the page
on show, never an earlier one."""

from __future__ import annotations

import re
import threading

import pytest

from tests.e2e.journey import wait_until
from tests.factories import A_WINS, running_tournament
from tournaments.models import Match
from tournaments.selectors import projector as projector_selectors
from tournaments.services import results, swiss

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_screen_turns_the_pages_of_a_big_round(start_journey, monkeypatch) -> None:
    monkeypatch.setattr(projector_selectors, "PAGE_TABLES", 4)
    monkeypatch.setattr(projector_selectors, "PAGE_SECONDS", 3)
    tournament, organiser, _ = running_tournament(18, auto_pair=False)  # 9 tables: 3 pages
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    journey = start_journey("projector-pages")
    screen = journey.open({"width": 1280, "height": 720})
    screen.goto(journey.url(f"/tournaments/{tournament.pk}/projector/"))
    shown = screen.locator(".pj-page-of")
    assert "page 1 of 3" in shown.inner_text()
    assert screen.locator(".pj-tables").count() == 2  # two columns
    journey.shot(screen, "a big round: the first page of tables")

    seen: list[int] = []

    def page_now() -> int:
        found = re.search(r"page (\d) of 3", shown.inner_text())
        number = int(found.group(1)) if found else 0
        if number and (not seen or seen[-1] != number):
            seen.append(number)
        return number

    wait_until(lambda: page_now() == 2, seconds=15)
    # A result while page 2 is on show: the refreshes it brings keep page 2.
    match = Match.objects.filter(round=rnd, table=1).first()
    assert match is not None
    # In a thread of its own: Playwright's event loop runs in this one, and the result's
    # after-commit "changed" goes to the channel layer synchronously.
    judge = threading.Thread(
        target=results.judge_result, kwargs={"actor": organiser, "match": match, "games": A_WINS}
    )
    judge.start()
    judge.join()
    wait_until(lambda: page_now() == 3, seconds=15)
    journey.shot(screen, "the last page, turned to by itself")
    wait_until(lambda: page_now() == 1, seconds=15)
    # Every turn went one page on (1, 2, 3, then back to 1), never back.
    assert seen == [1, 2, 3, 1], seen
    assert "1 of 9 results in" in screen.locator(".pj-sub").inner_text()
    assert not journey.errors, journey.errors
