"""A rated match's end is written in one of the store writer's groups (one SQLite
transaction, the file's write lock held, every thread's store calls waiting): the rating
model is not loaded inside it. The lobby's writer loads it after its first group,
outside any (StoreWriter's ``ready``: server/ratings.py ``load_rating_model``); loaded
by the end's ``new_ratings``, it held the lock some 6-26 ms more. Watched in a new
interpreter, where the model is not loaded yet."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# the writer's groups watched: was the model loaded while one was open?
WATCH = r"""
import contextlib, functools, sys, trio
from deberc_net.server.ratings import load_rating_model, new_ratings
from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.server.store_writer import StoreWriter

MODEL = "openskill.models"
store = SQLiteStore(sys.argv[1], serving=True)
for name in ("ann", "bob"):
    store.add_account(name, b"salt", b"hash")
loaded_in_a_group = []

@contextlib.contextmanager
def watched():
    before = MODEL in sys.modules
    with store.group():
        yield
    loaded_in_a_group.append(not before and MODEL in sys.modules)

writer = StoreWriter(watched, load_rating_model if sys.argv[2] == "ready" else None)

async def main():
    assert MODEL not in sys.modules
    await writer.run(functools.partial(store.new_match_numbers, 1))  # its first group
    end = functools.partial(
        new_ratings, store, "moscow", ["ann", "bob"], [[0], [1]], ["ann"], [301, 120]
    )
    assert await writer.run(end)  # rated

trio.run(main)
writer.close()
store.close()
print(any(loaded_in_a_group))
"""


@pytest.mark.parametrize(("ready", "loaded_in_a_group"), [("ready", False), ("none", True)])
def test_the_rating_model_is_loaded_outside_the_writers_groups(
    tmp_path: Path, ready: str, loaded_in_a_group: bool
) -> None:
    """With the lobby's ``ready`` the model is loaded outside every group; without it
    (as before), inside the rated end's: the watch sees the difference."""
    done = subprocess.run(
        [sys.executable, "-c", WATCH, str(tmp_path / "r.sqlite3"), ready],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(loaded_in_a_group)]
