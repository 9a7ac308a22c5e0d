"""One table: its seats, observers, match and clock, owned by one trio task.

Everything that changes a table arrives as a message on its inbox (server/
table_messages.py) and is handled by ``Table.run``, or a call by the reader that got it
while the table's task waited idle (``call_here``, the task kept parked meanwhile): one
at a time, so there are no locks and no two calls can interleave. The table sends
public events to everyone at the table, private state only to its own seat, and stores
each finished deal before it starts the next one.
"""

from __future__ import annotations

import contextlib
import functools
import math
import sys
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import structlog
import trio

from deberc_net.game import events as g
from deberc_net.game import seeding
from deberc_net.game.calls import KONETS, MENYAYU, NE_MENYAYU, PAS, ROST, Call
from deberc_net.game.calls import PLAY as PLAY_CALL  # (phases.PLAY is the phase)
from deberc_net.game.cards import SUIT_SYMBOLS, SUITS, card_str, make, suit_of
from deberc_net.game.clock import Clocks, automatic_call
from deberc_net.game.errors import AnswerRequired, IllegalCall, NotYourTurn
from deberc_net.game.match import Match
from deberc_net.game.outcomes import MatchEndReason, Outcome
from deberc_net.game.phases import BIDDING, PLAY
from deberc_net.game.record_json import reseeded
from deberc_net.game.rules import RuleSet, Settings
from deberc_net.game.sheet import ScoreSheet
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import COMMANDS, SECRET_COMMANDS, stale_answer
from deberc_net.protocol.connection import Tell
from deberc_net.protocol.event_lines import EVENT_LINES
from deberc_net.protocol.framing import encode_lines
from deberc_net.protocol.hints import command_hint, hint, not_a_command, ten_meant
from deberc_net.protocol.lang import Lang, TableWords, ru_call, spoken_call, table_words
from deberc_net.protocol.messages import (
    LEAVE_CONFIRM_S,
    LEAVE_DECLINED,
    LEAVE_YES,
    Msg,
    Phrase,
    count_phrase,
    phrase,
)
from deberc_net.protocol.refusals import refusal_phrase, unread_phrase
from deberc_net.protocol.render import HUMAN, MACHINE, for_people, tagged_lines
from deberc_net.protocol.said_back import said_back
from deberc_net.protocol.vocabulary import (
    WORD_CALLS,
    AmbiguousCall,
    AmbiguousRank,
    CallSyntaxError,
    FirstPersonWrites,
    PlayAlone,
    RankAlone,
    numbered_call_range,
    parse_call,
)

from .accounts import name_key
from .allowance import match_left, may_talk
from .ask_line import KeptTalk, ask_line
from .config import Config
from .inbox import Inbox
from .kept_apart import address_of
from .limits import Bucket
from .rated_news import RatedNews
from .ratings import new_ratings
from .rematch import told_s
from .seat_log import SeatLeft, came_back, seat_left, seat_taken, went_away
from .session import Batch, Session, batched, flush_batch, send_to_each
from .store.base import RatingResult, deal_text, first_error, store_failure, told
from .table_messages import (
    Away,
    Back,
    Closure,
    Dismiss,
    Invite,
    Leave,
    Message,
    Observe,
    Posted,
    Say,
    ShowHistory,
    ShowLast,
    ShowSheet,
    ShowState,
    Sit,
    Stop,
    SummonBot,
    TableCall,
    Unobserve,
    requester_of,
)
from .table_views import (
    last_taken_this_deal,
    pair_answers,
    send_history,
    send_last,
    send_sheet,
    send_state,
)
from .watch_news import WatchNews

if TYPE_CHECKING:
    from .house import HouseBotKind
    from .matchmaking import GameSettings

if TYPE_CHECKING:
    from .lobby import Lobby

log = structlog.get_logger("deberc.table")

T = TypeVar("T")


# the events also told to those told only their asks (``told_ends``): not _event's short way
_TOLD_ENDS = (g.MatchStarted, g.MatchEnded)
# the events ``_tell`` may wait at (the store's writes at a deal's and a match's end)
_TOLD_WITH_WAITS = (g.DealEnded, g.DealAbandoned, g.MatchEnded)
# the events after which the last cards are in every hand (a tuple: ``A | B`` makes a
# union object at every test, and this is tested for every event)
_DEALING = (g.Ordered, g.Dealt)
# an engine's refusals of a card off one's move that name no card (another seat's turn,
# or his answer awaited): a rank alone there is told the same (_refuse_off_turn)
_OFF_TURN = frozenset({NotYourTurn.code, AnswerRequired.code})
# the enum members read on every call, as names here: Python 3.11's enum classes
# answer each attribute through their __getattr__ hook, some 20 times a global's work
_CLOSED = ev.TableState.CLOSED
_ASK = str(ev.AskKind.ASK)  # (as its text: an f-string formats a member by Python calls)
_TELL_ALL = Tell.ALL


# (LEAVE_CONFIRM_S: a person's second 'leave' within it confirms the first; and
# LEAVE_DECLINED, the answers that keep the seat: in protocol.messages, with the
# question, for the terminal client to ask it the same way)


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
    # a ladder's board key: its records (and seed) wait for the admin's 'release'
    board: str | None = None
    private: bool = False  # 'new ... private': listed to nobody, entered by invitation
    # whether its match updates its players' ratings (server/ratings.py): never at a
    # private table or a ladder's board
    rated: bool = True
    seats: list[str | None] = attrs.field(init=False)
    observers: set[Session] = attrs.field(init=False, factory=set)
    # told only the match's start and end (an admin's 'reserve … watch=ends'): a ladder
    # needs its results, not every line of the play
    told_ends: list[Session] = attrs.field(init=False, factory=list)
    # its match's end went out to someone: a failure after that tells no second end
    # (that end stands: it is the stored one)
    end_told: bool = attrs.field(init=False, default=False)
    # those its match's end failed for, being written in their words, after it went to
    # others (a bug of a style's or a language's): owed the close instead (_closed_untold)
    end_missed: list[Session] = attrs.field(init=False, factory=list)
    match: Match | None = attrs.field(init=False, default=None)
    sheet: ScoreSheet = attrs.field(init=False, factory=ScoreSheet)  # folded in _tell
    seq: int = attrs.field(init=False, default=0)
    state: ev.TableState = attrs.field(init=False, default=ev.TableState.WAITING)
    closure: Closure = attrs.field(init=False, default=Closure.CANCELLED)  # set as it closes
    # those whose Sits matchmaking posted here, not yet handled: on their way to a seat
    # (a seeker, or the opener of 'new')
    coming: list[Session] = attrs.field(init=False, factory=list)
    # the people whose seek passes it by (kept apart from someone here) who were told
    # why: once each, however often it is offered to the seekers (matchmaking.py)
    passed_told: set[Session] = attrs.field(init=False, factory=set)
    # the game each seat's player sought, where matchmaking seated a seeker
    sought: dict[int, GameSettings] = attrs.field(init=False, factory=dict)
    # the address each seat's player came from (kept_apart.address_of): one whose
    # connection dropped and who never came back is kept apart by it as a leaver is
    seat_addresses: dict[int, str | None] = attrs.field(init=False, factory=dict)
    # whether each away seat's player went away (its connection dropped) in the match's
    # first deal: one gone then and never back aborted it as a 'leave!' then
    away_first: dict[int, bool] = attrs.field(init=False, factory=dict)
    # when the match's first played deal ended (by trio's clock; None: not yet): a void
    # deal, dealt again, does not end the first deal (docs/protocol.md §5.5)
    first_played_at: float | None = attrs.field(init=False, default=None)
    # the players a leaver's forfeit under way gives their seek back (kept_seek): that
    # calls its rematch offer off at once, so none is told one is on offer (s39)
    seeks_back: tuple[Session, ...] = attrs.field(init=False, default=())
    asked_seq: int = attrs.field(init=False, default=0)  # the seq of the open request
    clocks: Clocks = attrs.field(init=False)
    deal_started: float = attrs.field(init=False, default=0.0)
    leave_asked: dict[int, float] = attrs.field(init=False, factory=dict)  # seat: when
    invited: set[str] = attrs.field(init=False, factory=set)  # name keys ('invite')
    # a guest's invitation is his, not his name's: the token he held when invited (a
    # guest's name is anyone's once he has gone, and his invitation goes with him)
    guest_invites: dict[str, str] = attrs.field(init=False, factory=dict)
    # unbounded, but bounded in fact: see Posted
    inbox: Inbox[Posted] = attrs.field(init=False, factory=Inbox)
    # the scope the table's task waits for messages in, its deadline the clock's or
    # earlier (call_here does not move it later: woken early, the task waits on)
    _clock_scope: trio.CancelScope | None = attrs.field(init=False, default=None)
    # that scope's deadline, as set here (reading the scope's is a call: every call)
    _clock_due: float = attrs.field(init=False, default=math.inf)
    remote = False  # (a class attribute) another worker's table: server/cluster/
    _sides: tuple[tuple[int, ...], ...] = attrs.field(init=False)  # told with every event
    _on_points: bool = attrs.field(init=False)  # the rules' deal_won_on_points, told so too
    # the rules' call that raises a deal's stake (dave's accepting answer), told with it
    _stake_raised_by: str = attrs.field(init=False)
    # its plugins' words for calls (Tertz's «марьяж», 'mariage': lang.table_words), told with
    # every event
    words: TableWords = attrs.field(init=False)
    # the name key of each name seated here (the names a table ever seats are few)
    _keys: dict[str, str] = attrs.field(init=False, factory=dict)
    _talk: KeptTalk = attrs.field(init=False, factory=KeptTalk)  # the asks' talk field, kept
    # the seq of the last event after which the other seats are shown the question now
    # open and whom the table waits for (_tell_waiting): a trick's, its question raised by
    # the trick, not by a call the others heard (Tertz's break of the deck); a rost?'s
    # answered for the pair by the declarer's partner (docs/rules.md §8)
    _trick_seq: int = attrs.field(init=False, default=-1)
    # each seat's session (None: empty, or nobody online), as looked up when the lobby's
    # ``online`` had made ``_seated_at`` changes, and those present in seat order: kept
    # while that count stands and no seat is taken or left (-1: to look up again)
    _seated: list[Session | None] = attrs.field(init=False, factory=list)
    _present: list[Session] = attrs.field(init=False, factory=list)
    _seated_at: int = attrs.field(init=False, default=-1)
    # the batch ``call_here`` entered, while it handles a call in it (its events are put
    # in it without asking trio for the running task at each: every call)
    _batch: Batch | None = attrs.field(init=False, default=None)
    # which watchers' comings and goings its players are told (server/watch_news.py)
    _watch_news: WatchNews = attrs.field(init=False)
    # the seats that made a call of their own (not the clock's) in this match: one that
    # never did leaves the match unrated, an abort (docs/protocol.md §5.18)
    _spoke: set[int] = attrs.field(init=False, factory=set)
    # the match was forfeited while every player of the winning side was away too: both
    # sides left it, and it is not rated (docs/protocol.md §5.18)
    _deserted_by_winners: bool = attrs.field(init=False, default=False)
    # whether the match will be rated, told its players as seats change (rated_news.py)
    _rated_news: RatedNews = attrs.field(init=False, factory=RatedNews)

    def __attrs_post_init__(self) -> None:
        n = self.rules.settings.players
        self._sides = self.rules.settings.sides()
        self._on_points = self.rules.settings.deal_won_on_points
        self._stake_raised_by = self.rules.settings.stake_raised_by
        self.words = table_words(self.rules.call_aliases)
        self.seats = [None] * n
        if self.private or self.board is not None:
            self.rated = False
        config = self.config
        self._watch_news = WatchNews(
            config.watch_news_window_ms / 1000,
            Bucket(config.watch_news_per_s, config.watch_news_burst),
        )
        self.clocks = Clocks(
            n,
            config.human_clock_ms + config.lag_ms,
            config.away_limit_ms,
            config.max_timeouts,
            # the lag allowance is on top: warned with 10 s (and the lag) left
            warn_left_ms=config.clock_warning_ms + config.lag_ms
            if config.clock_warning_ms > 0
            else 0,
            lag_ms=config.lag_ms,
        )
        if self.reserved is not None:
            # a board's players are away until they sit: one that never comes (hung, or
            # no longer seeking) forfeits after the away limit instead of stalling a ladder
            now = trio.current_time()
            for seat in range(n):
                self.clocks.away(seat, now)

    # ---------------------------------------------------------------- public
    @property
    def players(self) -> int:
        return self.rules.settings.players

    @property
    def promised(self) -> int:
        """Seats promised to those on their way (``coming``): taken for matchmaking."""
        return len(self.coming)

    def stale_for(self, key: str) -> bool:
        """Whether this table, as listed here, is old news for the player of name key
        ``key``: never for this worker's own; another's copy (cluster/remote.py) may
        still say waiting when it has seated him, played and ended meanwhile."""
        return False

    def info(self) -> ev.TableInfo:
        return ev.TableInfo(
            id=self.id,
            players=self.players,
            variant=self.rules.variant,
            options=tuple(sorted(self.rules.options)),
            seats=tuple(self.seats),
            state=self.state,
            observers=self._watchers(),
            private=self.private,
            deal=None if self.match is None else self.match.deal.deal_no,
            score=() if self.match is None else tuple(self.match.totals),
            away=self._away_seats(),
        )

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side (the rules' partnerships), told with every event."""
        return self._sides

    @property
    def deal_won_on_points(self) -> bool:
        """The rules' ``deal_won_on_points``, told with every event."""
        return self._on_points

    @property
    def kept_talk(self) -> KeptTalk:
        """The asks' talk field, kept from one ask to the next (server/ask_line.py)."""
        return self._talk

    def _away_seats(self) -> tuple[int, ...]:
        """The seats taken whose players are away (a board's reserved seat not yet sat
        in is away on the clocks, but no one's: not listed)."""
        return tuple(s for s in sorted(self.clocks.away_since) if self.seats[s] is not None)

    def post(self, message: Message, *, request: bool = False, capped: bool = True) -> bool:
        """Hand a message to the table task; False (and nothing done) if the table has
        closed, or if it is a ``request`` of a session that already has its share
        waiting (unless not ``capped``: one of a line's requests to several tables, at
        most one to each). Control messages (the default) are never refused."""
        session = requester_of(message) if request else None
        quota = self.config.table_requests_waiting
        if session is not None and capped and session.requests_waiting >= quota:
            return False
        if not self.inbox.put((message, session is not None)):
            return False
        if session is not None:
            session.requests_waiting += 1
        return True

    # ------------------------------------------------------------------ task
    async def run(self) -> None:
        bound = log.bind(table=self.id)
        bound.info("table_open", variant=self.rules.variant, options=sorted(self.rules.options))
        try:
            if not self.match_number:  # a store that cannot answer closes the table
                await self._guarded(self._draw_match_number())
            while self.state != ev.TableState.CLOSED:
                # one scope for many messages (a scope a message costs time), its
                # deadline the clock's while waiting, none while handling
                with trio.CancelScope() as scope:
                    self._clock_scope, self._clock_due = scope, math.inf
                    await self._messages(scope)
                if scope.cancelled_caught:
                    while self.inbox.held:  # a reader handles a call (call_here)
                        await self.inbox.until_released()
                    state: ev.TableState = self.state  # (mypy keeps the loop's narrowing)
                    if state == ev.TableState.CLOSED:  # closed by what the reader handled
                        break
                    with batched():
                        await self._guarded(self._on_clock())
            self.inbox.close()
            while (posted := self.inbox.take()) is not None:
                # what was queued before the table closed gets its answer
                await self._guarded(self._handle(*posted))
        finally:
            self.inbox.close()
            while (posted := self.inbox.take()) is not None:  # left by a failure: let go
                message, request = posted
                requester = requester_of(message) if request else None
                if requester is not None:  # no reader waits for it for ever
                    requester.request_handled(self.id)
            self.lobby.table_closed(self)
            match_id = self.match.match_id if self.match is not None else None
            bound.info("table_closed", reason=str(self.closure), match=match_id)

    async def _messages(self, scope: trio.CancelScope) -> None:
        """Handle messages until the table closes, or ``scope`` ends at the clock's
        deadline while waiting for one."""
        inbox = self.inbox
        while self.state != ev.TableState.CLOSED:
            deadline = self._deadline()
            posted = inbox.take() if deadline > trio.current_time() else None
            if posted is None:  # none queued (or the clock is due): wait, till the clock's
                scope.deadline = self._clock_due = deadline
                if inbox:  # queued, but the clock is due: it ends the scope here
                    await trio.lowlevel.checkpoint()
                posted = await inbox.get()
                scope.deadline = self._clock_due = math.inf
                if posted is None:  # woken to look around (call_here): the state, the clock
                    continue
            with batched():  # what one message tells goes out in one write per connection
                await self._guarded(self._handle(*posted))

    def may_handle_here(self, now: float) -> bool:
        """Whether a reader may handle a call itself at ``now`` (``call_here``; a message
        it posts: ``handle_here``): the table's own task waits idle for one, with nothing
        queued and its clock not due."""
        inbox = self.inbox  # (``Inbox.idle``, written out: every call)
        if inbox.waiter is None or inbox.queue or inbox.held:
            return False
        if self.state is _CLOSED:
            return False
        # the scope the task waits in ends at or before the clock's deadline (never
        # after: call_here only moves it earlier): later than now, so is the clock's
        scope = self._clock_scope
        return (scope is not None and self._clock_due > now) or self._deadline() > now

    async def handle_here(self, post: Callable[[], Awaitable[object]]) -> None:
        """Hold the inbox, ``post`` (while ``may_handle_here``), handle in the calling
        task what was posted, release: one task switch a message instead of two. The
        table's own task stays parked meanwhile (puts are held; woken by its clock, it
        waits for the release), so still only one task at a time changes the table;
        after, its deadline is the clock's (or earlier), or it is woken if there is more
        to do. The caller must not be cancelled halfway (Server._received sees to it)."""
        self.inbox.hold()
        try:
            await post()
            await self._handle_queued()
        finally:
            self._let_go()

    async def call_here(self, session: Session, text: str, seq: int | None, now: float) -> None:
        """A player's table call, read at ``now``, handled in the calling task (its
        reader) while ``may_handle_here``, as ``handle_here`` handles what the lobby
        posts for it, but without the post (the lobby's checks, the inbox, the message
        and its dispatch: a tenth of a call's work). Nothing is queued and the table's
        task is idle, so the call comes first as it would through the inbox; what is
        posted meanwhile is handled after it."""
        self.inbox.held = True  # (``Inbox.hold``, written out: every call)
        try:
            with batched() as batch:  # what the call tells goes out in one write per connection
                self._batch = batch
                try:  # (_guarded's guard, without its frame: every call)
                    await self._call(session, text, seq, now)
                except Exception:
                    self._failed()
                finally:
                    self._batch = None
            if self.inbox.queue:  # (mostly nothing was posted meanwhile)
                await self._handle_queued()
        finally:
            self._let_go()

    async def _handle_queued(self) -> None:
        """Handle what is queued, in the task that holds the inbox."""
        inbox = self.inbox
        while self.state != ev.TableState.CLOSED:
            posted = inbox.take()
            if posted is None:
                break
            with batched():
                await self._guarded(self._handle(*posted))

    def _let_go(self) -> None:
        """The inbox released after ``call_here`` or ``handle_here``: the table's task
        waits on till the clock's deadline (or earlier), or is woken if the table closed."""
        inbox = self.inbox
        if inbox.queue or inbox.for_release:
            inbox.release()
        else:  # (``release``'s usual case, written out: every call)
            inbox.held = False
        scope = self._clock_scope
        if self.state is _CLOSED:
            inbox.wake()
        elif inbox.waiter is not None and scope is not None:
            # moved only to an earlier time (moving it costs a few µs, and a call
            # moves it later: the next ask's clock); woken before anything is due,
            # the task finds nothing to do and waits again till the clock's deadline
            # (a match's: the clocks', ``_deadline``'s answer, read at once)
            deadline = self.clocks.due if self.match is not None else self._deadline()
            if deadline < self._clock_due:
                scope.deadline = self._clock_due = deadline

    async def _draw_match_number(self) -> None:
        """From the store: unique among every server on the same database (drawn by the
        lobby in blocks: most tables take theirs without a trip to the store). A store
        that cannot give one (a full disk, the database away) closes the table as a
        failure, said as the store's (``match_number_failed``, a warning: its one line),
        not as a bug's ``table_error`` and traceback: at the rate bots seek, on a full
        disk, those filled the log."""
        try:
            self.match_number = await self.lobby.new_match_number()
        except Exception as exc:
            if not store_failure(exc):
                raise
            # (one line: the log's is JSON; a 25P02's, the error it follows)
            said = " ".join(str(first_error(exc)).split())
            log.warning("match_number_failed", table=self.id, error=said)
            self._close_failed()

    async def _guarded(self, step: Any) -> None:
        """A bug in one message's handling must not take the server down: log it and
        close this table, telling its players."""
        try:
            await step
        except Exception:
            self._failed()

    def _failed(self) -> None:
        """Inside the ``except`` of a failed step: log it, tell the players, end the
        match for all told its end (bots, a ladder: ``reason=internal``, nobody wins,
        nothing stored; docs/protocol.md §9.7), close."""
        # the rule whose hook (or game's deal class) raised, where one did (the
        # traceback says where in it)
        exc = sys.exception()
        rule = None if exc is None else self.lobby.rules.failed_hook(exc, self.rules)
        log.exception("table_error", table=self.id, rule=rule)
        self._close_failed()

    def _close_failed(self) -> None:
        """A failed table's end (``_failed``'s, after its log line): its players told,
        its match ended for all told its end, it closes."""
        try:
            self._tell_failed()
        except Exception:  # (the end's own rendering, say: totals a rule spoiled)
            # nothing may escape into the server's nursery: the table closes with no
            # match-end, and says so as any such close does (a ladder's admin, told
            # its ends alone, waited for ever)
            log.exception("table_end_failed", table=self.id)
            self._closed_untold()
        else:
            if self.end_told:  # its end (this one, or the one whose telling failed) went
                self._closed_untold()  # out, but may have failed for some: told the close
        self._close(Closure.FAILED)
        self._seated_to_lobby()  # free to seek or sit elsewhere, no 'leave' first
        self._coming_told_closed()

    def _closed_untold(self) -> None:
        """A failed table whose match-end could not be told: everyone owed it (its
        seats and watchers, an admin told its ends alone) told the close instead,
        ``info closed=T`` (docs/protocol.md §11.4), as a stop's close is told; told to
        some (the machines), those it failed for (a person, in his words) and those
        after him. Counted as told, it left them with the apology alone."""
        owed = self.end_missed if self.end_told else self._owed_the_close()
        self.end_missed = []
        if owed:
            said = phrase(Msg.TABLE_FAILED, table=self.id)
            self._broadcast(owed, ev.table_closed(self.id, said))

    def _owed_the_close(self) -> list[Session]:
        """Those told this table's close: its seats and watchers, and, its match's end
        not told, an admin told its ends alone (a ladder's: it waited for ever)."""
        audience = self._audience()
        if not self.end_told:
            audience += [s for s in self.told_ends if s not in audience]
        return audience

    def _coming_told_closed(self) -> None:
        """Those on their way to a seat here (seekers matched to it, a 'new' opener),
        the table failing before it seated them (drawing its match number from a full
        disk), told it closed as a stopped server's seats are (``info closed=T``): they
        wait for no seat, and a bot seeks again. Their sits came to the closed table and
        were refused `table T is already playing`, their seeks gone: a bot waited for
        ever, a person for a game never to come."""
        coming, self.coming = self.coming, []  # (their sits are refused untold)
        said = phrase(Msg.TABLE_FAILED, table=self.id)
        node = self.lobby.node
        for session in coming:
            if session.table is self:  # the opener: his 'new' is answered, as any command
                session.send(ev.error("internal", said))
            else:
                if node is not None:  # a seeker of another worker's: it forgets his seek
                    node.seek_ended(session)
                session.send(ev.table_closed(self.id, said))

    def _tell_failed(self) -> None:
        """The apology, and the match's end to those told it."""
        failed = ev.error("internal", phrase(Msg.TABLE_FAILED, table=self.id))
        self._broadcast(self._audience(), failed)
        # failed after (or while) its match-end was told
        ended = self.end_told or self.state == ev.TableState.CLOSED
        # on, or failing as it starts (every seat taken, the first deal's hooks raising)
        started = self.match is not None or all(self.seats)
        if not ended and (started or self.told_ends):
            totals = self.match.totals if self.match is not None else [0] * len(self._sides)
            deals = len(self.match.records) if self.match is not None else 0
            reason = MatchEndReason.INTERNAL
            self._event(g.MatchEnded(None, (), reason, tuple(totals), None, deals=deals))

    def _deserted(self) -> bool:
        """A waiting table (not a board) whose seated players have all left the server."""
        if self.match is not None or self.reserved is not None:  # (asked at every call)
            return False
        seated = [s for s, who in enumerate(self.seats) if who is not None]
        return bool(seated) and all(s in self.clocks.away_since for s in seated)

    def _deserted_deadline(self) -> float:
        return max(self.clocks.away_since.values()) + self.config.empty_table_ms / 1000

    def _deadline(self) -> float:
        if self._deserted():  # nobody here to play: the table is not kept for long
            return self._deserted_deadline()
        return self.clocks.deadline()

    def _session(self, seat: int) -> Session | None:
        name = self.seats[seat]
        if not name:
            return None
        # the lobby's ``session_named``, its name key kept per table (asked for each
        # seat whenever ``_seated_sessions`` looks again: a dict lookup, not the key's
        # function and its cache)
        key = self._keys.get(name)
        if key is None:
            key = self._keys[name] = name_key(name)
        session = self.lobby.online.get(key)
        return session if session is not None else self.lobby.session_named(name)

    def _seated_sessions(self) -> list[Session]:
        """The sessions of the taken seats in seat order, those online (``_seated`` by
        seat): looked up again only after a login or logout here or a seat taken or
        left. A seat whose player is on no connection here may be another worker's
        (``session_named``'s proxy, whose comings and goings ``online`` does not
        count): then looked up at every event, as before."""
        if self._seated_at == self.lobby.online.changes:
            return self._present
        online, node = self.lobby.online, self.lobby.node
        changes = online.changes
        kept = True
        seated: list[Session | None] = []
        for seat, name in enumerate(self.seats):
            session = self._session(seat)
            if name and node is not None and (session is None or session.remote):
                kept = False  # (a proxy, or nobody: the bus may bring one any time)
            seated.append(session)
        self._seated = seated
        self._present = [s for s in seated if s is not None]
        self._seated_at = changes if kept else -1
        return self._present

    async def _handle(self, message: Message, request: bool = False) -> None:
        # a session's request waits until handled (its reader waits for that: its reply
        # comes before the next line's, docs/protocol.md §2.3), failed or not
        requester = requester_of(message) if request else None
        try:
            await self._handle_message(message)
        finally:
            if requester is not None:
                requester.request_handled(self.id)

    async def _handle_message(self, message: Message) -> None:
        match message:
            case Sit(session, seat, seeking, promised, sought):
                if promised and session not in self.coming:
                    # given up on its way: he sought another game (docs/protocol.md §5.5)
                    self._refuse_sit(session, None)
                    self.lobby.matchmaking.fill(self)
                    return
                if promised:
                    self.coming.remove(session)
                self._sit(session, seat, seeking, sought)
                if promised and session.table is not self:  # the seat promised him came free
                    self.lobby.matchmaking.fill(self)  # (fill takes only a waiting table)
            case Leave(session, confirmed, paid):
                await self._leave(session, confirmed, paid)
            case TableCall(session, text, seq):
                await self._call(session, text, seq)
            case Observe(session, sheet):
                if not self._may_enter(session):
                    session.send(self._unseen())
                    return
                if self.board is not None and not self.lobby.is_admin(session):
                    # a board's deck is played again in other seatings: no one watches
                    unwatched = phrase(Msg.BOARD_NOT_WATCHED, table=self.id)
                    session.send(ev.error("not-allowed", unwatched))
                    return
                new = session not in self.observers
                self.observers.add(session)
                session.observing.add(self.id)
                watching = phrase(Msg.OBSERVE, table=self.id)
                session.send(ev.ok("observe", watching, (("table", str(self.id)),)))
                if new:  # told first: the state then carries its seq
                    self._watching(session, True)
                send_state(self, session, None, whole=True)
                if sheet and self.match is not None:
                    send_sheet(self, session)
            case Unobserve(session):
                if self._stop_observing(session):
                    self._watching(session, False)
            case Away(name, went, at):
                seat = self.seat_of(name)  # the seat is held for the away limit, waiting
                if (
                    seat is not None
                    and not self._back_since(seat, went)
                    and seat not in self.clocks.away_since  # (told twice: its limit runs on)
                    and (self.match is None or not self.match.over)
                ):
                    now = trio.current_time()
                    self.clocks.away(seat, now)
                    if self.match is not None:  # (the drop's time, not now: a deal may
                        # have ended since, or the clock gone first, _messages)
                        self.away_first[seat] = self._in_first_deal(now if at is None else at)
                    held = self._held_s(seat, now)
                    went_away(self.id, seat, self.seats[seat] or name)
                    self._event(ev.WentAway(name, seat, held, clock_runs=self.match is not None))
            case Back(session):
                seat = self.seat_of(session.name or "")
                if seat is not None and self.state != ev.TableState.CLOSED:
                    session.table, session.seat = self, seat
                    was_away = seat in self.clocks.away_since  # (else a login over his own)
                    self.clocks.back(seat)
                    self.away_first.pop(seat, None)
                    self.seat_addresses[seat] = address_of(session)
                    # a person's own greeting said he is back at this table
                    person = None if session.machine else session
                    came_back(session, self.id, seat, was_away)
                    self._event(ev.CameBack(session.name or "?", seat), besides=person)
                    self._tell_rated(seat)  # (a new connection: he may not know)
                    if self._all_back():
                        self._start()  # his cards are his view
                    else:
                        # a seek passed this table by while he was away: now it may sit
                        self.lobby.matchmaking.fill(self)  # (fill takes only a waiting table)
                        # a person back at an empty trick sees what fell while he was
                        # away (the view shows only a trick being laid); a program asks
                        match = self.match
                        if match is not None and not session.machine and not match.deal.trick.cards:
                            last = last_taken_this_deal(self)
                            if last is not None:
                                session.send(last)
                        send_state(self, session, seat, whole=True)
                elif session.table is self:  # it closed meanwhile: back in the lobby
                    session.table, session.seat = None, None
            case ShowState(session):
                send_state(
                    self, session, session.seat if session.table is self else None, whole=True
                )
            case ShowLast(session):
                send_last(self, session)
            case ShowSheet(session):
                send_sheet(self, session)
            case ShowHistory(session):
                send_history(self, session)
            case Say(session, text):
                # logged, so that an admin can check a complaint (docs/security.md)
                watchers = session in self.observers
                session.log.info("said", table=self.id, watchers=watchers, text=text)
                # not to those who ignore him (docs/protocol.md §5.21): another worker's
                # player by his stand-in's copy of his list (cluster/remote.py)
                speaker = name_key(session.name or "")
                if watchers:  # kibitzers talk among themselves
                    said = ev.Said(session.name or "?", text, self.id, watchers=True)
                    hearing = [s for s in self.observers if not s.ignores(speaker)]
                    self._broadcast(hearing, said, asks_only_too=False)
                    return
                said = ev.Said(session.name or "?", text, self.id)
                hearing = [s for s in self._audience() if not s.ignores(speaker)]
                self._broadcast(hearing, said, asks_only_too=False)
            case Invite(session, name):
                self._invite(session, name)
            case SummonBot(session, kind, level, rated):
                self._summon(session, kind, level, rated)
            case Dismiss(name):
                await self._dismiss(name)
            case Stop(reason, unstarted):
                if not unstarted or self.state is ev.TableState.WAITING:
                    await self._stop(reason, Closure.DRAIN if unstarted else Closure.SHUTDOWN)

    # -------------------------------------------------------------- seating
    def _back_since(self, seat: int, went: Session | None) -> bool:
        """Whether ``seat``'s player is back here on a session other than ``went``, the
        one an Away says is gone: a login of his came first (its Back handled, or it
        sat him at once: login.py), local or another worker's (a stand-in of the worker
        ``went`` was on is closed by now: node.py ``_forget_worker``; or his drop there,
        told over the bus behind that login: node.py ``_posted``)."""
        if went is None:
            return False
        now = self._session(seat)
        return now is not None and now is not went and not now.closed and now.table is self

    def seat_of(self, name: str) -> int | None:
        """The seat ``name`` holds here (told apart by its name key), if any."""
        for seat, who in enumerate(self.seats):
            if who is not None and name_key(who) == name_key(name):
                return seat
        return None

    def _sit(
        self,
        session: Session,
        seat: int | None,
        seeking: GameSettings | None = None,
        sought: GameSettings | None = None,
    ) -> None:
        name = session.name
        if name is None or session.closed:  # logged in elsewhere meanwhile, or gone
            self._refuse_sit(session, None)
            return
        problem = self._why_not_sit(session, name, seat)
        if isinstance(problem, ev.Error) and seeking is not None and session.table is None:
            self.lobby.matchmaking.place(session, seeking)  # another table, or the queue
            return
        if isinstance(problem, ev.Error):
            self._refuse_sit(session, problem)
            return
        seat = problem
        self.seats[seat] = name
        if sought is not None:
            self.sought[seat] = sought
        self.seat_addresses[seat] = address_of(session)
        self._seated_at = -1
        self.clocks.back(seat)
        session.table, session.seat = self, seat
        bot = self.lobby.house.get(name)
        if bot is not None:
            bot.seated = True
        self._stop_observing(session)  # a seat sees more than an observer
        self._watch_news.seated(name_key(name))  # its 'seated' is the news, no going
        board = () if self.board is None else (("board", self.board),)
        session.send(
            ev.ok(
                "sit",
                phrase(Msg.SIT, table=self.id, seat=seat, others=self._others_seated(seat)),
                (("table", str(self.id)), ("seat", str(seat)), *board, self._seats_field()),
            )
        )
        seat_taken(session, self.id, seat)
        # (a person was told 'You sit at table 1, seat 1.': not 'boris sits at seat 1.')
        self._event(ev.Seated(name, seat), besides=session)
        self._rated_news.sat(seat, session.guest and bot is None)
        self._tell_rated(seat)  # before its start: a guest's last seat starts an unrated match
        if all(self.seats):
            self._full()

    def _others_seated(self, seat: int) -> Phrase:
        """Who else sits here, for the newcomer's reply: the earlier ``seated`` lines
        went out before he was at the table (docs/protocol.md §5.4)."""
        # one away is said so, and how long his seat is held: a table still short of
        # players tells no more (a full one says whom it waits for, ``_full``)
        away = set(self._awaited()) if not all(self.seats) and self.reserved is None else set()
        now = trio.current_time()
        others = tuple(
            phrase(Msg.SEAT_OF_AWAY, name=name, seat=other, seconds=self._held_s(other, now))
            if other in away
            else phrase(Msg.SEAT_OF, name=name, seat=other)
            for other, name in enumerate(self.seats)
            if name is not None and other != seat
        )
        return phrase(Msg.SIT_OTHERS, names=others) if others else phrase(Msg.NOTHING)

    def _seats_field(self) -> tuple[str, str]:
        """``seats=anna,-``: the names by seat, ``-`` for a free one (as ``tables``)."""
        return ("seats", ",".join(name or "-" for name in self.seats))

    def why_not_sit(self, session: Session, seat: int | None) -> ev.Error | None:
        """The refusal a 'sit' of ``session`` (logged in) would get here now, if any: the
        lobby asks before it ends the player's seek or rematch offer (seating.py)."""
        problem = self._why_not_sit(session, session.name or "", seat)
        return problem if isinstance(problem, ev.Error) else None

    def _why_not_sit(self, session: Session, name: str, seat: int | None) -> int | ev.Error:
        """The seat ``session`` gets, or the error that says why it gets none."""
        if not self._may_enter(session):  # first: nothing else of it is his to know
            return self._unseen()
        if self.state != ev.TableState.WAITING:
            return ev.error("table-full", phrase(Msg.TABLE_PLAYING, table=self.id))
        if session.table is not None and session.table is not self:
            said = phrase(Msg.REMATCH_SEATED, table=session.table.id)
            return ev.error("already-seated", said)
        if self.seat_of(name) is not None:
            return ev.error("already-seated", phrase(Msg.ALREADY_AT_TABLE, table=self.id))
        free = [s for s, who in enumerate(self.seats) if who is None]
        house = self.lobby.house
        bot = house.get(name)
        if bot is not None and bot.table is not self:
            return ev.Error("seat-reserved", f"table {self.id} did not ask for {name}")
        if bot is None and len(free) <= house.pending(self):
            return ev.error("seat-taken", phrase(Msg.SEATS_FOR_HOUSE_BOTS, table=self.id))
        kept = house.kept_seats(self)  # house bots sit in the order they were asked for
        if bot is not None and bot.seat in free:
            seat = bot.seat
        elif seat is None:
            seat = next((s for s in free if s not in kept), None)
        elif bot is None and seat in kept:
            said = phrase(Msg.SEAT_FOR_HOUSE_BOT, seat=seat, table=self.id)
            return ev.error("seat-taken", said)
        if self.reserved is not None:  # a board: only its players, each in its seat
            keys = [name_key(n) for n in self.reserved]
            if name_key(name) not in keys:
                return ev.error("seat-reserved", phrase(Msg.TABLE_RESERVED, table=self.id))
            seat = keys.index(name_key(name))
        if seat is None:
            seat = free[0] if free else None
        if seat is None or seat not in free:
            if seat is None:
                return ev.error("seat-taken", phrase(Msg.NO_FREE_SEAT_AT, table=self.id))
            return ev.error("seat-taken", phrase(Msg.SEAT_NOT_FREE, seat=seat, table=self.id))
        return seat

    def _may_enter(self, session: Session) -> bool:
        """Whether ``session`` may sit at or watch this table: any table but a private
        one, which takes only its opener (the first to sit), its players, the names they
        invited, and admins."""
        name = session.name
        if not self.private or not any(self.seats) or self.lobby.is_admin(session):
            return True
        return name is not None and (self.invites(name) or self.seat_of(name) is not None)

    def invites(self, name: str) -> bool:
        """Whether ``name`` is invited here: a guest only while the guest invited holds
        the name (his token), not a newcomer who took it after he left."""
        key = name_key(name)
        if key not in self.invited:
            return False
        token = self.guest_invites.get(key)
        return token is None or self.lobby.login.guest_token(name) == token

    def _unseen(self) -> ev.Error:
        """To one who may not enter this private table: what a number no table has gets
        (Lobby.no_table), so that nobody learns it is there (docs/protocol.md §5.3). The
        lobby answers so before it posts; a table answers so itself only when it was
        posted to by one who could see it and no longer may (a guest's invitation gone
        with him meanwhile)."""
        return ev.error("unknown-table", phrase(Msg.NO_TABLE, table=self.id))

    def _invite(self, session: Session, name: str) -> None:
        """'invite NAME' (the lobby has checked that NAME is someone else, online)."""
        if self.seat_of(session.name or "") is None:
            session.send(ev.error("not-seated", phrase(Msg.NOT_AT_TABLE, table=self.id)))
            return
        if self.seat_of(name) is not None:
            said = phrase(Msg.ALREADY_SITS, name=name, table=self.id)
            session.send(ev.error("already-seated", said))
            return
        if self.state != ev.TableState.WAITING or all(self.seats):
            session.send(ev.error("table-full", phrase(Msg.NO_FREE_SEAT, table=self.id)))
            return
        if self.invites(name):  # it lasts as long as the table: once is enough
            said = phrase(Msg.ALREADY_INVITED, name=name, table=self.id)
            session.send(ev.error("already-invited", said))
            return
        # spent once no refusal is left (server/allowance.py); a player of another
        # worker's spent his on his own worker (chat.py), this one's stand-in has none
        if not session.remote and not may_talk(self.lobby, session):
            return
        self.invited.add(name_key(name))
        token = self.lobby.login.guest_token(name)  # None: a registered name
        if token is None:
            self.guest_invites.pop(name_key(name), None)
        else:
            self.guest_invites[name_key(name)] = token
        table = str(self.id)
        said = phrase(Msg.INVITE, name=name, table=self.id)
        session.send(ev.ok("invite", said, (("table", table), ("name", name))))
        invited = ev.Invited(
            session.name or "?",
            self.id,
            self.players,
            self.rules.variant,
            tuple(sorted(self.rules.options)),
            self.private,
        )
        guest = self.lobby.online.get(name_key(name))
        if guest is not None:
            # one who ignores the inviter is not told (docs/protocol.md §5.21); the
            # invitation stands, as one he was told and let pass would, and is told at
            # his 'unignore' if the table still waits then
            sender = name_key(session.name or "")
            if guest.ignores(sender):
                guest.withhold(sender, invited)
            else:
                guest.send(invited)
        elif self.lobby.node is not None:  # perhaps on another worker
            self.lobby.node.tell_invited(name, invited, self)

    def _summon(self, session: Session, kind: HouseBotKind, level: int | None, rated: bool) -> None:
        """'bot KIND [LEVEL] [rated]': a house bot comes to sit here (server/house.py)."""
        house = self.lobby.house
        if self.seat_of(session.name or "") is None:
            session.send(ev.error("not-seated", phrase(Msg.NOT_AT_TABLE, table=self.id)))
            return
        if self.reserved is not None:
            session.send(ev.error("not-allowed", phrase(Msg.LADDER_BOARD, table=self.id)))
            return
        free = sum(1 for who in self.seats if who is None)
        if self.state != ev.TableState.WAITING or free <= house.pending(self):
            session.send(ev.error("table-full", phrase(Msg.NO_FREE_SEAT, table=self.id)))
            return
        if rated and not self.rated:
            session.send(ev.error("not-allowed", phrase(Msg.UNRATED_TABLE, table=self.id)))
            return
        if rated and session.guest:
            # a guest's match is never rated: his 'rated' was taken and came to nothing,
            # told nowhere (a tryout at 3 a.m.)
            session.send(ev.error("not-allowed", phrase(Msg.GUEST_NOT_RATED)))
            return
        rated_here = house.rated_copy(self, kind, level) if rated else None
        if rated_here is not None:
            # one player's rating: two copies in one match were rated twice, as two
            # winners, and listed twice on its page (docs/protocol.md §5.15)
            session.send(ev.error("not-allowed", phrase(Msg.RATED_BOT_HERE, name=rated_here)))
            return
        refusal = house.refusal(self, session, kind)
        if refusal is not None:
            session.send(ev.error("busy", refusal))
            return
        slowed = house.too_often(session.address)
        if slowed is not None:
            session.send(slowed)
            return
        bot = house.start(self, kind, level, rated, session.address)
        self.invited.add(name_key(bot.name))
        fields = (
            ("table", str(self.id)),
            ("name", bot.name),
            ("kind", str(kind)),
            ("level", "-" if level is None else str(level)),
            ("rated", "1" if rated else "0"),
        )
        session.send(ev.ok("bot", phrase(Msg.BOT_COMES, name=bot.name, table=self.id), fields))
        self._tell_rated()

    async def _dismiss(self, name: str) -> None:
        seat = self.seat_of(name)
        if self.state == ev.TableState.CLOSED:
            return
        if seat is None:  # it never came: its seat is free for anyone again
            self._broadcast(self._audience(), ev.info(phrase(Msg.BOT_NOT_COME, name=name)))
            self._tell_rated()
            self.lobby.matchmaking.fill(self)  # a seeker of its game sits at once
            return
        self._broadcast(self._audience(), ev.info(phrase(Msg.BOT_GIVES_UP, name=name)))
        if self.match is not None and not self.match.over:
            seat_left(self._session(seat), self.id, seat, name, SeatLeft.GAVE_UP)
            await self._forfeit(seat, Outcome.LEFT)
            return
        self._free_seat(seat, name, SeatLeft.GAVE_UP)

    def _tell_rated(self, came: int | None = None) -> None:
        """Tell the people seated at this waiting table, if it has changed, whether its
        match will be rated, or ``came``'s person (just seated, or back) that it will
        not be (rated_news.py; docs/protocol.md §5.18)."""
        if not self.rated or self.reserved is not None or self.state != ev.TableState.WAITING:
            return
        house = self.lobby.house
        news = self._rated_news.news(self.id, self.seats, house.at(self), came)
        if news is None:
            return
        if news.seat is not None:
            session = self._session(news.seat)
            if session is not None:
                session.send(news.info)
            return
        people = [s for s in self._seated_sessions() if house.get(s.name or "") is None]
        if news.guest is not None:  # the guest named is told of himself: 'you are a guest'
            seat, own = news.guest
            key = name_key(self.seats[seat] or "")  # (by name: another worker's stand-in)
            for session in [s for s in people if name_key(s.name or "") == key]:
                people.remove(session)
                session.send(own)
        self._broadcast(people, news.info)

    def _refuse_sit(self, session: Session, error: ev.Error | None) -> None:
        if error is not None:
            session.send(error)
        if session.table is self and session.seat is None:  # 'new' had promised it
            session.table = None
        nobody = not any(self.seats) and not self.promised  # (nor a seeker on his way)
        if self.match is None and self.reserved is None and nobody:
            self._close(Closure.NOBODY_SAT)  # a table nobody ever sat at is not kept

    def _stop_observing(self, session: Session) -> bool:
        """Drop ``session`` from this table's observers; whether it was one."""
        was = session in self.observers
        self.observers.discard(session)
        session.observing.discard(self.id)
        return was

    def _watchers(self) -> int:
        """Who looks on: a web feed's one session counts its pages (web/feed.py)."""
        return sum(s.watchers for s in self.observers)

    def _watching(self, session: Session, watching: bool) -> None:
        """Tell the table (players first of all) who starts or stops looking on, as far
        as ``_watch_news`` lets it: not the same name again and again."""
        if session.name is None:  # a web page looks on anonymously: counted, not announced
            return
        if self.state == ev.TableState.CLOSED:
            return
        key, news = name_key(session.name), self._watch_news
        if news.coming(key, trio.current_time()) if watching else news.going(key):
            self._event(ev.Watching(session.name, watching, self._watchers()))

    async def _leave(self, session: Session, confirmed: bool = False, paid: bool = False) -> None:
        if self._stop_observing(session):
            session.send(ev.ok("leave", phrase(Msg.UNOBSERVE, table=self.id)))
            self._watching(session, False)
            return
        seat = self.seat_of(session.name or "")
        if seat is None:
            session.send(ev.error("not-seated", phrase(Msg.NOT_AT_TABLE, table=self.id)))
            return
        running = self.match is not None and not self.match.over
        if running and not confirmed and not session.machine and not self._confirms(seat):
            seconds = f"{LEAVE_CONFIRM_S:.0f}"
            session.send(ev.info(phrase(Msg.LEAVE_CONFIRM, seconds=seconds)))
            return
        self.leave_asked.pop(seat, None)
        # not here: his 'leave' was sent while he sat here, and the match's end (another
        # player's leave just before) has unseated him since
        here = session.table is self
        if here:
            session.table, session.seat = None, None
        session.send(ev.ok("leave", phrase(Msg.LEAVE, table=self.id)))
        if self.match is not None and not self.match.over:
            # his choice, not a lost race for his name (login.py, node.py), and not paid
            # for as a waiting table's seat already
            if session.ended is None and not paid:
                match_left(self.lobby, session)
            chose = session.ended is None and self.board is None
            left_behind = self._left_behind(seat) if chose else []
            self.seeks_back = tuple(p for p, sought in left_behind if sought is not None)
            seat_left(session, self.id, seat, session.name or "?", SeatLeft.LEFT)
            await self._forfeit(seat, Outcome.LEFT)
            if left_behind:  # kept apart from him by 'seek' for a while (kept_apart.py)
                self.lobby.matchmaking.left_by(session.name or "", address_of(session), left_behind)
            return
        self._free_seat(seat, session.name or "?", SeatLeft.LEFT, session)
        if not here:  # he leaves: the seek that end gave him back is not kept (§5.5)
            self.lobby.matchmaking.forget(session)

    def _in_first_deal(self, at: float) -> bool:
        """Whether the running match was in its first deal at ``at``: its first played
        deal had not ended by then (a void deal is dealt again and ends nothing:
        docs/protocol.md §5.5)."""
        ended = self.first_played_at
        return self.match is not None and (ended is None or at < ended)

    def _left_behind(
        self, seat: int, first_deal: bool | None = None
    ) -> list[tuple[Session, GameSettings | None]]:
        """The players a leave of ``seat`` ends the match of (its house bots aside),
        each with the game he had sought if matchmaking seated him and the first deal
        had not ended (when he left, or, ``first_deal`` given, when he went away): that
        seek is his again."""
        if first_deal is None:
            first_deal = self._in_first_deal(trio.current_time())
        left = []
        for other in range(self.players):
            session = self._session(other) if other != seat else None
            if session is None or self.lobby.house.get(session.name or "") is not None:
                continue
            left.append((session, self.sought.get(other) if first_deal else None))
        return left

    def _confirms(self, seat: int) -> bool:
        """Whether this 'leave' confirms one asked a moment ago; if not, it is asked now."""
        now = trio.current_time()
        asked = self.leave_asked.get(seat)
        self.leave_asked[seat] = now
        return asked is not None and now - asked <= LEAVE_CONFIRM_S

    def _declines_leaving(self, seat: int, text: str) -> bool:
        """Whether ``text`` is 'no' to the 'leave' question asked of ``seat`` a moment
        ago; the question is then answered (a 'leave' after it asks again)."""
        asked = self.leave_asked.get(seat)
        if asked is None or trio.current_time() - asked > LEAVE_CONFIRM_S:
            return False
        if text.strip().casefold() not in LEAVE_DECLINED or self._is_legal_call(seat, text):
            return False
        del self.leave_asked[seat]
        return True

    def _yes_to_leaving(self, seat: int, text: str) -> int | None:
        """The seconds left to confirm the 'leave' question asked of ``seat``, when
        ``text`` is 'yes' to it (no call he may make now): a forfeit is confirmed by
        'leave' alone, so 'yes' is told so, the question still open; else None."""
        asked = self.leave_asked.get(seat)
        if asked is None or text.strip().casefold() not in LEAVE_YES:
            return None
        left = LEAVE_CONFIRM_S - (trio.current_time() - asked)
        if left <= 0 or self._is_legal_call(seat, text):
            return None
        return math.ceil(left)

    def _is_legal_call(self, seat: int, text: str) -> bool:
        """Whether ``text`` is a call ``seat`` may make now: 'no' answering the
        opponent's 'prokhodit?' (ne-prokhodit) is that answer, asked after the 'leave'
        question or not; the question stays open."""
        match = self.match
        if match is None or match.result is not None:
            return False
        legal = match.deal.shared_legal_calls(seat)
        try:
            call = parse_call(text, legal, self.rules.call_aliases)
        except Exception:  # no call (a flaw in reading it too: the call's own path says so)
            return False
        return call in legal

    def _free_seat(
        self, seat: int, name: str, why: SeatLeft, session: Session | None = None
    ) -> None:
        """``seat`` is given up by ``name`` (``session``: his connection, if known)."""
        away_too_long = why is SeatLeft.AWAY_TOO_LONG
        seat_left(session or self._session(seat), self.id, seat, name, why)
        self.seats[seat] = None
        self.sought.pop(seat, None)
        self.seat_addresses.pop(seat, None)
        self.away_first.pop(seat, None)
        self._seated_at = -1
        self._rated_news.left(seat)
        self._event(ev.Left(name, seat, away_too_long))
        if self.reserved is not None:  # a board waits for its player, or its forfeit
            self.clocks.away(seat, trio.current_time())
        elif not any(s for s in self.seats if s is not None and not self.lobby.house.get(s)):
            self._close(Closure.LEFT)  # nobody left, or only house bots: they go too
        else:  # a seeker waiting for this game sits at once (docs/protocol.md §5.5)
            self._tell_rated()
            self.lobby.matchmaking.fill(self)

    # ------------------------------------------------- a full waiting table
    def _full(self) -> None:
        """The last seat is taken: the match starts, unless a player of an ordinary table
        is away; then the table waits for him, telling everyone there whom it waits for
        (a club deals to no empty chair, docs/protocol.md §12). A board starts all the
        same: its away seat forfeits at the away limit, so a ladder never stalls (§5.5a)."""
        awaited = [] if self.reserved is not None else self._awaited()
        if not awaited:
            self._start()
            return
        now = trio.current_time()
        for seat in awaited:
            if seat not in self.clocks.away_since:  # gone this moment: his Away is on its way
                self.clocks.away(seat, now)  # (and finds him away: said here)
                went_away(self.id, seat, self.seats[seat] or "?")
            # told again: the one who just sat, and the watchers, learn it here; a person
            # by the line below alone, which names him and his time (he was told "ann is
            # disconnected; the seat is held 97 s." and then the same, s46)
            held = self._held_s(seat, now)
            went = ev.WentAway(self.seats[seat] or "?", seat, held, clock_runs=False)
            self._event(went, programs_only=True)
        self._broadcast(self._audience(), ev.info(self.waits_for()))

    def _awaited(self) -> list[int]:
        """The taken seats whose players are away (or gone this moment, not told yet)."""
        return [
            seat
            for seat, name in enumerate(self.seats)
            if name is not None and (seat in self.clocks.away_since or self._session(seat) is None)
        ]

    def someone_away(self) -> bool:
        """Whether a player seated here is away (or gone this moment): a seek passes
        such a waiting table by (docs/protocol.md §5.5)."""
        return bool(self._awaited())

    def _all_back(self) -> bool:
        """An ordinary table, full and waiting, whose last away player is back (§12)."""
        full = self.match is None and self.reserved is None and all(self.seats)
        return full and not self._awaited()

    def waits_for(self) -> Phrase:
        """What a waiting table waits for: its free seats, or, full, its away players."""
        awaited = self._awaited() if all(self.seats) and self.reserved is None else []
        if not awaited:
            seats = tuple(s or phrase(Msg.FREE_SEAT) for s in self.seats)
            return phrase(Msg.WAITS_FOR_PLAYERS, table=self.id, seats=seats)
        return phrase(Msg.WAITS_FOR_AWAY, table=self.id, names=self._away_held(awaited))

    def _away_held(self, awaited: Sequence[int]) -> tuple[Phrase, ...]:
        """The players of seats ``awaited``, each with how long his seat is still held."""
        now = trio.current_time()
        return tuple(
            phrase(Msg.AWAY_HELD, name=self.seats[seat] or "?", seconds=self._held_s(seat, now))
            for seat in awaited
        )

    def _held_s(self, seat: int, now: float) -> int:
        """How long ``seat`` is still held; all of the away limit for a seat whose Away is
        on its way (its away time starts when it comes)."""
        if seat not in self.clocks.away_since:
            return self.config.away_limit_ms // 1000
        return self.clocks.held_s(seat, now)

    # ----------------------------------------------------------------- play
    def _match_seed(self) -> str:
        """The next match's deck seed: the board's, the server's test seed, or fresh."""
        return self.seed or self.config.match_seed or seeding.fresh_match_seed()

    def _start(self) -> None:
        names = tuple(s for s in self.seats if s is not None)
        seed = self._match_seed()
        self._spoke = set()
        self._deserted_by_winners = False
        self.first_played_at = None
        self.match = Match(
            self.rules,
            seed=seed,
            names=names,
            table=str(self.id),
            match_id=f"m{self.match_number}",
            deal_limit=self.deal_limit,
            most_deals=self.config.max_match_deals,
        )
        self.state = ev.TableState.PLAYING
        # a seat's clock is a bot's if it asked for one ('clock bot'), or played in the
        # machine style without asking, when the match started (a reconnect in another
        # style does not change it)
        config = self.config
        self.clocks.set_call_ms(
            [
                (
                    config.bot_clock_ms
                    if session is not None and session.bot_clock
                    else config.human_clock_ms
                )
                + config.lag_ms
                for session in map(self._session, range(self.players))
            ]
        )
        log.info("match_start", table=self.id, match=self.match.match_id, players=names)
        # not the seed: every deck follows from it (it is told at the match's end)
        self._event(g.MatchStarted(names, self.match.match_id))
        # a board's seats seated, then disconnected before the start (an ordinary table
        # waits for them: _full)
        for seat in range(self.players):
            if self._session(seat) is None:
                now = trio.current_time()
                if seat not in self.clocks.away_since:  # gone this moment: not said yet
                    went_away(self.id, seat, self.seats[seat] or "?")
                self.clocks.away(seat, now)
                self._event(ev.WentAway(self.seats[seat] or "?", seat, self._held_s(seat, now)))
        self._deal_started(self.match.deal_started())

    def _deal_started(self, event: g.DealStarted) -> None:
        self.deal_started = trio.current_time()
        self._event(event)
        self._refresh_all()

    def _refresh_all(self) -> None:
        """Every seat sees its new state; the seat to act gets the request."""
        match = self.match
        assert match is not None
        self._seated_sessions()
        for seat, session in enumerate(self._seated):
            if (
                session is not None
                and seat != match.to_act
                and session.connection.tell is _TELL_ALL
            ):
                send_state(self, session, seat)
        # a watcher in the human style is shown whom the table waits for, as the seats
        # not to act are: he read only the cards laid (a tryout, s47). A program reads
        # to_act in the events' order (docs/protocol.md §6.3): nothing new.
        for session in self.observers:
            if session.connection.style == HUMAN and session not in self._seated:
                send_state(self, session, None)
        self._ask()

    def _ask(self, now: float | None = None) -> None:
        """Ask the seat to act; its clock starts at ``now`` (None: read here)."""
        match = self.match
        assert match is not None
        self.asked_seq = self.seq
        # (``Match.to_act``, written out: read once, every call)
        seat = match.deal.to_act if match.result is None else None
        self.clocks.ask(seat, trio.current_time() if now is None else now)
        if seat is None:
            return
        if self._seated_at != self.lobby.online.changes:
            self._seated_sessions()
        session = self._seated[seat]
        if session is not None:
            clock = self.clocks.per_seat_ms[seat]
            # most players: the line straight from the state (``machine``, written out)
            if session.connection.style != HUMAN:
                line = ask_line(_ASK, self.seq, self.id, match, seat, clock, self._talk)
                clocks = self.clocks
                if clocks.timeouts[seat] or clocks.max_timeouts <= 1:  # (mostly neither)
                    line += self.last_timeout_field(seat)
                batch = self._batch  # (a call's: queued in it without a look for it)
                if batch is not None and type(session) is Session:
                    session.send_asked_in(line, batch)
                else:
                    session.send_asked(line)
            else:
                session.send(ev.Ask(self.seq, self.id, view(match, seat), clock, words=self.words))
        if self._trick_seq == self.seq and match.deal.pending is not None:
            self._tell_waiting(match, seat)

    def _tell_waiting(self, match: Match, seat: int) -> None:
        """A question the trick just taken raised (Tertz's loser breaks the deck before
        anyone leads): the other seats in the human style are shown it and whom the
        table waits for, as at a deal's start. Nothing told them (the trick's line said
        who took it), and a tryout's winner of the first trick waited in silence (s45).
        A program reads ``pending`` and ``to_act`` in the asker's ask and its next
        ``state`` (docs/protocol.md §6.3): told nothing new. A watcher in the human
        style is shown it as well, as its ``state`` would (s46). So too a rost? the
        declarer's partner answers for the pair: its line said only who asked (s46)."""
        for other, session in enumerate(self._seated):
            if other == seat or session is None or session.connection.style != HUMAN:
                continue
            seen = view(match, other)
            session.send(ev.Ask(self.seq, self.id, seen, None, ev.AskKind.STATE, words=self.words))
        for session in self.observers:
            if session.connection.style == HUMAN and session not in self._seated:
                send_state(self, session, None)

    def _tell_turn(self, match: Match) -> None:
        """A card laid at three or four players: the people not to act, seated or
        watching, are told whose turn it is, as a real table shows it: they were told it
        only as a deal started and once its game was ordered, and could not tell who was
        next from a card's line (two players can: the other one). Not again where
        ``_tell_waiting`` showed a trick's question. A program reads ``to_act`` in the
        events' order (docs/protocol.md §6.3): told nothing new."""
        seat = match.deal.to_act
        if seat is None or (self._trick_seq == self.seq and match.deal.pending is not None):
            return
        for other, session in enumerate(self._seated):
            if other != seat and session is not None and session.connection.style == HUMAN:
                send_state(self, session, other, turn_only=True)
        for session in self.observers:
            if session.connection.style == HUMAN and session not in self._seated:
                send_state(self, session, None, turn_only=True)

    async def _call(
        self, session: Session, text: str, seq: int | None, now: float | None = None
    ) -> None:
        """A player's table call (read at ``now``: the reader's time, read once a line;
        None: read here)."""
        match = self.match
        seat = session.seat
        if session.table is not self or seat is None or self.seats[seat] != session.name:
            seat = self.seat_of(session.name or "")  # (the seat it holds, most calls)
        if seat is None:
            session.send(ev.error("not-seated", phrase(Msg.SIT_TO_CALL)))
            return
        if seat in self.leave_asked and self._declines_leaving(seat, text):
            session.send(ev.info(phrase(Msg.LEAVE_DECLINED, table=self.id)))
            return
        if seat in self.leave_asked and (left := self._yes_to_leaving(seat, text)) is not None:
            session.send(ev.info(phrase(Msg.LEAVE_HOW, table=self.id, seconds=left)))
            return
        if match is None:
            self._refuse_not_started(session, text)
            return
        if match.result is not None:  # (Match.over, read inline)
            session.send(ev.error("wrong-phase", phrase(Msg.GAME_IS_OVER)))
            return
        # (``stale_answer``'s first test written out: most calls answer the open request)
        if seq is not None and not self.asked_seq <= seq <= self.seq:
            stale = stale_answer(seq, self.asked_seq, self.seq)
            if stale is not None:
                session.send(ev.stale(stale, seq, self.asked_seq))
                return
        # the deal's own list, not a copy (only read here): the list the last ask was
        # written from, worked out once for this state, which ``apply`` checks the call
        # against again without working it out
        legal = match.deal.shared_legal_calls(seat)
        try:
            # the Russian human style writes the ace Т♥: typed so, it is that card
            # (``not session.machine``, written out: two properties' calls, every call)
            connection = session.connection
            cyrillic_ace = connection.style == HUMAN and connection.lang == Lang.RU
            call = parse_call(text, legal, self.rules.call_aliases, cyrillic_ace)
            if _option_off(call.name, self.rules.settings) and call not in legal:
                # a call only where its option makes it one, like any option's words;
                # one a plugin lists in legal= is taken all the same (§8.2)
                raise CallSyntaxError(f"not a table call here: {said_back(text.strip())!r}")
        except AmbiguousRank as exc:
            session.send(ev.error("ambiguous-rank", _ambiguity(exc)))
            return
        except AmbiguousCall as exc:
            calls = tuple(self._call_word(c.token()) for c in exc.choices)
            said = phrase(Msg.AMBIGUOUS_CALL, typed=said_back(exc.typed), calls=calls)
            session.send(ev.error("ambiguous-call", said))
            return
        except PlayAlone as exc:
            self._refuse_play_alone(session, exc, text, legal, seat)
            return
        except RankAlone as exc:
            if exc.cards:
                self._refuse_rank_alone(session, exc)
            elif not self._refuse_off_turn(session, seat, exc) and not self._refuse_rank_none(
                session, exc, legal
            ):
                self._refuse_unread(session, text, legal, str(exc), seat)
            return
        except FirstPersonWrites as exc:
            top = phrase(Msg.CALL_WORD, call="ot RANK", ru="«от …»")
            if exc.top is not None:
                top = self._call_word(exc.top.token())
            said = phrase(Msg.FIRST_PERSON_WRITES, typed=said_back(exc.typed), top=top)
            session.send(ev.error("ambiguous-call", said))
            return
        except CallSyntaxError as exc:
            self._refuse_unread(session, text, legal, str(exc), seat)
            return
        except Exception:  # the reading is pure: a flaw in it costs this line, not the table
            self._unreadable(session, text)
            return
        try:
            await self._apply(seat, call, auto=False, now=now)
        except IllegalCall as exc:
            ten = ten_meant(call, text, legal) if cyrillic_ace else None
            self._refuse_illegal(session, exc, ten)
            return

    def _refuse_not_started(self, session: Session, text: str) -> None:
        """A line at this table before its match: a call (or one near a call) is of the
        wrong phase; a line that is neither command nor call is told so, as the lobby
        tells it, with the command it is nearest and what the table waits for: a
        newcomer's 'bott heuristic' was told only that the game had not started, when
        'bot' was what he wanted (a tryout, s49; docs/protocol.md §8)."""
        if self._reads_as_call(session, text):
            session.send(ev.error("wrong-phase", phrase(Msg.NOT_STARTED)))
            return
        word = text.split()[0] if text.split() else text
        said = phrase(
            Msg.NOT_A_COMMAND_NOT_STARTED,
            word=said_back(word),
            table=self.id,
            waits=self._waiting(),
        )
        session.send(not_a_command(said, text))

    def _reads_as_call(self, session: Session, text: str) -> bool:
        """Whether ``text`` is a call of this table's (any, legal or not: none is
        legal yet), a call's word with a wrong argument ('igrayu zz'), or a slip of one
        a running table would hint ('paas')."""
        aliases = self.rules.call_aliases
        connection = session.connection
        cyrillic_ace = connection.style == HUMAN and connection.lang == Lang.RU
        try:
            parse_call(text, (), aliases, cyrillic_ace)  # (one an option makes, too)
        except (AmbiguousRank, AmbiguousCall, PlayAlone, RankAlone, FirstPersonWrites):
            return True  # (a card or a call, which of them not told by the line alone)
        except CallSyntaxError as exc:
            if numbered_call_range(text, aliases) is not None:
                return True  # ('lomayu 40': the call's word, a number it does not have)
            said = unread_phrase(str(exc), said_back(text.strip()))
            words = [Call(name) for name in (*WORD_CALLS, *aliases.values())]
            return (
                said.key != Msg.NOT_A_CALL
                or hint(text, words, aliases) is not None
                or self.lobby.help.option_call(text)
            )
        except Exception:  # the reading is pure: a flaw in it is a call's refusal, as ever
            return True
        return True

    def _waiting(self) -> Phrase:
        """What this table, not started, waits for, said after "has not started": its
        players away, or how many more, and that 'bot' seats one where house bots play
        (not at a ladder's board, which waits for its own players)."""
        awaited = self._awaited() if all(self.seats) and self.reserved is None else []
        if awaited:
            return phrase(Msg.WAITING_AWAY, names=self._away_held(awaited))
        free = sum(name is None for name in self.seats)
        waiting = count_phrase(free, Msg.WAITING_ONE_MORE, Msg.WAITING_MORE)
        if self.reserved is None and self.lobby.house.enabled:
            return phrase(Msg.WAITING_BOT_SEATS, waits=waiting)
        return waiting

    def _refuse_rank_alone(self, session: Session, exc: RankAlone) -> None:
        """A rank without its suit: the cards of it that may be played named, as each
        style writes a card (K♥, К♥), in the hand's order; one alone is the hint= (as a
        card a letter away is: docs/protocol.md §8.1)."""
        typed = said_back(exc.typed)
        tokens = [card_str(c) for c in sorted(c.card for c in exc.cards if c.card is not None)]
        cards = tuple(self._card_word(t) for t in tokens)
        if len(cards) > 1:
            session.send(
                ev.error("ambiguous-call", phrase(Msg.RANK_WHICH, typed=typed, cards=cards))
            )
            return
        said = phrase(Msg.RANK_ALONE, typed=typed)
        error = ev.Error(
            "unknown-command", said.text(), said=said, hint=tokens[0], words=self.words
        )
        session.send(error)

    def _refuse_play_alone(
        self, session: Session, exc: PlayAlone, text: str, legal: Sequence[Call], seat: int
    ) -> None:
        """'hod' alone: which card, as a rank alone is told (a tryout); with none to
        play now, what stops a card (whose move, the question to answer, the bidding),
        as a card typed then is told, but for the card, which he did not name."""
        typed = said_back(exc.typed)
        tokens = [card_str(c) for c in sorted(c.card for c in exc.cards if c.card is not None)]
        if tokens:
            first = tokens[0]
            example = phrase(
                Msg.CALL_WORD,
                call=f"'{typed} {spoken_call(first)}'",
                ru=f"«{typed} {ru_call(first, self.words)}»",
            )
            cards = tuple(self._card_word(t) for t in tokens)
            said = phrase(Msg.PLAY_WHICH, typed=typed, example=example, cards=cards)
            hint = first if len(tokens) == 1 else None  # (the one card: as a rank alone's)
            error = ev.Error("unknown-command", said.text(), said=said, hint=hint, words=self.words)
            session.send(error)
            return
        assert self.match is not None
        deal = self.match.deal
        refused = deal.why_not(seat, Call(PLAY_CALL, make(0, 0)))
        if refused.code in _OFF_TURN or deal.phase not in (BIDDING, PLAY):
            self._refuse_illegal(session, refused)
        elif deal.phase == BIDDING:  # (the deal's refusal names the card: the word typed)
            session.send(ev.error(refused.code, phrase(Msg.BIDDING_ON, call=typed)))
        else:  # (his move in the play with no card to play: no such state)
            self._refuse_unread(session, text, legal, str(exc), seat)

    def _refuse_rank_none(self, session: Session, exc: RankAlone, legal: Sequence[Call]) -> bool:
        """A rank alone on one's move in the play, no card of it playable (none held,
        or another suit to follow): told so, and the cards one may play (a tryout, s43:
        it was "not a table call"); False when no card may be played now (the bidding,
        a question to answer): read as any other line that is no call."""
        playable = sorted(c.card for c in legal if c.name == PLAY_CALL and c.card is not None)
        if not playable:
            return False
        cards = tuple(self._card_word(card_str(card)) for card in playable)
        said = phrase(Msg.RANK_NONE, typed=said_back(exc.typed), cards=cards)
        session.send(ev.Error("unknown-command", said.text(), said=said, words=self.words))
        return True

    def _card_word(self, token: str) -> Phrase:
        """A card named in a refusal, as each style writes it (K♥, К♥)."""
        return phrase(Msg.CALL_WORD, call=spoken_call(token), ru=ru_call(token, self.words))

    def _refuse_off_turn(self, session: Session, seat: int, exc: RankAlone) -> bool:
        """A rank alone off one's move ('K'): told whose move it is, as its card ('Kh')
        is, not that it is no call (a tryout, s43); False if it is one's move (no card
        of it may be played: ``_refuse_rank_none`` says so)."""
        assert self.match is not None
        deal = self.match.deal
        if deal.to_act == seat:
            return False
        # any card of the rank: off one's move the refusal names none (whose turn, whose
        # answer awaited); one that would (the bidding's "Kh comes after the order") is
        # not the card typed, and the line is read as before
        refused = deal.why_not(seat, Call(PLAY_CALL, make(min(exc.ranks), 0)))
        if refused.code not in _OFF_TURN:
            return False
        self._refuse_illegal(session, refused)
        return True

    def _call_word(self, token: str) -> Phrase:
        """A call named in a refusal: its token, in Russian as the table says it
        («сто пять», «от короля»)."""
        return phrase(Msg.CALL_WORD, call=token, ru=f"«{ru_call(token, self.words)}»")

    def _refuse_illegal(self, session: Session, exc: IllegalCall, ten: str | None = None) -> None:
        """The deal's refusal of a call, in the session's words."""
        names = self.match.names if self.match is not None else ()
        human = for_people(exc.message, names, self.words)
        detail = refusal_phrase(exc.message, names, self.words)
        session.send(ev.Error(exc.code, exc.message, human, detail, hint=ten))

    def _refuse_unread(
        self, session: Session, text: str, legal: Sequence[Call], reason: str, seat: int
    ) -> None:
        """``text`` reads as no call (``reason``): say so, with the call or command it
        is nearest (docs/protocol.md §8.1)."""
        try:
            numbered = numbered_call_range(text, self.rules.call_aliases)
            if numbered is not None:  # the call's word, a number it does not have
                call_word, low, high, head = numbered
                match = self.match
                if match is not None and not any(c.name.startswith(f"{head}-") for c in legal):
                    # none of its numbers is due now ('lomayu 0' out of the break): why
                    # not, first, rather than a range no number of which would do
                    self._refuse_illegal(session, match.deal.why_not(seat, Call(f"{head}-{low}")))
                    return
                said = phrase(Msg.CALL_RANGE, call=call_word, low=low, high=high)
                session.send(ev.error("bad-argument", said))
                return
            near = hint(text, legal, self.rules.call_aliases)
            token = None if near is None else near.token()
            typed = said_back(text.strip())
            said = unread_phrase(reason, typed)
            if near is None and said.key == Msg.NOT_A_CALL and self.lobby.help.option_call(text):
                # an option's word where it is off: as 'konets' is told (help names whose)
                said = unread_phrase(f"not a table call here: {typed!r}", typed)
            # no call near it, nor a call's word ('ot zz' is no 'bot'): a command
            # mistyped at the table ('tabels')?
            command = None
            if near is None and said.key != Msg.NOT_A_CALL_WHY:
                command = command_hint(text, COMMANDS)
            # a slip of a call not legal now ('скин' of «скинь»): that call named, with
            # why not, where a legal call's slip was hinted and this one's got nothing
            # (a tryout, s47)
            if (
                near is None
                and command is None
                and said.key == Msg.NOT_A_CALL
                and self._near_call_not_now(session, text, legal, (reason, typed), seat)
            ):
                return
            if command in SECRET_COMMANDS:  # 'пароль OLD NEW', 'logn NAME PASSWORD':
                typed = f"{typed.split()[0]} …"  # not read back (nor logged) whole
                said = phrase(Msg.NOT_A_CALL, reason=f"not a table call: {typed!r}", typed=typed)
            error = ev.Error(
                "unknown-command",
                said.text(),
                said=said,
                hint=token,
                command=command,
                words=self.words,
            )
            session.send(error)
        except Exception:
            self._unreadable(session, text)

    def _near_call_not_now(
        self,
        session: Session,
        text: str,
        legal: Sequence[Call],
        refused: tuple[str, str],
        seat: int,
    ) -> bool:
        """Tell ``session`` the call ``text`` is a slip of, one not legal now, and why
        not (``refused``: the reader's reason and the line said back); whether there was
        one (none near, or two as near: nothing said)."""
        match = self.match
        # a bare number is no slip of another number's keys ('20' is not a fifty not
        # due now, §8.2): it carries only a legal call's hint= (a tryout, s50)
        if match is None or text.strip().isdigit():
            return False
        others = [Call(name) for name in WORD_CALLS if Call(name) not in legal]
        near = hint(text, others, self.rules.call_aliases)
        if near is None:
            return False
        token = near.token()
        why = match.deal.why_not(seat, near)
        names = match.names
        reason = refusal_phrase(why.message, names, self.words)
        told = phrase(
            Msg.NEAR_CALL_NOT_NOW,
            refused=phrase(Msg.NOT_A_CALL_HEAD, reason=refused[0], typed=refused[1]),
            call=phrase(
                Msg.CALL_WORD,
                call=spoken_call(token, self.words),
                ru=f"«{ru_call(token, self.words)}»",
            ),
            why=reason if reason is not None else for_people(why.message, names, self.words),
        )
        session.send(ev.Error("unknown-command", told.text(), said=told, words=self.words))
        return True

    def _unreadable(self, session: Session, text: str) -> None:
        """Reading ``text`` raised where it should have said yes or no (a bug: logged,
        without the line, which may hold a password): the player is told it is no call,
        and the table plays on; nothing was changed."""
        log.exception("call_unreadable", table=self.id, player=session.name, length=len(text))
        word = text.split()[0] if text.split() else ""
        typed = f"{word} …" if len(text.split()) > 1 else word
        said = phrase(Msg.NOT_A_CALL, reason=f"not a table call: {typed!r}", typed=typed)
        session.send(ev.Error("unknown-command", said.text(), said=said, words=self.words))

    async def _apply(self, seat: int, call: Call, *, auto: bool, now: float | None = None) -> None:
        match = self.match
        assert match is not None
        if now is None:
            now = trio.current_time()
        ms = int((now - self.deal_started) * 1000)
        events = match.apply(seat, call, ms=ms, auto=auto)  # raises with nothing changed
        if not auto:
            self._spoke.add(seat)
            clocks = self.clocks
            if clocks.timeouts[seat]:  # (mostly none to reset: no call, every call)
                clocks.answered(seat)  # before the ask it is made again with (its field)
        dealt = waits = False
        for event in events:
            if isinstance(event, _TOLD_WITH_WAITS):
                waits = True
                break
            dealt = dealt or isinstance(event, _DEALING)
        if waits:
            await self._tell(events)
            dealt = False
            for event in events:  # (a loop, not any() over a generator)
                if isinstance(event, g.DealEnded):
                    return  # the next deal (or the end) is told and asked for already
                dealt = dealt or isinstance(event, _DEALING)
        else:  # most calls (no deal's end): told here, ``_tell``'s way without its coroutine
            for event in events:
                if isinstance(event, g.DealStarted):
                    self._deal_started(event)
                else:
                    self._event(event)
            if events and type(events[-1]) is g.TrickTaken:  # (what the next ask may be about)
                self._trick_seq = self.seq
            elif (
                events
                and type(last := events[-1]) is g.CallMade
                and last.call.name == ROST
                and pair_answers(match)
            ):
                # the partner answers: the call's line named only its asker, and the
                # declarer's own word was refused as "waiting for pc" (a tryout, s46)
                self._trick_seq = self.seq
        if match.result is not None:  # (Match.over, read inline: every call)
            return
        if dealt and match.deal.phase == PLAY:
            self._refresh_all()  # the last cards are in every hand
        else:
            # (``now`` still: _tell waits only at a deal's end, which returned above)
            self._ask(now)
            # (a card's call tells its card first, §6.2; len(seats): the players, cheaply)
            if not waits and len(self.seats) > 2 and events and type(events[0]) is g.CardPlayed:
                self._tell_turn(match)

    async def _tell(self, events: Sequence[g.MatchEvent]) -> None:
        """Tell everyone at the table what the engine says happened; a deal's record is
        queued for the store as it is told (server/store_writer.py), the match's result
        (after its deals) stored before its end is told."""
        match = self.match
        assert match is not None
        end_stored = False
        ratings: list[RatingResult] | None = None
        for at, event in enumerate(events):
            match event:
                case g.DealEnded() | g.DealAbandoned():
                    self.sheet.feed(event)
                    end = next((e for e in events[at:] if isinstance(e, g.MatchEnded)), None)
                    # encoded once: the store's row and (told) the record line; the
                    # seedless copy made once, for both
                    seedless = reseeded(event.record, None)
                    text = deal_text(seedless)
                    store_deal = functools.partial(
                        self.lobby.store.add_deal, event.record, text=text
                    )
                    if self.board is not None:  # withheld until the board's release
                        store_deal = functools.partial(store_deal, board=self.board)
                    if end is None:  # queued: on disk before the match's result (StoreWriter)
                        self.lobby.writes.write(
                            store_deal, table=self.id, match=match.match_id, deal=event.deal
                        )
                    else:  # the match ends with this deal: one trip to the store for all
                        flush_batch()  # what was told so far need not wait for the disk
                        ratings = await self._store_end(
                            functools.partial(_in_turn, store_deal, self._end_writes(end)),
                            deal=event.deal,
                        )
                        end_stored = True
                    record = event.record
                    if isinstance(event, g.DealEnded):
                        if event.outcome != Outcome.VOID and self.first_played_at is None:
                            self.first_played_at = trio.current_time()
                        log.info(
                            "deal",
                            table=self.id,
                            match=match.match_id,
                            deal=event.deal,
                            outcome=event.outcome,
                            written=record["written"],
                            totals=record["totals"],
                        )
                        self._event(event)
                        if not event.seed_told:  # it would tell the decks still to come
                            record = seedless
                    self._send_record(record, text)
                case g.DealStarted():
                    self._deal_started(event)
                case g.MatchEnded():
                    await self._match_over(event, stored=end_stored, ratings=ratings)
                case _:
                    self._event(event)

    def _finish(self, end: g.MatchEnded) -> Callable[[], None]:
        """The store's write of the match's result, for a worker thread."""
        match = self.match
        assert match is not None
        seeds = {r["deal_no"]: r["seed"] for r in match.records}  # told now the match is over
        return functools.partial(
            self.lobby.store.finish_match,
            match.match_id,
            self.id,
            list(match.names),
            self.rules.variant,
            sorted(self.rules.options),
            ",".join(end.winners),
            end.reason,
            list(end.totals),
            seeds,
            self.board,
            # who lost it: a forfeit between deals has no record to say (protocol.md §11.3)
            forfeit=end.forfeit,
            # a closed table's page links its match only if it was public (docs/web.md)
            public_table=not self.private and self.board is None,
        )

    def _end_writes(self, end: g.MatchEnded) -> Callable[[], list[RatingResult] | None]:
        """The store's writes at the match's end, for the writer's thread: its result,
        then (a rated match) its players' new ratings, which it returns. A ladder's
        board's result is kept by the store until the board's release: until then the
        match is not finished there, so neither its replay (its seed, every hand) nor
        'games' tells the seatings still to play the deck (docs/protocol.md §5.5a)."""
        finish = self._finish(end)
        if self.board is not None:
            return finish  # (returns None: a board is never rated)
        match = self.match
        assert match is not None
        bots = [b for b in map(self.lobby.house.get, match.names) if b is not None]
        if not (self.rated and all(b.rated for b in bots)):
            return finish  # (returns None)
        if len(self._spoke) < len(match.names):  # aborted: someone never made a call
            return finish  # (returns None)
        if self._deserted_by_winners:  # abandoned by every side, not won
            return finish  # (returns None)
        house = {b.name: b.rating_name for b in bots}
        rate = functools.partial(
            new_ratings,
            self.lobby.store,
            self.rules.variant,
            match.names,
            self._sides,
            end.winners,
            end.totals,
            house,
            end.forfeit,
        )
        held = functools.partial(
            self.lobby.store.ratings_held,
            [house.get(n, n) for n in match.names],  # (a bot's rating: its kind's name)
            self.rules.variant,
            len(match.names),
        )
        return functools.partial(_rated_finish, held, finish, rate)

    async def _store_end(
        self, job: Callable[[], list[RatingResult] | None], **lost: object
    ) -> list[RatingResult] | None:
        """The match's end written (``job``: its result, its last deal with ``lost``'s
        ``deal``, the ratings it returns). A store that cannot take it (a full disk, its
        database away) loses the record, not the match: it is logged as a queued write's
        failure is, and the end told as played, unrated; it made the table fail as a
        bug, and the players who had played it out were told no result. A bug in the
        job (the ratings' arithmetic) is no store's failure: it fails the table still."""
        match = self.match
        assert match is not None
        try:
            return await self.lobby.writes.run(job)
        except Exception as exc:
            if not store_failure(exc):
                raise
            log.exception("store_write_failed", table=self.id, match=match.match_id, **lost)
            return None

    async def _match_over(
        self,
        end: g.MatchEnded,
        *,
        stored: bool = False,
        ratings: list[RatingResult] | None = None,
    ) -> None:
        """``stored``: its result (and ``ratings``) went to the store with its last
        deal's record."""
        match = self.match
        assert match is not None
        self.clocks.stop()
        if self.board is None:  # (a ladder's players are programs)
            for seat in self.clocks.away_since:  # told at his next login (missed.py)
                lost = end.forfeit == seat and end.reason == Outcome.AWAY  # his absence
                said = phrase(
                    Msg.MISSED_FORFEIT if lost else Msg.MISSED_END,
                    match=match.match_id,
                    table=self.id,
                    seconds=self.config.away_limit_ms // 1000,
                )
                self.keep_missed(seat, said)
        flush_batch()
        if not stored:  # on disk before anyone is told ('games' lists it, 'top' rates it)
            ratings = await self._store_end(self._end_writes(end))
        if ratings:  # a match of guests (or unrated) changes no rating: no line
            log.info("rated", match=match.match_id, ratings={r.name: r.rating for r in ratings})
        # a ladder board's seed would tell the other seatings' decks
        told = end._replace(match=match.match_id)  # the human style names it
        if self.board is None:  # (a board is never played again)
            # the time to ask 'rematch' in, for a program that says it (the terminal
            # client said 60 s, whatever the server's rematch_ms: a review, s45)
            told = told._replace(rematch_s=told_s(self.lobby))
        # before its end is told: a 'history' read after it tells this match, not one
        # its players watched to its end earlier in the same second (Lobby)
        self.lobby.own_match_over(match.names, self.id)
        self._event(told if self.board is None else told._replace(seed=None))
        log.info(
            "match_end",
            table=self.id,
            match=match.match_id,
            winner=list(end.winners),
            reason=end.reason,
            totals=match.totals,
        )
        self._close(Closure.MATCH_OVER)  # what came meanwhile is answered as the task ends
        # its players may play again (the one who left it is not told so)
        left = end.forfeit if end.reason == Outcome.LEFT else None
        leaver = match.names[left] if left is not None else None
        self.lobby.rematches.match_over(self, leaver, self.seeks_back)
        for seat in range(self.players):
            session = self._session(seat)
            if session is not None and session.table is self:
                session.table, session.seat = None, None

    def keep_missed(self, seat: int, said: Phrase) -> None:
        """Keep ``said`` for the next login of the player away at ``seat``: a guest's
        token now, so that only he is told it (server/missed.py)."""
        name = self.seats[seat]
        if name is None or self.lobby.house.get(name) is not None:
            return
        token = self.lobby.guest_tokens.get(name_key(name))  # None: a registered name
        node = self.lobby.node
        present = node.elsewhere(name) if token is None and node is not None else None
        if present is not None and present.guest:  # a guest of another worker's (his token
            if present.token is None:  # is known there): not kept as a registered name's
                return
            token = present.token
        self.lobby.missed.remember(name, said, token)
        if node is not None:  # a login at any worker tells it (missed.py)
            node.missed(name, said, token)

    async def _forfeit(self, seat: int, reason: Outcome) -> None:
        match = self.match
        assert match is not None
        sides = match.rules.settings.sides()
        side = next(i for i, members in enumerate(sides) if seat in members)
        ended = match.forfeit(side, reason, seat=seat)
        winner = match.result.winner if match.result is not None else None
        self._deserted_by_winners = winner is not None and all(
            s in self.clocks.away_since for s in sides[winner]
        )
        await self._tell(ended)

    def _send_record(self, record: dict[str, Any], text: str) -> None:
        """To everyone at the table; a ladder's board only to its admins, holding the
        players' copies until every seating of the board is played. ``text``: the
        record's ``withheld`` (its line's JSON but for the seed)."""
        if self.board is None:
            deal = ev.DealRecord(self.id, record, told(text, record))
            self._broadcast(self._audience(), deal, asks_only_too=False)
            return
        deal = ev.DealRecord(self.id, record)  # (rarely told: encoded only if it is)
        for target in self.observers:
            if self.lobby.is_admin(target) and target.connection.tell is Tell.ALL:
                target.send(deal)
        self.lobby.hold(self.board, tuple(s for s in self.seats if s is not None), deal)

    async def _abandoned(self, seat: int) -> None:
        """A running match's seat away past the away limit (its connection dropped and
        its player did not come back to it): forfeited, and, as if he had left it, those
        left behind are kept apart from him and, if he went in the first deal (played
        out for him meanwhile), have their seek again (docs/protocol.md §5.5). A griefer
        who dropped his connection instead of 'leave!' was counted for nothing; one who
        came back in time is no leaver (Back forgets when he went)."""
        name = self.seats[seat] or ""
        bot = self.lobby.house.get(name) is not None  # (a house bot's is no one's choice)
        gone_first = self.away_first.get(seat)  # (when he dropped, not now)
        left_behind = [] if bot or self.board is not None else self._left_behind(seat, gone_first)
        address = self.seat_addresses.get(seat)
        self.seeks_back = tuple(p for p, sought in left_behind if sought is not None)
        seat_left(self._session(seat), self.id, seat, name or "?", SeatLeft.AWAY_FORFEIT)
        await self._forfeit(seat, Outcome.AWAY)
        if left_behind:
            self.lobby.matchmaking.left_by(name, address, left_behind)

    async def _no_show(self, seat: int) -> None:
        """A reserved seat stayed empty (or away) past the away limit: the board is lost
        by that seat, as if the match had started with the seat away."""
        assert self.reserved is not None
        self.first_played_at = None
        self.match = Match(
            self.rules,
            seed=self._match_seed(),
            names=self.reserved,
            table=str(self.id),
            match_id=f"m{self.match_number}",
        )
        self.state = ev.TableState.PLAYING
        await self._forfeit(seat, Outcome.AWAY)

    async def _on_clock(self) -> None:
        if self.lobby.stall is not None:  # woken by the server's own stall: not counted
            self.lobby.stall.check()
        match = self.match
        now = trio.current_time()
        clocks = self.clocks
        if self._deserted():
            if now >= self._deserted_deadline():
                seconds = self.config.empty_table_ms // 1000
                deserted = phrase(Msg.MISSED_DESERTED, table=self.id, seconds=seconds)
                for seat in range(self.players):  # each told at his next login
                    self.keep_missed(seat, deserted)
                self._stop_now(phrase(Msg.PLAYERS_LEFT), Closure.DESERTED)
            return
        if match is None:  # a waiting table holds a seat for the away limit
            for seat in clocks.away_too_long(now):
                if self.reserved is not None:
                    await self._no_show(seat)
                    return
                clocks.back(seat)  # (not back: no longer waited for)
                seconds = self.config.away_limit_ms // 1000
                self.keep_missed(seat, phrase(Msg.MISSED_SEAT, table=self.id, seconds=seconds))
                self._free_seat(seat, self.seats[seat] or "?", SeatLeft.AWAY_TOO_LONG)
            return
        if match.over:
            return
        away = clocks.away_too_long(now)
        if away:
            await self._abandoned(away[0])
            return
        warned = clocks.take_warning(now)
        if warned is not None:
            self._warn(warned)
        late = clocks.out_of_time(now)
        if late is None:
            return  # woke for an away check or a warning only
        if clocks.timed_out(late):
            await self._forfeit(late, Outcome.TIMEOUTS)
            return
        await self._apply(late, automatic_call(match, late), auto=True)

    def _warn(self, seat: int) -> None:
        """Tell a person that the clock is nearly out (docs/protocol.md §11.1), and when
        running out would lose the game, that too (a tryout, s44: anna lost hers to a
        third timeout warned as the first two); the machine style is told nothing new:
        its clients count down ``clock=`` themselves."""
        session = self._session(seat)
        if session is None or session.machine:
            return
        left = self.clocks.warning_left_ms(seat) // 1000  # (half a short clock)
        most = self.last_timeout(seat)
        if most is not None:
            said = phrase(Msg.CLOCK_WARNING_LAST, seconds=left, count=most)
        else:
            said = phrase(Msg.CLOCK_WARNING, seconds=left)
        session.send(ev.info(said))

    def last_timeout(self, seat: int) -> int | None:
        """If ``seat``'s clock running out now would forfeit the match (its
        ``max_timeouts``-th timeout in a row, while it is connected: docs/protocol.md
        §11.3), that count; else None."""
        clocks = self.clocks
        most = max(clocks.max_timeouts, 1)  # (0 as 1: docs/settings.md)
        if seat in clocks.away_since or clocks.timeouts[seat] + 1 < most:
            return None
        return most

    def last_timeout_field(self, seat: int) -> str:
        """What a machine-style ``ask`` to ``seat`` appends when its clock running out
        would forfeit the match, `` last_timeout=3`` (docs/protocol.md §6.3: the terminal
        client warns its person, as the human style's warning does); else ''."""
        most = self.last_timeout(seat)
        return "" if most is None else f" last_timeout={most}"

    async def _stop(self, reason: str | Phrase, why: Closure) -> None:
        self._stop_now(reason, why)

    def _close(self, why: Closure) -> None:
        self.state = ev.TableState.CLOSED
        self.closure = why

    def _stop_now(self, reason: str | Phrase, why: Closure) -> None:
        match = self.match
        if match is not None and not match.over:  # cut off: its players are told its fate
            said = phrase(Msg.MATCH_STOPPED, table=self.id, reason=reason, match=match.match_id)
        else:
            said = phrase(Msg.TABLE_CLOSES, table=self.id, reason=reason)
        self._broadcast(self._owed_the_close(), ev.table_closed(self.id, said))
        self._close(why)
        self._seated_to_lobby()

    def _seated_to_lobby(self) -> None:
        """The table closes: its seated players are back in the lobby (a call now gets
        a clear error)."""
        for seat in range(self.players):
            session = self._session(seat)
            if session is not None and session.table is self:
                session.table, session.seat = None, None

    # -------------------------------------------------------------- helpers
    def _audience(self) -> list[Session]:
        # the seated by seat, then those who only watch
        seated = self._seated_sessions()
        if not self.observers:
            return list(seated)  # (the caller's to change)
        return seated + [o for o in self.observers if o not in seated]

    def _event(
        self,
        event: g.MatchEvent | ev.SeatEvent | ev.Watching,
        besides: Session | None = None,
        *,
        programs_only: bool = False,
    ) -> None:
        """Number a public event and send it to everyone at the table (of those told
        only their asks, only the match's end), ``besides`` one person told it in his
        own words (a person back at his seat: not 'boris is back.' of himself; one who
        sat: not 'boris sits at seat 1.'); in the machine style he is told it too.
        ``programs_only``: to the machine style alone, the people told it by the line
        that comes next (a full table's whom it waits for, ``_full``)."""
        self.seq += 1
        kind = type(event)
        template = EVENT_LINES.get(kind)
        if template is not None and not self.observers and kind not in _TOLD_ENDS:
            # most events (a card, a trick, a call at a table nobody watches): the seats'
            # sessions looked up (``_audience``), those told every line picked and split
            # by style in one pass
            machines: list[Session] = []
            others: list[Session] = []
            # (``_seated_sessions``' check, written out: every event)
            present = (
                self._present
                if self._seated_at == self.lobby.online.changes
                else self._seated_sessions()
            )
            for session in present:
                connection = session.connection
                if connection.tell is _TELL_ALL:
                    if connection.style == MACHINE:
                        machines.append(session)
                    else:
                        others.append(session)
            if machines:  # (``_tell_machines``, written out: most events)
                line = template(self.seq, self.id, event)
                send_to_each(machines, [line], line.encode("utf-8") + b"\r\n", self._batch)
            if besides is not None and besides in others:
                others.remove(besides)
            if others and not programs_only:
                self._broadcast(others, self._table_event(event))
            return
        audience = self._audience()
        if self.told_ends and isinstance(event, _TOLD_ENDS):
            audience += [s for s in self.told_ends if s not in audience]
        if not isinstance(event, g.MatchEnded):
            told = audience
            audience = []
            for s in told:  # (a loop, not a comprehension's call: every event)
                if s.connection.tell is _TELL_ALL:
                    audience.append(s)
            if not audience:  # (a ladder's board: its bots act on their asks alone)
                return
        if template is not None:
            machines = []
            others = []
            for s in audience:
                (machines if s.connection.style == MACHINE else others).append(s)
            if machines:
                self._tell_machines(machines, template, event)
                if kind is g.MatchEnded:
                    self.end_told = True
                audience = others
        # a machine is told its own event as any other (above); a person, in his words
        if programs_only:
            audience = [s for s in audience if s.connection.style == MACHINE]
        if besides is not None:
            audience = [s for s in audience if s is not besides]
        if not audience:
            return
        table_event = self._table_event(event)
        if kind is g.MatchEnded:  # (once a match) to one listener at a time: a failure
            # partway (a voice that cannot tell it) knows whether it went out to anyone,
            # and whom it missed: they are told the close (_closed_untold)
            for i, session in enumerate(audience):
                try:
                    self._broadcast((session,), table_event)
                except Exception:
                    self.end_missed = audience[i:]
                    raise
                self.end_told = True
            return
        self._broadcast(audience, table_event)

    def _tell_machines(
        self, machines: list[Session], template: Callable[[int, int, Any], str], event: object
    ) -> None:
        """The machine style's line from the event kind's template, queued at once for
        every machine-style listener: what ``render`` writes for the ``TableEvent``,
        without building it, rendering it per voice or a put per listener."""
        line = template(self.seq, self.id, event)
        # (encode_lines' one line, written out)
        send_to_each(machines, [line], line.encode("utf-8") + b"\r\n")

    def _table_event(self, event: g.MatchEvent | ev.SeatEvent | ev.Watching) -> ev.TableEvent:
        """``event`` as told at this table, for a renderer that needs the names."""
        seats = self.seats  # a match's seats are all taken: most events
        names = tuple(seats) if all(seats) else tuple([s or "-" for s in seats])
        face_up = round_two = shown_now = stake = None
        if type(event) is g.Shown and self.match is not None:
            # face up now: the cards shown still in the hand, not those played since
            # (docs/rules.md §12.5: a tryout, s49, read played ones as face up)
            deal = self.match.deal
            hand = deal.hands[event.seat]
            now = [c for c in deal.shown.get(event.seat, ()) if c in hand]
            shown_now = tuple(now) if len(now) > len(event.cards) else None
        elif type(event) is g.CallMade and self.match is not None:
            deal = self.match.deal
            if event.call.name == MENYAYU:
                face_up = deal.turned  # the seven, told as the swap is
            elif event.call.name == PAS and deal.phase == BIDDING and deal.bid_round == 2:
                # told as it is made: with no pas of round two yet, this one opened it
                round_two = suit_of(deal.original_turned) if deal.passes == 0 else None
            elif self._stake_raised_by and event.call.name == self._stake_raised_by:
                stake = int(deal.extra.get("stake", 1))
        return ev.TableEvent(
            self.seq,
            self.id,
            names,  # type: ignore[arg-type]
            event,
            self._sides,
            self._on_points,
            self.words,
            face_up,
            round_two,
            shown_now,
            stake,
        )

    def _broadcast(
        self, targets: Iterable[Session], event: ev.ServerEvent, *, asks_only_too: bool = True
    ) -> None:
        """Send one event to many: rendered once per voice, not once per listener.
        ``asks_only_too``: told to the connections told only their asks as well (Tell.ASKS).
        A person watching this table who sits at or watches another too hears it after
        ``[table N]`` (a chat line says its table already)."""
        rendered: dict[tuple[str, str, bool], tuple[list[str], bytes]] = {}  # encoded once too
        observers = self.observers if type(event) is not ev.Said else None
        for target in targets:
            connection = target.connection
            if connection.tell is Tell.ASKS and not asks_only_too:
                continue
            style = connection.style  # (Connection.voice written out: read per listener)
            human = style == HUMAN
            tagged = bool(observers) and human and self.watched_alongside(target)
            voice = (style, connection.lang if human else Lang.EN, tagged)
            told = rendered.get(voice)
            if told is None:
                lines = connection.render(event)
                if tagged:
                    lines = tagged_lines(lines, self.id, connection.lang)
                told = rendered[voice] = (lines, encode_lines(lines))
            if observers and human and not tagged and target.remote and target in observers:
                # another worker's watcher: what else he sits at or watches, his own
                # worker knows (a table there is none of this one's): it tags them
                target.send_watched(*told, self.id)
            else:
                target.send_rendered(*told)

    def watched_alongside(self, session: Session) -> bool:
        """Whether ``session`` watches this table while it sits at another or watches
        another as well, as this worker knows: its lines of this one must say which
        table they are of (another worker's watcher: see ``Session.send_watched``)."""
        return session in self.observers and session.watches_alongside(self.id)


def _in_turn(first: Callable[[], object], then: Callable[[], T]) -> T:
    """Two store writes as one job: ``then``'s result."""
    first()
    return then()


def _rated_finish(
    held: Callable[[], contextlib.AbstractContextManager[None]],
    finish: Callable[..., None],
    rate: Callable[[], list[RatingResult]],
) -> list[RatingResult]:
    """A rated match's end as one store call: its players' new ratings (read, then
    computed), stored with its result (``finish_match``'s ``ratings``): together or not
    at all, their ratings ``held`` meanwhile (``Store.ratings_held``: another worker
    ending a match of one of them waits, and reads these). The ratings."""
    with held():
        ratings = rate()
        finish(ratings=ratings)
    return ratings


def _option_off(name: str, settings: Settings) -> bool:
    """The engine's calls that belong to an option (konets: 'manual-claim'; ne-menyayu:
    'swap-before-extra'), typed where it is off: no table call (docs/protocol.md §8.2),
    unless a plugin lists it (the caller asks ``legal`` too)."""
    if name == KONETS:
        return not settings.manual_claim
    return name == NE_MENYAYU and not settings.swap_before_extra


def _ambiguity(exc: AmbiguousRank) -> Phrase:
    """The question a look-alike T/Т asks: the ten or the ace?"""
    if exc.suit is None:
        return phrase(Msg.AMBIGUOUS_OT, letter=exc.typed)
    return phrase(Msg.AMBIGUOUS_CARD, letter=exc.typed, suit=SUIT_SYMBOLS[SUITS[exc.suit]])
