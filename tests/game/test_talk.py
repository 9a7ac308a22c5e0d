"""Declarations, table talk and bella with scripted hands (docs/rules.md §3)."""

from __future__ import annotations

from deberc_net.game import errors as E
from deberc_net.game.cards import parse_card
from deberc_net.game.deal import Deal
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.testing import build_ruleset

from .decks import SIMPLE, build_deck, cards, legal, play, refused, say

R = build_ruleset()

# Trump clubs unless said. Seat 0 leads, seat 1 deals.
TERTS_K = "Js Qs Ks 7h 9h Jh 8d 10d 8c"  # terts Js-Ks, nothing else
TOP_A = "Qd Kd Ad 7s 9s Ah 8h 10h 9c"  # terts Qd-Ad
NOTHING = "7d Kd Ad 7s 9s Ah 8h 10h 9c"  # no sequence
FIFTY_A = "Jd Qd Kd Ad 7s 9s Ah 8h 10h"  # fifty Jd-Ad
PLAIN_Q = "10s Js Qs 7h 9h Jh 8d Kd 8c"  # terts 10s-Qs
TRUMP_Q = "10c Jc Qc 7s 9s Ah 8h 10h 9d"  # terts 10c-Qc in trump
# fifty 7s-10s and terts Jh-Kh / the same fifty in diamonds (equal, plain)
FIFTY_TERTS = "7s 8s 9s 10s Jh Qh Kh Ad 9c"
FIFTY_10D = "7d 8d 9d 10d As Ah 10h Jc Qc"


def ordered(other: str, dealer: str, turned: str = "Kc") -> Deal:
    deck = build_deck(other, dealer, turned)
    deal = Deal(rules=R, deal_no=1, dealer=1, deck=deck, seed="t", totals_before=(0, 0))
    say(deal, 0, "igrayu")
    return deal


# ------------------------------------------------------------ declaring
def test_first_declares_terts_and_scores_it_alone() -> None:
    deal = ordered(TERTS_K, NOTHING)
    assert legal(deal, 0)[0] == "terts"
    refused(deal, 0, "pyatdesyat", E.FalseDeclaration, "false-declaration")
    refused(deal, 0, "dva-tertsa", E.FalseDeclaration, "false-declaration")
    why = refused(deal, 0, "rost?", E.NotAllowed, "not-allowed")  # nothing declared yet
    assert str(why) == "nothing is declared: rost? asks about a declaration"  # (a tryout)
    say(deal, 0, "terts")
    assert "terts" not in legal(deal, 0)
    refused(deal, 0, "terts", E.NotAllowed, "not-allowed")  # once
    why = refused(deal, 0, "rost?", E.NotAllowed, "not-allowed")  # of his own declaration
    # not "rost? answers a declaration, before your first card, once" (a tryout, s46)
    assert str(why) == "the best declaration is your own: rost? asks the opponent's"
    play(deal, "7h")
    assert "rost?" not in legal(deal, 1) and "terts" not in legal(deal, 1)
    play(deal, "Ah")
    assert deal.combo_points() == [20, 0]
    assert deal.tally.card_points == [0, 11]
    assert deal.deal_points() == [20, 11]


def test_declaring_after_the_first_card_is_refused() -> None:
    deal = ordered(TERTS_K, NOTHING)
    play(deal, "Ks 7s")  # seat 0 takes the trick without declaring
    assert deal.turn == 0 and "terts" not in legal(deal, 0)
    refused(deal, 0, "terts", E.NotAllowed, "not-allowed")
    assert deal.combo_points() == [0, 0]


def test_second_declares_when_the_first_said_nothing() -> None:
    deal = ordered(TERTS_K, TOP_A)
    play(deal, "7h")  # seat 0 does not declare his terts
    assert "terts" in legal(deal, 1) and "rost?" not in legal(deal, 1)
    say(deal, 1, "terts")
    play(deal, "8h")
    assert deal.combo_points() == [0, 20]


def test_longer_combination_wins_outright() -> None:
    deal = ordered(TERTS_K, FIFTY_A)
    say(deal, 0, "terts")
    play(deal, "7h")
    assert legal(deal, 1)[:2] == ["pokazhi", "pyatdesyat"]
    assert "rost?" not in legal(deal, 1)
    err = refused(deal, 1, "rost?", E.ForbiddenRost, "forbidden-rost")
    assert "longer" in err.message
    refused(deal, 1, "terts", E.FalseDeclaration, "false-declaration")
    say(deal, 1, "pyatdesyat")
    assert deal.best is not None and deal.best.seat == 1
    play(deal, "8h")
    assert deal.combo_points() == [0, 50]
    assert deal.tally.scoring_combos == {1: deal.declared_combos[1]}
    assert [c.describe() for c in deal.tally.scoring_combos[1]] == ["pyatdesyat to Ad"]


# ------------------------------------------------------------ rost?
def test_rost_higher_top_card_wins() -> None:
    deal = ordered(TERTS_K, TOP_A)
    say(deal, 0, "terts")
    play(deal, "7h")
    assert legal(deal, 1)[:2] == ["pokazhi", "rost?"]
    say(deal, 1, "rost?")
    assert deal.to_act == 0
    assert legal(deal, 0) == ["ot-K"]  # only the true top card
    assert legal(deal, 1) == []
    refused(deal, 0, "ot-A", E.FalseDeclaration, "false-declaration")
    refused(deal, 0, "ot-K-kozyrnogo", E.FalseDeclaration, "false-declaration")
    refused(deal, 1, "8h", E.AnswerRequired, "answer-required")
    say(deal, 0, "ot-K")
    assert legal(deal, 1) == ["ot-A", "pishet"]
    refused(deal, 1, "ot-Q", E.FalseDeclaration, "false-declaration")
    say(deal, 1, "ot-A")
    assert deal.best is not None and deal.best.seat == 1
    assert deal.pending is None and deal.to_act == 1
    play(deal, "8h")
    assert deal.combo_points() == [0, 20]
    declared = deal.record()["declared"]
    assert declared == [
        {"seat": 0, "calls": ["terts", "ot-K"], "scored": []},
        {
            "seat": 1,
            "calls": ["rost?", "ot-A"],
            "scored": [{"combo": "terts to Ad", "cards": ["Qd", "Kd", "Ad"], "points": 20}],
        },
    ]


def test_rost_same_top_trump_beats_plain() -> None:
    deal = ordered(PLAIN_Q, TRUMP_Q)
    say(deal, 0, "terts")
    play(deal, "7h")
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-Q"]
    say(deal, 0, "ot-Q")
    assert legal(deal, 1) == ["ot-Q-kozyrnogo", "pishet"]
    refused(deal, 1, "ot-Q", E.FalseDeclaration, "false-declaration")
    say(deal, 1, "ot-Q-kozyrnogo")
    play(deal, "8h")
    assert deal.combo_points() == [0, 20]


def test_rost_first_has_the_trump_one_second_must_concede() -> None:
    deal = ordered("10c Jc Qc 7h 9h Jh 8d Kd 8s", "10s Js Qs 7s Ah 8h 10h 9d 7d")
    say(deal, 0, "terts")
    play(deal, "7h")
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-Q-kozyrnogo"]
    refused(deal, 0, "ot-Q", E.FalseDeclaration, "false-declaration")
    say(deal, 0, "ot-Q-kozyrnogo")
    assert legal(deal, 1) == ["pishet"]
    refused(deal, 1, "ot-Q", E.FalseDeclaration, "false-declaration")
    say(deal, 1, "pishet")
    play(deal, "8h")
    assert deal.combo_points() == [20, 0]


def test_rost_equal_goes_to_the_earlier_declared() -> None:
    deal = ordered("10s Js Qs 7h 9h 8d Kd 8c 7d", "10h Jh Qh 7s 9s Ad 9d 9c Ac")
    say(deal, 0, "terts")
    play(deal, "7d")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-Q")
    assert legal(deal, 1) == ["pishet"]
    say(deal, 1, "pishet")
    play(deal, "Ad")
    assert deal.combo_points() == [20, 0]  # seat 0 scores although seat 1 took the trick


def test_pishet_even_when_higher_concedes() -> None:
    deal = ordered(TERTS_K, TOP_A)
    say(deal, 0, "terts")
    play(deal, "7h")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-K")
    say(deal, 1, "pishet")
    play(deal, "8h")
    assert deal.combo_points() == [20, 0]


def test_winner_scores_fifty_and_terts_loser_nothing_full_deal() -> None:
    deal = ordered(FIFTY_TERTS, FIFTY_10D, turned="8c")
    assert legal(deal, 0)[0] == "pyatdesyat"  # only his best category
    refused(deal, 0, "terts", E.FalseDeclaration, "false-declaration")
    say(deal, 0, "pyatdesyat")
    play(deal, "7s")
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-10"]
    say(deal, 0, "ot-10")
    assert legal(deal, 1) == ["pishet"]  # equal fifty, both plain: the earlier declared
    say(deal, 1, "pishet")
    play(deal, "As")  # seat 1 takes the first trick
    assert deal.combo_points() == [70, 0]
    play(deal, "Ah Jh 10h Qh Jc 9c Qc 8s 7d Ad Kh 8d 9s 9d 10s 10d")
    assert deal.phase == "done"
    # cards: seat 0 takes 7d+Ad, Kh+8d, 9s+9d, 10s+10d = 35 and the last trick
    assert deal.tally.card_points == [35, 74]
    assert deal.result is not None
    assert deal.result.score.points == [115, 74]
    assert deal.result.score.combo_points == [70, 0]
    assert (deal.result.outcome, deal.result.score.written) == ("made", [115, 74])
    declared = deal.record()["declared"]
    assert declared[0] == {
        "seat": 0,
        "calls": ["pyatdesyat", "ot-10"],
        "scored": [
            {"combo": "pyatdesyat to 10s", "cards": ["7s", "8s", "9s", "10s"], "points": 50},
            {"combo": "terts to Kh", "cards": ["Jh", "Qh", "Kh"], "points": 20},
        ],
    }
    assert declared[1] == {"seat": 1, "calls": ["rost?", "pishet"], "scored": []}


def test_second_wins_with_higher_fifty_and_adds_his_terts() -> None:
    deal = ordered("7s 8s 9s 10s 7h 9h Ad Kd 9c", "8d 9d 10d Jd Qh Kh Ah Jc Ac", turned="8c")
    say(deal, 0, "pyatdesyat")
    play(deal, "7s")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-10")
    assert legal(deal, 1) == ["ot-J", "pishet"]
    say(deal, 1, "ot-J")
    assert legal(deal, 1) == ["Jc", "Ac"]  # void in spades: must trump
    play(deal, "Jc")
    assert deal.combo_points() == [0, 70]
    assert deal.tally.card_points == [0, 20]


# ------------------------------------------------------------ forbidden rost?
def test_forbidden_rost_without_a_combination_leaks_nothing() -> None:
    match = Match(R, seed="t", dealer=1, decks={1: build_deck(TERTS_K, NOTHING, "Kc")})
    say(match, 0, "igrayu", "terts")
    play(match, "7h")
    deal = match.deal
    assert legal(deal, 1) == ["pokazhi", "Ah", "8h", "10h"]
    views = [view(match, 0), view(match, 1), view(match, None)]
    err = refused(deal, 1, "rost?", E.ForbiddenRost, "forbidden-rost")
    assert "no combination" in err.message
    assert [view(match, 0), view(match, 1), view(match, None)] == views
    assert views[0].talk == ((0, "igrayu"), (0, "terts"))
    assert views[0].pending is None and views[0].legal == ()


def test_forbidden_rost_with_only_a_shorter_combination() -> None:
    deal = ordered("7s 8s 9s 10s 7h 9h Ad Kd 9c", "Qh Kh Ah 8d 9d Jd Jc Ac Js", turned="8c")
    say(deal, 0, "pyatdesyat")
    play(deal, "7s")
    assert "rost?" not in legal(deal, 1) and "terts" not in legal(deal, 1)
    refused(deal, 1, "rost?", E.ForbiddenRost, "forbidden-rost")
    refused(deal, 1, "terts", E.NotAllowed, "not-allowed")
    play(deal, "Js")
    assert deal.combo_points() == [50, 0]


# ------------------------------------------------------------ pokazhi / skin
def test_pokazhi_skin_the_demander_plays_first_then_the_cards_are_shown() -> None:
    deal = ordered(TERTS_K, NOTHING)
    say(deal, 0, "terts")
    refused(deal, 0, "pokazhi", E.NotAllowed, "not-allowed")  # not of his own declaration
    play(deal, "7h")
    say(deal, 1, "pokazhi")
    assert deal.to_act == 0
    assert legal(deal, 0) == ["pokazyvayu", "skin"]
    assert legal(deal, 1) == []
    say(deal, 0, "skin")
    assert deal.shown == {}
    assert legal(deal, 1) == ["Ah", "8h", "10h"]  # only a card now
    refused(deal, 1, "pokazhi", E.NotAllowed, "not-allowed")
    play(deal, "8h")
    assert deal.shown == {0: cards("Js Qs Ks")}
    rec = deal.record()
    assert [(c["seat"], c["call"], c.get("engine", False)) for c in rec["calls"]] == [
        (0, "igrayu", False),
        (0, "terts", False),
        (0, "play", False),
        (1, "pokazhi", False),
        (0, "skin", False),
        (1, "play", False),
        (0, "pokazyvayu", True),
    ]


def test_pokazhi_pokazyvayu_shows_the_declared_category_only() -> None:
    deal = ordered(FIFTY_TERTS, FIFTY_10D, turned="8c")
    say(deal, 0, "pyatdesyat")
    play(deal, "7s")
    say(deal, 1, "pokazhi")
    say(deal, 0, "pokazyvayu")
    # the fifty declared, not the terts Jh-Kh held back (it is added after the trick)
    assert deal.shown == {0: cards("7s 8s 9s 10s")}
    assert "pokazhi" not in legal(deal, 1)
    assert "rost?" in legal(deal, 1)  # the talk goes on


def test_pokazhi_out_of_turn_before_the_declarers_card_has_no_skin() -> None:
    deal = ordered(TERTS_K, NOTHING)
    say(deal, 0, "terts")
    assert legal(deal, 1) == ["pokazhi"]  # not his turn: only the demand
    say(deal, 1, "pokazhi")
    assert legal(deal, 0) == ["pokazyvayu"]  # skin: only when the demander is to play
    refused(deal, 0, "skin", E.AnswerRequired, "answer-required")
    say(deal, 0, "pokazyvayu")
    assert deal.shown == {0: cards("Js Qs Ks")}
    assert deal.to_act == 0 and "terts" not in legal(deal, 0)


def test_pokazhi_window_closes_at_the_second_tricks_first_card() -> None:
    deal = ordered(TERTS_K, NOTHING)
    say(deal, 0, "terts")
    play(deal, "7h 8h")  # seat 1 takes the trick and leads the second
    assert legal(deal, 1)[0] == "pokazhi"
    play(deal, "Ah")
    assert "pokazhi" not in legal(deal, 1)
    refused(deal, 1, "pokazhi", E.NotAllowed, "not-allowed")


def test_a_refused_pokazhi_says_what_stops_it() -> None:
    """docs/protocol.md §8.3: the case that stops the call. A bot's demand that reached
    the table after the second trick's first card was told no declaration waited."""
    deal = ordered(TERTS_K, NOTHING)
    mine = refused(deal, 0, "pokazhi", E.NotAllowed, "not-allowed")
    # and when it is said (s47: a pokazhi out of its window had no hint of it)
    assert mine.message == (
        "no opponent's declaration is waiting to be shown: pokazhi is said once the"
        " opponent declares, until the first card of the second trick"
    )
    say(deal, 0, "terts")
    play(deal, "7h 8h")  # seat 1 takes the trick and leads the second
    play(deal, "Ah")
    late = refused(deal, 1, "pokazhi", E.NotAllowed, "not-allowed")
    assert late.message == "pokazhi is said until the first card of the second trick"

    deal = ordered(TERTS_K, NOTHING)
    say(deal, 0, "terts")
    play(deal, "7h")
    say(deal, 1, "pokazhi")
    say(deal, 0, "skin")  # asked, and told to play first
    again = refused(deal, 1, "pokazhi", E.NotAllowed, "not-allowed")
    assert again.message == "you have asked to see it already"
    play(deal, "8h")  # the cards go face up after his card
    shown = refused(deal, 1, "pokazhi", E.NotAllowed, "not-allowed")
    assert shown.message == "that declaration is shown already"


def test_pokazhi_after_the_first_trick_has_no_skin() -> None:
    deal = ordered(TERTS_K, NOTHING)
    say(deal, 0, "terts")
    play(deal, "7h 8h")
    say(deal, 1, "pokazhi")
    assert legal(deal, 0) == ["pokazyvayu"]
    say(deal, 0, "pokazyvayu")
    assert deal.shown == {0: cards("Js Qs Ks")}


# ------------------------------------------------------------ runs
def test_run_of_five_is_one_fifty() -> None:
    deal = ordered("7s 8s 9s 10s Js 7h 9h Kd 8c", "Qd Ad 8h 10h Ah 9c 10c 7d 9d", turned="Kc")
    assert legal(deal, 0)[0] == "pyatdesyat"
    refused(deal, 0, "dva-pyatdesyat", E.FalseDeclaration, "false-declaration")
    refused(deal, 0, "terts", E.FalseDeclaration, "false-declaration")
    say(deal, 0, "pyatdesyat")
    play(deal, "7h 8h")
    assert deal.combo_points() == [50, 0]
    assert deal.tally.scoring_combos is not None
    assert [c.describe() for c in deal.tally.scoring_combos[0]] == ["pyatdesyat to Js"]


def test_run_of_seven_is_one_fifty() -> None:
    deal = ordered("7s 8s 9s 10s Js Qs Ks 7h 9h", "8h 10h Jh 7d 9d Jd Kd 9c 10c", turned="Ac")
    assert legal(deal, 0)[0] == "pyatdesyat"
    refused(deal, 0, "dva-pyatdesyat", E.FalseDeclaration, "false-declaration")
    say(deal, 0, "pyatdesyat")
    play(deal, "7h 8h")
    assert deal.combo_points() == [50, 0]
    assert deal.tally.scoring_combos is not None
    assert [c.describe() for c in deal.tally.scoring_combos[0]] == ["pyatdesyat to Ks"]


def test_run_of_eight_is_two_fifties() -> None:
    deal = ordered("7s 8s 9s 10s Js Qs Ks As 7h", "8h 9h Jh 7d 9d Jd Kd 9c 10c", turned="Kc")
    assert legal(deal, 0)[0] == "dva-pyatdesyat"
    refused(deal, 0, "pyatdesyat", E.FalseDeclaration, "false-declaration")
    say(deal, 0, "dva-pyatdesyat")
    play(deal, "7h 8h")
    assert deal.combo_points() == [100, 0]
    assert deal.tally.scoring_combos is not None
    assert [c.describe() for c in deal.tally.scoring_combos[0]] == [
        "pyatdesyat to 10s",
        "pyatdesyat to As",
    ]


def test_two_tertsa() -> None:
    deal = ordered("7s 8s 9s Jh Qh Kh 7d 9d 8c", "10s As 7h Ah 8d 10d Ad 9c 10c", turned="Kc")
    assert legal(deal, 0)[0] == "dva-tertsa"
    refused(deal, 0, "terts", E.FalseDeclaration, "false-declaration")
    say(deal, 0, "dva-tertsa")
    play(deal, "7d 8d")
    assert deal.combo_points() == [40, 0]


def test_king_ten_ace_is_not_a_terts() -> None:
    deal = ordered(*SIMPLE[:2], turned="8c")  # seat 0 holds 10s Ks As, seat 1 9s Js Qs
    assert not any(t in legal(deal, 0) for t in ("terts", "pyatdesyat", "dva-tertsa"))
    err = refused(deal, 0, "terts", E.FalseDeclaration, "false-declaration")
    assert "no combination" in err.message
    play(deal, "Jc Kc")
    assert "terts" not in legal(deal, 0)


# ------------------------------------------------------------ bella
BELLA = ("Kh Qh 9h 7s Js Qd 8d 10c Kc", "Jh Ah 10s Ad 9d Jc Qc Ac 9s", "8h")


def test_bella_declared_before_playing_the_king() -> None:
    deal = ordered(*BELLA)
    assert deal.bella_owner == 0
    assert legal(deal, 0)[0] == "bella"
    refused(deal, 1, "bella", E.NotYourTurn, "not-your-turn")
    say(deal, 0, "bella")
    assert "bella" not in legal(deal, 0)
    refused(deal, 0, "bella", E.NotAllowed, "not-allowed")  # once
    play(deal, "Kh")
    assert legal(deal, 1) == ["Jh", "Ah"]  # trump led: must beat the king
    refused(deal, 1, "bella", E.NotAllowed, "not-allowed")  # seat 1 holds no pair
    play(deal, "Ah")
    assert deal.bella_points() == [20, 0]
    assert deal.deal_points() == [20, 15]
    assert {"seat": 0, "calls": ["bella"], "scored": [{"combo": "bella", "points": 20}]} in (
        deal.record()["declared"]
    )


def test_bella_declared_while_still_holding_the_queen() -> None:
    deal = ordered(*BELLA)
    play(deal, "Kh Ah")  # king played without bella
    play(deal, "9s")
    assert deal.turn == 0 and legal(deal, 0)[0] == "bella"
    say(deal, 0, "bella")
    play(deal, "Js")
    assert deal.bella_points() == [20, 0]


def test_bella_refused_after_both_cards_are_played() -> None:
    deal = ordered(*BELLA)
    play(deal, "Kh Ah Jh")
    assert legal(deal, 0) == ["bella", "Qh", "9h"]  # still holds Qh; any trump vs the jack
    play(deal, "Qh")
    play(deal, "9s")
    assert deal.turn == 0 and "bella" not in legal(deal, 0)
    err = refused(deal, 0, "bella", E.NotAllowed, "not-allowed")
    assert "before playing" in err.message
    assert deal.bella_points() == [0, 0]


def test_bella_cards_also_count_in_a_trump_terts() -> None:
    deal = ordered("Qh Kh Ah 7s Js Qd 8d 10c Kc", "Jh 9h 10s Ad 9d Jc Qc Ac 9s", "8h")
    say(deal, 0, "terts", "bella")
    play(deal, "Ah")
    assert legal(deal, 1) == ["pokazhi", "Jh", "9h"]
    play(deal, "9h")
    assert deal.combo_points() == [20, 0]
    assert deal.bella_points() == [20, 0]
    assert deal.tally.card_points == [0, 25]
    assert deal.deal_points() == [40, 25]
    assert deal.tally.scoring_combos is not None
    assert [c.cards for c in deal.tally.scoring_combos[0]] == [tuple(cards("Qh Kh Ah"))]


def test_bella_after_the_swap_brings_the_queen() -> None:
    deal = ordered("Kh 7h 9s 7s Js Qd 8d 10c Kc", "Jh Ah 10s Ad 9d Jc Qc Ac 8s", "Qh")
    assert deal.bella_owner is None and "bella" not in legal(deal, 0)
    say(deal, 0, "menyayu")
    assert parse_card("Qh") in deal.hands[0]
    assert deal.bella_owner == 0 and "bella" in legal(deal, 0)


def test_a_swap_by_the_other_seat_keeps_a_declared_bella() -> None:
    """Seat 1 declares bella and plays the K; seat 0 then swaps the seven: the bella stays."""
    rules = build_ruleset(2)
    deck = build_deck(
        other=["Kc", "Qc", "8h", "9h", "10h", "Ah", "7d", "8d", "9d"],
        dealer=["7c", "8s", "9s", "10s", "Js", "7h", "Jd", "Qd", "Kd"],
        turned="Jc",
    )
    deal = Deal(rules=rules, deal_no=1, dealer=0, deck=deck, seed="t", totals_before=(0, 0))
    say(deal, 1, "igrayu")
    assert deal.bella_owner == 1
    say(deal, 1, "bella")
    play(deal, "Kc")  # seat 1 leads
    say(deal, 0, "menyayu")  # seat 0 takes the turned Jc for its 7c
    assert parse_card("Jc") in deal.hands[0]
    assert deal.bella_owner == 1 and deal.bella_declared
    assert deal.bella_points() == [0, 20]


# Trump hearts (turned Ah). Seat 0 (the leader) holds a plain fifty 7c-10c; seat 1 the
# trump 7 and the trump terts 7h-9h, and asks whether it passes after seat 0's card.
PASS_AFTER_SILENCE = (
    "7c 8c 9c 10c Ad 9d Jd Ac 10s",
    "7h 8h 9h 7s Js Qd Kd Qc Jh",
    "Ah",
)


def _asked_after_the_first_card(variant: str, declared: bool) -> list[str]:
    match = Match(
        build_ruleset(2, variant), seed="p", dealer=1, decks={1: build_deck(*PASS_AFTER_SILENCE)}
    )
    say(match, 0, "igrayu")
    if declared:
        say(match, 0, "pyatdesyat")
    play(match, "10s")
    say(match, 1, "prokhodit?")
    return legal(match.deal, 0)


def test_prokhodit_is_answered_for_the_combinations_that_can_still_count() -> None:
    """docs/rules.md §2: a seat that played its first card without declaring has no
    combination left to count, so the asker's trump passes, and the answer tells
    nothing of his hand. Failed before: `ne-prokhodit`, which told seat 1 that seat 0
    held a fifty it had not declared."""
    for variant in ("moscow", "kharkov"):
        assert _asked_after_the_first_card(variant, declared=False) == ["prokhodit"]
        assert _asked_after_the_first_card(variant, declared=True) == ["ne-prokhodit"]
