"""``deberc-net serve --workers 2`` whose stdout is what the test gives (a pipe it may
leave unread), its log lines read as tests/store/workers.py's ``served_workers`` reads
them; and a rule plugin written for a test, put on the path of the server's processes."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

from tests.dist_info import write_distribution
from tests.hangup import as_from_a_terminal

from .workers import START_LIMIT_S, Workers


def plugin_on_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str
) -> None:
    """Rule plugin ``name`` (module ``deberc_<name>mod``: ``source``) installed for the
    server's processes (PYTHONPATH)."""
    site = tmp_path / "site"
    site.mkdir()
    module = f"deberc_{name}mod"
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    write_distribution(site, f"deberc-{name}", f"[deberc_net]\n{name} = {module}\n")
    path = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))


@asynccontextmanager
async def served_to(url: str, settings: Path, stdout: int) -> AsyncIterator[Workers]:
    """``serve --workers 2`` on a free port, its stdout ``stdout`` (a descriptor), the
    web face off; SIGTERM at the end, then waited for."""
    argv = [
        sys.executable, "-m", "deberc_net", "serve", "--workers", "2", "--db", url,
        "--port", "0", "--config", str(settings), "--http-port", "off",
    ]  # fmt: skip
    command = as_from_a_terminal(argv)
    async with trio.open_nursery() as nursery:
        process = await nursery.start(
            functools.partial(
                trio.run_process, command, stdout=stdout, stderr=subprocess.PIPE, check=False
            )
        )
        assert process.stderr is not None
        workers = Workers(0, process, {}, [])
        listening = trio.Event()

        async def read_log(stream: trio.abc.ReceiveStream) -> None:
            buffered = b""
            while chunk := await stream.receive_some():
                *lines, buffered = (buffered + chunk).split(b"\n")
                for line in lines:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        entry = {"raw": line.decode(errors="replace")}
                    workers.events.append(entry)
                    if entry.get("event") == "worker_listening":
                        workers.pids[int(entry["worker"])] = int(entry["pid"])
                    if entry.get("event") == "listening":
                        workers.port = int(entry["port"])
                        listening.set()

        nursery.start_soon(read_log, process.stderr)
        try:
            with trio.fail_after(START_LIMIT_S):
                await listening.wait()
            yield workers
        except BaseException:
            for entry in workers.events[-40:]:  # what the servers said, for the failure
                print(json.dumps(entry)[:400], file=sys.stderr)
            raise
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with trio.fail_after(START_LIMIT_S):
                    await process.wait()


async def restarted(workers: Workers, index: int, how: int) -> int:
    """Worker ``index`` signalled ``how``; its successor's pid, once it listens."""
    old = workers.pids[index]
    os.kill(old, how)
    with trio.fail_after(30):
        while workers.pids[index] == old:
            await trio.sleep(0.05)
    return workers.pids[index]
