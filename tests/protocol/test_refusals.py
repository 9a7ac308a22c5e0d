"""Every refusal sentence the engine (and a built-in variant's deal) can say has a
phrase of its own, so a Russian player is told the reason, not only the code."""

from __future__ import annotations

import ast
import functools
import random
from pathlib import Path

import deberc_net
from deberc_net.game import errors as E
from deberc_net.game.cards import DECK
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang, learn_plugin_calls, ru_card_text
from deberc_net.protocol.messages import RU_ERRORS
from deberc_net.protocol.refusals import refusal_phrase
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import (
    build_deck_n,
    build_ruleset,
    new_deal,
    play,
    refused,
    rule_book,
    say,
)

PACKAGE = Path(deberc_net.__file__).parent
ERRORS = {name for name, value in vars(E).items() if isinstance(value, type)} - {"IllegalCall"}
NAMES = ("anna", "boris", "vera", "gleb")

# what each expression inside an f-string sentence stands for, as the engine says it
SAMPLES = {
    "deal.turn": "1",
    "who": "1",
    "pending.answerer": "1",
    "seat": "1",
    "question_said(deal.talk)": "rost?",
    "legal": "ot-A or pishet",
    "call.token()": "ot-Q",
    "right.token()": "dva-terts",
    "CATEGORY_NAMES[best.category]": "terts",
    "text": "Ks",
    "card_str(card)": "10h",
    "card_str(led)": "Js",
    "card_str(seven)": "7c",
    "'shdc'[led]": "d",
    "'shdc'[led >> 3]": "c",
    "len(self.talon) - 1": "5",
}


def _sentence(node: ast.expr, functions: dict[str, ast.FunctionDef]) -> list[str]:
    """The sentences ``node`` (an error's argument) can be, its values filled in."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(str(part.value))
            else:
                assert isinstance(part, ast.FormattedValue)
                source = ast.unparse(part.value)
                assert source in SAMPLES, f"add a sample for {source!r}"
                parts.append(SAMPLES[source])
        return ["".join(parts)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
        # a helper of the module that returns the sentence (a function, or a method of
        # the class: self._why_not_swap(seat))
        func = node.func
        helper = functions[func.id if isinstance(func, ast.Name) else func.attr]
        return [
            text
            for ret in ast.walk(helper)
            if isinstance(ret, ast.Return) and ret.value is not None
            for text in _sentence(ret.value, functions)
        ]
    raise AssertionError(f"a refusal sentence this test cannot read: {ast.unparse(node)}")


@functools.cache  # two tests read them: walk the sources once
def engine_sentences() -> tuple[str, ...]:
    found = []
    sources = [*(PACKAGE / "game").glob("*.py"), *(PACKAGE / "plugins").rglob("*.py")]
    for path in sources:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ERRORS:
                found += _sentence(node.args[0], functions)
    return tuple(found)


def test_the_walk_finds_the_engines_sentences() -> None:
    sentences = engine_sentences()
    assert len(sentences) >= 40
    assert (
        "no opponent's declaration is waiting to be shown: pokazhi is said once the"
        " opponent declares, until that declaration is shown"
    ) in sentences  # (Tertz's window)
    assert "bidding is on: ot-Q comes after the order" in sentences
    assert "the talon is gone: beat Js if you can" in sentences  # Tertz's own


def test_every_engine_refusal_has_a_russian_reason() -> None:
    # the codes whose Russian says no reason ("not now"); a specific code's is one
    generic = {RU_ERRORS[code] for code in ("wrong-phase", "not-allowed", "illegal-call")}
    learn_plugin_calls(rule.aliases for rule in rule_book().rules())  # as a server does
    for sentence in engine_sentences():
        said = refusal_phrase(sentence, NAMES)
        assert said is not None, sentence
        russian = ru_card_text(said.text(Lang.RU))  # as render_ru writes its lines
        assert russian and russian not in generic, sentence
        latin = russian  # the Tertz calls too: «ломаю 1» (a tryout's said lomayu-1)
        for name in NAMES:
            latin = latin.replace(name, "")
        assert not any(c.isascii() and c.isalpha() for c in latin), (sentence, russian)


def test_a_refusal_in_russian_keeps_its_detail() -> None:
    cases = {
        "bidding is on: As comes after the order": "идёт торговля: «Т♠» — только после заказа",
        "bidding is on: ot-Q comes after the order": "«от дамы»",
        "round one plays the turned suit: say igrayu or pas": "в первом круге",
        (
            "no opponent's declaration is waiting to be shown: pokazhi is said once the"
            " opponent declares, until the first card of the second trick"
        ): "«покажи» говорят после его объявления, до первой карты второй взятки",
        "only a seat holding all four sevens, before the first card": "четыре семёрки",
        "waiting for seat 2 to answer rost?": "сначала отвечает vera",
        "answer the question first: ot-A or pishet": "от туза, пишет",
        "ne-prokhodit is not the true answer: say prokhodit": (
            "«не проходит» — неверный ответ; верный: проходит"
        ),
        "you do not hold the trump 7 (7h): answer ne-menyayu": "(7♥): ответьте «не меняю»",
        "you may not play Jd now": "В♦",
        "bidding is on: konets comes after the order": "идёт торговля",
        "bidding is on, and Qs is not in your hand": "идёт торговля, и карты Д♠ у вас нет",
    }
    for sentence, part in cases.items():
        said = refusal_phrase(sentence, NAMES)
        assert said is not None, sentence
        line = " ".join(x.strip() for x in render_ru(ev.Error("not-allowed", sentence, None, said)))
        assert line.startswith("Ошибка (not-allowed): ") and part in line, (sentence, line)


def test_an_unknown_sentence_or_seat_gets_no_phrase() -> None:
    assert refusal_phrase("a plugin's own reason", NAMES) is None
    assert refusal_phrase("it is seat 7's turn", NAMES) is None


def test_pokazhi_with_nothing_to_show_counts_the_opponents() -> None:
    # a tryout at three players was told «соперник» (one opponent) in Russian: three
    # and four players have two, and the refusal says so in both languages
    said = {}
    for players in (2, 3, 4):
        rules = build_ruleset(players)
        deal = new_deal(rules, tuple(random.Random(players).sample(DECK, len(DECK))))
        why = refused(deal, 0, "pokazhi", code="not-allowed")
        phrase = refusal_phrase(str(why), NAMES)
        assert phrase is not None, str(why)
        said[players] = (phrase.text(Lang.EN), phrase.text(Lang.RU))
    # each with when it is said (s47: none said it), in both languages
    assert said[2] == (
        "no opponent's declaration is waiting to be shown: pokazhi is said once the"
        " opponent declares, until the first card of the second trick",
        "соперник не объявлял комбинации, которую можно потребовать показать: «покажи»"
        " говорят после его объявления, до первой карты второй взятки",
    )
    for players in (3, 4):
        assert said[players] == (
            "neither opponent has a declaration waiting to be shown: pokazhi is said once"
            " one declares, until the first card of the second trick",
            "ни один из соперников не объявлял комбинации, которую можно потребовать"
            " показать: «покажи» говорят после объявления соперника, до первой карты"
            " второй взятки",
        )


def test_a_true_top_that_does_not_beat_the_one_heard_is_not_called_false() -> None:
    # an evening of three at Kharkov (there with fifties to the ace; here to the queen):
    # the whistler's trump fifty, asking the plain one of the same top declared first,
    # named its true top and was told «это не старшая карта вашей комбинации»
    # (docs/rules.md §9: with the same top only pishet)
    hands = (
        "9s 10s Js Qs 8h As 9d Ad 8d",
        "7h 9h Jh Kh 7d 10d Kd Ac 7s",
        "9c 10c Jc Qc 8s 10h Ah Jd Qd",
    )
    deal = new_deal(build_ruleset(3, "kharkov"), build_deck_n(hands, 2, "7c"), dealer=2)
    say(deal, 0, "igrayu", "pyatdesyat")
    play(deal, "As 7s")
    say(deal, 2, "rost?")
    say(deal, 0, "ot-Q")
    why = refused(deal, 2, "ot-Q-kozyrnogo", E.FalseDeclaration, "false-declaration")
    said = refusal_phrase(str(why), NAMES)
    assert said is not None, str(why)
    assert (
        said.text(Lang.EN) == "ot damy kozyrnogo does not beat ot damy, the top you heard: pishet"
    )
    assert said.text(Lang.RU) == "«от дамы козырной» не старше услышанного «от дамы»; можно: пишет"
    # a top he does not hold is still no top of his
    wrong = refused(deal, 2, "ot-K-kozyrnogo", E.FalseDeclaration, "false-declaration")
    assert str(wrong) == "that is not your combination's top; say pishet"
    said = refusal_phrase(str(wrong), NAMES)
    assert said is not None
    assert said.text(Lang.EN) == "that is not your combination's top; say pishet"
    assert said.text(Lang.RU) == "это не старшая карта вашей комбинации; можно: пишет"
