"""`konets` is offered in a person's prompt only when it would be a true claim
(docs/rules.md §10, manual-claim: "if his total plus his points so far reach the
target he wins ...; if not, he loses the match"): a Kharkov table was offered it after
every trick it took, 400 points from the target. It stays legal, and said, a false
claim still loses."""

from __future__ import annotations

from deberc_net.game import calls as C
from deberc_net.game.calls import parse_token
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_ruleset
from tests.game.decks import build_deck, play, say

# Trump clubs; seat 0 takes the first six tricks (44 points by the sixth)
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


def _prompts(match: Match) -> tuple[str, str]:
    ask = ev.Ask(1, 1, view(match, 0), 60500)
    return render(ask, HUMAN)[-1], render_ru(ask)[-1]


def test_konets_is_offered_only_once_it_reaches_the_target() -> None:
    match = _started((470, 0))
    offers = []
    for k, card in enumerate(SIX_TRICKS.split()):
        seat = match.deal.to_act
        assert seat is not None
        match.apply(seat, parse_token(card))
        if k % 2:  # anna took the trick: konets is legal now
            assert C.KONETS in view(match, 0).legal
            english, russian = _prompts(match)
            offers.append(("konets" in english, "конец" in russian))
    assert match.deal.running_total(0) == 514  # 470 + 44 by the sixth trick
    assert offers == [(False, False)] * 5 + [(True, True)]
    english, _ = _prompts(match)
    assert english.startswith("Your call [60 s]: konets | ")
    # the machine style lists the legal calls, konets among them, as before
    assert "konets" in " ".join(render(ev.Ask(1, 1, view(match, 0), 60500), MACHINE))


def test_konets_not_offered_is_still_legal_and_a_false_claim_still_loses() -> None:
    match = _started((0, 0))
    play(match, "As 7s")  # anna takes the first trick, 500 points short
    english, russian = _prompts(match)
    assert "konets" not in english and "конец" not in russian
    assert C.KONETS in view(match, 0).legal
    say(match, 0, "konets")
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (1, "false-claim")
