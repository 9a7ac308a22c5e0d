"""The table's resolved rule set: what the engine asks of the rule plugins.

``Settings`` holds every rule that is a plain value (targets, dealing pattern, switches);
plugins set it once at table creation. ``RuleSet`` adds the few rules that are behaviour
(how combinations compare, how a deal is scored, who deals next, when the match ends).
The engine only ever talks to a ``RuleSet``; ``deberc_net.plugins`` builds one from the
pluggy hooks, so the engine never sees pluggy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from .combos import Combo

if TYPE_CHECKING:
    from .calls import Call
    from .deal import Deal


@attrs.define
class Settings:
    """Plain-valued rules. Defaults are neutral; the builtin plugin sets the Moscow ones."""

    players: int = 2
    target: int | None = 501
    auto_claim: bool = True
    deal_before: tuple[int, ...] = (3, 3)  # cards per seat per round before the order
    deal_after: tuple[int, ...] = (3,)  # after the order
    turned_to_dealer: bool = False  # 4 players: the turned card joins the dealer's hand
    fresa: bool = True
    fresa_visible: bool = True
    seven_swap: bool = True
    four_sevens: bool = True
    commitment: bool = False
    player_leads: bool = False
    sequence_by_strength: bool = False
    bella_after_trick: bool = False
    last_trick_bonus: int = 10
    hanging_accumulate: bool = True  # variant A: two hanging bides play for both sums
    partnerships: bool = False  # 4 players: seats 0+2 and 1+3 are sides
    partner_exemption: bool = False  # no duty to trump or overtrump a partner's trick
    manual_claim: bool = False  # 'konets' is the seat's own call; a false claim loses
    table_penalties: bool = False  # the seeds' penalties instead of refusals
    pause_after_order: bool = False  # a plugin acts between the order and the last cards
    combos_need_trick: bool = False  # a seat's sequences count only if he took a trick
    pair_combinations: bool = False  # 4 players: both partners' sequences score
    show_combination: bool = False  # the best declaration goes face up with its first card
    swap_before_extra: bool = False  # the seven swap is made before the last cards
    stake: int | None = None  # what each player puts in for the match (seed 004's ante)
    # the most points win the deal whoever ordered (the short games without a bide,
    # docs/rules.md §11): its outcome tells only how the one who ordered fared, so
    # people are told the deal's winner instead
    deal_won_on_points: bool = False
    # a deal's stake (Deal.extra["stake"], 1 until raised) changes in play (dave): the
    # table tells it (docs/protocol.md §6.3 ``stake``), as it tells nothing elsewhere
    stake_in_play: bool = False
    # the call after which the new stake is told (dave's accepting answer)
    stake_raised_by: str = ""

    @property
    def hand_size(self) -> int:
        # 4 players: the turned card replaces one of the dealer's last cards, so every
        # hand holds what the rounds give (8), the dealer's included
        return sum(self.deal_before) + sum(self.deal_after)

    def sides(self) -> tuple[tuple[int, ...], ...]:
        if self.partnerships:
            half = self.players // 2
            return tuple(tuple(range(s, self.players, half)) for s in range(half))
        return tuple((s,) for s in range(self.players))

    def __setattr__(self, name: str, value: Any) -> None:
        """A setting a plugin misspells (``settings.last_trick_bonu = 0``) is named as
        a setting, with the one it most likely meant: the slots' own refusal names the
        class of the object (an option's copy is another class: plugins/assigned.py).
        Only assignments pass here (a rule set's making): reading a setting does not."""
        if name not in _SETTING_NAMES:
            raise AttributeError(no_such_setting(name), name=name, obj=self)
        object.__setattr__(self, name, value)


def no_such_setting(name: str) -> str:
    """``Settings has no setting 'x'``, with the setting ``name`` most likely means."""
    import difflib  # only when a plugin misspells a setting

    near = difflib.get_close_matches(name, sorted(_SETTING_NAMES), n=1)
    return f"Settings has no setting {name!r}" + (f" (did you mean {near[0]!r}?)" if near else "")


_SETTING_NAMES = frozenset(field.name for field in attrs.fields(Settings))


@attrs.define
class DealScore:
    """A finished deal handed to the scoring hooks; they fill in what is written.

    Everything is indexed by side (a seat, or a pair of partners in 4 players), but
    ``hanging_in`` (one sum) and ``stake``; ``written`` comes zeroed, one per side,
    for an outcome hook to fill (``score.written[side] = …``) or replace.
    """

    sides: tuple[tuple[int, ...], ...]
    player_side: int
    points: list[int]  # combinations + cards + last trick, adjusted by deberc_deal_points
    card_points: list[int]
    combo_points: list[int]  # sequences that scored
    bella_points: list[int]
    tricks_taken: list[int]
    last_trick_side: int
    hanging_in: int  # points hanging into this deal from earlier hanging bides
    hanging_pending: list[int]  # separate sums still waiting (option hanging-separate)
    bides_before: list[int]  # bides each side had before this deal
    lead_order: list[int] = attrs.Factory(list)  # sides in the order they play, leader first
    stake: int = 1  # short games: what one stake is worth now (dave raises it)
    # zeroed per side (a hook may assign by index; it was an empty list, docs/plugins.md)
    written: list[int] = attrs.Factory(lambda self: [0] * len(self.sides), takes_self=True)
    hanging_out: int = 0
    outcome: str = ""  # an Outcome (game/outcomes.py), or a plugin's own
    notes: list[str] = attrs.Factory(list)
    # a copy of the deal's ``extra`` (its plugins' own state: a call made in it): the
    # scoring hooks are handed no deal, and a rule written by its calls reads them here
    extra: Mapping[str, object] = attrs.Factory(dict)


@attrs.frozen
class MatchEnd:
    winner: int | None  # a side; None for a drawn match (a board played to a deal limit)
    reason: str  # outcomes.MatchEndReason, a deal's Outcome, a forfeit, or a plugin's own


@attrs.frozen
class MatchSnapshot:
    """What the match-end and next-dealer rules may look at after a deal."""

    totals: tuple[int, ...]
    target: int | None
    last_deal: DealScore | None
    dealer: int
    deal_no: int
    players: int


ComboKeyFn = Callable[[Combo, "int | None"], tuple[int, ...]]


@attrs.frozen
class RuleSet:
    """Everything the engine needs from the rules, resolved once per table."""

    settings: Settings
    variant: str
    options: tuple[str, ...]
    versions: dict[str, str]
    combo_key: ComboKeyFn
    combo_winners: Callable[[Deal], list[int]]
    score_deal: Callable[[DealScore], None]
    next_dealer: Callable[[MatchSnapshot], int]
    match_end: Callable[[MatchSnapshot], MatchEnd | None]
    extra_calls: Callable[[Deal, int], list[Call]] | None = None
    apply_extra_call: Callable[[Deal, int, Call], bool] | None = None
    deal_event: Callable[[Deal, str], None] | None = None
    describe: tuple[str, ...] = ()
    describe_ru: tuple[str, ...] = ()  # the same in Russian (a rule without: in English)
    call_aliases: Mapping[str, str] = attrs.Factory(dict)  # spoken word -> a plugin's call
    deal_class: type[Deal] | None = None  # a whole new game's deals; None: the engine's

    def record_fields(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "options": sorted(self.options),
            "rule_versions": dict(sorted(self.versions.items())),
        }
