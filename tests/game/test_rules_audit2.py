"""A second audit of the engine against docs/rules.md, where the first one
(test_rules_audit.py) stopped: one scripted deal a rule sentence, for sentences no other
test pins (each docstring quotes the sentence with its section)."""

from __future__ import annotations

import pytest

from deberc_net.game import errors as E
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.plugins import RuleError
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

from .decks import (
    D3,
    D4,
    D4_PLAY,
    EVEN,
    EVEN_PLAY,
    SIMPLE,
    SIMPLE_PLAY,
    match3,
    match4,
    rotate,
)


def rules(*options: str, players: int = 2) -> RuleSet:
    return build_ruleset(players, options=options)


def result(match: Match) -> tuple[int | None, str]:
    assert match.result is not None
    return match.result.winner, match.result.reason


# ------------------------------------------------- §8 four players: a hanging bide
# Dealer 3, trump diamonds (the 7d turned, the dealer's). Seat 0 orders; the pairs 0+2
# and 1+3 take 81 each of 162 (152 in cards + the last trick): equal, a hanging bide.
HANG4 = (
    "Qh As Ah 10h 8s 10d Ac Kd",
    "Js 8h Jd Jc 9d 10s Jh Kh",
    "9h Kc 7s 10c 8c Qc Ad Ks",
    "9s Qs 7c Qd 9c 7h 7d 8d",
)
HANG4_PLAY = (
    "Kd 9d Ad 8d Jd Qc 7d 10d Jh 9h 7h Ah 8s Js 7s 9s Kh 8c Qd 10h "
    "9c Ac Jc 10c As 10s Ks Qs Qh 8h Kc 7c"
)


@pytest.mark.parametrize(
    ("second", "written"),
    [
        ("igrayu", [0, 162 + 81]),  # the player pair 0+2 bides: the whistlers take them
        ("pas", [73, 89 + 81]),  # seat 3 orders and makes it: his pair writes more
    ],
)
def test_four_players_hanging_bide_the_whistler_pair_deals_and_plays_for_it(
    second: str, written: list[int]
) -> None:
    """§8 four players: "The player's pair must score more than the other pair. Bide and
    hanging as for two", "Next dealer: **Choice**: the first seat clockwise from the
    dealer that belongs to the pair that wrote more"; §5: "the player's points hang and
    go to whoever **writes** more in the next played deal ... If that next deal is a
    bide, the whistler takes them ... After a hanging bide the whistler deals"."""
    decks = {1: build_deck_n(HANG4, 3, "7d"), 2: build_deck_n(rotate(D4, 2), 1, "Kc")}
    match = Match(build_ruleset(4), seed="audit2", dealer=3, decks=decks)
    say(match, 0, "igrayu")
    play(match, HANG4_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("hanging", [81, 81], [0, 81])
    assert rec["hanging"] == 81 and match.hanging == 81 and match.bides == [0, 0]
    # the whistler pair 1+3: its first seat clockwise from dealer 3 is seat 1
    assert match.deal.dealer == 1
    # deal 2 (D4 moved on two seats): seat 2 bids first and leads; pair 2+0 takes 73,
    # pair 3+1 takes 89 and the last trick
    say(match, 2, second)
    if second == "pas":
        say(match, 3, "igrayu")
    play(match, D4_PLAY)
    rec = match.records[1]
    assert rec["points"] == [73, 89] and rec["written"] == written
    assert rec["hanging_before"] == 81 and rec["hanging"] == 0 and match.hanging == 0


# --------------------------------------- §5, §8 three players: equal whistlers after a bide
# Dealer 0, trump hearts (the Ah turned). Seat 1 bids first, orders and leads; seat 2
# plays second, the dealer last. Seat 1 takes 18, seats 2 and 0 take 63 each: a bide.
EQUAL3 = (
    "10c Ks Qs Jc Jh 8h 7c 10h 8d",
    "10s 9d Js 9c Qc 7h 10d 7d Kc",
    "As Qd Ad 9h 9s Jd Ac 8s Kh",
)
EQUAL3_PLAY = "9c Ac 10c Qd 8d 10d 10s As Qs Ad 10h 7d Jh 7h Kh 7c Kc 9h 9s Ks Js Jc Qc 8s 9d Jd 8h"


def equal_whistlers(ruleset: RuleSet) -> Match:
    deck = build_deck_n(EQUAL3, 0, "Ah")
    match = Match(ruleset, seed="audit2", dealer=0, decks={1: deck})
    say(match, 1, "igrayu")
    play(match, EQUAL3_PLAY)
    return match


def test_three_players_equal_writers_after_a_bide_the_first_clockwise_deals() -> None:
    """§5: "**Next dealer**: the seat that wrote more in the deal. **Choice**: ... of
    several who wrote as much, the first clockwise from the dealer"; §8: "A bide: each
    whistler writes his own points and half the player's" and "Next dealer: the seat
    that wrote the most (several: the first clockwise from the dealer ...)": the
    whistlers write 63 + 9 each; from dealer 0 the first of them clockwise is seat 2,
    not seat 0 (the lower number, and the dealer)."""
    match = equal_whistlers(build_ruleset(3))
    rec = match.records[0]
    assert (rec["outcome"], rec["player"], rec["points"]) == ("bide", 1, [63, 18, 63])
    assert rec["written"] == [72, 0, 72]
    assert match.deal.deal_no == 2 and match.deal.dealer == 2


def test_bide_to_leader_equal_whistlers_all_to_the_earlier() -> None:
    """§8: "Option `bide-to-leader`: all of it to the whistler with more points (equal:
    the earlier)": the whistlers tie at 63; seat 2 plays before seat 0 (dealer 0, seat 1
    leads), so all of the player's 18 are seat 2's, and he then deals (wrote more)."""
    match = equal_whistlers(build_ruleset(3, options=["bide-to-leader"]))
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("bide", [63, 18, 63])
    assert rec["written"] == [63, 0, 63 + 18]
    assert match.deal.dealer == 2


# ---------------------------------------------- §5, §10 a bide on cards with equal writers
def test_three_players_a_whistlers_bide_on_cards_equal_writers_keep_the_hanging() -> None:
    """§5: "A **bide on cards** (`table-penalties`, §10) is a played deal too: the
    hanging points go to the side that writes more in it ... Equal writers: they keep
    hanging." With three players a whistler's renonce gives the player and the other
    whistler half each (§10: "with three players the two others share it as a bide"):
    81 and 81, so the 49 hanging points still hang; of the two equal writers the first
    clockwise from dealer 2, seat 0, deals next."""
    match = match3(rules=rules("table-penalties", players=3))
    match.set_standing([0, 0, 0], hanging=49)
    say(match, 0, "igrayu")
    play(match, "Jc")
    say(match, 1, "Js")  # seat 1 holds Ac Qc: a renonce
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("penalty", [81, 0, 81])
    assert rec["hanging_before"] == 49 and rec["hanging"] == 49 and match.hanging == 49
    assert match.totals == [81, 0, 81]
    assert match.deal.dealer == 0 and match.deal.hanging_in == 49


# ------------------------------------------------------ §10 table-penalties: the renonces
# Trump clubs (the 8c turned). Seat 0 leads; his cards are worth 4 (Kc), seat 1's 44
# (Qc 3, Ac 11, 10s 10, Js 2, Qs 3, 10h 10, Jh 2, Qh 3): 48 in play, and the last trick.
FOUL = ("Kc 7s 8s 9s 7h 8h 7d 8d 9d", "Qc Ac 10s Js Qs 9h 10h Jh Qh", "8c")


@pytest.mark.parametrize(
    ("lead", "card", "code"),
    [("Kc", "Qc", "must-overtrump"), ("7d", "9h", "must-trump")],
)
def test_table_penalties_must_trump_and_must_overtrump_are_bides_on_cards(
    lead: str, card: str, code: str
) -> None:
    """§10 `table-penalties`: "Instead of being refused, these are punished: a card
    against the rules of play (renonce: `must-follow-suit`, `must-trump`,
    `must-overtrump`) ... Each is a **bide on cards**: the deal ends at once (outcome
    `penalty`); the offender writes nothing; the other side writes the card points of
    every card in play plus the last-trick 10": seat 1 plays the Qc under the Kc
    holding the Ac, or a heart on a diamond holding trumps."""
    match = Match(rules("table-penalties"), seed="audit2", dealer=1, decks={1: build_deck(*FOUL)})
    say(match, 0, "igrayu")
    play(match, lead)
    say(match, 1, card)
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("penalty", [48 + 10, 0])
    assert rec["notes"] == [f"bide on cards: seat 1, {code}"]
    assert rec["calls"][-1]["penalty"] == code


def test_table_penalties_senseless_calls_are_still_refused() -> None:
    """§10 `table-penalties`: "Calls that make no sense (a card not in hand, out of turn)
    are still refused", and the punished swap is one "by the holder of the trump 7 on
    his turn": a swap by a seat without the 7 is refused as without the option."""
    deal = new_deal(rules("table-penalties"), build_deck(*FOUL))
    say(deal, 0, "igrayu")
    refused(deal, 0, "menyayu", E.NotAllowed, "not-allowed")  # the 7c is in the talon
    refused(deal, 0, "Ac", E.NotInHand, "illegal-card")
    refused(deal, 1, "Qc", E.NotYourTurn, "not-your-turn")
    play(deal, "Kc")
    refused(deal, 0, "7s", E.NotYourTurn, "not-your-turn")
    assert deal.phase == "play" and deal.result is None


# ---------------------------------------------------------------- §10 ski-penalty
def test_ski_penalty_not_in_a_void_deal() -> None:
    """§10 `ski-penalty`: "a side that took no trick writes −50 (not in a claim or a void
    deal)": both pass twice, nobody took a trick, nobody writes −50."""
    match = Match(rules("ski-penalty"), seed="audit2", dealer=1, decks={1: build_deck(*SIMPLE)})
    for seat in (0, 1, 0, 1):
        say(match, seat, "pas")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"], rec["notes"]) == ("void", [0, 0], [])
    assert match.totals == [0, 0]


# ------------------------------------------------------------------- §10 commitment
def test_commitment_three_players_only_the_dealer_must_name_a_suit() -> None:
    """§10 `commitment`: "the dealer may not pass in round two" — with three players
    seats 0 and 1 may still pass in round two; the dealer (seat 2, last) may not."""
    match = match3(rules=rules("commitment", players=3))
    for seat in (0, 1, 2):
        say(match, seat, "pas")
    assert legal(match.deal, 0)[0] == "pas"
    say(match, 0, "pas")
    assert legal(match.deal, 1)[0] == "pas"
    say(match, 1, "pas")
    assert legal(match.deal, 2) == ["igrayu-s", "igrayu-h", "igrayu-d"]
    refused(match.deal, 2, "pas", E.NotAllowed, "not-allowed")


# ------------------------------------------------------------- §2, §8 void deals
def test_four_players_all_pass_the_deal_passes_on() -> None:
    """§2: "Both pass again: the deal is **void**" and §5: "a void deal passes the deal
    on": with four players, two rounds of four passes, and seat 0 (after dealer 3)
    deals."""
    match = match4()
    for _ in range(2):
        for seat in (0, 1, 2, 3):
            say(match, seat, "pas")
    rec = match.records[0]
    assert (rec["outcome"], rec["void_reason"], rec["written"]) == (
        "void",
        "all passed",
        [0, 0],
    )
    assert match.deal.deal_no == 2 and match.deal.dealer == 0


SEVENS = ("7s 7h 7d 7c 9s Jd 8d 10c Kc", "8s 9h 10s Jh Ad 9d Jc Qc Ac", "Ah")


def test_four_sevens_after_a_hanging_bide_the_points_still_hang() -> None:
    """§2: "**Four sevens** ... The deal is void (reason `sevens`). **Choice**: the same
    dealer deals again" with §5: the hanging points go to whoever writes more "in the
    next played deal (a void deal leaves them hanging)"."""
    decks = {1: build_deck(*EVEN), 2: build_deck(*SEVENS), 3: build_deck(*SIMPLE)}
    match = Match(build_ruleset(), seed="audit2", dealer=1, decks=decks)
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, EVEN_PLAY)
    assert match.hanging == 35 and match.deal.dealer == 0
    say(match, 1, "chetyre-semerki")  # dealer 0: seat 1 holds the four sevens
    rec = match.records[1]
    assert (rec["outcome"], rec["void_reason"], rec["hanging"]) == ("void", "sevens", 35)
    assert match.deal.dealer == 0 and match.deal.hanging_in == 35
    say(match, 1, "igrayu")  # seat 1 leads the strong hand, 92 to 35
    play(match, SIMPLE_PLAY)
    rec = match.records[2]
    assert (rec["outcome"], rec["written"]) == ("made", [35, 92 + 35])
    assert match.hanging == 0


# ---------------------------------------------------------- §7 four players at the target
def test_four_players_both_pairs_over_the_target_the_last_trick_decides() -> None:
    """§7: "With three (or four) players, when several sides reach the target at the same
    scoring, the match goes to the side that took that deal's last trick **if it reached
    the target**" (with `manual-claim`, so that nobody claims mid-deal: "at the scoring
    the claim is part of writing the score and stays automatic"): 450 + 73 = 523 and
    420 + 89 = 509; the pair 1+3 took the last trick and wins on the lower total."""
    match = match4(rules=rules("manual-claim", players=4))
    match.set_standing([450, 420])
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, D4_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("made", [73, 89])
    assert rec["tricks"][-1]["winner"] in (1, 3)
    assert match.totals == [523, 509] and result(match) == (1, "target")


# ------------------------------------------------------------------- §11 short games
def test_short_a_void_deal_is_redealt_and_does_not_count() -> None:
    """§11: "In the short games one deal decides ... Void deals are redealt and do not
    count": both pass twice, the match goes on at 0 stakes each and the next deal
    decides."""
    decks = {1: build_deck(*SIMPLE), 2: build_deck(*SIMPLE)}
    match = Match(rules("short"), seed="audit2", dealer=1, decks=decks)
    for seat in (0, 1, 0, 1):
        say(match, seat, "pas")
    assert match.records[0]["outcome"] == "void" and match.records[0]["written"] == [0, 0]
    assert match.result is None and match.totals == [0, 0] and match.deal.deal_no == 2
    leader = match.deal.to_act
    assert leader is not None
    say(match, leader, "igrayu")  # the dealer's opponent holds SIMPLE's strong hand
    play(match, SIMPLE_PLAY)
    assert match.records[1]["points"][leader] == 92
    assert match.totals[leader] == 1 and result(match) == (leader, "short")


def test_dave_only_on_ones_turn_in_play() -> None:
    """§11 `dave`: "on his turn in play a player may say `dave`": not in the bidding, and
    not on the opponent's turn."""
    match = Match(rules("dave"), seed="audit2", dealer=1, decks={1: build_deck(*SIMPLE)})
    assert "dave" not in legal(match.deal, 0)
    refused(match.deal, 0, "dave", None, None)
    say(match, 0, "igrayu")
    assert "dave" in legal(match.deal, 0) and "dave" not in legal(match.deal, 1)
    refused(match.deal, 1, "dave", None, None)
    play(match, "Jc")
    assert "dave" in legal(match.deal, 1) and "dave" not in legal(match.deal, 0)


# Dealer 2, trump clubs (7c turned). Seat 0 orders and takes 70 with the last trick
# (9h Jh 7s); seats 1 and 2 take 35 each: 70 = 35 + 35 (tests/game/test_review_fixes.py).
HANG3 = (
    "Ks Jh Qh 10c Jc Js Kh 10h Qs",
    "10s 8s 9s Qd 8d 8c 10d 9c 7s",
    "Jd Qc 9h Ad Kd 8h Kc 9d Ah",
)
HANG3_PLAY = "Jc 8c Kc Kh 9c Ah 10d Kd 10c 10h 9s 8h Ks 8s Qc 9d Qs Qd 8d Jd Js Ad Qh 10s 9h Jh 7s"


def test_short_bide_three_players_equal_points_the_last_trick_decides() -> None:
    """§11 `short-bide`: "three players, the player wins or pays one stake from or to
    each whistler. **Choice**: equal points, the taker of the last trick decides, at
    single stakes": the player's 70 equal the whistlers' 35 + 35 (a hanging bide in a
    normal match); he took the last trick, so he wins one stake from each."""
    deck = build_deck_n(HANG3, 2, "7c", fresa="Ac")
    match = Match(rules("short-bide", players=3), seed="audit2", dealer=2, decks={1: deck})
    say(match, 0, "igrayu")
    play(match, HANG3_PLAY)
    rec = match.records[0]
    assert rec["points"] == [70, 35, 35] and rec["tricks"][-1]["winner"] == 0
    assert (rec["outcome"], rec["written"]) == ("made", [2, -1, -1])
    assert result(match) == (0, "short")


# ------------------------------------------------ §10, §11 options: players, exclusions
# The "players" column of §10's table, and §11's "(2–3 players)", "(2 players)".
PLAYERS = {
    "to-301": (2, 3, 4),
    "to-1001": (2, 3, 4),
    "to-1002": (2, 3, 4),
    **{f"stake-{n}": (2, 3, 4) for n in (1, 2, 5, 10, 20, 50, 100)},
    "commitment": (2, 3, 4),
    "bella-after-trick": (2, 3, 4),
    "ski-penalty": (2, 3, 4),
    "bide-penalty": (2, 3, 4),
    "combos-need-trick": (2, 3, 4),
    "pair-combinations": (4,),
    "show-combination": (2, 3, 4),
    "swap-before-extra": (2, 3),
    "fresa-hidden": (2, 3),
    "seven-swap-off": (2, 3),
    "player-leads": (2, 3, 4),
    "dealer-clockwise": (2, 3, 4),
    "partner-exemption": (4,),
    "sequence-by-strength": (2, 3, 4),
    "deberts": (2, 3, 4),
    "hanging-separate": (2, 3, 4),
    "bide-to-leader": (3,),
    "table-penalties": (2, 3, 4),
    "manual-claim": (2, 3, 4),
    "short": (2, 3),
    "short-bide": (2, 3),
    "dave": (2,),
    "poltinniki": (2,),
}


def accepted(players: int, *options: str) -> bool:
    try:
        build_ruleset(players, options=options)
    except RuleError:
        return False
    return True


@pytest.mark.parametrize("option", sorted(PLAYERS))
def test_each_option_is_offered_for_the_player_counts_its_row_gives(option: str) -> None:
    """§10: "| option | players | effect |" — each option alone is accepted for exactly
    the player counts of its row (§11: `short` and `short-bide` "(2–3 players)", `dave`
    and `poltinniki` "(2 players)"); "Options that ... do not fit the player count are
    refused at table creation"."""
    assert tuple(n for n in (2, 3, 4) if accepted(n, option)) == PLAYERS[option]


EXCLUDED = (
    "to-301",
    "to-1001",
    "to-1002",
    *(f"stake-{n}" for n in (1, 2, 5, 10, 20, 50, 100)),
    "manual-claim",
    "hanging-separate",
    "bide-penalty",
    "ski-penalty",
    "table-penalties",
    "bide-to-leader",
    "poltinniki",
)


@pytest.mark.parametrize("game", ["short", "short-bide", "dave"])
def test_short_games_exclude_each_other_and_the_match_options(game: str) -> None:
    """§11: "They are options, so they combine with Moscow or Kharkov; they exclude each
    other and the options that would write points into the stakes or change the match
    end: `to-301`, `to-1001`, `to-1002`, `stake-N`, `manual-claim`, `hanging-separate`,
    `bide-penalty`, `ski-penalty`, `table-penalties`, `bide-to-leader`, `poltinniki`"."""
    others = [g for g in ("short", "short-bide", "dave") if g != game]
    for option in (*others, *EXCLUDED):
        counts = [n for n in PLAYERS[game] if n in PLAYERS[option]]
        for players in counts:
            assert not accepted(players, game, option), (game, option, players)
    for variant in ("moscow", "kharkov"):
        assert build_ruleset(2, variant, options=[game]).options == (game,)


# --------------------------------------------------------- more §2, §5, §7, §10 sentences
def first_legal_card(match: Match) -> None:
    """Play the deal out, each seat its first legal card."""
    deal_no = match.deal.deal_no
    while match.deal.deal_no == deal_no:
        seat = match.deal.to_act
        assert seat is not None
        card = next(t for t in legal(match, seat) if t[0] in "789JQKA1")
        say(match, seat, card)


def test_nothing_the_players_do_changes_a_later_deck() -> None:
    """§2: "Every deck is derived from the match seed and the deal number only ... so
    nothing the players do changes a later deck": one match passes deal 1 out, the other
    plays it; deal 2 is dealt from the same deck (by another dealer)."""
    passed = Match(build_ruleset(), seed="audit2-decks")
    played = Match(build_ruleset(), seed="audit2-decks")
    assert passed.deal.deck == played.deal.deck
    first = passed.deal.to_act
    assert first is not None
    for seat in (first, 1 - first, first, 1 - first):
        say(passed, seat, "pas")
    say(played, first, "igrayu")
    first_legal_card(played)
    assert passed.records[0]["outcome"] == "void" and played.records[0]["outcome"] != "void"
    assert passed.deal.deal_no == played.deal.deal_no == 2
    assert passed.deal.deck == played.deal.deck


def test_seven_swap_off_no_prokhodit_question_either() -> None:
    """§2: "**"Does my trump pass?"** (`prokhodit?`): a seat that may swap the seven and
    holds a trump sequence may ask it once, before deciding" with §10 `seven-swap-off`
    ("no seven swap"): the holder of 7h 8h 9h in hearts may ask by default, not at a
    table without the swap."""
    spec = ("7h 8h 9h 7s Js Qd 8d 10c Kc", "8s 9s 10s Jh Ad 9d Jc Qc Ac", "Ah")
    default = new_deal(build_ruleset(), build_deck(*spec))
    off = new_deal(rules("seven-swap-off"), build_deck(*spec))
    for deal in (default, off):
        say(deal, 0, "igrayu")
    assert legal(default, 0)[:3] == ["menyayu", "prokhodit?", "terts"]
    assert legal(off, 0)[0] == "terts" and "prokhodit?" not in legal(off, 0)
    refused(off, 0, "prokhodit?", E.NotAllowed, "not-allowed")


def test_dealer_clockwise_four_sevens_is_still_a_redeal_by_the_same_dealer() -> None:
    """§2 four sevens: "**Choice**: the same dealer deals again — a redeal, not a passed
    deal", also with §10 `dealer-clockwise` ("the deal passes clockwise every time"):
    a redeal is no deal passed."""
    decks = {1: build_deck(*SEVENS), 2: build_deck(*SIMPLE)}
    match = Match(rules("dealer-clockwise"), seed="audit2", dealer=1, decks=decks)
    say(match, 0, "chetyre-semerki")
    assert match.records[0]["void_reason"] == "sevens"
    assert match.deal.deal_no == 2 and match.deal.dealer == 1
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    assert match.deal.dealer == 0  # now clockwise


def test_an_automatic_claim_does_not_count_the_hanging_points() -> None:
    """§7: "after every trick but the last, if the taker's total plus his points so far
    in the deal (scored sequences, bella, cards) reaches the target, the match ends at
    once" — the points hanging into the deal are not his yet: 470 + 24 = 494 does not
    claim though 35 hang; 470 + 48 = 518 does."""
    match = Match(build_ruleset(), seed="audit2", dealer=1, decks={1: build_deck(*SIMPLE)})
    match.set_standing([470, 0], hanging=35)
    say(match, 0, "igrayu")
    play(match, "Jc Kc")
    assert match.result is None and match.deal.running_total(0) == 494
    play(match, "9c 10c")
    assert result(match) == (0, "claim") and match.records[0]["written"] == [48, 0]


def test_hanging_separate_an_accepted_offer_takes_the_first_sum_only() -> None:
    """§10 `hanging-separate`: "two hanging bides in a row: the next deal plays for the
    first sum, the one after for the second (variant B)" with §5 ("So is a deal ended by
    an accepted offer (`poltinniki`, §11): the player writes 50 and the hanging
    points"): the offer deal pays the first 35, the second 35 still hang."""
    decks = {1: build_deck(*EVEN), 2: build_deck(*EVEN), 3: build_deck(*SIMPLE)}
    match = Match(rules("hanging-separate", "poltinniki"), seed="audit2", dealer=1, decks=decks)
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    say(match, 0, "igraem")
    play(match, EVEN_PLAY)
    say(match, 1, "pas")
    say(match, 0, "igrayu")  # dealer 0 now: seat 1 leads; seat 0 plays and hangs too
    say(match, 1, "igraem")
    play(match, EVEN_PLAY)
    assert [r["outcome"] for r in match.records] == ["hanging", "hanging"]
    assert match.deal.dealer == 1
    say(match, 0, "igrayu")
    say(match, 1, "predlagayu")
    say(match, 0, "prinimayu")
    rec = match.records[2]
    assert (rec["outcome"], rec["written"]) == ("offer", [50 + 35, 0])
    assert rec["hanging"] == 35 and match.hanging == 35


# Dealer 2, trump spades (the Js turned). Seat 0 orders and takes 39; seat 1 takes no
# trick; seat 2 takes 91 with the last trick: a bide.
SKI3 = (
    "9c Ah 9s Kc 10c 8c Jh Kd As",
    "8h Jd 9d 9h Qc 10h 7s Qh 10d",
    "8d Qd 7c Kh Qs 8s Ks Ac Ad",
)
SKI3_PLAY = "Jh 8h Kh 7c Kc Qc 9s 7s Qs 10c 9h Ac Ks As 9d 9c Jd 8s Ad Kd 10d 8d 8c 10h Qd Ah Qh"


def test_ski_penalty_three_players_a_trickless_whistler_after_a_bide() -> None:
    """§10 `ski-penalty` (players: any): "a side that took no trick writes −50", with
    §8: "A bide: each whistler writes his own points and half the player's, the odd
    point to the whistler who plays earlier in the deal": seat 1 took nothing and
    writes 0 + 20 − 50; seat 2 writes 91 + 19."""
    deck = build_deck_n(SKI3, 2, "Js")
    match = Match(rules("ski-penalty", players=3), seed="audit2", dealer=2, decks={1: deck})
    say(match, 0, "igrayu")
    play(match, SKI3_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("bide", [39, 0, 91])
    assert rec["written"] == [0, 20 - 50, 91 + 19]
    assert rec["notes"] == ["ski: side 1 -50"]


# D3 with seat 2's Qs and the talon's 7s exchanged: 149 in play, and the last trick.
D3_ODD = (D3[0], D3[1], D3[2].replace("Qs", "7s"))


@pytest.mark.parametrize("options", [(), ("bide-to-leader",)])
def test_three_players_bide_on_cards_the_odd_point_to_the_earlier(
    options: tuple[str, ...],
) -> None:
    """§10 `table-penalties`: "**Choice**: with three players the two others share it as
    a bide (half each, the odd point to the earlier)" — also under `bide-to-leader`,
    which §8 lets move only "the bide player's own points". Dealer 0: seat 1 leads and
    orders, seat 2 renonces; 159 to share, 80 to seat 1 (plays before seat 0)."""
    ruleset = rules("table-penalties", *options, players=3)
    deck = build_deck_n(rotate(D3_ODD, 1), 0, "7c", fresa="7d")
    match = Match(ruleset, seed="audit2", dealer=0, decks={1: deck})
    say(match, 1, "igrayu")
    play(match, "Jc")
    say(match, 2, "Js")  # seat 2 holds Ac Qc
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("penalty", [79, 80, 0])
    assert rec["notes"] == ["bide on cards: seat 2, must-follow-suit"]


def test_bide_penalty_four_players_counts_a_pairs_bides() -> None:
    """§10 `bide-penalty`: "from a side's third bide on (four players: a pair's), each
    bide costs it 100 more", a Choice (the audit read "a player's third bide" of the seat
    that ordered). Four players: seat 0 bides, his partner seat 2 bides, seat 0 bides
    again — seat 0's second bide, his pair's third: -100."""
    decks = {
        1: build_deck_n(D4, 3, "Kc"),
        2: build_deck_n(rotate(D4, 2), 1, "Kc"),
        3: build_deck_n(D4, 3, "Kc"),
    }
    match = Match(rules("bide-penalty", players=4), seed="audit2", dealer=3, decks=decks)
    say(match, 0, "igrayu")  # 73 to 89: a bide
    play(match, D4_PLAY)
    say(match, 2, "igrayu")  # dealer 1: seat 2 leads D4's seat-0 hand, 73 to 89
    play(match, D4_PLAY)
    assert match.deal.dealer == 3
    say(match, 0, "igrayu")
    play(match, D4_PLAY)
    assert [r["player"] for r in match.records] == [0, 2, 0]
    assert [r["outcome"] for r in match.records] == ["bide"] * 3
    assert match.records[2]["written"] == [-100, 162]  # the pair's third bide


# Dealer 2, trump spades (the Ks turned). With player-leads seat 1 orders and leads;
# seat 2 plays second, seat 0 last. Seat 1 takes 7, seat 0 nothing, seat 2 141.
LEADS3 = (
    "9c 8d 10h 7d 8h 10d Jh Jd Ad",
    "9h Jc 8s Kc Qh Kd Kh Ah 10s",
    "Qs Js As 7s Qd Qc Ac 9s 7c",
)
LEADS3_PLAY = "9h Qs Jh Js Jd 8s Qc 9c Jc Ac 8h Kc Qd 7d Kd 10s 9s 8d 7s Ad Ah As 10h Kh 7c 10d Qh"


def test_player_leads_three_players_the_odd_point_follows_the_play_order() -> None:
    """§8: "A bide: each whistler writes his own points and half the player's, the odd
    point to the whistler who plays earlier in the deal" with §10 `player-leads` ("the
    player who ordered leads the first trick"): seat 1 orders and leads, so seat 2
    plays before seat 0 in this deal and takes the odd point of the player's 7."""
    deck = build_deck_n(LEADS3, 2, "Ks")
    match = Match(rules("player-leads", players=3), seed="audit2", dealer=2, decks={1: deck})
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    assert match.deal.to_act == 1
    play(match, LEADS3_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("bide", [0, 7, 141])
    assert rec["written"] == [0 + 3, 0, 141 + 4]


def test_table_penalties_declaring_fewer_than_held_is_a_false_declaration() -> None:
    """§10 `table-penalties`: "a false declaration (a category or count the seat does
    not hold ...)" is a bide on cards; §3: a seat declares "its **best category** and
    how many it holds of it": holding two terts (Js-Ks, 7h-9h), `terts` is a count he
    does not hold. Seat 1 writes every card in play (74) and the last trick."""
    spec = ("Js Qs Ks 7h 8h 9h 8d 10d 8c", "Qd Kd Ad 7s 9s Ah Jh 10h 9c", "Kc")
    default = new_deal(build_ruleset(), build_deck(*spec))
    say(default, 0, "igrayu")
    refused(default, 0, "terts", E.FalseDeclaration, "false-declaration")
    deal = new_deal(rules("table-penalties"), build_deck(*spec))
    say(deal, 0, "igrayu", "terts")
    assert deal.result is not None
    assert (deal.result.outcome, deal.result.score.written) == ("penalty", [0, 74 + 10])
    assert deal.result.score.notes == ["bide on cards: seat 0, false-declaration"]
