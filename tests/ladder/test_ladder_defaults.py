"""README's ladder commands, without --db, store where the server reads: `ladder run`
and `ladder table` default to the server's own file, so `/ladders` shows that ladder."""

from __future__ import annotations

from pathlib import Path

from deberc_net.server.config import Config
from deberc_net.server.web.ladders import ladders

from .helpers import RAND, RAND2, run_cli


def test_a_ladder_without_db_is_stored_in_the_servers_file_and_shown_by_its_pages(
    tmp_path: Path,
) -> None:
    done = run_cli(["ladder", "run", "--bot", RAND, "--bot", RAND2, "--deals", "1",
                    "--seed", "s1"], cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    served = tmp_path / Config().db  # what 'serve' and its /ladders read by default
    found = ladders(str(served))
    assert [r.summary is not None for r in found.runs] == [True]
    assert {row["bot"] for row in found.leaderboard} == {"rand", "rand2"}
    table = run_cli(["ladder", "table"], cwd=tmp_path)
    assert table.returncode == 0 and "rand2" in table.stdout, table.stderr
    assert sorted(p.name for p in tmp_path.glob("*.sqlite3")) == [Config().db]


def test_the_ladders_db_default_is_said_in_its_help() -> None:
    for command in ("run", "table"):
        done = run_cli(["ladder", command, "--help"])
        assert done.returncode == 0, done.stderr
        said = " ".join(done.stdout.split())
        assert f"(default: --config's db, or {Config().db})" in said, done.stdout
