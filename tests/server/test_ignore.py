"""A player's own ignore list over real TCP on SQLite (docs/protocol.md §5.21): whom he
ignores has his lobby and table 'say', his 'invite' and his 'rematch' kept from him,
each checked on its own; an admin's 'announce' and the match's events still reach him;
a registered player's list outlasts his login, a guest's does not; the list's bound and
bad input are refused and change nothing."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest
import trio

from deberc_net.server.ignoring import IGNORE_MOST

from .client import LineClient, fields, is_event, play_machine, seat_pair
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]


async def _ignore(client: LineClient, name: str) -> dict[str, str]:
    await client.send(f"ignore {name}")
    return await client.expect("ok", cmd="ignore")


async def _not_told(client: LineClient, unwanted: Callable[[str], bool]) -> None:
    """Nothing ``unwanted`` reached ``client`` up to the answer to a 'ping' sent now
    (what was told before the ping, as it was handled, comes before its pong)."""
    await client.send("ping")
    await client.expect("ok", cmd="ping")
    assert not [x for x in client.lines if unwanted(x)], client.lines[-10:]


def _said_by(name: str) -> Callable[[str], bool]:
    return lambda line: line.startswith(f"say from={name} ")


@pytest.mark.timeout(60)
async def test_an_ignored_players_lobby_say_is_not_told(port: int, connect: Connector) -> None:
    with trio.fail_after(30):
        ann = await connect.machine(port, "ann")
        bob = await connect.machine(port, "bob")
        assert await _ignore(bob, "ANN") == {  # read as names are everywhere
            "cmd": "ignore",
            "name": "ann",  # as she writes it: she is online
            "count": "1",
            "text": "You ignore ann: his 'say', 'invite' and 'rematch' no longer reach you"
            " (he is not told). 'unignore ann' to hear him again.",
        }
        await ann.send("say anyone here?")
        await ann.expect("say", text="anyone here?")  # she hears herself: told to all
        await _not_told(bob, _said_by("ann"))
        await bob.send("unignore Ann")
        assert await bob.expect("ok", cmd="unignore") == {
            "cmd": "unignore",
            "name": "ann",
            "count": "0",
            "text": "You hear ann again.",
        }
        await ann.send("say hello bob")
        assert (await bob.expect("say", text="hello bob"))["from"] == "ann"


@pytest.mark.timeout(90)
async def test_table_say_invite_and_rematch_are_kept_from_him_the_match_is_not(
    port: int, connect: Connector
) -> None:
    with trio.fail_after(60):
        ann = await connect.machine(port, "ann")
        bob = await connect.machine(port, "bob")
        await _ignore(bob, "ann")
        await ann.send("new 2 short private")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await ann.send("invite bob")
        await ann.expect("ok", cmd="invite", name="bob")  # she is not told he ignores her
        await _not_told(bob, lambda x: x.startswith("invite "))
        await bob.send(f"sit {table}")  # the invitation stands: he may take it
        await bob.expect("ok", cmd="sit")
        # (read with 'take': the match's first asks, come meanwhile, stay to be answered)
        await ann.send("say good luck")
        await ann.take(lambda x: x.startswith("say from=ann ") and x.endswith("good luck"))
        await bob.send("say you too")  # she hears him: the list is his, not hers
        await ann.take(lambda x: x.startswith("say from=bob ") and x.endswith("you too"))
        async with trio.open_nursery() as nursery:  # her cards and calls reach him
            nursery.start_soon(play_machine, ann, random.Random(1))
            nursery.start_soon(play_machine, bob, random.Random(2))
        assert not [x for x in bob.lines if _said_by("ann")(x)]
        start = fields(next(x for x in bob.lines if is_event(x, "start")))[1]
        assert start["players"] == "ann,bob"
        played = [x for x in bob.lines if is_event(x, "play")]
        assert [x for x in played if " seat=0 " in x]  # her cards, as each was played
        await ann.send("rematch")
        assert (await ann.expect("ok", cmd="rematch"))["waiting"] == "bob"
        await _not_told(bob, lambda x: x.startswith("rematch "))
        await bob.send("rematch")  # his own ask starts it, as ever
        await bob.expect("ok", cmd="rematch", waiting="")
        await ann.expect("ok", cmd="sit")


@pytest.mark.timeout(60)
async def test_an_invitation_kept_from_her_is_told_when_she_hears_him_again(
    port: int, connect: Connector
) -> None:
    """lena ignored masha, whose 'invite lena' was kept from her; after 'unignore masha'
    his 'invite lena' again was refused as made already, and lena was never told of the
    table she could sit at (a tryout, s43). The invitation is told at her 'unignore',
    the table still waiting; masha is told nothing new."""
    with trio.fail_after(30):
        masha = await connect.machine(port, "masha")
        lena = await connect.machine(port, "lena")
        await _ignore(lena, "masha")
        await masha.send("new 2 short private")
        table = (await masha.expect("ok", cmd="sit"))["table"]
        await masha.send("invite lena")
        await masha.expect("ok", cmd="invite", name="lena")
        await _not_told(lena, lambda x: x.startswith("invite "))
        await lena.send("unignore masha")
        await lena.expect("ok", cmd="unignore", name="masha")
        told = await lena.expect("invite")
        assert (told["from"], told["table"], told["private"]) == ("masha", table, "1")
        await masha.send("invite lena")  # made once: refused, as for anyone told it
        await masha.expect("error", code="already-invited")
        await lena.send(f"sit {table}")
        await lena.expect("ok", cmd="sit")
        # told once: a second 'unignore' after a new 'ignore' tells it no more
        await _ignore(lena, "masha")
        await lena.send("unignore masha")
        await lena.expect("ok", cmd="unignore")
        await lena.send("ping")  # (all told before its pong comes before it)
        await lena.expect("ok", cmd="ping")
        assert len([x for x in lena.lines if x.startswith("invite ")]) == 1


@pytest.mark.timeout(60)
async def test_a_watchers_say_is_kept_from_a_watcher_who_ignores_him(
    port: int, connect: Connector
) -> None:
    with trio.fail_after(30):
        ann = await connect.machine(port, "ann")
        bob = await connect.machine(port, "bob")
        carl = await connect.machine(port, "carl")
        dan = await connect.machine(port, "dan")
        pest = await connect.machine(port, "pest")
        table, _, _ = await seat_pair(ann, bob)
        for watcher in (carl, dan, pest):
            await watcher.send(f"observe {table}")
            await watcher.expect("ok", cmd="observe")
        await _ignore(carl, "pest")
        await pest.send("say she will lose")  # to the watchers only (§5.8)
        await dan.read_until(lambda x: _said_by("pest")(x) and x.endswith("she will lose"))
        await _not_told(carl, _said_by("pest"))
        await dan.send("say he may be right")  # carl hears the others as ever
        await carl.read_until(lambda x: _said_by("dan")(x) and x.endswith("he may be right"))


@pytest.mark.timeout(60)
async def test_an_admins_announcement_reaches_one_who_ignores_him(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "owners")
    with trio.fail_after(30):
        boss = await connect.machine(port, "boss", "owners")
        bob = await connect.machine(port, "bob")
        await _ignore(bob, "boss")
        await boss.send("say hi")
        await boss.expect("say", text="hi")
        await boss.send("announce restart at noon")
        assert await bob.expect("announce") == {"from": "boss", "text": "restart at noon"}
        assert not [x for x in bob.lines if _said_by("boss")(x)]


@pytest.mark.timeout(60)
async def test_a_registered_list_outlasts_a_login_and_a_guests_does_not(
    port: int, connect: Connector, register: Register
) -> None:
    await register("bob", "bobs-pass")
    with trio.fail_after(30):
        bob = await connect.machine(port, "bob", "bobs-pass")
        await _ignore(bob, "zed")  # nobody under the name: allowed (a guest to come)
        await _ignore(bob, "ann")
        await _ignore(bob, "carl")
        await bob.send("unignore zed")
        await bob.expect("ok", cmd="unignore", count="2")
        await bob.aclose()
        ann = await connect.machine(port, "ann")
        bob = await connect.machine(port, "bob", "bobs-pass")
        await bob.send("ignore")
        assert await bob.expect("ok", cmd="ignore") == {
            "cmd": "ignore",
            "count": "2",
            "names": "ann,carl",
            "text": "You ignore 2: ann, carl.",
        }
        await ann.send("say back again")
        await ann.expect("say", text="back again")
        await _not_told(bob, _said_by("ann"))

        guest = await connect.machine(port, "dan")
        await _ignore(guest, "ann")
        await guest.aclose()
        guest = await connect.machine(port, "dan")  # a guest's list was his connection's
        await guest.send("ignore")
        assert await guest.expect("ok", cmd="ignore") == {
            "cmd": "ignore",
            "count": "0",
            "names": "",
            "text": "You ignore nobody.",
        }


@pytest.mark.timeout(60)
async def test_the_list_is_bounded_and_bad_input_changes_nothing(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(  # (each change spends one)
        lists_burst=IGNORE_MOST + 10, lists_per_address_burst=IGNORE_MOST + 10
    )
    with trio.fail_after(30):
        bob = await connect.machine(port, "bob")
        for line, code, text in (
            ("ignore a b", "bad-argument", "ignore [NAME]"),
            ("unignore", "bad-argument", "unignore NAME"),
            ("ignore x", "bad-argument", None),  # no name (2-20 letters)
            ("ignore BOB", "bad-argument", "you cannot ignore yourself"),
            ("unignore ann", "not-allowed", "you do not ignore ann"),
        ):
            await bob.send(line)
            refused = await bob.expect("error")
            assert refused["code"] == code, line
            assert text is None or refused["text"] == text, line
        for n in range(IGNORE_MOST):
            await bob.send(f"ignore pest{n}")
        said = await bob.expect("ok", cmd="ignore", count=str(IGNORE_MOST))
        assert said["name"] == f"pest{IGNORE_MOST - 1}"
        again = await _ignore(bob, "PEST7")  # listed already: answered, nothing added
        assert again["count"] == str(IGNORE_MOST)
        assert again["text"] == "You ignore pest7 already."
        await bob.send("ignore one-more")
        assert await bob.expect("error") == {
            "code": "not-allowed",
            "text": f"you ignore {IGNORE_MOST} names already, the most: 'unignore' one first",
        }
        await bob.send("ignore")
        listed = await bob.expect("ok", cmd="ignore")
        assert listed["count"] == str(IGNORE_MOST) and "one-more" not in listed["names"]


@pytest.mark.timeout(60)
async def test_each_change_spends_a_list_and_one_refused_so_changes_nothing(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    # each change is a write to the store: 'ignore x'/'unignore x' at the flood limit
    # was 200 writes (and, under --workers, broadcasts) a second from one connection
    port = await start_server(lists_burst=2, lists_per_s=0.001)
    await register("bob", "bobs-pass")
    with trio.fail_after(30):
        bob = await connect.machine(port, "bob", "bobs-pass")
        await bob.send("ignore x")  # a refusal before the change costs nothing
        await bob.expect("error", code="bad-argument")
        await _ignore(bob, "ann")
        await bob.send("unignore ann")
        await bob.expect("ok", cmd="unignore", count="0")
        await bob.send("ignore carl")
        refused = await bob.expect("error")
        assert refused["code"] == "slow-down", refused
        assert refused["text"].startswith("too many 'ignore' at once: wait "), refused
        await bob.aclose()
        bob = await connect.machine(port, "bob", "bobs-pass")
        await bob.send("ignore")  # the listing spends none: nothing was written
        assert (await bob.expect("ok", cmd="ignore"))["count"] == "0"


@pytest.mark.timeout(60)
async def test_a_person_is_answered_in_his_language(port: int, connect: Connector) -> None:
    with trio.fail_after(30):
        bob = await connect.human(port, "bob")
        await bob.send("lang ru")
        await bob.read_until(lambda x: "русский" in x)
        await bob.send("ignore ann")
        # «игрока ann», as every line naming a player: the name stays undeclined, and
        # «его», «ему» are the player's (a tryout: «Вы не слышите Оксана: его say»)
        said = await bob.read_until(lambda x: x.startswith("Вы не слышите"))
        assert said.startswith("Вы не слышите игрока ann: его say, invite и rematch"), said
        await bob.send("ignore ann")
        again = await bob.read_until(lambda x: x.startswith("Вы "))
        assert again == "Вы и так не слышите игрока ann.", again
        await bob.send("ignore")
        assert await bob.read_until(lambda x: x.startswith("Вы ")) == "Вы не слышите (1): ann."
        await bob.send("unignore ann")
        assert await bob.read_until(lambda x: x.startswith("Вы ")) == "Вы снова слышите игрока ann."
        await bob.send("unignore ann")
        refused = await bob.read_until(lambda x: x.startswith("Ошибка"))
        assert refused == "Ошибка (not-allowed): вы и так слышите игрока ann", refused
        await bob.send("help ignore")
        await bob.read_until(lambda x: x.startswith("ignore [ИМЯ]: Не слышать игрока"))


@pytest.mark.timeout(60)
async def test_an_invitation_kept_from_her_is_not_told_once_it_is_stale(
    port: int, connect: Connector
) -> None:
    """An invitation kept from lena (she ignores masha) is told at her 'unignore masha'
    only while it is what it says (s43's leftover): not once its table has started or
    closed, nor once masha has left it (the line says masha invites her to her table,
    which is masha's no more), each checked on its own."""
    with trio.fail_after(40):
        masha = await connect.machine(port, "masha")
        lena = await connect.machine(port, "lena")
        carl = await connect.machine(port, "carl")

        async def kept_and_unignored(table: str, then: Callable[[], Awaitable[None]]) -> None:
            await masha.send("invite lena")
            await masha.expect("ok", cmd="invite", name="lena")
            await then()
            await lena.send("unignore masha")
            await lena.expect("ok", cmd="unignore", name="masha")
            await _not_told(lena, lambda x: x.startswith("invite "))
            await _ignore(lena, "masha")

        await _ignore(lena, "masha")
        # started: carl takes the last seat
        await masha.send("new 2 private")
        table = (await masha.expect("ok", cmd="sit"))["table"]
        await masha.send("invite carl")
        await masha.expect("ok", cmd="invite", name="carl")

        async def carl_sits() -> None:
            await carl.send(f"sit {table}")
            await carl.expect("ok", cmd="sit")
            await masha.read_until(lambda x: is_event(x, "start"))

        await kept_and_unignored(table, carl_sits)
        for player in (masha, carl):  # (the match forfeited: both back in the lobby)
            await player.send("leave!")
            await player.read_until(lambda x: x.startswith(("ok cmd=leave", "error ")))
        # closed: masha leaves it, nobody else there
        await masha.send("new 2 private")
        table = (await masha.expect("ok", cmd="sit"))["table"]

        async def masha_leaves() -> None:
            await masha.send("leave")
            await masha.expect("ok", cmd="leave")

        await kept_and_unignored(table, masha_leaves)
        # left: the table waits on with carl, masha gone from it
        await masha.send("new 3 private")
        table = (await masha.expect("ok", cmd="sit"))["table"]
        await masha.send("invite carl")
        await masha.expect("ok", cmd="invite", name="carl")
        await carl.send(f"sit {table}")
        await carl.expect("ok", cmd="sit")
        await kept_and_unignored(table, masha_leaves)
        await lena.send(f"sit {table}")  # the invitation still lets her in, untold
        await lena.expect("ok", cmd="sit")
