"""/games/ID of a Tertz match says at which trick the trump 7 took the turned card and
at which each call of the talk was said (docs/web.md): Tertz swaps and declares at any
trick (docs/rules.md §12.3, §12.5), and the page showed the seven drawn twice (from the
talon, then as the last, turned card) with the swap only in the deal's talk, and a
declaration at the fourth trick as if made with the first, nothing saying when."""

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
from deberc_net.testing import build_talon_deck, new_match, play, rule_book, say
from tests.tertz.helpers import (
    LATE0,
    LATE1,
    LATE_TALON,
    RULES,
    first_card,
    swapped_at_trick_two,
)

from .conftest import WebServer

TRICKS = re.compile(r'<ol class="tricks">(.*?)</ol>', re.S)
ITEM = re.compile(r"<li>(.*?)</li>", re.S)
TALK = re.compile(r'<p class="talk">(.*?)</p>', re.S)


def _played_out(match: Match) -> Match:
    while not match.over:
        seat = match.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    return match


def _played() -> Match:
    """bob, who lost the first trick, swaps his 7♥ for the turned K♥ before his card
    in the second (ann led 7♠); then the match is played out."""
    return _played_out(swapped_at_trick_two())


def _declared_late() -> Match:
    """ann draws a terts (7-8-9♣) and declares it at the third trick, which grows to a
    fifty (the 10♣) that she declares at the fourth; then the match is played out."""
    match = new_match(RULES, build_talon_deck(LATE0, LATE1, "Kh", LATE_TALON))
    play(match, "Ad 10d")
    say(match, 1, "lomayu-1")
    play(match, "9d Jd 9s")
    say(match, 0, "terts")
    play(match, "7s 8d")
    say(match, 0, "pyatdesyat")
    return _played_out(match)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html)))


async def _pages(match: Match, db_path: Path, start_web: Callable[..., Any]) -> list[str]:
    """The match's /games/m1 as stored by a server, its players ann and bob: in English,
    then in Russian."""
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
    return [english.decode(), russian.decode()]


def test_the_replayed_trick_carries_the_swap() -> None:
    match = _played()
    deal = replay_match(list(match.records), rule_book()).deals[0]
    assert [t.swap for t in deal.tricks] == [None, (1, "Kh")] + [None] * 14
    assert match.records[0]["draws"][-1] == [0, "7h"]


@pytest.mark.timeout(60)
async def test_the_page_says_the_swap_at_its_trick(
    db_path: Path, start_web: Callable[..., Any]
) -> None:
    english, russian = await _pages(_played(), db_path, start_web)
    for body, said in (
        (english, "bob: menyayu, takes the turned K♥"),
        (russian, "bob: меняю, берёт открытую К♥"),
    ):
        text = [_text(t) for t in ITEM.findall(TRICKS.findall(body)[0])]
        assert [said in t for t in text] == [False, True] + [False] * 14, text[:3]


def test_the_replayed_talk_carries_the_trick_of_each_call() -> None:
    deal = replay_match(list(_declared_late().records), rule_book()).deals[0]
    said = list(zip(deal.talk, deal.talk_tricks, strict=True))
    # the break is said between the first trick and the second
    assert said[:3] == [((1, "lomayu 1"), 2), ((0, "terts"), 3), ((0, "pyatdesyat"), 4)]


@pytest.mark.timeout(60)
async def test_the_page_says_the_trick_of_a_later_declaration(
    db_path: Path, start_web: Callable[..., Any]
) -> None:
    english, russian = await _pages(_declared_late(), db_path, start_web)
    for body, said in (
        (english, "bob: lomayu 1 (trick 2); ann: terts (trick 3); ann: pyatdesyat (trick 4)"),
        (russian, "bob: ломаю 1 (взятка 2); ann: терц (взятка 3); ann: пятьдесят (взятка 4)"),
    ):
        assert said in _text(TALK.findall(body)[0]), _text(TALK.findall(body)[0])
