"""The golden lines: an event of every kind the table tells, with the line it renders in
the machine style and what the human style says of it (at a two-player table), for the
tests of rendering (tests/protocol/test_render.py, test_event_lines.py)."""

from __future__ import annotations

from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.calls import Call, parse_token
from deberc_net.game.cards import parse_card
from deberc_net.protocol import events as ev

TWO = ("anna", "boris")


def card(text: str) -> int:
    return parse_card(text)


def hand(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


GOLDEN: list[tuple[object, str, str]] = [
    (g.CallMade(0, Call(C.PAS)), "kind=call seat=0 call=pas auto=0", "anna: pas"),
    (
        g.CallMade(1, parse_token("ot-K-kozyrnogo"), auto=True),
        "kind=call seat=1 call=ot-K-kozyrnogo auto=1",
        "boris: ot korolya kozyrnogo (by the clock)",  # spoken, not the token (tryout #12)
    ),
    (
        g.CallMade(1, Call(C.MENYAYU)),
        "kind=call seat=1 call=menyayu auto=0",
        # a person's screen shows no state: what lies face up now (a Tertz tryout)
        "boris: menyayu — takes the turned card; the trump 7 now lies face up.",
    ),
    (g.CardPlayed(1, card("10h")), "kind=play seat=1 card=10h auto=0", "boris plays 10♥"),
    (
        g.CardPlayed(0, card("7s"), auto=True),
        "kind=play seat=0 card=7s auto=1",
        "anna plays 7♠ (by the clock)",
    ),
    (
        g.Penalized(1, parse_token("9c"), "must-follow-suit"),
        "kind=penalty seat=1 call=9c code=must-follow-suit",
        "boris is penalized for 9♣ (must follow suit).",
    ),
    (
        g.Ordered(0, 3, True, card("Kd")),
        "kind=order player=0 trump=c first=1 fresa=Kd",
        "anna plays in ♣ (the turned suit); boris whistles. Fresa: K♦.",
    ),
    (
        g.Ordered(1, 1, False, None),
        "kind=order player=1 trump=h first=0 fresa=-",
        "boris plays in ♥; anna whistles.",
    ),
    (g.Dealt(card("Ac")), "kind=dealt fresa=Ac", "The last cards are dealt. Fresa: A♣."),
    (g.Dealt(None), "kind=dealt fresa=-", "The last cards are dealt."),
    (
        g.TrickTaken(1, hand("7h Ah")),
        "kind=trick winner=1 cards=7h,Ah",
        "boris takes the trick (7♥ A♥).",
    ),
    (g.Shown(0, hand("10s Js Qs")), "kind=shown seat=0 cards=10s,Js,Qs", "anna shows: 10♠ J♠ Q♠"),
    (
        g.MatchStarted(TWO, "m1"),
        "kind=start players=anna,boris match=m1",
        "The game starts: anna v boris.",
    ),
    (
        g.DealStarted(2, 1, card("8c"), (92, 35), 0),
        "kind=deal deal=2 dealer=1 turned=8c score=92,35 hanging=0",
        "Deal 2. boris deals and turns 8♣. Score: anna 92, boris 35.",
    ),
    (
        g.DealStarted(3, 0, card("Js"), (92, 35), 81),
        "kind=deal deal=3 dealer=0 turned=Js score=92,35 hanging=81",
        "Deal 3. anna deals and turns J♠. Score: anna 92, boris 35. Hanging: 81.",
    ),
    (
        g.DealEnded(1, "made", (92, 35), (92, 35), (92, 35), 0, {}),
        "kind=deal-end deal=1 outcome=made points=92,35 written=92,35 totals=92,35 hanging=0",
        "Deal 1: made. Points: anna 92, boris 35 (written as played). Totals: anna 92, boris 35.",
    ),
    (
        g.DealEnded(2, "void", (0, 0), (0, 0), (92, 35), 0, {"void_reason": "all passed"}),
        "kind=deal-end deal=2 outcome=void points=0,0 written=0,0 totals=92,35 hanging=0",
        "Deal 2: void (all passed): dealt again, nothing is written. Totals: anna 92, boris 35.",
    ),
    (
        g.MatchEnded(1, ("boris",), "timeouts", (0, 0), "abc", forfeit=0),
        "kind=match-end winner=1 name=boris reason=timeouts totals=0,0 seed=abc forfeit=0",
        "Game over: boris wins (anna let the clock run out too many times in a row: forfeit)."
        " Totals: anna 0, boris 0.",
    ),
    (ev.Seated("anna", 0), "kind=seated name=anna seat=0", "anna sits at seat 0."),
    (ev.Left("boris", 1), "kind=left name=boris seat=1", "boris leaves seat 1."),
    (
        ev.Left("boris", 1, away_too_long=True),  # freed at the away limit (§12)
        "kind=left name=boris seat=1",  # (the machine line is as it was)
        "boris was away too long: seat 1 is free for another player.",
    ),
    (
        ev.WentAway("boris", 1),
        "kind=away name=boris seat=1",
        "boris is disconnected; the seat waits and the clock runs.",
    ),
    (
        ev.WentAway("boris", 1, 120),  # the seat is held the table's away limit
        "kind=away name=boris seat=1",  # (a program knows it: the machine line is as it was)
        "boris is disconnected; the seat is held 2 min and the clock runs.",
    ),
    (
        ev.WentAway("boris", 1, 120, clock_runs=False),  # a waiting table: no match, no clock
        "kind=away name=boris seat=1",
        "boris is disconnected; the seat is held 2 min.",
    ),
    (ev.CameBack("boris", 1), "kind=back name=boris seat=1", "boris is back."),
    (
        ev.Watching("eve", True, 1),
        "kind=observer name=eve watching=1 observers=1",
        "eve watches the table (1 watching).",
    ),
    (
        ev.Watching("eve", False, 0),
        "kind=observer name=eve watching=0 observers=0",
        "eve stops watching (nobody watching).",
    ),
]
