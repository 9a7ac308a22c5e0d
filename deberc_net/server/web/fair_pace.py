"""Whose request goes next when the web face's requests wait for the pace of all
addresses' together (request_limit.Pace, docs/security.md §8): the waiting address
with the fewest recent turns, each turn counted less as it ages (halved every
``HALF_LIFE_S``), an address's own requests in the order they came. First come, first
served, a visitor waited behind every request of a flood (200 addresses: 1.3 to 2.3 s,
and behind each of an address's connections, up to the connections' cap); now he
waits only for addresses that had fewer turns than his of late. An address asking as
much as the flood's each gets as many turns as each of them (the pace shared evenly
among the addresses asking), no fewer and no more: a flood's share does not grow with
its requests or connections.

Only the turns given here, while some wait, are counted: a visitor who asked much in
a quiet spell, when none waited, was put behind a flood that then began (its addresses
new, counted none: 4 pages a second, none answered in 5 s where first come first
served answered one in 1.3 s).

Memory is bounded by the turns, not the addresses: a turn adds one to its address's
count, the counts decay, and an address whose count fell below ``FORGOTTEN`` with
nothing waiting is dropped once more than ``KEPT`` are held (looked through again when
twice as many are: amortized), so at most about twice rate × HALF_LIFE_S / ln 2 /
FORGOTTEN are held (8,700 at 150 a second) beside the addresses waiting, however many
addresses ask.

A request whose client has gone by its turn (``Turn.gone``: its connection reset) is
skipped as it comes up: the turn goes to the next, at once, and is not counted against
its address. A flood that connected, sent a request and closed, again and again, had
each of those requests take a turn the visitors behind it waited for. (One seen gone
while it waits is withdrawn then, request_limit.Pace; one whose turn was given as its
client went gives it back, ``unserved``: its address's heap entry keeps the count it
had, so it may come up a little later than its due once.)
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Callable

import attrs
import trio

HALF_LIFE_S = 5.0
FORGOTTEN = 0.25  # (a quarter of a turn: some 10 s after one turn, as if none)
KEPT = 1000
# the counts are kept scaled by 2 ** (age in half-lives since ``epoch``), so that they
# all decay at once, in their order; rescaled before the scale nears a float's end
RESCALE_AFTER = 500


def never_gone() -> bool:
    """(A request whose client is not watched.)"""
    return False


@attrs.define(eq=False)
class Turn:
    """A waiting request's place: set at its turn, or when it came up and its client
    had gone (``skipped``: no turn spent on it)."""

    gone: Callable[[], bool] = never_gone  # whether its client has gone: asked at its turn
    skipped: bool = False
    # what its turn added to its address's count, and that count's epoch (given back)
    counted: tuple[float, float | None] = (0.0, None)
    _given: trio.Event = attrs.field(init=False, factory=trio.Event)

    def is_set(self) -> bool:
        return self._given.is_set()

    async def wait(self) -> None:
        await self._given.wait()

    def set(self, *, skipped: bool = False) -> None:
        self.skipped = skipped
        self._given.set()


@attrs.define
class FairQueue:
    half_life: float = HALF_LIFE_S
    kept: int = KEPT
    # each address's turns, each weighted by 2 ** ((when - epoch) / half_life)
    _counts: dict[str, float] = attrs.field(init=False, factory=dict)
    _epoch: float | None = attrs.field(init=False, default=None)
    # each address with a request waiting (an empty one: all withdrawn, its place in
    # ``_ready`` not yet reached), its requests first come first
    _queues: dict[str, deque[Turn]] = attrs.field(init=False, factory=dict)
    # the addresses in ``_queues`` by their count when queued, then arrival: an
    # address's count changes only at its turn, when it leaves the heap
    _ready: list[tuple[float, int, str]] = attrs.field(init=False, factory=list)
    _arrivals: itertools.count[int] = attrs.field(init=False, factory=itertools.count)
    _waiting: int = attrs.field(init=False, default=0)
    _look_at: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._look_at = self.kept

    def __len__(self) -> int:
        """How many requests wait."""
        return self._waiting

    def remembered(self) -> int:
        """How many addresses' counts are held (the decayed ones not yet dropped)."""
        return len(self._counts)

    def count(self, address: str, now: float) -> float:
        """``address``'s turns of late, each halved every half-life since it was given."""
        return self._counts.get(address, 0.0) / self._weight(now)

    def wait(self, address: str, gone: Callable[[], bool] = never_gone) -> Turn:
        """A request from ``address`` waits: its place, set at its turn; ``gone``: whether
        its client has gone, asked when it comes up."""
        event = Turn(gone)
        queue = self._queues.get(address)
        if queue is None:
            queue = self._queues[address] = deque()
            entry = (self._counts.get(address, 0.0), next(self._arrivals), address)
            heapq.heappush(self._ready, entry)
        queue.append(event)
        self._waiting += 1
        return event

    def withdraw(self, address: str, event: Turn) -> None:
        """A request that waited and was not given its turn is gone (its connection
        closed): its place goes to the next."""
        self._queues[address].remove(event)
        self._waiting -= 1

    def give(self, now: float) -> bool:
        """The next turn to the waiting address with the fewest turns of late, its
        first request whose client has not gone (those before it skipped, uncounted);
        False: none waits."""
        while self._ready:
            _, _, address = heapq.heappop(self._ready)
            queue = self._queues[address]
            while queue and queue[0].gone():
                queue.popleft().set(skipped=True)
                self._waiting -= 1
            if not queue:  # (all withdrawn, or gone)
                del self._queues[address]
                continue
            turn = queue.popleft()
            turn.set()
            self._waiting -= 1
            turn.counted = (self.served(address, now), self._epoch)
            if queue:
                entry = (self._counts[address], next(self._arrivals), address)
                heapq.heappush(self._ready, entry)
            else:
                del self._queues[address]
            return True
        return False

    def served(self, address: str, now: float) -> float:
        """``address`` had a turn: what it added to its count."""
        weight = self._weight(now)
        self._counts[address] = self._counts.get(address, 0.0) + weight
        if len(self._counts) > self._look_at:  # (a spray of addresses: forget the old)
            for gone in [
                a
                for a, c in self._counts.items()
                if c < FORGOTTEN * weight and a not in self._queues
            ]:
                del self._counts[gone]
            self._look_at = max(self.kept, 2 * len(self._counts))
        return weight

    def unserved(self, address: str, turn: Turn) -> None:
        """``turn``, given to ``address``, went unused (its client gone): not counted."""
        weight, epoch = turn.counted
        if address in self._counts and epoch == self._epoch:  # (not rescaled meanwhile)
            self._counts[address] = max(0.0, self._counts[address] - weight)
        turn.counted = (0.0, None)

    def _weight(self, now: float) -> float:
        if self._epoch is None:
            self._epoch = now
        age = (now - self._epoch) / self.half_life
        if age > RESCALE_AFTER:  # all scaled alike: their order, and the heap's, kept
            scale = float(2.0**age)
            self._counts = {a: c / scale for a, c in self._counts.items()}
            self._ready = [(c / scale, n, a) for c, n, a in self._ready]
            heapq.heapify(self._ready)  # (two counts rounded alike: then arrival orders)
            self._epoch, age = now, 0.0
        return float(2.0**age)
