"""Deal records of scripted deals: the documented keys, and replays (docs/records.md)."""

from __future__ import annotations

import copy
import json

from deberc_net.game.calls import PLAY
from deberc_net.game.cards import card_str
from deberc_net.game.match import Match
from deberc_net.game.record import replay_deal, replay_matches
from deberc_net.testing import RECORD_KEYS, build_ruleset

from .decks import EVEN, EVEN_PLAY, SIMPLE, SIMPLE_PLAY, build_deck, play, say

R = build_ruleset()


def finish_deal(match: Match) -> None:
    """Play the first legal card for whoever is to act until the deal is recorded."""
    done = len(match.records)
    while len(match.records) == done:
        seat = match.to_act
        assert seat is not None
        card = next(c for c in match.legal_calls(seat) if c.name == PLAY)
        match.apply(seat, card)


def assert_replays(match: Match) -> None:
    for rec in match.records:
        assert rec.keys() >= RECORD_KEYS
        json.dumps(rec)  # plain JSON values only
        assert replay_matches(rec, R)
        # the check can fail: a wrong written score is caught
        bad = copy.deepcopy(rec)
        bad["written"] = [w + 1 for w in rec["written"]]
        assert not replay_matches(bad, R)


def test_record_of_a_made_deal() -> None:
    deck = build_deck(*SIMPLE)
    match = Match(R, seed="t", dealer=1, decks={1: deck})
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    rec = match.records[0]
    assert rec.keys() >= RECORD_KEYS
    assert rec["format"] == "deberc-deal/1"
    assert (rec["table"], rec["match"], rec["deal_no"], rec["seed"]) == ("local", "1", 1, "t/1")
    assert (rec["variant"], rec["options"]) == ("moscow", [])
    assert rec["players"] == ["seat0", "seat1"]
    assert rec["dealer"] == 1
    assert rec["deck"] == [card_str(c) for c in deck]
    assert rec["deck"][:3] == ["Jc", "9c", "Ac"] and rec["deck"][12] == "8c"
    assert rec["calls"][:3] == [
        {"seat": 0, "call": "igrayu", "ms": 0},
        {"seat": 0, "call": "play", "card": "Jc", "ms": 0},
        {"seat": 1, "call": "play", "card": "Kc", "ms": 0},
    ]
    assert len(rec["calls"]) == 19
    assert (rec["trump"], rec["player"], rec["first_trump"]) == ("c", 0, True)
    assert (rec["turned"], rec["fresa"]) == ("8c", "Qc")
    assert rec["tricks"][0] == {"leader": 0, "cards": ["Jc", "Kc"], "winner": 0}
    assert rec["tricks"][-1] == {"leader": 1, "cards": ["Kh", "7d"], "winner": 1}
    assert rec["declared"] == []
    assert (rec["points"], rec["written"], rec["hanging"]) == ([92, 35], [92, 35], 0)
    assert (rec["totals_before"], rec["totals"], rec["outcome"]) == ([0, 0], [92, 35], "made")
    assert rec["void_reason"] is None and "match_over" not in rec
    assert_replays(match)
    replayed = replay_deal(rec, R).result
    assert replayed is not None and replayed.score.written == [92, 35]


def test_records_of_void_hanging_and_resolved_deals_replay() -> None:
    sevens = build_deck("7s 7h 7d 7c 9s Jd 8d 10c Kc", "8s 9h 10s Jh Ad 9d Jc Qc Ac", "Ah")
    match = Match(
        R,
        seed="t",
        dealer=1,
        decks={
            1: build_deck(*SIMPLE),
            2: sevens,
            3: build_deck(*EVEN),
            4: build_deck(*SIMPLE),
        },
    )
    for seat in (0, 1, 0, 1):
        say(match, seat, "pas")  # deal 1: void, seat 0 deals next
    say(match, 1, "chetyre-semerki")  # deal 2: seat 1 (the opponent) shows the sevens
    say(match, 1, "pas")
    say(match, 0, "igrayu")  # deal 3: dealt by seat 0 again; seat 0 plays and hangs
    play(match, EVEN_PLAY)
    say(match, 0, "igrayu")  # deal 4: dealt by seat 1, the whistler
    play(match, SIMPLE_PLAY)
    outcomes = [(r["dealer"], r["outcome"], r["void_reason"]) for r in match.records]
    assert outcomes == [
        (1, "void", "all passed"),
        (0, "void", "sevens"),
        (0, "hanging", None),
        (1, "made", None),
    ]
    assert [r["written"] for r in match.records] == [[0, 0], [0, 0], [0, 35], [92 + 35, 35]]
    assert match.totals == [127, 70]
    assert_replays(match)


def test_record_of_the_table_talk_replays() -> None:
    # Trump hearts (turned Ah): seat 0 asks prokhodit?, swaps; seat 1 asks rost? and wins.
    deck = build_deck("7h 8h 9h 7s Js Qd Kh Qh 10c", "8s 9s 10s Jh Ad 9d Jc Qc Ac", "Ah")
    match = Match(R, seed="t", dealer=1, decks={1: deck})
    say(match, 0, "igrayu", "prokhodit?")
    say(match, 1, "ne-prokhodit")
    say(match, 0, "terts", "bella")  # terts 7h-9h in trump; bella Kh Qh
    play(match, "Qh")
    say(match, 1, "rost?")
    say(match, 0, "ot-9-kozyrnogo")
    say(match, 1, "ot-10", "Jh")  # terts 8s-10s: the higher top card wins
    finish_deal(match)
    rec = match.records[0]
    assert rec["declared"] == [
        {"seat": 0, "calls": ["terts", "ot-9-kozyrnogo"], "scored": []},
        {
            "seat": 1,
            "calls": ["rost?", "ot-10"],
            "scored": [{"combo": "terts to 10s", "cards": ["8s", "9s", "10s"], "points": 20}],
        },
        {"seat": 0, "calls": ["bella"], "scored": [{"combo": "bella", "points": 20}]},
    ]
    calls = [(c["seat"], c["call"]) for c in rec["calls"][:9]]
    assert calls == [
        (0, "igrayu"),
        (0, "prokhodit?"),
        (1, "ne-prokhodit"),
        (0, "terts"),
        (0, "bella"),
        (0, "play"),
        (1, "rost?"),
        (0, "ot"),
        (1, "ot"),
    ]
    assert rec["calls"][7] == {"seat": 0, "call": "ot", "rank": "9", "trump": True, "ms": 0}
    assert_replays(match)


def test_record_with_skin_and_a_claim_replays() -> None:
    deck = build_deck("Js Qs Ks 7h 9h Jh 8d 10d 8c", "7d Kd Ad 7s 9s Ah 8h 10h 9c", "Kc")
    match = Match(R, seed="t", dealer=1, decks={1: deck})
    match.set_standing([0, 490])
    say(match, 0, "igrayu", "terts")
    play(match, "7h")
    say(match, 1, "pokazhi")
    say(match, 0, "skin")
    play(match, "Ah")  # 11 points: 501, a claim
    rec = match.records[0]
    assert rec["outcome"] == "claim" and rec["written"] == [20, 11]
    assert rec["match_over"] == {"winner": 1, "reason": "claim"}
    # made by the engine, not by a clock: no "auto" (docs/records.md)
    assert rec["calls"][-1] == {"seat": 0, "call": "pokazyvayu", "ms": 0, "engine": True}
    assert_replays(match)
