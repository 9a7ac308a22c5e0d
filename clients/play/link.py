"""The wire for the terminal client: the client library's trio ``Connection`` in a
thread of its own, since Textual runs on asyncio.

Every line from the server is handed to ``deliver`` (called in the link's thread; the
app posts it to itself, which is thread-safe). The link's own notices come the same way,
as machine-style ``info`` lines, so the screen has one path. It logs in again with the
resume token (or the password) when the connection drops, so the seat is kept
(docs/protocol.md §12). It keeps trying for ``RETRY_FOR_S`` with longer and longer
pauses (a server restarted, Wi-Fi down a while), then waits for Ctrl+R (``drop``),
which starts the trying again (docs/play.md).
"""

from __future__ import annotations

import collections
import contextlib
import re
import threading
from collections.abc import Callable

import trio

from clients.client import Connection, why_not_connected
from deberc_net.protocol.commands import command_word
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.login_words import LoginWords, read_login
from deberc_net.protocol.wire import Tag, format_line, parse_line

from .texts import T, say

# how long the link keeps trying after a drop before it waits for Ctrl+R: as long as
# the server holds a seat by default (docs/settings.md, away_limit_ms), past which it is lost
RETRY_FOR_S = 120.0
FIRST_PAUSE_S = 0.5  # the pause before the second try; it doubles up to LONGEST_PAUSE_S
LONGEST_PAUSE_S = 10.0
# what a line may not bring to the screen: the controls (C0, DEL, C1: ESC above all,
# which begins a terminal's escape sequences). The server never sends them; a line with
# one is a hostile server's or a meddler's on the wire (no TLS), which could clear the
# screen, set the title, the clipboard or mouse reporting, or make the terminal type
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")
# lines handed to the screen and not shown yet: a server sending faster than the screen
# can draw (a hostile one's flood grew the client by 135 MB in 20 s) is dropped, as a
# lost connection is (a person's server sends a few lines a second)
MOST_UNSHOWN = 5000


def shown(line: str) -> str:
    """``line`` with each control character as U+FFFD (seen as something odd, not
    obeyed by the terminal)."""
    return CONTROLS.sub("\ufffd", line)


def login_secrets(words: list[str]) -> tuple[str | None, str | None] | None:
    """The password and the language (each None if not given) of a typed ``login NAME
    [PASSWORD | token=TOKEN] [lang=en|ru] [style=human|machine]``, read as the server
    reads it (docs/protocol.md §4.2, protocol.login_words): ``lang=`` and ``style=``
    no password; None if the server refuses the line (a wrong count, a second or an
    unknown language or style, a ``tell=``, ``sort=`` or ``clock=``)."""
    read = read_login(tuple(words[1:]))
    if not isinstance(read, LoginWords):
        return None
    return read.password, None if read.lang is None else str(read.lang)


def pause_before(attempt: int) -> float:
    """The pause before try ``attempt + 1`` (``attempt`` counts from 1)."""
    return min(LONGEST_PAUSE_S, FIRST_PAUSE_S * 2.0 ** (attempt - 1))


class Link:
    def __init__(
        self,
        host: str,
        port: int,
        deliver: Callable[[str], None],
        name: str | None = None,
        speaks: Lang = Lang.EN,
    ) -> None:
        self.host = host
        self.speaks = speaks  # the language of the link's own notices (the screen's)
        self.port = port
        self.deliver = deliver
        self.name = name  # to log in as on connect (None: the person types 'login')
        self.token: str | None = None
        self.password: str | None = None
        self.lang: str | None = None  # a 'lang=' the typed login gave: the resume's too
        # each 'password OLD NEW' sent on this connection and not answered yet, in the
        # order sent: the number of the 'ping' sent just before it (its fence, as the
        # bot library's seek: clients/client.py) and NEW, kept once it is ok. Answers
        # come in the order of the lines (docs/protocol.md §2.3): the first answer to a
        # change is the oldest's, and an error is its only once its fence's pong came
        # (before, another line's: a refused 'sit' typed before it)
        self._changes: collections.deque[tuple[int, str]] = collections.deque()
        self._pings = 0  # pings sent on this connection (typed, kept alive, fences)
        self._pongs = 0  # their answers read
        # the link's own login sent on this connection and not answered yet: a
        # bad-password now is its (the password it holds is wrong), not a change's
        self._login_unanswered = False
        self.closed = threading.Event()
        self.most_unshown = MOST_UNSHOWN
        self._unshown = 0  # lines delivered and not yet ``shown_one``
        self._unshown_lock = threading.Lock()
        self._started = threading.Event()
        self._trio_token: trio.lowlevel.TrioToken | None = None
        self._outbox: trio.MemorySendChannel[str] | None = None
        self._scope: trio.CancelScope | None = None
        self._thread: threading.Thread | None = None
        self._quitting = False
        self._conn: Connection | None = None
        self._logins = 0  # logins answered, so a drop after one is a fresh failure count
        self._opened = False  # this attempt's connection was made (then it may be lost)
        self._been_up = False  # a connection was up once: each later try is after a loss
        # this attempt's connection was refused by the server (busy: full, too many from
        # the address), or it sent a login that was never answered ok: it was never up
        self._refused = False
        # the server refuses every connection from here, whatever we send (its port
        # wants a proxy's PROXY header from this address): trying again changes nothing
        self._refused_for_good = False
        self.retry_for_s = RETRY_FOR_S
        self._waiting = False  # given up (or told goodbye): Ctrl+R starts trying again
        # no connection since a try failed or a connection was lost: a typed line is
        # refused, not kept to go out once the situation may have changed (a card)
        self._down = False
        self._wake: trio.Event | None = None  # set by Ctrl+R or quit: a pause ends at once

    # ------------------------------------------------------------ from the app
    @property
    def quitting(self) -> bool:
        return self._quitting

    @property
    def down(self) -> bool:
        """Not connected (between tries, or given up): ``send`` refuses a line."""
        return self._down or self._waiting or self.closed.is_set()

    @property
    def waiting(self) -> bool:
        """Given up trying (or told goodbye by the server): Ctrl+R tries again."""
        return self._waiting

    def start(self, clock: trio.abc.Clock | None = None) -> None:
        """Run the link in a thread of its own (``clock``: its trio run's, for a test
        on virtual time)."""
        self._thread = threading.Thread(
            target=trio.run,
            args=(self._main,),
            kwargs={"clock": clock},
            daemon=True,
            name="deberc-play-link",
        )
        self._thread.start()
        self._started.wait(5)

    def send(self, line: str) -> bool:
        """Queue a line for the server; False while it is not connected (between tries,
        given up) or once the link is gone: the line is not sent later."""
        words = line.split()
        if words and command_word(words[0]) == "quit":  # (or «выход», as the server reads it)
            self._quitting = True
            self._poke()  # a pause between tries ends: the link stops
        if words and words[0].lower() == "login" and (read := login_secrets(words)):
            # kept in memory only, to resume after a drop; a login without one (a
            # guest's, a token's) is not to register its name with an earlier one
            self.password, self.lang = read[0], read[1] or self.lang
        if self._outbox is None or self._trio_token is None or self.down:  # (closed: down)
            return False
        try:
            return trio.from_thread.run_sync(self._queue, line, trio_token=self._trio_token)
        except (trio.RunFinishedError, trio.WouldBlock, trio.ClosedResourceError):
            return False

    def _queue(self, line: str) -> bool:
        # (in the link's thread: the connection's end cannot come between the check and
        # the queueing, which would keep the line for the next connection)
        if self._down or self._outbox is None:
            return False
        self._outbox.send_nowait(line)
        return True

    def drop(self) -> None:
        """Close the connection as a network failure would; the link then logs in again
        with the resume token (or password), and the seat is taken back. Between tries,
        or once the link has given up, it tries again at once."""
        if self._trio_token is None:
            return
        with contextlib.suppress(trio.RunFinishedError):
            trio.from_thread.run(self._close_current, trio_token=self._trio_token)

    async def _close_current(self) -> None:
        if self._conn is not None:
            await self._conn.aclose()
        elif self._wake is not None:
            self._wake.set()

    def shown_one(self) -> None:
        """The screen has handled one line ``deliver`` gave it (the app's thread)."""
        with self._unshown_lock:
            self._unshown -= 1

    def _hand_on(self, line: str) -> bool:
        """``deliver`` ``line``; False once more lines wait to be shown than the screen
        may hold (``most_unshown``)."""
        with self._unshown_lock:
            self._unshown += 1
            over = self._unshown > self.most_unshown
        self.deliver(line)
        return not over

    def _poke(self) -> None:
        if self._trio_token is None:
            return
        with contextlib.suppress(trio.RunFinishedError):
            trio.from_thread.run_sync(self._wake_up, trio_token=self._trio_token)

    def _wake_up(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def stop(self) -> None:
        if self._scope is not None and self._trio_token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(self._scope.cancel, trio_token=self._trio_token)
        if self._thread is not None:
            self._thread.join(5)

    # --------------------------------------------------------- in the link's thread
    def _notice(self, text: str) -> None:
        self._hand_on(format_line(Tag.INFO, (), text))  # (counted: the screen shows it too)

    def _login_line(self) -> str | None:
        if self.name is None:
            return None
        lang = f" lang={self.lang}" if self.lang else ""
        if self.password:
            return f"login {self.name} {self.password}{lang}"
        return f"login {self.name}" + (f" token={self.token}" if self.token else "") + lang

    async def _main(self) -> None:
        self._trio_token = trio.lowlevel.current_trio_token()
        outbox, inbox = trio.open_memory_channel[str](256)
        self._outbox = outbox
        try:
            with trio.CancelScope() as scope:
                self._scope = scope
                self._started.set()
                while not await self._keep_trying(inbox) and not self._quitting:
                    # given up, or told goodbye: Ctrl+R (or quit) wakes the link
                    self._waiting = True
                    await self._pause(None)
                    self._waiting = False
        finally:
            self._started.set()
            self.closed.set()
            self._notice(say(T.DISCONNECTED, self.speaks))

    async def _keep_trying(self, inbox: trio.MemoryReceiveChannel[str]) -> bool:
        """Connect, and again after each drop, pausing longer each time; False once
        ``retry_for_s`` has gone by since the last connection without one (or the server
        said goodbye unasked), True when the link is to end (quit)."""
        attempt, since = 0, trio.current_time()
        while True:
            logins = self._logins
            self._opened = False
            told_bye = await self._session(inbox)
            if self._quitting:
                return True
            if told_bye:
                self._notice(say(T.AFTER_BYE, self.speaks))
                return False
            if self._refused_for_good:
                self._refused_for_good = False
                self._notice(say(T.NO_PROXY_HEADER, self.speaks))
                return False
            if self._logins > logins:  # logged in: a fresh drop, pauses short again
                attempt = 0
            # it was up (logged in; or, with no login to send, not refused): the time to
            # give up counts from its drop; a server that accepts and refuses at once
            # (busy) or a login refused is not retried beyond it
            if self._logins > logins or (self._opened and not self._refused):
                since = trio.current_time()
                self._been_up = True
            attempt += 1
            if trio.current_time() - since >= self.retry_for_s:
                seconds = f"{trio.current_time() - since:.0f}"
                self._notice(say(T.UNREACHABLE, self.speaks, attempts=attempt, seconds=seconds))
                return False
            pause = pause_before(attempt)
            # a connection that was never made was not lost; once one was, every try
            # until the next is made is after that loss (a try refused says so above)
            lost = self._opened or self._been_up
            what = T.TRYING_AGAIN_LOST if lost else T.TRYING_AGAIN_NOT_YET
            self._notice(say(what, self.speaks, pause=f"{pause:g}", attempt=attempt + 1))
            await self._pause(pause)
            if self._quitting:
                return True

    async def _pause(self, seconds: float | None) -> None:
        """Wait ``seconds`` (None: until woken); Ctrl+R or quit ends it at once."""
        self._wake = trio.Event()
        try:
            if seconds is None:
                await self._wake.wait()
            else:
                with trio.move_on_after(seconds):
                    await self._wake.wait()
        finally:
            self._wake = None

    async def _session(self, inbox: trio.MemoryReceiveChannel[str]) -> bool:
        """One connection; True when it ended for good (bye), False when it dropped."""
        try:
            conn = await Connection.open(self.host, self.port)
        except OSError as exc:
            address, why = f"{self.host}:{self.port}", why_not_connected(exc)
            self._notice(say(T.CANNOT_CONNECT, self.speaks, address=address, why=why))
            self._went_down(inbox)
            return False
        self._opened = True
        self._down = False
        # not up until the login is answered ok or, with none to send, the server greets
        # it: a refusal ('busy', then closed) may come before anything is sent
        self._refused = True
        ended = False
        self._conn = conn
        try:
            async with trio.open_nursery() as nursery:
                await conn.send("style machine")
                await conn.send("clock human")  # a person at the keys: not a bot's 10 s
                login = self._login_line()
                # a change sent on a connection gone is not answered on this one
                self._changes.clear()
                self._pings = self._pongs = 0
                self._login_unanswered = login is not None
                if login is not None:
                    await conn.send(login)
                    # the fence: its pong comes after all the login's answer (a seat's
                    # 'back' and view, what was missed: docs/protocol.md §2.3), so the
                    # screen knows then that a seat it showed was not given back
                    self._pinged()
                    await conn.send("ping")
                nursery.start_soon(self._write, conn, inbox)
                nursery.start_soon(conn.keep_alive, self._pinged)
                async for told in conn.lines():
                    line = shown(told)
                    if login is None and not line.startswith("error"):
                        self._refused = False  # the banner: taken, nothing to log in with
                    self._learn(line)
                    if not self._hand_on(line):
                        self._notice(say(T.TOO_MANY_LINES, self.speaks))
                        break
                    if parse_line(line).tag == Tag.BYE:
                        ended = True
                        break
                nursery.cancel_scope.cancel()
        except* (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # a dropped connection: the caller tries again
        finally:
            self._conn = None
            self._went_down(inbox)
            await conn.aclose()
        return ended

    def _went_down(self, inbox: trio.MemoryReceiveChannel[str]) -> None:
        """No connection from now on till one is made: lines typed are refused (``send``),
        and those queued and not sent (typed as it went) are dropped, said in the log."""
        self._down = True
        dropped = 0
        while True:
            try:
                inbox.receive_nowait()
            except trio.WouldBlock:
                break
            dropped += 1
        if dropped:
            if dropped == 1:
                self._notice(say(T.LINE_NOT_SENT, self.speaks))
            else:
                self._notice(say(T.LINES_NOT_SENT, self.speaks, count=dropped))

    def _learn(self, line: str) -> None:
        parsed = parse_line(line)
        own_login = self._login_unanswered  # (its answer comes before any typed line's)
        if parsed.tag == Tag.ERROR or (parsed.tag == Tag.OK and parsed.get_str("cmd") == "login"):
            self._login_unanswered = False
        if parsed.tag == Tag.OK and parsed.get_str("cmd") == "login":
            self._logins += 1
            self.name = parsed.get_str("name") or self.name
            self.token = parsed.get_str("token") or self.token
            self._refused = False
        elif parsed.tag == Tag.ERROR and parsed.get_str("code") == "busy":
            self._refused = True
        elif parsed.tag == Tag.ERROR and parsed.get_str("code") == "bad-proxy-header":
            self._refused_for_good = True
        elif parsed.tag == Tag.OK and parsed.get_str("cmd") == "ping":
            self._pongs += 1
        elif parsed.tag == Tag.OK and parsed.get_str("cmd") == "password":
            if self._changes:  # the oldest change's: a resume logs in with its NEW
                _, new = self._changes.popleft()
                if self.password is not None:
                    self.password = new
        elif parsed.tag == Tag.ERROR and parsed.get_str("code") == "bad-password":
            if self._changes and not own_login:  # the oldest change's OLD was wrong:
                self._changes.popleft()  # the login's stays (it logged in)
                return
            # never sent again by itself: each wrong one counts, and 5 in 5 min lock
            # the name for everyone (docs/protocol.md §4.2)
            self.password = None
        if parsed.tag == Tag.ERROR and self._changes and self._pongs >= self._changes[0][0]:
            self._changes.popleft()  # the oldest change's answer: refused for another reason

    def _pinged(self) -> None:
        """A 'ping' goes out on this connection (typed, kept alive, or a fence)."""
        self._pings += 1

    async def _write(self, conn: Connection, inbox: trio.MemoryReceiveChannel[str]) -> None:
        async for line in inbox:
            words = line.split()
            command = command_word(words[0]) if words else ""  # («пароль»: password)
            if command == "ping":
                self._pinged()
            try:
                if len(words) == 3 and command == "password":
                    self._pinged()  # the fence: an error after its pong is the password's
                    self._changes.append((self._pings, words[2]))  # the login's once ok
                    await conn.send("ping")
                await conn.send(line)
            except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                return  # the reader sees the end too
