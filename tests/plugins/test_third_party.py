"""Rules from other packages (examples/), found through their entry points, and ours
published the same way."""

from __future__ import annotations

import importlib
import pkgutil
from importlib import metadata

import pytest

import deberc_net.plugins
from deberc_net.game.cards import card_points, parse_card
from deberc_net.plugins import RuleBook
from deberc_net.plugins.manager import RuleError
from deberc_net.selfplay import selfplay


def test_the_example_packages_are_installed_and_found() -> None:
    book = RuleBook.load()
    for name, dist in (("posled-20", "deberc-posled20"), ("perezdacha", "deberc-perezdacha")):
        rule = book.get(name)
        assert rule is not None and rule.distribution == dist
        assert rule.version == metadata.version(dist)


def shipped_plugin_objects() -> list[object]:
    """Every rule object defined in deberc_net.plugins: modules with deberc_rule_info and
    module-level instances that have it."""
    found: list[object] = []
    package = deberc_net.plugins
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        if callable(getattr(module, "deberc_rule_info", None)):
            found.append(module)
        found += [
            v
            for v in vars(module).values()
            if not isinstance(v, type)
            and hasattr(v, "deberc_rule_info")
            and not hasattr(v, "__path__")
            and not isinstance(v, type(module))
        ]
    return list({id(p): p for p in found}.values())


def test_every_shipped_rule_is_loaded_from_our_entry_points() -> None:
    ours = {r.name: r.plugin for r in RuleBook.load().rules() if r.distribution == "deberc-net"}
    shipped = shipped_plugin_objects()
    assert len(shipped) == len(ours) >= 28
    assert {id(p) for p in shipped} == {id(p) for p in ours.values()}


def test_a_game_with_the_third_party_rule_counts_the_last_trick_20() -> None:
    rules = RuleBook.load().ruleset(2, "moscow", ["posled-20", "to-301"])
    assert rules.settings.last_trick_bonus == 20
    played = 0
    for match in selfplay(rules, 3, "posled"):
        assert match.result is not None
        for record in match.records:
            assert record["options"] == ["posled-20", "to-301"]
            assert record["rule_versions"]["posled-20"] == "0.1.0"
            if record["outcome"] not in ("made", "bide", "hanging"):
                continue
            trump = "shdc".index(record["trump"])
            cards = sum(
                card_points(parse_card(c), trump) for t in record["tricks"] for c in t["cards"]
            )
            combos = sum(item["points"] for entry in record["declared"] for item in entry["scored"])
            assert sum(record["points"]) == cards + combos + 20
            played += 1
    assert played > 0


def test_perezdacha_needs_an_ordering_player_so_tertz_refuses_it() -> None:
    # failed before: accepted at a Tertz table, where nobody orders and it never acted
    book = RuleBook.load()
    with pytest.raises(RuleError, match="'perezdacha' needs a player who orders"):
        book.ruleset(2, "tertz", ["perezdacha"])
    assert "perezdacha" in book.ruleset(2, "moscow", ["perezdacha"]).options
