"""The client's log says what the declarations scored after a deal's end, read from
the deal's record as the server's human style says it (a Tertz evening saw 'written
140 : 60' with the hundred that made it unsaid); in the table's words (mariage)."""

from __future__ import annotations

import json

from clients.play.state import TableState, fold_all
from deberc_net.game.deal import DONE
from deberc_net.protocol.lang import Lang
from deberc_net.testing import build_ruleset, build_talon_deck, legal, new_deal, play, say

RULES = build_ruleset(2, "tertz")


def _record() -> str:
    """A Tertz deal's record: seat 0 writes a terts, seat 1 its mariage."""
    deck = build_talon_deck(
        "7c 8c 9c Ad Kd 10s 8s 7s 9d",
        "10d Jd Qd Kh Qh Ks As Jh Qc",
        "9h",
        "8h 10h Ah 7h 7d 8d 9s Js Qs 10c Jc Kc",
    )
    deal = new_deal(RULES, deck)
    say(deal, 0, "terts")
    play(deal, "Ad")
    say(deal, 1, "bella")
    while deal.phase != DONE:
        seat = deal.to_act
        assert seat is not None
        say(deal, seat, legal(deal, seat)[-1])
    return json.dumps(deal.record(), separators=(",", ":"))


def _lines(lang: str) -> list[str]:
    return [
        f"ok cmd=login name=b1 guest=1 token=Tok123 lang={lang} text=Hello, b1 (guest).",
        "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
        "event seq=1 table=3 kind=seated name=b1 seat=0",
        "event seq=2 table=3 kind=seated name=b2 seat=1",
        "tables count=1 total=1 page=1 pages=1",
        "table id=3 players=2 variant=tertz options= seats=b1,b2 state=playing observers=0",
        "event seq=3 table=3 kind=start players=b1,b2 match=m3",
        "event seq=4 table=3 kind=deal deal=1 dealer=1 turned=9h score=0,0 hanging=0",
        "event seq=90 table=3 kind=deal-end deal=1 outcome=split points=90,100 "
        "written=90,100 totals=90,100 hanging=0",
        f"record table=3 deal=1 text={_record()}",
    ]


def test_the_combinations_scored_follow_the_deal_end() -> None:
    state = fold_all(_lines("en"))
    assert state.log[-2].startswith("deal 1 split: written 90 : 100")
    assert state.log[-1] == "Scored for combinations: b1 terts 20; b2 mariage 20."


def test_in_russian_too() -> None:
    state = fold_all(_lines("ru"), TableState(lang=Lang.RU))
    assert state.log[-1] == "За комбинации: b1 терц 20; b2 марьяж 20."
