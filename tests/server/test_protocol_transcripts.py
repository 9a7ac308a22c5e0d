"""docs/protocol.md §15's captured sessions: each guest's login line there is the line a
server sends, its resume token and all (the token itself differs, being random)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .client import fields
from .conftest import Connector

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
COUNTS = re.compile(r"(\d+) tables?, (\d+) players? here")


def _example_logins() -> list[str]:
    examples = PROTOCOL.read_text(encoding="utf-8").split("\n## 15. ", 1)[1]
    examples = examples.split("\n## 16. ", 1)[0]
    return [line for line in examples.splitlines() if line.startswith("ok cmd=login ")]


def test_the_examples_show_guest_logins() -> None:
    assert len(_example_logins()) >= 2


@pytest.mark.parametrize("documented", _example_logins(), ids=lambda line: line.split()[2])
async def test_an_examples_login_line_is_what_the_server_sends(
    port: int, connect: Connector, documented: str
) -> None:
    _, said = fields(documented)
    assert said["guest"] == "1" and "token" in said, "a guest's login shows its token"
    counts = COUNTS.search(documented)
    assert counts is not None
    tables, players = int(counts[1]), int(counts[2])
    # the lobby the example had: players already here, some at a table of their own
    for n in range(players - 1):
        other = await connect.machine(port, f"other{n}")
        if n < tables:
            await other.send("new 2")
            await other.expect("ok", cmd="sit")
    client = await connect.raw(port, said["name"])
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send(f"login {said['name']}")
    sent = await client.take(lambda line: line.startswith("ok cmd=login "))
    token = fields(sent)[1]["token"]
    assert sent == documented.replace(said["token"], token)
