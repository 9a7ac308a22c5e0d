"""A player page's tally (docs/web.md): a match forfeited before the first call is
neither won nor lost (the ratings do not count it either, docs/protocol.md §5.18:
'Гоша' showed "Won 2" from two such forfeits), and a guest's name, anyone's once he
has gone, has its page say its matches may be different people's (/players/gstayer
showed a tally as one person's)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
import trio

from tests.server.client import LineClient
from tests.server.conftest import Connector

from .conftest import WebServer

GOSHA = quote("Гоша")  # his page's path, as a browser sends it


async def _forfeited_at_once(host: LineClient, leaver: LineClient, leaver_name: str) -> str:
    """``leaver`` sits at ``host``'s new table and leaves with 'leave!' before any
    call: the match, ``host`` its winner."""
    await host.send("new 2")
    table = (await host.expect("ok", cmd="sit"))["table"]
    await leaver.send(f"sit {table}")
    await leaver.expect("ok", cmd="sit")
    await leaver.send("leave!")
    end = await host.expect("event", kind="match-end")
    assert (end["reason"], end["winner"]) == ("left", "0"), (end, leaver_name)  # host's seat
    return end["match"]


@pytest.mark.timeout(60)
async def test_forfeits_before_the_first_call_are_no_wins_and_a_guests_page_says_it_is_a_guests(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    web: WebServer = await start_web()
    with trio.fail_after(30):
        gosha = await connect.machine(web.port, "Гоша", "secret-pass")  # (registers it)
        gstayer = await connect.machine(web.port, "gstayer")
        matches = [await _forfeited_at_once(gosha, gstayer, "gstayer") for _ in range(2)]

        player = json.loads((await web.get(f"/api/players/{GOSHA}"))[1])
        assert (player["won"], player["lost"], player["aborted"], player["guest"]) == (
            0,
            0,
            2,
            False,
        )
        assert [(g["match"], g["result"]) for g in player["games"]] == [
            (m, "aborted") for m in reversed(matches)
        ]
        status, body = await web.get(f"/players/{GOSHA}")
        page = body.decode()
        assert status == 200 and "Won <strong>0</strong>" in page
        assert "forfeited before the first call <strong>2</strong>" in page
        # why it ended: who left, not his defeat beside "forfeited before the first
        # call" (a tryout, s49: «брошена до первого хода» beside «…: поражение»)
        assert page.count("<td>gstayer left the table</td>") == 2, page
        assert "left the table: forfeit" not in page
        status, body = await web.get(f"/players/{GOSHA}", headers={"Accept-Language": "ru"})
        russian = body.decode()
        assert status == 200 and "брошено до первого хода <strong>2</strong>" in russian
        assert russian.count("<td>брошена до первого хода</td>") == 2, russian
        assert russian.count("<td>gstayer покидает стол</td>") == 2, russian
        assert "поражение" not in russian

        guest = json.loads((await web.get("/api/players/gstayer"))[1])
        assert guest["guest"] is True and len(guest["games"]) == 2
        status, body = await web.get("/players/gstayer")
        page = body.decode()
        assert status == 200 and "forfeited before the first call <strong>2</strong>" in page
        assert "gstayer is no registered name but a guest" in page
        assert all(f'href="/games/{m}"' in page for m in matches)  # still listed
        status, body = await web.get("/players/gstayer", headers={"Accept-Language": "ru"})
        russian = body.decode()
        assert "gstayer — не зарегистрированное имя, а гостевое" in russian
