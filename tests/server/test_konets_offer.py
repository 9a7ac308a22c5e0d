"""A person at a manual-claim table is not offered `konets` far from the target
(docs/rules.md §10: left out while the side could not reach it in this deal even with
every point still in play): an evening at a Kharkov table saw it in the prompt after
every trick taken."""

from __future__ import annotations

import pytest
import trio

from .client import PROMPT, LineClient, human_choice
from .conftest import Connector

pytestmark = pytest.mark.timeout(60)


async def _first_deal(person: LineClient, helps: list[list[str]]) -> None:
    """Answer every prompt as play_human does, asking 'help' at each, until deal 1 ends
    (nobody reaches 501 in one deal: konets there would be a false claim)."""
    while True:
        line = await person.read_until(lambda _: True, 20)
        assert not line.startswith("Error"), line
        if line.startswith("Deal 1: "):
            return
        if prompt := PROMPT.match(line):
            await person.send("help")
            await person.send("ping")
            told = []
            while (said := await person.read_until(lambda _: True, 20)) != "pong":
                told.append(said)
            helps.append(told)
            await person.send(human_choice(prompt.group(1)))


async def test_konets_is_not_offered_in_the_first_deal(port: int, connect: Connector) -> None:
    people = [await connect.human(port, name) for name in ("vera", "gleb")]
    for person in people:
        await person.send("seek 2 manual-claim")
    for person in people:
        await person.read_until(lambda line: line.startswith("You sit at table"))
    helps: list[list[str]] = []
    with trio.fail_after(50):
        async with trio.open_nursery() as nursery:
            for person in people:
                nursery.start_soon(_first_deal, person, helps)
    prompts = [x for p in people for x in p.lines if PROMPT.match(x)]
    # each trick's taker but the last's led the next: konets was legal at those prompts
    assert len(prompts) >= 18, prompts
    assert not any("konets" in x for x in prompts), prompts
    assert not any("konets" in x for told in helps for x in told), helps
