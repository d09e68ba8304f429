"""A rating's history as a line chart: one server-drawn SVG element (issue 26).

Plain Python (no Django): the caller gives the figures and the words, already in the
reader's language, and gets the SVG's text. The drawing:

- one point per rated match, left to right in play order, evenly spaced (the matches,
  not the calendar: a player's 40 matches in one weekend and 3 over a summer read alike);
- the vertical range from the lowest to the highest figure, padded; a flat history is
  drawn mid-height;
- the highest and lowest figures written at the left edge, the last point marked;
- ``role="img"`` with a ``<title>`` and a ``<desc>`` (``aria-labelledby``) for a screen
  reader; the page lists the figures as text too.

Styling is classes (``rating-chart``, ``-line``, ``-axis``, ``-label``, ``-last``) with
``currentColor`` strokes, so it reads in print and in a dark theme without a stylesheet.
The width scales with the container (``viewBox``). Text is escaped; control characters
(which XML cannot carry) are dropped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from html import escape

WIDTH = 320
HEIGHT = 120
#: Room at the left for the figures' labels, and around the line.
LEFT = 44
PAD = 8

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(value: str) -> str:
    return escape(_CONTROL.sub("", value), quote=True)


def _figure(value: float) -> str:
    return f"{value:.1f}"


def points_of(
    values: Sequence[float], *, width: int = WIDTH, height: int = HEIGHT
) -> list[tuple[float, float]]:
    """Each value's (x, y) in the drawing's units: x evenly spaced, y upward."""
    if not values:
        return []
    low, high = min(values), max(values)
    span = high - low
    inner_w = width - LEFT - PAD
    inner_h = height - 2 * PAD
    step = inner_w / (len(values) - 1) if len(values) > 1 else 0.0
    found = []
    for i, value in enumerate(values):
        x = LEFT + (i * step if len(values) > 1 else inner_w / 2)
        y = PAD + inner_h / 2 if span == 0 else PAD + inner_h * (high - value) / span
        found.append((round(x, 1), round(y, 1)))
    return found


def rating_chart(
    values: Sequence[float],
    *,
    title: str,
    description: str,
    chart_id: str = "rating-chart",
    width: int = WIDTH,
    height: int = HEIGHT,
) -> str:
    """The SVG of ``values`` (finite numbers; a ValueError otherwise), titled."""
    if any(not math.isfinite(v) for v in values):
        raise ValueError("a rating chart draws finite numbers only")
    ident = re.sub(r"[^A-Za-z0-9_-]", "", chart_id) or "rating-chart"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" viewBox="0 0 {width} '
        f'{height}" role="img" aria-labelledby="{ident}-title {ident}-desc" '
        f'preserveAspectRatio="xMidYMid meet">',
        f'<title id="{ident}-title">{_text(title)}</title>',
        f'<desc id="{ident}-desc">{_text(description)}</desc>',
        f'<line class="rating-chart-axis" x1="{LEFT}" y1="{height - PAD}" x2="{width - PAD}" '
        f'y2="{height - PAD}" stroke="currentColor" stroke-opacity="0.3"/>',
        f'<line class="rating-chart-axis" x1="{LEFT}" y1="{PAD}" x2="{LEFT}" '
        f'y2="{height - PAD}" stroke="currentColor" stroke-opacity="0.3"/>',
    ]
    points = points_of(values, width=width, height=height)
    if points:
        low, high = min(values), max(values)
        parts.append(
            f'<text class="rating-chart-label" x="{LEFT - 4}" y="{PAD + 4}" '
            f'text-anchor="end" font-size="11" fill="currentColor">{_figure(high)}</text>'
        )
        if high != low:
            parts.append(
                f'<text class="rating-chart-label" x="{LEFT - 4}" y="{height - PAD}" '
                f'text-anchor="end" font-size="11" fill="currentColor">{_figure(low)}</text>'
            )
        drawn = " ".join(f"{x},{y}" for x, y in points)
        parts.append(
            f'<polyline class="rating-chart-line" points="{drawn}" fill="none" '
            f'stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>'
        )
        x, y = points[-1]
        parts.append(
            f'<circle class="rating-chart-last" cx="{x}" cy="{y}" r="3" fill="currentColor"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
