"""Others' comings and goings at a table are bounded (docs/security.md §6): an
'observe'/'unobserve' loop, or a 'sit'/'leave' loop at a waiting table, from one
connection or many of one address, puts only a few lines on the players' screens, and
never cuts a player off. Real sockets on loopback, as tests/server/test_attacks.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
import trio.testing

from .client import LineClient, is_event, seat_pair
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


async def _pinged(client: LineClient) -> None:
    """Until ``client``'s 'ping' is answered: what the server sent before is read."""
    await client.send("ping")
    await client.expect("ok", cmd="ping")


def _told(client: LineClient, kind: str) -> list[str]:
    return [x for x in client.lines if is_event(x, kind)]


async def _loop(client: LineClient, lines: list[str], times: int) -> None:
    """``lines`` ``times`` over, each round in one write, then its answers read."""
    for _ in range(times):
        await client.send("\n".join(lines))
        await _pinged(client)


async def test_an_observe_loop_from_many_connections_tells_the_players_little(
    start_server: StartServer, connect: Connector
) -> None:
    # tryout: one connection's loop put 1,800 lines on a player's screen in 11 s; 40
    # got both players of a running table cut off (outbox_full), their seats away
    port = await start_server(watch_news_burst=5, watch_news_per_s=0.001)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    nosy = [await connect.machine(port, f"nosy{i}") for i in range(8)]
    pair = [f"observe {table}", f"unobserve {table}"]
    async with trio.open_nursery() as nursery:
        for client in nosy:
            nursery.start_soon(_loop, client, pair * 10, 6)  # 120 lines each
    for player in (ann, bob):
        await _pinged(player)  # still connected, and told all there was
        told = _told(player, "observer")
        # five names' coming and going: the table's five comings, no name twice
        assert len(told) == 10, told
        names = [x.split(" name=")[1].split()[0] for x in told]
        assert len(set(names)) == 5 and all(names.count(n) == 2 for n in names), names
        assert not any(x.startswith(("bye ", "error ")) for x in player.lines)
    for client in nosy:  # the watchers themselves were refused nothing
        assert not any(x.startswith("error ") for x in client.lines)


async def test_a_single_observe_and_unobserve_are_still_told(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()  # a 60 s window
    bob = await connect.machine(port, "bob")  # waits at his table: no clock runs
    await bob.send("new 3")
    table = (await bob.expect("ok", cmd="sit"))["table"]
    eve = await connect.machine(port, "eve")
    for line in (f"observe {table}", f"unobserve {table}") * 2:  # twice in the window
        await eve.send(line)
        await eve.expect("ok", cmd=line.split()[0])
        await _pinged(bob)
    watching = _told(bob, "observer")
    assert [x.split(" watching=")[1].split()[0] for x in watching] == ["1", "0"], watching
    await trio.sleep(61)  # the window past: her coming is news again
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await _pinged(bob)
    assert len(_told(bob, "observer")) == 3


async def test_a_sit_leave_loop_at_a_waiting_table_is_refused_before_long(
    start_server: StartServer, connect: Connector
) -> None:
    # tryout: 1,000 lines on a waiting host's screen in 6 s from one connection
    port = await start_server(seat_churn_burst=3, seat_churn_per_address_burst=5)
    host = await connect.machine(port, "host")
    await host.send("new 3")
    table = (await host.expect("ok", cmd="sit"))["table"]
    churners = [await connect.machine(port, f"churn{i}") for i in range(4)]
    for client in churners:  # one after another: the address's 5 go to the first two
        await _loop(client, [f"sit {table}", "leave"], 10)
    await _pinged(host)
    seated = [x for x in _told(host, "seated") if "name=host" not in x]
    assert len(seated) == 5 and len(_told(host, "left")) == 5
    slowed = [sum(x.startswith("error code=slow-down") for x in c.lines) for c in churners]
    assert slowed == [7, 8, 10, 10], slowed  # own 3, then the address's 2, then none
    assert any("too many seats taken and left at once" in x for x in churners[0].lines)
    for client in churners:  # nor may they 'seek' or 'new' a seat while it lasts
        for line in ("seek 3", "new 3"):
            await client.send(line)
            assert (await client.expect("error"))["code"] == "slow-down"
    assert not any(x.startswith(("bye ", "error ")) for x in host.lines)


async def test_a_seat_given_up_at_a_waiting_table_comes_back_in_time(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(seat_churn_burst=1, seat_churn_per_s=0.2)
    host = await connect.machine(port, "host")
    await host.send("new 3")
    table = (await host.expect("ok", cmd="sit"))["table"]
    eve = await connect.machine(port, "eve")
    await _loop(eve, [f"sit {table}", "leave"], 1)
    await eve.send(f"sit {table}")
    assert (await eve.expect("error"))["code"] == "slow-down"
    await trio.sleep(5)  # one seat back (0.2 a second)
    await eve.send(f"sit {table}")
    await eve.expect("ok", cmd="sit")


async def test_a_match_played_or_lost_to_a_leaver_costs_nothing(
    start_server: StartServer, connect: Connector
) -> None:
    # a bot seeks after every match: the match another leaves costs it nothing
    port = await start_server(seat_churn_burst=1, seat_churn_per_s=0.0001)
    ann = await connect.machine(port, "ann")
    for round_ in range(3):
        bob = await connect.machine(port, f"bob{round_}")
        await seat_pair(ann, bob)
        await bob.send("leave!")  # bob forfeits the running match, not ann
        await bob.expect("ok", cmd="leave")
        # (the match's end comes from the table, after bob's 'ok': a 'ping' of ann's
        # could be answered first, and her next 'seek' find her still seated)
        await ann.read_until(lambda x: is_event(x, "match-end"))
        await _pinged(ann)
    assert not any(x.startswith("error code=slow-down") for x in ann.lines)


async def test_leaving_running_matches_again_and_again_is_refused_before_long(
    start_server: StartServer, connect: Connector
) -> None:
    # tryout: a 'seek 2'/'leave!' loop aborted 50 of one player's matches in 10 s
    port = await start_server(seat_churn_burst=2, seat_churn_per_s=0.0001)
    grief = await connect.machine(port, "grief")
    victims: list[LineClient] = []
    for leave in ("leave", "leave!"):  # a machine's 'leave' forfeits at once, as 'leave!'
        victim = await connect.machine(port, f"victim{len(victims)}")
        victims.append(victim)
        await seat_pair(grief, victim)
        await grief.send(leave)
        await grief.expect("ok", cmd="leave")
        await victim.read_until(lambda x: is_event(x, "match-end"))
    for line in ("seek 2", "new 2", "sit 1"):  # his 2 seats are spent
        await grief.send(line)
        refused = await grief.expect("error")
        seconds = -(-int(refused.pop("wait_ms")) // 1000)
        assert refused == {
            "code": "slow-down",
            "text": f"too many seats taken and left at once: wait {seconds} s",
        }
    # logging in again (a guest's resume: a new connection) gives none back
    again = await connect.machine(port, "grief", token=grief.token)
    await again.send("seek 2")
    assert (await again.expect("error"))["code"] == "slow-down"
    for victim in victims:  # who was left may seek again at once
        await victim.send("seek 2")
        await victim.expect("ok", cmd="seek")
