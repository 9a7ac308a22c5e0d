"""docs/rules.md §10 `sequence-by-strength`, its **Choice**: "the higher top card" is the
top's place in its own suit's order, so a trump run to the A (the A sixth of the trump
order 7 8 Q K 10 A 9 J) is "level with a plain run to the K (sixth), where trump
(Moscow) or the earlier declaration (Kharkov) decides; a trump run to the J is level
with a plain run to the A". test_options.py has the run "below"; these are the level
ones. Scripted deals, two players: seat 0 leads and declares first with the plain
run, seat 1 holds the trump one; diamonds are trump (the 8d turned)."""

from __future__ import annotations

import pytest

from deberc_net.game.deal import Deal
from deberc_net.testing import build_ruleset, legal, play, say

from .decks import build_deck

FILL_0 = "7s 9s Qs 7h 9h Qh"  # no run in either order
FILL_1 = "8s Js Ks 8h Jh Kh"  # (a Kd and no Qd: no bella either)


@pytest.mark.parametrize(
    ("plain", "trump", "heard", "answer"),
    [
        ("Jc Qc Kc", "Kd 10d Ad", "ot-K", "ot-A-kozyrnogo"),  # to the K, to the A: sixth
        ("Kc 10c Ac", "Ad 9d Jd", "ot-A", "ot-J-kozyrnogo"),  # to the A, to the J: eighth
    ],
)
@pytest.mark.parametrize("variant", ["moscow", "kharkov"])
def test_a_trump_run_level_by_place_with_a_plain_one(
    variant: str, plain: str, trump: str, heard: str, answer: str
) -> None:
    ruleset = build_ruleset(2, variant=variant, options=("sequence-by-strength",))
    deck = build_deck(f"{plain} {FILL_0}", f"{trump} {FILL_1}", "8d")
    deal = Deal(rules=ruleset, deal_no=1, dealer=1, deck=deck, seed="t", totals_before=(0, 0))
    say(deal, 0, "igrayu", "terts")
    play(deal, "7s")
    say(deal, 1, "rost?")
    assert legal(deal, 0) == [heard]
    say(deal, 0, heard)
    if variant == "moscow":  # level: the trump one is higher
        assert answer in legal(deal, 1)
        say(deal, 1, answer)
        best = 1
    else:  # level: the one declared first
        assert answer not in legal(deal, 1) and "pishet" in legal(deal, 1), legal(deal, 1)
        say(deal, 1, "pishet")
        best = 0
    play(deal, "8s")
    assert deal.combo_points() == ([20, 0] if best == 0 else [0, 20])
