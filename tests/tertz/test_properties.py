"""Property tests of Tertz: random legal play from a hypothesis seed, checked against the
rules as docs/rules.md (Tertz) states them, not against the engine's own tables."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from deberc_net.game.cards import card_str
from deberc_net.game.deal import DONE
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.plugins.variants.tertz.deal import TertzDeal
from deberc_net.testing import assert_replays, build_ruleset
from tests.properties import examples

RULES = {
    target: build_ruleset(2, "tertz", opts) for target, opts in ((500, ()), (501, ("tertz-501",)))
}
MAX_DEALS = 40  # 150 a deal to share: some 7 deals reach 500
# docs/rules.md, Tertz: written out again on purpose
PLAIN = {"7": 0, "8": 0, "9": 0, "10": 10, "J": 1, "Q": 2, "K": 3, "A": 11}
TRUMP = {**PLAIN, "J": 20, "9": 13}
STRENGTH = {"7": 0, "8": 1, "9": 2, "J": 3, "Q": 4, "K": 5, "10": 6, "A": 7}


def value(card: str, trump: str) -> int:
    return (TRUMP if card[-1] == trump else PLAIN)[card[:-1]]


def check_places(deal: TertzDeal) -> None:
    """Every card is in exactly one place: a hand, the talon, the turned card, a trick."""
    places = [*deal.hands[0], *deal.hands[1], *deal.talon]
    places += [c for t in deal.tricks for _, c in t.cards] + [c for _, c in deal.trick.cards]
    if not deal.turned_drawn:
        places.append(deal.turned)
    assert sorted(places) == list(range(32))
    if deal.phase != DONE and not deal.trick.cards and deal.pending is None:
        sizes = sorted(len(h) for h in deal.hands)
        assert sizes[0] == sizes[1] and sizes[0] == min(9, 16 - len(deal.tricks))


def check_views(match: Match) -> None:
    deal = match.deal
    assert isinstance(deal, TertzDeal)
    hidden_talon = set(deal.talon)
    for seat in (0, 1):
        seen = view(match, seat)
        assert sorted(seen.hand) == sorted(deal.hands[seat])
        other = set(deal.hands[1 - seat]) - {c for cs in deal.shown.values() for c in cs}
        other -= {deal.turned}  # the turned card lies open until it is drawn
        shown_cards = set(seen.hand) | {c for _, c in seen.trick} | {c for _, c in seen.last_trick}
        for _, value_ in seen.game:
            if isinstance(value_, tuple):
                shown_cards |= set(value_)
        assert not (shown_cards & (other | hidden_talon)), seat
        fields = dict(seen.game)
        assert fields["talon"] == len(deal.talon) + (0 if deal.turned_drawn else 1)
        if fields["talon"] < 4:
            assert fields["their_tricks"] is None


def check_legal_cards(deal: TertzDeal, seat: int, tokens: list[str]) -> None:
    """After the talon: a follower who can beat the led card must."""
    if deal.talon_left() or len(deal.trick.cards) != 1 or deal.pending is not None:
        return
    trump = "shdc"[deal.trump or 0]
    led = card_str(deal.trick.cards[0][1])
    mine = [card_str(c) for c in deal.hands[seat]]
    higher = [c for c in mine if c[-1] == led[-1] and STRENGTH[c[:-1]] > STRENGTH[led[:-1]]]
    if led[-1] == trump:
        order = ["7", "8", "Q", "K", "10", "A", "9", "J"]
        higher = [c for c in mine if c[-1] == trump and order.index(c[:-1]) > order.index(led[:-1])]
    cards = [t for t in tokens if t[0].isdigit() or t[0] in "JQKA"]
    if higher:
        assert sorted(cards) == sorted(higher)


def check_declared(deal: TertzDeal, seat: int, hand: list[int], before: list[Any]) -> None:
    """Every newly declared combination was in the seat's hand of nine at that moment;
    no card stands declared twice in one kind (runs, fours of a kind)."""
    standing = deal.declared_combos.get(seat, [])
    new = [c for c in standing if c not in before]
    if new:
        assert len(hand) == 9
    for combo in new:
        assert set(combo.cards) <= set(hand)
    for kind in (True, False):
        held = [c for combo in standing if (combo.suit < 0) is kind for c in combo.cards]
        assert len(held) == len(set(held))


def check_deal_record(record: dict[str, Any]) -> None:
    trump = record["trump"]
    taken = [0, 0]
    for trick in record["tricks"]:
        taken[trick["winner"]] += sum(value(c, trump) for c in trick["cards"])
    taken[record["tricks"][-1]["winner"]] += 10
    assert sum(taken) == 150
    combos = [0, 0]
    for declared in record["declared"]:
        combos[declared["seat"]] += sum(s["points"] for s in declared["scored"])
    tricks = [sum(t["winner"] == s for t in record["tricks"]) for s in (0, 1)]
    last = record["tricks"][-1]["winner"]
    counter = min((0, 1), key=lambda s: (tricks[s], s == last))
    counted = taken[counter] // 10 * 10 + (10 if taken[counter] % 10 > 5 else 0)
    written = record["written"]
    assert written[counter] - combos[counter] == counted
    assert written[1 - counter] - combos[1 - counter] == 150 - counted
    assert len(record["draws"]) == 14 and record["draws"][-1][1] in (record["turned"], "7" + trump)


@examples(60)
@given(seed=st.integers(0, 2**32), target=st.sampled_from((500, 501)))
def test_random_tertz_matches_keep_every_rule(seed: int, target: int) -> None:
    rng = random.Random(seed)
    match = Match(RULES[target], seed=f"p{seed}")
    while not match.over:
        assert len(match.records) < MAX_DEALS
        deal = match.deal
        assert isinstance(deal, TertzDeal)
        check_places(deal)
        check_views(match)
        seat = match.to_act
        assert seat is not None
        calls = match.legal_calls(seat)
        assert calls  # the seat to act always has a call; the other at most pokazhi
        assert {c.token() for c in match.legal_calls(1 - seat)} <= {"pokazhi"}
        tokens = [c.token() for c in calls]
        check_legal_cards(deal, seat, tokens)
        hand, before = list(deal.hands[seat]), list(deal.declared_combos.get(seat, []))
        match.apply(seat, rng.choice(calls))
        check_declared(deal, seat, hand, before)
    for record in match.records:
        check_deal_record(record)
    totals = [0, 0]
    for record in match.records:
        totals = [a + b for a, b in zip(totals, record["written"], strict=True)]
    assert totals == match.totals and max(totals) >= target
    assert match.result is not None and match.result.winner is not None
    assert totals[match.result.winner] == max(totals)
    assert_replays(match)
