"""Self-play records for fixed seeds stay byte-for-byte what they were before the engine's
speed work (issue #9): the digests in selfplay_digests.json were written by the engine as
it stood before, and every faster engine must give the same bytes.

A record's bytes are its line as ``deberc-net selfplay --records`` writes it, less the
timing (``ms``) and the rule versions (the package's version, not the engine's doing).
Regenerate only for an intended change of the records:
``.venv/bin/python tests/game/test_selfplay_digests.py`` (and say why in the commit).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from deberc_net.game.record import without_timing
from deberc_net.plugins import RuleBook
from deberc_net.selfplay import selfplay

DIGESTS = Path(__file__).with_name("selfplay_digests.json")
GAMES = 6  # matches per rule set, each from its own seed

# Builtin rule sets only (the examples are installed for the tests, not by everybody),
# chosen to run every part of the engine: 2, 3, 4 players, the talk, claims, short
# games, dave, stakes, pairs, penalties, the kharkov variant, Tertz (a Deal subclass;
# its digests were written by main's engine of the day Tertz was merged).
RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ()),
    (2, "moscow", ("manual-claim", "table-penalties", "bella-after-trick")),
    (2, "moscow", ("dave",)),
    (2, "moscow", ("short",)),
    (3, "kharkov", ("sequence-by-strength", "swap-before-extra")),
    (4, "moscow", ("pair-combinations", "partner-exemption", "show-combination")),
    (4, "kharkov", ("combos-need-trick", "deberts")),
    (2, "moscow", ("deberts", "poltinniki", "stake-5", "hanging-separate")),
    (3, "moscow", ("commitment", "player-leads", "fresa-hidden", "bide-to-leader")),
    (2, "moscow", ("to-301", "seven-swap-off", "dealer-clockwise", "bide-penalty")),
    (3, "moscow", ("ski-penalty", "to-1001")),
    (2, "tertz", ()),
)


def key(players: int, variant: str, options: tuple[str, ...]) -> str:
    return f"{players}/{variant}/{','.join(options)}"


def record_line(record: dict[str, Any]) -> str:
    body = without_timing(record)
    body.pop("rule_versions")
    return json.dumps(body, ensure_ascii=False)


def digests(book: RuleBook, players: int, variant: str, options: tuple[str, ...]) -> list[str]:
    """One digest per match: sha256 of its deals' record lines."""
    rules = book.ruleset(players, variant, options)
    out = []
    for match in selfplay(rules, GAMES, f"digest/{key(players, variant, options)}"):
        lines = "".join(record_line(r) + "\n" for r in match.records)
        out.append(f"{len(match.records)}:{hashlib.sha256(lines.encode()).hexdigest()}")
    return out


@pytest.fixture(scope="module")
def book() -> RuleBook:
    return RuleBook.load()


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=lambda r: key(*r))
def test_selfplay_records_are_unchanged(
    book: RuleBook, rule_set: tuple[int, str, tuple[str, ...]]
) -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))[key(*rule_set)]
    assert digests(book, *rule_set) == expected


def test_every_rule_set_has_digests() -> None:
    assert sorted(json.loads(DIGESTS.read_text(encoding="utf-8"))) == sorted(
        key(*r) for r in RULE_SETS
    )


if __name__ == "__main__":
    loaded = RuleBook.load()
    table = {key(*r): digests(loaded, *r) for r in RULE_SETS}
    DIGESTS.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
