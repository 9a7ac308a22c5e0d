"""Who plays which board in which seat: duplicate boards, round robin or gauntlet.

A board is one deal whose deck depends on the ladder seed and the board number alone.
Every board is played again with the seats rotated among the same bots — both seatings
for two players, all distinct seatings for three, both pair orientations for four — so
the luck of the cards cancels out.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

import attrs


@attrs.frozen
class Game:
    board: int
    group: tuple[str, ...]  # the bots that meet, sorted
    seating: tuple[str, ...]  # bot name by seat
    seed: str  # the match seed: the same for every seating of a board

    @property
    def key(self) -> tuple[int, tuple[str, ...]]:
        """Games with the same key are one duplicate set."""
        return (self.board, self.group)


class ScheduleError(ValueError):
    pass


class BotsCannotPlay(ScheduleError):
    """The ladder's bots could not play: one cannot run (supervisor.BotCannotRun), or
    copies did not log in in time. A single-machine run that ends so is stored as failed
    (docs/bots.md), not as one being played."""


class ServerGoing(ScheduleError):
    """A ``--server`` drains for a restart, or stops (docs/protocol.md §11.4a, §11.4):
    the run stopped there, its running games played out (a drain's) or cut (a stop's)
    and every board it started released. Stored as failed (docs/bots.md), not as one
    being played."""


MAX_SEED = 100  # characters of a --seed: its reserve line well within max_line (1024 bytes)


def seed_refused(seed: str) -> str | None:
    """Why ``seed`` cannot be a ladder's seed (None: it can). The admin's ``reserve``
    line carries it as one word, ``seed=S/boardN`` (docs/protocol.md §5.5a): the server
    splits a command's words at any space (``str.split``) and refuses a line with a
    control character, so a seed with either would become other words (``cup deals=3``
    a deal limit, the same seed for every board) or no table at all; a format character
    (a zero-width space) is not printable either and would pass unseen. ``=`` is safe:
    the server splits a word at its first ``=`` only. Quoting cannot help, as the
    protocol has none; an empty seed has no boards to tell apart."""
    if 0 < len(seed) <= MAX_SEED and seed.isprintable() and not any(map(str.isspace, seed)):
        return None
    return f"--seed takes 1-{MAX_SEED} printable characters and no space, got {seed!r}"


def groups(bots: Sequence[str], players: int, mode: str) -> list[tuple[str, ...]]:
    """The sets of bots that meet. Four players: two bots, each playing a pair."""
    if len(bots) < 2:
        raise ScheduleError("a ladder needs at least two bots")
    if len(set(bots)) != len(bots):
        raise ScheduleError("bot names must differ")
    size = 3 if players == 3 else 2
    if mode == "gauntlet":
        champion, others = bots[0], list(bots[1:])
        if size == 2:
            return [(champion, other) for other in others]
        if len(others) >= 2:
            return [(champion, *pair) for pair in itertools.combinations(others, 2)]
        return [(champion, champion, others[0]), (champion, others[0], others[0])]
    if mode != "round-robin":
        raise ScheduleError(f"unknown schedule {mode!r}: round-robin or gauntlet")
    if size == 2 or len(bots) >= 3:
        return list(itertools.combinations(bots, size))
    a, b = bots
    return [(a, a, b), (a, b, b)]


def seatings(group: tuple[str, ...], players: int) -> list[tuple[str, ...]]:
    if players == 4:
        a, b = group
        return [(a, b, a, b), (b, a, b, a)]
    return sorted(set(itertools.permutations(group)))


def set_size(seating: Sequence[str]) -> int:
    """How many seatings the board of this one has for the same bots: the size of a
    complete duplicate set (four players: a bot's pair is two seats of one bot)."""
    players = len(seating)
    return len(seatings(tuple(seating[:2]) if players == 4 else tuple(seating), players))


def board_deals(bots: Sequence[str], players: int, mode: str) -> dict[frozenset[str], int]:
    """Each pair of bots' deals on a complete board: its seatings of every group the
    pair meets in, times the pair's pairs of sides in each (two at (a, a, b)). A board
    is one observation of the pair's statistics (stats.PairStats): at three players
    with two bots, both its duplicate sets; with three bots or more, every triple that
    holds both, which share its deck too."""
    deals: Counter[frozenset[str]] = Counter()
    for group in groups(bots, players, mode):
        for seating in seatings(group, players):
            sides = seating[:2] if players == 4 else seating
            for x, y in itertools.combinations(sides, 2):
                if x != y:
                    deals[frozenset((x, y))] += 1
    return dict(deals)


def board_games(bots: Sequence[str], players: int, mode: str) -> int:
    """The games of a complete board: every seating of every group."""
    return sum(len(seatings(group, players)) for group in groups(bots, players, mode))


def schedule(
    bots: Sequence[str], players: int, boards: int, seed: str, mode: str = "round-robin"
) -> Iterator[Game]:
    """Board by board, every group, every seating: a stop after any board is fair."""
    met = groups(bots, players, mode)
    for board in range(1, boards + 1):
        board_seed = f"{seed}/board{board}"
        for group in met:
            for seating in seatings(group, players):
                yield Game(board, tuple(sorted(group)), seating, board_seed)
