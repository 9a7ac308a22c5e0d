"""What players say is logged (docs/settings.md "Logs": `said`), so that an admin can
check a complaint (docs/protocol.md §5.8): the lobby's, a table's and its watchers'
lines, each with its speaker and table."""

from __future__ import annotations

import structlog

from .client import seat_pair
from .conftest import Connector


async def test_what_is_said_is_logged_with_the_speaker_and_the_table(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    with structlog.testing.capture_logs() as logs:
        await ann.send("say hello lobby")
        await ann.expect("say", text="hello lobby")
        table, _, _ = await seat_pair(ann, bob)
        await eve.send(f"observe {table}")
        await eve.expect("ok", cmd="observe")
        await ann.send("say good luck")
        await ann.read_until(lambda x: x.startswith("say ") and "good luck" in x)
        await eve.send("say she will lose")
        await eve.read_until(lambda x: x.startswith("say ") and "she will lose" in x)
    said = [
        (e["name"], e["table"], e.get("watchers"), e["text"]) for e in logs if e["event"] == "said"
    ]
    assert said == [
        ("ann", None, None, "hello lobby"),
        ("ann", table, False, "good luck"),
        ("eve", table, True, "she will lose"),
    ]
    assert all(e["log_level"] == "info" for e in logs if e["event"] == "said")
    # and the speaker's connection, as on his connect and login lines (a complaint's
    # address; the name alone may be a guest's, taken since by another)
    peers = {e["name"]: (e["conn"], e["peer"]) for e in logs if e["event"] == "said"}
    assert peers["ann"] != peers["eve"]
    assert all(peer.startswith("127.0.0.1:") for _, peer in peers.values()), peers
