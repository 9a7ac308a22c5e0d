"""Hidden cards stay hidden: every byte sent to an observer and to the other seat is
checked, deal by deal, against the deal's record once it is over.

A receiver may see its own hand and what was made public: the turned card, the fresa,
the trump seven after a swap, played and shown cards. Any other card in any line it got
before the deal ended (another seat's hand, the talon) is a leak.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Set as AbstractSet
from typing import Any

import pytest
import trio

from deberc_net.testing import build_ruleset

from .client import LineClient, fields, is_event, play_machine
from .conftest import Connector
from .human import without_tokens

CARD_TOKEN = re.compile(r"(?<![\w])(?:10|[789JQKA])[shdc](?![\w])")
PRETTY_TOKEN = re.compile(r"(10|[789JQKA])([♠♥♦♣])")
SYMBOL_SUIT = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def dealt_hands(record: dict[str, Any]) -> list[set[str]]:
    """Each seat's cards as dealt from the record's deck by the table's rules (rounds
    from the dealer's left, the turned card, the rounds after the order)."""
    deck, dealer, n = record["deck"], record["dealer"], len(record["players"])
    settings = build_ruleset(n, record["variant"], record["options"]).settings
    hands: list[set[str]] = [set() for _ in range(n)]
    pos = 0

    def deal(rounds: tuple[int, ...], dealer_short: int = 0) -> None:
        nonlocal pos
        for r, size in enumerate(rounds):
            for i in range(1, n + 1):
                seat = (dealer + i) % n
                count = size - (dealer_short if seat == dealer and r == len(rounds) - 1 else 0)
                hands[seat] |= set(deck[pos : pos + count])
                pos += count

    deal(settings.deal_before)
    assert deck[pos] == record["turned"]
    pos += 1
    if record["trump"] is not None:
        if settings.turned_to_dealer:
            hands[dealer].add(record["turned"])
        deal(settings.deal_after, 1 if settings.turned_to_dealer else 0)
    return hands


def played_by(record: dict[str, Any]) -> list[list[str]]:
    n = len(record["players"])
    out: list[list[str]] = [[] for _ in range(n)]
    for trick in record["tricks"]:
        for i, card in enumerate(trick["cards"]):
            out[(trick["leader"] + i) % n].append(card)
    return out


class Checker:
    """Walks one receiver's lines deal by deal; ``leaks`` lists what it should not see."""

    def __init__(self, me: int | None, fresa_public: bool = True) -> None:
        self.me = me
        self.fresa_public = fresa_public
        self.leaks: list[str] = []
        self.checked_tokens = 0
        self.deals: list[int] = []

    def check_machine(self, lines: list[str]) -> None:
        segment: list[str] = []
        for line in lines:
            if line.startswith("record "):
                record = json.loads(fields(line)[1]["text"])
                self._machine_deal(segment, record)
                segment = []
            else:
                segment.append(line)

    def _machine_deal(self, segment: list[str], record: dict[str, Any]) -> None:
        self.deals.append(record["deal_no"])
        hands = dealt_hands(record)
        played = played_by(record)
        turned = record["turned"]
        for seat, cards in enumerate(played):  # the reconstruction agrees with the record
            assert set(cards) <= hands[seat] | {turned}, (seat, cards, hands[seat])
        own = hands[self.me] | {turned} if self.me is not None else set()
        revealed = {turned}
        plays: list[str] = []
        for line in segment:
            tag, f = fields(line)
            kind = f.get("kind") if tag == "event" else None
            if kind == "play":
                seat, card = int(f["seat"]), f["card"]
                assert card in played[seat], line  # as the record says it was played
                plays.append(card)
                revealed.add(card)
                continue
            if kind == "shown":
                seat = int(f["seat"])
                shown = set(f["cards"].split(","))
                assert shown <= hands[seat] | {turned}, line
                revealed |= shown
                continue
            if kind == "order" and f["fresa"] != "-" and self.fresa_public:
                assert f["fresa"] == record["fresa"], line
                revealed.add(f["fresa"])
            if kind == "call" and f["call"] == "menyayu":
                revealed.add("7" + record["trump"])  # it becomes the turned card
            if tag == "state" and self.me is None:
                assert f["hand"] == "" and f["legal"] == "", line
            self._tokens(line, CARD_TOKEN.findall(without_tokens(line)), own | revealed)
        if segment and any(is_event(x, "deal") for x in segment):
            all_cards = [c for t in record["tricks"] for c in t["cards"]]
            assert plays == all_cards  # every card played was told, in order

    def check_human(self, lines: list[str], records: dict[int, dict[str, Any]]) -> None:
        revealed: set[str] = set()
        trump = ""
        seen: list[tuple[str, frozenset[str]]] = []  # each line, with what was public then
        for line in lines:
            # a deal ends with its deal in full; a void one with its end line, no more
            void = re.match(r"Deal (\d+): void", line)
            if void:
                seen.append((line, frozenset(revealed)))
            if full := re.match(r"Deal (\d+) in full", line) or void:
                record = records[int(full.group(1))]
                self.deals.append(record["deal_no"])
                for text, public in seen:
                    self._tokens(text, _human_cards(text), public | {record["turned"]})
                seen, revealed = [], set()
                continue
            if line.startswith("  trick "):  # the record's trick by trick, told at the end
                continue
            assert not line.startswith("Your hand"), line
            if m := re.search(r" plays (\S+)", line):
                revealed |= set(_human_cards(m.group(1)))
            if m := re.search(r" shows: (.+)$", line):
                revealed |= set(_human_cards(m.group(1)))
            if m := re.search(r"Fresa: (\S+)\.", line):
                revealed |= set(_human_cards(m.group(1)))
            if m := re.search(r"plays in (.)", line):
                trump = SYMBOL_SUIT[m.group(1)]
            if re.search(r": menyayu( —|$)", line):  # (the line names the seven now)
                revealed.add("7" + trump)  # the trump seven becomes the turned card
            seen.append((line, frozenset(revealed)))

    def _tokens(self, line: str, tokens: list[str], allowed: AbstractSet[str]) -> None:
        self.checked_tokens += len(tokens)
        for token in tokens:
            if token not in allowed:
                self.leaks.append(f"{token} in {line!r}")


def _human_cards(line: str) -> list[str]:
    line = without_tokens(line)
    pretty = [r + SYMBOL_SUIT[s] for r, s in PRETTY_TOKEN.findall(line)]
    return CARD_TOKEN.findall(line) + pretty


@pytest.mark.parametrize(("players", "options"), [(2, ""), (3, " to-301"), (4, " to-301")])
async def test_nobody_sees_a_hidden_card(
    port: int, connect: Connector, players: int, options: str
) -> None:
    names = ["ann", "bob", "carl", "dora"][:players]
    seated = [await connect.machine(port, name) for name in names]
    eve = await connect.machine(port, "eve")  # a bot that watches
    hugo = await connect.human(port, "hugo")  # a person who watches
    await seated[0].send(f"new {players}{options}")
    table = (await seated[0].expect("ok", cmd="sit"))["table"]
    for watcher in (eve, hugo):  # from before the first card
        await watcher.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await hugo.read_until(lambda x: x.startswith("You observe"))
    seats = {seated[0].label: 0}
    for client in seated[1:]:
        await client.send(f"sit {table}")
        seats[client.label] = int((await client.expect("ok", cmd="sit"))["seat"])
    ends: list[str] = []

    async def run(client: LineClient, seed: int) -> None:
        ends.append(await play_machine(client, random.Random(seed), timeout=10))

    async with trio.open_nursery() as nursery:
        for i, client in enumerate(seated):
            nursery.start_soon(run, client, 11 + i)
    await eve.read_until(lambda x: is_event(x, "match-end"))
    await hugo.read_until(lambda x: x.startswith("Game over"))
    assert len(set(ends)) == 1

    records = [json.loads(fields(x)[1]["text"]) for x in eve.lines if x.startswith("record ")]
    assert len(records) >= 2
    assert all(len(r["players"]) == players for r in records)
    receivers = [(c, seats[c.label]) for c in seated] + [(eve, None)]
    for client, me in receivers:
        checker = Checker(me)
        checker.check_machine(client.lines)
        assert checker.leaks == [], (client.label, checker.leaks[:5])
        assert checker.deals == [r["deal_no"] for r in records]
        assert checker.checked_tokens > 40
    human = Checker(None)
    human.check_human(hugo.lines, {r["deal_no"]: r for r in records})
    assert human.leaks == [], human.leaks[:5]
    assert human.deals == [r["deal_no"] for r in records] and human.checked_tokens > 50

    # the match seed decides every deck: nobody learns it before the match is over
    end = fields(ends[0])[1]
    seed = end["seed"]
    assert records[-1]["seed"] == f"{seed}/{records[-1]['deal_no']}"
    for client in [*seated, eve, hugo]:
        last = max(
            i
            for i, x in enumerate(client.lines)
            if x.startswith("record ") or re.match(r"Deal \d+ in full", x)
        )
        assert not [x for x in client.lines[:last] if seed in x], client.label
        live = [json.loads(fields(x)[1]["text"]) for x in client.lines if x.startswith("record ")]
        assert all(r["seed"] is None for r in live[:-1])


def test_the_checker_finds_a_leak() -> None:
    """The check above can fail: a line with the other seat's card is reported."""
    record = {
        "deal_no": 1,
        "players": ["a", "b"],
        "variant": "moscow",
        "options": [],
        "dealer": 0,
        "trump": None,
        "turned": "7d",
        "fresa": None,
        "tricks": [],
        "deck": [
            "10c",
            "9h",
            "Kh",
            "Ad",
            "8s",
            "Jd",
            "7s",
            "10d",
            "9d",
            "9s",
            "Kc",
            "Ac",
            "7d",
            *["x"] * 19,
        ],
    }
    line = "record table=1 deal=1 text=" + json.dumps(record)
    seat0 = "state seq=4 table=1 deal=1 hand=8s,9s,Jd,Ad,Kc,Ac turned=7d legal="
    ok = Checker(0)
    ok.check_machine([seat0, line])
    assert ok.leaks == []
    leaky = Checker(1)  # seat 1 must not see seat 0's hand
    leaky.check_machine([seat0, line])
    assert len(leaky.leaks) == 6
    watcher = Checker(None)
    watcher.check_machine(["event seq=5 table=1 kind=call seat=1 call=pas text=Kh?", line])
    assert watcher.leaks == ["Kh in 'event seq=5 table=1 kind=call seat=1 call=pas text=Kh?'"]


async def test_a_hidden_fresa_is_never_told(port: int, connect: Connector) -> None:
    """With ``fresa-hidden`` the fresa stays face down: nobody sees it."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2 fresa-hidden to-301")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")
    seat_bob = int((await bob.expect("ok", cmd="sit"))["seat"])
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(21))
        nursery.start_soon(play_machine, bob, random.Random(22))
    await eve.read_until(lambda x: is_event(x, "match-end"))
    records = [json.loads(fields(x)[1]["text"]) for x in eve.lines if x.startswith("record ")]
    assert any(r["fresa"] for r in records)  # there was a fresa, face down
    for client, me in ((ann, 1 - seat_bob), (bob, seat_bob), (eve, None)):
        checker = Checker(me, fresa_public=False)
        checker.check_machine(client.lines)
        assert checker.leaks == [], (client.label, checker.leaks[:5])
        orders = [fields(x)[1] for x in client.lines if is_event(x, "order")]
        assert orders and all(o["fresa"] == "-" for o in orders)
