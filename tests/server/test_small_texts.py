"""Four small texts a black-box tryout over nc met (s46), in English and Russian, over
real sockets: a watcher's table call says he watches; 'sit' at one's own table says he
sits there already; 'calls' with a call refuses it and points at 'help CALL'
(docs/protocol.md §4.4: 'calls' takes only lang=); 'state' just after one's match says
that match is over and what shows it."""

from __future__ import annotations

import pytest

from .client import fields
from .conftest import Connector
from .human import said_whole

TEXTS = {
    "en": {
        "lang": "Language",
        "watching": "Error (unknown-command): 'pas' is not a command, and you watch table 1:"
        " its players make the calls. Type 'help'.",
        "own": "Error (already-seated): you already sit at table 2",
        "calls": "Error (bad-argument): 'calls' lists every table call and takes none:"
        " 'help rost?' tells of one",
        "over": "Error (not-seated): you sit at no table and observe none: your match at"
        " table 1 is over ('last', 'sheet' and 'history' show it)",
    },
    "ru": {
        "lang": "Язык",
        "watching": "Ошибка (unknown-command): «pas» — не команда, а за столом 1 вы"
        " зритель: ходят игроки. Наберите help.",
        "own": "Ошибка (already-seated): вы уже сидите за столом 2",
        "calls": "Ошибка (bad-argument): calls перечисляет все ходы и хода не принимает:"
        " о нём — help rost?",
        "over": "Ошибка (not-seated): вы не сидите за столом и ни за каким не смотрите:"
        " ваша партия за столом 1 окончена (её показывают last, sheet и history)",
    },
}


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_small_texts_say_where_one_is(port: int, connect: Connector, lang: str) -> None:
    told = TEXTS[lang]
    ann = await connect.human(port, "ann")
    bob = await connect.human(port, "bob")
    cat = await connect.human(port, "cat")
    for person in (ann, bob, cat):
        await person.send(f"lang {lang}")
        await person.read_until(lambda x: x.startswith(("Language", "Язык")))
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith(("You sit at table 1", "Вы за столом 1")))
    await bob.send("sit 1")
    await cat.send("observe 1")
    await cat.read_until(lambda x: x.startswith(("Waiting for", "Ход игрока")))
    await cat.send("pas")  # was "…and you sit at no table"
    assert await said_whole(cat) == told["watching"]
    dan = await connect.human(port, "dan")
    await dan.send(f"lang {lang}")
    await dan.send("new 2")
    await dan.read_until(lambda x: x.startswith(("You sit at table 2", "Вы за столом 2")))
    await dan.send("sit 2")  # was "you sit at table 2: 'leave' first"
    assert await said_whole(dan) == told["own"]
    await dan.send("calls rost?")  # was the whole list, the argument ignored
    assert await said_whole(dan) == told["calls"]
    await bob.send("leave!")
    await ann.read_until(lambda x: x.startswith(("Game over", "Партия окончена")))
    await ann.send("state")  # was "you sit at no table and observe none"
    assert await said_whole(ann, ("Error", "Ошибка")) == told["over"]
    await ann.send("last")  # as it says: 'last' still shows that match
    assert "not-seated" not in await said_whole(ann)


async def test_a_programs_calls_with_a_call_is_refused_and_alone_lists_them(
    port: int, connect: Connector
) -> None:
    """The machine style: 'calls rost?' is bad-argument as any argument but lang= (it
    listed every call, the argument ignored); 'calls' alone lists them as before."""
    bot = await connect.machine(port, "bot")
    await bot.send("calls rost?")
    refused = await bot.expect("error", code="bad-argument")
    assert (
        refused["text"]
        == "'calls' lists every table call and takes none: 'help rost?' tells of one"
    )
    await bot.send("calls")
    assert fields(await bot.read_until(lambda _: True))[0] == "help"
