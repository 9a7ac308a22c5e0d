"""One of several sessions told the same thing (server/session.py, ``apart``: a
message of another worker's, an announcement): a connection closed or broken raises
nothing as it is told (``send`` drops it itself), and a failure that does raise (a
bug) is logged and ends that connection alone, the next told all the same: an
admin's announcement reaches everyone else, and the admin is answered."""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable

import pytest
import structlog.testing
import trio

from deberc_net.protocol import connection as rendered
from deberc_net.protocol import events as ev
from deberc_net.protocol.connection import Connection
from deberc_net.protocol.render import HandOrder
from deberc_net.protocol.render_ru import render_ru
from deberc_net.server.session import Outbox, Session, apart

from .conftest import Connector

SAID = ev.Said("zed", "hello all", None)


def _session(number: int, outbox: Outbox) -> Session:
    connection = Connection(0.0)
    connection.logged_in()
    return Session(number, outbox, trio.CancelScope(), connection, name=f"p{number}")


def test_a_closed_outbox_or_a_broken_socket_raises_nothing_as_it_is_told() -> None:
    closed = _session(1, Outbox(1000))
    closed.outbox.close()  # (its connection not closed yet: the writer ends it)
    closed.send(SAID)  # refused quietly: dropped as a reader too slow is
    assert closed.closed and closed.outbox.closed and not closed.outbox.chunks

    ours, theirs = socket.socketpair()
    try:
        theirs.close()  # the peer gone: a write raises BrokenPipeError
        ours.setblocking(False)
        broken = _session(2, Outbox(1000, fd=ours.fileno()))
        broken.send(SAID)  # queued for the writer, which meets the broken link itself
        assert broken.outbox.chunks and not broken.closed
    finally:
        ours.close()


def test_a_failure_for_one_session_is_logged_and_ends_it_alone() -> None:
    sessions = [_session(n, Outbox(1000)) for n in (1, 2, 3)]
    told: list[int] = []
    with structlog.testing.capture_logs() as logs:
        for session in sessions:
            with apart(session, "say"):
                if session.id == 2:
                    raise RuntimeError("a bug in one voice")
                told.append(session.id)
    assert told == [1, 3]
    assert [s.closed for s in sessions] == [False, True, False]
    assert sessions[1].ended is not None and sessions[1].ended.value == "internal"
    [failed] = [e for e in logs if e["event"] == "tell_failed"]
    assert (failed["log_level"], failed["told"], failed["name"]) == ("error", "say", "p2")


def _no_russian_announcement(event: ev.ServerEvent, order: HandOrder = HandOrder.RANK) -> list[str]:
    """Russian lines as ever, but an announcement fails to render (a bug of one voice)."""
    if isinstance(event, ev.Announced):
        raise RuntimeError("a bug in a Russian line")
    return render_ru(event, order)


async def test_an_announcement_reaches_everyone_but_one_it_fails_for(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    register: Callable[[str, str], Awaitable[None]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # failed before: the announcement stopped at ann, the first logged in, and the
    # admin's own command failed with it (connection_error: his connection ended)
    monkeypatch.setattr(rendered, "render_ru", _no_russian_announcement)
    port = await start_server(admins=["boss"])
    ann = await connect.machine(port, "ann")
    await ann.send("style human")
    await ann.read_until(lambda x: x == "Style human.")
    await ann.send("lang ru")
    await ann.read_until(lambda x: x == "Язык: русский.")
    bob = await connect.machine(port, "bob")
    await register("boss", "owners")
    boss = await connect.machine(port, "boss", "owners")
    with structlog.testing.capture_logs() as logs:
        await boss.send("announce tea at five")
        assert await bob.expect("announce") == {"from": "boss", "text": "tea at five"}
        assert (await boss.expect("ok", cmd="announce"))["cmd"] == "announce"
        await ann.wait_closed()
    [failed] = [e for e in logs if e["event"] == "tell_failed"]
    assert (failed["told"], failed["name"]) == ("announce", "ann")
    assert not [e for e in logs if e["event"] == "connection_error"]
