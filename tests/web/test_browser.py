"""The web face in a real headless Chromium, against a real server with bots playing.

One browser for the session (conftest), one match here: the table list updates live, the
table page shows each card as it is played (before the next call: the table held till it
does) and is sent no card an observer may not see yet, and the finished match replays to
its records' totals.
"""

from __future__ import annotations

import json
import queue
import random
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from clients.client import Bot
from deberc_net.server.store import open_store
from tests.server.client import LineClient, fields, seat_pair
from tests.server.conftest import Connector

from .browsing import in_thread, wait_for
from .conftest import WebServer, screenshot

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[789JQKA])[shdc](?![0-9A-Za-z])")
WATCH_PLAYS = 8  # cards seen on the live page, each before the next call
CARD_LIMIT_S = 30  # a hang's limit for a card to show (the page's "at once": the feed's)
HOLD_CALLS = 16  # then calls held while the page's hand sizes are checked
FEED_WINDOW_S = 0.05  # the live feed's window meanwhile (the server's: 0.25 s)
SEEN = "return window.debercLines"
SHOWN_SIZES = """
return Array.from(document.querySelectorAll("#board .seat"),
                  (seat) => seat.querySelectorAll(".hand .card.back").length);
"""

# Records, for every card on the live page's board, when it appeared (browser wall clock)
RECORD_LAID = """
window.laidSeen = [];
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) {
    if (node.dataset && node.dataset.card && change.target.classList.contains("laid"))
      window.laidSeen.push([node.dataset.card, Date.now()]);
  }
}).observe(document.getElementById("board"), { childList: true, subtree: true });
"""


def _cards(value: str | None) -> set[str]:
    return {c for c in (value or "").split(",") if c and c != "-"}


def assert_no_card_before_its_time(lines: list[str]) -> None:
    """Every card named in a line was public when the line came: the turned card, the
    fresa, cards played or shown in this deal (a page gets no deal's record, which tells
    all once the deal is over)."""
    visible: set[str] = set()
    for line in lines:
        tag, f = fields(line)
        if tag == "event":
            kind = f.get("kind")
            if kind == "deal":
                visible = _cards(f.get("turned"))
            elif kind == "play":
                visible |= _cards(f.get("card"))
            elif kind == "shown":
                visible |= _cards(f.get("cards"))
            elif kind in ("order", "dealt"):
                visible |= _cards(f.get("fresa"))
        elif tag == "state":
            assert f["hand"] == "", line  # an observer holds no hand
            shown = {item.split(":", 1)[1] for item in f.get("shown", "").split(",") if item}
            visible |= _cards(f.get("turned")) | _cards(f.get("fresa")) | shown
            visible |= _cards(f.get("trick"))
        hidden = set(CARD.findall(line)) - visible
        assert not hidden, f"{sorted(hidden)} told before their time in: {line}"


def on_time(laid: list[tuple[str, float]], card: str, called: float) -> list[float]:
    """When ``card`` appeared on the board (seconds) since it was ``called``, from the
    page's record (``RECORD_LAID``; a card of an earlier deal is not it)."""
    return [at / 1000 for c, at in laid if c == card and at / 1000 >= called - 0.01]


def cards_shown(driver: webdriver.Chrome, timed: list[tuple[str, float]]) -> None:
    """Once every card of ``timed`` (each with when it was called) is on the page's
    board; failing, which never came within ``CARD_LIMIT_S``."""
    missing: list[str] = []

    def all_shown(d: webdriver.Chrome) -> bool:
        laid = d.execute_script("return window.laidSeen")
        missing[:] = [card for card, called in timed if not on_time(laid, card, called)]
        return not missing

    try:
        WebDriverWait(driver, CARD_LIMIT_S, poll_frequency=0.02).until(all_shown)
    except TimeoutException:
        raise AssertionError(f"{missing} never appeared, the table held after them") from None


def shown_sizes_become(driver: webdriver.Chrome, real: list[int]) -> list[int]:
    """The page's hand sizes (its backs, seat by seat), once they are ``real``."""
    shown: list[int] = WebDriverWait(driver, 30, poll_frequency=0.02).until(
        lambda d: (got := d.execute_script(SHOWN_SIZES)) == real and got
    )
    return shown


async def test_live_pages_follow_a_match_and_replay_it(
    start_web: Callable[..., Any],
    browser: webdriver.Chrome,
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    web: WebServer = await start_web()
    await in_thread(browser.get, web.url("/"))
    assert await in_thread(lambda: browser.find_element(By.CSS_SELECTOR, "tr.empty").text)

    pace = [0.15]  # seconds a bot thinks: slow while the page is timed, then fast
    plays: list[tuple[str, float]] = []  # every card played, with the time of its call
    rng = random.Random(7)
    holding = [0]  # calls still to hold: the table stands still while the page is read
    held: queue.Queue[None] = queue.Queue()
    release = threading.Semaphore(0)
    hold_lock = threading.Lock()

    def choose(view: Any) -> str:  # in a worker thread
        with hold_lock:  # two bots' threads: one call held per count
            hold = holding[0] > 0
            if hold:
                holding[0] -= 1
        if hold:
            held.put(None)
            release.acquire()
        time.sleep(pace[0])
        call: str = rng.choice(view.legal)
        if CARD.fullmatch(call):
            plays.append((call, time.time()))
        return call

    with trio.fail_after(50):
        async with trio.open_nursery() as nursery:
            for name in ("ann", "bob"):
                nursery.start_soon(  # registered: the match is rated
                    Bot(
                        choose,
                        name,
                        port=web.port,
                        password=f"pw-{name}-1",
                        seek="2 moscow to-301",
                        games=1,
                    ).run
                )
            # the list shows the new table without a reload
            await in_thread(wait_for, browser, '#tables a[href="/table/1"]')
            # the link may come a push before the seats' names: wait for them, up to 10 s
            await in_thread(
                WebDriverWait(browser, 30, poll_frequency=0.05).until,
                lambda d: "ann" in d.find_element(By.CSS_SELECTOR, "#tables tbody").text,
            )
            await in_thread(screenshot, browser, "tables")

            await in_thread(browser.get, web.url("/table/1"))
            await in_thread(browser.execute_script, RECORD_LAID)
            watching_from = time.time()
            # each card is on the page before the next call is made: the table held
            # after it till the page shows it (the event itself, up to CARD_LIMIT_S on a
            # stalled host, no timed window; the feed's own window, 0.25 s, is asserted
            # on virtual time in test_live_socket.py). The bots fast from here on
            pace[0] = 0.0
            while True:
                holding[0] = 1
                await in_thread(held.get, True, 10)
                timed = [p for p in plays if p[1] > watching_from]
                await in_thread(cards_shown, browser, timed)
                if len(timed) >= WATCH_PLAYS and await in_thread(
                    browser.find_elements, By.CSS_SELECTOR, ".laid .card"
                ):
                    break  # still held: a trick on the board
                release.release()
            await in_thread(screenshot, browser, "table")

            # the hands' sizes shown (backs) are the hands' own, whenever the table stands.
            # The cards above came at the server's own feed window (0.25 s); each held
            # call here waits for one message, so a shorter one from here on
            monkeypatch.setattr("deberc_net.server.web.feed.COALESCE_S", FEED_WINDOW_S)
            holding[0] = HOLD_CALLS
            release.release()
            sizes_seen = set()
            for _ in range(HOLD_CALLS):
                await in_thread(held.get, True, 10)
                real = json.loads((await web.get("/api/tables/1"))[1])["hand_sizes"]
                shown_sizes = await in_thread(shown_sizes_become, browser, real)
                sizes_seen.add(tuple(shown_sizes))
                release.release()
            assert len(sizes_seen) >= 4, sizes_seen  # the sizes changed as the deal went on

            await in_thread(wait_for, browser, "#replay-link", 40)
    lines: list[str] = await in_thread(browser.execute_script, "return window.debercLines")
    assert not [line for line in lines if line.startswith("record ")]  # the observer's only
    assert_no_card_before_its_time(lines)

    store = open_store(db_path)
    try:
        records = [json.loads(line) for line in store.records()]
    finally:
        store.close()
    final = " : ".join(map(str, records[-1]["totals"]))
    assert final in await in_thread(lambda: browser.find_element(By.ID, "score").text)
    await in_thread(lambda: browser.find_element(By.ID, "replay-link").click())
    await in_thread(wait_for, browser, "#final-totals")
    assert await in_thread(lambda: browser.find_element(By.ID, "final-totals").text) == final
    shown_totals = await in_thread(
        lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".deal-totals")]
    )
    assert shown_totals == [" : ".join(map(str, r["totals"])) for r in records]
    await in_thread(screenshot, browser, "game")

    winner = records[-1]["players"][records[-1]["match_over"]["winner"]]
    await in_thread(lambda: browser.find_element(By.LINK_TEXT, winner).click())
    await in_thread(wait_for, browser, "#tally")
    tally = await in_thread(lambda: browser.find_element(By.ID, "tally").text)
    assert tally.startswith("Won 1, lost 0, drawn 0")
    rating = await in_thread(lambda: browser.find_element(By.CSS_SELECTOR, "#ratings .rating"))
    assert float(await in_thread(lambda: rating.text)) > 0  # a win: above the start, 0
    series = await in_thread(
        lambda: browser.find_elements(By.CSS_SELECTOR, "#rating-plot polyline.series")
    )
    assert [await in_thread(s.get_attribute, "data-name") for s in series] == [
        "moscow for 2 players"
    ]
    await in_thread(screenshot, browser, "player")


async def test_a_four_player_tables_page_hides_the_turned_card_once_the_game_is_ordered(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """With four players the turned card joins the dealer's hand when the game is
    ordered (an observer's state says turned=-): the live page stops showing it then."""
    web: WebServer = await start_web(bot_clock_ms=120_000)  # no auto call meanwhile
    players = [await connect.machine(web.port, f"p{i}") for i in range(4)]
    for player in players:
        await player.send("seek 4")
    by_seat: dict[int, LineClient] = {}
    for player in players:
        by_seat[int((await player.expect("ok", cmd="sit"))["seat"])] = player
    turned = (await by_seat[0].expect("event", kind="deal"))["turned"]
    # seat 0's view at the deal: an ask if it is first to act, else a state
    line = await by_seat[0].read_until(lambda x: x.startswith(("ask ", "state ")))
    view = fields(line)[1]
    table, to_act = view["table"], int(view["to_act"])
    await in_thread(browser.get, web.url(f"/table/{table}"))
    await in_thread(
        wait_for, browser, f'body[data-live="open"] #status .card[data-card="{turned}"]'
    )
    # the page has its live state (the observer's first line): the order comes after it
    await in_thread(
        WebDriverWait(browser, 30, poll_frequency=0.05).until,
        lambda d: any(x.startswith("state ") for x in d.execute_script(SEEN)),
    )
    player = by_seat[to_act]  # the seat asked to bid orders the game in the turned suit
    ask = view if line.startswith("ask ") else await player.expect("ask")
    assert "igrayu" in ask["legal"].split(",")
    await player.send(f"igrayu seq={ask['seq']}")
    trump = await in_thread(wait_for, browser, "#trump:not(:empty)")
    assert (await in_thread(lambda: trump[0].text)).startswith("Trump ")
    assert await in_thread(lambda: browser.find_elements(By.CSS_SELECTOR, "#status .card")) == []
    status = await in_thread(lambda: browser.find_element(By.ID, "status").text)
    assert status == "Deal 1"


async def _until_a_seat_swaps_the_seven(player: LineClient, swapped: list[str]) -> None:
    """Play for one seat (ordering the turned suit whenever it may, else at random)
    until it may swap the trump 7: it says 'menyayu', notes the turned card it took,
    and answers nothing more."""
    rng = random.Random(player.label)
    while True:
        f = fields(await player.read_until(lambda x: x.startswith("ask "), 60))[1]
        legal = f["legal"].split(",")
        if "menyayu" in legal:
            swapped.append(f["turned"])
            await player.send(f"menyayu seq={f['seq']}")
            return
        call = "igrayu" if "igrayu" in legal else rng.choice(legal)
        await player.send(f"{call} seq={f['seq']}")


async def test_the_tables_page_shows_the_trump_seven_at_once_after_the_swap(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """After 'menyayu' the trump 7 lies face up where the turned card was: the live page
    shows it from the call's event (an observer gets no state line until the next deal)."""
    web: WebServer = await start_web(bot_clock_ms=120_000)  # no auto call meanwhile
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    await in_thread(browser.get, web.url(f"/table/{table}"))
    await in_thread(wait_for, browser, 'body[data-live="open"] #status .card')
    swapped: list[str] = []
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:

            async def play(player: LineClient) -> None:
                await _until_a_seat_swaps_the_seven(player, swapped)
                nursery.cancel_scope.cancel()  # the other waits for an ask: done too

            nursery.start_soon(play, ann)
            nursery.start_soon(play, bob)
    seven = "7" + swapped[0][-1]
    await in_thread(wait_for, browser, f'#status .card[data-card="{seven}"]')
    seen = await in_thread(browser.execute_script, SEEN)
    assert not any(x.startswith("state ") for x in seen[-3:])  # the event did it


def test_the_redaction_check_catches_a_card_told_early() -> None:
    """The check above can fail: a card named before it is played is caught."""
    deal = "event seq=1 table=1 kind=deal deal=1 dealer=0 turned=Ks score=0,0 hanging=0"
    assert_no_card_before_its_time([deal, "event seq=2 table=1 kind=play seat=1 card=7h auto=0"])
    try:
        assert_no_card_before_its_time([deal, "state seq=2 table=1 deal=1 hand=7h,8h"])
    except AssertionError:
        pass
    else:
        raise AssertionError("a hand sent to an observer went unnoticed")
    try:
        assert_no_card_before_its_time([deal, "info text=ann holds Ah"])
    except AssertionError:
        return
    raise AssertionError("a card named early went unnoticed")
