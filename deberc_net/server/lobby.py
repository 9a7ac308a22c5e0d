"""The lobby: who is here, which tables exist, and every command that is not a table call."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

import attrs
import structlog
import trio

from deberc_net import __version__
from deberc_net.plugins import RuleBook, RuleError, RuleKind
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import (
    CALLS_HELP,
    PROTOCOL_VERSION,
    Command,
    TableCallText,
    help_text,
)
from deberc_net.protocol.render import HUMAN, MACHINE

from . import accounts
from .accounts import name_key
from .config import Config
from .session import Session
from .store import Store
from .table import (
    Away,
    Back,
    Leave,
    Observe,
    Say,
    ShowState,
    Sit,
    Stop,
    Table,
    TableCall,
    Unobserve,
)

log = structlog.get_logger("deberc.lobby")
BOARD_KEY = re.compile(r"[A-Za-z0-9_./-]{1,64}")
MAX_FAILED_LOGINS = 3  # wrong passwords on one connection before it is closed


@attrs.frozen
class GameSettings:
    players: int
    variant: str
    options: tuple[str, ...]


@attrs.define(eq=False)
class Lobby:
    config: Config
    store: Store
    nursery: trio.Nursery
    rules: RuleBook  # every rule plugin, loaded at start-up
    online: dict[str, Session] = attrs.Factory(dict)  # by lower-cased name
    tables: dict[int, Table] = attrs.Factory(dict)
    seekers: list[Session] = attrs.Factory(list)
    # a ladder's boards: deal records kept from their players until the admin releases
    # them, once every seating of the board is played (docs/protocol.md §5.5a)
    held: dict[str, list[tuple[tuple[str, ...], ev.DealRecord]]] = attrs.Factory(dict)
    next_table: int = 1
    next_match: int = attrs.field(init=False, default=1)
    accepting: bool = True

    def __attrs_post_init__(self) -> None:
        self.next_match = self.store.max_match_number() + 1

    # ----------------------------------------------------------- sessions
    def hello(self, session: Session) -> None:
        session.send(ev.Hello(__version__, PROTOCOL_VERSION))

    def disconnected(self, session: Session) -> None:
        if session in self.seekers:
            self.seekers.remove(session)
        for table_id in list(session.observing):
            table = self.tables.get(table_id)
            if table is not None:
                table.observers.discard(session)
        name = session.name
        if name is not None and self.online.get(name_key(name)) is session:
            del self.online[name_key(name)]
            if session.table is not None:
                session.table.post(Away(name))

    def table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        for observer in list(table.observers):
            observer.observing.discard(table.id)

    # ----------------------------------------------------------- commands
    async def handle(self, session: Session, item: Command | TableCallText) -> None:
        if isinstance(item, TableCallText):
            self._table_call(session, item)
            return
        name = item.name
        if name == "help":
            session.send(ev.TextBlock("help", tuple(self._help(session, item.args))))
            return
        if name == "calls":
            session.send(ev.TextBlock("help", tuple(CALLS_HELP.rstrip().splitlines())))
            return
        if name == "quit":
            session.send(ev.Bye("Bye. Your seat, if any, waits for you."))
            session.close()
            return
        if name == "style":
            self._style(session, item.args)
            return
        if name == "login":
            await self._login(session, item.args)
            return
        if session.name is None:
            session.send(ev.Error("not-logged-in", "log in first: login NAME [PASSWORD]"))
            return
        handler = getattr(self, "_cmd_" + name)
        await handler(session, item)

    def _help(self, session: Session, args: Sequence[str]) -> list[str]:
        if args:
            return help_text(args[0])
        if session.name is None:
            return help_text(phase="login")
        table = session.table
        if table is None:
            return help_text(phase="lobby")
        calls: list[str] = []
        match, seat = table.match, session.seat
        if match is not None and seat is not None:  # a read of the table's state
            calls = [c.token() for c in match.legal_calls(seat)]
        return help_text(phase="table", calls_now=calls)

    def _style(self, session: Session, args: Sequence[str]) -> None:
        if len(args) != 1 or args[0].lower() not in (HUMAN, MACHINE):
            session.send(ev.Error("bad-argument", "style human|machine"))
            return
        session.style = args[0].lower()
        session.send(ev.Ok("style", f"Style {session.style}.", (("style", session.style),)))

    async def _login(self, session: Session, args: Sequence[str]) -> None:
        if len(args) not in (1, 2):
            session.send(ev.Error("bad-argument", "login NAME [PASSWORD]"))
            return
        name = unicodedata.normalize("NFC", args[0])
        if not accounts.valid_name(name):
            session.send(ev.Error("bad-argument", "a name is 2-20 letters, digits, '_' or '-'"))
            return
        if session.name is not None:
            session.send(ev.Error("not-allowed", f"you are logged in as {session.name}"))
            return
        if len(args) == 2:
            problem = await accounts.check_or_register(self.store, name, args[1])
            if problem:
                session.failed_logins += 1
                session.send(ev.Error("bad-password", problem))
                if session.failed_logins >= MAX_FAILED_LOGINS:  # guessing: a slow hash
                    session.send(ev.Bye("Too many wrong passwords."))  # each, not for free
                    session.close()
                return
            guest = False
        else:
            if await accounts.is_registered(self.store, name):
                session.send(ev.Error("bad-password", f"{name} is registered: give the password"))
                return
            guest = True
        if session.closed:
            return
        previous = self.online.get(name_key(name))
        if previous is not None:
            previous.send(ev.Bye("You logged in from another connection; this one closes."))
            previous.name = None  # it no longer speaks for the seat
            previous.close()
            if previous in self.seekers:
                self.seekers.remove(previous)
        session.name, session.guest = name, guest
        self.online[name_key(name)] = session
        session.log = session.log.bind(name=name)
        log.info("login", name=name, guest=guest, conn=session.id)
        what = "guest" if guest else "registered"
        session.send(ev.Ok(
            "login",
            f"Hello, {name} ({what}). {len(self.tables)} tables, {len(self.online)} players "
            "here. 'tables', 'new', 'sit N', 'seek', 'help'.",
            (("name", name), ("guest", "1" if guest else "0")),
        ))
        table = self._table_of(name)
        if table is not None:
            session.table = table  # at once: 'new' or 'seek' right after must see the seat
            table.post(Back(session))

    def _table_of(self, name: str) -> Table | None:
        for table in self.tables.values():
            if table.state != "closed" and name_key(name) in (
                name_key(s) for s in table.seats if s is not None
            ):
                return table
        return None

    def _table_call(self, session: Session, item: TableCallText) -> None:
        if session.name is None:
            session.send(ev.Error("not-logged-in", "log in first: login NAME [PASSWORD]"))
            return
        table = session.table
        if table is None:
            word = item.text.split()[0] if item.text.split() else item.text
            session.send(ev.Error("unknown-command",
                                  f"{word!r} is not a command, and you sit at no table. "
                                  "Type 'help'."))
            return
        if not table.post(TableCall(session, item.text, item.seq)):
            session.send(ev.Error("busy", "the table is busy; say it again"))

    async def _cmd_who(self, session: Session, item: Command) -> None:
        names = sorted((s.name for s in self.online.values() if s.name), key=str.lower)
        session.send(ev.Who(tuple(names)))

    async def _cmd_tables(self, session: Session, item: Command) -> None:
        infos = tuple(t.info() for _, t in sorted(self.tables.items()) if t.state != "closed")
        session.send(ev.Tables(infos))

    def _settings(self, args: Sequence[str]) -> GameSettings:
        players, rest = 2, list(args)
        if rest and rest[0].isdecimal():
            players = int(rest.pop(0))
        variant = "moscow"
        if rest and self.rules.kind_of(rest[0]) == RuleKind.VARIANT:
            variant = rest.pop(0)
        options = tuple(sorted(set(rest)))
        return GameSettings(players, variant, options)

    def _open_table(self, settings: GameSettings, **board: Any) -> Table:
        rules = self.rules.ruleset(settings.players, settings.variant, settings.options)
        table = Table(self.next_table, rules, self, self.config, self.next_match, **board)
        self.next_table += 1
        self.next_match += 1
        self.tables[table.id] = table
        self.nursery.start_soon(table.run)
        return table

    async def _cmd_new(self, session: Session, item: Command) -> None:
        if not self._free_to_sit(session):
            return
        if len(self.tables) >= self.config.max_tables:
            session.send(ev.Error("busy", "too many tables are open; sit at one or seek"))
            return
        try:
            table = self._open_table(self._settings(item.args))
        except RuleError as exc:
            session.send(ev.Error("bad-rules", str(exc)))
            return
        session.table = table  # at once: the next line must not open another table
        table.post(Sit(session, None))

    def _free_to_sit(self, session: Session) -> bool:
        if not self.accepting:
            session.send(ev.Error("shutting-down", "the server is shutting down"))
            return False
        if session.table is not None:
            session.send(ev.Error("already-seated",
                                  f"you sit at table {session.table.id}: 'leave' first"))
            return False
        if session in self.seekers:  # sitting somewhere ends the wait for a seek
            self.seekers.remove(session)
            session.seeking = None
        return True

    async def _cmd_sit(self, session: Session, item: Command) -> None:
        if not self._free_to_sit(session):
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
        table.post(Sit(session, seat))

    def _table_named(self, session: Session, text: str) -> Table | None:
        """The open table with this number, or None after telling the session so."""
        table = self.tables.get(int(text)) if text.isdecimal() else None
        if table is None or table.state == "closed":
            session.send(ev.Error("unknown-table", f"there is no table {text}"))
            return None
        return table

    async def _cmd_leave(self, session: Session, item: Command) -> None:
        if session.table is not None:
            session.table.post(Leave(session))
            return
        if session.observing:
            for table_id in list(session.observing):
                table = self.tables.get(table_id)
                if table is not None:
                    table.post(Leave(session))
            return
        if session in self.seekers:
            await self._cmd_unseek(session, item)
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
        table.post(Observe(session))

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
                table.post(Unobserve(session))
        tables = ",".join(str(t) for t in sorted(wanted))
        session.send(ev.Ok("unobserve", f"You stop observing table {tables}.",
                           (("table", tables),)))

    async def _cmd_say(self, session: Session, item: Command) -> None:
        text = item.rest
        if not text:
            session.send(ev.Error("bad-argument", "say TEXT"))
            return
        if session.table is not None:
            session.table.post(Say(session, text))
            return
        for other in list(self.online.values()):
            if other.table is None:
                other.send(ev.Said(session.name or "?", text, None))

    async def _cmd_seek(self, session: Session, item: Command) -> None:
        if not self._free_to_sit(session):
            return
        if item.args == ("reserved",):
            self._seek_reserved(session)
            return
        settings = self._settings(item.args)
        try:
            self.rules.ruleset(settings.players, settings.variant, settings.options)
        except RuleError as exc:
            session.send(ev.Error("bad-rules", str(exc)))
            return
        if session in self.seekers:
            self.seekers.remove(session)
        session.seeking = (settings,)
        self.seekers.append(session)
        session.send(ev.Ok("seek", f"Waiting for a {settings.players}-player {settings.variant} "
                           "game.", (("players", str(settings.players)),
                                     ("variant", settings.variant),
                                     ("options", ",".join(settings.options)))))
        same = [s for s in self.seekers if s.seeking == session.seeking]
        if len(same) >= settings.players:
            group = same[: settings.players]
            for s in group:
                self.seekers.remove(s)
                s.seeking = None
            table = self._open_table(settings)
            for s in group:
                table.post(Sit(s, None))

    def _seek_reserved(self, session: Session) -> None:
        assert session.name is not None
        for table in self.tables.values():
            if table.state == "waiting" and table.reserved is not None and name_key(
                session.name
            ) in (name_key(n) for n in table.reserved):
                table.post(Sit(session, None))
                return
        session.seeking = ("reserved",)
        self.seekers.append(session)
        session.send(ev.Ok("seek", "Waiting for a table reserved for you.",
                           (("reserved", "1"),)))

    async def _cmd_reserve(self, session: Session, item: Command) -> None:
        """A ladder's board: a table for given players in given seats, seed, deal limit."""
        if not self.is_admin(session):
            session.send(ev.Error("not-allowed", "reserve is for the server's admins"))
            return
        if not self.accepting:  # as new, sit and seek: no new table while shutting down
            session.send(ev.Error("shutting-down", "the server is shutting down"))
            return
        keyed = dict(a.split("=", 1) for a in item.args if "=" in a)
        plain = [a for a in item.args if "=" not in a]
        seats = tuple(keyed.get("seats", "").split(",")) if keyed.get("seats") else ()
        settings = self._settings(plain)
        if len(seats) != settings.players or len({name_key(n) for n in seats}) != len(seats):
            session.send(ev.Error("bad-argument", f"seats= names {settings.players} different "
                                  "players"))
            return
        deals = keyed.get("deals")
        if deals is not None and (not deals.isdecimal() or int(deals) < 1):
            session.send(ev.Error("bad-argument", "deals=N takes a whole number from 1"))
            return
        board = keyed.get("board")
        if board is not None and not BOARD_KEY.fullmatch(board):
            session.send(ev.Error("bad-argument", "board=KEY takes 1-64 letters, digits, "
                                  "'_', '-', '.' or '/'"))
            return
        try:
            table = self._open_table(settings, seed=keyed.get("seed"), reserved=seats,
                                     deal_limit=int(deals) if deals else None, board=board)
        except RuleError as exc:
            session.send(ev.Error("bad-rules", str(exc)))
            return
        session.send(ev.Ok("reserve", f"Table {table.id} is reserved for {', '.join(seats)}.",
                           (("table", str(table.id)),)))
        table.post(Observe(session))  # before anyone sits: the admin sees the whole board
        for seeker in list(self.seekers):
            if seeker.seeking == ("reserved",) and seeker.name is not None and name_key(
                seeker.name
            ) in (name_key(n) for n in seats):
                self.seekers.remove(seeker)
                seeker.seeking = None
                table.post(Sit(seeker, None))

    def is_admin(self, session: Session) -> bool:
        admins = {name_key(n) for n in self.config.admins}
        return not session.guest and session.name is not None and (
            name_key(session.name) in admins)

    def hold(self, board: str, players: tuple[str, ...], record: ev.DealRecord) -> None:
        self.held.setdefault(board, []).append((players, record))

    async def _cmd_release(self, session: Session, item: Command) -> None:
        """A ladder's board is played in every seating: its players get its records."""
        if not self.is_admin(session):
            session.send(ev.Error("not-allowed", "release is for the server's admins"))
            return
        if len(item.args) != 1:
            session.send(ev.Error("bad-argument", "release BOARD"))
            return
        board = item.args[0]
        held = self.held.pop(board, [])
        for players, record in held:
            for name in players:
                player = self.online.get(name_key(name))
                if player is not None:
                    player.send(record)
        session.send(ev.Ok("release", f"{len(held)} records of board {board} released.",
                           (("board", board), ("records", str(len(held))))))

    async def _cmd_unseek(self, session: Session, item: Command) -> None:
        if session in self.seekers:
            self.seekers.remove(session)
            session.seeking = None
            session.send(ev.Ok("unseek", "You no longer wait for a game."))
        else:
            session.send(ev.Error("not-allowed", "you are not waiting for a game"))

    async def _cmd_rules(self, session: Session, item: Command) -> None:
        args = item.args
        table = session.table
        if args:
            table = self._table_named(session, args[0])
            if table is None:
                return
        if table is None:
            lines = ["Variants and options you can ask for with 'new' or 'seek':"]
            for rule in self.rules.rules():
                info = rule.info
                if info.kind == RuleKind.PLAYERS:
                    continue  # they come with the player count, nobody asks for them
                counts = "/".join(str(p) for p in info.players)
                lines.append(f"{info.name} ({info.kind}, {counts} players): {info.summary}")
            session.send(ev.TextBlock("rules", tuple(lines)))
            return
        session.send(ev.TextBlock("rules", tuple(self._rules_lines(table))))

    def _rules_lines(self, table: Table) -> list[str]:
        s = table.rules.settings
        c = self.config
        opts = ", ".join(sorted(table.rules.options)) or "none"
        return [
            f"Table {table.id}: {table.rules.variant}, {s.players} players, options: {opts}, "
            + (f"to {s.target}." if s.target is not None else "one deal decides."),
            *table.rules.describe,
            f"Clock: {c.human_clock_ms // 1000} s a call for people, {c.bot_clock_ms // 1000} s "
            f"for machine-style connections, plus {c.lag_ms} ms lag allowance. Out of time: "
            "pass in bidding, the forced answer in the table talk, the lowest legal card in "
            f"play. {c.max_timeouts} timeouts in a row, or {c.away_limit_ms // 1000} s "
            "disconnected, forfeit the game.",
        ]

    async def _cmd_state(self, session: Session, item: Command) -> None:
        table = session.table
        if table is None and session.observing:
            table = self.tables.get(min(session.observing))
        if table is None:
            session.send(ev.Error("not-seated", "you sit at no table and observe none"))
            return
        table.post(ShowState(session))

    async def _cmd_games(self, session: Session, item: Command) -> None:
        name = item.args[0] if item.args else session.name
        assert name is not None
        rows = await trio.to_thread.run_sync(self.store.recent_games, name)
        session.send(ev.Games(name, tuple(_game(r) for r in rows)))

    # ----------------------------------------------------------- shutdown
    def shutdown(self, reason: str) -> None:
        self.accepting = False
        for session in list(self.online.values()):
            session.send(ev.Info(f"The server is shutting down: {reason}."))
        for table in list(self.tables.values()):
            table.post(Stop(reason))


def _game(row: dict[str, Any]) -> ev.Game:
    return ev.Game(
        match=row["match"], table=row["table"], players=tuple(row["players"]),
        variant=row["variant"], winner=row["winner"], reason=row["reason"],
        totals=tuple(row["totals"]), finished=row["finished"],
    )
