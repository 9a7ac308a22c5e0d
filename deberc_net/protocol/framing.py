"""Bytes in, lines out: bounded, telnet-aware, UTF-8 line framing (sans-IO).

A client may send LF or CRLF. Telnet option negotiation (IAC sequences) is removed
before anything else sees the bytes, and NUL bytes are dropped; how many bytes were
dropped so is counted (``dropped``: the connection counts them toward its flood limit).
Every option a client offers or asks for is refused (``answers``: IAC DONT for its
WILL, IAC WONT for its DO): a real telnet's Ctrl-C asks DO TIMING-MARK and shows
nothing the server sends until it is answered.
A line longer than the limit is dropped whole, reported once and its bytes counted
(``overlong``: the connection counts a line's worth of them as a line); invalid UTF-8
and control characters are reported, never executed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import attrs

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
MAX_LINE = 1024
# a run of what is dropped whole, found at C speed: two-byte telnet commands (NOP, GA,
# a stray SE, ...: 240-249), three-byte negotiation (WILL/WONT/DO/DONT and its option),
# NULs; not IAC IAC (a data byte), IAC SB (a subnegotiation: the state machine's), nor
# IAC before a byte no telnet command is (the state machine keeps both as data)
_DROPPED_RUN = re.compile(rb"(?:\xff[\xf0-\xf9]|\x00|\xff[\xfb-\xfe][\x00-\xff])++")
FIRST_COMMAND = 240  # SE, the lowest telnet command: IAC before a lower byte is no telnet
# the requests to turn an option on (IAC DO x, IAC WILL x) in a dropped run, runs of them
# found whole: its units are whole, so IAC DO or IAC WILL found here starts one (an
# option byte 255 is followed by IAC or NUL, never by DO or WILL)
_ASKED = re.compile(rb"(?:\xff[\xfb\xfd][\x00-\xff])++")
REFUSAL = {DO: WONT, WILL: DONT}  # the answer to each: the option stays off
_REFUSED = bytes(REFUSAL.get(byte, byte) for byte in range(256))  # (bytes.translate's)


@attrs.frozen
class Line:
    text: str


@attrs.frozen
class BadLine:
    code: str  # "line-too-long", "bad-encoding", "control-character"
    text: str


Event = Line | BadLine


@attrs.define
class LineDecoder:
    """Feed it bytes; it returns the complete lines (or errors) found so far."""

    max_line: int = MAX_LINE
    _buf: bytearray = attrs.field(factory=bytearray)
    _iac: int = 0  # 0 none, 1 after IAC, 2 after IAC+verb, 3 in subnegotiation, 4 IAC in SB
    _overflow: bool = False
    _sb_bytes: int = 0  # length of the telnet subnegotiation being skipped
    # bytes dropped (telnet commands and negotiation, NULs) and not yet taken
    # (``take_dropped``); a read without IAC or NUL never touches it
    dropped: int = 0
    # bytes of lines past the limit, dropped, not yet taken (``take_overlong``)
    overlong: int = 0
    # telnet refusals owed the client (IAC WONT x for its DO x, IAC DONT x for its WILL
    # x), not yet taken (``take_answers``); filled only where telnet is stripped
    answers: bytes = b""
    _refusal: int = 0  # after IAC DO or IAC WILL cut off by a read's end: WONT or DONT

    @property
    def pending_bytes(self) -> int:
        """Bytes of an unfinished line held (a client that never ends a line), or of a
        telnet subnegotiation that never ends."""
        return len(self._buf) + (self._sb_bytes if self._iac >= 3 else 0)

    @property
    def in_overlong_line(self) -> bool:
        return self._overflow

    @property
    def holds_partial(self) -> bool:
        """Whether anything unfinished is held: ``pending_bytes or in_overlong_line``
        in one test (a connection asks after every read)."""
        return bool(self._buf) or self._overflow or (self._iac >= 3 and self._sb_bytes > 0)

    def feed(self, data: bytes | bytearray) -> list[Event]:
        if self._iac == 0 and IAC not in data and 0 not in data:
            if (
                not self._buf
                and not self._overflow
                and data.endswith(b"\n")
                and data.find(b"\n") == len(data) - 1
                and len(data) <= self.max_line + 1
            ):  # one whole line, nothing before it: a bot's call (most reads)
                return [self._decoded(data[:-1])]
            return self._feed_plain(data)
        kept = self._strip_telnet(data)
        if 0 in kept:  # telnet sends CR NUL for a bare CR
            kept = kept.translate(None, b"\x00")  # (C speed: replace is not)
        self.dropped += len(data) - len(kept)
        return self._feed_plain(kept)

    def take_dropped(self, unit: int) -> int:
        """How many whole ``unit``s of bytes were dropped since the last take (the rest
        is kept for the next)."""
        units, self.dropped = divmod(self.dropped, unit)
        return units

    def take_answers(self) -> bytes:
        """The telnet refusals owed since the last take, to send to the client."""
        answers, self.answers = self.answers, b""
        return answers

    def take_overlong(self) -> int:
        """How many lines' worth (``max_line`` bytes) of overlong lines were dropped since
        the last take (the rest is kept for the next)."""
        lines, self.overlong = divmod(self.overlong, self.max_line)
        return lines

    def whole_line(self, data: bytes | bytearray) -> str | None:
        """The text of ``data`` if it is one whole good line with nothing held before it
        (a bot's call: most reads), as ``feed`` would give it in a ``Line``; else None,
        and nothing done (``feed`` it). One call instead of ``feed``'s three and the
        ``Line``, for the connection's ``receive_call``."""
        if (
            self._buf
            or self._iac
            or self._overflow
            or not data.endswith(b"\n")
            or data.find(b"\n") != len(data) - 1
            or len(data) > self.max_line + 1
            or IAC in data
            or 0 in data
        ):
            return None
        try:  # (``_decoded``'s good line, written out)
            text = data[:-1].removesuffix(b"\r").decode("utf-8")
        except UnicodeDecodeError:
            return None
        text = text.removeprefix("\ufeff")
        if not text.isprintable():  # a tab, or a control character: ``feed`` tells
            return None
        return text.strip()

    def _feed_plain(self, data: bytes | bytearray) -> list[Event]:
        """No telnet and no NUL in ``data`` (what every bot sends, and what is left of a
        read once they are dropped): split it on LF at C speed."""
        out: list[Event] = []
        start = 0
        end = len(data)
        while start < end:
            newline = data.find(b"\n", start)
            stop = end if newline < 0 else newline
            if self._overflow:  # an overlong line's rest, dropped: counted (flood)
                self.overlong += stop - start
            else:
                room = self.max_line - len(self._buf)
                if stop - start > room:  # the line passes the limit within this piece
                    # (dropped whole, and counted: an endless line, of CRs or of any
                    # byte, was read at a core's speed for its 30 s: a hostile tryout)
                    self.overlong += len(self._buf) + stop - start
                    self._buf.clear()
                    self._overflow = True
                    out.append(
                        BadLine("line-too-long", f"lines are limited to {self.max_line} bytes")
                    )
                else:
                    self._buf += data[start:stop]
            if newline < 0:
                break
            out.extend(self._end_line())
            start = newline + 1
        return out

    def _end_line(self) -> list[Event]:
        if self._overflow:
            self._overflow = False
            return []
        raw = bytes(self._buf)
        self._buf.clear()
        return [self._decoded(raw)]

    @staticmethod
    def _decoded(raw: bytes | bytearray) -> Event:
        """A whole line's bytes (its LF taken off) as the line, or why it is none."""
        raw = raw.removesuffix(b"\r")  # one CR: a second is a control character
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return BadLine("bad-encoding", "lines must be UTF-8")
        text = text.removeprefix("\ufeff")  # a byte-order mark some editors put first
        # printable text has no control character: one C-speed test for most lines
        if not text.isprintable():
            if "\b" in text or "\x7f" in text:  # a typo corrected, key by key
                text = _erased(text)
            if any(_is_control(ch) for ch in text):
                return BadLine("control-character", "control characters are not allowed")
        return Line(text.replace("\t", " ").strip())

    def _refuse(self, data: bytes | bytearray, start: int, end: int) -> None:
        """The refusals of the DOs and WILLs in the dropped run ``data[start:end]``, in
        their order: each run of them copied and its verbs swapped at C speed."""
        for asked in _ASKED.finditer(data, start, end):
            found = asked.group()
            refused = bytearray(found)
            refused[1::3] = found[1::3].translate(_REFUSED)
            self.answers += refused

    def _strip_telnet(self, data: bytes | bytearray) -> bytearray:
        """``data`` without its telnet commands (IAC IAC kept as one 255): runs of data
        bytes and of dropped commands (and NULs) are each passed over at C speed; only
        IAC IAC, a subnegotiation's start and a sequence cut by the read's end go
        through the state machine, byte by byte."""
        kept = bytearray()
        pos, end = 0, len(data)
        while pos < end:
            state = self._iac
            if state == 0:
                iac = data.find(IAC, pos)
                if iac < 0:
                    kept += data[pos:]
                    break
                kept += data[pos:iac]
                run = _DROPPED_RUN.match(data, iac)
                if run is not None:
                    pos = run.end()
                    # a DO or WILL byte in it (memchr: a NOP run pays next to nothing;
                    # an option byte that is one costs a look, which finds no request)
                    if data.find(DO, iac, pos) >= 0 or data.find(WILL, iac, pos) >= 0:
                        self._refuse(data, iac, pos)
                    continue
                self._iac, pos = 1, iac + 1  # IAC IAC, IAC SB, or cut off by the end
                continue
            if state == 3:  # in a subnegotiation: on to its next IAC, within the limit
                iac = data.find(IAC, pos)
                stop = end if iac < 0 else iac
                room = max(self.max_line - self._sb_bytes, 0)
                if stop - pos > room:  # nobody negotiates that much: stop
                    self._iac, self._sb_bytes, pos = 0, 0, pos + room + 1
                    continue
                self._sb_bytes += stop - pos
                if iac < 0:
                    break
                self._iac, self._sb_bytes, pos = 4, self._sb_bytes + 1, iac + 1
                continue
            byte = data[pos]
            pos += 1
            if state == 1:
                if byte == IAC:  # an escaped 255 data byte
                    kept.append(byte)
                    self._iac = 0
                elif byte in (DO, DONT, WILL, WONT):
                    self._iac, self._refusal = 2, REFUSAL.get(byte, 0)
                elif byte == SB:
                    self._iac, self._sb_bytes = 3, 0
                elif byte < FIRST_COMMAND:  # no telnet (a raw ÿ, Latin-1's 255): data, so
                    # its line fails as bad-encoding and an LF after it still ends it (it
                    # vanished with the IAC: 'say ÿ' and the next line were one line)
                    kept += bytes((IAC, byte))
                    self._iac = 0
                else:
                    self._iac = 0  # a two-byte command (NOP, GA, ...)
            elif state == 2:
                self._iac = 0  # the option byte
                if self._refusal:
                    self.answers += bytes((IAC, self._refusal, byte))
            else:  # IAC inside subnegotiation
                self._iac = 0 if byte == SE else 3
        return kept


ERASERS = frozenset("\b\x7f")


def _erased(text: str) -> str:
    """``text`` with each Backspace (BS, 8) or Delete (DEL, 127) applied: it erases the
    character before it, as a terminal's line editing does. A client that sends each
    key as it is typed (Windows' telnet, a terminal in raw mode) sends a typo and its
    correction: 'wh', two Backspaces, 'who' is 'who', not a refused line."""
    kept: list[str] = []
    for ch in text:
        if ch not in ERASERS:
            kept.append(ch)
        elif kept:
            kept.pop()
    return "".join(kept)


def _is_control(ch: str) -> bool:
    """C0 and C1 controls and Unicode line or paragraph separators: anything that could
    end a line or drive a terminal when echoed to others (a tab is allowed)."""
    if ch == "\t":
        return False
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp")


def encode_line(text: str) -> bytes:
    """Server lines always end with CRLF (telnet and netcat both show them right)."""
    return text.encode("utf-8") + b"\r\n"


def encode_lines(lines: Sequence[str]) -> bytes:
    """Lines as ``encode_line`` writes each, joined."""
    if len(lines) == 1:
        return lines[0].encode("utf-8") + b"\r\n"
    return "".join([f"{text}\r\n" for text in lines]).encode("utf-8")
