"""A Tertz table's English words over real sockets: two English players of a known
match (the server's ``match_seed``) are offered 'mariage' (docs/rules.md §12.5, the
sources' word), hear it in each other's call lines and read it in ``history``'s
scored combinations, never Deberts's 'bella' (a tryout found English Tertz lines
saying 'bella'); a Deberts table still says 'bella' (protocol/lang.py ``table_words``;
the rendering alone: tests/protocol/test_table_words_english.py)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from .conftest import Connector
from .human import LATIN_CARD
from .spoken_match import Speech, spoken_match

ENGLISH = Speech(
    lang="en",
    order="igrayu",
    breaks=re.compile(r"lomayu \d+\.\.(\d+)"),  # Tertz's "lomayu 1..12"
    break_word="lomayu",
    # a declaration as an English prompt offers it (Tertz's 'sto pyat', Deberts's 'terts')
    declaration=re.compile(r"(?:\w+ )?(?:terts|tertsa|pyatdesyat|sto|dvesti)\b"),
    card=re.compile(r"(?:10|[789JQKA])[♠♥♦♣]"),
    history="History",
    chosen="Language: English.",
)


async def test_an_english_tertz_match_says_mariage(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    lines, history = await spoken_match(
        start_server, connect, ENGLISH, "t7", "2 tertz", ("mariage",)
    )
    prompts = ENGLISH.offers(lines)
    assert any("mariage" in x for x in prompts)
    assert any(re.fullmatch(r"(anna|boris): mariage", x) for x in lines)
    assert any(re.search(r"Scored for combinations: .*mariage 20", x) for x in history), history
    assert [x for x in lines + history if "bella" in x] == []
    assert [x for x in lines if LATIN_CARD.search(x) is None and "марьяж" in x] == []


async def test_an_english_deberts_match_still_says_bella(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    lines, history = await spoken_match(
        start_server, connect, ENGLISH, "d2", "2 to-301", ("bella",)
    )
    assert any(re.fullmatch(r"(anna|boris): bella", x) for x in lines)
    assert any(re.search(r"Scored for combinations: .*bella 20", x) for x in history), history
    assert [x for x in lines + history if "mariage" in x] == []
