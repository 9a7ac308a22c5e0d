"""Many live-table viewers in one cheap process: bench/web_viewers.py's web pages.

    python bench/web_viewer_clients.py HTTP_PORT VIEWERS TABLE[,TABLE...] [--no-deflate]

Viewer i opens ``/live/table/T`` for the i-th table (round robin) and reads every
message, as a browser's page does: lines, and the hand sizes when told (after a
message's last line; the page asks nothing else: static/table.js).

The viewers are plain non-blocking sockets under one ``selectors`` loop (no trio, no
WebSocket library: a frame's header is a few bytes, and the server's frames are never
masked), so 50 of them cost far less CPU than the server spends on them, and the bench's
bots are not starved by their own viewers. Like Chromium, a viewer offers
``permessage-deflate`` (``--no-deflate``: it does not), so the server compresses for it
as it would for a browser, and the viewer inflates what it gets.

A viewer whose table closes (close frame, or the socket ends) opens the next table of
the list. Once every viewer is watching and has read its first message it prints
``ready``; then each line ``mark`` on
its stdin prints one JSON line of counts so far (lines, messages, bytes, reopened
sockets, hand-size messages, this process's CPU seconds); ``stop`` (or the end of
stdin) ends it.
"""

from __future__ import annotations

import base64
import json
import os
import selectors
import socket
import sys
import zlib

HOST = "127.0.0.1"
OFFER = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
TAIL = b"\x00\x00\xff\xff"  # what permessage-deflate strips from each message (RFC 7692)
CLOSE, PING = 8, 9


class Counts:
    def __init__(self) -> None:
        self.lines = self.messages = self.bytes = self.reopened = self.sizes = 0


class Viewer:
    """One page's socket: the handshake, then frames, counted."""

    def __init__(self, port: int, table: int, deflate: bool) -> None:
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
        self.first = False  # the first message (the state and the sheet) read whole
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
            if b'{"hand_sizes":' in payload:  # told after the message's last line
                counts.sizes += 1
            if final:
                counts.messages += 1
                self.first = True
        return True


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    deflate = "--no-deflate" not in sys.argv
    port, viewers = int(args[0]), int(args[1])
    tables = [int(t) for t in args[2].split(",")]
    counts = Counts()
    selector = selectors.DefaultSelector()

    def open_one(index: int) -> None:
        viewer = Viewer(port, tables[index % len(tables)], deflate)
        selector.register(viewer.sock, selectors.EVENT_READ, (viewer, index))

    for i in range(viewers):
        open_one(i)
    selector.register(sys.stdin, selectors.EVENT_READ, None)
    ready = False
    while True:
        watching = [key.data[0] for key in selector.get_map().values() if type(key.data) is tuple]
        # ready once each has its first message: a long match's sheet is in it, which the
        # server compresses for each page, before the window counts
        if not ready and all(viewer.first for viewer in watching):
            ready = True
            print("ready", flush=True)
        for key, _ in selector.select():
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
                counts.reopened += 1
                open_one(index + 1)  # the next table on the list


if __name__ == "__main__":
    main()
