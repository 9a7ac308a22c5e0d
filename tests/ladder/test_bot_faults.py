"""A bot's own faults in a ladder (an exception in ``choose``, an answer not legal) are
counted in the report, per bot, with the first one and where it was raised, and said on
the ladder's standard error (docs/bots.md "A bot's faults"). Failed before: the report
was as for a sound bot, and nothing was said. And a ``py:MODULE`` in the current
directory is found, as ``python -m`` finds it (failed before: "cannot import")."""

from __future__ import annotations

from pathlib import Path

from deberc_net.ladder import report

from .helpers import RAND, ladder, summary

BUGGY = """
from clients.client import Brain


def brain(name, seed):
    calls = [0]

    def choose(view):
        calls[0] += 1
        if calls[0] % 5 == 0:
            raise RuntimeError("bug in choose")
        return "nonsense" if calls[0] % 7 == 0 else view.legal[-1]

    return Brain(choose)
"""


def test_a_buggy_bots_faults_are_in_the_report(tmp_path: Path) -> None:
    (tmp_path / "buggy_bot_here.py").write_text(BUGGY, encoding="utf-8")
    args = ("--bot", "bug=py:buggy_bot_here", "--bot", RAND, "--deals", "6", "--seed", "b1")
    done = ladder(tmp_path, *args, "--json")
    data = summary(done)
    assert data["fallbacks"]["bug"] >= data["bot_errors"]["bug"] > 0
    assert "rand" not in data["fallbacks"] and "rand" not in data["first_faults"]
    first = data["first_faults"]["bug"]
    assert first.startswith("choose raised RuntimeError('bug in choose') at buggy_bot_here.py:")
    assert f": {first}; the first legal call was sent instead (a fallback)" in done.stderr
    told = report.text(data)
    assert (
        f"  bug: {data['fallbacks']['bug']} fallbacks, {data['bot_errors']['bug']} exceptions; "
        f"first: {first}"
    ) in told.splitlines(), told
