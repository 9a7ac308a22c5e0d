"""What the tests of the sans-IO connection feed it and read back (tests/protocol/
test_connection.py, test_receive_call.py)."""

from __future__ import annotations

from deberc_net.protocol.connection import NEED_DATA, Connection, Input, Reply


def inputs(connection: Connection, data: bytes, now: float = 0.0) -> list[Input]:
    """Everything one chunk of bytes gives, up to NEED_DATA."""
    connection.receive_data(data, now)
    out: list[Input] = []
    while (item := connection.next_input(now)) is not NEED_DATA:
        out.append(item)
        if isinstance(item, Reply) and item.hang_up:
            break
    return out
