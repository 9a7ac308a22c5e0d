"""The one PostgreSQL server of an xdist run (tests/store/postgres_server.py): started by
the controller, attached to by each worker, stopped whole at the end; a start that fails
is each worker's clear error, not a wait."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from .postgres_server import TEMPLATE, attach_to_run, binaries, start_for_run


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    if binaries() is None:
        pytest.skip("PostgreSQL is not installed")
    return tmp_path / "shared"


def test_the_workers_share_one_server_with_databases_of_their_own(shared: Path) -> None:
    assert attach_to_run(shared, "gw0") is None  # no run's server: a worker starts its own
    run = start_for_run(shared)
    try:
        first, second = attach_to_run(shared, "gw0"), attach_to_run(shared, "gw1")
        assert first is not None and second is not None
        assert (first.port, first.directory) == (second.port, second.directory)
        urls = [first.new_database(), second.new_database(), first.new_database()]
        assert [url.rsplit("/", 1)[1] for url in urls] == ["test_gw0_1", "test_gw1_1", "test_gw0_2"]
        with psycopg.connect(urls[1]) as db:
            assert db.execute("SELECT current_database()").fetchone() == ("test_gw1_1",)
    finally:
        run.stop()
    assert not first.directory.exists()  # its watchdog's clean-up, run by stop
    assert not (shared / TEMPLATE).exists()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(first.url(), connect_timeout=5).close()


def test_a_failed_start_is_each_workers_clear_error(shared: Path) -> None:
    (shared / TEMPLATE).mkdir(parents=True)  # no data directory: postgres will not start
    (shared / TEMPLATE / "PG_VERSION").write_text("not a cluster\n")
    run = start_for_run(shared)
    try:
        for worker in ("gw0", "gw1"):
            with pytest.raises(RuntimeError) as failed:
                attach_to_run(shared, worker)
            # why, in postgres's words (pg_ctl's: the copied template is no cluster)
            assert str(failed.value).startswith(
                "the run's PostgreSQL server did not start: RuntimeError: postgres would not"
            )
    finally:
        run.stop()
