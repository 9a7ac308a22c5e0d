"""A server restarted after ``kill -9`` on its SQLite file lists the killed one's
matches ``server-lost`` at once (its process is gone from this host: store/gone.py),
not after ``server_dead_ms``; PostgreSQL keeps the heartbeat rule (docs/scaling.md,
"Restarts on one host")."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest
from structlog.testing import capture_logs

from deberc_net.server.store import Store, is_postgres, open_store

from .records import deal

# a server that stores deal 1 of a match (m1 unless named) and is killed outright
KILLED = textwrap.dedent(
    """
    import os, signal, sys
    from deberc_net.server.store import open_store
    from tests.store.records import deal
    store = open_store(sys.argv[1], serving=True)
    store.add_deal(deal(sys.argv[2], 1))
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def _killed_server(db: str, match: str = "m1") -> None:
    run = [sys.executable, "-c", KILLED, db, match]
    done = subprocess.run(run, timeout=60, check=False)
    assert done.returncode == -signal.SIGKILL


def test_a_server_restarted_after_kill_9_lists_the_killed_ones_match_at_once(
    store_db: str,
) -> None:
    _killed_server(store_db)
    restarted = open_store(store_db, serving=True)  # dead_after_s: 30 s, as served
    try:
        games = restarted.recent_games("ann")
        if is_postgres(store_db):  # several hosts: its silence is waited for, as before
            assert games == []
            return
        (lost,) = games
        assert (lost["match"], lost["reason"]) == ("m1", "server-lost")
    finally:
        restarted.close()


def test_a_start_that_ends_a_dead_servers_matches_says_so_in_the_log(store_db: str) -> None:
    """An operator's restart after a crash listed the killed server's match server-lost
    with not a line in the log (the heartbeat's finding said it, the start's did not).
    Failed before: no dead_servers_matches_ended at the start."""
    _killed_server(store_db)
    # PostgreSQL waits for its silence: none asked for here (a test's 0.5 s)
    silence = 0.5 if is_postgres(store_db) else 30.0
    if is_postgres(store_db):
        time.sleep(silence * 2)  # (real seconds: the database's own clock judges them)
    with capture_logs() as said:
        restarted = open_store(store_db, serving=True, dead_after_s=silence)
    try:
        [line] = [e for e in said if e["event"] == "dead_servers_matches_ended"]
        assert (line["matches"], line["at_start"], line["log_level"]) == (1, True, "warning")
        assert [g["match"] for g in restarted.recent_games("ann")] == ["m1"]
    finally:
        restarted.close()
    with capture_logs() as again:  # nothing left to end: no line
        open_store(store_db, serving=True, dead_after_s=silence).close()
    assert not [e for e in again if e["event"] == "dead_servers_matches_ended"]


@pytest.mark.parametrize("older_code", [False, True])
def test_a_row_whose_pid_runs_a_process_started_after_it_is_gone(
    tmp_path: object, older_code: bool
) -> None:
    """pid reuse: the row's pid runs a process that started after the row was written
    (here: a row an hour old, a process just started) — not that server: told by its
    start in clock ticks (not the row's), or for a row an older deberc-net wrote
    (without one: migration 24) by the clock."""
    db = f"{tmp_path}/deberc.sqlite3"
    _killed_server(db)
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as other:
        try:
            with sqlite3.connect(db) as con:
                con.execute(
                    "UPDATE servers SET pid = ?, started = datetime('now', '-1 hour')",
                    (other.pid,),
                )
                if older_code:
                    con.execute("UPDATE servers SET boot = NULL, start_ticks = NULL")
            con.close()
            restarted = open_store(db, serving=True)
            try:
                assert [g["match"] for g in restarted.recent_games("ann")] == ["m1"]
            finally:
                restarted.close()
        finally:
            other.kill()


def test_a_live_server_of_this_host_or_one_of_another_host_is_waited_for(
    tmp_path: object,
) -> None:
    """A row whose process runs and started before it (a server stalled, here this
    test's own), or a row of another host (its pid means nothing here), keeps its
    matches till its silence passes ``dead_after_s``."""
    db = f"{tmp_path}/deberc.sqlite3"
    alive = open_store(db, serving=True)
    alive.add_deal(deal("m1", 1))
    _killed_server(db, "m2")
    with sqlite3.connect(db) as con:
        killed = con.execute("SELECT max(id) FROM servers").fetchone()[0]
        con.execute("UPDATE servers SET host = 'elsewhere' WHERE id = ?", (killed,))
    con.close()
    _waited_for(db, alive)


def test_a_live_server_is_waited_for_after_the_clock_stepped_forward(tmp_path: object) -> None:
    """The clock stepped forward since a live server of this host wrote its row (NTP's
    step, a VM restored): by the clock now its process started long after its row's
    ``started``, as a reused pid's would. Its row's own start (boot, clock ticks) is
    its process's: it is waited for, its match not ended under it."""
    db = f"{tmp_path}/deberc.sqlite3"
    alive = open_store(db, serving=True)
    alive.add_deal(deal("m1", 1))
    with sqlite3.connect(db) as con:  # its row written a day 'before' its process started
        con.execute("UPDATE servers SET started = datetime(started, '-1 day')")
    con.close()
    _waited_for(db, alive)


def _waited_for(db: str, alive: Store) -> None:
    """A second server opened on ``db`` lists none of ``alive``'s running matches: it
    waits for it (its heartbeat), as for any server not surely gone."""
    second = open_store(db, serving=True)
    try:
        assert second.recent_games("ann") == []
    finally:
        second.close()
        alive.close()
