"""A deal's fast ways keep what a game of its own overrides, and forget its legal calls
whenever the state changes (issue #9's move path, docs/performance.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from deberc_net.game import errors as E
from deberc_net.game.calls import PLAY, Call
from deberc_net.game.cards import Card
from deberc_net.game.deal import DONE, Deal
from deberc_net.game.match import Match
from deberc_net.game.record import without_timing
from deberc_net.selfplay import play_random_match
from deberc_net.testing import build_deck, build_ruleset, new_deal, tokens


class CountingDeal(Deal):
    """Counts the cards it plays itself and writes every trick's points twice."""

    played = 0

    def _do_play(self, seat: int, call: Call) -> None:
        CountingDeal.played += 1
        super()._do_play(seat, call)

    def _trick_points(self, cards: tuple[Card, ...], trump: int) -> int:
        return 2 * super()._trick_points(cards, trump)


def _match(deal_class: type[Deal] | None) -> Match:
    rules = attrs.evolve(build_ruleset(), deal_class=deal_class)
    return play_random_match(Match(rules, seed="hooks/1"), random.Random("hooks"))


def test_a_subclass_plays_its_cards_and_counts_its_points_its_own_way() -> None:
    CountingDeal.played = 0
    own = _match(CountingDeal)
    cards = sum(1 for record in own.records for c in record["calls"] if c["call"] == PLAY)
    assert cards > 0 and CountingDeal.played == cards
    # every point a played-out deal writes is even when the cards count double (the
    # last trick's 10, bella and sequences are even), which the engine's own count is not
    made = [r for r in own.records if r["outcome"] == "made"]
    assert made and all(p % 2 == 0 for r in made for p in r["points"])
    base = [r for r in _match(None).records if r["outcome"] == "made"]
    assert any(p % 2 for r in base for p in r["points"])


class WaitingDeal(Deal):
    """Says whom it waits for itself (the engine's answer), counting the questions."""

    asked = 0

    @property
    def to_act(self) -> int | None:
        WaitingDeal.asked += 1
        return super().to_act


def test_self_play_asks_a_game_with_its_own_to_act_at_every_move() -> None:
    # self-play reads Deal.to_act inline; a game's own is asked as before, move by move
    WaitingDeal.asked = 0
    own = _match(WaitingDeal)
    moves = sum(1 for record in own.records for c in record["calls"] if not c.get("engine"))
    assert moves > 0 and WaitingDeal.asked >= moves
    assert [without_timing(r) for r in own.records] == [
        without_timing(r) for r in _match(None).records
    ]


class ListingDeal(Deal):
    """Lists its own calls: the engine's, less every lead of a trump past the first
    trick while the seat holds another suit (a game's own rule for the test)."""

    def _compute_legal(self, seat: int) -> list[Call]:
        calls = super()._compute_legal(seat)
        if not self.tricks or self.trick.cards or self.trump is None:
            return calls
        others = [c for c in calls if c.card is None or c.card >> 3 != self.trump]
        return others if any(c.card is not None for c in others) else calls


def _trump_leads(records: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """(leads past the first trick, those of a trump by a seat holding another suit),
    in played-out two-player deals: a seat's hand at a trick is what it plays from
    there on."""
    leads = trump_leads = 0
    for record in records:
        tricks, trump = record["tricks"], record.get("trump")
        if trump is None or len(tricks) != 9:
            continue
        for k, trick in enumerate(tricks[1:], start=1):
            seat = trick["leader"]
            hand = [t["cards"][(seat - t["leader"]) % 2] for t in tricks[k:]]
            leads += 1
            if hand[0].endswith(trump) and not all(c.endswith(trump) for c in hand):
                trump_leads += 1
    return leads, trump_leads


def test_a_subclass_lists_every_move_its_own_way() -> None:
    """The engine lists most moves' cards itself (_legal's short way), but not for a
    game that lists its own calls: no lead here is a trump while another suit is held."""
    leads, trump_leads = _trump_leads(_match(ListingDeal).records)
    assert leads > 0 and trump_leads == 0
    assert _trump_leads(_match(None).records)[1] > 0  # the engine's own rules allow them


def test_legal_calls_are_forgotten_when_the_deal_ends_outside_a_call() -> None:
    match = Match(build_ruleset(), seed="hooks/2")
    deal = match.deal
    seat = deal.to_act
    assert seat is not None and deal.legal_calls(seat)
    deal.end_deal("stopped", [0, 0], [0, 0])  # as a forfeit ends a deal in play
    assert deal.phase is DONE and deal.legal_calls(seat) == []
    with pytest.raises(E.IllegalCall):
        deal.apply(seat, Call("pas"))


def test_a_seat_that_does_not_exist_is_told_so() -> None:
    deal = Match(build_ruleset(), seed="hooks/3").deal
    seat = deal.to_act
    assert seat is not None
    call = deal.shared_legal_calls(seat)[0]  # listed for the seat to act
    with pytest.raises(E.NotAllowed, match="there is no seat 7"):
        deal.apply(7, call)


def test_a_negative_seat_is_told_so_after_a_call() -> None:
    """No seat is -1, also once a call has forgotten the listed calls (a record read back
    with such a seat must not replay the call of the seat listed before)."""
    deal = Match(build_ruleset(), seed="hooks/4").deal
    seat = deal.to_act
    assert seat is not None
    call = deal.shared_legal_calls(seat)[0]
    deal.apply(seat, call)
    log = list(deal.log)
    with pytest.raises(E.NotAllowed, match="there is no seat -1"):
        deal.apply(-1, call)
    assert deal.log == log


def test_no_seat_has_legal_calls_and_its_call_is_told_so() -> None:
    """A wrong seat asked about lists nothing (not a seat's calls read from the end of
    the hands: seat -1 is not the dealer), so a call for it is refused as any other."""
    deck = build_deck("As Ks Qs Js 10s 9s Ah Kh Qh", "7s 7h 7d 7c 8s 8h 8d 8c 9h", "Ad")
    deal = new_deal(build_ruleset(), deck)
    assert tokens(deal.legal_calls(1)) == ["chetyre-semerki"]  # the dealer's, off turn
    assert deal.legal_calls(-1) == []
    with pytest.raises(E.NotAllowed, match="there is no seat -1"):
        deal.apply(-1, Call("chetyre-semerki"))
    assert deal.log == []


def test_a_match_driven_on_its_deal_ends_as_one_driven_through_match_apply() -> None:
    """Match.finish_deal, after calls made on the deal itself (self-play's way), adds
    what Match.apply adds: nothing while the deal goes on, then the deal's end and the
    next deal's start or the match's end; the records and result are the same."""
    rules = build_ruleset()
    through, on_deal = Match(rules, seed="hooks/5"), Match(rules, seed="hooks/5")
    rng_a, rng_b = random.Random("hooks/5"), random.Random("hooks/5")
    ends = 0
    while not through.over:
        seat = through.to_act
        assert seat is not None and seat == on_deal.to_act
        call_a = rng_a.choice(through.legal_calls(seat))
        call_b = rng_b.choice(on_deal.legal_calls(seat))
        events = through.apply(seat, call_a)
        told = on_deal.deal.apply(seat, call_b)
        added = on_deal.finish_deal()
        assert told + added == events
        ends += bool(added)
        assert on_deal.finish_deal() == []  # once only
    assert on_deal.over and on_deal.result == through.result
    assert ends == len(through.records) > 1
    assert [without_timing(r) for r in on_deal.records] == [
        without_timing(r) for r in through.records
    ]
