"""The lobby's, the tables' and the accounts' refusals in 'lang ru' over real sockets: a
Russian reader is told what an English one is (the limit that was hit, the table and the
seat), not only the gist of the code (RU_ERRORS): a tryout found the Russian refusals
thinner than the English ones. The machine style's text stays the English sentence."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from .client import LineClient
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


async def russian(connect: Connector, port: int, name: str) -> LineClient:
    """A person logged in with 'lang=ru' (a guest)."""
    person = await connect.raw(port, name)
    await person.send(f"login {name} lang=ru")
    await person.read_until(lambda x: x.startswith("Здравствуйте, "))
    return person


async def refusal(person: LineClient, line: str) -> str:
    """The Russian refusal that answers ``line`` (its one line: each fits 80 columns)."""
    await person.send(line)
    return await person.read_until(lambda x: x.startswith("Ошибка ("))


async def new_table(person: LineClient, line: str) -> str:
    await person.send(line)
    seated = await person.read_until(lambda x: x.startswith("Вы за столом"))
    table: str = re.findall(r"\d+", seated)[0]
    return table


async def test_password_checks_from_an_address_are_refused_in_russian(
    start_server: StartServer,
    connect: Connector,
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    await register("anna", "secret")
    port = await start_server(password_checks_per_address=2)
    guesser = await connect.raw(port, "guesser")
    for _ in range(2):
        assert await refusal(guesser, "login anna wrong lang=ru") == (
            "Ошибка (bad-password): неверный пароль для этого имени"
        )
    # the wait till the first check leaves the minute's window (a second or so spent)
    assert re.fullmatch(
        r"Ошибка \(slow-down\): много проверок пароля с адреса: подождите (?:5\d|60) с",
        await refusal(guesser, "login anna secret lang=ru"),
    )
    bot = await connect.raw(port, "bot")  # the machine style's line is as it was
    await bot.send("style machine")
    await bot.expect("ok", cmd="style")
    await bot.send("login anna secret")
    refused = await bot.expect("error", code="slow-down")
    assert 50_000 < int(refused["wait_ms"]) <= 60_000
    seconds = -(-int(refused["wait_ms"]) // 1000)
    assert refused["text"] == f"too many password checks from your address: wait {seconds} s"


async def test_seats_taken_and_left_too_often_are_refused_in_russian(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(seat_churn_burst=1, seat_churn_per_s=0.001)
    anna = await russian(connect, port, "anna")
    await new_table(anna, "new 3")
    await anna.send("leave")  # a seat given up at a waiting table: her one is spent
    await anna.read_until(lambda x: x.startswith("Вы встали"))
    for line in ("new 3", "seek 3"):
        assert re.fullmatch(
            r"Ошибка \(slow-down\): вы слишком часто садитесь и встаёте: подождите \d+ с",
            await refusal(anna, line),
        )


async def test_say_and_invite_too_often_are_refused_in_russian(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(say_burst=1, say_per_s=0.001)
    anna = await russian(connect, port, "anna")
    await anna.send("say привет")
    await anna.read_until(lambda x: "привет" in x)
    assert re.fullmatch(
        r"Ошибка \(slow-down\): слишком много say и invite подряд: подождите \d+ с",
        await refusal(anna, "say ещё раз"),
    )


async def test_a_list_asked_too_often_is_refused_in_russian(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(lists_burst=1, lists_per_s=0.001)
    anna = await russian(connect, port, "anna")
    await anna.send("who")
    await anna.read_until(lambda x: x.startswith("Игроков здесь"))
    assert re.fullmatch(
        r"Ошибка \(slow-down\): слишком много who подряд: подождите \d+ с",
        await refusal(anna, "who"),
    )


async def test_unseek_and_the_seats_of_a_table_are_refused_in_russian(
    port: int, connect: Connector
) -> None:
    anna, boris, vera = [await russian(connect, port, n) for n in ("anna", "boris", "vera")]
    assert await refusal(anna, "unseek") == "Ошибка (not-allowed): вы не ждёте партию"
    table = await new_table(anna, "new 2")
    assert await refusal(boris, f"sit {table} 0") == (
        f"Ошибка (seat-taken): место 0 за столом {table} занято"
    )
    assert await refusal(boris, f"sit {table} 5") == "Ошибка (bad-argument): места — от 0 до 1"
    # her own table: she sits there already ("сначала leave" read as of another, s46)
    assert await refusal(anna, f"sit {table}") == (
        f"Ошибка (already-seated): вы уже сидите за столом {table}"
    )
    assert await refusal(anna, "new 2") == (
        f"Ошибка (already-seated): вы сидите за столом {table}: сначала leave"
    )
    assert await refusal(anna, f"observe {table}") == (
        "Ошибка (already-seated): вы сидите за этим столом"
    )
    assert await refusal(vera, f"unobserve {table}") == (
        "Ошибка (not-allowed): вы не смотрите за таким столом"
    )
    await boris.send(f"sit {table}")
    await boris.read_until(lambda x: x.startswith("Вы за столом"))
    assert await refusal(vera, f"sit {table}") == (
        f"Ошибка (table-full): за столом {table} уже играют: смотреть — observe {table}"
    )
    assert await refusal(vera, "sit 99") == "Ошибка (unknown-table): стола 99 нет"


async def test_a_private_table_is_no_table_to_the_uninvited_in_russian(
    port: int, connect: Connector
) -> None:
    anna, boris = [await russian(connect, port, n) for n in ("anna", "boris")]
    table = await new_table(anna, "new 2 private")
    assert await refusal(boris, f"sit {table}") == (  # as of no table (a tryout, s30)
        f"Ошибка (unknown-table): стола {table} нет"
    )
    assert await refusal(boris, "style machine tell=nothing") == (
        "Ошибка (bad-argument): набирайте так: style machine tell=all|asks"
    )
