"""A bot process and what it starts are one copy (supervisor.py): a wrapper script's
own children are stopped with it when the ladder ends (docs/bots.md "Bots")."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from .helpers import RAND, ladder, script, summary

# a bot behind a wrapper: it starts a child of its own that ignores SIGTERM (a helper
# process, a shell's pipeline), then becomes the random bot
WRAPPER = """
import os, subprocess, sys
child = subprocess.Popen(
    [sys.executable, "-c",
     "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
)
with open({pids!r}, "a") as out:
    out.write(f"{{child.pid}}\\n")
os.execv(sys.executable, [sys.executable, "-m", "clients.random_bot", *sys.argv[1:]])
"""


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_wrapped_bots_own_child_is_stopped_with_it(tmp_path: Path) -> None:
    """Failed before: the ladder stopped the bot process alone, and its child (ignoring
    SIGTERM) lived on after the ladder had ended."""
    pids = tmp_path / "children"
    wrapped = script(tmp_path, "wrapped", WRAPPER.format(pids=str(pids)))
    children: list[int] = []
    try:
        args = ("--bot", wrapped, "--bot", RAND, "--deals", "1", "--concurrency", "1")
        data = summary(ladder(tmp_path, *args, "--seed", "g1", "--json"))
        assert data["games"] == 2
        children = [int(line) for line in pids.read_text().split()]
        assert children
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in children if _alive(pid)]
    finally:
        for pid in children:  # what this test started, if the ladder left it
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
