"""Rules as pluggy plugins: hook specs, the resolver, the builtin and house rules."""

from .hookspecs import RuleInfo, hookimpl
from .manager import RuleError, available_plugins, build_ruleset

__all__ = ["RuleError", "RuleInfo", "available_plugins", "build_ruleset", "hookimpl"]
