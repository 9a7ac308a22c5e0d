"""Every store test runs against both backends: an SQLite file, and a fresh database on
a PostgreSQL server the session starts (see postgres_server.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .postgres_server import PostgresServer, Unavailable


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    # the run's directory, shared by its xdist workers (each has its own under it)
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    try:
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
    url = postgres_server.new_database()
    yield url
    postgres_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgres"])
def store_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store lives: a file path or a postgresql:// address."""
    if request.param == "sqlite":
        return str(tmp_path / "deberc.sqlite3")
    return str(request.getfixturevalue("postgres_url"))
