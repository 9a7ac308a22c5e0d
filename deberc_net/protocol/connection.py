"""One client connection's protocol, without I/O: bytes in, commands out; events in,
bytes out (in the manner of h11's connection object).

The server feeds it what the socket gave (``receive_data``) and asks it for what came
in (``next_input``): a command or table call for the lobby, or a ``Reply`` the
connection already knows (bad framing, a flood, a command that needs a login). It
renders what the server says (``send``) into the bytes to write, and it says when
silence ends the connection (``deadline``, ``timed_out``). Times are plain numbers
given by the caller, so all of it is tested without trio.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import attrs

from deberc_net.server.limits import Bucket  # pure: fed with the caller's clock

from . import events as ev
from .commands import Command, TableCallText, parse_line
from .framing import MAX_LINE, BadLine, Line, LineDecoder, encode_lines
from .lang import Lang
from .messages import Msg, phrase
from .render import HUMAN, HandOrder, render
from .render_ru import render_ru

MAX_ANSWER_CREDIT = 4  # requests to act a client may answer without counting as a flood
# before login the limit is login_timeout_s of silence (a person reading 'help', or
# typing his name a key at a time, is not cut off), and this many times it after the
# connection opened, whatever it sends: a trickle of bytes holds no socket for good
LOGIN_MOST = 8
# bytes the framing drops (telnet commands and negotiation, NULs) that count as one line
# toward the flood limit (docs/protocol.md §2.2): they make no line, and would otherwise
# be free however many came; a telnet's negotiation is a few dozen bytes
DROPPED_BYTES_PER_LINE = 64
EMPTY_LINE = Line("")  # what each DROPPED_BYTES_PER_LINE of them count as


class State(enum.Enum):
    AWAITING_LOGIN = "awaiting-login"
    LOGGED_IN = "logged-in"
    CLOSED = "closed"

    # a member is its own only instance: hashed by identity in C (ADMITS is looked up
    # twice a line), not by Enum's __hash__ of its name in Python
    __hash__ = object.__hash__


class Trigger(enum.Enum):
    LOGIN = "login"  # the lobby accepted a login
    CLOSE = "close"  # quit, a timeout, a flood, a login elsewhere, the link gone


# Every legal move; any other is a ProtocolError (a bug in the caller, not the client).
TRANSITIONS: dict[tuple[State, Trigger], State] = {
    (State.AWAITING_LOGIN, Trigger.LOGIN): State.LOGGED_IN,
    (State.AWAITING_LOGIN, Trigger.CLOSE): State.CLOSED,
    (State.LOGGED_IN, Trigger.CLOSE): State.CLOSED,
    (State.CLOSED, Trigger.CLOSE): State.CLOSED,
}


@attrs.frozen
class Admits:
    """What a state lets through to the lobby; the connection answers anything else
    with ``refusal`` itself."""

    commands: frozenset[str] | None  # None: every command
    table_calls: bool
    refusal: ev.Error

    def admits(self, item: Command | TableCallText) -> bool:
        if isinstance(item, TableCallText):
            return self.table_calls
        return self.commands is None or item.name in self.commands


BEFORE_LOGIN = frozenset(
    {"help", "calls", "quit", "style", "sort", "clock", "lang", "login", "ping"}
)
PROXY_HEADER = "PROXY "  # how a PROXY protocol (version 1) header begins
NOT_LOGGED_IN = ev.error("not-logged-in", phrase(Msg.LOG_IN_FIRST))
# A state missing here (CLOSED) reads nothing at all.
ADMITS: dict[State, Admits] = {
    State.AWAITING_LOGIN: Admits(BEFORE_LOGIN, table_calls=False, refusal=NOT_LOGGED_IN),
    State.LOGGED_IN: Admits(None, table_calls=True, refusal=NOT_LOGGED_IN),
}


class TimeoutCode(enum.Enum):
    LINE = "line-timeout"
    LOGIN = "login-timeout"
    IDLE = "idle-timeout"


TIMEOUT_TEXT = {
    TimeoutCode.LINE: "an unfinished line waited too long",
    TimeoutCode.LOGIN: "log in sooner: this connection closes",
    TimeoutCode.IDLE: "nothing heard for too long ('ping' keeps a connection open): goodbye",
}

# the members read on every line, as names here: Python 3.11's enum classes answer
# each attribute through their __getattr__ hook, some 20 times a global's work
_AWAITING_LOGIN = State.AWAITING_LOGIN
_LOGGED_IN = State.LOGGED_IN
_LOGIN_TIMEOUT = TimeoutCode.LOGIN
_IDLE_TIMEOUT = TimeoutCode.IDLE


class ProtocolError(Exception):
    """A transition the table does not have."""


@attrs.frozen
class Reply:
    """The answer to an input the lobby never sees; ``hang_up``: close after sending."""

    error: ev.Error
    hang_up: bool = False
    # a PROXY protocol header before login (read here as a line: the peer is not a
    # listed proxy): the server logs it, the misconfiguration's sign for its operator
    proxy_header: bool = False


class NeedData(enum.Enum):
    NEED_DATA = "need-data"  # nothing complete yet: read more


NEED_DATA = NeedData.NEED_DATA
Input = Command | TableCallText | Reply | NeedData


class ClockChoice(enum.StrEnum):
    """The clock a connection asks for ('clock'): a person's, or a bot's."""

    HUMAN = "human"
    BOT = "bot"


class Tell(enum.StrEnum):
    """What a connection is told at a table ('style machine tell=…', docs/protocol.md
    §4.3): every line (the default), or only what a bot acts on: its own asks, the
    match's end, and every reply, error and notice (a ladder's random bot reads no more,
    and the server spares rendering and sending the rest)."""

    ALL = "all"
    ASKS = "asks"


@attrs.frozen
class Limits:
    max_line: int = MAX_LINE
    flood_lines_per_s: float = 200.0
    flood_burst: float = 1000.0
    partial_line_s: float = 30.0
    login_timeout_s: float = 15.0
    idle_timeout_s: float = 900.0


@attrs.define(eq=False)
class Connection:
    connected_at: float
    limits: Limits = Limits()
    style: str = HUMAN
    hand_order: HandOrder = HandOrder.RANK  # how a person's hand is shown ('sort')
    clock: ClockChoice | None = None  # the clock asked for ('clock'); None: by the style
    lang: Lang = Lang.EN  # the human style's language ('lang'); machine lines have none
    tell: Tell = Tell.ALL  # every table line, or its asks and the match's end only
    state: State = State.AWAITING_LOGIN
    # state is CLOSED (kept by ``apply``: read a few times a line, a property cost a call)
    closed: bool = attrs.field(init=False, default=False)
    answer_credit: int = 0  # requests to act sent and not yet answered (flood-free lines)
    # telnet refusals owed the client (framing.py), for the caller to send as they are
    # (``take_answers``), before the replies to lines after them
    answers: bytes = attrs.field(init=False, default=b"")
    _decoder: LineDecoder = attrs.field(init=False)
    _flood: Bucket = attrs.field(init=False)
    # lines read and not handed out yet, from _taken on (a list: an idle connection's
    # empty deque would cost 600 bytes)
    _pending: list[Line | BadLine] = attrs.field(init=False, factory=list)
    _taken: int = attrs.field(init=False, default=0)
    _last_input: float = attrs.field(init=False)
    _partial_since: float | None = attrs.field(init=False, default=None)
    _heard_at: float = attrs.field(init=False)  # its last bytes before login

    def __attrs_post_init__(self) -> None:
        self._decoder = LineDecoder(max_line=self.limits.max_line)
        self._flood = Bucket(self.limits.flood_lines_per_s, self.limits.flood_burst)
        self._last_input = self._heard_at = self.connected_at
        self.closed = self.state is State.CLOSED

    # ------------------------------------------------------------- states
    def apply(self, trigger: Trigger) -> None:
        try:
            self.state = TRANSITIONS[self.state, trigger]
        except KeyError:
            raise ProtocolError(f"{trigger.value} in state {self.state.value}") from None
        self.closed = self.state is State.CLOSED

    def logged_in(self) -> None:
        self.apply(Trigger.LOGIN)

    def close(self) -> None:
        self.apply(Trigger.CLOSE)

    @property
    def machine(self) -> bool:
        return self.style != HUMAN

    @property
    def bot_clock(self) -> bool:
        """Whether a match starting now gives this connection the bot clock: asked for,
        else the machine style's (docs/protocol.md §11.1)."""
        if self.clock is None:
            return self.machine
        return self.clock is ClockChoice.BOT

    @property
    def flood_tokens(self) -> float:
        """The lines it may still send at once before the flood limit, as of its last
        line counted (the flood bucket's tokens, refilled when the next one comes)."""
        return self._flood.tokens

    # ------------------------------------------------------------- input
    def receive_data(self, data: bytes | bytearray, now: float) -> None:
        """Bytes from the client (b"" is not an end: the caller closes)."""
        if self.state is _AWAITING_LOGIN:
            self._heard_at = now
        if self._taken:
            del self._pending[: self._taken]
            self._taken = 0
        decoder = self._decoder
        self._pending.extend(decoder.feed(data))
        if decoder.dropped:  # telnet or NULs: refusals owed, and empty lines (flood)
            self.answers += decoder.take_answers()
            if decoder.dropped >= DROPPED_BYTES_PER_LINE:
                self._pending.extend([EMPTY_LINE] * decoder.take_dropped(DROPPED_BYTES_PER_LINE))
        if decoder.overlong >= decoder.max_line:  # a line's worth of an overlong line's
            # bytes as an empty line: an endless line (of CRs, of anything) was read at a
            # core's speed until its line timeout, 30 s (a hostile tryout, s29)
            self._pending.extend([EMPTY_LINE] * decoder.take_overlong())
        if not decoder.holds_partial:
            self._partial_since = None
        elif self._partial_since is None:
            self._partial_since = now

    def take_answers(self) -> bytes:
        """The telnet refusals owed since the last take (nothing once closed)."""
        answers, self.answers = self.answers, b""
        return b"" if self.closed else answers

    def receive_call(self, data: bytes | bytearray, now: float) -> TableCallText | None:
        """``receive_data(data, now)``, and if ``data`` is one whole line that is a table
        call answering an ask, with nothing read before it still to take, what
        ``next_input(now)`` would give for it: the call (most reads of a bot: one call
        for the two, without the line's ``Line``). None: what came waits for
        ``next_input``."""
        if self.answer_credit > 0 and self._taken == len(self._pending) and not self.closed:
            text = self._decoder.whole_line(data)
            if text is not None:
                self._partial_since = None  # (the decoder holds nothing)
                command = parse_line(text) if text else None
                if type(command) is TableCallText and self.state is _LOGGED_IN:
                    # (next_input's way for it: a sign of life, free of the flood limit)
                    self._last_input = now
                    self.answer_credit -= 1
                    return command
                if self.state is _AWAITING_LOGIN:  # (heard, as receive_data hears it)
                    self._heard_at = now
                if self._taken:
                    del self._pending[: self._taken]
                    self._taken = 0
                self._pending.append(Line(text))  # next_input takes it as read
                return None
        self.receive_data(data, now)
        return None

    @property
    def has_input(self) -> bool:
        """Whether lines received are still to be taken by ``next_input``."""
        return self._taken < len(self._pending)

    def next_input(self, now: float) -> Input:
        """The next thing that came in, or NEED_DATA. Empty lines are skipped (they still
        count toward the flood limit, and are no sign of life)."""
        while self._taken < len(self._pending) and self.state in ADMITS:
            item = self._pending[self._taken]
            self._taken += 1
            if self._taken == len(self._pending):  # the last one: an idle connection
                # keeps none of its lines (the reader asks ``has_input`` after a table
                # call, not this again)
                self._pending.clear()
                self._taken = 0
            command = parse_line(item.text) if isinstance(item, Line) and item.text else None
            if command is not None:
                self._last_input = now
            # the answer to a request to act is what an honest bot sends most: free
            if isinstance(command, TableCallText) and self.answer_credit > 0:
                self.answer_credit -= 1
            elif not self._flood.take(now):
                self._pending.clear()
                self._taken = 0
                return Reply(ev.error("flood", phrase(Msg.FLOOD)), hang_up=True)
            if isinstance(item, BadLine):
                return Reply(ev.Error(item.code, item.text))
            if type(command) is TableCallText:  # (_admit's test, written out: every call)
                rule = ADMITS[self.state]
                if rule.table_calls:
                    return command
                return Reply(rule.refusal, proxy_header=command.text.startswith(PROXY_HEADER))
            if command is not None:
                return self._admit(command)
        return NEED_DATA

    def _admit(self, command: Command | TableCallText) -> Command | TableCallText | Reply:
        rule = ADMITS[self.state]
        return command if rule.admits(command) else Reply(rule.refusal)

    # ------------------------------------------------------------- time
    def deadline(self) -> tuple[float, TimeoutCode]:
        """When silence ends this connection, and why."""
        if self.state is _AWAITING_LOGIN:
            login_s = self.limits.login_timeout_s
            at = min(self._heard_at + login_s, self.connected_at + LOGIN_MOST * login_s)
            code = _LOGIN_TIMEOUT
        else:
            at, code = self._last_input + self.limits.idle_timeout_s, _IDLE_TIMEOUT
        if self._partial_since is not None:
            partial = self._partial_since + self.limits.partial_line_s
            if partial < at:
                return partial, TimeoutCode.LINE
        return at, code

    def watching(self, now: float) -> None:
        """What this connection asked to be told goes on (a match it observes is
        played): no silence before ``now`` (docs/settings.md ``idle_timeout_ms``)."""
        self._last_input = max(self._last_input, now)

    def timed_out(self, now: float) -> Reply | None:
        """The goodbye if the deadline has passed at ``now`` (the caller sends it and
        closes), else None."""
        at, code = self.deadline()
        if now < at:
            return None
        return Reply(ev.Error(code.value, TIMEOUT_TEXT[code]), hang_up=True)

    # ------------------------------------------------------------- output
    def send(self, event: ev.ServerEvent) -> bytes:
        """The bytes that tell ``event`` in this connection's style (nothing once closed)."""
        if isinstance(event, ev.Ask) and event.kind == "ask":  # its answer is not a flood
            self.answer_credit = min(MAX_ANSWER_CREDIT, self.answer_credit + 1)
        return self.send_lines(self.render(event))

    def send_asked(self, lines: Sequence[str]) -> bytes:
        """An ``ask`` already rendered in this connection's style (server/ask_line.py),
        as ``send`` would tell it: its answer is not a flood either."""
        self.answer_credit = min(MAX_ANSWER_CREDIT, self.answer_credit + 1)
        if self.closed:  # (send_lines, written out: once a call)
            return b""
        if len(lines) == 1:  # (encode_lines' one line, written out: every call)
            return lines[0].encode("utf-8") + b"\r\n"
        return encode_lines(lines)

    @property
    def voice(self) -> tuple[str, Lang]:
        """What this connection's lines depend on, besides the hand order (a table event
        is rendered once per voice, not once per listener)."""
        style = self.style  # (machine's test written out: read for every listener)
        return (style, self.lang if style == HUMAN else Lang.EN)

    def render(self, event: ev.ServerEvent) -> list[str]:
        """The lines that tell ``event`` in this connection's style and language."""
        if self.lang == Lang.RU and not self.machine:
            return render_ru(event, self.hand_order)
        return render(event, self.style, self.hand_order)

    def send_lines(self, lines: Sequence[str]) -> bytes:
        """Lines already rendered in this connection's style, as bytes."""
        if self.closed:
            return b""
        return encode_lines(lines)
