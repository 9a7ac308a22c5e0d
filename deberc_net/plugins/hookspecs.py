"""The hooks a rule plugin may implement. Every name carries the ``deberc_`` prefix.

When each is called in a deal is written down in docs/plugins.md. Hooks that return a
strategy (``deberc_combo_key``) are called once per table; the others once per deal or
less, never once per card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
import pluggy

if TYPE_CHECKING:
    from deberc_net.game.calls import Call
    from deberc_net.game.deal import Deal
    from deberc_net.game.rules import ComboKeyFn, DealScore, MatchEnd, MatchSnapshot, Settings

PROJECT = "deberc_net"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@attrs.frozen
class RuleInfo:
    """What a plugin says about itself; shown by ``rules`` and checked at table creation."""

    name: str
    kind: str  # "variant", "option", or "players" (chosen by the player count)
    summary: str
    players: tuple[int, ...] = (2, 3, 4)
    conflicts: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()  # options that must be chosen too
    version: str = "1"


class RuleSpecs:
    @hookspec
    def deberc_rule_info(self) -> RuleInfo:
        """Describe the plugin (name, kind, summary, player counts, conflicts)."""

    @hookspec
    def deberc_configure(self, settings: Settings, players: int) -> None:
        """Set plain-valued rules on ``settings`` at table creation (builtin first)."""

    @hookspec(firstresult=True)
    def deberc_combo_key(self, settings: Settings) -> ComboKeyFn | None:
        """Return the function ordering combinations; called once per table."""

    @hookspec(firstresult=True)
    def deberc_combo_winners(self, deal: Deal) -> list[int] | None:
        """After the first trick: the seats whose sequence combinations score."""

    @hookspec
    def deberc_deal_points(self, score: DealScore) -> None:
        """At the end of a deal, adjust ``score.points`` before the outcome is decided."""

    @hookspec(firstresult=True)
    def deberc_deal_outcome(self, score: DealScore) -> bool | None:
        """Fill ``written``, ``hanging_out`` and ``outcome``; return True when done."""

    @hookspec
    def deberc_adjust_written(self, score: DealScore) -> None:
        """After the outcome: penalties and bonuses on ``score.written``."""

    @hookspec(firstresult=True)
    def deberc_next_dealer(self, snapshot: MatchSnapshot) -> int | None:
        """After a played deal: the seat that deals next."""

    @hookspec(firstresult=True)
    def deberc_match_end(self, snapshot: MatchSnapshot) -> MatchEnd | None:
        """After a played deal: the match's end, or None to let the next rule decide."""

    @hookspec
    def deberc_extra_calls(self, deal: Deal, seat: int) -> list[Call]:
        """Calls a plugin adds to ``seat``'s legal calls now (doubling, offers, ...)."""

    @hookspec
    def deberc_deal_event(self, deal: Deal, name: str) -> None:
        """A moment of the deal: "ordered" (with pause_after_order, before the last cards),
        "play" (all cards dealt, before the first card) and "swap" (after a seven swap).
        May end the deal."""

    @hookspec(firstresult=True)
    def deberc_apply_extra_call(self, deal: Deal, seat: int, call: Call) -> bool | None:
        """Carry out a legal call; return True if this plugin handled it."""
