"""Every store test runs against both backends: an SQLite file, and a database of its own
on a PostgreSQL server: the xdist run's (its controller starts one for all its workers), or
the session's own (see postgres_server.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .postgres_server import PostgresServer, Unavailable, attach_to_run

if TYPE_CHECKING:
    from .workers import SharedWorkers


@pytest.fixture(scope="session")
def postgres_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[PostgresServer]:
    # the run's directory, shared by its xdist workers (each has its own under it)
    shared = tmp_path_factory.getbasetemp()
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        shared = shared.parent
    try:
        # an xdist worker uses the server its controller started (tests/conftest.py);
        # a run of its own (the killed-run test's held pytest too) starts its own
        if hasattr(request.config, "workerinput") and worker:
            attached = attach_to_run(shared, worker)
            if attached is not None:
                yield attached
                return
        server = PostgresServer.start(shared)
    except Unavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the PostgreSQL tests: {exc}")
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()
        PostgresServer.forget_template(shared)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A database of the test's own: no rows, the store's migrations applied (a copy of
    the server's migrated template), as a store's first open leaves it."""
    url = postgres_server.new_database(migrated=True)
    yield url
    postgres_server.drop_database(url)


@pytest.fixture
def new_postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """An empty database of the test's own (no tables: what the migrations start from)."""
    url = postgres_server.new_database()
    yield url
    postgres_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgres"])
def store_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store lives: a file path (its first open makes the store there) or a
    postgresql:// address of a migrated database of no rows."""
    if request.param == "sqlite":
        return str(tmp_path / "deberc.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=["sqlite", "postgres"])
def new_store_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store is yet to be made: a path with nothing at it, or the address of an
    empty database (the tests of the migrations)."""
    if request.param == "sqlite":
        return str(tmp_path / "deberc.sqlite3")
    return str(request.getfixturevalue("new_postgres_url"))


@pytest.fixture(scope="module")
def module_workers(
    request: pytest.FixtureRequest,
    postgres_server: PostgresServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[SharedWorkers]:
    """One ``serve --workers 2`` (workers.py's SETTINGS, or the module's own
    ``CLUSTER_SETTINGS``) on a database of its own for a module's tests that neither
    hold its workers nor leave them stopped (see ``shared_workers``): a cluster's start
    is some seconds of a loaded machine, one a test before."""
    from .workers import SETTINGS, settings_file, shared_workers  # (not in xdist's controller)

    settings = getattr(request.module, "CLUSTER_SETTINGS", SETTINGS)
    url = postgres_server.new_database(migrated=True)
    try:
        with shared_workers(url, settings_file(tmp_path_factory.mktemp("workers"), settings)) as w:
            yield w
    finally:
        postgres_server.drop_database(url)


@pytest.fixture
async def shared_workers(module_workers: SharedWorkers) -> AsyncIterator[SharedWorkers]:
    """The module's cluster for one test, both workers serving; the test's players must
    be its own names (a name's seat, seek or rematch offer may outlive its connection).
    At its end, once a worker it killed or stopped is replaced and its loss heard, and
    nobody is listed at either worker (their seeks gone with them)."""
    assert module_workers.process.poll() is None, module_workers.events[-20:]
    assert sorted(module_workers.pids) == [0, 1], module_workers.pids
    found, start = dict(module_workers.pids), len(module_workers.events)
    yield module_workers
    for entry in module_workers.events[start:][-60:]:  # (shown with a failure only)
        print(entry, file=sys.stderr)
    await module_workers.until_whole(found, start)
    await module_workers.until_nobody_listed()


@pytest.fixture
def small_mount(tmp_path: Path) -> Iterator[Path]:
    """A folder of its own file system (a 1 MiB tmpfs), for the test to fill, or to
    mount read-only (``remount``) as a systemd unit's ProtectSystem=strict mounts every
    path not in its ReadWritePaths=. Root's alone (mount(2)): skipped otherwise."""
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"no tmpfs mount here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)
