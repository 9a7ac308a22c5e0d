"""docs/plugins.md against the code a plugin author writes to: every type the hooks and
``PluginDeal`` name can be imported from ``deberc_net.plugins``, the page says where
each comes from, and its ``Settings`` table lists every field."""

from __future__ import annotations

import ast
import collections.abc
import importlib
import inspect
import re
import typing
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

import deberc_net.plugins
from deberc_net.plugins import PluginDeal, Settings
from deberc_net.plugins.hookspecs import RuleSpecs
from deberc_net.testing import build_ruleset

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


def _settings_rows() -> dict[str, object]:
    """The page's ``Settings`` table: each field with its Moscow value (a row of two
    fields gives two values, ``True, True``)."""
    values: dict[str, object] = {}
    for line in _section("### `Settings` (set in `deberc_configure`)").splitlines():
        if not line.startswith("| `"):
            continue
        names_cell, moscow = line.split("|")[1:3]
        names = re.findall(r"`(\w+)`", names_cell)
        said = ast.literal_eval(moscow.strip())
        for name, value in zip(names, said if len(names) > 1 else [said], strict=True):
            assert name not in values, f"{name} listed twice"
            values[name] = value
    return values


def test_the_settings_table_lists_every_field_with_its_moscow_value() -> None:
    """A field added to Settings without its row fails here (five were missing)."""
    rows = _settings_rows()
    assert sorted(rows) == sorted(field.name for field in attrs.fields(Settings))
    moscow = build_ruleset().settings
    assert {name: getattr(moscow, name) for name in rows} == rows
