"""House bots: the project's own bots (clients/), started by the server to fill a seat.

'bot heuristic', 'bot random' or 'bot search 3' at a waiting table asks for one. Each is
an ordinary client in its own process (``python -m clients.heuristic_bot`` ...), given a
name the server chooses and a guest token only it knows (through DEBERC_TOKEN_DIR, as
the ladder's supervisor gives its bots, so nobody else can log in as it, and a copy
restarted after a crash resumes its seat). It logs in, waits with 'seek reserved' for its
table (server/matchmaking.py seats it), plays one match (``--games 1``) and quits. The
server caps them per table and in all (docs/security.md), restarts one that crashes a
few times, and after that gives its seat up (a running match is forfeited by its side).
"""

from __future__ import annotations

import contextlib
import enum
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from typing import TYPE_CHECKING

import attrs
import structlog
import trio

from deberc_net.child_env import child_environment
from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, Phrase, count_phrase, phrase

from .accounts import name_key
from .limits import AddressBuckets, Bucket
from .session import Ending, Session
from .table import Table
from .table_messages import Dismiss

if TYPE_CHECKING:
    from .lobby import Lobby
    from .spawner import Spawner

log = structlog.get_logger("deberc.house")

MAX_RESTARTS = 3  # a house bot that exits unasked more often than this gives its seat up
SEARCH_LEVELS = range(1, 6)  # the search bot's --level (clients/search/policy.py: LEVELS)
DEFAULT_SEARCH_LEVEL = 3
PREFIX = "house-"  # every house bot's name starts so: people can tell who is a program
STARTS_KEPT = 1000  # addresses' allowances of starts kept (the refilled ones go first)


class HouseBotKind(enum.StrEnum):
    HEURISTIC = "heuristic"
    RANDOM = "random"
    SEARCH = "search"

    @property
    def module(self) -> str:
        return f"clients.{self.value}_bot"


@attrs.define(eq=False)
class HouseBot:
    name: str
    kind: HouseBotKind
    level: int | None  # the search bot's strength; None for the others
    table: Table
    token: str
    rated: bool = False  # asked for with 'rated': the match rates the player and the bot
    address: str = ""  # of the player who asked for it: the cap per address counts it
    seat: int | None = None  # kept for it: bots sit in the order asked, not as they log in
    seated: bool = False
    dismissed: bool = False  # the server ends it: its exit is no crash
    process: trio.Process | None = None

    @property
    def rating_name(self) -> str:
        return rating_name(self.kind, self.level)


def rating_name(kind: HouseBotKind, level: int | None) -> str:
    """The name a house bot's rating is kept under: one per kind and level, however many
    copies play (``house-heuristic``, ``house-search3``); nobody can log in as it."""
    return f"{PREFIX}{kind}{'' if level is None else level}"


@attrs.define(eq=False)
class HouseBots:
    """Every house bot of one server: started (by the lobby's spawner), watched and stopped."""

    lobby: Lobby
    spawner: Spawner
    enabled: bool
    per_table: int
    per_server: int
    per_address: int = 0  # 0: no limit
    # bots started at the word of one address: a rate and a burst (a burst of 0: no
    # limit). The cap above counts the bots running; a bot whose seat is given up once
    # its match began is gone at once, so without this a 'new'/'bot'/'leave!' loop
    # started processes without end (a tryout: 129 in 10 s from one address)
    starts_per_s: float = 0.0
    starts_burst: float = 0.0
    # and on the whole server: twenty addresses' bursts started 120 processes in 10 s
    # (a second hostile pass, s29)
    server_starts_per_s: float = 0.0
    server_starts_burst: float = 0.0
    # the tables where search bots play, asked for from one address (0: no limit) and
    # on the whole server. Six 'bot search 5' from one address at six tables, each
    # against a client answering at once, kept six processes thinking (a hostile
    # tryout, s30): a search bot thinks on its turn, one seat at a table has the turn,
    # so what search bots take of the machine is about a core per table they play at
    search_tables_per_address: int = 0
    search_tables: int = 1_000_000
    # how much nicer than the server a bot process runs (set once it has started:
    # _nicer): a bot's thinking never slows the server's answers to people
    nice: int = 0
    host: str = "127.0.0.1"
    port: int = 0  # the server's bound port, set once it listens
    bots: dict[str, HouseBot] = attrs.Factory(dict)  # by name key
    token_dir: str = attrs.field(init=False, default="")
    starts: AddressBuckets = attrs.field(init=False)
    server_starts: Bucket = attrs.field(init=False)
    _numbers: int = 0

    def __attrs_post_init__(self) -> None:
        self.starts = AddressBuckets(self.starts_per_s, self.starts_burst, STARTS_KEPT)
        self.server_starts = Bucket(self.server_starts_per_s, self.server_starts_burst)

    def at(self, table: Table) -> list[HouseBot]:
        return [b for b in self.bots.values() if b.table is table]

    def rated_copy(self, table: Table, kind: HouseBotKind, level: int | None) -> str | None:
        """The rating name of ``kind`` at ``level`` if a copy asked for 'rated' is at
        ``table`` already (coming or seated), else None: one rating is one player's."""
        name = rating_name(kind, level)
        return name if any(b.rated and b.rating_name == name for b in self.at(table)) else None

    def pending(self, table: Table) -> int:
        """House bots on their way to this table (started, not yet seated)."""
        return sum(1 for b in self.at(table) if not b.seated)

    def kept_seats(self, table: Table) -> set[int]:
        """The seats of ``table`` kept for house bots on their way."""
        return {b.seat for b in self.at(table) if not b.seated and b.seat is not None}

    def get(self, name: str) -> HouseBot | None:
        return self.bots.get(name_key(name))

    def capped_off(self, kind: HouseBotKind) -> Phrase | None:
        """Why no house bot of ``kind`` ever comes on this server, its caps at 0
        (docs/settings.md: "0: no house bots", "0: no search bot"), or None: said as
        such, not as a cap held by others that a later try may find free."""
        if self.per_table == 0 or self.per_server == 0:
            return phrase(Msg.HOUSE_BOTS_CAPPED_OFF)
        if kind is HouseBotKind.SEARCH and self.search_tables == 0:
            return phrase(Msg.SEARCH_BOTS_CAPPED_OFF)
        return None

    def refusal(
        self, table: Table, session: Session, kind: HouseBotKind = HouseBotKind.HEURISTIC
    ) -> Phrase | None:
        """Why no more house bots (of ``kind``) may come to ``table`` at the word of
        ``session`` (the caps; those per address count its address's), or None."""
        if len(self.at(table)) >= self.per_table:
            at = (Msg.HOUSE_BOT_AT_TABLE, Msg.HOUSE_BOTS_AT_TABLE)
            return count_phrase(self.per_table, *at, table=table.id)
        cap, address = self.per_address, session.address
        if cap and sum(1 for b in self.bots.values() if b.address == address) >= cap:
            return count_phrase(cap, Msg.HOUSE_BOT_OF_ADDRESS, Msg.HOUSE_BOTS_OF_ADDRESS)
        if len(self.bots) >= self.per_server:
            on = (Msg.HOUSE_BOT_ON_SERVER, Msg.HOUSE_BOTS_ON_SERVER)
            return count_phrase(self.per_server, *on)
        return self._search_refusal(table, session) if kind is HouseBotKind.SEARCH else None

    def _search_refusal(self, table: Table, session: Session) -> Phrase | None:
        """Why no search bot may come to ``table`` at the word of ``session``: search
        bots asked for from its address play at ``search_tables_per_address`` other
        tables already, or on the server at ``search_tables`` others; or None. A table
        that has one may take more: at a four-player table one person with three search
        bots keeps one of them thinking at a time."""
        searching = [b for b in self.bots.values() if b.kind is HouseBotKind.SEARCH]
        own = {b.table.id: b.table for b in searching if b.address == session.address}
        cap = self.search_tables_per_address
        if cap and table.id not in own and len(own) >= cap:
            return phrase(Msg.HOUSE_SEARCH_TABLES_OF_ADDRESS, at=self._where(own, session))
        anywhere = {b.table.id for b in searching}
        if table.id not in anywhere and len(anywhere) >= self.search_tables:
            on = (Msg.HOUSE_SEARCH_TABLE_ON_SERVER, Msg.HOUSE_SEARCH_TABLES_ON_SERVER)
            return count_phrase(self.search_tables, *on)
        return None

    def _where(self, tables: dict[int, Table], session: Session) -> Phrase:
        """Where an address's search bots play, as told to ``session``: each table named
        that it may know of, another's private table only counted (one address is many
        people behind a NAT: its number was told to a neighbour who could not see it)."""
        named = sorted(n for n, t in tables.items() if not self.lobby.hidden_from(t, session))
        unnamed = count_phrase(
            len(tables) - len(named), Msg.HOUSE_SEARCH_AT_ANOTHER, Msg.HOUSE_SEARCH_AT_OTHERS
        )
        if not named:
            return unnamed
        at = (
            phrase(Msg.HOUSE_SEARCH_AT_TABLE, table=named[0])
            if len(named) == 1
            else phrase(Msg.HOUSE_SEARCH_AT_TABLES, tables=", ".join(map(str, named)))
        )
        if len(named) == len(tables):
            return at
        return phrase(Msg.HOUSE_SEARCH_AND_UNNAMED, named=at, unnamed=unnamed)

    def too_often(self, address: str) -> ev.Error | None:
        """Why no house bot may start now at the word of a player from ``address``: the
        whole server, or that address, has started its burst of them lately (then one
        every 1/server_starts_per_s, 1/starts_per_s seconds), as its slow-down with the
        wait, or None. Checked after the caps, spent by ``start``."""
        now = trio.current_time()
        server = self.server_starts.wait(now) if self.server_starts_burst else 0.0
        own = self.starts.of(address, now, ()).wait(now) if self.starts_burst else 0.0
        # the wait told is until both let it in: a bot sent again then is not refused
        # by the other (docs/protocol.md §10)
        if server > 0:
            return ev.slow_down(Msg.HOUSE_BOTS_SERVER_TOO_OFTEN, max(server, own))
        if own > 0:
            return ev.slow_down(Msg.HOUSE_BOTS_TOO_OFTEN, own)
        return None

    def start(
        self,
        table: Table,
        kind: HouseBotKind,
        level: int | None,
        rated: bool = False,
        address: str = "",
    ) -> HouseBot:
        """A new house bot for ``table``, asked for from ``address`` (the caller checked
        the caps and ``too_often``): its process starts, one of the address's starts
        and one of the server's spent."""
        now = trio.current_time()
        if self.starts_burst:
            self.starts.of(address, now, ()).take(now)
        if self.server_starts_burst:
            self.server_starts.take(now)
        if not self.token_dir:
            self.token_dir = tempfile.mkdtemp(prefix="deberc-house-")
        name = self._new_name(kind, level)
        bot = HouseBot(name, kind, level, table, secrets.token_urlsafe(12), rated, address)
        kept = self.kept_seats(table)  # the first free seat not kept for an earlier bot
        bot.seat = next((s for s, w in enumerate(table.seats) if w is None and s not in kept), None)
        with open(os.path.join(self.token_dir, f"{name}.token"), "w", encoding="utf-8") as fh:
            fh.write(bot.token)
        # the name is held as a guest's: without the token nobody else logs in as it
        self.lobby.guest_tokens[name_key(name)] = bot.token
        self.bots[name_key(name)] = bot
        self.spawner.start_soon(self._keep_running, bot)
        log.info("house_bot_start", name=name, table=table.id, kind=str(kind), bot_level=level)
        return bot

    def _new_name(self, kind: HouseBotKind, level: int | None) -> str:
        """A name no one holds. Under ``serve --workers`` each worker numbers its bots
        in its own stride (worker 0 of 2: 1, 3, 5 …; worker 1: 2, 4, 6 …) and skips the
        names online elsewhere (another host's workers): each counted from 1, two
        workers gave two bots one name, and the second's login threw the first out of
        its seat (a tryout's)."""
        label = f"{kind}{level}" if level is not None else str(kind)
        node = self.lobby.node
        stride, offset = (node.place.count, node.place.index) if node is not None else (1, 0)
        elsewhere = {name_key(n) for n in node.names()} if node is not None else set()
        while True:
            self._numbers += 1
            name = f"{PREFIX}{label}-{(self._numbers - 1) * stride + offset + 1}"
            key = name_key(name)
            if (
                key not in self.lobby.online
                and key not in self.lobby.guest_tokens
                and key not in elsewhere
            ):
                return name

    def dismiss(self, bot: HouseBot) -> None:
        """The server is done with ``bot`` (its table closed): stop its process. Its
        connection's end is logged as that (``dismissed``), not as the reset or close
        the ended process makes: an operator alerts on ``connection-lost``."""
        bot.dismissed = True
        session = self.lobby.online.get(name_key(bot.name))
        if session is not None:
            session.ending(Ending.DISMISSED)
        if bot.process is not None and bot.process.returncode is None:
            bot.process.terminate()
        self._forget(bot)

    def table_closed(self, table: Table) -> None:
        for bot in self.at(table):
            self.dismiss(bot)

    def _forget(self, bot: HouseBot) -> None:
        key = name_key(bot.name)
        if self.bots.get(key) is bot:
            del self.bots[key]
        if self.lobby.guest_tokens.get(key) == bot.token and key not in self.lobby.online:
            del self.lobby.guest_tokens[key]
        if self.token_dir and not self.bots:  # the last one: its token goes with it
            shutil.rmtree(self.token_dir, ignore_errors=True)
            self.token_dir = ""
        elif self.token_dir:
            with_token = os.path.join(self.token_dir, f"{bot.name}.token")
            if os.path.exists(with_token):
                os.remove(with_token)

    def argv(self, bot: HouseBot) -> list[str]:
        argv = [sys.executable, "-m", bot.kind.module, "--host", self.host]
        argv += ["--port", str(self.port), "--name", bot.name, "--seek", "reserved"]
        argv += ["--games", "1"]
        if bot.level is not None:
            argv += ["--level", str(bot.level)]
        return argv

    async def _keep_running(self, bot: HouseBot) -> None:
        """Run ``bot`` until it has played its match (or is dismissed); restart it when it
        exits early, and give its seat up after MAX_RESTARTS such exits."""
        restarts = 0
        # (not the server's secrets: its database's PGPASSWORD, deberc_net/child_env.py)
        env = child_environment(DEBERC_TOKEN_DIR=self.token_dir)
        while not bot.dismissed:
            try:
                bot.process = await trio.lowlevel.open_process(
                    self.argv(bot),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env=env,
                )
            except OSError:
                log.exception("house_bot_cannot_start", name=bot.name)
                break
            if self.nice > 0:
                _nicer(bot.process.pid, self.nice)
            try:
                await bot.process.wait()
            finally:
                await _end(bot.process)
            if bot.dismissed:
                return
            if bot.process.returncode == 0 and bot.table.match is not None:
                self._forget(bot)  # played its match and quit, as asked
                return
            restarts += 1
            log.warning(
                "house_bot_exit", name=bot.name, code=bot.process.returncode, restarts=restarts
            )
            if restarts > MAX_RESTARTS:
                break
            await trio.sleep(min(1.0, 0.1 * restarts))
        if not bot.dismissed:
            self.give_up(bot)

    def give_up(self, bot: HouseBot) -> None:
        """A bot that keeps failing: its seat is given up (a running match forfeited)."""
        self._forget(bot)
        bot.table.post(Dismiss(bot.name))


def _nicer(pid: int, nice: int) -> None:
    """Process ``pid`` (a bot just started) ``nice`` nicer than this one, as far as the
    kernel goes (19). Set from here, not by a hook the child runs before it execs: with
    one, subprocess forks the server's whole heap rather than vfork, the interpreter
    held meanwhile (a 1 GiB heap stalled the loop 24 ms a start), and runs Python in
    the child of a process with threads. The bot runs as the server for the moment its
    interpreter takes to start, no more."""
    with contextlib.suppress(OSError):  # gone already: its end is seen as any other's
        os.setpriority(os.PRIO_PROCESS, pid, min(os.getpriority(os.PRIO_PROCESS, 0) + nice, 19))


async def _end(process: trio.Process) -> None:
    """Make sure ``process`` is gone (a cancelled wait leaves it running otherwise)."""
    if process.returncode is not None:
        return
    process.terminate()
    with trio.CancelScope(shield=True), trio.move_on_after(2):
        await process.wait()
    if process.returncode is None:
        process.kill()
