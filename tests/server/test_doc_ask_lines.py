"""docs/protocol.md's `ask` and `state` lines are what the server sends: a bot written
from the docs alone took the examples' last field, `legal=`, for the line's last, and
the server appends `players=` (and a game's own fields) after it.

Each example line, whole or trimmed with '…', has the fields of a real line at its
table's player count, in the real order (a trimmed line may leave fields out but ends
where the real line ends, or with '…'); and §6.3's example is written again, byte for
byte, from a real match dealt its cards."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import MACHINE, render
from deberc_net.server.ask_line import ask_line
from deberc_net.testing import build_deck, build_ruleset, new_match, say

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
EXAMPLE = re.compile(r"^(?:ask|state) seq=\S+ .*$", re.M)
SECTION_6_3 = (
    "ask seq=7 table=3 deal=1 phase=play seat=0 dealer=0 to_act=0 hand=8h,Jh,Qh,7d,Qd,9d,Jd,8c,Kc"
)


def examples() -> list[str]:
    return EXAMPLE.findall(PROTOCOL.read_text(encoding="utf-8"))


@cache
def real_keys(players: int) -> tuple[str, ...]:
    """The field names of a real `ask` at a Deberts table of ``players``, in order."""
    match = Match(build_ruleset(players), seed="doc-ask", names=tuple("abcd"[:players]))
    seat = match.to_act
    assert seat is not None
    line = ask_line("ask", 1, 1, match, seat, 10_500)
    return tuple(part.partition("=")[0] for part in line.split(" ")[1:])


# fields the server appends after a real line's last in some asks only (§6.3: an ask
# whose clock running out forfeits the match), never before it
APPENDED = ("last_timeout",)


def keys_of(example: str) -> list[str]:
    keys = [part.partition("=")[0] for part in example.split(" ")[1:] if "=" in part]
    while keys and keys[-1] in APPENDED:
        keys.pop()
    return keys


def test_the_protocol_has_whole_and_trimmed_examples() -> None:
    found = examples()
    assert len(found) >= 40
    assert sum("…" not in line for line in found) >= 15
    assert any(line.startswith(SECTION_6_3) for line in found)


def fault(example: str) -> str | None:
    """What is wrong with ``example`` against a real line, or None."""
    said = dict(part.partition("=")[::2] for part in example.split(" ")[1:] if "=" in part)
    keys = keys_of(example)
    ended = example.endswith("…")
    if "players" not in said and not ended:
        return "no players= (the server sends it)"
    real = real_keys(int(said.get("players", "2")))
    if "…" not in example:
        return None if tuple(keys) == real else f"not the fields {' '.join(real)}"
    at = [real.index(key) for key in keys if key in real]
    if len(at) != len(keys) or at != sorted(at):
        return "fields a real line has not, or out of order"
    if not ended and keys[-1] != real[-1]:
        return "ends before the real line does, without '…'"
    return None


@pytest.mark.parametrize("example", examples(), ids=lambda line: line[:30])
def test_an_example_has_a_real_lines_fields_in_order(example: str) -> None:
    assert fault(example) is None, (fault(example), example)


def test_a_line_that_stops_at_legal_is_found() -> None:
    assert fault("ask seq=8 table=3 … legal=Kc,8c") is not None
    assert fault("ask seq=8 table=3 … legal=Kc,8c players=2") is None
    assert fault("ask seq=8 table=3 … legal=Kc,8c …") is None
    assert fault("ask seq=8 table=3 … players=2 legal=Kc,8c") is not None
    whole = " ".join(f"{key}=1" for key in real_keys(3))
    assert fault(f"ask {whole}".replace("players=1", "players=3")) is None
    assert fault(f"ask {whole}".replace(" players=1", "")) is not None


def test_the_example_of_section_6_3_is_what_a_real_match_sends() -> None:
    """§6.3 (and §15's transcript): b2 ordered in diamonds and led 7c; b1, the dealer,
    holds the trump 7 to swap."""
    documented = next(line for line in examples() if line.startswith(SECTION_6_3))
    deck = build_deck(
        other="7s 9s Js 7h 9h Kh 7c 9c Jc",  # seat 1: leads 7c
        dealer="8h Jh Qh 7d 9d Qd Jd Kc 8c",  # seat 0 (legal= names cards in hand order)
        turned="Ad",
        fresa="10c",
    )
    rules = build_ruleset(2, "moscow", ("to-301",))
    match = new_match(rules, deck, dealer=0, seed="doc", names=("b1", "b2"))
    say(match, 1, "igrayu", "7c")
    assert ask_line("ask", 7, 3, match, 0, 10_500) == documented
    told = ev.Ask(7, 3, view(match, 0), 10_500, kind=ev.AskKind.ASK)
    assert render(told, MACHINE) == [documented]
