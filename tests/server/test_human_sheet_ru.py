"""The Russian score sheet ('sheet', lang=ru) of a real match with a hanging bide, and
docs/play.ru.md's example of it (sans-IO: the rows as the server builds them from the
deals' records, club.py's last sheet; rendered by the human style's own code)."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from deberc_net.game.sheet import SheetRow, record_row
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import sheet_lines
from deberc_net.selfplay import selfplay
from deberc_net.testing import build_ruleset

PLAY_RU = Path(__file__).resolve().parents[2] / "docs" / "play.ru.md"


def test_a_hanging_bide_writes_the_whistlers_points_and_nothing_for_the_player() -> None:
    """docs/rules.md §5: "Hanging bide: equal: the player writes nothing, the whistler
    his own". A real match (seed 'sheet', its 7th: deal 4 hangs, boris ordered)."""
    match = next(islice(selfplay(build_ruleset(2, "moscow"), 7, "sheet"), 6, None))
    record = next(r for r in match.records if r["outcome"] == "hanging")
    player, points = record["player"], record["points"]
    assert record["written"][player] == 0 and record["written"][1 - player] == points[1 - player]
    rows = tuple(record_row(r) for r in match.records[: record["deal_no"]])
    lines = sheet_lines(ev.Sheet(1, ("anna", "boris"), ((0,), (1,)), 301, rows), Lang.RU)
    assert lines[-1] == "   4 висит            47  52      0 291  байды anna 2, boris 0  висит 47"


def test_the_russian_pages_sheet_is_the_servers_own() -> None:
    """docs/play.ru.md's example: anna bides, makes, then hangs 81 : 81 (she ordered):
    the whistler boris writes his 81 (the page had 0 for him: tryout s16, finding 6).
    Numbers a deal can make: a bide's whistler writes both sides' 162 card points and
    boris's terts, 182; a made deal's two sides make 162 (the page had 109 and 116)."""
    rows = (
        SheetRow(1, "bide", (0, 182), (0, 182), 0, (1, 0)),
        SheetRow(2, "made", (142, 20), (142, 202), 0, (1, 0)),
        SheetRow(3, "hanging", (0, 81), (142, 283), 81, (1, 0)),
    )
    lines = sheet_lines(ev.Sheet(1, ("anna", "boris"), ((0,), (1,)), 301, rows), Lang.RU)
    page = PLAY_RU.read_text(encoding="utf-8").splitlines()
    start = page.index(lines[0])
    assert page[start : start + len(lines)] == lines
