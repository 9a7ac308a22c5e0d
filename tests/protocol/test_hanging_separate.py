"""`hanging-separate` (docs/rules.md §10, variant B): after two hanging bides in a row the
next deal plays for the first sum and the one after for the second. Both sums are told:
the machine lines' `hanging=` is the next deal's and `hanging_after=` the later ones'
(docs/protocol.md §9.6), the human style says both, in English and Russian, and so do
the `ask`/`state` lines. Scripted deals (tests/game/decks.py), sans-IO; over TCP in
test_hanging_separate_tcp.py."""

from __future__ import annotations

from clients.play.replies import sheet_text
from deberc_net.game import events as g
from deberc_net.game.match import Match
from deberc_net.game.sheet import ScoreSheet, record_rows
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.protocol.wire import parse_line
from deberc_net.server.ask_line import ask_line
from deberc_net.testing import build_ruleset, parse
from tests.game.decks import EVEN, EVEN_PLAY, SIMPLE, SIMPLE_PLAY, build_deck

TWO = ("anna", "boris")


def told(match: Match, seat: int | None, text: str) -> list[g.MatchEvent]:
    """Each call of ``text`` by ``seat`` (None: each card by the seat to act): the events."""
    events: list[g.MatchEvent] = []
    for token in text.split():
        who = match.deal.to_act if seat is None else seat
        assert who is not None
        events += match.apply(who, parse(token))
    return events


def four_deals(*, hanging: int = 0) -> tuple[Match, list[g.MatchEvent], list[str]]:
    """Deals 1 and 2 hang 35 each (dealer 1, then 0: each time the one who orders makes
    35 to 35); deal 3 (dealer 1) and deal 4 (dealer 0) are made by the one who orders.
    ``hanging``: points hanging into deal 1 (its hanging bide is then the second in a
    row, and deal 2's the third). Also seat 0's ask and observer's state at deal 3's
    first call, machine style, as ask_line and render write them, and the whole table
    shown to a person then, in English and Russian."""
    decks = {n: build_deck(*(EVEN if n < 3 else SIMPLE)) for n in (1, 2, 3, 4)}
    ruleset = build_ruleset(2, options=("hanging-separate",))
    match = Match(ruleset, seed="hangsep", dealer=1, decks=decks, names=TWO)
    if hanging:
        match.set_standing([0, 0], hanging=hanging)
    events: list[g.MatchEvent] = [match.deal_started()]
    events += told(match, 0, "pas") + told(match, 1, "igrayu") + told(match, None, EVEN_PLAY)
    events += told(match, 1, "pas") + told(match, 0, "igrayu") + told(match, None, EVEN_PLAY)
    asks = [
        ask_line("ask", 9, 3, match, 0, None),
        *render(ev.Ask(9, 3, view(match, 0), None), MACHINE),
        *render(ev.Ask(9, 3, view(match, None), None, kind=ev.AskKind.STATE), MACHINE),
        joined(render(ev.Ask(9, 3, view(match, 0), None, whole=True), HUMAN)),
        joined(render_ru(ev.Ask(9, 3, view(match, 0), None, whole=True))),
    ]
    events += told(match, 0, "igrayu") + told(match, None, SIMPLE_PLAY)
    events += told(match, 1, "igrayu") + told(match, None, SIMPLE_PLAY)
    return match, events, asks


def machine(event: g.MatchEvent) -> str:
    (line,) = render(ev.TableEvent(5, 3, TWO, event), MACHINE)
    return line


def joined(lines: list[str]) -> str:
    """A person's lines as one text (a long line is wrapped, its rest indented)."""
    return " ".join(line.strip() for line in lines)


def human(event: g.MatchEvent) -> str:
    return joined(render(ev.TableEvent(5, 3, TWO, event), HUMAN))


def russian(event: g.MatchEvent) -> str:
    return joined(render_ru(ev.TableEvent(5, 3, TWO, event)))


def hanging_fields(line: str) -> tuple[str | None, str | None]:
    said = parse_line(line).fields
    return said.get("hanging"), said.get("hanging_after")


def starts_and_ends(events: list[g.MatchEvent]) -> list[g.DealStarted | g.DealEnded]:
    """Deals 1 to 4's starts and ends (deal 5's start after them)."""
    return [e for e in events if isinstance(e, g.DealStarted | g.DealEnded)][:8]


def test_the_machine_lines_tell_the_sum_waiting_after_the_next_deal() -> None:
    match, events, _ = four_deals()
    assert [r["written"] for r in match.records] == [[35, 0], [0, 35], [127, 35], [35, 127]]
    lines = [machine(e) for e in starts_and_ends(events)]
    assert [parse_line(line).fields["kind"] for line in lines] == ["deal", "deal-end"] * 4
    assert [hanging_fields(line) for line in lines] == [
        ("0", None),  # deal 1
        ("35", None),  # hanging bide: 35 hang
        ("35", None),  # deal 2 plays for them
        ("35", "35"),  # a second hanging bide: deal 3 plays for the first 35, then 35
        ("35", "35"),  # deal 3
        ("35", None),  # made: the second 35 for deal 4
        ("35", None),
        ("0", None),
    ]
    assert lines[3].endswith(" hanging=35 hanging_after=35")  # appended last (§1)
    assert lines[4].endswith(" hanging=35 hanging_after=35")


def test_each_sum_in_its_place_when_they_differ() -> None:
    """20 hang into deal 1, whose own 35 hang too: deal 2 plays for 20, then 35; deal
    2's hanging bide adds its 35 after them."""
    _, events, _ = four_deals(hanging=20)
    lines = [machine(e) for e in starts_and_ends(events)]
    assert [hanging_fields(line) for line in lines[:6]] == [
        ("20", None),
        ("20", "35"),
        ("20", "35"),
        ("20", "35,35"),
        ("20", "35,35"),
        ("35", "35"),  # deal 3 took the 20
    ]


def test_the_ask_and_state_lines_and_the_whole_table_tell_it_too() -> None:
    _, _, asks = four_deals()
    fast, ask, state, english, ru = asks
    assert fast == ask
    for line in (ask, state):
        assert hanging_fields(line) == ("35", "35")
        assert line.endswith(" players=2 hanging_after=35")
    assert "Score: anna 35, boris 35. Hanging: 35 for this deal, 35 for the next." in english
    assert "Счёт: anna 35, boris 35. Висит: 35 на эту раздачу, 35 на следующую." in ru


def test_the_human_style_says_both_sums() -> None:
    _, events, _ = four_deals()
    said = starts_and_ends(events)
    assert human(said[3]) == (
        "Deal 2: hanging bide for anna, 35 points hang for the next deal, 35 for the one"
        " after. Points: anna 35, boris 35. Written: anna 0, boris 35. Totals: anna 35,"
        " boris 35."
    )
    assert human(said[4]).endswith(
        "Score: anna 35, boris 35. Hanging: 35 for this deal, 35 for the next."
    )
    assert human(said[6]).endswith("Score: anna 162, boris 70. Hanging: 35.")
    assert russian(said[3]) == (
        "Раздача 2: висячий байд у игрока anna, висит 35 на следующую раздачу, 35 на"
        " раздачу после неё. Очки: anna 35, boris 35. Записано: anna 0, boris 35. Итого:"
        " anna 35, boris 35."
    )
    assert russian(said[4]).endswith(
        "Счёт: anna 35, boris 35. Висит: 35 на эту раздачу, 35 на следующую."
    )
    assert russian(said[6]).endswith("Висит: 35.")


def test_three_sums_in_a_row_are_said_in_order() -> None:
    _, events, _ = four_deals(hanging=20)
    said = starts_and_ends(events)
    assert "20 points hang for the next deal, 35 for the one after, then 35." in human(said[3])
    assert human(said[4]).endswith("Hanging: 20 for this deal, 35 for the next, then 35.")
    assert "висит 20 на следующую раздачу, 35 на раздачу после неё, затем 35." in russian(said[3])
    assert russian(said[4]).endswith("Висит: 20 на эту раздачу, 35 на следующую, затем 35.")


def sheets(match: Match, events: list[g.MatchEvent]) -> list[ev.Sheet]:
    """The live table's sheet (folded from its events) and a stored match's (from its
    records, as `sheet` after the match tells it), deals 1 to 4."""
    live = ScoreSheet()
    for event in events:
        live.feed(event)
    stored = record_rows(match.records)
    return [ev.Sheet(3, TWO, ((0,), (1,)), 501, rows[:4]) for rows in (tuple(live.rows), stored)]


def test_the_score_sheet_tells_both_sums() -> None:
    match, events, _ = four_deals()
    for sheet in sheets(match, events):
        lines = render(sheet, MACHINE)
        assert [hanging_fields(line) for line in lines[1:]] == [
            ("35", None),
            ("35", "35"),
            ("35", None),
            ("0", None),
        ]
        assert lines[2].endswith(" hanging=35 bides=0,0 hanging_after=35")
        english, ru = render(sheet, HUMAN), render_ru(sheet)
        assert english[3].endswith("  hanging 35, then 35")
        assert english[4].endswith("  hanging 35")
        assert ru[3].endswith("  висит 35, затем 35")
        # the terminal client writes the sheet from the machine lines as the server would
        assert sheet_text([parse_line(line) for line in lines], TWO) == english
