"""Codes -> words, through gettext, at display only: a rule violation as a person reads it.

The rules engines (``rules``) raise ``RuleViolation`` with a stable code
(``rule``), their numbers (``params``: players by index, games and game rounds by number)
and an English ``detail`` written for their own tests. What a person reads is made here,
from the code and the numbers, with the names of the people it is about: "Anna Kowalska
had already won game 3 with 2 game-round wins when game round 3 was recorded: remove
game round 3 or correct the scores before it." Each sentence says where (once: "in game
3, game round 3") and, where there is something to do, what.

The names are the match's sides (``player``, ``other``: a player's or a team's name) and,
at a live table, its seats (``seat``, ``to_play``, ``passed_seat``...: at a table of four
the seats are not the sides). Whoever knows them attaches them to the violation
(``RuleViolation.named``: the result services, the live tables' services, the pods'), or
the edge passes them to :func:`problem`. Without names, or for a code with no words here
(a board the score helper reads, a draft, a pairing), the engine's ``detail`` is shown.

:func:`problem` is what every edge calls (pages, API, websockets): ``core.errors.translate``
plus these words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext, pgettext

from core.errors import DomainError, Problem, RuleViolation, translate

#: The games whose outcome rules share codes (``<game>.negative_score``...): the game codes
#: of ``rules.games.GAMES`` (a test checks they agree; core imports no app).
GAMES = ("gesoseka", "vanilla_gwent", "kontsina", "generic")

#: The params that index the sides (names) and the seats of a table (seats).
SIDE_PARAMS = ("player", "other")
SEAT_PARAMS = ("seat", "to_play", "passed_seat", "passed_seat_2")


@dataclass(frozen=True)
class _Said:
    """A violation's numbers with the names they index, for one sentence."""

    params: dict[str, int | str]
    names: tuple[str, ...]
    seats: tuple[str, ...]

    def __contains__(self, key: str) -> bool:
        return key in self.params

    def n(self, key: str) -> int:
        value = self.params[key]
        assert isinstance(value, int)
        return value

    def text(self, key: str) -> str:
        return str(self.params[key])

    def number(self, key: str) -> str:
        """A number as the reader writes it ("1,000,000")."""
        return number_format(self.n(key), force_grouping=True)

    def _named(self, names: tuple[str, ...], index: int) -> str:
        if 0 <= index < len(names):
            return names[index]
        return gettext("player %(number)d") % {"number": index + 1}

    def name(self, key: str = "player") -> str:
        """The side a param indexes, by its name."""
        return self._named(self.names, self.n(key))

    def seat(self, key: str = "seat") -> str:
        """The seat a param indexes, by its player's name."""
        return self._named(self.seats, self.n(key))

    def where(self) -> str | None:
        """ "game 3, game round 3", "game round 3", "game 3", or None: once, in one place."""
        game, game_round = self.params.get("game"), self.params.get("game_round")
        if game is not None and game_round is not None:
            return gettext("game %(game)d, game round %(game_round)d") % {
                "game": game,
                "game_round": game_round,
            }
        if game_round is not None:
            return gettext("game round %(game_round)d") % {"game_round": game_round}
        if game is not None:
            return gettext("game %(game)d") % {"game": game}
        return None

    def in_where(self, sentence: str) -> str:
        """``sentence`` said where it happened: "In game 3, game round 2, Anna ..."."""
        where = self.where()
        if where is None:
            return _capital(sentence)
        return gettext("In %(where)s, %(sentence)s") % {"where": where, "sentence": sentence}

    def the_game(self) -> str:
        """ "game 3" in a match, "the game" when the game is not numbered (a pod's)."""
        if "game" in self:
            return gettext("game %(game)d") % {"game": self.n("game")}
        return gettext("the game")

    def this_game(self) -> str:
        """ "Game 3", or "This game" at the start of a sentence."""
        if "game" in self:
            return gettext("Game %(game)d") % {"game": self.n("game")}
        return gettext("This game")

    def remove_game_round(self) -> str:
        """What to do with a game round too many."""
        return gettext("remove game round %(game_round)d or correct the scores before it") % {
            "game_round": self.n("game_round")
        }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


Words = Callable[[_Said], str | None]


# --- results: scores, game rounds and games ---------------------------------------------------


def _two_scores(s: _Said) -> str:
    return s.in_where(gettext("enter exactly one score for each player."))


def _negative_score(s: _Said) -> str:
    return s.in_where(
        gettext("%(name)s has a score of %(score)s, but a score cannot be negative: correct it.")
        % {"name": s.name(), "score": s.number("score")}
    )


def _score_too_large(s: _Said) -> str:
    return s.in_where(
        gettext(
            "%(name)s has a score of %(score)s, but a game round's score is at most "
            "%(most)s: correct it."
        )
        % {"name": s.name(), "score": s.number("score"), "most": s.number("most")}
    )


def _game_unfinished(s: _Said) -> str:
    if "later" in s:
        return gettext(
            "Game %(game)d is not finished, but game %(later)d was recorded after it: "
            "record its remaining game rounds first."
        ) % {"game": s.n("game"), "later": s.n("later")}
    return gettext("Game %(game)d is not finished yet: record its remaining game rounds.") % {
        "game": s.n("game")
    }


def _won_game_with(s: _Said) -> str:
    """First to K: the game was won with K game-round wins (a generic game, a pod's)."""
    wins = s.n("wins")
    return ngettext(
        "%(name)s had already won %(game)s with %(wins)d game-round win when game round "
        "%(game_round)d was recorded: %(what)s.",
        "%(name)s had already won %(game)s with %(wins)d game-round wins when game round "
        "%(game_round)d was recorded: %(what)s.",
        wins,
    ) % {
        "name": s.name(),
        "game": s.the_game(),
        "wins": wins,
        "game_round": s.n("game_round"),
        "what": s.remove_game_round(),
    }


def _won_game_by(s: _Said, why: str = "") -> str:
    """The game was won 2-0 (or drawn 2-2) on game-round wins; ``why`` no game round
    follows, when the rule needs saying."""
    values = {
        "game": s.the_game(),
        "wins": s.n("wins"),
        "losses": s.n("losses"),
        "game_round": s.n("game_round"),
        "why": why,
        "what": s.remove_game_round(),
    }
    if "player" not in s:
        return _capital(
            gettext(
                "%(game)s was already drawn (%(wins)d-%(losses)d in game-round wins) when game "
                "round %(game_round)d was recorded%(why)s: %(what)s."
            )
            % values
        )
    return gettext(
        "%(name)s had already won %(game)s (%(wins)d-%(losses)d in game-round wins) when game "
        "round %(game_round)d was recorded%(why)s: %(what)s."
    ) % {**values, "name": s.name()}


def _gesoseka_after_decided(s: _Said) -> str:
    if "losses" not in s:  # a pod: the first to K game-round wins
        return _won_game_with(s)
    return _won_game_by(
        s,
        gettext(
            ", and a third game round is played only when the first two leave the players level"
        ),
    )


def _max_game_rounds(limit: Callable[[_Said], str]) -> Words:
    def words(s: _Said) -> str:
        return gettext("%(game)s has a game round %(game_round)d, but %(limit)s: %(what)s.") % {
            "game": s.this_game(),
            "game_round": s.n("game_round"),
            "limit": limit(s),
            "what": s.remove_game_round(),
        }

    return words


def _first_to_limit(s: _Said) -> str:
    return gettext("a first-to-%(wins)d game has at most %(most)d game rounds") % {
        "wins": s.n("rounds_to_win"),
        "most": s.n("most"),
    }


def _gesoseka_limit(s: _Said) -> str:
    return gettext("a Gesoseka game has at most %(most)d game rounds") % {"most": s.n("most")}


def _vanilla_gwent_limit(s: _Said) -> str:
    return gettext("a Vanilla Gwent game has at most %(most)d game rounds") % {"most": s.n("most")}


def _kontsina_limit(s: _Said) -> str:
    rounds = s.n("rounds")
    return ngettext(
        "this tournament plays Kontsina games of exactly %(rounds)d game round",
        "this tournament plays Kontsina games of exactly %(rounds)d game rounds",
        rounds,
    ) % {"rounds": rounds}


#: Kontsina's categories and their points, as the rules name them.
def _kontsina_categories() -> str:
    return gettext(
        "2 for most cards, 1 for most clubs, 1 for the 2 of clubs, 1 for the 10 of diamonds"
    )


def _round_points(s: _Said) -> str:
    if "player" in s:
        return s.in_where(
            gettext(
                "%(name)s has %(points)d points, but a game round awards at most %(most)d "
                "(%(categories)s): correct the scores."
            )
            % {
                "name": s.name(),
                "points": s.n("points"),
                "most": s.n("most"),
                "categories": _kontsina_categories(),
            }
        )
    a, b = s.n("points_a"), s.n("points_b")
    return s.in_where(
        gettext(
            "%(a_name)s and %(b_name)s have %(a)d + %(b)d = %(sum)d points, but a game round "
            "awards at most %(most)d in all (%(categories)s): correct the scores."
        )
        % {
            "a_name": s._named(s.names, 0),
            "b_name": s._named(s.names, 1),
            "a": a,
            "b": b,
            "sum": a + b,
            "most": s.n("most"),
            "categories": _kontsina_categories(),
        }
    )


def _unknown_alignment(s: _Said) -> str:
    return s.in_where(
        gettext("%(name)s's alignment “%(value)s” is not one: choose Might, Magic or Mind.")
        % {"name": s.name(), "value": s.text("value")}
    )


def _result_shape(s: _Said) -> str | None:
    part = s.params.get("part")
    if part == "scores":
        return s.in_where(gettext("enter two whole-number scores."))
    if part == "rounds":
        return gettext("Game %(game)d has no game rounds: enter them, or remove the game.") % {
            "game": s.n("game")
        }
    return None  # an API client's malformed request: the engine's words say what is wrong


# --- results: the match ---------------------------------------------------------------------


def _too_many_games(s: _Said) -> str:
    best_of = s.n("best_of")
    return ngettext(
        "A best-of-%(best_of)d match has %(best_of)d game: remove game %(game)d and any after it.",
        "A best-of-%(best_of)d match has at most %(best_of)d games: remove game %(game)d "
        "and any after it.",
        best_of,
    ) % {"best_of": best_of, "game": s.n("game")}


def _match_after_decided(s: _Said) -> str:
    values = {
        "wins": s.n("wins"),
        "losses": s.n("losses"),
        "game": s.n("game"),
    }
    if "player" not in s:
        return (
            gettext(
                "The match was already over, a draw, when game %(game)d was recorded: "
                "remove game %(game)d or correct the scores before it."
            )
            % values
        )
    return gettext(
        "%(name)s had already won the match %(wins)d-%(losses)d when game %(game)d was "
        "recorded: remove game %(game)d or correct the scores before it."
    ) % {**values, "name": s.name()}


def _match_unfinished(s: _Said) -> str:
    return gettext(
        "This best-of-%(best_of)d match is not decided yet: record game %(game)d too."
    ) % {"best_of": s.n("best_of"), "game": s.n("game")}


def _total_too_large(s: _Said) -> str:
    return gettext(
        "%(name)s's score total in this match is %(total)s, but a total is at most %(most)s: "
        "correct the scores."
    ) % {"name": s.name(), "total": s.number("total"), "most": s.number("most")}


# --- pods -----------------------------------------------------------------------------------


def _pod_scores_count(s: _Said) -> str:
    return gettext(
        "Game round %(game_round)d has %(scores)d scores, but a pod of %(players)d players "
        "has one score for each player: enter %(players)d."
    ) % {
        "game_round": s.n("game_round"),
        "scores": s.n("scores"),
        "players": s.n("players"),
    }


def _pod_score_range(s: _Said) -> str:
    return s.in_where(
        gettext("a score is a whole number from 0 to %(most)d: correct it.") % {"most": s.n("most")}
    )


def _too_many_ties(s: _Said) -> str:
    return gettext(
        "Game round %(game_round)d is a tie, but a first-to-%(wins)d game of %(players)d "
        "players has at most %(most)d tied game rounds: break this tie as the judge rules "
        "and record the game round that breaks it."
    ) % {
        "game_round": s.n("game_round"),
        "wins": s.n("rounds_to_win"),
        "players": s.n("players"),
        "most": s.n("most"),
    }


def _pod_too_long(s: _Said) -> str:
    return gettext(
        "A first-to-%(wins)d game of %(players)d players has at most %(most)d game rounds, "
        "not %(rounds)d: remove the game rounds after game round %(most)d."
    ) % {
        "wins": s.n("rounds_to_win"),
        "players": s.n("players"),
        "most": s.n("most"),
        "rounds": s.n("rounds"),
    }


# --- the live table: turns --------------------------------------------------------------------


def _limit_reached(s: _Said) -> str:
    limit = s.n("limit")
    values = {"name": s.seat(), "limit": limit}
    if "passed_seat_2" in s:
        said = ngettext(
            "%(name)s has used their share of the team's %(limit)d turn since %(first)s and "
            "%(second)s passed",
            "%(name)s has used their share of the team's %(limit)d turns since %(first)s and "
            "%(second)s passed",
            limit,
        ) % {**values, "first": s.seat("passed_seat"), "second": s.seat("passed_seat_2")}
    elif "passed_seat" in s:
        said = ngettext(
            "%(name)s has used the %(limit)d turn allowed since %(passed)s passed",
            "%(name)s has used the %(limit)d turns allowed since %(passed)s passed",
            limit,
        ) % {**values, "passed": s.seat("passed_seat")}
    else:
        said = (
            ngettext(
                "%(name)s has used the %(limit)d turn allowed since everyone else passed",
                "%(name)s has used the %(limit)d turns allowed since everyone else passed",
                limit,
            )
            % values
        )
    if s.params.get("over"):
        return said + gettext("; the game round is over: enter its scores.")
    return said + "."


#: Why a game round ended, as ``rules.turn_limit`` says it (a table state's ``why``: its
#: ``EVERYONE_PASSED``... constants, a test checks they agree; core imports no rules).
WHY_GAME_ROUND_ENDED = (
    "everyone passed",
    "two passes in a row",
    "turn limit reached",
    "every player passed in a row",
)


def why_words(why: str) -> str:
    """Why a game round ended (``rules.turn_limit``'s words) in the reader's language; an
    unknown reason as it is."""
    words = {
        "everyone passed": pgettext("why a game round ended", "everyone passed"),
        "two passes in a row": pgettext("why a game round ended", "two passes in a row"),
        "turn limit reached": pgettext("why a game round ended", "turn limit reached"),
        "every player passed in a row": pgettext(
            "why a game round ended", "every player passed in a row"
        ),
    }
    return words.get(why, why)


def _game_round_over(s: _Said) -> str:
    why = s.text("why")
    if why:
        return gettext("The game round is over (%(why)s): enter its scores.") % {
            "why": why_words(why)
        }
    return gettext("The game round is over: enter its scores.")


def _already_passed(s: _Said) -> str:
    return gettext("%(name)s has passed and cannot act again in this game round.") % {
        "name": s.seat()
    }


def _not_your_turn(s: _Said) -> str:
    return gettext("It is %(to_play)s's turn, not %(name)s's.") % {
        "to_play": s.seat("to_play"),
        "name": s.seat(),
    }


# --- the live table: Vanilla Gwent's cards ----------------------------------------------------


def _gwent_after_pass(s: _Said) -> str:
    return gettext("%(name)s has passed and plays no more this game round.") % {"name": s.name()}


def _gwent_not_your_turn(s: _Said) -> str:
    return gettext(
        "%(name)s just played; it is %(other)s's turn (a player plays on alone only once "
        "the other has passed)."
    ) % {"name": s.name(), "other": s.name("other")}


def _gwent_not_enemy_unit(s: _Said) -> str:
    return gettext(
        "%(card)s is on %(name)s's own side: the hero and the wizard take an enemy unit."
    ) % {"card": s.text("card"), "name": s.name()}


def _gwent_not_magic(s: _Said) -> str:
    return gettext(
        "Only a Magic player removes weather this way, and %(name)s's alignment is not Magic."
    ) % {"name": s.name()}


def _gwent_magic_used(s: _Said) -> str:
    return gettext("%(name)s already removed weather once this game.") % {"name": s.name()}


def _registry() -> dict[str, Words]:
    words: dict[str, Words] = {
        "match.too_many_games": _too_many_games,
        "match.after_decided": _match_after_decided,
        "match.game_unfinished": _game_unfinished,
        "match.unfinished": _match_unfinished,
        "match.total_too_large": _total_too_large,
        "result.shape": _result_shape,
        "vanilla_gwent.unknown_alignment": _unknown_alignment,
        "generic.after_decided": _won_game_with,
        "generic.max_game_rounds": _max_game_rounds(_first_to_limit),
        "gesoseka.after_decided": _gesoseka_after_decided,
        "gesoseka.max_game_rounds": _max_game_rounds(_gesoseka_limit),
        "gesoseka.pod_scores": _pod_scores_count,
        "vanilla_gwent.after_decided": _won_game_by,
        "vanilla_gwent.max_game_rounds": _max_game_rounds(_vanilla_gwent_limit),
        "kontsina.max_game_rounds": _max_game_rounds(_kontsina_limit),
        "kontsina.round_points": _round_points,
        "games.pod_scores": _pod_score_range,
        "games.pod_too_long": _pod_too_long,
        "pod_game.too_many_ties": _too_many_ties,
        "turn_limit.limit_reached": _limit_reached,
        "turn_limit.game_round_over": _game_round_over,
        "turn_limit.already_passed": _already_passed,
        "turn_limit.not_your_turn": _not_your_turn,
        "vanilla_gwent.after_pass": _gwent_after_pass,
        "vanilla_gwent.not_your_turn": _gwent_not_your_turn,
        "vanilla_gwent.not_enemy_unit": _gwent_not_enemy_unit,
        "vanilla_gwent.not_magic": _gwent_not_magic,
        "vanilla_gwent.magic_used": _gwent_magic_used,
    }
    for game in GAMES:
        words[f"{game}.two_scores"] = _two_scores
        words[f"{game}.negative_score"] = _negative_score
        words[f"{game}.score_too_large"] = _score_too_large
        words[f"{game}.game_unfinished"] = _game_unfinished
    return words


#: The words of each rule code that has them.
WORDS: dict[str, Words] = _registry()


def violation_words(
    error: RuleViolation,
    names: Sequence[str] | None = None,
    seats: Sequence[str] | None = None,
) -> str | None:
    """The violation in words with the names of the people it is about (``names``: the
    sides, ``seats``: a table's seats, by default the ones attached to the violation).
    None: no names are known, or the code has no words (show the engine's detail)."""
    sides = tuple(names) if names is not None else error.names
    if sides is None:
        return None
    words = WORDS.get(error.rule)
    if words is None:
        return None
    at_seats = tuple(seats) if seats is not None else error.seats
    return words(_Said(dict(error.params), sides, at_seats if at_seats is not None else sides))


def problem(
    error: BaseException,
    *,
    names: Sequence[str] | None = None,
    seats: Sequence[str] | None = None,
) -> Problem | None:
    """What an edge shows for an error (``core.errors.translate``), a rule violation in
    words when the names it is about are known (given here, or attached to it). The code
    is unchanged; the words say where, so a page does not add ``where`` again
    (``Problem.text``)."""
    found = translate(error)
    if found is None:
        return None
    violation = error if isinstance(error, RuleViolation) else None
    if isinstance(error, DomainError):
        violation = error.violation
    if violation is None:
        return found
    words = violation_words(violation, names, seats)
    if words is None:
        return found
    return replace(found, detail=words, located=True)
