"""The web app's routes: pages rendered on the server, their JSON twins, a live socket.

Every page works without JavaScript; scripts only keep a page live (docs/web.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import attrs
import trio
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket

from deberc_net.ladder import report
from deberc_net.plugins.manager import said_counts
from deberc_net.protocol.ends import said_konets
from deberc_net.protocol.events import TableState
from deberc_net.protocol.lang import Lang, counts_ru, table_words
from deberc_net.protocol.messages import game_for

from ..accounts import valid_name
from ..cluster.looks import table_looked_up
from ..house_games import house_bot_games, house_rating_name, is_house_rating_name
from ..lobby import Lobby
from ..store.base import name_key
from . import ladders, standings, views
from .choice import COOKIE, COOKIE_MAX_AGE_S, page_lang, switch_href
from .ends import ends_for_script
from .health import health_of
from .live import Viewers, watch_table
from .paging import NoSuchPage, asked_page
from .replay import in_hand_order
from .replays import (
    KEPT_REPLAYS_BYTES,
    Built,
    KeptReplays,
    ReplayKey,
    match_stored,
    replay_json,
    replay_read,
    served_replay,
)
from .words import PageWords, W, card_names, said, table_script_words, tables_script_words

HERE = Path(__file__).parent
T = TypeVar("T")
# the ids the server gives (Table._start), 'M12' too: read as m12, as a player's page
# is found by his name in any case
MATCH_ID = re.compile(r"[mM][0-9]{1,12}")
VARY = "Accept-Language, Cookie"  # what a page's language comes from (web/choice.py)
PLAYER_GAMES = 50  # the newest finished matches a player's page lists
PLAYER_RATED = 500  # the newest rated matches his page plots (docs/web.md)
# the web face's store reads in threads at once, server-wide (a closed table's look-up,
# a player's page, standings, ladders); the rest wait on the event loop, holding no
# thread: in trio's threads (40) a flood of closed tables' numbers from many addresses
# held them all, and a login's store read waited behind it (docs/security.md §8)
WEB_STORE_READS = 2
# what GET /api lists (docs/web.md, "JSON"): every endpoint under /api/, in its words
API_ENDPOINTS = (
    ("/api/health", "whether the server takes new games: serving, draining, stopping"),
    ("/api/tables", "the open tables"),
    ("/api/tables/N", "one open table"),
    ("/api/games/ID", "a finished match, its deals' records"),
    ("/api/players/NAME", "a player's finished matches"),
    ("/api/top", "the standings of a game (?variant=V&players=N&page=N), as 'top' ranks them"),
    ("/api/ladders", "the ladder's leaderboard and its runs"),
    ("/api/ladders/N", "one ladder run, a page of its games (?page=N)"),
)


class PathNumber(Convertor[str]):
    """A table's or a ladder run's number in a path ('{n:digits}'): its ASCII digits,
    as a number is told back (no leading zeros). Kept as text: Starlette's int convertor
    ran int() on them, which raises past 4,300 digits (Python's limit), and each such
    request was a 500 and a traceback in the log; ``path_number`` reads it."""

    regex = "[0-9]+"

    def convert(self, value: str) -> str:
        return value.lstrip("0") or "0"

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("digits", PathNumber())


def path_number(digits: str) -> int | None:
    """The number a path's ``digits`` write, or None past any id the store gives (a
    64-bit integer: ladders.LARGEST_ID), which no table or run has."""
    if len(digits) > len(str(ladders.LARGEST_ID)):
        return None
    number = int(digits)
    return number if number <= ladders.LARGEST_ID else None


def is_api(path: str) -> bool:
    """A JSON endpoint's path: its errors are JSON too (docs/web.md)."""
    return path == "/api" or path.startswith("/api/")


def choice_of(request: HTTPConnection) -> tuple[Lang, bool]:
    """The page's language, and whether the link chose it now (web/choice.py)."""
    accept = request.headers.get("accept-language", "")
    # (the lang cookie alone: never request.cookies, every cookie parsed, choice.py)
    return page_lang(request.query_params, request.headers.get("cookie", ""), accept)


def lang_of(request: HTTPConnection) -> Lang:
    return choice_of(request)[0]


def script_json(words: dict[str, Any] | None) -> str:
    """A page script's words, for its data-words (none on an English page: its
    script's own English)."""
    return "" if words is None else json.dumps(words, ensure_ascii=False)


def kept_file(path: Path) -> tuple[bytes, dict[str, str]]:
    """A static file's bytes and the validators its ``/static/`` answer carries (its
    ``etag`` and ``last-modified``, as Starlette makes them from its ``stat``)."""
    told = FileResponse(path, stat_result=path.stat()).headers
    return path.read_bytes(), {name: told[name] for name in ("etag", "last-modified")}


def make_app(lobby: Lobby) -> Starlette:
    templates = Jinja2Templates(directory=HERE / "templates")
    templates.env.filters["in_hand_order"] = in_hand_order
    templates.env.filters["elo_told"] = report.elo_told  # as the ladder's text says them
    templates.env.filters["points_told"] = report.points_told
    templates.env.filters["after_verdict"] = report.after_verdict
    templates.env.filters["verdict"] = report.verdict
    templates.env.filters["fault_counts"] = ladders.fault_counts  # (the runs' list)
    templates.env.filters["faults_counted"] = ladders.faults_counted
    # a game's players as 'top' and 'finger' say them: 'for 3 players', «на троих»
    templates.env.filters["game_for"] = lambda players, lang: game_for(players).text(lang)
    # how a match ended, in words, for the live table page's script (web/ends.py)
    ends_json = {lang: json.dumps(ends_for_script(lang), ensure_ascii=False) for lang in Lang}
    viewers = Viewers(lobby.config.max_web_viewers, lobby.config.web_viewers_per_address)
    kept_plots = ladders.KeptPlots(ladders.KEPT_PLOTS_BYTES)  # finished runs' (ladders.py)
    kept_replays = KeptReplays(KEPT_REPLAYS_BYTES)  # finished matches' (replays.py)
    # /favicon.ico from memory: as a file, each answer took four trips to a thread
    # (stat, open, read, close) and a task listening for the client's close
    icon, icon_headers = kept_file(HERE / "static" / "favicon.ico")
    store_reads = trio.CapacityLimiter(WEB_STORE_READS)

    async def store_read(read: Callable[[], T]) -> T:
        """``read`` in a thread, within the web face's own share of them."""
        return await trio.to_thread.run_sync(read, limiter=store_reads)

    def rendered(name: str, lang: Lang, path: str, query: str = "", **context: Any) -> str:
        """A page's HTML in ``lang``, with the switch to the other (to ``path`` with
        ``query``: docs/web.md, "Languages"); nothing else of the request's in it (a
        kept replay's is served to any request of its language)."""
        words = PageWords(lang)
        context.update(
            w=words,
            switch=switch_href(path, words.other, query),
            end_words_json=ends_json[lang],
        )
        return templates.get_template(name).render(context)

    def served(request: Request, body: str | bytes, status: int = 200) -> Response:
        """A page's answer: a choice made by the link is remembered by a cookie."""
        response = HTMLResponse(body, status_code=status)
        response.headers["Vary"] = VARY
        lang, chosen = choice_of(request)
        if chosen:
            response.set_cookie(
                COOKIE, lang, max_age=COOKIE_MAX_AGE_S, path="/", samesite="lax", httponly=True
            )
        return response

    def page(
        request: Request,
        name: str,
        status: int = 200,
        path: str | None = None,
        query: str = "",
        **context: Any,
    ) -> Response:
        """A page in its language (web/choice.py), with the switch to the other (to
        ``path`` with ``query``, the page's own: the request's path unless given)."""
        html = rendered(name, lang_of(request), path or request.url.path, query, **context)
        return served(request, html, status)

    def not_found(request: Request, key: W, what: str) -> Response:
        """404: in English under /api (its words are read by programs), else in the
        page's language."""
        if is_api(request.url.path):
            return JSONResponse({"error": said(key, Lang.EN, n=what)}, status_code=404)
        return page(request, "missing.html", 404, text=said(key, lang_of(request), n=what))

    async def index(request: Request) -> Response:
        listing = script_json(tables_script_words(lang_of(request)))
        return page(request, "index.html", tables=views.open_tables(lobby), tables_words=listing)

    async def api_index(request: Request) -> Response:
        listed = [{"path": path, "what": what} for path, what in API_ENDPOINTS]
        return JSONResponse({"endpoints": listed, "docs": "docs/web.md"})

    async def api_health(request: Request) -> Response:
        health = health_of(lobby)
        return JSONResponse(attrs.asdict(health), status_code=health.http_status)

    async def api_tables(request: Request) -> Response:
        tables = views.open_tables(lobby)
        return JSONResponse({"tables": [attrs.asdict(t) for t in tables]})

    async def _table(request: Request) -> views.TableSummary | None:
        number = path_number(request.path_params["n"])
        # (another worker's table just opened: looked for a moment, cluster/looks.py)
        table = None if number is None else await table_looked_up(lobby, number)
        if table is None or table.state == TableState.CLOSED or table.private:  # private: not shown
            return None
        if table.board is not None:  # a ladder's board: watched by admins only
            return None
        return views.table_summary(table)

    async def closed_table(request: Request) -> Response:
        """404 for a table not open; a public one that closed links the match stored
        last at its number, read from the store: after a restart too, and for a table
        another worker or server ran (a private table's number answers as no table's)."""
        digits = request.path_params["n"]
        number = path_number(digits)
        last = None
        # read for a private table open here too (its number links nothing: the store
        # keeps its matches private), as for a number no table has: the same time
        if number is not None:
            last = await store_read(partial(lobby.store.last_match_at, number))
        if last is not None:  # stored: its replay is there
            text = said(W.NO_OPEN_TABLE, lang_of(request), n=digits)
            return page(request, "missing.html", 404, text=text, last_match=last)
        return not_found(request, W.NO_OPEN_TABLE, digits)

    async def table_page(request: Request) -> Response:
        summary = await _table(request)
        if summary is None:
            return await closed_table(request)
        table, lang = lobby.tables[summary.id], lang_of(request)
        board = views.board_now(table, lang)
        said_live = script_json(table_script_words(lang, table.words))
        # (an English page's script says the game's calls itself, but not a table's own
        # words for them: Tertz's 'bella' is 'mariage', as the page served says it)
        own = script_json(dict(table.words.en)) if table.words.en else ""
        return page(
            request, "table.html", table=summary, board=board, table_words=said_live,
            own_words=own, talon=views.has_talon(table, board),
            card_names=script_json(card_names(lang)),
            # under manual-claim every claim is a seat's konets (the engine never claims):
            # the script says so of a match's end whenever the page was opened
            konets=said_konets("claim", summary.options),
            # a short game's deal is said by its winner (docs/rules.md §11), as the table did
            on_points=table.rules.settings.deal_won_on_points,
        )  # fmt: skip

    async def api_table(request: Request) -> Response:
        summary = await _table(request)
        if summary is None:
            return not_found(request, W.NO_OPEN_TABLE, request.path_params["n"])
        return JSONResponse(attrs.asdict(summary))

    async def _replay(request: Request, lang: Lang | None) -> bytes | None:
        """The finished match of the path as served: its page in ``lang``, or (None)
        its JSON; None: no such match. Built in a thread, and kept (replays.py)."""
        match_id = request.path_params["match"]
        if not MATCH_ID.fullmatch(match_id):
            return None
        key: ReplayKey = (match_id.lower(), lang)
        # a match not stored (or still running) answered by a cheap read, not in the
        # builds' one-at-a-time turn: a hostile tryout's flood of numbers of no match
        # (s40) queued there, and an honest first build waited up to 0.5 s
        stored = partial(match_stored, lobby.store, key[0])
        if kept_replays.get(key) is None and not await store_read(stored):
            return None
        return await served_replay(kept_replays, key, lambda: built_replay(key))

    def built_replay(key: ReplayKey) -> Built:
        """In a thread: the store read, the deals rebuilt, the page rendered."""
        match_id, lang = key
        replay, final = replay_read(lobby.store, lobby.rules, match_id)
        if replay is None:
            return Built(None, final=False)
        if lang is None:
            return Built(replay_json(replay), final)
        rules = lobby.rules.ruleset(len(replay.players), replay.variant, replay.options)
        html = rendered(
            "game.html", lang, f"/games/{match_id}", game=replay,
            words=table_words(rules.call_aliases),
        )  # fmt: skip
        return Built(html.encode(), final)

    async def game_page(request: Request) -> Response:
        body = await _replay(request, lang_of(request))
        if body is None:
            return not_found(request, W.NO_FINISHED_MATCH, request.path_params["match"])
        return served(request, body)

    async def api_game(request: Request) -> Response:
        body = await _replay(request, None)
        if body is None:
            return not_found(request, W.NO_FINISHED_MATCH, request.path_params["match"])
        return Response(body, media_type="application/json")

    async def _player(request: Request) -> views.PlayerPage | None:
        name = request.path_params["name"]
        if not valid_name(name):
            return None
        store = lobby.store

        def look_up() -> views.PlayerPage | None:
            rows = store.recent_games(name, limit=PLAYER_GAMES)
            played_as: dict[str, str] = {}
            if not rows and is_house_rating_name(name):  # a rated house bot: its copies'
                for copy, row in house_bot_games(store, name, PLAYER_GAMES):
                    rows.append(row)
                    played_as[row["match"]] = copy
            if not rows:
                return None
            ratings = store.player_ratings(name)
            return views.player_page(
                name,
                rows,
                ratings,
                store.rating_history(name, PLAYER_RATED),
                played_as,
                # (each counted, not read off the whole standings: as 'finger')
                [store.rank(r) for r in ratings],
                # (a house bot's copy has no account, nor is it anyone's but the house's)
                guest=house_rating_name(name) is None and store.account_name(name) is None,
            )

        return await store_read(look_up)

    def seated_at(name: str) -> tuple[str, list[int]]:
        """The open public tables ``name`` sits at (none for a private table's or a
        ladder board's player: never shown) and his name as seated there."""
        key, spelt, tables = name_key(name), name, []
        for table in lobby.listed_tables():  # (its seats only: no summary of each)
            for player in table.seats:
                if player is not None and name_key(player) == key:
                    spelt = player
                    tables.append(table.id)
        return spelt, tables

    async def player_page(request: Request) -> Response:
        player = await _player(request)
        if player is None:
            name = request.path_params["name"]
            spelt, tables = seated_at(name) if valid_name(name) else (name, [])
            if tables:  # his first match: '/' and /table/N link him (a 404 was unkind)
                text = said(W.NO_MATCH_YET, lang_of(request), n=spelt)
                return page(request, "missing.html", text=text, heading=spelt, playing=tables)
            return not_found(request, W.NO_MATCH_OF, name)
        # (the switch to his name as stored: the page never echoes the URL's 'ANN')
        at = f"/players/{player.name}"
        plot = views.rating_plot(player, lang_of(request))
        return page(request, "player.html", path=at, player=player, plot=plot)

    async def api_player(request: Request) -> Response:
        player = await _player(request)
        if player is None:
            return not_found(request, W.NO_MATCH_OF, request.path_params["name"])
        return JSONResponse(attrs.asdict(player))

    def bad_game(request: Request, no_game: standings.NoSuchGame) -> Response:
        """400: a ``?variant=`` or ``?players=`` no game has (JSON under /api); a count
        the variant is not played by says its own, as 'top tertz 3' does ('?players= 2,
        3 or 4' told of Tertz for three named the 3 it refused)."""
        names = ", ".join(standings.variants(lobby.rules))
        lang = Lang.EN if is_api(request.url.path) else lang_of(request)
        told = said(W.BAD_GAME, lang, variants=names)
        if no_game.counts:
            # as a sentence says them, as 'top' does ('2 or 3', «2 или 3»; it wrote '2/3')
            counts = said_counts(no_game.counts)
            counts = counts_ru(counts) if lang == Lang.RU else counts
            players = request.query_params.get("players", "")
            told = said(
                W.BAD_GAME_COUNT, lang, variant=no_game.variant, counts=counts, players=players
            )
        if is_api(request.url.path):
            return JSONResponse({"error": told}, status_code=400)
        heading = said(W.BAD_REQUEST, lang)
        return page(request, "missing.html", 400, text=told, heading=heading)

    async def _standings(request: Request) -> standings.Standings | Response:
        """The page of the game's standings the query asks (read in a thread, as 'top'
        reads them), or its refusal: no such game or page (400)."""
        query = request.query_params
        try:
            game = standings.asked_game(query, lobby.rules)
        except standings.NoSuchGame as no_game:
            return bad_game(request, no_game)
        store, size = lobby.store, lobby.config.page_size
        names, asked = standings.variants(lobby.rules), asked_page(query)

        def look_up() -> standings.Standings:
            return standings.standings(store, names, game, asked, size)

        try:
            return await store_read(look_up)
        except NoSuchPage as no_page:
            return bad_page(request, no_page.pages)

    async def top_page(request: Request) -> Response:
        found = await _standings(request)
        if isinstance(found, Response):
            return found
        # (the switch keeps the game and page shown, named: the club's may change)
        return page(request, "top.html", query=found.query(), top=found)

    async def api_top(request: Request) -> Response:
        found = await _standings(request)
        if isinstance(found, Response):
            return found
        shown = found.paged
        return JSONResponse(
            {
                "variant": found.variant,
                "players": found.players,
                "total": shown.count,
                "page": shown.page,
                "pages": shown.pages,
                "ratings": [standings.row_json(r) for r in found.ratings],
                "games": [attrs.asdict(g) for g in found.games],
            }
        )

    async def ladders_page(request: Request) -> Response:
        found = await store_read(partial(ladders.ladders, lobby.config.db))
        return page(request, "ladders.html", ladders=found)

    async def api_ladders(request: Request) -> Response:
        found = await store_read(partial(ladders.ladders, lobby.config.db))
        return JSONResponse(attrs.asdict(found))

    def bad_page(request: Request, pages: int) -> Response:
        """400: a ``?page=`` the list has not (past its last, 0, not a number), with
        the pages it has; in English under /api, as ``not_found``."""
        if is_api(request.url.path):
            told = said(W.BAD_PAGE, Lang.EN, pages=pages)
            return JSONResponse({"error": told}, status_code=400)
        told = said(W.BAD_PAGE, lang_of(request), pages=pages)
        heading = said(W.BAD_REQUEST, lang_of(request))
        return page(request, "missing.html", 400, text=told, heading=heading)

    async def _ladder_run(
        request: Request, plotted: bool
    ) -> tuple[ladders.RunPage, str | None] | Response:
        """The run of the path with the page of its games ``?page=`` asks, and with
        ``plotted`` its finished plot (kept once made: both read in a thread, off the
        loop); or the refusal, a page it has not (400) or no such run (404)."""
        number = request.path_params["run"]
        run = path_number(number)
        db, asked, lang = lobby.config.db, asked_page(request.query_params), lang_of(request)

        def look_up() -> ladders.RunPage | None:
            return None if run is None else ladders.ladder_run(db, run, asked)

        try:
            found = await store_read(look_up)
        except NoSuchPage as no_page:
            return bad_page(request, no_page.pages)
        if found is None:
            return not_found(request, W.NO_LADDER_RUN, number)
        plot = await ladders.finished_plot(db, found.run, kept_plots, lang) if plotted else None
        return found, plot

    async def ladder_page(request: Request) -> Response:
        looked = await _ladder_run(request, plotted=True)
        if isinstance(looked, Response):
            return looked
        found, plot = looked
        at = f"/ladders/{found.run.id}"  # (the switch keeps the page)
        query = "" if found.paged.page == 1 else f"page={found.paged.page}"
        return page(
            request, "ladder.html", path=at, query=query, run=found.run, paged=found.paged,
            elo_plot=plot, carried=found.carried,
        )  # fmt: skip

    async def api_ladder(request: Request) -> Response:
        looked = await _ladder_run(request, plotted=False)
        if isinstance(looked, Response):
            return looked
        shown = looked[0].paged  # (appended: which page of how many games)
        told = {"page": shown.page, "pages": shown.pages, "game_count": shown.count}
        return JSONResponse({**attrs.asdict(looked[0].run), **told})

    async def favicon(request: Request) -> Response:
        # where a browser asks for it by itself (a JSON page names none): 149 bytes
        return Response(icon, media_type="image/x-icon", headers=icon_headers)

    async def live(websocket: WebSocket) -> None:
        number = path_number(websocket.path_params["n"])
        if number is None:  # no table has it (refused before the handshake: HTTP 403)
            await websocket.close(code=4404, reason="no open table")
            return
        await watch_table(websocket, lobby, number, viewers)

    async def no_route(request: Request, exc: Exception) -> Response:
        # a path no route matches ('/api/tables/x') is told as the others are
        return not_found(request, W.NO_PAGE, request.url.path)

    async def refused(request: Request, exc: Exception) -> Response:
        """Any other HTTP error (a method no route takes: 405): JSON under /api."""
        assert isinstance(exc, HTTPException)
        path = request.url.path
        headers = dict(exc.headers or {})
        if "Allow" in headers:  # (Starlette's comes from a set: its order varies by process)
            headers["Allow"] = ", ".join(sorted(headers["Allow"].split(", ")))
        if not is_api(path):  # (405: a person's browser sends only GETs, but may show it)
            told = said(W.NOT_ALLOWED, lang_of(request)) if exc.status_code == 405 else exc.detail
            return PlainTextResponse(told, exc.status_code, headers={**headers, "Vary": VARY})
        why = exc.detail
        if exc.status_code == 405:
            why = f"{request.method} is not allowed: {path} answers {headers.get('Allow', '')}"
        return JSONResponse({"error": why}, exc.status_code, headers=headers)

    async def failed(request: Request, exc: Exception) -> Response:
        # (the error is still raised, and logged, after this answer)
        if is_api(request.url.path):
            return JSONResponse({"error": "internal error"}, 500)
        told = said(W.INTERNAL_ERROR, lang_of(request))
        return PlainTextResponse(told, 500, headers={"Vary": VARY})

    app = Starlette(
        exception_handlers={404: no_route, HTTPException: refused, 500: failed},
        routes=[
            Route("/", index),
            Route("/favicon.ico", favicon),
            Route("/table/{n:digits}", table_page),
            Route("/games/{match}", game_page),
            Route("/api", api_index),
            Route("/api/", api_index),
            Route("/api/health", api_health),
            Route("/api/tables", api_tables),
            Route("/api/tables/{n:digits}", api_table),
            Route("/api/games/{match}", api_game),
            Route("/players/{name}", player_page),
            Route("/top", top_page),
            Route("/api/top", api_top),
            Route("/ladders", ladders_page),
            Route("/ladders/{run:digits}", ladder_page),
            Route("/api/ladders", api_ladders),
            Route("/api/ladders/{run:digits}", api_ladder),
            Route("/api/players/{name}", api_player),
            WebSocketRoute("/live/table/{n:digits}", live),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
    )
    # Starlette would redirect '/table/1/' to an address built from the Host header
    # (forged, or http behind a TLS proxy): a trailing slash is a page no route has
    app.router.redirect_slashes = False
    return app


__all__ = ["make_app"]
