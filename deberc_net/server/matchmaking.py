"""Matchmaking: players seeking a game, tables reserved for a ladder's boards, and the
board records held from their players until the admin releases them."""

from __future__ import annotations

import enum
import functools
import math
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import attrs
import trio

from deberc_net.plugins import RuleBook, RuleError, RuleKind
from deberc_net.plugins.manager import said_counts
from deberc_net.plugins.naming import rule_named, variant_named
from deberc_net.plugins.near_names import near_name
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, number_word
from deberc_net.protocol.connection import Tell
from deberc_net.protocol.events import TableState
from deberc_net.protocol.lang import counts_ru
from deberc_net.protocol.messages import Msg, game_for, phrase
from deberc_net.protocol.refusals import rules_refused
from deberc_net.protocol.said_back import said_back

from .accounts import name_key
from .kept_apart import (
    Left,
    Why,
    apart,
    apart_from_names,
    apart_until,
    earliest_end,
    noted,
)
from .reserve_words import reserve_words
from .table_messages import Observe, Sit

PRIVATE = "private"  # 'new ... private': no rule option, a table listed to nobody
# the word as a Russian (or Ukrainian) player says it: the server calls such a table
# «закрытый стол» (a tryout, s43, typed 'new 2 закрытый' and was told no such option)
PRIVATE_WORDS = frozenset({PRIVATE, "закрытый", "приватный", "закритий", "приватний"})


def is_private_word(word: str) -> bool:
    """Whether ``word`` is 'private' (any case, Russian or Ukrainian too)."""
    return word.casefold() in PRIVATE_WORDS


def private_slip(args: Sequence[str], rules: RuleBook) -> tuple[str, str] | None:
    """The first word of ``args`` that no rule has, near none of their names but near
    'private' (or its Russian), and that word: 'new 2 privat' was told the 40 options,
    none of them the word meant (a tryout, s47)."""
    names = [r.name for r in rules.rules()]
    for word in args:
        if number_word(word) is not None or variant_named(word, rules) is not None:
            continue
        if rules.kind_of(rule_named(word, rules)) is not None or near_name(word, names):
            continue
        near = near_name(word, sorted(PRIVATE_WORDS))
        if near is not None:
            return word, near
    return None


if TYPE_CHECKING:
    from .lobby import Lobby
    from .session import Session
    from .table import Table

BOARD_KEY = re.compile(r"[A-Za-z0-9_./-]{1,64}")
# what a person whose seek passes a waiting table by is told, by what keeps them apart
_PASSED = {
    Why.NAME: Msg.SEEK_PASSED,
    Why.THEIR_ADDRESS: Msg.SEEK_PASSED_THEIR_ADDRESS,
    Why.OWN_ADDRESS: Msg.SEEK_PASSED_OWN_ADDRESS,
}


@attrs.frozen
class GameSettings:
    players: int
    variant: str
    options: tuple[str, ...]


def game_settings(args: Sequence[str], rules: RuleBook) -> GameSettings:
    """``[PLAYERS] [VARIANT] [OPTION ...]`` (2 players and moscow unless given); the
    options sorted, so the same game asked two ways is one seek."""
    players, rest = 2, list(args)
    counted = number_word(rest[0]) if rest else None
    if counted is not None:
        players = counted
        rest.pop(0)
    variant = "moscow"
    named = variant_named(rest[0], rules) if rest else None
    if named is not None:
        variant = named
        rest.pop(0)
    options = tuple(sorted({rule_named(word, rules) for word in rest}))
    return GameSettings(players, variant, options)


def players_refused(command: str, args: Sequence[str], rules: RuleBook) -> ev.Error | None:
    """'new two': a first word that is no number, no variant and no rule, nor near one
    (a mistyped 'kharkof' is named by the rules' own refusal), where the player count
    comes. Refused saying that PLAYERS is a number, not with every option's name. And
    'new 5': a player count no game is for, refused naming the counts there are, not
    the variant he never typed (a tryout, s44: "'moscow' is for 2, 3, 4 players")."""
    if not args:
        return None
    counted = number_word(args[0])
    if counted is not None:
        return _count_refused(command, args[0], counted, rules)
    if variant_named(args[0], rules) is not None:
        return None
    word = args[0]
    chosen = [r.name for r in rules.rules() if r.info.kind in (RuleKind.VARIANT, RuleKind.OPTION)]
    if rules.kind_of(rule_named(word, rules)) is not None or near_name(word, chosen):
        return None  # (the rule book's refusal names the near one: 'терц-501', tertz-501)
    counts = sorted(
        {n for r in rules.rules() if r.info.kind == RuleKind.VARIANT for n in r.info.players}
    )
    said = phrase(
        Msg.PLAYERS_A_NUMBER,
        word=said_back(word),
        head=", ".join(map(str, counts[:-1])),
        last=counts[-1],
        command=command,
    )
    return ev.error("bad-rules", said)


def _count_refused(command: str, typed: str, players: int, rules: RuleBook) -> ev.Error | None:
    """A player count that no variant is for (a variant named or not: the count is what
    is wrong), said as typed, with the counts there are; None for one some variant is
    for (a variant named that is not for it is the rule book's to refuse, by its name)."""
    counts = {n for r in rules.rules() if r.info.kind == RuleKind.VARIANT for n in r.info.players}
    if players in counts:
        return None
    told = said_counts(counts)  # '2, 3 or 4': «2, 3 или 4»
    either = phrase(Msg.OWN_WORDS, en=told, ru=counts_ru(told))
    said = phrase(Msg.PLAYERS_NO_GAME, players=said_back(typed), counts=either, command=command)
    return ev.error("bad-rules", said)


def rules_refusal(session: Session, exc: RuleError) -> ev.Error:
    """'bad-rules' for the rules the book refused ('new', 'seek', 'reserve'). A rule's
    hook that raised as they were built (the RuleError's cause) is a bug in a plugin:
    logged with its traceback, at error level, while the player is told which rule."""
    if exc.__cause__ is not None:
        session.log.error("rule_setup_failed", reason=str(exc), exc_info=exc)
    return rules_refused(str(exc))


def table_settings(table: Table) -> GameSettings:
    """The game a table plays, as 'seek' asks for it."""
    rules = table.rules
    return GameSettings(table.players, rules.variant, tuple(sorted(rules.options)))


class Reserved(enum.Enum):
    """'seek reserved': waiting only for a table reserved for this player."""

    RESERVED = "reserved"


RESERVED = Reserved.RESERVED
Wanted = GameSettings | Reserved  # what a seeker waits for


@attrs.frozen
class HeldRecord:
    players: tuple[str, ...]  # who gets it when the board is released
    record: ev.DealRecord


@attrs.define(eq=False)
class Matchmaking:
    lobby: Lobby
    seekers: list[Session] = attrs.Factory(list)  # oldest first
    # a ladder's boards: deal records kept from their players until the admin releases
    # them, once every seating of the board is played (docs/protocol.md §5.5a)
    held: dict[str, list[HeldRecord]] = attrs.Factory(dict)
    # when a look at the queue is due, for seekers kept apart (kept_apart.py) who may be
    # matched once that ends (inf: none due)
    recheck_due: float = math.inf
    # the wait of the one task that looks (``_look_again``), its deadline ``recheck_due``;
    # None: no such task. One task, moved to an earlier end as one comes: a task for
    # each end met, each look meeting the later ends again, grew with their square
    looking: trio.CancelScope | None = None
    # the games whose seekers met with no table number at hand (a worker's: its draw on
    # its way, table_numbers.py): placed again as it lands (``_meet_once_drawn``)
    awaiting_numbers: set[GameSettings] = attrs.Factory(set)

    def is_seeking(self, session: Session) -> bool:
        node = self.lobby.node  # serve --workers: its seek may wait on another worker
        return session in self.seekers or (node is not None and node.seeks_elsewhere(session))

    def forget(self, session: Session) -> None:
        """``session`` waits no more (it sat down, left, or logged in elsewhere)."""
        if session in self.seekers:
            self.seekers.remove(session)
        session.seeking = session.kept_place = None
        if self.lobby.node is not None:
            self.lobby.node.forget_seek(session)

    def stopped(self) -> None:
        """The server stops (docs/protocol.md §11.4): every seek waiting here ends, its
        seeker told by the stop's own line alone. A look due later finds nobody to place
        (it refused each one again, unasked, in the stop's grace). A seek another
        worker sent here goes back to wait there once this one says goodbye; one of
        this server's players waiting at another worker is withdrawn from there."""
        node = self.lobby.node
        online = list(self.lobby.online.values())
        elsewhere = [] if node is None else [s for s in online if node.seeks_elsewhere(s)]
        for seeker in [*self.seekers, *elsewhere]:
            self.forget(seeker)

    # ----------------------------------------------------------- commands
    async def seek(self, session: Session, item: Command) -> None:
        lobby = self.lobby
        # a seek of the game he waits for already keeps its place (a seek kept for him
        # first in line, kept_seek: a bot seeks again after every match)
        held = (self.seekers.index(session), session.seeking) if session in self.seekers else None
        kept = session.kept_place  # (a program's: its seek goes first, kept_seek)
        if item.args == ("reserved",):
            if not lobby.config.max_tables:  # no board's table can open ('reserve' is
                # refused), nor a house bot's: kept, it waited for good, told it waited
                lobby.table_room(session, opening=False)  # (the refusal: no games here)
            elif lobby.free_to_sit(session):
                self._seek_reserved(session)
            return
        # the rules first: wrong ones are said at once, not after a wait ('slow-down')
        # and a retry, and refused before free_to_sit ends this seek or a rematch offer
        # (bad input changes nothing)
        if any(map(is_private_word, item.args)):  # a seek meets strangers
            said = phrase(Msg.SEEK_PRIVATE)
            session.send(ev.Error("bad-rules", said.text(), said=said))
            return
        refused = players_refused("seek", item.args, lobby.rules)
        if refused is not None:
            session.send(refused)
            return
        try:
            settings = game_settings(item.args, lobby.rules)
            lobby.rules.ruleset(settings.players, settings.variant, settings.options)
        except RuleError as exc:
            session.send(rules_refusal(session, exc))
            return
        if not lobby.config.max_tables:  # no table ever opens: it could never be met
            lobby.table_room(session, opening=False)  # (the refusal: no games here)
            return
        # every refusal before leave_waits: a seek refused (the cap of tables below)
        # keeps the seek and the rematch offer its player waited on (free_to_sit ended
        # both first, and the refusal said the seek was not recorded)
        if not lobby.may_take_seat(session):
            return
        if self._on_the_way(session, settings):
            # his seat at a table of this game is on its way (a kept seek met someone at
            # once, before he read his match's end): it stays his, as his place would
            lobby.leave_waits(session)
            self._seeking_now(session, settings)
            return
        open_table = self.open_table_for(settings, session)
        if open_table is None:
            waiting = [s for s in self.seekers if s.seeking == settings and s is not session]
            if len(waiting) + 1 >= settings.players and not lobby.table_room(session, False):
                return  # it would open a table: refused, and nothing changes
        lobby.leave_waits(session)  # (his seek among them: forgotten)
        # a seat of another game on its way to him is given up: this seek replaces
        # that one (docs/protocol.md §5.5), he is not seated there and queued here too
        given_up = self._give_up_coming(session)
        session.seeking = settings
        if held is not None and held[1] == settings:
            self.seekers.insert(held[0], session)
        elif kept == settings:
            self.seekers.insert(0, session)
        else:
            self.seekers.append(session)
        self._seeking_now(session, settings)
        self.place(session, settings, answers=True)
        if not session.machine and session in self.seekers:
            self._tell_passed(session, settings)
        for table in given_up:  # its seat goes to one waiting for that game
            self.fill(table)

    def _tell_passed(self, session: Session, settings: GameSettings) -> None:
        """A person left waiting by his 'seek' beside a waiting table of its game, kept
        apart from someone there after a match left early (docs/protocol.md §5.5), is
        told so and for how long, not who: "Waiting for …" alone had him wonder why he
        was not seated there (a tryout, s46). So is one whose seek a leaver gave back
        (``kept_seek``), once, as it is given (s47: told only that he waits again). A
        program's lines are as they were."""
        passed: list[Table] = []
        if self.open_table_for(settings, session, passed) is not None or not passed:
            return
        self._say_passed(session, passed)

    def _say_passed(self, session: Session, passed: list[Table]) -> None:
        """``session``'s seek passes ``passed`` by: he is told why (by the one of them
        that frees first), and each of them keeps that he was (``fill`` tells it once)."""
        for table in passed:
            table.passed_told.add(session)
        now = trio.current_time()
        ends = []
        for table in passed:
            people = self._people(table)
            names = {name_key(p.name) for p in people if p.name is not None}
            away = [name_key(n) for n in table.seats if n is not None and name_key(n) not in names]
            until = [apart_until(session, p, None, now) for p in people]
            until += [apart_until(session, None, n, now) for n in away]
            ends.append(max(until, default=(now, Why.NAME), key=lambda end: end[0]))
        end, why = min(ends, key=lambda end: end[0])
        minutes = math.ceil((end - now) / 60)
        if minutes > 0:  # why, plainly: one at his address was no leaver himself (s47)
            session.send(ev.info(phrase(_PASSED[why], minutes=minutes)))

    def _coming_to(self, session: Session) -> list[Table]:
        """The waiting tables whose seat is on its way to ``session`` (promised, its Sit
        not handled yet)."""
        return [t for t in self.lobby.tables.values() if t.coming and session in t.coming]

    def _give_up_coming(self, session: Session) -> list[Table]:
        """The seats promised to ``session`` at waiting tables, their Sits not handled
        yet, given up (the table drops such a Sit when it comes): the tables."""
        tables = self._coming_to(session)
        for table in tables:
            table.coming.remove(session)
        return tables

    def _seeking_now(self, session: Session, settings: GameSettings) -> None:
        """A seek's answer: ``session`` waits for ``settings``'s game."""
        said = phrase(
            Msg.SEEK,
            variant=settings.variant,
            for_players=game_for(settings.players),  # as the web names a game
            # a seeker hears the game he waits for whole: 'short' is not 501
            options=f" ({', '.join(settings.options)})" if settings.options else "",
        )
        fields = (
            ("players", str(settings.players)),
            ("variant", settings.variant),
            ("options", ",".join(settings.options)),
        )
        session.send(ev.ok("seek", said, fields))

    def _on_the_way(self, session: Session, settings: GameSettings) -> bool:
        """Whether a seat at a waiting table of ``settings``'s game was promised to
        ``session``, its Sit not handled yet (``promise``)."""
        return any(
            session in table.coming and table_settings(table) == settings
            for table in self.lobby.tables.values()
            if table.coming and table.state is TableState.WAITING
        )

    def place(
        self,
        session: Session,
        settings: GameSettings,
        *,
        answers: bool = False,
        draw_failed: bool = False,
    ) -> None:
        """Seat a seeker (already in the queue, or back from a refused seat): at a
        waiting table of this game if there is one, else with enough other seekers at a
        new table, else it waits. ``answers``: placed by his own 'seek' line, his seat
        found now is that line's reply, which the reader waits for before his next line
        (docs/protocol.md §2.3, §5.5; a 'new' read first opened him a table of his own,
        and the seat promised here was refused with an error nobody asked for).

        Not while the server stops: a seek that comes from another worker is refused, as
        a 'seek' then is; a seeker of this server's own (his promised seat refused, a
        look at the queue) waits no more, told nothing more than the stop's own line
        (docs/protocol.md §11.4).

        A group met with no table number at hand (a worker whose tables opened without
        a line of their own used those kept: table_numbers.py) waits in the queue for
        the draw on its way, the loop running on, and is placed again as it lands;
        ``draw_failed``: placed so after a draw that failed (the database away), a group
        is refused 'busy', its seeks forgotten, not drawn for in the loop."""
        lobby = self.lobby
        if not lobby.accepting and not session.remote:  # (told as the stop began)
            self.forget(session)
            return
        if lobby.refused_new_game(session):  # a seek from another worker, or placed again
            self.forget(session)
            return
        tables: list[Table] = []  # those of this game passed over: kept from him
        open_table = self.open_table_for(settings, session, tables)
        if open_table is not None:  # a table someone opened with 'new' waits for this game
            self.forget(session)
            self.promise(open_table, session, settings, answers=answers, sought=settings)
            return
        if session not in self.seekers:
            session.seeking = settings
            self.seekers.append(session)
        same = [s for s in self.seekers if s.seeking == settings]
        if len(same) >= settings.players and len(lobby.tables) < lobby.config.max_tables:
            group = self._group(session, same, settings.players)
            if group is not None and not lobby.table_numbers.at_hand():
                if draw_failed:
                    for s in group:
                        self.forget(s)
                        if lobby.node is not None:  # (one from another worker: it forgets too)
                            lobby.node.seek_ended(s)
                        s.send(ev.error("busy", phrase(Msg.NO_TABLE_NUMBER)))
                else:
                    self._meet_once_drawn(settings)
                return
            if group is not None:
                for s in group:
                    self.forget(s)
                table = lobby.open_table(settings)
                for s in group:
                    self.promise(table, s, None, answers=answers and s is session, sought=settings)
                return
        self._look_again_for(same, tables)

    def _group(self, session: Session, same: list[Session], players: int) -> list[Session] | None:
        """Those of ``same`` (the seekers of one game, oldest first) who sit together
        with ``session`` (placed now, among them), in the order they sought; None if
        too few are left once those kept apart (kept_apart.py) are passed over. Before
        ``session`` came no group could form, so any group now holds him."""
        if not any(s.left_by for s in same):  # (nobody left anyone: the first come)
            return same[:players]
        now = trio.current_time()
        group = [session]
        for seeker in same:
            if seeker is not session and not any(apart(seeker, g, now) for g in group):
                group.append(seeker)
                if len(group) == players:
                    return sorted(group, key=same.index)
        return None

    def _look_again_for(self, same: list[Session], tables: list[Table]) -> None:
        """Seekers wait, beside ``tables`` of their game (all kept from one of them): if
        it is because some are kept apart, look at the queue again when the first of
        that ends (a seek that comes meanwhile looks itself)."""
        people = [p for t in tables for p in self._people(t)]
        due = earliest_end([*same, *people], trio.current_time())
        if due is None or due >= self.recheck_due:
            return
        self.recheck_due = due
        if self.looking is not None:  # the task that looks: sooner
            self.looking.deadline = due
            return
        self.looking = trio.CancelScope(deadline=due)
        self.lobby.spawner.start_soon(self._look_again, self.looking)

    async def _look_again(self, wait: trio.CancelScope) -> None:
        """At ``recheck_due``, place again the seekers whom someone's leavers may keep
        apart (those no longer kept apart meet); then wait for the next end, if one is
        due. The one task that looks, till none is due."""
        try:
            while True:
                with wait:
                    await trio.sleep_forever()
                self.recheck_due = math.inf
                wait = self.looking = trio.CancelScope()  # placing them sets its deadline
                games = self._kept_games()
                for seeker in list(self.seekers):
                    wanted = seeker.seeking
                    if seeker in self.seekers and wanted in games:
                        assert isinstance(wanted, GameSettings)
                        self.place(seeker, wanted)
                if self.recheck_due == math.inf:
                    return
        finally:
            if self.looking is wait:
                self.looking = None

    def _meet_once_drawn(self, settings: GameSettings) -> None:
        """Seekers of ``settings``'s game met with no table number at hand: placed
        again once the draw on its way lands (one task for every game waiting so)."""
        if not self.awaiting_numbers:
            self.lobby.spawner.start_soon(self._placed_once_drawn)
        self.awaiting_numbers.add(settings)

    async def _placed_once_drawn(self) -> None:
        drawn = await self.lobby.table_numbers.landed()
        games, self.awaiting_numbers = self.awaiting_numbers, set()
        for seeker in list(self.seekers):
            wanted = seeker.seeking
            if seeker in self.seekers and wanted in games:
                assert isinstance(wanted, GameSettings)
                self.place(seeker, wanted, draw_failed=not drawn)

    def _kept_games(self) -> set[GameSettings]:
        """The games whose seekers a memory of leavers (kept_apart.py) may keep apart: a
        seeker's of that game, or a player's at one of its waiting tables. The others'
        seekers wait for what no end changes: they are not placed again."""
        games = {s.seeking for s in self.seekers if s.left_by}
        for table in self.lobby.tables.values():
            if table.state is TableState.WAITING and any(p.left_by for p in self._people(table)):
                games.add(table_settings(table))
        return {g for g in games if isinstance(g, GameSettings)}

    def open_table_for(
        self,
        settings: GameSettings,
        session: Session | None = None,
        passed: list[Table] | None = None,
    ) -> Table | None:
        """The oldest waiting public table of exactly this game with a seat anyone may
        take (and, for ``session``, none there kept apart from him: kept_apart.py): a
        seeker sits there rather than wait beside it. Not another worker's (serve
        --workers): its copy here may be late; a seek goes there otherwise. The tables
        of this game it passes over (kept from him) are added to ``passed``: all of
        them, when it finds none. It reads no table past the one it finds (a list of
        every waiting table of the game, at each seek: 500 waiting, 3.3 ms a seek)."""
        for table in self._waiting_tables(settings):
            if session is None or not self._kept_from(table, session):
                return table
            if passed is not None:
                passed.append(table)
        return None

    def _waiting_tables(self, settings: GameSettings) -> Iterator[Table]:
        """The waiting public tables of this worker of exactly this game with a seat
        anyone may take, oldest first, each read as it is reached."""
        # the waiting ones first (a seek on a busy server passes many playing tables)
        # (the member read once: an enum class's attribute costs a __getattr__ hook's call)
        state = TableState.WAITING
        waiting = [t for t in self.lobby.tables.values() if t.state is state]
        return (
            t
            for t in sorted(waiting, key=_table_id)
            if self.open_to_seekers(t) and table_settings(t) == settings
        )

    def _people(self, table: Table) -> list[Session]:
        """Those at ``table`` (seated, and online) or on their way to a seat there."""
        seated = [self.lobby.session_named(n) for n in table.seats if n is not None]
        return [s for s in seated if s is not None] + table.coming

    def _kept_from(self, table: Table, session: Session) -> bool:
        """Whether ``session`` is kept apart from someone at ``table`` (kept_apart.py): a
        player there, online or away (then by his name), or one on his way."""
        now = trio.current_time()
        if any(apart(session, p, now) for p in self._people(table)):
            return True
        names = [name_key(n) for n in table.seats if n is not None]
        return bool(session.left_by) and apart_from_names(session, names, now)

    def promise(
        self,
        table: Table,
        session: Session,
        settings: GameSettings | None,
        *,
        answers: bool = False,
        sought: GameSettings | None = None,
    ) -> None:
        """Post a seeker's Sit (or a 'new' opener's); its seat counts as taken until the
        table handles it, so other seekers do not pile onto a table that only looks free
        (each of them refused there and placed again: at a burst of seeks, a storm of
        refusals). ``answers``: it is the reply to the line being handled (the opener's
        'new', the seeker's own 'seek'), which the reader waits for before the next line
        (docs/protocol.md §2.3); a seat another's seek found him comes whenever others
        come, as an event does. ``sought``: the game a seeker sought, kept with his seat
        (Table.sought)."""
        sit = Sit(session, None, settings, promised=True, sought=sought)
        # never refused for the share of requests waiting: a promised seat is not dropped
        if table.post(sit, request=answers, capped=False):
            table.coming.append(session)

    def open_to_seekers(self, table: Table) -> bool:
        """A waiting public table of this worker with a seat anyone may take (one no
        house bot on its way will fill), none of its players away: a seeker of its game
        would sit there. One whose player is away is passed by, as a club seats no one
        with an empty chair (docs/protocol.md §5.5): the seeker waits, or meets other
        seekers; the table takes him once its player is back (Table's Back)."""
        if (
            table.state is not TableState.WAITING
            or table.remote
            or table.private
            or table.reserved is not None
            or table.someone_away()
        ):
            return False
        free = table.seats.count(None) - table.promised  # less the seekers on their way
        return free > 0 and free > self.lobby.house.pending(table)

    def fill(self, table: Table) -> None:
        """Seekers of exactly its game sit at a public waiting table while it has a seat
        free: one just opened with 'new' (after its opener, whose Sit is promised first),
        or one whose promised seat came free (its seeker gone or seated elsewhere before
        the table seated him: those waiting meanwhile would wait on beside it)."""
        if not self.open_to_seekers(table):
            return
        settings = table_settings(table)
        for seeker in [s for s in self.seekers if s.seeking == settings]:
            if self._kept_from(table, seeker):  # (kept_apart.py: he waits on, till then)
                self._look_again_for([seeker], [table])
                # why, as his own seek beside it says, once (s47: told nothing)
                if not seeker.machine and seeker not in table.passed_told:
                    self._say_passed(seeker, [table])
                continue
            self.forget(seeker)
            self.promise(table, seeker, settings, sought=settings)
            if not self.open_to_seekers(table):
                return

    # ---------------------------------------------- who left whose match
    def left_by(
        self, leaver: str, address: str | None, left: list[tuple[Session, GameSettings | None]]
    ) -> None:
        """``leaver`` (from ``address``) left a running match by his own 'leave', or by
        a dropped connection he never came back on (Table._abandoned): each player
        ``left`` there is kept apart from him, and has the seek he came by (if any: the
        first deal had not ended) again, first in line (``kept_apart``; a player of
        another worker's there, docs/scaling.md)."""
        name = name_key(leaver)
        node = self.lobby.node
        for session, settings in left:
            if session.remote and node is not None:  # (his stand-in here keeps it too)
                self.kept_apart(session, leaver, name, address, None)
                node.tell_left_by(session, leaver, name, address, settings)
            else:
                self.kept_apart(session, leaver, name, address, settings)

    def kept_apart(
        self,
        session: Session,
        shown: str,
        name: str,
        address: str | None,
        settings: GameSettings | None,
    ) -> None:
        """``session``'s match was left by ``shown`` (name key ``name``) from ``address``:
        'seek' keeps him apart from that name, and from an address two leavers came
        from, for ``seek_apart_ms``; with ``settings``, his seek is kept (``kept_seek``)."""
        apart_ms = self.lobby.config.seek_apart_ms
        now = trio.current_time()
        if apart_ms > 0:
            session.left_by = noted(
                session.left_by, Left(name, address, now + apart_ms / 1000), now
            )
        if settings is not None:
            self.kept_seek(session, settings, shown)

    def keeps_seek(self, session: Session) -> bool:
        """Whether kept_seek will give this person of a match just over (a leaver's,
        before his first deal ended) his seek again here, calling his match's rematch
        offer off (Rematches.match_over then tells nobody it is on offer). A player of
        another worker's has it kept there alike (node.tell_left_by): a person by the
        style his messages tell, unless his stand-in is gone (node.py's _gone); a drain
        or a stop is the whole server's."""
        lobby = self.lobby
        return (
            not session.machine
            and not (session.remote and session.closed)  # (gone: node.py's _gone)
            and session.ended is None
            and not self.is_seeking(session)
            and lobby.accepting
            and not lobby.drain.begun
        )

    def kept_seek(self, session: Session, settings: GameSettings, leaver: str) -> None:
        """``session``'s match was aborted by ``leaver`` before its first deal ended, and
        he had sought it: he waits for the same game again, first in line, told so
        (docs/protocol.md §5.5). Not if he has gone, sits or seeks already, nor while no
        new game starts (a stop, a drain). A program (the machine style) seeks itself:
        it is told that its next 'seek' of the game goes first in line, and is seated
        nowhere unasked (one that quits after its last match was seated with the next
        seeker, who then played against an empty seat)."""
        lobby = self.lobby
        if session.ended is not None or session.table is not None or self.is_seeking(session):
            return
        if not lobby.accepting or lobby.drain.begun:
            return
        if not session.machine:  # he seeks, as 'seek' (a program's own 'seek' will)
            lobby.rematches.withdraw(session, ev.RematchOff.ELSEWHERE, kept=True)
        minutes = math.ceil(lobby.config.seek_apart_ms / 60_000)
        apart_for = (
            phrase(Msg.SEEK_APART, name=leaver, minutes=minutes) if minutes else phrase(Msg.NOTHING)
        )
        options = f" ({', '.join(settings.options)})" if settings.options else ""
        said = phrase(
            Msg.SEEK_KEPT_PLACE if session.machine else Msg.SEEK_KEPT,
            name=leaver,
            variant=settings.variant,
            for_players=game_for(settings.players),
            options=options,
            apart=apart_for,
        )
        if session.machine:  # the game named in fields too, for a program to read
            apart_ms = lobby.config.seek_apart_ms
            game = (settings.players, settings.variant, settings.options)
            told = ev.first_in_line(said, *game, leaver, apart_ms)
            session.send(told)
            session.kept_place = settings
            return
        session.send(ev.info(said))
        session.seeking = settings
        self.seekers.insert(0, session)
        self.place(session, settings)
        if session in self.seekers:  # (his seek given back passes a table by, as his own)
            self._tell_passed(session, settings)

    def _seek_reserved(self, session: Session) -> None:
        assert session.name is not None
        # the table's 'ok cmd=sit' is this line's reply: a request, answered before the
        # next line's (docs/protocol.md §2.3)
        bot = self.lobby.house.get(session.name)  # a house bot: its table waits for it
        if (
            bot is not None
            and bot.table.state == TableState.WAITING
            and bot.table.post(Sit(session, None), request=True, capped=False)
        ):
            return
        key = name_key(session.name)
        for table in self.lobby.tables.values():
            if (
                table.state == TableState.WAITING
                and table.reserved is not None
                and key in (name_key(n) for n in table.reserved)
                # (another worker's board he played, its end told before its copy's:
                # asked there, "there is no table", and his seek lost)
                and not table.stale_for(key)
                and table.post(Sit(session, None), request=True, capped=False)
            ):
                return
        session.seeking = RESERVED
        self.seekers.append(session)
        session.send(ev.ok("seek", phrase(Msg.SEEK_RESERVED), (("reserved", "1"),)))

    async def unseek(self, session: Session, item: Command) -> None:
        # a seat on its way to him (his seek met someone, the table has not seated him
        # yet) is his seek still: given up, the others there wait for another player
        coming = self._give_up_coming(session)
        if self.is_seeking(session) or coming:
            self.forget(session)
            session.send(ev.ok("unseek", phrase(Msg.UNSEEK)))
            for table in coming:
                self.fill(table)
        else:
            session.send(ev.error("not-allowed", phrase(Msg.NOT_SEEKING)))

    def waits(self, session: Session) -> bool:
        """Whether ``session`` waits for a seek's game: queued, or its seat on its way."""
        return self.is_seeking(session) or bool(self._coming_to(session))

    async def reserve(self, session: Session, item: Command) -> None:
        """A ladder's board: a table for given players in given seats, seed, deal limit."""
        lobby = self.lobby
        if not lobby.is_admin(session):
            session.send(ev.error("not-allowed", phrase(Msg.ADMINS_ONLY, command="reserve")))
            return
        if lobby.refused_new_game(session):  # as new, sit and seek: no new table now
            return
        words = reserve_words(item.args)
        if isinstance(words, ev.Error):
            session.send(words)
            return
        keyed, seats = words.keyed, words.seats
        # 'reserve 5': the count typed refused as 'new 5' refuses it (it named the
        # 'moscow' never typed, the rule book's refusal of the variant by default)
        refused = players_refused("reserve", words.plain, lobby.rules)
        if refused is not None:
            session.send(refused)
            return
        settings = game_settings(words.plain, lobby.rules)
        if len(seats) != settings.players or len({name_key(n) for n in seats}) != len(seats):
            session.send(
                ev.Error("bad-argument", f"seats= names {settings.players} different players")
            )
            return
        deals = keyed.get("deals")
        deal_limit = None if deals is None else number_word(deals)
        if deals is not None and (deal_limit is None or deal_limit < 1):
            session.send(ev.Error("bad-argument", "deals=N takes a whole number from 1"))
            return
        board = keyed.get("board")
        if board is not None and not BOARD_KEY.fullmatch(board):
            session.send(
                ev.Error(
                    "bad-argument", "board=KEY takes 1-64 letters, digits, '_', '-', '.' or '/'"
                )
            )
            return
        watch = keyed.get("watch", "all")
        if watch not in ("all", "ends"):
            session.send(ev.Error("bad-argument", "watch= takes all or ends"))
            return
        if not lobby.table_room(session, opening=False):
            return
        try:
            table = lobby.open_table(
                settings,
                seed=keyed.get("seed"),
                reserved=seats,
                deal_limit=deal_limit,
                board=board,
                rated=False,  # a ladder's: bots are rated by the ladder
            )
        except RuleError as exc:
            session.send(rules_refusal(session, exc))
            return
        session.send(
            ev.Ok(
                "reserve",
                f"Table {table.id} is reserved for {', '.join(seats)}.",
                (("table", str(table.id)),),
            )
        )
        if watch == "ends":  # its task has not run yet: nothing to post
            table.told_ends.append(session)
        else:
            table.post(Observe(session))  # before anyone sits: the admin sees the whole board
        self.seat_reserved_seekers(table)

    def seat_reserved_seekers(self, table: Table) -> None:
        """Seat at ``table``, if it is reserved and waits, those it names who wait here
        with 'seek reserved': at its reservation, or, another worker's table under
        ``serve --workers``, once its copy is heard here (a seek made before the copy
        came waited, unseated, till its seat forfeited at the away limit: a ladder's
        bot on another worker than its admin's)."""
        if table.reserved is None or table.state != TableState.WAITING:
            return
        names = {name_key(n) for n in table.reserved}
        for seeker in list(self.seekers):
            if (
                seeker.seeking is RESERVED
                and seeker.name is not None
                and name_key(seeker.name) in names
                and not table.stale_for(name_key(seeker.name))
                and not (seeker.remote and table.remote)  # (a stand-in goes one hop)
            ):
                self.forget(seeker)
                table.post(Sit(seeker, None))

    def hold(self, board: str, players: tuple[str, ...], record: ev.DealRecord) -> None:
        self.held.setdefault(board, []).append(HeldRecord(players, record))

    async def release(self, session: Session, item: Command) -> None:
        """A ladder's board is played in every seating: its players get its records."""
        lobby = self.lobby
        if not lobby.is_admin(session):
            session.send(ev.error("not-allowed", phrase(Msg.ADMINS_ONLY, command="release")))
            return
        if len(item.args) != 1:
            session.send(ev.usage_error("release BOARD"))
            return
        board = item.args[0]
        for table in lobby.tables.values():
            if table.board == board and not table.remote:
                # a seating still played (an interrupted ladder's): its deck is public
                # now, so a plain match from then on, holding nothing (docs/bots.md);
                # before the store's release, so that an end written after it is not
                # kept for a release that has been
                table.board = None
        # its results, kept by the store (through any stop), are finished there before
        # anyone is told: a released record's replay is there
        await lobby.writes.run(functools.partial(lobby.store.release_board, board))
        held = self.held.pop(board, [])  # with what was held meanwhile
        for kept in held:
            for name in kept.players:
                player = lobby.online.get(name_key(name))
                if player is not None and player.connection.tell is Tell.ALL:
                    player.send(kept.record)
        session.send(
            ev.Ok(
                "release",
                f"{len(held)} records of board {board} released.",
                (("board", board), ("records", str(len(held)))),
            )
        )


def _table_id(table: Table) -> int:
    return table.id
