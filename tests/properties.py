"""How many examples a property test draws: a share of the count the test writes.

Each property test writes the count a long run draws, as hypothesis' default profile
would (``max_examples=100``): ``examples(60)``. The suite's own profile, ``suite``
(loaded by tests/conftest.py, what ``make test`` runs), draws a third of each count, so
the property tests stay a small share of ``make test``; every run draws new examples and
hypothesis keeps those that failed in .hypothesis/ and tries them first. The ``long``
profile draws the written counts (before a release, or after changing the engine; its
longest test can pass the suite's 60 s timeout on a busy machine, hence --timeout):

    .venv/bin/python -m pytest --hypothesis-profile=long --timeout=600 tests/game tests/tertz
"""

from __future__ import annotations

import math

from hypothesis import HealthCheck, settings

# what a profile's max_examples is measured against: hypothesis' own default
FULL = 100
# no per-example deadline in any test: hypothesis' 200 ms raced the machine, and a stall
# of a loaded run failed a pure test (v1, s50: 276 ms for one json.dumps); a hang is the
# suite's per-test timeout's to stop (docs/performance.md, "hang guards, not races")
settings.register_profile("suite", max_examples=FULL // 3, deadline=None)
settings.register_profile("long", max_examples=FULL, deadline=None)


def examples(n: int) -> settings:
    """Settings that draw the active profile's share of ``n`` examples (at least 2), with
    no per-example deadline (whole matches take their time on a busy machine)."""
    active = settings.default
    assert active is not None  # tests/conftest.py loads one on import
    share = active.max_examples / FULL
    return settings(
        max_examples=max(2, math.ceil(n * share)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
