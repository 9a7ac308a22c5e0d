"""`deberc-net serve` refused at start-up (a port in use or out of range, a host that
does not resolve, the web face on the game port, a settings file or database it cannot
open): one line saying why, status 2, no traceback — a real process against ports a
socket of the test's own holds; the refusals made as the settings are read (a port out
of range, a settings file or database it cannot open) through ``main`` in the test's
process."""

from __future__ import annotations

import signal
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from deberc_net.cli import main


@pytest.fixture
def held_port() -> Iterator[int]:
    """A loopback port this test listens on, so the server cannot."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


def _serve(tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "deberc_net", "serve", "--db", str(tmp_path / "s.sqlite3")]
    return subprocess.run(
        [*command, *flags], capture_output=True, text=True, timeout=30, check=False
    )


def _said(done: subprocess.CompletedProcess[str]) -> str:
    """The one line the command said; it ended with status 2 and no traceback."""
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("deberc-net serve: "), done.stderr
    return last


def test_a_game_port_in_use_is_one_line(tmp_path: Path, held_port: int) -> None:
    line = _said(_serve(tmp_path, "--port", str(held_port), "--http-port", "off"))
    assert f"cannot listen on 127.0.0.1:{held_port}" in line and "in use" in line
    assert line.endswith("; set by host's default and --port"), line
    assert list(tmp_path.iterdir()) == []  # bound before the store: no database made


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_from_the_settings_file_names_the_file(
    tmp_path: Path, held_port: int, workers: str
) -> None:
    """As the web face on the game's port is said: an operator's tryout, its port in
    the settings file, was told 'set by host and port (--host, --port)' and looked for
    a flag he had not given. (--workers' parent binds the port before the database.)"""
    settings = tmp_path / "server.toml"
    settings.write_text(f'[server]\nhost = "127.0.0.1"\nport = {held_port}\nhttp_port = "off"\n')
    db = ["--db", "postgresql://nobody@127.0.0.1:1/none"] if workers == "2" else []
    line = _said(_serve(tmp_path, "--config", str(settings), "--workers", workers, *db))
    assert f"cannot listen on 127.0.0.1:{held_port}: " in line, line
    assert line.endswith(f"; set by host and port in {settings}"), line
    settings.write_text(f"[server]\nport = {held_port}\n")
    flags = ["--config", str(settings), "--host", "127.0.0.1", "--http-port", "off"]
    line = _said(_serve(tmp_path, *flags, "--workers", workers, *db))
    assert line.endswith(f"; set by --host and port in {settings}"), line


def test_a_web_port_in_use_is_one_line(tmp_path: Path, held_port: int) -> None:
    line = _said(_serve(tmp_path, "--port", "0", "--http-port", str(held_port)))
    assert f"cannot listen on 127.0.0.1:{held_port} (web)" in line and "in use" in line
    # an unset http_host is the game's host, not a default of its own
    assert line.endswith("; set by the game's host (http_host unset) and --http-port"), line
    assert list(tmp_path.iterdir()) == []


def test_a_port_in_use_leaves_an_existing_database_as_it_was(
    tmp_path: Path, held_port: int
) -> None:
    """The store is not even opened (no server row written, no WAL files made)."""
    db = tmp_path / "s.sqlite3"
    made = sqlite3.connect(db)
    made.execute("CREATE TABLE kept (x)")
    made.close()
    before = db.read_bytes()
    _said(_serve(tmp_path, "--port", str(held_port), "--http-port", "off"))
    assert [p.name for p in tmp_path.iterdir()] == ["s.sqlite3"] and db.read_bytes() == before


def test_a_host_that_does_not_resolve_is_one_line(tmp_path: Path) -> None:
    line = _said(_serve(tmp_path, "--host", "nosuch.invalid", "--port", "0", "--http-port", "off"))
    assert "cannot listen on nosuch.invalid:0" in line


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--port", "70000"], "--port expects a port number, 0 to 65535, not 70000"),
        (["--port", "-5"], "--port expects a port number, 0 to 65535, not -5"),
        (["--http-port", "70001"], "--http-port expects a port number, 0 to 65535, not 70001"),
        (
            ["--port", "7611", "--http-port", "7611"],
            "the web face's port 7611 (--http-port) is the game's port too (--port)",
        ),
    ],
)
def test_a_port_out_of_range_is_refused_before_anything_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    db = tmp_path / "s.sqlite3"
    assert main(["serve", "--db", str(db), *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"deberc-net serve: {said}") and err.count("\n") == 1, err
    assert not db.exists()


@pytest.mark.parametrize("where", ["held", "nosuch.invalid"])
def test_serve_workers_on_a_port_it_cannot_bind_is_one_line_too(
    tmp_path: Path, held_port: int, where: str
) -> None:
    """--workers binds the port in the parent, before any worker or the database."""
    host, port = ("127.0.0.1", held_port) if where == "held" else (where, 0)
    db = "postgresql://nobody@127.0.0.1:1/none"  # never reached: the port comes first
    flags = ["--workers", "2", "--db", db, "--host", host, "--port", str(port)]
    line = _said(_serve(tmp_path, *flags, "--http-port", "off"))
    assert line.startswith(f"deberc-net serve: cannot listen on {host}:{port}: "), line


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (
            ["--config", "nosuch.toml"],
            "there is no settings file nosuch.toml: give the path of an existing TOML file",
        ),
        (["--config", "."], ". is a folder, not a settings file: give a file's path"),
        (
            ["--db", "nodir/s.sqlite3"],
            "cannot create the database nodir/s.sqlite3: there is no folder nodir; create it"
            " first, or give another path",
        ),
        (["--db", "."], ". is a folder, not a database file: give a file's path"),
        (
            ["--db", "notes.txt"],
            "notes.txt is not an SQLite database (left as it is): give another file",
        ),
    ],
)
def test_a_settings_file_or_database_it_cannot_open_is_one_sentence(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    said: str,
) -> None:
    """Refused as the settings are read, before the logs' and the server's imports:
    ``main`` in the test's process, as for a port out of range (the process's own exit
    status and one line are the ports' tests above; a process here cost some 0.7 s of
    start-up a case)."""
    (tmp_path / "notes.txt").write_text("not a database\n")
    (tmp_path / "notes.txt").chmod(0o644)  # (a database others may read is made 0600)
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "0", "--http-port", "off", *flags]) == 2
    err = capsys.readouterr().err
    assert err == f"deberc-net serve: {said}\n", err  # one line, no traceback
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # nothing made
    assert (tmp_path / "notes.txt").read_text() == "not a database\n"  # nor changed
    assert stat.S_IMODE((tmp_path / "notes.txt").stat().st_mode) == 0o644  # its mode too


# `deberc-net serve` as its console script runs it (`main()`, the command line from
# sys.argv), with a Ctrl-C that lands while the command imports the module named first
# (an import hook sends it, so it lands there)
_INTERRUPT_AT = """
import os, signal, sys

module = sys.argv.pop(1)

class InterruptAt:
    def find_spec(self, name, path=None, target=None):
        if name == module:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, InterruptAt())
from deberc_net.cli import main
"""
_INTERRUPTED_WHILE_IMPORTING = _INTERRUPT_AT + "raise SystemExit(main())\n"
# a program calling `main(argv)` itself: the Ctrl-C is its own to handle
_A_CALLERS_MAIN_INTERRUPTED = (
    _INTERRUPT_AT
    + """
try:
    main(sys.argv[1:])
except KeyboardInterrupt:
    print("the caller's")
    raise SystemExit(5)
"""
)


@pytest.mark.parametrize("module", ["trio", "deberc_net.server.app", "structlog"])
def test_ctrl_c_during_serves_imports_ends_it_quietly(tmp_path: Path, module: str) -> None:
    # failed before: a KeyboardInterrupt's traceback from inside the import
    command = [sys.executable, "-c", _INTERRUPTED_WHILE_IMPORTING, module, "serve"]
    flags = ["--port", "0", "--http-port", "off", "--db", str(tmp_path / "s.sqlite3")]
    done = subprocess.run(
        [*command, *flags], capture_output=True, text=True, timeout=30, check=False
    )
    # as an interrupted process ends (a shell's status 130), and nothing said
    assert done.returncode == -signal.SIGINT, done.stderr
    assert done.stderr == "" and done.stdout == ""
    assert list(tmp_path.iterdir()) == []  # nothing opened


def test_ctrl_c_in_a_callers_own_main_call_is_the_callers(tmp_path: Path) -> None:
    """A program (a test, a notebook) calling ``main(argv)`` gets the KeyboardInterrupt,
    as from any function: only the console script ends its process by SIGINT. Failed
    before: the caller's process was ended by SIGINT from inside ``main``."""
    command = [sys.executable, "-c", _A_CALLERS_MAIN_INTERRUPTED, "trio", "serve"]
    flags = ["--port", "0", "--http-port", "off", "--db", str(tmp_path / "s.sqlite3")]
    done = subprocess.run(
        [*command, *flags], capture_output=True, text=True, timeout=30, check=False
    )
    assert (done.returncode, done.stdout) == (5, "the caller's\n"), done.stderr


@pytest.mark.parametrize(
    ("argv", "usage", "unknown"),
    [
        (["serve", "--prot", "7600"], "usage: deberc-net serve ", "--prot 7600"),
        (["ladder", "run", "--bot", "a=x", "--prot"], "usage: deberc-net ladder run ", "--prot"),
        (["records", "export", "--x"], "usage: deberc-net records export ", "--x"),
    ],
)
def test_a_mistyped_flag_is_answered_with_its_commands_usage(
    argv: list[str], usage: str, unknown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # failed before: the top level's usage, which lists the commands and no flag of theirs
    with pytest.raises(SystemExit) as ended:
        main(argv)
    said = capsys.readouterr().err
    assert ended.value.code == 2
    assert said.startswith(usage), said
    assert said.rstrip().endswith(f"error: unrecognized arguments: {unknown}"), said
