"""The lobby's and the table's multi-line replies (``sheet``, ``history``, ``games``,
``top``, ``finger``), read back from the machine style into the protocol's own events,
so a person reads them as the human style writes them (protocol.render).

A reply is a head line that counts what follows (docs/protocol.md §5.11–5.18); the
client gathers the lines, then renders the whole. Machine lines carry seats, not names:
the names are the table's that the client knows (``seat N`` for one it does not).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from deberc_net.game.cards import SUITS, parse_card
from deberc_net.game.sheet import SheetRow
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import NO_WORDS, Lang, ru_card_text
from deberc_net.protocol.render import (
    finger_lines,
    games_lines,
    history_lines,
    sheet_lines,
    top_lines,
)
from deberc_net.protocol.wire import Line, Tag

# a reply's head line, and the field that counts the lines after it
HEADS: dict[Tag, str] = {
    Tag.TABLES: "count",
    Tag.SHEET: "deals",
    Tag.GAMES: "count",
    Tag.TOP: "count",
    Tag.FINGER: "ratings",
    Tag.HISTORY: "deals",
}
BODIES = frozenset(
    {Tag.TABLE, Tag.SHEET_DEAL, Tag.GAME, Tag.RATED, Tag.HISTORY_DEAL, Tag.HISTORY_TRICK}
)


def lines_after(line: Line) -> int:
    """How many more lines a reply's line announces: the head its count, a history
    deal its tricks (each line of a body itself is one of the count already)."""
    if isinstance(line.tag, Tag) and line.tag in HEADS:
        return line.get_int(HEADS[line.tag]) or 0
    if line.tag == Tag.HISTORY_DEAL:
        return line.get_int("tricks") or 0
    return 0


def _seat_names(players: Sequence[str], seats: int, lang: Lang) -> tuple[str, ...]:
    """The players' names, a seat's number for one not known («место 1» in Russian)."""
    seat = "место" if lang == Lang.RU else "seat"
    return tuple(
        players[i] if i < len(players) and players[i] else f"{seat} {i}" for i in range(seats)
    )


def _sides(seats: int, count: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: with four players the pairs 0+2 and 1+3."""
    return tuple(tuple(range(side, seats, count)) for side in range(count))


def _ints(line: Line, key: str) -> tuple[int, ...]:
    return tuple(line.get_ints(key))


def _sheet_rows(lines: Sequence[Line]) -> tuple[SheetRow, ...]:
    """The finished deals of a ``sheet`` reply (its lines after the head)."""
    return tuple(
        SheetRow(
            r.require_int("deal"),
            r.require("outcome"),
            _ints(r, "written"),
            _ints(r, "totals"),
            r.get_int("hanging") or 0,
            _ints(r, "bides"),
            _ints(r, "hanging_after"),  # hanging-separate's later sums, when any
        )
        for r in lines[1:]
    )


def sheet_text(
    lines: Sequence[Line],
    players: Sequence[str],
    on_points: bool = False,
    over: bool = False,
    lang: Lang = Lang.EN,
) -> list[str]:
    """The sheet as the server's human style writes it; ``on_points``: a short game
    without a bide, each deal by its winner (docs/rules.md §11); ``over``: a finished
    match's (with no row: it ended before anyone made a call); ``lang``: the human
    style's language it is written in."""
    head, sheet_rows = lines[0], _sheet_rows(lines)
    if sheet_rows:  # the sides the rows write; the names we know if they fit them
        count = len(sheet_rows[0].written)
        seats = len(players) if players and count in (len(players), 2) else count
    else:  # no deal finished yet: the sides of the players at the table (four: pairs)
        seats = len(players) or 2
        count = 2 if seats == 4 else seats
    return sheet_lines(
        ev.Sheet(
            head.require_int("table"),
            _seat_names(players, seats, lang),
            _sides(seats, count),
            head.get_int("target"),
            sheet_rows,
            on_points,
            over,
        ),
        lang,
    )


def sheet_rows(
    lines: Sequence[Line],
) -> tuple[tuple[int, str, tuple[int, ...], tuple[int, ...]], ...]:
    """Each finished deal of a ``sheet`` reply: (deal, outcome, written, totals)."""
    return tuple((r.deal, r.outcome, r.written, r.totals) for r in _sheet_rows(lines))


def history_text(
    lines: Sequence[Line],
    players: Sequence[str],
    on_points: bool = False,
    over: bool = False,
    lang: Lang = Lang.EN,
    words: Mapping[str, str] = NO_WORDS,
) -> list[str]:
    """The history as the server's human style writes it; ``on_points``, ``over`` and
    ``lang`` as in ``sheet_text``; ``words``: the table's words for its combinations
    (Tertz's 'mariage'), as its deal ends say them."""
    head = lines[0]
    deals: list[ev.HistoryDeal] = []
    tricks: list[ev.HistoryTrick] = []
    seats = len(players)
    for line in lines[1:]:
        if line.tag == Tag.HISTORY_DEAL:
            if deals:
                deals[-1] = attrs.evolve(deals[-1], tricks=tuple(tricks))
            tricks = []
            trump = line.get_str("trump")
            deals.append(
                ev.HistoryDeal(
                    line.require_int("deal"),
                    line.require_int("dealer"),
                    SUITS.index(trump) if trump and trump in SUITS else None,
                    line.get_int("player"),
                    line.get_str("outcome"),
                    _ints(line, "written") if line.get_str("written") else None,
                    (),
                    "broken" in line.fields,  # a game with a talon (Tertz)
                    line.get_int("broken"),
                    _scored(line),
                    _unfinished(line),
                    _draw(swapped) if (swapped := line.get_str("unfinished_swap")) else None,
                    _hung(line),
                    line.get_int("hanging") or 0,  # what it left hanging (§5.17)
                    _ints(line, "hanging_after"),
                    line.get_int("stake"),  # the stake a dave raised it to
                    line.get_int("broken_auto") == 1,  # Tertz: the clock made the break
                )
            )
        else:
            laid = tuple(parse_card(c) for c in line.get_list("cards"))
            seats = max(seats, len(laid))
            drawn = line.get_list("draws") if "draws" in line.fields else None
            draws = None if drawn is None else tuple(_draw(item) for item in drawn)
            swapped = line.get_str("swap")  # Tertz: who swapped the trump 7 here, for what
            tricks.append(
                ev.HistoryTrick(
                    line.require_int("leader"),
                    laid,
                    line.require_int("winner"),
                    draws,
                    _draw(swapped) if swapped else None,
                    _ints(line, "auto"),  # the seats whose card the clock played
                )
            )
    if deals:
        deals[-1] = attrs.evolve(deals[-1], tricks=tuple(tricks))
    written = next((d.written for d in deals if d.written), None)
    seats = seats or (len(written) if written else 2)
    names = _seat_names(players, seats, lang)
    count = len(written) if written else (2 if seats == 4 else seats)
    # a bide's combinations written by other sides: their seats, now the count is known
    deals = [
        attrs.evolve(d, scored=tuple(_sides_of(s, seats, count) for s in d.scored)) for d in deals
    ]
    told = history_lines(
        ev.History(
            head.require_int("table"),
            head.get_str("match") or "-",
            names,
            _sides(seats, count),
            tuple(deals),
            on_points,
            over,
            words,
        ),
        lang,
    )
    # the tricks' cards in the letters of the rest of the screen (Д♠, not Q♠), as the
    # server's own Russian lines write them (render_ru)
    return [ru_card_text(x) for x in told] if lang == Lang.RU else told


def _unfinished(line: Line) -> ev.UnfinishedTrick | None:
    """A deal's trick not taken (it ended with these cards on the table), if any."""
    leader = line.get_int("unfinished_leader")
    if leader is None:
        return None
    laid = tuple(parse_card(c) for c in line.get_list("unfinished"))
    return ev.UnfinishedTrick(leader, laid, _ints(line, "unfinished_auto"))


def _scored(line: Line) -> tuple[ev.Scored, ...]:
    """A history deal's declarations that counted, ``scored=SEAT:POINTS:COMBO,…``; in a
    bide the side that ordered's are marked (``scored_to=`` the sides that wrote them, as
    side numbers until ``_sides_of`` makes them seats, or ``scored_hangs=1``)."""
    counted = []
    for item in line.get_list("scored"):
        seat, points, combo = item.split(":", 2)
        counted.append(ev.Scored(int(seat), combo.replace("_", " "), int(points)))
    to = tuple((side,) for side in _ints(line, "scored_to"))
    hangs = bool(line.get_bool("scored_hangs"))
    player = line.get_int("player")
    if not (to or hangs) or player is None:
        return tuple(counted)
    written = len(line.get_list("written")) or 1
    return tuple(
        attrs.evolve(s, to=to, hangs=hangs) if s.seat % written == player % written else s
        for s in counted
    )


def _sides_of(s: ev.Scored, seats: int, count: int) -> ev.Scored:
    """A bide's ``to`` read as side numbers, given as each side's seats."""
    if not s.to:
        return s
    return attrs.evolve(s, to=tuple(tuple(range(side[0], seats, count)) for side in s.to))


def _hung(line: Line) -> tuple[int, tuple[int, ...]] | None:
    """The points that hung into a deal and the sides that wrote them (``hung=P:S…``)."""
    told = _ints(line, "hung")
    return (told[0], told[1:]) if told else None


def _draw(item: str) -> tuple[int, int]:
    """A draw (or the swap) of a history trick, ``SEAT:CARD``."""
    seat, _, card = item.partition(":")
    return int(seat), parse_card(card)


def games_text(lines: Sequence[Line], lang: Lang = Lang.EN) -> list[str]:
    games = tuple(
        ev.Game(
            g.require("match"),
            g.require_int("table"),
            tuple(g.get_list("players")),
            g.get_str("variant") or "-",
            g.get_str("winner"),
            g.get_str("reason") or "-",
            _ints(g, "totals"),
            (g.get_str("finished") or "-").replace("_", " "),
        )
        for g in lines[1:]
    )
    return games_lines(ev.Games(lines[0].get_str("name") or "-", games), lang)


def _rated(r: Line) -> ev.Rated:
    def number(key: str) -> float:
        return float(r.get_str(key) or 0)

    return ev.Rated(
        r.get_int("rank") or 0,
        r.get_str("name") or "-",
        r.get_str("variant") or "-",
        r.get_int("players") or 0,
        number("rating"),
        number("mu"),
        number("sigma"),
        r.get_int("games") or 0,
        r.get_int("wins") or 0,
        r.get_int("losses") or 0,
        r.get_int("draws") or 0,
    )


def top_text(lines: Sequence[Line], lang: Lang = Lang.EN) -> list[str]:
    head = lines[0]
    return top_lines(
        ev.Top(
            head.get_str("variant") or "-",
            head.get_int("players") or 0,
            tuple(_rated(r) for r in lines[1:]),
            head.get_int("total") or 0,
            head.get_int("page") or 1,
            head.get_int("pages") or 1,
        ),
        lang,
    )


def finger_text(lines: Sequence[Line], lang: Lang = Lang.EN) -> list[str]:
    head = lines[0]
    return finger_lines(
        ev.Finger(
            head.get_str("name") or "-",
            bool(head.get_bool("registered")),
            bool(head.get_bool("online")),
            tuple(_rated(r) for r in lines[1:]),
            tuple(head.get_list("last")),
            bool(head.get_bool("house_bot")),
            bool(head.get_bool("never_rated")),
            address=head.get_str("address"),
        ),
        lang,
    )
