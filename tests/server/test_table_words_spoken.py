"""A Tertz table's Russian words over real sockets: two Russian players of a known match
(the server's ``match_seed``) hear «марьяж» and «от чего?» in each other's call lines,
their prompts and ``history``, never Deberts's «белла» and «рост?»; a Deberts table in
Russian still says «белла» (protocol/lang.py ``table_words``; the rendering alone:
tests/protocol/test_table_words.py)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from .conftest import Connector
from .human import RU_CARD
from .spoken_match import Speech, spoken_match

RUSSIAN = Speech(
    lang="ru",
    order="играю",
    breaks=re.compile(r"ломаю \d+\.\.(\d+)"),  # Tertz's "ломаю 1..12"
    break_word="ломаю",
    # a declaration as a Russian prompt offers it (Tertz's «сто пять», Deberts's «терц»)
    declaration=re.compile(r"(?:\w+ )?(?:терц|терца|пятьдесят|полтинника|сто|двести)\b"),
    card=RU_CARD,
    history="История",
    chosen="Язык: русский.",
)


async def test_a_russian_tertz_match_says_mariage_and_from_what(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    lines, history = await spoken_match(
        start_server, connect, RUSSIAN, "t7", "2 tertz", ("марьяж", "от чего?")
    )
    offered = RUSSIAN.offers(lines)
    assert any("марьяж" in x for x in offered) and any("от чего?" in x for x in offered)
    assert any(re.fullmatch(r"(anna|boris): марьяж", x) for x in lines)
    assert any(re.fullmatch(r"(anna|boris): от чего\?", x) for x in lines)
    assert any(re.search(r"За комбинации: .*марьяж 20", x) for x in history), history
    assert [x for x in lines + history if "белл" in x or "рост?" in x] == []


async def test_a_russian_deberts_match_still_says_bella(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    lines, history = await spoken_match(
        start_server, connect, RUSSIAN, "d2", "2 to-301", ("белла",)
    )
    assert any("белла" in x for x in RUSSIAN.offers(lines))
    assert any(re.fullmatch(r"(anna|boris): белла", x) for x in lines)
    assert any(re.search(r"За комбинации: .*белла 20", x) for x in history), history
    assert [x for x in lines + history if "марьяж" in x] == []
