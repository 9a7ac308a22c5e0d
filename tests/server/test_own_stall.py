"""A lone ``deberc-net serve`` (no ``--workers``) stopped (SIGSTOP, as a job stopped with
Ctrl-Z) for longer than the away limit: what counts time for its players counts none of
it (docs/scaling.md, "A worker's own stall"), as a worker's own stall counts none
(tests/store/test_workers_own_stall.py). A player who dropped just before and is back on
a new connection made during the stall keeps his seat; one gone for good still forfeits,
once the server has run for the away limit again, not at once."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest
import trio

from .client import LineClient, close_all, fields, is_event, machine_client
from .process import start_server_process

AWAY_S = 2.0  # the away limit here
STOPPED_S = AWAY_S + 1.5  # the stall: past it


def _token(client: LineClient) -> str:
    login = next(x for x in client.lines if fields(x)[0] == "ok" and "cmd=login" in x)
    return fields(login)[1]["token"]


async def _playing(opener: LineClient, joiner: LineClient) -> None:
    await opener.send("new 2")
    table = (await opener.expect("ok", cmd="sit"))["table"]
    await joiner.send(f"sit {table}")
    await joiner.read_until(lambda x: is_event(x, "start"))


def _forfeit(line: str) -> bool:
    return is_event(line, "match-end")


@pytest.mark.timeout(90)
def test_a_lone_servers_stall_past_the_away_limit_forfeits_only_the_player_really_gone(
    tmp_path: Path,
) -> None:
    settings = f"away_limit_ms = {int(AWAY_S * 1000)}\nlag_ms = 0\nshutdown_grace_ms = 100"
    proc, port = start_server_process(tmp_path / "s.sqlite3", settings)

    async def main() -> None:
        opened: list[LineClient] = []
        try:
            gus, hal, eve, finn = [
                await machine_client(port, name) for name in ("gus", "hal", "eve", "finn")
            ]
            opened += [gus, hal, eve, finn]
            await _playing(gus, hal)
            await _playing(eve, finn)
            token = _token(gus)
            # both drop; each table holds the seat, its partner told he is away
            await gus.aclose()
            await finn.aclose()
            await hal.read_until(lambda x: is_event(x, "away") and "name=gus" in x)
            await eve.read_until(lambda x: is_event(x, "away") and "name=finn" in x)
            proc.send_signal(signal.SIGSTOP)
            try:
                # gus comes back meanwhile: the kernel takes his connection, and his
                # lines wait for the server to run again
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                await stream.send_all(f"style machine\nlogin gus token={token}\n".encode())
                await trio.sleep(STOPPED_S)
            finally:
                proc.send_signal(signal.SIGCONT)
            resumed = trio.current_time()
            back = await LineClient.over(stream, "gus again")
            opened.append(back)
            await back.expect("ok", cmd="login", name="gus")
            await back.read_until(lambda x: is_event(x, "back") and "name=gus" in x)
            # finn, gone for good, forfeits once the server has run for the away limit
            # (less what it ran of it before the stall, and a look's time): not at once
            # (before: as it ran again, the stall counted), nor much later
            ended = await eve.read_until(_forfeit, timeout=AWAY_S + 5)
            waited = trio.current_time() - resumed
            assert "reason=away" in ended, ended
            assert AWAY_S - 1.0 <= waited <= AWAY_S + 1.5, waited
            # gus's match plays on: hal is told no end of it
            await hal.send("ping")
            await hal.expect("ok", cmd="ping")
            assert not [x for x in hal.lines if _forfeit(x)], hal.lines
        finally:
            await close_all(opened)

    try:
        trio.run(main)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    logged = [json.loads(line) for line in proc.stderr.read().splitlines() if line]
    stalled = [e for e in logged if e["event"] == "server_stalled"]
    assert len(stalled) == 1 and stalled[0]["seconds"] >= STOPPED_S - 1.0, stalled
