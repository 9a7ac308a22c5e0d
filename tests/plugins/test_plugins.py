"""The rule-plugin machinery: resolving a table's rules, pluggy ordering, hook checks.

Loading from entry points, broken distributions and the command line's refusal are in
test_loading.py."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from importlib import metadata
from typing import Any

import pluggy
import pytest

from deberc_net.game.cards import make
from deberc_net.game.combos import FIFTY, TERTS, Combo
from deberc_net.game.match import Match
from deberc_net.game.rules import Settings
from deberc_net.plugins import PluginError, RuleBook, RuleError, RuleInfo, hookimpl
from deberc_net.plugins.builtin import moscow
from deberc_net.plugins.hookspecs import PROJECT, RuleSpecs
from deberc_net.selfplay import selfplay
from deberc_net.testing import build_ruleset

SPADES, HEARTS = 0, 1
VERSION = metadata.version("deberc-net")  # our rules' version is our distribution's


def run_of(suit: int, low: int, length: int) -> Combo:
    cards = tuple(make(rank, suit) for rank in range(low, low + length))
    return Combo(TERTS if length == 3 else FIFTY, suit, cards, cards[-1])


# --------------------------------------------------------------- test plugins
class KharkovHouse:
    """A house rule: equal combinations ignore trump (Kharkov); the match goes to 101."""

    def __init__(self, log: list[str] | None = None) -> None:
        self.log = log if log is not None else []
        self.target_seen: int | None = None

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="kharkov-house", kind="option", summary="Kharkov order, to 101.")

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        self.log.append("house")
        self.target_seen = settings.target
        settings.target = 101

    @hookimpl
    def deberc_combo_key(self, settings: Settings) -> Any:
        from deberc_net.game.combos import top_position

        def key(combo: Combo, trump: int | None) -> tuple[int, ...]:
            return (combo.category, top_position(combo, trump, settings.sequence_by_strength))

        return key


class Spy:
    """An option that has no opinion but counts how often each hook is called."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="spy", kind="option", summary="Counts hook calls.")

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        self.calls["configure"] += 1

    @hookimpl
    def deberc_combo_key(self, settings: Settings) -> None:
        self.calls["combo_key"] += 1

    @hookimpl
    def deberc_combo_winners(self, deal: Any) -> None:
        self.calls["combo_winners"] += 1

    @hookimpl
    def deberc_deal_points(self, score: Any) -> None:
        self.calls["deal_points"] += 1

    @hookimpl
    def deberc_deal_outcome(self, score: Any) -> None:
        self.calls["deal_outcome"] += 1

    @hookimpl
    def deberc_next_dealer(self, snapshot: Any) -> None:
        self.calls["next_dealer"] += 1

    @hookimpl
    def deberc_match_end(self, snapshot: Any) -> None:
        self.calls["match_end"] += 1


def option_plugin(name: str, **info: Any) -> object:
    class Option:
        @hookimpl
        def deberc_rule_info(self) -> RuleInfo:
            return RuleInfo(name=name, kind="option", summary=f"test option {name}", **info)

    return Option()


def new_pm() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(RuleSpecs)
    return pm


# ------------------------------------------------------------ build_ruleset refusals
def test_default_ruleset_is_moscow_to_501() -> None:
    rules = build_ruleset()
    assert rules.variant == "moscow" and rules.options == ()
    assert rules.settings.players == 2 and rules.settings.target == 501
    assert rules.record_fields() == {
        "variant": "moscow",
        "options": [],
        "rule_versions": {"moscow": VERSION},
    }
    assert rules.describe and rules.describe[0].startswith("moscow: ")
    assert rules.extra_calls is None and rules.apply_extra_call is None


def test_unknown_variant_is_refused_listing_the_known() -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(variant="leningrad")
    text = str(info.value)
    assert "'leningrad'" in text and "variant" in text
    assert "known: kharkov, moscow" in text


def test_unknown_option_is_refused_listing_the_known() -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["to-301", "to-777"])
    text = str(info.value)
    assert "'to-777'" in text and "option" in text
    known = text.split("; options: ")[1].split(", ")
    assert {"to-1001", "to-301", "commitment", "short"} <= set(known)
    assert "moscow" not in known and "kharkov" not in known  # variants are not options
    # a mistyped variant reads as an option: the variants are named apart
    assert "; variants: kharkov, moscow, tertz; " in text
    assert "three-players" not in known  # nor the player-count rules


def test_conflicting_options_are_refused_naming_both() -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["to-301", "to-1001"])
    assert "'to-301'" in str(info.value) and "'to-1001'" in str(info.value)


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_the_variant_does_not_support(players: int) -> None:
    with pytest.raises(RuleError) as info:
        build_ruleset(players=players)
    assert "'moscow'" in str(info.value) and str(players) in str(info.value)


def test_an_option_is_not_a_variant() -> None:
    with pytest.raises(RuleError, match="'to-301'"):
        build_ruleset(variant="to-301")


def test_the_variant_is_not_an_option() -> None:
    # ``moscow`` is a variant: asking for it as a table option must be refused like any
    # other wrong kind, not accepted and written into every record's "options".
    with pytest.raises(RuleError, match="moscow"):
        build_ruleset(options=["moscow"])


def test_options_are_deduplicated_and_sorted() -> None:
    rules = build_ruleset(options=["to-301", "to-301"])
    assert rules.options == ("to-301",)
    assert rules.settings.target == 301
    assert build_ruleset(options=["to-1001"]).settings.target == 1001
    assert rules.record_fields()["rule_versions"] == {"moscow": VERSION, "to-301": VERSION}


def test_option_player_count() -> None:
    three_only = option_plugin("three-only", players=(3,))
    with pytest.raises(RuleError, match=r"'three-only' is for 3 players, not 2"):
        build_ruleset(options=["three-only"], plugins=[three_only])
    assert build_ruleset(3, options=["three-only"], plugins=[three_only]).options == ("three-only",)


def test_a_plugin_that_does_not_describe_itself_is_refused_at_loading() -> None:
    with pytest.raises(PluginError, match="deberc_rule_info") as info:
        RuleBook.load(extra=[object()])
    assert info.value.distribution == "(registered in-process)"


def test_a_plugin_may_not_take_a_name_that_is_taken() -> None:
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[option_plugin("to-301")])
    assert "'to-301'" in str(info.value) and "'deberc-net'" in str(info.value)
    assert info.value.distribution == "(registered in-process)"


def test_a_new_option_may_declare_a_conflict() -> None:
    to_777 = option_plugin("to-777", conflicts=("to-301",))
    assert build_ruleset(options=["to-777"], plugins=[to_777]).options == ("to-777",)
    with pytest.raises(RuleError) as info:
        build_ruleset(options=["to-777", "to-301"], plugins=[to_777])
    assert "'to-777'" in str(info.value) and "'to-301'" in str(info.value)


# ----------------------------------------------------------- pluggy, directly
def test_house_rule_beats_builtin_and_builtin_configures_first() -> None:
    for house_first in (False, True):
        house = KharkovHouse()
        pm = new_pm()
        plugins = [(moscow, "builtin:moscow"), (house, "kharkov-house")]
        if house_first:
            plugins.reverse()
        for plugin, name in plugins:
            pm.register(plugin, name=name)
        pm.check_pending()
        settings = Settings(target=None, fresa=False)
        pm.hook.deberc_configure(settings=settings, players=2)
        # Moscow's configure ran first (it is tryfirst), whatever the registration order:
        # the house rule saw Moscow's values and its own target stands.
        assert house.target_seen == 501, house_first
        assert settings.fresa is True
        assert settings.target == 101
        key = pm.hook.deberc_combo_key(settings=settings)
        trump_terts, plain_terts = run_of(SPADES, 0, 3), run_of(HEARTS, 0, 3)
        assert key(trump_terts, SPADES) == key(plain_terts, SPADES)  # Kharkov: trump no matter
        assert key(run_of(HEARTS, 1, 3), SPADES) > key(trump_terts, SPADES)  # higher top wins
        assert key(run_of(HEARTS, 0, 4), SPADES) > key(run_of(SPADES, 4, 3), SPADES)
        assert house.log == ["house"]


def test_builtin_alone_prefers_trump() -> None:
    pm = new_pm()
    pm.register(moscow)
    settings = Settings()
    pm.hook.deberc_configure(settings=settings, players=2)
    assert settings.target == 501
    key = pm.hook.deberc_combo_key(settings=settings)
    assert key(run_of(SPADES, 0, 3), SPADES) > key(run_of(HEARTS, 0, 3), SPADES)


def test_a_plugin_without_opinion_falls_back_to_builtin() -> None:
    pm = new_pm()
    pm.register(moscow)
    spy = Spy()
    pm.register(spy)
    key = pm.hook.deberc_combo_key(settings=Settings())
    assert spy.calls["combo_key"] == 1
    assert key(run_of(SPADES, 0, 3), SPADES) > key(run_of(HEARTS, 0, 3), SPADES)


def test_house_rule_through_build_ruleset() -> None:
    house = KharkovHouse()
    rules = build_ruleset(options=["kharkov-house"], plugins=[house])
    assert rules.settings.target == 101 and house.target_seen == 501
    key = rules.combo_key
    assert key(run_of(SPADES, 0, 3), SPADES) == key(run_of(HEARTS, 0, 3), SPADES)
    assert rules.record_fields()["options"] == ["kharkov-house"]


class Misspelled:
    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="typo", kind="option", summary="a misspelled hook")

    @hookimpl
    def deberc_combo_kye(self, settings: Settings) -> None:
        return None


def test_check_pending_refuses_a_misspelled_hook() -> None:
    pm = new_pm()
    pm.register(moscow)
    pm.register(Misspelled(), name="typo")
    with pytest.raises(pluggy.PluginValidationError, match="deberc_combo_kye"):
        pm.check_pending()


def test_loading_refuses_a_misspelled_hook() -> None:
    with pytest.raises(PluginError, match="deberc_combo_kye") as info:
        RuleBook.load(extra=[Misspelled()])
    assert info.value.rule == "typo"


def test_a_hook_with_wrong_arguments_is_refused() -> None:
    class WrongArgs:
        @hookimpl
        def deberc_configure(self, settings: Settings, players: int, colour: str) -> None:
            """``colour`` is no argument of the spec."""

    pm = new_pm()
    with pytest.raises(pluggy.PluginValidationError, match="colour"):
        pm.register(WrongArgs())


# ------------------------------------------------------- resolved once per table
def test_the_rule_set_is_resolved_once() -> None:
    spy = Spy()
    book = RuleBook.load(extra=[spy])
    rules = book.ruleset(options=["spy"])
    assert spy.calls == Counter(configure=1, combo_key=1)
    assert book.ruleset(options=["spy", "spy"]) is rules  # cached: one rule set per rules
    assert spy.calls == Counter(configure=1, combo_key=1)
    assert rules.options == ("spy",)
    # a plugin that comes from no distribution has no version to record
    assert rules.record_fields()["rule_versions"] == {"moscow": VERSION, "spy": "unpackaged"}
    assert rules.settings.target == 501  # the spy has no opinion: Moscow's rules stand

    records: list[dict[str, Any]] = []
    for game in range(3):
        match = Match(rules, seed=f"spy/{game}")
        rng = random.Random(game)
        while not match.over:
            seat = match.to_act
            assert seat is not None
            match.apply(seat, rng.choice(match.legal_calls(seat)))
        records += match.records
    assert all(r["options"] == ["spy"] for r in records)

    played = [r for r in records if r["outcome"] != "void"]
    scored = [r for r in played if r["outcome"] != "claim"]
    cards = sum(len(t["cards"]) for r in records for t in r["tricks"])
    assert cards > 100
    # Strategy hooks once per table; the others once per deal at most, never per card.
    assert spy.calls["configure"] == 1
    assert spy.calls["combo_key"] == 1
    assert spy.calls["combo_winners"] == sum(1 for r in records if r["tricks"])
    assert spy.calls["deal_points"] == len(scored)
    assert spy.calls["deal_outcome"] == len(scored)
    assert spy.calls["match_end"] == len(scored)
    not_last = [r for r in played if "match_over" not in r]
    assert spy.calls["next_dealer"] == len(not_last)


def test_selfplay_uses_the_rules_it_is_given_for_all_games() -> None:
    spy = Spy()
    matches = list(selfplay(RuleBook.load(extra=[spy]).ruleset(options=["spy"]), 4, "once"))
    assert len(matches) == 4 and all(m.over for m in matches)
    assert spy.calls["configure"] == 1
    assert spy.calls["combo_key"] == 1
    assert len({id(m.rules) for m in matches}) == 1


class SeatOneDeals:
    """An option answering the per-deal firstresult hooks: seat 1 deals after every
    scored deal; its deberc_match_end names no argument (pluggy allows that)."""

    def __init__(self) -> None:
        self.ends_asked = 0

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="seat-one-deals", kind="option", summary="Seat 1 deals.")

    @hookimpl
    def deberc_next_dealer(self, snapshot: Any) -> int:
        return 1

    @hookimpl
    def deberc_match_end(self) -> None:
        self.ends_asked += 1


@pytest.mark.parametrize("players", [2, 3])
def test_an_option_answering_a_per_deal_hook_overrides_the_builtin(players: int) -> None:
    # the rule set calls the implementations directly where it can (plugins/manager.py
    # ``plain``): the option's answer still comes first, the builtin's when it says None
    option = SeatOneDeals()
    rules = build_ruleset(players, options=["seat-one-deals"], plugins=[option])
    match = next(selfplay(rules, 1, f"seat-one/{players}"))
    records = list(match.records)
    after_scored = [
        (prev, rec) for prev, rec in itertools.pairwise(records) if prev["outcome"] != "void"
    ]
    assert after_scored and all(rec["dealer"] == 1 for _, rec in after_scored)
    # asked after every deal scored by the rules (a void deal and a claim are not)
    assert option.ends_asked == sum(1 for r in records if r["outcome"] not in ("void", "claim"))
    assert match.result is not None and match.result.reason  # Moscow's end still stands


class WatchesScoring:
    """An option on the scoring hooks that the rule set cannot call plainly: a wrapper
    around ``deberc_deal_points`` and a ``deberc_adjust_written`` naming no argument
    (pluggy allows both); it only counts, so the deals write what they write without it."""

    def __init__(self) -> None:
        self.points_wrapped = 0
        self.adjusts_seen = 0

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="watches-scoring", kind="option", summary="Counts the scoring.")

    @hookimpl(wrapper=True)
    def deberc_deal_points(self, score: Any) -> Any:
        self.points_wrapped += 1
        return (yield)

    @hookimpl
    def deberc_adjust_written(self) -> None:
        self.adjusts_seen += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scoring_hooks_the_rule_set_cannot_call_plainly_still_run_in_pluggys_way(
    players: int,
) -> None:
    # plugins/manager.py ``_score_deal``: one implementation that is not plain sends all
    # three scoring hooks through pluggy (``resolved``), with the builtin rules intact
    option = WatchesScoring()
    watched = build_ruleset(players, options=["watches-scoring"], plugins=[option])
    match = next(selfplay(watched, 1, f"watched/{players}"))
    plain_match = next(selfplay(build_ruleset(players), 1, f"watched/{players}"))
    records, plain_records = list(match.records), list(plain_match.records)
    scored = sum(1 for r in records if r["outcome"] not in ("void", "claim"))
    assert scored and option.points_wrapped == scored and option.adjusts_seen == scored
    assert [(r["points"], r["written"], r["outcome"]) for r in records] == [
        (r["points"], r["written"], r["outcome"]) for r in plain_records
    ]
