"""The Moscow rules for two players (docs/rules.md §1–7, every default)."""

from __future__ import annotations

from collections.abc import Callable

from deberc_net.game.combos import Combo, top_position
from deberc_net.game.deal import Deal
from deberc_net.game.outcomes import MatchEndReason, Outcome
from deberc_net.game.rules import ComboKeyFn, DealScore, MatchEnd, MatchSnapshot, Settings
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import SUMMARIES_RU

NAME = "moscow"


@hookimpl
def deberc_rule_info() -> RuleInfo:
    return RuleInfo(
        name=NAME,
        kind="variant",
        summary=(
            "Moscow rules: bidding on the turned suit then any other, terts 20, fifty 50, "
            "bella 20, equal combinations go to the higher top card, then to trump, then to "
            "the earlier declared; the player must score more than the whistler or it is a "
            "bide; the match's end is claimed automatically."
        ),
        players=(2, 3, 4),
        summary_ru=SUMMARIES_RU[NAME],
    )


@hookimpl(tryfirst=True)
def deberc_configure(settings: Settings, players: int) -> None:
    settings.players = players
    settings.target = 501
    settings.auto_claim = True
    settings.deal_before = (3, 3)
    settings.deal_after = (3,)
    settings.turned_to_dealer = False
    settings.fresa = True
    settings.fresa_visible = True
    settings.seven_swap = True
    settings.four_sevens = True
    settings.commitment = False
    settings.player_leads = False
    settings.sequence_by_strength = False
    settings.bella_after_trick = False
    settings.last_trick_bonus = 10
    settings.hanging_accumulate = True
    settings.partnerships = False
    settings.partner_exemption = False
    settings.manual_claim = False
    settings.table_penalties = False
    settings.pause_after_order = False
    settings.combos_need_trick = False
    settings.pair_combinations = False
    settings.show_combination = False
    settings.swap_before_extra = False
    settings.stake = None


@hookimpl(trylast=True)
def deberc_combo_key(settings: Settings) -> ComboKeyFn:
    by_strength = settings.sequence_by_strength

    def key(combo: Combo, trump: int | None) -> tuple[int, ...]:
        return (combo.category, top_position(combo, trump, by_strength), combo.suit == trump)

    return key


@hookimpl(trylast=True)
def deberc_combo_winners(deal: Deal) -> list[int]:
    """Only the owner of the best combination scores, and then all of his sequences
    (seeds 003, 004: "the rest do not count anything"); with ``pair-combinations`` his
    partner's too."""
    if deal.best is None:
        return []
    if deal.rules.settings.pair_combinations:
        return list(deal.sides[deal.side_of(deal.best.seat)])
    return [deal.best.seat]


@hookimpl(trylast=True)
def deberc_deal_outcome(score: DealScore) -> bool:
    """Made, bide or hanging bide; hanging points go to whoever writes more next."""
    write_deal(score, bide_shares)
    return True


SharesFn = Callable[[DealScore, int], dict[int, int]]


def write_deal(score: DealScore, shares: SharesFn) -> None:
    """The Moscow writing of a deal, with ``shares`` saying where a bide goes."""
    p = score.player_side
    pts = score.points
    others: list[int] = []
    against = 0
    for s in range(len(score.sides)):  # a loop, not a comprehension and a generator: every deal
        if s != p:
            others.append(s)
            against += pts[s]
    written = [0] * len(pts)
    hanging = score.hanging_in
    if pts[p] > against:
        score.outcome = Outcome.MADE
        written = list(pts)
    elif pts[p] < against:
        score.outcome = Outcome.BIDE
        written = [pts[s] if s != p else 0 for s in range(len(pts))]
        for side, share in shares(score, pts[p]).items():
            written[side] += share
    else:
        score.outcome = Outcome.HANGING
        for s in others:
            written[s] = pts[s]
    if score.outcome == Outcome.HANGING:
        hanging += pts[p]  # variant A: a second hanging bide plays for both sums
    elif hanging and score.outcome == Outcome.BIDE:
        # a bide after a hanging bide: the whistlers split the hanging points equally
        # (seed 000, three players, also under bide-to-leader, which only moves the bide
        # player's own points; with two the whistler takes them)
        for side, share in bide_shares(score, hanging).items():
            written[side] += share
        score.notes.append(f"hanging {hanging} to the whistlers")
        hanging = 0
    elif hanging:
        top = max(written)
        leaders = [s for s, w in enumerate(written) if w == top]
        if len(leaders) == 1:
            written[leaders[0]] += hanging
            score.notes.append(f"hanging {hanging} to side {leaders[0]}")
            hanging = 0
    score.written = written
    score.hanging_out = hanging


def bide_shares(score: DealScore, amount: int) -> dict[int, int]:
    """How the bide player's points go to the whistlers: in equal parts, an odd point
    to the whistler who plays earlier (two sides: the whole to the other side)."""
    whistlers = [s for s in score.lead_order if s != score.player_side]
    share, odd = divmod(amount, len(whistlers))
    return {s: share + (odd if i == 0 else 0) for i, s in enumerate(whistlers)}


@hookimpl(trylast=True)
def deberc_next_dealer(snapshot: MatchSnapshot) -> int:
    """The one who wrote more in the deal deals (of a pair, or of several who wrote as
    much, the first clockwise from the dealer)."""
    score = snapshot.last_deal
    assert score is not None
    written = score.written
    top = max(written)
    leaders: list[int] = []
    for s, w in enumerate(written):  # loops, not comprehensions: every deal
        if w == top:
            leaders.append(s)
    n = snapshot.players
    if score.outcome == Outcome.HANGING:  # the whistler deals, whoever of them wrote more
        leaders = [s for s in leaders if s != score.player_side] or leaders
    seats: list[int] = []
    for side in leaders:
        seats += score.sides[side]
    for i in range(1, n + 1):  # a loop, not next() of a generator: this runs every deal
        seat = (snapshot.dealer + i) % n
        if seat in seats:
            return seat
    raise AssertionError("a side that wrote the most has a seat")


@hookimpl(trylast=True)
def deberc_match_end(snapshot: MatchSnapshot) -> MatchEnd | None:
    """Target reached at the scoring; both over it: the taker of the last trick wins."""
    if snapshot.target is None:
        return None
    over = [s for s, t in enumerate(snapshot.totals) if t >= snapshot.target]
    if not over:
        return None
    if len(over) > 1 and snapshot.last_deal is not None:
        last = snapshot.last_deal.last_trick_side
        if last in over:
            return MatchEnd(last, MatchEndReason.TARGET)
        over.sort(key=lambda s: -snapshot.totals[s])
    return MatchEnd(over[0], MatchEndReason.TARGET)
