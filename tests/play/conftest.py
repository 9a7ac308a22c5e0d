"""The terminal client's tests drive the real app through Textual's pilot."""

from __future__ import annotations

import pytest
from textual.message_pump import MessagePump

from .pilot import Pumps, settled

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


@pytest.fixture
def settled_keys(monkeypatch: pytest.MonkeyPatch, quicker_idle_wait: None) -> None:
    """After each key the pilot sends, wait until the app has handled it and what it
    set off (pilot.py's ``settled``), not for the process to look idle: Textual's
    ``App._press_keys`` waits so twice a key, by the name its module imported. The
    pilot's own ``pause()`` keeps the shorter idle wait. (Textual's module, not its
    API: raising=False, as above.)"""
    from textual._context import active_app

    dispatch = getattr(MessagePump, "_dispatch_message", None)
    if dispatch is None:  # (renamed: the shorter idle wait after each key, as above)
        return
    pumps = Pumps()
    monkeypatch.setattr(MessagePump, "post_message", pumps.posting(MessagePump.post_message))
    monkeypatch.setattr(MessagePump, "_dispatch_message", pumps.handling(dispatch))

    async def settle(*_: float) -> None:
        await settled(active_app.get(), pumps)

    monkeypatch.setattr("textual.app.wait_for_idle", settle, raising=False)
