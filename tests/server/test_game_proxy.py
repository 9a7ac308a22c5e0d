"""The game port behind a TCP or TLS proxy (docs/security.md): a peer listed in
``game_proxies`` begins each connection with a PROXY protocol v1 header, and the
client it names is the connection's address for every limit and the log; a header
missing, wrong or late is one line and a close, counted against nobody; anyone
else's PROXY line is no header (server/proxy_header.py)."""

from __future__ import annotations

import socket
import struct
from collections.abc import Awaitable, Callable

import pytest
import structlog
import trio
import trio.testing

from .client import BANNER_RU, BOT_START_S, LineClient, dial_from, fields, is_event, log_in_machine
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
PROXY = "127.0.0.2"  # the listed proxy's address (any 127.x.y.z is this machine's)
BUSY = "error code=busy text=too many connections from your address"
MADE_ROOM = "the server is full: connections that have not logged in make room"


def header(source: str, source_port: int = 5555, version: int = 4) -> bytes:
    destination = "127.0.0.1" if version == 4 else "::1"
    return f"PROXY TCP{version} {source} {destination} {source_port} 7501\r\n".encode()


async def _dial(port: int, source: str = PROXY) -> trio.SocketStream:
    return await dial_from(source, port)


async def proxied(connect: Connector, port: int, sent: bytes, label: str) -> LineClient:
    """A connection from the proxy that sent ``sent`` first, after its banner."""
    stream = await _dial(port)
    await stream.send_all(sent)
    client = await LineClient.over(stream, label)
    connect.clients.append(client)
    return client


async def refused(port: int, sent: bytes, timeout: float = 30.0, source: str = PROXY) -> list[str]:
    """Every line a connection from ``source`` (the proxy) that sent ``sent`` was told
    before the server closed it."""
    client = LineClient(await _dial(port, source), "refused")
    try:
        if sent:
            await client.send_raw(sent)
        await client.wait_closed(timeout)
    finally:
        await client.aclose()
    return client.lines


async def test_the_client_a_header_names_is_the_one_its_limits_count_and_the_log_shows(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(game_proxies=[PROXY], max_connections_per_address=1)
    with structlog.testing.capture_logs() as logs:
        ann = await proxied(connect, port, header("203.0.113.7"), "ann")
        await log_in_machine(ann, "ann")
        # the same client again through the proxy: its address holds its one connection
        assert await refused(port, header("203.0.113.7", 5556)) == [BUSY]
        # another client through the same proxy is let in: the proxy's address is no one's
        bob = await proxied(connect, port, header("198.51.100.9", 6000), "bob")
        await log_in_machine(bob, "bob")
    connects = [line["peer"] for line in logs if line["event"] == "connect"]
    assert connects == ["203.0.113.7:5555", "198.51.100.9:6000"]
    [login] = [line for line in logs if line["event"] == "login" and line["name"] == "ann"]
    assert login["peer"] == "203.0.113.7:5555"
    [refusal] = [line for line in logs if line["event"] == "refused"]
    assert (refusal["reason"], refusal["peer"]) == ("per-address", "203.0.113.7:5556")


async def test_a_proxy_on_ipv6_is_known_by_its_address_in_the_bracketed_peer(
    start_server: StartServer, connect: Connector
) -> None:
    # a socket's peer over IPv6 is logged "[::1]:PORT": the proxy is still found in it
    port = await start_server(host="::1", game_proxies=["::1"])
    stream = await trio.open_tcp_stream("::1", port)
    await stream.send_all(header("203.0.113.9"))
    ann = await LineClient.over(stream, "ann")
    connect.clients.append(ann)
    with structlog.testing.capture_logs() as logs:
        await log_in_machine(ann, "ann")
    [login] = [line for line in logs if line["event"] == "login"]
    assert login["peer"] == "203.0.113.9:5555"


async def test_what_the_client_sent_with_the_header_is_read_as_its_own_lines(
    start_server: StartServer, connect: Connector
) -> None:
    """A proxy sends the header and the client's first bytes as they come, often in one
    segment: the header is read to its CRLF and not a byte more."""
    port = await start_server(game_proxies=[PROXY])
    ann = await proxied(
        connect, port, header("203.0.113.7") + b"style machine\r\nlogin ann\r\n", "ann"
    )
    assert (await ann.expect("ok", cmd="login"))["name"] == "ann"


async def test_a_tcp6_header_counts_the_clients_64_as_a_direct_one_would(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(game_proxies=[PROXY], max_connections_per_address=1)
    with structlog.testing.capture_logs() as logs:
        ann = await proxied(connect, port, header("2001:db8::7", version=6), "ann")
        await log_in_machine(ann, "ann")
        # the same /64: one address; another /64: another
        assert await refused(port, header("2001:db8::8", version=6)) == [BUSY]
        await proxied(connect, port, header("2001:db8:1::7", version=6), "bob")
    # in brackets: "2001:db8::7:5555" is an IPv6 address too (a ban tool took it whole)
    assert [line["peer"] for line in logs if line["event"] == "connect"] == [
        "[2001:db8::7]:5555",
        "[2001:db8:1::7]:5555",
    ]


async def test_proxy_unknown_keeps_the_proxys_own_address(
    start_server: StartServer, connect: Connector
) -> None:
    """``PROXY UNKNOWN`` (a proxy's health check, or a client it cannot name): the
    connection is the proxy's, counted as its address, as before this setting."""
    port = await start_server(game_proxies=[PROXY], max_connections_per_address=1)
    with structlog.testing.capture_logs() as logs:
        checker = await proxied(connect, port, b"PROXY UNKNOWN\r\n", "check")
        await checker.send("ping")
        await checker.read_until(lambda line: line == "pong")
        # anything after UNKNOWN is to be ignored, says the protocol
        assert await refused(port, b"PROXY UNKNOWN 1.2.3.4 5.6.7.8 1 2\r\n") == [BUSY]
    [connected] = [line["peer"] for line in logs if line["event"] == "connect"]
    assert connected.startswith(f"{PROXY}:")


@pytest.mark.parametrize(
    ("sent", "reason", "text"),
    [
        (b"login ann\r\n", "missing", "a PROXY protocol header (version 1) must come first"),
        (
            b"\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c",
            "version-2",
            "a PROXY protocol version 2 header: send version 1, the text one",
        ),
        (b"PROXY TCP4 " + b"1" * 100 + b"\r\n", "too-long", "at most 107 bytes"),
        (header("203.0.113.7")[:-2] + b"\n", "no-crlf", "a PROXY header ends with CRLF"),
        (b"PROXY TCP4 203.0.113.7 127.0.0.1 5555\r\n", "bad-form", "PROXY TCP4|TCP6 SRC DST"),
        (b"PROXY UDP4 203.0.113.7 127.0.0.1 5555 7501\r\n", "bad-form", "or PROXY UNKNOWN"),
        (b"PROXY  TCP4 203.0.113.7 127.0.0.1 5555 7501\r\n", "bad-form", "PROXY TCP4|TCP6"),
        (header("203.0.113.300"), "bad-address", "IPv4 ones for TCP4, IPv6 ones for TCP6"),
        (header("2001:db8::7"), "bad-address", "IPv4 ones for TCP4"),  # TCP4, an IPv6 one
        (header("203.0.113.7", version=6), "bad-address", "IPv6 ones for TCP6"),
        (header("203.0.113.7", 65536), "bad-port", "whole numbers from 0 to 65535"),
        (b"PROXY TCP4 203.0.113.7 127.0.0.1 +555 7501\r\n", "bad-port", "from 0 to 65535"),
        (b"PROXY TCP4 203.0.113.7 127.0.0.1 5555 7501x\r\n", "bad-port", "from 0 to 65535"),
    ],
    ids=lambda value: value if isinstance(value, str) and " " not in value else "",
)
async def test_a_bad_header_is_one_line_and_a_close_and_counts_against_no_one(
    start_server: StartServer, connect: Connector, sent: bytes, reason: str, text: str
) -> None:
    port = await start_server(game_proxies=[PROXY], max_connections_per_address=1)
    with structlog.testing.capture_logs() as logs:
        [line] = await refused(port, sent)
    tag, told = fields(line)
    assert (tag, told["code"]) == ("error", "bad-proxy-header") and text in told["text"]
    [bad] = [entry for entry in logs if entry["event"] == "bad_proxy_header"]
    assert bad["reason"] == reason and bad["peer"].startswith(f"{PROXY}:")
    assert bad["log_level"] == "warning"
    assert not [entry for entry in logs if entry["event"] in ("connect", "refused")]
    # nothing was counted: the client it might have named, and the proxy, still get in
    ann = await proxied(connect, port, header("203.0.113.7"), "ann")
    await log_in_machine(ann, "ann")
    await proxied(connect, port, b"PROXY UNKNOWN\r\n", "check")


async def test_a_health_check_that_connects_and_closes_is_not_logged(
    start_server: StartServer,
) -> None:
    # a review: each TCP check of a listed proxy (connect, then close) was a warning
    # 'bad_proxy_header reason=missing', and a refusal written to a closed socket
    port = await start_server(game_proxies=[PROXY])
    with structlog.testing.capture_logs() as logs:
        for _ in range(3):
            stream = await _dial(port)
            await stream.aclose()
        cut = await _dial(port)  # a header cut short by the close is one, named so
        await cut.send_all(header("203.0.113.7")[:20])
        await cut.send_eof()
        with trio.fail_after(30):
            while not [e for e in logs if e["event"] == "bad_proxy_header"]:
                await trio.sleep(0.01)
        await cut.aclose()
    assert [e["reason"] for e in logs if e["event"] == "bad_proxy_header"] == ["cut-short"]
    assert not [e for e in logs if e["event"] in ("connect", "refused", "connection_error")]


async def test_a_connection_reset_before_it_was_accepted_is_nobodys(
    start_server: StartServer, connect: Connector
) -> None:
    # the proxy tryout: a haproxy check (its header, then a reset) often came to the
    # server already gone: getpeername failed, and it was served as a session of
    # address '?', header or not (a connect and a disconnect logged at each check)
    port = await start_server(game_proxies=[PROXY], max_connections_per_address=1)
    with structlog.testing.capture_logs() as logs:
        for _ in range(3):  # connected and reset before the server's loop runs again
            sock = socket.socket()
            sock.bind((PROXY, 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(header("203.0.113.7"))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        ann = await proxied(connect, port, header("203.0.113.7"), "ann")
        await log_in_machine(ann, "ann")  # its address was not taken by the resets
    assert [e["peer"] for e in logs if e["event"] == "connect"] == ["203.0.113.7:5555"]


async def test_a_header_not_whole_within_the_login_time_is_refused(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(game_proxies=[PROXY])  # login_timeout_ms: 15 s
    for sent in (b"", header("203.0.113.7")[:20]):  # silence; a header cut short
        start = trio.current_time()
        assert await refused(port, sent, timeout=60) == [
            "error code=bad-proxy-header text=no whole PROXY header came in time:"
            " this connection closes"
        ]
        assert 15 <= trio.current_time() - start < 16


async def test_the_login_time_counts_from_the_connection_not_from_its_header(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(game_proxies=[PROXY], login_timeout_ms=10_000)
    stream = await _dial(port)
    start = trio.current_time()
    await stream.send_all(header("203.0.113.7")[:20])
    await trio.sleep(6)  # the rest of the header 6 s later: 4 s are left to log in
    await stream.send_all(header("203.0.113.7")[20:])
    client = await LineClient.over(stream, "slow")
    connect.clients.append(client)
    await client.read_until(lambda x: "login-timeout" in x, timeout=60)
    assert 10 <= trio.current_time() - start < 11


async def test_an_unlisted_peers_proxy_line_is_just_an_unknown_command(
    start_server: StartServer, connect: Connector
) -> None:
    """A client must not choose its own address: from a peer not in ``game_proxies``
    a PROXY line is read as any other line, and the peer stays its own address."""
    port = await start_server(game_proxies=[PROXY], max_connections_per_address=1)
    with structlog.testing.capture_logs() as logs:
        direct = await connect.raw(port, "direct", source="127.0.0.1")  # its banner at once
        await direct.send("style machine")
        await direct.send_raw(header("203.0.113.7"))
        assert (await direct.expect("error"))["code"] == "not-logged-in"
        await log_in_machine(direct, "ann")
        await direct.send_raw(header("203.0.113.7"))
        assert (await direct.expect("error"))["code"] == "unknown-command"
        # its address, not the one its line named, holds its one connection
        assert await refused(port, b"", source="127.0.0.1") == [BUSY]
        await proxied(connect, port, header("203.0.113.7"), "named")  # that one is free
    [connected, _] = [line["peer"] for line in logs if line["event"] == "connect"]
    assert connected.startswith("127.0.0.1:")
    # the header before login is the misconfiguration's sign: logged for the operator
    # (after login, a line like any other: not logged)
    [unlisted] = [line for line in logs if line["event"] == "proxy_header_not_listed"]
    assert unlisted["peer"] == connected and unlisted["log_level"] == "warning"


async def test_without_game_proxies_a_proxy_line_is_read_as_a_line(
    port: int, connect: Connector
) -> None:
    """The default: no header is read from anyone (the listed proxy of the other tests
    included)."""
    with structlog.testing.capture_logs() as logs:
        client = await connect.raw(port, "client", source=PROXY)
        await client.send("style machine")
        await client.send_raw(header("203.0.113.7"))
        assert (await client.expect("error"))["code"] == "not-logged-in"
        await client.send("login PROXY")  # a line of its own, not a header: not logged
        await client.expect("ok", cmd="login")
    [unlisted] = [line for line in logs if line["event"] == "proxy_header_not_listed"]
    assert unlisted["peer"].startswith(f"{PROXY}:")


async def test_house_bots_need_no_header_where_this_machine_is_a_listed_proxy(
    start_server: StartServer, connect: Connector
) -> None:
    """A house bot dials the server from this machine, the usual proxy's place: with
    ``game_proxies`` set it dials a loopback port of its own, where no header is read."""
    port = await start_server(game_proxies=["127.0.0.0/8"], house_bots=True)
    ann = await proxied(connect, port, header("203.0.113.7"), "ann")
    await log_in_machine(ann, "ann")
    await ann.send("new 2 private short")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot random")
    name = (await ann.expect("ok", cmd="bot"))["name"]
    seated = await ann.read_until(lambda x: is_event(x, "seated"), BOT_START_S)
    assert fields(seated)[1]["name"] == name


async def test_connections_waiting_for_their_header_count_and_the_oldest_makes_room(
    start_server: StartServer, connect: Connector
) -> None:
    # a review: a proxy's connections waiting for their header were in no count, so a
    # listed proxy (or a network listed too widely) could hold any number of sockets
    port = await start_server(game_proxies=[PROXY], max_connections=3)
    with structlog.testing.capture_logs() as logs:
        silent = [LineClient(await _dial(port), f"silent{i}") for i in range(3)]
        connect.clients.extend(silent)
        player = await connect.machine(port, "player")  # the fourth: the oldest made room
        await player.send("who")
        assert (await player.expect("who"))["names"] == "player"
        await silent[0].wait_closed()
        assert silent[0].lines == [f"error code=busy text={MADE_ROOM}"]
        # the others still wait, and their header lets them in
        await silent[1].send_raw(header("203.0.113.7"))
        await silent[1].read_until(lambda line: line == BANNER_RU)
        await log_in_machine(silent[1], "ann")
    [made_room] = [e for e in logs if e.get("reason") == "made-room"]
    assert made_room["event"] == "disconnect" and made_room["peer"].startswith(f"{PROXY}:")


async def test_a_full_server_refuses_a_proxied_connection_before_its_header(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(game_proxies=[PROXY], max_connections=2)
    for name in ("ann", "bob"):
        await connect.machine(port, name)  # logged in: nobody to make room
    with structlog.testing.capture_logs() as logs:
        assert await refused(port, b"") == ["error code=busy text=the server is full"]
    [refusal] = [e for e in logs if e["event"] == "refused"]
    assert refusal["reason"] == "full" and refusal["peer"].startswith(f"{PROXY}:")
