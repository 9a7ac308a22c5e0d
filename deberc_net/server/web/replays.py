"""A finished match's replay as served (``/games/ID`` and ``/api/games/ID``): read and
built in a thread, off the event loop, one at a time, and kept once built.

Each request rebuilt it on the event loop: a match of 200 deals (two players passing
every call until ``max_match_deals``) is a page of 230 KB, some 85 ms of CPU to read,
rebuild and render, and 55 requests at once held the loop for 3.5 s, every player's
``ping`` waiting up to 0.4 s (a hostile tryout). A finished match never changes: its
deals are stored before its row, in the transaction that releases them, and nothing
writes either after (store/base.py). A match stopped (its server lost or shut down
while it ran) may: its server, thought dead, plays on and ends it (docs/scaling.md), so
it is built for each request, never kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs

from deberc_net.plugins import RuleBook
from deberc_net.protocol.lang import Lang

from ..store import Store
from ..store.base import STOPPED
from .kept import Kept
from .replay import Replay, replay_match, replay_without_deals

# A replay's key: its match id (lower case, as the store has it) and its form, a page in
# a language or (None) its JSON. Nothing else of a request is in the body: the page's
# switch link is made from the id, its cookie and Vary are headers.
ReplayKey = tuple[str, Lang | None]
# A page of 200 deals is some 230 KB in English, 250 KB in Russian, its JSON 180 KB; a
# match of 10 deals a tenth of that: 32 MB keep a hundred of the longest, a thousand
# of the usual; the least recently asked go first.
KEPT_REPLAYS_BYTES = 32 * 1024 * 1024


# replays as served (their bodies' bytes), kept by key (kept.py)
KeptReplays = Kept[ReplayKey, bytes]


@attrs.frozen
class Built:
    body: bytes | None  # None: no finished match of that id
    final: bool  # finished, not stopped: it cannot change, so it is kept


async def served_replay(
    kept: KeptReplays, key: ReplayKey, build: Callable[[], Built]
) -> bytes | None:
    """The body of ``key``: kept, or built by ``build`` in a thread (kept if final);
    None: no finished match of that id."""

    def made() -> bytes | None:
        built = build()
        if built.final and built.body is not None:
            kept.put(key, built.body)
        return built.body

    return await kept.kept_or_made(key, made)


def finished_match_read(
    store: Store, match_id: str
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """A finished match's records and its row (the row says why a match its last deal
    does not end was over: a forfeit between deals, a stop): ([], None) for a match
    unknown or still running."""

    def stored_records() -> list[dict[str, Any]]:
        return [json.loads(body) for body in store.match_records(match_id)]

    found = stored_records()
    row = store.finished_match(match_id)
    if found or row is None:
        return found, row
    # it may have ended between the two reads: its deals are stored before the match
    # is marked over, so a second read finds them if it had any
    return stored_records(), row


def match_stored(store: Store, match_id: str) -> bool:
    """Whether ``match_id`` has a replay to build: its row (one indexed read), or, with
    none, its deals (a match a clean stop left before such matches were listed); a
    match unknown or still running has neither."""
    return store.finished_match(match_id) is not None or bool(store.match_records(match_id))


def replay_read(store: Store, book: RuleBook, match_id: str) -> tuple[Replay | None, bool]:
    """Match ``match_id`` rebuilt (None: unknown or still running), and whether it is
    final: its row, read before its deals, says it finished (not stopped), so the deals
    read after it are all it will ever have."""
    before = store.finished_match(match_id)
    final = before is not None and before["reason"] not in STOPPED
    records, row = finished_match_read(store, match_id)
    if records:
        return replay_match(records, book, row), final
    # over before its first call (a forfeit): no deal to replay, but it was played
    return (None if row is None else replay_without_deals(row)), final


def replay_json(replay: Replay) -> bytes:
    """``/api/games/ID``'s body, as Starlette's JSONResponse writes one."""
    told = {
        "match": replay.match,
        "players": replay.players,
        "variant": replay.variant,
        "options": replay.options,
        "totals": replay.totals,
        "winner": replay.winner,
        "winners": replay.winners,
        "reason": replay.reason,
        "stopped": replay.stopped,
        "deals": [d.record for d in replay.deals],
        "forfeit": replay.forfeit,  # (appended: who forfeited it, when known)
    }
    return json.dumps(
        told, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")
