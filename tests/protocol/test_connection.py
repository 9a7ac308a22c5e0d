"""The sans-IO connection: bytes and times in, commands, replies, states and bytes out."""

from __future__ import annotations

import gc

import pytest

from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, TableCallText, parse_line, stale_answer
from deberc_net.protocol.connection import (
    NEED_DATA,
    Connection,
    Input,
    Limits,
    ProtocolError,
    Reply,
    State,
    TimeoutCode,
)
from deberc_net.protocol.framing import BadLine, Line
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, phrase
from deberc_net.protocol.render import MACHINE
from deberc_net.testing import build_ruleset, new_match
from tests.protocol.connection_inputs import inputs


def test_a_new_connection_awaits_a_login_and_answers_other_commands_itself() -> None:
    connection = Connection(0.0)
    assert connection.state is State.AWAITING_LOGIN
    got = inputs(connection, b"who\r\n10h seq=3\nlogin ann\n")
    refused = Reply(ev.error("not-logged-in", phrase(Msg.LOG_IN_FIRST)))
    assert refused.error.text == "log in first: login NAME [PASSWORD]"  # as it always was
    assert got == [refused, refused, Command("login", ("ann",), "ann")]
    assert connection.state is State.AWAITING_LOGIN  # the lobby decides the login


def test_after_login_commands_and_table_calls_pass_to_the_lobby() -> None:
    connection = Connection(0.0)
    connection.logged_in()
    assert connection.state is State.LOGGED_IN
    got = inputs(connection, b"who 2\n10h seq=3\nigrayu\n")
    assert got == [Command("who", ("2",), "2"), TableCallText("10h", 3), TableCallText("igrayu")]


def test_seq_takes_ascii_digits_only() -> None:
    # tryout-s15 #6: 'pas seq=٤' (U+0664) was read as an answer to request 4
    connection = Connection(0.0)
    connection.logged_in()
    got = inputs(connection, "pas seq=4\npas seq=\u0664\nwho seq=\u0664\n".encode())
    assert got == [
        TableCallText("pas", 4),
        TableCallText("pas seq=\u0664"),  # no call: the table says so
        Command("who", ("seq=\u0664",), "seq=\u0664"),  # an argument 'who' refuses
    ]


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("igrayu d seq=5", TableCallText("igrayu d", 5)),
        ("10h \t\u00a0seq=3", TableCallText("10h", 3)),  # any spaces, a no-break one too
        ("10h\u3000seq=3", TableCallText("10h", 3)),  # an ideographic space is a space
        ("pas seq=3 seq=4", TableCallText("pas seq=3", 4)),  # the last one only
        ("pas seq=007", TableCallText("pas", 7)),
        ("10hseq=3", TableCallText("10hseq=3")),  # no space before it: part of the call
        ("seq=3", TableCallText("seq=3")),  # nothing before it
        ("pas seq=", TableCallText("pas seq=")),
        ("pas seq=3x", TableCallText("pas seq=3x")),
        ("pas seq=-3", TableCallText("pas seq=-3")),
        ("pas seq=\u00b2", TableCallText("pas seq=\u00b2")),  # '²' is no ASCII digit
        ("pas seq=3 ", TableCallText("pas", 3)),  # the line's own spaces stripped first
        ("a\nb seq=3", TableCallText("a\nb seq=3")),  # a line feed in the call: no seq=
    ],
)
def test_a_calls_seq_is_its_last_word(line: str, read: TableCallText) -> None:
    # docs/protocol.md §7: a table call may end with ``seq=N`` (ASCII digits), after
    # a space; anything else is the call's own text, which the table reads or refuses
    assert parse_line(line) == read


def test_commands_take_no_seq_but_say_speaks_it() -> None:
    # docs/protocol.md §7: "who seq=3 is who; say hi seq=3 says 'hi seq=3'"
    connection = Connection(0.0)
    connection.logged_in()
    got = inputs(connection, b"who seq=3\ntables 2 seq=9\nsay hi seq=3\n")
    assert got == [
        Command("who", (), "seq=3"),
        Command("tables", ("2",), "2 seq=9"),
        Command("say", ("hi",), "hi seq=3"),
    ]


def test_a_line_split_across_reads_comes_out_once_whole() -> None:
    connection = Connection(0.0)
    assert inputs(connection, b"pi") == []
    assert inputs(connection, b"ng\r") == []
    assert inputs(connection, b"\n") == [Command("ping")]


def test_bad_framing_is_answered_and_the_next_line_still_passes() -> None:
    connection = Connection(0.0, Limits(max_line=8))
    got = inputs(connection, b"\xff\xfb\x01" + b"x" * 20 + b"\n\xc3\x28\nping\n")
    assert got == [
        Reply(ev.Error("line-too-long", "lines are limited to 8 bytes")),
        Reply(ev.Error("bad-encoding", "lines must be UTF-8")),
        Command("ping"),
    ]


# the goodbye, said in each language (the machine line's text as it always was)
FLOOD = ev.error("flood", phrase(Msg.FLOOD))


def test_a_flood_is_answered_with_goodbye_and_nothing_after_it_passes() -> None:
    assert FLOOD.text == "too many lines too fast: goodbye"
    connection = Connection(0.0, Limits(flood_lines_per_s=1.0, flood_burst=3.0))
    got = inputs(connection, b"ping\n\nping\nping\nping\n")
    assert got == [
        Command("ping"),
        Command("ping"),
        Reply(FLOOD, hang_up=True),
    ]
    assert connection.next_input(0.0) is NEED_DATA


def test_answers_to_requests_to_act_do_not_count_as_a_flood() -> None:
    connection = Connection(0.0, Limits(flood_lines_per_s=1.0, flood_burst=1.0))
    connection.logged_in()
    match = new_match(build_ruleset(2), names=("ann", "bob"))
    seat = match.deal.turn
    ask = ev.Ask(1, 1, view(match, seat), 10_000)
    connection.send(ask)
    connection.send(ask)  # two requests sent: two answers are free
    got = inputs(connection, b"pas\npas\nping\npas\n")
    assert got == [
        TableCallText("pas"),
        TableCallText("pas"),
        Command("ping"),
        Reply(FLOOD, hang_up=True),
    ]


@pytest.mark.parametrize("dropped", [b"\xff\xf1", b"\x00", b"\xff\xf1\x00"])
def test_a_stream_of_telnet_commands_or_nuls_is_a_flood(dropped: bytes) -> None:
    # hostile tryout: IAC NOP (or NUL) sent without end made no line, so neither the
    # flood limit nor the line timeout ever ended it; each 64 dropped bytes are a line
    connection = Connection(0.0, Limits(flood_lines_per_s=10.0, flood_burst=20.0))
    connection.logged_in()
    now, got = 0.0, list[Input]()
    while not got and now < 100:  # 4 KiB reads, as the server's, 40 a second
        got = inputs(connection, dropped * (4096 // len(dropped)), now)
        now += 0.025
    assert got == [Reply(FLOOD, hang_up=True)]
    assert now < 1  # the burst (20 lines: 1280 bytes) and a little more


@pytest.mark.parametrize("byte", [b"x", b"\r"])
def test_an_endless_line_is_a_flood(byte: bytes) -> None:
    # a second hostile pass (s29): one line without end, of any byte or of CRs, was read
    # at a core's speed until its line timeout (30 s); each 1 KiB of it is a line now
    connection = Connection(0.0, Limits(flood_lines_per_s=10.0, flood_burst=20.0))
    connection.logged_in()
    got = inputs(connection, byte * 4096, 0.0)
    told = [(x.error.code, x.hang_up) if isinstance(x, Reply) else x for x in got]
    assert told == [("line-too-long", False)]  # once
    now = 0.0
    while got[-1:] != [Reply(FLOOD, hang_up=True)] and now < 100:
        now += 0.025
        got = inputs(connection, byte * 4096, now)
    assert now < 1  # the burst (20 lines: 20 KiB) and a little more


def test_a_long_line_now_and_then_is_no_flood() -> None:
    # a line of 100 KiB (a paste gone wrong) is refused as too long, nothing more
    connection = Connection(0.0, Limits(flood_lines_per_s=10.0, flood_burst=200.0))
    connection.logged_in()
    for minute in range(3):
        got = inputs(connection, b"x" * (100 * 1024) + b"\nping\n", minute * 60.0)
        first = got[0]
        assert got[1:] == [Command("ping")], got
        assert isinstance(first, Reply) and first.error.code == "line-too-long", got


def test_dropped_bytes_at_the_flood_rate_pass_and_the_lines_among_them_too() -> None:
    # 64 dropped bytes a line: 10 lines a second are 640 bytes a second; 320 pass
    connection = Connection(0.0, Limits(flood_lines_per_s=10.0, flood_burst=20.0))
    connection.logged_in()
    for tick in range(600):  # a minute: half the rate in NULs, a ping a second
        data = b"\x00" * 32 + (b"ping\n" if tick % 10 == 0 else b"")
        got = inputs(connection, data, tick / 10)
        assert got == ([Command("ping")] if tick % 10 == 0 else [])
        assert connection.deadline()[1] is TimeoutCode.IDLE  # no line waits


def test_a_telnet_s_negotiation_is_never_refused() -> None:
    # what a telnet client sends at the start and with some keys (CR NUL for Enter, a
    # window's size), however low the flood limit
    connection = Connection(0.0, Limits(flood_lines_per_s=0.001, flood_burst=3.0))
    start = (
        b"\xff\xfd\x03\xff\xfb\x18\xff\xfb\x1f\xff\xfb\x20\xff\xfb\x21\xff\xfb\x22"
        b"\xff\xfb\x27\xff\xfd\x05\xff\xfa\x1f\x00\x50\x00\x18\xff\xf0"
        b"\xff\xfa\x18\x00XTERM-256COLOR\xff\xf0"
    )
    assert inputs(connection, start) == []
    assert inputs(connection, b"login ann\r\x00\n") == [Command("login", ("ann",), "ann")]
    connection.logged_in()
    assert inputs(connection, b"\xff\xfa\x1f\x00\x78\x00\x30\xff\xf0who\r\n") == [Command("who")]


def test_silence_deadlines_follow_the_state_and_the_last_line() -> None:
    limits = Limits(login_timeout_s=15, idle_timeout_s=900, partial_line_s=30)
    connection = Connection(100.0, limits)
    assert connection.deadline() == (115.0, TimeoutCode.LOGIN)
    assert connection.timed_out(114.9) is None
    assert connection.timed_out(115.0) == Reply(
        ev.Error("login-timeout", "log in sooner: this connection closes"), hang_up=True
    )
    connection.logged_in()
    inputs(connection, b"ping\n", now=110.0)
    assert connection.deadline() == (1010.0, TimeoutCode.IDLE)

    inputs(connection, b"\n", now=500.0)  # an empty line is no sign of life
    assert connection.deadline() == (1010.0, TimeoutCode.IDLE)
    inputs(connection, b"half a li", now=600.0)
    assert connection.deadline() == (630.0, TimeoutCode.LINE)
    inputs(connection, b"ne\n", now=601.0)
    assert connection.deadline() == (1501.0, TimeoutCode.IDLE)


def test_the_login_limit_counts_from_the_last_bytes_heard_up_to_eight_times_it() -> None:
    # failed before: a person typing his name a key at a time (telnet's character
    # mode), or reading 'help' first, was cut off 15 s after he connected
    limits = Limits(login_timeout_s=15, idle_timeout_s=900, partial_line_s=30)
    connection = Connection(100.0, limits)
    inputs(connection, b"help\n", now=110.0)
    assert connection.deadline() == (125.0, TimeoutCode.LOGIN)
    inputs(connection, b"log", now=124.0)  # half a line, a key at a time
    inputs(connection, b"in mi", now=138.0)
    assert connection.deadline() == (153.0, TimeoutCode.LOGIN)
    assert connection.timed_out(152.9) is None
    assert inputs(connection, b"sha\r\n", now=152.0) == [Command("login", ("misha",), "misha")]
    # a trickle holds it 8 x 15 s after it opened at most: then the login's limit
    for now in range(160, 220, 10):
        inputs(connection, b"\n", now=float(now))
    assert connection.deadline() == (220.0, TimeoutCode.LOGIN)
    assert connection.timed_out(220.0) is not None


def test_events_become_bytes_in_the_chosen_style_and_nothing_once_closed() -> None:
    connection = Connection(0.0)
    assert connection.send(ev.Ok("ping", "pong")) == b"pong\r\n"
    connection.style = MACHINE
    assert connection.send(ev.Ok("ping", "pong")).startswith(b"ok cmd=ping")
    connection.close()
    assert connection.state is State.CLOSED
    assert connection.send(ev.Ok("ping", "pong")) == b""
    assert inputs(connection, b"ping\n") == []


def test_closed_is_true_exactly_when_the_state_is_closed() -> None:
    """``closed`` is a field kept by each move (the reader reads it a few times a
    line), never out of step with ``state``: made closed, logged in, refused, closed."""
    assert Connection(0.0, state=State.CLOSED).closed
    connection = Connection(0.0)
    assert not connection.closed
    connection.logged_in()
    assert not connection.closed
    with pytest.raises(ProtocolError):
        connection.logged_in()  # a refused move changes neither
    assert connection.state is State.LOGGED_IN and not connection.closed
    connection.close()
    assert connection.closed
    with pytest.raises(ProtocolError):
        connection.logged_in()
    assert connection.state is State.CLOSED and connection.closed


def test_moves_outside_the_transition_table_are_errors() -> None:
    connection = Connection(0.0)
    connection.logged_in()
    with pytest.raises(ProtocolError):
        connection.logged_in()  # a second login on one connection is the lobby's bug
    connection.close()
    connection.close()  # closing twice is allowed
    with pytest.raises(ProtocolError):
        connection.logged_in()
    assert connection.state is State.CLOSED


def test_an_answer_is_stale_only_before_the_open_request_or_after_the_last_event() -> None:
    assert stale_answer(None, 7, 9) is None  # no seq: never stale
    assert stale_answer(7, 7, 9) is None
    assert stale_answer(9, 7, 9) is None  # events since (away, back) do not spoil it
    old, future = stale_answer(6, 7, 9), stale_answer(10, 7, 9)
    assert old is not None and future is not None
    assert old.text() == "that answers request 6; the open request is 7"
    assert old.text(Lang.RU) == "это ответ на старый запрос 6; открытый запрос — 7"
    # a request the table has not reached is no old one
    assert future.text() == "there is no request 10 yet; the open request is 7"
    assert future.text(Lang.RU) == "запроса 10 ещё не было; открытый запрос — 7"


def _reachable(root: object, depth: int) -> list[object]:
    """The objects ``root`` refers to, and they in turn, ``depth`` steps deep."""
    seen: list[object] = []
    layer = [root]
    for _ in range(depth):
        layer = [o for x in layer for o in gc.get_referents(x)]
        seen += layer
    return seen


def test_an_idle_connection_keeps_none_of_the_lines_it_handed_out() -> None:
    """Each idle connection held its last lines till more came (two lines, ~220 bytes
    of the idle logged-in connection's ~7 KiB, docs/performance.md)."""
    connection = Connection(0.0)
    got = inputs(connection, b"style machine\nlogin ann\n")
    assert [type(x) for x in got] == [Command, Command]
    assert not connection.has_input
    kept = _reachable(connection, 3)
    assert not any(isinstance(x, (Line, BadLine)) for x in kept)
    assert not any(x in ("style machine", "login ann") for x in kept if isinstance(x, str))
    # the next lines are read as before: as a connection given them all at once reads them
    fresh = Connection(0.0)
    assert (
        inputs(connection, b"ping\nwho\n")
        == inputs(fresh, b"style machine\nlogin ann\nping\nwho\n")[2:]
    )


def test_the_last_line_taken_is_dropped_when_taken() -> None:
    """The reader takes lines while ``has_input`` holds, and after a table call asks
    nothing more (server/app.py ``_received``): a connection idle after such a read kept
    its lines till the next one came."""
    connection = Connection(0.0)
    inputs(connection, b"login ann\n")
    connection.logged_in()
    connection.receive_data(b"who\n10h seq=3\n", 0.0)
    got = []
    while connection.has_input:
        got.append(connection.next_input(0.0))
    assert [type(x) for x in got] == [Command, TableCallText]
    assert got[1] == TableCallText("10h", 3)
    kept = _reachable(connection, 3)
    assert not any(isinstance(x, (Line, BadLine)) for x in kept)
    assert not any(x in ("who", "10h seq=3") for x in kept if isinstance(x, str))
    assert connection.next_input(0.0) is NEED_DATA
