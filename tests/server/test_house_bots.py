"""House bots over real sockets: 'bot KIND [LEVEL]' starts one of clients/ as a process
that sits at the table, plays the match and leaves; the caps, the errors, a crash."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from pathlib import Path
from typing import Any

import structlog
import trio
from pytest import MonkeyPatch

from deberc_net.server.config import Config
from deberc_net.server.house import SEARCH_LEVELS, HouseBot, HouseBots

from .client import BOT_START_S, fields, is_event, play_machine
from .conftest import Connector

PYTHON = (sys.executable, "-c")
SLEEPER = "import time; time.sleep(60)"
# the real bot, which crashes at its fourth answer, each time it is started: its
# decisions (``Bot.choose``, and ``Bot.pick``, from the legal calls alone: the random
# bot's) wrapped as ``run_to_end`` starts it
CRASHER = """
import os, runpy, sys
import clients.client as c
real_run, answers = c.run_to_end, []
def crashing_at_the_fourth(decide):
    def decided(asked):
        answers.append(asked)
        if len(answers) > 3:
            os._exit(1)
        return decide(asked)
    return decided
def run_to_end(bot):
    bot.choose = crashing_at_the_fourth(bot.choose)
    if bot.pick is not None:
        bot.pick = crashing_at_the_fourth(bot.pick)
    return real_run(bot)
c.run_to_end = run_to_end
module, sys.argv = sys.argv[1], ["bot", *sys.argv[2:]]
runpy.run_module(module, run_name="__main__")
"""


def _bot_disconnects(logs: Sequence[MutableMapping[str, Any]], name: str) -> list[str]:
    """The reasons of the ``disconnect`` lines of the house bot ``name``'s connections."""
    return [e["reason"] for e in logs if e["event"] == "disconnect" and e.get("name") == name]


async def test_a_house_bot_sits_plays_the_match_and_leaves(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 private short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    with structlog.testing.capture_logs() as logs:
        await ann.send("bot random")
        ok = await ann.expect("ok", cmd="bot")
        name = ok["name"]
        assert name.startswith("house-random-")
        assert (ok["table"], ok["kind"], ok["level"]) == (table, "random", "-")
        seated = await ann.read_until(lambda x: is_event(x, "seated"), BOT_START_S)
        assert fields(seated)[1]["name"] == name  # invited to the private table
        end = await play_machine(ann, random.Random(5), timeout=BOT_START_S)
        assert fields(end)[1]["kind"] == "match-end"
        await ann.send("rematch")  # told why, not that no match has ended
        refused = await ann.expect("error")
        assert refused["code"] == "not-allowed" and "house bot plays one match" in refused["text"]
        await ann.send("who")  # the bot quits once its match is over
        with trio.fail_after(30):
            while name in (await ann.expect("who"))["names"].split(","):
                await trio.sleep(0.1)
                await ann.send("who")
            while not _bot_disconnects(logs, name):
                await trio.sleep(0.05)
    # its end is no drop: the server dismissed it as its table closed, or it quit first
    assert _bot_disconnects(logs, name) in (["dismissed"], ["quit"])
    await ann.send("rematch")  # the bot gone, the reason still stands (the tryout's)
    refused = await ann.expect("error")
    assert refused["code"] == "not-allowed" and "house bot plays one match" in refused["text"]
    await ann.send("new 2")  # gone to another game: no rematch was on offer all the
    await ann.expect("ok", cmd="sit")  # same (she was told her step called one off)
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    await ann.send("rematch")
    assert await ann.expect("error") == {
        "code": "not-allowed",
        "text": "a house bot plays one match only: open a table and ask 'bot' again",
    }


async def test_a_house_bot_the_server_dismisses_is_logged_so_not_as_lost(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    # an operator's tryout: the server ended the bot's process as its table closed, and
    # the log said 'connection-lost', the reason an operator alerts on for real drops
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    await ann.send("new 3")  # a seat left free: the table waits, the bot logged in
    await ann.expect("ok", cmd="sit")
    with structlog.testing.capture_logs() as logs:
        await ann.send("bot random")
        name = (await ann.expect("ok", cmd="bot"))["name"]
        await ann.read_until(lambda x: is_event(x, "seated"), BOT_START_S)
        await ann.send("leave")  # only the bot is left: the table closes, the bot goes
        await ann.expect("ok", cmd="leave")
        with trio.fail_after(30):
            while not _bot_disconnects(logs, name):
                await trio.sleep(0.05)
    assert _bot_disconnects(logs, name) == ["dismissed"]


async def test_bot_errors_change_nothing(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    """(The bot's process here never comes: a program that sleeps, so that its seat
    waits for it as long as the test looks.)"""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    port = await start_server(house_bots=True, house_bots_per_table=1)
    ann = await connect.machine(port, "ann")
    levels = f"{SEARCH_LEVELS[0]} to {SEARCH_LEVELS[-1]}"
    usage = f"bot heuristic|random|search [LEVEL] [rated]: LEVEL (search only) {levels}"
    which = "which bot? heuristic, random or search: bot KIND [LEVEL] [rated]"
    for line, code, text in [
        # the kind is what is missing or wrong, not LEVEL (tryout 18, finding 6)
        ("bot", "bad-argument", which),
        ("bot heuristik", "bad-argument", "no bot 'heuristik' (heuristic?): " + which),
        ("bot alphazero", "bad-argument", "no bot 'alphazero': " + which),
        ("bot search 9", "bad-argument", usage),
        ("bot search x", "bad-argument", usage),
        ("bot heuristic 3", "bad-argument", usage),
        # what to type, as asked in the lobby (a newcomer's evening, 2026-12-06)
        (
            "bot heuristic",
            "not-seated",
            "sit at a table to ask a house bot to it: 'new 2' opens one",
        ),
    ]:
        await ann.send(line)
        assert await ann.expect("error") == {"code": code, "text": text}, line
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("bot search 1")
    assert (await ann.expect("ok", cmd="bot"))["level"] == "1"
    await ann.send("bot heuristic")  # a cap of one a table
    assert await ann.expect("error") == {
        "code": "busy",
        "text": f"table {table} has its 1 house bot already",
    }
    bob = await connect.machine(port, "bob")
    cat = await connect.machine(port, "cat")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await cat.send(f"sit {table}")  # the last free seat waits for the bot on its way
    assert await cat.expect("error") == {
        "code": "seat-taken",
        "text": f"the free seats at table {table} wait for house bots",
    }
    await bob.send("bot random")
    assert await bob.expect("error") == {
        "code": "table-full",
        "text": f"table {table} has no free seat",
    }
    for client in (ann, bob):  # the table closes, and its bot goes with it
        await client.send("leave")
        await client.expect("ok", cmd="leave")
    await cat.send("tables")
    assert (await cat.expect("tables"))["total"] == "0"


async def test_one_address_cannot_take_every_house_bot(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    """House bots are capped per address as tables are: a greedy client cannot hold
    the server's bots (tryout s9, finding 4). (Bots that never come, as above.)"""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    port = await start_server(house_bots=True, house_bots_per_address=2)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")  # the same address: 127.0.0.1
    await ann.send("new 4")
    await ann.expect("ok", cmd="sit")
    for kind in ("random", "heuristic"):
        await ann.send(f"bot {kind}")
        await ann.expect("ok", cmd="bot")
    refused = {"code": "busy", "text": "your address has its 2 house bots already; try later"}
    await ann.send("bot search")
    assert await ann.expect("error") == refused
    await bob.send("new 2")
    await bob.expect("ok", cmd="sit")
    await bob.send("bot random")
    assert await bob.expect("error") == refused
    await ann.send("leave")  # ann's table closes, and its bots go with it
    await ann.expect("ok", cmd="leave")
    await bob.send("bot random")
    assert (await bob.expect("ok", cmd="bot"))["kind"] == "random"


async def test_one_address_cannot_start_house_bots_without_end(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    monkeypatch: MonkeyPatch,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """The cap per address counts the bots running; a seat given up frees its bot at
    once, so a 'new 2'/'bot'/'leave' loop started a process each time (a tryout: 129
    in 10 s from one address, the machine 91% busy). Their starts have an allowance of
    their own, which the address's connections share. (Bots that never come.)"""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    port = await start_server(
        house_bots=True,
        house_bots_per_address=1,
        house_bot_starts_per_address_burst=3,
        house_bot_starts_per_address_per_s=0.01,
        seat_churn_burst=100,
        seat_churn_per_address_burst=100,
    )
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")  # the same address: 127.0.0.1
    answers = []
    for client in (ann, bob, ann, bob):
        await client.send("new 2")
        await client.expect("ok", cmd="sit")
        await client.send("bot random")
        answers.append(await client.read_until(lambda x: x.startswith(("ok cmd=bot", "error"))))
        await client.send("leave")  # the table closes, and its bot goes with it
        await client.expect("ok", cmd="leave")
    assert [x.split()[0] for x in answers] == ["ok", "ok", "ok", "error"], answers
    refused = fields(answers[-1])[1]
    assert refused["code"] == "slow-down", refused
    assert refused["text"].startswith("house bots asked for too often from your address")
    await trio.sleep(100)  # one start back (0.01 a second)
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot random")
    await ann.expect("ok", cmd="bot")


async def test_many_addresses_cannot_start_house_bots_without_end(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    monkeypatch: MonkeyPatch,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A second hostile pass (s29): 20 addresses, each within its own allowance of
    starts, started 120 bot processes in 10 s. The whole server's starts have one too."""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    port = await start_server(
        house_bots=True,
        house_bot_starts_per_address_burst=0,  # (no limit an address: the server's)
        house_bot_starts_burst=3,
        house_bot_starts_per_s=0.01,
    )
    answers = []
    for n in range(4):
        client = await connect.machine(port, f"p{n}", source=f"127.0.0.{n + 2}")
        await client.send("new 2")
        await client.expect("ok", cmd="sit")
        await client.send("bot random")
        answers.append(await client.read_until(lambda x: x.startswith(("ok cmd=bot", "error"))))
    assert [x.split()[0] for x in answers] == ["ok", "ok", "ok", "error"], answers
    assert fields(answers[-1])[1] == {
        "code": "slow-down",
        "wait_ms": "100000",  # (a program is told the wait too, docs/protocol.md §10)
        "text": "house bots are asked for too often on this server: wait 100 s",
    }
    await trio.sleep(100)  # one start back (0.01 a second)
    await client.send("bot random")
    await client.expect("ok", cmd="bot")


async def test_house_bots_sit_in_the_order_they_were_asked_for(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    monkeypatch: MonkeyPatch,
    tmp_path: Path,
) -> None:
    """The first bot asked for is slow to log in: it still takes the first free seat,
    so a host chooses who sits where, his partner too (tryout s9, finding 15)."""
    real = HouseBots.argv
    # the first bot's start waits for this file, made once the other has sat: it logs
    # in last whatever the machine's load (a 2 s sleep did, but for 2 s every run)
    other_seated = tmp_path / "other-seated"

    def late_first(self: HouseBots, bot: HouseBot) -> list[str]:
        argv = real(self, bot)
        code = "import os, runpy, sys, time; "
        if bot.name.endswith("-1"):
            code += f"end = time.monotonic() + {BOT_START_S}\n"
            code += f"while not os.path.exists({str(other_seated)!r}) and time.monotonic() < end:"
            code += " time.sleep(0.01)\n"
        code += f"sys.argv = sys.argv[1:]; runpy.run_module({argv[2]!r}, run_name='__main__')"
        return [argv[0], "-c", code, "bot", *argv[3:]]

    monkeypatch.setattr(HouseBots, "argv", late_first)
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 4")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    asked = []
    for kind in ("random", "random"):
        await ann.send(f"bot {kind}")
        asked.append((await ann.expect("ok", cmd="bot"))["name"])
    await bob.send(f"sit {table} 1")  # a person cannot take a seat kept for a bot
    assert await bob.expect("error") == {
        "code": "seat-taken",
        "text": f"seat 1 at table {table} waits for a house bot",
    }
    seated = []
    for _ in asked:
        line = await ann.read_until(lambda x: is_event(x, "seated"), BOT_START_S)
        seated.append((fields(line)[1]["name"], fields(line)[1]["seat"]))
        other_seated.touch()
    assert [name for name, _ in seated] == asked[::-1]  # the first asked came last
    assert dict(seated) == {asked[0]: "1", asked[1]: "2"}  # however they came


async def test_a_house_bots_start_is_logged_with_its_kind_and_level(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    """docs/settings.md, Logs: ``house_bot_start`` names the bot, its table, kind and
    level (``bot_level``: the line's own ``level`` is the log's)."""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    with structlog.testing.capture_logs() as logs:
        await ann.send(f"bot search {SEARCH_LEVELS[-1]}")
        name = (await ann.expect("ok", cmd="bot"))["name"]
    started = [entry for entry in logs if entry["event"] == "house_bot_start"]
    assert started == [
        {
            "event": "house_bot_start",
            "log_level": "info",
            "name": name,
            "table": int(table),
            "kind": "search",
            "bot_level": SEARCH_LEVELS[-1],
        }
    ]


async def test_without_house_bots_the_command_is_refused(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot heuristic")
    assert await ann.expect("error") == {
        "code": "not-allowed",
        "text": "this server runs no house bots (serve --house-bots)",
    }


async def test_a_house_bot_name_cannot_be_taken_by_a_person(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot heuristic")
    name = (await ann.expect("ok", cmd="bot"))["name"]
    eve = await connect.raw(port, "eve")
    await eve.send("style machine")
    await eve.send(f"login {name}")  # before the bot's process has logged in, or after
    assert (await eve.expect("error"))["code"] == "name-in-use"
    await eve.send("login house-heuristic-99")  # no such bot: the prefix is the server's
    assert await eve.expect("error") == {
        "code": "bad-argument",
        "text": "names starting 'house-' are the server's bots",
    }


async def test_a_house_bot_that_never_comes_frees_its_seat(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, "raise SystemExit(3)"])
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("bot heuristic")
    name = (await ann.expect("ok", cmd="bot"))["name"]
    said = await ann.expect("info", timeout=BOT_START_S)  # after its restarts
    assert said["text"] == f"{name} could not come."
    bob = await connect.machine(port, "bob")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")


async def test_a_house_bot_that_keeps_crashing_forfeits_the_match(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    real_argv = HouseBots.argv

    def crashing(self: HouseBots, bot: HouseBot) -> list[str]:
        return [*PYTHON, CRASHER, *real_argv(self, bot)[2:]]  # after 'python -m'

    monkeypatch.setattr(HouseBots, "argv", crashing)
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with structlog.testing.capture_logs() as logs:
        await ann.send("bot random")
        name = (await ann.expect("ok", cmd="bot"))["name"]
        end = fields(await play_machine(ann, random.Random(2), timeout=BOT_START_S))[1]
    assert (end["reason"], end["name"]) == ("left", "ann")
    # a crash is a drop, logged as one (not as a dismissal: docs/settings.md, Logs)
    crashes = _bot_disconnects(logs, name)
    assert crashes and set(crashes) <= {"connection-lost", "closed-by-peer"}, crashes
    told = [line for line in ann.lines if line.startswith("info ")]
    assert f"info text={name} cannot go on and gives its seat up." in told
    away = [line for line in ann.lines if is_event(line, "away")]
    assert away  # it crashed (and came back) before it gave up


async def test_one_address_cannot_keep_the_server_thinking_with_search_bots(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    """A hostile tryout (s30): one address asked for 'bot search 5' at six tables, each
    a process thinking a second a call against a client that answers at once, so one
    client kept six cores busy. A search bot thinks on its turn, and one seat at a table
    has the turn: the tables where search bots play are capped, per address and on the
    server; a refusal changes nothing. (Bots that never come.)"""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    port = await start_server(house_bots=True, max_house_search_tables=2)  # 1 an address
    tryout = [await connect.machine(port, f"t{n}") for n in range(6)]  # one address
    answers, tables = [], []
    for client in tryout:
        await client.send("new 2")
        tables.append((await client.expect("ok", cmd="sit"))["table"])
        await client.send("bot search 5")
        answers.append(await client.read_until(lambda x: x.startswith(("ok cmd=bot", "error"))))
    assert [x.split()[0] for x in answers] == ["ok"] + ["error"] * 5, answers
    # the refusal names the table they play at (a tryout read '1 table(s)': which?)
    assert fields(answers[1])[1] == {
        "code": "busy",
        "text": f"search bots from your address already play at table {tables[0]}, as many"
        " as one address may: ask for one there, or try later",
    }
    await tryout[1].send("tables")  # nothing changed: its seat free, no bot on its way
    await tryout[1].expect("tables")
    listed = [await tryout[1].expect("table") for _ in range(6)]
    assert [t["seats"] for t in listed] == ["t0,-"] + [f"t{n},-" for n in range(1, 6)]
    await tryout[1].send("bot heuristic")  # another bot still comes there
    await tryout[1].expect("ok", cmd="bot")
    await tryout[0].send("bot search 1")  # ... as a search bot to its one table
    assert (await tryout[0].expect("error"))["code"] == "table-full"  # (2 players: full)
    nina = await connect.human(port, "nina")  # the same address, told in Russian
    await nina.send("lang ru")
    await nina.read_until(lambda x: x == "Язык: русский.")
    await nina.send("new 2")
    await nina.send("bot search 5")
    refused = await nina.read_until(lambda x: x.startswith("Ошибка ("))
    refused += " " + (await nina.read_until(lambda _: True)).strip()  # (80 columns)
    assert refused == (
        f"Ошибка (busy): поисковые боты с вашего адреса уже играют за столом {tables[0]},"
        " больше одному адресу нельзя: зовите их туда или попробуйте позже"
    )

    # a person at a four-player table with three search bots: one thinks at a time
    olga = await connect.machine(port, "olga", source="127.0.0.2")
    await olga.send("new 4")
    await olga.expect("ok", cmd="sit")
    for level in (3, 4, 5):
        await olga.send(f"bot search {level}")
        await olga.expect("ok", cmd="bot")
    vera = await connect.raw(port, "vera", source="127.0.0.3")  # the server's 2 are taken
    await vera.send("login vera lang=ru")
    await vera.send("new 2")
    await vera.send("bot search")
    refused = await vera.read_until(lambda x: x.startswith("Ошибка ("))
    refused += " " + (await vera.read_until(lambda _: True)).strip()  # (80 columns)
    assert refused == (
        "Ошибка (busy): поисковые боты уже играют за столами (2), больше сервер не"
        " позволяет: попробуйте позже"
    )
    await tryout[0].send("leave")  # its table closes, and its bot goes with it
    await tryout[0].expect("ok", cmd="leave")
    await vera.send("bot search")
    await vera.read_until(lambda x: "house-search3-" in x)


async def test_the_search_refusal_names_the_tables_of_the_address(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    """Past its cap an address is told where its search bots play, each table named
    (a tryout read 'at 1 table(s)', which named none). (Bots that never come.)"""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    port = await start_server(house_bots=True, house_search_tables_per_address=2)
    tryout = [await connect.machine(port, f"t{n}") for n in range(3)]  # one address
    tables = []
    for client in tryout:
        await client.send("new 2")
        tables.append((await client.expect("ok", cmd="sit"))["table"])
        await client.send("bot search 5")
    await tryout[0].expect("ok", cmd="bot")
    await tryout[1].expect("ok", cmd="bot")
    assert (await tryout[2].expect("error"))["text"] == (
        f"search bots from your address already play at tables {tables[0]}, {tables[1]},"
        " as many as one address may: ask for one there, or try later"
    )


async def test_the_search_refusal_names_no_private_table_the_asker_may_not_know_of(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    """One address is many people behind a NAT: refused a search bot, a player was told
    the number of a neighbour's private table, which 'tables' hides from him. It is
    counted, not named, until he is invited to it. (Bots that never come.)"""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    port = await start_server(house_bots=True, house_search_tables_per_address=2)
    ann, bob, cyd = [await connect.machine(port, n) for n in ("ann", "bob", "cyd")]
    tables = []
    for client, new in ((ann, "new 2 private"), (bob, "new 2"), (cyd, "new 2")):
        await client.send(new)
        tables.append((await client.expect("ok", cmd="sit"))["table"])
    for client in (ann, bob):
        await client.send("bot search 5")
        await client.expect("ok", cmd="bot")
    await cyd.send("bot search 5")
    assert (await cyd.expect("error"))["text"] == (
        f"search bots from your address already play at table {tables[1]} and at another"
        " table, as many as one address may: ask for one there, or try later"
    )
    dan = await connect.human(port, "dan")  # the same address, in Russian, alone
    await dan.send("lang ru")
    await dan.read_until(lambda x: x == "Язык: русский.")
    await dan.send("new 2")
    await dan.send("bot search 5")
    refused = await dan.read_until(lambda x: x.startswith("Ошибка ("))
    refused += " " + (await dan.read_until(lambda _: True)).strip()  # (80 columns)
    assert refused == (
        f"Ошибка (busy): поисковые боты с вашего адреса уже играют за столом {tables[1]} и"
        " за другим столом, больше одному адресу нельзя: зовите их туда или попробуйте позже"
    )
    await bob.send("leave")  # his table closes, its bot with it; he opens a private one
    await bob.expect("ok", cmd="leave")
    await bob.send("new 2 private")
    await bob.expect("ok", cmd="sit")
    await bob.send("bot search 5")
    await bob.expect("ok", cmd="bot")
    await cyd.send("bot search 5")
    assert (await cyd.expect("error"))["text"].startswith(
        "search bots from your address already play at 2 other tables, as many"
    )
    await ann.send("invite cyd")  # invited, he may know its number
    await ann.expect("ok", cmd="invite")
    await cyd.send("bot search 5")
    assert (await cyd.expect("error"))["text"].startswith(
        f"search bots from your address already play at table {tables[0]} and at another"
        " table, as many"
    )


async def test_a_cap_of_one_is_said_in_the_singular(
    start_server: Callable[..., Awaitable[int]], connect: Connector, monkeypatch: MonkeyPatch
) -> None:
    """A server may set a cap to 1: it was told 'at 1 tables', 'its 1 house bots'.
    (Bots that never come.)"""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, SLEEPER])
    caps = {"house_bots_per_table": 1, "house_bots_per_address": 1, "max_house_bots": 1}
    port = await start_server(house_bots=True, **caps)
    ann = await connect.machine(port, "ann")
    await ann.send("new 4")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("bot heuristic")
    await ann.expect("ok", cmd="bot")
    await ann.send("bot heuristic")
    assert (await ann.expect("error"))["text"] == f"table {table} has its 1 house bot already"
    bob = await connect.machine(port, "bob")  # ann's address
    await bob.send("new 2")
    await bob.send("bot random")
    assert (await bob.expect("error"))["text"] == (
        "your address has its 1 house bot already; try later"
    )
    cyd = await connect.machine(port, "cyd", source="127.0.0.2")
    await cyd.send("new 2")
    await cyd.send("bot random")
    assert (await cyd.expect("error"))["text"] == (
        "the server runs its 1 house bot already; try later"
    )
    ru = await connect.raw(port, "vera", source="127.0.0.3")
    await ru.send("login vera lang=ru")
    await ru.send("new 2")
    await ru.send("bot random")
    refused = await ru.read_until(lambda x: x.startswith("Ошибка ("))
    assert (
        refused == "Ошибка (busy): сервер уже запустил своего единственного бота: попробуйте позже"
    )

    port = await start_server(max_tables_per_address=1)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    bob = await connect.machine(port, "bob")
    await bob.send("new 2")
    assert (await bob.expect("error"))["text"] == (
        "your address has 1 waiting table open; sit at it or wait"
    )

    port = await start_server(house_bots=True, max_house_search_tables=1)
    olga = await connect.machine(port, "olga")
    await olga.send("new 2")
    await olga.send("bot search 1")
    await olga.expect("ok", cmd="bot")
    nina = await connect.machine(port, "nina", source="127.0.0.2")
    await nina.send("new 2")
    await nina.send("bot search 1")
    assert (await nina.expect("error"))["text"] == (
        "search bots already play at 1 table, as many as this server allows; try later"
    )
    vera = await connect.raw(port, "vera", source="127.0.0.3")
    await vera.send("login vera lang=ru")
    await vera.send("new 2")
    await vera.send("bot search")
    refused = await vera.read_until(lambda x: x.startswith("Ошибка ("))
    refused += " " + (await vera.read_until(lambda _: True)).strip()  # (80 columns)
    assert refused == (
        "Ошибка (busy): поисковые боты уже играют за одним столом, больше сервер не"
        " позволяет: попробуйте позже"
    )


async def test_house_bots_run_nicer_than_the_server(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    monkeypatch: MonkeyPatch,
    tmp_path: Path,
) -> None:
    """A house bot's thinking must not slow the server's answers to people on a busy
    machine: its process runs ``house_bot_nice`` (10) nicer than the server; 0 keeps
    it as nice as the server. (A stand-in bot that writes its niceness down.) Set by
    the server once the process has started, not by a hook run in the child before
    it execs (``preexec_fn``): with one, subprocess forks the server's whole heap
    instead of its vfork, holding the interpreter meanwhile (a 1 GiB heap: the loop
    stalled 24 ms a start, 0.2 ms without), and runs Python in the child of a process
    with threads, which subprocess's documentation calls unsafe."""
    told = tmp_path / "nice"
    says = f"import os, time; open({str(told)!r}, 'w').write(str(os.nice(0))); time.sleep(60)"
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, says])
    hooks: list[object] = []  # each start's preexec_fn
    open_process = trio.lowlevel.open_process

    async def started(command: Any, **options: Any) -> trio.Process:
        hooks.append(options.get("preexec_fn"))
        return await open_process(command, **options)

    monkeypatch.setattr(trio.lowlevel, "open_process", started)
    own = os.nice(0)  # the server's (it runs in this process)
    for nice, expected in ((None, min(own + 10, 19)), (0, own)):
        # (make_config keeps the bots as nice as the server: the default asked for)
        settings = {"house_bot_nice": Config().house_bot_nice if nice is None else nice}
        port = await start_server(house_bots=True, **settings)
        ann = await connect.machine(port, f"ann{expected}")
        await ann.send("new 2")
        await ann.expect("ok", cmd="sit")
        await ann.send("bot random")
        await ann.expect("ok", cmd="bot")
        with trio.fail_after(30):
            while not told.exists() or not told.read_text():
                await trio.sleep(0.05)
        assert int(told.read_text()) == expected
        assert hooks == [None], hooks
        hooks.clear()
        told.unlink()
        await ann.send("leave")
        await ann.expect("ok", cmd="leave")


async def test_a_house_bot_gets_no_secret_of_the_servers_environment(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    monkeypatch: MonkeyPatch,
    tmp_path: Path,
) -> None:
    """The server's PGPASSWORD (where docs/scaling.md advises the database's password)
    is not in a house bot's environment (deberc_net/child_env.py); the rest is. A
    stand-in bot that writes its environment down."""
    told = tmp_path / "env"
    says = (
        f"import json, os, time; open({str(told)!r}, 'w').write(json.dumps(dict(os.environ)))"
        "; time.sleep(60)"
    )
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: [*PYTHON, says])
    monkeypatch.setenv("PGPASSWORD", "db-secret")
    monkeypatch.setenv("DEBERC_ADMIN_PASSWORD", "admin-secret")
    monkeypatch.setenv("DEBERC_KEPT", "told")
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot random")
    await ann.expect("ok", cmd="bot")
    with trio.fail_after(30):
        while not told.exists() or not told.read_text():
            await trio.sleep(0.05)
    env = json.loads(told.read_text())
    assert "PGPASSWORD" not in env and "DEBERC_ADMIN_PASSWORD" not in env, sorted(env)
    assert env["DEBERC_KEPT"] == "told" and "DEBERC_TOKEN_DIR" in env
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
