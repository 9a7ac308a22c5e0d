"""A stalled server's writes racing another server's ending of it (docs/scaling.md):
what the store holds once both are done is one of the orders they could have come in,
never a mix of the two."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest

from .locks import WAIT_S, wait_until, waiting_for_locks
from .records import deal, raw
from .stalls import a_boards_seating_kept_after_a_stall, a_stalled_server, silence

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
        commits_late(postgres_url, "INSERT ON running", blocker)
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


def commits_late(url: str, writes: str, blocker: psycopg.Connection[Any]) -> None:
    """A transaction that ``writes`` (say ``INSERT ON running``) waits at its commit, its
    statements done, until ``blocker``'s transaction ends (a deferred trigger waits for
    an advisory lock ``blocker`` takes now)."""
    raw(
        url,
        "CREATE FUNCTION commit_late() RETURNS trigger LANGUAGE plpgsql AS"
        f" $$ BEGIN PERFORM pg_advisory_xact_lock({LATE_COMMIT}); RETURN NULL; END $$",
        f"CREATE CONSTRAINT TRIGGER commit_late AFTER {writes}"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_late()",
    )
    blocker.execute("SELECT pg_advisory_xact_lock(%s)", (LATE_COMMIT,))


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


def test_a_boards_release_during_a_deal_that_takes_a_kept_result_back_leaves_no_seating_kept(
    postgres_url: str,
) -> None:
    """A board's seating kept as lost (its server thought dead) is released while its
    server, back, stores its next deal (taking that result back: running again). The
    release sees the seating one way in all it does: taken as kept (listed, the deal then
    a plain match's), or as running (made a plain match). Forced: the deal's transaction
    waits at its commit, its statement done, while the release runs. Failed before: the
    release's first statement saw the kept result (left the seating a board's) and its
    second, after the deal's commit, saw it running (did not take it): the seating stayed
    its released board's, and its end was kept for a release that never comes again."""
    stalled, live = a_boards_seating_kept_after_a_stall(postgres_url)
    blocker = psycopg.connect(postgres_url)
    try:
        commits_late(postgres_url, "UPDATE ON running", blocker)
        with ThreadPoolExecutor(2) as pool:
            try:
                storing = pool.submit(stalled.add_deal, deal("m1", 2), "k1")
                wait_until(lambda: waiting_for_locks(blocker) == 1, "the deal at its commit")
                releasing = pool.submit(live.release_board, "k1")
                wait_until(
                    lambda: releasing.done() or waiting_for_locks(blocker) == 2, "the release"
                )
            finally:
                blocker.rollback()
            storing.result(timeout=WAIT_S)
            releasing.result(timeout=WAIT_S)
        stalled.finish_match(
            "m1", 3, ["ann", "Бо"], "moscow", [], "ann", "score", [301, 120], None, "k1"
        )
        game = live.finished_match("m1")
        assert game is not None and game["reason"] == "score"  # listed as it ended
    finally:
        blocker.close()
        stalled.close()
        live.close()


def test_a_deal_that_takes_a_kept_result_back_during_its_boards_release_plays_on_unboarded(
    postgres_url: str,
) -> None:
    """The other order: the release takes the kept seating (lists it as lost) and waits
    at its commit while the seating's server, back, stores its next deal. The deal waits
    for the release, then finds the match listed: it plays on as a plain match, listed
    as it ends. Forced: the release's transaction waits at its commit (a deferred trigger
    on its ``matches`` row). Failed before: the deal's statement had decided the running
    row's board (the match not listed yet, in its snapshot) before it waited for the
    release's delete of that row, and wrote it again as the released board's seating:
    its end was kept for a release that never comes again."""
    stalled, live = a_boards_seating_kept_after_a_stall(postgres_url)
    blocker = psycopg.connect(postgres_url)
    try:
        commits_late(postgres_url, "INSERT ON matches", blocker)
        with ThreadPoolExecutor(2) as pool:
            try:
                releasing = pool.submit(live.release_board, "k1")
                wait_until(lambda: waiting_for_locks(blocker) == 1, "the release at its commit")
                storing = pool.submit(stalled.add_deal, deal("m1", 2), "k1")
                wait_until(lambda: storing.done() or waiting_for_locks(blocker) == 2, "the deal")
            finally:
                blocker.rollback()
            assert releasing.result(timeout=WAIT_S) == 1
            storing.result(timeout=WAIT_S)
        stalled.finish_match(
            "m1", 3, ["ann", "Бо"], "moscow", [], "ann", "score", [301, 120], None, "k1"
        )
        game = live.finished_match("m1")
        assert game is not None and game["reason"] == "score"  # listed as it ended
    finally:
        blocker.close()
        stalled.close()
        live.close()
