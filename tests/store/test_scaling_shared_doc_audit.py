"""An audit of docs/scaling.md's "Several servers on one database", promise by promise
(the rest of the page: test_scaling_doc_audit.py, test_scaling_workers_doc_audit.py).
Each promise, and (→) the tests that pin it: a module under tests/ and its tests, "here"
for this module's. Both stores unless said.

Any number of `serve` processes share one PostgreSQL database or one SQLite file
    → store/test_serve_postgres.py
      test_two_servers_on_one_database_number_matches_apart_and_end_only_their_own (two
      processes, PostgreSQL); store/test_store.py
      test_a_match_ends_while_another_server_writes_the_same_sqlite_file;
    → here: test_plain_servers_on_one_database_share_the_store_not_the_lobby
Match numbers from the store, a PostgreSQL sequence, an SQLite AUTOINCREMENT table
    → store/test_scaling_doc_audit.py test_the_tables_the_document_lists_are_the_schemas_own
      (sequences of those names); store/test_store.py
      test_match_numbers_drawn_at_once_by_two_stores_never_repeat
migration 4 starts them after the highest `m<N>` stored before; a store's first draw
moves them past the highest the matches hold (0.1.0's server on an upgraded database)
    → store/test_store.py test_match_numbers_start_above_those_old_code_wrote_after_the_upgrade,
      test_match_numbers_go_on_after_those_stored_before_the_store_drew_them
never reused; a table opened and closed without a match leaves a gap (its number is
drawn as the table opens)
    → store/test_store.py test_match_numbers_drawn_in_blocks_ascend_and_are_never_drawn_again;
    → here: test_plain_servers_on_one_database_share_the_store_not_the_lobby (m1 and
      m2 drawn by tables left, the next match m3; the other server's m17)
16 at a time ahead of need (`MATCH_NUMBER_BLOCK`); another server on the database goes
on past the block
    → store/test_scaling_doc_audit.py test_the_numbers_the_document_states_are_the_codes;
    → here: test_plain_servers_on_one_database_share_the_store_not_the_lobby
"a server that played `m1` and was restarted numbers its next match `m17`": so on
PostgreSQL only (store/test_serve_postgres.py
test_serve_on_postgres_keeps_accounts_and_games_across_a_restart); on SQLite a clean
stop gives its unused block back and the restarted server's next match is `m2`
(docs/protocol.md §5.2, server/test_table_numbers.py
test_a_restarted_server_numbers_its_tables_and_matches_on_from_the_last_ones): a slip,
corrected (the page says which store)
a gap is no lost match; `games` and `matches` list every one played
    → here: test_plain_servers_on_one_database_share_the_store_not_the_lobby (the
      `matches` rows are the matches played, the gap's number in none)
Server ids: a serving store gets a row in `servers`; each running match stored carries
it (`running.server`)
    → store/test_store.py test_a_server_ends_only_its_own_matches_and_those_of_dead_servers
      (store level); here: test_plain_servers_on_one_database_share_the_store_not_the_lobby
      (two servers: two rows, each running match under its server's id)
Heartbeats every `heartbeat_ms` (5 s), `server_dead_ms` (30 s): the numbers
    → store/test_scaling_doc_audit.py test_the_numbers_the_document_states_are_the_codes;
      server/test_config.py (the defaults; `server_dead_ms` more than `heartbeat_ms`,
      enforced: "setting server_dead_ms expects more than heartbeat_ms")
by the database's clock (`now()`, `julianday('now')`), so machines' clocks need not
agree → here: test_heartbeats_and_deaths_are_timed_by_the_databases_clock (the
statements read: one machine's clock cannot be set apart from the database's in a test)
a server silent for `server_dead_ms` is dead: whoever beats next, or a server starting,
deletes its row and ends its running matches, exportable, seedless
    → store/test_store.py test_a_server_ends_only_its_own_matches_and_those_of_dead_servers,
      test_a_serving_open_ends_the_matches_an_earlier_run_left_running;
      store/test_serve_postgres.py (a SIGKILLed `serve`: the other ends its match and
      plays on); a server starting:
    → here: test_a_server_starting_ends_the_dead_servers_matches_and_those_with_no_owner
bans read at each login, on any server → here:
test_plain_servers_on_one_database_share_the_store_not_the_lobby (banned on A, refused
at B's login); store/test_bans.py (the store's)
mutes: each server's memory, read from the store at each heartbeat; made or lifted on
one, held or ended on every other; the player told once (a lift with its admin's name);
`unmute` from any; `mutes` the same on all
    → store/test_mutes_across_servers.py (all three tests)
Starting and stopping: a stop ends its own running matches and deletes its row
    → store/test_store.py test_a_server_ends_only_its_own_matches_and_those_of_dead_servers;
    → here: test_plain_servers_on_one_database_share_the_store_not_the_lobby (B stops:
      its match listed, its row gone; A's match runs on, A's row kept)
a start ends only dead servers' matches, and those written before migration 4 (no owner)
    → store/test_serve_postgres.py (the second start leaves the first's match alone);
    → here: test_a_server_starting_ends_the_dead_servers_matches_and_those_with_no_owner
a stalled server comes back alive under its own id at its next heartbeat or next deal
(its row written again)
    → store/test_plain_servers.py
      test_a_servers_row_says_it_is_plain_or_not_written_and_written_again;
      store/test_store.py (`second.heartbeat` after `silence`: 0 ended, its id kept)
a match of it ended meanwhile is withheld again by its next deal, listed once at its end,
anew at a stop or death before its end, a finished one never listed over; one with no
deal after stays ended; a deal and an ending take turns (both orders); a first deal
holds its server's row → store/test_stalled_server.py (every test), store/test_store.py
test_a_match_of_a_server_thought_dead_is_withheld_again_once_it_beats,
store/test_stall_races.py
test_a_matchs_first_deal_committed_during_an_ending_leaves_no_running_row_without_its_server
servers that each find the other dead take turns (rows locked in id order)
    → store/test_stalled_server.py test_two_servers_thought_dead_that_beat_at_once_do_not_deadlock
deadlocks still possible while servers keep ending each other as they deal: a beat
logged (`heartbeat_failed`) and tried again, a deal logged (`store_write_failed`)
    → not pinned here: forcing it is a review's hour of races; the lines are the
      settings' Logs table's (server/test_settings_doc_audit.py), a beat's failure
      tried again at the next: store/test_serve_postgres.py
      test_a_server_plays_on_while_its_heartbeat_cannot_be_stored
Ratings under `--workers`: one transaction under a per-name advisory lock, neither
update lost; on a shared SQLite file `BEGIN IMMEDIATE`
    → store/test_player_ratings.py
      test_two_servers_ending_rated_matches_of_one_name_at_once_lose_neither_update;
      store/test_rated_end_together.py (result and ratings stored together);
    → here: test_two_servers_on_one_sqlite_file_ending_rated_matches_of_one_name_lose_neither
      (two stores on one file, each end in its store writer's group: the second
      reads what the first wrote)
`heartbeat_ms` and `server_dead_ms` are `[server]` settings (`--config`)
    → server/test_config.py; server/test_settings_doc_audit.py
the tests the paragraph lists are there → store/test_scaling_doc_audit.py
test_every_file_and_test_the_document_cites_is_there
Plain servers do not share their lobby: each its own `who`, `tables`, seeks; one
service for accounts, records, `games`, ratings
    → here: test_plain_servers_on_one_database_share_the_store_not_the_lobby (`who` and
      `tables` each its own; a seek on one met by none of the other's; a registered
      account and a ban on both; `games` at one lists a match of the other)
a `serve` or `serve --workers 1` on the workers' database is such a plain server
    → here: test_serve_workers_1_on_the_workers_database_is_a_plain_server (its row
      plain, no worker); store/test_plain_servers.py (the row says plain)
"""

from __future__ import annotations

import random
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.lobby import MATCH_NUMBER_BLOCK
from deberc_net.server.ratings import new_ratings
from deberc_net.server.store import Store, is_postgres, open_store
from tests.server.client import LineClient, fields, play_machine, seat_pair
from tests.server.conftest import Connector, make_config, running_server

from .records import deal, exported, raw
from .stalls import silence
from .workers import served_workers

ROOT = Path(__file__).resolve().parents[2]


def _rows(db: str, sql: str) -> list[tuple[Any, ...]]:
    if is_postgres(db):
        with psycopg.connect(db) as conn:
            return [tuple(r) for r in conn.execute(sql.encode()).fetchall()]
    with sqlite3.connect(db) as con:
        rows = [tuple(r) for r in con.execute(sql).fetchall()]
    con.close()
    return rows


async def _a_deal_played(a: LineClient, b: LineClient) -> str:
    """``a`` and ``b`` seated in a match to 301 (their seeks), its first deal played:
    the match id."""
    await seat_pair(a, b, "2 to-301")
    async with trio.open_nursery() as nursery:

        async def play(client: LineClient, seed: int) -> None:
            await play_machine(client, random.Random(seed), stop=lambda x: x.startswith("record "))
            nursery.cancel_scope.cancel()

        nursery.start_soon(play, a, 1)
        nursery.start_soon(play, b, 2)
    (start,) = [fields(x)[1] for x in a.lines if x.startswith("event ") and "kind=start" in x]
    return start["match"]


async def _who(client: LineClient) -> str:
    await client.send("who")
    return (await client.expect("who"))["names"]


async def _tables(client: LineClient) -> str:
    await client.send("tables")
    return (await client.expect("tables"))["total"]


@pytest.mark.timeout(90)
async def test_plain_servers_on_one_database_share_the_store_not_the_lobby(store_db: str) -> None:
    store = open_store(store_db)
    try:
        set_password(store, "boss", "owners")
    finally:
        store.close()
    config = make_config(store_db, admins=["boss"])
    connect = Connector()
    try:
        with trio.fail_after(60):
            async with running_server(config) as port_a:
                # the one account, on both servers
                boss = await connect.machine(port_a, "boss", "owners")
                ann, carl = (
                    await connect.machine(port_a, "ann"),
                    await connect.machine(port_a, "carl"),
                )
                # a table opened and left at A: it drew A's first match number, m1
                await ann.send("new 2")
                await ann.expect("ok", cmd="sit")
                await ann.send("leave")
                await ann.expect("ok", cmd="leave")
                async with running_server(config) as port_b:
                    bob, eve = (
                        await connect.machine(port_b, "bob"),
                        await connect.machine(port_b, "eve"),
                    )
                    await connect.machine(port_b, "boss", "owners")
                    # each its own `who` and `tables`
                    assert await _who(ann) == "ann,boss,carl"
                    assert await _who(bob) == "bob,boss,eve"
                    await ann.send("new 2")
                    await ann.expect("ok", cmd="sit")
                    assert await _tables(bob) == "0" and await _tables(carl) == "1"
                    await ann.send("leave")  # (a second number of A's block, m2, spent)
                    await ann.expect("ok", cmd="leave")
                    # a seek at B meets no one at A: ann and carl sit together
                    await bob.send("seek 2 to-301")
                    await bob.expect("ok", cmd="seek")
                    on_a = await _a_deal_played(ann, carl)
                    assert not [x for x in bob.lines if "cmd=sit" in x]
                    await eve.send("seek 2 to-301")
                    await eve.expect("ok", cmd="sit")
                    await bob.expect("ok", cmd="sit")
                    async with trio.open_nursery() as nursery:

                        async def play(client: LineClient, seed: int) -> None:
                            await play_machine(
                                client, random.Random(seed), stop=lambda x: x.startswith("record ")
                            )
                            nursery.cancel_scope.cancel()

                        nursery.start_soon(play, bob, 3)
                        nursery.start_soon(play, eve, 4)
                    (start,) = [
                        fields(x)[1]
                        for x in bob.lines
                        if x.startswith("event ") and "kind=start" in x
                    ]
                    on_b = start["match"]
                    # numbers: A's block from m1 (two spent by tables left), B's the next
                    assert (on_a, on_b) == ("m3", f"m{1 + MATCH_NUMBER_BLOCK}")
                    # two servers, two rows; each running match under its own server's id
                    servers = {int(r[0]) for r in _rows(store_db, "SELECT id FROM servers")}
                    running = dict(_rows(store_db, "SELECT match_id, server FROM running"))
                    with trio.fail_after(30):  # (B's row written by its store writer, queued)
                        while set(running) != {on_a, on_b}:
                            await trio.sleep(0.05)
                            running = dict(_rows(store_db, "SELECT match_id, server FROM running"))
                    assert len(servers) == 2 and set(running) == {on_a, on_b}
                    assert {int(s) for s in running.values()} == servers
                    server_a, server_b = int(running[on_a]), int(running[on_b])
                    # a ban made at A is read by B's next login
                    await boss.send("ban dan")
                    await boss.expect("ok", cmd="ban")
                    dan = await connect.raw(port_b, "dan")
                    await dan.send("style machine")
                    await dan.expect("ok", cmd="style")
                    await dan.send("login dan")
                    assert (await dan.expect("error"))["code"] == "banned"
                # B stopped: its own match ended and listed, its row gone; A's untouched
                assert _rows(store_db, "SELECT id FROM servers") == [(server_a,)]
                assert _rows(store_db, "SELECT match_id, server FROM running") == [(on_a, server_a)]
                assert server_b != server_a
                listed = _rows(store_db, "SELECT id, reason FROM matches ORDER BY id")
                assert listed == [(on_b, "shutdown")]  # m1, m2: no match, in no list
                # one service for `games`: B's match, stopped, listed at A
                await boss.send("games bob")
                assert (await boss.expect("games", name="bob"))["count"] == "1"
                assert (await boss.expect("game"))["match"] == on_b
    finally:
        await connect.aclose()


@pytest.mark.timeout(60)
def test_a_server_starting_ends_the_dead_servers_matches_and_those_with_no_owner(
    store_db: str,
) -> None:
    """A running match of a server silent past `server_dead_ms`, and one written before
    migration 4 (no server): the next server to start ends both, lost, and deletes the
    dead one's row; a live server's match it leaves alone."""
    living = open_store(store_db, serving=True)
    dead = open_store(store_db, serving=True)
    assert living.server_id is not None and dead.server_id is not None
    try:
        living.add_deal(deal("m1", 1))
        living.add_deal(deal("m2", 1))
        dead.add_deal(deal("m3", 1))
        raw(store_db, "UPDATE running SET server = NULL WHERE match_id = 'm1'")  # (no owner)
        silence(store_db, dead.server_id)
        starting = open_store(store_db, serving=True)
        try:
            assert sorted(r["match"] for r in exported(starting)) == ["m1", "m3"]
            assert all(r["seed"] is None for r in exported(starting))
            assert [m for (m,) in _rows(store_db, "SELECT match_id FROM running")] == ["m2"]
            listed = _rows(store_db, "SELECT id, reason FROM matches ORDER BY id")
            assert listed == [("m1", "server-lost"), ("m3", "server-lost")]
            ids = {int(i) for (i,) in _rows(store_db, "SELECT id FROM servers")}
            assert ids == {living.server_id, starting.server_id}
        finally:
            starting.close()
    finally:
        dead.close()
        living.close()


@pytest.mark.timeout(60)
async def test_serve_workers_1_on_the_workers_database_is_a_plain_server(
    postgres_url: str, tmp_path: Path
) -> None:
    """`serve --workers 1` is `serve`: one process, no bus, its row plain (a lobby of
    its own: a worker of `--workers N` waits for no table of it)."""
    settings = tmp_path / "server.toml"
    settings.write_text("[server]\nlag_ms = 0\nshutdown_grace_ms = 100\n")
    async with served_workers(postgres_url, settings, count=1) as served:
        rows = _rows(postgres_url, "SELECT plain FROM servers")
        assert rows == [(True,)]
        said = {entry.get("event") for entry in served.events}
        assert "listening" in said and "worker_listening" not in said
        assert served.pids == {}


def test_heartbeats_and_deaths_are_timed_by_the_databases_clock() -> None:
    """Each store's beat writes the database's time, and its look for the dead compares
    with the database's time: no process's clock enters (a machine's clock cannot be set
    apart from the database's in a test, so the statements are read)."""
    store_dir = ROOT / "deberc_net" / "server" / "store"
    clocks = {"postgres.py": r"now\(\)", "sqlite.py": r"julianday\('now'\)"}
    for module, clock in clocks.items():
        text = (store_dir / module).read_text()
        beats = re.findall(r"UPDATE servers SET heartbeat = (\S+?)[,\s\"]", text)
        assert beats and all(re.fullmatch(clock, b) for b in beats), (module, beats)
        deaths = re.findall(r"DELETE FROM servers WHERE heartbeat < (\S+)", text)
        assert deaths and all(re.match(clock, d) for d in deaths), (module, deaths)


@pytest.mark.timeout(60)
def test_two_servers_on_one_sqlite_file_ending_rated_matches_of_one_name_lose_neither(
    tmp_path: Path,
) -> None:
    """ "Ratings under `--workers`", its SQLite sentence: ann's matches against bob and cal
    end at once on two servers on one file, each end as the server makes it (its
    players' ratings read, the new ones computed and stored with the result, inside
    ``ratings_held``) in its store writer's group (``Store.group``: ``BEGIN IMMEDIATE``).
    The second reads what the first wrote: her rating is that of both matches in turn."""
    shared = str(tmp_path / "club.sqlite3")
    stores = [open_store(shared), open_store(shared)]
    alone = open_store(str(tmp_path / "one.sqlite3"))  # one server: one end at a time
    matches = (("m1", ["ann", "bob"]), ("m2", ["ann", "cal"]))
    failed: list[BaseException] = []

    def end(store: Store, match: str, names: list[str], read: threading.Event,
            other: threading.Event) -> None:  # fmt: skip
        try:
            with store.group(), store.ratings_held(names, "moscow", 2):
                ratings = new_ratings(store, "moscow", names, [[0], [1]], [names[0]], [301, 120])
                read.set()
                other.wait(0.5)  # (were nothing held, the other end reads meanwhile)
                store.finish_match(
                    match, 3, names, "moscow", [], names[0], "score", [301, 120], ratings=ratings
                )
        except BaseException as exc:
            failed.append(exc)

    try:
        for store in (stores[0], alone):
            for name in ("ann", "bob", "cal"):
                set_password(store, name, f"{name}-secret-1")
        for match, names in matches:
            ratings = new_ratings(alone, "moscow", names, [[0], [1]], [names[0]], [301, 120])
            alone.finish_match(
                match, 3, names, "moscow", [], names[0], "score", [301, 120], ratings=ratings
            )
        read = [threading.Event(), threading.Event()]
        ends = [
            threading.Thread(target=end, args=(stores[0], *matches[0], read[0], read[1])),
            threading.Thread(target=end, args=(stores[1], *matches[1], read[1], read[0])),
        ]
        for thread in ends:
            thread.start()
        for thread in ends:
            thread.join(20)
        assert failed == []
        [ann] = stores[0].player_ratings("ann")
        [expected] = alone.player_ratings("ann")
        assert ann.games == 2
        assert (ann.mu, ann.sigma) == pytest.approx((expected.mu, expected.sigma))
    finally:
        for store in [*stores, alone]:
            store.close()
