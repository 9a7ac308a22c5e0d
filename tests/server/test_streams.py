"""Whole sessions over in-memory streams, on virtual time: no sockets, no real waiting.

The server's connection handler takes any ``trio.abc.Stream`` (``Server.handle``), with
the peer's address as a parameter; the clock jumps whenever every task waits
(``jump_when_idle``, which also waits for the server's worker threads).
"""

from __future__ import annotations

import contextlib
import itertools
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import structlog
import trio
import trio.testing
from trio.testing import MockClock

from deberc_net.server.lobby import Lobby
from deberc_net.server.local import local_stream_pair
from deberc_net.server.matchmaking import game_settings
from deberc_net.server.running import Server
from deberc_net.server.store import Store, open_store
from deberc_net.server.table import Table
from deberc_net.server.table_messages import Stop
from deberc_net.testing import rule_book

from .client import LineClient, fields, is_event, log_in_machine, play_machine, seat_pair
from .conftest import Connector, make_config

Dial = Callable[..., Awaitable[LineClient]]


@pytest.fixture
async def start_memory_server(db_path: Path) -> AsyncIterator[Callable[..., Dial]]:
    """``start(**config)`` runs a lobby and server without a listener, and returns
    ``dial(label, address=...)``: a client on a fresh memory stream pair."""
    stores: list[Store] = []
    lobbies: list[Lobby] = []  # their store writers are closed before the stores, as serve does
    ports = itertools.count(40000)
    async with trio.open_nursery() as nursery:

        def start(**overrides: Any) -> Dial:
            config = make_config(db_path, **overrides)
            store = open_store(config.db, serving=True)
            stores.append(store)
            lobby = Lobby(config, store, nursery, rule_book())
            lobby.table_numbers.fill()  # as serve does before it listens
            lobbies.append(lobby)
            server = Server(config, lobby, nursery)

            async def dial(
                label: str, address: str = "10.0.0.1", banner: bool = True
            ) -> LineClient:
                client_end, server_end = trio.testing.memory_stream_pair()
                nursery.start_soon(server.handle, server_end, address, f"{address}:{next(ports)}")
                if not banner:
                    return LineClient(client_end, label)
                return await LineClient.over(client_end, label)

            return dial

        yield start
        nursery.cancel_scope.cancel()
    for lobby in lobbies:
        lobby.writes.close()
    for store in stores:
        store.close()


async def test_a_guest_logs_in_over_a_memory_stream(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    dial = start_memory_server()
    ann = await dial("ann")
    await ann.send("style machine")
    await ann.expect("ok", cmd="style")
    await ann.send("who")
    assert (await ann.expect("error"))["code"] == "not-logged-in"
    await log_in_machine(ann, "ann")
    assert ann.token
    await ann.send("who")
    assert (await ann.expect("who"))["names"] == "ann"


async def test_two_guests_seek_and_play_a_game_to_its_end(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    dial = start_memory_server()
    ann = await log_in_machine(await dial("ann"), "ann")
    bob = await log_in_machine(await dial("bob"), "bob")
    await seat_pair(ann, bob, "2 to-301")
    ends: dict[str, str] = {}

    async def player(client: LineClient, seed: int) -> None:
        ends[client.label] = await play_machine(client, random.Random(seed), timeout=30)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(player, ann, 1)
        nursery.start_soon(player, bob, 2)
    assert ends["ann"] == ends["bob"] and is_event(ends["ann"], "match-end")
    totals = [int(t) for t in fields(ends["ann"])[1]["totals"].split(",")]
    assert max(totals) >= 301


async def test_a_guest_whose_stream_drops_comes_back_by_token(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    dial = start_memory_server()
    ann = await log_in_machine(await dial("ann"), "ann")
    bob = await log_in_machine(await dial("bob"), "bob")
    table, seat, _ = await seat_pair(ann, bob)
    await ann.aclose()
    assert (await bob.expect("event", kind="away"))["name"] == "ann"
    impostor = await dial("eve")
    await impostor.send("login ann")  # a guest's name is held for its token
    await impostor.read_until(lambda x: x.startswith("Error (name-in-use): ann is in use"))
    again = await log_in_machine(await dial("ann again"), "ann", token=ann.token)
    assert (await again.expect("event", kind="back"))["name"] == "ann"
    assert (await bob.expect("event", kind="back"))["name"] == "ann"
    state = fields(await again.read_until(lambda x: x.startswith(("ask ", "state "))))[1]
    assert state["table"] == str(table) and state["seat"] == str(seat)


async def test_silence_closes_a_connection_on_virtual_time_and_ping_delays_it(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    dial = start_memory_server(login_timeout_ms=15_000, idle_timeout_ms=60_000)
    quiet = await dial("quiet")
    started = trio.current_time()
    await quiet.send("style machine")  # a line, but no login: the login clock runs on
    assert (await quiet.expect("error", timeout=60))["code"] == "login-timeout"
    assert trio.current_time() - started == pytest.approx(15, abs=0.01)
    await quiet.wait_closed()

    ann = await log_in_machine(await dial("ann"), "ann")
    await trio.sleep(40)
    await ann.send("ping")
    await ann.expect("ok", cmd="ping")
    pinged = trio.current_time()
    error = await ann.expect("error", timeout=300)
    assert error["code"] == "idle-timeout"
    assert trio.current_time() - pinged == pytest.approx(60, abs=0.01)
    await ann.wait_closed()


async def test_a_long_idle_limit_ends_a_connection_exactly_its_limit_after_its_last_line(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """The reader's deadline is moved only when the connection's moves a minute or more
    (server/app.py, DEADLINE_SLACK_S): woken before the connection's, it waits on; the
    limit counts from the last line all the same, whenever in it that line came."""
    dial = start_memory_server(idle_timeout_ms=900_000)
    for name, pings_at in (("ann", (100, 130)), ("bob", (100, 870)), ("cid", (30,))):
        client = await log_in_machine(await dial(name), name)
        began = trio.current_time()
        for at in pings_at:
            await trio.sleep(began + at - trio.current_time())
            await client.send("ping")
            await client.expect("ok", cmd="ping")
        pinged = trio.current_time()
        error = await client.expect("error", timeout=2000)
        assert error["code"] == "idle-timeout"
        assert trio.current_time() - pinged == pytest.approx(900, abs=0.01), name
        await client.wait_closed()


async def test_the_per_address_limit_counts_the_address_given_with_the_stream(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    dial = start_memory_server(max_connections_per_address=2)
    kept = [await dial(f"c{i}", address="10.0.0.9") for i in range(2)]
    refused = await dial("c2", address="10.0.0.9", banner=False)
    busy = await refused.expect("error")
    assert busy == {"code": "busy", "text": "too many connections from your address"}
    await refused.wait_closed()
    # the refused end closes too (the server reads a refused client's lines until then,
    # half a second at most: server/running.py _refuse); until then it counts
    await refused.aclose()
    other = await log_in_machine(await dial("other", address="10.0.0.10"), "other")
    await kept[0].aclose()
    await trio.testing.wait_all_tasks_blocked()  # the server has seen it go: a place is free
    again = await log_in_machine(await dial("c3", address="10.0.0.9"), "again")
    await again.send("who")
    assert (await again.expect("who"))["names"].split(",") == ["again", "other"]
    assert not kept[1].eof and not other.eof


def _writer_tasks() -> int:
    """The connections' writer tasks running now (Server._writer)."""
    root = trio.lowlevel.current_root_task()
    assert root is not None  # (None outside trio.run)
    found, tasks = 0, [root]
    while tasks:
        task = tasks.pop()
        found += task.coro.cr_code.co_name == "_writer"
        tasks.extend(t for n in task.child_nurseries for t in n.child_tasks)
    return found


@contextlib.asynccontextmanager
async def _ann_on_a_bounded_stream(db_path: Path) -> AsyncIterator[tuple[Server, LineClient]]:
    """A server without a listener and ``ann`` logged in to it over a stream that holds
    as little as a socket does; the server stops when the block ends."""
    async with _served_without_listener(db_path) as (_, server, nursery):
        client_end, server_end = local_stream_pair()  # bounded, as a socket is
        nursery.start_soon(server.handle, server_end, "10.0.0.1", "10.0.0.1:1")
        yield server, await log_in_machine(await LineClient.over(client_end, "ann"), "ann")


@contextlib.asynccontextmanager
async def _served_without_listener(
    db_path: Path,
) -> AsyncIterator[tuple[Lobby, Server, trio.Nursery]]:
    """A lobby and server on a fresh store, without a listener, and their nursery; when
    the block ends the server stops, what its tables queued is written (as serve does)
    and the store closes."""
    config = make_config(db_path)
    store = open_store(config.db, serving=True)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rule_book())
            yield lobby, Server(config, lobby, nursery), nursery
            nursery.cancel_scope.cancel()
        lobby.writes.close()
    finally:
        store.close()


async def test_an_idle_connection_has_no_writer_task_and_a_burst_gets_one_till_sent(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    async with _ann_on_a_bounded_stream(db_path) as (_, ann):
        await trio.testing.wait_all_tasks_blocked()
        assert _writer_tasks() == 0  # every line so far went out at once
        for _ in range(40):  # far more than the stream holds: the rest waits
            await ann.send("help")
        await trio.testing.wait_all_tasks_blocked()
        assert _writer_tasks() == 1
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")  # every help before it came whole, in order
        await trio.testing.wait_all_tasks_blocked()
        assert _writer_tasks() == 0


async def test_an_idle_names_chat_and_lists_allowances_are_made_when_first_spent(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """A name's chat and lists buckets (server/allowance.py) are made by its first 'say'
    and its first long list, not at its login: an idle logged-in connection holds
    neither (docs/performance.md, "Idle logged-in connections again")."""
    async with _ann_on_a_bounded_stream(db_path) as (server, ann):
        lobby = server.lobby
        assert (len(lobby.name_says), len(lobby.name_lists)) == (0, 0)
        await ann.send("say hello")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
        assert (len(lobby.name_says), len(lobby.name_lists)) == (1, 0)
        await ann.send("who")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
        assert (len(lobby.name_says), len(lobby.name_lists)) == (1, 1)


async def test_an_idle_connections_own_allowances_are_made_when_first_spent(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """A connection's chat, lists and seat allowances (each drawing on its address's)
    are made when it first spends one: an idle logged-in connection holds none, and
    its first 'say' spends a token of the ones then made (docs/performance.md, "Idle
    logged-in connections again")."""
    async with _ann_on_a_bounded_stream(db_path) as (server, ann):
        (session,) = server.sessions
        assert (session.says, session.lists, session.seat_churn) == (None, None, None)
        await ann.send("say hello")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
        says, lists, churn = session.buckets()
        now = trio.current_time()
        assert not says.full(now)  # its token spent there
        assert lists.full(now) and churn.full(now)


def _tasks_named(name: str) -> list[trio.lowlevel.Task]:
    root = trio.lowlevel.current_root_task()
    assert root is not None  # (None outside trio.run)
    found: list[trio.lowlevel.Task] = []
    tasks = [root]
    while tasks:
        task = tasks.pop()
        if task.coro.cr_code.co_name == name:
            found.append(task)
        tasks.extend(t for n in task.child_nurseries for t in n.child_tasks)
    return found


async def test_an_idle_logged_in_socket_connection_is_one_task_without_a_nursery(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """What an idle connection holds is what keeps many of them cheap (docs/
    performance.md): its handler is the task's one coroutine of ours, with no nursery of
    its own and no writer task; a burst the socket cannot take gets a writer, which
    ends once everything is sent."""
    port = await start_server()
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await trio.testing.wait_all_tasks_blocked()
    handlers = _tasks_named("handle")
    assert len(handlers) == 2
    assert all(not task.child_nurseries for task in handlers)
    assert _writer_tasks() == 0
    await ann.send("ping")  # both still served
    await ann.expect("ok", cmd="ping")
    await bob.send("ping")
    await bob.expect("ok", cmd="ping")
    await ann.aclose()
    with trio.fail_after(30):  # the server sees ann's end
        while len(_tasks_named("handle")) != 1:
            await trio.sleep(0.01)
    await bob.send("who")
    assert (await bob.expect("who"))["names"] == "bob"


class _TableSteps(trio.abc.Instrument):
    """Counts the steps of the tables' own tasks (Table.run)."""

    def __init__(self) -> None:
        self.steps = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        if task.coro.cr_code.co_name == "run" and "Table" in task.name:
            self.steps += 1


async def test_a_call_to_a_waiting_table_is_handled_by_its_reader_without_waking_the_table(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """The reader that receives a call hands it to the table itself when the table's
    task waits idle (Table.call_here): a whole match is played with the table's own
    task hardly ever running, and plays as it always did."""
    dial = start_memory_server()
    ann = await log_in_machine(await dial("ann"), "ann")
    bob = await log_in_machine(await dial("bob"), "bob")
    await seat_pair(ann, bob, "2 to-301")
    asks = 0

    async def player(client: LineClient, seed: int) -> None:
        nonlocal asks
        rng = random.Random(seed)
        while True:
            line = await client.read_until(lambda _: True, 30)
            tag, f = fields(line)
            assert tag != "error", line
            if is_event(line, "match-end"):
                return
            if tag == "ask" and f.get("legal"):
                asks += 1
                await client.send(f"{rng.choice(f['legal'].split(','))} seq={f['seq']}")

    steps = _TableSteps()
    trio.lowlevel.add_instrument(steps)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(player, ann, 1)
            nursery.start_soon(player, bob, 2)
    finally:
        trio.lowlevel.remove_instrument(steps)
    assert asks > 50
    assert steps.steps < asks / 10, (steps.steps, asks)


@contextlib.asynccontextmanager
async def _ann_and_bob_at_a_waiting_table(
    db_path: Path,
) -> AsyncIterator[tuple[Table, list[LineClient]]]:
    """A server without a listener, ``ann`` and ``bob`` logged in to it over local streams
    and seated together at a table that waits for a call: the table and the two players,
    ann first; the server stops when the block ends."""
    async with _served_without_listener(db_path) as (lobby, server, nursery):
        players: list[LineClient] = []
        for n, name in enumerate(("ann", "bob"), 1):
            client_end, server_end = local_stream_pair()
            nursery.start_soon(server.handle, server_end, f"10.0.0.{n}", f"10.0.0.{n}:1")
            client = await LineClient.over(client_end, name)
            players.append(await log_in_machine(client, name))
        table_id, _, _ = await seat_pair(players[0], players[1])
        await trio.testing.wait_all_tasks_blocked()
        table = lobby.tables[table_id]
        assert table.inbox.waiting and table.match is not None
        yield table, players


async def test_a_table_closed_while_a_reader_holds_it_does_not_play_on_at_its_clock(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """The table's clock comes due while a reader handles its messages (``handle_here``:
    the inbox held while a post is made and handled, then let go as ``call_here`` lets
    it go after a reader's call), and one of them closes the table (an admin's stop,
    posted meanwhile): the table's task, let go, finds it closed and does not make the
    late seat's call for it (nor forfeit anyone) after its players were told so."""
    async with _ann_and_bob_at_a_waiting_table(db_path) as (table, players):
        deadline = table.clocks.deadline()

        async def post() -> None:  # as the lobby posts a call a reader hands the table
            assert table.post(Stop("stopped by the test"))
            await trio.sleep_until(deadline + 0.5)  # the clock comes due meanwhile

        await table.handle_here(post)  # the stop: the table closes
        assert not table.inbox.held
        for client in players:
            await client.read_until(lambda line: "closes" in line)
            closed_at = client.pos
            await client.send("ping")
            await client.expect("ok", cmd="ping")
            after = client.lines[closed_at : client.pos]
            assert not [line for line in after if line.startswith("event ")], after


async def test_a_post_that_fails_in_handle_here_leaves_the_table_released(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """``handle_here`` holds the inbox for its post and releases it whatever happens: a
    post that fails leaves a table whose own task takes the next call."""
    async with _ann_and_bob_at_a_waiting_table(db_path) as (table, players):
        assert table.match is not None
        asked = players[table.match.to_act or 0]

        async def failing_post() -> None:
            assert table.inbox.held  # held while posting
            raise RuntimeError("the lobby failed")

        with pytest.raises(RuntimeError, match="the lobby failed"):
            await table.handle_here(failing_post)
        assert not table.inbox.held and table.inbox.waiting
        _, ask = fields(await asked.read_until(lambda line: line.startswith("ask ")))
        await asked.send(f"{ask['legal'].split(',')[0]} seq={ask['seq']}")
        seen = await asked.read_until(lambda line: line.startswith(("event ", "error ")))
        assert seen.startswith("event "), seen  # the table's own task handled it


async def test_lines_sent_at_once_never_wait_at_tables_beyond_the_request_quota(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """The request quota counts a connection's requests waiting at any table; its reader
    hands a table the next line only once the line before has been handled there
    (docs/protocol.md §2.3), so lines sent at once never pass the quota: more
    ``observe``s of another table than the quota, then a call, are all answered, in
    order, none ``busy`` (docs/performance.md)."""
    async with _ann_and_bob_at_a_waiting_table(db_path) as (table, players):
        lobby = table.lobby
        assert table.match is not None
        asked = players[table.match.to_act or 0]
        _, ask = fields(await asked.read_until(lambda line: line.startswith("ask ")))
        other = lobby.open_table(game_settings((), lobby.rules))  # waits for players
        quota = lobby.config.table_requests_waiting
        call = f"{ask['legal'].split(',')[0]} seq={ask['seq']}\n"
        await asked.send_raw(f"observe {other.id}\n".encode() * (quota + 2) + call.encode())
        made = f"table={table.id} kind=call seat={ask['seat']}"  # (a bidding call, first)
        seen = await asked.read_until(lambda line: line.startswith("error ") or made in line)
        assert seen.startswith("event "), seen
        oks = [x for x in asked.lines if "cmd=observe" in x]
        assert len(oks) == quota + 2 and all(x.startswith("ok ") for x in oks), oks


async def test_a_client_that_says_quit_and_reads_nothing_is_let_go_of(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """A connection that ends with more queued than its client reads (a goodbye's flush)
    does not hold its slot for ever: the server waits a while for it, then closes it."""
    async with _ann_on_a_bounded_stream(db_path) as (server, ann):
        for _ in range(40):  # far more than the stream holds: the rest waits
            await ann.send("help")
        await ann.send("quit")  # and it reads nothing more
        with trio.fail_after(3600):
            while server.sessions or server.per_address:
                await trio.sleep(1)


async def _in_step(client: LineClient) -> int:
    """Where ``client``'s next line will be, once the server has answered all it sent
    before (a ``ping``'s answer read)."""
    await client.send("ping")
    await client.expect("ok", cmd="ping")
    return len(client.lines)


async def test_replies_come_in_the_order_of_the_lines_each_in_the_style_it_was_read_in(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """A line the table answers (``state``) and lobby lines after it (``style``, ``who``),
    sent in one write: each reply comes in the order of the lines, and the second
    ``state`` is drawn in the human style chosen just before it (docs/protocol.md
    §2.3). Failed before: the table's replies came last, both in the machine style."""
    async with _ann_and_bob_at_a_waiting_table(db_path) as (_, players):
        for client in players:
            start = await _in_step(client)
            await client.send_raw(b"state\nwho\nstate\nstyle human\nstate\nstyle machine\nwho\n")
            await client.read_until(lambda line: line.startswith("who "))
            await client.read_until(lambda line: line.startswith("who "))
            lines = client.lines[start:]
            assert lines[0].startswith(("ask ", "state ")), lines
            assert lines[1].startswith("who "), lines
            assert lines[2].startswith(("ask ", "state ")), lines
            human = lines[3 : lines.index(next(x for x in lines if x.startswith("ok cmd=style")))]
            assert human[0] == "Style human.", lines
            assert len(human) > 3 and not [x for x in human if x.startswith(("ask ", "state "))]
            assert lines[-2].startswith("ok cmd=style style=machine"), lines
            assert lines[-1].startswith("who ") and len(lines) == len(human) + 5, lines


async def test_a_table_calls_reply_comes_before_a_later_pings_passed_on_or_not(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """A call, then ``ping``: the call's events come first, whether the reader handles the
    call itself (the table idle) or passes it on (behind a ``state``, still waiting at
    the table). Failed before for the call passed on: ``ok cmd=ping`` came first."""
    async with _ann_and_bob_at_a_waiting_table(db_path) as (table, players):
        for burst in ("{call}\nping\n", "state\n{call}\nping\n"):
            assert table.match is not None
            asked = players[table.match.to_act or 0]
            await _in_step(asked)
            await asked.send("state")
            _, ask = fields(await asked.read_until(lambda line: line.startswith("ask ")))
            start = len(asked.lines)
            call = f"{ask['legal'].split(',')[0]} seq={ask['seq']}"
            await asked.send_raw(burst.format(call=call).encode())
            await asked.expect("ok", cmd="ping")
            lines = asked.lines[start:]
            if burst.startswith("state"):
                assert lines[0].startswith("ask "), lines
                lines = lines[1:]
            assert lines[0].startswith("event ") and f"seat={ask['seat']}" in lines[0], lines
            assert lines[-1].startswith("ok cmd=ping"), lines
            assert not [x for x in lines if x.startswith("error ")], lines


async def test_new_and_a_resuming_login_are_answered_before_the_next_line(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """'new' is answered by its table (``ok cmd=sit``), a login that takes a seat back by
    the table's state: both before the reply to a line sent with them."""
    dial = start_memory_server()
    ann = await log_in_machine(await dial("ann"), "ann")
    await ann.send_raw(b"new 2\nwho\n")
    await ann.expect("who")
    assert [x.split()[:2] for x in ann.lines[-3:]] == [
        ["ok", "cmd=sit"],
        ["event", "seq=1"],
        ["who", "count=1"],
    ], ann.lines
    bob = await log_in_machine(await dial("bob"), "bob")
    await bob.send(f"sit {fields(ann.lines[-3])[1]['table']}")
    await bob.expect("ok", cmd="sit")
    await bob.aclose()
    await ann.expect("event", kind="away")
    again = await dial("bob again")
    await again.send_raw(f"style machine\nlogin bob token={bob.token}\nwho\n".encode())
    await again.expect("who")
    tags = [x.split()[0] for x in again.lines]
    assert tags[-5:] == ["ok", "ok", "event", "state", "who"] or tags[-5:] == [
        "ok",
        "ok",
        "event",
        "ask",
        "who",
    ], again.lines


async def test_a_wait_for_a_table_cut_short_by_the_readers_deadline_loses_no_line(
    start_memory_server: Callable[..., Dial],
    db_path: Path,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """'new', then ``ping``: the reader waits for the new table to seat its opener before
    it takes the ping (docs/protocol.md §2.3), and the table waits for the store (locked
    here by another program). The reader's deadline, set before the read (up to
    DEADLINE_SLACK_S early), passes during that wait, well before the connection's
    own: the ping is still answered. Failed before: the ping was left unread till more
    bytes came (or the idle deadline closed the connection)."""
    dial = start_memory_server(idle_timeout_ms=120_000)
    ann = await log_in_machine(await dial("ann"), "ann")
    await trio.sleep(50)  # the reader's deadline: 70 s from the next line, the idle one 120
    lock = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    try:
        lock.execute("BEGIN EXCLUSIVE")
        await ann.send_raw(b"new 2\nping\n")
        # (a thread's wait: the virtual clock does not jump meanwhile, jump_when_idle)
        await trio.to_thread.run_sync(time.sleep, 0.3)  # the table's draw waits for the lock
        virtual_clock.jump(80)
        await trio.to_thread.run_sync(time.sleep, 0.1)
    finally:
        lock.rollback()
        lock.close()
    await ann.expect("ok", cmd="ping")
    tags = [line.split()[:2] for line in ann.lines[-3:]]
    assert tags == [["ok", "cmd=sit"], ["event", "seq=1"], ["ok", "cmd=ping"]], ann.lines


async def test_leave_stops_observing_every_table_however_many_are_watched(
    db_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """'leave' by someone who sits nowhere leaves every table he observes, however many
    (one line, one Leave at each table: the request quota, which keeps one sender from
    filling a table's queue, has nothing to keep here). Failed before: past the quota,
    'busy', and those tables still watched."""
    async with _served_without_listener(db_path) as (lobby, server, nursery):
        client_end, server_end = local_stream_pair()
        nursery.start_soon(server.handle, server_end, "10.0.0.1", "10.0.0.1:1")
        eve = await log_in_machine(await LineClient.over(client_end, "eve"), "eve")
        count = lobby.config.table_requests_waiting + 2
        tables = [lobby.open_table(game_settings((), lobby.rules)) for _ in range(count)]
        for table in tables:
            await eve.send(f"observe {table.id}")
            await eve.expect("ok", cmd="observe")
        start = await _in_step(eve)
        await eve.send("leave")
        await _in_step(eve)
        replies = [x for x in eve.lines[start:] if x.startswith(("ok cmd=leave", "error "))]
        assert len(replies) == count and all(x.startswith("ok ") for x in replies), replies
        assert not any(eve.label in {s.name for s in t.observers} for t in tables)


async def test_a_flood_of_refusals_is_one_line_then_a_summary_a_minute(
    start_memory_server: Callable[..., Dial], virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """docs/settings.md, "Logs": ``refused`` once whole, then counted (server/summaries.py)."""
    dial = start_memory_server(max_connections=1)
    kept = await log_in_machine(await dial("kept"), "kept")
    with structlog.testing.capture_logs() as logs:
        for n in range(6):
            refused = await dial(f"r{n}", address=f"10.0.0.{20 + n % 2}", banner=False)
            assert (await refused.expect("error"))["text"] == "the server is full"
            await refused.wait_closed()
            await refused.aclose()
        await trio.sleep(61)
    lines = [line for line in logs if line["event"] == "refused"]
    assert [line.get("peer", "").split(":")[0] for line in lines] == ["10.0.0.20", ""]
    assert lines[1]["repeated"] == 5 and lines[1]["top"] == {"10.0.0.21": 3, "10.0.0.20": 2}
    await kept.send("ping")
    await kept.expect("ok", cmd="ping")
