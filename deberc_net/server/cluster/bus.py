"""The bus between workers: PostgreSQL LISTEN/NOTIFY (docs/scaling.md says why).

Two connections per worker. The listener LISTENs on ``lobby`` (what every worker
keeps a copy of) and on its own channel ``w<id>`` (what is addressed to it), and is
read from trio without a thread: trio waits for its socket, libpq parses what came.
The publisher sends what was queued since its last send in one transaction, from a
worker thread, so the event loop never waits on the database and messages leave in
the order they were queued (a table's events keep their order). Every payload carries
the sender's serial number: PostgreSQL folds identical notifications of one
transaction into one, and no two of ours are identical.
"""

from __future__ import annotations

import itertools
import json
import re
import select
from collections import Counter
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

import psycopg
import structlog
import trio

from deberc_net.server.store.postgres import connect

log = structlog.get_logger("deberc.bus")
LOBBY = "lobby"
MAX_PAYLOAD = 7900  # bytes: PostgreSQL refuses a notification of 8000 or more
# a merged message grows while its payload, as sent (JSON, UTF-8), fits MAX_PAYLOAD:
# counted in bytes, not letters (an emoji is four): its text and done ids exactly, its
# other fields (kind, session, asks, serial, sender: short names, whole numbers) as at
# most OTHER_FIELDS; its 'done' (answers without text merge only that) grows to this
# many request ids at most
OTHER_FIELDS = 200  # bytes
MERGED_DONE = 64
# a session's text is sent in pieces whose text, as sent (JSON-escaped, UTF-8, its
# quotes), takes at most this many bytes: a piece's payload fits MAX_PAYLOAD. A letter
# takes up to WIDEST_LETTER bytes there (a control character's \u00XX; an emoji 4)
TEXT_ROOM = MAX_PAYLOAD - OTHER_FIELDS
WIDEST_LETTER = 6
Message = dict[str, Any]
# a guest's resume token in a message ('logged in', 'left': node.py), hidden where a
# message is logged: whoever reads the log must not be able to take the guest's seat
_TOKEN = re.compile(rb'("token"\s*:\s*)"[^"]*"')
LOGGED_PAYLOAD = 200  # bytes of a message that failed, in its log line


def logged_payload(payload: bytes) -> bytes:
    """A message's first bytes as its log line shows them, its guest token hidden."""
    return _TOKEN.sub(rb'\1"(hidden)"', payload)[:LOGGED_PAYLOAD]


def channel(worker: int) -> str:
    return f"w{worker}"


class Bus:
    """Publish JSON messages on channels; hand each one heard to ``heard``."""

    def __init__(self, url: str, worker: int, heard: Callable[[Message], None]) -> None:
        self.url = url
        self.worker = worker
        self.heard = heard
        self._serial = itertools.count()
        self._queued: list[tuple[str, Message]] = []
        # the payload bytes of the last message queued, if it may be merged into (at
        # most: ``_bytes``), kept as it grows
        self._last_bytes = 0
        self._wake = trio.Event()
        self._listener: psycopg.Connection[Any] | None = None
        self._publisher: psycopg.Connection[Any] | None = None
        self.published = self.received = self.sends = 0  # counted, logged at the end
        self.kinds: Counter[str] = Counter()  # messages published, by kind

    def open(self) -> None:
        """Connect and LISTEN (blocking: before the server listens)."""
        listener = connect(self.url)
        listener.autocommit = True
        listener.execute(f"LISTEN {LOBBY}")
        listener.execute(f"LISTEN {channel(self.worker)}")
        self._listener = listener
        self._publisher = connect(self.url)

    def close(self, farewell: Message | None = None) -> None:
        """Send what is still queued (and ``farewell``) at once, then disconnect
        (blocking: the worker is stopping)."""
        if farewell is not None:
            self.publish(LOBBY, farewell)
        queued, self._queued = self._queued, []
        if self._publisher is not None and queued:
            try:
                send_batch(self._publisher, self.payloads(queued))
            except psycopg.Error:  # the database away: the others find out by silence
                log.warning("bus_farewell_failed")
        log.info(
            "bus_closed",
            published=self.published,
            sends=self.sends,
            heard=self.received,
            kinds=dict(self.kinds),
        )
        for conn in (self._listener, self._publisher):
            if conn is not None:
                conn.close()

    def publish(self, to: str, message: Message, *, merge: bool = False) -> None:
        """Queue ``message`` for channel ``to`` (sent by ``run``'s publisher, in order).
        ``merge``: its ``text`` (and ``asks``, ``done``) may join the message queued just before
        it, if that one is of the same kind, for the same channel and session (``s``):
        a table's burst of lines to one player leaves as one notification."""
        self.published += 1
        self.kinds[message["k"]] += 1
        if merge and self._queued:
            last_to, last = self._queued[-1]
            if (
                last_to == to
                and last.get("merge")
                and last["k"] == message["k"]
                and last["s"] == message["s"]
                and last.get("t") == message.get("t")  # (lines of one table: node._out)
                and len(last.get("done", ())) < MERGED_DONE
            ):
                # (its text's quotes are there already)
                merged_bytes = self._last_bytes + _bytes(message) - OTHER_FIELDS - 2
                if merged_bytes <= MAX_PAYLOAD:
                    last["text"] += message["text"]
                    last["asks"] += message["asks"]
                    if message.get("done"):  # (the requests the text so far answered)
                        last["done"] = last.get("done", []) + message["done"]
                    self._last_bytes = merged_bytes
                    return
        message["n"] = next(self._serial)
        message["w"] = self.worker
        if merge:
            message["merge"] = True
        self._queued.append((to, message))
        if merge:
            self._last_bytes = _bytes(message)
        self._wake.set()

    def publish_text(
        self, to: str, session: int, text: str, asks: int, table: int | None = None
    ) -> None:
        """Queue ``text`` for ``session`` on channel ``to`` in as few messages as fit
        (``text_pieces``), merged where they may be (``publish``); ``asks``: with the
        last. ``table``: the text is lines of that table, which he watches (``t``:
        merged only with lines of the same table)."""
        body: Message = {"k": "text", "s": session}
        if table is not None:
            body["t"] = table
        if len(text) * WIDEST_LETTER + 2 > TEXT_ROOM:  # (most are a few lines: one piece)
            *pieces, text = text_pieces(text)
            for piece in pieces:
                self.publish(to, body | {"text": piece, "asks": 0}, merge=True)
        if text:
            self.publish(to, body | {"text": text, "asks": asks}, merge=True)

    async def run(self) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._listen)
            nursery.start_soon(self._publish)

    async def _listen(self) -> None:
        assert self._listener is not None
        pg = self._listener.pgconn
        while True:
            await trio.lowlevel.wait_readable(pg.socket)
            pg.consume_input()
            self._hand_over()

    def take_in(self) -> None:
        """Hand over at once what has come and waits to be read (without waiting for
        more): what the listening task would, a moment later."""
        assert self._listener is not None
        pg = self._listener.pgconn
        # poll, not select: a busy worker's descriptors are numbered past select's 1024
        readable = select.poll()
        readable.register(pg.socket, select.POLLIN)
        while readable.poll(0):
            pg.consume_input()
            if not self._hand_over():
                break  # (readable, but no whole notification yet)

    def _hand_over(self) -> int:
        """Hand each notification taken in to ``heard``; how many."""
        assert self._listener is not None
        pg = self._listener.pgconn
        count = 0
        while (note := pg.notifies()) is not None:
            count += 1
            self.received += 1
            try:
                message = json.loads(note.extra.decode())
                if b"\\u" in note.extra:  # (rare: ours escape only control characters)
                    # a JSON escape of a lone surrogate (only a notification crafted on
                    # the database could hold one: ours cannot, ``payloads``) made a
                    # string no line can carry: refused whole here, before a handler
                    # told it to half its sessions (UnicodeEncodeError)
                    _payload(message).encode()
                self.heard(message)
            except Exception:  # one bad message costs only itself
                log.exception("bus_message_failed", payload=logged_payload(note.extra))
        return count

    async def _publish(self) -> None:
        assert self._publisher is not None
        conn = self._publisher
        while True:
            await self._wake.wait()
            self._wake = trio.Event()
            queued, self._queued = self._queued, []
            batch = self.payloads(queued)
            if batch:
                self.sends += 1
                try:
                    await trio.to_thread.run_sync(send_batch, conn, batch)
                except psycopg.OperationalError:
                    raise  # the connection lost (or the server's refusal): node._run_bus
                except psycopg.Error:
                    # a bug (a payload or channel PostgreSQL refuses): the batch rolled
                    # back, the connection fine. It stopped the worker as a lost database
                    # (its players told so), the traceback said nowhere
                    log.exception("bus_send_failed", messages=len(batch))

    def waiting(self) -> list[tuple[str, Message]]:
        """The messages queued and not sent yet, each with its channel, in order (a
        copy of the queue, whose messages a merge may still add to)."""
        return list(self._queued)

    @staticmethod
    def payloads(queued: list[tuple[str, Message]]) -> list[tuple[str, str]]:
        """What is sent for ``queued``: each message's channel and payload, one too
        long for a notification, or that UTF-8 cannot encode, left out (and logged: a
        bug).

        No input puts a lone surrogate (what UTF-8 cannot encode) in a message: a
        player's line is decoded as strict UTF-8, and refused (``bad-encoding``,
        protocol/framing.py) if it holds an encoded surrogate or any byte that is no
        UTF-8; the web face puts nothing of a browser's on the bus but numbers, and
        its paths and queries are decoded with replacement characters; the workers'
        PostgreSQL cannot store one in a text (a name, a ban's reason), and settings
        come from TOML, which refuses one. It raised UnicodeEncodeError out of the
        publisher, which stopped the worker: a bug (a plugin's string, a future input
        path) now costs only its message (tests/store/test_workers_surrogates.py)."""
        batch = []
        for to, message in queued:
            payload = _payload(message)
            try:
                size = len(payload.encode())
            except UnicodeEncodeError as exc:
                log.error("bus_message_unencodable", kind=message["k"], why=str(exc))
                continue
            if size > MAX_PAYLOAD:  # a bug: text is sent in smaller pieces
                log.error("bus_message_too_long", kind=message["k"], size=size)
                continue
            batch.append((to, payload))
        return batch


def send_batch(conn: psycopg.Connection[Any], batch: list[tuple[str, str]]) -> None:
    """One transaction: delivered together, in this order, once it commits; rolled
    back if it fails (left open and failed, every later send on the connection, the
    farewell too, was refused: 25P02, "current transaction is aborted")."""
    with conn.transaction(), conn.cursor() as cur:
        cur.executemany("SELECT pg_notify(%s, %s)", batch)


def _payload(message: Message) -> str:
    """What is sent for ``message``: PostgreSQL takes it as UTF-8 (its limit is bytes)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _bytes(message: Message) -> int:
    """The bytes of a mergeable message's payload, at most: its text JSON-escaped as
    ``_payload`` escapes it, its done ids (each with its comma), and OTHER_FIELDS."""
    size = _escaped(message["text"]) + OTHER_FIELDS
    if done := message.get("done"):
        size += len(",".join(map(str, done))) + 1
    return size


def text_pieces(text: str) -> list[str]:
    """``text`` cut, in order, into pieces (none if it is empty) whose text as sent
    takes at most TEXT_ROOM bytes; at line ends, where a line is not longer itself."""
    if not text:
        return []
    if len(text) * WIDEST_LETTER + 2 <= TEXT_ROOM or _escaped(text) <= TEXT_ROOM:
        return [text]  # (most: a few lines, measured without encoding them)
    pieces: list[str] = []
    piece: list[str] = []
    size = 2  # its quotes
    for line in text.splitlines(keepends=True):
        cost = _escaped(line) - 2
        if size + cost > TEXT_ROOM and piece:
            pieces.append("".join(piece))
            piece, size = [], 2
        if size + cost <= TEXT_ROOM:
            piece.append(line)
            size += cost
            continue
        for letter in line:  # a line longer than a piece: letter by letter
            cost = _escaped(letter) - 2
            if size + cost > TEXT_ROOM:
                pieces.append("".join(piece))
                piece, size = [], 2
            piece.append(letter)
            size += cost
    if piece:
        pieces.append("".join(piece))
    return pieces


def _escaped(text: str) -> int:
    """The bytes ``text`` takes in a payload: JSON-escaped as ``_payload`` escapes it
    (its quotes too), UTF-8 (a lone surrogate counted as its 3 bytes, not raised
    here in a table's task: ``payloads`` leaves its message out)."""
    return len(encode_basestring(text).encode("utf-8", "surrogatepass"))
