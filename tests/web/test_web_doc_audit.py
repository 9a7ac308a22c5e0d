"""An audit of docs/web.md against the server, promise by promise. Each promise a
visitor, a script or a server owner may rely on, and (→) the tests that pin it: a module
under tests/ and its tests, "here" for this module's. Plain HTTP on loopback (port 0)
wherever the promise is about bytes; Chromium only in the modules named.

§ opening: `make serve`/`serve` on 7580, `--http-port N`, `--http-port off` off
    → web/test_pages.py test_the_command_line_serves_pages_on_7580_unless_told_otherwise
§ opening: `http_port` unset (off) by default in a settings file or `Config`; `0` any
free port, `http_bound` told the port
    → web/test_pages.py test_no_http_port_no_web_face; web/test_cli_serve.py (a file's 0);
    → here: test_the_numbers_of_web_md_are_the_servers_defaults,
      test_a_settings_file_leaves_the_pages_off_unless_it_names_a_port
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
§ opening: … nor do the served files name another address: no `@import`, web font or
`url(...)` off the server in the style sheet, no address in a script but the page's
own (the live socket's, `wss://` behind https)
    → here: test_the_served_files_fetch_nothing_from_outside
§ opening: no redirect; a trailing slash 404 (JSON under /api/)
    → web/test_pages.py test_a_trailing_slash_is_404_never_a_redirect_built_from_the_host_header
§ opening: the icon `/static/favicon.ico`, a 16×16 spade of 149 bytes, also at
`/favicon.ico`; a JSON answer names none
    → web/test_favicon.py (16 by 16, decoded by Chromium);
    → here: test_every_page_names_a_viewport_and_its_icon_and_a_json_answer_neither,
      test_the_icon_is_149_bytes_of_16_by_16_at_both_paths
§ opening: `/favicon.ico` from memory, the static file's `etag` and `last-modified`
    → web/test_favicon.py test_the_icon_is_answered_from_memory_with_no_trip_to_a_thread
§ opening: a link focused by Tab brought into view (focus.js on every page but a
table's); a box with no link a stop of Tab, named
    → web/test_browser_scroll_boxes.py; here: test_focus_js_is_on_every_page_but_a_tables
§ opening: a card read by its name (`queen of hearts`, «дама червей»)
    → web/test_browser_card_names.py

§ every section: the files it names (code, tests, benches, other documents) and the
tests it names by name are there
    → here: test_every_file_and_test_the_document_names_is_there

§ Pages `/`: the open tables, no private table nor ladder board (their pages, JSON and
socket as for no table); refreshed from `/api/tables`
    → web/test_pages.py test_a_waiting_table_is_listed_in_html_and_json,
      test_a_private_table_is_not_shown_nor_watched_from_the_web;
    → web/test_live_socket.py test_a_private_table_is_not_watched_live,
      test_a_ladder_board_is_not_shown_nor_watched_from_the_web
§ Pages `/table/N`: seats clockwise, backs with their count read, the trick, the turned
card, trump and its orderer, the mark to act, Talon N, the talk (clock's calls marked,
shown cards), the score by sides, a line per deal; as served without script
    → web/test_browser_seat_order.py, test_browser_reading.py, test_browser_to_act.py,
      test_browser_tertz.py, test_browser_clock_marks.py, test_talk_shown.py,
      test_pages.py test_a_running_tables_page_shows_the_deal_as_an_observer_sees_it_without_script,
      test_only_a_talon_games_table_page_says_it_has_a_talon,
      test_a_tables_score_names_its_sides_pairs_with_four_players
§ Pages `/table/N`: the end in words, the replay's link; no longer live and why; statuses;
no reconnecting; a page left closes its socket
    → web/test_browser_ends.py, test_browser_page_live.py, test_browser_left_page.py
§ Pages `/players/NAME`: ratings, plot of the last 500 rated, last 50 matches newest
first, results and why in words, the tally; a house bot's copies
    → web/test_pages.py test_a_players_page_plots_his_rating_and_the_api_tells_it,
      test_a_rated_house_bots_page_shows_its_standing_as_finger_does,
      test_a_players_page_knows_him_however_the_url_writes_his_name;
    → web/test_player_page_cost.py, test_player_page_game.py, test_forfeit_seat.py,
      test_stopped_match.py, test_end_words.py;
    → here: test_the_numbers_of_web_md_are_the_servers_defaults (50, 500)
§ Pages `/top`: the standings of a game as `top` ranks and pages them (the club's game
without one; `?variant=`, `?players=`, `?page=`; a bad one 400 in words), each name a
link to his page; linked from `/` (the header); a player's page says each rating's place
    → web/test_standings.py (every test); web/test_browser_phone.py (at 390 pixels);
    → here: test_each_json_answer_has_the_fields_web_md_names (`/api/top`)
§ Pages `/ladders`, `/ladders/N`: ratings, runs, the verdict in words, pairs, margins,
plot, SPRT line, games in words, 100 a page, `?page=N` refused 400 with its range
    → web/test_ladders.py (every test), web/test_ladder_pages.py (paging, the landmark,
      refusals, the plot kept)
§ Pages `/games/ID`: `M12` is m12, players by pairs, why in the live page's words,
konets, forfeits, not finished, deal by deal (hands sorted, talk, clock marks, shows,
trick numbers, tricks as `history`, Tertz break, swap, draws), a match over before its
first call
    → web/test_pages.py
      test_a_match_over_before_its_first_call_is_linked_and_shown_though_it_has_no_deal;
    → web/test_forfeit_seat.py, test_replay_clock.py, test_replay_words.py,
      test_replay_tertz_swap.py, test_replay.py, test_konets_told.py, test_end_words.py,
      test_stopped_match.py, test_browser_phone.py, test_browser_reading.py (`Deals`)
§ Pages: a replay only once over (404 while running), folded from the rebuilt deal's
events, totals from `totals_before`
    → web/test_pages.py test_a_match_is_replayable_only_once_over_and_replays_to_its_totals;
    → web/test_replay.py test_the_replay_folded_from_the_events_says_what_the_record_says;
    → web/test_replay_read.py
§ Pages: built in a thread at its first request, kept (32 MB, per language and JSON),
one at a time; a `not finished` one built each time
    → web/test_replay_kept.py (every test); here: the 32 MB in
      test_the_numbers_of_web_md_are_the_servers_defaults

§ Languages: the words; which language (`?lang=`, the cookie, `Accept-Language` and its
weights); `Vary`; the switch (by the stored name; `//` one slash); the live page's
`data-words`; a player's and the ladders' pages; JSON untranslated; plain-text errors
    → web/test_page_languages.py (every test), web/test_pages_russian.py,
      web/test_browser_russian.py
§ Languages, the live page: a Russian `/table/N` hands its script `data-words` and the
Russian `data-ends`; "An English page carries neither" was a slip, corrected: an
English page has no `data-words`, but its `data-ends` are the English ends, and a table
with its own words for calls (Tertz's `mariage`) hands them in `data-own`
    → here: test_a_table_pages_script_is_handed_its_words_as_the_document_says;
    → web/test_browser_russian.py (the Russian said live), web/test_page_languages.py
      test_the_live_scripts_english_is_the_catalogues
§ Languages, the cookie: `Path=/`, `SameSite=Lax` → web/test_page_languages.py;
`HttpOnly`, kept a year, nothing else in it → here:
      test_the_language_cookie_is_http_only_kept_a_year_and_holds_the_choice_alone

§ Plots: SVG by the server, ticks, x from 1, a single point over its tick, no script nor
file fetched
    → web/test_plot.py (every test)
§ Plots: at most 500 points a line, evenly apart, first and last among them, each its x
    → here: test_a_long_line_is_drawn_through_500_points_evenly_apart_first_and_last_on_the_edges
§ Plots: a player's page reads his last 500 rated → web/test_player_page_cost.py
§ Plots: `/ladders/N`'s Elo per game, clipped ±800, SPRT rules, all games whatever page,
made once and kept (8 MB), no plot for a run not finished
    → web/test_ladder_pages.py; web/test_ladders.py;
    → here: the figures in test_the_numbers_of_web_md_are_the_servers_defaults

§ The live socket: sends nothing (1008; 1009 past 1 KiB; frames' allowance)
    → web/test_live_socket.py test_a_socket_that_sends_is_closed_and_a_big_message_never_held,
      test_a_socket_whose_message_passes_the_limit_is_cut_off_not_read_on;
    → web/test_live_socket_frames.py
§ The live socket: exactly an observer's lines, the sheet after `state`, no `record`s, not
announced; the feed (each line once, pages come and go, another worker's table)
    → web/test_live_socket.py
      test_the_page_gets_exactly_the_lines_of_an_observers_connection_but_records,
      test_pages_come_and_go_and_each_gets_an_observers_lines;
    → store/test_workers_feed.py, store/test_workers_page.py
§ The live socket: a match over, its rematch on offer: `{"rematch_offer":S}`, then its
`info rematch=…` line or `{"rematch_offer":null}`, the socket closing with the offer; none
without an offer; another worker's table the same, its worker's loss as an offer not taken
    → web/test_live_socket_rematch.py; store/test_workers_page_rematch.py
§ The live socket: one message per 0.25 s a page, 60 a second in all; closes within a
second of the table; slow reader dropped; 30 s send timeout
    → web/test_live_socket.py; web/test_browser_page_live.py; web/test_web_non_reader.py;
    → here: the figures in test_the_numbers_of_web_md_are_the_servers_defaults
§ The live socket: unknown table or past `max_web_viewers` / `web_viewers_per_address`:
403; past the requests' allowance: 429
    → web/test_live_socket.py test_live_sockets_are_capped_and_unknown_tables_refused,
      test_one_address_cannot_take_every_live_socket; web/test_request_limit.py;
    → here (the status, 403, of each): test_a_refused_live_socket_is_told_403
§ The live socket: the hand sizes and `to_act` in JSON after the last CRLF, never a line
    → web/test_live_socket.py test_the_page_works_out_the_hand_sizes_the_table_holds;
    → store/test_workers_page.py; web/test_browser_to_act.py

§ JSON: `GET /api` (or `/api/`), `"docs": "docs/web.md"`, each path as written
    → web/test_pages.py test_api_lists_every_endpoint_and_each_answers,
      test_every_pages_api_link_leads_to_the_list_of_endpoints;
    → here: test_each_json_answer_has_the_fields_web_md_names (`docs`, `/api/`)
§ JSON: `nosniff` on every answer → web/test_nosniff.py
§ JSON: errors `{"error"}` with their statuses (404 any length, 405 with `Allow`, 429, 500,
400); the pages' errors HTML or plain text
    → web/test_pages.py test_unknown_things_are_404_with_a_reason,
      test_a_path_number_of_any_length_is_a_404_and_logs_nothing,
      test_every_api_error_is_json_with_its_status,
      test_an_api_endpoint_that_fails_answers_json_500;
    → web/test_allow_order.py (`Allow: GET, HEAD` in that order on every route);
    → web/test_request_limit.py; web/test_ladder_pages.py; web/test_pages_russian.py
§ JSON: each answer's fields (TABLE, `/api/games/ID`, `/api/players/NAME` and GAME,
`/api/health`, `/api/ladders`, `/api/ladders/N`): no fewer, no more
    → here: test_each_json_answer_has_the_fields_web_md_names (RATING's and POINT's by
      name in web/test_pages.py test_a_players_page_plots_his_rating_and_the_api_tells_it)
§ JSON: the TABLE example; `/api/tables/N` one TABLE → web/test_pages.py
test_a_waiting_table_is_listed_in_html_and_json; here (`/api/tables/N`)
§ JSON: `away_s`, `(away)`, `Waiting for bob to come back` → web/test_away_seat.py
§ JSON: `hand_sizes` of another worker's table → store/test_workers.py
§ JSON: `/api/games/ID`: reason, forfeit, `deals` `[]` before a first call, stopped
matches, none stored → 404; records with `"auto": true`
    → web/test_pages.py; web/test_forfeit_seat.py; web/test_stopped_match.py;
      web/test_replay_clock.py
§ JSON: `/api/players/NAME`: results, `claimed`, 404 with no finished match, the name
folded, `name` as stored; both ratings lists empty for one never rated
    → web/test_pages.py test_a_players_page_knows_him_however_the_url_writes_his_name;
    → web/test_konets_told.py; here: test_each_json_answer_has_the_fields_web_md_names
§ JSON: `/api/ladders`, `stopped`, `/api/ladders/N` paged → web/test_ladders.py
test_a_failed_or_cancelled_run_says_so_not_that_it_has_not_finished; web/test_ladder_pages.py
§ JSON: `winners` in seat order, `winner` joined by `, ` and by `,`
    → web/test_winners.py

§ Health: `serving` 200, `draining`/`stopping` 503, `players`, `playing`, other workers
    → web/test_health.py; server/test_drain.py; store/test_workers_drain.py

§ Requests per address: 60 at once then 10 a second, an IPv6 /64 one address, 429 with
`Retry-After` (JSON under /api), the live socket too, before routing; a dozen table
pages load
    → web/test_request_limit.py (every test); web/test_proxy.py
§ Requests per address: a table page is 5 requests (its style sheet, icon and script)
    → here: test_a_table_page_is_five_requests_with_its_style_icon_script_and_socket
§ Requests per address: 100 connections an address (429), 2000 in all (503); closed 5 s
after the last answer, at once after `Connection: close` or the client's close
    → web/test_connection_limit.py; web/test_connections_end.py

§ Behind a proxy: HTTP/1 only → web/test_http1_only.py
§ Behind a proxy: `http_host`; `trusted_proxies`, `X-Forwarded-For` read from the right,
others' ignored, the live socket's per-address count; a ping every 25 s
    → web/test_proxy.py (every test); server/test_proxy_settings.py;
      web/test_live_socket.py test_a_quiet_tables_socket_is_pinged_so_no_proxy_takes_it_for_dead
§ Behind a proxy: the live socket's log names the forwarded client, port 0
    → web/test_proxy.py test_the_middleware_rewrites_only_a_trusted_proxys_requests (the
      scope's client, which live.py logs as `peer`)
§ Behind a proxy: `Forwarded` (RFC 7239) is not read
    → here: test_a_forwarded_header_is_not_read_only_x_forwarded_for
§ Behind a proxy: the TOML and nginx examples: configuration for other programs (nginx,
Caddy, haproxy), not run here; the TOML's keys are Config's (server/test_proxy_settings.py)

§ Known limits: statements of what is not done (the clock not shown on the table page,
no LLR plot, a kept plot blind to hand edits); the 50 viewers' figure is the bench's,
below; the waits for a plot in the making → web/test_ladder_pages.py
test_requests_waiting_for_a_plot_being_made_hold_no_thread; a waiting request whose
client reset or closed whole, or half-closed → web/test_pace_gone_clients.py

§ Does watching slow the game?: measurements of bench/web_viewers.py on given machines
and days, not promises a test can pin; the bench itself is run by hand (80 s)
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import struct
import xml.etree.ElementTree as ET
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.cli import build_parser, serve_config
from deberc_net.ladder.store import StoredGame, open_ladder_store
from deberc_net.server.addresses import networks
from deberc_net.server.config import Config
from deberc_net.server.web import feed, ladders, plot, replays, serve
from deberc_net.server.web.app import PLAYER_GAMES, PLAYER_RATED
from deberc_net.server.web.ends import END_WORDS
from deberc_net.server.web.forwarded import forwarded_client
from deberc_net.server.web.plot import MARGIN_LEFT, MARGIN_RIGHT, Series, line_chart
from tests.server.client import LineClient
from tests.server.conftest import Connector

from .conftest import WebServer

StartWeb = Callable[..., Any]
MB = 1024 * 1024

# the fields of each JSON answer as docs/web.md's "JSON" names them
TABLE_FIELDS = {"id", "players", "variant", "options", "state", "observers", "score", "deal"}
TABLE_FIELDS |= {"match", "hand_sizes", "away_s", "hanging", "hanging_after", "talon"}
GAME_FIELDS = {"match", "players", "variant", "options", "totals", "winners", "winner"}
GAME_FIELDS |= {"reason", "stopped", "deals", "forfeit"}
PLAYER_FIELDS = {"name", "won", "lost", "drawn", "stopped", "games", "ratings", "rating_history"}
PLAYER_FIELDS |= {"ranks"}
TOP_FIELDS = {"variant", "players", "total", "page", "pages", "ratings", "games"}
PLAYER_FIELDS |= {"aborted", "guest"}
PLAYER_GAME_FIELDS = {"match", "table", "players", "variant", "winners", "winner", "reason"}
PLAYER_GAME_FIELDS |= {"totals", "finished", "result", "forfeit", "claimed", "options"}
LEADER_FIELDS = {"variant", "players", "bot", "rating", "mu", "sigma", "games", "updated"}
RUN_FIELDS = {"id", "started", "summary", "games", "stopped"}
LADDER_GAME_FIELDS = {"board", "seating", "match_id", "written", "reason", "forfeit"}


def run_ladder(db: Path) -> None:
    """A finished ladder run of two games of heur v rand, with its ratings, in ``db``."""
    games = [
        StoredGame(0, ["heur", "rand"], "m901", [162, 0], "score", None),
        StoredGame(0, ["rand", "heur"], "m902", [0, 162], "score", None),
    ]
    store = open_ladder_store(db)
    try:
        run = store.start_run({})
        store.add_games(run, games)
        rated = [{"bot": bot, "mu": 25.0, "sigma": 8.0, "rating": 1.0} for bot in ("heur", "rand")]
        store.finish_run(run, {"bots": ["heur", "rand"], "games": 2}, rated, {"heur": 2, "rand": 2})
    finally:
        store.close()


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


def test_a_settings_file_leaves_the_pages_off_unless_it_names_a_port(tmp_path: Path) -> None:
    """'In a settings file … `http_port` is unset (off) by default; there `0` means any
    free port' (where the command line refuses 0, and the command line's default 7580
    is not a file's); 'off' is none in both."""
    parse = build_parser().parse_args
    bare, free, fixed = tmp_path / "bare.toml", tmp_path / "free.toml", tmp_path / "fixed.toml"
    bare.write_text("[server]\nport = 7611\n")
    free.write_text("[server]\nhttp_port = 0\n")
    fixed.write_text("[server]\nhttp_port = 8123\n")
    assert serve_config(parse(["serve", "--config", str(bare)])).http_port is None
    assert serve_config(parse(["serve", "--config", str(free)])).http_port == 0
    assert serve_config(parse(["serve", "--config", str(fixed)])).http_port == 8123
    told = ["serve", "--config", str(fixed), "--http-port"]
    assert serve_config(parse([*told, "off"])).http_port is None  # the flag's off
    assert serve_config(parse([*told, "8124"])).http_port == 8124  # the flag over the file


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
            "/top": 200,
            "/top?players=5": 400,
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
        for path in ("/api", "/api/tables", f"/api/games/{match}", "/api/top", "/api/nope"):
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
        for path in ("/", "/players/ann", f"/games/{match}", "/ladders", "/top", "/nope"):
            _, body = await web.get(path)
            assert re.search(rb'<script src="/static/focus\.js"', body), path
        _, body = await web.get(f"/table/{table}")
        assert b"/static/focus.js" not in body and b"/static/table.js" in body
    assert (Path(__file__).parents[2] / "deberc_net/server/web/static/focus.js").is_file()


@pytest.mark.timeout(30)
async def test_each_json_answer_has_the_fields_web_md_names(
    start_web: StartWeb, connect: Connector, db_path: Path
) -> None:
    """§ JSON: each endpoint's object has the fields the document names, no fewer and no
    more (a script reads them by name)."""
    run_ladder(db_path)
    web: WebServer = await start_web()
    with trio.fail_after(20):
        ann = await connect.machine(web.port, "ann", "pw-ann-1")  # registered: rated
        bob = await connect.machine(web.port, "bob", "pw-bob-1")
        await ann.send("new 2 private")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await ann.send("invite bob")
        await ann.expect("ok", cmd="invite")
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")
        match = (await ann.expect("event", kind="start"))["match"]
        await bob.send("leave")
        await ann.expect("event", kind="match-end")
        await ann.send("new 2 moscow to-301")
        open_table = (await ann.expect("ok", cmd="sit"))["table"]

        async def answer(path: str) -> Any:
            status, body = await web.get(path)
            assert status == 200, (path, status, body)
            return json.loads(body)

        listed = await answer("/api")
        assert set(listed) == {"endpoints", "docs"} and listed["docs"] == "docs/web.md"
        assert all(set(e) == {"path", "what"} for e in listed["endpoints"])
        assert await answer("/api/") == listed
        [summary] = (await answer("/api/tables"))["tables"]
        assert set(summary) == TABLE_FIELDS
        assert await answer(f"/api/tables/{open_table}") == summary
        assert set(await answer(f"/api/games/{match}")) == GAME_FIELDS
        player = await answer("/api/players/ann")
        assert set(player) == PLAYER_FIELDS
        assert set(player["games"][0]) == PLAYER_GAME_FIELDS
        # a match over before its first call rates nobody: "both empty for a player
        # never rated" (RATING's and POINT's fields: test_pages.py, by name)
        assert player["ratings"] == player["rating_history"] == player["ranks"] == []
        assert set(await answer("/api/top")) == TOP_FIELDS  # (its rows': test_standings.py)
        assert set(await answer("/api/health")) == {"status", "players", "playing"}
        ladder = await answer("/api/ladders")
        assert set(ladder) == {"leaderboard", "runs"}
        assert all(set(run) == RUN_FIELDS for run in ladder["runs"])
        assert all(run["games"] == [] for run in ladder["runs"])
        assert all(set(bot) == LEADER_FIELDS for bot in ladder["leaderboard"])
        one = await answer("/api/ladders/1")
        assert set(one) == RUN_FIELDS | {"page", "pages", "game_count"}
        assert one["games"] and all(set(game) == LADDER_GAME_FIELDS for game in one["games"])


@pytest.mark.timeout(30)
async def test_the_language_cookie_is_http_only_kept_a_year_and_holds_the_choice_alone(
    start_web: StartWeb,
) -> None:
    """§ Languages, the live page: a Russian `/table/N` hands its script `data-words` and the
    Russian `data-ends`; "An English page carries neither" was a slip, corrected: an
    English page has no `data-words`, but its `data-ends` are the English ends, and a table
    with its own words for calls (Tertz's `mariage`) hands them in `data-own`
        → here: test_a_table_pages_script_is_handed_its_words_as_the_document_says;
        → web/test_browser_russian.py (the Russian said live), web/test_page_languages.py
          test_the_live_scripts_english_is_the_catalogues
    § Languages, the cookie: '`lang=ru` (or `en`), `Path=/`, `SameSite=Lax`,
        `HttpOnly`, kept a year. It holds the choice and nothing else'."""
    web: WebServer = await start_web()
    with trio.fail_after(20):
        for lang in ("ru", "en"):
            _, told, _ = await web.ask("GET", f"/ladders?lang={lang}")
            parts = [part.strip() for part in told["set-cookie"].split(";")]
            assert parts[0] == f"lang={lang}"
            attributes = {part.split("=")[0].lower(): part for part in parts[1:]}
            assert "httponly" in attributes and attributes["path"] == "Path=/"
            assert attributes["samesite"].lower() == "samesite=lax"
            days = int(attributes["max-age"].split("=")[1]) / 86400
            assert 365 <= days <= 366, days  # a year
            assert set(attributes) <= {"httponly", "path", "samesite", "max-age", "expires"}


@pytest.mark.timeout(30)
async def test_a_table_page_is_five_requests_with_its_style_icon_script_and_socket(
    start_web: StartWeb, connect: Connector
) -> None:
    """§ Requests per address: 'A table page with its style sheet, icon, script and
    live socket is 5 requests': the page names those three files and no other."""
    web: WebServer = await start_web()
    with trio.fail_after(20):
        ann = await connect.machine(web.port, "ann")
        await ann.send("new 2")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        _, body = await web.get(f"/table/{table}")
    fetched = re.findall(r'<(?:link|script)\b[^>]*\b(?:href|src)="([^"]+)"', body.decode())
    assert sorted(fetched) == ["/static/favicon.ico", "/static/style.css", "/static/table.js"]


def test_a_long_line_is_drawn_through_500_points_evenly_apart_first_and_last_on_the_edges() -> None:
    """§ Plots: 'A line is drawn through at most 500 of its points (`MOST_POINTS`),
    evenly apart, the first and the last among them, each at its own x' and 'x counts
    the points from 1, the first and last on the plot's edges'; a dot per point drawn."""
    values = [float(n % 97) for n in range(20_000)]  # a long ladder run's Elo
    svg = line_chart(
        [Series("heur v rand", values)], x_label="games", y_label="Elo", title="t", markers=True
    )
    root = ET.fromstring(svg)
    [line] = root.findall("{http://www.w3.org/2000/svg}polyline")
    points = [tuple(map(float, p.split(","))) for p in line.get("points", "").split()]
    dots = root.findall("{http://www.w3.org/2000/svg}circle")
    assert len(points) == len(dots) == plot.MOST_POINTS
    xs = [x for x, _ in points]
    assert (xs[0], xs[-1]) == (MARGIN_LEFT, 640 - MARGIN_RIGHT)  # the first and the last
    gaps = [b - a for a, b in itertools.pairwise(xs)]
    assert min(gaps) > 0 and max(gaps) - min(gaps) < 0.25  # each its own x, evenly apart
    # and a line of 500 or fewer is drawn whole
    short = line_chart([Series("s", values[:500])], x_label="g", y_label="E", title="t")
    [whole] = ET.fromstring(short).findall("{http://www.w3.org/2000/svg}polyline")
    assert len(whole.get("points", "").split()) == 500


def page_data(page: str) -> dict[str, Any]:
    """The table page's board's `data-*` attributes that hold JSON, read."""
    board = re.search(r'<div id="board"[^>]*>', page, re.S)
    assert board is not None
    found = dict(re.findall(r'data-(words|ends|own)="([^"]*)"', board.group(0)))
    return {name: json.loads(unescape(text)) for name, text in found.items()}


@pytest.mark.timeout(30)
async def test_a_table_pages_script_is_handed_its_words_as_the_document_says(
    start_web: StartWeb, connect: Connector
) -> None:
    """§ Languages, the live page: the Russian page's `data-words` and Russian
    `data-ends`; the English page's English `data-ends` and no `data-words`; a Tertz
    table's own word for its bella, `mariage`, in `data-own` on an English page."""
    web: WebServer = await start_web()
    with trio.fail_after(20):
        ann = await connect.machine(web.port, "ann")
        await ann.send("new 2 moscow")
        deberts = (await ann.expect("ok", cmd="sit"))["table"]
        bob = await connect.machine(web.port, "bob")
        await bob.send("new 2 tertz")
        tertz = (await bob.expect("ok", cmd="sit"))["table"]
        said = {}
        for table in (deberts, tertz):
            for lang in ("en", "ru"):
                _, body = await web.get(f"/table/{table}?lang={lang}")
                said[table, lang] = page_data(body.decode())
    english, russian = said[deberts, "en"], said[deberts, "ru"]
    assert set(english) == {"ends"} and english["ends"]["why"] == END_WORDS
    assert set(russian) == {"words", "ends"}
    assert russian["ends"]["why"] != END_WORDS and "anon" in russian["ends"]
    assert set(said[tertz, "en"]) == {"ends", "own"}
    assert "mariage" in json.dumps(said[tertz, "en"]["own"])
    assert set(said[tertz, "ru"]) == {"words", "ends"}


@pytest.mark.timeout(30)
async def test_the_served_files_fetch_nothing_from_outside(start_web: StartWeb) -> None:
    """'Nothing is fetched from outside the server (no CDN, no web fonts)': the pages'
    own links are test_pages.py's; here the files they load, as served."""
    web: WebServer = await start_web()
    names = ("style.css", "table.js", "tables.js", "focus.js")
    with trio.fail_after(20):
        files = {name: (await web.get(f"/static/{name}"))[1].decode() for name in names}
    for name, text in files.items():
        code = re.sub(r"^\s*//.*$", "", text, flags=re.M)  # a comment fetches nothing
        assert not re.search(r"(?:https?|wss?)://\w|@import|@font-face|(?<![:\w])//\w", code), name
        for url in re.findall(r"url\(([^)]*)\)", code):
            assert url.strip("'\"").startswith(("/", "data:", "#")), (name, url)
    # the live socket goes to the page's own host, over wss:// behind https
    assert 'location.protocol === "https:" ? "wss://" : "ws://"' in files["table.js"]
    assert "location.host" in files["table.js"]


def test_a_forwarded_header_is_not_read_only_x_forwarded_for() -> None:
    """§ Behind a proxy: '`Forwarded` (RFC 7239) is not read: none of these proxies
    sends it unless told to, and nginx passes a client's own on untouched'."""
    proxies = networks(["127.0.0.1"])
    told = [(b"host", b"example.org"), (b"forwarded", b"for=203.0.113.9")]
    assert forwarded_client("127.0.0.1", told, proxies) == "127.0.0.1"  # the proxy's
    both = [*told, (b"x-forwarded-for", b"203.0.113.5")]
    assert forwarded_client("127.0.0.1", both, proxies) == "203.0.113.5"


async def handshake(web: WebServer, table: str, source: str) -> tuple[int, trio.SocketStream]:
    """A live socket's opening request from ``source``, as a browser sends it: the
    answer's status, and the connection, held open (a viewer while it is)."""
    stream = await trio.open_tcp_stream("127.0.0.1", web.http_port, local_address=source)
    key = base64.b64encode(os.urandom(16)).decode()
    await stream.send_all(
        f"GET /live/table/{table} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer and (data := await stream.receive_some(65536)):
        answer += data
    return int(answer.split(b" ", 2)[1]), stream


@pytest.mark.timeout(30)
async def test_a_refused_live_socket_is_told_403(start_web: StartWeb, connect: Connector) -> None:
    """§ The live socket: 'An unknown table, or more than `max_web_viewers` … live
    sockets open at once, or more than `web_viewers_per_address` … from one address:
    the handshake is refused (HTTP 403)'."""
    web: WebServer = await start_web(max_web_viewers=2, web_viewers_per_address=1)
    with trio.fail_after(20):
        ann = await connect.machine(web.port, "ann")
        await ann.send("new 2")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        held: list[trio.SocketStream] = []
        for asked, source, status in [
            ("999", "127.0.0.1", 403),  # no such table
            (table, "127.0.0.1", 101),
            (table, "127.0.0.1", 403),  # a second from this address
            (table, "127.0.0.2", 101),  # another address: the cap of all (2) not reached
            (table, "127.0.0.3", 403),  # past the cap of all
        ]:
            told, stream = await handshake(web, asked, source)
            assert told == status, (source, asked, told)
            held.append(stream)
    for stream in held:
        await stream.aclose()


ROOT = Path(__file__).parents[2]
# where a path the document gives short is read from: as written, or under the package
NAMED_UNDER = ("", "deberc_net/", "deberc_net/server/", "deberc_net/server/web/")


def test_every_file_and_test_the_document_names_is_there() -> None:
    """A reader follows docs/web.md's pointers (`deberc_net/server/web/ends.py`,
    `server/web/forwarded.py`, `tests/web/test_favicon.py`, a test by its name): each
    leads somewhere."""
    doc = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    named = set(
        re.findall(
            r"(?:deberc_net|server|tests|bench|static|templates|docs|protocol|ladder)/"
            r"[\w./]+\.(?:py|md|html|js|css|ico)",
            doc,
        )
    )
    assert len(named) > 50  # (the pattern finds them)
    missing = [f for f in named if not any((ROOT / (u + f)).is_file() for u in NAMED_UNDER)]
    assert missing == []
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    by_name = {t for t in re.findall(r"`(test_\w+)`", doc)}
    assert by_name and [t for t in by_name if f"def {t}(" not in tests] == []
