"""A client that asks and asks and never reads (docs/security.md §3): a player seated at
a table, or a program watching one, looping ``state`` and ``last`` (answers the table
gives without spending the lists allowance) with the flood limit out of the way. The
server queues at most ``outbox_bytes`` for it, then drops it (``outbox_full``), and the
players of another table get their answers as promptly as ever meanwhile."""

from __future__ import annotations

import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import structlog
import trio

from deberc_net.server.session import Outbox
from tests.stall_meter import StallMeter, stall_meter

from .client import LineClient, fields, seat_pair
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

OUTBOX = 32 * 1024
# far more answer bytes than the outbox and both sockets' buffers hold (a board is
# ~1 KB, a program's line ~200 bytes): a server that did not drop the asker would
# hold them all
ASKS = 200_000
PROMPT_S = 1.0  # the most an honest round trip may take meanwhile (measured: < 10 ms)


def _most_queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The most bytes any outbox of ``OUTBOX`` queued, kept up to date as lines are
    queued (by a put, a batch's hold, or a flush's unwritten rest)."""
    most = [0]

    def watched(name: str) -> None:
        real = getattr(Outbox, name)

        def call(self: Outbox, *args: Any) -> Any:
            result = real(self, *args)
            if self.limit == OUTBOX:
                most[0] = max(most[0], self.queued_bytes)
            return result

        monkeypatch.setattr(Outbox, name, call)

    for name in ("put", "hold", "flush"):
        watched(name)
    return most


async def _round_trips(
    client: LineClient, ask: str, tag: str, until: trio.Event, meter: StallMeter
) -> int:
    """``ask`` answered (a ``tag`` line) over and over, each within ``PROMPT_S`` of this
    process's running (a stall of the machine's is not the server's delay), till
    ``until`` is set; how many."""
    done = 0
    while not until.is_set():
        start = time.monotonic()
        await client.send(ask)
        await client.read_until(lambda line: fields(line)[0] in tag.split("|"))
        ran = meter.ran_s(start, time.monotonic())
        assert ran <= PROMPT_S, f"{client.label}: a round trip took {ran:.2f} s"
        done += 1
    return done


@pytest.mark.timeout(90)
@pytest.mark.parametrize("asker", ["seated-machine", "seated-human", "watching-machine"])
async def test_a_client_asking_for_its_table_and_never_reading_is_dropped_and_delays_no_one(
    start_server: StartServer,
    connect: Connector,
    monkeypatch: pytest.MonkeyPatch,
    asker: str,
) -> None:
    most = _most_queued(monkeypatch)
    port = await start_server(outbox_bytes=OUTBOX, flood_lines_per_s=1e6, flood_burst=1e6)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    carl = await connect.machine(port, "carl")
    dan = await connect.machine(port, "dan")
    await seat_pair(carl, dan)  # another table
    eve = ann
    if asker == "watching-machine":
        eve = await connect.machine(port, "eve")
        await eve.send(f"observe {table}")
        await eve.expect("ok", cmd="observe")
    if asker == "seated-human":  # a person's board: many lines to a 'state'
        await eve.send("style human")
        await eve.read_until(lambda line: line.startswith("Style human"))
    # a small window: the sockets buffer little, so the server's own queue fills
    assert isinstance(eve.stream, trio.SocketStream)
    eve.stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)

    flooded = trio.Event()
    asked = 0
    trips: list[int] = []

    async def flood() -> None:
        nonlocal asked
        try:
            while asked < ASKS:
                await eve.send_raw(b"state\nlast\n" * 250)
                asked += 500
        except trio.BrokenResourceError:  # the server has dropped it
            pass
        finally:
            flooded.set()

    async def honest(client: LineClient, ask: str, tag: str) -> None:
        trips.append(await _round_trips(client, ask, tag, flooded, meter))

    with structlog.testing.capture_logs() as logs, stall_meter() as meter:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(flood)
            nursery.start_soon(honest, carl, "state", "state|ask")
            nursery.start_soon(honest, dan, "ping", "ok")
        await eve.wait_closed(timeout=30)  # dropped: not left open with a backlog
    assert asked < ASKS, "the asker was never dropped"
    assert len(eve.raw) < 8 * 1024 * 1024  # what the sockets buffered, no more
    assert most[0] <= OUTBOX
    full = [e for e in logs if e["event"] == "outbox_full"]
    assert [e["limit"] for e in full] == [OUTBOX]
    assert min(trips) >= 3, trips  # the honest pair was answered while it went on
    # and their table plays on
    await carl.send("ping")
    await carl.expect("ok", cmd="ping")
