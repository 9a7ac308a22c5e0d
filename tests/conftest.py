"""Settings for the whole suite (loaded before any test module is imported)."""

from __future__ import annotations

import compileall
import gc
import importlib
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import structlog
from hypothesis import settings

import tests.properties  # noqa: F401  (registers the profiles)
from deberc_net.server import logs
from tests.abandoned_runs import close_abandoned_run
from tests.cpu_report import (  # noqa: F401  (pytest --cpu-report: its hooks)
    pytest_addoption,
    pytest_runtest_logreport,
    pytest_runtest_makereport,
    pytest_runtest_setup,
    pytest_runtest_teardown,
    pytest_terminal_summary,
)

# property tests draw a share of their written counts (tests/properties.py) unless a run
# asks for another profile: ``--hypothesis-profile=long``, loaded after this
settings.load_profile("suite")

# what the tests' servers log, where nothing captures it: structlog's default console
# lines, but a failure's traceback plain, as the server's own set-up writes it
# (server/logs.py: format_exc_info). The default draws it with rich, every frame's
# locals with it: a table's, and through its lobby the whole server's object graph,
# which took over a minute inside one log.exception (the server's thread stopped).
structlog.configure(
    processors=[
        *structlog.get_config()["processors"][:-1],
        structlog.dev.ConsoleRenderer(exception_formatter=structlog.dev.plain_traceback),
    ]
)

# Ctrl-C reaches the processes the tests start, as at a terminal: a run started in the
# background (`make test &`, nohup, a CI runner's shell without job control) inherits
# SIGINT ignored, which every process it starts would keep (Python then installs no
# KeyboardInterrupt), and the tests of what Ctrl-C does (tests/ladder/test_interrupted.py)
# would wait for a process that never heard it. A handler is reset to the default at exec.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# what a password costs in the tests' own process (servers the tests start as processes
# keep the production cost): scrypt at n=2**14 takes some 60 ms of CPU, and the suite
# logs in with a password about 70 times to test accounts, not scrypt
TEST_SCRYPT_N = 2**8

# the run's seed for the random deals of the tests' servers (--deal-seed), to replay one
pytest_plugins = ("tests.deal_seeds",)

if TYPE_CHECKING:
    from tests.store.postgres_server import RunServer

RUN_POSTGRES: pytest.StashKey[RunServer] = pytest.StashKey()
# the tests with a PostgreSQL server; resolved, as the run's paths are below (a tree seen
# through a symlink would otherwise never hold them, and each worker start its own)
STORE_TESTS = (Path(__file__).parent / "store").resolve()


def _runs_store_tests(config: pytest.Config) -> bool:
    """Whether the run's paths take in tests/store (or a part of it), to run it (a run
    that only collects needs no server)."""
    if config.option.collectonly:
        return False
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if path.is_relative_to(STORE_TESTS) or STORE_TESTS.is_relative_to(path):
            return True
    return False


@pytest.hookimpl(trylast=True)  # after the tmp_path plugin's: the run's base directory
def pytest_configure(config: pytest.Config) -> None:
    controller = config.getoption("numprocesses", None) and not hasattr(config, "workerinput")
    if controller and _runs_store_tests(config):
        # One PostgreSQL server for the whole run, not one a worker (each a data directory
        # copied and a server started): the controller starts it in a thread while the
        # workers start and collect, they attach to it (tests/store/conftest.py), and it
        # stops it at the run's end (its watchdog, if the controller dies).
        from tests.store.postgres_server import start_for_run

        shared = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
        config.stash[RUN_POSTGRES] = start_for_run(shared)
    if controller and not sys.dont_write_bytecode:
        # pytest-xdist's controller, before it starts the workers: compile our sources
        # once (a fresh clone has no bytecode; each worker, and each process a test starts
        # meanwhile, would compile them itself); with bytecode up to date, a look at each
        for package in ("deberc_net", "clients", "examples"):
            compileall.compile_dir(config.rootpath / package, quiet=1)
    config.addinivalue_line(
        "markers",
        "production_password_cost: the test's servers hash passwords at the production "
        "scrypt cost (where the hash's time is what the test is about)",
    )
    config.addinivalue_line(
        "markers",
        "new_db_file: the test's db_path has no file at it: the server creates the store "
        "(tests/server/conftest.py; otherwise it is a new store's bytes, written)",
    )


@pytest.fixture(autouse=True)
def logging_per_test(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A command run in this process (``cli.main``, tests/ladder/helpers.py's
    ``run_cli``) sets structlog up as for a process of its own: here the same, except
    that no logger is cached, and the suite's own set-up comes back after each test. A
    module's logger cached under one test's set-up kept it in every later test of that
    worker: a serve refused in-process (JSON, info) made a later ladder worker's table
    lines come out at info under its "warning" (a test failing by the order of tests)."""
    saved = structlog.get_config()
    configure = logs.configure_logging

    def uncached(
        level: str = "info",
        json_output: bool | None = None,
        worker: int | None = None,
        lifecycle: bool = True,
    ) -> None:
        configure(level, json_output, worker=worker, lifecycle=lifecycle)
        structlog.configure(cache_logger_on_first_use=False)

    monkeypatch.setattr(logs, "configure_logging", uncached)
    monkeypatch.setattr(logs, "lifecycle_passes", logs.lifecycle_passes)
    yield
    structlog.configure(**saved)


@pytest.fixture(autouse=True)
def cheap_password_hash(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("production_password_cost") is None:
        # imported here, not at the top: xdist's controller runs no test and need not
        # import the server's modules
        from deberc_net.server import accounts

        monkeypatch.setattr(accounts, "SCRYPT", {**accounts.SCRYPT, "n": TEST_SCRYPT_N})


# The suite's longest tests, with their wall time in seconds (make test's three workers
# on two cores, a quiet machine, 3d2ff43). pytest-xdist's worksteal gives each worker an
# equal run of the collection at the start, and a worker that runs out takes the back
# half of the longest queue: a long test late in a run ends the run alone. So each long
# test goes to one worker (longest first, each to the least loaded: about 35 s a worker),
# spread over the first 60% of that worker's share among short tests, and the run ends
# on short tests. Spread, not bunched at the front: the long tests mostly wait
# (processes, a browser, the terminal client), and three of them at once would leave
# the cores idle that the short tests, mostly CPU, fill. A group shares a worker: the
# browser's tests share its one Chromium (a session fixture). A name here that no longer
# matches only loses its place; the list is about time, not behaviour.
INTERRUPTED_PARTS = (  # one test of each parameter, each long
    "tests/ladder/test_processes.py::test_an_interrupted_ladder_of_processes_releases_every_"
    "board_its_parts_started"
)
LONG_TESTS: tuple[tuple[float, tuple[str, ...]], ...] = (
    (13, ("tests/web/test_browser.py", "tests/web/test_ladders.py")),
    # three tests of 6.0, 5.7 and 5.5 s on one start of the workers (two starts saved);
    # 22 s at load 5, where the browser's group read about 20 s
    (13, ("tests/store/test_workers.py::test_two_workers_privacy_web_face_play_resume",)),
    (7.3, ("tests/play/test_app.py::test_a_whole_match_typed_through_the_terminal_client",)),
    # not measured quiet: 22 s at load 8-15, where the browser's group read 14-22 s
    (7.0, ("tests/test_killed_run.py",)),
    (6.4, ("tests/store/test_distributed_ladder.py::test_two_workers_one_killed_mid_board",)),
    (6.3, ("tests/play/test_app.py::test_a_whole_tertz_match_typed_through_the_terminal",)),
    # (grew by the own-match-after-watched part folded into it: 4.5 -> 6.3 s at one load;
    # 13.5-14.6 s alone at load 6 while its pages waited for the rematch offer's end, 10 s;
    # 6.4-12.7 s at load 18-20 since they go at the offer called off, tsfast6)
    (5.0, ("tests/store/test_workers.py::test_help_rematch_games_and_a_clean_stop_across",)),
    (5.2, ("tests/store/test_serve_postgres.py::test_two_servers_on_one_database_number",)),
    (4.3, ("tests/play/test_app.py::test_a_dropped_connection_resumes_the_seat",)),
    (4.4, ("tests/store/test_postgres_template.py",)),  # two initdbs, one killed
    (3.6, ("tests/store/test_workers.py::test_workers_whose_web_port_is_in_use_say_so",)),
    (3.3, ("tests/ladder/test_ladder_run.py::test_a_bot_that_only_sends_illegal_calls",)),
    (3.1, ("tests/store/test_serve_postgres.py::test_serve_on_postgres_keeps_accounts",)),
    (3.1, ("tests/ladder/test_ladder_run.py::test_a_bot_that_hangs_forfeits_on_the_clock",)),
    (3.0, ("tests/server/test_attacks.py::test_during_shutdown_calls_and_state_get_an",)),
    (2.8, ("tests/store/test_serve_postgres.py::test_a_server_plays_on_while_its_heartbeat",)),
    (2.4, ("tests/store/test_store.py::test_match_numbers_go_on_after_the_highest_stored",)),
    (2.4, ("tests/ladder/test_boards.py::test_seeded_copies_make_a_ladder_with_concurrency",)),
    (2.3, ("tests/server/test_house_bots.py::test_a_house_bot_that_keeps_crashing_forfeits",)),
    (2.2, ("tests/store/test_workers.py::test_workers_that_cannot_start_stop_their_parent",)),
    (2.1, ("tests/store/test_serve_postgres.py::test_a_table_whose_match_number_cannot",)),
    (2.0, ("tests/server/test_attacks.py::test_the_admin_command_registers_an_admins_name",)),
    (2.0, ("tests/store/test_store.py::test_match_numbers_drawn_at_once_by_two_stores",)),
    (1.9, ("tests/game/test_properties_variants.py::test_random_play_keeps_every_invariant",)),
    # its two checks of every test file share one parse in one process (4-6 s in two)
    (3.0, ("tests/test_layout.py::test_no_test",)),
    (1.8, ("tests/ladder/test_stats.py::test_sprt_error_rates_stay_near_alpha_and_beta",)),
    (1.7, ("tests/ladder/test_ladder_run.py::test_a_bot_that_crashes_mid_game_is_restarted",)),
    # the thirteenth session's (testtime9): not measured quiet, a run's durations at load 5
    # (three workers) divided by 1.3, as the listed ones' quiet figures compare with it;
    # the first ended a run 6-13 s after the other workers, last in its worker's share
    (8.0, ("tests/store/test_workers.py::test_a_worker_whose_database_fails_after_it",)),
    (6.5, ("tests/ladder/test_interrupted.py::test_a_signal_once_every_game_is_played",)),
    (6.0, (f"{INTERRUPTED_PARTS}[every-process-2]",)),
    (5.6, (f"{INTERRUPTED_PARTS}[the-ladder-15]",)),
    (5.2, (f"{INTERRUPTED_PARTS}[the-ladder-2]",)),
    (5.0, ("tests/store/test_run_server.py::test_the_workers_share_one_server_with_databases",)),
    (5.0, ("tests/ladder/test_interrupted.py::test_a_ladder_interrupted_on_a_given_server",)),
    (4.8, ("tests/ladder/test_processes.py::test_two_processes_play_the_ladder_one_plays",)),
    (4.5, ("tests/ladder/test_interrupted.py::test_the_boards_of_a_ladder_killed_outright_are",)),
    (4.4, ("tests/play/test_app.py::test_a_resumed_client_learns_the_table_again",)),
    (4.0, ("tests/ladder/test_interrupted.py::test_a_second_ctrl_c_ends_the_ladder_at_once",)),
    (3.8, ("tests/play/test_app.py::test_calls_at_a_tertz_table_can_be_read_whole_with_page_up",)),
    (3.0, ("tests/store/test_released_text.py::test_any_record_is_released_as_decoding_and",)),
    # rv34's, four tables at once on one start of the workers: 13.9 s alone at load 3
    (10.0, ("tests/store/test_workers_page.py::test_another_workers_page_follows_the_owners",)),
    # the workers' doc audit's one cluster (s39): 7-9 s at load 9 on 2 cores, not quiet
    (6.0, ("tests/store/test_scaling_workers_doc_audit.py::test_one_cluster_for_the_lobby",)),
    # the distributed ladder's doc audit's worker renewing its lease (s39): 7-10 s
    (7.0, ("tests/ladder/test_distributed_doc_audit.py::test_a_workers_lease_is_renewed",)),
    # the forty-third session's: a run's durations at load 9-16 (four workers, helpers
    # beside) halved, the cut ones (tsfast) at their figure alone; each starts a cluster
    # of workers, and they ended runs one after another in the last worker's share
    (9.0, ("tests/store/test_workers_limits.py::test_wrong_passwords_and_one_login",)),
    (10.0, ("tests/store/test_workers_stall_then_killed.py",)),
    (8.0, ("tests/store/test_workers_stopping.py::test_a_worker_stopped_as_it_starts",)),
    (8.0, ("tests/store/test_workers_start_up.py::test_a_restarted_worker_listens_once",)),
    (7.6, ("tests/store/test_workers_rolling_upgrade.py",)),
    # (a module's tests that share its cluster: one group, on one worker, one start)
    (10.0, ("tests/store/test_workers_rematch_why.py",)),
    (20.0, ("tests/store/test_workers_rematch_lost.py",)),
    (12.0, ("tests/store/test_workers_rematch_kept_seek.py",)),
    # its five ends of the default offer (the short offer's test starts its own): 11 s
    # alone at load 6, the module's start included
    (11.0, ("tests/store/test_workers_page_rematch.py::test_a_page_follows_another_workers_m",)),
    (7.0, ("tests/store/test_workers_stopping.py::test_a_rolling_restart_of_one_worker",)),
    (6.0, ("tests/store/test_workers_page.py::test_a_stop_tells_everyone_and_waits",)),
    (4.0, ("tests/store/test_workers_cut_off_told_once.py",)),  # (its 3-s waits timed: tsfast6)
    (6.0, ("tests/store/test_workers_start_up.py::test_a_plain_server_on_the_database",)),
    (6.0, ("tests/store/test_forked_parent_stdout_unread.py",)),
    (5.5, ("tests/store/test_workers_orphans.py",)),
)


SPREAD = 0.6  # of a worker's share, where its long tests are


def _long_group(nodeid: str) -> int | None:
    """The index in LONG_TESTS of the group ``nodeid`` belongs to (a prefix of it)."""
    for index, (_seconds, prefixes) in enumerate(LONG_TESTS):
        if nodeid.startswith(prefixes):
            return index
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2:
        return  # one process: the order changes nothing
    grouped: dict[int, list[pytest.Item]] = {}
    rest: list[pytest.Item] = []
    for item in items:
        group = _long_group(item.nodeid)
        if group is None:
            rest.append(item)
        else:
            grouped.setdefault(group, []).append(item)
    longs: list[list[list[pytest.Item]]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for group in sorted(grouped, key=lambda g: -LONG_TESTS[g][0]):
        least = loads.index(min(loads))
        longs[least].append(grouped[group])
        loads[least] += LONG_TESTS[group][0]
    # worksteal's first share: worker i gets len(pending) // (workers - i) of what is left
    ordered: list[pytest.Item] = []
    left = len(items)
    for i, groups in enumerate(longs):
        share = left // (workers - i)
        left -= share
        size = max(0, share - sum(len(g) for g in groups))
        short, rest = rest[:size], rest[size:]
        done = 0
        for j, long_ones in enumerate(groups):  # staggered: the workers' first ones apart
            at = int((j + (i + 1) / (workers + 1)) * len(short) * SPREAD / len(groups))
            ordered += short[done:at] + long_ones
            done = at
        ordered += short[done:]
    items[:] = ordered + rest


def _test_modules(config: pytest.Config) -> list[str]:
    """The dotted names of the modules of the tests package (tests/, where each directory
    is a package) under the paths the run was given, in their sorted order."""
    package = config.rootpath / "tests"
    found: set[Path] = set()
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if path.is_dir():
            found.update(path.rglob("test_*.py"))
        elif path.name.startswith("test_") and path.suffix == ".py":
            found.add(path)
    return sorted(
        ".".join(path.relative_to(config.rootpath).with_suffix("").parts)
        for path in found
        if path.is_relative_to(package)
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    # On a fresh clone no test module has its assertion-rewritten bytecode cached yet, and
    # pytest rewrites a module (about 6 s of CPU for them all) in every xdist worker that
    # imports it before another has written it: all of them, since every worker collects
    # the same modules in the same order at the same moment. So each worker first imports
    # them starting at its own share (worker i of n at i/n of the list): each module is
    # rewritten about once, and the others read it. The same imports collection makes
    # (it finds them done), only their order differs; with bytecode cached, nothing
    # changes. A module that fails to import is left to collection, which reports it.
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if count < 2 or not worker.startswith("gw") or sys.dont_write_bytecode:
        return
    modules = _test_modules(session.config)
    start = len(modules) * int(worker.removeprefix("gw")) // count
    for name in modules[start:] + modules[:start]:
        try:
            importlib.import_module(name)
        except (Exception, pytest.skip.Exception):  # collection imports it again, says why
            continue


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    # a test its time limit ended mid-run leaves its trio run open, and every later trio
    # test in this process would fail to start (tests/abandoned_runs.py)
    try:
        return (yield)
    except BaseException as exc:
        close_abandoned_run(exc)
        raise


def pytest_collection_finish() -> None:
    # What collection made (modules, test items, fixtures' definitions) lives as long as
    # the run: gc.freeze() moves it out of the collector's reach, so each full collection
    # during the tests walks only what the tests made (measured: the full collections
    # of a process that ran the game, protocol and client tests, 0.57 s -> 0.21 s of CPU)
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(RUN_POSTGRES, None)
    if run is not None:  # the workers are gone: the run's PostgreSQL server goes
        run.stop()
    # The run is over and the process exits: gc.freeze() keeps the interpreter's last
    # collections at exit from walking everything the run made (measured: 0.5 s of CPU
    # in one process that ran tests/game and tests/protocol, 0.1 s with it). With
    # xdist the run ends when the last worker has exited, and they end together.
    gc.freeze()
