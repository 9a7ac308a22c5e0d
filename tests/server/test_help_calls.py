"""'help WORD' for a table call (server/help.py calls_about): what it finds, and that a
flood of such lines costs the server no more than its answers (docs/security.md §2)."""

from __future__ import annotations

import pytest

from deberc_net.protocol.commands import CALLS_HELP, VARIANT_CALLS_HELP
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import RU_CALLS_HELP, RU_VARIANT_CALLS_HELP
from deberc_net.server import help as H

TEXTS = (tuple(CALLS_HELP.rstrip().splitlines()), tuple(RU_CALLS_HELP.rstrip().splitlines()))


def test_a_call_word_gets_the_entries_of_calls_naming_it() -> None:
    told = H.calls_about("рост?", TEXTS, Lang.RU)
    assert told[0].startswith("«рост?» — не команда.")
    assert told[1].startswith("  рост? (rost?) ")
    assert any(x.startswith("  от КАРТЫ") for x in told[2:])
    assert H.calls_about("a", TEXTS, Lang.EN) == ()  # a word of the explanations alone
    # a call as it is said: its first word names its entry ('от КАРТЫ [козырного]')
    said = H.calls_about("от туза", TEXTS, Lang.RU)
    assert said[0].startswith("«от туза» — не команда.")
    assert any(x.startswith("  от КАРТЫ") for x in said[1:])
    # only the entries whose call says it: not one whose explanation alone has «от»
    other = ("  ломаю N (lomayu N)         ломает колоду: N от 1 до 12",)
    said = H.calls_about("от туза", (TEXTS[0], TEXTS[1] + other), Lang.RU)
    assert any(x.startswith("  от КАРТЫ") for x in said[1:])
    assert not any("ломаю" in x or "N от 1" in x for x in said), said
    assert H.calls_about("a pas", TEXTS, Lang.EN) == ()  # (its first word no call's)
    assert H.calls_about("   ", TEXTS, Lang.EN) == ()


def test_a_help_word_folds_calls_once_not_on_every_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 'help WORD' line is not metered unless it names a call: it cut and folded every
    line of 'calls' (four times a line: twice to meter it, twice to answer), some 2 ms
    a line of 1,000 letters, a third of the server's time at the flood limit."""
    folds: list[str] = []
    fold = H.folded

    def counted(text: str) -> str:
        folds.append(text)
        return fold(text)

    monkeypatch.setattr(H, "folded", counted)
    for lang in Lang:  # calls' index built (once per text)
        H.calls_about("pishet", TEXTS, lang)
    folds.clear()
    for topic in ("rost?", "qwerty", "nonsense words here"):
        for lang in Lang:
            H.calls_about(topic, TEXTS, lang)
    # each topic's own folds (its first word's too), no line of 'calls'
    assert len(folds) <= 12, len(folds)
    folds.clear()
    assert H.calls_about("x" * 1000, TEXTS, Lang.EN) == ()
    assert H.calls_about(" ".join(["abc"] * 250), TEXTS, Lang.RU) == ()
    assert folds == []  # longer than any call's word: not looked for


def test_a_call_word_gets_its_whole_entry_when_the_calls_take_two_lines() -> None:
    """A tryout (Kharkiv players): 'help терц' told «объявить лучшую комбинацию до своей
    первой» and stopped, and 'help две копы' told «карты» alone: the Russian entry's
    calls took two lines, each read as an entry of its own."""
    for topic in ("терц", "пятьдесят", "два полтинника", "две копы"):
        told = H.calls_about(topic, TEXTS, Lang.RU)
        said = " ".join(" ".join(x.split()) for x in told[1:])
        assert "терц, два терца, пятьдесят, два полтинника (две копы)" in said, told
        assert "объявить лучшую комбинацию до своей первой карты" in said, told


def test_the_calls_that_say_ot_are_the_answer_and_tertzs_question() -> None:
    """'help от' listed Tertz's break, «ломаю N», whose explanation said «N от 1 до 12»,
    and its call column ran on into its explanation (one space apart), so 'help
    колоду' named it a call. In both languages it tells the answer 'от КАРТЫ' and, in
    Tertz, the question «от чего?», nothing else."""
    tertz = tuple(RU_VARIANT_CALLS_HELP["tertz"].rstrip().splitlines())
    ru = H.calls_about("от", (TEXTS[0], TEXTS[1] + tertz), Lang.RU)
    calls = [x.split("  ")[1] for x in ru if x.startswith("  ") and not x.startswith("   ")]
    assert calls == ["от КАРТЫ [козырного]", "от чего? (rost?, рост?)", "от КАРТЫ [козырного]"]
    assert ru[1:4:2] == ("Ходы и заявки:", "Ходы и заявки в терце:")
    assert H.calls_about("колоду", (TEXTS[0], TEXTS[1] + tertz), Lang.RU) == ()
    lomayu = H.calls_about("ломаю", (TEXTS[0], TEXTS[1] + tertz), Lang.RU)
    assert [" ".join(x.split()) for x in lomayu[1:]] == [
        "Ходы и заявки в терце:",  # (another game's than the first: said whose)
        "ломаю N (lomayu N, break N)",
        "проигравший первую взятку ломает колоду;",
        "N — число 1–12",
    ]


def test_help_menyayu_says_when_the_seven_is_swapped() -> None:
    """'help menyayu' said 'swap the trump 7 for the turned card' and no more: not that
    Deberts swaps it in the first trump before the holder's first card and declaration
    (docs/rules.md §2), nor Tertz on the holder's turn while the talon holds two cards,
    a declared seven staying (§ Tertz), in either language."""
    tertz_en = tuple(VARIANT_CALLS_HELP["tertz"].rstrip().splitlines())
    tertz_ru = tuple(RU_VARIANT_CALLS_HELP["tertz"].rstrip().splitlines())
    texts = (TEXTS[0] + tertz_en, TEXTS[1] + tertz_ru)
    en = " ".join(" ".join(H.calls_about("menyayu", texts, Lang.EN)).split())
    assert (
        "swap the trump 7 for the turned card: in the first trump, before your first card"
        " and before you declare"
    ) in en
    assert (
        "swap the trump 7 for the turned card: on your turn, while the talon holds two"
        " cards or more (a 7 you declared stays)"
    ) in en
    ru = " ".join(" ".join(H.calls_about("меняю", texts, Lang.RU)).split())
    assert (
        "поменять козырную семёрку на открытую карту: в первом козыре, до своей первой"
        " карты и до объявления"
    ) in ru
    assert (
        "поменять козырную семёрку на открытую карту: на своём ходу, пока в колоде две карты"
        " или больше (семёрка из объявленной комбинации остаётся)"
    ) in ru
