"""A connection's own settings (style, sort, clock, lang), and 'ping' and 'quit'."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, TypeVar

import attrs

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command
from deberc_net.protocol.connection import ClockChoice, Tell
from deberc_net.protocol.lang import UKRAINIAN, Lang
from deberc_net.protocol.messages import Msg, phrase
from deberc_net.protocol.render import HandOrder, Style

from .session import Ending, Session

if TYPE_CHECKING:
    from .lobby import Lobby

Choice = TypeVar("Choice", bound=StrEnum)


@attrs.define(eq=False)
class Preferences:
    lobby: Lobby

    async def style(self, session: Session, item: Command) -> None:
        """'style human|machine', and for a bot 'style machine tell=asks': told only its
        asks and the match's end (docs/protocol.md §4.3). A bad ``tell=`` changes
        nothing; without one, every line is told."""
        tells = [a for a in item.args if a.lower().startswith("tell=")]
        if tells:
            tell = _tell(tells, item)
            if tell is None:
                session.send(ev.usage_error(TELL_USAGE))
                return
            item = attrs.evolve(item, args=tuple(a for a in item.args if a not in tells))
        else:
            tell = Tell.ALL
        style = _one_choice(session, item, "style", Style)
        if style is None:
            return
        was = (session.style, session.connection.tell)
        session.style = str(style)
        session.connection.tell = tell
        self._changed(session, was != (session.style, tell))
        said = phrase(Msg.STYLE, style=session.style)
        told = (("tell", str(tell)),) if tells else ()
        session.send(ev.ok("style", said, (("style", session.style), *told)))

    async def sort(self, session: Session, item: Command) -> None:
        order = _one_choice(session, item, "sort", HandOrder)
        if order is None:
            return
        was = session.connection.hand_order
        session.connection.hand_order = order
        self._changed(session, was != order)
        said = phrase(Msg.SORT_RANK if order == HandOrder.RANK else Msg.SORT_STRENGTH)
        session.send(ev.ok("sort", said, (("sort", order),)))

    async def clock(self, session: Session, item: Command) -> None:
        choice = _one_choice(session, item, "clock", ClockChoice)
        if choice is None:
            return
        was = session.connection.clock
        session.connection.clock = choice
        self._changed(session, was != choice)
        c = self.lobby.config
        ms = c.bot_clock_ms if choice is ClockChoice.BOT else c.human_clock_ms
        said = phrase(Msg.CLOCK, seconds=ms // 1000)
        session.send(ev.ok("clock", said, (("clock", str(choice)), ("ms", str(ms)))))

    async def lang(self, session: Session, item: Command) -> None:
        if len(item.args) == 1 and item.args[0].casefold() in UKRAINIAN:
            # a Ukrainian player's first try: told what there is, not the bare usage
            session.send(ev.error("bad-argument", phrase(Msg.LANG_UK)))
            return
        lang = _one_choice(session, item, "lang", Lang)
        if lang is None:
            return
        was = session.connection.lang
        session.connection.lang = lang
        self._changed(session, was != lang)
        text = "Язык: русский." if lang == Lang.RU else "Language: English."
        session.send(ev.Ok("lang", text, (("lang", lang),)))

    def _changed(self, session: Session, changed: bool) -> None:
        """A setting of ``session`` was set (``changed``: to another value): under serve
        --workers, the other workers' stand-ins of its player speak to him in it at once
        (cluster/node.py; a session not logged in has none). The same value again tells
        nobody: each was a message to every worker (a read-back, s46)."""
        node = self.lobby.node
        if changed and node is not None and session.name is not None:
            node.settings_changed(session)

    async def ping(self, session: Session, item: Command) -> None:
        session.send(ev.Ok("ping", "pong"))

    async def quit(self, session: Session, item: Command) -> None:
        session.send(ev.bye(phrase(Msg.BYE)))
        session.close(Ending.QUIT)


TELL_USAGE = "style machine tell=all|asks"


def _tell(tells: list[str], item: Command) -> Tell | None:
    """The one ``tell=`` value of a 'style machine …' line, or None if it is not one
    (a second ``tell=``, an unknown value, or with the human style)."""
    value = tells[0].partition("=")[2].lower()
    names = [str(t) for t in Tell]
    if len(tells) != 1 or value not in names or [a.lower() for a in item.args[:1]] != ["machine"]:
        return None
    return Tell(value)


def _one_choice(
    session: Session, item: Command, command: str, choices: type[Choice]
) -> Choice | None:
    """The command's one argument as one of ``choices`` (in any case); if it is not one,
    the usage error is sent and None returned (the style, sort, clock and lang settings)."""
    names = [str(c) for c in choices]
    args = item.args
    if len(args) != 1 or args[0].lower() not in names:
        session.send(ev.usage_error(f"{command} " + "|".join(names)))
        return None
    return choices(args[0].lower())
