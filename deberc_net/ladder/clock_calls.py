"""The calls the clock made for each bot in a ladder's games (docs/bots.md, "A bot's
timeouts"), read from the deals the server stored (each call made for a seat out of
time is marked ``"auto": true``, docs/records.md): a bot that let its clock run out
(no answer, or only answers the server refused) short of a forfeit was counted
nowhere, so its author read a clean report."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping

import attrs

from .results import GameResult


@attrs.frozen
class ClockCalls:
    counts: Counter[str]  # by bot
    first: dict[str, str]  # by bot: where the first was, 'match m361 deal 1: play Jh'


def _said(call: dict[str, object]) -> str:
    card = call.get("card")
    return f"play {card}" if card is not None else str(call.get("call"))


def clock_calls(results: Iterable[GameResult], records: Mapping[str, list[str]]) -> ClockCalls:
    """Count each bot's clock-made calls in the stored records of ``results``' matches
    (``records``: each match's deals, as the store's matches_records gives them; a match
    not in that store, as a ``--server`` run's elsewhere, counts none; nor
    does another match of the same number, whose deals are not of the game's board)."""
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for result in results:
        if result.match_id is None:
            continue
        seating = result.game.seating
        # a --server run's matches are numbered by that server: the same m1, m2 as the
        # matches of --db's own runs, which were counted as this run's
        board = f"{result.game.seed}/"
        for text in records.get(result.match_id, ()):
            record = json.loads(text)
            if not str(record.get("seed")).startswith(board):
                break  # another match (its deals all of one seed)
            for call in record.get("calls", ()):
                seat = call.get("seat")
                if not call.get("auto") or not isinstance(seat, int) or seat >= len(seating):
                    continue
                bot = seating[seat]
                counts[bot] += 1
                where = f"match {result.match_id} deal {record.get('deal_no')}"
                first.setdefault(bot, f"{where}: {_said(call)}")
    return ClockCalls(counts, first)


def not_counted(error: Exception) -> str:
    """Why a count failed, as a run's ``clock_calls_missing`` says it: one line (a
    PostgreSQL error's own goes on with the query quoted, over the report's line)."""
    lines = str(error).splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"
