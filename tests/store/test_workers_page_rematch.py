"""A live page on worker 0 of a match played at worker 1 (``serve --workers 2``) follows
it into its rematch as a page of its own worker's table does (docs/web.md, "The live
socket"): told the offer stands and its time, then where the rematch starts (the line a
watcher gets) or that none comes, its socket closing with the offer; and closing so,
as for an offer not taken, when worker 1 is lost while it stands, or stopped (a rolling
restart, docs/scaling.md: its offers called off before its 'bye'), even the moment the
match ends, before the page's worker noticed the table's close. (Before, the offer was
worker 1's alone: the page's socket closed at the match's end, told nothing.)"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest
import trio
from trio_websocket import WebSocketConnection, open_websocket_url

from deberc_net.server.rematch import REMATCH_S
from deberc_net.server.web.feed import CLOSED_CHECK_S
from tests.server.client import LineClient, close_all, is_event, play_machine
from tests.web.live import lines_of, text_of, to_the_end, to_the_offer

from .workers import (
    SETTINGS,
    Cluster,
    SharedWorkers,
    played_bus,
    served_workers,
    settings_file,
    until_listed,
)

SHORT_OFFER_S = 3  # the 'timeout' case's rematch_ms, in seconds
# the feed's look at its table's close, the snapshot telling it closed, a loaded host
LATE_S = 5
# The module's cluster (tests/store/conftest.py), its web face on, is shared by the
# ends of the default offer (a minute): each test's players and watcher have names of
# their own, and each waits there until a worker it killed or stopped is replaced and
# its loss heard. The 'timeout' case, a short offer, starts a cluster of its own.
CLUSTER_SETTINGS = SETTINGS + "http_port = 0\n"
SHARED_ENDS = ["taken", "left", "killed", "stopped", "stopped-at-end"]


@pytest.mark.timeout(170)  # its fail_after(120), then its clean-up
@pytest.mark.parametrize("end", SHARED_ENDS)
async def test_a_page_follows_another_workers_match_into_its_rematch(
    shared_workers: SharedWorkers, end: str
) -> None:
    with trio.fail_after(120):
        await _followed(shared_workers, end, REMATCH_S, str(SHARED_ENDS.index(end)))


@pytest.mark.timeout(170)  # its fail_after(120), then its clean-up
async def test_a_page_of_another_workers_match_closes_as_its_offer_runs_out(
    postgres_url: str, tmp_path: Path
) -> None:
    """The offer runs out untaken: the page closes with it, not later."""
    settings = CLUSTER_SETTINGS + f"rematch_ms = {SHORT_OFFER_S * 1000}\n"
    with trio.fail_after(120):
        async with served_workers(postgres_url, settings_file(tmp_path, settings)) as workers:
            await _followed(workers, "timeout", SHORT_OFFER_S, "")


async def _followed(workers: Cluster, end: str, offer_s: float, n: str) -> None:
    """ann and bob (their names with ``n``) play a match at worker 1, carl watches it
    from worker 0, as does a page of worker 0's web face; the offer ends as ``end``
    says, ``offer_s`` long."""
    opened: list[LineClient] = []
    heard: list[dict[str, Any]] = []  # on the bus: the lobby and worker 1's channel
    async with played_bus(workers.url, workers.server(1), heard):  # (it publishes nothing)
        try:
            ann = await workers.connect(1, f"ann{n}")
            bob = await workers.connect(1, f"bob{n}")
            carl = await workers.connect(0, f"carl{n}")  # watches over the line protocol
            opened += [ann, bob, carl]
            await ann.send("new 2 short")
            table = (await ann.expect("ok", cmd="sit"))["table"]
            await until_listed(carl, "tables", f"id={table} ")  # worker 0 knows it
            await carl.send(f"observe {table}")
            await carl.expect("ok", cmd="observe", timeout=30)
            url = f"ws://127.0.0.1:{workers.http_port()}/live/table/{table}"
            async with open_websocket_url(url) as page:
                assert lines_of(await text_of(page))[0].startswith("ok cmd=observe")
                await bob.send(f"sit {table}")
                await bob.expect("ok", cmd="sit", timeout=30)
                async with trio.open_nursery() as nursery:
                    for seat, player in enumerate((ann, bob)):
                        nursery.start_soon(play_machine, player, random.Random(seat), None, 30)
                if end == "stopped-at-end":
                    await _stopped_at_the_end(workers, page)
                    return
                # told after the match's end, with its time (failed before: the
                # socket closed at the end, with no note)
                lines, seconds = await to_the_offer(page)
                offered = trio.current_time()
                assert is_event(lines[-1], "match-end"), lines[-3:]
                assert offer_s - LATE_S <= seconds <= offer_s, seconds
                if end == "taken":
                    await _taken(ann, bob, carl, table, page)
                else:
                    stepped = await _called_off(end, ann, bob, workers)
                    assert await to_the_end(page) == ([], [{"rematch_offer": None}])
                    closed = trio.current_time()
                    if end == "timeout":  # with the offer's end, not later
                        assert closed - offered <= seconds + CLOSED_CHECK_S + LATE_S
                    else:  # at once, not at the offer's end
                        assert closed - stepped < REMATCH_S / 4
                    assert not [x for x in carl.lines if x.startswith("info rematch=")]
        finally:
            await close_all(opened)
        if end == "taken":
            # worker 0 let the page's session go, and told worker 1 (its stand-in there
            # goes): carl's and the page's, each that spoke to the table (before: carl's
            # alone, both kept for good)
            await _each_gone(heard, workers.server(0), int(table))


async def _taken(
    ann: LineClient, bob: LineClient, carl: LineClient, table: str, page: WebSocketConnection
) -> None:
    """Both players agree: the page gets the line carl, a watcher, gets, the last;
    then its socket closes."""
    for player in (ann, bob):
        await player.send("rematch")
    new = (await ann.expect("ok", cmd="sit", timeout=30))["table"]
    assert new != table
    told = await carl.read_until(lambda x: x.startswith("info rematch="), 30)
    assert told == (
        f"info rematch={new} table={table} text=The rematch of table"
        f" {table} starts at table {new}: 'observe {new}' to watch it."
    )
    assert await to_the_end(page) == ([told], [])


async def _called_off(end: str, ann: LineClient, bob: LineClient, workers: Cluster) -> float:
    """The offer ends untaken, as ``end`` says (its time runs out by itself): when."""
    if end == "left":
        await ann.send("rematch")
        await ann.expect("ok", cmd="rematch", timeout=30)
        await bob.aclose()
        await ann.expect("rematch", off="left", timeout=30)
    elif end == "killed":
        os.kill(workers.pids[1], signal.SIGKILL)
    elif end == "stopped":  # a rolling restart: its offers off, then its 'bye'
        os.kill(workers.pids[1], signal.SIGTERM)
    return trio.current_time()


async def _stopped_at_the_end(workers: Cluster, page: WebSocketConnection) -> None:
    """Worker 1 stops as the match ends, its table closed: at worker 0 the offer's
    end (or its worker's loss) may come before the page's feed has noticed the close
    (it looks every CLOSED_CHECK_S). The page is told the offer ended untaken all the
    same, told first that it stood or not, and closes at once (before: closed with no
    note, as for a match that offered none, when the stop came first)."""
    os.kill(workers.pids[1], signal.SIGTERM)
    stepped = trio.current_time()
    lines, told = await to_the_end(page)
    notes = [note for note in told if "rematch_offer" in note]
    assert trio.current_time() - stepped < REMATCH_S / 4
    assert any(is_event(line, "match-end") for line in lines), lines[-3:]
    assert notes[-1:] == [{"rematch_offer": None}], notes
    assert all(isinstance(n["rematch_offer"], int) for n in notes[:-1]), notes


async def _each_gone(heard: list[dict[str, Any]], worker: int, table: int) -> None:
    """Every session of ``worker`` that spoke to ``table`` (carl's and the page's: two)
    is told gone on the bus (waited for)."""
    spoke = {m["s"] for m in heard if m["w"] == worker and m.get("table") == table}
    assert len(spoke) == 2, spoke

    def kept() -> set[int]:
        return spoke - {m["s"] for m in heard if m["w"] == worker and m["k"] == "gone"}

    with trio.move_on_after(10):
        while kept():
            await trio.sleep(0.05)
    assert not kept(), f"never told gone: {kept()} of {spoke}"
