"""A Tertz table's Russian words over real sockets: two Russian players of a known match
(the server's ``match_seed``) hear «марьяж» and «от чего?» in each other's call lines,
their prompts and ``history``, never Deberts's «белла» and «рост?»; a Deberts table in
Russian still says «белла» (protocol/lang.py ``table_words``; the rendering alone:
tests/protocol/test_table_words.py)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import trio

from .client import LineClient
from .conftest import Connector
from .human import RU_CARD, RU_PROMPT, options

TIMEOUT = 20
BREAK = re.compile(r"ломаю \d+\.\.(\d+)")  # Tertz's "ломаю 1..12"
# a declaration as a Russian prompt offers it (Tertz's «сто пять», Deberts's «терц»)
DECLARATION = re.compile(r"(?:\w+ )?(?:терц|терца|пятьдесят|полтинника|сто|двести)\b")


def choice(offered: list[str], spoken: tuple[str, ...]) -> str:
    """The first of ``spoken`` offered, else a declaration, else the first card, else
    the first option; the game ordered at once, a break of the deck at its most cards."""
    for word in (*spoken, "играю"):
        if word in offered:
            return word
    if broken := [m.group(1) for o in offered if (m := BREAK.fullmatch(o))]:
        return f"ломаю {broken[0]}"
    if declared := [o for o in offered if DECLARATION.match(o)]:
        return declared[0]
    return next((o for o in offered if RU_CARD.fullmatch(o)), offered[0])


async def play(client: LineClient, spoken: tuple[str, ...]) -> None:
    """Answer every prompt (``spoken`` said whenever offered) until the game is over."""
    while True:
        line = await client.read_until(lambda _: True, TIMEOUT)
        assert not line.startswith("Ошибка"), f"{client.label}: {line}"
        if line.startswith("Партия окончена"):
            return
        if prompt := RU_PROMPT.match(line):
            await client.send(choice(options(prompt.group(1)), spoken))


def offers(lines: list[str]) -> list[list[str]]:
    """Each prompt's options."""
    return [options(m.group(1)) for x in lines if (m := RU_PROMPT.match(x))]


async def russian_match(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    seed: str,
    settings: str,
    spoken: tuple[str, ...],
) -> tuple[list[str], list[str]]:
    """A whole match of anna and boris in Russian: each one's lines, then anna's
    ``history`` of it."""
    port = await start_server(match_seed=seed)
    people = [await connect.human(port, name) for name in ("anna", "boris")]
    for person in people:
        await person.send("lang ru")
        await person.read_until(lambda x: x == "Язык: русский.")
    for person in people:
        await person.send(f"seek {settings}")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for person in people:
                nursery.start_soon(play, person, spoken)
    await people[0].send("history")
    await people[0].send("lang ru")  # its answer marks the history's end
    lines = people[0].lines + people[1].lines
    history = [await people[0].read_until(lambda x: x.startswith("История"), TIMEOUT)]
    while (line := await people[0].read_until(lambda _: True, TIMEOUT)) != "Язык: русский.":
        history.append(line)
    return lines, history


async def test_a_russian_tertz_match_says_mariage_and_from_what(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    lines, history = await russian_match(
        start_server, connect, "t7", "2 tertz", ("марьяж", "от чего?")
    )
    offered = offers(lines)
    assert any("марьяж" in x for x in offered) and any("от чего?" in x for x in offered)
    assert any(re.fullmatch(r"(anna|boris): марьяж", x) for x in lines)
    assert any(re.fullmatch(r"(anna|boris): от чего\?", x) for x in lines)
    assert any(re.search(r"За комбинации: .*марьяж 20", x) for x in history), history
    assert [x for x in lines + history if "белл" in x or "рост?" in x] == []


async def test_a_russian_deberts_match_still_says_bella(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    lines, history = await russian_match(start_server, connect, "d2", "2 to-301", ("белла",))
    assert any("белла" in x for x in offers(lines))
    assert any(re.fullmatch(r"(anna|boris): белла", x) for x in lines)
    assert any(re.search(r"За комбинации: .*белла 20", x) for x in history), history
    assert [x for x in lines + history if "марьяж" in x] == []
