"""'history' of a Tertz deal says at which trick the trump 7 took the turned card
(docs/protocol.md §5.17): Tertz swaps at any trick (docs/rules.md §12.3), and without it
a finished deal's draws showed the seven drawn twice (once from the talon, once as the
turned card) with nothing between."""

from __future__ import annotations

from clients.play.replies import history_text
from deberc_net.game.match import Match
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import HUMAN, MACHINE, columns, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.protocol.wire import parse_line
from deberc_net.server.table_views import history_deal, history_in_play
from deberc_net.testing import play, say

from .helpers import first_card, swap_match, swap_match_unplayed, swapped_at_trick_two

NAMES = ("ann", "bob")


def _history(*deals: ev.HistoryDeal) -> ev.History:
    return ev.History(5, "m9", NAMES, ((0,), (1,)), deals)


def test_a_finished_deals_history_says_where_the_trump_seven_was_swapped() -> None:
    match = swapped_at_trick_two()
    while match.deal.deal_no == 1:
        seat = match.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    record = match.records[0]
    assert record["draws"][-1] == [0, "7h"]  # the seven, drawn last as the turned card
    history = _history(history_deal(record))
    human = render(history, HUMAN)
    assert human[5:8] == [
        "  2 ann 7♠ bob K♠ > bob",
        "      bob, before his card, swaps the trump 7 for the turned K♥: menyayu",
        "      draw: bob Q♥, ann 7♦",
    ]
    assert sum("swaps" in x for x in human) == 1  # once a deal: the seven lies face up
    assert render_ru(history)[6] == (
        "      bob, до своей карты: меняю — берёт открытую К♥ за козырную семёрку"
    )
    machine = render(history, MACHINE)
    assert machine[3].endswith(" swap=1:Kh")
    assert sum("swap=" in x for x in machine) == 1
    # the terminal client, given the machine lines, says what the human style says
    assert history_text([parse_line(x) for x in machine], NAMES) == human


def test_the_deal_in_play_says_it_once_its_trick_is_taken() -> None:
    match = swapped_at_trick_two()
    human = render(_history(history_in_play(match.deal)), HUMAN)
    assert human[4:6] == [
        "  2 ann 7♠ bob K♠ > bob",
        "      bob, before his card, swaps the trump 7 for the turned K♥: menyayu",
    ]
    assert not any(x.startswith("      draw:") for x in human)  # the draws are not told yet


def _forfeited(match: Match) -> ev.HistoryDeal:
    """bob leaves at his turn: the deal ends as it stands (docs/records.md)."""
    match.forfeit(1, "left", seat=1)
    return history_deal(match.records[0])


def test_a_swap_in_the_trick_a_forfeit_left_untaken_is_said_under_it() -> None:
    match = swap_match()
    play(match, "7s")
    say(match, 1, "menyayu")  # then bob leaves, his card not laid
    history = _history(_forfeited(match))
    human = render(history, HUMAN)
    assert human[-2:] == [
        "    ann 7♠: not taken, the deal ended there",
        "      bob, before his card, swaps the trump 7 for the turned K♥: menyayu",
    ]
    assert (
        render_ru(history)[-1]
        == "      bob, до своей карты: меняю — берёт открытую К♥ за козырную семёрку"
    )
    machine = render(history, MACHINE)
    assert machine[1].endswith(" unfinished_leader=0 unfinished=7s unfinished_swap=1:Kh")
    assert not any("swap=" in x for x in machine[2:])  # no taken trick had it
    # the terminal client, given the machine lines, says what the human style says
    assert history_text([parse_line(x) for x in machine], NAMES) == human


def test_a_swap_before_the_first_card_of_the_trick_a_forfeit_ended_is_said_too() -> None:
    match = swap_match()
    play(match, "7s Ks")  # bob takes it and leads the next
    say(match, 1, "menyayu")  # then leaves: no card on the table
    history = _history(_forfeited(match))
    human = render(history, HUMAN)
    assert not any("not taken" in x for x in human)
    assert human[-1] == "      bob, before his card, swaps the trump 7 for the turned K♥: menyayu"
    assert render(history, MACHINE)[1].endswith(" unfinished_swap=1:Kh")


def test_a_swap_in_the_first_trick_is_said_made_before_the_break_under_it() -> None:
    """bob swaps in trick 1, before his card: his swap line, above the break line,
    says it came before his card (before: it read as made after trick 1, by the break)."""
    match = swap_match_unplayed()
    play(match, "Ad")
    say(match, 1, "menyayu")
    play(match, "10d")
    say(match, 1, "lomayu-1")
    history = _history(history_in_play(match.deal))
    human = render(history, HUMAN)
    assert human[2:5] == [
        "  1 ann A♦ bob 10♦ > ann",
        "      bob, before his card, swaps the trump 7 for the turned K♥: menyayu",
        "      bob breaks the deck: lomayu 1",
    ]
    assert render_ru(history)[3] == (
        "      bob, до своей карты: меняю — берёт открытую К♥ за козырную семёрку"
    )
    machine = render(history, MACHINE)
    assert machine[2].endswith(" swap=1:Kh")
    assert history_text([parse_line(x) for x in machine], NAMES) == human


def test_a_swap_with_the_longest_names_stays_within_80_columns() -> None:
    """A Tertz evening (s39): with 20-letter names (the longest a name may be,
    docs/protocol.md §4.2) the swap line under a trick took 89 columns; the terminal
    client wrote it so. Every history line fits 80, in both languages and in the
    client; the swap goes on under its own start."""
    longest = ("a" * 19 + "z", "b" * 19 + "y")
    match = swapped_at_trick_two()
    while match.deal.deal_no == 1:
        seat = match.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    history = ev.History(5, "m9", longest, ((0,), (1,)), (history_deal(match.records[0]),))
    human, russian = render(history, HUMAN), render_ru(history)
    machine = [parse_line(x) for x in render(history, MACHINE)]
    shown = history_text(machine, longest)
    for lines in (human, russian, shown, history_text(machine, longest, lang=Lang.RU)):
        assert all(columns(x) <= 80 for x in lines), lines
    swap = next(i for i, x in enumerate(human) if ", before his card, swaps the trump 7" in x)
    assert human[swap : swap + 2] == [
        f"      {longest[1]}, before his card, swaps the trump 7 for the turned",
        "        K♥: menyayu",
    ]
    assert shown == human  # the client says it as the human style does
    swap = next(i for i, x in enumerate(russian) if ", до своей карты: меняю" in x)
    assert russian[swap + 1] == "        козырную семёрку"


def test_with_wide_names_a_trick_and_its_notes_keep_their_starts() -> None:
    """Names of 20 CJK characters (40 columns) wrap a trick's line and the notes under
    it: each still starts where it does with short names (the trick at 2, its swap and
    draw at 6), its rest under it, within 80 columns; they began at column 0."""
    wide = ("王" * 20, "李" * 20)
    match = swapped_at_trick_two()
    while match.deal.deal_no == 1:
        seat = match.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    history = ev.History(5, "m9", wide, ((0,), (1,)), (history_deal(match.records[0]),))
    for lines in (render(history, HUMAN), render_ru(history)):
        assert all(columns(x) <= 80 for x in lines), lines
        trick = next(i for i, x in enumerate(lines) if x.lstrip().startswith("2 "))
        assert lines[trick] == f"  2 {wide[0]} 7♠", lines
        swap = trick + 3  # the trick's two lines after its first, then the swap
        assert lines[swap].startswith(f"      {wide[1]}, "), lines
        assert lines[swap + 1].startswith("        ") and lines[swap + 1][8] != " "
        draw = lines[swap + 2]
        assert draw.startswith(("      draw: ", "      добор: ")), lines
