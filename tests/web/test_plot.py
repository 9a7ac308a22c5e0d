"""The server's SVG line charts: scales, ticks, one polyline point per value."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from deberc_net.server.web.plot import Rule, Scale, Series, line_chart, ticks, y_domain

SVG = "{http://www.w3.org/2000/svg}"


def test_a_scale_maps_the_domain_onto_pixels_and_clamps_outside_it() -> None:
    y = Scale(-100, 100, 300, 100)  # a y axis: up is smaller
    assert (y(-100), y(0), y(100)) == (300, 200, 100)
    assert y(5000) == 100 and y(-5000) == 300
    with pytest.raises(ValueError, match="lo < hi"):
        Scale(1, 1, 0, 10)


def test_ticks_are_round_and_inside_the_range() -> None:
    assert ticks(0, 10) == [0, 2, 4, 6, 8, 10]
    assert ticks(-37, 81) == [-20, 0, 20, 40, 60, 80]
    assert ticks(1, 2) == [1, 1.2, 1.4, 1.6, 1.8, 2]
    with pytest.raises(ValueError):
        ticks(3, 3)


def test_the_y_domain_holds_every_value_clipped_and_is_never_empty() -> None:
    lo, hi = y_domain([10, 20], limit=800)
    assert lo < 10 and hi > 20
    assert y_domain([5000, -3], limit=800)[1] == 800
    lo, hi = y_domain([7, 7], limit=800)
    assert lo < 7 < hi
    assert y_domain([], limit=800)[0] < 0 < y_domain([], limit=800)[1]


def test_a_chart_has_a_polyline_point_per_value_and_escapes_its_labels() -> None:
    values = [0.0, 50.0, -25.0, 120.0]
    svg = line_chart(
        [Series("a<b> v c", values), Series("d v e", [1.0])],
        rules=[Rule("H1 +20", 20.0)],
        x_label="games",
        y_label="Elo",
        title="t & u",
    )
    root = ET.fromstring(svg)  # well-formed XML: the labels are escaped
    lines = root.findall(f"{SVG}polyline")
    assert [p.get("data-name") for p in lines] == ["a<b> v c", "d v e"]
    lo, hi = (float(v) for v in lines[0].get("data-y-domain", "").split(","))
    y = Scale(lo, hi, 320 - 44, 16)
    points = [tuple(map(float, p.split(","))) for p in lines[0].get("points", "").split()]
    assert [py for _, py in points] == [round(y(v), 1) for v in values]
    assert [px for px, _ in points] == sorted(px for px, _ in points)  # left to right
    assert len(lines[1].get("points", "").split()) == 1
    rule = root.find(f"{SVG}line[@class='rule']")
    assert rule is not None and float(rule.get("y1", "")) == round(y(20.0), 1)
    assert "script" not in svg and not re.search(r"https?://(?!www\.w3\.org/2000/svg)", svg)


def test_a_single_point_sits_inside_the_plot_over_its_one_tick() -> None:
    """A player's first rated match: the x axis ran from 1 to 2, its dot on the left
    edge (a tryout). One point: in the middle, over the axis's one tick, 1."""
    svg = line_chart(
        [Series("moscow, 2 players", [12.5])], x_label="x", y_label="y", title="t", markers=True
    )
    root = ET.fromstring(svg)
    frame = root.find(f"{SVG}rect")
    assert frame is not None
    left = float(frame.get("x", ""))
    right = left + float(frame.get("width", ""))
    bottom = float(frame.get("y", "")) + float(frame.get("height", ""))
    [dot] = root.findall(f"{SVG}circle")
    assert float(dot.get("cx", "")) == round((left + right) / 2, 1)
    # the x axis's labels: under the frame, each a count of matches
    labels = [t for t in root.findall(f"{SVG}text") if float(t.get("y", "")) == bottom + 16]
    assert [(t.text, float(t.get("x", ""))) for t in labels] == [("1", float(dot.get("cx", "")))]
    lo, hi = (
        float(v) for v in root.findall(f"{SVG}polyline")[0].get("data-y-domain", "").split(",")
    )
    assert lo < 12.5 < hi
