"""Table options that change how a deal is written or who deals next."""

from __future__ import annotations

from deberc_net.game.outcomes import Outcome
from deberc_net.game.rules import DealScore, MatchSnapshot, Settings
from deberc_net.plugins.builtin import moscow
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import SUMMARIES_RU

SKI_POINTS = 50
BIDE_POINTS = 100


class SkiPenalty:
    name = "ski-penalty"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            self.name,
            "option",
            "A side that took no trick writes minus 50 (seed 004 'Ski').",
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl
    def deberc_adjust_written(self, score: DealScore) -> None:
        if score.outcome in (Outcome.VOID, Outcome.CLAIM, Outcome.FALSE_CLAIM):
            return
        for side, taken in enumerate(score.tricks_taken):
            if taken == 0:
                score.written[side] -= SKI_POINTS
                score.notes.append(f"ski: side {side} -{SKI_POINTS}")


class BidePenalty:
    name = "bide-penalty"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            self.name,
            "option",
            "From a side's third bide on (four players: a pair's), each bide also costs it "
            "100 points (seed 004).",
            needs_bidding=True,  # its bides are the ordering player's
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl
    def deberc_adjust_written(self, score: DealScore) -> None:
        p = score.player_side
        if score.outcome == Outcome.BIDE and score.bides_before[p] >= 2:
            score.written[p] -= BIDE_POINTS
            score.notes.append(f"bide {score.bides_before[p] + 1}: side {p} -{BIDE_POINTS}")


class CombosNeedTrick:
    name = "combos-need-trick"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            self.name,
            "option",
            "Terts and fifty count only if their owner took "
            "at least one trick; bella counts anyway (seeds 003 and 004).",
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        # the deal applies it wherever it counts points: at the scoring, and in a deal
        # cut short by a claim, konets or a bide on cards
        settings.combos_need_trick = True


class DealerClockwise:
    name = "dealer-clockwise"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            self.name,
            "option",
            "The deal passes clockwise after every deal (seed 004), not to the one who wrote more.",
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl
    def deberc_next_dealer(self, snapshot: MatchSnapshot) -> int:
        return (snapshot.dealer + 1) % snapshot.players


class HangingSeparate:
    name = "hanging-separate"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            self.name,
            "option",
            "Two hanging bides in a row: the next deal plays "
            "for the first sum and the deal after it for the second (variant B).",
            needs_bidding=True,  # its bides are the ordering player's
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl
    def deberc_adjust_written(self, score: DealScore) -> None:
        if score.outcome == Outcome.HANGING and score.hanging_in:
            # the builtin added both sums together (variant A): keep them apart
            own = score.hanging_out - score.hanging_in
            score.hanging_out = score.hanging_in
            score.hanging_pending.append(own)
        elif score.hanging_out == 0 and score.hanging_pending:
            score.hanging_out = score.hanging_pending.pop(0)


class BideToLeader:
    name = "bide-to-leader"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            self.name,
            "option",
            "Three players: a bide goes whole to the whistler "
            "with more points, not half to each (seed 003).",
            players=(3,),
            needs_bidding=True,  # its bides are the ordering player's
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl
    def deberc_deal_outcome(self, score: DealScore) -> bool:
        moscow.write_deal(score, _to_the_better_whistler)
        return True


def _to_the_better_whistler(score: DealScore, amount: int) -> dict[int, int]:
    whistlers = [s for s in score.lead_order if s != score.player_side]
    best = max(whistlers, key=lambda s: (score.points[s], -whistlers.index(s)))
    return {best: amount}


SKI_PENALTY = SkiPenalty()
BIDE_PENALTY = BidePenalty()
COMBOS_NEED_TRICK = CombosNeedTrick()
DEALER_CLOCKWISE = DealerClockwise()
HANGING_SEPARATE = HangingSeparate()
BIDE_TO_LEADER = BideToLeader()
SCORING = (
    SKI_PENALTY,
    BIDE_PENALTY,
    COMBOS_NEED_TRICK,
    DEALER_CLOCKWISE,
    HANGING_SEPARATE,
    BIDE_TO_LEADER,
)
