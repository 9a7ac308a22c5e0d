"""`serve`'s start-up with a real store and real sockets: the game port is bound
before the store opens but listens only once it is open (a connection meanwhile is
refused, not left waiting), and a start-up that fails after the store opened closes
the ports it bound, not the collector."""

from __future__ import annotations

import errno
import random
import socket
import sqlite3
import threading
from pathlib import Path

import pytest
import trio

from deberc_net.server.app import serve, sole_exception
from deberc_net.testing import rule_book
from tests.server.conftest import make_config


def _free_port() -> int:
    """A port free now, below the kernel's ephemeral range: a port the kernel handed out
    and this test let go could be handed to another test's connection before the server
    binds it (seen once under load: "Address already in use"); below the range only an
    explicit bind takes a port, and the suite's servers ask for port 0."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except OSError:  # (not Linux: the range IANA suggests starts higher)
        low = 32768
    for port in random.sample(range(10_000, max(low, 10_001)), 200):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


def _bound_by_another(port: int) -> bool:
    """Whether a socket of someone else's is bound to 127.0.0.1:``port``."""
    with socket.socket() as sock:  # no SO_REUSEADDR: any socket bound there refuses it
        try:
            sock.bind(("127.0.0.1", port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return True
            raise
    return False


def _connect_while_the_store_opens(port: int, held: sqlite3.Connection, said: list[str]) -> None:
    """In a thread of its own (the store opens in the server's): once the server has
    bound its port, try to connect, then let the store open."""
    try:
        while not _bound_by_another(port):
            threading.Event().wait(0.01)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            said.append("connected")
        except ConnectionRefusedError:
            said.append("refused")
    finally:
        held.execute("COMMIT")  # the store may open now


async def test_a_connection_while_the_store_opens_is_refused_not_left_waiting(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.sqlite3"
    held = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    held.execute("BEGIN EXCLUSIVE")  # the server's store waits for it (its busy timeout)
    port, said = _free_port(), []
    watcher = threading.Thread(target=_connect_while_the_store_opens, args=(port, held, said))
    watcher.start()
    try:
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                config = make_config(db, port=port)
                assert (
                    await nursery.start(
                        lambda task_status: serve(
                            config, rules=rule_book(), task_status=task_status
                        )
                    )
                    == port
                )
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                assert b"protocol 1" in await stream.receive_some(4096)  # open now
                await stream.aclose()
                nursery.cancel_scope.cancel()
    finally:
        watcher.join()
        held.close()
    assert said == ["refused"]


class _Failed(Exception):
    pass


async def test_a_start_up_failing_after_the_store_opened_closes_its_ports(
    tmp_path: Path,
) -> None:
    """While the failure (and its traceback, which holds serve's frame) is alive, the
    port is free again: closed by serve, not left to the collector."""
    port = _free_port()

    def fail(link: object) -> None:
        raise _Failed

    config = make_config(tmp_path / "s.sqlite3", port=port)
    with pytest.raises(BaseExceptionGroup) as failure:  # out of serve's nursery
        await serve(config, rules=rule_book(), local_bound=fail)
    assert isinstance(sole_exception(failure.value), _Failed)
    assert not _bound_by_another(port)
