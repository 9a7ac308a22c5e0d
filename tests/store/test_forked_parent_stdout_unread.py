"""The parent of ``serve --workers`` passes its workers' prints on to its stdout; a
reader of that stdout that stalls (``| less`` paused, a stuck log shipper) no longer
stops the parent: it keeps a bounded backlog, drops what does not fit, counted, and
says so once its stdout takes lines again (cluster/parent_out.py). Before, its write
blocked on the full pipe: it restarted no dead worker, and the printing worker hung on
its own full pipe, its players with it."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest
import structlog
import trio

from deberc_net.server.cluster.parent_out import Backlog

from .served_to import plugin_on_the_path, restarted
from .workers import SETTINGS, served_workers, settings_file

# the parent's backlog (the setting output_backlog_bytes): a smaller one than the 4 MiB
# default fills as one does, with a third of the prints (6 MB of them, at each table a
# worker knew of, were half the test's time)
BACKLOG = 256 << 10
LINES = 20
WIDTH = 100_000  # LINES of it: more than the parent's stdout pipe and its backlog hold
LOUD = """
import os
from deberc_net.plugins import RuleInfo, hookimpl

printed = 0

@hookimpl
def deberc_rule_info():
    return RuleInfo(name="loud", kind="option", summary="Prints a lot as a table takes it.")

@hookimpl
def deberc_configure(settings, players):
    global printed
    with open(COUNT, "a") as count:  # (each worker, as it knows of a table, prints)
        count.write(f"{LINES}\\n")
    for i in range(LINES):
        print(f"loud {os.getpid()} {printed:03} " + "x" * WIDTH)
        printed += 1
"""


async def _read_all(fd: int, into: bytearray) -> None:
    async with trio.lowlevel.FdStream(fd) as stream:
        while chunk := await stream.receive_some():
            into += chunk


@pytest.mark.timeout(150)
async def test_a_stalled_stdout_drops_counted_lines_and_the_parent_still_restarts_workers(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert LINES * WIDTH > BACKLOG + (1 << 20)
    count = tmp_path / "printed"
    source = LOUD.replace("LINES", str(LINES)).replace("WIDTH", str(WIDTH))
    plugin_on_the_path(tmp_path, monkeypatch, "loud", source.replace("COUNT", repr(str(count))))
    settings = settings_file(
        tmp_path,
        SETTINGS.replace("house_bots = true", "house_bots = false")
        + f"output_backlog_bytes = {BACKLOG}\n",
    )
    read_end, write_end = os.pipe()
    out = bytearray()
    with trio.fail_after(110):
        async with (
            trio.open_nursery() as nursery,
            served_workers(postgres_url, settings, stdout=write_end) as workers,
        ):
            os.close(write_end)  # (the server's own now)
            client = await workers.connect(0, "loud0")
            await client.send("new 2 loud")
            # the worker printed it all and was not stopped by it (its pipe read on)
            await client.expect("ok", cmd="sit", timeout=20)
            await client.aclose()
            # nobody reads the parent's stdout: it still restarts a killed worker
            await restarted(workers, 1, signal.SIGKILL)
            nursery.start_soon(_read_all, read_end, out)  # the reader is back
            with trio.fail_after(20):
                while not any(e.get("event") == "output_dropped" for e in workers.events):
                    await trio.sleep(0.05)
    text = out.decode()
    notes = re.findall(
        r"^deberc-net serve: (\d+) line\(s\) of the workers' output dropped", text, re.M
    )
    assert len(notes) == 1, notes
    written = re.findall(r"^loud (\d+) (\d{3}) x+$", text, re.M)
    # each line whole, each worker's in the order printed, the dropped ones counted
    assert written and len(written) == text.count("\n") - 1
    for pid in {pid for pid, _ in written}:
        numbers = [int(number) for who, number in written if who == pid]
        assert numbers == sorted(set(numbers)), numbers
    # what came before the note is what the backlog (the setting's, not the default's)
    # and the pipe held: the pipe's 1 MiB at most
    before = text.split("deberc-net serve: ")[0]
    assert before.count("\n") <= (BACKLOG + (1 << 20)) // WIDTH + 1, before.count("\n")
    printed = sum(map(int, count.read_text().split()))
    assert len(written) + int(notes[0]) <= printed
    logged = [e for e in workers.events if e.get("event") == "output_dropped"]
    assert [e["lines"] for e in logged] == [int(notes[0])]


@pytest.mark.timeout(30)
def test_a_backlog_never_waits_on_a_full_pipe_and_notes_its_drops_once_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read_end, write_end = os.pipe()
    with (
        open(write_end, "w", closefd=True) as out,
        open(read_end, "rb", buffering=0) as reader,
        structlog.testing.capture_logs() as logged,
    ):
        monkeypatch.setattr("sys.stdout", out)
        backlog = Backlog(limit=200_000)
        for i in range(100):  # ~1 MB into a 64 KiB pipe and a 200 KB backlog: no wait
            backlog.put(f"{i:03} {'y' * 10_000}\n".encode())
        assert backlog.dropped > 0 and backlog.size <= 200_000
        got = b""
        while backlog.lines:  # read: it writes on, and the note once half is written
            got += reader.read(1 << 20)
            backlog.pump()
        os.set_blocking(read_end, False)
        while chunk := reader.read(1 << 20):  # (what the pipe holds: None once empty)
            got += chunk
    lines = got.decode().splitlines()
    notes = [line for line in lines if "dropped here" in line]
    assert len(notes) == 1
    dropped = int(notes[0].split()[2])
    kept = [line[:3] for line in lines if re.fullmatch(r"\d{3} y+", line)]
    assert kept == [f"{i:03}" for i in range(len(kept))] and len(kept) + dropped == 100
    assert [(e["event"], e["lines"]) for e in logged] == [("output_dropped", dropped)]
