"""What the human-style session tests share: a terminal's columns, the prompts and
endings in each language, a Latin card letter, a Russian card, and a person who answers
every prompt at random (tests/server/test_human_columns.py, test_human_club_ru.py,
test_human_ru.py, test_human_uk.py)."""

from __future__ import annotations

import random
import re
import unicodedata

from deberc_net.protocol.commands import COMMANDS

from .client import LineClient

COLUMNS = 80
PROMPTS = {
    "en": re.compile(r"^Your call(?: \[\d+ s\])?: (.+)$"),
    "ru": re.compile(r"^Ваш ход(?: \[\d+ с\])?: (.+)$"),
}
GAME_OVER = {"en": "Game over:", "ru": "Партия окончена:"}
ERROR = {"en": "Error (", "ru": "Ошибка ("}
SUITS = "♠♥♦♣"
# a card with a Latin rank letter or a Latin suit letter ('A♠', 'Ts', '10h'), or a Latin
# rank letter in a hand or a list of ranks ('♠ 7 9 J')
LATIN_CARD = re.compile(
    rf"(?<![\w-])(?:(?:10|[2-9AKQJTВДКТ])[shdc]|[AKQJT][{SUITS}])(?![\w])"
    rf"|[{SUITS}](?: (?:10|[2-9]|[ВДКТAKQJT]))* [AKQJT](?![\w])"
)
CYRILLIC = re.compile(r"[а-яА-ЯёЁ]")
# a guest's resume token is random (url-safe base64), and as random reads as a card now
# and then: '7s-gMq…' (tests/server/test_secrecy.py once), 'Qd-OSg…' (a full run)
RESUME_TOKEN = re.compile(r"(token=|token is |код возврата: )\S+")
# a Russian prompt, and a card as the Russian human style shows it
RU_PROMPT = re.compile(r"^Ваш ход(?: \[\d+ с\])?: (.+)$")
RU_CARD = re.compile(r"(?:10|[789ВДКТ])[♠♥♦♣]")


async def said_whole(person: LineClient, starts: tuple[str, ...] = ("",)) -> str:
    """The next text a person is told (whose first line ``starts`` so), its lines
    (wrapped at 80 columns, the rest indented two spaces) joined by a space; a 'ping'
    marks its end."""
    said = await person.read_until(lambda x: x.startswith(starts))
    await person.send("ping")
    while (more := await person.read_until(lambda _: True)).startswith("  "):
        said += " " + more.strip()
    return said


def without_tokens(line: str) -> str:
    """``line`` with any resume token it tells left out (its words kept): what a card
    check reads, so a token's letters are not taken for a card."""
    return RESUME_TOKEN.sub(r"\1", line)


def columns(line: str) -> int:
    """The width of a line on a terminal: a wide (East Asian W/F) character takes two
    columns, a combining mark none; everything else, ♠♥♦♣ among them, one."""
    width = 0
    for ch in line:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def english_lines(lines: list[str], names: tuple[str, ...]) -> list[str]:
    """The lines a Russian session should not show: a Latin word of three letters or more
    that is none of the players' ``names``, in a line with no Cyrillic, outside a
    command's usage in 'help' (a hand, a trick as 'history' lays it out, the sheet's
    sides, chat are names, numbers and cards)."""
    return [
        x
        for x in lines
        if x.split(" ", 3)[2:3] not in ([c] for c in COMMANDS)
        and not any(x.strip() in spec.usage for spec in COMMANDS.values())
        and not CYRILLIC.search(x)
        and re.search(r"\b[A-Za-z]{3,}\b", re.sub("|".join(map(re.escape, names)), " ", x))
    ]


def options(prompt: str) -> list[str]:
    """The options on a prompt's first line (a long prompt goes on, indented, on the
    next: the first line's are enough to pick from, less the separator it ends on)."""
    tokens = [t.strip() for group in prompt.split(" | ") for t in group.split(", ")]
    return [t for t in (t.rstrip(",|").strip() for t in tokens) if t]


async def play_randomly(
    client: LineClient, lang: str, rng: random.Random, never: tuple[str, ...] = ()
) -> None:
    """Answer every prompt with an option picked at random, typed as it is shown, and
    look at the table now and then ('sheet', 'last', 'help') as a person does. Every
    option is taken as shown, the Russian ace Т♠ too when 10♠ is legal as well (it was
    asked about: tryout s16, finding 5); ``never`` those while there is another. Until
    the game ends."""
    asked = looked = ""
    while True:
        line = await client.read_until(lambda _: True, 20)
        if line.startswith(GAME_OVER[lang]):
            return
        if line.startswith(ERROR[lang]) and "(wrong-phase)" in line and looked == "last":
            looked = ""  # 'last' before the first trick: nothing to show yet
            continue
        assert not line.startswith(ERROR[lang]), f"{client.label}: {asked} -> {line}"
        if prompt := PROMPTS[lang].match(line):
            if rng.random() < 0.15:
                looked = rng.choice(["sheet", "last", "help"])
                await client.send(looked)
            offered = options(prompt.group(1))
            asked = rng.choice([o for o in offered if o not in never] or offered)
            await client.send(asked)
