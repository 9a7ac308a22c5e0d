"""The stake a dave raises, told over real sockets (docs/rules.md §11, docs/protocol.md
§6.3): a person, English or Russian, says dave; a program answers prinimayu. The person
reads the new stake under the answer's line and in `state`; the program's `ask` and
`state` lines carry `stake=` (1 before the raise, 2 after). Nobody was told the stake
before the deal's end (a club evening, s40: the first number seen was 'Written: 2 / -2')."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable

import pytest
import trio

from .client import CARD, LineClient, fields, is_event
from .conftest import Connector
from .human import ERROR, GAME_OVER, PROMPTS, RU_CARD, options

# per language: how dave and the order are said, the cards offered, and what is told
SPEECH = {
    "en": {
        "lang": "Language: English.",
        "dave": "dave",
        "order": "igrayu",
        "card": CARD,
        "accepted": "vera: prinimayu",
        "raised": "The deal is now played for 2.",
        "state": re.compile(r"^Table \d+, deal \d+\. .* Stake: 2\.$"),
    },
    "ru": {
        "lang": "Язык: русский.",
        "dave": "даве",
        "order": "играю",
        "card": RU_CARD,
        "accepted": "vera: принимаю",
        "raised": "Раздача теперь играется на 2.",
        "state": re.compile(r"^Стол \d+, раздача \d+\. .* Ставка: 2\.$"),
    },
}
TIMEOUT = 20


async def _person(anna: LineClient, lang: str, told: list[str]) -> None:
    """anna says dave once, orders when she may, else plays her first card; right after
    the stake is raised she asks for ``state`` (its lines into ``told``)."""
    speech = SPEECH[lang]
    said_dave = False
    while True:
        line = await anna.read_until(lambda _: True, TIMEOUT)
        assert not line.startswith(ERROR[lang]), line
        if line.startswith(GAME_OVER[lang]):
            return
        if line == speech["raised"]:
            await anna.read_until(lambda x: bool(PROMPTS[lang].match(x)), TIMEOUT)  # her turn
            await anna.send("state")  # (on her turn: it ends on the same prompt)
            while not PROMPTS[lang].match(line := await anna.read_until(lambda _: True, TIMEOUT)):
                told.append(line)
            anna.pos -= 1  # the prompt is answered below
            continue
        if prompt := PROMPTS[lang].match(line):
            offered = options(prompt.group(1))
            if speech["dave"] in offered and not said_dave:
                said_dave = True
                await anna.send(str(speech["dave"]))
            elif speech["order"] in offered:
                await anna.send(str(speech["order"]))
            else:
                card = speech["card"]
                assert isinstance(card, re.Pattern)
                await anna.send(next((o for o in offered if card.fullmatch(o)), offered[0]))


async def _program(vera: LineClient, asked: list[dict[str, str]]) -> None:
    """vera accepts a dave, orders when she may, else plays at random (never a dave of
    her own); every ask and state line's fields into ``asked``."""
    rng = random.Random(5)
    while True:
        line = await vera.read_until(lambda _: True, TIMEOUT)
        tag, f = fields(line)
        assert tag != "error", line
        if is_event(line, "match-end"):
            return
        if tag in ("ask", "state"):
            asked.append(f)
        if tag == "ask":
            legal = f["legal"].split(",")
            wanted = [c for c in ("prinimayu", "igrayu") if c in legal]
            call = wanted[0] if wanted else rng.choice([c for c in legal if c != "dave"])
            await vera.send(f"{call} seq={f['seq']}")


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_an_accepted_dave_tells_the_new_stake_to_people_and_programs(
    start_server: Callable[..., Awaitable[int]], connect: Connector, lang: str
) -> None:
    port = await start_server(human_clock_ms=600_000)
    anna = await connect.human(port, "anna")
    await anna.send(f"lang {lang}")
    await anna.read_until(lambda x: x == SPEECH[lang]["lang"])
    vera = await connect.machine(port, "vera")
    await vera.send("new 2 dave")
    table = (await vera.expect("ok", cmd="sit"))["table"]
    await anna.send(f"sit {table}")
    told: list[str] = []
    asked: list[dict[str, str]] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_person, anna, lang, told)
            nursery.start_soon(_program, vera, asked)
    # the person: the new stake right under the answer that raised it, and in 'state'
    accepted = anna.lines.index(str(SPEECH[lang]["accepted"]))
    assert anna.lines[accepted + 1] == SPEECH[lang]["raised"], anna.lines[accepted:][:3]
    state = SPEECH[lang]["state"]
    assert isinstance(state, re.Pattern)
    assert any(state.match(x) for x in told), told
    # the program: every ask and state line says the stake, 1 until the dave is accepted
    stakes = [f.get("stake") for f in asked]
    asked_dave = next(i for i, f in enumerate(asked) if f["pending"].startswith("dave:"))
    assert set(stakes[: asked_dave + 1]) == {"1"}, stakes
    assert set(stakes[asked_dave + 1 :]) == {"2"}, stakes
    assert list(asked[-1])[-1] == "stake"  # appended last (docs/protocol.md §1)
