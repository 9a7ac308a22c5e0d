"""Scoring a deal: made, bide, hanging bide, next dealer (docs/rules.md §5)."""

from __future__ import annotations

from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset

from .decks import EVEN, EVEN_PLAY, SIMPLE, SIMPLE_PLAY, build_deck, play, say

R = build_ruleset()


def deck(spec: tuple[str, str, str]) -> tuple[int, ...]:
    """``spec`` names the hands as (the dealer's opponent, the dealer): with dealer 0 the
    first hand goes to seat 1, which leads."""
    return build_deck(*spec)


def test_made_each_writes_his_own_and_the_higher_deals_next() -> None:
    match = Match(R, seed="t", dealer=1, decks={1: deck(SIMPLE)})
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [92, 35], [92, 35])
    assert match.totals == [92, 35] and rec["totals"] == [92, 35]
    assert rec["hanging"] == 0 and match.hanging == 0
    assert match.bides == [0, 0]
    assert match.deal.deal_no == 2 and match.deal.dealer == 0  # seat 0 wrote more


def test_bide_the_whistler_writes_both() -> None:
    match = Match(R, seed="t", dealer=1, decks={1: deck(SIMPLE)})
    say(match, 0, "pas")
    say(match, 1, "igrayu")  # the dealer plays and makes only 35 of 127
    play(match, SIMPLE_PLAY)
    rec = match.records[0]
    assert (rec["player"], rec["outcome"]) == (1, "bide")
    assert (rec["points"], rec["written"]) == ([92, 35], [127, 0])
    assert match.totals == [127, 0]
    assert match.bides == [0, 1] and rec["bides_before"] == [0, 0]
    assert match.deal.dealer == 0  # the whistler wrote more


def test_bide_by_the_leader() -> None:
    match = Match(R, seed="t", dealer=0, decks={1: deck(SIMPLE)})
    # dealer 0: seat 1 gets the first hand of SIMPLE and leads
    say(match, 1, "pas")
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    rec = match.records[0]
    assert (rec["player"], rec["outcome"], rec["points"]) == (0, "bide", [35, 92])
    assert rec["written"] == [0, 127] and match.totals == [0, 127]
    assert match.bides == [1, 0]
    assert match.deal.dealer == 1


def test_hanging_bide_points_go_to_whoever_writes_more_next() -> None:
    match = Match(R, seed="t", dealer=1, decks={1: deck(EVEN), 2: deck(SIMPLE)})
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, EVEN_PLAY)
    rec = match.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("hanging", [35, 35], [35, 0])
    assert rec["hanging"] == 35 and match.hanging == 35
    assert match.totals == [35, 0]
    assert match.bides == [0, 0]  # a hanging bide is not a bide
    assert match.deal.dealer == 0  # the whistler deals after a hanging bide
    assert match.deal.hanging_in == 35
    # deal 2: seat 1 (the player who hung) leads, orders and makes 92 to 35
    say(match, 1, "igrayu")
    play(match, SIMPLE_PLAY)
    rec = match.records[1]
    assert (rec["outcome"], rec["points"]) == ("made", [35, 92])
    assert rec["written"] == [35, 92 + 35]
    assert rec["hanging_before"] == 35 and rec["hanging"] == 0
    assert rec["notes"] == ["hanging 35 to side 1"]
    assert match.totals == [70, 127] and match.hanging == 0
    assert match.deal.dealer == 1


def test_hanging_points_go_to_the_whistler_after_a_bide() -> None:
    match = Match(R, seed="t", dealer=1, decks={1: deck(EVEN), 2: deck(SIMPLE)})
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, EVEN_PLAY)
    say(match, 1, "pas")
    say(match, 0, "igrayu")  # seat 0 plays the weak hand: a bide
    play(match, SIMPLE_PLAY)
    rec = match.records[1]
    assert (rec["outcome"], rec["points"]) == ("bide", [35, 92])
    assert rec["written"] == [0, 127 + 35]
    assert match.totals == [35, 162] and match.hanging == 0


def test_two_hanging_bides_then_one_deal_plays_for_both_sums() -> None:
    match = Match(
        R,
        seed="t",
        dealer=1,
        decks={
            1: deck(EVEN),
            2: deck(EVEN),
            3: deck(SIMPLE),
        },
    )
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, EVEN_PLAY)
    assert match.deal.dealer == 0 and match.hanging == 35
    say(match, 1, "pas")
    say(match, 0, "igrayu")  # seat 0 plays this time and hangs as well
    play(match, EVEN_PLAY)
    rec = match.records[1]
    assert (rec["outcome"], rec["player"], rec["written"]) == ("hanging", 0, [0, 35])
    assert rec["hanging_before"] == 35 and rec["hanging"] == 70
    assert match.totals == [35, 35]
    assert match.deal.dealer == 1  # again the whistler
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    rec = match.records[2]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [92, 35], [162, 35])
    assert rec["notes"] == ["hanging 70 to side 0"]
    assert match.totals == [197, 70] and match.hanging == 0
    assert match.deal.dealer == 0


def test_a_void_deal_leaves_the_hanging_points_hanging() -> None:
    match = Match(R, seed="t", dealer=1, decks={1: deck(EVEN), 2: deck(SIMPLE)})
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, EVEN_PLAY)
    for seat in (1, 0, 1, 0):
        say(match, seat, "pas")
    rec = match.records[1]
    assert (rec["outcome"], rec["hanging_before"], rec["hanging"]) == ("void", 35, 35)
    assert match.hanging == 35 and match.totals == [35, 0]
    assert match.deal.dealer == 1 and match.deal.hanging_in == 35
