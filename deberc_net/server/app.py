"""The server's start: ``serve(config, task_status=...)`` binds its ports, opens its
store, then runs the server (server/running.py: the listeners, a task per connection,
shutdown) until cancelled; it reports the bound port, so tests listen on port 0.

What a refused start needs (its ports, its store) is imported here; the rest of the
server only once they are its own, so a `serve` refused for a port in use or a store
that will not open does not pay for importing it.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import trio

from .config import Config, cannot_listen
from .logs import plain_unless_configured
from .ports import bind_game_port, close_all
from .store import open_store

if TYPE_CHECKING:
    from deberc_net.plugins import RuleBook

    from .cluster import WorkerPlace
    from .running import LocalLink


class ListenError(Exception):
    """A port the server cannot listen on (in use, a host that does not resolve): said
    in one line by ``deberc-net serve``, which stops."""


def sole_exception(exc: BaseException) -> BaseException:
    """The one exception inside nurseries' groups of one (else ``exc`` itself)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


async def serve(
    config: Config,
    *,
    task_status: trio.TaskStatus[Any] = trio.TASK_STATUS_IGNORED,
    handle_signals: bool = False,
    rules: RuleBook | None = None,
    http_bound: Callable[[int], None] | None = None,
    local_bound: Callable[[LocalLink], None] | None = None,
    worker: WorkerPlace | None = None,
    ready: Callable[[int], None] | None = None,
) -> None:
    """Run until cancelled (or, with ``handle_signals``, until SIGINT/SIGTERM, or SIGHUP
    unless ignored: nohup).
    ``rules``: the rule plugins, loaded once by the caller; loaded here if not given
    (a broken plugin raises PluginError before anything listens). With
    ``config.http_port`` set, the web face is served too; ``http_bound`` gets its port.
    ``local_bound`` gets a ``LocalLink``: connections from inside this process.
    ``worker``: this process is one of ``serve --workers N`` (server/cluster/): it
    listens on the shared port and shares its lobby; ``ready`` is told its port."""
    plain_unless_configured()  # a program's own set-up, if any, stands
    if rules is None:
        from deberc_net.plugins import RuleBook

        rules = RuleBook.load()
    from deberc_net.protocol.lang import learn_plugin_calls, learn_plugin_outcomes

    learn_plugin_calls(rule.aliases for rule in rules.rules())  # 'lang ru' says their calls
    learn_plugin_outcomes(rule.info.outcomes_ru for rule in rules.rules())  # and outcomes
    # the ports are bound before the store opens: a port in use leaves no new database
    # file behind (nor a server's row in a shared one); they listen once it is open, so
    # a connection during a slow open is refused, not left waiting (server/ports.py)
    game_sockets: list[trio.socket.SocketType] = []
    http_socket: socket.socket | None = None
    try:
        if worker is None:
            try:
                game_sockets = await bind_game_port(config.host, config.port)
            except OSError as exc:
                raise ListenError(cannot_listen(config.host, config.port, exc)) from None
        if config.http_port is not None and (worker is None or worker.index == 0):
            try:
                http_socket = bind_tcp(config.web_host(), config.http_port)
            except OSError as exc:
                raise ListenError(
                    cannot_listen(config.web_host(), config.http_port, exc, web=True)
                ) from None
        store = open_store(
            config.db,
            serving=True,
            dead_after_s=config.server_dead_ms / 1000,
            plain=worker is None,  # (its row says so: no worker waits for its bus)
        )
    except BaseException:
        close_all(game_sockets)
        if http_socket is not None:
            http_socket.close()
        raise
    try:
        # the rest of the server (the lobby, the tables, the protocol: a third of a
        # second of CPU) only now: a port in use or a store that refuses ends the start
        # without it (docs/performance.md, "Test suite")
        from .running import run
    except BaseException:
        close_all(game_sockets)
        if http_socket is not None:
            http_socket.close()
        store.close()
        raise
    await run(
        config,
        store,
        game_sockets,
        http_socket,
        rules,
        task_status=task_status,
        handle_signals=handle_signals,
        http_bound=http_bound,
        local_bound=local_bound,
        worker=worker,
        ready=ready,
    )


def bind_tcp(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (not yet listening), as hypercorn binds
    the web face's: IPv6 for a host with a colon."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    return sock
