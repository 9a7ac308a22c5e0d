"""What an operator reads in the log (docs/settings.md, "Logs"): the lines a tryout
found missing or noisy, captured from in-process servers (``structlog.testing``)."""

from __future__ import annotations

import json
import signal
import socket
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import structlog
import trio

from .client import LineClient, a_whole_match
from .conftest import Connector
from .process import read_until, start_server_process

Register = Callable[[str, str], Awaitable[None]]


def _events(logs: Sequence[MutableMapping[str, Any]], event: str) -> list[MutableMapping[str, Any]]:
    return [line for line in logs if line["event"] == event]


async def test_a_match_between_guests_logs_no_rated_line(
    port: int, connect: Connector, register: Register
) -> None:
    """It logged ``"ratings": {}``: a line that says nothing, at every guests' match."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    with structlog.testing.capture_logs() as logs:
        await a_whole_match(ann, bob, "2 short")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")  # (the match's end is logged by now)
    assert len(_events(logs, "match_end")) == 1
    assert _events(logs, "rated") == []


async def test_a_rated_match_logs_its_ratings(
    port: int, connect: Connector, register: Register
) -> None:
    await register("ann", "pw-ann-1")
    await register("bob", "pw-bob-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    bob = await connect.machine(port, "bob", "pw-bob-1")
    with structlog.testing.capture_logs() as logs:
        await a_whole_match(ann, bob, "2 short")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
    [rated] = _events(logs, "rated")
    assert set(rated["ratings"]) == {"ann", "bob"}


def test_a_lone_server_logs_its_lifecycle_under_log_level_warning(tmp_path: Path) -> None:
    """The checklist's log_level = "warning" (docs/security.md) left a lone server's log
    empty: no listening (start_server_process waits for it), no shutdown, no stopped."""
    proc, port = start_server_process(
        tmp_path / "quiet.sqlite3", 'log_level = "warning"\nshutdown_grace_ms = 100'
    )
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            read_until(sock, b"\n")
            sock.sendall(b"login misha\nquit\n")
            read_until(sock, b"bye")
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    events = [json.loads(line)["event"] for line in err.splitlines()]
    assert events == ["shutdown", "stopped"]  # (its 'listening' read by start_server_process)


async def test_a_full_server_logs_the_refusal_once_and_says_full(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """Three logged in of max_connections = 3: the fourth was told 'full or shutting
    down' and the log had no line. Now one line, ``refused``, with the peer and why;
    the next refusals within the minute are counted for its summary, not logged."""
    port = await start_server(max_connections=3)
    for name in ("ann", "bob", "cat"):
        await connect.machine(port, name)
    with structlog.testing.capture_logs() as logs:
        for _ in range(3):
            extra = LineClient(await trio.open_tcp_stream("127.0.0.1", port), "extra")
            await extra.wait_closed()
            await extra.aclose()
            assert extra.lines == ["error code=busy text=the server is full"]
    [refused] = _events(logs, "refused")
    assert refused["reason"] == "full" and refused["log_level"] == "warning"
    assert refused["peer"].startswith("127.0.0.1:")
    assert _events(logs, "connect") == []  # (a refused connection is no connection)


async def _refused_login(client: LineClient, line: str) -> str:
    """``line`` sent: the code of the error it was answered."""
    await client.send(line)
    return (await client.expect("error"))["code"]


async def test_each_wrong_password_is_logged_never_the_password(
    port: int, connect: Connector, register: Register
) -> None:
    """``login anna wrongpass`` ×3: the client told and closed, and the log had only
    connect and disconnect. Now a ``login_failed`` line each (fail2ban's), and the
    disconnect says why."""
    await register("anna", "right-one")
    with structlog.testing.capture_logs() as logs:
        guesser = await connect.raw(port, "guesser")
        await guesser.send("style machine")
        for n in range(3):
            assert await _refused_login(guesser, f"login anna wrongpass{n}") == "bad-password"
        await guesser.wait_closed()
        await connect.machine(port, "bob")  # (a round trip: the guesser is gone by now)
    failed = _events(logs, "login_failed")
    assert [(f["name"], f["reason"], f["log_level"]) for f in failed] == [
        ("anna", "bad-password", "warning")
    ] * 3
    peer = _events(logs, "connect")[0]["peer"]
    assert all(f["peer"] == peer and f["peer"].startswith("127.0.0.1:") for f in failed)
    [gone] = [d for d in _events(logs, "disconnect") if d["peer"] == peer]
    assert gone["reason"] == "too-many-passwords"
    assert "wrongpass" not in repr(logs) and "right-one" not in repr(logs)


async def test_free_refusals_are_logged_once_then_counted(
    start_server: Callable[..., Awaitable[int]], connect: Connector, register: Register
) -> None:
    """A slow-down or a name in use costs the asker nothing: a flood of them is one line
    each reason, then a summary (server/summaries.py), not a line each."""
    port = await start_server(failed_logins_per_name=1)
    await register("anna", "right-one")
    cat = await connect.machine(port, "cat")  # a guest holds the name
    with structlog.testing.capture_logs() as logs:
        client = await connect.raw(port, "client")
        await client.send("style machine")
        assert await _refused_login(client, "login anna wrong") == "bad-password"
        for _ in range(4):
            assert await _refused_login(client, "login anna wrong-again") == "slow-down"
            assert await _refused_login(client, "login cat") == "name-in-use"
        assert await _refused_login(client, "login anna") == "bad-password"  # no password
    failed = [(f["reason"], f["name"]) for f in _events(logs, "login_failed")]
    assert failed == [("bad-password", "anna"), ("slow-down", "anna"), ("name-in-use", "cat")]
    # no password, its password asked for: no failed login (a login_failed warning
    # before; a ladder's check of its admin logged one each run)
    [asked] = _events(logs, "password_asked")
    assert (asked["reason"], asked["name"], asked["log_level"]) == ("no-password", "anna", "info")
    assert cat.token is not None
    assert "token" not in repr(logs) and cat.token not in repr(logs)
    assert "wrong" not in repr(logs)


async def test_a_registration_is_logged_apart_and_a_login_names_its_peer(
    port: int, connect: Connector
) -> None:
    with structlog.testing.capture_logs() as logs:
        await connect.machine(port, "vera", "her-password")
        await connect.machine(port, "guest")
    [registered] = _events(logs, "register")
    logins = _events(logs, "login")
    assert [(line["name"], line["guest"]) for line in logins] == [("vera", False), ("guest", True)]
    connects = _events(logs, "connect")
    assert [line["peer"] for line in logins] == [line["peer"] for line in connects]
    assert registered["name"] == "vera" and registered["peer"] == logins[0]["peer"]
    assert logs.index(registered) < logs.index(logins[0])
    assert "her-password" not in repr(logs)


async def test_a_disconnect_says_why(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server(max_connections=2, partial_line_ms=200)
    with structlog.testing.capture_logs() as logs:
        quitter = await connect.machine(port, "quitter")
        await quitter.send("quit")
        await quitter.wait_closed()
        first = await connect.machine(port, "twice")
        # the same name again: the first closes
        await connect.machine(port, "twice", token=first.token)
        await first.wait_closed()
        idle = await connect.raw(port, "idle")  # not logged in: closed to make room
        newcomer = await connect.raw(port, "newcomer")
        await idle.wait_closed()
        await newcomer.aclose()  # its end closed first
        slow = await connect.raw(port, "slow")  # half a line, for longer than 200 ms
        await slow.send_raw(b"logi")
        await slow.wait_closed()
        for _ in range(100):  # the server notices the newcomer's close in a moment
            if len(_events(logs, "disconnect")) == 5:
                break
            await trio.sleep(0.01)
    reasons = {line["peer"]: line["reason"] for line in _events(logs, "disconnect")}
    said = [reasons.get(line["peer"]) for line in _events(logs, "connect")]
    assert said == [
        "quit",
        "logged-in-elsewhere",
        None,  # (the second "twice" is still here)
        "made-room",
        "closed-by-peer",
        "line-timeout",
    ]


async def test_a_flooder_is_disconnected_for_flood(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server(flood_burst=5.0, flood_lines_per_s=0.1)
    with structlog.testing.capture_logs() as logs:
        flooder = await connect.raw(port, "flooder")
        await flooder.send_raw(b"ping\n" * 20)
        await flooder.wait_closed()
        await connect.machine(port, "after")  # (a round trip: the flooder is gone by now)
    [gone] = _events(logs, "disconnect")
    assert gone["reason"] == "flood" and _events(logs, "flood")


@pytest.mark.timeout(60)
async def test_a_flood_of_flooders_is_one_warning_then_a_summary_a_minute(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A hostile tryout (2026-12-06): a connection and 5 KB of 'ping' cut off for
    flooding was a warning line each, as fast as one could connect (62 a second from
    one process): one whole line, then the rest counted a minute at a time, as the
    refusals are (docs/settings.md, "Logs")."""
    port = await start_server(flood_burst=5.0, flood_lines_per_s=0.1)
    with structlog.testing.capture_logs() as logs:
        for n in range(5):
            flooder = await connect.raw(port, f"flooder{n}", f"127.0.0.{20 + n % 2}")
            await flooder.send_raw(b"ping\n" * 20)
            await flooder.read_until(lambda x: x.startswith("Error (flood)"))
            await flooder.wait_closed()
        await trio.sleep(61)
    lines = _events(logs, "flood")
    assert [line.get("peer", "").split(":")[0] for line in lines] == ["127.0.0.20", ""]
    assert lines[0]["reason"] == "flood" and "conn" in lines[0]
    assert lines[1]["repeated"] == 4 and lines[1]["top"] == {"127.0.0.21": 2, "127.0.0.20": 2}
    assert [line["reason"] for line in _events(logs, "disconnect")] == ["flood"] * 5


async def test_an_admins_kick_and_ban_say_so_in_the_disconnect_and_a_banned_login(
    start_server: Callable[..., Awaitable[int]], connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "owners")
    boss = await connect.machine(port, "boss", "owners")
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    with structlog.testing.capture_logs() as logs:
        await boss.send("kick ann")
        await boss.expect("ok", cmd="kick")
        await ann.wait_closed()
        await boss.send("ban bob")
        await boss.expect("ok", cmd="ban")
        await bob.wait_closed()
        again = await connect.raw(port, "again")
        await again.send("style machine")
        assert await _refused_login(again, "login bob") == "banned"
    reasons = {line["name"]: line["reason"] for line in _events(logs, "disconnect")}
    assert reasons == {"ann": "kicked", "bob": "banned"}
    [failed] = _events(logs, "login_failed")
    assert (failed["name"], failed["reason"]) == ("bob", "banned")


async def test_a_closed_table_says_why_in_the_log(port: int, connect: Connector) -> None:
    """An operator's "why did table 7 close?": ``table_closed`` said only that it did.
    Now its ``reason`` and its ``match``: a match over, its last player gone."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    with structlog.testing.capture_logs() as logs:
        played = await a_whole_match(ann, bob, "2 short")
        await ann.send("new 2")
        left = (await ann.expect("ok", cmd="sit"))["table"]
        await ann.send("leave")
        await ann.expect("ok", cmd="leave")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")  # (the table's task has closed it by now)
    closed = {
        line["table"]: (line["reason"], line["match"]) for line in _events(logs, "table_closed")
    }
    [start] = _events(logs, "match_start")
    assert closed == {int(played): ("match-over", start["match"]), int(left): ("left", None)}


@pytest.mark.parametrize(
    ("sign", "reason"), [(signal.SIGUSR1, "drain"), (signal.SIGTERM, "shutdown")]
)
def test_a_table_a_drain_or_a_stop_closes_says_so_in_the_log(
    tmp_path: Path, sign: signal.Signals, reason: str
) -> None:
    proc, port = start_server_process(tmp_path / "s.sqlite3", "shutdown_grace_ms = 100")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            read_until(sock, b"\n")
            sock.sendall(b"login misha\nstyle machine\nnew 2\n")
            read_until(sock, b"cmd=sit")
            proc.send_signal(sign)
            read_until(sock, b"info closed=")
    finally:
        proc.send_signal(signal.SIGTERM)  # (once the drain's stop has begun: ignored)
        _, err = proc.communicate(timeout=30)
    [closed] = [
        line for line in map(json.loads, err.splitlines()) if line["event"] == "table_closed"
    ]
    assert (closed["reason"], closed["match"]) == (reason, None)


async def test_who_sat_at_a_table_went_away_came_back_and_left_is_logged(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    register: Register,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """An operator's tryout: only ``match_start`` named the players, so a table that
    closed before its match began could not say who had sat there, nor who went away."""
    port = await start_server(away_limit_ms=30_000)
    await register("bob", "pw-bob-1")
    with structlog.testing.capture_logs() as logs:
        ann = await connect.machine(port, "ann")
        await ann.send("new 3")
        table = int((await ann.expect("ok", cmd="sit"))["table"])
        bob = await connect.machine(port, "bob", "pw-bob-1")
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")
        await bob.aclose()  # a drop: his seat is held
        await ann.expect("event", kind="away", name="bob")
        bob = await connect.machine(port, "bob", "pw-bob-1")  # back at his seat
        await ann.expect("event", kind="back", name="bob")
        again = await connect.machine(port, "bob", "pw-bob-1")  # over his open connection
        await ann.expect("event", kind="back", name="bob")
        await again.aclose()
        await ann.expect("event", kind="away", name="bob")
        await trio.sleep(31)  # away past the limit: his seat is given up
        await ann.expect("event", kind="left", name="bob")
        await ann.send("leave")  # the table closes, before any match began
        await ann.expect("ok", cmd="leave")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
    seat_events = {"seat_taken", "away", "back", "seat_left"}
    told = [line for line in logs if line["event"] in seat_events]
    assert {line["log_level"] for line in told} == {"info"}
    assert all(line["table"] == table for line in told)
    assert [(line["event"], line["name"], line["seat"]) for line in told] == [
        ("seat_taken", "ann", 0),
        ("seat_taken", "bob", 1),
        ("away", "bob", 1),
        ("back", "bob", 1),
        ("back", "bob", 1),
        ("away", "bob", 1),
        ("seat_left", "bob", 1),
        ("seat_left", "ann", 0),
    ]
    taken = _events(logs, "seat_taken")
    assert [line["guest"] for line in taken] == [True, False]
    logins = {line["conn"]: line["peer"] for line in _events(logs, "login")}
    for line in (*taken, *_events(logs, "back")):  # the player's connection, as at login
        assert logins[line["conn"]] == line["peer"]
    assert [line["reason"] for line in _events(logs, "seat_left")] == ["away-too-long", "left"]
    # the second 'back' took the seat over from bob's own open connection: no away before
    assert [line["was_away"] for line in _events(logs, "back")] == [True, False]


async def test_a_seat_forfeited_by_the_away_limit_mid_match_is_logged_as_left(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """Every other way of giving up a seat logged ``seat_left``; a running match's seat
    away past the limit logged only the ``match_end`` its forfeit made."""
    port = await start_server(away_limit_ms=3_000)
    with structlog.testing.capture_logs() as logs:
        ann = await connect.machine(port, "ann")
        bob = await connect.machine(port, "bob")
        await ann.send("new 2")
        table = int((await ann.expect("ok", cmd="sit"))["table"])
        await bob.send(f"sit {table}")
        await bob.expect("event", kind="start")
        await ann.aclose()  # a drop: his seat is held for the away limit, then forfeited
        assert (await bob.expect("event", kind="match-end"))["reason"] == "away"
        await bob.send("ping")
        await bob.expect("ok", cmd="ping")
    [left] = _events(logs, "seat_left")
    assert (left["table"], left["seat"], left["name"]) == (table, 0, "ann")
    assert left["reason"] == "away-forfeit"
    assert "conn" not in left  # his connection is gone: the table names him
    events = [line["event"] for line in logs]
    assert events.index("seat_left") < events.index("match_end")
    assert _events(logs, "match_end")[0]["reason"] == "away"
