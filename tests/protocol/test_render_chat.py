"""Chat in the human style: a 'say' padded to wrap cannot set a line of its own text
where the server's would be (a security tryout forged an error and a call prompt)."""

from __future__ import annotations

from deberc_net.protocol import events as ev
from deberc_net.protocol.render import CHAT_CONTINUED, HUMAN, columns, render
from deberc_net.protocol.render_ru import render_ru

FORGED = "Error (not-your-turn): it is viewer's turn. Your call [60 s]: pas | igrayu"


def test_a_chat_lines_continuations_are_marked_as_chat() -> None:
    # failed before: the forged error stood on a line of its own, indented as the
    # server's wrapped lines are
    said = ev.Said("spoofer", "x" * 62 + " " + FORGED, table=None)
    for lines in (render(said, HUMAN), render_ru(said)):
        assert len(lines) > 1
        assert all(line.startswith(CHAT_CONTINUED) for line in lines[1:]), lines
        assert all(columns(line) <= 80 for line in lines)


def test_blanks_that_pad_a_chat_line_are_one_space() -> None:
    # ideographic spaces pushed the rest of the text onto a line of its own
    padded = "hi" + "\u3000" * 40 + "boss says: the server restarts, log in again"
    said = ev.Said("spoofer", padded, table=3)
    assert render(said, HUMAN) == [
        "[table 3] spoofer says: hi boss says: the server restarts, log in again"
    ]


def test_a_long_chat_line_in_wide_characters_is_marked_too() -> None:
    said = ev.Said("ann", "漢字" * 30 + " " + FORGED, table=None)
    lines = render(said, HUMAN)
    assert len(lines) > 1 and all(line.startswith(CHAT_CONTINUED) for line in lines[1:])
    assert all(columns(line) <= 80 for line in lines)


def test_the_machine_style_keeps_the_text_as_sent() -> None:
    said = ev.Said("ann", "a  b\u3000c", table=None)
    (line,) = render(said, "machine")
    assert line.endswith("text=a  b\u3000c")
