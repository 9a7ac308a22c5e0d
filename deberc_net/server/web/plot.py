"""Line charts as SVG text, made on the server: no JavaScript, nothing fetched.

A few lines of our own rather than matplotlib (tens of MB, and its SVG embeds fonts
and ids that change per call); the pages need only lines, axes, ticks and labels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import attrs

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 16, 16, 44


@attrs.frozen
class Scale:
    """Maps the domain [lo, hi] onto pixels [start, end] (end < start for a y axis)."""

    lo: float
    hi: float
    start: float
    end: float

    def __attrs_post_init__(self) -> None:
        if not self.hi > self.lo:
            raise ValueError(f"a scale needs lo < hi, not {self.lo}, {self.hi}")

    def __call__(self, value: float) -> float:
        clamped = min(max(value, self.lo), self.hi)  # off-range values sit on the edge
        return self.start + (clamped - self.lo) / (self.hi - self.lo) * (self.end - self.start)


@attrs.frozen
class Series:
    name: str
    values: Sequence[float]  # y for x = 1, 2, 3, ...


@attrs.frozen
class Rule:
    """A dashed horizontal line across the plot, such as a test's bound."""

    name: str
    value: float


def ticks(lo: float, hi: float, most: int = 6) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten apart) inside [lo, hi]."""
    if not hi > lo:
        raise ValueError(f"ticks need lo < hi, not {lo}, {hi}")
    raw = (hi - lo) / most  # at most most + 1 ticks when the ends fall on them
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9)
    out = []
    k = first
    while k * step <= hi + 1e-9 * step:
        out.append(round(k * step, 10))
        k += 1
    return out


def y_domain(values: Sequence[float], limit: float, pad: float = 0.1) -> tuple[float, float]:
    """A y range holding every value (each clipped to ±limit), padded, never empty."""
    clipped = [min(max(v, -limit), limit) for v in values] or [0.0]
    lo, hi = min(clipped), max(clipped)
    if hi - lo < 1e-9:
        lo, hi = lo - 1.0, hi + 1.0
    span = hi - lo
    return max(lo - pad * span, -limit), min(hi + pad * span, limit)


# the most points a line is drawn through: a line of 20,000 (a long ladder run's Elo, a
# player's ratings) was 20,000 points and dots, 0.3 s of CPU and 1 MB a page, where the
# plot's 570 pixels show no more (a bench of a big club, docs/web.md "Plots")
MOST_POINTS = 500


def drawn(values: Sequence[float], most: int = MOST_POINTS) -> list[tuple[int, float]]:
    """The (x, value) drawn of ``values`` (x counting from 1): every one when there
    are at most ``most``, else ``most`` of them evenly apart, the first and last among
    them, each at its own x."""
    count = len(values)
    if count <= most:
        return [(i + 1, v) for i, v in enumerate(values)]
    places = sorted({round(k * (count - 1) / (most - 1)) for k in range(most)})
    return [(i + 1, values[i]) for i in places]


def polyline_points(values: Sequence[float], x: Scale, y: Scale) -> str:
    return " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in drawn(values))


def line_chart(
    series: Sequence[Series],
    *,
    rules: Sequence[Rule] = (),
    x_label: str,
    y_label: str,
    title: str,
    limit: float = math.inf,
    width: int = 640,
    height: int = 320,
    markers: bool = False,
) -> str:
    """One polyline per series (a point per value, at most MOST_POINTS of them drawn),
    dashed rules, axes with ticks; with ``markers`` a dot on every point drawn too (a
    series of one point shows)."""
    longest = max((len(s.values) for s in series), default=0)
    # x counts points from 1, the first and last on the edges; a single point sits in
    # the middle over its one tick (from 1 to 2 it lay on the left edge)
    x_lo, x_hi = (1.0, float(longest)) if longest > 1 else (0.5, 1.5)
    x = Scale(x_lo, x_hi, MARGIN_LEFT, width - MARGIN_RIGHT)
    everything = [v for s in series for v in s.values] + [r.value for r in rules]
    lo, hi = y_domain(everything, limit)
    y = Scale(lo, hi, height - MARGIN_BOTTOM, MARGIN_TOP)
    left, right, top, bottom = MARGIN_LEFT, width - MARGIN_RIGHT, MARGIN_TOP, height - MARGIN_BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" '
        'fill="none" stroke="#999"/>',
    ]
    for value in ticks(lo, hi):
        py = y(value)
        parts.append(
            f'<line x1="{left - 4}" y1="{py:.1f}" x2="{right}" y2="{py:.1f}" stroke="#eee"/>'
            f'<text x="{left - 6}" y="{py + 4:.1f}" text-anchor="end">{value:g}</text>'
        )
    for value in ticks(x_lo, x_hi):
        if value != int(value):
            continue  # x counts games: whole numbers only
        px = x(value)
        parts.append(
            f'<line x1="{px:.1f}" y1="{bottom}" x2="{px:.1f}" y2="{bottom + 4}" stroke="#999"/>'
            f'<text x="{px:.1f}" y="{bottom + 16}" text-anchor="middle">{int(value)}</text>'
        )
    parts.append(
        f'<text x="{(left + right) / 2:.1f}" y="{height - 8}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
        f'<text x="12" y="{(top + bottom) / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {(top + bottom) / 2:.1f})">{escape(y_label)}</text>'
    )
    for n, rule in enumerate(rules):
        py = y(rule.value)
        label_y = py - 4 if n % 2 else py + 12  # two close bounds: one label each side
        parts.append(
            f'<line class="rule" data-value="{rule.value:g}" x1="{left}" y1="{py:.1f}" '
            f'x2="{right}" y2="{py:.1f}" stroke="#555" stroke-dasharray="6 4"/>'
            f'<text x="{right - 4}" y="{label_y:.1f}" text-anchor="end">{escape(rule.name)}</text>'
        )
    for n, s in enumerate(series):
        colour = COLOURS[n % len(COLOURS)]
        parts.append(
            f'<polyline class="series" data-name="{escape(s.name)}" '
            f'data-y-domain="{lo!r},{hi!r}" fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{polyline_points(s.values, x, y)}"/>'
            f'<text x="{left + 8}" y="{top + 14 + 14 * n}" fill="{colour}">{escape(s.name)}</text>'
        )
        if markers:
            parts.extend(
                f'<circle class="point" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"/>'
                for i, v in drawn(s.values)
            )
    parts.append("</svg>")
    return "\n".join(parts)
