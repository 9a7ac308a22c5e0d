"""A Ukrainian player over a real socket (docs/protocol.md §8.2, *uk*): every call of a
whole match typed in Ukrainian — bids, the suit, each card as `хід туз пік` — is
understood, and `ні` answers the question a `leave` asks. The server answers in Russian
(`lang ru`), the nearest language it writes."""

from __future__ import annotations

import re

import trio

from .client import LineClient
from .conftest import Connector
from .human import CYRILLIC, RU_CARD, RU_PROMPT

UK_RANK = {"7": "7", "8": "8", "9": "9", "10": "десятка", "В": "валет", "Д": "дама"}
UK_RANK |= {"К": "король", "Т": "туз"}
UK_SUIT = {"♠": "піки", "♥": "чирви", "♦": "бубни", "♣": "трефи"}
UK_WORD = {"пас": "пасую", "играю": "граю", "меняю": "міняю", "пишет": "пише"}
UK_WORD |= {"рост?": "ріст?", "показываю": "показую", "белла": "бела", "терц": "терць"}
UK_WORD |= {"проходит?": "проходить?", "проходит": "проходить", "конец": "кінець"}


def ukrainian_choice(options: str) -> str:
    """'граю' when offered, else the first card, else the first call, each in Ukrainian."""
    tokens = [t.strip() for group in options.split(" | ") for t in group.split(", ")]
    if "играю" in tokens:
        return "граю"
    cards = [t for t in tokens if RU_CARD.fullmatch(t)]
    if cards:
        rank, suit = cards[0][:-1], cards[0][-1]
        return f"хід {UK_RANK[rank]} {UK_SUIT[suit]}"
    return UK_WORD.get(tokens[0], tokens[0])


async def play_in_ukrainian(client: LineClient, sent: list[str], ask_to_leave: bool) -> str:
    """Answer every prompt in Ukrainian until the game is over; the last line. With
    ``ask_to_leave``, the first prompt is met with `leave`, then `ні`, first."""
    while True:
        line = await client.read_until(lambda _: True, 20)
        assert not line.startswith("Ошибка"), f"{client.label}: {line} after {sent[-3:]}"
        if line.startswith("Партия окончена:"):
            return line
        if prompt := RU_PROMPT.match(line):
            if ask_to_leave:
                ask_to_leave = False
                await client.send("leave")
                await client.read_until(lambda x: x.startswith("Если уйти, партия"), 30)
                await client.send("ні")
                stay = await client.read_until(lambda x: x.startswith("Вы остаётесь"), 30)
                assert re.fullmatch(r"Вы остаётесь за столом \d+\.", stay), stay
            said = ukrainian_choice(prompt.group(1))
            sent.append(said)
            await client.send(said)


async def test_a_whole_two_player_match_called_in_ukrainian(port: int, connect: Connector) -> None:
    people = [await connect.human(port, name) for name in ("oksana", "taras")]
    for person in people:
        await person.send("lang ru")
        await person.read_until(lambda x: x == "Язык: русский.")
    for person in people:
        await person.send("seek 2 to-301")
    sent: dict[str, list[str]] = {"oksana": [], "taras": []}
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for person in people:
                nursery.start_soon(
                    play_in_ukrainian, person, sent[person.label], person.label == "oksana"
                )
    said = [word for words in sent.values() for word in words]
    assert "граю" in said
    assert [x for x in said if x.startswith("хід ")], said
    for person in people:
        assert any(re.match(r"\w+: играю", x) for x in person.lines)  # heard as igrayu
        assert any(re.match(r"Партия окончена: \w+ выигрывает \(", x) for x in person.lines)
        assert not [x for x in person.lines if x.startswith("Ошибка")]


async def test_lang_uk_says_what_there_is_instead_of_the_bare_usage(
    port: int, connect: Connector
) -> None:
    """A Ukrainian player's first line, `lang uk`, was told only `lang en|ru` (a club
    night): it is still refused and changes nothing, but says that Russian is there and
    that Ukrainian calls are understood; in Russian once the player reads Russian."""
    oksana = await connect.human(port, "oksana")
    await oksana.send("lang uk")
    told = await oksana.read_until(lambda x: x.startswith("Error"))
    assert told.startswith("Error (bad-argument): lang en|ru: no Ukrainian lines yet.")
    await oksana.send("sheet")  # still English: nothing changed
    assert not CYRILLIC.search(await oksana.read_until(lambda x: x.startswith("Error")))
    await oksana.send("lang ru")
    await oksana.read_until(lambda x: x == "Язык: русский.")
    await oksana.send("lang UA")
    told = await oksana.read_until(lambda x: x.startswith("Ошибка"))
    assert told.endswith("lang en|ru: украинских строк пока нет. lang ru —")  # (wrapped)


async def test_login_with_lang_uk_says_what_there_is_and_logs_nobody_in(
    port: int, connect: Connector
) -> None:
    """`login NAME lang=uk` (a club night: only `lang uk` was answered so) gets the
    same answer as `lang uk`, and nobody is logged in: a second try with lang=ru is."""
    oksana = await connect.raw(port, "oksana")
    await oksana.send("login oksana lang=uk")
    told = await oksana.read_until(lambda x: x.startswith("Error"))
    assert told.startswith("Error (bad-argument): lang en|ru: no Ukrainian lines yet.")
    for word in ("LANG=Українська", "lang=uk-UA", "lang=ukrainian", "lang=укр"):
        await oksana.send(f"login oksana {word}")
        await oksana.read_until(lambda x: "no Ukrainian lines yet" in x)
    await oksana.send("login oksana lang=ru")
    await oksana.read_until(lambda x: x.startswith("Здравствуйте, oksana"))
