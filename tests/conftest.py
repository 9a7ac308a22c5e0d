"""Settings for the whole suite (loaded before any test module is imported)."""

from __future__ import annotations

import pytest
from hypothesis import settings

import tests.properties  # noqa: F401  (registers the profiles)
from deberc_net.server import accounts

# property tests draw a share of their written counts (tests/properties.py) unless a run
# asks for another profile: ``--hypothesis-profile=long``, loaded after this
settings.load_profile("suite")

# what a password costs in the tests' own process (servers the tests start as processes
# keep the production cost): scrypt at n=2**14 takes some 60 ms of CPU, and the suite
# logs in with a password about 70 times to test accounts, not scrypt
TEST_SCRYPT_N = 2**8


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "production_password_cost: the test's servers hash passwords at the production "
        "scrypt cost (where the hash's time is what the test is about)",
    )


@pytest.fixture(autouse=True)
def cheap_password_hash(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("production_password_cost") is None:
        monkeypatch.setattr(accounts, "SCRYPT", {**accounts.SCRYPT, "n": TEST_SCRYPT_N})
