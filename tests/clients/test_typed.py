"""The client library says it is typed (PEP 561), as deberc_net does: a bot author's
`mypy --strict my_bot.py` against the installed package refused every import from
clients ("module is installed, but missing library stubs or py.typed marker") and took
what they return as Any (failed before)."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path


def test_the_client_library_ships_py_typed() -> None:
    assert resources.files("clients").joinpath("py.typed").is_file()
    pyproject = tomllib.loads(
        (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    )
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["clients"]
