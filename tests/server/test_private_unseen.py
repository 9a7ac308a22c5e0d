"""Another's private table does not exist to those it does not concern (docs/protocol.md
§5.3): every command that takes a table's number ('sit', with a seat or without,
'observe', 'unobserve', 'rules') answers its number, waiting or playing, as it answers a
number no table has, byte for byte, in the machine style and in English and Russian
words. A hostile tryout learnt from 'sit T' and 'observe T' (`not-invited`) that table T
was there and private. Its own people (seated, invited, watching) and the admins are
answered as before. Real sockets on loopback."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .client import LineClient
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

NONE = 90  # no table has this number (the tests open a few)


def _lines_for(table: str) -> list[str]:
    """Every line that names a table's number, as typed for ``table`` (a number's
    spelling with a leading zero too: said back as typed)."""
    return [
        f"sit {table}",
        f"sit {table} 0",
        f"sit {table} 7",  # a seat out of range: the seats are no one else's to know
        f"observe {table}",
        f"unobserve {table}",
        f"rules {table}",
        f"rules 0{table}",
        f"observe 0{table}",
    ]


async def _answer(client: LineClient, line: str) -> list[str]:
    """What the server answers ``line`` with: its lines up to a 'ping''s answer."""
    await client.send(line)
    await client.send("ping")
    said: list[str] = []
    while True:
        got = await client.read_until(lambda _: True)
        if _pong(got):
            return said
        said.append(got)


async def _answers(client: LineClient, table: str) -> list[list[str]]:
    """``client``'s answers to each line naming ``table``, the number written as
    ``NONE`` (so that a table's answer and no table's compare byte for byte)."""
    answers = []
    for line in _lines_for(table):
        said = await _answer(client, line)
        answers.append([x.replace(table, str(NONE)) for x in said])
    return answers


def _pong(line: str) -> bool:
    return line == "pong" or line.startswith("ok cmd=ping")


async def _settled(client: LineClient) -> LineClient:
    """``client`` with what it was told so far read (a person's greeting)."""
    await client.send("ping")
    await client.read_until(_pong)
    return client


async def test_a_private_table_answers_an_outsider_as_no_table_does(
    start_server: StartServer, connect: Connector, register: Callable[[str, str], Awaitable[None]]
) -> None:
    await register("boss", "secret-pass")
    port = await start_server(admins=["boss"])
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2 private")
    waiting = (await ann.expect("ok", cmd="sit"))["table"]
    cat = await connect.machine(port, "cat")
    dan = await connect.machine(port, "dan")
    await cat.send("new 2 private")
    playing = (await cat.expect("ok", cmd="sit"))["table"]
    await cat.send("invite dan")
    await cat.expect("ok", cmd="invite")
    await dan.send(f"sit {playing}")
    await dan.expect("ok", cmd="sit")
    eve = await connect.machine(port, "eve")
    human = await connect.raw(port, "olga")
    await human.send("login olga")
    await _settled(human)
    russian = await connect.raw(port, "vera")
    await russian.send("login vera lang=ru")
    await _settled(russian)
    for outsider in (eve, human, russian):
        none = await _answers(outsider, str(NONE))
        assert all(none), none  # each answered
        for table in (waiting, playing):
            assert await _answers(outsider, table) == none, (outsider.label, table)
    assert await _answer(eve, f"sit {waiting}") == [
        f"error code=unknown-table text=there is no table {waiting}"
    ]
    assert await _answer(russian, f"observe {playing}") == [
        f"Ошибка (unknown-table): стола {playing} нет"
    ]

    # its own people and the admins are told what they were told
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    await bob.expect("invite")
    await bob.send(f"rules {waiting}")
    assert (await bob.expect("rules"))["text"].startswith(f"Table {waiting}: moscow")
    await bob.send(f"observe {waiting}")
    await bob.expect("ok", cmd="observe")
    await bob.send(f"unobserve {waiting}")
    await bob.expect("ok", cmd="unobserve")
    await bob.send(f"sit {waiting} 5")  # a seat out of range, told as to anyone
    assert (await bob.expect("error"))["code"] == "bad-argument"
    await dan.send(f"observe {playing}")  # his own table
    assert (await dan.expect("error"))["code"] == "already-seated"
    boss = await connect.machine(port, "boss", "secret-pass")
    await boss.send(f"observe {playing}")
    await boss.expect("ok", cmd="observe")
    await boss.send(f"sit {playing}")
    assert await boss.expect("error") == {
        "code": "table-full",
        "text": f"table {playing} is already playing: 'observe {playing}' to watch it",
    }
    await bob.send(f"sit {waiting}")
    await bob.expect("ok", cmd="sit")
