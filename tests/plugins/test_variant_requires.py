"""An option's ``requires`` naming a variant makes it that game's own (docs/plugins.md):
refused at every other game's table, whichever the variant named, and said first."""

from __future__ import annotations

import pytest

from deberc_net.plugins import PluginError, RuleBook, RuleInfo, hookimpl
from deberc_net.plugins.manager import RuleError
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.refusals import rules_phrase
from deberc_net.testing import build_ruleset


class Needs:
    """A third party's option requiring ``requires`` (a variant, an option, or both)."""

    def __init__(self, name: str, requires: tuple[str, ...]) -> None:
        self.name, self.requires = name, requires

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name=self.name, kind="option", summary="a game's own", requires=self.requires
        )


MOSCOW_ONLY = Needs("moscow-only", ("moscow",))
BOTH = Needs("kharkov-short", ("short", "kharkov"))


@pytest.mark.parametrize("variant", ["kharkov", "tertz"])
def test_an_option_of_moscow_is_refused_at_another_games_table(variant: str) -> None:
    """Moscow is every table's base (the builtin rules, picked first): an option that
    requires the variant moscow was taken at a Kharkov and a Tertz table."""
    with pytest.raises(RuleError, match="'moscow-only' is played only with the variant 'moscow'"):
        build_ruleset(2, variant, ["moscow-only"], plugins=[MOSCOW_ONLY])
    assert build_ruleset(2, "moscow", ["moscow-only"], plugins=[MOSCOW_ONLY]).options == (
        "moscow-only",
    )


def test_an_option_requiring_a_variant_and_an_option_names_the_variant_first() -> None:
    """Named after the option, the variant was said second: 'needs option short too',
    and once it was added, 'played only with the variant kharkov'."""
    with pytest.raises(RuleError, match="'kharkov-short' is played only with the variant"):
        build_ruleset(2, "moscow", ["kharkov-short"], plugins=[BOTH])
    with pytest.raises(RuleError, match="option 'kharkov-short' needs option 'short' too"):
        build_ruleset(2, "kharkov", ["kharkov-short"], plugins=[BOTH])
    assert build_ruleset(2, "kharkov", ["kharkov-short", "short"], plugins=[BOTH]).options


class NotMoscow:
    """A third party's option refusing the variant moscow (``conflicts``)."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="not-moscow", kind="option", summary="x", conflicts=("moscow",))


def test_an_option_conflicting_with_moscow_is_refused_at_moscow_tables_only() -> None:
    """The same base: `conflicts=("moscow",)` refused the option at every table."""
    with pytest.raises(RuleError, match="'not-moscow' is not played with the variant 'moscow'"):
        build_ruleset(2, "moscow", ["not-moscow"], plugins=[NotMoscow()])
    for variant in ("kharkov", "tertz"):
        assert build_ruleset(2, variant, ["not-moscow"], plugins=[NotMoscow()]).options


def test_an_option_requiring_two_variants_is_refused_at_loading() -> None:
    """A table plays one variant: an option requiring two was never playable, and
    every table naming it was refused with the first, never saying why."""
    with pytest.raises(PluginError, match="it requires the variants 'kharkov' and 'tertz'"):
        RuleBook.load(extra=[Needs("two-games", ("kharkov", "tertz"))])


class Variant:
    """A third party's variant requiring ``requires`` (an option, or another variant)."""

    def __init__(self, name: str, requires: tuple[str, ...]) -> None:
        self.name, self.requires = name, requires

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name=self.name, kind="variant", summary="a game on an option", requires=self.requires
        )


def test_a_variant_needing_an_option_is_told_a_variant_in_either_language() -> None:
    """'option 'short-game' needs option 'short' too' (a review, s42): the variant was
    named an option, which no 'new 2 short-game' reads it as; in Russian «опции …»."""
    plugins = [Variant("short-game", ("short",))]
    with pytest.raises(RuleError) as refused:
        build_ruleset(2, "short-game", [], plugins=plugins)
    assert str(refused.value) == "variant 'short-game' needs option 'short' too"
    said = rules_phrase(str(refused.value))
    assert said is not None and said.text(Lang.RU) == "варианту «short-game» нужна и опция «short»"
    assert build_ruleset(2, "short-game", ["short"], plugins=plugins).variant == "short-game"


def test_a_variant_requiring_another_variant_is_refused_at_loading() -> None:
    """A table plays one variant: every table of it was refused, 'option 'kharkov-plus'
    needs option 'kharkov' too', naming two variants options, and no 'new' could add
    it. The builtin every table is built on may be required."""
    with pytest.raises(PluginError, match="it is a variant and requires the variant 'kharkov'"):
        RuleBook.load(extra=[Variant("kharkov-plus", ("kharkov",))])
    assert build_ruleset(2, "on-moscow", [], plugins=[Variant("on-moscow", ("moscow",))]).variant
