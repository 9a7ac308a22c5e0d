"""A line at a table that names a call but reads as none ('играю зз', 'от зз', 'ход зз',
an option's 'konets' where the option is off) is refused in 'lang ru' with its reason,
as the English is: a tryout (s43) typed them and was told only ««играю зз» — не ход и не
заявка», not to name a suit. The machine style's text stays the English sentence, and
a call's own word is no mistyped command ('ot zz' was asked "Did you mean 'bot'?")."""

from __future__ import annotations

import re

from .client import LineClient
from .conftest import Connector

MARK = "Язык: русский."  # the answer to 'lang ru': where a refusal's lines end


async def told(person: LineClient, line: str, mark: str = MARK) -> str:
    """The refusal that answers ``line``, its wrapped lines joined (80 columns)."""
    await person.send(line)
    await person.send("lang ru" if mark == MARK else "lang en")
    head = await person.read_until(lambda x: x.startswith(("Ошибка (", "Error (")))
    rest = []
    while (more := await person.read_until(lambda x: True)) != mark:
        assert more.startswith("  "), more
        rest.append(more.strip())
    return " ".join([head, *rest])


async def russian(connect: Connector, port: int, name: str) -> LineClient:
    """A person logged in with 'lang=ru' (a guest)."""
    person = await connect.raw(port, name)
    await person.send(f"login {name} lang=ru")
    await person.read_until(lambda x: x.startswith("Здравствуйте, "))
    return person


async def seated_pair(connect: Connector, port: int) -> LineClient:
    """Two Russian guests at a started two-player table: the first of them."""
    anna = await russian(connect, port, "anna")
    boris = await russian(connect, port, "boris")
    await anna.send("new 2")
    seated = await anna.read_until(lambda x: x.startswith("Вы за столом"))
    table = re.findall(r"\d+", seated)[0]
    await boris.send(f"sit {table}")
    await anna.read_until(lambda x: x.startswith("Партия начинается"))
    return anna


async def test_a_call_read_wrong_is_refused_with_its_reason_in_russian(
    port: int, connect: Connector
) -> None:
    anna = await seated_pair(connect, port)
    assert await told(anna, "играю зз") == (
        "Ошибка (unknown-command): назовите масть: играю п|ч|б|к, или ♠ ♥ ♦ ♣, или"
        " играю черви (набрано «играю зз»). Наберите help или calls."
    )
    assert await told(anna, "от туза дамы") == (
        "Ошибка (unknown-command): назовите старшую карту: от короля, от К, от короля"
        " козырного, от козырной дамы (набрано «от туза дамы»). Наберите help или calls."
    )
    assert await told(anna, "от зз") == (
        "Ошибка (unknown-command): «зз» — не достоинство карты (7 8 9 10 В Д К Т, или"
        " короля, туза …). Наберите help или calls."
    )
    assert await told(anna, "ход зз") == (
        "Ошибка (unknown-command): «зз» — не карта (пишите так: 10ч, Вп, Д♠, туз пик)."
        " Наберите help или calls."
    )
    assert await told(anna, "konets") == (
        "Ошибка (unknown-command): «konets» за этим столом не ход и не заявка: так"
        " говорят за столами с другими опциями (help konets скажет, с какими)."
        " Наберите help или calls."
    )
    # a word that is no call at all is named as before
    assert await told(anna, "хрень") == (
        "Ошибка (unknown-command): «хрень» — не ход и не заявка. Наберите help или calls."
    )


async def test_a_call_read_wrong_hints_no_command(port: int, connect: Connector) -> None:
    anna = await seated_pair(connect, port)
    await anna.send("lang en")
    await anna.read_until(lambda x: x == "Language: English.")
    english = "Language: English."
    assert await told(anna, "ot zz", english) == (
        "Error (unknown-command): not a rank: 'zz' (7 8 9 10 J Q K A, or korolya, tuza"
        " ...). Type 'help' or 'calls'."
    )
    # a command mistyped at the table still gets its hint
    assert re.search(r"Did you mean 'tables'\?$", await told(anna, "tabels", english))


async def test_the_machine_style_keeps_the_english_reason(port: int, connect: Connector) -> None:
    await seated_pair(connect, port)
    bot = await connect.raw(port, "bot")
    await bot.send("style machine")
    await bot.send("login boris2")
    await bot.expect("ok", cmd="login")
    await bot.send("new 2")
    table = (await bot.expect("ok", cmd="sit"))["table"]
    rival = await russian(connect, port, "vera")
    await rival.send(f"sit {table}")
    await bot.expect("event", kind="start")
    for line, text in (
        ("igrayu zz", "name a suit: igrayu s|h|d|c (got 'igrayu zz')"),
        ("ot zz", "not a rank: 'zz' (7 8 9 10 J Q K A, or korolya, tuza ...)"),
        ("konets", "not a table call here: 'konets'"),
    ):
        await bot.send(line)
        refused = await bot.expect("error", code="unknown-command")
        assert refused["text"] == f"{text}. Type 'help' or 'calls'.", refused
        assert "command" not in refused
