"""Dealing and bidding with scripted decks (docs/rules.md §2)."""

from __future__ import annotations

import pytest

from deberc_net.game import errors as E
from deberc_net.game.cards import parse_card
from deberc_net.game.deal import Deal
from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset

from .decks import EVEN, SIMPLE, build_deck, cards, legal, refused, say

R = build_ruleset()
IDENTITY = tuple(range(32))  # 7s 8s ... As 7h ... Ac


def new_deal(deck: tuple[int, ...], dealer: int = 1) -> Deal:
    return Deal(rules=R, deal_no=1, dealer=dealer, deck=deck, seed="t", totals_before=(0, 0))


# ------------------------------------------------------------------ dealing
def test_dealing_3_3_turned_card_talon_dealer_1() -> None:
    deal = new_deal(IDENTITY, dealer=1)
    # deck[0:3] and [6:9] to the opponent (seat 0), [3:6] and [9:12] to the dealer.
    assert deal.hands[0] == [0, 1, 2, 6, 7, 8]
    assert deal.hands[1] == [3, 4, 5, 9, 10, 11]
    assert deal.turned == parse_card("Jh") == 12
    assert deal.talon == list(range(13, 32))
    assert deal.fresa is None  # no fresa before the order
    assert (deal.phase, deal.bid_round, deal.turn, deal.leader) == ("bidding", 1, 0, 0)
    say(deal, 0, "igrayu")
    # after the order: [13:16] to the opponent, [16:19] to the dealer
    assert deal.hands[0] == [0, 1, 2, 6, 7, 8, 13, 14, 15]
    assert deal.hands[1] == [3, 4, 5, 9, 10, 11, 16, 17, 18]
    assert deal.talon == list(range(19, 32))
    assert deal.fresa == parse_card("Ac") == 31  # the bottom card
    assert deal.trump == 1 and deal.first_trump  # hearts, from the turned Jh
    assert deal.turned == parse_card("Jh")  # the turned card stays on the table
    assert (deal.phase, deal.leader, deal.turn, deal.player) == ("play", 0, 0, 0)


def test_dealing_dealer_0_opponent_is_seat_1_and_leads() -> None:
    deal = new_deal(IDENTITY, dealer=0)
    assert deal.hands[1] == [0, 1, 2, 6, 7, 8]
    assert deal.hands[0] == [3, 4, 5, 9, 10, 11]
    assert deal.turn == 1
    assert legal(deal, 1) == ["pas", "igrayu"]
    assert legal(deal, 0) == []
    say(deal, 1, "pas")
    say(deal, 0, "igrayu")
    assert deal.player == 0
    assert deal.hands[1] == [0, 1, 2, 6, 7, 8, 13, 14, 15]
    assert deal.hands[0] == [3, 4, 5, 9, 10, 11, 16, 17, 18]
    assert len(deal.hands[0]) == len(deal.hands[1]) == 9
    assert deal.leader == 1 and deal.turn == 1  # the dealer's opponent leads, not the player


def test_build_deck_positions() -> None:
    o = "Jc 9c Ac 10s As Ks 7h 8h 7d"
    d = "10c Kc Qs Js 9s Ah 10h Kh Qd"
    deck = build_deck(o, d, "8c", fresa="Ad")
    oc, dc = cards(o), cards(d)
    assert deck[0:3] == tuple(oc[0:3]) and deck[6:9] == tuple(oc[3:6])
    assert deck[3:6] == tuple(dc[0:3]) and deck[9:12] == tuple(dc[3:6])
    assert deck[12] == parse_card("8c")
    assert deck[13:16] == tuple(oc[6:9]) and deck[16:19] == tuple(dc[6:9])
    assert deck[31] == parse_card("Ad")
    assert sorted(deck) == list(range(32))
    deal = new_deal(deck)
    say(deal, 0, "igrayu")
    assert deal.hands[0] == oc and deal.hands[1] == dc and deal.fresa == parse_card("Ad")
    with pytest.raises(ValueError):
        build_deck(o, d, "Jc")  # Jc is in a hand already
    with pytest.raises(ValueError):
        build_deck(o, d.rsplit(" ", 1)[0], "8c")  # 8 cards


# ------------------------------------------------------------------ bidding
def test_round_one_non_dealer_first_and_wrong_turn() -> None:
    deal = new_deal(build_deck(*SIMPLE))
    assert legal(deal, 0) == ["pas", "igrayu"]
    assert legal(deal, 1) == []
    refused(deal, 1, "pas", E.NotYourTurn, "not-your-turn")
    refused(deal, 1, "igrayu", E.NotYourTurn, "not-your-turn")
    refused(deal, 0, "igrayu-s", E.NotAllowed, "not-allowed")  # round one: the turned suit
    refused(deal, 0, "Jc", E.WrongPhase, "wrong-phase")
    say(deal, 0, "pas")
    assert legal(deal, 0) == []
    assert legal(deal, 1) == ["pas", "igrayu"]
    refused(deal, 0, "igrayu", E.NotYourTurn, "not-your-turn")
    say(deal, 1, "igrayu")
    assert deal.player == 1 and deal.trump == 3 and deal.first_trump
    assert deal.phase == "play" and deal.turn == 0  # the dealer's opponent leads anyway


def test_a_card_in_the_bidding_not_held_is_told_so_not_that_it_comes_later() -> None:
    """A card typed in the bidding was told it "comes after the order", the turned card
    and a card of the opponent's too, as if it could be played then (a tryout, s47):
    one not in the hand says so; one held still comes after the order."""
    deal = new_deal(build_deck(*SIMPLE))
    held = refused(deal, 0, "Jc", E.WrongPhase, "wrong-phase")
    assert str(held) == "bidding is on: Jc comes after the order"
    for card in ("Qs", "8c"):  # the opponent's, the turned card
        told = refused(deal, 0, card, E.WrongPhase, "wrong-phase")
        assert str(told) == f"bidding is on, and {card} is not in your hand", card


def test_round_two_names_another_suit() -> None:
    deal = new_deal(build_deck(*SIMPLE))  # turned 8c
    say(deal, 0, "pas")
    say(deal, 1, "pas")
    assert deal.bid_round == 2 and deal.turn == 0
    assert legal(deal, 0) == ["pas", "igrayu-s", "igrayu-h", "igrayu-d"]
    refused(deal, 0, "igrayu-c", E.NotAllowed, "not-allowed")  # the turned suit is refused
    refused(deal, 0, "igrayu", E.NotAllowed, "not-allowed")
    refused(deal, 1, "igrayu-s", E.NotYourTurn, "not-your-turn")
    say(deal, 0, "pas")
    assert legal(deal, 1) == ["pas", "igrayu-s", "igrayu-h", "igrayu-d"]
    refused(deal, 1, "igrayu-c", E.NotAllowed, "not-allowed")
    say(deal, 1, "igrayu-h")
    assert (deal.player, deal.trump, deal.first_trump) == (1, 1, False)
    assert len(deal.hands[0]) == len(deal.hands[1]) == 9
    assert deal.record()["trump"] == "h"


def test_round_two_first_seat_orders() -> None:
    deal = new_deal(build_deck(*SIMPLE))
    say(deal, 0, "pas")
    say(deal, 1, "pas")
    say(deal, 0, "igrayu-s")
    assert (deal.player, deal.trump, deal.first_trump, deal.turn) == (0, 0, False, 0)
    assert legal(deal, 1) == []


def test_all_pass_twice_voids_the_deal() -> None:
    deal = new_deal(build_deck(*SIMPLE))
    say(deal, 0, "pas")
    say(deal, 1, "pas")
    say(deal, 0, "pas")
    say(deal, 1, "pas")
    assert deal.phase == "done"
    assert deal.result is not None
    assert (deal.result.outcome, deal.result.void_reason) == ("void", "all passed")
    assert deal.trump is None and deal.player is None
    assert deal.result is not None and deal.result.score.written == [0, 0]
    assert legal(deal, 0) == [] and legal(deal, 1) == []
    refused(deal, 0, "pas", E.WrongPhase, "wrong-phase")
    rec = deal.record()
    assert (rec["outcome"], rec["trump"], rec["written"]) == ("void", None, [0, 0])


def test_match_passes_the_deal_after_a_void() -> None:
    deck1, deck2 = build_deck(*SIMPLE), build_deck(*EVEN)
    match = Match(R, seed="t", dealer=1, decks={1: deck1, 2: deck2})
    for seat in (0, 1, 0, 1):
        say(match, seat, "pas")
    assert match.records[0]["outcome"] == "void"
    assert match.records[0]["void_reason"] == "all passed"
    assert match.totals == [0, 0]
    assert match.deal.deal_no == 2
    assert match.deal.dealer == 0  # the deal passes to the other player
    assert match.deal.deck == deck2
    assert match.deal.turn == 1 and match.legal_calls(0) == []
    assert legal(match.deal, 1) == ["pas", "igrayu"]
