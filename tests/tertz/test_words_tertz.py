"""What people are told at a Tertz table says what Tertz has: no Deberts words for
things the game has not (bides, hanging points, points "written as played")."""

from __future__ import annotations

from deberc_net.game import events as g
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import help_text
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import HUMAN, render
from deberc_net.protocol.render_ru import render_ru

TWO = ("ann", "bob")


def test_help_sheet_says_bides_and_hanging_points_are_deberts() -> None:
    # 'help sheet' is one text wherever it is asked: it names the game they belong to
    (english,) = help_text("sheet")
    assert "in Deberts also the bides and the points left hanging (Tertz has neither)" in english
    russian = " ".join(x.strip() for x in help_text("sheet", lang=Lang.RU))
    assert "в деберце ещё байды и висячие очки (в терце их нет)" in russian


def _deal_end(outcome: str, points: tuple[int, int], written: tuple[int, int]) -> list[str]:
    end = g.DealEnded(1, outcome, points, written, written, 0, {})
    event = ev.TableEvent(9, 1, TWO, end)
    return [
        " ".join(x.strip() for x in told(event)) for told in (lambda e: render(e, HUMAN), render_ru)
    ]


def test_a_tertz_deal_whose_count_was_round_says_so_not_written_as_played() -> None:
    # Tertz writes the counting seat's share rounded and the rest of the 150
    # (docs/rules.md §12.6): the same points mean nothing was rounded
    assert _deal_end("split", (70, 80), (70, 80)) == [
        "Deal 1: split. Points: ann 70, bob 80 (nothing to round). Totals: ann 70, bob 80.",
        "Раздача 1: поделена. Очки: ann 70, bob 80 — округлять нечего. Итого: ann 70, bob 80.",
    ]
    assert _deal_end("split", (67, 83), (70, 80))[0] == (
        "Deal 1: split. Points: ann 67, bob 83. Written: ann 70, bob 80. Totals: ann 70, bob 80."
    )
    # Deberts keeps its words: the player's game made, each writes what he took
    assert "(written as played)" in _deal_end("made", (100, 62), (100, 62))[0]
