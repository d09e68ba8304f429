"""Every match has seats: each ``MatchSeat`` gets its ``position`` (a two-player match's
``a`` 0, ``b`` 1) and, once confirmed, its outcome (``place``, ``score``, ``round_wins``);
a pod's winner is said by ``Match.winner`` as the winning seat's letter (was
``Winner.POD`` with ``pod_winner``). The data step, alone (PostgreSQL alters no table
with pending updates in the same transaction): ``0020`` adds the columns, ``0022`` drops
``pod_winner``."""

from django.db import migrations

LETTERS = ("a", "b", "c", "d")


def _places(round_wins, winner):
    """The winner first, then by game-round wins, ties sharing the better place (as
    ``tournaments.pairing.pods.places`` said it when this was written)."""
    keyed = [(0 if s == winner else 1, -w) for s, w in enumerate(round_wins)]
    return [1 + sum(1 for other in keyed if other < key) for key in keyed]


def _pod_wins(result, seats):
    """Each seat's game-round wins and total score in a pod's result (one game whose
    rounds list a score per seat; a round goes to the one highest score)."""
    wins, totals = [0] * seats, [0] * seats
    rounds = result[0].get("rounds", []) if result else []
    for scores in rounds:
        for seat, score in enumerate(scores[:seats]):
            totals[seat] += score
        best = max(scores[:seats], default=None)
        if best is not None and list(scores[:seats]).count(best) == 1:
            wins[list(scores).index(best)] += 1
    return wins, totals


def seats_forward(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    MatchSeat = apps.get_model("tournaments", "MatchSeat")
    seats_of = {}
    for seat in MatchSeat.objects.order_by("match_id", "position", "id"):
        seats_of.setdefault(seat.match_id, []).append(seat)
    changed = []
    for match in Match.objects.order_by("id").iterator():
        seats = seats_of.get(match.pk, [])
        pod = match.winner == "pod" or any(s.position is not None for s in seats)
        if not pod:
            by_entrant = {s.registration_id: s for s in seats}
            seats = []
            for position, entrant in enumerate((match.a_id, match.b_id)):
                if entrant is None:
                    continue
                seat = by_entrant.get(entrant) or MatchSeat.objects.create(
                    match_id=match.pk, round_id=match.round_id, registration_id=entrant,
                    position=position,
                )
                seat.position = position
                seats.append(seat)
        if match.status == "confirmed":
            if match.winner == "pod":
                winner = None
                for position, seat in enumerate(seats):
                    if seat.registration_id == match.pod_winner_id:
                        winner = position
                if match.b_id is None:
                    wins, totals = [0], [0]
                else:
                    wins, totals = _pod_wins(match.result, len(seats))
                places = _places(wins, winner)
                match.winner = LETTERS[winner] if winner is not None else "draw"
                match.save(update_fields=["winner"])
            else:
                places = {"a": [1, 2], "b": [2, 1]}.get(match.winner, [1, 1])
                wins = [match.game_rounds_a, match.game_rounds_b]
                totals = [match.score_a, match.score_b]
            for position, seat in enumerate(seats):
                seat.place, seat.round_wins, seat.score = (
                    places[position], wins[position], totals[position]
                )
        changed += seats
        if pod and len(seats) != 2:
            match.seat_count = len(seats)
            match.save(update_fields=["seat_count"])
    MatchSeat.objects.bulk_update(
        changed, ["position", "place", "score", "round_wins"], batch_size=500
    )


def seats_backward(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    MatchSeat = apps.get_model("tournaments", "MatchSeat")
    for match in Match.objects.filter(round__stage__kind="pods", status="confirmed"):
        winner = (
            MatchSeat.objects.filter(match=match, position=LETTERS.index(match.winner))
            .values_list("registration_id", flat=True)
            .first()
            if match.winner in LETTERS
            else None
        )
        match.winner, match.pod_winner_id = "pod", winner
        match.save(update_fields=["winner", "pod_winner"])
    MatchSeat.objects.exclude(match__round__stage__kind="pods").update(position=None)
    MatchSeat.objects.update(place=None, score=None, round_wins=None)
    Match.objects.update(seat_count=2)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0021_seat_outcomes"),
    ]

    operations = [
        migrations.RunPython(seats_forward, seats_backward),
    ]
