"""/ladders and /ladders/N: a real ladder run (bots as processes) on the server's file."""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By

from deberc_net.ladder import report
from deberc_net.ladder.stats import PairStats
from deberc_net.ladder.store import StoredGame, open_ladder_store
from deberc_net.server.web.plot import Scale
from tests.ladder.helpers import RAND, RAND2, ladder, summary

from .browsing import PHONE, assert_fits, sized
from .conftest import WebServer, screenshot


async def test_only_a_run_after_another_of_its_game_says_its_ratings_carried_over(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """Failed before: the very first run's page said 'Carried over from earlier runs'.
    A three-player run after a two-player one carries nothing over either (ratings are
    per game); /ladders shows each game's ratings in a column of their game."""
    web: WebServer = await start_web()
    for players in ("2", "2", "3"):
        args = ("--bot", RAND, "--bot", RAND2, "--deals", "1", "--players", players, "--json")
        done = await trio.to_thread.run_sync(
            functools.partial(ladder, db_path.parent, *args, db=db_path)
        )
        summary(done)
    carried = 'id="ratings-by-name">Carried over from earlier runs. Ratings are by bot'
    for run, said in ((1, False), (2, True), (3, False)):
        status, body = await web.get(f"/ladders/{run}")
        assert status == 200 and (carried in body.decode()) == said, run
    listing = (await web.get("/ladders"))[1].decode().split('id="runs"')[0]  # the ratings
    assert listing.count("<td>moscow for 2 players</td>") == 2
    assert listing.count("<td>moscow for 3 players</td>") == 2


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
        # the Elo and its margin as the text report says them: a margin there is no
        # telling yet in words, not '± inf' (as it was)
        elo = f'<td class="elo">{report.elo_told(pair)}</td>'
        assert f"<td>{pair['a']} v {pair['b']}</td>" in page and elo in page
        assert f"<td>{report.points_told(pair)}</td>" in page
    for game in run["games"]:  # each board's match links to its replay
        assert f'<a href="/games/{game["match_id"]}">' in page
        assert (await web.get(f"/games/{game['match_id']}"))[0] == 200
    assert_elo_plot(page, run["games"], data)
    started = listed["runs"][0]["started"]  # its zone said
    assert f'<small>started <span class="when">{started} UTC</span></small>' in page
    status, body = await web.get("/ladders")
    assert status == 200 and b'<a href="/ladders/1">1</a>' in body and b"rand2" in body
    assert b"<th>Started (UTC)</th>" in body
    # the ratings are by name, which both pages say (a bot changed under its old name
    # mixed its versions without a word)
    assert report.BY_NAME.replace("'", "&#39;").encode() in body
    # the first run's ratings started afresh: none carried over
    assert 'id="ratings-by-name">Ratings are by bot' in page
    assert (await web.get("/ladders/2"))[0] == 404

    def look() -> list[str]:  # in the browser: the standings, then the run's pairs
        browser.get(web.url("/ladders"))
        screenshot(browser, "ladders")
        browser.find_element(By.LINK_TEXT, "1").click()
        rows = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#pairs tbody tr")]
        plot = browser.find_element(By.CSS_SELECTOR, "#elo-plot svg")
        assert plot.size["width"] > 300 and plot.size["height"] > 200  # drawn, not empty
        screenshot(browser, "ladder")
        with sized(browser, PHONE):  # both read on a phone: nothing broken, nothing past it
            for path in ("/ladders", "/ladders/1"):
                browser.get(web.url(path))
                assert_fits(browser, PHONE["width"], path)
            screenshot(browser, "ladder-phone")
        return rows

    rows = await trio.to_thread.run_sync(look)
    assert [row.split(" ")[:3] for row in rows] == [[p["a"], "v", p["b"]] for p in data["pairs"]]


async def test_a_margin_there_is_no_telling_yet_is_said_in_words_not_inf(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """docs/web.md: /ladders/N says the Elo and points margins as the text report does
    (it showed '± inf'), and how many draws were void."""
    web: WebServer = await start_web()
    pair = PairStats("heur", "rand", 2)
    for n, (x, y) in enumerate([(40, 10)] * 6 + [(0, 0), (5, 5)]):
        pair.add((n // 2, ("heur", "rand")), x, y, void=x == 0)
    told = pair.as_dict()  # 6 wins, 2 draws, no loss: no margin yet (docs/bots.md)
    assert told["elo_margin"] is None and told["points_per_deal_margin"] is not None
    _stored(db_path, pairs=[told])
    status, body = await web.get("/ladders/1")
    page = body.decode()
    assert status == 200 and "inf" not in page.replace("info", ""), page
    assert f'<td class="elo">{told["elo"]:+.1f} (margin: too few deals)</td>' in page
    assert "<td>6-2-0 <small>(1 void)</small></td>" in page


async def test_why_a_game_ended_is_said_in_words_in_both_languages(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """docs/web.md: a run's games say why each ended as its replay does, the forfeiting
    bot named in the sentence. Failed before: the English page said the stored token,
    'deals', 'timeouts (rand)', where the Russian said words."""
    web: WebServer = await start_web()
    store = open_ladder_store(db_path)
    try:
        run = store.start_run({})
        store.add_games(
            run,
            [
                StoredGame(0, ["heur", "rand"], "m1", [90, 72], "deals", None),
                StoredGame(0, ["rand", "heur"], "m2", [0, 0], "timeouts", "rand"),
            ],
        )
    finally:
        store.close()
    for lang, said in (
        ("en", ["the agreed deals were played", "rand let the clock run out too many times "
                "in a row: forfeit"]),
        ("ru", ["раздачи сыграны", "у игрока rand вышло время: поражение"]),
    ):  # fmt: skip
        _, body = await web.get(f"/ladders/1?lang={lang}")
        games = body.decode().split('id="ladder-games"', 1)[1]
        assert re.findall(r"<td>([^<]*)</td></tr>", games) == said, lang


def _stored(db_path: Path, **summary: Any) -> None:
    """A finished run on the server's file, heur v rand: a plain summary with
    ``summary``'s items instead."""
    plain = {
        "bots": ["heur", "rand"], "players": 2, "variant": "moscow", "options": [],
        "boards": 4, "seed": "s1", "schedule": "round-robin", "games": 8, "deals": 8,
        "ratings": [], "pairs": [], "sprt": None,
    }  # fmt: skip
    store = open_ladder_store(db_path)
    try:
        store.finish_run(store.start_run({}), {**plain, **summary}, [], {})
    finally:
        store.close()


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


async def test_the_sprt_line_says_the_pairs_finished_after_its_verdict(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """docs/web.md: /ladders/N has the SPRT line, as the text report says it: its LLR is
    the verdict's, and the pairs the games running then finished are said apart (docs/
    bots.md "SPRT"). Failed before: the page left them out."""
    web: WebServer = await start_web()
    sprt = {
        "first": "heur", "second": "rand", "elo0": 0.0, "elo1": 20.0, "alpha": 0.05,
        "beta": 0.05, "pairs": 12, "llr": 3.01, "bounds": [-2.944, 2.944], "verdict": "H1",
        "pairs_after_verdict": 3,
    }  # fmt: skip
    _stored(db_path, sprt=sprt)
    status, body = await web.get("/ladders/1")
    assert status == 200
    assert (
        "after 12 pairs: H1 (heur more than +0 Elo over rand); 3 pairs finished after it,"
        " in the totals above only.</p>" in body.decode()
    )
    # the verdict says what it shows, as the text report does (a bare 'H1' said nothing
    # of the bots or the bound: a review), in Russian too
    status, body = await web.get("/ladders/1?lang=ru")
    assert "пар: 12: H1 (heur сильнее rand больше чем на +0 Elo); после него" in body.decode()


async def test_the_runs_list_says_the_verdict_in_words_as_the_runs_page_does(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """/ladders listed a run's SPRT verdict as a bare 'H1' or 'H0', which says nothing of
    the bots or the bound (failed before); it says it as /ladders/N does."""
    web: WebServer = await start_web()
    sprt = {
        "first": "heur", "second": "rand", "elo0": -10.0, "elo1": 10.0, "alpha": 0.05,
        "beta": 0.05, "pairs": 30, "llr": -3.1, "bounds": [-2.944, 2.944], "verdict": "H0",
    }  # fmt: skip
    _stored(db_path, sprt=sprt)
    _stored(db_path, sprt={**sprt, "verdict": None})
    page = (await web.get("/ladders"))[1].decode()
    assert "<td>H0 (heur less than +10 Elo over rand)</td>" in page
    assert "<td>no decision</td>" in page and "<td>H0</td>" not in page
    page = (await web.get("/ladders?lang=ru"))[1].decode()
    assert "<td>H0 (heur сильнее rand меньше чем на +10 Elo)</td>" in page
    assert "<td>нет решения</td>" in page


async def test_a_failed_or_cancelled_run_says_so_not_that_it_has_not_finished(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    # a distributed run stopped for good (docs/bots.md) was listed "not finished", and
    # its page said it had not finished yet (failed before)
    web: WebServer = await start_web()
    failed = "worker h/1/ab: cannot start bot 'x': [Errno 2] No such file"
    cancelled = "by 'ladder cancel' on h, process 7"
    with sqlite3.connect(db_path) as db:
        for kind, reason in (("failed", failed), ("cancelled", cancelled)):
            db.execute(
                "INSERT INTO ladder_runs (settings, stopped, stop_reason) VALUES (?, ?, ?)",
                ('{"distributed": {}}', kind, reason),
            )
    db.close()
    listed = json.loads((await web.get("/api/ladders"))[1])
    assert [(r["id"], r["summary"], r["stopped"]) for r in listed["runs"]] == [
        (2, None, "cancelled"),
        (1, None, "failed: a bot could not run"),
    ]
    status, body = await web.get("/ladders")
    page = body.decode()
    assert status == 200 and "not finished" not in page
    assert "failed: a bot could not run: never counted" in page
    # the reason names hosts, commands and a bot's output: for 'ladder table' only
    assert "h/1/ab" not in page and "process 7" not in page
    status, body = await web.get("/ladders/2")
    assert status == 200
    assert "This run cancelled. It is never counted" in body.decode()
    # none of its games stored (a run on one machine stores them at its end): it said
    # "the games stored for it before it stopped are below" over nothing (s50 tryout)
    for path, lang in (("/ladders/1", ""), ("/ladders/1?lang=ru", "ru")):
        page = (await web.get(path))[1].decode()
        assert "are below" not in page and "ниже" not in page
        assert 'id="ladder-games"' not in page
        said = "ни одна его партия не сохранена" if lang else "none of its games was stored"
        assert said in page


async def test_a_run_number_no_database_can_hold_is_no_run_not_a_failure(
    start_web: Callable[..., Any],
) -> None:
    # 2**63 gave 500 and an OverflowError's traceback in the log, every request
    web: WebServer = await start_web()
    for number in (2**63 - 1, 2**63, 10**40):
        assert (await web.get(f"/ladders/{number}"))[0] == 404
        status, body = await web.get(f"/api/ladders/{number}")
        assert status == 404 and json.loads(body) == {"error": f"no ladder run {number}"}
    for path in ("/games/m99999999999999999999999", "/table/99999999999999999999999"):
        assert (await web.get(path))[0] == 404
