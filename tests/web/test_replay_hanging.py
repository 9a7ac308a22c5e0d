"""A replay tells each deal's hanging points as the deal's end told the players: what a
hanging bide left hanging ('35 points hang.'; under `hanging-separate`, which deal plays
for which sum) and who wrote the points that hung into a deal (`history`'s 'The 35
points that hung go to bob.'). Black-box evening s40: a club of three told 'hanging bide
for vera, 82 points hang' and 'The 82 points that hung are shared by the whistlers'
read, at /games/ID, only 'Outcome: hanging.' and a bide's written points that did not
add up."""

from __future__ import annotations

from deberc_net.game.match import Match
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import hung_said
from deberc_net.server.web.replay import replay_match
from deberc_net.testing import build_deck, build_ruleset, parse, rule_book
from tests.game.decks import EVEN, EVEN_PLAY, SIMPLE, SIMPLE_PLAY

DECKS = {n: build_deck(*(EVEN if n < 3 else SIMPLE)) for n in (1, 2, 3, 4)}
# deals 1 and 2 hang 35 each (dealer 1, then 0); deals 3 and 4 are made by who orders
# (a seat's call, or the cards, each by the seat to act: -1)
SCRIPT: list[tuple[int, str]] = [(0, "pas"), (1, "igrayu"), (-1, EVEN_PLAY)]
SCRIPT += [(1, "pas"), (0, "igrayu"), (-1, EVEN_PLAY)]
SCRIPT += [(0, "igrayu"), (-1, SIMPLE_PLAY), (1, "igrayu"), (-1, SIMPLE_PLAY)]


def _played(options: tuple[str, ...]) -> Match:
    match = Match(build_ruleset(2, options=options), seed="t", dealer=1, decks=DECKS)
    for seat, tokens in SCRIPT:
        for token in tokens.split():
            who = match.deal.to_act if seat < 0 else seat
            assert who is not None
            match.apply(who, parse(token))
    return match


def test_a_replay_says_both_sums_of_hanging_separate_and_who_took_them() -> None:
    match = _played(("hanging-separate",))
    records = list(match.records)
    assert [r["outcome"] for r in records] == ["hanging", "hanging", "made", "made"]
    deals = replay_match(records, rule_book()).deals
    names = [str(n) for n in records[0]["players"]]
    took = [" ".join(hung_said(ev.hung_in(r, 2), names, 2, Lang.EN)) for r in records[2:]]
    assert all(took), took  # each made deal wrote a sum that hung
    assert [d.hung for d in deals] == [
        "35 points hang.",
        "35 points hang for the next deal, 35 for the one after.",
        *took,
    ]
    took_ru = [" ".join(hung_said(ev.hung_in(r, 2), names, 2, Lang.RU)) for r in records[2:]]
    assert [d.hung_ru for d in deals] == [
        "Висит 35.",
        "Висит 35 на следующую раздачу, 35 на раздачу после неё.",
        *took_ru,
    ]


def test_without_hanging_separate_the_next_deal_plays_for_both_sums() -> None:
    records = list(_played(()).records)
    deals = replay_match(records, rule_book()).deals
    assert [d.hung for d in deals[:2]] == ["35 points hang.", "70 points hang."]
    assert deals[2].hung.startswith("The 70 points that hung go to "), deals[2].hung
    assert deals[3].hung == ""  # nothing hung into it
