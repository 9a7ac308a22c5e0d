"""`выход` (or any spoken word for `quit`, docs/protocol.md §4) typed in the terminal
client ends it as `quit` does: the server says bye and the link ends, not waiting for
Ctrl+R as after a goodbye the player did not ask for."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from clients.play.link import Link
from tests.play.server import ServerThread


@pytest.mark.timeout(60)
@pytest.mark.parametrize("word", ["quit", "выход", "Вийти"])
def test_a_spoken_quit_ends_the_link_as_quit_does(tmp_path: Path, word: str) -> None:
    """The link read only the Latin 'quit' as the player's own: after 'выход' the
    server's bye left it told goodbye unasked (the app still open, Ctrl+R to connect)."""
    said: list[str] = []
    logged_in = threading.Event()

    def deliver(line: str) -> None:
        said.append(line)
        if line.startswith("ok cmd=login name=roman"):
            logged_in.set()

    with ServerThread(tmp_path / "db.sqlite3") as server:
        link = Link("127.0.0.1", server.port, deliver, name="roman")
        link.start()
        try:
            assert logged_in.wait(20), said
            assert link.send(word)
            assert link.closed.wait(20), said  # the link ended: nothing left to try
            assert link.quitting
        finally:
            link.stop()
        assert not server.errors, server.errors
    assert any(line.startswith("bye") for line in said), said
