"""The end-to-end server fixtures (a real server on port 0 with a tmp database, virtual
time): the clients' tests' own, every one their ``__all__`` names."""

from tests.clients.conftest import *  # noqa: F403
