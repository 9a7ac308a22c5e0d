"""What a client may send that is not a proper command: telnet bytes, garbage, huge or
broken lines, calls out of turn, illegal cards. Each gets one error line (or nothing,
for telnet negotiation), the connection stays usable, and nobody else notices."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Awaitable, Callable

import pytest
import trio
from trio.testing import MockClock

from deberc_net.server.accounts import valid_name

from .client import (
    LineClient,
    fields,
    is_event,
    next_ask,
    play_machine,
    random_legal,
    seat_pair,
    sent_by,
)
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

IAC, DO, DONT, WILL, WONT, SB, SE = 255, 253, 254, 251, 252, 250, 240
NEGOTIATION = bytes(
    [
        IAC,
        DO,
        1,
        IAC,
        WILL,
        3,
        IAC,
        WONT,
        34,
        IAC,
        DONT,
        24,  # echo, SGA, linemode, ttype
        IAC,
        SB,
        24,
        0,
        *b"xterm-256color",
        IAC,
        SE,  # a terminal type subnegotiation
        IAC,
        SB,
        31,
        0,
        80,
        0,
        24,
        IAC,
        SE,  # NAWS 80x24
        IAC,
        241,  # NOP
    ]
)

_ARABIC_INDIC = {ord("0") + i: 0x660 + i for i in range(10)}  # '٠' .. '٩'


async def _who_works(client: LineClient, *names: str) -> None:
    await client.send("who")
    who = await client.expect("who")
    for name in names:
        assert name in who["names"].split(",")


async def test_telnet_negotiation_is_stripped(port: int, connect: Connector) -> None:
    client = await connect.raw(port, "telnet")
    # negotiation first, then commands whose bytes are split around more negotiation
    await client.send_raw(NEGOTIATION + b"style mach")
    await client.send_raw(bytes([IAC, DO]))
    await client.send_raw(bytes([1]) + b"ine\r\n" + bytes([IAC, SB, 24]))
    await client.send_raw(b"ignored inside SB" + bytes([IAC, SE]) + b"login tel\r\n")
    await client.expect("ok", cmd="login", name="tel")
    await client.send_raw(bytes([IAC, WILL, 31]) + b"who\r\n")
    await client.expect("who", names="tel")
    assert not any(line.startswith("error") for line in client.lines), client.lines
    assert [fields(x)[0] for x in client.lines[2:]] == ["ok", "ok", "who"]


# a real telnet's bytes (inetutils telnet 2.4, captured over loopback 2026-12-07): its
# opening negotiation to a telnet port (DO/WILL ENCRYPT, DO SGA, WILL TTYPE, NAWS,
# TSPEED, LFLOW, LINEMODE, NEW-ENVIRON, DO STATUS), and Ctrl-C: IAC IP, IAC DO TIMING-MARK
TELNET_START = (
    b"\xff\xfd&\xff\xfb&\xff\xfd\x03\xff\xfb\x18\xff\xfb\x1f\xff\xfb \xff\xfb!"
    b"\xff\xfb\"\xff\xfb'\xff\xfd\x05"
)
TELNET_CTRL_C = b"\xff\xf4\xff\xfd\x06"


@pytest.mark.timeout(30)
async def test_a_real_telnet_is_refused_every_option_and_sees_replies_after_its_ctrl_c(
    port: int, connect: Connector
) -> None:
    """A real telnet shows nothing the server sends after Ctrl-C until its DO
    TIMING-MARK is answered (it used to go unanswered: the screen stayed blank for good).
    Each DO gets WONT, each WILL DONT, at once; nothing telnet's reaches a line."""
    client = await connect.raw(port, "telnet")
    with trio.fail_after(30):
        await client.send_raw(TELNET_START + b"style machine\r\n")
        await client.expect("ok", cmd="style")
        assert client.telnet == (
            b"\xff\xfc&\xff\xfe&\xff\xfc\x03\xff\xfe\x18\xff\xfe\x1f\xff\xfe \xff\xfe!"
            b"\xff\xfe\"\xff\xfe'\xff\xfc\x05"
        )
        # telnet sequences in the middle of a line: IAC NOP, a WILL NAWS, a subnegotiation
        await client.send_raw(b"log\xff\xf1in te\xff\xfb\x1fl\xff\xfa\x1f\x00P\x00\x18\xff\xf0\r\n")
        await client.expect("ok", cmd="login", name="tel")
        await client.send_raw(TELNET_CTRL_C)
        await client.send("who")
        await client.expect("who", names="tel")
    assert client.telnet.endswith(b"\xff\xfe\x1f\xff\xfc\x06")  # DONT NAWS, WONT TM
    # the WONT TIMING-MARK came before the reply to the line typed after Ctrl-C
    assert client.raw.index(b"\xff\xfc\x06") < client.raw.index(b"who count=1")
    assert not any(line.startswith("error") for line in client.lines), client.lines
    assert not any("\xff" in line or "\ufffd" in line for line in client.lines)


async def test_a_client_that_refuses_or_never_negotiates_is_sent_no_telnet(
    port: int, connect: Connector
) -> None:
    """WONT and DONT (the options are off already) and IAC IP get no answer: no loop
    of refusals, and netcat, which never sends IAC, never sees one."""
    client = await connect.raw(port, "nc")
    with trio.fail_after(30):
        await client.send_raw(b"\xff\xfc\x03\xff\xfe\x18\xff\xf4style machine\n")
        await client.expect("ok", cmd="style")
        await client.send("ping")
        await client.expect("ok", cmd="ping")
    assert b"\xff" not in client.raw


@pytest.mark.timeout(30)
async def test_a_raw_255_before_a_line_end_is_no_telnet_and_eats_no_line(
    port: int, connect: Connector
) -> None:
    """A hostile tryout (2026-12-06): 'say ÿ' typed in Latin-1 (the byte 255, telnet's
    IAC, then LF) lost its LF with the IAC, a two-byte telnet command: the next line,
    'ping', was said to the lobby. IAC before a byte no telnet command is (below 240)
    is data: that line is refused as bad-encoding, and the next one is its own."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    with trio.fail_after(30):
        for raw in (b"say \xff\n", b"say \xffa\n", b"say \xff\x00\n"):
            await ann.send_raw(raw + b"ping\n")
            assert (await ann.expect("error"))["code"] == "bad-encoding", raw
            await ann.expect("ok", cmd="ping")
        await ann.send_raw(bytes([IAC, 241]) + b"ping\n")  # IAC NOP: telnet, dropped
        await ann.expect("ok", cmd="ping")
        await _who_works(ann, "ann", "bob")
    assert not any(x.startswith(("say ", "error ")) for x in bob.lines), bob.lines


async def test_a_typo_corrected_key_by_key_is_the_line_meant(port: int, connect: Connector) -> None:
    """Backspace (BS) and Delete (DEL) erase the character before them, as a client
    that sends each key (Windows' telnet) types them; refused before as a control
    character (a tryout, s42)."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send_raw(b"wh\x08\x08who\r\n")
    who = await ann.expect("who")
    assert who["names"].split(",") == ["ann", "bob"]
    await ann.send_raw("say пат\x7fс\n".encode())
    said = await bob.expect("say")
    assert said["from"] == "ann" and said["text"] == "пас"
    assert not any(x.startswith("error ") for x in ann.lines), ann.lines


async def test_garbage_and_broken_lines(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("frobnicate the server")
    error = await ann.expect("error")
    assert error["code"] == "unknown-command"
    await _who_works(ann, "ann", "bob")

    await ann.send_raw(b"x" * (100 * 1024) + b"\n")
    await ann.send("who")
    error = await ann.expect("error")
    assert error["code"] == "line-too-long"
    await ann.expect("who")  # usable at once, and only one error for the whole line
    assert sum(line.startswith("error code=line-too-long") for line in ann.lines) == 1

    await ann.send_raw(b"login \xc3\x28\xff\xfe caf\xe9\n")
    assert (await ann.expect("error"))["code"] == "bad-encoding"
    await ann.send_raw(b"say a\x07bell\n")
    assert (await ann.expect("error"))["code"] == "control-character"
    await ann.send_raw(b"say utf-8 is fine: \xd0\xbf\xd0\xb0\xd1\x81\r\n")
    said = await bob.expect("say")
    assert said["from"] == "ann" and said["text"] == "utf-8 is fine: пас"
    await _who_works(ann, "ann", "bob")
    # bob saw nothing of ann's troubles but her words
    assert [fields(x)[0] for x in bob.lines[2:]] == ["ok", "ok", "say"]


async def test_commands_before_login_and_bad_arguments(port: int, connect: Connector) -> None:
    client = await connect.raw(port, "anon")
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    for line in ("who", "tables", "seek 2", "pas"):
        await client.send(line)
        assert (await client.expect("error"))["code"] == "not-logged-in"
    await client.send("login x")  # too short a name
    assert (await client.expect("error"))["code"] == "bad-argument"
    await client.send("login a b c")
    assert (await client.expect("error"))["code"] == "bad-argument"
    await client.send("login anon")
    await client.expect("ok", cmd="login")
    await client.send("login other")
    assert (await client.expect("error"))["code"] == "not-allowed"
    for line in ("sit", "sit x", "observe", "new 2 nosuchoption", "style purple", "say"):
        await client.send(line)
        error = await client.expect("error")
        assert error["code"] in ("bad-argument", "bad-rules"), (line, error)


async def test_a_command_s_words_are_split_at_any_space_a_no_break_one_too(
    port: int, connect: Connector
) -> None:
    """A phone or a copied line puts a no-break space (U+00A0) after the command: 'say\xa0hi'
    was one word, told 'not a command ... Did you mean say?', and 'login\xa0x' before
    login 'not-logged-in' (hostile tryout). The words are split at any Unicode space,
    as str.split() does; a say's text keeps the spaces inside it as typed."""
    ann = await connect.raw(port, "ann")
    await ann.send("style\u2003machine")
    await ann.expect("ok", cmd="style")
    await ann.send("login\u00a0ann")
    await ann.expect("ok", cmd="login", name="ann")
    bob = await connect.human(port, "bob")
    await bob.send("say\u00a0hi")
    assert "bob says: hi" in await bob.read_until(lambda line: "says" in line)
    await ann.expect("say", text="hi", **sent_by("bob"))
    await ann.send("say\u00a0a\u00a0b")  # the text as typed, its no-break space kept
    await ann.expect("say", text="a\u00a0b", **sent_by("ann"))
    await ann.send("who\u00a01")
    assert (await ann.expect("who"))["page"] == "1"
    await ann.send("ping\u2003x")
    await ann.expect("ok", cmd="ping")
    await ann.send("new\u30002")
    await ann.expect("ok", cmd="sit", table="1")
    assert not any("not a command" in line for line in ann.lines + bob.lines)


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): code points a
# terminal or a browser draws as nothing
DEFAULT_IGNORABLE = [
    *range(0x00AD, 0x00AE),
    0x034F,
    0x061C,
    0x115F,
    0x1160,
    0x17B4,
    0x17B5,
    *range(0x180B, 0x1810),
    *range(0x200B, 0x2010),
    *range(0x202A, 0x202F),
    *range(0x2060, 0x2070),
    0x3164,
    *range(0xFE00, 0xFE10),
    0xFEFF,
    0xFFA0,
    *range(0xFFF0, 0xFFF9),
    *range(0x1BCA0, 0x1BCA4),
    *range(0x1D173, 0x1D17B),
    *range(0xE0000, 0xE1000),
]
HANGUL_FILLERS = "\u115f\u1160\u3164\uffa0"  # letters (Lo) that show as blanks


def test_no_name_holds_a_character_drawn_as_nothing() -> None:
    for code in DEFAULT_IGNORABLE:
        for name in (f"an{chr(code)}na", chr(code) * 3):
            assert not valid_name(name), f"U+{code:04X}"


async def test_names_that_show_as_blanks_are_refused(port: int, connect: Connector) -> None:
    """The Hangul fillers are letters that render as blanks: a player called so has no
    visible name in 'who' or at a table (tryout s9, finding 5)."""
    client = await connect.raw(port, "blank")
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    names = [filler * 2 for filler in HANGUL_FILLERS] + ["ann\u3164", "\u115f\u1160"]
    for name in names:
        await client.send(f"login {name}")
        assert await client.expect("error") == {
            "code": "bad-argument",
            "text": "a name is 2-20 letters, digits, '_' or '-'",
        }, ascii(name)
    await client.send("login ann")  # nothing changed: the connection logs in as before
    await client.expect("ok", cmd="login")
    await client.send("new 2")
    await client.expect("ok", cmd="sit")
    await client.send("invite \u3164\u3164")
    assert (await client.expect("error"))["code"] == "bad-argument"


async def test_a_say_with_bidi_controls_is_refused_and_reaches_nobody(
    port: int, connect: Connector
) -> None:
    """A right-to-left override (U+202A-U+202E) or isolate (U+2066-U+2069) would turn
    the rest of the line around on everyone's screen (tryout s9, finding 6); names
    refuse them already."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    bidi = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
    for control in bidi:
        await ann.send(f"say {control}evil\u202c")
        assert await ann.expect("error") == {
            "code": "bad-argument",
            "text": "say TEXT: no bidi controls (U+202A to U+202E, U+2066 to U+2069)",
        }, ascii(control)
    await ann.send("say \u05e9\u05dc\u05d5\u05dd hello")  # Hebrew itself is fine
    await bob.expect("say", text="\u05e9\u05dc\u05d5\u05dd hello", **sent_by("ann"))
    assert not any("evil" in line for line in bob.lines)
    await seat_pair(ann, bob)  # and at a table the same
    await ann.send("say \u2067x")
    assert (await ann.expect("error"))["code"] == "bad-argument"


async def test_unknown_table(port: int, connect: Connector) -> None:
    client = await connect.machine(port, "ann")
    for command in ("sit 42", "observe 42", "rules 42", "unobserve 42"):
        await client.send(command)
        assert (await client.expect("error"))["code"] == "unknown-table", command
    # no table number at all ('unobserve x' was unknown-table 'there is no table x')
    for command in ("sit x", "observe x", "rules x", "rules 1 2", "unobserve x"):
        await client.send(command)
        assert (await client.expect("error"))["code"] == "bad-argument", command
    await _who_works(client, "ann")


async def test_a_command_s_numbers_are_ascii_digits_only(port: int, connect: Connector) -> None:
    """int() read 'sit ١' (Arabic-Indic one) and 'sit 𝟏' as table 1 and 'who ٢' as page
    2, while 'sit ²' was bad-argument, and with no table 1 'sit ١' said 'there is no
    table ١' (hostile tryout): every number a command takes is ASCII digits, as seq=
    is (docs/protocol.md §7), each refused as the command refuses any other word."""
    bob = await connect.machine(port, "bob")
    await bob.send("new 2")
    await bob.expect("ok", cmd="sit", table="1")
    ann = await connect.machine(port, "ann")
    other_ones = ("\u0661", "\U0001d7cf", "\u00b9", "\u2460", "\uff11")  # ١ 𝟏 ¹ ① １
    for one in other_ones:
        for line, usage in (
            (f"sit {one}", "sit TABLE [SEAT]"),
            (f"sit 1 {one}", "sit TABLE [SEAT]"),
            (f"observe {one}", "observe TABLE"),
            (f"rules {one}", "rules [TABLE|RULE]"),
        ):
            await ann.send(line)
            assert await ann.expect("error") == {"code": "bad-argument", "text": usage}, ascii(line)
        await ann.send(f"who {one}")
        assert await ann.expect("error") == {
            "code": "bad-argument",
            "text": "who [PAGE]: pages 1 to 1",
        }, ascii(one)
        for line in (f"tables {one}", f"top moscow 2 {one}", f"top {one}"):
            assert (await ann.reply(line, "error") or "").startswith("error code=bad-argument")
        await ann.send(f"new {one}")  # no number: an option nobody has
        refused = await ann.expect("error")
        assert refused["code"] == "bad-rules" and "PLAYERS is a number" in refused["text"]
    await bob.send("bot search \u0663")
    assert await bob.expect("error") == {
        "code": "bad-argument",
        "text": "bot heuristic|random|search [LEVEL] [rated]: LEVEL (search only) 1 to 5",
    }
    await ann.send("sit 1")  # nothing changed: the seat is still free
    await ann.expect("ok", cmd="sit", table="1")


async def test_games_checks_the_name_as_finger_does(port: int, connect: Connector) -> None:
    """'games x\u202ey' echoed the bidi override back ('No finished games for x‮y.') and
    'games' with 300 letters answered 'games name=aaaa… count=0', where 'finger' says
    no name is so (hostile tryout)."""
    ann = await connect.machine(port, "ann")
    no_name = {"code": "bad-argument", "text": "a name is 2-20 letters, digits, '_' or '-'"}
    for line in ("games x\u202ey", "games " + "a" * 300, "games x", "games a\u200bb"):
        await ann.send(line)
        assert await ann.expect("error") == no_name, ascii(line)
        await ann.send(line.replace("games", "finger", 1))
        assert await ann.expect("error") == no_name, ascii(line)
    await ann.send("games ann bob")
    assert await ann.expect("error") == {"code": "bad-argument", "text": "games [NAME]"}
    await ann.send("games bob")  # a name, nobody's yet: told so, as 'finger' tells it
    assert (await ann.expect("error"))["code"] == "unknown-player"
    assert not [line for line in ann.lines if "\u202e" in line or "a" * 21 in line]


async def test_unfinished_line_is_disconnected(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    # on virtual time: the limit is met exactly, from the first byte (the trickle does
    # not extend it), where a real-time window of 0.25-2 s failed on a stalled host
    port = await start_server(partial_line_ms=300)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    slow = await connect.machine(port, "slow")
    await seat_pair(ann, bob)
    ends: list[str] = []

    async def run(client: LineClient, seed: int) -> None:
        rng = random.Random(seed)
        slow_enough = trio.current_time() + 0.6  # the game spans the disconnect
        while True:
            line = await client.read_until(lambda _: True)
            tag, f = fields(line)
            assert tag != "error", line
            if is_event(line, "match-end"):
                ends.append(line)
                return
            if tag == "ask":
                await trio.sleep_until(min(slow_enough, trio.current_time() + 0.02))
                await client.send(f"{random_legal(f, rng)} seq={f['seq']}")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(run, ann, 1)
        nursery.start_soon(run, bob, 2)
        start = trio.current_time()
        await slow.send_raw(b"who and never a newl")
        await trio.sleep(0.1)
        await slow.send_raw(b"ine, a byte at a time")  # trickling does not extend the limit
        error = await slow.expect("error", timeout=3)
        assert error["code"] == "line-timeout"
        await slow.wait_closed(timeout=3)
        elapsed = trio.current_time() - start
        assert elapsed == pytest.approx(0.3), elapsed
        assert not ends  # the game was still on meanwhile
    assert len(ends) == 2 and ends[0] == ends[1]
    await ann.send("who")
    assert (await ann.expect("who"))["names"] == "ann,bob"


async def test_an_idle_client_is_not_disconnected(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(partial_line_ms=200)
    ann = await connect.machine(port, "ann")
    start = trio.current_time()
    assert await ann.drain(0.6) == []  # three times the limit on a partial line
    assert trio.current_time() - start == pytest.approx(0.6)
    await _who_works(ann, "ann")


async def _ask_of(client: LineClient) -> dict[str, str]:
    return fields(await client.read_until(lambda line: line.startswith("ask ")))[1]


async def _current_ask(client: LineClient) -> dict[str, str]:
    """Ask the table again (``state``): the seat's request as it stands now."""
    await client.send("state")
    return await _ask_of(client)


def _same_request(before: dict[str, str], after: dict[str, str]) -> None:
    for key in ("seq", "deal", "phase", "hand", "legal", "trick", "score", "talk", "to_act"):
        assert before[key] == after[key], key


async def test_calls_out_of_turn_and_bad_calls_change_nothing(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    observer = await connect.machine(port, "eve")
    others = await connect.machine(port, "carl"), await connect.machine(port, "dora")
    table, _, _ = await seat_pair(ann, bob)
    await observer.send(f"observe {table}")
    await observer.expect("ok", cmd="observe")

    async with trio.open_nursery() as nursery:
        # another game runs meanwhile and must not notice anything
        other_game: dict[str, str] = {}

        async def run(client: LineClient, seed: int) -> None:
            other_game[client.label] = await play_machine(client, random.Random(seed), timeout=10)

        await seat_pair(*others)
        for i, client in enumerate(others):
            nursery.start_soon(run, client, 10 + i)

        # bidding: whoever is not asked calls out of turn
        found = await next_ask(ann, bob)
        assert found is not None
        ask, first = found
        second = bob if first is ann else ann
        # the request as it stands: eve's arrival (event kind=observer) was told after
        # the ask, so its seq is one more; the open request is still the ask's
        now = await _current_ask(first)
        assert int(now["seq"]) == int(ask["seq"]) + 1
        assert ask["phase"] == "bidding" and int(ask["seat"]) == (int(ask["dealer"]) + 1) % 2
        for call in ("pas", f"pas seq={ask['seq']}", "igrayu"):
            await second.send(call)
            assert (await second.expect("error"))["code"] == "not-your-turn", call
        for call, code in (
            ("igrayu-h" if ask["turned"][-1] != "h" else "igrayu-s", "not-allowed"),
            ("Ah", "wrong-phase"),
            ("blah blah", "unknown-command"),
            ("igrayu zzz", "unknown-command"),
            ("konets", "unknown-command"),  # a call only with manual-claim (§8.2)
            ("501", "unknown-command"),
            (f"pas seq={int(ask['seq']) - 1}", "stale"),
            (f"pas seq={int(ask['seq']) + 5}", "stale"),
            # tryout-s15 #6: seq= takes ASCII digits (§7), not the Arabic-Indic ones
            (f"pas seq={ask['seq'].translate(_ARABIC_INDIC)}", "unknown-command"),
        ):
            await first.send(call)
            assert (await first.expect("error"))["code"] == code, call
        _same_request(now, await _current_ask(first))
        await second.send("state")  # the other seat sees the table where it was
        assert (await second.expect("state"))["seq"] == now["seq"]

        # play the match out (both seats random); whenever a seat holds cards it may
        # not play, try each of them first: the right code, and nothing changes
        rng = random.Random(3)
        await first.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
        codes: dict[str, int] = {}
        while True:
            found = await next_ask(first, second)
            if found is None:
                break
            ask, actor = found
            hand, legal = ask["hand"].split(","), set(ask["legal"].split(","))
            if ask["phase"] == "play" and ask["trick"] and ask["pending"] == "-":
                for wrong in [c for c in hand if c not in legal]:
                    code = _expected_code(wrong, hand, ask["trick"].split(",")[0], ask["trump"])
                    await actor.send(f"{wrong} seq={ask['seq']}")
                    assert (await actor.expect("error"))["code"] == code, (wrong, ask)
                    codes[code] = codes.get(code, 0) + 1
                if len(legal) < len(hand) and "illegal-card" not in codes:
                    idle = second if actor is first else first
                    played = set(ask["trick"].split(",")) | set(hand)
                    absent = next(c for c in _deck() if c not in played)
                    await actor.send(absent)  # not in the hand
                    assert (await actor.expect("error"))["code"] == "illegal-card"
                    codes["illegal-card"] = 1
                    await actor.send("Q")  # not a card at all
                    assert (await actor.expect("error"))["code"] == "unknown-command"
                    await idle.send(f"{idle_hand(idle)[0]} seq={ask['seq']}")
                    assert (await idle.expect("error"))["code"] == "not-your-turn"
                if len(legal) < len(hand):
                    _same_request(ask, await _current_ask(actor))
            await actor.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
        # each wrong card's code was checked above as it came up; a match shows the
        # rules it met. Trumping or overtrumping comes up in nearly every match, either
        # one (a deal seed of s46, 27b67bc9, had must-overtrump twice and no must-trump)
        assert {"must-follow-suit", "illegal-card"} <= set(codes), codes
        assert {"must-trump", "must-overtrump"} & set(codes), codes
        ends = []
        for client in (ann, bob):
            seen = [x for x in client.lines[: client.pos] if is_event(x, "match-end")]
            ends += seen or [await client.read_until(lambda x: is_event(x, "match-end"))]
        assert len(ends) == 2 and ends[0] == ends[1]
        end = await observer.read_until(lambda line: is_event(line, "match-end"))
        assert end == ends[0]
    assert set(other_game) == {"carl", "dora"} and other_game["carl"] == other_game["dora"]
    for client in others:
        assert not any(line.startswith("error") for line in client.lines)


def _expected_code(card: str, hand: list[str], led: str, trump: str) -> str:
    """The rule a card breaks, by docs/rules.md §4: follow suit, else trump, else overtrump."""
    if card[-1] != led[-1] and any(c[-1] == led[-1] for c in hand):
        return "must-follow-suit"
    if card[-1] != trump and any(c[-1] == trump for c in hand):
        return "must-trump"
    assert card[-1] == trump  # a trump too low while a higher one is held
    return "must-overtrump"


def _deck() -> list[str]:
    return [r + s for s in "shdc" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def idle_hand(client: LineClient) -> list[str]:
    states = [fields(x)[1] for x in client.lines if x.startswith(("state ", "ask "))]
    return states[-1]["hand"].split(",") if states else []


async def test_bad_bytes_from_a_seat_change_nothing(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    found = await next_ask(ann, bob)
    assert found is not None
    ask, actor = found
    other = bob if actor is ann else ann
    for data, code in (
        (b"frobnicate\n", "unknown-command"),
        (b"K" * (100 * 1024) + b"\n", "line-too-long"),
        (b"\xd0\xbf\xd0\n", "bad-encoding"),
        (b"pas\x1b[A\n", "control-character"),
        (b"\xff\xfb\x01\xff\xfa\x18\x00vt100\xff\xf0\n", None),  # telnet only: nothing
    ):
        await actor.send_raw(data)
        if code is not None:
            assert (await actor.expect("error"))["code"] == code
        _same_request(ask, await _current_ask(actor))
    events = [int(fields(x)[1]["seq"]) for x in actor.lines if x.startswith("event ")]
    assert max(events) <= int(ask["seq"])  # the table did not move
    await actor.send(f"{random_legal(ask, random.Random(0))} seq={ask['seq']}")
    ends: list[str] = []

    async def finish(client: LineClient, seed: int) -> None:
        ends.append(await play_machine(client, random.Random(seed)))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(finish, actor, 1)
        nursery.start_soon(finish, other, 2)
    assert ends[0] == ends[1]


async def test_a_full_server_refuses_politely(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(max_connections=1)
    ann = await connect.machine(port, "ann")
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    extra = LineClient(stream, "extra")
    await extra.wait_closed()
    assert extra.lines == ["error code=busy text=the server is full"]
    await extra.aclose()
    await _who_works(ann, "ann")


async def test_a_flooding_client_is_cut_off_and_nobody_else_notices(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(flood_lines_per_s=50, flood_burst=100)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await bob.send("who")  # an ordinary pace is never cut off
    await bob.expect("who")
    await ann.send_raw(b"ping\n" * 2000)
    assert (await ann.expect("error", code="flood"))["text"].startswith("too many lines")
    await ann.wait_closed()
    pongs = [line for line in ann.lines if line.startswith("ok cmd=ping")]
    assert 90 <= len(pongs) <= 110  # the burst was served, the rest was not
    await _who_works(bob, "bob")


@pytest.mark.parametrize(
    "dropped", [b"\xff\xf1", b"\x00", b"\xff\xfd\x01"], ids=["iac-nop", "nul", "iac-do"]
)
async def test_a_stream_of_dropped_bytes_is_cut_off_as_a_flood_and_nobody_else_notices(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
    dropped: bytes,
) -> None:
    # hostile tryout: telnet IAC NOP (or NUL) sent without end made no line, so neither
    # the flood limit nor the line timeout ended it, and 20 such peers held a core; every
    # 64 dropped bytes now count as a line (docs/protocol.md §2.2), at the default limits
    port = await start_server()
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    began = trio.current_time()
    ann_sent = [0]
    async with trio.open_nursery() as nursery:

        async def stream() -> None:  # 4 KiB every 10 ms: 6,400 dropped "lines" a second
            chunk = dropped * (4096 // len(dropped))
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                while True:
                    await ann.send_raw(chunk)
                    ann_sent[0] += len(chunk)
                    await trio.sleep(0.01)

        nursery.start_soon(stream)
        await _who_works(bob, "ann", "bob")  # meanwhile, as ever
        await ann.expect("error", code="flood", timeout=60)
        await ann.wait_closed(timeout=60)
        nursery.cancel_scope.cancel()
    assert trio.current_time() - began < 1  # the burst (1,000 lines: 64 KB) and a little
    # each IAC DO refused (3 bytes for its 3), and no more than it sent: bounded as well
    assert len(ann.telnet) <= ann_sent[0] and (dropped != b"\xff\xfd\x01") == (not ann.telnet)
    assert not [line for line in ann.lines if line.startswith("error ") and "flood" not in line]
    await _who_works(bob, "bob")


async def test_konets_is_a_call_only_at_a_manual_claim_table(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob, "2 moscow manual-claim")
    for client in (ann, bob):  # a call here, refused for the phase or turn, not unknown
        await client.send("konets")
        assert (await client.expect("error"))["code"] in {"wrong-phase", "not-your-turn"}


async def test_ne_menyayu_is_a_call_only_at_a_swap_before_extra_table(
    port: int, connect: Connector
) -> None:
    """A tryout (s30) typed 'keep' at a plain table and was told 'ne menyayu is not a
    call you may make now': the option's words are no call where it is off (§8.2), as
    konets is none without manual-claim."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob, "2")
    cat = await connect.machine(port, "cat")
    dan = await connect.machine(port, "dan")
    await seat_pair(cat, dan, "2 swap-before-extra")
    for word in ("ne-menyayu", "keep", "не меняю"):
        for client in (ann, bob):
            await client.send(word)
            error = await client.expect("error")
            assert error["code"] == "unknown-command", (word, error)
            assert error["text"].startswith("not a table call here: "), error
        for client in (cat, dan):  # a call here, refused for the phase or turn
            await client.send(word)
            assert (await client.expect("error"))["code"] != "unknown-command", word


# the default-ignorable code points 'say' lets through: the bidi controls (refused with
# their own text), the joiners and the variation selectors real writing needs
SAY_NEEDS = {
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
    0x200C,
    0x200D,
    *range(0xFE00, 0xFE10),
    *range(0xE0100, 0xE01F0),
    *range(0x180B, 0x180E),  # Mongolian's free variation selectors (not U+180E)
    0x180F,
}


def _ends_of_runs(codes: list[int]) -> list[int]:
    """The first and last code point of each run of consecutive ones: a sample."""
    ordered = sorted(set(codes))
    return sorted(
        {c for i, c in enumerate(ordered) if i == 0 or ordered[i - 1] != c - 1}
        | {c for i, c in enumerate(ordered) if i == len(ordered) - 1 or ordered[i + 1] != c + 1}
    )


async def test_a_say_with_characters_drawn_as_nothing_is_refused_and_costs_nothing(
    start_server: StartServer, connect: Connector
) -> None:
    """Zero-width spaces, invisible marks and tags (Unicode's default-ignorable code
    points, as names refuse them) would hide text in a line; refused before the chat
    allowance is spent. The joiners and variation selectors emoji and some scripts need
    pass (Mongolian's too: they were refused), and so does a region's flag (its tags)."""
    port = await start_server(say_burst=4, say_per_s=0.001)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    hidden = [chr(c) for c in _ends_of_runs([c for c in DEFAULT_IGNORABLE if c not in SAY_NEEDS])]
    assert "\u180e" in hidden  # the Mongolian vowel separator: no selector, refused
    for text in [f"a{mark}b" for mark in hidden] + ["\u200d", "\ufe0f \u200c", "\u180b"]:
        await ann.send(f"say {text}")  # (the last two: nothing to see)
        assert await ann.expect("error") == {
            "code": "bad-argument",
            "text": "say TEXT: no characters drawn as nothing (zero-width spaces, invisible"
            " marks and tags, the Hangul fillers), and something to see",
        }, ascii(text)
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    mongolian = "\u182d\u180b\u1820 \u1821\u180c \u1828\u180d \u1832\u180f"
    for said in ("\u2764\ufe0f", "\U0001f468\u200d\U0001f469\u200d\U0001f467", england, mongolian):
        await ann.send(f"say {said}")  # the four the allowance holds: none was spent
        await bob.expect("say", text=said, **sent_by("ann"))
    assert not any(
        "a" in fields(line)[1].get("text", "") for line in bob.lines if line.startswith("say")
    )


async def test_a_say_with_nothing_to_see_or_drawn_over_other_lines_is_refused(
    start_server: StartServer, connect: Connector
) -> None:
    """A braille blank (U+2800), combining marks alone, 'Zalgo' text (a letter and 400
    accents: one column, drawn over the lines around it) and the interlinear annotation
    characters (U+FFF9-U+FFFB) were said (hostile tryout); refused before the chat
    allowance is spent. Accents as writing has them pass: Vietnamese decomposed, Hebrew
    with its points and an accent, a Tibetan stack, a keycap emoji."""
    port = await start_server(say_burst=5, say_per_s=0.001)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    nothing = (
        "say TEXT: no characters drawn as nothing (zero-width spaces, invisible marks and"
        " tags, the Hangul fillers), and something to see"
    )
    stacked = "say TEXT: at most 4 combining marks (accents) on one character"
    for text, why in [
        ("\u2800\u2800", nothing),
        ("\u2800 \u3000\u00a0", nothing),
        ("\u0301" * 50, nothing),
        ("\u20dd", nothing),  # an enclosing mark alone
        ("\ufff9x", nothing),
        ("a\ufffab\ufffb", nothing),
        ("a" + "\u0301" * 400, stacked),
        ("ok x" + "\u0301" * 5, stacked),  # (x with an accent is no one character)
        # a joiner between accents does not end their row (a hostile tryout, s29)
        ("a" + ("\u0301" * 4 + "\u200d") * 40, stacked),
        ("a" + ("\u0301" * 4 + "\u200c") * 2, stacked),
    ]:
        await ann.send(f"say {text}")
        assert await ann.expect("error") == {"code": "bad-argument", "text": why}, ascii(text)
    vietnamese = "Vie\u0323\u0302t Nam"
    hebrew = "\u05e9\u05c1\u05bc\u05b8\u0591\u05dc\u05d5\u05b9\u05dd"
    tibetan = "\u0f67\u0f71\u0f74\u0f83"
    # a virama, a joiner, a consonant (Devanagari's half form): writing, not a row
    devanagari = "\u0915\u094d\u200d\u0937"
    for said in (vietnamese, hebrew, tibetan, "a\u2800b #\ufe0f\u20e3", devanagari):
        await ann.send(f"say {said}")  # the five the allowance holds: none was spent
        await bob.expect("say", text=said, **sent_by("ann"))
    assert not [line for line in bob.lines if "\u0301" in line or "\ufff9" in line]


@pytest.mark.parametrize("name", ["\ufdfa\ufdfa", "x\ufdfa", "\u00bd0"])
async def test_a_name_whose_compatibility_form_is_no_name_is_refused(
    port: int, connect: Connector, name: str
) -> None:
    """Names are compared in their compatibility form (NFKC): U+FDFA, one character, is
    a phrase of 18 with spaces there, and ½ is 1⁄2; the rule holds in that form too."""
    client = await connect.raw(port, "guest")
    await client.send("style machine")
    await client.send(f"login {name}")
    refused = await client.expect("error")
    assert refused["code"] == "bad-argument" and refused["text"].startswith("a name is 2-20")


_WHY = (  # the refusal of a name that mixes alphabets whose letters look alike
    "a name keeps to one alphabet: Latin, Cyrillic, Greek, Armenian, Cherokee, Coptic, Lisu,"
    " Canadian syllabic and Tifinagh letters look alike, and are not mixed in it"
)


@pytest.mark.timeout(30)
async def test_a_new_name_mixes_no_alphabets_whose_letters_look_alike(
    start_server: StartServer, connect: Connector, register: Callable[[str, str], Awaitable[None]]
) -> None:
    """A Cyrillic а in 'аnna' made a second anna on every screen, 'bоss' the admin and
    'hоuse-search3' a house bot (a hostile tryout, s34): a name taken now keeps to one
    of the Latin, Cyrillic and Greek alphabets, and is told why. A name wholly in one is
    its own, with digits, '_', '-' and other alphabets (Chinese); an account registered
    before the rule still logs in, and is found."""
    await register("olγa", "her-own-1")  # a Latin name with a Greek gamma, from before
    port = await start_server(admins=["boss"])
    with trio.fail_after(20):
        for name, secret in [
            ("\u0430nna", ""),  # a Cyrillic а, then Latin
            ("b\u043ess", ""),  # a Cyrillic о
            ("h\u043euse-search3", ""),
            ("\u0430nna", " a-password"),  # nor registered
            ("\uff41\u043d\u044f", ""),  # a full-width Latin a is a Latin a
            ("\u03b1lpha_7", ""),  # a Greek alpha
        ]:
            client = await connect.raw(port, "new")
            await client.send("style machine")
            await client.expect("ok", cmd="style")
            await client.send(f"login {name}{secret}")
            assert await client.expect("error") == {"code": "bad-argument", "text": _WHY}, name
        for name in (
            "\u0430\u043d\u044f_2",
            "\u03bf\u03bb\u03b3\u03b1",
            "anna-7",
            "\u6c49\u5b57anna",
        ):
            client = await connect.raw(port, "new")
            await client.send("style machine")
            await client.expect("ok", cmd="style")
            await client.send(f"login {name}")
            assert (await client.expect("ok", cmd="login"))["name"] == name
        old = await connect.machine(port, "olγa", "her-own-1")
        await old.send("finger olγa")
        await old.expect("finger", name="olγa")


@pytest.mark.timeout(30)
async def test_a_new_name_mixes_latin_with_no_other_alphabet_whose_letters_look_like_it(
    start_server: StartServer, connect: Connector
) -> None:
    """A hostile tryout (2026-12-06): an Armenian օ made 'hօuse-search3' beside the
    house bot and 'bօss' beside the admin, a Cherokee Ꭺ a second Anna: the alphabets
    whose letters look like Latin ones are not mixed with it either. Each alone is a
    name, as Chinese with Latin is."""
    port = await start_server(admins=["boss"])
    with trio.fail_after(20):
        for name in (
            "h\u0585use-search3",  # ARMENIAN SMALL LETTER OH
            "b\u0585ss",
            "\u13aanna",  # CHEROKEE LETTER GO, drawn as A
            "b\u2c9fss",  # COPTIC SMALL LETTER O
            "\ua4eenna",  # LISU LETTER A
            "b\u2d54ss",  # TIFINAGH LETTER YAR, drawn as O
        ):
            client = await connect.raw(port, "new")
            await client.send("style machine")
            await client.expect("ok", cmd="style")
            await client.send(f"login {name}")
            assert await client.expect("error") == {"code": "bad-argument", "text": _WHY}, name
        for name in ("\u0570\u0561\u0575", "\u13aa\u13a6\u13af_1"):  # Armenian, Cherokee alone
            client = await connect.raw(port, "new")
            await client.send("style machine")
            await client.expect("ok", cmd="style")
            await client.send(f"login {name}")
            assert (await client.expect("ok", cmd="login"))["name"] == name


async def test_a_name_registered_before_the_compatibility_rule_still_logs_in(
    start_server: StartServer, connect: Connector, register: Callable[[str, str], Awaitable[None]]
) -> None:
    """The compatibility form's rule is for names taken from now on: an account
    registered before it (its name then valid) is its player's, with his ratings and
    matches; he still logs in with his password, and others still find him ('finger',
    'invite'). Nobody takes such a name anew, as a guest or by registering."""
    await register("x\u00bd", "his-own-1")
    await register("ann", "ann-secret")
    port = await start_server()
    old = await connect.raw(port, "old")
    await old.send("style machine")
    await old.expect("ok", cmd="style")
    await old.send("login x\u00bd his-own-1")
    assert (await old.expect("ok", cmd="login"))["name"] == "x\u00bd"
    ann = await connect.machine(port, "ann", "ann-secret")
    await ann.send("finger x\u00bd")
    await ann.expect("finger", name="x\u00bd")
    await ann.send("new 4")
    await ann.expect("ok", cmd="sit")
    await ann.send("invite x\u00bd")
    await ann.expect("ok", cmd="invite")
    for login in ("login y\u00bd", "login y\u00bd a-password"):  # a guest; a registration
        newcomer = await connect.raw(port, "new")
        await newcomer.send("style machine")
        await newcomer.expect("ok", cmd="style")
        await newcomer.send(login)
        refused = await newcomer.expect("error")
        assert refused["code"] == "bad-argument", login
        assert refused["text"].startswith("a name is 2-20"), login
