"""A reference bot the server refuses (at login, at seek) or never reaches says so in
one line and exits with status 2, at once: never a silent wait, never a traceback.
Real bot processes against a real server on loopback, each under a hard time limit."""

from __future__ import annotations

import contextlib
import functools
import math
import re
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio
import trio.testing

from clients.client import Bot, Connection, LoginPutOff, PutOff, SeekPutOff, SeekRefused
from deberc_net.server.local import local_stream_pair
from tests.server.conftest import Connector, make_config, running_server

ROOT = Path(__file__).resolve().parents[2]
StartServer = Callable[..., Awaitable[int]]


async def _bot(module: str, *flags: str) -> tuple[int, str]:
    """The bot's exit status and what it said on stderr (it must end within 30 s)."""
    with trio.fail_after(30):
        done = await trio.run_process(
            [sys.executable, "-m", f"clients.{module}", *flags],
            cwd=ROOT,
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    return done.returncode, done.stderr.decode()


@pytest.mark.parametrize(
    ("module", "seek", "said"),
    [
        (
            "random_bot",
            "5",
            "r1: seek refused: no game here is played by 5: PLAYERS is 2, 3 or 4"
            " (seek [PLAYERS] [VARIANT] [OPTION ...])\n",
        ),
        ("heuristic_bot", "2 nosuchopt", "r1: seek refused: unknown option 'nosuchopt'; "),
    ],
)
async def test_a_seek_the_server_refuses_ends_the_bot_with_its_text(
    start_server: StartServer, module: str, seek: str, said: str
) -> None:
    port = await start_server()
    status, err = await _bot(module, "--port", str(port), "--name", "r1", "--seek", seek)
    assert status == 2 and err.startswith(said) and err.count("\n") == 1, err


async def test_a_registered_name_without_its_password_ends_the_bot_with_the_servers_text(
    start_server: StartServer, register: Callable[[str, str], Awaitable[None]]
) -> None:
    port = await start_server()
    await register("newbie", "secret")
    status, err = await _bot("random_bot", "--port", str(port), "--name", "newbie")
    assert (status, err) == (2, "newbie: login refused: newbie is registered: give the password\n")


async def test_a_login_the_server_refuses_for_any_reason_ends_the_bot(
    start_server: StartServer,
) -> None:
    """Not only a password: a name the server never gives (house-…) is refused too."""
    port = await start_server()
    status, err = await _bot("random_bot", "--port", str(port), "--name", "house-x")
    assert status == 2 and err.startswith("house-x: login refused: "), err
    assert err.count("\n") == 1


@pytest.mark.parametrize("flag", ["--name", "--password"])
async def test_a_name_or_password_of_two_words_is_a_usage_error_not_another_login(
    flag: str,
) -> None:
    """'bad name' would log in as 'bad' with the password 'name' (and register it)."""
    flags = {"--name": "ann", "--password": "pw"} | {flag: "bad name"}
    status, err = await _bot("random_bot", "--port", "1", *(x for kv in flags.items() for x in kv))
    assert status == 2 and f"{flag} is one word, not 'bad name'" in err, err


async def test_a_server_never_reached_is_one_line_cannot_connect() -> None:
    with socket.socket() as held:  # bound, never listening: every connect is refused
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        status, err = await _bot(
            "search_bot", "--port", str(port), "--name", "s1", "--reconnects", "1"
        )
    assert status == 2 and "Traceback" not in err, err
    assert err == f"s1: cannot connect to 127.0.0.1:{port}: Connection refused\n"


async def test_the_library_raises_seek_refused_at_once_not_after_reconnects(
    start_server: StartServer,
) -> None:
    port = await start_server()
    bot = Bot(lambda view: view.legal[0], "ann", port=port, seek="2 nosuchopt", games=1)
    with trio.fail_after(30), pytest.raises(SeekRefused, match="unknown option 'nosuchopt'"):
        await bot.run()
    assert bot.stats.logins == 1 and len(bot.stats.errors) == 1


async def test_a_login_put_off_busy_is_tried_again_not_a_refusal(
    start_server: StartServer,
) -> None:
    """'busy' answering a login ('too many registrations at once: try again') says
    later, not no: the bot tries again, as after a drop, and gives up only after its
    reconnects."""
    port = await start_server(registrations_waiting=0)  # every registration: busy
    bot = Bot(lambda view: view.legal[0], "ann", port=port, password="pw1-ann", reconnects=2)
    with trio.fail_after(30), pytest.raises(LoginPutOff, match="try again"):
        await bot.run()
    assert [e.split(" ", 2)[:2] for e in bot.stats.errors if e.startswith("error")] == [
        ["error", "code=busy"]
    ] * 3


async def test_a_bot_whose_login_is_put_off_for_good_says_so_in_one_line(
    start_server: StartServer,
) -> None:
    port = await start_server(registrations_waiting=0)
    flags = ("--name", "r1", "--password", "pw-r1-p", "--reconnects", "1")
    status, err = await _bot("random_bot", "--port", str(port), *flags)
    assert (status, err) == (
        2,
        "r1: login put off, 2 tries: too many registrations at once: try again\n",
    )


async def test_a_login_put_off_with_a_wait_is_tried_again_after_that_wait(
    start_server: StartServer,
    connect: Connector,
    register: Callable[[str, str], Awaitable[None]],
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A login's 'slow-down' says its wait (wait_ms=, docs/protocol.md §4.2, §10): the
    bot tried again after its own backoff of a fraction of a second, was refused again
    and gave up (an operator's tryout). It waits as told, says so, and is let in."""
    await register("anna", "secret")
    port = await start_server(failed_logins_per_name=2, failure_window_ms=300_000)
    for n in range(2):  # two wrong passwords for anna: her logins are put off
        guesser = await connect.raw(port, f"guess{n}")
        await guesser.send("style machine")
        await guesser.send("login anna wrong")
        assert (await guesser.expect("error"))["code"] == "bad-password"
    told: list[str] = []
    bot = Bot(lambda view: view.legal[0], "anna", port=port, password="secret", tell=told.append)
    bot.reconnects = 1  # one retry: the one after the wait told
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot.run)
        with trio.fail_after(400):
            while not bot.stats.logins:
                await trio.sleep(1)
        nursery.cancel_scope.cancel()
    waited = trio.current_time() - start
    assert 295 < waited < 310  # the window, from the guesses: one retry, as told
    [put_off] = [e for e in bot.stats.errors if e.startswith("error")]
    assert put_off.startswith("error code=slow-down wait_ms=")
    seconds = -(-int(put_off.split()[2].removeprefix("wait_ms=")) // 1000)
    assert told == [
        "login put off: too many wrong passwords for this name or from your address: "
        f"wait {seconds} s; logging in again in {seconds} s"
    ]


def test_a_login_put_off_carries_its_wait() -> None:
    assert LoginPutOff("busy").wait_s is None
    put_off = LoginPutOff("wait 3 s", 2.5)
    assert (str(put_off), put_off.wait_s) == ("wait 3 s", 2.5)


FULL = "too many tables are open; sit at one or try again later"


async def _full_server(start_server: StartServer, connect: Connector) -> int:
    """A server with its one table open (of another game) and one seeker of '2'
    waiting: the next seek of '2' would open a table, so it is answered 'busy' (and not
    recorded). (With room for none, max_tables = 0, every seek is refused: no games.)"""
    port = await start_server(max_tables=1)
    cat = await connect.machine(port, "cat")
    await cat.send("new 2 to-1001")
    await cat.expect("ok", cmd="sit")
    ann = await connect.machine(port, "ann")
    await ann.send("seek 2")
    await ann.expect("ok", cmd="seek")
    return port


async def test_a_seek_put_off_busy_is_said_and_sought_again_after_a_wait_then_given_up(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """'busy' answering a seek (too many tables open) says later, not no: the bot says
    so, seeks again after 1 s, then 2 s, …, and gives up after its reconnects, with a
    PutOff (a ConnectionError) as a login put off as often is: one thing to catch."""
    port = await _full_server(start_server, connect)
    told: list[str] = []
    bot = Bot(lambda view: view.legal[0], "bob", port=port, reconnects=2, tell=told.append)
    start = trio.current_time()
    with trio.fail_after(60), pytest.raises(ConnectionError, match=FULL) as raised:
        await bot.run()
    assert isinstance(raised.value, SeekPutOff) and isinstance(raised.value, PutOff)
    assert (raised.value.what, raised.value.wait_s) == ("seek", None)
    assert told == [
        f"seek put off: {FULL}; seeking again in 1 s",
        f"seek put off: {FULL}; seeking again in 2 s",
    ]
    assert trio.current_time() - start >= 3
    assert bot.stats.logins == 1  # sought again on the same connection
    assert [e for e in bot.stats.errors if "code=busy" in e] == [f"error code=busy text={FULL}"] * 3


async def test_a_seek_put_off_then_room_made_seats_the_bot(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """The cap full (one table open), the bot's seek is put off; the table closes, and
    the bot's next seek opens a table with the seeker waiting."""
    port = await start_server(max_tables=1)
    cat = await connect.machine(port, "cat")
    await cat.send("new 2 to-1001")  # the one table, of another game than the seek's
    await cat.expect("ok", cmd="sit")
    ann = await connect.machine(port, "ann")
    await ann.send("seek 2")
    await ann.expect("ok", cmd="seek")
    told: list[str] = []
    bot = Bot(lambda view: view.legal[0], "bob", port=port, tell=told.append)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot.run)
        with trio.fail_after(5):
            while not told:
                await trio.sleep(0.01)
        await cat.send("leave")  # the table closes: room for one
        await ann.expect("ok", cmd="sit", timeout=30)
        nursery.cancel_scope.cancel()
    assert told == [f"seek put off: {FULL}; seeking again in 1 s"]


async def test_a_seek_put_off_slow_down_is_sought_again_after_the_wait_told(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A seek refused 'slow-down' (its address's seats given up too often, docs/protocol.md
    §5.4) was left unanswered: the bot waited for a game that never came. It says so,
    seeks again once the wait told (wait_ms=) is over, not at its own 1 s (which would
    be refused again), and is seated."""
    # (a seat every 3.33 s: a wait told in whole seconds, rounded up, as the server does)
    port = await start_server(seat_churn_per_address_burst=1, seat_churn_per_address_per_s=0.3)
    cat = await connect.machine(port, "cat")  # the bot's address (127.0.0.1)
    await cat.send("new 2")
    await cat.expect("ok", cmd="sit")
    await cat.send("leave")  # the address's one seat given up: the next in 3.334 s
    await cat.expect("ok", cmd="leave")
    told: list[str] = []
    bot = Bot(lambda view: view.legal[0], "bob", port=port, tell=told.append)
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot.run)
        with trio.fail_after(5):
            while not told:
                await trio.sleep(0.01)
        ann = await connect.machine(port, "ann", source="127.0.0.2")
        await ann.send("seek 2")
        await ann.expect("ok", cmd="sit", timeout=60)  # with bob, sought again
        nursery.cancel_scope.cancel()
    assert trio.current_time() - start >= 3.334
    slow = "too many seats taken and left at once: wait 4 s"
    assert told == [f"seek put off: {slow}; seeking again in 4 s"]
    assert [e for e in bot.stats.errors if "slow-down" in e] == [
        f"error code=slow-down wait_ms=3334 text={slow}"
    ]


async def test_a_bot_whose_seek_is_put_off_for_good_says_so_in_one_line(
    start_server: StartServer, connect: Connector
) -> None:
    port = await _full_server(start_server, connect)
    flags = ("--name", "r1", "--reconnects", "0")
    status, err = await _bot("random_bot", "--port", str(port), *flags)
    assert (status, err) == (2, f"r1: seek put off, 1 try: {FULL}\n")


async def _raw_bot(port: int, name: str) -> tuple[int, str]:
    """clients/raw_bot.py (a script, not a module): its status and its stderr."""
    with trio.fail_after(30):
        done = await trio.run_process(
            [sys.executable, str(ROOT / "clients" / "raw_bot.py"), "127.0.0.1", str(port), name],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )
    return done.returncode, done.stderr.decode()


async def test_the_raw_bot_refused_at_login_says_so_and_exits_2(
    start_server: StartServer, register: Callable[[str, str], Awaitable[None]]
) -> None:
    port = await start_server()
    await register("newbie", "secret")
    status, err = await _raw_bot(port, "newbie")
    assert (status, err) == (2, "newbie: login refused: newbie is registered: give the password\n")


async def test_the_raw_bot_whose_seek_is_refused_says_so_and_exits_2(
    start_server: StartServer, connect: Connector
) -> None:
    port = await _full_server(start_server, connect)
    status, err = await _raw_bot(port, "rawbot")
    assert (status, err) == (2, f"rawbot: seek refused: {FULL}\n")


async def test_the_raw_bot_put_off_waits_as_told_seeks_again_and_plays(
    start_server: StartServer, connect: Connector
) -> None:
    """Its address has given up its one seat (one back in four seconds: 'wait_ms=' up to
    4000, room for the bot's start on a loaded machine): the raw bot's seek is put off
    'slow-down'. It says so, waits as told, seeks again, is seated and plays its game to
    the end. Failed before: 'seek refused', status 2."""
    port = await start_server(seat_churn_per_address_burst=1, seat_churn_per_address_per_s=0.25)
    cat = await connect.machine(port, "cat")  # the bots' address (127.0.0.1)
    await cat.send("new 2")
    await cat.expect("ok", cmd="sit")
    await cat.send("leave")
    await cat.expect("ok", cmd="leave")
    ann = Bot(lambda view: view.legal[0], "ann", port=port, seek="2", games=1)
    raw = [sys.executable, str(ROOT / "clients" / "raw_bot.py"), "127.0.0.1", str(port), "rawbot"]
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ann.run)  # (put off too, by the same address's seat)
            done = await trio.run_process(
                raw, capture_stdout=True, capture_stderr=True, check=False
            )
            if done.returncode:  # (no game for ann either)
                nursery.cancel_scope.cancel()
    err = done.stderr.decode()
    assert done.returncode == 0, err
    slow = "too many seats taken and left at once: wait [1-4] s"
    assert re.fullmatch(rf"rawbot: seek put off: {slow}; again in [0-9.]+ s\n", err), err
    assert ann.stats.games == 1
    await cat.send("games rawbot")
    assert (await cat.expect("games"))["count"] == "1"


async def _scripted_server(
    nursery: trio.Nursery, answers: dict[str, list[str]], login_limit_s: float = math.inf
) -> tuple[int, list[list[str]]]:
    """A listener on loopback that greets as a protocol 1 server and answers each line
    by its first word from ``answers`` (the next of its list, the last one ever after);
    its port, and the lines each connection has said (filled in as they come), then how
    it ended (GONE, TIMED_OUT; nothing: closed by the server otherwise). Before
    its 'ok cmd=login' a connection is refused all but 'style' and 'login', and closed
    ``login_limit_s`` after it opened, as the server's are (docs/protocol.md §2.1)."""
    heard: list[list[str]] = []

    async def handle(stream: trio.SocketStream) -> None:
        said_here: list[str] = []
        heard.append(said_here)
        limit = trio.current_time() + login_limit_s
        await stream.send_all(b"deberc-net 0.1 (protocol 1)\r\n")
        buffer, logged_in = b"", False
        with trio.move_on_after(30), contextlib.suppress(trio.BrokenResourceError):
            while True:
                data = None
                with trio.move_on_at(math.inf if logged_in else limit):
                    try:
                        data = await stream.receive_some()
                    except trio.BrokenResourceError:  # (closed with lines unread: a reset)
                        data = b""
                    if not data:
                        said_here.append(GONE)
                        break
                if data is None:
                    said_here.append(TIMED_OUT)
                    await stream.send_all(b"error code=login-timeout text=log in sooner\r\n")
                    break
                buffer += data
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    said_here.append(line.decode())
                    word = line.decode().split()[0]
                    said = answers[word] if logged_in or word in ("style", "login") else []
                    answer = (said.pop(0) if len(said) > 1 else said[0]) if said else NOT_IN
                    logged_in = logged_in or answer.startswith("ok cmd=login")
                    await stream.send_all(answer.encode() + b"\r\n")
        await stream.aclose()

    listeners = await nursery.start(functools.partial(trio.serve_tcp, handle, 0, host="127.0.0.1"))
    port: int = listeners[0].socket.getsockname()[1]
    return port, heard


SLOW = "error code=slow-down wait_ms=20 text=slow down: wait 1 s"
NOT_IN = "error code=not-logged-in text=log in first: login NAME [PASSWORD]"
GONE, TIMED_OUT = "(closed by the bot)", "(closed: login-timeout)"  # how each one ended


async def test_the_raw_bot_put_off_again_and_again_stops_after_a_few_tries(
    nursery: trio.Nursery,
) -> None:
    """Put off every time, it asks three times more, then stops as for a refusal."""
    answers = {"style": ["ok cmd=style"], "login": ["ok cmd=login"], "seek": [SLOW]}
    port, heard = await _scripted_server(nursery, answers)
    status, err = await _raw_bot(port, "rawbot")
    put_off = "rawbot: seek put off: slow down: wait 1 s; again in 0.02 s\n"
    assert (status, err) == (2, put_off * 3 + "rawbot: seek refused: slow down: wait 1 s\n")
    assert heard[0][:6] == ["style machine", "login rawbot"] + ["seek 2"] * 4


async def test_the_raw_bot_whose_login_is_put_off_logs_in_again_on_a_new_connection(
    nursery: trio.Nursery,
) -> None:
    """Put off for longer than the server keeps a connection not logged in: it waited
    on that connection, which was closed meanwhile ('login refused: log in sooner').
    It now closes it, waits as told and sends its three lines again on a new one."""
    answers = {
        "style": ["ok cmd=style"],
        "login": ["error code=slow-down wait_ms=1500 text=slow down: wait 2 s", "ok cmd=login"],
        "seek": ["ok cmd=seek\r\nevent kind=match-end"],  # (its game over at once: it quits)
        "quit": ["bye text=Goodbye."],
    }
    port, heard = await _scripted_server(nursery, answers, login_limit_s=1)
    status, err = await _raw_bot(port, "rawbot")
    assert (status, err) == (0, "rawbot: login put off: slow down: wait 2 s; again in 1.5 s\n")
    first, again = heard  # (the first one's seek, sent before the login's answer came,
    assert first[:2] == ["style machine", "login rawbot"]  # is not waited for: refused)
    assert first[-1] == GONE  # closed by the bot as it began to wait, not left open
    assert again[:4] == ["style machine", "login rawbot", "seek 2", "quit"]


async def _one_shot_server(nursery: trio.Nursery, said: bytes) -> int:
    """A listener on loopback that says ``said`` to each connection, reads what the bot
    says (until its seek, or its end), and closes it."""

    async def handle(stream: trio.SocketStream) -> None:
        await stream.send_all(said)
        heard = b""
        with trio.move_on_after(30):
            while b"seek 2\n" not in heard:
                data = await stream.receive_some()
                if not data:
                    break
                heard += data
        await stream.aclose()

    listeners = await nursery.start(functools.partial(trio.serve_tcp, handle, 0, host="127.0.0.1"))
    port: int = listeners[0].socket.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("said", "why"),
    [
        (
            b"deberc-net 9.0 (protocol 2)\r\n",
            "not a protocol 1 server: deberc-net 9.0 (protocol 2)",
        ),
        (b"deberc-net 0.1 (protocol 1)\r\n", "the server closed the connection"),
    ],
)
async def test_the_raw_bot_at_another_protocol_or_closed_without_bye_exits_2(
    nursery: trio.Nursery, said: bytes, why: str
) -> None:
    port = await _one_shot_server(nursery, said)
    assert await _raw_bot(port, "rawbot") == (2, f"rawbot: {why}\n")


async def test_the_raw_bot_that_cannot_connect_says_so_and_exits_2() -> None:
    with socket.socket() as held:  # bound, never listening: every connect is refused
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        status, err = await _raw_bot(port, "rawbot")
    assert (status, err) == (2, f"rawbot: connection to 127.0.0.1:{port}: Connection refused\n")


async def test_a_library_bot_at_a_server_of_another_protocol_says_so_in_one_line(
    nursery: trio.Nursery,
) -> None:
    port = await _one_shot_server(nursery, b"deberc-net 9.0 (protocol 2)\r\n")
    status, err = await _bot("random_bot", "--port", str(port), "--name", "r1")
    assert (status, err) == (
        2,
        f"r1: cannot play at 127.0.0.1:{port}: the server speaks protocol 2, this client 1\n",
    )


@pytest.mark.parametrize("count", ["-1", "²"])  # '²' is a digit to str.isdigit, not to int
async def test_reconnects_must_be_a_whole_number(count: str) -> None:
    status, err = await _bot("random_bot", "--name", "r1", "--reconnects", count)
    assert status == 2 and f"--reconnects is a whole number, 0 or more, not {count!r}" in err, err


async def test_a_bot_waiting_to_seek_again_notices_the_server_gone_at_once(
    db_path: Path,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """While a bot waits to seek again after 'busy' (here 8 s) it reads on: the server
    stopping is noticed at once, not after the wait."""
    told: list[str] = []
    bot = Bot(lambda view: view.legal[0], "bob", reconnects=5, tell=told.append)
    async with trio.open_nursery() as nursery:
        async with running_server(make_config(db_path, max_tables=1)) as port:
            cat = await connect.machine(port, "cat")  # the one table, of another game
            await cat.send("new 2 to-1001")
            await cat.expect("ok", cmd="sit")
            ann = await connect.machine(port, "ann")
            await ann.send("seek 2")
            await ann.expect("ok", cmd="seek")
            bot.port = port
            nursery.start_soon(bot.run)
            with trio.fail_after(60):
                while not told or "in 8 s" not in told[-1]:
                    await trio.sleep(0.01)
        stopped = trio.current_time()  # the server is gone, the bot in its 8 s wait
        with trio.fail_after(60):
            while not any(e.startswith("connection:") for e in bot.stats.errors):
                await trio.sleep(0.01)
        assert trio.current_time() - stopped < 1
        nursery.cancel_scope.cancel()


async def test_a_busy_answering_a_call_sent_before_the_seek_is_no_put_off() -> None:
    """After a match a bot says 'ping' before its 'seek' (answers come in the order of
    the lines): a 'busy' read before that pong answers a table call sent earlier, not
    the seek, and says no "seek put off"; one read after it is the seek's. The server is
    the test's, over an in-process link (``Bot.connect``)."""
    mine, theirs = local_stream_pair()
    server = Connection(theirs)
    said: list[str] = []  # by the bot
    told: list[str] = []

    async def connect() -> trio.abc.Stream:
        return mine

    async def hear() -> None:
        async for line in server.lines():
            said.append(line)

    async def answer(line: str) -> list[str]:
        """What the bot says to ``line``, once it waits for more."""
        before = len(said)
        await server.send(line)
        await trio.testing.wait_all_tasks_blocked()
        return said[before:]

    bot = Bot(lambda view: view.legal[0], "bob", connect=connect, tell=told.append)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(hear)
        nursery.start_soon(bot.run)
        await trio.testing.wait_all_tasks_blocked()
        assert said == ["style machine", "login bob"]
        assert await answer("ok cmd=style text=Machine style.") == []
        # no call can be waiting yet: no fence
        assert await answer("ok cmd=login name=bob text=Hello, bob.") == ["seek 2"]
        assert await answer("ok cmd=seek players=2 variant=moscow options= text=Waiting.") == []
        ended = "event seq=90 table=1 kind=match-end winner=0 totals=510,20"
        assert await answer(ended) == ["ping", "seek 2"]
        assert told == [
            "match ? at table 1: won by side 0 with 510, totals 510 : 20, 0 deals;"
            " seeking again ('seek 2')"
        ]
        told.clear()
        calls_busy = "error code=busy text=your earlier lines at tables are still being handled"
        assert await answer(calls_busy) == []
        assert await answer("ok cmd=ping text=pong") == []
        assert told == []  # the busy before the pong put nothing off
        assert await answer(f"error code=busy text={FULL}") == []
        assert told == [f"seek put off: {FULL}; seeking again in 1 s"]
        nursery.cancel_scope.cancel()
