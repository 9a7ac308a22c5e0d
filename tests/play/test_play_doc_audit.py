"""An audit of docs/play.md (and docs/play.ru.md, which must promise the same) against
the terminal client: each promise a player may rely on, and (→) the tests that pin it.
"here" is this module. The screen the doc shows is checked here line for line against
what the app draws (headless, 80×24).

(table below)
"""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from pathlib import Path

import attrs
import pytest
from textual.widgets import Input

from clients.play.app import PlayApp, RussianPlayApp, WireLine
from clients.play.draw import hand_text, legal_text, score_text, status_text, table_text
from clients.play.link import Link, pause_before
from clients.play.state import TableState, fold_all
from deberc_net.protocol.lang import Lang
from deberc_net.server.config import Config

from .pilot import SIZE, footer_row, until
from .server import ServerThread

DOCS = Path(__file__).resolve().parents[2] / "docs"
PLAY_MD = (DOCS / "play.md").read_text(encoding="utf-8")
PLAY_RU_MD = (DOCS / "play.ru.md").read_text(encoding="utf-8")


def code_block_after(doc: str, heading: str) -> list[str]:
    """The lines of the first fenced block after ``heading``."""
    rest = doc[doc.index(heading) :]
    start = rest.index("```\n") + len("```\n")
    return rest[start : rest.index("```", start)].rstrip("\n").split("\n")


# the wire lines that make the doc's screen: robo (seat 0) ordered ♣ and led 8♥, misha
# (seat 1, the dealer) to play with 8 s on his clock
SCREEN_LINES = [
    "ok cmd=login name=misha guest=1 token=DTcJsVNrcT9GEvwY text=Hello, misha (guest).",
    "ok cmd=sit table=1 seat=1 text=You sit at table 1, seat 1.",
    "event seq=1 table=1 kind=seated name=robo seat=0",
    "event seq=2 table=1 kind=seated name=misha seat=1",
    "event seq=3 table=1 kind=start players=robo,misha match=m1",
    "event seq=4 table=1 kind=deal deal=1 dealer=1 turned=Jc score=0,0 hanging=0",
    "event seq=5 table=1 kind=call seat=0 call=igrayu auto=0",
    "event seq=6 table=1 kind=order player=0 trump=c first=0 fresa=Kd",
    "event seq=7 table=1 kind=play seat=0 card=8h auto=0",
    "ask seq=7 table=1 deal=1 phase=play seat=1 dealer=1 to_act=1 "
    "hand=7s,8s,9s,Qs,10h,8d,9d,8c,Kc turned=Jc fresa=Kd trump=c player=0 round=1 leader=0 "
    "trick=8h tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk=0:igrayu "
    "clock=8900 legal=terts,10h players=2",
]


def the_docs_screen() -> dict[str, list[str]]:
    """docs/play.md's screen, by pane: the status line; the table and score panes (left
    and right of '│'); the hand, the call; the log's lines shown; the input line's
    prompt; the keys. (The block leaves out the blank rows and the log's older lines.)"""
    rows = code_block_after(PLAY_MD, "## The screen")
    top = [row for row in rows[1:] if row.startswith(" ") and row.strip()]
    top = top[: next(i for i, row in enumerate(top) if row.strip().startswith("Turn:")) + 1]
    after = rows[1 + len(top) :]
    blocks: list[list[str]] = [[]]
    for row in after:
        if row.strip():
            blocks[-1].append(row.strip())
        elif blocks[-1]:
            blocks.append([])
    hand_and_call, log, (prompt, keys) = blocks
    return {
        "status": [rows[0]],
        "table": [row.split("│")[0].strip() for row in top],
        "score": [row.split("│")[1].strip() for row in top if "│" in row],
        "hand": hand_and_call[:1],
        "legal": hand_and_call[1:],
        "log": log,
        "prompt": [prompt],
        "keys": [keys],
    }


async def _the_screen() -> None:
    shown = the_docs_screen()
    # the status names the address dialed: the doc's 127.0.0.1:7501 is a real server's
    # port, so the app dials a closed one and its status is checked by the drawing
    state = fold_all(SCREEN_LINES)
    assert [status_text(state, "127.0.0.1:7501")] == shown["status"]
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with app.run_test(size=SIZE) as pilot:
        for line in SCREEN_LINES:
            app.post_message(WireLine(line))
        await until(pilot, lambda: app.state.asking, "the ask")
        await pilot.pause(0.1)
        assert app.pane("status").text == shown["status"][0].replace(":7501", ":9")
        for pane in ("table", "score", "hand", "legal"):
            assert app.pane(pane).text.splitlines() == shown[pane], pane
        # the log's newest lines, those the doc shows last
        # (less the link's notices: it dials a closed port and says so as it retries)
        link = ("cannot connect", "no connection yet", "not connected")
        log = [line for line in app.pane("log").text.splitlines() if not line.startswith(link)]
        assert log[-len(shown["log"]) :] == shown["log"], log
        assert [app.query_one("#input", Input).placeholder] == shown["prompt"]
        assert [footer_row(app).rstrip()] == shown["keys"]
        await pilot.press("ctrl+q")


@pytest.mark.timeout(60)
def test_the_screen_the_doc_shows_is_the_one_the_client_draws() -> None:
    asyncio.run(asyncio.wait_for(_the_screen(), 50))


LOGIN = "ok cmd=login name=misha guest=1 token=T text=Hello, misha (guest)."
BIDDING_ASK = (
    SCREEN_LINES[-1]
    .replace("phase=play", "phase=bidding")
    .replace("legal=terts,10h", "legal=pas,igrayu")
)


async def _footers(app_class: type[PlayApp]) -> list[str]:
    """The keys drawn at 80×24: before a login, in the lobby, asked to bid, asked to play."""
    drawn = []
    app = app_class("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        drawn.append(footer_row(app).rstrip())
        app.post_message(WireLine(LOGIN))
        await until(pilot, lambda: app.state.name == "misha", "the login")
        await pilot.pause()
        drawn.append(footer_row(app).rstrip())
        for line in (*SCREEN_LINES[1:-1], BIDDING_ASK):
            app.post_message(WireLine(line))
        await until(pilot, lambda: "pas" in app.state.legal, "the bid asked")
        await pilot.pause()
        drawn.append(footer_row(app).rstrip())
        app.post_message(WireLine(SCREEN_LINES[-1].replace("seq=7", "seq=8")))
        await until(pilot, lambda: "terts" in app.state.legal, "the card asked")
        await pilot.pause()
        drawn.append(footer_row(app).rstrip())
        await pilot.press("ctrl+q")
    return drawn


def quoted_footers(doc: str, first: str) -> set[str]:
    """Every key line ``doc`` quotes in backticks: a run of keys from ``first``."""
    quoted = {" ".join(found.split()) for found in re.findall(r"`(f1 [^`]+)`", doc)}
    return {
        line for line in quoted if line.startswith(first) and line.endswith(("redial", "связь"))
    }


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("app_class", "docs"),
    [(PlayApp, (PLAY_MD,)), (RussianPlayApp, (PLAY_MD, PLAY_RU_MD))],
)
def test_each_key_line_the_docs_quote_is_one_the_client_draws(
    app_class: type[PlayApp], docs: tuple[str, ...]
) -> None:
    """The key lines docs/play.md and docs/play.ru.md quote, before a login, in the lobby,
    at one's table (bidding, playing), are the lines the footer draws, word for word."""
    drawn = set(asyncio.run(asyncio.wait_for(_footers(app_class), 50)))
    first = "f1 help" if app_class is PlayApp else "f1 помощь"
    for doc in docs:
        quoted = quoted_footers(doc, first)
        assert quoted, first
        assert quoted <= drawn, (quoted - drawn, drawn)


def one_spaced(text: str) -> str:
    """``text`` as Markdown shows a code span: a line's end (and, here, any run of
    blanks) one space."""
    return " ".join(text.split())


def russian_screen() -> str:
    """The doc's screen at deal 2, drawn by the Russian client (its panes' text)."""
    lines = [line.replace("deal=1", "deal=2") for line in SCREEN_LINES]
    state = fold_all(lines, TableState(lang=Lang.RU))
    panes = [table_text(state, 8400), score_text(state), hand_text(state), legal_text(state)]
    return "\n".join(panes)


# the Russian panes' words both docs quote (docs/play.md "Language", docs/play.ru.md
# «Клиент говорит по-русски»)
RUSSIAN_LABELS = [
    "Стол 1, раздача 2: robo — misha*",
    "Сдаёт:",
    "Открыта: В♣  Фреза: К♦  Козырь: ♣ (играет robo)",
    "Разговор:",
    "Взятка:",
    "Прошлая:",
    "Ход:    ВАШ (misha), осталось 8 с",
    "Счёт",
    "Разд",
    "Итог",
    "Взят",
]


def test_the_russian_panes_both_docs_quote_are_the_ones_drawn() -> None:
    """Each Russian label docs/play.md and docs/play.ru.md quote is drawn so (whole, as
    quoted, spaces too: a code span folded across two lines of the Markdown is one
    space, and play.ru.md's split «К♦ / Козырь» read one space where two are drawn)."""
    drawn = russian_screen()
    for label in RUSSIAN_LABELS:
        assert label in drawn, label
        for doc in (PLAY_MD, PLAY_RU_MD):
            assert f"`{label}`" in doc.replace("`\n", "` ").replace("\n", " "), label
    assert "Рука:   ♠ 7 8 9 Д" in drawn and "`Рука:   ♠ 7 8 9 Д`" in PLAY_MD


def test_the_lobby_pane_says_what_a_seek_waits_for_and_how_to_stop() -> None:
    """docs/play.md: while a `seek` waits, the pane says what it waits for and that
    `unseek` stops waiting, in the words it quotes; docs/play.ru.md quotes the Russian.
    Before, the lobby's pane says how to find a game (`seek 2`, `new 2`, `tables`,
    `sit N`)."""
    login = "ok cmd=login name=misha guest=1 token=T text=Hello, misha (guest)."
    seek = (
        "ok cmd=seek players=2 variant=moscow options=to-301 "
        "text=Waiting for a 2-player moscow game (to-301)."
    )
    lobby = one_spaced(table_text(fold_all([login])))
    for word in ("'seek 2'", "'seek 3'", "'seek 4'", "'new 2'", "'tables'", "'sit N'"):
        assert word in lobby, word
    english = table_text(fold_all([login, seek])).splitlines()[1:]
    quoted = [
        "Waiting for a 2-player moscow game (to-301).",
        "'unseek' stops waiting; 'tables' lists the tables.",
    ]
    assert english == quoted
    assert all(f"`{line}`" in one_spaced(PLAY_MD) for line in quoted)
    russian = table_text(fold_all([login, seek], TableState(lang=Lang.RU))).splitlines()[1:]
    assert all(f"`{line}`" in one_spaced(PLAY_RU_MD) for line in russian), russian


@attrs.define
class Said:
    """The lines a link hands its screen, and an event per awaited kind of line."""

    lines: list[str] = attrs.Factory(list)
    events: dict[str, threading.Event] = attrs.Factory(dict)

    def deliver(self, line: str) -> None:
        self.lines.append(line)
        for part, event in self.events.items():
            if part in line:
                event.set()

    def awaited(self, part: str) -> threading.Event:
        return self.events.setdefault(part, threading.Event())


def test_the_link_pauses_doubling_from_half_a_second_to_ten_for_two_minutes() -> None:
    """docs/play.md: the pause doubles from 0.5 s up to 10 s a try, for 2 minutes after
    the connection was lost, as long as the server holds a seat by default
    (`away_limit_ms`)."""
    assert [pause_before(attempt) for attempt in range(1, 9)] == [0.5, 1, 2, 4, 8, 10, 10, 10]
    link = Link("127.0.0.1", 9, lambda line: None)
    assert link.retry_for_s == 120 == Config().away_limit_ms / 1000


@pytest.mark.timeout(30)
def test_the_link_gives_up_saying_how_often_it_tried_and_what_the_keys_do() -> None:
    """docs/play.md: after its time the client says `the server cannot be reached (tried
    N times in 120 s): Ctrl+R tries again, F10 or 'quit' leaves` and waits (here its time
    shortened to 1.2 s: three tries, 0.5 s and 1 s apart)."""
    said = Said()
    gave_up = said.awaited("cannot be reached")
    with socket.socket() as held:  # bound, never listening: every connect is refused
        held.bind(("127.0.0.1", 0))
        link = Link("127.0.0.1", held.getsockname()[1], said.deliver, name="x")
        link.retry_for_s = 1.2
        link.start()
        try:
            assert gave_up.wait(15), said.lines
        finally:
            link.stop()
    given_up = [line for line in said.lines if "cannot be reached" in line]
    assert len(given_up) == 1 and re.fullmatch(
        r"info text=the server cannot be reached \(tried 3 times in [12] s\): "
        r"Ctrl\+R tries again, F10 or 'quit' leaves",
        given_up[0],
    ), said.lines


@pytest.mark.timeout(60)
def test_a_goodbye_the_client_did_not_ask_for_is_not_followed_by_tries(tmp_path: Path) -> None:
    """docs/play.md: after a goodbye from the server it did not ask for (another client
    logged in under the name) the client does not try again by itself; it says what the
    keys do and waits."""
    said = Said()
    in_, told = said.awaited("ok cmd=login name=dup"), said.awaited("Ctrl+R connects again")
    with ServerThread(tmp_path / "db.sqlite3") as server:
        link = Link("127.0.0.1", server.port, said.deliver, name="dup")
        link.password = "secret1"  # as a typed 'login dup secret1' leaves it: registers
        link.start()
        try:
            assert in_.wait(20), said.lines
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as other:
                other.sendall(b"login dup secret1\n")  # the name, from elsewhere
                reader = other.makefile("rb")
                while b"Hello, dup" not in reader.readline():
                    pass
                assert told.wait(20), said.lines
                # a try would come 0.5 s after the drop: none in twice that
                time.sleep(1.0)
        finally:
            link.stop()
        assert not server.errors, server.errors
    after = said.lines[said.lines.index("info text=Ctrl+R connects again; F10 or 'quit' leaves") :]
    assert any("You logged in from another connection" in line for line in said.lines)
    assert not any("trying again" in line for line in after), said.lines
    assert sum(line.startswith("ok cmd=login") for line in said.lines) == 1, said.lines


@pytest.mark.timeout(30)
def test_a_line_longer_than_a_mib_ends_the_connection_as_a_drop_does() -> None:
    """docs/play.md "How it works": a line longer than 1 MiB ends the connection (the
    server's longest are far shorter), as a drop does: the link says it lost it and tries
    again. A server that sends one and holds the connection open (a hostile one, its line
    without end) is left, and the line is not handed to the screen."""
    said = Said()
    lost = said.awaited("connection lost: trying again")
    with socket.create_server(("127.0.0.1", 0)) as hostile:
        hostile.settimeout(10)
        link = Link("127.0.0.1", hostile.getsockname()[1], said.deliver, name="x")
        link.start()
        try:
            peer, _ = hostile.accept()
            with peer:
                peer.sendall(b"info text=" + b"a" * 1000 + b"\n")  # a long line: shown
                peer.sendall(b"info text=" + b"a" * (1 << 20))  # past the limit, no end
                assert lost.wait(15), said.lines[-3:]
        finally:
            link.stop()
    assert said.lines[0] == "info text=" + "a" * 1000
    assert not any(len(line) > 1 << 20 for line in said.lines)


def test_a_sheet_too_wide_for_its_names_numbers_its_columns_as_the_doc_quotes() -> None:
    """docs/play.md "Looking back": when the sides' names make the sheet wider than 80
    columns (a house bot, here), its columns are numbered, the names listed once above
    them (`  1 = anna`, `  2 = house-heuristic-1`) and the bides follow the numbers
    (`bides #1 1, #2 0`): in this client's log as over nc."""
    state = fold_all(
        [
            "ok cmd=login name=anna guest=1 token=T text=Hello, anna (guest).",
            "ok cmd=sit table=5 seat=0 text=You sit at table 5, seat 0.",
            "event seq=1 table=5 kind=seated name=anna seat=0",
            "event seq=2 table=5 kind=seated name=house-heuristic-1 seat=1",
            "event seq=3 table=5 kind=start players=anna,house-heuristic-1 match=m5",
            "sheet table=5 deals=1 target=301",
            "sheet-deal table=5 deal=1 outcome=bide written=0,162 totals=0,162 hanging=0 bides=1,0",
        ]
    )
    sheet = list(state.log[state.log.index("  1 = anna") - 1 :])
    assert sheet[1:3] == ["  1 = anna", "  2 = house-heuristic-1"], sheet
    assert sheet[-1].endswith("  bides #1 1, #2 0"), sheet
    assert all(len(line) <= 80 for line in sheet), sheet
    for quoted in ("`  1 = anna`", "`  2 = house-heuristic-1`", "`bides #1 1, #2 0`"):
        assert quoted in PLAY_MD, quoted
