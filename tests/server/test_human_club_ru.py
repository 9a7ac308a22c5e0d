"""The club's commands in 'lang ru' over real sockets (issue #13): a private table,
'invite', 'history', 'top', 'finger' and 'rematch' say everything in Russian, no card
with a Latin letter, every line within 80 columns; and 3- and 4-player matches fit too."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable

import pytest
import trio
from trio.testing import MockClock

from .client import LineClient
from .conftest import Connector
from .human import (
    COLUMNS,
    GAME_OVER,
    LATIN_CARD,
    PROMPTS,
    columns,
    english_lines,
    play_randomly,
    without_tokens,
)


def check_russian(people: tuple[LineClient, ...], *others: str) -> None:
    names = (*(person.label for person in people), *others)
    for person in people:
        wide = [x for x in person.lines if columns(x) > COLUMNS]
        assert wide == [], f"{person.label}: lines wider than {COLUMNS} columns"
        latin = [x for x in person.lines if LATIN_CARD.search(without_tokens(x))]
        assert latin == [], f"{person.label}: cards in Latin letters"
        # the banner is said before any language is chosen
        assert english_lines(person.lines[1:], names) == [], f"{person.label}: lines in English"


async def test_a_private_table_invite_history_top_finger_and_rematch_in_russian(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(human_clock_ms=600_000)
    anna, boris, vera = [await connect.raw(port, name) for name in ("anna", "boris", "vera")]
    for person in (anna, boris, vera):
        await person.send(f"login {person.label} lang=ru")
        await person.read_until(lambda x: x.startswith("Здравствуйте, "))
    await anna.send("rematch")  # no match of hers has ended: refused in Russian
    refused = await anna.read_until(lambda x: x.startswith("Ошибка ("))
    refused += " " + (await anna.read_until(lambda x: True)).strip()  # (80 columns: the rest below)
    assert refused == (
        "Ошибка (not-allowed): реванш можно просить только в течение 60 с после конца своей партии"
    )
    await anna.send("new 2 short private")
    table = re.findall(r"\d+", await anna.read_until(lambda x: x.startswith("Вы за столом")))[0]
    await anna.send("invite boris")
    assert await anna.read_until(lambda x: x.startswith("Вы пригласили")) == (
        f"Вы пригласили игрока boris за стол {table}."
    )
    invited = await boris.read_until(lambda x: x.startswith("anna зовёт вас"))
    assert invited.startswith(f"anna зовёт вас за закрытый стол {table} (moscow")
    assert invited.endswith(f"наберите sit {table}.")
    await anna.send("invite vera")
    await vera.read_until(lambda x: x.startswith("anna зовёт вас"))
    await vera.send(f"observe {table}")
    await vera.read_until(lambda x: x.startswith("Вы смотрите"))
    await boris.send(f"sit {table}")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_randomly, anna, "ru", random.Random(5))
            nursery.start_soon(play_randomly, boris, "ru", random.Random(7))
    await vera.read_until(lambda x: x.startswith(GAME_OVER["ru"]))
    for player in (anna, boris):  # told after the game's end that a rematch is on offer
        offered = await player.read_until(lambda x: x.startswith("Реванш: "))
        assert offered == (
            "Реванш: наберите rematch в течение 60 с — сыграете снова тем же составом."
        )

    await anna.send("history")
    title = await anna.read_until(lambda x: x.startswith("История стола"))
    assert title.startswith(f"История стола {table} (") and title.endswith("anna — boris")
    await anna.read_until(lambda x: x.startswith("Раздача 1, сдаёт "))
    await anna.send("top")
    await anna.read_until(lambda x: x.startswith("Рейтинг: moscow на двоих"))
    await anna.send("finger")
    await anna.read_until(lambda x: x.startswith("anna: гость, на сервере. Последние партии: "))
    await anna.read_until(lambda x: x == "  Рейтинга пока нет.")  # a private table is unrated
    await anna.send("finger boris")
    await anna.read_until(lambda x: x.startswith("boris: гость, на сервере."))

    await anna.send("rematch")
    asked = await anna.read_until(lambda x: x.startswith("Вы просите реванш"))
    assert asked == f"Вы просите реванш за столом {table}. Ждём: boris."
    told = await boris.read_until(lambda x: x.startswith("Реванш за столом"))
    assert (
        told == f"Реванш за столом {table} просят: anna; ждём: boris. Согласны — наберите rematch."
    )
    await boris.send("rematch")
    # the last to agree is told it starts too (he read only «Вы просите реванш»: s28)
    starts = f"Все согласны: реванш за столом {table} начинается."
    await boris.read_until(lambda x: x == starts)
    await anna.read_until(lambda x: x == starts)
    # the rematch's first request goes to one of them: the other is refused by name
    first = await anna.read_until(lambda x: x.startswith(("Ваш ход", "Ход игрока ")))
    idle, to_act = (anna, "boris") if first.startswith("Ход игрока ") else (boris, "anna")
    await idle.send("пас")
    refused = await idle.read_until(lambda x: x.startswith("Ошибка ("))
    assert refused == f"Ошибка (not-your-turn): сейчас торгуется {to_act}, а не вы"
    check_russian((anna, boris, vera))


@pytest.mark.parametrize("players", [3, 4])
async def test_three_and_four_player_matches_in_russian_fit_80_columns(
    players: int,
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(human_clock_ms=600_000)
    names = ("anna", "boris", "vera", "gleb")[:players]
    people = tuple([await connect.raw(port, name) for name in names])
    for person in people:
        await person.send(f"login {person.label} lang=ru")
    rules = "short" if players == 3 else "to-301"  # 'short' (one deal) is for 2-3 players
    await people[0].send(f"new {players} {rules}")
    sat = await people[0].read_until(lambda x: x.startswith("Вы за столом"))
    for person in people[1:]:
        await person.send(f"sit {re.findall(r'[0-9]+', sat)[0]}")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for i, person in enumerate(people):
                nursery.start_soon(play_randomly, person, "ru", random.Random(40 + i))
    for person in people:
        await person.send("sheet")
        await person.send("history")
        await person.read_until(lambda x: x.startswith("История стола"))
    assert any(PROMPTS["ru"].match(x) for x in people[0].lines)
    if players == 3:  # each for himself, not «anna против boris против vera» (tryout s27)
        starts = re.compile(r"Партия начинается: \w+, \w+ и \w+, каждый сам за себя\.")
        assert any(starts.fullmatch(x) for x in people[0].lines)
    check_russian(people)


async def test_the_club_commands_refusals_say_their_reason_in_russian(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server()
    anna = await connect.raw(port, "anna")
    await anna.send("login anna lang=ru")
    await anna.read_until(lambda x: x.startswith("Здравствуйте, "))
    expected = {
        "invite boris": "Ошибка (not-seated): сядьте за стол, чтобы пригласить к нему",
        "bot random": "Ошибка (not-allowed): на этом сервере нет ботов сервера "
        "(serve --house-bots)",
        "bot": "Ошибка (bad-argument): какой бот? heuristic, random или search: bot ВИД",
        "bot heuristik": "Ошибка (bad-argument): бота «heuristik» нет (heuristic?): какой бот?",
        "history": "Ошибка (not-seated): вы не сидите за столом, ни за каким не смотрите",
        "top moscow 7": "Ошибка (bad-argument): top [ВАРИАНТ] [ИГРОКОВ] [СТРАНИЦА]: игроков",
        "top 7": "Ошибка (bad-argument): top [ВАРИАНТ] [ИГРОКОВ] [СТРАНИЦА]: страницы от 1 до 1",
        "finger x": "Ошибка (bad-argument): имя — от 2 до 20 букв",
        "finger nobody1": "Ошибка (unknown-player): под именем nobody1 здесь не играли",
        "rematch now": "Ошибка (bad-argument): набирайте так: rematch",
    }
    for typed, said in expected.items():
        await anna.send(typed)
        line = await anna.read_until(lambda x: x.startswith("Ошибка ("))
        assert line.startswith(said), (typed, line)
    await anna.send("new 2")
    await anna.read_until(lambda x: x.startswith("Вы за столом"))
    await anna.send("invite anna")  # oneself
    line = await anna.read_until(lambda x: x.startswith("Ошибка ("))
    assert line == "Ошибка (bad-argument): вы сами уже сидите за этим столом"
    await anna.send("invite boris")
    line = await anna.read_until(lambda x: x.startswith("Ошибка ("))
    assert line == "Ошибка (unknown-player): игрока boris сейчас нет на сервере (кто есть — who)"
    await anna.send("играю ч seq=999999")  # no game yet: said so
    await anna.read_until(lambda x: x.startswith("Ошибка ("))
    check_russian((anna,))
