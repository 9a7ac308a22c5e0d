"""The terminal client waits on for the game its player sought when a leaver ended the
match before its first deal ended (docs/protocol.md §5.5), as the server keeps a
person's seek over nc: the server keeps a program's place in line for its next seek,
and the client sends it for him. It said "seek … again and you are first in line", and
a player who did not press F7 waited for nothing (s45); docs/play.md promises the wait."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from clients.play.app import PlayApp, WireLine
from clients.play.state import TableState, fold_all, sent_on_behalf
from deberc_net.protocol.lang import Lang

from .pilot import enter, running, until
from .server import ServerThread, read_until

# after each key, a wait till the app has handled it, not for idleness (conftest.py)
pytestmark = pytest.mark.usefixtures("settled_keys")

SAT = "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0."
ENDED = (
    "event seq=9 table=3 kind=match-end winner=0 name=b1 reason=left totals=0,0 "
    "seed=b8280db0e2760e91 forfeit=1 match=m3 deals=0"
)
KEPT = (
    "info first_in_line=1 players=2 variant=tertz options=to-301 leaver=b2 apart_ms=600000"
    " text=b2 left before the"
    " first deal ended: seek a tertz game for 2 players (to-301) again and you are first in"
    " line, and are not matched with b2 again for 10 min."
)
MATCH = [
    "ok cmd=login name=b1 guest=1 token=Tok123 lang=en text=Hello, b1 (guest).",
    "ok cmd=seek players=2 variant=tertz options=to-301 text=Waiting for a 2-player"
    " tertz game (to-301).",
    SAT,
    "event seq=1 table=3 kind=seated name=b1 seat=0",
    "event seq=2 table=3 kind=seated name=b2 seat=1",
    "event seq=3 table=3 kind=start players=b1,b2 match=m3",
    ENDED,
]


def test_the_place_kept_is_sought_again_and_said_as_a_wait() -> None:
    state = fold_all([*MATCH, KEPT])
    assert state.log[-1] == (
        "b2 left before the first deal ended: you still wait for a tertz game for 2 players"
        " (to-301), first in line, and are not matched with b2 again for 10 min."
    ), state.log[-3:]
    state, sent = sent_on_behalf(state)
    assert sent == ("seek 2 tertz to-301",)
    assert sent_on_behalf(state)[1] == ()  # sent once
    russian = fold_all([*MATCH, KEPT], TableState(lang=Lang.RU))
    assert russian.log[-1] == (  # (the game read back whole: «на двоих»)
        "b2 покидает стол до конца первой раздачи: вы снова ждёте партию tertz на двоих"
        " (to-301), в начале очереди, и с игроком b2 вас 10 мин не сведут."
    ), russian.log[-1]


def test_not_sought_again_when_another_seek_is_made_or_no_game_is_named() -> None:
    """A seek typed meanwhile (its 'ok' come first) is the one he wants; a server that
    names no game in the line (before first_in_line's fields) is said as it came."""
    other = (
        "ok cmd=seek players=3 variant=moscow options= text=Waiting for a moscow game for 3"
        " players."
    )
    for lines in ([*MATCH, other, KEPT], [*MATCH, KEPT.replace(" players=2", "")]):
        state = fold_all(lines)
        assert sent_on_behalf(state)[1] == (), lines
        assert "seek a tertz game for 2 players (to-301) again" in state.log[-1], state.log[-1]


@pytest.mark.timeout(60)
def test_a_seek_typed_before_the_place_kept_comes_is_the_one_sent() -> None:
    """The player's own seek, sent before the leaver's place in line came and not yet
    answered, is his choice: the client sent its own after it, and the server took the
    later one (a seek of another game replaces the first; s47's notes). One seek goes
    out: his."""
    asyncio.run(asyncio.wait_for(_typed_first(), 50))


async def _typed_first() -> None:
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    sent: list[str] = []

    def send(line: str) -> bool:
        sent.append(line)
        return True

    app.link.send = send  # type: ignore[method-assign]  # (the wire, as the app uses it)
    async with running(app) as pilot:
        for line in MATCH:
            app.post_message(WireLine(line))
        await until(pilot, lambda: app.state.result is not None, "the match's end")
        await enter(pilot, "seek 3")
        await until(pilot, lambda: "seek 3" in sent, "the typed seek")
        app.post_message(WireLine(KEPT))
        # (the link's own notices, nothing listening, come between: not the last line)
        await until(pilot, lambda: any("first in line" in x for x in app.state.log), "the place")
        assert [x for x in sent if x.startswith("seek")] == ["seek 3"]
        # answered, a later place kept is his again (none is typed now)
        app.post_message(WireLine("error code=bad-rules text=no such game"))
        app.post_message(WireLine(KEPT))
        await until(pilot, lambda: "seek 2 tertz to-301" in sent, "the seek again")


@pytest.mark.timeout(60)
def test_the_client_waits_on_and_is_seated_with_the_next_seeker(tmp_path: Path) -> None:
    """Against a real server: olga seeks, is seated with roman (at the client), and
    walks out at once; vera seeks the same game a moment later and is seated with him."""
    with ServerThread(tmp_path / "db.sqlite3") as server:
        asyncio.run(asyncio.wait_for(_kept(server), 50))
        assert not server.errors, server.errors


async def _kept(server: ServerThread) -> None:
    app = PlayApp("127.0.0.1", server.port, name="roman")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.name == "roman", "login")
        await enter(pilot, "seek 2")
        await until(pilot, lambda: app.state.seeking is not None, "the seek")
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as olga:
            olga.sendall(b"style machine\r\nlogin olga\r\nseek 2\r\n")
            await asyncio.to_thread(read_until, olga, "kind=start")
            olga.sendall(b"leave!\r\n")
            await until(pilot, lambda: app.state.result is not None, "the match's end")
            # (before: not seeking; the log told him to seek again)
            await until(pilot, lambda: app.state.seeking is not None, "the seek again")
            assert any("you still wait for a moscow game for 2 players" in x for x in app.state.log)
            with socket.create_connection(("127.0.0.1", server.port), timeout=20) as vera:
                vera.sendall(b"style machine\r\nlogin vera\r\nseek 2\r\n")
                await asyncio.to_thread(read_until, vera, "kind=start")
                await until(pilot, lambda: app.state.players == ("roman", "vera"), "vera")
