"""A worker's share of the one lobby (``serve --workers N``, docs/scaling.md).

Each worker keeps, from the bus, a copy of what the others hold: who is online where
(presence), their tables (``RemoteTable`` entries in its own ``lobby.tables``), and
when each was last heard from. Tables stay where they were opened: a session posting
to a remote table has its message forwarded to the owner, which plays it for a
``RemoteSession`` and sends the rendered text back. Every message names its sender;
a worker silent for ``server_dead_ms`` is dead: its tables leave the lobby, the seats
its players held elsewhere go away (their clocks run, as after a disconnect).
"""

from __future__ import annotations

import itertools
import math
import os
import socket
import time
from collections import deque
from collections.abc import Callable, Iterator
from enum import Enum, StrEnum, auto
from typing import TYPE_CHECKING, Any

import attrs
import psycopg
import structlog
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.connection import MAX_ANSWER_CREDIT, ClockChoice, Tell
from deberc_net.protocol.events import TableState
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, Phrase, phrase
from deberc_net.protocol.render import HandOrder, tagged_lines

from ..accounts import name_key
from ..allowance import seat_given_up
from ..hand_sizes import note, seen_now, to_tell
from ..ignoring import digests
from ..kept_apart import Left
from ..matchmaking import GameSettings, table_settings
from ..moderation import Action
from ..own_stall import OWN_STALL_S, StallWatch, tables_stalled
from ..rematch import Followed, Offer, offer_s
from ..session import Ending, LastMatch, Session, apart, stopped_watching
from ..store.postgres import living_servers
from ..table import Table
from ..table_messages import (
    Away,
    Back,
    Leave,
    Message,
    Observe,
    Unobserve,
    requester_of,
)
from . import WorkerPlace
from .bus import LOBBY, Bus, channel
from .bus_lost import stop_for_a_lost_bus
from .liveness import process_ended
from .looks import SNAPSHOT_S, Looks
from .payloads import (
    described_for_bus,
    invited_for_bus,
    invited_from_bus,
    message_for_bus,
    message_from_bus,
    phrase_for_bus,
    phrase_from_bus,
    seeks_messages,
    settings_for_bus,
    settings_from_bus,
    speaker_for_bus,
    table_described,
    table_for_bus,
    tables_messages,
    told_address,
    who_for_bus,
)
from .remote import MatchNow, RemoteSession, RemoteTable

if TYPE_CHECKING:
    from ..lobby import Lobby

log = structlog.get_logger("deberc.node")


@attrs.frozen
class LoginMark:
    """What decides a race of two workers' logins of one name (``_keeps``)."""

    worker: int
    session: int | None  # its session's id on its worker (None: told by an older worker)
    fresh: bool  # a guest's claim of a free name (no right to it beyond being first)
    at: float  # when (the wall clock of its worker's host)
    # the login it displaced, as it knew of it (worker, session): a later login, not a
    # race, whatever the clocks say (hosts' clocks need not agree: docs/scaling.md)
    over: tuple[int, int | None] | None = None

    def ranked(self) -> tuple[bool, float, int]:
        return self.fresh, self.at, self.worker


@attrs.frozen
class Awaited:
    """A request of a session here that another worker answers (``Node.awaited``)."""

    session: int  # its id
    owner: int  # the worker that answers it
    since: float  # when it was sent (trio time)
    # a seat the owner gives unasked (a rematch's): the id the owner names it by in its
    # answer ('placed' told it, ``Node.seat_wait``); None: a request of the session's
    named: int | None = None


@attrs.define
class Present:
    name: str
    worker: int
    guest: bool
    token: str | None  # a guest's resume token
    online: bool = True  # False: gone, but a guest's seat (and token) is still held
    # a guest gone whose seat his worker holds through a stall (its table told closed
    # here too): his name is his, for his token, till then (trio's clock)
    held_until: float = -math.inf
    login: LoginMark | None = None  # how it logged in there (None: told by an older worker)
    # his connection's address, as its limits count it, told an admin's 'finger' (None:
    # told by an older worker)
    address: str | None = None


@attrs.frozen
class HeldSeat:
    """A seat at another worker's table that may still be a player's here: he was told
    the table closed when its owner was taken for dead, at ``since`` (trio's clock)."""

    owner: int
    table: int
    since: float


@attrs.frozen
class SeekElsewhere:
    """A seek of a player here sent on to wait at another worker (``owner``): its game,
    and its number (``number``), which that worker names should it end the seek there
    itself (``seek_ended``): a word of an earlier seek of his leaves a later one be."""

    owner: int
    settings: GameSettings
    number: int


class Lost(StrEnum):
    """How another worker went, as its ``worker_lost`` line says (docs/settings.md);
    one that stopped is ``worker_left``."""

    STOPPED = "stopped"  # its last word: a drain, a stop asked for (logged worker_left)
    SILENT = "silent"  # past server_dead_ms
    ENDED = "ended"  # its process, seen ended here
    REPLACED = "replaced"  # its successor said hello


class OfferStanding(Enum):
    """Where a rematch offer kept at another worker stands for a player here: one of
    these, not three flags (two of which could hold at once: refused with off, as a
    house bot's match's word says both; off, then withdrawn), read the same way."""

    OPEN = auto()  # on offer: its worker's loss tells him it is off
    # he went elsewhere since (its worker was told): a 'rematch' of his is still asked
    # there, which tells him why it is off (rematch.Off)
    WITHDRAWN = auto()
    # none was offered (a house bot's match, a ladder's board): his 'rematch' is asked
    # there all the same, which tells him why (not "one is asked within 60 s")
    REFUSED = auto()
    # it was off already as he left the table (a seek kept called it off as it was
    # made, or another's step)
    OFF = auto()


@attrs.frozen
class OfferElsewhere:
    """A rematch offer of a match a player here played at another worker's table,
    kept there: its worker, the table, and till when it may stand (trio's clock); its
    players (by seat) and who has asked, as its worker told them (an older one: none);
    and where it stands for him (``standing``)."""

    owner: int
    table: int
    until: float
    names: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()
    standing: OfferStanding = OfferStanding.OPEN

    @staticmethod
    def told(refused: bool, off: bool) -> OfferStanding:
        """The standing its worker's word says (its 'placed' or 'rematch_asked' flags):
        none offered over off, as both may be said of a house bot's match."""
        if refused:
            return OfferStanding.REFUSED
        return OfferStanding.OFF if off else OfferStanding.OPEN

    def withdrawable(self) -> bool:
        """Whether his going elsewhere calls it off there: on offer, or off already (its
        worker is told all the same, which tells a kept seek's 'why'); not once
        withdrawn, nor when none was offered (nothing there to call off)."""
        return self.standing in (OfferStanding.OPEN, OfferStanding.OFF)

    def off_when_lost(self) -> bool:
        """Whether its worker's loss is an offer lost he is told of: only one on offer."""
        return self.standing is OfferStanding.OPEN

    def waiting(self) -> tuple[str, ...]:
        keys = {name_key(n) for n in self.asked}
        return tuple(n for n in self.names if name_key(n) not in keys)


@attrs.define(eq=False)
class Node:
    lobby: Lobby
    place: WorkerPlace
    worker: int  # this worker's id (its server id in the store): its channel w<id>
    bus: Bus = attrs.field(init=False)
    present: dict[str, Present] = attrs.Factory(dict)  # others' players, by name key
    heard: dict[int, float] = attrs.Factory(dict)  # each other worker: last heard (trio time)
    lost: set[int] = attrs.Factory(set)  # the workers forgotten (``_forget_worker``)
    # which worker of which parent this is, the same for the one its parent starts
    # again after a death (told in 'hello' and 'tables': "as"), and each other worker's
    identity: str = attrs.field(init=False)
    identities: dict[int, str] = attrs.Factory(dict)
    # each other worker's process id, as it told it (with "as"): one of this parent's
    # that has ended is dead, whatever the bus says yet (``forget_if_dead``)
    pids: dict[int, int] = attrs.Factory(dict)
    ended: set[int] = attrs.Factory(set)  # workers whose process was seen ended so
    replaced: set[int] = attrs.Factory(set)  # workers another said hello in place of
    # each other worker: when its last 'tables' came (trio time), and whether it drains
    tables_heard: dict[int, tuple[float, bool]] = attrs.Factory(dict)
    # what this worker told of its tables, by id (what changed is told again)
    told: dict[int, dict[str, Any]] = attrs.Factory(dict)
    # sessions here with a seat or a watch at a remote table, by session id
    forwarded: dict[int, Session] = attrs.Factory(dict)
    # players of other workers at this worker's tables: by (worker, session id), by name
    remote: dict[tuple[int, int], RemoteSession] = attrs.Factory(dict)
    remote_named: dict[str, RemoteSession] = attrs.Factory(dict)
    # requests of sessions here that another worker answers, not yet answered, by
    # request id (each told to the owner, which says which it answered: a late answer
    # of an old request never lets a newer line go): the session's reader waits for
    # them before its next line, as for its own worker's tables (docs/protocol.md §2.3).
    # One that the owner has not answered within server_dead_ms (a message lost, a
    # worker of an older version, a failure there) lets the line go on, its answer
    # coming when it comes (``_release_late``)
    awaited: dict[int, Awaited] = attrs.Factory(dict)
    _request_ids: Iterator[int] = attrs.Factory(itertools.count)
    # the workers that let such a wait run out: not waited for again until one of their
    # answers says it is done (a worker of an older version never says so: a wait per
    # line would hold each of its players' lines server_dead_ms)
    unanswering: set[int] = attrs.Factory(set)
    # web pages' sessions here waiting for a mark of a table's owner (``mark``): by
    # session id, the owner and what to do there
    marks: dict[int, tuple[int, Callable[[], None]]] = attrs.Factory(dict)
    # table numbers looked for, not known here yet (a table just opened elsewhere)
    looks: Looks = attrs.Factory(Looks)

    # the games waited for on each other worker (what 'seek' asked there)
    seeks: dict[int, set[GameSettings]] = attrs.Factory(dict)
    tables_wait: dict[int, set[GameSettings]] = attrs.Factory(dict)  # ... a table waits
    told_seeks: list[list[Any]] = attrs.Factory(list)
    seeks_told_at: float = -math.inf  # when they were last told whole (trio's clock)
    # players here told their table closed when its owner was taken for dead, by name
    # key (his next connection's too): the seat it may still hold for him
    # (``_seat_again``), for an away limit at most (``forget_the_silent``)
    held_elsewhere: dict[str, HeldSeat] = attrs.Factory(dict)
    # sessions here whose seek waits on another worker: that worker, the game
    seeking_at: dict[int, SeekElsewhere] = attrs.Factory(dict)
    _seek_numbers: Iterator[int] = attrs.Factory(lambda: itertools.count(1))
    waiting_since: dict[int, float] = attrs.Factory(dict)  # seekers here: since when
    # sessions here whose last table was another worker's, which keeps its rematch offer
    rematch_at: dict[int, OfferElsewhere] = attrs.Factory(dict)
    # web pages' sessions here (their feeds') that watched a match to its end at another
    # worker, which told them its rematch offer stands: the offer's stand-in, by
    # session id, till its end (``followed_offer``)
    page_offers: dict[int, Followed] = attrs.Factory(dict)
    # this worker's logins, by name key, which decide a race with another worker's
    # login of the name (``_in``)
    logins: dict[str, LoginMark] = attrs.Factory(dict)
    # the connections open that have not logged in (the server's: running.py sets it),
    # told too when a lost bus stops this worker
    not_logged_in: Callable[[], list[Session]] = list
    # at start-up, the other servers living on the database (their heartbeats) not yet
    # heard telling their tables whole (a 'tables' with "whole", their answer to this
    # one's hello): it listens once none is left, or after a heartbeat (``run``)
    unheard: set[int] = attrs.Factory(set)
    all_heard: trio.Event = attrs.Factory(trio.Event)
    _handlers: dict[str, Callable[[dict[str, Any]], None]] = attrs.field(init=False)
    # the look at the living, as a look at this worker's own stall (its look late): not
    # looking till it watches the living (a node a test made)
    stall: StallWatch = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        # (a worker started alone, as a test does: nobody starts it again, and no other
        # process is it)
        run = self.place.parent or f"{socket.gethostname()}/{os.getpid()}"
        self.identity = f"{run}/{self.place.index}"
        self.bus = Bus(self.lobby.config.db, self.worker, self.hear)
        self.stall = self.lobby.stall = StallWatch(1.0, self._stalled_for)
        self._handlers = {
            "hello": self._hello,
            "in": self._in,
            "left": self._out_of_lobby,
            "say": self._said,
            "tables": self._tables,
            "seeks": self._seeks,
            "gone": lambda m: self._gone(m["w"], m["s"]),
            "post": self._posted,
            "text": self._out,
            "placed": self._placed,
            "seat_spent": self._seat_spent,
            "left_by": self._left_by,
            "watch": self._watched,
            "close": self._closing,
            "seek": self._seek_here,
            "unseek": self._unseek_here,
            "seek_ended": self._seek_ended,
            "bye": self._bye,
            "held": self._held_here,
            "invited": self._invited,
            "ignores": self._ignores,
            "who": self._who,
            "help": self._help_here,
            "rematch": self._rematch_here,
            "unrematch": self._unrematch_here,
            "rematch_asked": self._rematch_asked,
            "page_offer": self._page_offer,
            "page_offer_end": self._page_offer_end,
            "own_over": self._own_match_over,
            "failed": lambda m: self.lobby.accounts.failed(m["name"], m["address"]),
            "succeeded": lambda m: self.lobby.accounts.succeeded(m["name"], m["address"]),
            "mark": lambda m: self.bus.publish(channel(m["w"]), {"k": "marked", "s": m["s"]}),
            "marked": self._marked,
            # the admins' moderation (server/moderation.py)
            "announce": lambda m: self.lobby.moderation.announced(m["from"], m["text"]),
            "kick": self._kicked,
            "mute": lambda m: self.lobby.moderation.muted(
                m["name"], m["left_s"], m["admin"], m["reason"], m["until_s"], tell=m["tell"]
            ),
            "unmute": lambda m: self.lobby.moderation.unmuted(m["name"], m["admin"]),
            # what a player away missed, told at his next login on any worker (missed.py)
            "missed": lambda m: self.lobby.missed.remember(
                m["name"], phrase_from_bus(m["said"]), m["token"]
            ),
            "missed_told": lambda m: self.lobby.missed.forget(m["name"]),
        }
        self.lobby.accounts.tell_failure = self._tell_failure
        self.lobby.accounts.tell_success = self._tell_success

    # ------------------------------------------------------------ running
    def open(self) -> None:
        """Connect to the bus, draw table numbers (blocking: at start-up, before the
        server listens)."""
        self.bus.open()
        # a table id no other worker uses (of every host on the database)
        self.lobby.table_numbers.shared = True
        self.lobby.table_numbers.fill()
        config = self.lobby.config
        here = socket.gethostname()
        self.unheard = {
            server
            for server, host, pid in living_servers(
                config.db, self.worker, config.server_dead_ms / 1000
            )
            # (one of this host's whose process has ended answers nothing: a SIGKILL)
            if host != here or not process_ended(pid)
        }
        if not self.unheard:
            self.all_heard.set()

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._run_bus)
                # ("starting": it holds no table yet, one starting too need not wait)
                self.bus.publish(LOBBY, self._hello_said() | {"starting": True})
                self._tell_presence_all()
                nursery.start_soon(self._tell_tables)
                nursery.start_soon(self._watch_the_living)
                await self._hear_the_living()
                task_status.started()
        finally:  # stopping: the others forget this worker at once, not after silence
            self.bus.close(farewell={"k": "bye"})

    async def _hear_the_living(self) -> None:
        """Wait (a heartbeat at most: a worker dead but not yet silent long enough
        answers nothing) till every other living server has told its tables whole, in
        answer to the hello: only then does this worker listen. A login here before
        would not know of a seat its player holds at another worker's table (a rolling
        restart's player, back with his token), and be greeted as a newcomer."""
        if self.all_heard.is_set():
            return
        log.info("peers_awaited", peers=sorted(self.unheard))
        with trio.move_on_after(self.lobby.config.heartbeat_ms / 1000):
            await self.all_heard.wait()
        if self.unheard:  # listening anyway: their tables come when they come
            log.warning("peers_unheard", peers=sorted(self.unheard))
        self.unheard.clear()

    def _heard_whole(self, worker: int) -> None:
        """``worker`` told its tables whole, or is gone: not waited for at start-up."""
        self.unheard.discard(worker)
        if not self.unheard:
            self.all_heard.set()

    def _hello_said(self) -> dict[str, Any]:
        """This worker's 'hello': who it is, and its process (``pids``)."""
        return {"k": "hello", "as": self.identity, "pid": os.getpid()}

    async def _run_bus(self) -> None:
        try:
            await self.bus.run()
        except* psycopg.Error:  # the database away: this worker stops, telling why
            # shielded: a SIGTERM meanwhile (server/running.py) cancels the server, and
            # its Cancelled here would swallow this error, the reason the worker ended
            with trio.CancelScope(shield=True):
                await stop_for_a_lost_bus(self.lobby, self.not_logged_in)
            raise

    async def _tell_tables(self) -> None:
        """Tell the others what changed among this worker's tables, looked at every
        SNAPSHOT_S; a message at least every heartbeat_ms says this worker lives."""
        beat = self.lobby.config.heartbeat_ms / 1000
        last = -math.inf
        while True:
            await trio.sleep(SNAPSHOT_S)
            now = trio.current_time()
            if self._publish_tables(force=now - last >= beat):
                last = now
            self.match_seeks()

    def _publish_tables(self, *, force: bool = False, everything: bool = False) -> bool:
        """Publish the tables changed since last told (all with ``everything``); with
        ``force``, a message even if none did. Whether anything was published."""
        now: dict[int, dict[str, Any]] = {}
        for table in list(self.lobby.tables.values()):
            if isinstance(table, RemoteTable) or table.state == TableState.CLOSED:
                continue
            now[table.id] = table_described(table)
        changed = [d for i, d in now.items() if everything or self.told.get(i) != d]
        gone = [i for i in self.told if i not in now]
        self.told = now
        matchmaking = self.lobby.matchmaking
        games = {s.seeking for s in matchmaking.seekers if isinstance(s.seeking, GameSettings)}
        tables = {  # a public table opened with 'new' waits for this game here
            table_settings(t) for t in self.lobby.tables.values() if matchmaking.open_to_seekers(t)
        }
        told_seeks = [[*settings_for_bus(g), g in tables] for g in games | tables]
        told_seeks.sort()
        seeks_changed = told_seeks != self.told_seeks
        if not (changed or gone or force or seeks_changed):
            return False
        self.told_seeks = told_seeks
        told = [described_for_bus(d, self.lobby.config.away_limit_ms) for d in changed]
        bodies = tables_messages(told, gone, self.identity, self.lobby.drain.begun, os.getpid())
        if everything:  # its last says they were all told (a worker starting waits for it)
            bodies[-1]["whole"] = True
        for body in bodies:
            self.bus.publish(LOBBY, body)
        # whole again at least every beat, busy or not: a worker that missed a part (or
        # heard one that failed) holds it whole again
        beat = self.lobby.config.heartbeat_ms / 1000
        if seeks_changed or force or trio.current_time() - self.seeks_told_at >= beat:
            self.seeks_told_at = trio.current_time()
            for body in seeks_messages(told_seeks):
                self.bus.publish(LOBBY, body)
        return True

    async def _watch_the_living(self) -> None:
        dead_after = self.lobby.config.server_dead_ms / 1000
        stall = self.stall
        stall.look_s = min(1.0, dead_after / 4)
        while True:
            stall.looked = trio.current_time()
            await trio.sleep(stall.look_s)
            stall.check()
            now = trio.current_time()
            if any(now - last > dead_after for last in self.heard.values()):
                # what came meanwhile first: this worker itself may have stalled, the
                # others' beats waiting unread (it forgot the living, their tables and
                # players, and told its players their tables closed)
                self.bus.take_in()
            self.forget_the_silent(now)

    def _stalled_for(self, seconds: float) -> None:
        """This worker did not run for ``seconds`` (its look at the living came that
        late): none of it counts as the others' silence. Its whole host may have
        stalled (a paused machine, the job stopped with Ctrl-Z and resumed), the
        others with it: they sent nothing, and missed no beat of theirs. Both workers
        took each other for dead at once as they ran again (a CI run's stall of some
        seconds), their tables and players forgotten. A worker that lived on meanwhile
        is heard from at once all the same (its beats wait unread: ``take_in``).

        Nor does it count against its players (from ``OWN_STALL_S``, past a loop's
        usual lateness): their tables' clocks (the away limit of a seat whose player
        dropped, a turn's time), a seat held for one told his table closed, a guest's
        name held for his seat, a line waiting for another worker's answer
        (``_release_late``) all move by it. Before, a seat away through the stall was
        forfeited as the worker ran again, its player's login with his token, sent
        during the stall, read a moment after; and a line waiting on another worker
        was let go as unanswered, that worker not waited for again."""
        if seconds <= 0:
            return
        now = trio.current_time()  # (one heard as it woke: silent from then)
        for worker, last in self.heard.items():
            self.heard[worker] = min(last + seconds, now)
        if seconds < OWN_STALL_S:
            return
        log.info("worker_stalled", seconds=round(seconds, 3))
        tables_stalled(self.lobby, seconds)
        for request, waiting in self.awaited.items():
            self.awaited[request] = attrs.evolve(waiting, since=min(waiting.since + seconds, now))
        for key, held in self.held_elsewhere.items():
            self.held_elsewhere[key] = attrs.evolve(held, since=min(held.since + seconds, now))
        for present in self.present.values():
            present.held_until += seconds  # (-inf: none held)

    def tell_tables_now(self) -> None:
        """Tell the others this worker's tables at once (a drain begins: they hear it)."""
        self._publish_tables(force=True)

    def same_parent(self, worker: int) -> bool:
        """Whether ``worker`` is another worker of this server (this parent's), not
        another host's (nor an older worker's, which names no run)."""
        run = self.identity.rpartition("/")[0]
        return self.identities.get(worker, "").rpartition("/")[0] == run

    def others_may_drain(self, since: float) -> bool:
        """Whether another living worker of this server (this parent's: another host's
        drains on its own) drains, as its last 'tables' said, or has told none since
        ``since`` (this worker's drain began: a drain of the whole server reaches every
        worker at once, and their word is on its way)."""
        for worker in self.heard:
            if not self.same_parent(worker):
                continue
            at, draining = self.tables_heard.get(worker, (-math.inf, False))
            if draining or at < since:
                return True
        return False

    def others_playing(self, listed: bool = False) -> int:
        """The matches being played at the other workers of this server, as told;
        ``listed``: at tables anyone may see only (Drain.running)."""
        return sum(
            1
            for table in list(self.lobby.tables.values())
            if isinstance(table, RemoteTable)
            and table.state is TableState.PLAYING
            and self.same_parent(table.owner)
            and (not listed or self.lobby.listed_to(table, None))
        )

    def others_told_tables_since(self, since: float) -> bool:
        """Whether every other living worker of this server (this parent's) has told its
        tables since ``since`` (this worker's drain began: each tells them as its own
        drain begins). Till then a seat here at a match just started there may still
        look waiting (its start told within SNAPSHOT_S), and the drain over."""
        return all(
            self.tables_heard.get(worker, (-math.inf, False))[0] >= since
            for worker in self.heard
            if self.same_parent(worker)
        )

    def forget_the_silent(self, now: float) -> None:
        """Take each worker not heard from for server_dead_ms before ``now`` for dead
        (it may only have stalled), and let go the lines waiting for their answers."""
        dead_after = self.lobby.config.server_dead_ms / 1000
        for worker, last in list(self.heard.items()):
            if now - last > dead_after:
                self._forget_worker(worker, Lost.SILENT)
        self._release_late(now - dead_after)
        # a seat its owner never told again: forfeited there by now, if it lives (its
        # player away that long, or his clock out), and no guest's name held for it
        away_limit = self.lobby.config.away_limit_ms / 1000
        for key, held in list(self.held_elsewhere.items()):
            if now - held.since > away_limit:
                self._give_up_seat(key)

    def _release_late(self, before: float) -> None:
        """Let the lines go on whose requests another worker has not answered since
        ``before``: a player's input is never held for ever by an owner that lives
        but does not answer (its 'done' lost, or never sent)."""
        for request in [r for r, waiting in self.awaited.items() if waiting.since < before]:
            waiting = self._release(request)
            log.warning("answer_late", session=waiting.session, owner=waiting.owner)
            self.unanswering.add(waiting.owner)

    # ------------------------------------------------------------ presence
    def logged_in(self, session: Session, token: str | None, fresh: bool = False) -> None:
        """``session`` logged in here (``fresh``: a guest's claim of a free name)."""
        assert session.name is not None
        key = name_key(session.name)
        login = self.logins.get(key)
        if login is None or login.session != session.id:  # (told again: the same login)
            held = self.present.get(key)
            over = None if held is None else (held.worker, _session_of(held.login))
            login = LoginMark(self.worker, session.id, fresh, time.time(), over)
            self.logins[key] = login
        # the name is held here now: the login it took over (``over``) closes on its
        # worker without a word to the others ('bye' there, no 'left'), so a copy kept of
        # it stayed in 'who' and 'finger' for good (a tryout's lost guest claims)
        self.present.pop(key, None)
        self.bus.publish(
            LOBBY,
            {
                "k": "in",
                "name": session.name,
                "guest": session.guest,
                "token": token,
                "fresh": login.fresh,
                "at": login.at,
                "s": login.session,
                "over": login.over,
                "address": session.address,
            },
        )

    def _tell_failure(self, name: str, address: str) -> None:
        """A wrong password here: the others count it too (docs/security.md §1)."""
        self.bus.publish(LOBBY, {"k": "failed", "name": name, "address": address})

    def _tell_success(self, name: str, address: str) -> None:
        """A right password here: the others know the address for the name too, so its
        limit does not slow it there either (docs/security.md §1)."""
        self.bus.publish(LOBBY, {"k": "succeeded", "name": name, "address": address})

    def logged_out(self, name: str, token: str | None) -> None:
        """``name`` left this worker; a guest still seated keeps his ``token``."""
        self.logins.pop(name_key(name), None)
        self.bus.publish(LOBBY, self._left(name, token))

    def _left(self, name: str, token: str | None) -> dict[str, Any]:
        """The 'left' message of ``name``: ``held`` if his seat is one told closed by a
        stall, which the others no longer list either (their copy dropped too)."""
        held = token is not None and name_key(name) in self.held_elsewhere
        return {"k": "left", "name": name, "token": token} | ({"held": True} if held else {})

    def _tell_presence_all(self) -> None:
        lobby = self.lobby
        for key, session in list(lobby.online.items()):
            if session.name is not None:
                token = lobby.guest_tokens.get(key) if session.guest else None
                self.logged_in(session, token)
        # and the guests gone whose seats are held for their tokens: a worker that took
        # this one for dead forgot them too (then anyone took such a guest's name, and
        # his seat with it, there)
        seated = {name_key(n): n for t in lobby.tables.values() for n in t.seats if n is not None}
        for key, token in list(lobby.guest_tokens.items()):
            if key not in lobby.online:
                self.bus.publish(LOBBY, self._left(seated.get(key, key), token))

    def names(self) -> list[str]:
        """Everyone online on the other workers."""
        return [p.name for p in self.present.values() if p.online]

    def elsewhere(self, name: str) -> Present | None:
        return self.present.get(name_key(name))

    def tell_invited(self, name: str, invited: ev.Invited, table: Table) -> None:
        """'invite NAME' at ``table`` here, NAME on another worker: he is told there,
        with the table, so that his 'sit' at once finds its copy there (the tables told
        every SNAPSHOT_S came after the invitation: 'there is no table T', s44)."""
        present = self.elsewhere(name)
        if present is None or not present.online:
            return
        body = invited_for_bus(invited) | {"k": "invited", "to": name}
        body["info"] = table_for_bus(table, self.lobby.config.away_limit_ms)
        self._copied_elsewhere(table)
        self.bus.publish(channel(present.worker), body)

    def _invited(self, message: dict[str, Any]) -> None:
        if "info" in message:  # (a worker of an older version tells none)
            self._table_copy(message["w"], message["info"])
        session = self.lobby.online.get(name_key(message["to"]))
        # not told to one who ignores the inviter (docs/protocol.md §5.21): kept for
        # his 'unignore'
        if session is None:
            return
        sender = name_key(message["sender"])
        if session.ignores(sender):
            session.withhold(sender, invited_from_bus(message))
        else:
            session.send(invited_from_bus(message))

    def missed(self, name: str, said: Phrase, token: str | None) -> None:
        """A notice for ``name``'s next login (server/missed.py): every other worker keeps
        it too, his login may come there."""
        body = {"k": "missed", "name": name, "said": phrase_for_bus(said), "token": token}
        self.bus.publish(LOBBY, body)

    def missed_told(self, name: str) -> None:
        self.bus.publish(LOBBY, {"k": "missed_told", "name": name})

    def ignores_changed(self, session: Session) -> None:
        """``session``'s player changed his ignore list (server/ignoring.py): the
        workers that hold a stand-in of his (at a table, a rematch's offer, a seek) take
        the new one before anything they tell him next."""
        body = {"k": "ignores", "s": session.id, "ign": digests(session)}
        self.bus.publish(LOBBY, body)

    def _ignores(self, message: dict[str, Any]) -> None:
        proxy = self.remote.get((message["w"], message["s"]))
        if proxy is not None:
            proxy.ignored_digests = frozenset(message["ign"])

    def settings_changed(self, session: Session) -> None:
        """``session``'s player changed his style, language, hand order, clock or what he
        is told (server/preferences.py): the workers that hold a stand-in of his (at a
        table, a rematch's offer, a seek) take the new ones before anything they tell
        him next, in the bus's order. Before (s46) a stand-in took them only with his
        next message there, and what his table told him meanwhile (a card, an ask, a
        'say') came in the old style and language."""
        body = {"k": "who", "s": session.id, "who": who_for_bus(session)}
        self.bus.publish(LOBBY, body)

    def _who(self, message: dict[str, Any]) -> None:
        proxy = self.remote.get((message["w"], message["s"]))
        if proxy is not None:  # (none here: nothing to tell him from here)
            _take_settings(proxy, message["who"])

    def lobby_say(self, name: str, text: str) -> None:
        self.bus.publish(LOBBY, {"k": "say", "name": name, "text": text})

    # ------------------------------------------------------------ moderation
    def announce(self, admin: str, text: str) -> None:
        """An admin's announcement here: every other worker tells its players."""
        self.bus.publish(LOBBY, {"k": "announce", "from": admin, "text": text})

    def kick(self, worker: int | None, name: str, action: Action, admin: str, reason: str) -> None:
        """An admin's kick (or ban) of ``name``, who is logged in on ``worker``; None:
        on every other worker (a ban: a login of the name may be on its way there)."""
        body = {"k": "kick", "name": name, "action": str(action), "admin": admin}
        self.bus.publish(LOBBY if worker is None else channel(worker), body | {"reason": reason})

    def _kicked(self, message: dict[str, Any]) -> None:
        action = Action(message["action"])
        name, admin, reason = message["name"], message["admin"], message["reason"]
        self.lobby.moderation.disconnect(name, action, admin, reason)

    def mute(
        self, name: str, seconds: float, admin: str, reason: str, until_s: float, tell: bool = True
    ) -> None:
        """A mute of ``name`` for ``seconds`` from now (the time left, not a time of
        this host's clock), told to every other worker: his 'say' is refused where he
        is; ``tell``: the worker that holds him tells him. ``until_s``, its end as stored,
        says which mute it is: one a worker found in the store first is not told again."""
        body = {"k": "mute", "name": name, "left_s": seconds, "admin": admin, "reason": reason}
        self.bus.publish(LOBBY, body | {"until_s": until_s, "tell": tell})

    def unmute(self, name: str, admin: str) -> None:
        self.bus.publish(LOBBY, {"k": "unmute", "name": name, "admin": admin})

    # ------------------------------------------------------------ forwarding (a session here)
    def forward(self, table: RemoteTable, message: Message, request: bool) -> bool:
        """A message of a session here for ``table``, which ``table.owner`` holds."""
        told = message_for_bus(message)
        if told is None:  # Stop, Dismiss: the owner's own business
            return True
        body: dict[str, Any] = {"k": "post", "table": table.id, "req": request} | told
        session = requester_of(message)
        if session is None:  # Away: a name's, no session waits for it
            if isinstance(message, Away) and message.went is not None:
                body["s"] = message.went.id  # the connection it tells the loss of (_posted)
            self.bus.publish(channel(table.owner), body)
            return True
        if session.remote:
            return False  # a stand-in goes one hop, no further
        if session.name is None and not isinstance(message, Observe | Unobserve):
            return False  # a web page (nameless) only watches
        self.forwarded[session.id] = session
        body |= {"s": session.id} | speaker_for_bus(session)
        if request:
            body["r"] = self._awaits(session, table.owner)
        self.bus.publish(channel(table.owner), body)
        if session.name is None and isinstance(message, Unobserve):
            # a web page's session watches one table: done, its stand-in goes (on the
            # owner's channel, so after the unobserve)
            del self.forwarded[session.id]
            self.page_offers.pop(session.id, None)
            self.bus.publish(channel(table.owner), {"k": "gone", "s": session.id})
        return True

    def mark(self, session: Session, table: Table, reached: Callable[[], None]) -> None:
        """Call ``reached`` where ``table``'s owner marks, between two steps of its
        tables, every stream of text it sends here (its messages come in the order sent):
        what came before is what it sent before (a web page joins its feed there,
        web/feed.py). ``session`` (a page's) asks; once."""
        assert isinstance(table, RemoteTable)
        self.marks[session.id] = (table.owner, reached)
        self.bus.publish(channel(table.owner), {"k": "mark", "s": session.id})

    def unmark(self, session: Session) -> None:
        self.marks.pop(session.id, None)

    def _marked(self, message: dict[str, Any]) -> None:
        owner, reached = self.marks.get(message["s"], (None, None))
        if owner == message["w"] and reached is not None:
            del self.marks[message["s"]]
            reached()

    def ask_help(self, session: Session, table: Table, lang: Lang | None = None) -> None:
        """'help' at another worker's ``table``: its owner lists the calls legal now, as
        for its own players (in ``lang``, when the request asked one)."""
        assert isinstance(table, RemoteTable)
        asked = {} if lang is None else {"lang": str(lang)}
        self._to_owner(table.owner, session, {"k": "help"} | asked, request=True)

    def ask_rematch(self, session: Session, after: float | None = None) -> bool:
        """'rematch' after a match on another worker's table: asked there (False: the
        last table was none of another worker's; ``after``: the deadline of an offer
        here, of a match that ended later than that one)."""
        offer = self.rematch_at.get(session.id)
        if offer is None or session.remote or offer.owner not in self.heard:
            return False
        if after is not None and offer.until <= after:
            return False
        self._to_owner(offer.owner, session, {"k": "rematch"}, request=True)
        return True

    def withdraw_rematch(self, session: Session, why: ev.RematchOff, kept: bool = False) -> None:
        """``session`` goes elsewhere: the offer kept at another worker is off (its
        entry stays, withdrawn, so a 'rematch' is told why there). ``kept``: his seek
        given back (matchmaking.kept_seek; a worker of an older version reads 'why')."""
        offer = self.rematch_at.get(session.id)
        if offer is None or not offer.withdrawable() or session.remote:
            return
        self.rematch_at[session.id] = attrs.evolve(offer, standing=OfferStanding.WITHDRAWN)
        body: dict[str, Any] = {"k": "unrematch", "why": str(why)}
        if kept:
            body["kept"] = True
        self._to_owner(offer.owner, session, body)

    def _to_owner(
        self, owner: int, session: Session, body: dict[str, Any], request: bool = False
    ) -> None:
        self.forwarded[session.id] = session  # its answer comes back as text
        body = body | {"s": session.id} | speaker_for_bus(session)
        if request:
            body["r"] = self._awaits(session, owner)
        self.bus.publish(channel(owner), body)

    def _awaits(self, session: Session, owner: int, named: int | None = None) -> int:
        """``session``'s line waits for ``owner``'s answer (``answered``) before its next
        line is taken: so the answer comes before the next line's (docs/protocol.md §2.3;
        a 'help' at another worker's table came after a 'ping' sent behind it). The
        request's id, which the owner's answer names (``named``: a seat the owner gives
        unasked, its answer naming the owner's id of it: seat_wait)."""
        request = next(self._request_ids)
        if owner not in self.unanswering:
            session.requests_waiting += 1
            self.awaited[request] = Awaited(session.id, owner, trio.current_time(), named)
        return request

    def seat_wait(self) -> int:
        """An id for a seat this worker gives a player of another worker unasked (a
        rematch's): 'placed' tells it, and his worker holds his next line until the
        Sit's answer names it (its 'done'). Below zero: none of the ids that worker
        gives its own requests (a worker of an older version waits for none of these)."""
        return -1 - next(self._request_ids)

    def _release(self, request: int) -> Awaited:
        """The wait for ``request`` is over (answered, or no answer is waited for)."""
        waiting = self.awaited.pop(request)
        session = self.forwarded.get(waiting.session)
        if session is not None:
            session.request_handled()
        return waiting

    def answered(self, proxy: RemoteSession, request: int | None) -> None:
        """``proxy``'s session's request ``request`` is answered here: its worker is told,
        after the answer's text (with it, when the text is the last message queued).
        None: a request of a worker of an older version, which waits for no answer."""
        if request is None:
            return
        body = {"k": "text", "s": proxy.remote_id, "text": "", "asks": 0, "done": [request]}
        self.bus.publish(channel(proxy.worker), body, merge=True)

    def _help_here(self, message: dict[str, Any]) -> None:
        proxy = self._proxy_of(message)
        asked = message.get("lang")  # ('help lang=ru'; a worker of an older version: none)
        lang = Lang(asked) if isinstance(asked, str) and asked in [*Lang] else None
        self.lobby.help.send_help(proxy, (), lang)
        self.answered(proxy, message.get("r"))

    def rematch_asked(
        self,
        table: int,
        asked: tuple[str, ...],
        players: list[Session],
        names: tuple[str, ...] = (),
        refused: bool = False,
        off: bool = False,
    ) -> None:
        """Tell the workers of ``players`` (those of them elsewhere) who has asked for
        a rematch of ``table``, kept here, and its players (``names``, by seat): should
        this worker be lost, each of them names them in his 'off=server-lost' line
        (_rematches_lapse). (The players' of one who left the match, whose 'placed'
        came before the offer: Rematches.match_over; ``refused``: none was offered, a
        house bot's match, and his worker marks the entry it keeps so; ``off``: it
        was off as it was made, a seek kept, and its loss tells him nothing.)"""
        told: dict[str, Any] = {"table": table, "asked": list(asked), "names": list(names)}
        if refused:
            told["refused"] = True
        if off:
            told["off"] = True
        for player in players:
            if isinstance(player, RemoteSession):
                body = {"k": "rematch_asked", "s": player.remote_id} | told
                self.bus.publish(channel(player.worker), body)

    def _rematch_asked(self, message: dict[str, Any]) -> None:
        offer = self.rematch_at.get(message["s"])
        if offer is not None and (offer.owner, offer.table) == (message["w"], message["table"]):
            if message.get("refused"):
                standing = OfferStanding.REFUSED
                self.rematch_at[message["s"]] = attrs.evolve(offer, standing=standing)
                return
            asked = tuple(str(n) for n in message["asked"])
            # (an older worker tells no names: those its 'placed' told, if any)
            names = tuple(str(n) for n in message.get("names", ())) or offer.names
            standing = offer.standing
            if standing is OfferStanding.OPEN and message.get("off"):
                standing = OfferStanding.OFF  # (one withdrawn or refused stays so)
            self.rematch_at[message["s"]] = attrs.evolve(
                offer, asked=asked, names=names, standing=standing
            )

    def offer_to_pages(self, offer: Offer) -> tuple[Session, ...]:
        """``offer``, of a match here just over, stands (open, of a table not private):
        the worker of each web page of another worker's that watched the match to its
        end (a nameless stand-in among its watchers) is told so, and the time left,
        before the table's close (the bus keeps this worker's order), so that the
        page's feed waits for its end there too (docs/web.md, "The live socket"). The
        stand-ins told, whose workers are told its end (``offer_ended_to_pages``)."""
        left = offer.deadline - trio.current_time()
        pages = tuple(
            w
            for w in offer.watchers
            if isinstance(w, RemoteSession) and w.name is None and not w.closed
        )
        for page in pages:
            body = {"k": "page_offer", "s": page.remote_id, "table": offer.table, "left": left}
            self.bus.publish(channel(page.worker), body)
        return pages

    def offer_ended_to_pages(self, offer: Offer, pages: tuple[Session, ...]) -> None:
        """``offer``, told to ``pages`` (``offer_to_pages``), is over: taken up (its
        table; after the line that told the stand-in where it starts) or not."""
        for page in pages:
            if isinstance(page, RemoteSession) and not page.closed:
                body = {"k": "page_offer_end", "s": page.remote_id, "table": offer.table}
                self.bus.publish(channel(page.worker), body | {"taken": offer.taken})

    def _page_offer(self, message: dict[str, Any]) -> None:
        session = self.forwarded.get(message["s"])
        if session is None or session.closed:
            return
        deadline = trio.current_time() + float(message["left"])
        self.page_offers[session.id] = Followed(message["w"], message["table"], deadline)

    def _page_offer_end(self, message: dict[str, Any]) -> None:
        # (kept, ended, till the feed lets its session go: its end may come before
        # the feed has noticed the table's close, and the page is told it all the same)
        offer = self.page_offers.get(message["s"])
        if (
            offer is not None
            and (offer.owner, offer.table) == (message["w"], message["table"])
            and not offer.ended.is_set()
        ):
            taken = message.get("taken")
            offer.taken = taken if isinstance(taken, int) else None
            offer.ended.set()

    def _page_offers_lapse(self, worker: int) -> None:
        """``worker``, forgotten, kept the offers pages here follow: each ends untaken
        (kept, as at its end: ``_page_offer_end``)."""
        for offer in self.page_offers.values():
            if offer.owner == worker:
                offer.ended.set()

    def followed_offer(self, table: Table, session: Session) -> Followed | None:
        """The offer of another worker's ``table`` that ``session`` (a web page's feed's)
        follows, as that worker told it: while it stands, or ended since it was told
        (Rematches.followed: the feed may notice the table's close after the offer's
        end, or its worker's loss, came here)."""
        offer = self.page_offers.get(session.id)
        if (
            offer is None
            or not isinstance(table, RemoteTable)
            or (offer.owner, offer.table) != (table.owner, table.id)
        ):
            return None
        return offer

    def own_match_over(self, name: str, table: int) -> None:
        """``name``'s own match, at ``table`` here, is over (its end told him next, after
        this): his worker, if another, forgets the match he watched before
        (Lobby.own_match_over: 'sheet', 'history' and 'last' at no table tell his own;
        both ends may fall in one of the store's seconds), and keeps which table's
        match of his is just over (a line of his that is no command names it)."""
        proxy = self.proxy_named(name_key(name))
        if proxy is not None:
            body = {"k": "own_over", "s": proxy.remote_id, "table": table}
            self.bus.publish(channel(proxy.worker), body)

    def _own_match_over(self, message: dict[str, Any]) -> None:
        session = self.forwarded.get(message["s"])
        if session is not None:
            session.watched_match, session.watched_over = None, None
            table = message.get("table")  # (a worker of an older version tells none)
            if isinstance(table, int):
                session.last_match = LastMatch(table, trio.current_time() + offer_s(self.lobby))

    def _rematch_here(self, message: dict[str, Any]) -> None:
        proxy = self._proxy_of(message)
        self.lobby.rematches.ask(proxy)
        self.answered(proxy, message.get("r"))

    def _unrematch_here(self, message: dict[str, Any]) -> None:
        proxy = self.remote.get((message["w"], message["s"]))
        if proxy is not None:
            kept = bool(message.get("kept"))
            self.lobby.rematches.withdraw(proxy, ev.RematchOff(message["why"]), kept=kept)

    def watched_from_here(self) -> bool:
        """Whether a web page here watches another worker's table (its lines come over
        the bus: a stop waits its grace for them, server/app.py)."""
        return any(session.name is None for session in self.forwarded.values())

    def disconnected(self, session: Session) -> None:
        """A session here ended: the owners it spoke to forget their stand-in."""
        self.seeking_at.pop(session.id, None)
        self.rematch_at.pop(session.id, None)
        self.page_offers.pop(session.id, None)
        for request in [r for r, waiting in self.awaited.items() if waiting.session == session.id]:
            del self.awaited[request]
        if self.forwarded.pop(session.id, None) is not None:
            self.bus.publish(LOBBY, {"k": "gone", "s": session.id})

    def _out(self, message: dict[str, Any]) -> None:
        """Text for a session here, from a table's owner (and which of its requests the
        text answered)."""
        done, sid = message.get("done"), message["s"]
        if done:  # (an owner that answers: waited for again)
            self.unanswering.discard(message["w"])
        session = self.forwarded.get(sid)
        if session is None or session.closed:
            return
        asks = message.get("asks", 0)
        if asks:
            connection = session.connection
            connection.answer_credit = min(MAX_ANSWER_CREDIT, connection.answer_credit + asks)
        text = message["text"]
        watched = message.get("t")  # (a table's lines he watches: an older owner's, none)
        if text and isinstance(watched, int) and not session.machine:
            text = _tagged_if_alongside(session, watched, text)
        if text and not session.outbox.put(text.encode()):
            session.log.warning("outbox_full", limit=session.outbox.limit)
            session.abort(Ending.NOT_READING)
        if isinstance(done, int):  # an owner of the version before request ids counts
            # them: its answers end the oldest waits for it (a rolling upgrade)
            done = self._oldest_waits(sid, message["w"])[:done]
        for request in done or ():  # (a wait already over, a late answer: waited no more)
            if request < 0:  # a seat given unasked: the wait 'placed' told (seat_wait)
                request = self._seat_awaited(sid, message["w"], request)
            waiting = self.awaited.get(request)
            if waiting is not None and (waiting.session, waiting.owner) == (sid, message["w"]):
                self._release(request)

    def _seat_awaited(self, sid: int, owner: int, named: int) -> int:
        """The wait here for the seat ``owner`` gives session ``sid``, by the owner's id
        of it (-1: none, or none any more)."""
        for request, waiting in self.awaited.items():
            if (waiting.session, waiting.owner, waiting.named) == (sid, owner, named):
                return request
        return -1

    def _oldest_waits(self, sid: int, owner: int) -> list[int]:
        """The requests of session ``sid`` waiting for ``owner``'s answer, oldest first."""
        return [
            r
            for r, waiting in self.awaited.items()
            if (waiting.session, waiting.owner) == (sid, owner)
        ]

    def _placed(self, message: dict[str, Any]) -> None:
        session = self.forwarded.get(message["s"])
        if session is None:
            return
        table_id = message["table"]
        if table_id is None:
            if isinstance(session.table, RemoteTable):
                owner, until = session.table.owner, trio.current_time() + offer_s(self.lobby)
                offer = message.get("offer")  # its players (an older worker tells none)
                names: tuple[str, ...] = ()
                standing = OfferStanding.OPEN
                if isinstance(offer, dict) and offer.get("table") == session.table.id:
                    names = tuple(str(n) for n in offer["names"])
                    standing = OfferElsewhere.told(
                        bool(offer.get("refused")), bool(offer.get("off"))
                    )
                # (none offered, or off already: kept, for his 'rematch' to be told why
                # there; its loss is no offer lost, §5.16)
                off = OfferElsewhere(owner, session.table.id, until, names, standing=standing)
                self.rematch_at[session.id] = off
                if session.name is not None:  # (a 'seek reserved' next seats him elsewhere)
                    session.table.left_here.add(name_key(session.name))
                session.table, session.seat = None, None
            return
        table = self._table_copy(message["w"], message["info"])
        self.seeking_at.pop(session.id, None)  # seated: its seek there is over
        self.rematch_at.pop(session.id, None)  # (and a rematch offered: taken up, or off)
        session.table, session.seat = table, message["seat"]
        wait = message.get("wait")  # (a worker of an older version tells none)
        if isinstance(wait, int):
            # a seat given unasked (a rematch's), not yet by the table: the next line
            # waits for its 'ok cmd=sit' (docs/protocol.md §5.16), as for a request's
            self._awaits(session, message["w"], named=wait)

    def tell_seat_spent(self, proxy: RemoteSession) -> None:
        """``proxy``'s player left a running match here of his own choice: his worker,
        where his next seat is asked for, charges his seat allowance (allowance.py)."""
        self.bus.publish(channel(proxy.worker), {"k": "seat_spent", "s": proxy.remote_id})

    def _seat_spent(self, message: dict[str, Any]) -> None:
        session = self.forwarded.get(message["s"])
        if session is not None and session.ended is None:  # (gone meanwhile: not charged)
            seat_given_up(self.lobby, session)

    def tell_left_by(
        self,
        proxy: Session,
        shown: str,
        name: str,
        address: str | None,
        settings: GameSettings | None,
    ) -> None:
        """``shown`` (name key ``name``, from ``address``) left a running match here of
        ``proxy``'s player: his worker, where his next seek is, keeps him apart from the
        leaver, and gives him back the seek he came by (``settings``: the first deal had
        not ended). After the match's end and his placing, on the same channel."""
        if not isinstance(proxy, RemoteSession):
            return
        told = None if settings is None else settings_for_bus(settings)
        body = {"k": "left_by", "s": proxy.remote_id, "shown": shown, "name": name}
        self.bus.publish(channel(proxy.worker), body | {"address": address, "seek": told})

    def _left_by(self, message: dict[str, Any]) -> None:
        session = self.forwarded.get(message["s"])
        if session is None or session.ended is not None:  # (gone meanwhile)
            return
        told = message["seek"]
        settings = None if told is None else settings_from_bus(told)
        self.lobby.matchmaking.kept_apart(
            session, message["shown"], message["name"], message["address"], settings
        )

    def _watched(self, message: dict[str, Any]) -> None:
        session = self.forwarded.get(message["s"])
        if session is None:
            return
        if message["on"]:
            self._table_copy(message["w"], message["info"])
            session.observing.add(message["table"])
        elif message["table"] in session.observing:
            session.observing.discard(message["table"])
            # its silence counts from now; 'sheet' at no table tells the match it watched
            # to its end (an older worker tells none)
            now, hold = trio.current_time(), offer_s(self.lobby)
            stopped_watching(session, message.get("ended"), now, message["table"], hold)

    def tell_seats_kept(self, reason: str | Phrase, at_drain_limit: bool = False) -> None:
        """This worker stops (SIGTERM, its grace over): its players seated at another
        worker's table that still plays are told their seat is kept there (docs/
        protocol.md §11.4). Not at a table of a worker stopping with this one (the same
        ``serve --workers``, whose parent said so): it closes, and tells them so, though
        its word may not have come over the bus yet (it came after this worker's grace,
        on a loaded machine, and the seat was said to be kept); so they are told here,
        with this stop's ``reason``, the whole server's, in the words its own players
        are told (``_told_closed``), and so are those who watch such a table from here
        (they were told nothing). A drain's limit (``at_drain_limit``) while the parent
        drains is such a stop too: every worker drains and stops at its own limit, a
        moment apart (s49: worker 0's came after this one's grace, and bob was told his
        seat was kept, not that it closed)."""
        place = self.place
        with_this_one = place.parent_stops.is_set() or (
            at_drain_limit and place.parent_drains.is_set()
        )
        for session in list(self.forwarded.values()):
            table = session.table
            if isinstance(table, RemoteTable) and session.seat is not None and self._on(table):
                if with_this_one and self.same_parent(table.owner):
                    # (its cut-off notice is still his at a later login: not told here)
                    self._told_closed(session, table, reason)
                    continue
                with apart(session, "kept"):
                    said = phrase(Msg.SEAT_KEPT_ELSEWHERE, table=table.id)
                    session.send(ev.seat_kept(table.id, said))
            if not with_this_one:
                continue
            for table_id in sorted(session.observing):
                watched = self.lobby.tables.get(table_id)
                if (
                    isinstance(watched, RemoteTable)
                    and self._on(watched)
                    and self.same_parent(watched.owner)
                ):
                    self._told_closed(session, watched, reason)

    def _on(self, table: RemoteTable) -> bool:
        """Whether another worker's ``table`` is open still, as far as this one knows."""
        return table.state is not TableState.CLOSED and table.owner not in self.lost

    @staticmethod
    def _told_closed(session: Session, table: RemoteTable, reason: str | Phrase) -> None:
        """``session`` told that ``table`` closes for this stop's ``reason``, as the
        table's own worker tells its players and watchers (Table._stop_now): with its
        match's fate if one is being played there."""
        match = table.playing
        if match is not None:
            said = phrase(Msg.MATCH_STOPPED, table=table.id, reason=reason, match=match)
        else:
            said = phrase(Msg.TABLE_CLOSES, table=table.id, reason=reason)
        with apart(session, "closed"):
            session.send(ev.table_closed(table.id, said))

    def _closing(self, message: dict[str, Any]) -> None:
        session = self.forwarded.get(message["s"])
        if session is not None:
            session.close()

    # ------------------------------------------------------------ seeks across workers
    def match_seeks(self) -> None:
        """A seeker here, waiting seek_patience_ms for a partner here (a table of two
        workers' players costs the bus every call; one worker's costs none), goes to a
        worker where a table opened with 'new' waits for its game, else to one with a
        smaller id where someone waits for it (seeks flow one way, to the smallest id
        with a match, so two workers never swap their seekers and both wait)."""
        matchmaking = self.lobby.matchmaking
        now = trio.current_time()
        patience = self.lobby.config.seek_patience_ms / 1000
        since, self.waiting_since = self.waiting_since, {}
        for session in list(matchmaking.seekers):
            wanted = session.seeking
            if isinstance(session, RemoteSession) or not isinstance(wanted, GameSettings):
                continue
            started = self.waiting_since[session.id] = since.get(session.id, now)
            if now - started < patience:
                continue
            there = sorted(w for w, games in self.tables_wait.items() if wanted in games)
            there += sorted(
                w for w, games in self.seeks.items() if w < self.worker and wanted in games
            )
            if not there:
                continue
            matchmaking.forget(session)
            number = next(self._seek_numbers)
            self.seeking_at[session.id] = SeekElsewhere(there[0], wanted, number)
            self.forwarded[session.id] = session
            body = {"k": "seek", "s": session.id, "seek_no": number} | speaker_for_bus(session)
            body |= {"settings": settings_for_bus(wanted), "address": session.address}
            # whom he is kept apart from, each for how much longer (kept_apart.py)
            body["apart"] = [[k.name, k.address, k.until - now] for k in session.left_by]
            self.bus.publish(channel(there[0]), body)
            for waiting in (self.tables_wait, self.seeks):  # one seeker for one waiting there
                waiting.get(there[0], set()).discard(wanted)

    def seeks_elsewhere(self, session: Session) -> bool:
        return session.id in self.seeking_at and self.forwarded.get(session.id) is session

    def forget_seek(self, session: Session) -> None:
        if isinstance(session, RemoteSession) or not self.seeks_elsewhere(session):
            return
        there = self.seeking_at.pop(session.id)
        self.bus.publish(channel(there.owner), {"k": "unseek", "s": session.id})

    def seek_ended(self, proxy: Session) -> None:
        """A seek another worker sent here ends here, its player told why by this worker
        (no table could open for it: its number's draw failed, or its table failed
        before it seated him): his own worker forgets it too (``_seek_ended``), as a
        seek that ends at his own worker is forgotten. Before, it still took him for one
        waiting here: his 'unseek' was answered ok, not 'not-allowed', and should this
        worker be lost he was put back in line there, unasked."""
        if isinstance(proxy, RemoteSession):
            ended = {"k": "seek_ended", "s": proxy.remote_id, "seek_no": proxy.seek_number}
            self.bus.publish(channel(proxy.worker), ended)

    def _seek_ended(self, message: dict[str, Any]) -> None:
        sid = message["s"]
        there = self.seeking_at.get(sid)
        if there is not None and (there.owner, there.number) == (message["w"], message["seek_no"]):
            del self.seeking_at[sid]

    def _seek_here(self, message: dict[str, Any]) -> None:
        proxy = self._proxy_of(message)
        told_address(proxy, message)
        now = trio.current_time()  # (an older worker's seek tells no one kept apart)
        kept = [Left(name, address, now + left) for name, address, left in message.get("apart", [])]
        proxy.left_by = tuple(k for k in kept if k.until > now)
        proxy.seek_number = message.get("seek_no")  # (a worker of an older version: none)
        if not self._not_his(proxy):  # (a claim that lost its name seeks no seat)
            self.lobby.matchmaking.place(proxy, settings_from_bus(message["settings"]))

    def _unseek_here(self, message: dict[str, Any]) -> None:
        proxy = self.remote.get((message["w"], message["s"]))
        if proxy is not None:
            self.lobby.matchmaking.forget(proxy)

    # ------------------------------------------------------------ owning (a table here)
    def proxy_named(self, key: str) -> RemoteSession | None:
        return self.remote_named.get(key)

    def _proxy_of(self, message: dict[str, Any]) -> RemoteSession:
        """The stand-in of the session a message speaks for (``speaker_for_bus``), as it
        tells it now: its settings, and whom its player ignores (a worker of an older
        version tells none: it has no ignore list)."""
        proxy = self._proxy(message["w"], message["s"], message["who"])
        proxy.ignored_digests = frozenset(message.get("ign", ()))
        return proxy

    def _proxy(self, worker: int, sid: int, who: list[Any]) -> RemoteSession:
        proxy = self.remote.get((worker, sid))
        if proxy is None:
            proxy = self.remote[worker, sid] = RemoteSession(self, worker, sid)
        name, guest = who[:2]
        proxy.name, proxy.guest = name, guest
        _take_settings(proxy, who)
        if name is not None:  # a web page watching is nameless
            self.remote_named[name_key(name)] = proxy
        return proxy

    def _posted(self, message: dict[str, Any]) -> None:
        """A message of another worker's session for a table here."""
        lobby = self.lobby
        table = lobby.tables.get(message["table"])
        kind = message["m"]
        if kind == "away":
            if table is not None and not isinstance(table, RemoteTable):
                # the stand-in of the connection it tells the loss of: nothing orders this
                # post behind his login again, here or on a third worker (its 'in' and
                # Back do not wait for it), and the table marks no away of a live session
                # of his back at the seat. A worker of an older version names none ('s'):
                # by name, as before; one that does is read so by an older owner too
                sid = message.get("s")
                went = None if sid is None else self.remote.get((message["w"], sid))
                table.post(Away(message["name"], went=went))
            return
        proxy = self._proxy_of(message)
        request = message["req"]
        asked = message.get("r")  # its id (None: a worker of an older version's)
        if kind == "sit" and self._not_his(proxy):  # (a claim that lost its name: _claim_lost)
            if request:
                self.answered(proxy, asked)
            return
        if table is None or isinstance(table, RemoteTable) or table.state == TableState.CLOSED:
            if request and kind != "back":  # (a login finds its seat gone: nothing said)
                said = phrase(Msg.NO_TABLE, table=message["table"])
                proxy.send(ev.error("unknown-table", said))
            if kind == "back" and proxy.table is None:
                self.placed(proxy)  # its worker thought it sat here: back in the lobby
            if request:
                self.answered(proxy, asked)
            return
        built = message_from_bus(kind, proxy, message)
        if not request:
            table.post(built)
            return
        waiting = proxy.requests_waiting  # the table answers it (RemoteSession.request_handled)
        if kind == "back":  # a login's: its state, or nothing (login.py)
            table.post(built, request=True)
        else:
            lobby.post_for(proxy, table, built)
        if proxy.requests_waiting == waiting:  # refused: answered already
            self.answered(proxy, asked)
        else:  # answered once the table has handled it (RemoteSession.request_handled)
            proxy.asked.setdefault(table.id, deque()).append(asked)

    def placed(self, proxy: RemoteSession, wait: int | None = None) -> None:
        """Tell ``proxy``'s worker where it sits now (``wait``: the id of the seat a Sit
        posted next gives it, its worker holding its next line till then: seat_wait)."""
        table = proxy.table
        body: dict[str, Any] = {"k": "placed", "s": proxy.remote_id, "seat": proxy.seat}
        if wait is not None:
            body["wait"] = wait
        body |= {"table": None if table is None else table.id}
        if table is None and proxy.name is not None:  # its match over: its offer's players
            # (one called off as it was made, his seek kept, too: his worker keeps its
            # entry, so his 'rematch' is told why there; one of an earlier table's his
            # worker ignores)
            offer = self.lobby.rematches.offers.get(name_key(proxy.name))
            if offer is not None:
                body["offer"] = {"table": offer.table, "names": list(offer.names)}
                if offer.refusal is not None:  # none stands (a house bot's match): his
                    body["offer"]["refused"] = True  # worker keeps its entry so
                elif not offer.open:  # off already (a seek kept as it was made): a loss
                    body["offer"]["off"] = True  # of this worker then tells him nothing
        if table is not None:
            body["info"] = table_for_bus(table, self.lobby.config.away_limit_ms)
            self._copied_elsewhere(table)
        self.bus.publish(channel(proxy.worker), body)

    def _copied_elsewhere(self, table: Table) -> None:
        """``table`` was told to another worker, which keeps a copy: the next look at
        the tables tells it again, or its end. One opened and over between two looks
        was never told gone, and its copy listed there ever after (a tryout, s29)."""
        if not isinstance(table, RemoteTable):
            self.told.setdefault(table.id, {})  # (told as it is, whatever it is then)

    def watching(
        self, proxy: RemoteSession, table_id: int, on: bool, ended: str | None = None
    ) -> None:
        """Tell ``proxy``'s worker it watches ``table_id`` (``on``) or no longer does,
        and then the match it watched there to its ``ended`` (None: none)."""
        body: dict[str, Any] = {"k": "watch", "s": proxy.remote_id, "table": table_id, "on": on}
        if not on:
            body["ended"] = ended
        table = self.lobby.tables.get(table_id)
        if on and table is not None:
            body["info"] = table_for_bus(table, self.lobby.config.away_limit_ms)
            self._copied_elsewhere(table)
        elif on:
            return
        self.bus.publish(channel(proxy.worker), body)

    def send_out(
        self, proxy: RemoteSession, lines: list[str], asks: int, table: int | None = None
    ) -> None:
        """``lines`` for ``proxy``'s player; ``table``: they are of that table, which he
        watches (his worker puts ``[table N]`` before them if he watches it alongside
        another: Session.send_watched)."""
        if proxy.closed:
            return
        text = "".join(line + "\r\n" for line in lines)
        if proxy.name is None:  # a web page's watcher (docs/web.md): the hand sizes too
            text += self._page_note(proxy, text)
        self.bus.publish_text(channel(proxy.worker), proxy.remote_id, text, asks, table)

    def _page_note(self, proxy: RemoteSession, text: str) -> str:
        """The hand sizes and the seat to act after ``text`` at the table a page's
        watcher watches (the page shows them; its feed reads them out, web/feed.py), as
        a line of their own when its plays do not tell them or another seat acts; else
        ''."""
        table = next((self.lobby.tables.get(t) for t in proxy.observing), None)
        if table is None or table.remote:
            return ""
        seen = seen_now(table)
        told, proxy.page_seen = proxy.page_seen, seen
        return note(seen) + "\r\n" if to_tell(told, seen, text) else ""

    def close_remote(self, proxy: RemoteSession) -> None:
        self.bus.publish(channel(proxy.worker), {"k": "close", "s": proxy.remote_id})

    def _gone(self, worker: int, sid: int) -> None:
        proxy = self.remote.pop((worker, sid), None)
        if proxy is None:
            return
        self.lobby.matchmaking.forget(proxy)
        self.lobby.rematches.withdraw(proxy, ev.RematchOff.LEFT)
        if proxy.name is not None and self.remote_named.get(name_key(proxy.name)) is proxy:
            del self.remote_named[name_key(proxy.name)]
        proxy.connection.close()

    # ------------------------------------------------------------ the copy
    def hear(self, message: dict[str, Any]) -> None:
        """A message the bus brought from a worker (this one's own dropped): handled by
        its kind (``k``); a worker not heard from before is told everything again."""
        sender = message["w"]
        if sender == self.worker or sender in self.replaced or sender in self.ended:
            return  # (a replaced or dead one's late word would make it the living one again)
        if sender not in self.heard:
            if message["k"] != "hello":
                # a worker not heard from (or thought dead): everyone tells everything again
                self.bus.publish(LOBBY, self._hello_said())
            elif sender in self.lost:  # back, and it says hello first (it had taken this
                # one for dead too): it is told everything, and tells what it holds
                self.bus.publish(channel(sender), self._hello_said())
        if (claimed := message.get("as")) is not None:
            self._replaced_by(sender, claimed)
        if (pid := message.get("pid")) is not None:
            self.pids[sender] = int(pid)
        self.heard[sender] = trio.current_time()
        handler = self._handlers.get(message["k"])
        if handler is not None:
            handler(message)

    def _replaced_by(self, sender: int, identity: str) -> None:
        """``sender`` is the worker ``identity`` names: another server heard as that
        worker died, and its parent started this one in its place. It is forgotten now,
        not after server_dead_ms of silence: meanwhile this one knew nobody of it (its
        guests' seats elsewhere, held for their tokens, were anyone's name here)."""
        for other, known in list(self.identities.items()):
            if known == identity and other != sender:
                del self.identities[other]
                self.replaced.add(other)
                self._heard_whole(other)
                if other in self.heard:
                    self._forget_worker(other, Lost.REPLACED)
                self._give_up_seats_at(other)
        self.identities[sender] = identity

    def _bye(self, message: dict[str, Any]) -> None:
        """A worker stops (its last word): forgotten at once, its name with it, and no
        seat of its is waited for."""
        worker = message["w"]
        self.identities.pop(worker, None)
        self._forget_worker(worker, Lost.STOPPED, phrase(Msg.SERVER_STOPPED))
        self._give_up_seats_at(worker)

    def _give_up_seats_at(self, worker: int) -> None:
        """``worker`` is gone for good: its tables are never told again."""
        for key, held in list(self.held_elsewhere.items()):
            if held.owner == worker:
                self._give_up_seat(key)

    def _give_up_seat(self, key: str) -> None:
        """The seat held elsewhere for ``key`` is his no more (a guest gone from here,
        whose token was kept for it, leaves his name free)."""
        del self.held_elsewhere[key]
        lobby = self.lobby
        free = key not in lobby.online and not lobby.may_seat(key)
        if free and lobby.guest_tokens.pop(key, None) is not None:  # the others free it too
            self.bus.publish(LOBBY, self._left(key, None))

    def _hello(self, message: dict[str, Any]) -> None:
        """A worker started: it gets everything this one holds (the mutes running too,
        which it would not know of: they are memory)."""
        if message.get("starting"):  # it has no tables: if this one starts too, it
            self._heard_whole(message["w"])  # need not wait for them
        self._tell_presence_all()
        self._publish_tables(force=True, everything=True)
        for mute, left in self.lobby.moderation.live_mutes():
            self.mute(mute.name, left, mute.admin, "", mute.until_s, tell=False)

    def _in(self, message: dict[str, Any]) -> None:
        name, worker = message["name"], message["w"]
        key = name_key(name)
        local = self.lobby.online.get(key)
        over = message.get("over")
        there = LoginMark(
            worker,
            message.get("s"),
            bool(message.get("fresh")),
            float(message.get("at", 0.0)),
            None if over is None else (over[0], over[1]),
        )
        login = self.logins.get(key)
        if (  # both workers logged the name in before hearing of the other's: both
            # decide alike which keeps it, so one login holds a name (docs/scaling.md)
            local is not None
            and login is not None
            and login.session == local.id
            and _raced(login, there)
            and _keeps(login, there)
        ):
            return  # the other worker's login yields to this one
        held = self.present.get(key)
        # another worker's login of the name that raced this one: a third worker decides
        # as the two do ('who' lists the one who keeps it)
        rival = (
            held.login
            if local is None
            and held is not None
            and held.online
            and held.worker != worker
            and held.login is not None
            and _raced(held.login, there)
            else None
        )
        if rival is not None and _keeps(rival, there):
            return
        address = message.get("address")
        self.present[key] = Present(
            name,
            worker,
            message["guest"],
            message["token"],
            login=there,
            address=address if isinstance(address, str) else None,
        )
        if key in self.held_elsewhere:  # his seat told closed by a stall: that worker's now
            self._hand_held_seat(key, name, worker)
        if rival is not None and rival.fresh:  # a guest's claim there lost the race to
            self._claim_lost(rival.worker, key)  # this login: its seat here goes too
        if local is not None:  # the name logged in there: this connection no longer holds it
            del self.lobby.online[key]
            self.logins.pop(key, None)
            if (
                login is not None
                and login.session == local.id
                and login.fresh
                and _raced(login, there)
            ):  # a guest's claim of a free name, made as another's: it was never his
                self.lobby.login.lost_race(local)
            else:
                self.lobby.login.logged_in_elsewhere(local)

    def _claim_lost(self, worker: int, key: str) -> None:
        """A guest's claim of a name on ``worker`` lost the race with another login of
        it (docs/scaling.md; its worker forgets it: login.py ``lost_race``): its
        stand-in here leaves the seat it took, and takes none that its sit, still on
        its way or queued at a table, would give it (the winner would hold it)."""
        proxy = self.remote_named.get(key)
        if proxy is None or proxy.worker != worker:
            return
        table = proxy.table
        proxy.ending(Ending.LOGGED_IN_ELSEWHERE)  # (no leave of his choice: none charged)
        if table is not None and not table.remote:
            table.post(Leave(proxy, confirmed=True))
        proxy.connection.close()  # (Table._sit seats no closed session)

    def _not_his(self, proxy: RemoteSession) -> bool:
        """Whether another login holds ``proxy``'s name now (here, or on a worker other
        than its own): it lost a race for it, or it is a connection closing there."""
        if proxy.name is None:
            return False
        key = name_key(proxy.name)
        held = self.present.get(key)
        return key in self.lobby.online or (held is not None and held.worker != proxy.worker)

    def _out_of_lobby(self, message: dict[str, Any]) -> None:
        key = name_key(message["name"])
        present = self.present.get(key)
        token = message["token"]
        held_s = self.lobby.config.away_limit_ms / 1000 if message.get("held") else -math.inf
        if present is None and token is not None and key not in self.lobby.online:
            # a guest gone, his seat held: told again to a worker that forgot him
            # (``_tell_presence_all``)
            present = Present(message["name"], message["w"], True, token, False)
            present.held_until = trio.current_time() + held_s
            self.present[key] = present
            return
        if present is not None and present.worker == message["w"]:
            if message["token"] is None:
                del self.present[key]
            else:  # a guest's seat waits for him: only his token takes it back
                present.online, present.token = False, message["token"]
                present.held_until = trio.current_time() + held_s

    def _said(self, message: dict[str, Any]) -> None:
        said = ev.Said(message["name"], message["text"], None)
        speaker = name_key(message["name"])
        for session in list(self.lobby.online.values()):
            if session.table is None and not session.ignores(speaker):  # (§5.21)
                with apart(session, "say"):  # (one's failure never keeps the others untold)
                    session.send(said)

    def _seeks(self, message: dict[str, Any]) -> None:
        """A part of another worker's games waited for (payloads.seeks_messages): the
        first replaces what was held of them, each later one adds to it."""
        owner = message["w"]
        if message["part"] == 0:
            self.seeks[owner], self.tables_wait[owner] = set(), set()
        # each a game as settings_for_bus tells it, and whether a table waits
        for told in message["seeks"]:
            game = settings_from_bus(told[:3])
            self.seeks.setdefault(owner, set()).add(game)
            if told[3]:
                self.tables_wait.setdefault(owner, set()).add(game)

    def _tables(self, message: dict[str, Any]) -> None:
        owner = message["w"]
        self.tables_heard[owner] = (trio.current_time(), bool(message.get("drain")))
        for described in message["open"]:
            copy = self._table_copy(owner, described)
            if self.held_elsewhere:
                self._seat_again(copy)
            # a seek reserved made here before this copy came (docs/scaling.md)
            self.lobby.matchmaking.seat_reserved_seekers(copy)
        for table_id in message["gone"]:
            table = self.lobby.tables.get(table_id)
            if isinstance(table, RemoteTable) and table.owner == owner:
                self._drop_copy(table, None)
        if message.get("whole"):  # the last of its tables told in answer to a hello
            self._heard_whole(owner)

    def _table_copy(self, owner: int, described: dict[str, Any]) -> RemoteTable:
        """The copy of another worker's table, made or brought up to date."""
        lobby = self.lobby
        table_id = described["id"]
        table = lobby.tables.get(table_id)
        if table is not None and not isinstance(table, RemoteTable):
            raise ValueError(f"worker {owner} tells of table {table_id}, which is this one's")
        if table is None or table.owner != owner:
            rules = lobby.rules.ruleset(
                described["players"], described["variant"], tuple(described["options"])
            )
            table = RemoteTable(table_id, rules, lobby, lobby.config, 0, owner=owner, node=self)
            lobby.tables[table_id] = table
        info = ev.TableInfo(
            id=table_id,
            players=described["players"],
            variant=described["variant"],
            options=tuple(described["options"]),
            seats=tuple(described["seats"]),
            state=TableState(described["state"]),
            observers=described["observers"],
            private=described["private"],
        )
        reserved = described["reserved"]
        reserved_for = None if reserved is None else tuple(reserved)
        table.update(info, described["private"], reserved_for, described["board"])
        told = described["match"]
        now = None
        if told is not None:  # (its hanging points appended: an older owner's has none)
            hanging, after = (told[4], tuple(told[5])) if len(told) > 5 else (0, ())
            talon = told[6] if len(told) > 6 else None  # (appended after them)
            now = MatchNow(told[0], tuple(told[1]), told[2], tuple(told[3]), hanging, after, talon)
        table.update_match(now, {seat: left_ms / 1000 for seat, left_ms in described["away"]})
        # (an owner of an older version tells it only with ``match``)
        table.playing = described.get("playing", None if now is None else now.match_id)
        invited = set(described["invited"])  # (with "more": the rest of a long list)
        table.invited = table.invited | invited if described.get("more") else invited
        self.looks.came(table_id)  # a 'sit' of its number waits for it (looks.py)
        return table

    def _drop_copy(self, table: RemoteTable, why: Phrase | None) -> None:
        """A remote table is gone: the sessions here that sat at it or watched it are
        back in the lobby (told ``why``, if its worker died)."""
        if self.lobby.tables.get(table.id) is table:
            del self.lobby.tables[table.id]
        table.state = TableState.CLOSED
        for session in list(self.forwarded.values()):
            touched = False
            seated = session.table is table
            if seated:
                session.table, session.seat = None, None
                touched = True
                if why is not None and session.name is not None:  # its owner lost: it
                    # may be alive and still seat him
                    held = HeldSeat(table.owner, table.id, trio.current_time())
                    self.held_elsewhere[name_key(session.name)] = held
            if table.id in session.observing and self.lobby.tables.get(table.id) is None:
                session.observing.discard(table.id)
                ended = table.now.match_id if table.now is not None and why is None else None
                now, hold = trio.current_time(), offer_s(self.lobby)
                stopped_watching(session, ended, now, table.id, hold)
                touched = True
            if touched and why is not None:
                said = phrase(Msg.TABLE_CLOSES, table=table.id, reason=why)
                with apart(session, "closed"):  # (nor the rest of a lost worker's forgetting)
                    session.send(ev.table_closed(table.id, said))
                match = self.match_of(table)
                if seated and session.name is not None and match is not None:
                    # told: his next login need not tell it again (server/cut_off.py)
                    self.lobby.cut_off.told_live(session.name, session.guest, match)

    def _seat_again(self, table: RemoteTable) -> None:
        """Players here told ``table`` closed when its owner was taken for dead (a stall
        past server_dead_ms), now told it again: the owner lived, its match playing on
        with their seats, their clocks running there (a tryout's player lost so by
        timeouts, each call of his refused here as 'not seated'). Each, on the
        connection he has here now, is seated again at once, told so and shown the
        table, his seat back from away if the owner held it so (it took this worker for
        dead too), as after a login; a seek or rematch offer made meanwhile is
        withdrawn, as sitting down withdraws it. One gone meanwhile is away there, his
        seat held for his login as after any disconnect."""
        for key, held in list(self.held_elsewhere.items()):
            if (held.owner, held.table) != (table.owner, table.id):
                continue
            del self.held_elsewhere[key]
            seat = next(
                (s for s, name in enumerate(table.seats) if name and name_key(name) == key),
                None,
            )
            if seat is None or table.state == TableState.CLOSED:
                continue  # his seat went meanwhile (forfeited)
            session = self.lobby.online.get(key)
            if session is None or session.closed:
                elsewhere = self.present.get(key)
                if elsewhere is not None and elsewhere.online:  # logged in at another
                    # worker meanwhile: seated there (it never knew of the seat)
                    self.held_elsewhere[key] = held
                    self._hand_held_seat(key, table.seats[seat] or key, elsewhere.worker)
                elif elsewhere is None:
                    table.post(Away(table.seats[seat] or key))
                continue
            if session.table is not None:
                continue  # sat down elsewhere meanwhile: his clock plays on there
            session.table, session.seat = table, seat
            self.lobby.matchmaking.forget(session)
            self.lobby.rematches.withdraw(session, ev.RematchOff.ELSEWHERE)
            with apart(session, "seated"):
                session.send(ev.info(phrase(Msg.SEAT_KEPT_AFTER_STALL, table=table.id)))
            # (a Back whether or not the owner holds him away: its copy here may be
            # older than its Away, and only a Back takes a seat back from away)
            table.post(Back(session), request=True)

    def _hand_held_seat(self, key: str, name: str, worker: int) -> None:
        """``name`` logged in at ``worker`` while his seat was held here (told closed by
        a stall): that worker holds it now, and seats him when the table is told again
        (its age sent, not the moment: each process has a clock of its own)."""
        held = self.held_elsewhere.pop(key)
        age = trio.current_time() - held.since
        message = {"k": "held", "name": name, "owner": held.owner, "table": held.table}
        self.bus.publish(channel(worker), message | {"age": age})

    def _held_here(self, message: dict[str, Any]) -> None:
        """A seat another worker held for a player of this one (``_hand_held_seat``):
        held here, and taken at once if its table is told again already."""
        key = name_key(message["name"])
        session = self.lobby.online.get(key)
        if session is None or session.closed or session.table is not None:
            return  # gone again, or seated meanwhile: his seat there is away as any
        since = trio.current_time() - float(message["age"])
        held = HeldSeat(int(message["owner"]), int(message["table"]), since)
        self.held_elsewhere[key] = held
        table = self.lobby.tables.get(held.table)
        if isinstance(table, RemoteTable) and table.owner == held.owner:
            self._seat_again(table)

    def seat_held_elsewhere(self, name: str) -> bool:
        """Whether ``name`` was told his table closed by a stall (its owner may live)."""
        return name_key(name) in self.held_elsewhere

    @staticmethod
    def match_of(table: Table) -> str | None:
        """The match being played at another worker's ``table``, as its owner last told
        it: a private table's and a board's too (whose ``now`` is not told: their lost
        match's cut-off was told again at the next login, s50)."""
        return table.playing if isinstance(table, RemoteTable) else None

    def forget_if_dead(self, table: Table) -> bool:
        """Whether ``table`` is another worker's whose process has ended (a SIGKILL, a
        crash), a worker of this parent's (this host's: its pid means that process here),
        though not forgotten yet (its replacement's hello, or server_dead_ms of silence,
        to come): it is forgotten now, as it would be then. A login is then never told
        it is back at a seat there, only for the table to close a moment later."""
        if not isinstance(table, RemoteTable):
            return False
        owner = table.owner
        pid = self.pids.get(owner)
        if pid is None or not self.same_parent(owner) or not process_ended(pid):
            return False
        self.ended.add(owner)  # (a word of its still on the bus would bring it back)
        self._forget_worker(owner, Lost.ENDED)
        return True

    def _rematches_lapse(self, worker: int, why: Phrase) -> None:
        """``worker``, forgotten, kept the rematch offers of its matches just over (a
        memory of its own): each of its players here whose offer may still stand is
        told it is off, not left to find no offer at his next 'rematch', its players
        named: who had asked as that worker told it here (rematch_asked: each ask, to
        every player's worker), the others waiting. One that stopped (``why``: its 'bye')
        told them itself as it began to (Rematches.stopped)."""
        told = why.key is Msg.SERVER_STOPPED
        now = trio.current_time()
        for sid, offer in list(self.rematch_at.items()):
            if offer.owner != worker:
                continue
            del self.rematch_at[sid]
            session = self.forwarded.get(sid)
            if told or offer.until < now or session is None or session.closed:
                continue
            if not offer.off_when_lost():  # he went elsewhere: off for him already;
                continue  # none was offered; or it was off as he left
            off = ev.RematchOff.SERVER_LOST
            with apart(session, "rematch"):
                session.send(ev.Rematch(offer.table, offer.asked, offer.waiting(), off))

    def _forget_worker(self, worker: int, how: Lost, why: Phrase | None = None) -> None:
        """``worker`` is silent past server_dead_ms (dead), or said it stops. Its tables
        leave the lobby, its players the list, and the seats they held here go away
        (their players told ``why``: by default, its server was lost). ``how``, for the
        log (Lost): the line was the same warning for a drained worker as for a dead
        one. A stop it said (a drain's end, a rolling restart) is ``worker_left`` at
        info: nothing to do, and an operator who alerts on warnings was paged for each
        (an event of its own: each event is logged at one level, docs/settings.md)."""
        why = phrase(Msg.SERVER_LOST) if why is None else why
        if how is Lost.STOPPED:
            log.info("worker_left", left=worker)
        else:
            log.warning("worker_lost", lost=worker, how=str(how))
        self._heard_whole(worker)  # (not waited for at start-up)
        self.heard.pop(worker, None)
        self.tables_heard.pop(worker, None)
        self.pids.pop(worker, None)
        self.lost.add(worker)
        self.unanswering.discard(worker)
        for request in [r for r, waiting in self.awaited.items() if waiting.owner == worker]:
            self._release(request)  # no answer comes
        self._rematches_lapse(worker, why)
        self._page_offers_lapse(worker)
        lost = {t for t in self.lobby.tables.values() if isinstance(t, RemoteTable)}
        lost |= {s.table for s in self.forwarded.values() if isinstance(s.table, RemoteTable)}
        for table in lost:
            if table.owner == worker:
                self._drop_copy(table, why)
        for key, present in list(self.present.items()):
            if present.worker == worker:
                del self.present[key]
                if (
                    present.guest
                    and present.token is not None
                    and self.lobby.table_of(present.name)
                ):
                    # his seat (at a table of this worker's, or of another's told here)
                    # waits for his token, as a guest's gone here does: forgotten, the
                    # name was anyone's, and the seat with it;
                    # and the others (the dead one started again knows nobody) are told
                    self.lobby.guest_tokens[key] = present.token
                    gone = {"k": "left", "name": present.name, "token": present.token}
                    self.bus.publish(LOBBY, gone)
        self.seeks.pop(worker, None)
        self.tables_wait.pop(worker, None)
        for sid, there in list(self.seeking_at.items()):
            if there.owner != worker:  # (it waits at a third worker still)
                continue
            session = self.forwarded.get(sid)
            del self.seeking_at[sid]
            if session is not None and not session.closed:
                self.lobby.matchmaking.place(session, there.settings)  # it waits here again
        for (owner, sid), proxy in list(self.remote.items()):
            if owner != worker:
                continue
            if proxy.table is not None and proxy.name is not None:
                # his seat goes away, unless he is back at it on a session of his
                # login again, here or on a living worker (its Back read first: the
                # table decides, in its order; a tryout's player was marked away so,
                # connected and playing, and the away limit forfeited his match)
                proxy.table.post(Away(proxy.name, went=proxy))
            for table_id in list(proxy.observing):
                watched = self.lobby.tables.get(table_id)
                if watched is not None:
                    watched.post(Unobserve(proxy))
            self._gone(owner, sid)


def _take_settings(proxy: RemoteSession, who: list[Any]) -> None:
    """The settings ``who`` tells (payloads.who_for_bus) taken by ``proxy``: how its
    player is spoken to here (his name and the rest are ``Node._proxy``'s)."""
    style, lang, order, clock, tell = who[2:7]
    connection = proxy.connection
    connection.style, connection.lang = style, Lang(lang)
    connection.hand_order = HandOrder(order)
    connection.clock = None if clock is None else ClockChoice(clock)
    connection.tell = Tell(tell)


def _session_of(login: LoginMark | None) -> int | None:
    return None if login is None else login.session


def _raced(here: LoginMark, there: LoginMark) -> bool:
    """Whether two logins of a name on two workers were made each before its worker
    heard of the other; not if ``there`` was made knowing of ``here``: it is the later
    login and takes the name, as on one worker, whatever the hosts' clocks say."""
    return there.over != (here.worker, here.session)


def _keeps(login: LoginMark, other: LoginMark) -> bool:
    """Whether ``login`` keeps its name against ``other``, a login of it on another
    worker made at the same time (``_raced``): a login with a right to the name (its
    password, a guest's token) beats a claim; of two claims the first holds it (a name
    is never taken from its holder); of two rightful logins the last, as on one
    worker. Every worker decides the same: exactly one keeps the name."""
    here, there = login.ranked(), other.ranked()
    if here[0] != there[0]:
        return not here[0]
    if here[0]:
        return here[1:] < there[1:]
    return here[1:] > there[1:]


def _tagged_if_alongside(session: Session, table: int, text: str) -> str:
    """``text``, lines of table ``table`` another worker holds, each after ``[table N]``
    if ``session`` watches that table alongside another (sits at, or watches, one of
    this worker's or a third's): only here is all of that known (docs/protocol.md
    §5.7; a review, s44: such a watcher heard them untagged)."""
    if not session.watches_alongside(table):
        return text
    lines = tagged_lines(text.split("\r\n")[:-1], table, session.connection.lang)
    return "".join(line + "\r\n" for line in lines)
