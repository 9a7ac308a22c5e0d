"""The limits of docs/security.md under ``serve --workers 2`` (tryout-s15 #2, #4): the
ones that must hold across the workers, with real worker processes on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.store import open_store
from tests.server.client import LineClient, close_all, fields

from .workers import Workers, served_workers

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 100\nheartbeat_ms = 500\n"
    "server_dead_ms = 60000\nfailed_logins_per_name = 3\nfailed_logins_per_connection = 9\n"
)


async def _heard_by_the_other(askers: list[LineClient], worker: int, name: str) -> None:
    """Wait until the other worker lists ``name``, just logged in on ``worker``: the bus
    hands a worker's messages over in order, so the other has then heard all ``worker``
    told before it (a wrong password, a login), however slow the bus is under load."""
    asker = askers[1 - worker]
    with trio.fail_after(30):
        while name not in (await _who(asker)):
            # (the bus takes milliseconds: a poll every 0.1 s waited most of its 0.1 s
            # each of the 18 times, a tenth of the test's time)
            await trio.sleep(0.02)


async def _who(asker: LineClient) -> list[str]:
    await asker.send("who")
    return str((await asker.expect("who"))["names"]).split(",")


async def _wrong_passwords_for_a_name_are_counted_across_workers(
    workers: Workers, opened: list[LineClient]
) -> None:
    # tryout-s15 #2: each worker counted its own, so two workers let 2 x 5 guesses through
    askers = [await workers.connect(worker, f"asker{worker}") for worker in (0, 1)]
    opened += askers
    codes: list[str] = []
    for attempt in range(8):  # on each worker in turn
        worker = attempt % 2
        client = await workers.reach(worker, f"guess{attempt}")
        await client.send("style machine")
        await client.expect("ok", cmd="style")
        await client.send(f"login vic1 wrong{attempt}")
        reply = await client.read_until(lambda x: x.startswith(("ok ", "error ")))
        codes.append(fields(reply)[1].get("code", "ok"))
        # the next attempt, on the other worker, once that worker has heard of this one
        # (a guess at the bus's delay, 0.2 s, was one)
        await client.send(f"login mark{attempt}")
        await client.expect("ok", cmd="login")
        await _heard_by_the_other(askers, worker, f"mark{attempt}")
        await client.aclose()
    assert codes == ["bad-password"] * 3 + ["slow-down"] * 5, codes
    # tryout-s15 #7: the parent's 'listening' names the database; each worker's line its
    # own port (its house bots') and the shared one
    [listening] = [e for e in workers.events if e.get("event") == "listening"]
    assert str(listening["db"]).startswith("postgresql://") and listening["workers"] == 2
    ready = [e for e in workers.events if e.get("event") == "worker_listening"]
    assert len(ready) == 2 and {e["shared_port"] for e in ready} == {workers.port}
    assert all(e["port"] != workers.port for e in ready)


async def _a_guessed_names_owner_gets_in_on_the_other_worker(
    workers: Workers, opened: list[LineClient]
) -> None:
    # a right password on one worker makes the address known to the name on the other
    # too (told over the bus, as a wrong one is): the name's limit does not slow it there
    askers = [await workers.connect(worker, f"owner-asker{worker}") for worker in (0, 1)]
    opened += askers
    home = "127.0.0.9"
    opened.append(await workers.connect(0, "vic2", "goodpass2", source=home))
    await _heard_by_the_other(askers, 0, "vic2")
    guesser = await workers.reach(0, "guesser", source="127.0.0.2")
    opened.append(guesser)
    await guesser.send("style machine")
    await guesser.expect("ok", cmd="style")
    for attempt in range(3):
        await guesser.send(f"login vic2 wrong{attempt}")
        await guesser.expect("error", code="bad-password")
    await guesser.send("login gmark")
    await guesser.expect("ok", cmd="login")
    await _heard_by_the_other(askers, 0, "gmark")
    stranger = await workers.reach(1, "stranger", source="127.0.0.3")
    opened.append(stranger)
    await stranger.send("style machine")
    await stranger.expect("ok", cmd="style")
    await stranger.send("login vic2 goodpass2")
    await stranger.expect("error", code="slow-down")  # the name's limit, told over
    opened.append(await workers.connect(1, "vic2", "goodpass2", source=home))


async def _race(workers: Workers, name: str, sockets: int) -> list[LineClient]:
    """``sockets`` connections, half on each worker, logging in as ``name`` at once."""
    clients = [await workers.reach(i % 2, f"{name}-{i}") for i in range(sockets)]
    for client in clients:
        await client.send("style machine")
        await client.expect("ok", cmd="style")
    async with trio.open_nursery() as nursery:
        for client in clients:
            nursery.start_soon(client.send, f"login {name}")
    return clients


async def _holders(
    workers: Workers, clients: list[LineClient], name: str, opened: list[LineClient]
) -> list[LineClient]:
    """The clients still holding ``name`` once the workers have heard each other: those
    told ok and not told bye since."""
    for client in clients:  # each login answered: told to the other worker before what follows
        await client.read_until(lambda x: x.startswith(("ok ", "error ")))
    askers = [await workers.connect(worker, f"{name}a{worker}") for worker in (0, 1)]
    opened += askers
    for worker in (0, 1):  # each worker has heard the other's logins of the name (it
        # decides then which keeps it): not a guess at the bus's delay (1 s was one)
        opened.append(await workers.connect(worker, f"{name}m{worker}"))
        await _heard_by_the_other(askers, worker, f"{name}m{worker}")
    holding = []
    for client in clients:
        await client.drain(0.05)
        said = [fields(line)[0] for line in client.lines]
        ok = f"ok cmd=login name={name} " in "\n".join(client.lines) + " "
        if ok and "bye" not in said:
            holding.append(client)
    return holding


async def _one_name_is_one_login_across_workers(workers: Workers, opened: list[LineClient]) -> None:
    # tryout-s15 #4: a guest name logged in on both workers at once had several holders,
    # then none (each worker yielded to the other) while 'who' still listed it. The four
    # names race at once (each its own sockets and askers): one after another they were
    # a third of the test's time, its connections and waits for the bus end to end
    async with trio.open_nursery() as nursery:
        for trial in range(4):
            nursery.start_soon(_one_name_raced, workers, trial, opened)


async def _one_name_raced(workers: Workers, trial: int, opened: list[LineClient]) -> None:
    name = f"racer{trial}"
    clients = await _race(workers, name, 8)
    opened += clients
    holding = await _holders(workers, clients, name, opened)
    assert len(holding) == 1, (name, [c.lines[-3:] for c in clients])
    for worker in (0, 1):  # both lobbies agree: one login, listed once
        asker = await workers.connect(worker, f"ask{trial}w{worker}")
        opened.append(asker)
        await asker.send("who")
        names = (await asker.expect("who"))["names"].split(",")
        assert names.count(name) == 1, (worker, names)


# The three parts test independent things on one start of the workers (a start costs three
# processes' imports and their connections to PostgreSQL: some 1.7 s of CPU): each logs
# in names of its own; the wrong passwords first (the racers' logins count nothing).
@pytest.mark.timeout(180)  # its fail_after(140), then its clean-up
@pytest.mark.production_password_cost  # vic2 logs in: stored as the workers hash
async def test_wrong_passwords_and_one_login_a_name_across_workers(
    postgres_url: str, tmp_path: Path
) -> None:
    store = open_store(postgres_url)
    set_password(store, "vic1", "goodpass1")
    set_password(store, "vic2", "goodpass2")
    store.close()
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    opened: list[LineClient] = []
    with trio.fail_after(140):
        async with served_workers(postgres_url, settings) as workers:
            try:
                await _wrong_passwords_for_a_name_are_counted_across_workers(workers, opened)
                await _a_guessed_names_owner_gets_in_on_the_other_worker(workers, opened)
                await _one_name_is_one_login_across_workers(workers, opened)
            finally:
                await close_all(opened)
