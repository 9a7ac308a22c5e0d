"""/games/ID of a Tertz match says at which trick the trump 7 took the turned card
(docs/web.md): Tertz swaps at any trick (docs/rules.md §12.3), and the page showed the
seven drawn twice (from the talon, then as the last, turned card) with the swap only in
the deal's talk, nothing saying when."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.game.match import Match
from deberc_net.server.store import open_store
from deberc_net.server.web.replay import replay_match
from deberc_net.testing import rule_book, say
from tests.tertz.helpers import first_card, swapped_at_trick_two

from .conftest import WebServer

TRICKS = re.compile(r'<ol class="tricks">(.*?)</ol>', re.S)
ITEM = re.compile(r"<li>(.*?)</li>", re.S)


def _played() -> Match:
    """bob, who lost the first trick, swaps his 7♥ for the turned K♥ before his card
    in the second (ann led 7♠); then the match is played out."""
    match = swapped_at_trick_two()
    while not match.over:
        say(match, match.to_act, first_card(match, match.to_act))
    return match


def test_the_replayed_trick_carries_the_swap() -> None:
    match = _played()
    deal = replay_match(list(match.records), rule_book()).deals[0]
    assert [t.swap for t in deal.tricks] == [None, (1, "Kh")] + [None] * 14
    assert match.records[0]["draws"][-1] == [0, "7h"]


@pytest.mark.timeout(60)
async def test_the_page_says_the_swap_at_its_trick(
    db_path: Path, start_web: Callable[..., Any]
) -> None:
    match = _played()
    records = [{**r, "match": "m1", "players": ["ann", "bob"]} for r in match.records]
    store = open_store(db_path)
    try:
        for record in records:
            store.add_deal(record)
        over = records[-1]["match_over"]
        store.finish_match(
            "m1",
            1,
            ["ann", "bob"],
            "tertz",
            [],
            ["ann", "bob"][over["winner"]],
            over["reason"],
            records[-1]["totals"],
            seeds={r["deal_no"]: r["seed"] for r in records},
        )
    finally:
        store.close()
    with trio.fail_after(30):
        web: WebServer = await start_web()
        _, english = await web.get("/games/m1")
        _, russian = await web.get("/games/m1?lang=ru")
    for body, said in (
        (english, "bob: menyayu, takes the turned K♥"),
        (russian, "bob: меняю, берёт открытую К♥"),
    ):
        tricks = ITEM.findall(TRICKS.findall(body.decode())[0])
        text = [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", t))) for t in tricks]
        assert [said in t for t in text] == [False, True] + [False] * 14, text[:3]
