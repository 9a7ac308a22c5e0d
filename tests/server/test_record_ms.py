"""A stored record's `ms` (docs/records.md, "Calls"): the milliseconds from the deal's
start to each call, on the server's clock. Pinned on virtual time: each call is sent
after a wait the test chose, so each `ms` is known to the millisecond."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio
import trio.testing

from deberc_net.server.store import open_store

from .client import LineClient, fields, seat_pair
from .conftest import Connector, StartServer

# the waits (s) before each call: the first seat asked thinks 1.5 s, the next 0.25 s,
# and so on (each within the clock: 10 s a call). Deal 1: all four pass, the deal is
# void, and deal 2 begins; there one seat calls after 0.5 s, and the next one leaves.
DEALS: tuple[tuple[float, ...], ...] = ((1.5, 0.25, 2.0, 0.125), (0.5,))


def _stored(db: Path, match: str) -> list[str]:
    store = open_store(db)
    try:
        return store.match_records(match)
    finally:
        store.close()


@pytest.mark.timeout(30)
async def test_a_stored_records_ms_is_each_calls_time_since_the_deal_started(
    start_server: StartServer,
    connect: Connector,
    db_path: Path,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()
    ann, bob = await connect.machine(port, "ann"), await connect.machine(port, "bob")
    _, ann_seat, bob_seat = await seat_pair(ann, bob)
    by_seat = {ann_seat: ann, bob_seat: bob}
    start = await ann.expect("event", kind="start")
    made: list[list[tuple[int, str]]] = []  # each deal's (seat, call) as sent
    with trio.fail_after(20):
        for thinking in DEALS:
            made.append([])
            for think in thinking:
                seat, f = await _next_ask(by_seat)
                await trio.sleep(think)  # virtual: exactly, the server's clock as well
                legal = f["legal"].split(",")
                call = "pas" if "pas" in legal else legal[0]
                await by_seat[seat].send(f"{call} seq={f['seq']}")
                made[-1].append((seat, call))
        seat, _ = await _next_ask(by_seat)
        await by_seat[seat].send("leave")  # a forfeit: deal 2 is recorded as it stood
        await ann.expect("event", kind="match-end")
        await ann.send("sheet")  # read from the store: the records are written
        await ann.expect("sheet")
    stored = await trio.to_thread.run_sync(_stored, db_path, start["match"])
    records = [json.loads(text) for text in stored]
    assert [r["outcome"] for r in records] == ["void", "left"]
    for record, calls, thinking in zip(records, made, DEALS, strict=True):
        assert [(c["seat"], c["call"]) for c in record["calls"]] == calls
        # from the deal's own start, not the match's: deal 2's first call is at 500
        since_start = [round(sum(thinking[: i + 1]) * 1000) for i in range(len(thinking))]
        assert [c["ms"] for c in record["calls"]] == since_start


async def _next_ask(by_seat: dict[int, LineClient]) -> tuple[int, dict[str, str]]:
    """The next `ask` either client is sent: its seat and fields."""
    asked: list[tuple[int, dict[str, str]]] = []
    async with trio.open_nursery() as nursery:

        async def read(seat: int, client: LineClient) -> None:
            line = await client.read_until(lambda x: x.startswith("ask "))
            asked.append((seat, fields(line)[1]))
            nursery.cancel_scope.cancel()

        for seat, client in by_seat.items():
            nursery.start_soon(read, seat, client)
    return asked[0]
