"""The human style in Russian ('lang ru'), sans-IO: the talk as Russian players say it
(and the Latin-script style's spoken calls), every rendering read back as the same call."""

from __future__ import annotations

import pytest

from deberc_net.game import events as g
from deberc_net.game.calls import Call, parse_token
from deberc_net.game.outcomes import Outcome
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import (
    RU_OUTCOMES,
    learn_plugin_calls,
    ru_call,
    ru_card_text,
    spoken_call,
)
from deberc_net.protocol.render import HUMAN, MACHINE, columns, for_people, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.protocol.vocabulary import parse_call
from deberc_net.testing import build_ruleset, rule_book
from tests.game.decks import match2, say

TWO = ("anna", "boris")


@pytest.mark.parametrize(
    ("token", "said"),
    [
        ("ot-A", "от туза"),
        ("ot-J", "от вальта"),
        ("ot-Q", "от дамы"),
        ("ot-K-kozyrnogo", "от короля козырного"),
        ("ot-10", "от десятки"),
        ("ot-7", "от семёрки"),
        ("pishet", "пишет"),
        ("prokhodit", "проходит"),
        ("ne-prokhodit", "не проходит"),
        ("prokhodit?", "проходит?"),
        ("rost?", "рост?"),
        ("pokazhi", "покажи"),
        ("pokazyvayu", "показываю"),
        ("pas", "пас"),
        ("igrayu", "играю"),
        ("igrayu-h", "играю ♥"),
        ("ne-menyayu", "не меняю"),
        ("terts", "терц"),
        ("dva-tertsa", "два терца"),
        ("pyatdesyat", "пятьдесят"),
        ("dva-pyatdesyat", "два полтинника"),  # not 'два пятьдесят' (tryout s16)
        ("chetyre-semerki", "четыре семёрки"),
        ("bella", "белла"),
        ("konets", "конец"),
        ("Js", "В♠"),
        ("Qh", "Д♥"),
        ("Kd", "К♦"),
        ("Ac", "Т♣"),
        ("10h", "10♥"),
    ],
)
def test_the_talk_in_russian_reads_back_as_the_same_call(token: str, said: str) -> None:
    assert ru_call(token) == said
    assert parse_call(said, [parse_token(token)]).token() == token


def test_a_plugins_call_is_said_in_its_first_cyrillic_word() -> None:
    """A tryout's Russian Tertz table showed `tzman: lomayu-6`, `dvesti`, a prompt's
    `lomayu 1..12`: a rule plugin's call is said as its plugin's words say it."""
    learn_plugin_calls(rule.aliases for rule in rule_book().rules())
    assert ru_call("lomayu-6") == "ломаю 6"
    assert ru_call("dvesti") == "двести"
    assert ru_call("sto-korolei") == "сто королей"
    assert ru_call("sdayus") == "сдаюсь"  # the shipped options' calls as well
    assert ru_call("predlagayu") == "предлагаю"
    assert ru_call("bella") == "белла"  # the engine's own words first (Tertz: «марьяж» too)
    assert ru_call("frobnicate") == "frobnicate"  # a call nobody gave words: its token
    assert spoken_call("lomayu-6") == "lomayu 6"  # English as it was


def test_every_tertz_call_is_said_in_russian_and_reads_back() -> None:
    learn_plugin_calls(rule.aliases for rule in rule_book().rules())
    rules = build_ruleset(2, "tertz")
    for token in set(rules.call_aliases.values()):
        said = ru_call(token)
        assert not any(c.isascii() and c.isalpha() for c in said), (token, said)
        assert parse_call(said, [Call(token)], rules.call_aliases).token() == token


def test_every_outcome_has_a_russian_word() -> None:
    assert set(Outcome) <= set(RU_OUTCOMES)
    assert RU_OUTCOMES[Outcome.SPLIT] == "поделена"  # a Tertz deal: 150 shared


@pytest.mark.parametrize("typed", ["от вальта", "от валета", "ot valta", "ot valeta", "от В"])
def test_both_genitives_of_valet_are_heard(typed: str) -> None:
    assert parse_call(typed).token() == "ot-J"


def test_cards_already_in_symbols_get_cyrillic_ranks() -> None:
    assert ru_card_text("J♠ is not in your hand; A♥, 10♦, Q♣ and K♣") == (
        "В♠ is not in your hand; Т♥, 10♦, Д♣ and К♣"
    )
    assert ru_card_text("bob-A♠ stays") == "bob-A♠ stays"  # part of a word, not a card


def test_calls_and_plays_in_russian_and_machine_untouched() -> None:
    call = ev.TableEvent(4, 1, TWO, g.CallMade(1, parse_token("ot-A-kozyrnogo"), True))
    assert render_ru(call) == ["boris: от туза козырного (по часам)"]
    play = ev.TableEvent(5, 1, TWO, g.CardPlayed(0, parse_token("Qs").card or 0, False))
    assert render_ru(play) == ["anna ходит Д♠"]
    assert render(play, MACHINE) == ["event seq=5 table=1 kind=play seat=0 card=Qs auto=0"]


def test_the_rost_exchange_and_the_prompt_in_russian() -> None:
    match = match2(("7s 8s 9s 10s Jh Qh Kh Ad 9c", "7d 8d 9d 10d As Ah 10h Jc Qc", "8c"), dealer=1)
    match.names = TWO
    say(match, 0, "igrayu", "pyatdesyat")
    match.apply(0, parse_token("7s"))
    say(match, 1, "rost?")
    lines = render_ru(ev.Ask(1, 1, view(match, 0), 60500))
    assert "boris спрашивает вас, от какой карты комбинация («рост?»): назовите старшую." in (
        " ".join(x.strip() for x in lines)
    )  # anna about herself: on «вы» (tryout #12)
    watched = render_ru(ev.Ask(1, 1, view(match, None), None, kind=ev.AskKind.STATE))
    assert "boris спрашивает игрока anna, от какой карты комбинация («рост?»): anna называет " in (
        " ".join(x.strip() for x in watched)
    )
    prompt = lines[-1]
    assert prompt.startswith("Ваш ход [60 с]: ") and "от десятки" in prompt, prompt
    assert not any(x.startswith("Your ") for x in lines)
    assert all(len(x) <= 80 for x in lines)


def test_a_matchs_start_in_russian_declines_no_name() -> None:
    """«Оксана против Богдан» wanted the genitive a name as typed cannot take."""
    two = ev.TableEvent(1, 1, TWO, g.MatchStarted(TWO, "m1"))
    assert render_ru(two) == ["Партия начинается: anna — boris."]
    four = ("anna", "boris", "vera", "gleb")
    started = g.MatchStarted(four, "m2")
    pairs = ev.TableEvent(1, 1, four, started, sides=((0, 2), (1, 3)))
    assert render_ru(pairs) == [
        "Партия начинается: anna и vera — boris и gleb (партнёры сидят напротив)."
    ]


def test_errors_in_russian_keep_their_code() -> None:
    error = ev.Error("not-in-hand", "Js is not in your hand", "J♠ is not in your hand")
    assert render_ru(error) == ["Ошибка (not-in-hand): В♠ is not in your hand"]
    assert render(error, MACHINE) == ["error code=not-in-hand text=Js is not in your hand"]


def test_watchers_in_russian() -> None:
    came = ev.TableEvent(6, 1, TWO, ev.Watching("vera", True, 2))
    assert render_ru(came) == ["vera смотрит за столом (зрителей: 2)."]
    gone = ev.TableEvent(7, 1, TWO, ev.Watching("vera", False, 0))
    assert render_ru(gone) == ["vera больше не смотрит (зрителей нет)."]


def test_a_penalty_says_why_in_russian() -> None:
    fined = ev.TableEvent(8, 1, TWO, g.Penalized(0, parse_token("Js"), "must-follow-suit"))
    assert render_ru(fined) == ["anna штрафуется за «В♠» (надо ходить в масть)."]


def test_names_in_wide_letters_still_fit_80_columns() -> None:
    names = ("張三張三張三張三張三張三張三張三張三張三", "李四李四李四李四李四李四李四李四李四李四")
    dealt = ev.TableEvent(1, 1, names, g.DealStarted(3, 0, 7, (120, 95), 40))
    for lines in (render_ru(dealt), render(dealt, "human")):
        assert len(lines) > 1  # cut where the columns, not the characters, run out
        assert all(columns(x) <= 80 for x in lines), lines
        assert " ".join(x.strip() for x in lines).count("張三") == 20  # dealer and score
    assert columns("Т♠ 張") == 5


@pytest.mark.parametrize(
    ("token", "said"),
    [
        ("ot-A", "ot tuza"),
        ("ot-J", "ot valta"),
        ("ot-K", "ot korolya"),
        ("ot-10-kozyrnogo", "ot desyatki kozyrnogo"),
        ("ot-7", "ot semerki"),
        ("ne-prokhodit", "ne prokhodit"),
        ("prokhodit?", "prokhodit?"),
        ("ne-menyayu", "ne menyayu"),
        ("chetyre-semerki", "chetyre semerki"),
        ("igrayu-h", "igrayu ♥"),
        ("dva-tertsa", "dva tertsa"),
        ("tri-pyatdesyat", "tri pyatdesyat"),
        ("pishet", "pishet"),
        ("Js", "J♠"),
        ("10h", "10♥"),
    ],
)
def test_the_talk_in_the_latin_human_style_is_spoken_and_reads_back(token: str, said: str) -> None:
    """Tryout #12: people are shown 'ot korolya', not the token 'ot-K'; what they are
    shown they may type."""
    assert spoken_call(token) == said
    assert parse_call(said, [parse_token(token)]).token() == token


def test_engine_refusals_speak_the_calls_to_people_and_keep_the_tokens_for_programs() -> None:
    names = ("house-heuristic-1", "misha")
    for message, told in [
        ("ot-K is not a call you may make now", "ot korolya is not a call you may make now"),
        (
            "bidding is on: ne-prokhodit comes after the order",
            "bidding is on: ne prokhodit comes after the order",
        ),
        ("it is seat 0's turn", "it is house-heuristic-1's turn"),  # a name keeps its hyphens
        (
            "you do not hold dva-tertsa; your best is terts",
            "you do not hold dva tertsa; your best is terts",
        ),
    ]:
        assert for_people(message, names) == told
        error = ev.Error("not-allowed", message, for_people(message, names))
        assert render(error, MACHINE) == [f"error code=not-allowed text={message}"]  # as it was
        assert render(error, HUMAN) == [f"Error (not-allowed): {told}"]
