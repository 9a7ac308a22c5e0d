"""The table as a person sees it: a pure fold over the server's machine-style lines.

``fold(state, line)`` returns the next state; nothing here touches a terminal or a
socket, so every rule of what is shown is unit-tested on lines alone. The lines are
split by the project's one parser (deberc_net.protocol.wire).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from deberc_net.game.calls import MENYAYU
from deberc_net.protocol.wire import EventKind, Line, Tag, View, WireError, parse_line

from .cards import cards, suit

LOG_KEEP = 200  # lines of talk and notices kept for the log pane


@attrs.frozen
class DealScore:
    """One row of the score: a deal's written points and the totals after it."""

    deal: int
    outcome: str
    written: tuple[int, ...]
    totals: tuple[int, ...]


@attrs.frozen
class TableState:
    # the session
    name: str | None = None
    token: str | None = None  # a guest's resume token (ok cmd=login token=)
    # the table
    table: int | None = None
    seat: int | None = None
    players: tuple[str, ...] = ()  # names by seat ('' for a free seat)
    deal: int = 0
    dealer: int | None = None
    phase: str = ""
    hand: tuple[str, ...] = ()
    turned: str | None = None
    fresa: str | None = None
    trump: str | None = None
    player: int | None = None  # the seat that ordered the game
    # a game with a talon (Tertz): cards left to draw, the turned one included, and the
    # opponent's taken tricks while they are open to see (None: no such game, or closed)
    talon: int | None = None
    their_tricks: tuple[str, ...] | None = None
    trick: tuple[tuple[int, str], ...] = ()  # (seat, card) as laid, leader first
    last_trick: tuple[tuple[int, str], ...] = ()
    tricks: tuple[int, ...] = ()
    to_act: int | None = None
    talk: tuple[tuple[int, str], ...] = ()  # this deal's calls other than cards
    # the open request: its seq, the legal calls and the clock when it came
    asking: bool = False
    seq: int | None = None
    legal: tuple[str, ...] = ()
    clock_ms: int | None = None
    target: int | None = None
    # the score: one row per finished deal (deal-end), the totals before this deal
    score: tuple[int, ...] = ()
    deals: tuple[DealScore, ...] = ()
    result: str | None = None  # the match's end, in words
    log: tuple[str, ...] = ()  # talk, notices and errors, oldest first

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "-"
        if 0 <= seat < len(self.players) and self.players[seat]:
            return self.players[seat]
        return f"seat {seat}"

    @property
    def seats(self) -> int:
        return len(self.players)


# the lines of the lobby's lists the client has no view for: logged as the server says them
LISTED = frozenset(
    {Tag.TOP, Tag.FINGER, Tag.RATED, Tag.HISTORY, Tag.HISTORY_DEAL, Tag.HISTORY_TRICK}
)


def _log(state: TableState, *lines: str) -> TableState:
    return attrs.evolve(state, log=(*state.log, *lines)[-LOG_KEEP:])


def _pair(numbers: tuple[int, ...]) -> str:
    return " : ".join(map(str, numbers))


def fold_all(lines: Iterable[str], state: TableState | None = None) -> TableState:
    state = state or TableState()
    for line in lines:
        state = fold(state, line)
    return state


def fold(state: TableState, raw: str) -> TableState:
    """The state after one line from the server. A line that does not follow the grammar
    is logged as it came, and changes nothing else."""
    line = parse_line(raw)
    try:
        return _fold(state, line)
    except WireError as exc:
        return _log(state, f"(unreadable line: {exc})")


def _fold(state: TableState, line: Line) -> TableState:
    tag = line.tag
    if tag in (Tag.ASK, Tag.STATE):
        return _view(state, View.from_line(line))
    if tag == Tag.EVENT:
        return _event(state, line)
    if tag == Tag.OK:
        return _ok(state, line)
    if tag == Tag.ERROR:
        return _log(state, f"! {line.text or line.get_str('code')}")
    if tag == Tag.SAY:
        where = "" if line.get_str("table") is None else " (table)"
        return _log(state, f"{line.get_str('from')}{where}: {line.text or ''}")
    if tag == Tag.WHO:
        return _log(state, f"here: {', '.join(line.get_list('names')) or 'nobody'}")
    if tag == Tag.TABLES:
        return _log(state, f"{line.get_int('total') or 0} open tables")
    if tag == Tag.TABLE:
        seats = " ".join(name if name != "-" else "(free)" for name in line.get_list("seats"))
        options = ",".join(line.get_list("options")) or "-"
        return _log(
            state,
            f"table {line.get_str('id')}: {line.get_str('variant')} "
            f"{options} [{seats}] {line.get_str('state')}",
        )
    if tag in (Tag.INFO, Tag.BYE, Tag.HELP, Tag.RULES, Tag.INVITE, Tag.REMATCH):
        return _log(state, line.text or "")
    if tag in LISTED:  # 'top', 'finger', 'history': shown as they came
        return _log(state, line.line)
    if tag == Tag.RECORD:
        return state  # the deal in full: the score already came with deal-end
    if isinstance(tag, Tag):
        return state
    return _log(state, line.line) if line.line.strip() else state  # the banner


def _ok(state: TableState, line: Line) -> TableState:
    cmd = line.get_str("cmd")
    if cmd == "login":
        state = attrs.evolve(
            state, name=line.get_str("name"), token=line.get_str("token") or state.token
        )
    elif cmd == "sit":
        state = attrs.evolve(
            TableState(name=state.name, token=state.token, log=state.log),
            table=line.get_int("table"),
            seat=line.get_int("seat"),
        )
    elif cmd == "leave" and state.result is None:
        state = TableState(name=state.name, token=state.token, log=state.log)
    if cmd in ("style", "clock", "ping"):
        return state
    return _log(state, line.text or f"ok {cmd}")


def _view(state: TableState, view: View) -> TableState:
    seats = view.players or max(len(state.players), len(view.score), 2)
    trick_seats = [(view.leader + i) % seats for i in range(len(view.trick))]
    talk = []
    for item in view.talk:
        seat, _, token = item.partition(":")
        talk.append((int(seat) if seat.isdigit() else -1, token))
    players = state.players if len(state.players) == seats else ("",) * seats
    asking = view.kind == Tag.ASK
    talon = view.raw.get("talon")
    theirs = view.raw.get("their_tricks")
    return attrs.evolve(
        state,
        table=view.table,
        seat=view.seat,
        players=players,
        deal=view.deal,
        dealer=view.dealer,
        phase=view.phase,
        hand=tuple(view.hand),
        turned=view.turned,
        fresa=view.fresa,
        trump=view.trump,
        player=view.player,
        talon=int(talon) if talon is not None and talon.isdigit() else None,
        their_tricks=tuple(theirs.split(",")) if theirs and theirs != "-" else None,
        trick=tuple(zip(trick_seats, view.trick, strict=True)),
        tricks=tuple(view.tricks),
        to_act=view.to_act,
        talk=tuple(talk),
        asking=asking,
        seq=view.seq,
        legal=tuple(view.legal),
        clock_ms=view.clock_ms if asking else None,
        target=view.target,
        score=tuple(view.score),
    )


# the events after which an earlier request no longer stands (away/back do not spoil it)
_MOVES = frozenset(
    {
        EventKind.CALL,
        EventKind.PLAY,
        EventKind.ORDER,
        EventKind.DEALT,
        EventKind.TRICK,
        EventKind.DEAL,
        EventKind.DEAL_END,
        EventKind.MATCH_END,
        EventKind.PENALTY,
    }
)


def _event(state: TableState, line: Line) -> TableState:
    kind = line.kind
    if kind in _MOVES:  # the table moved on: the next ask (if any) brings the new request
        state = attrs.evolve(state, asking=False, legal=(), clock_ms=None)
    if kind == EventKind.SEATED or kind == EventKind.LEFT:
        seat = line.require_int("seat")
        names = list(state.players) + [""] * (seat + 1 - len(state.players))
        names[seat] = line.require("name") if kind == EventKind.SEATED else ""
        verb = "sits at" if kind == EventKind.SEATED else "leaves"
        return _log(
            attrs.evolve(state, players=tuple(names)), f"{line.require('name')} {verb} seat {seat}"
        )
    if kind == EventKind.START:
        seated = tuple(line.get_list("players"))
        sides = len(seated) if len(seated) < 4 else 2  # four players: two pairs
        return _log(
            attrs.evolve(state, players=seated, deals=(), result=None, score=(0,) * sides),
            f"the game starts: {' v '.join(seated)}",
        )
    if kind == EventKind.DEAL:
        turned = line.get_str("turned")
        # a game with a talon (its views said so) has no bidding: the turned card is trump
        talon_game = state.talon is not None
        return _log(
            attrs.evolve(
                state,
                deal=line.require_int("deal"),
                dealer=line.get_int("dealer"),
                turned=turned,
                fresa=None,
                trump=turned[-1:] if talon_game and turned else None,
                player=None,
                trick=(),
                last_trick=(),
                tricks=(),
                their_tricks=None,
                talk=(),
                score=tuple(line.get_ints("score")),
                phase="play" if talon_game else "bidding",
            ),
            f"deal {line.require_int('deal')}: {state.who(line.get_int('dealer'))} deals",
        )
    if kind == EventKind.CALL:
        seat = line.require_int("seat")
        call = line.require("call")
        nxt = seat if state.phase != "bidding" else (seat + 1) % max(state.seats, 1)
        turned = state.turned
        if call == MENYAYU and turned:  # the trump 7 lies face up in its place from now
            turned = "7" + turned[-1]
        return _log(
            attrs.evolve(state, talk=(*state.talk, (seat, call)), to_act=nxt, turned=turned),
            f"{state.who(seat)}: {call}",
        )
    if kind == EventKind.PLAY:
        seat = line.require_int("seat")
        card = line.require("card")
        hand = tuple(c for c in state.hand if c != card) if seat == state.seat else state.hand
        return attrs.evolve(
            state,
            trick=(*state.trick, (seat, card)),
            hand=hand,
            to_act=(seat + 1) % max(state.seats, 1),
        )
    if kind == EventKind.TRICK:
        winner = line.require_int("winner")
        done = state.trick
        laid = line.get_list("cards")
        if [c for _, c in done] != laid:  # joined mid-trick: trust the event
            done = tuple((-1, c) for c in laid)
        tricks = list(state.tricks) or [0] * max(len(state.score), 2)
        side = winner % len(tricks) if len(tricks) > 1 else 0
        tricks[side] += 1
        return _log(
            attrs.evolve(state, trick=(), last_trick=done, to_act=winner, tricks=tuple(tricks)),
            f"{state.who(winner)} takes {cards(laid)}",
        )
    if kind == EventKind.ORDER:
        trump = line.get_str("trump")
        return _log(
            attrs.evolve(
                state,
                # four players: the turned card goes to the dealer's hand (docs/protocol.md
                # §6.3); a seat's next ask says so too, an observer has only this event
                turned=None if state.seats == 4 else state.turned,
                trump=trump,
                player=line.get_int("player"),
                fresa=line.get_str("fresa"),
                phase="play",
            ),
            f"{state.who(line.get_int('player'))} plays, trump {suit(trump)}",
        )
    if kind == EventKind.DEALT:
        return attrs.evolve(state, fresa=line.get_str("fresa"))
    if kind == EventKind.SHOWN:
        return _log(
            state, f"{state.who(line.get_int('seat'))} shows {cards(line.get_list('cards'))}"
        )
    if kind == EventKind.PENALTY:
        return _log(state, f"{state.who(line.get_int('seat'))}: penalty ({line.get_str('code')})")
    if kind == EventKind.DEAL_END:
        row = DealScore(
            line.require_int("deal"),
            line.require("outcome"),
            tuple(line.get_ints("written")),
            tuple(line.get_ints("totals")),
        )
        return _log(
            attrs.evolve(
                state, deals=(*state.deals, row), score=row.totals, to_act=None, phase="done"
            ),
            f"deal {row.deal} {row.outcome}: written {_pair(row.written)}, "
            f"totals {_pair(row.totals)}",
        )
    if kind == EventKind.MATCH_END:
        winners = line.get_list("name")
        totals = tuple(line.get_ints("totals"))
        verdict = ", ".join(winners) + " wins" if winners else "a draw"
        result = f"Game over: {verdict} ({line.get_str('reason')}), totals {_pair(totals)}"
        return _log(attrs.evolve(state, result=result, to_act=None, score=totals), result)
    if kind == EventKind.AWAY or kind == EventKind.BACK:
        word = "is away" if kind == EventKind.AWAY else "is back"
        return _log(state, f"{line.get_str('name')} {word}")
    return state
