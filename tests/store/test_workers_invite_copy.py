"""``serve --workers``: an invitation to a player on another worker carries its table,
so his ``sit`` at once (as the invitation says: 'sit T' to play) finds it there; it was
refused 'there is no table T' until the table's copy came, a quarter of a second or so
later (docs/scaling.md, "Invitations across workers"). A real worker in this process on
PostgreSQL, the test playing the other worker on the real bus, both ways."""

from __future__ import annotations

import time
from typing import Any

import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY, channel
from tests.server.client import LineClient, log_in_machine

from .workers import OTHER, heard_one, told_table, until_listed, worker_and_bus

TABLE = 9101  # the other worker's table (the real worker draws its own from 1)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_an_invitation_across_workers_brings_its_table(postgres_url: str) -> None:
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            bob = await log_in_machine(await LineClient.connect(port), "bob")
            here = (await heard_one(heard, k="in", name="bob"))["w"]
            # ann, of the other worker, invites bob to her table, not yet told here
            invited = {
                "k": "invited", "to": "bob", "sender": "ann", "table": TABLE, "players": 2,
                "variant": "moscow", "options": [], "private": False,
            }  # fmt: skip
            other.publish(channel(here), invited | {"info": told_table(TABLE, ["ann", None])})
            await bob.expect("invite", table=str(TABLE))
            await bob.send(f"sit {TABLE}")  # at once: asked of its owner, not refused
            sit = await heard_one(heard, k="post", table=TABLE, m="sit")
            assert sit["w"] == here, sit
            # and bob's invitation from here to ann, there, carries bob's table
            carl = await log_in_machine(await LineClient.connect(port), "carl")
            claim = {"k": "in", "name": "ann", "guest": True, "token": "annstoken1"}
            other.publish(LOBBY, claim | {"fresh": True, "at": time.time(), "s": 1})
            await carl.send("new 2")
            table = int((await carl.expect("ok", cmd="sit"))["table"])
            await until_listed(carl, "who", "ann")  # (one online nowhere is told nothing)
            await carl.send("invite ann")
            await carl.expect("ok", cmd="invite")
            told_ann = await heard_one(heard, k="invited", to="ann")
            assert told_ann["table"] == table and told_ann["info"]["id"] == table, told_ann
            assert told_ann["info"]["seats"] == ["carl", None], told_ann
            for client in (bob, carl):
                await client.aclose()
