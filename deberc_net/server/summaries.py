"""Log lines that may come in floods (connections a full server refuses, logins refused
before any hash): the first of each reason is logged whole, what follows is counted and
logged as one summary line an interval while it lasts, never a line each: a flood of
refusals must not flood the log (docs/settings.md, "Logs")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import trio

from .spawner import Spawner

SUMMARY_S = 60.0  # a summary line a minute at most, per event and reason
TOP = 5  # addresses named in a summary, the most counted first
# addresses counted apart in one interval; past them, under OTHERS (memory follows use)
ADDRESSES_KEPT = 1000
OTHERS = "others"


@attrs.define(eq=False)
class Summaries:
    """One event's floodable lines, by ``reason``. The first of a reason is ``say``'s
    whole; those within the next ``interval`` are counted by address, and said as one
    line at its end (the reason and ``repeated``, ``addresses``, ``top``, ``window_s``);
    counting goes on an interval at a time while they come, and after a quiet one the
    next is said whole again. ``say`` logs the event (its name written at the caller,
    where tests/server/test_logs_doc.py reads it); ``spawner`` runs the intervals."""

    say: Callable[..., None]
    spawner: Spawner
    interval: float = SUMMARY_S
    _counting: dict[str, Counter[str]] = attrs.field(init=False, factory=dict)

    def note(self, reason: str, address: str, **fields: Any) -> None:
        """One more of ``reason``, from ``address`` (``fields``: its whole line's)."""
        counted = self._counting.get(reason)
        if counted is None:
            self._counting[reason] = Counter()
            self.say(reason=reason, **fields)
            self.spawner.start_soon(self._summarize, reason)
        elif address in counted or len(counted) < ADDRESSES_KEPT:
            counted[address] += 1
        else:
            counted[OTHERS] += 1

    async def _summarize(self, reason: str) -> None:
        counted = self._counting[reason]
        try:
            while True:
                await trio.sleep(self.interval)
                if not counted:
                    return  # a quiet interval: the next one is said whole
                self._say_counted(reason, counted)
        finally:
            del self._counting[reason]
            if counted:  # cut short (the server stops): what it had counted, said
                self._say_counted(reason, counted)

    def _say_counted(self, reason: str, counted: Counter[str]) -> None:
        self.say(
            reason=reason,
            repeated=counted.total(),
            addresses=len(counted),
            top=dict(counted.most_common(TOP)),
            window_s=self.interval,
        )
        counted.clear()
