"""Three players and four players in pairs: registered by the player count."""

from __future__ import annotations

from deberc_net.game.deal import Deal
from deberc_net.game.rules import Settings
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import SUMMARIES_RU


class ThreePlayers:
    """docs/rules.md §8: the player must beat both whistlers together; the whistlers'
    combinations add up when the better of theirs beats the player's."""

    name = "three-players"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name=self.name,
            kind="players",
            players=(3,),
            summary=(
                "Three players: the player must score more than both whistlers together; "
                "when a whistler holds the best combination, the sequences of each "
                "whistler who spoke in the table talk (declared or asked rost?) score; a "
                "bide is split in half between the whistlers (an odd point to the one who "
                "plays earlier)."
            ),
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl
    def deberc_combo_winners(self, deal: Deal) -> list[int] | None:
        best = deal.best
        if best is None or deal.player is None:
            return []
        if best.seat == deal.player:
            return [best.seat]
        # the whistlers' declarations add up: each whistler who spoke (declared or asked
        # rost?) scores his sequences; a silent one declared nothing to add
        return [
            s
            for s in range(deal.players)
            if s != deal.player and (s in deal.talked or s == best.seat)
        ]


class FourPlayers:
    """docs/rules.md §8: partners across, 6 + 2 cards, the turned card to the dealer."""

    name = "four-players"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name=self.name,
            kind="players",
            players=(4,),
            summary=(
                "Four players in pairs, partners across (seats 0+2 against 1+3): 3+3 "
                "cards, then 2 each with the turned card going to the dealer; no fresa, "
                "no seven swap; a pair declares and writes as one side, but only the owner "
                "of the best combination scores his sequences (option pair-combinations: "
                "both partners)."
            ),
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        settings.partnerships = True
        settings.deal_after = (2,)
        settings.turned_to_dealer = True
        settings.fresa = False
        settings.seven_swap = False


THREE_PLAYERS = ThreePlayers()
FOUR_PLAYERS = FourPlayers()
