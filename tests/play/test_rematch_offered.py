"""The terminal client tells its player, when his match ends, that 'rematch' within
60 s plays it again, as the server tells a person over nc (docs/protocol.md §5.16; a
program is told nothing, and the client is one): a tryout (s44) found anna at the
client the only one of four who never heard of the rematch the others agreed to.
Not to a watcher, nor after a match with a house bot (whose name says it is one), nor
to the one whose 'leave' ended it, as the server offers none then."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from clients.play.link import Link
from clients.play.state import TableState, fold_all
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.wire import parse_line
from tests.play.server import Heard, ServerThread, read_until, walked_out

OFFERED = "'rematch' within 60 s plays again with the same players."
OFFERED_RU = "Реванш: наберите rematch в течение 60 с — сыграете снова тем же составом."


@pytest.mark.timeout(60)
def test_a_player_at_the_client_is_told_the_rematch_on_offer(tmp_path: Path) -> None:
    heard = Heard()
    said = heard.said

    def wait_for(text: str) -> str:
        return said[heard.index_of(text, timeout=20)]

    with ServerThread(tmp_path / "db.sqlite3") as server:
        link = Link("127.0.0.1", server.port, heard.deliver, name="roman")
        link.start()
        try:
            wait_for("ok cmd=login name=roman")
            assert link.send("new 2")
            table = parse_line(wait_for("ok cmd=sit")).get_int("table")
            with walked_out(server.port, table):
                heard.index_of("kind=match-end", timeout=20)
                assert link.send("rematch")  # on offer indeed: the server takes it (her
                assert "waiting=olga" in wait_for("ok cmd=rematch")  # going would end it)
        finally:
            link.stop()
        assert not server.errors, server.errors
    ended = said.index(next(x for x in said if "kind=match-end" in x))
    state = fold_all(said[: ended + 1])
    assert state.log[-1] == OFFERED, state.log[-3:]
    assert state.log[-2].startswith("Game over: roman wins"), state.log[-3:]
    russian = fold_all(said[: ended + 1], TableState(lang=Lang.RU))
    assert russian.log[-1] == OFFERED_RU, russian.log[-3:]


# a match's lines as the client is told them, at seat 0 of table 3 (or watching it)
def _match(players: str, sat: bool = True, reason: str = "timeouts") -> list[str]:
    own = "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0."
    watch = "ok cmd=observe table=3 text=You observe table 3."
    a, b = players.split(",")
    return [
        "ok cmd=login name=b1 guest=1 token=Tok123 lang=en text=Hello, b1 (guest).",
        own if sat else watch,
        f"event seq=1 table=3 kind=seated name={a} seat=0",
        f"event seq=2 table=3 kind=seated name={b} seat=1",
        f"event seq=3 table=3 kind=start players={players} match=m3",
        f"event seq=9 table=3 kind=match-end winner=1 name={b} reason={reason} totals=0,0 "
        "seed=b8280db0e2760e91 forfeit=0 match=m3 deals=1",
    ]


def test_no_offer_told_to_a_watcher_nor_after_a_house_bot_nor_to_the_leaver() -> None:
    # (the lines are a true end: his clock lost it, not his choice)
    assert fold_all(_match("b1,b2")).log[-1] == OFFERED
    # his 'leave' ended it (its 'ok' crossed the end: the server offers him none)
    left = _match("b1,b2", reason="left")
    for lines in (_match("b1,house-heuristic-1"), _match("b2,b3", sat=False), left):
        state = fold_all(lines)
        assert state.log[-1].startswith("Game over:"), state.log
        assert OFFERED not in state.log, state.log


def test_no_offer_told_during_a_drain() -> None:
    """A match over while the server drains offers no rematch: none is told, nor said
    by the client (a review, s44; docs/protocol.md §11.4a). The drain is known by its
    field, ``info server=draining``, not its words (its English and Russian matched
    before: a server that words it otherwise was taken for no drain). A new
    connection's server (the banner again) may offer one."""
    lines = _match("b1,b2")
    for text in (
        "The server restarts once the running matches are over: no new game starts until then.",
        "Сервер перезапустится, когда закончатся идущие партии: до тех пор новые партии"
        " не начинаются.",
        "Maintenance: back in ten minutes.",  # known by its field, whatever it says
    ):
        drained = [*lines[:-1], f"info server=draining text={text}", lines[-1]]
        state = fold_all(drained)
        assert state.log[-1].startswith("Game over:"), state.log
        assert OFFERED not in state.log, state.log
    banner = "deberc-net 0.1.0 (protocol 1) — Deberts for people and bots. Type 'help'."
    again = fold_all([*lines[:-1], f"info server=draining text={text}", banner, lines[-1]])
    assert again.log[-1] == OFFERED, again.log


@pytest.mark.timeout(60)
def test_no_offer_said_when_a_leavers_forfeit_gives_the_seek_back(tmp_path: Path) -> None:
    """olga walks out of the match roman sought before its first deal ended: the server
    gives him his place in line again (docs/protocol.md §5.5) and offers a person no
    rematch, with the leaver he is kept apart from. The client said "'rematch' within
    60 s …" at the end, then "olga left …: seek … again …, and are not matched with olga
    again" (a review, s45): it says the end, then his place in line, and no rematch."""
    heard = Heard()
    said = heard.said
    with ServerThread(tmp_path / "db.sqlite3") as server:
        link = Link("127.0.0.1", server.port, heard.deliver, name="roman")
        link.start()
        try:
            heard.index_of("ok cmd=login name=roman", timeout=20)
            assert link.send("seek 2")
            heard.index_of("ok cmd=seek", timeout=20)
            with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
                sock.sendall(b"style machine\r\nlogin olga\r\nseek 2\r\n")
                read_until(sock, "kind=start")
                sock.sendall(b"leave!\r\n")
                heard.index_of("first_in_line=1", timeout=20)
        finally:
            link.stop()
        assert not server.errors, server.errors
    told = said.index(next(x for x in said if "first_in_line=1" in x))
    for lang, offered, line in (
        # (the client seeks it again for him: said as the server says it to a person,
        # tests/play/test_seek_kept.py)
        (Lang.EN, OFFERED, "olga left before the first deal ended: you still wait for a moscow"),
        (Lang.RU, OFFERED_RU, "olga покидает стол до конца первой раздачи: вы снова ждёте"),
    ):
        state = fold_all(said[: told + 1], TableState(lang=lang))
        assert offered not in state.log, state.log[-3:]
        assert state.log[-2].startswith(("Game over: roman wins", "Партия окончена: roman")), (
            state.log[-3:]
        )
        assert state.log[-1].startswith(line), state.log[-3:]


def test_the_time_said_is_the_servers_rematch_s() -> None:
    """A server whose rematch_ms is not 60 s names its time on the match's end
    (``rematch_s=``, docs/protocol.md §5.16), and the client says that time, not its
    own 60 s (a review, s45: it said 60 s whatever the setting); one of before, which
    names none, is said 60 s. The offer taken back by the place in line still goes."""
    *before, end = _match("b1,b2")
    state = fold_all([*before, f"{end} rematch_s=30"])
    assert state.log[-1] == "'rematch' within 30 s plays again with the same players.", state.log
    russian = fold_all([*before, f"{end} rematch_s=30"], TableState(lang=Lang.RU))
    assert russian.log[-1] == OFFERED_RU.replace("60 с", "30 с"), russian.log
    assert fold_all([*before, end]).log[-1] == OFFERED
    place = (
        "info first_in_line=1 players=2 variant=moscow options= leaver=b2 apart_ms=0 text=b2"
        " left before the"
        " first deal ended: seek a moscow game for 2 players again and you are first in line."
    )
    taken_back = fold_all([*before, f"{end} rematch_s=30", place])
    assert not any("'rematch' within" in x for x in taken_back.log), taken_back.log
