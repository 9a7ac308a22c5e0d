"""A stored match a seat's true `konets` won (manual-claim) is told so wherever its end
is written for people: `games` (English and Russian) and the pages (a player's, the
replay), as the table's end line says it (docs/rules.md §10); the server's own claim
stays `target mid-deal`. A club evening read a `konets` as `target mid-deal` in
`games`. The store keeps the reason `claim` for both and the match's options: under
manual-claim the engine never claims by itself. A deal so cut short reads `claimed` in
English where a person reads it (the replay, the live page's Deals list, the human
style's `sheet` and `history`), as Russian says «досрочно»; English said its code, `claim`
(a web tryout, s46: `4 claim 50 : 28`); the JSON and the machine style keep the token
`claim` (docs/protocol.md §9.6). Real sockets, a real SQLite file."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.game.match import Match
from deberc_net.game.outcomes import Outcome
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import deal_word
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


def test_a_claimed_deal_reads_claimed_in_english_and_dosrochno_in_russian() -> None:
    names = ["anna", "boris"]
    assert deal_word(Outcome.CLAIM, [50, 28], names, False, Lang.EN) == "claimed"
    assert deal_word(Outcome.CLAIM, [50, 28], names, False, Lang.RU) == "досрочно"


@pytest.mark.timeout(60)
async def test_the_replay_says_a_claimed_deal_in_words_and_the_json_its_code(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    for konets, match in ((False, "m1"), (True, "m2")):
        store_match(db_path, claimed_match(konets=konets, match_id=match))
    web: WebServer = await start_web()
    with trio.fail_after(30):
        for match in ("m1", "m2"):
            status, page = await web.get(f"/games/{match}")
            assert status == 200 and "Outcome: claimed." in page.decode()
            _, page = await web.get(f"/games/{match}?lang=ru")
            assert "Исход: досрочно." in page.decode()
            _, body = await web.get(f"/api/games/{match}")
            assert [d["outcome"] for d in json.loads(body)["deals"]] == ["claim"]
