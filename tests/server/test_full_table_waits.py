"""A waiting table does not deal to an empty chair (docs/protocol.md §12): filled while
a player who sat there is away, it waits for him, telling everyone there whom it waits
for, and deals the moment he is back; or his seat is freed at the away limit and the
next player to sit starts it. A ladder's board starts all the same, its away seat
forfeiting (§5.5a): a ladder never waits."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import trio
from trio.testing import MockClock

from .client import LineClient, fields, is_event
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]

WAITS = re.compile(
    r"Table (\d+) is full and waits for (.+) to come back, then the game starts;"
    r" a seat whose player is not back in time is freed for another player\."
)


async def _after_seated(client: LineClient, name: str) -> list[str]:
    """The two lines after ``name``'s 'seated' event (a round trip makes sure no more
    of its sitting's lines are on their way: the server answers in order)."""
    await client.expect("event", kind="seated", name=name)
    mark = client.pos
    await client.send("ping")
    await client.expect("ok", cmd="ping")
    return client.lines[mark : client.pos - 1]


def _waits_for(lines: list[str]) -> str:
    """The names the table says it waits for, from its 'info' line among ``lines``."""
    said = [fields(x)[1]["text"] for x in lines if x.startswith("info ")]
    assert len(said) == 1, lines
    waits = WAITS.fullmatch(said[0])
    assert waits is not None, said
    return waits.group(2)


async def _full_with_ann_away(
    port: int, connect: Connector
) -> tuple[str, LineClient, LineClient, LineClient]:
    """bob opens a three-player table, ann sits and drops, carl takes the last seat: the
    table, and bob, ann (closed) and carl."""
    bob = await connect.machine(port, "bob")
    await bob.send("new 3")
    table = (await bob.expect("ok", cmd="sit"))["table"]
    ann = await connect.machine(port, "ann")
    await ann.send(f"sit {table}")
    await bob.expect("event", kind="seated", name="ann")
    await ann.aclose()
    await bob.expect("event", kind="away", name="ann", seat="1")
    carl = await connect.machine(port, "carl")
    await carl.send(f"sit {table}")
    return table, bob, ann, carl


async def test_a_table_filled_while_a_sitter_is_away_waits_and_deals_when_he_is_back(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    table, bob, ann, carl = await _full_with_ann_away(port, connect)
    for client in (bob, carl):
        after = await _after_seated(client, "carl")
        assert not any(is_event(x, "start") for x in after), after  # no deal to his chair
        assert is_event(after[0], "away") and fields(after[0])[1]["name"] == "ann", after
        assert _waits_for(after) == "ann (120 s left)"  # the away limit, 2 min
    await carl.send("tables")
    await carl.expect("tables")
    listed = await carl.expect("table", id=table)
    assert (listed["state"], listed["seats"], listed["away"]) == ("waiting", "bob,ann,carl", "ann")
    human = await connect.human(port, "dan")  # the list says why a full table waits
    await human.send("tables")
    await human.read_until(
        lambda x: f"Table {table}: moscow for 3 players, waiting: bob, ann (away), carl" in x
    )
    eve = await connect.machine(port, "eve")
    await eve.send(f"sit {table}")  # full, though waiting
    assert (await eve.expect("error"))["code"] == "seat-taken"

    await trio.sleep(60)  # the table waits on; ann's seat is held the rest of the limit
    await bob.send("state")
    assert _waits_for([await bob.read_until(lambda x: x.startswith("info "))]) == "ann (60 s left)"
    assert not any(is_event(x, "start") for x in bob.lines + carl.lines)

    again = await connect.machine(port, "ann", token=ann.token)
    await again.expect("event", kind="back", name="ann")
    start = await again.expect("event", kind="start")
    assert start["players"] == "bob,ann,carl"
    view = fields(await again.read_until(lambda x: x.startswith(("ask ", "state "))))[1]
    assert view["seat"] == "1" and len(view["hand"].split(",")) == 6  # his cards
    for client in (bob, carl):
        await client.expect("event", kind="back", name="ann")
        assert (await client.expect("event", kind="start"))["players"] == "bob,ann,carl"


async def test_an_away_sitter_past_the_limit_frees_his_seat_and_the_next_to_sit_starts(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(away_limit_ms=3_000)  # within a client's 5 s wait
    table, bob, _, carl = await _full_with_ann_away(port, connect)
    eve = await connect.human(port, "eve")  # a person watching is told why the seat is free
    await eve.send(f"observe {table}")
    after = await _after_seated(bob, "carl")
    assert _waits_for(after) == "ann (3 s left)"
    await eve.read_until(lambda x: x == "ann was away too long: seat 1 is free for another player.")
    left = await bob.expect("event", kind="left", name="ann")
    assert left == {"seq": left["seq"], "table": table, "kind": "left", "name": "ann", "seat": "1"}
    assert not any(is_event(x, "start") for x in bob.lines + carl.lines)  # no match
    await bob.send("tables")
    await bob.expect("tables")
    assert (await bob.expect("table", id=table))["seats"] == "bob,-,carl"  # waits for one
    dan = await connect.machine(port, "dan")
    await dan.send(f"sit {table}")
    assert (await dan.expect("ok", cmd="sit"))["seat"] == "1"
    start = await dan.expect("event", kind="start")
    assert start["players"] == "bob,dan,carl"
    assert (await carl.expect("event", kind="start")) == start


async def test_a_seat_left_at_a_full_waiting_table_waits_for_its_away_player_first(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """A present player may leave the full table as any waiting one; a seeker of its
    game is not seated there while ann is away (docs/protocol.md §5.5: a seek passes a
    table with an away player by), and takes the seat left once she is back."""
    table, bob, ann, carl = await _full_with_ann_away(port, connect)
    await _after_seated(bob, "carl")
    dan = await connect.machine(port, "dan")
    await dan.send("seek 3")
    await dan.expect("ok", cmd="seek")  # no seat free: he waits for one
    await carl.send("leave")
    await carl.expect("ok", cmd="leave")
    await bob.expect("event", kind="left", name="carl")
    await dan.send("ping")  # a seat free, but ann is away: he waits on
    await dan.expect("ok", cmd="ping")
    assert not any(x.startswith("ok cmd=sit") for x in dan.lines), dan.lines
    again = await connect.machine(port, "ann", token=ann.token)
    assert (await dan.expect("ok", cmd="sit"))["table"] == table
    assert (await again.expect("event", kind="start"))["players"] == "bob,ann,dan"


async def test_a_tertz_table_waits_too_told_in_russian(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """The rule is every ordinary table's, Tertz's too (one Table): ann opens and
    drops; bob, watching and then sitting (a person, in Russian), is told whom it
    waits for; ann back, the match starts."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 tertz")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    bob = await connect.human(port, "bob")
    await bob.send("lang ru")
    await bob.send(f"observe {table}")
    await bob.read_until(lambda x: x.startswith(f"Стол {table} ждёт игроков"))
    await ann.aclose()
    await bob.read_until(lambda x: x.startswith("ann: связь потеряна"))
    await bob.send(f"sit {table}")
    await bob.read_until(lambda x: x.startswith(f"Вы за столом {table}"))
    said = [await bob.read_until(lambda _: True)]  # (not her away line again: s47)
    while not said[-1].endswith("."):  # wrapped for the terminal
        said.append(await bob.read_until(lambda _: True))
    assert " ".join(x.strip() for x in said) == (
        f"Стол {table} полон и ждёт возвращения: ann (осталось 120 с). Тогда начнётся"
        " партия; место того, кто не вернётся вовремя, освободится для другого игрока."
    )
    again = await connect.machine(port, "ann", token=ann.token)
    assert (await again.expect("event", kind="start"))["players"] == "ann,bob"
    view = fields(await again.read_until(lambda x: x.startswith(("ask ", "state "))))[1]
    assert view["hand"]  # his cards


async def test_a_board_filled_while_a_player_is_away_starts_and_that_seat_forfeits(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """Unchanged for a ladder's board: it starts with the seat away, and the seat
    forfeits at the away limit (a ladder must not stall)."""
    port = await start_server(admins=["boss"], away_limit_ms=300)
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    pa, pb = [await connect.machine(port, name) for name in ("pa", "pb")]
    await boss.send("reserve 2 seats=pa,pb deals=1")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    await pa.send("seek reserved")
    await pa.expect("ok", cmd="sit", table=table)
    await pa.aclose()
    await boss.expect("event", kind="away", name="pa")
    await pb.send("seek reserved")
    await pb.expect("ok", cmd="sit", table=table)
    start = await boss.expect("event", kind="start", table=table)
    assert start["players"] == "pa,pb"
    end = await boss.expect("event", kind="match-end", table=table)
    assert (end["reason"], end["forfeit"], end["winner"], end["name"]) == ("away", "0", "1", "pb")


async def test_a_person_is_told_once_whom_a_full_table_waits_for(
    port: int, connect: Connector
) -> None:
    """bob (the human style) heard "ann is disconnected; the seat is held 2 min." when
    she dropped, and when carl filled the table that again, then the table's line that
    says the same: whom it waits for and how long (s46). A person is told it once, by
    the table's line, as are the one who sits and a watcher; a program still gets the
    'away' event again (its fields), then that line."""
    bob = await connect.human(port, "bob")
    await bob.send("new 3")
    await bob.read_until(lambda x: x.startswith("You sit at table"))
    ann = await connect.machine(port, "ann")
    await ann.send("sit 1")
    await ann.expect("ok", cmd="sit")
    await ann.aclose()
    await bob.read_until(lambda x: x == "ann is disconnected; the seat is held 2 min.")
    eve = await connect.human(port, "eve")
    await eve.send("observe 1")
    await eve.read_until(lambda x: x.startswith("Table 1 waits for players"))
    bot = await connect.machine(port, "bot")
    await bot.send("observe 1")
    await bot.expect("ok", cmd="observe")
    carl = await connect.human(port, "carl")
    await carl.send("sit 1")
    full = "Table 1 is full and waits for ann (120 s left) to come back, then the game"
    await carl.read_until(lambda x: x.startswith("You sit at table 1, seat 2."))
    for person in (bob, eve):
        await person.read_until(lambda x: x == "carl sits at seat 2.")
    for person in (bob, eve, carl):
        assert await person.read_until(lambda _: True) == full, person.label
    await bot.expect("event", kind="seated", name="carl")
    assert fields(await bot.read_until(lambda _: True))[1]["kind"] == "away"
    assert WAITS.fullmatch(fields(await bot.read_until(lambda _: True))[1]["text"])
