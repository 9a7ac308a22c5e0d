"""``pytest --cpu-report``: where the suite's CPU goes, per test file (issue #8).

The suite is CPU-bound on two cores, so its time is the CPU it spends: a test's own
(``time.process_time``, its xdist worker's) and that of the processes it started and
waited for (servers, bots, ladders: ``RUSAGE_CHILDREN``). For each test, from its
set-up to its teardown, both go on the teardown's report, which xdist carries to the
controller; the run's end prints the costliest files and tests. A process nobody waits
for (PostgreSQL, which pg_ctl detaches; Chromium until the session's end) is not
counted, nor is collection: the whole run's CPU is ``/usr/bin/time``'s to give.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Generator

import pytest

KEY = "cpu_s"  # the report's user property: (own, children) CPU seconds
SHOWN = 25  # files, then tests, in the summary


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--cpu-report",
        action="store_true",
        help="print the CPU of each test file and the costliest tests, their own and "
        "their child processes' (tests/cpu_report.py)",
    )


def _cpu() -> tuple[float, float]:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), children.ru_utime + children.ru_stime


_started: dict[str, tuple[float, float]] = {}  # a test's nodeid: its CPU at set-up
_spent: dict[str, tuple[float, float]] = {}  # the controller's (or one process's) tally


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.config.getoption("cpu_report"):
        _started[item.nodeid] = _cpu()  # before its fixtures are set up


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if call.when == "teardown" and item.nodeid in _started:
        own, children = _started.pop(item.nodeid)
        now_own, now_children = _cpu()
        report.user_properties.append((KEY, (now_own - own, now_children - children)))
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    for key, value in report.user_properties:
        if key == KEY:  # a tuple, or a list once xdist has carried it
            assert isinstance(value, (tuple, list))
            own, children = value
            _spent[report.nodeid] = (float(own), float(children))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _spent:
        return
    files: dict[str, tuple[int, float, float]] = {}
    for nodeid, (own, children) in _spent.items():
        count, file_own, file_children = files.get(nodeid.split("::")[0], (0, 0.0, 0.0))
        files[nodeid.split("::")[0]] = (count + 1, file_own + own, file_children + children)
    write = terminalreporter.write_line
    terminalreporter.section("CPU seconds: own (the test's process), children (waited for)")
    own_all = sum(own for own, _ in _spent.values())
    children_all = sum(children for _, children in _spent.values())
    write(f"{own_all:7.1f} {children_all:7.1f} {len(_spent):5}  all tests")
    by_cost = sorted(files.items(), key=lambda item: -item[1][1] - item[1][2])
    for name, (count, own, children) in by_cost[:SHOWN]:
        write(f"{own:7.1f} {children:7.1f} {count:5}  {name}")
    write("")
    for nodeid, (own, children) in sorted(_spent.items(), key=lambda t: -sum(t[1]))[:SHOWN]:
        write(f"{own:7.1f} {children:7.1f}        {nodeid}")
