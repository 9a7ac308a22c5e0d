"""A rolling upgrade of ``serve --workers`` (docs/scaling.md, "One worker restarted"):
new code installed, then SIGTERM to one worker's pid; the parent starts it again from
the code installed then, not from what the parent imported at its start (its workers
are forked from it: cluster/forked.py). From then on every start is a fresh
interpreter's, a dead worker's too: the parent's imports may be the old code. Before,
the restarted worker was a fork of the parent's old imports, the upgrade a no-op. A
fresh worker's settings, the database's password with them, are not in its
environment (they were, shown in /proc/PID/environ and inherited by its house bots)."""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest
import trio

import deberc_net

from .workers import SETTINGS, Workers, served_workers, settings_file

# what the new code says as its worker module is run, after the module's imports
NEW_CODE = 'sys.stderr.write(json.dumps({"event": "new_code", "pid": os.getpid()}) + "\\n")\n'
AFTER_IMPORTS = "STDIN = 0"
PASSWORD = "worker-env-s3cret"


def _installed_copy(root: Path) -> Path:
    """The server's package copied under ``root``: the code 'installed' for the test,
    with its bytecode (the suite compiles it at its start): without, the parent compiled
    the whole package again as it started. A module changed after (``_upgrade``) is
    compiled anew, its source's time and size no longer the bytecode's."""
    shutil.copytree(Path(deberc_net.__file__).parent, root / "deberc_net")
    return root


def _upgrade(root: Path) -> None:
    """New code installed: its worker module says so when it runs."""
    module = root / "deberc_net" / "server" / "cluster" / "worker.py"
    source = module.read_text(encoding="utf-8")
    assert AFTER_IMPORTS in source
    module.write_text(source.replace(AFTER_IMPORTS, NEW_CODE + AFTER_IMPORTS, 1), encoding="utf-8")


async def _restarted(workers: Workers, index: int, how: int) -> int:
    """Worker ``index`` signalled ``how``; its successor's pid, once it listens."""
    old = workers.pids[index]
    os.kill(old, how)
    with trio.fail_after(40):
        while workers.pids[index] == old:
            await trio.sleep(0.05)
    return workers.pids[index]


@pytest.mark.timeout(150)
async def test_a_worker_restarted_as_asked_runs_the_code_installed_then_and_so_do_later_ones(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _installed_copy(tmp_path / "installed")
    monkeypatch.setenv("PYTHONPATH", str(root))
    monkeypatch.chdir(tmp_path)  # (python -m imports from its directory first)
    settings = settings_file(tmp_path, SETTINGS.replace("house_bots = true", "house_bots = false"))
    # a password in the address (the test server trusts its superuser: never asked)
    url = postgres_url.replace("@", f":{PASSWORD}@", 1)
    with trio.fail_after(100):
        async with served_workers(url, settings) as workers:
            _upgrade(root)
            rolled = await _restarted(workers, 0, signal.SIGTERM)  # the rolling restart
            died = await _restarted(workers, 1, signal.SIGKILL)  # a death after it
            for pid in (rolled, died):  # fresh interpreters: their settings not in their
                # environment, which /proc shows and their house bots would inherit
                environ = Path(f"/proc/{pid}/environ").read_bytes()
                assert b"DEBERC_NET_WORKER=" not in environ and PASSWORD.encode() not in environ
    said = [e["pid"] for e in workers.events if e.get("event") == "new_code"]
    assert said == [rolled, died], json.dumps(workers.events[-20:])
    stopped = [e["worker"] for e in workers.events if e.get("event") == "worker_stopped"]
    assert stopped == [0]
