"""Backspace and Delete in a line erase the character before them (docs/protocol.md
§2.2): a client that sends each key as typed sends a typo and its correction."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deberc_net.protocol.framing import BadLine, Line, LineDecoder


def _fed(data: bytes) -> list[Line | BadLine]:
    return LineDecoder().feed(data)


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"wh\x08\x08who\n", "who"),  # failed before: control-character
        (b"\x7fwho\n", "who"),  # nothing before it: nothing erased
        (b"say \xd0\xbf\xd0\xb0\xd1\x81\x7f\x7f\xd0\xb0\xd1\x81\r\n", "say пас"),  # a letter
        (b"pas\x08\x08\x08\x08\x08\n", None),  # all erased: a blank line, no reply
        (b"igrayu\x7f\x7f\x7f\x7f\x7f\x7f\tpas\n", "pas"),
    ],
)
def test_a_backspace_or_delete_erases_the_character_before_it(data: bytes, text: str) -> None:
    assert _fed(data) == [Line(text or "")]


def test_other_controls_still_refuse_the_line_erased_or_not() -> None:
    refused = BadLine("control-character", "control characters are not allowed")
    assert _fed(b"say a\x07b\n") == [refused]
    assert _fed(b"pas\x1b[A\x08\n") == [refused]  # the escape is still there
    assert _fed(b"pas\x1b\x08\n") == [Line("pas")]  # erased by the Backspace after it


@given(st.text(alphabet=st.sampled_from("ab\x08\x7f"), max_size=30))
def test_erasing_keeps_what_a_terminal_would_show(typed: str) -> None:
    shown: list[str] = []
    for ch in typed:
        if ch in "\x08\x7f":
            if shown:
                shown.pop()
        else:
            shown.append(ch)
    assert _fed(typed.encode() + b"\n") == [Line("".join(shown))]
