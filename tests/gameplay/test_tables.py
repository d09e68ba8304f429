"""The live table through its services: taps and the turn limit, races by turn number,
undo, scores into the match's result and on into standings and brackets."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.audit import AuditEntry
from core.errors import Conflict, InvalidInput, NotAllowed
from core.words import problem as problem_of
from gameplay.models import LiveTable, TableMode, TableSettings, TableStatus, TurnEvent
from gameplay.selectors import table_lists, table_words
from gameplay.selectors import tables as selectors
from gameplay.services import tables
from tests.factories import A_WINS, UserFactory, member, running_tournament
from tournaments.models import Match, MatchStatus, Role, Round, RoundStatus, StageKind
from tournaments.selectors.standings import tournament_standings
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


def _said(error: Exception) -> str:
    """A refusal as the edges show it: a rule violation in words (``core.words``)."""
    problem = problem_of(error)
    assert problem is not None
    return problem.detail


def _users(match: Match):
    return match.a.player.user, match.b.player.user


def _first_match(players: int = 2, **options):
    tournament, organiser, _ = running_tournament(players, **options)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = (
        Match.objects.filter(round=rnd, b__isnull=False)
        .select_related("a__player__user", "b__player__user")
        .first()
    )
    assert match is not None
    return tournament, organiser, match


def _snap(table: LiveTable) -> dict:
    snapshot = selectors.full_snapshot(table.pk)
    assert snapshot is not None
    return snapshot


def _tap(table: LiveTable, user, kind: str = "play", **extra):
    number = _snap(table)["turn_number"]
    return tables.take_turn(actor=user, table=table.pk, number=number, kind=kind, **extra)


def test_a_player_opens_the_table_and_taps_turns_in_order() -> None:
    _, _, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    assert table.turn_limit == 10 and table.pass_is_final
    assert tables.open_table(actor=bruno, match=match.pk).pk == table.pk  # one table per match
    _tap(table, ana)
    snapshot = _snap(table)
    assert snapshot["to_play"] == 1 and snapshot["turn_number"] == 1
    assert snapshot["headline"] == f"{bruno.player.display_name}'s turn"
    with pytest.raises(Conflict) as refused:
        _tap(table, ana)
    assert refused.value.code == "turn_limit.not_your_turn"
    assert _said(refused.value).startswith(f"It is {bruno.player.display_name}'s turn")
    assert TurnEvent.objects.filter(table=table).count() == 1


def test_ten_turns_after_a_pass_then_the_limit_refuses_the_eleventh() -> None:
    _, _, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    _tap(table, ana, "pass")
    for turn in range(10):
        _tap(table, bruno, "play")
        left = _snap(table)["turns_left"][1]
        assert left == 9 - turn or (turn == 9 and _snap(table)["ended"])
    snapshot = _snap(table)
    assert snapshot["ended"] and snapshot["why"] == "turn limit reached"
    assert LiveTable.objects.get(pk=table.pk).status == TableStatus.SCORING
    with pytest.raises(Conflict) as refused:
        _tap(table, bruno, "play")
    assert refused.value.code == "turn_limit.limit_reached"
    assert _said(refused.value).startswith(
        f"{bruno.player.display_name} has used the 10 turns allowed since "
        f"{ana.player.display_name} passed; the game round is over"
    )
    assert TurnEvent.objects.filter(table=table).count() == 11


def test_the_eleventh_turn_is_allowed_after_an_extra_turn_on_the_tenth() -> None:
    _, _, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    _tap(table, ana, "pass")
    for _ in range(9):
        _tap(table, bruno, "play")
    _tap(table, bruno, "extra")
    assert _snap(table)["infinity"] and _snap(table)["to_play"] == 1
    _tap(table, bruno, "play")
    assert _snap(table)["why"] == "turn limit reached"


def test_the_infinity_turn_says_extra_turn_not_zero_turns_left() -> None:
    # Issue 22: the extra turn granted on the last turn is not "0 turns left".
    _, _, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    _tap(table, ana, "pass")
    for _ in range(8):
        _tap(table, bruno, "play")
    seat = _snap(table)["seats"][1]
    assert (seat["state"], seat["left"], seat["near"]) == ("On turn", "2 turns left", True)
    assert _snap(table)["seats"][0]["state"] == "Passed" and _snap(table)["seats"][0]["left"] == ""
    _tap(table, bruno, "play")
    _tap(table, bruno, "extra")
    snapshot = _snap(table)
    assert snapshot["infinity"] and snapshot["turns_left"][1] == 0
    assert snapshot["seats"][1]["left"] == table_words.INFINITY_TURN == "Extra turn (infinity rule)"
    assert snapshot["seats"][1]["state"] == "On turn" and snapshot["taps_open"]
    assert "0 turns left" not in str(snapshot["seats"])


def test_before_any_pass_a_seat_has_no_limit_yet() -> None:
    _, _, match = _first_match()
    ana, _bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    seats = _snap(table)["seats"]
    first = _snap(table)["first"]
    assert seats[first]["state"] == "On turn" and seats[first]["on_turn"]
    assert seats[1 - first]["state"] == "Waiting"
    assert [s["left"] for s in seats] == ["No limit yet", "No limit yet"]


@pytest.mark.django_db(transaction=True)
def test_a_finished_table_shows_no_turn_no_limit_and_no_tap_buttons() -> None:
    # Issue 22: under "Ana wins 1-0: ..." the seats said "On turn" and "No limit yet".
    _, _, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    assert _snap(table)["taps_open"]
    for scores in ([10, 5], [12, 3]):
        table = _play_game_round(table, ana, bruno, scores)
    assert table.status == TableStatus.DONE
    client = Client()
    client.force_login(bruno)
    for confirmed in (False, True):
        snapshot = _snap(table)
        assert snapshot["closed"] and not snapshot["taps_open"]
        assert snapshot["headline"].startswith(f"{match.a.player.display_name} wins 1-0")
        for seat in snapshot["seats"]:
            assert (seat["state"], seat["left"], seat["on_turn"], seat["near"]) == (
                "",
                "",
                False,
                False,
            )
        page = client.get(reverse("live-table", args=[table.pk])).content.decode()
        assert '<section class="tap-box" id="tap-box" hidden>' in page
        # No turn counted and no game round being played once the match is over.
        assert 'id="turn-count-line" hidden' in page and 'id="log-box" hidden' in page
        assert "On turn" not in page and "No limit yet" not in page
        assert "on-turn" not in page.split('id="table-snapshot"')[0]
        if not confirmed:
            tables.confirm_result(actor=bruno, table=table.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


def test_two_phones_tapping_the_same_turn_number_record_it_once() -> None:
    _, _organiser, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match, mode=TableMode.SHARED)
    tables.take_turn(actor=ana, table=table.pk, number=0, kind="play", player=0)
    # The same tap sent again (a phone resending after a dropped connection): no change.
    again = tables.take_turn(actor=ana, table=table.pk, number=0, kind="play", player=0)
    assert not again.recorded
    # Another device took turn 1 first: a late tap for the same number is refused, with what won.
    tables.take_turn(actor=bruno, table=table.pk, number=1, kind="pass", player=1)
    with pytest.raises(Conflict) as refused:
        tables.take_turn(actor=ana, table=table.pk, number=1, kind="play", player=1)
    assert refused.value.code == "turn_taken"
    assert f"{bruno.player.display_name} passed" in refused.value.detail
    with pytest.raises(Conflict) as ahead:
        tables.take_turn(actor=ana, table=table.pk, number=5, kind="play", player=0)
    assert ahead.value.code == "turn_ahead"
    assert TurnEvent.objects.filter(table=table).count() == 2


def test_on_their_own_phones_a_player_taps_only_for_themselves() -> None:
    _, organiser, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    with pytest.raises(NotAllowed) as refused:
        tables.take_turn(actor=bruno, table=table.pk, number=0, kind="play", player=0)
    assert refused.value.code == "not_your_seat"
    stranger = UserFactory()
    with pytest.raises(NotAllowed):
        tables.take_turn(actor=stranger, table=table.pk, number=0, kind="play", player=0)
    # A judge may tap for a player, and it is audited.
    tables.take_turn(actor=organiser, table=table.pk, number=0, kind="play", player=0)
    assert AuditEntry.objects.filter(action="table.judge_turn").count() == 1


def test_bad_taps_are_refused_by_name_and_record_nothing() -> None:
    _, _, match = _first_match()
    ana, _ = _users(match)
    table = tables.open_table(actor=ana, match=match)
    for bad, code in (
        ({"number": -1, "kind": "play"}, "invalid_turn"),
        ({"number": "0", "kind": "play"}, "invalid_turn"),
        ({"number": 0, "kind": "fold"}, "invalid_kind"),
        ({"number": 0, "kind": "play", "player": 7}, "invalid_player"),
        ({"number": 0, "kind": "play", "card": "7H"}, "no_score_helper"),
    ):
        with pytest.raises(InvalidInput) as refused:
            tables.take_turn(actor=ana, table=table.pk, **bad)
        assert refused.value.code == code
    assert not TurnEvent.objects.exists()


def test_the_score_helper_refuses_a_card_not_in_the_deck_or_played_twice() -> None:
    tournament, _, match = _first_match(game="gesoseka")
    TableSettings.objects.create(tournament=tournament, score_helper=True)
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    assert table.score_helper and not table.pass_is_final  # Gesoseka: a pass is not final
    with pytest.raises(InvalidInput) as refused:
        _tap(table, ana, card="2H")  # Gesoseka is played with a 32-card deck (7 to A)
    assert refused.value.code == "card_not_in_deck"
    _tap(table, ana, card="7H")
    _tap(table, bruno, card="7H")  # the opponent's own deck has its own 7♥
    with pytest.raises(InvalidInput) as twice:
        _tap(table, ana, card="7h")
    assert twice.value.code == "card_already_played"
    assert "7♥" in _snap(table)["log"][0]["text"]


def test_undo_is_the_tappers_within_the_window_and_a_judges_any_time() -> None:
    _, organiser, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    _tap(table, ana)
    with pytest.raises(NotAllowed):
        tables.undo_turn(actor=bruno, table=table.pk, number=0)
    with pytest.raises(Conflict):
        tables.undo_turn(actor=ana, table=table.pk, number=3)
    tables.undo_turn(actor=ana, table=table.pk, number=0)
    assert _snap(table)["turn_number"] == 0
    _tap(table, ana)
    TurnEvent.objects.filter(table=table, undone_at__isnull=True).update(
        created_at=timezone.now() - timedelta(minutes=5)
    )
    with pytest.raises(Conflict) as late:
        tables.undo_turn(actor=ana, table=table.pk, number=0)
    assert late.value.code == "undo_window_over"
    tables.undo_turn(actor=organiser, table=table.pk, number=0)
    assert AuditEntry.objects.filter(action="table.undo").count() == 2
    assert TurnEvent.objects.filter(table=table).count() == 2  # undone taps stay, marked


def _play_game_round(table: LiveTable, ana, bruno, scores: list[int]):
    snapshot = _snap(table)
    first = (ana, bruno)[snapshot["first"]]
    second = bruno if first is ana else ana
    _tap(table, first, "play")
    _tap(table, second, "pass")
    _tap(table, first, "pass")
    snapshot = _snap(table)
    assert snapshot["ended"]
    return tables.enter_scores(
        actor=ana, table=table.pk, game_round=snapshot["game_round_in_match"], scores=scores
    )


@pytest.mark.django_db(transaction=True)
def test_a_match_played_at_the_table_is_reported_confirmed_and_pairs_the_next_round() -> None:
    tournament, organiser, match = _first_match(4, rounds=2)
    ana, bruno = _users(match)
    other = Match.objects.exclude(pk=match.pk).get(round=match.round)
    results.judge_result(actor=organiser, match=other, games=A_WINS)
    table = tables.open_table(actor=ana, match=match)
    _play_game_round(table, ana, bruno, [10, 5])
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING  # progress: the match goes on
    assert match.reports.get(current=True).games == [{"rounds": [[10, 5]]}]
    assert _snap(table)["first"] == 1  # the other player starts the next game round
    with pytest.raises(Conflict) as twice:
        tables.enter_scores(actor=ana, table=table.pk, game_round=1, scores=[10, 5])
    assert twice.value.code == "scores_already_in"
    table = _play_game_round(table, ana, bruno, [12, 3])
    assert table.status == TableStatus.DONE
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED
    view = selectors.view_for(_snap(table), selectors.viewer(table, bruno))
    assert "confirm" in view["can"]
    tables.confirm_result(actor=bruno, table=table.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.winner == "a"
    assert Round.objects.get(pk=match.round_id).status == RoundStatus.COMPLETE
    assert Round.objects.filter(stage__tournament=tournament, number=2).exists()
    winners = [reg.pk for row, reg in tournament_standings(tournament).rows() if row.wins == 1]
    assert match.a_id in winners and match.b_id not in winners
    with pytest.raises(Conflict) as closed:
        _tap(table, ana)
    assert closed.value.code == "table_closed"


def test_a_judge_entering_the_last_scores_confirms_the_result() -> None:
    _, organiser, match = _first_match()
    _ana, _bruno = _users(match)
    table = tables.open_table(actor=organiser, match=match)
    for scores in ([10, 5], [10, 5]):
        snapshot = _snap(table)
        first = snapshot["first"]
        for number, (kind, player) in enumerate(((("pass", first)), ("pass", 1 - first))):
            tables.take_turn(
                actor=organiser, table=table.pk, number=number, kind=kind, player=player
            )
        tables.enter_scores(
            actor=organiser,
            table=table.pk,
            game_round=_snap(table)["game_round_in_match"],
            scores=scores,
        )
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


def test_scores_are_bounded_and_only_after_the_game_round_ends() -> None:
    _, _, match = _first_match()
    ana, _ = _users(match)
    table = tables.open_table(actor=ana, match=match)
    with pytest.raises(Conflict) as early:
        tables.enter_scores(actor=ana, table=table.pk, game_round=1, scores=[1, 0])
    assert early.value.code == "game_round_not_over"
    for bad in ([1], [1, -1], [1, 10**6], ["1", 2], [True, 1], "10-5"):
        with pytest.raises(InvalidInput):
            tables.enter_scores(actor=ana, table=table.pk, game_round=1, scores=bad)


@pytest.mark.django_db(transaction=True)
def test_two_phones_racing_for_one_turn_record_exactly_one() -> None:
    _, _, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match, mode=TableMode.SHARED)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def tap(user, kind: str) -> None:
        try:
            barrier.wait()
            tables.take_turn(actor=user, table=table.pk, number=0, kind=kind, player=0)
            outcomes.append("recorded")
        except Conflict as error:
            outcomes.append(error.code)
        finally:
            close_old_connections()

    threads = [
        threading.Thread(target=tap, args=(u, k)) for u, k in ((ana, "play"), (bruno, "pass"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["recorded", "turn_taken"]
    assert TurnEvent.objects.filter(table=table).count() == 1


def test_a_stranger_cannot_open_a_table_and_a_bye_has_none() -> None:
    tournament, organiser, _ = running_tournament(3)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    bye = Match.objects.get(round=rnd, b__isnull=True)
    with pytest.raises(Conflict):
        tables.open_table(actor=organiser, match=bye)
    played = Match.objects.filter(round=rnd, b__isnull=False).first()
    assert played is not None
    with pytest.raises(NotAllowed):
        tables.open_table(actor=member(tournament.club, Role.MEMBER), match=played)
    with pytest.raises(InvalidInput):
        tables.open_table(actor=organiser, match=played, mode="projector")


def test_the_judges_list_shows_who_is_on_turn_and_near_the_limit() -> None:
    _, _, match = _first_match(4)
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    _tap(table, ana, "pass")
    for _ in range(8):
        _tap(table, bruno, "play")
    rows = table_lists.tables_of_round(match.round)
    assert len(rows) == 1
    assert rows[0].to_play == bruno.player.display_name and rows[0].near_limit
    assert not rows[0].stalled
    later = timezone.now() + timedelta(minutes=10)
    assert table_lists.tables_of_round(match.round, now=later)[0].stalled


@pytest.mark.django_db(transaction=True)
def test_a_bracket_match_played_at_the_table_moves_its_winner_on() -> None:
    from tests.tournaments.test_brackets import _bracket_event

    _tournament, organiser, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    match = (
        Match.objects.filter(round__stage=stage, b__isnull=False)
        .select_related("a__player__user", "b__player__user")
        .order_by("table")
        .first()
    )
    assert match is not None
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    _play_game_round(table, ana, bruno, [10, 5])
    _play_game_round(table, ana, bruno, [10, 5])
    tables.confirm_result(actor=bruno, table=table.pk)
    other = Match.objects.filter(round__stage=stage, b__isnull=False).exclude(pk=match.pk).first()
    assert other is not None
    results.judge_result(actor=organiser, match=other, games=A_WINS)
    final = Match.objects.get(round__stage=stage, slot="W2-1")
    assert match.a_id in (final.a_id, final.b_id)


def test_vanilla_gwent_power_is_kept_from_the_cards_tapped() -> None:
    tournament, _, match = _first_match(game="vanilla_gwent")
    TableSettings.objects.create(tournament=tournament, score_helper=True)
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    _tap(table, ana, card="7C")
    with pytest.raises(InvalidInput) as no_row:
        _tap(table, bruno, card="5H")  # a heart goes to a row the player names
    assert no_row.value.code == "vanilla_gwent.row_required"
    _tap(table, bruno, card="5H", row="spades")
    with pytest.raises(InvalidInput) as twice:
        _tap(table, ana, card="7C")  # one deck: each card once per game round
    assert twice.value.code == "vanilla_gwent.card_played_twice"
    snapshot = _snap(table)
    assert snapshot["power"] == [9, 5]  # a 7 grants 9 while it is its player's latest unit
    assert snapshot["rows_for_hearts"]
    # A play tapped without its card: the power can no longer be known, and is not shown.
    _tap(table, ana)
    assert _snap(table)["power"] is None
    with pytest.raises(InvalidInput) as bad_row:
        _tap(table, bruno, card="6S", row="hearts")
    assert bad_row.value.code == "invalid_row"


def test_a_broadcast_that_fails_after_commit_does_not_fail_the_tap(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks, caplog
) -> None:
    from core import live

    def down(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no event loop for the channel layer here")

    _, _, match = _first_match()
    ana, _ = _users(match)
    table = tables.open_table(actor=ana, match=match)
    monkeypatch.setattr(live, "async_to_sync", lambda func: down)
    with django_capture_on_commit_callbacks(execute=True):
        result = tables.take_turn(actor=ana, table=table.pk, number=0, kind="play")
    assert result.recorded and TurnEvent.objects.filter(table=table).count() == 1
    assert "could not tell its live pages" in caplog.text
