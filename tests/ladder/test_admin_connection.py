"""The ladder's main admin connection (admin.py ``AdminClient``): it outlives the
server's idle limit while the ladder has nothing to send (a worker waiting for boards,
a game longer than the limit), and a line it begins to send goes whole, even when a
stop cancels the send (docs/bots.md "Interrupted")."""

from __future__ import annotations

import socket

import psycopg
import pytest
import trio
import trio.testing
from trio.testing import MockClock

from deberc_net.ladder.admin import WHOLE_LINE_S, AdminClient
from deberc_net.ladder.distributed import options_from, spec_of
from deberc_net.ladder.runner import LadderOptions
from deberc_net.ladder.schedule import ScheduleError
from deberc_net.ladder.supervisor import BotSpec
from deberc_net.ladder.worker import WorkerLadder
from deberc_net.testing import rule_book
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 (fixtures)

from .board_queue import queued_run
from .helpers import RAND, RAND2

IDLE_S = 900.0  # the server's default idle limit (docs/protocol.md §2.1)


async def test_a_worker_waiting_longer_than_the_idle_limit_for_a_board_still_plays_it(
    postgres_url: str,  # noqa: F811 (the fixture)
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A worker has played its board; the run's other board is leased to another worker
    for longer than its server's idle limit, then comes free: the worker claims and plays
    it. Failed before: its admin said nothing while it waited, its server closed that
    connection at the idle limit, and the worker stopped ('the server closed the
    ladder's connection')."""
    options = LadderOptions(
        bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)], deals=2, seed="idle", concurrency=1
    )
    spec = spec_of(options, "idle")
    queue, run = await trio.to_thread.run_sync(queued_run, postgres_url, spec)
    try:
        held = await trio.to_thread.run_sync(queue.claim, "another", 3600.0, run)
        mine = await trio.to_thread.run_sync(queue.claim, "me", 3600.0, run)
        assert held is not None and mine is not None
        # it looks for a free board every minute, not every half second: fewer
        # queries to wait for as the virtual clock runs through the idle limit
        worker = WorkerLadder(
            options_from(spec, postgres_url, rule_book()), queue, "me", mine, 3600.0, 60.0
        )
        stored = 0

        async def play() -> None:
            nonlocal stored
            stored = await worker.play()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(play)
            await trio.sleep(IDLE_S + 60)  # the other worker stalls past the idle limit

            def let_go() -> None:  # ... and its lease runs out
                with psycopg.connect(postgres_url) as db:
                    db.execute(
                        b"UPDATE ladder_boards SET claimed_by = NULL, lease_until = NULL"
                        b" WHERE board = %s",
                        (held.board,),
                    )

            await trio.to_thread.run_sync(let_go)
        assert stored == 2
        assert await trio.to_thread.run_sync(queue.progress, run) == (2, 2)
    finally:
        await trio.to_thread.run_sync(queue.close)


async def test_a_send_cut_short_by_a_stop_never_leaves_half_a_line() -> None:
    """On a --server over TCP, a stop cancels a send the server is slow to take: the
    stop's release after it must not be glued to half a line (the server would take
    'reserve …release KEY' as one). Every line the server gets is one the ladder sent,
    whole. Failed before: the cancelled send left half its line, the release completed
    it."""
    listener = trio.socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await listener.bind(("127.0.0.1", 0))
    listener.listen()
    stream = await trio.open_tcp_stream("127.0.0.1", listener.getsockname()[1])
    stream.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    server, _ = await listener.accept()
    admin = AdminClient(stream)
    # far longer than the sockets' buffers: its send waits, part of it written
    long_line = "reserve 2 moscow seats=a,b " + "x" * 2_000_000
    release = "release 0123456789abcdef"
    received = bytearray()

    async def server_reads() -> None:
        while data := await server.recv(65536):
            received.extend(data)

    async def ladder_sends(task_status: trio.TaskStatus[trio.CancelScope]) -> None:
        with trio.CancelScope() as playing:
            task_status.started(playing)
            await admin.send(long_line)

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            async with trio.open_nursery() as sending:
                playing = await sending.start(ladder_sends)
                await trio.testing.wait_all_tasks_blocked()
                playing.cancel()  # the stop
                nursery.start_soon(server_reads)
            await admin.send(release)  # the stop's release, on the same connection
            await admin.aclose()
    server.close()
    listener.close()
    lines = bytes(received).decode().split("\n")
    assert lines.pop() == ""  # every line ended
    assert lines[-1] == release
    assert all(line == long_line for line in lines[:-1])


async def test_a_ping_the_server_takes_none_of_fails_the_ladder_with_that_reason(
    autojump_clock: MockClock,
) -> None:
    """The server takes no byte of the ladder's (it hangs): the admin's ``ping`` stalls
    WHOLE_LINE_S and closes the connection. The ladder, waiting on that connection for
    the server's next line, and the reserve it sends then, fail with that reason, a
    ScheduleError the CLI says in a line. Failed before: the ping's error was swallowed
    and the ladder met a closed stream (trio.ClosedResourceError: a traceback)."""
    ladder_end, _server_end = trio.testing.lockstep_stream_pair()  # never read
    admin = AdminClient(ladder_end)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(admin.keep_open, 60.0)
        began = trio.current_time()
        with pytest.raises(ScheduleError, match="took no line from the ladder"):
            await admin.next()
        assert trio.current_time() - began == pytest.approx(60.0 + WHOLE_LINE_S)
        with pytest.raises(ScheduleError, match="took no line from the ladder"):
            await admin.send("reserve 2 moscow seats=a,b")
        nursery.cancel_scope.cancel()
