"""The people style lays names out by a terminal's columns, not characters: a name in
CJK takes two a character (a registered name may be 20 of them: 40 columns), so a
list padded or wrapped by characters was pushed out of line, or cut inside a name."""

from __future__ import annotations

import unicodedata

import attrs
import pytest

from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import tables_lines, top_lines
from deberc_net.protocol.render_ru import render_ru

WANG = "王" * 20  # the longest name there is (docs/protocol.md §4.2), 40 columns
LI = "李" * 20


def cells(text: str) -> int:
    """A terminal's columns, counted here on their own (East Asian width)."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def _tables(lang: Lang, playing: str) -> list[str]:
    seats = (WANG, "bob", LI, "vera")
    table = ev.TableInfo(3, 4, "moscow", (), seats, ev.TableState.PLAYING, 0)
    if playing != "waiting":  # a running match: its deal and score by pair
        away = {"away": (0,), "both away": (0, 2)}.get(playing, ())
        table = attrs.evolve(table, deal=5, score=(182, 224), away=away)
    tables = ev.Tables((table,), 1)
    return tables_lines(tables) if lang is Lang.EN else render_ru(tables)


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
@pytest.mark.parametrize("playing", ["waiting", "scored", "away", "both away"])
def test_tables_wraps_two_long_cjk_partners_between_them_not_inside_a_name(
    lang: Lang, playing: str
) -> None:
    """Two partners of 20 CJK characters each are 85 columns with their score: the
    pair was cut inside the second name ('李李…李' on two lines), and so were both
    named away, '(away: 王…, 李…)', kept as one piece 90 columns wide."""
    lines = _tables(lang, playing)
    assert all(cells(line) <= 80 for line in lines), lines
    for name in (WANG, LI):  # each whole on a line wherever it is named
        assert any(name in line for line in lines), lines
        assert all(line.count(name[0]) in (0, len(name)) for line in lines), lines
    # no mark left (the wrapping's marks are control or invisible characters)
    assert not any("+ " in line or not line.isprintable() for line in lines), lines
    if playing != "waiting":
        assert f"{WANG}+" in lines[1] and lines[2].strip().startswith(f"{LI} 182,"), lines


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
def test_the_standings_ratings_stay_in_one_column_after_cjk_names(lang: Lang) -> None:
    """The standings padded a name to 20 characters: 王小明 pushed its rating two
    columns right, a name of 20 CJK characters twenty. The column is as wide as the
    page's widest name, each shown whole (one shortened there could not be typed after
    'finger'), and the line still fits 80 columns."""
    rated = [
        ev.Rated(i, name, "moscow", 2, 21.25, 27.5, 2.08, 4, 3, 1, 0)
        for i, name in enumerate(("anna", "王小明", WANG), 1)
    ]
    top = ev.Top("moscow", 2, tuple(rated), 3)
    lines = top_lines(top) if lang is Lang.EN else render_ru(top)
    rows = lines[1:4]
    rating = "21.2" if lang is Lang.EN else "21,2"
    # the widest on a line of its own, whole (for 'finger'), its rating under the column
    assert lines[3] == f"   3. {WANG}", lines
    rows = [*lines[1:3], lines[4]]
    assert len({cells(row[: row.index(rating)]) for row in rows}) == 1, rows
    assert lines[4].split()[0] == rating, lines
    assert all(cells(line) <= 80 for line in lines), lines
