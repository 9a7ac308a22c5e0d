"""Which requests waiting for their turn under the web face's pace have lost their
client, told as the kernel learns it (request_limit.Pace, docs/security.md §8).

A waiting request's connection is watched in one epoll set of the server's (one
descriptor for all of them, a task waiting on it): its client's reset is told at once,
and the request leaves the queue then, its connection's place and its address's
request given back (connection_limit.py, request_limit.RequestLimit). Before, only its
turn looked (``client_gone``), so a request whose client had gone held both till then.

A FIN is not a client gone: a client that sent its whole request and then shut down
its writing side (``shutdown(SHUT_WR)``, as ``nc -N`` does) still reads, and is
answered at its turn. A client that closed its socket whole sends the same FIN, so a
request over HTTP/1.1 is then sent an interim ``HTTP/1.1 100 Continue`` (a 1xx every
HTTP/1.1 client reads past before the answer, RFC 9110 §15.2): a closed socket's
kernel answers it with a reset, told here at once; a half-closed one reads it and its
answer follows. HTTP/1.0 has no 1xx, so its half-close waits for its answer unprobed
(a reset is still told); a live socket's handshake whose client shut its side can
never answer a ping, so its FIN is its end, as hypercorn takes it. (Linux; elsewhere
only the turn looks, for a reset.)"""

from __future__ import annotations

import contextlib
import enum
import os
import select
import sys
from collections.abc import Callable

import attrs
import trio

PROBE = b"HTTP/1.1 100 Continue\r\n\r\n"
_EPOLL = getattr(select, "epoll", None)
_FIN = getattr(select, "EPOLLRDHUP", 0)
_ONCE = getattr(select, "EPOLLONESHOT", 0)
_RESET = getattr(select, "EPOLLHUP", 0) | getattr(select, "EPOLLERR", 0)


class Reply(enum.Enum):
    """What a waiting request's client's FIN is taken as (how its request was made)."""

    PROBED = "probed"  # HTTP/1.1: sent PROBE, a reset then tells a whole close
    ANSWERED = "answered"  # HTTP/1.0: no 1xx to probe with; answered at its turn
    GONE = "gone"  # a live socket's handshake: it could never answer a ping


@attrs.define(eq=False)
class Watched:
    fd: int
    on_fin: Reply
    gone: Callable[[], None]  # its request leaves the queue (if its turn has not come)


@attrs.define
class GoneClients:
    """The waiting requests' connections, watched while ``run`` runs."""

    _epoll: select.epoll | None = attrs.field(init=False, default=None)
    _watched: dict[int, Watched] = attrs.field(init=False, factory=dict)

    def watch(
        self, sock: trio.socket.SocketType, on_fin: Reply, gone: Callable[[], None]
    ) -> Watched | None:
        """Call ``gone`` when the client of ``sock`` is known gone; None: not watched
        (no epoll, or not running)."""
        fd = sock.fileno()
        if self._epoll is None or fd < 0 or fd in self._watched:
            return None
        watched = Watched(fd, on_fin, gone)
        try:
            self._epoll.register(fd, _FIN | _ONCE)
        except OSError:
            return None
        self._watched[fd] = watched
        return watched

    def unwatch(self, watched: Watched | None) -> None:
        if watched is None or self._watched.get(watched.fd) is not watched:
            return
        del self._watched[watched.fd]
        if self._epoll is not None:
            with contextlib.suppress(OSError):  # (closed meanwhile: epoll dropped it)
                self._epoll.unregister(watched.fd)

    def __len__(self) -> int:
        return len(self._watched)

    async def run(self) -> None:
        """Watch, for good (none is watched before this runs)."""
        if _EPOLL is None:
            await trio.sleep_forever()
        with _EPOLL() as epoll:
            self._epoll = epoll
            try:
                while True:
                    await trio.lowlevel.wait_readable(epoll.fileno())
                    for fd, events in epoll.poll(0):
                        self._told(fd, events)
            finally:
                self._epoll = None
                self._watched.clear()

    def _told(self, fd: int, events: int) -> None:
        watched = self._watched.get(fd)
        if watched is None or self._epoll is None:
            return
        if not events & _RESET and watched.on_fin != Reply.GONE:
            if watched.on_fin == Reply.PROBED and not probe(fd):
                events |= _RESET  # (the probe's write failed: reset already)
            else:  # (a half-close, or a whole close: only a reset tells now)
                with contextlib.suppress(OSError):
                    self._epoll.modify(fd, _ONCE)
                    watched.on_fin = Reply.ANSWERED
                    return
        self.unwatch(watched)
        watched.gone()


def probe(fd: int) -> bool:
    """Send PROBE; False if the connection is broken already. Only into an empty send
    queue, which takes its 25 bytes at once: a part of it written behind an earlier
    answer its client has not read yet (a keep-alive's) would break the stream, so such
    a client's FIN is taken as a half-close, answered at its turn."""
    try:
        if _unsent(fd):
            return True
        os.write(fd, PROBE)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return True


def _unsent(fd: int) -> int:
    """The bytes in ``fd``'s send queue, not yet sent or acknowledged (SIOCOUTQ). (Asked
    only where epoll is: Linux, which has these modules.)"""
    import fcntl
    import termios

    queued = fcntl.ioctl(fd, termios.TIOCOUTQ, b"\0\0\0\0")
    return int.from_bytes(queued, sys.byteorder, signed=True)


def client_gone(sock: trio.socket.SocketType) -> bool:
    """Whether the client has reset ``sock`` (a whole close answered by a reset, too:
    above), or the server closed it: asked of the kernel at once (POLLHUP
    and POLLERR are told unasked), not waited for. A FIN alone is not: a client that
    half-closes after its request still reads, and is answered."""
    fd = sock.fileno()
    if fd < 0:
        return True
    poller = select.poll()
    poller.register(fd, 0)
    return bool(poller.poll(0))
