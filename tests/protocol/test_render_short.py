"""The short games without a bide (docs/rules.md §11: `short`, `dave`) told to people:
who ordered does not matter there, so a deal's end, the score sheet and the history
name the deal's winner, not `made`/`bide`; `short-bide` keeps its bide, and the machine
style's `outcome` stays as it was (docs/protocol.md §1). Real matches (selfplay)."""

from __future__ import annotations

from typing import Any

import pytest

from deberc_net.game import events as g
from deberc_net.game.sheet import record_row
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import HUMAN, MACHINE, history_lines, render, sheet_lines
from deberc_net.protocol.render_ru import render_ru
from deberc_net.selfplay import selfplay
from deberc_net.server.table_views import history_deal
from deberc_net.testing import build_ruleset

NAMES = ("anna", "boris", "vera")
BY_THE_ORDER = ("made", "bide")


def _played(players: int, options: tuple[str, ...]) -> list[dict[str, object]]:
    """Every deal of a few real matches that ended as made or bide (random players
    mostly give up to a dave: more matches of it)."""
    rules = build_ruleset(players, "moscow", options)
    games = 40 if options == ("dave",) else 12
    return [
        r
        for m in selfplay(rules, games, f"short-{players}-{'-'.join(options)}")
        for r in m.records
        if r["outcome"] in BY_THE_ORDER
    ]


def _end(record: dict[str, Any]) -> g.DealEnded:
    def ints(key: str) -> tuple[int, ...]:
        return tuple(record[key])

    deal = record["deal_no"]
    assert isinstance(deal, int)
    return g.DealEnded(
        deal, str(record["outcome"]), ints("points"), ints("written"), ints("totals"), 0, {}
    )


def _most_points(record: dict[str, object]) -> int:
    """The deal's winner as §11 says it, from its points: more points wins (a tie: the
    taker of the last trick, which these few deals need not meet)."""
    points: list[int] = record["points"]  # type: ignore[assignment]
    return points.index(max(points))


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, ("short",)), (3, ("short",)), (2, ("dave",)), (2, ("dave", "to-9-stakes"))],
)
def test_a_deal_of_a_short_game_without_a_bide_is_told_by_its_winner(
    players: int, options: tuple[str, ...]
) -> None:
    rules = build_ruleset(players, "moscow", options)
    assert rules.settings.deal_won_on_points
    names, sides = NAMES[:players], rules.settings.sides()
    records = _played(players, options)
    assert {r["outcome"] for r in records} == {"made", "bide"}  # both met, who ordered aside
    for record in records:
        points: list[int] = record["points"]  # type: ignore[assignment]
        if points.count(max(points)) > 1:
            continue  # a tie: the last trick decides (not what this test checks)
        winner, end = names[_most_points(record)], _end(record)
        told = ev.TableEvent(9, 4, names, end, sides, deal_won_on_points=True)
        said = " ".join(x.strip() for x in render(told, HUMAN))
        assert said.startswith(f"Deal {end.deal}: won by {winner}. Points: "), said
        ru = " ".join(x.strip() for x in render_ru(told))
        assert ru.startswith(f"Раздача {end.deal}: победитель — {winner}. Очки: "), ru
        plain = ev.TableEvent(9, 4, names, end, sides)  # the machine style: as ever
        assert render(told, MACHINE) == render(plain, MACHINE)
        assert f" outcome={end.outcome} " in render(told, MACHINE)[0]


def test_the_sheet_and_the_history_of_a_short_game_name_each_deals_winner() -> None:
    rules = build_ruleset(2, "moscow", ("dave", "to-9-stakes"))
    names, sides = NAMES[:2], rules.settings.sides()
    records = [r for r in next(iter(selfplay(rules, 1, "sheet-9"))).records]
    decided = [r for r in records if r["outcome"] in BY_THE_ORDER]
    assert decided, "no deal played out to its end"
    rows = tuple(record_row(r) for r in records)
    sheet = ev.Sheet(4, names, sides, 9, rows, deal_won_on_points=True)
    history = ev.History(4, "m1", names, sides, tuple(map(history_deal, records)), True)
    for lang, stakes, header, won in (
        (Lang.EN, "each side's stakes", "deal won by", "won by"),
        (Lang.RU, "ставки каждой стороны", "разд. победитель", "победитель —"),
    ):
        lines = sheet_lines(sheet, lang)
        assert stakes in lines[0], lines[0]  # it counts stakes, not points (§11)
        assert lines[1].startswith(header)
        told = history_lines(history, lang)
        for record in decided:
            winner = names[_most_points(record)]
            row = next(x for x in lines[2:] if x.split()[0] == str(record["deal_no"]))
            assert row.split()[1] == winner, row
            assert not {"made", "bide", "bides", "сыграна", "байд", "байды"} & set(row.split())
            deal = next(x for x in told if x.split(",")[0].split()[-1] == str(record["deal_no"]))
            assert f": {won} {winner}, " in deal, deal


def test_short_bide_keeps_its_bide_and_a_normal_match_its_words() -> None:
    for options in (("short-bide",), ()):
        rules = build_ruleset(2, "moscow", options)
        assert not rules.settings.deal_won_on_points
    record = _played(2, ("short-bide",))[0]
    end = _end(record)
    told = ev.TableEvent(9, 4, NAMES[:2], end, ((0,), (1,)))
    assert render(told, HUMAN)[0].startswith(f"Deal {end.deal}: {end.outcome}. ")


def test_a_deal_given_up_to_a_dave_names_its_winner_too() -> None:
    """A dave declined (`sdayus`) ends the deal: the one who said dave wins its stake
    (docs/rules.md §11), so under 'deal won by' it is he who is named, with how the deal
    ended (it said only 'gave-up', under a header asking who won)."""
    rules = build_ruleset(2, "moscow", ("dave", "to-9-stakes"))
    names, sides = NAMES[:2], rules.settings.sides()
    records = list(next(iter(selfplay(rules, 1, "sheet-9"))).records)
    given_up = [r for r in records if r["outcome"] == "gave-up"]
    assert given_up, "no dave declined in this match"
    rows = tuple(record_row(r) for r in records)
    sheet = ev.Sheet(4, names, sides, 9, rows, deal_won_on_points=True)
    history = ev.History(4, "m1", names, sides, tuple(map(history_deal, records)), True)
    for lang, won, how in ((Lang.EN, "won by", "gave-up"), (Lang.RU, "победитель —", "отказ")):
        lines, told = sheet_lines(sheet, lang), history_lines(history, lang)
        for record in given_up:
            written: list[int] = record["written"]
            winner = names[written.index(max(written))]  # the stake he won
            row = next(x for x in lines[2:] if x.split()[0] == str(record["deal_no"]))
            assert row.split()[1:3] == [winner, f"({how})"], row
            deal = next(x for x in told if x.split(",")[0].split()[-1] == str(record["deal_no"]))
            assert f": {won} {winner} ({how}), " in deal, deal
            event = ev.TableEvent(9, 4, names, _end(record), sides, deal_won_on_points=True)
            said = render(event, HUMAN)[0] if lang == Lang.EN else render_ru(event)[0]
            assert f": {won} {winner} ({how}). " in said, said


def test_equal_points_are_told_by_the_stake_won_not_by_the_points() -> None:
    """Three at 60/60/42 (the last trick to the second, who so won the deal: §11): the
    deal's winner is the one who wrote the stakes, whatever the points say."""
    end = g.DealEnded(1, "bide", (60, 60, 42), (-1, 2, -1), (-1, 2, -1), 0, {})
    told = ev.TableEvent(9, 4, NAMES, end, ((0,), (1,), (2,)), deal_won_on_points=True)
    assert render(told, HUMAN)[0].startswith("Deal 1: won by boris. Points: "), render(told, HUMAN)
