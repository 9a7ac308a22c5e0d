"""The Russian and Ukrainian words for a command run it (docs/protocol.md §4): a Tertz
evening's `история` was told 'history?' as a table call it was not, and not answered."""

from __future__ import annotations

import pytest

from deberc_net.plugins.manager import RuleBook
from deberc_net.protocol.commands import (
    COMMANDS,
    SPOKEN_COMMANDS,
    Command,
    TableCallText,
    command_word,
    parse_line,
)
from deberc_net.protocol.vocabulary import engine_call, normalize


@pytest.mark.parametrize(
    ("typed", "command"),
    [
        ("история", "history"),
        ("ІСТОРІЯ", "history"),
        ("Счёт", "sheet"),
        ("счет", "sheet"),
        ("лист", "sheet"),
        ("рахунок", "sheet"),
        ("помощь", "help"),
        ("допомога", "help"),
        ("хелп", "help"),
        ("кто", "who"),
        ("хто", "who"),
        ("столы", "tables"),
        ("стол", "state"),
        ("реванш", "rematch"),
        ("правила", "rules"),
        ("партии", "games"),
        ("выход", "quit"),
        ("пароль", "password"),
        ("язык", "lang"),
        ("Язык", "lang"),
        ("мова", "lang"),
    ],
)
def test_a_spoken_word_runs_its_command(typed: str, command: str) -> None:
    assert parse_line(typed) == Command(command)
    assert command_word(typed) == command


def test_its_arguments_stay_as_typed() -> None:
    assert parse_line("язык ru") == Command("lang", ("ru",), "ru")
    assert parse_line("помощь sit") == Command("help", ("sit",), "sit")
    assert parse_line("пароль старый новый") == Command(
        "password", ("старый", "новый"), "старый новый"
    )


def test_every_spoken_word_names_a_command() -> None:
    assert set(SPOKEN_COMMANDS.values()) <= set(COMMANDS)
    assert all(word == normalize(word) for word in SPOKEN_COMMANDS)  # (ё read as е)


def test_no_spoken_word_is_a_table_call_in_any_game() -> None:
    """A command's word is read before any call: one that was a call's would take it."""
    book = RuleBook.load()
    spoken = set()
    for players in (2, 3, 4):
        for variant in ("moscow", "kharkov", "tertz"):
            if variant == "tertz" and players != 2:
                continue
            spoken |= {normalize(w) for w in book.ruleset(players, variant).call_aliases}
    for word in SPOKEN_COMMANDS:
        assert engine_call(word) is None, word
        assert word not in spoken, word


def test_a_call_is_still_a_call() -> None:
    assert parse_line("пас") == TableCallText("пас")
    assert parse_line("играю черви") == TableCallText("играю черви")
