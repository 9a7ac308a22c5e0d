"""A worker whose bus fails (its database gone away: a restart, a dropped connection)
stops as on SIGTERM: it tells its players why (docs/protocol.md §11.4) and closes its
tables, then ends, and the parent starts another (docs/scaling.md). Its store's last
calls (the tables' records, its own row) wait a moment for a connection, not the
pool's 30 s: the next worker starts as soon as the database is back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import structlog
import trio

from deberc_net.protocol.messages import Msg, phrase

from ..running import STOPPING_STORE_WAIT_S
from ..session import Ending

if TYPE_CHECKING:
    from ..lobby import Lobby
    from ..session import Session

log = structlog.get_logger("deberc.node")
FLUSH_S = 0.2  # the closed sessions' last lines leave meanwhile


async def stop_for_a_lost_bus(lobby: Lobby, not_logged_in: Callable[[], list[Session]]) -> None:
    """Stop as on SIGTERM (server/running.py), ``not_logged_in`` giving the connections
    that have not logged in: they are told and closed too."""
    log.error("bus_lost")
    lobby.store.hurry(STOPPING_STORE_WAIT_S)
    lobby.shutdown(phrase(Msg.BUS_LOST), not_logged_in())
    if lobby.online or any(not table.remote for table in lobby.tables.values()):
        await trio.sleep(lobby.config.shutdown_grace_ms / 1000)
    for session in [*lobby.online.values(), *not_logged_in()]:
        session.close(Ending.SHUTDOWN)
    await trio.sleep(FLUSH_S)
