"""Many live-table viewers in one cheap process: bench/web_viewers.py's web pages.

    python bench/web_viewer_clients.py HTTP_PORT VIEWERS TABLE[,TABLE...] [--no-deflate]
        [--no-sizes]

Viewer i opens ``/live/table/T`` for the i-th table (round robin) and reads every
message, as a browser's page does; and as the page does (static/table.js), after a
``state`` line (at once) or a ``deal``, ``order`` or ``dealt`` event (once the dealing
has settled, never twice within 5 s) it asks ``/api/tables/T`` for the hand sizes, over
one kept-alive HTTP connection (``--no-sizes``: it does not).

The viewers are plain non-blocking sockets under one ``selectors`` loop (no trio, no
WebSocket library: a frame's header is a few bytes, and the server's frames are never
masked), so 50 of them cost far less CPU than the server spends on them, and the bench's
bots are not starved by their own viewers. Like Chromium, a viewer offers
``permessage-deflate`` (``--no-deflate``: it does not), so the server compresses for it
as it would for a browser, and the viewer inflates what it gets.

A viewer whose table closes (close frame, or the socket ends) opens the next table of
the list. Once every viewer is watching it prints ``ready``; then each line ``mark`` on
its stdin prints one JSON line of counts so far (lines, messages, bytes, reopened
sockets, hand-size asks answered, this process's CPU seconds); ``stop`` (or the end of
stdin) ends it.
"""

from __future__ import annotations

import base64
import json
import os
import selectors
import socket
import sys
import time
import zlib

HOST = "127.0.0.1"
OFFER = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
TAIL = b"\x00\x00\xff\xff"  # what permessage-deflate strips from each message (RFC 7692)
CLOSE, PING = 8, 9
SIZES_QUIET_S, SIZES_WAIT_S, SIZES_GAP_S = 0.5, 5.0, 5.0  # the page's SIZES_..._MS
# what makes the page ask for the hand sizes (static/table.js): at once, and once settled
SIZES_NOW, SIZES_SETTLED = b"state ", (b"kind=deal ", b"kind=order ", b"kind=dealt ")


class Counts:
    def __init__(self) -> None:
        self.lines = self.messages = self.bytes = self.reopened = self.sizes = 0


class Sizes:
    """A page's asks for the hand sizes (static/table.js refreshSizes): once the dealing
    has settled (nothing that changes them for SIZES_QUIET_S, or SIZES_WAIT_S after the
    first), never two within SIZES_GAP_S, one at a time."""

    def __init__(self, port: int, table: int) -> None:
        self.port, self.table = port, table
        self.sock: socket.socket | None = None
        self.buf = bytearray()
        self.since: float | None = None  # wanted since
        self.due: float | None = None  # when the next ask goes
        self.asked = -SIZES_GAP_S
        self.busy = self.again = False

    def want(self, now: float) -> None:
        if self.since is None:
            self.since = now
        settled = min(now + SIZES_QUIET_S, self.since + SIZES_WAIT_S)
        self.due = max(now, settled, self.asked + SIZES_GAP_S)

    def ask(self, selector: selectors.BaseSelector) -> None:
        self.since = self.due = None
        if self.busy:
            self.again = True
            return
        if self.sock is not None and self.sock.fileno() >= 0:
            try:  # ended by the server while idle: it says so with an empty read
                if self.sock.recv(1, socket.MSG_PEEK) == b"":
                    self.close(selector)
            except BlockingIOError:
                pass
            except OSError:
                self.close(selector)
        if self.sock is None:
            self.sock = socket.create_connection((HOST, self.port))
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.sock.setblocking(False)
            selector.register(self.sock, selectors.EVENT_READ, self)
        self.asked = time.monotonic()
        request = f"GET /api/tables/{self.table} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n\r\n"
        self.sock.sendall(request.encode())
        self.busy = True

    def read(self, counts: Counts, selector: selectors.BaseSelector) -> None:
        assert self.sock is not None
        try:
            data = self.sock.recv(65536)
        except OSError:
            data = b""
        if not data:  # the server ends a kept-alive connection (idle 5 s, or 1000 asks)
            self.close(selector)
            self.busy, self.again = False, True
        self.buf += data
        end = self.buf.find(b"\r\n\r\n")
        if end >= 0:
            head = bytes(self.buf[:end]).decode("latin-1").lower()
            length = int(head.split("content-length:", 1)[1].split("\r\n", 1)[0])
            if len(self.buf) < end + 4 + length:
                return
            del self.buf[: end + 4 + length]
            counts.sizes += 1
            self.busy = False
        if self.again and not self.busy:
            self.again = False
            self.ask(selector)

    def close(self, selector: selectors.BaseSelector) -> None:
        if self.sock is not None:
            selector.unregister(self.sock)
            self.sock.close()
            self.sock = None
            self.buf.clear()


class Viewer:
    """One page's socket: the handshake, then frames, counted."""

    def __init__(self, port: int, table: int, deflate: bool, sizes: bool) -> None:
        self.sizes = Sizes(port, table) if sizes else None
        self.sock = socket.create_connection((HOST, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /live/table/{table} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                + (OFFER if deflate else "")
                + "\r\n"
            ).encode()
        )
        self.sock.setblocking(False)
        self.buf = bytearray()
        self.open = False  # the handshake answered 101
        self.inflater: zlib._Decompress | None = None
        self.compressed = False  # the message being read (its first frame said so)

    def read(self, counts: Counts) -> bool:
        """Read what came; False once the socket is done with (table closed)."""
        try:
            data = self.sock.recv(262144)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not data:
            return False
        counts.bytes += len(data)
        self.buf += data
        if not self.open:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return True
            head = bytes(self.buf[:end]).decode("latin-1").lower()
            if not head.startswith("http/1.1 101"):
                return False  # refused: the table closed before we came
            if "permessage-deflate" in head:
                self.inflater = zlib.decompressobj(-15)
            self.open = True
            del self.buf[: end + 4]
        return self.frames(counts)

    def frames(self, counts: Counts) -> bool:
        buf = self.buf
        while len(buf) >= 2:
            first, size, at = buf[0], buf[1] & 0x7F, 2
            if size == 126:
                if len(buf) < 4:
                    break
                size, at = int.from_bytes(buf[2:4], "big"), 4
            elif size == 127:
                if len(buf) < 10:
                    break
                size, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + size:
                break
            payload = bytes(buf[at : at + size])
            del buf[: at + size]
            opcode, final = first & 0x0F, first & 0x80
            if opcode == CLOSE:
                return False
            if opcode >= PING:
                continue  # the server sends no pings unless configured to
            if opcode:  # a message's first frame (0: a continuation)
                self.compressed = bool(first & 0x40)
            if self.compressed and self.inflater is not None:
                payload = self.inflater.decompress(payload + TAIL if final else payload)
            counts.lines += payload.count(b"\n")
            if self.sizes is not None:
                if payload.startswith(SIZES_NOW) or b"\n" + SIZES_NOW in payload:
                    self.sizes.due = time.monotonic()
                elif any(told in payload for told in SIZES_SETTLED):
                    self.sizes.want(time.monotonic())
            if final:
                counts.messages += 1
        return True


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    deflate, sizes = "--no-deflate" not in sys.argv, "--no-sizes" not in sys.argv
    port, viewers = int(args[0]), int(args[1])
    tables = [int(t) for t in args[2].split(",")]
    counts = Counts()
    selector = selectors.DefaultSelector()

    def open_one(index: int) -> None:
        viewer = Viewer(port, tables[index % len(tables)], deflate, sizes)
        selector.register(viewer.sock, selectors.EVENT_READ, (viewer, index))

    for i in range(viewers):
        open_one(i)
    selector.register(sys.stdin, selectors.EVENT_READ, None)
    ready = False
    while True:
        watching = [key.data[0] for key in selector.get_map().values() if type(key.data) is tuple]
        if not ready and all(viewer.open for viewer in watching):
            ready = True
            print("ready", flush=True)
        now = time.monotonic()
        asks = [v.sizes for v in watching if v.sizes is not None and v.sizes.due is not None]
        for ask in asks:
            if ask.due is not None and ask.due <= now:
                ask.ask(selector)
        due = [ask.due for ask in asks if ask.due is not None]
        for key, _ in selector.select(timeout=min(due, default=now + 1.0) - now):
            if isinstance(key.data, Sizes):
                key.data.read(counts, selector)
                continue
            if key.data is None:
                command = sys.stdin.readline().strip()
                if command == "mark":
                    cpu = os.times()
                    mark = vars(counts) | {"cpu_s": cpu.user + cpu.system}
                    print(json.dumps(mark), flush=True)
                elif command in ("stop", ""):
                    return
                continue
            viewer, index = key.data
            if not viewer.read(counts):
                selector.unregister(viewer.sock)
                viewer.sock.close()
                if viewer.sizes is not None:
                    viewer.sizes.close(selector)
                counts.reopened += 1
                open_one(index + 1)  # the next table on the list


if __name__ == "__main__":
    main()
