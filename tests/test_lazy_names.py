"""The names deberc_net and deberc_net.game give on first use (PEP 562) stay checked
names for mypy: a misspelled one is a type error, not Any."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _mypy_cache(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """mypy's incremental cache, kept between runs in pytest's cache directory (.pytest_cache)
    when there is one: a first run checks the package and typeshed's stubs (some 3-4 s), a
    later one what changed since (mypy compares each file's hash). A new one starts as a
    copy of the project's own (.mypy_cache, which make test's mypy has just brought up to
    date, with the same options: 0.6 s then), where there is one."""
    cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    found = tmp_path / "cache" if cache is None else cache.mkdir("mypy-lazy-names")
    project = request.config.rootpath / ".mypy_cache"
    if project.is_dir() and not any(found.iterdir() if found.is_dir() else ()):
        shutil.copytree(project, found, dirs_exist_ok=True)
    return found


def test_misspelled_lazy_names_are_type_errors(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import deberc_net\n"
        "from deberc_net.game import Match, Matc\n"
        "version: str = deberc_net.__version__\n"
        "typo: str = deberc_net.__verison__\n"
        "match: type[Match] = Match\n",
        encoding="utf-8",
    )
    # a process of its own, not mypy.api.run in the tests' process: mypy tunes the
    # collector for itself (gc.set_threshold, gc.freeze() then gc.unfreeze(), which
    # undoes the suite's freeze, tests/conftest.py) and keeps ~170,000 objects alive, so
    # each full collection after it walked them all (seconds of CPU in the worker that
    # ran it, most in tests/game/test_match_freed.py's collections)
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            # (normal, as make test's mypy follows them: its cache serves; the package
            # checks clean there, so only the probe's two lines are errors)
            "--follow-imports=normal",
            "--cache-dir",
            str(_mypy_cache(request, tmp_path)),
            "--no-error-summary",
            str(probe),
        ],
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )
    out, err, status = checked.stdout, checked.stderr, checked.returncode
    assert err == ""
    errors = sorted(line.split(":")[1] for line in out.splitlines() if ": error:" in line)
    assert errors == ["2", "4"], out  # Matc and __verison__; the real names check
    assert status == 1
