"""'help WORD' for every word of every call, at a table of every game and in the
lobby: the words of one call (Latin, Russian, Ukrainian, English) get the same
answer, in either language (docs/protocol.md §4.4). A review found 'help rost?' at a
Moscow table listing the answer line ('ot RANK … answer rost?') in English and 'help
рост?' not, the other way round in Russian, and 'help ot chego?' there listing
Tertz's entry in English and only a pointer in Russian. The words of a thing named
by what it is ('help trump', 'help ставка', help.TOPICS) likewise."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.protocol.commands import COMMANDS, command_word
from deberc_net.protocol.vocabulary import CallSyntaxError, parse_call, words_for
from deberc_net.server.help import TOPICS
from deberc_net.testing import rule_book

from .client import help_texts
from .conftest import Connector, StartServer

# a table of each game (2, 3 and 4 players; Moscow, Kharkov, Tertz; the short games)
# and of the options that make calls
TABLES: tuple[tuple[int, str, tuple[str, ...]] | None, ...] = (
    None,  # the lobby: every game's and option's calls
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ()),
    (2, "kharkov", ()),
    (3, "kharkov", ()),
    (4, "kharkov", ()),
    (2, "tertz", ()),
    (2, "moscow", ("short",)),
    (3, "moscow", ("short-bide",)),
    (2, "moscow", ("dave",)),
    (2, "moscow", ("poltinniki",)),
    (3, "kharkov", ("manual-claim", "swap-before-extra", "perezdacha")),
)

# the engine's calls with an argument, each by one example in each of its languages
_ARGUED = {
    "igrayu-h": ("igrayu h", "igrayu chervi", "играю черви", "граю чирви", "play hearts"),
    "ot-K": ("ot korolya", "от короля", "від короля", "from king"),
    "ot-Q-kozyrnogo": ("ot damy kozyrnoy", "от дамы козырной", "від козирної дами"),
    "dva-tertsa": ("dva tertsa", "два терца", "два терці", "two tierces"),
    "dva-pyatdesyat": ("dva poltinnika", "два полтинника", "дві копи", "two fifties"),
    "9h": ("9h", "9♥", "девятка черви", "дев'ятка чирв", "nine hearts"),
}


# the answer to a word that is no command and no call, in either language
_UNREAD = ("no command '", "нет команды «")


def _words() -> dict[tuple[str, str], set[str]]:
    """Every call's words by (whose, token): the engine's, and each plugin's."""
    told: dict[tuple[str, str], set[str]] = defaultdict(set)
    simple = [Call(n) for n in (C.PAS, C.IGRAYU, C.MENYAYU, C.NE_MENYAYU, C.SEVENS, C.ROST)]
    simple += [Call(n) for n in (C.PISHET, C.POKAZHI, C.POKAZYVAYU, C.SKIN, C.PROKHODIT_Q)]
    simple += [Call(n) for n in (C.PROKHODIT, C.NE_PROKHODIT, C.BELLA, C.KONETS)]
    simple += [Call(C.TERTS), Call(C.PYATDESYAT)]
    for call in simple:
        told["engine", call.token()] |= {call.token().replace("-", " "), *words_for(call)}
    for token, words in _ARGUED.items():
        told["engine", token] |= set(words)
    for rule in rule_book().rules():
        for word, token in rule.aliases.items():
            told[rule.name, token].add(word)
    return told


def _read(word: str, aliases: dict[str, str]) -> str | None:
    try:
        return parse_call(word, (), aliases).token()
    except CallSyntaxError:
        return None


def _said(lines: list[str], word: str) -> str:
    """An answer as one text, its topic (the word asked) left out: wrapped apart."""
    text = " ".join(" ".join(x.split()) for x in lines)
    quoted = f"«{word}»"
    return text.replace(quoted if quoted in text else word, "WORD", 1)


def _shape(lines: list[str]) -> tuple[int, int, bool]:
    """What an answer says, in any language: its entries of 'calls', its headings, and
    whether it names this table's own word for the call."""
    entries = sum(1 for x in lines if re.match(r"  \S", x))
    # (the first line, wrapped, ends with a colon where entries follow: no heading)
    ends = [i for i, x in enumerate(lines) if x.endswith(":")]
    headings = sum(1 for x in lines[ends[0] + 1 :] if x[0] != " " and x[-1] == ":") if ends else 0
    here = any(x.startswith(("At this table the same", "За этим столом тот же")) for x in lines)
    return entries, headings, here


# one test a place: some 400 'help' answers each, spread over the suite's workers
@pytest.mark.parametrize(
    "table", TABLES, ids=lambda t: "lobby" if t is None else "-".join(map(str, (t[0], t[1], *t[2])))
)
async def test_every_word_of_a_call_gets_the_same_answer_in_either_language(
    start_server: StartServer, connect: Connector, table: tuple[int, str, tuple[str, ...]] | None
) -> None:
    port = await start_server(
        lists_per_s=1e6,
        lists_burst=1e6,
        lists_per_address_per_s=1e6,
        lists_per_address_burst=1e6,
        flood_lines_per_s=1e6,
        flood_burst=1e6,
        seat_churn_per_s=1e6,
        seat_churn_burst=1e6,
        seat_churn_per_address_per_s=1e6,
        seat_churn_per_address_burst=1e6,
    )
    ann = await connect.machine(port, "ann")
    book = rule_book()
    calls = _words()
    disagree: list[str] = []
    aliases: dict[str, str] = {}  # (in the lobby: the engine's words, or the call's)
    if table is not None:
        players, variant, options = table
        await ann.send(f"new {players} {variant} {' '.join(options)}")
        await ann.expect("ok", cmd="sit")
        aliases = dict(book.ruleset(players, variant, options).call_aliases)
    # the words read alike here: a call of this table's, or another table's call
    alike: dict[object, set[str]] = defaultdict(set)
    for key, words in calls.items():
        for word in words:
            if command_word(word.split()[0]) not in COMMANDS:
                alike[_read(word, aliases) or key].add(word)
    # a thing named by what it is ('help trump', 'help ставка'): its words alike too
    topics: dict[object, set[str]] = defaultdict(set)
    for word, topic in TOPICS.items():
        topics[topic].add(word)
    for words in topics.values():
        alike["topic", min(words)] = words
    for call, words in sorted(alike.items(), key=str):
        shapes = set()
        for lang in ("en", "ru"):
            said = {w: await help_texts(ann, f"help {w} lang={lang}") for w in sorted(words)}
            # (a call's word read as none, "no command 'X'", would agree as well)
            unread = [w for w, lines in said.items() if lines[0].startswith(_UNREAD)]
            if unread:
                disagree.append(f"{table} {call} {lang}: read as no call: {unread}")
            texts = {w: _said(lines, w) for w, lines in said.items()}
            if len(set(texts.values())) > 1:
                told = "\n".join(f"    {w}: {t}" for w, t in texts.items())
                disagree.append(f"{table} {call} {lang}:\n{told}")
            shapes |= {_shape(lines) for lines in said.values()}
        if len(shapes) > 1:
            disagree.append(f"{table} {call}: en/ru {sorted(shapes)}")
    assert not disagree, "\n".join(disagree)
