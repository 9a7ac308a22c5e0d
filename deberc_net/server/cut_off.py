"""A registered player's last match, cut off by a server's stop: told at his login after
the restart (docs/protocol.md §12). What a player missed is kept in memory (missed.py),
which a restart empties: a club stopped mid-match found nothing said when it came back.
The store knows the match stopped; this says it, once a server run, within a day."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

import attrs
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, phrase

from .accounts import name_key
from .store.base import STOPPED

if TYPE_CHECKING:
    from .session import Session
    from .store.base import Store

TOLD_WITHIN = datetime.timedelta(days=1)  # a match cut off longer ago is old news


@attrs.define
class CutOff:
    store: Store
    # (name key, match) told since this server started: once each
    told: set[tuple[str, str]] = attrs.Factory(set)

    async def tell(self, session: Session, name: str) -> None:
        """Tell ``name`` (a registered login) if his last match was cut off by a stop
        within a day and he has not been told since this server started."""
        games = await trio.to_thread.run_sync(self.store.recent_games, name, 1)
        if not games or games[0]["reason"] not in STOPPED or session.closed:
            return
        game = games[0]
        finished = datetime.datetime.fromisoformat(game["finished"]).replace(tzinfo=datetime.UTC)
        told = (name_key(name), game["match"])
        if datetime.datetime.now(datetime.UTC) - finished > TOLD_WITHIN or told in self.told:
            return
        self.told.add(told)
        when = game["finished"][:16]  # to the minute
        said = phrase(Msg.CUT_OFF, match=game["match"], table=game["table"], when=when)
        session.send(ev.info(said))
