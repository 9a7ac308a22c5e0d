"""A word `new`/`seek` does not know is refused naming the variants as well as the
options: 'new 2 nosuchvariant' is most likely a variant mistyped (tryout #13)."""

from __future__ import annotations

from .conftest import Connector


async def test_an_unknown_word_after_the_player_count_lists_the_variants_too(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    for command in ("new 2 nosuchvariant", "seek 2 frobnicate"):
        await ann.send(command)
        error = await ann.expect("error")
        word = command.split()[-1]
        assert error["code"] == "bad-rules"
        assert error["text"].startswith(
            f"unknown option {word!r}; variants: kharkov, moscow, tertz; options: "
        ), error
        listed = error["text"].split("; options: ")[1].split(", ")
        assert "to-301" in listed
        # only the options this table could take, as the near form lists them (a tryout,
        # s47: all 40, another game's tertz-501 and the 4 players' pair-combinations too)
        assert not {"tertz-501", "pair-combinations", "bide-to-leader"} & set(listed), listed
    await ann.send("tables")
    assert (await ann.expect("tables"))["total"] == "0"  # nothing opened


async def test_a_variant_named_after_an_option_says_where_it_goes(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    for command in ("new 2 to-301 moscow", "seek 3 to-301 kharkov", "new 2 moscow tertz"):
        await ann.send(command)
        error = await ann.expect("error")
        word = command.split()[-1]
        assert (error["code"], error["text"]) == (
            "bad-rules",
            f"{word!r} is a variant: name one, right after the player count"
            " (PLAYERS [VARIANT] [OPTION ...])",
        ), error
    await ann.send("tables")
    assert (await ann.expect("tables"))["total"] == "0"  # nothing opened


async def test_seek_private_says_how_a_private_table_is_made(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("seek 2 private")
    error = await ann.expect("error")
    assert error["code"] == "bad-rules" and "'new ... private'" in error["text"], error
    await ann.send("seek 2")  # not left seeking by the refused one: a plain seek is fine
    assert (await ann.expect("ok"))["cmd"] == "seek"


async def test_the_spellings_a_club_types_name_the_variant(port: int, connect: Connector) -> None:
    """'kharkiv' (Ukrainian), 'харьков', 'харків', 'moskva', 'москва' are the variants
    (tryout 18, finding 6: each was an unknown option, with every option listed)."""
    ann = await connect.machine(port, "ann")
    for word, variant in [
        ("kharkiv", "kharkov"),
        ("Харьков", "kharkov"),
        ("харків", "kharkov"),
        ("moskva", "moscow"),
        ("москва", "moscow"),
        ("Kharkov", "kharkov"),  # the name itself in any case too, as the spellings
    ]:
        await ann.send(f"seek 2 {word} short")
        ok = await ann.expect("ok", cmd="seek")
        assert (ok["variant"], ok["options"]) == (variant, "short"), (word, ok)
        await ann.send("unseek")
        await ann.expect("ok", cmd="unseek")
    await ann.send("seek 2 Терц")  # a black-box tryout: the game's own name was refused
    assert (await ann.expect("ok", cmd="seek"))["variant"] == "tertz"
    await ann.send("unseek")
    await ann.expect("ok", cmd="unseek")
    await ann.send("new 3 kharkiv")
    await ann.expect("ok", cmd="sit")
    await ann.send("tables")
    await ann.expect("tables")
    assert (await ann.expect("table"))["variant"] == "kharkov"


VARIANTS = "kharkov, moscow, tertz"


def assert_told_near(text: str, word: str, guess: str) -> None:
    """A word near a variant's name is a mistyped variant, the variants listed; near an
    option's, an option, the table's options listed, not the variants (a tryout, s42:
    'to-300' was told the variants, 'kharkof' an unknown option)."""
    if guess in VARIANTS.split(", "):
        assert text == f"unknown variant {word!r}: did you mean {guess}? Variants: {VARIANTS}"
        return
    head = f"unknown option {word!r}: did you mean {guess}? Options: "
    assert text.startswith(head), text
    listed = text.removeprefix(head).split(", ")
    assert "to-301" in listed and "kharkov" not in listed, text


async def test_a_word_near_a_known_one_is_guessed_its_kind_listed(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    for command, guess in [
        ("new 2 to-300", "to-301"),
        ("seek 2 moskow", "moscow"),
        ("new 2 kharkow", "kharkov"),
    ]:
        await ann.send(command)
        error = await ann.expect("error")
        word = command.split()[-1]
        assert error["code"] == "bad-rules"
        assert_told_near(error["text"], word, guess)
    await ann.send("tables")
    assert (await ann.expect("tables"))["total"] == "0"  # nothing opened


async def test_seek_says_the_options_it_waits_for(port: int, connect: Connector) -> None:
    """'seek 2 kharkov short' said 'Waiting for a 2-player kharkov game.': not short."""
    ann = await connect.human(port, "ann")
    await ann.send("seek 2 kharkov short")
    said = await ann.read_until(lambda x: x.startswith("Waiting for"))
    assert said == "Waiting for a kharkov game for 2 players (short).", said
    await ann.send("unseek")
    await ann.read_until(lambda x: x.startswith("You no longer wait"))
    await ann.send("seek 2")
    said = await ann.read_until(lambda x: x.startswith("Waiting for"))
    assert said == "Waiting for a moscow game for 2 players.", said


async def test_top_takes_the_spellings_that_name_a_variant(port: int, connect: Connector) -> None:
    """'new 2 харьков' opens a kharkov table; 'top харьков' was the usage error."""
    ann = await connect.machine(port, "ann")
    for word, variant in [("kharkiv", "kharkov"), ("Харків", "kharkov"), ("москва", "moscow")]:
        await ann.send(f"top {word} 2")
        top = await ann.expect("top")
        assert (top["variant"], top["players"]) == (variant, "2"), (word, top)


async def test_a_player_count_in_words_is_told_to_be_a_number(
    port: int, connect: Connector
) -> None:
    """'new two' was an unknown option with every option listed: the first word is where
    the player count goes (docs/protocol.md §5.3)."""
    ann = await connect.machine(port, "ann")
    for command in ("new two", "seek три moscow", "new two private"):
        await ann.send(command)
        error = await ann.expect("error")
        word, name = command.split()[1], command.split()[0]
        assert (error["code"], error["text"]) == (
            "bad-rules",
            f"unknown option '{word}': PLAYERS is a number, 2, 3 or 4 ({name} [PLAYERS]"
            " [VARIANT] [OPTION ...]); 'rules' lists the variants and options",
        )
    await ann.send("new kharkof")  # a mistyped variant is named as before
    assert "did you mean kharkov?" in (await ann.expect("error"))["text"]
    await ann.send("new short")  # an option first is no player count
    assert (await ann.expect("ok"))["cmd"] == "sit"
    vera = await connect.raw(port, "vera")
    await vera.send("login vera lang=ru")
    await vera.send("new two")
    assert await vera.read_until(lambda x: x.startswith("Ошибка")) == (
        "Ошибка (bad-rules): «two» — не опция: число игроков пишется цифрой, 2, 3 или 4"
    )


async def test_an_option_is_read_in_any_case_as_the_variant_is(
    port: int, connect: Connector
) -> None:
    """A tryout (s30) typed 'new 2 MOSCOW To-301': the variant and 'PRIVATE' were read
    in any case, the option refused ("unknown option 'To-301' (to-301?)")."""
    ann = await connect.machine(port, "ann")
    for command, variant in [("seek 2 Kharkov SHORT", "kharkov"), ("seek Short", "moscow")]:
        await ann.send(command)
        ok = await ann.expect("ok", cmd="seek")
        assert (ok["variant"], ok["options"]) == (variant, "short"), ok
        await ann.send("unseek")
        await ann.expect("ok", cmd="unseek")
    await ann.send("new 2 MOSCOW To-301 stake-5 to-301 Private")  # one to-301, sorted
    await ann.expect("ok", cmd="sit")
    await ann.send("tables")
    await ann.expect("tables")
    table = await ann.expect("table")
    assert (table["variant"], table["options"], table["private"]) == (
        "moscow",
        "stake-5,to-301",
        "1",
    ), table


async def test_a_rules_name_typed_in_cyrillic_gets_the_near_name(
    port: int, connect: Connector
) -> None:
    """'new 2 терц-501' (the option's name with the variant's Russian spelling in it)
    and 'tерц' (Cyrillic look-alikes) got the whole options list, no guess (s41): read
    in Latin letters too, as 'help' reads a mixed word, the near name is named; first
    after 'new' too (not told that PLAYERS is a number); in Russian: test_rule_refusals.py."""
    ann = await connect.machine(port, "ann")
    for command, word, guess in [
        ("new 2 терц-501", "терц-501", "tertz-501"),
        ("seek 2 tерц", "tерц", "tertz"),
        ("new 2 tertz то-301", "то-301", "to-301"),
        ("new 2 tertz tо-301", "tо-301", "to-301"),
        ("new терц-501", "терц-501", "tertz-501"),
        ("seek 2 харьков dаve", "dаve", "dave"),
    ]:
        await ann.send(command)
        error = await ann.expect("error")
        assert error["code"] == "bad-rules"
        assert_told_near(error["text"], word, guess)
    await ann.send("tables")
    assert (await ann.expect("tables"))["total"] == "0"  # nothing opened


async def test_two_names_as_near_are_both_named(port: int, connect: Connector) -> None:
    """'to-1000' is as near to-1001 as to-1002: the refusal named to-1002 alone (difflib's
    tie goes to the last in the alphabet), a guess said as the one meant; both now."""
    ann = await connect.machine(port, "ann")
    for command, word, guess in [
        ("new 2 to-1000", "to-1000", "to-1001, to-1002"),
        ("seek 2 до-1000", "до-1000", "to-1001, to-1002"),
        ("new 2 to-300", "to-300", "to-301"),  # one nearest: it alone
    ]:
        await ann.send(command)
        error = await ann.expect("error")
        assert error["code"] == "bad-rules"
        assert_told_near(error["text"], word, guess)
