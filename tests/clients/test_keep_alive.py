"""The client library's keep-alive: ``ping`` after KEEPALIVE_S of silence from the
server, counted from the last bytes heard (a task beside the reader, not a timer per
read), and never in the middle of another line being sent."""

from __future__ import annotations

import trio
import trio.testing

from clients.client import KEEPALIVE_S, Connection
from deberc_net.server.local import LIMIT, local_stream_pair


async def _read_lines(conn: Connection, into: list[str]) -> None:
    async for line in conn.lines():
        into.append(line)


async def test_ping_after_a_silence_counted_from_the_last_line_heard(
    autojump_clock: trio.testing.MockClock,
) -> None:
    mine, server = local_stream_pair()
    conn = Connection(mine)
    heard: list[str] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_read_lines, conn, heard)
        nursery.start_soon(conn.keep_alive)
        start = trio.current_time()
        await trio.sleep(KEEPALIVE_S * 0.75)
        await server.send_all(b"event seq=1 table=1 kind=call seat=0 call=pas auto=0\n")
        # heard at 0.75: the silence is counted from there
        said = await server.receive_some()
        assert said == b"ping\n"
        assert trio.current_time() - start >= KEEPALIVE_S * 1.75
        said = await server.receive_some()  # still silent: another, as long after
        assert said == b"ping\n"
        assert trio.current_time() - start >= KEEPALIVE_S * 2.75
        nursery.cancel_scope.cancel()
    assert heard == ["event seq=1 table=1 kind=call seat=0 call=pas auto=0"]


async def test_a_line_sent_while_the_ping_waits_for_room_follows_it_whole(
    autojump_clock: trio.testing.MockClock,
) -> None:
    mine, server = local_stream_pair()
    conn = Connection(mine)
    assert mine.write_nowait(b"x" * (LIMIT - 2)) == LIMIT - 2  # the server reads nothing yet
    async with trio.open_nursery() as nursery:
        nursery.start_soon(conn.keep_alive)
        await trio.sleep(KEEPALIVE_S + 1)  # the ping has begun: 2 bytes fit, it waits
        nursery.start_soon(conn.send, "play 7s seq=4")  # one sender at a time: it waits too
        await trio.sleep(1)
        got = b""
        while not got.endswith(b"seq=4\n"):
            got += await server.receive_some()
        nursery.cancel_scope.cancel()
    assert got == b"x" * (LIMIT - 2) + b"ping\nplay 7s seq=4\n"


class _Steps(trio.abc.Instrument):
    """Counts the steps of the task named ``name``; past ``most`` it cancels ``scope``
    (a task that never sleeps would stop the autojump clock, and the test with it)."""

    def __init__(self, name: str, most: int, scope: trio.CancelScope) -> None:
        self.name, self.most, self.scope, self.steps = name, most, scope, 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        if task.name.endswith(self.name):
            self.steps += 1
            if self.steps > self.most:
                self.scope.cancel()


async def test_the_keep_alive_sleeps_while_a_line_waits_for_room(
    autojump_clock: trio.testing.MockClock,
) -> None:
    mine, server = local_stream_pair()
    conn = Connection(mine)
    assert mine.write_nowait(b"x" * LIMIT) == LIMIT  # the server reads nothing for now
    with trio.CancelScope() as scope:
        steps = _Steps("keep_alive", 1000, scope)
        trio.lowlevel.add_instrument(steps)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(conn.send, "play 7s seq=4")  # it waits for room
                nursery.start_soon(conn.keep_alive)
                await trio.sleep(KEEPALIVE_S * 3)  # silent, and a line going out all along
                nursery.cancel_scope.cancel()
        finally:
            trio.lowlevel.remove_instrument(steps)
    assert not scope.cancelled_caught
    assert steps.steps < 10
    got = b""
    while len(got) < LIMIT:
        got += await server.receive_some()
    assert got == b"x" * LIMIT  # no ping went into the middle of the line, or after it
