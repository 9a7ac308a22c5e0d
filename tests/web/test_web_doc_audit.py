"""An audit of docs/web.md against the server, promise by promise. Each promise a
visitor, a script or a server owner may rely on, and (→) the tests that pin it: a module
under tests/ and its tests, "here" for this module's. Plain HTTP on loopback (port 0)
wherever the promise is about bytes; Chromium only in the modules named.

§ opening: `make serve`/`serve` on 7580, `--http-port N`, `--http-port 0` off
    → web/test_pages.py test_the_command_line_serves_pages_on_7580_unless_told_otherwise
§ opening: `http_port` unset (off) by default in a settings file or `Config`; `0` any
free port, `http_bound` told the port
    → web/test_pages.py test_no_http_port_no_web_face; web/test_cli_serve.py (a file's 0);
    → here: test_the_numbers_of_web_md_are_the_servers_defaults
§ opening: the pages listen on `--host` unless `--http-host`
    → server/test_proxy_settings.py; web/test_proxy.py
§ opening: `http_listening` with the port, logged before `listening`
    → web/test_cli_serve.py test_serve_serves_pages_and_stops_on_sigterm (serve_process
      reads the log up to `listening` and must have found `http_listening` by then)
§ opening: every page rendered on the server, read without JavaScript
    → web/test_pages.py
      test_a_running_tables_page_shows_the_deal_as_an_observer_sees_it_without_script;
    → web/test_replay_words.py (the replay as served)
§ opening: every page names a viewport, `width=device-width`
    → here: test_every_page_names_a_viewport_and_its_icon_and_a_json_answer_neither
§ opening: on a phone (700 px) the board, rows, plots, scroll boxes, 24 px deal links,
names never broken at hyphens, header links whole, chips' contrast
    → web/test_browser_phone.py, web/test_browser_reading.py, web/test_ladders.py,
      web/test_browser_phone_shows.py (Chromium, as the document lists them)
§ opening: nothing fetched from outside; files by path, never from `Host`
    → web/test_pages.py test_pages_fetch_their_files_by_path_whatever_host_the_request_names
§ opening: no redirect; a trailing slash 404 (JSON under /api/)
    → web/test_pages.py test_a_trailing_slash_is_404_never_a_redirect_built_from_the_host_header
§ opening: the icon `/static/favicon.ico`, a 16×16 spade of 149 bytes, also at
`/favicon.ico`; a JSON answer names none
    → web/test_favicon.py (16 by 16, decoded by Chromium);
    → here: test_every_page_names_a_viewport_and_its_icon_and_a_json_answer_neither,
      test_the_icon_is_149_bytes_of_16_by_16_at_both_paths
§ opening: a link focused by Tab brought into view (focus.js on every page but a
table's); a box with no link a stop of Tab, named
    → web/test_browser_scroll_boxes.py; here: test_focus_js_is_on_every_page_but_a_tables
§ opening: a card read by its name (`queen of hearts`, «дама червей»)
    → web/test_browser_card_names.py
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.server.config import Config
from deberc_net.server.web import feed, ladders, plot, replays, serve
from deberc_net.server.web.app import PLAYER_GAMES, PLAYER_RATED
from tests.server.client import LineClient
from tests.server.conftest import Connector

from .conftest import WebServer

StartWeb = Callable[..., Any]
MB = 1024 * 1024


async def a_finished_match(web: WebServer, connect: Connector) -> tuple[LineClient, str]:
    """ann and bob at a private table, bob leaving before the first call (a forfeit):
    a finished match, listed on their pages; ann, still connected, and its id."""
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    match = (await ann.expect("event", kind="start"))["match"]
    await bob.send("leave")
    await ann.expect("event", kind="match-end")
    return ann, match


def test_the_numbers_of_web_md_are_the_servers_defaults() -> None:
    """Each number docs/web.md says of a setting's default or of the web face's own
    limits, as the code has it (a setting's effect is pinned by the modules listed in
    the docstring; this pins that the figure the document gives is the default)."""
    config = Config()
    assert config.http_port is None and config.http_host is None  # off; the game's host
    assert config.trusted_proxies == []  # none read
    assert (config.max_web_viewers, config.web_viewers_per_address) == (500, 20)
    assert (config.web_connections_per_address, config.max_web_connections) == (100, 2000)
    assert config.web_requests_per_address_burst == 60
    assert config.web_requests_per_address_per_s == 10
    assert config.web_send_timeout_ms == 30_000
    # the live socket: a message every 0.25 s a page, 60 a second in all, a closed
    # table noticed within a second; a ping every 25 s; an idle connection closed at 5 s
    assert (feed.COALESCE_S, feed.LIVE_MESSAGES_PER_S, feed.CLOSED_CHECK_S) == (0.25, 60, 1)
    assert round(50 / feed.LIVE_MESSAGES_PER_S, 2) == 0.83  # 50 pages' wait
    assert feed.LIVE_MESSAGES_PER_S * feed.COALESCE_S == 15  # "more than 15 pages"
    assert (serve.WEBSOCKET_PING_S, serve.KEEP_ALIVE_S) == (25, 5)
    # plots: 500 points a line, Elo clipped to ±800; kept: 32 MB of replays, 8 MB of plots
    assert (plot.MOST_POINTS, ladders.ELO_LIMIT) == (500, 800)
    assert (replays.KEPT_REPLAYS_BYTES, ladders.KEPT_PLOTS_BYTES) == (32 * MB, 8 * MB)
    # a player's page: his last 50 finished matches, his last 500 rated; a run: 100 a page
    assert (PLAYER_GAMES, PLAYER_RATED, ladders.GAMES_PAGE) == (50, 500, 100)


@pytest.mark.timeout(30)
async def test_every_page_names_a_viewport_and_its_icon_and_a_json_answer_neither(
    start_web: StartWeb, connect: Connector
) -> None:
    """'Every page reads on a phone too: it names a viewport (`width=device-width`)'
    and 'Every page names its icon … (a JSON page names none)': each kind of page,
    its error pages too, as served."""
    web: WebServer = await start_web()
    with trio.fail_after(20):
        _, match = await a_finished_match(web, connect)
        cat = await connect.machine(web.port, "cat")
        await cat.send("new 2")
        table = (await cat.expect("ok", cmd="sit"))["table"]
        pages = {
            "/": 200,
            f"/table/{table}": 200,
            "/players/ann": 200,
            f"/games/{match}": 200,
            "/ladders": 200,
            "/nope": 404,
            "/table/999": 404,
            "/ladders/1?page=x": 404,
        }
        for path, expected in pages.items():
            status, body = await web.get(path)
            assert status == expected, (path, status)
            head = body.decode().split("</head>", 1)[0]
            assert '<meta name="viewport" content="width=device-width' in head, path
            assert '<link rel="icon" href="/static/favicon.ico">' in head, path
        for path in ("/api", "/api/tables", f"/api/games/{match}", "/api/nope"):
            _, body = await web.get(path)
            json.loads(body)  # JSON, so no <link> and no viewport
            assert b"favicon" not in body and b"viewport" not in body, path


@pytest.mark.timeout(30)
async def test_the_icon_is_149_bytes_of_16_by_16_at_both_paths(start_web: StartWeb) -> None:
    """'`/static/favicon.ico` (a 16×16 spade, 149 bytes), served at `/favicon.ico` too'."""
    web: WebServer = await start_web()
    with trio.fail_after(20):
        static = await web.ask("GET", "/static/favicon.ico")
        root = await web.ask("GET", "/favicon.ico")
    assert static[0] == root[0] == 200
    assert static[2] == root[2] and len(root[2]) == 149
    # ICONDIR (reserved 0, type 1 = icon, one image), then its entry: width, height
    reserved, kind, count, width, height = struct.unpack("<HHHBB", root[2][:8])
    assert (reserved, kind, count, width, height) == (0, 1, 1, 16, 16)


@pytest.mark.timeout(30)
async def test_focus_js_is_on_every_page_but_a_tables(
    start_web: StartWeb, connect: Connector
) -> None:
    """'(`static/focus.js`, on every page but a table's, whose lists hold no link …)'."""
    web: WebServer = await start_web()
    with trio.fail_after(20):
        _, match = await a_finished_match(web, connect)
        cat = await connect.machine(web.port, "cat")
        await cat.send("new 2")
        table = (await cat.expect("ok", cmd="sit"))["table"]
        for path in ("/", "/players/ann", f"/games/{match}", "/ladders", "/nope"):
            _, body = await web.get(path)
            assert re.search(rb'<script src="/static/focus\.js"', body), path
        _, body = await web.get(f"/table/{table}")
        assert b"/static/focus.js" not in body and b"/static/table.js" in body
    assert (Path(__file__).parents[2] / "deberc_net/server/web/static/focus.js").is_file()
