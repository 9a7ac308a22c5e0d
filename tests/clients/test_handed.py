"""An in-process bot over a link that hands it the server's bytes as they are written
(``Bot.attach``, ``Handed``): it answers in the server's own call, with the same lines
a bot reading the stream sends, says ``ping`` after a silence, and ends as such a bot
does (its failures raised, the link's end an EOFError)."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
import trio
import trio.testing

from clients import random_bot
from clients.client import KEEPALIVE_S, NOT_PLAYED_OUT, Bot, Handed, Receiver
from deberc_net.game.outcomes import FORFEITS, MatchEndReason
from deberc_net.server.app import serve
from deberc_net.server.local import LIMIT, LocalStream, local_stream_pair
from deberc_net.server.running import LocalLink
from deberc_net.server.store.base import SERVER_LOST, SHUTDOWN
from deberc_net.testing import rule_book
from tests.server.conftest import make_config


async def test_two_handed_random_bots_play_a_game_on_a_real_server(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    links: list[LocalLink] = []
    await nursery.start(
        functools.partial(
            serve, make_config(tmp_path / "d.sqlite3"), rules=rule_book(), local_bound=links.append
        )
    )
    bots = []
    for name in ("ann", "bob"):
        brain = random_bot.brain(name, "7")
        bot = Bot(brain.choose, name, seek="2", games=1, inline=True, pick=brain.pick)
        bot.attach = links[0].connect
        bots.append(bot)
    with trio.fail_after(30):
        async with trio.open_nursery() as players:
            for bot in bots:
                players.start_soon(bot.run)
    for bot in bots:
        assert bot.stats.games == 1 and bot.stats.logins == 1
        assert bot.stats.asks > 0 and bot.stats.fallbacks == 0 and bot.stats.errors == []


class _Server:
    """The test's server end of a handed link."""

    def __init__(self) -> None:
        self.end: LocalStream | None = None
        self.mine: LocalStream | None = None  # the bot's

    async def attach(self, receiver: Receiver) -> LocalStream:
        self.mine, self.end = local_stream_pair(receiver)
        return self.mine

    def say(self, line: str) -> None:
        assert self.end is not None
        self.end.write_nowait(f"{line}\n".encode())

    async def heard(self) -> bytes:
        assert self.end is not None
        return await self.end.receive_some()


def _bot() -> Bot:
    rng = random.Random(1)
    return Bot(lambda view: view.legal[0], "ann", inline=True, pick=rng.choice)


async def test_a_handed_bot_answers_inside_the_servers_write_and_pings_when_silent(
    autojump_clock: trio.testing.MockClock,
) -> None:
    server, bot = _Server(), _bot()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(Handed(bot).play, server.attach)
        await trio.testing.wait_all_tasks_blocked()
        assert await server.heard() == b"style machine\nlogin ann\n"
        server.say("deberc-net 0.1 (protocol 1)")
        server.say("ok cmd=login name=ann guest=1 token=t1")
        assert bot.token == "t1"  # read in the write's own call
        assert await server.heard() == b"seek 2\n"
        server.say("ask seq=5 table=1 kind=ask legal=pas,7s")
        assert bot.stats.asks == 1
        assert (await server.heard()).decode() in ("pas seq=5\n", "7s seq=5\n")
        start = trio.current_time()
        assert await server.heard() == b"ping\n"
        assert trio.current_time() - start >= KEEPALIVE_S
        server.say("ok cmd=seek reserved=1 text=Waiting.")  # asks nothing
        server.say("event seq=9 table=1 kind=play seat=1 card=7s text=no kind=match-end")
        server.say("event seq=10 table=1 kind=match-end winner=0 reason=deals totals=90,0")
        assert await server.heard() == b"ping\nseek 2\n"  # after the match: a fence, then the seek
        assert bot.stats.games == 1
        server.say("bye")


async def _seek_put_off(server: _Server, bot: Bot, nursery: trio.Nursery) -> float:
    """A handed bot logs in and seeks, and its seek is answered 'busy'; when."""
    nursery.start_soon(Handed(bot).play, server.attach)
    await trio.testing.wait_all_tasks_blocked()
    assert await server.heard() == b"style machine\nlogin ann\n"
    server.say("ok cmd=style style=machine")
    server.say("ok cmd=login name=ann guest=1 token=t1")
    assert await server.heard() == b"seek 2\n"
    start: float = trio.current_time()
    server.say("error code=busy text=too many tables are open")
    return start


async def test_a_handed_bot_whose_seek_is_put_off_seeks_again_after_a_wait(
    autojump_clock: trio.testing.MockClock,
) -> None:
    server, bot = _Server(), _bot()
    told: list[str] = []
    bot.tell = told.append
    async with trio.open_nursery() as nursery:
        start = await _seek_put_off(server, bot, nursery)
        assert await server.heard() == b"seek 2\n"
        assert trio.current_time() - start >= 1
        assert told == ["seek put off: too many tables are open; seeking again in 1 s"]
        server.say("bye")


async def test_a_handed_bot_waiting_to_seek_again_ends_at_a_bye_not_after_the_wait(
    autojump_clock: trio.testing.MockClock,
) -> None:
    server, bot = _Server(), _bot()
    bot.tell = lambda line: None
    async with trio.open_nursery() as nursery:
        start = await _seek_put_off(server, bot, nursery)  # a wait of 1 s
        await trio.testing.wait_all_tasks_blocked()
        server.say("bye")
    assert trio.current_time() - start < 1


async def test_a_handed_bots_failure_is_raised_by_its_session_not_in_the_servers_write() -> None:
    server, bot = _Server(), _bot()

    async def refuse() -> None:
        await trio.testing.wait_all_tasks_blocked()
        server.say("error code=name-in-use text=taken")  # does not raise here

    async with trio.open_nursery() as nursery:
        nursery.start_soon(refuse)
        with pytest.raises(PermissionError, match="taken"):
            await Handed(bot).play(server.attach)


async def test_a_handed_bot_whose_server_closes_the_link_ends_with_eof() -> None:
    server, bot = _Server(), _bot()

    async def close() -> None:
        await trio.testing.wait_all_tasks_blocked()
        assert server.end is not None
        await server.end.aclose()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(close)
        with pytest.raises(EOFError):
            await Handed(bot).play(server.attach)


async def test_what_a_handed_bot_cannot_write_at_once_its_task_sends_after_in_order() -> None:
    server, bot = _Server(), _bot()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(Handed(bot).play, server.attach)
        await trio.testing.wait_all_tasks_blocked()
        assert server.mine is not None and server.end is not None
        greeting = await server.heard()
        assert server.mine.write_nowait(b"x" * LIMIT) == LIMIT  # the server reads nothing
        server.say("ask seq=5 table=1 kind=ask legal=pas")
        server.say("ask seq=6 table=1 kind=ask legal=7s")
        await trio.testing.wait_all_tasks_blocked()  # the bot's task waits for room
        got = b""
        while not got.endswith(b"seq=6\n"):
            got += await server.end.receive_some()
        server.say("bye")
    assert greeting == b"style machine\nlogin ann\n"
    assert got == b"x" * LIMIT + b"pas seq=5\n7s seq=6\n"


async def test_an_answer_while_the_bots_task_still_sends_its_backlog_waits_behind_it() -> None:
    """The server reads room free and asks again before the bot's task has run: the new
    answer must not overtake the backlog the task is still sending."""
    server, bot = _Server(), _bot()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(Handed(bot).play, server.attach)
        await trio.testing.wait_all_tasks_blocked()
        assert server.mine is not None and server.end is not None
        await server.heard()  # the greeting
        assert server.mine.write_nowait(b"x" * LIMIT) == LIMIT  # the server reads nothing
        server.say("ask seq=5 table=1 kind=ask legal=pas")
        await trio.testing.wait_all_tasks_blocked()  # the bot's task waits for room
        got = await server.end.receive_some()  # room again; the bot's task not yet run
        server.say("ask seq=6 table=1 kind=ask legal=7s")  # in the same call
        while got.count(b"\n") < 2:
            got += await server.end.receive_some()
        server.say("bye")
    assert got == b"x" * LIMIT + b"pas seq=5\n7s seq=6\n"


async def _backlog_then_close(server: _Server, last_words: str | None) -> None:
    """The server reads nothing, so the bot's answer waits in its backlog; it says
    ``last_words`` (if any) and closes the link with the backlog still unsent."""
    await trio.testing.wait_all_tasks_blocked()
    assert server.mine is not None and server.end is not None
    await server.heard()  # the greeting
    assert server.mine.write_nowait(b"x" * LIMIT) == LIMIT
    server.say("ask seq=5 table=1 kind=ask legal=pas")
    if last_words is not None:
        server.say(last_words)
    await trio.testing.wait_all_tasks_blocked()  # the bot's task waits for room
    await server.end.aclose()


async def test_a_handed_bot_whose_server_closes_with_its_backlog_unsent_ends_with_eof() -> None:
    server, bot = _Server(), _bot()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_backlog_then_close, server, None)
        with pytest.raises(EOFError, match="closed the connection"):
            await Handed(bot).play(server.attach)


async def test_a_handed_bots_own_failure_is_raised_though_its_backlog_could_not_be_sent() -> None:
    server, bot = _Server(), _bot()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_backlog_then_close, server, "error code=name-in-use text=taken")
        with pytest.raises(PermissionError, match="taken"):
            await Handed(bot).play(server.attach)


async def test_a_bot_whose_table_closes_with_no_match_end_says_so_and_seeks_again(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A table closed under the bot with no match-end (a stop, a lost worker's table)
    is named by the info line's closed= (docs/protocol.md §11.4); another table's
    closing, or a text that only looks like one, is not the bot's."""
    server, bot = _Server(), _bot()
    told: list[str] = []
    bot.tell = told.append
    async with trio.open_nursery() as nursery:
        nursery.start_soon(Handed(bot).play, server.attach)
        await trio.testing.wait_all_tasks_blocked()
        assert await server.heard() == b"style machine\nlogin ann\n"
        server.say("ok cmd=login name=ann guest=1 token=t1")
        assert await server.heard() == b"seek 2\n"
        server.say("ok cmd=sit table=3 seat=0 seats=ann,- text=You sit at table 3, seat 0.")
        server.say("info closed=4 text=Table 4 closes: its server was lost.")
        server.say("info text=Table 3 closes: (a player's chat, say)")
        await trio.testing.wait_all_tasks_blocked()
        assert told == []
        server.say("info closed=3 text=Table 3 closes: its server was lost.")
        assert (await server.heard()).replace(b"ping\n", b"") == b"seek 2\n"
        assert told == ["Table 3 closes: its server was lost; seeking again ('seek 2')"]
        server.say("bye")


def test_the_bots_ends_not_played_out_are_the_servers_own_words() -> None:
    """The library bot names the match ends that were no game played out by their
    strings (the engine's enums cost its start-up); they are the server's reasons."""
    assert {*FORFEITS, MatchEndReason.INTERNAL, SHUTDOWN, SERVER_LOST} == NOT_PLAYED_OUT
