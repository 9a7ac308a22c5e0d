"""What the pages and the JSON endpoints show, built from the lobby and the store."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import trio

from deberc_net.game.calls import PLAY
from deberc_net.game.cards import SUITS, Card, card_str
from deberc_net.game.match import Match
from deberc_net.game.outcomes import FORFEITS
from deberc_net.game.sheet import SheetRow
from deberc_net.game.view import view
from deberc_net.protocol.ends import said_konets, told_reason
from deberc_net.protocol.events import TableState
from deberc_net.protocol.lang import NO_WORDS, Lang, ru_call, spoken_call
from deberc_net.protocol.messages import game_for
from deberc_net.protocol.render import side_names

from ..cluster.remote import MatchNow, RemoteTable, talon_left
from ..store.base import STOPPED, PlayerRating, RatingPoint, name_key
from ..table import Table
from ..table_views import clock_in_deal
from .ends import forfeit_seat, page_end_words
from .plot import Series, line_chart
from .replay import shown_text, stored_winners
from .words import W, said, without_defeat

if TYPE_CHECKING:
    from ..lobby import Lobby


@attrs.frozen
class TableSummary:
    id: int
    players: list[str | None]
    variant: str
    options: list[str]
    state: TableState  # a StrEnum: its JSON and HTML are the wire's words
    observers: int
    score: list[int] | None  # per side; None before the match starts
    deal: int | None  # the deal being played
    match: str | None  # the match id (its replay is /games/ID once it is over)
    hand_sizes: list[int]  # cards in each hand: public, as at a real table
    # by seat: the whole seconds an away player's seat is still held (then the match
    # is forfeited, or at a waiting table the seat freed); None for a seat not away
    away_s: list[int | None]
    # the points hanging now (the sum this deal plays for: docs/rules.md §5), 0 if none;
    # under hanging-separate the sums waiting for the deals after it, in their order
    hanging: int = 0
    hanging_after: list[int] = attrs.Factory(list)
    # a game with a talon (Tertz): the cards left to draw, the turned one included; None
    # at a game without one (Deberts), and before the match starts
    talon: int | None = None

    def sides(self) -> list[str]:
        """Each side's names, in the score's order ('ann+cat', 'bob+dan' with four
        players: a score alone said nothing of who had which); none before the match."""
        if self.score is None:
            return []
        return side_names([p or "-" for p in self.players], len(self.score))

    def side_players(self) -> list[list[str]]:
        """Each side's names one by one, for the page to keep each whole (no name
        holds a '+': accounts.valid_name)."""
        return [side.split("+") for side in self.sides()]

    def awaited(self) -> list[str]:
        """A waiting table with every seat taken waits for its away players to come back
        (docs/protocol.md §12): their names; none for any other table."""
        if self.state is not TableState.WAITING or None in self.players:
            return []
        seats = zip(self.players, self.away_s, strict=True)
        return [name for name, held in seats if name and held is not None]


def table_summary(table: Table) -> TableSummary:
    info = table.info()
    now = _match_now(table)
    return TableSummary(
        id=info.id,
        players=list(info.seats),
        variant=info.variant,
        options=list(info.options),
        state=info.state,
        observers=info.observers,
        score=None if now is None else list(now.totals),
        deal=None if now is None else now.deal_no,
        match=None if now is None else now.match_id,
        hand_sizes=[] if now is None else list(now.hand_sizes),
        away_s=_away_s(table, len(info.seats)),
        hanging=0 if now is None else now.hanging,
        hanging_after=[] if now is None else list(now.hanging_after),
        talon=None if now is None else now.talon,
    )


def _match_now(table: Table) -> MatchNow | None:
    """The match as the summary shows it: another worker's as its owner told it."""
    if isinstance(table, RemoteTable):
        return table.now
    match = table.match
    if match is None:
        return None
    hands = tuple(len(hand) for hand in match.deal.hands)
    return MatchNow(
        match.match_id,
        tuple(match.totals),
        match.deal.deal_no,
        hands,
        match.hanging,
        match.hanging_pending,
        talon_left(match),
    )


def _away_s(table: Table, seats: int) -> list[int | None]:
    """Each seat's whole seconds still held while its player is away (None: not away)."""
    clocks, now = table.clocks, trio.current_time()
    return [
        None if seat not in clocks.away_since else clocks.held_s(seat, now) for seat in range(seats)
    ]


@attrs.frozen
class BoardNow:
    """What an observer sees of the deal in play (``view(match, None)``, the source of
    an observer's ``state`` line), for the table page without JavaScript."""

    turned: str | None  # the turned card while it lies open
    trump: str | None  # 's', 'h', 'd', 'c' once ordered
    player: int | None  # the seat that ordered the game
    to_act: int | None
    trick: list[tuple[int, str]]  # (seat, card) of the trick being laid, in play order
    # (seat, call) said this deal, as spoken ('igrayu ♠'); one the clock made says so
    talk: list[tuple[int, str]]
    deals: list[SheetRow]  # each finished deal of the match, as 'sheet' tells them
    talon: int | None = None  # a game with a talon (Tertz): the cards left to draw
    # the talon's bottom card, face up once the last cards are dealt (docs/rules.md §2)
    fresa: str | None = None
    # the seats whose card in the trick being laid the clock played (auto=1)
    trick_by_clock: tuple[int, ...] = ()
    # for the live page's script: the deal, the places in its state's talk= of the
    # calls the clock made, and the cards of the trick it played (JSON: table.js)
    clock_json: str = ""


def has_talon(table: Table, board: BoardNow | None) -> bool:
    """Whether the table's game draws from a talon (Tertz): its views say ``talon``.
    The live page is told it as served, so that a page opened while the table waited
    (no state line comes to it) shows the talon, and the turned card's suit as trump,
    from the first deal's event (docs/web.md). Without a match, a deal of its rules
    that nobody plays (a match's first, dealt as a match deals it) is asked."""
    if board is not None:
        return board.talon is not None
    return "talon" in dict(Match(table.rules, seed="-").deal.view_fields(None))


def board_now(table: Table, lang: Lang = Lang.EN) -> BoardNow | None:
    """None before the match starts; the talk in ``lang``."""
    match = table.match
    if match is None:
        return None
    seen = view(match, None)
    talon = dict(seen.game).get("talon")
    # the turned card is a Tertz talon's last card: once drawn it lies in a hand
    drawn = talon == 0
    deal = match.deal
    auto = [c.auto for c in deal.log if c.call.name != PLAY]  # as the view's talk
    by_clock = clock_in_deal(deal)[-1]  # the trick being laid
    clock = {
        "deal": seen.deal_no,
        "calls": len(auto),
        "talk": [i for i, made in enumerate(auto) if made],
        "cards": [card_str(card) for seat, card in seen.trick if seat in by_clock],
    }
    return BoardNow(
        turned=None if seen.turned is None or drawn else card_str(seen.turned),
        trump=None if seen.trump is None else SUITS[seen.trump],
        player=seen.player,
        to_act=seen.to_act,
        trick=[(seat, card_str(card)) for seat, card in seen.trick],
        talk=talk_with_shown(seen.talk, seen.shown, lang, table.words, auto),
        deals=list(table.sheet.rows),
        talon=talon,
        fresa=None if seen.fresa is None else card_str(seen.fresa),
        trick_by_clock=by_clock,
        clock_json=json.dumps(clock, separators=(",", ":")),
    )


def talk_with_shown(
    talk: Sequence[tuple[int, str]],
    shown: Mapping[int, Sequence[Card]],
    lang: Lang = Lang.EN,
    words: Mapping[str, str] = NO_WORDS,
    auto: Sequence[bool] = (),
) -> list[tuple[int, str]]:
    """The deal's talk as spoken, each seat's shown cards (public: docs/rules.md §3.5)
    right after its last 'pokazyvayu', as the live page lists them. A Tertz seat may
    show at several tricks, and the view holds all its shown cards as one list: after
    the first show they would claim cards shown only later (the replay, told each
    show, lists each after its own). In Russian as the table says it (``words``: the
    table's own, lang.table_words); a call the clock made (``auto``, by its place in
    ``talk``) as the replay marks it, 'ann: pas (by the clock)'."""
    last = {seat: i for i, (seat, token) in enumerate(talk) if token == "pokazyvayu"}
    out: list[tuple[int, str]] = []
    left = dict(shown)
    for i, (seat, token) in enumerate(talk):
        spoken = ru_call(token, words) if lang == Lang.RU else spoken_call(token, words)
        by_clock = said(W.BY_CLOCK, lang) if i < len(auto) and auto[i] else ""
        out.append((seat, spoken + by_clock))
        if last.get(seat) == i and seat in left:
            out.append((seat, shown_text(left.pop(seat), lang)))
    return out + [(seat, shown_text(cards, lang)) for seat, cards in left.items()]


def open_tables(lobby: Lobby) -> list[TableSummary]:
    """The tables anyone may see, as 'tables' lists them: open, and not private."""
    return [table_summary(t) for t in lobby.listed_tables()]


@attrs.frozen
class PlayedMatch:
    match: str
    table: str
    players: list[str]
    variant: str
    winner: str  # the winners' names joined by ',', empty for a draw (old clients')
    reason: str
    totals: list[int]
    finished: str
    # for the player: won, lost, drawn, stopped (store.base.STOPPED), or aborted (a
    # forfeit before the first call: docs/web.md)
    result: str
    winners: list[str] = attrs.Factory(list)  # as /api/games/ID gives them
    forfeit: int | None = None  # the seat that forfeited it, if known (ends.forfeit_seat)
    claimed: bool = False  # its 'claim' was a seat's true konets (ends.said_konets)
    # its rules' options, as /games/ID heads it ('kharkov · to-301'): appended last
    options: list[str] = attrs.Factory(list)

    @property
    def why(self) -> str:
        """Why it ended, in the replay's words, naming who forfeited it when known (or
        the winners, where those words do)."""
        return self.why_in(Lang.EN)

    def why_in(self, lang: Lang) -> str:
        """``why`` in ``lang``: in Russian as the replay and the table's end line say it."""
        who = None if self.forfeit is None else self.players[self.forfeit]
        said = page_end_words(told_reason(self.reason, self.claimed), self.winners, who, lang)
        # forfeited before the first call: who ended it, not that it was his defeat
        return without_defeat(said, lang) if self.result == "aborted" else said


@attrs.frozen
class PlayerPage:
    name: str
    won: int
    lost: int
    drawn: int
    stopped: int  # not finished: its server lost or shut down while it ran
    games: list[PlayedMatch]  # newest first
    # his ratings, one per variant and player count (server/ratings.py), and each one's
    # value after every rated match, oldest first
    ratings: list[PlayerRating] = attrs.Factory(list)
    rating_history: list[RatingPoint] = attrs.Factory(list)
    # each rating's place in its standings, 1 the best, as 'finger' and /top say it
    ranks: list[int] = attrs.Factory(list)
    aborted: int = 0  # forfeited before the first call: neither won nor lost
    # no account has the name: a guest's, anyone's once he has gone, so its matches may
    # be different people's (the page says so: docs/web.md)
    guest: bool = False


def rating_plot(page: PlayerPage, lang: Lang = Lang.EN) -> str | None:
    """The player's rating over his rated matches, a line per variant and player count
    (None before his first rated match); its labels in ``lang``."""
    if not page.rating_history:
        return None
    lines: dict[tuple[str, int], list[float]] = {}
    for point in page.rating_history:
        lines.setdefault((point.variant, point.players), []).append(point.rating)
    series = [
        # the game the line is for, as 'top' and 'finger' say it ("moscow for 3 players",
        # «moscow на троих»): «moscow, игроков: 3» read as a count beside the matches'
        Series(f"{v} {game_for(n).text(lang)}", values)
        for (v, n), values in lines.items()
    ]
    return line_chart(
        series,
        x_label=said(W.PLOT_RATED_MATCHES, lang),
        y_label=said(W.PLOT_RATING, lang),
        title=said(W.PLOT_RATING_TITLE, lang, name=page.name),
        markers=True,
    )


def stored_spelling(name: str, rows: list[dict[str, Any]], ratings: Sequence[PlayerRating]) -> str:
    """``name`` as his newest listed match spells it (the URL's ``ANN`` is ``ann``); a
    house bot's rating name (its copies played under their own names) as rated."""
    key = name_key(name)
    for row in rows:
        for player in row["players"]:
            if name_key(player) == key:
                return str(player)
    return next((r.name for r in ratings if name_key(r.name) == key), name)


def player_page(
    name: str,
    rows: list[dict[str, Any]],
    ratings: list[PlayerRating] | None = None,
    history: list[RatingPoint] | None = None,
    played_as: dict[str, str] | None = None,
    ranks: list[int] | None = None,
    guest: bool = False,
) -> PlayerPage:
    """A player's finished matches (the store's rows, newest first) and their tally,
    with his ratings, their places (``ranks``) and their history; ``played_as``: a
    match's name he played under when not his own (a house bot's copy)."""
    games = []
    for row in rows:
        # the store's fold (full-width letters too), not casefold() alone: ＢＯＢ is bob
        key = name_key((played_as or {}).get(row["match"], name))
        winners = stored_winners(row["winner"])
        won = key in (name_key(w) for w in winners)
        result = "drawn" if not winners else "won" if won else "lost"
        if row["reason"] in STOPPED:
            result = "stopped"
        elif row["reason"] in FORFEITS and not row.get("dealt", True):
            # forfeited before the first call: nobody played it, and the ratings do
            # not count it (aborted, docs/protocol.md §5.18): neither won nor lost
            result = "aborted"
        players = list(row["players"])
        games.append(
            PlayedMatch(
                match=row["match"],
                table=str(row["table"]),
                players=players,
                variant=row["variant"],
                winner=row["winner"] or "",
                reason=row["reason"],
                totals=list(row["totals"]),
                finished=str(row["finished"]),
                result=result,
                winners=winners,
                forfeit=forfeit_seat(row["reason"], players, winners, row.get("forfeit")),
                claimed=said_konets(row["reason"], row["options"]),
                options=list(row["options"]),
            )
        )
    results = ("won", "lost", "drawn", "stopped", "aborted")
    count = {r: sum(1 for g in games if g.result == r) for r in results}
    return PlayerPage(
        name=stored_spelling(name, rows, ratings or []),
        won=count["won"],
        lost=count["lost"],
        drawn=count["drawn"],
        stopped=count["stopped"],
        games=games,
        ratings=list(ratings or []),
        rating_history=list(history or []),
        ranks=list(ranks or []),
        aborted=count["aborted"],
        guest=guest,
    )
