"""protocol/event_lines.py's templates write exactly the line the generic renderer writes
field by field (``render.event_line``, the definition): on every kind, on the values
that take another form (none, an empty list, a flag, a space in a text), and on every
event of self-played matches over rule sets that tell every engine kind."""

from __future__ import annotations

import random

import pytest

from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.calls import Call
from deberc_net.game.match import Match
from deberc_net.plugins import RuleBook
from deberc_net.protocol import events as ev
from deberc_net.protocol.event_lines import EVENT_LINES
from deberc_net.protocol.render import MACHINE, event_line, render
from tests.protocol.golden_lines import GOLDEN

TWO = ("anna", "boris")

# values the golden lines do not show: each takes a form of its own in the line
EDGES: list[object] = [
    g.CallMade(0, Call(C.PAS), auto=True),
    g.Penalized(0, Call(C.PAS), "must follow suit", auto=True),
    g.Shown(1, ()),
    g.TrickTaken(0, ()),
    g.MatchStarted(("anna", "bo ris"), "m 1"),
    g.DealStarted(1, 0, 31, (), 0, (1, 2), (3, 4), 2),
    g.DealEnded(3, "void made", None, None, (0, 0), 5, {}),
    g.DealEnded(4, "made", (), (), (), 0, {}),
    g.DealEnded(5, "hanging", (35, 35), (0, 35), (0, 35), 20, {}, pending=(35, 35)),
    g.MatchEnded(None, (), "deals", (0, 0), None),
    g.MatchEnded(1, ("anna", "vera"), "a reason", (1, 2, 3), "s 1", forfeit=3),
    g.MatchEnded(0, ("anna",), "target", (510, 300), "s1", forfeit=0),
    ev.Seated("an na", 3),
    ev.Watching("eve", False, 12),
]


def _same(event: object, seq: int = 7, table: int = 4) -> None:
    told = ev.TableEvent(seq, table, TWO, event)  # type: ignore[arg-type]
    assert render(told, MACHINE) == [event_line(told)]


def test_every_kind_has_a_template() -> None:
    kinds = {*g.MatchEvent.__args__, *ev.SeatEvent.__args__, ev.Watching} - {g.DealAbandoned}
    assert set(EVENT_LINES) == kinds


@pytest.mark.parametrize("event", [e for e, _, _ in GOLDEN] + EDGES, ids=repr)
def test_the_template_is_the_generic_line(event: object) -> None:
    _same(event)
    _same(event, seq=123456, table=0)


RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "moscow", ("table-penalties",)),
    (3, "kharkov", ("fresa-hidden",)),
    (4, "moscow", ("pair-combinations", "show-combination")),
    (2, "tertz", ()),
)


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=lambda r: f"{r[0]}/{r[1]}/{','.join(r[2])}")
def test_every_event_of_self_played_matches_is_the_generic_line(
    rule_set: tuple[int, str, tuple[str, ...]],
) -> None:
    rules = RuleBook.load().ruleset(*rule_set)
    rng = random.Random(str(rule_set))
    kinds: set[type] = set()
    for game in range(3):
        match = Match(rules, seed=f"event-lines/{game}", match_id=f"m{game}", table="7")
        seq = 0
        while match.result is None:
            seat = match.deal.to_act
            assert seat is not None
            calls = match.legal_calls(seat)
            for event in match.apply(seat, rng.choice(calls), auto=rng.random() < 0.1):
                if type(event) is not g.DealAbandoned:
                    seq += 1
                    _same(event, seq)
                    kinds.add(type(event))
    assert {g.CallMade, g.CardPlayed, g.TrickTaken, g.DealStarted, g.DealEnded} <= kinds
    assert g.MatchEnded in kinds
