"""Deals the scripted tests share; the helpers are deberc_net.testing's, as a plugin
author uses them (this module re-exports them for the tests' imports).

Dealing with dealer ``d`` and the other seat ``o`` (docs/rules.md 2): deck[0:3] -> o,
[3:6] -> d, [6:9] -> o, [9:12] -> d, deck[12] is the turned card; after the order
[13:16] -> o, [16:19] -> d; the rest is the talon and deck[31] the fresa.
"""

from __future__ import annotations

from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.testing import (
    build_deck,
    build_deck_n,
    build_ruleset,
    cards,
    legal,
    parse,
    play,
    refused,
    say,
    snapshot,
    tokens,
)

__all__ = [
    "CLAIM_DEAL",
    "CLAIM_PLAY",
    "D3",
    "D3C",
    "D3C_PLAY",
    "D3_PLAY",
    "D4",
    "D4_PLAY",
    "EVEN",
    "EVEN_PLAY",
    "PAIRS",
    "PAIRS_FIFTY",
    "PAIR_ROST",
    "R3",
    "R4",
    "SIMPLE",
    "SIMPLE_PLAY",
    "SKI",
    "SKI_PLAY",
    "WEAK_LEADS",
    "WEAK_LEADS_PLAY",
    "R",
    "build_deck",
    "build_deck_n",
    "build_ruleset",
    "cards",
    "claimed_match",
    "legal",
    "match2",
    "match3",
    "match4",
    "parse",
    "play",
    "refused",
    "rotate",
    "say",
    "snapshot",
    "tokens",
]

# Deals several test modules share (dealer = seat 1, seat 0 leads; trump clubs).
# SIMPLE: no combinations. Seat 0 ordering and playing SIMPLE_PLAY makes 92 to 35.
SIMPLE = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")
SIMPLE_PLAY = "Jc Kc 9c 10c Ac Qd As Js 10s Qs Ks 9s 7h Ah 10h 8h Kh 7d"
# EVEN: no combinations, no trump in play; EVEN_PLAY makes exactly 35 to 35.
EVEN = ("As 10s Ks Js 8s 7h 9h 7d 9d", "Ah 10h Kh Jh 7s 9s Qs 8d Qd", "8c")
EVEN_PLAY = "As 7s 10s 9s Ks Qs Js Qd 8s Jh 7h Ah 10h 9h Kh 9d 8d 7d"


R3 = build_ruleset(3)
R4 = build_ruleset(4)

# ----------------------------------------------------------------- three players
# Trump clubs (turned 7c, so nobody can swap). Dealer 2, seat 0 bids first and leads.
# 27 cards in play: 8..A of spades, hearts, diamonds and 9c..Ac: 152 points, +10.
# The talon: 7s 7h 8c, then the fresa 7d.
D3 = ("Jc 10s Ah 8s Jh Kc 9d Qd Kd", "Ac Js 8h 9s Qh Qc Ad 10d Ks", "9c Qs 9h As 10h 10c 8d Jd Kh")
# Tricks (leader first) and who takes them:
#  Jc Ac 9c  -> 0: 45      10s Js Qs -> 0: 15      Ah 8h 9h  -> 0: 11    (seat 0: 71)
#  8s 9s As  -> 2: 11      10h Jh Qh -> 2: 15      10c Kc Qc -> 2: 17    (seat 2: 43)
#  8d 9d Ad  -> 1: 11      10d Jd Qd -> 1: 15      Ks Kh Kd  -> 1: 12+10 (seat 1: 48)
D3_PLAY = "Jc Ac 9c 10s Js Qs Ah 8h 9h 8s 9s As 10h Jh Qh 10c Kc Qc 8d 9d Ad 10d Jd Qd Ks Kh Kd"

# The same 27 cards again, each seat with one terts: seat 0 Jh-Kh, seat 1 Qd-Ad, seat 2
# 10s-Qs. Tricks: Jc Kc Qc -> 0: 27; 9c Ac 10c -> 0: 35; 9s Ks Js -> 1: 6;
# Ah 8h Jh -> 1: 13; 10h 9h Qh -> 1: 13; Ad 8d 9d -> 1: 11; Kd 10d Jd -> 2: 16;
# Qs As 8s -> 0: 14; Kh Qd 10s -> 0: 17+10. Cards: [103, 43, 16].
D3C = ("Jc 9c 9s Jh Qh Kh 9d Jd As", "Kc Ac Ks Ah 10h Ad Kd Qd 8s", "Qc 10c Js 8h 9h 8d 10d Qs 10s")
D3C_PLAY = "9c Ac 10c 9s Ks Js Ah 8h Jh 10h 9h Qh Ad 8d 9d Kd 10d Jd Qs As 8s Kh Qd 10s"


def match3(hands: tuple[str, ...] = D3, dealer: int = 2, rules: RuleSet = R3) -> Match:
    deck = build_deck_n(hands, dealer, "7c", fresa="7d")
    return Match(rules, seed="t3", dealer=dealer, decks={1: deck})


def rotate(hands: tuple[str, ...], by: int) -> tuple[str, ...]:
    """Seat ``i`` gets the hand of seat ``i - by``."""
    n = len(hands)
    return tuple(hands[(i - by) % n] for i in range(n))


# ----------------------------------------------------------------- four players
# Pairs 0+2 and 1+3. Dealer 3, seat 0 bids first and leads. Trump clubs: the turned Kc
# goes to the dealer after the order. Each seat holds two cards of each suit.
# Tricks: Jc 7c Qc 8c -> 0: 23; 9c Ac 10c Kc -> 0: 39; As 7s 8s 9s -> 0: 11 (pair 0+2:
# 73); 7h Ah 8h 9h -> 1: 11; Ad 7d 8d 9d -> 1: 11; 10s Js Qs Ks -> 1: 19;
# 10h Jh Qh Kh -> 1: 19; 10d Jd Qd Kd -> 1: 19+10 (pair 1+3: 89).
D4 = (
    "Jc 9c As 7h 9d Ks Kh Kd",
    "7c Ac 7s Ah Ad 10s 10h 10d",
    "Qc 10c 8s 8h 7d Js Jh Jd",
    "8c Kc 9s 9h 8d Qs Qh Qd",
)
D4_PLAY = (
    "Jc 7c Qc 8c 9c Ac 10c Kc As 7s 8s 9s 7h Ah 8h 9h Ad 7d 8d 9d "
    "10s Js Qs Ks 10h Jh Qh Kh 10d Jd Qd Kd"
)


def match4(hands: tuple[str, ...] = D4, dealer: int = 3, rules: RuleSet = R4) -> Match:
    deck = build_deck_n(hands, dealer, "Kc")
    return Match(rules, seed="t4", dealer=dealer, decks={1: deck})


# Declarations in pairs. Trump clubs (turned Kc, in the dealer's hand). Seat 0 terts
# Jh-Kh; seat 1 terts 8d-10d; seat 2 (seat 0's partner) terts 7s-9s; seat 3 nothing.
PAIRS = (
    "Jh Qh Kh 7c Qc 7d As 10s",
    "8d 9d 10d 8c 9c Ah 10h Ks",
    "7s 8s 9s Jc 10c Jd Qd 9h",
    "Kc Ac Js Qs 7h 8h Kd Ad",
)
# the same with seat 2 holding a fifty 7s-10s instead (10s and 9h swapped with seat 0)
PAIRS_FIFTY = (
    "Jh Qh Kh 7c Qc 7d As 9h",
    "8d 9d 10d 8c 9c Ah 10h Ks",
    "7s 8s 9s Jc 10c Jd Qd 10s",
    "Kc Ac Js Qs 7h 8h Kd Ad",
)


# ----------------------------------------------------------------- two players
R = build_ruleset()


def match2(
    spec: tuple[str, str, str],
    ruleset: RuleSet = R,
    dealer: int = 1,
    totals: tuple[int, int] = (0, 0),
    **more: tuple[str, str, str],
) -> Match:
    """A two-player match whose first deal is ``spec`` (the first hand to the dealer's
    opponent); ``more`` gives later deals as ``d2=...``."""
    decks = {1: build_deck(*spec)}
    decks.update({int(k[1:]): build_deck(*v) for k, v in more.items()})
    match = Match(ruleset, seed="opt", dealer=dealer, decks=decks)
    if totals != (0, 0):
        match.set_standing(list(totals))
    return match


# SIMPLE's hands the other way round: the weak hand leads. Trump clubs (turned 8c).
# Qd 7d -> weak 3; Ah 7h -> weak 11; 10h 8h -> weak 10; Kh 9c -> strong 18;
# Jc 10c 30; Ac Kc 15; As Qs 14; 10s Js 12; Ks 9s 4+10 -> strong. Weak 24, strong 103.
WEAK_LEADS = (SIMPLE[1], SIMPLE[0], "8c")
WEAK_LEADS_PLAY = "Qd 7d Ah 7h 10h 8h Kh 9c Jc 10c Ac Kc As Qs 10s Js Ks 9s"

# Seat 0 (leads, orders clubs) takes every trick: 115. Seat 1 holds the terts 7h-9h and
# bella (Kc Qc) and takes nothing. Jc Kc 24; 9c Qc 17; Ac 7s 11; 8c 8s 0; As 7d 11;
# 10s 8d 10; Ah 7h 11; 10h 8h 10; Ad 9h 11+10.
SKI = ("Jc 9c Ac 8c As 10s Ah 10h Ad", "Kc Qc 7h 8h 9h 7s 8s 7d 8d", "7c")
SKI_PLAY = "9c Qc Ac 7s 8c 8s As 7d 10s 8d Ah 7h 10h 8h Ad 9h"


# four players: the pair answers rost?
# Dealer 3, trump clubs (Kc turned to the dealer). Seat 0 terts 7d-9d; his partner seat 2
# terts Qh-Ah; seat 3 terts Js-Ks (and bella Kc Qc); seat 1 nothing.
PAIR_ROST = (
    "7d 8d 9d 7c 10s 7h Jc Ad",
    "Jd Kd 8c 9c 8h 10h Ac 7s",
    "Qh Kh Ah 10c Qd 8s 9h As",
    "Js Qs Ks Kc Qc 10d Jh 9s",
)


# a match's end by a claim (docs/rules.md §7, §10). Trump clubs; seat 0 (anna, 470)
# takes the first six tricks (44 points) and reaches 501; seat 1 has a fifty
CLAIM_DEAL = ("As Ks Ah Kh 8c 9c Kc Ac Jc", "7s 8s 7h 8h 7d 8d 9d 10d Jd", "10c")
CLAIM_PLAY = "As 7s Ks 8s Ah 7h Kh 8h 8c 7d 9c 8d"


def claimed_match(konets: bool, match_id: str = "1", table: str = "local") -> Match:
    """anna's match against boris, ended mid-deal by a claim (reason claim): with
    ``konets``, her own at a manual-claim table; else the server's, as she reaches the
    target."""
    rules = build_ruleset(options=("manual-claim",) if konets else ())
    match = Match(
        rules, seed="claim", names=("anna", "boris"), table=table, match_id=match_id,
        dealer=1, decks={1: build_deck(*CLAIM_DEAL)},
    )  # fmt: skip
    match.set_standing([470, 0])
    say(match, 0, "igrayu")
    play(match, CLAIM_PLAY)
    if konets:
        say(match, 0, "konets")
    assert match.result is not None and match.result.reason == "claim"
    return match
