"""``pytest --cpu-report``: where the suite's CPU goes, per test file (issue #8).

The suite is CPU-bound on two cores, so its time is the CPU it spends: a test's own
(``time.process_time``, its xdist worker's) and that of the processes it started and
waited for (servers, bots, ladders: ``RUSAGE_CHILDREN``). For each test, from its
set-up to its teardown, both go on the teardown's report, which xdist carries to the
controller; the run's end prints the costliest files and tests. A process nobody waits
for (PostgreSQL, which pg_ctl detaches) is not counted, nor is collection: the whole
run's CPU is ``/usr/bin/time``'s to give. What a session-scoped fixture's teardown
waits for is counted apart, "session fixtures' teardown", not as the test whose
teardown ends the session: Chromium (the web tests' browser, its whole run's CPU,
reaped then) was put on whichever test a process ran last (test_winners.py's, 16.9 s).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Generator

import pytest

KEY = "cpu_s"  # the report's user property: (own, children) CPU seconds
SESSION_KEY = "cpu_s_session"  # of those, the session-scoped fixtures' teardown's
SHOWN = 25  # files, then tests, in the summary


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    parser.addoption(
        "--cpu-report",
        action="store_true",
        help="print the CPU of each test file and the costliest tests, their own and "
        "their child processes' (tests/cpu_report.py)",
    )
    pluginmanager.register(FixtureTeardowns(), "cpu_report_fixture_teardowns")


def _cpu() -> tuple[float, float]:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), children.ru_utime + children.ru_stime


_started: dict[str, tuple[float, float]] = {}  # a test's nodeid: its CPU at set-up
_spent: dict[str, tuple[float, float]] = {}  # the controller's (or one process's) tally
# a teardown's CPU when it began or its last fixture was finished, and what the
# session-scoped fixtures' finalizers spent of it (the test's share is the rest)
_teardown_mark: list[tuple[float, float]] = []
_pending_session: list[tuple[float, float]] = []  # this teardown's session fixtures'
_session_teardown: dict[str, tuple[float, float]] = {}  # the tally, by the test's nodeid


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    if not item.config.getoption("cpu_report"):
        return (yield)
    _teardown_mark[:] = [_cpu()]
    try:
        return (yield)
    finally:
        _teardown_mark.clear()


class FixtureTeardowns:
    """A plugin of its own, not a conftest's hook: pytest calls a session-scoped
    fixture's post-finalizer hook with the session's hooks, which a conftest below the
    root directory is not among."""

    def pytest_fixture_post_finalizer(self, fixturedef: pytest.FixtureDef[object]) -> None:
        """A fixture finished during a test's teardown: if session-scoped, what it spent
        since the teardown's start or the fixture before goes apart from the test's."""
        if not _teardown_mark:
            return
        now, (own, children) = _cpu(), _teardown_mark[0]
        if fixturedef.scope == "session":
            _pending_session.append((now[0] - own, now[1] - children))
        _teardown_mark[0] = now


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
        apart = (sum(x for x, _ in _pending_session), sum(y for _, y in _pending_session))
        if _pending_session:  # not the test's: the session's fixtures'
            report.user_properties.append((SESSION_KEY, apart))
            _pending_session.clear()
        own, children = own + apart[0], children + apart[1]
        report.user_properties.append((KEY, (now_own - own, now_children - children)))
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    for key, value in report.user_properties:
        if key in (KEY, SESSION_KEY):  # a tuple, or a list once xdist has carried it
            assert isinstance(value, (tuple, list))
            own, children = value
            tally = _spent if key == KEY else _session_teardown
            tally[report.nodeid] = (float(own), float(children))


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
    if _session_teardown:  # (each process's last teardown finishes the session's fixtures)
        own = sum(own for own, _ in _session_teardown.values())
        children = sum(children for _, children in _session_teardown.values())
        write(f"{own:7.1f} {children:7.1f}        session fixtures' teardown (not a test's)")
    by_cost = sorted(files.items(), key=lambda item: -item[1][1] - item[1][2])
    for name, (count, own, children) in by_cost[:SHOWN]:
        write(f"{own:7.1f} {children:7.1f} {count:5}  {name}")
    write("")
    for nodeid, (own, children) in sorted(_spent.items(), key=lambda t: -sum(t[1]))[:SHOWN]:
        write(f"{own:7.1f} {children:7.1f}        {nodeid}")
