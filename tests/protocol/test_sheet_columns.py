"""The score sheet's columns stay in line whatever the names: a name in CJK or an emoji
takes two columns of a terminal a character, a combining accent none; the sheet pads by
columns, not characters (as the terminal client draws names, clients/play)."""

from __future__ import annotations

import unicodedata

import pytest

from deberc_net.game.sheet import SheetRow
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import sheet_lines


def cells(text: str) -> int:
    """A terminal's columns, counted here on their own (East Asian width)."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def right_edge(line: str, part: str) -> int:
    """The column ``part`` ends at in ``line`` (its last occurrence)."""
    at = line.rindex(part)
    return cells(line[: at + len(part)])


ROWS = (
    SheetRow(1, "bide", (0, 109), (0, 109), 0, (1, 0)),
    SheetRow(2, "false-claim", (82, 34), (82, 143), 0, (1, 0)),
    SheetRow(3, "hanging", (0, 81), (82, 224), 81, (1, 0)),
)


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
@pytest.mark.parametrize(
    "names",
    [
        ("王小明", "boris"),  # CJK: two columns a character
        ("🐻🐻🐻🐻🐻🐻🐻🐻🐻🐻", "anna"),  # emoji, a name wider than the cells
        ("Jose\u0301", "Zoe\u0308"),  # a combining accent: no column of its own
        ("ann", "bob"),
    ],
)
def test_the_sheets_columns_line_up_by_terminal_columns(names: tuple[str, str], lang: Lang) -> None:
    lines = sheet_lines(ev.Sheet(3, names, ((0,), (1,)), 301, ROWS), lang)
    header, rows = lines[1], lines[2:]
    ends = [right_edge(header, name) for name in names]
    for row, r in zip(rows, ROWS, strict=True):
        cells_at = [right_edge(row, f"{w} {t}") for w, t in zip(r.written, r.totals, strict=True)]
        assert cells_at == ends, (header, row)
    # how each deal ended starts in one column, after the deal's number
    words = [row[5:].split()[0] for row in rows]
    starts = {cells(row[: row.index(word, 5)]) for row, word in zip(rows, words, strict=True)}
    assert starts == {5}
