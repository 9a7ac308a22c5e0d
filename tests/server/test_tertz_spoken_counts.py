"""Tertz's declarations typed as people say them at a real table (docs/protocol.md
§8.2): four jacks as ``200``, one hundred as ``сто``, ``hundred`` or ``100`` alone, the
count filled in from ``legal`` as ``terts`` fills in ``dva-tertsa``. The seeds deal
the first seat to act a combination worth that much (deal 1)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
import trio

from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset, say

from .client import LineClient
from .conftest import Connector

TERTZ = build_ruleset(2, "tertz")


async def seated(port: int, connect: Connector) -> dict[int, LineClient]:
    """ann opens a Tertz table, bob sits: each client by its seat."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2 tertz")
    sat = await ann.expect("ok", cmd="sit")
    await bob.send(f"sit {sat['table']}")
    await bob.expect("ok", cmd="sit")
    return {int(sat["seat"]): ann, 1 - int(sat["seat"]): bob}


def acting(match: Match) -> int:
    """The seat whose turn it is (a match that asks someone)."""
    seat = match.to_act
    assert seat is not None
    return seat


async def first_ask(port: int, connect: Connector, seed: str) -> tuple[LineClient, dict[str, str]]:
    """The client of the seat the seed gives the first turn, and its first ask."""
    client = (await seated(port, connect))[acting(Match(TERTZ, seed=seed))]
    return client, await client.expect("ask")


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("seed", "typed", "meant"),
    [
        ("words36-342", "200", "dvesti"),  # four jacks
        ("words36-19", "сто", "sto-pyat"),  # a run of five
        ("words36-72", "hundred", "sto-dam"),  # four queens
        ("words36-96", "100", "sto-korolei"),  # four kings
        ("words36-105", "Сто", "sto-tuzov"),  # four aces
    ],
)
async def test_a_hundred_said_alone_is_the_one_legal(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    seed: str,
    typed: str,
    meant: str,
) -> None:
    port = await start_server(match_seed=seed)
    with trio.fail_after(20):
        client, ask = await first_ask(port, connect, seed)
        assert meant in ask["legal"].split(",")
        await client.send(f"{typed} seq={ask['seq']}")
        told = await client.expect("event", kind="call")
    assert told["call"] == meant and told["seat"] == ask["seat"]


@pytest.mark.timeout(30)
async def test_a_hundred_said_with_none_to_declare_is_told_what_is_declared(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server(match_seed="words36-342")  # four jacks: 200, no hundred
    with trio.fail_after(20):
        client, ask = await first_ask(port, connect, "words36-342")
        await client.send(f"сто seq={ask['seq']}")
        told = await client.expect("error")
    # refused as a declaration, saying what the seat declares («сто» was once only "not
    # a call you may make now", which a club evening could not act on)
    assert told == {
        "code": "false-declaration",
        "text": "you do not hold sto; yours to declare is dvesti",
    }


@pytest.mark.timeout(30)
async def test_pishu_is_told_what_it_may_mean_not_that_it_is_no_call(
    port: int, connect: Connector
) -> None:
    """«пишу» ('I write') names no call: the one who gives way says «пишет» ('it
    writes'), the better combination is said by its top card (docs/protocol.md §8.2)."""
    ann = await connect.machine(port, "ann")
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    with trio.fail_after(20):
        await vera.send(f"sit {table}")
        await vera.read_until(lambda line: line.startswith("Ваши карты"), 30)
        await vera.send("пишу")
        said = await vera.read_until(lambda line: line.startswith("Ошибка"))
        while not said.endswith("."):  # the human style folds it at 80 columns
            said += " " + (await vera.read_until(lambda _: True)).strip()
        await ann.send("pishu")
        told = await ann.expect("error")
    assert said == (
        "Ошибка (ambiguous-call): «пишу» — не ход: уступить — «пишет» (записывается "
        "комбинация соперника); свою, если она лучше, называют по старшей карте: «от …»."
    )
    assert told == {
        "code": "ambiguous-call",
        "text": "'pishu' is no call: to give way, say pishet (the other's combination is "
        "written); a better combination of yours is said by its top card: ot RANK.",
    }


def _talk(legal: list[str]) -> str:
    """Declare a terts, ask rost?, answer it with the top card; else the first card."""
    for call in ("terts", "rost?"):
        if call in legal:
            return call
    return next(c for c in legal if c.startswith("ot-") or c[0] in "789JQKA1")


@pytest.mark.timeout(30)
async def test_pishu_answering_a_top_card_names_the_one_that_beats_it(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """Both hold a terts; bob asks rost?, ann answers her top card, and bob, whose
    terts is higher (ot-K, the seed's), types «пишу»: told pishet, or ot-K."""
    port = await start_server(match_seed="words36-153")
    mirror = Match(TERTZ, seed="words36-153")  # whose ask comes next
    with trio.fail_after(20):
        clients = await seated(port, connect)
        ask = await clients[acting(mirror)].expect("ask")
        while "pishet" not in ask["legal"].split(","):
            call = _talk(ask["legal"].split(","))
            await clients[acting(mirror)].send(f"{call} seq={ask['seq']}")
            say(mirror, acting(mirror), call)
            ask = await clients[acting(mirror)].expect("ask")
        await clients[acting(mirror)].send(f"пишу seq={ask['seq']}")
        told = await clients[acting(mirror)].expect("error")
    assert ask["legal"] == "ot-K,pishet"
    assert told == {
        "code": "ambiguous-call",
        "text": "'пишу' is no call: to give way, say pishet (the other's combination is "
        "written); a better combination of yours is said by its top card: ot-K.",
    }
