"""/ladders and /ladders/N: a real ladder run (bots as processes) on the server's file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By

from deberc_net.ladder.store import open_ladder_store
from tests.ladder.helpers import RAND, RAND2, ladder, summary

from .conftest import WebServer, screenshot


async def test_a_ladder_run_on_the_servers_file_is_shown(
    start_web: Callable[..., Any], db_path: Path, browser: webdriver.Chrome
) -> None:
    web: WebServer = await start_web()
    status, body = await web.get("/ladders")
    assert status == 200 and b'id="no-ladders"' in body  # nothing run yet
    assert json.loads((await web.get("/api/ladders"))[1]) == {"leaderboard": [], "runs": []}

    done = await trio.to_thread.run_sync(
        lambda: ladder(
            db_path.parent,
            "--bot",
            RAND,
            "--bot",
            RAND2,
            "--deals",
            "2",
            "--seed",
            "w1",
            "--json",
            db=db_path,
        )
    )
    data = summary(done)
    store = open_ladder_store(db_path)
    try:
        leaderboard = store.leaderboard()
    finally:
        store.close()

    listed = json.loads((await web.get("/api/ladders"))[1])
    assert listed["leaderboard"] == leaderboard
    assert [(r["id"], r["summary"]) for r in listed["runs"]] == [(1, data)]
    run = json.loads((await web.get("/api/ladders/1"))[1])
    assert run["summary"]["pairs"] == data["pairs"] and len(run["games"]) == data["games"]

    status, body = await web.get("/ladders/1")
    page = body.decode()
    assert status == 200
    for pair in data["pairs"]:
        elo = "inf" if pair["elo"] is None else f"{pair['elo']:+.1f}"
        assert f"<td>{pair['a']} v {pair['b']}</td>" in page and f'<td class="elo">{elo} ±' in page
    for game in run["games"]:  # each board's match links to its replay
        assert f'<a href="/games/{game["match_id"]}">' in page
        assert (await web.get(f"/games/{game['match_id']}"))[0] == 200
    status, body = await web.get("/ladders")
    assert status == 200 and b'<a href="/ladders/1">1</a>' in body and b"rand2" in body
    assert (await web.get("/ladders/2"))[0] == 404

    def look() -> list[str]:  # in the browser: the standings, then the run's pairs
        browser.get(web.url("/ladders"))
        screenshot(browser, "ladders")
        browser.find_element(By.LINK_TEXT, "1").click()
        rows = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#pairs tbody tr")]
        screenshot(browser, "ladder")
        return rows

    rows = await trio.to_thread.run_sync(look)
    assert [row.split(" ")[:3] for row in rows] == [[p["a"], "v", p["b"]] for p in data["pairs"]]
