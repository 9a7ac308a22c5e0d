"""docs/rules.md §11, the **Choice** on a `deberts` in a short game: "under
`to-9-stakes` the others write nothing (and the match ends, §10)" — the match, not
only the deal, and whatever the score: a deberts is "end of the game" (seed 004:
"deberts: seven trump cards in a row (end of the game)") as it ends a match to 501.
test_rules_audit3.py has it in a first deal at 0 : 0; here the holder is behind,
8 stakes to 3, and wins the match with the one stake his deberts writes. Scripted
deal, two players, dealer 1, clubs trump (the Ac turned): seat 1 holds 7c..Kc."""

from __future__ import annotations

from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset, say

from .decks import build_deck

DEBERTS = ("7s 8s 9s 10s Js 7h 8h 9h 10h", "7c 8c 9c 10c Jc Qc Kc Qs Ks", "Ac")


def test_a_deberts_ends_a_match_to_9_stakes_for_its_holder_behind() -> None:
    ruleset = build_ruleset(2, options=("dave", "to-9-stakes", "deberts"))
    match = Match(ruleset, seed="nine", dealer=1, decks={1: build_deck(*DEBERTS)})
    match.set_standing([8, 3])
    say(match, 0, "igrayu")
    [rec] = match.records
    assert (rec["outcome"], rec["written"], rec["notes"]) == ("deberts", [0, 1], ["stake 1"])
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (1, "deberts")
    assert match.totals == [8, 4]
