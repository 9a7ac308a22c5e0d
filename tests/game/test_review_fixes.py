"""Regressions for the engine review (its scripts t1-t12): each test plays the reviewer's
case with exact hands and asserts the fixed behaviour."""

from __future__ import annotations

from deberc_net.game import errors as E
from deberc_net.game.cards import parse_card
from deberc_net.game.deal import DONE, PLAY, Deal
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.testing import build_ruleset

from .decks import (
    D3,
    D3_PLAY,
    EVEN,
    EVEN_PLAY,
    PAIR_ROST,
    SIMPLE,
    SIMPLE_PLAY,
    build_deck,
    build_deck_n,
    cards,
    legal,
    play,
    refused,
    say,
)


def rules(*options: str, players: int = 2) -> RuleSet:
    return build_ruleset(players, options=options)


def deal2(other: str, dealer: str, turned: str, ruleset: RuleSet | None = None) -> Deal:
    """Two players, dealer seat 1: seat 0 holds ``other`` and leads."""
    return Deal(
        rules=ruleset or rules(),
        deal_no=1,
        dealer=1,
        deck=build_deck(other, dealer, turned),
        seed="t",
        totals_before=(0, 0),
    )


def match2(ruleset: RuleSet, *specs: tuple[str, str, str]) -> Match:
    decks = {i + 1: build_deck(*spec) for i, spec in enumerate(specs)}
    return Match(ruleset, seed="t", dealer=1, decks=decks)


def scored(deal: Deal) -> dict[int, list[str]]:
    return {
        seat: [c.describe() for c in combos]
        for seat, combos in (deal.tally.scoring_combos or {}).items()
    }


# ------------------------------------------------ 1. four players: the pair answers rost?
def test_four_players_rost_is_answered_by_the_pairs_best() -> None:
    deal = Deal(
        rules=build_ruleset(4),
        deal_no=1,
        dealer=3,
        deck=build_deck_n(PAIR_ROST, 3, "Kc"),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu", "terts")
    play(deal, "7h 8h 9h")
    say(deal, 3, "rost?")
    # the pair's best terts is the partner's (to A beats to 9): seat 2 answers
    assert deal.best is not None and deal.best.seat == 2
    assert deal.to_act == 2 and legal(deal, 2) == ["ot-A"] and legal(deal, 0) == []
    refused(deal, 0, "ot-9", E.AnswerRequired, "answer-required")
    say(deal, 2, "ot-A")
    assert legal(deal, 3) == ["pishet"]  # to K loses to A
    refused(deal, 3, "ot-K", E.FalseDeclaration, "false-declaration")
    say(deal, 3, "pishet")
    play(deal, "Jh")  # seat 3 takes 7h 8h 9h Jh: 2
    assert deal.best.seat == 2
    # the partner who took over the pair's declaration scores alone (seeds 003, 004)
    assert scored(deal) == {2: ["terts to Ah"]}
    assert deal.combo_points() == [20, 0] and deal.tally.card_points == [0, 2]
    assert deal.declared_calls == {0: ["terts"], 2: ["ot-A"], 3: ["rost?", "pishet"]}


# ------------------------------------------- 2. three players: a silent whistler scores none
# Dealer 2, trump clubs (7c turned). Seat 0 terts Qh-Ah, seat 1 terts Js-Ks, seat 2 fifty
# 9d-Qd. Seat 1 orders; the whistler seat 0 wins the rost?; seat 2 says nothing.
SILENT = (
    "Qh Kh Ah 8s 10s 9c As 7d 8c",
    "Js Qs Ks 7h 9h Jc Ac 8d Kd",
    "9d 10d Jd Qd 10h 7s 9s Qc 10c",
)


def test_three_players_a_silent_whistler_scores_no_sequence() -> None:
    deal = Deal(
        rules=build_ruleset(3),
        deal_no=1,
        dealer=2,
        deck=build_deck_n(SILENT, 2, "7c"),
        seed="t",
        totals_before=(0, 0, 0),
    )
    say(deal, 0, "pas")
    say(deal, 1, "igrayu")
    say(deal, 0, "terts")
    play(deal, "8s")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-A")
    say(deal, 1, "pishet")
    play(deal, "Js")
    assert "pyatdesyat" in legal(deal, 2)  # he could declare his fifty ...
    play(deal, "9s")  # ... but stays silent; seat 1 takes 8s Js 9s: 2
    assert deal.talked == {0, 1}
    assert scored(deal) == {0: ["terts to Ah"]}
    assert deal.combo_points() == [20, 0, 0] and deal.tally.card_points == [0, 2, 0]


# ------------------------------------------------- 3. a bide right after a hanging bide
def test_three_players_hanging_points_after_a_bide_are_shared_by_the_whistlers() -> None:
    deal = Deal(
        rules=build_ruleset(3),
        deal_no=2,
        dealer=2,
        deck=build_deck_n(D3, 2, "7c", fresa="7d"),
        seed="t",
        totals_before=(0, 0, 0),
        hanging_in=101,
    )
    say(deal, 0, "igrayu")
    play(deal, D3_PLAY)
    assert deal.result is not None
    score = deal.result.score
    assert score is not None
    # 71 against 48 + 43: a bide. The 71 and the hanging 101 are both split in half, the
    # odd point to seat 1, who plays before seat 2 (not all 101 to seat 1, who wrote more)
    assert (score.outcome, score.points) == ("bide", [71, 48, 43])
    assert score.written == [0, 48 + 36 + 51, 43 + 35 + 50]
    assert score.hanging_out == 0 and score.notes == ["hanging 101 to the whistlers"]


def test_two_players_hanging_points_after_a_bide_go_to_the_whistler() -> None:
    match = match2(rules(), EVEN, SIMPLE)
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, EVEN_PLAY)  # 35 to 35: hanging
    assert match.hanging == 35 and match.deal.dealer == 0
    say(match, 1, "pas")
    say(match, 0, "igrayu")  # seat 0 orders the weak hand: a bide
    play(match, SIMPLE_PLAY)
    rec = match.records[1]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("bide", [35, 92], [0, 162])
    assert rec["notes"] == ["hanging 35 to the whistlers"] and rec["hanging"] == 0
    assert match.totals == [35, 162] and match.hanging == 0


# ------------------------------------------ 4. after 'skin' the demander may still talk
# Trump clubs, Qc turned. Seat 0 terts Js-Ks. Seat 1 (dealer) fifty Jd-Ad, the 7c and Kc:
# swapping the 7 for the Qc gives him bella.
SKIN = ("Js Qs Ks 7h 9h Jh 8d 10d 9c", "Jd Qd Kd Ad 7c Kc Ah 8h 10h", "Qc")


def test_after_skin_the_demander_may_swap_declare_and_say_bella() -> None:
    deal = deal2(*SKIN)
    say(deal, 0, "igrayu", "terts")
    play(deal, "7h")
    say(deal, 1, "pokazhi")
    assert legal(deal, 0) == ["pokazyvayu", "skin"]
    say(deal, 0, "skin")
    assert legal(deal, 1) == ["menyayu", "pyatdesyat", "Ah", "8h", "10h"]
    say(deal, 1, "menyayu")
    assert deal.turned == parse_card("7c") and deal.bella_owner == 1
    assert legal(deal, 1) == ["pyatdesyat", "bella", "Ah", "8h", "10h"]
    say(deal, 1, "pyatdesyat", "bella")
    assert deal.best is not None and deal.best.seat == 1
    assert 0 not in deal.shown  # the show still waits for his card
    play(deal, "Ah")
    assert deal.shown[0] == cards("Js Qs Ks")
    last = deal.log[-1]
    assert (last.seat, last.call.token(), last.engine) == (0, "pokazyvayu", True)
    assert scored(deal) == {1: ["pyatdesyat to Ad"]}
    assert deal.bella_declared and deal.deal_points() == [0, 50 + 20 + 11]


# ------------------------------------------------ 5. to-9-stakes counts stakes won
def test_to_9_stakes_the_loser_writes_nothing_also_on_sdayus() -> None:
    match = match2(rules("dave", "to-9-stakes"), SIMPLE, SIMPLE)
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    assert match.records[0]["written"] == [1, 0] and match.totals == [1, 0]
    assert match.deal.dealer == 0  # deal 2: seat 1 leads
    say(match, 1, "igrayu", "dave")
    say(match, 0, "sdayus")
    rec = match.records[1]
    assert (rec["outcome"], rec["written"]) == ("gave-up", [0, 1])
    assert match.totals == [1, 1] and match.result is None and match.deal.deal_no == 3


# ------------------------------------- 6. short-bide: a tie lost on the last trick
def test_short_bide_two_players_tie_lost_on_the_last_trick_costs_one_stake() -> None:
    tie = match2(rules("short-bide"), EVEN)
    say(tie, 0, "igrayu")
    play(tie, EVEN_PLAY)  # 35 to 35, seat 1 takes the last trick
    rec = tie.records[0]
    assert (rec["player"], rec["points"], rec["tricks"][-1]["winner"]) == (0, [35, 35], 1)
    assert (rec["outcome"], rec["written"]) == ("bide", [-1, 1])
    lost = match2(rules("short-bide"), SIMPLE)  # an outright loss still costs two
    say(lost, 0, "pas")
    say(lost, 1, "igrayu")
    play(lost, SIMPLE_PLAY)
    assert (lost.records[0]["outcome"], lost.records[0]["written"]) == ("bide", [2, -2])


# --------------------------------------------- 7. table-penalties: false declarations
# Trump clubs (8c turned). Seat 0 terts Js-Ks; seat 1 terts Qd-Ad, nothing longer.
# Cards in play: seat 0's 35 + seat 1's 39 + the last trick 10 = 84.
TERTS_K = "Js Qs Ks 7h 9h Jh 8d 10d 9c"
TERTS_A = "Qd Kd Ad 7s 9s Ah 8h 10h 7c"


def talk(ruleset: RuleSet) -> Deal:
    deal = deal2(TERTS_K, TERTS_A, "8c", ruleset)
    say(deal, 0, "igrayu", "terts")
    play(deal, "7h")
    return deal


def test_a_false_declaration_after_a_terts_is_a_bide_on_cards() -> None:
    for false in ("pyatdesyat", "dva-tertsa"):
        refused(talk(rules()), 1, false, E.FalseDeclaration, "false-declaration")
        deal = talk(rules("table-penalties"))
        say(deal, 1, false)
        assert deal.phase == DONE and deal.result is not None
        # every card 74, the last trick 10 and seat 0's declared terts 20
        assert (deal.result.outcome, deal.result.score.written) == ("penalty", [104, 0])
        assert deal.log[-1].penalty == "false-declaration"
        assert deal.result.score.notes == ["bide on cards: seat 1, false-declaration"]


def test_a_false_ot_answer_is_a_false_declaration() -> None:
    deal = talk(rules())
    say(deal, 1, "rost?")
    refused(deal, 0, "ot-A", E.FalseDeclaration, "false-declaration")
    # punished: the declarer lies about his top card; seat 1 writes all 84
    deal = talk(rules("table-penalties"))
    say(deal, 1, "rost?")
    say(deal, 0, "ot-A")
    assert deal.result is not None
    assert (deal.result.outcome, deal.result.score.written) == ("penalty", [0, 84])
    assert deal.log[-1].penalty == "false-declaration"
    # the asker lies (his terts is to A): seat 0 writes 84 and his terts, still the best
    deal = talk(rules("table-penalties"))
    say(deal, 1, "rost?")
    say(deal, 0, "ot-K")
    say(deal, 1, "ot-K")
    assert deal.result is not None
    assert (deal.result.outcome, deal.result.score.written) == ("penalty", [104, 0])


# ------------------------- 8. three players: after a hanging bide a whistler deals
# Dealer 2, trump clubs (7c turned). Seat 0 orders; nobody declares. Tricks:
#  Jc 8c Kc -> 0: 24    Kh 9c Ah -> 1: 29    10d Kd 10c -> 0: 24   10h 9s 8h -> 0: 10
#  Ks 8s Qc -> 2: 7     9d Qs Qd -> 1: 6     8d Jd Js -> 2: 4      Ad Qh 10s -> 2: 24
#  9h Jh 7s -> 0: 2+10. Seat 0 70, seats 1 and 2 35 each: 70 = 35 + 35, hanging.
HANG3 = (
    "Ks Jh Qh 10c Jc Js Kh 10h Qs",
    "10s 8s 9s Qd 8d 8c 10d 9c 7s",
    "Jd Qc 9h Ad Kd 8h Kc 9d Ah",
)
HANG3_PLAY = "Jc 8c Kc Kh 9c Ah 10d Kd 10c 10h 9s 8h Ks 8s Qc 9d Qs Qd 8d Jd Js Ad Qh 10s 9h Jh 7s"


def test_three_players_hanging_bide_equal_whistlers_the_first_whistler_deals() -> None:
    match = Match(
        build_ruleset(3), seed="t", dealer=2, decks={1: build_deck_n(HANG3, 2, "7c", fresa="Ac")}
    )
    say(match, 0, "igrayu")
    play(match, HANG3_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("hanging", [70, 35, 35], [0, 35, 35])
    assert rec["hanging"] == 70
    # the whistlers tie: the first of them clockwise from the dealer (seat 2) deals,
    # never the player, seat 0, who is next clockwise
    assert match.deal.deal_no == 2 and match.deal.dealer == 1


# --------------------------------------------------------- 9. deberts: swap, by strength
def test_deberts_completed_by_the_seven_swap() -> None:
    # trump hearts (8h turned): seat 0 holds 7h 9h-Ah; the swap gives him 8h-Ah
    deal = deal2(
        "7h 9h 10h Jh Qh Kh Ah 7s 8s", "9s 10s Js Qs Ks As 7d 8d 9d", "8h", rules("deberts")
    )
    say(deal, 0, "igrayu")
    assert deal.phase == PLAY and deal.result is None  # 9h-Ah: a run of six
    say(deal, 0, "menyayu")
    assert deal.phase == DONE and deal.result is not None
    assert deal.result.outcome == "deberts" and deal.result.match_end == (0, "deberts")
    assert deal.result.score.written == [0, 0]


def test_deberts_with_sequence_by_strength_reads_runs_in_that_order() -> None:
    ruleset = rules("deberts", "sequence-by-strength")
    # every trump but the J (Jc turned): 7 8 Q K 10 A 9 by strength, broken naturally
    deal = deal2("7s 8s 9s 10s Js 7h 8h 9h 10h", "7c 8c 9c 10c Qc Kc Qs Ks Ac", "Jc", ruleset)
    say(deal, 0, "igrayu")
    assert deal.result is not None
    assert (deal.result.outcome, deal.result.match_end) == ("deberts", (1, "deberts"))
    # 7c-Kc (no A), a natural run of seven, is 7 8 Q K 10 _ 9 J by strength: no deberts
    deal = deal2("7s 8s 9s 10s Js 7h 8h 9h 10h", "7c 8c 9c 10c Jc Qc Kc Qs Ks", "Ac", ruleset)
    say(deal, 0, "igrayu")
    assert deal.phase == PLAY and deal.result is None


def test_four_players_a_partner_who_answered_rost_shows_only_that_length() -> None:
    """The pair's best terts is the partner's; his undeclared fifty stays hidden."""
    hands = (
        "7d 8d 9d 7c 10s 7h Jc Ad",
        "Jd Qd Kd 8c 9c 8h Ac 7s",
        "9h 10h Jh Qh Qs Ks As 10c",
        "8s 9s Js Kh Ah 10d Qc Kc",
    )
    deal = Deal(
        rules=build_ruleset(4),
        deal_no=1,
        dealer=3,
        deck=build_deck_n(hands, 3, "Kc"),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu", "terts")
    play(deal, "7h")
    say(deal, 1, "rost?")
    say(deal, 2, "ot-A")
    say(deal, 1, "pishet", "pokazhi")
    say(deal, 2, "pokazyvayu")
    assert sorted(deal.shown[2]) == sorted(parse_card(c) for c in ("Qs", "Ks", "As"))
