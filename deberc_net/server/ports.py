"""The server's ports, bound before the store opens and listened on only after it:
a port in use fails before the store is touched (no new database file, no server's
row), and no connection waits, accepted by the kernel but unanswered, while a slow
store opens (it is refused instead)."""

from __future__ import annotations

import errno
import socket

import trio

# as trio's open_tcp_listeners: the kernel caps it at its own somaxconn
BACKLOG = 0xFFFF


async def bind_game_port(host: str, port: int) -> list[trio.socket.SocketType]:
    """What ``trio.open_tcp_listeners(port, host=host)`` makes, bound but not yet
    listening: a socket per address ``host`` resolves to (IPv4 and IPv6 for every
    interface). Raises OSError (a port in use, a host that does not resolve)."""
    addresses = await trio.socket.getaddrinfo(
        host, port, type=trio.socket.SOCK_STREAM, flags=trio.socket.AI_PASSIVE
    )
    bound: list[trio.socket.SocketType] = []
    unsupported: OSError | None = None
    try:
        for family, kind, proto, _, address in addresses:
            try:
                sock = trio.socket.socket(family, kind, proto)
            except OSError as exc:
                if exc.errno != errno.EAFNOSUPPORT:
                    raise
                unsupported = exc  # this machine has no IPv6 (say): the others serve
                continue
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                await sock.bind(address)
            except BaseException:
                sock.close()
                raise
            bound.append(sock)
    except BaseException:
        close_all(bound)
        raise
    if not bound and unsupported is not None:
        raise unsupported
    return bound


def listen_on(bound: list[trio.socket.SocketType]) -> list[trio.SocketListener]:
    """Start listening on sockets ``bind_game_port`` bound."""
    for sock in bound:
        sock.listen(BACKLOG)
    return [trio.SocketListener(sock) for sock in bound]


def close_all(sockets: list[trio.socket.SocketType]) -> None:
    for sock in sockets:
        sock.close()
