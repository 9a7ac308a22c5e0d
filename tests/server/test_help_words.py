"""'help WORD' for a word that is no command but is said at a table: a card in any of
its spellings, another word for a call (docs/protocol.md §4.4). A new player's tryout
typed 'help 9h' and was told only "no command '9h'"; 'help king hearts' was asked
whether it meant 'help ping'."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import trio

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.protocol.vocabulary import parse_call
from deberc_net.server.app import serve
from deberc_net.testing import rule_book

from .client import help_texts, person_told
from .conftest import Connector, make_config

CARD = "is a card, not a command: at a table, type it on your turn to play it."


def _joined(lines: list[str]) -> str:
    """A text wrapped onto lines, as one."""
    return " ".join(x.strip() for x in lines)


@pytest.mark.parametrize("card", ["9h", "9♥", "Т♠", "T♠", "king hearts", "ace of spades", "Кп"])
async def test_a_card_as_a_help_word_is_said_to_be_a_card(
    port: int, connect: Connector, card: str
) -> None:
    ann = await connect.machine(port, "ann")
    told = await help_texts(ann, f"help {card}")
    assert all(len(x) <= 80 for x in told), told
    assert _joined(told) == f"{card} {CARD} 'calls' lists what may be said at a table."


async def test_a_card_is_pointed_to_at_a_table_and_in_russian(
    port: int, connect: Connector
) -> None:
    vera = await connect.human(port, "vera")
    await vera.send("new 2")
    await vera.read_until(lambda x: x.startswith("You sit at table"))
    told = await person_told(vera, "help 9h")
    assert _joined(told).startswith(f"9h {CARD}"), told
    await vera.send("lang ru")
    await vera.read_until(lambda x: x.startswith("Язык"))
    told = await person_told(vera, "help туз пик")
    assert _joined(told) == (
        "«туз пик» — карта, а не команда: чтобы сыграть её, наберите её за столом в свой "
        "ход. Что можно сказать за столом, перечисляет calls."
    )


async def test_another_word_for_a_call_is_pointed_to_the_call(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    told = await help_texts(ann, "help concede")  # (pishet's entries: every word of it
    assert told[0] == (  # is told them, test_help_words_agree.py)
        "concede is no command. The table calls that say it ('calls' lists them all):"
    )
    assert told[1:3] == [  # (Deberts's and Tertz's entry, the same: once)
        "Table calls / Tertz table calls:",
        "  pishet (пишет, goditsya)             concede: the other's combination is",
    ]
    # a word 'calls' says is answered with its entries, as before ('help bella')
    bella = await help_texts(ann, "help bella")
    assert bella[0].startswith("bella is no command. The table calls that say it")
    assert any(x.startswith("  bella (белла)") for x in bella[1:])
    # at a Tertz table, a word of Deberts's bidding is no call of this table: told
    # whose it is, as its call's own word is ('help pas')
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    told = await help_texts(ann, "help пасую")
    assert told[0] == "пасую is no command but a call of other tables, not played at this table:"
    assert (
        told[1:]
        == (await help_texts(ann, "help pas"))[1:]
        == [
            "Table calls:",
            "  pas (пас, pass)                      pass in bidding",
        ]
    )
    # and a word that is none at all is still no command
    (text,) = await help_texts(ann, "help frobnicate")
    assert text.startswith("no command 'frobnicate'"), text


async def test_a_games_own_word_is_pointed_to_its_call_in_the_lobby(
    port: int, connect: Connector
) -> None:
    """A word a game's plugin gives a call (Tertz's 'mariazh', 'lomaju 5', «від чого?»)
    was "no command" in the lobby: 'help' read the engine's words alone."""
    ann = await connect.machine(port, "ann")
    told = {
        word: " ".join(_joined(await help_texts(ann, f"help {word}")).split())
        for word in ("mariazh", "lomaju 5", "lomaju", "ламаю", "ламаю 5", "від чого?")
    }
    tail = "'calls' lists what may be said at a table."
    about = "is no command. The table calls that say it ('calls' lists them all):"
    tertz = "Tertz table calls:"
    assert told == {  # a call's word: its entries, under Tertz's heading (whose)
        "mariazh": f"mariazh {about} {tertz} mariage (bella, марьяж) declare trump K+Q, on"
        " your turn, once",
        "lomaju 5": f"lomaju 5 {about} {tertz} lomayu N (ломаю N, break N) after the first"
        " trick, its loser breaks the deck: N from 1 to 12",
        "lomaju": f"lomaju is no command but a Tertz table call: lomayu N (N from 1 to 12). {tail}",
        "ламаю": f"ламаю is no command but a Tertz table call: lomayu N (N from 1 to 12). {tail}",
        "ламаю 5": f"ламаю 5 {about} {tertz} lomayu N (ломаю N, break N) after the first"
        " trick, its loser breaks the deck: N from 1 to 12",
        "від чого?": f"від чого? {about} {tertz} ot chego? (rost?, от чего?) ask the height"
        " of a combination of the same class ot RANK [kozyrnogo] (от короля) answer ot"
        " chego? with your top card",
    }


async def test_a_games_own_word_is_pointed_to_its_call_in_russian(
    port: int, connect: Connector
) -> None:
    """As the Russian player of the report saw it: in the lobby, then at a Tertz table."""
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x.startswith("Язык"))
    tail = "Что можно сказать за столом, перечисляет calls."
    for word in ("mariazh", "мар'яж"):  # its entry, under Tertz's heading
        assert await person_told(vera, f"help {word}") == [
            f"«{word}» — не команда. Ходы за столом с этим словом (все ходы — в calls):",
            "Ходы и заявки в терце:",
            "  марьяж (bella, белла)       козырные К и Д: на своём ходу, один раз",
        ]
    told = _joined(await person_told(vera, "help lomaju"))
    assert told == (
        f"«lomaju» — не команда, а ход за столом игры Tertz: «ломаю N (N от 1 до 12)». {tail}"
    )
    await vera.send("new 2 tertz")
    await vera.read_until(lambda x: x.startswith("Вы за столом"))
    # at its table, the table's own call: its entries of 'calls', as for its other
    # words (help's words agree: test_help_words_agree.py)
    about = "— не команда. Ходы за столом с этим словом (все ходы — в calls):"
    lines = await person_told(vera, "help ламаю 5")
    assert lines[:2] == [f"«ламаю 5» {about}", "  ломаю N (lomayu N, break N)"], lines
    lines = await person_told(vera, "help від чого?")
    assert lines[0] == f"«від чого?» {about}", lines
    assert lines[1].startswith("  от чего? (rost?, рост?) "), lines


async def test_a_games_own_word_at_its_table_and_not_at_another(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    tail = "'calls' lists what may be said at a table."
    assert await help_texts(ann, "help mariazh") == [
        "mariazh is no command. The table calls that say it ('calls' lists them all):",
        "  mariage (bella, марьяж)              declare trump K+Q, on your turn, once",
    ]
    assert _joined(await help_texts(ann, "help lomaju 13")) == (
        f"lomaju 13 is no command but a table call: lomayu N (N from 1 to 12). {tail}"
    )
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    # at a Deberts table Tertz's words are no call of its own: told so, and whose
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    assert await help_texts(ann, "help mariazh") == [
        "mariazh is no command but a call of other tables, not played at this table:",
        "Tertz table calls:",
        "  mariage (bella, марьяж)              declare trump K+Q, on your turn, once",
        "At this table the same call is bella.",
    ]


async def test_a_games_own_words_of_several_are_its_call_not_their_first_words(
    port: int, connect: Connector
) -> None:
    """«сто тузів» (Tertz's four aces, in Ukrainian) was told the entries of 'calls'
    that say its first word, «сто»: the runs of five to eight and the engine's hundred,
    never the call it is; a topic 'calls' names whole, or a call of the engine said by
    its first word ('от туза'), keeps its entries. Its call's own entry, since 'calls'
    names each hundred whole (a review: 'help sto tuzov' at a Tertz table told only
    'a table call: sto tuzov', the word said back)."""
    ann = await connect.machine(port, "ann")
    about = "is no command. The table calls that say it ('calls' lists them all):"
    aces = "sto-dam, sto-korolei, sto-tuzov declare four queens, kings, aces (100)"
    runs = "sto-pyat, sto-shest, sto-sem, sto-vosem (сто пять …) declare a run of 5, 6, 7, 8 (100)"
    told = " ".join(_joined(await help_texts(ann, "help сто тузів")).split())
    assert told == f"сто тузів {about} Tertz table calls: {aces}"
    told = " ".join(_joined(await help_texts(ann, "help сто п'ять")).split())
    assert told == f"сто п'ять {about} Tertz table calls: {runs}"
    entries = await help_texts(ann, "help от туза")
    assert entries[0].startswith("от туза is no command. The table calls that say it"), entries
    entries = await help_texts(ann, "help ot chego?")
    assert entries[0].startswith("ot chego? is no command. The table calls that say it")
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    for word in ("сто королів", "sto tuzov", "sto-tuzov", "сто тузов", "hundred aces"):
        told = " ".join(_joined(await help_texts(ann, f"help {word}")).split())
        assert told == f"{word} {about} {aces}"
        said = " ".join(_joined(await help_texts(ann, f"help {word} lang=ru")).split())
        assert said.endswith(
            "сто дам, сто королей, сто тузов объявить четыре дамы, короля, туза (100)"
        ), said
    for word in ("sto shest", "сто сім", "sto-vosem"):  # (each run, not only the ends)
        told = " ".join(_joined(await help_texts(ann, f"help {word}")).split())
        assert told == f"{word} {about} {runs}"


async def test_a_call_this_table_does_not_play_is_told_so_however_it_is_said(
    port: int, connect: Connector
) -> None:
    """At a Moscow table 'help konets' pointed at the tables that play it while 'help
    mariazh' (Tertz's word) and 'help кінець' (konets in Ukrainian) said "no command":
    each is a call of other tables, not played at this one, in the player's language."""
    ann = await connect.machine(port, "ann")
    # in the lobby an option's call is one, however said: its entry, under the options'
    for word in ("кінець", "1001", "konets"):
        assert (await help_texts(ann, f"help {word}"))[1:3] == [
            "Calls of options, at the tables that play them:",
            "  konets (конец, claim, 501)           option manual-claim: claim the match",
        ]
    assert (await help_texts(ann, "help кінець lang=ru"))[1:3] == [
        "Заявки опций, за столами, где они играют:",
        "  конец (konets, claim, 501)           опция manual-claim: объявить конец",
    ]
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    elsewhere = "is no command but a call of other tables, not played at this table:"
    konets = [
        "Calls of options, at the tables that play them:",
        "  konets (конец, claim, 501)           option manual-claim: claim the match",
        "                                       after a trick you took",
    ]
    for word in ("konets", "кінець", "claim"):
        assert await help_texts(ann, f"help {word}") == [f"{word} {elsewhere}", *konets]
    tail = "not played at this table. 'calls' lists this table's calls."
    said = {
        word: _joined(await help_texts(ann, f"help {word}")) for word in ("lomaju", "сто тузів")
    }
    for word in ("mariazh", "мар'яж"):  # Tertz's entry, and Deberts' bella
        told = await help_texts(ann, f"help {word}")
        assert told[0] == f"{word} {elsewhere}", told
        assert told[-1] == "At this table the same call is bella.", told
    assert said["lomaju"] == (
        f"lomaju is no command but a Tertz table call: lomayu N (N from 1 to 12), {tail}"
    )
    assert " ".join(said["сто тузів"].split()).endswith(
        "Tertz table calls: sto-dam, sto-korolei, sto-tuzov declare four queens, kings, aces (100)"
    )
    # its own calls as before: no word of this table's is told it is another's (its
    # entries, as for its other words: test_help_words_agree.py)
    assert (await help_texts(ann, "help пасую"))[1:] == [
        "  pas (пас, pass)                      pass in bidding"
    ]
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x.startswith("Язык"))
    await vera.send("new 2")
    await vera.read_until(lambda x: x.startswith("Вы за столом"))
    told = await person_told(vera, "help кінець")
    assert told[0] == "«кінець» — не команда, а ход за другими столами; за этим столом его нет:"
    assert told[1:3] == [
        "Заявки опций, за столами, где они играют:",
        "  конец (konets, claim, 501)           опция manual-claim: объявить конец",
    ]
    assert await person_told(vera, "help мар'яж") == [
        "«мар'яж» — не команда, а ход за другими столами; за этим столом его нет:",
        "Ходы и заявки в терце:",
        "  марьяж (bella, белла)       козырные К и Д: на своём ходу, один раз",
        "За этим столом тот же ход — «белла».",
    ]


async def test_in_the_lobby_a_word_of_two_games_is_told_each_games_by_its_words(
    port: int, connect: Connector
) -> None:
    """'help от туза' in the lobby, which plays no game, lists each game's meaning
    under its game's heading; Tertz's "from what?", whose «от» it says, was listed by
    the bare token rost? beside entries led by their words (a review, s40), and is no
    more: 'от туза' is the answer, whose entry says it with an argument (ot RANK)."""
    ann = await connect.machine(port, "ann")
    told = await help_texts(ann, "help от туза")
    assert told == [
        "от туза is no command. The table calls that say it ('calls' lists them all):",
        "Table calls:",
        "  ot RANK [kozyrnogo] (от короля)      answer rost? with your top card",
        "Tertz table calls:",
        "  ot RANK [kozyrnogo] (от короля)      answer ot chego? with your top card",
    ]
    # the Russian as its list says them: each led by its Russian word
    assert (await help_texts(ann, "help от туза lang=ru"))[1:] == [
        "Ходы и заявки:",
        "  от КАРТЫ [козырного]        ответ на «рост?»: от туза, от короля козырного",
        "Ходы и заявки в терце:",
        "  от КАРТЫ [козырного]        ответ на «от чего?»: от туза, от короля козырного",
    ]


class Stakes:
    """A third party's option whose call is numbered (stavka-1 … stavka-3), said
    'ставка N' or 'stake N'."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="stakes", kind="option", summary="a stake before the deal")

    @hookimpl
    def deberc_call_aliases(self) -> dict[str, tuple[str, ...]]:
        return {f"stavka-{n}": (f"ставка {n}", f"stake {n}") for n in (1, 2, 3)}


async def test_an_options_numbered_call_without_a_number_it_has_names_the_option(
    nursery: trio.Nursery, db_path: Path, connect: Connector
) -> None:
    """An option's numbered call said with a number it lacks was told under a label no
    test read ('a table call of the option stakes'): it is a call of the tables that
    play the option, with its range; the word alone names its entries of 'calls'."""
    config = make_config(db_path)
    port = await nursery.start(functools.partial(serve, config, rules=rule_book(Stakes())))
    ann = await connect.machine(port, "ann")
    tail = "'calls' lists what may be said at a table."
    for word in ("stavka 9", "ставка 0", "stake 4"):
        assert _joined(await help_texts(ann, f"help {word}")) == (
            f"{word} is no command but a call of the tables with the option stakes: stavka N"
            f" (N from 1 to 3). {tail}"
        )
    assert _joined(await help_texts(ann, "help ставка 0 lang=ru")) == (
        "«ставка 0» — не команда, а ход за столами с опцией stakes: «ставка N (N от 1 до"
        " 3)». Что можно сказать за столом, перечисляет calls."
    )
    alone = await help_texts(ann, "help ставка")
    assert alone[1:] == [
        "Calls of options, at the tables that play them:",
        "  stavka-1 (ставка 1, stake 1)         option stakes",
        "  stavka-2 (ставка 2, stake 2)         option stakes",
        "  stavka-3 (ставка 3, stake 3)         option stakes",
    ]
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    assert _joined(await help_texts(ann, "help stavka 9")) == (
        "stavka 9 is no command but a call of the tables with the option stakes: stavka N"
        " (N from 1 to 3), not played at this table. 'calls' lists this table's calls."
    )
    await ann.send("leave!")
    await ann.expect("ok", cmd="leave")
    await ann.send("new 2 stakes")
    await ann.expect("ok", cmd="sit")
    assert _joined(await help_texts(ann, "help stavka 9")) == (
        f"stavka 9 is no command but a table call: stavka N (N from 1 to 3). {tail}"
    )


async def test_the_answers_to_prokhodit_are_told_as_calls_not_as_ne_menyayu(
    port: int, connect: Connector
) -> None:
    """'help no' and 'help ne prokhodit' (the answer that a trump sequence does not
    pass) at a Moscow table, which plays them, said they were calls of other tables,
    not played there, and listed the option swap-before-extra's 'ne menyayu' (their
    first word 'ne'); at a Tertz table, which has no prokhodit?, they listed it too,
    and 'help yes' the question prokhodit? for its answer. Told as the call alone
    where it is played, 'help prokhodit' said no more than 'prokhodit is no command but
    a table call: prokhodit.' (a review, s41): the answer is told with its question's
    entry, 'calls' naming the answers nowhere; in the lobby too. 'prokhodit' (and its
    other words) also concedes an answered rost? there, as the engine reads it where
    pishet is legal (docs/rules.md §3): help said only the answer (a review, s42)."""
    ann = await connect.machine(port, "ann")
    answer = "is no command but a table call: {}, an answer to this question ('calls' lists"
    entry = "them all): prokhodit? (проходит?) ask whether your trump sequence passes"
    words = ("yes", "prokhodit", "no", "ne prokhodit")
    calls = ("prokhodit", "prokhodit", "ne prokhodit", "ne prokhodit")
    told = {w: f"{w} {answer.format(c)} {entry}" for w, c in zip(words, calls, strict=True)}
    also = "Said once your rost? is answered, the word concedes, as pishet:"
    concede = "pishet (пишет, goditsya) concede: the other's combination is better"
    whose = "Table calls / Tertz table calls:"  # (the lobby's: whose calls they are)
    in_lobby = told | {w: f"{told[w]} {also} {whose} {concede}" for w in ("yes", "prokhodit")}
    at_table = told | {w: f"{told[w]} {also} {concede}" for w in ("yes", "prokhodit")}

    async def answer_to(word: str) -> str:  # (the entry's columns as single spaces)
        return " ".join(_joined(await help_texts(ann, f"help {word}")).split())

    assert {w: await answer_to(w) for w in words} == in_lobby
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    assert {w: await answer_to(w) for w in words} == at_table
    assert (await answer_to("проходит lang=ru")).endswith(
        "После ответа на ваш рост? это слово уступает, как пишет: пишет (pishet, годится)"
        " уступить: комбинация соперника лучше"
    )
    for kharkov in ("leave", "new 2 kharkov"):
        await ann.send(kharkov)
        await ann.expect("ok")
    assert await answer_to("prokhodit") == at_table["prokhodit"]
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    elsewhere = "is no command but a call of other tables:"
    tail = "not played at this table. 'calls' lists this table's calls."
    said = {w: _joined(await help_texts(ann, f"help {w}")) for w in ("no", "не проходит")}
    assert said == {
        "no": f"no {elsewhere} ne prokhodit, {tail}",
        "не проходит": f"не проходит {elsewhere} ne prokhodit, {tail}",
    }
    # 'prokhodit' there concedes an ot chego?, as the table reads it where pishet is
    # legal (docs/rules.md §12.5): pishet's entry (it was told not played at a Tertz
    # table, a review s42), in either language
    aliases = rule_book().ruleset(2, "tertz").call_aliases
    about = "is no command. The table calls that say it ('calls' lists them all):"
    pishet = "pishet (пишет, goditsya) concede: the other's combination is better"
    for word in ("prokhodit", "yes", "проходит", "проходить"):
        assert parse_call(word, [Call(C.PISHET), Call(C.ROST)], aliases) == Call(C.PISHET)
        assert await answer_to(word) == f"{word} {about} {pishet}"
        assert (await answer_to(f"{word} lang=ru")).endswith(
            "пишет (pishet, годится) уступить: комбинация соперника лучше"
        )
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x.startswith("Язык"))
    await vera.send("new 2")
    await vera.read_until(lambda x: x.startswith("Вы за столом"))
    assert " ".join(_joined(await person_told(vera, "help не проходит")).split()) == (
        "«не проходит» — не команда, а ход за столом: «не проходит», ответ на этот вопрос"
        " (все ходы — в calls): проходит? (prokhodit?) спросить, проходит ли ваша козырная"
        " комбинация"
    )


async def test_the_other_games_word_for_a_call_this_table_plays_says_this_tables(
    port: int, connect: Connector
) -> None:
    """Tertz asks a combination's height as 'ot chego?' («від чого?», «от чего?»), the
    engine's rost?. At a Moscow table help said only that it was Tertz's, not played
    there: now also what this table says for it. At a Tertz table the engine's own
    word for it, «рост?», which the table reads as its 'ot chego?', was told to be a
    call of other tables, not played at that table: it is told as the table's call."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    here = "At this table the same call is rost?."
    for word in ("ot chego?", "от чего?", "від чого?"):  # Tertz's entries, then this table's
        told = await help_texts(ann, f"help {word}")
        assert told[0].startswith(f"{word} is no command but a call of other tables"), told
        assert told[1] == "Tertz table calls:" and told[-1] == here, told
    # a Tertz word for a call of its own, none of this table's: nothing more said
    told = await help_texts(ann, "help lomaju")
    assert not any("same call" in line for line in told), told
    told = await help_texts(ann, "help від чого? lang=ru")
    assert _joined(told).endswith("За этим столом тот же ход — «рост?».")
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    for word in ("рост?", "від чого?"):  # its entries, as for 'ot chego?'
        told = await help_texts(ann, f"help {word}")
        assert told[1].startswith("  ot chego? (rost?, от чего?) "), told
    told = await help_texts(ann, "help рост? lang=ru")  # its Russian entry names «рост?»
    assert told[1].startswith("  от чего? (rost?, рост?) "), told


async def test_the_engines_words_for_a_tertz_call_are_its_call_at_a_tertz_table(
    port: int, connect: Connector
) -> None:
    """A black-box evening: at a Tertz table 'рост?' asks rost? (docs/protocol.md §8.2,
    'each without its ? too (as rost, рост)'), but 'help рост?' there said it is "a call
    of other tables, not played at this table" and showed Deberts's entry: the English
    entry of Tertz's call prints 'ot chego? (rost?, от чего?)', not the word asked. It
    is pointed to this table's call, as 'help пасую' at a Moscow table is."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    for word in ("рост?", "рост"):  # (its entries since: test_help_words_agree.py)
        told = await help_texts(ann, f"help {word}")
        assert (
            told[0]
            == f"{word} is no command. The table calls that say it ('calls' lists them all):"
        )
        assert told[1].startswith("  ot chego? (rost?, от чего?) "), told
    # a word of Deberts's bidding is still another table's there
    (text, *_) = await help_texts(ann, "help пасую")
    assert text == "пасую is no command but a call of other tables, not played at this table:"


async def test_a_help_word_is_read_once_a_rule_set_not_at_every_asking(
    port: int, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'help WORD' reads the word as a call and searches 'calls' (some 1-2 ms of the
    server's CPU for 'help ot chego?' at a Moscow table, measured over 1,000 asked):
    once a rule set, word and language, not again for every asking (a client may ask
    lists_per_s times a second), at any table of that rule set; the answers alike."""
    from deberc_net.server import help as H

    reads: list[str] = []
    read = H.Help.read_call_help

    def counted(self: H.Help, table: object, topic: str, lang: object) -> tuple[str, ...]:
        reads.append(topic)
        return read(self, table, topic, lang)  # type: ignore[arg-type]

    monkeypatch.setattr(H.Help, "read_call_help", counted)
    ann, bob = await connect.machine(port, "ann"), await connect.machine(port, "bob")
    lobby = [await help_texts(ann, "help ot chego?") for _ in range(3)]
    assert lobby[0] and lobby[0] == lobby[1] == lobby[2]
    assert len(reads) == 2, reads  # (English and Russian, each once)
    for client in (ann, bob):  # two tables of one rule set
        await client.send("new 2 moscow")
        await client.expect("ok", cmd="sit")
    reads.clear()
    told = [await help_texts(c, "help ot chego?") for c in (ann, bob, ann)]
    assert told[0] and told[0] == told[1] == told[2] != lobby[0]
    assert len(reads) == 2, reads


async def test_a_mistyped_call_is_hinted_as_a_table_hints_it(port: int, connect: Connector) -> None:
    """'help bela', 'help pishot' (a newcomer's guesses, a review, s41) were told only
    "no command 'bela'": the call they are near is hinted as a mistyped command is, by
    the call's name in the language asked, and the table's own words ('mariage' at a
    Tertz table); a word near none is told no command, as before."""
    ann = await connect.machine(port, "ann")
    for typed, meant in (("bela", "bella"), ("pishot", "pishet"), ("konetz", "konets")):
        told = await help_texts(ann, f"help {typed}")
        assert told == [f"no command '{typed}': did you mean 'help {meant}'?"], told
    told = await help_texts(ann, "help abcdef")
    assert told[0].startswith("no command 'abcdef';"), told
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    assert await help_texts(ann, "help mariaj") == [
        "no command 'mariaj': did you mean 'help mariage'?"
    ]
    assert await help_texts(ann, "help белаа lang=ru") == [
        "нет команды «белаа»; может быть, help марьяж?"
    ]


async def test_a_thing_named_by_what_it_is_gets_the_calls_that_do_it(
    port: int, connect: Connector
) -> None:
    """'help trump', 'help declare', 'help stake' answered "no command" (a review, s42;
    'help stake' asked whether 'help state' was meant): the calls that do it, as a
    call's word lists its entries, in English and Russian alike; at a table none of
    whose calls do it, the other tables'."""
    ann = await connect.machine(port, "ann")
    here = "is no command. The table calls for it ('calls' lists them all):"
    away = "is no command. The calls for it are other tables', not played at this table:"

    async def calls_told(line: str) -> list[str]:  # each entry's call column
        told = await help_texts(ann, line)
        assert told[0].lstrip("«").startswith(line.split()[1]), told
        return [x.split("  ")[1] for x in told if x.startswith("  ") and x[2] != " "]

    trump = ["pas (пас, pass)", "igrayu (играю, play)", "igrayu SUIT (igrayu h, играю черви)"]
    assert (await calls_told("help trump"))[:4] == [*trump, "menyayu (меняю, swap)"]
    assert (await calls_told("help козырь lang=ru"))[:3] == [
        "пас (pas, pass)",
        "играю (igrayu, play)",
        "играю МАСТЬ (играю черви)",
    ]
    declared = await calls_told("help declare")
    for call in ("terts, dva tertsa, pyatdesyat (50)", "rost? (рост?)", "bella (белла)"):
        assert call in declared, declared
    assert "sto-dam, sto-korolei, sto-tuzov" in declared and "pas (пас, pass)" not in declared
    assert await calls_told("help stake") == [
        "dave (даве, double)",
        "prinimayu (принимаю, accept)",
        "sdayus (сдаюсь, give up, resign)",
    ]
    assert len(await calls_told("help ставка lang=ru")) == 3
    # at a table: its own calls, else the other tables' (Tertz plays no dave)
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    assert await calls_told("help trump") == ["menyayu (меняю, swap)"]
    told = await help_texts(ann, "help stake")
    assert " ".join(" ".join(told[:2]).split()) == f"stake {away}", told
    assert " ".join((await help_texts(ann, "help declare"))[0].split()) == f"declare {here}"
