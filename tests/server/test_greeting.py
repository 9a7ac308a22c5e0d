"""The login greeting counts what that player may see: the tables 'tables' lists him
(a private table only to its own people, so to nobody else), and says "1 table" and
"1 player" as English does (Russian says counts as "Столов: N")."""

from __future__ import annotations

from .client import LineClient, help_commands, help_texts, person_told
from .conftest import Connector, StartServer


async def _greeting(port: int, name: str, lang: str = "") -> str:
    client = await LineClient.connect(port, name)
    try:
        await client.send(f"login {name}" + (f" lang={lang}" if lang else ""))
        greeting = await client.take(lambda line: line.startswith(("Hello,", "Здравствуйте,")))
        await client.send("tables")
        listed = await client.take(lambda line: line.startswith(("No tables", "Стол", "Table")))
    finally:
        await client.aclose()
    return f"{greeting}\n{listed}"


async def test_the_greeting_counts_only_listed_tables_and_says_one_in_the_singular(
    port: int, connect: Connector
) -> None:
    said = await _greeting(port, "petr")
    assert said.startswith("Hello, petr (guest). 0 tables, 1 player here. ")
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 private")
    await ann.expect("ok", cmd="sit")
    said = await _greeting(port, "ivan")
    assert said.startswith("Hello, ivan (guest). 0 tables, 2 players here. "), said
    assert said.endswith("\nNo tables. 'new' opens one, 'seek' waits for a game."), said
    bob = await connect.machine(port, "bob")
    await bob.send("new 2")
    await bob.expect("ok", cmd="sit")
    said = await _greeting(port, "oleg")
    assert said.startswith("Hello, oleg (guest). 1 table, 3 players here. "), said
    assert "\nTable " in said
    said = await _greeting(port, "pavel", lang="ru")
    assert said.startswith("Здравствуйте, pavel (гость). Столов: 1, игроков здесь: 3. "), said


async def test_one_back_at_his_seat_is_greeted_with_his_table_not_the_lobby(
    port: int, connect: Connector
) -> None:
    """A club tryout (s31): back at his seat, a person was greeted with the lobby's
    commands ('tables', 'new', 'sit N', …), then told of himself 'ann is back.'. He
    is told where he is, once; a program still gets its seat's 'back' event (§12)."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    assert ann.token is not None
    await ann.aclose()
    client = await LineClient.connect(port, "ann again")
    try:
        await client.send(f"login ann token={ann.token}")
        said = await client.take(lambda line: line.startswith("Hello,"))
        await client.send("tables")
        listed = await client.take(lambda x: x.startswith(("No tables", f"Table {table} (")))
    finally:
        await client.aclose()
    assert said.startswith(f"Hello, ann (guest). You are back at your seat at table {table}. ")
    assert listed.startswith(f"Table {table} (private)"), listed  # listed to her, as before
    assert not [x for x in client.lines if "is back" in x], client.lines
    machine = await connect.raw(port, "ann as a program")
    await machine.send(f"style machine\nlogin ann token={ann.token}")
    await machine.expect("ok", cmd="login")
    assert (await machine.expect("event", kind="back"))["name"] == "ann"


async def test_the_greeting_counts_a_private_table_to_those_invited(
    port: int, connect: Connector
) -> None:
    """A private table is listed to those seated at it or invited to it (docs/protocol.md
    §5.2): the greeting of one invited counts it as 'tables' lists it."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 private")
    await ann.expect("ok", cmd="sit")
    bob = await connect.machine(port, "bob")
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    client = await LineClient.connect(port, "bob again")
    try:
        assert bob.token is not None
        await client.send(f"login bob token={bob.token}")
        said = await client.take(lambda line: line.startswith("Hello,"))
    finally:
        await client.aclose()
    assert said.startswith("Hello, bob (guest). 1 table, 2 players here. "), said


async def _greeting_in_full(port: int, name: str, lang: str = "") -> str:
    """The greeting and the empty 'tables' as one text, their wrapped lines joined."""
    client = await LineClient.connect(port, name)
    try:
        await client.send(f"login {name}" + (f" lang={lang}" if lang else ""))
        await client.read_until(lambda line: line.startswith(("Hello,", "Здравствуйте,")))
        await client.send("tables")
        await client.read_until(lambda line: line.startswith(("No tables", "Столов нет")))
    finally:
        await client.aclose()
    return " ".join(line.strip() for line in client.lines)


async def test_a_server_closed_to_games_greets_and_lists_no_table_to_open(
    start_server: StartServer,
) -> None:
    """max_tables = 0 (docs/settings.md): 'new' and 'seek' are refused there, so the
    greeting does not offer them and an empty 'tables' does not say 'new' opens one:
    both say the server plays no games for now, in each language."""
    port = await start_server(max_tables=0)
    said = await _greeting_in_full(port, "petr")
    assert (
        "Hello, petr (guest). 0 tables, 1 player here. This server plays no games for now:"
        " 'who', 'top', 'help'. "
    ) in said, said
    assert said.endswith(" No tables: this server plays no games for now."), said
    assert "'new'" not in said, said
    said = await _greeting_in_full(port, "pavel", lang="ru")
    assert (
        "Здравствуйте, pavel (гость). Столов: 0, игроков здесь: 1. На этом сервере сейчас"
        " не играют; команды: who, top, help. "
    ) in said, said
    assert said.endswith(" Столов нет: на этом сервере сейчас не играют."), said


# the commands that lead to a game, refused on a server closed to games
OPENING = {"new", "sit", "seek", "unseek", "rematch"}


async def test_a_server_closed_to_games_lists_no_way_to_a_game_in_its_help(
    start_server: StartServer, connect: Connector
) -> None:
    """max_tables = 0: 'new', 'seek' (and 'sit', 'unseek', 'rematch') are refused there,
    and the greeting does not offer them, yet the lobby's help listed them as if they
    worked, and on a server with house bots ended "Nobody to play with? 'new 2' opens a
    table". Its list leaves them out and its last line says why, in either style and
    language; 'help new' still says what the command does."""
    port = await start_server(max_tables=0, house_bots=True)
    bot = await connect.machine(port, "bot")
    listed = await help_commands(bot)
    assert {"who", "top", "tables", "finger"} <= listed and not listed & OPENING, listed
    told = " ".join(" ".join(await help_texts(bot, "help")).split())
    assert told.endswith(
        "This server plays no games for now: no table opens here, so the commands that lead"
        " to one ('new', 'sit', 'seek', 'unseek', 'rematch') are not listed."
    ), told
    assert "Nobody to play with?" not in told and "At a table" not in told, told
    assert (await help_texts(bot, "help new"))[0].startswith("new [PLAYERS]")
    person = await connect.raw(port, "vera")
    await person.send("login vera lang=ru")
    lines = await person_told(person, "help")
    said = " ".join(x.strip() for x in lines)
    assert said.endswith(
        "На этом сервере сейчас не играют: столы не открываются, поэтому команды, которые"
        " ведут к партии (new, sit, seek, unseek, rematch), здесь не перечислены."
    ), said
    entries = {x.split()[0] for x in lines if x.startswith("  ") and not x.startswith("   ")}
    assert "who" in entries and not entries & OPENING, entries
    assert "Не с кем играть?" not in said, said


async def test_an_open_server_lists_every_way_to_a_game(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(house_bots=True)
    bot = await connect.machine(port, "bot")
    assert await help_commands(bot) >= OPENING
    told = " ".join(" ".join(await help_texts(bot, "help")).split())
    assert "no games" not in told and "Nobody to play with?" in told, told
