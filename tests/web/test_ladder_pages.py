"""/ladders/N of a long run: its games a page at a time (?page=N, docs/web.md), a page
it has not refused with those it has, and a finished run's plot made of all its games
once and kept. A bench of a big club (bench/big_club.py): a run of 20,000 games cost
0.93 s of CPU a page, every game read, counted and listed each time."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.ladder.stats import PairStats
from deberc_net.ladder.store import StoredGame, open_ladder_store
from deberc_net.protocol.lang import Lang
from deberc_net.server.web.ladders import GAMES_PAGE, KeptPlots, LadderRun, elo_curves, elo_plot

from .conftest import WebServer

GAMES = 2 * GAMES_PAGE + 50  # three pages: two whole, one of 50
BIG_RUN = 10_000  # games: its plot some 0.1 s of CPU to make
AT_ONCE = 12  # first requests of a run, together

RU = {"Accept-Language": "ru"}


def _run(db_path: Path, finished: bool, count: int = GAMES) -> list[dict[str, Any]]:
    """A run (the first is 1) of ``count`` games of heur v rand (heur wins two in three),
    with its summary when ``finished``; its games as the store gives them back."""
    games, pair = [], PairStats("heur", "rand", 2)
    for n in range(count):
        seating = ["heur", "rand"] if n % 2 else ["rand", "heur"]
        written = [162, 0] if (seating[0] == "heur") == (n % 3 != 0) else [0, 162]
        games.append(StoredGame(n // 2, seating, f"m{n + 1}", written, "score", None))
        mine, theirs = written[seating.index("heur")], written[seating.index("rand")]
        pair.add((n // 2, ("heur", "rand")), mine, theirs)
    summary = {
        "bots": ["heur", "rand"], "players": 2, "variant": "moscow", "options": [],
        "boards": count // 2, "seed": "s1", "schedule": "round-robin", "games": count,
        "deals": count, "ratings": [], "pairs": [pair.as_dict()], "sprt": None,
    }  # fmt: skip
    store = open_ladder_store(db_path)
    try:
        run = store.start_run({})
        store.add_games(run, games)
        if finished:
            store.finish_run(run, summary, [], {})
        return store.games(run)
    finally:
        store.close()


def _rows(page: bytes) -> list[str]:
    """The match of each row of the page's games table."""
    table = page.decode().split('id="ladder-games"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<a href="/games/(m[0-9]+)">', table)


def _svg(page: bytes) -> str:
    text = page.decode()
    return text[text.index("<svg") : text.index("</svg>") + len("</svg>")]


async def test_a_long_runs_games_are_paged_with_links_to_the_next_and_previous(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    games = _run(db_path, finished=False)
    web: WebServer = await start_web()
    every = [g["match_id"] for g in games]
    status, first = await web.get("/ladders/1")
    assert status == 200 and _rows(first) == every[:GAMES_PAGE]
    assert f"Games 1–{GAMES_PAGE} of {GAMES} (page 1 of 3).".encode() in first
    assert b'<a rel="next" href="/ladders/1?page=2">' in first and b'rel="prev"' not in first
    assert b"<svg" not in first  # a run not finished: no plot (its games still come)
    # the pages' links a landmark of their own, named as a reader lists it
    assert b'<nav class="pages" id="games-pages" aria-label="Games">' in first
    status, second = await web.get("/ladders/1?page=2")
    assert status == 200 and _rows(second) == every[GAMES_PAGE : 2 * GAMES_PAGE]
    assert b'<a rel="prev" href="/ladders/1">' in second
    assert b'<a rel="next" href="/ladders/1?page=3">' in second
    assert b'href="/ladders/1?page=2&amp;lang=ru"' in second  # the switch keeps the page
    status, last = await web.get("/ladders/1?page=3")
    assert status == 200 and _rows(last) == every[2 * GAMES_PAGE :]
    assert b'<a rel="prev" href="/ladders/1?page=2">' in last and b'rel="next"' not in last
    assert f"Games {2 * GAMES_PAGE + 1}–{GAMES} of {GAMES} (page 3 of 3).".encode() in last
    status, russian = await web.get("/ladders/1?page=3", RU)
    assert "Партии 201–250 из 250 (страница 3 из 3).".encode() in russian
    assert "предыдущая страница".encode() in russian

    status, body = await web.get("/api/ladders/1?page=2")
    told = json.loads(body)
    assert status == 200 and told["games"] == games[GAMES_PAGE : 2 * GAMES_PAGE]
    assert (told["page"], told["pages"], told["game_count"]) == (2, 3, GAMES)
    told = json.loads((await web.get("/api/ladders/1"))[1])
    assert told["games"] == games[:GAMES_PAGE] and told["page"] == 1


@pytest.mark.parametrize("asked", ["0", "4", "-1", "x", "", "1.5", "%D9%A3", "1" * 40, "2%20"])
async def test_a_page_the_run_has_not_is_refused_with_its_pages(
    start_web: Callable[..., Any], db_path: Path, asked: str
) -> None:
    _run(db_path, finished=True)
    web: WebServer = await start_web()
    status, body = await web.get(f"/ladders/1?page={asked}")
    assert status == 400, body
    assert b"<h1>Bad request</h1>" in body
    assert b"No such page: ?page=N, N from 1 to 3." in body
    status, body = await web.get(f"/api/ladders/1?page={asked}")
    assert status == 400
    assert json.loads(body) == {"error": "no such page: ?page=N, N from 1 to 3"}
    status, body = await web.get(f"/ladders/1?page={asked}", RU)
    assert status == 400 and "Нет такой страницы: ?page=N, N от 1 до 3.".encode() in body
    status, body = await web.get(f"/ladders/2?page={asked}")  # no run: that first
    assert status == 404 and b"<h1>Not found</h1><p>No ladder run 2.</p>" in body


async def test_a_run_of_no_games_has_its_one_page(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    store = open_ladder_store(db_path)
    try:
        store.start_run({})
    finally:
        store.close()
    web: WebServer = await start_web()
    status, body = await web.get("/ladders/1?page=1")
    assert status == 200 and b'id="games-pages"' not in body
    assert (await web.get("/ladders/1?page=2"))[0] == 400
    # a run on one machine stores its games at its end: one being played, or stopped
    # before its report (Ctrl-C), said "its games so far are below" over an empty table;
    # then the empty table under "none of its games is stored yet" (s46): none now
    page = body.decode()
    assert 'id="ladder-games"' not in page
    assert "games so far are below" not in page
    assert (
        '<p id="unfinished">This run has not finished (or stopped before its report), '
        "and none of its games is stored yet" in page
    )
    russian = (await web.get("/ladders/1", RU))[1].decode()
    assert "ни одна его партия ещё не сохранена" in russian and "партии на сейчас" not in russian


async def test_an_unfinished_run_with_games_stored_says_they_are_below(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """A distributed run stores each board's games as it is done: its page lists them."""
    _run(db_path, finished=False, count=4)
    web: WebServer = await start_web()
    status, body = await web.get("/ladders/1")
    assert status == 200 and len(_rows(body)) == 4
    assert b"its games so far are below." in body and b'id="unfinished"' not in body


async def test_a_stopped_runs_page_says_its_games_are_below_only_when_some_are(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """A distributed run cancelled after some boards keeps their games, listed below;
    one stopped with none (a single-machine run stores its games at its end) says so."""
    _run(db_path, finished=False, count=4)
    _run(db_path, finished=False, count=0)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE ladder_runs SET stopped = 'cancelled', stop_reason = 'by me'")
    db.close()
    web: WebServer = await start_web()
    body = (await web.get("/ladders/1"))[1]
    assert len(_rows(body)) == 4
    assert b"the games stored for it before it stopped are below." in body
    body = (await web.get("/ladders/2"))[1]
    assert b'id="ladder-games"' not in body and b"are below" not in body
    assert b"This run cancelled. It is never counted, and none of its games was stored." in body


async def test_a_finished_runs_plot_is_of_all_its_games_on_every_page_and_kept(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """The plot of each pair's Elo is the one all the run's games make, on any page of
    them, and it is made once: the games taken from under it, it stays as it was."""
    games = _run(db_path, finished=True)
    web: WebServer = await start_web()
    store = open_ladder_store(db_path)
    try:
        (row,) = store.runs()
    finally:
        store.close()
    whole = LadderRun(row.id, row.started, row.summary, games)
    english, russian = elo_plot(whole), elo_plot(whole, Lang.RU)
    assert english is not None and russian is not None
    assert english.count(",") > 2 * GAMES_PAGE  # a point per game: more than a page's
    for path in ("/ladders/1", "/ladders/1?page=2", "/ladders/1?page=3"):
        status, body = await web.get(path)
        assert status == 200 and _svg(body) == english
    assert _svg((await web.get("/ladders/1?page=2", RU))[1]) == russian

    with sqlite3.connect(db_path) as db:  # (never done to a finished run: a test of the keeping)
        db.execute("DELETE FROM ladder_games WHERE run_id = 1 AND board > 0")
    db.close()
    status, body = await web.get("/ladders/1")
    assert status == 200 and len(_rows(body)) == 2  # the games read anew, a page's
    assert _svg(body) == english  # the plot as it was made


@pytest.mark.timeout(120)
async def test_a_plot_asked_for_by_many_at_once_is_made_once(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """A finished run's first requests, come together (one address's burst), make its
    plot once: the others wait for it and find it kept. Each made it (a hostile tryout:
    50 at once of a run of 20,000 games, 5 s of the server's CPU, a player's ping 0.4 s
    to answer meanwhile)."""
    for _ in range(2):  # runs 1 and 2, alike
        _run(db_path, finished=True, count=BIG_RUN)
    web: WebServer = await start_web(web_requests_per_address_burst=0)
    with trio.fail_after(60):
        before = time.process_time()
        assert (await web.get("/ladders/1?page=2"))[0] == 200  # one first request
        one = time.process_time() - before
        before = time.process_time()
        async with trio.open_nursery() as nursery:
            for _ in range(AT_ONCE):
                nursery.start_soon(web.get, "/ladders/2?page=2")
        at_once = time.process_time() - before
    # made once, and AT_ONCE pages of 100 games each: a few times one first request
    assert at_once < 5 * one, (at_once, one)


@pytest.mark.timeout(120)
async def test_requests_waiting_for_a_plot_being_made_hold_no_thread(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """The requests that wait for a finished run's plot being made wait on the event
    loop: waiting in threads they held trio's threads (40 at most, here 4), which a
    login's hashing and every store read share, and a list of the runs asked meanwhile
    waited for the plot (a web tryout)."""
    _run(db_path, finished=True, count=2 * BIG_RUN)
    web: WebServer = await start_web(web_requests_per_address_burst=0)
    trio.to_thread.current_default_thread_limiter().total_tokens = 4  # (this run's)
    answered: list[str] = []
    clients = trio.CapacityLimiter(AT_ONCE + 1)  # the test's own threads

    async def asked(path: str) -> None:
        # (the plot's making, on a loaded machine, outlasted get's 5 s; fail_after bounds it)
        assert (await web.get(path, limiter=clients, timeout=40))[0] == 200
        answered.append(path)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for _ in range(AT_ONCE):
                nursery.start_soon(asked, "/ladders/1")
            await trio.testing.wait_all_tasks_blocked()
            nursery.start_soon(asked, "/ladders")
    # the list was answered while the plot was still being made
    assert answered.index("/ladders") == 0, answered


def test_the_plots_kept_are_bounded_by_their_size_the_least_recently_asked_dropped() -> None:
    kept = KeptPlots(most_bytes=30)
    for run in (1, 2, 3):
        kept.put(("db", run, Lang.EN), "x" * 10)
    assert kept.get(("db", 1, Lang.EN)) == "x" * 10  # asked: now the most recent
    kept.put(("db", 4, Lang.EN), "y" * 10)  # 40 bytes: the least recently asked goes
    assert kept.get(("db", 2, Lang.EN)) is None
    assert [kept.get(("db", run, Lang.EN)) for run in (1, 3, 4)] == ["x" * 10, "x" * 10, "y" * 10]
    kept.put(("db", 5, Lang.EN), "z" * 100)  # past the bound alone: kept, the rest dropped
    assert [kept.get(("db", run, Lang.EN)) for run in (1, 3, 4, 5)] == [None, None, None, "z" * 100]


def test_a_three_player_runs_plot_has_a_point_a_game_where_a_bot_sits_twice() -> None:
    """With three players and two bots, a game (a, a, b) is two deals of the pair, both
    counted before the point is drawn: one point a game (docs/web.md), the last the
    table's Elo. Failed before: each game gave two points alike, so the x axis, 'games
    counted for the pair', ran to twice the games."""
    seatings = [("a", "a", "b"), ("a", "b", "a"), ("b", "a", "a")]
    seatings += [("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a")]
    games = [
        {"board": 1, "seating": list(seating), "match_id": f"m{n}", "reason": "deals",
         "written": [60 if bot == "a" else 50 for bot in seating], "forfeit": None}
        for n, seating in enumerate(seatings)
    ]  # fmt: skip
    games[5]["written"] = [70, 5, 10]  # a (seat 2) loses to b at seat 0, beats b at seat 1
    summary = {"bots": ["a", "b"], "players": 3, "pairs": [{"a": "a", "b": "b"}]}
    curve = elo_curves(LadderRun(1, "2026-12-01", summary, games))[("a", "b")]
    assert len(curve) == len(games)
    pair = PairStats("a", "b", 6)
    for _ in range(11):
        pair.add((1, ("a", "b")), 60, 50)
    pair.add((1, ("a", "b")), 10, 70)
    assert curve[-1] == pytest.approx(pair.elo()[0])
