"""``serve --workers 2`` whose database goes away for a while (a PostgreSQL restart, as
the test makes it: its database refuses connections and drops those it had): each
worker's bus fails, and the worker tells its players why before it stops (docs/
protocol.md §11.4) and ends at once, not after the pool's 30 s; the parent's next
worker serves as soon as the database is back (docs/scaling.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from tests.server.client import fields

from .workers import Workers, database_away, served_workers

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 300\nheartbeat_ms = 500\nserver_dead_ms = 3000\n"
    "worker_restart_ms = 200\n"  # (each dead worker's start again: not after 1 s)
)
AWAY_S = 18  # longer than the pool's reconnection tries before its 30 s (1, 3, 7, 15 s)
BACK_WITHIN_S = 20  # a worker's start on a busy 2-core machine, and the parent's second


def _count(workers: Workers, event: str) -> int:
    return sum(e.get("event") == event for e in workers.events)


def _all(workers: Workers, event: str) -> list[dict[str, Any]]:
    return [e for e in workers.events if e.get("event") == event]


@pytest.mark.timeout(190)  # its fail_after(150), then its clean-up
async def test_workers_whose_database_goes_away_tell_their_players_and_come_back_with_it(
    postgres_url: str, tmp_path: Path
) -> None:
    """Before the fix the players' connections closed without a word, and each
    worker waited out the pool's 30 s for its last store calls before it ended."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    with trio.fail_after(150):
        async with served_workers(postgres_url, settings) as workers:
            ann = await workers.connect(0, "ann")
            bob = await workers.connect(1, "bob")
            await ann.send("new 2 moscow")
            table = fields(await ann.read_until(lambda x: fields(x)[0] == "ok"))[1]["table"]
            with trio.fail_after(30):  # a match across the two workers (once bob's
                while True:  # worker has heard of the table)
                    await bob.send(f"sit {table}")
                    sat = await bob.read_until(lambda x: fields(x)[0] in ("ok", "error"))
                    if fields(sat)[0] == "ok":
                        break
                    await trio.sleep(0.1)
            try:
                await trio.to_thread.run_sync(database_away, postgres_url, True)
                for client in (ann, bob):
                    told = await client.read_until(
                        lambda x: fields(x)[0] == "info" and "shutting down" in x, 15
                    )
                    assert "database connection was lost" in told, told
                # both end while the database is away, and a worker started again
                # meanwhile ends too: nothing waits for it (the pool's tries, 26 s).
                # Five starts: the first two, one after each death, and one after a
                # third death, of a worker started again
                with trio.fail_after(AWAY_S):
                    while _count(workers, "worker_started") < 5:
                        await trio.sleep(0.1)
                # one warning a worker, not one a death (before: a worker_died each,
                # about one a second a worker for the outage: s45)
                died = [e for e in workers.events if e.get("event") == "worker_died"]
                assert sorted(e["worker"] for e in died) == [0, 1], died
                assert "its database connection failed" in str(died[0]["reason"]), died
            finally:
                await trio.to_thread.run_sync(database_away, postgres_url, False)
            with trio.fail_after(BACK_WITHIN_S):
                while _count(workers, "worker_listening") < 4:
                    await trio.sleep(0.1)
            # the deaths summed up once a worker serves in the dead ones' place
            with trio.fail_after(30):
                while not (ended := _all(workers, "worker_deaths_ended")):
                    await trio.sleep(0.05)
            # (a worker that died once is summed up by none: its warning said it all)
            assert {e["how"] for e in ended} == {"serving"}, ended
            assert all(e["deaths"] >= 2 for e in ended), ended
            assert _count(workers, "worker_died") == 2
            carl = await workers.connect(0, "carl")  # the new workers serve
            await carl.aclose()
            await ann.aclose()
            await bob.aclose()
        assert not [e for e in workers.events if "raw" in e], workers.events
