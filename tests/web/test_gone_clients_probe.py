"""The interim 100 a waiting request's FIN is probed with (server/web/gone_clients.py)
goes only into an empty send queue: a part of it behind an earlier answer its client
has not read would break the stream."""

from __future__ import annotations

import socket

from deberc_net.server.web.gone_clients import PROBE, probe


def _unread_till_full(sender: socket.socket) -> int:
    sender.setblocking(False)
    sent = 0
    try:
        while True:
            sent += sender.send(b"x" * 4096)
    except BlockingIOError:
        return sent


def test_the_probe_is_written_into_an_empty_send_queue() -> None:
    server, client = socket.socketpair()
    with server, client:
        assert probe(server.fileno())
        assert client.recv(100) == PROBE


def test_the_probe_is_not_written_behind_an_answer_not_yet_read() -> None:
    # a keep-alive's earlier answer still queued: no byte of the probe after it
    server, client = socket.socketpair()
    with server, client:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        sent = _unread_till_full(server)
        got = 0
        while got < sent // 2:  # room again in the queue, but it is not empty
            got += len(client.recv(sent // 2 - got))
        assert probe(server.fileno())  # (not broken: answered at its turn)
        client.setblocking(False)
        try:
            while chunk := client.recv(65536):
                assert PROBE not in chunk
                got += len(chunk)
        except BlockingIOError:
            pass
        assert got == sent
