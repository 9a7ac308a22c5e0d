"""An admin's 'drain' (docs/protocol.md §11.4a): the drain SIGUSR1 begins, for an
operator who can send the server no signal; refused to anyone else, and a second one,
or one during a stop, changes nothing. (Under serve --workers:
tests/store/test_workers_drain.py.)"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import structlog
import trio

from deberc_net.server.app import serve
from deberc_net.testing import rule_book

from .client import LineClient, help_commands, help_texts, is_event, person_told, play_machine
from .conftest import Connector, make_config

Register = Callable[[str, str], Awaitable[None]]
RESTARTS = "the server restarts once the running matches are over"
# the commands that lead to a game, left out of a draining lobby's help (an admin's
# 'reserve' too)
WAYS_TO_A_GAME = {"new", "sit", "seek", "unseek", "rematch"}
TOLD = f"info server=draining text={RESTARTS.capitalize()}: no new game starts until then."
REFUSED = {"code": "shutting-down", "text": f"{RESTARTS}: no new game starts now"}
BEGUN = (
    "Draining: the server stops once its running matches are over (playing now: {n}); no new"
    " game starts meanwhile."
)


async def _serving(nursery: trio.Nursery, db: Path, stopped: trio.Event, **settings: Any) -> int:
    """A server with the admin boss in ``nursery``, ``stopped`` set once it has stopped
    by itself; its port."""
    config = make_config(db, admins=["boss"], **settings)

    async def run(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        await serve(config, rules=rule_book(), task_status=task_status)
        stopped.set()

    port: int = await nursery.start(run)
    return port


async def _told(client: LineClient, words: str) -> None:
    """Until the human style's lines (wrapped to the terminal's width) have said ``words``."""

    def said(_: str) -> bool:
        return words in " ".join(line.strip() for line in client.lines)

    await client.read_until(said)


async def test_an_admins_drain_lets_the_running_match_end_then_stops(
    nursery: trio.Nursery,
    db_path: Path,
    connect: Connector,
    register: Register,
    jump_when_idle: None,
) -> None:
    await register("boss", "owners")
    stopped = trio.Event()
    port = await _serving(nursery, db_path, stopped, shutdown_grace_ms=100)
    boss = await connect.machine(port, "boss", "owners")
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    carl = await connect.machine(port, "carl")
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.read_until(lambda line: is_event(line, "start"))
    await carl.send("new 2")  # a table waiting for players
    waiting = (await carl.expect("ok", cmd="sit"))["table"]
    with structlog.testing.capture_logs() as logs:
        await boss.send("drain")
        assert await boss.expect("ok", cmd="drain") == {
            "cmd": "drain",
            "matches": "1",
            "already": "0",
            "text": BEGUN.format(n=1),
        }
        assert TOLD in boss.lines  # (told as everyone, before his answer)
        closes = (
            f"info closed={waiting} text=Table {waiting} closes: {RESTARTS}"
            " (its game had not started)."
        )
        await carl.read_until(lambda line: line == closes)
        await carl.send("new 2")
        assert await carl.expect("error") == REFUSED
        await boss.send("drain")  # a second: nothing changes
        assert await boss.expect("ok", cmd="drain") == {
            "cmd": "drain",
            "matches": "1",
            "already": "1",
            "text": "The server drains already (playing now: 1): nothing changes.",
        }
        with trio.fail_after(60):  # the match plays on to its end
            async with trio.open_nursery() as players:
                players.start_soon(play_machine, ann, random.Random(1))
                players.start_soon(play_machine, bob, random.Random(2))
        stop = (
            "info server=stopping text=The server is shutting down: the running matches are over."
        )
        for client in (ann, bob, boss, carl):
            await client.read_until(lambda line: line == stop)
        with trio.fail_after(10):
            await stopped.wait()
    for client in (ann, bob, boss, carl):
        assert client.lines.count(TOLD) == 1, client.label  # told mid-match, once
    events = [line["event"] for line in logs]
    [drain] = [line for line in logs if line["event"] == "drain"]
    assert drain["admin"] == "boss" and "signal" not in drain and len(drain["matches"]) == 1
    [done] = [line for line in logs if line["event"] == "moderation"]
    assert (done["action"], done["admin"], done["log_level"]) == ("drain", "boss", "warning")
    [ignored] = [line for line in logs if line["event"] == "drain_ignored"]
    assert ignored["admin"] == "boss"
    assert events.index("drain") < events.index("match_end") < events.index("drained")
    assert events.index("drained") < events.index("shutdown") < events.index("stopped")
    assert "matches_stopped" not in events


async def test_drain_is_the_admins_own(
    nursery: trio.Nursery, db_path: Path, connect: Connector, register: Register
) -> None:
    await register("ann", "anns")
    stopped = trio.Event()
    port = await _serving(nursery, db_path, stopped)
    ann = await connect.machine(port, "ann", "anns")  # registered, but no admin
    guest = await connect.machine(port, "bob")
    for client in (ann, guest):
        await client.send("drain")
        assert await client.expect("error") == {
            "code": "not-allowed",
            "text": "drain is for the server's admins",
        }
    await ann.send("new 2")  # nothing changed: tables open, nobody was told
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await guest.send(f"sit {table}")
    await guest.expect("ok", cmd="sit")
    assert not any(TOLD in client.lines for client in (ann, guest))
    assert not stopped.is_set()


async def test_a_drain_with_nothing_playing_stops_and_one_during_the_stop_is_refused(
    nursery: trio.Nursery, db_path: Path, connect: Connector, register: Register
) -> None:
    await register("boss", "owners")
    stopped = trio.Event()
    port = await _serving(nursery, db_path, stopped, shutdown_grace_ms=60_000)
    boss = await connect.machine(port, "boss", "owners")
    await boss.send("drain in ten minutes")  # no such thing: refused, not a drain now
    assert await boss.expect("error") == {
        "code": "bad-argument",
        "text": "drain takes no argument: it begins the drain now, and there is no delayed one",
    }
    assert TOLD not in boss.lines
    with structlog.testing.capture_logs() as logs:
        await boss.send("drain")
        assert (await boss.expect("ok", cmd="drain"))["matches"] == "0"
        # nothing to wait for: the stop at once, its grace waiting for him to read it
        await boss.read_until(lambda line: "The server is shutting down" in line)
        await boss.send("drain")
        assert await boss.expect("error") == {
            "code": "shutting-down",
            "text": "the server is shutting down already: there is nothing to drain",
        }
        await boss.send("quit")
        with trio.fail_after(30):
            await stopped.wait()
    events = [line["event"] for line in logs]
    assert events.count("drain") == 1 and events.count("shutdown") == 1
    assert events.index("shutdown") < events.index("drain_ignored") < events.index("stopped")


async def test_a_drain_in_russian(
    nursery: trio.Nursery, db_path: Path, connect: Connector, register: Register
) -> None:
    await register("boss", "owners")
    stopped = trio.Event()
    port = await _serving(nursery, db_path, stopped)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")  # a match that plays on (nobody answers its asks: 10 s)
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.read_until(lambda line: is_event(line, "start"))
    boss = await LineClient.connect(port, "boss")
    try:
        await boss.send("login boss owners lang=ru")
        await boss.send("drain")
        await _told(
            boss,
            "Сервер остановится, когда закончатся идущие партии (сейчас идёт: 1); до тех пор"
            " новые партии не начинаются.",
        )
        await boss.send("drain")
        await _told(
            boss, "Сервер уже ждёт конца идущих партий (сейчас идёт: 1): ничего не меняется."
        )
        assert not stopped.is_set()
    finally:
        await boss.aclose()


async def test_help_lists_drain_to_the_admins(
    nursery: trio.Nursery, db_path: Path, connect: Connector, register: Register
) -> None:
    await register("boss", "owners")
    port = await _serving(nursery, db_path, trio.Event())
    boss = await connect.machine(port, "boss", "owners")
    ann = await connect.machine(port, "ann")

    assert "drain" in await help_commands(boss)
    assert "drain" not in await help_commands(ann)
    # it said "Restart the server": an operator who started it by hand saw it stop
    told = " ".join(x.strip() for x in await help_texts(boss, "help drain"))
    assert told.startswith(
        "drain: (admins) Stop the server once its running matches are over, as SIGUSR1"
        " does, for its supervisor to start it again (it does not start itself)"
    )
    russian = await connect.raw(port, "boss in Russian")  # (boss's other login closes)
    await russian.send("login boss owners lang=ru")
    told = " ".join(x.strip() for x in await person_told(russian, "help drain"))
    assert "Остановить сервер" in told and "сам он не запускается" in told


def _greeting(client: LineClient) -> str:
    return next(x for x in client.lines if x.startswith("ok cmd=login"))


async def test_during_a_drain_the_lobby_offers_no_new_game(
    nursery: trio.Nursery, db_path: Path, connect: Connector, register: Register
) -> None:
    """The greeting offered 'new', 'sit N', 'seek', and the lobby's help ended with
    "Nobody to play with? 'new 2' opens a table, …": each refused during a drain. They
    offer what may be done then (watch a match), in either language; and help leaves
    out the commands that lead to a game, as the greeting does (s43's leftover: they
    were listed above a last line saying no game starts), as a server closed to games
    does."""
    await register("boss", "owners")
    port = await _serving(nursery, db_path, trio.Event(), house_bots=True)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")  # a match that plays on (nobody answers its asks: 10 s)
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.read_until(lambda line: is_event(line, "start"))
    carl = await connect.machine(port, "carl")
    assert "'tables', 'new', 'sit N', 'seek', 'help'." in _greeting(carl)
    assert "Nobody to play with?" in " ".join(await help_texts(carl, "help"))
    assert await help_commands(carl) >= WAYS_TO_A_GAME
    boss = await connect.machine(port, "boss", "owners")
    await boss.send("drain")
    await boss.expect("ok", cmd="drain")
    dora = await connect.machine(port, "dora")
    greeting = _greeting(dora)
    assert "1 table, 5 players here. 'tables', 'observe N', 'help'." in greeting, greeting
    told = " ".join(" ".join(await help_texts(dora, "help")).split())
    assert "new 2" not in told and "Nobody to play with?" not in told
    assert told.endswith(
        f"{RESTARTS.capitalize()}: no new game starts until then, so the commands that lead"
        " to one ('new', 'sit', 'seek', 'unseek', 'rematch') are not listed ('observe TABLE'"
        " watches one)."
    ), told
    listed = await help_commands(dora)
    assert not listed & WAYS_TO_A_GAME and {"tables", "observe", "who"} <= listed, listed
    listed = await help_commands(boss)  # an admin's 'reserve' too
    assert not listed & (WAYS_TO_A_GAME | {"reserve"}) and "drain" in listed, listed
    told = " ".join(" ".join(await help_texts(boss, "help")).split())
    assert "('new', 'sit', 'seek', 'reserve', 'unseek', 'rematch')" in told, told
    vera = await connect.raw(port, "vera")
    await vera.send("login vera lang=ru")
    await _told(vera, "Команды: tables, observe N, help.")
    await vera.send("help")
    await _told(
        vera,
        "Сервер перезапустится, когда закончатся идущие партии: до тех пор новые партии не"
        " начинаются, поэтому команды, которые ведут к партии (new, sit, seek, unseek,"
        " rematch), здесь не перечислены (observe СТОЛ — смотреть идущую).",
    )
    assert not any(x.split()[:1] in (["new"], ["seek"]) for x in vera.lines), vera.lines
    assert "Не с кем играть?" not in " ".join(vera.lines)


async def test_during_a_drain_an_empty_tables_says_no_new_game_starts(
    nursery: trio.Nursery, db_path: Path, connect: Connector, register: Register
) -> None:
    """'tables' listing none said "'new' opens one, 'seek' waits for a game", each refused
    during a drain: it says what is true then, in either language (the machine style's
    'tables count=0' carries no words, and is the same)."""
    await register("boss", "owners")
    port = await _serving(nursery, db_path, trio.Event())
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2 private")  # a match that plays on, listed to nobody else
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite bob")
    await bob.read_until(lambda line: "invite" in line)
    await bob.send(f"sit {table}")
    await ann.read_until(lambda line: is_event(line, "start"))
    carl = await connect.raw(port, "carl")
    await person_told(carl, "login carl")  # (its greeting read)
    assert await person_told(carl, "tables") == [
        "No tables. 'new' opens one, 'seek' waits for a game."
    ]
    boss = await connect.machine(port, "boss", "owners")
    await boss.send("drain")
    await boss.expect("ok", cmd="drain")
    await _told(carl, f"{RESTARTS.capitalize()}: no new game starts until then.")
    said = " ".join(x.strip() for x in await person_told(carl, "tables"))  # (after the info)
    assert said.endswith(f"No tables: {RESTARTS}, and no new game starts until then."), said
    await carl.send("lang ru")
    await carl.read_until(lambda line: line == "Язык: русский.")
    said = " ".join(x.strip() for x in await person_told(carl, "tables"))
    assert said == (
        "Столов нет: сервер перезапустится, когда закончатся идущие партии, и до тех пор"
        " новые партии не начинаются."
    ), said
    dora = await connect.machine(port, "dora")
    await dora.send("tables")
    assert await dora.expect("tables") == {"count": "0", "total": "0", "page": "1", "pages": "1"}


async def test_a_match_over_during_a_drain_offers_no_rematch(
    nursery: trio.Nursery, db_path: Path, connect: Connector, register: Register
) -> None:
    """A match that ended during a drain told its people "'rematch' within 60 s plays
    again with the same players." (and the terminal client said it too), and each one's
    'rematch' was then refused: no new game starts (a review, s44). Nothing is on
    offer: his 'rematch' is refused as before, and none is said to be."""
    await register("boss", "owners")
    port = await _serving(nursery, db_path, trio.Event())
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    sat = await ann.read_until(lambda x: x.startswith("You sit at table"))
    table = sat.split()[4].rstrip(",.")
    await bob.send(f"sit {table}")
    await bob.read_until(lambda line: is_event(line, "start"))
    carl = await connect.machine(port, "carl")  # a match that plays on: the drain waits
    dan = await connect.machine(port, "dan")
    await carl.send("new 2")
    other = (await carl.expect("ok", cmd="sit"))["table"]
    await dan.send(f"sit {other}")
    await dan.read_until(lambda line: is_event(line, "start"))
    boss = await connect.machine(port, "boss", "owners")
    await boss.send("drain")
    await boss.expect("ok", cmd="drain")
    await bob.send("leave!")
    await bob.expect("ok", cmd="leave")
    await ann.read_until(lambda x: x.startswith("Game over"))
    told = await person_told(ann, "rematch")
    assert not any("'rematch' within" in x for x in ann.lines), ann.lines
    said = " ".join(x.strip() for x in told)
    assert f"Error (shutting-down): {RESTARTS}: no new game starts now" in said, told
    await bob.send("rematch")  # a program: refused as ever
    assert await bob.expect("error") == REFUSED
