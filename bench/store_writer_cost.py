"""The store writer's CPU a deal: ``add_deal`` at every deal and ``finish_match`` at
the end, as a table's writes reach server/store_writer.py's thread, in two trees.

    .venv/bin/python bench/store_writer_cost.py --base /work/main [--tree .]
        [--matches 40] [--deals 8] [--repeat 5] [--backend sqlite --backend postgres]

Each run is a child process that imports the store from its tree, opens a fresh store
(``serving=True``: an SQLite file, or a database on a throw-away PostgreSQL server,
tests/store/postgres_server.py, fsync off), stores one match to warm up, then
``--matches`` matches of ``--deals`` real deal records (``selfplay``'s, the same for
both trees) and finishes each, its last deal and its finish in one ``Store.group``
where the tree has it (as the table's one job for them); it reports the calling
thread's CPU (``thread_time``: what the writer thread spends, not PostgreSQL's) a
deal, split into the deals' writes and the ends' (the last deal with the finish), and,
counted on untimed matches (noise-free), the Python calls a deal and (SQLite) the SQL
statements a match. The trees take turns, ``--repeat`` times each; printed: min and
median per tree, and the tree's medians over the base's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def sample_records(count: int) -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT))
    from deberc_net.plugins import RuleBook
    from deberc_net.selfplay import run as selfplay

    out = io.StringIO()
    selfplay(RuleBook.load().ruleset(2, "moscow", []), 5, "bench", out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    return [records[i % len(records)] for i in range(count)]


def child(tree: str, records_path: str, db: str, matches: int, deals: int) -> None:
    """One run in ``tree``: prints its figures as one JSON line."""
    sys.path.insert(0, tree)
    from deberc_net.server.store import open_store

    records = json.loads(Path(records_path).read_text())
    store = open_store(db, serving=True)
    statements = [0]
    traced = getattr(store, "_db", None)  # (SQLite: count what it runs, untimed)

    # the match's end, its last deal and its finish, is one job of the writer's: one
    # group of the store's where the tree has them (one SQLite transaction)
    group = getattr(store, "group", contextlib.nullcontext)

    def play(number: int, timed: bool) -> tuple[float, float]:
        match = f"m{number}"
        seeds = {n: f"bench/{n}" for n in range(1, deals + 1)}
        played = [{**records[n - 1], "match": match, "deal_no": n} for n in seeds]
        add = 0.0
        for record in played[:-1]:
            start = time.thread_time()
            store.add_deal(record)
            add += time.thread_time() - start
        start = time.thread_time()
        with group():
            store.add_deal(played[-1])
            store.finish_match(match, 1, ["a", "b"], "moscow", [], "a", "score", [301, 0], seeds)
        return add, time.thread_time() - start

    calls = [0]

    def count(_frame: object, event: str, _arg: object) -> None:
        if event in ("call", "c_call"):
            calls[0] += 1

    try:
        if traced is not None:
            traced.set_trace_callback(lambda _sql: statements.__setitem__(0, statements[0] + 1))
        play(1, False)  # warm: its statements counted (SQLite)
        if traced is not None:
            traced.set_trace_callback(None)
        sys.setprofile(count)  # the next one's Python calls counted (this thread's)
        play(2, False)
        sys.setprofile(None)
        add = finish = 0.0
        for number in range(3, matches + 3):
            a, f = play(number, True)
            add += a
            finish += f
    finally:
        store.close()
    total = matches * deals
    print(
        json.dumps(
            {
                "add_us": add / total * 1e6,
                "finish_us": finish / total * 1e6,
                # (the warm-up match's: its first statements include none of opening)
                "statements": statements[0] if traced is not None else None,
                "calls": calls[0] / deals,
            }
        )
    )


def run_child(tree: str, records: str, db: str, args: argparse.Namespace) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", tree, records, db, str(args.matches),
         str(args.deals)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        tree, records, db, matches, deals = sys.argv[2:7]
        child(tree, records, db, int(matches), int(deals))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", required=True, help="the tree to compare against")
    parser.add_argument("--tree", default=str(ROOT))
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgres"])
    args = parser.parse_args()
    backends = args.backend or ["sqlite", "postgres"]
    trees = {"base": str(Path(args.base).resolve()), "tree": str(Path(args.tree).resolve())}
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        records = Path(folder) / "records.json"
        records.write_text(json.dumps(sample_records(args.deals)))
        server = None
        if "postgres" in backends:
            sys.path.insert(0, str(ROOT))
            from tests.store.postgres_server import PostgresServer

            server = PostgresServer.start()
        try:
            for turn in range(args.repeat):
                order = list(trees) if turn % 2 == 0 else list(reversed(trees))
                for backend in backends:
                    for name in order:
                        if server is not None and backend == "postgres":
                            db = server.new_database()
                        else:
                            db = str(Path(folder) / f"{name}-{turn}.sqlite3")
                        runs.setdefault((backend, name), []).append(
                            run_child(trees[name], str(records), db, args)
                        )
                        if server is not None and backend == "postgres":
                            server.drop_database(db)
        finally:
            if server is not None:
                server.stop()
    print(f"{args.matches} matches of {args.deals} deals a run, {args.repeat} runs a tree")
    print("CPU of the writer's thread, µs a deal: min / median")
    for backend in backends:
        medians = {}
        for name in trees:
            found = runs[(backend, name)]
            adds = [r["add_us"] for r in found]
            finishes = [r["finish_us"] for r in found]
            both = [a + f for a, f in zip(adds, finishes, strict=True)]
            medians[name] = statistics.median(both)
            count = found[0]["statements"]
            print(
                f"{backend:8} {name:4} add_deal {min(adds):6.1f} / {statistics.median(adds):6.1f}"
                f"  end {min(finishes):6.1f} / {statistics.median(finishes):6.1f}"
                f"  both {min(both):6.1f} / {medians[name]:6.1f}"
                f"  Python calls a deal {found[0]['calls']:.0f}"
                + ("" if count is None else f"  statements a match {count}")
            )
        print(f"{backend:8} tree / base (medians): {medians['tree'] / medians['base']:.3f}")


if __name__ == "__main__":
    main()
