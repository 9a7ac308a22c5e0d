"""`deberc-net play` needs a terminal: without one it says so and exits 2 at once (it
hung, drawing nowhere); and a connection never made is not called "lost" while the
client tries again."""

from __future__ import annotations

import contextlib
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from clients.play.link import Link
from tests.play.server import ServerThread


@attrs.define
class Shown:
    """What the link hands a screen: every line (``lines``), and ``seen`` set once a
    line ``wanted`` marks has come."""

    wanted: Callable[[str], bool]
    lines: list[str] = attrs.Factory(list)
    seen: threading.Event = attrs.Factory(threading.Event)

    def deliver(self, line: str) -> None:
        self.lines.append(line)
        if self.wanted(line):
            self.seen.set()


def test_play_without_a_terminal_exits_2_saying_it_needs_one() -> None:
    with socket.socket() as held:  # nothing listens: it must not even get that far
        held.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{held.getsockname()[1]}"
        done = subprocess.run(
            [sys.executable, "-m", "deberc_net", "play", address, "--name", "x"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == (
        "deberc-net play: the terminal client needs a terminal (standard input and output); "
        "a program speaks the protocol itself (docs/bots.md)\n"
    )


@pytest.mark.timeout(60)
def test_play_in_a_dumb_terminal_exits_2_saying_it_cannot_draw() -> None:
    """TERM=dumb (an editor's shell buffer, a bare serial console) has no cursor to
    move: the client drew its screen there all the same, a page of escape sequences (a
    tryout, s34). It says so and exits 2 at once, as without a terminal."""
    parent, child = os.openpty()  # a terminal, stdin and stdout: only TERM says no
    try:
        with socket.socket() as held:  # nothing listens: it must not even get that far
            held.bind(("127.0.0.1", 0))
            address = f"127.0.0.1:{held.getsockname()[1]}"
            done = subprocess.run(
                [sys.executable, "-m", "deberc_net", "play", address, "--name", "x"],
                stdin=child,
                stdout=child,
                stderr=subprocess.PIPE,
                env={**os.environ, "TERM": "dumb"},
                text=True,
                timeout=30,
                check=False,
            )
    finally:
        os.close(child)
        os.close(parent)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "deberc-net play: this terminal (TERM=dumb) cannot draw the client's screen: play in"
        " another one, or over nc or telnet, whose plain lines need none (docs/play.md)\n"
    )


@pytest.mark.parametrize("port", ["x", "", "7501²", "٧٥٠١"])
def test_an_address_with_no_port_number_is_refused_in_one_line(port: str) -> None:
    # '²' passed str.isdigit() and int() raised: a traceback, not the usage line
    done = subprocess.run(
        [sys.executable, "-m", "deberc_net", "play", f"127.0.0.1:{port}", "--name", "x"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "deberc-net play: the address is HOST:PORT, e.g. 127.0.0.1:7501\n"


def _link_to_a_server_sending(
    data: bytes, done: threading.Event, deliver: Callable[[str], None], most_unshown: int = 0
) -> None:
    """A link (``most_unshown``, if given) to a server of one connection that sends
    ``data`` and stays open till ``done`` (a close with the link's lines unread there is
    a reset, which may lose what the link has not read yet), run till ``done`` is set."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)

        def serve() -> None:
            conn, _ = listener.accept()
            with conn, contextlib.suppress(OSError):
                conn.sendall(data)
                done.wait(10)

        server = threading.Thread(target=serve, daemon=True)
        server.start()
        link = Link("127.0.0.1", listener.getsockname()[1], deliver, name="x")
        link.most_unshown = most_unshown or link.most_unshown
        link.start()
        try:
            assert done.wait(10)
        finally:
            link.stop()
        server.join(10)


def test_the_link_hands_on_no_control_a_hostile_server_sends() -> None:
    # hostile tryout (s24): a server's (or a meddler's: no TLS) escape sequences reached
    # the terminal whole: clear the screen, set the title and the clipboard, mouse
    # reporting on, a query the terminal answers into the client's input
    hostile = (
        "say from=ev\x1b[5mil text=\x1b]52;c;cHduZWQ=\x07 \x1b[2J\x1b[H \x9b2J \x1bP+q544e\x1b\\"
    )
    shown = Shown(lambda line: line.startswith("bye"))
    said, got_bye, deliver = shown.lines, shown.seen, shown.deliver

    _link_to_a_server_sending((hostile + "\nbye text=done\n").encode(), got_bye, deliver)
    told = next(line for line in said if line.startswith("say "))
    assert not any(ch < " " or "\x7f" <= ch <= "\x9f" for ch in told), repr(told)
    assert told == hostile.replace("\x1b", "\ufffd").replace("\x07", "\ufffd").replace(
        "\x9b", "\ufffd"
    )


def test_the_link_drops_a_server_that_sends_more_than_the_screen_can_show() -> None:
    # hostile tryout (s24): a flood of short lines grew the client by 135 MB in 20 s, the
    # screen drawing a few hundred of them
    # a screen that shows nothing: every line waits
    shown = Shown(lambda line: "more lines than the screen can show" in line)
    said, dropped, deliver = shown.lines, shown.seen, shown.deliver

    flood = "".join(f"say from=x table=- text=flood {n}\n" for n in range(2_000))
    _link_to_a_server_sending(flood.encode(), dropped, deliver, most_unshown=50)
    floods = [line for line in said if "text=flood" in line]
    assert 50 <= len(floods) <= 51, len(floods)  # none handed on after the drop


def test_a_connection_never_made_is_retried_without_being_called_lost() -> None:
    shown = Shown(lambda line: "(attempt 3)" in line)
    said, tried_again, deliver = shown.lines, shown.seen, shown.deliver

    with socket.socket() as held:  # bound, never listening: every connect is refused
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        link = Link("127.0.0.1", port, deliver, name="x")
        started = time.monotonic()
        link.start()
        try:
            assert tried_again.wait(10), said
        finally:
            link.stop()
    assert time.monotonic() - started < 10
    assert said[0] == f"info text=cannot connect to 127.0.0.1:{port}: Connection refused", said
    assert said[1] == "info text=no connection yet: trying again in 0.5 s (attempt 2)", said
    assert not any("connection lost" in line for line in said), said


@pytest.mark.timeout(60)
def test_a_connection_lost_is_said_lost_at_each_try_until_one_is_made(tmp_path: Path) -> None:
    """A pty tryout: after a lost connection the second try, refused, said 'no connection
    yet: trying again in 1 s (try 3)', as if none had ever been made."""
    logged_in = Shown(lambda line: line.startswith("ok cmd=login name=roman"))
    shown = Shown(lambda line: "(attempt 3)" in line)
    said, tried_again = shown.lines, shown.seen

    def deliver(line: str) -> None:
        logged_in.deliver(line)
        shown.deliver(line)

    link: Link | None = None
    try:
        with ServerThread(tmp_path / "db.sqlite3") as server:
            link = Link("127.0.0.1", server.port, deliver, name="roman")
            link.start()
            assert logged_in.seen.wait(20), said
        # the server stopped, its port closed: each try is refused
        assert tried_again.wait(20), said
    finally:
        if link is not None:
            link.stop()
    assert not server.errors, server.errors
    tries = [line for line in said if "trying again" in line]
    assert tries == [
        "info text=connection lost: trying again in 0.5 s (attempt 2)",
        "info text=connection lost: trying again in 1 s (attempt 3)",
    ], said


@pytest.mark.timeout(60)
def test_a_server_that_refuses_each_connection_is_not_tried_forever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real server full for our address (`error code=busy`, then closed): each
    connection was made, so the 2 minutes (here 0.15 s) started again at each, and the
    link tried every 10 s for ever; a refusal is no connection that was up."""
    # the link's times a tenth of their own (pauses from 0.05 s, not 0.5), as the tries
    # counted below have them
    monkeypatch.setattr("clients.play.link.FIRST_PAUSE_S", 0.05)
    shown = Shown(lambda line: "the server cannot be reached" in line)
    said, gave_up, deliver = shown.lines, shown.seen, shown.deliver

    with ServerThread(tmp_path / "db.sqlite3", max_connections_per_address=1) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as held:
            held.sendall(b"login holder\n")  # the address's one connection, logged in
            reader = held.makefile("rb")
            while b"Hello, holder" not in reader.readline():
                pass
            link = Link("127.0.0.1", server.port, deliver, name="x")
            link.retry_for_s = 0.15
            link.start()
            try:
                assert gave_up.wait(20), said
            finally:
                link.stop()
        assert not server.errors, server.errors
    assert any("code=busy" in line for line in said), said
    tries = [line for line in said if "trying again" in line]
    assert 1 <= len(tries) <= 4, said  # 0.05 s, 0.1 s: given up after the third or fourth


@pytest.mark.timeout(60)
def test_a_port_that_wants_a_proxy_header_from_us_is_not_tried_again(tmp_path: Path) -> None:
    """The proxy tryout: a server whose game_proxies lists our address refuses each
    connection of ours without a PROXY header (`bad-proxy-header`); the client tried
    again and again, each try a warning in the server's log. It gives up at once."""
    shown = Shown(
        lambda line: "refuses connections from this address without a proxy's header" in line
    )
    said, gave_up, deliver = shown.lines, shown.seen, shown.deliver

    with ServerThread(tmp_path / "db.sqlite3", game_proxies=["127.0.0.1"]) as server:
        link = Link("127.0.0.1", server.port, deliver, name="x")
        link.start()
        try:
            assert gave_up.wait(20), said
        finally:
            link.stop()
        assert not server.errors, server.errors
    assert any("code=bad-proxy-header" in line for line in said), said
    assert not [line for line in said if "trying again" in line], said


@pytest.mark.timeout(60)
def test_a_wrong_password_is_not_sent_again_after_a_drop(tmp_path: Path) -> None:
    """The link kept a password typed with 'login' to log in again after a drop, even
    one the server had called wrong: each reconnection sent it again, and 5 wrong ones
    in 5 min lock the name for everyone (its owner too)."""
    said: list[str] = []
    lines: queue.Queue[str] = queue.Queue()

    def deliver(line: str) -> None:
        said.append(line)
        lines.put(line)

    def next_error() -> str:
        return _next_error(lines)

    with ServerThread(tmp_path / "db.sqlite3") as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as owner:
            owner.sendall(b"login reg secret1\n")  # a free name with a password: registered
            reader = owner.makefile("rb")
            while b"Hello, reg" not in reader.readline():
                pass
            owner.sendall(b"quit\n")
        link = Link("127.0.0.1", server.port, deliver, name="reg")
        link.start()
        try:
            assert "give the password" in next_error(), said  # 'login reg': none given
            assert link.send("login reg wrong1")
            assert "wrong password" in next_error(), said
            link.drop()  # as a network failure would
            again = next_error()
        finally:
            link.stop()
        assert not server.errors, server.errors
    assert "give the password" in again, said  # not the wrong one again


@pytest.mark.timeout(60)
def test_after_a_password_change_a_drop_logs_in_with_the_new_one(tmp_path: Path) -> None:
    """The link keeps the password typed with 'login' to log in again after a drop:
    after 'password OLD NEW' (docs/protocol.md §5.20) that was the old one, refused,
    and the seat's owner had to type it again. A wrong OLD keeps the login's."""
    lines: queue.Queue[str] = queue.Queue()

    def next_reply(cmd: str) -> str:
        """The next error, or the next ok of ``cmd`` (the link sends its own too)."""
        while True:
            line = lines.get(timeout=20)
            if line.startswith(("error ", f"ok cmd={cmd} ")):
                return line

    with ServerThread(tmp_path / "db.sqlite3") as server:
        link = Link("127.0.0.1", server.port, lines.put)
        link.start()
        try:
            assert link.send("login reg secret1")  # registered
            assert next_reply("login").startswith("ok cmd=login name=reg guest=0")
            assert link.send("password wrong1 secret2")
            assert next_reply("password").startswith("error code=bad-password")
            assert link.send("password secret1 secret2")
            assert next_reply("password").startswith("ok cmd=password")
            link.drop()  # as a network failure would
            again = next_reply("login")  # sent by the link itself, with secret2
            assert again.startswith("ok cmd=login name=reg guest=0"), again
        finally:
            link.stop()
        assert not server.errors, server.errors


class _Relay:
    """A relay between the link and the server (each connection its own), which drops
    a connection instead of passing on a line ``cut`` marks: a drop at that moment.
    ``hold``: the link's lines are held back until one it marks comes, then sent on
    together (once, for every connection after too): lines the server answers only
    once that one is sent."""

    def __init__(
        self, port: int, cut: Callable[[bytes], bool], hold: Callable[[bytes], bool] | None = None
    ) -> None:
        self.port, self.cut, self.hold = port, cut, hold
        self.held = b""
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                near, _ = self.listener.accept()
                far = socket.create_connection(("127.0.0.1", self.port))
                threading.Thread(target=self._up, args=(near, far), daemon=True).start()
                threading.Thread(target=self._down, args=(far, near), daemon=True).start()

    def _up(self, near: socket.socket, far: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := near.recv(4096):
                if self.hold is not None:
                    self.held += data
                    if not any(map(self.hold, self.held.splitlines())):
                        continue
                    data, self.held, self.hold = self.held, b"", None
                far.sendall(data)
        far.close()

    def _down(self, far: socket.socket, near: socket.socket) -> None:
        with contextlib.suppress(OSError), far.makefile("rb") as lines:
            for line in lines:
                if self.cut(line):
                    break
                near.sendall(line)
        for end in (near, far):  # (shut down: a close alone wakes no recv of _up's)
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


@pytest.mark.timeout(60)
def test_a_password_change_unanswered_before_a_drop_is_not_taken_for_a_wrong_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 'password OLD NEW' the server did but whose 'ok' a drop lost: the resume's
    login with OLD is refused bad-password, and that is the login's (not the change's
    wrong OLD): the link forgets OLD, never sends it again by itself (each wrong one
    counts: docs/play.md)."""
    monkeypatch.setattr("clients.play.link.FIRST_PAUSE_S", 0.02)  # (its tries: not 0.5 s)
    lines: queue.Queue[str] = queue.Queue()

    def next_error() -> str:
        return _next_error(lines)

    with ServerThread(tmp_path / "db.sqlite3") as server:
        relay = _Relay(server.port, lambda line: line.startswith(b"ok cmd=password"))
        link = Link("127.0.0.1", relay.address, lines.put)
        link.start()
        try:
            assert link.send("login reg secret1")  # registered
            while not lines.get(timeout=20).startswith("ok cmd=login"):
                pass
            assert link.send("password secret1 secret2")  # done; its 'ok' lost in a drop
            assert "wrong password" in next_error()  # the resume's, with secret1
            link.drop()
            again = next_error()
        finally:
            link.stop()
            relay.listener.close()
        assert not server.errors, server.errors
    assert "give the password" in again, again  # not secret1 again


@pytest.mark.timeout(60)
def test_an_error_of_another_line_leaves_a_password_change_pending(tmp_path: Path) -> None:
    """A line's refusal that comes while 'password OLD NEW' waits for its answer (a
    refused 'sit' typed before it) is not the password's: the change's 'ok' still makes
    NEW the resume's password. Any error forgot NEW, and the resume after a drop sent
    OLD, refused as a wrong password."""
    lines: queue.Queue[str] = queue.Queue()

    def next_reply(cmd: str) -> str:
        while True:
            line = lines.get(timeout=20)
            if line.startswith(("error ", f"ok cmd={cmd} ")):
                return line

    with ServerThread(tmp_path / "db.sqlite3") as server:
        # the server reads the lines only once the 'password' is sent too: the sit's
        # refusal comes while the change is pending
        relay = _Relay(server.port, lambda _: False, hold=lambda line: line.startswith(b"password"))
        link = Link("127.0.0.1", relay.address, lines.put)
        link.start()
        try:
            assert link.send("login reg secret1")  # registered
            assert link.send("sit 999")
            assert link.send("password secret1 secret2")
            assert next_reply("login").startswith("ok cmd=login name=reg guest=0")
            assert next_reply("password").startswith("error code=unknown-table")  # the sit's
            assert next_reply("password").startswith("ok cmd=password")
            link.drop()  # as a network failure would
            again = next_reply("login")  # sent by the link itself, with secret2
        finally:
            link.stop()
            relay.listener.close()
        assert not server.errors, server.errors
    assert again.startswith("ok cmd=login name=reg guest=0"), again


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("first", "answers", "kept"),
    [
        ("password secret1 secret2", ("ok cmd=password", "error code=bad-password"), "secret2"),
        ("password wrong1 secret2", ("error code=bad-password", "ok cmd=password"), "secret3"),
    ],
)
def test_two_password_changes_sent_at_once_keep_the_one_the_server_did(
    tmp_path: Path, first: str, answers: tuple[str, str], kept: str
) -> None:
    """Two 'password OLD NEW' sent before either is answered: the link kept only the
    later NEW, so the first's 'ok' made it the resume's password (or the first's
    refusal forgot it, and the second's 'ok' found none); each answer is its own
    change's, paired by the 'ping' sent before each (docs/protocol.md §2.3)."""
    lines: queue.Queue[str] = queue.Queue()

    def next_reply(cmd: str) -> str:
        while True:
            line = lines.get(timeout=20)
            if line.startswith(("error ", f"ok cmd={cmd} ")):
                return line

    with ServerThread(tmp_path / "db.sqlite3") as server:
        # the server reads the lines only once the second 'password' is sent too
        second = b"password secret1 secret3"
        relay = _Relay(server.port, lambda _: False, hold=lambda line: line.startswith(second))
        link = Link("127.0.0.1", relay.address, lines.put)
        link.start()
        try:
            assert link.send("login reg secret1")  # registered
            assert link.send(first)
            assert link.send(second.decode())
            assert next_reply("login").startswith("ok cmd=login name=reg guest=0")
            got = (next_reply("password"), next_reply("password"))
            assert [g.startswith(a) for g, a in zip(got, answers, strict=True)] == [True, True]
            link.drop()  # as a network failure would
            again = next_reply("login")  # sent by the link itself, with ``kept``
        finally:
            link.stop()
            relay.listener.close()
        assert not server.errors, server.errors
    assert again.startswith("ok cmd=login name=reg guest=0"), (kept, again)
    assert link.password == kept


def _next_error(lines: queue.Queue[str]) -> str:
    """The next error line the link delivered (20 s at most)."""
    while True:
        line = lines.get(timeout=20)
        if line.startswith("error"):
            return line


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "login",
    [
        "login masha pwone1 lang=ru",
        "login петя секрет123 lang=ru",
        "login masha LANG=RU pwone1",
        "login masha STYLE=machine pwone1 lang=ru",  # style= is no password either
    ],
)
def test_a_password_typed_with_lang_logs_in_again_after_a_drop(tmp_path: Path, login: str) -> None:
    """docs/play.ru.md's 'login NAME PASSWORD lang=ru': the link kept the password only
    from a line of three words, so after a drop (Ctrl+R, a server restarted) it logged
    in with the name alone, was asked for the password, and everything after was 'log
    in first'. It reads the line as the server does (docs/protocol.md §4.2), the
    language kept for the resume too."""
    lines: queue.Queue[str] = queue.Queue()

    def next_login() -> str:
        while True:
            line = lines.get(timeout=20)
            if line.startswith(("error ", "ok cmd=login ")):
                return line

    name = login.split()[1]
    with ServerThread(tmp_path / "db.sqlite3") as server:
        link = Link("127.0.0.1", server.port, lines.put)
        link.start()
        try:
            assert link.send(login)  # registered
            first = next_login()
            assert first.startswith(f"ok cmd=login name={name} guest=0"), first
            link.drop()  # as a network failure would
            again = next_login()  # sent by the link itself
        finally:
            link.stop()
        assert not server.errors, server.errors
    assert again.startswith(f"ok cmd=login name={name} guest=0"), again
    assert link.lang == "ru"  # sent with the resume's login too


@pytest.mark.timeout(60)
def test_a_line_typed_while_trying_again_is_refused_not_sent_later(tmp_path: Path) -> None:
    """A new player's tryout: 'tables' typed while the client tried again ('no
    connection yet: trying again in 10 s') got no answer, and went out once the server
    was back; a card typed so would be played after the situation changed. It is
    refused at once, as once the client has given up."""
    lines: queue.Queue[str] = queue.Queue()

    def until(wanted: Callable[[str], bool]) -> list[str]:
        came: list[str] = []
        while not came or not wanted(came[-1]):
            came.append(lines.get(timeout=20))
        return came

    db = tmp_path / "db.sqlite3"
    first = ServerThread(db).__enter__()
    port = first.port
    link = Link("127.0.0.1", port, lines.put, name="roman")
    link.start()
    try:
        until(lambda line: line.startswith("ok cmd=login"))
        assert not link.down
        first.__exit__()
        until(lambda line: "trying again in" in line)
        assert link.down
        assert not link.send("tables")  # the app says 'not connected' (test_app.py)
        with ServerThread(db, port=port) as back:
            until(lambda line: line.startswith("ok cmd=login"))
            assert link.send("who")
            came = until(lambda line: line.startswith("who "))
        assert not back.errors, back.errors
    finally:
        link.stop()
    assert not first.errors, first.errors
    assert not any(line.startswith("tables ") for line in came), came


@pytest.mark.parametrize("port", ["0", "65536", "99999"])
def test_a_port_number_out_of_range_is_said_to_be_one(port: str) -> None:
    """A tryout (s48) typed a port of 99999 and was told only 'the address is HOST:PORT',
    which he had typed: the line says the port is out of its range."""
    done = subprocess.run(
        [sys.executable, "-m", "deberc_net", "play", f"127.0.0.1:{port}", "--name", "x"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"deberc-net play: port {port} is out of range: a port is 1 to 65535 (HOST:PORT,"
        " e.g. 127.0.0.1:7501)\n"
    )
