"""A Tertz declaration declares every combination the seat has not declared, named by
the highest (docs/rules.md §12.5): a bare «сто шесть» declares a terts with it. The
seat's prompt says so (in English and Russian), only to it; the table hears the call
alone, as at a real table."""

from __future__ import annotations

from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import table_words
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_talon_deck, legal, say

from .helpers import RULES

WORDS = table_words(RULES.call_aliases)
NAMES = ("anna", "boris")
# anna leads with a run of six (7♠ … Q♠) and a terts (7♥ 8♥ 9♥)
RUN_AND_TERTS = "7s 8s 9s 10s Js Qs 7h 8h 9h"
EN_SIX = "sto shest declares all your undeclared combinations: sto shest, terts."
RU_SIX = "«сто шесть» объявит все ваши необъявленные комбинации: сто шесть, терц."


def match_of(other: str, dealer: str, turned: str = "Qd") -> Match:
    deck = build_talon_deck(other, dealer, turned, "")
    return Match(RULES, seed="t", dealer=1, decks={1: deck}, names=NAMES)


def asked(match: Match, seat: int) -> tuple[list[str], list[str]]:
    """The seat's ask in English and in Russian (its table's words)."""
    ask = ev.Ask(1, 1, view(match, seat), 60500, words=WORDS)
    return render(ask, HUMAN), render_ru(ask)


def test_a_bare_sto_shest_declares_the_terts_with_it() -> None:
    match = match_of(RUN_AND_TERTS, "Ac Kc 10c Ad Kd 10d Ah Kh 10h")
    assert [t for t in legal(match, 0) if not t[0].isdigit() and t[0] not in "JQKA"] == [
        "sto-shest"
    ]
    say(match, 0, "sto-shest")
    declared = match.deal.talk.declared_combos[0]
    assert [c.category for c in declared] == [6, 3]  # the run of six and the terts
    assert "terts" not in legal(match, 0)  # nothing is left to declare


def test_the_prompt_says_what_a_declaration_declares_with_it() -> None:
    match = match_of(RUN_AND_TERTS, "Ac Kc 10c Ad Kd 10d Ah Kh 10h")
    english, russian = asked(match, 0)
    assert english[-2:] == [EN_SIX, english[-1]] and english[-1].startswith("Your call ["), english
    assert russian[-2:] == [RU_SIX, russian[-1]] and russian[-1].startswith("Ваш ход ["), russian
    # the opponent learns nothing of it, before or after; the machine ask is as it was
    for lines in asked(match, 1):
        assert not any("undeclared" in x or "необъявленные" in x for x in lines), lines
    assert "declares" not in render(ev.Ask(1, 1, view(match, 0), 60500), MACHINE)[0]
    say(match, 0, "sto-shest")
    for lines in (*asked(match, 0), *asked(match, 1)):
        assert not any("undeclared" in x or "необъявленные" in x for x in lines), lines


def test_a_declaration_of_one_class_says_nothing_more() -> None:
    # a run of six alone; two terts (dva-tertsa says both)
    for hand in ("7s 8s 9s 10s Js Qs Ac Kh 9d", "7s 8s 9s 7h 8h 9h Ac Kc 9d"):
        match = match_of(hand, "Jc Qc 10c Ad Kd 10d Ah Qh 10h")
        for lines in asked(match, 0):
            assert not any("undeclared" in x or "необъявленные" in x for x in lines), lines


def test_rost_declares_the_askers_terts_too_and_says_so() -> None:
    # anna declares a run of six; boris, holding one (7♥ … Q♥) and a terts, may ask
    # «от чего?», which declares both of his
    match = match_of("7s 8s 9s 10s Js Qs Kc Ac 10c", "7h 8h 9h 10h Jh Qh 7d 8d 9d", "Kd")
    say(match, 0, "sto-shest", "7s")
    assert "rost?" in legal(match, 1)
    english, russian = asked(match, 1)
    assert "ot chego? declares all your undeclared combinations: sto shest, terts." in english
    assert "«от чего?» объявит все ваши необъявленные комбинации: сто шесть, терц." in russian
    say(match, 1, "rost?")
    assert [c.category for c in match.deal.talk.declared_combos[1]] == [6, 3]
