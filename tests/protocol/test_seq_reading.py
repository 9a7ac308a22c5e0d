"""A table call's ``seq=N`` is read by string operations (parse_line, s44) as the
pattern ``^(.*?)\\s+seq=([0-9]+)$`` read it (docs/protocol.md §7): any spaces
``str.isspace`` knows, ASCII digits only, the last ``seq=``, on one line. Checked here
on text of the pieces that could tell them apart, a number past SEQ_DIGITS aside
(no request number: tests/server/test_seq_long_number.py)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from deberc_net.protocol.commands import TableCallText, parse_line

PATTERN = re.compile(r"^(.*?)\s+seq=([0-9]+)$")
PIECES = st.sampled_from(
    ["seq=", "seq", "=", "SEQ=", "ｓeq=", " ", "\t", "\n", "\r", "\x0b", "\x85", "\xa0",
     "\u2028", "\u2029", "\u3000", "\x1c", "\u200b", "0", "7", "12", "٤", "𝟏", "²", "Kc",
     "pas", "a"]
)  # fmt: skip
TEXTS = st.one_of(
    st.text(max_size=30), st.lists(st.one_of(PIECES, st.text(max_size=2)), max_size=12).map("".join)
)


def by_the_pattern(text: str) -> tuple[str, int | None]:
    stripped = text.strip()
    match = PATTERN.match(stripped)
    return (match[1], int(match[2])) if match else (stripped, None)


@settings(max_examples=800, deadline=None)
@given(TEXTS)
def test_seq_is_read_as_the_pattern_read_it(text: str) -> None:
    read = parse_line(text)
    if isinstance(read, TableCallText):  # (a command's words are another matter)
        assert (read.text, read.seq) == by_the_pattern(text)


def test_the_cases_that_tell_readings_apart() -> None:
    for text, expected in [
        ("Kc seq=8", ("Kc", 8)),
        ("Kc\xa0\u3000seq=8", ("Kc", 8)),
        ("Kc seq=1 seq=2", ("Kc seq=1", 2)),
        ("Kc seq=1seq=2", ("Kc seq=1seq=2", None)),
        ("Kc seq=٤", ("Kc seq=٤", None)),
        ("seq=4", ("seq=4", None)),
        ("a\nb seq=3", ("a\nb seq=3", None)),  # (one line only: '.' is no line feed)
        ("a\n seq=3", ("a", 3)),
        ("a\u2028 seq=3", ("a", 3)),
        ("a\u2028b seq=3", ("a\u2028b", 3)),
        ("Kc seq=8 ", ("Kc", 8)),
    ]:
        assert by_the_pattern(text) == expected, text
        read = parse_line(text)
        assert isinstance(read, TableCallText)
        assert (read.text, read.seq) == expected, text
