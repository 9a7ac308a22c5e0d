"""/ladders/N says each bot's faults and the clock's calls for it, as the ladder's
report does (docs/bots.md, "A bot's faults", "A bot's timeouts"), in both languages;
a run stored before they were counted says nothing of them (not 0). Before, the pages
showed neither: a bot whose clock ran out read as clean on the web."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .conftest import WebServer
from .ladder_runs import COUNTED, FIRST_CLOCK, FIRST_FAULT, RU, faults_table, store_run


async def test_a_runs_page_shows_each_bots_faults_and_the_clocks_calls(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    run = store_run(db_path, COUNTED)
    web: WebServer = await start_web()
    status, body = await web.get(f"/ladders/{run}")
    page = body.decode()
    assert status == 200
    assert "<h2>Bot faults and the clock&#39;s calls</h2>" in page
    assert "<th>Fallbacks</th><th>Exceptions</th><th>First fault</th>" in page
    assert "<th>Clock&#39;s calls</th><th>The clock&#39;s first</th>" in page
    assert faults_table(page) == [
        ["heur", "12", "3", FIRST_FAULT, "0", "–"],
        ["rand", "0", "0", "–", "2", FIRST_CLOCK],
    ]
    status, body = await web.get(f"/ladders/{run}", headers=RU)
    ru = body.decode()
    assert status == 200 and "<h2>Ошибки ботов и ходы по часам</h2>" in ru
    assert "<th>Подмен</th><th>Исключений</th><th>Первая ошибка</th>" in ru
    assert "<th>Ходов по часам</th><th>Первый по часам</th>" in ru
    # the first fault and the clock's first call in Russian (test_ladder_fault_marks.py)
    assert faults_table(ru) == [
        ["heur", "12", "3", "choose подняла исключение RuntimeError('x') в greedy.py:42", "0", "–"],
        ["rand", "0", "0", "–", "2", "партия m1, раздача 1: ход В♥"],
    ]
    # the /api twin: the run's summary as stored, the fields in it
    api = json.loads((await web.get(f"/api/ladders/{run}"))[1])
    assert {key: api["summary"][key] for key in COUNTED} == COUNTED


async def test_a_clean_run_says_none_and_an_older_run_says_nothing(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    empty: dict[str, Any] = {key: {} for key in COUNTED}
    clean, older = store_run(db_path, empty), store_run(db_path, {})
    clock_only = store_run(db_path, {"clock_calls": {}, "first_clock_calls": {}})
    web: WebServer = await start_web()
    page = (await web.get(f"/ladders/{clean}"))[1].decode()
    assert faults_table(page) == [
        ["heur", "0", "0", "–", "0", "–"],
        ["rand", "0", "0", "–", "0", "–"],
    ]
    for lang in ({}, RU):  # stored before they were counted: not said to be 0
        page = (await web.get(f"/ladders/{older}", headers=lang))[1].decode()
        assert 'id="bot-faults"' not in page and "bot-faults-note" not in page
    api = json.loads((await web.get(f"/api/ladders/{older}"))[1])
    assert not set(COUNTED) & set(api["summary"])  # absent, not 0
    page = (await web.get(f"/ladders/{clock_only}"))[1].decode()
    assert "Fallbacks" not in page and faults_table(page) == [
        ["heur", "0", "–"],
        ["rand", "0", "–"],
    ]


async def test_a_run_whose_count_failed_says_its_clocks_calls_were_not_counted(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """A run stored without the clock's calls, their count failed (docs/bots.md): the
    page says so, with why, not that there were none."""
    faults = {key: COUNTED[key] for key in ("fallbacks", "bot_errors", "first_faults")}
    run = store_run(db_path, {**faults, "clock_calls_missing": "OperationalError: gone"})
    web: WebServer = await start_web()
    page = (await web.get(f"/ladders/{run}"))[1].decode()
    assert "Clock&#39;s calls</th>" not in page
    assert faults_table(page)[0] == ["heur", "12", "3", FIRST_FAULT]
    told = "The clock&#39;s calls were not counted for this run (OperationalError: gone)."
    assert f'<p id="clock-calls-missing">{told}</p>' in page
    ru = (await web.get(f"/ladders/{run}", headers=RU))[1].decode()
    assert "Ходы по часам в этом турнире не подсчитаны (OperationalError: gone)." in ru
