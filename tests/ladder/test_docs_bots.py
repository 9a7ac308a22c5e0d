"""docs/bots.md's examples of a bot's own command line, copied as they stand and played
in a ladder: `bot_arguments` with `run_bot`, and a module's `brain` run as a command
with `run_brain` and in the ladder's process as `py:MODULE` (the raw bot and the first
library bot have tests of their own: tests/clients/test_raw_bot_doc.py,
tests/clients/test_library_bot_doc.py). `run_brain` feeds the brain's `on_event`, as
`run_bot` cannot (it takes `choose` and `pick` only): failed before, there was no
`run_brain`, and a bot that remembers the deal had to build its `Bot` field by field."""

from __future__ import annotations

import textwrap
from pathlib import Path

from .helpers import ladder, script, summary

ROOT = Path(__file__).resolve().parents[2]


def command_line_examples() -> list[str]:
    """The Python blocks of the page's "Your own command line" item, dedented."""
    doc = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    item = doc.split("- **Your own command line**", 1)[1].split("\n- **", 1)[0]
    blocks = [part.split("  ```", 1)[0] for part in item.split("  ```python\n")[1:]]
    return [textwrap.dedent(block) for block in blocks]


# choose answers nonsense (a fallback) unless on_event was fed the match's start
NEEDS_EVENTS = """
from clients.client import Brain, bot_arguments, run_brain


def brain(name, seed):
    started = []

    def on_event(line):
        if getattr(line, "kind", None) == "start":
            started.append(line)

    return Brain(lambda view: view.legal[-1] if started else "nonsense", on_event=on_event)


run_brain(brain, bot_arguments("needs its events").parse_args())
"""


def test_the_docs_command_line_bots_play_a_ladder(tmp_path: Path) -> None:
    greedy, counting = command_line_examples()
    assert "run_bot(" in greedy and "run_brain(brain" in counting
    (tmp_path / "counting_bot.py").write_text(counting, encoding="utf-8")
    bots = (
        script(tmp_path, "greedy", greedy),
        f"counting={script(tmp_path, 'counting_bot', counting).split('=', 1)[1]}",
        "inproc=py:counting_bot",
        script(tmp_path, "events", NEEDS_EVENTS),
    )
    args = [arg for bot in bots for arg in ("--bot", bot)]
    done = ladder(tmp_path, *args, "--deals", "2", "--seed", "d1", "--json")
    data = summary(done)
    assert data["games"] == 6 * 2 * 2  # every pair of the four, both seatings
    assert data["crashes"] == {} and data["forfeits"] == {}, data
    assert not any(data["fallbacks"].values()) and not any(data["bot_errors"].values()), data
    # the command and the in-process copy of one module play alike
    (pair,) = [p for p in data["pairs"] if {p["a"], p["b"]} == {"counting", "inproc"}]
    assert pair["points_per_deal"] == 0.0, pair
