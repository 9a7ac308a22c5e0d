"""Driving the terminal client's app in tests (textual's Pilot): waiting for a state,
typing a call with its first letter and Tab, as a person completes it, and waiting
after a key till the app has handled it (``settled``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import attrs
from rich.text import Text
from textual.app import App, ScreenStackError
from textual.message_pump import MessagePump
from textual.pilot import Pilot
from textual.widgets import Input

from clients.play.app import PlayApp

WAIT_S = 15.0
SIZE = (80, 24)


@contextlib.asynccontextmanager
async def running(app: PlayApp, size: tuple[int, int] = SIZE) -> AsyncIterator[Pilot[None]]:
    """``app.run_test(size=size)``, its link stopped at the block's end and every line
    it gave handled before the app closes (``links_lines_handled``)."""
    async with app.run_test(size=size) as pilot:
        yield pilot
        await links_lines_handled(pilot, app)


async def links_lines_handled(pilot: Pilot[None], app: PlayApp) -> None:
    """The link stopped (its thread ended: no more lines) and the app has handled each
    line it gave. Textual's run_test closes the screens while the app still takes
    messages (the real app's loop has ended first): a server's line come then (a
    leaver gone 'away') found no screen, ScreenStackError, in 9 of 24 runs under load.
    An app that has exited (quit) takes none: nothing to wait for."""
    if not app.is_running:
        return
    await asyncio.to_thread(app.link.stop)
    # every line the link gave is in the app's queue now: a callback posted after them is
    # handled after them (a count of lines the link gave went below 0 where a test
    # posts WireLines of its own, and could hide a line of the link's still waiting)
    handled = asyncio.Event()
    if app.call_later(handled.set):  # (False: the app already closing, takes none)
        await until(pilot, handled.is_set, "the link's last lines handled")


async def until(pilot: Pilot[None], cond: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not cond():
        if time.monotonic() > deadline:
            app = pilot.app
            assert isinstance(app, PlayApp)
            raise AssertionError(f"no {what} in {WAIT_S} s; log: {app.state.log[-6:]}")
        await pilot.pause(0.02)


@attrs.define
class Pumps:
    """What an app's message pumps (the app, its screens, its widgets) are doing:
    messages posted to them (``MessagePump.post_message``) and handlers running
    (``_dispatch_message``), counted by the wrappers ``posting`` and ``handling`` put in
    their class (tests/play/conftest.py)."""

    posts: int = 0
    handling_now: int = 0

    def posting(self, post: Callable[[MessagePump, Any], bool]) -> Callable[..., bool]:
        def post_message(pump: MessagePump, message: Any) -> bool:
            posted = post(pump, message)
            self.posts += posted  # (a racing post of the link's thread still moves it)
            return posted

        return post_message

    def handling(
        self, dispatch: Callable[[MessagePump, Any], Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        async def dispatch_message(pump: MessagePump, message: Any) -> Any:
            self.handling_now += 1
            try:
                return await dispatch(pump, message)
            finally:
                self.handling_now -= 1

        return dispatch_message


STILL_TURNS = 3  # the loop's turns with nothing posted, queued or handled: settled
BUSY_TURNS = 20  # turns of asyncio.sleep(0) before waiting a millisecond a turn


async def settled(app: App[Any], pumps: Pumps) -> None:
    """Wait until ``app`` has handled every message posted to it and its widgets, and
    what handling them posted, on and on: STILL_TURNS turns of the event loop in a row
    with nothing posted, queued or being handled (a key the driver sends is posted two
    turns on; what is queued at a pump that no longer runs, an app that quit, is not).
    Instead of Textual's wait after each key for the process to look idle over a window
    of wall time (its CPU under a twentieth): two such windows a key were most of a
    typed match's time, and a loaded host's stalls of the process looked idle too.
    Timers and the link's lines (from its thread) are not waited for: the tests wait
    for what they bring (``until``)."""
    deadline = time.monotonic() + WAIT_S
    still, turns, seen = 0, 0, -1
    while still < STILL_TURNS:
        await asyncio.sleep(0 if turns < BUSY_TURNS else 0.001)
        turns += 1
        try:
            here = [app, *app.screen.walk_children(with_self=True)]
        except ScreenStackError:  # (no screen: the app has closed)
            return
        queued = any(pump.message_queue_size and pump.is_running for pump in here)
        if queued or pumps.handling_now or pumps.posts != seen:
            still, seen = 0, pumps.posts
        else:
            still += 1
        assert time.monotonic() < deadline, f"the app did not settle in {WAIT_S} s"


async def enter(pilot: Pilot[None], text: str) -> None:
    """``text`` put in the input box whole (as a paste), then Enter: for a test about
    what the line does, not the typing."""
    pilot.app.query_one("#input", Input).value = text
    await pilot.press("enter")


async def complete_and_send(pilot: Pilot[None], app: PlayApp, said: str, tabs: int = 30) -> str:
    """``said`` typed by its first letter, then Tab until the box holds it (so
    completion is used), then Enter; ``said``."""
    box = app.query_one("#input", Input)
    await pilot.press(said[0])
    for _ in range(tabs):
        if box.value == said:
            break
        await pilot.press("tab")
    assert box.value == said, f"Tab did not complete {said!r}: {box.value!r}"
    await pilot.press("enter")
    return said


def answered(app: PlayApp, seq: int | None) -> Callable[[], bool]:
    """The table moved past request ``seq`` (or the match ended)."""
    return lambda: app.state.seq != seq or app.state.result is not None


def footer_row(app: App[None], up: int = 0) -> str:
    """The screen's last row (``up`` rows above it) as drawn: each column's character
    from the footer key on top there (one docked over another hides it), a blank
    between keys and past them."""
    keys = list(app.query("FooterKey"))
    width, height = app.size
    row = []
    for x in range(width):
        widget, region = app.screen.get_widget_at(x, height - 1 - up)
        drawn = widget.render() if widget in keys else None
        text = drawn.plain if isinstance(drawn, Text) else ""
        row.append(text[x - region.x] if 0 <= x - region.x < len(text) else " ")
    return "".join(row)
