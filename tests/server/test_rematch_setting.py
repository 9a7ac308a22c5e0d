"""``rematch_ms``: how long after a match's end its players may agree to play again
(docs/settings.md), a setting where it was a constant (rematch.REMATCH_S, 60 s): the
offer's end, what people are told of it and a late 'rematch''s refusal follow it; a
value outside 1 s to an hour stops ``serve``, named, before anything is opened."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio
import trio.testing

from deberc_net.cli import main
from deberc_net.server.config import Config

from .client import LineClient, fields, play_machine
from .conftest import Connector


async def _play_one(ann: LineClient, bob: LineClient) -> str:
    """A one-deal match of ann and bob at a new table; its table id."""
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1))
        nursery.start_soon(play_machine, bob, random.Random(2))
    return table


async def test_rematch_ms_is_the_offers_time_and_what_people_are_told(
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
) -> None:
    port = await start_server(rematch_ms=5000)
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("style machine")
    await ann.expect("ok", cmd="style")
    await _play_one(ann, bob)
    ended = trio.current_time()
    await ann.send("style human")  # (before: the offer off after 60 s)
    await ann.send("rematch")
    await ann.read_until(lambda x: x.startswith("You ask for a rematch"))
    off = await ann.read_until(lambda x: "is off" in x, timeout=120)
    assert off.endswith("is off: not everyone asked in time.")
    assert trio.current_time() - ended == pytest.approx(5, abs=0.5)
    await bob.send("rematch")  # too late: told the time there was (before: 60 s)
    refused = await bob.expect("error", code="not-allowed")
    assert "within 5 s of your match's end" in refused["text"], refused


@pytest.mark.parametrize("value", ["0", "999", "3600001"])
def test_a_rematch_time_outside_a_second_to_an_hour_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    path = tmp_path / "server.toml"
    path.write_text(f"[server]\nrematch_ms = {value}\n", encoding="utf-8")
    db = tmp_path / "serve.sqlite3"
    assert main(["serve", "--config", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    said = "setting rematch_ms expects a whole number, 1000 to 3600000 (milliseconds, 1 s to"
    assert said in err and f"not {value}" in err, err
    assert not db.exists()


def test_a_rematch_time_that_is_no_whole_number_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "server.toml"
    path.write_text("[server]\nrematch_ms = 60.5\n", encoding="utf-8")
    assert main(["serve", "--config", str(path), "--db", str(tmp_path / "s.sqlite3")]) == 2
    assert "setting rematch_ms expects a whole number, not 60.5" in capsys.readouterr().err


def test_the_default_is_60_s() -> None:
    assert Config().rematch_ms == 60_000


async def test_a_programs_match_end_names_the_time(
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
) -> None:
    """The match-end line names the time to ask 'rematch' in, ``rematch_s=`` appended
    (docs/protocol.md §5.16, §9.7): the terminal client, a program, said 60 s whatever
    the setting (a review, s45)."""
    port = await start_server(rematch_ms=5500)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    ends: list[str] = []

    async def play(client: LineClient, seed: int) -> None:
        ends.append(await play_machine(client, random.Random(seed)))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, ann, 1)
        nursery.start_soon(play, bob, 2)
    assert len(ends) == 2
    for end in ends:  # (whole seconds, as people are told it, rounded down: 5.5 s is 5)
        assert end.endswith(" rematch_s=5"), end


async def _help(client: LineClient, topic: str) -> str:
    """'help TOPIC''s lines, joined as one text."""
    await client.send(f"help {topic}")
    await client.send("ping")  # a marker: the block has ended when its answer comes
    lines: list[str] = []
    while (got := fields(await client.read_until(lambda _: True)))[0] != "ok":
        assert got[0] == "help", got
        lines.append(got[1]["text"])
    return " ".join(" ".join(x.split()) for x in lines)


async def test_help_rematch_says_this_servers_time(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """'help rematch' said '60 s as a rule' whatever rematch_ms the server has, where
    'help clock' says the server's clocks (a tryout, s48): it says this server's time,
    in whole seconds as the match's end tells it (5.5 s: 5 s)."""
    port = await start_server(rematch_ms=5500)
    ann = await connect.machine(port, "ann")
    english = await _help(ann, "rematch")
    assert "Everyone must ask within 5 s of the match's end (on this server);" in english, english
    assert "60" not in english, english
    russian = await _help(ann, "rematch lang=ru")
    assert "в течение 5 с после конца партии (на этом сервере);" in russian, russian
    assert "60" not in russian, russian
