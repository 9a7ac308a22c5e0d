"""/ladders and /ladders/N say a game as every other page does and leave no cell or
table empty for a run in progress (a web tryout, s46): the ladder pages said `2 players,
moscow` where `/top`, `/players/NAME` and `top` on the game port say `moscow for 2
players`; a run in progress listed its Bots and Variant as nothing beside `not
finished`, and its page put an empty Games table, headings alone, under "none of its
games is stored yet". Real HTTP against a real server, its SQLite file."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By

from deberc_net.ladder.stats import PairStats
from deberc_net.ladder.store import StoredGame, open_ladder_store

from .browsing import DESKTOP, PHONE, assert_fits, sized
from .conftest import WebServer, screenshot

RU = {"Accept-Language": "ru"}


def _finished_run(db_path: Path) -> None:
    """Run 1: one game of heur v rand to 301, its summary and ratings stored."""
    pair = PairStats("heur", "rand", 2)
    pair.add((0, ("heur", "rand")), 162, 0)
    summary = {
        "bots": ["heur", "rand"], "players": 2, "variant": "moscow", "options": ["to-301"],
        "boards": 1, "seed": "s1", "schedule": "round-robin", "games": 1, "deals": 1,
        "ratings": [], "pairs": [pair.as_dict()], "sprt": None,
    }  # fmt: skip
    ratings = [
        {"bot": "heur", "mu": 27.0, "sigma": 8.0, "rating": 3.0},
        {"bot": "rand", "mu": 23.0, "sigma": 8.0, "rating": -1.0},
    ]
    store = open_ladder_store(db_path)
    try:
        run = store.start_run({})
        store.add_games(run, [StoredGame(0, ["heur", "rand"], "m1", [162, 0], "score", None)])
        store.finish_run(run, summary, ratings, {"heur": 1, "rand": 1})
    finally:
        store.close()


def _running_run(db_path: Path) -> None:
    """Run 2: started, nothing stored yet (a run on one machine stores at its end)."""
    store = open_ladder_store(db_path)
    try:
        store.start_run({})
    finally:
        store.close()


def _cells(page: str, table: str) -> list[list[str]]:
    """Each row of the page's table ``table``, its cells' text."""
    body = page.split(f'id="{table}"', 1)[1].split("</table>", 1)[0].split("<tbody>", 1)[1]
    return [
        [html.unescape(re.sub(r"<[^>]*>", "", cell)).strip() for cell in cells]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
        if (cells := re.findall(r"<td[^>]*>(.*?)</td>", row, re.S))
    ]


async def test_the_ladder_pages_name_a_game_as_top_and_the_players_pages_do(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    _finished_run(db_path)
    web: WebServer = await start_web()
    with trio.fail_after(30):
        listing = (await web.get("/ladders"))[1].decode()
        run = (await web.get("/ladders/1"))[1].decode()
        russian = (await web.get("/ladders", RU))[1].decode()
        run_ru = (await web.get("/ladders/1", RU))[1].decode()
    assert [row[0] for row in _cells(listing, "leaderboard")] == ["moscow for 2 players"] * 2
    assert _cells(listing, "runs")[0][3] == "moscow for 2 players, to-301"
    assert "<p>heur, rand; moscow for 2 players, to-301;\n" in run
    assert "2 players, moscow" not in listing + run
    assert [row[0] for row in _cells(russian, "leaderboard")] == ["moscow на двоих"] * 2
    assert _cells(russian, "runs")[0][3] == "moscow на двоих, to-301"
    assert "; moscow на двоих, to-301;" in run_ru and "игроков: 2" not in russian + run_ru


async def test_a_run_in_progress_leaves_no_cell_nor_table_empty(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    _finished_run(db_path)
    _running_run(db_path)
    web: WebServer = await start_web()
    with trio.fail_after(30):
        listing = (await web.get("/ladders"))[1].decode()
        russian = (await web.get("/ladders", RU))[1].decode()
        status, body = await web.get("/ladders/2")
        status_ru, body_ru = await web.get("/ladders/2", RU)
    running = _cells(listing, "runs")[0]
    assert running[0] == "2" and all(running), running
    # a run stopped by Ctrl-C looks the same and gets no report: the cell said only that
    # its report would come (read-back s50, ladder tryout)
    assert running[2:] == [
        "not finished: its bots, game and counts come with its report; a run stopped gets none"
    ]
    assert _cells(russian, "runs")[0][2:] == [
        "не окончен: его боты, игра и итоги придут с отчётом; у остановленного его не будет"
    ]
    page = body.decode()
    assert status == 200 and "none of its games is stored yet" in page
    assert 'id="ladder-games"' not in page and "<h2>Games</h2>" not in page
    assert status_ru == 200 and 'id="ladder-games"' not in body_ru.decode()
    # a run with games keeps its table
    assert 'id="ladder-games"' in (await web.get("/ladders/1"))[1].decode()


async def test_a_run_in_progress_reads_whole_in_a_browser_at_a_phones_width_and_a_desktops(
    start_web: Callable[..., Any], db_path: Path, browser: webdriver.Chrome
) -> None:
    """Headless Chromium: every cell of the runs' rows shows words (the tryout saw the
    Bots and Variant of a run in progress as nothing), nothing past the page's width,
    and the run's page has no Games table."""
    _finished_run(db_path)
    _running_run(db_path)
    web: WebServer = await start_web()

    def look() -> list[list[list[str]]]:
        seen = []
        for metrics in (PHONE, DESKTOP):
            with sized(browser, metrics):
                browser.get(web.url("/ladders"))
                assert_fits(browser, metrics["width"], "/ladders")
                rows = browser.find_elements(By.CSS_SELECTOR, "#runs tbody tr")
                seen.append([[c.text for c in r.find_elements(By.TAG_NAME, "td")] for r in rows])
                screenshot(browser, f"ladders-running-{metrics['width']}")
                browser.get(web.url("/ladders/2"))
                assert_fits(browser, metrics["width"], "/ladders/2")
                assert browser.find_elements(By.CSS_SELECTOR, "#ladder-games, table") == []
        return seen

    with trio.fail_after(60):
        for rows in await trio.to_thread.run_sync(look):
            assert all(all(cell.strip() for cell in row) for row in rows), rows
            assert rows[0][2].endswith("a run stopped gets none"), rows
