"""The table state as text for the screen's panes: pure functions of a ``TableState``.

Cards read as players read them (``10♥``), the hand in rank order 7 8 9 10 J Q K A grouped
by suit, so runs (terts, fifty) show at a glance. Every line fits the panes of an 80×24
terminal.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from itertools import groupby

from rich.cells import cell_len, chop_cells

from deberc_net.game.calls import KONETS
from deberc_net.game.outcomes import Outcome
from deberc_net.protocol.lang import NO_WORDS, Lang, outcome_said, ru_call, spoken_call
from deberc_net.protocol.render import head_cells, short_name

from .cards import RANKS, SUITS, SYMBOL, card, in_hand_order, rank, suit
from .state import Said, TableState, versus
from .texts import T, say
from .words import TALON_GAME

NAME_WIDTH = 7  # a side's column in the score pane; four names on one table line
PAIR_WIDTH = 10  # four players: a pair's column ('kost+hous')
BREAK = "lomayu"  # Tertz: breaking the deck, lomayu-N (docs/rules.md §12.2)
DEAL_ROWS = 5  # deals listed in the score pane (the totals cover the rest)
CUT = "… "  # before the Talk line's calls when the deal's earlier ones did not fit
# the table pane's width inside its padding at 80 columns (app.py: 80 - 27 - 2); its
# height is 9 lines, so a line that wrapped pushed the last one (the result) off
TABLE_COLUMNS = 51


def right_in(text: str, cells: int) -> str:
    """``text`` right-aligned in ``cells`` columns, counted as the terminal draws them
    (a format's ``>`` counts characters: a wide name pushed the columns apart)."""
    return " " * (cells - cell_len(text)) + text


Namer = Callable[[int | None], str]  # a seat's name as a line of the table pane writes it


def name_rooms(state: TableState) -> tuple[int, ...]:
    """The rooms a name too long for the table pane is shortened to, tried in turn:
    with two or three players the score column's, so a name has one short form on the
    screen (it read 'house-heuri~-1' in one pane and 'hou~-1' in the other); with four
    the table's pair line's (its four names share 28 columns), narrower if need be."""
    if state.seats < 4:
        return (_score_width(state) - 1,)
    return tuple(range(NAME_WIDTH, 4, -1))


def _namer(state: TableState, room: int | None) -> Namer:
    def name(seat: int | None) -> str:
        whole = state.who(seat)
        return whole if room is None or seat is None else short_name(whole, room)

    return name


def fitted(
    state: TableState, lines: Callable[[Namer], list[str]], columns: int = TABLE_COLUMNS
) -> list[str]:
    """The table pane's ``lines`` within its ``columns``: each written with whole names
    if it fits, else with the names' one short form on this screen (the widest of
    ``name_rooms`` every such line fits: not a form a line, as it was), a line still too
    wide broken between its fields (``folded``: a narrow terminal's). A line the pane
    wrapped itself pushed its last one (your turn, the result) out of view."""
    return [part for line in _fitted(state, lines, columns)[0] for part in folded(line, columns)]


def _fitted(
    state: TableState, lines: Callable[[Namer], list[str]], columns: int = TABLE_COLUMNS
) -> tuple[list[str], Namer]:
    """``fitted``'s lines not yet folded (one a line of ``lines``), and the names' short
    form on this screen (its namer)."""
    whole = lines(_namer(state, None))
    text, short = whole, _namer(state, None)
    for room in name_rooms(state):
        short = _namer(state, room)
        shorts = lines(short)
        text = [w if cell_len(w) <= columns else s for w, s in zip(whole, shorts, strict=True)]
        if all(cell_len(line) <= columns for line in text):
            return text, short
    return text, short


FIELDS = "   "  # what parts a table line's fields ('Turned: A♦   Fresa: 10♣   Trump: ♦')
CONTINUED = "  "  # before the rest of a line folded


def folded(line: str, columns: int) -> list[str]:
    """``line`` in lines of at most ``columns``: broken between its fields where it can,
    else between words (a word wider than the pane alone is cut), the rest indented.
    Never cut mid-word, as chopping at the edge did (a narrow terminal's 'Trump: ♦ (b2
    pl')."""
    if cell_len(line) <= columns:
        return [line]
    out: list[str] = []
    rest_room = max(columns - cell_len(CONTINUED), 1)
    for field in line.split(FIELDS):
        if out and cell_len(out[-1] + FIELDS + field) <= columns:
            out[-1] += FIELDS + field
            continue
        first, *more = _pieces(field, columns if not out else rest_room)
        if more:  # the rest of the field in the room the indent leaves
            more = _pieces(field[len(first) :].lstrip(" "), rest_room)
        out += [first if not out else CONTINUED + first, *(CONTINUED + piece for piece in more)]
    return out


def rank_order(hand: tuple[str, ...] | list[str]) -> list[list[str]]:
    """The hand grouped by suit (♠ ♥ ♦ ♣), each group in rank order 7 … A."""
    return [list(group) for _, group in groupby(in_hand_order(hand), key=lambda c: c[-1:])]


def hand_text(state: TableState) -> str:
    groups = rank_order(state.hand)
    head = state.say(T.HAND)
    if not groups:
        return head + "-"
    parts = []
    for group in groups:
        mark = "*" if group[0][-1] == state.trump else ""
        ranks = " ".join(rank(c[:-1], state.lang) for c in group)
        parts.append(SYMBOL[group[0][-1]] + mark + " " + ranks)
    return head + "   ".join(parts)


def _laid(cards: tuple[tuple[int, str], ...], name: Namer, lang: Lang = Lang.EN) -> str:
    laid = (f"{name(seat)} {card(c, lang)}" if seat >= 0 else card(c, lang) for seat, c in cards)
    return "  ".join(laid) or "-"


def _last_text(state: TableState, name: Namer) -> str:
    """The Last line: the trick taken, with who laid each card; one whose cards came
    before we could see who laid them (joined mid-trick) says so, not a seat -1."""
    laid = _laid(state.last_trick, name, state.lang)
    unseen = any(seat < 0 for seat, _ in state.last_trick)
    return state.say(T.LAST_UNSEEN if unseen else T.LAST, laid=laid)


def _shown(state: TableState, name: Namer) -> str:
    """Each seat's cards face up, in seat order, each in the hand's order."""
    seats = sorted({seat for seat, _ in state.shown})
    parts = []
    for seat in seats:
        face_up = in_hand_order([c for s, c in state.shown if s == seat])
        parts.append(f"{name(seat)} {state.cards(face_up)}")
    return state.say(T.SHOWN, shown="  ".join(parts))


def clock_text(remaining_ms: int | None, lang: Lang = Lang.EN) -> str:
    if remaining_ms is None:
        return ""
    return say(T.SECONDS, lang, seconds=max(0, remaining_ms) // 1000)


def turn_text(state: TableState, remaining_ms: int | None, name: Namer) -> str:
    if state.asking:
        clock = clock_text(remaining_ms, state.lang)
        said = T.TURN_YOU if state.last_timeout is None else T.TURN_YOU_LAST
        return state.say(said, name=name(state.seat), clock=clock)
    free = state.players.count("")
    if state.deal == 0 and state.result is None and free:  # no match yet: who is awaited
        return state.say(
            T.TURN_WAITING_BOT if state.seat is not None else T.TURN_WAITING, count=free
        )
    return state.say(T.TURN, name="-" if state.to_act is None else name(state.to_act))


def seats_text(state: TableState, name: Namer) -> str:
    """The players by seat, ``*`` marking you; four players as their pairs (seats 0+2
    against 1+3, partners sit opposite: docs/rules.md)."""
    waiting = state.deal == 0 and state.result is None  # no match yet: a free seat is free
    free = state.say(T.FREE)
    names = [
        f"{free if waiting and not state.players[i] else name(i)}{'*' if i == state.seat else ''}"
        for i in range(state.seats)
    ]
    return versus(names, state.lang) or state.say(T.WAITING)


def table_text(
    state: TableState, remaining_ms: int | None = None, columns: int = TABLE_COLUMNS
) -> str:
    """The table pane, ``columns`` wide: who sits, the turned card and fresa, the trick,
    whose turn. Narrower than at 80 columns, a line that does not fit is folded onto
    the next (``folded``), and the pane is as many lines taller (app.py)."""
    if state.table is None:
        where = state.say(T.LOBBY if state.name else T.NOT_LOGGED_IN)
        if state.seeking is not None:  # the wait said, and how to end it (not 'seek' again)
            seek = [where, *wrapped(state.seeking, columns), state.say(T.LOBBY_UNSEEK)]
            return "\n".join(part for line in seek for part in folded(line, columns))
        return "\n".join(
            [where, state.say(T.LOBBY_SEEK), state.say(T.LOBBY_MORE), state.say(T.LOBBY_NEW)]
        )

    def lines(name: Namer) -> list[str]:
        theirs = []
        if state.their_tricks:  # Tertz: the opponent's taken tricks, while they are open
            theirs = [state.say(T.THEIRS, cards=state.cards(state.their_tricks))]
        # the cards face up (pokazyvayu), in view all deal; not beside a match's result,
        # whose lines take the room
        shown = [] if state.result is not None or not state.shown else [_shown(state, name)]
        turn = [] if state.result is not None else [turn_text(state, remaining_ms, name)]
        seats = seats_text(state, name)
        target = state.target or "-"
        return [
            state.say(T.TABLE_DEAL, table=state.table, deal=state.deal or "-", seats=seats),
            state.say(T.DEALER_TARGET, name=name(state.dealer), target=target),
            _turned_text(state, name),
            _talk_text(state, name, columns)[0],  # (its names as below)
            state.say(T.TRICK, laid=_laid(state.trick, name, state.lang)),
            _last_text(state, name),
            *theirs,
            *shown,
            *turn,
        ]

    shown, _ = _fitted(state, lines, columns)
    # the talk in whole names drops the earlier calls a shorter form has room for (a
    # house bot's 'terts' gone, 'bella' left, as a rost? was asked: a tryout, s34); the
    # screen's short form cut names the line had room for ('hou~-3', s39). So: two
    # calls if any form shows them (a question and its answer), in a readable form if
    # one does, then as many calls as that allows, in the widest room (whole names
    # first; every name cut to the same room); one call alone may be too wide for any
    # form, and the line that fits, chopped, stays: a wider one would wrap
    rooms = _talk_rooms(state)
    fits = []
    for i, room in enumerate(rooms):
        line, told = _talk_text(state, _namer(state, room), columns)
        if cell_len(line) <= columns:
            readable = room is None or room >= READABLE
            fits.append((min(told, 2), readable, told, -i, line))
    if fits:
        shown[TALK_LINE] = max(fits)[-1]
    shown = [part for line in shown for part in folded(line, columns)]
    if state.result is not None:  # on lines of its own: the totals at the end show
        shown += wrapped(state.result, columns)
    return "\n".join(shown)


def _turned_text(state: TableState, name: Namer) -> str:
    """The turned card, the fresa (a talon game: the cards left to draw) and trump."""
    trump = "-"
    if state.trump is not None:
        trump = suit(state.trump)
        if state.player is not None:  # a game that was ordered (no one orders in Tertz)
            trump += state.say(T.PLAYS, name=name(state.player))
    if state.talon is None and state.variant != TALON_GAME:
        turned, fresa = state.card(state.turned), state.card(state.fresa)
        return state.say(T.TURNED, turned=turned, fresa=fresa, trump=trump)
    # a game with a talon: how many cards are left to draw, the turned one included
    # (the turned card is its last: once drawn it lies in a hand, docs/rules.md §12.2);
    # before its first deal, its words with nothing yet ('Talon: -', not Deberts's fresa)
    face_up = state.card(state.turned) if state.talon else "-"
    talon = "-" if state.talon is None else state.talon
    return state.say(T.TURNED_TALON, turned=face_up, talon=talon, trump=trump)


# the outcomes a deal of its game ends in when nothing went otherwise: no mark
USUAL_OUTCOMES = frozenset({Outcome.MADE, Outcome.SPLIT})

TALK_LINE = 3  # the table pane's line of the deal's talk
# the narrowest a name is cut to on the Talk line to show more of the deal's calls
# ('house-h~-3'): narrower only for a second call (table_text)
READABLE = 10


def _talk_rooms(state: TableState) -> list[int | None]:
    """The Talk line's name forms, widest first: whole names (None), then one room for
    every name (a fair cut: none shorter than another's room), down to the screen's
    short form."""
    talkers = {seat for seat, _ in state.talk[-4:]}
    longest = max((cell_len(state.who(seat)) for seat in talkers), default=0)
    return [None, *range(longest - 1, min(name_rooms(state)) - 1, -1)]


def _talk_text(state: TableState, name: Namer, columns: int = TABLE_COLUMNS) -> tuple[str, int]:
    """This deal's latest calls that fit on one line (long names: fewer), as spoken,
    and how many; a leading ``…`` says earlier calls of the deal were left out
    (``state`` has them)."""
    said = [f"{name(s)} {state.spoken(t)}" for s, t in state.talk[-4:]]  # (Tertz's 'mariage')

    def line() -> str:
        cut = CUT if len(said) < len(state.talk) else ""
        return state.say(T.TALK) + cut + (", ".join(said) or "-")

    while len(said) > 1 and cell_len(line()) > columns:
        del said[0]
    return line(), len(said)


def numbered_runs(legal: tuple[str, ...]) -> list[str]:
    """The legal calls, a run of numbered ones (``lomayu-1`` … ``lomayu-12``) as one
    option, ``lomayu-1..12``, so the question fits the pane."""
    out: list[str] = []
    runs: dict[str, list[int]] = {}
    for token in legal:
        head, _, number = token.rpartition("-")
        if head and number.isdigit():
            if head not in runs:
                runs[head] = []
                out.append(head)
            runs[head].append(int(number))
        else:
            out.append(token)
    for head, numbers in runs.items():
        if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
            text = f"{head}-{numbers[0]}..{numbers[-1]}"
        else:
            text = " | ".join(f"{head}-{n}" for n in numbers)
        out[out.index(head)] = text
    return out


def default_break(legal: tuple[str, ...]) -> str | None:
    """The break the key F8 makes when the deck is to be broken: the middle of the range."""
    breaks = [t for t in legal if t.startswith(BREAK + "-")]
    return breaks[(len(breaks) - 1) // 2] if breaks else None


def spoken_calls(
    legal: tuple[str, ...], words: Mapping[str, str] = NO_WORDS, lang: Lang = Lang.EN
) -> list[str]:
    """The legal calls as a person says (and may type) them, as the human style writes
    them (``igrayu ♠``, ``ot korolya``, ``J♠``: docs/protocol.md §3; in Russian
    ``играю ♠``, ``от короля``, ``В♠``): the calls first, as the server lists them,
    then the cards in the hand's order, then ``konets``."""
    held = [t for t in legal if t[-1:] in SUITS and t[:-1] in RANKS]
    # konets after the cards too: offered whether it would win or not (state.konets_last)
    calls = [t for t in legal if t not in held and t != KONETS]
    last = [t for t in legal if t == KONETS]
    ordered = [c for group in rank_order(held) for c in group]
    if lang == Lang.RU:
        spoken = [_ru_run(t, words) for t in numbered_runs(tuple(calls))]
        after = [ru_call(t, words) for t in last]
    else:
        spoken = [spoken_call(t, words) for t in numbered_runs(tuple(calls))]
        after = [spoken_call(t, words) for t in last]
    return spoken + [card(c, lang) for c in ordered] + after


RUN = re.compile(r"(.+-)(\d+)(\.\..+)")  # a run of numbered calls, 'lomayu-1..12'


def _ru_run(option: str, words: Mapping[str, str]) -> str:
    """An option of the prompt in Russian: a run by its first call's words, «ломаю 1..12»."""
    run = RUN.fullmatch(option)
    if run is None:
        return ru_call(option, words)
    return ru_call(run[1] + run[2], words) + run[3]


def legal_text(state: TableState) -> str:
    if not state.asking:
        return ""
    words = state.words
    said = " | ".join(spoken_calls(state.legal, words, state.lang))
    text = state.say(T.YOUR_CALL) + said
    chosen = default_break(state.legal)
    if chosen is not None:
        said = ru_call(chosen, words) if state.lang == Lang.RU else chosen.replace("-", " ")
        text += f"  (F8: {said})"
    return text


def _sides(state: TableState) -> int:
    return len(state.score) or (2 if state.seats == 4 else state.seats)


def _side_names(state: TableState) -> list[str]:
    if state.seats == 4:  # a pair's head in its wider column: 'kost+hous' (PAIR_WIDTH)
        return [
            f"{head_cells(_score_name(state, i), 4)}+{head_cells(_score_name(state, i + 2), 4)}"
            for i in range(2)
        ]
    return [_score_name(state, i) for i in range(_sides(state))]


def _score_name(state: TableState, seat: int) -> str:
    """A seat's name for a column head: a seat not taken yet is 'free' (as 'seat 1'
    shortened it read 'se~ 1'), a name not known yet 'seatN'."""
    if 0 <= seat < len(state.players) and state.players[seat]:
        return state.players[seat]
    free = state.deal == 0 and state.result is None
    return state.say(T.SCORE_FREE) if free else state.say(T.SCORE_SEAT, seat=seat)


SCORE_COLUMNS = 25  # the score pane inside its border and left padding (app.py: 27 - 2)


def _score_width(state: TableState) -> int:
    """A side's column: three sides share what two had ("Deal " takes 5); two pairs
    take the whole pane, their heads naming two players each."""
    widest = PAIR_WIDTH if state.seats == 4 else NAME_WIDTH
    return min(widest, (SCORE_COLUMNS - 5) // max(_sides(state), 1))


def score_text(state: TableState) -> str:
    """The running score: written points per deal (from ``deal-end``) and the totals."""
    names = _side_names(state)
    if not names:
        return state.say(T.SCORE) + "\n-"
    width = _score_width(state)
    head = state.say(T.SCORE_DEAL)
    head += "".join(right_in(short_name(n, width - 1), width) for n in names)
    rows = [state.say(T.SCORE), head]
    for row in state.deals[-DEAL_ROWS:]:
        # an outcome other than made, by its letter; not a short game's won deal, whose
        # 'bide' only says the one who ordered lost it (the columns say who won), nor
        # Tertz's split, its every deal's (a Tertz match read '1s 2s 3s'); by its word's
        # letter as the sheet says it (a void deal's 'r', redealt; «б»: байд)
        usual = row.outcome in USUAL_OUTCOMES or row.winner is not None
        mark = " " if usual else outcome_said(row.outcome, state.lang)[:1]
        rows.append(f"{row.deal:>3}{mark} " + "".join(f"{w:>{width}}" for w in row.written))
    totals = state.score or (0,) * len(names)
    rows.append(state.say(T.SCORE_TOTAL) + "".join(f"{t:>{width}}" for t in totals))
    if state.tricks and state.phase == "play":
        rows.append(state.say(T.SCORE_TRICKS) + "".join(f"{t:>{width}}" for t in state.tricks))
    return "\n".join(rows)


ERROR_KEPT = 5  # an error among the log's last entries stays in view (log_text)


def wrapped(entry: str, width: int) -> list[str]:
    """A log entry (one line or many: 'help', 'rules', the sheet) as the pane's lines,
    each within ``width`` columns of the terminal; indents and empty lines kept."""
    out: list[str] = []
    for line in entry.split("\n"):
        # a score ('totals 1 : -1 : 2') is not cut across lines (a tryout, s29): its
        # spaces are no-break ones while the line is cut
        line = SCORE_SPACES.sub(NO_BREAK_COLON, line)
        pieces = _pieces(line, width)
        if isinstance(entry, Said) and len(pieces) > 1:  # a player's words wrap marked
            # (the first piece is the line's start: the rest wrapped in what is left)
            rest = line[len(pieces[0]) :].lstrip(" ")
            room = width - cell_len(Said.continued)
            pieces = [pieces[0], *(Said.continued + piece for piece in _pieces(rest, room))]
        out += [piece.replace(NO_BREAK_COLON, " : ") for piece in pieces]
    return out


def _pieces(line: str, width: int) -> list[str]:
    """``line`` cut between words into pieces of at most ``width`` columns, each piece
    the line's next characters (only the spaces it is cut at left out)."""
    pieces = textwrap.wrap(line, width, break_on_hyphens=False) or [""]
    if not all(map(_column_a_character, pieces)):  # a wide character (汉字, an
        pieces = _wrapped_in_cells(line, width)  # emoji) takes two columns, a mark none
    return pieces


SCORE_SPACES = re.compile(r"(?<=\d) : (?=-?\d)")  # between a score's numbers
NO_BREAK_COLON = "\u00a0:\u00a0"


def _column_a_character(piece: str) -> bool:
    """Whether ``piece`` takes a column a character, as textwrap counts, and does not
    start with a mark cut from its letter. Not a whole line's count: one whose wide
    characters and combining marks were as many (a Chinese name saying something in
    decomposed Vietnamese) came to one a character, and its first piece overflowed."""
    return cell_len(piece) == len(piece) and cell_len(piece[:1]) == len(piece[:1])


def _wrapped_in_cells(line: str, width: int) -> list[str]:
    """``line`` broken between words, each piece within ``width`` columns of the
    terminal (textwrap counts characters: it cut 'house-he|uristic-2' after a Chinese
    name, and a piece too wide the pane would wrap again, pushing the newest line out)."""
    out: list[str] = []
    piece = ""
    # each word with the spaces before it (plain spaces: a no-break one holds a score)
    for word in re.findall(r" *[^ ]+", line):
        if cell_len(piece + word) <= width:
            piece += word
            continue
        if cell_len(word.lstrip(" ")) > width:  # wider than a line: cut, this line filled
            *whole, piece = chop_cells(piece + word, width)
            out += whole
            continue
        if piece:
            out.append(piece)
        piece = word.lstrip(" ")
    return [*out, piece]


def log_lines(log: tuple[str, ...], width: int) -> int:
    """How many lines of the pane the log takes, wrapped to ``width``."""
    return sum(len(wrapped(entry, max(width, 10))) for entry in log)


def log_text(
    log: tuple[str, ...], width: int, height: int, back: int = 0, lang: Lang = Lang.EN
) -> str:
    """The newest lines of the log that fit the pane: the end always in view, however
    long the entries before it. An error (``!``) among the last few entries that a long
    one pushed up stays, on the first line: a wrong call is never hidden.

    ``back``: scrolled back that many lines (PgUp, a reply taller than the pane: docs/
    play.md); the last line then says how many lines lie below."""
    width, height = max(width, 10), max(height, 1)
    lines: list[str] = []
    for entry in reversed(log):
        lines[:0] = wrapped(entry, width)
        if len(lines) >= height + back:
            break
    back = min(back, max(len(lines) - (height - 1), 0))  # the marker takes a line
    if back > 0 and height > 1:
        end = len(lines) - back
        below = say(T.MORE_BELOW, lang, count=back)
        return "\n".join([*lines[max(end - (height - 1), 0) : end], below])
    shown = lines[-height:]
    recent = log[-ERROR_KEPT:]
    errors = [entry for entry in recent if entry.startswith("! ")]
    if errors and height > 1:
        error = wrapped(errors[-1], width)[0]
        if error not in shown:
            shown = [error, *shown[-(height - 1) :]]
    return "\n".join(shown)


def status_text(state: TableState, address: str) -> str:
    who = state.name or state.say(T.NOT_LOGGED)
    token = state.say(T.TOKEN, token=state.token) if state.token else ""
    return f"deberc-net {address}  {who}{token}"
