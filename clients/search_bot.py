"""The search bot: for every decision it deals the hidden cards many times, consistently
with everything its seat has seen, solves each deal, and takes the call that does best
on average.

    python -m clients.search_bot --name s1 [--level 1..5] [--ms MS] [--host --port --seek]

Each level thinks for its own time per decision unless --ms says otherwise
(docs/bots.md: 50 ms at level 1 to 1 s at level 5).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence

from .client import Brain, board_reseeder, bot_arguments, run_mind
from .search.history import rules_from_seek
from .search.policy import DEFAULT_LEVEL, LEVELS, SearchPlayer, level_error, ms_error

# an in-process bot's spec carries only a seed: its level and time come from here
LEVEL_ENV = "DEBERC_SEARCH_LEVEL"
MS_ENV = "DEBERC_SEARCH_MS"


def level_times() -> str:
    """Each level's own time, for the help: ``1: 50 ms, 2: 100 ms, ...``."""
    return ", ".join(f"{n}: {level.ms} ms" for n, level in sorted(LEVELS.items()))


def _from_env(name: str, wrong: Callable[[int], str | None]) -> int | None:
    """An integer setting from the environment (None when unset or empty), or a
    ValueError that names the variable."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {text!r}") from None
    if (error := wrong(value)) is not None:
        raise ValueError(f"{name} {error}")
    return value


def player_from_env(seed: str | None) -> SearchPlayer:
    """An in-process bot's player: level and time from ``DEBERC_SEARCH_LEVEL`` (default
    3) and ``DEBERC_SEARCH_MS`` (unset: the level's own time); a ValueError says which
    is wrong."""
    level = _from_env(LEVEL_ENV, level_error)
    ms = _from_env(MS_ENV, ms_error)
    player = SearchPlayer(level=DEFAULT_LEVEL if level is None else level, seed=seed)
    if ms is not None:
        player.ms = ms
    return player


def brain(name: str, seed: str | None) -> Brain:
    """The bot's decisions, for a ladder's in-process bots (docs/bots.md), as
    ``player_from_env`` sets them."""
    del name
    player = player_from_env(seed)
    player.tracker.rules = rules_from_seek("reserved")
    return Brain(player.choose, board_reseeder(player.rng, seed), player.tracker)


def player_from(argv: Sequence[str] | None = None) -> tuple[argparse.Namespace, SearchPlayer]:
    """The command line (``sys.argv`` unless given) and the player it asks for; a bad
    value exits with the usage and what is wrong."""
    parser = bot_arguments(__doc__ or "")
    parser.add_argument(
        "--level",
        type=int,
        default=DEFAULT_LEVEL,
        choices=sorted(LEVELS),
        help=f"strength: worlds, search depth and time per decision (default {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--ms",
        type=int,
        help=f"thinking time per decision in milliseconds (default: the level's, {level_times()})",
    )
    args = parser.parse_args(argv)
    if args.ms is not None and (error := ms_error(args.ms)) is not None:
        parser.error(f"--ms {error}")
    player = SearchPlayer(level=args.level, seed=args.seed)
    if args.ms is not None:
        player.ms = args.ms
    return args, player


def main() -> None:
    args, player = player_from()
    player.tracker.rules = rules_from_seek(args.seek)
    # any copy of the bot samples a ladder board alike
    on_board = board_reseeder(player.rng, args.seed)
    stats = run_mind(Brain(player.choose, on_board=on_board, on_event=player.tracker), args)
    heuristic = (
        "1 heuristic call" if player.fallbacks == 1 else f"{player.fallbacks} heuristic calls"
    )
    print(f"{args.name}: {stats.said()}, {heuristic}")


if __name__ == "__main__":
    main()
