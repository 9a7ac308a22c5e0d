"""The club's lists: who is here, the tables, the standings ('top'), a player's card
('finger'), his games and his last match's history; each paged and rate-limited."""

from __future__ import annotations

import json
import math
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs
import trio

from deberc_net.game.sheet import record_rows
from deberc_net.plugins import RuleError, RuleKind
from deberc_net.plugins.naming import own_count, variant_named
from deberc_net.plugins.near_names import near_name
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, number_word
from deberc_net.protocol.ends import said_konets
from deberc_net.protocol.events import ServerEvent
from deberc_net.protocol.lang import NO_WORDS, table_words
from deberc_net.protocol.messages import Msg, Phrase, phrase
from deberc_net.protocol.refusals import rules_phrase
from deberc_net.protocol.said_back import said_back

from . import accounts
from .accounts import name_key
from .allowance import may_list
from .house_games import house_bot_games, house_rating_name, is_house_rating_name, never_rated
from .moderation import banned, muted_name
from .session import Session
from .store.base import PlayerRating
from .table_messages import ShowHistory, ShowLast, ShowSheet
from .table_views import history_deals, last_in_records

if TYPE_CHECKING:
    from .lobby import Lobby

Item = TypeVar("Item")


@attrs.frozen
class Page(Generic[Item]):
    """One page of a list: its items, its number, how many pages, its first item's
    place in the whole list (1 on the first page)."""

    items: tuple[Item, ...]
    number: int
    pages: int
    first: int


@attrs.frozen
class _LastMatch:
    """A player's last finished match as 'history' and 'sheet' tell it at no table."""

    table: int
    match: str
    names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    records: list[dict[str, Any]]  # its deals, in order (docs/records.md)
    variant: str
    options: list[str]


@attrs.define(eq=False)
class Club:
    lobby: Lobby

    async def who(self, session: Session, item: Command) -> None:
        names = [s.name for s in self.lobby.online.values() if s.name]
        if self.lobby.node is not None:  # and those of every other worker
            names += self.lobby.node.names()
        names.sort(key=str.lower)
        self._send_page(
            session, item, names, lambda p: ev.Who(p.items, len(names), p.number, p.pages)
        )

    async def tables(self, session: Session, item: Command) -> None:
        tables = self.lobby.listed_tables(session)
        infos = [t.info() for t in tables]
        if self.lobby.is_admin(session):  # a reserved table marked (§5.5a): his own doing
            infos = [
                attrs.evolve(i, reserved=t.reserved is not None)
                for i, t in zip(infos, tables, strict=True)
            ]
        self._send_page(
            session,
            item,
            infos,
            lambda p: ev.Tables(
                p.items, len(infos), p.number, p.pages, games=self.lobby.new_games()
            ),
        )

    async def top(self, session: Session, item: Command) -> None:
        args = list(item.args)
        variant = "moscow"
        spelled = variant_named(args[0], self.lobby.rules) if args else None
        if spelled is not None:  # (as 'new' reads it: 'top харьков' too)
            variant = spelled
            args.pop(0)
        named = variant != "moscow" or len(args) < len(item.args)
        players = own_count(variant, self.lobby.rules)
        if args and args[0] in ("2", "3", "4"):
            players = int(args.pop(0))
        elif named and args and number_word(args[0]) is not None:
            # a number after the variant is its player count (a page comes after that)
            said = phrase(Msg.TOP_PLAYERS, players=said_back(args[0]))  # (cut: no echo)
            session.send(ev.error("bad-argument", said))
            return
        rule = self.lobby.rules.get(variant)  # (a name variant_named found, or moscow)
        counts = rule.info.players if rule is not None else (players,)
        if players not in counts:  # no such game ('top tertz 3'), as 'new 3 tertz' says
            told = "/".join(map(str, counts))
            said = phrase(Msg.TOP_GAME_PLAYERS, variant=variant, counts=told, players=players)
            session.send(ev.error("bad-argument", said))
            return
        if args and len(args) == len(item.args) and number_word(args[0]) is None:
            # a first word that is no variant: said so, with the variants (a tryout,
            # s47: 'top chess', 'top kharkof' were told the bare usage)
            session.send(ev.error("bad-argument", self._no_variant(args[0])))
            return
        if len(args) > 1 or (args and number_word(args[0]) is None):
            usage = "top [VARIANT] [PLAYERS] [PAGE]"
            session.send(ev.usage_error(usage))
            return
        page = number_word(args[0]) if args else 1
        assert page is not None
        # paid for before the store is read (a refused page too: it was read to know):
        # a 'top' of thousands of rated players, read whole at every line, unmetered
        # before its answer, kept a core busy from a few connections (a hostile pass)
        if not may_list(self.lobby, session, item.name, self.lobby.is_admin(session)):
            return
        store, size = self.lobby.store, self.lobby.config.page_size
        # the asker's own game (the one he has played rated most) when he names none
        own = None if item.args else session.name or ""
        variants = [r.name for r in self.lobby.rules.rules() if r.info.kind == RuleKind.VARIANT]

        def read() -> tuple[str, int, int, list[PlayerRating]]:
            """The game shown, how many are rated in it, and the page's rows."""
            counts = store.rated_counts()
            game = (variant, players)
            if own is not None:
                most = max(store.player_ratings(own), key=lambda r: r.games, default=None)
                if most is not None:
                    game = (most.variant, most.players)
                else:  # none of his own: the club's game
                    game = club_game(counts, variants)
            total = counts.get(game, 0)
            if not 1 <= page <= _pages(total, size):
                return *game, total, []
            return *game, total, store.standings_page(*game, (page - 1) * size, size)

        variant, players, total, rows = await trio.to_thread.run_sync(read)
        pages = _pages(total, size)
        if not 1 <= page <= pages:
            said = phrase(Msg.TOP_PAGES, command=item.name, pages=pages)
            session.send(ev.error("bad-argument", said))
            return
        first = (page - 1) * size
        rated = tuple(rated_at(first + 1 + i, r) for i, r in enumerate(rows))
        session.send(ev.Top(variant, players, rated, total, page, pages))

    def _no_variant(self, word: str) -> Phrase:
        """'top WORD' of a WORD no variant is: the variants, and the one it is near."""
        games = [r.name for r in self.lobby.rules.rules() if r.info.kind == RuleKind.VARIANT]
        told, variants = said_back(word), ", ".join(games)
        near = near_name(word, games)
        if near is None:
            return phrase(Msg.TOP_NO_VARIANT, word=told, variants=variants)
        return phrase(Msg.TOP_NO_VARIANT_NEAR, word=told, near=near, variants=variants)

    async def finger(self, session: Session, item: Command) -> None:
        if len(item.args) > 1:
            session.send(ev.usage_error("finger [NAME]"))
            return
        asked = unicodedata.normalize("NFC", item.args[0]) if item.args else session.name
        assert asked is not None
        if not accounts.valid_name(asked):
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_NAME)))
            return
        # a look in the store each (a second hostile pass, s29: unmetered, 0.3 ms a line)
        if not may_list(self.lobby, session, item.name, self.lobby.is_admin(session)):
            return
        # a house bot's copy (house-heuristic-3) is told as the bot it is a copy of: it
        # was called a guest, not here, once its match was over (a tryout, s28)
        name = house_rating_name(asked) or asked
        online = self.lobby.online.get(name_key(name))
        present = self.lobby.node.elsewhere(name) if self.lobby.node is not None else None
        elsewhere = present is not None and present.online  # on another worker
        store = self.lobby.store
        house_bot = is_house_rating_name(name)
        admin = self.lobby.is_admin(session) and not house_bot  # (no bot is banned)
        now_s = time.time()
        ban: ev.Banned | None = None
        mute: ev.MutedName | None = None

        def look_up() -> tuple[str | None, list[ev.Rated], list[str]]:
            nonlocal ban, mute
            if admin:  # the name's ban and running mute, as 'bans' and 'mutes' list them
                stored = store.ban_of(name)
                ban = None if stored is None else banned(stored)
                key = name_key(name)
                running = (m for m in store.mutes(now_s) if name_key(m.name) == key)
                mute = next((muted_name(m, now_s) for m in running), None)
            ratings = []
            for r in store.player_ratings(name):  # (his place counted, not read off
                # the whole standings: 0.4 s a line at 30,000 rated, a hostile pass)
                ratings.append(rated_at(store.rank(r), r))
            if house_bot:  # its copies played them
                last = [row["match"] for _, row in house_bot_games(store, name, 10)]
            else:
                last = [g["match"] for g in store.recent_games(name)]
            return store.account_name(name), ratings, last

        account, ratings, last = await trio.to_thread.run_sync(look_up)
        registered = account is not None
        # a house bot the server seats is known before its first match (a tryout, s28)
        known_bot = house_bot and self.lobby.house.enabled
        played = bool(last or ratings)
        # (a name banned or muted though nobody holds it is known to an admin: §5.19)
        moderated = ban is not None or mute is not None
        if not (registered or online is not None or elsewhere or played or known_bot or moderated):
            session.send(ev.error("unknown-player", phrase(Msg.NOBODY_PLAYED, name=asked)))
            return
        # as he is called (his connection's, else his account's spelling), not as asked
        shown = online.name if online is not None and online.name else account or name
        if online is None and present is not None:
            shown = present.name
        here = online is not None or elsewhere
        unrated = house_bot and never_rated(name)  # not 'rated under this name'
        address = None  # told an admin: the address 'ban ADDRESS' takes (§5.19)
        if admin and online is not None:
            address = online.address
        elif admin and elsewhere and present is not None:
            address = present.address
        finger = ev.Finger(
            shown,
            registered,
            here,
            tuple(ratings),
            tuple(last),
            house_bot,
            unrated,
            ban,
            mute,
            address,
        )
        session.send(finger)

    async def games(self, session: Session, item: Command) -> None:
        if len(item.args) > 1:  # as 'finger'
            session.send(ev.usage_error("games [NAME]"))
            return
        name = unicodedata.normalize("NFC", item.args[0]) if item.args else session.name
        assert name is not None
        if not accounts.valid_name(name):  # no name: nothing to look up, nor to echo back
            session.send(ev.error("bad-argument", phrase(Msg.LOGIN_NAME)))
            return
        if not may_list(
            self.lobby, session, item.name, self.lobby.is_admin(session)
        ):  # (as finger)
            return
        store = self.lobby.store

        def look_up() -> tuple[list[dict[str, Any]], bool]:
            if is_house_rating_name(name):  # its copies played them, as 'finger' lists
                # its last (a review, s44: 'No finished games', or with the house bots
                # off 'nobody has played', of a bot with rated matches)
                rows = [row for _, row in house_bot_games(store, name, 10)]
            else:
                rows = store.recent_games(name)
            return rows, bool(rows) or store.account_name(name) is not None

        rows, known = await trio.to_thread.run_sync(look_up)
        if not known and not self._here(name):
            # a name nobody holds nor has played under is told so, as 'finger' tells
            # it ("No finished games for X" said he was a player: s43's leftover)
            session.send(ev.error("unknown-player", phrase(Msg.NOBODY_PLAYED, name=name)))
            return
        # as he is called in his games, not as asked ('games ＰＲＯＢＥ１' said it back so:
        # a hostile tryout, s29); no game: as asked
        key = name_key(name)
        called = (p for r in rows for p in r["players"] if name_key(p) == key)
        session.send(ev.Games(next(called, name), tuple(_game(r) for r in rows)))

    def _here(self, name: str) -> bool:
        """Whether ``name`` is a player the server knows without a game stored: logged
        in (here or on another worker), or a house bot it seats (as 'finger' knows him)."""
        if name_key(name) in self.lobby.online:
            return True
        node = self.lobby.node
        present = node.elsewhere(name) if node is not None else None
        if present is not None and present.online:
            return True
        return is_house_rating_name(house_rating_name(name) or name) and self.lobby.house.enabled

    # a match's whole history or sheet is a long text for a short line: each spends a
    # list (a hostile tryout, s29: 40 observers asking 'history' 150 times a second)
    async def history(self, session: Session, item: Command) -> None:
        if item.args:  # 'history 3' (a table? a deal?) was answered with this table's
            session.send(ev.usage_error("history"))
        elif may_list(self.lobby, session, item.name, self.lobby.is_admin(session)):
            await self._table_or_last(session, self._last_history, ShowHistory(session))

    async def sheet(self, session: Session, item: Command) -> None:
        if item.args:  # as 'history'
            session.send(ev.usage_error("sheet"))
        elif may_list(self.lobby, session, item.name, self.lobby.is_admin(session)):
            await self._table_or_last(session, self._last_sheet, ShowSheet(session))

    async def last(self, session: Session, item: Command) -> None:
        # at no table 'last' reads the store as 'sheet' does (the list allowance); the
        # table's own answer stays free, as it was
        at_table = session.table is not None or bool(session.observing)
        if at_table or may_list(self.lobby, session, item.name, self.lobby.is_admin(session)):
            await self._table_or_last(session, self._last_trick, ShowLast(session))

    async def _table_or_last(
        self,
        session: Session,
        last: Callable[[str, str | None], ServerEvent | None],
        shown: ShowHistory | ShowSheet | ShowLast,
    ) -> None:
        """'history', 'sheet' and 'last': ``shown`` by the table ``session`` sits at or watches,
        or at no table what ``last`` makes of his last finished match (the store's), or
        of the match he last watched to its end, if that ended later."""
        if (
            session.table is None
            and not session.observing
            and not self.lobby.refused_for_shutdown(session)
        ):
            assert session.name is not None
            told = await trio.to_thread.run_sync(last, session.name, session.watched_match)
            if told is None:
                session.send(ev.error("not-seated", phrase(Msg.NO_HISTORY)))
                return
            session.send(told)
            return
        table = self.lobby.watched(session)
        if table is not None:
            self.lobby.post_for(session, table, shown)

    def _last_match(self, name: str, watched: str | None) -> _LastMatch | None:
        """``name``'s last finished match with its deals, from the store (its replay is
        public on the web too), or the one he ``watched`` to its end if it ended later;
        None if he has none."""
        games = self.lobby.store.recent_games(name, 1)
        seen = None if watched is None else self.lobby.store.finished_match(watched)
        # a tie of whole seconds is the watched one's: had his own ended after it, his
        # own match's end would have forgotten it (Lobby.own_match_over)
        if seen is not None and (not games or seen["finished"] >= games[0]["finished"]):
            games = [seen]
        if not games:
            return None
        game = games[0]
        records = [json.loads(body) for body in self.lobby.store.match_records(game["match"])]
        if records:
            first = records[0]
            names = tuple(first["players"])
            count = len(first.get("totals_before") or game["totals"])
            variant, options = first["variant"], first["options"]
        else:  # it ended before anyone made a call (a forfeit): no deal was stored
            stored = self.lobby.store.finished_match(game["match"])
            if stored is None:
                return None
            names, count = tuple(stored["players"]), len(stored["totals"])
            variant, options = stored["variant"], stored["options"]
        sides = tuple(tuple(range(side, len(names), count)) for side in range(count))
        return _LastMatch(game["table"], game["match"], names, sides, records, variant, options)

    def _last_history(self, name: str, watched: str | None) -> ev.History | None:
        last = self._last_match(name, watched)
        if last is None:
            return None
        deals = tuple(history_deals(last.records))
        words = NO_WORDS
        try:  # its rules tell whether a deal is told by its winner (docs/rules.md §11)
            rules = self.lobby.rules.ruleset(len(last.names), last.variant, last.options)
            on_points = rules.settings.deal_won_on_points
            words = table_words(rules.call_aliases)  # (Tertz's «марьяж»)
        except RuleError:  # their plugin is gone since: its deals as they were recorded
            on_points = False
        return ev.History(
            last.table, last.match, last.names, last.sides, deals, on_points, True, words
        )

    def _last_trick(self, name: str, watched: str | None) -> ev.LastTrick | ev.Error | None:
        """The last trick taken in ``name``'s last finished match (the one that ended
        it, or the last before a forfeit): a newcomer's 'last' just after the match end
        was refused as at no table, while 'sheet' and 'history' told that match."""
        last = self._last_match(name, watched)
        if last is None:
            return None
        return last_in_records(last.table, last.records, last.names)

    def _last_sheet(self, name: str, watched: str | None) -> ev.Sheet | ev.Error | None:
        last = self._last_match(name, watched)
        if last is None:
            return None
        try:  # the sheet's target is the rules': their plugin may be gone since
            rules = self.lobby.rules.ruleset(len(last.names), last.variant, last.options)
        except RuleError as exc:
            said = phrase(Msg.LAST_RULES_GONE, table=last.table, reason=_rules_reason(str(exc)))
            return ev.Error("bad-rules", said.text(), said=said)
        rows = record_rows(last.records)
        settings = rules.settings
        return ev.Sheet(
            last.table,
            last.names,
            last.sides,
            settings.target,
            rows,
            settings.deal_won_on_points,
            over=True,
        )

    def _send_page(
        self,
        session: Session,
        item: Command,
        items: Sequence[Item],
        told: Callable[[Page[Item]], ServerEvent],
        args: Sequence[str] | None = None,
        bad_page: Msg = Msg.PAGES,
    ) -> None:
        """Send the page of ``items`` asked for (``args``, the command's own by default:
        a page number or nothing) as ``told`` makes it, or the error (a list is paged
        and rate-limited: one client cannot make the server copy it without end);
        ``bad_page`` says a page out of range, with the command's usage."""
        size = self.lobby.config.page_size
        pages = max(1, math.ceil(len(items) / size))
        args = item.args if args is None else args
        page = number_word(args[0]) if args else 1
        if page is None or not 1 <= page <= pages:
            session.send(ev.error("bad-argument", phrase(bad_page, command=item.name, pages=pages)))
            return
        if not may_list(self.lobby, session, item.name, self.lobby.is_admin(session)):
            return
        first = (page - 1) * size
        session.send(told(Page(tuple(items[first : first + size]), page, pages, first + 1)))


def club_game(counts: dict[tuple[str, int], int], variants: Sequence[str]) -> tuple[str, int]:
    """The standings with the most players (a newcomer at a club that plays four-handed
    Kharkov sees those, not Moscow for two's "nobody yet"); Moscow for two when nobody
    is rated: 'top' for one rated in none, and /top (docs/web.md)."""
    games = [("moscow", 2), *((v, n) for v in variants for n in (2, 3, 4))]
    return max(games, key=lambda g: counts.get(g, 0))


def _pages(count: int, size: int) -> int:
    """How many pages ``count`` items of ``size`` a page make (one, empty, for none)."""
    return max(1, math.ceil(count / size))


def rated_at(rank: int, r: PlayerRating) -> ev.Rated:
    """A rating at its place in its standings, as 'top' and 'finger' (and /top) tell it."""
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
        forfeit=row["forfeit"],
        claimed=said_konets(row["reason"], row["options"]),
        options=tuple(row["options"] or ()),
    )


def _rules_reason(message: str) -> Phrase | str:
    """Why rules are refused, said in each language when its form is known."""
    said = rules_phrase(message)
    return message if said is None else said
