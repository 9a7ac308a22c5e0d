"""``ladder worker``: claims boards of distributed ladders from the store's queue and
plays them with its own server and its own copies of the run's bots (as ``ladder run``
does on one machine), then stores each board's games.

A worker holds up to ``concurrency`` boards (the run's setting) at a time, renewing
their leases while it plays; a board is stored as done before its server releases
it, so none is played again with its decks shown (one left done and withheld by a
worker that died in between is released by the run's count). Its calls to the queue
wait out a database outage (patience.py). Its server keeps its deal records in the
same database; each worker's admin has its own name (``ladder-`` and a random tail),
logged in over the in-process link with no account in the database. A worker killed mid-board loses
nothing: its lease runs out and another worker plays the board again (the dead
attempt's deals end up stored seedless, like any match of a server that died;
docs/bots.md "Distributed ladders").

A worker that cannot run one of a run's bots fails the run (queue.py, ``fail``): the
docs ask that a run's commands run on every worker machine, so the one failure is the
run's, not the machine's, and a run queued behind it is not held up by workers dying
on it (a bot that cannot start for the machine's passing want, out of memory or
processes, stops this worker alone: supervisor.py ``start_refused``). A worker whose
run stopped (failed, or cancelled) drops its boards, releasing the ones it started
(none will be played again), and goes on to other runs.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import structlog
import trio

from deberc_net.plugins import RuleBook
from deberc_net.protocol.wire import MatchEnd
from deberc_net.server.store import StoreError, describe

from .admin import AdminClient
from .distributed import options_from
from .patience import WAIT_LIMIT_S
from .queue import BoardQueue, Claim
from .ratings import Ratings
from .results import GameResult, Results, Summary
from .run_stop import RunStop, RunStopped
from .runner import Ladder, LadderOptions
from .schedule import Game, ScheduleError
from .supervisor import BotCannotRun

log = structlog.get_logger("deberc.ladder.worker")

T = TypeVar("T")

LEASE_S = 60.0  # a board's lease: renewed every third of it while played
POLL_S = 1.0  # how often an idle worker looks for a board
CLAIM_RETRY_S = 0.5  # a worker playing boards asks for another at most this often


def worker_id() -> str:
    """Unique among the workers on one database: host, process and a random tail."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(3)}"


class BoardResults(Results):
    """A worker's results: kept by board until the board is played, not counted."""

    def __init__(self, options: LadderOptions, summary: Summary) -> None:
        super().__init__(options, summary)
        self.by_board: dict[int, list[tuple[int, GameResult]]] = {}

    def add(self, index: int, game: Game, end: MatchEnd, match_id: str | None) -> None:
        self.by_board.setdefault(game.board, []).append((index, GameResult.of(game, end, match_id)))


class WorkerLadder(Ladder):
    """The boards of one run this worker claims, played on one server and one set of
    bot copies, until every board of the run is played (by it or others)."""

    def __init__(
        self,
        options: LadderOptions,
        queue: BoardQueue,
        worker: str,
        first: Claim,
        lease_s: float,
        retry_s: float = CLAIM_RETRY_S,
    ) -> None:
        """``retry_s``: how often it asks for another board of the run, at most."""
        super().__init__(options, Ratings([b.name for b in options.bots]))
        self.boards = queue
        self.worker = worker
        self.run_id = first.run
        self.lease_s = lease_s
        self.retry_s = retry_s
        self.queue.clear()  # only the boards claimed are played
        self.board_results = BoardResults(options, self.summary)
        self.results = self.board_results
        self.held: set[int] = set()  # boards claimed, seatings to play
        # boards played, being stored (then released): their leases renewed meanwhile
        self.storing: set[int] = set()
        self._storing: trio.Nursery | None = None  # play's: the boards' stores
        self.stored = 0  # boards played and stored
        # boards this worker stored (done): their release may still be asked, and
        # their leases, gone with their store, are not lost
        self.stored_boards: set[int] = set()
        self._next_claim = 0.0
        self.admin_name = f"ladder-{secrets.token_hex(4)}"
        # why the run stopped (failed, cancelled): its boards are dropped and released
        self.stopped: RunStop | None = None
        self._fail_asked = False  # (a bot that cannot run: the run failed at most once)
        self._take_board(first.board)

    def _take_board(self, board: int) -> None:
        self.held.add(board)
        self.queue.extend((i, g) for i, g in enumerate(self.games) if g.board == board)

    async def _fill(self, admin: AdminClient) -> None:
        await self._claim_if_room()
        while not (self.queue or self.running or self.awaiting):
            # idle, while boards of the run are leased to others: one may come free (its
            # worker died), and the server and bots are ready to play it
            status = await _in_thread(self.boards.status, self.run_id)
            if status.stop is not None:
                self._run_stopped(status.stop)
                return
            if status.done == status.total and not self.storing:  # (its last releases asked)
                break
            await trio.sleep(self.retry_s)
            await self._claim_if_room()
        await super()._fill(admin)

    async def _claim_if_room(self) -> None:
        now = trio.current_time()
        if not self.queue and len(self.held) < self.o.concurrency and now >= self._next_claim:
            claim = await _in_thread(
                self.boards.claim, self.worker, self.lease_s, self.run_id,
                sorted(self.held | self.storing),
            )  # fmt: skip
            if claim is None:
                self._next_claim = now + self.retry_s
            else:
                self._take_board(claim.board)

    async def _board_done(self, admin: AdminClient, board: int) -> None:
        if self.unplayed[board] == 1 and board in self.held:  # its last seating: stored
            self.unplayed[board] = 0  # first, released after (the base would release now)
            self.held.discard(board)
            self.storing.add(board)
            assert self._storing is not None
            self._storing.start_soon(self._store_then_release, admin, board)
            return
        await super()._board_done(admin, board)

    async def _closed(self, admin: AdminClient, table: int, said: str) -> None:
        """A table closed with no match end while its server plays on: a run on one
        machine counts that game cut and goes on (docs/bots.md, "Cut games"), but a
        distributed run counts each board from every seating's stored result, so a
        worker stops as on a failed table (status 2), its boards played again by whoever
        claims them once their leases run out. It stored the board without that seating
        before, and the run's count then failed on the missing one."""
        running = self.running.get(table)
        if running is None or self.server_going is not None:
            await super()._closed(admin, table, said)
            return
        del self.running[table]
        self._table_failed(table, running, closed=said)

    async def _store_then_release(self, admin: AdminClient, board: int) -> None:
        """A board played: its games stored and the board done, then its release asked.
        A worker that dies in between leaves it done with its records withheld, which
        the run's count releases (distributed.py); none is ever played again with its
        decks shown. A board whose lease was lost is not released: the worker that
        holds it plays it again under the same keys (docs/bots.md)."""
        played = [r for _, r in sorted(self.board_results.by_board.pop(board, []))]
        try:
            stored = await _in_thread(self.boards.complete, self.worker, self.run_id, board, played)
        except ScheduleError as exc:  # the database gone for good: the worker stops
            self._bot_gave_up(exc)  # (as for a bot that cannot run)
            return
        try:
            if stored:
                self.stored += 1
                self.stored_boards.add(board)
                try:
                    await self._send_release(admin, board)
                except (ScheduleError, trio.BrokenResourceError, trio.ClosedResourceError):
                    # the ladder stopped, or its server gone: done and withheld, the
                    # board is released by the run's count
                    log.warning("board_release_not_asked", run=self.run_id, board=board)
            elif await self._stop_found():  # the run stopped: nothing stored for it
                log.warning("board_dropped", run=self.run_id, board=board)
            else:  # its lease ran out and another worker took it: that one's results count
                log.warning("board_lost", run=self.run_id, board=board)
        finally:
            self.storing.discard(board)

    async def _stop_found(self) -> bool:
        """Whether the run stopped (failed, cancelled); if so the ladder stops."""
        try:
            stop = (await _in_thread(self.boards.status, self.run_id)).stop
        except ScheduleError as exc:  # the database gone for good: the worker stops
            self._bot_gave_up(exc)
            return False
        if stop is not None:
            self._run_stopped(stop)
        return stop is not None

    def _run_stopped(self, stop: RunStop) -> None:
        """The run stopped: no more of its games, its bots stopped, the boards it
        started released (_release_at_stop), nothing more stored."""
        self.stopped = self.stopped or stop
        self.failure = self.failure or RunStopped(self.run_id, stop)
        self.queue.clear()
        self.interrupt()

    async def renew_leases(self) -> None:
        while True:
            await trio.sleep(self.lease_s / 3)
            boards = sorted((self.held | self.storing) - self.stored_boards)
            try:
                lost = await _in_thread(
                    self.boards.renew, self.worker, self.lease_s, self.run_id, boards
                )
            except ScheduleError as exc:  # the database gone for good: the worker stops
                self._bot_gave_up(exc)
                return
            if lost and not await self._stop_found():
                # (a board stored as this renewal waited for the connection is done, not
                # lost: its store's task has gone on meanwhile, this one having waited)
                lost = [b for b in lost if b not in self.stored_boards]
                if lost:
                    log.warning("leases_lost", run=self.run_id, boards=lost)

    async def _release_at_stop(self, admin: AdminClient) -> None:
        """Stopped early. A bot that cannot run fails the run (queue.py, ``fail``),
        unless every board of it is stored already. A run stopped (failed, cancelled)
        is never played again: the boards it started are released, as a stopped
        single-machine ladder's are, so their seatings played are listed. Stopped
        otherwise (a signal, the database gone), nothing is released: once their leases
        run out another worker plays these boards again under the same keys, and a
        release now would show their decks first (docs/bots.md)."""
        await self._fail_run()
        if self.stopped is not None:
            await super()._release_at_stop(admin)

    async def _fail_run(self) -> None:
        """A bot that cannot run: the run failed (once), unless it is whole."""
        if self.stopped is None and not self._fail_asked and isinstance(self.failure, BotCannotRun):
            self._fail_asked = True
            self.stopped = await _in_thread(
                self.boards.fail, self.worker, self.run_id, str(self.failure)
            )

    async def play(self) -> int:
        """Play until every board of the run is played; the boards this worker stored."""
        failure: ScheduleError | None = None
        async with trio.open_nursery() as nursery:
            self._storing = nursery
            nursery.start_soon(self.renew_leases)
            try:
                await self.run()
            except ScheduleError as exc:  # raised here, not in trio's group (the CLI's line)
                failure = exc
            nursery.cancel_scope.cancel()
        if failure is not None:
            await self._fail_run()  # (a bot given up before the admin was in: not yet)
            raise failure
        return self.stored


async def _in_thread(call: Callable[..., T], *args: Any) -> T:
    """A queue call, off trio's thread; a stop does not wait for it (one waiting for the
    database ends as the queue closes). The database gone for good: the worker's
    error (ScheduleError, one line)."""
    try:
        return await trio.to_thread.run_sync(call, *args, abandon_on_cancel=True)
    except StoreError as exc:
        raise ScheduleError(str(exc)) from None


def work(
    db: str,
    *,
    lease_s: float = LEASE_S,
    poll_s: float = POLL_S,
    exit_when_done: bool = False,
    rules: RuleBook | None = None,
    db_wait_s: float = WAIT_LIMIT_S,
) -> int:
    """Claim and play boards until stopped (or, ``exit_when_done``, until no board of
    any run is left unplayed); the boards stored. ``db_wait_s``: how long it waits for
    a database away (patience.py), its server's releases asked again as long."""
    rules = rules if rules is not None else RuleBook.load()
    me = worker_id()
    queue = BoardQueue(db, "ladder worker", db_wait_s)
    stored = 0
    # SIGTERM between boards (idle, or as a run's ladder ends: trio hands a signal its
    # receiver had not read back to this handler) ends the worker quietly, as in one.
    # A plain list, not a threading.Event: the handler runs on the main thread, and an
    # Event's set() waits for the lock its own wait() may hold at that moment (rv54: a
    # worker deaf to every later SIGTERM); so an idle stop takes up to poll_s
    stop: list[bool] = []
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.append(True)) if main else None
    try:
        print(f"ladder worker {me} on {describe(db)}", file=sys.stderr)
        while not stop:
            claim = queue.claim(me, lease_s)
            if claim is None:
                if exit_when_done and queue.unfinished() == 0:
                    return stored
                time.sleep(poll_s)
                continue
            if stop:  # (its lease runs out: another worker plays the board)
                break
            spec = claim.settings["distributed"]  # only a distributed run queues boards
            ladder = WorkerLadder(options_from(spec, db, rules), queue, me, claim, lease_s)
            ladder.release_retry_s = db_wait_s  # (its server's database: the same wait)
            # Ctrl-C, SIGTERM and a hangup stop the board's bot processes (in groups of
            # their own, which a terminal's signals do not reach) before the worker ends
            ladder.on_signals = True
            try:
                stored += trio.run(ladder.play)
                if ladder.interrupted:  # a signal as its last boards ended: the run
                    break  # whole, the worker stops as told
            except ScheduleError as exc:
                if ladder.interrupted and ladder.failure is None:  # a signal, not a bot
                    raise KeyboardInterrupt from None  # (the CLI's quiet end of a worker)
                if ladder.stopped is None and not isinstance(exc, BotCannotRun):
                    raise
                # the run stopped (or its boards are all stored, a bot's end aside):
                # on to other runs, which may be fine
                said = str(exc) if ladder.stopped is None else ladder.stopped.line(claim.run)
                print(f"deberc-net ladder worker: {said}; on to other runs", file=sys.stderr)
                if ladder.stopped is not None:
                    queue.unlease(me, claim.run)  # (those of a cancelled run: its failure's did)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
        queue.close()
    return stored
