"""Connected again after a server's restart, a client whose match was already over
says 'Connected again.', not that its seat was not kept: there was none to keep. A
tryout (s44): anna's client, its match lost by the clock before the restart, said
'your seat at table 4 was not kept'."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.play.link import Link
from clients.play.state import fold_all
from deberc_net.protocol.wire import parse_line
from tests.play.server import Heard, ServerThread, walked_out


@pytest.mark.timeout(90)
def test_a_match_over_before_a_restart_is_no_seat_lost(tmp_path: Path) -> None:
    heard = Heard()
    said, wait_for = heard.said, heard.index_of

    db = tmp_path / "db.sqlite3"
    first = ServerThread(db).__enter__()
    port = first.port
    link = Link("127.0.0.1", port, heard.deliver, name="roman")
    link.start()
    try:
        try:
            wait_for("ok cmd=login name=roman")
            assert link.send("new 2")
            table = parse_line(said[wait_for("ok cmd=sit")]).get_int("table")
            with walked_out(port, table):  # roman's match is over: he wins it
                ended = wait_for("kind=match-end")
        finally:
            first.__exit__()
        assert not first.errors, first.errors
        with ServerThread(db, port=port) as again:
            fence = wait_for("ok cmd=ping", wait_for("ok cmd=login name=roman", ended))
            assert not again.errors, again.errors
    finally:
        link.stop()
    log = fold_all(said[: fence + 1]).log
    assert "Connected again." in log, log[-4:]
    assert not any("was not kept" in x for x in log), log[-4:]
