"""The table calls as people say them: Latin transliteration, Cyrillic and English.

``parse_call(text, legal)`` turns what was typed into one of the engine's ``Call``
values. ``legal`` (the calls the seat may make now) settles the words that mean
different things at different moments (``prokhodit`` concedes a ``rost?`` or answers a
``prokhodit?``) and fills in what a person leaves out (the count of a declaration,
``kozyrnogo`` in an answer). ``aliases`` are the words the table's own rule plugins
give their calls (``RuleSet.call_aliases``, from the hook ``deberc_call_aliases``): a
plugin's call is heard in Cyrillic or English only at a table that uses it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence, Set

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.game.cards import card_str, make

from .commands import number_word
from .said_back import said_back

_RANK_WORDS = {
    "7": 0,
    "8": 1,
    "9": 2,
    "10": 3,
    "t": 3,
    "j": 4,
    "q": 5,
    "k": 6,
    "a": 7,
    "в": 4,
    "д": 5,
    "к": 6,
    "т": 7,
    # letters that look like a rank letter of the other alphabet mean what they look like
    "b": 4,  # Latin B looks like Cyrillic В (валет)
    "а": 7,  # Cyrillic А looks like Latin A
    # the rank as a word, for saying a card beyond doubt: "туз ♠", "десятка пик"
    "туз": 7,
    "десятка": 3,
    "валет": 4,
    "дама": 5,
    "король": 6,
    "семерка": 0,
    "восьмерка": 1,
    "девятка": 2,
    # Ukrainian: "сімка пік", "дев'ятка чирв" (туз, десятка, валет, дама, король as above)
    "сімка": 0,
    "вісімка": 1,
    "дев'ятка": 2,
    "tuz": 7,
    "desyatka": 3,
    # English, every rank (as 'ot king' takes them): "king hearts", "ace of spades"
    "seven": 0,
    "eight": 1,
    "nine": 2,
    "ten": 3,
    "jack": 4,
    "queen": 5,
    "king": 6,
    "ace": 7,
}
# Latin T (the ten) and Cyrillic Т (the ace, туз) look the same: either one typed alone
# as a rank is a question unless the legal calls settle it (ambiguous_ranks)
_LOOK_ALIKE = {"t", "т"}
_CYRILLIC_TE = "т"  # the ace as the Russian human style writes it (Т♥): never a question there
_TEN, _ACE = 3, 7
_SUIT_WORDS = {
    "s": 0,
    "h": 1,
    "d": 2,
    "c": 3,
    "♠": 0,
    "♥": 1,
    "♦": 2,
    "♣": 3,
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
    "п": 0,
    "ч": 1,
    "б": 2,
    "к": 3,
    "т": 3,
    "с": 3,  # Cyrillic с looks like Latin c
    "spades": 0,
    "hearts": 1,
    "diamonds": 2,
    "clubs": 3,
    "piki": 0,
    "chervi": 1,
    "bubny": 2,
    "kresti": 3,
    "trefy": 3,
    # their genitives in Latin letters, as the Cyrillic ones below: "igrayu pik" was
    # refused while "играю пик" was heard (a tryout, s47)
    "pik": 0,
    "chervey": 1,
    "buben": 2,
    "bubey": 2,
    "krestey": 3,
    "tref": 3,
    "пики": 0,
    "черви": 1,
    "бубны": 2,
    "крести": 3,
    "трефы": 3,
    "пик": 0,  # "десятка пик": the suit in the genitive
    "червей": 1,
    "бубен": 2,
    "бубей": 2,
    "крестей": 3,
    "треф": 3,
    # Ukrainian (with its own і): піки, чирви (черви above), бубни, трефи, хрести, and
    # their genitives as a card is named: "туз пік", "десятка чирв"
    "піки": 0,
    "пік": 0,
    "чирви": 1,
    "чирва": 1,
    "чирв": 1,
    "бубни": 2,
    "бубон": 2,
    "трефи": 3,
    "хрести": 3,
    "хрестів": 3,
}
# "ot korolya": the top card's rank in the genitive, as spoken.
_RANK_GENITIVE = {
    "semerki": 0,
    "vosmerki": 1,
    "devyatki": 2,
    "desyatki": 3,
    "valeta": 4,
    "valta": 4,
    "damy": 5,
    "korolya": 6,
    "tuza": 7,
    "семерки": 0,
    "восьмерки": 1,
    "девятки": 2,
    "десятки": 3,
    "валета": 4,
    "вальта": 4,  # the correct genitive; "валета" is common speech, heard as well
    "дамы": 5,
    "короля": 6,
    "туза": 7,
    # Ukrainian: "від дами", "від дев'ятки"; the others as in Russian
    "сімки": 0,
    "вісімки": 1,
    "дев'ятки": 2,
    "дами": 5,
    "seven": 0,
    "eight": 1,
    "nine": 2,
    "ten": 3,
    "jack": 4,
    "queen": 5,
    "king": 6,
    "ace": 7,
}
# "в козыре": after the rank, or as its adjective before it; feminine ranks (дама,
# девятка, десятка) take "козырной": "от козырной дамы", "от дамы козырной"
_TRUMP_WORDS = {
    "kozyrnogo",
    "kozyrnoy",
    "kozyrnoi",
    "козырного",
    "козырной",
    "trump",
    "kozyr",
    "козырь",
    # Ukrainian: "від козирного туза", "від козирної дами"
    "козирного",
    "козирної",
    "козир",
}

# The Ukrainian words (last in a line where there are some) are the calls as a
# Ukrainian table says them: «пас», «грає» (so "граю"), «терць», «копа», «белла» are
# the Ukrainian rule text's own (docs/rules.md's seed 003); the rest are the same verbs
# in Ukrainian. None is a Russian or Latin word for another call (docs/protocol.md §8.2).
_SIMPLE = {
    C.PAS: {"pas", "пас", "pass", "пасую"},
    C.MENYAYU: {"menyayu", "menyaju", "меняю", "swap", "міняю"},
    C.NE_MENYAYU: {"ne menyayu", "ne menyaju", "не меняю", "keep", "не міняю"},
    C.SEVENS: {"chetyre semerki", "четыре семерки", "sevens", "four sevens", "чотири сімки"},
    C.ROST: {"rost?", "rost", "рост?", "рост", "height?", "height", "ріст?", "ріст", "зріст?"},
    C.PISHET: {"pishet", "пишет", "goditsya", "годится", "good", "concede", "пише", "годиться"},
    C.POKAZHI: {"pokazhi", "покажи", "show"},
    C.POKAZYVAYU: {"pokazyvayu", "показываю", "showing", "here", "показую"},
    C.SKIN: {"skin", "skin'", "скинь", "skin ubeysya", "скинь убейся", "play first"},
    C.PROKHODIT_Q: {"prokhodit?", "проходит?", "passes?", "does my trump pass?", "проходить?"},
    C.NE_PROKHODIT: {"ne prokhodit", "не проходит", "does not pass", "no", "не проходить"},
    C.BELLA: {"bella", "белла", "belote", "бела"},
    C.KONETS: {"konets", "конец", "claim", "301", "501", "1001", "кінець"},
}
# the calls said by a word alone: a slip of one is told the call, and why it is not
# legal now if it is not (hints.py looks among the legal calls first); a single
# declaration is one too ('tertz' in the bidding got no word of 'terts': a tryout, s48)
WORD_CALLS = (*_SIMPLE, C.IGRAYU, C.TERTS, C.PYATDESYAT)
_PROKHODIT = {"prokhodit", "проходит", "passes", "yes", "проходить"}
_IGRAYU = {"igrayu", "igraju", "играю", "play", "граю"}
# Ukrainian: "терць", and after a count "терці", as seed 003 quotes the call: «два терці»
_TERTS = {"terts", "терц", "tierce", "tertsa", "терца", "tierces", "терць", "терці"}
_FIFTY = {
    "pyatdesyat",
    "poltinnik",
    "berts",
    "kopa",
    "50",
    "пятьдесят",
    "п'ятдесят",  # Ukrainian
    "полтинник",
    "берц",
    "копа",
    "fifty",
    "fifties",
    # the genitive a count takes, as spoken: "два полтинника", "две копы", "два берца"
    "poltinnika",
    "bertsa",
    "kopy",
    "полтинника",
    "берца",
    "копы",
    "копи",  # Ukrainian, as docs/rules.md quotes it: "дві копи"
}
_COUNT = {
    **{word: 2 for word in ("dva", "dve", "два", "две", "дві", "two", "2")},
    **{word: 3 for word in ("tri", "три", "three", "3")},
}
# «пишу», 'I write': «пишет» said of oneself, no call (FirstPersonWrites)
_WRITE_I = {"пишу", "pishu"}
_PLAY_PREFIX = {"hod", "ход", "card", "хід"}
_OT_PREFIX = {"ot", "от", "from", "від"}

_WORDS = {word: name for name, words in _SIMPLE.items() for word in words}
# Latin and Cyrillic letters that look the same (Ukrainian і too): a keyboard layout
# switched in the middle of a word types them unseen ('чeрви' with a Latin e)
_TO_CYRILLIC = str.maketrans("abekmhopctyxi", "авекмнорстухі")
_TO_LATIN = str.maketrans("авекмнорстухі", "abekmhopctyxi")
_LATIN_LETTER = re.compile("[a-z]")
_CYRILLIC_LETTER = re.compile("[а-яёіїєґ]")
# every word the engine reads in a call, a word of a phrase too ('semerki' of
# 'chetyre semerki'): what a word mixing the two alphabets may be read as
_KNOWN_WORDS = frozenset(
    {
        *_RANK_WORDS,
        *_SUIT_WORDS,
        *_RANK_GENITIVE,
        *_TRUMP_WORDS,
        *_PROKHODIT,
        *_IGRAYU,
        *_TERTS,
        *_FIFTY,
        *_COUNT,
        *_PLAY_PREFIX,
        *_OT_PREFIX,
        *_WRITE_I,
        *(part for word in _WORDS for part in word.split()),
    }
)
# each card's token as a typed call is compared with it (a card is an int): a legal
# card's token read from here, not built by Call.token (most calls are cards)
_CARD_TOKEN = tuple(card_str(c).lower() for c in range(32))
# a card as the ask's `legal` writes it (what a program sends back): its call, the one
# the engine lists for that card (calls.PLAY_CALLS: one per card), found in the legal
# calls by identity, as Deal.apply finds it again
_CARD_AS_ASKED = {card_str(c): C.PLAY_CALLS[c] for c in range(32)}


def words_for(call: Call) -> tuple[str, ...]:
    """The words people say for ``call`` beyond its token (hints.py compares a
    mistyped call with them): a bare call's aliases, a single declaration's names."""
    if call.name in _SIMPLE:
        return tuple(_SIMPLE[call.name])
    if call.name == C.IGRAYU and call.suit is None:
        return tuple(_IGRAYU)
    if call.name == C.PROKHODIT:
        return tuple(_PROKHODIT)
    if call.name == C.TERTS and call.count == 1:
        return tuple(_TERTS)
    if call.name == C.PYATDESYAT and call.count == 1:
        return tuple(_FIFTY)
    return ()


class CallSyntaxError(ValueError):
    """What was typed is not a table call."""


class AmbiguousCall(CallSyntaxError):
    """A word of the table's plugins that heads several calls (Tertz's «сто» of ``sto-pyat``
    … ``sto-tuzov``), more than one of them legal now: the person is asked which."""

    def __init__(self, typed: str, choices: Sequence[Call]) -> None:
        self.typed = typed  # the word as typed
        self.choices = tuple(choices)  # the legal calls it may be, in legal order
        tokens = ", ".join(c.token() for c in self.choices)
        super().__init__(f"{said_back(typed)!r} may be {tokens}: say which")


class RankAlone(CallSyntaxError):
    """A rank typed without its suit ('K'): a card is its rank and its suit
    (docs/protocol.md §8.1), so nothing is played. While cards of that rank may be
    played they are named (a tryout, s42: 'K' got a bare 'not a table call'); off
    one's move, whose move it is, as for a card (s43)."""

    def __init__(self, typed: str, ranks: frozenset[int], cards: Sequence[Call]) -> None:
        self.typed = typed  # the word as typed
        self.ranks = ranks  # the ranks it may be (T: the ten or the ace)
        self.cards = tuple(cards)  # the legal cards of those ranks, in legal order (or none)
        super().__init__(f"not a table call: {said_back(typed)!r}")


class PlayAlone(CallSyntaxError):
    """'hod' (ход, card) with no card after it: which card, from those one may play now
    (``cards``, in legal order; none off one's move or out of the play). A tryout was
    told "not a table call", though 'calls' lists "CARD or hod CARD"."""

    def __init__(self, typed: str, cards: Sequence[Call]) -> None:
        self.typed = typed
        self.cards = tuple(cards)
        super().__init__(f"not a table call: {said_back(typed)!r}")


class FirstPersonWrites(CallSyntaxError):
    """«пишу» ('I write'): the talk's «пишет» ('it writes': the other's combination is
    written, docs/rules.md §3) said of oneself, which names no call: the one who gives
    way says ``pishet``, the one whose combination is better says its top card
    (``ot-…``) or nothing. The person is told both, not that it is no call."""

    def __init__(self, typed: str, top: Call | None) -> None:
        self.typed = typed
        self.top = top  # the top card he may answer with now (rost-reply), if any
        super().__init__(f"{said_back(typed)!r} is no call: pishet concedes")


class AmbiguousRank(CallSyntaxError):
    """A rank letter typed alone that reads as two ranks (Latin T the ten, Cyrillic Т
    the ace), and the legal calls allow both: the person is asked which one."""

    def __init__(self, typed: str, suit: int | None) -> None:
        self.typed = typed  # the letter as typed
        self.suit = suit  # the card's suit; None in an answer to rost? ("ot T")
        super().__init__(f"{said_back(typed)!r} is both the ten (Latin T) and the ace (Cyrillic Т)")


def normalize(text: str) -> str:
    t = text.strip().lower().replace("ё", "е").replace("-", " ")
    t = t.replace("’", "'").replace("ʼ", "'")  # the Ukrainian apostrophe, typed either way
    return " ".join(t.split())


def unmixed(text: str, aliases: Mapping[str, str] | None = None) -> str:
    """``text`` (normalized) with each word that mixes Latin and Cyrillic letters read
    as the one word of the calls (the engine's, or the table's plugins' ``aliases``) it
    spells when its look-alike letters are read in the other alphabet: 'чeрви' (a Latin
    e) is 'черви', 'pаs' (a Cyrillic а) 'pas'. No word of either language mixes them,
    and on the screen it shows as that word: it is what was meant (docs/protocol.md
    §8). A word that reads as no word of the calls is left as typed (a card as 'Kп',
    its rank and suit read apart; or no call, refused as before)."""
    if text.isascii():
        return text
    words = text.split()
    if not any(_mixed(word) for word in words):
        return text
    known = _KNOWN_WORDS
    if aliases:
        known = known | {part for word in aliases for part in normalize(word).split()}
    return " ".join(_read_mixed(word, known) if _mixed(word) else word for word in words)


def _mixed(word: str) -> bool:
    return bool(_LATIN_LETTER.search(word) and _CYRILLIC_LETTER.search(word))


def _read_mixed(word: str, known: frozenset[str]) -> str:
    latin, cyrillic = word.translate(_TO_LATIN), word.translate(_TO_CYRILLIC)
    # both only where a word is spelt alike in the two alphabets, and means one thing
    # there ('ot', 'от'): either reading is that word
    for reading in (latin, cyrillic):
        if reading in known:
            return reading
    return word


def _card_words(text: str) -> tuple[str, int, int]:
    """The rank as typed, the rank and the suit of a card as people type it: the rank
    word (or letter) first, then the suit's, with or without a space between."""
    t = text.strip().lower()
    for cut in range(1, len(t)):
        rank, suit = t[:cut].strip(), t[cut:].strip()
        if rank in _RANK_WORDS and suit in _SUIT_WORDS:
            return rank, _RANK_WORDS[rank], _SUIT_WORDS[suit]
    raise CallSyntaxError(f"not a card: {said_back(text)!r} (try 10h, Js, Q♠)")


def parse_card_text(text: str) -> int:
    """A card as people type it: ``10h``, ``Th``, ``10♥``, ``Кп`` (king of spades),
    ``туз пик``. A look-alike T/Т reads as its own alphabet's rank (see _play)."""
    _, rank, suit = _card_words(text)
    return make(rank, suit)


def _look_alike(word: str, cyrillic_ace: bool) -> bool:
    """Whether a rank typed as ``word`` may be the ten or the ace (T or Т), the
    Cyrillic Т being the ace where the screen writes the ace so (``cyrillic_ace``)."""
    return word in _LOOK_ALIKE and not (cyrillic_ace and word == _CYRILLIC_TE)


def _other_alone(typed: str, legal_ranks: Set[int | None], cyrillic_ace: bool) -> bool:
    """Whether the one of the ten and the ace legal is not the rank ``typed`` (a T or Т)
    means in its own alphabet: a Cyrillic Т is туз, the ace, to whoever writes Russian;
    a Latin T the ten (``Th`` = ``10h``), except in the Russian human style, whose aces
    are written Т and whose players type a Latin T for one. Played, it would be a card
    the player did not name: a slip of his reading of his hand, not to be undone."""
    if len(legal_ranks) != 1:
        return False
    own = _ACE if typed == _CYRILLIC_TE else None if cyrillic_ace else _TEN
    return own is not None and own not in legal_ranks


def _play(text: str, legal: Sequence[Call], cyrillic_ace: bool) -> Call:
    """A card played: a T/Т that may be the ten or the ace is the one the legal calls
    allow; when both are legal it is asked about (AmbiguousRank); when neither is, it
    is read as typed and the table says why that card cannot be played. A letter is
    never its other alphabet's rank unasked (``_other_alone``): with only that one
    legal it is asked about too."""
    typed, rank, suit = _card_words(text)
    if _look_alike(typed, cyrillic_ace):
        allowed = {c.card for c in legal if c.name == C.PLAY}
        ten, ace = make(_TEN, suit), make(_ACE, suit)
        legal_ranks = {r for r, card in ((_TEN, ten), (_ACE, ace)) if card in allowed}
        if len(legal_ranks) == 2 or _other_alone(typed, legal_ranks, cyrillic_ace):
            raise AmbiguousRank(typed.upper(), suit)
        if ten in allowed or ace in allowed:
            return C.play(ten if ten in allowed else ace)
    return C.play(make(rank, suit))


@functools.lru_cache(maxsize=4096)
def _heard_as(token: str) -> str:
    """A call's token as a line saying it reads once normalized, as parse_call reads
    the line: kept, as each call's token is read again at every call of its table."""
    return normalize(token).replace(" ", "-")


# what a person ends a call with as a sentence: 'покажи!', 'пас.', 'рост ?' (a tryout, s50)
_TRAILING = ".!? \t"


def _unpunctuated(text: str) -> list[str]:
    """The lines ``text`` may mean without the ``.``, ``!`` or ``?`` it ends with: with
    a ``?`` among them, the call asked (``проходит ?``, ``проходит?!``: ``проходит?``)
    before the word alone (``пас?``: ``пас``), so a question is never read as its answer;
    none when nothing trails or nothing is left."""
    bare = text.rstrip().rstrip(_TRAILING)
    tail = text.rstrip()[len(bare) :]
    if not bare or not tail.strip():
        return []
    return [f"{bare}?", bare] if "?" in tail else [bare]


def parse_call(
    text: str,
    legal: Sequence[Call] = (),
    aliases: Mapping[str, str] | None = None,
    cyrillic_ace: bool = False,
) -> Call:
    """Read a table call; raise CallSyntaxError when it is none. ``aliases`` maps the
    words of the table's plugins to their calls; the engine's own words come first.
    ``cyrillic_ace``: the person's screen writes the ace as Cyrillic Т (the Russian
    human style), so that letter is the ace as shown, never asked about (docs/protocol.md
    §8.1); a Latin T still is. A line that is no call as typed is read again without the
    ``.``, ``!`` or ``?`` it ends with (§8.2); its own refusal stands when that is none
    either, unless the bare line's says more (``T♠.``: which card?)."""
    try:
        return _parse_call(text, legal, aliases, cyrillic_ace)
    except CallSyntaxError as refused:
        for bare in _unpunctuated(text):
            try:
                return _parse_call(bare, legal, aliases, cyrillic_ace)
            except CallSyntaxError as again:
                if type(again) is not CallSyntaxError:
                    raise
        raise refused from None


def _parse_call(
    text: str,
    legal: Sequence[Call],
    aliases: Mapping[str, str] | None,
    cyrillic_ace: bool,
) -> Call:
    asked = _CARD_AS_ASKED.get(text)
    if asked is not None:  # a card as the ask wrote it (most calls): no normalizing
        for call in legal:
            if call is asked:
                return call
    t = unmixed(normalize(text), aliases)
    if not t:
        raise CallSyntaxError("empty call")
    token = t.replace(" ", "-")
    for call in legal:  # a legal call's own token always works, a plugin's included
        card = call.card
        if card is not None and call.name == C.PLAY:
            if _CARD_TOKEN[card] == token:
                return call
        # normalized as the line was: a name with 'ё', '’' or a hyphen at an end
        # ('ещё') was listed in legal= and refused when sent back
        elif _heard_as(call.token()) == token:
            return call
    if t in _WORDS:
        return Call(_WORDS[t])
    # a plugin's numbered call's N as a command's number is read (§4): 'lomayu 05' is 5
    plain = " ".join(str(n) if (n := number_word(w)) is not None else w for w in t.split())
    for word, name in (aliases or {}).items():
        if normalize(word) in (t, plain):
            return _filled_in(name, legal, text)
    if t in _PROKHODIT:
        names = {c.name for c in legal}
        return Call(C.PROKHODIT if C.PROKHODIT in names or C.PISHET not in names else C.PISHET)
    words = t.split()
    if words[0] in _IGRAYU:
        return _igrayu(words[1:], text)
    if words[0] in _OT_PREFIX:
        return _ot(words[1:], text, legal, cyrillic_ace)
    declared = _declaration(words, legal)
    if declared is not None:
        return declared
    if "of" in words[1:-1]:  # "king of hearts": a card as English names it
        # only between its first and last word: 'of of of' left no word at all
        words = [words[0], *(w for w in words[1:-1] if w != "of"), words[-1]]
    if words[0] in _PLAY_PREFIX and len(words) == 1:
        raise PlayAlone(text.strip(), [c for c in legal if c.name == C.PLAY])
    if words[0] in _PLAY_PREFIX and len(words) in (2, 3):
        return _play(" ".join(words[1:]), legal, cyrillic_ace)
    if len(words) <= 2:
        try:
            return _play(" ".join(words), legal, cyrillic_ace)
        except AmbiguousRank:
            raise
        except CallSyntaxError:
            pass
    if t in _WRITE_I:
        top = next((c for c in legal if c.name == C.OT), None)
        raise FirstPersonWrites(text.strip(), top)
    if len(words) == 1 and words[0] in _RANK_WORDS:
        ranks = frozenset({_RANK_WORDS[words[0]]})
        if words[0] == "t" or (words[0] == "т" and not cyrillic_ace):  # the look-alike
            ranks = frozenset({_TEN, _ACE})
        cards = [
            c for c in legal if c.name == C.PLAY and c.card is not None and c.card & 7 in ranks
        ]
        raise RankAlone(text.strip(), ranks, cards)
    raise CallSyntaxError(f"not a table call: {said_back(text.strip())!r}")


def _filled_in(name: str, legal: Sequence[Call], text: str) -> Call:
    """A plugin's call ``name``; or, when ``name`` only heads its calls (Tertz's ``sto``
    of ``sto-pyat`` … ``sto-tuzov``: "one hundred", which one left out), the one of them
    legal now, as ``terts`` is ``dva-tertsa`` (docs/protocol.md §8.2). With several legal
    the person is asked which; with none it is refused as any call not legal now."""
    head = f"{name}-"
    meant = [c for c in legal if c.name.startswith(head)]
    if not meant or any(c.name == name for c in legal):
        return Call(name)
    if len(meant) > 1:
        raise AmbiguousCall(text.strip(), meant)
    return meant[0]


def engine_call(word: str) -> Call | None:
    """The call the engine reads in ``word`` on its own, at a table without plugins and
    with no legal calls to settle it (``parse_call(word)``); None when it reads none.
    A rank that may be the ten or the ace is the engine's word too (the ten's call
    stands for it; with no legal calls it is never asked about). The rule book refuses a
    plugin's word the engine reads as another call: the plugin would never hear it, or
    would take it from a card or a declaration (plugins/manager.py, ``_spoken``)."""
    try:
        return parse_call(word)
    except AmbiguousRank as ambiguous:
        suit = ambiguous.suit
        return C.play(make(_TEN, suit)) if suit is not None else Call(C.OT, rank=_TEN)
    except CallSyntaxError:
        return None


def numbered_call_range(text: str, aliases: Mapping[str, str]) -> tuple[str, int, int, str] | None:
    """A numbered call of the table's plugins (``lomayu-N``, said ``break N``) typed
    with a number it does not have, or with none: (its word as typed, its lowest N, its
    highest N, the call's own word: ``lomayu``), so the refusal names the range in the
    player's words (``ломаю N: N от 1 до 12``); None for anything else (docs/protocol.md
    §10)."""
    words = normalize(text).split()
    if len(words) not in (1, 2):
        return None
    numbers: dict[str, list[int]] = {}  # the call's word -> its numbers
    heads: dict[str, str] = {}  # a word people say for it -> the call's word
    for word, name in aliases.items():
        head, _, n = name.rpartition("-")
        if not head or number_word(n) is None:
            continue
        numbers.setdefault(head, []).append(int(n))
        heads[normalize(head)] = head
        said = normalize(word).split()
        if len(said) == 2 and said[1] == n:
            heads[said[0]] = head
    typed = heads.get(words[0])
    if typed is None or (len(words) == 2 and number_word(words[1]) in numbers[typed]):
        return None  # a number it has: refused as before (not legal now)
    return words[0], min(numbers[typed]), max(numbers[typed]), typed


def _igrayu(rest: list[str], text: str) -> Call:
    if not rest:
        return Call(C.IGRAYU)
    if len(rest) == 1 and rest[0] in _SUIT_WORDS:
        return Call(C.IGRAYU, suit=_SUIT_WORDS[rest[0]])
    raise CallSyntaxError(f"name a suit: igrayu s|h|d|c (got {said_back(text.strip())!r})")


_OT_SHAPES = "ot korolya, ot K, ot korolya kozyrnogo, от козырной дамы"


def _ot(rest: list[str], text: str, legal: Sequence[Call], cyrillic_ace: bool) -> Call:
    """``ot RANK``, ``ot RANK TRUMP`` or ``ot TRUMP RANK``, nothing else."""
    trump = len(rest) == 2 and (rest[0] in _TRUMP_WORDS or rest[1] in _TRUMP_WORDS)
    if trump and rest[0] in _TRUMP_WORDS:  # "от козырного туза"
        rest = rest[1:]
    elif trump:
        rest = rest[:1]
    if len(rest) != 1:
        raise CallSyntaxError(f"say the top card: {_OT_SHAPES} (got {said_back(text.strip())!r})")
    word = rest[0]
    rank = _RANK_GENITIVE.get(word, _RANK_WORDS.get(word))
    if _look_alike(word, cyrillic_ace):  # "ot T": the ten or the ace, as with a card
        ranks = {c.rank for c in legal if c.name == C.OT} & {_TEN, _ACE}
        if len(ranks) == 2 or _other_alone(word, ranks, cyrillic_ace):
            raise AmbiguousRank(word.upper(), None)
        rank = ranks.pop() if ranks else rank
    if rank is None:
        raise CallSyntaxError(
            f"not a rank: {said_back(word)!r} (7 8 9 10 J Q K A, or korolya, tuza ...)"
        )
    for call in legal:  # a person may leave out "kozyrnogo": the engine knows it
        if call.name == C.OT and call.rank == rank and (call.trump or not trump):
            return call
    return Call(C.OT, rank=rank, trump=trump)


def _declaration(words: list[str], legal: Sequence[Call]) -> Call | None:
    count = 1
    if words[0] in _COUNT and len(words) == 2:
        count, words = _COUNT[words[0]], words[1:]
    if len(words) != 1:
        return None
    if words[0] in _TERTS:
        name = C.TERTS
    elif words[0] in _FIFTY:
        name = C.PYATDESYAT
    else:
        return None
    for call in legal:  # the count is the server's to fill in when left out
        if call.name == name and (count == 1 or call.count == count):
            return call
    return Call(name, count=count)
