"""In-process self-play between random legal players: a smoke test and a speedometer."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import IO, Any

import attrs

from deberc_net.game.deal import DONE, Deal
from deberc_net.game.match import Match
from deberc_net.game.outcomes import Outcome
from deberc_net.game.rules import RuleSet

# the outcomes the summary always lists (0 when none), the others only when they occur
_USUAL = (Outcome.MADE, Outcome.BIDE, Outcome.HANGING, Outcome.VOID)


@attrs.define
class Summary:
    games: int = 0
    deals: int = 0
    seconds: float = 0.0
    outcomes: Counter[str] = attrs.Factory(Counter)
    wins: Counter[int | None] = attrs.Factory(Counter)  # by side; None: drawn
    end_reasons: Counter[str] = attrs.Factory(Counter)

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals_per_second, 1),
            "outcomes": {k: self.outcomes.get(k, 0) for k in _USUAL}
            | {k: v for k, v in sorted(self.outcomes.items()) if k not in _USUAL},
            "wins_by_side": {str(k): v for k, v in sorted(self.wins.items(), key=str)},
            "end_reasons": dict(sorted(self.end_reasons.items())),
        }

    def text(self) -> str:
        o = self.as_dict()["outcomes"]
        parts = ", ".join(f"{k} {v}" for k, v in o.items())
        return (
            f"games {self.games}, deals {self.deals}, "
            f"{self.deals_per_second:.0f} deals/s ({self.seconds:.2f} s)\n"
            f"outcomes: {parts}\n"
            f"wins by side: {dict(sorted(self.wins.items(), key=str))}"
        )


def play_random_match(match: Match, rng: random.Random) -> Match:
    """Play ``match`` to its end, each seat choosing uniformly among its legal calls."""
    # bound once; the clock in integer nanoseconds: a call's ms without float arithmetic
    clock, getrandbits = time.monotonic_ns, rng.getrandbits
    bit_lengths = _BIT_LENGTHS
    while match.result is None:
        deal, started = match.deal, clock()
        # Deal.to_act read inline (no call a move), unless a game of its own has its own
        own_to_act = type(deal).to_act is not Deal.to_act
        to_act = _to_act(deal)
        while True:  # the deal's moves: its phase is not DONE
            if own_to_act:
                acting = to_act(deal)
                assert acting is not None
                seat = acting
            else:
                pending = deal.talk.pending
                seat = deal.turn if pending is None else pending.answerer
            legal = deal.shared_legal_calls(seat)  # only read: no copy
            # rng.choice(legal), drawn as random.Random draws it (the same index from the
            # same bits: the records of a seed stay the same) without its two calls a move
            n = len(legal)
            if not n:
                raise IndexError(f"seat {seat} is to act with no legal call")
            try:
                bits = bit_lengths[n]
            except IndexError:  # a list longer than any the engine makes
                bits = n.bit_length()
            i = getrandbits(bits)
            while i >= n:
                i = getrandbits(bits)
            # on the deal itself (Match.apply's work is only the deal's end)
            deal.apply(seat, legal[i], ms=(clock() - started) // 1_000_000)
            if deal.phase is DONE:
                break
        match.finish_deal()
    return match


def _to_act(deal: Deal) -> Callable[[Deal], int | None]:
    """The function of ``deal``'s ``to_act`` (a game of its own may have its own)."""
    getter: Callable[[Deal], int | None] = type(deal).to_act.fget  # type: ignore[attr-defined]
    return getter


# ``n.bit_length()`` for the lengths of a legal list, looked up, not called
_BIT_LENGTHS = tuple(n.bit_length() for n in range(64))


def selfplay(rules: RuleSet, games: int, seed: str) -> Iterator[Match]:
    """Play ``games`` matches with the table rules ``rules``."""
    for game in range(1, games + 1):
        match = Match(rules, seed=f"{seed}/{game}", match_id=str(game), table="selfplay")
        yield play_random_match(match, random.Random(f"{seed}/players/{game}"))


def run(rules: RuleSet, games: int, seed: str, records: IO[str] | None = None) -> Summary:
    summary = Summary()
    started = time.perf_counter()
    for match in selfplay(rules, games, seed):
        summary.games += 1
        summary.deals += len(match.records)
        for record in match.records:
            summary.outcomes[record["outcome"]] += 1
            if records is not None:
                records.write(json.dumps(record, ensure_ascii=False) + "\n")
        assert match.result is not None
        summary.wins[match.result.winner] += 1
        summary.end_reasons[match.result.reason] += 1
    summary.seconds = time.perf_counter() - started
    return summary
