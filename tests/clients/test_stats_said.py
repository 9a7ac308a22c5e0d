"""A bot's last line (clients/random_bot.py, heuristic_bot.py, search_bot.py): its
counts said once, by ``Stats.said``, each word in the number its count needs; the
bots printed '1 games' each in its own copy (a tryout, s43)."""

from __future__ import annotations

from clients.client import Stats


def test_one_of_each_is_said_in_the_singular_and_the_rest_in_the_plural() -> None:
    assert Stats(games=1, asks=1, fallbacks=1).said() == "1 game, 1 call, 1 fallback"
    assert Stats(games=2, asks=40, fallbacks=0).said() == "2 games, 40 calls, 0 fallbacks"
    assert Stats().said() == "0 games, 0 calls, 0 fallbacks"
