"""A finished match's replay (/games/ID, /api/games/ID) is built in a thread, once when
its first requests come together, and kept (server/web/replays.py): each request
rebuilt it on the event loop, and a hostile tryout's two guests, passing every call
until ``max_match_deals``, made a match of 200 deals whose page (230 KB) 55 requests
at once rebuilt for 3.5 s of the server's CPU, every player's ``ping`` waiting up to
0.4 s meanwhile. Real sockets, a real SQLite file; the server runs in this process:
its CPU is ours."""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.game.calls import PAS
from deberc_net.game.match import Match
from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.server.web.replays import replay_read
from deberc_net.testing import build_ruleset
from tests.server.conftest import Connector

from .conftest import WebServer

LONGEST = 200  # deals: the server's max_match_deals
AT_ONCE = 12  # first requests of a match, together
PLAYERS = ["ann", "bob"]


def passed_match(match_id: str, deals: int) -> Match:
    """Two players passing every call until the match's most deals end it (a draw)."""
    match = Match(
        build_ruleset(2), seed=match_id, names=tuple(PLAYERS), table="1", match_id=match_id,
        most_deals=deals,
    )  # fmt: skip
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.apply(seat, next(c for c in match.legal_calls(seat) if c.name == PAS))
    return match


def store_match(
    db_path: Path, match: Match, deals: int | None = None, finished: bool = True
) -> None:
    """``match``'s first ``deals`` records written as its server writes them, and its
    end when ``finished`` (else it is left running, its server unknown: the next
    server to start lists it as lost)."""
    store = SQLiteStore(db_path)
    try:
        with store.group():
            for record in match.records[:deals]:
                store.add_deal(record)
            if finished:
                result = match.result
                assert result is not None
                store.finish_match(
                    match.match_id, 1, PLAYERS, "moscow", [], None, result.reason,
                    list(match.totals),
                )  # fmt: skip
    finally:
        store.close()


@pytest.mark.timeout(120)
async def test_a_long_replay_asked_for_by_many_at_once_is_built_once(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    for match_id in ("m1", "m2"):  # alike
        store_match(db_path, passed_match(match_id, LONGEST))
    web: WebServer = await start_web(web_requests_per_address_burst=0)
    with trio.fail_after(60):
        before = time.process_time()
        status, page = await web.get("/games/m1")  # one first request
        one = time.process_time() - before
        assert status == 200 and page.count(b'<section class="deal"') == LONGEST
        before = time.process_time()
        async with trio.open_nursery() as nursery:
            for _ in range(AT_ONCE):
                nursery.start_soon(web.get, "/games/m2")
        at_once = time.process_time() - before
        before = time.process_time()
        async with trio.open_nursery() as nursery:
            for _ in range(AT_ONCE):
                nursery.start_soon(web.get, "/games/m2")
        kept = time.process_time() - before
    # built once (each built it: AT_ONCE times one), then AT_ONCE pages sent and read
    assert at_once < 5 * one, (at_once, one)
    assert kept < 3 * one, (kept, one)


async def test_a_kept_replay_is_kept_for_each_language_and_its_json_on_its_own(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """What a page depends on is in its key: its language (by the link, the cookie or
    the browser) and whether it is the JSON; the switch link is made from the match's
    id, so a kept page says the same whoever asked first; the cookie is the request's."""
    store_match(db_path, passed_match("m1", 3))
    web: WebServer = await start_web()
    status, told, english = await web.ask("GET", "/games/M1")  # in capitals first
    assert status == 200 and '<html lang="en">' in english.decode()
    assert '<a class="lang" href="/games/m1?lang=ru"' in english.decode()
    assert "set-cookie" not in told and "Cookie" in told["vary"]
    status, told, russian = await web.ask("GET", "/games/m1?lang=ru")
    assert status == 200 and '<html lang="ru">' in russian.decode()
    assert "Партия окончена: ничья" in russian.decode()
    assert '<a class="lang" href="/games/m1?lang=en"' in russian.decode()
    assert told["set-cookie"].startswith("lang=ru;")  # chosen now: remembered
    for headers in ({"Cookie": "lang=ru"}, {"Accept-Language": "uk"}):
        status, told, body = await web.ask("GET", "/games/m1", headers)
        assert (status, body) == (200, russian) and "set-cookie" not in told
    status, told, body = await web.ask("GET", "/games/m1?lang=en", {"Cookie": "lang=ru"})
    assert (status, body) == (200, english) and told["set-cookie"].startswith("lang=en;")
    status, told, body = await web.ask("GET", "/api/games/M1")
    assert status == 200 and told["content-type"] == "application/json"
    replay = json.loads(body)
    assert (replay["match"], replay["reason"], len(replay["deals"])) == ("m1", "most-deals", 3)
    assert (await web.ask("GET", "/api/games/m1", {"Cookie": "lang=ru"}))[2] == body


async def test_a_stopped_match_is_not_kept_its_end_is_seen(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """A match its server did not finish is listed as stopped, and may yet be ended by
    that server, thought dead, playing on (docs/scaling.md): its replay is built anew
    for each request, never kept; a finished one is kept and cannot change."""
    match = passed_match("m1", 2)
    store_match(db_path, match, deals=1, finished=False)  # running, its server unknown
    web: WebServer = await start_web()  # lists it as lost
    status, page = await web.get("/games/m1")
    assert status == 200 and b"not finished: the server was lost" in page
    assert page.count(b'<section class="deal"') == 1
    status, body = await web.get("/api/games/m1")
    assert (json.loads(body)["reason"], json.loads(body)["stopped"]) == ("server-lost", True)

    await trio.to_thread.run_sync(store_match, db_path, match)  # its server ends it after all
    status, page = await web.get("/games/m1")
    assert status == 200 and b"Match over: a draw" in page and b"not finished" not in page
    assert page.count(b'<section class="deal"') == 2
    status, body = await web.get("/api/games/m1")
    assert (json.loads(body)["reason"], json.loads(body)["stopped"]) == ("most-deals", False)


MATCHES = 2  # long matches, their first requests together (each 3, 6 builds at once)


@pytest.mark.timeout(120)
async def test_long_replays_are_first_built_off_the_event_loop(
    start_web: Callable[..., Any],
    db_path: Path,
    connect: Connector,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the first requests of long matches are built, the event loop, which plays
    every table and answers every player, builds none of them: each is read, rebuilt
    and rendered in another thread, once (each built on the loop: 90 to 140 ms a step,
    a player's ``ping`` waiting 0.12 to 0.7 s). Which thread built each replay is
    asked, not how much CPU a step of the loop took: that bound (20 ms) failed once
    under the machine's load, with nothing built on the loop."""
    for n in range(1, MATCHES + 1):
        store_match(db_path, passed_match(f"m{n}", LONGEST))
    web: WebServer = await start_web(web_requests_per_address_burst=0)
    cat = await connect.machine(web.port, "cat")
    loop_thread = threading.get_ident()  # the server runs in this process, on this loop
    built_in: list[tuple[str, int]] = []  # (match, the thread that read and built it)

    def watched(store: Any, book: Any, match_id: str) -> Any:
        built_in.append((match_id, threading.get_ident()))
        return replay_read(store, book, match_id)  # the real read; rebuilt, rendered after

    monkeypatch.setattr("deberc_net.server.web.app.replay_read", watched)
    pings = 0
    asked = [
        path
        for n in range(1, MATCHES + 1)
        for path in (f"/games/m{n}", f"/games/m{n}?lang=ru", f"/api/games/m{n}")
    ]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for path in asked:  # (built one at a time, the last waits for 11 builds:
                # on a loaded machine, past the client's usual 5 s, as happened once)
                nursery.start_soon(functools.partial(web.get, path, timeout=50))
            while len(nursery.child_tasks) > 0:  # a player is answered meanwhile
                await cat.send("ping")
                await cat.expect("ok", cmd="ping")
                pings += 1
                await trio.sleep(0.01)  # (a player's pace, within the flood limit)
    assert pings
    # each page and JSON built once (its key: the match and its form), none on the loop
    assert sorted(m for m, _ in built_in) == sorted([f"m{n}" for n in range(1, MATCHES + 1)] * 3)
    assert loop_thread not in {thread for _, thread in built_in}, built_in


MISSING = 40  # requests for matches never stored, together


@pytest.mark.timeout(120)
async def test_a_match_not_stored_is_answered_without_waiting_for_the_builds(
    start_web: Callable[..., Any], db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hostile tryout (s40) asked /games/mNNN for matches that do not exist from many
    addresses: each was 'built' (read and found missing) in the builds' one-at-a-time
    turn, and an honest viewer's first build of a real replay waited behind them up to
    546 ms. A match not stored is told by one store read, outside that turn: answered
    while a build holds it, and never built, so a real one never waits behind them."""
    for match_id in ("m1", "m2"):
        store_match(db_path, passed_match(match_id, 2))
    web: WebServer = await start_web(web_requests_per_address_burst=0)
    built: list[str] = []  # the matches the builder read, in its turn
    go_on = threading.Event()

    def held(store: Any, book: Any, match_id: str) -> Any:
        built.append(match_id)
        if match_id == "m1":  # a build that holds the turn until the test lets it go
            go_on.wait(60)
        return replay_read(store, book, match_id)

    monkeypatch.setattr("deberc_net.server.web.app.replay_read", held)
    missing = [f"/games/m{n}" for n in range(100, 100 + MISSING // 2)]
    missing += [f"/api/games/m{n}" for n in range(200, 200 + MISSING // 2)]
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(web.get, "/games/m1")
                while built != ["m1"]:  # the build has the turn, and holds it
                    await trio.sleep(0.01)
                with trio.fail_after(20):  # (each waited for the held build: forever)
                    answers = []

                    async def ask(path: str) -> None:
                        answers.append((await web.get(path))[0])

                    async with trio.open_nursery() as asking:
                        for path in missing:
                            asking.start_soon(ask, path)
                assert answers == [404] * MISSING
                go_on.set()
            status, page = await web.get("/games/m2")  # a real first build: its own turn
            assert status == 200 and page.count(b'<section class="deal"') == 2
    finally:
        go_on.set()
    assert built == ["m1", "m2"]  # no missing match took the builds' turn
