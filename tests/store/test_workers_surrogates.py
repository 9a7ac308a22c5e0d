"""A lone surrogate (a Python string UTF-8 cannot encode) on the bus of ``serve
--workers`` (docs/scaling.md): no input path can put one there (a player's line is
strict UTF-8, the web sends numbers, PostgreSQL's text holds none: bus.Bus.payloads
says where that is so), and one that came anyway costs its message, not the worker.
The nastiest lines players can send cross the two workers of a real cluster, and both
live; a message to send that holds one (a bug) is left out and the bus goes on (it
raised UnicodeEncodeError out of the publisher, which stopped the worker); one heard
from a notification crafted on the database is refused whole."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
import structlog.testing
import trio

from deberc_net.server.cluster.bus import LOBBY, Bus, channel
from tests.server.client import LineClient, close_all, fields, is_event, log_in_machine

from .workers import OTHER, SharedWorkers, until_listed, worker_and_bus

LONE = "x\ud800y"  # what UTF-8 cannot encode


async def _until(heard: list[dict[str, Any]], kind: str) -> None:
    with trio.fail_after(30):
        while not any(m["k"] == kind for m in heard):
            await trio.sleep(0.01)


async def test_a_message_utf8_cannot_encode_is_left_out_and_the_bus_goes_on(
    postgres_url: str,
) -> None:
    # before: UnicodeEncodeError out of publish_text (counting a merge's bytes, in the
    # caller's task: a table's) and out of the publisher (Bus.payloads), which ended
    # the bus and with it the worker
    heard: list[dict[str, Any]] = []
    sender = Bus(postgres_url, 1, lambda _: None)
    sender.open()
    hearer = Bus(postgres_url, 2, heard.append)
    hearer.open()
    try:
        with structlog.testing.capture_logs() as logs, trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(hearer.run)
                nursery.start_soon(sender.run)
                sender.publish(LOBBY, {"k": "say", "name": "ann", "text": LONE})
                sender.publish_text(channel(2), 7, f"{LONE}\r\n", 0)
                sender.publish(channel(2), {"k": "good"})
                await _until(heard, "good")
                sender.publish(channel(2), {"k": "after"})  # the publisher lives on
                await _until(heard, "after")
                nursery.cancel_scope.cancel()
    finally:
        sender.close()
        hearer.close()
    assert [m["k"] for m in heard] == ["good", "after"]
    left_out = [e for e in logs if e["event"] == "bus_message_unencodable"]
    assert [(e["log_level"], e["kind"]) for e in left_out] == [("error", "say"), ("error", "text")]
    assert "surrogate" in left_out[0]["why"]


@pytest.mark.timeout(100)
async def test_a_lone_surrogate_heard_from_the_database_is_refused_whole(
    postgres_url: str,
) -> None:
    # a JSON escape of a lone surrogate in a notification (no worker sends one:
    # crafted with pg_notify by whoever can reach the database) is refused before its
    # handler tells anyone; the worker serves on
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            bob = await log_in_machine(await LineClient.connect(port), "bob")
            claim = {"k": "in", "name": "ann", "guest": True, "token": "annstoken1"}
            other.publish(LOBBY, claim | {"fresh": True, "at": time.time(), "s": 1})
            await until_listed(bob, "who", "ann")
            crafted = f'{{"k":"say","name":"ann","text":"x\\ud800y","n":99,"w":{OTHER}}}'
            with structlog.testing.capture_logs() as logs:
                with psycopg.connect(postgres_url, autocommit=True) as db:
                    db.execute("SELECT pg_notify(%s, %s)", (LOBBY, crafted))
                other.publish(LOBBY, {"k": "say", "name": "ann", "text": "plain"})
                told = await bob.expect("say", text="plain", timeout=30)
            assert told["from"] == "ann"
            assert not [x for x in bob.lines if x.startswith("say ") and "plain" not in x]
            # (the test's bus, which plays the other worker, refused it too)
            failed = [e for e in logs if e["event"] == "bus_message_failed"]
            assert failed and all(b"ud800" in e["payload"] for e in failed), failed
            assert not [m for m in heard if m.get("n") == 99]
            await bob.send("who")
            await bob.expect("who", total="2")


@pytest.mark.timeout(130)
async def test_the_nastiest_lines_cross_two_workers_and_both_live(
    shared_workers: SharedWorkers,
) -> None:
    workers = shared_workers
    pids = dict(workers.pids)
    since = len(workers.events)
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            nan = await workers.connect(0, "nan")
            sue = await workers.connect(1, "sue")
            opened += [nan, sue]
            await until_listed(nan, "who", "sue")
            # JSON's escapes of lone surrogates, as text: only backslashes and letters
            escapes = r"\ud800 \udfff \uDC80 \u0000 \"}"
            # bytes no UTF-8 decoder takes: a surrogate encoded (alone, and a pair as
            # CESU-8 writes it), an overlong '/', a lone continuation byte, a sequence
            # cut short (0xFF is telnet's IAC: the framing's, not a letter)
            refused = [
                b"\xed\xa0\x80",
                b"\xed\xa0\xbd\xed\xb8\x80",
                b"\xc0\xaf",
                b"\x80",
                b"\xe2\x82",
            ]
            for speaker, hearer in ((nan, sue), (sue, nan)):
                for raw in refused:
                    await speaker.send_raw(b"say " + raw + b" end\r\n")
                    await speaker.expect("error", code="bad-encoding")
                await speaker.send_raw(b"say a\x00b\r\n")  # a NUL: dropped (telnet's CR NUL)
                await hearer.expect("say", text="ab", timeout=30)
                await speaker.send(f"say {escapes}")
                said = await hearer.expect("say", timeout=30)
                assert said["text"] == escapes, said

            # a table of worker 0's, its second player on worker 1: the table's lines
            # cross the bus both ways
            await nan.send("new 2")
            table = (await nan.expect("ok", cmd="sit"))["table"]
            await until_listed(sue, "tables", f"id={table} ")
            await sue.send(f"sit {table}")
            await sue.read_until(lambda x: is_event(x, "start"), 30)
            for speaker, hearer in ((sue, nan), (nan, sue)):
                for raw in refused:
                    await speaker.send_raw(b"say " + raw + b"\r\n")
                    await speaker.expect("error", code="bad-encoding")
                await speaker.send(f"say {escapes} at the table")
                line = await hearer.read_until(
                    lambda x: x.startswith("say ") and "at the table" in x, 30
                )
                assert fields(line)[1]["text"] == f"{escapes} at the table", line
            for client in (nan, sue):  # both workers answer
                await client.send("who")
                await client.read_until(lambda x: x.startswith("who "), 30)
        finally:
            await close_all(opened)
    assert dict(workers.pids) == pids
    ended = [e for e in workers.events[since:] if e.get("event") in ("worker_died", "bus_lost")]
    assert not ended, ended
    assert not [e for e in workers.events[since:] if e.get("level") == "error"]
