"""Rate limits, fed with ``now`` (trio.current_time in the server, any clock in tests)."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Container

import attrs

# a token short by no more than this is a whole one, and a stamp this near the end of
# its window has left it: a wait told (``wait``, its ms rounded up) is over when the
# retry comes, whatever the float sums' last bit says (docs/protocol.md §10)
WHOLE = 1 - 1e-6
EARLY_S = 1e-6


@attrs.define
class Bucket:
    """A token bucket: ``rate`` a second on average, ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = attrs.field(init=False)
    stamp: float | None = attrs.field(init=False, default=None)

    def __attrs_post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float) -> bool:
        """Spend one token; False (nothing spent) if there is none."""
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < WHOLE:
            return False
        self.tokens -= 1
        return True

    def give_back(self, now: float) -> None:
        """A token taken for what then never happened (never past the burst)."""
        self.tokens = min(self.burst, self._tokens_at(now) + 1)
        self.stamp = now

    def ready(self, now: float) -> bool:
        """Whether ``take`` would succeed at ``now`` (nothing spent: a check before an
        act that is paid for later, once it has happened)."""
        return self._tokens_at(now) >= WHOLE

    def wait(self, now: float) -> float:
        """Seconds from ``now`` until ``take`` would succeed (0: it would now; inf:
        never, with no rate, or a burst short of a token)."""
        tokens = self._tokens_at(now)
        if tokens >= WHOLE:
            return 0.0
        if not self.rate or self.burst < WHOLE:
            return math.inf
        return (1 - tokens) / self.rate

    def _tokens_at(self, now: float) -> float:
        if self.stamp is None:
            return self.tokens
        return min(self.burst, self.tokens + (now - self.stamp) * self.rate)

    def full(self, now: float) -> bool:
        """Whether it has its whole burst again at ``now`` (forgetting it gives nothing)."""
        return self.stamp is None or self.tokens + (now - self.stamp) * self.rate >= self.burst


@attrs.define
class AddressBuckets:
    """One bucket per address, which all its connections draw on; kept after its last
    connection closes until it is full again (reconnecting gives no new allowance). Once
    more than ``kept`` are held, the refilled ones of addresses with no connection are
    dropped (looked through again only when twice as many are held: amortized)."""

    rate: float
    burst: float
    kept: int
    _buckets: dict[str, Bucket] = attrs.field(init=False, factory=dict)
    _look_at: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._look_at = self.kept

    def of(self, address: str, now: float, connected: Container[str]) -> Bucket:
        """``address``'s bucket (``connected``: the addresses with a connection now)."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) > self._look_at:
                for gone in [
                    a for a, b in self._buckets.items() if a not in connected and b.full(now)
                ]:
                    del self._buckets[gone]
                self._look_at = max(self.kept, 2 * len(self._buckets))
            bucket = self._buckets[address] = Bucket(self.rate, self.burst)
        return bucket

    def __len__(self) -> int:
        """How many buckets it holds now (the refilled ones not yet dropped among them)."""
        return len(self._buckets)


@attrs.define
class SharedBucket(Bucket):
    """A connection's bucket whose every token also spends one of ``shared``: an
    allowance all the connections of one address draw on, so that many connections
    cannot multiply what one may do."""

    shared: Bucket = attrs.field(kw_only=True)

    def take(self, now: float) -> bool:
        if not self.shared.take(now):
            return False
        if not super().take(now):
            self.shared.tokens += 1  # not spent after all
            return False
        return True

    def ready(self, now: float) -> bool:
        return self.shared.ready(now) and super().ready(now)

    def wait(self, now: float) -> float:
        """Until both have a token: the longer of their waits."""
        return max(self.shared.wait(now), super().wait(now))


@attrs.define
class WindowCounter:
    """How many times each key was counted in the last ``window`` seconds; keys with no
    recent count are forgotten, so memory follows the recent activity only: a key is
    looked at again when counted, and all of them once more than twice as many are held
    as after the last look through (amortized), so keys never counted again go too."""

    window: float
    kept: int = 1024
    _stamps: dict[str, deque[float]] = attrs.field(factory=dict)
    _look_at: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._look_at = self.kept

    def _recent(self, key: str, now: float) -> deque[float] | None:
        stamps = self._stamps.get(key)
        if stamps is None:
            return None
        gone = now - self.window + EARLY_S
        while stamps and stamps[0] <= gone:
            stamps.popleft()
        if not stamps:
            del self._stamps[key]
            return None
        return stamps

    def count(self, key: str, now: float) -> int:
        stamps = self._recent(key, now)
        return len(stamps) if stamps else 0

    def wait(self, key: str, now: float, limit: int) -> float:
        """Seconds from ``now`` until ``key`` has fewer than ``limit`` counts in the
        window (0: it has now; inf: never, a limit of 0)."""
        wait = self.wait_pending(key, now, limit, 0)
        assert wait is not None  # (nothing pending: the counts made are all known)
        return wait

    def wait_pending(self, key: str, now: float, limit: int, pending: int) -> float | None:
        """``wait``, with ``pending`` more counts that may yet be made (checks not yet
        answered: a login's wrong passwords, docs/protocol.md §4.2, §10) counted as if
        they were. None: nobody knows the wait yet, past the limit only with those,
        which may never be made (right passwords), or be made once answered, to leave
        a window from then."""
        if limit <= 0:  # a limit of 0 lets none in, ever (docs/settings.md): not 'unknown'
            return math.inf
        stamps = self._recent(key, now) or deque()
        over = len(stamps) + pending - limit  # this many more must leave: the next one too
        if over < 0:
            return 0.0
        if over >= len(stamps):
            return None
        # the pending counts, made later, leave later: these leave first, whatever
        # those turn out to be (a right password only makes the wait shorter)
        return max(0.0, stamps[over] + self.window - now)

    def add(self, key: str, now: float) -> None:
        self._recent(key, now)
        self._stamps.setdefault(key, deque()).append(now)
        if len(self._stamps) > self._look_at:  # else a key never counted again stays
            self.prune(now)
            self._look_at = max(self.kept, 2 * len(self._stamps))

    def __len__(self) -> int:
        """How many keys it still remembers (none once every stamp has left the window)."""
        return len(self._stamps)

    def prune(self, now: float) -> None:
        for key in list(self._stamps):
            self._recent(key, now)


@attrs.define
class Recent:
    """Keys seen in the last ``window`` seconds (the time each was last seen); the
    forgotten ones are dropped once more than twice as many are held as after the last
    look through (amortized), so memory follows the recent activity only."""

    window: float
    kept: int = 1024
    _seen: dict[str, float] = attrs.field(init=False, factory=dict)
    _look_at: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._look_at = self.kept

    def add(self, key: str, now: float) -> None:
        self._seen.pop(key, None)  # re-inserted: the dict stays oldest first
        self._seen[key] = now
        if len(self._seen) > self._look_at:
            self.prune(now)
            self._look_at = max(self.kept, 2 * len(self._seen))

    def seen(self, key: str, now: float) -> bool:
        at = self._seen.get(key)
        return at is not None and at > now - self.window

    def __len__(self) -> int:
        return len(self._seen)

    def prune(self, now: float) -> None:
        for key, at in list(self._seen.items()):
            if at > now - self.window:
                break  # oldest first: the rest are recent
            del self._seen[key]
