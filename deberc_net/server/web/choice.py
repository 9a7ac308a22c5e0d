"""Which language a page speaks (docs/web.md, "Languages"): the visitor's choice by the
switch link (``?lang=ru``), remembered by a cookie, else his browser's Accept-Language."""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote

from deberc_net.protocol.lang import Lang

COOKIE = "lang"
COOKIE_MAX_AGE_S = 365 * 24 * 3600  # a year: the choice of a visitor who comes back
# the languages a browser may prefer that read the pages in Russian (a Ukrainian or
# Belarusian club reads the Russian the table speaks sooner than English)
RUSSIAN_READERS = frozenset({"ru", "uk", "be"})
# the lang cookie: 'lang=' at the header's start or after a cookie's ';' (spaces
# between), its value to the next ';'. The name first, the check of what is before it
# after, so that the search skips to each 'lang=' at C speed: a head of 16 KiB of
# cookies, or of 'xlang=', costs tens of µs
_LANG_COOKIE = re.compile(r"lang=(?<![^; \t]lang=)([^;]*)")
# a weight as RFC 9110 §12.4.2 writes it: "0" [ "." 0*3DIGIT ] / "1" [ "." 0*3("0") ]
QVALUE = re.compile(r"0(\.[0-9]{0,3})?|1(\.0{0,3})?")


def _named(value: str | None) -> Lang | None:
    return {"en": Lang.EN, "ru": Lang.RU}.get((value or "").strip().lower())


def from_accept_language(header: str) -> Lang:
    """The browser's first language that the pages have (ru, uk, be: Russian; en:
    English), by its weights (q); none of them: English. An entry whose q is no
    qvalue of RFC 9110 §12.4.2 (0 to 1, three decimals at most: not 5, 1.5, inf, x)
    is ignored, as one it calls not acceptable (q=0) is."""
    ranked: list[tuple[float, int, str]] = []
    for at, part in enumerate(header.split(",")[:32]):  # (a header of thousands: enough)
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                # (float() alone took q=5 as the strongest weight of all)
                weight = float(value) if QVALUE.fullmatch(value.strip()) else 0.0
        primary = tag.strip().split("-")[0].lower()
        if weight > 0 and primary in RUSSIAN_READERS | {"en"}:
            ranked.append((-weight, at, primary))
    if not ranked:
        return Lang.EN
    return Lang.RU if min(ranked)[2] in RUSSIAN_READERS else Lang.EN


def lang_cookie(header: str) -> str | None:
    """The value of the first ``lang`` cookie in a Cookie ``header``, None without one:
    found by its name alone (a search in C), never the header parsed whole. Starlette's
    parse of every cookie, in Python, cost the loop about 1.2 ms a request for the 1,500
    cookies a head holds, a flood's 429 too (docs/security.md §8). As a browser sends
    it, ``lang=ru`` (the server set it): ``lang =ru`` is no ``lang`` cookie here."""
    found = _LANG_COOKIE.search(header)
    if found is None:
        return None
    value = found.group(1).strip()
    return value[1:-1] if len(value) > 1 and value[0] == value[-1] == '"' else value


def page_lang(query: Mapping[str, str], cookie: str, accept: str) -> tuple[Lang, bool]:
    """The page's language, and whether it was chosen now by the link (``?lang=``:
    the cookie is then set); a ``lang`` the pages do not have is not a choice.
    ``cookie``: the request's Cookie header, of which the ``lang`` cookie alone is read."""
    chosen = _named(query.get("lang"))
    if chosen is not None:
        return chosen, True
    kept = _named(lang_cookie(cookie))
    return (kept if kept is not None else from_accept_language(accept)), False


def switch_href(path: str, lang: Lang, query: str = "") -> str:
    """The switch link's address: this page's path, in ``lang``, with ``query`` (the
    page's own ``page=2``: made by the server, never the request's). One leading slash,
    so that a path like '//elsewhere' cannot make it another site's address."""
    kept = f"{quote(query, safe='=&')}&" if query else ""
    return quote("/" + path.lstrip("/")) + f"?{kept}lang={lang}"


__all__ = [
    "COOKIE",
    "COOKIE_MAX_AGE_S",
    "from_accept_language",
    "lang_cookie",
    "page_lang",
    "switch_href",
]
