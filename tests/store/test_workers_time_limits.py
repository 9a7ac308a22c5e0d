"""The cluster's tests (worker processes on PostgreSQL, the suite's slowest) each end
by their own limit: a test whose ``trio.fail_after`` around it all is as long as
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


def _limits(test: ast.AsyncFunctionDef | ast.FunctionDef) -> tuple[float | None, float | None]:
    """The test's own ``trio.fail_after`` around its whole body, and its timeout mark."""
    own = None
    for statement in test.body:
        if isinstance(statement, ast.With | ast.AsyncWith):
            for item in statement.items:
                call = item.context_expr
                if (
                    isinstance(call, ast.Call)
                    and ast.unparse(call.func) == "trio.fail_after"
                    and isinstance(call.args[0], ast.Constant)
                ):
                    own = float(call.args[0].value)
    mark = None
    for decorator in test.decorator_list:
        if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "pytest.mark.timeout":
            assert isinstance(decorator.args[0], ast.Constant)
            mark = float(decorator.args[0].value)
    return own, mark


def test_each_cluster_test_longer_than_the_default_time_limit_has_its_own() -> None:
    unmarked = []
    for path in sorted(HERE.glob("test_workers*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef) and node.name.startswith(
                "test_"
            ):
                own, mark = _limits(node)
                if own is not None and own >= DEFAULT_S and (mark or 0) < own + START_LIMIT_S:
                    unmarked.append(f"{path.name}::{node.name} fail_after({own:g}) mark {mark}")
    assert not unmarked, unmarked
