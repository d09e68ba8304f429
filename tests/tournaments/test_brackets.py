"""Elimination stages through the services: a Swiss then a top 8, a double elimination as
the whole event, draws refused, corrections checked, races (PostgreSQL, real commits: the
bracket moves on in a task queued on commit, run eagerly here)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from core.errors import Conflict, InvalidInput
from core.models import Event
from tests.factories import (
    A_WINS,
    B_WINS,
    RegistrationFactory,
    TournamentFactory,
    member,
    running_tournament,
)
from tests.tournaments.test_concurrency import run_together
from tournaments import selectors
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    Role,
    Round,
    Stage,
    StageKind,
    StageStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.pairing import elimination
from tournaments.selectors.brackets import bracket_of, bracket_results
from tournaments.selectors.names import round_title
from tournaments.services import brackets, lifecycle, results, swiss

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

DRAW = [{"rounds": [[10, 5], [5, 10], [7, 7]]}]


def _user(registration_id: int):
    return Registration.objects.select_related("player__user").get(pk=registration_id).player.user


def _play(match: Match, winner: int) -> None:
    """The two players report and confirm ``winner`` (a registration id) as the winner."""
    games = A_WINS if winner == match.a_id else B_WINS
    results.report_result(actor=_user(match.a_id), match=match.pk, games=games)
    assert match.b_id is not None
    results.confirm_result(actor=_user(match.b_id), match=match.pk)


def _open_bracket_matches(stage: Stage) -> list[Match]:
    return list(
        Match.objects.filter(round__stage=stage)
        .exclude(status=MatchStatus.CONFIRMED)
        .order_by("round__number", "table")
    )


def _swiss_then_top(players: int, top: int, **bracket):
    tournament, organiser, _ = running_tournament(players, rounds=3)
    cut = brackets.add_stage(
        actor=organiser,
        tournament=tournament,
        kind=bracket.pop("kind", StageKind.SINGLE_ELIMINATION),
        cut_top=top,
        **bracket,
    )
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    for _ in range(3):  # the Swiss: the first entrant of every table wins
        for match in Match.objects.filter(
            round__tournament=tournament, status=MatchStatus.PENDING, b__isnull=False
        ):
            _play(match, match.a_id)
    cut.refresh_from_db()
    return tournament, organiser, cut


def test_swiss_then_top_8_single_elimination_runs_to_the_end() -> None:
    tournament, _, cut = _swiss_then_top(12, 8)
    assert cut.status == StageStatus.RUNNING and cut.number == 2
    standings = selectors.tournament_standings(tournament)
    top8 = [row.entrant for row in standings.table.rows[:8]]
    assert cut.bracket.seeded == top8
    quarterfinals = _open_bracket_matches(cut)
    # Standard seeding: 1v8, 4v5, 2v7, 3v6 from the top of the bracket.
    pairs = [(m.a_id, m.b_id) for m in quarterfinals]
    assert pairs == [(top8[0], top8[7]), (top8[3], top8[4]), (top8[1], top8[6]), (top8[2], top8[5])]
    assert {round_title(m.round) for m in quarterfinals} == {"Quarterfinals"}
    assert quarterfinals[0].round.number == 4  # rounds go on through the tournament
    while open_matches := _open_bracket_matches(cut):
        for match in open_matches:  # the better seed always wins
            _play(match, min(match.a_id, match.b_id, key=top8.index))
    cut.refresh_from_db()
    tournament.refresh_from_db()
    assert cut.status == StageStatus.COMPLETE
    assert tournament.status == TournamentStatus.FINISHED
    final = Match.objects.get(round__stage=cut, slot__startswith="W3")
    assert {final.a_id, final.b_id} == {top8[0], top8[1]} and round_title(final.round) == "Final"
    assert Round.objects.filter(stage=cut, status="complete").count() == 3
    # The Swiss standings count only Swiss matches.
    after = selectors.tournament_standings(tournament)
    assert [row.points for row in after.table.rows] == [row.points for row in standings.table.rows]


def _bracket_event(players: int, kind: str, **options):
    tournament = TournamentFactory(
        capacity=players,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(players):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    stage = brackets.add_stage(
        actor=organiser, tournament=tournament, kind=kind, position=brackets.ONLY, **options
    )
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    stage.refresh_from_db()
    return tournament, organiser, stage


def test_double_elimination_of_12_with_byes_runs_to_the_end() -> None:
    tournament, _, stage = _bracket_event(12, StageKind.DOUBLE_ELIMINATION)
    assert Stage.objects.filter(tournament=tournament).count() == 1
    assert stage.status == StageStatus.RUNNING and len(stage.bracket.seeded) == 12
    first = _open_bracket_matches(stage)
    assert len(first) == 4  # 12 in a bracket of 16: the top 4 seeds have byes
    byes = set(stage.bracket.seeded[:4])
    assert not byes & {e for m in first for e in (m.a_id, m.b_id)}
    draw = random.Random(12)
    losses: dict[int, int] = {}
    while open_matches := _open_bracket_matches(stage):
        for match in open_matches:
            assert match.b_id is not None
            winner = draw.choice([match.a_id, match.b_id])
            loser = match.b_id if winner == match.a_id else match.a_id
            losses[loser] = losses.get(loser, 0) + 1
            _play(match, winner)
    stage.refresh_from_db()
    tournament.refresh_from_db()
    assert stage.status == StageStatus.COMPLETE and tournament.status == TournamentStatus.FINISHED
    state = elimination.resolve(bracket_of(stage), bracket_results(stage))
    assert state.finished and state.champion is not None
    assert all(n <= 2 for n in losses.values())
    assert losses.get(state.champion, 0) <= 1
    assert sorted(state.eliminated) == sorted(set(stage.bracket.seeded) - {state.champion})
    # Every match played is a slot of the bracket, each once.
    slots = list(Match.objects.filter(round__stage=stage).values_list("slot", flat=True))
    assert len(slots) == len(set(slots)) and all(slots)
    # Each has its slot's table within its round (the drawing's numbering), whatever the
    # order the matches became ready in.
    tables = elimination.tables(bracket_of(stage))
    played = Match.objects.filter(round__stage=stage).values_list("slot", "table")
    assert all(table == tables[slot] for slot, table in played)


def test_a_drawn_result_is_refused_in_a_bracket_and_nothing_is_saved() -> None:
    _, organiser, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    match = _open_bracket_matches(stage)[0]
    with pytest.raises(InvalidInput) as refused:
        results.report_result(actor=_user(match.a_id), match=match.pk, games=DRAW)
    assert refused.value.code == "draw_in_bracket"
    with pytest.raises(InvalidInput):
        results.judge_result(actor=organiser, match=match.pk, games=DRAW)
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING and not match.reports.exists()


def test_a_correction_is_refused_while_a_later_match_has_a_result() -> None:
    _, organiser, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    semi_1, semi_2 = _open_bracket_matches(stage)
    _play(semi_1, semi_1.a_id)
    _play(semi_2, semi_2.a_id)
    final = Match.objects.get(round__stage=stage, slot="W2-1")
    results.report_result(actor=_user(final.a_id), match=final.pk, games=A_WINS)
    with pytest.raises(Conflict) as refused:
        results.judge_result(actor=organiser, match=semi_1.pk, games=B_WINS)
    assert refused.value.code == "later_results_exist"
    assert "Final, table 1" in refused.value.detail
    semi_1.refresh_from_db()
    assert semi_1.winner == "a"


def test_a_correction_before_the_next_match_is_played_moves_the_winner_on() -> None:
    _, organiser, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    semi_1, semi_2 = _open_bracket_matches(stage)
    _play(semi_1, semi_1.a_id)
    _play(semi_2, semi_2.a_id)
    final = Match.objects.get(round__stage=stage, slot="W2-1")
    assert final.a_id == semi_1.a_id
    results.judge_result(actor=organiser, match=semi_1.pk, games=B_WINS)
    final.refresh_from_db()
    assert final.a_id == semi_1.b_id and final.status == MatchStatus.PENDING
    assert final.seats.filter(registration_id=semi_1.b_id).exists()
    assert not final.seats.filter(registration_id=semi_1.a_id).exists()


def test_two_results_confirmed_at_once_ready_the_next_match_once() -> None:
    _, _, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    semi_1, semi_2 = _open_bracket_matches(stage)
    for m in (semi_1, semi_2):
        results.report_result(actor=_user(m.a_id), match=m.pk, games=A_WINS)
    outcome = run_together(
        *[
            (lambda m=m: results.confirm_result(actor=_user(m.b_id), match=m.pk))
            for m in (semi_1, semi_2)
        ]
    )
    assert not [o for o in outcome if isinstance(o, Exception)], outcome
    finals = Match.objects.filter(round__stage=stage, slot="W2-1")
    assert finals.count() == 1
    assert {finals[0].a_id, finals[0].b_id} == {semi_1.a_id, semi_2.a_id}
    assert Event.objects.filter(kind="bracket.match_ready", payload__slot="W2-1").count() == 1


def test_adding_stages_refuses_what_cannot_be() -> None:
    tournament, organiser, _ = running_tournament(6)
    with pytest.raises(InvalidInput) as too_many:
        brackets.add_stage(
            actor=organiser, tournament=tournament, kind=StageKind.SINGLE_ELIMINATION, cut_top=8
        )
    assert too_many.value.code == "cut_too_large" and "only 6" in too_many.value.detail
    with pytest.raises(Conflict) as started:
        brackets.add_stage(
            actor=organiser,
            tournament=tournament,
            kind=StageKind.SINGLE_ELIMINATION,
            position=brackets.ONLY,
        )
    assert started.value.code == "tournament_started"
    brackets.add_stage(
        actor=organiser, tournament=tournament, kind=StageKind.SINGLE_ELIMINATION, cut_top=4
    )
    with pytest.raises(Conflict) as after_bracket:
        brackets.add_stage(
            actor=organiser, tournament=tournament, kind=StageKind.DOUBLE_ELIMINATION, cut_top=2
        )
    assert after_bracket.value.code == "stage_after_bracket"
    with pytest.raises(InvalidInput):
        brackets.add_stage(actor=organiser, tournament=tournament, kind="swiss")
    assert Stage.objects.filter(tournament=tournament).count() == 2


def test_a_bracket_round_cannot_be_paired_again_or_swapped() -> None:
    _, organiser, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    rnd = Round.objects.get(stage=stage)
    with pytest.raises(Conflict) as refused:
        swiss.pair_round_again(actor=organiser, round=rnd)
    assert refused.value.code == "bracket_round"
    tournament = Tournament.objects.get(pk=stage.tournament_id)
    with pytest.raises(Conflict) as no_pairing:
        swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert no_pairing.value.code == "bracket_stage"


# --- through the API -------------------------------------------------------------------------


def _token_client(user):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_a_double_elimination_of_12_runs_to_the_end_through_the_api() -> None:
    tournament = TournamentFactory(
        capacity=12,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(12):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    staff = _token_client(organiser)
    added = staff.post(
        f"/api/v1/tournaments/{tournament.pk}/stages/",
        {"kind": "double_elim", "position": "only", "grand_final": "reset"},
        format="json",
    )
    assert added.status_code == 201, added.content
    assert added.json()["kind"] == "double_elim" and added.json()["number"] == 1
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    url = f"/api/v1/tournaments/{tournament.pk}/stages/1/bracket/"
    draw = random.Random(5)
    for _ in range(40):
        bracket = staff.get(url).json()
        if bracket["champion"]:
            break
        assert bracket["ready"], "a bracket that is not decided has a match to play"
        for slot in (s for s in bracket["slots"] if s["key"] in bracket["ready"]):
            a, b = slot["a"]["registration"], slot["b"]["registration"]
            games = A_WINS if draw.random() < 0.5 else B_WINS
            path = f"/api/v1/matches/{slot['match']}"
            reported = _token_client(_user(a)).post(
                f"{path}/report/", {"games": games, "final": True}, format="json"
            )
            assert reported.status_code == 200, reported.content
            confirmed = _token_client(_user(b)).post(f"{path}/confirm/")
            assert confirmed.status_code == 200, confirmed.content
    assert bracket["champion"] is not None
    assert bracket["status"] == "complete"
    places = sorted(p["place"] for p in bracket["placements"])
    assert len(places) == 12 and places[:2] == [1, 2]
    byes = {s["key"] for s in bracket["slots"] if s["status"] == "bye"}
    # The top 4 seeds' byes, and the losers' bracket slots their (absent) losers would fill.
    assert len({key for key in byes if key.startswith("W1-")}) == 4
    assert all(s["match"] is None for s in bracket["slots"] if s["key"] in byes)
    assert staff.get(f"/api/v1/tournaments/{tournament.pk}/").json()["status"] == "finished"


def test_adding_a_stage_through_the_api_refuses_bad_input_by_name() -> None:
    tournament, organiser, _ = running_tournament(6)
    staff = _token_client(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/stages/"
    cases = [  # (body, the field named, the code)
        ({"kind": "single_elim", "cut_top": 8}, "cut_top", "cut_too_large"),
        ({"kind": "single_elim", "cut_top": 4, "cutt_top": 2}, "cutt_top", "unknown_field"),
        ({"kind": "pods"}, "kind", "invalid"),
        ({"kind": "single_elim", "cut_top": 5000}, "cut_top", "invalid"),
        ({"kind": "single_elim", "cut_top": 10**30}, None, "number_too_large"),
    ]
    for body, name, code in cases:
        answer = staff.post(url, body, format="json")
        assert answer.status_code == 400, (body, answer.content)
        assert (answer.json().get("field"), answer.json()["code"]) == (name, code), answer.content
    player = Registration.objects.filter(tournament=tournament).first()
    assert player is not None
    refused = _token_client(player.player.user).post(url, {"kind": "single_elim"}, format="json")
    assert refused.status_code == 403
    assert Stage.objects.filter(tournament=tournament).count() == 1


def test_the_bracket_costs_the_same_queries_for_4_or_16_players(
    django_assert_max_num_queries,
) -> None:
    counts = []
    for players in (4, 16):
        tournament, organiser, _ = _bracket_event(players, StageKind.DOUBLE_ELIMINATION)
        client = _token_client(organiser)
        url = f"/api/v1/tournaments/{tournament.pk}/stages/1/bracket/"
        from django.db import connection as conn
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(conn) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


# --- the pages ----------------------------------------------------------------------------


def test_the_live_redraw_costs_the_same_queries_for_4_or_16_players() -> None:
    """The redraw (``?part=drawing``) brings the drawing, "Ready to play", the places and
    the round card (issue 22): a fixed number of queries whatever the bracket's size."""
    from django.db import connection as conn
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (4, 16):
        tournament, _, stage = _bracket_event(players, StageKind.DOUBLE_ELIMINATION)
        player = Registration.objects.get(pk=stage.bracket.seeded[0])
        client = Client()
        client.force_login(player.player.user)
        url = f"/tournaments/{tournament.pk}/stages/1/bracket/?part=drawing"
        with CaptureQueriesContext(conn) as queries:
            drawing = client.get(url)
        assert drawing.status_code == 200 and "Ready to play" in drawing.content.decode()
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_bracket_page_draws_the_bracket_with_a_constant_number_of_queries() -> None:
    from django.db import connection as conn
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (4, 16):
        tournament, _, stage = _bracket_event(players, StageKind.DOUBLE_ELIMINATION)
        player = Registration.objects.get(pk=stage.bracket.seeded[0])
        client = Client()
        client.force_login(player.player.user)
        url = f"/tournaments/{tournament.pk}/stages/1/bracket/"
        with CaptureQueriesContext(conn) as queries:
            page = client.get(url)
        assert page.status_code == 200
        counts.append(len(queries))
        html = page.content.decode()
        assert "<svg" in html and 'id="slot-W1-1"' in html
        latest = Round.objects.filter(stage=stage).order_by("-number").first()
        assert latest is not None and f"<strong>{round_title(latest)}</strong>" in html  # named
        assert "Your next match" in html  # the logged-in seed 1 plays in round 1
        drawing = client.get(url + "?part=drawing")
        assert drawing.status_code == 200 and "<svg" in drawing.content.decode()
    assert counts[0] == counts[1], counts


def test_a_bracket_match_is_named_by_its_place_in_the_bracket_and_the_redraw_is_whole() -> None:
    from django.test import Client

    tournament, _, stage = _bracket_event(4, StageKind.DOUBLE_ELIMINATION)
    first = _open_bracket_matches(stage)
    client = Client()
    client.force_login(_user(first[0].a_id))
    url = f"/tournaments/{tournament.pk}/stages/1/bracket/"
    before = client.get(url + "?part=drawing").content.decode()
    assert "Winners semifinals, table 1</a>" in before
    assert "Winners final, table 1</a>" not in before
    for match in first:
        _play(match, match.a_id)
    final = Match.objects.select_related("round").get(round__stage=stage, slot="W2-1")
    assert final.round.number > 1  # the tournament's round 2 or 3, not what people read
    page = client.get(f"/tournaments/{tournament.pk}/matches/{final.pk}/").content.decode()
    assert "<h1>Winners final, table 1</h1>" in page
    assert "<title>Winners final, table 1 · " in page
    assert f"Round {final.round.number}, table" not in page
    pairings = client.get(f"/tournaments/{tournament.pk}/rounds/{final.round.number}/")
    assert ": Winners final</h1>" in pairings.content.decode()
    # The live page's redraw brings the whole page's state: the drawing, and out of band
    # the next match, "Ready to play" and the round clock.
    after = client.get(url + "?part=drawing").content.decode()
    assert "<svg" in after
    assert '<div id="bracket-lists" hx-swap-oob="true">' in after
    assert '<div id="bracket-next" hx-swap-oob="true">' in after
    assert "Winners final, table 1</a>" in after and "Losers round 1, table 1</a>" in after
    assert "Winners semifinals, table 1</a>" not in after
    assert 'id="round-timer-box" hx-swap-oob="innerHTML"' in after


def test_an_organiser_adds_a_top_cut_on_the_stages_page() -> None:
    from django.test import Client

    tournament, organiser, _ = running_tournament(10)
    client = Client()
    client.force_login(organiser)
    url = f"/tournaments/{tournament.pk}/stages/"
    assert "Add a top cut" in client.get(url).content.decode()
    refused = client.post(
        url, {"kind": "single_elim", "cut_top": "16", "grand_final": "reset", "round_minutes": "50"}
    )
    assert refused.status_code == 200
    assert "only 10 are playing" in refused.content.decode()
    added = client.post(
        url, {"kind": "single_elim", "cut_top": "8", "grand_final": "reset", "round_minutes": "50"}
    )
    assert added.status_code == 302
    page = client.get(url).content.decode()
    assert "Stage 2 (Single elimination)" in page and "top 8" in page
    anonymous = Client().post(url, {"kind": "single_elim", "cut_top": "4"})
    assert anonymous.status_code == 404
    assert Stage.objects.filter(tournament=tournament).count() == 2


def test_the_stages_page_lists_the_rounds_of_a_running_swiss() -> None:
    from django.test import Client

    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    page = Client().get(f"/tournaments/{tournament.pk}/stages/")
    assert page.status_code == 200 and "round 1" in page.content.decode()


def test_a_swiss_then_a_top_8_runs_to_the_end_through_the_api() -> None:
    tournament, organiser, _ = running_tournament(12, rounds=3)
    staff = _token_client(organiser)
    added = staff.post(
        f"/api/v1/tournaments/{tournament.pk}/stages/",
        {"kind": "single_elim", "cut_top": 8, "third_place": True},
        format="json",
    )
    assert added.status_code == 201, added.content
    swiss.pair_next_round(actor=organiser, tournament=tournament)

    def play(match_id: int, a: int, b: int) -> None:
        path = f"/api/v1/matches/{match_id}"
        body = {"games": A_WINS, "final": True}
        assert (
            _token_client(_user(a)).post(f"{path}/report/", body, format="json").status_code == 200
        )
        assert _token_client(_user(b)).post(f"{path}/confirm/").status_code == 200

    for number in (1, 2, 3):
        listed = staff.get(f"/api/v1/tournaments/{tournament.pk}/matches/?round={number}").json()
        for match in listed:
            play(match["id"], match["a"]["registration"], match["b"]["registration"])
    stages = staff.get(f"/api/v1/tournaments/{tournament.pk}/stages/").json()
    assert [(s["kind"], s["status"]) for s in stages] == [
        ("swiss", "complete"),
        ("single_elim", "running"),
    ]
    url = f"/api/v1/tournaments/{tournament.pk}/stages/2/bracket/"
    for _ in range(5):
        bracket = staff.get(url).json()
        if bracket["champion"]:
            break
        for slot in (s for s in bracket["slots"] if s["key"] in bracket["ready"]):
            play(slot["match"], slot["a"]["registration"], slot["b"]["registration"])
    assert len(bracket["seeds"]) == 8 and bracket["champion"] is not None
    assert sorted(p["place"] for p in bracket["placements"])[:4] == [1, 2, 3, 4]
    assert {s["key"] for s in bracket["slots"]} >= {"W1-1", "W3-1", "P3"}
    assert staff.get(f"/api/v1/tournaments/{tournament.pk}/").json()["status"] == "finished"


def test_my_match_is_the_players_unplayed_bracket_match_even_in_an_earlier_round() -> None:
    from tournaments.selectors.matches import current_match_id_of

    _, _, stage = _bracket_event(8, StageKind.DOUBLE_ELIMINATION)
    for match in _open_bracket_matches(stage):  # winners' round 1: the first entrant wins
        _play(match, match.a_id)
    tournament = Tournament.objects.get(pk=stage.tournament_id)
    latest = selectors.current_round(tournament)
    losers_1 = Match.objects.get(round__stage=stage, slot="L1-1")
    winners_2 = Match.objects.get(round__stage=stage, slot="W2-1")
    # Winners' round 2 was readied before losers' round 1: not the latest round.
    assert latest is not None and winners_2.round.number < latest.number
    for match in (losers_1, winners_2):
        mine = selectors.current_match_of(_user(match.a_id), tournament)
        assert mine is not None and mine.pk == match.pk
        # Where "my match" leads, read as the match's id alone (issue 24).
        assert current_match_id_of(_user(match.a_id), tournament) == match.pk


def test_a_bracket_round_offers_no_pairing_controls() -> None:
    from tournaments.selectors import policies

    _, organiser, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    tournament = Tournament.objects.get(pk=stage.tournament_id)
    latest = selectors.current_round(tournament)
    actions = policies.tournament_actions(organiser, tournament, current_round=latest)
    assert "start_round" in actions
    assert not actions & {"repair", "swap", "pair"}
    for match in _open_bracket_matches(stage):
        _play(match, match.a_id)
    latest = selectors.current_round(tournament)
    actions = policies.tournament_actions(organiser, tournament, current_round=latest)
    assert "pair" not in actions


def test_a_bracket_exports_as_csv_a_row_a_slot_with_the_places() -> None:
    import csv
    import io

    tournament, organiser, stage = _bracket_event(5, StageKind.SINGLE_ELIMINATION)
    while open_matches := _open_bracket_matches(stage):
        for match in open_matches:
            _play(match, match.a_id)
    answer = _token_client(organiser).get(
        f"/api/v1/tournaments/{tournament.pk}/stages/1/bracket.csv"
    )
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert {r["slot"] for r in rows} >= {"W1-1", "W3-1"}
    byes = [r for r in rows if r["status"] == "bye"]
    assert len(byes) == 3 and all("BYE" in (r["player_a"], r["player_b"]) for r in byes)
    final = next(r for r in rows if r["slot"] == "W3-1")
    assert {final["place_a"], final["place_b"]} == {"1", "2"} and final["winner"]


def test_the_judge_sees_which_later_bracket_match_a_correction_changes() -> None:
    from django.test import Client

    tournament, organiser, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    semi_1, semi_2 = _open_bracket_matches(stage)
    _play(semi_1, semi_1.a_id)
    _play(semi_2, semi_2.a_id)
    client = Client()
    client.force_login(organiser)
    url = f"/tournaments/{tournament.pk}/matches/{semi_1.pk}/"
    assert (
        "Changing this result changes who plays: Final, table 1."
        in client.get(url).content.decode()
    )
    final = Match.objects.get(round__stage=stage, slot="W2-1")
    results.report_result(actor=_user(final.a_id), match=final.pk, games=A_WINS)
    page = client.get(url).content.decode()
    assert "Later matches already have results that depend on this one (Final, table 1)" in page


def test_the_tournament_page_lists_its_stages_with_links() -> None:
    from django.test import Client

    tournament, _, _ = _swiss_then_top(8, 4)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Stage 1 (Swiss)" in page and "Stage 2 (Single elimination)" in page
    assert f"/tournaments/{tournament.pk}/stages/2/bracket/" in page


def test_the_stages_page_and_the_bracket_csv_cost_the_same_queries_whatever_the_size() -> None:
    from django.db import connection as conn
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    counts: dict[str, list[int]] = {"stages": [], "csv": []}
    for players in (4, 16):
        tournament, organiser, _ = _bracket_event(players, StageKind.DOUBLE_ELIMINATION)
        client = Client()
        client.force_login(organiser)
        for name, url in (
            ("stages", f"/tournaments/{tournament.pk}/stages/"),
            ("csv", f"/api/v1/tournaments/{tournament.pk}/stages/1/bracket.csv"),
        ):
            with CaptureQueriesContext(conn) as queries:
                assert client.get(url).status_code == 200
            counts[name].append(len(queries))
    assert counts["stages"][0] == counts["stages"][1], counts
    assert counts["csv"][0] == counts["csv"][1], counts
