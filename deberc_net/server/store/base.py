"""The store interface the server sees, and what both backends share.

A store keeps accounts, finished matches and every deal record. The decks of a running
match must not be knowable: its deals are stored without the match seed and are not
exported until the match ends, when the seeds are filled in. Every method is a blocking
call, made by the server from a worker thread (``trio.to_thread``), and is one
transaction: a finished deal is stored before anyone is told the next one started.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterator
from typing import Any, Protocol


class StoreError(Exception):
    """The store cannot be opened (unreachable server, a schema newer than this code)."""


def name_key(name: str) -> str:
    """One person however a name is written: compatibility forms (full-width letters)
    folded, case folded in any alphabet (АНЯ is аня)."""
    if len(name) > NAME_KEY_CACHED:  # no valid name: not worth a cache entry
        return unicodedata.normalize("NFKC", name).casefold()
    return _cached_name_key(name)


NAME_KEY_CACHED = 40  # longest name whose key is cached (valid names have at most 20)


@functools.lru_cache(maxsize=4096)  # a table asks for its seats' keys at every event
def _cached_name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


class Store(Protocol):
    def close(self) -> None: ...

    def schema_version(self) -> int:
        """The number of the last migration applied to the database."""
        ...

    # accounts
    def account(self, name: str) -> tuple[bytes, bytes] | None:
        """(salt, scrypt hash) of ``name``'s account, None if it has none."""
        ...

    def add_account(self, name: str, salt: bytes, digest: bytes) -> bool:
        """Register ``name``; False if it is taken already (in any writing of it)."""
        ...

    def forget_account(self, name: str) -> None:
        """Drop an account (the ladder re-makes its admin on its own server each run)."""
        ...

    # records
    def add_deal(self, record: dict[str, Any]) -> None:
        """Store a deal of a running match: withheld, and without the seed."""
        ...

    def finish_match(
        self,
        match_id: str,
        table_id: int,
        players: list[str],
        variant: str,
        options: list[str],
        winner: str | None,
        reason: str,
        totals: list[int],
        seeds: dict[int, str] | None = None,
    ) -> None:
        """The match is over: its row, and its deals released with their seeds (by deal
        number) filled in."""
        ...

    def records(self) -> Iterator[str]:
        """Every stored deal (one JSON text each, in the order stored) except those of
        matches still running."""
        ...

    def match_records(self, match_id: str) -> list[str]:
        """One finished match's deals (JSON texts) in deal order; none while it runs."""
        ...

    def recent_games(self, name: str, limit: int = 10) -> list[dict[str, Any]]:
        """``name``'s finished matches, newest first: match, table, players, variant,
        winner, reason, totals, finished ('YYYY-MM-DD HH:MM:SS', UTC)."""
        ...

    def max_match_number(self) -> int:
        """Match ids are ``m<N>``; a restarted server continues after the last one."""
        ...


def deal_text(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def withheld(record: dict[str, Any]) -> str:
    """A running match's deal as stored: its seed left out."""
    return deal_text({**record, "seed": None})


def released(body: str, seeds: dict[int, str] | None) -> str:
    """A stored deal with its seed filled in, at its match's end."""
    record = json.loads(body)
    return deal_text({**record, "seed": (seeds or {}).get(record["deal_no"])})


def match_row(
    match_id: str,
    table_id: int,
    players: list[str],
    variant: str,
    options: list[str],
    winner: str | None,
    reason: str,
    totals: list[int],
) -> tuple[Any, ...]:
    """A finished match's ``matches`` row (id, table_id, players, variant, options,
    winner, reason, totals), its lists as JSON: the same in both backends."""
    return (
        match_id,
        table_id,
        json.dumps(players),
        variant,
        json.dumps(options),
        winner,
        reason,
        json.dumps(totals),
    )


def player_rows(match_id: str, players: list[str]) -> list[tuple[str, str]]:
    """The match's ``match_players`` rows: one per person, however often seated."""
    return [(match_id, name_key(p)) for p in set(players)]


# Queries written the same in both SQL dialects.
RELEASED_RECORDS = (
    "SELECT record FROM deals WHERE match_id NOT IN (SELECT match_id FROM running) ORDER BY id"
)
# the (match_id, deal_no) key's index finds one match's deals
MATCH_RECORDS = (
    "SELECT record FROM deals WHERE match_id = {p}"
    " AND match_id NOT IN (SELECT match_id FROM running) ORDER BY deal_no"
)
MATCH_IDS = "SELECT match_id FROM deals UNION SELECT id FROM matches"

GAME_FIELDS = ("match", "table", "players", "variant", "winner", "reason", "totals", "finished")


def game_row(row: tuple[Any, ...]) -> dict[str, Any]:
    """A ``recent_games`` entry from (id, table_id, players, variant, winner, reason,
    totals, finished)."""
    game = dict(zip(GAME_FIELDS, row, strict=True))
    game["players"], game["totals"] = json.loads(game["players"]), json.loads(game["totals"])
    return game


def highest_match_number(ids: list[str]) -> int:
    numbers = [int(i[1:]) for i in ids if i.startswith("m") and i[1:].isdigit()]
    return max(numbers, default=0)
