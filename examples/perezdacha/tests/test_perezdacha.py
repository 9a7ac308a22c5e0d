"""The perezdacha rule, tested as a plugin author tests one: with deberc_net.testing only."""

from __future__ import annotations

from deberc_net.testing import (
    assert_replays,
    build_deck,
    build_ruleset,
    legal,
    new_match,
    play,
    refused,
    say,
    spoken,
)

# Dealer seat 1, seat 0 leads; trump clubs once ordered; no combinations.
HANDS = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")
PLAYED = "Jc Kc 9c 10c Ac Qd As Js 10s Qs Ks 9s 7h Ah 10h 8h Kh 7d"  # 92 to 35


def test_the_player_may_call_a_redeal_before_the_first_card() -> None:
    match = new_match(build_ruleset(options=["perezdacha"]), build_deck(*HANDS))
    say(match, 0, "igrayu")
    assert "perezdacha" in legal(match, 0)  # the player
    assert "perezdacha" not in legal(match, 1)  # not the whistler
    say(match, 0, "perezdacha")
    record = match.records[0]
    assert (record["outcome"], record["written"], record["totals"]) == ("redeal", [0, 0], [0, 0])
    assert [c["call"] for c in record["calls"]] == ["igrayu", "perezdacha"]
    assert match.deal.deal_no == 2 and match.result is None  # the next deal is dealt
    assert_replays(match)


def test_the_dealer_who_ordered_may_call_it_while_the_leader_is_to_act() -> None:
    """deberc_extra_calls is asked for every seat, not only the one to act: the dealer
    (seat 1) orders after seat 0 passes; seat 0 leads, and seat 1 may call the redeal
    out of turn until that first card (docs/plugins.md, docs/protocol.md §8.5)."""
    match = new_match(build_ruleset(options=["perezdacha"]), build_deck(*HANDS))
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    assert (match.deal.player, match.deal.to_act) == (1, 0)
    assert legal(match, 1) == ["perezdacha"]  # not his turn: only the out-of-turn call
    assert "perezdacha" not in legal(match, 0)
    say(match, 1, "perezdacha")
    record = match.records[0]
    assert record["outcome"] == "redeal"
    assert [(c["seat"], c["call"]) for c in record["calls"]] == [
        (0, "pas"),
        (1, "igrayu"),
        (1, "perezdacha"),
    ]
    assert_replays(match)


def test_the_leaders_first_card_ends_the_dealers_chance() -> None:
    match = new_match(build_ruleset(options=["perezdacha"]), build_deck(*HANDS))
    say(match, 0, "pas")
    say(match, 1, "igrayu")
    play(match, "Jc")
    assert "perezdacha" not in legal(match, 1)
    refused(match.deal, 1, "perezdacha", code="not-allowed")


def test_no_redeal_before_the_order_or_after_the_first_card() -> None:
    match = new_match(build_ruleset(options=["perezdacha"]), build_deck(*HANDS))
    assert "perezdacha" not in legal(match, 0)  # nobody has ordered yet
    refused(match.deal, 0, "perezdacha", code="wrong-phase")
    say(match, 0, "igrayu")
    play(match, "Jc Kc")  # seat 0 takes the trick and leads again
    refused(match.deal, 0, "perezdacha", code="not-allowed")
    play(match, PLAYED.split(" ", 2)[2])
    assert match.records[0]["points"] == [92, 35]  # an ordinary deal otherwise


def test_people_say_it_in_russian_or_english_at_its_tables_only() -> None:
    rules = build_ruleset(options=["perezdacha"])
    for text in ("perezdacha", "пересдача", "Redeal"):
        assert spoken(rules, text).token() == "perezdacha"
    plain = build_ruleset()
    try:
        spoken(plain, "пересдача")
    except ValueError as error:
        assert "not a table call" in str(error)
    else:
        raise AssertionError("a table without the rule heard its alias")


def test_its_version_in_records_is_the_distributions() -> None:
    rules = build_ruleset(options=["perezdacha"])
    assert rules.record_fields()["rule_versions"]["perezdacha"] == "0.1.0"
