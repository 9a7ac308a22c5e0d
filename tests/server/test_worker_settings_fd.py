"""How a fresh worker of 'serve --workers' gets its settings (cluster/forked.py
``spawn_worker``, worker.py ``told_by_the_parent``): on a descriptor of a file of no
name, ``--settings-fd N``, not in its environment (which /proc showed, the database's
password with it, and its house bots inherited). A real cluster's spawned workers:
tests/store/test_workers_rolling_upgrade.py."""

from __future__ import annotations

import io
import json
import os
from typing import Any

import pytest

from deberc_net.server.cluster import forked, worker
from deberc_net.server.cluster.forked import ENV, SETTINGS_FD

CONFIG = {"db": "postgresql://deberc:s3cret@db/deberc"}
TOLD: dict[str, Any] = {"config": CONFIG, "index": 1, "count": 2}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("memfd", [True, False])
def test_the_settings_are_read_whole_from_the_descriptor_which_is_closed_then(
    memfd: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not memfd:  # (a system without memfd_create: a temporary file unlinked at once)
        monkeypatch.delattr(os, "memfd_create", raising=False)
    big = {**TOLD, "config": {**CONFIG, "trusted_proxies": ["10.0.0.1"] * 20_000}}
    data = json.dumps(big).encode()
    assert len(data) > 128 * 1024  # (more than a pipe holds: nothing waits on the reader)
    fd = forked.unnamed_settings_file(data)
    assert not os.get_inheritable(fd)  # (no other child gets it: pass_fds gives it)
    assert worker.told_by_the_parent([SETTINGS_FD, str(fd)]) == big
    with pytest.raises(OSError):
        os.fstat(fd)


@pytest.mark.timeout(30)
def test_a_parent_of_an_earlier_version_puts_them_in_the_environment_dropped_once_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENV, json.dumps(TOLD))
    assert worker.told_by_the_parent([]) == TOLD
    assert ENV not in os.environ  # (a house bot it starts inherits nothing)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ([], "failed no settings: --settings-fd N not given"),
        ([SETTINGS_FD, "999"], "failed cannot read its settings from descriptor 999: "),
        (["--settings", "x"], "failed unknown arguments '--settings x'"),
    ],
)
def test_settings_it_cannot_read_stop_the_worker_said_to_the_parent(
    argv: list[str], said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert worker.fresh_worker_main(argv) == 2  # (as a worker that cannot start says it: launch.py)
    assert out.getvalue().startswith(said) and out.getvalue().count("\n") == 1, out.getvalue()


@pytest.mark.timeout(30)
@pytest.mark.parametrize(("data", "said"), [(b"{not json", "are not JSON"), (b"[1]", "not a JSON")])
def test_settings_not_a_json_object_are_refused(data: bytes, said: str) -> None:
    fd = forked.unnamed_settings_file(data)
    with pytest.raises(ValueError, match=said):
        worker.told_by_the_parent([SETTINGS_FD, str(fd)])
