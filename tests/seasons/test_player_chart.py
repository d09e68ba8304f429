"""The rating history's chart (seasons/web/chart.py, issue 26): well-formed SVG with a
title and a description for a screen reader, one point per figure, escaped text."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from seasons.web.chart import HEIGHT, PAD, points_of, rating_chart

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _points(root: ET.Element) -> list[str]:
    line = root.find(f"{SVG}polyline")
    return [] if line is None else line.attrib["points"].split()


def test_the_title_and_description_name_the_chart_for_a_screen_reader() -> None:
    root = _parse(rating_chart([1.0, 2.5, 2.0], title="Gesoseka", description="3 matches"))
    assert root.attrib["role"] == "img"
    assert root.attrib["aria-labelledby"] == "rating-chart-title rating-chart-desc"
    assert root.find(f"{SVG}title").text == "Gesoseka"
    assert root.find(f"{SVG}desc").text == "3 matches"


def test_higher_figures_are_drawn_higher_and_the_extremes_are_labelled() -> None:
    points = points_of([1.0, 3.0, 2.0])
    assert points[1][1] == PAD and points[0][1] == HEIGHT - PAD
    assert points[0][0] < points[1][0] < points[2][0]
    labels = [
        t.text
        for t in _parse(rating_chart([1.0, 3.0, 2.0], title="t", description="d")).iter(
            f"{SVG}text"
        )
    ]
    assert labels == ["3.0", "1.0"]


def test_a_flat_history_and_a_single_point_sit_mid_height() -> None:
    assert {y for _, y in points_of([5.0, 5.0, 5.0])} == {HEIGHT / 2}
    (single,) = points_of([5.0])
    assert single[1] == HEIGHT / 2


def test_no_figures_draw_the_axes_only() -> None:
    root = _parse(rating_chart([], title="t", description="No rated match yet."))
    assert root.find(f"{SVG}polyline") is None and root.find(f"{SVG}circle") is None


def test_names_are_escaped_and_control_characters_dropped() -> None:
    svg = rating_chart([1.0], title='<script>"&\x00', description="a\x07b", chart_id='x"><y')
    root = _parse(svg)
    assert root.find(f"{SVG}title").text == '<script>"&'
    assert "<script>" not in svg and 'id="xy-title"' in svg


def test_a_figure_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(ValueError, match="finite"):
        rating_chart([1.0, float("nan")], title="t", description="d")


figures = st.lists(
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False),
    max_size=300,
)


@given(figures, st.text(max_size=40), st.text(max_size=40))
def test_any_figures_give_well_formed_svg_with_one_point_each(
    values: list[float], title: str, description: str
) -> None:
    root = _parse(rating_chart(values, title=title, description=description))
    assert root.tag == f"{SVG}svg"
    assert len(_points(root)) == len(values)
    for point in _points(root):
        x, y = (float(v) for v in point.split(","))
        assert 0 <= x <= 320 and 0 <= y <= HEIGHT
