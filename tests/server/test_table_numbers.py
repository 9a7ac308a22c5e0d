"""Table ids are never the same twice on one database: a restarted server goes on past
the last one its predecessor drew, so an old /table/N link or `join N` does not land at
another table (docs/protocol.md §5.2). They are drawn ahead from the store."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import trio
import trio.testing
from structlog.testing import capture_logs

from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.node import Node
from deberc_net.server.cluster.payloads import settings_for_bus, who_for_bus
from deberc_net.server.lobby import MATCH_NUMBER_BLOCK, Lobby
from deberc_net.server.matchmaking import GameSettings
from deberc_net.server.rematch import Offer
from deberc_net.server.running import Server
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import StoreError, open_store
from deberc_net.server.table_numbers import AHEAD, KEPT, TableNumbers
from deberc_net.testing import rule_book

from .client import LineClient, fields, is_event, log_in_machine, seat_pair
from .conftest import Connector, make_config, running_server


async def _match_of(client: LineClient) -> str:
    """The match id of the ``start`` event ``client`` is told."""
    started = await client.read_until(lambda x: is_event(x, "start"))
    return fields(started)[1]["match"]


async def test_a_restarted_server_numbers_its_tables_and_matches_on_from_the_last_ones(
    db_path: Path, connect: Connector
) -> None:
    # failed before: the second server's first table was table 1 again; then it was
    # table 33 and match m17, past the blocks the first server drew and never used (a
    # club's admin expects table 3 after table 2): a clean stop gives them back
    config = make_config(db_path)
    async with running_server(config) as port:
        ann, bob = await connect.machine(port, "ann"), await connect.machine(port, "bob")
        first, _, _ = await seat_pair(ann, bob)
        carl, dan = await connect.machine(port, "carl"), await connect.machine(port, "dan")
        second, _, _ = await seat_pair(carl, dan)
        matches = [await _match_of(ann), await _match_of(carl)]
    assert (first, second) == (1, 2) and sorted(matches) == ["m1", "m2"]
    await connect.aclose()
    async with running_server(config) as port:
        eve, fay = await connect.machine(port, "eve"), await connect.machine(port, "fay")
        after, _, _ = await seat_pair(eve, fay)
        match = await _match_of(eve)
    assert (after, match) == (3, "m3")  # never one used before, and no gap


def test_numbers_given_back_only_if_no_other_process_drew_since(tmp_path: Path) -> None:
    """Two stores on one SQLite file: one's block, once the other drew past it, is not
    given back (its numbers would be handed out twice); the other's is, then drawn again."""
    db = str(tmp_path / "two.sqlite3")
    one, other = open_store(db), open_store(db)
    try:
        assert one.new_table_numbers(AHEAD) == list(range(1, AHEAD + 1))
        assert other.new_table_numbers(4) == list(range(AHEAD + 1, AHEAD + 5))
        assert not one.give_back_numbers("table_numbers", 3, AHEAD)  # drawn past
        assert other.give_back_numbers("table_numbers", AHEAD + 2, AHEAD + 4)
        assert one.new_table_numbers(2) == [AHEAD + 2, AHEAD + 3]
        assert not one.give_back_numbers("nosuch", 1, 2)  # (only the two counters)
    finally:
        one.close()
        other.close()


async def test_match_numbers_with_one_handed_out_among_them_are_not_given_back(
    db_path: Path,
) -> None:
    """Two tables drew match numbers at once: the first block's numbers are handed out
    after one of the second's (the list is popped from its end), so those left have a
    hole. Given back from their lowest, the one in the hole would be handed out again:
    nothing is given back, and the next draw goes on past both blocks."""
    config = make_config(db_path)
    store = open_store(config.db, serving=True)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rule_book())
            handed: list[int] = []

            async def match_number() -> None:
                handed.append(await lobby.new_match_number())

            async with trio.open_nursery() as tables:  # both find none left, both draw
                tables.start_soon(match_number)
                tables.start_soon(match_number)
            assert sorted(handed) == [1, MATCH_NUMBER_BLOCK + 1]
            lobby.writes.close()
            lobby.give_back_numbers()  # as the server stops
            nursery.cancel_scope.cancel()
        assert store.new_match_numbers(1) == [2 * MATCH_NUMBER_BLOCK + 1]
    finally:
        store.close()


RELEASE_S = 20  # the held draw's fail-safe (the test's loop, blocked, cannot release it)


class _Spawner:
    def __init__(self) -> None:
        self.started: list[object] = []

    def start_soon(self, async_fn: object, *args: object, name: object = None) -> None:
        self.started.append(async_fn)


def _store_away(count: int) -> list[int]:
    raise OSError("the database is away")


async def test_a_lone_server_whose_database_is_away_goes_on_from_its_own_highest() -> None:
    # and never waits on the store in its loop: a review found each table's draw held
    # every connection for the database's timeout while it was away
    outcomes: list[list[int] | None] = [[1, 2], None, [2, 3, 4, 5]]  # None: away
    drawn_on: list[threading.Thread] = []

    def draw(count: int) -> list[int]:
        drawn_on.append(threading.current_thread())
        got = outcomes.pop(0)
        if got is None:
            raise OSError("the database is away")
        return got

    async with trio.open_nursery() as nursery:
        numbers = TableNumbers(draw, nursery, shared=False)
        await trio.to_thread.run_sync(numbers.fill)  # as the server starts
        assert [numbers.next(), numbers.next()] == [1, 2]
        with trio.fail_after(30):
            while numbers.drawing:  # (the draw in a thread fails)
                await trio.sleep(0.01)
        assert numbers.next() == 3  # its own: unique while it runs, told in its log
        with trio.fail_after(30):
            while numbers.drawing:  # the store's again once it answers
                await trio.sleep(0.01)
        assert [numbers.next(), numbers.next()] == [4, 5]  # (2 and 3 used: skipped)
    assert threading.main_thread() not in drawn_on


def test_workers_never_number_a_table_the_store_did_not_give_them() -> None:
    # nor draw one in place, in the loop: with none at hand an opener waits (below)
    drawn: list[int] = []

    def draw(count: int) -> list[int]:
        drawn.append(count)
        return []

    numbers = TableNumbers(draw, _Spawner(), shared=True)
    assert not numbers.at_hand()
    try:
        numbers.next()
    except StoreError as exc:
        assert "no table number at hand" in str(exc)
    else:
        raise AssertionError("a worker numbered a table on its own")
    assert drawn == []


async def test_more_are_drawn_in_the_background_when_half_are_used() -> None:
    blocks = [list(range(1, AHEAD + 1)), list(range(AHEAD + 1, 2 * AHEAD + 1))]
    asked: list[int] = []

    def draw(count: int) -> list[int]:
        asked.append(count)
        return blocks[len(asked) - 1]

    async with trio.open_nursery() as nursery:
        numbers = TableNumbers(draw, nursery, shared=False)
        numbers.fill()
        used = [numbers.next() for _ in range(AHEAD // 2 + 1)]
        with trio.fail_after(30):
            while len(asked) < 2:  # (drawn in a thread)
                await trio.sleep(0.01)
        # down to half a block again: nothing more is drawn yet
        used += [numbers.next() for _ in range(AHEAD - 1)]
        await trio.testing.wait_all_tasks_blocked()
    assert used == list(range(1, AHEAD + AHEAD // 2 + 1))
    assert asked == [AHEAD, AHEAD]


def test_a_burst_that_outruns_a_draw_on_its_way_is_no_warning() -> None:
    """A ladder's boards on a busy SQLite file used every number drawn ahead while the
    next draw was still on its way: the 'database away' warning went to the ladder's
    standard error (a hangup's test read it there). The draw on its way says a burst:
    info; with none, as when the database is away, still the warning."""
    spawner = _Spawner()  # keeps the background draw from ever running: on its way
    numbers = TableNumbers(lambda count: list(range(1, count + 1)), spawner, shared=False)
    numbers.fill()
    with capture_logs() as logs:
        used = [numbers.next() for _ in range(AHEAD + 1)]
    assert used == list(range(1, AHEAD + 2)) and numbers.drawing
    told = [(x["event"], x["log_level"], x.get("then")) for x in logs]
    assert told == [("table_numbers_burst", "info", AHEAD + 1)]
    away = TableNumbers(_store_away, _Spawner(), shared=False)
    with capture_logs() as logs:
        away.next()  # the first draw in place fails: no draw on its way
    assert ("table_numbers_ahead_used", "warning") in [(x["event"], x["log_level"]) for x in logs]


async def test_a_workers_new_table_waits_for_its_number_and_the_loop_runs_on(
    db_path: Path,
) -> None:
    """A worker (its numbers shared: it numbers no table on its own) with none left: a
    'new' waits for the draw in a thread while everyone else is answered. The draw is
    held until the test has read bob's pong. Failed before: the draw ran in place, in
    the server's loop, and the pong came only after it (once the draw gave up its wait:
    RELEASE_S, a fail-safe, never reached when it passes)."""
    held = threading.Event()
    returned: list[str] = []  # what the test saw, and when the held draw returned
    calls: list[int] = []

    def draw(count: int) -> list[int]:
        calls.append(count)
        if len(calls) == 1:  # the first draw (at start) gives none: a burst used them
            return []
        if len(calls) == 2:  # the draw for ann's table: held
            held.wait(RELEASE_S)
            returned.append("draw")
        return list(range(7 * len(calls), 7 * len(calls) + 3))

    try:
        async with _a_worker(db_path, draw) as (lobby, dial):
            lobby.table_numbers.fill()  # as a worker's node does before it listens
            ann, bob = await dial("ann"), await dial("bob")
            await ann.send("new 2")
            with trio.fail_after(2 * RELEASE_S):
                while len(calls) < 2:  # the draw for ann's table has begun (and is held)
                    await trio.sleep(0.01)
            await bob.send("ping")
            await bob.expect("ok", cmd="ping")
            returned.append("pong")
            held.set()
            sat = await ann.expect("ok", cmd="sit")
            assert returned == ["pong", "draw"] and sat["table"] == "14"
    finally:
        held.set()


async def test_a_line_that_may_open_a_table_waits_only_while_few_numbers_are_left() -> None:
    """More than KEPT left: no wait, no draw; KEPT or fewer: a draw (the one on its way,
    or one of its own), waited for; the database away with none left: refused at once
    (a StoreError), not drawn in place. A lone server never waits."""
    asked: list[int] = []

    def draw(count: int) -> list[int]:
        asked.append(count)
        if len(asked) == 3:
            raise OSError("the database is away")
        return list(range(len(asked) * 100, len(asked) * 100 + KEPT + 1))

    async with trio.open_nursery() as nursery:
        numbers = TableNumbers(draw, nursery, shared=True)
        numbers.fill()  # KEPT + 1: 100 up
        await numbers.ready()
        assert asked == [AHEAD]  # (no draw: more than KEPT left)
        assert numbers.next() == 100  # KEPT left, a draw on its way (half are used)
        await numbers.ready()  # waited for
        assert len(asked) == 2 and not numbers.drawing
        used = [numbers.next() for _ in range(2 * KEPT + 1)]  # (the third draw on its way)
        assert used == [*range(101, 101 + KEPT), *range(200, 200 + KEPT + 1)]
        try:
            await numbers.ready()  # none left, and that draw fails
        except StoreError as exc:
            assert "database is away" in str(exc)
        else:
            raise AssertionError("a line went on to draw in place")
        assert len(asked) == 3
        own = TableNumbers(lambda count: [1, 2][:count], nursery, shared=True)
        own.fill()  # (two: KEPT or fewer)
        own.draw = lambda count: list(range(3, 3 + count))
        await own.ready()  # no draw on its way: its own, waited for
        assert [own.next() for _ in range(3)] == [1, 2, 3]
    lone = TableNumbers(draw, _Spawner(), shared=False)
    await lone.ready()  # a lone server numbers on its own: it never waits
    assert len(asked) == 3


async def test_a_workers_new_table_with_its_database_away_is_refused_busy(
    db_path: Path,
) -> None:
    """None left and the draw failing: ann's 'new' is refused 'busy', saying the
    database is away, and her connection serves on. It was refused 'internal' (a bug,
    report it) and logged as a command's error: the stall2 helper's note (s48)."""

    def draw(count: int) -> list[int]:
        raise OSError("the database is away")

    async with _a_worker(db_path, draw) as (lobby, dial):
        ann = await dial("ann")
        with capture_logs() as logs:
            await ann.send("new 2")
            refused = await ann.expect("error", code="busy")
        assert "cannot reach its database" in refused["text"], refused
        assert "command_error" not in [x["event"] for x in logs]
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
        assert lobby.tables == {}


@contextlib.asynccontextmanager
async def _a_worker(
    db_path: Path, draw: Callable[[int], list[int]]
) -> AsyncIterator[tuple[Lobby, Callable[[str], Awaitable[LineClient]]]]:
    """A server in this process numbering its tables as a worker does (``draw``: the
    store's draw), and a way to log a machine-style player in to it over memory."""
    config = make_config(db_path)
    store = open_store(config.db, serving=True)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rule_book())
            lobby.table_numbers = TableNumbers(draw, nursery, shared=True)
            server = Server(config, lobby, nursery)

            async def dial(label: str) -> LineClient:
                client_end, server_end = trio.testing.memory_stream_pair()
                nursery.start_soon(server.handle, server_end, "10.0.0.1", f"10.0.0.1:{label}")
                return await log_in_machine(await LineClient.over(client_end, label), label)

            yield lobby, dial
            lobby.writes.close()
            nursery.cancel_scope.cancel()
    finally:
        store.close()


def _seek_from_another_worker(name: str, sid: int) -> dict[str, Any]:
    """The bus's 'seek' of a player of worker 1 for a moscow game of 2."""
    seeker = Session(sid, Outbox(1 << 16), trio.CancelScope())
    seeker.name = name
    settings = settings_for_bus(GameSettings(2, "moscow", ()))
    return {"k": "seek", "w": 1, "s": sid, "who": who_for_bus(seeker), "settings": settings}


async def test_a_seek_met_from_another_worker_with_no_number_left_waits_for_the_draw(
    db_path: Path,
) -> None:
    """ann waits with 'seek 2' at a worker; tables that opened there without a line of
    their own used every number left, their draw held by the store; dora's seek from
    another worker meets ann's. The two wait for the draw, bob's 'ping' answered
    meanwhile, and sit at a table numbered from it once it is released. Failed before:
    the table drew in place, in the loop (the pong came only after the held draw gave
    up its wait: RELEASE_S, a fail-safe, never reached when it passes)."""
    held = threading.Event()
    returned: list[str] = []  # what the test saw, and when each held draw returned
    calls: list[int] = []

    def draw(count: int) -> list[int]:
        calls.append(count)
        if len(calls) > 1:  # every draw after the first (at start): held
            held.wait(RELEASE_S)
            returned.append("draw")
        return list(range(100 * len(calls), 100 * len(calls) + count))

    try:
        async with _a_worker(db_path, draw) as (lobby, dial):
            lobby.node = Node(lobby, WorkerPlace(0, 2), 111)
            lobby.table_numbers.fill()
            ann, bob = await dial("ann"), await dial("bob")
            await ann.send("seek 2")
            await ann.expect("ok", cmd="seek")
            for _ in range(AHEAD):  # those tables (a draw on its way from the 16th)
                lobby.table_numbers.next()
            assert lobby.table_numbers.drawing
            async with trio.open_nursery() as hearing:
                hearing.start_soon(_heard, lobby, _seek_from_another_worker("dora", 9))
                await bob.send("ping")
                await bob.expect("ok", cmd="ping")
                returned.append("pong")
            assert returned == ["pong"]  # (before: the draw in place, in the loop, first)
            assert [s.name for s in lobby.matchmaking.seekers] == ["ann", "dora"]
            held.set()
            sat = await ann.expect("ok", cmd="sit")
            assert returned == ["pong", "draw"] and sat["table"] == "200", (returned, sat)
            assert lobby.tables[200].seats == ["ann", "dora"]
    finally:
        held.set()


async def test_seekers_met_with_no_number_left_and_the_draw_failing_are_refused_busy(
    db_path: Path,
) -> None:
    """As above, the draw failing (its database away): ann and dora are told 'busy'
    (the database away), their seeks forgotten, no table opened and none drawn in
    place; the next draw, for bob's 'new', serves again."""
    calls: list[int] = []

    def draw(count: int) -> list[int]:
        calls.append(count)
        if len(calls) == 2:  # the first at start; then away; then back
            raise OSError("the database is away")
        return list(range(100 * len(calls), 100 * len(calls) + count))

    async with _a_worker(db_path, draw) as (lobby, dial):
        lobby.node = node = Node(lobby, WorkerPlace(0, 2), 111)
        lobby.table_numbers.fill()
        ann, bob = await dial("ann"), await dial("bob")
        await ann.send("seek 2")
        await ann.expect("ok", cmd="seek")
        for _ in range(AHEAD):
            lobby.table_numbers.next()
        with capture_logs():
            node.hear(_seek_from_another_worker("dora", 9))
            refused = await ann.expect("error", code="busy")
        assert "cannot reach its database" in refused["text"], refused
        assert lobby.matchmaking.seekers == [] and lobby.tables == {}
        told = str(node.bus.waiting())  # (dora's lines, for her worker)
        assert told.count("cannot reach its database") == 1, told
        await bob.send("new 2")
        sat = await bob.expect("ok", cmd="sit")
        assert sat["table"] == "300" and len(calls) == 3


async def test_a_rematch_agreed_from_another_worker_with_no_number_left_waits_for_the_draw(
    db_path: Path,
) -> None:
    """ann (here) asked for a rematch of her match with dora (at another worker); the
    numbers left used, their draw held by the store, dora's 'rematch' comes over the
    bus: the rematch starts once the draw is released, bob answered meanwhile. Failed
    before as the seek above did: its table drew in place, in the loop."""
    held = threading.Event()
    returned: list[str] = []
    calls: list[int] = []

    def draw(count: int) -> list[int]:
        calls.append(count)
        if len(calls) > 1:
            held.wait(RELEASE_S)
            returned.append("draw")
        return list(range(100 * len(calls), 100 * len(calls) + count))

    try:
        async with _a_worker(db_path, draw) as (lobby, dial):
            lobby.node = Node(lobby, WorkerPlace(0, 2), 111)
            lobby.table_numbers.fill()
            ann, bob = await dial("ann"), await dial("bob")
            offer = _asked_by_ann(lobby)
            for _ in range(AHEAD):  # tables opened without a line here meanwhile
                lobby.table_numbers.next()
            asked = _seek_from_another_worker("dora", 9) | {"k": "rematch"}  # (its speaker)
            async with trio.open_nursery() as hearing:
                hearing.start_soon(_heard, lobby, asked)
                await bob.send("ping")
                await bob.expect("ok", cmd="ping")
                returned.append("pong")
            assert returned == ["pong"] and offer.open
            held.set()
            sat = await ann.expect("ok", cmd="sit")
            assert sat["table"] == "200" and not offer.open, sat
            assert lobby.tables[200].reserved == ("dora", "ann")
    finally:
        held.set()


async def test_a_rematch_agreed_from_another_worker_with_the_draw_failing_stays_on_offer(
    db_path: Path,
) -> None:
    """As above, the draw failing (its database away): ann and dora are told 'busy',
    the offer stands, and ann's 'rematch' again (a line: it draws again) starts it."""
    calls: list[int] = []

    def draw(count: int) -> list[int]:
        calls.append(count)
        if len(calls) == 2:
            raise OSError("the database is away")
        return list(range(100 * len(calls), 100 * len(calls) + count))

    async with _a_worker(db_path, draw) as (lobby, dial):
        lobby.node = node = Node(lobby, WorkerPlace(0, 2), 111)
        lobby.table_numbers.fill()
        ann = await dial("ann")
        offer = _asked_by_ann(lobby)
        for _ in range(AHEAD):
            lobby.table_numbers.next()
        with capture_logs():
            node.hear(_seek_from_another_worker("dora", 9) | {"k": "rematch"})
            refused = await ann.expect("error", code="busy")
        assert "cannot reach its database" in refused["text"], refused
        assert str(node.bus.waiting()).count("cannot reach its database") == 1  # dora's
        assert offer.open and lobby.tables == {}
        await ann.send("rematch")
        sat = await ann.expect("ok", cmd="sit")
        assert sat["table"] == "300" and not offer.open, sat


def _asked_by_ann(lobby: Lobby) -> Offer:
    """The rematch offer of ann's match with dora (a player of another worker) at table
    5, kept here: ann has asked."""
    offer = Offer(
        5,
        ("ann", "dora"),
        GameSettings(2, "moscow", ()),
        private=False,
        rated=False,
        deadline=trio.current_time() + 60,
        asked=["ann"],
        tokens={"ann": None, "dora": None},  # (guests, whichever token)
    )
    lobby.rematches.offers.update(ann=offer, dora=offer)
    return offer


async def _heard(lobby: Lobby, message: dict[str, Any]) -> None:
    """``message`` heard from the bus, as the node's bus task hears one."""
    assert lobby.node is not None
    lobby.node.hear(message)
