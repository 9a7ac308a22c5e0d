"""Every table option against the default, on scripted deals with exact numbers
(docs/rules.md §10), and the checks build_ruleset makes on a set of options."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from deberc_net.game import errors as E
from deberc_net.game.cards import parse_card
from deberc_net.game.deal import DONE, PLAY, Deal
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.game.view import view
from deberc_net.plugins import RuleError, RuleKind
from deberc_net.testing import build_ruleset, rule_book

from .decks import (
    D3_PLAY,
    D4,
    EVEN,
    EVEN_PLAY,
    PAIRS,
    SIMPLE,
    SIMPLE_PLAY,
    SKI,
    SKI_PLAY,
    WEAK_LEADS,
    WEAK_LEADS_PLAY,
    R,
    build_deck,
    build_deck_n,
    legal,
    match2,
    match3,
    match4,
    play,
    refused,
    say,
)


def rules(*options: str, players: int = 2) -> RuleSet:
    return build_ruleset(players, options=options)


def ski_deal(ruleset: RuleSet) -> dict[str, object]:
    match = match2(SKI, ruleset)
    say(match, 0, "igrayu")
    play(match, "Jc")
    say(match, 1, "terts")
    if "bella" in legal(match.deal, 1):
        say(match, 1, "bella")
    play(match, "Kc " + SKI_PLAY)
    return match.records[0]


# ------------------------------------------------------------------ commitment
def test_commitment_the_dealer_must_name_a_suit_in_round_two() -> None:
    match = match2(SIMPLE, rules("commitment"))
    say(match, 0, "pas")
    say(match, 1, "pas")  # round one: the dealer may pass
    say(match, 0, "pas")  # round two: the dealer's opponent may pass
    assert legal(match.deal, 1) == ["igrayu-s", "igrayu-h", "igrayu-d"]
    err = refused(match.deal, 1, "pas", E.NotAllowed, "not-allowed")
    assert "commitment" in err.message
    say(match, 1, "igrayu-h")
    # Hearts: As Qs 14; 10s Js 12; Ks 9s 4; Ac Kc 15 (seat 0: 45); Jc 10c 12;
    # Qd 7d 3; Ah 7h 11; 10h 8h 10; Kh 9c 4+10 (seat 1: 50).
    play(match, "As Qs 10s Js Ks 9s Ac Kc Jc 10c Qd 7d Ah 7h 10h 8h Kh 9c")
    rec = match.records[0]
    assert (rec["trump"], rec["player"], rec["outcome"]) == ("h", 1, "made")
    assert (rec["points"], rec["written"]) == ([45, 50], [45, 50])


def test_without_commitment_all_passes_void_the_deal() -> None:
    match = match2(SIMPLE)
    say(match, 0, "pas")
    say(match, 1, "pas")
    say(match, 0, "pas")
    assert legal(match.deal, 1) == ["pas", "igrayu-s", "igrayu-h", "igrayu-d"]
    say(match, 1, "pas")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("void", [0, 0])
    assert match.deal.dealer == 0


# ----------------------------------------------------- bella, ski, combinations
def test_default_the_trickless_side_writes_its_terts_and_bella() -> None:
    rec = ski_deal(R)
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [115, 40], [115, 40])
    assert rec["notes"] == []


def test_ski_penalty_a_side_without_a_trick_writes_minus_50() -> None:
    rec = ski_deal(rules("ski-penalty"))
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [115, 40], [115, -10])
    assert rec["notes"] == ["ski: side 1 -50"]


def test_ski_penalty_on_the_bide_player() -> None:
    match = match2(SKI, rules("ski-penalty"))
    say(match, 0, "pas")
    say(match, 1, "igrayu")  # the trickless seat orders: a bide, and a ski
    play(match, "Jc")
    say(match, 1, "terts", "bella")
    play(match, "Kc " + SKI_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("bide", [115, 40])
    assert rec["written"] == [155, -50]


def test_combos_need_trick_terts_lost_bella_kept() -> None:
    rec = ski_deal(rules("combos-need-trick"))
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [115, 20], [115, 20])
    both = ski_deal(rules("combos-need-trick", "ski-penalty"))
    assert (both["points"], both["written"]) == ([115, 20], [115, -30])


def test_bella_after_trick_a_trickless_owner_never_declares_it() -> None:
    match = match2(SKI, rules("bella-after-trick"))
    say(match, 0, "igrayu")
    play(match, "Jc")
    assert legal(match.deal, 1)[:2] == ["terts", "Kc"]
    err = refused(match.deal, 1, "bella", E.NotAllowed, "not-allowed")
    assert "after taking a trick" in err.message
    say(match, 1, "terts")
    play(match, "Kc " + SKI_PLAY)
    rec = match.records[0]
    assert (rec["points"], rec["written"]) == ([115, 20], [115, 20])


# Trump clubs (turned 8c). Seat 0 leads and holds bella Kc Qc; seat 1 Jc 9c Ac.
BELLA = ("Kc Qc As 10s 7h 8h 7d 9d Jd", "Jc 9c Ac Ks Qs Ah 10h 10d Ad", "8c")


def bella_deal(ruleset: RuleSet) -> Deal:
    deal = Deal(
        rules=ruleset, deal_no=1, dealer=1, deck=build_deck(*BELLA), seed="t", totals_before=(0, 0)
    )
    say(deal, 0, "igrayu")
    return deal


def test_bella_default_before_any_card() -> None:
    deal = bella_deal(R)
    assert "bella" in legal(deal, 0)
    say(deal, 0, "bella")
    play(deal, "Kc Jc")  # seat 1 must overtrump: Jc
    assert deal.bella_points() == [20, 0] and deal.tally.card_points == [0, 24]
    assert deal.deal_points() == [20, 24]


def test_bella_after_trick_only_once_the_owner_took_a_trick() -> None:
    deal = bella_deal(rules("bella-after-trick"))
    assert "bella" not in legal(deal, 0)
    refused(deal, 0, "bella", E.NotAllowed, "not-allowed")
    play(deal, "As Qs")  # seat 0 takes 14
    assert "bella" in legal(deal, 0)
    say(deal, 0, "bella")
    assert deal.deal_points() == [34, 0]
    # ... and never when the K and Q go before the owner's first trick
    deal = bella_deal(rules("bella-after-trick"))
    play(deal, "Kc Jc 9c Qc")
    assert deal.tally.card_points == [0, 24 + 17] and "bella" not in legal(deal, 0)
    assert deal.bella_points() == [0, 0]


# ------------------------------------------------------------------ bide-penalty
def three_bides(ruleset: RuleSet) -> Match:
    # Four times the weak hand leads, orders and makes 24 to 103: four bides by seat 0.
    match = match2(WEAK_LEADS, ruleset, d2=WEAK_LEADS, d3=WEAK_LEADS, d4=WEAK_LEADS)
    for _ in range(4):
        assert match.deal.dealer == 1  # seat 1 wrote more each time
        say(match, 0, "igrayu")
        play(match, WEAK_LEADS_PLAY)
    return match


def test_bide_penalty_from_the_third_bide_on() -> None:
    match = three_bides(rules("bide-penalty"))
    assert [r["outcome"] for r in match.records] == ["bide"] * 4
    assert [r["written"] for r in match.records] == [[0, 127], [0, 127], [-100, 127], [-100, 127]]
    assert [r["bides_before"] for r in match.records] == [[0, 0], [1, 0], [2, 0], [3, 0]]
    assert match.records[2]["notes"] == ["bide 3: side 0 -100"]
    assert match.totals == [-200, 508] and match.bides == [4, 0]


def test_without_bide_penalty_bides_cost_nothing_more() -> None:
    match = three_bides(R)
    assert [r["written"] for r in match.records] == [[0, 127]] * 4
    assert match.totals == [0, 508]


# ------------------------------------------------------------------ fresa-hidden
def test_fresa_hidden_the_view_shows_no_fresa() -> None:
    makers: list[tuple[int, Callable[[RuleSet], Match]]] = [
        (2, lambda r: match2(SIMPLE, r)),
        (3, lambda r: match3(rules=r)),
    ]
    for players, make in makers:
        shown = make(build_ruleset(players))
        hidden = make(build_ruleset(players, options=["fresa-hidden"]))
        for match in (shown, hidden):
            say(match, 0, "igrayu")
        fresa = shown.deal.talon[-1]
        assert shown.deal.fresa == fresa == hidden.deal.fresa
        for seat in (*range(players), None):
            assert view(shown, seat).fresa == fresa
            assert view(hidden, seat).fresa is None
    assert match3().deal.deck[31] == parse_card("7d")


# ---------------------------------------------------------------- seven-swap-off
# Trump hearts (turned Jh); seat 0 leads and holds 7h 8h.
SWAP = ("7h 9s Qs 8d Kd 9c Ac 10c 8h", "Ah 10s Ks 9d Jd 7c Jc Qc 7s", "Jh")


def test_seven_swap_default_and_off() -> None:
    deal = Deal(
        rules=R, deal_no=1, dealer=1, deck=build_deck(*SWAP), seed="t", totals_before=(0, 0)
    )
    say(deal, 0, "igrayu", "menyayu")
    play(deal, "Jh Ah")
    assert deal.tally.card_points == [31, 0]
    deal = Deal(
        rules=rules("seven-swap-off"),
        deal_no=1,
        dealer=1,
        deck=build_deck(*SWAP),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu")
    assert "menyayu" not in legal(deal, 0)
    refused(deal, 0, "menyayu", E.NotAllowed, "not-allowed")
    play(deal, "8h Ah")  # seat 1 must overtrump the 8h with the Ah
    assert deal.tally.card_points == [0, 11] and deal.turned == parse_card("Jh")


# ------------------------------------------------------------------ player-leads
def test_player_leads_the_dealer_who_ordered_leads() -> None:
    default = match2(SIMPLE)
    leads = match2(SIMPLE, rules("player-leads"))
    for match in (default, leads):
        say(match, 0, "pas")
        say(match, 1, "igrayu")
    assert (default.deal.leader, default.deal.turn) == (0, 0)
    assert (leads.deal.leader, leads.deal.turn) == (1, 1)
    refused(leads.deal, 0, "As", E.NotYourTurn, "not-your-turn")
    play(default, SIMPLE_PLAY)
    play(leads, WEAK_LEADS_PLAY)
    d, p = default.records[0], leads.records[0]
    assert (d["tricks"][0]["leader"], d["points"], d["written"]) == (0, [92, 35], [127, 0])
    assert (p["tricks"][0]["leader"], p["points"], p["written"]) == (1, [103, 24], [127, 0])


# -------------------------------------------------------------- dealer-clockwise
def test_dealer_clockwise_against_the_one_who_wrote_more() -> None:
    default = match3()
    clockwise = match3(rules=build_ruleset(3, options=["dealer-clockwise"]))
    for match in (default, clockwise):
        say(match, 0, "igrayu")
        play(match, D3_PLAY)
        assert match.records[0]["written"] == [0, 84, 78]
    assert default.deal.dealer == 1  # seat 1 wrote the most
    assert clockwise.deal.dealer == 0  # the next seat after dealer 2


# ---------------------------------------------------------- sequence-by-strength
# Trump clubs (turned Kc). Seat 0: Ks 10s As (a run in play strength, not in the
# natural order); seat 1: 9d 10d Jd (a natural run only).
STRENGTH = ("Ks 10s As 7h 9h Jh 8d Kd 8c", "9d 10d Jd 7s 8s Ah 10h Qc 9c", "Kc")


def strength_deal(ruleset: RuleSet) -> Deal:
    deal = Deal(
        rules=ruleset,
        deal_no=1,
        dealer=1,
        deck=build_deck(*STRENGTH),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu")
    return deal


def test_sequence_by_strength_k_10_a_is_a_terts() -> None:
    deal = strength_deal(rules("sequence-by-strength"))
    assert legal(deal, 0)[0] == "terts"
    say(deal, 0, "terts")
    play(deal, "7h")
    assert "terts" not in legal(deal, 1) and "rost?" not in legal(deal, 1)  # 9d 10d Jd: no
    play(deal, "Ah")
    assert deal.combo_points() == [20, 0] and deal.tally.card_points == [0, 11]
    assert [c.describe() for c in (deal.tally.scoring_combos or {})[0]] == ["terts to As"]


def test_default_natural_order_9_10_j_is_a_terts() -> None:
    deal = strength_deal(R)
    assert "terts" not in legal(deal, 0)
    refused(deal, 0, "terts", E.FalseDeclaration, "false-declaration")
    play(deal, "7h")
    say(deal, 1, "terts")
    play(deal, "Ah")
    assert deal.combo_points() == [0, 20]
    assert [c.describe() for c in (deal.tally.scoring_combos or {})[1]] == ["terts to Jd"]


# Trump diamonds (turned 9d). Seat 0 (leads, holds the trump 7): Kd 10d Ad, a trump
# run to the A in play strength (the A is sixth of the trump order 7 8 Q K 10 A 9 J);
# seat 1: Kc 10c Ac, a plain run to the A (the A is the top of 7 8 9 J Q K 10 A).
TOPS = ("7d Kd 10d Ad 7s 9s 7h 9h Jc", "Kc 10c Ac 8s Js 8h Jh Qs Qh", "9d")


@pytest.mark.parametrize("variant", ["moscow", "kharkov"])
def test_sequence_by_strength_compares_tops_by_their_place_in_their_suit(
    variant: str,
) -> None:
    # docs/rules.md §10: "the higher top card" is the top's place in its suit's order,
    # so the plain run to the A beats the trump one to the A, trump or first declared
    ruleset = build_ruleset(2, variant=variant, options=("sequence-by-strength",))
    deal = Deal(
        rules=ruleset, deal_no=1, dealer=1, deck=build_deck(*TOPS), seed="t", totals_before=(0, 0)
    )
    say(deal, 0, "igrayu", "prokhodit?")
    assert legal(deal, 1) == ["ne-prokhodit"]
    say(deal, 1, "ne-prokhodit")
    say(deal, 0, "terts")
    play(deal, "7s")
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-A-kozyrnogo"]
    say(deal, 0, "ot-A-kozyrnogo")
    assert legal(deal, 1)[:2] == ["ot-A", "pishet"]
    say(deal, 1, "ot-A")
    play(deal, "8s")
    assert deal.combo_points() == [0, 20]
    assert [c.describe() for c in (deal.tally.scoring_combos or {})[1]] == ["terts to Ac"]


# ----------------------------------------------------------------------- deberts
# Trump clubs (turned Ac): seat 1 holds 7c..Kc, seven trumps in sequence.
DEBERTS = ("7s 8s 9s 10s Js 7h 8h 9h 10h", "7c 8c 9c 10c Jc Qc Kc Qs Ks", "Ac")
# seven trumps but not in sequence (no Kc): 7c..Qc and Ac
NOT_DEBERTS = ("7s 8s 9s 10s Js 7h 8h 9h Kc", "7c 8c 9c 10c Jc Qc 10h Qs Ks", "Ac")


def test_deberts_seven_trumps_in_sequence_end_the_match_at_once() -> None:
    match = match2(DEBERTS, rules("deberts"))
    say(match, 0, "igrayu")  # seat 0 orders clubs: seat 1 wins with deberts
    assert match.over and match.result is not None
    assert (match.result.winner, match.result.reason) == (1, "deberts")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"], rec["tricks"]) == ("deberts", [0, 0], [])
    assert rec["match_over"] == {"winner": 1, "reason": "deberts"}
    assert match.totals == [0, 0] and match.legal_calls(0) == []


def test_without_deberts_the_deal_is_played() -> None:
    match = match2(DEBERTS)
    say(match, 0, "igrayu")
    assert not match.over and match.deal.phase == PLAY
    match = match2(NOT_DEBERTS, rules("deberts"))
    say(match, 0, "igrayu")
    assert not match.over and match.deal.phase == PLAY  # a run of six is no deberts


# ------------------------------------------------------------- hanging-separate
def four_deals_with_two_hanging(ruleset: RuleSet) -> Match:
    # deal 1: dealer 1, seat 1 orders EVEN (35:35): hanging, seat 1's 35 hang
    # deal 2: dealer 0, seat 0 orders EVEN from the other side: hanging again, 35 more
    # deal 3: dealer 1, seat 0 orders SIMPLE and makes 92 to 35
    # deal 4: dealer 0, seat 1 orders SIMPLE from the other side and makes 92 to 35
    match = match2(EVEN, ruleset, d2=EVEN, d3=SIMPLE, d4=SIMPLE)
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, EVEN_PLAY)
    assert match.deal.dealer == 0
    say(match, 1, "pas")
    say(match, 0, "igrayu")
    play(match, EVEN_PLAY)
    assert match.deal.dealer == 1
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    assert match.deal.dealer == 0
    say(match, 1, "igrayu")
    play(match, SIMPLE_PLAY)
    return match


def test_hanging_default_variant_a_the_next_deal_plays_for_both() -> None:
    match = four_deals_with_two_hanging(R)
    recs = match.records
    assert [r["outcome"] for r in recs] == ["hanging", "hanging", "made", "made"]
    assert [r["written"] for r in recs] == [[35, 0], [0, 35], [92 + 70, 35], [35, 92]]
    assert [r["hanging"] for r in recs] == [35, 70, 0, 0]
    assert match.totals == [232, 162]


def test_hanging_separate_variant_b_one_sum_per_deal() -> None:
    match = four_deals_with_two_hanging(rules("hanging-separate"))
    recs = match.records
    assert [r["outcome"] for r in recs] == ["hanging", "hanging", "made", "made"]
    # deal 3 plays for the first 35 only; the second waits for deal 4
    assert [r["written"] for r in recs] == [[35, 0], [0, 35], [92 + 35, 35], [35, 92 + 35]]
    assert [r["hanging"] for r in recs] == [35, 35, 35, 0]
    assert [r["hanging_before"] for r in recs] == [0, 35, 35, 35]
    assert [r["hanging_pending_before"] for r in recs] == [[], [], [35], []]
    assert match.totals == [197, 197] and match.hanging == 0


def test_hanging_separate_a_standing_carries_both_sums() -> None:
    """The standing after the two hanging deals above (35 hang now, 35 later), set on
    the match: deal 1 plays for the first sum and deal 2 for the second, as deals 3 and
    4 do there; a refused standing changes nothing."""
    match = match2(SIMPLE, rules("hanging-separate"), d2=SIMPLE)
    with pytest.raises(ValueError, match="never negative"):
        match.set_standing([35, 35], hanging=35, hanging_after=(-1,))
    with pytest.raises(ValueError, match="behind points hanging now"):
        match.set_standing([35, 35], hanging_after=(35,))
    assert (match.totals, match.hanging, match.hanging_pending) == ([0, 0], 0, ())
    match.set_standing([35, 35], hanging=35, hanging_after=(35,))
    assert (match.deal.hanging_in, match.deal.hanging_pending) == (35, (35,))
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    say(match, 1, "igrayu")
    play(match, SIMPLE_PLAY)
    recs = match.records
    assert [r["written"] for r in recs] == [[92 + 35, 35], [35, 92 + 35]]
    assert [r["hanging_before"] for r in recs] == [35, 35]
    assert [r["hanging_pending_before"] for r in recs] == [[35], []]
    assert match.totals == [197, 197] and match.hanging == 0


def test_later_hanging_sums_need_hanging_separate() -> None:
    match = match2(SIMPLE)
    with pytest.raises(ValueError, match="hanging-separate"):
        match.set_standing([0, 0], hanging=35, hanging_after=(35,))
    assert (match.hanging, match.hanging_pending) == (0, ())


# ---------------------------------------------------------------- table-penalties
def test_renonce_is_refused_by_default() -> None:
    match = match2(SIMPLE)
    say(match, 0, "igrayu")
    play(match, "Jc")
    refused(match.deal, 1, "Qs", E.MustFollowSuit, "must-follow-suit")


def test_table_penalties_renonce_is_a_bide_on_cards() -> None:
    match = match2(SIMPLE, rules("table-penalties"))
    say(match, 0, "igrayu")
    play(match, "Jc")
    say(match, 1, "Qs")  # holds 10c Kc: a renonce
    rec = match.records[0]
    # seat 0 writes every card in play (117) and the last trick (10)
    assert (rec["outcome"], rec["points"], rec["written"]) == ("penalty", [0, 0], [127, 0])
    assert rec["notes"] == ["bide on cards: seat 1, must-follow-suit"]
    assert rec["calls"][-1] == {
        "seat": 1,
        "call": "play",
        "card": "Qs",
        "ms": 0,
        "penalty": "must-follow-suit",
    }
    assert match.totals == [127, 0] and match.deal.deal_no == 2


def test_table_penalties_four_players_the_pair_gets_everything() -> None:
    match = match4(rules=build_ruleset(4, options=["table-penalties"]))
    say(match, 0, "igrayu")
    play(match, "Jc")
    say(match, 1, "7s")  # holds 7c Ac
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("penalty", [162, 0])  # all 32 cards + 10
    assert D4[1].startswith("7c Ac")


def test_table_penalties_three_players_the_others_share_like_a_bide() -> None:
    # Reading: "the opponent" of a whistler is both other seats, who share the cards in
    # play as they share a bide (an odd point would go to the one who plays earlier).
    match = match3(rules=build_ruleset(3, options=["table-penalties"]))
    say(match, 0, "igrayu")
    play(match, "Jc")
    say(match, 1, "Js")  # holds Ac Qc
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("penalty", [81, 0, 81])  # (152 + 10) / 2


def test_table_penalties_no_rost_against_a_partner_is_no_penalty() -> None:
    # seat 2 asking rost? of his partner's terts is simply refused: there is nobody to
    # peek at, so it is not a forbidden rost? and not a bide on cards
    deal = Deal(
        rules=build_ruleset(4, options=["table-penalties"]),
        deal_no=1,
        dealer=3,
        deck=build_deck_n(PAIRS, 3, "Kc"),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu", "terts")
    play(deal, "7d 8d")
    refused(deal, 2, "rost?", E.NotAllowed, "not-allowed")
    assert deal.phase == PLAY


# Trump clubs (turned Kc). Seat 0 terts Js-Ks; seat 1 a fifty Jd-Ad / nothing.
TERTS_K = "Js Qs Ks 7h 9h Jh 8d 10d 8c"
FIFTY_A = "Jd Qd Kd Ad 7s 9s Ah 8h 10h"
NOTHING = "7d Kd Ad 7s 9s Ah 8h 10h 9c"


def talk_deal(second: str, ruleset: RuleSet) -> Deal:
    deal = Deal(
        rules=ruleset,
        deal_no=1,
        dealer=1,
        deck=build_deck(TERTS_K, second, "Kc"),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu", "terts")
    play(deal, "7h")
    return deal


def test_rost_holding_a_longer_combination() -> None:
    deal = talk_deal(FIFTY_A, R)
    refused(deal, 1, "rost?", E.ForbiddenRost, "forbidden-rost")
    say(deal, 1, "pyatdesyat")
    play(deal, "Ah")
    assert deal.combo_points() == [0, 50]
    deal = talk_deal(FIFTY_A, rules("table-penalties"))
    say(deal, 1, "rost?")  # punished: his fifty no longer counts, seat 0's terts does
    assert deal.pending is None and deal.phase == PLAY
    assert "pyatdesyat" not in legal(deal, 1) and "rost?" not in legal(deal, 1)
    assert deal.log[-1].penalty == "forbidden-rost"
    play(deal, "Ah")
    assert deal.combo_points() == [20, 0] and deal.tally.card_points == [0, 11]


def test_rost_without_a_combination_is_a_bide_on_cards() -> None:
    deal = talk_deal(NOTHING, R)
    refused(deal, 1, "rost?", E.ForbiddenRost, "forbidden-rost")
    deal = talk_deal(NOTHING, rules("table-penalties"))
    say(deal, 1, "rost?")
    assert deal.phase == DONE and deal.result is not None
    # cards in play: 21 (seat 0) + 50 (seat 1), the last trick 10, and seat 0's declared
    # terts 20: what was declared before the offence still counts for the innocent side
    assert (deal.result.outcome, deal.result.score.written) == ("penalty", [101, 0])


def test_a_forbidden_swap() -> None:
    def second_trump(ruleset: RuleSet) -> Deal:
        deal = Deal(
            rules=ruleset,
            deal_no=1,
            dealer=1,
            deck=build_deck(*SWAP),
            seed="t",
            totals_before=(0, 0),
        )
        say(deal, 0, "pas")
        say(deal, 1, "pas")
        say(deal, 0, "pas")
        say(deal, 1, "igrayu-s")  # a second trump: spades; seat 1 holds the 7s
        play(deal, "9s")
        return deal

    refused(second_trump(R), 1, "menyayu", E.NotAllowed, "not-allowed")
    deal = second_trump(rules("table-penalties"))
    say(deal, 1, "menyayu")
    assert deal.phase == DONE and deal.result is not None
    # spades: seat 0's cards 42, seat 1's 32, and the last trick 10
    assert (deal.result.outcome, deal.result.score.written) == ("penalty", [84, 0])
    assert deal.result.score.notes == ["bide on cards: seat 1, not-allowed"]


# ------------------------------------------------------------------ manual-claim
def test_default_claims_automatically_mid_deal() -> None:
    match = match2(SIMPLE, totals=(480, 0))
    say(match, 0, "igrayu")
    play(match, "Jc Kc")  # 24: 504
    assert match.result is not None and match.result.reason == "claim"


def test_manual_claim_true() -> None:
    match = match2(SIMPLE, rules("manual-claim"), totals=(480, 0))
    say(match, 0, "igrayu")
    assert "konets" not in legal(match.deal, 0)  # no trick taken yet
    play(match, "Jc Kc")
    assert match.result is None and match.deal.running_total(0) == 504  # no auto claim
    assert legal(match.deal, 0)[0] == "konets" and "konets" not in legal(match.deal, 1)
    refused(match.deal, 1, "konets", E.NotYourTurn, "not-your-turn")
    say(match, 0, "konets")
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (0, "claim")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("claim", [24, 0])
    assert match.totals == [504, 0]


def test_manual_claim_missed_then_false() -> None:
    match = match2(SIMPLE, rules("manual-claim"), totals=(400, 0))
    say(match, 0, "igrayu")
    play(match, "Jc Kc")
    say(match, 0, "konets")  # 424 < 501: a false claim loses the game
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (1, "false-claim")
    assert match.records[0]["outcome"] == "false-claim"
    # a true claim that is not made does not end the match; the scoring still does
    match = match2(SIMPLE, rules("manual-claim"), totals=(480, 0))
    say(match, 0, "igrayu")
    play(match, "Jc Kc 9c")
    assert "konets" not in legal(match.deal, 0)  # a card is on the table
    play(match, SIMPLE_PLAY[len("Jc Kc 9c ") :])
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (0, "target")
    assert match.totals == [572, 35]


# ------------------------------------------------------------- option validation
OPTIONS = sorted(
    r.name
    for r in rule_book().rules()
    if r.info.kind == RuleKind.OPTION and r.distribution == "deberc-net"
)


def accepted(players: int, options: tuple[str, ...]) -> bool:
    try:
        build_ruleset(players, options=options)
    except RuleError:
        return False
    return True


def test_every_refused_pair_names_both_options() -> None:
    refused_pairs = 0
    for players in (2, 3, 4):
        alone = {o for o in OPTIONS if accepted(players, (o,))}
        for a, b in itertools.combinations(sorted(alone), 2):
            try:
                build_ruleset(players, options=(a, b))
            except RuleError as error:
                refused_pairs += 1
                text = str(error)
                assert f"'{a}'" in text and f"'{b}'" in text, (players, a, b, text)
    assert refused_pairs >= 30


@pytest.mark.parametrize(
    "pair",
    [
        ("to-301", "to-1001"),
        ("short", "short-bide"),
        ("short", "dave"),
        ("short-bide", "dave"),
        ("short", "to-301"),
        ("dave", "manual-claim"),
        ("short", "poltinniki"),
        ("short", "hanging-separate"),
        ("short", "bide-penalty"),
        ("short", "ski-penalty"),
        ("short", "table-penalties"),
    ],
)
def test_known_contradictions(pair: tuple[str, str]) -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(2, options=pair)
    assert all(f"'{name}'" in str(info.value) for name in pair)
    assert "contradict" in str(info.value)


def test_short_bide_to_leader_contradict_with_three_players() -> None:
    with pytest.raises(RuleError, match="'bide-to-leader'"):
        build_ruleset(3, options=("short-bide", "bide-to-leader"))


@pytest.mark.parametrize(
    ("option", "players"),
    [
        ("bide-to-leader", 2),
        ("bide-to-leader", 4),
        ("partner-exemption", 2),
        ("partner-exemption", 3),
        ("fresa-hidden", 4),
        ("seven-swap-off", 4),
        ("poltinniki", 3),
        ("poltinniki", 4),
        ("dave", 3),
        ("dave", 4),
        ("short", 4),
        ("short-bide", 4),
    ],
)
def test_options_for_another_player_count_are_refused(option: str, players: int) -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(players, options=[option])
    text = str(info.value)
    assert f"'{option}'" in text and f"not {players}" in text


@pytest.mark.parametrize("option", ["dave-geometric", "to-9-stakes"])
def test_options_that_need_dave(option: str) -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(2, options=[option])
    assert f"option '{option}' needs option 'dave'" in str(info.value)
    assert build_ruleset(2, options=[option, "dave"]).options == tuple(sorted([option, "dave"]))


def test_every_option_alone_for_some_player_count() -> None:
    for option in OPTIONS:
        counts = [n for n in (2, 3, 4) if accepted(n, (option,))]
        if option in ("dave-geometric", "to-9-stakes"):
            assert counts == [] and accepted(2, (option, "dave"))
        elif option in ("tertz-501", "tertz-swap-until-two"):  # Tertz's: at its tables only
            assert counts == [] and build_ruleset(2, "tertz", [option]).options == (option,)
        else:
            assert counts, option
