"""Getting to and away from tables: 'new', 'sit', 'leave', 'observe', 'unobserve',
'rematch'."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from deberc_net.plugins import RuleError
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, number_word
from deberc_net.protocol.events import TableState
from deberc_net.protocol.messages import Msg, phrase
from deberc_net.protocol.said_back import said_back

from .allowance import seat_given_up
from .matchmaking import (
    game_settings,
    is_private_word,
    players_refused,
    private_slip,
    rules_refusal,
)
from .session import Session
from .table_messages import Leave, Observe, Sit, Unobserve

if TYPE_CHECKING:
    from .lobby import Lobby


@attrs.define(eq=False)
class Seating:
    lobby: Lobby

    async def new(self, session: Session, item: Command) -> None:
        # the rules first: wrong ones are said at once, not after a wait ('slow-down')
        # and a retry, and refused before free_to_sit ends a seek or a rematch offer
        # (bad input changes nothing)
        # 'private' anywhere after 'new' is no rule option: the table is listed to nobody
        args = [a for a in item.args if not is_private_word(a)]
        private = len(args) < len(item.args)
        refused = players_refused("new", args, self.lobby.rules)
        if refused is not None:
            session.send(refused)
            return
        slip = private_slip(args, self.lobby.rules)
        if slip is not None:
            word, near = slip
            said = phrase(Msg.NEW_PRIVATE_NEAR, word=said_back(word), near=near)
            session.send(ev.error("bad-rules", said))
            return
        try:
            settings = game_settings(args, self.lobby.rules)
            self.lobby.rules.ruleset(settings.players, settings.variant, settings.options)
        except RuleError as exc:
            session.send(rules_refusal(session, exc))
            return
        if not self.lobby.may_take_seat(session):
            return
        if not self.lobby.table_room(session, opening=True):  # (refused: still seeking)
            return
        self.lobby.leave_waits(session)
        table = self.lobby.open_table(settings, opened_from=session.address, private=private)
        session.table = table  # at once: the next line must not open another table
        # no seeker takes his seat; answers 'new' before the next line is read
        self.lobby.matchmaking.promise(table, session, None, answers=True)
        self.lobby.matchmaking.fill(table)  # a seeker of this very game sits at once

    async def sit(self, session: Session, item: Command) -> None:
        # every refusal the lobby can tell comes before leave_waits: a mistyped 'sit 99'
        # or a 'sit' at a table already playing must not end the seek or the rematch
        # offer its player waits on (a tryout lost both so, told nothing)
        own = session.table
        if own is not None and item.args and number_word(item.args[0]) == own.id:
            # his own table: "'leave' first" read as if it were another (a tryout, s46)
            session.send(ev.error("already-seated", phrase(Msg.ALREADY_AT_TABLE, table=own.id)))
            return
        if not self.lobby.may_take_seat(session):
            return
        args = item.args
        seat = number_word(args[1]) if len(args) > 1 else None
        if not args or number_word(args[0]) is None or (len(args) > 1 and seat is None):
            session.send(ev.usage_error("sit TABLE [SEAT]"))
            return
        table = self.lobby.table_named(session, args[0])
        if table is None:
            return
        if seat is not None and not 0 <= seat < table.players:
            session.send(ev.error("bad-argument", phrase(Msg.SEATS_RANGE, last=table.players - 1)))
            return
        # a table here is asked now what it would answer (a full one, a taken seat); one
        # of another worker (serve --workers) answers for itself, as before
        refused = None if table.remote else table.why_not_sit(session, seat)
        if refused is not None:
            session.send(refused)
            return
        self.lobby.leave_waits(session)
        self.lobby.post_for(session, table, Sit(session, seat))

    async def leave(self, session: Session, item: Command) -> None:
        if session.table is not None:
            paid = session.table.state is TableState.WAITING  # (a seat, or a 'new' promised)
            if paid:
                seat_given_up(self.lobby, session)
            leave = Leave(session, item.name == "leave!", paid)
            self.lobby.post_for(session, session.table, leave)
            return
        if session.observing:
            for table_id in list(session.observing):
                table = self.lobby.tables.get(table_id)
                if table is not None:  # one to each: no table's queue fills
                    self.lobby.post_for(session, table, Leave(session), capped=False)
            return
        if self.lobby.matchmaking.waits(session):  # 'leave' while seeking unseeks
            await self.lobby.matchmaking.unseek(session, item)
            return
        session.send(ev.nowhere())

    async def observe(self, session: Session, item: Command) -> None:
        args = item.args
        if len(args) != 1 or number_word(args[0]) is None:
            session.send(ev.usage_error("observe TABLE"))
            return
        table = self.lobby.table_named(session, args[0])
        if table is None:
            return
        if table is session.table:
            session.send(ev.error("already-seated", phrase(Msg.SIT_AT_THAT_TABLE)))
            return
        self.lobby.post_for(session, table, Observe(session))

    async def unobserve(self, session: Session, item: Command) -> None:
        wanted = set(session.observing)
        if item.args and number_word(item.args[0]) is None:  # as 'observe x'
            session.send(ev.usage_error("unobserve [TABLE]"))
            return
        if item.args:
            table = self.lobby.table_named(session, item.args[0])
            if table is None:
                return
            wanted &= {table.id}
        if not wanted:
            why = Msg.NOT_OBSERVING if item.args else Msg.OBSERVING_NONE
            session.send(ev.error("not-allowed", phrase(why)))
            return
        for table_id in sorted(wanted):
            table = self.lobby.tables.get(table_id)
            session.observing.discard(table_id)
            if table is not None:
                table.post(Unobserve(session))  # once: observing is already dropped
        ids = [str(t) for t in sorted(wanted)]
        tables = ",".join(ids)
        # several said as a person lists them ('tables 1 and 2', not 'table 1,2')
        said = (
            phrase(Msg.UNOBSERVE, table=ids[0])
            if len(ids) == 1
            else phrase(
                Msg.UNOBSERVE_MANY,
                tables=phrase(Msg.AND_LIST, items=", ".join(ids[:-1]), last=ids[-1]),
            )
        )
        session.send(ev.ok("unobserve", said, (("table", tables),)))

    async def rematch(self, session: Session, item: Command) -> None:
        if item.args:
            session.send(ev.usage_error("rematch"))
            return
        if self.lobby.refused_for_shutdown(session):
            return
        if session.table is not None:
            # at a match still played, "'leave' first" would have him forfeit it (a
            # tryout, s46): a rematch comes after a match, not instead of it
            playing = session.table.state is TableState.PLAYING
            said = phrase(
                Msg.REMATCH_PLAYING if playing else Msg.REMATCH_SEATED, table=session.table.id
            )
            session.send(ev.error("already-seated", said))
            return
        self.lobby.rematches.ask(session)
