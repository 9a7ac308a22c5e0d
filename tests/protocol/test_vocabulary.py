"""The table calls as people type them (sans-IO: no server needed)."""

from __future__ import annotations

import pytest

from deberc_net.game.calls import Call
from deberc_net.protocol.vocabulary import CallSyntaxError, parse_call


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        ("пас", "pas"),
        ("PASS", "pas"),
        ("igrayu h", "igrayu-h"),
        ("играю черви", "igrayu-h"),
        ("Кп", "Ks"),
        ("10♥", "10h"),
        ("Th", "10h"),
        ("hod 9h", "9h"),
        ("hod 10 h", "10h"),
        ("ход Д ♠", "Qs"),
        ("ot korolya kozyrnogo", "ot-K-kozyrnogo"),
        ("от туза", "ot-A"),
        ("dva tertsa", "dva-tertsa"),
        ("пятьдесят", "pyatdesyat"),
        ("рост?", "rost?"),
        ("четыре семёрки", "chetyre-semerki"),
        ("конец", "konets"),
        ("501", "konets"),
    ],
)
def test_spellings(typed: str, token: str) -> None:
    assert parse_call(typed).token() == token


def test_a_tables_plugin_words_are_heard_after_the_engines() -> None:
    words = {"сдаюсь": "sdayus", "Play On": "igraem", "pas": "house-pass"}
    assert parse_call("сдаюсь", (), words).token() == "sdayus"
    assert parse_call("play  on", (), words).token() == "igraem"  # compared as typed words
    assert parse_call("pas", (), words).token() == "pas"  # the engine's word comes first
    with pytest.raises(CallSyntaxError):
        parse_call("сдаюсь")  # not at a table without the plugin


def test_legal_calls_settle_what_was_left_out() -> None:
    assert parse_call("terts", [Call("terts", count=2)]).token() == "dva-tertsa"
    assert parse_call("ot K", [Call("ot", rank=6, trump=True)]).token() == "ot-K-kozyrnogo"
    assert parse_call("prokhodit", [Call("pishet")]).token() == "pishet"
    assert parse_call("prokhodit", [Call("prokhodit")]).token() == "prokhodit"
    assert parse_call("house-call", [Call("house-call")]).token() == "house-call"


@pytest.mark.parametrize("typed", ["", "frobnicate", "igrayu purple", "ot", "ot zebra", "1x"])
def test_nonsense_is_a_syntax_error(typed: str) -> None:
    with pytest.raises(CallSyntaxError):
        parse_call(typed)
