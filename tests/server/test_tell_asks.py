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
        # the same end, but for its seq (fewer events), table, the winner's name and
        # the match's id (another match)
        assert re.sub(r"seq=\d+ table=\d+ | match=\w+", "", others[0]) == re.sub(
            r"seq=\d+ table=\d+ | match=\w+", "", loud_end.replace("name=p", "name=q")
        )
        assert " match=" in others[0]


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


def _event_seqs(lines: list[str]) -> list[int]:
    return [int(fields(line)[1]["seq"]) for line in lines if line.startswith("event ")]


async def test_told_only_its_asks_beside_a_seat_and_watchers_told_everything(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """One seat told only its asks (qa), one told every line (pb), the admin watching
    every line and a watcher told only its asks: each is told what it asked for, and
    those told every line miss no event; qa, back after a drop and told only its asks
    again, gets its seat's view (docs/protocol.md §12) and not the table's events."""
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    qa, pb, hush = [await connect.machine(port, n) for n in ("qa", "pb", "hush")]
    for client in (qa, hush):
        await client.reply("style machine tell=asks", "ok")
    await boss.send("reserve 2 moscow seats=qa,pb seed=mixed deals=2")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    await hush.reply(f"observe {table}", "ok")
    for client in (qa, pb):
        await client.send("seek reserved")
        await client.expect("ok", cmd="sit")

    # the deal dealt, qa drops and logs in again told only its asks
    await _first_ask([qa, pb])
    await qa.aclose()
    assert (await boss.expect("event", kind="away"))["name"] == "qa"
    again = await connect.raw(port, "qa-again")
    for line in ("style machine", "style machine tell=asks", f"login qa token={qa.token}"):
        await again.send(line)
    await again.expect("ok", cmd="login")
    view = await again.read_until(lambda _: True)
    assert view.startswith(("ask ", "state ")), view  # its view, not the 'back' event
    assert (await boss.expect("event", kind="back"))["name"] == "qa"
    again.pos -= 1  # the view may be an ask: played below with the rest

    seen: dict[str, list[str]] = {}

    async def play(client: LineClient) -> None:
        seen[client.label] = await _play_last_legal(client)

    async def watch(client: LineClient) -> None:
        lines = [await client.read_until(lambda _: True, timeout=20)]
        while not is_event(lines[-1], "match-end"):
            lines.append(await client.read_until(lambda _: True, timeout=20))
        seen[client.label] = lines

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, again)
            nursery.start_soon(play, pb)
            nursery.start_soon(watch, boss)
            nursery.start_soon(watch, hush)

    end = seen["pb"][-1]
    # those told every line: every event up to the end, none missed
    for label in ("pb", "boss"):
        numbers = _event_seqs(seen[label])
        assert numbers == list(range(numbers[0], numbers[-1] + 1)), label
        assert seen[label][-1] == end
    assert any(line.startswith("record ") for line in seen["boss"])
    assert any(line.startswith(("record ", "state ")) for line in seen["pb"])
    # those told only their asks: the asks, and the same end
    assert [line for line in seen["qa-again"] if not line.startswith("ask ")] == [end]
    assert [line for line in seen["hush"] if not line.startswith("info ")] == [end]


async def test_a_watcher_who_comes_mid_deal_to_seats_told_only_their_asks_misses_no_number(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """Two seats told only their asks and an admin told only the ends: the events of the
    deal's start are numbered but built for nobody. A watcher who comes then is told the
    seq they reached, then every event, none missed, to the same end as the seats."""
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    seats = [await connect.machine(port, n) for n in ("qa", "qb")]
    for client in seats:
        await client.reply("style machine tell=asks", "ok")
    await boss.send("reserve 2 moscow seats=qa,qb seed=late deals=1 watch=ends")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    for client in seats:
        await client.send("seek reserved")
        await client.expect("ok", cmd="sit")
    started = await boss.expect("event", kind="start")
    first = await _first_ask(seats)
    eve = await connect.machine(port, "eve")
    await eve.reply(f"observe {table}", "ok")
    came = fields(await eve.read_until(lambda x: is_event(x, "observer")))[1]
    view = fields(await eve.read_until(lambda x: x.startswith("state ")))[1]
    after_view = eve.pos
    # the seats sat, the match started, the deal was dealt: numbered, though told to none
    assert int(started["seq"]) < int(first["seq"]) < int(came["seq"]) == int(view["seq"])

    ends: list[str] = []

    async def play(client: LineClient) -> None:
        ends.append((await _play_last_legal(client))[-1])

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for client in seats:
                nursery.start_soon(play, client)
            end = await eve.read_until(lambda x: is_event(x, "match-end"), timeout=20)
    watched = _event_seqs(eve.lines[after_view : eve.pos])
    assert watched == list(range(int(view["seq"]) + 1, int(fields(end)[1]["seq"]) + 1))
    assert ends == [end, end]


async def _first_ask(clients: list[LineClient]) -> dict[str, str]:
    """The first ask either of ``clients`` gets (left unanswered: read again below)."""
    asked: list[tuple[LineClient, str]] = []
    async with trio.open_nursery() as nursery:

        async def wait(client: LineClient) -> None:
            asked.append((client, await client.read_until(lambda x: x.startswith("ask "))))
            nursery.cancel_scope.cancel()

        for client in clients:
            nursery.start_soon(wait, client)
    client, line = asked[0]
    client.pos -= 1  # its player answers it
    return fields(line)[1]
