"""Two look-alike names registered at one instant, by two connections (docs/security.md
§1): the store looks for a look-alike and inserts in one transaction (SQLite's write
lock, PostgreSQL's lock on the accounts' writers), so one of them is taken and the
other refused as a look-alike, on both backends. A real server, real sockets."""

from __future__ import annotations

import pytest
import trio

from deberc_net.server.store import open_store
from tests.server.client import LineClient, close_all, fields
from tests.server.conftest import make_config, running_server

# (a Latin name, a Cyrillic one and a Greek one drawn as it)
ALIKE = [("anna", "\u0430\u043f\u043f\u0430"), ("papa", "\u03c1\u03b1\u03c1\u03b1")]


def _answer(line: str) -> bool:
    tag, said = fields(line)
    return (tag == "ok" and said.get("cmd") == "login") or tag == "error"


@pytest.mark.timeout(90)  # its fail_after(60), then its clean-up
async def test_two_look_alikes_registered_at_once_are_not_both_taken(store_db: str) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with running_server(make_config(store_db)) as port:
            try:
                for pair in ALIKE:
                    clients = [await LineClient.connect(port, name) for name in pair]
                    opened += clients
                    for client in clients:
                        await client.send("style machine")
                        await client.expect("ok", cmd="style")
                    # both lines out before either is answered: each login's first look
                    # at the store comes before the other's hash is done
                    async with trio.open_nursery() as nursery:
                        for client, name in zip(clients, pair, strict=True):
                            nursery.start_soon(client.send, f"login {name} secret-{name}")
                    answers = [fields(await c.read_until(_answer)) for c in clients]
                    tags = sorted(tag for tag, _ in answers)
                    assert tags == ["error", "ok"], answers
                    taken, refused = pair if answers[0][0] == "ok" else pair[::-1]
                    error = next(said for tag, said in answers if tag == "error")
                    assert error["code"] == "bad-argument", error
                    assert error["text"].startswith(f"{refused} looks like {taken}"), error
            finally:
                await close_all(opened)
    store = open_store(store_db)
    try:
        for pair in ALIKE:
            assert sum(store.account(name) is not None for name in pair) == 1, pair
    finally:
        store.close()
