"""RuleInfo's tuple fields are typed for a plugin author's type checker: a tuple or a
list of player counts or rule names (docs/plugins.md), not a bare string or number,
the tuple's comma forgotten. Their converter was typed Any, so mypy --strict took
anything there (failed before); the loading still refuses it at run time
(test_author_api)."""

from __future__ import annotations

from pathlib import Path

from mypy import api

PLUGIN = """\
from deberc_net.plugins import RuleInfo

fine = RuleInfo("house-a", "option", "a", players=[2, 3], conflicts=("x",), requires=["y"])
players: tuple[int, ...] = fine.players
forgotten = RuleInfo("house-b", "option", "b", conflicts=("to-301"))
one = RuleInfo("house-c", "option", "c", players=2)
names = RuleInfo("house-d", "option", "d", requires=[2])
"""


def test_a_plugins_type_checker_refuses_a_bare_string_or_number(tmp_path: Path) -> None:
    plugin = tmp_path / "house_plugin.py"
    plugin.write_text(PLUGIN, encoding="utf-8")
    config = tmp_path / "mypy.ini"  # none of the project's: a plugin's own check
    config.write_text("[mypy]\n", encoding="utf-8")
    cache = str(tmp_path / "cache")
    out, _, status = api.run(
        ["--strict", "--config-file", str(config), "--cache-dir", cache, str(plugin)]
    )
    flagged = sorted(int(line.split(":")[1]) for line in out.splitlines() if ": error:" in line)
    assert status == 1 and flagged == [5, 6, 7], out
