"""The engine says what happened: Deal.apply / Match.apply / forfeit / stop return events."""

from __future__ import annotations

import random

import pytest

from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.calls import Call
from deberc_net.game.deal import Deal
from deberc_net.game.errors import IllegalCall
from deberc_net.game.match import Match
from deberc_net.game.record import replay_deal
from deberc_net.game.rules import RuleSet
from deberc_net.testing import build_ruleset

from .decks import SIMPLE, SIMPLE_PLAY, build_deck, cards, parse

R = build_ruleset()
TERTS_K = "Js Qs Ks 7h 9h Jh 8d 10d 8c"  # terts Js-Ks, nothing else
NOTHING = "7d Kd Ad 7s 9s Ah 8h 10h 9c"  # no sequence


def deal2(
    other: str, dealer: str, turned: str = "Kc", fresa: str | None = None, rules: RuleSet = R
) -> Deal:
    deck = build_deck(other, dealer, turned, fresa)
    return Deal(
        rules=rules,
        deal_no=1,
        dealer=1,
        deck=deck,
        seed="t",
        totals_before=(0, 0),
    )


def apply(target: Deal | Match, seat: int, text: str) -> list[g.MatchEvent]:
    return list(target.apply(seat, parse(text)))


def test_bidding_calls_then_the_order_with_the_fresa() -> None:
    deal = deal2(TERTS_K, NOTHING, fresa="Ac")
    assert apply(deal, 0, "pas") == [g.CallMade(0, Call(C.PAS))]
    assert apply(deal, 1, "igrayu") == [
        g.CallMade(1, Call(C.IGRAYU)),
        g.Ordered(player=1, trump=3, first=True, fresa=cards("Ac")[0]),
    ]


def test_a_hidden_fresa_is_not_told() -> None:
    rules = build_ruleset(2, options=["fresa-hidden"])
    deal = deal2(TERTS_K, NOTHING, fresa="Ac", rules=rules)
    assert apply(deal, 0, "igrayu")[-1] == g.Ordered(0, 3, True, None)


def test_a_card_and_the_trick_it_completes() -> None:
    deal = deal2(TERTS_K, NOTHING)
    apply(deal, 0, "igrayu")
    [first] = apply(deal, 0, "7h")
    assert first == g.CardPlayed(0, cards("7h")[0])
    assert apply(deal, 1, "Ah") == [
        g.CardPlayed(1, cards("Ah")[0]),
        g.TrickTaken(1, tuple(cards("7h Ah"))),
    ]


def test_a_declaration_shown_on_demand() -> None:
    deal = deal2(TERTS_K, NOTHING)
    apply(deal, 0, "igrayu")
    assert apply(deal, 0, "terts") == [g.CallMade(0, Call(C.TERTS))]
    apply(deal, 0, "7h")
    assert apply(deal, 1, "pokazhi") == [g.CallMade(1, Call(C.POKAZHI))]
    assert apply(deal, 0, "pokazyvayu") == [
        g.CallMade(0, Call(C.POKAZYVAYU)),
        g.Shown(0, tuple(cards("Js Qs Ks"))),
    ]


def test_skin_the_engine_shows_after_the_card_before_the_trick_is_taken() -> None:
    """The cards go face up when the demander has played, before the trick his card
    completes is taken: a tryout read «показываю», the trick, then the cards (s27)."""
    deal = deal2(TERTS_K, NOTHING)
    apply(deal, 0, "igrayu")
    apply(deal, 0, "terts")
    apply(deal, 0, "7h")
    apply(deal, 1, "pokazhi")
    assert apply(deal, 0, "skin") == [g.CallMade(0, Call(C.SKIN))]
    # the engine's own pokazyvayu comes with the card that completes the trick
    assert apply(deal, 1, "8h") == [
        g.CardPlayed(1, cards("8h")[0]),
        g.CallMade(0, Call(C.POKAZYVAYU), engine=True),
        g.Shown(0, tuple(cards("Js Qs Ks"))),
        g.TrickTaken(1, tuple(cards("7h 8h"))),
    ]


def test_a_refused_call_tells_nothing_and_a_penalty_is_told() -> None:
    deal = deal2(TERTS_K, NOTHING)
    apply(deal, 0, "igrayu")
    with pytest.raises(IllegalCall):
        apply(deal, 1, "Ah")  # not his turn
    rules = build_ruleset(2, options=["table-penalties"])
    deal = deal2(TERTS_K, NOTHING, rules=rules)
    apply(deal, 0, "igrayu")
    apply(deal, 0, "7h")
    assert apply(deal, 1, "9c") == [g.Penalized(1, parse("9c"), "must-follow-suit")]


def test_a_pause_after_the_order_then_the_last_cards() -> None:
    match = Match(
        build_ruleset(2, options=["poltinniki"]), seed="e", dealer=1, decks={1: build_deck(*SIMPLE)}
    )
    assert apply(match, 0, "igrayu") == [g.CallMade(0, Call(C.IGRAYU)), g.Ordered(0, 3, True, None)]
    fresa = match.deal.deck[-1]
    assert apply(match, 1, "igraem") == [g.CallMade(1, Call("igraem")), g.Dealt(fresa)]


def test_a_deal_ends_and_the_next_starts() -> None:
    match = Match(R, seed="e", dealer=1, decks={1: build_deck(*SIMPLE)})
    apply(match, 0, "igrayu")
    tokens = SIMPLE_PLAY.split()
    for token in tokens[:-1]:
        seat = match.to_act
        assert seat is not None
        apply(match, seat, token)
    seat = match.to_act
    assert seat is not None
    events = apply(match, seat, tokens[-1])
    *play, ended, started = events
    assert isinstance(play[-1], g.TrickTaken)
    record = match.records[0]
    assert ended == g.DealEnded(
        1, "made", (92, 35), (92, 35), (92, 35), 0, record, seed_told=False, bides=(0, 0)
    )
    assert ended.record is record
    assert started == g.DealStarted(2, 0, match.deal.turned, (92, 35), 0, bides=(0, 0))
    assert started == match.deal_started()


def test_a_deal_limit_ends_the_match_after_the_deal() -> None:
    match = Match(R, seed="e", dealer=1, decks={1: build_deck(*SIMPLE)}, deal_limit=1)
    apply(match, 0, "igrayu")
    events: list[g.MatchEvent] = []
    for token in SIMPLE_PLAY.split():
        seat = match.to_act
        assert seat is not None
        events = apply(match, seat, token)
    *_, ended, end = events
    # the last deal of a limited match: its record may carry the seed (docs/protocol.md §14)
    assert isinstance(ended, g.DealEnded) and ended.seed_told
    assert end == g.MatchEnded(0, ("seat0",), "deals", (92, 35), "e", deals=1)
    assert match.over and match.deal.deal_no == 1


def test_the_servers_most_deals_end_a_match_whose_deals_all_void() -> None:
    # hostile tryout (s24): two players passing every deal played 18,000 void deals in
    # 20 s, one match, its records, memory and replay growing without end
    match = Match(R, seed="v", most_deals=3)
    events: list[g.MatchEvent] = []
    while not match.over:
        seat = match.to_act
        assert seat is not None
        events = apply(match, seat, "pas")
    assert len(match.records) == 3 and all(r["outcome"] == "void" for r in match.records)
    *_, ended, end = events
    assert isinstance(ended, g.DealEnded) and ended.seed_told
    assert end == g.MatchEnded(None, (), "most-deals", (0, 0), "v", deals=3)  # level: a draw
    ahead = Match(R, seed="e", dealer=1, decks={1: build_deck(*SIMPLE)}, most_deals=1)
    apply(ahead, 0, "igrayu")
    for token in SIMPLE_PLAY.split():
        seat = ahead.to_act
        assert seat is not None
        events = apply(ahead, seat, token)
    assert events[-1] == g.MatchEnded(
        0, ("seat0",), "most-deals", (92, 35), "e", deals=1
    )  # ahead wins


def test_forfeit_and_stop() -> None:
    match = Match(R, seed="e", dealer=1, decks={1: build_deck(*SIMPLE)})
    apply(match, 0, "igrayu")
    apply(match, 0, "Jc")
    abandoned, end = match.forfeit(0, "timeouts", seat=0)
    assert abandoned == g.DealAbandoned(
        1, match.records[0], (0, 0), (0, 0), match_over=g.MatchOver(1, "timeouts", forfeit=0)
    )
    assert abandoned.record["outcome"] == "timeouts"
    assert end == g.MatchEnded(1, ("seat1",), "timeouts", (0, 0), "e", forfeit=0, deals=1)
    assert match.forfeit(1, "away") == [] and match.stop("deals") == []
    fresh = Match(R, seed="e")
    assert fresh.forfeit(1, "left", seat=1) == [  # nothing played: no deal to record
        g.MatchEnded(0, ("seat0",), "left", (0, 0), "e", forfeit=1, deals=0)
    ]
    pairs = Match(build_ruleset(4), seed="e", names=("a", "b", "c", "d"))
    assert pairs.stop("deals") == [g.MatchEnded(None, (), "deals", (0, 0), "e", deals=0)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_events_fold_into_the_records(players: int) -> None:
    """Every card, call and trick the records hold was told, in order, and nothing else."""
    rng = random.Random(players)
    match = Match(build_ruleset(players), seed=f"fold{players}")
    told: list[g.MatchEvent] = [match.deal_started()]
    while not match.over:
        seat = match.to_act
        assert seat is not None
        told += match.apply(seat, rng.choice(match.legal_calls(seat)))
    deals: list[list[g.MatchEvent]] = []
    for event in told:
        if isinstance(event, g.DealStarted):
            deals.append([])
        deals[-1].append(event)
    assert len(deals) == len(match.records)
    for events, record in zip(deals, match.records, strict=True):
        calls = [
            (e.seat, e.call.token() if isinstance(e, g.CallMade) else e.card)
            for e in events
            if isinstance(e, g.CallMade | g.CardPlayed)
        ]
        rebuilt = replay_deal(record, match.rules)
        assert calls == [
            (e.seat, e.call.card if e.call.card is not None else e.call.token())
            for e in rebuilt.log
        ]
        tricks = [e for e in events if isinstance(e, g.TrickTaken)]
        assert [(t.winner, list(t.cards)) for t in tricks] == [
            (t.winner, [c for _, c in t.cards]) for t in rebuilt.tricks
        ]
        [ended] = [e for e in events if isinstance(e, g.DealEnded)]
        assert ended.record is record and list(ended.totals) == record["totals"]
    assert isinstance(told[-1], g.MatchEnded) and told[-1].totals == tuple(match.totals)


# Seat 1 (the dealer) holds the trump 7c among his first six cards; turned 8c.
SWAP = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s 7c Ah 10h Kh", "8c")


@pytest.mark.parametrize("answer", ["menyayu", "ne-menyayu"])
def test_swap_before_extra_the_order_then_the_last_cards_after_the_answers(
    answer: str,
) -> None:
    match = Match(
        build_ruleset(2, options=["swap-before-extra"]),
        seed="e",
        dealer=1,
        decks={1: build_deck(*SWAP)},
    )
    assert apply(match, 0, "igrayu") == [
        g.CallMade(0, Call(C.IGRAYU)),
        g.Ordered(0, 3, True, None),
    ]  # nothing dealt yet
    assert apply(match, 0, "ne-menyayu") == [g.CallMade(0, parse("ne-menyayu"))]
    fresa = match.deal.deck[-1]
    assert apply(match, 1, answer) == [g.CallMade(1, parse(answer)), g.Dealt(fresa)]


def test_show_combination_the_engine_shows_with_the_first_card() -> None:
    # seat 0 leads and holds the terts 7h-9h
    other, dealer = "7h 8h 9h Ah 7s 9s 7d 8d Kc", "Qh Kh 10h As 10s Ks Ad 10d Jc"
    match = Match(
        build_ruleset(2, options=["show-combination"]),
        seed="e",
        dealer=1,
        decks={1: build_deck(other, dealer, "7c")},
    )
    apply(match, 0, "igrayu")
    apply(match, 0, "terts")
    assert apply(match, 0, "7d") == [
        g.CardPlayed(0, cards("7d")[0]),
        g.CallMade(0, Call(C.POKAZYVAYU), engine=True),
        g.Shown(0, tuple(cards("7h 8h 9h"))),
    ]
