"""A round's code: its place in its stage, never its words.

``Round.name`` stores it and the pure packages return it; the pages, the API, the exports,
the projector and the feed make the words from it at display, in one place
(``tournaments.selectors.names``). A code is its parts joined by ":":

- single elimination: "final", "semifinals", "quarterfinals", "round:1";
- double elimination: "winners:final", "winners:semifinals", "winners:1", "losers:final",
  "losers:3", "grand_final", "grand_final:reset";
- "third_place" (a single elimination bracket's third-place match);
- a round robin's round k of n: "round_robin:k:n"; pods: "pods:k:n".
"""

from __future__ import annotations

__all__ = [
    "FINAL",
    "GRAND_FINAL",
    "GRAND_FINAL_RESET",
    "LOSERS",
    "PODS",
    "QUARTERFINALS",
    "ROUND",
    "ROUND_ROBIN",
    "SEMIFINALS",
    "THIRD_PLACE",
    "WINNERS",
    "round_code",
]

FINAL = "final"
SEMIFINALS = "semifinals"
QUARTERFINALS = "quarterfinals"
GRAND_FINAL = "grand_final"
GRAND_FINAL_RESET = "grand_final:reset"
THIRD_PLACE = "third_place"
#: The first part of a numbered round's code.
ROUND = "round"
WINNERS = "winners"
LOSERS = "losers"
ROUND_ROBIN = "round_robin"
PODS = "pods"


def round_code(*parts: str | int) -> str:
    """A round's code from its parts: ``round_code(LOSERS, 3)`` is "losers:3"."""
    return ":".join(str(part) for part in parts)
