"""The server side of a ladder: `reserve` (admins only), `seek reserved`, the deal limit,
duplicate decks from a fixed seed, and a reserved player who never comes."""

from __future__ import annotations

import functools
import json
import random
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import trio
from trio.testing import MockClock

from deberc_net.server.store import open_store
from deberc_net.server.store_writer import StoreWriter

from .client import LineClient, fields, is_event, play_machine
from .conftest import Connector, make_config, running_server

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]
T = TypeVar("T")


async def test_reserve_is_for_registered_admins(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(admins=["boss"])
    # (the admin's name is no guest's: test_attacks.py::test_an_admins_name_is_never_...)
    other = await connect.machine(port, "other", "pw-other")
    assert fields(await other.reply("reserve 2 seats=a1,b1", "error"))[1]["code"] == ("not-allowed")


async def test_reserve_refuses_bad_arguments(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    for line, code in [
        ("reserve 2 seats=p1", "bad-argument"),  # one name for two seats
        ("reserve 2 seats=p1,P1", "bad-argument"),  # one player, however cased
        ("reserve 2 seats=p1,p2 deals=x", "bad-argument"),
        ("reserve 2 seats=p1,p2 deals=0", "bad-argument"),
        ("reserve 2 frob seats=p1,p2", "bad-rules"),
        ("reserve 3 seats=p1,p2,p3 short dave", "bad-rules"),  # dave is two-handed
    ]:
        assert fields(await boss.reply(line, "error"))[1]["code"] == code, line


async def test_reserved_tables_seat_by_name_play_one_deal_and_share_the_deck(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    p = {n: await connect.machine(port, n) for n in ("pa", "pb", "pc", "pd")}
    # pb seeks before there is a table: it waits
    await p["pb"].send("seek reserved")
    assert (await p["pb"].expect("ok", cmd="seek"))["reserved"] == "1"
    await boss.send("reserve 2 moscow to-301 seats=pa,pb seed=board-7 deals=1")
    first = int((await boss.expect("ok", cmd="reserve"))["table"])
    await boss.send("reserve 2 moscow to-301 seats=pd,pc seed=board-7 deals=1")
    second = int((await boss.expect("ok", cmd="reserve"))["table"])
    assert (await p["pb"].expect("ok", cmd="sit"))["seat"] == "1"  # its seat, not the first
    # an outsider cannot take pa's seat
    outsider = await connect.machine(port, "zed")
    assert fields(await outsider.reply(f"sit {first}", "error"))[1]["code"] == "seat-reserved"
    for name in ("pa", "pc", "pd"):  # these come after the reservation: seated at once
        await p[name].send("seek reserved")
    assert (await p["pa"].expect("ok", cmd="sit"))["seat"] == "0"
    assert (await p["pc"].expect("ok", cmd="sit"))["seat"] == "1"
    assert (await p["pd"].expect("ok", cmd="sit"))["seat"] == "0"

    ends: dict[str, str] = {}

    async def run(name: str, seed: int) -> None:
        ends[name] = await play_machine(p[name], random.Random(seed), timeout=10)

    async with trio.open_nursery() as nursery:
        for i, name in enumerate(p):
            nursery.start_soon(run, name, i)

    # the admin observed both boards from the start: one deal each, then the end
    records: dict[int, dict[str, Any]] = {}
    match_ends: dict[int, dict[str, str]] = {}
    while len(match_ends) < 2:
        line = await boss.read_until(lambda x: x.startswith("record ") or is_event(x, "match-end"))
        tag, f = fields(line)
        if tag == "record":
            records[int(f["table"])] = json.loads(f["text"])
        else:
            match_ends[int(f["table"])] = f
    for table in (first, second):
        end, record = match_ends[table], records[table]
        assert end["reason"] == "deals" and end["seed"] == "board-7"
        assert record["deal_no"] == 1 and record["options"] == ["to-301"]
        assert [int(t) for t in end["totals"].split(",")] == record["totals"]
    assert records[first]["players"] == ["pa", "pb"]
    assert records[second]["players"] == ["pd", "pc"]
    # duplicate: the same seed deals the same cards from the same dealer
    assert records[first]["deck"] == records[second]["deck"]
    assert records[first]["dealer"] == records[second]["dealer"]
    assert ends["pa"] == ends["pb"] and is_event(ends["pa"], "match-end")


async def test_a_reserved_player_who_never_comes_forfeits_after_the_away_limit(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(admins=["boss"], away_limit_ms=300)
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    pa = await connect.machine(port, "pa")
    await connect.machine(port, "pb")  # online, but it never seeks
    await pa.send("seek reserved")
    await pa.expect("ok", cmd="seek")
    started = trio.current_time()
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    await pa.expect("ok", cmd="sit", table=table)
    end = await boss.expect("event", kind="match-end", table=table)
    assert trio.current_time() - started >= 0.25
    assert (end["reason"], end["forfeit"], end["winner"], end["name"]) == ("away", "1", "0", "pa")
    assert end == await pa.expect("event", kind="match-end")
    # pa is back in the lobby: it may seek again; the match is stored as finished
    await pa.send("seek reserved")
    assert (await pa.expect("ok", cmd="seek"))["reserved"] == "1"
    await pa.send("games")
    assert (await pa.expect("games"))["count"] == "1"
    game = await pa.expect("game")
    assert game["reason"] == "away" and game["winner"] == "pa"


async def test_a_reserved_player_who_leaves_before_the_start_forfeits_too(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(admins=["boss"], away_limit_ms=300)
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    pa = await connect.machine(port, "pa")
    pb = await connect.machine(port, "pb")
    await boss.send("reserve 2 seats=pa,pb deals=1")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    await pb.send("seek reserved")
    await pb.expect("ok", cmd="sit", table=table)
    await pb.send("leave")  # the board stays for it (or its forfeit), it does not close
    await pb.expect("ok", cmd="leave")
    await pa.send("seek reserved")
    await pa.expect("ok", cmd="sit", table=table)
    end = await boss.expect("event", kind="match-end", table=table)
    assert (end["reason"], end["forfeit"], end["name"]) == ("away", "1", "pa")


async def test_an_admin_reserving_with_watch_ends_is_told_only_each_match_start_and_end(
    start_server: StartServer, connect: Connector, register: Register, db_path: Path
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    reply = await boss.reply("reserve 2 seats=pa,pb watch=some", "error")
    assert fields(reply)[1]["code"] == "bad-argument"
    pa, pb, table = await _board_k1(port, connect, boss)
    ends = await _played(pa, pb)
    assert ends[0] == ends[1]
    end = await boss.expect("event", kind="match-end", table=table)
    assert end["reason"] == "deals" and end["seed"] == "-"  # a board's end tells no seed
    start_at = boss.lines.index(next(x for x in boss.lines if is_event(x, "start")))
    told = boss.lines[start_at:]
    # nothing else of the table: no observe, no state, no play, no record
    assert [fields(x)[1]["kind"] for x in told] == ["start", "match-end"]
    assert fields(told[0])[1]["match"] and fields(told[0])[1]["table"] == table
    assert ends[0] == told[1]  # the players' very line
    # the board's match is not finished in the store until the board is released: its
    # replay (the web's /games/ID), its seed, 'games' and 'finger' would tell its deck
    # to the seatings still to play it (docs/protocol.md §5.5a)
    match_id = fields(told[0])[1]["match"]
    store = open_store(db_path)
    try:
        assert store.match_records(match_id) == [] and store.recent_games("pa") == []
    finally:
        store.close()
    await pb.send("games pa")
    assert (await pb.expect("games", name="pa"))["count"] == "0"
    # its records are held for the players as ever, and released to them, stored first
    await boss.send("release k1")
    assert (await boss.expect("ok", cmd="release"))["records"] == "1"
    store = open_store(db_path)
    try:
        (record,) = store.match_records(match_id)
        assert json.loads(record)["deal_no"] == 1 and json.loads(record)["seed"]  # filled in
        (game,) = store.recent_games("pa")
        assert (game["match"], game["reason"]) == (match_id, "deals")
    finally:
        store.close()
    assert json.loads(fields(await pa.read_until(lambda x: x.startswith("record ")))[1]["text"])


async def test_a_boards_finished_seating_is_kept_withheld_through_a_stop_until_release(
    connect: Connector, register: Register, db_path: Path
) -> None:
    """A clean stop (SIGTERM) neither lists a board's finished seating (its deck readable
    while the board may still be played) nor loses its result: the release after the
    restart stores it (docs/scaling.md, docs/protocol.md §5.5a)."""
    await register("boss", "pw")
    config = make_config(db_path, admins=["boss"])
    async with running_server(config) as port:
        boss = await connect.machine(port, "boss", "pw")
        pa, pb = await connect.machine(port, "pa"), await connect.machine(port, "pb")
        for player in (pa, pb):
            await player.send("seek reserved")
        await boss.send("reserve 2 seats=pa,pb seed=b1 deals=1 board=k1 watch=ends")
        table = (await boss.expect("ok", cmd="reserve"))["table"]
        async with trio.open_nursery() as nursery:
            for seed, player in enumerate((pa, pb)):
                nursery.start_soon(
                    functools.partial(play_machine, timeout=10), player, random.Random(seed)
                )
        match_id = (await boss.expect("event", kind="start", table=table))["match"]
        await boss.expect("event", kind="match-end", table=table)
    store = open_store(db_path)
    try:  # stopped: not listed, its deals withheld
        assert store.recent_games("pa") == [] and store.match_records(match_id) == []
        assert store.finished_match(match_id) is None
    finally:
        store.close()
    async with running_server(config) as port:
        boss = await connect.machine(port, "boss", "pw")
        await boss.send("release k1")
        await boss.expect("ok", cmd="release")
        (game,) = await trio.to_thread.run_sync(recent_games, db_path, "pa")
        assert (game["match"], game["reason"]) == (match_id, "deals")  # its own result


def recent_games(db_path: Path, name: str) -> list[dict[str, Any]]:
    store = open_store(db_path)
    try:
        return store.recent_games(name)
    finally:
        store.close()


async def test_a_ladder_board_is_watched_by_the_servers_admins_only(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """A board's deck is played again in its other seatings (docs/protocol.md §5.5a):
    whoever watched one seating would know the next one's cards. So only admins watch
    it, and it is listed to nobody; a reserved table that is no board is as any other."""
    port = await start_server(admins=["boss", "chief"])
    await register("boss", "pw")
    await register("chief", "pw2")
    boss = await connect.machine(port, "boss", "pw")
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=b1 watch=ends")
    board = (await boss.expect("ok", cmd="reserve"))["table"]
    await boss.send("reserve 2 seats=pc,pd seed=s deals=1")
    plain = (await boss.expect("ok", cmd="reserve"))["table"]
    pc = await connect.machine(port, "pc")  # a ladder's bot, and any outsider
    zed = await connect.machine(port, "zed")
    for who in (pc, zed):
        refused = fields(await who.reply(f"observe {board}", "error"))[1]
        assert refused == {
            "code": "not-allowed",
            "text": f"table {board} is a ladder's board: only the server's admins watch it, so"
            " nobody sees its deck before every seating of it is played",
        }
        await who.send("tables")
        assert (await who.expect("tables"))["count"] == "1"  # the plain one alone
        assert (await who.expect("table"))["id"] == plain
    await zed.send(f"observe {plain}")
    await zed.expect("ok", cmd="observe", table=plain)
    chief = await connect.machine(port, "chief", "pw2")
    await chief.send(f"observe {board}")
    await chief.expect("ok", cmd="observe", table=board)


async def test_a_seating_still_played_at_its_boards_release_is_a_plain_match_from_then_on(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """An interrupted ladder on --server releases the boards it started while their
    seatings play on (docs/bots.md): such a seating's records went on into the held map,
    never released and never freed (a leak), and its end withheld the seed of a board
    already public. Now the release makes it a plain match."""
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    pa, pb, table = await _board_k1(port, connect, boss)
    await boss.expect("event", kind="start", table=table)
    assert fields(await boss.reply("release k1", "ok"))[1]["records"] == "0"
    ends = await _played(pa, pb)
    assert all(fields(end)[1]["seed"] == "b1" for end in ends), ends
    for player in (pa, pb):  # told as played, as at any table
        assert any(x.startswith(f"record table={table} ") for x in player.lines), player.lines
    await boss.expect("event", kind="match-end", table=table)
    assert fields(await boss.reply("release k1", "ok"))[1]["records"] == "0"  # nothing held


async def test_seek_reserved_at_a_waiting_board_is_answered_before_the_next_line(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """A table reserved for the player already: its 'ok cmd=sit' is the reply to 'seek
    reserved', so it comes before the next line's (docs/protocol.md §2.3). Failed
    before: the table's Sit was not counted as the line's request, 'ok cmd=ping' came
    first."""
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    pa = await connect.machine(port, "pa")
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=k1 watch=ends")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    start = len(pa.lines)
    await pa.send_raw(b"seek reserved\nping\n")
    await pa.expect("ok", cmd="ping")
    replies = [x for x in pa.lines[start:] if x.startswith("ok ")]
    assert replies[0].startswith(f"ok cmd=sit table={table} seat=0 "), replies


async def _board_k1(
    port: int, connect: Connector, boss: LineClient
) -> tuple[LineClient, LineClient, str]:
    """pa and pb seeking, and boss's table reserved for them as board k1 (watch=ends):
    the two players and the table."""
    pa, pb = await connect.machine(port, "pa"), await connect.machine(port, "pb")
    for player in (pa, pb):
        await player.send("seek reserved")
    await boss.send("reserve 2 seats=pa,pb seed=b1 deals=1 board=k1 watch=ends")
    return pa, pb, (await boss.expect("ok", cmd="reserve"))["table"]


async def _played(*players: LineClient) -> list[str]:
    """Each plays at random until his match ends: the match-end lines, in the order of
    the players."""
    ends: dict[LineClient, str] = {}

    async def run(client: LineClient, seed: int) -> None:
        ends[client] = await play_machine(client, random.Random(seed), timeout=10)

    async with trio.open_nursery() as nursery:
        for seed, client in enumerate(players, 1):
            nursery.start_soon(run, client, seed)
    return [ends[client] for client in players]


async def test_a_seating_ending_while_its_board_is_released_is_listed_with_its_seed(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The release's store write is under way (the test holds the file's write lock)
    when the seating's one deal ends: its end is written after the release, and it must
    not be kept withheld for a release that has been (its records and replay hidden for
    good), nor its seed kept from its players."""
    # what the server waits for its store's writer to do, in the order queued (its
    # writer's order): the test goes on once the release, then the end, are queued
    runs: list[Callable[[], object]] = []
    writer_run = StoreWriter.run

    async def noted(writer: StoreWriter, job: Callable[[], T]) -> T:
        runs.append(job)  # (queued in the call, before it first waits)
        return await writer_run(writer, job)

    async def queued(count: int) -> None:
        with trio.fail_after(20):
            while len(runs) < count:
                await trio.sleep(0.01)

    monkeypatch.setattr(StoreWriter, "run", noted)
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    pa, pb, table = await _board_k1(port, connect, boss)
    await boss.expect("event", kind="start", table=table)
    last: list[LineClient] = []

    def last_card(client: LineClient) -> Callable[[str], bool]:
        def stop(line: str) -> bool:  # the deal's last card is this player's to play
            tag, f = fields(line)
            if tag == "ask" and f.get("phase") == "play" and "," not in f["hand"] and f["trick"]:
                last.append(client)
                return True
            return is_event(line, "match-end")

        return stop

    ends: dict[LineClient, str] = {}

    async def run(client: LineClient, seed: int) -> None:
        ends[client] = await play_machine(client, random.Random(seed), last_card(client))

    async with trio.open_nursery() as nursery:  # the other one waits for the match's end
        nursery.start_soon(run, pa, 5)  # (a deal played out, not all passed)
        nursery.start_soon(run, pb, 6)
        with trio.fail_after(20):
            while not last:
                await trio.sleep(0.01)
        [player] = last
        ask = fields(ends.pop(player))[1]
        lock = sqlite3.connect(db_path, isolation_level=None)
        try:
            lock.execute("BEGIN IMMEDIATE")
            before = len(runs)
            await boss.send("release k1")
            await queued(before + 1)  # (the server's writer thread waits on the lock)
            release = runs[before]
            assert isinstance(release, functools.partial), release
            assert release.func.__name__ == "release_board", release
            await player.send(f"{ask['legal']} seq={ask['seq']}")
            await queued(before + 2)  # its end is queued behind the release
        finally:
            lock.rollback()
            lock.close()
        ends[player] = await player.read_until(lambda line: is_event(line, "match-end"))
    await boss.expect("ok", cmd="release")
    for end in ends.values():
        assert fields(end)[1]["seed"] == "b1", end
    with sqlite3.connect(db_path) as con:
        assert con.execute("SELECT count(*) FROM running").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM matches").fetchone() == (1,)
    con.close()


async def test_reserve_refuses_a_wrong_word_naming_it_and_opens_no_table(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    # each was taken before: 'sead=5' ignored (a random deck for a ladder that asked
    # for a fixed one), the second deals= winning, a seat reserved for the empty name
    # or one nobody may log in as (its table forfeiting at the away limit), and a bare
    # 'reserve' answered 'seats= names 2 different players'
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    for line, words in [
        ("reserve", "reserve PLAYERS VARIANT"),
        ("reserve 2 moscow", "seats= names the players"),
        ("reserve 2 seats=pa,pb sead=5", "not sead= (seed=?)"),
        ("reserve 2 seats=pa,pb deals=3 deals=9", "deals= is given twice"),
        ("reserve 2 seats=pa,pb seed=", "seed= is given no value"),
        ("reserve 2 seats=pa,", "an empty name"),
        ("reserve 2 seats=pa,no!such", "'no!such'"),
    ]:
        refusal = fields(await boss.reply(line, "error"))[1]
        assert refusal["code"] == "bad-argument", line
        assert words in refusal["text"], (line, refusal["text"])
    assert fields(await boss.reply("tables", "tables"))[1]["count"] == "0"


async def _tables(client: LineClient) -> list[str]:
    await client.send("tables")
    head = await client.read_until(lambda x: x.startswith("tables "))
    count = int(fields(head)[1]["count"])
    return [await client.read_until(lambda x: x.startswith("table ")) for _ in range(count)]


async def test_tables_marks_a_reserved_table_to_an_admin_only(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """An admin's 'tables' marks a reserved table, `reserved=1` appended (docs/protocol.md
    §5.2, §1) and ' (reserved)' in words; anyone else's list is as before (before: the
    admin could not tell it from a table its players had opened)."""
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    zed = await connect.machine(port, "zed")
    await boss.send("reserve 2 moscow seats=pa,pb")
    reserved = (await boss.expect("ok", cmd="reserve"))["table"]
    await zed.send("new 2")
    opened = (await zed.expect("ok", cmd="sit"))["table"]
    listed = {fields(x)[1]["id"]: x for x in await _tables(boss)}
    assert listed[reserved].endswith(" reserved=1"), listed
    assert "reserved=" not in listed[opened], listed
    assert not [x for x in await _tables(zed) if "reserved=" in x]
    await boss.send("style human")
    await boss.read_until(lambda x: "human" in x)
    await boss.send("tables")
    row = await boss.read_until(lambda x: x.startswith(f"Table {reserved}"))
    assert row.startswith(f"Table {reserved} (reserved): "), row
    other = await boss.read_until(lambda x: x.startswith(f"Table {opened}"))
    assert "(reserved)" not in other, other


async def test_reserve_refuses_a_player_count_no_game_is_for_as_typed(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """'reserve 5' named the 'moscow' its admin never typed ("'moscow' is for 2, 3 or 4
    players, not 5"), as 'new 5' did before s44: the count typed is said, and the
    counts there are; no table is reserved (a leftover, s44)."""
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    for line in ("reserve 5 seats=p1,p2,p3,p4,p5", "reserve 1 moscow seats=p1"):
        players = line.split()[1]
        assert fields(await boss.reply(line, "error"))[1] == {
            "code": "bad-rules",
            "text": f"no game here is played by {players}: PLAYERS is 2, 3 or 4"
            " (reserve [PLAYERS] [VARIANT] [OPTION ...])",
        }, line
    await boss.send("tables")
    assert (await boss.expect("tables"))["total"] == "0"
