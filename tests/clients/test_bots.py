"""The trio Bot class and the raw-socket bot against a real server started in-process:
games played and stopped, a failing ``choose`` still answered legally in time, a
dropped connection resumed without a forfeit."""

from __future__ import annotations

import functools
import itertools
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import trio

import clients.client
from clients.client import Bot, LoginRefused
from clients.protocol import Event, Record, View
from tests.server.conftest import Connector

ROOT = Path(__file__).resolve().parents[2]
# a clock the Bot keeps 2 s of back, not its 0.3 s: the tests on a choose past its
# budget run server and bots in one process on a server without lag, where a stall of
# the process past the margin (a loaded host) let the clock run out on the fallback
MARGIN_S = 2.0
StartServer = Callable[..., Awaitable[int]]
Item = Event | View | Record


def random_choose(seed: int) -> Callable[[View], str]:
    rng = random.Random(seed)
    return lambda view: rng.choice(view.legal)


def events(items: list[Item], kind: str) -> list[Event]:
    return [e for e in items if isinstance(e, Event) and e.tag == "event" and e.kind == kind]


def my_seat(items: list[Item]) -> int:
    sits = [
        e for e in items if isinstance(e, Event) and e.tag == "ok" and e.fields.get("cmd") == "sit"
    ]
    seat = sits[0].get_int("seat")
    assert seat is not None
    return seat


async def play(*bots: Bot, timeout: float = 30) -> None:
    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            for bot in bots:
                nursery.start_soon(bot.run)


async def test_two_random_bots_play_n_games_and_stop(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server()
    seen: list[Item] = []
    ann = Bot(
        random_choose(1), "ann", port=port, seek="2 moscow to-301", games=2, on_event=seen.append
    )
    bob = Bot(random_choose(2), "bob", port=port, seek="2 moscow to-301", games=2)
    await play(ann, bob)

    for bot in (ann, bob):
        assert bot.stats.games == 2 and bot.stats.logins == 1
        assert bot.stats.asks > 10 and bot.stats.fallbacks == 0
        assert bot.stats.errors == []  # not one refused line
    ends = events(seen, "match-end")
    assert len(ends) == 2 and len(events(seen, "start")) == 2
    assert all(e.get_str("reason") in ("target", "claim") for e in ends)
    assert all(max(e.get_ints("totals")) >= 301 for e in ends)
    asks = [v for v in seen if isinstance(v, View) and v.kind == "ask"]
    assert len(asks) == ann.stats.asks and all(v.legal for v in asks)
    records = [r for r in seen if isinstance(r, Record)]
    assert records and all(r.record["format"] == "deberc-deal/1" for r in records)

    carl = await connect.machine(port, "carl")  # both said quit: nobody else is here
    with trio.fail_after(30):
        while not (who := await carl.reply("who", "who")).startswith("who count=1 names=carl "):
            await trio.sleep(0.05)
    assert who == "who count=1 names=carl total=1 page=1 pages=1"


async def test_a_failing_choose_still_gets_a_legal_answer_in_time(
    start_server: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clients.client, "CLOCK_MARGIN", MARGIN_S)
    port = await start_server(bot_clock_ms=2300)  # the Bot keeps 2 s back: 0.3 s to think
    calls = itertools.count()
    rng = random.Random(3)

    def faulty(view: View) -> str:
        n = next(calls)
        if n < 6:  # raise, talk nonsense, dawdle past the clock: twice each
            if n % 3 == 0:
                raise RuntimeError("bug in choose")
            if n % 3 == 1:
                return "nonsense"
            time.sleep(1.5)
            return view.legal[0]
        return rng.choice(view.legal)

    seen: list[Item] = []
    told: list[str] = []
    ann = Bot(faulty, "ann", port=port, seek="2 moscow to-301", games=1, on_event=seen.append)
    ann.tell = told.append
    bob = Bot(random_choose(4), "bob", port=port, seek="2 moscow to-301", games=1)
    await play(ann, bob)

    assert ann.stats.games == 1 and ann.stats.asks > 6
    assert ann.stats.fallbacks == 6
    # the first fault kept, with where it was raised, and told once (a reference bot's
    # standard error): failed before, nothing was said (docs/bots.md)
    first = ann.stats.first_fault
    assert first is not None
    assert first.startswith("choose raised RuntimeError('bug in choose') at test_bots.py:")
    assert told[:-1] == [f"{first}; the first legal call was sent instead (a fallback)"]
    assert told[-1].startswith("match ")  # then the match's result (test_match_result.py)
    assert ann.stats.errors.count("choose: RuntimeError('bug in choose')") == 2
    assert [e for e in ann.stats.errors if not e.startswith("choose:")] == []  # no refusals
    seat = my_seat(seen)
    made = events(seen, "call") + events(seen, "play")
    mine = [e for e in made if e.get_int("seat") == seat]
    assert len(mine) >= 6
    assert [e.line for e in mine if e.get_int("auto") == 1] == []  # the clock never ran out
    (end,) = events(seen, "match-end")
    assert end.get_str("reason") in ("target", "claim")


async def test_a_choose_past_its_clock_is_said_as_the_first_fault(
    start_server: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``choose`` that misses its clock is a fallback with a reason, told as an
    exception or an answer not legal is. Failed before: counted as a fallback and
    nothing more (a ladder's report: ``1 fallback, 0 exceptions`` and no first fault,
    which left its author guessing)."""
    monkeypatch.setattr(clients.client, "CLOCK_MARGIN", MARGIN_S)
    port = await start_server(bot_clock_ms=2300)  # the Bot keeps 2 s back: 0.3 s to think
    calls = itertools.count()

    def slow_once(view: View) -> str:
        if next(calls) == 1:
            time.sleep(1.0)
        return view.legal[-1]

    told: list[str] = []
    ann = Bot(slow_once, "ann", port=port, seek="2 moscow to-301", games=1, tell=told.append)
    bob = Bot(random_choose(4), "bob", port=port, seek="2 moscow to-301", games=1)
    await play(ann, bob)
    assert ann.stats.fallbacks == 1
    assert ann.stats.first_fault == (
        "choose took longer than its 0.30 s (the request's clock=2300 ms less 2.0 s)"
    )
    assert told[:-1] == [
        f"{ann.stats.first_fault}; the first legal call was sent instead (a fallback)"
    ]


async def test_a_bot_with_pick_answers_every_ask_from_its_legal_calls_alone(
    start_server: StartServer,
) -> None:
    """``pick`` gets each ask's legal calls (``choose`` is never called: it would count
    an error); what it gets wrong costs a fallback to the first legal call, as for
    ``choose``."""
    port = await start_server()
    picked: list[list[str]] = []
    rng = random.Random(5)

    def pick(legal: list[str]) -> str:
        picked.append(list(legal))
        if len(picked) == 1:
            raise RuntimeError("bug in pick")
        return "nonsense" if len(picked) == 2 else rng.choice(legal)

    def choose(view: View) -> str:
        raise AssertionError("a bot with pick reads no view")

    ann = Bot(choose, "ann", port=port, seek="2 moscow to-301", games=2, pick=pick)
    bob = Bot(random_choose(6), "bob", port=port, seek="2 moscow to-301", games=2)
    await play(ann, bob)

    assert ann.stats.games == 2 and ann.stats.asks == len(picked) > 10
    assert all(picked) and ann.stats.fallbacks == 2
    assert ann.stats.errors == ["pick: RuntimeError('bug in pick')"]  # no refused line
    assert (ann.stats.first_fault or "").startswith("pick raised RuntimeError('bug in pick') at ")
    assert bob.stats.errors == [] and bob.stats.games == 2


async def _cutting_proxy(
    nursery: trio.Nursery, target: int, cut_after_asks: int
) -> tuple[int, trio.Event]:
    """A TCP relay to the server that cuts its first connection (both ways) once the
    server has sent that many ``ask`` lines through it; later connections pass."""
    cut = trio.Event()
    count = itertools.count()

    async def relay(client: trio.SocketStream) -> None:
        first = next(count) == 0
        server = await trio.open_tcp_stream("127.0.0.1", target)
        async with client, server, trio.open_nursery() as pipes:

            async def up() -> None:
                try:
                    async for data in client:
                        await server.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                pipes.cancel_scope.cancel()

            async def down() -> None:
                asks, buf = 0, b""
                try:
                    async for data in server:
                        await client.send_all(data)
                        *lines, buf = (buf + data).split(b"\r\n")
                        asks += sum(line.startswith(b"ask ") for line in lines)
                        if first and asks >= cut_after_asks:
                            cut.set()
                            break
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                pipes.cancel_scope.cancel()

            pipes.start_soon(up)
            pipes.start_soon(down)

    listeners: list[Any] = await nursery.start(
        functools.partial(trio.serve_tcp, relay, 0, host="127.0.0.1")
    )
    return listeners[0].socket.getsockname()[1], cut


async def test_a_dropped_connection_logs_in_again_and_the_match_finishes_with_it(
    start_server: StartServer, nursery: trio.Nursery
) -> None:
    port = await start_server()
    relay_port, cut = await _cutting_proxy(nursery, port, cut_after_asks=3)
    seen_ann: list[Item] = []
    seen_bob: list[Item] = []
    ann = Bot(
        random_choose(5),
        "ann",
        port=relay_port,
        seek="2 moscow to-301",
        games=1,
        on_event=seen_ann.append,
    )
    bob = Bot(
        random_choose(6),
        "bob",
        port=port,
        seek="2 moscow to-301",
        games=1,
        on_event=seen_bob.append,
    )
    await play(ann, bob)

    assert cut.is_set()
    assert ann.stats.games == bob.stats.games == 1
    assert ann.stats.logins == 2
    assert any(e.startswith("connection:") for e in ann.stats.errors)
    assert len(events(seen_bob, "start")) == 1  # the same match, resumed
    away = [e.get_str("name") for e in events(seen_bob, "away")]
    back = [e.get_str("name") for e in events(seen_bob, "back")]
    assert away == ["ann"] and back == ["ann"]
    assert seen_bob.index(events(seen_bob, "away")[0]) < seen_bob.index(events(seen_bob, "back")[0])
    (end,) = events(seen_bob, "match-end")
    assert end.get_str("reason") in ("target", "claim") and end.get_int("forfeit") is None
    assert events(seen_ann, "match-end")[-1].line == end.line  # ann saw the end too
    assert any(
        isinstance(v, View) and v.kind == "ask"
        for v in seen_ann[seen_ann.index(events(seen_ann, "back")[0]) :]
    )  # asked again after coming back


async def test_the_raw_bot_plays_one_game_against_a_random_bot(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server()
    seen: list[Item] = []
    ann = Bot(random_choose(7), "ann", port=port, seek="2", games=1, on_event=seen.append)
    raw = [sys.executable, str(ROOT / "clients" / "raw_bot.py"), "127.0.0.1", str(port), "rawbot"]
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ann.run)
            done = await trio.run_process(
                raw, capture_stdout=True, capture_stderr=True, check=False
            )
    assert done.returncode == 0, done.stderr.decode()
    assert ann.stats.games == 1 and ann.stats.errors == []
    (start,) = events(seen, "start")
    assert sorted(start.get_list("players")) == ["ann", "rawbot"]
    (end,) = events(seen, "match-end")
    assert end.get_str("reason") in ("target", "claim") and end.get_int("forfeit") is None
    carl = await connect.machine(port, "carl")
    await carl.send("games rawbot")
    assert (await carl.expect("games"))["count"] == "1"
    game = await carl.expect("game")
    assert game["players"] in ("ann,rawbot", "rawbot,ann") and game["reason"] == end.get_str(
        "reason"
    )


async def test_a_refused_login_stops_the_bot_at_once_not_after_its_reconnects(
    start_server: StartServer, register: Callable[[str, str], Awaitable[None]]
) -> None:
    port = await start_server()
    await register("ann", "right")
    ann = Bot(random_choose(1), "ann", port=port, password="wrong", games=1, reconnects=5)
    with trio.fail_after(30), pytest.raises(LoginRefused, match="wrong password"):
        await ann.run()
    assert ann.stats.logins == 0
    assert len(ann.stats.errors) == 1 and "code=bad-password" in ann.stats.errors[0]


async def test_an_admins_name_refused_at_login_stops_the_bot_at_once(
    start_server: StartServer,
) -> None:
    """'not-allowed' to a login (an admin's name is registered by the owner only) is as
    final as a wrong password: not 15 s of waiting for the login's time-out, 5 times."""
    port = await start_server(admins=["boss"])
    boss = Bot(random_choose(1), "boss", port=port, password="s3cret-pass", games=1)
    with trio.fail_after(30), pytest.raises(LoginRefused, match="an admin's name"):
        await boss.run()
    assert boss.stats.logins == 0 and len(boss.stats.errors) == 1


async def test_a_bot_process_whose_login_is_refused_exits_with_status_2_and_says_why(
    start_server: StartServer, register: Callable[[str, str], Awaitable[None]]
) -> None:
    port = await start_server()
    await register("ann", "right")
    command = [sys.executable, "-m", "clients.random_bot", "--port", str(port), "--name", "ann"]
    with trio.fail_after(30):
        done = await trio.run_process(
            [*command, "--password", "wrong"],
            cwd=ROOT,
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.decode() == "ann: login refused: wrong password for that name\n"


def test_a_bot_process_imports_the_protocol_not_the_engine_nor_the_server() -> None:
    """What a bot given to a ladder as a command pays at its start-up: the client
    library, the wire module and the cards, not the deal's and match's classes, the
    plugins, the server, its logging or the package metadata."""
    probe = (
        "import sys, clients.random_bot, clients.heuristic_bot\n"
        "heavy = ('deberc_net.game.deal', 'deberc_net.game.match', 'deberc_net.plugins',\n"
        "         'deberc_net.server', 'structlog', 'importlib.metadata', 'pluggy')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
