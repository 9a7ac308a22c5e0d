"""A web page watching a table: a Session observing through the table's own path.

The page's socket gets exactly the machine-style lines an observer's connection gets
(the same ``Observe`` message, the same ``_event``/render, the same redaction), less the
deals' ``record`` lines (feed.py says why), so it can never show a card an observer
could not see yet: first through its own session, then
through its table's feed (feed.py), which observes once for all the table's pages.
Under ``serve --workers`` both watch another worker's table through the bus, as a
player's ``observe`` does (server/cluster/node.py).
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import socket
import struct
from collections import Counter

import attrs
import trio
from starlette.websockets import WebSocket, WebSocketDisconnect

from deberc_net.protocol.connection import Connection
from deberc_net.protocol.render import MACHINE

from ..addresses import limited_address
from ..cluster.looks import table_looked_up
from ..lobby import Lobby
from ..session import Outbox
from ..table import Table
from ..table_messages import Observe
from .feed import Feed, Page, PageSession, join, let_go

_ids = itertools.count(1_000_000_000)  # apart from the game connections' ids
# A page dropped for not reading is cut off this long after (its place freed with
# it): time for the send under way to finish and its close to go, as 1008 TOO_SLOW,
# for a page that reads, slowly; one that does not read never takes either.
CUT_OFF_S = 1.0
TOO_SLOW = "too slow: the page did not read what it was sent"
# the connection a request came on, in its app's task (hypercorn starts that from the
# connection's task, whose context it copies; set by connection_limit.py): a page
# dropped for not reading is cut off through it; None: no connection hypercorn serves
connection_stream: contextvars.ContextVar[trio.SocketStream | None] = contextvars.ContextVar(
    "web_connection_stream", default=None
)


@attrs.define
class Viewers:
    """Live sockets open now: bounded, as game connections are (docs/web.md); and the
    feeds that serve them, one per watched table."""

    limit: int
    per_address: int = 0  # from one address (0: no limit): one cannot take every place
    open: int = 0
    by_address: Counter[str] = attrs.Factory(Counter)
    feeds: dict[int, Feed] = attrs.Factory(dict)


async def watch_table(websocket: WebSocket, lobby: Lobby, table_id: int, viewers: Viewers) -> None:
    table = await table_looked_up(lobby, table_id)  # (one just opened elsewhere too)
    # a private table and a ladder's board are not watched from the web
    if table is None or table.private or table.board is not None:
        await websocket.close(code=4404, reason=f"no open table {table_id}")
        return
    if viewers.open >= viewers.limit:  # refused before the handshake: HTTP 403
        await websocket.close(code=1013, reason="too many live viewers")
        return
    address = limited_address(websocket.client.host) if websocket.client else "?"
    if viewers.per_address and viewers.by_address[address] >= viewers.per_address:
        await websocket.close(code=1013, reason="too many live viewers from your address")
        return
    viewers.open += 1
    viewers.by_address[address] += 1
    try:
        await _watch(websocket, lobby, table, viewers.feeds)
    finally:
        viewers.open -= 1
        viewers.by_address[address] -= 1
        if not viewers.by_address[address]:
            del viewers.by_address[address]


async def _watch(websocket: WebSocket, lobby: Lobby, table: Table, feeds: dict[int, Feed]) -> None:
    table_id = table.id
    await websocket.accept()
    stream = connection_stream.get()
    client = websocket.client
    peer = f"{client.host}:{client.port}" if client else "?"
    page = Page(lobby.config.outbox_bytes)
    with trio.CancelScope() as scope:
        own = PageSession(  # the page's own observer, until it joins the table's feed
            next(_ids),
            Outbox(lobby.config.outbox_bytes),
            scope,
            connection=Connection(trio.current_time(), style=MACHINE),
            peer=peer,
            address=limited_address(client.host) if client else "?",
        )
        own.log = own.log.bind(web=own.id, peer=peer, table=table_id)
        # its sheet too: the deals finished since the page was served (the state has
        # no list of them), told in the table's step that tells the state
        if not table.post(Observe(own, sheet=True)):
            await websocket.close(code=4404, reason=f"table {table_id} closed")
            return
        feed: Feed | None = None
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_until_gone, websocket, scope)
                nursery.start_soon(_cut_off_when_dropped, page, stream, own)
                # the table answers the observe (its 'ok', then the state) in one step
                if await own.outbox.wait():
                    feed = await join(lobby, feeds, table, page, own)
                    while feed is not None and await page.wait():
                        await websocket.send_text(page.take())
                    if page.dropped.is_set():  # (and the send under way went in time)
                        await websocket.close(code=1008, reason=TOO_SLOW)
                scope.cancel()
        finally:
            if feed is None:
                own.close()
                own.outbox.drop()
                let_go(lobby, table, own)
            else:
                feed.leave(page)
    # the browser may have gone first
    with trio.move_on_after(1), contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await websocket.close()


async def _cut_off_when_dropped(
    page: Page, stream: trio.SocketStream | None, own: PageSession
) -> None:
    """A page too slow to read what waits for it (``outbox_bytes``) is dropped, as a
    connection of the game port is (docs/protocol.md §2): logged ``outbox_full``, and
    its connection cut off CUT_OFF_S after, what the kernel holds for it let go (a
    reset). hypercorn writes shielded from cancellation, so a page whose send waited
    for good held its place until the kernel gave up on it (web_send_timeout_ms, once
    its buffers were full)."""
    await page.dropped.wait()
    own.log.warning("outbox_full", limit=page.limit)
    await trio.sleep(CUT_OFF_S)
    if stream is not None:
        with contextlib.suppress(OSError):
            stream.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        stream.socket.close()  # (the send waiting on it ends; hypercorn then closes)


async def _until_gone(websocket: WebSocket, scope: trio.CancelScope) -> None:
    """The page says nothing: when its socket closes, or says something (not our page),
    stop watching (the socket is closed after, 1008 for a message)."""
    try:
        message = await websocket.receive()
        if message["type"] != "websocket.disconnect":
            with trio.move_on_after(1), contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close(code=1008, reason="a live page sends nothing")
    except (RuntimeError, WebSocketDisconnect):
        pass
    scope.cancel()
