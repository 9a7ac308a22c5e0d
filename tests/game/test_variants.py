"""Three players, four players in pairs, and Kharkov against Moscow, with scripted deals
(docs/rules.md §8–9). Hands are built with ``build_deck_n``; every number is worked out by hand
in the comments."""

from __future__ import annotations

import pytest

from deberc_net.game import errors as E
from deberc_net.game.cards import cards_str, parse_card
from deberc_net.game.deal import BIDDING, PLAY, Deal
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.game.view import view
from deberc_net.testing import build_ruleset

from .decks import (
    D3,
    D3_PLAY,
    D3C,
    D3C_PLAY,
    D4,
    D4_PLAY,
    PAIRS,
    PAIRS_FIFTY,
    R3,
    R4,
    build_deck,
    build_deck_n,
    cards,
    legal,
    match3,
    match4,
    play,
    refused,
    rotate,
    say,
)


# ----------------------------------------------------------------- three players
def test_three_players_dealing_order() -> None:
    deck = build_deck_n(D3, 2, "7c", fresa="7d")
    # left of the dealer first: seat 0, seat 1, then the dealer, 3 cards at a time
    assert cards_str(deck[:3]) == "Jc,10s,Ah" and cards_str(deck[3:6]) == "Ac,Js,8h"
    assert cards_str(deck[6:9]) == "9c,Qs,9h" and cards_str(deck[9:12]) == "8s,Jh,Kc"
    assert deck[18] == parse_card("7c") and deck[31] == parse_card("7d")
    match = match3()
    deal = match.deal
    assert [cards_str(h) for h in deal.hands] == [
        "Jc,10s,Ah,8s,Jh,Kc",
        "Ac,Js,8h,9s,Qh,Qc",
        "9c,Qs,9h,As,10h,10c",
    ]
    assert deal.turned == parse_card("7c") and len(deal.talon) == 13
    assert deal.fresa is None and deal.turn == 0 and deal.phase == BIDDING
    say(match, 0, "igrayu")
    assert [h for h in deal.hands] == [cards(h) for h in D3]  # 3 more each, seat 0 first
    assert len(deal.talon) == 4 and deal.fresa == parse_card("7d")
    assert deal.talon == cards("7s 7h 8c 7d")
    assert (deal.player, deal.trump, deal.leader, deal.turn) == (0, 3, 0, 0)
    assert R3.settings.hand_size == 9


def test_three_players_bidding_order_and_all_pass() -> None:
    match = match3()
    deal = match.deal
    refused(deal, 1, "pas", E.NotYourTurn, "not-your-turn")
    refused(deal, 2, "igrayu", E.NotYourTurn, "not-your-turn")
    say(match, 0, "pas")
    refused(deal, 2, "pas", E.NotYourTurn, "not-your-turn")
    say(match, 1, "pas")
    assert legal(deal, 2) == ["pas", "igrayu"] and deal.bid_round == 1
    say(match, 2, "pas")
    # round 2, same order: another suit than the turned clubs
    assert deal.bid_round == 2 and deal.turn == 0
    assert legal(deal, 0) == ["pas", "igrayu-s", "igrayu-h", "igrayu-d"]
    refused(deal, 0, "igrayu-c", E.NotAllowed, "not-allowed")
    say(match, 0, "pas")
    say(match, 1, "pas")
    say(match, 2, "pas")
    assert match.records[0]["outcome"] == "void"
    assert match.deal.dealer == 0 and match.deal.deal_no == 2  # passed on clockwise


def test_three_players_second_bidder_orders_the_others_whistle() -> None:
    match = match3()
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    deal = match.deal
    assert deal.player == 1 and deal.phase == PLAY and deal.leader == 0
    play(match, D3_PLAY)
    rec = match.records[0]
    # seat 1's 48 against 71 + 43: a bide, his 48 split 24 and 24
    assert (rec["player"], rec["outcome"], rec["points"]) == (1, "bide", [71, 48, 43])
    assert rec["written"] == [71 + 24, 0, 43 + 24]


def test_three_players_bide_against_both_whistlers_split_in_half() -> None:
    match = match3()
    say(match, 0, "igrayu")
    play(match, D3_PLAY)
    rec = match.records[0]
    # 71 beats 48 and 43 alone but not 91 together: a bide. Half of 71 each, the odd
    # point to seat 1, who plays before seat 2.
    assert (rec["outcome"], rec["points"]) == ("bide", [71, 48, 43])
    assert rec["written"] == [0, 48 + 36, 43 + 35]
    assert match.totals == [0, 84, 78] and match.bides == [1, 0, 0]
    assert match.deal.dealer == 1  # wrote more


def test_three_players_odd_point_to_the_whistler_who_plays_earlier() -> None:
    # Dealer 0: seat 1 leads and holds D3's seat-0 hand, seat 2 plays next, seat 0 last.
    match = match3(rotate(D3, 1), dealer=0)
    say(match, 1, "igrayu")
    play(match, D3_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("bide", [43, 71, 48])
    # the odd point goes to seat 2 (plays second), not to seat 0 (lower number)
    assert rec["written"] == [43 + 35, 0, 48 + 36]
    assert match.deal.dealer == 2


def test_three_players_bide_to_leader_gives_all_to_the_better_whistler() -> None:
    rules = build_ruleset(3, options=["bide-to-leader"])
    match = match3(rules=rules)
    say(match, 0, "igrayu")
    play(match, D3_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("bide", [71, 48, 43])
    assert rec["written"] == [0, 48 + 71, 43]
    match = match3(rotate(D3, 1), dealer=0, rules=rules)
    say(match, 1, "igrayu")
    play(match, D3_PLAY)
    assert match.records[0]["written"] == [43, 0, 48 + 71]


def _combos_talk(match: Match) -> None:
    say(match, 0, "igrayu", "terts")
    play(match, "Jc")
    say(match, 1, "rost?")
    assert legal(match.deal, 0) == ["ot-K"]
    say(match, 0, "ot-K")
    assert legal(match.deal, 1) == ["ot-A", "pishet"]
    say(match, 1, "ot-A")  # terts to Ad beats the player's terts to Kh
    play(match, "Kc")
    say(match, 2, "rost?")  # the third seat asks the new best (seat 1)
    assert legal(match.deal, 1) == ["ot-A"]
    say(match, 1, "ot-A")
    assert legal(match.deal, 2) == ["pishet"]
    say(match, 2, "pishet")
    play(match, "Qc")


def test_three_players_whistlers_combinations_add_up_player_beats_one_only() -> None:
    match = match3(D3C)
    _combos_talk(match)
    deal = match.deal
    # the better whistler's terts (to A) beats the player's (to K): both whistlers score
    # theirs, although the player's terts beats seat 2's (to Q)
    assert deal.combo_points() == [0, 20, 20]
    play(match, D3C_PLAY)
    rec = match.records[0]
    assert rec["points"] == [103, 43 + 20, 16 + 20]
    # 103 > 63 + 36 = 99: made, everyone writes his own
    assert (rec["outcome"], rec["written"]) == ("made", [103, 63, 36])
    scored = {e["seat"]: [s["combo"] for s in e["scored"]] for e in rec["declared"]}
    assert scored == {0: [], 1: ["terts to Ad"], 2: ["terts to Qs"]}
    assert match.deal.dealer == 0


def test_three_players_player_scores_when_his_beats_both() -> None:
    match = match3(D3C)
    say(match, 0, "igrayu", "terts")
    play(match, "Jc Kc")  # seat 1 holds the better terts but does not declare it
    say(match, 2, "rost?")
    say(match, 0, "ot-K")
    assert legal(match.deal, 2) == ["pishet"]  # to Q loses to K
    say(match, 2, "pishet")
    play(match, "Qc")
    assert match.deal.combo_points() == [20, 0, 0]
    play(match, D3C_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [123, 43, 16], [123, 43, 16])


def test_three_players_prokhodit_is_answered_by_both_opponents_in_turn() -> None:
    # Trump hearts (turned Ah). Seat 0 holds the trump 7 and the trump terts 7h-9h;
    # seat 1 a terts 8s-10s (top 10 beats top 9); seat 2 no combination.
    hands = (
        "7h 8h 9h 7s Js Qd 8d 10c Kc",
        "8s 9s 10s Jh Ad 9d Jc Qc Ac",
        "Qs As 10h Kh 7d 10d Kd 7c 9c",
    )
    deal = Deal(
        rules=R3,
        deal_no=1,
        dealer=2,
        deck=build_deck_n(hands, 2, "Ah"),
        seed="t",
        totals_before=(0, 0, 0),
    )
    say(deal, 0, "igrayu")
    assert legal(deal, 0)[:3] == ["menyayu", "prokhodit?", "terts"]
    say(deal, 0, "prokhodit?")
    assert deal.to_act == 1 and legal(deal, 1) == ["ne-prokhodit"]
    assert legal(deal, 2) == []
    refused(deal, 2, "prokhodit", E.AnswerRequired, "answer-required")
    refused(deal, 1, "prokhodit", E.AnswerRequired, "answer-required")
    say(deal, 1, "ne-prokhodit")
    # then the second opponent answers for his own cards: nothing beats the trump terts
    assert deal.pending is not None and deal.to_act == 2
    assert legal(deal, 2) == ["prokhodit"]
    refused(deal, 2, "ne-prokhodit", E.AnswerRequired, "answer-required")
    say(deal, 2, "prokhodit")
    assert deal.pending is None and deal.to_act == 0
    assert "prokhodit?" not in legal(deal, 0) and "menyayu" in legal(deal, 0)
    talk = [(e.seat, e.call.token()) for e in deal.log]
    assert talk == [(0, "igrayu"), (0, "prokhodit?"), (1, "ne-prokhodit"), (2, "prokhodit")]


# ----------------------------------------------------------------- four players
def test_four_players_deal_six_then_two_turned_card_to_the_dealer() -> None:
    deck = build_deck_n(D4, 3, "Kc")
    assert cards_str(deck[:3]) == "Jc,9c,As" and cards_str(deck[9:12]) == "8c,9s,9h"
    assert deck[24] == parse_card("Kc")
    assert cards_str(deck[25:]) == "Kh,Kd,10h,10d,Jh,Jd,Qd"  # 2, 2, 2, then 1 to the dealer
    match = match4()
    deal = match.deal
    assert [len(h) for h in deal.hands] == [6, 6, 6, 6] and len(deal.talon) == 7
    assert view(match, 0).turned == parse_card("Kc")
    for seat in (1, 2, 3):
        refused(deal, seat, "pas", E.NotYourTurn, "not-your-turn")
    say(match, 0, "pas")
    say(match, 1, "pas")
    say(match, 2, "pas")
    assert deal.turn == 3 and legal(deal, 3) == ["pas", "igrayu"]
    say(match, 3, "igrayu")  # the dealer orders in the turned suit
    assert [len(h) for h in deal.hands] == [8, 8, 8, 8] and deal.talon == []
    assert sorted(deal.hands[3]) == sorted(cards(D4[3]))
    assert parse_card("Kc") in deal.hands[3]
    assert deal.fresa is None and view(match, 0).fresa is None
    assert view(match, 1).turned is None  # it lies in the dealer's hand now
    assert (deal.player, deal.leader, deal.turn) == (3, 0, 0)
    assert R4.settings.hand_size == 8


def test_four_players_no_seven_swap() -> None:
    match = match4()
    say(match, 0, "igrayu")
    play(match, "Jc")
    deal = match.deal
    # seat 1 holds the trump 7 in the first trump: no swap with four players
    assert deal.first_trump and parse_card("7c") in deal.hands[1]
    assert "menyayu" not in legal(deal, 1) and "prokhodit?" not in legal(deal, 1)
    refused(deal, 1, "menyayu", E.NotAllowed, "not-allowed")
    assert not R4.settings.seven_swap and not R4.settings.fresa


def test_four_players_bide_against_a_pair() -> None:
    match = match4()
    say(match, 0, "igrayu")
    play(match, D4_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("bide", [73, 89])
    assert rec["written"] == [0, 162] and match.totals == [0, 162]
    assert rec["player"] == 0 and match.bides == [1, 0]
    # the pair 1+3 wrote more: its first seat clockwise of the dealer (3) deals
    assert match.deal.dealer == 1


def test_four_players_made_by_a_pair() -> None:
    match = match4()
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, D4_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [73, 89], [73, 89])
    assert match.deal.dealer == 1


def test_four_players_next_dealer_is_the_first_of_the_pair_clockwise() -> None:
    # Dealer 0, hands moved one seat on: pair 1+3 plays D4's 0+2 cards.
    match = match4(rotate(D4, 1), dealer=0)
    say(match, 1, "igrayu")
    play(match, D4_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("bide", [89, 73], [162, 0])
    # the pair 0+2 wrote more; clockwise from dealer 0 its first seat is 2, not 0
    assert match.deal.dealer == 2


def pairs_deal(hands: tuple[str, ...], rules: RuleSet = R4) -> Deal:
    deal = Deal(
        rules=rules,
        deal_no=1,
        dealer=3,
        deck=build_deck_n(hands, 3, "Kc"),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu")
    return deal


@pytest.mark.parametrize("pair_combinations", [False, True])
def test_four_players_partner_adds_his_sequence(pair_combinations: bool) -> None:
    rules = build_ruleset(4, options=["pair-combinations"] if pair_combinations else [])
    deal = pairs_deal(PAIRS, rules)
    say(deal, 0, "terts")
    play(deal, "7d")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-K")
    say(deal, 1, "pishet")
    play(deal, "8d")
    # seat 2's terts is as long as his partner's: no rost? against one's partner
    assert "rost?" not in legal(deal, 2) and "terts" not in legal(deal, 2)
    err = refused(deal, 2, "rost?", E.NotAllowed, "not-allowed")
    assert "partner" in err.message
    assert "pokazhi" not in legal(deal, 2)  # nor a show
    play(deal, "Jd")
    # seat 3 has no combination: he may only ask to see
    assert [t for t in legal(deal, 3) if not t[0].isdigit() and t[0] not in "JQKA"] == ["pokazhi"]
    play(deal, "Ad")  # seat 3 takes the trick
    assert deal.tally.card_points == [0, 13]
    if not pair_combinations:
        # seeds 003, 004: only the owner of the best scores; his partner's terts does not
        assert deal.combo_points() == [20, 0]
        assert sorted(deal.tally.scoring_combos or {}) == [0]
        return
    # pair-combinations: seat 0's terts and seat 2's (never declared) both score, and the
    # record lists seat 2's too (it said nothing, so no calls)
    assert deal.combo_points() == [40, 0]
    assert sorted(deal.tally.scoring_combos or {}) == [0, 2]
    listed = {d["seat"]: d for d in deal.record()["declared"]}
    assert listed[2] == {
        "seat": 2,
        "calls": [],
        "scored": [{"combo": "terts to 9s", "cards": ["7s", "8s", "9s"], "points": 20}],
    }


def test_four_players_partner_with_a_longer_combination_declares_it() -> None:
    deal = pairs_deal(PAIRS_FIFTY)
    say(deal, 0, "terts")
    play(deal, "7d")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-K")
    say(deal, 1, "pishet")
    play(deal, "8d")
    assert "pyatdesyat" in legal(deal, 2)
    say(deal, 2, "pyatdesyat")
    assert deal.best is not None and deal.best.seat == 2
    play(deal, "Jd Ad")
    assert deal.combo_points() == [50, 0]  # the fifty alone: seat 0's terts does not count


def test_four_players_opponents_best_takes_it_from_the_pair() -> None:
    # seat 1 with a terts to A against seat 0's to K: the pair 1+3 scores, seat 2's
    # terts does not count
    hands = (
        "Jh Qh Kh 7c Qc 7d As 10s",
        "Qd Kd Ad 8c 9c Ah 10h Ks",
        "7s 8s 9s Jc 10c Jd 8d 9h",
        "Kc Ac Js Qs 7h 8h 9d 10d",
    )
    deal = pairs_deal(hands)
    say(deal, 0, "terts")
    play(deal, "7d")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-K")
    say(deal, 1, "ot-A")
    play(deal, "Qd")
    # seat 2 may now ask rost? of the opponent who holds the best; his to 9 loses
    assert "rost?" in legal(deal, 2)
    say(deal, 2, "rost?")
    say(deal, 1, "ot-A")
    assert legal(deal, 2) == ["pishet"]
    say(deal, 2, "pishet")
    play(deal, "Jd 10d")  # seat 3 takes 7d Qd Jd 10d: 15
    assert deal.combo_points() == [0, 20] and deal.tally.card_points == [0, 15]
    assert sorted(deal.tally.scoring_combos or {}) == [1]


def test_four_players_partner_exemption_legal_cards() -> None:
    # Trump clubs. Seat 2 (seat 0's partner) holds Jc Qc 8c, hearts and diamonds, no
    # spades.
    hands = (
        "9c Js Qs As 7h 8h 7d 8d",
        "7c 7s 9s 10s 9h 10h 9d 10d",
        "8c Jc Qc Jh Kh Ah Jd Ad",
        "10c Kc Ac 8s Ks Qh Qd Kd",
    )
    deck = build_deck_n(hands, 3, "Kc")
    default = build_ruleset(4)
    exempt = build_ruleset(4, options=["partner-exemption"])

    def deal_for(rules: RuleSet, lead: str) -> Deal:
        deal = Deal(rules=rules, deal_no=1, dealer=3, deck=deck, seed="t", totals_before=(0, 0))
        say(deal, 0, "igrayu")
        play(deal, lead)
        return deal

    def cards_of(deal: Deal, seat: int) -> list[str]:
        return sorted(t for t in legal(deal, seat) if t[0] in "789JQKA1")

    # trump led, the partner wins with 9c: default must overtrump with Jc
    deal = deal_for(default, "9c 7c")
    assert cards_of(deal, 2) == ["Jc"]
    refused(deal, 2, "8c", E.MustOvertrump, "must-overtrump")
    deal = deal_for(exempt, "9c 7c")
    assert cards_of(deal, 2) == ["8c", "Jc", "Qc"]  # follow suit, no overtrumping
    refused(deal, 2, "Ah", E.MustFollowSuit, "must-follow-suit")
    play(deal, "8c")
    assert cards_of(deal, 3) == ["10c", "Ac", "Kc"]  # an opponent: nothing beats 9c
    # plain lead won by the partner, seat 2 void: default must trump, exempt: anything
    deal = deal_for(default, "As 7s")
    assert cards_of(deal, 2) == ["8c", "Jc", "Qc"]
    deal = deal_for(exempt, "As 7s")
    assert cards_of(deal, 2) == sorted(hands[2].split())
    play(deal, "Jd")
    assert deal.trick.cards[-1] == (2, parse_card("Jd"))
    # the opponent wins the trick: no exemption, seat 2 must trump
    deal = deal_for(exempt, "Qs 10s")
    assert cards_of(deal, 2) == ["8c", "Jc", "Qc"]
    refused(deal, 2, "Jd", E.MustTrump, "must-trump")


# ----------------------------------------------------------------- Kharkov vs Moscow
# Trump clubs (turned Kc). Seat 0 (leads) terts 10s-Qs, seat 1 the trump terts 10c-Qc:
# same length, same top. Tricks: 8c Qc -> 1: 3; 9d Kd -> 0: 4; 8d Jc -> 1: 20;
# 10h Jh -> 1: 12; 8h 9h -> 0: 0; 7h Ah -> 1: 11; 9s Qs -> 0: 3; Js 7s -> 0: 2;
# 10s 10c -> 1: 20+10. Cards: [9, 76].
KH = ("10s Js Qs 7h 9h Jh 8d Kd 8c", "10c Jc Qc 7s 9s Ah 8h 10h 9d", "Kc")
KH_PLAY = "8c Qc 9d Kd 8d Jc 10h Jh 8h 9h 7h Ah 9s Qs Js 7s 10s 10c"


def kharkov_or_moscow(variant: str) -> Match:
    match = Match(build_ruleset(2, variant), seed="kh", dealer=1, decks={1: build_deck(*KH)})
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    say(match, 0, "terts")
    play(match, "8c")
    say(match, 1, "rost?")
    say(match, 0, "ot-Q")
    return match


def test_moscow_equal_combinations_the_trump_one_wins() -> None:
    match = kharkov_or_moscow("moscow")
    assert legal(match.deal, 1) == ["ot-Q-kozyrnogo", "pishet"]
    say(match, 1, "ot-Q-kozyrnogo")
    play(match, KH_PLAY[3:])
    rec = match.records[0]
    assert rec["variant"] == "moscow"
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [9, 96], [9, 96])


def test_kharkov_equal_combinations_the_earlier_declared_wins() -> None:
    match = kharkov_or_moscow("kharkov")
    assert legal(match.deal, 1) == ["pishet"]  # trump does not matter: seat 0 was first
    refused(match.deal, 1, "ot-Q-kozyrnogo", E.FalseDeclaration, "false-declaration")
    say(match, 1, "pishet")
    play(match, KH_PLAY[3:])
    rec = match.records[0]
    assert rec["variant"] == "kharkov"
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [29, 76], [29, 76])


def test_kharkov_still_ranks_by_length_and_top_card() -> None:
    key = build_ruleset(2, "kharkov").combo_key
    deal = Deal(
        rules=build_ruleset(2, "kharkov"),
        deal_no=1,
        dealer=1,
        deck=build_deck(*KH),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu")
    plain_q, trump_q = deal.best_combo(0), deal.best_combo(1)
    assert plain_q is not None and trump_q is not None
    assert key(plain_q, deal.trump) == key(trump_q, deal.trump)
    moscow = build_ruleset(2).combo_key
    assert moscow(trump_q, deal.trump) > moscow(plain_q, deal.trump)
