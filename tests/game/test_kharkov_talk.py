"""How the table talk is answered in Kharkov (docs/rules.md §9), one scripted deal a
sentence, each against Moscow's answer to the same deal."""

from __future__ import annotations

import pytest

from deberc_net.game import errors as E
from deberc_net.game.match import Match
from deberc_net.testing import build_deck, build_deck_n, build_ruleset, legal, play, refused, say


def _match(variant: str, hands: tuple[str, str, str]) -> Match:
    return Match(build_ruleset(2, variant), seed="kh", dealer=1, decks={1: build_deck(*hands)})


# Trump clubs (turned Kc). Seat 0 (the leader, declares first) holds the TRUMP terts
# 10c-Qc, seat 1 the plain terts 10s-Qs: the same length and top card.
TRUMP_FIRST = ("10c Jc Qc 7s 9s Ah 8h 10h 9d", "10s Js Qs 7h 9h Jh 8d Kd 8c", "Kc")


@pytest.mark.parametrize("variant", ["moscow", "kharkov"])
def test_the_answer_to_rost_names_trump_though_in_kharkov_it_decides_nothing(
    variant: str,
) -> None:
    match = _match(variant, TRUMP_FIRST)
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    say(match, 0, "terts")
    play(match, "9d")
    say(match, 1, "rost?")
    assert legal(match.deal, 0) == ["ot-Q-kozyrnogo"]  # the one true answer, as in Moscow
    say(match, 0, "ot-Q-kozyrnogo")
    # an equal plain terts: it loses both ways (Moscow: trump; Kharkov: declared later)
    assert legal(match.deal, 1) == ["pishet"]
    refused(match.deal, 1, "ot-Q", E.FalseDeclaration, "false-declaration")


# Trump hearts (turned Ah). Seat 1 (the dealer: he speaks after the leader) holds the
# trump 7 and the trump terts 7h-9h; seat 0 the plain terts 7c-9c: equal in Kharkov.
SECOND_ASKS = ("7c 8c 9c Jh Ad 9d Jd Ac 10s", "7h 8h 9h 7s Js Qd Kd Qc 10c", "Ah")
# The same hands the other way round: the asker is the leader.
FIRST_ASKS = (SECOND_ASKS[1], SECOND_ASKS[0], "Ah")


@pytest.mark.parametrize(
    ("variant", "answer"), [("moscow", "prokhodit"), ("kharkov", "ne-prokhodit")]
)
def test_an_equal_trump_sequence_of_the_later_seat_does_not_pass_in_kharkov(
    variant: str, answer: str
) -> None:
    match = _match(variant, SECOND_ASKS)
    say(match, 0, "igrayu", "terts")  # declared first, then his card
    play(match, "10s")
    assert "prokhodit?" in legal(match.deal, 1)
    say(match, 1, "prokhodit?")
    assert legal(match.deal, 0) == [answer]


@pytest.mark.parametrize("variant", ["moscow", "kharkov"])
def test_an_equal_trump_sequence_of_the_leader_passes_in_both(variant: str) -> None:
    match = _match(variant, FIRST_ASKS)
    say(match, 0, "igrayu")
    say(match, 0, "prokhodit?")
    assert legal(match.deal, 1) == ["prokhodit"]


# Three players, dealer 0: seat 1 leads, seat 2 plays second, the dealer third. Trump
# hearts (turned Ah). One seat holds the trump 7 and the trump terts 7h-9h, another the
# plain terts 7c-9c; seat 1 holds no sequence. "Declares first" is said of the asker
# and the answerer (docs/rules.md §8, §9), not of the leader, who is neither.
TRUMP_TERTS = "7h 8h 9h 7s Js Qd Kd Qc 10c"
PLAIN_TERTS = "7c 8c 9c Jd Ad 9d Ac 10s Qs"
LEADER = "10h Kh 8s Ks As 7d 10d Jc Kc"


def _three(variant: str, dealer_hand: str, second_hand: str) -> Match:
    deck = build_deck_n([dealer_hand, LEADER, second_hand], dealer=0, turned="Ah")
    return Match(build_ruleset(3, variant), seed="kh3", dealer=0, decks={1: deck})


@pytest.mark.parametrize("variant", ["moscow", "kharkov"])
def test_three_players_an_equal_trump_sequence_passes_a_later_answerer(
    variant: str,
) -> None:
    match = _three(variant, PLAIN_TERTS, TRUMP_TERTS)
    say(match, 1, "igrayu")
    play(match, "As")  # the leader: no word, no sequence
    say(match, 2, "prokhodit?")
    # the dealer's equal plain terts can still count (he has not played), but the
    # asker declares before him: it passes in Kharkov as in Moscow
    assert legal(match.deal, 0) == ["prokhodit"]


@pytest.mark.parametrize(
    ("variant", "answer"), [("moscow", "prokhodit"), ("kharkov", "ne-prokhodit")]
)
def test_three_players_an_equal_trump_sequence_fails_an_earlier_declarer_in_kharkov(
    variant: str, answer: str
) -> None:
    match = _three(variant, TRUMP_TERTS, PLAIN_TERTS)
    say(match, 1, "igrayu")
    play(match, "As")
    say(match, 2, "terts")  # declared before the dealer's turn
    play(match, "Qs")
    say(match, 0, "prokhodit?")
    assert legal(match.deal, 1) == ["prokhodit"]  # the leader said nothing, played
    say(match, 1, "prokhodit")
    assert legal(match.deal, 2) == [answer]


# Four players, dealer 0, trump diamonds (turned Ad, the dealer's). Seat 3 declares a
# plain terts to 10; seat 0 (the dealer) asks with the trump terts to J; seat 3's
# partner, seat 1, holds a plain terts to J and plays first in the deal.
PARTNER_FIRST = (
    "9d 10d Jd Ad 7s 9s 7h 8c",
    "9c 10c Jc 8s 10s Ah Kh 7d",
    "Js Qs Jh Qh Qc Kc 8d Kd",
    "8h 9h 10h Ks As Qd 7c Ac",
)


@pytest.mark.parametrize(
    ("variant", "answerer", "answer"),
    [("moscow", 3, "ot-10"), ("kharkov", 1, "ot-J")],
)
def test_four_players_an_equal_partner_who_plays_before_the_asker_answers_in_kharkov(
    variant: str, answerer: int, answer: str
) -> None:
    """§8: the partner's combination is placed at his own seat: equal to the asker's
    in Kharkov, it wins because the partner plays before the asker; in Moscow the
    asker's is in trump and the declarer answers for his own."""
    deck = build_deck_n(PARTNER_FIRST, dealer=0, turned="Ad")
    match = Match(build_ruleset(4, variant), seed="kh4", dealer=0, decks={1: deck})
    say(match, 1, "pas")
    say(match, 2, "pas")
    say(match, 3, "igrayu")
    play(match, "10s Js")  # the partner leads without a word
    say(match, 3, "terts")
    play(match, "Ks")
    say(match, 0, "rost?")
    assert match.deal.talk.pending is not None
    assert match.deal.talk.pending.answerer == answerer
    assert legal(match.deal, answerer) == [answer]
