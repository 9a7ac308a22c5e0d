"""``serve --workers``' parent starts processes and serves nobody: it imports neither
psycopg, trio nor the accounts' module (each worker does; in the parent they were a
third of a second of CPU at every start), and its ``listening`` line still names the
database, as the workers' 'ready' said it."""

from __future__ import annotations

import functools
import json
import signal
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
async def test_the_parent_of_workers_imports_no_database_client_nor_server(
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
    assert said == b"[]\n"


async def _drain(stream: trio.abc.ReceiveStream) -> None:
    while await stream.receive_some():
        pass
