"""'login NAME … style=human|machine' over real sockets (docs/protocol.md §4.2): the
connection's style from the login's own reply on, as 'style machine' before it. Before,
'login gus style=machine' registered gus with the password 'style=machine' (a review:
a bot writer's natural guess, as 'lang=' is taken there); nor is a 'tell=', 'sort=' or
'clock=' word a password: refused, naming the command that sets it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from .client import LineClient, fields
from .conftest import Connector

Register = Callable[[str, str], Awaitable[None]]

USAGE = "login NAME [PASSWORD | token=TOKEN] [lang=en|ru] [style=human|machine]"
USAGE_RU = "login ИМЯ [ПАРОЛЬ | token=КОД] [lang=en|ru] [style=human|machine]"
TELL = "login takes no tell=: 'style machine tell=all|asks' sets it, before or after login"


async def _next(client: LineClient) -> str:
    return await client.read_until(lambda _: True)


async def _answer(client: LineClient, line: str) -> str:
    """The one answer to ``line``, a human one's lines (wrapped at 80 columns) joined
    again: what came before the answer to a 'ping' sent after it."""
    await client.send(line)
    await client.send("ping")
    said: list[str] = []
    while (got := await _next(client)) not in ("pong", "ok cmd=ping text=pong"):
        if got.startswith("  ") and said:  # a long line's next part
            said[-1] += " " + got.strip()
        else:
            said.append(got)
    [answer] = said
    return answer


@pytest.mark.timeout(60)
async def test_login_with_style_machine_answers_in_it_and_registers_nothing(
    port: int, connect: Connector
) -> None:
    gus = await connect.raw(port, "gus")  # the human style, as every connection starts
    await gus.send("login gus style=machine")
    tag, login = fields(await _next(gus))  # the reply itself in the machine style
    assert (tag, login["cmd"], login["name"], login["guest"]) == ("ok", "login", "gus", "1")
    await gus.send("ping")
    assert await _next(gus) == "ok cmd=ping text=pong"
    # a guest's name, taken back with its token: no account was made ('style=machine'
    # as its password would have asked for the password)
    again = await connect.raw(port, "again")
    await again.send(f"login gus token={login['token']} STYLE=Machine")
    tag, back = fields(await _next(again))
    assert (tag, back["cmd"], back["name"], back["guest"]) == ("ok", "login", "gus", "1")
    assert fields(await _next(gus))[0] == "bye"  # (taken over)


@pytest.mark.timeout(60)
async def test_a_password_with_style_anywhere_is_the_one_registered(
    port: int, connect: Connector
) -> None:
    vera = await connect.raw(port, "vera")
    await vera.send("login Vera STYLE=Machine first1")  # before the password, any case
    tag, login = fields(await _next(vera))
    assert (tag, login["cmd"], login["name"], login["guest"]) == ("ok", "login", "Vera", "0")
    await vera.send("quit")
    await vera.wait_closed()
    back = await connect.raw(port, "back")  # the human style: 'first1' is the password
    await back.send("login vera first1")
    assert (await _next(back)).startswith("Hello, Vera (registered).")


@pytest.mark.timeout(60)
async def test_lang_and_style_before_the_name_are_read_as_after_it(
    port: int, connect: Connector
) -> None:
    """A name holds no '=', so 'lang=' and 'style=' are never a name: read before NAME
    as after it (docs/protocol.md §4.2). NAME comes before its secret: a 'token=' first
    is told the usage, not that the name is bad."""
    gus = await connect.raw(port, "gus")
    await gus.send("login lang=ru gus")
    assert (await _next(gus)).startswith("Здравствуйте, gus (гость).")
    vera = await connect.raw(port, "vera")
    await vera.send("login STYLE=machine Vera first1")  # registered with first1
    tag, login = fields(await _next(vera))
    assert (tag, login["cmd"], login["name"], login["guest"]) == ("ok", "login", "Vera", "0")
    back = await connect.raw(port, "back")
    await back.send("login LANG=ru vera first1")
    assert (await _next(back)).startswith("Здравствуйте, Vera (имя зарегистрировано).")
    other = await connect.raw(port, "other")
    assert await _answer(other, "login lang=en lang=ru ann") == f"Error (bad-argument): {USAGE}"
    assert await _answer(other, "login token=abc ann") == f"Error (bad-argument): {USAGE}"
    await other.send("who")
    assert (await _next(other)).startswith("Error (not-logged-in)")  # English: nothing set


@pytest.mark.timeout(60)
async def test_login_with_style_human_leaves_the_machine_style_and_tell_asks(
    port: int, connect: Connector
) -> None:
    """'style=human' from the machine style: the welcome in prose. A 'style=' does what
    'style human|machine' does, every line told again after 'style machine
    tell=asks' (a new table's own 'seated' event, which tell=asks does not tell)."""
    ann = await connect.raw(port, "ann")
    await ann.send("style machine")
    await ann.expect("ok", cmd="style")
    await ann.send("login ann style=human")
    assert (await _next(ann)).startswith("Hello, ann (guest).")
    bob = await connect.raw(port, "bob")
    await bob.send("style machine tell=asks")
    await bob.expect("ok", cmd="style", tell="asks")
    await bob.send("login bob style=machine")
    await bob.expect("ok", cmd="login", name="bob")
    await bob.send("new 2")
    assert fields(await _next(bob))[0] == "ok"  # ok cmd=sit
    assert fields(await _next(bob))[1]["kind"] == "seated"


@pytest.mark.timeout(60)
async def test_a_bad_style_or_another_setting_s_word_changes_nothing(
    port: int, connect: Connector
) -> None:
    """Each refused, no login, no registration, the style and language as they were
    (the English human style: 'lang=ru' beside a bad style is not taken either)."""
    gus = await connect.raw(port, "gus")
    for typed, said in [
        ("login gus lang=ru style=robot", USAGE),
        ("login gus style=machine style=machine", USAGE),
        ("login gus secret1 style=", USAGE),
        ("login gus style=machine tell=asks", TELL),
        ("login gus TELL=all", TELL),
        (
            "login gus secret1 SORT=strength",
            "login takes no sort=: 'sort rank|strength' sets it, before or after login",
        ),
        (
            "login gus clock=bot",
            "login takes no clock=: 'clock human|bot' sets it, before or after login",
        ),
    ]:
        assert await _answer(gus, typed) == f"Error (bad-argument): {said}", typed
    await gus.send("who")
    assert (await _next(gus)).startswith("Error (not-logged-in)")  # still English prose
    other = await connect.raw(port, "other")
    await other.send("login gus")  # gus is free: none of those words registered it
    assert (await _next(other)).startswith("Hello, gus (guest).")


@pytest.mark.timeout(60)
async def test_the_refusals_in_russian_and_in_the_machine_style(
    port: int, connect: Connector
) -> None:
    dina = await connect.raw(port, "dina")
    await dina.send("lang ru")
    assert await _next(dina) == "Язык: русский."
    said = await _answer(dina, "login dina style=robot")
    assert said == f"Ошибка (bad-argument): {USAGE_RU}"
    assert await _answer(dina, "login dina tell=asks") == (
        "Ошибка (bad-argument): login не принимает tell=: это задаёт команда «style"
        " machine tell=all|asks», до входа или после"
    )
    await dina.send("help login")
    assert (await _next(dina)).startswith(f"{USAGE_RU}: Войти.")
    bot = await connect.raw(port, "bot")
    await bot.send("style machine")
    await bot.expect("ok", cmd="style")
    await bot.send("login bot clock=bot")
    assert await _next(bot) == (
        "error code=bad-argument text=login takes no clock=: 'clock human|bot' sets it,"
        " before or after login"
    )


@pytest.mark.timeout(60)
async def test_a_password_that_begins_with_style_is_no_longer_typed(
    port: int, connect: Connector, register: Register
) -> None:
    """An account registered with 'style=machine' (a login of before: docs/protocol.md
    §4.2): the word is the style now, the name asks for its password, and nothing is
    hashed or counted (a third wrong password would close the connection)."""
    await register("gus", "style=machine")
    gus = await connect.raw(port, "gus")
    for _ in range(3):
        await gus.send("login gus style=machine")
        assert await _next(gus) == (
            "error code=bad-password text=gus is registered: give the password"
        )
    await gus.send("ping")
    assert await _next(gus) == "ok cmd=ping text=pong"


@pytest.mark.timeout(60)
async def test_the_login_that_registers_a_name_says_so_and_the_next_does_not(
    port: int, connect: Connector
) -> None:
    """A newcomer's 'login Misha Ivanov' (his full name) registers Misha with the password
    Ivanov: its welcome says the name is registered now, with what he typed; a later
    login with it is welcomed as any registered name's."""
    misha = await connect.raw(port, "misha")
    said = await _answer(misha, "login Misha Ivanov")
    assert said.startswith(
        "Hello, Misha (registered now, with the password you typed: log in with it next"
        " time). 0 tables, 1 player here."
    ), said
    await misha.send("quit")
    await misha.wait_closed()
    back = await connect.raw(port, "back")
    assert (await _answer(back, "login misha Ivanov")).startswith("Hello, Misha (registered).")
