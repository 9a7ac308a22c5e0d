"""'history' tells what a finished deal's declarations counted in the machine style too
(docs/protocol.md §5.17, ``scored=``, ``scored_to=``, ``scored_hangs=``, ``hung=``): the
terminal client, which reads the machine style, logged a Tertz history without the
'Scored for combinations' lines the human style writes (a black-box evening, s39)."""

from __future__ import annotations

from typing import Any

import attrs

from clients.play.replies import history_text
from clients.play.words import game_words
from deberc_net.game.match import Match
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import HUMAN, MACHINE, history_lines, render
from deberc_net.protocol.wire import parse_line
from deberc_net.server.table_views import history_deals
from deberc_net.testing import build_deck, build_ruleset, parse
from tests.game.decks import EVEN, EVEN_PLAY, SIMPLE, SIMPLE_PLAY

TWO = ("ann", "bob")
THREE = ("ann", "bob", "cat")


def _read_back(history: ev.History, lang: Lang = Lang.EN) -> list[str]:
    machine = [parse_line(x) for x in render(history, MACHINE)]
    return history_text(machine, history.names, lang=lang, words=history.words)


def test_a_tertz_deals_combinations_travel_and_read_back_in_its_words() -> None:
    scored = (
        ev.Scored(0, "run of 3 to 9d", 20),
        ev.Scored(1, "bella", 20),
        ev.Scored(1, "four Q", 100),
    )
    deal = ev.HistoryDeal(1, 0, 1, 1, "made", (120, 40), (), True, 6, scored)
    history = ev.History(5, "m9", TWO, ((0,), (1,)), (deal,), words=game_words("tertz", 2))
    assert render(history, MACHINE)[1] == (
        "history-deal table=5 deal=1 dealer=0 trump=h player=1 outcome=made"
        " written=120,40 tricks=0 broken=6 scored=0:20:run_of_3_to_9d,1:20:bella,1:100:four_Q"
    )
    human = render(history, HUMAN)
    assert (
        human[2] == "    Scored for combinations: ann terts 20; bob mariage 20, hundred queens 100."
    )
    assert _read_back(history) == human
    russian = history_lines(history, Lang.RU)
    assert any("марьяж 20" in x for x in russian)
    assert _read_back(history, Lang.RU) == russian


def test_a_bides_combinations_say_who_wrote_them() -> None:
    scored = (ev.Scored(1, "terts to 10h", 20, ((0,), (2,))), ev.Scored(2, "bella", 20))
    deal = ev.HistoryDeal(2, 0, 1, 1, "bide", (0, 182, 0), (), scored=scored, hung=(54, (0, 2)))
    history = ev.History(5, "m9", THREE, ((0,), (1,), (2,)), (deal,))
    machine = render(history, MACHINE)[1]
    assert machine.endswith(" scored=1:20:terts_to_10h,2:20:bella scored_to=0,2 hung=54,0,2")
    human = render(history, HUMAN)
    assert "(a bide: shared by the whistlers, ann" in human[2]
    assert human[-1] == "    The 54 points that hung are shared by the whistlers, ann and cat."
    # (the client's log wraps its own lines: the human style's cut at 80 columns aside)
    assert _read_back(history) == history_lines(history)


def test_a_hanging_bides_combinations_hang() -> None:
    scored = (ev.Scored(0, "terts to Qs", 20, hangs=True),)
    deal = ev.HistoryDeal(1, 1, 0, 0, "hanging", (0, 81), (), scored=scored)
    history = ev.History(5, "m9", TWO, ((0,), (1,)), (deal,))
    assert render(history, MACHINE)[1].endswith(" scored=0:20:terts_to_Qs scored_hangs=1")
    assert _read_back(history) == render(history, HUMAN)


def test_a_deal_with_nothing_counted_has_no_new_field() -> None:
    deal = ev.HistoryDeal(1, 0, 3, 1, "made", (62, 100), ())
    history = ev.History(3, "m12", TWO, ((0,), (1,)), (deal,))
    assert render(history, MACHINE)[1] == (
        "history-deal table=3 deal=1 dealer=0 trump=c player=1 outcome=made written=62,100 tricks=0"
    )


def _record(
    deal: int, outcome: str, written: list[int], hanging: int, before: list[int]
) -> dict[str, Any]:
    return {
        "deal_no": deal,
        "dealer": deal % 3,
        "trump": "h",
        "player": 0,
        "outcome": outcome,
        "written": written,
        "tricks": [],
        "hanging": hanging,
        "hanging_pending_before": before,
    }


def test_a_hanging_deal_says_how_much_hangs() -> None:
    """A tryout (s40): history's line for a hanging deal said 'hanging, anya4 70, boris4
    12, vera4 0' while the deal's end and 'sheet' said '82 points hang'. Under
    hanging-separate the sums for the deals after it are the next record's
    ``hanging_pending_before`` (the last deal's: the deal being played's)."""
    records = [
        _record(1, "hanging", [70, 12, 0], 82, []),
        _record(2, "hanging", [0, 0, 90], 82, []),
        _record(3, "made", [40, 0, 0], 0, [90]),
    ]
    deals = history_deals(records[:1], after=())
    history = ev.History(5, "m9", THREE, ((0,), (1,), (2,)), tuple(deals))
    human = render(history, HUMAN)
    assert human[1].endswith(": hanging, ann 70, bob 12, cat 0; 82 points hang"), human
    assert history_lines(history, Lang.RU)[1].endswith("ann 70, bob 12, cat 0; висит 82")
    assert render(history, MACHINE)[1].endswith(" hanging=82")
    assert _read_back(history) == human
    # hanging-separate: deal 2 hung too, its 90 waiting for the deal after the next
    separate = attrs.evolve(history, deals=tuple(history_deals(records)))
    human = render(separate, HUMAN)
    told = " ".join(x.strip() for x in human)
    assert "cat 90; 82 points hang for the next deal, 90 for the one after" in told, human
    assert human[-1].endswith("ann 40, bob 0, cat 0"), human  # nothing hangs after it
    russian = " ".join(x.strip() for x in history_lines(separate, Lang.RU))
    assert "cat 90; висит 82 на следующую раздачу, 90 на раздачу после неё" in russian
    assert " hanging=82 hanging_after=90" in render(separate, MACHINE)[2]
    assert _read_back(separate) == human
    # the last finished deal's later sums: those of the deal being played
    playing = history_deals(records[:2], after=(90,))
    assert playing[-1].hanging_after == (90,)
    assert history_deals([], after=(90,)) == []  # a match before its first deal's end


def test_a_played_hanging_separate_match_says_its_sums_as_its_deal_ends_did() -> None:
    """Two hanging bides in a row (tests/game/decks.py's EVEN deal, twice) under
    hanging-separate: the second's line says both sums, from the next record, or while
    the next deal is played, from it (the table's 'history', server/table_views.py)."""
    decks = {n: build_deck(*(EVEN if n < 3 else SIMPLE)) for n in (1, 2, 3)}
    rules = build_ruleset(2, options=("hanging-separate",))
    match = Match(rules, seed="t", dealer=1, decks=decks, names=TWO)
    hang_twice = [(0, "pas"), (1, "igrayu"), (-1, EVEN_PLAY)]
    hang_twice += [(1, "pas"), (0, "igrayu"), (-1, EVEN_PLAY)]
    for seat, tokens in hang_twice:
        for token in tokens.split():
            who = match.deal.to_act if seat < 0 else seat
            assert who is not None
            match.apply(who, parse(token))
    assert [r["outcome"] for r in match.records] == ["hanging", "hanging"]
    playing = history_deals(match.records, after=match.deal.hanging_pending)
    history = ev.History(5, "m9", TWO, ((0,), (1,)), tuple(playing))
    told = " ".join(x.strip() for x in render(history, HUMAN))  # (wrapped at 80)
    assert "hanging, ann 35, bob 0; 35 points hang 1 ann A♠" in told, told
    assert "bob 35; 35 points hang for the next deal, 35 for the one after" in told, told
    match.apply(0, parse("igrayu"))
    for token in SIMPLE_PLAY.split():  # deal 3, made: the second sum hangs for deal 4
        who = match.deal.to_act
        assert who is not None
        match.apply(who, parse(token))
    assert history_deals(match.records)[1].hanging_after == playing[1].hanging_after
