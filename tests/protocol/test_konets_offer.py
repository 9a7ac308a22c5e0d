"""`konets` in a person's prompt (docs/rules.md §10, manual-claim: "if his total plus
his points so far reach the target he wins ...; if not, he loses the match"). The
claim is the player's own count: the offer never tells whether it would be good — a
claim that would win and one that would lose are offered in the same words — but it
is left out while his side could not reach the target in this deal even with every
point still in play (a Kharkov table was offered it after every trick it took, 400
points from the target). It stays legal, and said, a false claim still loses."""

from __future__ import annotations

import attrs

from deberc_net.game import calls as C
from deberc_net.game.calls import parse_token
from deberc_net.game.cards import Card
from deberc_net.game.deal import Deal
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_ruleset
from tests.game.decks import build_deck, play, say

# Trump clubs; seat 0 takes the first six tricks (44 points by the sixth); nobody
# holds the bella. After the sixth trick 152 - 44 card points, the last trick's 10 and
# a bella not said (20) are still in play: 138.
BOTH_OVER = ("As Ks Ah Kh 8c 9c Kc Ac Jc", "7s 8s 7h 8h 7d 8d 9d 10d Jd", "10c")
SIX_TRICKS = "As 7s Ks 8s Ah 7h Kh 8h 8c 7d 9c 8d"


def _started(standing: tuple[int, int]) -> Match:
    match = Match(
        build_ruleset(options=("manual-claim",)),
        seed="t",
        dealer=1,
        decks={1: build_deck(*BOTH_OVER)},
    )
    match.names = ("anna", "boris")
    match.set_standing(list(standing))
    say(match, 0, "igrayu")
    return match


def _after_six(standing: tuple[int, int]) -> Match:
    match = _started(standing)
    play(match, SIX_TRICKS)
    assert match.deal.to_act == 0 and C.KONETS in view(match, 0).legal
    return match


def _prompts(match: Match) -> tuple[str, str]:
    ask = ev.Ask(1, 1, view(match, 0), 60500)
    return render(ask, HUMAN)[-1], render_ru(ask)[-1]


def _machine(match: Match) -> list[str]:
    return render(ev.Ask(1, 1, view(match, 0), 60500), MACHINE)


def _legal(match: Match) -> str:
    (ask,) = _machine(match)
    return next(f for f in ask.split() if f.startswith("legal="))


def test_a_good_claim_and_a_false_one_are_offered_alike() -> None:
    good, false = _after_six((470, 0)), _after_six((450, 0))
    assert good.deal.running_total(0) == 514  # 470 + 44: konets now wins
    assert false.deal.running_total(0) == 494  # 450 + 44: konets now loses
    assert _prompts(good) == _prompts(false)  # the prompt says nothing of which
    english, russian = _prompts(false)
    assert english.startswith("Your call [60 s]: konets | ")
    assert "конец" in russian
    assert _legal(good) == _legal(false) == "legal=konets,Kc,Ac,Jc"  # nor does legal=
    say(false, 0, "konets")  # offered, and false all the same
    assert false.result is not None
    assert (false.result.winner, false.result.reason) == (1, "false-claim")


def test_konets_is_offered_once_the_deal_could_reach_the_target() -> None:
    # 319 + 44 + 138 = 501 by the sixth trick: reachable (and not yet reached)
    match = _started((319, 0))
    offers = []
    for k, card in enumerate(SIX_TRICKS.split()):
        seat = match.deal.to_act
        assert seat is not None
        match.apply(seat, parse_token(card))
        if k % 2:  # anna took the trick: konets is legal now
            assert C.KONETS in view(match, 0).legal
            english, russian = _prompts(match)
            offers.append(("konets" in english, "конец" in russian))
    assert offers == [(True, True)] * 6
    assert match.deal.running_total(0) == 363  # 138 short: a claim would lose


def test_out_of_reach_konets_not_offered_is_still_legal_and_a_false_claim_loses() -> None:
    far = _after_six((318, 0))  # 318 + 44 + 138 = 500: one point out of reach
    english, russian = _prompts(far)
    assert "konets" not in english and "конец" not in russian
    assert "konets" in " ".join(_machine(far))
    match = _started((0, 0))
    play(match, "As 7s")  # anna takes the first trick, 500 points short
    english, russian = _prompts(match)
    assert "konets" not in english and "конец" not in russian
    assert C.KONETS in view(match, 0).legal
    say(match, 0, "konets")
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (1, "false-claim")


class _NothingInTricks(Deal):
    """A game of its own card values (docs/plugins.md, ``_trick_points``) in which no
    card counts: with no last trick's bonus and the bella said, nothing is left to win."""

    def _trick_points(self, cards: tuple[Card, ...], trump: int) -> int:
        return 0


def _bella_said(standing: tuple[int, int]) -> Match:
    rules = build_ruleset(options=("manual-claim",))
    settings = attrs.evolve(rules.settings, last_trick_bonus=0)
    deck = build_deck("As Ks Ah Kh 8c 9c Kc Qc Jc", "7s 8s 7h 8h 7d 8d 9d 10d Jd", "10c")
    match = Match(
        attrs.evolve(rules, settings=settings, deal_class=_NothingInTricks),
        seed="t",
        dealer=1,
        decks={1: deck},
    )
    match.names = ("anna", "boris")
    match.set_standing(list(standing))
    say(match, 0, "igrayu")
    play(match, "As 7s")  # anna takes the first trick
    say(match, 0, "bella")  # her 20: nothing else can come to her side in this deal
    assert match.deal.points_in_play() == 0
    return match


def test_with_nothing_left_in_play_a_good_claim_and_a_false_one_are_offered_alike() -> None:
    # the reach is then the claim's own count: left out, it told a false claim (480 +
    # 20 of 501) from a good one (481 + 20)
    good, false = _bella_said((481, 0)), _bella_said((480, 0))
    assert (good.deal.running_total(0), false.deal.running_total(0)) == (501, 500)
    assert _prompts(good) == _prompts(false)
    assert "konets" in _prompts(false)[0]
