"""The running server: listeners, a task per connection (its reader; a writer task only
while a socket is full), shutdown. ``serve`` (server/app.py) binds the ports and opens
the store, then runs it here.

A connection is any ``trio.abc.Stream`` (``Server.handle``): the listener hands it
sockets, tests may hand it memory streams. The protocol itself is the sans-IO
``Connection`` (protocol/connection.py); this module only feeds it and writes its
bytes. A handler's failure is logged and ends only its own connection.
"""

from __future__ import annotations

import enum
import errno
import functools
import gc
import itertools
import math
import os
import random
import signal
import socket
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.hangup import drain, hangup, leave_the_terminal_on_hangup
from deberc_net.plugins import RuleBook
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, TableCallText, for_log
from deberc_net.protocol.connection import (
    NEED_DATA,
    Connection,
    Limits,
    Reply,
    State,
    TimeoutCode,
)
from deberc_net.protocol.messages import Msg, Phrase, phrase
from deberc_net.start_up import resume

from .addresses import Network, limited_address, listed, networks, peer_of, plain_ip
from .app import ListenError, sole_exception
from .config import Config, cannot_listen
from .limits import AddressBuckets, SharedBucket
from .lobby import Lobby
from .local import LOCAL_ADDRESS, LocalStream, Receiver, local_stream_pair
from .logs import LifecycleLog
from .own_stall import lone_server_watch
from .poller import AVAILABLE as POLLER_AVAILABLE
from .poller import KEEP, Poller
from .ports import close_all, listen_on
from .proxy_header import ERROR_CODE, TEXT, BadHeader, Client, Problem, read_header
from .run_order import restore, serve_in_arrival_order
from .session import Ending, Outbox, Session
from .store import Store, describe
from .summaries import Summaries

if TYPE_CHECKING:
    from .cluster import WorkerPlace
    from .moderation import Moderation

log = structlog.get_logger("deberc.server")
# listening, shutdown, stopped: written whatever log_level says (server/logs.py)
lifecycle_log = LifecycleLog("deberc.server")
_ids = itertools.count(1)
READ_SIZE = 4096
# chat allowances of addresses kept (the last connection gone, not yet refilled) before
# they are looked through for refilled ones
ADDRESSES_KEPT = 1000
GONE = "?"  # the address and peer of a socket gone before it was looked at
# accept's errors that mean "no room now" (as trio's serve_listeners): wait and go on
_ACCEPT_CAPACITY_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
# how long an ended connection's last lines wait for a client that does not read them
# (its slot is not held for ever)
FINAL_FLUSH_S = 30.0
# a refused connection's own lines are read and dropped until it closes, so that the
# close sends no reset over the refusal (_refuse); bounded: a refused client holds
# its address's count no longer than this
REFUSED_LINGER_S = 0.5
REFUSED_LINGER_BYTES = 16384
# a reader's deadline is left where it is unless the connection's comes earlier or this
# much later; one this near is lifted while a command is handled (never cut short)
DEADLINE_SLACK_S = 60.0
# a server owning its process collects its young objects after this many new ones: at
# the interpreter's 700 that cost ~9 µs a call at 100 busy tables, at 5000 ~2 µs, with
# no more pauses over 5 ms (docs/performance.md, "The collector's young threshold")
YOUNG_COLLECTION_AFTER = 5000
# how often a stopping server looks whether anyone is left to tell (_anyone_to_tell)
SHUTDOWN_POLL_S = 0.01
# how often a draining server looks whether any match is left to play (drain.py)
DRAIN_POLL_S = 0.1
# how long a stopping server's store calls wait for a connection (PostgreSQL's pool)
STOPPING_STORE_WAIT_S = 1.0


async def run(
    config: Config,
    store: Store,
    game_sockets: list[trio.socket.SocketType],
    http_socket: socket.socket | None,
    rules: RuleBook,
    *,
    task_status: trio.TaskStatus[Any] = trio.TASK_STATUS_IGNORED,
    handle_signals: bool = False,
    http_bound: Callable[[int], None] | None = None,
    local_bound: Callable[[LocalLink], None] | None = None,
    worker: WorkerPlace | None = None,
    ready: Callable[[int], None] | None = None,
) -> None:
    """The server on ``game_sockets`` (bound, not yet listening; a worker's: none) and
    ``http_socket``, with ``store`` open (``serve`` in server/app.py: the arguments are
    its own); closes them when it ends."""
    listeners: list[trio.SocketListener] = []
    own: trio.SocketListener | None = None  # the house bots' port, when they have their own
    lobby: Lobby | None = None
    server: Server | None = None
    coin: random.Random | None = None  # trio's, while this server serves in arrival order
    failed = False  # the server ends by an exception: that is its reason, not a later one
    try:
        try:
            listeners = listen_on(game_sockets)
        except OSError as exc:  # bound by another server that started as this one did
            raise ListenError(cannot_listen(config.host, config.port, exc)) from None
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rules)
            await lobby.moderation.recall()
            nursery.start_soon(_heartbeat, store, config)
            nursery.start_soon(_looks_at_mutes, config, lobby.moderation)
            if http_socket is not None:
                # its libraries load only when served, and before a worker joins the
                # others: the import holds the loop (1.0-1.3 s at load 30), and a worker
                # that silent on the bus was taken for dead (server_dead_ms 3 s, a test)
                from .web import serve_http
            if worker is not None:
                shared, own = await _join_workers(lobby, store, worker, nursery)
                listeners = [shared]
            else:  # (a worker's node draws them, shared with the other workers)
                await trio.to_thread.run_sync(lobby.table_numbers.fill)
                # (a worker's node looks at its own stall as it watches the living)
                lobby.stall = lone_server_watch(lobby)
                nursery.start_soon(lobby.stall.look_from_a_thread)
                if config.game_proxies:  # this machine's address may be a listed proxy's,
                    # whose connections must begin with a header: the house bots send none
                    [own] = await trio.open_tcp_listeners(0, host="127.0.0.1")
            port = listeners[0].socket.getsockname()[1]
            lobby.house.host, lobby.house.port = _local(config.host), port  # house bots dial it
            if own is not None:  # (a worker's: its own loopback port, not the shared one)
                lobby.house.host, lobby.house.port = "127.0.0.1", own.socket.getsockname()[1]
            if http_socket is not None:
                try:
                    http_port = await nursery.start(serve_http, config, lobby, http_socket)
                except (OSError, BaseExceptionGroup) as exc:  # hypercorn listens in its nurseries
                    bind = sole_exception(exc)
                    if not isinstance(bind, OSError):
                        raise
                    raise ListenError(
                        cannot_listen(config.web_host(), config.http_port, bind, web=True)
                    ) from None
                lifecycle_log.info("http_listening", host=config.web_host(), port=http_port)
                if http_bound is not None:
                    http_bound(http_port)
            server = Server(config, lobby, nursery)
            server.serves_web = http_socket is not None
            # an admin's 'drain' begins the drain SIGUSR1 begins (server/drain.py)
            lobby.drain.whole = functools.partial(_drain_for_an_admin, server, nursery, config)
            if lobby.node is not None:  # a lost bus tells them too (cluster/bus_lost.py)
                lobby.node.not_logged_in = server.not_logged_in
            # accepting to the end, a stop's grace too: a newcomer then is refused in one
            # line (Server._refusal), not left unanswered in the kernel's queue
            nursery.start_soon(server.accept, listeners, own)
            if local_bound is not None:
                local_bound(LocalLink(server, nursery))
            if handle_signals:  # before 'listening': a signal right after it is handled
                await nursery.start(_on_signal, server, nursery, config)
                # the process is this server's own (the CLI's, a worker's): what start-up
                # made (modules, rules, the lobby) lives as long as it does, so the
                # collector's full passes stop walking it (one took some 30 ms, every
                # thousand-odd calls of a busy server: 5-8 % of its CPU)
                gc.freeze()
                resume()  # the collector paused for the CLI's start-up (start_up.py)
                # and its young collections rarer: each walks every task's waits (~1,200
                # coroutines at 100 busy tables) however few objects are new, 700 new
                # ones apart by default (docs/performance.md, "The collector's threshold")
                gc.set_threshold(YOUNG_COLLECTION_AFTER, *gc.get_threshold()[1:])
                # and its woken readers served first come, first served: trio's coin
                # made a busy server's slowest calls wait two rounds of every table's
                coin = serve_in_arrival_order()
            if worker is None:
                lifecycle_log.info(
                    "listening",
                    host=config.host,
                    port=port,
                    db=describe(config.db),
                    **config.web_off(),
                )
            else:
                # its server id: the others' worker_lost 'lost' and worker_left 'left' name it
                pid, server_id = os.getpid(), store.server_id
                # 'port': its own (its house bots'); 'shared_port': the players'
                lifecycle_log.info(
                    "worker_listening",
                    worker=worker.index,
                    pid=pid,
                    port=lobby.house.port,
                    shared_port=port,
                    server=server_id,
                )
            task_status.started(port)
            if ready is not None:
                ready(port)
    except BaseException:
        failed = True
        raise
    finally:
        restore(coin)
        # closed here, not left to the collector (a failure's traceback keeps them)
        if server is not None:
            server.close_poller()
        close_all(game_sockets)
        for listener in [*listeners, *([own] if own else [])]:  # a worker's own
            listener.socket.close()
        if http_socket is not None:  # hypercorn's once served (detached: no-op)
            http_socket.close()
        if lobby is not None:
            lobby.writes.close()  # every deal and result queued is written first
            try:  # (a store that fails here keeps a gap in the numbers, no more)
                lobby.give_back_numbers()
            except Exception:
                log.warning("numbers_give_back_failed", exc_info=True)
        try:
            store.close()
        except Exception:
            if not failed:
                raise
            # (its database gone: a lost bus, cluster/bus_lost.py) the first cause stays
            # the reason the server ended, said by a worker's parent (worker_died)
            log.warning("store_close_failed", exc_info=True)
        lifecycle_log.info("stopped")


async def _join_workers(
    lobby: Lobby, store: Store, worker: WorkerPlace, nursery: trio.Nursery
) -> tuple[trio.SocketListener, trio.SocketListener]:
    """One of ``serve --workers``: the bus and the lobby's copy first, then the shared
    port (SO_REUSEPORT: the kernel spreads new connections over the workers; each worker
    reads its own connections' PROXY headers), and a loopback port of its own for the
    house bots it starts (a house bot's name is known only to the worker that started
    it)."""
    from .cluster.launch import reuseport_socket
    from .cluster.node import Node

    assert store.server_id is not None
    node = Node(lobby, worker, store.server_id)
    node.open()
    lobby.node = node
    await nursery.start(node.run)
    sock = reuseport_socket(lobby.config.host, lobby.config.port)
    sock.listen(1024)
    shared = trio.SocketListener(trio.socket.from_stdlib_socket(sock))
    [own] = await trio.open_tcp_listeners(0, host="127.0.0.1")
    return shared, own


def _local(host: str) -> str:
    """Where a process on this machine reaches a server listening on ``host``."""
    return {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)


async def _heartbeat(store: Store, config: Config) -> None:
    """Tell the store this server lives; end the matches of servers that died (not on
    a beat that came late: Store.heartbeat)."""
    every_s = config.heartbeat_ms / 1000
    while True:
        await trio.sleep(every_s)
        try:
            dead_after_s = config.server_dead_ms / 1000
            ended = await trio.to_thread.run_sync(store.heartbeat, dead_after_s, every_s)
        except Exception:  # the database away for a moment: the server plays on
            log.exception("heartbeat_failed")
            continue
        if ended:
            log.warning("dead_servers_matches_ended", matches=ended)


async def _looks_at_mutes(config: Config, moderation: Moderation) -> None:
    """Take up the mutes made or lifted on other servers on the database, every
    heartbeat_ms (moderation.py): a task of its own, so a look held up by the store
    never holds up the beats by which the other servers know this one lives."""
    while True:
        await trio.sleep(config.heartbeat_ms / 1000)
        try:
            await moderation.look()
        except Exception:  # the mutes known here hold till the next look
            log.exception("mutes_look_failed")


async def _on_signal(
    server: Server,
    nursery: trio.Nursery,
    config: Config,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    # SIGHUP too (the terminal closed), unless ignored (nohup): a stop, not a crash;
    # SIGUSR1: a drain, the stop once the running matches are over (§11.4a)
    stops = (signal.SIGINT, signal.SIGTERM, *hangup())
    stopped = False  # a stop signal came: the stop runs beside, this still listens
    with trio.open_signal_receiver(*stops, *drain()) as signals:
        task_status.started()  # the signals are ours from here (until the stop's end)
        async for signum in signals:
            name = signal.Signals(signum).name
            if signum not in stops:
                # begun already, or the server stops: one drain, one stop (logged)
                if stopped or not _begin_drain(server, nursery, config, signal=name):
                    log.warning("drain_ignored", signal=name)
                continue
            leave_the_terminal_on_hangup(signum)
            if stopped:  # a server stops once (§11.4)
                continue
            stopped = True
            # run beside this task, which goes on listening: a SIGUSR1 during the stop
            # is logged drain_ignored (docs/settings.md, "Logs"), not handed back to the
            # process as the receiver closed
            told = phrase(Msg.SIGNAL_RECEIVED, signal=name)
            nursery.start_soon(functools.partial(_stop, server, nursery, config, told, signal=name))


def _begin_drain(server: Server, nursery: trio.Nursery, config: Config, **why: str) -> bool:
    """Begin the drain (§11.4a), logged with ``why`` (its signal, or the admin who
    asked), and the stop once it is over; False, nothing done, if it has begun already
    or the server stops."""
    lobby = server.lobby
    if server.stopping or not lobby.drain.begin():
        return False
    # under serve --workers, its players' matches at other workers' tables too: it
    # waits for those as for its own (Drain.over); a server of one process has none
    drain = lobby.drain
    lifecycle_log.info("drain", **why, matches=drain.playing(), elsewhere=drain.elsewhere())
    nursery.start_soon(_stop_when_drained, server, nursery, config)
    return True


def _drain_for_an_admin(server: Server, nursery: trio.Nursery, config: Config, admin: str) -> bool:
    return _begin_drain(server, nursery, config, admin=admin)


async def _stop_when_drained(server: Server, nursery: trio.Nursery, config: Config) -> None:
    """A drain's end: once no match is left to play, the stop SIGTERM makes (a SIGTERM
    meanwhile has made it already: nothing more to do); at ``drain_limit_ms``, that stop
    whatever still plays."""
    drain = server.lobby.drain
    node = server.lobby.node
    began = trio.current_time()
    limit = began + config.drain_limit_ms / 1000 if config.drain_limit_ms else math.inf
    # under serve --workers the web face (worker 0's) answers 503 'draining' until every
    # worker that drains with it has stopped, not only till its own matches are over;
    # and each trusts its players' seats at the others' tables once it has heard those
    # tables since the drain began (a match started there a moment ago looked waiting)
    while (
        not drain.over()
        or (node is not None and not node.others_told_tables_since(began))
        or (server.serves_web and node is not None and node.others_may_drain(began))
    ):
        if trio.current_time() >= limit:
            break
        await trio.sleep(min(DRAIN_POLL_S, max(0.0, limit - trio.current_time())))
    if server.stopping or not server.lobby.accepting:  # (a lost bus's stop: bus_lost.py)
        return
    if not drain.over():  # the limit: those still playing are cut, as by SIGTERM
        lifecycle_log.info("drain_limit", matches=drain.playing(), elsewhere=drain.elsewhere())
        said = phrase(Msg.DRAIN_LIMIT)
        await _stop(server, nursery, config, said, at_drain_limit=True, reason="drain-limit")
        return
    lifecycle_log.info("drained")
    # a worker of several says its own: another worker's match may still be running
    drained = Msg.DRAINED if node is None else Msg.DRAINED_WORKER
    await _stop(server, nursery, config, phrase(drained), reason="drained")


async def _stop(
    server: Server,
    nursery: trio.Nursery,
    config: Config,
    told: str | Phrase,
    at_drain_limit: bool = False,
    **logged: str,
) -> None:
    """Stop the server (docs/protocol.md §11.4): everyone told why (``told``), the tables
    closed, a grace to flush, the connections closed, the nursery cancelled. Once: a
    second call (a SIGTERM as a drain's stop runs) does nothing. ``at_drain_limit``: the
    stop is a drain's at drain_limit_ms (cluster/node.py tell_seats_kept)."""
    if server.stopping:
        return
    server.stopping = True
    lobby = server.lobby
    lifecycle_log.info("shutdown", **logged)
    # its last store calls (the tables' records, its own row) wait a moment for
    # a connection, not the pool's 30 s each: a database away does not hold it
    lobby.store.hurry(STOPPING_STORE_WAIT_S)
    # the matches this stop ends unfinished (stored with reason=shutdown)
    playing = lobby.drain.playing()
    if playing:
        log.warning("matches_stopped", matches=playing)
    # web pages watch as a table's observers, not online: their last lines are
    # sent after their table closes, so a watched server waits its grace in full
    # (a page here on another worker's table: those lines come over the bus)
    watched = any(t.observers for t in lobby.tables.values() if not t.remote) or (
        lobby.node is not None and lobby.node.watched_from_here()
    )
    # those not logged in are told too (they got only the close)
    lobby.shutdown(told, server.not_logged_in())
    if watched:
        await trio.sleep(config.shutdown_grace_ms / 1000)
    else:  # the grace is for those told: with nobody left, the stop is at once
        with trio.move_on_after(config.shutdown_grace_ms / 1000):
            while _anyone_to_tell(lobby):
                await trio.sleep(SHUTDOWN_POLL_S)
    if lobby.node is not None:  # seats at other servers' tables that play on
        lobby.node.tell_seats_kept(told, at_drain_limit)
    if leaving := [*lobby.online.values(), *server.not_logged_in()]:
        for session in leaving:
            session.close(Ending.SHUTDOWN)
        await trio.sleep(0.2)
    nursery.cancel_scope.cancel()


def _anyone_to_tell(lobby: Lobby) -> bool:
    """Whether a stopping server's grace (docs/settings.md, ``shutdown_grace_ms``) has
    anyone left to flush to: a session online (a player, a watcher, a house bot, a
    ladder's), or a table of its own not yet closed (it tells its seats, and queues
    its record first)."""
    return bool(lobby.online) or any(not table.remote for table in lobby.tables.values())


class Refusal(enum.Enum):
    """Why a new connection is refused: its ``refused`` log line's ``reason``."""

    FULL = "full"  # max_connections, every one logged in
    PER_ADDRESS = "per-address"  # max_connections_per_address
    SHUTTING_DOWN = "shutting-down"


# what the refused client is told (docs/protocol.md §2.1): error code=busy text=...
REFUSAL_TEXT = {
    Refusal.FULL: "the server is full",
    Refusal.PER_ADDRESS: "too many connections from your address",
    Refusal.SHUTTING_DOWN: "the server is shutting down",
}


# what a connection not logged in is told when it is closed for a newcomer
MADE_ROOM_TEXT = phrase(Msg.MADE_ROOM).text()  # (said before any session: English)


def _log_refused(**fields: Any) -> None:
    log.warning("refused", **fields)


def _log_unlisted_proxy(**fields: Any) -> None:
    log.warning("proxy_header_not_listed", **fields)


def _log_flood(**fields: Any) -> None:
    log.warning("flood", **fields)


class Server:
    """Serves connections on any streams, for one lobby."""

    def __init__(self, config: Config, lobby: Lobby, nursery: trio.Nursery) -> None:
        self.config = config
        self.lobby = lobby
        self.nursery = nursery  # where connections and their writers run
        self._start_writer = self._started_writer  # one callable for every outbox
        self._make_buckets = self._made_buckets  # (and for every session)
        # a scope never entered, for a session's aborts to cancel while its reader does
        # a table's work (Server._received)
        self._quiet_scope = trio.CancelScope()
        # the socket connections' reads, waited for by one task (server/poller.py)
        self._poller = Poller(self.handled_here, nursery.start_soon) if POLLER_AVAILABLE else None
        # trio.current_time's answer in one call, not three (a read takes the time)
        self._now = trio.lowlevel.current_clock().current_time
        self.sessions: dict[Session, None] = {}  # every open connection, oldest first
        self.per_address: Counter[str] = Counter()
        # each address's chat allowance, shared by its connections (docs/security.md §3)
        self.address_says = AddressBuckets(
            config.say_per_address_per_s, config.say_per_address_burst, ADDRESSES_KEPT
        )
        # and its long texts and looks in the store (docs/security.md §2)
        self.address_lists = AddressBuckets(
            config.lists_per_address_per_s, config.lists_per_address_burst, ADDRESSES_KEPT
        )
        # and its seats given up at waiting tables (docs/security.md §6)
        self.address_churn = AddressBuckets(
            config.seat_churn_per_address_per_s,
            config.seat_churn_per_address_burst,
            ADDRESSES_KEPT,
        )
        self.pending = 0  # accepted, and not yet given a session
        # connections from a listed proxy still waiting for their PROXY header, oldest
        # first, each with the scope that ends its wait (to make room) and when it came:
        # counted in max_connections, as a connection not logged in is
        self.awaiting_header: dict[trio.CancelScope, float] = {}
        self.serves_web = False  # this server's web face is on (a drain's end waits)
        # the peers whose connections begin with a PROXY header (proxy_header.py)
        self.game_proxies = networks(config.game_proxies)
        self.stopping = False  # its stop has begun (_stop): a server stops once
        # refused connections: the first of a reason logged, then counted (a full server
        # may refuse thousands a second)
        self.refusals = Summaries(_log_refused, nursery)
        # PROXY headers from peers not in game_proxies (read as lines): likewise
        self.unlisted_proxies = Summaries(_log_unlisted_proxy, nursery)
        # connections cut off for flooding: 5 KB and a connect each, as fast as one can
        # connect (a line each was a warning a connection: a hostile tryout's)
        self.floods = Summaries(_log_flood, nursery)
        self.limits = Limits(
            max_line=config.max_line,
            flood_lines_per_s=config.flood_lines_per_s,
            flood_burst=config.flood_burst,
            partial_line_s=config.partial_line_ms / 1000,
            login_timeout_s=config.login_timeout_ms / 1000,
            idle_timeout_s=config.idle_timeout_ms / 1000,
        )
        # a ladder's own in-process bots (LocalLink): no flood limit. Their lines reach
        # the server when its loop reads them, so a loop held up (a loaded machine, a
        # bot's choose in the loop) handed a bot's backlog over at once, counted as if
        # sent that fast: a tryout's bot was cut off and reconnected, its seat away and
        # nothing counted in the run's faults (docs/security.md §2)
        self.local_limits = attrs.evolve(self.limits, flood_burst=math.inf)

    async def accept(
        self, listeners: list[trio.SocketListener], own: trio.SocketListener | None = None
    ) -> None:
        """Serve what the listeners accept, each connection a task of the server's
        nursery (its handler is the task's only coroutine: an idle connection holds
        little). ``own``: the house bots' loopback port, where no PROXY header is read."""
        async with trio.open_nursery() as accepting:
            for listener in listeners:
                accepting.start_soon(self._accept, listener, self.game_proxies)
            if own is not None:
                accepting.start_soon(self._accept, own, ())

    async def _accept(self, listener: trio.SocketListener, proxies: tuple[Network, ...]) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:  # out of descriptors or memory: wait, as trio's serve does
                if exc.errno not in _ACCEPT_CAPACITY_ERRNOS:
                    raise
                log.error("accept_failed", error=os.strerror(exc.errno or 0))
                await trio.sleep(0.1)
                continue
            address, peer = socket_peer(stream)
            if peer == GONE:  # reset while it waited to be accepted (a proxy's health
                # check): nobody to serve, count or log (it was a session of address '?')
                stream.socket.close()
                continue
            if proxies and _from_proxy(peer, proxies):
                self.nursery.start_soon(self._handle_proxied, stream, address, peer)
            else:
                self.nursery.start_soon(self.handle, stream, address, peer)

    async def _handle_proxied(self, stream: trio.SocketStream, address: str, peer: str) -> None:
        """A connection from a listed proxy (``game_proxies``): its PROXY header first,
        within the login's time, then served as the client the header names (``PROXY
        UNKNOWN``: as the proxy). A header missing, late or wrong is told in one line and
        the connection closed, before it is counted against any address."""
        opened = self._now()  # (the login's time counts from here, not from the header)
        waiting = trio.CancelScope()
        self.awaiting_header[waiting] = opened
        client: Client | None = None
        try:
            refusal = Refusal.SHUTTING_DOWN if not self.lobby.accepting else None
            if refusal is None and not self._room(newcomer=waiting):
                refusal = Refusal.FULL
            if refusal is not None:
                self.refusals.note(refusal.value, address, peer=peer)
                del self.awaiting_header[waiting]
                await _refuse(stream, REFUSAL_TEXT[refusal])
            else:
                with waiting, trio.fail_after(self.limits.login_timeout_s):
                    client = await read_header(stream.socket)
                # closed to make room for a newcomer (_room): cancelled, or told so
                # just as its header came in (then not raised)
                if waiting.cancel_called:
                    log.info("disconnect", peer=peer, reason=Ending.MADE_ROOM.value)
                    await _refuse(stream, MADE_ROOM_TEXT)
                else:
                    self.awaiting_header.pop(waiting)  # counted from here as a session
                    if client is not None:
                        address, peer = limited_address(client.host), client.peer()
                    await self.handle(stream, address, peer, opened=opened)  # (closes it)
                    return
        except (BadHeader, trio.TooSlowError) as exc:
            problem = exc.problem if isinstance(exc, BadHeader) else Problem.TOO_SLOW
            log.warning("bad_proxy_header", peer=peer, reason=problem.value)
            await _refuse(stream, TEXT[problem], ERROR_CODE)
        except (OSError, EOFError):  # gone before its header: nothing to tell, nobody to count
            pass
        except Exception:  # a failure here ends this connection, never the server
            log.exception("connection_error")
        finally:
            self.awaiting_header.pop(waiting, None)
        with trio.move_on_after(1):
            await stream.aclose()

    async def handle(
        self,
        stream: trio.abc.Stream,
        address: str = "?",
        peer: str = "?",
        *,
        opened: float | None = None,
    ) -> None:
        """Serve one connection until it ends; ``address`` is what the per-address
        limits count (a socket's peer host, or the client a PROXY header named), ``peer``
        what the log shows, ``opened`` when it was accepted (now if not given). The
        reader is this coroutine itself; the writer a task started only while something
        waits to be written (``_writer``)."""
        self.per_address[address] += 1
        self.pending += 1
        session: Session | None = None
        try:
            refusal = self._refusal(address)
            if refusal is not None:
                self.pending -= 1
                self.refusals.note(refusal.value, address, peer=peer)
                await _refuse(stream, REFUSAL_TEXT[refusal])
                return
            session = self._open(stream, address, peer, opened)
            # said hello once `session` is set, so that the finally below always closes it
            self.lobby.hello(session)
            await self._read(stream, session)
            outbox = session.outbox
            session.close()  # the writer flushes, then ends
            if outbox.writer_running:  # wait for it (or for an abort), a while at most
                with trio.move_on_after(FINAL_FLUSH_S) as flushed:
                    session.cancel_scope = flushed
                    await trio.sleep_forever()
        except Exception:  # a handler's failure ends its connection, never the server
            log.exception("connection_error")
            if session is not None:
                session.ending(Ending.INTERNAL)
        finally:
            if session is not None:
                self._closed(session)
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]
            with trio.move_on_after(1):
                await stream.aclose()

    def not_logged_in(self) -> list[Session]:
        """The connections open that have not logged in (yet)."""
        return [
            s for s in self.sessions if s.connection.state is State.AWAITING_LOGIN and not s.closed
        ]

    def _refusal(self, address: str) -> Refusal | None:
        """Why this new connection is refused, or None: a full server first closes the
        oldest connection that has not logged in, so idle sockets cannot keep players out."""
        if not self.lobby.accepting:
            return Refusal.SHUTTING_DOWN
        per_address = self.config.max_connections_per_address
        if per_address and self.per_address[address] > per_address:
            return Refusal.PER_ADDRESS
        if not self._room():
            return Refusal.FULL
        return None

    def _room(self, newcomer: trio.CancelScope | None = None) -> bool:
        """Whether the connection just counted (in ``pending`` or ``awaiting_header``)
        fits in ``max_connections``: if not, the oldest connection not logged in (a
        session, or one still waiting for its PROXY header other than ``newcomer``) is
        closed to make room; False when there is none."""
        if len(self.sessions) + self.pending + len(self.awaiting_header) <= (
            self.config.max_connections
        ):
            return True
        idle = next((s for s in self.sessions if s.connection.state is State.AWAITING_LOGIN), None)
        waiting = [
            (scope, at) for scope, at in self.awaiting_header.items() if scope is not newcomer
        ]
        if waiting and (idle is None or waiting[0][1] < idle.connection.connected_at):
            scope = waiting[0][0]
            scope.cancel()
            del self.awaiting_header[scope]
            return True
        if idle is None:
            return False
        idle.send(ev.error("busy", phrase(Msg.MADE_ROOM)))
        idle.close(Ending.MADE_ROOM)
        self.sessions.pop(idle, None)
        return True

    def _open(
        self, stream: trio.abc.Stream, address: str, peer: str, opened: float | None
    ) -> Session:
        """A new connection's session, listed in ``sessions``."""
        outbox = Outbox(self.config.outbox_bytes)
        limits = self.limits
        if isinstance(stream, trio.SocketStream):
            outbox.fd = stream.socket.fileno()
        elif isinstance(stream, LocalStream):
            outbox.direct = stream.write_nowait
            limits = self.local_limits
        connection = Connection(trio.current_time() if opened is None else opened, limits)
        # the scope 'abort' cancels: the reader's, once it reads (_read)
        scope = trio.CancelScope()
        # its allowances made when first spent (``_made_buckets``): an idle one holds none
        session = Session(
            next(_ids),
            outbox,
            scope,
            connection,
            peer=peer,
            address=address,
            says=None,
            lists=None,
            seat_churn=None,
            make_buckets=self._make_buckets,
        )
        # a writer task only while something waits to be written (most lines go out at
        # once: Outbox.direct)
        outbox.session, outbox.start_writer = session, self._start_writer
        session.stream = stream
        self.pending -= 1
        self.sessions[session] = None
        session.log.info("connect")
        return session

    def _made_buckets(self, session: Session) -> None:
        """``session``'s allowances, each drawing on its address's (docs/security.md §2,
        §3, §6: an address's connections share them), made when it first spends one."""
        c, address, now = self.config, session.address, self._now()
        shared = self.address_says.of(address, now, self.per_address)
        session.says = SharedBucket(c.say_per_s, c.say_burst, shared=shared)
        lists = self.address_lists.of(address, now, self.per_address)
        session.lists = SharedBucket(c.lists_per_s, c.lists_burst, shared=lists)
        churn = self.address_churn.of(address, now, self.per_address)
        session.seat_churn = SharedBucket(c.seat_churn_per_s, c.seat_churn_burst, shared=churn)

    def _closed(self, session: Session) -> None:
        self.sessions.pop(session, None)
        self.lobby.disconnected(session)
        session.connection.close()
        outbox = session.outbox
        outbox.start_writer = None  # the connection is over: no writer starts again
        outbox.drop()
        session.log.info("disconnect", reason=(session.ended or Ending.BY_SERVER).value)

    def _started_writer(self, session: Session) -> None:
        self.nursery.start_soon(self._writer, session)

    async def _writer(self, session: Session) -> None:
        """Send what is queued, then end; once the outbox is closed (and drained), end the
        connection too. Started again by the outbox when more is queued. Its scope is
        its own, which 'abort' cancels."""
        outbox = session.outbox
        stream = session.stream
        assert stream is not None
        with trio.CancelScope() as scope:
            outbox.writer_scope = scope
            try:
                while outbox.chunks:
                    outbox.writing = True
                    await stream.send_all(outbox.take())
                    outbox.writing = False
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                session.abort(Ending.CONNECTION_LOST)  # the link is gone
            except Exception:  # a bug here ends this connection, never the server
                session.log.exception("writer_error")
                session.abort(Ending.INTERNAL)
            finally:
                outbox.writing = False
                outbox.writer_scope = None
        outbox.writer_running = False
        if outbox.closed:
            session.cancel_scope.cancel()  # the reader (or the handler waiting for this)

    async def _command(self, session: Session, item: Command | TableCallText) -> None:
        """One command; a bug in its handling costs the client an error, not the link."""
        try:
            await self.lobby.handle(session, item)
        except Exception:
            session.log.exception("command_error", item=for_log(item))
            session.send(ev.Error("internal", "the server could not do that; sorry"))

    async def _read(self, stream: trio.abc.Stream, session: Session) -> None:
        """Feed the connection what the stream gives; hand the lobby what comes out.
        A socket is read by its descriptor (trio's stream adds four frames to every
        idle connection and to every read), its reader parked in the poller (most of
        its calls handled there: ``handled_here``)."""
        fd = stream.socket.fileno() if isinstance(stream, trio.SocketStream) else -1
        poller = self._poller if fd >= 0 else None
        try:
            await self._reading(stream, session, fd, poller)
        finally:
            if poller is not None:
                poller.forget(fd)  # (before the socket closes: its number is reused)

    def close_poller(self) -> None:
        """The poller's epoll closed: its tasks have ended (``run``'s end)."""
        if self._poller is not None:
            self._poller.close()

    async def handled_here(self, session: Session, fd: int) -> object:
        """The poller's turn at ``session``'s readable socket, its reader parked: a
        table call read whole, to a table that may take it, handled in the poller's
        task as the reader would (``_received``'s first case). ``KEEP``: done, the reader
        stays parked; None: the reader reads the socket itself; a float: what was read
        is in the connection (read then), for the reader."""
        connection = session.connection
        table = session.table
        if (
            table is None
            or table.remote
            or session.requests_waiting
            or connection.closed
            or connection.has_input
        ):
            return None
        now = self._now()
        if not table.may_handle_here(now):
            return None
        try:
            data = os.read(fd, READ_SIZE)
        except BlockingIOError:  # woken, and nothing there after all
            return KEEP
        except OSError:  # the reader reads it again, and ends the connection
            return None
        if not data:
            return None
        item = connection.receive_call(data, now)
        if item is None:
            return now
        # an abort of this connection meanwhile cancels a scope nobody is in (as in
        # _received): the closed connection wakes the reader after
        reading, session.cancel_scope = session.cancel_scope, self._quiet_scope
        try:
            await table.call_here(session, item.text, item.seq, now)
        finally:
            session.cancel_scope = reading
        return KEEP

    async def _reading(
        self, stream: trio.abc.Stream, session: Session, fd: int, poller: Poller | None
    ) -> None:
        connection = session.connection
        while not connection.closed:
            # one scope for many reads, its deadline moved as the connection's moves
            # (a scope a read costs time); a new one only after it fired too early.
            # It is the session's: 'abort' cancels it.
            with trio.CancelScope() as waited:
                session.cancel_scope = waited
                set_to = math.inf  # the scope's deadline, as set here (reading it costs a call)
                # lines already read that the last scope's deadline cut off, early (up
                # to DEADLINE_SLACK_S), while the reader waited for a table to answer the
                # line before them (docs/protocol.md §2.3): handled now, without a
                # deadline (lines read are no silence), not left till more bytes come
                if connection.has_input and not await self._received(
                    session, b"", trio.current_time()
                ):
                    return
                while not connection.closed:
                    # moved only to an earlier time, or later by more than DEADLINE_SLACK_S
                    # (each line moves the idle deadline, and a move costs a few µs): it
                    # is never after the connection's, and a wake-up before that is seen
                    # as such below
                    due = connection.deadline()[0]
                    if due < set_to or due > set_to + DEADLINE_SLACK_S:
                        waited.deadline = set_to = due
                    data: bytes | bytearray
                    if poller is not None:
                        got = await poller.wait(fd, session)
                        if got is not None:  # handled by the poller, or read into the connection
                            if type(got) is float:
                                now = got
                                if set_to < now + DEADLINE_SLACK_S:
                                    waited.deadline = set_to = math.inf
                                if not await self._received(session, b"", now):
                                    return
                            continue
                    elif fd >= 0:
                        await trio.lowlevel.wait_readable(fd)
                    if fd >= 0:
                        try:
                            data = os.read(fd, READ_SIZE)
                        except BlockingIOError:  # woken, and nothing there after all
                            continue
                        except OSError:  # a reset is a disconnect, not a failure
                            session.ending(Ending.CONNECTION_LOST)
                            return
                    else:
                        try:
                            data = await stream.receive_some(READ_SIZE)
                        except trio.BrokenResourceError:
                            session.ending(Ending.CONNECTION_LOST)
                            return
                    now = self._now()
                    if set_to < now + DEADLINE_SLACK_S:
                        waited.deadline = set_to = math.inf  # handling a command is no silence
                    if not data:
                        session.ending(Ending.CLOSED_BY_PEER)
                        return
                    if not await self._received(session, data, now):
                        return
            if waited.cancelled_caught and not connection.closed:
                now = trio.current_time()
                goodbye = connection.timed_out(now)
                if goodbye is None:  # woken early: not due yet
                    continue
                if goodbye.error.code == TimeoutCode.IDLE.value and self.lobby.watches_a_match(
                    session
                ):  # a silent kibitzer is not idle while his match is played (the
                    # connection caps bound them; a slow reader is dropped all the same)
                    connection.watching(now)
                    continue
                session.send(goodbye.error)
                session.log.info("timeout", code=goodbye.error.code)
                session.ending(Ending.of_code(goodbye.error.code))
                return

    async def _received(self, session: Session, data: bytes | bytearray, now: float) -> bool:
        """Hand the lobby what ``data``, read at ``now``, completes (a call to an idle
        table: the table itself); False once the connection must end. ``now`` serves
        until the handling of a line waits."""
        connection = session.connection
        item: Command | TableCallText | Reply | None = None
        if session.requests_waiting:  # its line waits for those (below), as read
            connection.receive_data(data, now)
        else:  # a read that is one table call (most of a bot's) is that call at once
            item = connection.receive_call(data, now)
        whole = item is not None  # (then nothing else was read: no input after it)
        if not whole and connection.answers:  # telnet's options refused (framing.py)
            session.send_bytes(connection.take_answers())
        more = False  # a line of this read was taken: the next one waits a turn
        # when its lines came, for the flood limit: not later for the turns they waited
        arrived = now
        while not connection.closed:
            # a line passed to a table is answered before the next is taken (an
            # interrupted wait loses none): docs/protocol.md §2.3
            if item is None:
                if session.requests_waiting and connection.has_input:
                    await session.until_handled()
                    now = arrived = self._now()
                taken = connection.next_input(arrived)
                if taken is NEED_DATA:
                    break
                if more:  # a read of many lines never holds the process: the others
                    # run between its lines (docs/security.md §2); a one-line read pays nothing
                    await trio.lowlevel.checkpoint()
                    if connection.closed:  # closed meanwhile (a login elsewhere, a kick)
                        break
                    now = self._now()
                item, more = taken, True
            if isinstance(item, Reply):
                if item.proxy_header:
                    self.unlisted_proxies.note("unlisted", session.address, peer=session.peer)
                session.send(item.error)
                if item.hang_up:
                    if item.error.code == "flood":  # (its whole line as a session's)
                        named = {} if session.name is None else {"name": session.name}
                        self.floods.note(
                            "flood", session.address, conn=session.id, peer=session.peer, **named
                        )
                    else:
                        session.log.warning(item.error.code)
                    session.ending(Ending.of_code(item.error.code))
                    return False
                item = None
                continue
            table = session.table
            if (
                type(item) is TableCallText
                and table is not None
                and not table.remote
                and table.may_handle_here(now)
            ):
                # the table's task waits idle: this task handles the call (one task
                # switch a call, not two), without posting it. Meanwhile an abort of
                # this connection cancels a scope nobody is in (the table's work is not
                # its to cancel halfway): the closed connection ends the reader after.
                reading, session.cancel_scope = session.cancel_scope, self._quiet_scope
                try:
                    await table.call_here(session, item.text, item.seq, now)
                finally:
                    session.cancel_scope = reading
                if whole or not connection.has_input:  # (NEED_DATA, without next_input)
                    break
                now = self._now()
                item = None
                continue
            await self._command(session, item)
            now = self._now()
            item = None
        return True


class LocalLink:
    """Connections from inside the server's process (a ladder's in-process bots): the
    same protocol bytes through the same ``Server.handle``, over in-memory streams
    (server/local.py) instead of a socket. Their per-address limits count them under
    one address, ``in-process`` (``LOCAL_ADDRESS``)."""

    def __init__(self, server: Server, nursery: trio.Nursery) -> None:
        # the server it connects to: what the process that runs it does to it besides
        # (a test's drain, as SIGUSR1 would begin it)
        self.server = server
        self._nursery = nursery
        self._ids = itertools.count(1)

    def trust(self, name: str, secret: str) -> None:
        """``login NAME SECRET`` over this link logs in as the registered ``NAME`` (an
        admin if listed), without an account or a password hash (``Accounts.trust``)."""
        self.server.lobby.accounts.trust(name, secret)

    async def connect(self, receiver: Receiver | None = None) -> LocalStream:
        """A new connection: the client's end (the server serves the other end); what it
        is sent goes to ``receiver`` if given (server/local.py)."""
        client, served = local_stream_pair(receiver)
        peer = f"{LOCAL_ADDRESS}:{next(self._ids)}"
        self._nursery.start_soon(self.server.handle, served, LOCAL_ADDRESS, peer)
        return client


def _from_proxy(peer: str, proxies: tuple[Network, ...]) -> bool:
    """Whether ``peer`` (host and port, as ``socket_peer`` gives it) is a listed proxy."""
    ip = plain_ip(peer.rsplit(":", 1)[0].strip("[]").split("%", 1)[0])
    return ip is not None and listed(ip, proxies)


def socket_peer(stream: trio.SocketStream) -> tuple[str, str]:
    """A socket's client as the server takes it: the address its per-address limits
    count (an IPv6 host by its /64: ``limited_address``) and the peer its log shows
    (host and port); ``("?", "?")`` for a socket already gone."""
    try:
        host, port = stream.socket.getpeername()[:2]
    except OSError:
        return GONE, GONE
    return limited_address(str(host)), peer_of(str(host), port)


async def _refuse(stream: trio.abc.Stream, why: str, code: str = "busy") -> None:
    """Say ``busy`` (or ``code``) and end the connection so that the client reads it: a
    close with the client's first line still unread sends a reset, which may destroy
    the refusal unread in the client's buffer (a tryout's terminal client saw only
    "connection lost"). So: the line, our end's EOF, then the client's lines read and
    dropped until it closes, a moment and a few KiB at most."""
    try:
        with trio.move_on_after(1):
            await stream.send_all(f"error code={code} text={why}\r\n".encode())
            if isinstance(stream, trio.abc.HalfCloseableStream):
                await stream.send_eof()
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        return  # the client has gone: nobody to tell
    dropped = 0
    with trio.move_on_after(REFUSED_LINGER_S):
        try:
            while dropped < REFUSED_LINGER_BYTES:
                got = await stream.receive_some(4096)
                if not got:
                    break
                dropped += len(got)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the client has gone: nothing left to spare it
