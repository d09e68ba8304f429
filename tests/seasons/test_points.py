"""A season's points (seasons/points.py, pure): event points, best N, the tiebreak order,
the rules' bounds; properties over random seasons (hypothesis)."""

from __future__ import annotations

import itertools
from datetime import date
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from seasons import points
from seasons.points import EventFacts, Rules

F1 = Rules(placement=(25, 18, 15, 12), win=3, draw=1, attendance=2)


def test_an_events_points_are_place_wins_draws_and_attendance() -> None:
    facts = EventFacts(event=1, player=7, place=2, wins=3, draws=1, losses=1)
    assert points.event_points(F1, facts) == 18 + 9 + 1 + 2


def test_a_place_beyond_the_table_or_no_place_earns_nothing_for_placement() -> None:
    assert points.event_points(F1, EventFacts(event=1, player=1, place=9)) == 2
    assert points.event_points(F1, EventFacts(event=1, player=1, place=None)) == 2


def test_a_team_event_counts_for_each_member_or_not_at_all() -> None:
    facts = [
        EventFacts(event=1, player=1, place=1, team=True),
        EventFacts(event=1, player=2, place=1, team=True),
    ]
    both = points.standings(F1, facts, {})
    assert [(s.player, s.points) for s in both] == [(1, 27), (2, 27)]
    assert points.standings(Rules(placement=(25,), team_events=False), facts, {}) == []


def test_only_the_best_n_events_count() -> None:
    rules = Rules(placement=(10, 5, 1), best_of=2)
    facts = [
        EventFacts(event=e, player=1, place=p, attended=False) for e, p in enumerate([3, 1, 2])
    ]
    (only,) = points.standings(rules, facts, {})
    assert (only.points, only.counted, only.played) == (15, 2, 0)


def test_ties_go_to_events_won_then_best_place_then_match_wins_then_name() -> None:
    rules = Rules(placement=(3, 2, 1), win=0)
    facts = [
        # 1 and 2: 4 points each, 1 won an event (3 + 1), 2 did not (2 + 2).
        EventFacts(event=1, player=1, place=1),
        EventFacts(event=2, player=1, place=3),
        EventFacts(event=1, player=2, place=2),
        EventFacts(event=2, player=2, place=2),
        # 3 and 4: the same record, named "bea" and "Ana": the name decides.
        EventFacts(event=1, player=3, place=3, wins=1),
        EventFacts(event=1, player=4, place=3, wins=1),
        # 5: 1 point like 3 and 4, fewer match wins.
        EventFacts(event=2, player=5, place=3),
    ]
    names = {3: "bea", 4: "Ana", 5: "Zed"}
    ordered = points.standings(rules, facts, names)
    assert [s.player for s in ordered] == [1, 2, 4, 3, 5]
    assert [s.place for s in ordered] == [1, 2, 3, 4, 5]


def test_the_qualifiers_are_the_first_n() -> None:
    ordered = points.standings(F1, [EventFacts(event=1, player=p, place=p) for p in (1, 2, 3)], {})
    assert [s.player for s in points.top(ordered, 2)] == [1, 2]
    assert points.top(ordered, None) == []


def _problems(
    *,
    name: str = "Spring",
    ends_on: date = date(2026, 5, 31),
    rules: Rules = F1,
    qualifiers: int | None = 8,
) -> list[tuple[str, str]]:
    found = points.rule_problems(
        name=name, starts_on=date(2026, 3, 1), ends_on=ends_on, rules=rules, qualifiers=qualifiers
    )
    return [(p.field, p.code) for p in found]


def test_sound_rules_have_no_problem() -> None:
    assert _problems() == []


def test_negative_and_absurd_numbers_are_named_by_field() -> None:
    assert _problems(rules=Rules(placement=(25, -1))) == [("placement_points", "negative")]
    assert _problems(rules=Rules(placement=(5000,))) == [("placement_points", "too_large")]
    assert _problems(rules=Rules(placement=(1,) * 65)) == [("placement_points", "too_long")]
    assert _problems(rules=Rules(win=-3)) == [("win_points", "negative")]
    assert _problems(rules=Rules(win=101)) == [("win_points", "too_large")]
    assert _problems(rules=Rules(win=1, draw=1000)) == [("draw_points", "too_large")]
    assert _problems(rules=Rules(win=1, attendance=-1)) == [("attendance_points", "negative")]
    assert _problems(rules=Rules(win=1, best_of=0)) == [("best_of", "too_small")]
    assert _problems(rules=Rules(win=1, best_of=500)) == [("best_of", "too_large")]
    assert _problems(qualifiers=0) == [("qualifiers", "too_small")]
    assert _problems(qualifiers=10_000) == [("qualifiers", "too_large")]


def test_names_dates_and_rules_without_points_are_refused() -> None:
    assert _problems(name="  ") == [("name", "blank")]
    assert _problems(name="x" * 81) == [("name", "too_long")]
    assert _problems(ends_on=date(2026, 2, 1)) == [("ends_on", "ends_before_start")]
    assert _problems(ends_on=date(2029, 1, 1)) == [("ends_on", "too_long")]
    assert _problems(rules=Rules()) == [("placement_points", "no_points")]


def test_a_typed_placement_table_is_read_or_refused() -> None:
    assert points.parse_table("25, 18 15,12") == (25, 18, 15, 12)
    assert points.parse_table("") == ()
    assert points.parse_table("-3") == (-3,)
    assert points.parse_table("1, two") is None
    assert points.parse_table("²") is None


# --- properties ------------------------------------------------------------------------------

rules_st = st.builds(
    Rules,
    placement=st.lists(st.integers(0, 100), max_size=8).map(tuple),
    win=st.integers(0, 10),
    draw=st.integers(0, 10),
    attendance=st.integers(0, 10),
    best_of=st.none() | st.integers(1, 6),
    team_events=st.booleans(),
)


@st.composite
def season_facts(draw: st.DrawFn) -> list[EventFacts]:
    players = draw(st.integers(1, 8))
    events = draw(st.integers(0, 8))
    made = []
    for event in range(events):
        team = draw(st.booleans())
        for player in draw(st.sets(st.integers(0, players - 1), max_size=players)):
            made.append(
                EventFacts(
                    event=event,
                    player=player,
                    place=draw(st.none() | st.integers(1, 10)),
                    wins=draw(st.integers(0, 5)),
                    draws=draw(st.integers(0, 2)),
                    losses=draw(st.integers(0, 5)),
                    attended=draw(st.booleans()),
                    team=team,
                )
            )
    return made


def _by_player(ordered: list[points.Standing]) -> dict[int, int]:
    return {s.player: s.points for s in ordered}


@settings(max_examples=200, deadline=None)
@given(rules_st, season_facts())
def test_best_n_never_exceeds_the_sum_of_every_event(rules: Rules, facts: list[EventFacts]) -> None:
    every = Rules(**{**vars(rules), "best_of": None})
    for standing in points.standings(rules, facts, {}):
        total = _by_player(points.standings(every, facts, {}))[standing.player]
        assert standing.points <= total
        assert rules.best_of is None or standing.counted <= rules.best_of


@settings(max_examples=200, deadline=None)
@given(rules_st, season_facts(), st.integers(0, 7), st.integers(1, 10))
def test_adding_an_event_never_lowers_anyones_points(
    rules: Rules, facts: list[EventFacts], player: int, place: int
) -> None:
    before = _by_player(points.standings(rules, facts, {}))
    extra = EventFacts(event=99, player=player, place=place, wins=1)
    after = _by_player(points.standings(rules, [*facts, extra], {}))
    for someone, got in before.items():
        assert after[someone] >= got


@settings(max_examples=200, deadline=None)
@given(rules_st, season_facts(), st.randoms(use_true_random=False))
def test_the_order_of_the_events_changes_nothing(
    rules: Rules, facts: list[EventFacts], random: Random
) -> None:
    shuffled = list(facts)
    random.shuffle(shuffled)
    names = {p: f"p{p % 3}" for p in range(8)}
    assert points.standings(rules, facts, names) == points.standings(rules, shuffled, names)


@settings(max_examples=200, deadline=None)
@given(rules_st, season_facts())
def test_places_run_one_to_n_in_points_order(rules: Rules, facts: list[EventFacts]) -> None:
    ordered = points.standings(rules, facts, {})
    assert [s.place for s in ordered] == list(range(1, len(ordered) + 1))
    assert all(a.points >= b.points for a, b in itertools.pairwise(ordered))
