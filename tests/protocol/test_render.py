"""Human-style lines name sides properly: pairs by both partners."""

from __future__ import annotations

from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.testing import build_ruleset
from tests.game.decks import say
from tests.game.test_options import match2

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


def test_the_swap_question_reads_as_the_tables_question() -> None:
    # swap-before-extra: nobody asked, the table asks each seat in turn (the player is
    # the recorded asker and may be the answerer himself)
    spec = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s 7c Ah 10h Kh", "8c")
    match = match2(spec, build_ruleset(2, options=["swap-before-extra"]))
    match.names = ("anna", "boris")
    say(match, 0, "igrayu")
    lines = render(ev.Ask(1, 1, view(match, 0), 60500), HUMAN)
    assert (
        "Before the last cards each seat in turn may swap the trump 7 for the turned "
        "card: anna to answer (menyayu or ne-menyayu)." in lines
    )
    assert not any("asked" in line for line in lines)
    assert lines[-1] == "Your call [60 s]: ne-menyayu"
    [machine] = render(ev.Ask(1, 1, view(match, 0), 60500), MACHINE)
    assert "pending=swap?:0:0" in machine and "legal=ne-menyayu " in machine
