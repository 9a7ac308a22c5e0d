"""A throw-away PostgreSQL server for the tests: initdb on a temporary directory, a free
loopback port, trust authentication for its superuser, no fsync; stopped at the end.

The binaries are Debian's ``postgresql`` package (``make test`` installs it when they
are missing). initdb and postgres refuse to run as root: as root, they are run as the
``postgres`` user the package creates, on a directory that user owns.

One server serves a whole pytest-xdist run: its controller starts it (``start_for_run``,
in a thread, while the workers start and collect) and stops it at the run's end; each
worker attaches to it (``attach_to_run``) and makes its tests' databases there, named
after the worker. A run of its own (no xdist, or the killed-run test's held pytest)
starts its own server. initdb (about a second of CPU and two of wall time) runs once a
session: the first server made keeps a template data directory in the run's shared
temporary directory, under a lock, and any later one is a copy of it (``cp -a``: the
files keep their owner, as postgres asks).

pg_ctl puts the server in a session of its own, out of reach of whatever ends the tests'
process: a watchdog (tests/watchdog.py) stops it and removes its directory when the tests
are done with it, or when their process dies, a run killed mid-way included.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import attrs
import psycopg

from tests.watchdog import Watchdog

SUPERUSER = "postgres"
MIGRATED = "migrated"  # the template database of a fully migrated store
MIGRATED_LOCK = 0x6D696772  # 'migr': the advisory lock its maker holds


class Unavailable(Exception):
    """No PostgreSQL server can be run here (the reason says why)."""


def binaries() -> Path | None:
    """The newest installed server's bin directory."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name)
    )
    return Path(found[-1]).parent if found else None


# tmpfs, if it has room for a server and its tests' databases; /tmp is on disk here
SHARED_TMPFS = Path("/dev/shm")
TMPFS_ROOM = 1 << 30


def shared_tmp() -> str:
    """Where root puts a server's directory: a directory anyone may write in (a TMPDIR
    of root's, such as make test's own under /dev/shm, is out of the postgres user's
    reach), on tmpfs where there is room. On disk, each `CREATE DATABASE` cost the
    server some 0.3 s of CPU in the kernel (copying and removing a database's 7.5 MB of
    files), on tmpfs 0.02 s; the files and the server are as real, only not durable,
    which no test is about (the server runs without fsync anyway)."""
    try:
        sticky = SHARED_TMPFS.stat().st_mode & 0o1777 == 0o1777
        if sticky and shutil.disk_usage(SHARED_TMPFS).free >= TMPFS_ROOM:
            return str(SHARED_TMPFS)
    except OSError:
        pass
    return "/tmp"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@attrs.define
class PostgresServer:
    bin: Path
    directory: Path
    as_user: list[str]  # the command prefix that runs a server binary
    port: int = 0
    prefix: str = ""  # of its databases' names: a worker's name on a run's shared server
    _databases: int = 0
    _migrated_made: bool = False
    _watchdog: Watchdog | None = None

    @classmethod
    def start(cls, shared: Path | None = None) -> PostgresServer:
        """A running server; its data directory copied from a template kept in
        ``shared`` (made there by the first caller), or made afresh without one."""
        bin_dir = binaries()
        if bin_dir is None:
            raise Unavailable(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/"
                "initdb); `make test` installs Debian's postgresql package "
                "when run as root"
            )
        root = os.geteuid() == 0
        directory = Path(tempfile.mkdtemp(prefix="deberc-pg-", dir=shared_tmp() if root else None))
        as_user: list[str] = []
        if root:
            runuser = shutil.which("runuser")
            if runuser is None:
                raise Unavailable(
                    "running as root without runuser: cannot run postgres as an unprivileged user"
                )
            try:
                shutil.chown(directory, user=SUPERUSER)
            except LookupError:
                raise Unavailable(
                    f"running as root and there is no {SUPERUSER!r} user to run the server as"
                ) from None
            as_user = [runuser, "-u", SUPERUSER, "--"]
        server = cls(bin_dir, directory, as_user)
        server._watchdog = Watchdog.arm(server._stop_command(), ["rm", "-rf", str(directory)])
        try:
            if shared is None:
                server._initdb(server.directory / "data")
            else:
                with _locked(shared):
                    template = shared / TEMPLATE
                    if not template.exists():
                        server._initdb(server.directory / "data")
                        _publish(server.directory / "data", template)
                    else:
                        _copy(template, server.directory / "data")
            server._launch()
        except BaseException:
            server._watchdog.fire()
            raise
        return server

    @staticmethod
    def forget_template(shared: Path) -> None:
        """Remove the template (a worker whose session ends; one that starts a server
        later makes it again)."""
        with _locked(shared):
            shutil.rmtree(shared / TEMPLATE, ignore_errors=True)
            shutil.rmtree(shared / (TEMPLATE + PART), ignore_errors=True)

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [*self.as_user, *command], capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stdout}{done.stderr}")

    def _initdb(self, data: Path) -> None:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-locale",
        )

    def _launch(self) -> None:
        """pg_ctl start on a free port (again on another one if it was taken meanwhile)."""
        failed: RuntimeError | None = None
        for _attempt in range(3):
            self.port = _free_port()
            options = (
                f"-p {self.port} -h 127.0.0.1 -k {self.directory} -F "
                "-c full_page_writes=off -c synchronous_commit=off "
                # a run's workers share it: each test's servers and pools at once
                "-c max_connections=300"
            )
            try:
                self._run(
                    str(self.bin / "pg_ctl"),
                    "-D",
                    str(self.directory / "data"),
                    "-l",
                    str(self.directory / "log"),
                    "-o",
                    options,
                    "-w",
                    "-t",
                    "60",
                    "start",
                )
                return
            except RuntimeError as error:
                failed = error
                continue
        # pg_ctl may fail before it writes its log: then its own words are all there is
        log_file = self.directory / "log"
        log = log_file.read_text(errors="replace") if log_file.exists() else str(failed)
        raise RuntimeError(f"postgres would not start:\n{log}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self, *, migrated: bool = False) -> str:
        """A fresh database of no rows; its address. ``migrated``: with the store's
        migrations applied, a copy of the server's template of them (``_migrated``);
        otherwise empty (no tables). Copied file by file (FILE_COPY): the default since
        PostgreSQL 15 (WAL_LOG) writes each block of the template to the WAL, which
        costs the server more CPU than a copy and the checkpoints around it on a server
        that never syncs (measured at load 14-17: 3.8 -> 1.5 s of the server's CPU for
        eight databases created, opened twice and dropped, medians of three); either
        makes the same database."""
        template = f" TEMPLATE {self._migrated()}" if migrated else ""
        self._databases += 1
        name = f"test_{self.prefix}{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}{template}{self._strategy()}")
        return self.url(name)

    def _migrated(self) -> str:
        """The name of the server's database with the store's migrations applied and no
        rows, made by the first caller (a run's workers share the server: they take
        turns under an advisory lock). The migrations took some 0.2 s a test (a dozen
        statements, each a round trip and catalog writes); a copy takes none of it."""
        if not self._migrated_made:
            # imported here: xdist's controller starts the server, and needs no store
            from deberc_net.server.store.postgres import migrate

            with psycopg.connect(self.url(), autocommit=True) as conn:
                conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATED_LOCK,))  # to the end
                made = conn.execute(
                    "SELECT 1 FROM pg_database WHERE datname = %s", (MIGRATED,)
                ).fetchone()
                if made is None:
                    # made under another name, renamed once whole: a worker killed while
                    # it migrates leaves only a part, which the next one replaces
                    part = MIGRATED + "_part"
                    conn.execute(f"DROP DATABASE IF EXISTS {part} WITH (FORCE)")
                    conn.execute(f"CREATE DATABASE {part}{self._strategy()}")
                    with psycopg.connect(self.url(part)) as migrating:  # commits at the end
                        migrate(migrating)
                    conn.execute(f"ALTER DATABASE {part} RENAME TO {MIGRATED}")
            self._migrated_made = True
        return MIGRATED

    def _strategy(self) -> str:
        """`` STRATEGY = FILE_COPY`` where the server knows the clause (15 and later)."""
        return " STRATEGY = FILE_COPY" if int(self.bin.parent.name) >= 15 else ""

    def drop_database(self, url: str) -> None:
        """Drop a database of ``new_database`` (closing what is still connected to it): a
        test's own, once it is done, so the session does not end removing them all."""
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")

    def _stop_command(self) -> list[str]:
        pg_ctl, data = str(self.bin / "pg_ctl"), str(self.directory / "data")
        return [*self.as_user, pg_ctl, "-D", data, "-m", "immediate", "-w", "stop"]

    def stop(self) -> None:
        """Stop the server and remove its directory (its watchdog's commands, run now)."""
        assert self._watchdog is not None
        status = self._watchdog.fire()
        if status != 0:
            raise RuntimeError(f"pg_ctl stop failed with status {status}")


TEMPLATE = "postgres-template"
PART = ".part"  # the template being copied: renamed to TEMPLATE once whole


@contextlib.contextmanager
def _locked(shared: Path) -> Iterator[None]:
    """Hold the run's lock on the template (the xdist workers are processes)."""
    shared.mkdir(parents=True, exist_ok=True)
    with open(shared / (TEMPLATE + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _copy(source: Path, target: Path) -> None:
    """Copy a data directory, its files' owner and modes kept (root may copy one the
    postgres user owns)."""
    subprocess.run(["cp", "-a", str(source), str(target)], check=True, timeout=60)


def _publish(data: Path, template: Path) -> None:
    """Make ``template`` a copy of ``data``, whole or not at all: a worker killed while it
    copies (its watchdog then removes the copy's source) leaves a part under another name,
    which the next worker replaces, never a part of a template that others copy."""
    part = template.with_name(template.name + PART)
    shutil.rmtree(part, ignore_errors=True)
    _copy(data, part)
    part.rename(template)


RUN_LOCK = "postgres-run.lock"  # held by the controller until its server is up
RUN_INFO = "postgres-run.json"  # where the run's server is, or why there is none


@attrs.define
class RunServer:
    """The server of a whole xdist run, started by its controller."""

    shared: Path
    _lock: int
    _thread: threading.Thread | None = None
    _server: PostgresServer | None = None

    def _start(self) -> None:
        where: dict[str, object]
        try:
            self._server = PostgresServer.start(self.shared)
            where = {
                "port": self._server.port,
                "directory": str(self._server.directory),
                "bin": str(self._server.bin),
                "as_user": self._server.as_user,
            }
        except Unavailable as exc:
            where = {"unavailable": str(exc)}
        except Exception as exc:  # the workers' tests say why
            where = {"failed": f"{type(exc).__name__}: {exc}"}
        try:  # whole when it appears
            part = self.shared / (RUN_INFO + PART)
            part.write_text(json.dumps(where))
            part.rename(self.shared / RUN_INFO)
        finally:
            fcntl.flock(self._lock, fcntl.LOCK_UN)

    def stop(self) -> None:
        """Stop the server (once the start is done) and remove the template."""
        if self._thread is not None:
            self._thread.join()
        os.close(self._lock)
        if self._server is not None:
            self._server.stop()
        PostgresServer.forget_template(self.shared)


def start_for_run(shared: Path) -> RunServer:
    """Start the run's server in a thread; the workers wait for it in ``attach_to_run``.
    The lock is taken here, before the workers start, so none reads too early."""
    shared.mkdir(parents=True, exist_ok=True)
    lock = os.open(shared / RUN_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    run = RunServer(shared, lock)
    run._thread = threading.Thread(target=run._start, name="postgres-for-the-run")
    run._thread.start()
    return run


def attach_to_run(shared: Path, worker: str) -> PostgresServer | None:
    """The run's server, once its controller has started it (None: it started none)."""
    try:
        lock = os.open(shared / RUN_LOCK, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(lock, fcntl.LOCK_SH)  # waits while the controller starts it
        where = json.loads((shared / RUN_INFO).read_text())
    finally:
        os.close(lock)
    if "unavailable" in where:
        raise Unavailable(where["unavailable"])
    if "failed" in where:
        raise RuntimeError(f"the run's PostgreSQL server did not start: {where['failed']}")
    return PostgresServer(
        Path(where["bin"]),
        Path(where["directory"]),
        list(where["as_user"]),
        port=int(where["port"]),
        prefix=f"{worker}_",
    )
