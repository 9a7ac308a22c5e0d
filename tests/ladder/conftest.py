"""The end-to-end server fixtures (a real server on port 0 with a tmp database)."""

from tests.server.conftest import (
    connect,
    db_path,
    jump_when_idle,
    port,
    register,
    start_server,
    virtual_clock,
)

__all__ = [
    "connect",
    "db_path",
    "jump_when_idle",
    "port",
    "register",
    "start_server",
    "virtual_clock",
]
