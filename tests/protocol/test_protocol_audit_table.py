"""An audit of docs/protocol.md against the server, part 2: at a table (§6), the table
calls (§8) and a deal step by step (§9)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

import attrs
import pytest
import trio

from deberc_net.game import events as g
from deberc_net.game import match as match_module
from deberc_net.game.calls import Call
from deberc_net.game.cards import card_str
from deberc_net.game.deal import Deal
from deberc_net.game.match import Match
from deberc_net.protocol import events as ev
from deberc_net.protocol.hints import hint
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.protocol.vocabulary import CallSyntaxError, parse_call
from deberc_net.testing import (
    build_deck,
    build_deck_n,
    build_ruleset,
    legal,
    new_deal,
    refused,
    say,
)
from tests.protocol.conftest import Start
from tests.protocol.doc_examples import PROTOCOL, example, lines_until_pong, sent
from tests.server.client import LineClient, fields, play_machine
from tests.server.conftest import Connector

Fix = Callable[..., None]
TOLD = ("event ", "ask ", "state ", "record ", "error ")


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> Fix:
    """The server's seed fixed in-process, as the examples were made: deal N of every
    match is dealt from ``decks[N]``, the first dealer is ``dealer``, and a match starts
    at ``standing`` (the score an example's deal began at)."""
    seeded = match_module.deck_for
    started = Match.__attrs_post_init__

    def fix(decks: dict[int, tuple[int, ...]], dealer: int, standing: Sequence[int] = ()) -> None:
        def deck(seed: str, deal_no: int) -> tuple[int, ...]:
            return decks.get(deal_no) or seeded(seed, deal_no)

        def at_standing(match: Match) -> None:
            started(match)
            if standing:
                match.set_standing(list(standing))

        monkeypatch.setattr(match_module, "deck_for", deck)
        monkeypatch.setattr(match_module, "first_dealer", lambda seed, n: dealer)
        monkeypatch.setattr(Match, "__attrs_post_init__", at_standing)

    return fix


def block(heading: str, index: int) -> list[str]:
    """The ``index``-th code block (from 0) of the section under ``heading``."""
    section = PROTOCOL.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    section = section.split("\n#", 1)[0]
    return section.split("```\n")[1 + 2 * index].split("\n```", 1)[0].splitlines()


def trimmed(documented: str) -> re.Pattern[str]:
    """A documented line, its '…' standing for whatever the real line has there."""
    return re.compile(".*".join(re.escape(part) for part in documented.split("…")))


def moved(seq: int = 0, deal: int = 0) -> Callable[[str], str]:
    """A documented line as the same moment reads at the start of a match: its `seq=`
    less ``seq``, its deal numbers less ``deal`` (the example is from later in a match;
    its score is set by ``fixed``)."""

    def move(line: str) -> str:
        line = re.sub(r"\bseq=(\d+)", lambda m: f"seq={int(m[1]) - seq}", line)
        return re.sub(r"\bdeal=(\d+)", lambda m: f"deal={int(m[1]) - deal}", line)

    return move


def as_is(line: str) -> str:
    return line


async def transcript(
    seats: Sequence[LineClient],
    lines: list[str],
    move: Callable[[str], str] = as_is,
    keep: Callable[[str], bool] = lambda line: line.startswith(TOLD),
    viewer: int = 0,
    heard: Callable[[str], str] = as_is,
) -> None:
    """The documented ``lines`` are what the seats are told, in order: an `ask`/`state`
    line is read on its seat's connection (which becomes the viewer), any other line on
    the viewer's, each the next line ``keep`` takes there (events already read on another
    seat's connection skipped); a ``> `` line is sent by the viewer, a lone '…' skips
    lines up to the next documented one (so do the lines before the first)."""
    skip = True
    seen = 0
    for line in map(move, lines):
        if line.startswith("> "):
            await seats[viewer].send(sent(line))
            continue
        if line == "…":
            skip = True
            continue
        tag, said = fields(line)
        if tag in ("ask", "state") and "seat" in said:  # (a trimmed line: the viewer's)
            viewer = int(said["seat"])
        want = trimmed(line)
        client = seats[viewer]

        def new(got: str, seen: int = seen) -> bool:
            if not keep(got):
                return False
            tag, said = fields(got)
            return not (tag == "event" and int(said["seq"]) <= seen)

        got = heard(await client.read_until(new))
        while skip and not want.fullmatch(got):
            got = heard(await client.read_until(new))
        assert want.fullmatch(got), (line, got)
        if got.startswith("event "):
            seen = int(fields(got)[1]["seq"])
        skip = False


async def tables_taken(port: int, connect: Connector, count: int) -> None:
    """``count`` tables opened by others first, so the next is the example's number."""
    for i in range(count):  # each from an address of its own: few tables wait per address
        other = await connect.machine(port, f"x{i}", source=f"127.0.1.{i + 1}")
        await other.send("new 2")
        await other.expect("ok", cmd="sit")


async def seated(
    port: int, connect: Connector, names: Sequence[str], settings: str = "2", human: int = -1
) -> list[LineClient]:
    """``names`` at one new table, in seat order (seat ``human`` in the human style)."""
    seats = []
    table = ""
    for i, name in enumerate(names):
        client = await (connect.human(port, name) if i == human else connect.machine(port, name))
        await client.send(f"new {settings}" if i == 0 else f"sit {table}")
        if i == 0:
            table = (await client.expect("ok", cmd="sit"))["table"]
        seats.append(client)
    return seats


async def drive(seats: Sequence[LineClient], calls: Sequence[tuple[int, str]]) -> None:
    """Each seat in turn answers its next ask with its call (with the ask's seq)."""
    for seat, call in calls:
        ask = await seats[seat].expect("ask")
        await seats[seat].send(f"{call} seq={ask['seq']}")


async def scripted(client: LineClient, calls: list[str]) -> None:
    """A seat that answers its asks with ``calls`` in turn (each with its seq)."""
    for call in calls:
        ask = await client.expect("ask")
        await client.send(f"{call} seq={ask['seq']}")


@pytest.mark.timeout(30)
async def test_the_start_of_9_1_is_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    deck = build_deck("7s 9s Js 7h 9h Kh 7c 9c Jc", "8h Jh Qh 7d 9d Qd Jd Kc 8c", "Ad", "10c")
    fixed({1: deck}, dealer=0)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 2)
    b1, b2 = await seated(port, connect, ("b1", "b2"), "2 to-301")
    await transcript([b1, b2], example("### 9.1 Start"))


@pytest.mark.timeout(30)
async def test_the_void_deal_of_9_2_is_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """Round 2 and a void deal: deal 2 of a match at 55 to 23, its deal 1 here."""
    first = build_deck("Ks 9d Jd 10d 9c 10c 7s 8s 9s", "7d 8d Qd Kd Ad Jc 8c Qc Kc", "7h")
    third = build_deck("9s Ks 8h 9h Kh 10c Qs As 8c", "7s 7h Jh Qd Ad Jc 7d 9d Kd", "8d")
    fixed({1: first, 2: third}, dealer=0, standing=(55, 23))
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 4)
    seats = await seated(port, connect, ("ann", "bob"), "2 to-301")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(scripted, seats[0], ["pas", "pas"])
        await transcript(seats, block("### 9.2 Bidding and the order", 0), moved(33, 1), viewer=1)


@pytest.mark.timeout(30)
async def test_the_order_in_round_2_and_the_rost_of_9_3_are_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """One deal (deal 4 of table 7, its deal 1 here): seat 1 orders in clubs in round 2
    (§9.2), seat 0 declares a terts to the trump 10 and leads 10d, seat 1 asks rost? and
    wins it with its terts to the ace (§9.3)."""
    deck = build_deck("10d 8c 9c 10c As 7h 9h Qs 8d", "7s 8s Jh Kh Ad Jc 9s Qd Kd", "10s", "7d")
    fixed({1: deck}, dealer=1)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 6)
    seats = await seated(port, connect, ("ann", "bob"))
    order = block("### 9.2 Bidding and the order", 1)
    rost = block("### 9.3 The table talk", 3)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(scripted, seats[0], ["pas", "pas", "terts", "10d", "ot-10-kozyrnogo"])
        await scripted(seats[1], ["pas"])
        await transcript(seats, [*order, "…", *rost], moved(104, 3), viewer=1)


@pytest.mark.timeout(30)
async def test_a_rost_answered_and_conceded_in_9_3_is_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """Trump diamonds: seat 1 declared a terts 9-10-J of trump and led Ad; seat 0, with a
    terts to the 10 of spades, asks rost?, hears ot-J-kozyrnogo and concedes (deal 20
    of table 13, its deal 1 here)."""
    deck = build_deck("7d 9d 10d Jd Ad 7s 8h 9c Qc", "8s 9s 10s 7h 9h Qh 7c Jc Ac", "Kd")
    fixed({1: deck}, dealer=0)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 12)
    seats = await seated(port, connect, ("ann", "bob"))
    talk = [(1, "pas"), (0, "igrayu"), (1, "prokhodit?"), (0, "prokhodit"), (1, "terts")]
    await drive(seats, [*talk, (1, "Ad"), (0, "rost?")])
    await transcript(seats, block("### 9.3 The table talk", 2), moved(222, 19))


@pytest.mark.timeout(30)
async def test_skin_in_9_3_is_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """Seat 1 orders in hearts, declares a terts and leads Ac; seat 0 demands the show;
    seat 1 makes it play first (deal 5 of table 5 at 132 to 98, its deal 1 here)."""
    deck = build_deck("7d Qs 10h Ac Jd Jh 7s 7c Qh", "8s Ks 8h 9h 8d 10d Qc Kc 9c", "Ah", "Kd")
    fixed({1: deck}, dealer=0, standing=(132, 98))
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 4)
    seats = await seated(port, connect, ("ann", "bob"), "2 to-301")
    await drive(seats, [(1, "igrayu")])
    async with trio.open_nursery() as nursery:
        nursery.start_soon(scripted, seats[0], ["pokazhi", "Qc"])
        await transcript(seats, block("### 9.3 The table talk", 4), moved(87, 4), viewer=1)


@pytest.mark.timeout(30)
async def test_four_sevens_in_9_2_are_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    first = build_deck("7s 7h 7d Qd 7c 10c 8s 9s 10s", "8h 9h 10h Jh Qh Kh 8d 9d 10d", "Kd")
    second = build_deck("7s 8s 9s 7h 8h 9h 7d 8d 9d", "10s Js Qs 10h Jh Qh 10d Jd Qd", "Ad")
    fixed({1: first, 2: second}, dealer=1)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 1)
    seats = await seated(port, connect, ("ann", "bob"))

    def ms(line: str) -> str:  # how long the call took is the clock's
        return re.sub(r'"ms":\d+', '"ms":801', line)

    lines = block("### 9.2 Bidding and the order", 2)
    await transcript(seats, lines, heard=ms)


@pytest.mark.timeout(30)
async def test_the_talk_of_9_3_is_what_the_server_sends_in_both_styles(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """lev (seat 0, machine style) orders in hearts, asks prokhodit?, declares two
    tertsas and leads; dima (seat 1, human style) declares a fifty, is asked out of turn
    to show it, shows it and plays."""
    deck = build_deck("8h Qh 7h Qd 9h 9s 7s 8s Ad", "10s Js Qs Ks Kh Ah 10c Jc Kc", "10h", "7d")
    fixed({1: deck}, dealer=1)
    port = await start(lag_ms=500)
    lev, dima = await seated(port, connect, ("lev", "dima"), human=1)
    await drive([lev], [(0, "igrayu")])
    async with trio.open_nursery() as nursery:
        nursery.start_soon(transcript, [lev], block("### 9.3 The table talk", 0))
        person = block("### 9.3 The table talk", 1)
        await transcript([dima], person, keep=lambda line: line.strip() != "")
        await dima.send("A♥")


@pytest.mark.timeout(30)
async def test_the_four_players_of_6_1_are_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """Seat 2 orders in hearts and leads Kd; seat 1, the dealer, holds the turned Jh, a
    terts J-Q-K of trump and the bella."""
    hands = (
        "9s 7h Jd Ad Qc Kc Qs 10d",
        "Qh Kh 7d 8s 10s 8c Jh Ac",
        "Kd 9d As Ks 9h Ah 7s Jc",
        "Qd 8d Js 8h 10h 7c 9c 10c",
    )
    fixed({1: build_deck_n(hands, dealer=1, turned="Jh")}, dealer=1)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 6)
    names = ("fo0", "fo1", "fo2", "fo3")
    seats = await seated(port, connect, names, "4 to-301")
    lines = example("### 6.1 Seats, sides, dealer")
    async with trio.open_nursery() as nursery:
        for seat, calls in ((1, ["terts", "bella", "7d"]), (2, ["igrayu", "Kd"]), (3, ["Qd"])):
            nursery.start_soon(scripted, seats[seat], calls)
        await transcript(seats, lines[: lines.index("…")])


def answered(heading: str, typed: str) -> str:
    """The documented line that answers the ``> typed`` line of ``heading``'s block."""
    lines = block(heading, 0)
    at = next(i for i, line in enumerate(lines) if line.startswith("> ") and sent(line) == typed)
    return lines[at + 1]


TALK_ERRORS = "### 9.4 Talk errors"
CARD_ERRORS = "### 9.5 Play"
SECTION_6_3_DECK = ("7s 9s Js 7h 9h Kh 7c 9c Jc", "8h Jh Qh 7d 9d Qd Jd Kc 8c", "Ad", "10c")


@pytest.mark.timeout(30)
async def test_the_errors_of_9_4_and_9_5_at_the_start_of_a_deal_are_the_servers(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """The deal of §9.1 and §6.3 (table 3; b2, seat 1, bids first and leads 7c; b1, the
    dealer, holds the trump 7): the refusals its moments meet in §9.4 and §9.5, each
    sent where the example's `ask` is, and the request still open after each."""
    fixed({1: build_deck(*SECTION_6_3_DECK)}, dealer=0)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 2)
    b1, b2 = await seated(port, connect, ("b1", "b2"), "2 to-301")
    ask = await b2.expect("ask", seq="4")
    assert ask["legal"] == "pas,igrayu" and ask["phase"] == "bidding"  # as §9.4 has it
    for typed in ("terts seq=4", "igrayu s", "igrayu zz"):
        assert await lines_until_pong(b2, typed) == [answered(TALK_ERRORS, typed)], typed
    await b2.send("igrayu seq=4")
    await drive([b1, b2], [(1, "7c")])
    ask = await b1.expect("ask", seq="7")
    assert ask["trick"] == "7c" and ask["legal"] == "menyayu,Kc,8c"
    assert await lines_until_pong(b1, "8h seq=7") == [answered(CARD_ERRORS, "8h seq=7")]
    await b2.expect("event", seq="7")
    not_to_act = "7s                          (the other seat, not to act)"
    assert await lines_until_pong(b2, "7s") == [answered(CARD_ERRORS, sent(f"> {not_to_act}"))]
    await b1.send("menyayu seq=7")
    ask = await b1.expect("ask", seq="8")
    assert ask["legal"] == "Kc,8c"
    said = await lines_until_pong(b1, "pyatdesyat seq=8")
    assert said == [answered(TALK_ERRORS, "pyatdesyat seq=8")]
    await b1.send("state")  # each refusal changed nothing: the same request is open
    assert (await b1.expect("ask"))["seq"] == "8"


def refusal_line(deal: Deal, seat: int, typed: str) -> str:
    """The machine line refusing ``typed`` from ``seat`` (the deal left as it was)."""
    error = refused(deal, seat, typed)
    return render(ev.Error(error.code, error.message), MACHINE)[0]


def asked(heading: str, typed: str) -> dict[str, str]:
    """The fields of the documented `ask` that ``> typed`` answers."""
    lines = block(heading, 0)
    at = next(i for i, line in enumerate(lines) if line.startswith("> ") and sent(line) == typed)
    return fields(lines[at - 1])[1]


def test_the_talk_errors_of_9_4_later_in_a_deal_are_the_engines() -> None:
    """Each example's moment (its `ask`'s legal calls) made again at the engine, and its
    refusal the line shown. (The Tertz one: tests/tertz/test_rules.py.)"""
    rules = build_ruleset(2)
    # seat 0 ordered in hearts, swapped, declared a terts and led Jd; seat 1 has none
    deal = new_deal(
        rules, build_deck("8s 9s 10s Jd 7h Kc 8h Qh Ac", "7d Js As 9h Kh 7c 9c Jc Ks", "Ah"), 1
    )
    say(deal, 0, "igrayu", "menyayu", "terts", "Jd")
    assert ",".join(legal(deal, 1)) == asked(TALK_ERRORS, "rost? seq=49")["legal"]
    assert refusal_line(deal, 1, "rost?") == answered(TALK_ERRORS, "rost? seq=49")
    # trump clubs: seat 0 led As and took the trick; seat 1 had declared a terts
    deal = new_deal(
        rules, build_deck("Jh Js 10s Kc Ad 7c As Kh 7d", "8s 7s 8d 9d 10d Qc 8h 9h Qh", "Jc"), 1
    )
    say(deal, 0, "igrayu", "As")
    say(deal, 1, "terts", "8s")
    assert ",".join(legal(deal, 0)) == asked(TALK_ERRORS, "rost? seq=82")["legal"]
    assert refusal_line(deal, 0, "rost?") == answered(TALK_ERRORS, "rost? seq=82")
    say(deal, 0, "pokazhi")  # after his first card: no skin
    assert deal.pending is not None
    assert ",".join(legal(deal, 1)) == asked(TALK_ERRORS, "7s seq=83")["legal"]
    assert refusal_line(deal, 1, "7s") == answered(TALK_ERRORS, "7s seq=83")
    # seat 1 ordered in diamonds and led 7c; seat 0 holds a terts but not the trump 7
    deal = new_deal(
        rules, build_deck("7s 9s Js 7h 9h Kh 7c 9c 7d", "10h Jh Qh 8s Qd Jd Kc 8c As", "Ad"), 0
    )
    say(deal, 1, "igrayu", "7c")
    assert ",".join(legal(deal, 0)) == asked(TALK_ERRORS, "prokhodit? seq=12")["legal"]
    assert refusal_line(deal, 0, "prokhodit?") == answered(TALK_ERRORS, "prokhodit? seq=12")


def test_the_card_errors_of_9_5_later_in_a_deal_are_the_engines() -> None:
    """As the talk errors: each moment's legal calls made again, and its refusal."""
    rules = build_ruleset(2)
    moments = (  # the seat to act holds the example's hand, dealt in its legal= order
        ("7s 10s Qc Qs Kd Ac Ks 9h 7c", "8s 9s Js As 7h 8h 10h 8c 9c", "Jh", [], "8s seq=6"),
        ("Qs 7s 8s 9c Jc Ac 7d 10h Kh", "Qd 9d Jd Ad Jh 8h Kc 10c 7h", "8d", ["Qs"], "Jh seq=14"),
        ("10d 8s Js 7h 9h 7c 9c Jc 7d", "Kd Ad 7s 9s Jh Kh 8c Qc As", "8d", ["10d"], "Kd seq=124"),
    )
    for other, dealer, turned, led, typed in moments:
        deal = new_deal(rules, build_deck(other, dealer, turned), 0)
        say(deal, 1, "igrayu", *led)
        seat = deal.to_act
        assert seat is not None
        ask = asked(CARD_ERRORS, typed)
        assert ",".join(legal(deal, seat)) == ask["legal"], typed
        assert ",".join(card_str(card) for _, card in deal.trick.cards) == ask.get("trick", ""), (
            typed
        )
        assert refusal_line(deal, seat, typed.split()[0]) == answered(CARD_ERRORS, typed)


def documented_fields() -> dict[str, list[str]]:
    """§6.2's table: each event kind's fields, as listed."""
    section = PROTOCOL.read_text(encoding="utf-8").split("\n### 6.2 `event` lines\n", 1)[1]
    rows = re.findall(r"^\| `([a-z-]+)` \| (.*?) \|", section.split("\n### ", 1)[0], re.M)
    return {kind: re.findall(r"\b([a-z_]+)=", listed) for kind, listed in rows}


def told(client: LineClient) -> list[tuple[str, dict[str, str]]]:
    """The table lines ``client`` was told, parsed, from its first event on."""
    lines = [fields(line) for line in client.lines if line.startswith(TOLD)]
    first = next(i for i, (tag, _) in enumerate(lines) if tag == "event")
    return lines[first:]


@attrs.define
class Followed:
    """A deal as its events tell it: what every `ask` and `state` must then say (§6.3)."""

    n: int
    deal: int = 0
    dealer: int = 0
    leader: int = 0
    score: str = ""
    hanging: str = ""
    trump: str = "-"
    player: str = "-"
    talk: list[str] = attrs.Factory(list)
    trick: list[str] = attrs.Factory(list)
    tricks: list[int] = attrs.Factory(list)
    shown: list[str] = attrs.Factory(list)

    def side(self, seat: int) -> int:
        return seat % 2 if self.n == 4 else seat

    def heard(self, event: dict[str, str]) -> None:
        kind = event["kind"]
        if kind == "deal":
            self.deal += 1
            assert event["deal"] == str(self.deal)  # void deals counted too
            self.dealer = int(event["dealer"])
            self.leader = (self.dealer + 1) % self.n
            self.score, self.hanging = event["score"], event["hanging"]
            self.trump = self.player = "-"
            self.talk, self.trick, self.shown = [], [], []
            self.tricks = [0] * (2 if self.n == 4 else self.n)
        elif kind == "call":
            self.talk.append(f"{event['seat']}:{event['call']}")
        elif kind == "order":
            self.trump, self.player = event["trump"], event["player"]
        elif kind == "play":
            self.trick.append(event["card"])
        elif kind == "shown":
            self.shown += [f"{event['seat']}:{card}" for card in event["cards"].split(",")]
        elif kind == "trick":
            assert event["cards"] == ",".join(self.trick)  # in play order, leader first
            self.leader = int(event["winner"])
            self.tricks[self.side(self.leader)] += 1
            self.trick = []

    def view(self) -> dict[str, str]:
        return {
            "deal": str(self.deal),
            "phase": "bidding" if self.trump == "-" else "play",
            "dealer": str(self.dealer),
            "trump": self.trump,
            "player": self.player,
            "leader": str(self.leader),
            "trick": ",".join(self.trick),
            "tricks": ",".join(map(str, self.tricks)),
            "score": self.score,
            "hanging": self.hanging,
            "target": "301",
            "shown": ",".join(self.shown),
            "talk": ",".join(self.talk),
            "players": str(self.n),
        }


@pytest.mark.timeout(60)
@pytest.mark.parametrize("settings", ["2 to-301", "3 to-301", "4 to-301"])
async def test_a_whole_match_is_told_as_6_says(
    start: Start, connect: Connector, settings: str
) -> None:
    """§6.1–§6.3 and §9 over a whole match at random, seats and an observer watching from
    before the start: every event to everyone, in §6.2's fields; the seat after the
    dealer bids first and leads first; one `ask` after each accepted call, to the one
    seat the table waits for, a `state` to every other seat when a deal is dealt and when
    the game is ordered and at no other moment; every `ask` and `state` saying what the
    events told (deal, leader, trick, tricks and score by side, talk, shown, …); the
    events of one call in §6.2's order; a deal's end, its record, the next deal or the
    match's end as §9.6 and §9.7 say; one legal card still asked."""
    port = await start(match_seed=f"audit-{settings}")  # the same decks every run
    n = int(settings.split()[0])
    seats = [await connect.machine(port, f"p{i}") for i in range(n)]
    eve = await connect.machine(port, "eve")
    await seats[0].send(f"new {settings}")
    table = (await seats[0].expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    for client in seats[1:]:
        await client.send(f"sit {table}")
        await client.expect("ok", cmd="sit")
    with trio.fail_after(50):
        async with trio.open_nursery() as nursery:
            for i, client in enumerate(seats):
                nursery.start_soon(play_machine, client, random.Random(i))
            await eve.expect("event", kind="match-end", timeout=50)
    heard = {i: told(client) for i, client in enumerate(seats)}
    events = [said for tag, said in told(eve) if tag == "event"]
    # every event is public: each seat and the observer got the same lines (from the
    # start on: a seat that sat down later was not there to be told the earlier ones)
    first = int(next(e for e in events if e["kind"] == "start")["seq"])
    events = [e for e in events if int(e["seq"]) >= first]
    for i in range(n):
        assert [s for t, s in heard[i] if t == "event" and int(s["seq"]) >= first] == events, i
    assert [int(e["seq"]) for e in events] == list(range(first, first + len(events)))
    listed = documented_fields()
    for event in events:  # §6.2's fields, in its order (a field it names "when…" or not)
        keys = [key for key in event if key not in ("seq", "table", "kind")]
        assert [k for k in listed[event["kind"]] if k in keys] == keys, (listed, event)
    asks: dict[int, int] = {}  # seq -> the seat asked then
    states: dict[int, set[int]] = {}
    views: dict[int, list[tuple[int | None, dict[str, str]]]] = {}  # seq -> (seat, view)
    for i, lines in [*heard.items(), (None, told(eve))]:
        for tag, said in lines:
            if tag == "ask":
                assert i is not None and int(said["seq"]) not in asks, said  # one a moment
                asks[int(said["seq"])] = i
            elif tag == "state" and i is not None:
                states.setdefault(int(said["seq"]), set()).add(i)
            if tag in ("ask", "state"):
                views.setdefault(int(said["seq"]), []).append((i, said))
    deal = Followed(n)
    begun = events[0]
    for at, event in enumerate(events):
        seq, kind = int(event["seq"]), event["kind"]
        deal.heard(event)
        if kind in ("call", "play"):  # an answer to the ask of the moment before it
            engines = kind == "call" and event["call"] == "pokazyvayu"  # after a skin
            if not (engines and events[at - 1]["kind"] == "play"):
                assert asks.get(seq - 1) == int(event["seat"]), event
        if kind in ("deal", "order"):  # the hands changed: the others get a state
            assert asks[seq] == deal.leader, event  # the seat after the dealer bids, leads
            assert states.get(seq, set()) == set(range(n)) - {asks[seq]}, event
        else:
            assert seq not in states, event
        if seq in asks:  # a moment the table waits at: the next event is that seat's
            assert events[at + 1]["seat"] == str(asks[seq]), event
        for seat, view in views.get(seq, []):
            want = {**deal.view(), "to_act": str(asks.get(seq, "-"))}
            want["seat"] = "-" if seat is None else str(seat)
            assert {key: view[key] for key in want} == want, (view, event)
            if seat is None or int(view["seq"]) not in asks or asks[seq] != seat:
                assert set(view["legal"].split(",")) <= {"", "pokazhi", "chetyre-semerki"}
            if seat is None:
                assert view["hand"] == view["legal"] == "" and view["clock"] == "-", view
        if kind == "deal-end":  # then its record, then the next deal or match-end (§9.6)
            lines = heard[0]
            i = next(k for k, (t, s) in enumerate(lines) if t == "event" and s["seq"] == str(seq))
            assert lines[i + 1][0] == "record" and lines[i + 2][1]["kind"] in ("deal", "match-end")
            after = events[at + 1]
            if after["kind"] == "deal":
                assert (after["score"], after["hanging"]) == (event["totals"], event["hanging"])
        before = [(e["kind"], e.get("call")) for e in events[max(at - 3, 0) : at]]
        if kind == "trick":  # after the card that completed it, and its engine-made show
            assert before[-1][0] == "play" or before == [
                ("play", None),
                ("call", "pokazyvayu"),
                ("shown", None),
            ], event
        if kind == "shown":  # right after the pokazyvayu that showed it
            assert before[-1] == ("call", "pokazyvayu"), event
    end, last = events[-1], events[-2]
    assert end["kind"] == "match-end" and last["kind"] == "deal-end"  # (reason target)
    totals = [int(x) for x in last["totals"].split(",")]
    winner = int(end["winner"])  # a side that reached the target: its seats' names (§6.1)
    names = begun["players"].split(",")
    assert end["reason"] in ("target", "claim") and totals[winner] >= 301, (end, last)
    assert end["totals"] == last["totals"]
    assert end["name"] == ",".join(names[s] for s in range(n) if deal.side(s) == winner)
    assert (end["match"], end["deals"]) == (begun["match"], str(deal.deal))
    one_card = [s for i in range(n) for t, s in heard[i] if t == "ask" and "," not in s["legal"]]
    assert one_card  # a seat with one legal call is still asked: no automatic play
    assert all(e["auto"] == "0" for e in events if "auto" in e)


@pytest.mark.timeout(30)
async def test_a_line_at_a_table_not_started_is_refused_whatever_it_is(
    port: int, connect: Connector
) -> None:
    # §8: "Seated at a table that has not started: error code=wrong-phase text=the game
    # has not started (whatever the line)"
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.expect("event", kind="seated")
    for line in ("pas", "10h seq=1", "igrayu zz", "no call at all", "pаs"):
        assert await lines_until_pong(ann, line) == [
            "error code=wrong-phase text=the game has not started"
        ], line


@pytest.mark.timeout(30)
async def test_out_of_turn_calls_case_yo_hyphens_and_two_alphabets_on_the_wire(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """§8.5: the dealer holds four sevens and is not to act: his `state` lists
    chetyre-semerki; the leader's card arriving first ends the chance (`not-allowed`).
    §8: case never matters, `ё` reads as `е`, `-` as a space, and a word typed in two
    alphabets is the word it shows — each played, not only hinted."""
    deck = build_deck("8h 9h 10h Jh Qh Kh 8d 9d 10d", "7s 7h 7d Qd 7c 10c 8s 9s 10s", "Kd")
    fixed({1: deck}, dealer=1)
    port = await start()
    ann, bob = await seated(port, connect, ("ann", "bob"))
    await ann.expect("ask")
    await bob.send("state")
    assert (await bob.expect("state"))["legal"] == "chetyre-semerki"  # not to act
    await ann.send("Pаs")  # a Cyrillic а
    assert (await bob.expect("event", kind="call", seat="0"))["call"] == "pas"
    await bob.send("PAS")
    assert (await ann.expect("event", kind="call", seat="1"))["call"] == "pas"
    await ann.send("Играю-Чeрви")  # a Latin e, a hyphen for the space
    assert (await bob.expect("event", kind="call", seat="0"))["call"] == "igrayu-h"
    await bob.send("state")  # his state after the order: still offered, out of turn
    assert "chetyre-semerki" in (await bob.expect("state"))["legal"].split(",")
    ask = await ann.expect("ask", phase="play")
    assert await lines_until_pong(ann, "играю чeрви") == [  # read, so refused as itself
        "error code=wrong-phase text=bidding is over"
    ]
    await ann.send(f"8d seq={ask['seq']}")
    assert "chetyre-semerki" not in (await bob.expect("ask", trick="8d"))["legal"]
    assert await lines_until_pong(bob, "ЧЕТЫРЕ-СЕМЁРКИ") == [
        "error code=not-allowed text=only a seat holding all four sevens, before the first card"
    ]


@pytest.mark.timeout(30)
async def test_a_seat_back_when_not_to_act_gets_a_state(port: int, connect: Connector) -> None:
    # §6.3: "The server sends state ... to a reconnecting seat that is not to act"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    views = {
        c: fields(await c.read_until(lambda x: x.startswith(("ask ", "state "))))
        for c in (ann, bob)
    }
    waiting = next(c for c, (tag, _) in views.items() if tag == "state")
    other = ann if waiting is bob else bob
    await waiting.aclose()
    await other.expect("event", kind="away")
    again = await connect.machine(port, waiting.label, token=waiting.token)
    await again.expect("event", kind="back")
    tag, view = fields(await again.read_until(lambda x: x.startswith(("ask ", "state "))))
    before = views[waiting][1]
    assert tag == "state" and view["hand"] == before["hand"] and view["to_act"] == before["to_act"]
    assert int(view["seq"]) == int(before["seq"]) + 2  # the away and back events


@pytest.mark.parametrize(("length", "hinted"), [(32, True), (33, False)])
def test_no_hint_for_a_line_of_more_than_32_letters(length: int, hinted: bool) -> None:
    # §8: "No hint ... for a line of more than 32 letters" (a plugin's long word, one
    # letter off, is hinted up to that length)
    word = "ж" * length
    found = hint("ж" * (length - 1) + "ш", [Call("sdayus")], {word: "sdayus"})
    assert (found is not None and found.token() == "sdayus") is hinted


def test_twenty_is_no_terts_and_fifty_is_a_fifty() -> None:
    # §8.2 "Numbers as calls": `50` is pyatdesyat at every table; `20` is not terts
    # (unknown-command), though it may carry the hint of a call a key away
    assert parse_call("50", [Call("pyatdesyat")]) == Call("pyatdesyat")
    with pytest.raises(CallSyntaxError):
        parse_call("20", [Call("terts"), Call("pyatdesyat")])
    found = hint("20", [Call("pyatdesyat"), Call("pas")], {})
    assert found is not None and found.token() == "pyatdesyat"
    assert hint("20", [Call("terts")], {}) is None


def test_a_dave_given_up_names_the_deals_winner_and_how() -> None:
    # §9.6: "a dave declined, `Deal 1: won by anna (gave-up).`, `победитель — anna
    # (отказ)`"; the machine line's outcome stays gave-up
    end = g.DealEnded(1, "gave-up", (0, 0), (1, 0), (1, 0), 0, {})
    told = ev.TableEvent(9, 4, ("anna", "boris"), end, ((0,), (1,)), deal_won_on_points=True)
    assert render(told, HUMAN)[0].startswith("Deal 1: won by anna (gave-up). ")
    assert render_ru(told)[0].startswith("Раздача 1: победитель — anna (отказ). ")
    assert " outcome=gave-up " in render(told, MACHINE)[0]
