"""Batched outboxes (server/session.py): what a task sends while it handles one message
goes out in one write per connection, in order, and another task's lines never
overtake it."""

from __future__ import annotations

import trio
import trio.testing

from deberc_net.server.session import Outbox, Session, batched, flush_batch, send_to_each


class Socket:
    """A socket's non-blocking write: takes up to ``room`` bytes a call, records each."""

    def __init__(self, room: int = 1 << 20) -> None:
        self.room = room
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> int:
        taken = data[: self.room]
        if taken:
            self.writes.append(bytes(taken))
        return len(taken)


async def test_lines_sent_in_a_batch_go_out_in_one_write_when_it_ends() -> None:
    socket = Socket()
    outbox = Outbox(1000, direct=socket.write)
    with batched():
        for line in (b"event 1\r\n", b"event 2\r\n", b"ask 2\r\n"):
            assert outbox.put(line)
        assert socket.writes == []  # nothing yet
    assert socket.writes == [b"event 1\r\nevent 2\r\nask 2\r\n"]
    assert outbox.put(b"later\r\n")  # outside a batch: at once, as before
    assert socket.writes[-1] == b"later\r\n"


async def test_a_flush_writes_what_the_batch_holds_so_far() -> None:
    socket = Socket()
    outbox = Outbox(1000, direct=socket.write)
    with batched():
        outbox.put(b"deal-end\r\n")
        flush_batch()  # before the table waits on the store
        assert socket.writes == [b"deal-end\r\n"]
        outbox.put(b"match-end\r\n")
    assert socket.writes == [b"deal-end\r\n", b"match-end\r\n"]


async def test_what_the_socket_cannot_take_waits_for_the_writer_in_order() -> None:
    socket = Socket(room=4)
    outbox = Outbox(1000, direct=socket.write)
    with batched():
        outbox.put(b"abcdef")
        outbox.put(b"gh")
    assert socket.writes == [b"abcd"]
    assert await outbox.wait()
    assert outbox.take() == b"efgh"  # the rest, first, for the writer task


async def test_a_batch_still_holds_the_outbox_to_its_limit() -> None:
    outbox = Outbox(10, direct=Socket().write)
    with batched():
        assert outbox.put(b"x" * 8)
        assert not outbox.put(b"y" * 8)  # past the limit: dropped whole
    assert outbox.closed and not outbox.chunks


async def test_another_task_never_overtakes_what_a_batch_holds() -> None:
    socket = Socket()
    outbox = Outbox(1000, direct=socket.write)
    in_batch, other_done = trio.Event(), trio.Event()

    async def table() -> None:
        with batched():
            outbox.put(b"first\r\n")
            in_batch.set()
            await other_done.wait()  # another task sends meanwhile
            outbox.put(b"third\r\n")

    async def other() -> None:
        await in_batch.wait()
        outbox.put(b"second\r\n")  # queued behind the batch's line, for the writer
        other_done.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(table)
        nursery.start_soon(other)
    written = b"".join(socket.writes)
    while outbox.chunks:
        written += outbox.take()
    assert written == b"first\r\nsecond\r\nthird\r\n"


async def test_a_task_started_inside_a_batch_is_not_part_of_it() -> None:
    socket = Socket()
    outbox = Outbox(1000, direct=socket.write)

    async def child() -> None:
        outbox.put(b"child\r\n")

    async with trio.open_nursery() as nursery:
        with batched():
            nursery.start_soon(child)  # inherits the context variable, not the batch
            await trio.testing.wait_all_tasks_blocked()
            assert socket.writes == [b"child\r\n"]


def _session(socket: Socket, limit: int = 1000) -> Session:
    return Session(len(socket.writes), Outbox(limit, direct=socket.write), trio.CancelScope())


async def test_an_event_sent_to_each_listener_goes_out_with_their_batch() -> None:
    sockets = [Socket(), Socket()]
    sessions = [_session(socket) for socket in sockets]
    with batched():
        send_to_each(sessions, ["event 1"], b"event 1\r\n")
        sessions[0].send_asked("ask 2")  # after the event, in the same write
        assert all(socket.writes == [] for socket in sockets)
    assert sockets[0].writes == [b"event 1\r\nask 2\r\n"]
    assert sockets[1].writes == [b"event 1\r\n"]


async def test_an_event_sent_to_each_outside_a_batch_goes_out_at_once() -> None:
    socket = Socket()
    send_to_each([_session(socket)], ["event 1"], b"event 1\r\n")
    assert socket.writes == [b"event 1\r\n"]


async def test_a_listener_past_its_limit_is_dropped_the_others_told() -> None:
    small, room = Socket(), Socket()
    full, fine = _session(small, limit=12), _session(room)
    with batched():
        send_to_each([full, fine], ["event 1"], b"event 1\r\n")
        send_to_each([full, fine], ["event 2"], b"event 2\r\n")  # 18 bytes: past 12
    assert full.closed and full.outbox.closed and small.writes == []
    assert room.writes == [b"event 1\r\nevent 2\r\n"]
    send_to_each([full], ["event 3"], b"event 3\r\n")  # a closed connection: nothing
    assert small.writes == []
