"""The random bot: uniform over the legal calls.  python -m clients.random_bot --name r1"""

from __future__ import annotations

import random
from collections.abc import Callable

from .client import Brain, Pick, board_reseeder, bot_arguments, run_bot, seeded_random
from .protocol import View


def brain(name: str, seed: str | None) -> Brain:
    """The bot's decisions, for a ladder's in-process bots (docs/bots.md)."""
    rng = seeded_random(seed, name)
    return Brain(_chooser(rng), board_reseeder(rng, seed), pick=_picker(rng), asks_only=True)


def _chooser(rng: random.Random) -> Callable[[View], str]:
    pick = _picker(rng)

    def choose(view: View) -> str:
        return pick(view.legal)

    return choose


def _picker(rng: random.Random) -> Pick:
    """The decision from the legal calls alone: the client reads no more of an ask."""
    return rng.choice


def main() -> None:
    args = bot_arguments(__doc__ or "").parse_args()
    rng = seeded_random(args.seed, args.name)
    stats = run_bot(_chooser(rng), args, rng, _picker(rng))
    print(f"{args.name}: {stats.said()}")


if __name__ == "__main__":
    main()
