"""The runs' list says each run's faults in one cell, a count of each kind, linked to
the run's page, where the table has each bot's forfeits and crashes beside its faults
and the clock's calls (docs/web.md); a Russian page says a bot's first fault and the
clock's first call in Russian as far as their form is known. Before, /ladders said
nothing of a run's faults (a run whose bot forfeited every game read as clean there),
and a Russian /ladders/N kept those two lines in English."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deberc_net.server.web.ladder_words import ru_clock_call, ru_first_fault
from tests.ladder.helpers import ladder, summary

from .conftest import WebServer
from .ladder_runs import COUNTED, FIRST_CLOCK, FIRST_FAULT, RU, faults_table, store_run

HARMED = {
    **COUNTED,
    "forfeits": {"rand": 2},
    "crashes": {"heur": 1, "rand": 1},
    "reconnects": {"rand": 1},
}
CLEAN: dict[str, Any] = {key: {} for key in HARMED}


def _faults_cell(page: str, run: int) -> str:
    """The runs' list's Faults cell of run ``run``, its markup as it is."""
    row = page.split(f'<td><a href="/ladders/{run}">{run}</a></td>', 1)[1].split("</tr>", 1)[0]
    found = re.search(r'<td class="faults">(.*?)</td>', row)
    assert found is not None, row
    return found.group(1)


async def test_the_runs_list_counts_each_runs_faults_and_links_its_page(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    harmed, clean, older = (store_run(db_path, s) for s in (HARMED, CLEAN, {}))
    missing = store_run(db_path, {**CLEAN, "clock_calls_missing": "OperationalError: gone"})
    web: WebServer = await start_web()
    page = (await web.get("/ladders"))[1].decode()
    assert "<th>SPRT</th><th>Faults</th></tr>" in page
    assert _faults_cell(page, harmed) == (
        f'<a href="/ladders/{harmed}#bot-faults">forfeits 2, crashes 2, fallbacks 12,'
        " exceptions 3, clock&#39;s calls 2, reconnects 1</a>"
    )
    assert _faults_cell(page, clean) == "none"
    assert _faults_cell(page, older) == "–"  # stored before they were counted: not 'none'
    assert _faults_cell(page, missing) == (
        f'<a href="/ladders/{missing}#bot-faults">clock&#39;s calls not counted</a>'
    )
    ru = (await web.get("/ladders", headers=RU))[1].decode()
    assert "<th>SPRT</th><th>Ошибки</th></tr>" in ru
    assert _faults_cell(ru, harmed) == (
        f'<a href="/ladders/{harmed}#bot-faults">технических поражений 2, падений 2,'
        " подмен 12, исключений 3, ходов по часам 2, переподключений 1</a>"
    )
    assert _faults_cell(ru, clean) == "нет"
    # the link's target: the run's table, with the forfeits and crashes it counts
    run_page = (await web.get(f"/ladders/{harmed}"))[1].decode()
    assert '<table class="list" id="bot-faults">' in run_page
    assert "<th>Bot</th><th>Forfeits</th><th>Crashes</th><th>Fallbacks</th>" in run_page
    assert "<th>Clock&#39;s calls</th><th>The clock&#39;s first</th><th>Reconnects</th>" in run_page
    assert faults_table(run_page) == [
        ["heur", "0", "1", "12", "3", FIRST_FAULT, "0", "–", "0"],
        ["rand", "2", "1", "0", "0", "–", "2", FIRST_CLOCK, "1"],
    ]
    ru_page = (await web.get(f"/ladders/{harmed}", headers=RU))[1].decode()
    assert "<th>Технических поражений</th><th>Падений</th>" in ru_page
    assert "<th>Переподключений</th>" in ru_page


async def test_a_run_stored_before_reconnects_were_counted_reads_clean_without_them(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    """Its other faults counted and none: 'none' in the list (its drops read as 0, as
    the text report reads them), and no column of reconnects on its page, not 0s."""
    before = store_run(db_path, {key: {} for key in HARMED if key != "reconnects"})
    web: WebServer = await start_web()
    page = (await web.get("/ladders"))[1].decode()
    assert _faults_cell(page, before) == "none"
    run_page = (await web.get(f"/ladders/{before}"))[1].decode()
    assert '<table class="list" id="bot-faults">' in run_page
    assert "Reconnects</th>" not in run_page


async def test_a_russian_runs_page_says_the_first_fault_and_clock_call_in_russian(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    run = store_run(db_path, COUNTED)
    web: WebServer = await start_web()
    en = faults_table((await web.get(f"/ladders/{run}"))[1].decode())
    assert [en[0][3], en[1][5]] == [FIRST_FAULT, FIRST_CLOCK]  # English as stored
    ru = faults_table((await web.get(f"/ladders/{run}", headers=RU))[1].decode())
    assert ru[0][3] == "choose подняла исключение RuntimeError('x') в greedy.py:42"
    assert ru[1][5] == "партия m1, раздача 1: ход В♥"  # (FIRST_CLOCK: play Jh)


# two in-process bots (docs/bots.md "In-process bots"): one whose pick raises, one whose
# pick answers a call that is not legal; the client library says each first fault
FAULTY = """\
from clients.client import Brain


def brain(name, seed):
    def pick(legal):
        if seed == "raises":
            raise ValueError("no call at all")  # (its ' at ' is the message's, not where)
        return "Jz"

    return Brain(lambda view: pick(view.legal), pick=pick, asks_only=True)
"""


def _first_faults(tmp_path: Path) -> dict[str, str]:
    """The first faults a ladder of the two stored, as the client library said them."""
    (tmp_path / "faulty.py").write_text(FAULTY, encoding="utf-8")
    bots = ("--bot", "raises=py:faulty --seed raises", "--bot", "wrong=py:faulty --seed x")
    data = summary(ladder(tmp_path, *bots, "--deals", "1", "--json"))
    first: dict[str, str] = data["first_faults"]
    return first


def test_the_client_librarys_faults_read_back_in_russian(tmp_path: Path) -> None:
    first = _first_faults(tmp_path)
    raised, not_legal = first["raises"], first["wrong"]
    assert raised.startswith("pick raised ValueError('no call at all') at faulty.py:")
    where = raised.rsplit(" at ", 1)[1]
    assert ru_first_fault(raised) == (
        f"pick подняла исключение ValueError('no call at all') в {where}"
    )
    assert not_legal == "pick answered 'Jz', not a legal call"
    assert ru_first_fault(not_legal) == "pick ответила 'Jz', а это недопустимый ход"
    late = "choose took longer than its 2.90 s (the request's clock=3500 ms less 0.6 s)"
    assert ru_first_fault(late) == (
        "choose думала дольше отведённых ей 2.90 с (часы запроса clock=3500 мс минус 0.6 с)"
    )
    # a bot's own words (a process bot's line, docs/bots.md): as they came
    own = "'7s' refused: must-follow-suit: you hold h: follow suit"
    assert ru_first_fault(own) == own
    assert ru_first_fault(f"{own}; pick raised it") == f"{own}; pick raised it"


def test_the_clocks_first_call_reads_back_in_russian() -> None:
    assert ru_clock_call("match m361 deal 1: play Qs") == "партия m361, раздача 1: ход Д♠"
    assert ru_clock_call("match m1 deal 3: pas") == "партия m1, раздача 3: пас"
    assert ru_clock_call("match m1 deal 3: ot-A") == "партия m1, раздача 3: от туза"
    assert ru_clock_call("something else") == "something else"
