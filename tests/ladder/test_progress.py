"""The ladder's progress: rich's bar on a terminal, a plain line per tenth elsewhere."""

from __future__ import annotations

import io

from deberc_net.ladder.progress import LadderProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_bar_that_ends_full() -> None:
    screen = Terminal()
    progress = LadderProgress(10, screen)
    for done in range(1, 11):
        progress.update(done)
    progress.close()
    shown = screen.getvalue()
    assert "10/10" in shown and "games" in shown and "━" in shown
    assert "ladder: " not in shown  # no plain lines on a terminal


def test_elsewhere_a_line_every_tenth_of_the_way() -> None:
    log = io.StringIO()
    progress = LadderProgress(40, log)
    for done in range(1, 41):
        progress.update(done)
    progress.close()
    lines = log.getvalue().splitlines()
    want = ["1/40"] + [f"{4 * t}/40" for t in range(1, 11)]  # the first game, then tenths
    assert [line.split(" ")[1] for line in lines] == want
    assert all(line.startswith("ladder: ") and line.endswith("/s)") for line in lines)
