"""An audit of docs/scaling.md's "Distributed ladders", promise by promise, on a real
PostgreSQL (docs/bots.md's own "Distributed ladders", the how-to: test_ladder_doc_audit.py).
Each promise, and (→) the tests that pin it, "here" for this module's.

`ladder run --distributed` queues a run's boards in `ladder_boards`, migration 5, its
columns `run_id`, board, spec, done, claimed_by, lease_until, claims
    → here: test_the_queue_is_the_table_and_the_code_the_page_names (the columns, on
      both dialects of migration 5); store/test_distributed_ladder.py (4 boards queued)
    the page said `run` for `run_id`: a slip, corrected
`ladder worker` claims with `FOR UPDATE SKIP LOCKED`: two workers never wait for, nor
get, one board
    → here: test_a_claim_skips_a_board_another_holds_and_a_lost_lease_stores_nothing (a
      board's row held by another transaction is passed over at once, not waited for);
      ladder/test_queue_retries.py (a board the worker holds not handed back)
under a lease renewed while they play (`--lease-s`, default 60, at most a day)
    → here: test_a_workers_lease_is_renewed_while_it_plays_a_board_longer_than_it (a
      real worker, a lease of 0.6 s, a board of seconds: the lease moved on, the board
      claimed once); ladder/test_ladder_run.py (the bounds), ladder/test_ladder_doc_audit.py
      test_a_workers_defaults_are_the_pages_and_it_takes_no_concurrency (the default)
a lease run out (a worker dead or stalled) is claimed again
    → store/test_distributed_ladder.py
      test_two_workers_one_killed_mid_board_give_the_results_of_a_local_run (claims ≥ 2);
    → here: test_a_claim_skips_a_board_another_holds_and_a_lost_lease_stores_nothing
play them on their own server and bots → store/test_distributed_ladder.py (the same
results as a single-machine run of the seed); here:
test_a_workers_lease_is_renewed_while_it_plays_a_board_longer_than_it (its games stored)
each board's games stored with the board marked done in one transaction, only while
they hold the lease (the page now says: a lease run out is still the worker's till
another claims the board, as docs/bots.md's "finds the board taken" has it; each board
stored once either way)
    → ladder/test_queue_retries.py
      test_a_board_completed_twice_is_stored_once_and_told_stored_both_times (a board
      not held: nothing stored);
    → here: test_a_claim_skips_a_board_another_holds_and_a_lost_lease_stores_nothing (a
      lease lost to another worker: nothing stored, the renewal says so; the other's
      store counts, once; a lease run out and taken by no one: stored; games the
      database refuses: the board not done, nothing of it stored, stored when tried
      again)
a run fails (a worker could not run one of its bots) or is cancelled (`ladder cancel
N`) through `ladder_runs.stopped` (migration 9)
    → here: test_the_queue_is_the_table_and_the_code_the_page_names (the column, and
      migration 9 adds it); ladder/test_queue_stops.py (both written there)
its boards then neither claimed, renewed nor stored, and it is never counted
    → ladder/test_queue_stops.py test_a_cancelled_run_is_out_of_the_queue,
      test_a_failed_run_unleases_the_boards_of_its_worker_and_is_never_counted,
      test_a_whole_run_is_not_failed_and_a_stopped_one_is_not_counted;
      store/test_distributed_stops.py (real waiters and workers, both stops)
docs/bots.md (Distributed ladders) says how; the code: `deberc_net/ladder/queue.py`,
`distributed.py`, `worker.py`, `run_stop.py`, `cancel.py`
    → here: test_the_queue_is_the_table_and_the_code_the_page_names
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from datetime import datetime
from pathlib import Path

import psycopg
import pytest

from deberc_net.ladder.queue import BoardQueue, Claim
from deberc_net.server.store import StoreError
from deberc_net.server.store.migrations import MIGRATIONS
from tests.ladder.board_queue import new_run, query, results
from tests.ladder.helpers import RAND, ladder_argv, script
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 (fixtures)
from tests.store.distributed import ladder_worker, queued, wait_for

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "scaling.md").read_text()
SECTION = DOC.split("## Distributed ladders", 1)[1].split("\n## ", 1)[0]

COLUMNS = ["run_id", "board", "spec", "done", "claimed_by", "lease_until", "claims"]

# a worker's lease in the lease test: renewed every 0.2 s (the worker alone: none is lost)
LEASE_S = 0.6
# a bot that thinks a while at each call: a board outlasts a lease of LEASE_S
SLOW = """\
import random, time
from clients.client import Bot, bot_arguments, run_to_end
args = bot_arguments("slow").parse_args()
rng = random.Random(1)
def choose(view):
    time.sleep(0.05)
    return rng.choice(view.legal)
run_to_end(Bot(choose, args.name, args.host, args.port, seek=args.seek))
"""


# a board's store held a while (the transaction that marks it done): a renewal asked
# meanwhile (every LEASE_S / 3) waits for the worker's connection, and finds it done
SLOW_STORE = f"""
CREATE FUNCTION slow_store() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_sleep({LEASE_S / 2}); RETURN NULL; END $$;
CREATE TRIGGER slow_store AFTER UPDATE ON ladder_boards
    FOR EACH ROW WHEN (NEW.done AND NOT OLD.done) EXECUTE FUNCTION slow_store();
"""


# the database refusing a board's games (their insert), the board's update let through
REFUSING_GAMES = b"""
CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'no games today'; END $$;
CREATE TRIGGER refuse BEFORE INSERT ON ladder_games FOR EACH ROW EXECUTE FUNCTION refuse();
"""


@pytest.mark.timeout(60)
def test_the_queue_is_the_table_and_the_code_the_page_names(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    said = re.search(r"`ladder_boards` \(migration (\d+): ([^)]*)\)", SECTION)
    assert said is not None
    assert [c.strip() for c in said.group(2).replace("`", "").split(",")] == COLUMNS
    columns = query(postgres_url, "SELECT column_name FROM information_schema.columns"
                    " WHERE table_name = 'ladder_boards' ORDER BY ordinal_position")  # fmt: skip
    assert [c for (c,) in columns] == COLUMNS
    by_number = {m.number: m for m in MIGRATIONS}
    created = by_number[int(said.group(1))]
    for text in (created.sqlite, created.postgres):
        made = text.split("CREATE TABLE ladder_boards (", 1)[1].split(");", 1)[0]
        assert [line.split()[0] for line in made.strip().splitlines()][:-1] == COLUMNS
    stopped = re.search(r"`ladder_runs\.stopped`\s+\(migration (\d+)\)", SECTION)
    assert stopped is not None
    adds = by_number[int(stopped.group(1))]
    for text in (adds.sqlite, adds.postgres):
        assert re.search(r"ALTER TABLE ladder_runs ADD COLUMN stopped\b", text), text
    assert query(postgres_url, "SELECT stopped FROM ladder_runs") == []  # (there)
    for name in re.findall(r"`(?:deberc_net/ladder/)?(\w+\.py)`", SECTION):
        assert (ROOT / "deberc_net" / "ladder" / name).is_file(), name
    assert "## Distributed ladders" in (ROOT / "docs" / "bots.md").read_text()


@pytest.mark.timeout(60)
def test_a_claim_skips_a_board_another_holds_and_a_lost_lease_stores_nothing(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    queue, run = new_run(postgres_url, 2)
    other = BoardQueue(postgres_url, "ladder worker", limit_s=30.0)
    try:
        # board 1's row held by another transaction (a worker mid-claim): passed over
        with psycopg.connect(postgres_url) as holder:
            holder.execute(b"SELECT 1 FROM ladder_boards WHERE board = 1 FOR UPDATE")
            got: list[Claim | None] = []
            claiming = threading.Thread(target=lambda: got.append(other.claim("w2", 60.0)))
            claiming.start()
            claiming.join(30.0)  # (one that passes over the row ends at once)
            waited = claiming.is_alive()
        claiming.join(10.0)  # (the row let go: a claim that waited ends now)
        assert not waited, "the claim waited for a board another transaction held"
        assert [(c.run, c.board) for c in got if c] == [(run, 2)]
        # w2's lease on board 2 run out, no other worker claiming it: still w2's to store
        with psycopg.connect(postgres_url) as conn:
            conn.execute(b"UPDATE ladder_boards SET lease_until = now() - interval '1 s'"
                         b" WHERE board = 2")  # fmt: skip
        assert other.complete("w2", run, 2, results(2)) is True
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(2,)]
        # w1 holds board 1; its lease renewed moves on
        first = queue.claim("w1", 60.0)
        assert first is not None and first.board == 1
        lease = "SELECT lease_until FROM ladder_boards WHERE board = 1"
        ((before,),) = query(postgres_url, lease)
        assert queue.renew("w1", 120.0, run, [1]) == []
        ((after,),) = query(postgres_url, lease)
        assert isinstance(before, datetime) and isinstance(after, datetime) and after > before
        # its lease run out (w1 stalled): w3 claims the board, w1 stores nothing of it
        with psycopg.connect(postgres_url) as conn:
            conn.execute(b"UPDATE ladder_boards SET lease_until = now() - interval '1 s'"
                         b" WHERE board = 1")  # fmt: skip
        taken = other.claim("w3", 60.0)
        assert taken is not None and (taken.run, taken.board) == (run, 1)
        assert query(postgres_url, "SELECT claimed_by, claims FROM ladder_boards"
                     " WHERE board = 1") == [("w3", 2)]  # fmt: skip
        assert queue.renew("w1", 60.0, run, [1]) == [1]  # lost, says the renewal
        assert queue.complete("w1", run, 1, results(1)) is False
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(2,)]  # (board 2's)
        assert other.complete("w3", run, 1, results(1)) is True
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(4,)]
        assert query(postgres_url, "SELECT done, lease_until FROM ladder_boards"
                     " WHERE board = 1") == [(True, None)]  # fmt: skip
        assert queue.complete("w1", run, 1, results(1)) is False  # (and not after)
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(4,)]
        # one transaction: games the database refuses leave the board not done
        later, second = new_run(postgres_url, 1)
        later.close()
        third = queue.claim("w1", 60.0)
        assert third is not None and (third.run, third.board) == (second, 1)
        with psycopg.connect(postgres_url) as conn:
            conn.execute(REFUSING_GAMES)
        with pytest.raises(StoreError):
            queue.complete("w1", second, 1, results(1))
        board = f"SELECT done FROM ladder_boards WHERE run_id = {second}"
        assert query(postgres_url, board) == [(False,)]
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(4,)]
        with psycopg.connect(postgres_url) as conn:
            conn.execute(b"DROP TRIGGER refuse ON ladder_games")
        assert queue.complete("w1", second, 1, results(1)) is True
        assert query(postgres_url, board) == [(True,)]
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(6,)]
    finally:
        queue.close()
        other.close()


@pytest.mark.timeout(90)
def test_a_workers_lease_is_renewed_while_it_plays_a_board_longer_than_it(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """A renewal that finds the board its worker has just stored done: not a lease lost.
    Failed before: ``leases_lost`` logged for the board stored."""
    BoardQueue(postgres_url).close()  # the tables, for the trigger
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(SLOW_STORE.encode())
    deadline = time.monotonic() + 60
    slow = script(tmp_path, "slow", SLOW)
    args = ["--bot", slow, "--bot", RAND, "--deals", "1", "--seed", "lease"]
    args += ["--concurrency", "1", "--json", "--distributed"]
    waiter = subprocess.Popen(
        ladder_argv(postgres_url, *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    processes = [waiter]
    try:
        wait_for("the board queued", lambda: queued(postgres_url) == 1, deadline)
        worker = ladder_worker(postgres_url, tmp_path / "worker.log", str(LEASE_S))
        processes.append(worker)
        leases: list[datetime] = []  # as the board is played
        with psycopg.connect(postgres_url, autocommit=True) as watch:
            while True:
                row = watch.execute(b"SELECT done, lease_until FROM ladder_boards").fetchone()
                assert row is not None
                if row[0]:
                    break
                if row[1] is not None and row[1] not in leases:
                    leases.append(row[1])
                assert time.monotonic() < deadline, "the board was not played"
                time.sleep(0.05)
        out, err = waiter.communicate(timeout=max(1.0, deadline - time.monotonic()))
        assert waiter.returncode == 0, err[-2000:]
        assert worker.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    # played for longer than a lease, renewed as it went (a third of it each time)
    assert len(leases) >= 3, leases
    assert (leases[-1] - leases[0]).total_seconds() > LEASE_S
    assert query(postgres_url, "SELECT done, claims FROM ladder_boards") == [(True, 1)]
    assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(2,)]
    assert '"games": 2' in out
    log = (tmp_path / "worker.log").read_text()
    assert "leases_lost" not in log and "Traceback" not in log, log
