"""A stalled server's writes racing another server's ending of it (docs/scaling.md):
what the store holds once both are done is one of the orders they could have come in,
never a mix of the two."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from .test_stalled_server import WAIT_S, a_stalled_server, wait_until, waiting_for_locks
from .test_store import _raw, a_boards_seating_kept_after_a_stall, deal, silence

LATE_COMMIT = 0x6C617465  # the advisory lock a running row's commit waits for, below


def test_a_matchs_first_deal_committed_during_an_ending_leaves_no_running_row_without_its_server(
    postgres_url: str,
) -> None:
    """A stalled server stores the first deal of a new match while another server ends
    it as dead: either the ending waits for the deal (and ends that match too), or the
    deal waits for the ending (and the server is alive again with it). The interleaving
    is forced: the first deal's transaction waits at its commit (a deferred trigger on
    the running row waits for a lock a third connection holds), its statement done.
    Failed before: the ending went on meanwhile, deleted the server's row without
    seeing the match's uncommitted running row, and that row was left with no server
    (a live match ended by the next heartbeat, whoever beat)."""
    with a_stalled_server(postgres_url) as (stalled, live, blocker):
        _raw(
            postgres_url,
            "CREATE FUNCTION commit_late() RETURNS trigger LANGUAGE plpgsql AS"
            f" $$ BEGIN PERFORM pg_advisory_xact_lock({LATE_COMMIT}); RETURN NULL; END $$",
            "CREATE CONSTRAINT TRIGGER commit_late AFTER INSERT ON running"
            " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_late()",
        )
        blocker.execute("SELECT pg_advisory_xact_lock(%s)", (LATE_COMMIT,))
        with ThreadPoolExecutor(2) as pool:
            try:
                storing = pool.submit(stalled.add_deal, deal("m2", 1))
                wait_until(lambda: waiting_for_locks(blocker) == 1, "the deal at its commit")
                ending = pool.submit(live.heartbeat, 30.0)
                # (before the fix the ending was done at once; now it waits for the deal)
                wait_until(lambda: ending.done() or waiting_for_locks(blocker) == 2, "the end")
            finally:
                blocker.rollback()
            storing.result(timeout=WAIT_S)
            ending.result(timeout=WAIT_S)
        assert unowned_running_rows(postgres_url) == []
        assert live.heartbeat(30.0) == 0  # nothing of a live server's left to end


def unowned_running_rows(url: str) -> list[str]:
    """The running matches without a board's kept result whose server has no row."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT match_id FROM running WHERE result IS NULL"
            " AND server NOT IN (SELECT id FROM servers) ORDER BY match_id"
        ).fetchall()
    return [match for (match,) in rows]


@pytest.mark.parametrize("back_by", ["its heartbeat", "its deal"])
@pytest.mark.parametrize("then", ["stops", "dies"])
def test_a_boards_seating_played_on_after_a_stall_is_listed_as_its_last_stop_left_it(
    store_db: str, back_by: str, then: str
) -> None:
    """A board's seating whose server was thought dead (its result kept for the
    release: lost after deal 1) and that played on, then stopped cleanly or died again
    before the release: the release lists it as that last stop left it, the totals
    after its last deal. Failed before: the first ending's kept result stayed (the
    running row had a result, so the stop and the ending passed it by), and the
    release listed 'server-lost' after deal 1."""
    stalled, live = a_boards_seating_kept_after_a_stall(store_db)
    try:
        assert stalled.server_id is not None
        if back_by == "its heartbeat":
            assert stalled.heartbeat(30.0) == 0
        stalled.add_deal(deal("m1", 2), board="k1")
        stalled.add_deal(deal("m1", 3), board="k1")
        if then == "dies":
            silence(store_db, stalled.server_id)
            assert live.heartbeat(30.0) == 0
    finally:
        stalled.close()
    try:
        assert live.release_board("k1") == 1
        game = live.finished_match("m1")
        assert game is not None
        reason = "shutdown" if then == "stops" else "server-lost"
        assert (game["reason"], game["totals"]) == (reason, [30, 60])
    finally:
        live.close()
