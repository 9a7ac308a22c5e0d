"""A bot the clock plays for once (docs/bots.md, "A bot's timeouts"), for the tests of
the clock's calls' count."""

from __future__ import annotations

from .helpers import RAW_HEAD

# answers every ask with its first legal call but its first ask, which it answers with
# a call the server refuses, and then says nothing: the clock plays for it once
ONCE_LATE = (
    RAW_HEAD
    + """\
from deberc_net.protocol.wire import fields_of
asks = 0
for line in sock.makefile("r", encoding="utf-8", newline="\\r\\n"):
    tag, kv = fields_of(line)
    if tag == "ask":
        asks += 1
        call = "xyz" if asks == 1 else kv["legal"].split(",")[0]
        sock.sendall(f"{call} seq={kv['seq']}\\n".encode())
    elif tag == "event" and kv.get("kind") == "match-end":
        sock.sendall(b"seek reserved\\n")
"""
)
