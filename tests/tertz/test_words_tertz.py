"""What people are told at a Tertz table says what Tertz has: no Deberts words for
things the game has not (bides, hanging points, points "written as played")."""

from __future__ import annotations

from deberc_net.game import events as g
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import help_text
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import build_talon_deck, new_match, say, spoken

from .helpers import RULES, first_card

TWO = ("ann", "bob")


def test_help_sheet_says_bides_and_hanging_points_are_deberts() -> None:
    # 'help sheet' is one text wherever it is asked: it names the game they belong to
    english = " ".join(x.strip() for x in help_text("sheet"))
    assert "in Deberts also the bides and the points left hanging (Tertz has neither)" in english
    russian = " ".join(x.strip() for x in help_text("sheet", lang=Lang.RU))
    assert "в деберце ещё байды и висячие очки (в терце их нет)" in russian


def _deal_end(outcome: str, points: tuple[int, int], written: tuple[int, int]) -> list[str]:
    end = g.DealEnded(1, outcome, points, written, written, 0, {})
    event = ev.TableEvent(9, 1, TWO, end)
    return [
        " ".join(x.strip() for x in told(event)) for told in (lambda e: render(e, HUMAN), render_ru)
    ]


def test_a_tertz_deal_whose_count_was_round_says_so_not_written_as_played() -> None:
    # Tertz writes the counting seat's share rounded and the rest of the 150
    # (docs/rules.md §12.6): the same points mean nothing was rounded
    assert _deal_end("split", (70, 80), (70, 80)) == [
        "Deal 1: split. Points: ann 70, bob 80 (nothing to round). Totals: ann 70, bob 80.",
        "Раздача 1: поделена. Очки: ann 70, bob 80 — округлять нечего. Итого: ann 70, bob 80.",
    ]
    assert _deal_end("split", (67, 83), (70, 80))[0] == (
        "Deal 1: split. Points: ann 67, bob 83. Written: ann 70, bob 80. Totals: ann 70, bob 80."
    )
    # Deberts keeps its words: the player's game made, each writes what he took
    assert "(written as played)" in _deal_end("made", (100, 62), (100, 62))[0]


def _state_at_talon(left: int) -> tuple[str, str, str]:
    """A seat's 'state' (the whole table: human, Russian, machine) once the talon holds
    ``left`` cards; the turned card is 7♦."""
    deck = build_talon_deck(
        "7c 8c 9c Ad Kd 10s 8s 7s 9d",
        "10d Jd Qd 7h 9h Ks As Jh Qc",
        "7d",
        "8h 10h Ah Qh Kh 8d 9s Js Qs 10c Jc Kc Ac",
    )
    match: Match = new_match(RULES, deck)
    while dict(view(match, 0).game)["talon"] > left:
        seat = match.to_act
        assert seat is not None
        say(match, seat, first_card(match, seat))
    ask = ev.Ask(7, 3, view(match, 0), None, ev.AskKind.STATE, whole=True)
    (machine,) = render(ask, MACHINE)
    return "\n".join(render(ask, HUMAN)), "\n".join(render_ru(ask)), machine


def test_a_tertz_state_shows_the_turned_card_only_while_it_lies_face_up() -> None:
    human, russian, machine = _state_at_talon(2)
    assert "Trump: ♦. Turned: 7♦." in human and "Открыта: 7♦." in russian
    assert " turned=7d " in machine and machine.endswith(" talon=2 their_tricks=-")
    # drawn last, the turned card is in a hand: no longer said to lie face up
    human, russian, machine = _state_at_talon(0)
    assert "Trump: ♦." in human and "Turned" not in human
    assert "Козырь: ♦." in russian and "Открыта" not in russian
    # the machine field keeps its meaning (docs/protocol.md §1): talon=0 says it is drawn
    assert " turned=7d " in machine and " talon=0 " in machine


def test_from_what_is_read_with_or_without_its_question_mark() -> None:
    # «от чего» typed as «рост» is, without the '?', was read as 'ot' and a rank: "not
    # a rank: 'чего'" (an evening's tryout, a Russian player asking at his turn)
    legal = ["rost?", "ot-K", "pishet", "7c"]
    for word in ("от чего?", "от чего", "От чего", "ot chego", "ot chego?", "from what"):
        assert spoken(RULES, word, legal).token() == "rost?", word
    assert spoken(RULES, "от короля", legal).token() == "ot-K"


def test_tertz_calls_are_understood_in_ukrainian_too() -> None:
    # a Ukrainian-speaking player at an evening's Tertz table (s39) typed «ламаю 5»,
    # «двісті», «сто тузів», «мар'яж», «від чого?»: each was "not a table call", while
    # every other call has its Ukrainian words (docs/protocol.md §8.2, *uk*)
    said = {
        "ламаю 5": ("lomayu-5", ["lomayu-5"]),
        "Ламаю 12": ("lomayu-12", ["lomayu-12"]),
        "двісті": ("dvesti", ["dvesti", "7c"]),
        "двісті валетів": ("dvesti", ["dvesti", "7c"]),
        "сто тузів": ("sto-tuzov", ["sto-tuzov", "7c"]),
        "сто королів": ("sto-korolei", ["sto-korolei", "7c"]),
        "сто п'ять": ("sto-pyat", ["sto-pyat", "7c"]),
        "сто п’ять": ("sto-pyat", ["sto-pyat", "7c"]),
        "сто шість": ("sto-shest", ["sto-shest", "7c"]),
        "сто сім": ("sto-sem", ["sto-sem", "7c"]),
        "сто вісім": ("sto-vosem", ["sto-vosem", "7c"]),
        "мар'яж": ("bella", ["bella", "7c"]),
        "від чого?": ("rost?", ["rost?", "7c"]),
        "від чого": ("rost?", ["rost?", "7c"]),
    }
    for word, (token, legal) in said.items():
        assert spoken(RULES, word, legal).token() == token, word
    # «від» before a rank still answers with the top card, as «от» does
    assert spoken(RULES, "від короля", ["ot-K", "pishet"]).token() == "ot-K"


def test_a_deal_ends_totals_keep_each_name_with_its_number_when_wrapped() -> None:
    """A Tertz deal's end with two 20-letter names wraps: a name was left at a line's
    end and its number began the next ('… vsevolod_maksimilia' / '76. Written: …')."""
    for first, second in (("a" * 20, "b" * 20), ("aleksandra_konstant", "vsevolod_maksimilia")):
        for points, written, totals in (
            ((74, 76), (70, 80), (1230, 1480)),
            ((74, 76), (74, 76), (-20, 1480)),
            ((0, 150), (0, 150), (0, 1000)),
        ):
            end = g.DealEnded(13, "split", points, written, totals, 0, {})
            event = ev.TableEvent(9, 1, (first, second), end)
            for lines in (render(event, HUMAN), render_ru(event)):
                assert len(lines) > 1 and all(len(x) <= 80 for x in lines), lines
                for name, number in ((first, totals[0]), (second, totals[1])):
                    assert any(f"{name} {number}" in x for x in lines), (name, lines)
                for name, number in zip((first, second), points, strict=True):
                    assert any(f"{name} {number}" in x for x in lines), (name, lines)


def _split_end(tricks: tuple[int, ...], note: str) -> list[str]:
    """A split deal's end (ann 65, bob 85 of cards) whose tricks went to ``tricks``'
    seats, and whose scoring noted ``note``: its lines after the deal's own line (the
    wrapped lines joined), in English, then in Russian."""
    record = {"tricks": [{"winner": s} for s in tricks], "notes": [note]}
    end = g.DealEnded(1, "split", (65, 85), (70, 80), (70, 80), 0, record)
    event = ev.TableEvent(9, 1, TWO, end)
    told = []
    for lines in (render(event, HUMAN), render_ru(event)):
        assert all(len(x) <= 80 for x in lines), lines
        joined = "\n".join(lines).replace("\n  ", " ").split("\n")
        told.append(" ".join(joined[1:]))
    return told


def test_a_split_says_who_counted_and_why() -> None:
    """The deal's line alone ('Points: ann 65, bob 85. Written: ann 70, bob 80.') read
    as each side's points rounded, 65 up to 70 against 'a five down' (a tryout, s45):
    who counted, why, and what his cards were written as, said under it."""
    told = _split_end((1,) * 6 + (0,) * 10, "side 1 counts 85, written as 80")
    assert told == [
        "bob took fewer tricks, so he counts his cards: 85, written as 80; ann writes the rest.",
        "У игрока bob меньше взяток, он и считает: его карты — 85, записано 80; ann записывает"
        " остальное.",
    ]
    told = _split_end((0, 1) * 8, "side 0 counts 65, written as 60")  # the last: bob's
    assert told[0] == (
        "Equal tricks: ann, who did not take the last, counts his cards: 65, written as 60;"
        " bob writes the rest."
    )
    # an undeclined name after «У», and «он», «не взявший» of a name that may be a
    # woman's ('ann'): said of «игрок», the word they agree with (a tryout, s50)
    assert told[1] == (
        "Взяток поровну: считает игрок ann, не взявший последнюю, — его карты 65, записано"
        " 60; bob записывает остальное."
    )
    # a split with no count noted (or a Deberts deal) says nothing more
    assert _split_end((0,), "where the hanging points went") == ["", ""]
