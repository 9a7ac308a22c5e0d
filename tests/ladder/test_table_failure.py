"""A ladder whose table fails on the server (a rule plugin's hook raising: the bug a rule
author meets first) stops loudly: status 2 and the failed table named, every board it
started released (docs/bots.md "A table that fails"). Failed before: the server closed
the table without telling the ladder, and the ladder waited forever."""

from __future__ import annotations

from pathlib import Path

import pytest
import structlog

from deberc_net.game.calls import Call
from deberc_net.ladder.runner import LadderOptions, run
from deberc_net.ladder.schedule import ScheduleError
from deberc_net.ladder.supervisor import BotSpec
from deberc_net.plugins import PluginDeal, RuleInfo, hookimpl
from deberc_net.testing import rule_book

from .helpers import RAND, RAND2, withheld


class _Broken:
    """An option whose hook raises whenever a seat's calls are asked for."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="broken-test", kind="option", summary="a hook that raises")

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> list[Call]:
        raise RuntimeError("this rule is broken on purpose")


def test_a_ladder_whose_table_fails_stops_with_the_table_named(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite3"
    options = LadderOptions(
        bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)],
        deals=6,
        seed="f1",
        options=["broken-test"],
        db=str(db),
        rules=rule_book(_Broken()),
        progress=False,
    )
    with structlog.testing.capture_logs() as logs, pytest.raises(ScheduleError) as stopped:
        run(options)
    said = str(stopped.value)
    assert said.startswith("table ") and "failed on the server (board 1, seats " in said
    assert "rule plugin" in said and "table_error" in said
    assert any(entry["event"] == "table_error" for entry in logs)
    assert withheld(db) == []  # its boards released, none kept secret for good
