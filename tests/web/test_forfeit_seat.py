"""Who forfeited a match of three or four players, as the pages say it (docs/web.md):
the winner does not tell (two losers, or a pair), so the replay said 'a player left
the table' (tryout m17). The seat is stored now: in the match's row (a forfeit before
the first call has no record) and in its last record's ``match_over`` (docs/records.md),
and /games/ID, /api/games/ID, /players/NAME and /api/players/NAME name the player."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import trio

from deberc_net.game.match import Match
from deberc_net.server.web.replay import replay_match
from deberc_net.testing import build_ruleset, rule_book
from tests.server.client import LineClient, fields
from tests.server.conftest import Connector

from .conftest import WebServer

NAMES = ("ann", "bob", "cat", "dan")


async def _seated(web: WebServer, connect: Connector, players: int) -> list[LineClient]:
    """``players`` people at one new table, by seat; its match started."""
    clients = [await connect.machine(web.port, name) for name in NAMES[:players]]
    first = clients[0]
    await first.send(f"new {players} moscow")
    sat = await first.expect("ok", cmd="sit")
    by_seat = {int(sat["seat"]): first}
    for client in clients[1:]:
        await client.send(f"sit {sat['table']}")
        by_seat[int((await client.expect("ok", cmd="sit"))["seat"])] = client
    for client in clients:
        await client.expect("event", kind="start")
    return [by_seat[seat] for seat in range(players)]


async def _one_call_made(seated: list[LineClient]) -> None:
    """The first seat asked makes a call (the first it may but four sevens), and every
    seat is told."""
    asked: list[tuple[LineClient, dict[str, str]]] = []

    async def wait_for_ask(client: LineClient, cancel: trio.CancelScope) -> None:
        asked.append((client, fields(await client.read_until(lambda x: x.startswith("ask ")))[1]))
        cancel.cancel()

    async with trio.open_nursery() as nursery:
        for client in seated:
            nursery.start_soon(wait_for_ask, client, nursery.cancel_scope)
    client, ask = asked[0]
    # not four sevens (a seat may hold them, offered first): that call ends the deal,
    # and the deal a leave then cuts would be a new one with no call made
    call = next(c for c in ask["legal"].split(",") if c != "chetyre-semerki")
    await client.send(f"{call} seq={ask['seq']}")
    for client in seated:
        await client.expect("event", kind="call")


@pytest.mark.parametrize("mid_deal", [False, True], ids=["before-the-first-call", "mid-deal"])
@pytest.mark.parametrize("players", [3, 4])
async def test_the_pages_name_who_forfeited_a_match_of_three_or_four(
    start_web: Callable[..., Any], connect: Connector, players: int, mid_deal: bool
) -> None:
    """The last seat leaves: with three players seat 0 wins (0:0:0, docs/protocol.md
    §11.3) over seats 1 and 2; with four, seats 0 and 2 over 1 and 3. Either way the
    first loser is not who left."""
    web: WebServer = await start_web()
    with trio.fail_after(30):
        seated = await _seated(web, connect, players)
        if mid_deal:
            await _one_call_made(seated)
        leaver = players - 1
        await seated[leaver].send("leave!")
        end = await seated[0].expect("event", kind="match-end")
    assert (end["reason"], end["forfeit"]) == ("left", str(leaver))
    match, who = end["match"], NAMES[leaver]
    winners = "ann wins" if players == 3 else "ann and cat win"

    game = json.loads((await web.get(f"/api/games/{match}"))[1])
    assert game["forfeit"] == leaver and game["players"][leaver] == who
    assert len(game["deals"]) == mid_deal
    if mid_deal:  # the record says it too
        assert game["deals"][-1]["match_over"]["forfeit"] == leaver
    status, body = await web.get(f"/games/{match}")
    over = f'<span id="over">Match over: {winners} ({who} left the table: forfeit).</span>'
    assert status == 200 and over in body.decode()

    for name in NAMES[:players]:
        [played] = json.loads((await web.get(f"/api/players/{name}"))[1])["games"]
        assert played["forfeit"] == leaver
        page = (await web.get(f"/players/{name}"))[1].decode()
        # before the first call neither won nor lost: who left, not his defeat (s49)
        forfeit = ": forfeit" if mid_deal else ""
        assert f"<td>{who} left the table{forfeit}</td>" in page


def _forfeited_match(players: int, leaver: int) -> Match:
    """A match the seat ``leaver`` forfeited after the first call of its first deal."""
    rules = build_ruleset(players)
    match = Match(rules, seed=f"forfeit-seat-{players}", names=NAMES[:players], dealer=0)
    seat = match.to_act
    assert seat is not None
    match.apply(seat, match.legal_calls(seat)[0])
    sides = rules.settings.sides()
    match.forfeit(next(s for s, seats in enumerate(sides) if leaver in seats), "away", seat=leaver)
    return match


def test_the_replay_names_the_seat_its_record_keeps_when_its_row_does_not() -> None:
    """A row stored without the seat (the record says it: it was a forfeit mid-deal)."""
    records = list(_forfeited_match(3, 2).records)
    replay = replay_match(records, rule_book())
    assert replay.forfeit == 2
    assert replay.over == "Match over: ann wins (cat was away too long: forfeit)."


@pytest.mark.parametrize(
    ("players", "named"),
    [
        (2, "Match over: ann wins (bob was away too long: forfeit)."),
        (3, "Match over: ann wins (a player was away too long: forfeit)."),
        (4, "Match over: ann and cat win (a player was away too long: forfeit)."),
    ],
)
def test_a_match_stored_before_the_seat_was_kept_is_told_as_before(
    players: int, named: str
) -> None:
    """Old records and rows keep no seat (docs/web.md): two players' one loser is who
    forfeited; of three or four, 'a player'."""
    records = list(_forfeited_match(players, players - 1).records)
    del records[-1]["match_over"]["forfeit"]
    replay = replay_match(records, rule_book())
    assert replay.over == named
    assert replay.forfeit == (1 if players == 2 else None)
