"""A settings file that sets `match_seed` (a test's, copied) deals every match from it:
once one match has ended, every later one's decks are known (docs/security.md §5). The
server says so as it starts, at warning, so that `log_level = "warning"` shows it too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.process import start_server_process


def _start_lines(db: Path, settings: str) -> list[dict[str, Any]]:
    said: list[dict[str, Any]] = []
    proc, _ = start_server_process(db, settings=settings, said=said)
    proc.terminate()
    proc.wait(timeout=20)
    return said


def test_a_match_seed_in_the_settings_is_a_warning_at_the_start(tmp_path: Path) -> None:
    """An operator's tryout: a file with match_seed started as any other, not a word
    of it in the log. Failed before: no `match_seed_set` line."""
    settings = 'match_seed = "s3cr3t-seed"\nlog_level = "warning"'
    said = _start_lines(tmp_path / "seeded.sqlite3", settings)
    [warned] = [e for e in said if e["event"] == "match_seed_set"]
    assert warned["level"] == "warning" and "never set it on a public server" in warned["text"]
    assert "s3cr3t" not in str(warned)  # (the seed itself is not written in the log)


def test_no_match_seed_no_warning(tmp_path: Path) -> None:
    said = _start_lines(tmp_path / "fresh.sqlite3", 'log_level = "info"')
    assert [e["event"] for e in said if e["level"] == "warning"] == []
    assert said[-1]["event"] == "listening"
