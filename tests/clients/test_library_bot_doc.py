"""docs/bots.md's library bot, the example a bot author copies, run as it stands
against a real server that then stops: it ends with one line on standard error and
status 2 (tryout 18, finding 8: a 30-line traceback; only the reference bots' entry
point said it in one line). And against an opponent who gives the match up: it says so
in one line and seeks again (it waited in silence, as if hung)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import trio

from tests.server.conftest import Connector, make_config, running_server

ROOT = Path(__file__).resolve().parents[2]


def library_example() -> str:
    """The first Python block of the page's "The Python client library" section."""
    doc = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = doc.split("## The Python client library", 1)[1]
    return section.split("```python", 1)[1].split("```", 1)[0]


@pytest.mark.timeout(90)
async def test_the_docs_library_bot_ends_in_one_line_when_the_server_goes(
    db_path: Path, connect: Connector, tmp_path: Path
) -> None:
    example = library_example()
    assert "port=7501" in example and 'name="mybot"' in example, example
    async with trio.open_nursery() as nursery:
        async with running_server(make_config(db_path)) as port:
            script = tmp_path / "mybot.py"
            script.write_text(example.replace("port=7501", f"port={port}"), encoding="utf-8")
            done: list[subprocess.CompletedProcess[bytes]] = []

            async def bot() -> None:
                done.append(
                    await trio.run_process(
                        [sys.executable, str(script)],
                        cwd=ROOT,
                        capture_stdout=True,
                        capture_stderr=True,
                        check=False,
                    )
                )

            nursery.start_soon(bot)
            watcher = await connect.machine(port, "watcher")
            with trio.fail_after(30):  # the bot logged in and waits for a game
                while True:
                    await watcher.send("who")
                    if "mybot" in (await watcher.expect("who"))["names"].split(","):
                        break
                    await trio.sleep(0.1)
            await watcher.aclose()
        # the server is gone: the bot tries its reconnects (some 5 s), then ends
        with trio.fail_after(60):
            while not done:
                await trio.sleep(0.1)
    err = done[0].stderr.decode()
    assert done[0].returncode == 2 and err.count("\n") == 1, err
    assert err.startswith(f"mybot: connection to 127.0.0.1:{port} lost: "), err
    assert "Traceback" not in err and done[0].stdout == b""


@pytest.mark.timeout(90)
async def test_the_docs_library_bot_says_a_match_given_up_and_seeks_again(
    db_path: Path, connect: Connector, tmp_path: Path
) -> None:
    async with running_server(make_config(db_path)) as port:
        script = tmp_path / "mybot.py"
        script.write_text(library_example().replace("port=7501", f"port={port}"), "utf-8")
        bot = await trio.lowlevel.open_process(
            [sys.executable, str(script)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            said = bytearray()

            async def next_line() -> str:
                assert bot.stderr is not None
                with trio.fail_after(30):
                    while b"\n" not in said:
                        said.extend(await bot.stderr.receive_some(4096))
                line, _, rest = bytes(said).partition(b"\n")
                said[:] = rest
                return line.decode()

            quitter = await connect.machine(port, "quitter")
            await quitter.send("seek 2")
            sat = await quitter.expect("ok", cmd="sit", timeout=30)
            start = await quitter.expect("event", kind="start")
            await quitter.send("leave!")  # the first deal not over: a match given up
            table, match = sat["table"], start["match"]
            assert await next_line() == (
                f"mybot: match {match} at table {table} ended: a player left the table: "
                "forfeit; seeking again ('seek 2')"
            )
            # it did seek again: the next seeker sits with it
            other = await connect.machine(port, "other")
            await other.send("seek 2")
            seated = await other.expect("ok", cmd="sit", timeout=30)
            assert "mybot" in seated["seats"].split(","), seated
        finally:
            bot.kill()
            await bot.wait()
