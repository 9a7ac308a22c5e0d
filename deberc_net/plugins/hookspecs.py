"""The hooks a rule plugin may implement. Every name carries the ``deberc_`` prefix.

When each is called in a deal is written down in docs/plugins.md. Hooks that return a
strategy (``deberc_combo_key``) are called once per rule set; ``deberc_rule_info`` and
``deberc_call_aliases`` once when the plugins are loaded; the others once per deal or
less, never once per card. A hook that is handed a deal sees it as a ``PluginDeal``
(plugins/api.py), the typed surface a plugin may use.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import attrs
import pluggy

if TYPE_CHECKING:
    from deberc_net.game.calls import Call
    from deberc_net.game.deal import Deal
    from deberc_net.game.rules import ComboKeyFn, DealScore, MatchEnd, MatchSnapshot, Settings

    from .api import PluginDeal

PROJECT = "deberc_net"
HOOK_PREFIX = "deberc_"  # every hook's name begins so; a plugin's helpers' never does
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class RuleKind(enum.StrEnum):
    VARIANT = "variant"  # a whole rule family: a table has exactly one
    OPTION = "option"  # a table option on top of the variant
    PLAYERS = "players"  # comes with the player count; nobody asks for it by name


def _counts(value: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """A list where a tuple is asked for (docs/plugins.md allows either) as a tuple: a
    RuleInfo is hashable, as a frozen class is. Typed as the two a plugin may give, so
    that its type checker refuses a bare number or string (the comma forgotten);
    untyped code's anything else passes as given, for the loading's checks to name
    (manager._wrong_field). One converter per item type: attrs' mypy plugin binds no
    type variable of a converter."""
    return tuple(value) if isinstance(value, list) else value


def _names(value: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """As ``_counts``, for rule names."""
    return tuple(value) if isinstance(value, list) else value


@attrs.frozen
class RuleInfo:
    """What a plugin says about itself; shown by ``rules`` and checked when loaded.

    ``name`` must equal the plugin's entry-point name. Its version is its distribution's
    (package metadata), so a plugin does not state one.
    """

    name: str
    kind: RuleKind = attrs.field(converter=RuleKind)  # "variant", "option" or "players"
    summary: str
    players: tuple[int, ...] = attrs.field(default=(2, 3, 4), converter=_counts)
    # the options, or a variant, it is not played with
    conflicts: tuple[str, ...] = attrs.field(default=(), converter=_names)
    # options that must be chosen too; an option may override a setting of an option
    # it requires (to-9-stakes sets dave's target); a variant named here makes the
    # option that game's own, refused at every other (tertz-501)
    requires: tuple[str, ...] = attrs.field(default=(), converter=_names)
    # keyword-only from here: added after the first plugins, so that a plugin giving the
    # fields above by position never has its arguments shift into these
    needs_bidding: bool = attrs.field(default=False, kw_only=True)  # an option that acts
    # through the player who ordered
    bidding: bool = attrs.field(default=True, kw_only=True)  # a variant: False when
    # nobody orders (Tertz); it then refuses every option with needs_bidding, ours and
    # third-party ones alike
    summary_ru: str = attrs.field(default="", kw_only=True)  # the summary in Russian,
    # for 'lang ru'; empty: the English one
    # the Russian words of the deal outcomes the plugin writes as words of its own
    # (perezdacha's 'redeal'), for 'lang ru'; one not given is shown as written
    outcomes_ru: Mapping[str, str] = attrs.field(factory=dict, kw_only=True, hash=False)


class RuleSpecs:
    @hookspec
    def deberc_rule_info(self) -> RuleInfo:
        """Describe the plugin (name, kind, summary, player counts, conflicts)."""
        raise NotImplementedError  # a specification: plugins implement it

    @hookspec
    def deberc_call_aliases(self) -> Mapping[str, Sequence[str]]:
        """The words people may type for this plugin's own calls: ``{call name: words}``,
        e.g. ``{"dave": ("даве", "double")}``. The call's own token always works; an
        alias is heard only at tables that use the plugin. Called once, at loading."""
        raise NotImplementedError  # a specification: plugins implement it

    @hookspec
    def deberc_configure(self, settings: Settings, players: int) -> None:
        """Set plain-valued rules on ``settings`` when a rule set is made (builtin first).
        Two options that set one setting differently are refused, unless one requires
        the other."""

    @hookspec(firstresult=True)
    def deberc_combo_key(self, settings: Settings) -> ComboKeyFn | None:
        """Return the function ordering combinations; called once per rule set."""

    @hookspec(firstresult=True)
    def deberc_deal_class(self, settings: Settings) -> type[Deal] | None:
        """A whole new game on the 32 cards: the ``Deal`` subclass its deals are made of
        (its own legal calls, play and scoring), or None for the engine's own. Called
        once per rule set; matches, records and their replay make deals of this class."""

    @hookspec(firstresult=True)
    def deberc_combo_winners(self, deal: PluginDeal) -> list[int] | None:
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
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> list[Call]:
        """Calls a plugin adds to ``seat``'s legal calls now (doubling, offers, ...).
        Asked for every seat, not only the one to act: a call returned for another seat
        is one it may make out of turn (return an in-turn call for ``deal.to_act``)."""
        raise NotImplementedError  # a specification: plugins implement it

    @hookspec
    def deberc_deal_event(self, deal: PluginDeal, name: str) -> None:
        """A moment of the deal: "ordered" (with pause_after_order, before the last cards),
        "play" (all cards dealt, before the first card) and "swap" (after a seven swap).
        May end the deal."""

    @hookspec(firstresult=True)
    def deberc_apply_extra_call(self, deal: PluginDeal, seat: int, call: Call) -> bool | None:
        """Carry out a legal call; return True if this plugin handled it."""
