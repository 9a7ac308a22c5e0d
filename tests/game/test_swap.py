"""The trump seven swap, four sevens and "does my trump pass?" (docs/rules.md §2)."""

from __future__ import annotations

from deberc_net.game import errors as E
from deberc_net.game.cards import cards_str, parse_card
from deberc_net.game.deal import Deal
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.testing import build_ruleset

from .decks import SIMPLE, build_deck, cards, legal, match4, play, refused, say

R = build_ruleset()

# Trump hearts (turned Jh). Seat 0 (leads) holds 7h 8h, no combinations anywhere.
SWAP = ("7h 9s Qs 8d Kd 9c Ac 10c 8h", "Ah 10s Ks 9d Jd 7c Jc Qc 7s", "Jh")
# The same cards with the hands exchanged: the dealer (seat 1) holds the trump 7.
SWAP_SECOND = (SWAP[1], SWAP[0], "Jh")
# Trump hearts (turned Ah). Seat 0 holds the trump terts 7h 8h 9h (the swap breaks it).
PASS_LOW = ("7h 8h 9h 7s Js Qd 8d 10c Kc", "8s 9s 10s Jh Ad 9d Jc Qc Ac", "Ah")  # terts to 10s
PASS_NONE = ("7h 8h 9h 7s Js Qd 8d 10c Kc", "7d 8s 9s 10d Jh Ad 9d Jc Ac", "Ah")  # nothing
PASS_EQUAL = ("7h 8h 9h 10s Js Qd 8d 10c Kc", "7s 8s 9s 10d Jh Ad 9d Jc Ac", "Ah")  # 7s-9s
PASS_FIFTY = ("7h 8h 9h Js Qs Qd 8d 10c Kc", "7s 8s 9s 10s Jh Ad 9d Jc Ac", "Ah")  # 7s-10s


def new_deal(spec: tuple[str, str, str], dealer: int = 1, rules: RuleSet = R) -> Deal:
    deck = build_deck(*spec)
    return Deal(rules=rules, deal_no=1, dealer=dealer, deck=deck, seed="t", totals_before=(0, 0))


def ordered(spec: tuple[str, str, str], first: str = "igrayu") -> Deal:
    deal = new_deal(spec)
    if first == "igrayu":
        say(deal, 0, "igrayu")
    else:
        say(deal, 0, "pas")
        say(deal, 1, first)
    return deal


# ------------------------------------------------------------- seven swap
def test_leader_swaps_the_trump_seven_for_the_turned_card() -> None:
    deal = ordered(SWAP)
    assert legal(deal, 0)[0] == "menyayu"
    assert "prokhodit?" not in legal(deal, 0)  # no trump sequence to ask about
    refused(deal, 0, "prokhodit?", E.NotAllowed, "not-allowed")
    say(deal, 0, "menyayu")
    assert parse_card("Jh") in deal.hands[0] and parse_card("7h") not in deal.hands[0]
    assert len(deal.hands[0]) == 9
    assert deal.turned == parse_card("7h")  # the seven lies where the turned card was
    assert deal.original_turned == parse_card("Jh")
    assert deal.swapped_by == 0
    assert "menyayu" not in legal(deal, 0)
    refused(deal, 0, "menyayu", E.NotAllowed, "not-allowed")
    play(deal, "Jh Ah")  # trump led: Ah cannot beat the jack, any heart
    assert deal.tally.card_points == [31, 0]  # trump J 20 + A 11
    rec = deal.record()
    assert rec["turned"] == "Jh"
    assert [c["call"] for c in rec["calls"]] == ["igrayu", "menyayu", "play", "play"]


def test_swap_only_by_the_holder_of_the_trump_seven() -> None:
    deal = ordered(SWAP)
    refused(deal, 1, "menyayu", E.NotYourTurn, "not-your-turn")
    play(deal, "9s")
    assert "menyayu" not in legal(deal, 1)  # the dealer's turn, but he has no 7h
    refused(deal, 1, "menyayu", E.NotAllowed, "not-allowed")


def test_swap_refused_after_the_holders_first_card() -> None:
    deal = ordered(SWAP)
    play(deal, "Ac 7c")  # seat 0 takes the first trick without swapping
    assert deal.turn == 0 and parse_card("7h") in deal.hands[0]
    assert "menyayu" not in legal(deal, 0)
    refused(deal, 0, "menyayu", E.NotAllowed, "not-allowed")


def test_second_player_swaps_before_his_first_card_only() -> None:
    deal = ordered(SWAP_SECOND)
    assert "menyayu" not in legal(deal, 0)
    play(deal, "7c")  # seat 0 leads; seat 1 (holding 7h) is now in his window
    assert legal(deal, 1)[0] == "menyayu"
    say(deal, 1, "menyayu")
    assert parse_card("Jh") in deal.hands[1] and deal.turned == parse_card("7h")
    assert deal.swapped_by == 1


def test_second_player_may_not_swap_after_his_first_card() -> None:
    deal = ordered(SWAP_SECOND)
    play(deal, "9d Kd")  # seat 1 takes the trick with Kd, holding 7h still
    assert deal.turn == 1 and parse_card("7h") in deal.hands[1]
    refused(deal, 1, "menyayu", E.NotAllowed, "not-allowed")


def test_swap_refused_in_a_game_on_a_second_trump() -> None:
    deal = new_deal(SWAP)  # turned Jh; seat 1 holds 7c
    say(deal, 0, "pas")
    say(deal, 1, "pas")
    say(deal, 0, "pas")
    say(deal, 1, "igrayu-c")
    assert deal.trump == 3 and not deal.first_trump
    assert "menyayu" not in legal(deal, 0)  # 7h is no longer the trump seven either
    play(deal, "9s")
    assert parse_card("7c") in deal.hands[1]
    assert "menyayu" not in legal(deal, 1)
    refused(deal, 1, "menyayu", E.NotAllowed, "not-allowed")


def test_swap_refused_after_declaring() -> None:
    deal = ordered(PASS_LOW)
    assert legal(deal, 0)[:3] == ["menyayu", "prokhodit?", "terts"]
    say(deal, 0, "terts")
    assert "menyayu" not in legal(deal, 0)
    refused(deal, 0, "menyayu", E.NotAllowed, "not-allowed")
    refused(deal, 0, "prokhodit?", E.NotAllowed, "not-allowed")


# ------------------------------------------------------------- prokhodit?
def test_prokhodit_answer_must_be_ne_prokhodit_against_a_higher_terts() -> None:
    deal = ordered(PASS_LOW)
    say(deal, 0, "prokhodit?")
    assert deal.to_act == 1
    assert legal(deal, 1) == ["ne-prokhodit"]  # terts to 10s beats trump terts to 9h
    assert legal(deal, 0) == []
    untrue = refused(deal, 1, "prokhodit", E.AnswerRequired, "answer-required")
    # he answered, untruly: "answer the question first" told him he had not (s46)
    assert untrue.message == "prokhodit is not the true answer: say ne-prokhodit"
    refused(deal, 0, "7s", E.AnswerRequired, "answer-required")
    say(deal, 1, "ne-prokhodit")
    assert deal.pending is None and deal.to_act == 0
    # the question is asked once; the swap is still open
    assert legal(deal, 0)[:2] == ["menyayu", "terts"]
    refused(deal, 0, "prokhodit?", E.NotAllowed, "not-allowed")
    say(deal, 0, "menyayu")
    assert cards_str(sorted(deal.hands[0])) == "7s,Js,8h,9h,Ah,8d,Qd,10c,Kc"
    assert "terts" not in legal(deal, 0)  # 8h 9h Ah is no sequence
    assert [(c["seat"], c["call"]) for c in deal.record()["calls"]] == [
        (0, "igrayu"),
        (0, "prokhodit?"),
        (1, "ne-prokhodit"),
        (0, "menyayu"),
    ]


def test_prokhodit_when_the_opponent_holds_nothing() -> None:
    deal = ordered(PASS_NONE)
    say(deal, 0, "prokhodit?")
    assert legal(deal, 1) == ["prokhodit"]
    untrue = refused(deal, 1, "ne-prokhodit", E.AnswerRequired, "answer-required")
    assert untrue.message == "ne-prokhodit is not the true answer: say prokhodit"
    assert refused(deal, 1, "pishet").message == "answer the question first: prokhodit"
    say(deal, 1, "prokhodit")
    assert deal.pending is None


def test_prokhodit_equal_top_the_trump_terts_passes() -> None:
    deal = ordered(PASS_EQUAL)
    say(deal, 0, "prokhodit?")
    assert legal(deal, 1) == ["prokhodit"]  # 7s-9s against 7h-9h in trump: trump wins


def test_ne_prokhodit_against_a_fifty() -> None:
    deal = ordered(PASS_FIFTY)
    say(deal, 0, "prokhodit?")
    assert legal(deal, 1) == ["ne-prokhodit"]


def test_prokhodit_refused_after_the_swap() -> None:
    deal = ordered(PASS_LOW)
    say(deal, 0, "menyayu")
    assert "prokhodit?" not in legal(deal, 0)
    refused(deal, 0, "prokhodit?", E.NotAllowed, "not-allowed")


def test_a_refused_prokhodit_q_says_the_questions_rule_not_the_swaps() -> None:
    """A tryout's `проходит?` from a seat without the trump 7 was told the swap's rule
    («меняют семёрку только в первом козыре…»): the refusal explains the call typed."""
    swap_rule = "the seven"
    deal = ordered(SWAP_SECOND)  # seat 0, to lead, has no trump 7
    why = refused(deal, 0, "prokhodit?", E.NotAllowed, "not-allowed")
    assert str(why).startswith("prokhodit? is asked by the holder of the trump 7"), why
    assert swap_rule not in str(refused(deal, 0, "menyayu", E.NotAllowed, "not-allowed"))
    deal = ordered(SWAP)  # seat 0 holds 7h but no trump sequence
    why = refused(deal, 0, "prokhodit?", E.NotAllowed, "not-allowed")
    assert str(why) == "you hold no trump sequence: prokhodit? asks whether yours passes"
    deal = ordered(PASS_LOW)
    say(deal, 0, "prokhodit?")
    say(deal, 1, "ne-prokhodit")
    why = refused(deal, 0, "prokhodit?", E.NotAllowed, "not-allowed")
    assert str(why) == "prokhodit? is asked once"


def _swap_refused(deal: Deal, seat: int) -> str:
    return str(refused(deal, seat, "menyayu", E.NotAllowed, "not-allowed"))


def test_a_refused_swap_says_its_own_case_not_the_whole_rule() -> None:
    """A Russian tryout typed `меняю` without the trump seven, and when the turned card
    was the seven itself, and was told the whole rule each time («меняют семёрку
    только в первом козыре: тот, у кого…»): each case says what stops it."""
    assert _swap_refused(ordered(SWAP_SECOND), 0) == "you do not hold the trump 7 (7h)"
    deal = ordered(SWAP)
    say(deal, 0, "menyayu")
    assert _swap_refused(deal, 0) == "the seven is swapped already"
    deal = ordered(SWAP)
    play(deal, "Ac 7c")  # seat 0 takes the first trick holding 7h
    assert _swap_refused(deal, 0) == "the seven is swapped before your first card"
    deal = ordered(PASS_LOW)  # seat 0 holds 7h 8h 9h, hearts trump
    say(deal, 0, "terts")
    assert _swap_refused(deal, 0) == (
        "the seven is swapped before you declare or ask rost? (what you said must stay true)"
    )
    seven_turned = ("Jh 9s Qs 8d Kd 9c Ac 10c 8h", SWAP[1], "7h")
    assert _swap_refused(ordered(seven_turned), 0) == (
        "the turned card is the trump 7 itself: there is nothing to swap"
    )
    deal = new_deal(SWAP)
    say(deal, 0, "pas")
    say(deal, 1, "pas")
    say(deal, 0, "igrayu-s")  # spades named in round two; seat 1 holds 7s
    play(deal, "9s")
    assert _swap_refused(deal, 1) == "a game in a second trump has no swap of the seven"
    off = new_deal(SWAP, rules=build_ruleset(options=["seven-swap-off"]))
    say(off, 0, "igrayu")
    assert _swap_refused(off, 0) == "this table has no swap of the seven"
    before = new_deal(SWAP, rules=build_ruleset(options=["swap-before-extra"]))
    say(before, 0, "igrayu")
    while before.pending is not None:  # the swap's question, before the last cards
        say(before, before.pending.answerer, "ne-menyayu")
    assert _swap_refused(before, 0) == (
        "the seven is swapped before the last cards are dealt (swap-before-extra)"
    )


def test_swap_before_extra_gives_the_case_a_refused_swap_meets() -> None:
    """swap-before-extra asks the swap only in the first trump and when the turned card
    is not the seven itself: with no question put, «семёрку меняют только до прикупа»
    told a seat of a chance he never had; and a seat asked without the seven was told
    «сначала ответьте на вопрос: не меняю» as he answered it."""
    rules = build_ruleset(options=["swap-before-extra"])
    second = new_deal(SWAP, rules=rules)
    say(second, 0, "pas")
    say(second, 1, "pas")
    say(second, 0, "igrayu-s")  # a second trump: nobody was asked
    play(second, "9s")
    assert _swap_refused(second, 1) == "a game in a second trump has no swap of the seven"
    seven_turned = ("Jh 9s Qs 8d Kd 9c Ac 10c 8h", SWAP[1], "7h")
    turned = new_deal(seven_turned, rules=rules)
    say(turned, 0, "igrayu")  # nothing to swap: nobody was asked
    assert turned.pending is None
    assert _swap_refused(turned, 0) == (
        "the turned card is the trump 7 itself: there is nothing to swap"
    )
    asked = new_deal(SWAP_SECOND, rules=rules)  # the dealer, seat 1, holds 7h
    say(asked, 0, "igrayu")
    assert asked.pending is not None and asked.pending.answerer == 0
    why = refused(asked, 0, "menyayu", E.AnswerRequired, "answer-required")
    assert str(why) == "you do not hold the trump 7 (7h): answer ne-menyayu"


def test_an_answer_with_no_question_says_so() -> None:
    """`от туза` and `пишет` with nothing asked were told only «сейчас сказать нельзя»
    (a Russian tryout): they are answers, and nobody asked."""
    deal = ordered(SWAP)
    for seat, call in [(0, "ot-A"), (0, "pishet"), (1, "pishet"), (0, "pokazyvayu"), (1, "skin")]:
        why = refused(deal, seat, call, E.NotAllowed, "not-allowed")
        assert str(why) == f"{call} answers a question, and none is asked of you now"
    refused(deal, 0, "prokhodit", E.NotAllowed, "not-allowed")


# ------------------------------------------------------------- four sevens
SEVENS_EARLY = ("7s 7h 7d 7c 9s Jd 8d 10c Kc", "8s 9h 10s Jh Ad 9d Jc Qc Ac", "Ah")
SEVENS_LATE = ("7s 7h 7d 9s Jd 8d 7c 10c Kc", "8s 9h 10s Jh Ad 9d Jc Qc Ac", "Ah")


def test_four_sevens_in_bidding_even_out_of_turn() -> None:
    deal = new_deal(SEVENS_EARLY)
    assert legal(deal, 0) == ["chetyre-semerki", "pas", "igrayu"]
    assert legal(deal, 1) == []
    say(deal, 0, "pas")
    assert legal(deal, 0) == ["chetyre-semerki"]  # not his turn, still allowed
    refused(deal, 1, "chetyre-semerki", E.NotAllowed, "not-allowed")
    say(deal, 0, "chetyre-semerki")
    assert deal.result is not None
    assert (deal.phase, deal.result.outcome, deal.result.void_reason) == ("done", "void", "sevens")
    assert deal.result.score.written == [0, 0]


def test_four_sevens_after_the_order_until_the_first_card() -> None:
    deal = new_deal(SEVENS_LATE)
    assert "chetyre-semerki" not in legal(deal, 0)  # three sevens before the order
    refused(deal, 0, "chetyre-semerki", E.NotAllowed, "not-allowed")
    say(deal, 0, "igrayu")
    assert legal(deal, 0)[:2] == ["chetyre-semerki", "menyayu"]
    play(deal, "9s")
    assert "chetyre-semerki" not in legal(deal, 0)
    refused(deal, 0, "chetyre-semerki", E.NotAllowed, "not-allowed")


def test_four_sevens_redeal_by_the_same_dealer() -> None:
    deck2 = build_deck(*SIMPLE)
    match = Match(R, seed="t", dealer=1, decks={1: build_deck(*SEVENS_EARLY), 2: deck2})
    say(match, 0, "chetyre-semerki")
    rec = match.records[0]
    assert (rec["outcome"], rec["void_reason"], rec["trump"]) == ("void", "sevens", None)
    assert [(c["seat"], c["call"]) for c in rec["calls"]] == [(0, "chetyre-semerki")]
    assert match.totals == [0, 0] and match.result is None
    assert match.deal.deal_no == 2 and match.deal.dealer == 1  # same dealer deals again
    assert match.deal.deck == deck2
    assert sorted(match.deal.hands[0]) == sorted(cards(SIMPLE[0])[:6])


def test_second_player_asks_and_the_leader_who_declared_answers() -> None:
    # Trump hearts: seat 0 declared terts Js-Ks and played; seat 1 holds 7h 8h 9h.
    deal = ordered(("Js Qs Ks 7s 9d Qd 8d 10c Kc", "7h 8h 9h 8s 10s Jh Ad Jc Ac", "Ah"))
    say(deal, 0, "terts")
    play(deal, "7s")
    assert {"menyayu", "prokhodit?", "rost?"} <= set(legal(deal, 1))
    say(deal, 1, "prokhodit?")
    assert deal.to_act == 0
    assert legal(deal, 0) == ["ne-prokhodit"]  # terts to K beats trump terts to 9
    refused(deal, 0, "prokhodit", E.AnswerRequired, "answer-required")
    say(deal, 0, "ne-prokhodit")
    assert deal.to_act == 1 and "prokhodit?" not in legal(deal, 1)
    say(deal, 1, "rost?")
    say(deal, 0, "ot-K")
    assert legal(deal, 1) == ["pishet"]


def test_a_table_with_no_swap_says_so_in_the_bidding_too() -> None:
    """An evening's four-player tryout typed `menyayu` during the bidding and was told
    "bidding is on: menyayu comes after the order", a moment that never comes at a
    table without the swap (four players, seven-swap-off: docs/rules.md §8, §10)."""
    off = new_deal(SWAP, rules=build_ruleset(options=["seven-swap-off"]))
    for call in ("menyayu", "prokhodit?"):
        said = refused(off, 0, call, E.NotAllowed, "not-allowed")
        assert str(said) == "this table has no swap of the seven"
    four = match4().deal
    for call in ("menyayu", "prokhodit?"):
        said = refused(four, 0, call, E.NotAllowed, "not-allowed")
        assert str(said) == "this table has no swap of the seven"
    say(four, 0, "igrayu")  # ordered: prokhodit? is the swap's question, none here either
    said = refused(four, 0, "prokhodit?", E.NotAllowed, "not-allowed")
    assert str(said) == "this table has no swap of the seven"
    # with the swap, the bidding still says when it comes
    refused(new_deal(SWAP), 0, "menyayu", E.WrongPhase, "wrong-phase")
