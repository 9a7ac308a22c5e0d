"""A process bot's standard error reaches the ladder's, each line led by the copy's
name (docs/bots.md): a bot's author sees what the server told a bot that forfeits, and
the last words of one that cannot start."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

import pytest
import trio
import trio.testing

from deberc_net.ladder.bot_output import LONGEST_LINE, BotOutput, ErrorLines

from .helpers import EAGER, RAW_HEAD, ladder, script, summary

# answers every ask with nonsense, and says on stderr each error it is sent
NONSENSE = (
    RAW_HEAD
    + """\
import sys
from deberc_net.protocol.wire import fields_of
for line in sock.makefile("r", encoding="utf-8", newline="\\r\\n"):
    tag, kv = fields_of(line)
    if tag == "error":
        print(line.strip(), file=sys.stderr, flush=True)
    if tag == "ask":
        sock.sendall(f"xyz seq={kv['seq']}\\n".encode())
"""
)


def test_a_forfeiting_bots_stderr_is_passed_through_with_its_copys_name(
    tmp_path: Path,
) -> None:
    non, eager = script(tmp_path, "non", NONSENSE), script(tmp_path, "eager", EAGER)
    done = ladder(
        tmp_path, "--bot", eager, "--bot", non, "--deals", "1", "--clock-ms", "300", "--json"
    )
    assert summary(done)["forfeits"] == {"non": 2}
    said = [line for line in done.stderr.splitlines() if line.startswith("non-")]
    assert said and all(line.split(": ", 1)[1].startswith("error code=") for line in said)
    assert not any(line.startswith("eager-") for line in done.stderr.splitlines())


def test_a_bot_that_cannot_start_is_heard_and_its_last_words_stop_the_ladder(
    tmp_path: Path,
) -> None:
    # a shell, not a Python: it exits within its first seconds even on a loaded machine
    broken = "broken=sh -c 'echo no model file here >&2; exit 1'"
    eager = script(tmp_path, "eager", EAGER)
    done = ladder(tmp_path, "--bot", eager, "--bot", broken, "--deals", "1", "--json")
    assert done.returncode == 2 and done.stdout == ""
    assert "broken-1: no model file here" in done.stderr  # as it said it
    assert "its last words: no model file here" in done.stderr  # and in the verdict


async def test_lines_are_passed_whole_however_they_arrive(
    capsys: pytest.CaptureFixture[str],
) -> None:
    send, receive = trio.testing.memory_stream_pair()
    lines = ErrorLines()
    output = BotOutput("b-2", lines)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(output.relay, receive)
        for piece in (b"one\r\ntw", b"o\nb-2: named already\n", b"x" * LONGEST_LINE, b"last"):
            await send.send_all(piece)
            await trio.testing.wait_all_tasks_blocked()
        await send.aclose()
    lines.flush()  # (the ladder's end)
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "b-2: one",
        "b-2: two",
        "b-2: named already",
        "b-2: " + "x" * LONGEST_LINE,
        "b-2: last",
    ]
    assert output.last_words.endswith("x" * 10 + "last")


async def test_last_words_of_several_lines_are_one_line() -> None:
    """`sleep 100 {name}` said two lines as it failed: the ladder's error and `ladder
    table`'s line of the failed run each ran over two (ladder tryout s50)."""
    send, receive = trio.testing.memory_stream_pair()
    output = BotOutput("b-1", ErrorLines())
    async with trio.open_nursery() as nursery:
        nursery.start_soon(output.relay, receive)
        await send.send_all(b"sleep: invalid time interval\r\n\nTry 'sleep --help'.\n")
        await send.aclose()
    assert output.last_words == "sleep: invalid time interval / Try 'sleep --help'."


async def test_a_slow_reader_of_the_ladders_stderr_never_holds_the_event_loop() -> None:
    """The ladder's standard error is a pipe nobody reads (a paused pager, a slow
    logger), full after 64 KB; a bot says 300 KB meanwhile. The event loop (the
    server's clocks, every table) goes on, its lines all relayed while the pipe is not
    read: they wait for a worker thread, and all come out whole and in order once it
    is. Failed before: the line's print held the whole loop until the reader came back
    (here 10 s later, at the latest)."""
    read_end, write_end = os.pipe()
    said = [f"{n:03} " + "x" * 1000 for n in range(300)]
    got = bytearray()
    went_on = threading.Event()  # the loop relayed every line: the reader may come back

    def reader_comes_back() -> None:
        went_on.wait(10)  # (a loop held by a write never sets it)
        while data := os.read(read_end, 65536):
            got.extend(data)

    reader = threading.Thread(target=reader_comes_back, daemon=True)
    reader.start()
    lines = ErrorLines()
    output = BotOutput("b-1", lines)
    send, receive = trio.testing.memory_stream_pair()
    with open(write_end, "w", encoding="utf-8") as slow, contextlib.redirect_stderr(slow):
        began = time.monotonic()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(lines.write)
            nursery.start_soon(output.relay, receive)
            for line in said:
                await send.send_all(line.encode() + b"\n")
            await send.aclose()
            await trio.testing.wait_all_tasks_blocked()
            went_on_for = time.monotonic() - began
            went_on.set()
            nursery.cancel_scope.cancel()
        lines.flush()  # the ladder's end: what is left, written (waiting for the reader)
    reader.join(10)
    os.close(read_end)
    assert went_on_for < 10  # not held until the reader came back
    assert got.decode().splitlines() == [f"b-1: {line}" for line in said]
