"""A match a true `konets` ended says so (docs/rules.md §10, manual-claim: "a seat may
say konets: if his total plus his points so far reach the target he wins (reason
claim)"): a Kharkov table read "Game over: … (target mid-deal)", which names the
server's own claim, where a player had claimed."""

from __future__ import annotations

from deberc_net.game import events as g
from deberc_net.game.calls import parse_token
from deberc_net.game.match import Match
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_ruleset
from tests.game.decks import build_deck, say

# Trump clubs; seat 0 takes the first six tricks (44 points), seat 1 has a fifty
BOTH_OVER = ("As Ks Ah Kh 8c 9c Kc Ac Jc", "7s 8s 7h 8h 7d 8d 9d 10d Jd", "10c")
SIX_TRICKS = "As 7s Ks 8s Ah 7h Kh 8h 8c 7d 9c 8d"


def _ended(option: str | None) -> g.MatchEnded:
    """seat 0 at 470 reaches 501 with its sixth trick: its konets, or the server's claim."""
    rules = build_ruleset(options=(option,) if option else ())
    match = Match(rules, seed="t", dealer=1, decks={1: build_deck(*BOTH_OVER)})
    match.names = ("anna", "boris")
    match.set_standing([470, 0])
    say(match, 0, "igrayu")
    told: list[object] = []
    for card in SIX_TRICKS.split():
        seat = match.deal.to_act
        assert seat is not None
        told += match.apply(seat, parse_token(card))
    if option is not None:
        told += match.apply(0, parse_token("konets"))
    ends = [e for e in told if isinstance(e, g.MatchEnded)]
    assert len(ends) == 1 and ends[0].reason == "claim"
    return ends[0]


def test_a_true_konets_says_it_was_claimed() -> None:
    end = _ended("manual-claim")
    told = ev.TableEvent(9, 1, ("anna", "boris"), end)
    assert render(told, HUMAN)[0].startswith("Game over: anna wins (claimed: konets). Totals:")
    assert render_ru(told)[0].startswith(
        "Партия окончена: anna выигрывает (досрочно: объявлен «конец»). Итого:"
    )
    # the machine line keeps reason=claim (docs/protocol.md §9.7 lists no other)
    assert " reason=claim " in render(told, MACHINE)[0]
    assert "claimed" not in render(told, MACHINE)[0]


def test_the_servers_own_claim_still_says_target_mid_deal() -> None:
    end = _ended(None)
    told = ev.TableEvent(9, 1, ("anna", "boris"), end)
    assert render(told, HUMAN)[0].startswith("Game over: anna wins (target mid-deal). Totals:")
    assert render_ru(told)[0].startswith("Партия окончена: anna выигрывает (досрочно: набраны")
