"""Rules as pluggy plugins: hook specs, the rule book (loading and rule sets), the
builtin and house rules, and ``PluginDeal``, what a plugin may use on a deal."""

from .api import PluginDeal
from .hookspecs import RuleInfo, RuleKind, hookimpl
from .manager import PluginError, RuleBook, RuleError

__all__ = ["PluginDeal", "PluginError", "RuleBook", "RuleError", "RuleInfo", "RuleKind", "hookimpl"]
