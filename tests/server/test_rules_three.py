"""'rules' at a table of three says whose sequences score when a whistler holds the
best combination as the engine scores them (docs/rules.md §8): each whistler who spoke
in the table talk, not both whatever they said.

A club evening of three: the table's `rules` told `both whistlers' sequences score`
(«засчитываются комбинации обоих вистующих»), and a whistler who kept quiet, as that
let him think he could, scored nothing.
"""

from __future__ import annotations

import trio

from .client import LineClient
from .conftest import Connector


async def _rules(person: LineClient, first: str, last: str) -> str:
    """The table's 'rules', its wrapped lines joined as read."""
    await person.send("rules")
    said = [await person.read_until(lambda x: x.startswith(first))]
    while last not in said[-1]:
        said.append(await person.read_until(lambda _: True))
    return " ".join(x.strip() for x in said)


async def test_rules_at_three_say_only_a_whistler_who_spoke_adds_his_sequences(
    port: int, connect: Connector
) -> None:
    anna, vera = [await connect.human(port, name) for name in ("anna", "vera")]
    await vera.send("lang ru")
    await vera.read_until(lambda x: x == "Язык: русский.")
    await anna.send("new 3")
    await anna.read_until(lambda x: x.startswith("You sit at table"))
    await vera.send("sit 1")
    await vera.read_until(lambda x: x.startswith("Вы за столом"))
    with trio.fail_after(20):
        english = await _rules(anna, "Table 1", "Clock")
        russian = await _rules(vera, "Стол 1", "Часы")
    assert (
        "when a whistler holds the best combination, the sequences of each whistler who "
        "spoke in the table talk (declared or asked rost?) score" in english
    ), english
    assert "both whistlers' sequences score" not in english
    assert (
        "если лучшая комбинация у вистующего, засчитываются комбинации каждого "
        "вистующего, который говорил в разговоре (объявлял или спрашивал «рост?»)" in russian
    ), russian
    assert "обоих вистующих" not in russian
