"""Resolve a table's rule set: pick the plugins, check them, bind the hooks once.

The plugin manager is built per table (never at import time). The builtin Moscow rules
are registered first; the variant, then the options, go on top, so they override it.
Third-party rules come from the entry-point group ``deberc_net``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib import metadata
from typing import Any

import pluggy

from deberc_net.game.calls import Call
from deberc_net.game.deal import Deal
from deberc_net.game.rules import DealScore, RuleSet, Settings

from . import hookspecs
from .builtin import moscow
from .hookspecs import PROJECT, RuleInfo
from .house import deberts, poltinniki, scoring, short, stakes, switches, targets
from .variants import kharkov, players

ENTRY_POINT_GROUP = "deberc_net"
BUILTIN_VARIANT = moscow.NAME

# Everything we ship, by name. The same objects are published through our own entry
# points (pyproject.toml), exactly as a third party publishes its rules.
_SHIPPED: dict[str, object] = {
    moscow.NAME: moscow,
    kharkov.NAME: kharkov,
    players.THREE_PLAYERS.name: players.THREE_PLAYERS,
    players.FOUR_PLAYERS.name: players.FOUR_PLAYERS,
    targets.TO_301.name: targets.TO_301,
    targets.TO_1001.name: targets.TO_1001,
    targets.TO_1002.name: targets.TO_1002,
    **{stake.name: stake for stake in stakes.STAKES},
    deberts.NAME: deberts,
    poltinniki.NAME: poltinniki,
    **{switch.name: switch for switch in switches.SWITCHES},
    **{rule.name: rule for rule in scoring.SCORING},
    **{rule.name: rule for rule in short.SHORT_GAMES},
}


class RuleError(ValueError):
    """The requested variant and options do not make a table."""


def available_plugins() -> dict[str, object]:
    """Every rule plugin by name: ours, then those installed through entry points."""
    return {**_installed(), **_SHIPPED}


@functools.cache
def _installed() -> dict[str, object]:
    # Scanning the installed distributions is slow; packages do not appear while we run.
    return {e.name: e.load() for e in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def rule_info(plugin: object) -> RuleInfo:
    info = getattr(plugin, "deberc_rule_info", None)
    if info is None:
        raise RuleError(f"{plugin!r} does not describe itself (deberc_rule_info)")
    return info()


def _pick(variant: str, options: Iterable[str], players: int) -> list[tuple[str, object]]:
    """The table's plugins in registration order: the player-count rules, the variant,
    then the options (sorted). Raises RuleError naming what does not fit."""
    known = available_plugins()
    chosen = [variant, *sorted(set(options))]
    picked: list[tuple[str, object]] = []
    by_count = [n for n, p in known.items() if _for_player_count(p, players)]
    picked.extend((name, known[name]) for name in sorted(by_count))
    for index, name in enumerate(chosen):
        expected = "variant" if index == 0 else "option"
        if name not in known:
            names = sorted(n for n, p in known.items() if rule_info(p).kind == expected)
            raise RuleError(f"unknown {expected} {name!r}; known: {', '.join(names)}")
        info = rule_info(known[name])
        if info.kind != expected:
            raise RuleError(f"{name!r} is a {info.kind}, not usable as the {expected}")
        if players not in info.players:
            counts = ", ".join(str(p) for p in info.players)
            raise RuleError(f"{name!r} is for {counts} players, not {players}")
        picked.append((name, known[name]))
    names = {name for name, _ in picked}
    for name, plugin in picked:
        info = rule_info(plugin)
        for other in info.conflicts:
            if other in names:
                raise RuleError(f"options {name!r} and {other!r} contradict each other")
        for needed in info.requires:
            if needed not in names:
                raise RuleError(f"option {name!r} needs option {needed!r} too")
    return picked


def _for_player_count(plugin: object, players: int) -> bool:
    """Is this a rule that comes with the player count (three-players, four-players)?"""
    try:
        info = rule_info(plugin)
    except RuleError:
        return False  # refused later, and only if somebody asks for it by name
    return info.kind == "players" and players in info.players


def build_ruleset(
    players: int = 2, variant: str = BUILTIN_VARIANT, options: Iterable[str] = ()
) -> RuleSet:
    """The resolved rules of one table. Raises RuleError naming what does not fit."""
    picked = _pick(variant, options, players)
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs.RuleSpecs)
    pm.register(moscow, name=f"builtin:{moscow.NAME}")
    for name, plugin in picked:
        if plugin is not moscow:
            pm.register(plugin, name=name)
    pm.check_pending()
    hook = pm.hook
    settings = Settings()
    hook.deberc_configure(settings=settings, players=players)
    infos = [rule_info(p) for _, p in picked]
    options = tuple(name for name, p in picked if rule_info(p).kind == "option")
    return RuleSet(
        settings=settings,
        variant=variant,
        options=options,
        versions={i.name: i.version for i in infos},
        combo_key=hook.deberc_combo_key(settings=settings),
        combo_winners=lambda deal: hook.deberc_combo_winners(deal=deal),
        score_deal=_score_deal(hook),
        next_dealer=lambda snap: hook.deberc_next_dealer(snapshot=snap),
        match_end=lambda snap: hook.deberc_match_end(snapshot=snap),
        extra_calls=_extra_calls(hook),
        apply_extra_call=_apply_extra_call(hook),
        deal_event=_deal_event(hook),
        describe=tuple(f"{i.name}: {i.summary}" for i in infos),
    )


def _score_deal(hook: Any) -> Any:
    def score_deal(score: DealScore) -> None:
        hook.deberc_deal_points(score=score)
        hook.deberc_deal_outcome(score=score)
        hook.deberc_adjust_written(score=score)

    return score_deal


def _extra_calls(hook: Any) -> Any:
    if not hook.deberc_extra_calls.get_hookimpls():
        return None  # nobody adds calls: the engine pays nothing for the hook

    def extra_calls(deal: Deal, seat: int) -> list[Call]:
        return [c for calls in hook.deberc_extra_calls(deal=deal, seat=seat) for c in calls]

    return extra_calls


def _deal_event(hook: Any) -> Any:
    if not hook.deberc_deal_event.get_hookimpls():
        return None

    def deal_event(deal: Deal, name: str) -> None:
        hook.deberc_deal_event(deal=deal, name=name)

    return deal_event


def _apply_extra_call(hook: Any) -> Any:
    if not hook.deberc_apply_extra_call.get_hookimpls():
        return None

    def apply_extra_call(deal: Deal, seat: int, call: Call) -> bool:
        return bool(hook.deberc_apply_extra_call(deal=deal, seat=seat, call=call))

    return apply_extra_call


