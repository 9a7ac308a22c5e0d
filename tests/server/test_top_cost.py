"""`top` reads the store only within the connection's lists allowance, and only the page
it answers with (docs/protocol.md §5.18, docs/security.md). A hostile pass: `top` read a
game's whole standings before its allowance was asked, so a line refused (a page past
the last) or answered cost as much as the club's rated players (30,000 rated: 0.2 s a
line; `top` alone of a newcomer read every game's), and four connections sending
`top moscow 2 99999` kept a core busy while spending nothing. Real sockets, a real
SQLite file."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from deberc_net.server.store import open_store
from deberc_net.server.store.base import Outcome, RatingResult

from .client import fields
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


async def test_a_top_refused_for_its_page_spends_the_lists_allowance_too(
    start_server: StartServer, connect: Connector
) -> None:
    """Before, a page past the last was refused free after the store was read: a flood
    of them was never metered. Now each `top` spends a list before the read."""
    port = await start_server(lists_burst=2, lists_per_s=0.001)
    eve = await connect.machine(port, "eve")
    await eve.send_raw(b"top moscow 2 5\n" * 3 + b"top\ntop moscow 3\n")
    await eve.send("ping")
    mark = eve.pos
    await eve.expect("ok", cmd="ping")
    codes = [fields(x)[1]["code"] for x in eve.lines[mark : eve.pos] if x.startswith("error ")]
    assert codes == ["bad-argument", "bad-argument", "slow-down", "slow-down", "slow-down"]
    refused = fields(await eve.reply("top"))[1]
    seconds = -(-int(refused.pop("wait_ms")) // 1000)  # its wait, said both ways
    assert refused == {
        "code": "slow-down",
        "cmd": "top",
        "text": f"too many 'top' at once: wait {seconds} s",
    }
    bob = await connect.machine(port, "bob")  # per connection: the others' are theirs
    assert fields(await bob.reply("top"))[0] == "top"
    # syntax refused before the allowance is asked: free, as always
    assert fields(await bob.reply("top moscow 7"))[1]["code"] == "bad-argument"
    assert fields(await bob.reply("top"))[0] == "top"


async def test_top_reads_its_page_of_the_standings_and_the_newcomer_the_clubs_game(
    start_server: StartServer, connect: Connector, db_path: Path
) -> None:
    """The page read alone is the page of the whole standings: its ranks, its names,
    the total; a newcomer's `top` picks the game with the most rated players."""
    store = open_store(db_path)
    try:
        for i in range(250):  # 250 rated in four-handed Kharkov, one in Moscow for two
            rating = RatingResult(f"p{i:03d}", 25.0, 8.0, float(1000 - i), Outcome.WON)
            store.save_ratings(f"m{i}", "kharkov", 4, [rating])
        store.save_ratings("x1", "moscow", 2, [RatingResult("ann", 25.0, 8.0, 1.0, Outcome.WON)])
        whole = store.standings("kharkov", 4)
    finally:
        store.close()
    port = await start_server()
    eve = await connect.machine(port, "eve")  # rated nowhere
    for asked, page in (("top", 1), ("top kharkov 4 3", 3), ("top харьков 4 2", 2)):
        await eve.send(asked)
        head = await eve.expect("top")
        count = int(head["count"])
        assert (head["variant"], head["players"], head["total"]) == ("kharkov", "4", "250")
        assert (head["page"], head["pages"], count) == (str(page), "3", 100 if page < 3 else 50)
        rows = [await eve.expect("rated") for _ in range(count)]
        first = (page - 1) * 100
        assert [r["rank"] for r in rows] == [str(first + 1 + i) for i in range(count)]
        assert [r["name"] for r in rows] == [r.name for r in whole[first : first + count]]
    ann = await connect.machine(port, "ann")  # his own game first, as before
    head = fields(await ann.reply("top", "top"))[1]
    assert (head["variant"], head["players"], head["total"]) == ("moscow", "2", "1")
    refused = fields(await eve.reply("top kharkov 4 4", "error"))[1]
    assert refused["text"] == "top [VARIANT] [PLAYERS] [PAGE]: pages 1 to 3"


async def test_top_and_finger_cost_their_page_not_the_club(
    start_server: StartServer, connect: Connector, db_path: Path
) -> None:
    """20,000 rated in Moscow for two: twenty `top` and `finger` lines read a page and
    count a place. They read the whole standings each, some 0.2 s of CPU a line here
    (4 s in all); now a few ms. The server runs in this process: its CPU is ours."""
    store = open_store(db_path)
    store.close()  # (the schema made) the rows written at once, not a match each
    with sqlite3.connect(db_path) as db:
        db.executemany(
            "INSERT INTO player_ratings (key, name, variant, players, mu, sigma, rating,"
            " games, wins, losses, draws) VALUES (?, ?, 'moscow', 2, 25, 8, ?, 1, 1, 0, 0)",
            [(f"p{i:05d}", f"p{i:05d}", float(i % 977)) for i in range(20_000)],
        )
    db.close()
    port = await start_server(lists_burst=100)
    eve = await connect.machine(port, "eve")
    await eve.reply("ping", "ok")
    started = time.process_time()
    for _ in range(10):
        head = fields(await eve.reply("top", "top"))[1]
        assert (head["total"], head["pages"]) == ("20000", "200")
        await eve.send("finger p01953")  # the second of the best rating: ties by key
        await eve.expect("finger")
        assert (await eve.expect("rated"))["rank"] == "2"
    spent = time.process_time() - started
    assert spent < 1.0, spent
