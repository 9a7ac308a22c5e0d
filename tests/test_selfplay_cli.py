"""The ``deberc-net selfplay`` command: summary, JSON, records, options and refusals."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from deberc_net.cli import main
from deberc_net.game.record import replay_matches, without_timing
from deberc_net.testing import RECORD_KEYS, build_ruleset

OUTCOMES = ("made", "bide", "hanging", "void")
CARD = re.compile(r"^(7|8|9|10|J|Q|K|A)[shdc]$")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["selfplay", *args])
    out, err = capsys.readouterr()
    return code, out, err


def run_python(probe: str) -> subprocess.CompletedProcess[str]:
    """``probe`` run in a fresh Python process (what a process imports at its start-up)."""
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )


def read_records(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines, "no record written"
    return [json.loads(line) for line in lines]


def records_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, *args: str
) -> list[dict[str, Any]]:
    path = tmp_path / name
    code, _, err = run(capsys, *args, "--records", str(path))
    assert code == 0, err
    return read_records(path)


def untimed(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [without_timing(r) for r in records]


# ---------------------------------------------------------------------- summary
def test_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--games", "3", "--seed", "11")
    assert code == 0 and err == ""
    lines = out.strip().splitlines()
    first = re.fullmatch(r"games 3, deals (\d+), \d+ deals/s \([\d.]+ s\)", lines[0])
    assert first, lines[0]
    assert int(first.group(1)) >= 3
    assert lines[1].startswith("outcomes: made ")
    for name in OUTCOMES:
        assert re.search(rf"\b{name} \d+", lines[1]), name
    assert lines[2].startswith("wins by side: ")


def test_json_summary_matches_the_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deals.jsonl"
    code, out, err = run(capsys, "--games", "4", "--seed", "5", "--json", "--records", str(path))
    assert code == 0, err
    summary = json.loads(out)
    assert {"games", "deals", "deals_per_second", "outcomes"} <= summary.keys()
    assert summary["games"] == 4
    assert isinstance(summary["deals_per_second"], int | float)
    assert summary["deals_per_second"] > 0
    assert set(OUTCOMES) <= summary["outcomes"].keys()
    records = read_records(path)
    assert summary["deals"] == len(records)
    assert sum(summary["outcomes"].values()) == len(records)
    for name in OUTCOMES:
        assert summary["outcomes"][name] == sum(r["outcome"] == name for r in records)
    assert sum(summary["wins_by_side"].values()) == 4
    assert len({r["match"] for r in records}) == 4


def test_games_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--games", "0")
    assert code == 2 and out == ""
    assert "--games" in err


# ---------------------------------------------------------------------- records
def test_records_carry_every_required_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = records_for(tmp_path, capsys, "r.jsonl", "--games", "3", "--seed", "r")
    rules = build_ruleset()
    by_match: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        missing = RECORD_KEYS - record.keys()
        assert not missing, missing
        assert record["format"] == "deberc-deal/1"
        assert record["variant"] == "moscow"
        assert record["options"] == []
        assert isinstance(record["seed"], str) and record["seed"]
        assert len(record["players"]) == 2
        assert record["dealer"] in (0, 1)
        assert sorted(record["deck"]) == sorted({*record["deck"]}) and len(record["deck"]) == 32
        assert all(CARD.match(c) for c in record["deck"])
        assert record["calls"], "a deal has at least one call"
        for call in record["calls"]:
            assert call["seat"] in (0, 1)
            assert isinstance(call["call"], str)
            assert isinstance(call["ms"], int) and call["ms"] >= 0
            if call["call"] == "play":
                assert CARD.match(call["card"])
        assert record["outcome"] in (*OUTCOMES, "claim")
        if record["outcome"] == "void":
            assert record["trump"] is None and record["tricks"] == []
        else:
            assert record["trump"] in tuple("shdc")
            assert record["player"] in (0, 1)
            for trick in record["tricks"]:
                assert {"leader", "cards", "winner"} <= trick.keys()
                assert len(trick["cards"]) == 2
        assert isinstance(record["declared"], list)
        assert len(record["points"]) == len(record["written"]) == len(record["totals"]) == 2
        assert isinstance(record["hanging"], int)
        assert replay_matches(record, rules)
        by_match.setdefault(record["match"], []).append(record)
    assert len(by_match) == 3
    for deals in by_match.values():
        assert [r["deal_no"] for r in deals] == list(range(1, len(deals) + 1))
        assert len({r["seed"] for r in deals}) == len(deals)
        for before, after in itertools.pairwise(deals):
            assert after["totals_before"] == before["totals"]
        assert "match_over" in deals[-1]
        assert all("match_over" not in r for r in deals[:-1])


def test_same_seed_same_records_other_seed_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = records_for(tmp_path, capsys, "a.jsonl", "--games", "3", "--seed", "42")
    b = records_for(tmp_path, capsys, "b.jsonl", "--games", "3", "--seed", "42")
    c = records_for(tmp_path, capsys, "c.jsonl", "--games", "3", "--seed", "43")
    assert untimed(a) == untimed(b)
    assert untimed(a) != untimed(c)
    assert a[0]["deck"] != c[0]["deck"]
    # Only the ms fields may differ between two runs of one seed.
    for ra, rb in zip(a, b, strict=True):
        assert {k: v for k, v in ra.items() if k != "calls"} == {
            k: v for k, v in rb.items() if k != "calls"
        }


def test_option_to_301_is_recorded_and_ends_games_at_301(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = records_for(
        tmp_path, capsys, "301.jsonl", "--games", "6", "--seed", "t", "--option", "to-301"
    )
    assert all(r["options"] == ["to-301"] for r in records)
    ends = [r for r in records if "match_over" in r]
    assert len(ends) == 6
    for record in records:
        if "match_over" in record:
            winner = record["match_over"]["winner"]
            assert record["totals"][winner] >= 301
        else:
            assert max(record["totals"]) < 301, record["totals"]
    # Without the option, the same seed plays on past 301.
    default = records_for(tmp_path, capsys, "501.jsonl", "--games", "6", "--seed", "t")
    assert all(r["options"] == [] for r in default)
    assert any(max(r["totals"]) >= 301 and "match_over" not in r for r in default)
    for record in default:
        if "match_over" in record:
            assert record["totals"][record["match_over"]["winner"]] >= 501


# --------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--option", "no-such-rule"), "no-such-rule"),
        (("--variant", "nowhere"), "nowhere"),
        (("--option", "to-301", "--option", "bogus-two"), "bogus-two"),
    ],
)
def test_unknown_rule_exits_2_naming_it(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], named: str
) -> None:
    code, out, err = run(capsys, "--games", "1", *args)
    assert code == 2
    assert out == ""
    assert named in err
    assert "unknown" in err


def test_variant_and_options_are_read_as_new_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In any case, a variant as a club spells it (docs/protocol.md §5.3): the same
    games as the names themselves."""
    typed = records_for(
        tmp_path,
        capsys,
        "typed.jsonl",
        "--games",
        "2",
        "--variant",
        "Харьков",
        "--option",
        "To-301",
    )
    named = records_for(
        tmp_path,
        capsys,
        "named.jsonl",
        "--games",
        "2",
        "--variant",
        "kharkov",
        "--option",
        "to-301",
    )
    assert {(r["variant"], tuple(r["options"])) for r in typed} == {("kharkov", ("to-301",))}
    assert untimed(typed) == untimed(named)


def test_conflicting_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--games", "1", "--option", "to-301", "--option", "to-1001")
    assert code == 2
    assert "to-301" in err and "to-1001" in err


@pytest.mark.parametrize("players", ["3", "4"])
def test_three_and_four_players_play(capsys: pytest.CaptureFixture[str], players: str) -> None:
    code, out, _ = run(capsys, "--games", "2", "--players", players, "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 2 and summary["deals"] >= 2


def test_an_option_for_another_player_count_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "--games", "1", "--players", "2", "--option", "bide-to-leader")
    assert code == 2 and out == ""
    assert "'bide-to-leader' is for 3 players, not 2" in err


def test_records_file_not_left_full_on_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "none.jsonl"
    code, _, _ = run(capsys, "--games", "1", "--option", "nope", "--records", str(path))
    assert code == 2
    assert not path.exists() or path.read_text(encoding="utf-8") == ""


# ------------------------------------------------------------------- subprocess
def test_runs_as_a_program(tmp_path: Path) -> None:
    path = tmp_path / "sub.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "deberc_net",
            "selfplay",
            "--games",
            "2",
            "--seed",
            "9",
            "--json",
            "--records",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 2
    assert summary["deals"] == len(read_records(path))
    bad = subprocess.run(
        [sys.executable, "-m", "deberc_net", "selfplay", "--players", "3", "--option", "dave"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and "'dave' is for 2 players, not 3" in bad.stderr
    assert "3" in bad.stderr and bad.stdout == ""


def test_console_script_points_at_main() -> None:
    scripts = {e.name: e.value for e in metadata.entry_points(group="console_scripts")}
    assert scripts.get("deberc-net") == "deberc_net.cli:main"


def test_version_is_the_distributions_and_help_imports_no_engine() -> None:
    """--version prints the installed distribution's version; --help and --version
    import neither the engine, the plugins, trio nor structlog (each command imports its
    own)."""
    probe = (
        "import sys\n"
        "from deberc_net.cli import main\n"
        "for argv in (['--help'], ['--version']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit as done:\n"
        "        assert done.code == 0, done.code\n"
        "top = ('trio', 'pluggy', 'structlog')\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in top\n"
        "               or m.startswith(('deberc_net.game', 'deberc_net.plugins')))\n"
        "print('imported:', heavy)\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert f"deberc-net {metadata.version('deberc-net')}\n" in done.stdout
    assert "usage: deberc-net" in done.stdout
    assert done.stdout.endswith("imported: []\n")


def test_the_parent_of_workers_reads_its_settings_without_the_servers_imports(
    tmp_path: Path,
) -> None:
    """``serve --workers``' parent starts processes and serves no login: reading its
    settings (their ``admins`` checked as names) imports neither trio nor the accounts'
    module (once a third of a second of its CPU, before any worker was started)."""
    settings = tmp_path / "server.toml"
    settings.write_text('[server]\nadmins = ["boss"]\n')
    probe = (
        "import sys\n"
        "from deberc_net.cli import main\n"
        f"argv = ['serve', '--workers', '2', '--config', {str(settings)!r}, '--db', 'x.db']\n"
        "assert main(argv) == 2\n"  # an SQLite file: refused once the settings are read
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('trio', 'psycopg')\n"
        "             or m == 'deberc_net.server.accounts'))\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert "--workers above 1 needs" in done.stderr
    assert done.stdout == "[]\n"


def test_a_server_logging_json_lines_does_not_import_rich_nor_asyncio() -> None:
    """Off a terminal the logs are JSON lines: structlog is imported without rich (whose
    console tracebacks they never use), and rich can still be imported afterwards; and
    asyncio, which structlog imports for its async methods, is loaded only when used."""
    probe = (
        "import sys\n"
        "from deberc_net.cli import main\n"
        "assert main(['serve', '--port', '0', '--http-port', 'off', '--db', '.']) == 2\n"
        "import structlog.dev, structlog.stdlib\n"
        "print('rich' in sys.modules, structlog.dev.rich)\n"
        "print('asyncio.events' in sys.modules)\n"
        "print(structlog.stdlib.asyncio.get_running_loop.__module__)\n"
        "print('asyncio.events' in sys.modules, type(sys.modules['asyncio']).__name__)\n"
        "import rich\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert "is a folder, not a database file" in done.stderr  # the server started
    assert done.stdout == "False None\nFalse\n_asyncio\nTrue module\n"


def test_asyncio_imported_by_a_submodule_after_the_server_is_one_module() -> None:
    """What imports ``asyncio.events`` (or any submodule) first, after the server has
    loaded structlog without asyncio (a plugin, psycopg), gets the one asyncio."""
    # failed before: the stand-in left in sys.modules made that import load
    # asyncio.events twice, its classes and event loop policy apart from asyncio's own
    probe = (
        "from deberc_net.cli import main\n"
        "assert main(['serve', '--port', '0', '--http-port', 'off', '--db', '.']) == 2\n"
        "from asyncio.events import AbstractEventLoop\n"
        "import asyncio, sys\n"
        "print(AbstractEventLoop is asyncio.AbstractEventLoop,"
        " sys.modules['asyncio.events'] is asyncio.events)\n"
        "loop = asyncio.new_event_loop()\n"
        "print(isinstance(loop, AbstractEventLoop))\n"
        "loop.close()\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True True\nTrue\n"


def test_serve_refuses_its_settings_before_it_imports_the_server() -> None:
    """Settings that cannot be read are said before the logs' and the server's imports
    (trio, the lobby, structlog: some 0.3 s of CPU a refusal)."""
    probe = (
        "import sys\n"
        "from deberc_net.cli import main\n"
        "assert main(['serve', '--config', 'no-such-file.toml']) == 2\n"
        "print(sorted({'structlog', 'trio', 'deberc_net.server.app'} & set(sys.modules)))\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert "no-such-file.toml" in done.stderr
    assert done.stdout == "[]\n"


def test_help_does_not_read_the_package_metadata() -> None:
    """--version reads the version when asked: --help and every other command's parser
    leave importlib.metadata (email, zipfile, csv) unimported; --help still offers it."""
    probe = (
        "import sys\n"
        "from deberc_net.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit as done:\n"
        "    assert done.code == 0, done.code\n"
        "print('read:', 'importlib.metadata' in sys.modules)\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert "--version" in done.stdout and "show program's version number" in done.stdout
    assert done.stdout.endswith("read: False\n")


def test_a_reader_gone_ends_quietly() -> None:
    """``selfplay | head -1``: the reader closes the pipe before the summary is written;
    the command ends with status 1 and says nothing (failed before: a BrokenPipeError
    traceback on standard error)."""
    argv = [sys.executable, "-m", "deberc_net", "selfplay", "--games", "2", "--seed", "1"]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as done:
        assert done.stdout is not None and done.stderr is not None
        done.stdout.close()  # gone before a line is read
        err = done.stderr.read()
        assert done.wait(timeout=60) == 1
    assert err == ""


@pytest.mark.parametrize("where", ["missing/x.jsonl", "."], ids=["no-folder", "a-folder"])
def test_records_that_cannot_be_written_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    # a tryout: a traceback (FileNotFoundError), and no deal played was the only sign
    path = tmp_path / where
    code, out, err = run(capsys, "--games", "1", "--records", str(path))
    assert code == 2 and out == "", (code, out)
    assert err.count("\n") == 1 and err.startswith(f"deberc-net selfplay: cannot write {path}: ")
    assert "Traceback" not in err


@pytest.mark.parametrize("games", [1, 200], ids=["at-the-close", "mid-way"])
def test_records_on_a_full_disk_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], games: int
) -> None:
    # a traceback (OSError: No space left on device), from a write once the records
    # outgrew the file's buffer, or from the close's flush for a few of them
    code, out, err = run(capsys, "--games", str(games), "--records", "/dev/full")
    assert code == 2 and out == "", (code, out)
    assert err == "deberc-net selfplay: cannot write /dev/full: No space left on device\n"
