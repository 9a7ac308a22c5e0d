"""The random bot: uniform over the legal calls.  python -m clients.random_bot --name r1"""

from __future__ import annotations

from .client import bot_arguments, run_bot, seeded_random
from .protocol import View


def main() -> None:
    args = bot_arguments(__doc__ or "").parse_args()
    rng = seeded_random(args.seed, args.name)

    def choose(view: View) -> str:
        return rng.choice(view.legal)

    stats = run_bot(choose, args, rng)
    print(f"{args.name}: {stats.games} games, {stats.asks} calls, {stats.fallbacks} fallbacks")


if __name__ == "__main__":
    main()
