"""'top VARIANT' without a player count, for a variant not played by two: its own
count, not a refusal of a count nobody typed (docs/protocol.md §5.18)."""

from __future__ import annotations

import functools
from pathlib import Path

import trio

from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.server.app import serve
from deberc_net.server.web.standings import asked_game
from deberc_net.testing import rule_book
from tests.protocol.doc_examples import lines_until_pong

from .conftest import Connector, make_config


class Trio:
    """A third party's variant for three players only."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="trio", kind="variant", summary="three only", players=(3,))


async def test_top_of_a_variant_for_three_only_is_its_three_players_game(
    nursery: trio.Nursery, db_path: Path, connect: Connector
) -> None:
    """'top trio' said "trio is for 3 players, not 2": the 2 was top's default."""
    config = make_config(db_path)
    port = await nursery.start(functools.partial(serve, config, rules=rule_book(Trio())))
    ann = await connect.machine(port, "ann")
    assert await lines_until_pong(ann, "top trio") == [
        "top variant=trio players=3 count=0 total=0 page=1 pages=1"
    ]
    # a count it is not played by, typed, is still refused
    assert await lines_until_pong(ann, "top trio 2") == [
        "error code=bad-argument text=top [VARIANT] [PLAYERS] [PAGE]: trio is for 3 players, not 2"
    ]
    # the web face's ?variant= alone reads it so too (it said 400 No such game)
    assert asked_game({"variant": "trio"}, rule_book(Trio())) == ("trio", 3)
    assert asked_game({"variant": "tertz"}, rule_book(Trio())) == ("tertz", 2)
