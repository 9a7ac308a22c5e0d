"""A connection's end after its answer is not the app's to cancel.

hypercorn ends an HTTP/1.1 exchange inside the app's last ``send``: it tells the app the
stream is closed (``http.disconnect``), then closes the connection (``Connection:
close``) or makes it idle, its keep-alive timer started. Starlette's ``FileResponse``
(every static file, the favicon) listens for that disconnect in a task of its own and
cancels its sending task on it, the very task doing that ending: the cancel landed
halfway, so the connection was neither closed nor timed, and stayed open, held by the
server, for as long as the client liked (a hostile tryout: 60 connections from one
address, each after one ``GET /static/style.css``, all still open minutes later; one
request each of the address's allowance, docs/security.md §8). The end now runs
shielded, after the app has been told.

And an answer's write that meets the connection's close is the close's, not the app's
error. hypercorn half-closes a connection (``send_eof``) outside the lock its writes
take, and trio's stream lets no write start meanwhile: a request that promised a body
and whose client then closed its side (``Content-Length: 13``, then a half-close) had the
page's answer raise ``BusyResourceError``, logged by hypercorn as a traceback of 55
lines, for every such request to ``/`` or ``/api/tables`` (a hostile tryout: 200
requests, 11,000 lines of log). It is now taken as the client gone, as a broken write
is.

And a connection its client has closed ends then, not at its keep-alive. hypercorn
times an idle connection (``KEEP_ALIVE_S``) in a task beside its reading, and waits for
that task when the reading ends: a client that closed its idle connection (nothing asked
yet, or its answer read) left the server its socket and its address its place
(connection_limit.py) for the 5 s, told 429 meanwhile though it held nothing (connect
and close in a loop from many addresses: the server's ``max_web_connections`` held by
clients holding none). Once the client is gone, the timer is stopped, and one started
after (an answer's end, the client reset meanwhile) closes at once.

And a client that shut down only its writing side, its request sent whole, gets its
answer whole (``AnsweredWhole``). hypercorn tells the app ``http.disconnect`` at any
FIN, and ``FileResponse`` cancels its sending on it: such a client (``nc -N``) asking
``/static/style.css`` got the answer's head and no body. The app is now told only
when the kernel says the client is gone (a reset: gone_clients.client_gone); a socket
closed whole resets at the answer's first bytes, and its write fails as any broken
write does. *Tests:* tests/web/test_connections_end.py,
tests/web/test_connection_limit.py, tests/web/test_pace_gone_clients.py."""

from __future__ import annotations

import weakref

import attrs
import trio
from hypercorn.events import Closed, Event
from hypercorn.protocol.h11 import H11Protocol
from hypercorn.trio.tcp_server import TCPServer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .gone_clients import client_gone
from .live import connection_stream

_maybe_recycle = H11Protocol._maybe_recycle  # hypercorn's own
_protocol_send = TCPServer.protocol_send
_read_data = TCPServer._read_data
_idle_timeout = TCPServer._idle_timeout
_gone: weakref.WeakSet[TCPServer] = weakref.WeakSet()  # connections their client closed


async def _recycle_whatever_the_app_does(protocol: H11Protocol) -> None:
    await protocol._close_stream()  # (the app told: it may cancel the task it sends from)
    with trio.CancelScope(shield=True):
        await _maybe_recycle(protocol)  # (its stream closed: the rest, close or keep-alive)


async def _send_unless_closing(server: TCPServer, event: Event) -> None:
    try:
        await _protocol_send(server, event)
    except trio.BusyResourceError:  # (the close's send_eof, the one send beside the lock)
        await server.protocol.handle(Closed())  # (as hypercorn takes a broken write)


async def _read_till_gone(server: TCPServer) -> None:
    await _read_data(server)  # (till the client closed, or reset, the connection)
    _gone.add(server)
    await server.idle_task.stop()  # (an idle one ends now; one answering, when it has)


async def _idle_unless_gone(server: TCPServer) -> None:
    if server not in _gone:
        await _idle_timeout(server)
        return
    with trio.CancelScope(shield=True):  # (as hypercorn's own end of the wait)
        await server._initiate_server_close()


def end_connections_whole() -> None:
    """Once per process, before the web face serves (serve.py)."""
    H11Protocol._maybe_recycle = _recycle_whatever_the_app_does  # type: ignore[method-assign,assignment]
    TCPServer.protocol_send = _send_unless_closing  # type: ignore[method-assign,assignment]
    TCPServer._read_data = _read_till_gone  # type: ignore[method-assign,assignment]
    TCPServer._idle_timeout = _idle_unless_gone  # type: ignore[method-assign,assignment]


@attrs.define
class AnsweredWhole:
    """ASGI middleware: a request whose client shut down only its writing side, its
    request whole, is not told ``http.disconnect`` while its socket is not reset. (Who
    listens for it beside the answer, as FileResponse does, is cancelled by the
    answer's end; no answer here waits for the disconnect alone, which would then
    wait for good.)"""

    app: ASGIApp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        stream = connection_stream.get()
        if scope["type"] != "http" or stream is None:
            await self.app(scope, receive, send)
            return
        whole = False  # (its body all read: a half-close can only be a reader's now)

        async def told() -> Message:
            nonlocal whole
            message = await receive()
            if message["type"] == "http.request" and not message.get("more_body", False):
                whole = True
            elif message["type"] == "http.disconnect" and whole and not client_gone(stream.socket):
                await trio.sleep_forever()  # (its answer's end cancels who listens)
            return message

        await self.app(scope, told, send)
