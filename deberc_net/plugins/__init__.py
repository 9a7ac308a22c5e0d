"""Rules as pluggy plugins: hook specs, the rule book (loading and rule sets), the
builtin and house rules, and ``PluginDeal``, what a plugin may use on a deal.

A plugin author imports from here: the marker, what a plugin says about itself, the
errors, and every type the hooks are given or return (each is re-exported from its home
in ``deberc_net.game``; docs/plugins.md, "What to import")."""

from deberc_net.game.calls import Call
from deberc_net.game.cards import Card
from deberc_net.game.combos import Combo
from deberc_net.game.deal import Deal, Trick
from deberc_net.game.outcomes import Outcome
from deberc_net.game.phases import Phase
from deberc_net.game.rules import ComboKeyFn, DealScore, MatchEnd, MatchSnapshot, RuleSet, Settings
from deberc_net.game.talk import Declaration, Pending

from .api import PluginDeal
from .hookspecs import RuleInfo, RuleKind, hookimpl
from .manager import PluginError, RuleBook, RuleError

__all__ = [
    "Call",
    "Card",
    "Combo",
    "ComboKeyFn",
    "Deal",
    "DealScore",
    "Declaration",
    "MatchEnd",
    "MatchSnapshot",
    "Outcome",
    "Pending",
    "Phase",
    "PluginDeal",
    "PluginError",
    "RuleBook",
    "RuleError",
    "RuleInfo",
    "RuleKind",
    "RuleSet",
    "Settings",
    "Trick",
    "hookimpl",
]
