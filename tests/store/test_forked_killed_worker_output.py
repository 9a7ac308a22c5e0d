"""A worker of ``serve --workers`` killed (a crash, SIGKILL) right after it printed and
logged: its print reaches the parent's stdout and its log line the log, whether it was
forked from the parent or started as a fresh interpreter (after a rolling restart).
Before, its stdout (a pipe) was block-buffered: what a plugin printed waited there, and
was lost with the worker. And each worker's ``worker_started`` line says which way it
was started, and why a fresh interpreter (cluster/launch.py, docs/scaling.md)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
import trio

from .served_to import plugin_on_the_path, restarted
from .workers import SETTINGS, Workers, served_workers, settings_file

# a plugin whose configure prints (no flush), logs, and kills its own process
DYING = """
import os, signal
import structlog
from deberc_net.plugins import RuleInfo, hookimpl

@hookimpl
def deberc_rule_info():
    return RuleInfo(name="dying", kind="option", summary="Kills its worker.")

@hookimpl
def deberc_configure(settings, players):
    print(f"last words of {os.getpid()}")
    structlog.get_logger("plugin").warning("about_to_die", pid=os.getpid())
    os.kill(os.getpid(), signal.SIGKILL)
"""


async def _read_all(fd: int, into: bytearray) -> None:
    async with trio.lowlevel.FdStream(fd) as stream:
        while chunk := await stream.receive_some():
            into += chunk


async def _killed_by_its_plugin(workers: Workers, index: int) -> int:
    """A table of the dying option opened on worker ``index``: its pid, once dead."""
    pid = workers.pids[index]
    client = await workers.connect(index, f"dying{index}")
    await client.send("new 2 dying")
    with trio.fail_after(20):
        while not any(
            e.get("event") == "worker_died" and e.get("pid") == pid for e in workers.events
        ):
            await trio.sleep(0.05)
    await client.aclose()
    return pid


def _started(events: list[dict[str, Any]]) -> list[tuple[int, str, str | None]]:
    return [
        (e["worker"], e.get("how", "?"), e.get("why"))
        for e in events
        if e.get("event") == "worker_started"
    ]


@pytest.mark.timeout(150)
async def test_a_killed_workers_print_and_log_line_reach_the_parent_forked_or_not(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin_on_the_path(tmp_path, monkeypatch, "dying", DYING)
    # (as a server is run: an exec'd worker's stdout, a pipe, then block-buffered)
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    settings = settings_file(tmp_path, SETTINGS.replace("house_bots = true", "house_bots = false"))
    read_end, write_end = os.pipe()
    out = bytearray()
    with trio.fail_after(110):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_read_all, read_end, out)
            async with served_workers(postgres_url, settings, stdout=write_end) as workers:
                os.close(write_end)
                forked = await _killed_by_its_plugin(workers, 0)
                await restarted(workers, 1, signal.SIGTERM)  # a rolling restart: exec'd
                spawned = await _killed_by_its_plugin(workers, 1)
                with trio.fail_after(30):  # (each started again: the exec'd one too)
                    while len(_started(workers.events)) < 5:
                        await trio.sleep(0.05)
    lines = out.decode().splitlines()
    for pid in (forked, spawned):
        assert f"last words of {pid}" in lines, (lines, forked, spawned)
        logged = [e for e in workers.events if e.get("event") == "about_to_die"]
        assert any(e["pid"] == pid for e in logged), logged
    started = _started(workers.events)
    assert [how for index, *how in started if index == 0] == [
        ["fork", None],
        ["fork", None],  # dead: forked again
    ]
    assert [how for index, *how in started if index == 1] == [
        ["fork", None],
        ["exec", "stopped-as-asked"],  # stopped as asked: the code installed may be newer
        ["exec", "stopped-as-asked"],  # and every start after it, a dead one's too
    ]
