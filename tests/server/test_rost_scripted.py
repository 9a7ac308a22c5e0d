"""docs/rules.md §9 (Kharkov) and §3's `rost?` over sockets, on scripted deals (the
server's match seed; found with the engine). What the clock says in the exchange
(docs/protocol.md §11.2, and §9's "Nothing more is automatic than in Moscow"): the
declarer's answer is forced (`ot-…`, the one true top), and the clock makes it; the
asker's next call is his choice — `ot-…` when his is better, which makes it the best
and scores it, or `pishet` — and the clock, which never declares for a seat, says
`pishet` (it said the asker's `ot-…`, claiming for him). And an equal top in trump,
which beats the plain one in Moscow, is refused in Kharkov. Real sockets, virtual
time."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
import trio
import trio.testing

from .client import LineClient, fields, seat_pair
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

CARD = re.compile(r"(?:10|[789JQKA])[shdc]")


async def _asked(a: LineClient, b: LineClient) -> tuple[LineClient, dict[str, str]]:
    """The next ask, whichever seat gets it (the other seat's lines stay unread)."""
    got: list[tuple[LineClient, dict[str, str]]] = []

    async def watch(client: LineClient, done: trio.CancelScope) -> None:
        mark = client.pos
        line = await client.read_until(lambda x: x.startswith("ask "))
        if got:  # the other's came first: this one stays unread
            client.pos = mark
            return
        got.append((client, fields(line)[1]))
        done.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch, a, nursery.cancel_scope)
        nursery.start_soon(watch, b, nursery.cancel_scope)
    return got[0]


async def _say(client: LineClient, ask: dict[str, str], call: str) -> None:
    assert call in ask["legal"].split(","), (call, ask)
    await client.send(f"{call} seq={ask['seq']}")


async def _rost_asked(
    port: int, connect: Connector, variant: str
) -> tuple[LineClient, LineClient, dict[str, str]]:
    """anna and boris seated; the leader orders, declares a terts and plays his first
    card; the other is asked next, and may ask rost?: the leader, the other and that
    ask."""
    a = await connect.machine(port, "anna")
    b = await connect.machine(port, "boris")
    await seat_pair(a, b, f"2 {variant}")
    leader, ask = await _asked(a, b)
    asker = b if leader is a else a
    await _say(leader, ask, "igrayu")
    ask = fields(await leader.read_until(lambda x: x.startswith("ask ")))[1]
    await _say(leader, ask, "terts")
    ask = fields(await leader.read_until(lambda x: x.startswith("ask ")))[1]
    card = next(c for c in ask["legal"].split(",") if CARD.fullmatch(c))
    await _say(leader, ask, card)
    ask = fields(await asker.read_until(lambda x: x.startswith("ask ")))[1]
    return leader, asker, ask


@pytest.mark.parametrize(
    ("seed", "variant", "answer", "asker_may"),
    [
        ("rost20", "moscow", "ot-10", "ot-J"),  # his is higher: he may take it, or not
        ("rost42", "moscow", "ot-9", "ot-10-kozyrnogo"),
        ("rost186", "kharkov", "ot-J", "ot-Q"),  # §9: "Nothing more is automatic"
    ],
)
async def test_the_clock_concedes_for_the_asker_and_answers_for_the_declarer(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    seed: str,
    variant: str,
    answer: str,
    asker_may: str,
) -> None:
    port = await start_server(match_seed=seed)
    leader, asker, ask = await _rost_asked(port, connect, variant)
    asker_seat = ask["seat"]
    await _say(asker, ask, "rost?")

    def call_of(seat: str) -> Callable[[str], bool]:
        return lambda x: x.startswith("event ") and f"kind=call seat={seat} " in x

    # the declarer says nothing: the clock makes his forced answer
    clock_s = int(ask["clock"]) / 1000 + 5  # (a read waits past the clock)
    line = await asker.read_until(call_of("1" if asker_seat == "0" else "0"), clock_s)
    assert f"call={answer} auto=1" in line, line
    ask = fields(await asker.read_until(lambda x: x.startswith("ask ")))[1]
    assert ask["legal"].split(",")[:2] == [asker_may, "pishet"], ask
    # nor does the asker: the clock concedes for him
    spoken = call_of(asker_seat)
    line = await leader.read_until(lambda x: spoken(x) and "call=rost?" not in x, clock_s)
    assert "call=pishet auto=1" in line, line


@pytest.mark.parametrize("variant", ["moscow", "kharkov"])
async def test_an_equal_top_in_trump_beats_the_plain_one_in_moscow_only(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    variant: str,
) -> None:
    """docs/rules.md §9: with the same top card the asker's only call is `pishet`, "even
    when his is in trump and the declarer's is not — the declarer was first (`ot-…` is
    refused, `false-declaration`, saying that it does not beat the top he heard". The
    leader's terts to the Q of a plain suit, the asker's to the trump Q."""
    port = await start_server(match_seed="rost2209")
    leader, asker, ask = await _rost_asked(port, connect, variant)
    await _say(asker, ask, "rost?")
    ask = fields(await leader.read_until(lambda x: x.startswith("ask ")))[1]
    await _say(leader, ask, "ot-Q")
    ask = fields(await asker.read_until(lambda x: x.startswith("ask ")))[1]
    await asker.send(f"ot-Q-kozyrnogo seq={ask['seq']}")
    if variant == "moscow":
        assert ask["legal"].split(",")[:2] == ["ot-Q-kozyrnogo", "pishet"], ask
        await asker.read_until(lambda x: "kind=call" in x and "call=ot-Q-kozyrnogo" in x)
        return
    assert ask["legal"].split(",") == ["pishet"], ask
    error = await asker.read_until(lambda x: x.startswith("error "))
    assert fields(error)[1]["code"] == "false-declaration", error
    assert "ot-Q-kozyrnogo does not beat ot-Q" in error, error  # (the machine words)
    await _say(asker, ask, "pishet")
    await asker.read_until(lambda x: "kind=call" in x and "call=pishet" in x)
