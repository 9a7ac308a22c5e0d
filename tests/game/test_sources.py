"""Issue 11: the rules exactly as the sources say (docs/rules.md quotes each one).

Scripted deals for the record and scoring bugs, for the readings of the sources that
changed the engine, for the choices no source makes, and for the options the seeds name.
Each number is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from deberc_net.game import errors as E
from deberc_net.game.deal import ORDERED, PLAY, Deal
from deberc_net.game.match import Match
from deberc_net.game.rules import DealScore, RuleSet
from deberc_net.plugins import RuleError
from deberc_net.plugins.house.short import SHORT
from deberc_net.testing import build_ruleset

from .decks import (
    D3,
    D3_PLAY,
    EVEN,
    EVEN_PLAY,
    PAIR_ROST,
    SIMPLE,
    SIMPLE_PLAY,
    SKI,
    build_deck_n,
    cards,
    legal,
    match2,
    match3,
    play,
    refused,
    rotate,
    say,
)


def rules(*options: str, players: int = 2) -> RuleSet:
    return build_ruleset(players, options=options)


def with_totals(
    match: Match, totals: list[int], hanging: int = 0, bides: list[int] | None = None
) -> Match:
    """The match's first deal, dealt again as if the match stood at ``totals``."""
    match.set_standing(totals, hanging, bides)
    return match


def scored(record: dict[str, object]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for entry in record["declared"]:  # type: ignore[attr-defined]
        out.setdefault(entry["seat"], []).extend(s["combo"] for s in entry["scored"])
    return out


# SKI: seat 0 (leads, orders clubs) takes every trick; seat 1 holds the terts 7h-9h and
# bella (Kc Qc). Seat 0's Jc and seat 1's Kc make the first trick: 24 to seat 0.
def ski_first_trick(match: Match, bella: bool = True) -> None:
    say(match, 0, "igrayu")
    play(match, "Jc")
    say(match, 1, "terts")
    if bella:
        say(match, 1, "bella")
    play(match, "Kc")


# SKI's hands the other way round: seat 0 (leads) holds the terts 7h-9h and bella.
SHOWN = (SKI[1], SKI[0], "7c")


# ------------------------------------------------ 1. combos-need-trick in a cut-short deal
def test_bug1_automatic_claim_writes_no_terts_for_a_seat_without_a_trick() -> None:
    match = with_totals(match2(SKI, rules("combos-need-trick")), [490, 0])
    ski_first_trick(match)
    rec = match.records[-1]
    # 490 + 24 claims; seat 1 took no trick: his terts does not count, his bella does
    assert rec["outcome"] == "claim" and rec["match_over"]["winner"] == 0
    assert rec["points"] == [24, 20] and rec["written"] == [24, 20]
    assert scored(rec) == {1: ["bella"]}
    assert "seat 1 took no trick: his combinations do not count" in rec["notes"]


def test_bug1_konets_writes_no_terts_for_a_seat_without_a_trick() -> None:
    match = with_totals(match2(SKI, rules("combos-need-trick", "manual-claim")), [490, 0])
    ski_first_trick(match, bella=False)
    say(match, 0, "konets")
    rec = match.records[-1]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("claim", [24, 0], [24, 0])
    assert scored(rec) == {1: []}  # he spoke, nothing of his counts


# --------------------------------------- 2. every scoring combination is in the record
def test_bug2_the_partner_who_takes_over_by_rost_is_in_the_record() -> None:
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
    say(deal, 2, "ot-A")  # the pair's best is seat 2's: he answers and takes it over
    say(deal, 3, "pishet")
    play(deal, "Jh")
    listed = {e["seat"]: e for e in deal.record()["declared"]}
    assert listed[2]["calls"] == ["ot-A"]
    assert listed[2]["scored"] == [
        {"combo": "terts to Ah", "cards": ["Qh", "Kh", "Ah"], "points": 20}
    ]
    assert listed[0]["scored"] == []  # seeds 003, 004: only one player scores
    assert deal.combo_points() == [20, 0]


# ------------------------------------------------ 3 and 4. a bide on cards
def penalty_deal(*options: str, hanging: int = 0) -> Match:
    """SKI under table-penalties: seat 1 declares his terts, then plays 7h on the led Jc
    while holding clubs, a renonce. In play: seat 0's cards 98, seat 1's 7, +10: 115."""
    match = with_totals(match2(SKI, rules("table-penalties", *options)), [0, 0], hanging=hanging)
    say(match, 0, "igrayu")
    play(match, "Jc")
    say(match, 1, "terts")
    say(match, 1, "7h")
    return match


def test_bug3_the_offenders_combinations_are_neither_listed_nor_in_points() -> None:
    rec = penalty_deal().records[-1]
    assert rec["outcome"] == "penalty"
    assert rec["points"] == [0, 0]  # not the offender's terts: nothing is written for it
    assert rec["written"] == [115, 0]
    assert scored(rec) == {1: []}
    assert rec["calls"][-1]["penalty"] == "must-follow-suit"


def test_bug4_a_bide_on_cards_pays_out_the_hanging_points() -> None:
    match = penalty_deal(hanging=49)
    rec = match.records[-1]
    assert rec["hanging_before"] == 49
    assert rec["written"] == [115 + 49, 0] and rec["hanging"] == 0
    assert match.hanging == 0 and match.totals == [164, 0]
    assert "hanging 49 to side 0" in rec["notes"]


def test_bug4_three_players_a_player_who_offends_leaves_the_hanging_to_the_whistlers() -> None:
    # D3, dealer 2: seat 0 orders and, holding no combination, declares a terts
    match = with_totals(match3(rules=rules("table-penalties", players=3)), [0, 0, 0], hanging=49)
    say(match, 0, "igrayu", "terts")
    rec = match.records[-1]
    assert rec["outcome"] == "penalty" and rec["calls"][-1]["penalty"] == "false-declaration"
    # 152 + 10 in play: 81 each; the hanging 49: 25 to seat 1 (plays earlier), 24 to seat 2
    assert rec["written"] == [0, 81 + 25, 81 + 24] and rec["hanging"] == 0


@pytest.mark.parametrize("need_trick", [False, True])
def test_bug1_a_bide_on_cards_keeps_the_innocent_sides_terts(need_trick: bool) -> None:
    # SHOWN: seat 0 declares his terts and leads 7d; seat 1, holding Ad, trumps with Jc:
    # a renonce in the first trick, before anybody has taken a trick. Seat 0 is handed
    # every card (105) and the last trick's 10: under combos-need-trick his terts counts
    # all the same, the foul was not his.
    options = ("table-penalties", "combos-need-trick") if need_trick else ("table-penalties",)
    match = match2(SHOWN, rules(*options))
    say(match, 0, "igrayu", "terts")
    play(match, "7d")
    say(match, 1, "Jc")
    rec = match.records[-1]
    assert rec["outcome"] == "penalty" and rec["calls"][-1]["penalty"] == "must-follow-suit"
    assert (rec["points"], rec["written"]) == ([20, 0], [135, 0])
    assert scored(rec) == {0: ["terts to 9h"]}
    assert not any("took no trick" in n for n in rec["notes"])


# -------------------------------------- 5. four players: only one player scores sequences
# (tests/game/test_variants.py: test_four_players_partner_adds_his_sequence[False] and
# test_four_players_partner_with_a_longer_combination_declares_it)


# Four players, dealer 3, trump clubs: seat 0 holds two terts (Jd-Kd, 7s-9s), his
# partner seat 2 one higher terts (Qh-Ah), seat 1 a terts to the queen (10s-Qs).
TWO_TERTS = (
    "Jd Qd Kd 7s 8s 9s 7h 7c",
    "10s Js Qs 8h 9h 8c 9c 7d",
    "Qh Kh Ah 10c Qc 8d 9d As",
    "Ks 10h Jh 10d Ad Jc Kc Ac",
)


def test_point5_a_losing_rost_does_not_hand_the_declaration_to_the_partner() -> None:
    # seat 1's rost? loses to seat 0's own terts to the king: seat 0 answers and keeps
    # his declaration, so both his terts score (40). Handing it to seat 2, whose terts
    # to the ace was not needed, would leave the pair 20: the opponent's question would
    # have cost the declarer a terts
    deal = Deal(
        rules=build_ruleset(4),
        deal_no=1,
        dealer=3,
        deck=build_deck_n(TWO_TERTS, 3, "Kc"),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu", "dva-tertsa")
    play(deal, "7h")
    say(deal, 1, "rost?")
    assert deal.to_act == 0 and legal(deal, 0) == ["ot-K"]
    say(deal, 0, "ot-K")
    assert legal(deal, 1) == ["pishet"]
    say(deal, 1, "pishet")
    play(deal, "8h Ah 10h")  # seat 2 takes the trick
    assert deal.best is not None and deal.best.seat == 0
    assert deal.combo_points() == [40, 0]
    assert scored(deal.record()) == {0: ["terts to 9s", "terts to Kd"], 1: []}


# -------------------------- 6. three players: the whistlers split hanging points equally
def test_point6_hanging_points_split_equally_under_bide_to_leader() -> None:
    match = with_totals(match3(rules=rules("bide-to-leader", players=3)), [0, 0, 0], hanging=49)
    say(match, 0, "igrayu")
    play(match, D3_PLAY)
    rec = match.records[-1]
    # the bide (71) goes whole to seat 1 (48 > 43); the hanging 49 in equal parts, the
    # odd point to seat 1, who plays earlier
    assert (rec["outcome"], rec["points"]) == ("bide", [71, 48, 43])
    assert rec["written"] == [0, 48 + 71 + 25, 43 + 24] and rec["hanging"] == 0


# ------------------------------------ 7. bella-after-trick: the owner's own trick
def test_point7_bella_after_trick_not_after_the_partners_trick() -> None:
    deal = Deal(
        rules=build_ruleset(4, options=["bella-after-trick"]),
        deal_no=1,
        dealer=3,
        deck=build_deck_n(PAIR_ROST, 3, "Kc"),
        seed="t",
        totals_before=(0, 0),
    )
    say(deal, 0, "igrayu")
    play(deal, "7h 10h 9h Jh")  # seat 1 takes it with 10h; seat 3 (bella Kc Qc) did not
    assert deal.tricks[0].winner == 1 and deal.bella_owner == 3
    play(deal, "7s 8s")
    assert deal.turn == 3 and "bella" not in legal(deal, 3)
    refused(deal, 3, "bella", E.NotAllowed, "not-allowed")


# ------------------- 8. three players, several over the target: the last trick decides
def test_point8_the_last_trick_taker_wins_over_a_higher_total() -> None:
    match = with_totals(match3(), [0, 420, 430])
    say(match, 0, "igrayu")
    play(match, D3_PLAY)
    # a bide: seat 1 writes 48 + 36 = 84 (504), seat 2 43 + 35 = 78 (508); seat 1 took
    # the last trick (Ks Kh Kd) and reached the target: he wins
    assert match.totals == [0, 504, 508]
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (1, "target")


# ======================================================== choices no source makes
def test_choice_false_claim_three_players_tie_goes_to_the_earlier_seat() -> None:
    # dealer 0: seat 1 leads and orders, then seat 2, then seat 0
    match = with_totals(
        match3(rotate(D3, 1), dealer=0, rules=rules("manual-claim", players=3)), [300, 0, 300]
    )
    say(match, 1, "igrayu")
    play(match, "Jc Ac 9c")  # seat 1 takes 45
    say(match, 1, "konets")  # 45 < 501: false
    rec = match.records[-1]
    assert rec["outcome"] == "false-claim"
    # seats 0 and 2 stand at 300 each: seat 2 plays earlier in the deal, he wins
    assert rec["match_over"] == {"winner": 2, "reason": "false-claim"}


def test_choice_short_game_tie_without_the_last_trick_taker_goes_to_the_earlier() -> None:
    score = DealScore(
        sides=((0,), (1,), (2,)),
        player_side=0,
        points=[60, 60, 42],
        card_points=[60, 60, 32],
        combo_points=[0, 0, 0],
        bella_points=[0, 0, 0],
        tricks_taken=[3, 3, 3],
        last_trick_side=2,
        hanging_in=0,
        hanging_pending=[],
        bides_before=[0, 0, 0],
        lead_order=[1, 2, 0],
    )
    SHORT.deberc_deal_outcome(score)
    # seats 0 and 1 tie on 60, seat 2 took the last trick: seat 1 plays earlier, he wins
    assert score.written == [-1, 2, -1] and score.outcome == "bide"


def test_choice_a_hanging_bide_is_not_counted_by_bide_penalty() -> None:
    match = with_totals(match2(EVEN, rules("bide-penalty")), [0, 0], bides=[2, 0])
    say(match, 0, "igrayu")
    play(match, EVEN_PLAY)
    rec = match.records[-1]
    assert rec["outcome"] == "hanging" and rec["written"] == [0, 35]
    assert match.bides == [2, 0]


def test_choice_a_bide_on_cards_is_not_counted_by_bide_penalty() -> None:
    match = with_totals(
        match2(SIMPLE, rules("bide-penalty", "table-penalties")), [0, 0], bides=[2, 0]
    )
    say(match, 0, "igrayu", "terts")  # seat 0 holds no terts: a false declaration
    rec = match.records[-1]
    assert rec["outcome"] == "penalty" and rec["written"] == [0, 127]
    assert match.bides == [2, 0] and not any("bide 3" in n for n in rec["notes"])


def test_choice_no_ski_penalty_on_a_bide_on_cards() -> None:
    rec = penalty_deal("ski-penalty").records[-1]
    # neither side has taken a trick when the deal ends: nobody writes -50
    assert rec["outcome"] == "penalty" and rec["written"] == [115, 0]
    assert not any("ski" in n for n in rec["notes"])


def test_choice_target_and_gap_at_once_is_reported_as_target() -> None:
    match = match2(SIMPLE, rules("poltinniki", "manual-claim"), totals=(480, 200))
    say(match, 0, "igrayu")
    say(match, 1, "igraem")
    play(match, SIMPLE_PLAY)
    assert match.totals == [572, 235]  # 501 reached and 337 ahead
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (0, "target")


def test_choice_gap_alone_still_ends_the_match() -> None:
    match = match2(SIMPLE, rules("poltinniki", "manual-claim"), totals=(300, 50))
    say(match, 0, "igrayu")
    say(match, 1, "igraem")
    play(match, SIMPLE_PLAY)
    assert match.totals == [392, 85]
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (0, "gap")


# ======================================================== the seeds' options
def test_pair_combinations_is_for_four_players_only() -> None:
    assert rules("pair-combinations", players=4).settings.pair_combinations
    for players in (2, 3):
        with pytest.raises(RuleError, match="pair-combinations"):
            rules("pair-combinations", players=players)


@pytest.mark.parametrize("show", [False, True])
def test_show_combination_the_best_is_shown_with_the_first_card(show: bool) -> None:
    match = match2(SHOWN, rules("show-combination") if show else rules())
    say(match, 0, "igrayu", "terts")
    play(match, "7d")
    deal = match.deal
    if not show:
        assert deal.shown == {} and "pokazhi" in legal(deal, 1)
        return
    assert deal.shown == {0: cards("7h 8h 9h")}
    last = deal.log[-1]
    assert (last.seat, last.call.name, last.engine) == (0, "pokazyvayu", True)
    assert "pokazhi" not in legal(deal, 1)  # nothing left to ask for


def test_show_combination_a_seat_without_the_best_shows_nothing() -> None:
    match = match2(SHOWN, rules("show-combination"))
    say(match, 0, "igrayu")
    play(match, "7d")  # seat 0 did not declare
    assert match.deal.shown == {}


# Seat 1 (the dealer) gets the trump 7c among his first six cards; turned 8c.
SWAP = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s 7c Ah 10h Kh", "8c")


def test_swap_before_extra_each_seat_is_asked_before_the_last_cards() -> None:
    match = match2(SWAP, rules("swap-before-extra"))
    say(match, 0, "igrayu")
    deal = match.deal
    assert deal.phase == ORDERED and [len(h) for h in deal.hands] == [6, 6]
    # the leader is asked first although he has no seven: the question tells nothing
    assert deal.to_act == 0 and legal(deal, 0) == ["ne-menyayu"]
    refused(deal, 0, "menyayu", E.AnswerRequired, "answer-required")
    say(match, 0, "ne-menyayu")
    assert legal(deal, 1) == ["ne-menyayu", "menyayu"]
    say(match, 1, "menyayu")
    assert deal.phase == PLAY and [len(h) for h in deal.hands] == [9, 9]
    assert deal.turned == cards("7c")[0] and cards("8c")[0] in deal.hands[1]
    play(match, "Jc")
    assert "menyayu" not in legal(deal, 1)  # not later


def test_swap_before_extra_nobody_swaps_and_play_goes_on() -> None:
    match = match2(SWAP, rules("swap-before-extra"))
    say(match, 0, "igrayu", "ne-menyayu")
    say(match, 1, "ne-menyayu")
    deal = match.deal
    assert deal.phase == PLAY and cards("7c")[0] in deal.hands[1]
    play(match, "Jc")
    assert "menyayu" not in legal(deal, 1)  # the swap's moment is past


def test_swap_before_extra_not_asked_in_a_second_trump() -> None:
    match = match2(SWAP, rules("swap-before-extra"))
    say(match, 0, "pas")
    say(match, 1, "pas")
    say(match, 0, "igrayu-h")
    assert match.deal.phase == PLAY


def test_swap_before_extra_default_swaps_in_play() -> None:
    match = match2(SWAP, rules())
    say(match, 0, "igrayu")
    assert match.deal.phase == PLAY
    play(match, "Jc")
    assert "menyayu" in legal(match.deal, 1)


def test_swap_before_extra_conflicts() -> None:
    for other in ("seven-swap-off", "poltinniki"):
        with pytest.raises(RuleError, match="contradict"):
            rules("swap-before-extra", other)
    with pytest.raises(RuleError, match="players"):
        rules("swap-before-extra", players=4)


def test_to_1002() -> None:
    r1002 = rules("to-1002")
    assert r1002.settings.target == 1002
    with pytest.raises(RuleError, match="contradict"):
        rules("to-1002", "to-1001")
    # 977 + 24 = 1001: a claim to 1001, not yet to 1002
    for options, claimed in ((("to-1001",), True), (("to-1002",), False)):
        match = match2(SIMPLE, rules(*options), totals=(977, 0))
        say(match, 0, "igrayu")
        play(match, "Jc Kc")
        assert (match.result is not None) == claimed
    match = match2(SIMPLE, r1002, totals=(977, 0))
    say(match, 0, "igrayu")
    play(match, "Jc Kc 9c 10c")
    assert match.result is not None and match.totals == [1025, 0]


def test_stake_is_settled_with_the_match() -> None:
    match = match2(SIMPLE, rules("stake-5"), totals=(0, 470))
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    rec = match.records[-1]
    assert rec["options"] == ["stake-5"]
    assert rec["match_over"] == {"winner": 1, "reason": "target", "stakes": [-5, 5]}
    match = with_totals(match3(rules=rules("stake-2", players=3)), [0, 420, 430])
    say(match, 0, "igrayu")
    play(match, D3_PLAY)
    assert match.records[-1]["match_over"]["stakes"] == [-2, 4, -2]
    # no stake option, no stakes in the record
    plain = match2(SIMPLE, rules(), totals=(0, 470))
    say(plain, 0, "igrayu")
    play(plain, SIMPLE_PLAY)
    assert "stakes" not in plain.records[-1]["match_over"]


def test_stake_four_players_every_player_puts_his_stake_in() -> None:
    # seed 004: "all players place an initial bet (ante)": four stakes of 5 in the pot;
    # the winning pair takes them (+5 each partner), the losing pair pays 5 each
    match = Match(rules("stake-5", players=4), seed="s4", dealer=3)
    say(match, 0, "pas")
    match.forfeit(1, "left")  # seats 1 and 3 lose
    assert match.records[-1]["match_over"] == {"winner": 0, "reason": "left", "stakes": [10, -10]}


def test_stake_conflicts() -> None:
    with pytest.raises(RuleError, match="contradict"):
        rules("stake-5", "stake-10")
    with pytest.raises(RuleError, match="contradict"):
        rules("stake-5", "short")


def test_swap_before_extra_the_answers_come_first_for_a_four_sevens_holder() -> None:
    # the clock says the first legal call: "no swap", not a redeal by four sevens
    spec = ("Jc 9c Ac 10s As Ks 8h 9h 8d", "7s 7h 7d 7c 9s Js Ah 10h Kh", "8c")
    match = match2(spec, rules("swap-before-extra"))
    say(match, 0, "igrayu", "ne-menyayu")
    assert legal(match.deal, 1) == ["ne-menyayu", "menyayu", "chetyre-semerki"]


def test_choice_four_sevens_window_closes_with_the_leaders_first_card() -> None:
    # seat 1 (not the leader) gets his fourth seven with the last cards; the table does
    # not wait for him: once seat 0's card is down the call is refused
    spec = ("Jc 9c Ac 10s As Ks 8h 9h 8d", "7s 7h 7d 9s Js Ah 7c 10h Kh", "8c")
    match = match2(spec, rules())
    say(match, 0, "igrayu")
    deal = match.deal
    assert deal.to_act == 0 and legal(deal, 1) == ["chetyre-semerki"]
    play(match, "Jc")
    assert "chetyre-semerki" not in legal(deal, 1)
    refused(deal, 1, "chetyre-semerki", E.NotAllowed, "not-allowed")


def test_a_plugins_answers_come_before_four_sevens_too() -> None:
    # poltinniki: seat 1, the whistler, holds the four sevens among his first six cards
    # and is asked offer?; the clock says the first legal call, an answer, not a redeal
    spec = ("Jc 9c Ac 10s As Ks 8h 9h 8d", "7s 7h 7d 7c 9s Js Ah 10h Kh", "8c")
    match = match2(spec, rules("poltinniki"))
    say(match, 0, "igrayu")
    assert match.deal.to_act == 1
    assert legal(match.deal, 1) == ["predlagayu", "igraem", "chetyre-semerki"]
    say(match, 1, "predlagayu")  # the player has no sevens: his answers alone
    assert legal(match.deal, 0) == ["prinimayu", "igraem"]


def test_deberts_after_a_bella_lists_it_in_points_too() -> None:
    # seat 0 says bella (Kc Qc in hand), then swaps 7c for the turned 10c: 8c-Ac, seven
    # trumps in sequence, end the match. The record lists the bella: points carry it
    spec = ("7c 8c 9c Jc Qc Kc Ac 7h 8h", "10s As Ks Js 9s Ah 10h Kh Qd", "10c")
    match = match2(spec, rules("deberts"))
    say(match, 0, "igrayu", "bella", "menyayu")
    rec = match.records[-1]
    assert rec["match_over"] == {"winner": 0, "reason": "deberts"}
    assert scored(rec) == {0: ["bella"]}
    assert (rec["points"], rec["written"]) == ([20, 0], [0, 0])
