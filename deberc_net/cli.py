"""The ``deberc-net`` command."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence

from deberc_net import __version__
from deberc_net.plugins import RuleError


def _selfplay(args: argparse.Namespace) -> int:
    from deberc_net.selfplay import run

    with contextlib.ExitStack() as stack:
        out = None
        if args.records:
            out = stack.enter_context(open(args.records, "w", encoding="utf-8"))
        try:
            summary = run(args.games, args.seed, args.players, args.variant, args.option, out)
        except RuleError as exc:
            print(f"deberc-net selfplay: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(summary.as_dict(), sort_keys=True))
    else:
        print(summary.text())
    return 0


def _serve(args: argparse.Namespace) -> int:
    print("deberc-net serve: the server is not built yet (see the open server issue).",
          file=sys.stderr)
    return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deberc-net", description="Deberts for people and bots.")
    parser.add_argument("--version", action="version", version=f"deberc-net {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sp = sub.add_parser("selfplay", help="play games between random legal players in-process")
    sp.add_argument("--games", type=int, default=10, help="matches to play (default 10)")
    sp.add_argument("--seed", default="0", help="match seed; the same seed replays the same")
    sp.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    sp.add_argument("--variant", default="moscow")
    sp.add_argument("--option", action="append", default=[], metavar="NAME",
                    help="a table option (repeatable), e.g. to-301")
    sp.add_argument("--records", metavar="FILE", help="write every deal as a deberc-deal/1 line")
    sp.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sp.set_defaults(func=_selfplay)

    sv = sub.add_parser("serve", help="run the server")
    sv.set_defaults(func=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "games", 1) < 1:
        print("deberc-net selfplay: --games must be at least 1", file=sys.stderr)
        return 2
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
