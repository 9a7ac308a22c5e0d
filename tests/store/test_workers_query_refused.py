"""A psycopg error that escapes a worker of ``serve --workers`` and is no lost
connection (a query the database refused: a bug, or the database's own settings) is
said as what it is, its traceback logged (``worker_error``), not as "its database
connection failed" (cluster/worker.py: every psycopg error read so, s45). Here the
table numbers' sequence is capped below a worker's first draw: each worker's start
fails on ``nextval``, a DataError."""

from __future__ import annotations

import json
import sys

import psycopg
import pytest
import trio

COMMAND = [sys.executable, "-m", "deberc_net", "serve", "--workers", "2"]


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_query_the_database_refuses_is_said_as_such_with_its_traceback(
    postgres_url: str,
) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("ALTER SEQUENCE table_numbers MAXVALUE 5")
    with trio.fail_after(60):
        done = await trio.run_process(
            [*COMMAND, "--port", "0", "--db", postgres_url, "--http-port", "off"],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.decode().strip().splitlines()
    last = lines[-1]  # the worker's own reason, said by the parent
    assert last.startswith("deberc-net serve: "), last
    assert "connection failed" not in last, last  # (before: "its database connection failed")
    assert "refused a query (SequenceGeneratorLimitExceeded: " in last, last
    assert "reached maximum value of sequence" in last, last
    logged = [json.loads(x) for x in lines if x.startswith("{")]
    errors = [e for e in logged if e.get("event") == "worker_error"]
    assert errors and all("Traceback" in e["exception"] for e in errors), logged[-5:]
    assert "SequenceGeneratorLimitExceeded" in errors[0]["exception"]
    assert errors[0]["level"] == "error" and errors[0]["worker"] in (0, 1)
