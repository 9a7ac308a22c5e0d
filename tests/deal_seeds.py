"""The run's deal seed: the matches the tests' servers deal with no ``match_seed`` set.

A server gives such a match a fresh random seed (deberc_net/game/seeding.py:
``fresh_match_seed``), so most server tests play random deals, and a test that holds
for most deals fails once in a few hundred runs. In the tests that seed is drawn from
the run's seed instead, printed in pytest's header (``deal seed: …``) and in a failed
test's report: ``pytest --deal-seed=SEED NODEID`` deals that test's matches again.

What the tests cover stays as it was: each run draws its own seed unless told one, and
within a run every match gets its own seed, the n-th match a test starts
``sha256(run seed/test id/n)``: two matches of one test, or of two tests, deal
different decks as fresh seeds did. A test's matches are numbered in the order its
servers start them, so a test whose tables start concurrently may deal them its decks
in another order on a replay. Servers the tests start as processes (and a ladder's
boards, which have seeds of their own) are not drawn from it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Generator
from typing import Any

import pytest

from deberc_net.game import seeding

OPTION = "--deal-seed"


class _Seeds:
    """The seeds of the test running now in this process."""

    run = ""
    test = ""
    drawn = 0

    @classmethod
    def next(cls) -> str:
        cls.drawn += 1
        return match_seed(cls.run, cls.test, cls.drawn)


def match_seed(run: str, test: str, n: int) -> str:
    """The seed of the ``n``-th match test ``test`` (its node id) starts in run ``run``."""
    return hashlib.sha256(f"{run}/{test}/{n}".encode()).hexdigest()[:16]  # as token_hex(8)


def run_seed() -> str:
    """This run's deal seed."""
    return _Seeds.run


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        OPTION,
        metavar="SEED",
        help="the run's seed for the matches the tests' servers deal at random (a "
        "failed test's report names it; default: a fresh one, printed in the header)",
    )


def pytest_configure(config: pytest.Config) -> None:
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None:  # an xdist worker: the controller's seed
        _Seeds.run = str(workerinput["deal_seed"])
    else:
        _Seeds.run = config.getoption(OPTION) or secrets.token_hex(4)
    seeding.fresh_match_seed = _Seeds.next


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:  # pytest-xdist's, before a worker starts
    node.workerinput["deal_seed"] = _Seeds.run


def pytest_report_header() -> str:
    return f"deal seed: {_Seeds.run} (replay a test's random deals: {OPTION}={_Seeds.run})"


@pytest.hookimpl(tryfirst=True)  # before the test's fixtures start its servers
def pytest_runtest_setup(item: pytest.Item) -> None:
    _Seeds.test, _Seeds.drawn = item.nodeid, 0


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item,
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed and _Seeds.drawn:
        report.sections.append(
            (
                "deal seed",
                f"{_Seeds.drawn} match(es) dealt from the run's seed: replay with "
                f"{OPTION}={_Seeds.run} {item.nodeid}",
            )
        )
    return report
