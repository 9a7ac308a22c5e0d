"""An audit of docs/bots.md's "Ladders" section: its promises a bot writer relies on, and
(→) the tests that pin them, "here" for this module's. Most items of the section name
their own test module; those are listed, and what no test pinned is pinned here.

§Ladders the example's command (`heur` v `rand`, `--players 2`), then `ladder table`
    → ladder/test_ladder_defaults.py, ladder/test_ladder_run.py (a ladder of the
      reference bots and its table)
§Bots `--concurrency` copies (default 2) named `NAME-1`, `NAME-2`, each given `--host H
--port P --name NAME-i --seek reserved` appended
    → here: test_a_bots_copies_get_the_documented_command_lines
§Bots a command with `{host}`, `{port}` or `{name}` has them filled in and nothing
appended → here: test_a_bots_copies_get_the_documented_command_lines
§Bots a bot's `ask` says `clock=3500` with the default `--clock-ms` 3000 (plus the lag
allowance of 500 ms) → here: test_a_bots_copies_get_the_documented_command_lines;
→ ladder/test_boards.py (`lag_ms` 500)
§Bots, Cores: the defaults `--concurrency` 2, `--clock-ms` 3000, `--away-ms` 5000,
`--processes` 1, as `ladder run --help` says them
    → here: test_ladder_runs_defaults_are_the_pages;
    → ladder/test_ladder_defaults.py (`--db`)
§the numbers the section gives: 30 s for every copy to log in; a bot that cannot start
exits 3 times each within 2 s; keeps exiting past 20 restarts in 10 minutes; SIGKILL
2 s after SIGTERM; 600 bytes of last words; 10,000 lines waiting; `ping` every 60 s on
a `--server`; a line not taken in 3 s; releases waited for 3 s, asked again after 0.25 s
to 5 s; the interrupted line's words
    → here: test_the_numbers_the_ladder_section_gives (the behaviour: the modules below,
      which shorten some of them)
§Bots restarts, the token file, cannot start, 30 s to log in, keeps exiting, refused
input → ladder/test_refused_input.py, test_quick_exits.py, test_restart_rate.py,
test_imports_before_run.py
§Bots hangs and nonsense: the clock, forfeits, `--away-ms` → ladder/test_forfeit_ratings.py
§Variant and options; refused input; process groups; a table that fails; a bot's output;
a bot's faults; in-process bots; cores; server; admin connection → the modules each item
names (test_ladder_run.py, test_refused_input.py, test_bot_group.py,
test_table_failure.py, test_bot_output.py, test_bot_faults.py, test_in_process.py,
test_processes.py, test_admin_connection.py)
§A bot's output: up to 10,000 lines wait for a standard error read slowly, more are
dropped and counted (`ladder: N lines of the bots dropped: stderr was not read`)
    → here: test_lines_past_the_ten_thousand_waiting_are_dropped_and_counted;
    → ladder/test_bot_output.py (the thread, the names, the last words)
§Duplicate boards, seed, no early knowledge → ladder/test_boards.py; ladder/test_schedule.py
§Seeding a bot per board: `run_bot` reseeds `rng` with `f"{seed}/{KEY}"`
    → ladder/test_boards.py (one board, any concurrency, the same play);
    → here: test_run_bot_reseeds_its_rng_with_the_seed_and_the_board_key
§Schedule: round robin, `--schedule gauntlet` → ladder/test_schedule.py
§Statistics, deals won are not points, margins, SPRT → ladder/test_report_text.py,
test_stats.py, test_forfeit_ratings.py, test_pair_order.py
§Output `--json`: the summary as one object with exactly the keys listed, a pair's
`void_draws`, `points_los`, `points_per_deal`, `duplicate_sets`
    → here: test_the_json_summary_has_the_fields_the_page_lists
§Ratings, order, stored, interrupted, killed outright → ladder/test_stats.py,
test_interrupted.py, test_processes.py, test_board_release_order.py
§In-process bots: a `MODULE.py` in the current directory is found (→
ladder/test_docs_bots.py, `py:counting_bot`); that it never shadows an installed module
of its name is not pinned (in the tests' process every such module is imported
already): left
§results reproducible for a seed with any `--concurrency` and `--processes`, told all or
only the asks → ladder/test_processes.py test_two_processes_play_the_ladder_one_plays,
ladder/test_in_process.py (told all or only asks)

§"Distributed ladders" (a real PostgreSQL: the modules named, not repeated here;
docs/scaling.md's own paragraph on them, read promise by promise:
ladder/test_distributed_doc_audit.py)
§ `ladder run --distributed` queues, waits, reports as one machine; its line; checks the
commands first; `--sprt`, `--server` refused → store/test_distributed_ladder.py,
store/test_distributed_stops.py
§ `ladder finish`: counts once, its refusals → store/test_distributed_stops.py,
ladder/test_board_release_order.py
§ `ladder worker`: SKIP LOCKED claims, `--lease-s` (default 60, at most a day),
`--exit-when-done`, the run's `--concurrency` (the worker has no such flag)
    → ladder/test_ladder_run.py (`--lease-s`'s bounds), ladder/test_queue_stops.py,
      store/test_distributed_ladder.py;
    → here: test_a_workers_defaults_are_the_pages_and_it_takes_no_concurrency
§ a worker that dies, stalls, is stopped; a bot that cannot run fails the run; cancel
    → ladder/test_board_release_order.py, test_queue_stops.py,
      store/test_distributed_stops.py
§ the database away, `--db-wait` (default 300, refused without `--distributed` or if
not above 0) → ladder/test_database_outage.py, ladder/test_queue_retries.py;
→ here: test_a_workers_defaults_are_the_pages_and_it_takes_no_concurrency (the default)
§ same results as one machine; `crashes` empty → store/test_distributed_ladder.py
§ `ladder table` while it runs → store/test_ladder_table.py
§ each worker's admin `ladder-` and 8 hex digits, over the in-process link
    → store/test_distributed_ladder.py (not pinned to the name's shape: left)
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import attrs
import pytest

from deberc_net import cli
from deberc_net.ladder import admin, runner, supervisor
from deberc_net.ladder.bot_output import LAST_WORDS, MAX_WAITING, ErrorLines
from deberc_net.ladder.runner import board_key

from .helpers import PY, RAND, RAND2, games_in, ladder, run_cli, summary

# a bot that writes its command line and its first ask's clock, then plays at random
RECORDING_BOT = """
import json, pathlib, sys
from clients.client import bot_arguments, run_bot

args = bot_arguments("recording").parse_args()
out = pathlib.Path(__file__).parent / f"argv-{args.name}.json"
seen = {"argv": sys.argv[1:], "clock": None}
out.write_text(json.dumps(seen))


def choose(view):
    if seen["clock"] is None:
        seen["clock"] = view.clock_ms
        out.write_text(json.dumps(seen))
    return view.legal[0]


run_bot(choose, args)
"""


@pytest.mark.timeout(90)
def test_a_bots_copies_get_the_documented_command_lines(tmp_path: Path) -> None:
    bot = tmp_path / "recording.py"
    bot.write_text(RECORDING_BOT, encoding="utf-8")
    plain = f"plain={PY} {bot}"
    filled = f"filled={PY} {bot} --port {{port}} --name {{name}} --host {{host}} --seek reserved"
    done = ladder(tmp_path, "--bot", plain, "--bot", filled, "--deals", "1", "--seed", "c1")
    assert done.returncode == 0, done.stderr[-2000:]
    seen = {p.name: json.loads(p.read_text()) for p in tmp_path.glob("argv-*.json")}
    assert sorted(seen) == [f"argv-{b}-{i}.json" for b in ("filled", "plain") for i in (1, 2)]
    for i in (1, 2):
        argv = seen[f"argv-plain-{i}.json"]["argv"]
        assert argv[:2] == ["--host", "127.0.0.1"] and argv[2] == "--port", argv
        assert argv[4:] == ["--name", f"plain-{i}", "--seek", "reserved"], argv
        port = argv[3]
        filled_argv = seen[f"argv-filled-{i}.json"]["argv"]  # filled in, nothing appended
        assert filled_argv == ["--port", port, "--name", f"filled-{i}", "--host", "127.0.0.1",
                               "--seek", "reserved"]  # fmt: skip
    clocks = {record["clock"] for record in seen.values()} - {None}
    assert clocks == {3500}, seen  # --clock-ms 3000 and the 500 ms lag allowance


ROOT = Path(__file__).resolve().parents[2]


def summary_keys() -> list[str]:
    """The keys the page's "Output" item lists: "prints the summary as one object: …"."""
    doc = " ".join((ROOT / "docs" / "bots.md").read_text(encoding="utf-8").split())
    listed = doc.split("prints the summary as one object: ", 1)[1].split(".", 1)[0]
    return [key.strip() for key in listed.split(",")]


def test_the_json_summary_has_the_fields_the_page_lists(tmp_path: Path) -> None:
    data = summary(ladder(tmp_path, "--bot", RAND, "--bot", RAND2, "--deals", "2", "--json"))
    assert len(summary_keys()) == 27 and sorted(data) == sorted(summary_keys())
    (pair,) = data["pairs"]
    for key in ("deals", "forfeits", "void_draws", "points_los", "points_per_deal"):
        assert key in pair, (key, pair)
    assert pair["duplicate_sets"] == 2 and pair["deals"] == 4  # two boards, two seatings


# a bot whose rng writes down every seed it is given (run_bot's reseeding at each board)
RESEEDED_BOT = """
import pathlib, random
from clients.client import bot_arguments, run_bot

args = bot_arguments("reseeded").parse_args()
out = pathlib.Path(__file__).parent / f"seeds-{args.name}.txt"


class Told(random.Random):
    def seed(self, a=None, version=2):
        if isinstance(a, str):
            with out.open("a") as seeds:
                seeds.write(a + "\\n")
        super().seed(a, version)


rng = Told(args.seed)
run_bot(lambda view: rng.choice(view.legal), args, rng)
"""


def test_run_bot_reseeds_its_rng_with_the_seed_and_the_board_key(tmp_path: Path) -> None:
    bot = tmp_path / "reseeded.py"
    bot.write_text(RESEEDED_BOT, encoding="utf-8")
    done = ladder(tmp_path, "--bot", f"seeded={PY} {bot} --seed s9", "--bot",
                  f"unseeded={PY} {bot}", "--deals", "2", "--seed", "r1")  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    told = [
        line
        for path in tmp_path.glob("seeds-seeded-*.txt")
        for line in path.read_text().splitlines()
        if line != "s9"  # Told(args.seed) itself
    ]
    # the key each seating is told in 'ok cmd=sit … board=KEY'
    keys = {board_key("r1", game["board"]) for game in games_in(tmp_path / "ladder.sqlite3")}
    assert len(keys) == 2 and sorted(set(told)) == sorted(f"s9/{key}" for key in keys), told
    assert len(told) == 4  # every seating of both boards, whichever copy played it
    unseeded = [p.read_text() for p in tmp_path.glob("seeds-unseeded-*.txt")]
    assert unseeded == [], unseeded  # without --seed the bot is never reseeded


def test_a_workers_defaults_are_the_pages_and_it_takes_no_concurrency(tmp_path: Path) -> None:
    shown = run_cli(["ladder", "worker", "--help"], cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    said = " ".join(shown.stdout.split())
    assert "(default 60, at most 86400: a day)" in said  # --lease-s
    assert "default 300)" in said and "--exit-when-done" in said  # --db-wait
    assert "--concurrency" not in said  # given to 'ladder run --distributed' alone
    refused = run_cli(["ladder", "worker", "--concurrency", "2"], cwd=tmp_path)
    assert refused.returncode == 2 and "--concurrency" in refused.stderr, refused.stderr
    assert list(tmp_path.iterdir()) == []  # nothing made


def test_lines_past_the_ten_thousand_waiting_are_dropped_and_counted() -> None:
    lines = ErrorLines()
    for n in range(10_005):  # nothing written meanwhile: a reader that never came
        lines.say(f"b-1: line {n}")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        lines.flush()  # the ladder's end: what waited, then the count of the rest
    written = err.getvalue().splitlines()
    assert written[:10_000] == [f"b-1: line {n}" for n in range(10_000)]
    assert written[10_000:] == ["ladder: 5 lines of the bots dropped: stderr was not read"]


def test_ladder_runs_defaults_are_the_pages(tmp_path: Path) -> None:
    shown = run_cli(["ladder", "run", "--help"], cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    said = " ".join(shown.stdout.split())
    for option, default in (
        ("--concurrency CONCURRENCY", "(default 2)"),
        ("--clock-ms CLOCK_MS", "(default 3000)"),
        ("--away-ms AWAY_MS", "(default 5000)"),
        ("--processes PROCESSES", "default 1)"),
    ):
        help_text = said.split(f"{option} ")[-1].split(" --", 1)[0]  # its help, not usage
        assert help_text.endswith(default), (option, help_text)
    # (the command line's default, given as None to tell a --clock-ms given, is the run's)
    assert attrs.fields(runner.LadderOptions).clock_ms.default == cli.LADDER_CLOCK_MS == 3000


def test_the_numbers_the_ladder_section_gives() -> None:
    assert runner.STARTUP_S == 30
    assert (supervisor.QUICK_EXITS, supervisor.LIVED_S) == (3, 2)
    assert (supervisor.MAX_RESTARTS, supervisor.RESTART_WINDOW_S) == (20, 600)
    assert supervisor.STOP_S == 2
    assert (LAST_WORDS, MAX_WAITING) == (600, 10_000)
    assert (admin.KEEP_OPEN_S, admin.WHOLE_LINE_S) == (60, 3)
    assert runner.RELEASE_AT_STOP_S == 3
    assert (runner.RELEASE_PAUSE_S, runner.RELEASE_PAUSE_MAX_S) == (0.25, 5)
    assert runner.INTERRUPTED == "interrupted: the ladder's processes are stopped"
