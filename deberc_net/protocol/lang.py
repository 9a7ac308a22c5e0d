"""The languages of the human style ('lang en|ru') and the Russian words it uses.

Only the human style has a language: the machine style's words are the protocol's.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from enum import StrEnum
from types import MappingProxyType

import attrs

from deberc_net.game import calls as C
from deberc_net.game.cards import SUIT_SYMBOLS, SUITS, Card
from deberc_net.game.outcomes import Outcome

from .ends import KONETS


class Lang(StrEnum):
    EN = "en"  # the default, as before 'lang' existed
    RU = "ru"  # Russian wording, Cyrillic rank letters, Russian table speech


# what a Ukrainian player types for his language ('lang uk', 'login NAME lang=ua'): told
# there are no Ukrainian lines yet, and what there is (messages.LANG_UK)
UKRAINIAN = frozenset(
    {"uk", "ua", "uk-ua", "uk_ua", "ukrainian", "українська", "укр", "украинский", "украинская"}
)


def decimal_mark(number: str, lang: Lang) -> str:
    """A number written with a fraction as the reader writes it: Russian's decimal comma
    («21,2», «0,5 с»); English and the machine lines keep the point."""
    return number.replace(".", ",") if lang == Lang.RU else number


def asks_ukrainian(arg: str) -> bool:
    """Whether ``arg`` is 'lang=uk' (or ua, українська)."""
    key, _, word = arg.partition("=")
    return key.lower() == "lang" and word.casefold() in UKRAINIAN


def keyword_argument(
    args: tuple[str, ...], key: str, words: Collection[str]
) -> tuple[tuple[str, ...], str | None] | None:
    """A command's ``KEY=WORD`` (in any case, anywhere among ``args``; WORD one of
    ``words``): the other arguments and the word, lower-cased (None if none was given);
    None if the word is none of ``words``, or ``KEY=`` is given twice."""
    prefix = f"{key}="
    asked = [a for a in args if a.lower().startswith(prefix)]
    if not asked:
        return args, None
    word = asked[0][len(prefix) :].lower()
    if len(asked) > 1 or word not in words:
        return None
    return tuple(a for a in args if a not in asked), word


def lang_argument(args: tuple[str, ...]) -> tuple[tuple[str, ...], Lang | None] | None:
    """A command's ``lang=en|ru`` (``keyword_argument``: 'login NAME lang=ru', 'help
    lang=ru', docs/protocol.md §4.2, §4.4): the other arguments and the language asked
    for (None if none was); None if what follows 'lang=' is no language, or it is given
    twice."""
    found = keyword_argument(args, "lang", [str(c) for c in Lang])
    if found is None:
        return None
    rest, word = found
    return rest, None if word is None else Lang(word)


# the ranks 7 8 9 10 J Q K A as Russian players write them: валет, дама, король, туз
RU_RANKS = ("7", "8", "9", "10", "В", "Д", "К", "Т")
_LATIN_RANK = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}
# "от туза": the top card's rank in the genitive
RU_GENITIVE = ("семёрки", "восьмёрки", "девятки", "десятки", "вальта", "дамы", "короля", "туза")
# семёрка, восьмёрка, девятка, десятка, дама: "от дамы козырной", not "козырного"
_FEMININE = frozenset((0, 1, 2, 3, 5))
_RANK_INDEX = {r: i for i, r in enumerate(("7", "8", "9", "10", "J", "Q", "K", "A"))}

RU_CALLS = {
    C.PAS: "пас",
    C.IGRAYU: "играю",
    C.MENYAYU: "меняю",
    C.NE_MENYAYU: "не меняю",
    C.SEVENS: "четыре семёрки",
    C.ROST: "рост?",
    C.PISHET: "пишет",
    C.POKAZHI: "покажи",
    C.POKAZYVAYU: "показываю",
    C.SKIN: "скинь",
    C.PROKHODIT_Q: "проходит?",
    C.PROKHODIT: "проходит",
    C.NE_PROKHODIT: "не проходит",
    C.BELLA: "белла",
    C.KONETS: "конец",
}
_RU_COUNTS = {"": "", "dva-": "два ", "tri-": "три "}
_DECLARATION = re.compile(r"(dva-|tri-|)(terts|tertsa|pyatdesyat)")
_OT = re.compile(r"ot-(10|[789JQKA])(-kozyrnogo)?")
_CARD_TOKEN = re.compile(r"(10|[789JQKA])([shdc])")
_PRETTY_CARD = re.compile(r"(?<![\w-])(10|[789JQKA])([♠♥♦♣])")

# every outcome of the engine and the shipped rules (a third-party rule's own: as it is)
RU_OUTCOMES: dict[str, str] = {
    Outcome.MADE: "сыграна",
    Outcome.BIDE: "байд",  # the sources' word (docs/rules.md §5)
    Outcome.HANGING: "висит",
    Outcome.VOID: "пересдача",
    Outcome.CLAIM: "досрочно",  # the match reached mid-deal (not «конец»: cryptic)
    Outcome.FALSE_CLAIM: "ложный конец",
    Outcome.PENALTY: "штраф",
    Outcome.DEBERTS: "деберц",
    Outcome.GAVE_UP: "отказ",
    Outcome.OFFER: "без игры",  # (50 taken without play, as its offer says; «полтинник» is a fifty)
    Outcome.SPLIT: "поделена",
    Outcome.LEFT: "уход",  # (not «игрок ушёл»: a woman leaves too)
    Outcome.TIMEOUTS: "время вышло",
    Outcome.AWAY: "нет связи",
}
# an outcome a person reads in English by another word than its code: a void deal (all
# passed, four sevens) is dealt again, as «пересдача» says and its end line ('void (all
# passed): dealt again'); a deal cut short as its taker reached the target, the server's
# claim or his `konets` (docs/rules.md §7, §10), was claimed, as «досрочно» says (the
# bare code read as a noun, `4 claim 50 : 28`). Short, for the sheet's narrow column
# (no wider than 'false-claim'); the codes stay 'void' and 'claim' on the wire
EN_OUTCOMES: dict[str, str] = {Outcome.VOID: "redealt", Outcome.CLAIM: "claimed"}


def counts_ru(counts: str) -> str:
    """Player counts as the rule book says them ('2, 3 or 4': plugins/manager.said_counts)
    in Russian («2, 3 или 4»)."""
    return counts.replace(" or ", " или ")


def outcome_said(outcome: str, lang: Lang) -> str:
    """A deal's outcome code as a person reads it in ``lang`` ('made', 'redealt';
    «сыграна», «пересдача»); a plugin's own without a word of ``lang``: its code."""
    said = RU_OUTCOMES if lang == Lang.RU else EN_OUTCOMES
    return said.get(outcome, outcome)


# why a match ended (docs/protocol.md §9.7), as the end's line says it
RU_MATCH_REASONS = {
    "target": "набраны очки",
    # the claim is the server's, as a side reaches the target (docs/rules.md §7): nobody
    # declared anything; said as a club says it, of nobody in particular (not «набрал»)
    "claim": "досрочно: набраны очки",
    # a seat's true «конец» (manual-claim: protocol/ends.py KONETS), not the server's
    KONETS: f"объявлен «{RU_CALLS[C.KONETS]}»",
    "deals": "раздачи сыграны",
    "left": "уход",
    "timeouts": "время вышло",
    "away": "нет связи",
    "false-claim": "ложный конец",
    "deberts": "деберц",
    "short": "короткая игра",
    "stakes": "ставки",
    "gap": "отрыв 250",
    "most-deals": "сыграно наибольшее число раздач",
    "server-lost": "сервер потерян",  # not finished (store.base.STOPPED)
    "shutdown": "сервер остановлен",
    "internal": "сбой стола",
}

# the game-over line's bracket after a seat's «конец» (ends.CLAIMED_WORDS in Russian)
RU_CLAIMED_WORDS = f"досрочно: {RU_MATCH_REASONS[KONETS]}"


def ru_card(card: Card) -> str:
    """'В♠' for the jack of spades."""
    return RU_RANKS[card & 7] + SUIT_SYMBOLS[SUITS[card >> 3]]


def ru_card_text(text: str) -> str:
    """Cards already shown as 'J♠' in a text (an engine message), in Cyrillic: 'В♠'."""
    return _PRETTY_CARD.sub(lambda m: _LATIN_RANK.get(m.group(1), m.group(1)) + m.group(2), text)


# "ot korolya": the genitive as a Latin-script player says it (vocabulary reads it back)
EN_GENITIVE = ("semerki", "vosmerki", "devyatki", "desyatki", "valta", "damy", "korolya", "tuza")
_EN_CALL_TOKEN = re.compile(r"(?<![\w?-])([\w?]+(?:-[\w?]+)+)(?![\w?-])")


def spoken_call(token: str, words: Mapping[str, str] | None = None) -> str:
    """A call's token as a player says (and may type) it in the Latin-script human
    style: 'ot-K' is 'ot korolya', 'ne-prokhodit' 'ne prokhodit', 'igrayu-h' 'igrayu ♥',
    'Js' 'J♠'. Each one reads back as the same call (protocol.vocabulary: words are
    its token's parts, a hyphen typed as a space). ``words``: the table's own
    (``table_words``), whose English word comes first: Tertz's 'bella' is 'mariage'."""
    if isinstance(words, TableWords) and (said := words.en.get(token)) is not None:
        return said
    if m := _CARD_TOKEN.fullmatch(token):
        return m.group(1) + SUIT_SYMBOLS[m.group(2)]
    if m := _OT.fullmatch(token):
        trump = " kozyrnogo" if m.group(2) else ""
        return f"ot {EN_GENITIVE[_RANK_INDEX[m.group(1)]]}{trump}"
    if token.startswith(C.IGRAYU + "-") and token[-1] in SUIT_SYMBOLS:
        return f"igrayu {SUIT_SYMBOLS[token[-1]]}"
    return token.replace("-", " ")


def spoken_calls_in(text: str, words: Mapping[str, str] | None = None) -> str:
    """Every hyphenated call token in an engine message ('ot-K is not a call you may
    make now') in its spoken form ('ot korolya is not ...'); with the table's
    ``words`` (``table_words``), a call it re-words in English said so too (Tertz's
    'a combination as high is declared: ask ot chego?', as its prompt says it)."""
    if isinstance(words, TableWords):
        for token, said in words.en.items():
            whole = re.compile(rf"(?<![\w?-]){re.escape(token)}(?![\w?-])")
            text = whole.sub(said, text)
    return _EN_CALL_TOKEN.sub(lambda m: spoken_call(m.group(1)), text)


# a rule plugin's own calls as a Russian player says them: the first of the words its
# plugin gives a call (deberc_call_aliases) that is written in Cyrillic ('lomayu-6':
# 'ломаю 6'); learnt as a server loads its plugins, so no word is written twice
_PLUGIN_RU: dict[str, str] = {}
CYRILLIC = re.compile(r"[а-яёіїєґ]")


def learn_plugin_outcomes(words: Iterable[Mapping[str, str]]) -> None:
    """Learn the Russian of the plugins' own deal outcomes: each of ``words`` is one
    plugin's ``RuleInfo.outcomes_ru`` (never one of the engine's: checked at loading)."""
    for said in words:
        for outcome, word in said.items():
            RU_OUTCOMES.setdefault(outcome, word)


def learn_plugin_calls(aliases: Iterable[Mapping[str, str]]) -> None:
    """Learn the Russian of the plugins' calls: each of ``aliases`` is one plugin's
    ``{word: call}`` in the order it gives them (plugins.LoadedRule.aliases)."""
    for words in aliases:
        for word, call in words.items():
            if CYRILLIC.search(word):
                _PLUGIN_RU.setdefault(call, word)


@attrs.frozen
class TableWords(Mapping[str, str]):
    """A table's own words for calls: read as a mapping, the Russian ones (``{call:
    word}``, what ``ru_call`` takes); ``en``, the English ones of the game's own calls
    that a plugin re-words (``spoken_call``'s)."""

    ru: Mapping[str, str]
    en: Mapping[str, str]

    def __getitem__(self, call: str) -> str:
        return self.ru[call]

    def __iter__(self) -> Iterator[str]:
        return iter(self.ru)

    def __len__(self) -> int:
        return len(self.ru)


# a table whose plugins give no call words of their own
NO_WORDS = TableWords(MappingProxyType({}), MappingProxyType({}))


def table_words(aliases: Mapping[str, str]) -> TableWords:
    """The words of a table's calls where its plugins give one: ``aliases``
    (``RuleSet.call_aliases``, ``{word: call}`` in each plugin's order) to ``{call:
    its first Cyrillic word}``, and for a call of the game's own (one the engine words
    itself, ``RU_CALLS``), its plugin's first Latin word in English. So a plugin may
    re-word a call of the game's own for its tables alone: Tertz's 'bella' is «марьяж»
    and 'mariage', its 'rost?' «от чего?» and 'ot chego?' (as its entry of 'calls'
    leads, help.CallWords.latin), while a Deberts table says «белла», 'bella', «рост?»,
    'rost?'. Worked out once a table (``ru_call``'s and ``spoken_call``'s ``words``)."""
    ru: dict[str, str] = {}
    en: dict[str, str] = {}
    for word, call in aliases.items():
        if CYRILLIC.search(word):
            ru.setdefault(call, word)
        elif word != call and call in RU_CALLS:  # (the token itself: not a re-wording)
            en.setdefault(call, word)
    if not ru and not en:
        return NO_WORDS
    return TableWords(MappingProxyType(ru), MappingProxyType(en))


def ru_call(token: str, words: Mapping[str, str] = NO_WORDS) -> str:
    """A call's token as a Russian player says it: 'ot-A' is 'от туза', 'Js' is 'В♠',
    a plugin's call in its plugin's first Cyrillic word ('lomayu-6' is 'ломаю 6').
    ``words``: the table's own (``table_words``), which come first. Each one reads back
    as the same call (protocol.vocabulary); a call without Russian words is shown as
    its token."""
    if words:
        said = words.get(token)
        if said is not None:
            return said
    if m := _CARD_TOKEN.fullmatch(token):
        return _LATIN_RANK.get(m.group(1), m.group(1)) + SUIT_SYMBOLS[m.group(2)]
    if m := _OT.fullmatch(token):
        rank = _RANK_INDEX[m.group(1)]
        trump = "" if not m.group(2) else " козырной" if rank in _FEMININE else " козырного"
        return f"от {RU_GENITIVE[rank]}{trump}"
    if token.startswith(C.IGRAYU + "-") and token[-1] in SUIT_SYMBOLS:
        return f"играю {SUIT_SYMBOLS[token[-1]]}"
    if m := _DECLARATION.fullmatch(token):
        count = _RU_COUNTS[m.group(1)]
        # two fifties are 'два полтинника' at the table ('два пятьдесят' nobody says)
        fifty = "полтинника" if count else "пятьдесят"
        word = fifty if m.group(2) == C.PYATDESYAT else ("терца" if count else "терц")
        return count + word
    return RU_CALLS.get(token) or _PLUGIN_RU.get(token, token)
