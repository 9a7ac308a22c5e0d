"""Why a match ended, in words, as the replay says it (web/ends.py): true whatever the
server's settings (a real server, its store)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import trio

from deberc_net.protocol.ends import end_words
from deberc_net.server.web.ends import match_over_words
from tests.server.client import a_whole_match, fields, is_event
from tests.server.conftest import Connector

from .conftest import WebServer


@pytest.mark.parametrize("players", [2, 3])
async def test_a_timeouts_forfeit_is_told_without_a_count_the_setting_may_not_have(
    start_web: Callable[..., Any], connect: Connector, players: int
) -> None:
    """``max_timeouts`` is a setting (docs/settings.md): the words said '3 times in a
    row' whatever it was, here once. Three players: who it was, not 'a player' (the
    tryout's m17; the store keeps the seat, docs/web.md)."""
    web: WebServer = await start_web(max_timeouts=1, human_clock_ms=300, bot_clock_ms=300)
    names = ("ann", "bob", "cat")[:players]
    clients = [await connect.machine(web.port, name) for name in names]
    await clients[0].send(f"new {players} moscow")
    sat = await clients[0].expect("ok", cmd="sit")
    table, seats = sat["table"], {int(sat["seat"]): "ann"}
    for name, client in zip(names[1:], clients[1:], strict=True):
        await client.send(f"sit {table}")
        seats[int((await client.expect("ok", cmd="sit"))["seat"])] = name
    last = clients[-1]
    match = (await last.expect("event", kind="start"))["match"]
    with trio.fail_after(30):  # nobody answers: the first seat asked forfeits at once
        end = await last.read_until(lambda x: "kind=match-end" in x)
    f = fields(end)[1]
    assert f["reason"] == "timeouts"
    loser = seats[int(f["forfeit"])]
    status, body = await web.get(f"/games/{match}")
    page = body.decode()
    assert status == 200, page
    why = f"{loser} let the clock run out too many times in a row: forfeit"
    assert f'<span id="over">Match over: {f["name"]} wins ({why}).</span>' in page, page


async def test_a_claims_end_names_the_side_that_reached_the_target(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    """An automatic claim said 'a side reached the target within the deal' (a tryout):
    which side? The pages name the winners'; the wire's reason stays ``claim``."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    for _ in range(12):  # fresh decks: two matches in three end by a claim
        await a_whole_match(ann, bob, "2")
        end = fields([x for x in ann.lines if is_event(x, "match-end")][-1])[1]
        if end["reason"] == "claim":
            break
    assert end["reason"] == "claim"
    winner = end["name"]
    why = f"{winner} reached the target within the deal"
    status, body = await web.get("/api/players/ann")
    game = json.loads(body)["games"][0]
    assert (status, game["reason"], game["winners"]) == (200, "claim", [winner])
    match = game["match"]
    page = (await web.get(f"/games/{match}"))[1].decode()
    assert f'<span id="over">Match over: {winner} wins ({why}).</span>' in page, page
    page = (await web.get("/players/bob"))[1].decode()
    assert f"<td>{why}</td>" in page, page


def test_a_claim_names_each_winner_of_a_side_and_a_side_when_there_is_none() -> None:
    over = match_over_words(["ann", "cat"], "claim")
    assert over == "Match over: ann and cat win (ann and cat reached the target within the deal)."
    assert end_words("claim") == "a side reached the target within the deal"  # the wire's
