"""A void deal's end told to people over a real socket (docs/protocol.md §9.2): the
Russian said «пересдача» (the deal is dealt again), the English only `void`; both say
now that it is dealt again. The program's `deal-end` line is as it was
(`outcome=void`: fields are only appended, §1)."""

from __future__ import annotations

from .client import LineClient, fields, is_event, next_ask, seat_pair
from .conftest import Connector


async def test_a_void_deal_is_said_to_be_dealt_again_in_either_language(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    olga = await connect.human(port, "olga")  # people who watch: told the human style
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x == "Язык: русский.")
    for watcher in (olga, vera):
        await watcher.send(f"observe {table}")
        await watcher.read_until(lambda x: x.startswith(("You observe", "Вы смотрите")))
    for _ in range(4):  # both pass in both rounds: the first deal is void (all passed)
        found = await next_ask(ann, bob)
        assert found is not None
        ask, who = found
        assert ask["phase"] == "bidding" and "pas" in ask["legal"].split(","), ask
        await who.send("pas")
    end = fields(await ann.read_until(lambda x: is_event(x, "deal-end")))[1]
    assert (end["deal"], end["outcome"]) == ("1", "void"), end
    said = await _said(olga, "Deal 1:")
    assert said.startswith("Deal 1: void (all passed): dealt again, nothing is written."), said
    said = await _said(vera, "Раздача 1:")
    assert said.startswith("Раздача 1: пересдача (все спасовали): ничего не записано."), said


async def _said(person: LineClient, first: str) -> str:
    """A person's line that starts with ``first``, with its wrapped rest (to 'Totals:')."""
    said = await person.read_until(lambda x: x.startswith(first))
    while "Totals:" not in said and "Итого:" not in said:
        said += " " + (await person.read_until(lambda _: True)).strip()
    return said


async def test_a_void_deal_reads_redealt_in_sheet_and_history(
    port: int, connect: Connector
) -> None:
    """'sheet' and 'history' said a void deal's outcome by its code, `void`, where the
    Russian says «пересдача» and the deal's end line 'dealt again' (a leftover, s44):
    a person reads `redealt` there now; the machine lines keep `outcome=void`."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    olga = await connect.human(port, "olga")
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x == "Язык: русский.")
    for watcher in (olga, vera):
        await watcher.send(f"observe {table}")
        await watcher.read_until(lambda x: x.startswith(("You observe", "Вы смотрите")))
    for _ in range(4):  # both pass in both rounds: the first deal is void (all passed)
        found = await next_ask(ann, bob)
        assert found is not None
        await found[1].send("pas")
    await ann.read_until(lambda x: is_event(x, "deal-end"))
    for watcher, first in ((olga, "Deal 1:"), (vera, "Раздача 1:")):
        await _said(watcher, first)
    await olga.send("sheet")
    row = await olga.read_until(lambda x: x.startswith("   1 "))
    assert row.split()[:2] == ["1", "redealt"], row
    await vera.send("sheet")
    row = await vera.read_until(lambda x: x.startswith("   1 "))
    assert row.split()[:2] == ["1", "пересдача"], row
    await olga.send("history")
    deal = await olga.read_until(lambda x: x.startswith("Deal 1"))
    assert "redealt" in deal and "void" not in deal, deal
    await ann.send("sheet")
    sheet_deal = await ann.read_until(lambda x: x.startswith("sheet-deal "))
    assert fields(sheet_deal)[1]["outcome"] == "void", sheet_deal
    await ann.send("history")
    history_deal = await ann.read_until(lambda x: x.startswith("history-deal "))
    assert fields(history_deal)[1]["outcome"] == "void", history_deal
