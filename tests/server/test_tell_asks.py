"""'style machine tell=asks' (docs/protocol.md §4.3): a bot told only its asks, the
match's end and the replies to what it sends, over TCP; the asks say what they say in
the normal mode; a bad value is refused and changes nothing."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import trio

from .client import LineClient, fields, is_event
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]
TELL_USAGE = "error code=bad-argument text=style machine tell=all|asks"


async def _play_last_legal(client: LineClient, *, probe: bool = False) -> list[str]:
    """Answer every ask with its last legal call (an order, not a pass) until the match
    ends; every line read but the errors ``probe`` asks for before answering each ask:
    a call that is none, and a stale one."""
    seen: list[str] = []
    while True:
        line = await client.read_until(lambda _: True, timeout=20)
        seen.append(line)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if is_event(line, "match-end"):
            return seen
        if tag == "ask":
            if probe:  # told only its asks, a bot still gets the error for a bad call
                for bad, code in (("frobnicate", "unknown-command"), ("pas seq=0", "stale")):
                    error = await client.reply(f"{bad} seq={f['seq']}" if " " not in bad else bad)
                    assert fields(error)[1]["code"] == code, error
            await client.send(f"{f['legal'].split(',')[-1]} seq={f['seq']}")


def _asks(lines: list[str]) -> list[str]:
    """The asks, less their table number (the two boards' tables differ)."""
    return [re.sub(r" table=\d+ ", " ", line) for line in lines if line.startswith("ask ")]


async def test_a_whole_match_told_only_the_asks_asks_the_same_as_told_everything(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    everything = [await connect.machine(port, n) for n in ("pa", "pb")]
    quiet = [await connect.machine(port, n) for n in ("qa", "qb")]
    for client in quiet:
        ok = await client.reply("style machine tell=asks", "ok")
        assert ok == "ok cmd=style style=machine tell=asks text=Style machine."
        # a bad value afterwards changes nothing: still told only the asks
        assert await client.reply("style machine tell=nothing") == TELL_USAGE
    for client in (*everything, *quiet):
        await client.send("seek reserved")
        await client.expect("ok", cmd="seek")
    # the same seed, seats and calls on both tables: the same two deals
    for seats in ("pa,pb", "qa,qb"):
        await boss.send(f"reserve 2 moscow seats={seats} seed=same deals=2")
        await boss.expect("ok", cmd="reserve")
    for client in (*everything, *quiet):
        await client.expect("ok", cmd="sit")

    seen: dict[str, list[str]] = {}

    async def play(client: LineClient) -> None:
        seen[client.label] = await _play_last_legal(client, probe=client in quiet)

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for client in (*everything, *quiet):
                nursery.start_soon(play, client)

    for told, quietly in zip(everything, quiet, strict=True):
        loud, hushed = seen[told.label], seen[quietly.label]
        assert _asks(hushed) == _asks(loud) and len(_asks(loud)) >= 8
        # the other seat's told every event, its state at each deal, the records
        assert any(is_event(line, "play") for line in loud)
        assert any(line.startswith("record ") for line in loud)
        assert any(line.startswith("state ") for line in loud)
        # told only its asks: no other event, no record, no state it did not ask for
        others = [line for line in hushed if not line.startswith("ask ")]
        assert len(others) == 1 and is_event(others[0], "match-end")
        loud_end = next(line for line in loud if is_event(line, "match-end"))
        # the same end, but for its seq (fewer events), table and the winner's name
        assert re.sub(r"seq=\d+ table=\d+ ", "", others[0]) == re.sub(
            r"seq=\d+ table=\d+ ", "", loud_end.replace("name=p", "name=q")
        )


async def test_bad_tell_values_are_refused_and_change_nothing(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server()
    person = await connect.raw(port, "person")
    for line in (
        "style machine tell=nothing",
        "style human tell=asks",  # only the machine style has asks of its own
        "style tell=asks",
        "style machine tell=asks tell=all",
        "style machine tell=",
    ):
        await person.send(line)
        # refused in the style it has: still the human one
        said = await person.read_until(lambda _: True)
        assert said == "Error (bad-argument): style machine tell=all|asks"
    bot = await connect.machine(port, "bot")
    assert await bot.reply("style machine tell=asks", "ok") == (
        "ok cmd=style style=machine tell=asks text=Style machine."
    )
    for line in ("style human tell=asks", "style machine tell=ALL!", "style machine tell=some"):
        assert await bot.reply(line) == TELL_USAGE
    assert await bot.reply("ping") == "ok cmd=ping text=pong"  # still the machine style
    # the style without tell= is told every line again, its reply as it always was
    assert await bot.reply("style machine") == "ok cmd=style style=machine text=Style machine."
    assert await bot.reply("style machine tell=all") == (
        "ok cmd=style style=machine tell=all text=Style machine."
    )
