"""A ladder's waiter stopped by a signal in the middle of a PostgreSQL query says its
one line only (docs/bots.md, "Interrupted"): the query is cut, psycopg's rollback of
the connection then fails, and psycopg logged that as a warning, on stderr before the
line (a fresh-clone run's flaky test_a_waiting_run_stopped_by_sigterm_or_sighup)."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

CUT = """
import os, signal, sys
import psycopg
from deberc_net.ladder.held_signals import stops_as_ctrl_c

with stops_as_ctrl_c():
    try:
        with psycopg.connect(sys.argv[1], autocommit=True) as conn, conn.transaction():
            with psycopg.connect(sys.argv[1], autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", (conn.info.backend_pid,))
            os.kill(os.getpid(), int(sys.argv[2]))  # the stop, as the link is lost
            print("not interrupted", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_query_cut_by_a_stop_leaves_no_warning_on_stderr(postgres_url: str, signum: int) -> None:
    child = subprocess.run(
        [sys.executable, "-c", CUT, postgres_url, str(int(signum))],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert child.stdout == "interrupted\n" and child.stderr == "", child.stderr
