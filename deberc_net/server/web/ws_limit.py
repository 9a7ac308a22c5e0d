"""A live socket whose message passes the limit is cut off, not read on.

hypercorn 0.18 answers a websocket message over ``websocket_max_message_size`` with a
close (1009) and then goes on reading the connection: a frame that says it holds 2**40
bytes had the server keep everything sent after it (a tryout: 512 MiB for one socket,
held until the client left). Its stream is ended with that close here, as hypercorn
ends one when the other side closes. The page sends nothing (live.py), so no page
meets this. *Test:* tests/web/test_live_socket.py
(``test_a_socket_whose_message_passes_the_limit_is_cut_off_not_read_on``)."""

from __future__ import annotations

from typing import Any

from hypercorn.protocol.events import StreamClosed
from hypercorn.protocol.ws_stream import WSStream
from wsproto.events import CloseConnection
from wsproto.frame_protocol import CloseReason

_sends = WSStream._send_wsproto_event  # hypercorn's own


async def _send_then_end_if_too_big(stream: WSStream, event: Any) -> None:
    await _sends(stream, event)
    if isinstance(event, CloseConnection) and event.code == CloseReason.MESSAGE_TOO_BIG:
        await stream.send(StreamClosed(stream_id=stream.stream_id))


def cut_off_too_big_messages() -> None:
    """Once per process, before the web face serves (serve.py)."""
    WSStream._send_wsproto_event = _send_then_end_if_too_big  # type: ignore[method-assign,assignment]
