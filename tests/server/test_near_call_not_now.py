"""A slip of a call that is not legal now is told that call and why not (a tryout,
s47): 'igraj' in one's bidding turn was told "Did you mean igrayu?", while 'скин' (a
slip of «скинь», which answers 'pokazhi') got no word of the call meant."""

from __future__ import annotations

import pytest

from .client import LineClient
from .conftest import Connector
from .human import said_whole


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_slip_of_a_call_not_legal_now_names_it_and_why_not(
    port: int, connect: Connector, lang: str
) -> None:
    ann, bob = await _playing(port, connect, lang)
    await ann.send("скин")
    told = await said_whole(ann, ("Error", "Ошибка"))
    if lang == "en":
        assert told.startswith(
            "Error (unknown-command): not a table call: 'скин'. Did you mean skin? Not now: "
        ), told
    else:
        assert told.startswith(
            "Ошибка (unknown-command): «скин» — не ход и не заявка. Может быть, «скинь»?"
            " Сейчас нельзя: "
        ), told
    assert told.endswith("."), told
    # a program is told it too, in its text=, with no hint= (hint= is a legal call)
    await bob.send("skinn")
    error = await bob.expect("error", code="unknown-command")
    assert "hint" not in error, error
    assert error["text"].startswith("not a table call: 'skinn'. Did you mean skin? Not now: ")
    # a word near no call is told as before
    await ann.send("qqqqq")
    told = await said_whole(ann, ("Error", "Ошибка"))
    assert "skin" not in told and "скинь" not in told, told


async def test_a_slip_of_a_declaration_not_legal_now_names_it_and_why_not(
    port: int, connect: Connector
) -> None:
    """'tertz' (a slip of 'terts', the run of three) typed in the bidding was told only
    "not a table call" (a tryout, s48): the declarations are said by a word alone too."""
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith("You sit at table"))
    await bob.send("sit 1")
    await bob.expect("event", kind="start")
    await ann.send("tertz")
    told = await said_whole(ann, ("Error",))
    assert told == (
        "Error (unknown-command): not a table call: 'tertz'. Did you mean terts? Not now: "
        "bidding is on: terts comes after the order."
    ), told
    await bob.send("pyatdesiat")
    error = await bob.expect("error", code="unknown-command")
    assert "hint" not in error, error
    assert error["text"] == (
        "not a table call: 'pyatdesiat'. Did you mean pyatdesyat? Not now: "
        "bidding is on: pyatdesyat comes after the order."
    ), error


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_bare_number_is_named_no_call_not_legal_now(
    port: int, connect: Connector, lang: str
) -> None:
    """'20' typed in the bidding by a seat with no fifty was told «Может быть,
    «пятьдесят»? Сейчас нельзя: …» (a tryout, s50): a number is no slip of the keys
    for another number, and docs/protocol.md §8.2 gives '20' the hint of '50' only
    when that call is legal; a word's slip is still named ('tertz', above)."""
    ann, bob = await _playing(port, connect, lang)
    await ann.send("20")
    told = await said_whole(ann, ("Error", "Ошибка"))
    if lang == "en":
        assert told == (
            "Error (unknown-command): not a table call: '20'. Type 'help' or 'calls'."
        ), told
    else:
        assert told == (
            "Ошибка (unknown-command): «20» — не ход и не заявка. Наберите help или calls."
        ), told
    await bob.send("20")
    error = await bob.expect("error", code="unknown-command")
    assert "pyatdesyat" not in error["text"], error


async def _playing(port: int, connect: Connector, lang: str) -> tuple[LineClient, LineClient]:
    """ann, a person speaking ``lang``, and bob, a program, at a two-player table whose
    match has begun."""
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send(f"lang {lang}")
    await ann.read_until(lambda x: x.startswith(("Language", "Язык")))
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith(("You sit at table", "Вы за столом")))
    await bob.send("sit 1")
    await bob.expect("event", kind="start")
    return ann, bob
