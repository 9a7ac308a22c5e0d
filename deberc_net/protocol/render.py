"""Server events to text lines, in the human or the machine style (sans-IO).

Machine lines are built by protocol.wire's formatter (the one the readers' parser
matches); fields are only ever appended.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from deberc_net.game import events as g
from deberc_net.game.cards import RANKS, SUIT_SYMBOLS, SUITS, Card, card_str
from deberc_net.game.deal import SWAP_Q
from deberc_net.game.view import SeatView

from . import events as ev
from .wire import format_line as line
from .wire import format_value as _value


class Style(StrEnum):
    HUMAN = "human"  # readable text, for telnet and netcat
    MACHINE = "machine"  # tagged key=value lines, for programs


HUMAN = Style.HUMAN
MACHINE = Style.MACHINE


def pretty_card(card: Card) -> str:
    return RANKS[card & 7] + SUIT_SYMBOLS[SUITS[card >> 3]]


def pretty_hand(cards: Iterable[Card]) -> str:
    groups: dict[int, list[str]] = {}
    for c in cards:
        groups.setdefault(c >> 3, []).append(RANKS[c & 7])
    return "  ".join(SUIT_SYMBOLS[SUITS[s]] + " " + " ".join(r) for s, r in groups.items())


def _suit(s: int | None) -> str | None:
    return None if s is None else SUITS[s]


def _cards(cards: Iterable[Card]) -> list[str]:
    return [card_str(c) for c in cards]


def render(event: ev.ServerEvent, style: str) -> list[str]:
    machine = style == MACHINE
    match event:
        case ev.Hello():
            text = "Deberts for people and bots. Type 'help' for commands."
            if machine:
                return [line("hello", [("server", "deberc-net"), ("version", event.version),
                                       ("protocol", event.protocol)], text)]
            return [f"deberc-net {event.version} (protocol {event.protocol}) — {text}"]
        case ev.Ok():
            return [line("ok", [("cmd", event.cmd), *event.fields], event.text)
                    if machine else event.text]
        case ev.Error():
            return [line("error", [("code", event.code)], event.text)
                    if machine else f"Error ({event.code}): {event.text}"]
        case ev.Info():
            return [line("info", (), event.text) if machine else event.text]
        case ev.Bye():
            return [line("bye", (), event.text) if machine else event.text]
        case ev.TextBlock():
            if machine:
                return [line(event.tag, (), t) for t in event.lines]
            return list(event.lines)
        case ev.Who():
            if machine:
                return [line("who", [("count", len(event.names)), ("names", event.names),
                                     ("total", event.total), ("page", event.page),
                                     ("pages", event.pages)])]
            return [f"{event.total} here: {', '.join(event.names) or 'nobody'}"
                    + _more("who", event.page, event.pages)]
        case ev.Tables():
            return _tables(event, machine)
        case ev.Said():
            if machine:
                return [line("say", [("from", event.sender), ("table", event.table)], event.text)]
            where = f"[table {event.table}] " if event.table is not None else ""
            return [f"{where}{event.sender} says: {event.text}"]
        case ev.Games():
            return _games(event, machine)
        case ev.TableEvent():
            return _table_event(event, machine)
        case ev.Ask():
            return _ask(event, machine)
        case ev.DealRecord():
            if machine:
                body = json.dumps(event.record, ensure_ascii=False, separators=(",", ":"))
                return [line("record", [("table", event.table),
                                        ("deal", event.record["deal_no"])], body)]
            return _human_record(event.record)
    raise TypeError(f"cannot render {event!r}")


def _tables(event: ev.Tables, machine: bool) -> list[str]:
    if machine:
        out = [line("tables", [("count", len(event.tables)), ("total", event.total),
                               ("page", event.page), ("pages", event.pages)])]
        for t in event.tables:
            out.append(line("table", [
                ("id", t.id), ("players", t.players), ("variant", t.variant),
                ("options", t.options), ("seats", ["-" if s is None else s for s in t.seats]),
                ("state", t.state), ("observers", t.observers)]))
        return out
    if not event.tables:
        return ["No tables. 'new' opens one, 'seek' waits for a game."]
    out = []
    for t in event.tables:
        seats = ", ".join(s or "(free)" for s in t.seats)
        opts = f" {' '.join(t.options)}" if t.options else ""
        out.append(f"Table {t.id}: {t.variant}{opts}, {t.players} players, {t.state}: {seats}")
    more = _more("tables", event.page, event.pages)
    return [*out, more.strip()] if more else out


def _more(command: str, page: int, pages: int) -> str:
    """A long list comes in pages: say where this one is and how to get the next."""
    if pages <= 1:
        return ""
    after = f" '{command} {page + 1}' for more." if page < pages else ""
    return f" (page {page} of {pages}.{after})"


def _games(event: ev.Games, machine: bool) -> list[str]:
    if machine:
        out = [line("games", [("name", event.name), ("count", len(event.games))])]
        for g in event.games:
            out.append(line("game", [
                ("match", g.match), ("table", g.table), ("players", g.players),
                ("variant", g.variant), ("winner", g.winner), ("reason", g.reason),
                ("totals", g.totals), ("finished", g.finished)]))
        return out
    if not event.games:
        return [f"No finished games for {event.name}."]
    return [
        f"{g.finished}  table {g.table}  {' v '.join(g.players)}  "
        f"{'-'.join(str(t) for t in g.totals)}  winner {g.winner or '-'} ({g.reason})"
        for g in event.games
    ]


def _by_side(names: tuple[str, ...], values: Any) -> str:
    """'anna 120, misha 80'; with pairs, 'anna+boris 120, misha+vera 80'."""
    sides = len(values)
    return ", ".join(f"{'+'.join(names[side::sides])} {value}"
                     for side, value in enumerate(values))


def _name(names: tuple[str, ...], seat: int | None) -> str:
    return "-" if seat is None else names[seat]


def _table_event(e: ev.TableEvent, machine: bool) -> list[str]:
    kind, fields = _told(e.event)
    if machine:
        return [line("event", [("seq", e.seq), ("table", e.table), ("kind", kind), *fields])]
    return _human(e.event, e.names) or [
        f"{kind}: " + " ".join(f"{a}={_value(b)}" for a, b in fields)]


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
    return "order", [("player", e.player), ("trump", SUITS[e.trump]), ("first", e.first),
                     ("fresa", _card(e.fresa))]


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
    return "deal", [("deal", e.deal), ("dealer", e.dealer), ("turned", card_str(e.turned)),
                    ("score", e.score), ("hanging", e.hanging)]


@_told.register
def _told_deal_end(e: g.DealEnded) -> tuple[str, Fields]:
    return "deal-end", [("deal", e.deal), ("outcome", e.outcome), ("points", e.points),
                        ("written", e.written), ("totals", e.totals), ("hanging", e.hanging)]


@_told.register
def _told_match_end(e: g.MatchEnded) -> tuple[str, Fields]:
    forfeit = [] if e.forfeit is None else [("forfeit", e.forfeit)]
    return "match-end", [("winner", e.winner), ("name", ",".join(e.winners) or None),
                         ("reason", e.reason), ("totals", e.totals), ("seed", e.seed),
                         *forfeit]


def _seat_fields(e: ev.SeatEvent) -> Fields:
    return [("name", e.name), ("seat", e.seat)]


_told.register(ev.Seated, lambda e: ("seated", _seat_fields(e)))
_told.register(ev.Left, lambda e: ("left", _seat_fields(e)))
_told.register(ev.WentAway, lambda e: ("away", _seat_fields(e)))
_told.register(ev.CameBack, lambda e: ("back", _seat_fields(e)))


@functools.singledispatch
def _human(event: object, names: tuple[str, ...]) -> list[str]:
    return []  # dealt, penalty, and any kind without words of its own


@_human.register
def _human_call(e: g.CallMade, n: tuple[str, ...]) -> list[str]:
    return [f"{n[e.seat]}: {e.call.token()}{_clock(e.auto)}"]


@_human.register
def _human_card(e: g.CardPlayed, n: tuple[str, ...]) -> list[str]:
    return [f"{n[e.seat]} plays {card_str(e.card)}{_clock(e.auto)}"]


@_human.register
def _human_order(e: g.Ordered, n: tuple[str, ...]) -> list[str]:
    first = " (the turned suit)" if e.first else ""
    return [f"{n[e.player]} plays in {SUIT_SYMBOLS[SUITS[e.trump]]}{first}; "
            f"the others whistle. Fresa: {_card(e.fresa) or '-'}."]


@_human.register
def _human_trick(e: g.TrickTaken, n: tuple[str, ...]) -> list[str]:
    return [f"{n[e.winner]} takes the trick ({' '.join(_cards(e.cards))})."]


@_human.register
def _human_shown(e: g.Shown, n: tuple[str, ...]) -> list[str]:
    return [f"{n[e.seat]} shows: {' '.join(_cards(e.cards))}"]


@_human.register
def _human_start(e: g.MatchStarted, n: tuple[str, ...]) -> list[str]:
    return [f"The game starts: {' v '.join(n)}."]


@_human.register
def _human_deal(e: g.DealStarted, n: tuple[str, ...]) -> list[str]:
    hang = f" Hanging: {e.hanging}." if e.hanging else ""
    return [f"Deal {e.deal}. {n[e.dealer]} deals. Score: {_by_side(n, e.score)}.{hang}"]


@_human.register
def _human_deal_end(e: g.DealEnded, n: tuple[str, ...]) -> list[str]:
    pts = _by_side(n, e.points or [])
    wr = _by_side(n, e.written or [])
    tot = _by_side(n, e.totals)
    return [f"Deal {e.deal}: {e.outcome}. Points: {pts or '-'}. Written: {wr or '-'}. "
            f"Totals: {tot}."]


@_human.register
def _human_match_end(e: g.MatchEnded, n: tuple[str, ...]) -> list[str]:
    tot = _by_side(n, e.totals)
    if not e.winners:
        return [f"Game over: a draw ({e.reason}). Totals: {tot}."]
    verb = "win" if len(e.winners) > 1 else "wins"
    return [f"Game over: {' and '.join(e.winners)} {verb} ({e.reason}). Totals: {tot}."]


_human.register(ev.Seated, lambda e, n: [f"{e.name} sits at seat {e.seat}."])
_human.register(ev.Left, lambda e, n: [f"{e.name} leaves seat {e.seat}."])
_human.register(ev.WentAway, lambda e, n: [
    f"{e.name} is disconnected; the seat waits and the clock runs."])
_human.register(ev.CameBack, lambda e, n: [f"{e.name} is back."])


def _clock(auto: bool) -> str:
    return " (clock)" if auto else ""


def _card(card: Card | None) -> str | None:
    return None if card is None else card_str(card)


def _view_fields(v: SeatView, clock_ms: int | None) -> list[tuple[str, Any]]:
    return [
        ("deal", v.deal_no), ("phase", v.phase), ("seat", v.seat), ("dealer", v.dealer),
        ("to_act", v.to_act), ("hand", _cards(v.hand)),
        ("turned", card_str(v.turned) if v.turned is not None else None),
        ("fresa", card_str(v.fresa) if v.fresa is not None else None),
        ("trump", _suit(v.trump)), ("player", v.player), ("round", v.bid_round),
        ("leader", v.leader), ("trick", [card_str(c) for _, c in v.trick]),
        ("tricks", v.tricks_taken), ("score", v.totals), ("hanging", v.hanging),
        ("target", v.target),
        ("pending", None if v.pending is None else f"{v.pending[0]}:{v.pending[1]}:{v.pending[2]}"),
        ("shown", [f"{s}:{card_str(c)}" for s, cs in sorted(v.shown.items()) for c in cs]),
        ("talk", [f"{s}:{t}" for s, t in v.talk]),
        ("clock", clock_ms), ("legal", list(v.legal)), ("players", len(v.names)),
    ]


def _ask(e: ev.Ask, machine: bool) -> list[str]:
    v = e.view
    if machine:
        return [line(e.kind, [("seq", e.seq), ("table", e.table), *_view_fields(v, e.clock_ms)])]
    n = v.names
    score = _by_side(n, v.totals)
    out = [f"Table {e.table}, deal {v.deal_no}. Dealer: {n[v.dealer]}. Score: {score}."]
    if v.trump is not None:
        out.append(f"Trump: {SUIT_SYMBOLS[SUITS[v.trump]]} ({_name(n, v.player)} plays)."
                   + (f" Turned: {pretty_card(v.turned)}." if v.turned is not None else ""))
    elif v.turned is not None:
        out.append(f"Turned card: {pretty_card(v.turned)} — first trump would be "
                   f"{SUIT_SYMBOLS[SUITS[v.turned >> 3]]}. Bidding round {v.bid_round}.")
    if v.trick:
        out.append("Trick: " + ", ".join(f"{n[s]} {pretty_card(c)}" for s, c in v.trick))
    if v.hand:
        out.append(f"Your hand: {pretty_hand(v.hand)}")
    if v.pending is not None:
        kind, asker, answerer = v.pending
        if kind == SWAP_Q:  # the table asks every seat in turn, nobody asked it
            out.append("Before the last cards each seat in turn may swap the trump 7 for "
                       f"the turned card: {n[answerer]} to answer (menyayu or ne-menyayu).")
        else:
            out.append(f"{n[asker]} asked {kind}; {n[answerer]} must answer.")
    if e.kind == ev.AskKind.ASK and v.legal:
        cards = [t for t in v.legal if t[0].isdigit() or t[0] in "JQKA"]
        talk = [t for t in v.legal if t not in cards]
        options = " | ".join(talk + ([", ".join(cards)] if cards else []))
        clock = f" [{e.clock_ms // 1000} s]" if e.clock_ms is not None else ""
        out.append(f"Your call{clock}: {options}")
    elif v.to_act is not None and v.seat != v.to_act:
        out.append(f"Waiting for {n[v.to_act]}.")
    return out


def _human_record(record: dict[str, Any]) -> list[str]:
    names = record["players"]
    played: dict[int, list[str]] = {}
    for trick in record["tricks"]:
        seat = trick["leader"]
        for card in trick["cards"]:
            played.setdefault(seat, []).append(card)
            seat = (seat + 1) % len(names)
    hands = "; ".join(f"{names[s]}: {' '.join(cs)}" for s, cs in sorted(played.items()))
    return [f"Deal {record['deal_no']} in full — cards played: {hands or 'none (void)'}."]
