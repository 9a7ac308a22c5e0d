"""The search bot: for every decision it deals the hidden cards many times, consistently
with everything its seat has seen, solves each deal, and takes the call that does best
on average.

    python -m clients.search_bot --name s1 [--level 1..5] [--ms 200] [--host --port --seek]
"""

from __future__ import annotations

import os

import trio

from .client import Bot, Brain, board_reseeder, bot_arguments
from .search.history import rules_from_seek
from .search.policy import DEFAULT_LEVEL, LEVELS, SearchPlayer

# an in-process bot's spec carries only a seed: its level and time come from here
LEVEL_ENV = "DEBERC_SEARCH_LEVEL"
MS_ENV = "DEBERC_SEARCH_MS"


def brain(name: str, seed: str | None) -> Brain:
    """The bot's decisions, for a ladder's in-process bots (docs/bots.md): level and
    time from ``DEBERC_SEARCH_LEVEL`` and ``DEBERC_SEARCH_MS`` (default 3 and 200)."""
    del name
    level = int(os.environ.get(LEVEL_ENV, DEFAULT_LEVEL))
    ms = int(os.environ.get(MS_ENV, 200))
    if level not in LEVELS or ms < 1:
        raise ValueError(f"{LEVEL_ENV} must be one of {sorted(LEVELS)}, {MS_ENV} at least 1")
    player = SearchPlayer(level=level, ms=ms, seed=seed)
    player.tracker.rules = rules_from_seek("reserved")
    return Brain(player.choose, board_reseeder(player.rng, seed), player.tracker)


def main() -> None:
    parser = bot_arguments(__doc__ or "")
    parser.add_argument(
        "--level",
        type=int,
        default=DEFAULT_LEVEL,
        choices=sorted(LEVELS),
        help=f"strength: samples and search depth (default {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--ms",
        type=int,
        default=200,
        help="thinking time per decision in milliseconds (default 200)",
    )
    args = parser.parse_args()
    if args.ms < 1:
        parser.error("--ms must be at least 1")
    player = SearchPlayer(level=args.level, ms=args.ms, seed=args.seed)
    player.tracker.rules = rules_from_seek(args.seek)
    bot = Bot(
        player.choose,
        args.name,
        args.host,
        args.port,
        args.password,
        args.seek,
        args.games,
        on_event=player.tracker,
    )
    # any copy of the bot samples a ladder board alike
    bot.on_board = board_reseeder(player.rng, args.seed)
    stats = trio.run(bot.run)
    print(
        f"{args.name}: {stats.games} games, {stats.asks} calls, {stats.fallbacks} fallbacks,"
        f" {player.fallbacks} heuristic calls"
    )


if __name__ == "__main__":
    main()
