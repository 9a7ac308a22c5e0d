"""A new name drawn like a name taken, in one alphabet (docs/security.md §1): I, l and 1
look alike, as do O and 0, a dotless ı and i, and rn and m, cl and d, vv and w, so
'AIice' (a capital I) beside the registered Alice, or 'b0ss' beside the admin, is
refused, a guest's as a registration, and told why. The names registered before keep
logging in, look-alikes of each other or not."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
import trio

from deberc_net.server.login import HELD_LOOKS_FLOOR, held_look, held_look_alike

from .client import LineClient, seat_pair
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]


def _looks_like(name: str, other: str) -> dict[str, str]:
    text = (
        f"{name} looks like {other}, a name taken (I, l and 1 look alike, as do O and 0,"
        " ı and i, rn and m, cl and d, vv and w, and the Cyrillic and Greek letters drawn"
        " as Latin ones): choose another"
    )
    return {"code": "bad-argument", "text": text}


async def _login(connect: Connector, port: int, line: str) -> LineClient:
    client = await connect.raw(port, "new")
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send(line)
    return client


@pytest.mark.timeout(30)
async def test_a_new_name_that_looks_like_a_name_taken_is_refused(
    start_server: StartServer, connect: Connector, register: Register, register_old: Register
) -> None:
    await register("Alice", "her-own-1")
    await register("bob", "pw-bob-1")
    await register("all", "pw-all-1")
    await register("l1ya", "pw-l1ya-1")  # two names from before that look alike: both kept
    await register_old("llya", "pw-llya-1")
    port = await start_server(admins=["boss"])  # an admin not registered yet
    with trio.fail_after(20):
        for line, other in [
            ("login AIice", "Alice"),  # a capital I: a guest
            ("login AIice a-password", "Alice"),  # nor registered
            ("login a1ice", "Alice"),
            ("login A1ice pw-new-2", "Alice"),
            ("login b0ss", "boss"),  # the admin's, registered or not
            ("login B0SS pw-new-3", "boss"),
            ("login b0b", "bob"),
            ("login Ilya", "l1ya"),  # the first in key order of those it looks like
        ]:
            client = await _login(connect, port, line)
            name = line.split()[1]
            assert await client.expect("error") == _looks_like(name, other), line
        client = await _login(connect, port, "login h0use-search3")  # the house bots'
        said = await client.expect("error")
        assert said == {
            "code": "bad-argument",
            "text": "names starting 'house-' are the server's bots",
        }
        # names that look like none are taken (a lower-case i is no l, so ali beside
        # all is one); the registered ones, however typed, log in
        for line in (
            "login alicia",
            "login bob0 pw-new-4",
            "login ali pw-new-5",
            "login ALICE her-own-1",
        ):
            client = await _login(connect, port, line)
            await client.expect("ok", cmd="login")
        for name, password in (("l1ya", "pw-l1ya-1"), ("llya", "pw-llya-1")):
            client = await _login(connect, port, f"login {name} {password}")
            assert (await client.expect("ok", cmd="login"))["name"] == name


@pytest.mark.timeout(30)
async def test_a_dotless_i_and_two_letters_drawn_as_one_look_alike(
    start_server: StartServer, connect: Connector, register: Register, register_old: Register
) -> None:
    await register("Alice", "her-own-1")
    await register("martin", "pw-martin-1")
    await register("dave", "pw-dave-1")
    await register("wendy", "pw-wendy-1")
    await register("burn", "pw-burn-1")  # two names from before that look alike: both kept
    await register_old("bum", "pw-bum-1")
    port = await start_server()
    with trio.fail_after(20):
        for line, other in [
            ("login al\u0131ce", "Alice"),  # a Turkish dotless ı: a guest
            ("login AL\u0131CE a-password", "Alice"),  # nor registered
            ("login rnartin", "martin"),
            ("login rnartin pw-new-2", "martin"),
            ("login clave", "dave"),
            ("login vvendy", "wendy"),
        ]:
            client = await _login(connect, port, line)
            name = line.split()[1]
            assert await client.expect("error") == _looks_like(name, other), line
        # a name that only holds a pair (and none registered that it looks like), or
        # holds it in capitals, is taken; the names from before log in
        for line in (
            "login Arnold",
            "login clara pw-new-3",
            "login RNARTIN",
            "login VVENDY pw-new-4",
        ):
            client = await _login(connect, port, line)
            await client.expect("ok", cmd="login")
        for name, password in (("burn", "pw-burn-1"), ("bum", "pw-bum-1")):
            client = await _login(connect, port, f"login {name} {password}")
            assert (await client.expect("ok", cmd="login"))["name"] == name


@pytest.mark.timeout(30)
async def test_a_new_name_that_looks_like_a_name_held_now_is_refused(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """Guests are not stored, so the store cannot find them: a new name is compared with
    the names held now too, a connected guest's, a player's, an away guest's seat."""
    await register("olga", "her-own-1")
    port = await start_server()
    with trio.fail_after(20):
        boris = await connect.machine(port, "boris")  # guests
        ann = await connect.machine(port, "ann")
        mira = await connect.machine(port, "mira")
        await seat_pair(ann, mira)
        await mira.aclose()  # away: her seat (and name) held for her token
        await ann.expect("event", kind="away", name="mira")
        await connect.machine(port, "olga", "her-own-1")
        for line, other in [
            ("login b0ris", "boris"),  # a guest, beside a connected guest
            ("login b0ris a-password", "boris"),  # nor registered
            ("login Ann", None),  # (the same name: in use, as ever)
            ("login rnira", "mira"),  # beside an away guest's seat
            ("login 0lga", "olga"),  # beside a player (registered: found as ever)
        ]:
            client = await _login(connect, port, line)
            name = line.split()[1]
            if other is None:
                assert (await client.expect("error"))["code"] == "name-in-use", line
            else:
                assert await client.expect("error") == _looks_like(name, other), line
        # mixed alphabets are refused before (a Cyrillic о)
        client = await _login(connect, port, "login b\u043eris")
        said = await client.expect("error")
        assert said["text"].startswith("a name keeps to one alphabet"), said
        # the held names resume with their tokens; a name no longer held is free
        again = await connect.machine(port, "mira", token=mira.token)
        assert again.token == mira.token
        await boris.send("quit")
        await boris.wait_closed()
        await connect.machine(port, "b0ris")


@pytest.mark.timeout(30)
async def test_a_name_wholly_in_another_alphabet_that_reads_as_one_taken_is_refused(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """A name all Cyrillic or all Greek that reads as a Latin name taken (its letters
    drawn as Latin ones), and the other way round; a name of that alphabet that does
    not read so is taken as ever."""
    await register("anna", "her-own-1")
    await register("\u0422\u0435\u043e", "pw-teo-1")  # Тео, Cyrillic
    port = await start_server()
    with trio.fail_after(20):
        await connect.machine(port, "HEX")  # a guest, Latin
        for line, other in [
            ("login \u0430\u043f\u043f\u0430", "anna"),  # аппа, Cyrillic: a guest
            ("login \u0430\u043f\u043f\u0430 a-password", "anna"),  # nor registered
            ("login Teo", "\u0422\u0435\u043e"),  # Latin, beside the Cyrillic Тео
            ("login \u0397\u0395\u03a7", "HEX"),  # ΗΕΧ, Greek, beside the guest
            ("login \u041d\u0415\u0425", "HEX"),  # НЕХ, Cyrillic
        ]:
            client = await _login(connect, port, line)
            name = line.split()[1]
            assert await client.expect("error") == _looks_like(name, other), line
        # Russian names that do not read as a Latin one taken: Вера beside a Vera, and
        # нех (its small н a small capital) beside HEX
        await register("Vera", "pw-vera-1")
        for line in ("login \u0412\u0435\u0440\u0430 pw-new-2", "login \u043d\u0435\u0445"):
            client = await _login(connect, port, line)
            await client.expect("ok", cmd="login")


@pytest.mark.timeout(30)
async def test_a_person_is_told_the_look_alike_in_his_language(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    await register("Olga", "her-own-1")
    port = await start_server()
    person = await connect.raw(port, "person")  # the human style: its language's text
    await person.send("login 0lga lang=ru")
    said = [await person.read_until(lambda x: x.startswith("Ошибка"))]
    while not said[-1].endswith("выберите другое"):  # (a person's lines are wrapped)
        said.append((await person.read_until(lambda _: True)).strip())
    assert " ".join(said) == (
        "Ошибка (bad-argument): 0lga выглядит как Olga, имя занятое (I, l и 1 похожи,"
        " как и O и 0, ı и i, rn и m, cl и d, vv и w, и кириллические и греческие буквы,"
        " похожие на латинские): выберите другое"
    )


def test_each_held_names_look_is_kept_however_many_are_held() -> None:
    """docs/security.md §1: each held name's look is kept from one login's comparison to
    the next, so a new name costs a look-up a name held. Failed before: kept in an LRU
    of 16,384, which a club holding more (workers' players counted) emptied at every
    login, the scan going round it, each name's look drawn again (about 12 times the
    cost, on the event loop)."""
    held = [f"player{i}" for i in range(20_000)]
    held_look.cache_clear()
    assert held_look_alike("newcomer", held) is None
    first = held_look.cache_info()
    assert held_look_alike("p1ayer7", held) == "player7"  # (l and 1 look alike)
    assert held_look_alike("player7", held) is None  # his own name, not another's
    assert held_look.cache_info().misses == first.misses  # none drawn again
    # the names no longer held let go: those kept are bounded by those held now
    assert held_look_alike("newcomer", held[:100]) is None
    assert held_look_alike("newcomer", held[:100]) is None
    assert held_look.cache_info().currsize <= 2 * 100 + HELD_LOOKS_FLOOR


@pytest.mark.timeout(30)
async def test_an_old_name_of_mixed_alphabets_logs_in_and_no_new_one_looks_like_it(
    start_server: StartServer, connect: Connector, register_old: Register
) -> None:
    """'аnna' (its а Cyrillic), registered before a new name had to keep to one alphabet,
    is its player's: it logs in with its password. A new name drawn as it, in Latin or
    in Cyrillic letters, a guest's or a registration, is refused as a look-alike."""
    mixed = "\u0430nna"
    await register_old(mixed, "pw-anna-1")
    port = await start_server()
    with trio.fail_after(20):
        for line, name in [
            ("login anna", "anna"),
            ("login anna pw-new-1", "anna"),
            ("login \u0430\u043f\u043f\u0430 pw-new-1", "\u0430\u043f\u043f\u0430"),  # аппа
            ("login ANNA", "ANNA"),
        ]:
            client = await _login(connect, port, line)
            assert await client.expect("error") == _looks_like(name, mixed), line
        owner = await _login(connect, port, f"login {mixed} pw-anna-1")
        said = await owner.expect("ok", cmd="login")
        assert (said["name"], said["guest"]) == (mixed, "0")
