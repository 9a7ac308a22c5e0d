"""The web face over plain HTTP: what each page and JSON endpoint answers (no browser)."""

from __future__ import annotations

import json
import logging
import random
import re
import threading
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio
from starlette.routing import Route

from clients.client import Bot
from deberc_net.cli import DEFAULT_HTTP_PORT, build_parser, serve_config
from deberc_net.protocol.events import TableState
from deberc_net.protocol.lang import Lang, outcome_said, spoken_call
from deberc_net.server.lobby import Lobby
from deberc_net.server.store import open_store
from deberc_net.server.web.app import make_app
from deberc_net.server.web.views import TableSummary
from deberc_net.server.web.words import PageWords
from deberc_net.testing import rule_book
from tests.server.client import BOT_START_S, LineClient, fields, play_machine, seat_pair
from tests.server.conftest import Connector, make_config

from .conftest import WebServer

# the talk as served: a box that scrolls, a stop of Tab named for a reader (docs/web.md)
TALK_OL = '<ol id="talk" tabindex="0" aria-label="Talk">'

ROUTE_WORDS = {"n": "N", "run": "N", "match": "ID", "name": "NAME"}  # as docs/web.md

StartWeb = Callable[..., Any]


def test_the_command_line_serves_pages_on_7580_unless_told_otherwise() -> None:
    parse = build_parser().parse_args
    assert serve_config(parse(["serve"])).http_port == DEFAULT_HTTP_PORT == 7580
    assert serve_config(parse(["serve", "--http-port", "8123"])).http_port == 8123
    assert serve_config(parse(["serve", "--http-port", "off"])).http_port is None  # off


async def test_no_http_port_no_web_face(nursery: trio.Nursery, db_path: Any) -> None:
    import functools

    from deberc_net.server.app import serve
    from deberc_net.testing import rule_book

    bound: list[int] = []
    await nursery.start(
        functools.partial(serve, make_config(db_path), rules=rule_book(), http_bound=bound.append)
    )
    assert bound == []


async def test_a_waiting_table_is_listed_in_html_and_json(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 moscow to-301")
    await ann.expect("ok", cmd="sit")

    status, body = await web.get("/api/tables")
    assert status == 200
    assert json.loads(body) == {
        "tables": [
            {
                "id": 1,
                "players": ["ann", None],
                "variant": "moscow",
                "options": ["to-301"],
                "state": "waiting",
                "observers": 0,
                "score": None,
                "deal": None,
                "match": None,
                "hand_sizes": [],
                "away_s": [None, None],
                "hanging": 0,
                "hanging_after": [],
                "talon": None,
            }
        ]
    }
    status, body = await web.get("/api/tables/1")
    assert status == 200 and json.loads(body)["players"] == ["ann", None]
    status, body = await web.get("/")
    assert status == 200 and b'<a href="/table/1">1</a>' in body
    hers = '<span class="who"><a href="/players/ann">ann</a></span>'  # (her page's link)
    assert f'{hers}, <span class="who">(free)</span>' in body.decode()
    status, body = await web.get("/table/1")
    assert status == 200 and b"Table 1" in body and b"ann" in body


LINKED = re.compile(r"""(?:href|src)=["']([^"']*)["']""")


async def test_pages_fetch_their_files_by_path_whatever_host_the_request_names(
    start_web: StartWeb, connect: Connector
) -> None:
    """No URL is built from the request's Host header: a forged one cannot point a
    page's style sheet or scripts elsewhere, and behind a TLS proxy they stay https."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    forged = {"Host": "evil.example:80"}
    wanted = {"/": "/static/tables.js", "/table/1": "/static/table.js", "/nowhere": None}
    for path, script in wanted.items():
        status, body = await web.get(path, headers=forged)
        page = body.decode()
        assert status == (404 if path == "/nowhere" else 200), path
        assert "evil.example" not in page, path
        links = LINKED.findall(page)
        assert "/static/style.css" in links and (script is None or script in links), path
        for link in links:  # every link on the server, by its path (no scheme, no host)
            assert link.startswith(("/", "#")) and not link.startswith("//"), (path, link)
        for link in {x for x in links if x.startswith("/static/")}:
            status, _ = await web.get(link, headers=forged)
            assert status == 200, link


SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
CARD_TOKEN = re.compile(r"(?:10|[789JQKA])[shdc]")


def _card_html(card: str) -> str:
    """A card as the pages write it (templates/macros.html), named for a screen reader."""
    suit, name = card[-1], PageWords(Lang.EN).card_name(card)
    return (
        f'<span class="card suit-{suit}" data-card="{card}" role="img" aria-label="{name}">'
        f"{card[:-1]}{SYMBOL[suit]}</span>"
    )


def _seat_div(page: str, seat: int) -> str:
    return page.split(f'id="seat-{seat}">', 1)[1].split('<div class="seat ', 1)[0]


async def test_a_running_tables_page_shows_the_deal_as_an_observer_sees_it_without_script(
    start_web: StartWeb, connect: Connector
) -> None:
    """/table/N as served (no script runs): the turned card, the trump and who ordered
    it, the seat to act (its mark named for a screen reader), the talk, the cards of the
    trick being laid and the finished deals, exactly what an observer's state line and
    deal ends say at that moment (tryout #5)."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    watcher = await connect.machine(web.port, "watcher")
    table_id, seat_ann, seat_bob = await seat_pair(ann, bob)
    table, by_seat = str(table_id), {seat_ann: "ann", seat_bob: "bob"}
    await watcher.send(f"observe {table}")
    await watcher.expect("ok", cmd="observe")
    await watcher.expect("state")  # the table as it was when he came
    holding = trio.Event()

    async def play_until_a_card_is_down_in_deal_2(client: LineClient) -> None:
        """Order when asked, play the first card offered; hold once deal 2 has a card
        on the table (the other seat's ask is left unanswered: the table waits)."""
        deal = 0
        while True:
            tag, f = fields(await client.read_until(lambda x: x.startswith(("ask ", "event "))))
            if tag == "event" and f["kind"] == "deal":
                deal = int(f["deal"])
            elif tag == "event" and f["kind"] == "play" and deal >= 2:
                holding.set()
                return
            elif tag == "ask":
                legal = f["legal"].split(",")
                cards = [t for t in legal if CARD_TOKEN.fullmatch(t)]
                call = cards[0] if cards else "igrayu" if "igrayu" in legal else legal[0]
                await client.send(f"{call} seq={f['seq']}")

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            for client in (ann, bob):
                nursery.start_soon(play_until_a_card_is_down_in_deal_2, client)
        await holding.wait()
    await watcher.send("state")
    state = await watcher.expect("state")
    ends = [fields(x)[1] for x in watcher.lines if x.startswith("event ") and "kind=deal-end" in x]
    status, body = await web.get(f"/table/{table}")
    page = body.decode()
    assert status == 200

    assert state["deal"] == "2" and state["trick"] and state["trump"] != "-"
    status_line = page.split('<div id="status">', 1)[1].split("</div>", 1)[0]
    assert status_line == f"Deal 2 · turned {_card_html(state['turned'])}"  # open, 2 players
    trump = state["trump"]
    player = by_seat[int(state["player"])]
    shown_trump = f'<span class="suit-{trump}">{SYMBOL[trump]}</span>'
    who = f'<span class="who">{player}</span>'  # whole on a phone
    # who ordered it, as the replay says it (not 'bob plays': read as bob's turn)
    assert f'<div id="trump">Trump {shown_trump}, ordered by {who}</div>' in page
    _, russian = await web.get(f"/table/{table}?lang=ru")
    assert f'<div id="trump">Козырь {shown_trump}, играет {who}</div>' in russian.decode()
    talk = [item.split(":") for item in state["talk"].split(",")]
    said = "".join(f"<li>{by_seat[int(s)]}: {spoken_call(c)}</li>" for s, c in talk)
    assert talk and f"{TALK_OL}{said}</ol>" in page  # as spoken: 'igrayu ♠'
    leader = int(state["leader"])
    for i, card in enumerate(state["trick"].split(",")):
        assert _card_html(card) in _seat_div(page, (leader + i) % 2)
    # the fresa, face up once the game is ordered, as the observer's state says it
    fresa = state["fresa"]
    assert fresa != "-" and f'<div id="fresa">Fresa {_card_html(fresa)}</div>' in page
    ru_fresa = f'<div id="fresa">Фреза <span class="card suit-{fresa[-1]}" data-card="{fresa}"'
    assert ru_fresa in russian.decode()
    laid = re.findall(r'data-card="(\w+)"', page.split('<section class="side">')[0])
    assert sorted(laid) == sorted([*state["trick"].split(","), state["turned"], fresa])
    assert f'<div class="seat seat-{state["to_act"]} to-act"' in page
    assert page.count(" to-act") == 1
    # the mark has words for a screen reader (shown at the seat to act alone: style.css)
    mark = '<span class="mark" role="img" aria-label="{0}" title="{0}">●</span>'
    assert mark.format("to act") in _seat_div(page, int(state["to_act"]))
    assert mark.format("ходит") in russian.decode()
    rows = re.findall(
        r"<tr><td>(\d+)</td><td>([^<]+)</td><td>([\d :]+)</td><td>([\d :]+)</td></tr>", page
    )
    assert (
        rows
        == [
            (
                e["deal"],
                # (a four-sevens deal: 'redealt'; one that left points hanging notes
                # them as the sheet does: 'hanging, hanging 46', deal seed 29121868)
                outcome_said(e["outcome"], Lang.EN)
                + (f", hanging {e['hanging']}" if e["hanging"] != "0" else ""),
                e["written"].replace(",", " : "),
                e["totals"].replace(",", " : "),
            )
            for e in ends
        ]
        and len(rows) == 1
    )
    # the score says whose it is (club tryout: '338 : 188' alone named no side)
    # (each name whole on a phone: a span of its own)
    sides = f'<span class="who">{by_seat[0]}</span> : <span class="who">{by_seat[1]}</span>'
    assert f'<p id="sides">{sides}</p>' in page


async def test_unknown_things_are_404_with_a_reason(start_web: StartWeb) -> None:
    """A page says it as a sentence ('No page /nope.', a tryout read 'no page /nope.');
    the JSON error keeps its documented words (docs/web.md)."""
    web: WebServer = await start_web()
    for path, why in [
        ("/api/tables/7", "no open table 7"),
        ("/table/7", "No open table 7."),
        ("/api/games/m9", "no finished match m9"),
        ("/games/m9", "No finished match m9."),
        ("/api/games/m1x", "no finished match m1x"),
        ("/players/carl", "No finished match of carl."),
        ("/ladders/9", "No ladder run 9."),
        ("/nope", "No page /nope."),
    ]:
        status, body = await web.get(path)
        if path.startswith("/api/"):
            assert (status, json.loads(body)) == (404, {"error": why}), path
        else:
            assert (status, f"<p>{why}</p>" in body.decode()) == (404, True), path
            assert b"<html" in body.lower()
    status, body = await web.get("/api/tables/x")  # not a number: no such route
    assert (status, json.loads(body)) == (404, {"error": "no page /api/tables/x"})


async def test_a_path_number_of_any_length_is_a_404_and_logs_nothing(
    start_web: StartWeb, caplog: pytest.LogCaptureFixture
) -> None:
    """Past 4,300 digits (int()'s limit) Starlette's int convertor raised: a 500 (HTML
    pages in plain text) and hypercorn's 35-line traceback in the log, each request
    (hostile tryout). Now as any number no table or run has; leading zeros dropped."""
    web: WebServer = await start_web()
    long = "1" * 4301
    for path, why in [
        (f"/api/tables/{long}", f"no open table {long}"),
        (f"/table/{long}", f"No open table {long}"),
        (f"/api/ladders/{'9' * 5000}", f"no ladder run {'9' * 5000}"),
        (f"/ladders/{long}", f"No ladder run {long}"),
        (f"/api/tables/{'0' * 4400}7", "no open table 7"),
    ]:
        status, body = await web.get(path)
        assert (status, why.encode() in body) == (404, True), path[:20]
        if path.startswith("/api/"):
            assert json.loads(body) == {"error": why}
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_trailing_slash_is_404_never_a_redirect_built_from_the_host_header(
    start_web: StartWeb, connect: Connector
) -> None:
    """Starlette redirected '/table/1/' to 'http://<Host>/table/1': a forged Host
    steered it, and it was http behind a TLS proxy (docs/web.md)."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    forged = {"Host": "evil.example"}
    for path in ("/table/1/", "/ladders/", "/players/ann/", "/static/"):
        status, told, body = await web.ask("GET", path, forged)
        assert (status, "location" in told) == (404, False), path
        assert f"No page {path}.".encode() in body and b"<html" in body.lower(), path
    for path in ("/api/tables/", "/api/tables/1/", "/api/ladders/"):
        status, told, body = await web.ask("GET", path, forged)
        assert (status, "location" in told) == (404, False), path
        assert told["content-type"] == "application/json"
        assert json.loads(body) == {"error": f"no page {path}"}


async def test_api_lists_every_endpoint_and_each_answers(
    start_web: StartWeb, nursery: trio.Nursery, tmp_path: Path
) -> None:
    """A README tryout: '/api' was a 404, the endpoints found only in docs/web.md."""
    web: WebServer = await start_web()
    for path in ("/api", "/api/"):
        status, told, body = await web.ask("GET", path)
        assert (status, told["content-type"]) == (200, "application/json"), path
        listed = [e["path"] for e in json.loads(body)["endpoints"]]
        assert listed[0] == "/api/health" and len(listed) == len(set(listed)), listed
    for path in listed:  # each is there: an answer of its own, not 'no page'
        asked = path.replace("/N", "/1").replace("/ID", "/m1").replace("/NAME", "/ann")
        status, _, body = await web.ask("GET", asked)
        assert status in (200, 404) and b"no page" not in body, (asked, status, body)
    store = open_store(tmp_path / "routes.sqlite3")
    try:
        lobby = Lobby(make_config(tmp_path / "routes.sqlite3"), store, nursery, rule_book())
        routes = {
            re.sub(r"\{(\w+)(:digits)?\}", lambda m: ROUTE_WORDS[m.group(1)], route.path)
            for route in make_app(lobby).routes
            if isinstance(route, Route) and route.path.startswith("/api/")
        }
    finally:
        store.close()
    assert set(listed) == routes - {"/api/"}  # none left out
    docs = (Path(__file__).parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    assert all(f"`GET {path}`" in docs for path in listed), "each documented"


async def test_every_pages_api_link_leads_to_the_list_of_endpoints(start_web: StartWeb) -> None:
    """A tryout: the header's 'API' led to /api/tables, raw JSON of the open tables, where
    a visitor asking what the API is wants /api, its endpoints and what each tells."""
    web: WebServer = await start_web()
    for path in ("/", "/ladders", "/nowhere"):
        _, body = await web.get(path)
        header = body.decode().split("<header>", 1)[1].split("</header>", 1)[0]
        assert '<a href="/api">API</a>' in header, path
    status, body = await web.get("/api")
    assert status == 200 and json.loads(body)["endpoints"]


async def test_every_api_error_is_json_with_its_status(start_web: StartWeb) -> None:
    """A method no endpoint takes was plain text."""
    web: WebServer = await start_web()
    for method, path in (
        ("POST", "/api/tables"),
        ("DELETE", "/api/tables/1"),
        ("PUT", "/api/games/m1"),
    ):
        status, told, body = await web.ask(method, path)
        assert (status, told["content-type"]) == (405, "application/json"), (method, path)
        assert json.loads(body) == {"error": f"{method} is not allowed: {path} answers GET, HEAD"}
        assert told["allow"] == "GET, HEAD"
    status, told, _ = await web.ask("POST", "/table/1")  # a page's: not JSON
    assert status == 405 and told["content-type"].startswith("text/plain")


async def test_an_api_endpoint_that_fails_answers_json_500(
    start_web: StartWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    web: WebServer = await start_web()

    def broken(lobby: Any) -> list[Any]:
        raise RuntimeError("broken for the test")

    monkeypatch.setattr("deberc_net.server.web.views.open_tables", broken)
    status, told, body = await web.ask("GET", "/api/tables")
    assert (status, told["content-type"]) == (500, "application/json")
    assert json.loads(body) == {"error": "internal error"}
    status, told, body = await web.ask("GET", "/")
    assert (status, body) == (500, b"Internal Server Error")


async def test_a_match_is_replayable_only_once_over_and_replays_to_its_totals(
    start_web: StartWeb, db_path: Any
) -> None:
    web: WebServer = await start_web()
    rng = random.Random(3)
    running = trio.Event()
    checked: list[int] = []

    async def check_withheld() -> None:  # while the match runs its records stay hidden
        await running.wait()
        status, _ = await web.get("/api/games/m1")
        checked.append(status)
        answered.set()

    answered = threading.Event()

    def choose(view: Any) -> str:  # (in a worker thread) the match waits for the check
        answered.wait(10)
        call: str = rng.choice(view.legal)
        return call

    def seen(item: Any) -> None:
        if getattr(item, "kind", None) == "deal":
            running.set()

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(check_withheld)
            for name in ("ann", "bob"):
                nursery.start_soon(
                    Bot(
                        choose, name, port=web.port, seek="2 moscow to-301", games=1, on_event=seen
                    ).run
                )
    assert checked == [404]

    store = open_store(db_path)
    try:
        records = [json.loads(line) for line in store.records()]
    finally:
        store.close()
    status, body = await web.get("/api/games/m1")
    assert status == 200
    game = json.loads(body)
    assert game["deals"] == records  # the store's records, as stored
    assert game["totals"] == records[-1]["totals"] and max(game["totals"]) >= 301
    status, body = await web.get("/games/m1")
    page = body.decode()
    assert status == 200
    assert f'<strong id="final-totals">{" : ".join(map(str, records[-1]["totals"]))}' in page
    for record in records:  # each deal's replayed totals are the recorded ones
        assert f'<section class="deal" id="deal-{record["deal_no"]}">' in page
    shown = [part.split("</span>")[0] for part in page.split('<span class="deal-totals">')[1:]]
    assert shown == [" : ".join(map(str, r["totals"])) for r in records]

    winner_side = records[-1]["match_over"]["winner"]
    for seat, name in enumerate(records[-1]["players"]):
        status, body = await web.get(f"/api/players/{name}")
        assert status == 200
        player = json.loads(body)
        result = "won" if seat == winner_side else "lost"
        assert (player["won"], player["lost"], player["drawn"]) == (
            (1, 0, 0) if result == "won" else (0, 1, 0)
        )
        assert [(g["match"], g["result"], g["totals"]) for g in player["games"]] == [
            ("m1", result, records[-1]["totals"])
        ]
        status, body = await web.get(f"/players/{name}")
        assert status == 200 and b'<a href="/games/m1">m1</a>' in body
        assert b"in the last match." in body  # one: no "last 1 ... matches"
        finished = player["games"][0]["finished"]  # the store's UTC, which the page says
        assert b"<th>Finished (UTC)</th>" in body and f"<td>{finished}</td>".encode() in body
    for missing in ("carl", "no%20such"):  # no match, or not a possible name
        status, body = await web.get(f"/api/players/{missing}")
        assert status == 404 and b"no finished match of" in body


async def test_a_players_page_knows_him_however_the_url_writes_his_name(
    start_web: StartWeb, connect: Connector
) -> None:
    """The store folds full-width letters and case (docs/protocol.md §4.2): so do the
    page's won and lost (tryout: /api/players/ＢＯＢ said lost for bob's win), and it
    names him as he played, not as the URL spells him."""
    web: WebServer = await start_web()
    ann, bob, _ = await _a_private_match_of_ann_and_bob(web, connect)
    # each makes a call (a forfeit before them is neither's win: docs/web.md)
    for _ in range(2):
        seat, ask = await _asked(ann, bob)
        legal = fields(ask)[1]["legal"].split(",")
        call = "pas" if "pas" in legal else legal[0]
        await seat.send(f"{call} seq={fields(ask)[1]['seq']}")
    await ann.send("leave")  # a forfeit: bob wins
    await bob.expect("event", kind="match-end")

    for asked, name, tally in (("ＢＯＢ", "bob", (1, 0)), ("ANN", "ann", (0, 1))):
        status, body = await web.get(f"/api/players/{urllib.parse.quote(asked)}")
        assert status == 200, body
        player = json.loads(body)
        assert (player["name"], player["won"], player["lost"]) == (name, *tally)
        assert player["games"][0]["result"] == ("won" if tally[0] else "lost")
        status, body = await web.get(f"/players/{urllib.parse.quote(asked)}")
        assert (
            status == 200
            and f"Won <strong>{tally[0]}</strong>, lost <strong>{tally[1]}</strong>".encode()
            in body
        )
        assert asked.encode() not in body


async def test_a_match_over_before_its_first_call_is_linked_and_shown_though_it_has_no_deal(
    start_web: StartWeb, connect: Connector
) -> None:
    """A private match left before anybody called (tryout #8): no deal is recorded
    (docs/protocol.md §11.3), yet it is over, listed on its players' pages and linked
    there: its replay page says so instead of 404."""
    web: WebServer = await start_web()
    ann, bob, match = await _a_private_match_of_ann_and_bob(web, connect)
    await bob.send("leave")  # before the first call
    end = await ann.expect("event", kind="match-end")
    assert (end["reason"], end["name"]) == ("left", "ann")
    assert not [x for x in ann.lines if x.startswith("record ")]  # no deal to record

    for name in ("ann", "bob"):
        status, body = await web.get(f"/players/{name}")
        assert status == 200 and f'<a href="/games/{match}">{match}</a>'.encode() in body
        # why it ended in the replay's words, not the token (the tryout's 'left'),
        # naming who left (the stored seat), not 'a player'; before the first call not
        # his defeat (neither won nor lost: a tryout, s49)
        assert b"<td>bob left the table</td>" in body
    status, body = await web.get(f"/games/{match}")
    page = body.decode()
    assert status == 200, page
    # why in words, who left named, as the line above says it (it said the token, 'left')
    told = "No deal was played: the match ended (bob left the table: forfeit) before the first"
    assert told in page
    _, body = await web.get(f"/games/{match}?lang=ru")
    assert "партия кончилась (bob покидает стол: поражение) раньше первого хода" in body.decode()
    assert (
        "Match over: ann wins (bob left the table: forfeit)." in page
        and '<strong id="final-totals">0 : 0' in page
    )
    status, body = await web.get(f"/api/games/{match}")
    assert status == 200
    assert json.loads(body) == {
        "match": match,
        "players": ["ann", "bob"],
        "variant": "moscow",
        "options": [],
        "totals": [0, 0],
        "winner": "ann",
        "winners": ["ann"],
        "reason": "left",
        "stopped": False,
        "deals": [],
        "forfeit": 1,
    }
    status, body = await web.get("/games/m999")  # an id never played: still 404
    assert status == 404 and b"No finished match m999." in body
    # the id typed in capitals, as /players/ANN finds ann (a web tryout): the same match
    shouted = match.upper()
    status, body = await web.get(f"/games/{shouted}")
    assert status == 200 and "Match over: ann wins (bob left the table: forfeit)." in body.decode()
    status, body = await web.get(f"/api/games/{shouted}")
    assert status == 200 and json.loads(body)["match"] == match


async def test_a_private_table_is_not_shown_nor_watched_from_the_web(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    status, body = await web.get("/api/tables")
    assert (status, json.loads(body)) == (200, {"tables": []})
    status, body = await web.get("/")
    assert status == 200 and b"ann" not in body
    for path in (f"/api/tables/{table}", f"/table/{table}"):
        status, body = await web.get(path)
        said = f"no open table {table}" if path.startswith("/api/") else f"No open table {table}."
        assert (status, said.encode() in body) == (404, True), path


def test_house_bots_are_off_unless_the_command_line_or_make_serve_says_so() -> None:
    parse = build_parser().parse_args
    assert serve_config(parse(["serve"])).house_bots is False
    assert serve_config(parse(["serve", "--house-bots"])).house_bots is True
    makefile = (Path(__file__).parents[2] / "Makefile").read_text()
    assert "deberc-net serve --house-bots" in makefile


async def test_a_players_page_plots_his_rating_and_the_api_tells_it(start_web: StartWeb) -> None:
    web: WebServer = await start_web()
    rng = random.Random(11)

    def choose(view: Any) -> str:
        call: str = rng.choice(view.legal)
        return call

    for _ in range(2):  # two rated matches of two registered players
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                for name in ("ann", "bob"):
                    bot = Bot(choose, name, port=web.port, password=f"pw-{name}-1")
                    bot.seek, bot.games = "2 short", 1
                    nursery.start_soon(bot.run)
    status, body = await web.get("/api/players/ann")
    assert status == 200
    player = json.loads(body)
    [rating] = player["ratings"]
    assert (rating["variant"], rating["players"], rating["games"]) == ("moscow", 2, 2)
    assert rating["wins"] + rating["losses"] + rating["draws"] == 2
    history = player["rating_history"]
    assert [(p["variant"], p["players"]) for p in history] == [("moscow", 2)] * 2
    assert [p["match"] for p in history] == [g["match"] for g in reversed(player["games"])]
    assert history[-1]["rating"] == rating["rating"]
    status, body = await web.get("/players/ann")
    assert status == 200
    page = body.decode()
    assert 'id="rating-plot"' in page and page.count('<polyline class="series"') == 1
    assert 'data-name="moscow for 2 players"' in page
    # its axis says the rating as the note under it does, not in ASCII ('mu - 3 sigma')
    assert '">rating (μ − 3σ)</text>' in page and "The rating (openskill μ − 3σ)" in page


async def test_a_rated_house_bots_page_shows_its_standing_as_finger_does(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web(house_bots=True)
    ann = await connect.machine(web.port, "ann", "pw-ann-1")  # registered by this login
    await ann.send("new 2 short")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot heuristic rated")
    await ann.expect("ok", cmd="bot")
    end = await play_machine(ann, random.Random(7), timeout=BOT_START_S)
    assert fields(end)[1]["kind"] == "match-end"
    await ann.send("finger")  # her own last match: the bot's too
    match = (await ann.expect("finger"))["last"].split(",")[0]
    status, body = await web.get("/api/players/house-heuristic")
    assert status == 200
    player = json.loads(body)
    [rating] = player["ratings"]
    [game] = player["games"]  # played by a copy, told under the rating name
    assert game["match"] == match and rating["games"] == 1
    assert {"won": 1, "lost": 0, "drawn": 0}[game["result"]] == rating["wins"]
    assert (player["won"], player["lost"], player["drawn"]) == (
        rating["wins"],
        rating["losses"],
        rating["draws"],
    )
    status, body = await web.get("/players/house-heuristic")
    assert status == 200 and match.encode() in body
    # the house's names are no guest's, its copy's neither (docs/web.md)
    [copy] = [name for name in game["players"] if name != "ann"]
    copied = json.loads((await web.get(f"/api/players/{copy}"))[1])
    assert (player["guest"], copied["guest"]) == (False, False), copy
    status, body = await web.get("/players/ann")  # rated only against a house bot: said so
    assert status == 200 and b"with no house bot" not in body
    assert b"bot KIND rated" in body


async def _asked(*clients: LineClient) -> tuple[LineClient, str]:
    """The one of ``clients`` asked to act next, and his 'ask' line."""
    asked: list[tuple[LineClient, str]] = []

    async def wait(client: LineClient, scope: trio.CancelScope) -> None:
        asked.append((client, await client.read_until(lambda x: x.startswith("ask "))))
        scope.cancel()

    async with trio.open_nursery() as nursery:
        for client in clients:
            nursery.start_soon(wait, client, nursery.cancel_scope)
    return asked[0]


async def _a_private_match_of_ann_and_bob(
    web: WebServer, connect: Connector
) -> tuple[LineClient, LineClient, str]:
    """ann and bob at ann's private table, their match started: both and its id."""
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    return ann, bob, (await ann.expect("event", kind="start"))["match"]


def test_a_tables_score_names_its_sides_pairs_with_four_players() -> None:
    summary = TableSummary(
        id=3,
        players=["ann", "bob", "cat", None],
        variant="kharkov",
        options=[],
        state=TableState.PLAYING,
        observers=0,
        score=[338, 188],
        deal=4,
        match="m7",
        hand_sizes=[],
        away_s=[None] * 4,
    )
    assert summary.sides() == ["ann+cat", "bob+-"]  # partners sit opposite
    assert summary.side_players() == [["ann", "cat"], ["bob", "-"]]
    assert attrs.evolve(summary, score=None).sides() == []  # no match yet: no sides


async def test_only_a_talon_games_table_page_says_it_has_a_talon(
    start_web: StartWeb, connect: Connector
) -> None:
    """``data-talon`` tells the live page that a deal starts with its trump turned and
    a talon to count (docs/web.md): a Tertz table's, playing or waiting, and no other's
    (a Moscow page told it would show the turned suit as trump before any bidding)."""
    web: WebServer = await start_web()
    playing = {}
    for n, rules in enumerate(("2 tertz", "2 moscow")):
        a, b = [await connect.machine(web.port, f"{side}{n}") for side in ("a", "b")]
        playing[rules] = (await seat_pair(a, b, rules))[0]
    waiting = {}  # (after the pairs: a seek would sit at one of these)
    for n, rules in enumerate(("2 tertz", "2 moscow", "3 kharkov", "4 moscow to-301")):
        host = await connect.machine(web.port, f"host{n}")  # a table of its own
        await host.send(f"new {rules}")
        waiting[rules] = (await host.expect("ok", cmd="sit"))["table"]
    for state, tables in (("playing", playing), ("waiting", waiting)):
        for rules, table in tables.items():
            status, body = await web.get(f"/table/{table}")
            assert status == 200, (state, rules)
            assert (b'data-talon="1"' in body) == ("tertz" in rules), (state, rules)


async def test_a_tertz_tables_json_says_its_talon_and_a_deberts_tables_null(
    start_web: StartWeb, connect: Connector
) -> None:
    """``/api/tables/N`` had no talon count for a Tertz table (s41), which its live page
    and every seat's view show: ``talon``, the cards left to draw, the turned one
    included, as an observer's view says it (docs/web.md); null at a Deberts table and
    before the match starts."""
    web: WebServer = await start_web()
    tables = {}
    for n, rules in enumerate(("2 tertz", "2 moscow")):
        a, b = [await connect.machine(web.port, f"{side}{n}") for side in ("a", "b")]
        tables[rules] = (await seat_pair(a, b, rules))[0], a
    host = await connect.machine(web.port, "host")
    await host.send("new 2 tertz")
    waiting = (await host.expect("ok", cmd="sit"))["table"]
    table, a = tables["2 tertz"]
    # a seat's view of the first deal: asked to lead, or shown the table ('state')
    told = fields(await a.read_until(lambda line: " talon=" in line))[1]
    status, body = await web.get(f"/api/tables/{table}")
    assert status == 200 and json.loads(body)["talon"] == int(told["talon"]) == 14
    listed = json.loads((await web.get("/api/tables"))[1])["tables"]
    talons = {t["id"]: t["talon"] for t in listed}
    assert talons == {table: 14, tables["2 moscow"][0]: None, int(waiting): None}
