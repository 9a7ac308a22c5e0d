"""'rematch' over real sockets: the same players and rules again, seats rotated."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest
import trio
import trio.testing

from deberc_net.server.rematch import REMATCH_S

from .client import LineClient, fields, is_event, play_machine
from .conftest import Connector


async def _play_one(ann: LineClient, bob: LineClient, settings: str = "2 short") -> str:
    """A one-deal match of ann and bob at a new table; its table id."""
    await ann.send(f"new {settings}")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    if "private" in settings:
        await ann.send("invite bob")
        await ann.expect("ok", cmd="invite")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1))
        nursery.start_soon(play_machine, bob, random.Random(2))
    return table


async def test_a_rematch_when_both_ask_rotates_the_seats(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("rematch")  # no match yet
    assert await ann.expect("error") == {
        "code": "not-allowed",
        "text": "no rematch is on offer for you: one is asked within 60 s of your match's end",
    }
    table = await _play_one(ann, bob, "2 private short")
    first = fields(next(x for x in ann.lines if is_event(x, "start")))[1]["match"]
    await ann.send("rematch")
    assert await ann.expect("ok", cmd="rematch") == {
        "cmd": "rematch",
        "table": table,
        "asked": "ann",
        "waiting": "bob",
        "text": f"You ask for a rematch of table {table}. Waiting for bob.",
    }
    told = await bob.expect("rematch")
    assert [told[k] for k in ("table", "asked", "waiting", "off")] == [table, "ann", "bob", "-"]
    # (a person is told after the end that a rematch is on offer: a program, nothing new)
    assert not [x for x in ann.lines + bob.lines if "'rematch' within" in x]
    await bob.send("rematch")
    await bob.expect("ok", cmd="rematch", waiting="")
    sit_a = await ann.expect("ok", cmd="sit")
    sit_b = await bob.expect("ok", cmd="sit")
    assert sit_a["table"] == sit_b["table"] != table
    assert (sit_b["seat"], sit_a["seat"]) == ("0", "1")  # rotated
    start = fields(await ann.read_until(lambda x: is_event(x, "start")))[1]
    assert start["players"] == "bob,ann" and start["match"] != first
    await ann.send("rules")  # the same rules, and still private
    assert "short" in (await ann.expect("rules"))["text"]
    cat = await connect.machine(port, "cat")
    await cat.send("tables")
    assert (await cat.expect("tables"))["total"] == "0"


async def test_a_rematch_is_off_when_a_player_leaves_or_goes_elsewhere(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _play_one(ann, bob)
    await ann.send("rematch")
    await ann.expect("ok", cmd="rematch")
    await bob.send("seek 3")  # bob wants another game
    await bob.expect("ok", cmd="seek")
    off = await ann.expect("rematch")
    assert (off["table"], off["off"], off["by"]) == (table, "elsewhere", "bob")
    await bob.send("rematch")
    assert (await bob.expect("error"))["code"] == "not-allowed"
    await bob.send("unseek")
    await bob.expect("ok", cmd="unseek")

    table = await _play_one(ann, bob)
    await bob.send("rematch")
    await bob.expect("ok", cmd="rematch")
    await ann.aclose()
    off = await bob.expect("rematch")
    assert (off["table"], off["off"], off["by"]) == (table, "left", "ann")


async def test_a_table_call_after_the_match_says_the_match_is_over(
    port: int, connect: Connector
) -> None:
    """A 'pas' after the match ended got "'pas' is not a command, and you sit at no
    table", as if he had sat nowhere (hostile tryout): for 60 s after its end the
    refusal names his match's table, its rematch offer off or not (club evening s39:
    once it was off, the line was the bare one again)."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _play_one(ann, bob)
    await ann.send("pas")
    assert await ann.expect("error") == {
        "code": "unknown-command",
        "text": f"your match at table {table} is over: 'pas' is not a command, and you sit"
        " at no table. Type 'help'.",
    }
    await ann.send("style human")
    await ann.send("lang ru")  # and in Russian
    await ann.send("Kc seq=3")
    said = await ann.read_until(lambda x: x.startswith("Ошибка ("))
    said += " " + (await ann.read_until(lambda x: True)).strip()  # (wrapped at 80 columns)
    assert said == (
        f"Ошибка (unknown-command): ваша партия за столом {table} окончена: «Kc» — не"
        " команда, а за столом вы не сидите. Наберите help."
    )
    await bob.send("seek 3")  # the offer is off: still just over
    await bob.expect("ok", cmd="seek")
    await ann.send("pas")
    said = await ann.read_until(lambda x: x.startswith("Ошибка ("))
    said += " " + (await ann.read_until(lambda x: True)).strip()
    assert said == (
        f"Ошибка (unknown-command): ваша партия за столом {table} окончена: «pas» — не"
        " команда, а за столом вы не сидите. Наберите help."
    )


async def test_a_table_call_60_s_after_the_match_is_told_as_ever(
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
) -> None:
    port = await start_server()
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _play_one(ann, bob)
    await trio.sleep(REMATCH_S - 1)
    await ann.send("pas")
    assert (await ann.expect("error"))["text"].startswith(f"your match at table {table} is over")
    await trio.sleep(1)
    await ann.send("pas")
    assert await ann.expect("error") == {
        "code": "unknown-command",
        "text": "'pas' is not a command, and you sit at no table. Type 'help'.",
    }


async def test_a_rematch_not_agreed_in_time_is_off(
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
) -> None:
    port = await start_server()
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("style machine")
    await ann.expect("ok", cmd="style")
    await _play_one(ann, bob)
    await ann.send("style human")
    await ann.send("rematch")
    await ann.read_until(lambda x: x.startswith("You ask for a rematch"))
    off = await ann.read_until(lambda x: "is off" in x, timeout=120)
    assert off.endswith("is off: not everyone asked in time.")
    assert (await bob.expect("rematch", timeout=120))["off"] == "-"  # bob was told who asked
    assert (await bob.expect("rematch", timeout=120))["off"] == "timeout"


async def test_offers_of_matches_ended_apart_are_off_each_at_its_own_time(
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
) -> None:
    """One task calls the offers off in turn (rematch.py): the later match's offer is
    still open when the earlier one's is off, and is off REMATCH_S after its own end."""
    port = await start_server()
    ann, bob = await connect.machine(port, "ann"), await connect.machine(port, "bob")
    cat, dan = await connect.machine(port, "cat"), await connect.machine(port, "dan")
    await _play_one(ann, bob)
    first_end = trio.current_time()
    await ann.send("rematch")
    await ann.expect("ok", cmd="rematch")
    await trio.sleep(REMATCH_S / 2)
    await _play_one(cat, dan)
    second_end = trio.current_time()
    await cat.send("rematch")
    await cat.expect("ok", cmd="rematch")
    assert (await bob.expect("rematch", timeout=120))["off"] == "-"  # told ann asked
    assert (await bob.expect("rematch", timeout=120))["off"] == "timeout"
    assert first_end + REMATCH_S <= trio.current_time() < second_end + REMATCH_S
    await dan.send("rematch")  # cat's offer is still open: dan takes it up
    assert (await dan.expect("ok", cmd="rematch"))["waiting"] == ""  # nobody: it starts


async def test_asking_again_is_answered_but_the_others_are_told_once(
    port: int, connect: Connector
) -> None:
    # a tryout repeated 'rematch' 4,800 times in 25 s: each put a line on the other's
    # screen, till his outbox overflowed and he was cut off (failed before)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _play_one(ann, bob)
    for _ in range(20):
        await ann.send("rematch")
        assert (await ann.expect("ok", cmd="rematch"))["waiting"] == "bob"
    await bob.send("ping")
    await bob.expect("ok", cmd="ping")
    told = [x for x in bob.lines if x.startswith("rematch ")]
    assert len(told) == 1 and fields(told[0])[1]["table"] == table
    await bob.send("rematch")  # and the rematch itself still starts
    await bob.expect("ok", cmd="rematch", waiting="")
    await ann.expect("ok", cmd="sit")


async def test_the_second_seated_of_a_rematch_is_told_who_sits_already(
    port: int, connect: Connector
) -> None:
    # the rematch seats bob first, then ann: the 'seated' of bob went out before ann
    # was at the table, so her sit's reply names him
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await _play_one(ann, bob)
    await ann.send("rematch")
    await ann.expect("ok", cmd="rematch")
    await bob.send("rematch")
    await bob.expect("ok", cmd="rematch", waiting="")
    first = await bob.expect("ok", cmd="sit")
    second = await ann.expect("ok", cmd="sit")
    assert (first["seats"], first["text"]) == (
        "bob,-",
        f"You sit at table {first['table']}, seat 0.",
    )
    assert second["seats"] == "bob,ann"
    assert (
        second["text"] == f"You sit at table {second['table']}, seat 1. At the table: bob (seat 0)."
    )


async def test_the_one_who_left_is_not_told_a_rematch_is_on_offer(
    port: int, connect: Connector
) -> None:
    """A club tryout (s31): bob left the match and was told "'rematch' within 60 s
    plays again with the same players." as ann was. The offer stands (should ann ask,
    bob is told that); only the line to the one who chose to go is not said."""
    ann, bob = await connect.human(port, "ann"), await connect.human(port, "bob")
    await ann.send("new 2")
    table = (await ann.take(lambda x: x.startswith("You sit at table"))).split()[4].rstrip(",")
    await bob.send(f"sit {table}")
    await bob.take(lambda x: x.startswith("Your hand:"))
    await bob.send("leave!")
    offer = "'rematch' within 60 s plays again with the same players."
    await ann.take(lambda x: x == offer)
    await bob.take(lambda x: x.startswith("The game is over") or "left" in x)
    await bob.send("ping")
    await bob.take(lambda x: x.startswith("pong"))
    assert offer not in bob.lines, bob.lines
    await ann.send("rematch")
    await bob.take(lambda x: x.startswith(f"Rematch of table {table} asked by ann"))


async def test_players_whose_seek_is_kept_are_not_told_a_rematch_is_on_offer(
    port: int, connect: Connector
) -> None:
    """A club evening (s39): of three seekers of a Moscow game, gleb left in the first
    deal ('leave!'); anna and vera were told "'rematch' within 60 s plays again with
    the same players." and then that they wait for the same game again, first in line.
    That kept seek calls the offer off (docs/protocol.md §5.5), so vera's 'rematch'
    was refused: the line was untrue. Now they are told only what holds."""
    ann, bob = await connect.human(port, "ann"), await connect.human(port, "bob")
    await ann.send("seek 2")
    await ann.take(lambda x: x.startswith("Waiting for a moscow game for 2 players"))
    await bob.send("seek 2")
    await bob.take(lambda x: x.startswith("Your hand:"))
    await bob.send("leave!")
    await ann.take(lambda x: x.startswith("bob left before the first deal ended: you still"))
    await ann.send("rematch")
    await ann.take(lambda x: x.startswith("Error (not-allowed): the rematch of table"))
    offer = "'rematch' within 60 s plays again with the same players."
    assert offer not in ann.lines, ann.lines


async def test_a_rematch_called_off_is_refused_with_why(port: int, connect: Connector) -> None:
    """A club evening (s39): vera's 'rematch' 2 s after her match ended was refused "no
    rematch is on offer for you: one is asked within 60 s of your match's end", which
    she had: its offer had been called off. Each player is told why it is off (the
    code stays not-allowed, docs/protocol.md §5.16)."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _play_one(ann, bob)
    await bob.send("seek 3")  # bob goes to another game
    await bob.expect("ok", cmd="seek")
    await ann.send("rematch")
    assert await ann.expect("error") == {
        "code": "not-allowed",
        "text": f"the rematch of table {table} is off: bob went to another game",
    }
    await bob.send("rematch")  # his own step, as he did it
    assert await bob.expect("error") == {
        "code": "not-allowed",
        "text": f"the rematch of table {table} is off: you went to another game",
    }
    await bob.send("unseek")
    await bob.expect("ok", cmd="unseek")

    table = await _play_one(ann, bob)
    await bob.send("rematch")
    await bob.expect("ok", cmd="rematch")
    await ann.aclose()  # ann goes away
    assert (await bob.expect("rematch"))["off"] == "left"
    await bob.send("rematch")
    assert await bob.expect("error") == {
        "code": "not-allowed",
        "text": f"the rematch of table {table} is off: ann left",
    }


async def test_a_rematch_called_off_says_in_russian_what_stays_true(
    port: int, connect: Connector
) -> None:
    """The reason is told till the offer's 60 s are out: in Russian not «ann уже нет на
    сервере» once she is back, nor «bob уже в другой партии» once he has left it (the
    off= line's words, true as it is called off), but what they did."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _play_one(ann, bob)
    await bob.send("rematch")
    await bob.expect("ok", cmd="rematch")
    await ann.aclose()  # ann goes away
    assert (await bob.expect("rematch"))["off"] == "left"
    ann = await connect.machine(port, "ann")  # and is back
    await bob.send("style human")
    await bob.send("lang ru")
    await bob.send("rematch")
    assert await _person_said(bob, "Ошибка (") == (
        f"Ошибка (not-allowed): реванша за столом {table} не будет: его отменил выход игрока"
        " ann с сервера"
    )
    await bob.send("style machine")
    await bob.send("ping")
    await bob.expect("ok", cmd="ping")
    table = await _play_one(ann, bob)
    await bob.send("seek 3")  # bob goes to another game, and out of it again
    await bob.expect("ok", cmd="seek")
    await bob.send("unseek")
    await bob.expect("ok", cmd="unseek")
    await ann.send("style human")
    await ann.send("lang ru")
    await ann.send("rematch")
    assert await _person_said(ann, "Ошибка (") == (
        f"Ошибка (not-allowed): реванша за столом {table} не будет: его отменил уход игрока"
        " bob в другую партию"
    )


async def _person_said(client: LineClient, start: str) -> str:
    """A person's line that starts with ``start``, its wrapped lines joined: read up to
    the answer of a 'ping' sent after it."""
    await client.send("ping")
    said = [await client.read_until(lambda x: x.startswith(start))]
    while not (line := await client.read_until(lambda x: True)).startswith(("pong", "Pong")):
        said.append(line.strip())
    return " ".join(said)


async def test_a_seek_given_back_says_so_to_a_rematch(port: int, connect: Connector) -> None:
    """The same evening: vera was given her seek back (gleb left in the first deal,
    docs/protocol.md §5.5), which calls her offer off; her 'rematch' is told that, in
    English and in Russian, and so is the leaver's. And a card she typed then got the
    bare "'K♥' is not a command, and you sit at no table": her match is named (§8)."""
    ann, bob = await connect.human(port, "ann"), await connect.human(port, "bob")
    await ann.send("seek 2")
    await ann.take(lambda x: x.startswith("Waiting for a moscow game for 2 players"))
    await bob.send("seek 2")
    await bob.take(lambda x: x.startswith("Your hand:"))
    sat = await ann.take(lambda x: x.startswith("You sit at table"))
    table = sat.split()[4].rstrip(",")
    await bob.send("leave!")
    await ann.take(lambda x: x.startswith("bob left before the first deal ended: you still"))
    await ann.send("rematch")
    assert await _person_said(ann, "Error (") == (
        f"Error (not-allowed): the rematch of table {table} is off: you were put back in line"
        " for the same game"
    )
    await bob.send("rematch")
    assert await _person_said(bob, "Error (") == (
        f"Error (not-allowed): the rematch of table {table} is off: ann was put back in line"
        " for the same game"
    )
    await ann.send("K♥")  # a card, as she waits again: her match is just over
    assert await _person_said(ann, "Error (") == (
        f"Error (unknown-command): your match at table {table} is over: 'K♥' is not a"
        " command, and you sit at no table. Type 'help'."
    )
    await ann.send("lang ru")
    await ann.send("K♥")  # (said back as a Russian reads it: К, Cyrillic)
    assert await _person_said(ann, "Ошибка (") == (
        f"Ошибка (unknown-command): ваша партия за столом {table} окончена: «К♥» — не"
        " команда, а за столом вы не сидите. Наберите help."
    )
    await ann.send("rematch")
    assert await _person_said(ann, "Ошибка (") == (
        f"Ошибка (not-allowed): реванша за столом {table} не будет: вас вернули в очередь"
        " на ту же партию"
    )
    await bob.send("lang ru")
    await bob.send("rematch")
    assert await _person_said(bob, "Ошибка (") == (
        f"Ошибка (not-allowed): реванша за столом {table} не будет: игрока ann вернули в"
        " очередь на ту же партию"
    )


async def _replies_until(client: LineClient, pred: Callable[[str], bool]) -> list[str]:
    """The ok and error lines (each 'tag cmd-or-code') a client has had up to the first
    unread line that satisfies ``pred``, which is taken: the lines before it stay unread
    (a match's lines among them, for its play)."""
    mark = client.pos
    await client.read_until(pred)
    said = []
    for line in client.lines[: client.pos]:
        tag, f = fields(line)
        if tag in ("ok", "error"):
            said.append(f"{tag} {f.get('cmd') or f.get('code')}")
    del client.lines[client.pos - 1]
    client.pos = mark
    return said


@pytest.mark.timeout(60)
async def test_a_rematch_seats_each_player_before_his_next_line_is_answered(
    port: int, connect: Connector
) -> None:
    """A line of a player's that came as the rematch completed was answered before the
    new table had seated him: `error code=already-seated … you sit at table T` came
    before his `ok cmd=sit table=T` (hostile tryout). Each one's seat is told first: the
    one whose 'rematch' completes it (the line after it, in the same write), and the
    other, whose line the server reads while the new table seats him. (A few rematches:
    the table's task raced the next line, and won now and then.)"""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await _play_one(ann, bob)
    for round_ in range(3):
        await ann.send("rematch")
        await ann.expect("ok", cmd="rematch")
        await bob.expect("rematch")
        # bob's 'rematch' completes it, and his next line comes with it; ann asks again
        # as it does (before it: answered again; after it: she sits, and is told so first)
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(bob.send_raw, b"rematch\r\nrematch\r\n")
                nursery.start_soon(ann.send, "rematch")
        said = await _replies_until(bob, lambda x: "code=already-seated" in x)
        assert said[-3:] == ["ok rematch", "ok sit", "error already-seated"], round_
        said = await _replies_until(ann, lambda x: "code=already-seated" in x or "waiting=bob" in x)
        if said[-1] == "error already-seated":  # her line came after bob's
            assert said[-2:] == ["ok sit", "error already-seated"], round_
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(round_))
            nursery.start_soon(play_machine, bob, random.Random(round_ + 10))


async def test_those_who_watched_the_match_are_told_where_its_rematch_is(
    port: int, connect: Connector
) -> None:
    """A watcher of a match was dropped at its end with nothing said, and could not find
    its rematch, a new table (a tryout, s43): each who watched it to its end is told
    where the rematch starts (a program by its fields); not at a private table."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    vera = await connect.human(port, "vera")
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    for watcher in (eve, vera):
        await watcher.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await vera.read_until(lambda x: x.startswith(f"You observe table {table}"))
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1))
        nursery.start_soon(play_machine, bob, random.Random(2))
    await eve.expect("event", kind="match-end")
    for player in (ann, bob):
        await player.send("rematch")
    again = (await ann.expect("ok", cmd="sit"))["table"]
    told = await eve.expect("info", rematch=again)
    assert told["table"] == table, told
    said = await vera.read_until(lambda x: x.startswith("The rematch"))
    assert said == (
        f"The rematch of table {table} starts at table {again}: 'observe {again}' to watch it."
    ), said
    await eve.send(f"observe {again}")
    await eve.expect("ok", cmd="observe")
    # a private table's watcher (invited) is not told of its rematch
    await ann.send("leave")
    await bob.send("leave")
    await ann.expect("ok", cmd="leave")
    await bob.expect("ok", cmd="leave")
    await ann.send("new 2 short private")
    private = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite eve")
    await ann.expect("ok", cmd="invite")
    await eve.send("unobserve")
    await eve.send(f"observe {private}")
    await eve.expect("ok", cmd="observe", table=private)
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite", name="bob")
    await bob.send(f"sit {private}")
    await bob.expect("ok", cmd="sit")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(3))
        nursery.start_soon(play_machine, bob, random.Random(4))
    for player in (ann, bob):
        await player.send("rematch")
    await ann.expect("ok", cmd="sit")
    await eve.send("ping")
    await eve.expect("ok", cmd="ping")
    assert not [x for x in eve.lines if x.startswith("info rematch=") and f"table={private}" in x]


async def test_one_who_asked_already_is_told_where_it_stands_not_asked_to_agree(
    port: int, connect: Connector
) -> None:
    """A tryout: of three players dan asked, then eve; dan was told "Rematch of table 3
    asked by dan, eve, waiting for carl: 'rematch' to agree.", an invitation meant for
    carl. Now one who asked is told where it stands (in English or in Russian), the
    one waiting is asked as before; the machine line keeps its fields."""
    carl, dan, eve = [await connect.machine(port, n) for n in ("carl", "dan", "eve")]
    await carl.send("new 3 short")
    table = (await carl.expect("ok", cmd="sit"))["table"]
    for player in (dan, eve):
        await player.send(f"sit {table}")
        await player.expect("ok", cmd="sit")
    async with trio.open_nursery() as nursery:
        for i, player in enumerate((carl, dan, eve)):
            nursery.start_soon(play_machine, player, random.Random(i))
    await eve.send("rematch")  # eve first: dan, a machine, is told of her
    await eve.expect("ok", cmd="rematch")
    told = await dan.expect("rematch")
    assert (told["asked"], told["waiting"]) == ("eve", "carl,dan")
    for person, lang in ((carl, "ru"), (eve, "en")):
        await person.send("style human")
        await person.read_until(lambda x: x.startswith("Style"))
        await person.send(f"lang {lang}")
        await person.read_until(lambda x: x.startswith(("Language", "Язык")))
    await dan.send("rematch")
    await dan.expect("ok", cmd="rematch")
    assert await _person_said(eve, "Rematch of table") == (
        f"Rematch of table {table} asked by eve, dan, waiting for carl."
    )
    assert await _person_said(carl, "Реванш за столом") == (
        f"Реванш за столом {table} просят: eve, dan; ждём: carl. Согласны — наберите rematch."
    )


async def test_a_rematch_asked_during_the_match_is_not_told_to_leave_first(
    port: int, connect: Connector
) -> None:
    """'rematch' typed while the match is played was told "you sit at table T: 'leave'
    first" (a tryout, s46): advice that forfeits the match. It says the match is still
    on and when a rematch is asked; at a table still waiting, 'leave' first stands."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("rematch")  # waiting: leaving that table costs nothing
    assert await ann.expect("error") == {
        "code": "already-seated",
        "text": f"you sit at table {table}: 'leave' first",
    }
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await bob.read_until(lambda x: is_event(x, "start"))
    await bob.send("rematch")
    assert await bob.expect("error") == {
        "code": "already-seated",
        "text": f"your match at table {table} is still being played: 'rematch' is asked"
        " once it is over",
    }
    await bob.send("lang ru")
    await bob.send("style human")
    await bob.send("rematch")
    said = await bob.read_until(lambda x: x.startswith("Ошибка ("))
    said += " " + (await bob.read_until(lambda x: True)).strip()  # (wrapped at 80 columns)
    assert said == (
        f"Ошибка (already-seated): ваша партия за столом {table} ещё идёт: rematch"
        " просят, когда она окончена"
    )
    await ann.send("state")  # nothing changed: the match plays on
    view = await ann.read_until(lambda x: fields(x)[0] in ("ask", "state"))
    assert fields(view)[1]["table"] == table
