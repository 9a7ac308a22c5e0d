"""The words a table's game gives calls of the game's own, as the server's human style
says them (deberc_net.protocol.lang.table_words): Tertz's `bella` is `mariage`. The
client reads the machine style, whose tokens are the same in every game, so it says
them in the game's words itself (docs/play.md)."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from deberc_net.plugins.manager import RuleBook
from deberc_net.protocol.lang import NO_WORDS, table_words

TALON_GAME = "tertz"  # the one game with a talon; the client knows a game by its views


@functools.cache
def _talon_game_words() -> Mapping[str, str]:
    try:  # (the rules installed beside the client, read once)
        aliases = RuleBook.load().ruleset(2, TALON_GAME).call_aliases
    except Exception:  # a broken third-party rule beside it: calls said as their tokens
        return NO_WORDS
    return table_words(aliases)


def words_for(talon: int | None) -> Mapping[str, str]:
    """The table's words for calls, by what its views say of a talon (``talon=``: a
    game with a talon, Tertz; none: Deberts, whose words are the tokens' own)."""
    return _talon_game_words() if talon is not None else NO_WORDS
