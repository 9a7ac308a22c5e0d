"""The end of the match: target, automatic claims, both over, bide (docs/rules.md §7)."""

from __future__ import annotations

import copy

import pytest

from deberc_net.game import errors as E
from deberc_net.game.calls import parse_token
from deberc_net.game.match import Match
from deberc_net.game.record import replay_matches
from deberc_net.game.rules import RuleSet
from deberc_net.plugins import RuleError
from deberc_net.testing import build_ruleset

from .decks import SIMPLE, SIMPLE_PLAY, build_deck, legal, play, refused, say, snapshot

R = build_ruleset()
R301 = build_ruleset(options=("to-301",))
R1001 = build_ruleset(options=("to-1001",))

# Trump clubs. Seat 0 takes every trick, the last one (Jc + 10d) worth 30 + 10; seat 1
# scores only its fifty 7d-Jd (a run of 5), 50 points.
BOTH_OVER = ("As Ks Ah Kh 8c 9c Kc Ac Jc", "7s 8s 7h 8h 7d 8d 9d 10d Jd", "10c")
BOTH_OVER_PLAY = "7s Ks 8s Ah 7h Kh 8h 8c 7d 9c 8d Kc 9d Ac Jd Jc 10d"
# Trump clubs. Seat 1 takes the first eight tricks (77), seat 0 only the last (34 + 10).
LAST_ONLY = ("7s 8s Qs 7h 8h Qh 7d 8d Jc", "As 10s Ks Ah 10h Kh Ad 10d 9c", "10c")
LAST_ONLY_PLAY = "7s 10s As 8s Ks Qs Ah 7h 10h 8h Kh Qh Ad 7d 10d 8d 9c Jc"
# Seat 0: fifty 7s-10s + terts Jh-Kh (70); seat 1 an equal fifty that loses to it.
FIFTY_TERTS = ("7s 8s 9s 10s Jh Qh Kh Ad 9c", "7d 8d 9d 10d As Ah 10h Jc Qc", "8c")


def match_at(totals: tuple[int, int], spec: tuple[str, str, str], rules: RuleSet = R) -> Match:
    match = Match(rules, seed="t", dealer=1, decks={1: build_deck(*spec)})
    match.set_standing(list(totals))
    return match


def test_target_reached_at_the_scoring() -> None:
    match = match_at((0, 470), SIMPLE)
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)  # seat 1: 481 and 491 after tricks 7 and 8, 505 at the end
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (1, "target")
    assert match.totals == [92, 505]
    rec = match.records[-1]
    assert rec["outcome"] == "made" and rec["totals_before"] == [0, 470]
    assert rec["match_over"] == {"winner": 1, "reason": "target"}
    assert match.legal_calls(0) == [] and match.to_act is None
    before = (copy.deepcopy(match.records), list(match.totals), snapshot(match.deal))
    with pytest.raises(E.GameOver) as info:
        match.apply(0, parse_token("pas"))
    assert info.value.code == "game-over"
    assert (match.records, match.totals, snapshot(match.deal)) == before


def test_not_over_below_the_target() -> None:
    match = match_at((400, 0), SIMPLE)
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)  # 492 after the sixth trick, no more for seat 0
    assert match.result is None
    assert match.totals == [492, 35]
    assert "match_over" not in match.records[-1]


def test_both_over_the_taker_of_the_last_trick_wins() -> None:
    match = match_at((430, 490), BOTH_OVER)
    say(match, 0, "igrayu")
    play(match, "As")
    say(match, 1, "pyatdesyat")
    play(match, BOTH_OVER_PLAY)
    rec = match.records[-1]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [101, 50], [101, 50])
    assert match.totals == [531, 540]  # seat 1 has more, seat 0 took the last trick
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (0, "target")
    assert rec["tricks"][-1]["winner"] == 0


def test_no_claim_before_the_last_trick_when_short_of_the_target() -> None:
    match = match_at((430, 490), BOTH_OVER)
    say(match, 0, "igrayu")
    play(match, "As")
    say(match, 1, "pyatdesyat")
    play(match, BOTH_OVER_PLAY[: -len(" Jc 10d")])
    deal = match.deal
    assert deal.phase == "play" and len(deal.tricks) == 8
    # seat 1 is over (490 + 50) but took no trick: no claim; seat 0 is at 491
    assert deal.running_total(0) == 491 and deal.running_total(1) == 540
    assert deal.result is None  # the deal goes on: no claim ended it


# BOTH_OVER from (470, 470): seat 1's fifty, settled at the first trick, makes it 520;
# seat 0 takes the tricks: 481, 485, 496, 500, 500, then 514 after the sixth
SIXTH_TRICK = "7s Ks 8s Ah 7h Kh 8h 8c 7d 9c 8d"


@pytest.mark.parametrize("option", [None, "manual-claim"])
def test_only_the_taker_claims_the_other_over_the_target_waits(option: str | None) -> None:
    """docs/rules.md §7: a claim comes only after a trick the claimer took (seed 000:
    «после любой забранной им взятки»). Seat 1 is over the target by its fifty from the
    first trick on but takes none, so it cannot claim; seat 0 reaches the target with
    its sixth trick and wins 514 : 520 — of two over it, the taker of the latest trick."""
    rules = R if option is None else build_ruleset(options=(option,))
    match = match_at((470, 470), BOTH_OVER, rules)
    say(match, 0, "igrayu")
    play(match, "As")
    say(match, 1, "pyatdesyat")
    deal = match.deal
    for card in SIXTH_TRICK.split():
        assert match.result is None
        if deal.tricks:
            assert deal.running_total(1) == 520  # over the target, no trick of its own
            if option is not None:  # nor may it say konets, on its turn or not
                assert "konets" not in legal(deal, 1)
                code = "not-your-turn" if deal.turn == 0 else "not-allowed"
                refused(deal, 1, "konets", code=code)
        play(match, card)
    if option is not None:  # the konets is seat 0's to say
        assert match.result is None and deal.running_total(0) == 514
        say(match, 0, "konets")
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (0, "claim")
    rec = match.records[-1]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("claim", [44, 50], [44, 50])
    assert len(rec["tricks"]) == 6 and match.totals == [514, 520]


def test_a_bide_cannot_be_claimed_by_the_bide_player() -> None:
    match = match_at((480, 0), LAST_ONLY)
    say(match, 0, "igrayu")
    play(match, LAST_ONLY_PLAY)
    rec = match.records[-1]
    # the last trick brings seat 0 to 480 + 44, but it is a bide: he writes nothing
    assert (rec["outcome"], rec["points"], rec["written"]) == ("bide", [44, 77], [0, 121])
    assert match.result is None
    assert match.totals == [480, 121]
    assert match.deal.dealer == 1


def test_automatic_claim_after_the_first_trick() -> None:
    match = match_at((480, 0), SIMPLE)
    say(match, 0, "igrayu")
    play(match, "Jc Kc")  # 24 points: 504
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (0, "claim")
    rec = match.records[-1]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("claim", [24, 0], [24, 0])
    assert len(rec["tricks"]) == 1
    assert rec["match_over"] == {"winner": 0, "reason": "claim"}
    assert match.totals == [504, 0]
    before = snapshot(match.deal)
    with pytest.raises(E.GameOver):
        match.apply(0, parse_token("9c"))
    assert snapshot(match.deal) == before and match.totals == [504, 0]


def test_automatic_claim_at_the_first_trick_that_reaches() -> None:
    match = match_at((470, 0), SIMPLE)
    say(match, 0, "igrayu")
    play(match, "Jc Kc")
    assert match.result is None and match.deal.running_total(0) == 494
    play(match, "9c 10c")
    assert match.result is not None and match.result.reason == "claim"
    assert match.totals == [518, 0]
    assert len(match.records[-1]["tricks"]) == 2


def _fifty_terts_until_sixth_trick(match: Match) -> None:
    say(match, 0, "igrayu", "pyatdesyat")
    play(match, "7s")
    say(match, 1, "rost?")
    say(match, 0, "ot-10")
    say(match, 1, "pishet")
    play(match, "As Ah Jh 10h Qh Jc 9c Qc 8s")  # seat 1 takes five tricks: 74
    play(match, "7d Ad")  # seat 0's first trick: 11


def test_claim_counts_the_combinations_exactly_at_the_target() -> None:
    match = match_at((420, 0), FIFTY_TERTS)
    _fifty_terts_until_sixth_trick(match)
    assert match.result is not None and match.result.reason == "claim"
    rec = match.records[-1]
    assert rec["points"] == [81, 74] and match.totals == [501, 74]  # 420 + 70 + 11
    assert len(rec["tricks"]) == 6


def test_claim_one_point_short_waits_for_the_next_trick() -> None:
    match = match_at((419, 0), FIFTY_TERTS)
    _fifty_terts_until_sixth_trick(match)
    assert match.result is None and match.deal.running_total(0) == 500
    play(match, "Kh 8d")
    assert match.result is not None and match.result.reason == "claim"
    assert match.totals == [504, 74]


# Trump clubs. Seat 0 holds the bella (Kc Qc) and no sequence; its As takes seat 1's Qs.
BELLA_ONLY = ("Kc Qc As 10s 7h 8h 7d 9d Jd", "Jc 9c Ac Ks Qs Ah 10h 10d Ad", "8c")


@pytest.mark.parametrize(("before", "claimed"), [(467, True), (466, False)])
def test_claim_counts_a_bella_exactly_at_the_target(before: int, claimed: bool) -> None:
    """With no sequence scoring the claim check counts only the cards until a bella's 20
    could reach the target (docs/rules.md §7): at 467 + 14 + 20 it does, one short not."""
    match = match_at((before, 0), BELLA_ONLY)
    say(match, 0, "igrayu", "bella")
    play(match, "As Qs")  # seat 0: 11 + 3
    assert not match.deal.tally.scoring_combos
    assert match.deal.running_total(0) == before + 34
    if claimed:
        assert match.result is not None and match.result.reason == "claim"
        assert match.records[-1]["points"] == [34, 0] and match.totals == [501, 0]
    else:
        assert match.result is None and match.deal.result is None


# ------------------------------------------------------------ target options
def test_target_options() -> None:
    assert R.settings.target == 501
    assert R301.settings.target == 301 and R301.options == ("to-301",)
    assert R1001.settings.target == 1001
    with pytest.raises(RuleError):
        build_ruleset(options=("to-301", "to-1001"))


def test_to_301_claims_earlier() -> None:
    match = match_at((280, 0), SIMPLE, R301)
    say(match, 0, "igrayu")
    play(match, "Jc Kc")
    assert match.result is not None and match.result.reason == "claim"
    assert match.totals == [304, 0]
    rec = match.records[-1]
    assert rec["options"] == ["to-301"] and rec["match_over"]["winner"] == 0
    default = match_at((280, 0), SIMPLE)
    say(default, 0, "igrayu")
    play(default, "Jc Kc")
    assert default.result is None and default.deal.phase == "play"


def test_to_1001() -> None:
    match = match_at((480, 0), SIMPLE, R1001)
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    assert match.result is None and match.totals == [572, 35]
    match = match_at((960, 0), SIMPLE, R1001)
    say(match, 0, "igrayu")
    play(match, "Jc Kc")
    assert match.result is None  # 984
    play(match, "9c 10c")
    assert match.result is not None and match.result.reason == "claim"
    assert match.totals == [1008, 0]
    match = match_at((0, 970), SIMPLE, R1001)
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (1, "target")
    assert match.totals == [92, 1005]


def test_a_forfeit_records_the_deal_as_it_stood_and_it_replays() -> None:
    rules = build_ruleset(2)
    match = Match(rules, seed="forfeit", dealer=1)
    seat = match.to_act
    assert seat is not None
    match.apply(seat, match.legal_calls(seat)[0], auto=True)  # a clock's call, then gone
    match.forfeit(match.rules.settings.sides().index((seat,)), "timeouts")
    assert match.result is not None and match.result.reason == "timeouts"
    assert match.result.winner == 1 - seat
    [record] = match.records
    assert record["outcome"] == "timeouts" and record["written"] == [0, 0]
    assert record["match_over"] == {"winner": 1 - seat, "reason": "timeouts"}
    assert record["calls"][0]["auto"] is True
    assert replay_matches(record, rules)


def test_a_forfeit_before_any_call_records_nothing() -> None:
    match = Match(build_ruleset(2), seed="forfeit", dealer=1)
    match.forfeit(0, "away")
    assert match.records == [] and match.result is not None


def test_a_standing_is_set_before_the_first_call_and_checked() -> None:
    match = match_at((480, 30), LAST_ONLY)
    assert match.deal.totals_before == (480, 30) and match.totals == [480, 30]
    for bad in ([1, 2, 3], [-5, 0]):
        with pytest.raises(ValueError):
            match.set_standing(bad)
    with pytest.raises(ValueError):
        match.set_standing([0, 0], hanging=-1)
    assert match.totals == [480, 30]  # a refused standing changes nothing
    say(match, 0, "igrayu")
    with pytest.raises(ValueError, match="before the first call"):
        match.set_standing([0, 0])
    assert match.deal.totals_before == (480, 30)
