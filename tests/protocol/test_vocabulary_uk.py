"""The table calls as a Ukrainian table says them (docs/protocol.md §8.2, *uk*): the
same one vocabulary, sans-IO. A tryout's Ukrainian player had `граю` and `пише`
refused as unknown."""

from __future__ import annotations

import pytest

from deberc_net.game.calls import Call
from deberc_net.protocol.vocabulary import CallSyntaxError, parse_call


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        ("пас", "pas"),
        ("пасую", "pas"),
        ("граю", "igrayu"),
        ("Граю", "igrayu"),
        ("граю чирви", "igrayu-h"),
        ("граю піки", "igrayu-s"),
        ("граю бубни", "igrayu-d"),
        ("граю трефи", "igrayu-c"),
        ("граю хрести", "igrayu-c"),
        ("міняю", "menyayu"),
        ("не міняю", "ne-menyayu"),
        ("чотири сімки", "chetyre-semerki"),
        ("терць", "terts"),
        ("два терці", "dva-tertsa"),
        ("п'ятдесят", "pyatdesyat"),
        ("п’ятдесят", "pyatdesyat"),  # the typographic apostrophe
        ("пʼятдесят", "pyatdesyat"),  # U+02BC, the Ukrainian letter apostrophe
        ("копа", "pyatdesyat"),
        ("дві копи", "dva-pyatdesyat"),
        ("ріст?", "rost?"),
        ("ріст", "rost?"),
        ("зріст?", "rost?"),
        ("від туза", "ot-A"),
        ("від дами", "ot-Q"),
        ("від дев'ятки", "ot-9"),
        ("від сімки", "ot-7"),
        ("від вісімки", "ot-8"),
        ("від козирного короля", "ot-K-kozyrnogo"),
        ("від козирної дами", "ot-Q-kozyrnogo"),
        ("від дами козирної", "ot-Q-kozyrnogo"),
        ("від валета козир", "ot-J-kozyrnogo"),
        ("пише", "pishet"),
        ("годиться", "pishet"),
        ("проходить?", "prokhodit?"),
        ("не проходить", "ne-prokhodit"),
        ("покажи", "pokazhi"),
        ("показую", "pokazyvayu"),
        ("скинь", "skin"),
        ("белла", "bella"),
        ("бела", "bella"),
        ("кінець", "konets"),
        ("туз пік", "As"),
        ("десятка чирв", "10h"),
        ("дама бубон", "Qd"),
        ("король хрестів", "Kc"),
        ("хід валет піки", "Js"),
        ("хід 10 чирви", "10h"),
    ],
)
def test_ukrainian_spellings(typed: str, token: str) -> None:
    assert parse_call(typed).token() == token


@pytest.mark.parametrize(
    ("typed", "token"),
    [
        # a tryout's «сімка пік» was refused (not a table call) while «7 піки» worked
        ("сімка пік", "7s"),
        ("вісімка чирв", "8h"),
        ("дев'ятка бубон", "9d"),
        ("дев’ятка хрестів", "9c"),  # the typographic apostrophe
        ("девʼятка піки", "9s"),  # U+02BC, the Ukrainian letter apostrophe
        ("хід сімка ♥", "7h"),
        ("вісімка ♣", "8c"),
        # the Russian words for the same ranks, beside туз, десятка, валет, дама, король
        ("семерка пик", "7s"),
        ("восьмерка червей", "8h"),
        ("девятка бубен", "9d"),
        ("ход семёрка треф", "7c"),
    ],
)
def test_every_rank_said_as_a_word(typed: str, token: str) -> None:
    assert parse_call(typed).token() == token


def test_prokhodit_in_ukrainian_concedes_where_the_russian_word_does() -> None:
    """`проходить` answers `prokhodit?` and concedes a `rost?`, as `проходит` does."""
    assert parse_call("проходить", [Call("prokhodit")]).token() == "prokhodit"
    assert parse_call("проходить", [Call("pishet")]).token() == "pishet"
    assert parse_call("проходит", [Call("pishet")]).token() == "pishet"


def test_a_count_left_out_is_filled_in_in_ukrainian_too() -> None:
    assert parse_call("терці", [Call("terts", count=2)]).token() == "dva-tertsa"
    assert parse_call("копи", [Call("pyatdesyat", count=2)]).token() == "dva-pyatdesyat"
    assert parse_call("від короля", [Call("ot", rank=6, trump=True)]).token() == ("ot-K-kozyrnogo")


@pytest.mark.parametrize("typed", ["граю щось", "від", "від козирного", "хід туз", "гра"])
def test_ukrainian_nonsense_is_a_syntax_error(typed: str) -> None:
    with pytest.raises(CallSyntaxError):
        parse_call(typed)
