"""``serve --workers``' parent imports the server once, for the workers it forks
(cluster/forked.py), but only once its own checks have passed: a ``serve --workers``
that refuses its arguments or its port imports neither psycopg, trio nor the accounts'
module (a third of a second of CPU), and says so as quickly as ever. Its ``listening``
line names the database as the workers' 'ready' said it (the parent reads no address)."""

from __future__ import annotations

import functools
import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from .workers import START_LIMIT_S, settings_file

# the CLI, saying at its exit which of these it had imported
PROBE = (
    "import atexit, sys\n"
    "from deberc_net.cli import main\n"
    "HEAVY = ('psycopg', 'trio', 'deberc_net.server.accounts')\n"
    "atexit.register(lambda: print([m for m in HEAVY if m in sys.modules], flush=True))\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@pytest.mark.timeout(90)
async def test_the_parent_of_workers_imports_the_server_for_its_forks_and_names_the_db(
    postgres_url: str, tmp_path: Path
) -> None:
    command = [
        sys.executable, "-c", PROBE, "serve", "--workers", "2", "--db", postgres_url,
        "--port", "0", "--http-port", "off", "--config", str(settings_file(tmp_path)),
    ]  # fmt: skip
    async with trio.open_nursery() as nursery:
        process: trio.Process = await nursery.start(
            functools.partial(
                trio.run_process,
                command,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                check=False,
            )
        )
        assert process.stdout is not None and process.stderr is not None
        logged = b""
        with trio.fail_after(START_LIMIT_S):
            while b'"listening"' not in logged:
                chunk = await process.stderr.receive_some()
                assert chunk, logged.decode(errors="replace")
                logged += chunk
        process.send_signal(signal.SIGTERM)
        said = b""
        with trio.fail_after(START_LIMIT_S):
            async with trio.open_nursery() as readers:
                # (the logs drained meanwhile: a full pipe would hold up its stop)
                readers.start_soon(_drain, process.stderr)
                while chunk := await process.stdout.receive_some():
                    said += chunk
            await process.wait()
    listening = next(json.loads(line) for line in logged.splitlines() if b'"listening"' in line)
    assert listening["db"] == postgres_url and listening["workers"] == 2
    assert process.returncode == 0
    # the parent's (a worker, forked, ends by os._exit: no atexit of the parent's)
    assert said == b"['psycopg', 'trio', 'deberc_net.server.accounts']\n"


@pytest.mark.timeout(60)
def test_a_refused_serve_workers_imports_no_server(postgres_url: str, tmp_path: Path) -> None:
    base = [sys.executable, "-c", PROBE, "serve", "--workers", "2", "--http-port", "off"]
    base += ["--config", str(settings_file(tmp_path))]
    sqlite = str(tmp_path / "club.sqlite3")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        for args, why in (
            (["--db", sqlite, "--port", "0"], "needs --db postgresql"),
            (["--db", postgres_url, "--host", "127.0.0.1", "--port", port], "cannot listen"),
        ):
            done = subprocess.run(base + args, capture_output=True, timeout=30, check=False)
            assert done.returncode == 2, done.stderr
            assert why in done.stderr.decode(), done.stderr
            assert done.stdout == b"[]\n"


async def _drain(stream: trio.abc.ReceiveStream) -> None:
    while await stream.receive_some():
        pass
