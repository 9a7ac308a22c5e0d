"""Tertz (docs/rules.md §12) over real sockets: two whole matches played to their end on
scripted deals — the server's match seed, found with the engine — by two machine-style
players who each call by one fixed rule. The table's calls, cards and scores are the
engine's on the same seed and calls, and the matches show the rules of §12 one by one:
the dealer's opponent leads, the loser of the first trick breaks the deck, the trump
seven takes the turned card, `rost?` answered and conceded, an equal top in trump beats
a plain one, mariage, a combination given way on still written, equal tricks counted by
the seat without the last, a five rounded down, the taker of the last trick deals, and
equal totals over the target won by the taker of the last trick."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset

from .client import LineClient, fields, is_event, seat_pair
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Deals = list[list[dict[str, str]]]

RULES = build_ruleset(2, "tertz")
# seeds found with the engine (both matches end with equal totals over 500):
TALKS = "tertz372"  # deal 1 has every talk of Tertz
FIVE = "tertz157"  # deal 3: 8 tricks each, the counted share ends in five
BREAK = "lomayu-3"


def choose(legal: list[str]) -> str:
    """The players' one rule: break the deck by three; else the first legal call but
    pokazhi — the seven exchanged, a combination declared, rost? asked, ot-… claimed
    when it may be, mariage, else the first legal card (``legal=`` lists them so)."""
    if BREAK in legal:
        return BREAK
    return next(t for t in legal if t != "pokazhi")


def engine_match(seed: str) -> tuple[Match, list[tuple[int, str]]]:
    """The engine's match on the seed, every call by the same rule; the calls said."""
    match = Match(RULES, seed=seed, names=("anna", "boris"))
    said: list[tuple[int, str]] = []
    while not match.over:
        seat = match.to_act
        assert seat is not None
        calls = match.legal_calls(seat)
        said.append((seat, choose([c.token() for c in calls])))
        match.apply(seat, next(c for c in calls if c.token() == said[-1][1]))
    return match, said


async def play(client: LineClient) -> None:
    while True:
        line = await client.read_until(lambda _: True)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if is_event(line, "match-end"):
            return
        if tag == "ask":
            await client.send(f"{choose(f['legal'].split(','))} seq={f['seq']}")


def played(client: LineClient) -> list[dict[str, str]]:
    """The match's events the client was told, from the first deal to the match's end."""
    told = [fields(x)[1] for x in client.lines if x.startswith("event ")]
    kinds = [e["kind"] for e in told]
    return told[kinds.index("deal") : kinds.index("match-end") + 1]


async def whole_match(start_server: StartServer, connect: Connector, seed: str) -> Deals:
    """The match on ``seed`` played to its end over sockets by the one rule, checked
    against the engine's; its deals' events, each from its ``deal`` to its
    ``deal-end`` (the match's end after the last)."""
    port = await start_server(match_seed=seed)
    anna = await connect.machine(port, "anna")
    boris = await connect.machine(port, "boris")
    assert (await seat_pair(anna, boris, "2 tertz"))[1:] == (0, 1)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, anna)
            nursery.start_soon(play, boris)
    events = played(anna)
    assert played(boris) == events  # both seats are told the same

    # the table's calls and cards, in order, are the engine's on the same seed
    match, said = engine_match(seed)
    moves = ("call", "play")
    told = [(int(e["seat"]), e.get("call") or e["card"]) for e in events if e["kind"] in moves]
    assert told == said
    starts = [i for i, e in enumerate(events) if e["kind"] == "deal"]
    deals = [events[a:b] for a, b in zip(starts, [*starts[1:], len(events)], strict=True)]
    assert len(deals) == len(match.records)
    lasts: list[str] = []
    for deal, record in zip(deals, match.records, strict=True):
        end = next(e for e in deal if e["kind"] == "deal-end")
        assert end["written"] == ",".join(map(str, record["written"]))
        assert end["totals"] == ",".join(map(str, record["totals"]))
        assert end["outcome"] == "split"  # §12.6: the 150 split, nobody ordered
        tricks = [e["winner"] for e in deal if e["kind"] == "trick"]
        assert len(tricks) == 16  # 32 cards, two a trick: every deal played out
        # §12.2: right after the first trick its loser breaks the deck, before any card
        first = next(i for i, e in enumerate(deal) if e["kind"] == "trick")
        broken = deal[first + 1]
        assert (broken["kind"], broken.get("call")) == ("call", BREAK)
        assert broken["seat"] != tricks[0]
        lasts.append(tricks[-1])
    # §12.7: «New cards are dealt by the one who took the last trick»
    assert [d[0]["dealer"] for d in deals[1:]] == lasts[:-1]
    # both over the target at one deal with equal totals: the taker of the last trick
    end = events[-1]
    totals = end["totals"].split(",")
    assert end["kind"] == "match-end" and end["reason"] == "target"
    assert totals[0] == totals[1] and int(totals[0]) >= 500
    assert end["winner"] == lasts[-1]
    assert match.result is not None and str(match.result.winner) == end["winner"]
    return deals


async def test_a_whole_tertz_match_over_sockets_with_all_its_talk(
    start_server: StartServer, connect: Connector
) -> None:
    one = (await whole_match(start_server, connect, TALKS))[0]
    talk = [(e["seat"], e["call"]) for e in one if e["kind"] == "call"]
    # §12.1: no bidding; dealer 0's opponent leads (his terts declared before his card)
    assert one[0]["dealer"] == "0" and one[0]["turned"] == "As"
    assert one[1]["kind"] == "call" and (one[1]["seat"], one[1]["call"]) == ("1", "terts")
    # §12.3: the trump seven takes the turned card on its holder's turn, before his card;
    # §12.5: rost? answered with the true top, the asker's lower terts conceded
    assert talk[1:5] == [("0", "menyayu"), ("0", "rost?"), ("1", "ot-A"), ("0", "pishet")]
    assert talk[5] == ("1", BREAK)
    # §12.5, later tricks: a terts to the trump A (from the exchange) beats the plain
    # one to the A, "the combination that has a trump card is more appreciated"; mariage
    # on top; and the other's later rost? is conceded to it
    assert talk[6:9] == [("0", "rost?"), ("1", "ot-A"), ("0", "ot-A-kozyrnogo")]
    assert talk[9:] == [("0", "bella"), ("1", "rost?"), ("0", "ot-A-kozyrnogo"), ("1", "pishet")]
    # §12.6: 0 writes his share, both his terts (the one he gave way on stands: 40) and
    # mariage (20): 80 + 40 + 20; 1 counts 73, written 70
    assert (one[-1]["points"], one[-1]["written"]) == ("137,73", "140,70")


async def test_a_whole_tertz_match_over_sockets_a_five_down_at_equal_tricks(
    start_server: StartServer, connect: Connector
) -> None:
    """§12.6: «The player who has the fewest bribes counts his points», with 8 tricks
    each (**Choice**) the seat without the last trick; «If the number ends in five,
    then rounding goes down»: seat 1 counts 45, written 40, and seat 0 150 − 40 = 110,
    with his terts to the trump K (claimed over 1's to the K) and mariage: 150. (Had 0
    counted, 105 → 100 and 1 50; had the five gone up, 50 and 140.)"""
    three = (await whole_match(start_server, connect, FIVE))[2]
    won = [e["winner"] for e in three if e["kind"] == "trick"]
    assert won.count("0") == won.count("1") == 8 and won[-1] == "0"
    talk = [(e["seat"], e["call"]) for e in three if e["kind"] == "call"]
    assert ("0", "ot-K-kozyrnogo") in talk and ("0", "bella") in talk
    end = three[-1]
    assert (end["points"], end["written"]) == ("145,45", "150,40")
