"""A whole match of two people in one language over real sockets, each saying the
calls a test names whenever offered (tests/server/test_table_words_english.py,
test_table_words_spoken.py: a table's own words for calls, protocol/lang.py)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import attrs
import trio

from .client import LineClient
from .conftest import Connector
from .human import ERROR, GAME_OVER, PROMPTS, options

TIMEOUT = 20


@attrs.frozen
class Speech:
    """How a person speaks at the table in ``lang``: what he types, what he reads."""

    lang: str  # 'en' or 'ru' (human.PROMPTS' keys)
    order: str  # the bidding's order, said at once
    breaks: re.Pattern[str]  # Tertz's 'lomayu 1..12' offered
    break_word: str  # ... and said at its most cards
    declaration: re.Pattern[str]  # a declaration as a prompt offers it
    card: re.Pattern[str]  # a card as a prompt offers it
    history: str  # how 'history' begins
    chosen: str  # the answer to 'lang LANG', which marks the history's end

    def choice(self, offered: list[str], spoken: tuple[str, ...]) -> str:
        """The first of ``spoken`` offered, else the order, else a break of the deck at
        its most cards, else a declaration, else the first card, else the first option."""
        for word in (*spoken, self.order):
            if word in offered:
                return word
        if broken := [m.group(1) for o in offered if (m := self.breaks.fullmatch(o))]:
            return f"{self.break_word} {broken[0]}"
        if declared := [o for o in offered if self.declaration.match(o)]:
            return declared[0]
        return next((o for o in offered if self.card.fullmatch(o)), offered[0])

    def offers(self, lines: list[str]) -> list[list[str]]:
        """Each prompt's options."""
        return [options(m.group(1)) for x in lines if (m := PROMPTS[self.lang].match(x))]


async def play(client: LineClient, speech: Speech, spoken: tuple[str, ...]) -> None:
    """Answer every prompt (``spoken`` said whenever offered) until the game is over."""
    while True:
        line = await client.read_until(lambda _: True, TIMEOUT)
        assert not line.startswith(ERROR[speech.lang]), f"{client.label}: {line}"
        if line.startswith(GAME_OVER[speech.lang]):
            return
        if prompt := PROMPTS[speech.lang].match(line):
            await client.send(speech.choice(options(prompt.group(1)), spoken))


async def spoken_match(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    speech: Speech,
    seed: str,
    settings: str,
    spoken: tuple[str, ...],
) -> tuple[list[str], list[str]]:
    """A whole match of anna and boris (the server's ``match_seed``, ``seek
    SETTINGS``): each one's lines, then anna's ``history`` of it."""
    port = await start_server(match_seed=seed)
    people = [await connect.human(port, name) for name in ("anna", "boris")]
    for person in people:
        await person.send(f"lang {speech.lang}")
        await person.read_until(lambda x: x == speech.chosen)
    for person in people:
        await person.send(f"seek {settings}")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for person in people:
                nursery.start_soon(play, person, speech, spoken)
    await people[0].send("history")
    await people[0].send(f"lang {speech.lang}")  # its answer marks the history's end
    lines = people[0].lines + people[1].lines
    history = [await people[0].read_until(lambda x: x.startswith(speech.history), TIMEOUT)]
    while (line := await people[0].read_until(lambda _: True, TIMEOUT)) != speech.chosen:
        history.append(line)
    return lines, history
