"""Table options that change one plain rule each (docs/rules.md §10 names them all)."""

from __future__ import annotations

from collections.abc import Callable

from deberc_net.game.rules import Settings
from deberc_net.plugins.hookspecs import RuleInfo, hookimpl
from deberc_net.plugins.summaries_ru import SUMMARIES_RU


class Switch:
    """An option whose whole effect is one change to ``Settings``."""

    def __init__(
        self,
        name: str,
        summary: str,
        change: Callable[[Settings], None],
        players: tuple[int, ...] = (2, 3, 4),
        conflicts: tuple[str, ...] = (),
        summary_ru: str | None = None,  # None: the shipped one of that name
        needs_bidding: bool = False,  # it acts through the bidding or its player
    ) -> None:
        self.name = name
        self.summary = summary
        self.summary_ru = SUMMARIES_RU[name] if summary_ru is None else summary_ru
        self.change = change
        self.players = players
        self.conflicts = conflicts
        self.needs_bidding = needs_bidding

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name=self.name,
            kind="option",
            summary=self.summary,
            players=self.players,
            conflicts=self.conflicts,
            summary_ru=self.summary_ru,
            needs_bidding=self.needs_bidding,
        )

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        self.change(settings)


def set_settings(**values: object) -> Callable[[Settings], None]:
    """A Switch's change: set these fields of ``Settings``."""

    def change(settings: Settings) -> None:
        for name, value in values.items():
            setattr(settings, name, value)

    return change


COMMITMENT = Switch(
    "commitment",
    "The dealer may not pass in round two: he must name a suit (seed 003 'with "
    "commitment', seed 004 'Mandated').",
    set_settings(commitment=True),
    needs_bidding=True,
)
BELLA_AFTER_TRICK = Switch(
    "bella-after-trick",
    "Bella may be declared only after its owner himself has taken a trick (seed 004); "
    "his partner's trick does not count.",
    set_settings(bella_after_trick=True),
)
FRESA_HIDDEN = Switch(
    "fresa-hidden", "The fresa is not shown.", set_settings(fresa_visible=False), players=(2, 3)
)
SEVEN_SWAP_OFF = Switch(
    "seven-swap-off",
    "The trump seven may not be swapped for the turned card.",
    set_settings(seven_swap=False),
    players=(2, 3),
)
PLAYER_LEADS = Switch(
    "player-leads",
    "The player who ordered the game leads the first trick (seed 004).",
    set_settings(player_leads=True),
    needs_bidding=True,
)
PARTNER_EXEMPTION = Switch(
    "partner-exemption",
    "When your partner holds the trick you must follow suit but need neither trump nor overtrump.",
    set_settings(partner_exemption=True),
    players=(4,),
)
SEQUENCE_BY_STRENGTH = Switch(
    "sequence-by-strength",
    "Sequences are read in play-strength order (e.g. K 10 A is a terts), as one "
    "online service does (seed 004).",
    set_settings(sequence_by_strength=True),
)
TABLE_PENALTIES = Switch(
    "table-penalties",
    "Penalties instead of refusals (as the seeds play): a renonce, a false declaration, "
    "a forbidden seven swap or a rost? without a combination of that length is a bide on "
    "cards; a longer combination asked about with rost? is lost.",
    set_settings(table_penalties=True),
)
MANUAL_CLAIM = Switch(
    "manual-claim",
    "Claiming the game is the player's own call ('konets') after a trick he took; a false "
    "claim loses the game. At the scoring the claim stays automatic.",
    set_settings(manual_claim=True, auto_claim=False),
)
PAIR_COMBINATIONS = Switch(
    "pair-combinations",
    "Four players: when a pair holds the best combination, both partners' sequences "
    "score (the belote habit; by default only the owner of the best scores).",
    set_settings(pair_combinations=True),
    players=(4,),
)
SHOW_COMBINATION = Switch(
    "show-combination",
    "The owner of the best declaration shows it with the first card he plays after "
    "declaring it (Deberts: his first card; Tertz: at whichever trick he declared), "
    "without anyone asking 'pokazhi' (seed 004).",
    set_settings(show_combination=True),
)
SWAP_BEFORE_EXTRA = Switch(
    "swap-before-extra",
    "The trump seven is swapped before the last cards are dealt (seed 003 'до підйому "
    "карт прикупу'): after the order each seat in turn says 'menyayu' or 'ne-menyayu'.",
    set_settings(swap_before_extra=True),
    players=(2, 3),
    conflicts=("seven-swap-off", "poltinniki"),
    needs_bidding=True,
)

SWITCHES = (
    COMMITMENT,
    BELLA_AFTER_TRICK,
    FRESA_HIDDEN,
    SEVEN_SWAP_OFF,
    PLAYER_LEADS,
    PARTNER_EXEMPTION,
    SEQUENCE_BY_STRENGTH,
    TABLE_PENALTIES,
    MANUAL_CLAIM,
    PAIR_COMBINATIONS,
    SHOW_COMBINATION,
    SWAP_BEFORE_EXTRA,
)
