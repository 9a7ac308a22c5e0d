"""A rule from another package (examples/posled20), found through its entry point."""

from __future__ import annotations

from importlib import metadata

from deberc_net.game.cards import card_points, parse_card
from deberc_net.plugins import available_plugins, build_ruleset
from deberc_net.plugins.manager import _SHIPPED
from deberc_net.selfplay import selfplay


def test_the_example_package_is_installed_and_found() -> None:
    names = {e.name for e in metadata.entry_points(group="deberc_net")}
    assert "posled-20" in names
    assert "posled-20" in available_plugins()


def test_every_shipped_rule_is_published_as_an_entry_point() -> None:
    ours = {e.name: e.load() for e in metadata.entry_points(group="deberc_net")
            if e.value.startswith("deberc_net.")}
    assert ours.keys() == _SHIPPED.keys()
    assert all(ours[name] is _SHIPPED[name] for name in ours)


def test_a_game_with_the_third_party_rule_counts_the_last_trick_20() -> None:
    rules = build_ruleset(2, "moscow", ["posled-20", "to-301"])
    assert rules.settings.last_trick_bonus == 20
    played = 0
    for match in selfplay(3, "posled", 2, "moscow", ["posled-20", "to-301"]):
        assert match.result is not None
        for record in match.records:
            assert record["options"] == ["posled-20", "to-301"]
            assert record["rule_versions"]["posled-20"] == "0.1.0"
            if record["outcome"] not in ("made", "bide", "hanging"):
                continue
            trump = "shdc".index(record["trump"])
            cards = sum(card_points(parse_card(c), trump)
                        for t in record["tricks"] for c in t["cards"])
            combos = sum(item["points"] for entry in record["declared"]
                         for item in entry["scored"])
            assert sum(record["points"]) == cards + combos + 20
            played += 1
    assert played > 0
