"""'games NAME' of a name nobody holds nor has played under said "No finished games for
NAME.", as if he were a player (s43's leftover); 'finger NAME' says there is no such
player. It says so now, as 'finger' does, in either style and language; a real player
with no finished game (registered, or logged in) is still told he has none
(docs/protocol.md §5.11)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .client import LineClient
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
