"""The socket connections' reads waited for by one task (server/poller.py): a reader
stays parked while the poller's ``handle`` takes what comes, is woken with its answer
otherwise, and is cancelled as trio's ``wait_readable`` would be."""

from __future__ import annotations

import contextlib
import os
import socket

import pytest
import trio
import trio.testing

from deberc_net.server.poller import AVAILABLE, KEEP, Poller
from deberc_net.server.session import Outbox, Session

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="epoll: Linux only")


def _pair() -> tuple[socket.socket, socket.socket]:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    return ours, theirs


def _session() -> Session:
    return Session(1, Outbox(1000, direct=len), trio.CancelScope())


class Handler:
    """A ``handle`` that reads what came and answers ``answer`` (after ``gate``, if set)."""

    def __init__(self, answer: object = KEEP) -> None:
        self.answer = answer
        self.read: list[bytes] = []
        self.gate: trio.Event | None = None
        self.entered = trio.Event()

    async def __call__(self, session: Session, fd: int) -> object:
        self.read.append(os.read(fd, 4096))
        self.entered.set()
        if self.gate is not None:
            await self.gate.wait()
        return self.answer


async def _until(check: object) -> None:
    with trio.fail_after(5):
        while not check():  # type: ignore[operator]
            await trio.sleep(0.001)


async def test_what_the_poller_handles_leaves_its_reader_parked() -> None:
    handler = Handler()
    ours, theirs = _pair()
    woken: list[object] = []
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            poller = Poller(handler, nursery.start_soon)

            async def reader() -> None:
                woken.append(await poller.wait(ours.fileno(), _session()))

            nursery.start_soon(reader)
            await trio.testing.wait_all_tasks_blocked()
            theirs.send(b"Qc seq=1\r\n")
            await _until(lambda: len(handler.read) == 1)
            theirs.send(b"Kc seq=3\r\n")
            await _until(lambda: len(handler.read) == 2)
            await trio.testing.wait_all_tasks_blocked()
            assert woken == []  # both handled, the reader never woken
            handler.answer = None  # the next: the reader reads it itself
            theirs.send(b"Ac seq=5\r\n")
            await _until(lambda: woken == [None])
            nursery.cancel_scope.cancel()
    assert handler.read == [b"Qc seq=1\r\n", b"Kc seq=3\r\n", b"Ac seq=5\r\n"]
    ours.close()
    theirs.close()


async def test_a_reader_is_woken_with_the_time_what_was_read_came() -> None:
    handler = Handler(answer=12.5)
    ours, theirs = _pair()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            poller = Poller(handler, nursery.start_soon)
            theirs.send(b"who\r\n")
            assert await poller.wait(ours.fileno(), _session()) == 12.5
            nursery.cancel_scope.cancel()
    ours.close()
    theirs.close()


async def test_a_handling_that_waits_holds_up_no_other_socket() -> None:
    slow, quick = Handler(), Handler()
    slow.gate = trio.Event()
    (a, a_peer), (b, b_peer) = _pair(), _pair()
    by_fd = {a.fileno(): slow, b.fileno(): quick}

    async def handle(session: Session, fd: int) -> object:
        return await by_fd[fd](session, fd)

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            poller = Poller(handle, nursery.start_soon)
            nursery.start_soon(poller.wait, a.fileno(), _session())
            nursery.start_soon(poller.wait, b.fileno(), _session())
            await trio.testing.wait_all_tasks_blocked()
            a_peer.send(b"last card\r\n")
            await slow.entered.wait()  # (a match's end, waiting for the store)
            b_peer.send(b"Qc seq=1\r\n")
            await _until(lambda: quick.read == [b"Qc seq=1\r\n"])
            b_peer.send(b"Kc seq=3\r\n")
            await _until(lambda: len(quick.read) == 2)
            slow.gate.set()
            await trio.testing.wait_all_tasks_blocked()
            a_peer.send(b"next\r\n")  # the socket whose handling waited is watched again
            await _until(lambda: len(slow.read) == 2)
            nursery.cancel_scope.cancel()
    for s in (a, a_peer, b, b_peer):
        s.close()


async def test_a_parked_reader_is_cancelled_and_may_wait_again() -> None:
    handler = Handler(answer=None)
    ours, theirs = _pair()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            poller = Poller(handler, nursery.start_soon)
            with trio.move_on_after(0.05) as scope:
                await poller.wait(ours.fileno(), _session())
            assert scope.cancelled_caught
            theirs.send(b"pass\r\n")  # came while nobody waited: seen at the next wait
            assert await poller.wait(ours.fileno(), _session()) is None
            nursery.cancel_scope.cancel()
    assert handler.read == [b"pass\r\n"]
    ours.close()
    theirs.close()


async def test_a_reader_cancelled_while_its_socket_is_handled_is_woken_after_it() -> None:
    handler = Handler()
    handler.gate = trio.Event()
    ours, theirs = _pair()
    seen: list[object] = []
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            poller = Poller(handler, nursery.start_soon)
            scope = trio.CancelScope()

            async def reader() -> None:
                with scope:
                    seen.append(await poller.wait(ours.fileno(), _session()))
                    await trio.lowlevel.checkpoint()
                    seen.append("not cancelled")
                seen.append(scope.cancelled_caught)

            nursery.start_soon(reader)
            await trio.testing.wait_all_tasks_blocked()
            theirs.send(b"Qc seq=1\r\n")
            await handler.entered.wait()
            scope.cancel()  # (its idle deadline, an abort) while the poller handles it
            await trio.testing.wait_all_tasks_blocked()
            assert seen == []  # not woken halfway through the handling
            handler.gate.set()
            await _until(lambda: len(seen) == 2)
            nursery.cancel_scope.cancel()
    assert isinstance(seen[0], float)  # woken to see to its scope, which then ends
    assert seen[1] is True
    ours.close()
    theirs.close()


async def test_a_socket_forgotten_and_its_number_reused_is_watched_again() -> None:
    handler = Handler(answer=None)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            poller = Poller(handler, nursery.start_soon)
            ours, theirs = _pair()
            fd = ours.fileno()
            theirs.send(b"one\r\n")
            assert await poller.wait(fd, _session()) is None
            poller.forget(fd)
            ours.close()
            theirs.close()
            again, peer = _pair()
            assert again.fileno() == fd  # (the lowest free number: the one just closed)
            peer.send(b"two\r\n")
            assert await poller.wait(fd, _session()) is None
            nursery.cancel_scope.cancel()
    assert handler.read == [b"one\r\n", b"two\r\n"]
    again.close()
    peer.close()


async def test_readers_woken_in_one_pass_run_in_the_order_their_lines_came() -> None:
    handler = Handler(answer=None)
    pairs = [_pair() for _ in range(4)]
    ran: list[int] = []
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            poller = Poller(handler, nursery.start_soon)

            async def reader(n: int, fd: int) -> None:
                await poller.wait(fd, _session())
                ran.append(n)  # (a seeker's line handled: the first sits)

            for n, (ours, _) in enumerate(pairs):
                nursery.start_soon(reader, n, ours.fileno())
            await trio.testing.wait_all_tasks_blocked()
            for _, theirs in pairs:  # all there before the poller looks
                theirs.send(b"seek 2\r\n")
            await _until(lambda: len(ran) == 4)
            nursery.cancel_scope.cancel()
    assert ran == [0, 1, 2, 3]  # (trio runs a batch of woken tasks either way round)
    for ours, theirs in pairs:
        ours.close()
        theirs.close()


def _epolls() -> int:
    """The epoll descriptors this process holds (trio's own among them)."""
    held = 0
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # (the listing's own, closed meanwhile)
            held += os.readlink(f"/proc/self/fd/{fd}") == "anon_inode:[eventpoll]"
    return held


async def test_close_closes_the_pollers_epoll() -> None:
    # its epoll was left to the collector, which a server's cycles put off: a test
    # process's hundreds of servers held one each till a full collection
    ours, theirs = _pair()
    before = _epolls()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            poller = Poller(Handler(answer=1.0), nursery.start_soon)
            theirs.send(b"who\r\n")
            await poller.wait(ours.fileno(), _session())  # (made at the first wait)
            assert _epolls() == before + 1
            nursery.cancel_scope.cancel()
    poller.close()
    assert _epolls() == before
    poller.close()  # (twice: nothing more)
    ours.close()
    theirs.close()
