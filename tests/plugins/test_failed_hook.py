"""A table that fails names the rule whose hook raised (RuleBook.failed_hook, the
`table_error` log line's `rule`, docs/settings.md): the innermost hook in the
traceback, a helper it called included; of rules served by one class (the shipped
short, short-bide and dave), the one whose plugin object ran it; None when no hook
raised."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from deberc_net.game.calls import Call
from deberc_net.game.match import Match
from deberc_net.game.rules import Settings
from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.testing import build_ruleset, rule_book


def _helper() -> None:
    raise RuntimeError("broken on purpose")


class _Raising:
    """One class, two rules: its configure hook raises (through a helper)."""

    def __init__(self, name: str) -> None:
        self.name = name

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name=self.name, kind="option", summary="raises when set up")

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        _helper()


def _raised(call: Callable[[], object], kind: type[BaseException] = RuntimeError) -> BaseException:
    with pytest.raises(kind) as info:
        call()
    return info.value


def test_the_rule_whose_hook_raised_is_named() -> None:
    first, second = _Raising("house-first"), _Raising("house-second")
    book = rule_book(first, second)
    settings = Settings()
    for plugin in (first, second):
        exc = _raised(functools.partial(plugin.deberc_configure, settings, 2))
        assert book.failed_hook(exc) == plugin.name
    assert book.failed_hook(_raised(_helper)) is None  # no hook on the way
    assert book.failed_hook(ValueError("never raised")) is None  # no traceback at all


@pytest.mark.parametrize("name", ["short", "short-bide", "dave"])
def test_shipped_rules_of_one_class_are_told_apart(name: str) -> None:
    """short, short-bide and dave score a deal with one method (ShortGame's): a deal
    it cannot read raises in the code of all three, named by the plugin that ran it."""
    book = rule_book()
    rule = book.get(name)
    assert rule is not None
    plugin: Any = rule.plugin
    exc = _raised(functools.partial(plugin.deberc_deal_outcome, None), AttributeError)
    assert book.failed_hook(exc) == name


def _logged(hook: Callable[..., Any]) -> Callable[..., Any]:
    """A plugin's own decorator (a log line, a timer): one wrapper's code for every
    hook it wraps, which pluggy calls as the hook (it reads the wrapped signature)."""

    @functools.wraps(hook)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return hook(*args, **kwargs)

    return wrapper


class _Decorated:
    """A rule whose hooks are wrapped by its own decorator; its configure raises."""

    def __init__(self, name: str) -> None:
        self.name = name

    @hookimpl
    @_logged
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name=self.name, kind="option", summary="decorated hooks")

    @hookimpl
    @_logged
    def deberc_configure(self, settings: Settings, players: int) -> None:
        _helper()


def test_a_decorated_hook_is_named_by_the_code_it_wraps() -> None:
    """The wrapper's code runs every decorated hook, of one rule or of several, and
    takes no ``self``: the hook it wraps (``__wrapped__``) names the rule. Named None
    before, even for a single decorated rule."""
    first, second = _Decorated("house-first"), _Decorated("house-second")
    for plugins in ((first,), (first, second)):
        book = rule_book(*plugins)
        for plugin in plugins:
            exc = _raised(functools.partial(plugin.deberc_configure, Settings(), 2))
            assert book.failed_hook(exc) == plugin.name


def test_a_games_own_deal_class_names_its_variant() -> None:
    """A whole game's deals are its variant's code (Tertz's TertzDeal), called by the
    engine, not as a hook: given the table's rules, code its deal class defines names
    the variant (it was None); the engine's own Deal code and no rules name none."""
    book = rule_book()
    rules = build_ruleset(2, "tertz")
    deal: Any = Match(rules, seed="failed-deal").deal
    assert type(deal).__name__ == "TertzDeal"
    exc = _raised(functools.partial(deal.fresh_combos, 9), IndexError)  # no seat 9
    assert book.failed_hook(exc, rules) == "tertz"
    assert book.failed_hook(exc) is None  # its rules not given: no hook on the way
    moscow = Match(build_ruleset(2), seed="failed-deal").deal
    exc = _raised(functools.partial(moscow.apply, 9, Call("pas")), Exception)
    assert book.failed_hook(exc, build_ruleset(2)) is None  # the engine's own Deal


class _Lazy:
    """A class attribute that is no function and raises on any look-up (a lazy proxy
    outside its context): the search reads a deal class's functions only."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"no context for {name}")


def test_a_deal_classs_other_attributes_are_not_read() -> None:
    """The search runs in a failed table's error path, where nothing may raise: an
    attribute of the deal class that raises when looked at is passed by (it raised
    out of failed_hook before, past the table's apology)."""
    rules = build_ruleset(2, "tertz")
    assert rules.deal_class is not None
    own = type("ProxiedDeal", (rules.deal_class,), {"lazy": _Lazy()})
    deal: Any = Match(attrs.evolve(rules, deal_class=own), seed="failed-deal").deal
    exc = _raised(functools.partial(deal.fresh_combos, 9), IndexError)
    assert rule_book().failed_hook(exc, attrs.evolve(rules, deal_class=own)) == "tertz"
