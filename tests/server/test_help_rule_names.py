"""'help RULE' for a variant's or option's name (docs/protocol.md §4.4). A tryout's
newcomer (s45) read README's 'new 2 tertz', typed 'help tertz' to learn the game, and
was asked "did you mean 'help terts'?" (the run of three); 'help kharkov' and 'help
to-301' were told only "no command". Each now says the rule, as 'rules NAME' does, and
the words that play it (a word that names a call too keeps the call's answer)."""

from __future__ import annotations

from .client import help_texts, person_told
from .conftest import Connector


def _joined(lines: list[str]) -> str:
    """A text wrapped onto lines, as one."""
    return " ".join(x.strip() for x in lines)


async def test_a_variant_named_to_help_is_said_with_how_to_play_it(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    told = await help_texts(ann, "help tertz")
    await ann.send("rules tertz")
    rules = [(await ann.expect("rules"))["text"]]
    while len(rules) < len(told) - 1:
        rules.append((await ann.expect("rules"))["text"])
    assert told[:-1] == rules, told  # the rule as 'rules tertz' says it
    assert told[-1] == (
        "'tertz' is a variant, not a command: 'new 2 tertz' opens a table of it,"
        " 'seek 2 tertz' waits for one ('rules tertz' says it too)."
    )
    assert not any("help terts" in line for line in told), told  # (no run of three hinted)
    # as 'new' reads a variant: in any case, as a club spells it
    assert (await help_texts(ann, "help Kharkiv"))[-1].startswith("'kharkov' is a variant")


async def test_an_option_named_to_help_names_the_variant_it_needs(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    told = await help_texts(ann, "help to-301")
    assert told[0].startswith("to-301 (option"), told
    assert told[-1] == (
        "'to-301' is an option, not a command: 'new 2 moscow to-301' opens a table with"
        " it, 'seek 2 moscow to-301' waits for one ('rules to-301' says it too)."
    )
    # a game's own option with its game, one of three players at their count, and one
    # that needs another option with that option
    assert "'new 2 tertz tertz-501'" in (await help_texts(ann, "help tertz-501"))[-1]
    assert "'new 3 moscow bide-to-leader'" in (await help_texts(ann, "help bide-to-leader"))[-1]
    assert "'new 2 moscow dave to-9-stakes'" in (await help_texts(ann, "help to-9-stakes"))[-1]


async def test_a_person_in_russian_is_told_the_game(port: int, connect: Connector) -> None:
    """In Russian, wrapped to 80 columns; a word that is a call's too keeps the call's
    answer («терц», the run of three, as 'terts': every word of a call is answered
    alike, tests/server/test_help_words_agree.py)."""
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x.startswith("Язык"))
    told = await person_told(vera, "help tertz")
    assert told[0].startswith("tertz (вариант, игроков: 2, до 500): Терц"), told
    assert all(len(line) <= 80 for line in told), told
    assert _joined(told).endswith(
        "«tertz» — вариант, а не команда: new 2 tertz открывает такой стол, seek 2 tertz"
        " ждёт такую партию (то же скажет rules tertz)."
    ), told
    told = await person_told(vera, "help терц")
    assert told[0].startswith("«терц» — не команда"), told  # the calls, as before
