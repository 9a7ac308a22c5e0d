"""An audit of the Tertz engine against docs/rules.md §12: one scripted deal a rule
sentence, for sentences tests/tertz/test_rules.py and test_rules_restated.py do not pin
(each docstring quotes the sentence with its section)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from deberc_net.game import errors as E
from deberc_net.game.cards import DECK, parse_card
from deberc_net.game.deal import DONE
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.plugins.manager import RuleError
from deberc_net.plugins.variants.tertz.deal import TertzDeal
from deberc_net.testing import (
    build_ruleset,
    build_talon_deck,
    cards,
    legal,
    new_deal,
    new_match,
    play,
    refused,
    say,
)

RULES = build_ruleset(2, "tertz")
AVOID: frozenset[str] = frozenset()


def deal_of(
    other: str, dealer: str, turned: str, talon: str = "", rules: RuleSet = RULES
) -> TertzDeal:
    """Seat 1 deals: ``other`` is seat 0's hand (he leads), ``dealer`` seat 1's; the talon
    in drawing order under the turned card (before any break)."""
    deal = new_deal(rules, build_talon_deck(other, dealer, turned, talon))
    assert isinstance(deal, TertzDeal)
    return deal


def card_calls(deal: TertzDeal | Match, seat: int) -> list[str]:
    return [t for t in legal(deal, seat) if t[0] in "789JQKA1"]


def talk(deal: TertzDeal, seat: int) -> list[str]:
    """The seat's legal calls that are not cards."""
    return [t for t in legal(deal, seat) if t[0] not in "789JQKA1"]


def quiet_step(deal: TertzDeal | Match, avoid: frozenset[str] = AVOID) -> None:
    """The seat to act plays its first legal card not in ``avoid`` (else its first card);
    it says nothing but the break (lomayu-1)."""
    current = deal if isinstance(deal, TertzDeal) else deal.deal
    seat = current.to_act
    assert seat is not None
    calls = card_calls(deal, seat)
    if not calls:
        say(deal, seat, "lomayu-1")
        return
    say(deal, seat, next((c for c in calls if c not in avoid), calls[0]))


def loser_breaks(deal: TertzDeal) -> None:
    """After the first trick its loser breaks the deck by one card."""
    winner = deal.tricks[0].winner
    assert winner is not None
    say(deal, 1 - winner, "lomayu-1")


def one_deal(rules: RuleSet, seed: str, standing: tuple[int, int] = (0, 0)) -> Match:
    match = new_match(rules, seed=seed)
    match.set_standing(list(standing))
    while not match.records:
        quiet_step(match)
    return match


# ------------------------------------------------------------------ §12.1 dealing
def test_three_at_a_time_the_dealer_last_the_next_card_turned_whoever_deals() -> None:
    """§12.1: «A total of 9 cards are dealt in each hand, three at a time. The sender
    himself receives the cards last.» The next card is turned; its suit is trump. «The
    first to move is the deliverer's opponent.» — with seat 0 dealing (the helpers
    always stack seat 1 as the dealer): seat 1 gets cards 1–3, 7–9, 13–15 of the deck."""
    deck = tuple(reversed(DECK))
    deal = new_deal(RULES, deck, dealer=0)
    assert isinstance(deal, TertzDeal)
    first = [*deck[0:3], *deck[6:9], *deck[12:15]]
    last = [*deck[3:6], *deck[9:12], *deck[15:18]]
    assert sorted(deal.hands[1]) == sorted(first) and sorted(deal.hands[0]) == sorted(last)
    assert deal.turned == deck[18] and deal.trump == deck[18] >> 3
    assert deal.to_act == 1 and deal.talon_left() == 14


def test_the_first_dealer_is_drawn_by_lot() -> None:
    """§12.1: «The first dealer is drawn by lot (§2)»: over matches seeded differently,
    either seat deals the first deal, and its opponent leads."""
    dealers = set()
    for n in range(12):
        match = Match(RULES, seed=f"lot{n}")
        deal = match.deal
        assert isinstance(deal, TertzDeal)
        assert deal.to_act == 1 - deal.dealer
        dealers.add(deal.dealer)
    assert dealers == {0, 1}


# ------------------------------------------------------------------ §12.3 the seven
SEVEN0 = "9s 10s Js 7c 8c Qd Kd 9h Ad"
SEVEN1 = "7h Qh Ah 7s 8s 9c 10d Jc 8d"  # the trump 7, Q and A: the turned K completes


def test_the_seven_is_exchanged_on_the_holders_turn_as_follower_too() -> None:
    """§12.3: «If a player has a trump seven, he can replace it with an open trump at any
    time before his move.» — "On his turn, before his card": the follower's turn is
    after the lead; not before it (not his turn)."""
    deal = deal_of(SEVEN0, SEVEN1, "Kh")
    refused(deal, 1, "menyayu", E.NotYourTurn)
    play(deal, "Ad")
    assert "menyayu" in legal(deal, 1)
    say(deal, 1, "menyayu")
    assert parse_card("Kh") in deal.hands[1] and deal.turned == parse_card("7h")
    assert card_calls(deal, 1) == ["10d", "8d"]  # still his card to play: follow suit


def test_a_terts_and_a_mariage_completed_by_the_seven_exchange_are_declared() -> None:
    """§12.5: «a combination completed by a draw or by the seven exchange is declared at
    the next such turn» and mariage «while he holds the trump king and queen (both may
    come from the talon or the seven exchange)»: Q-K-A♥ and K-Q♥ with the turned K."""
    deal = deal_of(SEVEN1, SEVEN0, "Kh")
    assert talk(deal, 0) == ["menyayu"]
    say(deal, 0, "menyayu")
    assert talk(deal, 0) == ["terts", "bella"]
    say(deal, 0, "terts", "bella")
    while deal.phase != DONE:
        quiet_step(deal)
    assert deal.result is not None
    assert deal.result.score.combo_points == [20, 0]
    assert deal.result.score.bella_points == [20, 0]


# ------------------------------------------------------------------ §12.5 mariage
MARIAGE0 = "Kh Qh 7s 8s 9c 10d Jc 8d As"  # hearts trump (Ah turned)
MARIAGE1 = "9s 10s Js 7c 8c Qd Kd 9h Ad"


def test_mariage_needs_both_cards_in_hand() -> None:
    """§12.5: «Marriage is declared before any move, as long as the player has the cards
    of this combination in his hands»: "while he holds the trump king and queen" — unlike
    Deberts's bella (§3: "as long as he still holds the K or the Q"), once the K is
    played the mariage is gone."""
    deal = deal_of(MARIAGE0, MARIAGE1, "Ah")
    assert "bella" in legal(deal, 0)
    play(deal, "Kh 9h")  # seat 1's trump 9 takes it
    loser_breaks(deal)
    quiet_step(deal)  # seat 1 leads
    assert deal.to_act == 0 and parse_card("Qh") in deal.hands[0]
    assert "bella" not in legal(deal, 0)
    refused(deal, 0, "bella", E.NotAllowed)


def test_mariage_is_declared_after_the_talon_with_fewer_than_nine_cards() -> None:
    """§12.5: mariage "on his turn, before his card, at any trick, while he holds the
    trump king and queen" — not only with nine cards, as the combinations are: at a
    trick after the talon it is still declared and writes 20."""
    deal = deal_of(MARIAGE0, MARIAGE1, "Ah")
    pair = frozenset({"Kh", "Qh"})
    while deal.talon_left() or deal.to_act != 0 or deal.trick.cards:
        quiet_step(deal, pair)
    assert len(deal.hands[0]) < 9
    assert {parse_card("Kh"), parse_card("Qh")} <= set(deal.hands[0])
    assert "bella" in legal(deal, 0)
    say(deal, 0, "bella")
    while deal.phase != DONE:
        quiet_step(deal)
    assert deal.result is not None and deal.result.score.bella_points == [20, 0]


# --------------------------------------------------------- §12.5 combinations, rost?
EQUAL0 = "10d Jd Qd 7s 8s As 9h 7c Ah"  # a terts to Qd (hearts trump: Kh turned)
EQUAL_TALON = "8c 9c 7d 8d Ac Kc Qs Js 10h Jh Qh 7h Kd"  # lomayu-1: 9c and 7d drawn


def test_equal_plain_terts_the_one_declared_earlier_keeps_it() -> None:
    """§12.5: «the combination that has a trump card is more appreciated … the advantage
    is given to the one that was announced earlier»: the best on the table keeps it
    against an equal one — to Q♣ against to Q♦, neither trump: the asker may only say
    pishet, and the terts declared first writes 20."""
    deal = deal_of(EQUAL0, "10c Jc Qc 9s 10s Ks 8h 9d Ad", "Kh", EQUAL_TALON)
    say(deal, 0, "terts")
    play(deal, "As")
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-Q"]
    say(deal, 0, "ot-Q")
    assert legal(deal, 1) == ["pishet"]
    refused(deal, 1, "ot-Q")
    say(deal, 1, "pishet")
    play(deal, "9s")
    say(deal, 1, "lomayu-1")
    play(deal, "7s")
    refused(deal, 1, "rost?", E.ForbiddenRost)  # conceded: not asked again next trick
    while deal.phase != DONE:
        quiet_step(deal)
    assert deal.result is not None and deal.result.score.combo_points == [20, 0]


def test_equal_top_card_the_trump_terts_wins() -> None:
    """§12.5: «the combination that has a trump card is more appreciated»: a terts to
    Q♥ (trump) asked against a terts to Q♦ answers ot-Q-kozyrnogo and writes 20."""
    deal = deal_of("10d Jd Qd 7s 8s As 9c 7c Ac", "10h Jh Qh 9s 10s Ks 8c 9d Ad", "Kh")
    say(deal, 0, "terts")
    play(deal, "As")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-Q")
    assert legal(deal, 1) == ["ot-Q-kozyrnogo", "pishet"]
    say(deal, 1, "ot-Q-kozyrnogo")
    play(deal, "Ks")
    while deal.phase != DONE:
        quiet_step(deal)
    assert deal.result is not None and deal.result.score.combo_points == [0, 20]


def test_the_winner_of_rost_writes_all_his_fresh_combinations() -> None:
    """§12.5: "What: the seat's *fresh* combinations, those it has not declared yet, all
    at once" and «points are awarded only to the player who has the highest
    combination»: "the owner of the best declaration writes all his standing
    combinations" — a fifty won by rost? brings its terts along (70)."""
    deal = deal_of("7d 8d 9d 10d As Ks 9h 7c 8c", "8s 9s 10s Js 9c 10c Jc Ad Ah", "Kh")
    say(deal, 0, "pyatdesyat")
    play(deal, "As")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-10")
    say(deal, 1, "ot-J")
    play(deal, "Js")
    while deal.phase != DONE:
        quiet_step(deal)
    assert deal.result is not None and deal.result.score.combo_points == [0, 70]


def test_a_lower_class_drawn_under_ones_own_best_is_added_to_it() -> None:
    """§12.5: "over the best declaration on the table (or under its own best, which adds
    them to its own) the declaration call": four kings declared at trick one, a terts
    drawn later is declared as `terts` and both are written (120)."""
    # seat 0: four kings, 7c 8c; after lomayu-1 seat 1 draws the 7d, seat 0 the 9c
    deal = deal_of(
        "Ks Kh Kd Kc 7c 8c 7s 8s 10d",
        "As 10s Qs Js 9s Ah 10h Jh Ad",
        "9h",
        "Qh 7d 9c 8d 9d Jd Qd Ac 10c Jc Qc 8h 7h",
    )
    say(deal, 0, "sto-korolei")
    play(deal, "7s As")  # seat 1 takes it: seat 0 breaks
    say(deal, 0, "lomayu-1")
    assert parse_card("9c") in deal.hands[0] and deal.to_act == 1
    quiet_step(deal)
    assert deal.to_act == 0 and "terts" in talk(deal, 0)
    say(deal, 0, "terts")
    while deal.phase != DONE:
        quiet_step(deal)
    assert deal.result is not None and deal.result.score.combo_points == [120, 0]


def test_a_card_in_a_four_of_a_kind_and_a_run_scores_in_both() -> None:
    """§12.5: «It is permissible when one card from a sequential combination is included
    in the combination at its value»: four queens and Q-K-A♠ are declared at once as
    `sto-dam` (named by the highest class) and write 120."""
    deal = deal_of("Qs Qh Qd Qc Ks As 7d 8c 9d", "7s 8s 9s Jh 10c Jc Kd Ad 9c", "8h")
    assert talk(deal, 0) == ["sto-dam"]
    say(deal, 0, "sto-dam")
    while deal.phase != DONE:
        quiet_step(deal)
    assert deal.result is not None and deal.result.score.combo_points == [120, 0]


LATE0 = "7c 9c Ad Kd 10s 8s 7s 9d Js"
LATE1 = "10d Jd Qd 7h 9h Ks As Jh Qc"
LATE_TALON = "8h 7d 8d 9s 8c Ah 10c Qs Qh 10h Jc Kc Ac"  # seat 0: 8c, then 10c


def test_a_later_best_declaration_may_be_asked_about_again() -> None:
    """§12.5: "`pokazhi` asks to see the opponent's best declaration, at any time until
    it is shown … a later best declaration may be asked about again" — a terts shown at
    trick three, the fifty it grew to at trick four."""
    deal = deal_of(LATE0, LATE1, "Kh", LATE_TALON)
    play(deal, "Ad 10d")
    say(deal, 1, "lomayu-1")
    play(deal, "9d Jd 9s")  # seat 0 drew the 8c: 7-8-9c
    say(deal, 0, "terts")
    assert "pokazhi" in legal(deal, 1)
    say(deal, 1, "pokazhi")
    say(deal, 0, "pokazyvayu")
    assert "pokazhi" not in legal(deal, 1)
    play(deal, "7s 8d")  # seat 0 drew the 10c: 7-8-9-10c
    say(deal, 0, "pyatdesyat")
    assert "pokazhi" in legal(deal, 1)
    say(deal, 1, "pokazhi")
    say(deal, 0, "pokazyvayu")
    assert set(deal.shown[0]) == set(cards("7c 8c 9c 10c"))


def test_a_combination_held_since_the_deal_is_declared_at_trick_eight() -> None:
    """§12.5: "a seat declares on its turn, before its card, with nothing pending,
    whenever it holds nine cards — at every trick while the talon refills the hands
    (tricks 1–8)": after the seventh draw both hold nine, and a terts kept undeclared
    since the deal is declared at trick eight and writes 20."""
    deal = deal_of(LATE0.replace("Js", "8c"), LATE1, "Kh", LATE_TALON.replace("8c", "Js"))
    kept = frozenset({"7c", "8c", "9c"})
    while len(deal.tricks) < 7 or deal.to_act != 0:
        quiet_step(deal, kept)
    assert deal.talon_left() == 0 and len(deal.hands[0]) == 9
    assert "terts" in talk(deal, 0)
    say(deal, 0, "terts")
    while deal.phase != DONE:
        quiet_step(deal)
    assert deal.result is not None and deal.result.score.combo_points == [20, 0]


def test_pokazhi_is_answered_by_showing_or_at_the_first_trick_by_skin() -> None:
    """§12.5: "`pokazhi` asks to see the opponent's best declaration, at any time until
    it is shown («Show cards when requested»)"; a Choice: "before the demander's first
    card of the deal the declarer may answer `skin`, as in Deberts (§3, the talk,
    item 5)". At trick three the declarer's only answer is `pokazyvayu`."""
    later = deal_of(LATE0, LATE1, "Kh", LATE_TALON)
    play(later, "Ad 10d")
    say(later, 1, "lomayu-1")
    play(later, "9d Jd 9s")
    say(later, 0, "terts")
    play(later, "7s")  # seat 1 to follow: the demander on his turn, before his card
    say(later, 1, "pokazhi")
    assert legal(later, 0) == ["pokazyvayu"]
    first = deal_of(EQUAL0, "10c Jc Qc 9s 10s Ks 8h 9d Ad", "Kh", EQUAL_TALON)
    say(first, 0, "terts")
    play(first, "As")  # seat 1 to follow: the demander on his turn, before his card
    say(first, 1, "pokazhi")
    assert legal(first, 0) == ["pokazyvayu", "skin"]


def test_with_sequence_by_strength_k_10_a_is_a_terts_in_tertz() -> None:
    """§12.5: "Runs are read 7 8 9 10 J Q K A (option `sequence-by-strength` reads them
    in play order, as in §10)" — K 10 A♠ is no terts at a plain table and one with the
    option (§10: "runs read in play-strength order (K 10 A is a terts)")."""
    hand0, hand1 = "Ks 10s As 7c 8d 9d Kc 7h 8h", "9s Js Qs Ah 9h Jh 10d Qd Jd"
    plain = deal_of(hand0, hand1, "Qh")
    assert talk(plain, 0) == ["menyayu"]
    strong = deal_of(hand0, hand1, "Qh", rules=build_ruleset(2, "tertz", ["sequence-by-strength"]))
    assert talk(strong, 0) == ["menyayu", "terts"]  # K 10 A♠ alone


# ------------------------------------------------------------------ §12.6 scoring
TRUMP_VALUES = {"J": 20, "9": 13, "A": 11, "10": 10, "K": 3, "Q": 2}
PLAIN_VALUES = {"A": 11, "10": 10, "K": 3, "Q": 2, "J": 1}


def card_points_taken(record: dict[str, Any], seat: int) -> int:
    """The seat's card points from the record's tricks (§12.4), the last trick's 10 with."""
    points = 10 if record["tricks"][-1]["winner"] == seat else 0
    for trick in record["tricks"]:
        for card in trick["cards"] if trick["winner"] == seat else ():
            rank, suit = card[:-1], card[-1]
            points += (TRUMP_VALUES if suit == record["trump"] else PLAIN_VALUES).get(rank, 0)
    return points


@pytest.mark.parametrize("case", ["eight each", "fewer and the last"])
def test_the_seat_with_fewer_tricks_counts_its_share_rounded(case: str) -> None:
    """§12.6: «The player who has the fewest bribes counts his points. The second player
    determines his score by subtracting the first player's total from one hundred and
    fifty.» "The counting seat's card points (with the last trick if he took it) are
    rounded" (to tens, a five down); **Choice**: "with equal tricks (8 each) the seat
    that did not take the last trick counts" — counted here from the record's cards."""
    for n in range(300):
        record = one_deal(RULES, f"share{n}").records[0]
        if record["declared"]:
            continue
        taken = Counter(t["winner"] for t in record["tricks"])
        last = record["tricks"][-1]["winner"]
        if case == "eight each" and taken[0] == 8:
            counter = 1 - last
        elif case == "fewer and the last" and taken[last] < 8:
            counter = last
        else:
            continue
        points = card_points_taken(record, counter)
        assert points + card_points_taken(record, 1 - counter) == 150
        rounded = (points + 4) // 10 * 10  # 74, 75 -> 70; 76 -> 80
        assert record["written"][counter] == rounded
        assert record["written"][1 - counter] == 150 - rounded
        assert record["outcome"] == "split"
        return
    raise AssertionError(f"no deal without declarations for {case!r}")


# ------------------------------------------------------------------ §12.7 the match
def test_tertz_501_is_not_ended_by_exactly_500() -> None:
    """§12.7: «The game is considered over when any of the players scores 500 points or
    more. If bribes are taken into account … then 501 points must be collected.»
    **Choice**: 500; option `tertz-501` plays to 501 — a total of exactly 500 ends the
    match at a plain table and not with the option."""
    probe = one_deal(RULES, "five-hundred")
    written = probe.records[0]["written"]
    standing = (500 - written[0], 0)
    plain = one_deal(RULES, "five-hundred", standing)
    assert plain.totals[0] == 500 and plain.totals[1] < 500
    assert plain.over and plain.result is not None and plain.result.winner == 0
    strict = one_deal(build_ruleset(2, "tertz", ["tertz-501"]), "five-hundred", standing)
    assert strict.totals[0] == 500 and not strict.over


def test_nothing_is_claimed_during_a_deal() -> None:
    """§12.7: "Nothing is claimed during a deal (its points are known at its end)": a
    seat 1 short of the target plays all sixteen tricks."""
    match = one_deal(RULES, "no-claim", (499, 499))
    record = match.records[0]
    assert len(record["tricks"]) == 16 and record["outcome"] == "split"
    assert match.over


@pytest.mark.parametrize(
    ("options", "target"),
    [
        ((), 500),
        (("to-301",), 301),
        (("to-1001",), 1001),
        (("to-1002",), 1002),
        (("stake-5",), 500),
        (("sequence-by-strength", "show-combination"), 500),
    ],
)
def test_the_targets_stakes_and_the_two_options_combine_with_tertz(
    options: tuple[str, ...], target: int
) -> None:
    """§12.8: "`rules` names them all; the targets, stakes, `sequence-by-strength` and
    `show-combination` do [combine with `tertz`]" — and a target option sets the match's
    target over Tertz's 500."""
    rules = build_ruleset(2, "tertz", list(options))
    assert rules.settings.target == target


class RefusesTertz:
    """A third party's option whose own conflicts name the variant."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="not-with-tertz", kind="option", summary="x", conflicts=("tertz",))


def test_a_third_partys_option_that_names_tertz_in_its_conflicts_is_refused() -> None:
    """§12.8: the option `table-penalties` does not combine with `tertz`, "nor an option
    whose own `conflicts` name `tertz` (a third party's)"."""
    with pytest.raises(RuleError, match="'not-with-tertz' is not played with the variant"):
        build_ruleset(2, "tertz", ["not-with-tertz"], plugins=[RefusesTertz()])
    assert (
        "not-with-tertz"
        in build_ruleset(2, "moscow", ["not-with-tertz"], plugins=[RefusesTertz()]).options
    )


def test_a_stake_is_settled_in_the_last_record_of_a_tertz_match() -> None:
    """§12.8 (stakes combine with `tertz`) and §10: "the match's last record carries the
    settlement in `match_over.stakes` (per side: two players `+N`/`−N`)"."""
    match = one_deal(build_ruleset(2, "tertz", ["stake-5"]), "stake", (490, 0))
    assert match.over and match.result is not None
    winner = match.result.winner
    assert winner is not None
    stakes = match.records[-1]["match_over"]["stakes"]
    assert stakes[winner] == 5 and stakes[1 - winner] == -5


# ------------------------------------------------------------------ §12.8 penalties
def test_rost_is_answered_only_with_the_true_top_card() -> None:
    """§12.8: «For a false announcement, the opponent scores himself as many points as
    was in the false announcement»: refused, "so it never happens; the engine answers
    `rost?` with the true top card itself" — a false `ot-…` is refused."""
    deal = deal_of(EQUAL0, "10c Jc Qc 9s 10s Ks 8h 9d Ad", "Kh", EQUAL_TALON)
    say(deal, 0, "terts")
    play(deal, "As")
    say(deal, 1, "rost?")
    assert legal(deal, 0) == ["ot-Q"]
    refused(deal, 0, "ot-K", E.FalseDeclaration)
    refused(deal, 0, "ot-J", E.FalseDeclaration)
