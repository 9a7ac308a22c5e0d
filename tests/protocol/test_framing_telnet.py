"""Telnet commands and NULs in the line decoder: dropped as the byte-by-byte state
machine of docs/protocol.md §2.2 drops them, however the reads cut them, and counted
(``dropped``: the connection counts them toward its flood limit); every DO and WILL
answered with a refusal (``answers``), in order, however the reads cut it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deberc_net.protocol.framing import MAX_LINE, BadLine, Event, Line, LineDecoder
from tests.properties import examples

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240


class Reference:
    """The decoder as docs/protocol.md §2.2 says it, one byte at a time: telnet
    commands, then NULs, dropped; then lines split on LF (what the decoder must give)."""

    def __init__(self, max_line: int) -> None:
        self.max_line = max_line
        self.iac = 0
        self.sb_bytes = 0
        self.line = bytearray()
        self.overflow = False
        self.dropped = 0
        self.answers = bytearray()  # WONT x for each DO x, DONT x for each WILL x
        self.refusal = 0
        self.ref = LineDecoder(max_line=max_line)  # for a whole line's decoding only

    def feed(self, data: bytes) -> list[Event]:
        out: list[Event] = []
        for byte in data:
            telnet = self.telnet(byte)
            if telnet is None:  # the IAC before it was no telnet: data after all
                self.dropped -= 1
                out.extend(self.data(IAC))
            if telnet or byte == 0:
                self.dropped += 1
            else:
                out.extend(self.data(byte))
        return out

    def data(self, byte: int) -> list[Event]:
        """A data byte, NULs dropped already: an LF ends the line."""
        out: list[Event] = []
        if byte == 10:
            if not self.overflow:
                escaped = bytes(self.line).replace(b"\xff", b"\xff\xff")  # data: kept
                out.extend(self.ref.feed(escaped + b"\n"))
            self.line.clear()
            self.overflow = False
        elif not self.overflow:
            self.line.append(byte)
            if len(self.line) > self.max_line:
                self.line.clear()
                self.overflow = True
                out.append(BadLine("line-too-long", f"lines are limited to {self.max_line} bytes"))
        return out

    def telnet(self, byte: int) -> bool | None:
        """Whether ``byte`` is telnet's (dropped); an escaped 255 is a data byte. None:
        the IAC before it is no telnet (``byte`` is below 240, no command): both are
        data."""
        state = self.iac
        if state == 0:
            if byte != IAC:
                return False
            self.iac = 1
        elif state == 1:
            if byte == IAC:
                self.iac = 0  # the escape: its first IAC was dropped, this is data
                return False
            if byte in (DO, DONT, WILL, WONT):
                self.iac, self.refusal = 2, {DO: WONT, WILL: DONT}.get(byte, 0)
            elif byte == SB:
                self.iac, self.sb_bytes = 3, 0
            elif byte < SE:
                self.iac = 0
                return None
            else:
                self.iac = 0
        elif state == 2:
            self.iac = 0
            if self.refusal:  # (a WONT or DONT is not answered: the option is off)
                self.answers += bytes((IAC, self.refusal, byte))
        elif state == 3:
            self.sb_bytes += 1
            if byte == IAC:
                self.iac = 4
            elif self.sb_bytes > self.max_line:
                self.iac, self.sb_bytes = 0, 0
        else:
            self.iac = 0 if byte == SE else 3
        return True


# telnet-heavy input: commands, negotiation, subnegotiations (some never ended), IAC IAC,
# NULs, CR NUL, among text and LFs
TELNET = st.lists(
    st.sampled_from(
        [
            b"\xff",
            b"\xff\xf1",
            b"\xff\xff",
            b"\xff\xfb\x01",
            b"\xff\xfd",
            b"\xff\xfd\x06",  # DO TIMING-MARK: telnet's Ctrl-C, after IAC IP
            b"\xff\xfd\x00\xff\xfb\x00",  # DO and WILL BINARY: an option byte 0, no NUL
            b"\xff\xf4",
            b"\xff\xfb",
            b"\xff\xfc\x22",
            b"\xff\xfe",
            b"\xff\xfd\xff",  # option 255 (EXOPL): an IAC, as an option byte
            b"\xff\xfc\xff",
            b"\xff\xfa\x18\x01",
            b"\xff\xf0",
            b"\xff\n",  # no telnet: a raw 255, then the line's end
            b"\xff\x00",
            b"\xffa",
            b"\xff\xfa" + b"z" * 20,
            b"\x00",
            b"\r\x00",
            b"\n",
            b"ok",
            b"who\n",
            b"y" * 30,
            b"\xc3\x28",
        ]
    ),
    max_size=40,
).map(b"".join)


@examples(300)
@given(TELNET, st.lists(st.integers(min_value=1, max_value=40), max_size=10), st.integers(4, 64))
def test_telnet_and_nuls_are_dropped_as_the_byte_by_byte_rules_say(
    data: bytes, cuts: list[int], max_line: int
) -> None:
    decoder, reference = LineDecoder(max_line=max_line), Reference(max_line)
    want = reference.feed(data)
    got: list[Event] = []
    answers = b""
    start = 0
    for cut in [*cuts, len(data)]:  # the same bytes, cut into reads anywhere
        got += decoder.feed(data[start : start + cut])
        answers += decoder.take_answers() if cut % 2 else b""  # taken now and then
        start += cut
    got += decoder.feed(data[start:])
    assert got == want
    assert decoder.dropped == reference.dropped
    assert answers + decoder.take_answers() == reference.answers
    assert decoder.holds_partial == bool(
        reference.line or reference.overflow or (reference.iac >= 3 and reference.sb_bytes)
    )


def test_a_long_run_of_telnet_commands_and_nuls_is_dropped_and_counted() -> None:
    decoder = LineDecoder()
    flood = b"\xff\xf1" * 5000 + b"\x00" * 5000 + b"\xff\xf1\x00" * 2000
    assert decoder.feed(flood) == []
    assert decoder.dropped == len(flood)
    assert not decoder.holds_partial  # nothing waits as a line: the line timeout never runs
    assert decoder.take_dropped(64) == len(flood) // 64
    assert decoder.dropped == len(flood) % 64
    assert decoder.feed(b"\xff\xfb\x01who\r\x00\n") == [Line("who")]


def test_an_endless_subnegotiation_is_given_up_at_the_line_limit() -> None:
    decoder = LineDecoder(max_line=MAX_LINE)
    assert decoder.feed(b"\xff\xfa" + b"z" * MAX_LINE) == []
    assert decoder.pending_bytes == MAX_LINE  # held as a subnegotiation: it may time out
    assert decoder.feed(b"zok\n") == [Line("ok")]  # past the limit: text again


# what a real telnet client sends (inetutils telnet 2.4, captured 2026-12-07): at the
# start to a telnet port (`open HOST -PORT`; to a numeric port it negotiates nothing),
# and on Ctrl-C: IAC IP, then IAC DO TIMING-MARK, after which it shows nothing the
# server sends until that is answered
TELNET_START = (
    b"\xff\xfd&\xff\xfb&\xff\xfd\x03\xff\xfb\x18\xff\xfb\x1f\xff\xfb \xff\xfb!"
    b"\xff\xfb\"\xff\xfb'\xff\xfd\x05"
)
TELNET_CTRL_C = b"\xff\xf4\xff\xfd\x06"


def test_a_real_telnet_s_options_are_each_refused_and_its_ctrl_c_s_timing_mark_answered() -> None:
    decoder = LineDecoder()
    assert decoder.feed(TELNET_START + b"login misha\r\n") == [Line("login misha")]
    assert decoder.take_answers() == (  # WONT for each DO, DONT for each WILL
        b"\xff\xfc&\xff\xfe&\xff\xfc\x03\xff\xfe\x18\xff\xfe\x1f\xff\xfe \xff\xfe!"
        b"\xff\xfe\"\xff\xfe'\xff\xfc\x05"
    )
    assert decoder.take_answers() == b""  # taken once
    assert decoder.feed(TELNET_CTRL_C) == []
    assert decoder.take_answers() == b"\xff\xfc\x06"  # WONT TIMING-MARK: shown again
    # its refusals confirmed (WONT, DONT) and a subnegotiation get none: no loop
    assert decoder.feed(b"\xff\xfc\x03\xff\xfe\x18\xff\xfa\x18\x00vt100\xff\xf0who\n") == [
        Line("who")
    ]
    assert decoder.take_answers() == b""


def test_a_request_cut_by_a_read_is_answered_whole_once_its_option_comes() -> None:
    decoder = LineDecoder()
    assert decoder.feed(b"say hel\xff\xfd") == []
    assert decoder.take_answers() == b""  # no half answer
    assert decoder.feed(b"\x01lo\xff\xfb") == []
    assert decoder.take_answers() == b"\xff\xfc\x01"
    assert decoder.feed(b"\x1f\n") == [Line("say hello")]  # the line joined round both
    assert decoder.take_answers() == b"\xff\xfe\x1f"
