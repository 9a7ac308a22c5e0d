"""Every reason the rule book gives for refusing a table's rules ('bad-rules': `new 5`,
`new 3 tertz`, `new 2 short to-301`) has a phrase of its own, so a Russian player is
told the reason and its detail, not the code's generic line (a tryout: every one was
«таких правил нет; rules их перечисляет»; docs/protocol.md §4.3c)."""

from __future__ import annotations

import ast
import functools
import itertools
from pathlib import Path

import pytest

import deberc_net
from deberc_net.plugins import RuleError, RuleKind
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import RU_ERRORS
from deberc_net.protocol.refusals import rules_phrase, rules_refused
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import rule_book

PACKAGE = Path(deberc_net.__file__).parent
GENERIC = RU_ERRORS["bad-rules"]

# what each expression inside a RuleError's f-string stands for (its value: `!r`
# quotes it as the book does)
SAMPLES: dict[str, list[object]] = {
    "expected": ["variant", "option"],
    "name": ["moskow", "it's"],
    "told": ["moskow", "it's", "x" * 40 + "…"],  # a name as typed, said back cut
    "near": ["moscow", "tertz-501", "to-1001, to-1002"],
    "variants": ["kharkov, moscow, tertz"],
    "known": ["to-301, to-1001"],
    "fit": ["to-301, to-1001"],
    "_a(rule.info.kind)": ["an option", "a players"],
    "_a(expected)": ["a variant", "an option"],
    "counts": ["2, 3 or 4", "4"],
    "players": [5],
    "variant": ["tertz"],
    "other": ["to-301"],
    "needed": ["dave"],
    "first": ["short"],
    "second": ["to-301"],
    "setting": ["target"],
    "a": [None, 301],
    "b": [9],
    "said_by[word]": ["dave"],
    "rule.name": ["poltinniki"],
    "word": ["принимаю"],
    "words[word]": ["prinimayu"],
    "call": ["accept"],
    "deal_class": [42],
    "rule.distribution": ["deberc-boom", "(registered in-process)"],
    "type(exc).__name__": ["KeyError", "AttributeError"],
    "_one_line(exc)": ["'x'", "Settings has no setting 'fresaa' (did you mean 'fresa'?)"],
    "value": ["'20'", "True"],
    "given": ["a str", "an int"],
    "_described(expected)": ["an int", "an int or None", "a tuple of ints"],
}


def _sentences(node: ast.expr) -> list[str]:
    """Every sentence a RuleError's argument can be, with the samples filled in."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    assert isinstance(node, ast.JoinedStr), ast.unparse(node)
    sources: list[str] = []  # each value once: one said twice ('{counts}') is one value
    for part in node.values:
        if isinstance(part, ast.FormattedValue):
            source = ast.unparse(part.value)
            assert source in SAMPLES, f"add a sample for {source!r}"
            sources += [] if source in sources else [source]
    found = []
    for values in itertools.product(*(SAMPLES[source] for source in sources)):
        chosen = dict(zip(sources, values, strict=True))
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(str(part.value))
            else:
                assert isinstance(part, ast.FormattedValue)
                told = repr if part.conversion == ord("r") else str
                parts.append(told(chosen[ast.unparse(part.value)]))
        found.append("".join(parts))
    return found


@functools.cache
def book_sentences() -> tuple[str, ...]:
    found = []
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if "RuleError" not in source:  # no raise of it here: not parsed (9 files of 184)
            continue
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                if isinstance(func, ast.Name) and func.id == "RuleError":
                    found += _sentences(node.exc.args[0])
    return tuple(found)


def _russian(message: str) -> str:
    said = rules_phrase(message)
    assert said is not None, message
    assert said.text(Lang.EN) == message  # every value read back: nothing lost
    return said.text(Lang.RU)


def test_the_walk_finds_the_books_sentences() -> None:
    sentences = book_sentences()
    assert len(sentences) >= 14
    assert (
        "'moskow' is for 2, 3 or 4 players, not 5: play it with 2, 3 or 4,"
        " or choose another variant"
    ) in sentences
    assert "options 'moskow' and 'to-301' contradict each other" in sentences
    assert 'unknown variant "it\'s": did you mean moscow? Variants: kharkov, moscow, tertz' in (
        sentences
    )


def test_every_sentence_of_the_rule_book_has_a_russian_reason() -> None:
    for sentence in book_sentences():
        russian = _russian(sentence)
        assert russian and russian != GENERIC, sentence


def test_every_refusal_of_the_shipped_rules_has_a_russian_reason() -> None:
    """Each player count, each variant (and a word that is none), each option alone and
    each pair of rules: whatever the book refuses is said with its reason."""
    book = rule_book()
    names = [r.name for r in book.rules()]
    variants = [r.name for r in book.rules() if r.info.kind == RuleKind.VARIANT]
    refused = set()
    # a variant asked by an option's name and by a player count's: 'is a … rule, not'
    alone = [(), *((o,) for o in [*names, "nosuch", "moskow", "it's"])]
    pairs = list(itertools.combinations(names, 2))
    # (the variants once: they are names too, and a refused set is not cached, so each
    # of their 994 sets a count asked again was built again, a third of the test's time)
    asked = dict.fromkeys([*variants, "nosuch", *names])
    for players, variant in itertools.product(range(1, 6), asked):
        for options in [*alone, *pairs] if variant in variants else alone:
            try:
                book.ruleset(players, variant, options)
            except RuleError as exc:
                refused.add(str(exc))
    assert len(refused) > 100
    for message in refused:
        assert _russian(message) != GENERIC, message


@pytest.mark.parametrize(
    ("rules", "english", "russian"),
    [
        (
            (5, "moscow", ()),
            "'moscow' is for 2, 3 or 4 players, not 5: play it with 2, 3 or 4,"
            " or choose another variant",
            "«moscow» — для 2, 3 или 4 игроков, а не для 5: наберите другое число игроков"
            " (2, 3 или 4) или другой вариант",
        ),
        (
            (3, "tertz", ()),
            "'tertz' is for 2 players, not 3: play it with 2, or choose another variant",
            "«tertz» — для 2 игроков, а не для 3: наберите другое число игроков (2) или"
            " другой вариант",
        ),
        (
            (4, "kharkov", ("short",)),
            "'short' is for 2 or 3 players, not 4: leave it out, or play with 2 or 3",
            "«short» — для 2 или 3 игроков, а не для 4: уберите эту опцию или наберите"
            " другое число игроков (2 или 3)",
        ),
        (
            (2, "moscow", ("short", "to-301")),
            "options 'short' and 'to-301' contradict each other",
            "опции «short» и «to-301» противоречат друг другу",
        ),
        (
            (2, "moscow", ("moskow",)),
            "unknown variant 'moskow': did you mean moscow? Variants: kharkov, moscow, tertz",
            "варианта «moskow» нет: может быть, moscow? Варианты: kharkov, moscow, tertz",
        ),
        (  # the option's name with the variant's Russian spelling in it (s41)
            (2, "tertz", ("терц-501",)),
            "unknown option 'терц-501': did you mean tertz-501? Options: ",
            "опции «терц-501» нет: может быть, tertz-501? Опции: ",
        ),
        (  # two as near: both named, in Russian too
            (2, "moscow", ("to-1000",)),
            "unknown option 'to-1000': did you mean to-1001, to-1002? Options: ",
            "опции «to-1000» нет: может быть, to-1001, to-1002? Опции: ",
        ),
        (  # a variant in look-alike letters: its near name, in the near form
            (2, "tерц", ()),
            "unknown variant 'tерц': did you mean tertz? Variants: kharkov, moscow, tertz",
            "варианта «tерц» нет: может быть, tertz? Варианты: kharkov, moscow, tertz",
        ),
        (
            (2, "moscow", ("foo",)),
            "unknown option 'foo'; variants: kharkov, moscow, tertz; options: ",
            "опции «foo» нет; варианты: kharkov, moscow, tertz; опции: bella-after-trick, ",
        ),
        (
            (2, "nosuch", ()),
            "unknown variant 'nosuch'; known: kharkov, moscow, tertz",
            "варианта «nosuch» нет; есть: kharkov, moscow, tertz",
        ),
        (
            (2, "moscow", ("tertz",)),
            "'tertz' is a variant: name one, right after the player count",
            "«tertz» — вариант: вариант называют один, сразу после числа игроков"
            " (ИГРОКОВ [ВАРИАНТ] [ОПЦИИ…])",
        ),
        (
            (2, "to-301", ()),
            "'to-301' is an option rule, not a variant",
            "«to-301» — опция, а не вариант",
        ),
        (
            (4, "moscow", ("four-players",)),
            "'four-players' is a players rule, not an option",
            "«four-players» — правило числа игроков, а не опция",
        ),
        (
            (2, "tertz", ("poltinniki",)),
            "'poltinniki' needs a player who orders; the variant 'tertz' has no bidding",
            "«poltinniki»: нужен игрок, заказавший козырь, а в варианте «tertz» торговли нет",
        ),
        (
            (2, "tertz", ("short",)),
            "'short' is not played with the variant 'tertz'",
            "«short» не играется в варианте «tertz»",
        ),
        (
            (2, "moscow", ("tertz-501",)),
            "'tertz-501' is played only with the variant 'tertz'",
            "«tertz-501» играется только в варианте «tertz»",
        ),
        (
            (2, "moscow", ("to-9-stakes",)),
            "option 'to-9-stakes' needs option 'dave' too",
            "опции «to-9-stakes» нужна и опция «dave»",
        ),
        (
            (2, "moscow", ("it's",)),
            'unknown option "it\'s"; variants:',
            "опции «it's» нет; варианты:",
        ),
    ],
)
def test_each_kind_of_reason_is_said_in_russian(
    rules: tuple[int, str, tuple[str, ...]], english: str, russian: str
) -> None:
    with pytest.raises(RuleError) as refused:
        rule_book().ruleset(*rules)
    message = str(refused.value)
    assert message.startswith(english), message
    assert _russian(message).startswith(russian), _russian(message)


def test_the_plugins_own_clashes_are_said_in_russian() -> None:
    """Two options that set one setting differently, or give one word to two calls: a
    third party's rules clash as the shipped ones never do (plugins/manager.py)."""
    assert _russian(
        "options 'to-301' and 'to-9-stakes' set target differently (301 and 9); choose one"
    ) == ("опции «to-301» и «to-9-stakes» по-разному задают target (301 и 9); выберите одну")
    assert _russian(
        "options 'dave' and 'poltinniki' both use 'принимаю', for 'prinimayu' and 'accept'"
    ) == (
        "опции «dave» и «poltinniki» обе называют словом «принимаю» разные заявки:"
        " «prinimayu» и «accept»"
    )


def test_the_error_line_in_russian_and_in_english() -> None:
    told = "'tertz' is for 2 players, not 3: play it with 2, or choose another variant"
    error = rules_refused(told)
    assert error.text == told  # the machine style's, as the book says it
    assert render_ru(error) == [
        "Ошибка (bad-rules): «tertz» — для 2 игроков, а не для 3: наберите другое число",
        "  игроков (2) или другой вариант",
    ]
    # a sentence of no known form (a later version's) is said by its code
    other = rules_refused("the moon is not right for 'tertz'")
    assert render_ru(other) == [f"Ошибка (bad-rules): {GENERIC}"]
    assert render_ru(ev.Error("bad-rules", "x")) == [f"Ошибка (bad-rules): {GENERIC}"]


def test_a_word_near_an_option_lists_the_tables_options_near_a_variant_the_variants() -> None:
    """A tryout, s42: 'new 2 to-300' was answered with the variants, 'new 2 kharkof' was
    called an unknown option: a mistyped option lists the options this table could take
    (not the variants, nor another game's), a mistyped variant is called one."""
    book = rule_book()
    with pytest.raises(RuleError) as refused:
        book.ruleset(2, "moscow", ("to-300",))
    options = book.options_for("moscow", 2)
    assert str(refused.value) == (
        f"unknown option 'to-300': did you mean to-301? Options: {', '.join(options)}"
    )
    assert "to-301" in options and "tertz-501" not in options and "moscow" not in options
    assert "pair-combinations" not in options  # (for 4 players)
    assert "tertz-501" in book.options_for("tertz", 2)
    with pytest.raises(RuleError) as refused:
        book.ruleset(2, "moscow", ("kharkof",))
    said = "unknown variant 'kharkof': did you mean kharkov? Variants: kharkov, moscow, tertz"
    assert str(refused.value) == said
    assert _russian(said) == (
        "варианта «kharkof» нет: может быть, kharkov? Варианты: kharkov, moscow, tertz"
    )
