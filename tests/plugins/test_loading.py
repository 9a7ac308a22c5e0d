"""Loading the rule plugins once, at start-up, and refusing to start with a broken one.

A broken third-party distribution is built in a temporary directory (a dist-info with an
entry_points.txt and a module, on the path), never installed into the environment.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import uuid
from importlib import metadata
from pathlib import Path
from typing import Any

import pluggy
import pytest

from deberc_net.cli import main
from deberc_net.plugins import PluginError, RuleBook, RuleInfo, hookimpl
from deberc_net.plugins.hookspecs import PROJECT, RuleSpecs
from deberc_net.plugins.manager import RuleManager
from deberc_net.protocol.messages import MESSAGES, Msg
from deberc_net.testing import rule_book
from tests.dist_info import write_distribution

GOOD_RULE = """
from deberc_net.plugins import RuleInfo, hookimpl

@hookimpl
def deberc_rule_info():
    return RuleInfo(name={name!r}, kind="option", summary="A test rule.")
"""
MISSPELLED = (
    GOOD_RULE
    + """
@hookimpl
def deberc_configur(settings, players):
    settings.target = 777
"""
)
UNMARKED = (  # a hook without @hookimpl: pluggy passes it over, the rule did nothing
    GOOD_RULE
    + """
def deberc_configure(settings, players):
    settings.target = 777
"""
)
RAISES = 'raise RuntimeError("this plugin is broken on purpose")\n'
WRONG_ARGUMENTS = (  # a hook's implementation asking for an argument the hook never gives
    GOOD_RULE
    + """
@hookimpl
def deberc_configure(settings, players, table_size):
    settings.target = 777
"""
)


def publish(root: Path, dist: str, rule: str, source: str) -> str:
    """A distribution ``dist`` in ``root`` publishing ``rule`` (a module made of
    ``source``) under the entry-point group deberc_net. Returns the module name."""
    module = f"deberc_test_{uuid.uuid4().hex[:12]}"  # fresh: nothing cached in sys.modules
    (root / f"{module}.py").write_text(source.format(name=rule), encoding="utf-8")
    write_distribution(root, dist, f"[deberc_net]\n{rule} = {module}\n")
    return module


def serve_with(root: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``deberc-net serve`` (port 0, a scratch database) with ``root`` on the path."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "deberc_net",
            "serve",
            "--port",
            "0",
            "--db",
            str(tmp_path / "serve.sqlite3"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (RAISES, "this plugin is broken on purpose"),
        (MISSPELLED, "deberc_configur"),
        (WRONG_ARGUMENTS, "table_size"),
        (UNMARKED, "deberc_configure is named like a hook but not marked as one: decorate"),
    ],
)
def test_serve_exits_2_naming_a_broken_distribution(tmp_path: Path, source: str, said: str) -> None:
    root = tmp_path / "site"
    root.mkdir()
    publish(root, "deberc-broken", "broken-rule", source)
    done = serve_with(root, tmp_path)
    assert done.returncode == 2, done.stderr
    assert "'deberc-broken'" in done.stderr and "'broken-rule'" in done.stderr
    assert said in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "serve.sqlite3").exists()  # refused before anything started


NAME_ERROR = GOOD_RULE + "\nTARGET = helpr(777)\n"  # a typo run at import


def test_an_import_error_names_the_plugins_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Said as 'NameError: name 'helpr' is not defined' and nothing more (failed before)."""
    module = publish(tmp_path, "deberc-typo", "typo-rule", NAME_ERROR)
    line = NAME_ERROR.format(name="typo-rule").splitlines().index("TARGET = helpr(777)") + 1
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    assert str(info.value).endswith(
        f"NameError: name 'helpr' is not defined (at {tmp_path / module}.py:{line})"
    )


def _published_package(root: Path, rule: str, inner: str, inner_source: str) -> Path:
    """A rule published as a package (``deberc-`` and the rule's first word) whose
    ``__init__`` imports its module ``inner`` of ``inner_source``; the package's path."""
    module = publish(root, f"deberc-{rule.split('-')[0]}", rule, GOOD_RULE)
    (root / f"{module}.py").unlink()
    package = root / module
    package.mkdir()
    (package / "__init__.py").write_text(
        GOOD_RULE.format(name=rule) + f"from . import {inner}\n", encoding="utf-8"
    )
    (package / f"{inner}.py").write_text(inner_source, encoding="utf-8")
    return package


def test_the_line_named_is_the_innermost_in_the_plugins_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not the package's __init__ importing the module, nor the json module that raised."""
    package = _published_package(
        tmp_path, "deep-rule", "table", 'import json\n\nTABLE = json.loads("{")\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    assert "JSONDecodeError" in str(info.value)
    assert str(info.value).endswith(f"(at {package / 'table.py'}:3)")


def test_a_syntax_error_names_its_files_whole_path_and_line_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was 'SyntaxError: invalid syntax (inner.py, line 1)': the base name only, where
    every other import error names the whole path."""
    package = _published_package(tmp_path, "syntax-rule", "inner", "X = 1\ndef (:\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    text = str(info.value)
    assert text.endswith(f"failed: SyntaxError: invalid syntax (at {package / 'inner.py'}:2)")
    assert text.count("inner.py") == 1


SAYS_WRONGLY = (  # a hook that raises while the plugin is loaded
    GOOD_RULE
    + """
WORDS = {{}}

@hookimpl
def deberc_call_aliases():
    return {{"da": WORDS["da"]}}
"""
)


def test_a_hook_raising_at_loading_names_the_plugins_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was "rule plugin 'said-rule' from distribution 'deberc-said': KeyError: 'da'",
    no file nor line."""
    module = publish(tmp_path, "deberc-said", "said-rule", SAYS_WRONGLY)
    source = SAYS_WRONGLY.format(name="said-rule").splitlines()
    line = source.index('    return {"da": WORDS["da"]}') + 1
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    assert str(info.value) == (
        "rule plugin 'said-rule' from distribution 'deberc-said': "
        f"KeyError: 'da' (at {tmp_path / module}.py:{line})"
    )


def test_selfplay_and_ladder_refuse_to_start_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    publish(tmp_path, "deberc-broken", "broken-rule", RAISES)
    monkeypatch.syspath_prepend(str(tmp_path))
    for argv in (["selfplay", "--games", "1"], ["ladder", "run", "--bot", "a=true"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "distribution 'deberc-broken'" in err and "broken on purpose" in err, argv


def test_a_rule_published_under_another_group_is_an_unknown_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What docs/plugins.md tells an author whose rule is not found: the group is
    never looked at, and selfplay names the options that were loaded."""
    module = publish(tmp_path, "deberc-hyphen", "hyphen-rule", GOOD_RULE)
    points = tmp_path / "deberc_hyphen-0.0.1.dist-info" / "entry_points.txt"
    points.write_text(f"[deberc-net]\nhyphen-rule = {module}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["selfplay", "--games", "1", "--option", "hyphen-rule"]) == 2
    err = capsys.readouterr().err
    assert "deberc-net selfplay: unknown option 'hyphen-rule'; variants: " in err
    assert "options: " in err and "to-301" in err


class _UnmarkedMethod:
    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="unmarked", kind="option", summary="A test rule.")

    def deberc_deal_points(self, score: object) -> None:
        raise AssertionError("never called: not a hook without @hookimpl")

    def helper(self) -> None:
        """Any other name is the plugin's own business."""


def test_a_method_named_like_a_hook_without_the_marker_is_refused_by_name() -> None:
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[_UnmarkedMethod()])
    assert info.value.rule == "unmarked"
    assert "deberc_deal_points is named like a hook but not marked as one" in str(info.value)
    assert "@hookimpl" in str(info.value)


def _configure(settings: object, players: int, stake: int) -> None:
    raise AssertionError("never called: pluggy calls no functools.partial")


class _NoFunctionHooks:
    """Hooks marked @hookimpl that are not functions: pluggy passes them over (it calls
    only a def, a static or class method), so the rule loaded and they never ran."""

    def __init__(self, which: str) -> None:
        self.name = f"house-{which}"
        if which == "partial":
            self.deberc_configure: Any = hookimpl(functools.partial(_configure, stake=2))

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name=self.name, kind="option", summary="A test rule.")


class _Configure:
    """A callable object (a hook's logic kept in a class of its own)."""

    def __call__(self, settings: object, players: int) -> None:
        raise AssertionError("never called: pluggy calls no callable object")


class _CallableHook(_NoFunctionHooks):
    deberc_configure = hookimpl(_Configure())


@pytest.mark.parametrize(
    ("plugin", "said"),
    [
        (_NoFunctionHooks("partial"), "deberc_configure is marked @hookimpl but is a partial"),
        (_CallableHook("callable"), "deberc_configure is marked @hookimpl but is a _Configure"),
    ],
)
def test_a_hook_that_is_no_function_is_refused_by_name(plugin: object, said: str) -> None:
    """Either loaded without a word and never ran."""
    with pytest.raises(PluginError) as info:
        RuleBook.load(extra=[plugin])
    assert said in str(info.value) and "write a def" in str(info.value), info.value


def test_the_entry_point_name_must_be_the_rules_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = publish(tmp_path, "deberc-misnamed", "to-666", GOOD_RULE)
    (tmp_path / f"{module}.py").write_text(GOOD_RULE.format(name="to-999"), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    text = str(info.value)
    assert info.value.distribution == "deberc-misnamed"
    assert "'to-666'" in text and "'to-999'" in text


def test_a_hook_asking_for_an_argument_the_hook_never_gives_is_named_by_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pluggy's refusal came on three lines and named no file: the author had to search
    his package for the function."""
    module = publish(tmp_path, "deberc-args", "args-rule", WRONG_ARGUMENTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    text = str(info.value)
    source = (tmp_path / f"{module}.py").read_text(encoding="utf-8").splitlines()
    line = source.index("def deberc_configure(settings, players, table_size):")  # 1-based: @
    assert "\n" not in text and "{'table_size'}" in text
    assert text.endswith(f"(at {tmp_path / module}.py:{line})")


ASYNC_HOOK = (  # a trio author's habit: called, never awaited, the rule did nothing
    GOOD_RULE
    + """
@hookimpl
async def deberc_configure(settings, players):
    settings.target = 777
"""
)


@pytest.mark.parametrize(
    ("source", "said", "line"),
    [
        (
            ASYNC_HOOK,
            "deberc_configure is an async def: hooks are called, never awaited",
            "@hookimpl",
        ),
        (UNMARKED, "deberc_configure is named like a hook but not marked", "def deberc_configure("),
    ],
)
def test_an_async_or_unmarked_hook_is_refused_with_its_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, said: str, line: str
) -> None:
    """An 'async def' hook loaded and did nothing (its coroutine never ran): failed
    before; the unmarked one was refused without saying where."""
    module = publish(tmp_path, "deberc-hooky", "hooky", source)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    text = str(info.value)
    lines = (tmp_path / f"{module}.py").read_text(encoding="utf-8").splitlines()
    number = 1 + next(i for i, x in enumerate(lines) if x.startswith(line) and i > 6)
    assert said in text
    assert text.endswith(f"(at {tmp_path / module}.py:{number})")


CLASS_RULE = """
from deberc_net.plugins import RuleInfo, hookimpl

class Rule:
    @hookimpl
    def deberc_rule_info(self):
        return RuleInfo(name={name!r}, kind="option", summary="A rule in a class.")

PLUGIN = Rule()
"""


@pytest.mark.parametrize(("attribute", "loads"), [("Rule", False), ("PLUGIN", True)])
def test_an_entry_point_naming_the_class_not_an_instance_is_told_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, attribute: str, loads: bool
) -> None:
    """'module:Rule' loaded the class: its hooks unbound, the author was told only
    "TypeError: Rule.deberc_rule_info() missing 1 required positional argument: 'self'"."""
    module = publish(tmp_path, "deberc-classy", "classy", CLASS_RULE)
    points = tmp_path / "deberc_classy-0.0.1.dist-info" / "entry_points.txt"
    points.write_text(f"[deberc_net]\nclassy = {module}:{attribute}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    if loads:
        assert RuleBook.load().get("classy") is not None
        return
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    assert info.value.distribution == "deberc-classy"
    assert str(info.value).endswith(
        "it is the class Rule, not a plugin object: publish an instance (the module's "
        f"'PLUGIN = Rule()', the entry point naming '{module}:PLUGIN') or the module itself"
    )


STATIC_CLASS_RULE = """
from deberc_net.plugins import RuleInfo, hookimpl

class Rule:
    @staticmethod
    @hookimpl
    def deberc_rule_info():
        return RuleInfo(name="statics", kind="option", summary="A rule of static methods.")

    @staticmethod
    @hookimpl
    def deberc_configure(settings, players):
        settings.target = 777
"""


def test_a_class_of_static_hooks_published_as_itself_loads_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pluggy takes any namespace: a class whose hooks are static methods is a plugin
    as it stands (nothing unbound), and the refusal of a class is not for it."""
    module = publish(tmp_path, "deberc-statics", "statics", STATIC_CLASS_RULE)
    points = tmp_path / "deberc_statics-0.0.1.dist-info" / "entry_points.txt"
    points.write_text(f"[deberc_net]\nstatics = {module}:Rule\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    book = RuleBook.load()
    assert book.ruleset(2, "kharkov", ["statics"]).settings.target == 777


def test_a_third_party_taking_a_shipped_rules_name_is_blamed_not_the_server(
    tmp_path: Path,
) -> None:
    """serve named deberc-net as the distribution to fix or uninstall (failed before)."""
    root = tmp_path / "site"
    root.mkdir()
    publish(root, "deberc-copycat", "to-301", GOOD_RULE)
    done = serve_with(root, tmp_path)
    assert done.returncode == 2, done.stderr
    first, fix = done.stderr.splitlines()
    assert first.startswith("deberc-net serve: rule plugin 'to-301' from distribution ")
    assert "'deberc-copycat'" in first and "'deberc-net'" in first
    assert fix == "deberc-net serve: fix or uninstall distribution 'deberc-copycat'"


def test_two_third_parties_publishing_one_rule_name_are_both_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    publish(tmp_path, "deberc-first", "to-777", GOOD_RULE)
    publish(tmp_path, "deberc-second", "to-777", GOOD_RULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    assert info.value.distributions == ("deberc-first", "deberc-second")
    assert main(["selfplay", "--games", "1"]) == 2
    first, fix = capsys.readouterr().err.splitlines()
    assert "'to-777'" in first and "'deberc-first'" in first and "'deberc-second'" in first
    assert (
        fix
        == "deberc-net selfplay: fix or uninstall distribution 'deberc-first' or 'deberc-second'"
    )


def test_a_working_third_party_rule_is_loaded_with_its_distributions_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    publish(tmp_path, "deberc-fine", "fine-rule", GOOD_RULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    rule = RuleBook.load().get("fine-rule")
    assert rule is not None
    assert (rule.distribution, rule.version) == ("deberc-fine", "0.0.1")


def test_tables_never_look_for_plugins_after_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    book = RuleBook.load()

    def no_scan(**_: object) -> None:
        raise AssertionError("entry points scanned after start-up")

    monkeypatch.setattr(metadata, "entry_points", no_scan)
    first = book.ruleset(2, "kharkov", ["to-301", "commitment"])
    assert book.ruleset(2, "kharkov", ["commitment", "to-301"]) is first  # cached
    assert book.ruleset(3, "kharkov", ["commitment", "to-301"]) is not first
    assert first.options == ("commitment", "to-301")


def test_one_plugin_published_under_two_names_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = publish(tmp_path, "deberc-twice", "twice-rule", GOOD_RULE)
    (tmp_path / "deberc_twice-0.0.1.dist-info" / "entry_points.txt").write_text(
        f"[deberc_net]\ntwice-rule = {module}\ntwice-again = {module}\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        RuleBook.load()
    assert info.value.distribution == "deberc-twice"
    assert "'twice-again'" in str(info.value) and "'twice-rule'" in str(info.value)


def test_loading_reads_the_entry_points_once_and_each_distributions_metadata_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    publishers = {ep.dist.name for ep in metadata.entry_points(group="deberc_net") if ep.dist}
    scans: list[object] = []
    read: list[str] = []
    entry_points, read_text = metadata.entry_points, metadata.PathDistribution.read_text

    def counted_scan(*, group: str) -> metadata.EntryPoints:  # the loader's one call
        scans.append({"group": group})
        return entry_points(group=group)

    def counted_read(dist: metadata.PathDistribution, filename: str) -> str | None:
        read.append(filename)
        return read_text(dist, filename)

    monkeypatch.setattr(metadata, "entry_points", counted_scan)
    monkeypatch.setattr(metadata.PathDistribution, "read_text", counted_read)
    book = RuleBook.load()
    assert scans == [{"group": "deberc_net"}]
    assert len(publishers) >= 2  # ours and the examples'
    # (read_text("METADATA") begins each parse; PKG-INFO is read only where it is missing)
    assert 1 <= read.count("METADATA") <= len(publishers)
    assert book.get("moscow") is not None and book.get("posled-20") is not None


def test_the_book_registers_the_same_hook_implementations_as_pluggy_would() -> None:
    """The book's manager skips dunders when it looks for hooks (start-up time): it
    finds every implementation pluggy's own manager finds."""
    ours_pm, plain = RuleManager(PROJECT), pluggy.PluginManager(PROJECT)
    for pm in (ours_pm, plain):
        pm.add_hookspecs(RuleSpecs)
        for rule in RuleBook.load().rules():
            pm.register(rule.plugin, name=rule.name)
    ours = {name: caller.get_hookimpls() for name, caller in vars(ours_pm.hook).items()}
    theirs = {name: caller.get_hookimpls() for name, caller in vars(plain.hook).items()}
    assert ours.keys() == theirs.keys()
    assert sum(len(impls) for impls in theirs.values()) > len(theirs)  # plenty to compare
    for name, impls in theirs.items():
        assert {(i.plugin_name, i.function) for i in ours[name]} == {
            (i.plugin_name, i.function) for i in impls
        }, name


def test_every_shipped_rule_describes_itself_in_russian_too() -> None:
    """'rules' under 'lang ru' (docs/plugins.md, summary_ru): each rule this project
    ships has its Russian summary; a third-party one (the examples) may have none."""
    rules = rule_book().rules()
    shipped = [r for r in rules if r.distribution == "deberc-net"]
    assert len(shipped) > 40
    assert [r.name for r in shipped if not r.info.summary_ru] == []
    assert all("seed" not in r.info.summary_ru for r in shipped)  # no sources for players
    assert {r.name for r in rules if not r.info.summary_ru} == {"posled-20"}  # (English)
    assert "«пересдача»" in next(r for r in rules if r.name == "perezdacha").info.summary_ru


def test_the_russian_summaries_use_the_catalogues_words() -> None:
    """Tertz's deck is broken ('ломает колоду', as the catalogue and the calls say
    lomayu), not cut ('снимает'); in short-bide it is the player who ordered (играющий)
    who pays double when he scores less (docs/rules.md §10), not any player."""
    info = {r.name: r.info for r in rule_book().rules()}
    assert "проигравший первую взятку ломает колоду: «ломаю N»" in info["tertz"].summary_ru
    assert "ломает колоду" in MESSAGES[Msg.BREAKS_FIRST][1]
    assert "вдвоём играющий, набравший меньше, платит двойную" in info["short-bide"].summary_ru


def test_the_fields_added_after_the_first_plugins_are_keyword_only() -> None:
    """A plugin that gives RuleInfo's first fields by position cannot have a later
    argument land in needs_bidding, bidding or summary_ru (docs/plugins.md)."""
    info = RuleInfo("x", "option", "an option", (2,), (), (), needs_bidding=True)
    assert info.needs_bidding and info.bidding and info.summary_ru == ""
    # a plugin built without our types: what a type checker would refuse, made at run time
    wrong: tuple[Any, ...] = ("x", "option", "an option", (2,), (), (), "по-русски")
    with pytest.raises(TypeError):
        RuleInfo(*wrong)
