"""Short Deberts: one deal decides (docs/rules.md §11, seed 000 'Короткий деберц').

``short`` (no bide: more points wins), ``short-bide`` (2 players: a losing player pays
double; 3 players: one stake to or from each whistler), ``dave`` (two players, doubling:
"dave" offers the opponent to give up for the current stake or play for the next),
``dave-geometric`` (stakes 1 2 4 8 instead of 1 2 3 4) and ``to-9-stakes`` (seed 003
"в один удар": deals go on until someone has 9 stakes). In these games ``written`` and
the totals count stakes; the deal's points stay in ``points``.
"""

from __future__ import annotations

from deberc_net.game.calls import Call
from deberc_net.game.deal import PLAY, Deal, Pending
from deberc_net.game.outcomes import MatchEndReason, Outcome
from deberc_net.game.rules import DealScore, MatchEnd, MatchSnapshot, Settings
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import SUMMARIES_RU

DAVE, ACCEPT, GIVE_UP = "dave", "prinimayu", "sdayus"
SHORT_NAMES = ("short", "short-bide", "dave")
# Short games write stakes, not points: options that write points (ski-penalty, the bide
# on cards of table-penalties) or split a bide (bide-to-leader) have no meaning here.
NOT_WITH_SHORT = (
    "to-301",
    "to-1001",
    "to-1002",
    "manual-claim",
    "hanging-separate",
    "bide-penalty",
    "poltinniki",
    "ski-penalty",
    "bide-to-leader",
    "table-penalties",
)


class ShortGame:
    def __init__(self, name: str, summary: str, bide: bool, players: tuple[int, ...]) -> None:
        self.name = name
        self.summary = summary
        self.bide = bide
        self.players = players

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        others = tuple(n for n in SHORT_NAMES if n != self.name)
        return RuleInfo(
            self.name,
            "option",
            self.summary,
            players=self.players,
            conflicts=others + NOT_WITH_SHORT,
            summary_ru=SUMMARIES_RU[self.name],
            needs_bidding=self.bide,  # the ordering player pays
        )

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        settings.target = None  # one deal decides (to-9-stakes sets a target in stakes)
        settings.auto_claim = False
        settings.deal_won_on_points = not self.bide  # who ordered does not matter

    @hookimpl
    def deberc_deal_outcome(self, score: DealScore) -> bool:
        pts, p = score.points, score.player_side
        sides = range(len(pts))
        stake = score.stake
        written = [0] * len(pts)
        if self.bide:
            against = sum(pts[s] for s in sides if s != p)
            won = pts[p] > against or (pts[p] == against and score.last_trick_side == p)
            # two players: a losing player pays double (not on a tie lost on the last
            # trick, docs/rules.md 11); three: one stake per whistler
            lost_outright = pts[p] < against
            loss = 2 * stake if len(pts) == 2 and lost_outright else stake
            for s in sides:
                if s != p:  # one stake to or from each whistler
                    written[s] = -stake if won else loss
                    written[p] -= written[s]
            score.outcome = Outcome.MADE if won else Outcome.BIDE
        else:
            top = max(pts)
            # of equal points without the last trick, the one who plays earlier wins
            order = score.lead_order or list(sides)
            leaders = [s for s in order if pts[s] == top]
            winner = (
                leaders[0]
                if len(leaders) == 1
                else (score.last_trick_side if score.last_trick_side in leaders else leaders[0])
            )
            for s in sides:
                written[s] = stake * (len(pts) - 1) if s == winner else -stake
            score.outcome = Outcome.MADE if winner == p else Outcome.BIDE
        score.written = written
        score.hanging_out = 0
        score.notes.append(f"stake {stake}")
        return True

    @hookimpl
    def deberc_match_end(self, snapshot: MatchSnapshot) -> MatchEnd | None:
        totals = snapshot.totals
        leader = max(range(len(totals)), key=lambda s: totals[s])
        if snapshot.target is None:
            return MatchEnd(leader, MatchEndReason.SHORT)
        if totals[leader] >= snapshot.target:
            return MatchEnd(leader, MatchEndReason.STAKES)
        return None


def stakes_won_outright(deal: Deal, side: int) -> list[int] | None:
    """In a short game, what a deal that ``side`` won without a score writes (a
    ``deberts``, docs/rules.md §11): the current stake from each other player, as a deal
    won on points in ``short``; under ``to-9-stakes`` the others write nothing. None
    when no short game is played."""
    options = deal.rules.options
    if not any(name in options for name in SHORT_NAMES):
        return None
    stake = int(deal.extra.get("stake", 1))
    n = len(deal.sides)
    lost = 0 if NINE in options else -stake  # to 9 stakes counts the stakes won
    return [stake * (n - 1) if s == side else lost for s in range(n)]


class Dave(ShortGame):
    """Doubling in the short game for two: never twice in a row by the same player."""

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        super().deberc_configure(settings, players)
        settings.stake_in_play = True  # the stake a dave raised is told (§11)
        settings.stake_raised_by = ACCEPT

    @hookimpl
    def deberc_call_aliases(self) -> dict[str, tuple[str, ...]]:
        return {
            DAVE: ("даве", "double"),
            ACCEPT: ("принимаю", "accept"),
            GIVE_UP: ("сдаюсь", "give up", "resign"),
        }

    @hookimpl
    def deberc_extra_calls(self, deal: Deal, seat: int) -> list[Call]:
        pending = deal.pending
        if pending is not None:
            return (
                [Call(ACCEPT), Call(GIVE_UP)]
                if (pending.kind == DAVE and seat == pending.answerer)
                else []
            )
        may_offer = deal.extra.get("dave_next") in (None, seat)
        if deal.phase == PLAY and seat == deal.turn and may_offer:
            return [Call(DAVE)]
        return []

    @hookimpl
    def deberc_apply_extra_call(self, deal: Deal, seat: int, call: Call) -> bool | None:
        if call.name == DAVE:
            other = (seat + 1) % deal.players
            deal.pending = Pending(DAVE, seat, other)
            return True
        if call.name == ACCEPT and deal.pending is not None and deal.pending.kind == DAVE:
            stake = int(deal.extra.get("stake", 1))
            geometric = "dave-geometric" in deal.rules.options
            deal.extra["stake"] = stake * 2 if geometric else stake + 1
            deal.extra["dave_next"] = seat  # only the one who accepted may raise next
            deal.pending = None
            return True
        if call.name == GIVE_UP and deal.pending is not None and deal.pending.kind == DAVE:
            asker = deal.pending.asker
            stake = int(deal.extra.get("stake", 1))
            written = [0] * len(deal.sides)
            written[deal.side_of(asker)] = stake
            if NINE not in deal.rules.options:  # to 9 stakes counts the stakes won
                written[deal.side_of(seat)] = -stake
            deal.end_deal(Outcome.GAVE_UP, deal.deal_points(), written)
            if deal.result is not None:  # noted as every short game's deal (rules.md §11)
                deal.result.score.notes.append(f"stake {stake}")
            return True
        return None


class DaveGeometric:
    name = "dave-geometric"

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            self.name,
            "option",
            "Dave doubles the stake (1 2 4 8) instead of raising it by one (1 2 3 4).",
            players=(2,),
            requires=("dave",),
            summary_ru=SUMMARIES_RU[self.name],
        )


NINE = "to-9-stakes"


class ToNineStakes:
    name = NINE

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            self.name,
            "option",
            "Short games with dave go on deal after deal "
            "until a player has won 9 stakes (seed 003 'в один удар').",
            players=(2,),
            requires=("dave",),
            summary_ru=SUMMARIES_RU[self.name],
        )

    @hookimpl(trylast=True)  # after dave has said "one deal"
    def deberc_configure(self, settings: Settings, players: int) -> None:
        settings.target = 9

    @hookimpl
    def deberc_adjust_written(self, score: DealScore) -> None:
        # the match is to 9 stakes won: the loser of a deal writes nothing, not minus
        score.written = [max(0, w) for w in score.written]


SHORT = ShortGame(
    "short",
    "One deal decides: more points wins one stake from each loser; "
    "who ordered does not matter; a tie goes to the taker of the last trick.",
    bide=False,
    players=(2, 3),
)
SHORT_BIDE = ShortGame(
    "short-bide",
    "One deal decides, with bide: two players, the player (who ordered), if he "
    "scores less, pays a double stake; three players, the player wins or "
    "pays one stake from or to each whistler.",
    bide=True,
    players=(2, 3),
)
DAVE_GAME = Dave(
    "dave",
    "One deal decides, with doubling: on your turn in play say 'dave' "
    "to offer the opponent to give up for the current stake ('sdayus') or play "
    "for the next ('prinimayu'); after an accepted dave only the one who "
    "accepted may raise again.",
    bide=False,
    players=(2,),
)
DAVE_GEOMETRIC = DaveGeometric()
TO_9_STAKES = ToNineStakes()
SHORT_GAMES = (SHORT, SHORT_BIDE, DAVE_GAME, DAVE_GEOMETRIC, TO_9_STAKES)
