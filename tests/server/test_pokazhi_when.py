"""A `pokazhi` with no declaration to see says when it is said (docs/protocol.md §8.3),
as the other calls' refusals say theirs: it said only that none waited (s47)."""

from __future__ import annotations

import pytest

from .client import seat_pair
from .conftest import Connector

DEBERTS = (
    "no opponent's declaration is waiting to be shown: pokazhi is said once the opponent"
    " declares, until the first card of the second trick"
)
TERTZ = (
    "no opponent's declaration is waiting to be shown: pokazhi is said once the opponent"
    " declares, until that declaration is shown"
)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(("game", "text"), [("2", DEBERTS), ("2 tertz", TERTZ)])
async def test_pokazhi_out_of_its_window_says_when(
    port: int, connect: Connector, game: str, text: str
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob, game)
    await ann.expect("event", kind="deal")
    for player in (ann, bob):  # the seat to act and the other alike
        await player.send("pokazhi")
        assert await player.expect("error") == {"code": "not-allowed", "text": text}


@pytest.mark.timeout(30)
async def test_a_russian_player_is_told_when_in_russian(port: int, connect: Connector) -> None:
    ann = await connect.human(port, "ann")
    bob = await connect.human(port, "bob")
    await ann.send("lang ru")
    await ann.read_until(lambda x: "русск" in x.lower() or x.startswith("Язык"))
    await ann.send("seek 2")
    await bob.send("seek 2")
    await ann.read_until(lambda x: x.startswith("Раздача 1"))
    await ann.send("покажи")
    told = [await ann.read_until(lambda x: x.startswith("Ошибка"))]
    told.append(await ann.read_until(lambda _: True))  # (wrapped at 80 columns)
    assert " ".join(x.strip() for x in told) == (
        "Ошибка (not-allowed): соперник не объявлял комбинации, которую можно потребовать"
        " показать: «покажи» говорят после его объявления, до первой карты второй взятки"
    ), told
