"""``serve --workers 2`` whose parent is killed outright (kill -9): its workers notice
(their stdin pipe's end closes with it), tell their players as on SIGTERM
(docs/protocol.md §11.4) and stop, freeing the game and web ports (docs/scaling.md)."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import pytest
import trio

from tests.server.client import fields

from .workers import served_workers

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 300\nheartbeat_ms = 500\nserver_dead_ms = 10000\n"
    "http_port = 0\n"
)
GONE_WITHIN_S = 20  # a worker's grace and its store's close, on a busy 2-core machine


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie nobody reaped yet has stopped)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _refused(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == errno.ECONNREFUSED


def _bindable(port: int) -> bool:
    with socket.socket() as sock:  # as a new server binds its web port: no SO_REUSEPORT
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_the_workers_of_a_killed_parent_tell_their_players_and_stop(
    postgres_url: str, tmp_path: Path
) -> None:
    """Before the fix they went on serving both ports as orphans (their stdin was
    /dev/null: nothing told them), and a restarted host could not bind its web port."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings) as workers:
            port = workers.port
            web = next(e["port"] for e in workers.events if e.get("event") == "http_listening")
            assert isinstance(web, int)
            ann = await workers.connect(0, "ann")
            bob = await workers.connect(1, "bob")
            await ann.send("new 2 moscow")
            await ann.read_until(lambda x: fields(x)[0] == "ok")
            pids = dict(workers.pids)
            workers.process.kill()  # kill -9 of the parent alone
            for client in (ann, bob):
                told = await client.read_until(
                    lambda x: fields(x)[0] == "info" and "shutting down" in x, GONE_WITHIN_S
                )
                assert "SIGTERM" in told, told
            with trio.fail_after(GONE_WITHIN_S):
                while any(_alive(pid) for pid in pids.values()):
                    await trio.sleep(0.1)
            assert _refused(port)
            assert _bindable(web)
            await ann.aclose()
            await bob.aclose()
        assert not [e for e in workers.events if "raw" in e], workers.events
