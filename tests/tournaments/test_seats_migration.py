"""The seats migration against PostgreSQL (tournaments ``0020`` to ``0022``): matches in the
old shape (a two-player match with seats but no positions; a pod's winner in
``pod_winner`` with ``winner`` ``"pod"``) come out with every seat placed and a pod's
winner said by its seat's letter, nothing lost; and the migration goes back with the old
columns filled again.

The test walks ``tournaments`` down and up again: it always ends fully migrated
(``finally``), since every other test reuses that database.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.test_words_migration import _fully_migrated, _migrate
from tests.factories import RegistrationFactory, TournamentFactory
from tournaments.models import Match, MatchSeat, Stage, StageKind, Winner

pytestmark = pytest.mark.django_db(transaction=True)

OLD = [("tournaments", "0019_judge_calls")]

#: A pod of four: seat 2 wins game rounds 1 and 3 (first to 2); seat 0 wins round 2.
POD_ROUNDS = [[10, 20, 30, 5], [40, 0, 10, 10], [5, 5, 50, 0]]


def _old_rows(apps: Any, swiss: Stage, pods: Stage, swiss_regs: list[int], pod_regs: list[int]):
    """In the old shape: a confirmed two-player match, a pending one and a bye (Swiss);
    a confirmed pod with a winner, one without, and a pod bye."""
    Round = apps.get_model("tournaments", "Round")
    Match = apps.get_model("tournaments", "Match")
    MatchSeat = apps.get_model("tournaments", "MatchSeat")

    def seated(match: Any, entrants: list[int], *, positions: bool) -> None:
        for position, entrant in enumerate(entrants):
            MatchSeat.objects.create(
                match=match,
                round=match.round,
                registration_id=entrant,
                position=position if positions else None,
            )

    r1 = Round.objects.create(tournament_id=swiss.tournament_id, stage_id=swiss.pk, number=1)
    a, b, c, d, e = swiss_regs
    played = Match.objects.create(
        round=r1,
        table=1,
        a_id=b,  # the seats were made in another order than a, b: positions follow a, b
        b_id=a,
        status="confirmed",
        winner="b",
        result=[{"rounds": [[3, 7], [2, 9]]}],
        games_b=1,
        game_rounds_b=2,
        score_a=5,
        score_b=16,
    )
    seated(played, [a, b], positions=False)
    pending = Match.objects.create(round=r1, table=2, a_id=c, b_id=d)
    seated(pending, [c, d], positions=False)
    bye = Match.objects.create(
        round=r1, table=3, a_id=e, status="confirmed", winner="a", games_a=1, score_a=0
    )
    seated(bye, [e], positions=False)

    r2 = Round.objects.create(tournament_id=pods.tournament_id, stage_id=pods.pk, number=1)
    won = Match.objects.create(
        round=r2,
        table=1,
        a_id=pod_regs[0],
        b_id=pod_regs[1],
        status="confirmed",
        winner="pod",
        pod_winner_id=pod_regs[2],
        result=[{"rounds": POD_ROUNDS}],
        game_rounds_a=1,
    )
    seated(won, pod_regs[:4], positions=True)
    nobody = Match.objects.create(
        round=r2,
        table=2,
        a_id=pod_regs[4],
        b_id=pod_regs[5],
        status="confirmed",
        winner="pod",
        result=[{"rounds": [[10, 10, 10], [5, 5, 5]]}],
    )
    seated(nobody, pod_regs[4:7], positions=True)
    pod_bye = Match.objects.create(
        round=r2,
        table=3,
        a_id=pod_regs[7],
        status="confirmed",
        winner="pod",
        pod_winner_id=pod_regs[7],
    )
    seated(pod_bye, [pod_regs[7]], positions=True)
    return {
        "played": played.pk,
        "pending": pending.pk,
        "bye": bye.pk,
        "won": won.pk,
        "nobody": nobody.pk,
        "pod_bye": pod_bye.pk,
    }


def _seats(match: int) -> list[tuple[int, int, int | None, int | None, int | None]]:
    return list(
        MatchSeat.objects.filter(match_id=match)
        .order_by("position")
        .values_list("registration_id", "position", "place", "score", "round_wins")
    )


def test_old_matches_get_placed_seats_and_a_pod_winner_by_seat_and_go_back() -> None:
    swiss_t = TournamentFactory(name="Swiss Open")
    pods_t = TournamentFactory(name="Pod Night")
    swiss = Stage.objects.get(tournament=swiss_t)
    pods = Stage.objects.get(tournament=pods_t)
    pods.kind = StageKind.PODS
    pods.save(update_fields=["kind"])
    swiss_regs = [RegistrationFactory(tournament=swiss_t).pk for _ in range(5)]
    pod_regs = [RegistrationFactory(tournament=pods_t).pk for _ in range(8)]
    try:
        ids = _old_rows(_migrate(OLD), swiss, pods, swiss_regs, pod_regs)
        _fully_migrated()
        a, b, c, d, e = swiss_regs
        # A two-player match: a (its ``a``: entrant b) first, b second; b won 2 rounds.
        assert _seats(ids["played"]) == [(b, 0, 2, 5, 0), (a, 1, 1, 16, 2)]
        assert Match.objects.get(pk=ids["played"]).winner == Winner.B
        assert _seats(ids["pending"]) == [(c, 0, None, None, None), (d, 1, None, None, None)]
        assert _seats(ids["bye"]) == [(e, 0, 1, 0, 0)]
        # The pod: seat 2 won (2 game rounds), seat 0 won one; the rest share third place.
        won = Match.objects.get(pk=ids["won"])
        assert won.winner == Winner.C and won.winner_position == 2
        counts = dict(Match.objects.values_list("pk", "seat_count"))
        assert [counts[ids[k]] for k in ("played", "bye", "won", "nobody", "pod_bye")] == [
            2,
            2,
            4,
            3,
            1,
        ]
        assert _seats(ids["won"]) == [
            (pod_regs[0], 0, 2, 55, 1),
            (pod_regs[1], 1, 3, 25, 0),
            (pod_regs[2], 2, 1, 90, 2),
            (pod_regs[3], 3, 3, 15, 0),
        ]
        assert won.result == [{"rounds": POD_ROUNDS}] and won.game_rounds_a == 1
        # A pod nobody won: a draw, every seat sharing the first place.
        assert Match.objects.get(pk=ids["nobody"]).winner == Winner.DRAW
        assert [s[2] for s in _seats(ids["nobody"])] == [1, 1, 1]
        pod_bye = Match.objects.get(pk=ids["pod_bye"])
        assert pod_bye.winner == Winner.A and _seats(ids["pod_bye"]) == [(pod_regs[7], 0, 1, 0, 0)]

        old = _migrate(OLD)  # and back: the pods' winners in ``pod_winner`` again
        OldMatch = old.get_model("tournaments", "Match")
        OldSeat = old.get_model("tournaments", "MatchSeat")
        back = {m.pk: (m.winner, m.pod_winner_id) for m in OldMatch.objects.all()}
        assert back[ids["won"]] == ("pod", pod_regs[2])
        assert back[ids["nobody"]] == ("pod", None)
        assert back[ids["pod_bye"]] == ("pod", pod_regs[7])
        assert back[ids["played"]] == ("b", None)
        positions = dict(OldSeat.objects.values_list("registration_id", "position"))
        assert positions[a] is None and positions[pod_regs[3]] == 3
    finally:
        _fully_migrated()
