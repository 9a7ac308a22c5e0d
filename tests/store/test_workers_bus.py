"""The bus of ``serve --workers`` (docs/scaling.md) on a real PostgreSQL: a busy worker,
with more than 1024 descriptors open, still hears the others."""

from __future__ import annotations

import itertools
import json
import os
import resource
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import structlog.testing
import trio

from deberc_net.server.cluster.bus import (
    LOBBY,
    MAX_PAYLOAD,
    MERGED_DONE,
    OTHER_FIELDS,
    TEXT_ROOM,
    Bus,
    channel,
    text_pieces,
)

ABOVE = 1100  # descriptors: past select()'s FD_SETSIZE (1024)


@contextmanager
def _descriptors_held(count: int) -> Iterator[None]:
    """``count`` descriptors of this process open (the soft limit raised for them if
    the hard one allows), so the next ones opened are numbered past them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 64
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"RLIMIT_NOFILE's hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    held: list[int] = []
    try:
        while len(held) < count:
            held.append(os.open(os.devnull, os.O_RDONLY))
        yield
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def _until(heard: list[dict[str, Any]], kind: str, take_in: Bus | None = None) -> None:
    with trio.fail_after(30):
        while not any(m["k"] == kind for m in heard):
            if take_in is not None:
                take_in.take_in()
            await trio.sleep(0.01)


async def test_a_worker_with_more_than_1024_descriptors_open_still_hears_the_bus(
    postgres_url: str,
) -> None:
    # take_in (what a worker that judges the others silent reads first) used select(),
    # which refuses a descriptor numbered 1024 or more: ValueError (failed before)
    heard: list[dict[str, Any]] = []
    with _descriptors_held(ABOVE):
        probe = os.open(os.devnull, os.O_RDONLY)
        os.close(probe)
        assert probe > 1024  # so the listener's socket, opened next, is numbered past it
        busy = Bus(postgres_url, 1, heard.append)
        busy.open()
        other = Bus(postgres_url, 2, lambda _: None)
        other.open()
        try:
            with trio.fail_after(30):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(other.run)
                    listening = trio.CancelScope()

                    async def listen() -> None:
                        with listening:
                            await busy.run()

                    nursery.start_soon(listen)
                    other.publish(LOBBY, {"k": "hello"})
                    await _until(heard, "hello")  # heard by its listening task
                    listening.cancel()  # taken in at once, as a worker judging others does
                    other.publish(LOBBY, {"k": "tables"})
                    await _until(heard, "tables", take_in=busy)
                    nursery.cancel_scope.cancel()
        finally:
            busy.close()
            other.close()


# a long-running worker's request ids (its counter), each a 'done' of an answer
LONG_UP_REQUEST = 10**9
LETTERS = 1800  # what merging allowed, counted in letters


def _texts() -> list[str]:
    """A player's lines from a table on another worker: a name and a word of two and
    three bytes a letter, then emoji (four), LETTERS letters in all."""
    texts = ["Жданович 天和 "]
    emoji = LETTERS - len(texts[0])
    for i in range(MERGED_DONE - 1):
        share = emoji // (MERGED_DONE - 1 - i)
        texts.append(("😀🂡" * share)[:share])
        emoji -= share
    return texts


async def test_merged_non_ascii_texts_stay_under_postgresqls_payload_limit(
    postgres_url: str,
) -> None:
    # a text and its answer's 'done', over and over, for one session: as a table's
    # lines to a player on another worker. Merged up to 1800 letters (not bytes), the
    # emoji's 4 bytes each and the ids made a payload over MAX_PAYLOAD, dropped with
    # bus_message_too_long: the player never got those lines (failed before)
    texts = _texts()
    ids = [LONG_UP_REQUEST + i for i in range(MERGED_DONE)]
    as_one = {"k": "text", "s": 7, "text": "".join(texts), "asks": len(texts), "done": ids}
    assert len(json.dumps(as_one, ensure_ascii=False).encode()) > MAX_PAYLOAD  # the case
    heard: list[dict[str, Any]] = []
    sender = Bus(postgres_url, 1, lambda _: None)
    sender.open()
    hearer = Bus(postgres_url, 2, heard.append)
    hearer.open()
    try:
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(hearer.run)
                for text, request in zip(texts, ids, strict=True):
                    body = {"k": "text", "s": 7, "text": text, "asks": 1}
                    sender.publish(channel(2), body, merge=True)
                    done = {"k": "text", "s": 7, "text": "", "asks": 0, "done": [request]}
                    sender.publish(channel(2), done, merge=True)
                nursery.start_soon(sender.run)
                with trio.fail_after(30):
                    while sum(len(m.get("done", ())) for m in heard) < MERGED_DONE:
                        await trio.sleep(0.01)
                nursery.cancel_scope.cancel()
        assert "".join(m["text"] for m in heard) == as_one["text"]
        assert sum(m["asks"] for m in heard) == len(texts)
        assert [r for m in heard for r in m["done"]] == ids
        assert len(heard) < len(texts)  # merged still
    finally:
        sender.close()
        hearer.close()


def test_a_merged_messages_size_is_counted_as_sent() -> None:
    # the bytes merging counts are the payload's own, up to the bound its other fields
    # take: never fewer (a payload over the limit), nor many more (merges given up early)
    bus = Bus("postgresql://unused", 3, lambda _: None)
    texts = ["", "a", '"\\', "Жд", "天", "😀", "line\r\n"]
    for i in range(1000):
        message: dict[str, Any] = {
            "k": "text",
            "s": 123456789,
            "text": texts[i % 7] * (i % 5) * 30,
        }
        message["asks"] = i % 3
        if i % 4 == 0:
            message["done"] = [10 ** (i % 12) + i]
        elif i % 4 == 1:
            message["done"] = []
        queued = bus.waiting()
        last = json.loads(_payload(queued[-1][1])) if queued else None  # (as it was)
        bus.publish(channel(9), message, merge=True)
        sent = Bus.payloads(bus.waiting()[-1:])  # merged or not: not over the limit
        assert sent and sent[0][1].encode() == _payload(bus.waiting()[-1][1])
        if last is None or len(bus.waiting()) == len(queued):
            continue  # the first, or merged
        if len(last.get("done", ())) < MERGED_DONE:  # not merged for want of room:
            assert len(_payload(_merged(last, message))) > MAX_PAYLOAD - OTHER_FIELDS
    assert 10 < len(bus.waiting()) < 500  # some merged, some full


def _payload(message: dict[str, Any]) -> bytes:
    """``message``'s payload as the bus sends it (``Bus.payloads``), over the limit or
    not (the bus would drop it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


def _merged(last: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """``message`` merged into ``last``, as the bus merges (``Bus.publish``)."""
    merged = last | {"text": last["text"] + message["text"], "asks": last["asks"] + message["asks"]}
    if message.get("done"):
        merged["done"] = last.get("done", []) + message["done"]
    return merged


@pytest.mark.parametrize(
    "letters",
    ["😀", "Жд", '"\\', "\r\n", "\x01", "a"],
    ids=["emoji", "cyrillic", "escaped", "line-ends", "control", "ascii"],
)
@pytest.mark.parametrize("lines", [False, True], ids=["one-line", "lines"])
def test_a_sessions_long_text_is_sent_in_pieces_that_fit_a_payload(
    letters: str, lines: bool
) -> None:
    # a table's text to a player on another worker, of the letters that take the most
    # bytes as sent, cut by bytes: 1800 letters a piece (the old cut) took 7290 bytes
    # of emoji, and 10890 of control characters (which the protocol refuses from
    # players, so no line carries one today): over MAX_PAYLOAD, dropped (failed before)
    line = letters * 700 + ("\r\n" if lines else "")
    text = line * 20
    bus = Bus("postgresql://unused", 3, lambda _: None)
    bus.publish_text(channel(9), 123456789, text, 5)
    bus.publish_text(channel(9), 123456789, "ok\r\n", 1)  # merged into the last
    sent = Bus.payloads(bus.waiting())
    assert len(sent) == len(bus.waiting())  # none too long: none dropped
    heard = [json.loads(payload) for _, payload in sent]
    assert all(len(payload.encode()) <= MAX_PAYLOAD for _, payload in sent)
    assert "".join(m["text"] for m in heard) == text + "ok\r\n"
    assert [m["asks"] for m in heard] == [0] * (len(heard) - 1) + [6]
    # as few as fit: a piece and the next one's first line (or letter) would not
    texts = [m["text"] for m in heard]
    at_line_ends = lines or "\n" in letters
    for piece, after in itertools.pairwise(texts):
        first = after.splitlines(keepends=True)[0] if at_line_ends else after[0]
        assert len(json.dumps(piece + first, ensure_ascii=False).encode()) > TEXT_ROOM
    if at_line_ends:  # cut at line ends: each piece is whole lines (the last, "ok" too)
        assert all(m["text"].endswith("\r\n") for m in heard)


def test_a_short_text_is_one_piece_as_it_is() -> None:
    assert text_pieces("") == []
    assert text_pieces("info text=Hi\r\n") == ["info text=Hi\r\n"]


async def test_a_message_that_failed_is_logged_without_a_guests_token(
    postgres_url: str,
) -> None:
    # bus_message_failed logged a message's first 200 bytes as they were: a 'left'
    # message carries a guest's resume token, and the log gave whoever reads it the
    # guest's held seat (failed before)
    def fails(message: dict[str, Any]) -> None:
        raise ValueError(f"a bug reading {message['k']}")

    sender = Bus(postgres_url, 1, lambda _: None)
    sender.open()
    hearer = Bus(postgres_url, 2, fails)
    hearer.open()
    try:
        with structlog.testing.capture_logs() as logs, trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(hearer.run)
                nursery.start_soon(sender.run)
                left = {"k": "left", "name": "guest-7", "token": "s3cr3t-r3sum3", "held": True}
                sender.publish(channel(2), left)
                while not any(e["event"] == "bus_message_failed" for e in logs):
                    await trio.sleep(0.01)
                nursery.cancel_scope.cancel()
    finally:
        sender.close()
        hearer.close()
    (failed,) = [e for e in logs if e["event"] == "bus_message_failed"]
    payload = failed["payload"].decode()
    assert "s3cr3t" not in payload
    assert '"name": "guest-7"' in payload or '"name":"guest-7"' in payload
    assert '"token"' in payload and "(hidden)" in payload  # what was there, not its value


async def test_a_batch_postgresql_refuses_as_a_bug_is_logged_and_the_bus_goes_on(
    postgres_url: str,
) -> None:
    # a send refused for what it sent (here an empty channel's name: DataError), not for
    # a lost connection, ended the publisher with a psycopg error, which node._run_bus
    # takes for the database away: the worker stopped, its players told the database
    # was lost, no traceback anywhere (failed before). Now: logged as the bug it is,
    # with its traceback, and the next batch sent
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
                sender.publish("", {"k": "bad"})
                while not any(e["event"] == "bus_send_failed" for e in logs):
                    await trio.sleep(0.01)
                sender.publish(channel(2), {"k": "good"})
                await _until(heard, "good")
                nursery.cancel_scope.cancel()
    finally:
        sender.close()
        hearer.close()
    (failed,) = [e for e in logs if e["event"] == "bus_send_failed"]
    assert failed["log_level"] == "error" and failed["exc_info"] and failed["messages"] == 1
    assert [m["k"] for m in heard] == ["good"]
