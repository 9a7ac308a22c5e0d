"""An engine refusal's reason and detail (whose turn, which suit, which card) as a
catalogue phrase, so a person is told it in his language ('lang ru', docs/protocol.md §4.3c).

The engine (game/, and a variant's deal) raises a refusal with a code and an English
sentence only; the sentence is read back here, one form per sentence the engine can say
(tests/protocol/test_refusals.py walks the engine's source and checks each has one). A
sentence of another form (a third-party plugin's) gets no phrase: it is then said by its
code (messages.RU_ERRORS).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Mapping, Sequence

from deberc_net.game.cards import SUIT_SYMBOLS

from . import events as ev
from .lang import NO_WORDS, counts_ru, ru_call
from .messages import Msg, Phrase, Value, phrase
from .render import for_people

_CARD = r"(?:10|[789JQKA])[shdc]"
_TOKEN = r"[\w?-]+"

# the engine's sentence (a regular expression; each group a value) and its phrase
_FORMS: tuple[tuple[str, Msg], ...] = (
    (r"it is seat (?P<seat>\d+)'s turn", Msg.NOT_YOUR_TURN),
    (r"it is seat (?P<seat>\d+)'s turn to bid", Msg.NOT_YOUR_TURN_TO_BID),
    (r"you hold (?P<suit>[shdc]): follow suit", Msg.MUST_FOLLOW_SUIT),
    (rf"(?P<card>{_CARD}) is not in your hand", Msg.NOT_IN_HAND),
    (r"the deal is over", Msg.DEAL_OVER),
    (r"waiting for seat (?P<seat>\d+) to answer (?P<asked>\S+)", Msg.WAIT_ANSWER),
    (r"that is not your combination's top; say (?P<calls>.+)", Msg.NOT_THE_TOP),
    (
        rf"(?P<call>{_TOKEN}) does not beat (?P<asked>{_TOKEN}): (?P<calls>.+)",
        Msg.TOP_NOT_HIGHER,
    ),
    (r"answer the question first: (?P<calls>.+)", Msg.ANSWER_FIRST),
    (rf"(?P<call>{_TOKEN}) is not the true answer: say (?P<calls>.+)", Msg.NOT_TRUE_ANSWER),
    (r"only a seat holding all four sevens, before the first card", Msg.SEVENS_ONLY),
    (
        r"no opponent's declaration is waiting to be shown: pokazhi is said once the"
        r" opponent declares, until the first card of the second trick",
        Msg.NOTHING_TO_SHOW,
    ),
    (
        r"neither opponent has a declaration waiting to be shown: pokazhi is said once"
        r" one declares, until the first card of the second trick",
        Msg.NOTHING_TO_SHOW_TWO,
    ),
    (
        r"no opponent's declaration is waiting to be shown: pokazhi is said once the"
        r" opponent declares, until that declaration is shown",
        Msg.NOTHING_TO_SHOW_UNTIL_SHOWN,
    ),
    (r"that declaration is shown already", Msg.SHOWN_ALREADY),
    (r"you have asked to see it already", Msg.SHOW_ASKED),
    (r"pokazhi is said until the first card of the second trick", Msg.SHOW_TOO_LATE),
    (rf"bidding is on: (?P<call>{_TOKEN}) comes after the order", Msg.BIDDING_ON),
    (rf"bidding is on, and (?P<card>{_CARD}) is not in your hand", Msg.BIDDING_NOT_IN_HAND),
    (r"the game is ordered; the last cards are not dealt yet", Msg.NOT_DEALT_YET),
    (r"you have no card of the led suit: play a trump", Msg.PLAY_A_TRUMP),
    (r"you hold a higher trump: beat the highest trump on the table", Msg.BEAT_THE_TRUMP),
    (rf"you may not play (?P<card>{_CARD}) now", Msg.MAY_NOT_PLAY),
    (
        r"the seven may be swapped only in the first trump, by the holder of the trump 7, "
        r"before his first card and before he declares",
        Msg.SWAP_WHEN,
    ),
    (r"this table has no swap of the seven", Msg.SWAP_NONE),
    (
        r"the seven is swapped before the last cards are dealt \(swap-before-extra\)",
        Msg.SWAP_BEFORE_EXTRA,
    ),
    (r"a game in a second trump has no swap of the seven", Msg.SWAP_SECOND_TRUMP),
    (r"the seven is swapped already", Msg.SWAP_DONE),
    (r"the turned card is the trump 7 itself: there is nothing to swap", Msg.SWAP_SEVEN_TURNED),
    (rf"you do not hold the trump 7 \((?P<card>{_CARD})\)", Msg.SWAP_NO_SEVEN),
    (
        rf"you do not hold the trump 7 \((?P<card>{_CARD})\): answer ne-menyayu",
        Msg.SWAP_NO_SEVEN_ASKED,
    ),
    (r"the seven is swapped before your first card", Msg.SWAP_BEFORE_CARD),
    (
        r"the seven is swapped before you declare or ask rost\? \(what you said must stay true\)",
        Msg.SWAP_BEFORE_DECLARING,
    ),
    (
        rf"(?P<call>{_TOKEN}) answers a question, and none is asked of you now",
        Msg.ANSWER_UNASKED,
    ),
    (
        r"prokhodit\? is asked by the holder of the trump 7 while he may swap it: in the "
        r"first trump, before his first card and before he declares",
        Msg.PASS_Q_WHEN,
    ),
    (r"prokhodit\? is asked once", Msg.PASS_Q_ONCE),
    (r"you hold no trump sequence: prokhodit\? asks whether yours passes", Msg.PASS_Q_NONE),
    (r"you do not hold the trump king and queen", Msg.NO_BELLA),
    (r"bella is already declared", Msg.BELLA_DONE),
    (
        r"bella is declared after taking a trick, while holding the K or Q",
        Msg.BELLA_AFTER_TRICK,
    ),
    (r"bella is declared before playing the trump king or queen", Msg.BELLA_BEFORE),
    (rf"(?P<call>{_TOKEN}) is not a call you may make now", Msg.NOT_A_CALL_NOW),
    (r"bidding is over", Msg.BIDDING_OVER),
    (r"bidding is over: it is the play now, and your turn: play a card", Msg.BIDDING_OVER_PLAY),
    (r"bidding is over: it is the play now, seat (?P<seat>\d+)'s turn", Msg.BIDDING_OVER_TURN),
    (r"round one plays the turned suit: say igrayu or pas", Msg.ROUND_ONE),
    (r"round two: name another suit than the turned one", Msg.ROUND_TWO),
    (r"the dealer must name a suit in round two \(commitment\)", Msg.DEALER_MUST_NAME),
    (r"declarations are made before your first card only", Msg.DECLARE_BEFORE_CARD),
    (r"you have already declared", Msg.ALREADY_DECLARED),
    (r"you hold no combination", Msg.NO_COMBINATION),
    (rf"you do not hold (?P<call>{_TOKEN}); your best is (?P<best>{_TOKEN})", Msg.NOT_YOUR_BEST),
    (
        rf"you do not hold (?P<call>{_TOKEN}); yours to declare is (?P<best>{_TOKEN})",
        Msg.YOURS_TO_DECLARE,
    ),
    (r"a (?P<category>\w+) is declared: ask rost\?", Msg.ASK_ROST),
    (r"a longer combination is already declared", Msg.LONGER_DECLARED),
    (r"rost\? answers a declaration, before your first card, once", Msg.ROST_WHEN),
    (r"nothing is declared: (?P<call>rost\?) asks about a declaration", Msg.ROST_NOTHING),
    (r"the best declaration is your own: (?P<call>rost\?) asks the opponent's", Msg.ROST_OWN),
    (r"the best declaration is your partner's: no rost\? against him", Msg.ROST_PARTNER),
    (r"you hold a longer combination: declare it instead", Msg.ROST_LONGER),
    (r"you hold no combination of that length", Msg.ROST_NONE),
    (r"the match is over", Msg.MATCH_OVER),
    (r"there is no seat (?P<number>\d+)", Msg.NO_SUCH_SEAT),
    # Tertz (plugins/variants/tertz)
    (r"seat (?P<seat>\d+) breaks the deck first", Msg.BREAKS_FIRST),
    (rf"break the deck first: (?P<first>{_TOKEN}) … (?P<last>{_TOKEN})", Msg.BREAK_FIRST),
    (r"the loser of the first trick breaks the deck, once, after it", Msg.BREAK_ONCE),
    (
        r"the trump 7 takes the turned card on its holder's turn, while the talon holds "
        r"two cards or more",
        Msg.TERTZ_SWAP_WHEN,
    ),
    (
        r"the trump 7 takes the turned card while the talon holds more than two cards",
        Msg.TERTZ_SWAP_UNTIL_TWO,
    ),
    (
        r"the trump 7 is in a combination you declared: it stays in your hand",
        Msg.TERTZ_SEVEN_DECLARED,
    ),
    (r"mariage: the trump K and Q in your hand, on your turn, once", Msg.MARIAGE_WHEN),
    (r"combinations are declared before your move, with nine cards", Msg.NINE_CARDS),
    (r"you have declared every combination you hold", Msg.ALL_DECLARED),
    (r"a combination as high is declared: ask rost\?", Msg.AS_HIGH_DECLARED),
    (r"a higher combination is declared: yours would not score", Msg.HIGHER_DECLARED),
    (rf"the talon is gone: beat (?P<card>{_CARD}) if you can", Msg.MUST_BEAT),
    (
        r"rost\? asks the opponent's best declaration, on your turn before your card, "
        r"at any trick while you hold nine cards",
        Msg.TERTZ_ROST_WHEN,
    ),
    (r"you hold a higher combination: declare it instead", Msg.TERTZ_ROST_HIGHER),
    (
        r"you hold no undeclared combination of the declared one's class",
        Msg.TERTZ_ROST_NONE,
    ),
    (r"Tertz has no bidding: the turned card's suit is trump", Msg.TERTZ_NO_BIDDING),
    (r"Tertz has no prokhodit\?: ask a declaration with rost\?", Msg.TERTZ_NO_PASS_Q),
    (r"Tertz has no redeal for four sevens: the deal is played", Msg.TERTZ_NO_SEVENS),
)


@functools.cache
def _compiled() -> tuple[tuple[re.Pattern[str], Msg], ...]:
    """The forms, compiled at the first refusal: a process that refuses nothing (a bot,
    a ladder's server, most of the tests' processes) does not pay for the regexes."""
    return tuple((re.compile(pattern), key) for pattern, key in _FORMS)


def _call(token: str, words: Mapping[str, str] = NO_WORDS) -> Phrase:
    return phrase(Msg.CALL_WORD, call=for_people(token, (), words), ru=ru_call(token, words))


def _calls(text: str, words: Mapping[str, str] = NO_WORDS) -> Value:
    return tuple(_call(token, words) for token in text.split(" or "))


def _card(text: str) -> str:
    # 'J♠': the Russian renderer writes it 'В♠', as every card of its lines
    return text[:-1] + SUIT_SYMBOLS[text[-1]]


_VALUES: dict[str, Callable[[str], Value]] = {
    "suit": SUIT_SYMBOLS.__getitem__,
    "card": _card,
    "kind": str,
    "category": str,
    "number": str,
}
# the groups that name calls: said in the table's words (lang.table_words)
_CALLS: dict[str, Callable[[str, Mapping[str, str]], Value]] = {
    "call": _call,
    "best": _call,
    "first": _call,
    "last": _call,
    "calls": _calls,
    "asked": _call,  # the question as its call is spoken: 'rost?', 'ot korolya'
}


def refusal_phrase(
    message: str, names: Sequence[str], words: Mapping[str, str] = NO_WORDS
) -> Phrase | None:
    """The phrase for an engine refusal's ``message`` (seats named by ``names``, calls
    in ``words``, the table's Russian words: Tertz's «марьяж»), or None when its form
    is not one known here."""
    for pattern, key in _compiled():
        if m := pattern.fullmatch(message):
            values: dict[str, Value] = {}
            for group, text in m.groupdict().items():
                if group == "seat":
                    if int(text) >= len(names):
                        return None
                    values["name"] = names[int(text)]
                elif group in _CALLS:
                    values[group] = _CALLS[group](text, words)
                else:
                    values[group] = _VALUES[group](text)
            return phrase(key, **values)
    return None


# ------------------------------------------------------------ a table's rules refused
# The rule book's sentences (plugins/manager.py, RuleError: 'bad-rules'), read back as
# the engine's are (tests/protocol/test_rule_refusals.py walks their source and every
# refusal the shipped rules give). A quoted value is a Python repr, and a typed word
# may hold a quote ('new 2 it's': "it's").
_QUOTED = r"'(?:[^'\\]|\\.)*'" + "|" + r'"(?:[^"\\]|\\.)*"'
_KIND = r"variant|option|players"
_COUNTS = r"\d+(?:, \d+)*(?: or \d+)?"  # player counts: '2', '2 or 3', '2, 3 or 4'


def _q(group: str) -> str:
    return f"(?P<{group}>{_QUOTED})"


_RULE_FORMS: tuple[tuple[str, Msg], ...] = (
    (rf"unknown (?P<kind>{_KIND}) {_q('name')}; known: (?P<known>.*)", Msg.RULES_UNKNOWN_VARIANT),
    (
        rf"unknown (?P<kind>{_KIND}) {_q('name')}: did you mean (?P<near>[^?]*)\?"
        r" Variants: (?P<variants>.*)",
        Msg.RULES_UNKNOWN_NEAR,
    ),
    (
        rf"unknown (?P<kind>{_KIND}) {_q('name')}: did you mean (?P<near>[^?]*)\?"
        r" Options: (?P<known>.*)",
        Msg.RULES_UNKNOWN_NEAR_OPTION,
    ),
    (
        rf"unknown (?P<kind>{_KIND}) {_q('name')}; variants: (?P<variants>.*);"
        r" options: (?P<known>.*)",
        Msg.RULES_UNKNOWN,
    ),
    (
        rf"{_q('name')} is a variant: name one, right after the player count"
        r" \(PLAYERS \[VARIANT\] \[OPTION \.\.\.\]\)",
        Msg.RULES_VARIANT_AS_OPTION,
    ),
    (
        rf"{_q('name')} is an? (?P<kind>{_KIND}) rule, not an? (?P<expected>{_KIND})",
        Msg.RULES_WRONG_KIND,
    ),
    (
        rf"{_q('name')} is for (?P<counts>{_COUNTS}) players, not (?P<players>\d+):"
        r" leave it out, or play with (?P=counts)",
        Msg.RULES_PLAYERS,
    ),
    (
        rf"{_q('name')} is for (?P<counts>{_COUNTS}) players, not (?P<players>\d+):"
        r" play it with (?P=counts), or choose another variant",
        Msg.RULES_VARIANT_PLAYERS,
    ),
    (
        rf"{_q('name')} needs a player who orders; the variant {_q('variant')} has no bidding",
        Msg.RULES_NEEDS_BIDDING,
    ),
    (rf"{_q('name')} is not played with the variant {_q('variant')}", Msg.RULES_NOT_WITH_VARIANT),
    (
        rf"{_q('name')} is played only with the variant {_q('variant')}",
        Msg.RULES_ONLY_WITH_VARIANT,
    ),
    (rf"options {_q('first')} and {_q('second')} contradict each other", Msg.RULES_CONTRADICT),
    (rf"option {_q('name')} needs option {_q('needed')} too", Msg.RULES_NEEDS),
    (rf"variant {_q('name')} needs option {_q('needed')} too", Msg.RULES_VARIANT_NEEDS),
    (
        rf"options {_q('first')} and {_q('second')} set (?P<setting>\w+) differently"
        r" \((?P<a>.*) and (?P<b>.*)\); choose one",
        Msg.RULES_SET_DIFFERENTLY,
    ),
    (
        rf"options {_q('first')} and {_q('second')} both use {_q('word')},"
        rf" for {_q('call_a')} and {_q('call_b')}",
        Msg.RULES_SAME_WORD,
    ),
    (
        rf"{_q('variant')}: deberc_deal_class gave (?P<what>.*), not a Deal class",
        Msg.RULES_DEAL_CLASS,
    ),
    (
        rf"rule {_q('name')} \(distribution {_q('distribution')}\) failed to set up the table:"
        r" (?P<error>.*)",
        Msg.RULES_SETUP_FAILED,
    ),
    (
        rf"rule {_q('name')} \(distribution {_q('distribution')}\) sets (?P<setting>\w+) to"
        r" (?P<value>.*) \((?P<given>an? [\w.]+)\), not (?P<wanted>.*)",
        Msg.RULES_SETTING_TYPE,
    ),
)
# values said as they are in both languages (a setting's values, a plugin's object)
_PLAIN = frozenset(
    (
        "a",
        "b",
        "what",
        "known",
        "variants",
        "near",
        "setting",
        "players",
        "error",  # a plugin's exception, as Python says it
        "value",
        "given",
        "wanted",
    )
)
# a kind of rule in Russian: the subject («— опция, а не вариант»), and the genitive
# of «X нет» («опции «moskow» нет»)
_RU_KINDS = {"variant": "вариант", "option": "опция", "players": "правило числа игроков"}
_RU_KINDS_OF = {"variant": "варианта", "option": "опции", "players": "правила числа игроков"}
_UNKNOWN = frozenset(
    (
        Msg.RULES_UNKNOWN_VARIANT,
        Msg.RULES_UNKNOWN_NEAR,
        Msg.RULES_UNKNOWN_NEAR_OPTION,
        Msg.RULES_UNKNOWN,
    )
)


@functools.cache
def _rules_compiled() -> tuple[tuple[re.Pattern[str], Msg], ...]:
    return tuple((re.compile(pattern), key) for pattern, key in _RULE_FORMS)


def _own(en: str, ru: str) -> Phrase:
    return phrase(Msg.OWN_WORDS, en=en, ru=ru)


def _article(word: str) -> str:  # as the rule book's own _a says it: 'an option'
    return "an" if word[:1] in tuple("aeiou") else "a"


def _rule_value(key: Msg, group: str, text: str) -> Value:
    if group in _PLAIN:
        return text
    if group in ("kind", "expected") and key == Msg.RULES_WRONG_KIND:  # 'an option'
        return _own(f"{_article(text)} {text}", _RU_KINDS[text])
    if group in ("kind", "expected"):
        return _own(text, (_RU_KINDS_OF if key in _UNKNOWN else _RU_KINDS)[text])
    if group == "counts":  # '2, 3 or 4' players: «2, 3 или 4»
        return _own(text, counts_ru(text))
    try:  # a name: 'tertz', «tertz»
        word = ast.literal_eval(text)
    except (ValueError, SyntaxError):  # (a repr always reads back: never)
        word = text[1:-1]
    return _own(text, f"«{word}»")


def rules_phrase(message: str) -> Phrase | None:
    """The phrase for the rule book's refusal ``message`` (a RuleError's), or None when
    its form is not one known here (a third-party's own: said by its code)."""
    for pattern, key in _rules_compiled():
        if m := pattern.fullmatch(message):
            values = {g: _rule_value(key, g, text) for g, text in m.groupdict().items()}
            return phrase(key, **values)
    return None


def rules_refused(message: str) -> ev.Error:
    """'bad-rules' for the rules the rule book refused with ``message``, its reason said
    in each language (docs/protocol.md §4.3c)."""
    return ev.Error("bad-rules", message, said=rules_phrase(message))


# ------------------------------------------------------------ a line that is no call
# A line the call reader refused (protocol/vocabulary.py, CallSyntaxError), its reason
# read back so that a person is told it in his language: said in Russian as the word
# alone («хрень» — не ход и не заявка), a player who typed 'играю зз' was not told
# to name a suit (a tryout, s43). Each reason's English is its phrase's English.
_UNREAD_FORMS: tuple[tuple[str, Msg], ...] = (
    (rf"not a table call here: {_q('typed')}", Msg.UNREAD_HERE),
    (rf"not a card: {_q('typed')} \(try 10h, Js, Q♠\)", Msg.UNREAD_CARD),
    (rf"name a suit: igrayu s\|h\|d\|c \(got {_q('typed')}\)", Msg.UNREAD_SUIT),
    (
        r"say the top card: ot korolya, ot K, ot korolya kozyrnogo, от козырной дамы"
        rf" \(got {_q('typed')}\)",
        Msg.UNREAD_TOP,
    ),
    (rf"not a rank: {_q('typed')} \(7 8 9 10 J Q K A, or korolya, tuza \.\.\.\)", Msg.UNREAD_RANK),
)


@functools.cache
def _unread_compiled() -> tuple[tuple[re.Pattern[str], Msg], ...]:
    return tuple((re.compile(pattern), key) for pattern, key in _UNREAD_FORMS)


def unread_phrase(reason: str, typed: str) -> Phrase:
    """The refusal of a line that reads as no call for ``reason`` (the call reader's),
    ``typed`` the line as said back: the reason in each language where its form is
    known, else the word alone (Msg.NOT_A_CALL); its English is the reason either way."""
    for pattern, key in _unread_compiled():
        if m := pattern.fullmatch(reason):
            try:  # the word as the reader quoted it (a repr)
                word = ast.literal_eval(m["typed"])
            except (ValueError, SyntaxError):  # (a repr always reads back: never)
                break
            return phrase(Msg.NOT_A_CALL_WHY, why=phrase(key, typed=str(word)))
    return phrase(Msg.NOT_A_CALL, reason=reason, typed=typed)
