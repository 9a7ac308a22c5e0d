"""A 'tables' row in the human style fits an 80-column terminal: a long one wraps
between seats (or sides), never inside one, so 'borya (нет связи) 0' stays whole and a
score stays by its name; a continuation line is indented (a Russian club evening)."""

from __future__ import annotations

import pytest

from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, columns, render
from deberc_net.protocol.render_ru import render_ru

# four names of 20 characters, the longest a name may be
NAMES = (
    "borya_the_long_name1",
    "anna_konstantinovna2",
    "vera_petrovna_smirn3",
    "misha_odessa_pleyer4",
)
AWAY = {"en": " (away)", "ru": " (нет связи)"}
# and in CJK, two columns of a terminal a character
WIDE = tuple(ch * 20 for ch in "王李张刘")


def _rows(lang: str, table: ev.TableInfo) -> list[str]:
    tables = ev.Tables((table,), 1)
    return render(tables, HUMAN) if lang == "en" else render_ru(tables)


def _table(players: int, away: int, playing: bool, names: tuple[str, ...] = NAMES) -> ev.TableInfo:
    sides = 2 if players == 4 else players
    return ev.TableInfo(
        12, players, "moscow", ("to-501",), names[:players],
        ev.TableState.PLAYING if playing else ev.TableState.WAITING, 3,
        deal=7 if playing else None,
        score=tuple(100 * side + 5 for side in range(sides)) if playing else (),
        away=(away,),
    )  # fmt: skip


def _checked(rows: list[str]) -> str:
    """The rows' text as one line, after checking their layout."""
    assert all(columns(row) <= 80 for row in rows), rows
    assert all(row.startswith("  ") and not row.startswith("   ") for row in rows[1:]), rows
    assert not rows[0].startswith(" ")
    return " ".join(row.strip() for row in rows)


@pytest.mark.parametrize("names", [NAMES, WIDE])
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("playing", [False, True])
def test_a_row_of_long_names_wraps_between_seats(
    lang: str, players: int, playing: bool, names: tuple[str, ...]
) -> None:
    for away in range(players):
        rows = _rows(lang, _table(players, away, playing, names))
        _checked(rows)
        entries = [
            name + (AWAY[lang] if seat == away else "") + (f" {100 * seat + 5}" if playing else "")
            for seat, name in enumerate(names[:players])
        ]
        for entry in entries:  # each seat's words whole on one line
            assert any(entry in row for row in rows), (entry, rows)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("playing", [False, True])
def test_a_row_of_four_wraps_between_seats_or_pairs(lang: str, playing: bool) -> None:
    for away in range(4):
        rows = _rows(lang, _table(4, away, playing))
        _checked(rows)
        if playing:  # by pair, partners opposite; who is away named after the scores
            entries = [f"{NAMES[0]}+{NAMES[2]} 5", f"{NAMES[1]}+{NAMES[3]} 105"]
            gone = "away" if lang == "en" else "нет связи"
            entries.append(f"({gone}: {NAMES[away]})")
        else:
            entries = [n + (AWAY[lang] if seat == away else "") for seat, n in enumerate(NAMES)]
        for entry in entries:
            assert any(entry in row for row in rows), (entry, rows)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_short_row_stays_one_line(lang: str) -> None:
    table = ev.TableInfo(
        3, 2, "moscow", (), ("borya", "gleb"), ev.TableState.PLAYING, 0,
        deal=4, score=(0, 12), away=(0,),
    )  # fmt: skip
    rows = _rows(lang, table)
    assert len(rows) == 1
    assert rows[0].endswith(f"borya{AWAY[lang]} 0, gleb 12")
