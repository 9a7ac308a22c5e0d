"""Accounts and finished games are on disk: a new server on the same file knows them."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import trio

from tests.ladder.helpers import run_cli

from .client import LineClient, fields, play_machine, seat_pair
from .conftest import Connector, make_config, running_server


async def _raw_login(port: int, line: str) -> str:
    """The reply to one ``login`` line on a fresh machine-style connection."""
    client = await LineClient.connect(port, "login")
    try:
        await client.send("style machine")
        await client.expect("ok", cmd="style")
        await client.send(line)
        return await client.read_until(lambda x: x.startswith(("ok ", "error ")))
    finally:
        await client.aclose()


async def _export(db: Path) -> tuple[int, str]:
    """``records export``: its main, in a thread of this process, once the server that
    wrote ``db`` has stopped (closing the file here could otherwise drop a running
    in-process server's SQLite locks: tests/server/test_hardening.py exports from a
    process, and checks the command's exit status there)."""
    done = await trio.to_thread.run_sync(run_cli, ["records", "export", "--db", str(db)])
    return done.returncode, done.stdout


async def test_accounts_and_games_survive_a_restart(db_path: Path, connect: Connector) -> None:
    config = make_config(db_path)
    async with running_server(config) as port:
        ann = await connect.machine(port, "ann", "s3cret-pass")  # registers
        assert ann.lines[-1].startswith("ok cmd=login name=ann guest=0")
        assert (await _raw_login(port, "login ann wrong")).startswith("error code=bad-password")
        assert (await _raw_login(port, "login ann")).startswith("error code=bad-password")
        assert (await _raw_login(port, "login ANN")).startswith("error code=bad-password")
        bob = await connect.machine(port, "bob")  # a guest
        await seat_pair(ann, bob, "2 to-301")
        ends: list[str] = []

        async def run(client: LineClient, seed: int) -> None:
            ends.append(await play_machine(client, random.Random(seed), timeout=10))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(run, ann, 1)
            nursery.start_soon(run, bob, 2)
        end = fields(ends[0])[1]
        live = [json.loads(fields(x)[1]["text"]) for x in ann.lines if x.startswith("record ")]
        await ann.send("games")
        assert (await ann.expect("games"))["count"] == "1"
    # the server is stopped: its connections are gone
    await ann.wait_closed()

    code, out = await _export(db_path)
    assert code == 0
    stored = [json.loads(line) for line in out.splitlines()]
    assert len(stored) == len(live) >= 1
    for record, sent in zip(stored, live, strict=True):
        assert record["format"] == "deberc-deal/1"
        assert record["match"] == "m1" and record["players"] == sent["players"]
        assert record["seed"] == f"{end['seed']}/{record['deal_no']}"  # kept in full
        assert {k: v for k, v in record.items() if k != "seed"} == {
            k: v for k, v in sent.items() if k != "seed"
        }
    assert [r["deal_no"] for r in stored] == list(range(1, len(stored) + 1))
    assert stored[-1]["totals"] == [int(t) for t in end["totals"].split(",")]
    with sqlite3.connect(db_path) as db:  # a salted hash, never the password
        salt, digest = db.execute("SELECT salt, hash FROM accounts WHERE name='ann'").fetchone()
        assert len(salt) >= 16 and b"s3cret" not in digest and b"s3cret" not in salt

    async with running_server(config) as port:
        assert (await _raw_login(port, "login ann wrong")).startswith("error code=bad-password")
        assert (await _raw_login(port, "login ann")).startswith("error code=bad-password")
        again = await connect.machine(port, "ann", "s3cret-pass")
        assert again.lines[-1].startswith("ok cmd=login name=ann guest=0")
        await again.send("games")
        games = await again.expect("games", name="ann")
        assert games["count"] == "1"
        game = await again.expect("game")
        assert game["match"] == "m1" and game["players"] == ",".join(live[0]["players"])
        assert game["winner"] == end["name"] and game["reason"] == end["reason"]
        assert game["totals"] == end["totals"] and game["variant"] == "moscow"
        await again.send("games bob")
        assert (await again.expect("games", name="bob"))["count"] == "1"
        await again.send("games nobody")
        assert (await again.expect("error"))["code"] == "unknown-player"
        # match numbers go on after the stored ones, without a gap: the first server
        # drew a block of them (m1 and the rest unused), and gave back the rest as it
        # stopped (SQLite; docs/protocol.md §5.2)
        carl = await connect.machine(port, "carl")
        await seat_pair(again, carl)
        start = await carl.expect("event", kind="start")
        assert start["match"] == "m2"


async def test_export_without_a_database(tmp_path: Path) -> None:
    code, out = await _export(tmp_path / "missing.sqlite3")
    assert code == 2 and out == ""
