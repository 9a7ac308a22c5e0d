"""A replay says what each deal's declarations counted, as `history` says it under the
deal ('Scored for combinations: bob terts 20.', «За комбинации: bob терц 20.»): black-box
evening s39, where `history` told 'vic terts 20, hundred kings 100' for a Tertz deal whose
replay gave its talk alone, uma's terts in it, and never who scored."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from pathlib import Path

import pytest
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang, table_words
from deberc_net.protocol.render import scored_lines
from deberc_net.testing import rule_book
from tests.server.client import play_machine
from tests.server.conftest import Connector

from .servers import web_server

pytestmark = pytest.mark.timeout(60)
SCORED = re.compile(r'<section class="deal" id="deal-(\d+)">.*?(?=<section class="deal"|\Z)', re.S)
LINE = re.compile(r'<p class="scored">(.*?)</p>', re.S)


@pytest.mark.parametrize("variant", ["kharkov", "tertz"])
async def test_a_replay_says_what_each_deals_declarations_counted(
    db_path: Path, connect: Connector, variant: str
) -> None:
    with trio.fail_after(50):
        # the same deals every run: random ones left some runs with no declaration
        # counted in the whole match, failing the check below that one was
        async with web_server(db_path, match_seed=f"scored-{variant}") as web:
            clients = []
            for name in ("ann", "bob"):
                client = await connect.machine(web.port, name)
                await client.send(f"seek 2 {variant}")
                await client.expect("ok")
                clients.append(client)
            async with trio.open_nursery() as nursery:
                for seed, client in enumerate(clients):
                    nursery.start_soon(play_machine, client, random.Random(seed + 5))
            game = json.loads((await web.get("/api/games/m1"))[1])
            pages = {
                lang: (await web.get(f"/games/m1?lang={lang.value}"))[1].decode() for lang in Lang
            }
    words = table_words(rule_book().ruleset(2, game["variant"], game["options"]).call_aliases)
    counted = 0
    for lang, page in pages.items():
        deals = {
            int(n): LINE.findall(m.group(0)) for m in SCORED.finditer(page) for n in [m.group(1)]
        }
        assert sorted(deals) == [r["deal_no"] for r in game["deals"]]
        for record in game["deals"]:
            said = scored_lines(ev.scored_in(record), game["players"], lang, words)
            assert [unescape(x) for x in deals[record["deal_no"]]] == said, record["deal_no"]
            counted += bool(said)
    assert counted  # some deal's declarations counted
