"""Turning a solved world into what the deal writes: the sides' final points (cards
from the solver, sequences and bella from the engine's state) scored by the table's own
rule plugins, then one number for our seat: what we write less what the others write.
"""

from __future__ import annotations

from collections.abc import Sequence

from deberc_net.game.cards import card_points
from deberc_net.game.combos import BELLA_POINTS, Combo, bella_cards
from deberc_net.game.deal import Deal
from deberc_net.game.rules import DealScore
from deberc_net.game.scoring import lead_order


def teams(deal: Deal, seat: int) -> list[int]:
    """0 for the seats playing with ``seat`` in this deal, 1 for the others. With three
    players the whistlers play together against the player."""
    if deal.players == 3 and deal.player is not None:
        mine = seat == deal.player
        return [0 if (x == deal.player) == mine else 1 for x in range(3)]
    side = deal.side_of(seat)
    return [0 if deal.side_of(x) == side else 1 for x in range(deal.players)]


def remaining_points(deal: Deal) -> int:
    assert deal.trump is not None
    cards = [c for h in deal.hands for c in h] + [c for _, c in deal.trick.cards]
    return sum(card_points(c, deal.trump) for c in cards) + deal.rules.settings.last_trick_bonus


def expected_combos(deal: Deal, declare: dict[int, bool] | None = None) -> list[int]:
    """Sequence points by side once the talk is over. Settled after the first trick;
    before it, seats that have not talked yet are assumed to declare what they hold
    (``declare`` overrides that for the seats it names)."""
    n_sides = len(deal.sides)
    if deal.tally.scoring_combos is not None:
        return deal.combo_points()
    declare = declare or {}
    speaking: list[int] = []
    for seat in range(deal.players):
        silent_so_far = seat not in deal.talk.window_hands and declare.get(seat, True)
        if seat in deal.declared_combos or (silent_so_far and deal.combos_of(seat)):
            speaking.append(seat)
    best_seat: int | None = None
    best_combo: Combo | None = None
    for seat in speaking:
        combo = deal.best_combo(seat)
        if combo is None:
            continue
        if (
            best_combo is None
            or best_seat is None
            or deal.beats(seat, combo, best_seat, best_combo)
        ):
            best_seat, best_combo = seat, combo
    out = [0] * n_sides
    if best_seat is None:
        return out
    winning_side = deal.side_of(best_seat)
    whistlers = deal.players == 3 and best_seat != deal.player  # their sequences add up
    pairs = deal.rules.settings.pair_combinations  # else only the owner's sequences
    for seat in speaking:
        if seat == best_seat:
            same = True
        elif whistlers:
            same = seat != deal.player
        else:
            same = pairs and deal.side_of(seat) == winning_side
        if same:
            out[deal.side_of(seat)] += sum(c.points for c in deal.combos_of(seat))
    return out


def expected_bella(deal: Deal) -> list[int]:
    """Bella: declared, or still to be declared by an owner who holds K or Q."""
    out = deal.bella_points()
    owner = deal.bella_owner
    if (
        owner is not None
        and not deal.bella_declared
        and deal.trump is not None
        and any(c in deal.hands[owner] for c in bella_cards(deal.trump))
    ):
        out[deal.side_of(owner)] += BELLA_POINTS
    return out


def written_value(
    deal: Deal, seat: int, future: float, combos: Sequence[int] | None = None
) -> float:
    """What ``seat`` gains relative to the others if the rest of the deal brings
    ``seat``'s team ``future`` card points more than the other team (the solver's value)."""
    return lead(written_points(deal, seat, future, combos), deal.side_of(seat))


def lead(written: Sequence[float], mine: int) -> float:
    """What side ``mine`` writes less what the other sides write on average."""
    others = [written[i] for i in range(len(written)) if i != mine]
    return written[mine] - sum(others) / max(1, len(others))


def written_points(
    deal: Deal, seat: int, future: float, combos: Sequence[int] | None = None
) -> list[int]:
    """What each side writes if the rest of the deal brings ``seat``'s team ``future``
    card points more than the other team (the solver's value)."""
    team = teams(deal, seat)
    n_sides = len(deal.sides)
    rest = remaining_points(deal)
    share = [0.0, 0.0]
    share[0] = (rest + future) / 2
    share[1] = (rest - future) / 2
    members = [[x for x in range(deal.players) if team[x] == t] for t in (0, 1)]
    combo_pts = list(combos) if combos is not None else expected_combos(deal)
    bella = expected_bella(deal)
    points = [float(deal.tally.card_points[i] + combo_pts[i] + bella[i]) for i in range(n_sides)]
    for t in (0, 1):
        sides = sorted({deal.side_of(x) for x in members[t]})
        for side in sides:
            points[side] += share[t] / len(sides)
    return score_points(deal, points, combo_pts, bella)


def score_points(
    deal: Deal, points: Sequence[float], combo_pts: Sequence[int], bella: Sequence[int]
) -> list[int]:
    """What each side writes when the deal ends with ``points`` by side (cards,
    sequences and bella), scored by the table's own rule plugins."""
    n_sides = len(deal.sides)
    rounded = [round(p) for p in points]
    player_side = deal.side_of(deal.player) if deal.player is not None else -1
    last = max(range(n_sides), key=lambda i: rounded[i])
    score = DealScore(
        sides=deal.sides,
        player_side=player_side,
        points=rounded,
        card_points=[int(p) for p in points],
        combo_points=list(combo_pts),
        bella_points=list(bella),
        tricks_taken=[1] * n_sides,
        last_trick_side=last,
        hanging_in=deal.hanging_in,
        hanging_pending=list(deal.hanging_pending),
        bides_before=list(deal.bides_before),
        lead_order=lead_order(deal),  # a bide's odd point goes by it
        hanging_out=deal.hanging_in,
    )
    deal.rules.score_deal(score)
    return list(score.written or rounded)
