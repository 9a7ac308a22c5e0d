"""The 'tables' messages a ``serve --workers`` worker publishes (docs/scaling.md): each
fits in one PostgreSQL notification, or the bus drops it whole."""

from __future__ import annotations

import json
from pathlib import Path

import trio
import trio.testing

from deberc_net.game.match import Match
from deberc_net.protocol.events import TableState
from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.bus import LOBBY, Bus
from deberc_net.server.cluster.node import Node
from deberc_net.server.cluster.payloads import (
    seeks_messages,
    settings_for_bus,
    table_for_bus,
    tables_messages,
)
from deberc_net.server.lobby import Lobby
from deberc_net.server.matchmaking import GameSettings
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.testing import build_ruleset, rule_book

from .client import FOUR_PLAYER_OPTIONS
from .conftest import make_config


async def test_twenty_full_tables_of_long_cyrillic_names_are_all_told(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """Twenty four-seat tables held for a rematch, with names of 20 Cyrillic letters
    (2 bytes each), told at once (a worker's 'hello' tells everything): 20 to a message
    was over PostgreSQL's 8000 bytes, so the message and its ``gone`` were dropped, and
    the other workers kept a closed table (this test failed with 20 to a message)."""
    config = make_config(tmp_path / "tables.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        rules = build_ruleset(4, "moscow", ("pair-combinations", "to-1001"))
        told = []
        for number in range(1000, 1020):
            table = Table(number, rules, lobby, config, number)
            names = [("Жданович" * 3)[:19] + str(seat) for seat in range(4)]  # 20 letters
            table.seats = list(names)
            table.reserved = tuple(names)
            told.append(table_for_bus(table, config.away_limit_ms))
        gone = list(range(2000, 2030))
        messages = tables_messages(told, gone)
        assert [t for m in messages for t in m["open"]] == told
        assert [m["gone"] for m in messages] == [[]] * (len(messages) - 1) + [gone]
        bus = Bus(config.db, 123456, lambda _: None)  # not opened: publish only queues
        for message in messages:
            bus.publish(LOBBY, message)
        queued = bus.waiting()
        assert len(Bus.payloads(queued)) == len(messages) == len(queued)
    finally:
        store.close()


async def test_a_private_table_with_a_long_invitation_list_is_told_in_parts(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """A private table's invitations last as long as it does: 400 names of 20 Cyrillic
    letters are over 16,000 bytes, past one notification; told whole, the bus dropped
    the message, and the other workers never listed the table to those invited. It is
    told in parts that each fit, and the receiving worker's copy has every name."""
    config = make_config(tmp_path / "tables.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        table = Table(1000, build_ruleset(2), lobby, config, 1000, private=True)
        table.seats = ["Жданович", None]
        table.invited = {f"{('жданович' * 3)[:16]}{n:04}" for n in range(400)}
        told = [table_for_bus(table, config.away_limit_ms)]
        messages = tables_messages(told, [2000])
        assert len(messages) > 1
        bus = Bus(config.db, 123456, lambda _: None)  # not opened: publish only queues
        for message in messages:
            bus.publish(LOBBY, message)
        assert len(Bus.payloads(bus.waiting())) == len(messages)  # none dropped
        other = Lobby(config, store, nursery, rule_book())
        node = Node(other, WorkerPlace(1, 2), 654321)
        for message in messages:
            node.hear({**message, "w": 123456})
        assert other.tables[1000].invited == table.invited
        node.hear({**tables_messages([{**told[0], "invited": []}], [])[0], "w": 123456})
        assert other.tables[1000].invited == set()  # told again whole: replaced
    finally:
        store.close()


async def test_many_seeks_of_different_games_are_told_in_parts_that_each_fit(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """A tryout's one address: 40 connections, each seeking a 4-player game with 15 of
    these options. Told whole in every 'tables' message, the list passed PostgreSQL's
    8000 bytes: the bus dropped every one, the heartbeat's too, and the other worker
    took this one for dead. In parts, each fits; the other worker holds them all, and
    a new list (its part 0) replaces the old."""
    games = [
        GameSettings(4, "moscow", tuple(o for o in FOUR_PLAYER_OPTIONS if o != left))
        for left in FOUR_PLAYER_OPTIONS
    ] * 3  # (repeated: the list is as long as 42 seekers' would be)
    told = sorted([*settings_for_bus(g), n % 2 == 0] for n, g in enumerate(games))
    messages = seeks_messages(told)
    assert len(messages) > 1 and [m["part"] for m in messages] == list(range(len(messages)))
    assert [g for m in messages for g in m["seeks"]] == told
    config = make_config(tmp_path / "seeks.sqlite3")
    bus = Bus(config.db, 123456, lambda _: None)  # not opened: publish only queues
    for message in messages:
        bus.publish(LOBBY, message)
    assert len(Bus.payloads(bus.waiting())) == len(messages)  # none dropped
    store = open_store(config.db)
    try:
        node = Node(Lobby(config, store, nursery, rule_book()), WorkerPlace(1, 2), 654321)
        for message in messages:
            node.hear({**message, "w": 123456})
        assert node.seeks[123456] == set(games)
        assert node.tables_wait[123456] == {g for n, g in enumerate(games) if n % 2 == 0}
        node.hear({**seeks_messages([[2, "moscow", [], False]])[0], "w": 123456})
        assert node.seeks[123456] == {GameSettings(2, "moscow", ())}
        assert node.tables_wait[123456] == set()
    finally:
        store.close()


async def test_the_match_is_told_for_the_web_face_only_of_a_table_it_shows(
    nursery: trio.Nursery, tmp_path: Path, virtual_clock: trio.testing.MockClock
) -> None:
    """docs/web.md: the web face shows neither a private table nor a ladder's board, so
    their match does not cross the bus, nor a board's away seats: a board at bot speed
    would be told again every snapshot (SNAPSHOT_S) for nothing. (Virtual time stands still:
    the seat just went away, so all of the away limit is left.)"""
    config = make_config(tmp_path / "match.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        rules = build_ruleset(2, "moscow", ())
        shown, private, board = (Table(n, rules, lobby, config, n) for n in (1, 2, 3))
        private.private, board.board = True, "b1"
        for table in (shown, private, board):
            table.seats = ["ann", "bob"]
            table.match = Match(rules, seed="s", names=("ann", "bob"), match_id=f"m{table.id}")
            table.clocks.away_since = {1: trio.current_time()}
        # what hangs (hanging-separate's later sums too), for the web face's table
        assert shown.match is not None
        shown.match.hanging, shown.match.hanging_pending = 35, (35,)
        told = {t.id: table_for_bus(t, config.away_limit_ms) for t in (shown, private, board)}
        assert told[1]["match"] == ["m1", [0, 0], 1, [6, 6], 35, [35], None]  # no talon
        assert told[1]["away"] == [[1, config.away_limit_ms]]
        assert (told[3]["match"], told[3]["away"]) == (None, [])
        # a private table's away seats are told ('tables' names them to its own people
        # on every worker, docs/protocol.md §5.2), its match not
        assert (told[2]["match"], told[2]["away"]) == (None, [[1, config.away_limit_ms]])
        # a Tertz table's talon, appended (docs/web.md: /api/tables/N's 'talon')
        tertz = build_ruleset(2, "tertz", ())
        drawing = Table(4, tertz, lobby, config, 4)
        drawing.seats = ["ann", "bob"]
        drawing.match = Match(tertz, seed="s", names=("ann", "bob"), match_id="m4")
        assert table_for_bus(drawing, config.away_limit_ms)["match"][4:] == [0, [], 14]
    finally:
        store.close()


async def test_answers_to_one_session_merged_for_the_bus_still_fit_in_a_notification() -> None:
    # each answer names its request (node.py 'done'): merged without end, a burst of
    # answers without text made one message over PostgreSQL's 8000 bytes, and the bus
    # dropped it whole (failed before)
    bus = Bus("postgresql://not-opened", 123456, lambda _: None)  # publish only queues
    answered = list(range(10**9, 10**9 + 1000))
    for request in answered:
        text = {"k": "text", "s": 5, "text": "", "asks": 0, "done": [request]}
        bus.publish("w7", text, merge=True)
    sent = [json.loads(payload) for _, payload in Bus.payloads(bus.waiting())]
    assert [request for message in sent for request in message["done"]] == answered


async def test_another_workers_running_table_is_listed_with_its_deal_and_score(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """'tables' on any worker tells a running match's deal and score (the human line,
    docs/protocol.md §5.2), from what its owner told of it for the web face."""
    config = make_config(tmp_path / "listed.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        rules = build_ruleset(2, "moscow", ())
        table = Table(7, rules, lobby, config, 7)
        table.seats = ["ann", "bob"]
        table.match = Match(rules, seed="s", names=("ann", "bob"), match_id="m7")
        table.state = TableState.PLAYING
        assert (table.info().deal, table.info().score) == (1, (0, 0))
        told = tables_messages([table_for_bus(table, config.away_limit_ms)], [])
        other = Lobby(config, store, nursery, rule_book())
        node = Node(other, WorkerPlace(1, 2), 654321)
        node.hear({**told[0], "w": 123456})
        assert other.tables[7].info() == table.info()
    finally:
        store.close()


async def test_a_private_tables_players_away_are_told_to_the_other_workers(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """'tables' names the players away (away=NAME, docs/protocol.md §5.2), a private
    table's to its own people too: on another worker they were never named, the bus
    told a private table with nobody away."""
    config = make_config(tmp_path / "away.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        table = Table(5, build_ruleset(3, "moscow", ()), lobby, config, 5, private=True)
        table.seats = ["bob", "ann", "carl"]
        table.clocks.away(1, trio.current_time())
        told = table_for_bus(table, config.away_limit_ms)
        assert [seat for seat, _ in told["away"]] == [1]
    finally:
        store.close()
