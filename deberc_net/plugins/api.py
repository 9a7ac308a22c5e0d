"""What a rule plugin may use on a deal: ``PluginDeal``, a typed ``Protocol``.

The hooks that receive a deal (``deberc_combo_winners``, ``deberc_extra_calls``,
``deberc_deal_event``, ``deberc_apply_extra_call``) are annotated with it, so a type
checker holds a plugin to this surface and not to the engine's ``Deal`` with its many
private fields. The engine's ``Deal`` satisfies it (the manager checks so under mypy, and
tests/plugins checks it at run time). Everything not listed here may change without
notice.

Read-only members are properties; ``pending`` may be set (to make a seat answer before
play goes on) and ``extra`` is the plugin's own per-deal room.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from deberc_net.game.cards import Card
from deberc_net.game.combos import Combo
from deberc_net.game.deal import Declaration, Pending, Trick
from deberc_net.game.rules import RuleSet


@runtime_checkable
class PluginDeal(Protocol):
    """One deal as a rule plugin sees it. docs/plugins.md lists when each hook sees it."""

    @property
    def rules(self) -> RuleSet:
        """The table's rules: ``rules.options`` (names), ``rules.settings``."""

    @property
    def players(self) -> int: ...

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side: one seat each, or pairs across with four players."""

    def side_of(self, seat: int) -> int: ...

    @property
    def phase(self) -> str:
        """``bidding``, ``ordered``, ``play`` or ``done`` (deberc_net.game.phases)."""

    @property
    def turn(self) -> int:
        """The seat whose turn it is to bid or play. While a question is pending its
        ``answerer`` acts first: the seat the deal waits for is ``to_act``."""

    @property
    def to_act(self) -> int | None:
        """The seat the deal waits for now: a pending question's ``answerer``, else
        ``turn``; None once the deal is over."""

    @property
    def player(self) -> int | None:
        """The seat that ordered the game, once somebody has."""

    @property
    def trump(self) -> int | None: ...

    @property
    def hands(self) -> Sequence[Sequence[Card]]:
        """Every seat's cards now (a plugin is trusted: it runs in the server)."""

    @property
    def tricks(self) -> Sequence[Trick]:
        """The finished tricks, in order."""

    @property
    def trick(self) -> Trick:
        """The trick being played: its leader and the ``(seat, card)`` pairs so far."""

    @property
    def best(self) -> Declaration | None:
        """The best declaration so far: its seat, category and combination."""

    @property
    def talked(self) -> set[int]:
        """The seats that took part in the table talk of declarations."""

    def combos_of(self, seat: int) -> list[Combo]:
        """The seat's sequence combinations (as declared, once declared)."""

    def deal_points(self) -> list[int]:
        """Each side's points so far: combinations, bella, cards, the last trick."""

    # What a plugin may change.
    pending: Pending | None
    """Set ``Pending(kind, asker, answerer)`` to make ``answerer`` answer first; its
    answers come from the plugin's ``deberc_extra_calls``. Set None when answered."""

    @property
    def extra(self) -> dict[str, Any]:
        """The plugins' per-deal state; the key ``"stake"`` is read into
        ``DealScore.stake``. Keep state here, never on the plugin object."""

    def continue_after_order(self) -> None:
        """With ``settings.pause_after_order``: deal the last cards and go on."""

    def end_deal(
        self,
        outcome: str,
        points: list[int],
        written: list[int],
        *,
        winner: int | None = None,
        reason: str = "",
        played: bool = False,
    ) -> None:
        """End the deal now; each side writes ``written``. ``winner`` (a side) ends the
        match too, for ``reason``; ``played``: not a void deal, so the points hanging
        into it go to the side that writes more (docs/rules.md §5)."""
