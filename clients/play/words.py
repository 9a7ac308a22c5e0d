"""The words a table's game gives calls of the game's own, as the server's human style
says them (deberc_net.protocol.lang.table_words): Tertz's `bella` is `mariage`, a `dave`
table's «даве». The client reads the machine style, whose tokens are the same in every
game, so it says them in the game's words itself, by the game the server names on the
table's `tables` line (its variant and options) and the rules installed beside the
client (docs/play.md)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from deberc_net.plugins.manager import RuleBook
from deberc_net.protocol.lang import NO_WORDS, table_words

# the one game with a talon the client knows: a table's views show a talon before the
# answer to 'tables' names its game (a seat just taken), and are read as its until then
TALON_GAME = "tertz"


@functools.cache
def _book() -> RuleBook | None:
    try:  # (the rules installed beside the client, read once)
        return RuleBook.load()
    except Exception:  # a broken third-party rule beside it: calls said as their tokens
        return None


@functools.cache
def game_words(variant: str, players: int, options: tuple[str, ...] = ()) -> Mapping[str, str]:
    """The words of the game the server names (``variant``, ``options``, at ``players``);
    none for a game the rules beside the client do not know (a plugin of the server's
    alone): its calls said as their tokens."""
    book = _book()
    if book is None:
        return NO_WORDS
    try:
        return table_words(book.ruleset(players, variant, options).call_aliases)
    except Exception:  # (RuleError: no such rule here; a third party's failing)
        return NO_WORDS


def words_for(
    variant: str | None, players: int = 2, options: Sequence[str] = (), talon: int | None = None
) -> Mapping[str, str]:
    """The table's words for calls: its game's, as the server names it; before it has
    (``variant`` None), by what its views say of a talon (``talon=``: Tertz; none:
    Deberts, whose words are the tokens' own)."""
    if variant is not None:
        return game_words(variant, max(players, 2), tuple(sorted(options)))
    return game_words(TALON_GAME, 2) if talon is not None else NO_WORDS
