"""Deals the scripted tests share; the helpers are deberc_net.testing's, as a plugin
author uses them (this module re-exports them for the tests' imports).

Dealing with dealer ``d`` and the other seat ``o`` (docs/rules.md 2): deck[0:3] -> o,
[3:6] -> d, [6:9] -> o, [9:12] -> d, deck[12] is the turned card; after the order
[13:16] -> o, [16:19] -> d; the rest is the talon and deck[31] the fresa.
"""

from __future__ import annotations

from deberc_net.testing import (
    build_deck,
    build_deck_n,
    build_ruleset,
    cards,
    legal,
    parse,
    play,
    refused,
    say,
    snapshot,
    tokens,
)

__all__ = [
    "EVEN", "EVEN_PLAY", "SIMPLE", "SIMPLE_PLAY", "build_deck", "build_deck_n",
    "build_ruleset", "cards", "legal", "parse", "play", "refused", "say", "snapshot",
    "tokens",
]

# Deals several test modules share (dealer = seat 1, seat 0 leads; trump clubs).
# SIMPLE: no combinations. Seat 0 ordering and playing SIMPLE_PLAY makes 92 to 35.
SIMPLE = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")
SIMPLE_PLAY = "Jc Kc 9c 10c Ac Qd As Js 10s Qs Ks 9s 7h Ah 10h 8h Kh 7d"
# EVEN: no combinations, no trump in play; EVEN_PLAY makes exactly 35 to 35.
EVEN = ("As 10s Ks Js 8s 7h 9h 7d 9d", "Ah 10h Kh Jh 7s 9s Qs 8d Qd", "8c")
EVEN_PLAY = "As 7s 10s 9s Ks Qs Js Qd 8s Jh 7h Ah 10h 9h Kh 9d 8d 7d"
