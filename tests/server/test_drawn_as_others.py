"""A new name holds no small capital or phonetic letter drawn as another letter
(docs/security.md §1): a hostile tryout (s45) took 'bᴏss' (a small capital O) beside
the admin, 'hoᴜse-search3' among the house bots, 'ɡregory' (a script g) beside the
guest gregory and 'aǁen' (a lateral click, drawn as ll) beside allen, none of which
the look-alike comparison made one with its letter. Each is refused, a guest's as a
registration, and told why; an account registered before keeps logging in."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Awaitable, Callable

import pytest
import trio

from deberc_net.server.accounts import DRAWN_AS_OTHERS, SMALL_CAPITALS, new_name

from .client import LineClient
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]

_WHY = {
    "code": "bad-argument",
    "text": "a name has no small capitals or phonetic letters, drawn as other letters"
    " (ᴏ as o, ʀ as R, ɡ as g, ǀ as l, ɑ as a): write it in the letters a language"
    " spells with",
}


async def _login(connect: Connector, port: int, line: str) -> LineClient:
    client = await connect.raw(port, "new")
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send(line)
    return client


@pytest.mark.timeout(30)
async def test_a_new_name_has_no_letter_drawn_as_another(
    start_server: StartServer, connect: Connector, register_old: Register
) -> None:
    await register_old("r\u1d0fb", "pw-rob-1")  # a small capital O, from before the rule
    port = await start_server(admins=["boss"])
    with trio.fail_after(20):
        gregory = await _login(connect, port, "login gregory")
        await gregory.expect("ok", cmd="login")
        allen = await _login(connect, port, "login allen")
        await allen.expect("ok", cmd="login")
        for line in (
            "login b\u1d0fss",  # ᴏ: the admin's name
            "login b\u1d0fss pw-boss-2",  # nor registered
            "login ho\u1d1cse-search3",  # ᴜ: a house bot
            "login \u029couse-search3",  # ʜ
            "login \u0261regory",  # ɡ, script g: a guest's held name
            "login a\u01c1en",  # ǁ, lateral click: allen
            "login a\u01c0len",  # ǀ, dental click
            "login \u0251llen pw-allen-2",  # ɑ, Latin alpha
            "login \u0280acer",  # ʀ
        ):
            client = await _login(connect, port, line)
            assert await client.expect("error") == _WHY, line
            await client.send("who")  # refused: not logged in, nothing taken
            await client.expect("error", code="not-logged-in")
        await gregory.send("who")
        assert (await gregory.expect("who"))["names"] == "allen,gregory"
        # letters a language spells with are names as ever, and the old account logs in
        for line in ("login gr\u00e9gory", "login \u0259li", "login s\u00f8ren pw-soren-1"):
            client = await _login(connect, port, line)
            await client.expect("ok", cmd="login")
        old = await _login(connect, port, "login r\u1d0fb pw-rob-1")
        assert (await old.expect("ok", cmd="login"))["name"] == "r\u1d0fb"


def test_the_small_capitals_are_every_letter_unicode_names_so() -> None:
    """SMALL_CAPITALS is written out (a scan of Unicode at import cost the server's
    start); it holds only small capitals, and, in the Unicode of Python 3.11 (14.0),
    all of them."""
    named = {
        chr(c)
        for c in range(0x80, 0x20000)
        if "SMALL CAPITAL" in unicodedata.name(chr(c), "") and chr(c).isalpha()
    }
    assert set(SMALL_CAPITALS) <= named
    if unicodedata.unidata_version == "14.0.0":
        assert set(SMALL_CAPITALS) == named, sys.version
    assert set(SMALL_CAPITALS) <= DRAWN_AS_OTHERS
    assert not new_name("b\u1d0fss") and new_name("boss") and new_name("\u0259li")
