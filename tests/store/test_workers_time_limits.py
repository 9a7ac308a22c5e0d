"""The cluster's tests (worker processes on PostgreSQL, the suite's slowest) each end
by their own limit: a test whose ``trio.fail_after`` around it all (its own, or that
of a helper of its module it calls: a context manager, a shared body) is as long as
pytest-timeout's default (pyproject.toml) or longer carries a ``pytest.mark.timeout``
above it by the workers' stop (``START_LIMIT_S``). Without one, the default cut such a
test off first, by SIGALRM inside trio's run, which is abandoned ("Trio guest run got
abandoned"): the served workers' clean-up (SIGTERM, and the wait for it) did not run,
and the failure said only "Timeout", not what the test was waiting for."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from .workers import START_LIMIT_S

HERE = Path(__file__).parent
DEFAULT_S = tomllib.loads((HERE.parent.parent / "pyproject.toml").read_text())["tool"]["pytest"][
    "ini_options"
]["timeout"]


Function = ast.AsyncFunctionDef | ast.FunctionDef


def _seconds(node: ast.expr) -> float:
    assert isinstance(node, ast.Constant) and isinstance(node.value, int | float), node
    return float(node.value)


def _own_limit(function: Function) -> float | None:
    """The ``trio.fail_after`` around ``function``'s whole body (a statement of it)."""
    own = None
    for statement in function.body:
        if isinstance(statement, ast.With | ast.AsyncWith):
            for item in statement.items:
                call = item.context_expr
                if (
                    isinstance(call, ast.Call)
                    and ast.unparse(call.func) == "trio.fail_after"
                    and isinstance(call.args[0], ast.Constant)
                ):
                    own = _seconds(call.args[0])
    return own


def _limit(function: Function, helpers: dict[str, Function], seen: set[str]) -> float | None:
    """``function``'s own limit, else the longest of the module's helpers it calls (a
    helper or a context manager of the module may hold the test's limit: rv50)."""
    own = _own_limit(function)
    if own is not None:
        return own
    limits = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in helpers and name not in seen:
                seen.add(name)
                limits.append(_limit(helpers[name], helpers, seen))
    return max((x for x in limits if x is not None), default=None)


def _mark(test: Function) -> float | None:
    for decorator in test.decorator_list:
        if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "pytest.mark.timeout":
            return _seconds(decorator.args[0])
    return None


def test_each_cluster_test_longer_than_the_default_time_limit_has_its_own() -> None:
    unmarked = []
    for path in sorted(HERE.glob("test_workers*.py")):
        module = ast.parse(path.read_text())
        functions = {
            node.name: node
            for node in module.body
            if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef)
        }
        for name, node in functions.items():
            if name.startswith("test_"):
                own, mark = _limit(node, functions, {name}), _mark(node)
                if own is not None and own >= DEFAULT_S and (mark or 0) < own + START_LIMIT_S:
                    unmarked.append(f"{path.name}::{name} fail_after({own:g}) mark {mark}")
    assert not unmarked, unmarked
