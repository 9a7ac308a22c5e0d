"""What one misbehaving client tried in the protocol review, and what it gets now: an
error for itself, nothing for anybody else, and a server that stays up."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import trio

import deberc_net.server.table as table_module

from .client import LineClient, fields, is_event, next_ask, seat_pair, sent_by
from .conftest import Connector, StartServer


async def test_many_new_lines_at_once_open_one_table(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send_raw(b"new 2\n" * 20 + b"seek 2\n")
    await ann.read_until(lambda x: x.startswith("ok cmd=sit"))
    with trio.fail_after(20):  # (a hard limit: the refusals come as the lines are read)
        while sum(x.startswith("error ") for x in ann.lines) < 20:
            await ann.drain(0.05)
    refusals = [fields(x)[1]["code"] for x in ann.lines if x.startswith("error ")]
    assert refusals == ["already-seated"] * 20
    bob = await connect.machine(port, "bob")
    await bob.send("tables")
    assert (await bob.expect("tables"))["count"] == "1"


async def test_a_new_that_cannot_seat_anyone_leaves_no_table(port: int, connect: Connector) -> None:
    ann = await connect.raw(port, "ann")
    await ann.send_raw(b"style machine\nlogin ann\nnew 2\n")
    await ann.aclose()  # gone before the table seats her
    bob = await connect.machine(port, "bob")
    with trio.fail_after(20):  # (a hard limit: the table goes as her connection does)
        while True:
            await bob.send("tables")
            if (await bob.expect("tables"))["count"] == "0":
                break
            await trio.sleep(0.25)  # (under lists_per_s, 5: past 3 s its burst was spent)


async def test_odd_digits_get_an_error_not_a_disconnect(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    for line in ("sit ²", "observe ¹", "rules ³", "sit 1 ²"):
        await ann.send(line)
        assert (await ann.expect("error"))["code"] in ("bad-argument", "unknown-table")
    await ann.send("new ²")  # read as an option name: refused as unknown
    assert (await ann.expect("error"))["code"] == "bad-rules"
    await ann.send("who")
    await ann.expect("who")


async def test_unicode_line_breaks_and_c1_controls_are_refused(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    for text in ("hi\u0085ask seq=1", "hi\u2028event", "hi\u009b2J"):
        await ann.send_raw(f"say {text}\n".encode())
        assert (await ann.expect("error"))["code"] == "control-character"
    await ann.send_raw("\ufeffsay plain\n".encode())  # a byte-order mark is dropped
    said = await bob.expect("say", **sent_by("ann"))
    assert said["text"] == "plain"


async def test_an_endless_telnet_subnegotiation_is_bounded(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(partial_line_ms=300)
    ann = await connect.raw(port, "ann")
    await ann.send("style machine")
    await ann.send_raw(bytes([255, 250, 24]) + b"x" * 100)  # IAC SB ..., never IAC SE
    await ann.expect("error", code="line-timeout")
    await ann.wait_closed()


async def test_wrong_passwords_close_the_connection(port: int, connect: Connector) -> None:
    owner = await connect.raw(port, "owner")
    await owner.send("style machine")
    await owner.send("login regd secret")
    await owner.expect("ok", cmd="login")
    guesser = await connect.raw(port, "guesser")
    await guesser.send("style machine")
    for attempt in ("a", "b", "c"):
        await guesser.send(f"login regd {attempt}")
        await guesser.expect("error", code="bad-password")
    await guesser.expect("bye")
    await guesser.wait_closed()


async def test_a_burst_of_calls_cannot_crowd_out_the_other_seat(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    await ann.send_raw(b"frobnicate\n" * 300)  # fills at most its own share of the inbox
    for _ in range(5):
        await bob.send("state")
        await bob.read_until(lambda x: x.startswith(("state ", "ask ")))
    codes = {fields(x)[1]["code"] for x in ann.lines if x.startswith("error ")}
    assert codes <= {"busy", "unknown-command", "not-your-turn"}


async def test_a_forfeit_sends_and_stores_the_deal_it_ended(
    start_server: StartServer, connect: Connector, db_path: Path
) -> None:
    port = await start_server(bot_clock_ms=150, max_timeouts=2)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)

    async def quiet(client: LineClient) -> dict[str, str]:
        return fields(
            await client.read_until(lambda x: x.startswith("event ") and "kind=match-end" in x)
        )[1]

    with trio.fail_after(30):
        end = await quiet(ann)  # neither answers: the first to act times out twice
    assert end["reason"] == "timeouts" and end.get("forfeit") not in (None, "-")
    record = next(x for x in ann.lines if x.startswith("record "))
    assert '"outcome":"timeouts"' in record and '"auto":true' in record
    done = await trio.run_process(
        [sys.executable, "-m", "deberc_net", "records", "export", "--db", str(db_path)],
        capture_stdout=True,
    )
    assert b'"outcome":"timeouts"' in done.stdout


async def test_unobserve_and_sitting_stops_observing(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    bob = await connect.machine(port, "bob")
    await bob.send(f"observe {table}")
    await bob.expect("ok", cmd="observe")
    await bob.send("unobserve")
    assert (await bob.expect("ok", cmd="unobserve"))["table"] == table
    await bob.send(f"observe {table}")
    await bob.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await bob.send("tables")
    assert (await bob.expect("table", id=table))["observers"] == "0"


async def test_full_width_names_are_the_same_person(port: int, connect: Connector) -> None:
    anna = await connect.machine(port, "anna", password="pw1-anna")
    other = await connect.raw(port, "other")
    await other.send("style machine")
    await other.send("login ａｎｎａ")  # full-width: anna, and anna is registered
    await other.expect("error", code="bad-password")
    await anna.send("who")
    assert (await anna.expect("who"))["names"] == "anna"


@pytest.mark.parametrize("flawed", ["parse_call", "hint"])
async def test_a_flaw_in_reading_a_call_costs_the_line_not_the_table(
    port: int, connect: Connector, monkeypatch: pytest.MonkeyPatch, flawed: str
) -> None:
    # 'of of of' (s30) raised inside the call parser and closed the table for every
    # seat: a reading that raises now refuses that line alone, and play goes on
    real = getattr(table_module, flawed)

    def with_a_flaw(text: str, *args: Any, **kwargs: Any) -> Any:
        if text.startswith("flaw"):
            raise IndexError("a reader's bug")
        return real(text, *args, **kwargs)

    monkeypatch.setattr(table_module, flawed, with_a_flaw)
    ann, bob = await connect.machine(port, "ann"), await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    turn = await next_ask(ann, bob)
    assert turn is not None
    ask, player = turn
    other = bob if player is ann else ann
    await player.send(f"flaw {ask['seq']}")
    refusal = await player.expect("error")
    assert refusal["code"] == "unknown-command"
    assert refusal["text"].startswith("not a table call: 'flaw …'")
    await player.send(ask["legal"].split(",")[0])  # the same seat's call is still taken
    await player.read_until(lambda x: is_event(x, "call") or is_event(x, "trump"))
    assert not [x for x in [*ann.lines, *bob.lines] if "internal" in x]
    await other.send("tables")
    assert (await other.expect("tables"))["count"] == "1"
