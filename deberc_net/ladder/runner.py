"""Run a ladder: a server (ours or a given one), every bot as its own process over TCP
(or in this process), duplicate boards reserved seat by seat, results gathered by an
admin told each table's match start and end.

The runner schedules; the other jobs have their own modules: supervisor (the bot
processes), admin (the ladder's connection to the server), results (statistics,
ratings, SPRT) and progress. The runner logs in as an admin, ``reserve``s a table per
game (seed, seats, one deal, the board's key; ``watch=ends``); the bots only ``seek
reserved`` and play. A board's records reach its bots only once every seating of the
board is played (``release``; or the ladder stops: an SPRT verdict, Ctrl-C), so no bot
knows a deck before it plays it.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import math
import secrets
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.game.outcomes import MatchEndReason
from deberc_net.hangup import hangup, leave_the_terminal_on_hangup
from deberc_net.plugins import RuleBook
from deberc_net.protocol.wire import EventKind, Line, MatchEnd, Tag
from deberc_net.server.config import Config
from deberc_net.start_up import resume

from .admin import ADMIN, KEEP_OPEN_S, AdminClient
from .patience import WAIT_LIMIT_S
from .progress import LadderProgress
from .ratings import Ratings
from .results import GameResult, Results, Summary
from .schedule import Game, ScheduleError, ServerGoing, schedule
from .stats import Sprt
from .supervisor import BotSpec, Supervisor

if TYPE_CHECKING:
    from deberc_net.server.running import LocalLink

__all__ = ["ADMIN", "BotSpec", "GameResult", "LadderOptions", "Summary", "board_key", "run"]

log = structlog.get_logger("deberc.ladder")

STARTUP_S = 30.0  # every bot instance must have logged in by then
INTERRUPTED = "interrupted: the ladder's processes are stopped"  # by the ladder: its bots too
# an interrupted ladder's releases of the boards it started: answered at once by a live
# server; bounded for one gone (and below parallel.py's KILL_AFTER_S for a part)
RELEASE_AT_STOP_S = 3.0
# a release the server could not write (its database away): asked again after a pause
# (the time it has failed, from RELEASE_PAUSE_S to RELEASE_PAUSE_MAX_S), until it has
# failed for RELEASE_RETRY_S (the ladder's wait for a database, patience.py)
RELEASE_PAUSE_S = 0.25
RELEASE_PAUSE_MAX_S = 5.0
RELEASE_RETRY_S = WAIT_LIMIT_S
# a --server's stop (``info server=stopping``) is read on the admin's connection as its
# lines are: a game's end may still follow it (its table was writing the result as the
# stop began), and a table the stop cut says so (``info closed=T``). The ladder waits
# this long at most for each running game's end or close (a stopping server closes the
# connection after its grace, ``shutdown_grace_ms``, 2 s by default); a game still
# unaccounted for then is counted cut (docs/bots.md, "A server that drains or stops")
STOP_ENDS_S = 5.0


@attrs.define
class LadderOptions:
    bots: list[BotSpec]
    players: int = 2
    deals: int = 10  # boards
    seed: str | None = None  # None: a random seed, told in the summary
    variant: str = "moscow"
    options: list[str] = attrs.Factory(list)
    mode: str = "round-robin"
    server: tuple[str, int] | None = None
    admin_password: str | None = None
    db: str = "deberc.sqlite3"  # the server's own file (Config.db)
    concurrency: int = 2  # instances of each bot, so boards run side by side
    clock_ms: int = 3000
    # the lag allowance of our own server: the server's default (docs/protocol.md §11)
    lag_ms: int = attrs.field(default=attrs.fields(Config).lag_ms.default)
    away_limit_ms: int = 5000
    sprt: Sprt | None = None
    progress: bool = True
    rules: RuleBook | None = None  # the rule plugins our own server uses (loaded if None)
    # when every bot is an in-process one acting on its asks alone (the random bot), the
    # server tells them only their asks and each match's end; False: every line
    # ('--tell-all', to measure what that costs)
    asks_only: bool = True
    # the process is this ladder's own (the CLI's, each --processes copy): once its server
    # and bots have started, what they made is frozen (gc.freeze), out of the collector's
    # older passes; False in a process that goes on after the ladder (its garbage would stay)
    freeze_heap: bool = False


def board_key(seed: str, board: int) -> str:
    """What the bots are told of a board (``ok cmd=sit … board=``) and what releases its
    records: the same for every seating, and no clue to the deck's seed."""
    return hashlib.sha256(f"{seed}/board{board}".encode()).hexdigest()[:16]


@attrs.define
class Running:
    index: int  # in the schedule
    game: Game
    instances: list[str]
    match_id: str | None = None


class Ladder:
    def __init__(
        self, options: LadderOptions, ratings: Ratings, games: list[Game] | None = None
    ) -> None:
        """``games``: the schedule of ``options`` (its seed given), if already dealt (a
        --processes part has its ladder's, from before the fork)."""
        self.o = options
        self.seed = options.seed if options.seed is not None else secrets.token_hex(8)
        if games is None:
            names = [b.name for b in options.bots]
            games = list(schedule(names, options.players, options.deals, self.seed, options.mode))
        self.games = games
        self.queue: deque[tuple[int, Game]] = deque(enumerate(self.games))
        self.more = False  # games may be added to the queue as it plays (a --processes part)
        self.summary = Summary(options, self.seed, ratings=ratings)
        self.progress = LadderProgress(len(self.games)) if options.progress else None
        self.results = Results(
            options,
            self.summary,
            on_counted=self.progress.update if self.progress else None,
            on_verdict=self.queue.clear,
        )
        self.running: dict[int, Running] = {}
        # the commands sent and not answered yet, in order (the server answers in order):
        # a game being reserved, or a board (number) being released
        self.awaiting: deque[Running | int] = deque()
        # our own server: the releases go on a connection of their own (``_releases``),
        # as the server writes a board's results before it answers its release, and a
        # reserve sent after it on the same connection would wait for that write
        self._releases: Releases | None = None
        # our own server's idle limit (set as it starts): the releases' connection pings
        # within it
        self._idle_s = 0.0
        self.free: dict[str, list[str]] = {}
        self.unplayed = Counter(game.board for game in self.games)  # games per board
        self.started: set[int] = set()  # boards with a game reserved
        self.released: set[int] = set()  # boards whose release the server answered
        self._wanted: dict[tuple[str, ...], list[tuple[str, int]]] = {}  # copies a seating takes
        # our own server's admin: a distributed ladder's workers each have their own name,
        # as they share one database (and so its accounts)
        self.admin_name = ADMIN
        self.own_server = options.server is None
        # SIGINT/SIGTERM interrupt the ladder (the CLI's: run(handle_signals=True))
        self.on_signals = False
        self.interrupted = False
        self.release_retry_s = RELEASE_RETRY_S  # (a ladder worker's: its --db-wait)
        self._playing = trio.CancelScope()  # scheduling and playing, up to a stop
        self._played = False  # every game played (or the SPRT's stop), every release asked
        # why the ladder stopped, if not a signal: a bot that cannot run, a table failed
        self.failure: ScheduleError | None = None
        # a --server that drains or stops (``_server_going``): its first word of it,
        # whether it drains (else it stops at once), and the running games its stop cut
        self.server_going: str | None = None
        self.server_drains = False
        self.games_cut = 0
        self.games_played = 0
        # a stop read: by then (trio's clock) every game still running has ended, its
        # table closed, or it is counted cut (STOP_ENDS_S)
        self._ends_due = math.inf
        # that server closed the ladder's connection before every board was released
        self.server_gone = False

    def _bot_gave_up(self, error: ScheduleError) -> None:
        """A bot cannot run: stopped as by an interrupt (its boards released), the
        ladder fails with the bot's error."""
        self.failure = self.failure or error
        self.interrupt()

    def interrupt(self) -> None:
        """Stop now: no more games, the bots stopped, every board started released (its
        seatings played are listed, docs/bots.md), then ScheduleError(INTERRUPTED)."""
        self.interrupted = True
        self._playing.cancel()

    # ------------------------------------------------------------ the run
    async def run(self) -> Summary:
        try:
            return await self._run()
        except BaseExceptionGroup as group:
            # trio groups what the tasks raise: a bot that cannot run is the ladder's
            # error, reported as such (the CLI exits 2), not a traceback
            matched, _ = group.split(ScheduleError)
            if matched is None:
                raise
            raise _first(matched) from group
        finally:
            if self.progress is not None:
                self.progress.close()

    async def _run(self) -> Summary:
        started = time.perf_counter()
        supervisor: Supervisor | None = None
        admin: AdminClient | None = None
        try:
            async with trio.open_nursery() as nursery:
                if self.on_signals and threading.current_thread() is threading.main_thread():
                    await nursery.start(self._on_signals)
                host, port, password, link = await self._server(nursery)
                connect = link.connect if link is not None else None
                supervisor = Supervisor(host, port, self.summary.crashes, connect)
                nursery.start_soon(supervisor.lines.write)
                supervisor.on_give_up = self._bot_gave_up
                supervisor.attach = link.connect if link is not None else None
                supervisor.asks_only = self.o.asks_only and all(
                    b.in_process and b.asks_only for b in self.o.bots
                )
                async with trio.open_nursery() as bots:
                    for bot in self.o.bots:
                        names = [f"{bot.name}-{i}" for i in range(1, self._instances() + 1)]
                        self.free[bot.name] = list(names)
                        for name in names:
                            bots.start_soon(supervisor.keep_running, bot, name)
                    with self._playing:
                        admin = await AdminClient.connect(
                            host, port, password, connect, name=self.admin_name
                        )
                        # a third of our own server's idle limit; a --server's is not told
                        keep_open_s = self._idle_s / 3 if self.own_server else KEEP_OPEN_S
                        nursery.start_soon(admin.keep_open, keep_open_s)
                        if self.own_server:
                            releaser = await AdminClient.connect(
                                host, port, password, connect, name=self._releaser_name
                            )
                            self._releases = Releases(releaser, self.release_retry_s)
                            nursery.start_soon(self._releases.read, self)
                            nursery.start_soon(self._releases.ask_again, self)
                            nursery.start_soon(releaser.keep_open, keep_open_s)
                        await self._play(admin, supervisor)
                    supervisor.stop()
                    bots.cancel_scope.cancel()
                if admin is not None:
                    if self._cut_short:  # its bots stopped first: none learns a deck now
                        await self._release_at_stop(admin)
                    elif self._releases is not None:  # a signal as the last were answered
                        with trio.move_on_after(RELEASE_AT_STOP_S):
                            await self._releases.all_answered()
                    await admin.aclose()
                if self._releases is not None:
                    await self._releases.admin.aclose()
                nursery.cancel_scope.cancel()
        finally:
            if supervisor is not None:
                supervisor.lines.flush()  # the bots' last lines (a slow reader: waited for)
                self.summary.count_faults([(b, copy.stats) for b, copy in supervisor.in_process])
                self.summary.add_faults(*supervisor.process_faults())
                supervisor.close()
        if self._cut_short:
            raise self.failure or ScheduleError(INTERRUPTED)
        if self.server_going is not None:
            raise self._server_went()
        self.summary.seconds = time.perf_counter() - started
        return self.summary

    async def _play(self, admin: AdminClient, supervisor: Supervisor) -> None:
        await admin.wait_for([n for names in self.free.values() for n in names], STARTUP_S)
        supervisor.logged_in = True  # every bot started: an exit now is a crash
        if self.o.freeze_heap:
            gc.freeze()
            resume()  # the collector paused for the CLI's start-up (start_up.py)
        await self._fill(admin)
        while self.failure is None and (
            self.running or self.awaiting or (not self.queue and await self._more_games())
        ):
            if self.running or self.awaiting:
                try:
                    with trio.move_on_at(self._ends_due) as waited:  # (inf: till a line)
                        line = await admin.next()
                except ScheduleError:
                    if self.server_going is None:
                        raise
                    self._cut_the_rest()  # (stopped: what it kept stays withheld)
                    self.server_gone = bool(self.started - self.released)
                    break
                if waited.cancelled_caught:  # a stop's games unaccounted for in time
                    self._cut_the_rest()
                    continue
                await self._handle(admin, line)
            await self._fill(admin)
            if not self.running and not self.awaiting and not self.queue and not self.more:
                await self._release_the_rest(admin)
        # every game played and every release asked: a signal from now on leaves the run
        # whole (the answers then awaited in _run, as long as at a stop)
        self._played = True
        if self._releases is not None:  # the run is over once its boards are released
            await self._releases.all_answered()

    async def _more_games(self) -> bool:
        """Wait, with nothing to play, for more games (a --processes part is dealt its
        boards as it plays: parallel.py); whether any came. A ladder has its whole
        schedule from the start."""
        return False

    @property
    def _cut_short(self) -> bool:
        """Interrupted before its end: a signal once every game is played and every
        board's release asked (the bots being stopped) leaves the run whole, and it
        stands. A failed table cuts it short whenever it came (the lines read after it
        are handled with no checkpoint, so the cancel may come only after the last
        game)."""
        return (self.interrupted and not self._played) or self.failure is not None

    async def _on_signals(self, task_status: trio.TaskStatus[None]) -> None:
        """The first SIGINT, SIGTERM or SIGHUP (``hangup``) interrupts the ladder; a second
        one, the handler given back, ends it at once (Ctrl-C: KeyboardInterrupt; SIGTERM,
        SIGHUP: the process)."""
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM, *hangup()) as signals:
            task_status.started()
            async for signum in signals:
                leave_the_terminal_on_hangup(signum)
                self.interrupt()
                return

    def _instances(self) -> int:
        # a pair of copies plays four-handed; two bots three-handed need two of one bot
        seatings = {g.seating for g in self.games}  # (a few, in thousands of games)
        needed = max(max(Counter(seating).values()) for seating in seatings)
        return max(self.o.concurrency, needed)

    async def _server(self, nursery: trio.Nursery) -> tuple[str, int, str, LocalLink | None]:
        """Where the ladder plays: host, port, the admin's password, and the link for
        in-process bots (our own server only)."""
        if self.o.server is not None:
            if self.o.admin_password is None:
                raise ScheduleError(
                    f"--server needs --admin-password for {ADMIN!r}, listed in that server's admins"
                )
            host, port = self.o.server
            return host, port, self.o.admin_password, None
        from deberc_net.server.app import serve

        password = secrets.token_hex(12)
        config = Config(
            host="127.0.0.1",
            port=0,
            db=self.o.db,
            admins=[self.admin_name, self._releaser_name],
            bot_clock_ms=self.o.clock_ms,
            human_clock_ms=self.o.clock_ms,
            away_limit_ms=self.o.away_limit_ms,
            lag_ms=self.o.lag_ms,
            log_level="warning",
        )
        self._idle_s = config.idle_timeout_ms / 1000
        links: list[LocalLink] = []
        port = await nursery.start(
            functools.partial(serve, config, rules=self.o.rules, local_bound=links.append)
        )
        # the admin logs in over the in-process link, vouched for by the server (no
        # account in the file, no password hash at start-up)
        links[0].trust(self.admin_name, password)
        links[0].trust(self._releaser_name, password)
        return "127.0.0.1", port, password, links[0]

    # ------------------------------------------------------- scheduling
    async def _fill(self, admin: AdminClient) -> None:
        while self.queue:
            index, game = self.queue[0]
            instances = self._take(game)
            if instances is None:
                return
            self.queue.popleft()
            running = Running(index, game, instances)
            self.awaiting.append(running)
            self.started.add(game.board)
            try:
                await admin.reserve(
                    self.o.players,
                    self.o.variant,
                    self.o.options,
                    instances,
                    game.seed,
                    board_key(self.seed, game.board),
                )
            except trio.Cancelled:  # (a stop) a send cancelled writes nothing: no answer
                self.awaiting.pop()  # comes, and an interrupted ladder waited for one
                raise

    def _take(self, game: Game) -> list[str] | None:
        wanted = self._wanted.get(game.seating)
        if wanted is None:  # a ladder has few seatings, and tries one after every event
            wanted = self._wanted[game.seating] = list(Counter(game.seating).items())
        free = self.free
        for bot, n in wanted:  # (a loop: no generator made at every try)
            if len(free[bot]) < n:
                return None
        return [free[bot].pop(0) for bot in game.seating]

    def _free_instances(self, running: Running) -> None:
        for bot, instance in zip(running.game.seating, running.instances, strict=True):
            self.free[bot].append(instance)

    async def _handle(self, admin: AdminClient, line: Line) -> None:
        if _is_answer(line) and self.awaiting:
            asked = self.awaiting.popleft()
            if line.tag is Tag.ERROR and isinstance(asked, Running):
                if line.get_str("code") == "shutting-down":  # a drain's, or a stop's
                    self._free_instances(asked)
                    await self._server_going(admin, line.text or "", stops=False)
                    return
                raise ScheduleError(  # e.g. not an admin
                    f"the server refused the table: {line.get_str('code')}: {line.text}"
                )
            if line.tag is Tag.ERROR:  # a server older than boards (docs/protocol.md §5.5a)
                raise ScheduleError(
                    f"the server cannot release board records: {line.get_str('code')}: {line.text}"
                )
            if isinstance(asked, Running):
                self.running[line.require_int("table")] = asked
            else:
                self._released(asked)
        elif line.tag is Tag.INFO and line.get_str("server") in GOING:
            stops = line.get_str("server") == "stopping"
            await self._server_going(admin, line.text or "", stops=stops)
        elif line.tag is Tag.INFO and line.get_str("closed") is not None:
            await self._closed(admin, line.require_int("closed"), line.text or "")
        elif line.tag is Tag.EVENT and line.kind is EventKind.START:
            table = line.require_int("table")
            if table in self.running:
                self.running[table].match_id = line.get_str("match")
        elif line.tag is Tag.EVENT and line.kind is EventKind.MATCH_END:
            table = line.require_int("table")
            if table in self.running:
                running = self.running.pop(table)
                end = MatchEnd.from_line(line)
                if end.reason == MatchEndReason.INTERNAL:  # it failed (docs/protocol.md §9.7)
                    self._table_failed(table, running)
                    return
                self.games_played += 1
                self.results.add(running.index, running.game, end, running.match_id)
                self._free_instances(running)
                await self._board_done(admin, running.game.board)

    async def _server_going(self, admin: AdminClient, said: str, stops: bool) -> None:
        """A ``--server`` drains for a restart (``info server=draining``, or a table
        refused ``shutting-down``) or stops (``info server=stopping``): no game more is
        reserved there. A drain's running games play out, each board then released as
        after an SPRT verdict; a stop cuts them, so every board started is released at
        once (its decks no secret worth keeping: nothing more is played). Then the ladder
        stops (``ServerGoing``)."""
        if self.own_server:
            return  # (our own server stops with the ladder, which said so)
        if self.server_going is None:
            self.server_going = said
            self.server_drains = not stops
        self.queue.clear()
        if not stops:
            return
        # the games running may have ended already, their ends still to be read: each
        # waited for (``_play``), bounded, before it is counted cut
        self._ends_due = min(self._ends_due, trio.current_time() + STOP_ENDS_S)
        await self._release_the_rest(admin)

    async def _closed(self, admin: AdminClient, table: int, said: str) -> None:
        """A table of the ladder's closed with no match end (``info closed=T``,
        docs/protocol.md §11.4). On a ``--server`` that drains or stops: a stop cut its
        match, or a drain closed it still waiting for its bots (that seating never
        played: its board is released with the others). On a server that plays on (a
        failed table whose end could not be told, or any close to come): that game is
        counted cut at once, its bots free, and not played again (its bots have seen
        part of its deck, and its table's fault may come back); its board is released
        once its other seatings are played, as a forfeited seating's is."""
        running = self.running.pop(table, None)
        if running is None:
            return
        if self.server_going is not None:
            self._count_cut(running)
            return
        self._free_instances(running)
        self.results.add_result(running.index, None)  # (those after it counted on)
        game = running.game
        self.summary.cut.append(
            {"board": game.board, "seating": list(game.seating), "table": table, "said": said}
        )
        await self._board_done(admin, game.board)

    def _cut_the_rest(self) -> None:
        """A stopping ``--server``'s games whose end nor close came (within STOP_ENDS_S,
        or before it closed the connection): cut."""
        for running in self.running.values():
            self._count_cut(running)
        self.running.clear()
        self._ends_due = math.inf  # (the releases' answers are waited for as before)

    def _count_cut(self, running: Running) -> None:
        """A game that ended with no end of its own: cut, if its match had started (a
        table that never started it played nothing)."""
        self._free_instances(running)
        if running.match_id is not None:
            self.games_cut += 1

    def _server_went(self) -> ServerGoing:
        """The line a run stopped by its ``--server``'s drain or stop ends with."""
        host, port = self.o.server or ("", 0)
        what = "drains for a restart" if self.server_drains else "stops"
        said = (self.server_going or "").rstrip(".")
        how = f"{_games(self.games_played)} of {len(self.games)} played"
        if self.games_cut:
            how += f", {self.games_cut} cut by its stop"
        elif self.games_played:
            how += ", the last played out"
        if self.server_gone:
            kept = len(self.started - self.released)
            released = (
                f"it closed the connection before the ladder released {kept} of its"
                f" {len(self.started)} boards, their seatings withheld there (docs/bots.md,"
                ' "Killed outright")'
            )
        else:
            released = "every board it started is released there, its games listed"
        return ServerGoing(
            f"{host}:{port} {what} ({said}): the ladder stopped there, {how}; {released}."
            " The run is stored as failed: run it again once that server is back"
        )

    def _table_failed(self, table: int, running: Running, closed: str | None = None) -> None:
        """A game's table failed on the server (a bug, most often a rule plugin's hook
        raising): the results would be wrong from here on, so the ladder stops as when
        interrupted (every board started released), with status 2 and this reason.
        ``closed``: what the server said closing it with no end (``info closed=T``, a
        distributed worker's stop, WorkerLadder._closed): the logs its failure leaves
        are then others (its end could not be told: table_end_failed, after its
        table_error), and a store failing as the table began ends it, never closes it."""
        game = running.game
        where = f"board {game.board}, seats {', '.join(game.seating)}"
        if closed is None:
            why = (
                f"table {table} failed on the server ({where}): a bug in the server or a "
                "rule plugin; its traceback is in the server's log (table_error), or its "
                "store failing as the table began (match_number_failed: a full disk, the "
                "database away)"
            )
        else:
            why = (
                f"table {table} closed on the server with no end ({where}), saying "
                f"'{closed}': a bug in the server or a rule plugin, its end untellable "
                "too; its tracebacks are in the server's log (table_error, then "
                "table_end_failed)"
            )
        self.failure = self.failure or ScheduleError(
            f"{why}. The ladder stopped and released its boards"
        )
        self.queue.clear()  # no game more, even before the cancel reaches a checkpoint
        self.interrupt()

    async def _board_done(self, admin: AdminClient, board: int) -> None:
        self.unplayed[board] -= 1
        if self.unplayed[board] == 0:  # every seating is played: the bots may see it now
            await self._send_release(admin, board)

    async def _release_the_rest(self, admin: AdminClient) -> None:
        """Stopped early (SPRT): boards with seatings never to be played are over too."""
        for board in sorted(self.started):
            if self.unplayed[board] > 0:
                self.unplayed[board] = 0
                await self._send_release(admin, board)

    async def _release_at_stop(self, admin: AdminClient) -> None:
        """Interrupted: every board started and not released yet is released (its
        seatings not played never will be), and the answers awaited, as long as the
        server answers within RELEASE_AT_STOP_S."""
        with trio.move_on_after(RELEASE_AT_STOP_S):
            try:
                asked = set(self._releases.asked) if self._releases is not None else set()
                for board in sorted(self.started - self.released - asked):
                    # on the admin's connection, after the reserves sent there: on the
                    # other one a board's release could overtake its seating's reserve,
                    # whose table would then keep its result for a release that has been
                    self.awaiting.append(board)
                    await admin.release(board_key(self.seed, board))
                await self._answered(admin)
                if self._releases is not None:  # those of boards played out
                    await self._releases.all_answered()
            except (ScheduleError, trio.BrokenResourceError, trio.ClosedResourceError):
                return  # the server is gone: what it kept stays withheld (docs/bots.md)

    async def _answered(self, admin: AdminClient) -> None:
        """Every command sent on the admin's connection answered (the others' lines
        read past)."""
        while self.awaiting:  # a game's reserve, or a release, still to answer
            if _is_answer(await admin.next()):
                self.awaiting.popleft()

    async def _send_release(self, admin: AdminClient, board: int) -> None:
        if self._releases is not None:
            await self._releases.send(board, board_key(self.seed, board))
            return
        self.awaiting.append(board)
        try:
            await admin.release(board_key(self.seed, board))
        except trio.Cancelled:  # (a stop) a send cancelled writes nothing: no answer
            self.awaiting.pop()
            raise

    def _released(self, board: int) -> None:
        """The server answered the board's release: its records are listed."""
        self.released.add(board)

    @property
    def _releaser_name(self) -> str:
        """The admin name of the releases' connection (our own server's: it lists and
        vouches for it as for the ladder's admin)."""
        return f"{self.admin_name}-rel"


class Releases:
    """The boards' releases on a connection of their own, and the server's answers,
    read by a task of their own (``read``): answered in order, as on any connection.
    Like the admin's, the connection says ``ping`` when nothing was sent for a while
    (``AdminClient.keep_open``): a board of many seatings (8 bots three-handed: 336)
    with slow bots can take longer than the server's idle limit (docs/protocol.md).
    A release the server could not write (``internal``: its database away for a
    moment) is asked again after a pause, doubled each time, for up to
    RELEASE_RETRY_S: a board is not left withheld by a database restart."""

    def __init__(self, admin: AdminClient, retry_s: float = RELEASE_RETRY_S) -> None:
        self.admin = admin
        self.retry_s = retry_s
        self.asked: deque[int] = deque()  # boards whose release is not answered yet
        self.retrying: dict[int, float] = {}  # boards to ask again: since when they fail
        self._again: trio.MemorySendChannel[tuple[int, float]]
        self._again, self._to_retry = trio.open_memory_channel[tuple[int, float]](math.inf)
        self._answered = trio.Event()  # set when none is left to answer

    async def send(self, board: int, key: str) -> None:
        if not self.asked and not self.retrying:
            self._answered = trio.Event()
        self.asked.append(board)
        try:
            await self.admin.release(key)
        except trio.Cancelled:  # (a stop) a send cancelled writes nothing: the board
            self.asked.pop()  # is released at the stop, on the admin's connection
            if not self.asked and not self.retrying:
                self._answered.set()
            raise

    async def all_answered(self) -> None:
        if self.asked or self.retrying:
            await self._answered.wait()

    async def read(self, ladder: Ladder) -> None:
        """Each answer: the board released (``ladder._released``), asked again
        (``ask_again``), or the ladder's error; ends when the ladder closes the
        connection (once the ladder is cut short, a server gone ends it quietly too)."""
        try:
            while True:
                line = await self.admin.next()
                if not _is_answer(line) or not self.asked:
                    continue
                board = self.asked.popleft()
                if line.tag is Tag.ERROR:
                    self._failed(board, line)
                    continue
                self.retrying.pop(board, None)
                ladder._released(board)
                if not self.asked and not self.retrying:
                    self._answered.set()
        except trio.ClosedResourceError:  # closed by the ladder: its run is over
            return
        except (ScheduleError, trio.BrokenResourceError):
            if not ladder._cut_short:
                raise

    def _failed(self, board: int, line: Line) -> None:
        """The server could not release the board: asked again if its database was
        away (``internal``), for up to ``retry_s``; else the ladder's error."""
        since = self.retrying.get(board, trio.current_time())
        if (
            line.get_str("code") != "internal"  # e.g. a server older than boards (§5.5a)
            or trio.current_time() - since >= self.retry_s
        ):
            raise ScheduleError(
                f"the server cannot release board records: {line.get_str('code')}: {line.text}"
            )
        if board not in self.retrying:
            log.warning("release_failed_asked_again", board=board, text=line.text)
        self.retrying[board] = since
        self._again.send_nowait((board, since))

    async def ask_again(self, ladder: Ladder) -> None:
        """The releases the server could not write, asked again after a pause (a task
        of the ladder's, as ``read``)."""
        try:
            async for board, since in self._to_retry:
                failed_for = trio.current_time() - since
                await trio.sleep(min(RELEASE_PAUSE_MAX_S, max(RELEASE_PAUSE_S, failed_for)))
                self.asked.append(board)  # (still in ``retrying``: the event stays unset)
                await self.admin.release(board_key(ladder.seed, board))
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            return  # the run is over, or the server gone (``read`` says so)


# the server's word that it drains or stops (``info server=…``, docs/protocol.md §11.4a)
GOING = frozenset({"draining", "stopping"})


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def _is_answer(line: Line) -> bool:
    """The server's answer to a command the ladder sent (answered in order)."""
    return line.tag is Tag.ERROR or (
        line.tag is Tag.OK and line.get_str("cmd") in ("reserve", "release")
    )


def _first(group: BaseExceptionGroup[ScheduleError]) -> ScheduleError:
    inner = group.exceptions[0]
    return _first(inner) if isinstance(inner, BaseExceptionGroup) else inner


def run(
    options: LadderOptions, stored: Sequence[dict[str, Any]] = (), *, handle_signals: bool = False
) -> Summary:
    """Run the ladder to its end (or the SPRT's verdict) and return the summary. With
    ``handle_signals`` (the CLI's), SIGINT/SIGTERM interrupt it (docs/bots.md); without,
    the caller's own handlers stay (a program's, a test's)."""
    try:  # the ratings' import and a long schedule take a while: Ctrl-C then too
        ratings = Ratings.carried_on([b.name for b in options.bots], stored)
        ladder = Ladder(options, ratings)
        ladder.on_signals = handle_signals
        return trio.run(ladder.run)
    except KeyboardInterrupt:  # a second Ctrl-C (the boards being released), or an early one
        raise ScheduleError(INTERRUPTED) from None
    except BaseExceptionGroup as group:  # … or the bots stopped (trio groups it so)
        if group.split(KeyboardInterrupt)[0] is None:
            raise
        raise ScheduleError(INTERRUPTED) from None
