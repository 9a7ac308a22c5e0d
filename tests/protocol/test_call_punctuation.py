"""A call typed as a sentence ends, with ``.``, ``!`` or ``?`` (a space before the
``?`` too), is read as that call (docs/protocol.md §8.2; a Russian-speaking tryout,
s50): never as another, and a question-as-a-call keeps its ``?``."""

from __future__ import annotations

import pytest

from deberc_net.game import calls as C
from deberc_net.protocol.vocabulary import CallSyntaxError, PlayAlone, parse_call


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        ("покажи!", "pokazhi"),
        ("пас.", "pas"),
        ("играю!", "igrayu"),
        ("пишет.", "pishet"),
        ("рост ?", "rost?"),
        ("рост?", "rost?"),
        ("rost ?", "rost?"),
        ("пас?", "pas"),
        ("Pas!!", "pas"),
        ("играю черви!", "igrayu-h"),
        ("10♠.", "10s"),
        ("ход 10♠!", "10s"),
        ("от туза.", "ot-A"),
        # the question keeps its '?': 'проходит' alone is the answer
        ("проходит?", "prokhodit?"),
        ("проходит ?", "prokhodit?"),
        ("проходит?!", "prokhodit?"),
        ("проходит!", "prokhodit"),
        ("проходит.", "prokhodit"),
    ],
)
def test_a_call_ending_a_sentence_is_the_call(typed: str, token: str) -> None:
    assert parse_call(typed).token() == token


@pytest.mark.parametrize("typed", ["?", "!", "...", " ? ", "игр!", "blah."])
def test_punctuation_alone_or_after_no_call_is_refused_as_typed(typed: str) -> None:
    with pytest.raises(CallSyntaxError) as refused:
        parse_call(typed)
    assert type(refused.value) is CallSyntaxError
    assert typed.strip() in str(refused.value)


def test_the_bare_lines_own_refusal_says_more() -> None:
    with pytest.raises(PlayAlone):  # 'ход' names no card: which one, as without the '!'
        parse_call("ход!")


def test_an_ace_of_trumps_stays_the_ace_with_a_full_stop() -> None:
    call = parse_call("от козырного туза.")
    assert (call.name, call.trump) == (C.OT, True)
