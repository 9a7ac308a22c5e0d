"""A club player's review of Tertz (docs/rules.md §12): random legal play checked at every
call against the rules restated here from the text, not from the engine's tables —
the duties of play in both phases, who takes a trick, the seven's window, the open
tricks, whose combinations and mariage score, who deals and leads — and the match's
end when both totals reach the target level."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from deberc_net.game.cards import Card, card_str
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.plugins.variants.tertz.deal import TertzDeal
from deberc_net.testing import build_ruleset, new_match, say
from tests.properties import examples

from .helpers import RULES, first_card

SWAP_UNTIL_TWO = build_ruleset(2, "tertz", ["tertz-swap-until-two"])
PLAIN_ORDER = ["7", "8", "9", "J", "Q", "K", "10", "A"]
TRUMP_ORDER = ["7", "8", "Q", "K", "10", "A", "9", "J"]
MAX_CALLS = 4000  # a match of some 7 deals of 16 tricks, with its talk


def _rank(card: Card) -> str:
    return card_str(card)[:-1]


def _suit(card: Card) -> str:
    return card_str(card)[-1]


def _strength(card: Card, trump: str) -> int:
    if _suit(card) == trump:
        return 100 + TRUMP_ORDER.index(_rank(card))
    return PLAIN_ORDER.index(_rank(card))


def _legal_cards(hand: list[Card], led: Card | None, trump: str, talon: bool) -> list[Card]:
    """§12.3: while the talon lasts follow suit, else trump, else anything (the trump
    jack never forced); after it follow and beat if able, else trump, else anything."""
    if led is None:
        return sorted(hand)
    follow = [c for c in hand if _suit(c) == _suit(led)]
    trumps = [c for c in hand if _suit(c) == trump]
    if talon:
        forced = follow or trumps
        if not forced or [card_str(c) for c in forced] == ["J" + trump]:
            return sorted(hand)
        return sorted(forced)
    if follow:
        higher = [c for c in follow if _strength(c, trump) > _strength(led, trump)]
        return sorted(higher or follow)
    return sorted(trumps or hand)


def _taker(first: tuple[int, Card], second: tuple[int, Card], trump: str) -> int:
    (a_seat, a), (b_seat, b) = first, second
    if _suit(b) == _suit(a) and _strength(b, trump) > _strength(a, trump):
        return b_seat
    return b_seat if _suit(b) == trump and _suit(a) != trump else a_seat


def _check_before(match: Match, seat: int, swap_until_two: bool) -> None:
    deal = match.deal
    assert isinstance(deal, TertzDeal) and deal.trump is not None
    trump = "shdc"[deal.trump]
    calls = match.legal_calls(seat)
    tokens = [c.token() for c in calls]
    left = deal.talon_left()
    if deal.pending is None and seat == deal.turn:
        led = deal.trick.cards[0][1] if deal.trick.cards else None
        cards = sorted(c.card for c in calls if c.name == "play" and c.card is not None)
        assert cards == _legal_cards(deal.hands[seat], led, trump, left > 0)
        seven = any(card_str(c) == "7" + trump for c in deal.hands[seat])
        window = left > 2 if swap_until_two else left >= 2
        # (§12.3, a Choice: a seven in a combination its holder declared stays)
        declared = any(card_str(c) == "7" + trump for d in deal.standing(seat) for c in d.cards)
        assert ("menyayu" in tokens) == (seven and window and not declared)
        if "bella" in tokens:
            held = {card_str(c) for c in deal.hands[seat]}
            assert {"K" + trump, "Q" + trump} <= held
    if any(
        t.startswith(("terts", "dva-", "tri-", "pyat", "sto-", "dvesti", "rost")) for t in tokens
    ):
        assert len(deal.hands[seat]) == 9 and seat == deal.turn
    for looker in (0, 1):
        theirs = dict(view(match, looker).game)["their_tricks"]
        if left >= 4:
            expected = sorted(c for t in deal.tricks if t.winner != looker for _, c in t.cards)
            assert theirs is not None and sorted(theirs) == expected
        else:
            assert theirs is None


def _check_end(deal: TertzDeal) -> None:
    """Only the owner of the best declaration writes his standing combinations; the
    mariage writes 20 for whoever declared it, whatever the combinations did."""
    result = deal.result
    assert result is not None
    best = deal.talk.best
    combos = [0, 0]
    if best is not None:
        combos[best.seat] = sum(c.points for c in deal.talk.declared_combos[best.seat])
    assert result.score.combo_points == combos
    bella = [0, 0]
    if deal.talk.bella_declared:
        assert deal.talk.bella_owner is not None
        bella[deal.talk.bella_owner] = 20
    assert result.score.bella_points == bella


@examples(40)
@given(seed=st.integers(0, 2**32), swap_until_two=st.booleans())
def test_random_tertz_play_keeps_the_rules_as_written(seed: int, swap_until_two: bool) -> None:
    rng = random.Random(seed)
    match = Match(SWAP_UNTIL_TWO if swap_until_two else RULES, seed=f"review{seed}")
    for _ in range(MAX_CALLS):
        if match.over:
            break
        deal = match.deal
        assert isinstance(deal, TertzDeal) and deal.trump is not None
        seat = match.to_act
        assert seat is not None
        actor = seat
        if match.legal_calls(1 - seat) and rng.random() < 0.3:
            actor = 1 - seat  # pokazhi out of turn
        _check_before(match, actor, swap_until_two)
        call = rng.choice(match.legal_calls(actor))
        trick = list(deal.trick.cards)
        taken = len(deal.tricks)
        match.apply(actor, call)
        if call.name == "play" and call.card is not None and len(trick) == 1:
            trump = "shdc"[deal.trump]
            assert deal.tricks[taken].winner == _taker(trick[0], (actor, call.card), trump)
        if deal.result is not None:
            _check_end(deal)
    assert match.over
    for before, after in zip(match.records, match.records[1:], strict=False):
        # the taker of the last trick deals; the dealer's opponent leads
        assert after["dealer"] == before["tricks"][-1]["winner"]
    for record in match.records:
        assert record["tricks"][0]["leader"] == 1 - record["dealer"]
        assert len(record["tricks"]) == 16


def _one_deal(seed: str, standing: tuple[int, int] = (0, 0)) -> Match:
    match = new_match(RULES, seed=seed)
    match.set_standing(list(standing))
    while not match.records:
        seat = match.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    return match


def test_both_over_the_target_level_the_taker_of_the_last_trick_wins() -> None:
    """§12.7: «when both reach it at one deal, the higher total wins; equal totals,
    the taker of the last trick» — for either seat taking it."""
    seen = set()
    for n in range(40):
        probe = _one_deal(f"tie{n}")
        written = probe.records[0]["written"]
        last = probe.records[0]["tricks"][-1]["winner"]
        if last in seen:
            continue
        seen.add(last)
        level = _one_deal(f"tie{n}", (520 - written[0], 520 - written[1]))
        assert level.totals == [520, 520] and level.result is not None
        assert level.result.winner == last
        ahead = _one_deal(f"tie{n}", (521 - written[0], 520 - written[1]))
        assert ahead.result is not None and ahead.result.winner == 0
        if seen == {0, 1}:
            return
    raise AssertionError("no deal found whose last trick each seat takes")
