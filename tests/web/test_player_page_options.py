"""A player's page names each match's rules as its replay does (docs/web.md): its
Variant column said `kharkov` where /games/M says `kharkov · to-301` (a tryout, s48),
and /api/players/NAME gives each match's options as /api/games/ID does."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
import trio

from tests.server.conftest import Connector

from .conftest import WebServer


def _heading_rules(page: str) -> str:
    """The rules a /games/M page's heading names, after its players."""
    found = re.search(r"<h1>.*?<small>.*</span> · (.*?)</small></h1>", page)
    if found is None:  # (two players: linked names, then the rules)
        found = re.search(r"<h1>.*?<small>.*</a> · (.*?)</small></h1>", page)
    assert found is not None, page[:2000]
    return html.unescape(found.group(1))


@pytest.mark.timeout(60)
async def test_a_players_matches_name_their_options_as_the_game_page_does(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    web: WebServer = await start_web()
    with trio.fail_after(30):
        ann = await connect.machine(web.port, "ann")
        bob = await connect.machine(web.port, "bob")
        await ann.send("new 3 kharkov to-301")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")
        cat = await connect.machine(web.port, "cat")
        await cat.send(f"sit {table}")
        await cat.expect("ok", cmd="sit")
        await cat.send("leave!")  # (a match over at once: a forfeit)
        match = (await ann.expect("event", kind="match-end"))["match"]

        replay = (await web.get(f"/games/{match}"))[1].decode()
        rules = _heading_rules(replay)
        assert rules == "kharkov · to-301", rules
        page = (await web.get("/players/ann"))[1].decode()
        row = re.search(rf'<tr[^>]*>\s*<td><a href="/games/{match}">.*?</tr>', page, re.S)
        assert row is not None, page
        cells = re.findall(r"<td>(.*?)</td>", row.group(0), re.S)
        assert html.unescape(cells[3]) == rules, cells  # the Variant column
        ru = (await web.get("/players/ann", headers={"Accept-Language": "ru"}))[1].decode()
        assert f"<td>{html.escape(rules)}</td>" in ru  # (in Russian alike)

        api = json.loads((await web.get("/api/players/ann"))[1])
        game = json.loads((await web.get(f"/api/games/{match}"))[1])
        assert api["games"][0]["options"] == game["options"] == ["to-301"], api["games"][0]
