"""A live page that does not read what it is sent is dropped, as a slow connection of
the game port is (docs/protocol.md §2, docs/web.md "The live socket"): what waits for
it is bounded, its place is freed, and the table and the other pages go on."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import pytest
import trio
from _pytest.capture import CaptureFixture
from trio_websocket import ConnectionRejected, open_websocket_url

from deberc_net.server.web.feed import COALESCE_S, Page
from deberc_net.server.web.live import TOO_SLOW
from tests.server.client import LineClient, fields
from tests.server.conftest import Connector

from .conftest import WebServer
from .live import lines_of, text_of

StartWeb = Callable[..., Any]
OUTBOX = 64 * 1024
SAID = "x" * 900  # a say's text: a line of some 930 bytes to every watcher
# what may be said before the page not reading is gone: its queue (OUTBOX), what the
# kernel holds on both ends of its socket (180 to 360 says here, by the client's
# window), the message being sent, and the lines said while the viewers are counted
MOST_SAID = 8 * OUTBOX + 256 * 1024
HANDSHAKE = (
    b"GET /live/table/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n\r\n"
)


async def not_reading(web: WebServer) -> trio.socket.SocketType:
    """A live socket that reads its handshake's answer and nothing after it (a small
    window of its own, as a phone's on a bad link)."""
    sock = trio.socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.connect(("127.0.0.1", web.http_port))
    await sock.send(HANDSHAKE)
    head = b""
    while b"\r\n\r\n" not in head:
        head += await sock.recv(1)  # (a byte at a time: no frame read with it)
    assert head.startswith(b"HTTP/1.1 101 "), head
    return sock


async def say(ann: LineClient, times: int) -> None:
    for _ in range(times):
        await ann.send(f"say {SAID}")
        while fields(await ann.read_until(lambda _: True))[0] != "say":
            pass  # (its own say, told back: the table took it)


@pytest.mark.timeout(90)
async def test_a_page_that_does_not_read_is_dropped_and_the_others_go_on(
    start_web: StartWeb, connect: Connector
) -> None:
    # (failed before: 880 says, 790 KB, in 30 s, and the page not reading still held
    # its place: dropped from its table's feed at OUTBOX queued, its socket waited in
    # its send until the kernel cut it off, web_send_timeout_ms after its buffers filled)
    quick = dict.fromkeys(("say_per_s", "say_per_address_per_s"), 10_000.0)
    web: WebServer = await start_web(
        outbox_bytes=OUTBOX,
        max_web_viewers=2,
        web_viewers_per_address=0,
        say_burst=10_000,
        say_per_address_burst=10_000,
        web_requests_per_address_burst=0,
        **quick,
    )
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    url = f"ws://127.0.0.1:{web.http_port}/live/table/1"
    heard = 0  # says the page that reads got
    with trio.fail_after(60):
        async with open_websocket_url(url) as reader, trio.open_nursery() as nursery:
            await text_of(reader)  # its 'ok' and the table's state

            async def read() -> None:
                nonlocal heard
                while True:
                    heard += sum(
                        line.startswith("say ") for line in lines_of(await text_of(reader))
                    )

            nursery.start_soon(read)
            slow = await not_reading(web)
            said = 0
            while True:
                # (20 a window: the slow page's queue grows by a window's at a time)
                await say(ann, 20)
                said += 20
                await trio.sleep(COALESCE_S)
                try:  # a third viewer: refused while the slow one holds its place
                    async with open_websocket_url(url) as third:
                        assert (await text_of(third)).startswith("ok cmd=observe table=1 ")
                        break
                except ConnectionRejected:
                    assert said * len(SAID) < MOST_SAID, "the page not reading kept its place"
            # the page that reads got every say, at its pace
            with trio.fail_after(30):
                while heard < said:
                    await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
    # the slow one, reading now, finds its socket ended: its close said why, when it
    # got through (a page that read slowly, not one that never did)
    got = b""
    with trio.fail_after(30):
        try:
            while data := await slow.recv(65536):
                got += data
        except ConnectionResetError:
            pass
    slow.close()
    assert len(got) < MOST_SAID


@pytest.mark.timeout(90)
async def test_a_page_that_reads_once_dropped_is_told_why(
    start_web: StartWeb, connect: Connector, capsys: CaptureFixture[str]
) -> None:
    """A page that took nothing until it was dropped, and then reads (a phone back
    from a tunnel), gets what was under way and then the close, 1008, saying why."""
    quick = dict.fromkeys(("say_per_s", "say_per_address_per_s"), 10_000.0)
    web: WebServer = await start_web(
        outbox_bytes=OUTBOX, say_burst=10_000, say_per_address_burst=10_000, **quick
    )
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    slow = await not_reading(web)

    async def saying() -> None:
        while True:
            await say(ann, 20)
            await trio.sleep(COALESCE_S)

    logged = ""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(saying)
            while "outbox_full" not in logged:  # (the server's log: dropped now)
                await trio.sleep(0.01)
                logged += capsys.readouterr().out
            nursery.cancel_scope.cancel()
        got = b""
        while data := await slow.recv(65536):  # at once, within its second
            got += data
    slow.close()
    # the close frame: unmasked, its code 1008 and the reason after it
    reason = TOO_SLOW.encode()
    assert got.endswith(b"\x88" + bytes([2 + len(reason)]) + (1008).to_bytes(2) + reason)


@pytest.mark.timeout(90)
async def test_a_page_that_reads_stays_through_a_burst_past_the_bound(
    start_web: StartWeb, connect: Connector
) -> None:
    """A table that tells more than ``outbox_bytes`` within one of the feed's windows
    drops the pages behind, not one that has taken all it was sent."""
    # (failed before: the burst's window, some 140 KB, was counted against each page's
    # bound as it was queued, and every page was dropped, 1008, one that read too)
    quick = dict.fromkeys(("say_per_s", "say_per_address_per_s"), 10_000.0)
    web: WebServer = await start_web(
        outbox_bytes=OUTBOX, say_burst=10_000, say_per_address_burst=10_000, **quick
    )
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    burst = 150  # some 140 KB, more than twice OUTBOX, told at once
    heard = 0
    with trio.fail_after(60):
        async with open_websocket_url(f"ws://127.0.0.1:{web.http_port}/live/table/1") as page:
            await text_of(page)  # its 'ok' and the table's state: it has taken all
            await ann.send_raw(f"say {SAID}\n".encode() * burst)
            await say(ann, 1)  # (the burst's says told back before this one's)
            while heard < burst + 1:
                heard += sum(line.startswith("say ") for line in lines_of(await text_of(page)))
            # and it is still watched: the next say comes too
            await ann.send("say after")
            while "text=after" not in (message := await text_of(page)):
                assert "say " not in message, message
    assert heard == burst + 1


def test_a_pages_bound_counts_the_bytes_it_is_sent_not_the_characters() -> None:
    """``outbox_bytes`` bounds what waits for a page in bytes on the wire (UTF-8), as
    it does a connection of the game port's."""
    # (failed before: counted in characters, 600 of Cyrillic, 1,200 bytes, passed)
    name = "Трофим"  # 6 characters, 12 bytes
    page = Page(1000)
    page.put(f"say 1 {name}\r\n")  # (the first is always queued: it has taken all)
    for _ in range(100):
        page.put(name)  # 100 of 6 characters, 1,200 bytes
        if page.dropped.is_set():
            break
    assert page.dropped.is_set() and page.closed
    kept = Page(1000)  # and what is taken is let go of by its bytes
    kept.put(name, name)
    assert kept.queued_bytes == 24
    kept.take()
    assert kept.queued_bytes == 0
    # one of ASCII alone, as many bytes as characters: within the same bound
    ascii_page = Page(1000)
    ascii_page.put("say 1 x\r\n")
    for _ in range(100):
        ascii_page.put("Trofim")
    assert not ascii_page.dropped.is_set()
    assert ascii_page.queued_bytes == 9 + 600
    while ascii_page.queued:
        ascii_page.take()
    assert ascii_page.queued_bytes == 0
