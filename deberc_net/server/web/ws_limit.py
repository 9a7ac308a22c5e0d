"""What a live socket may send: hypercorn's own handling, bounded where it was not.

A message over the limit is cut off, not read on. hypercorn 0.18 answers a websocket
message over ``websocket_max_message_size`` with a close (1009) and then goes on reading
the connection: a frame that says it holds 2**40 bytes had the server keep everything
sent after it (a tryout: 512 MiB for one socket, held until the client left). Its stream
is ended with that close here, as hypercorn ends one when the other side closes.

Bytes before the socket is accepted end the connection. A client may send no frame
before the server's answer (RFC 6455 §4.1), nor a body with the request; hypercorn
answered such bytes with a 400 that raced the app's accept (each sent on the one HTTP
connection, whose h11 state the other broke) and raised out of the connection's task,
which stopped the whole server, its games too: a hostile tryout's one request with a
ping frame (or any byte) after it did. The connection now ends there, as it does when
the other side closes, and the app's accept, after it, is ignored. A handshake that
hypercorn refuses itself (400: no key, another version) ends its connection too: it was
held open for as long as the client liked, unseen by the page and the requests'
allowance (a tryout: 300 from one address, 300 sockets held).

Frames are spent from an allowance (``web_socket_frames_per_s``, ``…_burst``). hypercorn
answers each ping itself, and reads pongs and a message's pieces without yielding
between them: a socket sending empty pongs (6 bytes each, ten thousand a read) held the
server's one loop some 60 ms a read, and one such socket stopped every game on the
server (a hostile tryout: not one call played in 10 s). Past the allowance the socket is
closed (1008) and nothing more it sent is parsed. The page sends nothing but its pongs,
one each ``WEBSOCKET_PING_S`` (live.py), so no page meets either limit. *Tests:*
tests/web/test_live_socket.py
(``test_a_socket_whose_message_passes_the_limit_is_cut_off_not_read_on``),
tests/web/test_live_socket_frames.py, tests/web/test_live_socket_early_bytes.py."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Generator
from typing import Any

import attrs
import trio
from hypercorn.config import Config as HypercornConfig
from hypercorn.protocol.events import Body, Data, Request, StreamClosed
from hypercorn.protocol.ws_stream import WSStream
from wsproto.events import CloseConnection, Event
from wsproto.frame_protocol import CloseReason

from ..limits import Bucket
from ..summaries import Summaries
from .connection_limit import OpenConnections
from .ws_offer import readable_handshake, refuse_unreadable

_sends = WSStream._send_wsproto_event  # hypercorn's own
_handles = WSStream._handle_events
_handle = WSStream.handle
TOO_MANY_FRAMES = "too many frames: a live page sends none"


class LiveConfig(HypercornConfig):
    """hypercorn's settings (and a header every answer has), the live sockets' frame
    allowance (either 0: none), each address's open connections (connection_limit.py;
    None: no limit) and the log of connections an error ended."""

    frames_per_s: float = 0.0
    frames_burst: float = 0.0
    connections: OpenConnections | None = None
    failures: Summaries | None = None  # connections ended by an error (connection_limit.py)

    def response_headers(self, protocol: str) -> list[tuple[bytes, bytes]]:
        """hypercorn's headers of every answer it writes (the app's, its own 400s), and
        ``nosniff``: a JSON answer that echoes the path asked is not read as a page."""
        return [*super().response_headers(protocol), NOSNIFF]


NOSNIFF = (b"x-content-type-options", b"nosniff")


@attrs.define
class _Meter:
    """One socket's frames: each spends a token; with none left it is ``spent``."""

    bucket: Bucket
    spent: bool = False

    def events(self, parse: Callable[[], Generator[Event]]) -> Generator[Event]:
        for event in parse():  # (wsproto parses one frame at each step: the rest waits)
            if not self.bucket.take(trio.current_time()):
                self.spent = True
                return
            yield event


_meters: weakref.WeakKeyDictionary[WSStream, _Meter] = weakref.WeakKeyDictionary()


async def _send_then_end_if_too_big(stream: WSStream, event: Any) -> None:
    await _sends(stream, event)
    if isinstance(event, CloseConnection) and event.code == CloseReason.MESSAGE_TOO_BIG:
        await stream.send(StreamClosed(stream_id=stream.stream_id))


def _meter(stream: WSStream) -> _Meter | None:
    """The socket's meter, made at its first data (its wsproto connection is made by
    then); None with no allowance set."""
    meter = _meters.get(stream)
    config = stream.config
    if (
        meter is None
        and isinstance(config, LiveConfig)
        and config.frames_per_s > 0 < config.frames_burst
    ):
        meter = _meters[stream] = _Meter(Bucket(config.frames_per_s, config.frames_burst))
        stream.connection.events = functools.partial(meter.events, stream.connection.events)  # type: ignore[method-assign]
    return meter


async def _handle_within_allowance(stream: WSStream) -> None:
    meter = _meter(stream)
    await _handles(stream)
    if meter is not None and meter.spent:
        await _sends(stream, CloseConnection(CloseReason.POLICY_VIOLATION, TOO_MANY_FRAMES))
        await stream.send(StreamClosed(stream_id=stream.stream_id))


async def _handle_ending_early_bytes(stream: WSStream, event: Any) -> None:
    """A frame before the 101, a body, a second request: the connection ends, not the
    server (hypercorn's 400 here raised out of it once the app had accepted). So does
    a request hypercorn refuses itself (a handshake without its key: 400, 'connection:
    close'), which it then held open for as long as the client liked."""
    if isinstance(event, Request) and not readable_handshake(event.headers):
        await refuse_unreadable(stream)  # (hypercorn's parsing of it raised: ws_offer.py)
        return
    if isinstance(event, Body | Data) and not stream.closed and not stream.handshake.accepted:
        await stream.send(StreamClosed(stream_id=stream.stream_id))  # (it closes the stream)
        return
    await _handle(stream, event)
    if isinstance(event, Request) and stream.closed:  # (its answer sent: nothing follows)
        await stream.send(StreamClosed(stream_id=stream.stream_id))


def bound_live_sockets() -> None:
    """Once per process, before the web face serves (serve.py)."""
    WSStream._send_wsproto_event = _send_then_end_if_too_big  # type: ignore[method-assign,assignment]
    WSStream._handle_events = _handle_within_allowance  # type: ignore[method-assign,assignment]
    WSStream.handle = _handle_ending_early_bytes  # type: ignore[method-assign,assignment]
