"""A web page watching a table: a Session observing through the table's own path.

The page's socket gets exactly the machine-style lines an observer's connection gets
(the same ``Observe`` message, the same ``_event``/render, the same redaction), so it can
never show a card an observer could not see yet.
"""

from __future__ import annotations

import contextlib
import itertools

import attrs
import trio
from starlette.websockets import WebSocket, WebSocketDisconnect

from deberc_net.protocol.connection import Connection
from deberc_net.protocol.render import MACHINE

from ..lobby import Lobby
from ..session import Outbox, Session
from ..table import Observe, Table, Unobserve

_ids = itertools.count(1_000_000_000)  # apart from the game connections' ids
CLOSED_CHECK_S = 1.0  # how often a quiet page checks whether its table closed
# a page's lines are sent at most this often, what came meanwhile in one message: a
# person sees no difference, and a busy table's viewers cost the game far less
COALESCE_S = 0.1


@attrs.define
class Viewers:
    """Live sockets open now: bounded, as game connections are (docs/web.md)."""

    limit: int
    open: int = 0


async def watch_table(websocket: WebSocket, lobby: Lobby, table_id: int, viewers: Viewers) -> None:
    table = lobby.tables.get(table_id)
    if table is None or table.private:  # a private table is not watched from the web
        await websocket.close(code=4404, reason=f"no open table {table_id}")
        return
    if viewers.open >= viewers.limit:  # refused before the handshake: HTTP 403
        await websocket.close(code=1013, reason="too many live viewers")
        return
    viewers.open += 1
    try:
        await _watch(websocket, lobby, table)
    finally:
        viewers.open -= 1


async def _watch(websocket: WebSocket, lobby: Lobby, table: Table) -> None:
    table_id = table.id
    await websocket.accept()
    client = websocket.client
    peer = f"{client.host}:{client.port}" if client else "?"
    outbox = Outbox(lobby.config.outbox_bytes)
    with trio.CancelScope() as scope:
        session = Session(
            next(_ids),
            outbox,
            scope,
            connection=Connection(trio.current_time(), style=MACHINE),
            peer=peer,
            address=client.host if client else "?",
        )
        session.log = session.log.bind(web=session.id, peer=peer, table=table_id)
        if not table.post(Observe(session)):
            await websocket.close(code=4404, reason=f"table {table_id} closed")
            return
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_until_gone, websocket, scope)
                while True:
                    with trio.move_on_after(CLOSED_CHECK_S):
                        if not await outbox.wait():
                            break
                        await trio.sleep(COALESCE_S)
                        await websocket.send_text(outbox.take(outbox.limit).decode())
                        continue
                    if lobby.tables.get(table_id) is not table:
                        break  # closed: the page has had the last word
                scope.cancel()
        finally:
            session.close()
            outbox.drop()
            table.post(Unobserve(session))
    # the browser may have gone first
    with trio.move_on_after(1), contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await websocket.close()


async def _until_gone(websocket: WebSocket, scope: trio.CancelScope) -> None:
    """The page says nothing; when its socket closes, stop watching."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
    except (RuntimeError, WebSocketDisconnect):
        pass
    scope.cancel()
