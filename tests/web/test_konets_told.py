"""A stored match a seat's true `konets` won (manual-claim) is told so wherever its end
is written for people: `games` (English and Russian) and the pages (a player's, the
replay), as the table's end line says it (docs/rules.md §10); the server's own claim
stays `target mid-deal`. A club evening read a `konets` as `target mid-deal` in
`games`. The store keeps the reason `claim` for both and the match's options: under
manual-claim the engine never claims by itself. Real sockets, a real SQLite file."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.game.match import Match
from deberc_net.server.store.sqlite import SQLiteStore
from tests.game.decks import claimed_match
from tests.server.client import LineClient, person_told
from tests.server.conftest import Connector

from .conftest import WebServer


def store_match(db_path: Path, match: Match) -> None:
    """``match`` written as its server writes it: its deals, then its end."""
    store = SQLiteStore(db_path)
    try:
        with store.group():
            for record in match.records:
                store.add_deal(record)
            result = match.result
            assert result is not None
            store.finish_match(
                match.match_id, 1, list(match.names), match.rules.variant,
                sorted(match.rules.options), "anna", result.reason, list(match.totals),
            )  # fmt: skip
    finally:
        store.close()


async def games_told(person: LineClient) -> dict[str, str]:
    """``games anna`` as a person reads it: each match's line, a line wrapped past 80
    columns joined again."""
    lines: list[str] = []
    for line in await person_told(person, "games anna"):
        if line.startswith("  ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return {m.group(1): line for line in lines if (m := re.search(r"  (m\d)  ", line))}


@pytest.mark.timeout(60)
async def test_a_true_konets_is_told_as_konets_and_the_servers_claim_as_before(
    start_web: Callable[..., Any], db_path: Path, connect: Connector
) -> None:
    store_match(db_path, claimed_match(konets=False, match_id="m1"))
    store_match(db_path, claimed_match(konets=True, match_id="m2"))
    web: WebServer = await start_web()
    with trio.fail_after(30):
        person = await connect.human(web.port, "vera")
        english = await games_told(person)
        assert english["m2"].endswith("winner anna (konets)")
        assert english["m1"].endswith("winner anna (target mid-deal)")
        await person_told(person, "lang ru")
        russian = await games_told(person)
        assert russian["m2"].endswith("(объявлен «конец»)")
        assert russian["m1"].endswith("(досрочно: набраны очки)")
        # the machine line keeps the wire's token (docs/protocol.md §9.7)
        bot = await connect.machine(web.port, "zed")
        await bot.send("games anna")
        games = [await bot.expect("game") for _ in range(2)]
        assert {g["match"]: g["reason"] for g in games} == {"m1": "claim", "m2": "claim"}

        _, _, body = await web.ask("GET", "/players/anna")
        page = body.decode()
        assert "anna claimed the match: konets" in page
        assert "anna reached the target within the deal" in page
        _, _, body = await web.ask("GET", "/players/anna", {"Accept-Language": "ru"})
        assert "объявлен «конец»" in body.decode()
        _, _, body = await web.ask("GET", "/api/players/anna")
        listed = {g["match"]: g for g in json.loads(body)["games"]}
        assert (listed["m2"]["reason"], listed["m2"]["claimed"]) == ("claim", True)
        assert (listed["m1"]["reason"], listed["m1"]["claimed"]) == ("claim", False)
        _, _, body = await web.ask("GET", "/games/m2")
        assert "Match over: anna wins (anna claimed the match: konets)." in body.decode()
        _, _, body = await web.ask("GET", "/games/m1")
        assert "Match over: anna wins (anna reached the target within the deal)." in body.decode()
        _, _, body = await web.ask("GET", "/games/m2?lang=ru")
        assert "выигрывает (объявлен «конец»)" in body.decode()
