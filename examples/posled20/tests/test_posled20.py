"""The posled-20 rule, tested as a plugin author tests one: with deberc_net.testing only."""

from __future__ import annotations

from deberc_net.testing import assert_replays, build_deck, build_ruleset, new_match, play, say

HANDS = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")
PLAYED = "Jc Kc 9c 10c Ac Qd As Js 10s Qs Ks 9s 7h Ah 10h 8h Kh 7d"  # seat 1 takes the last


def points(options: list[str]) -> list[int]:
    match = new_match(build_ruleset(options=options), build_deck(*HANDS))
    say(match, 0, "igrayu")
    play(match, PLAYED)
    assert_replays(match)
    return list(match.records[0]["points"])


def test_the_last_trick_counts_20() -> None:
    assert points([]) == [92, 35]
    assert points(["posled-20"]) == [92, 45]


def test_it_sets_one_setting_and_its_version_is_the_distributions() -> None:
    rules = build_ruleset(options=["posled-20"])
    assert rules.settings.last_trick_bonus == 20
    assert rules.record_fields()["rule_versions"]["posled-20"] == "0.1.0"
