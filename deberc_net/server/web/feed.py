"""One table's web pages, fed from one observer session (docs/web.md, "The live socket").

A page first observes the table through its own session, the way an observer's
connection does: it gets its own ``ok cmd=observe`` and ``state``. Once those have come
it joins its table's feed and its own session stops: from then on the table renders and
encodes each line once for the feed's session, however many pages watch, and at most
every ``window`` the feed decodes what came once and hands the same text to every page.
The switch is one synchronous step between two of the table task's steps, so a page's
lines are exactly an observer's: nothing lost, nothing twice.
"""

from __future__ import annotations

import math

import attrs
import trio

from ..lobby import Lobby
from ..session import Session
from ..table import Table, Unobserve

CLOSED_CHECK_S = 1.0  # how often a quiet feed checks whether its table closed
# A page is sent at most one message every COALESCE_S (the first line after a quiet
# spell at once), what came meanwhile in one message; and all pages together at most
# about LIVE_MESSAGES_PER_S: with more than LIVE_MESSAGES_PER_S * COALESCE_S pages the
# wait grows with their number. A message costs the server about as much CPU as a call
# (hypercorn, wsproto and its compression, trio's socket path), so this is what keeps
# watching from slowing the game; on a person's table, calls come seconds apart and a
# page sees each at once.
COALESCE_S = 0.25
LIVE_MESSAGES_PER_S = 60


@attrs.define(eq=False)
class Page:
    """What waits to be sent to one page: whole messages, bounded in characters (a page
    too slow to read them is dropped, like a slow connection)."""

    limit: int
    queued: list[str] = attrs.Factory(list)
    queued_chars: int = 0
    closed: bool = False
    _ready: trio.Event = attrs.Factory(trio.Event)

    def put(self, text: str) -> None:
        if self.closed or not text:
            return
        if self.queued_chars + len(text) > self.limit:
            self.queued.clear()
            self.close()
            return
        self.queued.append(text)
        self.queued_chars += len(text)
        self._ready.set()

    def take(self) -> str:
        text = self.queued[0] if len(self.queued) == 1 else "".join(self.queued)
        self.queued.clear()
        self.queued_chars = 0
        return text

    async def wait(self) -> bool:
        """Wait until there is something to send; False once closed and empty."""
        while not self.queued:
            if self.closed:
                return False
            self._ready = trio.Event()
            await self._ready.wait()
        return True

    def close(self) -> None:
        """Nothing more comes; what is queued is still sent."""
        self.closed = True
        self._ready.set()


@attrs.define(eq=False)
class Feed:
    """One table's pages and the session that observes the table for all of them."""

    table: Table
    session: Session
    feeds: dict[int, Feed]  # every table's feed, by table id: this one leaves it at the end
    pages: list[Page] = attrs.Factory(list)
    chunks: list[bytes] = attrs.Factory(list)  # what came since the last message, encoded
    # pages that joined since: they had the first ``skip`` chunks in their own lines
    skip: dict[Page, int] = attrs.Factory(dict)
    _wake: trio.Event = attrs.Factory(trio.Event)

    def receive(self, data: bytes) -> int:
        """The session's outbox writes here (``Outbox.direct``): everything, always."""
        self.chunks.append(data)
        self._wake.set()
        return len(data)

    def join(self, page: Page, own: Session) -> None:
        """``page`` has had its own first lines (``own``'s outbox): it gets the feed's
        from now on, and ``own`` stops."""
        page.put(own.outbox.take().decode())
        own.watchers = 0  # counted in the feed's session from now on
        own.close()
        self.table.post(Unobserve(own))
        self.add(page)

    def add(self, page: Page) -> None:
        # what the table told and holds for its batch's one write (session.batched)
        # came before this step: the feed has it now, so the page skips it
        self.session.outbox.flush()
        if self.chunks:
            self.skip[page] = len(self.chunks)
        self.pages.append(page)
        self.session.watchers = len(self.pages)

    def leave(self, page: Page) -> None:
        if page in self.pages:
            self.pages.remove(page)
            self.skip.pop(page, None)
            self.session.watchers = len(self.pages)
            self._wake.set()  # the last one gone: the feed ends

    def flush(self) -> None:
        """What came since the last message, to every page: decoded once, one string."""
        chunks = self.chunks
        if not chunks:
            return
        text = b"".join(chunks).decode()
        self.chunks = []
        for page in self.pages:
            skipped = self.skip.get(page)
            page.put(text if skipped is None else b"".join(chunks[skipped:]).decode())
        self.skip.clear()
        if any(page.closed for page in self.pages):  # too slow: dropped
            self.pages = [page for page in self.pages if not page.closed]
            self.session.watchers = len(self.pages)

    async def run(self, lobby: Lobby) -> None:
        """Send what comes at most every COALESCE_S, until the table closes (the pages
        then have the last word and end) or the last page leaves."""
        last = -math.inf
        with self.session.cancel_scope:
            try:
                while self.pages:
                    with trio.move_on_after(CLOSED_CHECK_S):
                        await self._wake.wait()
                    if lobby.tables.get(self.table.id) is not self.table:
                        break  # closed: its last lines are in
                    if not self.chunks:
                        self._wake = trio.Event()
                        continue
                    await trio.sleep_until(last + window(self.feeds))
                    self._wake = trio.Event()
                    last = trio.current_time()
                    self.flush()
            finally:
                self.flush()
                for page in self.pages:
                    page.close()
                del self.feeds[self.table.id]  # with no checkpoint since the loop's test
                self.session.close()
                self.table.post(Unobserve(self.session))


def window(feeds: dict[int, Feed]) -> float:
    """The least time between two messages to a page, with so many pages watching."""
    pages = sum(len(feed.pages) for feed in feeds.values())
    return max(COALESCE_S, pages / LIVE_MESSAGES_PER_S)


def join(lobby: Lobby, feeds: dict[int, Feed], table: Table, page: Page, own: Session) -> None:
    """Add ``page`` to ``table``'s feed, once ``own`` has had its first lines; the first
    page's own session becomes the feed's."""
    feed = feeds.get(table.id)
    if feed is not None:
        feed.join(page, own)
        return
    page.put(own.outbox.take().decode())
    own.cancel_scope = trio.CancelScope()  # the feed's now, not the page's
    feed = feeds[table.id] = Feed(table, own, feeds)
    own.outbox.direct = feed.receive
    feed.add(page)
    lobby.nursery.start_soon(feed.run, lobby)
