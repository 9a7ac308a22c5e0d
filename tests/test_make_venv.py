"""`make serve` and `make test` make `.venv` whole or not at all (a README tryout, s45):
a Debian Python without `python3-venv` made `.venv/bin/python` and then failed at
ensurepip, and README's cure, `apt-get install python3-venv` and `make serve` again,
found that half-made `.venv` and ran its pip, which it has not (`No module named pip`),
every time; a Python older than 3.11 made one too, pip refusing the package after a
minute of installing, and so again with the right `PYTHON=` given, `.venv` being there.

The Makefile runs in a scratch directory with a stand-in Python: a shell script that
answers the version check as the Python it plays does and makes `.venv` as Debian's
venv does without ensurepip."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def python_like(tmp_path: Path, *, old: bool) -> Path:
    """A stand-in `PYTHON`: 3.10 (``old``) refuses the version check; else it passes
    it, and its `-m venv DIR` makes DIR/bin/python, then fails at ensurepip."""
    fake = tmp_path / "python3"
    fake.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = -V ]; then echo "Python {"3.10.13" if old else "3.11.2"}"; exit 0; fi\n'
        f'if [ "$1" = -c ]; then exit {1 if old else 0}; fi\n'
        'mkdir -p "$3/bin" && ln -s ' + sys.executable + ' "$3/bin/python"\n'
        "echo 'The virtual environment was not created successfully because ensurepip is"
        " not available.'\n"
        "exit 1\n"
    )
    fake.chmod(0o755)
    return fake


def make(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    for project in ("", "examples/posled20/", "examples/perezdacha/"):  # the stamps' sources
        (tmp_path / project).mkdir(parents=True, exist_ok=True)
        (tmp_path / project / "pyproject.toml").touch()
    return subprocess.run(
        ["make", "-f", str(ROOT / "Makefile"), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_venv_failed_half_way_is_removed_so_the_next_run_makes_it_again(
    tmp_path: Path,
) -> None:
    made = make(tmp_path, ".venv/.installed", f"PYTHON={python_like(tmp_path, old=False)}")
    assert made.returncode != 0
    assert "ensurepip is not available" in made.stdout
    assert not (tmp_path / ".venv").exists()  # so the next make makes it from the start
    assert "pip install" not in made.stdout + made.stderr


def test_a_python_older_than_3_11_is_refused_before_any_venv(tmp_path: Path) -> None:
    made = make(tmp_path, "serve", f"PYTHON={python_like(tmp_path, old=True)}")
    assert made.returncode != 0
    said = made.stdout + made.stderr
    assert "needs Python 3.11 or newer" in said and "Python 3.10.13" in said, said
    assert "PYTHON=python3.11" in said
    assert not (tmp_path / ".venv").exists()


def test_a_venv_of_another_python_or_without_pip_is_named_not_installed_into(
    tmp_path: Path,
) -> None:
    """A .venv left by a make of before (or made by hand) that cannot install: said in
    one line with the cure, not pip's error at each run."""
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python_like(bin_dir, old=True).rename(bin_dir / "python")
    for target in (".venv/.installed", ".venv/.installed-test"):
        made = make(tmp_path, target)
        said = made.stdout + made.stderr
        assert made.returncode != 0
        assert "make clean" in said and "pip install" not in said, said
