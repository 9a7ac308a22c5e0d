"""A second audit of Tertz against docs/rules.md §12, where tests/tertz/test_rules.py,
test_rules_audit.py and test_rules_restated.py leave a sentence unpinned: one scripted
deal a sentence (each docstring quotes it with its section)."""

from __future__ import annotations

import pytest

from deberc_net.game import errors as E
from deberc_net.game.cards import parse_card
from deberc_net.plugins.manager import RuleError
from deberc_net.plugins.variants.tertz.deal import TertzDeal
from deberc_net.testing import build_ruleset, cards, legal, play, refused, say, spoken

from .helpers import RULES, deal_of, finish


def talk(deal: TertzDeal, seat: int) -> list[str]:
    """The seat's legal calls that are not cards."""
    return [t for t in legal(deal, seat) if t[0] not in "789JQKA1"]


# ------------------------------------------------------------------ §12.5 the hundreds
@pytest.mark.parametrize(
    ("hand", "other", "call"),
    [
        ("7c 8c 9c 10c Jc Qc Kc Ac 9d", "7s 9s Js 8h 10h Qh 8d 10d Kd", "sto-vosem"),
        ("7c 8c 9c 10c Jc Qc Kc 9d Ad", "7s 9s Js 8h 10h Qh 8d 10d Kd", "sto-sem"),
        ("9c 10c Jc Qc Kc Ac 7d 9d Jd", "7s 9s Js 8h 10h Qh 8d 10d Kd", "sto-shest"),
        ("7c 8c 9c 10c Jc Ks 7d 9d Ad", "7s 9s Js 8h 10h Qh 8d 10d Kd", "sto-pyat"),
        ("As Ah Ad Ac 8s Kh 7d 9d 8c", "7s 9s Js 8h 10h Qh 8d 10d Kd", "sto-tuzov"),
        ("Ks Kh Kd Kc 8s Ah 7d 9d 8c", "7s 9s Js 8h 10h Qh 8d 10d Jd", "sto-korolei"),
        ("Qs Qh Qd Qc 8s Ah 7d 9d 8c", "7s 9s Js 8h 10h Kh 8d 10d Jd", "sto-dam"),
    ],
)
def test_each_hundred_is_declared_by_its_own_call_and_writes_100(
    hand: str, other: str, call: str
) -> None:
    """§12.5's table: "four aces / kings / queens | 100 | `sto-tuzov` / `sto-korolei` /
    `sto-dam`" and "a run of 8 / 7 / 6 / 5 in a suit | 100 | `sto-vosem` / `sto-sem` /
    `sto-shest` / `sto-pyat`": the call is the only declaration offered, and it writes
    100."""
    deal = deal_of(hand, other, "9h")
    assert talk(deal, 0) == [call]
    say(deal, 0, call)
    finish(deal)
    assert deal.result is not None and deal.result.score.combo_points == [100, 0]


SHORT_HUNDRED = "7c 8c 9c 10c Jc 8s 10s 7d 9d"  # a run of 5 to the J♣ (spades trump)


@pytest.mark.parametrize(
    ("other", "call"),
    [("7h 8h 9h 10h Jh Qh As Kd Qc", "sto-shest"), ("Qs Qh Qd Qc 7h 9h Jh Kd As", "sto-dam")],
)
def test_a_senior_hundred_is_declared_over_a_junior_one_and_alone_writes(
    other: str, call: str
) -> None:
    """§12.5: "Seniority is the order of the list, as the source gives it (four jacks,
    four aces, four kings, four queens, runs of 8, 7, 6, 5, 4, 3)" — all worth 100, yet
    a run of 6 (or four queens) is declared over a run of 5 as a higher class, no
    `rost?` between them, and only its owner writes."""
    deal = deal_of(SHORT_HUNDRED, other, "Ks")
    say(deal, 0, "sto-pyat")
    play(deal, "8s")
    assert talk(deal, 1) == ["pokazhi", call]
    say(deal, 1, call)
    assert deal.best is not None and deal.best.seat == 1
    finish(deal)
    assert deal.result is not None and deal.result.score.combo_points == [0, 100]


# ------------------------------------------------------------------ §12.5 skin
EQUAL0 = "10d Jd Qd 7s 8s As 9h 7c Ah"  # a terts to Q♦ (hearts trump: K♥ turned)
EQUAL1 = "10c Jc Qc 9s 10s Ks 8h 9d Ad"


def test_skin_in_tertz_the_demander_plays_first_then_the_cards_go_face_up() -> None:
    """§12.5: "before the demander's first card of the deal the declarer may answer
    `skin`, as in Deberts (§3, the talk, item 5: the demander plays his card first, the
    cards go face up right after it)" — nothing is shown at `skin`; the demander's card
    is played, then the declared terts lies face up, logged as the engine's
    `pokazyvayu`."""
    deal = deal_of(EQUAL0, EQUAL1, "Kh")
    say(deal, 0, "terts")
    play(deal, "As")
    say(deal, 1, "pokazhi")
    say(deal, 0, "skin")
    assert deal.shown == {} and "pokazhi" not in legal(deal, 1)
    play(deal, "9s")
    assert deal.shown[0] == cards("10d Jd Qd")
    last = deal.log[-1]
    assert last.seat == 0 and last.call.token() == "pokazyvayu" and last.engine


# ------------------------------------------------------------------ §12.5 mariage
def test_a_mariage_whose_queen_is_drawn_from_the_talon_is_declared() -> None:
    """§12.5: mariage is declared "on his turn, before his card, at any trick, while he
    holds the trump king and queen (both may come from the talon or the seven
    exchange)" — the K♥ dealt, the Q♥ drawn after the first trick (lomayu-1 puts the
    10♠ under; the winner draws first)."""
    deal = deal_of("Kh As 7c 9c Jd 7s 8d Qc 10d", "9s Js Ah 10c Kc 7d 9d Qd Ad", "8h", "10s Qh 7h")
    assert "bella" not in legal(deal, 0)
    play(deal, "As 9s")
    say(deal, 1, "lomayu-1")
    assert parse_card("Qh") in deal.hands[0]
    assert talk(deal, 0) == ["bella"]
    say(deal, 0, "bella")
    finish(deal)
    assert deal.result is not None and deal.result.score.bella_points == [20, 0]


# ------------------------------------------------------------ §12.5 what stands
def test_a_declared_combination_stands_when_its_cards_are_played() -> None:
    """§12.5: "A declared combination stands when its cards are played": a terts to the
    Q♦ declared and its Q♦ led at once is still the best after that trick and writes 20
    at the end; its other cards are not declared again."""
    deal = deal_of(EQUAL0, EQUAL1, "Kh")
    say(deal, 0, "terts")
    play(deal, "Qd Ad")  # seat 1's A♦ takes it
    say(deal, 0, "lomayu-1")
    assert [c.describe() for c in deal.counted_combos()[0]] == ["run of 3 to Qd"]
    play(deal, "9d")  # seat 1 leads
    assert "terts" not in legal(deal, 0)
    finish(deal)
    assert deal.result is not None and deal.result.score.combo_points == [20, 0]


def test_combos_need_trick_does_not_combine_with_tertz() -> None:
    """§12.5: "(`combos-need-trick` is a Deberts option and does not combine with
    `tertz`)"."""
    with pytest.raises(RuleError, match="'combos-need-trick' is not played with the variant"):
        build_ruleset(2, "tertz", ["combos-need-trick"])


# ------------------------------------------------------------------ §12.2 the break
def test_the_winner_of_the_first_trick_has_no_call_until_the_deck_is_broken() -> None:
    """§12.2: "After the first trick the loser must answer `lomayu-N` … before anything
    else; the winner has no call until then" — not even `pokazhi` of the loser's
    declaration; once the deck is broken he may ask it."""
    deal = deal_of(EQUAL0, EQUAL1, "Kh")
    say(deal, 0, "terts")
    play(deal, "7c Qc")  # seat 1 takes it: seat 0, the declarer, breaks
    assert legal(deal, 1) == []
    refused(deal, 1, "pokazhi", E.AnswerRequired)
    assert legal(deal, 0) == [f"lomayu-{n}" for n in range(1, 13)]
    refused(deal, 0, "9h", E.AnswerRequired)
    say(deal, 0, "lomayu-4")
    assert "pokazhi" in legal(deal, 1)


def test_the_break_is_said_in_english_too() -> None:
    """§12.2: "`lomayu-N` (spoken `lomayu N`, «ломаю N», `break N`)"."""
    deal = deal_of(EQUAL0, EQUAL1, "Kh")
    play(deal, "As 9s")
    assert spoken(RULES, "break 7", deal.legal_calls(1)).token() == "lomayu-7"
