"""The score sheet's columns stay in line whatever the names: a name in CJK or an emoji
takes two columns of a terminal a character, a combining accent none; the sheet pads by
columns, not characters (as the terminal client draws names, clients/play)."""

from __future__ import annotations

import re
import unicodedata
from itertools import islice
from pathlib import Path

import pytest

from deberc_net.game.outcomes import Outcome
from deberc_net.game.sheet import SheetRow, record_row
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import RU_OUTCOMES, Lang
from deberc_net.protocol.render import sheet_lines
from deberc_net.selfplay import selfplay
from deberc_net.testing import build_ruleset


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


def number_ends(row: str) -> list[tuple[int, str]]:
    """The numbers of a sheet row's columns (after the deal's number and how it ended,
    before its notes), each with the terminal column it ends at."""
    notes = re.search(r"  (bides|байды|hanging|висит) ", row)
    cut = row[: notes.start()] if notes else row
    return [(cells(cut[: 5 + m.end()]), m.group()) for m in re.finditer(r"-?\d+", cut[5:])]


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
    labels: tuple[str, ...] = names
    if lines[1].startswith("  1 = "):  # too wide with the names: numbered columns
        assert lines[1:3] == [f"  1 = {names[0]}", f"  2 = {names[1]}"]
        labels, lines = ("1", "2"), lines[2:]
    header, rows = lines[1], lines[2:]
    ends = [right_edge(header, label) for label in labels]
    # each side's total ends under its label, and its written points end in one column
    # too, in every row (82 under 0, not '82 143' under '0 109': a club-night tryout)
    numbers = [number_ends(row) for row in rows]
    for row, at, r in zip(rows, numbers, ROWS, strict=True):
        assert [int(n) for _, n in at] == [
            x for p in zip(r.written, r.totals, strict=True) for x in p
        ]
        assert [end for end, _ in at[1::2]] == ends, (header, row)
    assert len({tuple(end for end, _ in at[0::2]) for at in numbers}) == 1, rows
    # how each deal ended starts in one column, after the deal's number
    words = [row[5:].split()[0] for row in rows]
    starts = {cells(row[: row.index(word, 5)]) for row, word in zip(rows, words, strict=True)}
    assert starts == {5}


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
def test_long_names_number_the_columns_and_every_row_fits_80_columns(lang: Lang) -> None:
    """Three players (or two pairs) with long names wrapped each row onto a second,
    unlabelled line (the tryout's): the sides are named once, the columns numbered."""
    names = ("tzman", "house-heuristic-15", "house-heuristic-17")
    three = ev.Sheet(3, names, ((0,), (1,), (2,)), 301, ROWS3)
    lines = sheet_lines(three, lang)
    assert lines[1:4] == ["  1 = tzman", "  2 = house-heuristic-15", "  3 = house-heuristic-17"]
    assert lines[4].split()[-3:] == ["1", "2", "3"]
    assert all(cells(line) <= 80 for line in lines), lines
    # each side's bides by its column's number: '1/0/0' after the last column read as
    # that side's
    assert lines[-1].split()[-9:] == [
        "149",
        "203",
        "байды" if lang is Lang.RU else "bides",
        "#1",
        "1,",
        "#2",
        "0,",
        "#3",
        "0",
    ]
    pairs = ("four4", "house-heuristic-5", "house-heuristic-7", "house-heuristic-9")
    lines = sheet_lines(ev.Sheet(5, pairs, ((0, 2), (1, 3)), 301, ROWS), lang)
    assert lines[1:3] == [
        "  1 = four4+house-heuristic-7",
        "  2 = house-heuristic-5+house-heuristic-9",
    ]
    assert all(cells(line) <= 80 for line in lines), lines
    long = tuple(f"{n}_{'x' * 14}{i}" for i, n in enumerate(("anna", "boris", "cat", "dan")))
    lines = sheet_lines(ev.Sheet(5, long, ((0, 2), (1, 3)), 301, ROWS), lang)
    assert all(cells(line) <= 80 for line in lines), lines  # the review's: 94 columns


def test_names_that_fit_head_their_columns() -> None:
    lines = sheet_lines(ev.Sheet(3, ("anna", "bob", "vera"), ((0,), (1,), (2,)), 301, ROWS3))
    assert lines[1].split()[-3:] == ["anna", "bob", "vera"]


ROWS3 = (
    SheetRow(1, "made", (0, 71, 54), (0, 71, 54), 0, (0, 0, 0)),
    SheetRow(2, "bide", (0, 65, 149), (0, 136, 203), 0, (1, 0, 0)),
)


@pytest.mark.parametrize(("lang", "word"), [(Lang.EN, "bides"), (Lang.RU, "байды")])
def test_the_bides_say_whose_they_are(lang: Lang, word: str) -> None:
    """'2 bide  0 0  67 67  bides 1/0': after the last side's column, its count read as
    that side's; each side's bides are named now."""
    lines = sheet_lines(ev.Sheet(3, ("ann", "bob"), ((0,), (1,)), 301, ROWS), lang)
    assert lines[-1].endswith(
        f"  {word} ann 1, bob 0  {'висит' if lang is Lang.RU else 'hanging'} 81"
    )
    pairs = ev.Sheet(3, ("ann", "bob", "cat", "dan"), ((0, 2), (1, 3)), 301, ROWS)
    assert sheet_lines(pairs, lang)[2].endswith(f"  {word} ann+cat 1, bob+dan 0")


def test_a_total_past_a_thousand_keeps_the_columns_apart() -> None:
    """The club night's Kharkov match to 1001: '107 942' over '80 1022' put 80 under
    the 10 of 107; each number now ends in its own column (a total's four digits kept
    from the first deal of a match to 1001)."""
    rows = (
        SheetRow(10, "made", (105, 107), (918, 942), 0, (2, 2)),
        SheetRow(11, "claim", (25, 80), (943, 1022), 0, (2, 2)),
    )
    names = ("anna", "vasya", "boris", "oksana")
    lines = sheet_lines(ev.Sheet(6, names, ((0, 2), (1, 3)), 1001, rows))
    assert lines[-2:] == [
        "  10 made             105  918      107  942  bides anna+boris 2, vasya+oksana 2",
        "  11 claimed           25  943       80 1022  bides anna+boris 2, vasya+oksana 2",
    ]


MATCH = (  # a match to 301 or more: the totals grow from one digit to three, then four
    SheetRow(1, "made", (8, 154), (8, 154), 0, (0, 0)),
    SheetRow(2, "bide", (0, 62), (8, 216), 0, (1, 0)),
    SheetRow(3, "made", (120, 42), (128, 258), 0, (1, 0)),
    SheetRow(4, "made", (162, 0), (290, 258), 0, (1, 0)),
    SheetRow(5, "made", (240, 30), (530, 288), 0, (1, 0)),
)


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
@pytest.mark.parametrize(("target", "deals"), [(301, 4), (501, 5), (1001, 5)])
@pytest.mark.parametrize("names", [("ann", "bob"), ("王小明", "boris")])
def test_a_later_sheet_lines_up_with_an_earlier_one(
    target: int, deals: int, names: tuple[str, str], lang: Lang
) -> None:
    """The sheet asked for after deal 1, 2, … puts each column's numbers where the sheet
    after the last deal does, though the totals grew from one digit to three (four: 530
    in a match to 501 could be 1030)."""
    sheets = [
        sheet_lines(ev.Sheet(3, names, ((0,), (1,)), target, MATCH[:n]), lang)
        for n in range(1, deals + 1)
    ]
    last = sheets[-1]
    for sheet in sheets:
        assert sheet[:2] == last[:2]  # the title and the header: the names' columns
        for row, later in zip(sheet[2:], last[2:], strict=False):
            assert row == later  # a deal's row as it will stay
            assert [end for end, _ in number_ends(row)] == [end for end, _ in number_ends(later)]


@pytest.mark.parametrize("target", [301, None])
def test_a_sheet_before_any_deal_says_so(target: int | None) -> None:
    lines = sheet_lines(ev.Sheet(3, ("ann", "bob"), ((0,), (1,)), target, ()))
    assert lines[-1] == "   - no deal finished yet"


# three players, long names: the columns fit 80 without a bide, not with one written
LONG3 = ("tzman", "house-heuristic-15", "house-heuristic-17")
MATCH3 = (
    SheetRow(1, "made", (0, 71, 54), (0, 71, 54), 0, (0, 0, 0)),
    SheetRow(2, "hanging", (0, 0, 62), (0, 71, 116), 81, (0, 0, 0)),
    SheetRow(3, "bide", (0, 65, 149), (0, 136, 265), 0, (1, 0, 0)),
    SheetRow(4, "hanging", (0, 0, 62), (0, 136, 327), 162, (1, 0, 0)),
)
# two players whose columns and bides fit 80, not with a hanging deal's points too (in
# both languages: the first column as wide as «ложный конец»)
LONG2 = ("alexandr-m", "house-he15")
MATCH2 = (
    SheetRow(1, "made", (71, 54), (71, 54), 0, (0, 0)),
    SheetRow(2, "bide", (0, 149), (71, 203), 0, (1, 0)),
    SheetRow(3, "hanging", (0, 62), (71, 265), 162, (1, 0)),
    SheetRow(4, "made", (80, 20), (151, 285), 0, (1, 0)),
)


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
@pytest.mark.parametrize(("names", "rows"), [(LONG3, MATCH3), (LONG2, MATCH2)])
def test_a_sheet_keeps_its_layout_through_its_first_bide_and_hanging_deal(
    names: tuple[str, ...], rows: tuple[SheetRow, ...], lang: Lang
) -> None:
    """The sheet after deal 1 named the three long names' columns; the one after the
    first bide numbered them (its notes did not fit 80 columns), so a match's sheet
    changed its shape halfway. The layout is chosen from the names before any deal:
    the sheet after each deal is the one after the last, cut short."""
    sides = tuple((seat,) for seat in range(len(names)))
    sheets = [sheet_lines(ev.Sheet(3, names, sides, 301, rows[:n]), lang) for n in range(1, 5)]
    last = sheets[-1]
    for sheet in sheets:
        assert last[: len(sheet)] == sheet, (sheet, last)
    assert all(cells(line) <= 80 for line in last), last
    # a hanging deal's points that would pass 80 columns stand under its row's bides
    hanging, bides = ("висит", "байды") if lang is Lang.RU else ("hanging", "bides")
    alone = [i for i, line in enumerate(last) if line.lstrip().startswith(hanging)]
    assert alone, last
    for i in alone:
        assert cells(last[i][: last[i].index(hanging)]) == cells(
            last[i - 1][: last[i - 1].index(bides)]
        ), last[i - 1 : i + 1]


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
def test_a_short_games_winner_column_keeps_its_width_whoever_wins(lang: Lang) -> None:
    """'won by' widened at the deal a long name won, so its rows no longer lined up
    with the earlier ones: it is as wide from the first deal, a long name shortened
    in it, each alike."""
    names = ("ann", "alexander-macedonsky")
    stakes = (
        SheetRow(1, "made", (1, 0), (1, 0), 0, (0, 0)),
        SheetRow(2, "made", (0, 1), (1, 1), 0, (0, 0)),
        SheetRow(3, "gave-up", (0, 2), (1, 3), 0, (0, 0)),
    )
    sheets = [
        sheet_lines(ev.Sheet(3, names, ((0,), (1,)), 9, stakes[:n], deal_won_on_points=True), lang)
        for n in range(1, 4)
    ]
    last = sheets[-1]
    for sheet in sheets:
        assert last[: len(sheet)] == sheet, (sheet, last)
    assert [row.split()[1] for row in last[2:]] == ["ann", "alexander~ky", "alexander~ky"]
    assert len({tuple(end for end, _ in number_ends(row)) for row in last[2:]}) == 1, last
    assert all(cells(line) <= 80 for line in last), last


def test_a_real_matchs_sheet_keeps_its_layout_from_deal_1_to_its_end() -> None:
    """A real match of three (seed 'layout', its 6th: deal 1 made, deal 2 the first
    bide), long names: the sheet asked after each deal, as the server builds it from
    the deals' records, is the last one cut short (its columns were renumbered at
    deal 2)."""
    match = next(islice(selfplay(build_ruleset(3, "moscow"), 6, "layout"), 5, None))
    assert [str(r["outcome"]) for r in match.records[:2]] == ["made", "bide"]
    rows = tuple(record_row(r) for r in match.records)
    sides = ((0,), (1,), (2,))
    sheets = [
        sheet_lines(ev.Sheet(3, LONG3, sides, 501, rows[:n])) for n in range(1, len(rows) + 1)
    ]
    last = sheets[-1]
    for sheet in sheets:
        assert last[: len(sheet)] == sheet, (sheet, last)
    assert all(cells(line) <= 80 for line in last), last


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
def test_a_row_too_wide_without_hanging_points_has_no_line_of_spaces_under_it(
    lang: Lang,
) -> None:
    """A row past 80 columns without hanging points (a false claim's word widening the
    first column, its bides near the most the layout counts on) was followed by a line
    of spaces, as if its hanging points stood under its bides: every row had one."""
    rows = (
        SheetRow(1, "bide", (0, 0), (0, 162), 0, (1, 0)),
        SheetRow(2, "false-claim", (0, 0), (0, 162), 0, (9, 9)),
    )
    lines = sheet_lines(ev.Sheet(5, ("aaa", "b" * 15), ((0,), (1,)), 501, rows), lang)
    assert all(line.strip() for line in lines), lines
    assert [line.split()[0] for line in lines[-2:]] == ["1", "2"], lines


# the longest legal names: 20 characters, in Latin letters and in CJK (two columns each)
NAMES20 = tuple(
    f"{n}{'x' * (19 - len(n))}{i}" for i, n in enumerate(("anna", "boris", "cat", "dan"))
)
CJK20 = tuple(ch * 20 for ch in "王李张赵")


def long_match(count: int, end: str) -> tuple[SheetRow, ...]:
    """A match of ``count`` sides to 1001 over 34 deals: a bide each deal but one,
    by each side in turn (so each has ten and more), a hanging deal, then ``end`` (an
    outcome that ends it: nothing written, the totals as they stood)."""
    rows: list[SheetRow] = []
    totals, bides = [0] * count, [0] * count
    for deal in range(1, 34):
        hanging = 162 if deal == 15 else 0
        bider = deal % count
        if deal != 15:
            bides[bider] += 1
        written = tuple(0 if s == bider else 20 + s for s in range(count))
        totals = [t + w for t, w in zip(totals, written, strict=True)]
        rows.append(
            SheetRow(
                deal,
                "hanging" if hanging else "bide",
                written,
                tuple(totals),
                hanging,
                tuple(bides),
            )
        )
    zero = (0,) * count
    return (*rows, SheetRow(34, end, zero, tuple(totals), 0, tuple(bides)))


def rows_of(sheet: list[str]) -> list[str]:
    """A sheet's deal rows (not its title, its sides named, its header nor a note's line)."""
    header = next(i for i, line in enumerate(sheet) if line.startswith(("deal ", "разд. ")))
    return [line for line in sheet[header + 1 :] if re.match(r" *\d+ \S", line)]


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
@pytest.mark.parametrize("end", ["false-claim", "timeouts", "away", "left", "claim"])
@pytest.mark.parametrize(
    ("names", "sides"),
    [
        (NAMES20[:2], ((0,), (1,))),
        (NAMES20[:3], ((0,), (1,), (2,))),
        (NAMES20, ((0, 2), (1, 3))),
        (CJK20[:2], ((0,), (1,))),
        (CJK20[:3], ((0,), (1,), (2,))),
        (CJK20, ((0, 2), (1, 3))),
        (("ann", "bob"), ((0,), (1,))),
        (("anna", "bob", "vera"), ((0,), (1,), (2,))),
        (("anna", "vasya", "boris", "oksana"), ((0, 2), (1, 3))),
        (("aaa", "b" * 15), ((0,), (1,))),  # the review's: a 10th bide, 82 columns
        (("alexandr10", "house-heu11"), ((0,), (1,))),  # named, a 10th bide past 80
    ],
)
def test_a_matchs_sheet_keeps_its_layout_and_80_columns_to_its_last_row(
    names: tuple[str, ...], sides: tuple[tuple[int, ...], ...], end: str, lang: Lang
) -> None:
    """The match's last row ('false-claim', «ложный конец», «время вышло», «нет связи»)
    widened the first column at that row only (81 to 83 columns, wrapped), and a side's
    10th bide added a column to every row after it: the sheet asked after each deal is
    the last one cut short, every line in 80 columns, every row's numbers where the
    first row's are."""
    rows = long_match(len(sides), end)
    sheets = [
        sheet_lines(ev.Sheet(7, names, sides, 1001, rows[:n]), lang)
        for n in range(1, len(rows) + 1)
    ]
    last = sheets[-1]
    for sheet in sheets:
        assert last[: len(sheet)] == sheet, (sheet, last)
    assert all(cells(line) <= 80 for line in last), [line for line in last if cells(line) > 80]
    deals = rows_of(last)
    assert len(deals) == len(rows)
    assert len({tuple(end for end, _ in number_ends(row)) for row in deals}) == 1, deals
    assert all(row[4] == " " != row[5] for row in deals), deals  # each word at column 5
    # the last deal's bides, ten and more a side, told on its row or on a line under it
    at = last.index(deals[-1])
    notes = " ".join(last[at : at + 2]).split("  bides " if lang is Lang.EN else "  байды ")[-1]
    notes = notes.lstrip().removeprefix("bides ").removeprefix("байды ")
    told = re.findall(r"(?:^|, )\S+ (\d+)", notes)
    assert [int(n) for n in told] == list(rows[-1].bides), (notes, last[at : at + 2])
    assert min(rows[-1].bides) >= 10


@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
def test_a_plugins_long_outcome_word_is_shortened_not_widening_the_column(lang: Lang) -> None:
    """A rule plugin's own outcome word, unknown to the sheet, is cut to the first
    column (its head, '~', its last two columns): the columns stay where they were."""
    rows = (
        SheetRow(1, "made", (62, 100), (62, 100), 0, (0, 0)),
        SheetRow(2, "redeal-by-request-of-the-house", (0, 0), (62, 100), 0, (0, 0)),
    )
    lines = sheet_lines(ev.Sheet(3, ("ann", "bob"), ((0,), (1,)), 301, rows), lang)
    word = lines[-1].split()[1]
    assert word.startswith("redeal") and word.endswith("~se"), lines
    assert [end for end, _ in number_ends(lines[-1])] == [
        end for end, _ in number_ends(lines[-2])
    ], lines
    assert all(cells(line) <= 80 for line in lines), lines


def test_the_docs_name_each_languages_widest_outcome_word() -> None:
    """docs/protocol.md said the Russian first column was as wide as «по предложению»
    after poltinniki's offer became «без игры» (the widest is «ложный конец»)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    english = max(Outcome, key=lambda o: len(o.value)).value
    russian = max((RU_OUTCOMES.get(o, o.value) for o in Outcome), key=len)
    assert f"outcome word of the sheet's language (`{english}`; in Russian «{russian}»)" in (
        " ".join(doc.split())
    )
