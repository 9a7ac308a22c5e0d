"""The bidding's second round is said to people when it opens (a Russian tryout, s27:
everybody passed, and the next prompt offered other suits with no word of why)."""

from __future__ import annotations

import re

import trio

from .client import LineClient, fields
from .conftest import Connector
from .human import PROMPTS

OPENS = {
    "en": re.compile(
        r"All passed: round two of the bidding\. A suit other than (?P<suit>[♠♥♦♣]) may be "
        r"named\."
    ),
    "ru": re.compile(
        r"Все спасовали: второй круг торговли\. Можно назвать масть, кроме (?P<suit>[♠♥♦♣])\."
    ),
}
PASSED = re.compile(r"^(anna|boris): (pas|пас)$")


async def _pass_twice(person: LineClient, lang: str) -> None:
    """Pass in each round of the bidding, when asked."""
    for _ in range(2):
        prompt = await person.read_until(lambda x: PROMPTS[lang].match(x) is not None)
        assert "pas" in prompt or "пас" in prompt, prompt
        await person.send("pas")


async def test_the_pas_that_opens_round_two_is_told_to_people_not_machines(
    port: int, connect: Connector
) -> None:
    anna = await connect.human(port, "anna")
    await anna.send("lang ru")
    await anna.read_until(lambda x: x == "Язык: русский.")
    boris = await connect.human(port, "boris")
    vera = await connect.machine(port, "vera")  # watching in the machine style
    await anna.send("new 2")
    table = re.findall(r"[0-9]+", await anna.read_until(lambda x: x.startswith("Вы за столом")))
    await vera.send(f"observe {table[0]}")
    await vera.read_until(lambda x: x.startswith("ok cmd=observe"))
    await boris.send(f"sit {table[0]}")
    turned = fields(await vera.read_until(lambda x: " kind=deal " in x))[1]["turned"]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_pass_twice, anna, "ru")
        nursery.start_soon(_pass_twice, boris, "en")
    for person, lang in ((anna, "ru"), (boris, "en")):
        # every pas told to him, and the round's line once: right after the second pas

        def four_passes(_: str, person: LineClient = person) -> bool:
            return sum(map(bool, map(PASSED.match, person.lines))) == 4

        await person.read_until(four_passes)
        told = [x for x in person.lines if PASSED.match(x) or OPENS[lang].match(x)]
        assert [bool(OPENS[lang].match(x)) for x in told[:5]] == [0, 0, 1, 0, 0], told
        opens = OPENS[lang].match(told[2])
        assert opens is not None and opens["suit"] == "♠♥♦♣"["shdc".index(turned[-1])]
    await vera.read_until(lambda _: sum(" kind=call " in x for x in vera.lines) == 4)
    assert not any("All passed" in x for x in vera.lines)  # its event alone
