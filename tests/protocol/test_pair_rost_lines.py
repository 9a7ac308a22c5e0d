"""Four players: a rost? asked of anna's terts that her partner boris answers for the pair
with his own (docs/rules.md §8) is told as that, in both languages, not as "oksana asks
boris" of a boris who declared nothing (club-night tryout)."""

from __future__ import annotations

from deberc_net.game.calls import parse_token
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_deck_n, build_ruleset, say
from tests.game.decks import PAIR_ROST

NAMES = ("anna", "vasya", "boris", "oksana")


def _asked() -> Match:
    """anna (seat 0) terts 7d-9d and leads; oksana (seat 3) asks rost? with her Js-Ks:
    anna's does not beat it, her partner boris's Qh-Ah does, so boris answers."""
    match = Match(
        build_ruleset(4), seed="t4", dealer=3, decks={1: build_deck_n(PAIR_ROST, 3, "Kc")}
    )
    match.names = NAMES
    say(match, 0, "igrayu", "terts")
    for seat, card in ((0, "7d"), (1, "Jd"), (2, "Qd")):
        match.apply(seat, parse_token(card))
    say(match, 3, "rost?")
    assert match.deal.pending is not None and match.deal.pending.answerer == 2
    return match


def _question(match: Match, seat: int, lang: str = "en") -> str:
    kind = ev.AskKind.ASK if match.to_act == seat else ev.AskKind.STATE
    asked = ev.Ask(1, 1, view(match, seat), 60500 if kind == ev.AskKind.ASK else None, kind=kind)
    lines = render(asked, HUMAN) if lang == "en" else render_ru(asked)
    # the question is one sentence, wrapped: up to the line that starts the next
    start = next(i for i, x in enumerate(lines) if "rost?" in x or "рост?" in x)
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    return " ".join(x.strip() for x in lines[start:end])


def test_the_partner_who_answers_a_rost_is_told_he_answers_for_the_pair() -> None:
    match = _asked()
    assert _question(match, 2) == (
        "oksana asks anna how high the combination goes (rost?): you answer for the pair"
        " with your own and name its top."
    )
    assert _question(match, 0) == (
        "oksana asks you how high the combination goes (rost?): boris answers for the"
        " pair with his own and names its top."
    )
    assert _question(match, 3) == (
        "You ask anna how high the combination goes (rost?): boris answers for the pair"
        " with his own and names its top."
    )
    assert _question(match, 1).startswith("oksana asks anna how high")


def test_the_partner_who_answers_a_rost_is_told_so_in_russian() -> None:
    match = _asked()
    assert _question(match, 2, "ru") == (
        "oksana спрашивает игрока anna, от какой карты комбинация («рост?»): вы"
        " отвечаете за пару своей комбинацией: назовите её старшую карту."
    )
    assert _question(match, 0, "ru") == (
        "oksana спрашивает вас, от какой карты комбинация («рост?»): за пару отвечает"
        " boris своей комбинацией и называет её старшую карту."
    )


def test_a_declarer_who_answers_himself_is_asked_as_before() -> None:
    # the same deal, boris's terts not the better: anna answers her own rost? herself
    hands: tuple[str, ...] = ("7d 8d 9d 7c 10s 7h Jc Ad", "Jd Kd 8c 9c 8h 10h Ac 7s")
    hands += ("9s 10c Qh Kh Qd 8s 9h As", "Js Qs Ks Kc Qc 10d Jh Ah")
    match = Match(build_ruleset(4), seed="t4", dealer=3, decks={1: build_deck_n(hands, 3, "Kc")})
    match.names = NAMES
    say(match, 0, "igrayu", "terts")
    for seat, card in ((0, "7d"), (1, "Jd"), (2, "Qd")):
        match.apply(seat, parse_token(card))
    say(match, 3, "rost?")
    assert _question(match, 0) == (
        "oksana asks you how high the combination goes (rost?): you name its top."
    )
