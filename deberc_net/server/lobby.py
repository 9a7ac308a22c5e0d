"""The lobby: who is here, which tables exist, and the one table that hands each command
to its handler (the handlers live in modules by job: login.py, help.py, preferences.py,
seating.py, table_requests.py, chat.py, club.py, matchmaking.py, moderation.py,
ignoring.py)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import attrs
import trio

from deberc_net import __version__
from deberc_net.plugins import RuleBook
from deberc_net.plugins.naming import own_count, variant_named
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import (
    COMMANDS,
    PROTOCOL_VERSION,
    Command,
    NewGames,
    TableCallText,
    number_word,
)
from deberc_net.protocol.events import TableState
from deberc_net.protocol.hints import not_a_command
from deberc_net.protocol.messages import Msg, Phrase, count_phrase, phrase
from deberc_net.protocol.said_back import said_back

from .accounts import Accounts, name_key
from .allowance import may_sit
from .chat import Chat
from .club import Club
from .cluster.looks import handled_after_look, unknown_named
from .config import Config
from .cut_off import CutOff
from .drain import Drain
from .help import Help
from .house import HouseBots
from .ignoring import Ignoring
from .limits import AddressBuckets
from .login import Login
from .matchmaking import GameSettings, Matchmaking
from .missed import Missed
from .moderation import Moderation
from .password_change import PasswordChange
from .preferences import Preferences
from .ratings import load_rating_model
from .rematch import Rematches, offer_s
from .seating import Seating
from .session import LastMatch, Session, stopped_watching
from .spawner import Spawner
from .store import Store, StoreError
from .store_writer import StoreWriter
from .table import Table
from .table_messages import Away, Stop, TableCall, Unobserve
from .table_numbers import TableNumbers
from .table_requests import TableRequests

if TYPE_CHECKING:
    from .cluster.node import Node
    from .own_stall import StallWatch

Handler = Callable[[Session, Command], Awaitable[None]]
NAMES_KEPT = 1000  # names' seat, lists and chat allowances kept (refilled offline ones go first)
MATCH_NUMBER_BLOCK = 16  # match numbers drawn from the store at once
TABLE_NUMBER_SAID = 12  # characters of an unknown table's number said back, at most
# the lines that may open a table (server/table_numbers.py: a worker waits for its numbers)
OPENS_TABLES = frozenset({"new", "seek", "reserve", "rematch"})


class Online(dict[str, Session]):
    """The logged-in sessions here by name key, counting its changes (a login, a
    logout, a name taken over by another connection or worker): a table keeps its
    seats' sessions while the count stands (``Table._seated_sessions``), instead of
    looking each up at every event."""

    __slots__ = ("changes",)

    def __init__(self) -> None:
        super().__init__()
        self.changes = 0

    def __setitem__(self, key: str, session: Session) -> None:
        self.changes += 1
        super().__setitem__(key, session)

    def __delitem__(self, key: str) -> None:
        self.changes += 1
        super().__delitem__(key)

    def pop(self, key: str, *default: Any) -> Any:
        self.changes += 1
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, Session]:
        self.changes += 1
        return super().popitem()

    def setdefault(self, key: str, session: Session) -> Session:
        self.changes += 1
        return super().setdefault(key, session)

    def update(self, *args: Any, **kwargs: Session) -> None:
        self.changes += 1
        super().update(*args, **kwargs)

    def clear(self) -> None:
        self.changes += 1
        super().clear()

    def __ior__(self, other: Any) -> Online:  # type: ignore[override,misc]
        self.changes += 1
        return super().__ior__(other)


@attrs.define(eq=False)
class Lobby:
    config: Config
    store: Store
    spawner: Spawner  # starts the tables' tasks (the server's nursery)
    rules: RuleBook  # every rule plugin, loaded at start-up
    online: Online = attrs.Factory(Online)  # by lower-cased name
    tables: dict[int, Table] = attrs.Factory(dict)
    accepting: bool = True
    accounts: Accounts = attrs.field(init=False)
    # a guest name's resume token, while the guest is connected or holds a seat
    guest_tokens: dict[str, str] = attrs.Factory(dict)
    matchmaking: Matchmaking = attrs.field(init=False)
    house: HouseBots = attrs.field(init=False)
    rematches: Rematches = attrs.field(init=False)
    # the commands, by the job they do (each module's docstring says which)
    login: Login = attrs.field(init=False)
    passwords: PasswordChange = attrs.field(init=False)
    help: Help = attrs.field(init=False)
    preferences: Preferences = attrs.field(init=False)
    seating: Seating = attrs.field(init=False)
    table_requests: TableRequests = attrs.field(init=False)
    chat: Chat = attrs.field(init=False)
    club: Club = attrs.field(init=False)
    moderation: Moderation = attrs.field(init=False)
    ignoring: Ignoring = attrs.field(init=False)
    # each name's seats given up (at waiting tables, or a running match left): the
    # connection's seat allowance kept with the name, so logging in again gives none
    # back (allowance.py; docs/security.md §6)
    name_churn: AddressBuckets = attrs.field(init=False)
    # each name's lists and chat lines, the connection's allowances kept with the name
    # in the same way: a noisy housemate behind one NAT who logs in again spends no
    # more of his address's shared allowance (docs/security.md, "Many people behind
    # one address")
    name_lists: AddressBuckets = attrs.field(init=False)
    name_says: AddressBuckets = attrs.field(init=False)
    # what a player missed while away (his seat freed, his match over), told at his
    # next login (missed.py)
    missed: Missed = attrs.Factory(Missed)
    # a registered player's last match cut off by a stop: told after a restart
    cut_off: CutOff = attrs.field(init=False)
    # SIGUSR1's (or an admin's 'drain'): no new table, the running matches played out,
    # then the stop (drain.py)
    drain: Drain = attrs.field(init=False)
    # every command's handler, by the command's name (protocol/commands.py: COMMANDS)
    handlers: dict[str, Handler] = attrs.field(init=False)
    # serve --workers: this worker's share of the one lobby (server/cluster/); None alone
    node: Node | None = None
    # the look that measures the server's own stall, which counts against no player
    # (own_stall.py: a lone server's, or a worker's node's); None: none looks
    stall: StallWatch | None = None
    # the tables' store writes, in order, off their path (closed before the store is),
    # those queued at once in one group of the store's (one SQLite transaction)
    writes: StoreWriter = attrs.Factory(
        lambda self: StoreWriter(self.store.group, load_rating_model), takes_self=True
    )
    # match numbers drawn from the store and not used yet, the next last
    _match_numbers: list[int] = attrs.Factory(list)
    table_numbers: TableNumbers = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.accounts = Accounts(self.store, self.config)
        c = self.config
        self.name_churn = AddressBuckets(c.seat_churn_per_s, c.seat_churn_burst, NAMES_KEPT)
        self.name_lists = AddressBuckets(c.lists_per_s, c.lists_burst, NAMES_KEPT)
        self.name_says = AddressBuckets(c.say_per_s, c.say_burst, NAMES_KEPT)
        # (shared from the moment a worker's node opens: cluster/node.py)
        self.table_numbers = TableNumbers(self.store.new_table_numbers, self.spawner, shared=False)
        self.matchmaking = Matchmaking(self)
        self.rematches = Rematches(self)
        self.login = Login(self)
        self.passwords = PasswordChange(self)
        self.help = Help(self)
        self.preferences = Preferences(self)
        self.seating = Seating(self)
        self.table_requests = TableRequests(self)
        self.chat = Chat(self)
        self.club = Club(self)
        self.moderation = Moderation(self)
        self.ignoring = Ignoring(self)
        self.cut_off = CutOff(self.store, self.writes, self.online)
        self.drain = Drain(self)
        config = self.config
        self.house = HouseBots(
            self,
            self.spawner,
            config.house_bots,
            config.house_bots_per_table,
            config.max_house_bots,
            config.house_bots_per_address,
            starts_per_s=config.house_bot_starts_per_address_per_s,
            starts_burst=config.house_bot_starts_per_address_burst,
            server_starts_per_s=config.house_bot_starts_per_s,
            server_starts_burst=config.house_bot_starts_burst,
            search_tables_per_address=config.house_search_tables_per_address,
            search_tables=config.max_house_search_tables,
            nice=config.house_bot_nice,
        )
        mm = self.matchmaking
        self.handlers = {
            "help": self.help.help,
            "calls": self.help.calls,
            "quit": self.preferences.quit,
            "style": self.preferences.style,
            "sort": self.preferences.sort,
            "clock": self.preferences.clock,
            "lang": self.preferences.lang,
            "login": self.login.login,
            "password": self.passwords.password,
            "ping": self.preferences.ping,
            "who": self.club.who,
            "tables": self.club.tables,
            "new": self.seating.new,
            "sit": self.seating.sit,
            "leave": self.seating.leave,
            "leave!": self.seating.leave,
            "observe": self.seating.observe,
            "unobserve": self.seating.unobserve,
            "say": self.chat.say,
            "rules": self.help.rules,
            "state": self.table_requests.state,
            "games": self.club.games,
            "last": self.club.last,
            "sheet": self.club.sheet,
            "history": self.club.history,
            "invite": self.chat.invite,
            "bot": self.table_requests.bot,
            "rematch": self.seating.rematch,
            "top": self.club.top,
            "finger": self.club.finger,
            "seek": mm.seek,
            "unseek": mm.unseek,
            "reserve": mm.reserve,
            "release": mm.release,
            "announce": self.moderation.announce,
            "kick": self.moderation.kick,
            "ban": self.moderation.ban,
            "unban": self.moderation.unban,
            "bans": self.moderation.bans,
            "mutes": self.moderation.mutes_listed,
            "mute": self.moderation.mute,
            "unmute": self.moderation.unmute,
            "drain": self.moderation.drain,
            "ignore": self.ignoring.ignore,
            "unignore": self.ignoring.unignore,
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
                # another worker's table: the away names this connection (its owner may
                # read it after his login there, the bus slower than he: node.py _posted)
                went = session if session.table.remote else None
                session.table.post(Away(name, went=went, at=trio.current_time()))
            elif not self.may_seat(name):  # nothing to come back to: the name is free
                self.guest_tokens.pop(name_key(name), None)
            if self.node is not None:  # a guest's token goes on while he holds a seat
                self.node.logged_out(name, self.guest_tokens.get(name_key(name)))
        if self.node is not None:
            self.node.disconnected(session)

    def table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self.house.table_closed(table)  # a house bot leaves with its table
        match = table.match
        watched = match.match_id if match is not None and match.over else None
        now = trio.current_time()
        for observer in list(table.observers):
            # first: a remote observer's worker is told the match with his leaving
            stopped_watching(observer, watched, now, table.id, offer_s(self))
            observer.observing.discard(table.id)
        for name in table.seats:
            if name is not None and name_key(name) not in self.online:
                self.guest_tokens.pop(name_key(name), None)

    def own_match_over(self, names: Iterable[str], table: int) -> None:
        """The match of ``names`` at ``table`` is over (told them next): it ended after
        any they watched, so 'sheet', 'history' and 'last' at no table tell it (the
        store's times are whole seconds: a tie is the watched one's, club.py), and for
        rematch_ms a line of theirs that is no command is told it is over. A player at
        another worker's connection: his worker is told (node.py)."""
        last = LastMatch(table, trio.current_time() + offer_s(self))
        for name in names:
            player = self.online.get(name_key(name))
            if player is not None:
                player.watched_match, player.watched_over = None, None
                player.last_match = last
            elif self.node is not None:
                self.node.own_match_over(name, table)

    # ----------------------------------------------------------- commands
    async def handle(self, session: Session, item: Command | TableCallText) -> None:
        """One line from a session: the connection has let it through (a command that
        needs a login comes only from a logged-in session)."""
        if isinstance(item, TableCallText):
            self._table_call(session, item)
            return
        # under serve --workers, a table number not known here may be another worker's
        # table just opened, its copy on its way: looked for first, the next line
        # waiting for the answer (cluster/looks.py)
        number = unknown_named(self, session, item)
        if number is not None:
            session.requests_waiting += 1
            self.spawner.start_soon(handled_after_look, self, session, item, number)
            return
        if item.name in OPENS_TABLES:  # a worker's numbers drawn in a thread, if few are left
            try:
                await self.table_numbers.ready()
            except StoreError:  # (logged by the draw) the database away: not a bug of ours
                session.send(ev.error("busy", phrase(Msg.NO_TABLE_NUMBER)))
                return
            if session.connection.closed:  # gone while it waited: nothing to open
                return
        await self.handlers[item.name](session, item)

    async def new_match_number(self) -> int:
        """A match number unique among every server on the same database: from a block
        drawn from the store (a trip to its thread every MATCH_NUMBER_BLOCK matches
        rather than every match)."""
        while not self._match_numbers:
            drawn = await self.writes.run(
                functools.partial(self.store.new_match_numbers, MATCH_NUMBER_BLOCK)
            )
            self._match_numbers.extend(reversed(drawn))  # (another table may have drawn too)
        return self._match_numbers.pop()

    def give_back_numbers(self) -> None:
        """The table and match numbers drawn ahead and never used, given back to the store
        as the server stops: a lone SQLite server's next start numbers its next table and
        match on from its last, no gap of a block (docs/protocol.md §5.2). Synchronous:
        the server's loop is over."""
        unused = sorted(self._match_numbers)
        if unused and unused == list(range(unused[0], unused[-1] + 1)):
            self.store.give_back_numbers("match_numbers", unused[0], unused[-1])
        tables = self.table_numbers.unused()
        if tables is not None:
            self.store.give_back_numbers("table_numbers", *tables)

    def may_seat(self, name: str) -> bool:
        """Whether a table may hold a seat for ``name``: one here, or under serve
        --workers one told closed by a stall (its owner may live and tell it again)."""
        return self.table_of(name) is not None or (
            self.node is not None and self.node.seat_held_elsewhere(name)
        )

    def table_of(self, name: str) -> Table | None:
        for table in self.tables.values():
            if table.state != TableState.CLOSED and name_key(name) in (
                name_key(s) for s in table.seats if s is not None
            ):
                return table
        return None

    def _opening(self, text: str) -> str | None:
        """The ``new`` a variant's name typed alone means (``харьков``: ``new 2
        харьков``; it was told only "not a command", a tryout, s50), in the variant's
        own player count and as typed; None for any other line."""
        words = text.split()
        variant = variant_named(words[0], self.rules) if len(words) == 1 else None
        if variant is None:
            return None
        return f"new {own_count(variant, self.rules)} {words[0]}"

    def _table_call(self, session: Session, item: TableCallText) -> None:
        table = session.table
        if table is None and self.refused_for_shutdown(session):  # closed by the shutdown
            return
        if table is None:
            word = item.text.split()[0] if item.text.split() else item.text
            # a table call just after his match ended (for rematch_ms, as long as a
            # rematch may be asked, whether or not its offer stands: one whose seek was
            # given back was told the bare line, club evening s39): said so, not as if
            # he never sat anywhere
            over = session.last_match
            if over is not None and trio.current_time() < over.until:
                said = phrase(Msg.NOT_A_COMMAND_OVER, table=over.table, word=said_back(word))
            elif session.observing:  # a watcher: "you sit at no table" alone (s46)
                said = phrase(
                    Msg.NOT_A_COMMAND_WATCHING,
                    table=min(session.observing),
                    word=said_back(word),
                )
            else:
                said = phrase(Msg.NOT_A_COMMAND, word=said_back(word))
            session.send(not_a_command(said, item.text, self._opening(item.text)))
            return
        self.post_for(session, table, TableCall(session, item.text, item.seq))

    def session_named(self, name: str) -> Session | None:
        """``name``'s session: connected here, or under serve --workers a proxy for him
        on another worker; None if neither."""
        session = self.online.get(name_key(name))
        if session is None and self.node is not None:
            return self.node.proxy_named(name_key(name))
        return session

    def post_for(
        self, session: Session, table: Table, message: Any, *, capped: bool = True
    ) -> None:
        """Hand a session's message to its table, or tell the session why not
        (``capped``: Table.post's)."""
        if table.post(message, request=True, capped=capped):
            return
        if table.state == TableState.CLOSED or table.id not in self.tables:
            if session.table is table:
                session.table, session.seat = None, None
            if not self.refused_for_shutdown(session):
                said = phrase(Msg.TABLE_HAS_CLOSED, table=table.id)
                session.send(ev.error("unknown-table", said))
            return
        # the share counts every table's waiting requests, not one's
        session.send(ev.error("busy", phrase(Msg.LINES_WAITING)))

    def listed_tables(self, session: Session | None = None) -> list[Table]:
        """The open tables anyone may see listed ('tables', the web): not the private,
        but to ``session`` those it sits at or is invited to, nor a ladder's boards
        (watched by admins only: docs/protocol.md §5.5a)."""
        return [t for _, t in sorted(self.tables.items()) if self.listed_to(t, session)]

    @staticmethod
    def listed_to(table: Table, session: Session | None) -> bool:
        """Whether ``table`` is listed to ``session`` (None: anyone, the web): an open
        table but a ladder's board, and a private one only to those it seats or
        invited."""
        name = session.name if session is not None else None
        return (
            table.state != TableState.CLOSED
            and table.board is None
            and (not table.private or (name is not None and _its_own(table, name)))
        )

    def new_games(self) -> NewGames:
        """Whether a game may start here now, as the lobby's texts say it (the greeting,
        'help', an empty 'tables'): not on a server closed to games (max_tables 0), nor
        during a drain."""
        if not self.config.max_tables:
            return NewGames.CLOSED
        return NewGames.DRAINING if self.drain.begun else NewGames.OPEN

    def table_room(self, session: Session, opening: bool) -> bool:
        """Whether a new table may open (the server's cap; with ``opening``, a 'new',
        the cap per address too); if not, the session is told."""
        most = self.config.max_tables
        if len(self.tables) >= most:  # (0: a server closed to games says so, not "full")
            session.send(
                ev.error("busy", phrase(Msg.TOO_MANY_TABLES if most else Msg.NO_GAMES_HERE))
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
            said = count_phrase(cap, Msg.ADDRESS_TABLE, Msg.ADDRESS_TABLES)
            session.send(ev.error("busy", said))
            return False
        return True

    def open_table(self, settings: GameSettings, **board: Any) -> Table:
        rules = self.rules.ruleset(settings.players, settings.variant, settings.options)
        # match number 0: the table draws its own from the store as it starts
        table = Table(self.table_numbers.next(), rules, self, self.config, 0, **board)
        self.tables[table.id] = table
        self.spawner.start_soon(table.run)
        return table

    def refused_for_shutdown(self, session: Session) -> bool:
        """True, and the session told, once the server is shutting down."""
        if self.accepting:
            return False
        session.send(ev.Error("shutting-down", "the server is shutting down"))
        return True

    def players_online(self) -> int:
        """Those logged in: here, and under serve --workers at the other workers (their
        names come over the bus)."""
        return len(self.online) + (len(self.node.names()) if self.node is not None else 0)

    def refused_new_game(self, session: Session) -> bool:
        """True, and the session told, while no new table opens: the server stops, or
        drains (drain.py)."""
        return self.refused_for_shutdown(session) or self.drain.refused(session)

    def free_to_sit(self, session: Session) -> bool:
        if not self.may_take_seat(session):
            return False
        self.leave_waits(session)
        return True

    def may_take_seat(self, session: Session) -> bool:
        """Whether ``session`` may go to a seat ('new', 'sit', 'seek'); if not, it is
        told why. Changes nothing: a 'sit' still to be refused by its table must not
        end the seek or the rematch offer it waits on (``leave_waits``)."""
        if self.refused_for_shutdown(session):
            return False
        if session.table is not None:
            said = phrase(Msg.REMATCH_SEATED, table=session.table.id)
            session.send(ev.error("already-seated", said))
            return False
        if self.drain.refused(session):  # 'new', 'sit', 'seek': no new game during a drain
            return False
        return may_sit(self, session)  # before the seek and rematch it would end

    def leave_waits(self, session: Session) -> None:
        """``session`` goes to a seat: its seek and its rematch offer end."""
        self.matchmaking.forget(session)  # sitting somewhere ends the wait for a seek
        self.rematches.withdraw(session, ev.RematchOff.ELSEWHERE)

    def table_named(self, session: Session, text: str) -> Table | None:
        """The open table with this number that ``session`` may know of, or None after
        telling the session that there is none (``hidden_from``: another's private
        table is answered as a number no table has)."""
        number = number_word(text)
        table = None if number is None else self.tables.get(number)
        if table is None or table.state == TableState.CLOSED or self.hidden_from(table, session):
            self.no_table(session, text)
            return None
        return table

    @staticmethod
    def no_table(session: Session, text: str) -> None:
        """Tell ``session`` there is no table ``text`` (the number as typed): one answer,
        byte for byte, whether none has that number or one is not his to know of."""
        # (a number of 900 digits was said back whole: a few are enough to know it)
        told = text if len(text) <= TABLE_NUMBER_SAID else text[:TABLE_NUMBER_SAID] + "…"
        session.send(ev.error("unknown-table", phrase(Msg.NO_TABLE, table=told)))

    def hidden_from(self, table: Table, session: Session) -> bool:
        """Whether ``table`` is none of ``session``'s business: a private table it does
        not sit at, is not invited to and does not watch (nor is he an admin). To him it
        does not exist: 'sit', 'observe', 'unobserve' and 'rules' of its number answer
        as for a number no table has, so that nobody learns it is there
        (docs/protocol.md §5.3), as 'tables' and the web face do not list it."""
        if not table.private or table is session.table or table.id in session.observing:
            return False
        name = session.name
        return not (self.is_admin(session) or (name is not None and _its_own(table, name)))

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

    def watches_a_match(self, session: Session) -> bool:
        """Whether ``session`` observes a table whose match is being played (here or on
        another worker): its connection is then not idle (docs/settings.md)."""
        for table_id in session.observing:
            table = self.tables.get(table_id)
            if table is not None and table.state == ev.TableState.PLAYING:
                return True
        return False

    def watched(self, session: Session) -> Table | None:
        """The table a session sits at, else the first it observes; None after telling
        it that there is none."""
        table = session.table
        if table is None and session.observing:
            table = self.tables.get(min(session.observing))
        if table is None and self.refused_for_shutdown(session):
            return None
        if table is None:
            over = session.last_match
            if over is not None and trio.current_time() < over.until:
                # 'state' just after his match: as if he never sat anywhere, while
                # 'last', 'sheet' and 'history' showed that match (a tryout, s46)
                session.send(ev.nowhere(phrase(Msg.NOT_SEATED_OVER, table=over.table)))
            elif (seen := session.watched_over) is not None and trio.current_time() < seen.until:
                # a watcher who saw the match end: as bare a line (a tryout, s47)
                said = phrase(Msg.NOT_SEATED_WATCHED_OVER, table=seen.table)
                session.send(ev.nowhere(said))
            else:
                session.send(ev.nowhere())
        return table

    # ----------------------------------------------------------- shutdown
    def shutdown(self, reason: str | Phrase, newcomers: Iterable[Session] = ()) -> None:
        """Tell every session online, and ``newcomers`` (connections not logged in),
        that the server stops; close the tables. Once: a second stop (SIGTERM during a
        lost bus's, cluster/bus_lost.py) tells nobody again, posts no second Stop."""
        if not self.accepting:
            return
        self.accepting = False
        if self.node is not None:  # (a lone server's players go with their offers)
            self.rematches.stopped()
        said = ev.server_going(ev.ServerGoing.STOPPING, phrase(Msg.SHUTTING_DOWN, reason=reason))
        for session in [*self.online.values(), *newcomers]:
            session.send(said)
        self.matchmaking.stopped()  # their line said it: no seek waits, none is refused
        for table in list(self.tables.values()):
            table.post(Stop(reason))


def _its_own(table: Table, name: str) -> bool:
    """Whether ``name`` sits at ``table`` or is invited to it (another worker's private
    table tells its invitations with its seats: cluster/payloads.py)."""
    key = name_key(name)
    return table.invites(name) or any(s is not None and name_key(s) == key for s in table.seats)
