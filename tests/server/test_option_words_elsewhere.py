"""An option's call said at a table without the option ('сдаюсь' where 'dave' is off)
is refused as one of tables with other options, as 'konets' is where 'manual-claim' is
off, pointing at 'help WORD' for which: not as no call at all (a tryout, s44: boris
typed «сдаюсь», «даве», «принимаю» at a Kharkov table and was told only that they were
no calls, while «конец» beside them said where it is one). Nothing changes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
import trio

from .client import fields
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


@pytest.mark.timeout(60)
async def test_an_options_word_where_the_option_is_off_says_so(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server()
    ann = await connect.machine(port, "ann")
    bob = await connect.human(port, "bob")  # in Russian
    with trio.fail_after(20):
        await ann.send("new 2 kharkov")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await bob.send("lang ru")
        await bob.send(f"sit {table}")
        await bob.read_until(lambda x: x.startswith("Раздача 1."))
        await ann.read_until(lambda x: "kind=deal " in x)
        for word in ("sdayus", "give up", "dave", "prinimayu", "predlagayu"):
            await ann.send(word)
            refused = await ann.expect("error")
            assert refused == {
                "code": "unknown-command",
                "text": f"not a table call here: '{word}'. Type 'help' or 'calls'.",
            }, word
        # a word of no option is still just no call
        await ann.send("zdayus")
        assert "not a table call here" not in (await ann.expect("error"))["text"]
        await bob.send("сдаюсь")
        told = await bob.read_until(lambda x: x.startswith("Ошибка"))
        while not told.endswith("calls."):  # (wrapped at 80 columns)
            told += " " + (await bob.read_until(lambda _: True)).strip()
        assert told == (
            "Ошибка (unknown-command): «сдаюсь» за этим столом не ход и не заявка: так"
            " говорят за столами с другими опциями (help сдаюсь скажет, с какими)."
            " Наберите help или calls."
        ), told
        # nothing changed: no call was made, the first request still open
        await ann.send("state")
        view = fields(await ann.read_until(lambda x: x.startswith(("ask ", "state "))))[1]
        assert view["talk"] == "" and view["phase"] == "bidding", view
