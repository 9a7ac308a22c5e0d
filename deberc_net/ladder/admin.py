"""The ladder's admin connection: it speaks the protocol like any client (reading with
protocol.wire), logs in as the server's ladder admin, waits for the bots, reserves a
table per game and releases a board's records once every seating is played."""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Collection

import trio

from deberc_net.protocol.wire import Line, LineBuffer, Tag, parse_line

from .schedule import BotsCannotPlay, ScheduleError

ADMIN = "ladder-admin"
LOGIN_S = 10.0
# asking 'who' again while bots log in: soon at first (in-process bots are in within a
# few ms, and a ladder waited 50 ms at every start), then every 50 ms at most
WHO_FIRST_PAUSE_S = 0.002
WHO_PAUSE_S = 0.05
# a --server's idle limit is not told: 'ping' after this long with nothing sent, as the
# client library does (clients.client.KEEPALIVE_S); our own server's is a third of its
KEEP_OPEN_S = 60.0
# a line begun is sent whole, a stop's cancel notwithstanding; a server that has not
# taken all of it this long after it began is gone, and its connection closed: nothing
# may follow half a line
WHOLE_LINE_S = 3.0


class AdminClient:
    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self._buffer = LineBuffer()
        self._ready: deque[str] = deque()
        # one writer at a time: a ping (``keep_open``) never cuts into a reserve
        self._writing = trio.Lock()
        self._sent_at = trio.current_time()
        # a send stalled WHOLE_LINE_S and closed the connection (a ping's, say): what
        # reads or sends on it next fails with that reason, not a closed stream's error
        self._stalled = False

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        password: str,
        local: Callable[[], Awaitable[trio.abc.Stream]] | None = None,
        name: str = ADMIN,
    ) -> AdminClient:
        """Log in as the ladder's admin ``name``: over TCP, or through ``local`` (our own
        server's in-process link: it sees every table's lines, no socket needed)."""
        try:
            stream = await (local() if local is not None else trio.open_tcp_stream(host, port))
        except OSError as exc:
            raise ScheduleError(f"cannot connect to {host}:{port}: {exc}") from exc
        admin = cls(stream)
        await admin.send("style machine")
        if local is None:
            await admin._is_its_admin(host, port, name)
        await admin.send(f"login {name} {password}")
        with trio.fail_after(LOGIN_S):
            while True:
                line = await admin.next()
                if line.tag is Tag.OK and line.get_str("cmd") == "login":
                    return admin
                if line.tag is Tag.ERROR:
                    raise ScheduleError(f"the ladder could not log in: {line.text}")

    async def _is_its_admin(self, host: str, port: int, name: str) -> None:
        """A --server's: ``name`` logs in without its password first. A registered name is
        refused ('give the password': no wrong password counted, nothing hashed), and the
        login with it follows; a free one would be registered by that login, with the
        admin's password, as an ordinary account the server's owner could not then
        register as its admin (nor would a reserve be let through): the ladder stops,
        the name taken as a guest's for a moment, nothing stored."""
        await self.send(f"login {name}")
        with trio.fail_after(LOGIN_S):
            while True:
                line = await self.next()
                if line.tag is Tag.OK and line.get_str("cmd") == "login":
                    await self.aclose()
                    raise ScheduleError(
                        f"{host}:{port} does not list {name} in its admins: its owner "
                        f"registers it there (deberc-net admin {name}, the password on "
                        "standard input) and lists it in its admins (docs/bots.md); "
                        "nothing was registered"
                    )
                if line.tag is Tag.ERROR and line.get_str("code") == "bad-password":
                    return  # registered: its password is asked for
                if line.tag is Tag.ERROR and line.get_str("code") == "not-allowed":
                    await self.aclose()
                    raise ScheduleError(
                        f"{name} is one of {host}:{port}'s admins but not registered "
                        f"there: its owner registers it (deberc-net admin {name}, the "
                        "password on standard input; docs/bots.md)"
                    )
                if line.tag is Tag.ERROR:
                    raise ScheduleError(f"the ladder could not log in: {line.text}")

    async def send(self, text: str) -> None:
        """Send one line, whole or not at all: a cancel (a stop) before it begins sends
        nothing; once begun it goes on to its end, so a stop's release never follows
        half a reserve on the wire (over TCP a send waits while the server is slow to
        read). A ScheduleError if the server has not taken all of it WHOLE_LINE_S after
        it began (the connection is then closed, and what reads or sends on it next
        gets the same error)."""
        data = text.encode("utf-8") + b"\n"
        async with self._writing:
            if self._stalled:
                raise self._stall_error()
            self._sent_at = trio.current_time()
            with trio.CancelScope(shield=True):
                with trio.move_on_after(WHOLE_LINE_S) as stalled:
                    await self.stream.send_all(data)
                if stalled.cancelled_caught:
                    self._stalled = True
                    await self.stream.aclose()
            if self._stalled:
                raise self._stall_error()

    @staticmethod
    def _stall_error() -> ScheduleError:
        return ScheduleError(f"the server took no line from the ladder for {WHOLE_LINE_S:.0f} s")

    async def keep_open(self, every_s: float) -> None:
        """Say ``ping`` whenever nothing was sent for ``every_s``, so the server's idle
        limit (docs/protocol.md §2.1) never closes a connection the ladder waits on: a
        worker waiting for boards, a game longer than the limit, a board of many
        seatings. Its answer is a line the ladder reads past. Ends once the connection
        is closed."""
        while True:
            await trio.sleep_until(self._sent_at + every_s)
            if trio.current_time() >= self._sent_at + every_s:
                try:
                    await self.send("ping")
                except (ScheduleError, trio.BrokenResourceError, trio.ClosedResourceError):
                    return  # closed by the ladder, or the server gone: the reader tells

    async def next(self) -> Line:
        """The next line the ladder acts on: a table's play, state and records (what a
        server without ``watch=ends`` tells an observer) are skipped unparsed; of the
        events, a match's start (its id) and end (its result) are kept."""
        while True:
            while not self._ready:
                try:
                    data = await self.stream.receive_some(65536)
                except trio.ClosedResourceError:
                    if self._stalled:  # closed by a send the server took none of
                        raise self._stall_error() from None
                    raise  # closed by the ladder
                if not data:  # the ladder cannot go on: an error for the CLI, not a traceback
                    raise ScheduleError("the server closed the ladder's connection")
                self._ready.extend(self._buffer.feed(data))
            line = self._ready.popleft()
            if line.startswith(("state ", "record ")) or (
                line.startswith("event ")
                and " kind=match-end " not in line
                and " kind=start " not in line
            ):
                continue
            return parse_line(line)

    async def wait_for(self, names: Collection[str], within: float) -> None:
        """Return once every name is logged in (``who``); a ScheduleError naming the
        missing ones after ``within`` seconds."""
        wanted = {n.casefold() for n in names}
        online: set[str] = set()
        pause = WHO_FIRST_PAUSE_S
        with trio.move_on_after(within):
            while not wanted <= online:
                await self.send("who")
                while (line := await self.next()).tag is not Tag.WHO:
                    pass
                online = {n.casefold() for n in line.get_list("names")}
                if not wanted <= online:
                    await trio.sleep(pause)
                    pause = min(WHO_PAUSE_S, pause * 2)
            return
        missing = ", ".join(sorted(wanted - online))
        raise BotsCannotPlay(f"bot instances did not log in within {within:.0f} s: {missing}")

    async def reserve(
        self,
        players: int,
        variant: str,
        options: Collection[str],
        seats: Collection[str],
        seed: str,
        board: str,
    ) -> None:
        """Ask for a one-deal table, told only its match's start and end; the server
        answers ``ok cmd=reserve`` (or an error) in the order asked."""
        await self.send(
            " ".join(
                [
                    "reserve",
                    str(players),
                    variant,
                    *options,
                    f"seats={','.join(seats)}",
                    f"seed={seed}",
                    "deals=1",
                    f"board={board}",
                    "watch=ends",
                ]
            )
        )

    async def release(self, board: str) -> None:
        await self.send(f"release {board}")

    async def aclose(self) -> None:
        await self.stream.aclose()
