"""Self-play records for fixed seeds, hashed: run it before and after an engine change and
compare the output (it must not change). Wider than tests/game/test_selfplay_digests.py:
20 rule sets (the example plugins posled-20 and perezdacha, Tertz with its options, dave
with to-9-stakes, penalties and manual claims with four players among them) × 15 matches.

    .venv/bin/python bench/record_digests.py [--matches 15] > before.txt
    ... change the engine ...
    .venv/bin/python bench/record_digests.py | diff before.txt -

One line per rule set: its key, the deals, and the sha256 of every match's records (each
as ``selfplay --records`` writes it, less ``ms`` and the rule versions) and result; then
the digest of all. Needs the examples installed (``make test`` installs them). Against
another tree: ``PYTHONPATH=/that/tree .venv/bin/python bench/record_digests.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json

from deberc_net.game.record import without_timing
from deberc_net.plugins import RuleBook
from deberc_net.selfplay import selfplay

RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ()),
    (2, "moscow", ("posled-20", "perezdacha")),
    (3, "kharkov", ("perezdacha",)),
    (4, "moscow", ("posled-20", "table-penalties", "manual-claim")),
    (2, "moscow", ("manual-claim", "table-penalties", "bella-after-trick")),
    (2, "moscow", ("dave", "to-9-stakes", "dave-geometric")),
    (2, "moscow", ("short",)),
    (3, "moscow", ("short-bide",)),
    (3, "kharkov", ("sequence-by-strength", "swap-before-extra")),
    (4, "moscow", ("pair-combinations", "partner-exemption", "show-combination")),
    (4, "kharkov", ("combos-need-trick", "deberts", "stake-10")),
    (2, "moscow", ("deberts", "poltinniki", "stake-5", "hanging-separate")),
    (3, "moscow", ("commitment", "player-leads", "fresa-hidden", "bide-to-leader")),
    (2, "moscow", ("to-301", "seven-swap-off", "dealer-clockwise", "bide-penalty")),
    (3, "moscow", ("ski-penalty", "to-1001", "table-penalties")),
    (2, "tertz", ()),
    (2, "tertz", ("tertz-501", "tertz-swap-until-two")),
    (2, "kharkov", ("to-1002", "combos-need-trick", "manual-claim", "posled-20")),
)


def digest(book: RuleBook, players: int, variant: str, options: tuple[str, ...], n: int) -> str:
    key = f"{players}/{variant}/{','.join(options)}"
    rules = book.ruleset(players, variant, options)
    sha, deals = hashlib.sha256(), 0
    for match in selfplay(rules, n, f"digests/{key}"):
        for record in match.records:
            body = without_timing(record)
            body.pop("rule_versions")
            sha.update(json.dumps(body, ensure_ascii=False).encode() + b"\n")
            deals += 1
        assert match.result is not None
        sha.update(repr((match.result.winner, match.result.reason)).encode() + b"\n")
    return f"{key} {deals} {sha.hexdigest()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=15, help="matches per rule set")
    args = parser.parse_args()
    book = RuleBook.load()
    lines = [digest(book, *rule_set, args.matches) for rule_set in RULE_SETS]
    print("\n".join(lines))
    print("all", hashlib.sha256("\n".join(lines).encode()).hexdigest())


if __name__ == "__main__":
    main()
