"""The heuristic bot: bids by hand strength, declares, plays the table talk sensibly and
follows basic card-play sense (win cheap, keep trumps, take points when it can).

    python -m clients.heuristic_bot --name h1 [--host --port --seek "2"]
"""

from __future__ import annotations

from deberc_net.game.cards import (
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    SUITS,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
    parse_card,
)
from deberc_net.game.combos import find_sequences

from .client import Brain, bot_arguments, run_bot
from .protocol import View

ORDER_THRESHOLD = 42  # expected points from trumps and aces that make a game worth ordering
DECLARATIONS = ("terts", "tertsa", "pyatdesyat")
HUNDREDS = ("sto-", "dvesti")  # Tertz's higher declarations (docs/rules.md, Tertz)


def hand_strength(cards: list[int], trump: int) -> int:
    score = 0
    trumps = 0
    for card in cards:
        if card >> 3 == trump:
            trumps += 1
            score += TRUMP_POINTS[card & 7]
        elif card & 7 == 7:  # a plain ace is nearly a sure trick
            score += 11
        elif card & 7 == 3:
            score += 4
    combos = sum(c.points for c in find_sequences(cards, trump))
    return score + 6 * max(0, trumps - 2) + combos // 2


def choose(view: View) -> str:
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    hand = [parse_card(c) for c in view.hand]
    if view.phase == "bidding":
        return _bid(view, hand)
    for wanted in ("skin", "igraem", "prinimayu", "pokazyvayu"):
        if wanted in legal:
            return wanted
    answers = [t for t in legal if t.startswith("ot-")]
    if answers:
        return answers[0]  # our combination is better: say so
    if "pishet" in legal:
        return "pishet"
    for token in legal:
        if (
            token.endswith(DECLARATIONS)
            or token.startswith(HUNDREDS)
            or token in ("rost?", "bella")
        ):
            return token
    if "menyayu" in legal and _swap_helps(view, hand):
        return "menyayu"
    cards = [t for t in legal if t[0].isdigit() or t[0] in "JQKA"]
    if cards:
        return _card(view, hand, cards)
    passive = [t for t in legal if t not in ("konets", "dave", "chetyre-semerki", "pokazhi")]
    return (passive or legal)[0]


def _bid(view: View, hand: list[int]) -> str:
    legal = view.legal
    if "igrayu" in legal and view.turned is not None:
        trump = SUITS.index(view.turned[-1])
        worth = hand_strength([*hand, parse_card(view.turned)], trump) - 5
        return "igrayu" if worth >= ORDER_THRESHOLD else "pas"
    named = [t for t in legal if t.startswith("igrayu-")]
    if not named:
        return "pas" if "pas" in legal else legal[0]
    best = max(named, key=lambda t: hand_strength(hand, SUITS.index(t[-1])))
    if "pas" not in legal or hand_strength(hand, SUITS.index(best[-1])) >= ORDER_THRESHOLD:
        return best
    return "pas"


def _swap_helps(view: View, hand: list[int]) -> bool:
    if view.turned is None or view.trump is None:
        return False
    trump = SUITS.index(view.trump)
    seven = trump * 8
    swapped = [c for c in hand if c != seven] + [parse_card(view.turned)]
    before = sum(c.points for c in find_sequences(hand, trump))
    after = sum(c.points for c in find_sequences(swapped, trump))
    return after >= before


def _strength(card: int, trump: int, led: int) -> int:
    if card >> 3 == trump:
        return 100 + TRUMP_STRENGTH[card & 7]
    if card >> 3 == led:
        return PLAIN_STRENGTH[card & 7]
    return -1


def _points(card: int, trump: int) -> int:
    return TRUMP_POINTS[card & 7] if card >> 3 == trump else PLAIN_POINTS[card & 7]


def _keep_value(card: int, trump: int) -> float:
    """How much we would rather keep a card: points, and trumps above all."""
    bonus = 30 if card >> 3 == trump else 0
    strength = TRUMP_STRENGTH if card >> 3 == trump else PLAIN_STRENGTH
    return _points(card, trump) + bonus + strength[card & 7] * 0.1


def _card(view: View, hand: list[int], tokens: list[str]) -> str:
    trump = SUITS.index(view.trump) if view.trump else -1
    options = [parse_card(t) for t in tokens]
    by_card = dict(zip(options, tokens, strict=True))
    trick = [parse_card(c) for c in view.trick]
    if not trick:
        aces = [c for c in options if c & 7 == 7 and c >> 3 != trump]
        if aces:
            return by_card[aces[0]]
        trumps = [c for c in options if c >> 3 == trump]
        jack = trump * 8 + 4
        if jack in trumps and len(trumps) >= 3:
            return by_card[jack]
        return by_card[min(options, key=lambda c: _keep_value(c, trump))]
    led = trick[0] >> 3
    top = max(_strength(c, trump, led) for c in trick)
    at_stake = sum(_points(c, trump) for c in trick)
    winners = [c for c in options if _strength(c, trump, led) > top]
    seats = view.players
    last_to_play = len(trick) == seats - 1 or len(view.hand) == 1
    if winners and (last_to_play or at_stake >= 10 or len(view.hand) == 1):
        cheapest = min(winners, key=lambda c: _keep_value(c, trump))
        return by_card[cheapest]
    return by_card[min(options, key=lambda c: _keep_value(c, trump))]


def brain(name: str, seed: str | None) -> Brain:
    """The bot's decisions, for a ladder's in-process bots (docs/bots.md): it has no
    randomness, so neither the name nor the seed changes them."""
    return Brain(choose)


def main() -> None:
    args = bot_arguments(__doc__ or "").parse_args()
    stats = run_bot(choose, args)
    print(f"{args.name}: {stats.said()}")


if __name__ == "__main__":
    main()
