"""A registered player's last match, cut off by a server's stop: told at his login after
the restart (docs/protocol.md §12). What a player missed is kept in memory (missed.py),
which a restart empties: a club stopped mid-match found nothing said when it came back.
The store knows the match stopped; this says it once, within a day. That it was said is
kept in the store too: a memory of it told him again after each restart that day, and
under ``--workers`` at each worker his logins reached."""

from __future__ import annotations

import datetime
import functools
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, phrase

from .accounts import name_key
from .store.base import SERVER_LOST, STOPPED

if TYPE_CHECKING:
    from .session import Session
    from .store.base import Store
    from .store_writer import StoreWriter

TOLD_WITHIN = datetime.timedelta(days=1)  # a match cut off longer ago is old news


@attrs.define
class CutOff:
    store: Store
    writes: StoreWriter  # the store's writes, in order (the lobby's)
    online: Mapping[str, Session]  # the sessions logged in here by name key (the lobby's)

    async def tell(self, session: Session, name: str) -> None:
        """Tell ``name`` (a registered login) if his last match was cut off by a stop
        within a day and he has not been told of it yet (by any server)."""
        games = await trio.to_thread.run_sync(self.store.recent_games, name, 1)
        if not games or games[0]["reason"] not in STOPPED or session.closed:
            return
        game = games[0]
        finished = datetime.datetime.fromisoformat(game["finished"]).replace(tzinfo=datetime.UTC)
        if datetime.datetime.now(datetime.UTC) - finished > TOLD_WITHIN:
            return
        match = game["match"]
        once = functools.partial(self.store.tell_cut_off_once, name, match, time.time())
        if not await self.writes.run(once):
            return
        if session.closed:  # gone while the write waited its turn:
            now_here = self.online.get(name_key(name))
            if now_here is None or now_here.closed:  # his next login tells
                self.writes.write(functools.partial(self.store.untell_cut_off, name, match))
                return
            session = now_here  # back already on a new connection, whose ask found it told
        when = game["finished"][:16]  # to the minute
        reason, table = game["reason"], str(game["table"])
        # a crash's (kill -9) said as one, its reason as 'games' lists it
        if reason == SERVER_LOST:  # in the words a player there then was told it
            lost = phrase(Msg.SERVER_LOST)
            said = phrase(Msg.CUT_OFF_LOST, match=match, table=table, when=when, reason=lost)
        else:
            said = phrase(Msg.CUT_OFF, match=match, table=table, when=when)
        session.send(ev.cut_off(match, table, reason, said))

    def told_live(self, name: str, guest: bool, match: str) -> None:
        """``name`` was told live that ``match``'s table closed, its server
        lost or stopped (under ``--workers``: another worker's death or stop, as it was
        forgotten): kept as told, so that his next login does not tell him again once
        the match is listed. A guest is never told at a login."""
        if guest:
            return
        once = functools.partial(self.store.tell_cut_off_once, name, match, time.time())
        self.writes.write(once, match=match)
