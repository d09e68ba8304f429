"""The game's rules of a match, chosen by its seats (``Match.seat_count``): two sides play
the tournament's game (``rules.games.match_result``), three or more a pod's game
(``rules.pod_game`` through ``rules.games.pod_outcome``). Either checks a result and says
its outcome per seat (:class:`Checked`), and the few words that name what is played ("this
match", "this pod"); the results service (``services.results``) is one path for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext

from core.errors import Conflict, InvalidInput, RuleViolation
from rules import games as game_rules
from rules.outcome import GameRecord, MatchOutcome
from tournaments import formats
from tournaments.models import Match, PodSettings, Registration, Tournament
from tournaments.pairing import pods
from tournaments.selectors.result_words import side_names
from tournaments.selectors.tournaments import game_options, round_game_options
from tournaments.services.outcomes import OUTCOME_FIELDS, apply_outcome, places


@dataclass(frozen=True)
class Checked:
    """A result the rules accepted: its canonical games and each seat's outcome."""

    games: list[Any]
    decided: bool
    winner: int | None
    places: list[int]
    scores: list[int]
    round_wins: list[int]
    #: The match's two-sided columns this result sets (``Match`` field -> value).
    columns: dict[str, Any]
    #: The two-sided outcome (None for a pod's), for the words of a two-sided result.
    outcome: MatchOutcome | None = None


def _canonical(record: GameRecord, game: str) -> dict[str, Any]:
    data: dict[str, Any] = {"rounds": [list(r.scores) for r in record.rounds]}
    if game_rules.rules_for(game).has_alignments:
        data["alignments"] = [a.value if a else None for a in record.alignments]
    return data


def check_result(
    *, tournament: Tournament, games: object, final: bool = True, options: Any = None
) -> tuple[list[Any], MatchOutcome]:
    """Parse and judge a two-sided result; returns its canonical form and the outcome.

    ``final``: the match must be finished; otherwise it is progress so far. ``options``:
    the game options, when the caller has them (else the tournament's, one query).
    """
    records = game_rules.parse_games(games, game=tournament.game)
    check = game_rules.match_result if final else game_rules.match_progress
    outcome = check(
        tournament.game,
        records,
        options=options if options is not None else game_options(tournament),
        best_of=tournament.best_of,
    )
    return [_canonical(record, tournament.game) for record in records], outcome


def two_sided(games: list[Any] | None, outcome: MatchOutcome, *, seats: int = 2) -> Checked:
    """A two-sided outcome per seat (a bye's: its one seat)."""
    probe = Match()
    apply_outcome(probe, games, outcome)
    return Checked(
        games=games or [],
        decided=outcome.finished,
        winner=outcome.winner,
        places=places(outcome.winner, seats),
        scores=list(outcome.totals),
        round_wins=list(outcome.round_wins),
        columns={f: getattr(probe, f) for f in OUTCOME_FIELDS if f != "winner"},
        outcome=outcome,
    )


class TwoSides:
    """Two entrants (players or teams): the tournament's game, best of its games."""

    noun = "match"
    field = "games"
    #: How a result is confirmed when the seats agree, and at the other's confirmation.
    agreed = "both_reported"
    confirmed = "opponent_confirmed"
    #: The refusals' words (lazy: made in the reader's language when refused).
    not_playing = gettext_lazy("You are not playing in this match.")
    already = gettext_lazy("This result is already confirmed: ask a judge to change it.")
    #: Refused when this form (the two-sided result page or API) is used for a pod.
    wrong = (
        gettext_lazy("This is a pod: enter every player's scores with the pod's result."),
        "pod_result",
    )
    nothing = gettext_lazy("Your opponent has not reported this match yet.")
    differ = gettext_lazy("You reported a different result: a judge will decide, or report theirs.")

    def check(
        self, match: Match, entrants: list[Registration], games: object, *, final: bool
    ) -> Checked:
        try:
            canonical, outcome = check_result(
                tournament=match.round.tournament,
                games=games,
                final=final,
                options=round_game_options(match.round),
            )
        except RuleViolation as error:  # said with the match's names (``core.words``)
            raise error.named(side_names(match)) from None
        if (
            final
            and match.slot
            and outcome.winner is None
            and not formats.format_of(match.round.stage).draws_stand
        ):
            raise InvalidInput(
                gettext(
                    "A bracket match needs a winner, and this result is a draw: play another "
                    "game and enter it too."
                ),
                code="draw_in_bracket",
                field="games",
            )
        return two_sided(canonical, outcome, seats=len(entrants))

    def described(self, match: Match) -> dict[str, Any]:
        """The match in a result's words: round, table and sides (no ``b``: a bye)."""
        b = match.b.name if match.b else ""
        return {"round": match.round.number, "table": match.table, "a": match.a.name, "b": b}

    def scored(self, match: Match, entrants: list[Registration]) -> dict[str, Any]:
        """The result in a confirmation's words: the winner's name (empty: a draw), games."""
        if match.is_bye:
            return {"bye": True}
        position = match.winner_position
        winner = entrants[position] if position is not None else None
        return {
            "winner": "" if winner is None else winner.name,
            "games": [match.games_a, match.games_b],
            "drawn": match.games_drawn,
        }


class Pod:
    """Three or four players each on their own: the pod's game, first to its win target."""

    noun = "pod"
    field = "rounds"
    agreed = "two_reported"
    confirmed = "at_table"
    not_playing = gettext_lazy("You are not playing in this pod.")
    already = gettext_lazy("This pod's result is already confirmed: ask a judge to change it.")
    wrong = (gettext_lazy("This is not a pod: report it as a match."), "not_a_pod")
    nothing = gettext_lazy("Nobody else has reported this pod yet.")
    differ = gettext_lazy("The reports differ: a judge will decide.")

    def check(
        self, match: Match, entrants: list[Registration], games: object, *, final: bool
    ) -> Checked:
        rounds = games
        if isinstance(games, list) and len(games) == 1 and isinstance(games[0], dict):
            rounds = games[0].get("rounds")
        found = PodSettings.objects.filter(stage=match.round.stage_id).first()
        settings = found if found is not None else PodSettings(stage=match.round.stage)
        try:
            outcome = game_rules.pod_outcome(
                match.round.tournament.game,
                rounds,
                players=len(entrants),
                rounds_to_win=settings.rounds_to_win,
            )
        except RuleViolation as error:
            raise InvalidInput(
                f"{error.detail} ({error.where})" if error.where else error.detail,
                code=error.rule,
                field="rounds",
                violation=error.named([e.name for e in entrants]),
            ) from None
        if final and not outcome.decided:
            raise InvalidInput(
                ngettext(
                    "Nobody has won yet: the first to %(count)d game-round win wins the pod. "
                    "Enter every game round played.",
                    "Nobody has won yet: the first to %(count)d game-round wins wins the pod. "
                    "Enter every game round played.",
                    settings.rounds_to_win,
                )
                % {"count": settings.rounds_to_win},
                code="pod_not_decided",
                field="rounds",
            )
        assert isinstance(rounds, list)
        wins = list(outcome.wins)
        return Checked(
            games=[{"rounds": rounds}],
            decided=outcome.decided,
            winner=outcome.winner,
            places=pods.places(wins, outcome.winner),
            scores=[sum(r[s] for r in rounds) for s in range(len(entrants))],
            round_wins=wins,
            columns={
                "result": [{"rounds": rounds}],
                "game_rounds_a": wins[0],
                "game_rounds_b": wins[1],
            },
        )

    def described(self, match: Match) -> dict[str, Any]:
        return {"round": match.round.number, "pod": match.table}

    def scored(self, match: Match, entrants: list[Registration]) -> dict[str, Any]:
        position = match.winner_position
        return {"winner": entrants[position].name if position is not None else ""}


#: The rules a match plays, and a form speaks (the two-sided one, or the pods').
Rules = TwoSides | Pod

#: The rules by the number of seats: two sides, or a pod (three or more).
TWO_SIDES, POD = TwoSides(), Pod()


def rules_of(match: Match) -> Rules:
    """The rules the match's seats play."""
    return POD if match.seat_count > 2 else TWO_SIDES


def rules_for_form(match: Match, form: Rules | None) -> Rules:
    """The rules the match's seats play, refused when the caller's form speaks other
    rules (``form``: None, whichever they are)."""
    rules = rules_of(match)
    if form is not None and form is not rules:
        words, code = form.wrong
        raise Conflict(str(words), code=code)
    return rules
