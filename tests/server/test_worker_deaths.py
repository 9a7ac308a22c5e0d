"""A worker that dies again and again before it serves (``serve --workers`` with its
database away: server/cluster/deaths.py): one ``worker_died`` warning, the deaths after
it counted and said again at most once a minute, summed up when a worker serves in its
place or the server stops (before: a ``worker_died`` warning each, about one a second
a worker for the whole outage). The real outage: tests/store/test_workers_database_away.py."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

import structlog.testing

from deberc_net.server.cluster.deaths import SAID_AGAIN_S, Deaths

LOST = "its database connection failed: connection refused"


def _said(logs: list[MutableMapping[str, Any]]) -> list[tuple[str, str, int | None]]:
    return [(e["event"], e["log_level"], e.get("deaths")) for e in logs]


def test_an_outage_is_one_warning_a_reminder_a_minute_and_a_summary() -> None:
    deaths = Deaths()
    with structlog.testing.capture_logs() as logs:
        for second in range(150):  # a death a second for 150 s: worker 0, then worker 1
            deaths.died(0, 100 + second, 2, LOST, float(second))
            deaths.died(1, 500 + second, 2, LOST, second + 0.5)
        deaths.serving(0, 150.0)
        deaths.serving(1, 151.0)
    said = _said(logs)
    assert said == [
        ("worker_died", "warning", None),
        ("worker_died", "warning", None),
        ("worker_died_again", "warning", 61),  # worker 0, 60 s after its first
        ("worker_died_again", "warning", 61),
        ("worker_died_again", "warning", 121),
        ("worker_died_again", "warning", 121),
        ("worker_deaths_ended", "info", 150),
        ("worker_deaths_ended", "info", 150),
    ], said
    first, again, ended = logs[0], logs[2], logs[6]
    assert first == {
        "event": "worker_died", "log_level": "warning",
        "worker": 0, "pid": 100, "status": 2, "reason": LOST,
    }  # fmt: skip
    assert (again["worker"], again["pid"], again["seconds"], again["reason"]) == (
        0, 160, SAID_AGAIN_S, LOST,
    )  # fmt: skip
    assert (ended["worker"], ended["seconds"], ended["how"]) == (0, 150, "serving")


def test_a_single_death_is_said_once_and_a_later_one_again() -> None:
    # a worker killed, started again and serving: nothing to sum up; killed again
    # after it served, a death of its own, said
    deaths = Deaths()
    with structlog.testing.capture_logs() as logs:
        deaths.died(1, 10, -9, None, 0.0)
        deaths.serving(1, 1.0)
        deaths.died(1, 11, -9, None, 2.0)
        deaths.serving(0, 2.5)  # (another worker, that never died)
    assert _said(logs) == [("worker_died", "warning", None)] * 2


def test_deaths_still_on_as_the_server_stops_are_summed_up() -> None:
    deaths = Deaths()
    with structlog.testing.capture_logs() as logs:
        for second in range(5):
            deaths.died(1, 10 + second, 2, LOST, float(second))
        deaths.died(0, 99, -11, None, 4.0)
        deaths.stopped(9.0)
    assert _said(logs) == [
        ("worker_died", "warning", None),
        ("worker_died", "warning", None),
        ("worker_deaths_ended", "info", 5),
    ]
    assert (logs[-1]["worker"], logs[-1]["seconds"], logs[-1]["how"]) == (1, 9, "stopped")
