"""The SQLite store's write transactions a game in a two-copy ladder, counted.

    .venv/bin/python bench/store_ladder_writes.py [--deals 100] [--processes 2]

Runs ``deberc-net ladder run`` as bench/ladder.py's ``in_process_2`` does (two seeded
random bots in-process, ``--processes`` forked copies of the ladder sharing one fresh
SQLite file), in a child whose ``sqlite3.connect`` traces every statement its
connections run (``set_trace_callback``: the forked copies inherit it) into a file;
then counts, per game: the transactions committed (``COMMIT``), the tries to take the
write lock (``BEGIN IMMEDIATE``, a refused one tried again while the other copy holds
it: tries less commits is about the refusals), the savepoints, the ``PRAGMA``s and
all statements. Counts, not times: the same for a tree however busy the machine is.
The tree measured is the one the child imports: run it from an empty directory with
``PYTHONPATH`` set to a tree to count that tree. Prints a line, then ONE JSON line.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

# the child: sqlite3.connect traced (appending whole lines: the copies share the file)
CHILD = """
import os, runpy, sqlite3, sys
trace = os.open(os.environ["STORE_TRACE"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
connect = sqlite3.connect
def traced(*args, **kwargs):
    db = connect(*args, **kwargs)
    db.set_trace_callback(lambda s: os.write(trace, (" ".join(s.split()[:2]) + "\\n").encode()))
    return db
sqlite3.connect = traced
sys.argv = ["deberc-net", *sys.argv[1:]]
runpy.run_module("deberc_net", run_name="__main__")
"""


def count(deals: int, processes: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace")
        argv = [sys.executable, "-c", CHILD, "ladder", "run", "--db", os.path.join(tmp, "l.db")]
        argv += ["--bot", "r1=py:clients.random_bot --seed 1"]
        argv += ["--bot", "r2=py:clients.random_bot --seed 2"]
        argv += ["--deals", str(deals), "--seed", "bench", "--concurrency", "4"]
        argv += ["--processes", str(processes), "--json"]
        env = {**os.environ, "STORE_TRACE": trace}
        done = subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=tmp, env=env)
        if done.returncode != 0:
            raise SystemExit(f"the ladder failed: {done.stderr[-2000:]}")
        games = json.loads(done.stdout)["games"]
        with open(trace, encoding="utf-8") as lines:
            kinds = collections.Counter(line.split(" ")[0].upper().strip() for line in lines)
    statements = sum(kinds.values())
    per_game = {
        "commits": kinds["COMMIT"],
        "begin_immediate_tries": kinds["BEGIN"],
        "savepoints": kinds["SAVEPOINT"],
        "pragmas": kinds["PRAGMA"],
        "statements": statements,
    }
    return {"games": games, **{k: round(v / games, 3) for k, v in per_game.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="boards (two games each)")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    result = count(args.deals, args.processes)
    print(
        f"{result['games']} games; a game: {result['commits']} commits,"
        f" {result['begin_immediate_tries']} BEGIN IMMEDIATE tries,"
        f" {result['savepoints']} savepoints, {result['pragmas']} PRAGMAs,"
        f" {result['statements']} statements"
    )
    print(json.dumps({"bench": "store_ladder_writes", **result}, sort_keys=True))


if __name__ == "__main__":
    main()
