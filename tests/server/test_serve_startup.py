"""`serve`'s start-up with a real store and real sockets: the game port is bound
before the store opens but listens only once it is open (a connection meanwhile is
refused, not left waiting), and a start-up that fails after the store opened closes
the ports it bound, not the collector."""

from __future__ import annotations

import errno
import random
import socket
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.server import app
from deberc_net.server.app import serve, sole_exception
from deberc_net.server.ports import bind_game_port
from deberc_net.server.store import Store, open_store
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


async def test_a_connection_while_the_store_opens_is_refused_not_left_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection is made from inside the store's open (its port learnt from the
    bind), so it is made in that window whatever the load. It once waited in a thread
    for the port to be bound by binding it itself: a probe bound at the moment serve
    bound made serve's own bind fail (Address already in use, seen under load)."""
    ports: list[int] = []
    said: list[str] = []

    async def bind_and_note(host: str, port: int) -> list[trio.socket.SocketType]:
        bound = await bind_game_port(host, port)
        ports.extend(sock.getsockname()[1] for sock in bound)
        return bound

    def connect_then_open(db: str | Path, **kwargs: Any) -> Store:
        try:
            socket.create_connection(("127.0.0.1", ports[0]), timeout=5).close()
            said.append("connected")
        except ConnectionRefusedError:
            said.append("refused")
        return open_store(db, **kwargs)

    monkeypatch.setattr(app, "bind_game_port", bind_and_note)
    monkeypatch.setattr(app, "open_store", connect_then_open)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            config = make_config(tmp_path / "s.sqlite3")
            port = await nursery.start(
                lambda task_status: serve(config, rules=rule_book(), task_status=task_status)
            )
            assert ports == [port]
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            assert b"protocol 1" in await stream.receive_some(4096)  # open now
            await stream.aclose()
            nursery.cancel_scope.cancel()
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
