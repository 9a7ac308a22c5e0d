"""The end-to-end server fixtures (a real server on port 0 with a tmp database)."""

from tests.server.conftest import connect, db_path, port, register, start_server

__all__ = ["connect", "db_path", "port", "register", "start_server"]
