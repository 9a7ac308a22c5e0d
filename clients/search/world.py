"""Sampled worlds: hidden hands dealt consistently with everything public to one seat,
checked by replaying the deal's public calls through the engine itself.

What the seat knows is gathered into ``Knowledge``: its own cards, the cards seen (played,
turned, fresa, shown), the cards whose owner is known (a shown combination, a swapped
turned card, the turned card in the dealer's hand with four players, bella's K and Q),
and what the play revealed: a void (not following suit, not trumping) or a trump cap
(a trump played under the table's highest one, so nothing above it is held). A sample
deals the unknown cards around those constraints; the engine's replay of the public
calls then rejects whatever else does not fit (a declaration, a ``rost?`` answer, a
``prokhodit`` reply, bella).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence

import attrs

from clients.heuristic_bot import ORDER_THRESHOLD, hand_strength
from clients.protocol import View
from deberc_net.game import calls as C
from deberc_net.game.cards import KING, QUEEN, SEVEN, SUITS, TRUMP_STRENGTH, make, parse_card
from deberc_net.game.combos import FIFTY, TERTS, find_sequences
from deberc_net.game.deal import DONE, Deal
from deberc_net.game.errors import IllegalCall
from deberc_net.game.rules import RuleSet

from . import clock
from .history import DealHistory

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
UNLIKELY_BID = 0.25  # keep-or-reject (``bid_scale`` 0): a world against the model kept so often
# How sharply a seat's bid follows its hand's strength above the heuristic bot's order
# threshold: the chance it orders is a logistic of that margin over this scale (points of
# hand strength); and how often a bid goes against any hand (other players differ).
BID_SCALE = 6.0
BID_FLOOR = 0.08
TALK_TRIES = 20  # samples drawn for one world until they keep the talk true


def bit(card: int) -> int:
    return 1 << card


@attrs.define
class Knowledge:
    """Everything public to ``seat`` about the deal's hidden cards."""

    seat: int
    players: int
    dealer: int
    turned: int  # as turned at the deal
    trump: int | None
    ordered: bool
    fresa: int | None
    my_hand: list[int]
    played: list[list[int]]  # by seat, in order
    must_hold: list[int]  # masks by seat: cards known to be (still) in that hand
    forbid: list[int]  # masks by seat: cards that seat cannot hold
    sizes: list[int]  # cards each seat holds now
    talon_size: int
    swapped_by: int | None
    unknown: int  # mask of cards whose place is not known
    # what each seat said it holds: (run length, how many, top rank or None, trump or
    # None when not told), for planting such runs in the samples
    claims: dict[int, list[tuple[int, int, int | None, bool | None]]] = attrs.Factory(dict)
    # masks by seat (or empty: none): cards a seat held when it declared and has since
    # put elsewhere than on a trick (Tertz: the trump seven swapped after a terts), so a
    # run it claimed may still be made of them
    parted: list[int] = attrs.Factory(list)
    # by seat: the category and count it declared (terts, dva-tertsa, pyatdesyat …):
    # the engine offers the declaration the hand makes, so the cards held then make
    # exactly that many of that category and none better
    declared: dict[int, tuple[int, int]] = attrs.Factory(dict)


def knowledge(view: View, history: DealHistory, rules: RuleSet) -> Knowledge:
    """Read the view and the public calls of the deal into constraints."""
    s = rules.settings
    n = s.players
    seat = view.seat
    assert seat is not None
    turned = parse_card(history.turned)
    trump = SUITS.index(view.trump) if view.trump else None
    ordered = trump is not None
    sides = s.sides()
    side_of = {x: i for i, side in enumerate(sides) for x in side}
    my_hand = [parse_card(c) for c in view.hand]
    played: list[list[int]] = [[] for _ in range(n)]
    forbid = [0] * n
    must = [0] * n
    swapped_by = None
    bella_seat = None
    trick: list[tuple[int, int]] = []
    claims: dict[int, list[tuple[int, int, int | None, bool | None]]] = {}
    best_category = 0
    declared: dict[int, tuple[int, int]] = {}
    for who, token in history.calls:
        best_category = _note_claim(claims, who, token, best_category)
        if (said := _declaration(token)) is not None:
            declared[who] = said
        if token == C.MENYAYU:
            swapped_by = who
        elif token == C.BELLA:
            bella_seat = who
        if not (token[0].isdigit() or token[0] in "JQKA"):
            continue
        card = parse_card(token)
        if trick and trump is not None:
            forbid[who] |= _revealed(trick, who, card, trump, s.partner_exemption, side_of)
        trick.append((who, card))
        played[who].append(card)
        if len(trick) == n:
            trick = []
    seen = 0
    for cards in played:
        for c in cards:
            seen |= bit(c)
    for c in my_hand:
        seen |= bit(c)
    fresa = parse_card(view.fresa) if view.fresa else None
    seen |= bit(turned)
    if ordered and trump is not None:
        seven = make(SEVEN, trump)
        if swapped_by is not None and swapped_by != seat:
            if turned not in played[swapped_by]:
                must[swapped_by] |= bit(turned)
            seen |= bit(seven)  # the seven lies face up
        elif swapped_by == seat:
            seen |= bit(seven)
        if s.turned_to_dealer and history.dealer != seat and turned not in played[history.dealer]:
            must[history.dealer] |= bit(turned)
        if fresa is not None:
            seen |= bit(fresa)
        if bella_seat is not None and bella_seat != seat:
            for c in (make(KING, trump), make(QUEEN, trump)):
                if not (seen >> c & 1) and not any(c in p for p in played):
                    must[bella_seat] |= bit(c)
    for shown in view.raw.get("shown", "").split(","):
        if ":" in shown:  # seat:card
            who_text, _, card_text = shown.partition(":")
            card = parse_card(card_text)
            who = int(who_text)
            if who != seat and not any(card in p for p in played):
                must[who] |= bit(card)
    for who in range(n):
        seen |= must[who]
    hand_size = s.hand_size if ordered else sum(s.deal_before)
    sizes = [hand_size - len(played[x]) for x in range(n)]
    in_hands = sum(sizes) - len(my_hand)
    unknown = ((1 << 32) - 1) & ~seen
    talon_size = bin(unknown).count("1") - (
        in_hands - sum(bin(m).count("1") for x, m in enumerate(must) if x != seat)
    )
    return Knowledge(
        seat=seat,
        players=n,
        dealer=history.dealer,
        turned=turned,
        trump=trump,
        ordered=ordered,
        fresa=fresa,
        my_hand=my_hand,
        played=played,
        must_hold=must,
        forbid=forbid,
        sizes=sizes,
        talon_size=talon_size,
        swapped_by=swapped_by,
        unknown=unknown,
        claims={x: c for x, c in claims.items() if x != seat},
        declared={x: d for x, d in declared.items() if x != seat},
    )


def _declaration(token: str) -> tuple[int, int] | None:
    """A declaration's category (3 a terts, 4 a fifty) and count; None for any other call."""
    if not token.endswith(("terts", "tertsa", "pyatdesyat")):
        return None
    call = C.parse_token(token)
    return (TERTS if call.name == C.TERTS else FIFTY), call.count


def _note_claim(
    claims: dict[int, list[tuple[int, int, int | None, bool | None]]],
    who: int,
    token: str,
    best: int,
) -> int:
    """Read one talk call into ``claims``; returns the category now on the table."""
    if (said := _declaration(token)) is not None:
        category, count = said
        claims[who] = [(category, count, None, None)]
        return category
    if token == C.ROST and best:
        claims[who] = [(best, 1, None, None)]
    elif token.startswith("ot-") and who in claims:
        call = C.parse_token(token)
        category, count, _, _ = claims[who][0]
        # the answer names the best of its runs only: any others are of the same length
        best_run = (category, 1, call.rank, call.trump)
        claims[who] = [best_run] if count == 1 else [best_run, (category, count - 1, None, None)]
    return best


def _revealed(
    trick: Sequence[tuple[int, int]],
    who: int,
    card: int,
    trump: int,
    exemption: bool,
    side_of: dict[int, int],
) -> int:
    """Cards ``who`` cannot hold, having played ``card`` onto ``trick``."""
    led = trick[0][1] >> 3
    suit = card >> 3
    if exemption:
        from deberc_net.game.play import trick_winner

        if side_of[trick_winner(trick, trump)] == side_of[who]:
            return SUIT_MASK[led] if suit != led else 0
    out = 0
    if suit != led:
        out |= SUIT_MASK[led]
        if suit != trump:
            out |= SUIT_MASK[trump]
    if suit == trump:
        top = max((TRUMP_STRENGTH[c & 7] for _, c in trick if c >> 3 == trump), default=-1)
        if TRUMP_STRENGTH[card & 7] < top:  # could not overtrump: nothing above
            out |= sum(bit(make(r, trump)) for r in range(8) if TRUMP_STRENGTH[r] > top)
    return out


def sample_hands(k: Knowledge, rng: random.Random, tries: int = 50) -> list[list[int]] | None:
    """Deal the unknown cards: each other seat gets what it must hold plus random cards
    it may hold, up to its size; the rest is the talon. None if no deal fits."""
    n = k.players
    others = [x for x in range(n) if x != k.seat]
    unknown = [c for c in range(32) if k.unknown >> c & 1]
    for _ in range(tries):
        planted = _plant(k, rng)
        if planted is None:
            continue
        pool = [c for c in unknown if not any(p >> c & 1 for p in planted)]
        rng.shuffle(pool)
        hands = [[c for c in range(32) if (k.must_hold[x] | planted[x]) >> c & 1] for x in range(n)]
        hands[k.seat] = list(k.my_hand)
        room = {x: k.sizes[x] - len(hands[x]) for x in others}
        if any(v < 0 for v in room.values()):
            continue

        # most constrained cards first: those fewest seats may hold
        def options(c: int) -> list[int]:
            return [x for x in others if not (k.forbid[x] >> c & 1)]

        ranked = sorted(pool, key=lambda c: len(options(c)))
        talon_room = k.talon_size
        ok = True
        for c in ranked:
            places = [x for x in options(c) if room[x] > 0]
            total = sum(room[x] for x in places) + talon_room
            if total <= 0:
                ok = False
                break
            pick = rng.randrange(total)
            for x in places:
                if pick < room[x]:
                    hands[x].append(c)
                    room[x] -= 1
                    break
                pick -= room[x]
            else:
                talon_room -= 1
        if ok and all(v == 0 for v in room.values()):
            return hands
    return None


def _held_as_said(k: Knowledge, hands: list[list[int]], by_strength: bool) -> bool:
    """Whether the sampled hands keep every seat's talk true: what a seat held when it
    talked (its hand and the cards it has played since: a Deberts declaration comes
    before the seat's first card) makes its best category the one it declared or asked
    ``rost?`` on, and a declaration's count. A planted run with a card beside it
    (played, or dealt at random) would make a longer one, and the replay refuse the
    declaration."""
    for seat, claims in k.claims.items():
        combos = find_sequences(hands[seat] + k.played[seat], k.trump, by_strength)
        category = claims[0][0]
        if max((c.category for c in combos), default=0) != category:
            return False
        said = k.declared.get(seat)
        if said is not None and sum(c.category == category for c in combos) != said[1]:
            return False
    return True


def _plant(k: Knowledge, rng: random.Random) -> list[int] | None:
    """For each seat that declared (or asked ``rost?``), cards of a run it could hold:
    unknown cards it may hold, or cards it played (or parted with) since. None if none
    fits."""
    planted = [0] * k.players
    taken = 0
    for seat, claims in k.claims.items():
        played = sum(bit(c) for c in k.played[seat]) | (k.parted[seat] if k.parted else 0)
        free = (k.unknown & ~k.forbid[seat]) | k.must_hold[seat]
        for length, count, top, trump in claims:
            for _ in range(count):
                runs = []
                for suit in range(4):
                    if trump is not None and k.trump is not None and (suit == k.trump) != trump:
                        continue
                    for low in range(0, 9 - length):
                        if top is not None and low + length - 1 != top:
                            continue
                        cards = [make(r, suit) for r in range(low, low + length)]
                        ok = all(((free | played) >> c & 1) and not (taken >> c & 1) for c in cards)
                        if ok:
                            runs.append(cards)
                if not runs:
                    return None
                run = rng.choice(runs)
                for c in run:
                    taken |= bit(c)
                    if not played >> c & 1:
                        planted[seat] |= bit(c)
    return planted


def build_deal(
    k: Knowledge,
    hands: list[list[int]],
    history: DealHistory,
    rules: RuleSet,
    view: View,
    rng: random.Random,
    bid_scale: float = BID_SCALE,
    weigh_bids: bool = True,
) -> Deal | None:
    """The deal with these hands, its public calls replayed; None if one is refused
    (or, ``weigh_bids``, drawn against the bids' likelihood)."""
    s = rules.settings
    n = k.players
    before_n = sum(s.deal_before)
    full = [list(hands[x]) + list(k.played[x]) for x in range(n)]
    if k.swapped_by is not None and k.trump is not None:
        # the swapper was dealt the seven, not the turned card
        h = full[k.swapped_by]
        h.remove(k.turned)
        h.insert(0, make(SEVEN, k.trump))  # among the first cards: a swap may come early
    if s.turned_to_dealer and k.ordered:
        full[k.dealer].remove(k.turned)
    used = {c for h in full for c in h} | {k.turned}
    rest = [c for c in range(32) if c not in used]
    rng.shuffle(rest)  # before the order, the talon's order decides who gets what
    if k.fresa is not None and k.ordered:
        rest.remove(k.fresa)
        rest.append(k.fresa)
    befores = [h[:before_n] for h in full]
    if weigh_bids and not _bids_plausible(k, befores, history, rng, bid_scale):
        return None
    afters = [h[before_n:] for h in full]
    deck: list[int] = []
    for size in s.deal_before:
        for i in range(1, n + 1):
            x = (k.dealer + i) % n
            deck.extend(befores[x][:size])
            befores[x] = befores[x][size:]
    deck.append(k.turned)
    if k.ordered:
        for r, size in enumerate(s.deal_after):
            for i in range(1, n + 1):
                x = (k.dealer + i) % n
                take = size - (
                    1 if s.turned_to_dealer and x == k.dealer and r == len(s.deal_after) - 1 else 0
                )
                deck.extend(afters[x][:take])
                afters[x] = afters[x][take:]
    deck.extend(rest)
    try:
        deal = Deal(
            rules=rules,
            deal_no=history.deal,
            dealer=k.dealer,
            deck=tuple(deck),
            seed="sample",
            totals_before=tuple(view.score),
            hanging_in=view.hanging,
        )
    except ValueError:
        return None
    if not replay(deal, history.calls):
        return None
    # a world where the deal ended (a claim with sequences the seat cannot see) or
    # waits for someone else is not the one the seat is in
    if deal.phase == DONE or deal.to_act != view.to_act:
        return None
    return deal


def bid_likelihood(margin: float, ordered: bool, scale: float) -> float:
    """How likely a seat whose hand is ``margin`` points of strength above the order
    threshold made this bid: 1 or ``UNLIKELY_BID`` by the threshold alone (``scale``
    0), else a logistic of the margin, never below ``BID_FLOOR``."""
    if scale <= 0:
        return 1.0 if (margin >= 0) == ordered else UNLIKELY_BID
    orders = 1 / (1 + math.exp(-max(-50.0, min(50.0, margin / scale))))
    return max(BID_FLOOR, orders if ordered else 1 - orders)


def _bids_plausible(
    k: Knowledge,
    befores: list[list[int]],
    history: DealHistory,
    rng: random.Random,
    scale: float = BID_SCALE,
) -> bool:
    """Would the other seats have bid as they did with these cards? The model is the
    heuristic bot's hand strength; each bid keeps the world with the likelihood of that
    bid from that hand (``bid_likelihood``), so the samples are drawn in proportion to
    how well they explain the bids."""
    turned_suit = k.turned >> 3
    bids = [(seat, t) for seat, t in history.calls if t == C.PAS or t.startswith(C.IGRAYU)]
    for i, (seat, token) in enumerate(bids):
        if seat == k.seat:
            continue
        hand = befores[seat]
        if i < k.players:  # round one: the turned suit
            strength = hand_strength([*hand, k.turned], turned_suit) - 5
        else:
            named = [s for s in range(4) if s != turned_suit]
            if token.startswith("igrayu-"):
                named = [SUITS.index(token[-1])]
            strength = max(hand_strength(hand, s) for s in named)
        keep = bid_likelihood(strength - ORDER_THRESHOLD, token != C.PAS, scale)
        if keep < 1 and rng.random() > keep:
            return False
    return True


def replay(deal: Deal, calls: Sequence[tuple[int, str]]) -> bool:
    """Apply the public calls; False as soon as one does not fit this deal. A call is
    matched against the engine's legal calls by its token, so a rule plugin's own calls
    replay too."""
    for seat, token in calls:
        call = next((c for c in deal.legal_calls(seat) if c.token() == token), None)
        if call is None:
            if token == C.POKAZYVAYU:
                continue  # made by the engine after the card a 'skin' called for
            return False
        try:
            deal.apply(seat, call)
        except IllegalCall:
            return False
        if deal.phase == DONE:
            return True
    return True


def worlds(
    view: View,
    history: DealHistory,
    rules: RuleSet,
    rng: random.Random,
    count: int,
    attempts: int = 6,
    deadline: float | None = None,
    bid_scale: float = BID_SCALE,
) -> Iterator[Deal]:
    """Up to ``count`` sampled deals consistent with the seat's view, made one at a time
    (the caller may stop early); after ``deadline`` (``clock.now``) no more are
    made once there is one. If the bids' likelihood rejects every try (many unlikely
    bids), the worlds are drawn without it: a world that fits the calls beats none."""
    k = knowledge(view, history, rules)
    by_strength = rules.settings.sequence_by_strength
    made = 0
    for weigh_bids in (True, False):
        for _ in range(count * attempts):
            if made and deadline is not None and clock.now() > deadline:
                return
            hands = sample_hands(k, rng)
            if hands is None:
                return
            for _ in range(TALK_TRIES):  # cheap beside a deal's replay: try again here
                if _held_as_said(k, hands, by_strength):
                    break
                hands = sample_hands(k, rng) or hands
            deal = build_deal(k, hands, history, rules, view, rng, bid_scale, weigh_bids)
            if deal is not None:
                yield deal
                made += 1
                if made >= count:
                    return
        if made:
            return
