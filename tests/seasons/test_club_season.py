"""Issue 26's "Done when", through the API: a club's season of six weekly events of mixed
formats (a Swiss with a top-4 cut, a 2 vs 2 Swiss, a pod event, a round robin, a knockout;
``club_season``); the leaderboard, ratings and player pages against the case computed by
hand here (the ratings against openskill called directly, not through our module); a
judge's correction in event 2 changes the leaderboard and the ratings from it on, and
nothing else; the finals made from the top 8."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from openskill.models import PlackettLuce

from tests.seasons.club_season import RULES, Played, Season, ok

pytestmark = pytest.mark.django_db(transaction=True)


# --- the case computed by hand ---------------------------------------------------------------


def library_ratings(log: list[Played]) -> dict[int, tuple[float, float]]:
    """Every player's (mu, sigma): openskill's Plackett-Luce over the results in play order."""
    model = PlackettLuce()
    current: dict[int, Any] = {}
    for played in log:
        teams = [[current.setdefault(p, model.rating()) for p in side] for side in played.sides]
        rated = model.rate(teams, ranks=list(played.ranks))
        for side, new_side in zip(played.sides, rated, strict=True):
            for player, new in zip(side, new_side, strict=True):
                current[player] = new
    return {p: (r.mu, r.sigma) for p, r in current.items()}


def final_places(season: Season) -> dict[tuple[int, int], int]:
    """(event, player) -> the final place, as each player's API lists their events."""
    found = {}
    events = {tournament: number for number, tournament in season.events.items()}
    for player in season.player_of.values():
        for row in ok(season.org.get(f"/api/v1/players/{player}/"))["events"]:
            found[(events[row["tournament"]], player)] = row["final_place"]
    return found


def season_points(season: Season, places: dict[tuple[int, int], int]) -> dict[int, int]:
    """The rules by hand: place points + 1 a match won + 1 for playing, best 5 events."""
    wins: dict[tuple[int, int], int] = defaultdict(int)
    for played in season.log:
        winner = played.sides[played.ranks.index(1)]
        for player in winner:
            wins[(played.event, player)] += 1
    per_player: dict[int, list[int]] = defaultdict(list)
    table = RULES["placement_points"]
    for (event, player), place in places.items():
        placed = table[place - 1] if place <= len(table) else 0
        per_player[player].append(placed + wins[(event, player)] + 1)
    return {p: sum(sorted(points, reverse=True)[:5]) for p, points in per_player.items()}


def board(season: Season) -> dict[int, int]:
    return {row["player"]: row["points"] for row in season.leaderboard()}


def ratings_by_api(season: Season) -> dict[int, tuple[float, float]]:
    answer = ok(season.org.get(f"/api/v1/clubs/{season.club}/ratings/", {"game": "gesoseka"}))
    rows = answer["results"] if isinstance(answer, dict) else answer
    return {row["player"]: (row["mu"], row["sigma"]) for row in rows}


def history(season: Season, player: int) -> list[dict[str, Any]]:
    (rating,) = ok(season.org.get(f"/api/v1/players/{player}/ratings/"))["ratings"]
    return rating["history"]


def assert_same_ratings(got: dict[int, tuple[float, float]], want: dict[int, Any]) -> None:
    assert got.keys() == want.keys()
    for player, (mu, sigma) in want.items():
        assert got[player] == pytest.approx((mu, sigma), abs=1e-6), player


# --- the season ---------------------------------------------------------------------------------


@pytest.fixture
def season() -> Season:
    season = Season.begin()
    for week in range(1, 7):
        season.run_week(week)
    season.open_season()
    return season


def test_six_weeks_give_the_leaderboard_and_ratings_computed_by_hand(season: Season) -> None:
    log = season.log
    assert [sum(1 for p in log if p.event == n) for n in range(1, 7)] == [15, 12, 4, 4, 15, 7]
    assert {len(p.sides) for p in log} == {2, 4} and any(len(p.sides[0]) == 2 for p in log)

    places = final_places(season)
    p = season.player_of
    # The strongest player won the four events they played (each: 10 for first place, 1 for
    # playing, 1 a match won: 5 in week 1, 3 in week 2, 2 in week 3, 2 pods in week 4).
    assert [places[(event, p[1])] for event in (1, 2, 3, 4)] == [1, 1, 1, 1]
    rows = {row["player"]: row for row in season.leaderboard()}
    assert rows[p[1]]["points"] == 4 * (10 + 1) + (5 + 3 + 2 + 2) == 56
    assert rows[p[1]]["place"] == 1 and rows[p[1]]["events_won"] == 4
    # p12 played once, in week 3's winning team: 10 + 1 + 2 matches won.
    assert rows[p[12]]["points"] == 13 and rows[p[12]]["events_counted"] == 1
    # Best 5 of 6: p05 played weeks 1, 2, 4, 5, 6 (five), p03 weeks 1-4 and 6.
    assert rows[p[5]]["events_played"] == 5 and rows[p[5]]["events_counted"] == 5

    assert board(season) == season_points(season, places)
    ordered = [row["points"] for row in season.leaderboard()]
    assert ordered == sorted(ordered, reverse=True)
    assert [row["place"] for row in season.leaderboard()] == list(range(1, 13))
    assert sum(row["qualified"] for row in season.leaderboard()) == 8

    want = library_ratings(log)
    assert_same_ratings(ratings_by_api(season), want)
    mu, sigma = want[p[1]]
    assert history(season, p[1])[-1]["rating"] == pytest.approx(mu - 3 * sigma, abs=1e-6)
    # The player page shows the same figures.
    page = season.org.get(f"/players/{p[1]}/").content.decode()
    assert f"{mu - 3 * sigma:.1f}" in page or f"{mu - 3 * sigma:.2f}" in page
    assert "Week 1: Swiss and top 4" in page and "Week 4: pods" in page
    seasons = page[page.index('id="season-standings"') : page.index('id="events"')]
    assert "Autumn league" in seasons and "1st of 12" in seasons and ">56<" in seasons


def test_a_correction_in_week_2_changes_what_follows_it_and_nothing_else(season: Season) -> None:
    p = season.player_of
    places_before = final_places(season)
    history_before = {player: history(season, player) for player in p.values()}
    board_before = board(season)

    # Week 2's last round: the strongest player's match, turned round by a judge.
    last_round = [played for played in season.log if played.event == 2][-4:]
    (corrected,) = [played for played in last_round if (p[1],) in played.sides]
    (opponent,) = [side[0] for side in corrected.sides if side != (p[1],)]
    season.correct(corrected)

    want = library_ratings(season.log)
    assert_same_ratings(ratings_by_api(season), want)
    places_after = final_places(season)
    assert places_before[(2, p[1])] == 1 and places_after[(2, p[1])] > 1
    assert places_after[(2, opponent)] < places_before[(2, opponent)]
    for key, place in places_before.items():  # only week 2's places move
        if key[0] != 2:
            assert places_after[key] == place, key
    assert board(season) == season_points(season, places_after)
    assert board(season) != board_before
    table = RULES["placement_points"]
    lost = table[0] - table[places_after[(2, p[1])] - 1]  # first place's points, and a win
    assert board(season)[p[1]] == board_before[p[1]] - lost - 1
    # Every rating change before the corrected match (week 1, week 2's first rounds) is
    # untouched; from it on, the two players' changes moved.
    earlier = {played.match for played in season.log[: season.log.index(corrected)]}
    assert len(earlier) == 15 + 8  # week 1, and week 2's first two rounds
    for player, before in history_before.items():
        after = history(season, player)
        assert [h for h in after if h["match"] in earlier] == [
            h for h in before if h["match"] in earlier
        ]
    for player in (p[1], opponent):
        assert history(season, player)[-1] != history_before[player][-1]


def test_the_finals_are_made_from_the_top_8(season: Season) -> None:
    top = [row["name"] for row in season.leaderboard()[:8]]
    url = f"/api/v1/clubs/{season.club}/seasons/{season.season}/finals/"
    body = {"name": "Autumn finals", "scheduled_start": "2027-01-07T19:00:00Z"}
    finals = ok(season.org.post(url, body, format="json"), 201)
    assert finals["players"] == top and finals["game"] == "gesoseka"
    entrants = ok(season.org.get(f"/api/v1/tournaments/{finals['id']}/registrations/"))
    entrants = entrants["results"] if isinstance(entrants, dict) else entrants
    assert sorted(row["name"] for row in entrants) == sorted(top)
    outsider = Season.client_of(season.users[12])
    refused = outsider.post(url, body, format="json")
    assert refused.status_code == 403 and refused.json()["code"]
