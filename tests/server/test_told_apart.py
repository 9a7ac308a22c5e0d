"""One of several sessions told the same thing (server/session.py, ``apart``: a
message of another worker's, an announcement): a connection closed or broken raises
nothing as it is told (``send`` drops it itself), and a failure that does raise (a
bug) is logged and ends that connection alone, the next told all the same."""

from __future__ import annotations

import socket

import structlog.testing
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.connection import Connection
from deberc_net.server.session import Outbox, Session, apart

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
