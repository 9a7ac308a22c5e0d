"""``serve --workers``: a player whose connection to one worker drops, and who logs in
again at once on the worker that owns his table (or a third one), is not marked away by
that drop's ``away`` if the bus brings it after his login: the away names the
connection it tells the loss of (docs/scaling.md, "Reconnect-by-login on another
worker"). A real worker in this process on PostgreSQL, the test playing the others on
the real bus, sending what a worker sends (a worker of the previous version's away too,
which names none); and a real worker whose player drops, naming the connection."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY, Bus, channel
from tests.server.client import LineClient, close_all, is_event, log_in_machine

from .workers import (
    OTHER,
    ann_away_at_table,
    ann_back,
    ann_back_at,
    ann_plays_from,
    heard_one,
    played_bus,
    told_table,
    worker_and_bus,
)

THIRD = 900002  # a third worker the test plays
DROPPED = 1  # ann's session on OTHER, whose connection drops
MARKS = itertools.count(1000)  # the ids of its 'mark' messages


def _away(table: int, named: bool) -> dict[str, Any]:
    """The 'away' post of ann's dropped connection: as a worker sends it now (``named``:
    the connection, 's'), or as one of the previous version did (her name alone)."""
    away = {"k": "post", "table": table, "req": False, "m": "away", "name": "ann"}
    return away | ({"s": DROPPED} if named else {})


async def _told(other: Bus, here: int, heard: list[dict[str, Any]], body: dict[str, Any]) -> None:
    """OTHER tells this worker ``body``, and this worker has read it (its answer to a
    'mark' sent behind it, heard: the bus keeps a sender's order) and handed any away
    to the table, which reads it before a 'say' of bob's sent after."""
    mark = next(MARKS)
    other.publish(channel(here), body)
    other.publish(channel(here), {"k": "mark", "s": mark})
    await heard_one(heard, k="marked", s=mark)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
@pytest.mark.parametrize("where", ["here", "third"])
async def test_a_drop_told_after_the_players_login_again_marks_no_away(
    postgres_url: str, where: str
) -> None:
    # ann's connection to OTHER dropped and she logged in again at once, here (or at a
    # third worker); OTHER's away, on the bus meanwhile, came after her Back: the table
    # marked her away by name, connected and playing, and the away limit would forfeit
    # her match (failed before)
    heard: list[dict[str, Any]] = []
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with (
            worker_and_bus(postgres_url, heard, OTHER) as (port, other),
            played_bus(postgres_url, THIRD) as third,
        ):
            try:
                bob, table, here = await ann_plays_from(port, heard, other, DROPPED)
                opened.append(bob)
                # (a third worker asks the owner for her seat)
                ann = await ann_back_at(where, port, third, table, here, [OTHER, DROPPED])
                opened += [ann] if ann is not None else []
                await bob.read_until(lambda x: is_event(x, "back") and "name=ann" in x)
                await _told(other, here, heard, _away(table, named=True))  # the bus, late
                away, listed = await ann_away_at_table(bob, table, "after")
                assert not away, listed
                assert "away" not in listed, listed
            finally:
                await close_all(opened)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
@pytest.mark.parametrize("named", [True, False], ids=["named", "previous-version"])
async def test_a_drop_told_before_the_login_again_marks_him_away_till_then(
    postgres_url: str, named: bool
) -> None:
    # the other order: the away first, she is away (her seat's clock runs), and her
    # login takes her seat back; a worker of the previous version's away (her name
    # alone, a rolling upgrade) is not lost
    heard: list[dict[str, Any]] = []
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            try:
                bob, table, here = await ann_plays_from(port, heard, other, DROPPED)
                opened.append(bob)
                await _told(other, here, heard, _away(table, named))
                away, listed = await ann_away_at_table(bob, table, "dropped")
                assert away, listed
                ann = await ann_back(port)
                opened.append(ann)
                await bob.read_until(lambda x: is_event(x, "back") and "name=ann" in x)
                away, listed = await ann_away_at_table(bob, table, "back")
                assert not away and "away" not in listed, listed
            finally:
                await close_all(opened)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_previous_versions_away_is_of_the_name_whoever_holds_it(
    postgres_url: str,
) -> None:
    # what a worker of the previous version tells (no connection named) is read as
    # it was: by name, after her login too (the race stays with such a worker, until
    # it is upgraded)
    heard: list[dict[str, Any]] = []
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            try:
                bob, table, here = await ann_plays_from(port, heard, other, DROPPED)
                opened.append(bob)
                ann = await ann_back(port)
                opened.append(ann)
                await bob.read_until(lambda x: is_event(x, "back") and "name=ann" in x)
                await _told(other, here, heard, _away(table, named=False))
                away, listed = await ann_away_at_table(bob, table, "after")
                assert away, listed
            finally:
                await close_all(opened)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_players_drop_names_his_connection_to_his_tables_owner(
    postgres_url: str,
) -> None:
    # the worker his connection was on: its away for his seat at another worker's table
    # says which connection dropped, the one that sat there (it said only his name)
    heard: list[dict[str, Any]] = []
    table = told_table(5000, ["amy", None])
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            other.publish(LOBBY, {"k": "tables", "open": [table], "gone": []})
            ann = await log_in_machine(await LineClient.connect(port), "ann")
            await heard_one(heard, k="in", name="ann")
            # the worker knows of the table before she sits: this 'say' is heard after it
            other.publish(LOBBY, {"k": "say", "name": "someone", "text": "told"})
            await ann.expect("say", text="told")
            await ann.send("sit 5000")
            sit = await heard_one(heard, k="post", m="sit", table=5000)
            to = f"w{sit['w']}"  # the owner seats her there and says so
            seated = {"seat": 1, "table": 5000, "info": table | {"seats": ["amy", "ann"]}}
            other.publish(to, {"k": "placed", "s": sit["s"]} | seated)
            text = "ok cmd=sit table=5000 seat=1\r\n"
            done = {"asks": 0, "done": [sit["r"]]}
            other.publish(to, {"k": "text", "s": sit["s"], "text": text} | done)
            await ann.expect("ok", cmd="sit")
            await ann.aclose()
            away = await heard_one(heard, k="post", m="away", table=5000)
            assert away["name"] == "ann" and away["req"] is False
            assert away.get("s") == sit["s"], away
