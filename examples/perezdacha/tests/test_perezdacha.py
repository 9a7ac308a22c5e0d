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
