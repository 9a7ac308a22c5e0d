"""A fourth audit of the engine against docs/rules.md: §4 Play, §5 Scoring a deal and §6
Penalties with four players, where the two-player tests (test_play.py, test_scoring.py,
test_options.py) pin each sentence and the four-player ones leave some unpinned: one
scripted deal a sentence (each docstring quotes it with its section)."""

from __future__ import annotations

import pytest

from deberc_net.game import errors as E
from deberc_net.game.match import Match
from deberc_net.game.rules import RuleSet
from deberc_net.testing import build_deck_n, build_ruleset, legal, play, refused, say

from .decks import D4, D4_PLAY, PAIRS, match4, rotate

R4 = build_ruleset(4)
PENALTIES4 = build_ruleset(4, options=["table-penalties"])


def cards_of(match: Match, seat: int) -> list[str]:
    return [t for t in legal(match.deal, seat) if t[0] in "789JQKA1"]


# ------------------------------------------------------------------ §4 play
# Dealer 3, trump clubs (the Kc turned, the dealer's). Seats 0 and 3 hold no spade.
OVER4 = (
    "8c Qc Jc 7h 9h Jh 7d 9d",
    "Ac 7s 8s 9s Js Ks 8h 8d",
    "9c 10c As 10s Qs 10h Qh 10d",
    "7c Kc Kh Ah Qd Kd Jd Ad",
)


def test_four_players_beat_the_highest_trump_on_the_table_not_the_led_one() -> None:
    """§4: "Whenever a trump lies on the table — trump led, or a plain lead already
    trumped — a seat playing a trump must beat the highest trump on the table if it can
    (`must-overtrump`); if it cannot, any trump that the first two rules allow. A plain
    card need not be beaten." and "The highest trump takes the trick … the winner of a
    trick leads the next" — with four cards on the table: the 10♣ beats the led 8♣ but
    not the A♣ over it; the K♣ of a trumped spade lead must be beaten by the J♣, not
    joined by the Q♣; the spade of the fourth seat is any spade."""
    match = match4(OVER4)
    say(match, 0, "igrayu")
    assert match.deal.turn == 0  # the dealer's next seat leads
    play(match, "8c")
    assert cards_of(match, 1) == ["Ac"]
    play(match, "Ac")
    assert cards_of(match, 2) == ["9c"]
    refused(match.deal, 2, "10c", E.MustOvertrump, "must-overtrump")
    play(match, "9c")
    assert sorted(cards_of(match, 3)) == ["7c", "Kc"]  # nothing beats the 9: any trump
    refused(match.deal, 3, "Ah", E.MustFollowSuit, "must-follow-suit")
    play(match, "7c")
    assert match.deal.tricks[0].winner == 2 and match.deal.turn == 2
    play(match, "As")
    assert cards_of(match, 3) == ["Kc"]
    refused(match.deal, 3, "Ad", E.MustTrump, "must-trump")
    play(match, "Kc")
    assert cards_of(match, 0) == ["Jc"]
    refused(match.deal, 0, "Qc", E.MustOvertrump, "must-overtrump")
    refused(match.deal, 0, "7h", E.MustTrump, "must-trump")
    play(match, "Jc")
    assert cards_of(match, 1) == ["7s", "8s", "9s", "Js", "Ks"]  # need not beat: any spade
    play(match, "7s")
    assert match.deal.tricks[1].winner == 0 and match.deal.turn == 0


# ------------------------------------------------------------------ §5 scoring
def test_four_players_a_void_deal_leaves_the_hanging_points_for_the_next_played_one() -> None:
    """§5: "the player's points hang and go to whoever **writes** more in the next played
    deal (a void deal leaves them hanging). If that next deal is a bide, the whistler
    takes them" and "a void deal passes the deal on", with §8's "Bide and hanging as for
    two": 40 hang into a deal all four pass; the next, dealt by seat 0, is a bide of the
    pair 1+3, and the whistler pair 0+2 writes 162 and the 40."""
    decks = {1: build_deck_n(D4, 3, "Kc"), 2: build_deck_n(rotate(D4, 1), 0, "Kc")}
    match = Match(R4, seed="audit4", dealer=3, decks=decks)
    match.set_standing([100, 100], hanging=40)
    for _ in range(2):
        for seat in (0, 1, 2, 3):
            say(match, seat, "pas")
    rec = match.records[0]
    assert (rec["outcome"], rec["hanging_before"], rec["hanging"]) == ("void", 40, 40)
    assert match.hanging == 40 and match.deal.dealer == 0
    say(match, 1, "igrayu")
    play(match, D4_PLAY)
    rec = match.records[1]
    assert (rec["outcome"], rec["player"], rec["points"]) == ("bide", 1, [89, 73])
    assert rec["written"] == [162 + 40, 0] and rec["hanging"] == 0
    assert match.totals == [302, 100] and match.hanging == 0


# ------------------------------------------------------------------ §6 penalties
def pairs_at_seat_2(ruleset: RuleSet, hanging: int = 0) -> Match:
    """PAIRS, dealer 3: seat 0 orders clubs, declares his terts to the K♥ and leads the
    A♠; seat 1 asks rost? of it and gives way (his to the 10♦) and plays the K♠: seat 2,
    the player's partner (a terts 7-8-9♠, no fifty), is to play."""
    match = match4(PAIRS, rules=ruleset)
    match.set_standing([100, 100], hanging=hanging)
    say(match, 0, "igrayu", "terts")
    play(match, "As")
    say(match, 1, "rost?")
    say(match, 0, "ot-K")
    say(match, 1, "pishet")
    play(match, "Ks")
    return match


def test_four_players_without_table_penalties_wrong_calls_are_refused() -> None:
    """§6: "Without the option, every such call is refused with an error and changes
    nothing" — with four players: a false declaration, a `rost?` against the partner's
    declaration, a card against the rules of play."""
    match = pairs_at_seat_2(R4)
    refused(match.deal, 2, "pyatdesyat", E.FalseDeclaration, "false-declaration")
    refused(match.deal, 2, "rost?")
    refused(match.deal, 2, "Jc", E.MustFollowSuit, "must-follow-suit")
    assert not match.records


@pytest.mark.parametrize(
    ("offence", "seat", "written"),
    [
        # the player's partner: the whistler pair writes all 162 and the 40 hanging;
        # seat 0's best terts is his pair's and is struck out, seat 1's had given way
        ("pyatdesyat", 2, [0, 162 + 40]),
        # a whistler (seat 3 holds J♠ Q♠): the player pair writes 162, seat 0's terts
        # (the best, settled at the offence) and the 40
        ("7h", 3, [162 + 20 + 40, 0]),
    ],
)
def test_four_players_a_bide_on_cards_the_other_pair_writes_all_and_the_hanging(
    offence: str, seat: int, written: list[int]
) -> None:
    """§6: "a card against the rules of play, a false declaration or a wrong question is
    then not refused but punished as a **bide on cards**, scored as §5 says"; §5: "the
    hanging points go to the side that writes more in it; when the offender is the
    player, his whistlers win them" — with four players the offender's *pair*: the
    player's partner offending costs the player's pair the hanging points too."""
    match = pairs_at_seat_2(PENALTIES4, hanging=40)
    if seat == 3:
        play(match, "7s")
    say(match, seat, offence)
    rec = match.records[0]
    assert (rec["outcome"], rec["player"], rec["written"]) == ("penalty", 0, written)
    assert rec["hanging_before"] == 40 and rec["hanging"] == 0
    assert rec["calls"][-1]["seat"] == seat and "penalty" in rec["calls"][-1]
