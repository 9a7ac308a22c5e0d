"""docs/settings.md lists every setting of the ``[server]`` table (a field of Config)
with its true type, default, range and command-line flag, and names no setting that does
not exist: a field added without its line, or a line left for a field removed, fails here."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

import attrs
import pytest

from deberc_net.cli import build_parser, serve_config
from deberc_net.server.config import RANGES, SETTINGS_PAGE, WEB_OFF, Config

PAGE = Path(__file__).resolve().parents[2] / SETTINGS_PAGE
# the page's words for a field's annotation (an optional field: the same, "unset" default)
TYPES = {
    "int": "whole number",
    "float": "number",
    "bool": "true/false",
    "str": "string",
    "list[str]": "list of strings",
}
ROW = re.compile(r"^\| `(\w+)` \|([^|]+)\|([^|]+)\|([^|]*)\|([^|]*)\|([^|]+)\|$")
# a range as a row writes it: "5000 to 86400000", then a gloss ("(a day)") if any
RANGE = re.compile(r"^(\d+) to (\d+)(?: \(|,|$)")


@attrs.frozen
class Row:
    name: str
    type: str
    default: str
    range: str
    flag: str


def _rows() -> list[Row]:
    rows = []
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            name, kind, default, bounds, flag, _ = (part.strip() for part in found.groups())
            rows.append(Row(name, kind, default, bounds, flag.strip("`")))
    return rows


def _value(default: str) -> object:
    """A default as the page writes it: a TOML value in backquotes, or 'unset'."""
    if default == "unset":
        return None
    return tomllib.loads(f"v = {default.strip('`')}")["v"]


def test_the_page_lists_every_setting_once_and_nothing_else() -> None:
    names = [row.name for row in _rows()]
    assert len(names) == len(set(names)), "a setting listed twice"
    assert set(names) == {field.name for field in attrs.fields(Config)}


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row.name)
def test_each_settings_type_and_default_are_the_configs(row: Row) -> None:
    field = attrs.fields_dict(Config)[row.name]
    typed = TYPES[str(field.type).removesuffix(" | None")]
    if row.name == "http_port":  # (a file's "off" is read as none: Config.from_toml)
        typed += f', or `"{WEB_OFF}"`'
    assert row.type == typed
    assert _value(row.default) == getattr(Config(), row.name)


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row.name)
def test_each_settings_range_is_the_one_the_config_checks(row: Row) -> None:
    """A number's row says its least and most as the refusal does; others have none."""
    bounds = RANGES.get(row.name)
    if bounds is None:
        assert row.range == ""
        return
    found = RANGE.match(row.range)
    assert found, row.range
    assert (int(found[1]), int(found[2])) == (bounds.least, bounds.most)


def test_each_flag_on_the_page_is_serves_and_sets_its_setting() -> None:
    """The page's flags are exactly serve's flags that set a setting of the same name."""
    commands = next(
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    serve = commands.choices["serve"]
    fields = attrs.fields_dict(Config)
    flags = {
        action.option_strings[0]: action.dest
        for action in serve._actions
        if action.option_strings and action.dest in fields
    }
    assert {row.flag: row.name for row in _rows() if row.flag} == flags


def test_the_flag_wins_over_the_file_and_the_file_over_the_default(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('[server]\nport = 7600\ndb = "file.sqlite3"\nlag_ms = 900\n', "utf-8")
    parse = build_parser().parse_args
    config = serve_config(parse(["serve", "--config", str(path), "--port", "7700"]))
    # (the file's relative db: beside the file, docs/settings.md)
    assert (config.port, config.db, config.lag_ms) == (7700, str(tmp_path / "file.sqlite3"), 900)
    assert config.host == Config().host  # neither gives it: the default
