"""A small trio client for bots: connect, log in, seek games, answer every request.

A bot author writes one function ``choose(view) -> str`` that returns one of
``view.legal``; ``Bot`` does the rest (``run_to_end(Bot(choose, name=…))``, or from a
command line ``run_bot`` and ``run_brain``): the machine style, seeking game after game,
answering with ``seq=`` so a stale answer is refused, falling back to a legal call if
``choose`` is too slow for the clock or returns something illegal, and reconnecting
if the connection drops (logging in again with the password, or a guest with the resume
token the server gave, resumes the seat; with DEBERC_TOKEN_DIR set the token is kept in
a file there, so a restarted process resumes too), and a ``ping`` when all is quiet.
"""

from __future__ import annotations

import argparse
import enum
import math
import os
import random
import sys
import traceback
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

import attrs
import trio

from deberc_net.game.calls import KONETS
from deberc_net.process_exit import freeze_heap_at_exit
from deberc_net.protocol.ends import end_words
from deberc_net.protocol.wire import LineBuffer, first_value, parse_line, quick_ask

from .match_result import MatchResult as MatchResult
from .match_result import Outcome as Outcome
from .match_result import match_result, summary
from .protocol import Event, EventKind, Record, Tag, View, WireError, banner_protocol, parse

Choose = Callable[[View], str]
# a decision from the legal calls alone (the random bot): its asks are read for seq= and
# legal= only, with no View built (reading the whole ask was most of such a bot's work)
Pick = Callable[[list[str]], str]
Connect = Callable[[], Awaitable[trio.abc.Stream]]


class HandedStream(Protocol):
    """A connection whose incoming bytes are handed to a receiver as they are written
    (a ladder's in-process link, deberc_net/server/local.py), written to at once."""

    def write_nowait(self, data: bytes) -> int: ...

    async def send_all(self, data: bytes) -> None: ...

    async def aclose(self) -> None: ...


class Receiver(Protocol):
    def data_received(self, data: bytes) -> None: ...

    def connection_lost(self) -> None: ...


# opens such a connection, its bytes going to the receiver given
Attach = Callable[[Receiver], Awaitable[HandedStream]]
CLOCK_MARGIN = 0.3  # seconds kept back from the clock for the network
PROTOCOL = 1  # the protocol version this library speaks (docs/protocol.md §1)
KEEPALIVE_S = 60.0  # silence after which the bot says 'ping' (servers close idle links)


class ProtocolMismatch(RuntimeError):
    """The server speaks a protocol version this library does not know."""


class Refused(PermissionError):
    """The server refused what the bot must do to play: trying again gets the same
    answer. ``what`` names the command, ``str()`` is the server's text."""

    what = "request"


class LoginRefused(Refused):
    """The server refused the bot's login (a bad password, a name in use, an admin's
    name that only the server's owner registers, a name the server does not take)."""

    what = "login"


class PutOff(ConnectionError):
    """The server said 'later', not 'no' (``busy``, ``slow-down``, ...) more times in a
    row than the bot's ``reconnects``: a ``ConnectionError``, as a server lost for good
    is, while a refusal is a ``Refused`` (a ``PermissionError``). ``what`` names the
    command put off, ``str()`` is the server's last text, ``wait_s`` the wait it said
    (a ``slow-down``'s ``wait_ms=``, docs/protocol.md §4.2) in seconds, None if none."""

    what = "request"

    def __init__(self, text: str, wait_s: float | None = None) -> None:
        super().__init__(text)
        self.wait_s = wait_s


class LoginPutOff(PutOff):
    """The server put the bot's login off for now (``busy``, ``slow-down``,
    ``shutting-down``: its text says to try again): not a refusal, the bot closes and
    tries again as after a drop, ``reconnects`` times. ``wait_s``: the wait the server
    said, None if none; the bot waits at least that long before it tries again (a
    retry sooner is refused again)."""

    what = "login"


# the longest wait a server's wait_ms= makes the bot wait (a login's, a seek's)
SLOW_DOWN_MAX_S = 3600.0


# a login's errors that say 'later', not 'no'
_LOGIN_PUT_OFF = frozenset({"busy", "slow-down", "shutting-down"})


class SeekRefused(Refused):
    """The server refused the bot's ``seek`` (rules it does not know)."""

    what = "seek"


# a seek's errors that are the bot's own (its --seek); 'busy' and 'slow-down' put the
# seek off (below); any other error the seek may get (shutting-down) passes, as may one
# that answered an earlier line
_SEEK_REFUSALS = frozenset({"bad-rules", "bad-argument"})
_SEEK_PUT_OFF = frozenset({"busy", "slow-down"})


class SeekPutOff(PutOff):
    """The server put the bot's seek off (``busy``: too many tables are open;
    ``slow-down``: seats given up too often from its connection, name or address) more
    times in a row than its ``reconnects``: the bot sought again after each, waiting
    ``SEEK_RETRY_S`` and twice as long each time (at most ``SEEK_RETRY_MAX_S``), or the
    wait the server said (``wait_ms=``) if longer. ``str()`` is the server's last text,
    ``wait_s`` the last wait it said (None if none)."""

    what = "seek"


SEEK_RETRY_S = 1.0  # the wait before seeking again after the first 'busy'
SEEK_RETRY_MAX_S = 30.0

# the server's word to everyone that it stops or restarts (``info server=draining``,
# ``info server=stopping``: docs/protocol.md §11.4, §11.4a), and to a player whose seat
# another worker keeps across the stop (``info kept=T``: docs/scaling.md, "One worker
# restarted"): passed on (``tell``), as the bots said nothing and then "connection
# lost", their reader left to guess why (s46). Known by the field, not the sentence: a
# server may word it otherwise, or in another language
SERVER_GOING = frozenset({"draining", "stopping"})


class ServerNotBack(ConnectionError):
    """The server said it stopped or restarts (``said``: its last such word) and closed
    the connection, and did not take the bot's login again within its ``reconnects``:
    a ``ConnectionError``, as any server lost for good; ``str()`` says both."""

    def __init__(self, text: str, said: str) -> None:
        super().__init__(text)
        self.said = said


@attrs.frozen
class Brain:
    """What a bot decides with: ``Brain(choose, on_board=None, on_event=None,
    pick=None, asks_only=False)``, each as ``Bot``'s of that name. A bot module that
    defines ``brain(name, seed) -> Brain`` (``seed``: the ``--seed`` of ``py:MODULE
    --seed S``, a string, or None) can also play inside a ladder's process
    (docs/bots.md, in-process bots)."""

    choose: Choose
    on_board: Callable[[str], None] | None = None
    # fed every line the bot's connection reads (``Bot.on_event``): a bot that keeps
    # the deal's history (the search bot) needs it
    on_event: Callable[[Event | View | Record], None] | None = None
    # given, the bot's asks go to ``pick`` (``Bot.pick``) rather than ``choose``
    pick: Pick | None = None
    # the bot acts on its asks alone (no ``on_event``): a ladder whose bots all say so
    # has the server tell them only their asks and the match's end (``Bot.asks_only``)
    asks_only: bool = False


@attrs.define
class Connection:
    """A line connection to the server. ``keep_alive`` (a task beside the reader) says
    ``ping`` after ``KEEPALIVE_S`` of silence from the server; a timer per read would
    cost a cancel scope for every line read."""

    stream: trio.abc.Stream
    _buffer: LineBuffer = attrs.Factory(lambda: LineBuffer(errors="replace"))
    _ready: deque[str] = attrs.Factory(deque)
    _heard: float = 0.0  # when the server last sent anything (trio's clock)
    _sending: trio.Lock = attrs.Factory(trio.Lock)  # a stream takes one sender at a time

    @classmethod
    async def open(cls, host: str, port: int) -> Connection:
        return cls(await trio.open_tcp_stream(host, port))

    async def send(self, line: str) -> None:
        async with self._sending:
            await self.stream.send_all(line.encode("utf-8") + b"\n")

    async def lines(self) -> AsyncIterator[str]:
        self._heard = trio.current_time()
        while (line := await self.next_line()) is not None:
            yield line

    async def next_line(self) -> str | None:
        """The next line, or None once the server has closed the connection. It may be
        cancelled (a wait with a deadline): no line is lost, a line is taken only as it
        is returned."""
        while not self._ready:
            data = await self.stream.receive_some(65536)
            if not data:
                return None
            self._heard = trio.current_time()
            self._ready.extend(self._buffer.feed(data))
        return self._ready.popleft()

    async def keep_alive(self, on_ping: Callable[[], None] | None = None) -> None:
        """Say ``ping`` whenever the server has been silent for ``KEEPALIVE_S`` (and
        nothing is being sent): servers close links that say nothing. ``on_ping`` is
        called as each is sent (a bot counts its pings: ``Bot._pinged``)."""
        self._heard = trio.current_time()
        while True:
            await trio.sleep_until(self._heard + KEEPALIVE_S)
            if trio.current_time() < self._heard + KEEPALIVE_S:
                continue  # heard meanwhile
            if self._sending.locked():  # a line is going out (it says as much): look
                self._heard = trio.current_time()  # again as long after, not at once
                continue
            async with self._sending:
                if on_ping is not None:  # counted before any line sent after it
                    on_ping()
                await self.stream.send_all(b"ping\n")
            self._heard = trio.current_time()  # the next ping after as long again

    async def aclose(self) -> None:
        await self.stream.aclose()


class Step(enum.Enum):
    """What a line leaves a session at (``Bot._react``)."""

    ON = "on"
    OVER = "over"  # 'bye', or the last game played ('quit' sent)
    SEEK_LATER = "seek-later"  # the seek was put off ('busy'): seek again after a wait


MATCHES_KEPT = 1000  # the match results a bot's Stats keep, the newest


@attrs.define
class Stats:
    """What a bot did: ``fallbacks`` counts the asks answered with the first legal call
    (``choose`` or ``pick`` raised, answered a call not in ``legal``, or missed its
    clock); ``errors`` holds the server's ``error`` lines and what the bot's own code
    raised (``OWN_CODE``: ``choose``, ``pick``, ``on_event``, ``on_board``);
    ``first_fault`` says the first of the bot's own faults (an exception, with where
    it was raised, an answer not legal, or a ``choose`` past its clock); ``matches``
    holds each match's result as it ended (``MatchResult``: who won, the totals, the
    deals), oldest first, the last ``MATCHES_KEPT``; ``reconnects`` counts the
    logged-in connections lost (the server cut it, or it broke) that the bot connects
    again after, its seat away meanwhile (a ladder's report counts them)."""

    games: int = 0
    asks: int = 0
    fallbacks: int = 0
    logins: int = 0
    reconnects: int = 0
    errors: list[str] = attrs.Factory(list)
    first_fault: str | None = None
    # (a bot that plays for ever keeps the last MATCHES_KEPT: its memory stays bounded)
    matches: deque[MatchResult] = attrs.Factory(lambda: deque(maxlen=MATCHES_KEPT))

    def said(self) -> str:
        """The counts as a bot's last line says them: ``1 game, 40 calls, 0 fallbacks``
        (each bot printed its own copy, and '1 games': a tryout, s43)."""
        return ", ".join(
            f"{count} {word if count == 1 else word + 's'}"
            for count, word in (
                (self.games, "game"),
                (self.asks, "call"),
                (self.fallbacks, "fallback"),
            )
        )


# the bot's own code, as its exceptions are kept in ``Stats.errors`` ("choose: …")
OWN_CODE = ("choose", "pick", "on_event", "on_board")
NOTIFIED = frozenset({"on_event", "on_board"})  # told a line, they answer nothing
# what the first fault's line says came of it (a ladder reads them: ladder.bot_output)
FELL_BACK = "; the first legal call was sent instead (a fallback)"
PLAYED_ON = "; the bot plays on (that line was not taken in)"

RECONNECTS = 5  # drops in a row a bot survives, by default
RESERVED = "reserved"  # the seek of a ladder's bot: it sits where the ladder reserved
# the match ends that were no game played out (docs/protocol.md §9.7): told (``tell``).
# As strings: the engine's enums (game.outcomes) cost a bot's start-up 3 ms more
NOT_PLAYED_OUT = frozenset({"left", "away", "timeouts", "internal", "shutdown", "server-lost"})


@attrs.define
class Bot:
    """Plays with ``choose`` until ``games`` matches are over (None: forever)."""

    choose: Choose
    name: str
    host: str = "127.0.0.1"
    port: int = 7501
    password: str | None = None
    seek: str = "2"  # what follows 'seek': players, variant, options
    games: int | None = None
    reconnects: int = RECONNECTS
    stats: Stats = attrs.Factory(Stats)
    token: str | None = None  # a guest's resume token, from the server's 'ok cmd=login'
    on_event: Callable[[Event | View | Record], None] | None = None
    # called with a ladder board's key when the bot sits at that board's table
    # (``ok cmd=sit … board=KEY``): a bot with randomness reseeds here, so a ladder's
    # results do not depend on which copy of the bot got which board
    on_board: Callable[[str], None] | None = None
    # how to reach the server (None: TCP to host:port); a ladder gives its in-process
    # bots a connection to its own server over memory streams
    connect: Connect | None = None
    # call ``choose`` in this thread (no worker thread, no clock fallback): for quick
    # bots running inside another program's event loop
    inline: bool = False
    # a quick decision from the legal calls alone, called in this thread for every ask
    # (no worker thread, no clock fallback): the ask is read for seq= and legal= only.
    # An ask it cannot read that way (or with ``on_event`` set) goes to ``choose``
    pick: Pick | None = None
    # ask the server for its asks and the match's end only ('style machine tell=asks',
    # docs/protocol.md §4.3): no other event, no deal record, no state it did not ask
    # for. Only for a bot without ``on_event`` (it would be fed nearly nothing)
    asks_only: bool = False
    # an in-process link that hands the bot the server's bytes as they are written (a
    # ladder's own server): an ``inline`` bot then reacts in the server's call, the same
    # lines and the same answers, with no task woken a line (``Handed``); a bot not
    # ``inline`` ignores it (``connect``)
    attach: Attach | None = None
    # told, in a line, what the bot waits for unasked (a seek put off, and how long it
    # waits to seek again) and each match's result; ``run_to_end`` prints it to
    # standard error
    tell: Callable[[str], None] | None = None
    # called with the stats after each fallback, after each exception of ``on_event``
    # or ``on_board`` (no fallback: a fault all the same), and after each drop counted
    # (``Stats.reconnects``): ``run_to_end`` prints the fault counts for a ladder
    # (FAULT_COUNTS_ENV), which counts a process bot's faults and drops from them
    on_fallback: Callable[[Stats], None] | None = None
    _seeking: bool = attrs.field(default=False, init=False)  # a 'seek' not yet seated
    _table: str | None = attrs.field(default=None, init=False)  # where 'ok cmd=sit' sat it
    _logged_in: bool = attrs.field(default=False, init=False)  # this session's login is ok
    # the session's first lines not yet answered ('ok' or 'error', in order): the
    # error that answers 'login' is a refusal
    _greeting_due: deque[str] = attrs.field(factory=deque, init=False)
    _seek_due: bool = attrs.field(default=False, init=False)  # a 'seek' not yet answered
    _seeks_put_off: int = attrs.field(default=0, init=False)  # 'busy' seeks in a row
    _put_off_text: str = attrs.field(default="", init=False)  # the last one's text
    _put_off_wait: float | None = attrs.field(default=None, init=False)  # its wait_ms=
    # a 'busy' may answer a table call sent before a seek, not the seek: a 'ping' sent
    # just before the seek (the fence) tells them apart, as answers come in the order
    # of the lines. Pings this session sent and pongs read, and the fence's number
    _pings: int = attrs.field(default=0, init=False)
    _pongs: int = attrs.field(default=0, init=False)
    _fence: int = attrs.field(default=0, init=False)  # its pong not read yet: > _pongs
    _deal: int = attrs.field(default=0, init=False)  # the last deal= read this match
    # the server's last word that it stops or restarts (SERVER_GOING), till the bot is
    # logged in again: the connection's end is that stop's, and so said
    _stop_said: str | None = attrs.field(default=None, init=False)
    # a seat said konets this match (manual-claim): a match-end reason=claim after it
    # was that konets, not the server's claim (any konets ends the match)
    _konets: bool = attrs.field(default=False, init=False)

    async def run(self) -> Stats:
        failures = 0
        while self.games is None or self.stats.games < self.games:
            logins = self.stats.logins
            try:
                await self._session()
                return self.stats
            except (Refused, SeekPutOff):
                raise  # it would be refused again (or was put off too often): no retry
            except (OSError, trio.BrokenResourceError, EOFError) as exc:
                # 'reconnects' counts drops in a row: a long run survives many far apart
                failures = 1 if self.stats.logins > logins else failures + 1
                self.stats.errors.append(f"connection: {exc}")
                said = self._stop_said
                if failures > self.reconnects:
                    if said is None:
                        raise
                    again = _count(self.reconnects, "try", "tries")
                    raise ServerNotBack(
                        f"{exc}; the server did not come back ({again} to connect again)"
                        f" since it said: {said}",
                        said,
                    ) from exc
                if said is not None and failures == 1:
                    total = sum(_backoff(n) for n in range(1, self.reconnects + 1))
                    self._told(
                        "the server closed the connection: connecting again,"
                        f" {_count(self.reconnects, 'try', 'tries')} at most in some"
                        f" {math.ceil(total)} s"
                    )
                if self.stats.logins > logins:  # a seat's connection, not a try to connect
                    self.stats.reconnects += 1
                    if self.on_fallback is not None:  # a ladder's process bot says its counts
                        self.on_fallback(self.stats)
                await trio.sleep(self._retry_wait(exc, failures))
        return self.stats

    def _retry_wait(self, exc: BaseException, failures: int) -> float:
        """The seconds to wait before connecting again after ``failures`` in a row: a
        short backoff, or the wait the server put the login off for (said, then)."""
        wait = _backoff(failures)
        if isinstance(exc, LoginPutOff) and exc.wait_s is not None:
            wait = max(wait, min(exc.wait_s, SLOW_DOWN_MAX_S))
            self._told(f"login put off: {exc}; logging in again in {math.ceil(wait)} s")
        return wait

    def _token_file(self) -> str | None:
        folder = os.environ.get("DEBERC_TOKEN_DIR")
        return os.path.join(folder, f"{self.name}.token") if folder else None

    def _login_line(self) -> str:
        if self.password:
            return f"login {self.name} {self.password}"
        path = self._token_file()
        if self.token is None and path is not None and os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                self.token = fh.read().strip() or None
        return f"login {self.name}" + (f" token={self.token}" if self.token else "")

    def _keep_token(self, token: str | None) -> None:
        self.token = token
        path = self._token_file()
        if token and path is not None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(token)

    async def _session(self) -> None:
        if self.attach is not None and self.inline:
            await Handed(self).play(self.attach)
            return
        if self.connect is not None:
            conn = Connection(await self.connect())
        else:
            conn = await Connection.open(self.host, self.port)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(conn.keep_alive, self._pinged)
                try:
                    await self._play(conn)
                finally:
                    nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:  # only the player's own failure: raise it as is
            raise group.exceptions[0] if len(group.exceptions) == 1 else group from None
        finally:
            await conn.aclose()

    def _greeting(self) -> list[str]:
        """The lines a session opens with."""
        lines = ["style machine"]
        if self.asks_only and self.on_event is None:
            # a line of its own: a server without the option refuses it, and the bot
            # is still in the machine style, told every line
            lines.append("style machine tell=asks")
        lines.append(self._login_line())
        self._seeking = self._logged_in = self._seek_due = False
        self._pings = self._pongs = self._fence = 0
        self._greeting_due = deque(line.split(" ", 1)[0] for line in lines)
        return lines

    async def _play(self, conn: Connection) -> None:
        """Log in, seek, answer every request; return at 'bye' or when done."""
        for greeting in self._greeting():
            await conn.send(greeting)
        out: list[str] = []
        seek_at: float | None = None  # a seek put off: when to seek again
        while True:
            if seek_at is None:
                line = await conn.next_line()
            else:  # read on while waiting: a 'bye' or a closed connection ends the wait
                with trio.move_on_at(seek_at) as waiting:
                    line = await conn.next_line()
                if waiting.cancelled_caught:
                    seek_at = None
                    await self._seek_now(conn.send)
                    continue
            if line is None:
                raise EOFError("the server closed the connection")
            step = self._react(line, out)
            for reply in out:
                await conn.send(reply)
            out.clear()
            if type(step) is View:  # an ask for ``choose`` in a worker thread
                await conn.send(f"{await self._answer(step)} seq={step.seq}")
            elif step is Step.OVER:
                return
            elif step is Step.SEEK_LATER:
                seek_at = self._seek_later()

    def _react(self, line: str, out: list[str]) -> View | Step:
        """What one line from the server calls for: the lines to send, appended to
        ``out``, and whether the session is over. An ask for a ``choose`` that runs in
        a worker thread (not ``inline``) is returned for the caller to answer. Raises
        ``ProtocolMismatch`` and ``LoginRefused`` (a bad password, a name in use, an
        admin's name)."""
        if self.on_event is None:  # what the bot does not act on is not parsed
            # (the banner, 'deberc-net …', is none of these lines: it is checked below)
            if self.pick is not None and line.startswith("ask "):
                quick = quick_ask(line)
                if quick is not None:
                    seq, legal = quick
                    self._read_deal(line)
                    out.append(f"{self._pick(self.pick, legal)} seq={seq}")
                    self._seeking = False
                    return Step.ON
            if line.startswith("ok cmd=seek "):  # a seek's 'ok' asks nothing
                self._seek_due = False
                self._seeks_put_off = 0
                return Step.ON
            if line.startswith("record "):
                return Step.ON
            if line.startswith("event "):
                if " kind=match-end" not in line:
                    if " call=konets" in line and first_value(line, " kind=") == "call":
                        self._konets = True
                    return Step.ON
                if first_value(line, " kind=") == "match-end":
                    return self._match_ended(out, line)
            if line.startswith("state "):
                self._seeking = False
                self._read_deal(line)
                return Step.ON
        version = banner_protocol(line)
        if version is not None and version != PROTOCOL:
            raise ProtocolMismatch(f"the server speaks protocol {version}, this client {PROTOCOL}")
        item = parse(line)
        if self.on_event is not None:
            try:
                self.on_event(item)
            except Exception as exc:  # a bug in on_event costs that line, not the seat
                self._raised("on_event", exc)
        if isinstance(item, View):
            self._seeking = False
            self._deal = item.deal
            if item.kind == "ask":
                if not self.inline:
                    return item
                out.append(f"{self._answer_inline(item)} seq={item.seq}")
            return Step.ON
        if isinstance(item, Record):
            return Step.ON
        tag, f = item.tag, item.fields
        if tag in (Tag.OK, Tag.ERROR) and self._greeting_due:
            answered = self._greeting_due.popleft()
            if answered == "login" and tag == Tag.ERROR:
                self.stats.errors.append(line)
                if f.get("code") in _LOGIN_PUT_OFF:
                    raise LoginPutOff(f.get("text", "try again"), _wait_s(f.get("wait_ms")))
                raise LoginRefused(f.get("text", "refused"))
        if tag == Tag.OK and f.get("cmd") == "sit":
            self._table = f.get("table")
        elif tag == Tag.INFO and f.get("closed") is not None and self._closed_here(f["closed"]):
            return self._table_closed(out, f.get("text", ""))
        board = f.get("board") if tag == Tag.OK and f.get("cmd") == "sit" else None
        if board is not None and self.on_board is not None:
            try:
                self.on_board(board)
            except Exception as exc:  # as on_event's: the board is played on
                self._raised("on_board", exc)
        if tag == Tag.OK and f.get("cmd") == "login":
            self.stats.logins += 1
            self._logged_in = True
            self._keep_token(f.get("token"))
        if tag == Tag.OK and f.get("cmd") == "seek":
            self._seek_due = False
            self._seeks_put_off = 0
        elif tag == Tag.OK and f.get("cmd") == "ping":
            self._pongs += 1
        if tag == Tag.OK and f.get("cmd") == "login" and not self._seeking:
            if self._stop_said is not None:  # the server is back, or another took it in
                self._stop_said = None
                self._told(f"connected again; seeking again ('seek {self.seek}')")
            out.append(f"seek {self.seek}")
            self._seeking = self._seek_due = True
        elif tag == Tag.INFO and (f.get("server") in SERVER_GOING or "kept" in f):
            self._stop_said = f.get("text", "")
            self._told(f"the server says: {self._stop_said}")
        elif tag == Tag.EVENT and item.kind == EventKind.MATCH_END:
            return self._match_ended(out, line)
        elif tag == Tag.EVENT and item.kind == EventKind.CALL and f.get("call") == KONETS:
            self._konets = True
        elif tag == Tag.ERROR:
            self.stats.errors.append(line)
            code = f.get("code")
            # before this session's login, 'not-allowed' answers the login (an admin's
            # name); later it answers another command and the session goes on
            if code in ("bad-password", "name-in-use") or (
                code == "not-allowed" and not self._logged_in
            ):
                raise LoginRefused(f.get("text", "login refused"))
            if self._seek_due and code in _SEEK_REFUSALS:
                raise SeekRefused(f.get("text", "refused"))
            if self._seek_due and code in _SEEK_PUT_OFF and self._pongs >= self._fence:
                return self._seek_put_off(f.get("text", "busy"), _wait_s(f.get("wait_ms")))
            if code == "shutting-down" and self._seeking:
                self._seek_till_restart(f.get("text", "the server is shutting down"))
        elif tag == Tag.BYE:
            self._told(f"the server said goodbye: {f.get('text', 'bye')}")
            return Step.OVER
        return Step.ON

    def _seek_put_off(self, text: str, wait_s: float | None) -> Step:
        """The seek was answered 'busy' (not recorded: the server has too many tables
        open) or 'slow-down' (its wait, if said: ``wait_s``): seek again after a wait,
        or give up after ``reconnects`` in a row."""
        self._seek_due = False
        self._seeks_put_off += 1
        self._put_off_text = text
        self._put_off_wait = wait_s
        if self._seeks_put_off > self.reconnects:
            raise SeekPutOff(text, wait_s)
        return Step.SEEK_LATER

    def _seek_till_restart(self, text: str) -> None:
        """The seek, or the wait it began, refused ``shutting-down``: the server drains
        or stops (docs/protocol.md §11.4a), and no game starts there till its restart.
        No refusal of the bot's game: it waits for the server to close the connection
        (once its running matches are over), then connects again (``run``) and seeks
        again; said, as that wait may be long."""
        self._seeking = self._seek_due = False
        self._stop_said = self._stop_said or text
        self._told(
            f"seek put off till the server's restart: {text}; waiting for it to close the"
            " connection, then connecting again"
        )

    def _seek_later(self) -> float:
        """Say why the bot waits (``Step.SEEK_LATER``); when to seek again (trio's
        clock). The caller reads on meanwhile, so a 'bye' or a closed connection is
        noticed at once, not after the wait."""
        wait = min(SEEK_RETRY_MAX_S, SEEK_RETRY_S * 2 ** (self._seeks_put_off - 1))
        if self._put_off_wait is not None:  # a slow-down's: sooner is refused again
            wait = max(wait, min(self._put_off_wait, SLOW_DOWN_MAX_S))
        if self.tell is not None:
            self.tell(f"seek put off: {self._put_off_text}; seeking again in {math.ceil(wait)} s")
        due: float = trio.current_time() + wait
        return due

    async def _seek_now(self, send: Callable[[str], Awaitable[None]]) -> None:
        """The wait after a put-off seek is over: seek again."""
        self._seek_due = True
        await send(f"seek {self.seek}")

    def _closed_here(self, table: str) -> bool:
        """``info closed=T`` is the bot's: its table's, or, seeking with no table yet,
        the one its seek was matched to (failed before seating it: docs/protocol.md
        §11.4), after which it waited for ever."""
        return table == self._table or (self._table is None and self._seeking)

    def _table_closed(self, out: list[str], text: str) -> Step:
        """The bot's table closed under it with no match end to come (``info closed=T``:
        a server stopping, a lost worker's table, docs/protocol.md §11.4): said, and a
        game sought again (a server stopping refuses it, then closes the connection: the
        bot ends as after a loss)."""
        self._table = None
        self._told(f"{text.rstrip('.')}; seeking again ('seek {self.seek}')")
        self._seek_again(out)
        return Step.ON

    def _match_ended(self, out: list[str], line: str) -> Step:
        """A match of the bot's is over: seek the next, or say 'quit' after the last. One
        not played out (given up, the server stopping) is told, with what comes next: a
        bot's silent wait for a seek nobody answers looked like a hang."""
        self.stats.games += 1
        last = self.games is not None and self.stats.games >= self.games
        end = parse_line(line)
        reason = end.get_str("reason") or ""
        then = "its last game: quitting" if last else f"seeking again ('seek {self.seek}')"
        if reason in NOT_PLAYED_OUT:
            what = f"match {end.get_str('match') or '?'} at table {end.get_str('table')}"
            self._told(f"{what} ended: {end_words(reason)}; {then}")
        try:
            result = match_result(line, self.name, self._deal, self._konets)
        except WireError as exc:  # the server's line lacks a field: the match still ends
            self._told(f"a match's end not read ({exc}); {then}")
        else:
            self.stats.matches.append(result)
            if reason not in NOT_PLAYED_OUT:  # played out: its result, in one line
                self._told(f"{summary(result)}; {then}")
        self._deal, self._konets = 0, False
        self._table = None
        if last:
            out.append("quit")
            return Step.OVER
        self._seek_again(out)
        return Step.ON

    def _read_deal(self, line: str) -> None:
        """An ask's or state's ``deal=``, read without parsing the line (quick bots)."""
        deal = first_value(line, " deal=")
        if deal is not None and deal.isascii() and deal.isdecimal():
            self._deal = int(deal)

    def _seek_again(self, out: list[str]) -> None:
        self._pinged()  # the fence: an answer after its pong is the seek's
        self._fence = self._pings
        out.append("ping")
        out.append(f"seek {self.seek}")
        self._seeking = self._seek_due = True

    def _told(self, text: str) -> None:
        """``tell`` what the bot does unasked; not a ladder's bot ('seek reserved'),
        whose ladder reports its matches itself."""
        if self.tell is not None and self.seek != RESERVED:
            self.tell(text)

    def _pinged(self) -> None:
        """A 'ping' is sent (by the bot, or to keep the connection alive)."""
        self._pings += 1

    def _pick(self, pick: Pick, legal: list[str]) -> str:
        self.stats.asks += 1
        choice: str | None = None
        try:
            choice = pick(legal)
        except Exception as exc:  # a bug in pick costs a fallback, not the seat
            self._raised("pick", exc)
        if choice not in legal:
            self._fell_back()
            if choice is not None:
                self._faulted(f"pick answered {choice!r}, not a legal call")
            return legal[0]
        return choice

    def _answer_inline(self, view: View) -> str:
        """``choose`` called in this thread (``inline``)."""
        self.stats.asks += 1
        choice: str | None = None
        try:
            choice = self.choose(view)
        except Exception as exc:  # a bug in choose costs a fallback, not the seat
            self._raised("choose", exc)
        return self._checked(choice, view)

    async def _answer(self, view: View) -> str:
        """``choose`` in a worker thread, within the clock less ``CLOCK_MARGIN``."""
        self.stats.asks += 1
        choice: str | None = None
        budget = (view.clock_ms or 10_000) / 1000 - CLOCK_MARGIN
        with trio.move_on_after(max(0.05, budget)) as clock:
            try:
                choice = await trio.to_thread.run_sync(self.choose, view, abandon_on_cancel=True)
            except Exception as exc:  # a bug in choose costs a fallback, not the seat
                self._raised("choose", exc)
        if clock.cancelled_caught:  # said as the other faults are: not a silent fallback
            self._faulted(
                f"choose took longer than its {max(0.05, budget):.2f} s (the request's"
                f" clock={view.clock_ms} ms less {CLOCK_MARGIN} s)"
            )
        return self._checked(choice, view)

    def _checked(self, choice: str | None, view: View) -> str:
        if choice not in view.legal:
            self._fell_back()
            if choice is not None:
                self._faulted(f"choose answered {choice!r}, not a legal call")
            return view.legal[0]
        return choice

    def _fell_back(self) -> None:
        self.stats.fallbacks += 1
        if self.on_fallback is not None:
            self.on_fallback(self.stats)

    def _raised(self, what: str, exc: Exception) -> None:
        """``choose``, ``pick``, ``on_event`` or ``on_board`` raised: kept in
        ``errors``; the first fault says where. A notification's (``on_event``,
        ``on_board``) costs no call: the bot plays on, and the counts are said as after
        a fallback (``on_fallback``), so a ladder counts it."""
        self.stats.errors.append(f"{what}: {exc!r}")
        notified = what in NOTIFIED
        if self.stats.first_fault is None:
            frames = traceback.extract_tb(exc.__traceback__)
            last = frames[-1] if frames else None
            where = "" if last is None else f" at {os.path.basename(last.filename)}:{last.lineno}"
            self._faulted(f"{what} raised {exc!r}{where}", PLAYED_ON if notified else FELL_BACK)
        if notified and self.on_fallback is not None:
            self.on_fallback(self.stats)

    def _faulted(self, fault: str, then: str = "") -> None:
        """A fault of the bot's own: the first is kept and told (``tell``: a reference
        bot's standard error, a ladder's), so a broken bot is seen, not just outplayed."""
        if self.stats.first_fault is not None:
            return
        self.stats.first_fault = fault
        if self.tell is not None:
            self.tell(f"{fault}{then or FELL_BACK}")


class Handed:
    """A session of an ``inline`` bot over a link that hands it the server's bytes as
    they are written (``Bot.attach``): each line is read and answered in the writer's
    call, the answers written straight back; the bot's own task only waits for the end
    (and says ``ping`` after a silence, as ``Connection.keep_alive`` does)."""

    __slots__ = (
        "_backlog",
        "_bot",
        "_buffer",
        "_done",
        "_failure",
        "_heard",
        "_now",
        "_out",
        "_seek_later",
        "_sending",
        "_stream",
        "_woken",
    )

    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self._buffer = LineBuffer(errors="replace")
        self._out: list[str] = []
        self._stream: HandedStream | None = None
        self._backlog = bytearray()  # written when the link had no room: play sends it
        self._sending = False  # play is sending a backlog: the link's room is not ours
        self._done = False
        self._woken = trio.Event()  # set when done, or with a backlog to send
        self._failure: BaseException | None = None
        self._heard = 0.0  # when the server last wrote (trio's clock)
        # trio's clock, read without trio.current_time()'s two calls more (every write)
        self._now: Callable[[], float] = trio.current_time
        self._seek_later = False  # a seek was put off: play seeks again after a wait

    async def play(self, attach: Attach) -> None:
        """Until 'bye', the bot's last game, or the link's end (EOFError); the bot's own
        failures (``Bot._react``) are raised here."""
        self._now = trio.lowlevel.current_clock().current_time
        stream = await attach(self)
        self._stream = stream
        try:
            await stream.send_all(_lines(self._bot._greeting()))
            seek_at: float | None = None  # a seek put off: when to seek again
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._keep_alive)
                while self._backlog or not self._done:
                    if self._backlog:
                        data, self._backlog = bytes(self._backlog), bytearray()
                        self._sending = True  # what is answered meanwhile goes after it
                        try:
                            await stream.send_all(data)
                        except trio.BrokenResourceError:  # the server closed the link:
                            self._backlog.clear()  # the session ends as that says
                            self.connection_lost()
                        finally:
                            self._sending = False
                        continue
                    if self._seek_later:
                        self._seek_later = False
                        seek_at = self._bot._seek_later()
                    if seek_at is None:
                        await self._woken.wait()
                    else:  # woken meanwhile by a 'bye' or the link's end: no seek
                        with trio.move_on_at(seek_at) as waiting:
                            await self._woken.wait()
                        if waiting.cancelled_caught:
                            seek_at = None
                            await self._bot._seek_now(self._send_line)
                            continue
                    self._woken = trio.Event()
                nursery.cancel_scope.cancel()
            if self._failure is not None:
                raise self._failure
        finally:
            self._stream = None
            await stream.aclose()

    def data_received(self, data: bytes) -> None:
        if self._done:
            return
        self._heard = self._now()
        out = self._out
        try:
            for line in self._buffer.feed(data):
                step = self._bot._react(line, out)
                if step is Step.OVER:
                    self._done = True
                    break
                if step is Step.SEEK_LATER:
                    self._seek_later = True
                    self._woken.set()
        except Exception as exc:  # the bot's own failure: raised by play, not here
            self._failure = exc
            self._done = True
        if out:
            self._write(_lines(out))
            out.clear()
        if self._done:
            self._woken.set()

    async def _send_line(self, line: str) -> None:
        self._write(_lines([line]))

    def connection_lost(self) -> None:
        if not self._done:
            self._failure = EOFError("the server closed the connection")
            self._done = True
            self._woken.set()

    def _write(self, data: bytes) -> None:
        stream = self._stream
        if stream is not None and not self._backlog and not self._sending:  # else after it
            data = data[stream.write_nowait(data) :]
        if data:  # no room (the server reads slower than this bot writes), or not yet
            self._backlog += data
            self._woken.set()

    async def _keep_alive(self) -> None:
        self._heard = trio.current_time()
        while True:
            await trio.sleep_until(self._heard + KEEPALIVE_S)
            if trio.current_time() < self._heard + KEEPALIVE_S:
                continue  # heard meanwhile
            self._bot._pinged()
            self._write(b"ping\n")
            self._heard = trio.current_time()  # the next after as long again


def _lines(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def _backoff(failures: int) -> float:
    """The seconds to wait before connecting again after ``failures`` in a row."""
    return min(2.0, 0.1 * 2.0**failures)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _reconnects(text: str) -> int:
    # isdecimal, not isdigit: int() takes every decimal digit, not '²'
    if not text.isdecimal():
        raise argparse.ArgumentTypeError(f"--reconnects is a whole number, 0 or more, not {text!r}")
    return int(text)


def _word(flag: str) -> Callable[[str], str]:
    """A login's NAME or PASSWORD: one word (a space would split the login line, and
    'bad name' would log in as 'bad' with the password 'name')."""

    def word(text: str) -> str:
        if not text or text != "".join(text.split()):
            raise argparse.ArgumentTypeError(f"{flag} is one word, not {text!r}")
        return text

    return word


def bot_arguments(description: str) -> argparse.ArgumentParser:
    """The reference bots' command line, for a bot of your own: ``--host --port --name
    [--password] [--seek] [--games] [--seed] [--reconnects]`` (what a ladder appends to
    a bot's command). Add your own options to it, then hand ``parse_args()``'s result to
    ``run_bot``::

        parser = bot_arguments("my bot")
        parser.add_argument("--threshold", type=int, default=60)
        args = parser.parse_args()
        run_bot(choose, args, rng)
    """
    parser = argparse.ArgumentParser(description=description)
    # each says its default: '--help' is where a newcomer looks for the port
    parser.add_argument("--host", default="127.0.0.1", help="the server (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=7501, help="the server's game port (default 7501)"
    )
    parser.add_argument(
        "--name",
        required=True,
        type=_word("--name"),
        help="log in as NAME (a guest, without --password)",
    )
    parser.add_argument(
        "--password",
        type=_word("--password"),
        help="with --name: its password (registers the name the first time)",
    )
    parser.add_argument("--seek", default="2", help="what to seek: PLAYERS [VARIANT] [OPTION..]")
    parser.add_argument("--games", type=int, help="stop after this many games")
    parser.add_argument("--seed", default=None, help="seed for the bot's own choices")
    parser.add_argument(
        "--reconnects",
        type=_reconnects,
        default=RECONNECTS,
        help=f"drops in a row it survives, or tries again to reach a server (default {RECONNECTS})",
    )
    return parser


def run_bot(
    choose: Choose,
    args: argparse.Namespace,
    rng: random.Random | None = None,
    pick: Pick | None = None,
) -> Stats:
    """Play as the command line says. ``rng``, the bot's own generator, is reseeded from
    ``--seed`` and the board at every ladder board, so seeded copies agree; ``pick``, if
    given, answers the asks from their legal calls alone (``Bot.pick``)."""
    on_board = None if rng is None else board_reseeder(rng, args.seed)
    return run_mind(Brain(choose, on_board=on_board, pick=pick), args)


def run_brain(brain: Callable[[str, str | None], Brain], args: argparse.Namespace) -> Stats:
    """Play as the command line says with what ``brain(args.name, args.seed)`` gives: a
    bot module's ``brain``, the one a ladder plays in its process (``py:MODULE``), so
    the same module runs as a command too, its ``on_event``, ``on_board``, ``pick`` and
    ``asks_only`` included (``run_bot`` takes ``choose`` and ``pick`` only)::

        if __name__ == "__main__":
            run_brain(brain, bot_arguments("my bot").parse_args())

    A ``ValueError`` from ``brain`` (settings it refuses) ends the process with its
    text in one line and ``REFUSED_STATUS``, as a ladder stops on it."""
    try:
        mind = brain(args.name, args.seed)
    except ValueError as exc:
        print(f"{args.name}: brain refused its settings: {exc}", file=sys.stderr)
        raise SystemExit(REFUSED_STATUS) from None
    return run_mind(mind, args)


def run_mind(mind: Brain, args: argparse.Namespace) -> Stats:
    """Play ``mind`` as the command line (``bot_arguments``) says, to the end: what
    ``run_bot`` and ``run_brain`` do once they have a ``Brain``."""
    freeze_heap_at_exit()  # a bot process's exit walks no heap (as deberc-net's commands)
    bot = Bot(
        mind.choose,
        args.name,
        args.host,
        args.port,
        args.password,
        args.seek,
        args.games,
        args.reconnects,
        on_event=mind.on_event,
        on_board=mind.on_board,
        pick=mind.pick,
        asks_only=mind.asks_only,
    )
    return run_to_end(bot)


REFUSED_STATUS = 2  # a bot process refused (login, seek) or never connected exits so


def why_not_connected(exc: OSError) -> str:
    """Why a connect failed, as the system says it ('Connection refused'): trio's own
    error only says that every address it tried failed, the reasons inside it."""
    cause: BaseException | None = exc.__cause__
    while isinstance(cause, BaseExceptionGroup) and cause.exceptions:
        cause = cause.exceptions[0]
    for error in (cause, exc):
        if isinstance(error, OSError) and error.errno and error.errno > 0:
            return os.strerror(error.errno)
        if isinstance(error, OSError) and error.strerror:  # a name lookup's (gaierror)
            return error.strerror
    return str(exc)


def run_to_end(bot: Bot) -> Stats:
    """``bot.run`` in a new trio loop. A refusal (a bad password, a name in use, rules
    the server does not know) ends the process at once with the server's text in one
    line and ``REFUSED_STATUS``; so does a server never reached, or lost for good,
    after the bot's reconnects (one that said it stops or restarts, and did not come
    back, is said with its last word: ``ServerNotBack``), a seek put off ('busy') as
    many times in a row, or a server of another protocol version. What
    the bot waits for meanwhile (``Bot.tell``) is said on standard error too, and each
    match's result as it ends; the ``Stats`` returned hold them typed (``matches``)."""
    if bot.tell is None:
        bot.tell = lambda text: print(f"{bot.name}: {text}", file=sys.stderr, flush=True)
    if os.environ.get(FAULT_COUNTS_ENV) and bot.on_fallback is None:
        bot.on_fallback = lambda s: print(fault_counts(bot.name, s), file=sys.stderr, flush=True)
    try:
        return trio.run(bot.run)
    except Refused as exc:
        print(f"{bot.name}: {exc.what} refused: {exc}", file=sys.stderr)
    except PutOff as exc:
        print(f"{bot.name}: {exc.what} put off, {_tries(bot)}: {exc}", file=sys.stderr)
    except ProtocolMismatch as exc:
        print(f"{bot.name}: cannot play at {bot.host}:{bot.port}: {exc}", file=sys.stderr)
    except (OSError, trio.BrokenResourceError, EOFError) as exc:
        where = f"{bot.host}:{bot.port}"
        if bot.stats.logins == 0:
            why = why_not_connected(exc) if isinstance(exc, OSError) else str(exc)
            print(f"{bot.name}: cannot connect to {where}: {why}", file=sys.stderr)
        else:
            print(f"{bot.name}: connection to {where} lost: {exc}", file=sys.stderr)
    raise SystemExit(REFUSED_STATUS) from None


# set by a ladder for its process bots: each fallback (and each drop counted) prints the
# counts so far on standard error, which the ladder reads into its report (docs/bots.md
# "A bot's faults", "A bot's drops")
FAULT_COUNTS_ENV = "DEBERC_FAULT_COUNTS"


def fault_counts(name: str, stats: Stats) -> str:
    """``NAME: faults fallbacks=N exceptions=M reconnects=R`` (exceptions of the bot's
    own code: ``choose``, ``pick``, ``on_event``, ``on_board``; its drops counted,
    ``Stats.reconnects``)."""
    raised = own_exceptions(stats)
    said = f"fallbacks={stats.fallbacks} exceptions={raised} reconnects={stats.reconnects}"
    return f"{name}: faults {said}"


def own_exceptions(stats: Stats) -> int:
    """How many exceptions the bot's own code raised (``OWN_CODE``)."""
    return sum(e.startswith(tuple(f"{what}:" for what in OWN_CODE)) for e in stats.errors)


def _wait_s(wait_ms: str | None) -> float | None:
    """A refusal's ``wait_ms=`` in seconds; None if it has none (or not a number)."""
    if wait_ms is None or not (wait_ms.isascii() and wait_ms.isdigit()):
        return None
    return int(wait_ms) / 1000


def _tries(bot: Bot) -> str:
    tries = bot.reconnects + 1
    return "1 try" if tries == 1 else f"{tries} tries"


def board_seed(seed: str, board: str) -> str:
    """The seed of a bot's choices on a ladder board: its ``--seed`` and the board's key
    only (not the copy's name), so any copy plays a board alike."""
    return f"{seed}/{board}"


def board_reseeder(rng: random.Random, seed: str | None) -> Callable[[str], None] | None:
    """``on_board`` for a bot whose choices come from ``rng``: reseeded from ``seed`` and
    the board at every ladder board, so seeded copies agree; None (unseeded stays
    unseeded) without a seed."""
    if seed is None:
        return None
    return lambda board: rng.seed(board_seed(seed, board))


def seeded_random(seed: str | None, name: str) -> random.Random:
    return random.Random(f"{seed}/{name}" if seed is not None else None)
