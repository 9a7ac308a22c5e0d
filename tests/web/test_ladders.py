"""/ladders and /ladders/N: a real ladder run (bots as processes) on the server's file."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By

from deberc_net.ladder.stats import PairStats
from deberc_net.ladder.store import open_ladder_store
from deberc_net.server.web.plot import Scale
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
            "--sprt",
            "0,20,0.05,0.05",
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
    assert_elo_plot(page, run["games"], data)
    status, body = await web.get("/ladders")
    assert status == 200 and b'<a href="/ladders/1">1</a>' in body and b"rand2" in body
    assert (await web.get("/ladders/2"))[0] == 404

    def look() -> list[str]:  # in the browser: the standings, then the run's pairs
        browser.get(web.url("/ladders"))
        screenshot(browser, "ladders")
        browser.find_element(By.LINK_TEXT, "1").click()
        rows = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#pairs tbody tr")]
        plot = browser.find_element(By.CSS_SELECTOR, "#elo-plot svg")
        assert plot.size["width"] > 300 and plot.size["height"] > 200  # drawn, not empty
        screenshot(browser, "ladder")
        return rows

    rows = await trio.to_thread.run_sync(look)
    assert [row.split(" ")[:3] for row in rows] == [[p["a"], "v", p["b"]] for p in data["pairs"]]


def assert_elo_plot(page: str, games: list[dict[str, Any]], data: dict[str, Any]) -> None:
    """The page's SVG: one point per game of the pair, at the Elo the stored games give
    after that game (worked out here by hand for two bots), and the SPRT's bounds."""
    svg = page[page.index("<svg") : page.index("</svg>") + len("</svg>")]
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    (line,) = root.findall(f"{ns}polyline")
    a, b = data["pairs"][0]["a"], data["pairs"][0]["b"]  # as the report puts them
    assert line.get("data-name") == f"{a} v {b}"
    pair, expected = PairStats(a, b, 2), []
    for game in games:
        seating, written = game["seating"], game["written"]
        mine = written[seating.index(a)]
        theirs = written[seating.index(b)]
        if game["forfeit"] is not None:
            pair.wins += game["forfeit"] == b
            pair.losses += game["forfeit"] == a
        else:
            pair.add((game["board"], (a, b)), mine, theirs)
        expected.append(pair.elo()[0])
    assert len(expected) == data["games"]
    assert round(expected[-1], 2) == data["pairs"][0]["elo"]  # the table's figure
    lo, hi = (float(v) for v in line.get("data-y-domain", "").split(","))
    height = float(root.get("height", ""))
    y = Scale(lo, hi, height - 44, 16)
    points = [p.split(",") for p in line.get("points", "").split()]
    assert [float(py) for _, py in points] == [round(y(e), 1) for e in expected]
    sign = 1 if data["bots"][0] == a else -1
    rules = sorted(
        float(r.get("data-value", "")) for r in root.iter(f"{ns}line") if r.get("class") == "rule"
    )
    assert rules == sorted([sign * 0.0, sign * 20.0])
