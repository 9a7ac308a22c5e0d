"""``deberc-net serve --workers 2`` end to end: real worker processes on one loopback
port sharing one lobby over PostgreSQL (docs/scaling.md)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sys
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest
import trio
from trio_websocket import ConnectionClosed, ConnectionRejected, open_websocket_url

from deberc_net.server.accounts import set_password
from deberc_net.server.store import open_store
from tests.ladder.helpers import run_cli
from tests.server.client import (
    LineClient,
    close_all,
    fields,
    is_event,
    play_machine,
    random_legal,
    sent_by,
)
from tests.web.live import follow_sizes, text_of

from .workers import (
    SETTINGS,
    Workers,
    playing_across,
    served_workers,
    settings_file,
    until_listed,
)


async def test_workers_above_one_need_postgresql(tmp_path: Path) -> None:
    db = tmp_path / "deberc.sqlite3"
    done = await trio.run_process(
        [sys.executable, "-m", "deberc_net", "serve", "--workers", "2", "--db", str(db)],
        capture_stdout=True,
        capture_stderr=True,
        check=False,
    )
    assert done.returncode == 2
    assert b"--workers above 1 needs --db postgresql://" in done.stderr
    assert not db.exists()  # refused before anything was opened


@pytest.mark.timeout(30)
async def test_workers_on_a_settings_files_sqlite_db_say_to_change_the_file(
    tmp_path: Path,
) -> None:
    """After a move-store, an operator who had not yet changed the file's db was told
    to give '--db postgresql://…', a flag he had not used: it names the file's db now."""
    settings = tmp_path / "club.toml"
    settings.write_text('[server]\ndb = "club.sqlite3"\n', encoding="utf-8")
    with trio.fail_after(20):
        done = await trio.run_process(
            [sys.executable, "-m", "deberc_net", "serve", "--workers", "2", "--config", settings],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.decode() == (
        f"deberc-net serve: --workers above 1 needs PostgreSQL, and db in {settings} is the"
        f' SQLite file {tmp_path / "club.sqlite3"}: set db = "postgresql://…" there (a club'
        " moves there by 'deberc-net move-store': docs/scaling.md), or give --db"
        " postgresql://… (the workers share their lobby through PostgreSQL; an SQLite file"
        " serves one worker)\n"
    )
    assert not (tmp_path / "club.sqlite3").exists()


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_workers_that_cannot_start_stop_their_parent(tmp_path: Path) -> None:
    closed = socket.socket()  # a port nothing listens on: no database there
    closed.bind(("127.0.0.1", 0))
    url = f"postgresql://nobody:s3cret@127.0.0.1:{closed.getsockname()[1]}/nothing"
    command = [sys.executable, "-m", "deberc_net", "serve", "--workers", "2"]
    with trio.fail_after(60):
        done = await trio.run_process(
            [*command, "--port", "0", "--db", url, "--http-port", "off"],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    closed.close()
    assert done.returncode == 2  # as one server that cannot reach its database
    assert b"worker_failed_to_start" in done.stderr and b"Traceback" not in done.stderr
    # docs/scaling.md §Pointing a server at PostgreSQL (test_scaling_doc_audit.py checks
    # a plain serve's): libpq's reason, the password shown as ***, nowhere in clear
    assert b"s3cret" not in done.stdout + done.stderr
    last = done.stderr.decode().strip().splitlines()[-1]  # the worker's own reason
    shown = url.replace(":s3cret@", ":***@")
    assert last.startswith(f"deberc-net serve: cannot connect to PostgreSQL at {shown}: "), last
    assert "Connection refused" in last, last


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_workers_whose_web_port_is_in_use_say_so_in_one_line(postgres_url: str) -> None:
    """Worker 0 serves the web face: its port in use is the one line and status 2 a
    single server gives (it was a traceback and status 1)."""
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    web = held.getsockname()[1]
    last = await _refused_in_one_line(
        ["--port", "0", "--db", postgres_url, "--http-port", str(web)]
    )
    held.close()
    assert last.startswith(f"deberc-net serve: cannot listen on 127.0.0.1:{web} (web): "), last


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_workers_refuse_a_port_another_serve_workers_listens_on(postgres_url: str) -> None:
    """Another `serve --workers` holds the port with SO_REUSEPORT, which ours would
    share: it started and the kernel handed it some of the other's connections, into
    its own lobby (a tryout's). Refused in one line, status 2, as a single server is."""
    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    held.bind(("127.0.0.1", 0))
    held.listen()
    port = held.getsockname()[1]
    last = await _refused_in_one_line(
        ["--port", str(port), "--db", postgres_url, "--http-port", "off"]
    )
    held.close()
    assert last.startswith(f"deberc-net serve: cannot listen on 127.0.0.1:{port}: "), last


async def _refused_in_one_line(arguments: list[str]) -> str:
    """`serve --workers 2 ARGUMENTS`, which cannot start: status 2 and no traceback;
    its last line."""
    command = [sys.executable, "-m", "deberc_net", "serve", "--workers", "2", *arguments]
    with trio.fail_after(60):
        done = await trio.run_process(
            command, capture_stdout=True, capture_stderr=True, check=False
        )
    assert done.returncode == 2 and b"Traceback" not in done.stderr, done.stderr
    return done.stderr.decode().strip().splitlines()[-1]


async def _play_across(workers: Workers, opened: list[LineClient]) -> None:
    ann = await workers.connect(0, "ann", "ann-secret-1")
    bob = await workers.connect(1, "bob", "bob-secret-1")
    carol = await workers.connect(1, "carol")
    opened += [ann, bob, carol]
    # one lobby: each worker lists everyone, and a lobby 'say' reaches the other worker
    who = await until_listed(bob, "who", "ann")
    assert "bob" in who and "carol" in who
    await carol.send("say hello from worker 1")
    said = await ann.expect("say", **sent_by("carol"))
    assert said["text"] == "hello from worker 1"
    # two seekers of one game on different workers meet at one table
    dan = await workers.connect(0, "dan")
    eli = await workers.connect(1, "eli")
    opened += [dan, eli]
    # eli, on worker 1, is told only its asks (docs/protocol.md §4.3) at worker 0's table
    await eli.reply("style machine tell=asks", "ok")
    await dan.send("seek 2 kharkov")
    await dan.expect("ok", cmd="seek")
    await eli.send("seek 2 kharkov")
    await eli.expect("ok", cmd="seek")
    met = (await dan.expect("ok", cmd="sit", timeout=30))["table"]
    assert (await eli.expect("ok", cmd="sit", timeout=30))["table"] == met
    # a guest's seat, held after his connection drops, is his token's on either worker
    token = dan.token
    await dan.aclose()
    thief = await workers.reach(1, "thief")
    opened.append(thief)
    await thief.send("style machine")
    await thief.send("login dan")
    await thief.expect("error", code="name-in-use")
    dan = await workers.connect(1, "dan", token=token)
    opened.append(dan)
    back = await dan.read_until(lambda x: fields(x)[0] in ("ask", "state"))
    assert fields(back)[1]["table"] == met
    # eli's view, asked for now, comes after every line the table told it before: its
    # ask, if it is to act, and no event (not even dan's away and back)
    await eli.send("state")
    told = int(fields(back)[1]["seq"])
    await eli.read_until(
        lambda x: x.startswith(("ask ", "state ")) and int(fields(x)[1]["seq"]) >= told
    )
    assert not [line for line in eli.lines if line.startswith("event ")]
    # ann opens a table on worker 0; bob, on worker 1, sees it and sits
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite carol")  # carol, on worker 1, is told there
    await ann.expect("ok", cmd="invite")
    await carol.expect("invite", table=table, **sent_by("ann"))
    await until_listed(bob, "tables", f"id={table} ")
    await bob.send(f"sit {table}")
    assert (await bob.expect("ok", cmd="sit"))["table"] == table
    await carol.send(f"observe {table}")
    await carol.expect("ok", cmd="observe", table=table)
    # bob (on worker 1, at worker 0's table) plays a few calls, then ann's connection
    # drops and she logs in on worker 1: her seat comes back there
    rng = random.Random(7)
    asks = {"ann": 0}

    def after_two(line: str) -> bool:
        if fields(line)[0] == "ask":
            asks["ann"] += 1
        return asks["ann"] > 2

    ends: list[str] = []

    async def bob_plays() -> None:
        ends.append(await play_machine(bob, random.Random(2), timeout=30))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(bob_plays)
        pending = await play_machine(ann, rng, stop=after_two, timeout=30)
        assert fields(pending)[0] == "ask"
        await ann.aclose()
        again = await workers.connect(1, "ann", "ann-secret-1")
        opened.append(again)
        assert workers.holder(again) == 1
        ends.append(await play_machine(again, rng, timeout=30))
    assert all(is_event(e, "match-end") for e in ends)
    assert fields(ends[0])[1]["seq"] == fields(ends[1])[1]["seq"]
    # the watcher on worker 1 saw the same end, in the same order of events
    seen = await carol.read_until(lambda x: is_event(x, "match-end"))
    assert fields(seen)[1]["seq"] == fields(ends[0])[1]["seq"]
    # the table closed: the lobby of either worker lists it no more
    await until_listed(again, "tables", f"id={table} ", present=False)
    # a house bot comes to a table of worker 1 (through worker 1's own port: the shared
    # one could hand it to worker 0, which does not know its name)
    await again.send("new 2")
    await again.expect("ok", cmd="sit")
    await again.send("bot random")
    theirs = (await again.expect("ok", cmd="bot"))["name"]
    await again.expect("ask", timeout=30)  # it sat: the match began
    # and one at worker 0 gets a name of its own: each worker counted from 1, and the
    # second house-random-1's login threw the first out of its seat (a tryout's)
    yuki = await workers.connect(0, "yuki")
    opened.append(yuki)
    await yuki.send("new 2")
    await yuki.expect("ok", cmd="sit")
    await yuki.send("bot random")
    mine = (await yuki.expect("ok", cmd="bot"))["name"]
    assert mine != theirs, mine
    await yuki.expect("ask", timeout=30)
    await yuki.send("leave!")
    await again.send("state")  # its bot is still seated: no one away at its table
    await again.read_until(lambda x: x.startswith(("ask ", "state ")))
    assert not [x for x in again.lines if is_event(x, "away")], again.lines
    await again.send("leave!")


async def _kill_one(workers: Workers, opened: list[LineClient], url: str) -> None:
    kim = await workers.connect(0, "kim")
    lou = await workers.connect(0, "lou")
    mia = await workers.connect(1, "mia")
    ned = await workers.connect(1, "ned")
    ora = await workers.connect(1, "ora")
    opened += [kim, lou, mia, ned, ora]
    await kim.send("new 2")
    doomed = (await kim.expect("ok", cmd="sit"))["table"]
    await lou.send(f"sit {doomed}")
    await lou.expect("ok", cmd="sit")
    await mia.send("new 2")
    lasting = (await mia.expect("ok", cmd="sit"))["table"]
    await ned.send(f"sit {lasting}")
    await ned.expect("ok", cmd="sit")
    await until_listed(ora, "tables", f"id={doomed} ")
    await ora.send(f"observe {doomed}")
    await ora.expect("ok", cmd="observe", table=doomed)
    # worker 0's table plays one deal (its record stored), then worker 0 is killed
    stop_at_record = lambda line: fields(line)[0] == "record"  # noqa: E731
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, lou, random.Random(3), stop_at_record, 30)
        record = await play_machine(kim, random.Random(4), stop=stop_at_record, timeout=30)
    match_id = json.loads(fields(record)[1]["text"])["match"]
    await _deal_stored(url, match_id)  # (queued as it is told: server/store_writer.py)
    os.kill(workers.pids[0], signal.SIGKILL)
    await kim.wait_closed()
    # worker 1 plays on: its table's match ends
    ends: list[str] = []

    async def plays(client: LineClient, seed: int) -> None:
        ends.append(await play_machine(client, random.Random(seed), timeout=30))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(plays, mia, 5)
        nursery.start_soon(plays, ned, 6)
        # within a few seconds the watcher is told, and the lobby forgets the table
        closes = await ora.expect("info", timeout=30)
        assert f"table {doomed}" in closes["text"].lower()
        await until_listed(ora, "tables", f"id={doomed} ", present=False)
    assert len(ends) == 2 and all(is_event(e, "match-end") for e in ends)
    # the dead worker's match is ended in the store: its stored deal is exported (the
    # command's main in a thread of this process: what it reads is the point, #8)
    with trio.fail_after(15):
        while True:
            done = await trio.to_thread.run_sync(run_cli, ["records", "export", "--db", url])
            assert done.returncode == 0, done.stderr
            exported = [json.loads(line) for line in done.stdout.splitlines()]
            if any(r["match"] == match_id for r in exported):
                break
            await trio.sleep(0.2)


async def _deal_stored(url: str, match_id: str) -> None:
    """Wait until a deal of ``match_id`` is on disk."""

    def count() -> int:
        with psycopg.connect(url) as db:
            row = db.execute("SELECT count(*) FROM deals WHERE match_id = %s", (match_id,))
            found = row.fetchone()
            assert found is not None  # (count(*) has its one row)
            return int(found[0])

    with trio.fail_after(15):
        while not await trio.to_thread.run_sync(count):
            await trio.sleep(0.05)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
@pytest.mark.production_password_cost  # the workers check the admin's password at it
async def test_help_rematch_games_and_a_clean_stop_across_workers(
    postgres_url: str, tmp_path: Path
) -> None:
    store = open_store(postgres_url)
    set_password(store, "boss", "boss-secret-1")
    store.close()
    # a worker is dead only after a minute of silence here: one forgotten sooner said bye
    patient = SETTINGS.replace("server_dead_ms = 10000", "server_dead_ms = 60000")
    patient += "http_port = 0\n"  # the web face, on worker 0, on a free port
    patient += 'admins = ["boss"]\n'
    # a rematch offer stands 10 s, not a minute: the live pages of the last match close
    # when its offer ends untaken (web/feed.py), and its rematches are asked in
    # milliseconds (the minute was waited out in full: 60 of this test's 65 s)
    patient += "rematch_ms = 10000\n"
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path, patient)) as workers:
            [parent] = [e for e in workers.events if e.get("event") == "listening"]
            assert "web" not in parent, parent  # (its web face is on: no 'web=off')
            try:
                await _a_board_hidden_across(workers, opened)
                await _own_match_elsewhere_after_one_watched(workers, opened)
                await _after_a_match_across(workers, opened)  # (worker 0 stopped at its end)
            finally:
                await close_all(opened)


async def _own_match_elsewhere_after_one_watched(
    workers: Workers, opened: list[LineClient]
) -> None:
    """'history' (and 'sheet', 'last') at no table tells a player's own last match, or
    the one he watched to its end if that ended later (docs/protocol.md §5.12, §5.17).
    The store keeps whole seconds, so a tie is the watched one's: his own match's end
    forgets the one watched before. His own match at another worker's table did not:
    his worker never heard of its end, and told him the match he had watched."""
    eve, uma, vic = [await workers.connect(0, n) for n in ("eve", "uma", "vic")]
    cid = await workers.connect(1, "cid")
    opened += [eve, uma, vic, cid]
    for _ in range(3):  # (both ends in one second: most times, not always)
        own = await _watched_then_own_elsewhere(eve, uma, vic, cid)
        assert await _history_told(eve) == own


async def _watched_then_own_elsewhere(
    eve: LineClient, uma: LineClient, vic: LineClient, cid: LineClient
) -> str:
    """eve (worker 0) watches uma and vic's match at worker 0 to its end (vic leaves
    it), then plays her own at cid's table at worker 1, which cid leaves at once:
    the id of her own match."""
    await uma.send("new 2")
    table = (await uma.expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await vic.send(f"sit {table}")
    await eve.read_until(lambda x: is_event(x, "start"), 30)
    await vic.send("leave!")
    await eve.read_until(lambda x: is_event(x, "match-end"), 30)
    await playing_across(cid, eve)
    await cid.send("leave!")
    end = await eve.read_until(lambda x: is_event(x, "match-end"), 30)
    return fields(end)[1]["match"]


async def _history_told(client: LineClient) -> str:
    """The match 'history' at no table tells ``client`` (asked till its table's end
    has reached its worker: a 'history' at the table is no answer here)."""
    while True:
        await client.send("history")
        line = await client.read_until(lambda x: x.startswith(("history ", "error ")), 30)
        if line.startswith("history ") and " match=" in line:
            return fields(line)[1]["match"]
        await trio.sleep(0.05)  # (a real server's bus: no virtual time)


async def _a_board_hidden_across(workers: Workers, opened: list[LineClient]) -> None:
    """Only admins watch a ladder's board (docs/protocol.md §5.5a): the other worker's
    copy of the table knows it is a board, so its lobby and its web face (worker 0's)
    hide it as the owner does."""
    boss = await workers.connect(1, "boss", "boss-secret-1")
    zed = await workers.connect(0, "zed")
    opened += [boss, zed]
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=b1 watch=ends")
    board = (await boss.expect("ok", cmd="reserve"))["table"]
    await boss.send("reserve 2 seats=pc,pd seed=s deals=1")
    plain = (await boss.expect("ok", cmd="reserve"))["table"]
    listed = await until_listed(zed, "tables", f"id={plain} ")  # worker 1's tables, told here
    assert f"id={board} " not in listed
    refused = fields(await zed.reply(f"observe {board}", "error"))[1]
    assert refused["code"] == "not-allowed"
    http_port = next(e["port"] for e in workers.events if e.get("event") == "http_listening")
    with pytest.raises(ConnectionRejected):  # as for a table that is not there
        async with open_websocket_url(f"ws://127.0.0.1:{http_port}/live/table/{board}"):
            pass
    for client in (boss, zed):
        opened.remove(client)
        await client.aclose()


async def _help_lines(client: LineClient) -> list[str]:
    """'help' sent: its lines, to the last one (other lines in between skipped)."""
    await client.send("help")
    lines: list[str] = []
    while not lines or not lines[-1].startswith(("'calls' explains", "At a table")):
        lines.append(fields(await client.read_until(lambda x: fields(x)[0] == "help"))[1]["text"])
    return lines


async def _after_a_match_across(workers: Workers, opened: list[LineClient]) -> None:
    ann = await workers.connect(0, "ann")
    bob = await workers.connect(1, "bob")
    opened += [ann, bob]
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await until_listed(bob, "tables", f"id={table} ")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    ends: list[str] = []

    async def plays(client: LineClient, seed: int) -> None:
        ends.append(await play_machine(client, random.Random(seed), timeout=30))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(plays, ann, 11)
        # bob, at worker 0's table from worker 1: 'help' lists the calls legal now
        ask = fields(await bob.read_until(lambda x: fields(x)[0] == "ask", 30))[1]
        lines = await _help_lines(bob)
        assert f"Your table calls now: {' | '.join(ask['legal'].split(','))}" in lines
        assert any(line.strip().startswith("leave") for line in lines)
        await bob.send(f"{random_legal(ask, random.Random(12))} seq={ask['seq']}")
        await plays(bob, 13)
    assert all(is_event(e, "match-end") for e in ends)
    # 'games' on either worker lists the match, wherever it was played
    await bob.send("games ann")
    assert (await bob.expect("games", name="ann"))["count"] == "1"
    game = await bob.expect("game", table=table)
    assert game["players"] == "ann,bob"
    await ann.send("games bob")
    await ann.expect("games", name="bob")
    assert (await ann.expect("game", table=table))["match"] == game["match"]
    await bob.send("finger ann")
    assert game["match"] in (await bob.expect("finger", name="ann"))["last"].split(",")
    # a rematch asked from worker 1 of worker 0's match: both sit at a new table
    await bob.send("rematch")
    asked = await bob.expect("ok", cmd="rematch", timeout=30)
    assert (asked["table"], asked["asked"], asked["waiting"]) == (table, "bob", "ann")
    assert (await ann.expect("rematch", timeout=30))["waiting"] == "ann"
    await ann.send("rematch")
    await ann.expect("ok", cmd="rematch")
    for client in (ann, bob):
        again = await client.read_until(lambda x: fields(x)[0] in ("ask", "state"), 30)
        assert fields(again)[1]["table"] != table
    # bob leaves the new match (a forfeit: it is over), ann asks again; bob opening a
    # table on worker 1 calls the offer off on worker 0, as sitting elsewhere does
    await bob.send("leave!")
    await bob.read_until(lambda x: is_event(x, "match-end"), 30)
    await ann.read_until(lambda x: is_event(x, "match-end"), 30)
    await ann.send("rematch")
    assert (await ann.expect("ok", cmd="rematch", timeout=30))["waiting"] == "bob"
    await bob.send("new 2")
    bobs = (await bob.expect("ok", cmd="sit"))["table"]
    off = await ann.expect("rematch", timeout=30)
    assert (off["off"], off["by"]) == ("elsewhere", "bob")
    # worker 0's web face watches bob's table on worker 1 live, to its close
    await until_listed(ann, "tables", f"id={bobs} ")
    http_port = next(e["port"] for e in workers.events if e.get("event") == "http_listening")
    live = f"ws://127.0.0.1:{http_port}/live/table/{bobs}"
    async with open_websocket_url(live) as page, open_websocket_url(live) as second:
        seen = await text_of(page)
        assert seen.startswith(f"ok cmd=observe table={bobs} "), seen
        also = await text_of(second)  # it joins the first one's feed
        assert also.startswith(f"ok cmd=observe table={bobs} "), also
        await ann.send(f"sit {bobs}")
        await ann.expect("ok", cmd="sit")
        sizes: list[int] = []
        while "kind=start" not in seen:
            seen += (message := await text_of(page))
            sizes = follow_sizes(sizes, message)
        assert f"table={bobs} kind=seated name=ann" in seen
        # the page's hand backs (and a Tertz page's talon, worked out from them) are
        # the hands the owner holds, once dealt: the page was told no sizes (this
        # failed: worker 0 read them from its copy of the table, which has no match)
        tag, hand = fields(await ann.read_until(lambda x: fields(x)[0] in ("ask", "state"), 30))
        with trio.fail_after(30):
            while sizes != [len(hand["hand"].split(","))] * 2:
                seen += (message := await text_of(page))
                sizes = follow_sizes(sizes, message)
        if tag == "ask":  # read here: answered here (play_machine waits for the next one)
            await ann.send(f"{random_legal(hand, random.Random(5))} seq={hand['seq']}")
        # and after the extra cards and some plays, told or worked out as they come
        # (the owner tells the sizes only when the plays do not)

        def reached(line: str) -> bool:
            return is_event(line, "match-end") or int(fields(line)[1].get("seq", 0)) >= 12

        async with trio.open_nursery() as players:
            for seat, client in enumerate((ann, bob)):
                players.start_soon(play_machine, client, random.Random(seat), reached)
        held = {}
        for client in (ann, bob):
            await client.send("state")
            now = fields(await client.read_until(lambda x: fields(x)[0] in ("ask", "state")))[1]
            held[int(now["seat"])] = len(now["hand"].split(","))
        with trio.fail_after(30):
            while sizes != [held[0], held[1]]:
                seen += (message := await text_of(page))
                sizes = follow_sizes(sizes, message)
        await bob.send("leave!")
        # bob opens a table: the offer of the match he left is off (off=elsewhere), and
        # the pages go at once, not at its end, 10 s on (a page kept to an offer's end:
        # tests/store/test_workers_page_rematch.py's offer run out)
        await bob.read_until(lambda x: is_event(x, "match-end"), 30)
        await bob.send("new 2")
        await bob.expect("ok", cmd="sit")
        for socket in (page, second):
            with pytest.raises(ConnectionClosed):  # the table closed, its offer ended: the page
                while True:
                    text = await text_of(socket)
                    seen, also = (seen + text, also) if socket is page else (seen, also + text)
    assert "kind=match-end" in seen and "kind=match-end" in also
    # worker 0 stops cleanly: worker 1 forgets it at once (its bye), not after a minute
    carol = await workers.connect(0, "carol")
    opened.append(carol)
    await until_listed(bob, "who", "carol")
    stopped = workers.pids[0]
    os.kill(stopped, signal.SIGTERM)
    with trio.fail_after(30):
        while not any(e.get("event") == "worker_left" for e in workers.events):
            await trio.sleep(0.1)
    # the line names the one gone by its server id, which its worker_listening told
    left = next(e for e in workers.events if e.get("event") == "worker_left")
    listening = [e for e in workers.events if e.get("event") == "worker_listening"]
    assert (left["worker"], left["left"]) == (
        1,
        next(e["server"] for e in listening if e["worker"] == 0),
    )
    await until_listed(bob, "who", "carol", present=False)


async def _a_private_table_is_listed_to_one_invited_from_another_worker(
    workers: Workers, opened: list[LineClient]
) -> None:
    """docs/protocol.md §5.2: a private table is listed to those invited to it, on
    whichever worker they are (its invitations travel with its copy), and is no table
    to the others there (§5.3). The first part: no other table is listed yet."""
    pam = await workers.connect(0, "pam")
    quin = await workers.connect(1, "quin")
    rex = await workers.connect(1, "rex")
    opened += [pam, quin, rex]
    await until_listed(pam, "who", "quin")
    await pam.send("new 2 private")
    table = (await pam.expect("ok", cmd="sit"))["table"]
    await pam.send("invite quin")
    await quin.expect("invite", table=table, timeout=30)
    listed = await until_listed(quin, "tables", f"id={table} ")
    assert "private=1" in listed
    await rex.send("tables")  # not invited: nothing listed
    assert (await rex.expect("tables"))["count"] == "0"
    for line in (f"sit {table}", f"observe {table}"):  # nor there (§5.3): as of no table
        await rex.send(line)
        assert await rex.expect("error") == {
            "code": "unknown-table",
            "text": f"there is no table {table}",
        }, line


async def _invitations_at_another_workers_table_share_the_senders_chat_allowance(
    workers: Workers, opened: list[LineClient]
) -> None:
    """docs/security.md §3: 'invite' spends from the 'say' allowance of its sender, as
    the settings size it (SHARED_SETTINGS: two, none back); a player at a table another
    worker holds too (his invitation is handled there, where his connection's allowance
    is not)."""
    dot = await workers.connect(0, "dot")
    eve = await workers.connect(1, "eve")
    fay = await workers.connect(1, "fay")
    gus = await workers.connect(1, "gus")
    opened += [dot, eve, fay, gus]
    await dot.send("new 4")
    table = (await dot.expect("ok", cmd="sit"))["table"]
    await until_listed(eve, "tables", f"id={table} ")
    await until_listed(eve, "who", "gus")
    await eve.send(f"sit {table}")
    await eve.expect("ok", cmd="sit", timeout=30)
    await eve.send("invite fay")  # the first of two
    await eve.expect("ok", cmd="invite", timeout=30)
    await eve.send("say hello")  # the second
    await dot.expect("say", timeout=30, **sent_by("eve"))
    await eve.send("invite gus")  # none left
    refused = await eve.read_until(lambda x: x.startswith(("ok cmd=invite", "error ")), timeout=30)
    assert fields(refused)[1].get("code") == "slow-down", refused
    await trio.sleep(0.5)  # (an invitation sent would be on its way by now)
    assert not [line for line in gus.lines if line.startswith("invite ")]


async def _web_get(http_port: int, path: str) -> str:
    """The page's text; '' while it is not there (404: the table not yet told here)."""

    def fetch() -> str:
        url = f"http://127.0.0.1:{http_port}{path}"
        try:
            with urllib.request.urlopen(url, timeout=30) as reply:
                return str(reply.read().decode())
        except urllib.error.HTTPError as error:
            assert error.code == 404, error
            return ""

    return await trio.to_thread.run_sync(fetch)


async def _the_web_face_shows_another_workers_match(
    workers: Workers, opened: list[LineClient]
) -> None:
    """docs/scaling.md: the web face (worker 0's) shows worker 1's running table as its
    owner does: deal, score, match, hand sizes, and a player away (docs/web.md); it
    showed it as waiting for players."""
    hal = await workers.connect(0, "hal")
    ivy = await workers.connect(1, "ivy")
    jon = await workers.connect(1, "jon")
    opened += [hal, ivy, jon]
    await ivy.send("new 2")
    table = int((await ivy.expect("ok", cmd="sit"))["table"])
    await jon.send(f"sit {table}")
    await jon.expect("ok", cmd="sit")
    # the first to speak is the dealer's next, drawn by lot: ivy is asked (``ask``) or
    # told the state (``state``), each with the deal and her hand
    asked = fields(await ivy.read_until(lambda x: fields(x)[0] in ("ask", "state"), 30))[1]
    http = next(e["port"] for e in workers.events if e.get("event") == "http_listening")
    with trio.fail_after(30):
        while not (shown := await _web_get(http, f"/api/tables/{table}")) or (
            json.loads(shown)["match"] is None
        ):
            await trio.sleep(0.1)
    summary = json.loads(shown)
    assert summary["state"] == "playing"
    assert summary["deal"] == int(asked["deal"]) == 1
    assert summary["score"] == [0, 0]
    assert summary["match"]
    hand = asked["hand"].split(",")
    assert summary["hand_sizes"] == [len(hand), len(hand)]
    assert (summary["hanging"], summary["hanging_after"]) == (0, [])  # as its owner told
    assert summary["talon"] is None  # a Deberts table's (a Tertz one's: test_bus_tables.py)
    page = await _web_get(http, f"/table/{table}")
    assert "Waiting for players" not in page and "Deal 1" in page
    # jon drops: his seat is held, and the web face says so
    seat = summary["players"].index("jon")
    opened.remove(jon)
    await jon.aclose()
    with trio.fail_after(30):
        while json.loads(await _web_get(http, f"/api/tables/{table}"))["away_s"][seat] is None:
            await trio.sleep(0.1)
    away = json.loads(await _web_get(http, f"/api/tables/{table}"))["away_s"][seat]
    assert 0 < away <= 120
    assert '<a href="/players/jon">jon</a> (away)' in await _web_get(http, "/")


# The parts below test independent things on one start of two workers (a start costs
# two workers' imports, rule loading and connections to PostgreSQL: about 1.7 s of CPU
# and seconds of wall time): the web face on, and the chat allowance the invite part
# sizes (the other parts say at most one 'invite' a sender). Each part logs in names of
# its own; the private part comes first (no other table is listed yet), the kill last.
SHARED_SETTINGS = SETTINGS + "http_port = 0\nsay_burst = 2.0\nsay_per_s = 0.001\n"


@pytest.mark.timeout(240)  # seven parts, each on its own limit
async def test_two_workers_privacy_web_face_play_resume_and_a_worker_killed(
    postgres_url: str, tmp_path: Path
) -> None:
    """A private table listed to one invited from another worker, invitations at another
    worker's table spending the sender's chat allowance, the web face showing another
    worker's match; one lobby across workers, play, watch and resume across them; a
    worker killed: its tables end, the other's play on; and docs/settings.md: each
    worker's lines carry ``worker``, its index."""
    opened: list[LineClient] = []
    with trio.fail_after(200):
        async with served_workers(
            postgres_url, settings_file(tmp_path, SHARED_SETTINGS)
        ) as workers:
            try:
                await _a_private_table_is_listed_to_one_invited_from_another_worker(workers, opened)
                await _invitations_at_another_workers_table_share_the_senders_chat_allowance(
                    workers, opened
                )
                await _the_web_face_shows_another_workers_match(workers, opened)
                await _play_across(workers, opened)
                started = list(workers.events)  # (the killed worker is started again)
                await _kill_one(workers, opened, postgres_url)
            finally:
                await close_all(opened)
    logins = {e["name"]: e["worker"] for e in workers.events if e.get("event") == "login"}
    assert [logins[name] for name in ("pam", "quin", "dot", "eve", "hal", "ivy", "jon")] == [
        0, 1, 0, 1, 0, 1, 1,
    ]  # fmt: skip
    written = [e for e in workers.events if "conn" in e or "table" in e]
    assert written and all(e.get("worker") in (0, 1) for e in written)
    # which worker a worker_lost line's 'lost' (a server id) was: its worker_listening says
    servers = {e["server"]: e["worker"] for e in started if e["event"] == "worker_listening"}
    assert sorted(servers.values()) == [0, 1] and all(isinstance(s, int) for s in servers)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_worker_whose_database_fails_after_it_listened_says_why_in_one_line(
    postgres_url: str, tmp_path: Path
) -> None:
    """The database drops every connection (a restart, an admin's kill): each worker's
    bus fails; it says why in one line (no traceback), and the parent starts another
    (worker_died with that reason), which plays on; a clean stop then is status 0."""
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path)) as workers:
            [parent] = [e for e in workers.events if e.get("event") == "listening"]
            assert parent["web"] == "off", parent  # --http-port off: said, not silent
            dropped = await trio.to_thread.run_sync(_drop_connections, postgres_url)
            assert dropped >= 2
            with trio.fail_after(30):
                while sum(e.get("event") == "worker_listening" for e in workers.events) < 4:
                    await trio.sleep(0.1)
            died = [e for e in workers.events if e.get("event") == "worker_died"]
            assert len(died) == 2 and all(e["status"] == 2 for e in died), died
            assert all("database" in str(e["reason"]) for e in died), died
            assert not [e for e in workers.events if "raw" in e], workers.events
            ann = await workers.connect(0, "ann")  # the new workers serve
            await ann.aclose()
        assert workers.process.returncode == 0


def _drop_connections(url: str) -> int:
    """Every other connection to the database closed by PostgreSQL: how many."""
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)
