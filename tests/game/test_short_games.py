"""Short games (one deal decides, stakes, dave) and poltinniki (docs/rules.md §11)."""

from __future__ import annotations

from deberc_net.game import errors as E
from deberc_net.game.deal import ORDERED, PLAY
from deberc_net.game.match import Match
from deberc_net.game.record import replay_matches
from deberc_net.game.rules import RuleSet
from deberc_net.testing import build_ruleset

from .decks import (
    D3_PLAY,
    D3C,
    D3C_PLAY,
    EVEN,
    EVEN_PLAY,
    SIMPLE,
    SIMPLE_PLAY,
    WEAK_LEADS,
    WEAK_LEADS_PLAY,
    build_deck,
    legal,
    match3,
    play,
    refused,
    say,
)


def rules(*options: str, players: int = 2) -> RuleSet:
    return build_ruleset(players, options=options)


def match2(
    ruleset: RuleSet,
    *specs: tuple[str, str, str],
    dealer: int = 1,
    totals: tuple[int, int] = (0, 0),
) -> Match:
    decks = {i + 1: build_deck(*spec) for i, spec in enumerate(specs)}
    match = Match(ruleset, seed="short", dealer=dealer, decks=decks)
    if totals != (0, 0):
        match.set_standing(list(totals))
    return match


def result(match: Match) -> tuple[int, str]:
    assert match.result is not None and match.result.winner is not None
    return match.result.winner, match.result.reason


# ----------------------------------------------------------------------- short
def test_short_one_deal_decides_one_stake() -> None:
    short = rules("short")
    assert short.settings.target is None and not short.settings.auto_claim
    match = match2(short, SIMPLE)
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    rec = match.records[0]
    assert (rec["points"], rec["written"], rec["notes"]) == ([92, 35], [1, -1], ["stake 1"])
    assert result(match) == (0, "short") and match.totals == [1, -1]
    assert rec["match_over"] == {"winner": 0, "reason": "short"}


def test_short_who_ordered_does_not_matter() -> None:
    match = match2(rules("short"), SIMPLE)
    say(match, 0, "pas")
    say(match, 1, "igrayu")  # the dealer orders and scores less: no bide, one stake
    play(match, SIMPLE_PLAY)
    assert match.records[0]["written"] == [1, -1] and result(match) == (0, "short")


def test_short_outcome_says_whether_the_one_who_ordered_won_the_deal() -> None:
    """docs/rules.md §11: in 'short' made/bide say whether the one who ordered won the
    deal by the most points, not by 'more than the whistlers together' (§8). The outcome
    was so before; the docs did not say it (tryout s16, finding 8)."""
    match = match3(rules=rules("short", players=3))
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, D3_PLAY)
    assert match.records[0]["outcome"] == "bide"
    won = match2(rules("short"), SIMPLE)
    say(won, 0, "igrayu")
    play(won, SIMPLE_PLAY)
    lost = match2(rules("short"), SIMPLE)
    say(lost, 0, "pas")
    say(lost, 1, "igrayu")
    play(lost, SIMPLE_PLAY)
    assert [m.records[0]["outcome"] for m in (won, lost)] == ["made", "bide"]


def test_short_is_not_claimed_mid_deal() -> None:
    match = match2(rules("short"), SIMPLE, totals=(480, 0))
    say(match, 0, "igrayu")
    play(match, "Jc Kc")
    assert match.result is None and match.deal.phase == PLAY


def test_short_tie_goes_to_the_taker_of_the_last_trick() -> None:
    match = match2(rules("short"), EVEN)
    say(match, 0, "igrayu")
    play(match, EVEN_PLAY)  # 35 to 35; seat 1 takes the last trick (8d 7d)
    rec = match.records[0]
    assert rec["points"] == [35, 35] and rec["tricks"][-1]["winner"] == 1
    assert rec["written"] == [-1, 1] and result(match) == (1, "short")


def test_short_three_players_two_stakes_to_the_best() -> None:
    match = match3(rules=rules("short", players=3))
    say(match, 0, "pas")
    say(match, 1, "igrayu")  # seat 1 orders; seat 0 scores the most anyway
    play(match, D3_PLAY)
    rec = match.records[0]
    assert (rec["points"], rec["written"]) == ([71, 48, 43], [2, -1, -1])
    assert result(match) == (0, "short")


# ------------------------------------------------------------------ short-bide
def test_short_bide_two_players_a_losing_player_pays_double() -> None:
    won = match2(rules("short-bide"), SIMPLE)
    say(won, 0, "igrayu")
    play(won, SIMPLE_PLAY)
    assert won.records[0]["outcome"] == "made" and won.records[0]["written"] == [1, -1]
    lost = match2(rules("short-bide"), SIMPLE)
    say(lost, 0, "pas")
    say(lost, 1, "igrayu")
    play(lost, SIMPLE_PLAY)
    assert lost.records[0]["outcome"] == "bide" and lost.records[0]["written"] == [2, -2]
    assert result(lost) == (0, "short")


def test_short_bide_tie_goes_to_the_taker_of_the_last_trick() -> None:
    # a tie lost on the last trick costs a single stake, whoever ordered (docs/rules.md 11)
    for first, player, written in (("pas", 1, [-1, 1]), ("igrayu", 0, [-1, 1])):
        match = match2(rules("short-bide"), EVEN)
        say(match, 0, first)
        if first == "pas":
            say(match, 1, "igrayu")
        play(match, EVEN_PLAY)  # 35 to 35, the last trick to seat 1
        rec = match.records[0]
        assert (rec["player"], rec["written"]) == (player, written)


def test_short_bide_three_players_one_stake_per_whistler() -> None:
    lost = match3(rules=rules("short-bide", players=3))
    say(lost, 0, "igrayu")
    play(lost, D3_PLAY)  # 71 against 48 + 43: the player pays each whistler one stake
    rec = lost.records[0]
    assert (rec["outcome"], rec["written"]) == ("bide", [-2, 1, 1])
    assert result(lost) in ((1, "short"), (2, "short"))
    won = match3(D3C, rules=rules("short-bide", players=3))
    say(won, 0, "igrayu")
    play(won, "Jc Kc Qc " + D3C_PLAY)  # 103 against 43 + 16: one stake from each
    rec = won.records[0]
    assert (rec["outcome"], rec["points"], rec["written"]) == ("made", [103, 43, 16], [2, -1, -1])
    assert result(won) == (0, "short")


# ------------------------------------------------------------------------ dave
def dave_match(*options: str) -> Match:
    match = match2(rules("dave", *options), SIMPLE)
    say(match, 0, "igrayu")
    return match


def raise_twice(match: Match) -> None:
    assert "dave" in legal(match.deal, 0) and "dave" not in legal(match.deal, 1)
    say(match, 0, "dave")
    assert legal(match.deal, 1) == ["prinimayu", "sdayus"] and legal(match.deal, 0) == []
    refused(match.deal, 0, "Jc", E.AnswerRequired, "answer-required")
    say(match, 1, "prinimayu")
    # the same player may not offer twice in a row
    assert "dave" not in legal(match.deal, 0)
    refused(match.deal, 0, "dave", E.NotAllowed, "not-allowed")
    play(match, "Jc")
    say(match, 1, "dave")
    say(match, 0, "prinimayu")
    play(match, "Kc")
    assert "dave" in legal(match.deal, 0)  # seat 0 accepted last: he may raise again


def test_dave_arithmetic_1_2_3() -> None:
    match = dave_match()
    raise_twice(match)
    assert match.deal.extra["stake"] == 3
    play(match, SIMPLE_PLAY[len("Jc Kc ") :])
    rec = match.records[0]
    assert (rec["points"], rec["written"], rec["notes"]) == ([92, 35], [3, -3], ["stake 3"])
    assert result(match) == (0, "short")
    assert [c["call"] for c in rec["calls"][:6]] == [
        "igrayu",
        "dave",
        "prinimayu",
        "play",
        "dave",
        "prinimayu",
    ]


def test_dave_geometric_1_2_4() -> None:
    match = dave_match("dave-geometric")
    raise_twice(match)
    assert match.deal.extra["stake"] == 4
    play(match, SIMPLE_PLAY[len("Jc Kc ") :])
    assert match.records[0]["written"] == [4, -4]


def test_sdayus_ends_the_game_for_the_current_stake() -> None:
    match = dave_match()
    say(match, 0, "dave")
    say(match, 1, "sdayus")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"]) == ("gave-up", [1, -1])
    assert rec["notes"] == ["stake 1"]  # noted as every short game's deal (§11)
    assert result(match) == (0, "short")
    # after one raise to 2, seat 1 offers 3 and seat 0 gives up for 2
    match = dave_match()
    say(match, 0, "dave")
    say(match, 1, "prinimayu")
    play(match, "Jc")
    say(match, 1, "dave")
    say(match, 0, "sdayus")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"], rec["notes"]) == ("gave-up", [-2, 2], ["stake 2"])
    assert result(match) == (1, "short") and len(rec["tricks"]) == 0


def test_a_dave_given_up_before_its_stake_was_noted_still_replays() -> None:
    """docs/records.md: a record stored before a dave given up noted its stake (its
    notes empty, December 2026) still matches its replay, which notes it now; a note
    that says another stake is no replay of it."""
    match = dave_match()
    say(match, 0, "dave")
    say(match, 1, "prinimayu")
    play(match, "Jc")
    say(match, 1, "dave")
    say(match, 0, "sdayus")
    [record] = match.records
    assert replay_matches(record, match.rules)
    older = {**record, "notes": []}
    assert replay_matches(older, match.rules)
    assert not replay_matches({**record, "notes": ["stake 3"]}, match.rules)
    played = dave_match()  # a deal played out noted its stake before too: not excused
    play(played, SIMPLE_PLAY)
    [record] = played.records
    assert record["notes"] == ["stake 1"] and replay_matches(record, played.rules)
    assert not replay_matches({**record, "notes": []}, played.rules)


# ------------------------------------------------------------------ to-9-stakes
def test_to_9_stakes_the_match_goes_on() -> None:
    match = match2(rules("dave", "to-9-stakes"), SIMPLE)
    assert match.rules.settings.target == 9
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    assert match.records[0]["written"] == [1, 0]  # stakes won: the loser writes nothing
    assert match.result is None and match.deal.deal_no == 2
    assert match.deal.dealer == 0  # seat 0 wrote more


def test_to_9_stakes_ends_at_nine() -> None:
    # deal 2: dealer 0, seat 1 leads the weak hand; geometric daves take it to 8
    match = match2(
        rules("dave", "dave-geometric", "to-9-stakes"), SIMPLE, (WEAK_LEADS[0], WEAK_LEADS[1], "8c")
    )
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    assert match.totals == [1, 0] and match.result is None
    say(match, 1, "igrayu")
    say(match, 1, "dave")
    say(match, 0, "prinimayu")  # 2
    play(match, "Qd")
    say(match, 0, "dave")
    say(match, 1, "prinimayu")  # 4
    play(match, "7d")
    say(match, 1, "dave")
    say(match, 0, "prinimayu")  # 8
    play(match, WEAK_LEADS_PLAY[len("Qd 7d ") :])
    rec = match.records[1]
    assert (rec["points"], rec["written"], rec["notes"]) == ([103, 24], [8, 0], ["stake 8"])
    assert match.totals == [9, 0] and result(match) == (0, "stakes")


def test_to_9_stakes_arithmetic_not_yet() -> None:
    match = match2(rules("dave", "to-9-stakes"), SIMPLE, (WEAK_LEADS[0], WEAK_LEADS[1], "8c"))
    say(match, 0, "igrayu")
    play(match, SIMPLE_PLAY)
    say(match, 1, "igrayu", "dave")
    say(match, 0, "prinimayu")  # 2
    play(match, "Qd")
    say(match, 0, "dave")
    say(match, 1, "prinimayu")  # 3
    play(match, "7d")
    say(match, 1, "dave")
    say(match, 0, "prinimayu")  # 4
    play(match, WEAK_LEADS_PLAY[len("Qd 7d ") :])
    assert match.totals == [5, 0] and match.result is None and match.deal.deal_no == 3


# ------------------------------------------------------------------ poltinniki
def test_without_poltinniki_the_last_cards_come_at_once() -> None:
    match = match2(build_ruleset(), SIMPLE)
    say(match, 0, "igrayu")
    assert match.deal.phase == PLAY and [len(h) for h in match.deal.hands] == [9, 9]
    assert "predlagayu" not in legal(match.deal, 1)


def test_poltinniki_offer_accepted_writes_50() -> None:
    match = match2(rules("poltinniki"), SIMPLE, SIMPLE)
    say(match, 0, "igrayu")
    deal = match.deal
    assert deal.phase == ORDERED and [len(h) for h in deal.hands] == [6, 6]
    assert legal(deal, 1) == ["predlagayu", "igraem"] and legal(deal, 0) == []
    refused(deal, 0, "prinimayu", E.AnswerRequired, "answer-required")
    say(match, 1, "predlagayu")
    assert legal(deal, 0) == ["prinimayu", "igraem"] and legal(deal, 1) == []
    say(match, 0, "prinimayu")
    rec = match.records[0]
    assert (rec["outcome"], rec["written"], rec["tricks"]) == ("offer", [50, 0], [])
    assert match.totals == [50, 0] and match.result is None
    assert match.deal.deal_no == 2 and match.deal.dealer == 0


def test_poltinniki_play_on() -> None:
    for offer in (False, True):
        match = match2(rules("poltinniki"), SIMPLE)
        say(match, 0, "igrayu")
        if offer:
            say(match, 1, "predlagayu")
            say(match, 0, "igraem")  # the player refuses the 50
        else:
            say(match, 1, "igraem")  # the whistler offers nothing
        deal = match.deal
        assert deal.phase == PLAY and [len(h) for h in deal.hands] == [9, 9]
        play(match, SIMPLE_PLAY)
        assert match.records[0]["written"] == [92, 35]


def test_poltinniki_a_gap_of_250_ends_the_match() -> None:
    match = match2(rules("poltinniki"), SIMPLE, totals=(200, 0))
    say(match, 0, "igrayu")
    say(match, 1, "predlagayu")
    say(match, 0, "prinimayu")
    assert match.totals == [250, 0] and result(match) == (0, "gap")
    assert match.records[0]["match_over"] == {"winner": 0, "reason": "gap"}
    match = match2(rules("poltinniki"), SIMPLE, totals=(199, 0))
    say(match, 0, "igrayu")
    say(match, 1, "predlagayu")
    say(match, 0, "prinimayu")
    assert match.totals == [249, 0] and match.result is None
    # the whistler far ahead wins by the gap after a played deal
    match = match2(rules("poltinniki"), SIMPLE, totals=(0, 300))
    say(match, 0, "igrayu")
    say(match, 1, "igraem")
    play(match, SIMPLE_PLAY)
    assert match.totals == [92, 335] and match.result is None  # 243
    match = match2(rules("poltinniki"), SIMPLE, totals=(200, 0))
    say(match, 0, "igrayu")
    say(match, 1, "igraem")
    play(match, SIMPLE_PLAY)
    assert match.totals == [292, 35] and result(match) == (0, "gap")
