"""A finished event has a champion and final placements (issue 22, defect 10): the cut
first, then the Swiss; shown on the overview, on a public final-results page that prints
and shares as an image card, and as each player's place on their profile."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import A_WINS, B_WINS, running_tournament
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    StageKind,
    TournamentStatus,
)
from tournaments.selectors import placements
from tournaments.services import brackets, results, swiss

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _play(match: Match, winner_id: int) -> None:
    a = Registration.objects.select_related("player__user").get(pk=match.a_id)
    b = Registration.objects.select_related("player__user").get(pk=match.b_id)
    results.report_result(
        actor=a.player.user, match=match.pk, games=A_WINS if winner_id == a.pk else B_WINS
    )
    results.confirm_result(actor=b.player.user, match=match.pk)


def _open(**filters) -> list[Match]:
    return list(
        Match.objects.filter(b__isnull=False, **filters)
        .exclude(status=MatchStatus.CONFIRMED)
        .order_by("round__number", "table")
    )


def _swiss_then_top_4(players: int = 8):
    tournament, organiser, regs = running_tournament(players, rounds=3)
    cut = brackets.add_stage(
        actor=organiser, tournament=tournament, kind=StageKind.SINGLE_ELIMINATION, cut_top=4
    )
    if not tournament.rounds.exists():
        swiss.pair_next_round(actor=organiser, tournament=tournament)
    while matches := _open(round__stage__kind=StageKind.SWISS, round__tournament=tournament):
        for match in matches:
            _play(match, match.a_id)
    cut.refresh_from_db()
    seeded = list(cut.bracket.seeded)
    # The 4th seed wins the cut: the Swiss leader is not the champion.
    underdog = seeded[3]
    while matches := _open(round__stage=cut):
        for match in matches:
            winner = underdog if underdog in (match.a_id, match.b_id) else match.a_id
            _play(match, winner)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    return tournament, organiser, regs, seeded


def test_the_cut_places_first_then_the_swiss_and_the_cut_winner_is_champion(client) -> None:
    tournament, _, _, seeded = _swiss_then_top_4()
    places = dict(
        Registration.objects.filter(tournament=tournament).values_list("pk", "final_place")
    )
    assert places[seeded[3]] == 1  # the cut's winner, whatever their Swiss rank
    assert sorted(places[pk] for pk in seeded) == [1, 2, 3, 3]  # semi-finalists share 3rd
    others = [pk for pk in places if pk not in seeded]
    assert sorted(places[pk] for pk in others) == [5, 6, 7, 8]  # then the Swiss order
    table = {
        row.entrant: row.rank
        for row in placements.tournament_standings(tournament).table.rows
        if row.entrant in others
    }
    assert sorted(others, key=lambda pk: places[pk]) == sorted(others, key=table.__getitem__)

    champion = Registration.objects.select_related("player__user").get(pk=seeded[3])
    overview = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    card = overview[overview.index('id="final-results"') :]
    assert "Champion" in card and champion.name in card.split("</p>", 1)[0]
    assert "1st" in card and "3rd" in card

    page = client.get(reverse("final-results", args=[tournament.pk])).content.decode()
    assert f"<strong>{champion.name}</strong>" in page
    assert 'property="og:image"' in page and "results/card.svg" in page
    assert "<td>1st</td>" in page and "<td>8th</td>" in page
    svg = client.get(reverse("final-results-card", args=[tournament.pk]))
    assert svg["Content-Type"] == "image/svg+xml"
    assert champion.name in svg.content.decode() and "Champion" in svg.content.decode()

    client.force_login(champion.player.user)
    profile = client.get(reverse("profile")).content.decode()
    assert "Finished 1st" in profile and "checked in" not in profile


def test_a_correction_after_the_end_moves_the_places() -> None:
    tournament, *_ = _swiss_then_top_4()
    from tests.factories import member
    from tournaments.models import Role

    judge = member(tournament.club, Role.JUDGE)
    final = Match.objects.get(round__stage__kind=StageKind.SINGLE_ELIMINATION, round__name="final")
    loser = final.b_id if final.winner == "a" else final.a_id
    results.judge_result(actor=judge, match=final, games=B_WINS if final.winner == "a" else A_WINS)
    assert Registration.objects.get(pk=loser).final_place == 1


@pytest.mark.usefixtures("page_clock_still")
def test_the_final_results_page_costs_the_same_for_8_or_16_players(client) -> None:
    counts = []
    for players in (8, 16):
        tournament, *_ = _swiss_then_top_4(players)
        url = reverse("final-results", args=[tournament.pk])
        # Another address of the same page warms what every render shares; the counted
        # request renders the page again (an anonymous copy is kept by address).
        assert client.get(url, {"from": "warm-up"}).status_code == 200
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_places_read_as_ordinals() -> None:
    from tournaments.templatetags.tournament_tags import place

    assert [place(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip
