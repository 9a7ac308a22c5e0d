"""Run the web app under hypercorn's trio worker, in the game server's own trio loop."""

from __future__ import annotations

import functools
import socket
from typing import Any

import trio
from hypercorn.trio import serve

from ..addresses import networks
from ..config import Config
from ..lobby import Lobby
from .app import make_app
from .connection_end import AnsweredWhole, end_connections_whole
from .connection_limit import OpenConnections, bound_connections, connection_failures
from .forwarded import ForwardedFor
from .http1_only import speak_http1_only
from .request_fields import QueryLimit
from .request_head import bound_request_heads
from .request_limit import Pace, RequestLimit, paced, request_buckets
from .ws_limit import LiveConfig, bound_live_sockets
from .ws_offer import decline_unreadable_offers

WEBSOCKET_MAX_MESSAGE = 1024  # bytes: more than a page would ever send (it sends none)
# A live page's socket is pinged this often: a table can be quiet for minutes (a person
# thinking, 'wait'), and a proxy in front (nginx's proxy_read_timeout, 60 s by default;
# a cloud load balancer's idle timeout, 60 s) closed a socket that long silent, the page
# then saying "No longer live" on a match still running (docs/web.md)
WEBSOCKET_PING_S = 25.0
# a connection with no request under way (none yet, its headers coming, or between
# two) is closed this long after its last answer, or after it was opened: what bounds
# a client that trickles its headers a byte a second, or sends none (hypercorn's own
# default, named here as docs/security.md §8 says it)
KEEP_ALIVE_S = 5.0


def cut_off_when_unread(bound: socket.socket, timeout_ms: int) -> None:
    """Have the kernel end each connection ``bound`` accepts (they inherit the option)
    whose data sent has waited ``timeout_ms`` unacknowledged or behind a closed window:
    hypercorn shields its writes from cancellation, so a client that asked and never
    reads held a task, a live socket's place and the server's stop for as long as it
    kept its connection open (Linux; elsewhere the system's own limit holds)."""
    option = getattr(socket, "TCP_USER_TIMEOUT", None)
    if timeout_ms and option is not None:
        bound.setsockopt(socket.IPPROTO_TCP, option, timeout_ms)


async def serve_http(
    config: Config,
    lobby: Lobby,
    bound: socket.socket,
    *,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve on ``bound`` (a socket bound before the store opened, not yet listening)
    until cancelled; report its port."""
    cut_off_when_unread(bound, config.web_send_timeout_ms)
    settings = LiveConfig()
    settings.bind = [f"fd://{bound.detach()}"]  # hypercorn's socket from here
    settings.accesslog = None
    settings.loglevel = "WARNING"  # our own log says where it listens
    settings.graceful_timeout = 1.0
    settings.keep_alive_timeout = KEEP_ALIVE_S
    # a live page sends nothing (live.py): hypercorn's default of 16 MiB a message let
    # each socket hold that much memory, a frame kept one byte short of its end
    settings.websocket_max_message_size = WEBSOCKET_MAX_MESSAGE
    settings.websocket_ping_interval = WEBSOCKET_PING_S
    # and a few frames: hypercorn reads pongs and a message's pieces without a pause
    settings.frames_per_s = config.web_socket_frames_per_s
    settings.frames_burst = config.web_socket_frames_burst
    bound_live_sockets()  # (hypercorn 0.18: past the size, frames, early bytes: ws_limit.py)
    speak_http1_only()  # (no HTTP/2 on the plain port: its PINGs are unmetered)
    bound_request_heads()  # (a head that came whole in one read was parsed, however long)
    end_connections_whole()  # (a static file's answer left its connection open for good)
    if config.web_connections_per_address or config.max_web_connections:
        proxies = networks(config.trusted_proxies)  # (a proxy's are everyone's: not per address)
        settings.connections = OpenConnections(
            config.web_connections_per_address, proxies, config.max_web_connections
        )
    bound_connections()  # (and a connection's error ends it alone, not the server)
    decline_unreadable_offers()  # (an offer wsproto cannot read stopped the server)
    # Starlette is an ASGI app; hypercorn's own type for one is narrower than Starlette's.
    # Each address's allowance of requests comes first: a refused one costs no page work
    # (and all addresses' together are paced, behind it: an address past its own is
    # refused at once, and spends no turn of the others')
    pace = paced(AnsweredWhole(make_app(lobby)), config)
    app: Any = RequestLimit(pace, request_buckets(config))
    app = QueryLimit(app)  # (before: a query of thousands of fields, parsed for its lang=)
    if config.trusted_proxies:  # and before it, behind a proxy, the client's address
        app = ForwardedFor(app, networks(config.trusted_proxies))
    async with trio.open_nursery() as nursery:
        settings.failures = connection_failures(nursery)
        if isinstance(pace, Pace):  # (its turns given while requests wait)
            nursery.start_soon(pace.run)
        binds: list[str] = await nursery.start(functools.partial(serve, app, settings))
        task_status.started(int(binds[0].rsplit(":", 1)[1]))
