"""Option ``deberts``: seven trumps in sequence in one hand win the game at once."""

from __future__ import annotations

from deberc_net.game.combos import rank_order
from deberc_net.game.deal import PLAY, Deal
from deberc_net.game.outcomes import Outcome
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.house.short import stakes_won_outright
from deberc_net.plugins.summaries_ru import SUMMARIES_RU

NAME = "deberts"
RUN = 7


@hookimpl
def deberc_rule_info() -> RuleInfo:
    return RuleInfo(
        NAME,
        "option",
        "Seven trumps in sequence in one hand win the game at "
        "once, as soon as all cards are dealt or a seven swap completes them "
        "(seed 004).",
        summary_ru=SUMMARIES_RU[NAME],
    )


@hookimpl
def deberc_deal_event(deal: Deal, name: str) -> None:
    if name not in ("play", "swap") or deal.phase != PLAY or deal.trump is None:
        return  # all cards dealt, or a seven swap that may complete the run
    order = rank_order(deal.rules.settings.sequence_by_strength, deal.trump, deal.trump)
    for seat, hand in enumerate(deal.hands):
        ranks = sorted(order.index(c & 7) for c in hand if c >> 3 == deal.trump)
        if longest_run(ranks) >= RUN:
            side = deal.side_of(seat)
            # a short game's totals count stakes: the holder wins the stake (§11)
            stakes = stakes_won_outright(deal, side)
            written = [0] * len(deal.sides) if stakes is None else stakes
            # the points so far (a bella said before the swap): the record lists it
            deal.end_deal(
                Outcome.DEBERTS, deal.deal_points(), written, winner=side, reason=Outcome.DEBERTS
            )
            if stakes is not None and deal.result is not None:
                deal.result.score.notes.append(f"stake {deal.extra.get('stake', 1)}")
            return


def longest_run(ranks: list[int]) -> int:
    best = run = 0
    previous = None
    for rank in ranks:
        run = run + 1 if previous is not None and rank == previous + 1 else 1
        best = max(best, run)
        previous = rank
    return best
