"""One client connection's state: who it is, how it wants output, its bounded outbox."""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.protocol.connection import MAX_ANSWER_CREDIT, Connection
from deberc_net.protocol.events import Invited, ServerEvent
from deberc_net.protocol.render import Style

from .limits import Bucket

if TYPE_CHECKING:
    from .kept_apart import Left
    from .matchmaking import GameSettings, Wanted
    from .table import Table


class _Batch:
    """The outboxes one task has put into while it handles one message: ``batched``'s
    context manager itself (a class with no __init__ of its own, not a generator: it
    is entered once a table message, so once a call)."""

    __slots__ = ("_token", "held", "task")
    task: trio.lowlevel.Task
    held: list[Outbox]
    _token: Token[_Batch | None]

    def __enter__(self) -> _Batch:
        self.task = trio.lowlevel.current_task()
        self.held = []
        self._token = _batch.set(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        _batch.reset(self._token)
        for outbox in self.held:
            outbox.flush()


# The running task's batch: a context variable, so each trio task has its own (a task
# started inside a batch inherits the variable, hence the check of ``task``)
_batch: ContextVar[_Batch | None] = ContextVar("deberc_outbox_batch", default=None)


# ``with batched():`` what this task sends inside is written at the end (or at
# ``flush_batch``), one write per connection instead of one per line: a table's call
# tells two or three lines to each player. The class itself, not a function making
# one: a call less, once a message.
batched = _Batch
Batch = _Batch  # (its type, for who keeps the batch it entered)


def flush_batch() -> None:
    """Write what this task's batch holds now (before it waits on something slow)."""
    batch = _batch.get()
    if batch is not None and batch.held and batch.task is trio.lowlevel.current_task():
        for outbox in batch.held:
            outbox.flush()
        batch.held.clear()


def send_to_each(
    sessions: list[Session], lines: list[str], data: bytes, batch: _Batch | None = None
) -> None:
    """``Session.send_rendered(lines, data)`` to each of ``sessions``, this task's batch
    looked up once for all of them (a table's event, told to every machine-style
    listener at once: ``put`` asks trio for the running task at each). ``batch``: the
    running task's own, as the task that entered it knows (None: looked up here)."""
    if batch is None:
        batch = _batch.get()
        if batch is not None and batch.task is not trio.lowlevel.current_task():
            batch = None  # (a batch of the task that started this one)
    if batch is None:
        for session in sessions:
            session.send_rendered(lines, data)
        return
    size = len(data)
    for session in sessions:
        if type(session) is not Session:  # one that sends its lines elsewhere
            session.send_rendered(lines, data)
            continue
        if session.connection.closed:
            continue
        outbox = session.outbox
        # (``Outbox.hold``, written out: a call per listener per event; the limit holds)
        queued = outbox.queued_bytes + size
        if outbox.closed or queued > outbox.limit:
            if not outbox.closed:
                outbox.drop()
            session._full()
            continue
        outbox.chunks.append(data)
        outbox.queued_bytes = queued
        if outbox.held_by is None:
            outbox.held_by = batch
            batch.held.append(outbox)
        elif outbox.held_by is not batch:  # another task's: the writer sends it all
            outbox._signal()


_STYLE_TEXTS = {str(style): str(style) for style in Style}

# the most invitations kept from one ignored sender (Session.withhold)
WITHHELD_MOST = 16
TAKE_MOST = 65536  # about the most bytes one write takes from an outbox


@attrs.define(eq=False)
class Outbox:
    """Bytes waiting for the writer, bounded in bytes (not lines: one line may be 1 KB).

    Over the limit the whole queue is dropped at once, so a reader too slow for its
    outbox is disconnected without the server holding its backlog."""

    limit: int
    chunks: list[bytes] = attrs.Factory(list)  # not a deque: 600 bytes less when idle
    queued_bytes: int = 0
    closed: bool = False
    # set when something is queued, for a writer that waits in ``wait`` (made only then:
    # an idle connection holds none)
    _ready: trio.Event | None = None
    # a non-blocking write (bytes in, how many were taken): with nothing queued and the
    # writer idle, data goes out at once, without waking the writer task (most sends: a
    # bot reads as fast as it is told). None: everything goes through the queue.
    direct: Callable[[bytes], int] | None = None
    # a socket's descriptor, written the same way with os.write (no callable kept per
    # connection); -1: none
    fd: int = -1
    writing: bool = False  # the writer is in a send: nothing may overtake what it sends
    held_by: _Batch | None = None  # the task's batch that writes what is queued
    # starts a writer task for ``session`` that sends what is queued and ends when
    # nothing is (the server's connections: an idle one has no writer task; one callable
    # for all of them); None: a writer that waits in ``wait`` runs all along
    start_writer: Callable[[Session], None] | None = None
    session: Session | None = None  # whose outbox, for ``start_writer``
    writer_running: bool = False  # the started writer has not ended yet
    # the running writer's own scope, which 'abort' cancels (it has one only while it runs)
    writer_scope: trio.CancelScope | None = None

    def put(self, data: bytes) -> bool:
        """Queue ``data``; False (and the queue dropped) if that passes the limit."""
        if self.closed:
            return False
        batch = _batch.get()
        if batch is not None and batch.task is trio.lowlevel.current_task():
            return self.hold(data, batch)
        if (self.fd >= 0 or self.direct is not None) and not self.chunks and not self.writing:
            try:
                sent = self._write(data)
            except OSError:  # full (or broken: the writer meets that itself)
                sent = 0
            if sent == len(data):
                return True
            data = data[sent:]
        if self.queued_bytes + len(data) > self.limit:
            self.drop()
            return False
        self.chunks.append(data)
        self.queued_bytes += len(data)
        self._signal()
        return True

    def hold(self, data: bytes, batch: _Batch) -> bool:
        """``put`` in the running task's ``batch``: ``data`` kept for the batch's one
        write (the limit still holds: False, and the queue dropped, past it)."""
        queued = self.queued_bytes + len(data)
        if queued > self.limit:
            self.drop()
            return False
        self.chunks.append(data)
        self.queued_bytes = queued
        if self.held_by is None:
            self.held_by = batch
            batch.held.append(self)
        elif self.held_by is not batch:  # another task's: the writer sends it all
            self._signal()
        return True

    def flush(self) -> None:
        """Write what a batch held: at once if the socket takes it, else by the writer."""
        self.held_by = None
        if not self.chunks:
            return
        fd, direct = self.fd, self.direct
        if (fd >= 0 or direct is not None) and not self.writing and not self.closed:
            # (``take`` and ``_write``, their usual case written out: a flush a call)
            chunks = self.chunks
            if self.queued_bytes <= TAKE_MOST:
                data = b"".join(chunks)
                chunks.clear()
                self.queued_bytes = 0
            else:
                data = self.take()
            try:
                if fd >= 0:
                    sent = os.write(fd, data)
                else:
                    assert direct is not None
                    sent = direct(data)
            except OSError:  # full (or broken: the writer meets that itself)
                sent = 0
            if sent < len(data):  # the rest goes first, by the writer
                self.chunks.insert(0, data[sent:])
                self.queued_bytes += len(data) - sent
            if not self.chunks:
                return
        self._signal()

    def _write(self, data: bytes) -> int:
        """The non-blocking write: how much of ``data`` was taken."""
        if self.fd >= 0:
            return os.write(self.fd, data)
        assert self.direct is not None
        return self.direct(data)

    def _signal(self) -> None:
        """Something waits to be written (or the outbox closed): tell the writer."""
        if self.start_writer is not None:
            if not self.writer_running and self.session is not None:
                self.writer_running = True
                self.start_writer(self.session)
        elif self._ready is not None:
            self._ready.set()

    def take(self, most: int = TAKE_MOST) -> bytes:
        """What is queued, joined (up to about ``most`` bytes): one write for a burst."""
        chunks = self.chunks
        if self.queued_bytes <= most:  # the usual case: everything at once
            data = b"".join(chunks)
            chunks.clear()
            self.queued_bytes = 0
            return data
        size = count = 0
        while count < len(chunks) and size < most:
            size += len(chunks[count])
            count += 1
        data = b"".join(chunks[:count])
        del chunks[:count]
        self.queued_bytes -= size
        return data

    async def wait(self) -> bool:
        """Wait until there is something to write; False once closed and empty."""
        while not self.chunks:
            if self.closed:
                return False
            self._ready = trio.Event()
            await self._ready.wait()
        return True

    def close(self) -> None:
        """No more data; the writer ends after what is queued."""
        self.closed = True
        self._signal()

    def drop(self) -> None:
        self.chunks.clear()
        self.queued_bytes = 0
        self.close()
        if self.writer_scope is not None:  # nothing more to send: the writer ends now
            self.writer_scope.cancel()


def _conn_log() -> Any:
    """A connection's logger, made when a line is logged (a few a connection): a proxy
    kept in the module is cached at its first use, with the logging set up then, and a
    command run again in one process (a ladder's own server, whose lines are only its
    warnings) logged its connections' lines at the level an earlier run had."""
    return structlog.get_logger("deberc.conn")


class Ending(enum.Enum):
    """Why a connection ended: its ``disconnect`` line's ``reason`` (docs/settings.md,
    "Logs"). A timeout's and a flood's are their error codes (docs/protocol.md §2)."""

    QUIT = "quit"
    CLOSED_BY_PEER = "closed-by-peer"  # the client closed its end
    CONNECTION_LOST = "connection-lost"  # a reset, a write to a link gone
    LOGIN_TIMEOUT = "login-timeout"
    IDLE_TIMEOUT = "idle-timeout"
    LINE_TIMEOUT = "line-timeout"
    FLOOD = "flood"
    NOT_READING = "not-reading"  # its outbox passed outbox_bytes (outbox_full)
    LOGGED_IN_ELSEWHERE = "logged-in-elsewhere"
    TOO_MANY_PASSWORDS = "too-many-passwords"  # failed_logins_per_connection
    MADE_ROOM = "made-room"  # not logged in, closed by a full server for a newcomer
    SHUTDOWN = "shutdown"  # the server stops (a signal, a lost bus)
    KICKED = "kicked"  # an admin's 'kick' (docs/protocol.md §5.19)
    BANNED = "banned"  # an admin's 'ban' of a name logged in
    DISMISSED = "dismissed"  # a house bot the server ended (its table closed): no drop
    INTERNAL = "internal"  # a bug (connection_error)
    BY_SERVER = "closed-by-server"  # none of the above was said (another worker's word)

    @classmethod
    def of_code(cls, code: str) -> Ending:
        """The ending a hang-up's error code names (a timeout's, a flood's); one not
        listed here yet is the server's close, not a failure of the reader."""
        try:
            return cls(code)
        except ValueError:
            return cls.BY_SERVER


@attrs.frozen
class LastMatch:
    """A player's last match just over: its table, and till when (trio's clock) a line
    of his that is no command is told that match is over (rematch_ms after its
    end, whether or not its rematch offer stands: lobby.py)."""

    table: int
    until: float


@attrs.define(eq=False)
class Session:
    """The server's side of a connection: who it is and where it sits. Its protocol
    (logged in or not, framing, limits, the bytes sent) is its ``connection``."""

    id: int
    outbox: Outbox
    cancel_scope: trio.CancelScope
    connection: Connection = attrs.Factory(lambda: Connection(connected_at=0.0))
    peer: str = "?"
    address: str = "?"  # the peer's host: what the per-address limits count
    stream: trio.abc.Stream | None = None  # what its writer sends to (server/app.py)
    name: str | None = None
    guest: bool = True
    table: Table | None = None
    seat: int | None = None
    observing: set[int] = attrs.Factory(set)
    # the last match it watched to its end: 'sheet' and 'history' at no table tell it
    watched_match: str | None = None
    last_match: LastMatch | None = None  # his own, just over (Lobby.own_match_over)
    # the table whose match it watched to its end, till when 'state' says so
    watched_over: LastMatch | None = None
    seeking: Wanted | None = None  # the game it waits for (server/matchmaking.py)
    # a program's match left before its first deal ended: its next 'seek' of this game
    # goes first in line (matchmaking.py, kept_seek; a person's seek is kept instead)
    kept_place: GameSettings | None = None
    # the last few who left a running match of his: matchmaking keeps him apart from
    # them for a while (server/kept_apart.py)
    left_by: tuple[Left, ...] = ()
    # the people looking on through it: a web table feed's session stands for its pages
    watchers: int = 1
    requests_waiting: int = 0  # table calls, 'state's and 'say's posted, not yet handled
    # set once none is (``request_handled``): its reader waits for it (``until_handled``)
    handled: trio.Event | None = None
    failed_logins: int = 0
    ended: Ending | None = None  # why it ends, once known (the first reason given)
    # its allowances (server/allowance.py: ``buckets``): lines to others, long texts,
    # seats given up at waiting tables. None: made when first spent, by ``make_buckets``
    # (a connection's own, which draw on its address's: server/running.py), so that an
    # idle connection holds none (a bucket made then is full, as one made before is
    # until spent)
    says: Bucket | None = attrs.Factory(lambda: Bucket(1.0, 5.0))
    lists: Bucket | None = attrs.Factory(lambda: Bucket(2.0, 10.0))
    seat_churn: Bucket | None = attrs.Factory(lambda: Bucket(0.2, 5.0))
    make_buckets: Callable[[Session], None] | None = None
    # a logger bound to more than the connection (a web feed's); None: ``log`` binds the
    # connection's id, peer and name when a line is logged (an idle one holds no logger)
    bound_log: Any = None
    # whether ``address`` is the player's own: a stand-in for another worker's player
    # learns it from what his messages tell (kept_apart.py)
    address_told: bool = True
    # whom it ignores (server/ignoring.py): name key to the name as listed; None: nobody
    ignored: dict[str, str] | None = None
    # invitations not told as their sender is ignored, by his name key: told at
    # 'unignore' while their table still waits (server/ignoring.py); None: none
    withheld: dict[str, list[Invited]] | None = None
    remote = False  # (a class attribute) a player of another worker: server/cluster/

    @property
    def log(self) -> Any:
        """The connection's logger, bound to its id, peer and (once logged in) name."""
        if self.bound_log is not None:
            return self.bound_log
        if self.name is None:
            return _conn_log().bind(conn=self.id, peer=self.peer)
        return _conn_log().bind(conn=self.id, peer=self.peer, name=self.name)

    @log.setter
    def log(self, bound: Any) -> None:
        self.bound_log = bound

    @property
    def style(self) -> str:
        return self.connection.style

    @style.setter
    def style(self, style: str) -> None:
        # the style's one text, not a copy per connection ('style machine' makes one
        # from the enum: 56 bytes an idle connection holds)
        self.connection.style = _STYLE_TEXTS.get(style, style)

    @property
    def machine(self) -> bool:
        return self.connection.machine

    @property
    def bot_clock(self) -> bool:
        return self.connection.bot_clock

    @property
    def closed(self) -> bool:
        return self.connection.closed

    def buckets(self) -> tuple[Bucket, Bucket, Bucket]:
        """Its allowances (``says``, ``lists``, ``seat_churn``), made now if not yet."""
        if self.says is None or self.lists is None or self.seat_churn is None:
            assert self.make_buckets is not None  # (None only where a maker is given)
            self.make_buckets(self)
        assert self.says is not None and self.lists is not None
        assert self.seat_churn is not None
        return self.says, self.lists, self.seat_churn

    def withhold(self, key: str, invited: Invited) -> None:
        """Keep ``invited``, from the ignored ``key``, to tell at 'unignore' (the last
        WITHHELD_MOST of his: an invitation lasts as long as its table)."""
        withheld = self.withheld = self.withheld or {}
        kept = withheld.setdefault(key, [])
        kept.append(invited)
        del kept[:-WITHHELD_MOST]

    def ignores(self, key: str) -> bool:
        """Whether this player ignores the name whose key is ``key`` (his 'say', 'invite'
        and 'rematch' are not told here: docs/protocol.md §5.21)."""
        return self.ignored is not None and key in self.ignored

    def seat_coming(self, table: Table) -> None:
        """``table`` will seat this session: a Sit of its, posted as its request (a
        rematch's), comes next. It is placed there at once, as 'new' places its opener
        (the next line must not open another table)."""
        self.table = table

    def request_handled(self, table: int | None = None) -> None:
        """A table (its id, ``table``) has handled one of the requests this session
        posted to it."""
        self.requests_waiting -= 1
        if not self.requests_waiting and self.handled is not None:
            self.handled.set()
            self.handled = None

    async def until_handled(self) -> None:
        """Wait until the tables have handled every request this session posted: its
        reader does before it handles the next line, so each reply comes in the order
        of the lines, drawn in the style they were read in (docs/protocol.md §2.3)."""
        while self.requests_waiting:
            self.handled = trio.Event()
            await self.handled.wait()

    def send(self, event: ServerEvent) -> None:
        """Queue an event; a client that does not read is dropped, never waited for."""
        self._put(self.connection.send(event))

    def send_lines(self, lines: list[str]) -> None:
        """Queue lines already rendered in this session's style."""
        self._put(self.connection.send_lines(lines))

    def send_bytes(self, data: bytes) -> None:
        """Queue bytes that are no line: the telnet refusals the connection owes."""
        self._put(data)

    def send_rendered(self, lines: list[str], data: bytes) -> None:
        """Queue ``lines``, already rendered in this session's style, as ``data``, the
        same lines already encoded (a table's event, encoded once for every listener of
        the same voice). A session that sends lines elsewhere (``send_lines``
        overridden: a player of another worker, a web page's feed) sends ``lines``."""
        if not self.connection.closed and not self.outbox.put(data):  # (_put, written out)
            self._full()

    def send_watched(self, lines: list[str], data: bytes, table: int) -> None:
        """``send_rendered`` of lines of table ``table``, which this session watches,
        from a table that cannot tell whether it watches them alongside another (a
        player of another worker, who may sit or watch at a third: his own worker puts
        ``[table N]`` before them if so, docs/protocol.md §5.7); here, as they are."""
        self.send_rendered(lines, data)

    def watches_alongside(self, table: int) -> bool:
        """Whether this session watches table ``table`` while it sits at another or
        watches another as well: its lines of that table must say which table they are
        of (docs/protocol.md §5.7)."""
        if table not in self.observing:
            return False
        seated = self.table
        return (seated is not None and seated.id != table) or len(self.observing) > 1

    def send_asked(self, line: str) -> None:
        """Queue an ``ask`` line already rendered in this session's style (as
        ``Connection.send_asked`` tells it: its answer is not a flood)."""
        connection = self.connection  # (its send_asked of one line, written out: every call)
        connection.answer_credit = min(MAX_ANSWER_CREDIT, connection.answer_credit + 1)
        if connection.closed:
            return
        if not self.outbox.put(line.encode("utf-8") + b"\r\n"):  # (_put, written out)
            self._full()

    def send_asked_in(self, line: str, batch: _Batch) -> None:
        """``send_asked`` from the task whose batch is ``batch`` (a table's call: the
        table keeps the batch its call entered), queued in it without asking trio for
        the running task (``Outbox.put``'s look: every call). Only for a ``Session``
        itself (one that sends its lines elsewhere overrides ``send_asked``)."""
        connection = self.connection
        connection.answer_credit = min(MAX_ANSWER_CREDIT, connection.answer_credit + 1)
        if connection.closed:
            return
        outbox = self.outbox
        if outbox.closed or not outbox.hold(line.encode("utf-8") + b"\r\n", batch):
            self._full()

    def _put(self, data: bytes) -> None:
        if data and not self.outbox.put(data):
            self._full()

    def _full(self) -> None:
        """The outbox passed its limit (and dropped what it held): end the connection."""
        self.log.warning("outbox_full", limit=self.outbox.limit)
        self.abort(Ending.NOT_READING)

    def ending(self, why: Ending) -> None:
        """Its ``disconnect`` line will say ``why``, unless a reason was given before
        (a 'quit' ends the reader, which then sees the connection closed)."""
        if self.ended is None:
            self.ended = why

    def close(self, why: Ending | None = None) -> None:
        """End after what is queued is written (the writer then ends the connection)."""
        if why is not None:
            self.ending(why)
        if not self.closed:
            self.connection.close()
            self.outbox.close()

    def abort(self, why: Ending | None = None) -> None:
        """End now, dropping what is queued."""
        if why is not None:
            self.ending(why)
        self.connection.close()
        self.outbox.drop()
        self.cancel_scope.cancel()


@contextmanager
def apart(session: Session, told: str) -> Iterator[None]:
    """What is done for ``session``, one of several sessions told the same thing (a
    message of another worker's, an admin's announcement), kept apart from the others:
    a failure of it is logged (``tell_failed``, with ``told``, what was told) and ends
    that connection (``internal``), and the next session is told all the same. A
    closed outbox or a broken socket raise nothing (``send`` drops such a connection
    itself); a bug does (the event's rendering in this session's style or language, a
    web page's feed), and a message told to a worker's sessions stopped at the first
    it raised for: those after it were never told (docs/settings.md, "Logs")."""
    try:
        yield
    except Exception:
        session.log.exception("tell_failed", told=told)
        session.abort(Ending.INTERNAL)


def stopped_watching(
    session: Session, match_id: str | None, now: float, table: int, hold_s: float
) -> None:
    """``session`` observed ``table``, which closed: its silence counts from ``now``, and
    'sheet' and 'history' at no table tell ``match_id``, the match it watched to its
    end (None: none ended there), and for ``hold_s`` its 'state' says that match is
    over (it said only "you sit at no table and observe none": a tryout, s47)."""
    session.connection.watching(now)
    if match_id is not None:
        session.watched_match = match_id
        session.watched_over = LastMatch(table, now + hold_s)
