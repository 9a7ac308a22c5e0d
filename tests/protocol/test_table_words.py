"""A table's own Russian words for calls (protocol/lang.py ``table_words``): a plugin
may re-word a call of the game's own for its tables alone. Tertz players say «марьяж»
and «от чего?» (docs/rules.md §12, docs/play.ru.md), Deberts players «белла» and
«рост?»; black-box players of a Russian Tertz table were offered «белла»."""

from __future__ import annotations

from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import NO_WORDS, Lang, ru_call, table_words
from deberc_net.protocol.messages import RU_TERTZ_CALLS_HELP
from deberc_net.protocol.refusals import refusal_phrase
from deberc_net.protocol.render import combo_word, scored_lines
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_ruleset, build_talon_deck, legal, say

TERTZ = build_ruleset(2, "tertz")
TERTZ_WORDS = table_words(TERTZ.call_aliases)
NAMES = ("anna", "boris")


def test_tertz_tables_say_mariage_and_from_what_deberts_tables_bella_and_rost() -> None:
    assert ru_call(C.BELLA, TERTZ_WORDS) == "марьяж"
    assert ru_call(C.ROST, TERTZ_WORDS) == "от чего?"
    assert ru_call("lomayu-6", TERTZ_WORDS) == "ломаю 6"  # its own calls as before
    deberts = table_words(build_ruleset(2).call_aliases)
    assert deberts is NO_WORDS  # no plugin of a plain table words a call
    assert (ru_call(C.BELLA, deberts), ru_call(C.ROST, deberts)) == ("белла", "рост?")
    short = table_words(build_ruleset(2, options=("dave",)).call_aliases)
    assert ru_call(C.BELLA, short) == "белла" and ru_call("dave", short) == "даве"


def test_a_russian_tertz_prompt_call_line_and_hint_say_mariage() -> None:
    # anna holds K♥ Q♥, hearts trumps: the mariage is hers to say on her turn
    deck = build_talon_deck("Kh Qh 7c 8c 9c 10c Jc Qc 7d", "8h 9h 10h 8d 9d 10d Jd Qd Kd", "Ah", "")
    match = Match(TERTZ, seed="t", dealer=1, decks={1: deck}, names=NAMES)
    assert C.BELLA in legal(match, 0)
    [*_, prompt] = render_ru(ev.Ask(1, 1, view(match, 0), 60500, words=TERTZ_WORDS))
    assert "| марьяж |" in prompt and "белла" not in prompt, prompt
    said = g.CallMade(0, C.Call(C.BELLA))
    assert render_ru(ev.TableEvent(2, 1, NAMES, said, words=TERTZ_WORDS)) == ["anna: марьяж"]
    assert render_ru(ev.TableEvent(2, 1, NAMES, said)) == ["anna: белла"]  # a Deberts table
    hint = ev.Error("unknown-command", "not a call", hint=C.BELLA, words=TERTZ_WORDS)
    assert "Может быть, «марьяж»?" in " ".join(x.strip() for x in render_ru(hint))
    say(match, 0, C.BELLA)  # the table's talk so far, as 'state' shows it
    state = ev.Ask(3, 1, view(match, 1), None, ev.AskKind.STATE, whole=True, words=TERTZ_WORDS)
    assert any("anna марьяж" in x for x in render_ru(state)), render_ru(state)


def test_a_tertz_deals_scored_mariage_is_said_so() -> None:
    assert combo_word("bella", Lang.RU, TERTZ_WORDS) == "марьяж"
    assert combo_word("bella", Lang.RU) == "белла" and combo_word("bella", Lang.EN) == "bella"
    scored = [ev.Scored(1, "bella", 20)]
    assert scored_lines(scored, NAMES, Lang.RU, TERTZ_WORDS) == ["За комбинации: boris марьяж 20."]


def test_a_tertz_tables_russian_calls_list_names_its_words_first() -> None:
    lines = RU_TERTZ_CALLS_HELP.splitlines()
    assert any(x.strip().startswith("от чего? (rost?, рост?)") for x in lines), lines
    assert any("ответ на «от чего?»" in x for x in lines) and "«рост?»" not in RU_TERTZ_CALLS_HELP
    assert any(x.strip().startswith("марьяж (bella, белла)") for x in lines), lines


def test_the_open_question_of_a_tertz_table_is_asked_in_its_word() -> None:
    # a soak of Russian tables: «… от какой карты комбинация («рост?»)» at Tertz
    deck = build_talon_deck("7d 8d 9d Ks Qh Ac 10s Jh As", "7c 8c 9c Kd Qs 10h Jd 8s 9s", "Ah", "")
    match = Match(TERTZ, seed="t", dealer=1, decks={1: deck}, names=NAMES)
    for seat, call in ((0, C.TERTS), (0, "As"), (1, C.ROST)):
        say(match, seat, call)
    lines = render_ru(ev.Ask(5, 1, view(match, 0), 60500, words=TERTZ_WORDS))
    asked = "boris спрашивает вас, от какой карты комбинация («от чего?»): назовите старшую."
    assert asked in lines, lines
    watched = render_ru(ev.Ask(5, 1, view(match, None), None, ev.AskKind.STATE, words=TERTZ_WORDS))
    told = " ".join(x.strip() for x in watched)  # (a long line is cut to the width)
    assert "комбинация («от чего?»): anna называет старшую." in told, watched


def test_a_refusal_names_a_call_in_the_tables_words() -> None:
    # the engine's sentence names calls by their tokens; a Russian player is told them
    # as his table says them (no shipped refusal of Tertz's names bella or rost?: a
    # plugin's word for an answer would be told so, as here Tertz's for bella)
    for sentence, said in (
        ("bella is not a call you may make now", "«марьяж» сейчас сказать нельзя"),
        ("answer the question first: ot-A or rost?", "на вопрос: от туза, от чего?"),
    ):
        told = refusal_phrase(sentence, NAMES, TERTZ_WORDS)
        assert told is not None and said in told.text(Lang.RU), told
    deberts = refusal_phrase("bella is not a call you may make now", NAMES)
    assert deberts is not None and deberts.text(Lang.RU) == "«белла» сейчас сказать нельзя"
