"""Playing Tertz deals in tests: a stacked deck, simple players."""

from __future__ import annotations

from deberc_net.game.deal import DONE
from deberc_net.game.match import Match
from deberc_net.plugins.variants.tertz.deal import TertzDeal
from deberc_net.testing import (
    build_ruleset,
    build_talon_deck,
    legal,
    new_deal,
    new_match,
    play,
    say,
)

RULES = build_ruleset(2, "tertz")


def deal_of(other: str, dealer: str, turned: str, talon: str = "") -> TertzDeal:
    deal = new_deal(RULES, build_talon_deck(other, dealer, turned, talon))
    assert isinstance(deal, TertzDeal)
    return deal


def first_card(deal: TertzDeal | Match, seat: int) -> str:
    """The first legal card, else the first legal call (a break: lomayu-1)."""
    calls = legal(deal, seat)
    cards = [t for t in calls if t[0].isdigit() or t[0] in "JQKA"]
    return (cards or calls)[0]


def step(deal: TertzDeal) -> None:
    seat = deal.to_act
    assert seat is not None
    say(deal, seat, first_card(deal, seat))


def finish(deal: TertzDeal) -> None:
    while deal.phase != DONE:
        step(deal)


# a deal where seat 1 draws a terts from the talon (declared at trick three)
LATE0 = "7c 9c Ad Kd 10s 8s 7s 9d Js"
LATE1 = "10d Jd Qd 7h 9h Ks As Jh Qc"
LATE_TALON = "8h 7d 8d 9s 8c Ah 10c Qs Qh 10h Jc Kc Ac"  # lomayu-1 puts 8h under


# a deal where bob (seat 1), who loses the first trick, holds the trump 7 under the
# turned K♥: he may swap them (menyayu) at any trick of his (docs/rules.md §12.3)
SWAP_ANN = "7c 8c 9c Ad Kd 10s 8s 7s 9d"
SWAP_BOB = "10d Jd Qd 7h 9h Ks As Jh Qc"  # the trump 7 (hearts)
SWAP_TALON = "8h 10h Ah Qh 7d 8d 9s Js Qs 10c Jc Kc"


def swap_match_unplayed() -> Match:
    """The swap deal's match, ann to lead the first trick."""
    return new_match(RULES, build_talon_deck(SWAP_ANN, SWAP_BOB, "Kh", SWAP_TALON))


def swap_match() -> Match:
    """The swap deal's match, its first trick played and the deck broken (lomayu-1),
    ann to lead the second."""
    match = swap_match_unplayed()
    play(match, "Ad 10d")
    say(match, 1, "lomayu-1")
    return match


def swapped_at_trick_two() -> Match:
    """bob, who lost the first trick, swaps his 7♥ for the turned K♥ before his card
    in the second (ann led 7♠)."""
    match = swap_match()
    play(match, "7s")
    say(match, 1, "menyayu")
    play(match, "Ks")
    return match
