"""``Session.send_asked`` writes ``Connection.send_asked``'s work out (every call sends
one ask): the two must keep telling an ask the same way, the bytes and the answer credit
(an answer to an ask is no flood: docs/protocol.md), closed or not. The property test of
the quick call (tests/protocol/test_receive_call.py) models the asks with the
connection's own method."""

from __future__ import annotations

import trio

from deberc_net.protocol.connection import MAX_ANSWER_CREDIT, Connection
from deberc_net.server.session import Outbox, Session


class Socket:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.writes.append(bytes(data))
        return len(data)


async def test_a_sessions_ask_is_the_connections_bytes_and_credit_closed_or_not() -> None:
    socket = Socket()
    session = Session(0, Outbox(1000, direct=socket.write), trio.CancelScope())
    alone = Connection(0.0)
    for line in ["ask seq=1 legal=9h", "ask seq=2 legal=Кп"] * MAX_ANSWER_CREDIT:
        expected = alone.send_asked([line])
        session.send_asked(line)
        assert socket.writes[-1] == expected
        assert session.connection.answer_credit == alone.answer_credit
    assert session.connection.answer_credit == MAX_ANSWER_CREDIT  # capped
    session.connection.answer_credit = alone.answer_credit = 0
    session.connection.close()
    alone.close()
    written = len(socket.writes)
    assert alone.send_asked(["ask seq=3"]) == b""
    session.send_asked("ask seq=3")
    assert len(socket.writes) == written  # nothing once closed, the credit still counted
    assert session.connection.answer_credit == alone.answer_credit == 1
