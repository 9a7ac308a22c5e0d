"""Kharkov: of two equal combinations the earlier declared wins; trump does not matter."""

from __future__ import annotations

from deberc_net.game.combos import Combo, top_position
from deberc_net.game.rules import ComboKeyFn, Settings
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import SUMMARIES_RU

NAME = "kharkov"


@hookimpl
def deberc_rule_info() -> RuleInfo:
    return RuleInfo(
        name=NAME,
        kind="variant",
        summary=(
            "Kharkov rules: as Moscow, but of two combinations of the same length and top "
            "card the one declared first wins; a trump combination has no precedence."
        ),
        summary_ru=SUMMARIES_RU[NAME],
    )


@hookimpl
def deberc_combo_key(settings: Settings) -> ComboKeyFn:
    by_strength = settings.sequence_by_strength

    def key(combo: Combo, trump: int | None) -> tuple[int, ...]:
        return (combo.category, top_position(combo, trump, by_strength))

    return key
