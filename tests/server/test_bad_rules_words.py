"""A word `new`/`seek` does not know is refused naming the variants as well as the
options: 'new 2 nosuchvariant' is most likely a variant mistyped (tryout #13)."""

from __future__ import annotations

from .conftest import Connector


async def test_an_unknown_word_after_the_player_count_lists_the_variants_too(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    for command in ("new 2 nosuchvariant", "seek 2 moskow"):
        await ann.send(command)
        error = await ann.expect("error")
        word = command.split()[-1]
        assert error["code"] == "bad-rules"
        assert error["text"].startswith(
            f"unknown option {word!r}; variants: kharkov, moscow, tertz; options: "
        ), error
        assert "to-301" in error["text"].split("; options: ")[1]
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
