"""Options ``to-301``, ``to-1001`` and ``to-1002``: play the match to another target."""

from __future__ import annotations

from deberc_net.game.rules import Settings
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import target_ru


class Target:
    def __init__(self, target: int) -> None:
        self.target = target
        self.name = f"to-{target}"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        others = tuple(f"to-{t}" for t in TARGETS if t != self.target)
        return RuleInfo(
            name=self.name,
            kind="option",
            summary=(
                f"The match is played to {self.target} points instead of the variant's own"
                " target (501; tertz 500)."
            ),
            conflicts=others,
            summary_ru=target_ru(self.target),
        )

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        settings.target = self.target


TARGETS = (301, 1001, 1002)  # 1002: seed 003, "до 1001 чи 1002 очок"
TO_301 = Target(301)
TO_1001 = Target(1001)
TO_1002 = Target(1002)
