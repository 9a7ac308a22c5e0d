"""An admin's moderation under ``serve --workers 2`` (docs/protocol.md §5.19, docs/
scaling.md): an announcement, a mute, a kick and a ban made on one worker reach a
player on the other, over the workers' bus; a ban, the store's, holds at a login on
either worker, an address's as a name's, and 'finger' tells an admin the address of a
player on the other worker; a mute, memory, is told again to a worker started anew, and 'mutes' on
either worker lists it."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.store import open_store
from tests.server.client import LineClient, close_all, fields

from .workers import Workers, served_workers

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 100\nheartbeat_ms = 500\n"
    "server_dead_ms = 60000\nworker_restart_ms = 50\n"
    'admins = ["boss"]\n'
)


async def _online(client: LineClient, name: str) -> None:
    """Wait until ``client``'s worker lists ``name`` (his login on the other worker is
    told over the bus)."""
    with trio.fail_after(30):
        while True:
            await client.send("who")
            if name in (await client.expect("who"))["names"].split(","):
                return
            await trio.sleep(0.1)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
@pytest.mark.production_password_cost  # the workers check the admin's password at it
async def test_an_admin_on_one_worker_reaches_players_on_the_other(
    postgres_url: str, tmp_path: Path
) -> None:
    store = open_store(postgres_url)
    set_password(store, "boss", "boss-secret-1")
    set_password(store, "vera", "vera-secret-1")  # a member behind a banned address
    store.close()
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings) as workers:
            try:
                boss = await workers.connect(0, "boss", "boss-secret-1")
                ann = await workers.connect(1, "ann")
                bob = await workers.connect(1, "bob")
                opened += [boss, ann, bob]
                await _online(boss, "ann")
                await _online(boss, "bob")

                await boss.send("announce back in five")
                for client in (boss, ann, bob):
                    assert await client.expect("announce") == {
                        "from": "boss",
                        "text": "back in five",
                    }

                await boss.send("mute ann 5 shouting")
                await boss.expect("ok", cmd="mute", name="ann")
                told = await ann.expect("info", timeout=30)  # from her own worker
                assert told["text"].startswith("boss (an admin) mutes you for 5 min: shouting")
                await ann.send("say let me speak")
                assert (await ann.expect("error"))["code"] == "muted"
                await boss.send("unmute ann")
                await boss.expect("ok", cmd="unmute")
                await ann.expect("info", timeout=30, text="boss (an admin) lets you talk again.")
                await ann.send("say thank you")
                await boss.expect("say", timeout=30, text="thank you")

                await boss.send("kick ann flooding")
                assert (await boss.expect("ok", cmd="kick"))["name"] == "ann"
                bye = fields(await ann.read_until(lambda x: x.startswith("bye "), 30))[1]
                assert bye["by"] == "boss" and bye["text"].startswith(
                    "boss (an admin) disconnects you: flooding."
                )
                await ann.wait_closed(30)

                await boss.send("ban bob cheating")
                assert (await boss.expect("ok", cmd="ban"))["disconnected"] == "1"
                bye = fields(await bob.read_until(lambda x: x.startswith("bye "), 30))[1]
                assert bye["text"] == "boss (an admin) bans your name from this server: cheating."
                await bob.wait_closed(30)
                for worker in (0, 1):  # the store's ban, read by either worker
                    again = await workers.reach(worker, f"bob-{worker}")
                    opened.append(again)
                    await again.send("style machine")
                    await again.send("login bob")
                    assert await again.expect("error") == {
                        "code": "banned",
                        "text": "bob is banned from this server: cheating",
                    }
                await _an_address_ban_holds_at_the_other_worker_at_once(workers, boss, opened)
                await _a_mute_outlives_a_workers_restart(workers, boss, opened)
            finally:
                await close_all(opened)


async def _an_address_ban_holds_at_the_other_worker_at_once(
    workers: Workers, boss: LineClient, opened: list[LineClient]
) -> None:
    """An admin on worker 0 is told the address of a guest on worker 1 ('finger'), bans
    it, and the next guest login from it on worker 1 is refused, with no wait: each
    login reads the store (a member is let in); 'unban' there lets guests in again."""
    troll = await workers.connect(1, "troll", source="127.0.0.2")
    opened.append(troll)
    await _online(boss, "troll")
    await boss.send("finger troll")
    assert (await boss.expect("finger"))["address"] == "127.0.0.2"  # told by his worker
    await boss.send("ban 127.0.0.2 30 trolling")
    await boss.expect("ok", cmd="ban", address="127.0.0.2")
    again = await workers.reach(1, "troll-again", "127.0.0.2")
    opened.append(again)
    await again.send("style machine")
    await again.send("login troll2")
    refused = await again.expect("error")
    assert refused["code"] == "banned", refused
    assert refused["text"].startswith("guests and new names may not log in from your address")
    opened.append(await workers.connect(1, "vera", "vera-secret-1", source="127.0.0.2"))
    await boss.send("unban 127.0.0.2")
    await boss.expect("ok", cmd="unban", address="127.0.0.2")
    opened.append(await workers.connect(1, "troll3", source="127.0.0.2"))


async def _a_mute_outlives_a_workers_restart(
    workers: Workers, boss: LineClient, opened: list[LineClient]
) -> None:
    """A mute is memory: a worker started anew (its predecessor killed) is told the
    mutes running by the others, as it is told who is online."""
    await boss.send("mute dan 30 shouting")  # nobody under the name yet: the name is muted
    await boss.expect("ok", cmd="mute", name="dan")
    killed = workers.pids[1]
    os.kill(killed, signal.SIGKILL)
    with trio.fail_after(30):
        while workers.pids[1] == killed:  # its successor's worker_listening
            await trio.sleep(0.05)
    dan = await workers.connect(1, "dan")
    opened.append(dan)
    with trio.fail_after(30):  # told once the new worker's hello is heard
        while True:
            await dan.send("say am I heard")
            tag, said = fields(await dan.read_until(lambda x: x.startswith(("say ", "error "))))
            if tag == "error" and said["code"] != "slow-down":  # (not told yet: said)
                assert said["code"] == "muted" and "30 more min" in said["text"], said
                break
            await trio.sleep(0.5)
    # 'mutes' on the other worker lists the mute worker 0 made, its reason too (the
    # store's: a worker's memory has no reasons of others')
    boss_there = await workers.connect(1, "boss", "boss-secret-1")
    opened.append(boss_there)
    await boss_there.send("mutes")
    assert await boss_there.expect("mutes") == {"count": "1"}
    listed = fields(await boss_there.read_until(lambda x: x.startswith("mute ")))[1]
    assert (listed["name"], listed["by"], listed["text"]) == ("dan", "boss", "shouting")
    assert listed["left"] in {"29", "30"}
