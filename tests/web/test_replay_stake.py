"""A dave game's replay (/games/ID) says the stake a deal was played for where a dave
raised it, as the table told it at the raise and `history` says it ('The deal was
played for 3.', «Раздача игралась на 3.»): it showed the talk's 'dave', 'prinimayu' and
written 3 : -3, never the stake; from the rebuilt deal. A deal at stake 1 says nothing."""

from __future__ import annotations

import re
from pathlib import Path

import trio

from deberc_net.game.match import Match
from deberc_net.server.web.replay import replay_match
from deberc_net.testing import build_deck, build_ruleset, parse, rule_book
from tests.game.decks import SIMPLE, SIMPLE_PLAY
from tests.server.client import LineClient, fields
from tests.server.conftest import Connector

from .servers import web_server

STAKE = re.compile(r'<p class="stake">(.*?)</p>')


def _played(script: list[tuple[int | None, str]]) -> Match:
    rules = build_ruleset(2, options=("dave",))
    match = Match(rules, seed="stake", dealer=1, decks={1: build_deck(*SIMPLE)})
    for seat, tokens in script:
        for token in tokens.split():
            who = match.deal.to_act if seat is None else seat
            assert who is not None
            match.apply(who, parse(token))
    return match


def test_a_raised_stake_is_said_and_stake_1_is_not() -> None:
    twice: list[tuple[int | None, str]] = [(0, "igrayu dave"), (1, "prinimayu"), (None, "Jc")]
    twice += [(1, "dave"), (0, "prinimayu"), (None, SIMPLE_PLAY[len("Jc ") :])]
    raised = _played(twice)
    (deal,) = replay_match(list(raised.records), rule_book()).deals
    assert (deal.stake, deal.stake_ru) == ("The deal was played for 3.", "Раздача игралась на 3.")
    given_up = _played([(0, "igrayu dave"), (1, "prinimayu"), (None, "Jc"), (1, "dave")])
    given_up.apply(0, parse("sdayus"))
    (deal,) = replay_match(list(given_up.records), rule_book()).deals
    assert deal.stake == "The deal was played for 2."
    plain = _played([(0, "igrayu"), (None, SIMPLE_PLAY)])
    (deal,) = replay_match(list(plain.records), rule_book()).deals
    assert deal.stake == deal.stake_ru == ""


async def _raise_once_then_play(client: LineClient, raised: list[bool]) -> None:
    """The first to be offered dave says it, the other accepts; each orders when he
    may; every other ask is answered with its first legal call or card, never dave
    again."""
    while True:
        line = await client.read_until(lambda x: x.startswith(("ask ", "event ")), 20)
        tag, f = fields(line)
        if tag == "event" and f.get("kind") == "match-end":
            return
        if tag != "ask":
            continue
        legal = f["legal"].split(",")
        if "prinimayu" in legal:
            call = "prinimayu"
        elif "igrayu" in legal:
            call = "igrayu"
        elif "dave" in legal and not raised:
            raised.append(True)
            call = "dave"
        else:
            call = next(c for c in legal if c != "dave")
        await client.send(f"{call} seq={f['seq']}")


async def test_the_replay_page_says_it_in_both_languages(db_path: Path, connect: Connector) -> None:
    with trio.fail_after(50):
        async with web_server(db_path, match_seed="stake-page") as web:
            ann = await connect.machine(web.port, "ann")
            await ann.send("new 2 moscow dave")
            table = (await ann.expect("ok", cmd="sit"))["table"]
            bob = await connect.machine(web.port, "bob")
            await bob.send(f"sit {table}")
            raised: list[bool] = []
            async with trio.open_nursery() as nursery:
                for client in (ann, bob):
                    nursery.start_soon(_raise_once_then_play, client, raised)
            pages = [(await web.get(f"/games/m1?lang={lang}"))[1].decode() for lang in ("en", "ru")]
    assert raised
    assert STAKE.findall(pages[0]) == ["The deal was played for 2."]
    assert STAKE.findall(pages[1]) == ["Раздача игралась на 2."]
