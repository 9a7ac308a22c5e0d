"""Server events to text lines, in the human or the machine style (sans-IO).

Machine lines are built by protocol.wire's formatter (the one the readers' parser
matches); fields are only ever appended.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from rich.cells import cell_len

from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.cards import RANKS, SUIT_SYMBOLS, SUITS, Card, card_str
from deberc_net.game.deal import SWAP_Q
from deberc_net.game.outcomes import FORFEITS, MatchEndReason, Outcome
from deberc_net.game.record_json import record_text
from deberc_net.game.sheet import SheetRow
from deberc_net.game.view import SeatView, offered

from . import events as ev
from .commands import NewGames
from .ends import CLAIMED_WORDS, end_words, short_words, told_reason
from .event_lines import EVENT_LINES
from .lang import (
    NO_WORDS,
    RU_MATCH_REASONS,
    Lang,
    TableWords,
    decimal_mark,
    outcome_said,
    ru_call,
    spoken_call,
    spoken_calls_in,
)
from .messages import Msg, game_for, phrase, why
from .wire import format_line as line
from .wire import format_value as _value


class Style(StrEnum):
    HUMAN = "human"  # readable text, for telnet and netcat
    MACHINE = "machine"  # tagged key=value lines, for programs


HUMAN = Style.HUMAN
MACHINE = Style.MACHINE
WIDTH = 80  # every human line fits an 80-column terminal
BANNER_RU = "Деберц для людей и ботов. По-русски: наберите lang ru, потом help."


class HandOrder(StrEnum):
    """How a person's hand is shown ('sort'): grouped by suit either way."""

    RANK = "rank"  # 7 8 9 10 J Q K A: runs (tertsy, fifties) are seen at a glance
    STRENGTH = "strength"  # weakest to strongest in play, as the engine orders it


# a deal's record as its line's JSON text (``json.dumps(record, ensure_ascii=False,
# separators=(",", ":"))``, to the byte; by orjson for a record the fold checked)
_deal_json = record_text


def pretty_card(card: Card) -> str:
    return RANKS[card & 7] + SUIT_SYMBOLS[SUITS[card >> 3]]


def pretty_cards(cards: Iterable[Card]) -> str:
    return " ".join(pretty_card(c) for c in cards)


def _ordered(cards: Iterable[Card], order: HandOrder) -> list[Card]:
    """The cards grouped by suit (the suits in the order given: the engine's, trump
    first in play), each suit by rank or as given (by strength)."""
    groups: dict[int, list[Card]] = {}
    for c in cards:
        groups.setdefault(c >> 3, []).append(c)
    if order == HandOrder.RANK:
        groups = {s: sorted(suit) for s, suit in groups.items()}
    return [c for suit in groups.values() for c in suit]


def prompt_calls(
    legal: Sequence[str], hand: Iterable[Card], order: HandOrder, say: Callable[[str], str]
) -> list[str]:
    """A seat's calls as a person's prompt offers them (and 'help' lists them): the
    talk first, a numbered run as one ("lomayu 1..12"), then the playable cards, in
    the order the hand is shown, as one option; each as ``say`` words it."""
    shown = [card_str(c) for c in _ordered(hand, order)]
    playable = [t for t in legal if t in shown]
    runs = _numbered_runs([t for t in legal if t not in playable])
    talk = [_said_run(token, last, say) for token, last in runs]
    cards = [say(t) for t in sorted(playable, key=shown.index)]
    return talk + ([", ".join(cards)] if cards else [])


def pretty_hand(cards: Iterable[Card], order: HandOrder = HandOrder.STRENGTH) -> str:
    """'♠ 7 9 J  ♥ 10 A': the hand by suit, in ``order``."""
    groups: dict[int, list[str]] = {}
    for c in _ordered(cards, order):
        groups.setdefault(c >> 3, []).append(RANKS[c & 7])
    return "  ".join(SUIT_SYMBOLS[SUITS[s]] + " " + " ".join(r) for s, r in groups.items())


_CARD_TEXT = re.compile(r"\b(10|[789JQKA])([shdc])\b")
_SEAT_TEXT = re.compile(r"\bseat (\d+)")
_HOLD_SUIT = re.compile(r"\byou hold ([shdc]):")


def for_people(text: str, names: Sequence[str], words: Mapping[str, str] = NO_WORDS) -> str:
    """An engine message (said to programs as it is) in the human notation: calls as
    spoken ('ot korolya', not 'ot-K'; in the table's ``words``: Tertz's 'ot chego?',
    'mariage'), ♠♥♦♣ for the suit letters of cards, names for seat numbers. (The names
    last: a name may hold a hyphen, or 'Ks', and is shown as it is.)"""
    spoken = spoken_calls_in(text, words)
    text = _HOLD_SUIT.sub(lambda m: f"you hold {SUIT_SYMBOLS[m.group(1)]}:", spoken)
    text = _CARD_TEXT.sub(lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], text)
    return _SEAT_TEXT.sub(
        lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), text
    )


def sentence(text: str) -> str:
    """``text`` ended as a sentence, for one more to follow it (a refusal's hint)."""
    return text if text.endswith((".", "?", "!")) else text + "."


def columns(text: str) -> int:
    """The columns a line takes on a terminal: a wide character (a name written in CJK,
    an emoji) two, a combining mark none, any other one (♠♥♦♣ too). Measured as the
    terminal client draws it (rich.cells, clients/play), so both lay a name out alike."""
    if text.isascii():
        return len(text)
    return cell_len(text)


# the zero-width joiner of an emoji sequence: one picture, two columns
JOINER = "\u200d"


def clusters(text: str) -> list[str]:
    """``text`` as what the terminal draws as one: a character with the marks that
    join it (combining accents, a variation selector, an emoji's joiner and the emoji
    it joins), so a cut never leaves an accent without its letter."""
    out: list[str] = []
    for char in text:
        if out and (cell_len(char) == 0 or out[-1].endswith(JOINER)):
            out[-1] += char
        else:
            out.append(char)
    return out


def head_cells(text: str, cells: int) -> str:
    """The start of ``text`` that fits ``cells`` columns (a wide character is not cut)."""
    head = ""
    for cluster in clusters(text):
        if cell_len(head + cluster) > cells:
            break
        head += cluster
    return head


def short_name(name: str, room: int) -> str:
    """``name`` in ``room`` columns of the terminal: a long one keeps its head and its
    last two columns after a '~' ('house-heu~11'), so 'house-random-11' and
    'house-random-12' stay apart; the same cut in the people style's columns and the
    terminal client's panes (clients/play/draw.py). Counted in screen cells, as
    Textual draws them: a CJK character or an emoji takes two, a combining accent none."""
    if columns(name) <= room:
        return name
    parts = clusters(name)
    tail = parts[-1]
    if len(parts) > 1 and cell_len(parts[-2] + tail) <= 2:
        tail = parts[-2] + tail
    return head_cells(name, max(room - 1 - cell_len(tail), 1)) + "~" + tail


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` filled with spaces to ``width`` columns of a terminal (``str.ljust``
    counts characters: a CJK name would push what follows it out of line)."""
    room = " " * max(width - columns(text), 0)
    return room + text if right else text + room


# a login to copy and type ('login anna token=…', «login anna token=…»): kept on one
# line when a line is wrapped (a tryout copied half of it from two lines, s28); and a
# line's last number with the word before it ('boris 0': a history heading's last side
# left its points alone on the next line, s31); and who of a pair is away in 'tables'
# ('(away: vera)'). The word tried only where one begins: tried at each character, a
# chat line of one 1000-character word took 1.5 ms, not 0.05
_UNBROKEN = re.compile(
    r"['«]login [^'»\n]{1,60}['»]|\((?:away|нет связи): [^)\n]{1,60}\)|(?<!\S)\S+ -?\d+[.)]?$"
)
# a space of the server's own kept within its words when a line is wrapped (_unbroken,
# _whole): a control character, which nobody's text has (the line reader refuses them),
# so a '␣' someone typed is never taken for one
_KEPT = "\x1f"
# stands for _KEPT while a line is measured and wrapped: one column wide, as the space
# (a control character counts none), and no space to str.split or textwrap (a control
# character is one)
_JOINED = "\u2423"
# follows a pair's '+' and a space where a side too wide for a line may break (_whole):
# a control character too, so an invisible plus someone typed (_BREAK_SHOWN) is text
_PAIR_BREAK = "\x1a"
# stands for _PAIR_BREAK while a line is measured and wrapped: no column (the line is
# measured as it will be shown), and no space to str.split or textwrap
_BREAK_SHOWN = "\u2064"
# what a mark is while a line is wrapped, and what it is back
_MARKS = {_KEPT: _JOINED, _PAIR_BREAK: _BREAK_SHOWN}
_MARKED_BACK = {shown: mark for mark, shown in _MARKS.items()}


def _fit(lines: Iterable[str], indent: str = "  ") -> list[str]:
    """Human lines cut to the terminal's width; a continuation starts with ``indent``."""
    out: list[str] = []
    for text in lines:
        shown = _unmarked(text)  # (a side's 'name 120' marked whole: _by_side)
        # a character takes at most two columns: a short line fits uncounted (most)
        if 2 * len(shown) <= WIDTH or (len(shown) <= WIDTH and columns(shown) <= WIDTH):
            out.append(shown)
            continue
        kept = _UNBROKEN.sub(lambda m: _unbroken(m[0], WIDTH - len(indent)), text)
        marked = kept.replace(_KEPT, _JOINED).replace(_PAIR_BREAK, _BREAK_SHOWN)
        if columns(marked) == len(marked):
            wrapped = textwrap.wrap(marked, WIDTH, subsequent_indent=indent, break_on_hyphens=False)
        else:
            wrapped = _wrap_wide(marked, indent)
        out += [_unmarked(x) for x in _kept_back(kept, wrapped)] or [""]
    return out


def _kept_back(kept: str, wrapped: list[str]) -> list[str]:
    """``wrapped`` (``kept`` cut into lines, its marks as _MARKS shows them) with its
    marks back, and a '␣' or an invisible plus someone typed as typed: wrapping drops
    neither, so the n-th in the lines is the n-th of ``kept``'s marks and those."""
    if _JOINED not in kept and _BREAK_SHOWN not in kept:  # (nobody typed one: most lines)
        return [line.replace(_JOINED, _KEPT).replace(_BREAK_SHOWN, _PAIR_BREAK) for line in wrapped]
    ours = iter([char in _MARKS for char in kept if char in _MARKS or char in _MARKED_BACK])
    return [
        "".join(_MARKED_BACK[c] if c in _MARKED_BACK and next(ours) else c for c in line)
        for line in wrapped
    ]


def _unbroken(words: str, room: int) -> str:
    """``words`` kept on one line when a line is wrapped, if one holds them: wider
    (two partners of 20 CJK characters away, '(away: 王…, 李…)': 90 columns) they
    break at their spaces, not inside a name as a word too wide is cut."""
    return words.replace(" ", _KEPT) if columns(words) <= room else words


def _wrap_wide(text: str, indent: str) -> list[str]:
    """Word by word into lines of WIDTH columns, for a text with wide characters
    (textwrap counts characters, not columns); a word too wide alone is cut. The first
    line keeps the spaces ``text`` starts with, as textwrap's does (a history's trick
    and the note under it lost theirs with CJK names)."""
    out: list[str] = []
    line = ""
    lead = text[: len(text) - len(text.lstrip(" "))]
    for word in text.split():
        while columns(word) > WIDTH - len(indent):  # a word wider than any line: cut it
            cut = 1
            while columns(word[: cut + 1]) <= WIDTH - len(indent):
                cut += 1
            if line:
                out.append(line)
            out.append((indent if out else lead) + word[:cut])
            line, word = "", word[cut:]
        candidate = f"{line} {word}" if line else (indent if out else lead) + word
        if line and columns(candidate) > WIDTH:
            out.append(line)
            candidate = indent + word
        line = candidate
    if line:
        out.append(line)
    return out or [""]


def _suit(s: int | None) -> str | None:
    return None if s is None else SUITS[s]


def _cards(cards: Iterable[Card]) -> list[str]:
    return [card_str(c) for c in cards]


def render(event: ev.ServerEvent, style: str, order: HandOrder = HandOrder.RANK) -> list[str]:
    """The lines that tell ``event`` in ``style``; ``order`` sorts a person's hand."""
    if style == MACHINE:
        if type(event) is ev.TableEvent:  # most lines told: the kind's template, at once
            told = event.event
            template = EVENT_LINES.get(type(told))
            if template is not None:
                return [template(event.seq, event.table, told)]
        return _render(event, True, order)
    return _fit(_render(event, False, order))


def _render(event: ev.ServerEvent, machine: bool, order: HandOrder) -> list[str]:
    if type(event) is ev.TableEvent:  # most lines told: not through every case below
        return _table_event(event, machine)
    match event:
        case ev.Hello():
            text = "Deberts for people and bots. Type 'help'."
            if machine:
                return [
                    line(
                        "hello",
                        [
                            ("server", "deberc-net"),
                            ("version", event.version),
                            ("protocol", event.protocol),
                        ],
                        text,
                    )
                ]
            # said before any language is chosen: the way to Russian is told in Russian
            return [f"deberc-net {event.version} (protocol {event.protocol}) — {text}", BANNER_RU]
        case ev.Ok():
            return [
                line("ok", [("cmd", event.cmd), *event.fields], event.text)
                if machine
                else event.text
            ]
        case ev.Error():
            if machine:
                hinted = [] if event.hint is None else [("hint", event.hint)]
                waited = [] if event.wait_ms is None else [("wait_ms", event.wait_ms)]
                meant = [] if event.command is None else [("command_hint", event.command)]
                named = [("code", event.code), *hinted, *waited, *meant, *event.fields]
                return [line("error", named, event.text)]
            told = f"Error ({event.code}): {event.human or event.text}"
            if event.hint is not None:
                told = f"{sentence(told)} Did you mean {spoken_call(event.hint, event.words)}?"
            elif event.command is not None:
                told = f"{sentence(told)} Did you mean '{event.meant or event.command}'?"
            return [told]
        case ev.Info():
            return [line("info", event.fields, event.text) if machine else event.text]
        case ev.Bye():
            by = () if event.by is None else (("by", event.by),)
            return [line("bye", by, event.text) if machine else event.text]
        case ev.Announced():
            if machine:
                return [line("announce", [("from", event.sender)], event.text)]
            return announced_lines(event)
        case ev.Bans():
            return _bans(event) if machine else bans_lines(event)
        case ev.Mutes():
            return _mutes(event) if machine else mutes_lines(event)
        case ev.TextBlock():
            if machine:
                return [line(event.tag, (), t) for t in event.lines]
            return list(event.lines)
        case ev.Who():
            if machine:
                return [
                    line(
                        "who",
                        [
                            ("count", len(event.names)),
                            ("names", event.names),
                            ("total", event.total),
                            ("page", event.page),
                            ("pages", event.pages),
                        ],
                    )
                ]
            return who_lines(event)
        case ev.Tables():
            return _tables(event, machine)
        case ev.Said():
            among = [("watchers", True)] if event.watchers else []
            if machine:
                return [
                    line(
                        "say", [("from", event.sender), ("table", event.table), *among], event.text
                    )
                ]
            return said_lines(event)
        case ev.Games():
            return _games(event, machine)
        case ev.TableEvent():
            return _table_event(event, machine)
        case ev.Ask():
            return _ask(event, machine, order)
        case ev.LastTrick():
            return _last(event, machine)
        case ev.Sheet():
            return _sheet(event, machine)
        case ev.Invited():
            return _invited(event, machine)
        case ev.Rematch():
            return _rematch(event, machine)
        case ev.History():
            return _history(event, machine)
        case ev.Top():
            return _top(event, machine)
        case ev.Finger():
            return _finger(event, machine)
        case ev.DealRecord():
            if machine:
                body = _deal_json(event.record) if event.text is None else event.text
                return [
                    line(
                        "record", [("table", event.table), ("deal", event.record["deal_no"])], body
                    )
                ]
            return _human_record(event.record)
    raise TypeError(f"cannot render {event!r}")


def _tables(event: ev.Tables, machine: bool) -> list[str]:
    if machine:
        out = [
            line(
                "tables",
                [
                    ("count", len(event.tables)),
                    ("total", event.total),
                    ("page", event.page),
                    ("pages", event.pages),
                ],
            )
        ]
        for t in event.tables:
            out.append(
                line(
                    "table",
                    [
                        ("id", t.id),
                        ("players", t.players),
                        ("variant", t.variant),
                        ("options", t.options),
                        ("seats", ["-" if s is None else s for s in t.seats]),
                        ("state", t.state),
                        ("observers", t.observers),
                        *([("private", True)] if t.private else []),
                        *([("away", [t.seats[s] for s in t.away])] if t.away else []),
                        *([("reserved", True)] if t.reserved else []),  # (an admin's)
                    ],
                )
            )
        return out
    return tables_lines(event)


# The human lines of the lobby's lists and the score sheet, in either language: the
# words come from the catalogue (protocol.messages), the layout is the same.
def _say(lang: Lang, key: Msg, **values: Any) -> str:
    return phrase(key, **values).text(lang)


def who_lines(e: ev.Who, lang: Lang = Lang.EN) -> list[str]:
    names = ", ".join(e.names) or _say(lang, Msg.NOBODY)
    more = _more("who", e.page, e.pages, lang)
    return [_say(lang, Msg.WHO, total=e.total, names=names, more=more)]


_TABLE_STATES = {
    ev.TableState.WAITING: Msg.WAITING,
    ev.TableState.PLAYING: Msg.PLAYING,
    ev.TableState.CLOSED: Msg.CLOSED,
}


# an empty 'tables': how to open one, or why none opens now
_NO_TABLES = {
    NewGames.OPEN: Msg.NO_TABLES,
    NewGames.DRAINING: Msg.NO_TABLES_DRAINING,
    NewGames.CLOSED: Msg.NO_TABLES_NO_GAMES,
}


def tables_lines(e: ev.Tables, lang: Lang = Lang.EN) -> list[str]:
    if not e.tables:  # where no game starts, not told to open one
        return [_say(lang, _NO_TABLES[e.games])]
    out = []
    free, away = _say(lang, Msg.FREE_SEAT), _say(lang, Msg.AWAY_MARK)
    for t in e.tables:
        # a seat's player away is marked: a full table waiting for him is not stuck
        named = tuple(
            free if s is None else f"{s}{away}" if i in t.away else s for i, s in enumerate(t.seats)
        )
        state, seats = _say(lang, _TABLE_STATES[t.state]), ", ".join(map(_whole, named))
        if t.state == ev.TableState.PLAYING and t.deal is not None and all(t.seats):
            # a running match: its deal and each side's score, as the web index shows
            state = _say(lang, Msg.PLAYING_DEAL, deal=t.deal)
            if len(t.score) < len(t.seats) and t.away:
                # partners: 'anna+vera (away) 182' read as the pair away; who is, after
                players = tuple(s or "" for s in t.seats)
                gone = ", ".join(players[i] for i in sorted(t.away))
                seats = _by_side(players, t.score) + _say(lang, Msg.AWAY_NAMED, names=gone)
            else:
                seats = _by_side(named, t.score)
        said = _say(
            lang,
            Msg.TABLE_LINE,
            table=t.id,
            private=(_say(lang, Msg.PRIVATE_MARK) if t.private else "")
            + (_say(lang, Msg.RESERVED_MARK) if t.reserved else ""),
            variant=t.variant,
            for_players=game_for(t.players),  # as the web names a game (docs/web.md)
            options=f", {' '.join(t.options)}" if t.options else "",
            state=state,
            seats=seats,
        )
        # a long row wraps between seats, not inside one ('borya (нет связи) 0' whole)
        out += _fit([said])
    more = _more("tables", e.page, e.pages, lang)
    return [*out, more.strip()] if more else out


# a chat line's continuation starts with this, which no line of the server's does: a
# 'say' padded to wrap cannot set a line of its own text where the server's would be
# ('  Error (not-your-turn): … Your call [60 s]: pas | igrayu')
CHAT_CONTINUED = "  | "


def said_lines(e: ev.Said, lang: Lang = Lang.EN) -> list[str]:
    """A chat line as people read it: its runs of spaces (and other blanks, which pad a
    line out as well) one space, wrapped with CHAT_CONTINUED."""
    where = ""
    if e.table is not None:
        watchers = _say(lang, Msg.SAID_WATCHERS) if e.watchers else ""
        where = _say(lang, Msg.SAID_AT, table=e.table, watchers=watchers)
    text = " ".join(e.text.split())
    return _fit([_say(lang, Msg.SAID, where=where, sender=e.sender, text=text)], CHAT_CONTINUED)


def tagged_lines(lines: Sequence[str], table: int, lang: Lang = Lang.EN) -> list[str]:
    """A watched table's lines as told to a person who also sits at, or watches, another
    table: each (but a continuation) after ``[table N]``, as its chat says it, so that
    neither table's 'Waiting for …' or trick reads as the other's (a tryout, s44: a
    seated player watching a second table lost his turn to the clock). Re-fitted to the
    terminal's width. A line that opens with the table's own name ('Table 6, deal 1 …',
    'Table 6 waits for players') is left as it is: tagged, it named the table twice
    ('[стол 6] Стол 6, раздача 1', a tryout, s44)."""
    tag = _say(lang, Msg.SAID_AT, table=table, watchers="")
    named = tag.strip()[1:-1].capitalize()  # 'Table 6', 'Стол 6'
    return _fit([x if x[:1].isspace() or _names(x, named) else tag + x for x in lines])


def _names(line: str, table: str) -> bool:
    """Whether ``line`` opens with ``table`` ('Table 6'), not another's ('Table 61')."""
    return line.startswith(table) and not line[len(table) : len(table) + 1].isdigit()


def announced_lines(e: ev.Announced, lang: Lang = Lang.EN) -> list[str]:
    """An admin's announcement, marked as his (a player's line starts with his name, so
    none reads like it), its blanks one space and wrapped as a chat line is."""
    text = " ".join(e.text.split())
    return _fit([_say(lang, Msg.ANNOUNCED, sender=e.sender, text=text)], CHAT_CONTINUED)


def bans_lines(e: ev.Bans, lang: Lang = Lang.EN) -> list[str]:
    if not e.bans:
        out = [_say(lang, Msg.BANS_NONE)]
    else:
        out = [_say(lang, Msg.BANS_HEAD, count=len(e.bans))]
    for b in e.bans:
        said = _say(
            lang, Msg.BAN_LINE, name=b.name, admin=b.admin, since=b.since, why=why(b.reason)
        )
        out += _fit([said], "    ")
    if e.addresses:  # (none: no line, as before there were any)
        out.append(_say(lang, Msg.ADDRESS_BANS_HEAD, count=len(e.addresses)))
    for a in e.addresses:
        said = _say(
            lang,
            Msg.ADDRESS_BAN_LINE,
            address=a.address,
            admin=a.admin,
            minutes=a.minutes,
            until=a.until,
            why=why(a.reason),
        )
        out += _fit([said], "    ")
    return out


def _bans(e: ev.Bans) -> list[str]:
    out = [line("bans", [("count", len(e.bans)), ("addresses", len(e.addresses))])]
    for b in e.bans:
        told = [("name", b.name), ("by", b.admin), ("since", b.since)]
        out.append(line("ban", told, b.reason))
    for a in e.addresses:
        fields: list[tuple[str, str | int]] = [
            ("address", a.address),
            ("by", a.admin),
            ("since", a.since),
            ("until", a.until),
            ("left", a.minutes),
        ]
        out.append(line("address-ban", fields, a.reason))
    return out


def mutes_lines(e: ev.Mutes, lang: Lang = Lang.EN) -> list[str]:
    if not e.mutes:
        return [_say(lang, Msg.MUTES_NONE)]
    out = [_say(lang, Msg.MUTES_HEAD, count=len(e.mutes))]
    for m in e.mutes:
        said = _say(
            lang,
            Msg.MUTE_LINE,
            name=m.name,
            admin=m.admin,
            minutes=m.minutes,
            until=m.until,
            why=why(m.reason),
        )
        out += _fit([said], "    ")
    return out


def _mutes(e: ev.Mutes) -> list[str]:
    out = [line("mutes", [("count", len(e.mutes))])]
    for m in e.mutes:
        told = [("name", m.name), ("by", m.admin), ("until", m.until), ("left", m.minutes)]
        out.append(line("mute", told, m.reason))
    return out


def invited_lines(e: ev.Invited, lang: Lang = Lang.EN) -> list[str]:
    return [
        _say(
            lang,
            Msg.INVITED,
            sender=e.sender,
            private=_say(lang, Msg.PRIVATE_TABLE) if e.private else "",
            table=e.table,
            variant=e.variant,
            for_players=game_for(e.players),
            options=f", {' '.join(e.options)}" if e.options else "",
        )
    ]


def _invited(e: ev.Invited, machine: bool) -> list[str]:
    text = invited_lines(e)[0]
    if not machine:
        return [text]
    fields = [
        ("from", e.sender),
        ("table", e.table),
        ("players", e.players),
        ("variant", e.variant),
        ("options", e.options),
        ("private", e.private),
    ]
    return [line("invite", fields, text)]


_REMATCH_OFF = {
    ev.RematchOff.TIMEOUT: Msg.REMATCH_TIMEOUT,
    ev.RematchOff.LEFT: Msg.REMATCH_LEFT,
    ev.RematchOff.ELSEWHERE: Msg.REMATCH_ELSEWHERE,
    ev.RematchOff.DRAIN: Msg.REMATCH_DRAIN,
    ev.RematchOff.SERVER_STOPPED: Msg.SERVER_STOPPED,  # its server stopped
    ev.RematchOff.SERVER_LOST: Msg.SERVER_LOST,  # its server was lost
}


def rematch_lines(e: ev.Rematch, lang: Lang = Lang.EN) -> list[str]:
    if e.off is not None:
        why = _say(lang, _REMATCH_OFF[e.off], name=e.by or "-")
        return [_say(lang, Msg.REMATCH_OFF, table=e.table, why=why)]
    if e.waiting:
        return [
            _say(
                lang,
                Msg.REMATCH_STANDING if e.agreed else Msg.REMATCH_PENDING,
                table=e.table,
                asked=", ".join(e.asked),
                waiting=", ".join(e.waiting),
            )
        ]
    return [_say(lang, Msg.REMATCH_STARTS, table=e.table)]


def _rematch(e: ev.Rematch, machine: bool) -> list[str]:
    text = rematch_lines(e)[0]
    if not machine:
        return [text]
    fields = [
        ("table", e.table),
        ("asked", e.asked),
        ("waiting", e.waiting),
        ("off", e.off),
        ("by", e.by),
    ]
    return [line("rematch", fields, text)]


def _rated_line(r: ev.Rated) -> str:
    return line(
        "rated",
        [
            ("rank", r.rank),
            ("name", r.name),
            ("variant", r.variant),
            ("players", r.players),
            ("rating", f"{r.rating:.3f}"),
            ("mu", f"{r.mu:.3f}"),
            ("sigma", f"{r.sigma:.3f}"),
            ("games", r.games),
            ("wins", r.wins),
            ("losses", r.losses),
            ("draws", r.draws),
        ],
    )


def _record_text(r: ev.Rated, lang: Lang) -> str:
    games = _say(lang, Msg.ONE_GAME) if r.games == 1 else _say(lang, Msg.GAMES, games=r.games)
    return _say(lang, Msg.RECORD, games=games, wins=r.wins, losses=r.losses, draws=r.draws)


def _top(e: ev.Top, machine: bool) -> list[str]:
    if machine:
        fields = [("variant", e.variant), ("players", e.players), ("count", len(e.ratings))]
        fields += [("total", e.total), ("page", e.page), ("pages", e.pages)]
        return [line("top", fields), *(_rated_line(r) for r in e.ratings)]
    return top_lines(e)


def _decimal(value: float, lang: Lang, spec: str = ".1f") -> str:
    """A number with a fraction as the reader writes it (``decimal_mark``)."""
    return decimal_mark(format(value, spec), lang)


def top_lines(e: ev.Top, lang: Lang = Lang.EN) -> list[str]:
    key = Msg.TOP_TITLE if e.ratings else Msg.TOP_NOBODY
    game = _game_of(e.players, lang)
    out = [_say(lang, key, variant=e.variant, game=game, total=e.total)]
    for r in e.ratings:
        record = _record_text(r, lang)
        rating = _decimal(r.rating, lang, "7.1f")
        # the names padded by terminal columns (a CJK name pushed its rating out of
        # line); one wider than the column (up to 40: the line would pass 80) is shown
        # whole, for 'finger NAME', on a line of its own, its rating under the column
        head = f"{r.rank:>4}. "  # (TOP_LINE's start in both languages)
        wide = columns(r.name) > TOP_NAME
        if wide:
            out.append(head + r.name)
        name = pad("" if wide else r.name, TOP_NAME)
        said = _say(lang, Msg.TOP_LINE, rank=r.rank, name=name, rating=rating, record=record)
        out.append(" " * len(head) + said[len(head) :] if wide else said)
    more = _more("top", e.page, e.pages, lang) if e.ratings else ""
    return [*out, more.strip()] if more else out


# the standings' name column: a name's most characters (docs/protocol.md §4.2), in
# terminal columns (a name of wide characters may take twice as many)
TOP_NAME = 20


def _game_of(players: int, lang: Lang) -> str:
    return game_for(players).text(lang)


def _finger(e: ev.Finger, machine: bool) -> list[str]:
    if machine:
        fields = [("name", e.name), ("registered", e.registered), ("online", e.online)]
        fields += [("ratings", len(e.ratings)), ("last", e.last)]
        if e.house_bot:
            fields.append(("house_bot", True))
        if e.never_rated:
            fields.append(("never_rated", True))
        if e.address is not None:  # (an admin's)
            fields.append(("address", e.address))
        out = [line("finger", fields), *(_rated_line(r) for r in e.ratings)]
        if e.ban is not None:  # (an admin's: the lines 'bans' and 'mutes' list)
            out += _bans(ev.Bans((e.ban,)))[1:]
        if e.mute is not None:
            out += _mutes(ev.Mutes((e.mute,)))[1:]
        return out
    return finger_lines(e)


def finger_lines(e: ev.Finger, lang: Lang = Lang.EN) -> list[str]:
    who = _say(lang, Msg.REGISTERED if e.registered else Msg.A_GUEST)
    where = _say(lang, Msg.ONLINE if e.online else Msg.NOT_HERE)
    listed, none = (
        (Msg.HOUSE_LAST_GAMES, Msg.HOUSE_NO_RATED_GAME)
        if e.house_bot
        else (Msg.LAST_GAMES, Msg.NO_FINISHED_GAME)
    )
    last = _say(lang, listed, games=" ".join(e.last)) if e.last else _say(lang, none)
    if e.never_rated:  # its copies' matches are no rated ones to list
        return [_say(lang, Msg.HOUSE_FINGER_NEVER_RATED, name=e.name)]
    if e.house_bot:
        out = [_say(lang, Msg.HOUSE_FINGER_TITLE, name=e.name, last=last)]
    else:
        out = [_say(lang, Msg.FINGER_TITLE, name=e.name, who=who, where=where, last=last)]
    if e.ban is not None:  # (told an admin only)
        b = e.ban
        said = _say(lang, Msg.FINGER_BANNED, admin=b.admin, since=b.since, why=why(b.reason))
        out += _fit([said], "    ")
    if e.mute is not None:
        m = e.mute
        said = _say(
            lang,
            Msg.FINGER_MUTED,
            admin=m.admin,
            minutes=m.minutes,
            until=m.until,
            why=why(m.reason),
        )
        out += _fit([said], "    ")
    if e.address is not None:  # (told an admin only)
        out.append(_say(lang, Msg.FINGER_ADDRESS, address=e.address))
    if not e.ratings:
        out.append(_say(lang, Msg.NOT_RATED))
    for r in e.ratings:
        out.append(
            _say(
                lang,
                Msg.FINGER_RATED,
                variant=r.variant,
                game=_game_of(r.players, lang),
                rank=r.rank,
                rating=_decimal(r.rating, lang),
                mu=_decimal(r.mu, lang),
                sigma=_decimal(r.sigma, lang),
            )
        )
        out.append(f"    {_record_text(r, lang)}")
    return out


def _outcome_word(outcome: str, lang: Lang) -> str:
    """A deal's outcome code as a person reads it: in Russian words under 'lang ru', a
    void deal 'redealt' in English (lang.outcome_said)."""
    return outcome_said(outcome, lang)


# the outcomes that tell how the one who ordered fared (docs/rules.md §11)
_BY_THE_ORDER = frozenset({Outcome.MADE, Outcome.BIDE})
# and the deals with a winner all the same: a dave declined (the one who said it won)
_WON = _BY_THE_ORDER | {Outcome.GAVE_UP}


def deal_winner(outcome: str, written: Sequence[int] | None) -> int | None:
    """The side that won a deal of a short game without a bide (docs/rules.md §11): the
    one that wrote the most (the stakes it took; the others wrote what they paid, or
    nothing to 9 stakes), a dave declined too. None for a deal nobody won (void, …)."""
    if outcome not in _WON or not written:
        return None
    return list(written).index(max(written))


def deal_word(
    outcome: str, written: Sequence[int] | None, names: Sequence[str], on_points: bool, lang: Lang
) -> str:
    """How a deal ended, as a person reads it: its outcome, or, where the most points
    win the deal whoever ordered (Settings.deal_won_on_points), its winner ('won by
    anna'): there 'bide' would only say that another than the one who ordered won."""
    winner = _winner(outcome, written, names, on_points, lang)
    if winner is None:
        return _outcome_word(outcome, lang)
    return _say(lang, Msg.DEAL_WON_BY, side=winner)


def _winner(
    outcome: str, written: Sequence[int] | None, names: Sequence[str], on_points: bool, lang: Lang
) -> str | None:
    """The names of the side ``deal_winner`` names, if the deal's winner is told; how
    the deal ended after them if not by its points ('anna (gave-up)')."""
    side = deal_winner(outcome, written) if on_points else None
    if side is None or written is None:
        return None
    winner = side_names(names, len(written))[side]
    return winner if outcome in _BY_THE_ORDER else f"{winner} ({_outcome_word(outcome, lang)})"


def _more(command: str, page: int, pages: int, lang: Lang) -> str:
    """A long list comes in pages: say where this one is and how to get the next."""
    if pages <= 1:
        return ""
    after = _say(lang, Msg.PAGE_NEXT, command=command, page=page + 1) if page < pages else ""
    return _say(lang, Msg.PAGE, page=page, pages=pages, after=after)


def _games(event: ev.Games, machine: bool) -> list[str]:
    if machine:
        out = [line("games", [("name", event.name), ("count", len(event.games))])]
        for g in event.games:
            out.append(
                line(
                    "game",
                    [
                        ("match", g.match),
                        ("table", g.table),
                        ("players", g.players),
                        ("variant", g.variant),
                        ("winner", g.winner),
                        ("reason", g.reason),
                        ("totals", g.totals),
                        ("finished", g.finished),
                        *([("forfeit", g.forfeit)] if g.forfeit is not None else []),
                    ],
                )
            )
        return out
    return games_lines(event)


def _utc(finished: str) -> str:
    """A match's end as a person reads it: to the minute, saying its zone (a club
    three hours east of UTC read the stored times as its own)."""
    return f"{finished[:16]} UTC" if len(finished) > 10 else finished


# the built-in variant (plugins.manager.BUILTIN_VARIANT), which 'new' needs no word for
_DEFAULT_GAME = "moscow"


def games_lines(e: ev.Games, lang: Lang = Lang.EN) -> list[str]:
    if not e.games:
        return [_say(lang, Msg.NO_GAMES, name=e.name)]
    versus = _say(lang, Msg.VERSUS)
    return [
        _say(
            lang,
            Msg.GAME_LINE,
            finished=_utc(g.finished),
            match=g.match,  # the key of its replay and its history (docs/web.md)
            table=g.table,
            variant=_game_named(g),
            # by side, a total each: four players as their pairs ('anna+olga v boris+vera')
            players=versus.join(side_names(g.players, len(g.totals) or len(g.players))),
            # a colon, as scores are written: a hyphen before a negative total read "1--1"
            totals=":".join(str(t) for t in g.totals),
            winner="+".join(g.winner.split(",")) if g.winner else "-",
            reason=_game_reason(g, lang),
        )
        for g in e.games
    ]


def _game_named(g: ev.Game) -> str:
    """The game when it is not the default one without options, as 'tables' writes it
    ('table 7: tertz', 'table 8: kharkov short'): a Tertz match's 280:540 read as a lost
    Deberts one, and a short game's totals as a long one's (a tryout, s43)."""
    if g.variant in ("", _DEFAULT_GAME) and not g.options:
        return ""
    return f": {' '.join((g.variant or _DEFAULT_GAME, *g.options))}"


def _game_reason(g: ev.Game, lang: Lang) -> str:
    """Why a game ended, and who forfeited it if someone did ('away: bob'); a seat's
    true konets named so (`konets`), not as the server's claim."""
    told = told_reason(g.reason, g.claimed)
    reason = RU_MATCH_REASONS.get(told, told) if lang == Lang.RU else short_words(told)
    if g.forfeit is None or not 0 <= g.forfeit < len(g.players):
        return reason
    return f"{reason}: {g.players[g.forfeit]}"


def side_names(names: Sequence[str], count: int) -> list[str]:
    """The names of each of ``count`` sides by seat: 'anna', or a pair 'anna+olga'
    (four players: partners sit opposite, seats 0+2 and 1+3)."""
    return _joined_sides(names, [range(side, len(names), count) for side in range(count)])


def _by_side(names: tuple[str, ...], values: Any) -> str:
    """'anna 120, misha 80'; with pairs, 'anna+boris 120, misha+vera 80': each side's
    'name score' kept on one line when the line is wrapped (``_whole``; a Tertz deal's
    totals of two 20-letter names left a name at a line's end, its number on the next),
    so only a line that ``_fit`` cuts (its marks taken out there) may tell it."""
    sides = side_names(names, len(values))
    return ", ".join(_whole(f"{side} {value}") for side, value in zip(sides, values, strict=True))


def _whole(entry: str) -> str:
    """One seat's (or side's) words of a 'tables' row, kept on one line when the row is
    wrapped ('borya (нет связи) 0'); a pair too wide for any line (two names of 20 CJK
    characters: 85 columns) breaks after its '+', not inside a name as it was cut."""
    if columns(entry) > WIDTH - 2:
        return f"+{_PAIR_BREAK} ".join(part.replace(" ", _KEPT) for part in entry.split("+"))
    return entry.replace(" ", _KEPT)


def _unmarked(text: str) -> str:
    """A line as it is shown: its marks for wrapping taken out (a '␣' typed is text)."""
    return text.replace(_PAIR_BREAK + " ", "").replace(_PAIR_BREAK, "").replace(_KEPT, " ")


def _name(names: tuple[str, ...], seat: int | None) -> str:
    return "-" if seat is None else names[seat]


def event_line(e: ev.TableEvent) -> str:
    """The machine line of a table event, field by field: the definition that
    protocol/event_lines.py's templates (what ``render`` writes) are checked against."""
    kind, fields = _told(e.event)
    return line("event", [("seq", e.seq), ("table", e.table), ("kind", kind), *fields])


def _table_event(e: ev.TableEvent, machine: bool) -> list[str]:
    if machine:  # (a kind without a template of its own: none today)
        return [event_line(e)]
    told = e.event  # (the kind's own function by its exact class: no dispatch's calls)
    if e.deal_won_on_points and type(told) is g.DealEnded:
        how = deal_word(told.outcome, told.written, e.names, True, Lang.EN)
        scored = scored_lines(ev.scored_in(told.record), e.names, Lang.EN, e.words)
        hung = hung_lines(told, e.names, Lang.EN)
        return [deal_end_line(told, e.names, how), *scored, *hung]
    if type(told) is g.CallMade:  # in the table's words (Tertz's 'mariage')
        said = [call_line(told, e.names, e.face_up, e.words)]
        if e.round_two is not None:  # its pas opened round two
            said.append(round_two_line(e.round_two, Lang.EN))
        elif e.stake is not None:  # an accepted dave raised it
            said.append(_say(Lang.EN, Msg.STAKE_NOW, stake=e.stake))
        return said
    if type(told) is g.DealEnded and e.words:  # its scored combinations in the table's words
        return _human_deal_end(told, e.names, e.sides, e.words)
    if e.shown_now is not None and type(told) is g.Shown:  # added to a show before
        now = pretty_cards(e.shown_now)
        return [f"{e.names[told.seat]} shows: {pretty_cards(told.cards)} (face up now: {now})"]
    said = _HUMAN_BY_CLASS.get(type(told), _human)(told, e.names, e.sides)
    if said:  # (the machine fields only for a kind without words of its own)
        return said
    kind, fields = _told(e.event)
    return [f"{kind}: " + " ".join(f"{a}={_value(b)}" for a, b in fields)]


# ----------------------------------------------------------- table events, by class
# _told gives an event's kind and its machine-style fields (in their fixed order: new
# fields are only ever appended); _human its human-style lines, or [] for the plain
# "kind: key=value" form.
Fields = list[tuple[str, Any]]


@functools.singledispatch
def _told(event: object) -> tuple[str, Fields]:
    raise TypeError(f"cannot render the table event {event!r}")


@_told.register
def _told_call(e: g.CallMade) -> tuple[str, Fields]:
    return "call", [("seat", e.seat), ("call", e.call.token()), ("auto", e.auto)]


@_told.register
def _told_card(e: g.CardPlayed) -> tuple[str, Fields]:
    return "play", [("seat", e.seat), ("card", card_str(e.card)), ("auto", e.auto)]


@_told.register
def _told_penalty(e: g.Penalized) -> tuple[str, Fields]:
    return "penalty", [("seat", e.seat), ("call", e.call.token()), ("code", e.code)]


@_told.register
def _told_order(e: g.Ordered) -> tuple[str, Fields]:
    return "order", [
        ("player", e.player),
        ("trump", SUITS[e.trump]),
        ("first", e.first),
        ("fresa", _card(e.fresa)),
    ]


@_told.register
def _told_dealt(e: g.Dealt) -> tuple[str, Fields]:
    return "dealt", [("fresa", _card(e.fresa))]


@_told.register
def _told_trick(e: g.TrickTaken) -> tuple[str, Fields]:
    return "trick", [("winner", e.winner), ("cards", _cards(e.cards))]


@_told.register
def _told_shown(e: g.Shown) -> tuple[str, Fields]:
    return "shown", [("seat", e.seat), ("cards", _cards(e.cards))]


@_told.register
def _told_start(e: g.MatchStarted) -> tuple[str, Fields]:
    return "start", [("players", e.players), ("match", e.match)]


@_told.register
def _told_deal(e: g.DealStarted) -> tuple[str, Fields]:
    return "deal", [
        ("deal", e.deal),
        ("dealer", e.dealer),
        ("turned", card_str(e.turned)),
        ("score", e.score),
        ("hanging", e.hanging),
        *_hanging_after(e.pending),
    ]


@_told.register
def _told_deal_end(e: g.DealEnded) -> tuple[str, Fields]:
    return "deal-end", [
        ("deal", e.deal),
        ("outcome", e.outcome),
        ("points", e.points),
        ("written", e.written),
        ("totals", e.totals),
        ("hanging", e.hanging),
        *_hanging_after(e.pending),
    ]


def _hanging_after(pending: tuple[int, ...]) -> Fields:
    """hanging-separate's sums waiting for the deals after ``hanging``'s, appended only
    when there are any (docs/protocol.md §1, §9.6)."""
    return [("hanging_after", pending)] if pending else []


@_told.register
def _told_match_end(e: g.MatchEnded) -> tuple[str, Fields]:
    forfeit = [] if e.forfeit is None else [("forfeit", e.forfeit)]
    match = [] if e.match is None else [("match", e.match)]
    deals = [] if e.deals is None else [("deals", e.deals)]
    rematch = [] if e.rematch_s is None else [("rematch_s", e.rematch_s)]
    return "match-end", [
        ("winner", e.winner),
        ("name", ",".join(e.winners) or None),
        ("reason", e.reason),
        ("totals", e.totals),
        ("seed", e.seed),
        *forfeit,
        *match,
        *deals,
        *rematch,
    ]


def _seat_fields(e: ev.SeatEvent) -> Fields:
    return [("name", e.name), ("seat", e.seat)]


_told.register(ev.Seated, lambda e: ("seated", _seat_fields(e)))
_told.register(ev.Left, lambda e: ("left", _seat_fields(e)))
_told.register(ev.WentAway, lambda e: ("away", _seat_fields(e)))
_told.register(ev.CameBack, lambda e: ("back", _seat_fields(e)))
_told.register(
    ev.Watching,
    lambda e: (
        "observer",
        [("name", e.name), ("watching", e.watching), ("observers", e.observers)],
    ),
)


Sides = tuple[tuple[int, ...], ...]


@functools.singledispatch
def _human(event: object, names: tuple[str, ...], sides: Sides) -> list[str]:
    return []  # any kind without words of its own


@_human.register
def _human_call(e: g.CallMade, n: tuple[str, ...], sides: Sides) -> list[str]:
    return [call_line(e, n)]


def round_two_line(turned_suit: int, lang: Lang) -> str:
    """The bidding's second round opens: what may be said in it (docs/rules.md §1)."""
    return _say(lang, Msg.ROUND_TWO_OPENS, suit=SUIT_SYMBOLS[SUITS[turned_suit]])


def call_line(
    e: g.CallMade,
    n: Sequence[str],
    face_up: Card | None = None,
    words: Mapping[str, str] = NO_WORDS,
) -> str:
    """'boris: rost?'; a swap says what lies face up now, ``face_up`` when the table
    told it (a person's screen shows no state). ``words``: the table's own
    (lang.table_words: Tertz's 'mariage')."""
    said = f"{n[e.seat]}: {spoken_call(e.call.token(), words)}{_clock(e.auto)}"
    if e.call.name == C.MENYAYU:
        seven = "the trump 7" if face_up is None else pretty_card(face_up)
        said += f" — takes the turned card; {seven} now lies face up."
    return said


@_human.register
def _human_card(e: g.CardPlayed, n: tuple[str, ...], sides: Sides) -> list[str]:
    return [f"{n[e.seat]} plays {pretty_card(e.card)}{_clock(e.auto)}"]


@_human.register
def _human_penalty(e: g.Penalized, n: tuple[str, ...], sides: Sides) -> list[str]:
    return [
        f"{n[e.seat]} is penalized for {_pretty_call(e.call.token())} ({e.code.replace('-', ' ')})."
    ]


@_human.register
def _human_dealt(e: g.Dealt, n: tuple[str, ...], sides: Sides) -> list[str]:
    fresa = "" if e.fresa is None else f" Fresa: {pretty_card(e.fresa)}."
    return [f"The last cards are dealt.{fresa}"]


@_human.register
def _human_order(e: g.Ordered, n: tuple[str, ...], sides: Sides) -> list[str]:
    first = " (the turned suit)" if e.first else ""
    fresa = "" if e.fresa is None else f" Fresa: {pretty_card(e.fresa)}."
    partners, others = order_sides(e.player, n, sides)
    partner = f" with {' and '.join(partners)}" if partners else ""
    whistle = "whistles" if len(others) == 1 else "whistle"
    suit = SUIT_SYMBOLS[SUITS[e.trump]]
    return [
        f"{n[e.player]} plays in {suit}{first}{partner}; {' and '.join(others)} {whistle}.{fresa}"
    ]


def order_sides(player: int, names: Sequence[str], sides: Sides) -> tuple[list[str], list[str]]:
    """Who plays with the one who ordered (four players: his partner) and who whistles:
    the others, each for himself (two and three players), or the other pair (four,
    docs/rules.md §8)."""
    ours = next((side for side in sides if player in side), (player,))
    partners = [names[seat] for seat in ours if seat != player]
    return partners, [name for seat, name in enumerate(names) if seat not in ours]


@_human.register
def _human_trick(e: g.TrickTaken, n: tuple[str, ...], sides: Sides) -> list[str]:
    return [f"{n[e.winner]} takes the trick ({pretty_cards(e.cards)})."]


@_human.register
def _human_shown(e: g.Shown, n: tuple[str, ...], sides: Sides) -> list[str]:
    return [f"{n[e.seat]} shows: {pretty_cards(e.cards)}"]


@_human.register
def _human_start(e: g.MatchStarted, n: tuple[str, ...], sides: Sides) -> list[str]:
    if any(len(side) > 1 for side in sides):
        pairs = [and_list([n[s] for s in side], Lang.EN) for side in sides]
        return [f"The game starts: {' against '.join(pairs)} (partners sit opposite)."]
    if len(n) > 2:  # three, each on his own: not 'anna v boris v vera'
        return [f"The game starts: {and_list(n, Lang.EN)}, each for himself."]
    return [f"The game starts: {' v '.join(n)}."]


@_human.register
def _human_deal(e: g.DealStarted, n: tuple[str, ...], sides: Sides) -> list[str]:
    hang = hanging_now(e.hanging, e.pending)
    # a trump nobody orders (Tertz) said with the card that makes it: a tryout's
    # newcomer to Tertz, a Deberts player, read the turned card as a bid's (s45)
    trump = "" if e.trump is None else f": trump {SUIT_SYMBOLS[SUITS[e.trump]]}"
    return [
        f"Deal {e.deal}. {n[e.dealer]} deals and turns {pretty_card(e.turned)}{trump}. "
        f"Score: {_by_side(n, e.score)}.{hang}"
    ]


@_human.register
def _human_deal_end(
    e: g.DealEnded, n: tuple[str, ...], sides: Sides, words: Mapping[str, str] = NO_WORDS
) -> list[str]:
    bide = bide_side(e, n)
    if bide is None:
        how = e.outcome
    elif e.outcome == Outcome.HANGING:  # whose, and what the next deal plays for
        how = f"hanging bide for {bide}, {e.hanging} points hang"
        how += hangs_later(e.pending, Lang.EN)  # (hanging-separate: the first sum only)
    else:
        how = f"bide for {bide}"
    scored = scored_lines(ev.scored_in(e.record), n, Lang.EN, words)
    counted = split_count_line(e, n, Lang.EN)
    return [deal_end_line(e, n, how), *counted, *scored, *hung_lines(e, n, Lang.EN)]


# the note a split's scoring leaves (Tertz, deberc_deal_outcome): who counted, his
# cards' points and what they were written as
_SPLIT_NOTE = re.compile(r"side (\d+) counts (\d+), written as (\d+)")


def split_count_line(e: g.DealEnded, n: tuple[str, ...], lang: Lang) -> list[str]:
    """Who counted a split deal's points and why, and what the other writes (docs/rules.md
    §12.6): the deal's line alone read as each side's points rounded (a tryout's
    newcomer, s45, read 65 written as 70 as a five rounded up). None for another
    outcome, or a split whose scoring noted no count."""
    if e.outcome != Outcome.SPLIT or len(n) != 2:
        return []
    found = [m for note in e.record.get("notes") or () if (m := _SPLIT_NOTE.fullmatch(str(note)))]
    if not found:
        return []
    seat, cards, written = (int(x) for x in found[-1].groups())
    if seat not in (0, 1):
        return []
    taken = [0, 0]
    for trick in e.record.get("tricks") or ():
        if trick.get("winner") in (0, 1):
            taken[trick["winner"]] += 1
    key = Msg.SPLIT_COUNTS_FEWER if taken[seat] < taken[1 - seat] else Msg.SPLIT_COUNTS_EQUAL
    return [_say(lang, key, name=n[seat], cards=cards, written=written, other=n[1 - seat])]


def hanging_now(hanging: int, pending: Sequence[int], lang: Lang = Lang.EN) -> str:
    """' Hanging: 73.' after a deal's score; under hanging-separate the sums waiting for
    the deals after it too (' Hanging: 73 for this deal, 69 for the next.')."""
    if not (hanging or pending):
        return ""
    if not pending:
        return _say(lang, Msg.HANGING_NOW, hanging=hanging)
    later = _sums_then(pending[1:], lang)
    return _say(lang, Msg.HANGING_NOW_LATER, hanging=hanging, next=pending[0], later=later)


def hangs_later(pending: Sequence[int], lang: Lang) -> str:
    """After what hangs from a finished deal, under hanging-separate, which deal plays
    for which sum (' for the next deal, 69 for the one after'); '' if none waits."""
    if not pending:
        return ""
    later = _sums_then(pending[1:], lang)
    return _say(lang, Msg.HANGS_LATER, next=pending[0], later=later)


def _sums_then(sums: Sequence[int], lang: Lang) -> str:
    return "".join(_say(lang, Msg.HANGS_THEN, points=p) for p in sums)


def bide_side(e: g.DealEnded, n: Sequence[str]) -> str | None:
    """Whose bide (or hanging bide) a deal is (the side that ordered: 'anna',
    'anna+olga'), None for any other end: at three players the line's points did not
    say who (a tryout, s28; a club evening of three, its hanging bide)."""
    bides = (Outcome.BIDE, Outcome.HANGING)
    player = e.record.get("player") if e.outcome in bides else None
    if not isinstance(player, int) or not e.totals:
        return None
    return side_names(n, len(e.totals))[player % len(e.totals)]


# a combination as a record names it ('pyatdesyat to As'; Tertz's 'run of 5 to Ks',
# 'four J'), said by its kind, in docs/rules.md's words
_EN_COMBOS = {"pyatdesyat": "fifty"}
_RU_COMBOS = {"terts": "терц", "pyatdesyat": "пятьдесят", "bella": "белла"}
_RUN_OF = re.compile(r"run of (\d+)")
_FOUR_OF = re.compile(r"four (\w+)")
# Tertz's runs and fours (recorded as 'run of 5 to Ks', 'four J': docs/records.md), as
# its players call them (the calls' spoken words: docs/protocol.md, Tertz's calls);
# a length or rank without a name of its own is said as recorded
_RUNS = {
    3: ("terts", "терц"),
    4: ("fifty", "пятьдесят"),
    5: ("hundred five", "сто пять"),
    6: ("hundred six", "сто шесть"),
    7: ("hundred seven", "сто семь"),
    8: ("hundred eight", "сто восемь"),
}
_FOURS = {
    "J": ("two hundred", "двести"),
    "A": ("hundred aces", "сто тузов"),
    "K": ("hundred kings", "сто королей"),
    "Q": ("hundred queens", "сто дам"),
}


def combo_word(combo: str, lang: Lang, words: Mapping[str, str] = NO_WORDS) -> str:
    """'pyatdesyat to As' as 'fifty' («пятьдесят»), Tertz's 'run of 5 to Ks' as
    'hundred five' («сто пять»); a kind without words as recorded. ``words``: the
    table's words for calls (lang.table_words), bella's among them (Tertz's «марьяж»,
    'mariage')."""
    kind = combo.split(" to ", 1)[0]
    english = lang == Lang.EN
    if english:
        said = words.en.get(kind) if isinstance(words, TableWords) else None
    else:
        said = words.get(kind)
    if said is not None:
        return said
    named = None
    if run := _RUN_OF.fullmatch(kind):
        named = _RUNS.get(int(run.group(1)))
    elif four := _FOUR_OF.fullmatch(kind):
        named = _FOURS.get(four.group(1))
    if named is not None:
        return named[0] if english else named[1]
    if english:
        return _EN_COMBOS.get(kind, kind)
    if run:  # (another game's run with no name: its length, as a Russian player says it)
        return f"{run.group(1)} подряд"
    if four:
        return f"четыре {four.group(1)}"
    return _RU_COMBOS.get(kind, kind)


def scored_lines(
    scored: Sequence[ev.Scored],
    names: Sequence[str],
    lang: Lang,
    words: Mapping[str, str] = NO_WORDS,
) -> list[str]:
    """What each seat's declarations counted in a deal, one line ('Scored for
    combinations: anna fifty 50, bella 20; boris terts 20.'); none if nothing did.
    A bide side's say whose points they became (' (a bide: written by boris)'): a
    Kharkov table read the bidder's terts as his. ``words``: as ``combo_word``'s."""
    by_seat: dict[int, list[str]] = {}
    went: dict[int, str] = {}
    for s in scored:
        by_seat.setdefault(s.seat, []).append(f"{combo_word(s.combo, lang, words)} {s.points}")
        went[s.seat] = _went(s, names, lang)
    if not by_seat:
        return []
    combos = "; ".join(
        f"{names[seat]} {', '.join(said)}{went[seat]}" for seat, said in sorted(by_seat.items())
    )
    return [_say(lang, Msg.SCORED, combos=combos)]


def _went(s: ev.Scored, names: Sequence[str], lang: Lang) -> str:
    """Whose points a bide side's combination became, said after it ('' if its own)."""
    if s.hangs:
        return _say(lang, Msg.SCORED_HANGS)
    if not s.to:
        return ""
    said = ["+".join(names[seat] for seat in side) for side in s.to]
    if len(said) > 1:
        return _say(lang, Msg.SCORED_SHARED, sides=and_list(said, lang))
    return _say(lang, Msg.SCORED_TO_PAIR if len(s.to[0]) > 1 else Msg.SCORED_TO_SEAT, side=said[0])


def hung_lines(e: g.DealEnded, names: Sequence[str], lang: Lang) -> list[str]:
    """Who writes the points that hung into this deal, if it won them ('The 81 points
    that hung go to boris+gleb.'): its written points are its own and those, which its
    line alone did not add up to (an evening of four, docs/rules.md §5)."""
    return hung_said(ev.hung_in(e.record, len(e.totals)), names, len(e.totals), lang)


def hung_said(
    hung: tuple[int, tuple[int, ...]] | None, names: Sequence[str], sides: int, lang: Lang
) -> list[str]:
    """``hung`` (events.hung_in) said: the side that writes them, or the whistlers who
    share them."""
    if hung is None:
        return []
    points, takers = hung
    said = side_names(names, sides)
    if len(takers) == 1:
        return [_say(lang, Msg.HUNG_WON, hanging=points, side=said[takers[0]])]
    both = and_list([said[s] for s in takers], lang)
    return [_say(lang, Msg.HUNG_SHARED, hanging=points, sides=both)]


def and_list(items: Sequence[str], lang: Lang) -> str:
    """``items`` as ``lang`` lists them: 'anna', 'anna and boris', 'anna, boris and
    vera' (Russian 'anna, boris и vera'): the one place a list's 'and' is chosen."""
    if len(items) < 2:
        return "".join(items)
    return _say(lang, Msg.AND_LIST, items=", ".join(items[:-1]), last=items[-1])


def deal_end_line(e: g.DealEnded, n: tuple[str, ...], how: str) -> str:
    """'Deal 1: made. Points: …': ``how`` says how it ended (``deal_word``)."""
    if e.outcome == Outcome.VOID:
        return void_line(e, n, Lang.EN)
    pts = _by_side(n, e.points or [])
    tot = _by_side(n, e.totals)
    if e.written is not None and e.points is not None and list(e.written) == list(e.points):
        # Tertz writes its 150 as the counting seat's share rounded (docs/rules.md
        # §12.6): the same points mean a round count, not Deberts' bide played out
        written = " (nothing to round)" if e.outcome == Outcome.SPLIT else " (written as played)"
    else:
        written = f". Written: {_by_side(n, e.written or []) or '-'}"
    return f"Deal {e.deal}: {how}. Points: {pts or '-'}{written}. Totals: {tot}."


# why a deal was void, its record's void_reason (docs/records.md)
_VOID_REASONS = {"all passed": Msg.VOID_ALL_PASSED, "sevens": Msg.VOID_SEVENS}


def void_line(e: g.DealEnded, n: tuple[str, ...], lang: Lang) -> str:
    """A void deal's end: why, and that nobody writes (no points "written as played":
    it was not played, docs/rules.md §2)."""
    reason = _VOID_REASONS.get(e.record.get("void_reason") or "")
    why = "" if reason is None else _say(lang, reason)
    return _say(lang, Msg.DEAL_VOID, deal=e.deal, why=why, totals=_by_side(n, e.totals))


@_human.register
def _human_match_end(e: g.MatchEnded, n: tuple[str, ...], sides: Sides) -> list[str]:
    tot = _by_side(n, e.totals)
    if e.reason == MatchEndReason.INTERNAL:  # nobody wins, nor draws (docs/protocol.md §9.7)
        return [f"Game over: no result, the table failed ({e.reason}). Totals: {tot}."]
    named = "" if e.match is None else f" Match {e.match}."  # its replay's id ('games')
    if not e.winners:
        return [f"Game over: a draw ({e.reason}). Totals: {tot}.{named}"]
    verb = "win" if len(e.winners) > 1 else "wins"
    # a forfeit names who lost it: with three players the totals (0:0:0) do not say
    why = short_words(e.reason) if e.forfeit is None else end_words(e.reason, n[e.forfeit])
    if e.claimed:  # a seat's konets, not the server's claim (docs/rules.md §10)
        why = CLAIMED_WORDS
    return [f"Game over: {' and '.join(e.winners)} {verb} ({why}). Totals: {tot}.{named}"]


_human.register(ev.Seated, lambda e, n, sides: [f"{e.name} sits at seat {e.seat}."])


@_human.register
def _human_left(e: ev.Left, n: tuple[str, ...], sides: Sides) -> list[str]:
    if e.away_too_long:
        return [f"{e.name} was away too long: seat {e.seat} is free for another player."]
    return [f"{e.name} leaves seat {e.seat}."]


@_human.register
def _human_away(e: ev.WentAway, n: tuple[str, ...], sides: Sides) -> list[str]:
    clock = " and the clock runs" if e.clock_runs else ""  # (a waiting table has none)
    if e.held_s is None:
        return [f"{e.name} is disconnected; the seat waits{clock}."]
    held = held_for(e.held_s, Lang.EN)
    return [f"{e.name} is disconnected; the seat is held {held}{clock}."]


def held_for(seconds: int, lang: Lang) -> str:
    """How long a seat is held, as said: '2 min' (the away limit, whole minutes), '97 s'."""
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds // 60} {'мин' if lang == Lang.RU else 'min'}"
    return f"{seconds} {'с' if lang == Lang.RU else 's'}"


_human.register(ev.CameBack, lambda e, n, sides: [f"{e.name} is back."])


@_human.register
def _human_watching(e: ev.Watching, n: tuple[str, ...], sides: Sides) -> list[str]:
    now = f"{e.observers} watching" if e.observers else "nobody watching"
    verb = "watches the table" if e.watching else "stops watching"
    return [f"{e.name} {verb} ({now})."]


# each registered kind's function by its exact class (a look-up where the dispatch
# costs three calls; another class still goes through ``_human``)
_HUMAN_BY_CLASS: dict[type, Callable[[Any, tuple[str, ...], Sides], list[str]]] = {
    cls: fn for cls, fn in _human.registry.items() if cls is not object
}


def _clock(auto: bool) -> str:
    # the words of the terminal client and docs/play.md, and the Russian's «по часам»
    return " (by the clock)" if auto else ""


def _card(card: Card | None) -> str | None:
    return None if card is None else card_str(card)


def _view_fields(v: SeatView, clock_ms: int | None) -> list[tuple[str, Any]]:
    return [
        ("deal", v.deal_no),
        ("phase", v.phase),
        ("seat", v.seat),
        ("dealer", v.dealer),
        ("to_act", v.to_act),
        ("hand", _cards(v.hand)),
        ("turned", card_str(v.turned) if v.turned is not None else None),
        ("fresa", card_str(v.fresa) if v.fresa is not None else None),
        ("trump", _suit(v.trump)),
        ("player", v.player),
        ("round", v.bid_round),
        ("leader", v.leader),
        ("trick", [card_str(c) for _, c in v.trick]),
        ("tricks", v.tricks_taken),
        ("score", v.totals),
        ("hanging", v.hanging),
        ("target", v.target),
        ("pending", None if v.pending is None else f"{v.pending[0]}:{v.pending[1]}:{v.pending[2]}"),
        ("shown", [f"{s}:{card_str(c)}" for s, cs in sorted(v.shown.items()) for c in cs]),
        ("talk", [f"{s}:{t}" for s, t in v.talk]),
        ("clock", clock_ms),
        ("legal", list(v.legal)),
        ("players", len(v.names)),
        # a whole new game's own fields (Tertz: talon, their_tricks), appended
        *((name, _cards(x) if isinstance(x, tuple) else x) for name, x in v.game),
        *_hanging_after(v.hanging_after),
        *(() if v.stake is None else [("stake", v.stake)]),  # dave's, appended last
    ]


def face_up(v: SeatView) -> Card | None:
    """The turned card while it lies face up, for people: a game with a talon (Tertz)
    draws it last, and once drawn (``talon`` 0) it is in a hand, as the four-player
    Deberts dealer's is once ordered. The machine ``turned`` still names it (a field
    keeps its meaning, docs/protocol.md §1; ``talon=0`` says it was drawn)."""
    return None if dict(v.game).get("talon") == 0 else v.turned


def _ask(e: ev.Ask, machine: bool, order: HandOrder) -> list[str]:
    v = e.view
    if machine:
        return [line(e.kind, [("seq", e.seq), ("table", e.table), *_view_fields(v, e.clock_ms)])]
    n = v.names
    if e.turn_only:
        return _waiting(v, e.words)
    out = []
    if e.whole:  # the events told the rest as it happened: only asked for is it repeated
        out.append(
            f"Table {e.table}, deal {v.deal_no}. Dealer: {n[v.dealer]}. "
            f"Score: {_by_side(n, v.totals)}."
            + hanging_now(v.hanging, v.hanging_after)
            + ("" if v.stake is None else f" Stake: {v.stake}.")  # dave raises it
        )
        if v.trump is not None:
            out.append(
                f"Trump: {SUIT_SYMBOLS[SUITS[v.trump]]}"
                + ("." if v.player is None else f" ({_name(n, v.player)} plays).")  # Tertz: no bid
                + (f" Turned: {pretty_card(turned)}." if (turned := face_up(v)) is not None else "")
                + (f" Fresa: {pretty_card(v.fresa)}." if v.fresa is not None else "")
            )
        elif v.turned is not None:
            out.append(
                f"Turned card: {pretty_card(v.turned)} — first trump would be "
                f"{SUIT_SYMBOLS[SUITS[v.turned >> 3]]}. Bidding round {v.bid_round}."
            )
        out += said_so_far(v, Lang.EN, e.words)
        if v.trick:  # in play each card was told as it was laid
            out.append("Trick: " + ", ".join(f"{n[s]} {pretty_card(c)}" for s, c in v.trick))
    if v.hand:
        out.append(f"Your hand: {pretty_hand(v.hand, order)}")
    out.extend(_game_line(name, value) for name, value in v.game if value is not None)
    if v.pending is not None:
        out.append(
            _question(
                *v.pending,
                n,
                v.seat,
                rost_owner(v),
                names_higher(v),
                skin_too(v),
                v.stake,
                e.words,
            )
        )
    if e.kind == ev.AskKind.ASK and v.legal:
        if v.declares is not None:  # (Tertz) a call's name tells only its highest class
            call, classes = v.declares
            out.append(
                f"{spoken_call(call, e.words)} declares all your undeclared combinations: "
                f"{', '.join(spoken_call(c, e.words) for c in classes)}."
            )
        say = functools.partial(spoken_call, words=e.words)  # (Tertz's 'mariage')
        options = " | ".join(prompt_calls(offered(v), v.hand, order, say))
        clock = f" [{e.clock_ms // 1000} s]" if e.clock_ms is not None else ""
        out.append(f"Your call{clock}: {options}")
    else:
        out += _waiting(v, e.words)
    return out


def _waiting(v: SeatView, words: Mapping[str, str]) -> list[str]:
    """Whom the table waits for, to a seat not to act or a watcher."""
    if v.to_act is None or v.seat == v.to_act:
        return []
    out = [f"Waiting for {v.names[v.to_act]}."]
    if C.SEVENS in v.legal:  # no prompt offers it out of turn (a tryout, s46)
        out.append(_say(Lang.EN, Msg.SEVENS_NOW, call=spoken_call(C.SEVENS, words)))
    if own := rule_calls_out_of_turn(v):
        calls = " or ".join(spoken_call(token, words) for token in own)
        out.append(_say(Lang.EN, Msg.OWN_CALLS_NOW, calls=calls))
    return out


def rule_calls_out_of_turn(v: SeatView) -> list[str]:
    """The calls of a rule plugin's own (no engine's call) the seat may make now while
    another is to act (docs/plugins.md, ``deberc_extra_calls``), which no prompt
    offers: a tryout's defender (s50), whose kontra was legal while the leader thought,
    was shown only whom the table waited for."""
    own = []
    for token in v.legal:
        try:
            C.parse_token(token)
        except ValueError:
            own.append(token)
    return own


def said_so_far(v: SeatView, lang: Lang, words: Mapping[str, str] = NO_WORDS) -> list[str]:
    """The deal's talk, the cards shown and the tricks each side took, as the machine
    view's ``talk``, ``shown`` and ``tricks`` carry them: what a player back after a
    drop (or asking 'state') needs to go on, the events having told it once. ``words``:
    the table's words for calls (lang.table_words)."""
    n = v.names
    out = []
    if v.talk:
        said = ru_call if lang == Lang.RU else spoken_call
        clock = _say(lang, Msg.BY_THE_CLOCK)  # as the table said it ('bob: lomayu 1 (by …)')
        talk = ", ".join(
            f"{n[seat]} {said(token, words)}{clock if i in v.talk_auto else ''}"
            for i, (seat, token) in enumerate(v.talk)
        )
        out.append(_say(lang, Msg.STATE_TALK, talk=talk))
    if v.shown:
        shown = "; ".join(f"{n[seat]} {pretty_cards(cs)}" for seat, cs in sorted(v.shown.items()))
        out.append(_say(lang, Msg.STATE_SHOWN, shown=shown))
    if any(v.tricks_taken):
        out.append(_say(lang, Msg.STATE_TRICKS, tricks=_by_side(n, v.tricks_taken)))
    return out


_NUMBERED = re.compile(r"^(.+)-(\d+)$")
BREAK_CALL = "lomayu"  # Tertz's break of the deck, lomayu-N (history: HistoryDeal.broken)


def breaks_deck(call: str) -> bool:
    """Whether ``call`` (a name or token) is a Tertz break of the deck, lomayu-N."""
    return call.startswith(f"{BREAK_CALL}-")


def _numbered_runs(tokens: list[str]) -> list[tuple[str, int | None]]:
    """A call offered for a run of three or more numbers, as one option: each token
    with the last number of the run it starts (None: a call alone). Tertz's
    ``lomayu-1`` … ``lomayu-12`` is ("lomayu-1", 12)."""
    numbers: dict[str, list[int]] = {}
    for token in tokens:
        m = _NUMBERED.match(token)
        if m is not None:
            numbers.setdefault(m.group(1), []).append(int(m.group(2)))
    out: list[tuple[str, int | None]] = []
    for token in tokens:
        m = _NUMBERED.match(token)
        run = numbers.get(m.group(1), []) if m is not None else []
        if m is None or len(run) < 3 or run != list(range(run[0], run[-1] + 1)):
            out.append((token, None))
        elif int(m.group(2)) == run[0]:
            out.append((token, run[-1]))
    return out


def _said_run(token: str, last: int | None, say: Callable[[str], str]) -> str:
    """A run's first call as ``say`` words it, its number as the run: "lomayu 1..12",
    «ломаю 1..12» (people type "lomayu 5", «ломаю 5»)."""
    said = say(token)
    if last is None:
        return said
    first = token.rpartition("-")[2]
    return f"{said.removesuffix(first).rstrip()} {first}..{last}"


def _game_line(name: str, value: Any) -> str:
    """A whole new game's own view field, in words (Tertz: "Talon: 12")."""
    if isinstance(value, tuple | list):
        value = pretty_cards(value) if value else "none"
    return f"{name.replace('_', ' ').capitalize()}: {value}"


def _pretty_token(token: str) -> str:
    return token[:-1] + SUIT_SYMBOLS[token[-1]]


def _pretty_call(token: str) -> str:
    """A call as spoken: 'ot korolya', 'ne prokhodit', a card 'J♠' (lang.spoken_call)."""
    return spoken_call(token)


# a call that makes its seat's combination its side's declaration: a category, or the
# top card named in a rost? exchange
_DECLARING = re.compile(r"(?:dva-|tri-)?(?:terts|tertsa|pyatdesyat)|ot-.+")


# a view's open question of the table talk: its kind, the asker, the answerer
Pending = tuple[str, int, int]


def rost_owner(v: SeatView) -> int | None:
    """Four players: the partner whose declaration a pending ``rost?`` asks about, when
    the answerer answers for the pair with his own (docs/rules.md §8), so that nobody
    reads "anna asks boris" of a boris who never spoke; None otherwise."""
    return pair_rost_owner(v.pending, len(v.names), v.talk)


def names_higher(v: SeatView) -> bool:
    """Whether a rost? reply may name a higher top (an ``ot-…`` among the legal calls),
    for the asker himself; True of anyone else's, whose hand is not told (a Kharkov
    table was offered "or name a higher one" where only pishet was legal)."""
    if v.pending is None or v.pending[0] != "rost-reply" or v.pending[1] != v.seat:
        return True
    return any(token.split("-", 1)[0] == C.OT for token in v.legal)


def skin_too(v: SeatView) -> bool:
    """Whether the seat asked pokazhi may answer skin too (among its legal calls): its
    question then says so, not "you show it" alone (a club evening, s39); of anyone
    else's, whose calls are not told, False."""
    return v.pending is not None and asked_skin(v.pending, v.seat, v.legal)


def pair_rost_owner(
    pending: Pending | None, players: int, talk: Sequence[tuple[int, str]]
) -> int | None:
    """``rost_owner`` of a view's parts: the last seat of the answerer's side to declare
    or name a top this deal, if not the answerer."""
    if pending is None or pending[0] != "rost" or players != 4:
        return None
    answerer = pending[2]
    side = [s for s, token in talk if s % 2 == answerer % 2 and _DECLARING.fullmatch(token)]
    return side[-1] if side and side[-1] != answerer else None


def question(
    pending: Pending,
    names: Sequence[str],
    me: int | None,
    talk: Sequence[tuple[int, str]],
    legal: Sequence[str] = (),
    stake: int | None = None,
    words: Mapping[str, str] | None = None,
) -> str:
    """The open question of the table talk as the human style tells it to seat ``me``,
    from a view's parts (``pending=``, the names by seat, the deal's talk, ``me``'s
    legal calls, a dave table's ``stake=``, the table's ``words``): for a client that
    reads the machine style and says it in the server's words (clients/play)."""
    owner = pair_rost_owner(pending, len(names), talk)
    skin = asked_skin(pending, me, legal)
    return _question(*pending, names, me, owner, skin=skin, stake=stake, words=words)


def asked_skin(pending: Pending, me: int | None, legal: Sequence[str]) -> bool:
    """``skin_too`` of a view's parts."""
    return pending[0] == "show" and pending[2] == me and C.SKIN in legal


def _question(
    kind: str,
    asker: int,
    answerer: int,
    n: Sequence[str],
    me: int | None = None,
    owner: int | None = None,
    higher: bool = True,
    skin: bool = False,
    stake: int | None = None,
    words: Mapping[str, str] | None = None,
) -> str:
    """The open question of the table talk, as a player would say it; to ``me`` (the
    seat it is told to) about himself in the second person. ``owner``: the partner whose
    declaration a rost? asks about, the answerer answering for the pair (rost_owner);
    ``higher``: a rost? reply may name a higher top (names_higher); ``skin``: the
    answerer, ``me``, may have the asker play first instead (skin_too); ``stake``: what
    the deal is played for now (a dave's, View.stake; None: not known); ``words``: the
    table's (lang.table_words), its rost? said in them (Tertz's 'ot chego?')."""
    rost = spoken_call(C.ROST, words)

    def who(seat: int) -> str:
        return "you" if seat == me else n[seat]

    def does(seat: int, verb: str) -> str:  # "boris names" / "you name"
        return f"you {verb}" if seat == me else f"{n[seat]} {verb}s"

    a, b = who(asker), who(answerer)
    if kind == SWAP_Q:  # the table asks every seat in turn, nobody asked it
        return f"Each seat in turn may swap the trump 7 for the turned card: {b} now."
    if kind == "rost" and owner is not None:  # the partner answers for the pair
        own = "your" if answerer == me else "his"
        return _capital(
            f"{does(asker, 'ask')} {who(owner)} how high the combination goes ({rost}): "
            f"{does(answerer, 'answer')} for the pair with {own} own and "
            f"{'name' if answerer == me else 'names'} its top."
        )
    if kind == "rost":
        return _capital(
            f"{does(asker, 'ask')} {b} how high the combination goes ({rost}): "
            f"{does(answerer, 'name')} its top."
        )
    if kind == "rost-reply":
        if asker == me and not higher:  # only pishet is legal (docs/rules.md §3, §9)
            return "You have heard the top card: yours does not beat it, say pishet."
        if asker == me:
            return "You have heard the top card: say pishet, or name a higher one."
        return f"{a} has heard the top card: {a} says pishet, or names a higher one."
    if kind == "show":
        first = f", or have {a} play his card first (skin)" if skin else ""
        return _capital(
            f"{does(asker, 'ask')} {b} to show the combination (pokazhi): "
            f"{does(answerer, 'show')} it{first}."
        )
    if kind == "prokhodit":
        return _capital(
            f"{does(asker, 'ask')} whether the trump run passes (prokhodit?): "
            f"{does(answerer, 'answer')}."
        )
    if kind == "lomayu":  # Tertz: the loser of the first trick breaks the deck
        return _capital(
            f"{does(answerer, 'break')} the deck (lomayu N): N cards from the talon's top"
            " go under it."
        )
    # the shipped options' own questions (house/short.py, house/poltinniki.py): said as
    # what they are, as render_ru says them, not "anna asks offer?" (a tryout, s30)
    if kind == "dave":
        # the stake said (a tryout, s40: the question never named it)
        at = "this stake" if stake is None else f"stake {stake}"
        if answerer == me:
            answer = f"give up at {at} (sdayus) or play on for the next (prinimayu)"
        else:
            given = "" if stake is None else f" at stake {stake}"
            answer = f"{b} gives up{given} (sdayus) or plays on for the next stake (prinimayu)"
        return _capital(f"{does(asker, 'say')} dave: {answer}.")
    if kind == "offer?":  # the whistler may offer the player 50 points
        may = "You may" if answerer == me else f"{b} may"
        return f"{may} offer {a} 50 points without play (predlagayu) or play on (igraem)."
    if kind == "offer":
        answer = "answer" if answerer == me else f"{b} answers"
        return _capital(
            f"{does(asker, 'offer')} {b} 50 points without play: {answer} prinimayu or igraem."
        )
    return _capital(f"{does(asker, 'ask')} {kind}: {does(answerer, 'answer')}.")


def _capital(sentence: str) -> str:
    """'you ask …' starts a sentence as 'You ask …' (a name stays as it is written)."""
    return "You" + sentence[3:] if sentence.startswith("you ") else sentence


def _last(e: ev.LastTrick, machine: bool) -> list[str]:
    if machine:
        return [
            line(
                "last",
                [
                    ("table", e.table),
                    ("deal", e.deal),
                    ("leader", e.leader),
                    ("cards", _cards(e.cards)),
                    ("winner", e.winner),
                    # the seats whose card the clock played, as history-trick's
                    *([("auto", e.by_clock)] if e.by_clock else []),
                ],
            )
        ]
    n = e.names
    laid = []
    seat = e.leader
    for card in e.cards:
        laid.append(f"{n[seat]} {pretty_card(card)}{_clock(seat in e.by_clock)}")
        seat = (seat + 1) % len(n)
    return [
        f"Last trick (deal {e.deal}): {n[e.leader]} led; {', '.join(laid)}; {n[e.winner]} took it."
    ]


def _history(e: ev.History, machine: bool) -> list[str]:
    if machine:
        out = [line("history", [("table", e.table), ("match", e.match), ("deals", len(e.deals))])]
        for d in e.deals:
            out.append(
                line(
                    "history-deal",
                    [
                        ("table", e.table),
                        ("deal", d.deal),
                        ("dealer", d.dealer),
                        ("trump", _suit(d.trump)),
                        ("player", d.player),
                        ("outcome", d.outcome),
                        ("written", d.written),
                        ("tricks", len(d.tricks)),
                        # a game with a talon (Tertz) only: Deberts' lines are unchanged
                        *([("broken", d.broken)] if d.talon else []),
                        # a deal that ended with cards on the table only
                        *(
                            [
                                ("unfinished_leader", d.unfinished.leader),
                                ("unfinished", _cards(d.unfinished.cards)),
                            ]
                            if d.unfinished is not None
                            else []
                        ),
                        # Tertz: the trump 7 took the turned card in the trick not taken
                        *(
                            [("unfinished_swap", _swap_field(d.unfinished_swap))]
                            if d.unfinished_swap is not None
                            else []
                        ),
                        # the seats whose card in the trick not taken the clock played
                        *(
                            [("unfinished_auto", d.unfinished.by_clock)]
                            if d.unfinished is not None and d.unfinished.by_clock
                            else []
                        ),
                        # the declarations that counted, as the human style's 'Scored …'
                        *_scored_fields(d.scored),
                        # the points that hung into it, if it won them
                        *([("hung", [d.hung[0], *d.hung[1]])] if d.hung is not None else []),
                        # the points it left hanging, hanging-separate's later sums too
                        *([("hanging", d.hanging)] if d.hanging else []),
                        *_hanging_after(d.hanging_after),
                        # the stake a dave raised it to (a short game's: in play, now)
                        *([("stake", d.stake)] if d.stake is not None else []),
                        # Tertz: the clock made its break (auto=1 on the break's call)
                        *([("broken_auto", 1)] if d.broken_auto else []),
                    ],
                )
            )
            for i, t in enumerate(d.tricks, 1):
                fields: list[tuple[str, Any]] = [("table", e.table), ("deal", d.deal)]
                fields += [("trick", i), ("leader", t.leader), ("cards", _cards(t.cards))]
                fields.append(("winner", t.winner))
                if t.draws is not None:
                    fields.append(("draws", [f"{s}:{card_str(c)}" for s, c in t.draws]))
                if t.swap is not None:  # Tertz: the trump 7 took the turned card here
                    fields.append(("swap", _swap_field(t.swap)))
                if t.by_clock:  # the seats whose card the clock played (auto=1)
                    fields.append(("auto", t.by_clock))
                out.append(line("history-trick", fields))
        return out
    return history_lines(e)


def _scored_fields(scored: Sequence[ev.Scored]) -> list[tuple[str, Any]]:
    """A history deal's declarations that counted: ``scored=SEAT:POINTS:COMBO,…`` (the
    record's combo, its spaces ``_``), and in a bide whose points the side that ordered's
    became: ``scored_to=`` the sides that wrote them, or ``scored_hangs=1``."""
    if not scored:
        return []
    fields: list[tuple[str, Any]] = [
        ("scored", [f"{s.seat}:{s.points}:{s.combo.replace(',', '_')}" for s in scored])
    ]
    bidder = next((s for s in scored if s.to or s.hangs), None)
    if bidder is not None and bidder.to:  # each side as its first seat's side index
        fields.append(("scored_to", [side[0] for side in bidder.to]))
    if bidder is not None and bidder.hangs:
        fields.append(("scored_hangs", True))
    return fields


def _swap_field(swap: tuple[int, int]) -> str:
    """A history's swap of the trump 7, ``SEAT:CARD`` (the card it took)."""
    return f"{swap[0]}:{card_str(swap[1])}"


def _swap_line(
    swap: tuple[int, int], n: Sequence[str], lang: Lang, words: Mapping[str, str]
) -> str:
    """'      ann, before his card, swaps the trump 7 for the turned K♥: menyayu', under
    its trick."""
    seat, took = swap
    said = phrase(Msg.CALL_WORD, call=spoken_call(C.MENYAYU), ru=ru_call(C.MENYAYU, words))
    return _say(lang, Msg.HISTORY_SWAP, seat=n[seat], card=pretty_card(took), call=said)


def _by_clock_line(
    trick: ev.HistoryTrick | ev.UnfinishedTrick, n: Sequence[str], lang: Lang
) -> str:
    """'      by the clock: vera 7♠', under a trick: the cards in it the clock played."""
    laid = [
        f"{n[(trick.leader + k) % len(n)]} {pretty_card(c)}"
        for k, c in enumerate(trick.cards)
        if (trick.leader + k) % len(n) in trick.by_clock
    ]
    return _say(lang, Msg.HISTORY_BY_CLOCK, laid=", ".join(laid))


def history_lines(e: ev.History, lang: Lang = Lang.EN) -> list[str]:
    """The match deal by deal, each trick as laid (cards in Latin letters: the Russian
    renderer turns them Cyrillic, as every line of its own)."""
    n = e.names
    # four players as their pairs ('anna+olga v vera+nina'), as the sheet heads them
    players = _say(lang, Msg.VERSUS).join(_joined_sides(n, e.sides))
    out = [_say(lang, Msg.HISTORY_TITLE, table=e.table, match=e.match, players=players)]
    if not e.deals:
        out.append(_say(lang, Msg.HISTORY_NONE if e.over else Msg.HISTORY_EMPTY))
    for d in e.deals:
        # 'yet' only of a deal still played (a void deal never had one)
        trump = _say(lang, Msg.HISTORY_NO_TRUMP if d.outcome is None else Msg.HISTORY_NO_TRUMP_OVER)
        if d.trump is not None:
            player = f" ({n[d.player]})" if d.player is not None else ""
            trump = _say(lang, Msg.HISTORY_TRUMP, suit=SUIT_SYMBOLS[SUITS[d.trump]], player=player)
        end = _say(lang, Msg.HISTORY_PLAYING)
        if d.outcome is not None:
            outcome = deal_word(d.outcome, d.written, n, e.deal_won_on_points, lang)
            end = outcome + (f", {_by_side(n, d.written)}" if d.written is not None else "")
            end += _hangs(d, lang)  # (a tryout, s40: the deal's end and sheet said it)
        deal = _say(lang, Msg.HISTORY_DEAL, deal=d.deal, dealer=n[d.dealer], trump=trump, end=end)
        out.append(deal)
        out += [f"    {said}" for said in scored_lines(d.scored, n, lang, e.words)]
        out += [f"    {said}" for said in hung_said(d.hung, n, len(e.sides), lang)]
        if d.stake is not None:  # as the table said it when a dave raised it
            played = Msg.STAKE_NOW if d.outcome is None else Msg.HISTORY_STAKE
            out.append(f"    {_say(lang, played, stake=d.stake)}")
        for i, t in enumerate(d.tricks, 1):
            laid = [f"{n[(t.leader + k) % len(n)]} {pretty_card(c)}" for k, c in enumerate(t.cards)]
            out.append(f"{i:>3} {' '.join(laid)} > {n[t.winner]}")
            if t.by_clock:  # as the table said them: 'vera plays 7♠ (by the clock)'
                out.append(_by_clock_line(t, n, lang))
            if t.swap is not None:  # Tertz: before his card the seat swapped his trump 7
                out.append(_swap_line(t.swap, n, lang, e.words))
            if i == 1 and d.broken is not None:  # Tertz: the loser breaks the deck (§12.2)
                loser = n[(t.winner + 1) % len(n)]
                broke = f"{BREAK_CALL}-{d.broken}"
                said = phrase(Msg.CALL_WORD, call=spoken_call(broke), ru=ru_call(broke, e.words))
                clock = _say(lang, Msg.BY_THE_CLOCK) if d.broken_auto else ""
                out.append(_say(lang, Msg.HISTORY_BREAK, seat=loser, call=said) + clock)
            if t.draws:
                drawn = ", ".join(f"{n[s]} {pretty_card(c)}" for s, c in t.draws)
                out.append(_say(lang, Msg.HISTORY_DRAWS, draws=drawn))
        if (left := d.unfinished) is not None:  # the deal ended with these on the table
            laid = [
                f"{n[(left.leader + k) % len(n)]} {pretty_card(c)}"
                for k, c in enumerate(left.cards)
            ]
            out.append(_say(lang, Msg.HISTORY_UNFINISHED, laid=" ".join(laid)))
            if left.by_clock:
                out.append(_by_clock_line(left, n, lang))
        if d.unfinished_swap is not None:  # made in it (or before its first card)
            out.append(_swap_line(d.unfinished_swap, n, lang, e.words))
    # within 80 columns here, not only where the human style cuts what it sends: the
    # terminal client writes these lines too (a Tertz swap under a trick, with
    # 20-letter names, passed 80: s39); a line under a trick goes on under its start
    return [part for told in out for part in _fit([told], _lead(told) + "  ")]


def _hangs(d: ev.HistoryDeal, lang: Lang) -> str:
    """'; 82 points hang' after a finished deal's written points, as its end said it;
    hanging-separate's later sums too ('…for the next deal, 70 for the one after')."""
    if not d.hanging:
        return ""
    return _say(lang, Msg.HISTORY_HANGS, hanging=d.hanging) + hangs_later(d.hanging_after, lang)


def _lead(line: str) -> str:
    """The spaces a line starts with (a trick's 2, a note under it 6)."""
    return line[: len(line) - len(line.lstrip(" "))]


def _sheet(e: ev.Sheet, machine: bool) -> list[str]:
    if machine:
        out = [line("sheet", [("table", e.table), ("deals", len(e.rows)), ("target", e.target)])]
        out += [
            line(
                "sheet-deal",
                [
                    ("table", e.table),
                    ("deal", r.deal),
                    ("outcome", r.outcome),
                    ("written", r.written),
                    ("totals", r.totals),
                    ("hanging", r.hanging),
                    ("bides", r.bides),
                    *_hanging_after(r.hanging_after),
                ],
            )
            for r in e.rows
        ]
        return out
    return sheet_lines(e)


def sheet_lines(e: ev.Sheet, lang: Lang = Lang.EN) -> list[str]:
    """The pencil sheet: each deal's written points and the running total by side. Its
    layout is chosen from what the match may write, not from the deals written so far:
    the sheet asked for after deal 9 has deal 2's columns (a first bide with long names
    numbered the columns from then on, and a long winner's name widened 'won by')."""
    sides = _joined_sides(e.names, e.sides)
    goal = _say(lang, Msg.SHEET_TARGET, target=e.target) if e.target is not None else ""
    header = _say(lang, Msg.SHEET_HEADER_WON if e.deal_won_on_points else Msg.SHEET_HEADER)
    # under 'won by' a deal's winner alone, each name in at most WINNER_ROOM columns
    # (the column is as wide from the first deal whoever wins)
    short = tuple(short_name(name, WINNER_ROOM) for name in e.names)
    words = [
        _winner(r.outcome, r.written, short, e.deal_won_on_points, lang)
        or _outcome_word(r.outcome, lang)
        for r in e.rows
    ]
    # the deal's number (4) and a space, then how it ended: as wide from the first deal
    # as the widest word the match may write there, its language's widest outcome (a
    # match's last row may say 'false-claim', «ложный конец», «время вышло»: it widened
    # the column at that row, past 80 columns) and a short game's widest winner; a
    # plugin's own outcome word, unknown here, is shortened to the column, not widening it.
    # A word may fill the column: the first side's column keeps two spaces before its
    # numbers (a column is 2 wider than its name, 11 at least, and its numbers 9 at most)
    first = max(9, columns(header) - 4, _widest_winner(e, short, lang) + 1, _widest_outcome(lang))
    words = [short_name(word, first) for word in words]
    # every column padded by terminal columns, not characters (a CJK name takes two a
    # character, an accent added to a letter none): the columns stay in line
    width = max(11, *(columns(side) + 2 for side in sides))
    title = Msg.SHEET_TITLE_STAKES if e.deal_won_on_points else Msg.SHEET_TITLE
    out = [_say(lang, title, table=e.table, goal=goal)]
    labels = sides
    if 5 + first + width * len(sides) + _widest_bides(e, sides, lang) > WIDTH:
        # long names (three players, two pairs) would wrap every row past the table's
        # shape once a bide is written (each row after it says the bides): the columns
        # are numbered, the sides named once above them, a line each (two pairs of long
        # names are wider than one line); decided before any bide, from the names
        out += [part for i, side in enumerate(sides, 1) for part in _side_named(i, side)]
        sides = [str(i) for i in range(1, len(sides) + 1)]
        labels = [f"#{side}" for side in sides]  # the bides of side 1: '#1 1'
        width = 11
    out.append(pad(header, 5 + first) + "".join(pad(side, width, right=True) for side in sides))
    # each side's written points and its totals right-aligned apart, as on paper: 42
    # written under 182, the total 42 under 224, not the pair '42 42' under '182 224';
    # as wide as the match can make them from its first deal (a total to 301 below 601,
    # to 501 below 1001), so the sheet asked for after deal 5 lines up with deal 2's
    total_digits, written_digits = _sheet_digits(e.target)
    wide_written = [
        max([written_digits, *(len(str(r.written[i])) for r in e.rows)]) for i in range(len(sides))
    ]
    wide_totals = [
        max([total_digits, *(len(str(r.totals[i])) for r in e.rows)]) for i in range(len(sides))
    ]
    for r, word in zip(e.rows, words, strict=True):
        cells = "".join(
            pad(f"{w:>{ww}} {t:>{tw}}", width, right=True)
            for w, t, ww, tw in zip(r.written, r.totals, wide_written, wide_totals, strict=True)
        )
        outcome = pad(word, first)
        said = _say(lang, Msg.SHEET_ROW, deal=r.deal, outcome=outcome, cells=cells, notes="")
        bides, hanging = _sheet_notes(r, labels, e.deal_won_on_points, lang)
        if not (bides or hanging) or columns(said + bides + hanging) <= WIDTH:
            out.append(said + bides + hanging)
        elif columns(said + bides) <= WIDTH:  # a hanging deal's points under its bides,
            # where their word starts
            under = columns(said) + columns(hanging) - columns(hanging.lstrip())
            out += [said + bides, pad("", under) + hanging.lstrip()]
        else:  # bides wider than the layout counts on (a side's 10th): the notes on a
            # line of their own, under the row's columns (where the first one starts)
            out += [said, pad("", 5 + first) + (bides + hanging).lstrip()]
    if not e.rows:
        out.append(_say(lang, Msg.SHEET_NONE if e.over else Msg.SHEET_EMPTY))
    return out


# the columns a name takes at most in a short game's 'won by' column: a longer one is
# shortened there (each name of a pair alike), so the column is as wide all the match
WINNER_ROOM = 12
# the most bides a side is counted as having when a sheet's layout is chosen: one digit.
# Counting two numbered the columns of three players named 'anna', 'bob', 'vera' (and
# of most pairs) for a 10th bide few matches see; a row whose bides pass 80 columns
# has them on a line of their own under it instead, its columns where they were
_MOST_BIDES = 9


def _widest_outcome(lang: Lang) -> int:
    """The columns of the widest outcome word the sheet may write in ``lang``
    ('false-claim'; «ложный конец»)."""
    return max(columns(_outcome_word(outcome, lang)) for outcome in Outcome)


def _side_named(number: int, side: str) -> list[str]:
    """'  1 = anna+olga', a numbered column's side named above the columns; a pair too
    wide for a line (two names of 20 CJK characters) breaks after its '+', the partner
    under the first name."""
    said = f"  {number} = {side}"
    first, plus, partner = side.partition("+")
    if columns(said) <= WIDTH or not plus:
        return [said]
    return [f"  {number} = {first}+", pad("", len(f"  {number} = ")) + partner]


def _widest_winner(e: ev.Sheet, short: Sequence[str], lang: Lang) -> int:
    """The columns of the widest winner a short game's deal may write in the sheet's
    first column (``short``: the names as shortened there), with how the deal ended
    when not by its points ('anna (gave-up)'); 0 in any other game."""
    if not e.deal_won_on_points:
        return 0
    count, widest = len(e.sides), 0
    for side in range(count):
        written = [1 if s == side else 0 for s in range(count)]
        for outcome in _WON:
            widest = max(widest, columns(_winner(outcome, written, short, True, lang) or ""))
    return widest


def _widest_bides(e: ev.Sheet, labels: Sequence[str], lang: Lang) -> int:
    """The columns a row's bides may take in this match (``labels``: the sides as the
    columns head them), counted before its first bide, so that the sheet's layout
    does not change at it; none in a short game without a bide (docs/rules.md §11)."""
    count = len(e.sides)
    most = SheetRow(0, Outcome.BIDE, (0,) * count, (0,) * count, 0, (_MOST_BIDES,) * count)
    return sum(map(columns, _sheet_notes(most, labels, e.deal_won_on_points, lang)))


def _sheet_digits(target: int | None) -> tuple[int, int]:
    """The digits a sheet keeps from its first deal for a total and for a deal's
    written points: a total is below the target before the match's last deal, which
    seldom writes as much as the target, so below twice it (to 301: three digits, to
    501 or 1001: four, stakes to 9: two); a deal writes at most three digits. A wider
    number (a total gone negative under bide-penalty) still widens its column.
    ``None``: one deal decides, the sheet has one row: as wide as its numbers."""
    if target is None:
        return 1, 1
    return len(str(2 * target - 1)), min(3, len(str(target)))


def _joined_sides(names: Sequence[str], sides: Sequence[Sequence[int]]) -> list[str]:
    """Each side's names by its seats: 'anna', or a pair 'anna+olga'."""
    return ["+".join(names[seat] for seat in side) for side in sides]


def _sheet_notes(
    row: SheetRow, labels: Sequence[str], deal_won_on_points: bool, lang: Lang
) -> tuple[str, str]:
    """A sheet row's bides and hanging points, after its columns; each side's bides
    by its name (``labels``): '1/0' after the last column read as that side's."""
    # (no bide where the most points win: the count says only who ordered and lost)
    told = any(row.bides) and not deal_won_on_points
    bides = ", ".join(f"{side} {n}" for side, n in zip(labels, row.bides, strict=True))
    notes = _say(lang, Msg.SHEET_BIDES, bides=bides) if told else ""
    if not row.hanging:
        return notes, ""
    # hanging-separate: the sums waiting beyond the next deal after it ('35, then 35')
    then = " затем " if lang == Lang.RU else " then "
    hanging = ",".join([str(row.hanging), *(then + str(p) for p in row.hanging_after)])
    return notes, _say(lang, Msg.SHEET_HANGING, hanging=hanging)


def _human_record(record: dict[str, Any]) -> list[str]:
    """The deal's play trick by trick: who led, the cards in order, who took it."""
    if is_void(record):  # its end line said why and that it is dealt again: nothing to add
        return []
    names = record["players"]
    tricks = played_tricks(record)
    stopped = forfeited_before_a_card(record)
    if stopped is not None:  # no deal in full to show: what stopped it, and whose doing
        reason, seat = stopped
        who = None if seat is None else names[seat]
        return [
            f"Deal {record['deal_no']} stopped before its first card: {end_words(reason, who)}."
        ]
    out = [f"Deal {record['deal_no']} in full" + (":" if tricks else ": no card was played.")]
    clock = ev.clock_cards(record)  # a card the clock played says so, as it was told
    for number, (trick, auto) in enumerate(zip(tricks, clock, strict=True), 1):
        seat = trick["leader"]
        laid = []
        for text in trick["cards"]:
            laid.append(f"{names[seat]} {_pretty_token(text)}{_clock(seat in auto)}")
            seat = (seat + 1) % len(names)
        taker = trick.get("winner")
        took = f" → {names[taker]}" if isinstance(taker, int) else " (unfinished)"
        out.append(f"  trick {number}: {', '.join(laid)}{took}")
    return out


def is_void(record: dict[str, Any]) -> bool:
    """A void deal (all passed, four sevens: docs/rules.md §2), not played but dealt
    again: no deal in full to show (its end line, 'void (all passed)', says it all)."""
    return record.get("outcome") == Outcome.VOID


def forfeited_before_a_card(record: dict[str, Any]) -> tuple[str, int | None] | None:
    """A deal a forfeit ('leave!', the clock, away too long) ended before any card was
    laid: its reason, and the seat that forfeited (None in a record written before
    ``match_over`` kept it, docs/records.md); None for any other deal."""
    reason = record.get("outcome")
    if reason not in FORFEITS or played_tricks(record):
        return None
    seat = (record.get("match_over") or {}).get("forfeit")
    known = isinstance(seat, int) and 0 <= seat < len(record["players"])
    return str(reason), seat if known else None


def played_tricks(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A record's tricks in play order, the one left unfinished (a forfeit, a penalty,
    docs/records.md) last, without a winner."""
    unfinished = record.get("unfinished_trick")
    return [*record["tricks"], *([unfinished] if unfinished else [])]
