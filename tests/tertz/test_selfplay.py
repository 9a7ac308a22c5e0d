"""``deberc-net selfplay --variant tertz``: whole matches, records that replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deberc_net.cli import main
from deberc_net.game.record import replay_matches

from .helpers import RULES


def test_selfplay_plays_tertz_and_writes_replayable_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tertz.jsonl"
    args = ["selfplay", "--variant", "tertz", "--games", "3", "--seed", "t", "--json"]
    assert main([*args, "--records", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert summary["games"] == 3 and summary["deals"] == len(records)
    assert summary["outcomes"]["split"] == len(records) and summary["end_reasons"] == {"target": 3}
    assert {r["variant"] for r in records} == {"tertz"}
    assert all(replay_matches(r, RULES) for r in records)


def test_selfplay_refuses_tertz_for_three(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--variant", "tertz", "--players", "3"]) == 2
    assert "'tertz' is for 2 players, not 3" in capsys.readouterr().err
