"""The terminal client knows what a server's line means by its fields, never its words
(s47): a server may word its sentences otherwise, or say them in another language, and
the client read some of them out of the English (a table's close, the lists' refusal,
'you sit at no table', a house bot's coming, the place in line a leaver's forfeit
gave back). Each is fed here as a server worded otherwise sends it, and against a
real server whose catalogue is Russian; each failed before."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from clients.play.link import Link
from clients.play.state import fold_all, resync_requests, sent_on_behalf
from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import MESSAGES
from tests.play.server import Heard, ServerThread, read_until

LOGIN = "ok cmd=login name=b1 guest=1 token=Tok123 text=Hello, b1 (guest)."
SAT = "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0."
STARTED = [
    LOGIN,
    SAT,
    "event seq=1 table=3 kind=seated name=b1 seat=0",
    "event seq=2 table=3 kind=seated name=b2 seat=1",
    "event seq=3 table=3 kind=start players=b1,b2 match=m3",
]
OVER = "event seq=9 table=3 kind=match-end winner=0 name=b1 reason=target totals=301,120"


def test_a_table_closing_is_known_by_closed_whatever_its_words() -> None:
    """``info closed=T`` (docs/protocol.md §11.4) takes the table off the screen: the
    client matched 'Table T closes:' in English or Russian, and a table closed in other
    words stayed on screen, its calls refused."""
    closed = "info closed=3 text=Wartung: Tisch 3 ist zu."
    state = fold_all([*STARTED, closed])
    assert state.table is None and state.log[-1] == "Wartung: Tisch 3 ist zu.", state.log[-2:]
    other = fold_all([*STARTED, closed.replace("3", "4")])  # another table's: not ours
    assert other.table == 3


def test_a_list_asked_by_the_client_and_refused_is_known_by_cmd() -> None:
    """A list the client asked for itself (after a drop) and refused past the lists'
    allowance is named in ``cmd=`` (docs/protocol.md §10): no reply comes, so it is
    awaited no more, and the player's own 'sheet' next is shown. The client read the
    list's name out of the English 'too many 'sheet' at once', and kept waiting for a
    reply to a refusal worded otherwise, swallowing the player's."""
    state = fold_all([LOGIN, "event seq=9 table=3 kind=back name=b1 seat=0"])
    state, asked = resync_requests(state)
    assert "sheet" in asked and "sheet" in state.quiet
    state = fold_all(["error code=slow-down wait_ms=1500 cmd=sheet text=Langsam: 2 s"], state)
    assert "sheet" not in state.quiet
    logged = len(state.log)
    state = fold_all(["sheet table=3 deals=0 target=301"], state)  # typed by the player
    assert len(state.log) > logged


def test_sitting_nowhere_is_known_by_nowhere_whatever_its_words() -> None:
    """``error code=not-seated nowhere=1`` (docs/protocol.md §5.6, §5.10): a watched
    match over, the table goes and the client says where we are. Read out of the
    English 'you sit at no table and observe none', a server that words it otherwise
    left the table on screen and showed a refusal."""
    watched = ["ok cmd=observe table=3 text=You observe table 3.", OVER]
    state = fold_all([*watched, "error code=not-seated nowhere=1 text=Sie sitzen nirgends."])
    assert state.table is None
    assert state.log[-1] == "The match at table 3 is over: you are in the lobby.", state.log[-2:]
    # another not-seated (an 'invite' away from a table) moves no one
    other = fold_all([*watched, "error code=not-seated text=Sie sitzen nirgends."])
    assert other.table == 3


def test_a_house_bot_coming_is_said_once_whatever_its_words() -> None:
    """The reply to 'bot' (``ok cmd=bot table=T name=N``, §5.15) gives its line to the
    bot's seat, said just after: known by its fields, not by its English 'N comes to
    table T.', which left both lines in the log from a server that words it otherwise."""
    lines = [
        LOGIN,
        "ok cmd=sit table=5 seat=0 seats=b1,- text=You sit at table 5, seat 0.",
        "ok cmd=bot table=5 name=house-random-3 kind=random level=- rated=0 text=Ein Bot kommt.",
        "event seq=2 table=5 kind=seated name=house-random-3 seat=1",
    ]
    assert fold_all(lines).log[-2:] == (
        "You sit at table 5, seat 0.",
        "house-random-3 sits at seat 1",
    )
    other = [*lines[:3], "event seq=2 table=5 kind=seated name=vera seat=1"]
    assert fold_all(other).log[-2:] == ("Ein Bot kommt.", "vera sits at seat 1")


def test_the_place_in_line_is_taken_whatever_its_words() -> None:
    """``info first_in_line=1 … leaver=b2 apart_ms=600000`` (docs/protocol.md §5.5): the
    client seeks the game again for its player and says the wait from the fields. It
    read the leaver and his time apart out of the English sentence, and a server that
    words it otherwise had the client seek nothing (its player waited for no game)."""
    kept = (
        "info first_in_line=1 players=2 variant=tertz options=to-301,hanging-separate leaver=b2"
        " apart_ms=540001 text=b2 ist gegangen: seek noch einmal."
    )
    state = fold_all(
        [
            *STARTED,
            "event seq=4 table=3 kind=match-end winner=0 name=b1 reason=left"
            " totals=0,0 forfeit=1 match=m3 deals=0",
            kept,
        ]
    )
    assert state.log[-1] == (
        "b2 left before the first deal ended: you still wait for a tertz game for 2 players"
        " (to-301, hanging-separate), first in line, and are not matched with b2 again for 10 min."
    ), state.log[-2:]
    assert sent_on_behalf(state)[1] == ("seek 2 tertz to-301 hanging-separate",)
    alone = fold_all([kept.replace("apart_ms=540001", "apart_ms=0")])  # not kept apart
    assert alone.log[-1].endswith("(to-301, hanging-separate), first in line."), alone.log[-1]
    unnamed = fold_all([kept.replace(" leaver=b2 apart_ms=540001", "")])  # no leaver named:
    assert unnamed.log[-1] == "b2 ist gegangen: seek noch einmal."  # its own words said
    assert sent_on_behalf(unnamed)[1] == ("seek 2 tertz to-301 hanging-separate",)


@pytest.mark.timeout(60)
def test_a_server_in_russian_is_understood(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real server whose machine lines are Russian (its catalogue's English replaced by
    its Russian, as tests/clients/test_bot_drain.py's): roman at the client seeks, olga
    walks out before the first deal ended, and the client seeks again for him; his
    'state' after it is 'you sit at no table' (in Russian too), the lobby said. Then
    with the true catalogue, the client's own, folded: before, no seek was sent (the
    sentence matched no English) and the 'state' read as a refusal."""
    russian = {key: (ru, ru) for key, (_, ru) in MESSAGES.items()}
    monkeypatch.setattr(ev, "NOWHERE", "вы не сидите за столом и ни за каким не смотрите")
    for key, both in russian.items():
        monkeypatch.setitem(MESSAGES, key, both)
    heard = Heard()
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
                kept = heard.index_of("first_in_line=1", timeout=20)
            assert link.send("state")
            heard.index_of("code=not-seated", after=kept, timeout=20)
        finally:
            link.stop()
        assert not server.errors, server.errors
    monkeypatch.undo()  # the client's catalogue its own
    said = list(heard.said)
    kept_line = next(x for x in said if "first_in_line=1" in x)
    assert "покидает стол" in kept_line, kept_line  # (the server's Russian)
    told = said.index(kept_line)
    state = fold_all(said[: told + 1])
    assert state.log[-1].startswith(
        "olga left before the first deal ended: you still wait for a moscow game for 2 players,"
        " first in line"
    ), state.log[-2:]
    assert sent_on_behalf(state)[1] == ("seek 2 moscow",)
    refused = next(x for x in said[told:] if "code=not-seated" in x)
    state = fold_all([*said[:told], refused])
    assert state.table is None
    assert state.log[-1].endswith("is over: you are in the lobby."), state.log[-2:]


def test_a_mistyped_command_is_named_by_the_servers_command_hint() -> None:
    """A word near a command's name ('tabels') is refused with the server's guess in
    ``command_hint=`` (docs/protocol.md §8), said after the refusal: the client read
    the word out of the English sentence and guessed itself, and said nothing to a
    refusal worded otherwise."""
    state = fold_all(
        [
            LOGIN,
            "error code=unknown-command command_hint=tables text=«tabels»? Kenne ich nicht.",
            "error code=unknown-command text=«xyzzy»? Kenne ich nicht.",
        ]
    )
    assert state.log[-2:] == (
        "! «tabels»? Kenne ich nicht. Did you mean 'tables'?",
        "! «xyzzy»? Kenne ich nicht.",
    ), state.log[-2:]
