"""Options ``stake-N``: what a match is worth (seed 004's ante), recorded with the match.

Every player puts ``N`` in before the match; the winning side takes them all. The
match's last record carries the settlement in ``match_over.stakes`` (per side); the
option's name, in every record's ``options``, says the stake
from the first deal on.
Options are names, so a stake is one of a fixed list of values, one plugin each.
"""

from __future__ import annotations

from deberc_net.plugins.summaries_ru import stake_ru

from .switches import Switch, set_settings

VALUES = (1, 2, 5, 10, 20, 50, 100)
# Short games already write stakes as their score: a second stake would be confusing.
NOT_WITH = ("short", "short-bide", "dave")


def _stake(value: int) -> Switch:
    """The option ``stake-<value>``: its whole effect is one setting, so it is a Switch."""
    return Switch(
        f"stake-{value}",
        f"The match is played for a stake of {value} per player (seed "
        "004's ante): the winning side takes every stake, recorded with the match's end.",
        set_settings(stake=value),
        conflicts=tuple(f"stake-{v}" for v in VALUES if v != value) + NOT_WITH,
        summary_ru=stake_ru(value),
    )


# one name per value: each is an entry point of its own (pyproject.toml)
STAKE_1, STAKE_2, STAKE_5, STAKE_10, STAKE_20, STAKE_50, STAKE_100 = STAKES = tuple(
    _stake(v) for v in VALUES
)
