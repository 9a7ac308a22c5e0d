"""/games/ID's read of the store (server/web/replays.py: finished_match_read) when the match
ends while it reads."""

from __future__ import annotations

from pathlib import Path

from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.server.web.replays import finished_match_read
from tests.store.records import deal


class EndsAfterItsFirstRead(SQLiteStore):
    """A real store whose running match is marked over just after a read of its records
    (the table's writer finishing it between the web face's two reads)."""

    def match_records(self, match_id: str) -> list[str]:
        found = super().match_records(match_id)
        if self.finished_match(match_id) is None:
            self.finish_match(match_id, 3, ["ann", "Бо"], "moscow", [], "ann", "score", [301, 0])
        return found


def test_a_match_that_ends_between_the_reads_is_read_with_its_deals(tmp_path: Path) -> None:
    store = EndsAfterItsFirstRead(tmp_path / "deberc.sqlite3")
    try:
        store.add_deal(deal("m1", 1))
        store.add_deal(deal("m1", 2))
        records, _ = finished_match_read(store, "m1")
        assert [r["deal_no"] for r in records] == [1, 2]  # not 'no deal was played'
    finally:
        store.close()


def test_a_match_unknown_or_running_is_read_as_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "deberc.sqlite3")
    try:
        store.add_deal(deal("m1", 1))  # running: its records withheld
        assert finished_match_read(store, "m1") == finished_match_read(store, "m9") == ([], None)
    finally:
        store.close()
