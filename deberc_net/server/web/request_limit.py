"""Each address's allowance of requests to the web face (docs/security.md §8).

Every request spends one token of its address's bucket (addresses.py: an IPv6 /64 is
one address) before the app sees it: a page, a JSON answer, a static file, a live
socket's handshake alike. With none left it is answered here, 429 with Retry-After,
so a loop of requests for a costly answer (``/api/tables`` lists every table: ~48 ms
with 1,000 of them) holds the server's loop only as long as the allowance lasts.

Static files count as any request: a page names three and a browser keeps them, and a
share of their own would be one more allowance to spend. A live socket's handshake
counts too: its watching is bounded apart (live.Viewers), but opening one again and
again costs an observe and a state each time.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import attrs
import trio
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from deberc_net.protocol.lang import Lang

from ..addresses import limited_address
from ..config import Config
from ..limits import AddressBuckets
from .app import VARY, is_api, lang_of
from .fair_pace import FairQueue, Turn, never_gone
from .gone_clients import GoneClients, Reply, client_gone
from .live import connection_stream
from .words import W, said

# addresses' allowances held before the refilled ones are looked for and dropped
# (limits.AddressBuckets): a spray of addresses holds only those not yet refilled
KEPT = 1000
# a request holds no connection its allowance should outlive: a full bucket is dropped
_NO_CONNECTIONS: frozenset[str] = frozenset()
# set in a request's scope by the pace when its client went before its turn: no page
# was made, and its address's request is given back
UNSERVED = "deberc_net.unserved"


def request_buckets(config: Config) -> AddressBuckets | None:
    """The addresses' allowances ``config`` asks for; None: no limit."""
    rate, burst = config.web_requests_per_address_per_s, config.web_requests_per_address_burst
    if not rate or not burst:
        return None
    return AddressBuckets(rate, burst, KEPT)


@attrs.define
class RequestLimit:
    """ASGI middleware in front of the web app: a request past its address's allowance
    never reaches it."""

    app: ASGIApp
    buckets: AddressBuckets | None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.buckets is not None and scope["type"] in ("http", "websocket"):
            now = trio.current_time()
            client = scope.get("client")
            address = limited_address(client[0]) if client else "?"
            bucket = self.buckets.of(address, now, _NO_CONNECTIONS)
            if not bucket.take(now):
                # (a live socket's too: hypercorn sends it as the handshake's answer)
                path = scope["path"]
                # (a person's page: its language; the JSON's is English, nothing read)
                lang = Lang.EN if is_api(path) else lang_of(HTTPConnection(scope))
                await refusal(path, bucket.wait(now), lang)(scope, receive, send)
                return
            await self.app(scope, receive, send)
            if scope.get(UNSERVED):
                bucket.give_back(trio.current_time())
            return
        await self.app(scope, receive, send)


@attrs.define
class Pace:
    """ASGI middleware behind the addresses' allowances: all addresses' requests
    together are let in at ``per_s`` a second, ``burst`` at once; one past them waits
    its turn and is not refused. Each address within its own allowance, 200 of them
    asked 1,900 cheap requests a second and the server's loop answered 400, its core
    full, a player's ``ping`` 0.4 -> 2.2 ms at the median and 69 ms p99
    (bench/web_many_addresses.py). A client waits for an answer before it asks again on
    its connection (HTTP/1.1), so the waits slow the askers, not the tables; what waits
    is bounded by the connections' cap (``max_web_connections``, one request under way
    each), and costs a sleeping task. The turns go to the waiting address with the
    fewest of late (fair_pace.py), so a visitor is not served behind every request of
    a flood. A waiting request whose client goes (a reset, or a whole close: told by
    gone_clients.py as the kernel learns it, and by ``client_gone`` at its turn) leaves
    the queue then, no page made: its connection's place comes back as its task ends,
    and its address's request too (``UNSERVED``: RequestLimit gives it back); a turn
    given as its client went is the next one's (``_give_back``). (A rate of
    the turns given, GCRA: ``turn`` is when the next request's turn comes, with no
    burst; ``run`` gives them while any wait.) Its figures and what it costs an honest
    visitor: docs/security.md §8. *Test:* tests/web/test_request_pace.py."""

    app: ASGIApp
    per_s: float
    burst: float
    turn: float = -math.inf
    waiting: FairQueue = attrs.Factory(FairQueue)
    gone: GoneClients = attrs.Factory(GoneClients)  # (the waiting ones' clients)
    _someone: trio.Event = attrs.field(init=False, factory=trio.Event)
    _returned: trio.Event = attrs.field(init=False, factory=trio.Event)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            now = trio.current_time()
            client = scope.get("client")
            address = limited_address(client[0]) if client else "?"
            if not self.waiting and self._free_at() <= now:
                # (not counted: only the turns shared out while some wait, so that a
                # visitor's requests in a quiet spell do not put him behind a flood)
                self._take(now)
            elif not await self._waited(scope, address):
                scope[UNSERVED] = True  # (its client gone: no page made for it)
                return
        await self.app(scope, receive, send)

    async def _waited(self, scope: Scope, address: str) -> bool:
        """Wait for the request's turn; False: its client went first (or as it came)."""
        stream = connection_stream.get()
        turn = self.waiting.wait(address, gone_check(stream))

        def left() -> None:  # (told by the watch while it waits)
            if not turn.is_set():
                self.waiting.withdraw(address, turn)
                turn.set(skipped=True)

        watched = None if stream is None else self.gone.watch(stream.socket, _on_fin(scope), left)
        self._someone.set()
        try:
            await turn.wait()
        except BaseException:
            # cancelled before its turn; or just before it, the turn given before
            # this task ran again: the next one's, not spent
            if not turn.is_set():
                self.waiting.withdraw(address, turn)
            elif not turn.skipped:
                self._give_back(address, turn)
            raise
        finally:
            self.gone.unwatch(watched)
        if turn.skipped:
            return False
        if turn.gone():  # (reset between its turn and its task's run: the next one's)
            self._give_back(address, turn)
            return False
        return True

    async def run(self) -> None:
        """Give the waiting requests their turns, at the pace, for good (and watch
        their clients meanwhile)."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self.gone.run)
            while True:
                if not self.waiting:
                    self._someone = trio.Event()
                    await self._someone.wait()
                    continue
                now = trio.current_time()
                if (free_at := self._free_at()) > now:
                    self._returned = trio.Event()  # (a turn given back: sooner)
                    with trio.move_on_at(free_at):
                        await self._returned.wait()
                elif self.waiting.give(now):
                    self._take(now)

    def _give_back(self, address: str, turn: Turn) -> None:
        """A turn given to a request whose client went before it ran: the next one's."""
        self.turn -= 1 / self.per_s
        self.waiting.unserved(address, turn)
        self._returned.set()

    def _free_at(self) -> float:
        return self.turn - (self.burst - 1) / self.per_s

    def _take(self, now: float) -> None:
        self.turn = max(self.turn, now) + 1 / self.per_s


def _on_fin(scope: Scope) -> Reply:
    """What a FIN from the client of a waiting request is taken as (gone_clients.py)."""
    if scope["type"] == "websocket":
        return Reply.GONE
    return Reply.PROBED if scope.get("http_version") == "1.1" else Reply.ANSWERED


def gone_check(stream: trio.SocketStream | None) -> Callable[[], bool]:
    """Whether the client of the connection ``stream`` has gone, for its request's
    turn (None: a connection hypercorn does not serve, never gone)."""
    return never_gone if stream is None else functools.partial(client_gone, stream.socket)


def paced(app: ASGIApp, config: Config) -> ASGIApp:
    """``app`` behind the pace of all addresses' requests ``config`` asks for (a
    ``Pace``, whose ``run`` its server runs beside it)."""
    if not config.web_requests_per_s or not config.web_requests_burst:
        return app
    return Pace(app, config.web_requests_per_s, config.web_requests_burst)


def refusal(path: str, wait: float, lang: Lang = Lang.EN) -> Response:
    """429, with the whole seconds until the address has a request again: in the JSON
    error in English, as every JSON answer; in plain text in the page's ``lang`` (a
    Russian page's visitor was told it in English)."""
    seconds = max(1, math.ceil(wait))
    headers = {"Retry-After": str(seconds)}
    if is_api(path):
        why = said(W.TOO_MANY_REQUESTS, Lang.EN, seconds=seconds)
        return JSONResponse({"error": why}, 429, headers=headers)
    told = said(W.TOO_MANY_REQUESTS, lang, seconds=seconds)
    return PlainTextResponse(told, 429, headers={**headers, "Vary": VARY})
