"""Option ``poltinniki`` (deberts with proposals, seed 000): after the order and before the
last cards, the whistler may offer the player 50 points without play; a gap of 250
points ends the game and the leader wins."""

from __future__ import annotations

from deberc_net.game.calls import Call
from deberc_net.game.deal import ORDERED, Deal, Pending
from deberc_net.game.outcomes import MatchEndReason, Outcome
from deberc_net.game.rules import MatchEnd, MatchSnapshot, Settings
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import SUMMARIES_RU

NAME = "poltinniki"
OFFER, ACCEPT, PLAY_ON = "predlagayu", "prinimayu", "igraem"
ASK_WHISTLER, ASK_PLAYER = "offer?", "offer"
OFFER_POINTS = 50
GAP = 250


@hookimpl
def deberc_rule_info() -> RuleInfo:
    return RuleInfo(
        NAME,
        "option",
        "After the order, before the last cards, the whistler may "
        "offer the player 50 points without play ('predlagayu'; the player says "
        "'prinimayu' or 'igraem'); a gap of 250 points ends the game.",
        players=(2,),
        summary_ru=SUMMARIES_RU[NAME],
        needs_bidding=True,  # an offer to the player who ordered
    )


@hookimpl
def deberc_call_aliases() -> dict[str, tuple[str, ...]]:
    return {
        OFFER: ("предлагаю", "offer"),
        ACCEPT: ("принимаю", "accept"),
        PLAY_ON: ("играем", "play on"),
    }


@hookimpl
def deberc_configure(settings: Settings, players: int) -> None:
    settings.pause_after_order = True


@hookimpl
def deberc_deal_event(deal: Deal, name: str) -> None:
    if name == "ordered" and deal.player is not None:
        whistler = (deal.player + 1) % deal.players
        deal.pending = Pending(ASK_WHISTLER, deal.player, whistler)


@hookimpl
def deberc_extra_calls(deal: Deal, seat: int) -> list[Call]:
    pending = deal.pending
    if deal.phase != ORDERED or pending is None or seat != pending.answerer:
        return []
    if pending.kind == ASK_WHISTLER:
        return [Call(OFFER), Call(PLAY_ON)]
    if pending.kind == ASK_PLAYER:
        return [Call(ACCEPT), Call(PLAY_ON)]
    return []


@hookimpl
def deberc_apply_extra_call(deal: Deal, seat: int, call: Call) -> bool | None:
    pending = deal.pending
    if deal.phase != ORDERED or pending is None:
        return None
    if call.name == OFFER:
        deal.pending = Pending(ASK_PLAYER, seat, pending.asker)
        return True
    if call.name == PLAY_ON:
        deal.pending = None
        deal.continue_after_order()
        return True
    if call.name == ACCEPT:
        written = [0] * len(deal.sides)
        written[deal.side_of(seat)] = OFFER_POINTS
        # a deal played (not void): hanging points are the player's, who writes more
        # (docs/rules.md §11, a Choice; a review of the rules, s29)
        deal.end_deal(Outcome.OFFER, [0] * len(deal.sides), written, played=True)
        return True
    return None


@hookimpl
def deberc_match_end(snapshot: MatchSnapshot) -> MatchEnd | None:
    totals = snapshot.totals
    target = snapshot.target
    if target is not None and max(totals) >= target:
        return None  # the target ends the match by its own rule (docs/rules.md 11)
    leader = max(range(len(totals)), key=lambda s: totals[s])
    if any(totals[leader] - t >= GAP for s, t in enumerate(totals) if s != leader):
        return MatchEnd(leader, MatchEndReason.GAP)
    return None
