"""The table calls as people type them (sans-IO: no server needed)."""

from __future__ import annotations

import random

import pytest

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.game.cards import card_str
from deberc_net.game.match import Match
from deberc_net.plugins import RuleBook
from deberc_net.protocol.lang import ru_call, spoken_call
from deberc_net.protocol.vocabulary import (
    AmbiguousCall,
    AmbiguousRank,
    CallSyntaxError,
    FirstPersonWrites,
    engine_call,
    parse_call,
)
from deberc_net.testing import build_ruleset


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        ("пас", "pas"),
        ("PASS", "pas"),
        ("igrayu h", "igrayu-h"),
        ("играю черви", "igrayu-h"),
        ("Кп", "Ks"),
        ("10♥", "10h"),
        ("Th", "10h"),
        ("hod 9h", "9h"),
        ("hod 10 h", "10h"),
        ("ход Д ♠", "Qs"),
        ("ot korolya kozyrnogo", "ot-K-kozyrnogo"),
        ("от туза", "ot-A"),
        ("dva tertsa", "dva-tertsa"),
        ("пятьдесят", "pyatdesyat"),
        ("рост?", "rost?"),
        ("четыре семёрки", "chetyre-semerki"),
        ("конец", "konets"),
        ("501", "konets"),
    ],
)
def test_spellings(typed: str, token: str) -> None:
    assert parse_call(typed).token() == token


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        ("igrayu pik", "igrayu-s"),
        ("igrayu chervey", "igrayu-h"),
        ("igrayu buben", "igrayu-d"),
        ("igrayu bubey", "igrayu-d"),
        ("igrayu tref", "igrayu-c"),
        ("igrayu krestey", "igrayu-c"),
        ("tuz pik", "As"),
        ("desyatka chervey", "10h"),
    ],
)
def test_the_suits_genitive_in_latin_letters_as_in_cyrillic(typed: str, token: str) -> None:
    """A tryout, s47: 'igrayu pik' was refused ('piki' was heard), and 'pik', 'chervey',
    'buben', 'tref' were no suit, though 'пик', 'червей', 'бубен', 'треф' were."""
    assert parse_call(typed).token() == token


def test_a_tables_plugin_words_are_heard_after_the_engines() -> None:
    words = {"сдаюсь": "sdayus", "Play On": "igraem", "pas": "house-pass"}
    assert parse_call("сдаюсь", (), words).token() == "sdayus"
    assert parse_call("play  on", (), words).token() == "igraem"  # compared as typed words
    assert parse_call("pas", (), words).token() == "pas"  # the engine's word comes first
    with pytest.raises(CallSyntaxError):
        parse_call("сдаюсь")  # not at a table without the plugin


def test_legal_calls_settle_what_was_left_out() -> None:
    assert parse_call("terts", [Call("terts", count=2)]).token() == "dva-tertsa"
    assert parse_call("ot K", [Call("ot", rank=6, trump=True)]).token() == "ot-K-kozyrnogo"
    assert parse_call("prokhodit", [Call("pishet")]).token() == "pishet"
    assert parse_call("prokhodit", [Call("prokhodit")]).token() == "prokhodit"
    assert parse_call("house-call", [Call("house-call")]).token() == "house-call"


@pytest.mark.parametrize("name", ["ещё", "d’accord", "-re", "re--double", "Kontra"])
def test_a_plugins_call_is_heard_as_its_name_was_listed(name: str) -> None:
    """A plugin's call (deberc_extra_calls, no words of its own) sent back as legal=
    listed it, or typed as the prompt showed it: the line is normalized ('ё' as 'е',
    hyphens as spaces), and so is the call's name, or 'ещё' was no table call."""
    for typed in (name, name.upper(), name.replace("-", " ")):
        assert parse_call(typed, [Call("kontra-x"), Call(name)]) == Call(name), typed


@pytest.mark.parametrize("typed", ["", "frobnicate", "igrayu purple", "ot", "ot zebra", "1x"])
def test_nonsense_is_a_syntax_error(typed: str) -> None:
    with pytest.raises(CallSyntaxError):
        parse_call(typed)


# Latin T (the ten) and Cyrillic Т (the ace, туз) look the same on a screen
TEN_S, ACE_S, TEN_H = Call("play", card=3), Call("play", card=7), Call("play", card=11)


@pytest.mark.parametrize("typed", ["T♠", "Т♠", "tп", "Тs", "ход Т ♠", "hod T s"])
def test_a_look_alike_t_is_asked_about_when_both_cards_are_legal(typed: str) -> None:
    with pytest.raises(AmbiguousRank) as asked:
        parse_call(typed, [TEN_S, ACE_S, TEN_H])
    assert asked.value.suit == 0
    assert asked.value.typed.lower() in ("t", "т")


def test_a_look_alike_t_plays_the_one_card_the_hand_allows_that_it_means() -> None:
    assert parse_call("T♠", [TEN_S, TEN_H]).token() == "10s"  # a Latin T: the ten
    assert parse_call("Т♠", [ACE_S, TEN_H]).token() == "As"  # a Cyrillic Т: туз


@pytest.mark.parametrize("typed", ["T♠", "Ts", "T s", "hod T♠"])
def test_a_latin_t_is_never_read_as_the_ace_unasked(typed: str) -> None:
    # failed before: with only the ace legal, 'T♠' (a ten, as 'Th' = '10h') played the
    # ace: a player who misread his hand had a card played he did not name
    with pytest.raises(AmbiguousRank) as asked:
        parse_call(typed, [ACE_S, TEN_H])
    assert (asked.value.typed, asked.value.suit) == ("T", 0)
    with pytest.raises(AmbiguousRank):
        parse_call("ot T", [Call("ot", rank=7)])
    # the Russian human style, which writes its aces Т: a Latin T typed for one is read
    # by the hand, as before
    assert parse_call(typed, [ACE_S, TEN_H], cyrillic_ace=True).token() == "As"


@pytest.mark.parametrize("typed", ["Т♠", "Тп", "Т пик", "ход Т ♠", "тs"])
def test_a_cyrillic_t_is_never_read_as_the_ten_unasked(typed: str) -> None:
    # failed before: with only the ten legal, 'Т♠' played it: a Cyrillic Т is туз (the
    # ace) to whoever writes Russian, and he played a ten he did not mean, told nothing
    with pytest.raises(AmbiguousRank) as asked:
        parse_call(typed, [TEN_S, TEN_H])
    assert (asked.value.typed, asked.value.suit) == ("Т", 0)
    with pytest.raises(AmbiguousRank):
        parse_call("от Т", [Call("ot", rank=3)])
    assert parse_call("T♠", [TEN_S, TEN_H]).token() == "10s"  # a Latin T is the ten


def test_a_look_alike_t_is_read_as_typed_when_neither_card_is_legal() -> None:
    # the table then says why that card cannot be played
    assert parse_call("T♥", [TEN_S, ACE_S]).token() == "10h"
    assert parse_call("Т♥", [TEN_S, ACE_S]).token() == "Ah"
    assert parse_call("Т♥").token() == "Ah"


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        ("туз ♠", "As"),
        ("туз пик", "As"),
        ("туз♠", "As"),
        ("десятка червей", "10h"),
        ("ход десятка ♥", "10h"),
        ("Bп", "Js"),  # Latin B for Cyrillic В: the jack
        ("Аб", "Ad"),  # Cyrillic А for Latin A: the ace
        ("10с", "10c"),  # Cyrillic с for Latin c: clubs
    ],
)
def test_words_and_look_alike_letters_that_mean_one_card(typed: str, token: str) -> None:
    assert parse_call(typed, [TEN_S, ACE_S]).token() == token


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        # a tryout (s30): 'king hearts' was no call ("Did you mean 'ping'?") while
        # 'ace hearts' and 'ot king' were: every rank in English, as ot-RANK takes it
        ("king hearts", "Kh"),
        ("King of Hearts", "Kh"),
        ("queen ♠", "Qs"),
        ("jack of clubs", "Jc"),
        ("seven d", "7d"),
        ("eight of spades", "8s"),
        ("nine ♥", "9h"),
        ("ace of spades", "As"),
        ("ten of hearts", "10h"),
        ("card queen of diamonds", "Qd"),
    ],
)
def test_every_rank_said_in_english(typed: str, token: str) -> None:
    assert parse_call(typed).token() == token


@pytest.mark.parametrize("typed", ["of of of", "OF of Of of", "of-of-of"])
def test_nothing_but_of_is_no_call(typed: str) -> None:
    # a hostile tryout: 'of of of' at a table closed it with code=internal for every
    # seat ('of' was dropped from the middle, and the call read from no words)
    with pytest.raises(CallSyntaxError):
        parse_call(typed, [TEN_S, ACE_S])
    assert engine_call(typed) is None


def test_a_look_alike_t_in_an_answer_to_rost() -> None:
    both = [Call("ot", rank=3), Call("ot", rank=7)]
    with pytest.raises(AmbiguousRank) as asked:
        parse_call("от Т", both)
    assert asked.value.suit is None
    assert parse_call("ot T", [Call("ot", rank=3)]).token() == "ot-10"
    assert parse_call("от Т", [Call("ot", rank=7, trump=True)]).token() == "ot-A-kozyrnogo"
    with pytest.raises(AmbiguousRank):  # a Latin T is the ten: not the ace unasked
        parse_call("ot T", [Call("ot", rank=7, trump=True)])
    assert parse_call("от туза", both).token() == "ot-A"


@pytest.mark.parametrize("rule_set", [(2, "moscow", ("table-penalties",)), (4, "moscow", ())])
def test_every_legal_calls_own_token_reads_as_that_call(
    rule_set: tuple[int, str, tuple[str, ...]],
) -> None:
    # what a bot answers an ask with (a card read from a table, the rest by Call.token)
    rules = RuleBook.load().ruleset(*rule_set)
    rng = random.Random(str(rule_set))
    match = Match(rules, seed="vocabulary", match_id="m", table="1")
    cards = 0
    while match.result is None:
        seat = match.deal.to_act
        assert seat is not None
        legal = match.legal_calls(seat)
        for call in legal:
            token = call.token()
            assert parse_call(token, legal) == call
            assert parse_call(token.upper(), legal) == call
            cards += call.card is not None
        match.apply(seat, rng.choice(legal))
    assert cards > 100


def test_a_card_as_the_ask_writes_it_reads_as_that_legal_call_as_typed_otherwise() -> None:
    """The card a program sends back as the ask wrote it is read without normalizing;
    it is the same legal call the general reading finds in a typed form of it."""
    rng = random.Random(5)
    for m in range(5):
        match = Match(build_ruleset(2), seed=f"v{m}", names=("a", "b"))
        while match.result is None:
            seat = match.to_act
            assert seat is not None
            legal = match.legal_calls(seat)
            for call in legal:
                if call.name == C.PLAY and call.card is not None:
                    asked = card_str(call.card)
                    assert parse_call(asked, legal) is call
                    assert parse_call(f" {asked.lower()} ", legal) is call  # the general path
            match.apply(seat, rng.choice(legal), ms=0)


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        ("два полтинника", "dva-pyatdesyat"),
        ("две копы", "dva-pyatdesyat"),
        ("два берца", "dva-pyatdesyat"),
        ("dve kopy", "dva-pyatdesyat"),
        ("dva bertsa", "dva-pyatdesyat"),
        ("2 полтинника", "dva-pyatdesyat"),
        ("дві копи", "dva-pyatdesyat"),  # Ukrainian, as rules.md quotes it
        ("2 терца", "dva-tertsa"),
        ("три терца", "tri-tertsa"),
        ("3 терца", "tri-tertsa"),
        ("два терці", "dva-tertsa"),  # Ukrainian, as seed 003 quotes the call
        ("три терці", "tri-tertsa"),
    ],
)
def test_the_counts_as_russian_players_say_them(typed: str, token: str) -> None:
    """'два полтинника', the call at the table, was refused while 'два пятьдесят' was
    not (tryout s16, finding 3)."""
    assert parse_call(typed).token() == token


def test_a_count_left_out_in_the_genitive_is_filled_in() -> None:
    assert parse_call("полтинника", [Call("pyatdesyat", count=2)]).token() == "dva-pyatdesyat"
    assert parse_call("копы", [Call("pyatdesyat", count=2)]).token() == "dva-pyatdesyat"


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        ("от козырного туза", "ot-A-kozyrnogo"),
        ("от козырной дамы", "ot-Q-kozyrnogo"),
        ("от дамы козырной", "ot-Q-kozyrnogo"),
        ("от девятки козырной", "ot-9-kozyrnogo"),
        ("ot kozyrnogo korolya", "ot-K-kozyrnogo"),
        ("from trump ace", "ot-A-kozyrnogo"),
        ("от короля козырного", "ot-K-kozyrnogo"),
        ("ot K", "ot-K"),
    ],
)
def test_ot_in_the_shapes_people_say_it(typed: str, token: str) -> None:
    """'от козырного туза' was refused and 'от дамы козырной' read as the plain ot-Q
    (tryout s16, finding 4)."""
    assert parse_call(typed).token() == token


@pytest.mark.parametrize(
    "typed",
    ["от туза блабла", "ot korolya kozyrnogo xyz", "от туза дамы", "от козырного", "ot K K"],
)
def test_ot_with_other_words_is_a_clear_error(typed: str) -> None:
    with pytest.raises(CallSyntaxError, match=r"say the top card|not a rank"):
        parse_call(typed, [Call("ot", rank=7), Call("ot", rank=6, trump=True)])


@pytest.mark.parametrize("typed", ["Т♠", "Тп", "ход Т ♠", "туз ♠"])
def test_the_russian_ace_as_the_russian_style_shows_it_is_no_question(typed: str) -> None:
    """The Russian human style writes the ace Т♠: typed as shown it is the ace, even
    with 10♠ legal too (it was asked about: tryout s16, finding 5); Latin T still is."""
    assert parse_call(typed, [TEN_S, ACE_S, TEN_H], cyrillic_ace=True).token() == "As"
    with pytest.raises(AmbiguousRank):
        parse_call("T♠", [TEN_S, ACE_S, TEN_H], cyrillic_ace=True)
    both = [Call("ot", rank=3), Call("ot", rank=7)]
    assert parse_call("от Т", both, cyrillic_ace=True).token() == "ot-A"
    with pytest.raises(AmbiguousRank):
        parse_call("ot T", both, cyrillic_ace=True)


def _every_call() -> list[Call]:
    """Every call the engine makes with its words (cards, bids, talk, declarations)."""
    calls = [*C.PLAY_CALLS, Call("igrayu"), *(Call("igrayu", suit=s) for s in range(4))]
    calls += [Call("ot", rank=r, trump=t) for r in range(8) for t in (False, True)]
    calls += [Call(name, count=n) for name in ("terts", "pyatdesyat") for n in (1, 2, 3)]
    simple: tuple[str, ...] = ("pas", "menyayu", "ne-menyayu", "chetyre-semerki", "rost?", "pishet")
    simple += ("pokazhi", "pokazyvayu", "prokhodit?", "prokhodit", "ne-prokhodit", "bella")
    return calls + [Call(name) for name in (*simple, "konets")]


@pytest.mark.parametrize("cyrillic_ace", [False, True])
def test_every_call_as_shown_reads_back_as_itself_even_among_all_the_others(
    cyrillic_ace: bool,
) -> None:
    """Every call as the token, the Latin human style and the Russian one write it reads
    back as that call, with every other call legal too (rv41: the Russian ace as shown,
    'от дамы козырной' as the Russian style now writes it)."""
    every = _every_call()
    for call in every:
        token = call.token()
        for shown in (token, spoken_call(token), ru_call(token)):
            if not cyrillic_ace and shown == ru_call(token) and shown.startswith("Т"):
                continue  # the Cyrillic Т outside the Russian style: asked (below)
            assert parse_call(shown, every, cyrillic_ace=cyrillic_ace) == call, shown


def test_the_russian_style_says_trump_in_the_ranks_gender() -> None:
    """'от дамы козырного' was the server's own Russian (rv41); both read back."""
    assert ru_call("ot-Q-kozyrnogo") == "от дамы козырной"
    assert ru_call("ot-10-kozyrnogo") == "от десятки козырной"
    assert ru_call("ot-K-kozyrnogo") == "от короля козырного"
    assert ru_call("ot-J-kozyrnogo") == "от вальта козырного"


@pytest.mark.parametrize(
    ("word", "token"),
    [
        ("Jc", "Jc"),
        ("валет треф", "Jc"),
        ("terts", "terts"),
        ("пас", "pas"),
        ("prokhodit", "prokhodit"),
        ("perezdacha", None),
        ("play on", None),  # 'play' with no suit after it: not the engine's call
        ("от чего?", None),
    ],
)
def test_the_engines_own_reading_of_a_word(word: str, token: str | None) -> None:
    """What a plugin's word may not take (the rule book refuses it at loading)."""
    call = engine_call(word)
    assert (call.token() if call is not None else None) == token


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        # a keyboard layout switched mid-word: the word it shows (a tryout, s30)
        ("играю чeрви", "igrayu-h"),  # a Latin e
        ("igrаyu h", "igrayu-h"),  # a Cyrillic а
        ("пac", "pas"),  # Latin a and c
        ("туз пiк", "As"),  # a Latin i in Ukrainian пік
        ("десятка кpecтей", "10c"),
        ("оt kоrоlya", "ot-K"),  # 'ot' and 'от' are one word
        # a card's rank and suit are read apart, as before
        ("Kп", "Ks"),
        ("Bч", "Jh"),
    ],
)
def test_a_word_in_two_alphabets_is_the_word_it_shows(typed: str, token: str) -> None:
    assert parse_call(typed).token() == token


def test_a_word_in_two_alphabets_that_shows_no_word_is_no_call() -> None:
    with pytest.raises(CallSyntaxError, match="name a suit"):
        parse_call("играю чeрвu")  # a Latin u is no look-alike of и


def test_a_plugins_word_in_two_alphabets_is_read_too() -> None:
    aliases = {"сдаюсь": "sdayus", "give up": "sdayus"}
    assert parse_call("сдaюсь", [Call("sdayus")], aliases).token() == "sdayus"


def test_a_numbered_calls_number_is_read_as_a_commands_number_is() -> None:
    # 'lomayu 05' was 'not a table call — did you mean lomayu 5?' where 'lomayu +5' was
    # told the range: N is the ASCII digits, as every command's number (docs/protocol.md §4)
    aliases = build_ruleset(2, "tertz").call_aliases
    for typed in ("lomayu 05", "ломаю 05", "break 005", "lomaju 5"):
        assert parse_call(typed, [], aliases) == Call("lomayu-5"), typed
    for typed in ("lomayu +5", "lomayu ５", "lomayu 5.0"):  # no number: refused
        with pytest.raises(CallSyntaxError):
            parse_call(typed, [], aliases)


def test_a_hundred_said_alone_is_asked_about_when_two_are_legal() -> None:
    """«сто» heads Tertz's hundreds: the one legal is meant, two legal are asked about
    (a plugin whose seat may declare two classes at once meets it), none legal is
    the head itself, refused by the table as not legal now (docs/protocol.md §8.2)."""
    aliases = build_ruleset(2, "tertz").call_aliases
    pyat, dam = Call("sto-pyat"), Call("sto-dam")
    for typed in ("сто", "СТО", "hundred", "100", "sto"):
        assert parse_call(typed, [pyat, Call(C.PLAY, card=3)], aliases) is pyat, typed
        with pytest.raises(AmbiguousCall) as asked:
            parse_call(typed, [pyat, dam], aliases)
        assert asked.value.choices == (pyat, dam)
        assert parse_call(typed, [Call("dvesti")], aliases) == Call("sto")
    assert parse_call("200", [], aliases) == Call("dvesti")
    assert engine_call("сто") is None  # only at a Tertz table


def test_pishu_names_what_it_may_mean() -> None:
    """«пишу» ('I write') is no call: the person is told pishet and his top card."""
    top = Call(C.OT, rank=6)
    for typed in ("пишу", "Pishu", "пишУ"):
        with pytest.raises(FirstPersonWrites) as said:
            parse_call(typed, [top, Call(C.PISHET)])
        assert said.value.top is top
    with pytest.raises(FirstPersonWrites) as said:
        parse_call("пишу", [])
    assert said.value.top is None
