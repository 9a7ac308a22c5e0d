"""The terminal client's tests drive the real app through Textual's pilot."""

from __future__ import annotations

import pytest

# Textual's pilot waits after each key till the process looks idle: its CPU time under
# a twentieth of the wall time over a window of 20 ms, at least one window, two where
# the key's handling ran into the first. Some 85 keys make a whole match's test, so that
# was most of its 7 s. The same test of idleness (a twentieth), over 5 ms. Not for the
# tests that read the screen as composed (test_footer.py): the composing, on Textual's
# own timers, had not run yet after the shorter wait.
IDLE_WINDOW_S = 0.005


@pytest.fixture
def quicker_idle_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """For the tests that read the app's state and its panes' text, set as it draws.
    (Textual's own module, not its API: should a release rename these, the tests run
    at its own wait, slower, not fail: raising=False.)"""
    monkeypatch.setattr("textual._wait.SLEEP_GRANULARITY", IDLE_WINDOW_S, raising=False)
    monkeypatch.setattr("textual._wait.SLEEP_IDLE", IDLE_WINDOW_S / 20, raising=False)
