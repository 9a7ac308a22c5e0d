"""The live table page in Russian (docs/web.md, "Languages"): what its script writes as
the match goes on, a deal played and the match's end, in the words the table speaks
(headless Chromium, tests/web/conftest.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from deberc_net.protocol.ends import END_WORDS
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, Phrase, phrase
from deberc_net.protocol.render import deal_word
from deberc_net.server.web.ends import match_over_words
from deberc_net.server.web.words import CLOSE_REASONS, call_words
from tests.server.client import play_machine
from tests.server.conftest import Connector

from .conftest import WebServer

SEEN = """
const text = (css) => [...document.querySelectorAll(css)].map((e) => e.textContent);
return {talk: text("#talk li"), deals: [...document.querySelectorAll("#deals tbody tr")]
  .map((tr) => [...tr.children].map((td) => td.textContent)),
  status: document.getElementById("status").textContent,
  gone: document.getElementById("gone").textContent,
  rematch: document.getElementById("rematch").textContent};
"""


async def test_a_russian_live_page_tells_the_deal_and_the_end_in_russian(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(match_seed="languages")
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 short")  # one deal, then the match is over
    table = (await ann.expect("ok", cmd="sit"))["table"]
    wait = WebDriverWait(browser, 20, poll_frequency=0.05)
    try:
        with trio.fail_after(90):
            await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}?lang=ru"))
            await trio.to_thread.run_sync(
                wait.until, lambda d: d.execute_script("return window.debercLines.length") > 0
            )
            # its ends' words are the replay's, in Russian (every reason, known or not)
            cases = [
                (winners, reason, who)
                for reason in [*END_WORDS, "a-plugins-own"]
                for winners in ([], ["ann"], ["ann", "cat"])
                for who in (None, "bob")
            ]
            said = await trio.to_thread.run_sync(
                browser.execute_script,
                "return arguments[0].map(([w, r, who]) => window.debercOverText(w, r, who));",
                cases,
            )
            assert said == [match_over_words(w, r, who, Lang.RU) for w, r, who in cases]

            await bob.send(f"sit {table}")
            await bob.expect("ok", cmd="sit")
            async with trio.open_nursery() as nursery:
                nursery.start_soon(play_machine, ann, random.Random(1))
                nursery.start_soon(play_machine, bob, random.Random(2))
            end = [line for line in ann.lines if " kind=match-end " in line][-1]
            dealt = [line for line in ann.lines if " kind=deal-end " in line]
            outcomes = [line.split(" outcome=")[1].split(" ")[0] for line in dealt]
            winner = end.split(" name=")[1].split(" ")[0]
            over = await trio.to_thread.run_sync(
                wait.until,
                lambda d: d.find_elements(By.ID, "replay-link") and d.find_element(By.ID, "over"),
            )
            text = await trio.to_thread.run_sync(lambda: over.text)
            assert text == f"{match_over_words([winner], 'short', None, Lang.RU)} Смотреть запись"
            # the socket stays open while a rematch is on offer; bob gone, it is off
            await trio.to_thread.run_sync(
                wait.until,
                lambda d: d.find_element(By.ID, "rematch").text.startswith("Игроки могут"),
            )
            await bob.aclose()
            await trio.to_thread.run_sync(
                wait.until, lambda d: d.find_element(By.ID, "gone").text.startswith("Показ окончен")
            )
            seen = await trio.to_thread.run_sync(browser.execute_script, SEEN)
    finally:
        # the choice's cookie would make the session's next pages Russian (one browser)
        await trio.to_thread.run_sync(browser.delete_all_cookies)

    assert seen["gone"] == "Показ окончен: партия окончена."
    assert seen["rematch"] == "Реванша не будет: игроки о нём не договорились."
    assert seen["status"].startswith(f"Раздача {len(dealt)}"), seen
    # each deal's row, its outcome as the table says it: a short game's by its winner
    # («победитель — bob», not «байд»; ann sat first, at seat 0), a void's «пересдача»
    written = [
        [int(v) for v in line.split(" written=")[1].split(" ")[0].split(",")] for line in dealt
    ]
    told = [
        deal_word(o, w, ["ann", "bob"], True, Lang.RU)
        for o, w in zip(outcomes, written, strict=True)
    ]
    assert [row[1] for row in seen["deals"]] == told
    # the talk as a Russian player says it: «пас», «играю», never 'pas', 'igrayu'
    spoken = set(call_words(Lang.RU).values())
    assert seen["talk"] and all(
        name in ("ann", "bob") and said in spoken
        for name, said in (item.split(": ", 1) for item in seen["talk"])
    )


async def test_a_russian_live_page_says_its_tables_closing_words_in_russian(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """The table's closing words come as the wire's English info line; a Russian page
    says them as the server's Russian does (messages.py), a free-text reason as it came."""
    web: WebServer = await start_web(empty_table_ms=1000)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    wait = WebDriverWait(browser, 20, poll_frequency=0.05)
    reasons: list[str | Phrase] = [phrase(key) for key in CLOSE_REASONS[1:]]
    reasons += [phrase(Msg.SIGNAL_RECEIVED, signal="SIGTERM"), "a reason of its own"]
    said = [phrase(Msg.TABLE_CLOSES, table=3, reason=r) for r in reasons] + [
        phrase(Msg.MATCH_STOPPED, table=12, reason=r, match="m7") for r in reasons
    ]
    try:
        with trio.fail_after(60):
            await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}?lang=ru"))
            await trio.to_thread.run_sync(
                wait.until, lambda d: d.execute_script("return window.debercLines.length") > 0
            )
            told = await trio.to_thread.run_sync(
                browser.execute_script,
                "return arguments[0].map((t) => window.debercClosesText(t));",
                [p.text() for p in said],
            )
            assert told == [p.text(Lang.RU) for p in said]
            # ann's connection lost: the deserted table closes, its page told why
            await ann.aclose()
            gone = await trio.to_thread.run_sync(
                wait.until,
                lambda d: (
                    d.find_element(By.ID, "gone").text.startswith("Показ окончен")
                    and d.find_element(By.ID, "gone").text
                ),
            )
    finally:
        await trio.to_thread.run_sync(browser.delete_all_cookies)
    closes = phrase(Msg.TABLE_CLOSES, table=int(table), reason=phrase(Msg.PLAYERS_LEFT))
    assert gone == "Показ окончен: " + closes.text(Lang.RU)
