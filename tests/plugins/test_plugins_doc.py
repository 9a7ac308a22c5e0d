"""docs/plugins.md against the code a plugin author writes to: every type the hooks and
``PluginDeal`` name can be imported from ``deberc_net.plugins``, and the page says where
each comes from."""

from __future__ import annotations

import collections.abc
import importlib
import inspect
import re
import typing
from collections.abc import Callable
from pathlib import Path

import pytest

import deberc_net.plugins
from deberc_net.plugins import PluginDeal
from deberc_net.plugins.hookspecs import RuleSpecs

PAGE = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"
EXPORTS = {name: getattr(deberc_net.plugins, name) for name in deberc_net.plugins.__all__}
# what an annotation may use besides the exports: builtins, typing's and the ABCs' names
GENERAL = {**vars(typing), **vars(collections.abc)}


def _section(title: str) -> str:
    """The text of the page's section headed ``title`` (to its next heading)."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"\n{title}\n")
    end = text.find("\n#", start + 1)
    return text[start : end if end != -1 else None]


def _annotated() -> list[tuple[str, Callable[..., object]]]:
    """Every hook specification and every member of PluginDeal with annotations."""
    found: list[tuple[str, Callable[..., object]]] = [
        (name, function) for name, function in vars(RuleSpecs).items() if name.startswith("deberc_")
    ]
    for name, member in vars(PluginDeal).items():
        if isinstance(member, property) and member.fget is not None:
            found.append((name, member.fget))
        elif inspect.isfunction(member) and not name.startswith("_"):
            found.append((name, member))
    return found


@pytest.mark.parametrize(
    "function", [f for _, f in _annotated()], ids=[name for name, _ in _annotated()]
)
def test_every_type_a_hook_or_the_deal_names_is_exported(function: Callable[..., object]) -> None:
    """Resolved with the exports alone: a type missing from deberc_net.plugins raises."""
    typing.get_type_hints(function, globalns=GENERAL, localns=EXPORTS)


def test_the_deals_settable_pending_is_exported_too() -> None:
    hints = typing.get_type_hints(PluginDeal, globalns=GENERAL, localns=EXPORTS)
    assert hints["pending"] == EXPORTS["Pending"] | None


def test_the_page_says_where_each_export_comes_from() -> None:
    """The page's "What to import" table: one row per export, each with a module."""
    said: dict[str, str] = {}
    for line in _section("### What to import").splitlines():
        cells = line.split("|")[1:3] if line.startswith("| `") else []
        if cells:
            names, modules = (re.findall(r"`([\w.]+)`", cell) for cell in cells)
            # one module for the row's names, or one each
            for name, module in zip(
                names, modules * len(names) if len(modules) == 1 else modules, strict=True
            ):
                assert name not in said, f"{name} listed twice"
                said[name] = module
    assert sorted(said) == sorted(EXPORTS)
    for name, module in said.items():
        assert vars(importlib.import_module(module)).get(name) is EXPORTS[name], name
