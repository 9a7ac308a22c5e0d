"""Stand-ins for what another worker holds.

- ``RemoteTable``: on a worker that does not own a table, the table as the lobby's copy
  knows it (its info, from the bus). What a session posts to it goes over the bus to
  the owner; it runs no task.
- ``RemoteSession``: on a table's owner, a player (or watcher) connected to another
  worker. What the table sends it is rendered here, in the player's style and
  language, and the text goes over the bus to that worker's connection; where the
  table seats it (or lets it watch) is told back the same way, in the same order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.connection import Connection
from deberc_net.protocol.events import ServerEvent, TableState

from ..hand_sizes import Seen
from ..ignoring import digest
from ..session import Ending, Outbox, Session
from ..table import Table
from ..table_messages import Message

if TYPE_CHECKING:
    from deberc_net.game.match import Match

    from .node import Node

_TABLE: Any = Session.__dict__["table"]  # the slots under the properties below
_SEAT: Any = Session.__dict__["seat"]


@attrs.frozen
class MatchNow:
    """What the web face shows of another worker's running match (docs/web.md), told by
    its owner with the table: at most once a trick, so the hand sizes are those at the
    start of the trick being laid."""

    match_id: str
    totals: tuple[int, ...]
    deal_no: int
    hand_sizes: tuple[int, ...]
    # the points hanging (the sum this deal plays for) and, under hanging-separate, the
    # sums waiting for the deals after it (docs/rules.md §5); an older owner tells neither
    hanging: int = 0
    hanging_after: tuple[int, ...] = ()
    # a game with a talon (Tertz): the cards left to draw, the turned one included, at
    # the start of the trick being laid; None: no talon, or an older owner's
    talon: int | None = None


def talon_left(match: Match) -> int | None:
    """A game with a talon's cards left to draw, the turned one included, as its views
    say ``talon`` (Tertz: docs/protocol.md); None for a game without one."""
    left = dict(match.deal.view_fields(None)).get("talon")
    return left if isinstance(left, int) else None


@attrs.define(eq=False)
class RemoteTable(Table):
    """A table another worker (``owner``) holds: what the bus told of it."""

    remote = True
    owner: int = 0
    node: Node | None = None
    copy: ev.TableInfo | None = None
    now: MatchNow | None = None  # its match, once started
    # the id of its match being played, as its owner told it (a private table's and a
    # board's too, whose ``now`` is not told); None: none, or not told yet
    playing: str | None = None
    # the name keys of this worker's players its owner placed out of it (their match
    # there over): a reserved copy still told waiting is old news for them (stale_for)
    left_here: set[str] = attrs.field(factory=set)

    def update(
        self,
        info: ev.TableInfo,
        private: bool,
        reserved: tuple[str, ...] | None,
        board: str | None,
    ) -> None:
        self.copy = info
        self.seats = list(info.seats)
        self.state = info.state
        self.private = private
        self.reserved = reserved
        self.board = board

    def stale_for(self, key: str) -> bool:
        return key in self.left_here

    def update_match(self, now: MatchNow | None, away_left_s: dict[int, float]) -> None:
        """Its match as told, and how long each away seat is still held (seconds, when
        told): the clocks here count those down as the owner's do."""
        self.now = now
        held_s = self.clocks.away_limit_ms / 1000
        here = trio.current_time()
        self.clocks.away_since = {seat: here + left - held_s for seat, left in away_left_s.items()}

    def info(self) -> ev.TableInfo:
        assert self.copy is not None
        now = self.now  # its match as its owner last told it (at most once a trick)
        away = self._away_seats()  # as its owner told them (update_match)
        if now is None:
            return attrs.evolve(self.copy, away=away)
        return attrs.evolve(self.copy, deal=now.deal_no, score=now.totals, away=away)

    def post(self, message: Message, *, request: bool = False, capped: bool = True) -> bool:
        if self.state == TableState.CLOSED or self.node is None:
            return False
        return self.node.forward(self, message, request)


class WatchedSet(set[int]):
    """A remote session's tables watched: each change is told to its worker."""

    session: RemoteSession | None = None

    def add(self, table: int) -> None:
        new = table not in self
        super().add(table)
        if new and self.session is not None:
            self.session.node.watching(self.session, table, True)

    def discard(self, table: object) -> None:
        had = table in self
        super().discard(table)
        if self.session is None:
            return
        # the match it watched to its end there, if any (Lobby.table_closed sets it just
        # before): its own worker's session is told it (its 'sheet'); never kept here
        ended, self.session.watched_match = self.session.watched_match, None
        if had and isinstance(table, int):
            self.session.node.watching(self.session, table, False, ended)


class RemoteSession(Session):
    """A player connected to worker ``worker`` (its session ``remote_id`` there)."""

    remote = True

    def __init__(self, node: Node, worker: int, remote_id: int) -> None:
        self.node = node
        self.worker = worker
        self.remote_id = remote_id
        self.ready = False  # placements are told from here on
        # a web page's watcher: the hand sizes it works out and the seat to act it was
        # told (node.py tells both when they are not what the table holds); None: none
        # told yet
        self.page_seen: Seen | None = None
        # the ids of its requests at each table here (by its id), oldest first (None: a
        # worker of an older version's): a table's answer names its oldest. A table
        # handles its requests in order, but two tables may not (one waits on the
        # database, past its worker's wait): an id per session named the wrong request
        self.asked: dict[int, deque[int | None]] = {}
        # whom its player ignores, as his worker told it (ignoring.digest of each name
        # key): kept up to date by every message of his and each change (node.py)
        self.ignored_digests: frozenset[str] = frozenset()
        # the number his worker gave the seek it sent here last (None: none, or an older
        # worker's), named back should the seek end here (Node.seek_ended)
        self.seek_number: int | None = None
        connection = Connection(0.0)
        connection.logged_in()
        super().__init__(
            remote_id,
            Outbox(0),
            trio.CancelScope(),
            connection,
            peer=f"w{worker}:{remote_id}",
            address=f"w{worker}",
        )
        watched = WatchedSet()
        watched.session = self
        self.observing = watched
        # its address is its worker's until a message of its player tells his own
        # (payloads.told_address)
        self.address_told = False
        self.ready = True

    @property
    def table(self) -> Table | None:
        return cast(Table | None, _TABLE.__get__(self, Session))

    @table.setter
    def table(self, table: Table | None) -> None:
        _TABLE.__set__(self, table)
        if self.ready:
            self.node.placed(self)

    @property
    def seat(self) -> int | None:
        return cast(int | None, _SEAT.__get__(self, Session))

    @seat.setter
    def seat(self, seat: int | None) -> None:
        _SEAT.__set__(self, seat)
        if self.ready:
            self.node.placed(self)

    def ignores(self, key: str) -> bool:
        return bool(self.ignored_digests) and digest(key) in self.ignored_digests

    def seat_coming(self, table: Table) -> None:
        # his worker holds his next line until the table has seated him: the Sit's
        # answer names the wait (one read meanwhile was refused 'already-seated' there
        # before his 'ok cmd=sit' came: docs/protocol.md §5.16)
        wait = self.node.seat_wait()
        self.asked.setdefault(table.id, deque()).append(wait)
        _TABLE.__set__(self, table)
        self.node.placed(self, wait)

    def request_handled(self, table: int | None = None) -> None:
        super().request_handled(table)
        request = None
        if table is not None and (asked := self.asked.get(table)):
            request = asked.popleft()
            if not asked:
                del self.asked[table]  # (the table may close: nothing kept for it)
        self.node.answered(self, request)  # the player's worker takes his next line

    def send(self, event: ServerEvent) -> None:
        asks = 1 if isinstance(event, ev.Ask) and event.kind == "ask" else 0
        self.node.send_out(self, self.connection.render(event), asks)

    def send_lines(self, lines: list[str] | Sequence[str]) -> None:
        self.node.send_out(self, list(lines), 0)

    def send_asked(self, line: str) -> None:
        self.node.send_out(self, [line], 1)

    def send_rendered(self, lines: list[str], data: bytes) -> None:
        self.send_lines(lines)

    def send_watched(self, lines: list[str], data: bytes, table: int) -> None:
        self.node.send_out(self, list(lines), 0, table)

    # (``why``: its own worker's disconnect line says its reason, as that worker knows it)
    def close(self, why: Ending | None = None) -> None:
        self.node.close_remote(self)

    def abort(self, why: Ending | None = None) -> None:
        self.node.close_remote(self)
