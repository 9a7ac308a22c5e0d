"""What a player asks of the table he sits at or watches: its state, a house bot for a
seat (the last trick, the score sheet and the history: club.py, which tells your last
match's at no table)."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

import attrs

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, number_word
from deberc_net.protocol.messages import Msg, Phrase, phrase
from deberc_net.protocol.said_back import said_back

from .allowance import may_list
from .house import DEFAULT_SEARCH_LEVEL, SEARCH_LEVELS, HouseBotKind
from .session import Session
from .table_messages import ShowState, SummonBot

if TYPE_CHECKING:
    from .lobby import Lobby


@attrs.define(eq=False)
class TableRequests:
    lobby: Lobby

    async def state(self, session: Session, item: Command) -> None:
        table = self.lobby.watched(session)
        if table is None:
            return
        # a person's while observing is a board of many lines for a short one: it spends
        # the lists allowance (hundreds of observers asking it at the flood limit held
        # two thirds of a core). A program's (one line, asked after each event by a
        # watching one) and a seated player's (his own view, a bot's after a stale
        # answer: docs/protocol.md §5.10) are free
        person_watching = session.table is None and not session.machine
        if person_watching and not may_list(
            self.lobby, session, item.name, self.lobby.is_admin(session)
        ):
            return
        self.lobby.post_for(session, table, ShowState(session))

    async def bot(self, session: Session, item: Command) -> None:
        args = [a.lower() for a in item.args]
        kinds = "|".join(HouseBotKind)
        # (Usage alone left 'LEVEL (search only) 1 to 5' English in a Russian line)
        usage = phrase(Msg.BOT_USAGE, kinds=kinds, first=SEARCH_LEVELS[0], last=SEARCH_LEVELS[-1])
        rated = bool(args) and args[-1] == "rated"
        if rated:
            args.pop()
        if not args or args[0] not in kinds.split("|"):
            # the kind is what is missing or mistyped: said so, the kinds named
            session.send(ev.error("bad-argument", _no_such_bot(args[0] if args else None)))
            return
        if len(args) > 2:
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage=usage)))
            return
        kind = HouseBotKind(args[0])
        level = None
        if kind == HouseBotKind.SEARCH:
            level = DEFAULT_SEARCH_LEVEL
            if len(args) == 2:
                level = number_word(args[1])
                if level not in SEARCH_LEVELS:
                    session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage=usage)))
                    return
        elif len(args) == 2:
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage=usage)))
            return
        if rated and kind == HouseBotKind.RANDOM:
            session.send(ev.error("bad-argument", phrase(Msg.RANDOM_NOT_RATED)))
            return
        if not self.lobby.house.enabled:
            session.send(ev.error("not-allowed", phrase(Msg.NO_HOUSE_BOTS)))
            return
        capped_off = self.lobby.house.capped_off(kind)
        if capped_off is not None:
            session.send(ev.error("not-allowed", capped_off))
            return
        if session.table is None:
            session.send(ev.error("not-seated", phrase(Msg.BOT_NOT_SEATED)))
            return
        self.lobby.post_for(session, session.table, SummonBot(session, kind, level, rated))


def _no_such_bot(kind: str | None) -> Phrase:
    """'bot' with no kind, or one that is none: the kinds, and the one meant if near."""
    kinds = [str(k) for k in HouseBotKind]
    which = phrase(Msg.BOT_WHICH, head=", ".join(kinds[:-1]), last=kinds[-1])
    if kind is None:
        return which
    near = difflib.get_close_matches(kind, kinds, n=1)
    guess = f" ({near[0]}?)" if near else ""
    return phrase(Msg.BOT_UNKNOWN, kind=said_back(kind), guess=guess, which=which)
