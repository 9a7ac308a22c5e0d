"""A bide's combinations: whose points they became (docs/rules.md §5: "the whistler
writes both sides' points"). A Kharkov table read 'Scored for combinations: anna terts
20.' under anna's bide as hers."""

from __future__ import annotations

from typing import Any

from deberc_net.game import calls as C
from deberc_net.game import events as g
from deberc_net.game.match import Match
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_ruleset
from tests.game.decks import build_deck, say

TWO = ("anna", "boris")


def _bide_record() -> dict[str, Any]:
    """anna orders, declares a terts (20) and takes nothing: a bide, 20 : 123."""
    deck = build_deck("7h 8h 9h 7s 8s 7d 9d Jd Qc", "Jc 9c Ac 10c Ah 10h As 10s Ad", "8c")
    match = Match(build_ruleset(2), seed="t", dealer=1, decks={1: deck}, names=TWO)
    say(match, 0, "igrayu", "terts")
    while not match.records:
        seat = match.to_act
        assert seat is not None
        match.apply(seat, next(c for c in match.legal_calls(seat) if c.name == C.PLAY))
    return match.records[0]


def _end(names: tuple[str, ...], record: dict[str, Any]) -> ev.TableEvent:
    points, written = tuple(record["points"]), tuple(record["written"])
    end = g.DealEnded(1, record["outcome"], points, written, written, record["hanging"], record)
    return ev.TableEvent(7, 1, names, end)


def test_a_bidders_combination_says_the_whistler_wrote_it() -> None:
    record = _bide_record()
    assert (record["outcome"], record["points"], record["written"]) == ("bide", [20, 123], [0, 143])
    told = _end(TWO, record)
    assert render(told, HUMAN)[-1] == (
        "Scored for combinations: anna terts 20 (a bide: written by boris)."
    )
    assert render_ru(told)[-1] == "За комбинации: anna терц 20 (байд: записаны вистующему boris)."


def test_pairs_three_players_and_a_hanging_bide_say_whose_points_they_are() -> None:
    four = ("anna", "boris", "vera", "gleb")
    pairs = {**_bide_record(), "players": list(four), "player": 2}
    pairs["declared"] = [{**pairs["declared"][0], "seat": 2}, {"seat": 1, "scored": []}]
    assert render(_end(four, pairs), HUMAN)[-1] == (
        "Scored for combinations: vera terts 20 (a bide: written by boris+gleb)."
    )
    assert render_ru(_end(four, pairs))[-1] == (
        "За комбинации: vera терц 20 (байд: записаны паре boris+gleb)."
    )
    # three players: the whistlers share it (§8); bide-to-leader: the one with more
    three = ("anna", "boris", "vera")
    split = {**_bide_record(), "players": list(three), "points": [20, 70, 53]}
    split["written"] = [0, 80, 63]
    said = " ".join(x.strip() for x in render(_end(three, split), HUMAN))
    assert said.endswith(
        ". Scored for combinations: anna terts 20 (a bide: shared by the whistlers, boris and "
        "vera)."
    )
    assert render_ru(_end(three, split))[-1] == (
        "За комбинации: anna терц 20 (байд: их делят вистующие boris и vera)."
    )
    leader = {**split, "options": ["bide-to-leader"], "written": [0, 90, 53]}
    assert render(_end(three, leader), HUMAN)[-1].endswith("(a bide: written by boris).")
    hanging = {**_bide_record(), "outcome": "hanging", "points": [71, 71], "written": [0, 71]}
    hanging["hanging"] = 71
    assert render(_end(TWO, hanging), HUMAN)[-1] == (
        "Scored for combinations: anna terts 20 (a hanging bide: they hang)."
    )
    assert render_ru(_end(TWO, hanging))[-1] == (
        "За комбинации: anna терц 20 (висячий байд: они висят)."
    )
    # the whistler's own, a made deal's and a short game's (stakes, §11) are as they were
    made = {**_bide_record(), "outcome": "made"}
    assert render(_end(TWO, made), HUMAN)[-1] == "Scored for combinations: anna terts 20."
    stakes = {**_bide_record(), "notes": ["stake 1"], "written": [-2, 2]}
    assert render(_end(TWO, stakes), HUMAN)[-1] == "Scored for combinations: anna terts 20."
