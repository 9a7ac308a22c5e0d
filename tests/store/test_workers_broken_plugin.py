"""A broken rule plugin stops ``serve --workers`` as it stops a lone ``serve``
(docs/plugins.md): two lines naming the plugin and the distribution to fix, status 2,
no worker started. The parent loads the rules it forks its workers with
(cluster/forked.py ``preload``); before, it swallowed the error there, each worker
raised it again as a traceback and the parent ended with status 1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.dist_info import write_distribution

from .workers import settings_file


def _broken_distribution(root: Path) -> None:
    """``deberc-broken`` in ``root``: its rule's module imports a module nobody has."""
    (root / "deberc_brokenmod.py").write_text("import nosuchthing\n", encoding="utf-8")
    write_distribution(root, "deberc-broken", "[deberc_net]\nbroken-rule = deberc_brokenmod\n")


@pytest.mark.timeout(60)
def test_a_broken_plugin_stops_serve_workers_in_two_lines_and_status_2(
    postgres_url: str, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _broken_distribution(site)
    path = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    command = [
        sys.executable, "-m", "deberc_net", "serve", "--workers", "2", "--db", postgres_url,
        "--port", "0", "--http-port", "off", "--config", str(settings_file(tmp_path)),
    ]  # fmt: skip
    done = subprocess.run(
        command,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(path)},
        capture_output=True,
        text=True,
        timeout=40,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    first, fix = done.stderr.splitlines()  # no traceback, no worker's line
    assert first.startswith(
        "deberc-net serve: rule plugin 'broken-rule' from distribution 'deberc-broken': "
        "loading deberc_brokenmod failed: ModuleNotFoundError: No module named 'nosuchthing'"
    ), done.stderr
    assert fix == "deberc-net serve: fix or uninstall distribution 'deberc-broken'"
