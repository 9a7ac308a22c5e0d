"""The lobby: who is here, which tables exist, and every command that is not a table call."""

from __future__ import annotations

import hmac
import json
import math
import secrets
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import structlog
import trio

from deberc_net import __version__
from deberc_net.plugins import RuleBook, RuleError, RuleKind
from deberc_net.plugins.manager import for_players
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import (
    CALLS_HELP,
    COMMANDS,
    PROTOCOL_VERSION,
    Command,
    TableCallText,
    help_text,
)
from deberc_net.protocol.connection import ClockChoice
from deberc_net.protocol.events import TableState
from deberc_net.protocol.lang import Lang, ru_call
from deberc_net.protocol.messages import RU_CALLS_HELP, Msg, Phrase, phrase
from deberc_net.protocol.render import HandOrder, Style

from . import accounts
from .accounts import Accounts, name_key
from .config import Config
from .house import DEFAULT_SEARCH_LEVEL, SEARCH_LEVELS, HouseBotKind, HouseBots
from .house import PREFIX as HOUSE_PREFIX
from .house_games import house_bot_games, is_house_rating_name
from .matchmaking import GameSettings, Matchmaking, game_settings
from .rematch import Rematches
from .session import Session
from .store import Store
from .store.base import PlayerRating
from .table import (
    Away,
    Back,
    Invite,
    Leave,
    Observe,
    Say,
    ShowHistory,
    ShowLast,
    ShowSheet,
    ShowState,
    Sit,
    Stop,
    SummonBot,
    Table,
    TableCall,
    Unobserve,
    history_deal,
)

if TYPE_CHECKING:
    from .cluster.node import Node

log = structlog.get_logger("deberc.lobby")
PRIVATE = "private"  # 'new ... private'
TOKEN = "token="  # 'login NAME token=T': a guest resumes with the token it was given
Handler = Callable[[Session, Command], Awaitable[None]]
Choice = TypeVar("Choice", bound=StrEnum)
Item = TypeVar("Item")


def _one_choice(
    session: Session, item: Command, command: str, choices: type[Choice]
) -> Choice | None:
    """The command's one argument as one of ``choices`` (in any case); if it is not one,
    the usage error is sent and None returned (the style, sort, clock and lang settings)."""
    names = [str(c) for c in choices]
    args = item.args
    if len(args) != 1 or args[0].lower() not in names:
        session.send(ev.Error("bad-argument", f"{command} " + "|".join(names)))
        return None
    return choices(args[0].lower())


@attrs.define(eq=False)
class Lobby:
    config: Config
    store: Store
    nursery: trio.Nursery
    rules: RuleBook  # every rule plugin, loaded at start-up
    online: dict[str, Session] = attrs.Factory(dict)  # by lower-cased name
    tables: dict[int, Table] = attrs.Factory(dict)
    next_table: int = 1
    accepting: bool = True
    accounts: Accounts = attrs.field(init=False)
    # a guest name's resume token, while the guest is connected or holds a seat
    guest_tokens: dict[str, str] = attrs.Factory(dict)
    registering: set[str] = attrs.Factory(set)  # names being registered right now
    matchmaking: Matchmaking = attrs.field(init=False)
    house: HouseBots = attrs.field(init=False)
    rematches: Rematches = attrs.field(init=False)
    # every command's handler, by the command's name (protocol/commands.py: COMMANDS)
    handlers: dict[str, Handler] = attrs.field(init=False)
    # serve --workers: this worker's share of the one lobby (server/cluster/); None alone
    node: Node | None = None

    def __attrs_post_init__(self) -> None:
        self.accounts = Accounts(self.store, self.config)
        self.matchmaking = Matchmaking(self)
        self.rematches = Rematches(self)
        config = self.config
        self.house = HouseBots(
            self,
            self.nursery,
            config.house_bots,
            config.house_bots_per_table,
            config.max_house_bots,
        )
        mm = self.matchmaking
        self.handlers = {
            "help": self._cmd_help,
            "calls": self._cmd_calls,
            "quit": self._cmd_quit,
            "style": self._cmd_style,
            "sort": self._cmd_sort,
            "clock": self._cmd_clock,
            "lang": self._cmd_lang,
            "login": self._cmd_login,
            "ping": self._cmd_ping,
            "who": self._cmd_who,
            "tables": self._cmd_tables,
            "new": self._cmd_new,
            "sit": self._cmd_sit,
            "leave": self._cmd_leave,
            "leave!": self._cmd_leave,
            "observe": self._cmd_observe,
            "unobserve": self._cmd_unobserve,
            "say": self._cmd_say,
            "rules": self._cmd_rules,
            "state": self._cmd_state,
            "games": self._cmd_games,
            "last": self._cmd_last,
            "sheet": self._cmd_sheet,
            "history": self._cmd_history,
            "invite": self._cmd_invite,
            "bot": self._cmd_bot,
            "rematch": self._cmd_rematch,
            "top": self._cmd_top,
            "finger": self._cmd_finger,
            "seek": mm.seek,
            "unseek": mm.unseek,
            "reserve": mm.reserve,
            "release": mm.release,
        }
        if self.handlers.keys() != COMMANDS.keys():  # a command nobody handles, or a stray
            raise RuntimeError(
                f"commands and handlers differ: {sorted(self.handlers.keys() ^ COMMANDS.keys())}"
            )

    # ----------------------------------------------------------- sessions
    def hello(self, session: Session) -> None:
        session.send(ev.Hello(__version__, PROTOCOL_VERSION))

    def disconnected(self, session: Session) -> None:
        self.matchmaking.forget(session)
        self.rematches.withdraw(session, ev.RematchOff.LEFT)
        for table_id in list(session.observing):
            table = self.tables.get(table_id)
            if table is not None:
                table.post(Unobserve(session))  # the table says the watcher is gone
        name = session.name
        if name is not None and self.online.get(name_key(name)) is session:
            del self.online[name_key(name)]
            if session.table is not None:
                session.table.post(Away(name))
            elif self._table_of(name) is None:  # nothing to come back to: the name is free
                self.guest_tokens.pop(name_key(name), None)
            if self.node is not None:  # a guest's token goes on while he holds a seat
                self.node.logged_out(name, self.guest_tokens.get(name_key(name)))
        if self.node is not None:
            self.node.disconnected(session)

    def table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self.house.table_closed(table)  # a house bot leaves with its table
        for observer in list(table.observers):
            observer.observing.discard(table.id)
        for name in table.seats:
            if name is not None and name_key(name) not in self.online:
                self.guest_tokens.pop(name_key(name), None)

    def _guest_token(self, name: str) -> str | None:
        """The token of the guest who holds ``name`` (connected, or seated at a table
        that is not closed); None if the name is free."""
        key = name_key(name)
        token = self.guest_tokens.get(key)
        if (
            token is not None
            and key not in self.online
            and self._table_of(name) is None
            and self.house.get(name) is None  # a house bot's, held while the bot runs
        ):
            del self.guest_tokens[key]  # a claim left behind: the name is free again
            return None
        if token is None and self.node is not None:  # a guest on another worker holds it
            present = self.node.elsewhere(name)
            if (
                present is not None
                and present.guest
                and (present.online or self._table_of(name) is not None)
            ):
                return present.token
        return token

    # ----------------------------------------------------------- commands
    async def handle(self, session: Session, item: Command | TableCallText) -> None:
        """One line from a session: the connection has let it through (a command that
        needs a login comes only from a logged-in session)."""
        if isinstance(item, TableCallText):
            self._table_call(session, item)
            return
        await self.handlers[item.name](session, item)

    async def _cmd_help(self, session: Session, item: Command) -> None:
        table = session.table
        if not item.args and table is not None and table.remote and self.node is not None:
            self.node.ask_help(session, table)  # the legal calls are known where it plays
            return
        self.send_help(session, item.args)

    def send_help(self, session: Session, args: Sequence[str]) -> None:
        english = self._help(session, args, Lang.EN)
        session.send(
            ev.TextBlock("help", tuple(english), tuple(self._help(session, args, Lang.RU)))
        )

    async def _cmd_calls(self, session: Session, item: Command) -> None:
        session.send(
            ev.TextBlock(
                "help",
                tuple(CALLS_HELP.rstrip().splitlines()),
                tuple(RU_CALLS_HELP.rstrip().splitlines()),
            )
        )

    async def _cmd_quit(self, session: Session, item: Command) -> None:
        session.send(ev.bye(phrase(Msg.BYE)))
        session.close()

    async def _cmd_ping(self, session: Session, item: Command) -> None:
        session.send(ev.Ok("ping", "pong"))

    def _help(self, session: Session, args: Sequence[str], lang: Lang) -> list[str]:
        if args:
            return help_text(args[0], lang=lang)
        if session.name is None:
            return help_text(phase="login", lang=lang)
        table, admin = session.table, self.is_admin(session)
        if table is None:
            return help_text(phase="lobby", lang=lang, admin=admin)
        calls: list[str] = []
        match, seat = table.match, session.seat
        if match is not None and seat is not None:  # a read of the table's state
            calls = [c.token() for c in match.legal_calls(seat)]
        if lang == Lang.RU:
            calls = [ru_call(c) for c in calls]
        playing = table.state != ev.TableState.WAITING
        return help_text(phase="table", calls_now=calls, lang=lang, admin=admin, playing=playing)

    async def _cmd_style(self, session: Session, item: Command) -> None:
        style = _one_choice(session, item, "style", Style)
        if style is None:
            return
        session.style = str(style)
        said = phrase(Msg.STYLE, style=session.style)
        session.send(ev.ok("style", said, (("style", session.style),)))

    async def _cmd_sort(self, session: Session, item: Command) -> None:
        order = _one_choice(session, item, "sort", HandOrder)
        if order is None:
            return
        session.connection.hand_order = order
        said = phrase(Msg.SORT_RANK if order == HandOrder.RANK else Msg.SORT_STRENGTH)
        session.send(ev.ok("sort", said, (("sort", order),)))

    async def _cmd_clock(self, session: Session, item: Command) -> None:
        choice = _one_choice(session, item, "clock", ClockChoice)
        if choice is None:
            return
        session.connection.clock = choice
        c = self.config
        ms = c.bot_clock_ms if choice is ClockChoice.BOT else c.human_clock_ms
        said = phrase(Msg.CLOCK, seconds=ms // 1000)
        session.send(ev.ok("clock", said, (("clock", str(choice)), ("ms", str(ms)))))

    async def _cmd_lang(self, session: Session, item: Command) -> None:
        lang = _one_choice(session, item, "lang", Lang)
        if lang is None:
            return
        session.connection.lang = lang
        text = "Язык: русский." if lang == Lang.RU else "Language: English."
        session.send(ev.Ok("lang", text, (("lang", lang),)))

    async def _cmd_login(self, session: Session, item: Command) -> None:
        asked = _lang_argument(item.args)
        if asked is None or len(asked[0]) not in (1, 2):
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_USAGE)))
            return
        args, lang = asked
        if lang is not None:  # 'login NAME lang=ru': the replies from here on in Russian
            session.connection.lang = lang
        name = unicodedata.normalize("NFC", args[0])
        if not accounts.valid_name(name):
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_NAME)))
            return
        if session.name is not None:
            session.send(ev.error("not-allowed", phrase(Msg.LOGGED_IN_AS, name=session.name)))
            return
        if name_key(name).startswith(HOUSE_PREFIX) and self.house.get(name) is None:
            session.send(
                ev.Error("bad-argument", f"names starting '{HOUSE_PREFIX}' are the server's bots")
            )
            return
        secret = args[1] if len(args) == 2 else None
        token = secret[len(TOKEN) :] if secret and secret.startswith(TOKEN) else None
        password = secret if token is None else None
        if await self.accounts.is_registered(name):
            if password is None:
                session.send(ev.error("bad-password", phrase(Msg.NEED_PASSWORD, name=name)))
                return
            if not await self._check_password(session, name, password):
                return
            guest = False
        elif password is not None:
            if not await self._register(session, name, password):
                return
            guest = False
        else:
            held = self._guest_token(name)
            if name_key(name) in self.registering or (
                held is not None and (token is None or not hmac.compare_digest(token, held))
            ):
                session.send(ev.error("name-in-use", phrase(Msg.NAME_IN_USE, name=name)))
                return
            guest = True
        if session.closed:
            return
        self._welcome(session, name, guest)

    async def _check_password(self, session: Session, name: str, password: str) -> bool:
        problem = await self.accounts.check_or_register(name, password, session.address)
        if problem is None:
            return True
        session.send(problem)
        if problem.code == "bad-password":
            session.failed_logins += 1
            if session.failed_logins >= self.config.failed_logins_per_connection:
                session.send(ev.bye(phrase(Msg.TOO_MANY_PASSWORDS)))
                session.close()
        return False

    async def _register(self, session: Session, name: str, password: str) -> bool:
        """Register a free name; refused while a guest holds it (connected or seated)."""
        key = name_key(name)
        if self._guest_token(name) is not None or key in self.registering:
            session.send(ev.error("name-in-use", phrase(Msg.NAME_IN_USE_BY_GUEST, name=name)))
            return False
        self.registering.add(key)  # no guest takes it while the hash is computed
        try:
            return await self._check_password(session, name, password)
        finally:
            self.registering.discard(key)

    def _welcome(self, session: Session, name: str, guest: bool) -> None:
        """Log ``session`` in as ``name`` (its right to it checked): a connection that
        held the name closes, and a seat the name holds comes back."""
        key = name_key(name)
        previous = self.online.get(key)
        if previous is not None:
            self.logged_in_elsewhere(previous)
        token = None
        if guest:
            present = self.node.elsewhere(name) if self.node is not None else None
            if present is not None and present.token is not None:  # resumed from there
                self.guest_tokens.setdefault(key, present.token)
            token = self.guest_tokens.setdefault(key, secrets.token_urlsafe(12))
        else:
            self.guest_tokens.pop(key, None)
        session.name, session.guest = name, guest
        session.connection.logged_in()
        self.online[key] = session
        if self.node is not None:
            self.node.logged_in(session, token)
        session.log = session.log.bind(name=name)
        log.info("login", name=name, guest=guest, conn=session.id)
        what = phrase(Msg.GUEST if guest else Msg.REGISTERED)
        fields: tuple[tuple[str, str], ...] = (("name", name), ("guest", "1" if guest else "0"))
        resume = phrase(Msg.NOTHING)
        if token is not None:
            fields += (("token", token),)
            resume = phrase(Msg.RESUME, token=token, name=name)
        said = phrase(
            Msg.WELCOME,
            name=name,
            what=what,
            tables=len(self.tables),
            players=len(self.online) + (len(self.node.names()) if self.node else 0),
            resume=resume,
        )
        session.send(ev.ok("login", said, fields))
        table = self._table_of(name)
        if table is not None:
            session.table = table  # at once: 'new' or 'seek' right after must see the seat
            table.post(Back(session))

    def logged_in_elsewhere(self, previous: Session) -> None:
        """``previous`` held a name that has just logged in again: it closes, and no
        longer speaks for the name's seat."""
        previous.send(ev.bye(phrase(Msg.LOGGED_IN_ELSEWHERE)))
        previous.name = None
        previous.close()
        self.matchmaking.forget(previous)

    def _table_of(self, name: str) -> Table | None:
        for table in self.tables.values():
            if table.state != TableState.CLOSED and name_key(name) in (
                name_key(s) for s in table.seats if s is not None
            ):
                return table
        return None

    def _table_call(self, session: Session, item: TableCallText) -> None:
        table = session.table
        if table is None and self.refused_for_shutdown(session):  # closed by the shutdown
            return
        if table is None:
            word = item.text.split()[0] if item.text.split() else item.text
            session.send(ev.error("unknown-command", phrase(Msg.NOT_A_COMMAND, word=word)))
            return
        self._post(session, table, TableCall(session, item.text, item.seq))

    def session_named(self, name: str) -> Session | None:
        """``name``'s session: connected here, or under serve --workers a proxy for him
        on another worker; None if neither."""
        session = self.online.get(name_key(name))
        if session is None and self.node is not None:
            return self.node.proxy_named(name_key(name))
        return session

    def post_for(self, session: Session, table: Table, message: Any) -> None:
        self._post(session, table, message)

    def _post(self, session: Session, table: Table, message: Any) -> None:
        """Hand a session's message to its table, or tell the session why not."""
        if table.post(message, request=True):
            return
        if table.state == TableState.CLOSED or table.id not in self.tables:
            if session.table is table:
                session.table, session.seat = None, None
            if not self.refused_for_shutdown(session):
                session.send(ev.Error("unknown-table", f"table {table.id} has closed"))
            return
        session.send(
            ev.Error(
                "busy",
                "your earlier lines at this table are still being handled: wait for their answers",
            )
        )

    def _page(
        self,
        session: Session,
        item: Command,
        items: Sequence[Item],
        args: Sequence[str] | None = None,
    ) -> tuple[tuple[Item, ...], int, int] | None:
        """The items on the page asked for (``args``, the command's own by default: a
        page number or nothing), its number and the number of pages, or None after an
        error (a list is paged and rate-limited: one client cannot make the server copy
        it without end)."""
        size = self.config.page_size
        pages = max(1, math.ceil(len(items) / size))
        args = item.args if args is None else args
        if args and (not args[0].isdecimal() or not 1 <= int(args[0]) <= pages):
            session.send(
                ev.error("bad-argument", phrase(Msg.PAGES, command=item.name, pages=pages))
            )
            return None
        if not self.is_admin(session) and not session.lists.take(trio.current_time()):
            session.send(ev.Error("slow-down", f"too many '{item.name}' at once: wait a little"))
            return None
        page = int(args[0]) if args else 1
        return tuple(items[(page - 1) * size : page * size]), page, pages

    async def _cmd_who(self, session: Session, item: Command) -> None:
        names = [s.name for s in self.online.values() if s.name]
        if self.node is not None:  # and those of every other worker
            names += self.node.names()
        names.sort(key=str.lower)
        paged = self._page(session, item, names)
        if paged is None:
            return
        shown, page, pages = paged
        session.send(ev.Who(shown, len(names), page, pages))

    async def _cmd_tables(self, session: Session, item: Command) -> None:
        infos = [t.info() for t in self.listed_tables()]
        paged = self._page(session, item, infos)
        if paged is None:
            return
        shown, page, pages = paged
        session.send(ev.Tables(shown, len(infos), page, pages))

    def listed_tables(self) -> list[Table]:
        """The open tables anyone may see listed ('tables', the web): not the private."""
        return [
            t
            for _, t in sorted(self.tables.items())
            if t.state != TableState.CLOSED and not t.private
        ]

    def table_room(self, session: Session, opening: bool) -> bool:
        """Whether a new table may open (the server's cap; with ``opening``, a 'new',
        the cap per address too); if not, the session is told."""
        if len(self.tables) >= self.config.max_tables:
            session.send(
                ev.Error("busy", "too many tables are open; sit at one or try again later")
            )
            return False
        cap = self.config.max_tables_per_address
        if (
            opening
            and cap
            and sum(
                1
                for t in self.tables.values()
                if t.state == TableState.WAITING and t.opened_from == session.address
            )
            >= cap
        ):
            session.send(
                ev.Error("busy", f"your address has {cap} waiting tables open; sit at one or wait")
            )
            return False
        return True

    def open_table(self, settings: GameSettings, **board: Any) -> Table:
        rules = self.rules.ruleset(settings.players, settings.variant, settings.options)
        # match number 0: the table draws its own from the store as it starts
        if self.node is not None:  # one of several workers: numbered by the store
            number = self.node.next_table_number()
        else:
            number, self.next_table = self.next_table, self.next_table + 1
        table = Table(number, rules, self, self.config, 0, **board)
        self.tables[table.id] = table
        self.nursery.start_soon(table.run)
        return table

    async def _cmd_new(self, session: Session, item: Command) -> None:
        if not self.free_to_sit(session) or not self.table_room(session, opening=True):
            return
        # 'private' anywhere after 'new' is no rule option: the table is listed to nobody
        args = [a for a in item.args if a.lower() != PRIVATE]
        private = len(args) < len(item.args)
        try:
            settings = game_settings(args, self.rules)
            table = self.open_table(settings, opened_from=session.address, private=private)
        except RuleError as exc:
            session.send(ev.Error("bad-rules", str(exc)))
            return
        session.table = table  # at once: the next line must not open another table
        table.post(Sit(session, None))
        self.matchmaking.fill(table)  # a seeker of this very game sits at once

    def refused_for_shutdown(self, session: Session) -> bool:
        """True, and the session told, once the server is shutting down."""
        if self.accepting:
            return False
        session.send(ev.Error("shutting-down", "the server is shutting down"))
        return True

    def free_to_sit(self, session: Session) -> bool:
        if self.refused_for_shutdown(session):
            return False
        if session.table is not None:
            session.send(
                ev.Error("already-seated", f"you sit at table {session.table.id}: 'leave' first")
            )
            return False
        self.matchmaking.forget(session)  # sitting somewhere ends the wait for a seek
        self.rematches.withdraw(session, ev.RematchOff.ELSEWHERE)
        return True

    async def _cmd_sit(self, session: Session, item: Command) -> None:
        if not self.free_to_sit(session):
            return
        args = item.args
        if not args or not args[0].isdecimal() or (len(args) > 1 and not args[1].isdecimal()):
            session.send(ev.Error("bad-argument", "sit TABLE [SEAT]"))
            return
        table = self._table_named(session, args[0])
        if table is None:
            return
        seat = int(args[1]) if len(args) > 1 else None
        if seat is not None and not 0 <= seat < table.players:
            session.send(ev.Error("bad-argument", f"seats are 0 to {table.players - 1}"))
            return
        self._post(session, table, Sit(session, seat))

    def _table_named(self, session: Session, text: str) -> Table | None:
        """The open table with this number, or None after telling the session so."""
        table = self.tables.get(int(text)) if text.isdecimal() else None
        if table is None or table.state == TableState.CLOSED:
            session.send(ev.Error("unknown-table", f"there is no table {text}"))
            return None
        return table

    async def _cmd_leave(self, session: Session, item: Command) -> None:
        if session.table is not None:
            self._post(session, session.table, Leave(session, item.name == "leave!"))
            return
        if session.observing:
            for table_id in list(session.observing):
                table = self.tables.get(table_id)
                if table is not None:
                    self._post(session, table, Leave(session))
            return
        if self.matchmaking.is_seeking(session):
            await self.matchmaking.unseek(session, item)
            return
        session.send(ev.Error("not-seated", "you sit at no table and observe none"))

    async def _cmd_observe(self, session: Session, item: Command) -> None:
        args = item.args
        if len(args) != 1 or not args[0].isdecimal():
            session.send(ev.Error("bad-argument", "observe TABLE"))
            return
        table = self._table_named(session, args[0])
        if table is None:
            return
        if table is session.table:
            session.send(ev.Error("already-seated", "you sit at that table"))
            return
        self._post(session, table, Observe(session))

    async def _cmd_unobserve(self, session: Session, item: Command) -> None:
        wanted = set(session.observing)
        if item.args:
            table = self._table_named(session, item.args[0])
            if table is None:
                return
            wanted &= {table.id}
        if not wanted:
            session.send(ev.Error("not-allowed", "you observe no such table"))
            return
        for table_id in sorted(wanted):
            table = self.tables.get(table_id)
            session.observing.discard(table_id)
            if table is not None:
                table.post(Unobserve(session))  # once: observing is already dropped
        tables = ",".join(str(t) for t in sorted(wanted))
        said = phrase(Msg.UNOBSERVE, table=tables)
        session.send(ev.ok("unobserve", said, (("table", tables),)))

    async def _cmd_invite(self, session: Session, item: Command) -> None:
        args = item.args
        if len(args) != 1:
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage="invite NAME")))
            return
        name = unicodedata.normalize("NFC", args[0])
        if not accounts.valid_name(name):
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_NAME)))
            return
        if session.table is None:
            session.send(ev.error("not-seated", phrase(Msg.INVITE_NOT_SEATED)))
            return
        if name_key(name) == name_key(session.name or ""):
            session.send(ev.error("bad-argument", phrase(Msg.INVITE_SELF)))
            return
        guest = self.online.get(name_key(name))
        invited = guest.name if guest is not None else None
        present = self.node.elsewhere(name) if self.node is not None else None
        if invited is None and present is not None and present.online:  # on another worker
            invited = present.name
        if invited is None:
            session.send(ev.error("unknown-player", phrase(Msg.NOBODY_HERE, name=name)))
            return
        self._post(session, session.table, Invite(session, invited))

    async def _cmd_rematch(self, session: Session, item: Command) -> None:
        if item.args:
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage="rematch")))
            return
        if self.refused_for_shutdown(session):
            return
        if session.table is not None:
            said = phrase(Msg.REMATCH_SEATED, table=session.table.id)
            session.send(ev.error("already-seated", said))
            return
        self.rematches.ask(session)

    async def _cmd_bot(self, session: Session, item: Command) -> None:
        args = [a.lower() for a in item.args]
        kinds = "|".join(HouseBotKind)
        levels = f"{SEARCH_LEVELS[0]} to {SEARCH_LEVELS[-1]}"
        usage = f"bot {kinds} [LEVEL] [rated]: LEVEL (search only) {levels}"
        rated = bool(args) and args[-1] == "rated"
        if rated:
            args.pop()
        if not args or args[0] not in kinds.split("|") or len(args) > 2:
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage=usage)))
            return
        kind = HouseBotKind(args[0])
        level = None
        if kind == HouseBotKind.SEARCH:
            level = DEFAULT_SEARCH_LEVEL
            if len(args) == 2:
                if not args[1].isdecimal() or int(args[1]) not in SEARCH_LEVELS:
                    session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage=usage)))
                    return
                level = int(args[1])
        elif len(args) == 2:
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage=usage)))
            return
        if rated and kind == HouseBotKind.RANDOM:
            session.send(ev.error("bad-argument", phrase(Msg.RANDOM_NOT_RATED)))
            return
        if not self.house.enabled:
            session.send(ev.error("not-allowed", phrase(Msg.NO_HOUSE_BOTS)))
            return
        if session.table is None:
            session.send(ev.error("not-seated", phrase(Msg.BOT_NOT_SEATED)))
            return
        self._post(session, session.table, SummonBot(session, kind, level, rated))

    async def _cmd_say(self, session: Session, item: Command) -> None:
        text = item.rest
        if not text:
            session.send(ev.Error("bad-argument", "say TEXT"))
            return
        if not session.says.take(trio.current_time()):  # each line is copied to many
            session.send(ev.Error("slow-down", "too many 'say' at once: wait a little"))
            return
        if session.table is not None:
            self._post(session, session.table, Say(session, text))
            return
        if session.observing:  # a watcher talks to the table's other watchers
            table = self.tables.get(min(session.observing))
            if table is not None:
                self._post(session, table, Say(session, text))
                return
        for other in list(self.online.values()):
            if other.table is None:
                other.send(ev.Said(session.name or "?", text, None))
        if self.node is not None:
            self.node.lobby_say(session.name or "?", text)

    def is_admin(self, session: Session) -> bool:
        """A registered name in the admins setting (a ladder polls 'who' as it waits)."""
        return (
            not session.guest
            and session.name is not None
            and name_key(session.name) in self.accounts.admins
        )

    def hold(self, board: str, players: tuple[str, ...], record: ev.DealRecord) -> None:
        """Keep a board's deal record from its players until 'release' (matchmaking)."""
        self.matchmaking.hold(board, players, record)

    async def _cmd_rules(self, session: Session, item: Command) -> None:
        args = item.args
        table = session.table
        if len(args) > 1 or (args and not args[0].isdecimal()):  # as observe and sit
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage="rules [TABLE]")))
            return
        if args:
            table = self._table_named(session, args[0])
            if table is None:
                return
        said = self._rules_list() if table is None else self._rules_lines(table)
        english = tuple(p.text() for p in said)
        session.send(ev.TextBlock("rules", english, tuple(p.text(Lang.RU) for p in said)))

    def _rules_list(self) -> list[Phrase]:
        """Every variant and option (a plugin's summary is in its own words)."""
        lines = [phrase(Msg.RULES_LIST)]
        for rule in self.rules.rules():
            info = rule.info
            if info.kind == RuleKind.PLAYERS:
                continue  # they come with the player count, nobody asks for them
            counts = "/".join(str(p) for p in info.players)
            kind = phrase(Msg.VARIANT if info.kind == RuleKind.VARIANT else Msg.OPTION)
            lines.append(
                phrase(
                    Msg.RULES_ENTRY,
                    name=info.name,
                    kind=kind,
                    counts=counts,
                    summary=for_players(info.summary),
                )
            )
        return lines

    def _rules_lines(self, table: Table) -> list[Phrase]:
        s = table.rules.settings
        c = self.config
        opts = ", ".join(sorted(table.rules.options)) or phrase(Msg.NO_OPTIONS)
        goal = phrase(Msg.ONE_DEAL) if s.target is None else phrase(Msg.TO_TARGET, target=s.target)
        return [
            phrase(
                Msg.RULES_TABLE,
                table=table.id,
                variant=table.rules.variant,
                players=s.players,
                options=opts,
                goal=goal,
            ),
            *(phrase(Msg.AS_IS, text=line) for line in table.rules.describe),
            phrase(
                Msg.RULES_CLOCK,
                human=c.human_clock_ms // 1000,
                bot=c.bot_clock_ms // 1000,
                lag=c.lag_ms,
                timeouts=c.max_timeouts,
                away=c.away_limit_ms // 1000,
            ),
        ]

    async def _cmd_state(self, session: Session, item: Command) -> None:
        table = self._watched(session)
        if table is not None:
            self._post(session, table, ShowState(session))

    async def _cmd_last(self, session: Session, item: Command) -> None:
        table = self._watched(session)
        if table is not None:
            self._post(session, table, ShowLast(session))

    async def _cmd_sheet(self, session: Session, item: Command) -> None:
        table = self._watched(session)
        if table is not None:
            self._post(session, table, ShowSheet(session))

    async def _cmd_history(self, session: Session, item: Command) -> None:
        if (
            session.table is None
            and not session.observing
            and not self.refused_for_shutdown(session)
        ):
            assert session.name is not None  # at no table: your last finished match's
            told = await trio.to_thread.run_sync(self._last_history, session.name)
            if told is None:
                session.send(ev.error("not-seated", phrase(Msg.NO_HISTORY)))
                return
            session.send(told)
            return
        table = self._watched(session)
        if table is not None:
            self._post(session, table, ShowHistory(session))

    def _last_history(self, name: str) -> ev.History | None:
        """The history of ``name``'s last finished match, from the store (its replay is
        public on the web too); None if he has none."""
        games = self.store.recent_games(name, 1)
        if not games:
            return None
        game = games[0]
        records = [json.loads(body) for body in self.store.match_records(game["match"])]
        if not records:
            return None
        names = tuple(records[0]["players"])
        count = len(records[0].get("totals_before") or game["totals"])
        sides = tuple(tuple(range(side, len(names), count)) for side in range(count))
        deals = tuple(history_deal(r) for r in records)
        return ev.History(game["table"], game["match"], names, sides, deals)

    def _watched(self, session: Session) -> Table | None:
        """The table a session sits at, else the first it observes; None after telling
        it that there is none."""
        table = session.table
        if table is None and session.observing:
            table = self.tables.get(min(session.observing))
        if table is None and self.refused_for_shutdown(session):
            return None
        if table is None:
            session.send(ev.Error("not-seated", "you sit at no table and observe none"))
        return table

    async def _cmd_top(self, session: Session, item: Command) -> None:
        args = list(item.args)
        variant = "moscow"
        if args and self.rules.kind_of(args[0]) == RuleKind.VARIANT:
            variant = args.pop(0)
        named = variant != "moscow" or len(args) < len(item.args)
        players = 2
        if args and args[0] in ("2", "3", "4"):
            players = int(args.pop(0))
        elif named and args and args[0].isdecimal():
            # a number after the variant is its player count (a page comes after that)
            session.send(ev.error("bad-argument", phrase(Msg.TOP_PLAYERS, players=args[0])))
            return
        if len(args) > 1 or (args and not args[0].isdecimal()):
            usage = "top [VARIANT] [PLAYERS] [PAGE]"
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage=usage)))
            return
        rows = await trio.to_thread.run_sync(self.store.standings, variant, players)
        paged = self._page(session, item, rows, args)
        if paged is None:
            return
        shown, page, pages = paged
        first = (page - 1) * self.config.page_size + 1
        rated = tuple(_rated(first + i, r) for i, r in enumerate(shown))
        session.send(ev.Top(variant, players, rated, len(rows), page, pages))

    async def _cmd_finger(self, session: Session, item: Command) -> None:
        if len(item.args) > 1:
            session.send(ev.error("bad-argument", phrase(Msg.USAGE, usage="finger [NAME]")))
            return
        name = unicodedata.normalize("NFC", item.args[0]) if item.args else session.name
        assert name is not None
        if not accounts.valid_name(name):
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_NAME)))
            return
        online = self.online.get(name_key(name))
        present = self.node.elsewhere(name) if self.node is not None else None
        elsewhere = present is not None and present.online  # on another worker
        store = self.store
        house_bot = is_house_rating_name(name)

        def look_up() -> tuple[bool, list[ev.Rated], list[str]]:
            ratings = []
            for r in store.player_ratings(name):
                keys = [name_key(s.name) for s in store.standings(r.variant, r.players)]
                ratings.append(_rated(keys.index(name_key(r.name)) + 1, r))
            if house_bot:  # its copies played them
                last = [row["match"] for _, row in house_bot_games(store, name, 10)]
            else:
                last = [g["match"] for g in store.recent_games(name)]
            return store.account(name) is not None, ratings, last

        registered, ratings, last = await trio.to_thread.run_sync(look_up)
        if not registered and online is None and not elsewhere and not last and not ratings:
            session.send(ev.error("unknown-player", phrase(Msg.NOBODY_PLAYED, name=name)))
            return
        shown = online.name if online is not None and online.name else name
        if online is None and present is not None:
            shown = present.name
        here = online is not None or elsewhere
        session.send(ev.Finger(shown, registered, here, tuple(ratings), tuple(last), house_bot))

    async def _cmd_games(self, session: Session, item: Command) -> None:
        name = item.args[0] if item.args else session.name
        assert name is not None
        rows = await trio.to_thread.run_sync(self.store.recent_games, name)
        session.send(ev.Games(name, tuple(_game(r) for r in rows)))

    # ----------------------------------------------------------- shutdown
    def shutdown(self, reason: str) -> None:
        self.accepting = False
        for session in list(self.online.values()):
            session.send(ev.info(phrase(Msg.SHUTTING_DOWN, reason=reason)))
        for table in list(self.tables.values()):
            table.post(Stop(reason))


def _rated(rank: int, r: PlayerRating) -> ev.Rated:
    return ev.Rated(
        rank, r.name, r.variant, r.players, r.rating, r.mu, r.sigma,
        r.games, r.wins, r.losses, r.draws,
    )  # fmt: skip


def _game(row: dict[str, Any]) -> ev.Game:
    return ev.Game(
        match=row["match"],
        table=row["table"],
        players=tuple(row["players"]),
        variant=row["variant"],
        winner=row["winner"],
        reason=row["reason"],
        totals=tuple(row["totals"]),
        finished=row["finished"],
    )


def _lang_argument(args: tuple[str, ...]) -> tuple[tuple[str, ...], Lang | None] | None:
    """'login NAME [SECRET] lang=ru': the other arguments and the language asked for
    (None if none was); None if what follows 'lang=' is no language."""
    asked = [a for a in args if a.lower().startswith("lang=")]
    if not asked:
        return args, None
    word = asked[-1][len("lang=") :].lower()
    if len(asked) > 1 or word not in [str(c) for c in Lang]:
        return None
    return tuple(a for a in args if a not in asked), Lang(word)
