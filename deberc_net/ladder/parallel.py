"""``ladder run --processes N``: one ladder on N cores of this machine (docs/bots.md
"Cores").

This process forks N parts once the imports and the rule plugins are loaded (a part
starts no Python of its own), then deals them the boards as they play (``Dealer``):
every seating of a board to one part, which releases it; each part holds up to
``--concurrency`` + 2 boards and is dealt the next as it finishes one, so a part that
gets less of the machine plays fewer boards rather than keeping the others waiting at
the end (with ``--sprt``, none is dealt too far past the first board not played yet:
the boards played past a verdict are bounded). Each part plays its boards as a ladder
does (runner.py: its own server on the same database, its own copies of the bots) and
sends their results up a pipe, a board's together as it ends (``SentResults``). This process
counts them in schedule order (results.py), as a ladder in one process does, so a
seeded ladder gives the same summary either way.

The pipe down to a part says ``play`` and the games' schedule indices (boards dealt),
``end`` (no more boards: it finishes what it holds) or ``stop`` (the SPRT's verdict:
no new games), or closes: this process failed, was interrupted (Ctrl-C, SIGTERM,
SIGHUP) or died, and the part stops at once, releasing the boards it started and
stopping its bots, as an interrupted ladder does (runner.py). So does a part whose
pipe up breaks (no one counts) or that gets SIGTERM or SIGHUP itself. A part that fails
says why in its last line up (a bot that cannot run: the ladder's own error), and a
part that ends without one (killed outright) stops the others: status 2 either way.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import trio

from deberc_net.hangup import hangup, leave_the_terminal_on_hangup
from deberc_net.protocol.wire import LineBuffer, MatchEnd

from .admin import AdminClient
from .progress import LadderProgress
from .ratings import Ratings
from .results import GameResult, Results, Summary
from .runner import INTERRUPTED, Ladder, LadderOptions
from .schedule import BotsCannotPlay, Game, ScheduleError, schedule

STOP = b"stop\n"
END = b"end\n"
KILL_AFTER_S = 5.0  # a part that has not exited this long after its pipe closed is killed
# a part's results go up as each board ends (the ladder deals the next one then), and at
# least every SEND_AFTER games (a board of many seatings: the progress bar moves on)
SEND_AFTER = 8

# the pipes between this process and its parts carry our own lines (a board's results,
# records and all, in one, however many deals it has): no peer's, so not bounded
OWN_PIPE_LINES = sys.maxsize


class Dealer:
    """Which boards each part plays: every game of a board to the same part (its release
    needs them all), dealt in schedule order, a part holding up to ``ahead`` boards it
    has not finished (so it never waits for the next one), and another dealt as soon as
    it has played one. ``lead`` (an SPRT's ladder): no board is dealt ``lead`` boards or
    more past the first one not played yet, so the boards played past a verdict, which
    comes as the games are counted in schedule order, are fewer than ``lead``
    (docs/bots.md "Cores"); a part left without a board then is dealt one as the
    boards behind it are played (``deal``)."""

    def __init__(self, games: Sequence[Game], ahead: int, lead: int | None = None) -> None:
        by_board: dict[int, list[int]] = {}
        for index, game in enumerate(games):
            by_board.setdefault(game.board, []).append(index)
        self.games = games
        self.ahead = ahead
        self.lead = lead
        self.boards = deque(by_board.values())  # each board's schedule indices, not dealt
        self.held: Counter[int] = Counter()  # by part: boards dealt and not yet played
        self._left: dict[int, int] = {}  # by board dealt: its games not played yet
        self._order = {board: n for n, board in enumerate(by_board)}  # board: its place
        self._dealt = 0  # boards dealt (the first ones in that order)
        self._done: set[int] = set()  # the places of boards played past the first unplayed
        self._first_unplayed = 0  # the place of the first board not played yet
        self.stopped = False  # the SPRT's verdict: nothing more is dealt

    def first(self, parts: int) -> list[list[int]]:
        """Each part's first boards, dealt in turn (a short ladder is shared too); the
        parts left without a board are not listed."""
        dealt: list[list[int]] = [[] for _ in range(parts)]
        for _ in range(self.ahead):
            for part in range(parts):
                dealt[part] += self._one(part)
        return [indices for indices in dealt if indices]

    def deal(self, part: int) -> list[int]:
        """The games to deal ``part`` now (none while it holds ``ahead`` boards)."""
        indices: list[int] = []
        while self.held[part] < self.ahead and (board := self._one(part)):
            indices += board
        return indices

    def played(self, part: int, index: int) -> None:
        """Game ``index``, dealt to ``part``, is played."""
        board = self.games[index].board
        self._left[board] -= 1
        if self._left[board] == 0:
            del self._left[board]
            self.held[part] -= 1
            self._done.add(self._order[board])
            while self._first_unplayed in self._done:
                self._done.remove(self._first_unplayed)
                self._first_unplayed += 1

    @property
    def all_dealt(self) -> bool:
        return self.stopped or not self.boards

    def _one(self, part: int) -> list[int]:
        if self.all_dealt:
            return []
        if self.lead is not None and self._dealt >= self._first_unplayed + self.lead:
            return []  # too far ahead of the count: dealt once the boards behind are played
        self._dealt += 1
        board = self.boards.popleft()
        self._left[self.games[board[0]].board] = len(board)
        self.held[part] += 1
        return board


class SentResults(Results):
    """A part's results, up the pipe (not counted here): held until ``send``, so a
    board's go together as its last game ends (one write, one wake-up of the ladder)."""

    def __init__(
        self, options: LadderOptions, summary: Summary, fd: int, parent_gone: Callable[[], None]
    ) -> None:
        super().__init__(options, summary)
        self.fd = fd
        self.parent_gone = parent_gone
        self.unsent: list[dict[str, Any]] = []

    def add(self, index: int, game: Game, end: MatchEnd, match_id: str | None) -> None:
        result = GameResult.of(game, end, match_id)
        self.unsent.append(
            {
                "index": index,
                "written": result.written,
                "reason": result.reason,
                "match_id": result.match_id,
                "forfeit": result.forfeit,
            }
        )

    def send(self) -> None:
        """The results not sent yet, up the pipe."""
        items, self.unsent = self.unsent, []
        try:
            _write_lines(self.fd, items)
        except BrokenPipeError:  # no one counts any more (the ladder stopped or died)
            self.parent_gone()  # stop as when the pipe down closes: the boards released


class Part(Ladder):
    """The games of one part, under their schedule indices: its first ones, then those
    the ladder deals it as it plays (``told``)."""

    def __init__(
        self, options: LadderOptions, games: list[Game], indices: list[int], fd: int, more: bool
    ) -> None:
        super().__init__(options, Ratings([b.name for b in options.bots]), games)
        self.queue.clear()
        self.queue.extend((i, self.games[i]) for i in indices)
        self.sent = SentResults(options, self.summary, fd, parent_gone=self.interrupt)
        self.results = self.sent
        self.more = more
        self._dealt = trio.Event()  # set when told something

    def told(self, line: str) -> None:
        """A line from the ladder: boards dealt (``play`` and their games' indices), no
        more boards (``end``), or no new games (``stop``: the SPRT's verdict)."""
        word, _, rest = line.partition(" ")
        if word == "play":
            self.queue.extend((i, self.games[i]) for i in map(int, rest.split()))
        elif word == "end":
            self.more = False
        elif word == "stop":
            self.queue.clear()  # the games running finish, as on a verdict
            self.more = False
        self._dealt.set()

    async def _board_done(self, admin: AdminClient, board: int) -> None:
        await super()._board_done(admin, board)
        # a board's games go up together, as it ends (the ladder deals the next board
        # then); a board of many seatings sends every SEND_AFTER games
        if self.unplayed[board] == 0 or len(self.sent.unsent) >= SEND_AFTER:
            self.sent.send()

    async def _more_games(self) -> bool:
        while self.more and not self.queue:
            await self._dealt.wait()
            self._dealt = trio.Event()
        return bool(self.queue)


def _write_line(fd: int, item: dict[str, Any]) -> None:
    _write_lines(fd, [item])


def _write_lines(fd: int, items: list[dict[str, Any]]) -> None:
    if not items:
        return
    data = "".join(json.dumps(item) + "\n" for item in items).encode()
    while data:  # a pipe takes what fits; the parent reads all the while
        data = data[os.write(fd, data) :]


async def _play_part(ladder: Part, control: int) -> None:
    async with trio.open_nursery() as nursery:

        async def watch() -> None:
            stream = trio.lowlevel.FdStream(control)
            buffer = LineBuffer(most=OWN_PIPE_LINES)
            while True:
                data = await stream.receive_some(65536)
                if not data:  # the parent is gone: stop now, its boards released
                    ladder.interrupt()
                    return
                for line in buffer.feed(data):
                    ladder.told(line)

        async def on_sigterm(task_status: trio.TaskStatus[None]) -> None:
            # a service manager's stop reaches every part: each releases its boards
            # first (docs/bots.md "Interrupted"); a second SIGTERM kills it. So does
            # its terminal's hangup, which its bots (groups of their own) do not get
            with trio.open_signal_receiver(signal.SIGTERM, *hangup()) as signals:
                task_status.started()
                async for signum in signals:
                    leave_the_terminal_on_hangup(signum)
                    ladder.interrupt()
                    return

        await nursery.start(on_sigterm)
        nursery.start_soon(watch)
        await ladder.run()
        nursery.cancel_scope.cancel()


def _part_main(
    options: LadderOptions, games: list[Game], indices: list[int], more: bool, up: int, control: int
) -> int:
    """A forked part's whole life; its exit status. ``games``: the ladder's schedule (the
    parent's, not dealt again in every part)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides (Ctrl-C reaches all)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held back by the fork
    status = 0
    try:
        ladder = Part(options, games, indices, up, more)
        trio.run(_play_part, ladder, control)
        ladder.sent.send()  # a board's games played before a stop (the SPRT's)
        # its crashes, and its in-process copies' faults
        cut = {"cut": ladder.summary.cut}  # (games its server cut, playing on)
        _write_line(up, {"crashes": dict(ladder.summary.crashes), **ladder.summary.faults(), **cut})
    except BaseException as exc:  # a part reports whatever stopped it
        reason = _schedule_error(exc)
        if reason is not None:  # the ladder's error (a bot that cannot run): said as is
            _write_line(up, {"error": str(reason), "bots": isinstance(reason, BotsCannotPlay)})
            return 2
        _write_line(up, {"failed": repr(exc)})
        status = 1
    return status


def _schedule_error(exc: BaseException) -> ScheduleError | None:
    """The first ScheduleError in what stopped a part (trio groups what tasks raise)."""
    if isinstance(exc, ScheduleError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            if (found := _schedule_error(inner)) is not None:
                return found
    return None


@attrs.define
class Child:
    """A part's process as the ladder holds it: its pid and its two pipes."""

    pid: int
    up: int  # its results, read here
    control: int  # boards dealt, 'end', 'stop', or closed to end it (-1 once closed)
    told_end: bool = False  # no more boards for it ('end', or it started with them all)

    def tell(self, data: bytes) -> None:
        if self.control >= 0:
            with contextlib.suppress(OSError):  # the part has exited: nothing to tell
                os.write(self.control, data)

    def end(self) -> None:
        """Close the pipe down: the part stops at once (as its parent is gone)."""
        if self.control >= 0:
            os.close(self.control)
            self.control = -1


def _fork(
    options: LadderOptions,
    games: list[Game],
    indices: list[int],
    more: bool,
    earlier: list[Child],
) -> Child:
    up_read, up_write = os.pipe()
    control_read, control_write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the part: it never returns into the caller's code
        status = 1
        try:
            # only its own ends: an earlier part's control pipe held open here would
            # not tell that part when the parent is gone
            for fd in (
                up_read,
                control_write,
                *(c.up for c in earlier),
                *(c.control for c in earlier),
            ):
                os.close(fd)
            status = _part_main(options, games, indices, more, up_write, control_read)
        finally:
            os._exit(status)
    os.close(up_write)
    os.close(control_read)
    return Child(pid, up_read, control_write)


class PartsCounter:
    """The parent: reads every part's results and counts them in schedule order."""

    def __init__(self, dealer: Dealer, summary: Summary, progress: LadderProgress | None) -> None:
        self.dealer = dealer
        self.games = dealer.games
        self.summary = summary
        self.results = Results(
            summary.options,
            summary,
            on_counted=progress.update if progress else None,
            on_verdict=self.stop_all,
        )
        self.children: list[Child] = []
        self.error: str | None = None
        self.bots_failed = False
        self.interrupted = False  # SIGTERM, SIGHUP (Ctrl-C is trio's KeyboardInterrupt)

    def stop_all(self) -> None:
        self.dealer.stopped = True
        for child in self.children:
            child.tell(STOP)

    async def read(self, part: int, child: Child) -> None:
        buffer = LineBuffer(most=OWN_PIPE_LINES)
        said_how_it_ended = False  # a part's last line: its crashes, or what stopped it
        async with trio.lowlevel.FdStream(child.up) as stream:  # closes it at the end
            while data := await stream.receive_some(65536):
                for line in buffer.feed(data):
                    item = json.loads(line)
                    self._take(item)
                    said_how_it_ended = "index" not in item
                    if not said_how_it_ended:
                        self.on_played(part, child, item["index"])
        if not said_how_it_ended:  # killed outright (SIGKILL, the OOM killer)
            self._fail(f"a ladder process (pid {child.pid}) ended before its games were played")

    def on_played(self, part: int, child: Child, played: int) -> None:
        """Another board for a part that has played one (or ``end``: there is none); and
        for any other part the SPRT's ``lead`` left short, now that one more is played."""
        if child.told_end:
            return
        self.dealer.played(part, played)
        self._deal_to(part, child)
        if self.dealer.lead is not None:
            for other, waiting in enumerate(self.children):
                if other != part and not waiting.told_end:
                    self._deal_to(other, waiting)

    def _deal_to(self, part: int, child: Child) -> None:
        indices = self.dealer.deal(part)
        if indices:
            child.tell(f"play {' '.join(map(str, indices))}\n".encode())
        if self.dealer.all_dealt:
            child.told_end = True
            child.tell(END)

    def _take(self, item: dict[str, Any]) -> None:
        if "index" in item:
            index = item["index"]
            self.results.add_result(
                index,
                GameResult(
                    self.games[index],
                    list(item["written"]),
                    item["reason"],
                    item["match_id"],
                    item["forfeit"],
                ),
            )
        elif "crashes" in item:
            self.summary.crashes.update(item["crashes"])
            self.summary.cut.extend(item.get("cut", []))
            self.summary.add_faults(
                item.get("fallbacks", {}),
                item.get("bot_errors", {}),
                item.get("first_faults", {}),
                item.get("reconnects", {}),
            )
        else:
            error = item.get("error") or f"a ladder process failed: {item.get('failed')}"
            self._fail(error, bots=bool(item.get("bots")))

    def _fail(self, reason: str, bots: bool = False) -> None:
        if self.error is None:  # the first part's failure is the ladder's
            self.error = reason
            self.bots_failed = bots  # its bots could not play (BotsCannotPlay)
            for child in self.children:  # the others stop at once
                child.end()

    async def run(self) -> None:
        # a Ctrl-C held back while forking (see run_parallel) arrives now, to trio
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        async with trio.open_nursery() as nursery:
            await nursery.start(self._on_sigterm, nursery.cancel_scope)
            async with trio.open_nursery() as reading:
                for part, child in enumerate(self.children):
                    reading.start_soon(self.read, part, child)
            nursery.cancel_scope.cancel()  # every part's results read: no more to watch

    async def _on_sigterm(
        self, reading: trio.CancelScope, task_status: trio.TaskStatus[None]
    ) -> None:
        """SIGTERM, or SIGHUP (``hangup``: its terminal gone), stops the ladder as Ctrl-C
        does (the parts release their boards as their pipes close, and stop their bots);
        a second one, the handler given back, kills it."""
        with trio.open_signal_receiver(signal.SIGTERM, *hangup()) as signals:
            task_status.started()
            async for signum in signals:
                leave_the_terminal_on_hangup(signum)
                self.interrupted = True
                reading.cancel()
                return


def _reap(children: list[Child]) -> None:
    """Wait for every part to exit (closed pipes end them); kill one that hangs."""
    deadline = time.monotonic() + KILL_AFTER_S
    for child in children:  # all at once: each releases its boards meanwhile
        child.end()
    for child in children:
        while True:
            pid, _ = os.waitpid(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.kill(child.pid, signal.SIGKILL)
                os.waitpid(child.pid, 0)
                break
            time.sleep(0.01)


def run_parallel(
    options: LadderOptions, processes: int, stored: Sequence[dict[str, Any]] = ()
) -> Summary:
    """The ladder of ``options`` played by ``processes`` forked parts of this process
    (our own server only); the summary, as ``runner.run`` gives it."""
    if options.server is not None:
        raise ScheduleError("--processes plays on the ladder's own servers, not --server")
    if not hasattr(os, "fork"):
        raise ScheduleError("--processes needs a system that can fork (not Windows)")
    import deberc_net.server.running  # noqa: F401 (imported once, here, not in every part)

    seed = options.seed if options.seed is not None else secrets.token_hex(8)
    ratings = Ratings.carried_on([b.name for b in options.bots], stored)
    summary = Summary(options, seed, ratings=ratings)
    # the parts deal every board as the ladder's seed says; they count nothing themselves
    part_options = attrs.evolve(options, seed=seed, progress=False, sprt=None)
    names = [b.name for b in options.bots]
    games = list(schedule(names, options.players, options.deals, seed, options.mode))
    progress = LadderProgress(len(games)) if options.progress else None
    # a part holds a board per copy of each bot and two more: its tables never wait for
    # the next board, and the parts end within a board or two of each other
    # with an SPRT, the parts play no further ahead of the count than their first
    # boards reach: the boards played past its verdict are bounded (docs/bots.md "Cores")
    ahead = options.concurrency + 2
    # twice what the copies can hold: with just that, a copy finishing out of order sat
    # idle behind a slow board (a tenth to a fifth of its time, measured by rv51); twice
    # costs ~1 % and still bounds the games played past a verdict
    dealer = Dealer(games, ahead, lead=2 * processes * ahead if options.sprt else None)
    counter = PartsCounter(dealer, summary, progress)
    started = time.perf_counter()
    # Ctrl-C waits until trio runs: one pressed as the ladder forks lands in Python's
    # at-fork callbacks (logging's), which print and drop it, and the parts played on
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for indices in dealer.first(processes):
            more = not dealer.all_dealt
            child = _fork(part_options, games, indices, more, counter.children)
            child.told_end = not more
            counter.children.append(child)
        if signal.SIGINT in signal.sigpending():  # pressed while forking: answered here,
            signal.sigwait({signal.SIGINT})  # not left to its delivery once trio runs
            raise KeyboardInterrupt
        trio.run(counter.run)
        if counter.interrupted:
            raise ScheduleError(INTERRUPTED)
    except KeyboardInterrupt:
        raise ScheduleError(INTERRUPTED) from None
    except BaseExceptionGroup as group:  # trio groups what its tasks raise
        if group.split(KeyboardInterrupt)[1] is not None:
            raise
        raise ScheduleError(INTERRUPTED) from None
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        _reap(counter.children)
        if progress is not None:
            progress.close()
    if counter.error is not None:
        raise (BotsCannotPlay if counter.bots_failed else ScheduleError)(counter.error)
    counter.results.count_the_rest()  # (none wait unless the SPRT stopped the parts)
    if summary.sprt_verdict is None and summary.games + len(summary.cut) < len(games):
        raise ScheduleError("a ladder process ended before its games were played")
    summary.seconds = time.perf_counter() - started
    return summary
