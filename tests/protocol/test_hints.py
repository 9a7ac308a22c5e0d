"""The hint a mistyped call or command gets (docs/protocol.md §8, §10, protocol/hints.py):
sans-IO."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.game.cards import parse_card
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import COMMANDS
from deberc_net.protocol.hints import command_hint, hint, ten_meant
from deberc_net.protocol.refusals import refusal_phrase
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru

BIDDING = [Call("pas"), Call("igrayu")]
TALK = [Call("rost?"), Call("pishet"), C.play(parse_card("Ks")), C.play(parse_card("7h"))]


@pytest.mark.parametrize(
    ("typed", "legal", "token"),
    [
        ("igrau", BIDDING, "igrayu"),  # a letter left out
        ("igryau", BIDDING, "igrayu"),  # two swapped: two edits in a long word
        ("игарю", BIDDING, "igrayu"),  # the Russian word, two letters swapped
        ("пса", BIDDING, "pas"),
        ("пac", BIDDING, "pas"),  # Cyrillic п, Latin a and c: a layout switched
        ("pishte", TALK, "pishet"),
        ("пишт", TALK, "pishet"),
        ("rot?", TALK, "rost?"),
        ("7", TALK, "7h"),  # the one seven that may be played
    ],
)
def test_a_slip_of_the_keys_is_hinted(typed: str, legal: list[Call], token: str) -> None:
    found = hint(typed, legal, {})
    assert found is not None and found.token() == token


@pytest.mark.parametrize(
    ("typed", "legal"),
    [
        ("hello", BIDDING),  # nothing near
        ("igrayu please now", BIDDING),  # too far from every spelling
        ("x" * 40, BIDDING),  # a long line is no slip
        ("K", [C.play(parse_card("Ks")), C.play(parse_card("Kh"))]),  # two as near
        ("", BIDDING),
    ],
)
def test_no_hint_when_nothing_or_two_calls_are_near(typed: str, legal: list[Call]) -> None:
    assert hint(typed, legal, {}) is None


def test_only_legal_calls_are_hinted() -> None:
    assert hint("igrau", [Call("pas")], {}) is None


def test_a_plugins_own_words_are_hinted_too() -> None:
    legal = [Call("sdayus"), Call("prinimayu")]
    found = hint("сдаюс", legal, {"сдаюсь": "sdayus"})
    assert found is not None and found.token() == "sdayus"


def test_the_hint_goes_before_text_in_the_machine_style_and_is_said_for_people() -> None:
    refused = ev.Error("unknown-command", "not a table call: 'igrau'", hint="igrayu")
    assert render(refused, MACHINE) == [
        "error code=unknown-command hint=igrayu text=not a table call: 'igrau'"
    ]
    assert render(refused, HUMAN) == [
        "Error (unknown-command): not a table call: 'igrau'. Did you mean igrayu?"
    ]
    assert render_ru(refused)[0].endswith(" Может быть, «играю»?")
    plain = ev.Error("unknown-command", "not a table call: 'hello'")
    assert render(plain, MACHINE) == ["error code=unknown-command text=not a table call: 'hello'"]


@pytest.mark.parametrize(
    ("typed", "name"),
    [("tabels", "tables"), ("helpp", "help"), ("histroy 2", "history"), ("sheat", "sheet")],
)
def test_a_mistyped_command_is_hinted(typed: str, name: str) -> None:
    assert command_hint(typed, COMMANDS) == name


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("score", "sheet"),
        ("Счёт", "sheet"),
        ("счет", "sheet"),
        ("запись", "sheet"),
        ("история", "history"),
        ("реванш", "rematch"),
        ("помощь", "help"),
        ("хелп", "help"),  # a tryout (s28): it got no pointer, where «помощь» did
        ("выход", "quit"),
        ("пароль", "password"),
        ("кто", "who"),
    ],
)
def test_a_command_typed_by_what_it_does_is_named(typed: str, name: str) -> None:
    # a club's tryout: 'score', 'счёт', 'реванш' got no pointer to sheet or rematch
    assert command_hint(typed, COMMANDS) == name


def test_a_meant_command_the_caller_does_not_offer_is_not_named() -> None:
    assert command_hint("score", ["sit", "sort"]) is None


@pytest.mark.parametrize("typed", ["xyzzy", "", "pas", "s" * 40])
def test_no_command_is_hinted_when_none_is_near(typed: str) -> None:
    assert command_hint(typed, COMMANDS) is None


def test_a_tie_between_two_commands_is_not_hinted() -> None:
    assert command_hint("sitt", ["sit", "sort"]) == "sit"  # one edit against two
    assert command_hint("sot", ["sit", "sort"]) is None  # one edit each: no guess


def test_a_command_hint_is_said_to_people_and_named_to_programs() -> None:
    refused = ev.Error("unknown-command", "'tabels' is not a command", command="tables")
    assert render(refused, MACHINE) == [
        "error code=unknown-command command_hint=tables text='tabels' is not a command"
    ]
    assert render(refused, HUMAN) == [
        "Error (unknown-command): 'tabels' is not a command. Did you mean 'tables'?"
    ]
    assert render_ru(refused)[0].endswith(" Может быть, tables?")


def test_a_cyrillic_ace_not_held_hints_the_ten_of_its_suit_when_that_is_legal() -> None:
    """A Russian player typed 'Т♠' for the ten (Latin T is the ten elsewhere) and read
    only «карты Т♠ у вас нет» (a tryout, s28): the refusal asks «Может быть, «10♠»?»."""
    ace, ten = C.play(parse_card("As")), C.play(parse_card("10s"))
    legal = [ten, C.play(parse_card("Kh"))]
    assert ten_meant(ace, "Т♠", legal) == "10s"
    assert ten_meant(ace, "т п", legal) == "10s"
    assert ten_meant(ace, "туз пик", legal) is None  # the word says the ace
    assert ten_meant(ace, "ТУЗ ПИК", legal) is None
    assert ten_meant(ace, "A♠", legal) is None  # a Latin A is no slip for T
    assert ten_meant(ace, "Т♠", legal[1:]) is None  # the ten is not his to play
    detail = refusal_phrase("As is not in your hand", ("anna", "boris"))
    refused = ev.Error("illegal-card", "As is not in your hand", said=detail, hint="10s")
    assert render_ru(refused)[0] == "Ошибка (illegal-card): карты Т♠ у вас нет. Может быть, «10♠»?"


def _osa(a: str, b: str) -> int:
    """The edit distance with two letters swapped as one edit, worked out in full: what
    the hints' quicker reckoning (it gives up on words too far apart) must agree with."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(
                d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdeghilmnoprstuwvk", min_size=1, max_size=9))
def test_a_command_hint_is_the_one_name_nearest_within_the_letters_allowed(typed: str) -> None:
    """Words far apart are not compared letter by letter (a hostile tryout, s29: 0.4 ms a
    mistyped line): the hint is still the one command within 1 edit (2 past 5 letters)
    nearer than any other, as the whole table of distances says."""
    # (said by what it does: 'sheet'; 'kto' is 'кто' in the Latin letters that look
    # like its Cyrillic ones, read as it: 'who')
    if typed in ("score", "scores", "kto"):
        return
    limit = 1 if len(typed) <= 5 else 2
    near = sorted((_osa(typed, name), name) for name in COMMANDS)
    within = [(d, name) for d, name in near if d <= limit]
    expected = None
    if within and (len(within) == 1 or within[1][0] > within[0][0]):
        expected = within[0][1]
    assert command_hint(typed, COMMANDS) == expected
