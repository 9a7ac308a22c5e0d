"""Resuming a seat, moving a session, staying away too long, and the clock."""

from __future__ import annotations

import json
import random
import re
import socket
import struct
import time
from collections.abc import Awaitable

import structlog
import trio
from trio.testing import MockClock

from .client import (
    LineClient,
    fields,
    is_event,
    play_human,
    play_machine,
    random_legal,
    seat_pair,
)
from .conftest import Connector, StartServer


async def _play_until_asked_in_play(
    me: LineClient, other: LineClient, nursery: trio.Nursery
) -> tuple[dict[str, str], list[str]]:
    """``other`` plays in the background; ``me`` plays until asked for a card (mid-deal).
    The ask ``me`` now leaves unanswered, and the match-end line ``other`` ends with."""
    ends: list[str] = []

    async def background() -> None:
        ends.append(await play_machine(other, random.Random(2)))

    nursery.start_soon(background)
    rng = random.Random(1)
    while True:
        line = await me.read_until(lambda x: x.startswith("ask "))
        ask = fields(line)[1]
        if ask["phase"] == "play" and int(ask["deal"]) >= 2:
            return ask, ends
        await me.send(f"{random_legal(ask, rng)} seq={ask['seq']}")


async def test_reconnect_resumes_the_seat(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    async with trio.open_nursery() as nursery:
        ask, ends = await _play_until_asked_in_play(ann, bob, nursery)
        await ann.aclose()
        away = fields(await bob.seen(lambda x: is_event(x, "away")))[1]
        assert away["name"] == "ann"
        await trio.sleep(0.2)

        again = await connect.machine(port, "ann", token=ann.token)
        back = await again.expect("event", kind="back")
        assert back["name"] == "ann"
        resumed = fields(await again.read_until(lambda x: x.startswith(("ask ", "state "))))
        assert resumed[0] == "ask"  # it is still ann's turn: the request comes again
        state = resumed[1]
        for key in ("deal", "phase", "hand", "legal", "trick", "score", "trump"):
            assert state[key] == ask[key], key
        assert int(state["seq"]) == int(ask["seq"]) + 2  # the away and back events
        assert int(state["clock"]) <= int(ask["clock"]) - 150  # the clock left, not a new one
        # the same request: an answer to it (by either number) is not stale
        await again.send(f"{random_legal(state, random.Random(0))} seq={ask['seq']}")
        end = await play_machine(again, random.Random(3), timeout=10)
    assert is_event(end, "match-end") and ends == [end]


async def test_a_second_login_moves_the_session(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    async with trio.open_nursery() as nursery:
        ask, ends = await _play_until_asked_in_play(ann, bob, nursery)
        moved = await connect.machine(port, "ann", token=ann.token)  # the old one is open
        bye = await ann.read_until(lambda x: x.startswith(("bye", "error")))
        assert bye.startswith("bye ")
        await ann.wait_closed()
        state = fields(await moved.read_until(lambda x: x.startswith("ask ")))[1]
        assert state["hand"] == ask["hand"] and state["legal"] == ask["legal"]
        await moved.send("who")
        assert (await moved.expect("who"))["names"].split(",") == ["ann", "bob"]
        await moved.send(f"{random_legal(state, random.Random(0))} seq={state['seq']}")
        end = await play_machine(moved, random.Random(3), timeout=10)
    assert ends == [end]
    assert not any(is_event(x, "away") for x in bob.lines)  # no gap: nobody was away


async def test_away_too_long_forfeits(
    start_server: StartServer, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    port = await start_server(away_limit_ms=300)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    _, seat_ann, seat_bob = await seat_pair(ann, bob)
    async with trio.open_nursery() as nursery:
        _, ends = await _play_until_asked_in_play(ann, bob, nursery)
        await ann.aclose()
        await bob.seen(lambda x: is_event(x, "away"))
        left = trio.current_time()
    end = fields(ends[0])[1]
    assert trio.current_time() - left >= 0.25
    assert end["reason"] == "away" and end["winner"] == str(seat_bob) and end["name"] == "bob"
    assert seat_ann != seat_bob
    await bob.send("state")
    assert (await bob.expect("error"))["code"] == "not-seated"  # the table is gone
    await bob.send("tables")
    assert (await bob.expect("tables"))["count"] == "0"


async def test_leaving_a_waiting_table_frees_the_seat(
    start_server: StartServer, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    port = await start_server(away_limit_ms=300)
    bob = await connect.machine(port, "bob")
    await bob.send("new 3")
    sit = await bob.expect("ok", cmd="sit")
    ann = await connect.machine(port, "ann")
    await ann.send(f"sit {sit['table']}")
    await bob.expect("event", kind="seated", name="ann")
    await ann.aclose()  # before the game starts the seat is held for the away limit only
    await bob.expect("event", kind="away", name="ann")
    await bob.expect("event", kind="left", name="ann")
    await bob.send("tables")
    assert (await bob.expect("table", id=sit["table"]))["seats"] == "bob,-,-"
    others = [await connect.machine(port, name) for name in ("carl", "dan")]
    for other in others:
        await other.send(f"sit {sit['table']}")
    start = await bob.expect("event", kind="start")
    assert start["players"] == "bob,carl,dan"
    with trio.fail_after(10):
        results: list[str] = []
        async with trio.open_nursery() as nursery:
            for i, other in enumerate(others):
                nursery.start_soon(_collect, play_machine(other, random.Random(i)), results)
            end = fields(await play_machine(bob, random.Random(9)))[1]
    assert end["reason"] in ("target", "claim")


async def test_repeated_timeouts_make_automatic_calls_then_forfeit(
    start_server: StartServer, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    port = await start_server(bot_clock_ms=200, human_clock_ms=5000, max_timeouts=3)
    ann, bob, seat = await _quiet_bot_and_person(port, connect)
    asks = 0

    async def quiet_ann() -> str:
        nonlocal asks
        while True:
            line = await ann.read_until(lambda x: x.startswith("ask ") or is_event(x, "match-end"))
            if line.startswith("event"):
                return line
            asks += 1
            if asks == 3:  # one answer in between: only timeouts in a row count
                ask = fields(line)[1]
                await ann.send(f"{random_legal(ask, random.Random(0))} seq={ask['seq']}")

    results: list[str] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: _collect(play_human(bob), results))
        end = fields(await quiet_ann())[1]
    assert end["reason"] == "timeouts" and end["winner"] == str(1 - seat)
    assert results and results[0].startswith("Game over: bob wins (ann let the clock run out")
    events = [fields(x)[1] for x in ann.lines if x.startswith("event ")]
    mine = [e for e in events if e["kind"] in ("call", "play") and e["seat"] == str(seat)]
    assert [e["auto"] for e in mine] == ["1", "1", "0", "1", "1"]
    assert asks == 6
    # bob's calls were his own; the human rendering marks ann's automatic ones
    told = [line for line in bob.lines if "(by the clock)" in line]
    laid = [line for line in told if line.startswith("  trick ")]  # the deal's record, §14
    assert len(told) - len(laid) == 4
    # the record's tricks mark the cards the clock played, ann's alone
    marked = [m for line in laid for m in re.findall(r"(\w+) \S+ \(by the clock\)", line)]
    assert marked and set(marked) == {"ann"}
    assert all(
        e["auto"] == "0" for e in events if e["kind"] in ("call", "play") and e["seat"] != str(seat)
    )


async def _collect(coro: Awaitable[str], into: list[str]) -> None:
    into.append(await coro)


async def _quiet_bot_and_person(
    port: int, connect: Connector
) -> tuple[LineClient, LineClient, int]:
    """ann (machine style, on the short bot clock) and bob (a person, on the long human
    clock) at one table; ann's seat."""
    ann = await connect.machine(port, "ann")
    bob = await connect.human(port, "bob")
    await ann.send("seek 2")
    await ann.expect("ok", cmd="seek")
    await bob.send("seek 2")
    return ann, bob, int((await ann.expect("ok", cmd="sit"))["seat"])


async def test_automatic_calls_are_recorded(
    start_server: StartServer, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    port = await start_server(bot_clock_ms=30, human_clock_ms=5000, max_timeouts=1000)
    ann, bob, seat_ann = await _quiet_bot_and_person(port, connect)  # ann never answers
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_human, bob)
        line = await ann.read_until(lambda x: x.startswith("record "), timeout=5)
        nursery.cancel_scope.cancel()
    record = json.loads(fields(line)[1]["text"])
    mine = [c for c in record["calls"] if c["seat"] == seat_ann and not c.get("engine")]
    assert mine and all(c.get("auto") is True for c in mine)
    others = [c for c in record["calls"] if c["seat"] != seat_ann]
    assert all("auto" not in c for c in others)


async def test_other_events_do_not_make_a_request_stale(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    rng = random.Random(5)
    while True:  # play until bob is asked
        ask_line = await _first_ask(ann, bob)
        client = ann if ask_line[0] is ann else bob
        ask = ask_line[1]
        if client is bob:
            break
        await ann.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
    await ann.aclose()  # ann drops: the table numbers an "away" event
    await bob.expect("event", kind="away")
    call = random_legal(ask, rng)
    await bob.send(f"{call} seq={ask['seq']}")
    line = await bob.read_until(lambda x: x.startswith(("error", "event")))
    assert not line.startswith("error"), line
    assert fields(line)[1]["seat"] == ask["seat"]


async def _first_ask(a: LineClient, b: LineClient) -> tuple[LineClient, dict[str, str]]:
    found: list[tuple[LineClient, dict[str, str]]] = []

    async def watch(client: LineClient, scope: trio.CancelScope) -> None:
        found.append((client, fields(await client.read_until(lambda x: x.startswith("ask ")))[1]))
        scope.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch, a, nursery.cancel_scope)
        nursery.start_soon(watch, b, nursery.cancel_scope)
    return found[0]


async def test_a_reset_connection_is_an_ordinary_disconnect(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    await bob.read_until(lambda x: x.startswith(("ask ", "state ")))
    with structlog.testing.capture_logs() as logs:
        assert isinstance(ann.stream, trio.SocketStream)
        sock = ann.stream.socket
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        await ann.aclose()  # linger 0: the peer gets a reset, not a FIN
        away = await bob.expect("event", kind="away")
        assert away["name"] == "ann"
        await bob.send("who")  # a round trip: ann's connection is over by now
        assert (await bob.expect("who"))["names"] == "bob"
    gone = [e for e in logs if e["event"] == "disconnect"]
    assert [(e["name"], "conn" in e, "peer" in e) for e in gone] == [("ann", True, True)]
    assert not [e for e in logs if e["log_level"] in ("error", "critical")], logs


async def test_a_returning_player_is_seated_at_once(port: int, connect: Connector) -> None:
    """Back at a table one sat at: 'new' or 'seek' in the very next line is refused."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.aclose()
    again = await connect.raw(port, "ann")
    await again.send_raw(
        f"style machine\nlogin ann token={ann.token}\nnew 2\nseek 2\ntables\n".encode()
    )
    for _ in range(2):
        assert (await again.expect("error"))["code"] == "already-seated"
    assert (await again.expect("tables"))["count"] == "1"
    seats = (await again.expect("table", id=table))["seats"]
    assert seats == "ann,-"
    bob = await connect.machine(port, "bob")
    await bob.send(f"sit {table}")
    await bob.expect("event", kind="start")
    state = fields(await again.read_until(lambda x: x.startswith(("ask ", "state "))))[1]
    assert len(state["hand"].split(",")) == 6


async def test_virtual_time_waits_for_worker_threads(
    virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """The clock and away tests' virtual time: it jumps when all is idle, but not while a
    worker thread (the server's store) runs, however long that takes."""
    assert trio.lowlevel.current_clock() is virtual_clock
    start = trio.current_time()
    await trio.sleep(1000)
    assert trio.current_time() - start == 1000  # at once: nothing else was due
    deadline_passed = False

    async def deadline() -> None:
        nonlocal deadline_passed
        await trio.sleep(5)
        deadline_passed = True

    async with trio.open_nursery() as nursery:
        nursery.start_soon(deadline)
        await trio.testing.wait_all_tasks_blocked()
        await trio.to_thread.run_sync(time.sleep, 0.05)  # real time, virtual none
        assert not deadline_passed
    assert deadline_passed


async def test_a_name_typed_in_another_case_takes_its_seats_spelling(
    port: int, connect: Connector
) -> None:
    """The tryout's: 'login Sasha token=T' back at sasha's seat was greeted as Sasha and
    listed so by 'who', while the table and its lines said sasha. One spelling."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.aclose()
    again = await connect.raw(port, "ANN")
    await again.send_raw(f"style machine\nlogin ANN token={ann.token}\n".encode())
    assert (await again.expect("ok", cmd="login"))["name"] == "ann"
    await again.send("who")
    assert (await again.expect("who"))["names"] == "ann"
    await again.send("tables")
    await again.expect("tables")
    assert (await again.expect("table", id=table))["seats"] == "ann,-"
    # not seated: a connection taken over keeps the spelling it had
    cat = await connect.machine(port, "cat")
    moved = await connect.raw(port, "Cat")
    await moved.send_raw(f"style machine\nlogin Cat token={cat.token}\nwho\n".encode())
    assert (await moved.expect("ok", cmd="login"))["name"] == "cat"
    assert (await moved.expect("who"))["names"].split(",") == ["ann", "cat"]


async def test_a_registered_name_logs_in_as_it_was_registered(
    port: int, connect: Connector
) -> None:
    """One player, one spelling, for a registered name too: 'Vera' registered, 'login
    VERA pw' later was VERA in 'who' and at the tables it opened, and so in 'games'
    beside the matches it played as Vera. Its account's spelling wins; at a seat the
    seat's, which it took under that spelling."""
    vera = await connect.raw(port, "Vera")
    await vera.send_raw(b"style machine\nlogin Vera secret1\n")
    assert (await vera.expect("ok", cmd="login"))["name"] == "Vera"
    await vera.aclose()
    again = await connect.raw(port, "VERA")
    await again.send_raw(b"style machine\nlogin VERA secret1\nwho\nnew 2\n")
    assert (await again.expect("ok", cmd="login"))["name"] == "Vera"
    assert (await again.expect("who"))["names"] == "Vera"
    table = (await again.expect("ok", cmd="sit"))["table"]
    await again.aclose()
    back = await connect.raw(port, "vera")
    await back.send_raw(b"style machine\nlogin vera secret1\ntables\n")
    assert (await back.expect("ok", cmd="login"))["name"] == "Vera"
    await back.expect("tables")
    assert (await back.expect("table", id=table))["seats"] == "Vera,-"
    await back.aclose()
    other = await connect.machine(port, "xeno")
    await other.send("finger VERA")  # gone: named as registered, not as asked
    assert (await other.expect("finger"))["name"] == "Vera"


async def test_a_seated_names_logins_are_held_to_an_allowance(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    # a second tryout looped a seated guest's resumes (a token: nothing to hash), ~930 a
    # second: each put 'away' and 'back' on the table's screens till a slow reader
    # there was cut off (failed before: every one was let in)
    from deberc_net.server.login import SEAT_LOGINS_BURST, SEAT_LOGINS_PER_S

    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    replies = []
    for _ in range(int(SEAT_LOGINS_BURST) + 3):
        again = await connect.raw(port, "bob again")
        await again.send(f"style machine\nlogin bob token={bob.token}")
        reply = await again.read_until(lambda x: x.startswith(("ok cmd=login", "error ")))
        replies.append(fields(reply)[1].get("code", "ok"))
    assert replies == ["ok"] * int(SEAT_LOGINS_BURST) + ["slow-down"] * 3
    await trio.sleep(1 / SEAT_LOGINS_PER_S)  # one more in a while
    back = await connect.machine(port, "bob", token=bob.token)
    await back.send("ping")
    await back.expect("ok", cmd="ping")
    # a name at no table is not held to it: cat logs in as often as she likes
    cat = await connect.machine(port, "cat")
    for _ in range(int(SEAT_LOGINS_BURST) + 3):
        cat = await connect.machine(port, "cat", token=cat.token)


async def test_strangers_refused_logins_do_not_spend_a_seated_names_allowance(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    # hostile tryout (s24): wrong tokens for a seated guest's name, well under the flood
    # limit and nothing to hash, spent its allowance, and the owner back from a drop got
    # 'slow-down' at every try till his seat forfeited
    from deberc_net.server.login import SEAT_LOGINS_BURST

    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    stranger = await connect.raw(port, "stranger")
    await stranger.send("style machine")
    for _ in range(3 * int(SEAT_LOGINS_BURST)):
        await stranger.send("login bob token=WRONGWRONGWRONG1")
        assert (await stranger.expect("error"))["code"] == "name-in-use"
    await bob.aclose()
    await ann.expect("event", kind="away")
    back = await connect.machine(port, "bob", token=bob.token)  # let in, seat and all
    await back.read_until(lambda x: x.startswith(("ask ", "state ")))
    assert (await ann.expect("event", kind="back"))["name"] == "bob"


async def test_a_person_back_at_an_empty_trick_is_shown_the_last_trick_taken(
    port: int, connect: Connector
) -> None:
    # club tryout (s23): back after a drop, a player led again without being told which
    # cards had fallen while he was away
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    async with trio.open_nursery() as nursery:  # till the first trick is taken
        for client, seed in ((ann, 1), (bob, 2)):
            stop = lambda x: is_event(x, "trick")  # noqa: E731
            nursery.start_soon(play_machine, client, random.Random(seed), stop)
    taken = fields(next(x for x in ann.lines if is_event(x, "trick")))[1]
    deal = [fields(x)[1]["deal"] for x in ann.lines if is_event(x, "deal")][-1]
    await bob.aclose()
    await ann.read_until(lambda x: is_event(x, "away"))
    person = await connect.raw(port, "bob")
    await person.send(f"login bob token={bob.token}")
    told = [await person.read_until(lambda x: x.startswith("Last trick"))]
    told.append(await person.read_until(lambda x: x.startswith(("Your call", "Waiting for"))))
    winner = ("ann", "bob")[int(taken["winner"])]
    assert told[0].startswith(f"Last trick (deal {deal}): "), told
    assert told[0].endswith(f"; {winner} took it."), told
    # a program back gets no such line: it asks 'last' if it wants it
    await ann.aclose()
    again = await connect.machine(port, "ann", token=ann.token)
    await again.read_until(lambda x: x.startswith(("ask ", "state ")))
    assert not [x for x in again.lines if x.startswith("last ")], again.lines


async def test_a_token_with_a_letter_outside_ascii_is_refused_not_an_internal_error(
    port: int, connect: Connector
) -> None:
    # a check of the club texts (s23): the Russian welcome quotes «login ann token=T»,
    # and a token copied with its closing » made hmac raise TypeError: 'internal'
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.aclose()  # away: her guest name is held for her token
    assert ann.token is not None
    for typed in (f"{ann.token}»", "ЖЖЖЖ", f"{ann.token[:-1]}é"):
        other = await connect.raw(port, "other")
        await other.send(f"style machine\nlogin ann token={typed}")
        refused = fields(await other.read_until(lambda x: x.startswith("error ")))[1]
        assert refused["code"] == "name-in-use", (typed, refused)
    back = await connect.machine(port, "ann", token=ann.token)  # hers still takes it
    await back.expect("event", kind="back")
