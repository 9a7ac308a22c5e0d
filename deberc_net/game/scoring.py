"""Scoring a deal: its running score (``Tally``), what counts (combinations, bella,
cards, the last trick), the deal's ``DealScore`` and how it ended (``DealResult``), and
the bide on cards of option table-penalties.

Plain functions of a deal; the rule set's ``score_deal`` (the plugins' hooks) turns the
points into what each side writes (docs/rules.md §5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from .cards import card_points
from .combos import BELLA_POINTS, Combo
from .outcomes import Outcome, VoidReason
from .phases import DONE
from .rules import DealScore

if TYPE_CHECKING:
    from .deal import Deal


@attrs.define
class Tally:
    """A deal's running score: each side's card points and tricks so far, whose
    sequences count (settled after the first trick) and the side that owes a bide on
    cards. ``Deal.copy`` copies it; ``scoring_combos`` is replaced, never changed in
    place, so a copy may share it."""

    card_points: list[int]
    tricks_taken: list[int]
    scoring_combos: dict[int, list[Combo]] | None = None
    offender_side: int | None = None  # a bide on cards

    def copy(self) -> Tally:
        return Tally(
            list(self.card_points), list(self.tricks_taken), self.scoring_combos, self.offender_side
        )


@attrs.frozen
class DealResult:
    """How a deal ended (``Deal.result``, None until then): the score it writes, why a
    void deal was void, and the side and reason when it also ends the match. Set once,
    at the end, and replaced rather than changed."""

    score: DealScore
    void_reason: VoidReason | None = None
    match_end: tuple[int, str] | None = None  # side, why

    @property
    def outcome(self) -> str:
        """An Outcome, or a plugin's own: what the rules wrote on the score."""
        return self.score.outcome


def settle_combinations(deal: Deal) -> None:
    """After the first trick (or a bide on cards during it): whose sequences count."""
    winners = deal.rules.combo_winners(deal)
    deal.tally.scoring_combos = {
        seat: combos
        for seat in winners
        if seat not in deal.talk.lost_combos and (combos := deal.combos_of(seat))
    }


def counted_combos(deal: Deal) -> dict[int, list[Combo]]:
    """The sequences that count now, by seat: the record lists exactly these."""
    scoring_combos = deal.tally.scoring_combos
    if not scoring_combos:  # most deals: nobody's
        return {}
    offender, side_of = deal.tally.offender_side, deal._side_of
    return {
        seat: combos
        for seat, combos in scoring_combos.items()
        if side_of[seat] != offender and not lacks_trick(deal, seat)
    }


def lacks_trick(deal: Deal, seat: int) -> bool:
    """combos-need-trick: the seat took no trick himself. After a bide on cards the
    others are handed every card in play (and write the last trick's 10): they have
    their tricks, whatever the play had reached (docs/rules.md §10)."""
    return (
        deal.rules.settings.combos_need_trick
        and deal.tally.offender_side is None
        and not deal.took_trick(seat)
    )


def bella_counts(deal: Deal) -> bool:
    talk = deal.talk
    owner = talk.bella_owner
    return (
        talk.bella_declared
        and owner is not None
        and deal._side_of[owner] != deal.tally.offender_side
    )


def combo_points(deal: Deal) -> list[int]:
    # the deal's own side table, read rather than called (every deal's end)
    out = [0] * len(deal._sides)
    if not deal.tally.scoring_combos:  # most deals: nobody's sequences count
        return out
    side_of = deal._side_of
    for seat, combos in counted_combos(deal).items():
        out[side_of[seat]] += sum(c.points for c in combos)
    return out


def bella_points(deal: Deal) -> list[int]:
    out = [0] * len(deal._sides)
    if bella_counts(deal):
        owner = deal.talk.bella_owner
        assert owner is not None
        out[deal._side_of[owner]] += BELLA_POINTS
    return out


def deal_points(deal: Deal) -> list[int]:
    """Each side's points so far: combinations, bella, cards (and the last trick)."""
    combos, bella = combo_points(deal), bella_points(deal)
    cards = deal.tally.card_points
    return [combos[i] + bella[i] + cards[i] for i in range(len(deal.sides))]


def lead_order(deal: Deal) -> list[int]:
    """The sides in the order they play in this deal, the leader's first."""
    side_of, leader = deal._side_of, deal.leader
    n = len(side_of)  # a side for each seat
    order: list[int] = []
    for i in range(n):
        side = side_of[(leader + i) % n]
        if side not in order:
            order.append(side)
    return order


def deal_score(
    deal: Deal,
    points: list[int],
    combos: list[int] | None = None,
    bella: list[int] | None = None,
) -> DealScore:
    """The deal's score with ``points`` per side; ``combos`` and ``bella``: its
    combination and bella points when the caller has just counted them."""
    last = deal.tricks[-1].winner if deal.tricks else None
    tally, side_of = deal.tally, deal._side_of
    notes = (
        [
            f"seat {seat} took no trick: his combinations do not count"
            for seat in sorted(tally.scoring_combos)
            if lacks_trick(deal, seat) and side_of[seat] != tally.offender_side
        ]
        if tally.scoring_combos  # most deals: no sequence scores, no note
        else []
    )
    return DealScore(
        sides=deal._sides,
        player_side=-1 if deal.player is None else side_of[deal.player],
        points=points,
        card_points=list(tally.card_points),
        combo_points=combo_points(deal) if combos is None else combos,
        bella_points=bella_points(deal) if bella is None else bella,
        tricks_taken=list(tally.tricks_taken),
        last_trick_side=-1 if last is None else side_of[last],
        hanging_in=deal.hanging_in,
        hanging_pending=list(deal.hanging_pending),
        bides_before=list(deal.bides_before),
        lead_order=lead_order(deal),
        hanging_out=deal.hanging_in,
        stake=int(deal.extra.get("stake", 1)),
        notes=notes,
        extra=dict(deal.extra),  # a copy: a match is deep-copied (search), no proxy
    )


def score_played(deal: Deal) -> None:
    """The last trick is taken: count the points and let the rules write them."""
    deal.phase = DONE
    last = deal.tricks[-1].winner
    assert last is not None
    combos, bella = combo_points(deal), bella_points(deal)  # deal_points, counted once
    card_points = deal.tally.card_points
    points = [c + b + p for c, b, p in zip(combos, bella, card_points, strict=True)]
    points[deal._side_of[last]] += deal.rules.settings.last_trick_bonus
    score = deal_score(deal, points, combos, bella)
    deal.rules.score_deal(score)
    deal.result = DealResult(score)


def bide_on_cards(deal: Deal, seat: int, reason: str) -> None:
    """The offender hands all his cards to the opponents, who write every point."""
    trump = deal.trump
    assert trump is not None
    if deal.tally.scoring_combos is None:  # mid first trick: what was declared still counts
        settle_combinations(deal)
    everything = [c for t in deal.tricks for _, c in t.cards]
    everything += [c for _, c in deal.trick.cards]
    everything += [c for hand in deal.hands for c in hand]
    total = sum(card_points(c, trump) for c in everything)
    total += deal.rules.settings.last_trick_bonus
    offender = deal.side_of(seat)
    deal.tally.offender_side = offender  # nothing is written for his combinations or bella
    points = deal_points(deal)
    extras = [points[i] - deal.tally.card_points[i] for i in range(len(points))]
    others = [s for s in range(len(deal.sides)) if s != offender]
    share, odd = divmod(total, len(others))
    written = [0] * len(deal.sides)
    order = [s for s in lead_order(deal) if s in others]
    for i, side in enumerate(order):
        written[side] = share + (odd if i == 0 else 0) + extras[side]
    deal.end_deal(Outcome.PENALTY, points, written)
    assert deal.result is not None  # end_deal set it
    score = deal.result.score
    score.notes.append(f"bide on cards: seat {seat}, {reason}")
    _hanging_after_penalty(score, offender)


def _hanging_after_penalty(score: DealScore, offender: int) -> None:
    """A bide on cards is a played deal: the hanging points go to whoever writes
    more (docs/rules.md §5); the whistlers of a player who offended share them as they
    share a bide (equal parts, the odd point to the earlier)."""
    hanging = score.hanging_in
    if not hanging:
        return
    written = score.written
    others = [s for s in score.lead_order if s != offender]
    if offender == score.player_side and len(others) > 1:
        share, odd = divmod(hanging, len(others))
        for i, side in enumerate(others):
            written[side] += share + (odd if i == 0 else 0)
        score.notes.append(f"hanging {hanging} to the whistlers")
        score.hanging_out = score.hanging_pending.pop(0) if score.hanging_pending else 0
    else:
        hanging_to_who_writes_more(score)


def hanging_to_who_writes_more(score: DealScore) -> None:
    """A deal ended early that counts as played (a bide on cards, an accepted
    poltinniki offer): the points hanging into it go to the side that writes more in it
    (docs/rules.md §5); equal writers: they keep hanging."""
    hanging = score.hanging_in
    if not hanging:
        return
    written = score.written
    top = max(written)
    leaders = [s for s, w in enumerate(written) if w == top]
    if len(leaders) > 1:
        return  # nobody wrote more: they keep hanging
    written[leaders[0]] += hanging
    score.notes.append(f"hanging {hanging} to side {leaders[0]}")
    score.hanging_out = score.hanging_pending.pop(0) if score.hanging_pending else 0
