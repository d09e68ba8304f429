"""How a person reads a round and a match, on every page that names one (the match page,
the player's card, the pairings, the bracket page, the projector, the round clock).

A round of a bracket or a round robin goes by its own name, its place in the stage
("Winners semifinals", "Losers round 2", "Grand final"), not by its number in the
tournament (a double elimination's semifinal is the tournament's round 4); any other round
is "Round 3". No query: the match was read with its round."""

from __future__ import annotations

from tournaments.models import Match, Round

__all__ = ["match_title", "round_title"]


def round_title(rnd: Round) -> str:
    """ "Round 3", or a bracket or round-robin round's own name ("Quarterfinals")."""
    return rnd.name or f"Round {rnd.number}"


def match_title(match: Match) -> str:
    """ "Round 3, table 4", "Winners semifinals, table 1", "Grand final, table 1"."""
    return f"{round_title(match.round)}, table {match.table}"
