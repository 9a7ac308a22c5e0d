"""House rule ``posled-20``: the last trick (posled) counts 20 instead of 10.

A complete third-party rule for deberc-net: describe the rule, change what it changes,
publish it under the ``deberc_net`` entry-point group. Nothing in deberc_net is edited.
Its version in game records is this distribution's (pyproject.toml).
"""

from __future__ import annotations

from deberc_net.game.rules import Settings
from deberc_net.plugins import RuleInfo, hookimpl

NAME = "posled-20"  # the same as the entry point's name


@hookimpl
def deberc_rule_info() -> RuleInfo:
    return RuleInfo(
        name=NAME, kind="option", summary="The last trick counts 20 points instead of 10."
    )


@hookimpl
def deberc_configure(settings: Settings, players: int) -> None:
    settings.last_trick_bonus = 20
