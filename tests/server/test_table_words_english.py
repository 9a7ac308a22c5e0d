"""A Tertz table's English words over real sockets: two English players of a known
match (the server's ``match_seed``) are offered 'mariage' (docs/rules.md §12.5, the
sources' word), hear it in each other's call lines and read it in ``history``'s
scored combinations, never Deberts's 'bella' (a tryout found English Tertz lines
saying 'bella'); a Deberts table still says 'bella' (protocol/lang.py ``table_words``;
the rendering alone: tests/protocol/test_table_words_english.py)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import trio

from .client import LineClient
from .conftest import Connector
from .human import LATIN_CARD, PROMPTS, options

TIMEOUT = 20
PROMPT = PROMPTS["en"]
BREAK = re.compile(r"lomayu \d+\.\.(\d+)")  # Tertz's "lomayu 1..12"
CARD = re.compile(r"(?:10|[789JQKA])[♠♥♦♣]")
# a declaration as an English prompt offers it (Tertz's 'sto pyat', Deberts's 'terts')
DECLARATION = re.compile(r"(?:\w+ )?(?:terts|tertsa|pyatdesyat|sto|dvesti)\b")


def choice(offered: list[str], spoken: tuple[str, ...]) -> str:
    """The first of ``spoken`` offered, else a break of the deck at its most cards,
    else a declaration, else the first card, else the first option; the game ordered
    at once."""
    for word in (*spoken, "igrayu"):
        if word in offered:
            return word
    if broken := [m.group(1) for o in offered if (m := BREAK.fullmatch(o))]:
        return f"lomayu {broken[0]}"
    if declared := [o for o in offered if DECLARATION.match(o)]:
        return declared[0]
    return next((o for o in offered if CARD.fullmatch(o)), offered[0])


async def play(client: LineClient, spoken: tuple[str, ...]) -> None:
    """Answer every prompt (``spoken`` said whenever offered) until the game is over."""
    while True:
        line = await client.read_until(lambda _: True, TIMEOUT)
        assert not line.startswith("Error"), f"{client.label}: {line}"
        if line.startswith("Game over"):
            return
        if prompt := PROMPT.match(line):
            await client.send(choice(options(prompt.group(1)), spoken))


async def english_match(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    seed: str,
    settings: str,
    spoken: tuple[str, ...],
) -> tuple[list[str], list[str]]:
    """A whole match of anna and boris in English: each one's lines, then anna's
    ``history`` of it."""
    port = await start_server(match_seed=seed)
    people = [await connect.human(port, name) for name in ("anna", "boris")]
    for person in people:
        await person.send(f"seek {settings}")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for person in people:
                nursery.start_soon(play, person, spoken)
    await people[0].send("history")
    await people[0].send("lang en")  # its answer marks the history's end
    lines = people[0].lines + people[1].lines
    history = [await people[0].read_until(lambda x: x.startswith("History"), TIMEOUT)]
    while not (line := await people[0].read_until(lambda _: True, TIMEOUT)).startswith("Language"):
        history.append(line)
    return lines, history


async def test_an_english_tertz_match_says_mariage(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    lines, history = await english_match(start_server, connect, "t7", "2 tertz", ("mariage",))
    prompts = [options(m.group(1)) for x in lines if (m := PROMPT.match(x))]
    assert any("mariage" in x for x in prompts)
    assert any(re.fullmatch(r"(anna|boris): mariage", x) for x in lines)
    assert any(re.search(r"Scored for combinations: .*mariage 20", x) for x in history), history
    assert [x for x in lines + history if "bella" in x] == []
    assert [x for x in lines if LATIN_CARD.search(x) is None and "марьяж" in x] == []


async def test_an_english_deberts_match_still_says_bella(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    lines, history = await english_match(start_server, connect, "d2", "2 to-301", ("bella",))
    assert any(re.fullmatch(r"(anna|boris): bella", x) for x in lines)
    assert any(re.search(r"Scored for combinations: .*bella 20", x) for x in history), history
    assert [x for x in lines + history if "mariage" in x] == []
