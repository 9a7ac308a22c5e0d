"""Every `slow-down` that knows its wait says it (docs/protocol.md §10): `wait_ms=`,
appended before `text=`, and `wait N s` in the sentence; sent again a second before
the wait is over the request is still refused, sent after it, it is let in. One test a
limit: the lists, a connection's and an address's talk, a connection's, a name's and
an address's seats, and the house bots' starts (a login's: test_login_waits.py). A bot
told only 'wait a little' could not know when to try again."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable

import trio
from pytest import MonkeyPatch

from deberc_net.server.house import HouseBots

from .client import LineClient, fields
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]  # a house bot that never comes


async def _answer(client: LineClient, line: str, answered: str) -> dict[str, str]:
    """``line`` sent: its answer (a line starting ``answered``, or an error), as fields."""
    await client.send(line)
    got = await client.read_until(lambda x: x.startswith((answered, "error ")))
    tag, said = fields(got)
    return {"tag": tag, **said}


async def _told_then_let_in(
    client: LineClient,
    line: str,
    answered: str,
    sentence: str,
    wait_ms: int,
    cmd: str | None = None,
) -> None:
    """``line`` is refused with ``wait_ms`` (exact: token buckets on virtual time) and
    ``sentence``'s wait in whole seconds; a second early it is refused still, and once
    the wait told is over it is answered."""
    refused = await _answer(client, line, answered)
    # wait_ms= before text=; a list's refusal names the list after it (cmd=, §10)
    named = [] if cmd is None else ["cmd"]
    assert list(refused) == ["tag", "code", "wait_ms", *named, "text"], refused
    assert refused.get("cmd") == cmd, refused
    assert refused["code"] == "slow-down" and int(refused["wait_ms"]) == wait_ms, refused
    assert refused["text"] == f"{sentence}: wait {-(-wait_ms // 1000)} s"
    await trio.sleep(wait_ms / 1000 - 1)  # a second early: still refused
    early = await _answer(client, line, answered)
    assert early["code"] == "slow-down" and int(early["wait_ms"]) == 1_000, early
    await trio.sleep(int(early["wait_ms"]) / 1000)  # as told: let in
    assert (await _answer(client, line, answered))["tag"] == answered.split()[0]


async def test_a_list_past_the_lists_allowance_is_told_its_wait(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(lists_burst=2, lists_per_s=0.4)  # a list every 2.5 s
    ann = await connect.machine(port, "ann")
    for _ in range(2):
        assert (await _answer(ann, "who", "who "))["tag"] == "who"
    await _told_then_let_in(ann, "who", "who ", "too many 'who' at once", 2_500, cmd="who")


async def test_a_say_past_the_connections_allowance_is_told_its_wait(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(say_burst=2, say_per_s=0.25)  # a line every 4 s
    ann = await connect.machine(port, "ann")
    for _ in range(2):
        assert (await _answer(ann, "say hello", "say "))["tag"] == "say"
    await _told_then_let_in(
        ann, "say hello", "say from=ann ", "too many 'say' and 'invite' at once", 4_000
    )


async def test_a_say_past_the_addresss_allowance_is_told_the_addresss_wait(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """The connection's own allowance is full: the wait is the address's, which all its
    connections share (limits.SharedBucket)."""
    port = await start_server(
        say_burst=10, say_per_s=1.0, say_per_address_burst=2, say_per_address_per_s=0.1
    )
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")  # the same address
    for _ in range(2):
        assert (await _answer(ann, "say hello", "say "))["tag"] == "say"
    await _told_then_let_in(
        bob, "say hi", "say from=bob ", "too many 'say' and 'invite' at once", 10_000
    )


async def _seat_given_up(client: LineClient) -> None:
    """A table opened and left while it waits: a seat spent (docs/security.md §6)."""
    assert (await _answer(client, "new 2", "ok cmd=sit"))["tag"] == "ok"
    assert (await _answer(client, "leave", "ok cmd=leave"))["tag"] == "ok"


SEATS = "too many seats taken and left at once"


async def test_a_seat_past_the_connections_allowance_is_told_its_wait(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(seat_churn_burst=1, seat_churn_per_s=0.2)  # a seat every 5 s
    ann = await connect.machine(port, "ann")
    await _seat_given_up(ann)
    await _told_then_let_in(ann, "new 2", "ok cmd=sit", SEATS, 5_000)


async def test_a_seat_past_the_names_allowance_is_told_its_wait(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A new connection has a full allowance of its own; the name's is spent still (it
    outlives the connection), so the wait is the name's."""
    port = await start_server(seat_churn_burst=1, seat_churn_per_s=0.125)
    ann = await connect.machine(port, "ann")
    await _seat_given_up(ann)
    await trio.sleep(3)  # the name's wait is 8 s from then: 5 s now
    again = await connect.machine(port, "ann", token=ann.token)  # ann again, resumed
    await _told_then_let_in(again, "seek 2", "ok cmd=seek", SEATS, 5_000)


async def test_a_seat_past_the_addresss_allowance_is_told_the_addresss_wait(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(
        seat_churn_burst=5,
        seat_churn_per_s=1.0,
        seat_churn_per_address_burst=1,
        seat_churn_per_address_per_s=0.05,  # a seat every 20 s from one address
    )
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")  # the same address
    await _seat_given_up(ann)
    await _told_then_let_in(bob, "new 2", "ok cmd=sit", SEATS, 20_000)


async def test_a_house_bot_refused_by_both_its_limits_is_told_the_longer_wait(
    start_server: StartServer,
    connect: Connector,
    monkeypatch: MonkeyPatch,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """The server's starts are spent (10 s to the next) and so are the address's (100 s):
    the wait told is the longer, so a bot sent again then is not refused by the other
    (it was told the server's 10 s, and refused again at its end)."""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: SLEEPER)
    port = await start_server(
        house_bots=True,
        house_bot_starts_burst=2,
        house_bot_starts_per_s=0.1,
        house_bot_starts_per_address_burst=1,
        house_bot_starts_per_address_per_s=0.01,
    )
    ann = await connect.machine(port, "ann", source="127.0.0.2")
    cid = await connect.machine(port, "cid", source="127.0.0.3")
    for client in (ann, cid):  # the server's two, one from each address
        assert (await _answer(client, "new 2", "ok cmd=sit"))["tag"] == "ok"
        assert (await _answer(client, "bot random", "ok cmd=bot"))["tag"] == "ok"
    bob = await connect.machine(port, "bob", source="127.0.0.2")  # ann's address
    assert (await _answer(bob, "new 2", "ok cmd=sit"))["tag"] == "ok"
    refused = await _answer(bob, "bot random", "ok cmd=bot")
    assert refused["code"] == "slow-down" and refused["wait_ms"] == "100000", refused
    assert refused["text"] == "house bots are asked for too often on this server: wait 100 s"
    await trio.sleep(99)  # a second early: the address's limit refuses it still
    early = await _answer(bob, "bot random", "ok cmd=bot")
    assert early["wait_ms"] == "1000", early
    assert early["text"] == "house bots asked for too often from your address: wait 1 s"
    await trio.sleep(1)
    assert (await _answer(bob, "bot random", "ok cmd=bot"))["tag"] == "ok"
