"""An audit of the engine against docs/rules.md: one scripted deal a rule sentence, for
sentences no other test pins (each docstring quotes the sentence with its section)."""

from __future__ import annotations

import pytest

from deberc_net.game import errors as E
from deberc_net.game.deal import Deal
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.testing import (
    build_deck,
    build_deck_n,
    build_ruleset,
    legal,
    new_deal,
    play,
    refused,
    say,
)

from .decks import D3, D3_PLAY, EVEN, EVEN_PLAY, SKI

R = build_ruleset()
R3 = build_ruleset(3)


def ordered(other: str, dealer: str, turned: str = "Kc", rules: RuleSet = R) -> Deal:
    """A two-player deal (seat 1 deals, seat 0 leads) that seat 0 ordered in the turned
    suit."""
    deal = new_deal(rules, build_deck(other, dealer, turned))
    say(deal, 0, "igrayu")
    return deal


def card_calls(deal: Deal, seat: int) -> list[str]:
    """The cards among the seat's legal calls, sorted."""
    return sorted(t for t in legal(deal, seat) if t[0] in "789JQKA1")


# ------------------------------------------------------------------ §3 combinations
def test_two_tertsa_lose_to_one_higher_terts() -> None:
    """§3: "Order: longer beats shorter (fifty over terts); then the higher top card" and
    the talk: a seat "with the same category asks rost?. The declarer must answer the
    top card of his best combination of that length" — how many he holds of it does
    not count (two terts to K lose to one terts to A)."""
    deal = ordered("Js Qs Ks 7h 8h 9h 8d 10d 8c", "Qd Kd Ad 7s 9s Ah Jh 10h 9c")
    say(deal, 0, "dva-tertsa")
    play(deal, "8d")
    assert "rost?" in legal(deal, 1) and "terts" not in legal(deal, 1)
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-K"]
    say(deal, 0, "ot-K")
    say(deal, 1, "ot-A")
    play(deal, "Qd")
    assert deal.combo_points() == [0, 20]


def test_a_higher_terts_with_a_second_one_scores_both() -> None:
    """§3: "Only the owner of the best sequence scores, and then **all** his sequences":
    the second seat wins the rost? with a terts to A and also writes his terts to 9."""
    deal = ordered("Js Qs Ks 7h 9h Jh 8d 10d 8c", "Qd Kd Ad 7s 8s 9s Ah 10h 9c")
    say(deal, 0, "terts")
    play(deal, "8d")
    assert "dva-tertsa" not in legal(deal, 1)  # the same category: rost?
    say(deal, 1, "rost?")
    say(deal, 0, "ot-K")
    say(deal, 1, "ot-A")
    play(deal, "Qd")
    assert deal.combo_points() == [0, 40]


def test_a_run_of_five_is_a_fifty_compared_by_its_top_card() -> None:
    """§3: "of 4 to 7 a **fifty** (`pyatdesyat`, 50: "higher than fifty there is
    nothing")" and "longer beats shorter (fifty over terts); then the higher top card":
    a run of five (7s-Js) is no longer than a fifty of four, and the four to K beats it
    (seed 002: «если у вас на руках комбинация из пяти и более карт, то считается все
    равно четыре»)."""
    deal = ordered("7s 8s 9s 10s Js Ah 8h 10h 9c", "10d Jd Qd Kd 7h 9h Jh 8c Ac")
    say(deal, 0, "pyatdesyat")
    play(deal, "Ah")
    assert "pyatdesyat" not in legal(deal, 1) and "rost?" in legal(deal, 1)
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-J"]
    say(deal, 0, "ot-J")
    assert legal(deal, 1)[0] == "ot-K"
    say(deal, 1, "ot-K")
    play(deal, "7h")
    assert deal.combo_points() == [0, 50]


def test_bella_counts_for_the_seat_whose_sequences_lost() -> None:
    """§3: "Only the owner of the best sequence scores, and then all his sequences" —
    bella is no sequence ("**Bella**: trump K and Q in one hand, 20"): the seat whose
    terts lost to a fifty still writes his bella."""
    deal = ordered("7s 8s 9s 10s Ah 8h 10h 9c 7d", "Kc Qc Jd Qd Kd 7h 9h Jh 8d", turned="7c")
    say(deal, 0, "pyatdesyat")
    play(deal, "Ah")
    assert "terts" not in legal(deal, 1) and "rost?" not in legal(deal, 1)
    say(deal, 1, "bella")
    play(deal, "7h")
    assert deal.combo_points() == [50, 0]
    assert deal.bella_points() == [0, 20]


# ------------------------------------------------------------------ §4 play
# Three players, dealer 2, trump clubs (turned 7c). Seat 0 leads spades; seats 1 and 2
# have no spade. The talon: 7s Kc Ac Ad.
UNDER = (
    "As Ks Qs Js 10s 9s 8s Ah Kh",
    "10c Jc 7h 8h 9h 10h Jh Qh 7d",
    "Qc 8c 9c 8d 9d 10d Jd Qd Kd",
)


@pytest.mark.parametrize(
    ("trumped", "allowed"),
    [("Jc", ["8c", "9c", "Qc"]), ("10c", ["9c"])],
)
def test_three_players_a_trumped_plain_trick_overtrump_or_any_trump(
    trumped: str, allowed: list[str]
) -> None:
    """§4: "Whenever a trump lies on the table — trump led, or a plain lead already
    trumped — a seat playing a trump must beat the highest trump on the table if it can
    (`must-overtrump`); if it cannot, any trump that the first two rules allow": the
    third seat, void in the led suit, must still trump under the Jc, and must beat the
    10c with his 9c."""
    deal = new_deal(R3, build_deck_n(UNDER, 2, "7c"), dealer=2)
    say(deal, 0, "igrayu")
    play(deal, f"As {trumped}")
    assert card_calls(deal, 2) == allowed
    refused(deal, 2, "8d", E.MustTrump, "must-trump")
    if trumped == "10c":
        refused(deal, 2, "8c", E.MustOvertrump, "must-overtrump")


def test_a_plain_card_need_not_be_beaten() -> None:
    """§4: "Follow suit (`must-follow-suit`)" and "A plain card need not be beaten": the
    follower may play his low spade under the ace though he holds the ten."""
    deal = ordered("As 9c Ac 10h Ah Ks 7h 8h 7d", "10s 7s Qs Js 9s Qh Jh Kh Qd", turned="8c")
    play(deal, "As")
    assert card_calls(deal, 1) == ["10s", "7s", "9s", "Js", "Qs"]
    play(deal, "7s")
    assert deal.tally.card_points == [11, 0]


# ------------------------------------------------------------------ §7 end of the match
def _three_bide(totals: list[int]) -> Match:
    match = Match(R3, seed="audit", dealer=2, decks={1: build_deck_n(D3, 2, "7c", fresa="7d")})
    match.set_standing(totals)
    say(match, 0, "pas")
    say(match, 1, "igrayu")  # seat 1 takes the last trick but makes 48 of 162: a bide
    play(match, D3_PLAY)
    return match


@pytest.mark.parametrize(
    ("totals", "winner"),
    [([406, 0, 435], 2), ([406, 0, 434], 0)],
)
def test_three_players_both_whistlers_reach_the_target_after_a_bide(
    totals: list[int], winner: int
) -> None:
    """§7: "the match goes to the side that took that deal's last trick **if it reached
    the target** ...; only when the last-trick taker did not reach it (a bide player,
    who writes nothing), the highest total of those who did. **Choice**: of equal
    highest totals, the lower side number"."""
    match = _three_bide(totals)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("bide", [71, 48, 43])
    assert rec["written"] == [95, 0, 67]
    assert rec["tricks"][-1]["winner"] == 1
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (winner, "target")


# ------------------------------------------------------------------ §8 three players
# Dealer 2, trump clubs (turned 7c). Seat 0 terts Jh-Kh; seat 1 fifty 9s-Qs; seat 2 a
# run of five 9c-Kc in trump (a fifty to K) and bella. The talon: 7s Ks Jd Qd.
TALK3 = (
    "Jh Qh Kh 8s As 9d 8d Ad 8c",
    "9s 10s Js Qs 7h 9h 7d Kd Ac",
    "9c 10c Jc Qc Kc 8h 10h Ah 10d",
)


def test_three_players_rost_is_asked_of_the_seat_holding_the_best() -> None:
    """§8: "The table talk runs in turn order against the best declaration so far: a
    longer category is declared, the same category asks `rost?` of the seat holding the
    best", and "When a whistler ... holds it, **both whistlers' sequences score**": seat
    2 asks the fifty's owner (seat 1), not the first declarer, and wins for both."""
    deal = new_deal(R3, build_deck_n(TALK3, 2, "7c"), dealer=2)
    say(deal, 0, "igrayu", "terts")
    play(deal, "8s")
    assert "pyatdesyat" in legal(deal, 1) and "rost?" not in legal(deal, 1)
    say(deal, 1, "pyatdesyat")
    play(deal, "9s")
    assert "rost?" in legal(deal, 2) and "pyatdesyat" not in legal(deal, 2)
    say(deal, 2, "rost?")
    assert deal.talk.pending is not None and deal.talk.pending.answerer == 1
    assert legal(deal, 0) == [] and legal(deal, 1) == ["ot-Q"]
    say(deal, 1, "ot-Q")
    say(deal, 2, "ot-K-kozyrnogo")
    play(deal, "9c")
    assert deal.combo_points() == [0, 50, 50]


def test_three_players_any_player_may_swap_the_seven() -> None:
    """§8: "The seven swap is open to any player": the dealer, a whistler, swaps the
    trump 7 for the turned Kc before his first card and then holds bella."""
    hands = (
        "Jh Qh 8s As 9d 8d Ad 8c Ks",
        "9s 10s Js 7h 9h 7d Kd Ac 7s",
        "7c 10c Jc Qc 9c 8h 10h Ah 10d",
    )
    deal = new_deal(R3, build_deck_n(hands, 2, "Kc"), dealer=2)
    say(deal, 0, "igrayu")
    play(deal, "As 7s")
    assert "menyayu" in legal(deal, 2)
    say(deal, 2, "menyayu")
    assert "Kc" in card_calls(deal, 2) and "7c" not in card_calls(deal, 2)
    assert "bella" in legal(deal, 2)


def test_three_players_swap_before_extra_asks_in_dealing_order() -> None:
    """§10 `swap-before-extra`: "before the last cards are dealt, every seat in dealing
    order is asked (`pending=swap?`)" — with three players seat 0, seat 1, then the
    dealer, who holds the 7 — "**Choice**: every seat is asked, holder or not"."""
    hands = (
        "Jh Qh 8s As 9d 8d Ad 8c Ks",
        "9s 10s Js 7h 9h 7d Kd Ac 7s",
        "7c 10c Jc Qc 9c 8h 10h Ah 10d",
    )
    rules = build_ruleset(3, options=["swap-before-extra"])
    deal = new_deal(rules, build_deck_n(hands, 2, "Kc"), dealer=2)
    say(deal, 0, "pas")
    say(deal, 1, "igrayu")
    for seat in (0, 1):
        assert deal.to_act == seat and legal(deal, seat) == ["ne-menyayu"]
        say(deal, seat, "ne-menyayu")
    assert deal.to_act == 2 and legal(deal, 2) == ["ne-menyayu", "menyayu"]


# ------------------------------------------------------------------ §9 Kharkov
# Dealer 2, trump clubs (turned 7c). Seat 0 (leads, orders) a plain fifty 9s-Qs; seat 2
# a trump fifty 9c-Qc: the same length and top card. Seat 1 nothing.
KH3 = (
    "9s 10s Js Qs 8h As 9d Ad 8d",
    "7h 9h Jh Kh 7d 10d Kd Ac 7s",
    "9c 10c Jc Qc 8s 10h Ah Jd Qd",
)


@pytest.mark.parametrize(
    ("variant", "answers", "combos"),
    [
        ("moscow", ["ot-Q-kozyrnogo", "pishet"], [0, 0, 50]),
        ("kharkov", ["pishet"], [50, 0, 0]),
    ],
)
def test_kharkov_three_players_equal_fifties_the_earlier_declared_wins(
    variant: str, answers: list[str], combos: list[int]
) -> None:
    """§9: "of two combinations of the same length and top card, the one declared first
    wins; a trump combination has no precedence. Everything else as Moscow, for 2, 3 and
    4 players": with three, the whistler's trump fifty to Q loses to the player's plain
    one declared first (Moscow: it wins, and only the whistlers' sequences score)."""
    deal = new_deal(build_ruleset(3, variant), build_deck_n(KH3, 2, "7c"), dealer=2)
    say(deal, 0, "igrayu", "pyatdesyat")
    play(deal, "As 7s")
    say(deal, 2, "rost?")
    say(deal, 0, "ot-Q")
    assert legal(deal, 2) == answers
    say(deal, 2, answers[0])
    play(deal, "8s")
    assert deal.combo_points() == combos


# Four players, dealer 3, trump diamonds (turned 8d, the dealer's). Seat 0 a plain terts
# 10s-Qs; seat 1 a plain terts Jh-Kh; seat 2 (seat 0's partner) the trump terts Jd-Kd.
KH4 = (
    "10s Js Qs 7h 9h 7d 9d Jc",
    "Jh Qh Kh 8s Ad 8c 10c 7s",
    "Jd Qd Kd 9s As Ah 8h Qc",
    "Kc 7c Ac 9c 10h 8d 10d Ks",
)


@pytest.mark.parametrize(
    ("variant", "answerer", "answer"),
    [("moscow", 2, "ot-K-kozyrnogo"), ("kharkov", 0, "ot-Q")],
)
def test_kharkov_four_players_the_partner_takes_over_only_with_a_better_one(
    variant: str, answerer: int, answer: str
) -> None:
    """§8: "the declarer answers with his own combination when it beats the asker's;
    only when it does not, and his partner's of that length does, the partner answers"
    with §9 (Kharkov, "for 2, 3 and 4 players"): the partner's trump terts to K beats
    the asker's plain one in Moscow, but in Kharkov it does not (the asker spoke first),
    so the declarer answers for his own terts to Q."""
    deal = new_deal(build_ruleset(4, variant), build_deck_n(KH4, 3, "8d"), dealer=3)
    say(deal, 0, "igrayu", "terts")
    play(deal, "7h")
    say(deal, 1, "rost?")
    assert deal.talk.pending is not None and deal.talk.pending.answerer == answerer
    assert legal(deal, answerer) == [answer]


# ------------------------------------------------------------------ §10 table options
def test_ski_penalty_is_not_written_in_a_claimed_deal() -> None:
    """§10 `ski-penalty`: "a side that took no trick writes −50 (not in a claim or a void
    deal)": seat 0 claims the match after the first trick; seat 1, who took none, writes
    his terts and bella and no −50."""
    rules = build_ruleset(options=["ski-penalty"])
    match = Match(
        rules,
        seed="audit",
        dealer=1,
        decks={1: build_deck(*SKI)},
    )
    match.set_standing([490, 0])
    say(match, 0, "igrayu")
    play(match, "Jc")
    say(match, 1, "terts", "bella")
    play(match, "Kc")
    rec = match.records[-1]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("claim", [24, 40], [24, 40])
    assert match.result is not None and match.result.winner == 0


# Trump hearts (turned Ah). Seat 1 (the dealer) holds the trump 7 and the trump terts
# 7h-9h; seat 0 the plain terts 7c-9c: equal in Kharkov.
EQUAL_TERTS = ("7c 8c 9c Jh Ad 9d Jd Ac 10s", "7h 8h 9h 7s Js Qd Kd Qc 10c", "Ah")


@pytest.mark.parametrize("variant", ["moscow", "kharkov"])
def test_player_leads_the_dealer_who_ordered_declares_first(variant: str) -> None:
    """§9: `prokhodit?` is answered `prokhodit` when the asker's trump sequence is "equal
    and the asker is the seat that declares first (the leader)", with §10 `player-leads`
    ("the player who ordered leads the first trick"): the dealer who ordered leads, so
    his equal trump terts passes in Kharkov too, and the other's equal terts concedes."""
    rules = build_ruleset(2, variant, options=["player-leads"])
    deal = new_deal(rules, build_deck(*EQUAL_TERTS))
    say(deal, 0, "pas")
    say(deal, 1, "igrayu")
    assert deal.to_act == 1
    say(deal, 1, "prokhodit?")
    assert legal(deal, 0) == ["prokhodit"]
    say(deal, 0, "prokhodit")
    say(deal, 1, "terts")
    play(deal, "10c")
    say(deal, 0, "rost?")
    say(deal, 1, "ot-9-kozyrnogo")
    assert legal(deal, 0) == ["pishet"]


def test_hanging_points_go_to_the_player_who_accepts_an_offer() -> None:
    """§5: "the player's points hang and go to whoever **writes** more in the next played
    deal (a void deal leaves them hanging)" with §11 `poltinniki`: "to an offer the player
    says `prinimayu` (he writes 50, the whistler nothing, the deal ends, outcome
    `offer`)". The offer deal is not void and its player writes more: the 35 hanging
    points are his."""
    rules = build_ruleset(options=["poltinniki"])
    decks = {1: build_deck(*EVEN), 2: build_deck(*SKI)}
    match = Match(rules, seed="audit", dealer=1, decks=decks)
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    say(match, 0, "igraem")
    play(match, EVEN_PLAY)
    assert (match.records[0]["outcome"], match.hanging) == ("hanging", 35)
    say(match, 1, "igrayu")  # seat 1 leads deal 2 (the whistler, seat 0, deals)
    say(match, 0, "predlagayu")
    say(match, 1, "prinimayu")
    rec = match.records[1]
    assert rec["outcome"] == "offer"
    assert rec["written"] == [0, 50 + 35] and match.hanging == 0
