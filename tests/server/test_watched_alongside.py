"""A person who watches a table while he sits at another, or watches two, hears each
line of the watched one after ``[table N]`` (``[стол N]``), its view on 'observe' too;
one who only watches that table hears it as before (docs/protocol.md §5.7). A tryout
(s44): a seated player watching a second table read its 'Ход игрока eva.' as his own
table's, and the clock played his card."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest
import trio

from .client import LineClient, play_machine, seat_pair, second_deal_first_trick
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


async def _until_pong(person: LineClient) -> list[str]:
    """What ``person`` was told from his last read up to the answer to a ping sent now."""
    await person.send("ping")
    out = []
    while (line := await person.read_until(lambda _: True)) != "pong":
        out.append(line)
    return out


def _words(lines: list[str], tag: str = "") -> list[str]:
    """The words of ``lines``, each line's ``tag`` left out, but for who came to watch
    (news of the others' 'observe', told as it crosses the ping): what the table's
    play says, however wrapped."""
    return " ".join(x.removeprefix(tag) for x in lines if "watches the table" not in x).split()


@pytest.mark.timeout(60)
async def test_a_table_watched_alongside_another_names_itself_on_each_line(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server()
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    with trio.fail_after(40):
        cat = await connect.human(port, "cat")  # seated at a table of his own
        await cat.send("new 2")
        sat = await cat.read_until(lambda x: x.startswith("You sit at table"))
        own = int(sat.split()[4].rstrip(","))
        vera = await connect.human(port, "vera")  # in Russian, watching two tables
        await vera.send("lang ru")
        await vera.read_until(lambda x: x.startswith("Язык"))
        await vera.send(f"observe {own}")
        await vera.read_until(lambda x: x.startswith(f"Стол {own} ждёт"))
        eve = await connect.human(port, "eve")  # watching this one table only
        for person in (cat, vera, eve):
            await _until_pong(person)
            await person.send(f"observe {table}")
        tag, tag_ru = f"[table {table}] ", f"[стол {table}] "
        views = [await _until_pong(person) for person in (cat, vera, eve)]
        async with trio.open_nursery() as nursery:  # a deal and a trick of the next
            nursery.start_soon(play_machine, ann, random.Random(1), second_deal_first_trick())
            nursery.start_soon(play_machine, bob, random.Random(2), second_deal_first_trick())
        told = [await _until_pong(person) for person in (cat, vera, eve)]
    (cat_view, vera_view, eve_view), (cat_told, vera_told, eve_told) = views, told
    assert cat_view[0] == f"You observe table {table}.", cat_view
    assert eve_view[0] == f"You observe table {table}.", eve_view
    named = (f"Table {table}, deal ", f"Стол {table}, раздача ")
    for lines, mark in ((cat_view[1:] + cat_told, tag), (vera_view[1:] + vera_told, tag_ru)):
        # every line of the watched table says so (a wrapped one goes on indented), by
        # the tag or, one that opens naming the table already, by that name alone (a
        # tryout, s44: '[стол 6] Стол 6, раздача 1')
        assert all(x.startswith((mark, "  ", *named)) for x in lines), lines
        assert any(x.startswith(named) for x in lines), lines
        assert not any(x.startswith(mark + named[0]) or mark + named[1] in x for x in lines)
        assert any(" plays " in x or " ходит " in x for x in lines), lines
    # what they are told is the same story, said as before to one who only watches it
    assert not any(x.startswith("[table") for x in eve_view + eve_told), eve_told
    assert _words(cat_told, tag) == _words(eve_told)
    # a chat line names its table already: not twice
    await ann.send("say hello")
    said = await cat.read_until(lambda x: "hello" in x)
    assert said == f"[table {table}] ann says: hello", said
