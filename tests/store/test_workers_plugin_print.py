"""A worker's stdout is a pipe to ``serve --workers``' parent, and its plugins' too (a
print in a hook): the parent reads it all the time (cluster/launch.py ``listen``), not
only until the worker is ready, and passes what is not for it on to its own stdout,
where a lone ``serve`` writes it. Before, nobody read it once the worker was ready: 64
KiB of prints filled the pipe and the worker stopped at its next one, every player of
it with it (a table not opened, a login never answered)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import trio

from tests.dist_info import write_distribution

from .workers import SETTINGS, served_workers, settings_file

LOUD = """
from deberc_net.plugins import RuleInfo, hookimpl

@hookimpl
def deberc_rule_info():
    return RuleInfo(name="loud", kind="option", summary="Prints a lot as a table takes it.")

@hookimpl
def deberc_configure(settings, players):
    print("loud:" + "x" * 100_000, flush=True)  # more than a pipe holds
"""


def _loud_distribution(root: Path) -> None:
    (root / "deberc_loudmod.py").write_text(LOUD, encoding="utf-8")
    write_distribution(root, "deberc-loud", "[deberc_net]\nloud = deberc_loudmod\n")


@pytest.mark.timeout(120)
async def test_a_plugins_prints_do_not_stop_a_worker_and_reach_the_parents_stdout(
    postgres_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _loud_distribution(site)
    path = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    settings = settings_file(tmp_path, SETTINGS.replace("house_bots = true", "house_bots = false"))
    with trio.fail_after(80):
        async with served_workers(postgres_url, settings) as workers:
            for index in (0, 1):
                for turn in range(2):  # (each worker prints once: its rules are cached)
                    client = await workers.connect(index, f"loud{index}{turn}")
                    await client.send("new 2 loud")
                    await client.expect("ok", cmd="sit", timeout=30)
                    await client.aclose()
    out = capfd.readouterr().out
    assert out.count("loud:" + "x" * 100_000 + "\n") == 2, len(out)
