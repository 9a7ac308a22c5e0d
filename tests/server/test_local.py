"""In-process streams (server/local.py): bytes through in order, bounded like a socket,
and the ends of a closed pair behave as trio's streams do."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from deberc_net.server.local import LIMIT, LocalStream, local_stream_pair


async def test_what_one_end_sends_the_other_receives_in_order() -> None:
    left, right = local_stream_pair()
    await left.send_all(b"seek reserved\n")
    await left.send_all(b"play 7S seq=3\n")
    assert await right.receive_some() == b"seek reserved\nplay 7S seq=3\n"
    await right.send_all(b"ok\n")
    assert await left.receive_some(1) == b"o"
    assert await left.receive_some(10) == b"k\n"


async def test_a_reader_waits_until_something_is_sent() -> None:
    left, right = local_stream_pair()
    got: list[bytes] = []

    async def read() -> None:
        got.append(await right.receive_some())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read)
        await trio.testing.wait_all_tasks_blocked()
        assert got == []
        assert left.write_nowait(b"hello\n") == 6
    assert got == [b"hello\n"]


async def test_a_direction_holds_at_most_its_limit_and_a_sender_waits_for_room() -> None:
    left, right = local_stream_pair()
    assert left.write_nowait(b"x" * (LIMIT - 10)) == LIMIT - 10
    assert left.write_nowait(b"y" * 30) == 10  # only what fits
    assert left.write_nowait(b"z") == 0
    sent = trio.Event()

    async def send() -> None:
        await left.send_all(b"w" * 100)
        sent.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(send)
        await trio.testing.wait_all_tasks_blocked()
        assert not sent.is_set()  # full: the sender waits
        first = await right.receive_some(LIMIT)
        assert len(first) == LIMIT
    assert sent.is_set()
    assert await right.receive_some() == b"w" * 100


async def test_closing_one_end_ends_the_other_after_what_was_sent() -> None:
    left, right = local_stream_pair()
    await left.send_all(b"bye\n")
    await left.aclose()
    assert await right.receive_some() == b"bye\n"
    assert await right.receive_some() == b""
    with pytest.raises(trio.BrokenResourceError):
        await right.send_all(b"anyone?\n")
    assert right.write_nowait(b"anyone?\n") == 0
    with pytest.raises(trio.ClosedResourceError):
        await left.receive_some()
    with pytest.raises(trio.ClosedResourceError):
        await left.send_all(b"x")


async def test_a_waiting_reader_is_woken_by_the_other_end_closing() -> None:
    left, right = local_stream_pair()
    got: list[bytes] = []

    async def read() -> None:
        got.append(await right.receive_some())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read)
        await trio.testing.wait_all_tasks_blocked()
        await left.aclose()
    assert got == [b""]


async def test_a_waiting_read_can_be_cancelled_and_the_stream_still_works() -> None:
    left, right = local_stream_pair()
    with trio.move_on_after(0.01):
        await right.receive_some()
    await left.send_all(b"later\n")
    assert await right.receive_some() == b"later\n"


async def test_two_tasks_may_not_read_one_end_at_once() -> None:
    left, right = local_stream_pair()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(right.receive_some)
        await trio.testing.wait_all_tasks_blocked()
        with pytest.raises(trio.BusyResourceError):
            await right.receive_some()
        await left.send_all(b"x")


class _Taker:
    """A receiver that answers every write at once, from inside it."""

    def __init__(self) -> None:
        self.got: list[bytes] = []
        self.lost = 0
        self.end: LocalStream | None = None

    def data_received(self, data: bytes) -> None:
        self.got.append(data)
        assert self.end is not None
        self.end.write_nowait(b"ok " + data)

    def connection_lost(self) -> None:
        self.lost += 1


async def test_a_receiver_is_handed_each_write_in_the_writers_call_and_may_answer() -> None:
    taker = _Taker()
    mine, served = local_stream_pair(taker)
    taker.end = mine
    assert served.write_nowait(b"ask seq=1\n") == len(b"ask seq=1\n")
    assert taker.got == [b"ask seq=1\n"]  # no task ran in between: it was handed over
    await served.send_all(b"x" * (2 * LIMIT))  # no limit: nothing waits to be read
    assert taker.got[-1] == b"x" * (2 * LIMIT)
    assert await served.receive_some(10) == b"ok ask seq"
    with pytest.raises(trio.BusyResourceError):  # its bytes are the receiver's
        await mine.receive_some()
    await served.aclose()
    await mine.aclose()
    assert taker.lost == 1  # told once, though both ends closed
    assert served.write_nowait(b"late\n") == 0 and taker.got[-1] != b"late\n"
