"""What an operator reads in the log (docs/settings.md, "Logs"): the lines a tryout
found missing or noisy, captured from in-process servers (``structlog.testing``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import structlog

from .client import a_whole_match
from .conftest import Connector

Register = Callable[[str, str], Awaitable[None]]


def _events(logs: list[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    return [line for line in logs if line["event"] == event]


async def test_a_match_between_guests_logs_no_rated_line(
    port: int, connect: Connector, register: Register
) -> None:
    """It logged ``"ratings": {}``: a line that says nothing, at every guests' match."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    with structlog.testing.capture_logs() as logs:
        await a_whole_match(ann, bob, "2 short")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")  # (the match's end is logged by now)
    assert len(_events(logs, "match_end")) == 1
    assert _events(logs, "rated") == []


async def test_a_rated_match_logs_its_ratings(
    port: int, connect: Connector, register: Register
) -> None:
    await register("ann", "pw-ann-1")
    await register("bob", "pw-bob-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    bob = await connect.machine(port, "bob", "pw-bob-1")
    with structlog.testing.capture_logs() as logs:
        await a_whole_match(ann, bob, "2 short")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
    [rated] = _events(logs, "rated")
    assert set(rated["ratings"]) == {"ann", "bob"}
