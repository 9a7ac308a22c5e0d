"""Server events to text lines, in the human or the machine style (sans-IO).

Machine lines: a stable tag, then ``key=value`` fields; lists are comma-separated, an
empty value is empty, ``-`` means none; only a last field named ``text`` may hold
spaces. Fields are only ever appended.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from deberc_net.game.cards import RANKS, SUIT_SYMBOLS, SUITS, Card, card_str
from deberc_net.game.view import SeatView

from . import events as ev

HUMAN = "human"
MACHINE = "machine"


def _value(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, (list, tuple)):
        return ",".join(_value(x) for x in v)
    return str(v).replace(" ", "_")


def line(tag: str, fields: Iterable[tuple[str, Any]] = (), text: str | None = None) -> str:
    parts = [tag, *(f"{k}={_value(v)}" for k, v in fields)]
    if text is not None:
        parts.append(f"text={text}")
    return " ".join(parts)


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
    f = e.fields
    if machine:
        return [line("event", [("seq", e.seq), ("table", e.table), ("kind", e.kind),
                               *f.items()])]
    n = e.names
    k = e.kind
    if k == "deal":
        score = _by_side(n, f["score"])
        hang = f" Hanging: {f['hanging']}." if f.get("hanging") else ""
        return [f"Deal {f['deal']}. {n[f['dealer']]} deals. Score: {score}.{hang}"]
    if k == "call":
        auto = " (clock)" if f.get("auto") else ""
        return [f"{n[f['seat']]}: {f['call']}{auto}"]
    if k == "play":
        auto = " (clock)" if f.get("auto") else ""
        return [f"{n[f['seat']]} plays {f['card']}{auto}"]
    if k == "order":
        first = " (the turned suit)" if f["first"] else ""
        return [f"{n[f['player']]} plays in {SUIT_SYMBOLS[f['trump']]}{first}; "
                f"the others whistle. Fresa: {f['fresa'] or '-'}."]
    if k == "trick":
        return [f"{n[f['winner']]} takes the trick ({' '.join(f['cards'])})."]
    if k == "shown":
        return [f"{n[f['seat']]} shows: {' '.join(f['cards'])}"]
    if k == "deal-end":
        pts = _by_side(n, f["points"] or [])
        wr = _by_side(n, f["written"] or [])
        tot = _by_side(n, f["totals"])
        return [f"Deal {f['deal']}: {f['outcome']}. Points: {pts or '-'}. Written: {wr or '-'}. "
                f"Totals: {tot}."]
    if k == "match-end":
        tot = _by_side(n, f["totals"])
        winners = f.get("name")
        if not winners:
            return [f"Game over: a draw ({f['reason']}). Totals: {tot}."]
        verb = "win" if "," in winners else "wins"
        return [f"Game over: {winners.replace(',', ' and ')} {verb} ({f['reason']}). "
                f"Totals: {tot}."]
    if k == "seated":
        return [f"{f['name']} sits at seat {f['seat']}."]
    if k == "left":
        return [f"{f['name']} leaves seat {f['seat']}."]
    if k == "away":
        return [f"{f['name']} is disconnected; the seat waits and the clock runs."]
    if k == "back":
        return [f"{f['name']} is back."]
    if k == "start":
        return [f"The game starts: {' v '.join(n)}."]
    return [f"{k}: " + " ".join(f"{a}={_value(b)}" for a, b in f.items())]


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
        out.append(f"{n[asker]} asked {kind}; {n[answerer]} must answer.")
    if e.kind == "ask" and v.legal:
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
