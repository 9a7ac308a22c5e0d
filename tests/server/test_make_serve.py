"""`make serve ARGS="..."` passes serve's flags on (README): a port of one's own."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# the serve target with this interpreter's deberc-net, its install taken as done: make
# never reinstalls (a pyproject.toml newer than the stamp) nor makes a .venv in the tree
MAKE_SERVE = ["make", "-s", "-o", ".venv/.installed", "serve", f"BIN={Path(sys.executable).parent}"]


def test_make_serve_in_the_test_never_installs_anything() -> None:
    """As if pyproject.toml had just changed (-W): still only the server's command."""
    dry = subprocess.run(
        [*MAKE_SERVE, "-n", "-W", "pyproject.toml", "ARGS=--port 0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert dry.stdout.splitlines() == [
        f"{Path(sys.executable).parent}/deberc-net serve --house-bots --port 0"
    ], dry.stdout


def test_make_serve_takes_serves_flags_in_args(tmp_path: Path) -> None:
    db = tmp_path / "made.sqlite3"
    # a 0.1 s grace after the SIGTERM below (the default 2 s is waited in full)
    settings = tmp_path / "settings.toml"
    settings.write_text("[server]\nshutdown_grace_ms = 100\n")
    args = f"--port 0 --http-port off --db {db} --config {settings}"
    proc = subprocess.Popen(
        [*MAKE_SERVE, f"ARGS={args}"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # make and its server: stopped together below
    )
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 30
        listening = None
        while listening is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            if line.startswith("{") and json.loads(line).get("event") == "listening":
                listening = json.loads(line)
        assert listening is not None, "no 'listening' line from make serve"
        assert listening["port"] != 7501 and listening["db"] == str(db)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def _installs(
    tmp_path: Path, target: str, made: tuple[str, ...], changed: tuple[str, ...] = ()
) -> list[str]:
    """The pip commands `make -n TARGET` would run in a clone where ``made`` (the venv's
    interpreter, its stamps) exist already, newer than every pyproject.toml but those
    ``changed`` since: the Makefile's own logic, in a copy of it, nothing installed."""
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "Makefile").write_text((ROOT / "Makefile").read_text())
    for project in ("pyproject.toml", "examples/posled20/pyproject.toml",
                    "examples/perezdacha/pyproject.toml"):  # fmt: skip
        (tmp_path / project).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / project).write_text("")
        os.utime(tmp_path / project, (1_000_000_000, 1_000_000_000))
    for name in made:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    for name in changed:
        os.utime(tmp_path / name, (2e9, 2e9))
    dry = subprocess.run(
        ["make", "-n", target], cwd=tmp_path, capture_output=True, text=True, timeout=30, check=True
    )
    return [line.split(" -m pip ")[1] for line in dry.stdout.splitlines() if " -m pip " in line]


PACKAGE = "install --quiet -e ."
# make test's one install: the package, its test extras and the example plugins at once,
# built with the venv's setuptools, upgraded with pip before it
EVERYTHING = (
    "install --quiet --no-build-isolation -e '.[test]' -e examples/posled20 -e examples/perezdacha"
)
UPGRADE = "install --quiet --upgrade pip setuptools"
VENV = (".venv/bin/python",)


def test_make_serve_installs_the_package_without_the_test_tools(tmp_path: Path) -> None:
    # failed before: `make serve` installed '.[test]' (ruff, mypy, selenium, hypothesis)
    installs = _installs(tmp_path, "serve", VENV)
    assert installs == ["install --quiet --upgrade pip", PACKAGE]  # in pip's own environment


def test_make_test_after_make_serve_installs_the_test_tools(tmp_path: Path) -> None:
    """Either order: `make test` on a clean clone installs all in one pip install (one
    resolve: the package was installed, then again with its extras, then the examples);
    after `make serve`, the same; after both, nothing."""
    fresh = _installs(tmp_path / "fresh", "test", ())
    assert fresh == [UPGRADE, EVERYTHING]
    after_serve = _installs(tmp_path / "served", "test", (*VENV, ".venv/.installed"))
    assert after_serve == [UPGRADE, EVERYTHING]
    both = (*VENV, ".venv/.installed", ".venv/.installed-test")
    assert _installs(tmp_path / "both", "test", both) == []
    assert _installs(tmp_path / "both", "serve", both) == []
    changed = _installs(tmp_path / "changed", "test", both, changed=("pyproject.toml",))
    assert changed == [UPGRADE, EVERYTHING]  # a new dependency: all again
    example = ("examples/posled20/pyproject.toml",)
    assert _installs(tmp_path / "example", "test", both, changed=example) == [UPGRADE, EVERYTHING]


def test_make_serve_after_make_test_installs_nothing(tmp_path: Path) -> None:
    """make test's install is all serve needs: it leaves serve's stamp made too. Run for
    real, with a stand-in for the venv's python that only notes what it was asked."""
    _installs(tmp_path, "test", ())  # the Makefile and the pyproject.toml files
    python = tmp_path / ".venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "asked"}\n')
    python.chmod(0o755)
    subprocess.run(
        ["make", "-s", ".venv/.installed-test"],
        cwd=tmp_path, capture_output=True, timeout=30, check=True,
    )  # fmt: skip
    asked = (tmp_path / "asked").read_text().splitlines()  # as the shell passed them on
    pips = [line for line in asked if not line.startswith("-c ")]  # not the venv's check
    assert pips == [" ".join(["-m", "pip", *shlex.split(i)]) for i in (UPGRADE, EVERYTHING)]
    assert _installs(tmp_path, "serve", ()) == []
