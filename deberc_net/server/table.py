"""One table: its seats, observers, match and clock, owned by one trio task.

Everything that changes a table arrives as a message on its inbox and is handled by
``Table.run`` alone, so there are no locks and no two calls can interleave. The task
sends public events to everyone at the table, private state only to its own seat, and
stores each finished deal before it starts the next one.
"""

from __future__ import annotations

import math
import secrets
from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.game.cards import PLAIN_STRENGTH, SUITS, TRUMP_STRENGTH, card_str
from deberc_net.game.deal import DONE
from deberc_net.game.deal import PLAY as PLAY_PHASE
from deberc_net.game.errors import IllegalCall
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import render
from deberc_net.protocol.vocabulary import CallSyntaxError, parse_call

from .accounts import name_key
from .config import Config
from .session import Session

if TYPE_CHECKING:
    from .lobby import Lobby

log = structlog.get_logger("deberc.table")


@attrs.frozen
class Sit:
    session: Session
    seat: int | None


@attrs.frozen
class Leave:
    session: Session


@attrs.frozen
class TableCall:
    session: Session
    text: str
    seq: int | None


@attrs.frozen
class Observe:
    session: Session


@attrs.frozen
class Unobserve:
    session: Session


@attrs.frozen
class Away:
    name: str


@attrs.frozen
class Back:
    session: Session


@attrs.frozen
class ShowState:
    session: Session


@attrs.frozen
class Say:
    session: Session
    text: str


@attrs.frozen
class Stop:
    reason: str


Message = Sit | Leave | TableCall | Observe | Unobserve | Away | Back | ShowState | Say | Stop
# What a client asks for itself (a call, 'state', 'say', 'sit', 'leave', 'observe', ...)
# is a request: each session may have only a few waiting. What the server posts on its
# own (a seek's seating, away and back, stop) is control, and never refused. So the
# inbox holds at most a few messages per connection, and nobody can crowd out another.
Posted = tuple[Message, bool]  # the message, and whether it counts as its session's request


def _requester(message: Message) -> Session | None:
    return None if isinstance(message, Away | Stop) else message.session


@attrs.define(eq=False)
class Table:
    id: int
    rules: RuleSet
    lobby: Lobby
    config: Config
    match_number: int
    seed: str | None = None
    reserved: tuple[str, ...] | None = None  # a ladder's board: these names, these seats
    opened_from: str | None = None  # the address whose 'new' opened it (per-address cap)
    deal_limit: int | None = None  # end the match after so many deals (a board: 1)
    seats: list[str | None] = attrs.field(init=False)
    observers: set[Session] = attrs.field(init=False, factory=set)
    match: Match | None = attrs.field(init=False, default=None)
    seq: int = attrs.field(init=False, default=0)
    state: str = attrs.field(init=False, default="waiting")
    asked_at: float = attrs.field(init=False, default=0.0)
    asked_seq: int = attrs.field(init=False, default=0)  # the seq of the open request
    timeouts: list[int] = attrs.field(init=False)
    away_since: dict[int, float] = attrs.field(init=False, factory=dict)
    bot_seats: list[bool] = attrs.field(init=False, factory=list)  # machine style at start
    forfeited: int | None = attrs.field(init=False, default=None)  # the seat that lost so
    deal_started: float = attrs.field(init=False, default=0.0)
    inbox: trio.MemorySendChannel[Posted] = attrs.field(init=False)
    _receive: trio.MemoryReceiveChannel[Posted] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        n = self.rules.settings.players
        self.seats = [None] * n
        self.timeouts = [0] * n
        # unbounded, but bounded in fact: see Posted
        self.inbox, self._receive = trio.open_memory_channel[Posted](math.inf)
        if self.reserved is not None:
            # a board's players are away until they sit: one that never comes (hung, or
            # no longer seeking) forfeits after the away limit instead of stalling a ladder
            now = trio.current_time()
            self.away_since = dict.fromkeys(range(n), now)

    # ---------------------------------------------------------------- public
    @property
    def players(self) -> int:
        return self.rules.settings.players

    def info(self) -> ev.TableInfo:
        return ev.TableInfo(
            id=self.id, players=self.players, variant=self.rules.variant,
            options=tuple(sorted(self.rules.options)), seats=tuple(self.seats),
            state=self.state, observers=len(self.observers),
        )

    def post(self, message: Message, *, request: bool = False) -> bool:
        """Hand a message to the table task; False (and nothing done) if the table has
        closed, or if it is a ``request`` of a session that already has its share
        waiting. Control messages (the default) are never refused."""
        session = _requester(message) if request else None
        quota = self.config.table_requests_waiting
        if session is not None and session.requests_waiting >= quota:
            return False
        try:
            self.inbox.send_nowait((message, session is not None))
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        if session is not None:
            session.requests_waiting += 1
        return True

    # ------------------------------------------------------------------ task
    async def run(self) -> None:
        bound = log.bind(table=self.id)
        bound.info("table_open", variant=self.rules.variant, options=sorted(self.rules.options))
        try:
            async with self._receive:
                while self.state != "closed":
                    deadline = self._deadline()
                    with trio.move_on_at(deadline) as scope:
                        posted = await self._receive.receive()
                    if scope.cancelled_caught:
                        await self._guarded(self._on_clock())
                        continue
                    await self._guarded(self._handle(*posted))
                while True:  # what was queued before the table closed gets its answer
                    try:
                        posted = self._receive.receive_nowait()
                    except trio.WouldBlock:
                        break
                    await self._guarded(self._handle(*posted))
        finally:
            self.lobby.table_closed(self)
            bound.info("table_closed")

    async def _guarded(self, step: Any) -> None:
        """A bug in one message's handling must not take the server down: log it and
        close this table, telling its players."""
        try:
            await step
        except Exception:
            log.exception("table_error", table=self.id)
            for target in self._audience():
                target.send(ev.Error("internal", f"table {self.id} failed and closes; sorry"))
            self.state = "closed"

    def _deserted(self) -> bool:
        """A waiting table (not a board) whose seated players have all left the server."""
        seated = [s for s, who in enumerate(self.seats) if who is not None]
        return (self.match is None and self.reserved is None and bool(seated)
                and all(s in self.away_since for s in seated))

    def _deadline(self) -> float:
        match = self.match
        if self._deserted():  # nobody here to play: the table is not kept for long
            return max(self.away_since.values()) + self.config.empty_table_ms / 1000
        if match is None and self.away_since:  # a waiting table holds a seat so long
            return min(self.away_since.values()) + self.config.away_limit_ms / 1000
        if match is None or match.over or match.to_act is None:
            return math.inf
        seat = match.to_act
        deadline = self.asked_at + self._clock_ms(seat) / 1000
        if self.away_since:
            limit = self.config.away_limit_ms / 1000
            deadline = min(deadline, min(self.away_since.values()) + limit)
        return deadline

    def _fresa(self, deal: Any) -> str | None:
        fresa = deal.fresa if self.rules.settings.fresa_visible else None
        return card_str(fresa) if fresa is not None else None

    def _clock_ms(self, seat: int) -> int:
        """The seat's clock per call: a bot's if it played in the machine style when the
        match started (a reconnect in another style does not change it). Clocks run only
        once the match has started."""
        bot = seat < len(self.bot_seats) and self.bot_seats[seat]
        base = self.config.bot_clock_ms if bot else self.config.human_clock_ms
        return base + self.config.lag_ms

    def _session(self, seat: int) -> Session | None:
        name = self.seats[seat]
        return self.lobby.online.get(name_key(name)) if name else None

    async def _handle(self, message: Message, request: bool = False) -> None:
        session = _requester(message) if request else None
        if session is not None:
            session.requests_waiting -= 1
        match message:
            case Sit(session, seat):
                self._sit(session, seat)
            case Leave(session):
                await self._leave(session)
            case TableCall(session, text, seq):
                await self._call(session, text, seq)
            case Observe(session):
                self.observers.add(session)
                session.observing.add(self.id)
                session.send(ev.Ok("observe", f"You observe table {self.id}.",
                                   (("table", str(self.id)),)))
                self._send_state(session, None)
            case Unobserve(session):
                self.observers.discard(session)
                session.observing.discard(self.id)
            case Away(name):
                seat = self._seat_of(name)  # the seat is held for the away limit, waiting
                if seat is not None and (self.match is None or not self.match.over):
                    self.away_since[seat] = trio.current_time()
                    self._event("away", name=name, seat=seat)
            case Back(session):
                seat = self._seat_of(session.name or "")
                if seat is not None and self.state != "closed":
                    session.table, session.seat = self, seat
                    self.away_since.pop(seat, None)
                    self._event("back", name=session.name, seat=seat)
                    self._send_state(session, seat)
                elif session.table is self:  # it closed meanwhile: back in the lobby
                    session.table, session.seat = None, None
            case ShowState(session):
                self._send_state(session, session.seat if session.table is self else None)
            case Say(session, text):
                for target in self._audience():
                    target.send(ev.Said(session.name or "?", text, self.id))
            case Stop(reason):
                await self._stop(reason)

    # -------------------------------------------------------------- seating
    def _seat_of(self, name: str) -> int | None:
        for seat, who in enumerate(self.seats):
            if who is not None and name_key(who) == name_key(name):
                return seat
        return None

    def _sit(self, session: Session, seat: int | None) -> None:
        name = session.name
        if name is None or session.closed:  # logged in elsewhere meanwhile, or gone
            self._refuse_sit(session, None)
            return
        problem = self._why_not_sit(session, name, seat)
        if isinstance(problem, ev.Error):
            self._refuse_sit(session, problem)
            return
        seat = problem
        self.seats[seat] = name
        self.away_since.pop(seat, None)
        session.table, session.seat = self, seat
        if session in self.observers:  # a seat sees more than an observer
            self.observers.discard(session)
            session.observing.discard(self.id)
        session.send(ev.Ok("sit", f"You sit at table {self.id}, seat {seat}.",
                           (("table", str(self.id)), ("seat", str(seat)))))
        self._event("seated", name=name, seat=seat)
        if all(self.seats):
            self._start()

    def _why_not_sit(self, session: Session, name: str, seat: int | None) -> int | ev.Error:
        """The seat ``session`` gets, or the error that says why it gets none."""
        if self.state != "waiting":
            return ev.Error("table-full", f"table {self.id} is already playing")
        if session.table is not None and session.table is not self:
            return ev.Error("already-seated", f"you sit at table {session.table.id}: "
                            "'leave' first")
        if self._seat_of(name) is not None:
            return ev.Error("already-seated", f"you already sit at table {self.id}")
        free = [s for s, who in enumerate(self.seats) if who is None]
        if self.reserved is not None:  # a board: only its players, each in its seat
            keys = [name_key(n) for n in self.reserved]
            if name_key(name) not in keys:
                return ev.Error("seat-reserved", f"table {self.id} is reserved")
            seat = keys.index(name_key(name))
        if seat is None:
            seat = free[0] if free else None
        if seat is None or seat not in free:
            text = f"seat {seat} is not free" if seat is not None else "no free seat"
            return ev.Error("seat-taken", f"{text} at table {self.id}")
        return seat

    def _refuse_sit(self, session: Session, error: ev.Error | None) -> None:
        if error is not None:
            session.send(error)
        if session.table is self and session.seat is None:  # 'new' had promised it
            session.table = None
        if self.match is None and self.reserved is None and not any(self.seats):
            self.state = "closed"  # a table nobody ever sat at is not kept

    async def _leave(self, session: Session) -> None:
        if session in self.observers:
            self.observers.discard(session)
            session.observing.discard(self.id)
            session.send(ev.Ok("leave", f"You stop observing table {self.id}."))
            return
        seat = self._seat_of(session.name or "")
        if seat is None:
            session.send(ev.Error("not-seated", f"you do not sit at table {self.id}"))
            return
        session.table, session.seat = None, None
        session.send(ev.Ok("leave", f"You leave table {self.id}."))
        if self.match is not None and not self.match.over:
            await self._forfeit(seat, "left")
            return
        self._free_seat(seat, session.name or "?")

    def _free_seat(self, seat: int, name: str) -> None:
        self.seats[seat] = None
        self._event("left", name=name, seat=seat)
        if self.reserved is not None:  # a board waits for its player, or its forfeit
            self.away_since[seat] = trio.current_time()
        elif not any(self.seats):
            self.state = "closed"

    # ----------------------------------------------------------------- play
    def _start(self) -> None:
        names = tuple(s for s in self.seats if s is not None)
        seed = self.seed or secrets.token_hex(8)
        self.match = Match(
            self.rules, seed=seed, names=names, table=str(self.id),
            match_id=f"m{self.match_number}",
        )
        self.state = "playing"
        self.bot_seats = [bool(s and s.machine) for s in map(self._session, range(self.players))]
        log.info("match_start", table=self.id, match=self.match.match_id, players=names)
        # not the seed: every deck follows from it (it is told at the match's end)
        self._event("start", players=list(names), match=self.match.match_id)
        for seat in range(self.players):  # seated, then disconnected before the start
            if self._session(seat) is None:
                self.away_since[seat] = trio.current_time()
                self._event("away", name=self.seats[seat], seat=seat)
        self._deal_started()

    def _deal_started(self) -> None:
        match = self.match
        assert match is not None
        deal = match.deal
        self.deal_started = trio.current_time()
        self._event("deal", deal=deal.deal_no, dealer=deal.dealer,
                    turned=card_str(deal.turned), score=list(match.totals),
                    hanging=match.hanging)
        self._refresh_all()

    def _refresh_all(self) -> None:
        """Every seat sees its new state; the seat to act gets the request."""
        match = self.match
        assert match is not None
        for seat in range(self.players):
            session = self._session(seat)
            if session is not None and seat != match.to_act:
                self._send_state(session, seat)
        self._ask()

    def _ask(self) -> None:
        match = self.match
        assert match is not None
        self.asked_at = trio.current_time()
        self.asked_seq = self.seq
        if match.over or match.to_act is None:
            return
        seat = match.to_act
        session = self._session(seat)
        if session is not None:
            session.send(ev.Ask(self.seq, self.id, view(match, seat), self._clock_ms(seat)))

    def _send_state(self, session: Session, seat: int | None) -> None:
        match = self.match
        if match is None:
            session.send(ev.Info(f"Table {self.id} waits for players: "
                                 + ", ".join(s or "(free)" for s in self.seats)))
            return
        kind = "ask" if seat is not None and seat == match.to_act and not match.over else "state"
        clock = self._clock_ms(seat) if seat is not None else None
        if kind == "ask" and clock is not None:  # the request stands: the clock left on it
            clock = max(0, int((self.asked_at - trio.current_time()) * 1000) + clock)
        session.send(ev.Ask(self.seq, self.id, view(match, seat), clock, kind=kind))

    async def _call(self, session: Session, text: str, seq: int | None) -> None:
        match = self.match
        seat = self._seat_of(session.name or "")
        if seat is None:
            session.send(ev.Error("not-seated", "sit at a table to make table calls"))
            return
        if match is None or match.over:
            session.send(ev.Error("wrong-phase", "the game has not started"
                                  if match is None else "the game is over"))
            return
        # events after the request (someone away or back) do not make it stale
        if seq is not None and not self.asked_seq <= seq <= self.seq:
            text = f"that answers request {seq}; the open request is {self.asked_seq}"
            session.send(ev.Error("stale", text))
            return
        legal = match.legal_calls(seat)
        try:
            call = parse_call(text, legal, self.rules.call_aliases)
        except CallSyntaxError as exc:
            session.send(ev.Error("unknown-command", f"{exc}. Type 'help' or 'calls'."))
            return
        try:
            await self._apply(seat, call, auto=False)
        except IllegalCall as exc:
            session.send(ev.Error(exc.code, exc.message))
            return
        self.timeouts[seat] = 0

    async def _apply(self, seat: int, call: Call, *, auto: bool) -> None:
        match = self.match
        assert match is not None
        deal = match.deal
        tricks_before = len(deal.tricks)
        shown_before = set(deal.shown)
        ordered_before = deal.trump is not None
        dealt_before = deal.phase == PLAY_PHASE or deal.tricks
        log_before = len(deal.log)
        ms = int((trio.current_time() - self.deal_started) * 1000)
        match.apply(seat, call, ms=ms, auto=auto)  # raises with nothing changed
        for entry in deal.log[log_before:]:
            if entry.penalty:  # table-penalties: the call is punished, not carried out
                self._event("penalty", seat=entry.seat, call=entry.call.token(),
                            code=entry.penalty)
            elif entry.call.name == C.PLAY:
                assert entry.call.card is not None
                self._event("play", seat=entry.seat, card=card_str(entry.call.card),
                            auto=entry.auto)
            else:
                self._event("call", seat=entry.seat, call=entry.call.token(), auto=entry.auto)
        if not ordered_before and deal.trump is not None:
            self._event("order", player=deal.player, trump=SUITS[deal.trump],
                        first=deal.first_trump, fresa=self._fresa(deal))
        dealt = not dealt_before and deal.phase == PLAY_PHASE
        if dealt and deal.phase == PLAY_PHASE and deal.log[log_before:] and ordered_before:
            self._event("dealt", fresa=self._fresa(deal))  # after a pause past the order
        for trick in deal.tricks[tricks_before:]:
            self._event("trick", winner=trick.winner, cards=[card_str(c) for _, c in trick.cards])
        for shown_seat in sorted(set(deal.shown) - shown_before):
            self._event("shown", seat=shown_seat,
                        cards=[card_str(c) for c in deal.shown[shown_seat]])
        if deal.phase == DONE:
            await self._deal_over(deal.deal_no)
        elif dealt:
            self._refresh_all()  # the last cards are in every hand
        else:
            self._ask()

    async def _deal_over(self, deal_no: int) -> None:
        match = self.match
        assert match is not None
        record = match.records[-1]
        await trio.to_thread.run_sync(self.lobby.store.add_deal, record)
        log.info("deal", table=self.id, match=match.match_id, deal=deal_no,
                 outcome=record["outcome"], written=record["written"], totals=record["totals"])
        self._event("deal-end", deal=deal_no, outcome=record["outcome"],
                    points=record["points"], written=record["written"],
                    totals=record["totals"], hanging=record["hanging"])
        if not match.over:  # the seed of a deal would tell the decks still to come
            record = {**record, "seed": None}
        for target in self._audience():
            target.send(ev.DealRecord(self.id, record))
        if self.deal_limit is not None and len(match.records) >= self.deal_limit:
            match.stop("deals")
        if match.over:
            await self._match_over()
        else:
            self._deal_started()

    async def _match_over(self) -> None:
        match = self.match
        assert match is not None and match.result is not None
        winner = match.result.winner
        sides = match.rules.settings.sides()
        side_names = [] if winner is None else [match.names[s] for s in sides[winner]]
        reason = match.result.reason
        seeds = {r["deal_no"]: r["seed"] for r in match.records}  # told now the match is over
        await trio.to_thread.run_sync(  # on disk before anyone is told ('games' lists it)
            lambda: self.lobby.store.finish_match(
                match.match_id, self.id, list(match.names), self.rules.variant,
                sorted(self.rules.options), ",".join(side_names), reason,
                list(match.totals), seeds,
            )
        )
        forfeit = {} if self.forfeited is None else {"forfeit": self.forfeited}
        self._event("match-end", winner=winner, name=",".join(side_names) or None,
                    reason=match.result.reason, totals=list(match.totals), seed=match.seed,
                    **forfeit)
        log.info("match_end", table=self.id, match=match.match_id, winner=side_names,
                 reason=match.result.reason, totals=match.totals)
        self.state = "closed"  # what came meanwhile is answered as the task ends
        for seat in range(self.players):
            session = self._session(seat)
            if session is not None and session.table is self:
                session.table, session.seat = None, None

    async def _forfeit(self, seat: int, reason: str) -> None:
        match = self.match
        assert match is not None
        recorded = len(match.records)
        match.forfeit(match.rules.settings.sides().index(
            next(side for side in match.rules.settings.sides() if seat in side)), reason)
        self.forfeited = seat
        for record in match.records[recorded:]:  # the deal it ended, as it stood
            await trio.to_thread.run_sync(self.lobby.store.add_deal, record)
            for target in self._audience():
                target.send(ev.DealRecord(self.id, record))
        await self._match_over()

    async def _no_show(self, seat: int) -> None:
        """A reserved seat stayed empty (or away) past the away limit: the board is lost
        by that seat, as if the match had started with the seat away."""
        assert self.reserved is not None
        self.match = Match(
            self.rules, seed=self.seed or secrets.token_hex(8), names=self.reserved,
            table=str(self.id), match_id=f"m{self.match_number}",
        )
        self.state = "playing"
        await self._forfeit(seat, "away")

    async def _on_clock(self) -> None:
        match = self.match
        now = trio.current_time()
        limit = self.config.away_limit_ms / 1000
        if self._deserted():
            if now - max(self.away_since.values()) >= self.config.empty_table_ms / 1000:
                self._stop_now("its players left")
            return
        if match is None:
            for seat, since in sorted(self.away_since.items()):
                if now - since >= limit and self.reserved is not None:
                    await self._no_show(seat)
                    return
                if now - since >= limit:
                    del self.away_since[seat]
                    self._free_seat(seat, self.seats[seat] or "?")
            return
        if match.over or match.to_act is None:
            return
        for seat, since in sorted(self.away_since.items()):
            if now - since >= limit:
                await self._forfeit(seat, "away")
                return
        seat = match.to_act
        if now - self.asked_at < self._clock_ms(seat) / 1000:
            return  # woke for an away check only
        if seat not in self.away_since:  # an away seat is played for, and forfeits only
            self.timeouts[seat] += 1  # at the away limit (docs/protocol.md §11.3)
        if self.timeouts[seat] >= self.config.max_timeouts:
            await self._forfeit(seat, "timeouts")
            return
        call = automatic_call(match, seat)
        await self._apply(seat, call, auto=True)

    async def _stop(self, reason: str) -> None:
        self._stop_now(reason)

    def _stop_now(self, reason: str) -> None:
        for target in self._audience():
            target.send(ev.Info(f"Table {self.id} closes: {reason}."))
        self.state = "closed"
        for seat in range(self.players):  # back in the lobby: a call now gets a clear error
            session = self._session(seat)
            if session is not None and session.table is self:
                session.table, session.seat = None, None

    # -------------------------------------------------------------- helpers
    def _audience(self) -> list[Session]:
        seated = [s for s in (self._session(i) for i in range(self.players)) if s is not None]
        return seated + [o for o in self.observers if o not in seated]

    def _event(self, kind: str, **fields: Any) -> None:
        self.seq += 1
        names = tuple(s or "-" for s in self.seats)
        event = ev.TableEvent(self.seq, self.id, kind, names, fields)
        rendered: dict[str, list[str]] = {}  # one rendering per style, not per listener
        for target in self._audience():
            lines = rendered.get(target.style)
            if lines is None:
                lines = rendered[target.style] = render(event, target.style)
            target.send_lines(lines)


def automatic_call(match: Match, seat: int) -> Call:
    """What the clock says for a seat out of time: pass, the forced answer, the lowest card."""
    legal = match.legal_calls(seat)
    names = [c.name for c in legal]
    for wanted in (C.PAS, C.OT, C.PROKHODIT, C.NE_PROKHODIT, C.POKAZYVAYU, C.PISHET):
        if wanted in names:
            return legal[names.index(wanted)]
    cards = [c for c in legal if c.name == C.PLAY]
    if cards:
        trump = match.deal.trump

        def strength(call: Call) -> tuple[int, int]:
            card = call.card
            assert card is not None
            if card >> 3 == trump:
                return (1, TRUMP_STRENGTH[card & 7])
            return (0, PLAIN_STRENGTH[card & 7])

        return min(cards, key=strength)
    return legal[0]
