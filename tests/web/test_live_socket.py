"""The table page's WebSocket, read by a plain WebSocket client (no browser)."""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from trio_websocket import (
    ConnectionClosed,
    ConnectionRejected,
    WebSocketConnection,
    open_websocket_url,
)
from wsproto import ConnectionType, WSConnection
from wsproto.events import CloseConnection, Ping, Request

from deberc_net.server.accounts import set_password
from deberc_net.server.rematch import REMATCH_S
from deberc_net.server.store import open_store
from deberc_net.server.web.feed import COALESCE_S
from deberc_net.server.web.serve import WEBSOCKET_PING_S
from tests.server.client import LineClient, fields, is_event, play_machine, random_legal
from tests.server.conftest import Connector

from .conftest import WebServer
from .live import follow_sizes, lines_of, text_of

StartWeb = Callable[..., Any]


def live_url(web: WebServer, table: int) -> str:
    return f"ws://127.0.0.1:{web.http_port}/live/table/{table}"


async def seated_and_observing(web: WebServer, connect: Connector) -> tuple[LineClient, LineClient]:
    """ann seated alone at table 1 (a match to 301), and carl's observer connection on it."""
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 moscow to-301")
    await ann.expect("ok", cmd="sit")
    carl = await connect.machine(web.port, "carl")  # an observer's connection
    await carl.send("observe 1")
    await carl.expect("ok", cmd="observe")
    return ann, carl


async def test_the_page_gets_exactly_the_lines_of_an_observers_connection_but_records(
    start_web: StartWeb,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    web: WebServer = await start_web()
    ann, carl = await seated_and_observing(web, connect)
    socket_lines: list[str] = []
    # (virtual time: the socket stays open while the match's rematch is on offer)
    with trio.fail_after(30 + REMATCH_S):
        async with open_websocket_url(live_url(web, 1)) as socket:
            while not socket_lines:  # the page is observing once told so
                socket_lines += lines_of(await text_of(socket))
            bob = await connect.machine(web.port, "bob")
            await bob.send("sit 1")
            await bob.expect("ok", cmd="sit")
            async with trio.open_nursery() as nursery:
                nursery.start_soon(play_machine, ann, random.Random(1))
                nursery.start_soon(play_machine, bob, random.Random(2))
            await carl.read_until(lambda line: is_event(line, "match-end"))
            # the table closed: so does the socket, once its rematch is no longer on offer
            with pytest.raises(ConnectionClosed):
                while True:
                    socket_lines += lines_of(await text_of(socket))
    socket_lines = [line for line in socket_lines if line]
    observed = carl.lines[
        carl.lines.index(next(line for line in carl.lines if line.startswith("ok cmd=observe"))) :
    ]
    assert socket_lines[0] == "ok cmd=observe table=1 text=You observe table 1."
    # carl's own arrival was told before the page looked on; the page itself, having no
    # name, is counted but never announced
    assert not [line for line in socket_lines if "kind=observer" in line]
    observed = [line for line in observed if "kind=observer" not in line]
    # the deals' records (one per deal) are the observer's, not the page's (web/feed.py)
    records = [line for line in observed if line.startswith("record ")]
    assert len(records) >= 2 and not [line for line in socket_lines if line.startswith("record")]
    observed = [line for line in observed if not line.startswith("record ")]
    assert socket_lines == observed[: len(socket_lines)] and len(socket_lines) == len(observed)
    kinds = {fields(line)[1].get("kind") for line in socket_lines}
    assert {"start", "deal", "play", "trick", "deal-end", "match-end"} <= kinds


def seq_of(line: str) -> int | None:
    seq = fields(line)[1].get("seq")
    return None if seq is None else int(seq)


def is_slice(part: list[str], whole: list[str]) -> int | None:
    """Where ``part`` stands in ``whole`` as one unbroken run of lines, if it does."""
    for start in range(len(whole) - len(part) + 1):
        if whole[start : start + len(part)] == part:
            return start
    return None


async def test_pages_come_and_go_and_each_gets_an_observers_lines(
    start_web: StartWeb,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A table's pages share one feed (web/feed.py). Whenever a page comes it gets its own
    'ok' and state, then every line an observer's connection gets after that state but
    the records: none lost, none twice, though pages came and went meanwhile; each is
    counted among the table's observers while it looks on."""
    web: WebServer = await start_web()
    ann, carl = await seated_and_observing(web, connect)
    pages: dict[str, list[str]] = {"a": [], "b": [], "c": []}
    closed: dict[str, bool] = {}
    watching = {name: trio.CancelScope() for name in pages}  # cancelled: the page goes

    async def page(name: str, opened: trio.Event) -> None:
        with watching[name]:
            async with open_websocket_url(live_url(web, 1)) as socket:
                try:
                    while True:
                        pages[name] += lines_of(await text_of(socket))
                        opened.set()
                except ConnectionClosed:
                    closed[name] = True

    async def observers() -> int:
        status, body = await web.get("/api/tables/1")
        assert status == 200
        count: int = json.loads(body)["observers"]
        return count

    async def play_until(seq: int) -> None:  # both players, then they wait
        def reached(line: str) -> bool:
            return is_event(line, "match-end") or (seq_of(line) or 0) >= seq

        async with trio.open_nursery() as players:
            players.start_soon(play_machine, ann, random.Random(1), reached)
            players.start_soon(play_machine, bob, random.Random(2), reached)

    with trio.fail_after(60 + REMATCH_S):  # (the rematch's offer: as above)
        async with trio.open_nursery() as nursery:
            opened = {name: trio.Event() for name in pages}
            nursery.start_soon(page, "a", opened["a"])
            await opened["a"].wait()
            bob = await connect.machine(web.port, "bob")
            await bob.send("sit 1")
            await bob.expect("ok", cmd="sit")
            await play_until(15)
            nursery.start_soon(page, "b", opened["b"])
            await opened["b"].wait()
            await play_until(30)
            nursery.start_soon(page, "c", opened["c"])
            await opened["c"].wait()
            assert await observers() == 4  # carl and three pages
            while not any((seq_of(line) or 0) >= 30 for line in pages["a"]):
                await trio.sleep(0.02)  # (lines go out every feed.COALESCE_S at most)
            watching["a"].cancel()  # the page goes away while the match runs
            await play_until(45)
            while await observers() != 3:  # a's place is given up once the server sees it go
                await trio.sleep(0.02)
            await play_until(10**9)  # to the end of the match: the table closes
    assert closed == {"b": True, "c": True}
    await carl.read_until(lambda line: line == [x for x in pages["b"] if x][-1])
    observing = next(i for i, line in enumerate(carl.lines) if line.startswith("ok "))
    observed = [line for line in carl.lines[observing + 1 :] if not line.startswith("record ")]
    for name, got in pages.items():
        lines = [line for line in got if line]
        assert lines[0] == "ok cmd=observe table=1 text=You observe table 1.", name
        # after its own state (an 'info' while the table waited) and, once the match
        # has begun, the score sheet the page is told with it (docs/web.md)
        sheet = [line.split()[0] for line in lines[2:] if line.startswith("sheet")]
        assert sheet == ([] if name == "a" else ["sheet", *["sheet-deal"] * (len(sheet) - 1)])
        assert lines[2 : 2 + len(sheet)] == [x for x in lines if x.startswith("sheet")], name
        rest = lines[2 + len(sheet) :]
        start = is_slice(rest, observed)
        assert start is not None and len(rest) > 10, name
        if name != "a":
            assert observed[start + len(rest) :] == []  # to the table's last line
            state_seq = seq_of(lines[1])
            first_seq = next(seq_of(line) for line in rest if seq_of(line) is not None)
            assert lines[1].startswith("state ") and first_seq == (state_seq or 0) + 1, name


async def test_each_play_reaches_the_page_within_the_feeds_window(
    start_web: StartWeb,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A play is on the page at most COALESCE_S after an observer's connection has it,
    and at once after a quiet spell (the page's "within a second", docs/web.md): on
    virtual time, exactly, through a deal of calls some quick and some slow.
    (tests/web/test_browser.py shows each card drawn in Chromium before the next call,
    with no timed window.)"""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    carl = await connect.machine(web.port, "carl")  # an observer's connection
    await ann.send("new 2 short")
    await ann.expect("ok", cmd="sit", table="1")
    await carl.send("observe 1")
    await carl.expect("ok", cmd="observe")
    told: dict[int, float] = {}  # a play's seq: when the observer's connection had it
    shown: dict[int, float] = {}  # ... and the page

    async def observer() -> None:
        while not is_event(line := await carl.read_until(lambda _: True, 60), "match-end"):
            if is_event(line, "play"):
                told[seq_of(line) or 0] = trio.current_time()

    async def player(client: LineClient, rng: random.Random) -> None:
        while not is_event(line := await client.read_until(lambda _: True, 60), "match-end"):
            tag, said = fields(line)
            assert tag != "error", line
            if tag == "ask":
                await trio.sleep(rng.choice((0.05, 0.1, 0.5, 1.0)))  # thinking (virtual)
                await client.send(f"{random_legal(said, rng)} seq={said['seq']}")

    async def page(socket: WebSocketConnection) -> None:
        while True:
            for line in lines_of(await text_of(socket)):
                if is_event(line, "play"):
                    shown[seq_of(line) or 0] = trio.current_time()
                if is_event(line, "match-end"):
                    return

    with trio.fail_after(600):  # (virtual time: a hang's limit, passed at once)
        async with open_websocket_url(live_url(web, 1)) as socket, trio.open_nursery() as nursery:
            await text_of(socket)  # its 'ok' and the table's state
            nursery.start_soon(observer)
            nursery.start_soon(page, socket)
            await bob.send("sit 1")
            await bob.expect("ok", cmd="sit")
            nursery.start_soon(player, ann, random.Random(1))
            nursery.start_soon(player, bob, random.Random(2))
    assert len(told) >= 16 and shown.keys() == told.keys()
    waited = {seq: shown[seq] - told[seq] for seq in told}
    assert max(waited.values()) <= COALESCE_S, waited
    assert min(waited.values()) == 0, waited  # the first play after a quiet spell: at once
    assert len(set(waited.values())) > 1, waited  # and some waited for the window's end


async def test_live_sockets_are_capped_and_unknown_tables_refused(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web(max_web_viewers=1)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with trio.fail_after(30):
        with pytest.raises(ConnectionRejected):
            async with open_websocket_url(live_url(web, 9)):
                pass
        async with open_websocket_url(live_url(web, 1)) as first:
            assert (await text_of(first)).startswith("ok cmd=observe table=1 ")
            with pytest.raises(ConnectionRejected):  # one viewer at most
                async with open_websocket_url(live_url(web, 1)):
                    pass
        for _ in range(50):  # the first one's place is free once the server has seen it go
            try:
                async with open_websocket_url(live_url(web, 1)) as again:
                    assert (await text_of(again)).startswith("ok cmd=observe")
                    break
            except ConnectionRejected:
                await trio.sleep(0.05)
        else:
            raise AssertionError("a closed viewer's place was never freed")


async def test_one_address_cannot_take_every_live_socket(
    start_web: StartWeb, connect: Connector
) -> None:
    # tryout-s15 #3: 500 sockets from one address held every place; the next got 403
    web: WebServer = await start_web(max_web_viewers=10, web_viewers_per_address=2)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with trio.fail_after(30):
        async with (
            open_websocket_url(live_url(web, 1)) as first,
            open_websocket_url(live_url(web, 1)) as second,
        ):
            for viewer in (first, second):
                assert (await text_of(viewer)).startswith("ok cmd=observe table=1 ")
            with pytest.raises(ConnectionRejected):  # a third from 127.0.0.1, with room left
                async with open_websocket_url(live_url(web, 1)):
                    pass


@pytest.mark.timeout(30)
async def test_no_live_socket_when_max_web_viewers_is_0(
    start_web: StartWeb, connect: Connector
) -> None:
    """docs/settings.md, `max_web_viewers`: "0: none (the pages are not live)": the
    table's page is served, its live socket refused."""
    web: WebServer = await start_web(max_web_viewers=0)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with trio.fail_after(30):
        assert (await web.ask("GET", "/table/1"))[0] == 200
        with pytest.raises(ConnectionRejected):
            async with open_websocket_url(live_url(web, 1)):
                pass


@pytest.mark.timeout(30)
async def test_web_viewers_per_address_0_is_no_limit(
    start_web: StartWeb, connect: Connector
) -> None:
    """docs/settings.md, `web_viewers_per_address`: "0: no limit" (not none): one
    address holds every place, as many as `max_web_viewers`, and no more."""
    web: WebServer = await start_web(max_web_viewers=3, web_viewers_per_address=0)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with trio.fail_after(30):
        async with (
            open_websocket_url(live_url(web, 1)) as first,
            open_websocket_url(live_url(web, 1)) as second,
            open_websocket_url(live_url(web, 1)) as third,
        ):
            for viewer in (first, second, third):
                assert (await text_of(viewer)).startswith("ok cmd=observe table=1 ")
            with pytest.raises(ConnectionRejected):  # the server's own cap still holds
                async with open_websocket_url(live_url(web, 1)):
                    pass


async def test_a_table_number_of_any_length_is_refused_as_no_table_and_logs_nothing(
    start_web: StartWeb, caplog: pytest.LogCaptureFixture
) -> None:
    """Past 4,300 digits the route's int() raised: hypercorn's traceback in the log
    and a 500 (hostile tryout); now refused as a table that is not there (403)."""
    web: WebServer = await start_web()
    for number in ("9" * 30, "1" * 4400):
        with trio.fail_after(30), pytest.raises(ConnectionRejected) as refused:
            async with open_websocket_url(f"ws://127.0.0.1:{web.http_port}/live/table/{number}"):
                pass
        assert refused.value.status_code == 403, len(number)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_private_table_is_not_watched_live(start_web: StartWeb, connect: Connector) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 private")
    table = int((await ann.expect("ok", cmd="sit"))["table"])
    with trio.fail_after(30), pytest.raises(ConnectionRejected):
        async with open_websocket_url(live_url(web, table)):
            pass


async def test_a_ladder_board_is_not_shown_nor_watched_from_the_web(
    start_web: StartWeb, connect: Connector, db_path: Path
) -> None:
    """Only admins watch a ladder's board (docs/protocol.md §5.5a): its page would show
    the cards of a deck its other seatings have still to play."""
    store = open_store(db_path)
    set_password(store, "boss", "pw")
    store.close()
    web: WebServer = await start_web(admins=["boss"])
    boss = await connect.machine(web.port, "boss", "pw")
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=b1 watch=ends")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    status, body = await web.get("/api/tables")
    assert (status, json.loads(body)) == (200, {"tables": []})
    for path in (f"/api/tables/{table}", f"/table/{table}"):
        status, body = await web.get(path)
        said = f"no open table {table}" if path.startswith("/api/") else f"No open table {table}."
        assert (status, said.encode() in body) == (404, True), path
    with trio.fail_after(30), pytest.raises(ConnectionRejected):
        async with open_websocket_url(live_url(web, int(table))):
            pass


@pytest.mark.parametrize("new", ["new 2 moscow to-301", "new 3", "new 4", "new 2 tertz"])
async def test_the_page_works_out_the_hand_sizes_the_table_holds(
    start_web: StartWeb,
    connect: Connector,
    new: str,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """The page's hand sizes (each play takes a card; the server's sizes message when
    that is not enough: a deal, the extra cards, a Tertz draw) come to what the hands
    hold, whenever the table stops, through deals and their ends."""
    # (no clock acts for a player while the test waits for the page: the virtual clock
    # jumps to the next deadline once the loop has idled a millisecond, a page's bytes
    # still on a loaded machine's loopback, and the bots' 10 s was the next one)
    web: WebServer = await start_web(bot_clock_ms=3_600_000)
    count = int(new.split()[1])
    players = [await connect.machine(web.port, f"p{seat}") for seat in range(count)]
    await players[0].send(new)
    await players[0].expect("ok", cmd="sit")
    sizes: list[int] = []
    page_seq = 0  # the last event the page has had
    over: list[str] = []  # the match ended (the table then closes): no more stops

    async def play(seat: int, stop: Callable[[str], bool]) -> None:
        last = await play_machine(players[seat], random.Random(seat), stop)
        if is_event(last, "match-end"):
            over.append(last)

    async def play_until(seq: int) -> None:  # every player, then they wait
        def reached(line: str) -> bool:
            return is_event(line, "match-end") or (seq_of(line) or 0) >= seq

        async with trio.open_nursery() as nursery:
            for seat in range(count):
                nursery.start_soon(play, seat, reached)

    with trio.fail_after(7200):  # (virtual time: a hang's limit, passed at once)
        async with open_websocket_url(live_url(web, 1)) as socket:
            for player in players[1:]:
                await player.send("sit 1")
                await player.expect("ok", cmd="sit")
            checked: set[tuple[int, ...]] = set()
            for seq in range(count + 3, 120, 3):
                await play_until(seq)
                if over:
                    break
                status, body = await web.get("/api/tables/1")
                if status == 404:  # the call that reached seq also ended the match:
                    # its match-end is still on the way (a 404 without one fails here)
                    await players[0].read_until(lambda line: is_event(line, "match-end"))
                    break
                assert status == 200
                real = json.loads(body)["hand_sizes"]
                # the page has caught up with the still table once it has the table's
                # last event (its lines come in order, the sizes at the end of their
                # message): not 3 s, which a loaded machine's loopback overran, the
                # virtual clock jumping to that deadline while the lines were on the way
                last = max(
                    seq_of(line) or 0
                    for player in players
                    for line in player.lines
                    if line.startswith("event ")
                )
                while page_seq < last:
                    message = await text_of(socket)
                    sizes = follow_sizes(sizes, message)
                    page_seq = max([page_seq, *(seq_of(line) or 0 for line in lines_of(message))])
                assert sizes == real, (sizes, real)
                checked.add(tuple(real))
    # deals, their extra cards or draws, and cards played were all on the way
    assert len(checked) >= 8 and len({sum(s) for s in checked}) >= 5, checked


@pytest.mark.parametrize(("size", "code"), [(10, 1008), (64 * 1024, 1009)])
async def test_a_socket_that_sends_is_closed_and_a_big_message_never_held(
    start_web: StartWeb, connect: Connector, size: int, code: int
) -> None:
    # a live page sends nothing; hypercorn held up to 16 MiB of a message a socket,
    # kept one byte short of its end, and the server read on (failed before: open)
    web: WebServer = await start_web()
    await seated_and_observing(web, connect)
    with trio.fail_after(30):
        async with open_websocket_url(live_url(web, 1)) as socket:
            assert lines_of(await text_of(socket))  # watching
            await socket.send_message("x" * size)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await socket.get_message()
    assert closed.value.reason is not None
    assert closed.value.reason.code == code
    async with open_websocket_url(live_url(web, 1)) as socket:  # another page watches on
        assert lines_of(await text_of(socket))


async def test_a_socket_whose_message_passes_the_limit_is_cut_off_not_read_on(
    start_web: StartWeb, connect: Connector
) -> None:
    # hypercorn 0.18 answers a message over its limit with close 1009 and reads on: a
    # frame that says it holds 2**40 bytes had the server keep all that came after
    # (a tryout: 512 MiB held for one socket, failed before: the connection stayed open)
    web: WebServer = await start_web()
    await seated_and_observing(web, connect)
    stream = await trio.open_tcp_stream("127.0.0.1", web.http_port)
    async with stream:
        await stream.send_all(
            b"GET /live/table/1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += await stream.receive_some(4096)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        # a masked binary frame that says it holds 2**40 bytes, then some of them
        await stream.send_all(b"\x82\xff" + (2**40).to_bytes(8, "big") + b"\0\0\0\0")
        ended = False
        with trio.move_on_after(10):
            with contextlib.suppress(trio.BrokenResourceError):
                for _ in range(2000):  # up to 32 MiB
                    await stream.send_all(b"\0" * 16384)
            while await stream.receive_some(65536):
                pass
            ended = True
        assert ended, "the server kept the socket open and read on"


async def test_a_quiet_tables_socket_is_pinged_so_no_proxy_takes_it_for_dead(
    start_web: StartWeb,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A table with nothing to tell for minutes: its page's socket hears a ping every
    25 s (docs/web.md, "Behind a proxy"), so a proxy's 60 s idle timeout never closes
    it. Failed before: nothing came at all until the table's next event."""
    web: WebServer = await start_web()
    await seated_and_observing(web, connect)  # ann waits alone: nothing happens
    client = WSConnection(ConnectionType.CLIENT)
    stream = await trio.open_tcp_stream("127.0.0.1", web.http_port)
    async with stream:
        await stream.send_all(client.send(Request(host="x", target="/live/table/1")))
        pinged: list[float] = []
        with trio.fail_after(80):
            while len(pinged) < 3:
                client.receive_data(await stream.receive_some(65536))
                for event in client.events():
                    assert not isinstance(event, CloseConnection), event
                    if isinstance(event, Ping):
                        pinged.append(trio.current_time())
                        await stream.send_all(client.send(event.response()))
        gaps = [later - earlier for earlier, later in itertools.pairwise(pinged)]
        assert gaps == [pytest.approx(WEBSOCKET_PING_S, abs=0.5)] * 2, pinged
        assert WEBSOCKET_PING_S < 30  # under the idle timeouts proxies are set to
