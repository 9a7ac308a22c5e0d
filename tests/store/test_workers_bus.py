"""The bus of ``serve --workers`` (docs/scaling.md) on a real PostgreSQL: a busy worker,
with more than 1024 descriptors open, still hears the others."""

from __future__ import annotations

import os
import resource
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY, Bus

ABOVE = 1100  # descriptors: past select()'s FD_SETSIZE (1024)


@contextmanager
def _descriptors_held(count: int) -> Iterator[None]:
    """``count`` descriptors of this process open (the soft limit raised for them if
    the hard one allows), so the next ones opened are numbered past them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 64
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"RLIMIT_NOFILE's hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    held: list[int] = []
    try:
        while len(held) < count:
            held.append(os.open(os.devnull, os.O_RDONLY))
        yield
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def _until(heard: list[dict[str, Any]], kind: str, take_in: Bus | None = None) -> None:
    with trio.fail_after(10):
        while not any(m["k"] == kind for m in heard):
            if take_in is not None:
                take_in.take_in()
            await trio.sleep(0.01)


async def test_a_worker_with_more_than_1024_descriptors_open_still_hears_the_bus(
    postgres_url: str,
) -> None:
    # take_in (what a worker that judges the others silent reads first) used select(),
    # which refuses a descriptor numbered 1024 or more: ValueError (failed before)
    heard: list[dict[str, Any]] = []
    with _descriptors_held(ABOVE):
        busy = Bus(postgres_url, 1, heard.append)
        busy.open()
        other = Bus(postgres_url, 2, lambda _: None)
        other.open()
        try:
            assert busy._listener is not None and busy._listener.pgconn.socket > 1024
            with trio.fail_after(30):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(other.run)
                    listening = trio.CancelScope()

                    async def listen() -> None:
                        with listening:
                            await busy.run()

                    nursery.start_soon(listen)
                    other.publish(LOBBY, {"k": "hello"})
                    await _until(heard, "hello")  # heard by its listening task
                    listening.cancel()  # taken in at once, as a worker judging others does
                    other.publish(LOBBY, {"k": "tables"})
                    await _until(heard, "tables", take_in=busy)
                    nursery.cancel_scope.cancel()
        finally:
            busy.close()
            other.close()
