"""A griefer who seeks, is matched, and leaves at once ('leave!') from several addresses
under fresh guest names (a hostile tryout, s30: three addresses aborted 49 of one
seeker's matches in 10 s; the seat allowance counts names and addresses, and a fresh
name has its own). A player whose match was aborted so keeps his seek, first in line,
and matchmaking keeps him apart from the leaver's name, and from an address that two
of his matches' leavers came from, for ``seek_apart_ms`` (docs/protocol.md §5.5).
Real sockets on loopback, on virtual time."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
import trio.testing

from .client import LineClient, fields, is_event
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

ROUNDS = 30  # the griefer's seeks, each under a fresh name
ADDRESSES = 3  # the griefer's addresses: 127.0.0.2 to 127.0.0.4
WAIT_S = 1.0  # how long a griefer waits for a match before he gives up (virtual)


async def _griefer_round(port: int, connect: Connector, n: int, addresses: int = ADDRESSES) -> bool:
    """One griefer seeks from his address under a fresh name; matched within WAIT_S,
    he leaves the match at once ('leave!'). Whether he was matched; he quits either way."""
    grief = await connect.machine(port, f"grief{n}", source=f"127.0.0.{2 + n % addresses}")
    await grief.send("seek 2")
    await grief.expect("ok", cmd="seek")
    matched = False
    with trio.move_on_after(WAIT_S):
        await grief.expect("ok", cmd="sit")
        matched = True
    if matched:
        await grief.read_until(lambda x: is_event(x, "start"))
        await grief.send("leave!")
        await grief.expect("ok", cmd="leave")
    await grief.send("quit")
    await grief.wait_closed()
    return matched


async def _victim_after(victim: LineClient) -> list[str]:
    """The victim's match was aborted: he reads to its end, then seeks again as a bot
    does after every match (his kept seek answers it as it stands). What he was told
    from the match's end on (its 'info' lines)."""
    await victim.read_until(lambda x: is_event(x, "match-end") and "reason=left" in x)
    mark = victim.pos
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    return [fields(x)[1]["text"] for x in victim.lines[mark:] if x.startswith("info ")]


async def test_a_griefer_from_three_addresses_aborts_few_of_a_seekers_matches(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()  # the default seat allowances: 5 a name, 20 an address
    victim = await connect.machine(port, "victim")
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    began = trio.current_time()
    aborted = 0
    told: list[str] = []
    for n in range(ROUNDS):
        if await _griefer_round(port, connect, n):
            aborted += 1
            told += await _victim_after(victim)
    window = trio.current_time() - began
    # before: 30 of 30 (every seek matched with him, in no time at all); now the two
    # names of each address, then the address is kept apart
    assert aborted == 2 * ADDRESSES, (aborted, window)
    assert window <= ROUNDS * WAIT_S + 1, window
    assert told[0] == (  # (a program: it seeks itself, first in line)
        "grief0 left before the first deal ended: seek a moscow game for 2 players again and"
        " you are first in line, and are not matched with grief0 again for 10 min."
    ), told
    # he is no one's to grief now, but an honest player from elsewhere meets him at once
    honest = await connect.machine(port, "honest", source="127.0.0.9")
    await honest.send("seek 2")
    await honest.expect("ok", cmd="seek")
    await honest.expect("ok", cmd="sit")
    await victim.expect("ok", cmd="sit")


async def test_a_griefer_from_five_addresses_does_not_push_his_own_out(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """Before, the victim kept the last 8 who left him: from a fifth address the
    griefer's ninth leave pushed out his first, its address was one name's again, and
    he went round the five for ever (all 40 seeks matched and left). Now an address
    kept apart stays so for its time, whatever fresh names come (kept_apart.py)."""
    port = await start_server()
    victim = await connect.machine(port, "victim")
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    aborted = 0
    for n in range(40):
        if await _griefer_round(port, connect, n, addresses=5):
            aborted += 1
            await _victim_after(victim)
    assert aborted == 2 * 5, aborted
    honest = await connect.machine(port, "honest", source="127.0.0.9")
    await honest.send("seek 2")
    await honest.expect("ok", cmd="sit")
    await victim.expect("ok", cmd="sit")


async def test_one_leaver_keeps_his_name_apart_not_his_address_and_only_for_a_while(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(seek_apart_ms=60_000)
    victim = await connect.machine(port, "victim")
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    assert await _griefer_round(port, connect, 0)  # grief0, from 127.0.0.2
    told = await _victim_after(victim)
    assert told[0].endswith("not matched with grief0 again for 1 min."), told
    # his name is kept apart, from any address (a guest's name is anyone's once he
    # has gone: whoever takes it meanwhile waits for another player)
    again = await connect.machine(port, "grief0", source="127.0.0.5")
    await again.send("seek 2")
    await again.expect("ok", cmd="seek")
    await again.send("ping")
    await again.expect("ok", cmd="ping")
    await again.send("quit")
    await again.wait_closed()
    assert not [x for x in again.lines if x.startswith("ok cmd=sit")]
    # one leaver does not blame his address: another there is matched at once
    neighbour = await connect.machine(port, "neighbour", source="127.0.0.2")
    await neighbour.send("seek 2")
    await neighbour.expect("ok", cmd="seek")
    sat = await victim.expect("ok", cmd="sit")
    assert sat["seat"] == "0", sat  # his seek first in line
    assert (await neighbour.expect("ok", cmd="sit"))["table"] == sat["table"]
    await neighbour.read_until(lambda x: is_event(x, "start"))
    await neighbour.send("leave!")  # a second name from that address leaves him
    await neighbour.expect("ok", cmd="leave")
    await _victim_after(victim)
    began = trio.current_time()
    third = await connect.machine(port, "third", source="127.0.0.2")  # now the address
    await third.send("seek 2")
    await third.expect("ok", cmd="seek")
    await third.send("ping")
    await third.expect("ok", cmd="ping")
    assert not [x for x in third.lines if x.startswith("ok cmd=sit")]
    # once grief0's minute is over one name of the address is left: they meet then
    sat = await victim.expect("ok", cmd="sit", timeout=120)
    assert 55 < trio.current_time() - began <= 61
    assert (await third.expect("ok", cmd="sit"))["table"] == sat["table"]


async def test_a_table_opened_by_a_leaver_does_not_take_the_seeker_he_left(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()
    victim = await connect.machine(port, "victim")
    grief = await connect.machine(port, "grief", source="127.0.0.2")
    await grief.send("new 2")
    await grief.expect("ok", cmd="sit")
    await victim.send("seek 2")  # sits at grief's table, which waits for this game
    await victim.expect("ok", cmd="sit")
    await grief.read_until(lambda x: is_event(x, "start"))
    await grief.send("leave!")
    await grief.expect("ok", cmd="leave")
    told = await _victim_after(victim)  # his seek is kept
    assert told[0].startswith("grief left before the first deal ended"), told
    await grief.send("new 2")  # the leaver's new table waits without him
    table = (await grief.expect("ok", cmd="sit"))["table"]
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    await grief.send("tables")
    assert (await grief.expect("table", id=table))["seats"] == "grief,-"
    honest = await connect.machine(port, "honest", source="127.0.0.3")
    await honest.send("new 2")  # anyone else's takes him at once
    other = (await honest.expect("ok", cmd="sit"))["table"]
    assert (await victim.expect("ok", cmd="sit"))["table"] == other


async def test_a_program_whose_match_was_left_is_not_seated_unasked(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A program (the machine style) decides its own seeks: its match left before the
    first deal ended, it is told that its next 'seek' of that game goes first in line,
    and is seated nowhere meanwhile. Before, the server sought for it at once: a bot
    whose last match that was ('--games N', or docs/bots.md's example, which quits at
    its match's end) was seated with the next honest seeker, then quit, and his match
    was played out on the clock against an empty seat (50 s on virtual time)."""
    port = await start_server()
    victim = await connect.machine(port, "victim")
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    grief = await connect.machine(port, "grief", source="127.0.0.2")
    await grief.send("seek 2")
    await grief.read_until(lambda x: is_event(x, "start"))
    honest = await connect.machine(port, "honest", source="127.0.0.3")
    await honest.send("seek 2")  # he waits: the two are at their match
    await honest.expect("ok", cmd="seek")
    await grief.send("leave!")
    await grief.expect("ok", cmd="leave")
    await victim.read_until(lambda x: is_event(x, "match-end") and "reason=left" in x)
    kept = fields(await victim.read_until(lambda x: x.startswith("info ")))[1]["text"]
    assert kept == (
        "grief left before the first deal ended: seek a moscow game for 2 players again and you"
        " are first in line, and are not matched with grief again for 10 min."
    )
    await victim.send("leave")  # he waits for nothing: there is nothing to leave
    assert (await victim.expect("error"))["code"] == "not-seated"
    await victim.send("quit")  # his last game
    await victim.wait_closed()
    await honest.send("ping")
    await honest.expect("ok", cmd="ping")
    assert not [x for x in honest.lines if x.startswith("ok cmd=sit")]
    # the next seeker meets the honest one, who waited on
    other = await connect.machine(port, "other", source="127.0.0.4")
    await other.send("seek 2")
    table = (await other.expect("ok", cmd="sit"))["table"]
    assert (await honest.expect("ok", cmd="sit"))["table"] == table
