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


OPEN_BOX = "\u2423"  # '␣': what the human style marks a kept space with while wrapping


def test_a_typed_open_box_is_shown_as_typed_short_or_wrapped() -> None:
    # failed before: a '␣' the player typed read as a space, on a long line (the
    # wrapping's mark taken out) and then on a short one too
    short = ev.Said("ann", f"type {OPEN_BOX} for a space", table=None)
    assert render(short, HUMAN) == [f"ann says: type {OPEN_BOX} for a space"]
    # long, with words the wrapping keeps together ('(away: ...)', a trailing 'name 12')
    text = f"a{OPEN_BOX}b " + "word " * 14 + f"(away: x{OPEN_BOX}y) and the score is anna 12"
    for lines in (render(ev.Said("ann", text, table=2), HUMAN), render_ru(ev.Said("ann", text, 2))):
        assert len(lines) > 1 and all(columns(line) <= 80 for line in lines)
        joined = " ".join(line.removeprefix(CHAT_CONTINUED) for line in lines)
        assert f"a{OPEN_BOX}b" in joined and f"(away: x{OPEN_BOX}y)" in joined
        assert joined.endswith("anna 12") and joined.count(OPEN_BOX) == 2
    announced = ev.Announced("admin", f"{OPEN_BOX} " * 50)
    assert " ".join(render(announced, HUMAN)).count(OPEN_BOX) == 50


def test_a_typed_open_box_is_shown_as_typed_in_the_servers_own_lines() -> None:
    # failed before: an error quoting what was typed read 'no command 'a b'' (every
    # '␣' of every short line was taken for a kept space's mark)
    echoed = ev.Error("unknown-command", f"no command 'a{OPEN_BOX}b'")
    assert render(echoed, HUMAN) == [f"Error (unknown-command): no command 'a{OPEN_BOX}b'"]
    told = ev.Info(f"why: {OPEN_BOX}" + " word" * 30 + " anna 12")
    lines = render(told, HUMAN)
    assert len(lines) > 1 and all(columns(line) <= 80 for line in lines)
    assert lines[0].startswith(f"why: {OPEN_BOX} word") and lines[-1].endswith(" anna 12")
    assert "".join(lines).count(OPEN_BOX) == 1


INVISIBLE_PLUS = "\u2064"  # the wrapping's mark for a pair's break once; anyone may type it


def test_a_typed_invisible_plus_is_shown_as_typed_with_the_space_after_it() -> None:
    # failed before: chat, fit as the server's lines since the '␣' fix, lost a typed
    # U+2064 with the space after it ('a\u2064 b' read 'ab')
    said = ev.Said("anna", f"a{INVISIBLE_PLUS} b", table=None)
    assert render(said, HUMAN) == [f"anna says: a{INVISIBLE_PLUS} b"]
    assert render_ru(said) == [f"anna: a{INVISIBLE_PLUS} b"]
    wrapped = render(ev.Said("anna", f"a{INVISIBLE_PLUS} b" + " word" * 30, table=None), HUMAN)
    assert len(wrapped) > 1 and wrapped[0].startswith(f"anna says: a{INVISIBLE_PLUS} b word")
    echoed = ev.Error("unknown-command", f"no command 'a{INVISIBLE_PLUS} b'")
    assert render(echoed, HUMAN) == [f"Error (unknown-command): no command 'a{INVISIBLE_PLUS} b'"]
