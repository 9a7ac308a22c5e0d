"""A `short` match over real sockets, told to a person in English, one in Russian and a
program: who ordered does not matter in the short games without a bide (docs/rules.md
§11), so the people are told the deal's winner — at its end, on the score sheet and in
the history, at the table and after it — where the program's `outcome` stays `made` or
`bide` (docs/protocol.md §9.6, fields are only appended)."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable

import trio
from trio.testing import MockClock

from deberc_net.game.outcomes import Outcome
from deberc_net.protocol.lang import Lang, outcome_said

from .client import LineClient, fields, is_event
from .conftest import Connector
from .human import play_randomly

WON = {"en": "won by", "ru": "победитель —"}


async def _told(person: LineClient, command: str, first: str, count: int) -> list[str]:
    await person.send(command)
    lines = [await person.read_until(lambda x: x.startswith(first))]
    for _ in range(count - 1):
        lines.append(await person.read_until(lambda _: True))
    return lines


async def test_a_short_match_names_the_deals_winner_to_people_and_not_to_programs(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A match of 'dave' to 9 stakes where nobody says dave: every deal is decided by
    its points, as in 'short', and there are several (the table's sheet is asked for
    while the match goes on: its watchers and players are let go at its end)."""
    port = await start_server(human_clock_ms=600_000)
    anna, boris = [await connect.raw(port, name) for name in ("anna", "boris")]
    for person, lang in ((anna, "en"), (boris, "ru")):
        await person.send(f"login {person.label} lang={lang}")
        await person.read_until(lambda x: x.startswith(("Hello, ", "Здравствуйте, ")))
    vera = await connect.machine(port, "vera")
    olga = await connect.human(port, "olga")
    await anna.send("new 2 dave to-9-stakes")
    table = re.findall(r"\d+", await anna.read_until(lambda x: x.startswith("You sit at")))[0]
    for watcher in (vera, olga):
        await watcher.send(f"observe {table}")
    await olga.read_until(lambda x: x.startswith("You observe"))
    await boris.send(f"sit {table}")
    never = ("dave", "даве")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_randomly, anna, "en", random.Random(3), never)
            nursery.start_soon(play_randomly, boris, "ru", random.Random(4), never)
            # the first deal decided: one both passed twice is void and redealt (§11),
            # which random calls reach now and then (a full run's seed, short-1004)
            end = fields(await vera.read_until(_decided, 60))[1]
            assert end["outcome"] in ("made", "bide")  # the machine style: as ever
            written = [int(w) for w in end["written"].split(",")]
            winner = ("anna", "boris")[written.index(max(written))]
            points = [int(p) for p in end["points"].split(",")]
            if points[0] != points[1]:  # (a tie goes to the last trick: not seen here)
                assert winner == ("anna", "boris")[points.index(max(points))]
            # the table's own sheet and history, the match going on
            await _looks_back(olga, "en", end["deal"], winner)
            await vera.send("sheet")  # a program's sheet: the outcome, as ever
            await vera.expect("sheet")
            rows = [await vera.expect("sheet-deal") for _ in range(int(end["deal"]))]
            voids = ["void"] * (int(end["deal"]) - 1)
            assert [row["outcome"] for row in rows] == [*voids, end["outcome"]]
    deal = f"Deal {end['deal']}: "
    said = next(x for x in anna.lines if x.startswith(deal))
    assert said.startswith(f"{deal}won by {winner}. Points: "), said
    said = next(x for x in boris.lines if x.startswith(f"Раздача {end['deal']}: "))
    assert said.startswith(f"Раздача {end['deal']}: победитель — {winner}. Очки: "), said
    # anna and boris sit at no table now: their last match's, from the store
    await _looks_back(anna, "en", end["deal"], winner)
    await _looks_back(boris, "ru", end["deal"], winner)


def _decided(line: str) -> bool:
    return is_event(line, "deal-end") and fields(line)[1]["outcome"] != "void"


async def _looks_back(person: LineClient, lang: str, deal: str, winner: str) -> None:
    """``person``'s sheet and history name ``winner`` for the first deal decided,
    ``deal``, the void ones before it said to be dealt again ('redealt', «пересдача»)."""
    title, header = (
        ("Score sheet", "deal won by") if lang == "en" else ("Запись", "разд. победитель")
    )
    void = outcome_said(Outcome.VOID, Lang(lang))
    n = int(deal)
    sheet = await _told(person, "sheet", title, 2 + n)
    assert sheet[1].startswith(header), (person.label, sheet)
    rows = [row.split()[:2] for row in sheet[2:]]
    assert rows == [*([str(i), void] for i in range(1, n)), [deal, winner]], (person.label, sheet)
    title = "History of table" if lang == "en" else "История стола"
    history = await _told(person, "history", title, 1 + n)  # a void deal: no tricks
    assert all(f": {void}, " in line for line in history[1:n]), (person.label, history)
    assert f": {WON[lang]} {winner}, " in history[n], (person.label, history)
