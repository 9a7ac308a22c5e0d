"""'games NAME' of a name nobody holds nor has played under said "No finished games for
NAME.", as if he were a player (s43's leftover); 'finger NAME' says there is no such
player. It says so now, as 'finger' does, in either style and language; a real player
with no finished game (registered, or logged in) is still told he has none
(docs/protocol.md §5.11)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest

from .client import BOT_START_S, LineClient, fields, play_machine
from .conftest import Connector, StartServer

NOBODY = {"code": "unknown-player", "text": "no player called zed has played here"}


async def test_games_of_nobody_says_there_is_no_such_player(
    start_server: StartServer, connect: Connector, register: Callable[[str, str], Awaitable[None]]
) -> None:
    await register("rita", "ritas-pass")  # registered, never played
    port = await start_server()
    ann = await connect.machine(port, "ann")
    for asked in ("games zed", "finger zed"):  # as 'finger' tells it
        await ann.send(asked)
        assert await ann.expect("error") == NOBODY, asked
    await ann.send("games rita")
    assert await ann.expect("games") == {"name": "rita", "count": "0"}
    bob = await connect.machine(port, "bob")  # a guest here, no game yet
    await ann.send("games bob")
    assert await ann.expect("games") == {"name": "bob", "count": "0"}
    await ann.send("games")  # oneself
    assert await ann.expect("games") == {"name": "ann", "count": "0"}
    await bob.send("quit")
    anna = await connect.human(port, "anna")
    await anna.send("ping")  # (her greeting read)
    await anna.read_until(lambda x: x == "pong")
    assert await _told(anna, "games zed") == (
        "Error (unknown-player): no player called zed has played here"
    )
    assert await _told(anna, "games rita") == "No finished games for rita."
    await anna.send("lang ru")
    await anna.read_until(lambda x: x == "Язык: русский.")
    said = await _told(anna, "games zed")
    assert said.startswith("Ошибка") and said.endswith("под именем zed здесь не играли"), said
    assert await _told(anna, "games rita") == "У игрока rita нет законченных партий."


async def _told(person: LineClient, line: str) -> str:
    """What a person is told in answer to ``line`` (a ping's answer marks its end)."""
    await person.send(line)
    await person.send("ping")
    out = []
    while (said := await person.read_until(lambda _: True)) not in ("pong", "понг"):
        out.append(said.strip())
    return " ".join(out)


@pytest.mark.timeout(60)
async def test_games_of_a_house_bot_lists_the_rated_matches_its_copies_played(
    start_server: StartServer, connect: Connector, register: Callable[[str, str], Awaitable[None]]
) -> None:
    """'games house-heuristic' said 'No finished games' of a bot whose copies played
    rated matches, and, the house bots off, that nobody had played under the name, while
    'finger' listed them as its last games (a review, s44): it lists them, as 'finger'
    does (docs/protocol.md §5.11)."""
    await register("ann", "pw-ann-1")
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann", "pw-ann-1")
    await ann.send("new 2 short")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot heuristic rated")
    await ann.expect("ok", cmd="bot")
    end = fields(await play_machine(ann, random.Random(7), timeout=BOT_START_S))[1]
    assert end["kind"] == "match-end", end
    await ann.send("finger house-heuristic")
    last = (await ann.expect("finger"))["last"]
    assert last == end["match"], last
    for where in (port, await start_server(house_bots=False)):  # the house bots off too
        bob = await connect.machine(where, f"bob{where}")
        await bob.send("games house-heuristic")
        games = await bob.expect("games")
        assert (games["name"], games["count"]) == ("house-heuristic", "1"), games
        game = fields(await bob.read_until(lambda x: x.startswith("game ")))[1]
        assert game["match"] == end["match"], game
        await bob.send("finger house-heuristic")
        assert (await bob.expect("finger"))["last"] == last


async def test_games_of_a_banned_name_nobody_holds_is_unknown_to_an_admin_too(
    start_server: StartServer, connect: Connector, register: Callable[[str, str], Awaitable[None]]
) -> None:
    """An admin's 'finger' of a banned name nobody holds tells its ban (§5.18); 'games'
    has no game to list, and says nobody has played under it (docs/protocol.md §5.11)."""
    await register("boss", "boss-pass")
    port = await start_server(admins=["boss"])
    boss = await connect.machine(port, "boss", "boss-pass")
    await boss.send("ban zed")
    await boss.expect("ok", cmd="ban")
    await boss.send("finger zed")
    assert (await boss.expect("finger"))["registered"] == "0"
    await boss.send("games zed")
    assert await boss.expect("error") == NOBODY
