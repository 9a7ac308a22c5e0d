"""A rated house bot's games: its rating is kept under one name per kind and level
(``house-search3``, server/house.py ``HouseBot.rating_name``) while each copy plays one
match under a name of its own (``house-search3-12``). 'finger' and the player pages
show the rating name's standing with the matches its copies were rated in."""

from __future__ import annotations

from typing import Any

from .accounts import name_key
from .house import PREFIX, SEARCH_LEVELS, HouseBotKind
from .store.base import Store

# every HouseBot.rating_name: one per kind, and per level for search (a copy adds '-N')
_RATING_NAMES = frozenset(
    f"{PREFIX}{kind}{level}"
    for kind in HouseBotKind
    for level in (SEARCH_LEVELS if kind is HouseBotKind.SEARCH else [""])
)


def is_house_rating_name(name: str) -> bool:
    return name_key(name) in _RATING_NAMES


def never_rated(name: str) -> bool:
    """Whether ``name`` (a rating name) is the house bot that is never rated: the
    random bot, whose rating could be farmed (docs/protocol.md §5.15)."""
    return name_key(name) == f"{PREFIX}{HouseBotKind.RANDOM}"


def house_rating_name(name: str) -> str | None:
    """The rating name of a house bot's copy (``house-heuristic-3``: its
    ``house-heuristic``; a rating name: itself), None for any other name."""
    key = name_key(name)
    if key in _RATING_NAMES:
        return key
    rating, dash, number = key.rpartition("-")
    return rating if dash and number.isdigit() and rating in _RATING_NAMES else None


def house_bot_games(store: Store, name: str, limit: int) -> list[tuple[str, dict[str, Any]]]:
    """The rated matches of house bot ``name`` (a rating name), newest first: the name
    its copy played under and the store's row of the match. Its newest points alone
    are read, and each one's row (not its deals): a bot rated in thousands of matches
    had its whole history and each match's deals read at every 'finger' and page."""
    prefix = name_key(name) + "-"
    out: list[tuple[str, dict[str, Any]]] = []
    for point in reversed(store.rating_history(name, limit * LOOKED_AT)):
        if len(out) >= limit:
            break
        row = store.finished_match(point.match)
        players = row["players"] if row is not None else []
        copy: str | None = next((p for p in players if name_key(p).startswith(prefix)), None)
        if row is None or copy is None:
            continue
        out.append((copy, row))
    return out


# its points read for ``limit`` matches shown: each one is a match a copy played (a
# copy plays one), so only one not listed (a board's, still withheld) is passed over
LOOKED_AT = 2
