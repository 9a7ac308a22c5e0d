"""Scripted deals for testing rule plugins (deberc-net ships it as pytest ships pytester).

A plugin's tests build the table's rules, script the cards, make the calls and check the
exact points, without a server::

    from deberc_net.testing import build_deck, build_ruleset, new_match, play, say

    rules = build_ruleset(options=["posled-20"])
    match = new_match(rules, build_deck(other="Jc 9c Ac 10s As Ks 7h 8h 7d",
                                        dealer="10c Kc Qs Js 9s Ah 10h Kh Qd", turned="8c"))
    say(match, 0, "igrayu")
    play(match, "Jc Kc 9c 10c ...")
    assert match.records[0]["points"] == [...]

``build_ruleset`` uses the installed rules (entry points), loaded once per test process,
plus any plugin objects you hand it in ``plugins=`` (a rule not yet packaged). Nothing
here needs pytest: a failed expectation raises ``AssertionError``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

import attr

from deberc_net.game.calls import Call, parse_token
from deberc_net.game.cards import DECK, Card, parse_card
from deberc_net.game.deal import Deal
from deberc_net.game.errors import IllegalCall
from deberc_net.game.match import Match
from deberc_net.game.record import deal_record, replay_matches
from deberc_net.game.rules import RuleSet
from deberc_net.plugins.manager import BUILTIN_VARIANT, RuleBook
from deberc_net.protocol.vocabulary import parse_call

__all__ = [
    "RECORD_KEYS",
    "assert_replays",
    "build_deck",
    "build_deck_n",
    "build_ruleset",
    "build_talon_deck",
    "cards",
    "legal",
    "new_deal",
    "new_match",
    "parse",
    "play",
    "refused",
    "rule_book",
    "say",
    "snapshot",
    "spoken",
    "tokens",
]

Deck = tuple[Card, ...]
# docs/records.md: the keys every deberc-deal/1 record carries (a plugin may add more)
RECORD_KEYS = frozenset(
    {
        "format",
        "table",
        "match",
        "deal_no",
        "seed",
        "variant",
        "options",
        "players",
        "dealer",
        "deck",
        "calls",
        "trump",
        "player",
        "tricks",
        "declared",
        "points",
        "written",
        "hanging",
        "totals",
        "outcome",
    }
)
_PLUGIN_CALL = re.compile(r"[a-z][a-z0-9?]*(-[a-z0-9?]+)*")


# ---------------------------------------------------------------------- rules
@functools.cache
def rule_book(*plugins: object) -> RuleBook:
    """The installed rules plus ``plugins`` (objects with ``deberc_`` hooks), loaded once
    per test process for each set of extra plugins. Raises PluginError like the server."""
    return RuleBook.load(extra=plugins)


def build_ruleset(
    players: int = 2,
    variant: str = BUILTIN_VARIANT,
    options: Iterable[str] = (),
    plugins: Sequence[object] = (),
) -> RuleSet:
    """A table's rules, exactly as the server resolves them (RuleError if refused)."""
    return rule_book(*plugins).ruleset(players, variant, options)


# ---------------------------------------------------------------------- cards and decks
def cards(text: str) -> list[Card]:
    """``"Js Qs 10h"`` -> cards (spaces or commas between)."""
    return [parse_card(t) for t in text.replace(",", " ").split()]


def build_deck(
    other: str | Iterable[str],
    dealer: str | Iterable[str],
    turned: str,
    fresa: str | None = None,
) -> Deck:
    """A 32-card deck for two players, dealer seat 1 (or 0: the same deck deals the same
    way), giving ``other`` (the dealer's opponent, who leads) and ``dealer`` these 9-card
    hands: the first 6 cards of each are dealt before the order, the last 3 after it.
    The talon is the remaining cards in deck order (7s first), the ``fresa`` last.

    Dealing (docs/rules.md 2): deck[0:3] -> other, [3:6] -> dealer, [6:9] -> other,
    [9:12] -> dealer, deck[12] is turned; after the order [13:16] -> other, [16:19] ->
    dealer; deck[31] is the fresa.
    """
    held = [_hand(other), _hand(dealer)]
    top = parse_card(turned)
    bottom = [parse_card(fresa)] if fresa is not None else []
    return _stack(held, 1, top, bottom)


def build_deck_n(
    hands: Sequence[str | Iterable[str]],
    dealer: int,
    turned: str,
    fresa: str | None = None,
) -> Deck:
    """A 32-card deck for 3 or 4 players giving seat ``i`` the hand ``hands[i]``.

    Dealing (docs/rules.md 2): from the seat left of the dealer, ``(dealer + 1) % n``, 3
    cards each, then 3 each again, the dealer last; the next card is turned. After the
    order: 3 players, 3 each; 4 players, 2 each except the dealer, who gets the turned
    card and 1 more. Then the talon (the remaining cards in deck order), the fresa last.

    Each hand is listed in dealing order: its first 6 cards come before the order, the
    rest after it. With 4 players the dealer's 8 cards include ``turned`` (anywhere);
    the other 7 are dealt in the order listed.
    """
    n = len(hands)
    if n not in (3, 4):
        raise ValueError(f"3 or 4 hands, got {n}")
    top = parse_card(turned)
    held = [_hand(spec, 9 if n == 3 else 8) for spec in hands]
    if n == 4:
        if top not in held[dealer]:
            raise ValueError("with 4 players the dealer's hand holds the turned card")
        held[dealer].remove(top)
    bottom = [parse_card(fresa)] if fresa is not None else []
    if n == 4 and bottom:
        raise ValueError("4 players: no talon, no fresa")
    return _stack(held, dealer, top, bottom)


def build_talon_deck(
    other: str | Iterable[str],
    dealer: str | Iterable[str],
    turned: str,
    talon: str | Iterable[str] = (),
) -> Deck:
    """A deck for two players of a game dealt 3, 3, 3 before the turned card, with the
    talon drawn from under it (Tertz): ``other`` (the dealer's opponent) and ``dealer``
    get these 9 cards, then ``turned``, then ``talon`` in drawing order (before any
    break), then the remaining cards in deck order."""
    held = [_hand(other), _hand(dealer)]
    first = cards(talon) if isinstance(talon, str) else [parse_card(t) for t in talon]
    top = parse_card(turned)
    used = [*held[0], *held[1], top, *first]
    if len(set(used)) != len(used):
        raise ValueError("a card is given twice")
    deck = [c for low in (0, 3, 6) for hand in held for c in hand[low : low + 3]]
    return tuple([*deck, top, *first, *(c for c in DECK if c not in used)])


def _stack(held: list[list[Card]], dealer: int, top: Card, bottom: list[Card]) -> Deck:
    """The deck that deals ``held`` (each hand in dealing order, without ``top``) from
    the seat left of ``dealer``: 3 each, 3 each, ``top`` turned, the rest of each hand,
    then the talon in deck order and the fresa (``bottom``) last."""
    used = [c for hand in held for c in hand] + [top] + bottom
    if len(set(used)) != len(used):
        raise ValueError("a card is given twice")
    n = len(held)
    order = [(dealer + i) % n for i in range(1, n + 1)]  # the dealer last
    deck: list[Card] = []
    for low in (0, 3):
        for seat in order:
            deck += held[seat][low : low + 3]
    deck.append(top)
    for seat in order:
        deck += held[seat][6:]
    return tuple(deck + [c for c in DECK if c not in used] + bottom)


def _hand(spec: str | Iterable[str], size: int = 9) -> list[Card]:
    hand = cards(spec) if isinstance(spec, str) else [parse_card(t) for t in spec]
    if len(hand) != size:
        raise ValueError(f"a hand holds {size} cards, got {len(hand)}")
    return hand


# ---------------------------------------------------------------------- deals and matches
def new_deal(rules: RuleSet, deck: Deck, dealer: int = 1, seed: str = "scripted") -> Deal:
    """The first deal of a match, from ``deck``, at 0 points each."""
    sides = len(rules.settings.sides())
    return (rules.deal_class or Deal)(
        rules=rules, deal_no=1, dealer=dealer, deck=deck, seed=seed, totals_before=(0,) * sides
    )


def new_match(
    rules: RuleSet,
    *decks: Deck,
    dealer: int = 1,
    seed: str = "scripted",
    names: Sequence[str] = (),
) -> Match:
    """A match whose deals 1, 2, ... use ``decks`` in turn. Once they run out, deal N
    is dealt from a deck shuffled from ``seed`` and N, as a server deals: the same on
    every run (records replay, tests repeat), but not cards a test chose."""
    return Match(
        rules,
        seed=seed,
        dealer=dealer,
        names=tuple(names),
        decks={i + 1: deck for i, deck in enumerate(decks)},
    )


# ---------------------------------------------------------------------- calls
def parse(text: str) -> Call:
    """A call by its token (``igrayu-h``, ``ot-K``, ``10h``); a plugin's call by its name."""
    try:
        return parse_token(text)
    except ValueError:
        if _PLUGIN_CALL.fullmatch(text.strip()) is None:
            raise
        return Call(text.strip())


def tokens(calls: Iterable[Call]) -> list[str]:
    return [c.token() for c in calls]


def legal(deal: Deal | Match, seat: int) -> list[str]:
    """The tokens ``seat`` may say now."""
    return tokens(deal.legal_calls(seat))


def say(deal: Deal | Match, seat: int, *texts: str) -> None:
    """Apply each call (by token) for ``seat``: to a match (its deals in turn, each
    ended deal's record in ``match.records``) or to one deal (no records kept)."""
    for text in texts:
        deal.apply(seat, parse(text))


def play(deal: Deal | Match, text: str) -> None:
    """Play the cards in ``text`` in order, each by the seat whose turn it is."""
    for token in text.split():
        current = deal if isinstance(deal, Deal) else deal.deal
        seat = current.to_act
        if seat is None:
            raise AssertionError(f"nobody is to act for {token}: the deal is over")
        deal.apply(seat, parse(token))


def snapshot(deal: Deal) -> dict[str, Any]:
    """Everything observable about a deal: its fields, record and every seat's calls."""
    # the rules are shared; the caches (legal calls, sequences, points) are memos of
    # the state, not state
    fields = {
        a.name: _observable(getattr(deal, a.name))
        for a in attr.fields(type(deal))
        if a.name not in ("rules", "_caches")
    }
    return {
        "fields": fields,
        "record": deal_record(deal),
        "legal": [legal(deal, s) for s in range(deal.players)],
    }


def _observable(value: Any) -> Any:
    """``value`` as plain data to compare, each event or log entry (a named tuple) tagged
    with its class, so that two kinds with the same fields never compare equal."""
    if attr.has(type(value)):
        return {a.name: _observable(getattr(value, a.name)) for a in attr.fields(type(value))}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return (type(value).__name__, tuple(_observable(item) for item in value))
    if isinstance(value, (set, frozenset)):
        return frozenset(_observable(item) for item in value)
    if isinstance(value, (list, tuple)):
        return [_observable(item) for item in value]
    if isinstance(value, dict):
        return {key: _observable(item) for key, item in value.items()}
    return value


def refused(
    deal: Deal,
    seat: int,
    text: str,
    error: type[IllegalCall] | None = None,
    code: str | None = None,
) -> IllegalCall:
    """Apply ``text`` for ``seat``: it must be refused (as exactly ``error``, with the
    error ``code`` of docs/protocol.md, when given) and leave the deal exactly as it was
    (fields, record, every seat's legal calls). Returns the error."""
    before = snapshot(deal)
    try:
        deal.apply(seat, parse(text))
    except IllegalCall as exc:
        raised = exc
    else:
        raise AssertionError(f"{text!r} by seat {seat} was accepted")
    if (error is not None and type(raised) is not error) or code not in (None, raised.code):
        expected = f"{error.__name__ if error else 'IllegalCall'}({code!r})"
        raise AssertionError(
            f"{text!r} raised {type(raised).__name__}({raised.code!r}), not {expected}"
        )
    if snapshot(deal) != before:
        raise AssertionError(f"the refused {text!r} changed the deal")
    return raised


def spoken(rules: RuleSet, text: str, legal: Sequence[Call | str] = ()) -> Call:
    """What a person typing ``text`` at a table with ``rules`` says: the server's reading,
    the words of the table's plugins (``deberc_call_aliases``) included. ``legal``: the
    calls the seat may make, as ``legal()`` gives them (tokens, read as ``say`` reads
    them) or as ``Call`` values; they settle what a word means now."""
    calls = [parse(call) if isinstance(call, str) else call for call in legal]
    return parse_call(text, calls, rules.call_aliases)


def assert_replays(match: Match) -> None:
    """Every finished deal of ``match`` replays from its record to the same result, as
    records must (a plugin's hooks are deterministic)."""
    for record in match.records:
        if not replay_matches(record, match.rules):
            raise AssertionError(f"deal {record['deal_no']} does not replay from its record")
