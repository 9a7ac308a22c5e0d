"""One table's web pages, fed from one observer session (docs/web.md, "The live socket").

A page first observes the table through its own session, the way an observer's
connection does: it gets its own ``ok cmd=observe`` and ``state``. Once those have come
it joins its table's feed and its own session stops: from then on the table renders
each line once for the feed's session, however many pages watch (the session
hands the rendered text straight to the feed, not encoded into an outbox), and at most
every ``window`` the feed joins what came once and hands the same text to every page.
The switch is one synchronous step between two of the table task's steps, so a page's
lines are exactly an observer's, less its ``record`` lines: nothing lost, nothing twice.

A page gets no ``record`` lines (a deal's record, told when it ends): they are half the
bytes an observer gets, and hypercorn compresses every byte once per page
(``permessage-deflate``), the largest part of what pages cost the server; the page uses
none of them (the match id comes in the ``start`` event), and a finished match's records
are at ``/api/games/ID`` (docs/web.md, "Does watching slow the game?").

The hand sizes are public but not in an observer's lines; a page works them out from
the last sizes it was told, each ``play`` taking a card from its seat. Nor do the lines
say whose turn it is. When the sizes worked out are not what the hands hold (a deal,
the extra cards, a Tertz draw), or another seat is to act than the one last told, the
feed tells both, ``{"hand_sizes": [...], "to_act": N}``, at the end of the message whose
lines led to them, after the last line's CRLF: never a line, and no message of its own
(each costs the server about as much as a call). A table on another worker has no hands
here: its owner tells them among the lines it sends the feed's session
(server/cluster/node.py), and the feed takes them out.

A match's end closes its table, but the feed stays while its rematch is on offer
(``Feed.follow``): its session, one of the match's watchers, is told where the rematch
starts as a watcher's connection is, and the pages with it; they are told the offer
stands, and that it ended untaken, in notes of the feed's own (``{"rematch_offer": …}``).
Of a table on another worker the same: its owner keeps the offer, and tells the feed's
session it stands and when it ends (server/cluster/node.py, ``page_offer``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import trio

from deberc_net.protocol.events import ServerEvent

from ..hand_sizes import Seen, note, seen_now, to_tell, told_among
from ..lobby import Lobby
from ..session import Session
from ..table import Table
from ..table_messages import Unobserve

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
RECORD = "record "  # a deal's record line (docs/protocol.md §6): not sent to pages


def without_records(text: str) -> str:
    """``text`` (whole lines, each ended by CRLF) less its ``record`` lines."""
    if RECORD not in text:
        return text
    return "".join(f"{line}\r\n" for line in text.split("\r\n")[:-1] if not line.startswith(RECORD))


def wire_size(text: str) -> int:
    """The bytes ``text`` is sent as (UTF-8, before the socket's compression): its
    characters' count where all are ASCII (CPython knows that at no cost), else its
    encoding's length. Counted in characters, a page's bound let a table of Cyrillic
    names or suits queue some twice ``outbox_bytes`` (up to three times)."""
    return len(text) if text.isascii() else len(text.encode())


def first_lines(page: Page, own: Session, table: Table) -> tuple[Seen, str]:
    """What ``own`` (the page's own session) was told, to ``page``: less its records,
    then the hand sizes and the seat to act, before the feed's lines; those, and the
    start of a line not whole yet. (A table on another worker: its owner told them among
    the lines, server/cluster/node.py; the bus brings a long text in pieces, so the
    lines may end in part of one, whose rest comes to the feed: ``Feed.partial``.)"""
    text = own.outbox.take().decode()
    tail = ""
    if table.remote:
        head, cut, tail = text.rpartition("\r\n")
        lines, told = told_among(without_records(head + cut).split("\r\n")[:-1], None)
        text = "".join(f"{line}\r\n" for line in lines)
        seen = Seen([], None) if told is None else told
    else:
        text = without_records(text)
        seen = seen_now(table)
    page.put(text, note(seen))
    return seen, tail


@attrs.define(eq=False)
class PageSession(Session):
    """A page's observer session, told what an observer is told through the table's own
    path. Until its table's feed takes it over it queues its lines in its outbox, as a
    connection's session does; the feed's session hands them to ``to_feed`` as text,
    rendered once by the table and neither encoded nor queued (a bots' table tells a
    few lines a call). (A table on another worker writes into the outbox as bytes:
    the feed takes those through ``Outbox.direct``.)"""

    to_feed: Callable[[Sequence[str]], None] | None = None

    def send(self, event: ServerEvent) -> None:
        if self.to_feed is None:
            super().send(event)
        else:
            self.to_feed(self.connection.render(event))

    def send_lines(self, lines: list[str]) -> None:
        if self.to_feed is None:
            super().send_lines(lines)
        else:  # (the feed lets go of it before it closes)
            self.to_feed(lines)

    def send_rendered(self, lines: list[str], data: bytes) -> None:
        self.send_lines(lines)  # (as send_lines chooses: the feed or the connection)


@attrs.define(eq=False)
class Page:
    """What waits to be sent to one page: lines, and notes of the hand sizes and the
    seat to act (after the lines they follow), bounded in the bytes they are on the
    wire, UTF-8 (``wire_size``; a page too slow to read them is dropped, like a slow
    connection: ``dropped`` is set, what waited is let go, and its socket is cut off,
    live.py). The bound is on a page that has not
    taken what came before: one that has taken it all (it reads) is given a window's
    message whatever its size, so a table's burst (more than the bound told within one
    window) drops only the pages behind, not every page."""

    limit: int
    queued: list[str] = attrs.Factory(list)  # lines; a note starts with "{"
    sizes: list[int] = attrs.Factory(list)  # each one's ``wire_size``: counted once
    queued_bytes: int = 0  # their UTF-8: a line of Cyrillic is some twice its characters
    closed: bool = False
    dropped: trio.Event = attrs.Factory(trio.Event)  # past ``limit``: too slow a reader
    _ready: trio.Event = attrs.Factory(trio.Event)

    def put(self, *texts: str) -> None:
        """``texts`` (one message's: its lines, a note), queued together."""
        texts = tuple(text for text in texts if text)
        if self.closed or not texts:
            return
        sizes = [wire_size(text) for text in texts]
        size = sum(sizes)
        if self.queued and self.queued_bytes + size > self.limit:
            self.queued.clear()
            self.sizes.clear()
            self.queued_bytes = 0
            self.dropped.set()
            self.close()
            return
        self.queued += texts
        self.sizes += sizes
        self.queued_bytes += size
        self._ready.set()

    def take(self) -> str:
        """The next message: the lines queued, up to and with the first note after them
        (told after those lines, at the message's end; later lines wait for the next
        message, so a page never applies the lines' plays to later sizes)."""
        queued = self.queued
        end = next((i + 1 for i, t in enumerate(queued) if t.startswith("{")), len(queued))
        text = queued[0] if end == 1 else "".join(queued[:end])
        del queued[:end]
        self.queued_bytes -= sum(self.sizes[:end])
        del self.sizes[:end]
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
    session: PageSession
    feeds: dict[int, Feed]  # every table's feed, by table id: this one leaves it at the end
    pages: list[Page] = attrs.Factory(list)
    # the hand sizes the pages work out now, and the seat to act they were told
    seen: Seen = attrs.Factory(lambda: Seen([], None))
    # a table on another worker: what is seen as of the lines received, its owner's
    # last told, its sizes less the plays since; None: a table here, which is read
    told: Seen | None = None
    partial: str = ""  # a line the bus brought part of (a long text comes in chunks)
    lines: list[str] = attrs.Factory(list)  # what came since the last message, no records
    # pages that joined since: they had the first ``skip`` lines in their own lines
    skip: dict[Page, int] = attrs.Factory(dict)
    _wake: trio.Event = attrs.Factory(trio.Event)

    def receive(self, lines: Sequence[str]) -> None:
        """What the table tells the feed's session (``PageSession.to_feed``): always
        taken, at once, so what the pages get is in step with the table's hands."""
        self.lines += [line for line in lines if not line.startswith(RECORD)]
        self._wake.set()

    def receive_bytes(self, data: bytes) -> int:
        """What comes to the session's outbox instead (``Outbox.direct``): the lines of
        a table on another worker, as the bus brings them, and among them the hand
        sizes its owner tells (server/cluster/node.py)."""
        whole, _, self.partial = (self.partial + data.decode()).rpartition("\r\n")
        if whole:
            lines, self.told = told_among(whole.split("\r\n"), self.told)
            self.receive(lines)
        return len(data)

    def seen_now(self) -> Seen:
        """The hand sizes and the seat to act, in step with the lines received."""
        return seen_now(self.table) if self.told is None else self.told

    def join(self, page: Page, own: Session) -> None:
        """``page`` has had its own first lines (``own``'s outbox): it gets the feed's
        from now on, and ``own`` stops. (A table on another worker: at a mark of its
        owner's, ``join`` below.)"""
        first_lines(page, own, self.table)
        own.watchers = 0  # counted in the feed's session from now on
        own.close()
        self.table.post(Unobserve(own))
        self.add(page)

    def add(self, page: Page) -> None:
        # every line told before this step is in (the table's at once; what the outbox
        # holds for a batch's one write, now): the page had them in its own lines, or in
        # its state, so it skips them
        self.session.outbox.flush()
        if self.lines:
            self.skip[page] = len(self.lines)
        self.pages.append(page)
        self.session.watchers = len(self.pages)

    def leave(self, page: Page) -> None:
        if page in self.pages:
            self.pages.remove(page)
            self.skip.pop(page, None)
            self.session.watchers = len(self.pages)
            self._wake.set()  # the last one gone: the feed ends

    def flush(self) -> None:
        """What came since the last message, to every page: joined once, one string;
        then the hand sizes and the seat to act, when the lines do not tell them (and
        when a page joined meanwhile: its own note was as of its joining)."""
        self.session.outbox.flush()  # what a batch holds (lines from the bus)
        lines = self.lines
        if not lines:
            return
        self.lines = []
        lines.append("")  # each line ends with CRLF
        text = "\r\n".join(lines)
        seen = self.seen_now()
        told = note(seen) if self.skip or to_tell(self.seen, seen, text) else None
        self.seen = seen
        for page in self.pages:
            skipped = self.skip.get(page)
            page.put(text if skipped is None else "\r\n".join(lines[skipped:]), told or "")
        self.skip.clear()
        if any(page.closed for page in self.pages):  # too slow: dropped
            self.pages = [page for page in self.pages if not page.closed]
            self.session.watchers = len(self.pages)

    async def run(self, lobby: Lobby) -> None:
        """Send what comes at most every COALESCE_S, until the table closes (the pages
        then have the last word, and the rematch's table should its match's players
        agree to one, and end) or the last page leaves."""
        last = -math.inf
        with self.session.cancel_scope:
            try:
                while self.pages:
                    with trio.move_on_after(CLOSED_CHECK_S):
                        await self._wake.wait()
                    if lobby.tables.get(self.table.id) is not self.table:
                        await self.follow(lobby)  # closed: its last lines are in
                        break
                    if not self.lines:
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
                # with no checkpoint since the loop's test (or gone as it followed)
                self.feeds.pop(self.table.id, None)
                self.session.to_feed = None  # what is told until the table lets go: lost
                self.session.close()
                let_go(lobby, self.table, self.session)

    async def follow(self, lobby: Lobby) -> None:
        """The table has closed as its match ended: while its rematch is on offer (and a
        page watches), wait, as a watcher does, to be told where it starts (the line
        ``info rematch=T2``, through the feed's session: rematch._tell_watchers); the
        pages are told the offer stands, and that it ended untaken. One wait for all the
        table's pages, none past the offer's end. Under ``serve --workers``, of a
        table of another worker its owner keeps the offer and told the feed's session
        of it, and tells its end: its stand-in here is waited on (Rematches.followed),
        ended untaken should the owner be lost."""
        offer = lobby.rematches.followed(self.table, self.session)
        if offer is None:  # none, or none its watchers hear of: the pages end as ever
            return
        self.flush()  # the match's end first
        # no page joins a closed table, and these are sent next to nothing now: not
        # counted among the pages that share LIVE_MESSAGES_PER_S (window)
        del self.feeds[self.table.id]
        if not offer.ended.is_set():  # (another worker's, ended before the close was
            # noticed: told its end alone)
            self.tell({"rematch_offer": math.ceil(offer.deadline - trio.current_time())})
        while self.pages and not offer.ended.is_set():
            with trio.move_on_at(min(trio.current_time() + CLOSED_CHECK_S, offer.deadline)):
                await offer.ended.wait()
            if trio.current_time() >= offer.deadline:
                break  # (its end is due: called off as the expirer gets to it)
        self.flush()  # where it starts, if it does
        if offer.taken is None:
            self.tell({"rematch_offer": None})

    def tell(self, note: dict[str, Any]) -> None:
        """A note of the feed's own to every page, after what it was sent (never a
        line: JSON after the last CRLF, as the hand sizes)."""
        text = json.dumps(note, separators=(",", ":"))
        for page in self.pages:
            page.put(text)


def let_go(lobby: Lobby, table: Table, session: Session) -> None:
    """``session``, a page's (closed), watches ``table`` no more. Of another worker's
    table its stand-in there goes too, and what is kept here for it (cluster/node.py),
    the table's copy here or not: kept past the table's close while a rematch it
    followed stood, a closed copy takes no unobserve (both were kept for good)."""
    table.post(Unobserve(session))
    if table.remote and lobby.node is not None:
        lobby.node.disconnected(session)  # (nothing, if the unobserve went: node.forward)


def window(feeds: dict[int, Feed]) -> float:
    """The least time between two messages to a page, with so many pages watching."""
    pages = sum(len(feed.pages) for feed in feeds.values())
    return max(COALESCE_S, pages / LIVE_MESSAGES_PER_S)


async def join(
    lobby: Lobby, feeds: dict[int, Feed], table: Table, page: Page, own: PageSession
) -> Feed | None:
    """Add ``page`` to ``table``'s feed, once ``own`` has had its first lines; the first
    page's own session becomes the feed's. None: the table closed first.

    A table here tells ``own`` and the feed's session each event in one step, so the
    page joins between two. Another worker's table tells them over the bus as two
    streams, which come here out of step by a message or two (a page joining then saw a
    line twice, or missed one): the page joins where its owner, asked, marks them
    (server/cluster/node.py), at one point between two of the table's steps, in every
    stream it sends here, as a table here would."""
    node = lobby.node
    if table.id not in feeds or not table.remote or node is None:
        return _join_now(lobby, feeds, table, page, own)
    joined: list[Feed] = []
    marked = trio.Event()

    def at_the_mark() -> None:
        if lobby.tables.get(table.id) is table and not own.closed:
            joined.append(_join_now(lobby, feeds, table, page, own))
        marked.set()

    # an owner that lives but never marks (a worker of an older version): the page
    # joins without the mark after server_dead_ms, as before marks were asked for
    patience = trio.current_time() + lobby.config.server_dead_ms / 1000
    node.mark(own, table, at_the_mark)
    try:
        while not marked.is_set():
            with trio.move_on_after(CLOSED_CHECK_S):
                await marked.wait()
            if lobby.tables.get(table.id) is not table:
                break  # closed, or its owner lost: no mark comes
            if not marked.is_set() and trio.current_time() >= patience:
                node.unmark(own)
                at_the_mark()
    finally:
        if not marked.is_set():  # (or the page went first)
            node.unmark(own)
    return joined[0] if joined else None


def _join_now(
    lobby: Lobby, feeds: dict[int, Feed], table: Table, page: Page, own: PageSession
) -> Feed:
    feed = feeds.get(table.id)
    if feed is not None:
        feed.join(page, own)
        return feed
    seen, partial = first_lines(page, own, table)
    own.cancel_scope = trio.CancelScope()  # the feed's now, not the page's
    told = seen if table.remote else None
    feed = Feed(table, own, feeds, seen=seen, told=told, partial=partial)
    feeds[table.id] = feed
    own.to_feed = feed.receive
    own.outbox.direct = feed.receive_bytes
    feed.add(page)
    lobby.spawner.start_soon(feed.run, lobby)
    return feed
