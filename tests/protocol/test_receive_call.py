"""``Connection.receive_call``, a bot's one-line call taken at once, gives exactly what
``receive_data`` and ``next_input`` give, and leaves the connection as they leave it
(its answer credit, flood limit, deadlines, lines still to take), whatever is read."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deberc_net.protocol.commands import TableCallText
from deberc_net.protocol.connection import Connection, Input, Limits
from deberc_net.protocol.framing import LineDecoder
from tests.properties import examples
from tests.protocol.connection_inputs import inputs

# what a bot sends in one read, and what others might: calls, commands, empty and
# blank lines, tabs, a CR, a byte-order mark, bad UTF-8, a control character, telnet
# bytes, NUL, half lines, two lines, a line too long
READS = st.sampled_from(
    [
        b"9h seq=3\n",
        b"pas seq=12\r\n",
        b"igrayu h\n",
        b"  Js  \n",
        b"seek 2\n",
        b"ping seq=4\n",
        b"\n",
        b"   \n",
        b"9h\tseq=3\n",
        b"\xef\xbb\xbf9h seq=3\n",
        b"\xff\xfe9h\n",
        b"9h\x01 seq=3\n",
        b"9h\x00 seq=3\n",
        b"\xc3\n",
        b"9h se",
        b"q=3\n",
        b"9h seq=3\npas seq=4\n",
        b"x" * 40 + b"\n",
        "пас seq=5\n".encode(),
    ]
)


def taken(connection: Connection, now: float) -> list[Input]:
    """What is left to take, up to NEED_DATA (nothing more read: an empty read)."""
    return inputs(connection, b"", now)


def state(connection: Connection) -> tuple[object, ...]:
    return (
        connection.answer_credit,
        connection.has_input,
        connection.deadline(),
        connection.closed,
        connection.flood_tokens,
    )


@examples(300)
@given(
    st.lists(st.tuples(READS, st.integers(0, 2), st.booleans()), min_size=1, max_size=12),
    st.booleans(),
)
def test_a_call_taken_at_once_is_what_the_lines_give(
    reads: list[tuple[bytes, int, bool]], logged_in: bool
) -> None:
    limits = Limits(max_line=32, flood_lines_per_s=1.0, flood_burst=3.0)
    usual, quick = Connection(0.0, limits), Connection(0.0, limits)
    if logged_in:
        usual.logged_in()
        quick.logged_in()
    now = 0.0
    for data, asks, take_all in reads:
        now += 0.25
        for connection in (usual, quick):
            for _ in range(asks):  # requests to act sent meanwhile: their answers are free
                connection.send_asked(["ask seq=1"])
        usual.receive_data(data, now)
        want = taken(usual, now) if take_all else []
        call = quick.receive_call(data, now)
        got: list[Input] = [call] if call is not None else []
        if take_all or call is None:
            got += taken(quick, now) if take_all else []
        if not take_all and call is not None:  # the usual way takes it with next_input
            want = [usual.next_input(now)]
            assert isinstance(want[0], TableCallText)
        assert got == want
        assert state(quick) == state(usual)
        if usual.closed:
            break


def test_a_whole_line_is_read_as_feed_reads_it() -> None:
    for data in (b"9h seq=3\n", b"  pas \r\n", b"\xef\xbb\xbfJs\n", "Кп\n".encode()):
        text = LineDecoder().whole_line(data)
        assert text is not None
        assert [text] == [line.text for line in LineDecoder().feed(data)]
    for data in (b"9h", b"9h\n\n", b"9h\tx\n", b"\xc3\n", b"\xff\xfb\x01\n", b"x" * 2000 + b"\n"):
        assert LineDecoder().whole_line(data) is None
