"""The ``jump_when_idle`` fixture (conftest.py) jumps the virtual clock only when nothing
is under way: not while a worker thread or the store writer's thread works, however
long it takes (a loaded machine's thread step outlasts its 1 ms of idleness), and not
while a line is on its way over a loopback socket between two tasks of the test."""

from __future__ import annotations

import time

import trio
import trio.testing

from deberc_net.server.store_writer import StoreWriter

SLOW_S = 0.2  # real time a thread's step takes: 200 times the fixture's idleness


async def test_time_waits_for_a_worker_thread(
    virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    start = trio.current_time()
    with trio.fail_after(1):  # (virtual: a jump past it while the thread ran fails)
        await trio.to_thread.run_sync(time.sleep, SLOW_S)
    assert trio.current_time() == start
    await trio.sleep(5)  # ... and it jumps when all wait on time
    assert trio.current_time() == start + 5


async def test_time_waits_for_the_store_writers_thread(
    virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    writer = StoreWriter()
    start = trio.current_time()
    try:
        with trio.fail_after(1):
            writer.write(lambda: time.sleep(SLOW_S))  # (a deal's record: nobody waits)
            await writer.run(lambda: None)  # (waits for the write queued before it)
    finally:
        writer.close()
    assert trio.current_time() == start


async def test_time_waits_for_a_line_on_its_way_over_loopback(
    virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    """A send's bytes are in the peer's socket as the send returns (the kernel carries
    loopback in the sender's call), so the peer's task is runnable before the sender
    waits: many round trips, each under a virtual limit, and the clock never moves."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]

    async def echo(stream: trio.SocketStream) -> None:
        async with stream:
            while data := await stream.receive_some():
                await stream.send_all(data)

    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(trio.serve_listeners, echo, listeners)
        for size in (1, 100, 70_000):  # (a line, a page: more than a socket buffer)
            async with await trio.open_tcp_stream("127.0.0.1", port) as client:
                for n in range(300 if size < 70_000 else 20):
                    sent = bytes([n % 256]) * size
                    got = b""
                    with trio.fail_after(1):
                        async with trio.open_nursery() as sending:  # (both ways at once)
                            sending.start_soon(client.send_all, sent)
                            while len(got) < size:
                                got += await client.receive_some()
                    assert got == sent
        nursery.cancel_scope.cancel()
    assert trio.current_time() == start
