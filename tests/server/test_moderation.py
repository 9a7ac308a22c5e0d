"""An admin keeps the club civil (docs/protocol.md §5.19), over real TCP: 'announce',
'kick', 'ban'/'unban'/'bans', 'mute'/'unmute'/'mutes', refused to everyone else and against
another admin; a ban and a mute kept by the store through a restart."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import structlog
import trio
import trio.testing

from deberc_net.server import accounts
from deberc_net.server.store import open_store

from .client import (
    BOT_START_S,
    LineClient,
    fields,
    help_commands,
    help_texts,
    is_event,
    person_told,
    play_machine,
    seat_pair,
)
from .conftest import Connector, make_config, running_server

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]
ADMIN_COMMANDS = (
    "announce hello",
    "kick bob",
    "ban bob",
    "unban bob",
    "bans",
    "mute bob",
    "unmute bob",
    "mutes",
)


async def _boss(port: int, connect: Connector, register: Register) -> LineClient:
    await register("boss", "owners")
    return await connect.machine(port, "boss", "owners")


async def _error(client: LineClient, line: str) -> dict[str, str]:
    await client.send(line)
    return await client.expect("error")


async def test_the_moderation_commands_are_the_admins_own(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss", "chief"])
    await register("ann", "anns")
    ann = await connect.machine(port, "ann", "anns")  # registered, but no admin
    guest = await connect.machine(port, "bob")
    for client in (ann, guest):
        for line in ADMIN_COMMANDS:  # as 'reserve' is refused: not-allowed, saying why
            word = line.split()[0]
            assert await _error(client, line) == {
                "code": "not-allowed",
                "text": f"{word} is for the server's admins",
            }, line
    assert not [x for x in guest.lines if x.startswith(("announce ", "bye "))]
    boss = await _boss(port, connect, register)
    for line in ("kick chief spam", "ban CHIEF", "mute chief 5", "kick boss"):  # nor an admin
        refused = await _error(boss, line)
        assert refused["code"] == "not-allowed", line
        assert "is an admin: admins are not kicked, banned or muted" in refused["text"]
    for line, usage in (
        ("kick", "kick NAME [REASON]"),
        # both forms, as 'help ban' gives them (the name's alone, before)
        ("ban", "ban NAME [REASON] | ban ADDRESS|NETWORK [MINUTES] [REASON]"),
        ("unban", "unban NAME | unban ADDRESS|NETWORK"),
        ("mute", "mute NAME [MINUTES] [REASON]"),
        ("announce", "announce TEXT"),
    ):
        assert await _error(boss, line) == {"code": "bad-argument", "text": usage}
    assert (await _error(boss, "kick nobody-here"))["code"] == "unknown-player"
    bidi = await _error(boss, "announce a\u202eb")  # what 'say' refuses, an admin's text too
    assert bidi["text"].startswith("announce TEXT: no bidi controls")
    assert (await _error(boss, "kick bob a\u200bb"))["code"] == "bad-argument"
    # nothing to see, or drawn over others' lines: refused as a 'say' is (hostile tryout)
    blank = await _error(boss, "announce \u2800\u2800")
    assert blank["text"].startswith("announce TEXT: no characters drawn as nothing")
    zalgo = await _error(boss, "kick bob spam" + "\u0301" * 20)
    assert (
        zalgo["text"] == "kick NAME [REASON]: at most 4 combining marks (accents) on one character"
    )
    assert not [x for x in guest.lines if x.startswith(("announce ", "bye "))]


async def test_an_announcement_reaches_everyone_logged_in_marked_as_the_admins(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    boss = await _boss(port, connect, register)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)  # at a table too
    human = await connect.human(port, "dora")
    russian = await connect.human(port, "ivan")
    await russian.send("lang ru")
    await russian.read_until(lambda x: x.startswith("Язык"))
    await boss.send("announce The server restarts at 22:00 UTC;  finish your matches")
    said = "The server restarts at 22:00 UTC;  finish your matches"
    for client in (boss, ann, bob):
        assert await client.expect("announce") == {"from": "boss", "text": said}
    assert await boss.expect("ok", cmd="announce") == {
        "cmd": "announce",
        "text": "Announced to everyone logged in.",
    }
    line = await human.read_until(lambda x: x.startswith("***"))
    assert line == ("*** Announcement from boss (admin): The server restarts at 22:00 UTC; finish")
    assert await human.read_until(lambda _: True) == "  | your matches"
    line = await russian.read_until(lambda x: x.startswith("***"))
    assert line.startswith("*** Объявление администратора boss: The server restarts")


async def test_a_kicked_player_is_told_why_his_seat_goes_away_and_he_may_come_back(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    boss = await _boss(port, connect, register)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    await ann.read_until(lambda x: x.startswith(("ask ", "state ")))
    with structlog.testing.capture_logs() as logs:
        await boss.send("kick ANN  swearing at the table")
        assert await boss.expect("ok", cmd="kick") == {
            "cmd": "kick",
            "name": "ann",
            "text": "ann is disconnected; his seat, if any, is away, as after any drop.",
        }
        bye = await ann.read_until(lambda x: x.startswith("bye "))
        assert fields(bye)[1] == {
            "by": "boss",
            "text": "boss (an admin) disconnects you: swearing at the table. You may log in "
            "again; your seat, if any, waits for you.",
        }
        await ann.wait_closed()
        assert (await bob.expect("event", kind="away"))["name"] == "ann"
    [done] = [e for e in logs if e["event"] == "moderation"]
    assert {k: done[k] for k in ("action", "admin", "target", "reason", "log_level")} == {
        "action": "kick",
        "admin": "boss",
        "target": "ann",
        "reason": "swearing at the table",
        "log_level": "warning",
    }
    assert done["name"] == "boss" and done["peer"].startswith("127.0.0.1:")  # his connection
    assert isinstance(done["conn"], int)
    back = await connect.machine(port, "ann", token=ann.token)  # a kick is no ban
    await back.read_until(lambda x: x.startswith(("ask ", "state ")))
    assert (await bob.expect("event", kind="back"))["name"] == "ann"


async def test_a_ban_keeps_a_name_out_through_a_restart_until_unban(
    db_path: Path, connect: Connector, register: Register
) -> None:
    config = make_config(db_path, admins=["boss"])
    await register("ann", "anns")
    async with running_server(config) as port:
        boss = await _boss(port, connect, register)
        ann = await connect.machine(port, "ann", "anns")
        await boss.send("ban ann cheating with a second connection")
        assert await boss.expect("ok", cmd="ban") == {
            "cmd": "ban",
            "name": "ann",
            "disconnected": "1",
            "text": "ann is banned: the name may not log in (his connection is closed).",
        }
        bye = fields(await ann.read_until(lambda x: x.startswith("bye ")))[1]
        assert bye["text"] == (
            "boss (an admin) bans your name from this server: cheating with a second connection."
        )
        await ann.wait_closed()
        await boss.send("ban Гость-7")  # a guest's name, no one under it now, no reason
        assert (await boss.expect("ok", cmd="ban"))["disconnected"] == "0"
    async with running_server(config) as port:  # the same database, a new server
        again = await connect.raw(port, "ann")
        await again.send("style machine")
        await again.send("login ANN anns")
        assert await again.expect("error") == {
            "code": "banned",
            "text": "ANN is banned from this server: cheating with a second connection",
        }
        await again.send("login гость-7")  # a guest's name: no one may take it
        assert await again.expect("error") == {
            "code": "banned",
            "text": "гость-7 is banned from this server",
        }
        await again.send("login ann wrong")  # refused before any password is tried
        assert (await again.expect("error"))["code"] == "banned"
        boss = await connect.machine(port, "boss", "owners")
        await boss.send("bans")
        head = await boss.expect("bans")
        assert head["count"] == "2"
        listed = [fields(await boss.read_until(lambda x: x.startswith("ban ")))[1] for _ in "ab"]
        assert {(b["name"], b["by"], b["text"]) for b in listed} == {
            ("ann", "boss", "cheating with a second connection"),
            ("Гость-7", "boss", ""),
        }
        await boss.send("unban Ann")
        assert (await boss.expect("ok", cmd="unban"))["name"] == "Ann"
        assert (await _error(boss, "unban ann")) == {
            "code": "not-allowed",
            "text": "ann is not banned ('bans' lists them)",
        }
        await connect.machine(port, "ann", "anns")  # welcome back
        russian = await connect.raw(port, "ru")
        await russian.send("login гость-7 lang=ru")
        refused = await russian.read_until(lambda x: x.startswith("Ошибка"))
        assert refused == "Ошибка (banned): имени гость-7 закрыт вход на этот сервер"


class _HeldHashes:
    """Each password hash waits (as behind a queue of logins) till ``release``: the test
    knows a login is in its hash, past its ban check, when ``in_hash`` says so (a fixed
    sleep guessed it, and a loaded machine could still be at the ban check)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._started = threading.Event()
        self._released = threading.Event()
        real = accounts.password_hash

        def held(password: str, salt: bytes) -> bytes:
            self._started.set()
            self._released.wait(30)  # (a hash thread's wait, not the loop's)
            return real(password, salt)

        monkeypatch.setattr(accounts, "password_hash", held)

    async def in_hash(self) -> None:
        with trio.fail_after(30):
            while not self._started.is_set():
                await trio.sleep(0.01)

    def release(self) -> None:
        self._released.set()


async def test_a_ban_made_while_the_name_logs_in_closes_that_login(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the login's ban check read the store before the ban; its password's hash then took
    # long enough for the ban to find him nowhere: he was welcomed, banned, and stayed
    port = await start_server(admins=["boss"])
    boss = await _boss(port, connect, register)
    await register("ann", "anns")
    hashes = _HeldHashes(monkeypatch)
    ann = await connect.raw(port, "ann")
    await ann.send("style machine")
    await ann.expect("ok", cmd="style")
    await ann.send("login ann anns")
    await hashes.in_hash()  # past the ban check
    await boss.send("ban ann cheating")
    assert (await boss.expect("ok", cmd="ban"))["disconnected"] == "1"
    hashes.release()
    told = await ann.read_until(lambda x: x.startswith(("ok cmd=login", "bye ")))
    assert fields(told)[1]["text"] == "boss (an admin) bans your name from this server: cheating."
    await ann.wait_closed()


async def test_a_ban_another_server_makes_while_the_name_logs_in_refuses_that_login(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port = await start_server(admins=["boss"])
    await register("ann", "anns")
    hashes = _HeldHashes(monkeypatch)
    ann = await connect.raw(port, "ann")
    await ann.send("style machine")
    await ann.expect("ok", cmd="style")
    await ann.send("login ann anns")
    await hashes.in_hash()  # past the ban check
    other = open_store(db_path)  # another server's admin, on the same database
    try:
        other.ban("ann", "chief", "cheating")
    finally:
        other.close()
    hashes.release()
    told = await ann.read_until(lambda x: x.startswith(("ok cmd=login", "error ")))
    assert fields(told)[1] == {
        "code": "banned",
        "text": "ann is banned from this server: cheating",
    }


async def test_a_muted_player_may_not_say_or_invite_till_the_time_is_up_or_unmute(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(admins=["boss"])
    boss = await _boss(port, connect, register)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    for minutes in ("0", "-1", "1e3", "2.5", "+5", "\u0661\u0662"):  # (the last: ١٢)
        # a word meant as minutes is refused, not taken for the reason of an hour's mute
        assert (await _error(boss, f"mute ann {minutes} spam"))["text"] == (
            "mute NAME [MINUTES] [REASON]: MINUTES from 1 to 10080"
        ), minutes
    await boss.send("mute ann 2 calling names")
    assert await boss.expect("ok", cmd="mute") == {
        "cmd": "mute",
        "name": "ann",
        "minutes": "2",
        "text": "ann is muted for 2 min.",
    }
    told = await ann.expect("info")
    assert told["text"] == (
        "boss (an admin) mutes you for 2 min: calling names. Your 'say' and 'invite' are "
        "refused until then."
    )
    assert await _error(ann, "say hello") == {
        "code": "muted",
        "text": "you are muted for 2 more min: 'say' and 'invite' are refused",
    }
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    assert (await _error(ann, "invite bob"))["code"] == "muted"
    await bob.send("say bob talks")  # nobody else is muted
    await bob.expect("say", text="bob talks")
    await trio.sleep(121)  # the two minutes are up
    await ann.send("say back again")
    await ann.expect("say", text="back again")
    await boss.send("mute ann")  # an hour by default
    assert (await boss.expect("ok", cmd="mute"))["minutes"] == "60"
    assert (await _error(ann, "say hi"))["text"].startswith("you are muted for 60 more min")
    await boss.send("unmute ANN")
    await boss.expect("ok", cmd="unmute", name="ann")
    assert (await ann.expect("info"))["text"] == "boss (an admin) lets you talk again."
    await ann.send("say thanks")
    await ann.expect("say", text="thanks")
    assert await _error(boss, "unmute ann") == {"code": "not-allowed", "text": "ann is not muted"}


async def test_a_length_with_a_unit_where_minutes_go_is_read_as_its_minutes(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    # failed before: 'mute ann 5 min spam' was refused (s49: lengths with units were
    # refused, where before that they were taken for the reason of the default length);
    # what a moderator types is read as the minutes it says, and the reply says them
    port = await start_server(admins=["boss"])
    boss = await _boss(port, connect, register)
    for line, field, minutes, reason in (
        ("mute ann 5 min spam", "name", "5", "spam"),
        ("mute ann 2h spam", "name", "120", "spam"),
        ("mute ann 30min", "name", "30", ""),
        ("mute ann 10мин флуд", "name", "10", "флуд"),
        ("mute ann 2 часа флуд", "name", "120", "флуд"),
        ("mute ann 1h 30m", "name", "90", ""),
        ("mute ann 1 h 30 m spam", "name", "90", "spam"),
        ("mute ann 1.5h", "name", "90", ""),
        ("mute ann 1w", "name", "10080", ""),
        ("mute ann 2nd warning", "name", "60", "2nd warning"),  # no length: a reason
        ("mute ann 10 5 spam", "name", "10", "5 spam"),  # a plain number, as before
        ("ban 127.0.0.2 5m spam", "address", "5", "spam"),
        ("ban 127.0.0.2 1h30m", "address", "90", ""),
        ("ban 127.0.0.2 1 d", "address", "1440", ""),
        ("ban 127.0.0.2 2сут", "address", "2880", ""),  # days, not seconds
        # Russian 'с' ('with') after MINUTES, more words after it: the reason's first
        # word, not the second (a read-back, s50)
        ("mute ann 10 с матом", "name", "10", "с матом"),
        ("ban 127.0.0.2 60 С ботами", "address", "60", "С ботами"),
    ):
        await boss.send(line)
        assert (await boss.expect("ok"))["minutes"] == minutes, line
        if field == "name":
            await boss.send("mutes")
            await boss.expect("mutes", count="1")
            assert (await boss.expect("mute"))["text"] == reason, line
        else:
            await boss.send("bans")
            await boss.expect("bans", addresses="1")
            assert (await boss.expect("address-ban"))["text"] == reason, line
    usage = "mute NAME [MINUTES] [REASON]"
    for line, text in (
        (
            "mute ann 90s",
            f"{usage}: 90s is no whole number of minutes: MINUTES is a number"
            " of minutes (5, 5m, 2h, 1d)",
        ),
        ("mute ann 2w", f"{usage}: MINUTES from 1 to 10080"),  # a week at most
        ("mute ann 0m", f"{usage}: MINUTES from 1 to 10080"),
        ("mute ann 99999999999h", f"{usage}: MINUTES from 1 to 10080"),
        (
            "ban ann 30 spam",  # a name's ban has no length
            "ban NAME [REASON]: 30 looks like a length, but a name's ban has none: it holds"
            " till 'unban ann' (an address's ban takes MINUTES)",
        ),
        (
            "ban ann 1 d spam",
            "ban NAME [REASON]: 1 d looks like a length, but a name's ban has none: it holds"
            " till 'unban ann' (an address's ban takes MINUTES)",
        ),
    ):
        assert await _error(boss, line) == {"code": "bad-argument", "text": text}, line
    await boss.send("bans")  # no name banned
    assert (await boss.expect("bans"))["count"] == "0"
    # Russian 'с' as the last word is the unit: ten seconds, refused
    assert await _error(boss, "mute ann 10 с") == {
        "code": "bad-argument",
        "text": f"{usage}: 10 с is no whole number of minutes: MINUTES is a number"
        " of minutes (5, 5m, 2h, 1d)",
    }
    await boss.send("style human")
    await boss.read_until(lambda x: "human" in x)
    await boss.send("lang ru")
    await boss.read_until(lambda x: x.startswith("Язык"))
    told = " ".join(x.strip() for x in await person_told(boss, "ban 127.0.0.2 30с"))
    assert told.endswith(
        "ban АДРЕС|СЕТЬ [МИНУТ] [ПРИЧИНА]: 30с — не целое число минут: МИНУТ — число минут"
        " (5, 5мин, 2ч, 1д)"
    ), told


async def test_a_mute_outlasts_a_restart_and_unmute_ends_it_in_the_store_too(
    db_path: Path, connect: Connector, register: Register
) -> None:
    config = make_config(db_path, admins=["boss"])
    async with running_server(config) as port:
        boss = await _boss(port, connect, register)
        await boss.send("mute ann 30 calling names")  # not here: muted whoever comes
        await boss.expect("ok", cmd="mute", name="ann")
        await boss.send("mute bob 5")
        await boss.expect("ok", cmd="mute", name="bob")
    other = open_store(db_path)  # a mute that ran out while the server was down
    try:
        other.mute("cid", "boss", "", time.time() - 1)
    finally:
        other.close()
    async with running_server(config) as port:  # the same database, a new server
        ann = await connect.machine(port, "ann")
        # muted while away: told at her login, after its welcome (she learnt it only at
        # her first say), and once
        told_at_login = (await ann.expect("info"))["text"]
        assert told_at_login in {
            f"You are muted for {m} more min (by boss, an admin): your 'say' and 'invite'"
            " are refused until then."
            for m in (29, 30)
        }
        refused = await _error(ann, "say hello again")
        assert refused["code"] == "muted"
        assert refused["text"] in {
            f"you are muted for {m} more min: 'say' and 'invite' are refused" for m in (29, 30)
        }
        assert len([x for x in ann.lines if x.startswith("info ")]) == 1  # not again
        cid = await connect.machine(port, "cid")
        assert not [x for x in cid.lines if x.startswith("info ")]  # (his mute ran out)
        await cid.send("say free")
        await cid.expect("say", text="free")
        boss = await connect.machine(port, "boss", "owners")
        # help said a mute lasts "till the server restarts at most" (an operator's tryout)
        told = " ".join(x.strip() for x in await help_texts(boss, "help mute"))
        assert "stored: a restart keeps it" in told and "till the server restarts" not in told
        await boss.send("unmute ann")
        await boss.expect("ok", cmd="unmute", name="ann")
        russian = await connect.raw(port, "boss in Russian")  # (boss's other login closes)
        await russian.send("login boss owners lang=ru")
        told = " ".join(x.strip() for x in await person_told(russian, "help mute"))
        assert "хранится и после перезапуска" in told and "до перезапуска" not in told
    async with running_server(config) as port:
        ann = await connect.machine(port, "ann")
        await ann.send("say thanks")
        await ann.expect("say", text="thanks")
        bob = await connect.machine(port, "bob")
        assert (await _error(bob, "say hi"))["code"] == "muted"


async def test_mutes_lists_who_is_muted_by_whom_why_and_for_how_long_still(
    db_path: Path, connect: Connector, register: Register
) -> None:
    # an operator's tryout: 'bans' listed the bans, nothing listed the mutes
    config = make_config(db_path, admins=["boss", "chief"])
    async with running_server(config) as port:
        boss = await _boss(port, connect, register)
        await boss.send("mutes")
        assert await boss.expect("mutes") == {"count": "0"}
        ann = await connect.machine(port, "ann")
        await boss.send("mute ann 30 calling names")
        await boss.expect("ok", cmd="mute", name="ann")
        await boss.send("mute Гость-7 5")  # nobody under it, no reason
        await boss.expect("ok", cmd="mute")
        await boss.send("mutes")
        assert await boss.expect("mutes") == {"count": "2"}
        listed = [fields(await boss.read_until(lambda x: x.startswith("mute ")))[1] for _ in "ab"]
        assert [(m["name"], m["by"], m["left"], m["text"]) for m in listed] == [
            ("Гость-7", "boss", "5", ""),  # the one ending first, first
            ("ann", "boss", "30", "calling names"),
        ]
        assert [list(m) for m in listed] == [["name", "by", "until", "left", "text"]] * 2
        until = time.strptime(listed[1]["until"], "%Y-%m-%d_%H:%M:%S")  # UTC
        assert abs(time.mktime(until) - time.mktime(time.gmtime()) - 30 * 60) < 60
        assert await _error(ann, "mutes") == {
            "code": "not-allowed",
            "text": "mutes is for the server's admins",
        }
        await boss.send("unmute ann")
        await boss.expect("ok", cmd="unmute")
    async with running_server(config) as port:  # the store's: a restart keeps the list
        await register("chief", "chiefs")
        chief = await connect.raw(port, "chief")  # the human style
        await chief.send("login chief chiefs")
        told = await person_told(chief, "mutes")
        assert told[-2] == "Muted names: 1."
        assert told[-1].startswith("  Гость-7: by boss, 5 more min (till ")
        assert told[-1].endswith(" UTC)")
        russian = await connect.raw(port, "boss in Russian")
        await russian.send("login boss owners lang=ru")
        told = await person_told(russian, "mutes")
        assert told[-2] == "Лишены слова: 1."
        assert told[-1].startswith("  Гость-7: boss, ещё 5 мин (до ")
        await russian.send("unmute гость-7")
        assert (await person_told(russian, "mutes"))[-1] == "Никто не лишён слова."
        assert (await person_told(chief, "mutes"))[-1] == "No name is muted."


async def test_a_registered_name_away_is_banned_and_muted_as_its_account_spells_it(
    db_path: Path, connect: Connector, register: Register
) -> None:
    # an operator's tryout: 'mute ваня' listed 'ваня' for the account Ваня (and logged
    # it so: a search of the log for Ваня missed it), as 'ban ZZ-9' did 'ZZ-9'
    config = make_config(db_path, admins=["boss"])
    await register("Ваня", "vanyas")
    await register("zz-9", "zzs")
    async with running_server(config) as port:
        boss = await _boss(port, connect, register)
        await boss.send("mute ВАНЯ 5 shouting")
        assert (await boss.expect("ok", cmd="mute"))["name"] == "Ваня"
        await boss.send("ban ZZ-9 cheating")
        assert (await boss.expect("ok", cmd="ban"))["name"] == "zz-9"
        await boss.send("ban Гость-7")  # no account: as typed
        assert (await boss.expect("ok", cmd="ban"))["name"] == "Гость-7"
        await boss.send("mutes")
        await boss.expect("mutes", count="1")
        assert fields(await boss.read_until(lambda x: x.startswith("mute ")))[1]["name"] == "Ваня"
        await boss.send("bans")
        await boss.expect("bans", count="2")
        listed = [fields(await boss.read_until(lambda x: x.startswith("ban ")))[1] for _ in "ab"]
        assert [b["name"] for b in listed] == ["zz-9", "Гость-7"]


async def test_a_ban_or_mute_of_a_name_nobody_holds_says_so_to_the_admin(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    # an owner's evening: 'ban mihsa' (for misha, online) was answered as any ban,
    # 'mihsa is banned: the name may not log in.', and misha played on
    port = await start_server(admins=["boss"])
    await register("vera", "veras")  # registered, away: her name is someone's
    boss = await _boss(port, connect, register)
    await connect.machine(port, "misha")
    await boss.send("ban mihsa cheating")
    assert (await boss.expect("ok", cmd="ban"))["text"] == (
        "mihsa is banned: the name may not log in. Nobody is logged in as mihsa and no"
        " account has the name: a slip of the keys? 'unban mihsa' undoes it."
    )
    await boss.send("mute mihsa 5")
    assert (await boss.expect("ok", cmd="mute"))["text"] == (
        "mihsa is muted for 5 min. Nobody is logged in as mihsa and no account has the"
        " name: a slip of the keys? 'unmute mihsa' undoes it."
    )
    for line, cmd in [("ban vera", "ban"), ("mute misha", "mute")]:  # someone's: as ever
        await boss.send(line)
        assert "Nobody" not in (await boss.expect("ok", cmd=cmd))["text"], line


async def test_a_house_bot_is_not_kicked_banned_or_muted_and_plays_its_match_on(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    # an owner's evening: 'kick house-heuristic-1' was answered ok, the bot quit as
    # after its match (its exit taken for one), its seat held away for the away limit
    # and the player's match with it, no bot coming back and nothing in the log
    port = await start_server(admins=["boss"], house_bots=True)
    boss = await _boss(port, connect, register)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 short")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot random")
    bot = (await ann.expect("ok", cmd="bot"))["name"]
    await ann.read_until(lambda x: is_event(x, "seated"), BOT_START_S)
    for line in (f"kick {bot} test", f"ban {bot}", f"mute {bot} 5", f"KICK {bot.upper()}"):
        assert await _error(boss, line) == {
            "code": "not-allowed",
            "text": f"{line.split()[1]} is a house bot, the server's own program: house bots"
            " are not kicked, banned or muted (each plays at the table that asked for it,"
            " and goes with it)",
        }, line
    end = fields(await play_machine(ann, random.Random(3), timeout=BOT_START_S))[1]
    assert end["kind"] == "match-end" and end["reason"] != "away", end
    await boss.send("bans")
    await boss.expect("bans", count="0")


async def test_help_tells_an_admin_the_moderation_commands_and_everyone_that_chat_is_logged(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    boss = await _boss(port, connect, register)
    ann = await connect.machine(port, "ann")

    moderation = {"announce", "kick", "ban", "unban", "bans", "mute", "unmute", "mutes"}
    assert moderation <= await help_commands(boss)
    assert not moderation & await help_commands(ann)
    said = " ".join(x.strip() for x in await help_texts(ann, "help say"))
    assert "kept in the server's log" in said, said


async def test_finger_tells_an_admin_a_names_ban_and_mute_and_nobody_else(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """'finger NAME' asked by an admin says NAME is banned (by whom, why) or muted (the
    minutes left), as 'bans' and 'mutes' list it (docs/protocol.md §5.18); anyone else's
    'finger' is as before (before: an admin saw neither, and had to list them all)."""
    port = await start_server(admins=["boss"])
    boss = await _boss(port, connect, register)
    ann = await connect.machine(port, "ann")
    await boss.send("mute ann 5 calling names")
    await boss.expect("ok", cmd="mute")
    await boss.send("ban mihsa spam")  # a name nobody holds: known to an admin all the same
    await boss.expect("ok", cmd="ban")
    await boss.send("finger ann")
    head = await boss.expect("finger")
    assert (head["name"], head["ratings"]) == ("ann", "0"), head
    muted = fields(await boss.read_until(lambda x: x.startswith("mute ")))[1]
    assert (muted["name"], muted["by"], muted["left"]) == ("ann", "boss", "5"), muted
    assert muted["text"] == "calling names"
    await boss.send("finger mihsa")
    assert (await boss.expect("finger"))["registered"] == "0"
    banned = fields(await boss.read_until(lambda x: x.startswith("ban ")))[1]
    assert (banned["name"], banned["by"], banned["text"]) == ("mihsa", "boss", "spam"), banned
    assert not [x for x in boss.lines if x.startswith("mute name=mihsa")]
    # in words: a line under the title
    await boss.send("style human")
    await boss.read_until(lambda x: "human" in x)
    await boss.send("finger ann")
    title = await boss.read_until(lambda x: x.startswith("ann: "))
    said = await boss.read_until(lambda _: True)
    assert said.startswith("  Muted by boss, 5 more min (till "), (title, said)
    assert said.endswith(" UTC): calling names."), said
    # anyone else: no ban or mute told, and a name only banned is nobody
    await ann.send("finger ann")
    await ann.expect("finger")
    await ann.send("ping")
    after = await ann.read_until(lambda _: True)
    assert after.startswith("ok cmd=ping"), after
    assert (await _error(ann, "finger mihsa"))["code"] == "unknown-player"
