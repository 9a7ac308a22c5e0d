"""A rule plugin that starts a thread at its import: the parent of ``serve --workers``
loads the rules (its workers are forked with them), so it runs that thread, and a fork
would copy the thread's locks as they stand. It forks no worker then: each is a fresh
interpreter (cluster/forked.py ``spawn_worker``), the parent says why once
(``workers_not_forked``, the threads' names) and each ``worker_started`` line says
``how=exec why=threads``. Before, ``serve`` refused to start at all: its workers'
first fork raised, said as ``cannot fork a worker``, status 2."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from .served_to import plugin_on_the_path, restarted
from .workers import SETTINGS, served_workers, settings_file

THREADED = """
import threading
from deberc_net.plugins import RuleInfo, hookimpl

threading.Thread(target=threading.Event().wait, name="threaded-plugin-timer", daemon=True).start()

@hookimpl
def deberc_rule_info():
    return RuleInfo(name="threaded", kind="option", summary="Starts a thread at import.")

@hookimpl
def deberc_configure(settings, players):
    pass
"""


@pytest.mark.timeout(150)
async def test_a_plugins_thread_makes_every_worker_a_fresh_interpreter_said_once(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin_on_the_path(tmp_path, monkeypatch, "threaded", THREADED)
    settings = settings_file(tmp_path, SETTINGS.replace("house_bots = true", "house_bots = false"))
    with open(os.devnull, "wb") as devnull, trio.fail_after(110):
        async with served_workers(postgres_url, settings, stdout=devnull.fileno()) as workers:
            for index in (0, 1):  # each serves, with the plugin's rules
                client = await workers.connect(index, f"threaded{index}")
                await client.send("new 2 threaded")
                await client.expect("ok", cmd="sit", timeout=30)
                await client.aclose()
            await restarted(workers, 1, signal.SIGKILL)  # a dead one too
    said = [e for e in workers.events if e.get("event") == "workers_not_forked"]
    assert len(said) == 1 and said[0]["level"] == "warning", said
    assert said[0]["threads"] >= 1 and "threaded-plugin-timer" in said[0]["names"]
    started = [
        (e["worker"], e.get("how"), e.get("why"))
        for e in workers.events
        if e.get("event") == "worker_started"
    ]
    assert sorted(started) == [(0, "exec", "threads")] + [(1, "exec", "threads")] * 2
