"""The hint a mistyped call gets (docs/protocol.md §8, protocol/hints.py): sans-IO."""

from __future__ import annotations

import pytest

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.game.cards import parse_card
from deberc_net.protocol import events as ev
from deberc_net.protocol.hints import hint
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
        "Error (unknown-command): not a table call: 'igrau' Did you mean igrayu?"
    ]
    assert render_ru(refused)[0].endswith(" Может быть, «играю»?")
    plain = ev.Error("unknown-command", "not a table call: 'hello'")
    assert render(plain, MACHINE) == ["error code=unknown-command text=not a table call: 'hello'"]
