"""What the server explains: 'help', 'calls' and 'rules'."""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, TypeVar

import attrs

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.game.rules import RuleSet
from deberc_net.game.view import offered, view
from deberc_net.plugins import RuleError, RuleInfo, RuleKind
from deberc_net.plugins.manager import (
    BUILTIN_VARIANT,
    LoadedRule,
    RuleBook,
    said_counts,
    summary_for,
)
from deberc_net.plugins.naming import rule_named, variant_named
from deberc_net.plugins.near_names import near_name
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import (
    CALLS_HELP,
    COMMANDS,
    OPTION_CALLS_HELP,
    VARIANT_CALLS_HELP,
    Command,
    NewGames,
    command_word,
    help_text,
    number_word,
    seconds_said,
)
from deberc_net.protocol.hints import command_hint, hint
from deberc_net.protocol.lang import (
    CYRILLIC,
    RU_CALLS,
    Lang,
    TableWords,
    asks_ukrainian,
    counts_ru,
    lang_argument,
    ru_call,
    spoken_call,
    table_words,
)
from deberc_net.protocol.messages import (
    RU_CALLS_HELP,
    RU_OPTION_CALLS_HELP,
    RU_VARIANT_CALLS_HELP,
    RULES_BREAKS,
    Msg,
    Phrase,
    Value,
    game_for,
    phrase,
)
from deberc_net.protocol.render import prompt_calls
from deberc_net.protocol.said_back import said_back
from deberc_net.protocol.vocabulary import (
    CallSyntaxError,
    engine_call,
    normalize,
    numbered_call_range,
    parse_call,
    unmixed,
)

from .allowance import may_list
from .rematch import told_s
from .session import Session
from .table import Table

if TYPE_CHECKING:
    from .lobby import Lobby


# the texts a server sends are few: each is built once (a client asking for them again
# and again costs the server a copy, not a rendering: docs/security.md §2)
HELP_TEXTS = 512  # kept at most; a topic is the client's word, so the cache is bounded
CALLS_TEXTS = 64  # 'calls' blocks kept at most (one for the lobby, one a table's rules)
CallsKey = tuple[int, str, tuple[str, ...]]  # a rule set's: players, variant, options
Texts = tuple[tuple[str, ...], tuple[str, ...]]  # a text in English and in Russian
Kept = TypeVar("Kept")  # what is built once a rule set (its texts, its words)


@functools.lru_cache(maxsize=HELP_TEXTS)
def _help_text(
    topic: str | None,
    phase: str,
    calls_now: tuple[str, ...],
    lang: Lang,
    admin: bool,
    playing: bool,
    clocks_ms: tuple[int, int],
    rematch_s: int,
    house_bots: bool = False,
    games: NewGames = NewGames.OPEN,
) -> tuple[str, ...]:
    return tuple(
        help_text(
            topic,
            phase,
            calls_now,
            lang,
            admin=admin,
            playing=playing,
            clocks_ms=clocks_ms,
            rematch_s=rematch_s,
            house_bots=house_bots,
            games=games,
        )
    )


# the longest word 'help' looks for in 'calls' ('от короля козырного': 19): a longer
# topic names no call, and is not looked for (a flood of long topics costs nothing)
TOPIC_MOST = 40


# a call's first word that is none alone: 'help ne prokhodit' searched by 'ne' told
# the option swap-before-extra's 'ne menyayu'
_NEGATIONS = frozenset({"ne", "не"})
# the engine's answers that 'calls' lists by their question's entry: played where it is
# ('help no' at a Moscow table was told it is none of this table's calls)
_ANSWERED = {"prokhodit": "prokhodit?", "ne prokhodit": "prokhodit?"}


# an argument in a call's column of 'calls' ('igrayu SUIT', 'ot RANK', 'lomayu N',
# «от КАРТЫ»): its entry is that of every call said with one
_ARGUMENT = re.compile(r"(?<![\w-])(?:[A-Z]{2,}|[А-Я]{2,}|N)(?![\w-])")


def calls_about(
    topic: str,
    texts: Texts,
    lang: Lang,
    *,
    elsewhere: bool = False,
    first_word: bool = True,
    shown: str | None = None,
    argued: bool = False,
) -> tuple[str, ...]:
    """The entries of 'calls' (``texts``: English, Russian) that name ``topic`` as a
    word ('help рост?' tells «рост?» and the answers to it), each once, under a line
    saying what they are; none unless a call's own column names it (a word of the
    explanations alone, 'help a', is no call: 'help' then says it is no command).
    ``elsewhere``: ``texts`` are the lobby's, asked at a table that has no such call
    ('help konets' at a table without manual-claim), and the line says so.
    ``first_word``: a topic no column names whole is searched by its first word ('от
    туза'); without it, such a topic finds nothing. ``shown``: the word the first line
    says, when ``topic`` is the call it was read as ('кінець': konets). ``argued``: by
    its first word, only the entries of a call said with an argument, whose column
    names it ('igrayu SUIT', 'ot RANK', 'lomayu N': 'igrayu ♥' is no 'igrayu').
    The texts are cut and folded once (``_index``): a topic costs its own fold and
    one search of the calls' columns."""
    topic = topic.strip()
    if not topic or len(topic) > TOPIC_MOST:
        return ()
    index = _index(texts[0] if lang == Lang.EN else texts[1])
    named = re.compile(rf"(?<!\w){re.escape(folded(topic))}(?!\w)")
    searched = index.texts
    if not named.search(index.columns):
        # a call as it is said ('от туза', 'igrayu h'): its first word is the column's,
        # and only the entries whose column says it are told ('ломаю N … N от 1 до 12'
        # is no answer to 'от туза')
        # (a negation is no call's first word alone: 'ne prokhodit' is no 'ne menyayu')
        words = topic.split()
        first = " ".join(words[:2] if words[0].lower() in _NEGATIONS else words[:1])
        named = re.compile(rf"(?<!\w){re.escape(folded(first))}(?!\w)")
        if not first_word or first == topic or not named.search(index.columns):
            return ()
        searched = tuple(index.columns.split("\n"))
        if argued:
            searched = tuple(x if a else "" for x, a in zip(searched, index.argued, strict=True))
    rows = zip(index.entries, index.sections, searched, strict=True)
    found = [(entry, section) for entry, section, text in rows if named.search(text)]
    if not found:  # (by its first word, none of the calls said with an argument)
        return ()
    said = Msg.CALLS_ELSEWHERE if elsewhere else Msg.CALLS_ABOUT
    # (a long topic's first line wrapped to 80 columns, as the rest of 'help')
    told = textwrap.wrap(phrase(said, topic=topic if shown is None else shown).text(lang), 80)
    return (*told, *_entries_told(found, index, elsewhere=elsewhere))


def _entries_told(
    found: Sequence[tuple[tuple[str, ...], str]], index: _Index, *, elsewhere: bool
) -> list[str]:
    """Entries of 'calls' (each with its heading, shortened) as 'help' lists them: each
    once, under their headings where they come from more than one place."""
    # the lobby's 'calls' tells every game's: say whose each entry is when they differ
    # ('help от туза' told Deberts' and Tertz's answers unlabelled: a tryout, s28), and
    # an option's call as one ('help dave' in the lobby read as every table's call)
    sections = {section for _, section in found}
    labelled = elsewhere or len(sections) > 1 or not sections.isdisjoint(_option_headings())
    # (in the lobby, another game's alone: 'help mariazh' there said not whose it is)
    labelled = labelled or not sections <= {index.sections[0]}
    # an entry the same in more than one game's block, told once under their headings
    # together ('help pishet' in the lobby listed Deberts's and Tertz's same lines twice)
    merged: dict[tuple[str, ...], list[str]] = {}
    for entry, section in found:
        merged.setdefault(entry, []).append(section.removesuffix(":"))
    headings = {" / ".join(whose) + ":": None for whose in merged.values()}
    order = {heading: i for i, heading in enumerate(headings)}  # (each heading's once)
    told: list[str] = []
    last = None
    for entry, whose in sorted(merged.items(), key=lambda x: order[" / ".join(x[1]) + ":"]):
        heading = " / ".join(whose) + ":"
        if labelled and heading != last:
            told.append(heading)
            last = heading
        told += entry
    return told


@attrs.frozen
class _Topic:
    """A thing a player names by what it is ('help trump', 'help ставка'), no call nor
    command: the calls that do it, by the words their columns of 'calls' say in each
    language, or by the option whose calls they are (as its entries say: 'option
    dave')."""

    columns: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    option: str | None = None

    def found(self, index: _Index, lang: Lang) -> list[tuple[tuple[str, ...], str]]:
        if self.option is None:
            words = "|".join(re.escape(folded(w)) for w in self.columns[lang == Lang.RU])
            named = re.compile(rf"(?<!\w)(?:{words})(?!\w)")
            searched = index.columns.split("\n")
        else:  # (not the option's name run on: 'option dave geometric', were it one)
            said = "option" if lang == Lang.EN else "опция"
            named = re.compile(rf"(?<!\w){re.escape(folded(f'{said} {self.option}'))}(?!\s*\w)")
            searched = list(index.texts)
        rows = zip(index.entries, index.sections, searched, strict=True)
        return [(entry, section) for entry, section, text in rows if named.search(text)]


_TRUMP = _Topic((("pas", "igrayu", "menyayu"), ("пас", "играю", "меняю")))
_DECLARE = _Topic(
    (
        ("terts", "pyatdesyat", "sto", "dvesti", "prokhodit?", "rost?", "ot", "pishet",
         "pokazhi", "pokazyvayu", "bella", "mariage"),
        ("терц", "пятьдесят", "сто", "двести", "проходит?", "рост?", "от", "пишет",
         "покажи", "показываю", "белла", "марьяж"),
    )
)  # fmt: skip
_STAKE = _Topic(option="dave")
# the words people type for each (English, Russian, Ukrainian), as they are folded:
# 'help trump', 'help declare', 'help stake' answered "no command" (a review, s42)
TOPICS: dict[str, _Topic] = {
    word: topic
    for topic, words in (
        (_TRUMP, ("trump", "trumps", "order", "ordering", "bid", "bidding", "козырь", "козыри")),
        (_TRUMP, ("заказ", "торговля", "козир", "козирі", "торгівля")),
        (_DECLARE, ("declare", "declaration", "declarations", "combination", "combinations")),
        (_DECLARE, ("объявить", "объявление", "объявления", "комбинация", "комбинации")),
        (_DECLARE, ("оголосити", "оголошення", "комбінація", "комбінації")),
        (_STAKE, ("stake", "stakes", "ставка", "ставки")),
    )
    for word in words
}


def topic_calls(
    topic: str, texts: Texts, lang: Lang, elsewhere: Texts | None = None
) -> tuple[str, ...]:
    """'help TOPIC' for a thing ``TOPICS`` names: the entries of 'calls' (``texts``)
    of the calls that do it, under a line saying so; at a table none of whose calls
    do, the lobby's (``elsewhere``), said to be other tables'. Else ()."""
    about = TOPICS.get(folded(" ".join(topic.split())))
    if about is None:
        return ()
    for said, block in ((Msg.HELP_TOPIC, texts), (Msg.HELP_TOPIC_ELSEWHERE, elsewhere)):
        if block is None:
            continue
        index = _index(block[lang == Lang.RU])
        found = about.found(index, lang)
        if found:
            told = textwrap.wrap(phrase(said, topic=topic).text(lang), 80)
            away = said == Msg.HELP_TOPIC_ELSEWHERE
            return (*told, *_entries_told(found, index, elsewhere=away))
    return ()


def _wrapped(said: Phrase, lang: Lang) -> tuple[str, ...]:
    """One answer of help's, said in ``lang``: lines of 80, the later ones indented."""
    return tuple(textwrap.wrap(said.text(lang), 80, subsequent_indent="  "))


def _seconds(ms: int) -> Phrase:
    """Milliseconds as seconds said in either language, as 'help clock' says them: a
    bot clock of 1500 ms is '1.5' (Russian '1,5'), not the '1' a whole division made."""
    return phrase(Msg.OWN_WORDS, en=seconds_said(ms, Lang.EN), ru=seconds_said(ms, Lang.RU))


@attrs.frozen
class CallWords:
    """The words one rule's plugin (at a table: the table's plugins) gives its calls,
    as 'help WORD' reads them: ``whose``, as 'help' names them in the lobby ('a Tertz
    table call'; None: the table's own); ``firsts``, the first word of each, folded as
    a call is read, so that a word of none costs one look-up and no reading (some
    0.6 ms with every game's words read through: 'help' floods are metered, s29)."""

    whose: Phrase | None
    aliases: Mapping[str, str]
    words: TableWords
    firsts: frozenset[str]
    # a call of the engine's that the plugin re-words, by its first Latin word: said so
    # in English ('від чого?' is Tertz's 'ot chego?', not the bare 'rost?' beside the
    # words 'help' names other calls by), as its entry of 'calls' leads with it
    latin: Mapping[str, str] = attrs.field(factory=dict)

    @classmethod
    def of(cls, whose: Phrase | None, aliases: Mapping[str, str]) -> CallWords:
        firsts = {normalize(word).partition(" ")[0] for word in aliases}
        latin: dict[str, str] = {}
        for word, call in aliases.items():
            if call in RU_CALLS and word != call and not CYRILLIC.search(word):
                latin.setdefault(call, word)
        return cls(whose, aliases, table_words(aliases), frozenset(firsts), latin)


def call_pointer(
    topic: str,
    lang: Lang,
    texts: Texts | None,
    words: Sequence[CallWords] = (),
    *,
    elsewhere: bool = False,
) -> tuple[str, ...]:
    """What a 'help' word that is no command and names no entry of 'calls' is, when it
    is a table call as typed at a table: a card in any of its spellings ('9h', 'Т♠',
    'king hearts': played by typing it), or another word for a call ('concede':
    pishet). A call other than a card only where 'calls' (``texts``: the table's;
    None: the lobby's, every game's) has it ('help pass' at a Tertz table: none).
    ``words``: the words the table's plugins give their calls (in the lobby, every
    game's and option's, each named), read as a table reads them (Tertz's 'mariazh',
    'lomaju 5', «від чого?»; a numbered call's word without its number too).
    ``elsewhere``: ``words`` are the lobby's, asked at a table whose rules have no such
    call ('help mariazh' at a Moscow table): said whose, and not played there."""
    if len(topic) > TOPIC_MOST:
        return ()
    call = engine_call(topic)
    if call is not None and call.name == C.PLAY:
        said = phrase(Msg.HELP_CARD, topic=topic)
    elif call is not None:
        token = call.token()
        spoken = spoken_call(token)
        if texts is not None and not calls_about(_ANSWERED.get(spoken, spoken), texts, Lang.EN):
            return ()
        name = phrase(Msg.CALL_WORD, call=spoken_call(token), ru=ru_call(token))
        option = _engine_option(spoken_call(token)) if texts is None else None
        if option is None:
            said = phrase(Msg.HELP_CALL, topic=topic, call=name)
        else:  # in the lobby, an option's call as one ('help кінець': manual-claim's)
            owner = phrase(Msg.OPTION_TABLE_CALL, option=option)
            said = phrase(Msg.HELP_CALL_OF, topic=topic, whose=owner, call=name)
    else:
        first = normalize(topic).partition(" ")[0]
        read = [
            (w.whose, named) for w in words if first in w.firsts and (named := _own_call(topic, w))
        ]
        if not read:
            return ()
        whose, name = read[0]
        if len(read) > 1:  # more than one game's word ('prinimayu': dave's, poltinniki's)
            whose = None
            told: dict[tuple[str, str], None] = {(n.text(), n.text(Lang.RU)): None for _, n in read}
            en, ru = (" / ".join(said[i] for said in told) for i in (0, 1))
            name = phrase(Msg.OWN_WORDS, en=en, ru=ru)
        if elsewhere:  # as 'help konets' at a table without manual-claim is told
            whose = whose or phrase(Msg.OTHER_TABLES_CALL)
            said = phrase(Msg.HELP_CALL_ELSEWHERE, topic=topic, whose=whose, call=name)
        elif whose is None:
            said = phrase(Msg.HELP_CALL, topic=topic, call=name)
        else:
            said = phrase(Msg.HELP_CALL_OF, topic=topic, whose=whose, call=name)
    return _wrapped(said, lang)


def _own_call(topic: str, own: CallWords) -> Phrase | None:
    """The plugin's call ``topic`` says with ``aliases`` (its words), as a table of
    theirs reads it and says it ('mariazh': mariage, «марьяж»); a numbered call's word
    with a number it lacks or none ('lomaju', «ламаю»): the call with its range."""
    aliases, words = own.aliases, own.words
    try:
        call: Call | None = parse_call(topic, (), aliases)
    except CallSyntaxError:
        call = None
    if call is not None and call.token() in aliases.values():
        token = call.token()
        en = words.en.get(token) or own.latin.get(token) or spoken_call(token, words)
        return phrase(Msg.CALL_WORD, call=en, ru=ru_call(token, words))
    numbered = numbered_call_range(topic, aliases)
    if numbered is None:
        return None
    _, low, high, head = numbered
    first = f"{head}-{low}"  # said as 'lomayu 1', «ломаю 1»: its word is all but the number
    en, ru = spoken_call(first, words).rpartition(" ")[0], ru_call(first, words).rpartition(" ")[0]
    said = (phrase(Msg.CALL_NUMBERED, call=x, low=low, high=high) for x in (en or head, ru or head))
    en_said, ru_said = next(said).text(), next(said).text(Lang.RU)
    return phrase(Msg.OWN_WORDS, en=en_said, ru=ru_said)


def _here_instead(
    table: Table, topic: str, others: Sequence[CallWords], own_texts: Texts, lang: Lang
) -> tuple[str, ...]:
    """What ``table`` says for the call another game's words ``topic`` make, when it
    plays that call in words of its own (Tertz's «від чого?» is the engine's rost?: at
    a Moscow table, 'rost?'; its 'mariazh', bella): a line saying so, else none."""
    first = normalize(topic).partition(" ")[0]  # (a game without the word: no reading)
    for other in others:
        if first not in other.firsts:
            continue
        try:
            call = parse_call(topic, (), other.aliases)
        except CallSyntaxError:
            continue
        if call is None or call.token() not in other.aliases.values():
            continue
        token = call.token()
        here = spoken_call(token, table.words)
        if not calls_about(here, own_texts, Lang.EN, first_word=False):
            return ()  # none of this table's calls (Tertz's 'lomayu' at a Moscow table)
        name = phrase(Msg.CALL_WORD, call=here, ru=ru_call(token, table.words))
        said = phrase(Msg.HELP_CALL_HERE, call=name)
        return _wrapped(said, lang)
    return ()


def _call_read(
    table: Table,
    topic: str,
    lang: Lang,
    texts: tuple[Texts, Texts],
    words: Sequence[CallWords],
    lobby_words: Callable[[], Sequence[CallWords]],
) -> tuple[str, ...]:
    """'help WORD' at ``table`` for a word that reads as a call: the call's entries of
    'calls' (``texts``: the table's, the lobby's), found by the call's own name in the
    language asked, whichever of its words was typed (Latin, Russian, Ukrainian,
    English) and whichever language is asked (docs/protocol.md §4.4); a call of this
    table's that no entry names, told alone. A call of other tables (the engine's this
    table does not play, another game's or option's words): their entries, and what
    this table says for it. None of these (a card, a word of no call, a call without
    an entry anywhere): (), as before."""
    own_texts, lobby_texts = texts
    own = words[0]
    token = _read_as(topic, own, engine=True)
    if token == C.PROKHODIT and _concedes(own_texts):
        # no prokhodit? to answer here: the word concedes, as a table reads it where
        # pishet is legal (Tertz, docs/rules.md §12.5); help said it was not played
        token = C.PISHET
    if token is not None:
        en, ru = _names(token, own)
        name = phrase(Msg.CALL_WORD, call=en, ru=ru)
        # played here: its entry names it, or its first word (an answer 'calls' lists
        # under its question is played where its question is)
        if calls_about(_ANSWERED.get(en, en), own_texts, Lang.EN):
            # (an answer is told as one, with its question's entry: not what it does)
            if en in _ANSWERED:
                about = _answer_entries(topic, token, own_texts, lang)
            else:
                about = _call_entries((en, ru), own_texts, lang, topic)
            if about:
                return about
            said = phrase(Msg.HELP_CALL, topic=topic, call=name)
            return _wrapped(said, lang)
    readings = [] if token is None or en in _ANSWERED else [(en, ru)]
    first = normalize(topic).partition(" ")[0]  # (a word of none costs one look-up)
    theirs = []
    for other in lobby_words():
        if first in other.firsts and (call := _read_as(topic, other, engine=False)):
            theirs.append(other)
            readings.append(_names(call, other))
    for names in readings:
        about = _call_entries(names, lobby_texts, lang, topic, elsewhere=True)
        if about:
            return about + _here_instead(table, topic, lobby_words(), own_texts, lang)
    if theirs:  # another game's or option's words, told whose, in either language alike
        pointer = call_pointer(topic, lang, None, theirs, elsewhere=True)
        return pointer + _here_instead(table, topic, lobby_words(), own_texts, lang)
    if token is None:
        return ()
    said = phrase(
        Msg.HELP_CALL_ELSEWHERE, topic=topic, whose=phrase(Msg.OTHER_TABLES_CALL), call=name
    )
    return _wrapped(said, lang)


def _concedes(texts: Texts) -> bool:
    """Whether 'prokhodit' concedes at a table of these 'calls' (``texts``): it has
    pishet and no prokhodit? that the word would answer."""
    return bool(calls_about("pishet", texts, Lang.EN)) and not calls_about(
        _ANSWERED["prokhodit"], texts, Lang.EN
    )


def _lobby_read(
    topic: str, lang: Lang, texts: Texts, lobby_words: Callable[[], Sequence[CallWords]]
) -> tuple[str, ...]:
    """'help WORD' in the lobby for a word that reads as a call: the entries of every
    game's and option's 'calls' (``texts``) of that call by its own name in the language
    asked, as at a table ('help two tierces' listed Tertz's dvesti by its word 'two',
    'help ріст?' only the call where 'help rost?' lists its entries). The engine's
    reading first, then each game's or option's words; none found (an answer of
    prokhodit?, a call one language's 'calls' alone names): the call and whose, in
    either language alike. A card, or a word of no call: ()."""
    readings = []
    engines = engine_call(topic)
    if engines is not None:
        if engines.name == C.PLAY:
            return ()  # (a card: said to be one)
        token = engines.token()
        if (en := spoken_call(token)) not in _ANSWERED:
            readings.append((en, ru_call(token)))
        elif about := _answer_entries(topic, token, texts, lang):  # ('yes': prokhodit)
            return about
    first = normalize(topic).partition(" ")[0]
    theirs = [w for w in lobby_words() if first in w.firsts]
    readings += [_names(call, w) for w in theirs if (call := _read_as(topic, w, engine=False))]
    for names in readings:
        if about := _call_entries(names, texts, lang, topic):
            return about
    # no entry of both languages names it: the call, and whose, in either alike
    return call_pointer(topic, lang, None, lobby_words()) if engines or readings else ()


def _answer_entries(topic: str, token: str, texts: Texts, lang: Lang) -> tuple[str, ...]:
    """An answer of the engine's to a question ('yes', «проходит»: prokhodit, of
    prokhodit?) as the call it is, with its question's entries of 'calls' (``texts``),
    which name the answers nowhere: told only the call, 'help prokhodit' said no more
    than 'prokhodit is … a table call: prokhodit'. None where 'calls' lists no such
    question."""
    question = _ANSWERED[spoken_call(token)]
    names = (question, ru_call(question))
    name = phrase(Msg.CALL_WORD, call=spoken_call(token), ru=ru_call(token))
    about = [calls_about(n, texts, said, argued=True) for n, said in zip(names, Lang, strict=True)]
    if not all(about):
        return ()
    said = phrase(Msg.HELP_ANSWER, topic=topic, call=name)
    told = (*_wrapped(said, lang), *_entries_alone(names, about[lang == Lang.RU], lang))
    if token != C.PROKHODIT:
        return told
    # the engine reads prokhodit as pishet too, conceding a rost? (docs/rules.md §3): said
    # where pishet is played, as at Moscow and Kharkov tables (Tertz's: pishet's alone)
    names = ("pishet", ru_call(C.PISHET))
    concedes = [
        calls_about(n, texts, in_lang, argued=True) for n, in_lang in zip(names, Lang, strict=True)
    ]
    if not all(concedes):
        return told
    also = _wrapped(phrase(Msg.HELP_ALSO_CONCEDES), lang)
    return (*told, *also, *_entries_alone(names, concedes[lang == Lang.RU], lang))


def _entries_alone(names: tuple[str, str], about: tuple[str, ...], lang: Lang) -> tuple[str, ...]:
    """calls_about's entries (``about``) of the call ``names`` without its first line."""
    shown = textwrap.wrap(phrase(Msg.CALLS_ABOUT, topic=names[lang == Lang.RU]).text(lang), 80)
    return about[len(shown) :]


# the engine's calls said by a word alone, that 'help' hints a mistyped word to
_HINTED_CALLS = tuple(
    Call(name)
    for name in (
        *(C.PAS, C.IGRAYU, C.MENYAYU, C.NE_MENYAYU, C.SEVENS, C.ROST, C.PISHET, C.POKAZHI),
        *(C.POKAZYVAYU, C.SKIN, C.PROKHODIT_Q, C.BELLA, C.KONETS, C.TERTS, C.PYATDESYAT),
    )
)


def _call_meant(topic: str, aliases: Mapping[str, str], lang: Lang) -> str | None:
    """The call a mistyped 'help' word is near ('bela': bella), as a table hints a call
    (the engine's, and its table's plugins' ``aliases``), by its own name in ``lang``
    (Tertz's 'mariage', «марьяж»); None."""
    if len(topic) > TOPIC_MOST:
        return None
    calls = (*_HINTED_CALLS, *(Call(name) for name in dict.fromkeys(aliases.values())))
    near = hint(topic, calls, aliases)
    if near is None:
        return None
    said = ru_call if lang == Lang.RU else spoken_call
    return said(near.token(), table_words(aliases))


def _read_as(topic: str, own: CallWords, *, engine: bool) -> str | None:
    """The token of the call ``topic`` says at a table with ``own``'s words: the
    engine's (``engine``) or theirs; None for a card or no call."""
    try:
        call = parse_call(topic, (), own.aliases)
    except CallSyntaxError:
        return None
    token = call.token()
    if call.name == C.PLAY or not (engine or token in own.aliases.values()):
        return None
    return token


def _names(token: str, own: CallWords) -> tuple[str, str]:
    """A call's own name in English and in Russian, in ``own``'s words where they
    give it one (Tertz's rost?: 'ot chego?', «от чего?»)."""
    words = own.words
    en = words.en.get(token) or own.latin.get(token) or spoken_call(token, words)
    return en, ru_call(token, words)


def _call_entries(
    names: tuple[str, str], texts: Texts, lang: Lang, topic: str, *, elsewhere: bool = False
) -> tuple[str, ...]:
    """The entries of 'calls' (``texts``) of the call named ``names`` (in English, in
    Russian): those that say it, or a call said with an argument by its first word
    ('igrayu ♥': 'igrayu SUIT'), under a line naming ``topic``, the word asked. Only
    where both languages' 'calls' name it (Tertz's «сто дам» is in its Russian column
    alone, 'sto-korolei' in its English): else none, and the call is told alone, in
    either language alike."""
    told = [
        calls_about(name, texts, said, elsewhere=elsewhere, shown=topic, argued=True)
        for name, said in zip(names, (Lang.EN, Lang.RU), strict=True)
    ]
    return told[lang == Lang.RU] if all(told) else ()


@functools.cache
def _engine_option(spoken: str) -> str | None:
    """The option that makes the engine's call ``spoken`` ('konets': manual-claim),
    as its entry of 'calls' says; None for a call of the games' own."""
    for option, entry in OPTION_CALLS_HELP.items():
        if _call_column(entry.splitlines()[0]).split(" (")[0] == spoken:  # ('ne menyayu')
            return option
    return None


@functools.cache
def _option_headings() -> frozenset[str]:
    """The headings of the options' calls in 'calls', in both languages."""
    keys = (Msg.OPTION_CALLS, Msg.TABLE_OPTION_CALLS)
    return frozenset(phrase(key).text(lang) for key in keys for lang in Lang)


@attrs.frozen
class _Index:
    """'calls' in one language as 'help WORD' searches it: its entries, each once, and
    each one's folded text; the calls' own columns folded, one a line."""

    entries: tuple[tuple[str, ...], ...]
    sections: tuple[str, ...]  # each entry's heading, shortened ('Tertz table calls:')
    texts: tuple[str, ...]
    columns: str
    argued: tuple[bool, ...]  # each entry's: a call said with an argument ('ot RANK')


@functools.lru_cache(maxsize=2 * CALLS_TEXTS)  # (English and Russian per 'calls')
def _index(lines: tuple[str, ...]) -> _Index:
    placed: dict[tuple[tuple[str, ...], str], None] = {}  # each once a section, in order
    section = ""
    for entry in _entries(lines):
        if len(entry) == 1 and _is_heading(entry[0]):
            section = entry[0].split(" (")[0].removesuffix(":") + ":"
        placed[entry, section] = None
    entries = tuple(entry for entry, _ in placed)
    sections = tuple(section for _, section in placed)
    texts = tuple("\n".join(map(folded, entry)) for entry in entries)
    columns = "\n".join(folded(_call_column(entry[0])) for entry in entries)
    argued = tuple(bool(_ARGUMENT.search(_call_column(entry[0]))) for entry in entries)
    return _Index(entries, sections, texts, columns, argued)


def _is_heading(line: str) -> bool:
    """A heading of 'calls' ('Tertz table calls (no bidding; …):'): a line of its own,
    not indented, ending with a colon."""
    return not line.startswith(" ") and line.endswith(":")


def _call_column(line: str) -> str:
    """A call's line of 'calls' to its call column ('  rost? (рост?)   ask the …':
    'rost? (рост?)'); prose and headings have none."""
    if not line.startswith("  ") or line.startswith("   "):
        return ""
    return re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]


def folded(text: str) -> str:
    """``text`` as 'help WORD' compares it: as the calls are read (vocabulary), case,
    ё and a hyphen aside (the call 'sto tuzov' is the column's 'sto-tuzov': 'help sto
    tuzov' was told the call's name alone); each topic and each line of 'calls' once
    (tests count the calls)."""
    return text.casefold().replace("ё", "е").replace("-", " ")


def _entries(lines: Sequence[str]) -> list[tuple[str, ...]]:
    """'calls' cut into its entries: a call's line with the lines its explanation
    wraps onto (indented deeper); a sentence of prose (lines not indented; a heading
    ends with a colon)."""
    entries: list[list[str]] = []
    for line in lines:
        last = entries[-1][-1] if entries else ""
        prose_on = not line.startswith(" ") and not line.endswith(":")
        if last and (line.startswith("   ") or (prose_on and last[0] != " " and last[-1] != ".")):
            entries[-1].append(line)
        else:
            entries.append([line])
    return [tuple(e) for e in entries]


@attrs.define(eq=False)
class Help:
    lobby: Lobby
    # the 'calls' texts built, by the table's rule set: its player count, variant and
    # options (a plugin's game may be one for some counts only); None: the lobby's
    _calls: dict[CallsKey | None, Texts] = attrs.Factory(dict)
    # the 'rules' texts built likewise, a table's without its first line (its number)
    _rules: dict[CallsKey | None, Texts] = attrs.Factory(dict)
    # the words its plugins give calls, likewise ('help mariazh': CallWords)
    _words: dict[CallsKey | None, tuple[CallWords, ...]] = attrs.Factory(dict)
    # 'help WORD''s answers, by rule set, word and language: a word is read as a call
    # and 'calls' searched once (some 1-2 ms of CPU), not again at every asking
    _answers: dict[tuple[CallsKey | None, str, Lang], tuple[str, ...]] = attrs.Factory(dict)
    # every option's words for its calls (CallWords), built at the first asking
    _option_words: tuple[CallWords, ...] | None = None

    def option_call(self, text: str) -> bool:
        """Whether ``text`` is an option's own call, said at a table that took it for no
        call ('сдаюсь' where 'dave' is off): refused as one said at tables with other
        options, as 'konets' is where 'manual-claim' is off, not as no call at all (a
        tryout, s44). Another game's words are not an option's (Tertz's 'mariazh')."""
        if self._option_words is None:
            self._option_words = tuple(
                CallWords.of(None, rule.aliases)
                for rule in self.lobby.rules.rules()
                if rule.aliases and rule.info.kind != RuleKind.VARIANT
            )
        first = normalize(text).partition(" ")[0]
        return any(
            first in own.firsts and _read_as(text, own, engine=False) is not None
            for own in self._option_words
        )

    async def help(self, session: Session, item: Command) -> None:
        asked = _lang_asked(session, item.args, "help [COMMAND] [lang=en|ru]")
        if asked is None:
            return
        args, lang = asked
        # one command's usage is a line or two; the whole list, or the entries of
        # 'calls' a word names ('help rost?'), a long text
        if self._long_help(session, args) and not may_list(
            self.lobby, session, item.name, self.lobby.is_admin(session)
        ):
            return
        table = session.table
        if not args and table is not None and table.remote and self.lobby.node is not None:
            # the legal calls are known where it plays
            self.lobby.node.ask_help(session, table, lang)
            return
        self.send_help(session, args, lang)

    def _long_help(self, session: Session, args: Sequence[str]) -> bool:
        """Whether 'help ARGS' is metered: the list, and any word that is no command
        (entries of 'calls', or a search of them and of the commands for a hint: some
        0.5 ms a line, unmetered, until a hostile tryout's flood held a core, s29)."""
        return not args or command_word(args[0]) not in COMMANDS

    def send_help(self, session: Session, args: Sequence[str], lang: Lang | None = None) -> None:
        """'help ARGS', in ``lang`` if asked in one (None: the connection's)."""
        english = self._help(session, args, Lang.EN)
        block = ev.TextBlock("help", english, self._help(session, args, Lang.RU))
        session.send(told_in(block, lang))

    def _help(self, session: Session, args: Sequence[str], lang: Lang) -> tuple[str, ...]:
        admin = self.lobby.is_admin(session)  # ('seek reserved' is told to admins only)
        # a word typed half in Latin look-alikes read as a table call reads it ('help
        # чeрви', a Latin e, is 'help черви': a tryout, s40, was told 'no command')
        aliases = None if session.table is None else session.table.rules.call_aliases
        args = [unmixed(word, aliases) for word in args]
        c = self.lobby.config
        clocks = (c.human_clock_ms, c.bot_clock_ms)
        rematch = told_s(self.lobby)  # (whole seconds, as the match's end says it)
        if args and command_word(args[0]) not in COMMANDS:  # 'help рост?': a table call, maybe
            topic = " ".join(args)
            table = session.table
            about = self._call_help(table, topic, lang)
            if about:  # (a call's word first: «терц» is the run of three, as 'terts')
                return about
            # a variant's or option's name ('help tertz'): a newcomer who read 'new 2
            # tertz' asked so and was told "did you mean 'help terts'?" (a tryout, s45)
            rule = self._rule_named(topic) if len(args) == 1 else None
            if rule is not None:
                return self._rule_help(rule, lang)
        if args:
            # a command said by what it does ('help пароль') or mistyped: which one
            near = None if command_word(args[0]) in COMMANDS else command_hint(args[0], COMMANDS)
            if near is None and command_word(args[0]) not in COMMANDS:
                # a table call mistyped ('help bela'), as a table hints it: told "no
                # command" alone, a newcomer was not pointed to the call he meant
                near = _call_meant(" ".join(args), aliases or {}, lang)
            if near is not None:  # (a tryout, s28: bare 'пароль' was hinted, this not)
                return (phrase(Msg.HELP_MEANT, topic=said_back(args[0]), command=near).text(lang),)
            return _help_text(args[0], "lobby", (), lang, admin, False, clocks, rematch)
        if session.name is None:
            return _help_text(None, "login", (), lang, False, False, clocks, rematch)
        table = session.table
        if table is None:
            bots, games = self.lobby.house.enabled, self.lobby.new_games()
            return _help_text(None, "lobby", (), lang, admin, False, clocks, rematch, bots, games)
        calls: list[str] = []
        match, seat = table.match, session.seat
        if match is not None and seat is not None:  # a read of the table's state
            calls = [c.token() for c in match.legal_calls(seat)]
            if lang == Lang.RU or not session.connection.machine:
                # a person's: as his prompt offers them (the cards grouped, in the
                # order his hand is shown), each as it is said and may be typed
                said = ru_call if lang == Lang.RU else spoken_call  # (Tertz's 'mariage')
                say = partial(said, words=table.words)
                seen = view(match, seat)  # (a konets out of reach is not offered)
                calls = prompt_calls(offered(seen), seen.hand, session.connection.hand_order, say)
        playing = table.state != ev.TableState.WAITING
        return _help_text(None, "table", tuple(calls), lang, admin, playing, clocks, rematch)

    def _call_help(self, table: Table | None, topic: str, lang: Lang) -> tuple[str, ...]:
        """'help TOPIC' for a topic that is no command (``read_call_help``), kept by
        rule set: every table of one reads its words alike. At most HELP_TEXTS kept (a
        topic is the client's word)."""
        key = (_rules_key(table), topic, lang)
        told = self._answers.get(key)
        if told is None:
            if len(self._answers) >= HELP_TEXTS:
                self._answers.clear()
            told = self._answers[key] = self.read_call_help(table, topic, lang) or topic_calls(
                topic,
                self._calls_texts(table),
                lang,
                None if table is None else self._calls_texts(None),
            )
        return told

    def read_call_help(self, table: Table | None, topic: str, lang: Lang) -> tuple[str, ...]:
        """'help TOPIC' for a topic that is no command, if it is a call: the entries of
        'calls' that name it, or the call its words say. At a table, a call of other
        tables (another game's, an option's not on here) is told as one, not played at
        this table, whether 'calls' names it ('help konets') or a plugin's words say it
        ('help mariazh'), or it is the engine's ('help кінець'): one kind of answer
        (docs/protocol.md §4.4). None of them: ()."""
        own_texts, lobby_texts = self._calls_texts(table), self._calls_texts(None)
        texts = None if table is None else own_texts  # (call_pointer's None: the lobby's)
        words = _kept(self._words, table, lambda: self._call_words(table))
        engines = engine_call(topic)  # a card, 'concede': the engine's call; None: none

        def lobby_words() -> tuple[CallWords, ...]:  # (read only when asked)
            return _kept(self._words, None, lambda: self._call_words(None))

        if table is not None:
            read = _call_read(table, topic, lang, (own_texts, lobby_texts), words, lobby_words)
        else:
            read = _lobby_read(topic, lang, lobby_texts, lobby_words)
        if read:
            return read
        for first_word in (False, True):
            about = calls_about(topic, own_texts, lang, first_word=first_word)
            if about:
                return about
            if not first_word and engines is None:
                # a game's own words for a call ('сто тузів'): that call, not every
                # entry its first word names ('сто': runs and the engine's hundred)
                pointer = call_pointer(topic, lang, texts, words)
                if pointer:
                    return pointer
            if table is None:
                continue
            # another table's ('help konets' where manual-claim is off)
            about = calls_about(topic, lobby_texts, lang, elsewhere=True, first_word=first_word)
            if about:
                return about + _here_instead(table, topic, lobby_words(), own_texts, lang)
            if not first_word and engines is None:  # another game's words ('mariazh')
                pointer = call_pointer(topic, lang, None, lobby_words(), elsewhere=True)
                if pointer:
                    return pointer + _here_instead(table, topic, lobby_words(), own_texts, lang)
        if engines is None:
            return ()
        # a card ('help 9h': 'no command' told nothing of what it is); every other call
        # of the engine's was read above (_call_read, _lobby_read), here or elsewhere
        return call_pointer(topic, lang, texts, words)

    def _call_words(self, table: Table | None) -> tuple[CallWords, ...]:
        """The words ``table``'s plugins give its calls, for 'help WORD'; in the lobby
        (None), every game's and option's (as its 'calls' tells every game's), each
        named as 'help' says whose."""
        if table is not None:
            return (CallWords.of(None, table.rules.call_aliases),)
        told: list[CallWords] = []
        for rule in self.lobby.rules.rules():
            if not rule.aliases:
                continue
            if rule.info.kind == RuleKind.VARIANT:
                whose = phrase(Msg.GAME_TABLE_CALL, game=rule.name[:1].upper() + rule.name[1:])
            else:
                whose = phrase(Msg.OPTION_TABLE_CALL, option=rule.name)
            told.append(CallWords.of(whose, rule.aliases))
        return tuple(told)

    async def calls(self, session: Session, item: Command) -> None:
        """The calls of the table's game and options; in the lobby, of every game and
        option (docs/protocol.md §4.4)."""
        asked = _lang_asked(session, item.args, "calls [lang=en|ru]")
        if asked is not None and asked[0]:  # 'calls rost?' listed them all (s46)
            word = said_back(" ".join(asked[0]))
            session.send(ev.error("bad-argument", phrase(Msg.CALLS_NO_CALL, word=word)))
            return
        if asked is None or not may_list(
            self.lobby, session, item.name, self.lobby.is_admin(session)
        ):
            return
        block = ev.TextBlock("help", *self._calls_texts(session.table))
        session.send(told_in(block, asked[1]))

    def _calls_texts(self, table: Table | None) -> Texts:
        """'calls' at ``table`` (None: in the lobby) in English and Russian, built once."""
        return _kept(self._calls, table, lambda: self._calls_text(table))

    def _calls_text(self, table: Table | None) -> Texts:
        """'calls' in English and in Russian: at ``table``, or in the lobby (None)."""
        book = self.lobby.rules
        if table is None:
            games = [(CALLS_HELP, RU_CALLS_HELP), *_variant_blocks()]
            games += [_own_game_block(r) for r in book.rules() if _own_game(book, r)]
            options = [r for r in book.rules() if r.info.kind == RuleKind.OPTION]
            header = phrase(Msg.OPTION_CALLS)
        else:
            games = [_game_block(book, table.rules)]
            options = [r for r in map(book.get, sorted(table.rules.options)) if r is not None]
            header = phrase(Msg.TABLE_OPTION_CALLS)
        english = [line for en, _ in games for line in en.rstrip().splitlines()]
        russian = [line for _, ru in games for line in ru.rstrip().splitlines()]
        own_en, own_ru = _options_block(options)
        if own_en:
            english += [header.text(), *own_en]
            russian += [header.text(Lang.RU), *own_ru]
        return tuple(english), tuple(russian)

    async def rules(self, session: Session, item: Command) -> None:
        asked = _lang_asked(session, item.args, "rules [TABLE|RULE] [lang=en|ru]")
        if asked is None:
            return
        args, lang = asked
        table = session.table
        if table is None and session.observing:  # as 'state', 'last', 'sheet' (§5.9)
            table = self.lobby.tables.get(min(session.observing))
        named = self._rule_named(args[0]) if len(args) == 1 else None
        if named is not None:  # 'rules tertz': that variant or option, wherever asked
            if not may_list(self.lobby, session, item.name, self.lobby.is_admin(session)):
                return
            said = self._rule_entry(named)
            english, russian = tuple(p.text() for p in said), tuple(p.text(Lang.RU) for p in said)
            session.send(told_in(ev.TextBlock("rules", english, russian), lang))
            return
        if len(args) > 1 or (args and number_word(args[0]) is None):  # as observe and sit
            near = self._rule_near(args[0]) if len(args) == 1 else None
            if near is not None:  # a slip of the keys, as 'new 2 terz' names it (a tryout)
                slip = phrase(Msg.RULES_ASKED_NEAR, word=said_back(args[0]), near=near)
                session.send(ev.error("bad-argument", slip))
                return
            session.send(ev.usage_error("rules [TABLE|RULE]"))
            return
        if args:
            table = self.lobby.table_named(session, args[0])
            if table is None:
                return
            if not self._may_read_rules(session, table):  # as for no table (a tryout, s29)
                self.lobby.no_table(session, args[0])
                return
        # (refusals cost none)
        if not may_list(self.lobby, session, item.name, self.lobby.is_admin(session)):
            return
        english, russian = self._rules_texts(table)
        session.send(told_in(ev.TextBlock("rules", english, russian), lang))

    def _may_read_rules(self, session: Session, table: Table) -> bool:
        """Whether ``session`` may read ``table``'s rules: a table listed to it, its own
        or one it watches; a private table or a board is no one else's business."""
        return (
            self.lobby.listed_to(table, session)
            or table is session.table
            or table.id in session.observing
            or self.lobby.is_admin(session)
        )

    def _rules_texts(self, table: Table | None) -> Texts:
        """'rules' (of ``table``, None: the lobby's list) in English and Russian: built
        once a rule set and kept, but for a table's own first line (a flood of 'rules'
        from many connections rebuilt the list each time: a hostile tryout, s29)."""

        def build() -> Texts:
            said = self._rules_list() if table is None else self._rules_lines(table)[1:]
            return tuple(p.text() for p in said), tuple(p.text(Lang.RU) for p in said)

        told = _kept(self._rules, table, build)
        if table is None:
            return told
        first = self._table_line(table)
        return (first.text(), *told[0]), (first.text(Lang.RU), *told[1])

    def _rules_list(self) -> list[Phrase]:
        """Every variant and option (a plugin's summary is in its own words)."""
        lines = [phrase(Msg.RULES_LIST)]
        for rule in self.lobby.rules.rules():
            if rule.info.kind != RuleKind.PLAYERS:  # they come with the player count
                lines += self._rule_entry(rule.info)
        return lines

    def _rule_named(self, word: str) -> RuleInfo | None:
        """The variant or option ``word`` names, as 'new' reads it ('Tertz', «терц»,
        'To-301'); None for any other word (a table's number among them)."""
        book = self.lobby.rules
        name = variant_named(word, book) or rule_named(word, book)
        rule = book.get(name)
        return None if rule is None or rule.info.kind == RuleKind.PLAYERS else rule.info

    def _rule_help(self, info: RuleInfo, lang: Lang) -> tuple[str, ...]:
        """'help RULE': the rule's lines of 'rules', then how to play it, the words 'new'
        and 'seek' take (an option with the variant and options it needs, at its
        smallest player count that variant plays)."""
        book = self.lobby.rules
        if info.kind == RuleKind.VARIANT:
            how = f"{info.players[0]} {info.name}"
            said = phrase(Msg.HELP_VARIANT, name=info.name, how=how)
        else:
            needs = [n for n in info.requires if book.kind_of(n) == RuleKind.VARIANT]
            variant = book.get(needs[0] if needs else BUILTIN_VARIANT)
            counts = variant.info.players if variant is not None else info.players
            players = min((p for p in info.players if p in counts), default=info.players[0])
            # the options it needs come before it ('to-9-stakes' is dave's target)
            others = [n for n in info.requires if book.kind_of(n) == RuleKind.OPTION]
            words = [str(players), needs[0] if needs else BUILTIN_VARIANT, *others, info.name]
            said = phrase(Msg.HELP_OPTION, name=info.name, how=" ".join(words))
        return tuple(p.text(lang) for p in (*self._rule_entry(info), said))

    def _rule_near(self, word: str) -> str | None:
        """The variants or options near ``word`` ('terz': 'tertz'), as the rule book's
        refusal of 'new' names them; None if none is."""
        book = self.lobby.rules
        return near_name(word, [r.name for r in book.rules() if r.info.kind != RuleKind.PLAYERS])

    def _rule_entry(self, info: RuleInfo) -> list[Phrase]:
        """A variant's or option's lines of the list: its entry, and a variant's
        refusals."""
        book = self.lobby.rules
        lines: list[Phrase] = []
        # as a sentence says them ('2, 3 or 4', «2, 3 или 4»; it wrote '2/3/4', s45)
        said = said_counts(info.players)
        counts = phrase(Msg.OWN_WORDS, en=said, ru=counts_ru(said))
        kind = phrase(Msg.VARIANT if info.kind == RuleKind.VARIANT else Msg.OPTION)
        # a game's own option says whose (tertz-501: refused at every other table, and
        # its entry said only 'option, 2 players')
        games = [n for n in info.requires if book.kind_of(n) == RuleKind.VARIANT]
        if info.kind == RuleKind.OPTION and games:
            kind = phrase(Msg.OPTION_OF, variant=", ".join(games))
        summary = phrase(
            Msg.OWN_WORDS,
            en=summary_for(info, russian=False),
            ru=summary_for(info, russian=True),
        )
        target = _own_target(book, info) if info.kind == RuleKind.VARIANT else None
        if target is None:
            entry = phrase(
                Msg.RULES_ENTRY, name=info.name, kind=kind, counts=counts, summary=summary
            )
        else:
            entry = phrase(
                Msg.RULES_VARIANT_ENTRY,
                name=info.name,
                kind=kind,
                counts=counts,
                target=target,
                summary=summary,
            )
        lines.append(entry)
        if info.kind == RuleKind.VARIANT:
            lines += _refused_by(info, self.lobby.rules)
        return lines

    def _rules_lines(self, table: Table) -> list[Phrase]:
        c = self.lobby.config
        variant = self.lobby.rules.get(table.rules.variant)
        return [
            self._table_line(table),
            *_rules_told(table),
            *_refused_by(None if variant is None else variant.info, self.lobby.rules),
            phrase(
                Msg.RULES_CLOCK,
                human=_seconds(c.human_clock_ms),
                bot=_seconds(c.bot_clock_ms),
                lag=c.lag_ms,
                timeouts=c.max_timeouts,
                away=_seconds(c.away_limit_ms),
                out=phrase(
                    Msg.RULES_CLOCK_BREAK
                    if table.rules.variant in RULES_BREAKS
                    else Msg.RULES_CLOCK_OUT
                ),
            ),
        ]

    def _table_line(self, table: Table) -> Phrase:
        """'Table 2: moscow for 2 players, options: none, to 501.': the target said once,
        here, unless an option set it, whose own line says it ('to-301: The match is
        played to 301 points …'; 'options: to-301, to 301.' said it twice)."""
        rules, s = table.rules, table.rules.settings
        opts = ", ".join(sorted(rules.options)) or phrase(Msg.NO_OPTIONS)
        values: dict[str, Value] = {
            "table": table.id,
            "variant": rules.variant,
            "for_players": game_for(s.players),
        }
        if _target_by_option(self.lobby.rules, rules):
            return phrase(Msg.RULES_TABLE_OPTIONS, options=opts, **values)
        goal = phrase(Msg.ONE_DEAL) if s.target is None else phrase(Msg.TO_TARGET, target=s.target)
        return phrase(Msg.RULES_TABLE, options=opts, goal=goal, **values)


def _lang_asked(
    session: Session, args: tuple[str, ...], usage: str
) -> tuple[tuple[str, ...], Lang | None] | None:
    """``args`` without a ``lang=en|ru``, and the language it asks the answer in
    (docs/protocol.md §4.4); None, the refusal sent, for another language."""
    asked = lang_argument(args)
    if asked is None:
        ukrainian = any(asks_ukrainian(a) for a in args)
        session.send(
            ev.error("bad-argument", phrase(Msg.LANG_UK)) if ukrainian else ev.usage_error(usage)
        )
    return asked


def told_in(block: ev.TextBlock, lang: Lang | None) -> ev.TextBlock:
    """``block`` in ``lang`` in either style, asked by the request's ``lang=`` (a machine
    style's client that shows it to a person: the terminal client); None: as the
    connection's style and language say."""
    if lang is None:
        return block
    lines = block.ru if lang == Lang.RU and block.ru is not None else block.lines
    return ev.TextBlock(block.tag, lines, lines)


def _kept(
    cache: dict[CallsKey | None, Kept], table: Table | None, build: Callable[[], Kept]
) -> Kept:
    """A text of ``table``'s rule set (None: the lobby's) from ``cache``, built once
    (``build``) and kept; at most CALLS_TEXTS of them (a plugin's game may be one for
    some player counts only: one a rule set)."""
    key = _rules_key(table)
    told = cache.get(key)
    if told is None:
        if len(cache) >= CALLS_TEXTS:
            cache.clear()
        told = cache[key] = build()
    return told


def _rules_key(table: Table | None) -> CallsKey | None:
    """``table``'s rule set as the texts built once are kept by (None: the lobby's)."""
    if table is None:
        return None
    rules = table.rules
    return (rules.settings.players, rules.variant, rules.options)


def _target_by_option(book: RuleBook, rules: RuleSet) -> bool:
    """Whether an option changed the table's target from its variant's own (to 301, one
    deal, 9 stakes): the option's own line then says it."""
    if not rules.options:
        return False
    try:
        own = book.ruleset(rules.settings.players, rules.variant, ()).settings.target
    except RuleError:  # a variant played only with options: its own target is none
        return False
    return own != rules.settings.target


def _rules_told(table: Table) -> list[Phrase]:
    """A line per rule the table plays (its target is the table line's). The builtin's
    summary comes last, said as what the variant and options above leave of it: said
    first, its words (bella 20, the claim) read as the table's even where a line after
    it changed them (docs/protocol.md §5.9)."""
    told = list(
        zip(table.rules.describe, table.rules.describe_ru or table.rules.describe, strict=True)
    )
    base = f"{BUILTIN_VARIANT}: "
    changed = [phrase(Msg.OWN_WORDS, en=en, ru=ru) for en, ru in told if not en.startswith(base)]
    kept = [(en, ru) for en, ru in told if en.startswith(base)]
    if not changed:
        return [phrase(Msg.OWN_WORDS, en=en, ru=ru) for en, ru in kept]
    return changed + [
        phrase(
            Msg.RULES_BASE,
            name=BUILTIN_VARIANT,
            summary=phrase(Msg.OWN_WORDS, en=en.removeprefix(base), ru=ru.removeprefix(base)),
        )
        for en, ru in kept
    ]


def _own_target(book: RuleBook, variant: RuleInfo) -> int | None:
    """The target a variant plays to without options, for the list: its summary leaves
    it out (docs/plugins.md), since an option may change it at a table. None if it
    differs with the player count, is one deal, or the variant needs options."""
    try:
        targets = {book.ruleset(n, variant.name, ()).settings.target for n in variant.players}
    except RuleError:
        return None
    return targets.pop() if len(targets) == 1 else None


def _refused_by(variant: RuleInfo | None, book: RuleBook) -> list[Phrase]:
    """The options a variant refuses (docs/rules.md §12.8, ``RuleBook.refused_options``):
    a newcomer reads them here instead of finding them one error at a time."""
    if variant is None:
        return []
    lines = []
    refused = book.refused_options(variant.name)
    if refused:
        names = ", ".join(sorted(refused))
        lines.append(phrase(Msg.VARIANT_REFUSES, variant=variant.name, names=names))
    if not variant.bidding:
        lines.append(phrase(Msg.VARIANT_NO_BIDDING, variant=variant.name))
    return lines


CALL_COLUMN = 39  # where the explanations of the calls' blocks start


def _variant_blocks() -> list[tuple[str, str]]:
    return [(en, RU_VARIANT_CALLS_HELP[name]) for name, en in sorted(VARIANT_CALLS_HELP.items())]


def _game_block(book: RuleBook, rules: RuleSet) -> tuple[str, str]:
    """The calls of a table's game, from its rule set: Deberts's (the engine's deals,
    whatever the variant), a built-in game's own text (Tertz), or a third-party game's
    own calls (docs/plugins.md, "Writing a whole new game")."""
    variant = rules.variant
    if rules.deal_class is None and not rules.settings.seven_swap:
        # four players, seven-swap-off: no swap of the seven, so no question about it
        return _without_swap(CALLS_HELP), _without_swap(RU_CALLS_HELP)
    if rules.deal_class is None:
        return CALLS_HELP, RU_CALLS_HELP
    if variant in VARIANT_CALLS_HELP:
        return VARIANT_CALLS_HELP[variant], RU_VARIANT_CALLS_HELP[variant]
    rule = book.get(variant)
    return _own_game_block(rule) if rule is not None else ("", "")


# the lines of the swap and of its question in CALLS_HELP and RU_CALLS_HELP (one each)
_SWAP_CALLS = ("  menyayu (", "  prokhodit? (", "  меняю (", "  проходит? (")


def _without_swap(block: str) -> str:
    """Deberts's calls at a table that has no swap of the seven (docs/rules.md §8, §10):
    a four-player tryout read menyayu and prokhodit? among his table's calls. An entry
    goes with the lines its explanation wraps to (indented past the call's column): an
    evening of four read menyayu's last two under 'igrayu SUIT'."""
    kept: list[str] = []
    dropping = False
    for x in block.splitlines(keepends=True):
        if not x.startswith("   "):  # an entry's first line (or a heading)
            dropping = x.startswith(_SWAP_CALLS)
        if not dropping:
            kept.append(x)
    return "".join(kept)


def _own_game(book: RuleBook, rule: LoadedRule) -> bool:
    """A third-party variant that is a game of its own (its own deals), for the lobby's
    list: asked of its rule set at its first player count."""
    info = rule.info
    if info.kind != RuleKind.VARIANT or info.name in VARIANT_CALLS_HELP:
        return False
    try:
        return book.ruleset(info.players[0], info.name, ()).deal_class is not None
    except RuleError:  # it needs options to be played: not a table anyone opens as is
        return False


def _own_game_block(rule: LoadedRule) -> tuple[str, str]:
    """A third-party game's own calls with its words, then where the others are."""
    calls = [call for call, _, _ in _option_calls([rule])]
    own = [line for call in calls for line in _column(call.text(), "")]
    own_ru = [line for call in calls for line in _column(call.text(Lang.RU), "")]
    header, others = phrase(Msg.GAME_CALLS, variant=rule.name), phrase(Msg.GAME_OTHER_CALLS)
    english = [header.text(), *(line.rstrip() for line in own), others.text()]
    russian = [header.text(Lang.RU), *(line.rstrip() for line in own_ru), others.text(Lang.RU)]
    return "\n".join(english), "\n".join(russian)


def _options_block(options: Sequence[LoadedRule]) -> tuple[list[str], list[str]]:
    """The calls ``options`` make, in English and in Russian, each option's in turn:
    the engine's own that an option turns on (konets: manual-claim), then a plugin's
    own with their words (docs/protocol.md §4.4)."""
    english: list[str] = []
    russian: list[str] = []
    for rule in options:
        if rule.name in OPTION_CALLS_HELP:
            english += OPTION_CALLS_HELP[rule.name].splitlines()
            russian += RU_OPTION_CALLS_HELP[rule.name].splitlines()
        for call, name, token in _option_calls([rule]):
            meaning, ru_meaning = HOUSE_CALL_MEANINGS.get((name, token), ("", ""))
            english += _column(call.text(), f"option {name}" + meaning)
            russian += _column(call.text(Lang.RU), f"опция {name}" + ru_meaning)
    return english, russian


# what the house options' own calls do, said after the option's name as the engine's
# konets is ('option manual-claim: claim the match …'): 'help dave' told only 'option
# dave', nothing of what saying it does (black-box evening s40). A third party's calls
# are told by their option alone, as before
HOUSE_CALL_MEANINGS: dict[tuple[str, str], tuple[str, str]] = {
    ("dave", "dave"): (
        ": offer the opponent to give up at this stake",
        ": предложить сопернику сдаться на этой ставке",
    ),
    ("dave", "prinimayu"): (
        ": answer dave, play on for the next stake",
        ": ответ на даве, играть на следующую ставку",
    ),
    ("dave", "sdayus"): (
        ": answer dave, give up and lose this stake",
        ": ответ на даве, сдаться и проиграть эту ставку",
    ),
    ("poltinniki", "predlagayu"): (
        ": the whistler offers the player 50 points without play",
        ": вистующий предлагает играющему 50 очков без игры",
    ),
    ("poltinniki", "prinimayu"): (
        ": accept the offer, write 50 and end the deal",
        ": принять предложение, записать 50 и закончить раздачу",
    ),
    ("poltinniki", "igraem"): (
        ": decline the offer, or make none: play on",
        ": отказаться от предложения или не делать его: играть",
    ),
}


def _option_calls(options: Sequence[LoadedRule]) -> list[tuple[Phrase, str, str]]:
    """Each option's own calls with the words people type for them: ``(text, option,
    token)``.
    English leads with the token (`dave (даве, double)`); Russian with the call's first
    Cyrillic word, as its main list does (`даве (dave, double)`)."""
    said: list[tuple[Phrase, str, str]] = []
    for rule in options:
        words: dict[str, list[str]] = {}
        for word, call in rule.aliases.items():
            listed = words.setdefault(call, [])
            if word != call:
                listed.append(word)
        for call, others in words.items():
            en = [call, *others]
            russian = next((w for w in others if CYRILLIC.search(w)), None)
            ru = en if russian is None else [russian, call, *(w for w in others if w != russian)]
            said.append((phrase(Msg.OWN_WORDS, en=_listed(en), ru=_listed(ru)), rule.name, call))
    return said


def _listed(words: Sequence[str]) -> str:
    """'dave (даве, double)': a call's word, then its others in brackets."""
    return f"{words[0]} ({', '.join(words[1:])})" if len(words) > 1 else words[0]


def _column(call: str, explained: str) -> list[str]:
    # (an explanation too wide for its column goes on below, in the column)
    lines = textwrap.wrap(explained, 80 - CALL_COLUMN) or [""]
    rest = [" " * CALL_COLUMN + line for line in lines[1:]]
    left = f"  {call}"
    if len(left) < CALL_COLUMN - 1:
        return [left.ljust(CALL_COLUMN) + lines[0], *rest]
    return [left, " " * CALL_COLUMN + lines[0], *rest]
