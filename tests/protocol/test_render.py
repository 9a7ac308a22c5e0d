"""Human-style lines name sides properly: pairs by both partners."""

from __future__ import annotations

from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, MACHINE, render

FOUR = ("anna", "boris", "vera", "gleb")


def test_four_player_totals_name_both_partners() -> None:
    end = ev.TableEvent(9, 1, "deal-end", FOUR, {
        "deal": 1, "outcome": "made", "points": [100, 62], "written": [100, 62],
        "totals": [100, 62], "hanging": 0})
    [line] = render(end, HUMAN)
    assert "Totals: anna+vera 100, boris+gleb 62." in line


def test_match_end_for_a_pair_and_for_a_draw() -> None:
    won = ev.TableEvent(10, 1, "match-end", FOUR, {
        "winner": 0, "name": "anna,vera", "reason": "target", "totals": [510, 300]})
    assert render(won, HUMAN) == [
        "Game over: anna and vera win (target). Totals: anna+vera 510, boris+gleb 300."]
    drawn = ev.TableEvent(3, 2, "match-end", ("x1", "x2"), {
        "winner": None, "name": None, "reason": "deals", "totals": [0, 0]})
    assert render(drawn, HUMAN) == ["Game over: a draw (deals). Totals: x1 0, x2 0."]
    assert render(drawn, MACHINE) == [
        "event seq=3 table=2 kind=match-end winner=- name=- reason=deals totals=0,0"]
