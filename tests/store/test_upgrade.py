"""An operator's upgrade of an old database (docs/security.md, "Upgrading"): the log says
which migrations ran, a store file older code left readable by others is made its
owner's only, and the tables go on above those stored."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from deberc_net.server.store import open_store
from deberc_net.server.store.migrations import MIGRATIONS
from tests.server.process import read_until, start_server_process

from .records import opened

LATEST = len(MIGRATIONS)


def test_an_upgrade_is_logged_from_and_to_and_a_new_databases_schema_is_not(
    new_store_db: str,
) -> None:
    """An operator saw no line when 0.1.0's database was migrated to schema 9: one at
    warning now (shown under log_level = "warning"), none for a database made new.
    Failed before: no 'migrated' line."""
    with capture_logs() as made:
        opened(new_store_db, migrations=MIGRATIONS[:5]).close()
    assert not [e for e in made if e["event"] == "migrated"]
    with capture_logs() as upgraded:
        open_store(new_store_db).close()
    [said] = [e for e in upgraded if e["event"] == "migrated"]
    assert (said["from"], said["to"], said["log_level"]) == (5, LATEST, "warning")
    with capture_logs() as again:  # up to date: nothing to say
        open_store(new_store_db).close()
    assert not [e for e in again if e["event"] == "migrated"]


def _old_file(path: Path) -> None:
    """A database as 0.1.0 made it (its schema, no versions), with a match at table 36,
    readable by everyone (0.1.0 left the umask's 0644)."""
    with sqlite3.connect(path) as db:
        db.executescript(MIGRATIONS[0].sqlite)
        db.execute(
            "INSERT INTO matches (id, table_id, players, variant, options, reason, totals)"
            " VALUES ('m47', 36, '[\"ann\", \"bob\"]', 'moscow', '[]', 'score', '[301, 40]')"
        )
    db.close()
    path.chmod(0o644)


def test_a_store_file_others_could_read_is_made_its_owners_only(tmp_path: Path) -> None:
    """docs/security.md §5: the store file is 0600. One made by older code stayed 0644
    (password hashes readable by every local user) after its upgrade. Failed before:
    0o644."""
    path = tmp_path / "old.sqlite3"
    _old_file(path)
    with capture_logs() as logs:
        open_store(path).close()
    assert path.stat().st_mode & 0o777 == 0o600
    [said] = [e for e in logs if e["event"] == "store_made_private"]
    assert (said["file"], said["was"], said["log_level"]) == (str(path), "0644", "info")
    with capture_logs() as again:  # its owner's already: nothing said
        open_store(path).close()
    assert not [e for e in again if e["event"] == "store_made_private"]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_store_file_another_user_owns_is_left_as_it_is(tmp_path: Path) -> None:
    """Not ours to change: its owner chose its mode (root may change it, but does not)."""
    path = tmp_path / "theirs.sqlite3"
    _old_file(path)
    os.chown(path, 65534, 65534)
    open_store(path).close()
    assert path.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize(
    "command",
    [
        ["serve", "--port", "0", "--http-port", "off"],
        ["admin", "boss"],
        ["records", "export"],
        ["ladder", "table"],
        ["ladder", "run", "--bot", "a=py:clients.random_bot", "--bot", "b=py:clients.random_bot"],
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_folder_given_as_the_database_is_refused_and_its_mode_left_as_it_was(
    tmp_path: Path, command: list[str]
) -> None:
    """A tryout of the file options: every command refused --db FOLDER in one line, but
    made the folder 0700 first (and serve logged store_made_private for it). Failed
    before: 0o700."""
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o755)
    done = subprocess.run(
        [sys.executable, "-m", "deberc_net", *command, "--db", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.endswith(f"{folder} is a folder, not a database file: give a file's path\n")
    assert done.stderr.count("\n") == 1, done.stderr  # that line alone: no log line
    assert folder.stat().st_mode & 0o777 == 0o755


def test_a_server_on_a_0_1_0_database_says_it_migrated_it_and_numbers_tables_on(
    tmp_path: Path,
) -> None:
    """The operator's tryout, replayed: 0.1.0's file (tables up to 36, mode 0644) under a
    server of today. It says it migrated it (at warning), makes it private, and its
    first table is 37, not 1 again (docs/protocol.md §5.2)."""
    db = tmp_path / "old.sqlite3"
    _old_file(db)
    lines: list[dict[str, Any]] = []
    proc, port = start_server_process(db, "shutdown_grace_ms = 100", said=lines)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as ann:
            ann.sendall(b"style machine\nlogin ann\nnew 2\n")
            table = read_until(ann, b"cmd=sit").split(b"table=")[1].split()[0]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert table == b"37"
    assert db.stat().st_mode & 0o777 == 0o600
    assert proc.stderr is not None
    lines += [json.loads(line) for line in proc.stderr.read().splitlines() if line]
    [said] = [x for x in lines if x["event"] == "migrated"]
    assert (said["from"], said["to"], said["level"], said["db"]) == (0, LATEST, "warning", str(db))


def test_records_export_says_its_upgrade_on_stderr_never_among_the_records(
    tmp_path: Path,
) -> None:
    """Any command that opens the store migrates it; `records export` writes records on
    standard output, so its `migrated` line goes to standard error (structlog's default
    is standard output: an export of an old database began with a log line)."""
    db = tmp_path / "old.sqlite3"
    _old_file(db)
    done = subprocess.run(
        [sys.executable, "-m", "deberc_net", "records", "export", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout == ""  # (0.1.0's match has no deal)
    events = [json.loads(line)["event"] for line in done.stderr.splitlines()]
    assert events == ["migrated"]  # (at warning, all such a command logs)
