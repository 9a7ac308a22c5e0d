"""The standings page, /top and /api/top (docs/web.md): the rated players of one game
(variant and number of players), a page at a time, ranked as 'top' ranks them on the
game port (server/club.py): the same default game, page size and places."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from deberc_net.plugins import RuleBook, RuleKind
from deberc_net.plugins.naming import own_count, variant_named
from deberc_net.protocol import events as ev

from ..club import club_game, rated_at
from ..store.base import Store
from .paging import NoSuchPage, Paged, paged

PLAYER_COUNTS = (2, 3, 4)


class NoSuchGame(Exception):
    """``?variant=`` names no variant, or ``?players=`` is not 2, 3 or 4, or not one
    the variant is played by (``counts``: its own, to say so)."""

    def __init__(self, variant: str | None = None, counts: tuple[int, ...] = ()) -> None:
        super().__init__(variant)
        self.variant, self.counts = variant, counts


@attrs.frozen
class RatedGame:
    """A game someone is rated in, and how many are: the page's links to the others."""

    variant: str
    players: int
    rated: int


@attrs.frozen
class Standings:
    variant: str
    players: int
    paged: Paged
    ratings: list[ev.Rated]  # this page's, best first, as 'top' tells them
    games: list[RatedGame]  # every game with anyone rated, most rated first

    def query(self, page: int | None = None) -> str:
        """This game's query (a page of it; the first has no ``page=``)."""
        page = self.paged.page if page is None else page
        shown = f"variant={self.variant}&players={self.players}"
        return shown if page == 1 else f"{shown}&page={page}"


def variants(rules: RuleBook) -> list[str]:
    return [r.name for r in rules.rules() if r.info.kind == RuleKind.VARIANT]


def asked_game(query: Mapping[str, str], rules: RuleBook) -> tuple[str, int] | None:
    """The game ``?variant=`` and ``?players=`` ask for, read as 'top VARIANT PLAYERS'
    reads them (any spelling 'new' takes; the players 2 without a number (a variant
    not played by two: its own count), the variant
    moscow without a name); None: neither given, the club's game. NoSuchGame if bad."""
    named, count = query.get("variant"), query.get("players")
    if named is None and count is None:
        return None
    variant = "moscow" if named is None else variant_named(named, rules)
    if variant is None or count not in (None, *map(str, PLAYER_COUNTS)):
        raise NoSuchGame
    players = own_count(variant, rules) if count is None else int(count)
    rule = rules.get(variant)
    if rule is not None and players not in rule.info.players:  # Tertz for three: no game
        raise NoSuchGame(variant, rule.info.players)
    return variant, players


def standings(
    store: Store,
    variant_names: Sequence[str],
    game: tuple[str, int] | None,
    page: int,
    size: int,
) -> Standings:
    """Page ``page`` of ``game``'s standings (None: the club's game, as 'top' shows one
    rated in none), ``size`` a page; NoSuchPage past its pages. Read in a thread."""
    counts = store.rated_counts()
    variant, players = club_game(counts, variant_names) if game is None else game
    shown = paged(page, counts.get((variant, players), 0), size)
    rows = store.standings_page(variant, players, shown.skip, size) if shown.count else []
    ranked = [rated_at(shown.skip + 1 + i, r) for i, r in enumerate(rows)]
    games = [RatedGame(v, n, c) for (v, n), c in counts.items() if c]
    games.sort(key=lambda g: (-g.rated, g.variant, g.players))
    return Standings(variant, players, shown, ranked, games)


def row_json(r: ev.Rated) -> dict[str, object]:
    """A row of /api/top: the rating at its place, its game said once, the page's."""
    return attrs.asdict(r, filter=lambda field, _: field.name not in ("variant", "players"))


__all__ = [
    "PLAYER_COUNTS",
    "NoSuchGame",
    "NoSuchPage",
    "RatedGame",
    "Standings",
    "asked_game",
    "row_json",
    "standings",
    "variants",
]
