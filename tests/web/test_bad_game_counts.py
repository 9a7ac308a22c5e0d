"""A game ``/top`` has no standings of (a variant not played by that many) is said as a
sentence says its player counts, as 'top' says it on the game port: "chiming is for 2
or 3 players, not 4" («для 2 или 3 игроков»), not "2/3" (a review, s45; docs/web.md)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
import trio

from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.server.app import serve
from deberc_net.testing import rule_book
from tests.server.conftest import make_config

from .conftest import WebServer


class Chiming:
    """A third party's variant for two or three players."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="chiming", kind="variant", summary="a game", players=(2, 3))


@pytest.mark.timeout(30)
async def test_a_count_the_variant_is_not_played_by_is_said_in_words(
    nursery: trio.Nursery, db_path: Path
) -> None:
    config = make_config(db_path, http_port=0)
    bound: list[int] = []
    serving = functools.partial(serve, config, rules=rule_book(Chiming()), http_bound=bound.append)
    web = WebServer(await nursery.start(serving), bound[0])
    status, body = await web.get("/api/top?variant=chiming&players=4")
    assert status == 400
    assert json.loads(body)["error"] == "no such game: chiming is for 2 or 3 players, not 4"
    status, body = await web.get("/top?variant=chiming&players=4", {"Accept-Language": "ru"})
    page = body.decode()
    assert status == 400 and "chiming — для 2 или 3 игроков, а не для 4" in page, page
    assert "2/3" not in page
    status, body = await web.get("/top?variant=chiming&players=4")
    assert status == 400 and "chiming is for 2 or 3 players, not 4" in body.decode()
