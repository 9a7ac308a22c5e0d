"""Property tests: whatever legal calls are made, the engine keeps its invariants.

Hypothesis drives whole matches (Moscow, two players): at every step it picks the seat
(usually the one to act, sometimes another seat that has an out-of-turn call such as
``pokazhi``) and the index of the call among that seat's ``legal_calls``. The checks
below use their own card tables written from docs/rules.md §1, not the engine's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deberc_net.game import calls as C
from deberc_net.game.calls import Call, parse_token
from deberc_net.game.cards import RANKS, SUITS, card_str
from deberc_net.game.deal import BIDDING, DONE, Deal
from deberc_net.game.errors import IllegalCall
from deberc_net.game.match import Match
from deberc_net.game.record import replay_deal, replay_matches
from deberc_net.game.view import view
from deberc_net.testing import build_ruleset
from tests.properties import examples

RULES = build_ruleset()
SEATS = (0, 1)
TARGET = 501

# A deal has at most: 4 bids; the swap with its question and answer (3); a declaration,
# rost?, two answers (4); pokazhi and its answer from each side (4); bella (1); 18 cards.
MAX_CALLS_PER_DEAL = 40
# All-pass redeals may go on for ever under the rules; after this many void deals in a
# match the driver stops choosing "pas" and "chetyre-semerki" (other calls stay free).
MAX_VOID_DEALS = 4


# --------------------------------------------------------------------------- tables
# docs/rules.md §1, written out again on purpose (independent of deberc_net.game.cards).
PLAIN_POINTS = {"7": 0, "8": 0, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
TRUMP_POINTS = {"7": 0, "8": 0, "9": 14, "10": 10, "J": 20, "Q": 3, "K": 4, "A": 11}
PLAIN_ORDER = ["7", "8", "9", "J", "Q", "K", "10", "A"]
TRUMP_ORDER = ["7", "8", "Q", "K", "10", "A", "9", "J"]
ALL_CARDS = sorted(r + s for r in ["7", "8", "9", "10", "J", "Q", "K", "A"] for s in "shdc")


def points(card: str, trump: str) -> int:
    table = TRUMP_POINTS if card[-1] == trump else PLAIN_POINTS
    return table[card[:-1]]


def trick_winner(leader: int, cards: list[str], trump: str) -> int:
    led = cards[0][-1]
    best_key, best_i = (-1, -1), 0
    for i, card in enumerate(cards):
        if card[-1] == trump:
            key = (1, TRUMP_ORDER.index(card[:-1]))
        elif card[-1] == led:
            key = (0, PLAIN_ORDER.index(card[:-1]))
        else:
            continue
        if key > best_key:
            best_key, best_i = key, i
    return (leader + best_i) % len(SEATS)


# ------------------------------------------------------------------ the vocabulary
VOCABULARY = [
    *(r + s for r in RANKS for s in SUITS),
    "pas",
    "igrayu",
    *(f"igrayu-{s}" for s in SUITS),
    "menyayu",
    "ne-menyayu",
    "chetyre-semerki",
    "terts",
    "dva-tertsa",
    "tri-tertsa",
    "pyatdesyat",
    "dva-pyatdesyat",
    "tri-pyatdesyat",
    "rost?",
    *(f"ot-{r}" for r in RANKS),
    *(f"ot-{r}-kozyrnogo" for r in RANKS),
    "pishet",
    "pokazhi",
    "pokazyvayu",
    "skin",
    "prokhodit?",
    "prokhodit",
    "ne-prokhodit",
    "bella",
]
VOCABULARY_CALLS = [parse_token(t) for t in VOCABULARY]


def test_vocabulary_round_trips() -> None:
    assert [c.token() for c in VOCABULARY_CALLS] == VOCABULARY
    assert len(set(VOCABULARY_CALLS)) == len(VOCABULARY)


# ----------------------------------------------------------------------- the driver
Step = Callable[[Match, int, Call], None]


def drive(data: Any, match: Match, before: Step | None = None, after: Step | None = None) -> int:
    """Play ``match`` to its end with hypothesis choosing every call; return the calls made.

    ``before(match, seat, call)`` runs before the call is applied, ``after`` after it.
    Also checks that every deal ends within ``MAX_CALLS_PER_DEAL`` calls.
    """
    total = in_deal = voids = 0
    records = len(match.records)
    while not match.over:
        seat = match.to_act
        assert seat is not None, "a match in progress must wait for somebody"
        others = [s for s in SEATS if s != seat and match.legal_calls(s)]
        actor = seat
        if others and data.draw(st.integers(0, 4), label="out of turn") == 0:
            actor = data.draw(st.sampled_from(others), label="other seat")
        legal = match.legal_calls(actor)
        assert legal, f"seat {actor} is to act but has no legal call"
        if voids >= MAX_VOID_DEALS and match.deal.phase == BIDDING:
            bids = [c for c in legal if c.name not in (C.PAS, C.SEVENS)]
            legal = bids or legal
        call = legal[data.draw(st.integers(0, len(legal) - 1), label="call")]
        if before is not None:
            before(match, actor, call)
        match.apply(actor, call)
        total += 1
        in_deal += 1
        assert in_deal <= MAX_CALLS_PER_DEAL, f"deal {match.deal.deal_no} does not end"
        if after is not None:
            after(match, actor, call)
        if len(match.records) != records:
            records = len(match.records)
            in_deal = 0
            voids += match.records[-1]["outcome"] == "void"
    return total


def new_match(data: Any) -> Match:
    seed = data.draw(st.integers(0, 10**9), label="seed")
    return Match(RULES, seed=str(seed))


# -------------------------------------------------------------- 1. the match ends
@examples(60)
@given(st.data())
def test_any_legal_calls_end_the_match(data: Any) -> None:
    match = new_match(data)
    total = drive(data, match)
    assert match.over and match.to_act is None
    assert all(match.legal_calls(s) == [] for s in SEATS)
    records = match.records
    assert [r["deal_no"] for r in records] == list(range(1, len(records) + 1))
    assert total <= MAX_CALLS_PER_DEAL * len(records)
    # Every played deal writes points: at least half of (cards in play + last trick).
    played = [r for r in records if r["outcome"] != "void"]
    for r in played:
        if r["outcome"] != "claim":
            assert sum(r["totals"]) - sum(r["totals_before"]) >= 5, r["outcome"]
    assert len(played) <= 2 * TARGET // 5 + 1
    last = records[-1]
    assert match.result is not None
    assert last["match_over"]["winner"] == match.result.winner
    if last["match_over"]["reason"] == "target":
        assert max(last["totals"]) >= TARGET
        assert all(max(r["totals"]) < TARGET for r in records[:-1])


# ---------------------------------------------------------- 2. card points add up
def dealt_hands(record: dict[str, Any]) -> list[list[str]]:
    """Each seat's nine cards, dealt as docs/rules.md §2 says, after a trump-seven swap."""
    deck, dealer = record["deck"], record["dealer"]
    first = (dealer + 1) % 2
    hands: list[list[str]] = [[], []]
    pos = 0
    for _ in range(2):  # 3 at a time, non-dealer first, twice
        for seat in (first, dealer):
            hands[seat] += deck[pos : pos + 3]
            pos += 3
    turned = deck[pos]
    pos += 1
    for seat in (first, dealer):  # after the order: 3 more each
        hands[seat] += deck[pos : pos + 3]
        pos += 3
    swaps = [c["seat"] for c in record["calls"] if c["call"] == "menyayu"]
    assert len(swaps) <= 1
    for seat in swaps:
        hands[seat].remove("7" + record["trump"])
        hands[seat].append(turned)
    return hands


def check_card_points(record: dict[str, Any]) -> None:
    trump = record["trump"]
    hands = dealt_hands(record)
    played: list[list[str]] = [[], []]
    taken = [0, 0]
    leader = (record["dealer"] + 1) % 2
    assert len(record["tricks"]) == 9
    for trick in record["tricks"]:
        assert trick["leader"] == leader
        for i, card in enumerate(trick["cards"]):
            played[(leader + i) % 2].append(card)
        winner = trick_winner(leader, trick["cards"], trump)
        assert trick["winner"] == winner, trick
        taken[winner] += sum(points(c, trump) for c in trick["cards"])
        leader = winner
    for seat in SEATS:
        assert sorted(played[seat]) == sorted(hands[seat]), f"seat {seat} played other cards"
    taken[record["tricks"][-1]["winner"]] += 10
    in_play = [c for h in hands for c in h]
    assert len(in_play) == 18
    assert sum(taken) == sum(points(c, trump) for c in in_play) + 10
    # The record's points are these card points plus the combinations that scored.
    declared = [0, 0]
    for entry in record["declared"]:
        declared[entry["seat"]] += sum(s["points"] for s in entry["scored"])
    assert [record["points"][s] - declared[s] for s in SEATS] == taken


@examples(60)
@given(st.data())
def test_card_points_of_every_played_deal_add_up(data: Any) -> None:
    match = new_match(data)
    drive(data, match)
    for record in match.records:
        if record["outcome"] in ("void", "claim"):
            continue
        check_card_points(record)


def test_card_point_table_sums_to_152() -> None:
    for trump in "shdc":
        assert sum(points(c, trump) for c in ALL_CARDS) == 152


# ------------------------------------------------------ 3. no card in two places
def places(deal: Deal) -> list[int]:
    cards = [c for hand in deal.hands for c in hand]
    cards += [c for trick in deal.tricks for _, c in trick.cards]
    # A scored deal keeps its last trick as ``deal.trick``: it is the last played trick.
    if not (deal.phase == DONE and deal.tricks and deal.trick is deal.tricks[-1]):
        cards += [c for _, c in deal.trick.cards]
    cards.append(deal.turned)
    cards += deal.talon
    return cards


def check_cards_conserved(match: Match, *_: Any) -> None:
    deal = match.deal
    cards = places(deal)
    assert sorted(cards) == list(range(32)), sorted(card_str(c) for c in cards)
    assert deal.fresa is None or deal.fresa == deal.talon[-1]
    if deal.phase != BIDDING and (deal.result is None or deal.result.outcome != "void"):
        # every seat holds its 9 cards less those it played
        tricks = list(deal.tricks)
        if not any(t is deal.trick for t in tricks):
            tricks.append(deal.trick)
        for seat in SEATS:
            played = sum(1 for t in tricks for s, _ in t.cards if s == seat)
            assert len(deal.hands[seat]) == 9 - played


@examples(50)
@given(st.data())
def test_no_card_is_ever_in_two_places(data: Any) -> None:
    match = new_match(data)
    check_cards_conserved(match)
    drive(data, match, after=check_cards_conserved)


# ------------------------------------------------------- 4. views hide hidden cards
def shown_cards(deal: Deal) -> set[int]:
    """Cards shown to the table, each checked: its owner declared and was asked to show
    (or showed after ``skin``), they are his own cards, and they lie in runs of three."""
    out: set[int] = set()
    for seat, cards in deal.shown.items():
        said = {e.call.name for e in deal.log if e.seat == seat}
        assert C.POKAZYVAYU in said, f"seat {seat} shows without being asked"
        assert said & {C.TERTS, C.PYATDESYAT, C.ROST}, f"seat {seat} never declared"
        owned = set(deal.hands[seat])
        owned |= {c for t in (*deal.tricks, deal.trick) for s, c in t.cards if s == seat}
        assert set(cards) <= owned, f"seat {seat} shows cards it does not hold"
        held = set(cards)
        for card in held:
            suit, rank = card >> 3, card & 7
            assert any(
                all(suit * 8 + r in held for r in range(low, low + 3))
                for low in range(max(0, rank - 2), min(rank, 5) + 1)
            ), f"{card_str(card)} is in no run of three"
        out |= held
    return out


def public_cards(deal: Deal) -> set[int]:
    public = {c for t in deal.tricks for _, c in t.cards}
    public |= {c for _, c in deal.trick.cards}
    public |= {deal.original_turned, deal.turned}
    if deal.fresa is not None and RULES.settings.fresa_visible:
        public.add(deal.fresa)
    return public | shown_cards(deal)


def check_views(match: Match, *_: Any) -> None:
    deal = match.deal
    public = public_cards(deal)
    tokens = set(VOCABULARY) - {r + s for r in RANKS for s in SUITS}
    for seat in (*SEATS, None):
        v = view(match, seat)
        own = set(deal.hands[seat]) if seat is not None else set()
        seen = set(v.hand)
        seen |= {c for _, c in v.trick} | {c for _, c in v.last_trick}
        seen |= {c for c in (v.turned, v.fresa) if c is not None}
        seen |= {c for cards in v.shown.values() for c in cards}
        leaked = seen - own - public
        assert not leaked, (seat, sorted(card_str(c) for c in leaked))
        assert set(v.hand) == own and len(v.hand) == len(own)
        assert v.hand_sizes == tuple(len(h) for h in deal.hands)
        assert all(token in tokens for _, token in v.talk), v.talk
        if seat is None:
            assert v.hand == () and v.legal == ()
        else:
            assert v.legal == tuple(c.token() for c in match.legal_calls(seat))


@examples(40)
@given(st.data())
def test_views_never_hold_another_seats_hidden_card(data: Any) -> None:
    match = new_match(data)
    check_views(match)
    drive(data, match, after=check_views)


# ----------------------------------------------------------- 5. records replay
@examples(60)
@given(st.data())
def test_every_record_replays_to_its_result(data: Any) -> None:
    match = new_match(data)
    drive(data, match)
    for record in match.records:
        assert replay_matches(record, RULES), record["deal_no"]
        rebuilt = replay_deal(record, RULES).record()
        for key in ("trump", "player", "tricks", "points", "written", "outcome", "hanging"):
            assert rebuilt[key] == record[key], key


def test_a_tampered_record_does_not_replay() -> None:
    match = Match(RULES, seed="tamper")
    rng = random.Random(5)
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_calls(seat)))
    record = next(r for r in match.records if r["outcome"] in ("made", "bide"))
    assert replay_matches(record, RULES)
    lied = dict(record, points=[record["points"][1], record["points"][0] + 1])
    assert not replay_matches(lied, RULES)
    swapped = dict(record, deck=record["deck"][18:] + record["deck"][:18])
    with pytest.raises(IllegalCall):
        replay_matches(swapped, RULES)


# ------------------------------------------------ 6. apply accepts exactly legal_calls
def state(match: Match) -> tuple[Any, ...]:
    return (
        match.deal.record(),
        list(match.totals),
        match.hanging,
        len(match.records),
        match.to_act,
        [[c.token() for c in match.legal_calls(s)] for s in SEATS],
    )


def make_check_apply(data: Any) -> Step:
    def check(match: Match, *_: Any) -> None:
        # a copy of the match for every legal call is costly: check one step in four,
        # which hypothesis chooses (and so can shrink to)
        if data.draw(st.integers(0, 3), label="check this step") != 0:
            return
        for seat in SEATS:
            legal = match.legal_calls(seat)
            before = state(match)
            for call in legal:
                twin = match.copy()
                twin.apply(seat, call)  # must not raise
                assert len(twin.records) > len(match.records) or len(twin.deal.log) > len(
                    match.deal.log
                ), call.token()
            assert state(match) == before  # no twin's call reached the match
            wrong = data.draw(st.lists(st.sampled_from(VOCABULARY_CALLS), max_size=4))
            for call in wrong:
                if call in legal:
                    continue
                with pytest.raises(IllegalCall):
                    match.apply(seat, call)
                assert state(match) == before, call.token()
        for seat in (-1, 2):
            with pytest.raises(IllegalCall):
                match.apply(seat, Call(C.PAS))

    return check


@pytest.mark.timeout(240)  # CPU-bound, no sockets: ~12 s alone, 4x that on a busy machine
@examples(10)
@given(st.data())
def test_apply_accepts_exactly_the_legal_calls(data: Any) -> None:
    match = new_match(data)
    check = make_check_apply(data)
    drive(data, match, before=check)
    before = state(match)
    for call in VOCABULARY_CALLS[:8]:
        with pytest.raises(IllegalCall):
            match.apply(0, call)
    assert state(match) == before
