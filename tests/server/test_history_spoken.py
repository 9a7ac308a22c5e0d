"""At a Tertz table, the Russian word for a command runs it (docs/protocol.md §4): a
black-box evening's `история` was read as a table call and refused ('history?')."""

from __future__ import annotations

import pytest

from .client import fields
from .conftest import Connector


@pytest.mark.timeout(30)
async def test_a_seated_tertz_player_asks_history_and_the_sheet_in_russian(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("кто")  # in the lobby too
    assert (await ann.expect("who"))["names"]
    await ann.send("new 2 tertz")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await ann.expect("event", kind="deal")
    for typed, tag in (("история", "history"), ("ІСТОРІЯ", "history"), ("Счёт", "sheet")):
        await ann.send(typed)
        told = fields(await ann.read_until(lambda x: x.startswith(("history ", "sheet ", "error"))))
        assert told[0] == tag, (typed, told)
        assert told[1]["table"] == table


@pytest.mark.timeout(30)
async def test_yazyk_sets_the_language_as_lang_does(port: int, connect: Connector) -> None:
    """`язык ru` is `lang ru`, as `кто` is `who`: it was read as a table call and refused."""
    ann = await connect.machine(port, "ann")
    await ann.send("язык ru")
    assert (await ann.expect("ok", cmd="lang"))["lang"] == "ru"
    await ann.send("мова en")
    assert (await ann.expect("ok", cmd="lang"))["lang"] == "en"
