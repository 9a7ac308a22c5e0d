"""The line decoder's fast path (a read without telnet bytes or NUL, split with
bytes.find) gives exactly what its telnet path (the telnet commands and NULs dropped
first) gives, whatever the chunking."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deberc_net.protocol.framing import BadLine, Event, Line, LineDecoder
from tests.properties import examples

# bytes a bot sends, with CRs, long lines and invalid UTF-8 mixed in (no IAC, no NUL)
PLAIN = st.binary(max_size=80).map(lambda b: b.replace(b"\xff", b"a").replace(b"\x00", b"b"))
# and whole lines, as a bot sends its calls (one read each: the decoder's shortest way)
WHOLE = st.sampled_from(
    [b"\n", b"\r\n", b"x" * 30, b"pas seq=3\n", b"9h seq=12\r\n", b"y" * 64 + b"\n"]
)
PIECES = st.lists(st.one_of(PLAIN, WHOLE, PLAIN.map(lambda b: b + b"\n")), max_size=30)


def slow(decoder: LineDecoder, data: bytes) -> list[Event]:
    """``data`` through the telnet path: a read with a NUL in it takes that path, which
    drops the NUL (telnet's CR NUL)."""
    return decoder.feed(data + b"\x00")


@examples(300)
@given(PIECES, st.integers(min_value=4, max_value=64))
def test_fast_and_slow_paths_agree(pieces: list[bytes], max_line: int) -> None:
    fast, reference = LineDecoder(max_line=max_line), LineDecoder(max_line=max_line)
    got = [e for piece in pieces for e in fast.feed(piece)]
    want = [e for piece in pieces for e in slow(reference, piece)]
    assert got == want
    assert fast.pending_bytes == reference.pending_bytes
    assert fast.in_overlong_line == reference.in_overlong_line
    assert fast.holds_partial == bool(reference.pending_bytes or reference.in_overlong_line)


def test_a_line_too_long_is_reported_once_and_the_next_line_is_read() -> None:
    decoder = LineDecoder(max_line=10)
    events = decoder.feed(b"x" * 8) + decoder.feed(b"y" * 8) + decoder.feed(b"zz\nok\n")
    assert events == [BadLine("line-too-long", "lines are limited to 10 bytes"), Line("ok")]
