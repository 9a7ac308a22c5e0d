"""``Session.send_asked`` writes ``Connection.send_asked``'s work out (every call sends
one ask): the two must keep telling an ask the same way, the bytes and the answer credit
(an answer to an ask is no flood: docs/protocol.md), closed or not. The property test of
the quick call (tests/protocol/test_receive_call.py) models the asks with the
connection's own method."""

from __future__ import annotations

import trio

from deberc_net.protocol.connection import MAX_ANSWER_CREDIT, Connection
from deberc_net.server.session import Outbox, Session, batched


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


async def test_an_ask_sent_in_a_known_batch_is_send_askeds_bytes_credit_and_write() -> None:
    """``send_asked_in`` (a table's call, which knows its batch) tells an ask as
    ``send_asked`` does inside the same batch: the same bytes in the batch's one write,
    the same credit; nothing once closed; past the outbox's limit, the connection ends."""
    told = [Socket(), Socket()]
    asked_in, asked = (
        Session(n, Outbox(1000, direct=s.write), trio.CancelScope()) for n, s in enumerate(told)
    )
    with batched() as batch:
        for session in (asked_in, asked):
            session.send_lines(["event 1"])
        asked_in.send_asked_in("ask seq=2 legal=9h", batch)
        asked.send_asked("ask seq=2 legal=9h")
        assert told[0].writes == told[1].writes == []
    assert told[0].writes == told[1].writes == [b"event 1\r\nask seq=2 legal=9h\r\n"]
    assert asked_in.connection.answer_credit == asked.connection.answer_credit
    asked_in.connection.close()
    with batched() as batch:
        asked_in.send_asked_in("ask seq=3", batch)
    assert told[0].writes == [b"event 1\r\nask seq=2 legal=9h\r\n"]
    assert asked_in.connection.answer_credit == asked.connection.answer_credit + 1
    small = Socket()
    full = Session(2, Outbox(12, direct=small.write), trio.CancelScope())
    with batched() as batch:
        full.send_asked_in("ask seq=4 legal=9h", batch)  # 20 bytes: past 12
    assert full.closed and full.outbox.closed and small.writes == []
