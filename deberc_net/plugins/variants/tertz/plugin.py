"""The ``tertz`` variant (and its option ``tertz-501``): the hooks that make the engine
play Tertz (docs/rules.md, Tertz; docs/plugins.md, "Writing a whole new game")."""

from __future__ import annotations

from deberc_net.game.calls import Call
from deberc_net.game.combos import Combo, top_position
from deberc_net.game.deal import Deal
from deberc_net.game.outcomes import MatchEndReason, Outcome
from deberc_net.game.rules import ComboKeyFn, DealScore, MatchEnd, MatchSnapshot, Settings
from deberc_net.plugins.api import PluginDeal
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import SUMMARIES_RU

from .cards import LAST_TRICK
from .combos import WORDS
from .deal import BREAK, SWAP_UNTIL_TWO, TertzDeal

NAME = "tertz"
TARGET = 500
MAX_BREAK = 12  # lomayu-1 .. lomayu-12: the talon under the trump holds 13 cards
# options written for Deberts that make no sense in Tertz (its bella, its combinations,
# its scoring); those that act through the ordering player say so themselves
# (RuleInfo.needs_bidding) and are refused by ``bidding=False`` below
NOT_FOR_TERTZ = (
    "bella-after-trick",
    "combos-need-trick",
    "dave",
    "dave-geometric",
    "deberts",
    "dealer-clockwise",
    "fresa-hidden",
    "manual-claim",
    "pair-combinations",
    "partner-exemption",
    "seven-swap-off",
    "short",
    "ski-penalty",
    "table-penalties",
    "to-9-stakes",
)


@hookimpl
def deberc_rule_info() -> RuleInfo:
    return RuleInfo(
        name=NAME,
        kind="variant",
        summary=(
            "Tertz, the ancestor of Deberts, for two: nine cards each, the turned card is "
            "trump, both draw from the talon after each trick (the loser of the first "
            "breaks the deck: lomayu N); the trump 7 may take the turned card; after the "
            "talon: follow and beat. Trump J 20, 9 13; plain A 11, 10 10, K 3, Q 2, J 1; "
            "four jacks 200, four A/K/Q and runs of 5-8 100, run of 4 50, terts 20, "
            "mariage 20. A deal is 150 points: the seat with fewer tricks counts his "
            "(rounded to tens, a five down), the other writes the rest."
        ),
        players=(2,),
        conflicts=NOT_FOR_TERTZ,
        bidding=False,  # nobody orders: options with needs_bidding are refused too
        summary_ru=SUMMARIES_RU[NAME],
    )


@hookimpl
def deberc_call_aliases() -> dict[str, tuple[str, ...]]:
    breaks = {
        f"{BREAK}-{n}": (f"ломаю {n}", f"break {n}", f"lomaju {n}", f"ламаю {n}")  # uk last
        for n in range(1, MAX_BREAK + 1)
    }
    return {
        **breaks,
        **WORDS,
        # its first word is the one people are told (docs/rules.md §12.5: mariage)
        "bella": ("mariage", "марьяж", "mariazh", "marriage", "мар'яж"),
        # seed 004: "From what?"; typed without its '?' too, as 'rost' and «рост» are
        # («от чего» was read as 'ot' and a rank: "not a rank: 'чего'")
        # and the Ukrainian «від чого?» (docs/protocol.md §8.2, *uk*)
        "rost?": (
            "от чего?",
            "ot chego?",
            "from what?",
            "от чего",
            "ot chego",
            "from what",
            "від чого?",
            "від чого",
        ),
    }


@hookimpl
def deberc_configure(settings: Settings, players: int) -> None:
    settings.target = TARGET
    settings.auto_claim = False  # the deal's points are known only at its end
    settings.deal_before = (3, 3, 3)
    settings.deal_after = ()
    settings.fresa = False
    settings.fresa_visible = False
    settings.seven_swap = False  # Tertz's own exchange (TertzDeal), not Deberts's
    settings.four_sevens = False
    settings.last_trick_bonus = LAST_TRICK


@hookimpl
def deberc_deal_class(settings: Settings) -> type[Deal]:
    return TertzDeal


@hookimpl
def deberc_combo_key(settings: Settings) -> ComboKeyFn:
    """Seniority class first (four jacks ... terts), then the top card, then trump."""
    by_strength = settings.sequence_by_strength

    def key(combo: Combo, trump: int | None) -> tuple[int, ...]:
        if combo.suit < 0:  # a four of a kind: its class says it all
            return (combo.category, 0, 0)
        top = top_position(combo, trump, by_strength)
        return (combo.category, top, combo.suit == trump)

    return key


@hookimpl
def deberc_apply_extra_call(deal: PluginDeal, seat: int, call: Call) -> bool | None:
    if isinstance(deal, TertzDeal):
        return deal.carry_out(seat, call)
    return None


def round_count(points: int) -> int:
    """To tens, a five down (seed 004: "If the number ends in five, then rounding goes
    down"): 74 and 75 → 70, 76 → 80."""
    return (points + 4) // 10 * 10


@hookimpl
def deberc_deal_outcome(score: DealScore) -> bool:
    """The 150 split: the side with fewer tricks counts its cards (and the last trick),
    rounded; the other writes 150 less that. Equal tricks: the side that did not take
    the last trick counts. Combinations and mariage are written on top. (150 is every
    card and the last trick: an option that changes the last trick changes it too.)"""
    sides = range(len(score.sides))
    cards = [score.points[s] - score.combo_points[s] - score.bella_points[s] for s in sides]
    total = sum(cards)
    counter = min(sides, key=lambda s: (score.tricks_taken[s], s == score.last_trick_side))
    counted = round_count(cards[counter])
    score.written = [
        (counted if s == counter else total - counted)
        + score.combo_points[s]
        + score.bella_points[s]
        for s in sides
    ]
    score.outcome = Outcome.SPLIT
    score.notes.append(f"side {counter} counts {cards[counter]}, written as {counted}")
    return True


@hookimpl
def deberc_next_dealer(snapshot: MatchSnapshot) -> int | None:
    """The taker of the last trick deals (seed 004: "New cards are dealt by the one who
    took the last trick")."""
    score = snapshot.last_deal
    if score is None or score.last_trick_side < 0:
        return None
    return score.sides[score.last_trick_side][0]


@hookimpl
def deberc_match_end(snapshot: MatchSnapshot) -> MatchEnd | None:
    """500 or more ends the match; both over it: the higher total, equal: the taker of
    the last trick."""
    if snapshot.target is None:
        return None
    over = [s for s, t in enumerate(snapshot.totals) if t >= snapshot.target]
    if not over:
        return None
    last = snapshot.last_deal.last_trick_side if snapshot.last_deal else -1
    return MatchEnd(max(over, key=lambda s: (snapshot.totals[s], s == last)), MatchEndReason.TARGET)


class To501:
    """Option ``tertz-501``: the reading "If bribes are taken into account when
    calculating points, then 501 points must be collected"."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name="tertz-501",
            kind="option",
            summary="Tertz to 501 instead of 500 (seed 004: 501 when tricks are counted).",
            players=(2,),
            conflicts=("to-301", "to-1001", "to-1002"),
            requires=(NAME,),  # at a Deberts table it would change nothing
            summary_ru=SUMMARIES_RU["tertz-501"],
        )

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        settings.target = 501


TO_501 = To501()


class SwapUntilTwo:
    """Option ``tertz-swap-until-two``: the trump seven may be exchanged only while more
    than two cards are left in the talon (seed 004: "until only two cards remain"), not
    with the last pair (docs/rules.md §12.3); ``TertzDeal`` reads it from the options."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name=SWAP_UNTIL_TWO,
            kind="option",
            summary=(
                "Tertz: the trump 7 may take the turned card only until two cards are left "
                "in the talon, not with the last pair."
            ),
            players=(2,),
            requires=(NAME,),  # Deberts's swap has rules of its own (docs/rules.md §2)
            summary_ru=SUMMARIES_RU[SWAP_UNTIL_TWO],
        )


SWAP_UNTIL_TWO_OPTION = SwapUntilTwo()
