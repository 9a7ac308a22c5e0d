"""The distributed ladder's queue on a real PostgreSQL: what its patient connection waits
out and what it does not, and each of its writes run twice in a row, as a try whose
commit landed but whose answer was lost is run again (patience.py): the second run
changes nothing (docs/bots.md "Distributed ladders")."""

from __future__ import annotations

import json
from typing import Any

import psycopg
import pytest

from deberc_net.ladder.distributed import count_and_finish, spec_of
from deberc_net.ladder.queue import BoardQueue
from deberc_net.ladder.ratings import Ratings
from deberc_net.ladder.results import Summary
from deberc_net.ladder.runner import LadderOptions
from deberc_net.ladder.supervisor import BotSpec
from deberc_net.server.store import StoreError
from tests.ladder.board_queue import new_run, played_run, query, results
from tests.ladder.helpers import run_cli
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 (fixtures)

WAITING = "waiting for the database at"


def _raise(sqlstate: str) -> str:
    return f"DO $$ BEGIN RAISE EXCEPTION 'made to fail' USING ERRCODE = '{sqlstate}'; END $$"


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("what", "sql"),
    [
        ("unique violation", "INSERT INTO ladder_boards SELECT * FROM ladder_boards"),
        ("syntax error", "SELEC 1"),
        ("lock not available (55P03)", _raise("55P03")),  # an OperationalError
        ("a system error (58000)", _raise("58000")),  # an OperationalError too
    ],
)
def test_an_error_no_wait_mends_fails_at_once_with_its_own_message(
    postgres_url: str,  # noqa: F811 (the fixture)
    capsys: pytest.CaptureFixture[str],
    what: str,
    sql: str,
) -> None:
    """Failed before: an OperationalError of any SQLSTATE was waited out up to the limit
    (``did not answer for 30 s; gave up``), and any other error escaped as psycopg's
    own exception (the CLI's traceback)."""
    queue, _ = new_run(postgres_url, 1)
    try:
        with pytest.raises(StoreError) as caught:
            queue.db.run(lambda db: db.execute(sql.encode()))
        assert "did not answer" not in str(caught.value)
        assert str(caught.value).startswith("the database refused: ")
        assert queue.progress(1) == (0, 1)  # the connection still serves
    finally:
        queue.close()
    assert WAITING not in capsys.readouterr().err


@pytest.mark.timeout(60)
@pytest.mark.parametrize("sqlstate", ["40001", "40P01", "53300", "57P03", "08006"])
def test_a_passing_state_of_the_server_is_waited_out(
    postgres_url: str,  # noqa: F811 (the fixture)
    capsys: pytest.CaptureFixture[str],
    sqlstate: str,
) -> None:
    """A serialization failure, a deadlock, too many connections, a server starting,
    a connection failure: the transaction runs again (its first try only fails)."""
    queue, _ = new_run(postgres_url, 1)
    tries: list[int] = []

    def work(db: psycopg.Connection[Any]) -> int:
        tries.append(1)
        if len(tries) == 1:
            db.execute(_raise(sqlstate).encode())
        return 7

    try:
        assert queue.db.run(work) == 7
    finally:
        queue.close()
    assert len(tries) == 2
    assert WAITING in capsys.readouterr().err


@pytest.mark.timeout(60)
def test_a_claim_run_again_takes_up_the_board_its_lost_answer_leased(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    """Failed before: the second try leased board 2 too, and board 1 stayed leased to a
    worker that did not know it (played again only once that lease ran out)."""
    queue, run = new_run(postgres_url, 3)
    try:
        first = queue.claim("w1", 60.0)
        again = queue.claim("w1", 60.0)  # the same call, its answer lost
        assert first is not None and again is not None
        assert (again.run, again.board) == (first.run, first.board) == (run, 1)
        leased = query(postgres_url, "SELECT board, claimed_by, claims FROM ladder_boards"
                       " WHERE lease_until IS NOT NULL ORDER BY board")  # fmt: skip
        assert leased == [(1, "w1", 1)]
        # in the run's ladder, the boards it holds are said: the next is a new one
        nxt = queue.claim("w1", 60.0, run, holding=[1])
        assert nxt is not None and nxt.board == 2
        assert queue.claim("w1", 60.0, run, holding=[1, 2]) == nxt.__class__(run, 3, {})
        assert queue.claim("w2", 60.0) is None  # all leased
    finally:
        queue.close()


@pytest.mark.timeout(60)
def test_a_board_completed_twice_is_stored_once_and_told_stored_both_times(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    """Failed before: the second try said False (the worker logged ``board_lost`` and did
    not count the board it had stored)."""
    queue, run = new_run(postgres_url, 2)
    try:
        claim = queue.claim("w1", 60.0)
        assert claim is not None and claim.board == 1
        assert queue.complete("w1", run, 1, results(1)) is True
        assert queue.complete("w1", run, 1, results(1)) is True
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(2,)]
        assert queue.progress(run) == (1, 2)
        # another worker's board, or one not held: nothing stored
        assert queue.complete("w2", run, 1, results(1)) is False
        assert queue.complete("w1", run, 2, results(2)) is False
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(2,)]
        # enqueue and renew, run again, change nothing either
        queue.enqueue(run, [(1, {"seed": "other", "seatings": []})])
        assert query(postgres_url, "SELECT count(*) FROM ladder_boards") == [(2,)]
        assert queue.renew("w1", 60.0, run, [1]) == [1]  # done: held no more
    finally:
        queue.close()


@pytest.mark.timeout(60)
def test_a_run_counted_twice_by_its_counter_counts_once_and_says_finished(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    """The count's transaction run again after its commit: its own summary found, the
    same summary returned, the ratings' games added once. Failed before: the second
    try said the run was "finished meanwhile (by another process)"."""
    queue, run, options, games = played_run(postgres_url, "twice")
    tried: list[tuple[str, Summary]] = []
    try:
        first = queue.db.run(lambda db: count_and_finish(db, run, options, "twice", games,
                                                         0.0, tried))  # fmt: skip
        ratings = query(postgres_url, "SELECT bot, mu, sigma, games FROM ladder_ratings")
        again = queue.db.run(lambda db: count_and_finish(db, run, options, "twice", games,
                                                         0.0, tried))  # fmt: skip
        assert first is not None and again is first
        assert query(postgres_url, "SELECT bot, mu, sigma, games FROM ladder_ratings") == ratings
        assert sorted((bot, n) for bot, _, _, n in ratings) == [("a", 2), ("b", 2)]
        # another process's count (not this one's tries): None, nothing written
        other = queue.db.run(lambda db: count_and_finish(db, run, options, "twice", games,
                                                         0.0, []))  # fmt: skip
        assert other is None
        assert query(postgres_url, "SELECT bot, mu, sigma, games FROM ladder_ratings") == ratings
    finally:
        queue.close()


@pytest.mark.timeout(60)
def test_a_run_counted_after_another_rated_its_bots_builds_on_that_rating(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    """Two runs rating the same bots, the second counted after the first finished: it
    starts from the first's ratings (read in its own transaction), as if run after it.
    Failed before: the waiter counted from the leaderboard it read when it queued the
    run, and overwrote the first run's ratings."""
    one, run1, options, games = played_run(postgres_url, "same")
    two, run2, _, _ = played_run(postgres_url, "same")
    try:
        count = count_and_finish
        first = one.db.run(lambda db: count(db, run1, options, "same", games, 0.0, []))
        second = two.db.run(lambda db: count(db, run2, options, "same", games, 0.0, []))
    finally:
        one.close()
        two.close()
    assert first is not None and second is not None
    expected = Ratings.carried_on(["a", "b"], first.as_dict()["ratings"])
    for game in games:  # the same games again, from the first run's ratings
        expected.update(game.seating, [100, 62 + games.index(game)])
    stored = query(postgres_url, "SELECT bot, mu, sigma, games FROM ladder_ratings ORDER BY bot")
    by_bot = {r["bot"]: r for r in expected.table()}
    assert [(b, mu, sigma, n) for b, mu, sigma, n in stored] == [
        (b, by_bot[b]["mu"], by_bot[b]["sigma"], 4) for b in ("a", "b")
    ]
    assert second.as_dict()["ratings"] == expected.table()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("json_out", [False, True])
def test_finishing_a_run_with_no_boards_or_none_at_all_is_one_line(
    postgres_url: str,  # noqa: F811 (the fixture)
    json_out: bool,
) -> None:
    """A distributed run whose ``ladder run`` stopped before queuing its boards, and a
    run that does not exist: one line, status 2, nothing written. Failed before: a
    ZeroDivisionError (the progress bar) or a KeyError (``--json``), with a traceback."""
    spec = spec_of(LadderOptions(bots=[BotSpec("a", "x"), BotSpec("b", "y")], deals=1), "none")
    BoardQueue(postgres_url).close()  # the tables
    ((run,),) = query(postgres_url, "INSERT INTO ladder_runs (settings) VALUES (%s) RETURNING id",
                      json.dumps({"distributed": spec}))  # fmt: skip
    more = ["--json"] if json_out else []
    empty = run_cli(["ladder", "finish", str(run), "--db", postgres_url, *more])
    assert (empty.returncode, empty.stdout) == (2, "")
    assert empty.stderr.strip() == (
        f"deberc-net ladder finish: run {run} has no boards queued: there is nothing to finish"
    )
    missing = run_cli(["ladder", "finish", str(run + 1), "--db", postgres_url, *more])
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr.strip() == f"deberc-net ladder finish: there is no run {run + 1}"
    assert query(postgres_url, "SELECT summary FROM ladder_runs") == [(None,)]
    assert query(postgres_url, "SELECT count(*) FROM ladder_ratings") == [(0,)]


@pytest.mark.timeout(60)
def test_a_board_the_worker_holds_is_not_claimed_again_once_its_lease_ran_out(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    """A worker whose renewal came late (a stall, a database away longer than a lease)
    asks for another board: one it holds, its lease run out and taken by no one, is not
    handed back to it (it would play the board's seatings a second time); the renewal
    keeps it. Failed before: the claim returned the held board 1."""
    queue, run = new_run(postgres_url, 2)
    try:
        first = queue.claim("w1", 60.0, run)
        assert first is not None and first.board == 1
        with psycopg.connect(postgres_url) as conn:  # the lease ran out (no one took it)
            conn.execute(b"UPDATE ladder_boards SET lease_until = now() - interval '1 s'")
        nxt = queue.claim("w1", 60.0, run, holding=[1])
        assert nxt is not None and nxt.board == 2
        assert queue.renew("w1", 60.0, run, [1, 2]) == []
    finally:
        queue.close()
