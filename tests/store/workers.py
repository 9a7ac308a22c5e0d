"""``deberc-net serve --workers N`` in processes of their own, for the tests: the
parent's port, each worker's pid, and which worker holds a connection (read from
/proc: the kernel, not the server, chooses the worker of a connection)."""

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

import attrs
import trio

from tests.server.client import LineClient, log_in_machine

START_LIMIT_S = 40  # two workers starting at once on a busy 2-core machine


@attrs.define
class Workers:
    port: int
    process: trio.Process
    pids: dict[int, int]  # worker index: pid (the latest, after a restart)
    events: list[dict[str, object]]  # every log line of the parent and its workers

    def holder(self, client: LineClient) -> int | None:
        """The index of the worker that serves ``client``'s connection."""
        assert isinstance(client.stream, trio.SocketStream)
        local_port = client.stream.socket.getsockname()[1]
        inode = _server_inode(self.port, local_port)
        if inode is None:
            return None
        for index, pid in self.pids.items():
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                        return index
                except OSError:
                    continue
        return None

    async def reach(self, worker: int, label: str) -> LineClient:
        """A connection to worker ``worker`` (the kernel spreads connections: try until
        one lands there)."""
        for _ in range(40):
            client = await LineClient.connect(self.port, label)
            if self.holder(client) == worker:
                return client
            await client.aclose()
        raise AssertionError(f"no connection landed on worker {worker}")

    async def connect(
        self, worker: int, name: str, password: str | None = None, token: str | None = None
    ) -> LineClient:
        """A machine-style client logged in as ``name`` on worker ``worker``."""
        return await log_in_machine(await self.reach(worker, name), name, password, token)


def _server_inode(port: int, peer_port: int) -> str | None:
    """The inode of the server's socket of the loopback connection from ``peer_port``."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as fh:
            next(fh)
            for row in fh:
                cols = row.split()
                local, remote, inode = cols[1], cols[2], cols[9]
                if int(local.rsplit(":", 1)[1], 16) == port and (
                    int(remote.rsplit(":", 1)[1], 16) == peer_port
                ):
                    return inode
    return None


@asynccontextmanager
async def served_workers(url: str, settings: Path, count: int = 2) -> AsyncIterator[Workers]:
    """``serve --workers count`` on a free port (the web face off unless ``settings``
    give it an ``http_port``); SIGTERM at the end."""
    async with trio.open_nursery() as nursery:
        web = "http_port" in settings.read_text()
        command = [
            sys.executable, "-m", "deberc_net", "serve", "--workers", str(count),
            "--db", url, "--port", "0", "--config", str(settings),
        ]  # fmt: skip
        if not web:
            command += ["--http-port", "0"]  # off
        process = await nursery.start(
            functools.partial(trio.run_process, command, stderr=subprocess.PIPE, check=False)
        )
        assert process.stderr is not None
        workers = Workers(0, process, {}, [])
        listening = trio.Event()

        async def read_log(stream: trio.abc.ReceiveStream) -> None:
            buffered = b""
            while chunk := await stream.receive_some():
                buffered += chunk
                *lines, buffered = buffered.split(b"\n")
                for line in lines:
                    try:
                        entry = json.loads(line)
                    except ValueError:  # several processes share the stream: rarely mixed
                        entry = {"raw": line.decode(errors="replace")}
                    workers.events.append(entry)
                    if entry.get("event") == "worker_listening":
                        workers.pids[int(entry["worker"])] = int(entry["pid"])
                    if entry.get("event") == "listening":
                        workers.port = int(entry["port"])
                        listening.set()

        nursery.start_soon(read_log, process.stderr)
        with trio.fail_after(START_LIMIT_S):
            await listening.wait()
        try:
            yield workers
        except BaseException:
            for entry in workers.events[-60:]:  # what the servers said, for the failure
                print(json.dumps(entry)[:400], file=sys.stderr)
            raise
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with trio.fail_after(START_LIMIT_S):
                    await process.wait()
