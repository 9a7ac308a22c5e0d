"""For the forked workers' tests (their stdout a test's: tests/store/workers.py's
``served_workers``): a rule plugin written for a test, put on the path of the server's
processes, and a worker signalled and its successor waited for."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import trio

from tests.dist_info import write_distribution

from .workers import Workers


def plugin_on_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str
) -> None:
    """Rule plugin ``name`` (module ``deberc_<name>mod``: ``source``) installed for the
    server's processes (PYTHONPATH)."""
    site = tmp_path / "site"
    site.mkdir()
    module = f"deberc_{name}mod"
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    write_distribution(site, f"deberc-{name}", f"[deberc_net]\n{name} = {module}\n")
    path = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))


async def restarted(workers: Workers, index: int, how: int) -> int:
    """Worker ``index`` signalled ``how``; its successor's pid, once it listens."""
    old = workers.pids[index]
    os.kill(old, how)
    with trio.fail_after(30):
        while workers.pids[index] == old:
            await trio.sleep(0.05)
    return workers.pids[index]
