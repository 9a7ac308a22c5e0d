"""Card play: following, trumping, overtrumping, trick winners, points (docs/rules.md §1, §4)."""

from __future__ import annotations

from deberc_net.game import errors as E
from deberc_net.game.cards import DECK, card_points, parse_card
from deberc_net.game.deal import Deal
from deberc_net.game.play import illegal_card_error, legal_cards, trick_winner
from deberc_net.testing import build_ruleset

from .decks import SIMPLE, SIMPLE_PLAY, build_deck, cards, legal, play, refused, say

R = build_ruleset()
CLUBS, HEARTS = 3, 1

# Trump clubs (turned 8c); seat 0 leads. No combinations, no bella, no trump 7 in play.
PLAY_DEAL = ("As 9s 8s Qc 9c 7h Kh 10d Ad", "Kc Ac Jh Qh Ah 9d Jd Qd 8d", "8c")


def ordered(spec: tuple[str, str, str]) -> Deal:
    deck = build_deck(*spec)
    deal = Deal(rules=R, deal_no=1, dealer=1, deck=deck, seed="t", totals_before=(0, 0))
    say(deal, 0, "igrayu")
    return deal


def test_card_points_tables() -> None:
    assert card_points(parse_card("Jc"), CLUBS) == 20  # the trump jack counts 20, once
    assert card_points(parse_card("Jc"), HEARTS) == 2
    assert card_points(parse_card("9c"), CLUBS) == 14
    assert card_points(parse_card("9h"), CLUBS) == 0
    assert [card_points(c, HEARTS) for c in cards("7h 8h 9h 10h Jh Qh Kh Ah")] == [
        0,
        0,
        14,
        10,
        20,
        3,
        4,
        11,
    ]
    assert [card_points(c, HEARTS) for c in cards("7s 8s 9s 10s Js Qs Ks As")] == [
        0,
        0,
        0,
        10,
        2,
        3,
        4,
        11,
    ]
    assert sum(card_points(c, CLUBS) for c in DECK) == 152


def test_scripted_play_follow_trump_overtrump_and_winners() -> None:
    deal = ordered(PLAY_DEAL)
    refused(deal, 1, "Kc", E.NotYourTurn, "not-your-turn")
    refused(deal, 0, "Ac", E.NotInHand, "illegal-card")  # seat 1 holds it
    play(deal, "As")
    # void in spades, holding trumps: must trump (any trump, none on the table yet)
    assert legal(deal, 1) == ["Kc", "Ac"]
    refused(deal, 1, "Jh", E.MustTrump, "must-trump")
    refused(deal, 1, "9d", E.MustTrump, "must-trump")
    refused(deal, 1, "7s", E.NotInHand, "illegal-card")
    refused(deal, 0, "9s", E.NotYourTurn, "not-your-turn")
    play(deal, "Ac")
    assert deal.tricks[0].winner == 1 and deal.tally.card_points == [0, 22]
    # trump led: seat 0 must beat the king when he can (9c does, Qc does not)
    play(deal, "Kc")
    assert legal(deal, 0) == ["9c"]
    refused(deal, 0, "Qc", E.MustOvertrump, "must-overtrump")
    refused(deal, 0, "7h", E.MustFollowSuit, "must-follow-suit")
    play(deal, "9c")
    assert deal.tricks[1].winner == 0 and deal.tally.card_points == [18, 22]
    # trump led, seat 1 void in trump: any card
    play(deal, "Qc")
    assert legal(deal, 1) == ["Jh", "Qh", "Ah", "9d", "Jd", "Qd", "8d"]
    play(deal, "8d")
    # a plain card need not be beaten: the lower Jh and Qh are legal against Kh
    play(deal, "Kh")
    assert legal(deal, 1) == ["Jh", "Qh", "Ah"]
    refused(deal, 1, "9d", E.MustFollowSuit, "must-follow-suit")
    play(deal, "Jh")
    assert deal.tricks[3].winner == 0
    play(deal, "7h Ah")  # Ah takes the trick
    assert deal.turn == 1
    play(deal, "Qh")
    assert legal(deal, 0) == ["9s", "8s", "10d", "Ad"]  # void in hearts and trump: anything
    play(deal, "8s")
    assert deal.tricks[5].winner == 1  # an off-suit card never wins
    play(deal, "9d 10d")  # plain order: 10 beats 9
    play(deal, "Ad Jd 9s Qd")
    assert deal.phase == "done"
    assert [t.winner for t in deal.tricks] == [1, 0, 0, 0, 1, 1, 0, 0, 0]
    assert deal.tally.card_points == [53, 36]
    assert deal.result is not None
    assert deal.result.score.points == [63, 36]  # the last trick adds 10
    assert deal.result.score.last_trick_side == 0
    assert deal.tally.tricks_taken == [6, 3]
    refused(deal, 1, "Qd", E.WrongPhase, "wrong-phase")


def test_plain_ten_beats_king_and_trump_jack_beats_nine() -> None:
    deal = ordered(SIMPLE)
    play(deal, "Jc Kc")
    assert deal.tricks[0].winner == 0 and deal.tally.card_points == [24, 0]  # J 20 + K 4
    play(deal, "9c")
    assert legal(deal, 1) == ["10c"]  # cannot beat 9c: any trump, here the only one
    play(deal, "10c")
    assert deal.tally.card_points == [48, 0]  # 9 counts 14 in trump
    play(deal, "Ac")
    assert legal(deal, 1) == ["Qs", "Js", "9s", "Ah", "10h", "Kh", "Qd"]
    play(deal, "Qd As Js 10s Qs")
    assert deal.tricks[4].winner == 0  # 10s beats Qs
    assert deal.tally.card_points == [88, 0]


def test_simple_deal_last_trick_and_totals() -> None:
    deal = ordered(SIMPLE)
    play(deal, SIMPLE_PLAY)
    assert [t.winner for t in deal.tricks] == [0, 0, 0, 0, 0, 0, 1, 1, 1]
    assert deal.tally.card_points == [92, 25]
    assert deal.result is not None
    assert deal.result.score.points == [92, 35]
    assert sum(deal.tally.card_points) == sum(
        card_points(c, CLUBS) for c in cards(" ".join(SIMPLE[:2]))
    )


# --------------------------------------------- three cards on the table (rule level)
# Two players never see a trumped plain trick followed by a third card, so the rule is
# checked on the play functions directly with a three-card trick.
def test_must_overtrump_a_trumped_plain_trick() -> None:
    trick = [(0, parse_card("Ks")), (1, parse_card("9c"))]
    hand = cards("Jc 8c 7h")
    assert legal_cards(hand, trick, CLUBS) == cards("Jc")
    assert type(illegal_card_error(hand, trick, CLUBS, parse_card("8c"))) is E.MustOvertrump
    assert type(illegal_card_error(hand, trick, CLUBS, parse_card("7h"))) is E.MustTrump
    assert trick_winner([*trick, (2, parse_card("Jc"))], CLUBS) == 2
    # cannot beat the 9: any trump, still not a plain card
    assert legal_cards(cards("10c 8c 7h"), trick, CLUBS) == cards("10c 8c")
    assert trick_winner([*trick, (2, parse_card("10c"))], CLUBS) == 1
    # holding the led suit: follow it, the trump on the table need not be beaten
    assert legal_cards(cards("As Jc"), trick, CLUBS) == cards("As")
    assert trick_winner([*trick, (2, parse_card("As"))], CLUBS) == 1


def test_trick_winner_plain_and_trump() -> None:
    t = [(0, parse_card("Ks")), (1, parse_card("10s"))]
    assert trick_winner(t, HEARTS) == 1
    t = [(0, parse_card("Ks")), (1, parse_card("As")), (0, parse_card("7h"))]
    assert trick_winner(t, HEARTS) == 0  # the lowest trump beats the plain ace
    t = [(1, parse_card("9h")), (0, parse_card("Ah"))]
    assert trick_winner(t, HEARTS) == 1  # trump 9 over trump A
    t = [(1, parse_card("7d")), (0, parse_card("Ad"))]
    assert trick_winner(t, HEARTS) == 0
