"""A rule plugin's distribution as an installed one looks to ``importlib.metadata``: a
``NAME-0.0.1.dist-info`` folder (METADATA, entry_points.txt) in a folder put on the
path, never installed into the environment (tests of plugin loading)."""

from __future__ import annotations

from pathlib import Path


def write_distribution(root: Path, name: str, entry_points: str) -> None:
    """Distribution ``name`` (version 0.0.1) in ``root``, its entry points as given (an
    ``entry_points.txt``'s text: ``[deberc_net]`` and ``rule = module`` lines)."""
    info = root / f"{name.replace('-', '_')}-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
