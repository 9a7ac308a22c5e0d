"""A third audit of the engine against docs/rules.md: the match's end (§7), three players
(§8, Moscow and Kharkov) and the short games (§11), one scripted deal a rule sentence,
for the sentences no other test pinned (each docstring quotes its sentence and section).

Three-player deals are D3 and D3C (tests/game/decks.py) played in other orders; each
play was found with the engine's own legal cards and is worked out trick by trick in the
comments."""

from __future__ import annotations

import pytest

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

from .decks import D3, D3_PLAY, D3C, D3C_PLAY, rotate


def rules(*options: str, players: int = 3, variant: str = "moscow") -> RuleSet:
    return build_ruleset(players, variant, options=options)


def match3_at(
    hands: tuple[str, ...],
    dealer: int,
    ruleset: RuleSet,
    totals: tuple[int, int, int] = (0, 0, 0),
    hanging: int = 0,
) -> Match:
    """A three-player match whose first deal gives seat ``i`` ``hands[i]`` (trump clubs,
    the 7c turned, the fresa 7d), dealt again at ``totals`` and ``hanging``."""
    deck = build_deck_n(hands, dealer, "7c", fresa="7d")
    match = Match(ruleset, seed="audit3", dealer=dealer, decks={1: deck})
    if totals != (0, 0, 0) or hanging:
        match.set_standing(list(totals), hanging=hanging)
    return match


def result(match: Match) -> tuple[int | None, str]:
    assert match.result is not None
    return match.result.winner, match.result.reason


# ------------------------------------------------ §7, §8: a claim with three players
def _d3c_talk(match: Match) -> None:
    """D3C's talk (tests/game/test_variants.py plays it too): seat 0 orders and declares
    his terts to Kh; seat 1's terts to Ad beats it by rost?; seat 2 asks rost? of seat 1
    and gives way. The first trick (Jc Kc Qc) is seat 0's: the whistlers' sequences add
    up, 20 each."""
    say(match, 0, "igrayu", "terts")
    play(match, "Jc")
    say(match, 1, "rost?")
    say(match, 0, "ot-K")
    say(match, 1, "ot-A")
    play(match, "Kc")
    say(match, 2, "rost?")
    say(match, 1, "ot-A")
    say(match, 2, "pishet")
    play(match, "Qc")


# D3C_PLAY's first three tricks: 9c Ac 10c -> 0 (35); 9s Ks Js -> 1 (6); Ah 8h Jh -> 1 (13)
AFTER_THE_TALK = "9c Ac 10c 9s Ks Js Ah 8h Jh"


@pytest.mark.parametrize("option", [None, "manual-claim"])
def test_three_players_only_the_taker_claims_a_whistler_over_the_target_waits(
    option: str | None,
) -> None:
    """§7: "after every trick but the last, if the taker's total plus his points so far
    in the deal (scored sequences, bella, cards) reaches the target, the match ends at
    once (outcome `claim`). Only the taker ... So a seat already over the target
    without that trick — by a fifty settled at the first trick ... — cannot claim until
    it takes a trick itself; if the other takes one first and reaches the target, the
    other wins, even with the lower total"; "in that record each seat writes the points
    it had so far, with no bide rule"; "points hanging into such a deal (§5) stay
    hanging — the record's `hanging` repeats them and no total takes them ... the same
    after a `konets`"; §8: "When a whistler ... holds it, both whistlers' sequences
    score". Seat 2 stands at 485: his terts (settled at the first trick) puts him at 505,
    but he takes no trick; seat 1, at 470, reaches 509 with his second trick and wins."""
    ruleset = rules() if option is None else rules(option)
    match = match3_at(D3C, 2, ruleset, totals=(0, 470, 485), hanging=30)
    _d3c_talk(match)
    deal = match.deal
    for card in AFTER_THE_TALK.split():
        assert match.result is None
        assert deal.running_total(2) == 505  # over the target since the first trick
        if option is not None:  # nor may he say konets, on his turn or not: no trick
            assert "konets" not in legal(deal, 2)
            refused(deal, 2, "konets", code="not-allowed" if deal.turn == 2 else "not-your-turn")
        play(match, card)
    if option is not None:
        assert match.result is None and deal.running_total(1) == 509
        say(match, 1, "konets")
    assert result(match) == (1, "claim")
    rec = match.records[0]
    # seat 0: 27 + 35; seat 1: 20 + 6 + 13; seat 2: his terts alone. Seat 0, the player,
    # has 62 against 59 and seat 1 took the latest trick: each writes his own, as it stands
    assert (rec["outcome"], rec["points"], rec["written"]) == ("claim", [62, 39, 20], [62, 39, 20])
    assert len(rec["tricks"]) == 4 and match.totals == [62, 509, 505]
    assert rec["hanging_before"] == 30 and rec["hanging"] == 30 and match.hanging == 30


# -------------------------------- §7: several over the target after a bide on cards
@pytest.mark.parametrize(
    ("renonce", "winner"),
    [
        # the fourth trick: seat 0 leads 8s, seat 1 holds 9s Ks and plays Qh; the last
        # trick taken before it (Ah 8h 9h) is seat 0's, who reached the target
        ("Jc Ac 9c 10s Js Qs Ah 8h 9h 8s Qh", 0),
        # the first trick: seat 1 holds Ac Qc and plays Js on the Jc; no trick taken
        ("Jc Js", 2),
    ],
)
def test_three_players_over_the_target_after_a_bide_on_cards(renonce: str, winner: int) -> None:
    """§7: "**Choice**: after a bide on cards (§10), where the other sides write the
    last-trick 10 without anyone taking it, "that deal's last trick" is the last trick
    taken before the offence; in the first trick there is none, and the highest total
    decides." Seat 1 renonces; seats 0 and 2 share the 152 card points and the 10, 81
    each: 425 + 81 = 506 and 450 + 81 = 531, both over the target (seat 0 stood at 496
    after his three tricks: no claim)."""
    match = match3_at(D3, 2, rules("table-penalties"), totals=(425, 0, 450))
    say(match, 0, "igrayu")
    cards = renonce.split()
    play(match, " ".join(cards[:-1]))
    say(match, 1, cards[-1])
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("penalty", [81, 0, 81])
    assert match.totals == [506, 0, 531]
    assert result(match) == (winner, "target")


# ------------------------------------ §8: whose sequences add up when a whistler wins
# Dealer 2 or 1, trump clubs (the 7c turned; nobody holds bella). Seat 0 a fifty 8s-Js;
# seat 1 a fifty 9h-Qh (higher); seat 2 a terts 7d-9d. The talon: 7s Qs 10c Jc.
TALK = (
    "8s 9s 10s Js Ac Kc Ah Ad Jd",
    "9h 10h Jh Qh 8c 9c As Kd 10d",
    "7d 8d 9d Qd Ks Kh 7h 8h Qc",
)


def test_three_players_a_whistler_who_could_not_speak_adds_nothing() -> None:
    """§8: "**Choice**: "the whistlers' declarations add up" credits the sequences of each
    whistler who spoke in the table talk (declared, or asked `rost?`); a whistler who
    stayed silent — even one who could not speak because his category was shorter —
    declared nothing to add." Dealer 2: seat 0 orders and declares his fifty, seat 1
    wins with the higher one by rost?; seat 2's terts comes after a fifty and is never
    offered: only seat 1's fifty scores."""
    deal = new_deal(rules(), build_deck_n(TALK, 2, "7c", fresa="Jc"), dealer=2)
    say(deal, 0, "igrayu", "pyatdesyat")
    play(deal, "Ah")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-J")
    say(deal, 1, "ot-Q")
    play(deal, "9h")
    assert "terts" not in legal(deal, 2) and "rost?" not in legal(deal, 2)
    play(deal, "7h")
    assert deal.tricks[0].winner == 0
    assert deal.combo_points() == [0, 50, 0]


def test_three_players_a_whistler_who_declared_first_adds_his_terts() -> None:
    """§8: "When a whistler (seed 000: «Объявления вистующих складываются, если
    проходит старшее из них») holds it, **both whistlers' sequences score** (they add
    up); the player's do not", with the Choice above: the same hands dealt by seat 1,
    so that seat 2 leads and declares his terts first; seat 0 (the player) declares his
    longer fifty, seat 1 wins with the higher one: seat 1's 50 and seat 2's 20 score,
    seat 0's fifty, which beat the terts, nothing."""
    deal = new_deal(rules(), build_deck_n(TALK, 1, "7c", fresa="Jc"), dealer=1)
    say(deal, 2, "pas")
    say(deal, 0, "igrayu")
    say(deal, 2, "terts")
    play(deal, "Ks")
    say(deal, 0, "pyatdesyat")
    play(deal, "8s")
    say(deal, 1, "rost?")
    say(deal, 0, "ot-J")
    say(deal, 1, "ot-Q")
    play(deal, "As")
    assert deal.tricks[0].winner == 1
    assert deal.combo_points() == [0, 50, 20]


# ------------------------------------------------------- §11 short, three players
def test_short_three_players_the_most_points_win_not_more_than_both_together() -> None:
    """§11 `short`: "more points wins; the winner takes one stake from each loser (...
    three players +2/−1/−1). Who ordered does not matter", and "**Choice**: the deal's
    `outcome` still says how the one who ordered fared ... `made` when he won the deal
    ... so "more than the whistlers together" (§8) is not what winning is": seat 0
    orders and makes 71, less than 48 + 43, and wins."""
    match = match3_at(D3, 2, rules("short"))
    say(match, 0, "igrayu")
    play(match, D3_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [71, 48, 43], [2, -1, -1])
    assert rec["notes"] == ["stake 1"] and result(match) == (0, "short")


# D3 played another way (dealer 2, seat 0 orders and leads):
#  Jh Qh Kh -> 2: 9      9h Ah 8h -> 0: 11     8s Js As -> 2: 13     10c Jc Qc -> 0: 33
#  Kd 10d 8d -> 1: 14    Ks Qs 10s -> 0: 17    9d Ad Jd -> 1: 13     9s 9c Kc -> 2: 18
#  10h Qd Ac -> 1: 24+10.  Seat 0: 61, seat 1: 61 with the last trick, seat 2: 40.
TIE_LAST = "Jh Qh Kh 9h Ah 8h 8s Js As 10c Jc Qc Kd 10d 8d Ks Qs 10s 9d Ad Jd 9s 9c Kc 10h Qd Ac"


def test_short_three_players_a_tie_goes_to_the_taker_of_the_last_trick() -> None:
    """§11 `short`: "**Choice**: equal points go to the taker of the last trick": seats 0
    and 1 make 61 each, seat 1 took the last trick and wins, though seat 0 plays earlier
    (and ordered: `bide`)."""
    match = match3_at(D3, 2, rules("short"))
    say(match, 0, "igrayu")
    play(match, TIE_LAST)
    rec = match.records[0]
    assert rec["points"] == [61, 61, 40] and rec["tricks"][-1]["winner"] == 1
    assert (rec["outcome"], rec["written"]) == ("bide", [-1, 2, -1])
    assert result(match) == (1, "short")


# D3 turned one seat on (seat i holds D3[i - 1]), dealer 0: seat 1 orders and leads,
# then seat 2, then seat 0.
#  10s Ks Qs -> 1: 17    8s Js As -> 0: 13     Kh Ah Qh -> 1: 18     Jh 8h 10h -> 0: 12
#  9h Jc Ac -> 1: 31     Kc Qc 10c -> 0: 17    9c 9d 10d -> 0: 24    8d Kd Ad -> 2: 15
#  9s Jd Qd -> 2: 5+10.  Seat 0: 66, seat 1: 66, seat 2: 30 with the last trick.
TIE_NO_LAST = "10s Ks Qs 8s Js As Kh Ah Qh Jh 8h 10h 9h Jc Ac Kc Qc 10c 9c 9d 10d 8d Kd Ad 9s Jd Qd"


@pytest.mark.parametrize(
    ("game", "outcome", "written", "winner"),
    [
        # the earlier of the two equal ones, seat 1, not the lower number, seat 0
        ("short", "made", [-1, 2, -1], 1),
        # 66 < 66 + 30: the player pays each whistler; of the two level winners the
        # lower side number is named (seat 0), though seat 2 plays before him
        ("short-bide", "bide", [1, -2, 1], 0),
    ],
)
def test_short_three_players_a_tie_without_the_last_trick_taker(
    game: str, outcome: str, written: list[int], winner: int
) -> None:
    """§11 `short`: "**Choice**: equal points go to the taker of the last trick; when he
    is not among them (three players), to the one of them who plays earlier in the
    deal." `short-bide`: "**Choice**: when a three-player player pays, his two whistlers
    win one stake each and end level: the match's `winner=` ... names the lower side
    number of the two, as equal totals are broken in §7 ... (`totals=1,1,-2`,
    `winner=0`)"."""
    match = match3_at(rotate(D3, 1), 0, rules(game))
    say(match, 1, "igrayu")
    play(match, TIE_NO_LAST)
    rec = match.records[0]
    assert rec["points"] == [66, 66, 30] and rec["tricks"][-1]["winner"] == 2
    assert (rec["outcome"], rec["written"]) == (outcome, written)
    assert match.totals == written and result(match) == (winner, "short")


# D3 played a third way (dealer 2, seat 0 orders and leads):
#  8s Ks As -> 2: 15     10h Ah 8h -> 0: 21    9d Ad 8d -> 1: 11     Ac 9c Jc -> 0: 45
#  Kd 10d Jd -> 1: 16    Qc 10c Kc -> 2: 17    Qs 10s Js -> 0: 15    Jh Qh 9h -> 1: 5
#  9s Kh Qd -> 1: 7+10.  Seat 0: 81 = seat 1's 49 + seat 2's 32; seat 1 the last trick.
EQUAL_LAST_TO_A_WHISTLER = (
    "8s Ks As 10h Ah 8h 9d Ad 8d Ac 9c Jc Kd 10d Jd Qc 10c Kc Qs 10s Js Jh Qh 9h 9s Kh Qd"
)


def test_short_bide_three_players_a_tie_lost_on_the_last_trick() -> None:
    """§11 `short-bide`: "**Choice**: equal points (with three players: the player's equal
    to the two whistlers' together), the taker of the last trick decides, at single
    stakes": 81 = 49 + 32 and a whistler took the last trick: the player pays each
    whistler one stake (in a normal match the deal is a hanging bide)."""
    match = match3_at(D3, 2, rules("short-bide"))
    say(match, 0, "igrayu")
    play(match, EQUAL_LAST_TO_A_WHISTLER)
    rec = match.records[0]
    assert rec["points"] == [81, 49, 32] and rec["tricks"][-1]["winner"] == 1
    assert (rec["outcome"], rec["written"]) == ("bide", [-2, 1, 1])
    assert result(match) == (1, "short")
    normal = match3_at(D3, 2, rules())
    say(normal, 0, "igrayu")
    play(normal, EQUAL_LAST_TO_A_WHISTLER)
    assert normal.records[0]["outcome"] == "hanging"


def test_short_with_kharkov_plays_one_deal() -> None:
    """§11: "They are options, so they combine with Moscow or Kharkov" and §9
    "Everything else as Moscow, for 2, 3 and 4 players, and with the short games": D3C
    in Kharkov with `short`; seat 0 makes 103 with the last trick."""
    match = match3_at(D3C, 2, rules("short", variant="kharkov"))
    say(match, 0, "igrayu")
    play(match, "Jc Kc Qc " + D3C_PLAY)
    rec = match.records[0]
    assert rec["variant"] == "kharkov" and rec["points"] == [103, 43, 16]
    assert (rec["outcome"], rec["written"]) == ("made", [2, -1, -1])
    assert result(match) == (0, "short")


# --------------------------------------------------- §11: a deberts in a short game
# Two players, dealer 1, trump clubs (the Ac turned): seat 1 holds 7c..Kc, seven trumps
# in sequence (tests/game/test_options.py's DEBERTS).
DEBERTS2 = ("7s 8s 9s 10s Js 7h 8h 9h 10h", "7c 8c 9c 10c Jc Qc Kc Qs Ks", "Ac")
# Three players, dealer 2, the same trumps in seat 1's hand.
DEBERTS3 = (
    "7s 8s 9s 10s Js 7h 8h 9h 10h",
    "7c 8c 9c 10c Jc Qc Kc Qs Ks",
    "Jh Qh Kh Ah 7d 8d 9d 10d Jd",
)


@pytest.mark.parametrize(
    ("options", "players", "written"),
    [
        (("short",), 2, [-1, 1]),
        (("short",), 3, [-1, 2, -1]),
        # nobody scored less: the player pays one stake, not a lost deal's two
        (("short-bide",), 2, [-1, 1]),
        (("dave",), 2, [-1, 1]),
        (("dave", "to-9-stakes"), 2, [0, 1]),  # the loser writes nothing
    ],
)
def test_a_deberts_in_a_short_game_wins_the_stake(
    options: tuple[str, ...], players: int, written: list[int]
) -> None:
    """§11: "**Choice**: a `deberts` (§10) wins the game for its holder, who takes the
    stake as the winner of a deal in `short` does: one stake (the one reached, with
    `dave`) from each other player — in `short-bide` too ...; under `to-9-stakes` the
    others write nothing". Seat 0 orders clubs; seat 1's seven trumps end the match."""
    ruleset = build_ruleset(players, options=(*options, "deberts"))
    deck = build_deck(*DEBERTS2) if players == 2 else build_deck_n(DEBERTS3, 2, "Ac")
    match = Match(ruleset, seed="audit3", dealer=players - 1, decks={1: deck})
    say(match, 0, "igrayu")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"], rec["notes"]) == ("deberts", written, ["stake 1"])
    assert match.totals == written and result(match) == (1, "deberts")


# Two players, dealer 1, trump hearts (the 8h turned): seat 1 holds 7h and 9h..Ah; the
# seven swap gives him 8h..Ah, seven in sequence.
DEBERTS_BY_SWAP = ("9s 10s Js Qs Ks As 7d 8d 9d", "7h 9h 10h Jh Qh Kh Ah 7s 8s", "8h")


def test_a_deberts_after_an_accepted_dave_wins_the_stake_reached() -> None:
    """§11 `dave` with the Choice above: seat 0 says `dave`, seat 1 accepts (the stake is
    2), then completes his deberts with the seven swap: he wins 2."""
    match = Match(
        build_ruleset(2, options=("dave", "deberts")),
        seed="audit3",
        dealer=1,
        decks={1: build_deck(*DEBERTS_BY_SWAP)},
    )
    say(match, 0, "igrayu", "dave")
    say(match, 1, "prinimayu")
    play(match, "As")
    assert match.result is None
    say(match, 1, "menyayu")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"], rec["notes"]) == ("deberts", [-2, 2], ["stake 2"])
    assert match.totals == [-2, 2] and result(match) == (1, "deberts")


def test_a_deberts_in_a_normal_match_writes_nothing() -> None:
    """§10 `deberts`: "seven trumps in sequence in one hand win the match" — outside the
    short games nothing is written (the totals count points, and none were played)."""
    match = Match(
        build_ruleset(2, options=("deberts",)),
        seed="audit3",
        dealer=1,
        decks={1: build_deck(*DEBERTS2)},
    )
    say(match, 0, "igrayu")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"], rec["notes"]) == ("deberts", [0, 0], [])


# ------------------------------------------------ §8: a false claim with three players
def test_three_players_a_false_claim_goes_to_the_best_total_with_the_points_so_far() -> None:
    """§8: "**Choice**, a false claim (`manual-claim`): the claimer loses; the match goes
    to the best other total (its total before the deal plus its points so far)". D3:
    seat 0 takes the first three tricks (71), seat 2 the fourth (8s 9s As, 11) and says
    `konets` at 11: seat 0's 300 + 71 beats seat 1's 330 + 0, the higher total before
    the deal."""
    match = match3_at(D3, 2, rules("manual-claim"), totals=(300, 330, 0))
    say(match, 0, "igrayu")
    play(match, D3_PLAY[: len("Jc Ac 9c 10s Js Qs Ah 8h 9h 8s 9s As")])
    say(match, 2, "konets")
    rec = match.records[0]
    assert (rec["outcome"], rec["points"]) == ("false-claim", [71, 0, 11])
    assert result(match) == (0, "false-claim")
