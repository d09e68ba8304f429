"""The bracket page's drawing: an elimination bracket as one server-rendered SVG element.

Terms are the engine's (``tournaments.pairing.elimination``): a *slot* is one match of the
bracket (key ``W2-3``, ``L3-1``, ``GF``, ``GF2``, ``P3``), fed by two *feeders*; a *bye* slot
has one entrant, who advances without playing; a *void* slot is never played. Here a *box*
is a drawn slot (two *lines*, one per entrant: seed, name, score), a *connector* the line
from a box to the box its winner goes to, a *column* one round of one side.

Layout (user units; the SVG scales with its container through its ``viewBox``):

- One column per round, left to right. The winners' bracket (a single elimination bracket
  is only this) on top: round-1 slot p is centred at (p - 1/2) rows, and every later slot
  half-way between its two feeders, so connectors are plain elbows. The losers' bracket
  below it in columns of its own: a round that takes drops keeps its feeders' rows (its
  feeder is straight to its left), a round that pairs winners halves them.
- The grand final right of the winners' final's row, in the first column right of both
  brackets (the losers' final is then straight to its left), and its reset right of it:
  drawn while it may still be played (waiting) or once played, not once void. The
  third-place match under the final, in the final's column.
- Void slots are not drawn, nor the connectors from or to them. A bye slot shows its
  entrant and "bye". Losers' drops are captions ("Loser to losers round 2, table 1"), not
  lines: lines across both brackets would cross everything.
- An entrant not known yet is named by where they come from, as every page names that
  match: its round's label and its table in the round (``elimination.tables``, the table
  the match gets when it becomes ready): "Winner of quarterfinals, table 3", "Loser of
  winners round 2, table 1", "Winner of grand final" (a round of one match). A bye is
  looked through: its entrant is named by where they come from.

Styling is classes only (``static/css/bracket.css``): no colour is written here, so print
and dark projector themes restyle it. The only presentation attributes are sizes and
``fill="none"``/``currentColor`` defaults, which keep it legible without the stylesheet.
Sizes are chosen for a phone that scrolls the drawing sideways (``.bracket-scroll``): the
SVG never shrinks below its natural size (an inline ``min-width`` in px, which is a size,
not a colour), so text stays at 13 units = 13 CSS px.

Names are untrusted: every text is escaped, control characters (which XML cannot carry)
are dropped, and a long name is cut at ``NAME_CHARS`` characters with an ellipsis (the box's
``<title>`` keeps it whole). Text the estimate says is still too wide for its room (wide
letters, CJK) is squeezed with ``textLength`` rather than left to overlap the score.

Cost: one pass over the slots, strings collected in one list and joined once; a 256-entrant
double elimination (511 slots) draws in a few milliseconds.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from tournaments.pairing.elimination import (
    Bracket,
    BracketState,
    Feeder,
    Format,
    LoserOf,
    Seeded,
    Side,
    Slot,
    SlotKind,
    SlotState,
    Status,
    WinnerOf,
    tables,
)
from tournaments.selectors.names import round_namer

__all__ = ["NAME_CHARS", "bracket_svg"]

#: Names longer than this are cut (with an ellipsis, which counts) so they fit the box.
NAME_CHARS = 18

# Geometry, in user units (1 unit = 1 CSS px at the natural size).
BOX_W = 200
BOX_H = 44
LINE_H = BOX_H // 2
GAP_X = 44  # between columns: room for the connectors' elbows
GAP_Y = 26  # between boxes of round 1: room for a caption under each box
COL_W = BOX_W + GAP_X
ROW_H = BOX_H + GAP_Y  # even, so every centre below is a whole number
PAD = 12
LABEL_H = 30  # a round label's band above its column
SECTION_GAP = 18  # between the winners' and the losers' bracket
THIRD_PLACE_GAP = 60  # from the final's bottom to the third-place match's top

FONT = 13
SMALL_FONT = 11
TBD_FONT = 12
SEED_RIGHT = 30  # the seed is right-aligned here
NAME_X = 36
SCORE_RIGHT = BOX_W - 8
TEXT_Y = ("15.5", "37.5")  # baselines of the two lines (caps centred on each half)
CAPTION_Y = BOX_H + 14
#: The most columns static/css/bracket.css sizes (a double elimination of 1,024 has 20).
MAX_COLUMNS = 48

# Characters XML 1.0 cannot carry (or that no name needs): dropped from every text.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_JOINERS = frozenset("\u200c\u200d\ufe0e\ufe0f")
_NARROW = frozenset("fijlrtI.,:;'!|()[] -")
_WIDE = frozenset("mwMW@%")


def bracket_svg(
    bracket: Bracket,
    state: BracketState,
    names: Mapping[int, str],
    *,
    seeds: Mapping[int, int] | None = None,
    scores: Mapping[str, tuple[str, str]] | None = None,
    links: Mapping[str, str] | None = None,
    highlight: int | None = None,
    title: str = "",
) -> SafeString:
    """The whole bracket as one ``<svg>`` element, safe to put in a page as it is.

    ``names``: entrant -> its name (a team's name, or the player's; an entrant missing
    from it shows as "Entrant 17").
    ``seeds``: entrant -> the seed shown before the name (default: its place in
    ``bracket.entrants``, from 1). ``scores``: slot key -> the two lines' score texts.
    ``links``: slot key -> the match page's URL (the box becomes a link). ``highlight``:
    an entrant whose boxes and connectors get the class ``hl`` (the viewer's own path: theirs
    or their team's).
    ``title``: the accessible name (default: the format and the field's size).

    Each drawn box is ``<g id="slot-KEY" class="match STATUS" data-status="STATUS">``.
    Raises ``ValueError`` when ``state`` was resolved for another bracket.
    """
    if state.bracket is not bracket and state.bracket.keys != bracket.keys:
        raise ValueError("The state was resolved for another bracket.")
    # Safe: every text and attribute value in it is escaped as it is written.
    return mark_safe(
        _Drawing(bracket, state, names, seeds, scores or {}, links or {}, highlight).svg(title)
    )


def columns_of(width: int) -> int:
    """How many columns a drawing ``width`` wide has (every box starts on a column)."""
    return (width - 2 * PAD - BOX_W) // COL_W + 1


@dataclass(frozen=True, slots=True)
class _Box:
    slot: Slot
    state: SlotState
    x: int
    y: int  # top


class _Drawing:
    """One drawing: the layout of every slot, then the SVG's text, in one list of strings."""

    def __init__(
        self,
        bracket: Bracket,
        state: BracketState,
        names: Mapping[int, str],
        seeds: Mapping[int, int] | None,
        scores: Mapping[str, tuple[str, str]],
        links: Mapping[str, str],
        highlight: int | None,
    ) -> None:
        self.bracket = bracket
        self.state = state
        self.names = names
        self.seeds = seeds if seeds is not None else _default_seeds(bracket)
        self.scores = scores
        self.links = links
        self.highlight = highlight
        self.slots = {s.key: s for s in bracket.slots}
        self.round_name = round_namer()
        self.round_words = round_namer(in_sentence=True)  # "Winner of quarterfinals"
        self.round_sizes = {(r.side, r.number): len(r.keys) for r in bracket.rounds}
        self.kinds = {s.key: s.kind for s in bracket.slots}
        # A match's table within its round, as the pages number it; how many a round has.
        self.tables = tables(bracket)
        self.round_tables: dict[tuple[Side, int], int] = {}
        for s in bracket.slots:
            if s.key in self.tables:
                self.round_tables[(s.side, s.round)] = (
                    self.round_tables.get((s.side, s.round), 0) + 1
                )
        # Where each slot's loser goes (at most one slot takes it).
        self.loser_to: dict[str, str] = {}
        for s in bracket.slots:
            for feeder in (s.a, s.b):
                if isinstance(feeder, LoserOf):
                    self.loser_to[feeder.key] = s.key
        # The losers' bracket starts under the winners' (size / 2 rows) and its labels.
        self.losers_top = PAD + LABEL_H + (bracket.size // 2) * ROW_H + SECTION_GAP + LABEL_H
        self.boxes = self._layout()
        self.parts: list[str] = []

    # --- layout ---------------------------------------------------------------------------

    def _layout(self) -> dict[str, _Box]:
        """Every slot that is drawn (not void), with its box's top-left corner."""
        bracket = self.bracket
        k = bracket.size.bit_length() - 1  # winners' rounds
        losers_rounds = max((s.round for s in bracket.slots if s.side is Side.LOSERS), default=0)
        winners_top = PAD + LABEL_H
        losers_top = self.losers_top
        # The grand final's column: the first one right of both brackets.
        final_column = max(k, losers_rounds)
        final_centre = winners_top + (bracket.size // 2) * ROW_H // 2
        boxes: dict[str, _Box] = {}
        for slot, st in zip(bracket.slots, self.state.slots(), strict=True):
            if st.status is Status.VOID:
                continue
            if slot.side is Side.WINNERS:
                column = slot.round - 1
                centre = winners_top + (2 * slot.position - 1) * (ROW_H << (slot.round - 1)) // 2
            elif slot.side is Side.LOSERS:
                column = slot.round - 1
                spread = ROW_H << ((slot.round - 1) // 2)
                centre = losers_top + (2 * slot.position - 1) * spread // 2
            elif slot.side is Side.FINAL:
                column = final_column + slot.round - 1
                centre = final_centre
            else:  # the third-place match, under the final
                column = k - 1
                centre = final_centre + BOX_H + THIRD_PLACE_GAP
            boxes[slot.key] = _Box(slot, st, PAD + column * COL_W, centre - BOX_H // 2)
        return boxes

    # --- the whole element ----------------------------------------------------------------

    def svg(self, title: str) -> str:
        width = max(b.x for b in self.boxes.values()) + BOX_W + PAD
        # Its natural width (min-width, at most twice that) comes from bracket.css by the
        # number of columns: a style="..." attribute would be refused by the site's
        # Content-Security-Policy (core/csp.py).
        columns = min(columns_of(width), MAX_COLUMNS)
        height = max(b.y for b in self.boxes.values()) + CAPTION_Y + 8 + PAD
        role = "img"
        if self.links:
            # An img's children are presentational: its links would vanish from the
            # accessibility tree. A group keeps them reachable and named.
            role = "group"
        out = self.parts
        out.append(
            f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket-svg {self.bracket.format}"'
            f' viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMinYMin meet"'
            f' data-columns="{columns}" role="{role}"'
            f' font-size="{FONT}" fill="currentColor">'
        )
        out.append(f"<title>{_text(title or self._default_title())}</title>")
        out.append(f"<desc>{_text(self._summary())}</desc>")
        out.append('<g class="connectors" fill="none" stroke="currentColor">')
        self._connectors()
        out.append("</g>")
        self._labels()
        for box in self.boxes.values():
            self._box(box)
        out.append("</svg>")
        return "".join(out)

    def _default_title(self) -> str:
        count = len(self.bracket.entrants)
        if self.bracket.format is Format.SINGLE:
            title = ngettext(
                "Single elimination bracket, %(count)d entrant",
                "Single elimination bracket, %(count)d entrants",
                count,
            )
        else:
            title = ngettext(
                "Double elimination bracket, %(count)d entrant",
                "Double elimination bracket, %(count)d entrants",
                count,
            )
        return title % {"count": count}

    def _summary(self) -> str:
        played = to_play = total = 0
        for box in self.boxes.values():
            if box.slot.kind is SlotKind.MATCH:
                total += 1
                played += box.state.status is Status.DONE
                to_play += box.state.status is Status.READY
        numbers = {"played": played, "total": total, "ready": to_play}
        if self.state.champion is None:
            return (
                ngettext(
                    "%(played)d of %(total)d matches played, %(ready)d ready to play.",
                    "%(played)d of %(total)d matches played, %(ready)d ready to play.",
                    total,
                )
                % numbers
            )
        return ngettext(
            "%(played)d of %(total)d matches played, %(ready)d ready to play. Champion: %(name)s.",
            "%(played)d of %(total)d matches played, %(ready)d ready to play. Champion: %(name)s.",
            total,
        ) % {**numbers, "name": self._name(self.state.champion)}

    # --- round labels ---------------------------------------------------------------------

    def _labels(self) -> None:
        seen: set[tuple[Side, int]] = set()
        out = self.parts
        for box in self.boxes.values():
            slot = box.slot
            if (slot.side, slot.round) in seen:
                continue
            seen.add((slot.side, slot.round))
            if slot.side is Side.THIRD_PLACE:
                y = box.y - 10  # right above its box: its column's label is the final's
            elif slot.side is Side.LOSERS:
                y = self.losers_top - 12
            else:
                y = PAD + LABEL_H - 12
            words = _text(self.round_name(slot.round_code))
            out.append(f'<text class="round-label" x="{box.x + 2}" y="{y}">{words}</text>')

    # --- connectors -----------------------------------------------------------------------

    def _connectors(self) -> None:
        out = self.parts
        for box in self.boxes.values():
            for line, (feeder, entrant) in enumerate(
                ((box.slot.a, box.state.a), (box.slot.b, box.state.b))
            ):
                if not isinstance(feeder, WinnerOf | LoserOf):
                    continue
                source = self.boxes.get(feeder.key)
                if source is None:
                    continue  # from a void slot: nothing comes along it
                if isinstance(feeder, LoserOf) and box.slot.side is not Side.FINAL:
                    continue  # a drop: captioned under its box instead
                x1 = source.x + BOX_W
                y1 = source.y + BOX_H // 2
                x2 = box.x
                y2 = box.y + LINE_H // 2 + line * LINE_H
                elbow = x2 - GAP_X // 2
                cls = "link hl" if entrant is not None and entrant == self.highlight else "link"
                out.append(
                    f'<path class="{cls}" data-from="{source.slot.key}" data-to="{box.slot.key}"'
                    f' d="M{x1},{y1}H{elbow}V{y2}H{x2}"/>'
                )

    # --- boxes ----------------------------------------------------------------------------

    def _box(self, box: _Box) -> None:
        slot, st = box.slot, box.state
        out = self.parts
        status = st.status.value
        mine = self.highlight is not None and self.highlight in (st.a, st.b)
        cls = f"match {status} hl" if mine else f"match {status}"
        link = self.links.get(slot.key)
        if link is not None:
            out.append(f'<a href="{_attr(link)}" class="match-link">')
        out.append(
            f'<g id="slot-{_attr(slot.key)}" class="{cls}" data-status="{status}"'
            f' data-key="{_attr(slot.key)}" transform="translate({box.x},{box.y})">'
        )
        out.append(f"<title>{_text(self._box_title(slot, st))}</title>")
        out.append(f'<rect class="box" width="{BOX_W}" height="{BOX_H}" rx="6" fill="none"/>')
        out.append(f'<path class="sep" d="M0,{LINE_H}H{BOX_W}" stroke="currentColor"/>')
        score = self.scores.get(slot.key)
        for line, (feeder, entrant) in enumerate(((slot.a, st.a), (slot.b, st.b))):
            self._line(slot, st, line, feeder, entrant, score[line] if score else None)
        caption = self._caption(slot, st)
        if caption:
            out.append(
                f'<text class="caption" x="2" y="{CAPTION_Y}" font-size="{SMALL_FONT}"'
                f"{_fit(caption, SMALL_FONT, BOX_W - 4)}>{_text(caption)}</text>"
            )
        out.append("</g>")
        if link is not None:
            out.append("</a>")

    def _line(
        self,
        slot: Slot,
        st: SlotState,
        line: int,
        feeder: Feeder,
        entrant: int | None,
        score: str | None,
    ) -> None:
        out = self.parts
        y = TEXT_Y[line]
        if entrant is None:
            if self._empty(feeder):
                bye = _text(pgettext("a match without an opponent", "bye"))
                out.append(
                    f'<g class="line bye"><text class="name" x="{NAME_X}" y="{y}">{bye}</text></g>'
                )
            else:
                words = self._from(feeder, slot.side)
                out.append(
                    f'<g class="line tbd"><text class="name" x="8" y="{y}"'
                    f' font-size="{TBD_FONT}"{_fit(words, TBD_FONT, BOX_W - 16)}>'
                    f"{_text(words)}</text></g>"
                )
            return
        role = ""
        if st.status is Status.DONE:
            role = " won" if entrant == st.winner else " lost"
        if entrant == self.highlight:
            role += " me"
        out.append(f'<g class="line{role}">')
        seed = self.seeds.get(entrant)
        if seed is not None:
            out.append(
                f'<text class="seed" x="{SEED_RIGHT}" y="{y}" text-anchor="end"'
                f' font-size="{SMALL_FONT}">{seed}</text>'
            )
        room = SCORE_RIGHT - NAME_X
        if score:
            score = _clean(score)[:6]
            room -= int(_em(score) * FONT * 1.1) + 10
            out.append(
                f'<text class="score" x="{SCORE_RIGHT}" y="{y}" text-anchor="end">'
                f"{_text(score)}</text>"
            )
        name = _truncate(self._name(entrant), NAME_CHARS)
        bold = 1.1 if role.startswith(" won") else 1.0
        out.append(
            f'<text class="name" x="{NAME_X}" y="{y}"{_fit(name, FONT * bold, room)}>'
            f"{_text(name)}</text>"
        )
        out.append("</g>")

    def _caption(self, slot: Slot, st: SlotState) -> str:
        """What goes under a box: where its loser drops, a reset's condition, the champion."""
        if slot.reset_of is not None and st.status is Status.WAITING:
            return gettext("Only if needed")
        champion = self.state.champion
        if (
            champion is not None
            and st.winner == champion
            and (slot.side is Side.FINAL or self.bracket.format is Format.SINGLE)
            and slot.key == self._deciding_key()
        ):
            return gettext("Champion: %(name)s") % {
                "name": _truncate(self._name(champion), NAME_CHARS)
            }
        if slot.kind is not SlotKind.MATCH or slot.side is Side.FINAL:
            return ""
        target = self.loser_to.get(slot.key)
        if target is None or target not in self.boxes:
            return ""
        return gettext("Loser to %(match)s") % {"match": self._words(self.slots[target])}

    def _deciding_key(self) -> str:
        """The slot that made the champion (single: the final; double: the grand final or
        its reset)."""
        for key in ("GF2", "GF"):
            box = self.boxes.get(key)
            if box is not None and box.state.status is Status.DONE:
                if key == "GF" and "GF2" in self.boxes:
                    continue  # the reset was played: it decided
                return key
        k = self.bracket.size.bit_length() - 1
        return f"W{k}-1"

    def _box_title(self, slot: Slot, st: SlotState) -> str:
        what = _capitalised(self._words(slot, in_sentence=False))
        if st.status is Status.BYE:
            winner = st.a if st.a is not None else st.b
            return gettext("%(match)s: %(name)s has a bye") % {
                "match": what,
                "name": self._name(winner) if winner is not None else "?",
            }
        said = {
            "match": what,
            "a": self._side_words(slot.a, st.a, slot.side),
            "b": self._side_words(slot.b, st.b, slot.side),
        }
        if st.status is Status.DONE and st.winner is not None:
            said["winner"] = self._name(st.winner)
            score = self.scores.get(slot.key)
            if score:
                said["score"] = f"{_clean(score[0])}-{_clean(score[1])}"
                return gettext("%(match)s: %(a)s vs %(b)s, %(winner)s won %(score)s") % said
            return gettext("%(match)s: %(a)s vs %(b)s, %(winner)s won") % said
        if st.status is Status.READY:
            return gettext("%(match)s: %(a)s vs %(b)s, to play") % said
        return gettext("%(match)s: %(a)s vs %(b)s") % said

    def _side_words(self, feeder: Feeder, entrant: int | None, side: Side) -> str:
        if entrant is not None:
            return self._name(entrant)
        if self._empty(feeder):
            return pgettext("a match without an opponent", "bye")
        return self._from(feeder, side)

    # --- words ----------------------------------------------------------------------------

    def _name(self, entrant: int) -> str:
        name = self.names.get(entrant)
        cleaned = _clean(name) if name else ""
        return cleaned or gettext("Entrant %(number)s") % {"number": entrant}

    def _empty(self, feeder: Feeder) -> bool:
        """Whether nobody can ever come from ``feeder`` (the engine's rule for byes)."""
        if isinstance(feeder, Seeded):
            return feeder.entrant is None
        kind = self.kinds[feeder.key]
        if isinstance(feeder, WinnerOf):
            return kind is SlotKind.VOID
        return kind is not SlotKind.MATCH

    def _from(self, feeder: Feeder, side: Side) -> str:
        if isinstance(feeder, Seeded):
            return pgettext("in a bracket", "Seed %(seed)s") % {"seed": feeder.seed}
        slot = self.slots[feeder.key]
        if slot.kind is SlotKind.BYE and isinstance(feeder, WinnerOf):
            # A bye is never played (it has no table): its entrant is whoever comes into it.
            inner = next((f for f in (slot.a, slot.b) if not self._empty(f)), None)
            if inner is not None:
                return self._from(inner, side)
        said = {"match": self._words(slot)}
        if isinstance(feeder, WinnerOf):
            return gettext("Winner of %(match)s") % said
        return gettext("Loser of %(match)s") % said

    def _words(self, slot: Slot, *, in_sentence: bool = True) -> str:
        """A slot in words, as the pages name its match (``selectors.names``): its round's
        label and its table in the round ("losers round 2, table 1", "semifinals, table 2"),
        the label alone for a round of one match ("grand final") or a bye. ``in_sentence``:
        as a sentence says it ("Winner of quarterfinals"), else as a title
        ("Quarterfinals, table 1")."""
        name = self.round_words if in_sentence else self.round_name
        text = name(slot.round_code)
        table = self.tables.get(slot.key)
        if table is not None and self.round_tables.get((slot.side, slot.round), 0) > 1:
            text = gettext("%(round)s, table %(table)d") % {"round": text, "table": table}
        return text


# --- text helpers -------------------------------------------------------------------------


def _default_seeds(bracket: Bracket) -> dict[int, int]:
    return {entrant: i for i, entrant in enumerate(bracket.entrants, start=1)}


def _clean(text: str) -> str:
    """``text`` without what XML cannot carry, its white space collapsed."""
    return " ".join(_UNPRINTABLE.sub("", text).split())


def _text(text: str) -> str:
    return escape(_UNPRINTABLE.sub("", text), quote=False)


def _attr(text: str) -> str:
    return escape(_UNPRINTABLE.sub("", text), quote=True)


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _truncate(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the last one an ellipsis, never inside a
    character built of several code points (an accent, a joined emoji)."""
    if len(text) <= limit:
        return text
    cut = limit - 1
    while cut > 0 and (
        unicodedata.combining(text[cut]) or text[cut] in _JOINERS or text[cut - 1] in _JOINERS
    ):
        cut -= 1
    return text[:cut].rstrip() + "\u2026"


def _em(text: str) -> float:
    """A generous estimate of ``text``'s width in ems in a sans-serif font."""
    width = 0.0
    for ch in text:
        if ch in _NARROW:
            width += 0.32
        elif ch in _WIDE:
            width += 0.88
        elif ch.isascii():
            width += 0.74 if ch.isupper() else 0.6
        elif unicodedata.combining(ch) or ch in _JOINERS:
            continue
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            width += 1.0
        else:
            width += 0.62
    return width


def _fit(text: str, size: float, room: int) -> str:
    """Attributes squeezing ``text`` into ``room`` units when it may not fit as it is."""
    if _em(text) * size <= room:
        return ""
    return f' textLength="{room}" lengthAdjust="spacingAndGlyphs"'
