"""A request's query is bounded in fields before anything parses it.

Starlette parses a query whole (urllib's ``parse_qsl``) the first time a page reads
one of its fields, and every page reads one, ``?lang=`` (its refusal past the address's
allowance too, request_limit.py: its words are in the page's language): a URL of 8,000
empty fields in 16 KiB cost the loop 25 to 40 ms a request, a hostile tryout's four
connections from one address sending it (most of them refused with 429) took a player's
``ping`` from 0.4 ms to 100 ms at the median, and two players' table made 74 calls in
8 s where it made 2,700 beside a flood of plain requests. No page reads more than four
(``lang``, ``page``, ``variant``, ``players``), so a query of more than QUERY_FIELDS
fields is refused, 400, before it is parsed, in the words of the page's language as
its cookie and Accept-Language say it (not its query), in JSON under /api. *Test:*
tests/web/test_request_fields.py."""

from __future__ import annotations

import attrs
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from deberc_net.protocol.lang import Lang

from .app import VARY, is_api
from .choice import page_lang
from .words import W, said

QUERY_FIELDS = 16  # fields a query may have ('a=1&b=2': 2), many times a page's


def too_many_fields(query: bytes) -> bool:
    """Whether ``query`` (after the '?') has more than QUERY_FIELDS fields: split at
    '&' alone, as parse_qsl splits them."""
    return query.count(b"&") >= QUERY_FIELDS


@attrs.define
class QueryLimit:
    """ASGI middleware in front of the web app and its limits: a query of too many
    fields never reaches them."""

    app: ASGIApp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and too_many_fields(scope["query_string"]):
            await refusal(HTTPConnection(scope))(scope, receive, send)
            return
        await self.app(scope, receive, send)


def refusal(request: HTTPConnection) -> Response:
    path = request.url.path
    if is_api(path):
        why = said(W.TOO_MANY_FIELDS, Lang.EN, most=QUERY_FIELDS)
        return JSONResponse({"error": why}, 400)
    # (its cookie and Accept-Language: its ?lang= is among the fields not read)
    headers = request.headers
    lang, _ = page_lang({}, headers.get("cookie", ""), headers.get("accept-language", ""))
    told = said(W.TOO_MANY_FIELDS, lang, most=QUERY_FIELDS)
    return PlainTextResponse(told, 400, headers={"Vary": VARY})
