"""What a player and a kibitzer say, as the Russian human style (nc) shows it, and as
docs/play.ru.md tells it in its nc part. A newcomers' tryout: the guide's «на экране
`eve (зрители): …`» is the terminal client's log; over nc it reads `[стол 3, зрители]
eve: …`, which the guide did not say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio

from .client import person_told
from .conftest import Connector

PLAY_RU = Path(__file__).resolve().parents[2] / "docs" / "play.ru.md"


@pytest.mark.timeout(30)
async def test_table_and_kibitzer_talk_read_as_the_guide_says(
    port: int, connect: Connector
) -> None:
    anna = await connect.human(port, "anna")
    boris = await connect.human(port, "boris")
    eve = await connect.human(port, "eve")
    for person in (anna, boris, eve):
        assert await person_told(person, "lang ru")
    sat = " ".join(await person_told(anna, "new 2"))
    table = re.findall(r"столом (\d+)", sat)[0]
    assert await person_told(eve, f"observe {table}")
    assert await person_told(boris, f"sit {table}")
    with trio.fail_after(30):
        said = await person_told(anna, "say привет")
        assert f"[стол {table}] anna: привет" in said
        watched = await person_told(eve, "say кто ведёт?")
        assert f"[стол {table}, зрители] eve: кто ведёт?" in watched
    guide = " ".join(PLAY_RU.read_text(encoding="utf-8").split())
    assert "по `nc` — `[стол 3, зрители] eve: …`" in guide
    assert "по `nc` — `[стол 3] anna: …`" in guide
