"""The per-deal hooks are looked up once (plugins/manager.py ``resolved`` and
``plain``): calling them gives exactly what pluggy's own call gives, in pluggy's order."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pluggy
import pytest

from deberc_net.plugins.hookspecs import PROJECT
from deberc_net.plugins.manager import plain, resolved

spec = pluggy.HookspecMarker(PROJECT)
impl = pluggy.HookimplMarker(PROJECT)


class Specs:
    @spec
    def every(self, deal: Any, seat: int) -> Any:
        """Every implementation answers."""

    @spec(firstresult=True)
    def first(self, deal: Any, seat: int) -> Any:
        """The first answer that is not None."""


class Answers:
    """A plugin answering ``(label, seat)``, or None when ``seat`` is in ``silent_at``."""

    def __init__(self, label: str, silent_at: tuple[int, ...] = ()) -> None:
        self.label = label
        self.silent_at = silent_at

    @impl
    def every(self, seat: int) -> Any:  # names only the argument it needs
        return None if seat in self.silent_at else (self.label, seat)

    @impl
    def first(self, deal: Any, seat: int) -> Any:
        return None if seat in self.silent_at else (self.label, deal, seat)


class Wrapper:
    @impl(wrapper=True)
    def every(self) -> Generator[None, list[Any], list[Any]]:
        result = yield
        return [*result, "wrapped"]


def manager(*plugins: object) -> pluggy.PluginManager:
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(Specs)
    for plugin in plugins:
        pm.register(plugin)
    return pm


@pytest.mark.parametrize("hook", ["every", "first"])
def test_resolved_calls_answer_as_pluggy_does(hook: str) -> None:
    pm = manager(Answers("a"), Answers("b", silent_at=(1,)), Answers("c", silent_at=(1, 2)))
    caller = getattr(pm.hook, hook)
    call = resolved(caller)
    assert call is not caller
    for seat in range(4):
        assert call(deal="d", seat=seat) == caller(deal="d", seat=seat)
    # the last registered first; None answers dropped; a firstresult hook's first answer
    if hook == "every":
        assert call(deal="d", seat=0) == [("c", 0), ("b", 0), ("a", 0)]
        assert call(deal="d", seat=1) == [("a", 1)]
    else:
        assert call(deal="d", seat=2) == ("b", "d", 2)


def test_resolved_calls_of_a_subset_skip_the_removed_plugins() -> None:
    kept, removed = Answers("kept"), Answers("removed")
    pm = manager(kept, removed)
    caller = pm.subset_hook_caller("every", remove_plugins=[removed])
    assert resolved(caller)(deal=None, seat=3) == [("kept", 3)] == caller(deal=None, seat=3)


def test_no_implementation_answers_nothing() -> None:
    pm = manager()
    assert resolved(pm.hook.every)(deal=None, seat=0) == []
    assert resolved(pm.hook.first)(deal=None, seat=0) is None


def test_a_missing_argument_is_refused_as_pluggy_refuses_it() -> None:
    call = resolved(manager(Answers("a")).hook.first)
    with pytest.raises(pluggy.HookCallError, match="'deal'"):
        call(seat=0)


def test_a_hook_with_a_wrapper_keeps_pluggys_call() -> None:
    pm = manager(Answers("a"), Wrapper())
    assert resolved(pm.hook.every) is pm.hook.every
    assert pm.hook.every(deal=None, seat=0) == [("a", 0), "wrapped"]


class Named:
    """A plugin whose ``first`` takes both arguments, as the spec names them."""

    def __init__(self, label: str, silent_at: tuple[int, ...] = ()) -> None:
        self.label = label
        self.silent_at = silent_at

    @impl
    def first(self, deal: Any, seat: int) -> Any:
        return None if seat in self.silent_at else (self.label, deal, seat)


def test_plain_functions_come_in_pluggys_order_and_answer_as_it_does() -> None:
    pm = manager(Named("a"), Named("b", silent_at=(1,)), Named("c", silent_at=(1, 2)))
    functions = plain(pm.hook.first, ("deal", "seat"))
    assert functions is not None and len(functions) == 3
    for seat in range(4):
        answers = [f("d", seat) for f in functions]
        first = next((a for a in answers if a is not None), None)
        assert first == pm.hook.first(deal="d", seat=seat)
    assert [f("d", 0) for f in functions] == [("c", "d", 0), ("b", "d", 0), ("a", "d", 0)]


def test_plain_declines_an_implementation_naming_other_arguments_or_a_wrapper() -> None:
    # Answers.every names only ``seat``: called positionally it would get the deal
    assert plain(manager(Answers("a")).hook.every, ("deal", "seat")) is None
    assert plain(manager(Named("a")).hook.first, ("seat", "deal")) is None  # another order
    assert plain(manager(Wrapper()).hook.every, ()) is None  # names nothing, but wraps
    assert plain(manager().hook.first, ("deal", "seat")) == ()
