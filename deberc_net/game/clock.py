"""A table's clocks, as a pure object fed with ``now``, and the call the clock makes.

``Clocks`` knows when the open request was made, how long each seat has per call, who
is away since when and how many timeouts each seat has had in a row. It never reads a
clock itself: every question takes ``now`` (seconds on any monotonic clock; the server
feeds it ``trio.current_time()``), so tests drive it with plain numbers.
"""

from __future__ import annotations

import math

import attrs

from . import calls as C
from .calls import Call
from .cards import PLAIN_STRENGTH, TRUMP_STRENGTH
from .match import Match
from .talk import Question


@attrs.define
class Clocks:
    players: int
    call_ms: int  # each seat's time per call, until ``set_call_ms``
    away_limit_ms: int  # how long a seat is held for a player who is away
    max_timeouts: int  # timeouts in a row that lose the match
    # a seat is warned once when this much is left of its clock for a request (0: never),
    # if its clock is longer than that; a clock no longer than that, at half of it
    # (``warning_left_ms``)
    warn_left_ms: int = 0
    lag_ms: int = 0  # the lag allowance in each clock (and in ``warn_left_ms``)
    asked_at: float = attrs.field(init=False, default=0.0)
    waiting_for: int | None = attrs.field(init=False, default=None)  # whose clock runs
    stopped: bool = attrs.field(init=False, default=False)  # the match is over
    warned: bool = attrs.field(init=False, default=False)  # for the open request
    away_since: dict[int, float] = attrs.field(init=False, factory=dict)
    per_seat_ms: list[int] = attrs.field(init=False)
    timeouts: list[int] = attrs.field(init=False)
    # ``deadline()``'s answer, worked out again whenever what it depends on changes
    # (a request, a warning given, away and back, the seats' clocks, the stop), not at
    # every reading: a busy table reads it after every call
    due: float = attrs.field(init=False, default=math.inf)

    def __attrs_post_init__(self) -> None:
        self.per_seat_ms = [self.call_ms] * self.players
        self.timeouts = [0] * self.players

    # ------------------------------------------------------------ what happens
    def set_call_ms(self, per_seat_ms: list[int]) -> None:
        """Each seat's time per call (a bot's clock is not a person's)."""
        self.per_seat_ms = list(per_seat_ms)
        self._work_out_due()

    def ask(self, seat: int | None, now: float) -> None:
        """A new request to ``seat`` (None: nobody is to act): its clock starts now."""
        self.asked_at = now
        self.waiting_for = seat
        self.warned = False
        self._work_out_due()

    def answered(self, seat: int) -> None:
        """The seat made a call itself: only timeouts in a row count."""
        self.timeouts[seat] = 0

    def timed_out(self, seat: int) -> bool:
        """Count a timeout for ``seat``; True if that one loses the match. An away seat is
        played for and forfeits only at the away limit (docs/protocol.md §11.3)."""
        if seat in self.away_since:
            return False
        self.timeouts[seat] += 1
        return self.timeouts[seat] >= self.max_timeouts

    def away(self, seat: int, now: float) -> None:
        self.away_since[seat] = now
        self._work_out_due()

    def back(self, seat: int) -> None:
        if self.away_since.pop(seat, None) is not None:
            self._work_out_due()

    def stalled(self, seconds: float) -> None:
        """The server did not run for ``seconds`` (stopped, its machine paused): none
        of it counts against a seat, the one asked nor one away (docs/scaling.md)."""
        self.asked_at += seconds
        for seat in self.away_since:
            self.away_since[seat] += seconds
        self._work_out_due()

    def stop(self) -> None:
        """The match is over: nothing is due any more."""
        self.stopped = True
        self.due = math.inf

    # ------------------------------------------------------------ what is due
    # What is due is decided by comparing ``now`` with the very deadline ``deadline()``
    # gave (never ``now - start`` with a length: in floating point the two can disagree,
    # and a task woken at its deadline would find nothing due and wake again at once).
    def deadline(self) -> float:
        """When something may next be due (``math.inf``: never, until told more); the
        same as ``due``."""
        return self.due

    def _work_out_due(self) -> None:
        """``due``: the earliest of ``_warning_deadline``, ``_request_deadline`` and each
        ``_away_deadline``, each written out here as there (the same numbers, to the
        bit: what is due is decided against them), without their calls (every call)."""
        if self.stopped:
            self.due = math.inf
            return
        due = math.inf
        seat = self.waiting_for
        if seat is not None:
            full = self.per_seat_ms[seat]
            due = self.asked_at + full / 1000
            if not self.warned and self.warn_left_ms > 0:
                warn = self.warning_left_ms(seat)
                if warn > 0:
                    due = min(due, self.asked_at + (full - warn - self.lag_ms) / 1000)
        if self.away_since:
            limit = self.away_limit_ms / 1000
            due = min(due, *[since + limit for since in self.away_since.values()])
        self.due = due

    def take_warning(self, now: float) -> int | None:
        """The seat asked, if its warning is due and not yet given (it is given now:
        once a request)."""
        if self.stopped or now < self._warning_deadline():
            return None
        self.warned = True
        self._work_out_due()
        return self.waiting_for

    def away_too_long(self, now: float) -> list[int]:
        """The seats away for the away limit or longer, lowest first."""
        if self.stopped:
            return []
        return [seat for seat in sorted(self.away_since) if now >= self._away_deadline(seat)]

    def out_of_time(self, now: float) -> int | None:
        """The seat asked, if its time for the call is up."""
        if self.stopped or now < self._request_deadline():
            return None
        return self.waiting_for

    def _request_deadline(self) -> float:
        seat = self.waiting_for
        return math.inf if seat is None else self.asked_at + self.per_seat_ms[seat] / 1000

    def _warning_deadline(self) -> float:
        seat = self.waiting_for
        if seat is None or self.warned or self.warn_left_ms <= 0:
            return math.inf
        warn = self.warning_left_ms(seat)
        if warn <= 0:
            return math.inf
        return self.asked_at + (self.per_seat_ms[seat] - warn - self.lag_ms) / 1000

    def warning_left_ms(self, seat: int) -> int:
        """What is left of ``seat``'s clock, the lag allowance aside, when it is warned
        (0: never): the warning, or for a clock no longer than that, half of it in whole
        seconds (docs/protocol.md §11.1). A 5 s clock under a 10 s warning was all
        warning and told none: its player forfeited never told (a tryout, s47); half
        of it gives him time to act on the warning, as the warning does a longer one."""
        warn = self.warn_left_ms
        if warn <= 0:
            return 0
        full = self.per_seat_ms[seat]
        if full > warn:
            return warn - self.lag_ms
        return (full - self.lag_ms) // 2 // 1000 * 1000

    def _away_deadline(self, seat: int) -> float:
        return self.away_since[seat] + self.away_limit_ms / 1000

    def held_s(self, seat: int, now: float) -> int:
        """The whole seconds an away ``seat`` is still held (0: its time is up)."""
        return max(0, math.ceil(self._away_deadline(seat) - now))

    def left_ms(self, seat: int, now: float) -> int:
        """What is left of ``seat``'s time for the open request (all of it for another
        seat: its clock starts when it is asked)."""
        full = self.per_seat_ms[seat]
        if seat != self.waiting_for:
            return full
        return max(0, int((self.asked_at - now) * 1000) + full)


def automatic_call(match: Match, seat: int) -> Call:
    """What the clock says for a seat out of time: pass, the forced answer, the lowest card."""
    legal = match.legal_calls(seat)
    names = [c.name for c in legal]
    pending = match.deal.pending
    # the asker's 'ot-…' after the declarer's answer is his choice (it makes his the
    # best, a declaration), not a forced answer: the clock concedes, 'pishet'
    replying = pending is not None and pending.kind == Question.ROST_REPLY
    for wanted in (C.PAS, C.OT, C.PROKHODIT, C.NE_PROKHODIT, C.POKAZYVAYU, C.PISHET):
        if wanted in names and not (replying and wanted == C.OT):
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
