"""A reference bot the server refuses (at login, at seek) or never reaches says so in
one line and exits with status 2, at once: never a silent wait, never a traceback.
Real bot processes against a real server on loopback, each under a hard time limit."""

from __future__ import annotations

import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio

from clients.client import Bot, LoginPutOff, SeekRefused

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
        ("random_bot", "5", "r1: seek refused: 'moscow' is for 2, 3, 4 players, not 5\n"),
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
    with trio.fail_after(10), pytest.raises(SeekRefused, match="unknown option 'nosuchopt'"):
        await bot.run()
    assert bot.stats.logins == 1 and len(bot.stats.errors) == 1


async def test_a_login_put_off_busy_is_tried_again_not_a_refusal(
    start_server: StartServer,
) -> None:
    """'busy' answering a login ('too many registrations at once: try again') says
    later, not no: the bot tries again, as after a drop, and gives up only after its
    reconnects."""
    port = await start_server(registrations_waiting=0)  # every registration: busy
    bot = Bot(lambda view: view.legal[0], "ann", port=port, password="pw1", reconnects=2)
    with trio.fail_after(10), pytest.raises(LoginPutOff, match="try again"):
        await bot.run()
    assert [e.split(" ", 2)[:2] for e in bot.stats.errors if e.startswith("error")] == [
        ["error", "code=busy"]
    ] * 3


async def test_a_bot_whose_login_is_put_off_for_good_says_so_in_one_line(
    start_server: StartServer,
) -> None:
    port = await start_server(registrations_waiting=0)
    flags = ("--name", "r1", "--password", "p", "--reconnects", "1")
    status, err = await _bot("random_bot", "--port", str(port), *flags)
    assert (status, err) == (
        2,
        "r1: login put off, 2 tries: too many registrations at once: try again\n",
    )


@pytest.mark.parametrize("count", ["-1", "²"])  # '²' is a digit to str.isdigit, not to int
async def test_reconnects_must_be_a_whole_number(count: str) -> None:
    status, err = await _bot("random_bot", "--name", "r1", "--reconnects", count)
    assert status == 2 and f"--reconnects is a whole number, 0 or more, not {count!r}" in err, err
