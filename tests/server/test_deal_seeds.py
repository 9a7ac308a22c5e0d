"""The tests' servers deal a match of no known seed from the run's deal seed
(tests/deal_seeds.py), so that a failure on a rare deal can be replayed."""

from __future__ import annotations

import pytest

from deberc_net.game import seeding
from tests.deal_seeds import match_seed, run_seed

from .client import seat_pair
from .conftest import Connector


def test_each_match_of_a_test_has_its_own_seed_from_the_runs(
    request: pytest.FixtureRequest,
) -> None:
    drawn = [seeding.fresh_match_seed() for _ in range(3)]
    assert drawn == [match_seed(run_seed(), request.node.nodeid, n) for n in (1, 2, 3)]
    assert len(set(drawn)) == 3 and all(len(s) == 16 for s in drawn)
    assert match_seed(run_seed(), "another test", 1) != drawn[0]


async def test_a_servers_match_of_no_known_seed_is_dealt_from_the_runs_seed(
    port: int, connect: Connector, request: pytest.FixtureRequest
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    await ann.send("leave!")
    end = await bob.expect("event", kind="match-end")
    assert end["seed"] == match_seed(run_seed(), request.node.nodeid, 1)
