"""'calls' and 'help WORD' say an option's calls as an option's: at a table only where
the option is on, in the lobby under the options' heading (docs/protocol.md §4.4). A
new player's tryout read 'ne menyayu' and 'konets' among a plain table's own calls,
labelled 'swap-before-extra:' and 'manual-claim:', and was refused them there."""

from __future__ import annotations

from .client import help_texts, person_told
from .conftest import Connector

LOBBY_OPTIONS = "Calls of options, at the tables that play them:"
TABLE_OPTIONS = "Calls of this table's options:"


def _calls(lines: list[str]) -> list[str]:
    """The calls' own words a block lists (each entry's first word)."""
    return [x.split()[0] for x in lines if x.startswith("  ") and not x.startswith("   ")]


def _entries(lines: list[str]) -> list[list[str]]:
    """A block's entries, each its first line and the lines its explanation wraps to."""
    out: list[list[str]] = []
    for x in lines:
        if x.startswith("   ") and out:
            out[-1].append(x)
        else:
            out.append([x])
    return out


async def test_a_plain_table_lists_no_calls_of_options_it_does_not_play(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    plain = await help_texts(ann, "calls")
    assert "konets" not in _calls(plain) and "ne" not in _calls(plain), plain
    assert not any("manual-claim" in x or "swap-before-extra" in x for x in plain), plain
    assert TABLE_OPTIONS not in plain
    # asked by name there: no call of this table, and where it is one
    told = await help_texts(ann, "help konets")
    assert told[0] == "konets is no command but a call of other tables, not played at this table:"
    assert told[1:] == [
        LOBBY_OPTIONS,
        "  konets (конец, claim, 501)           option manual-claim: claim the match",
        "                                       after a trick you took",
    ]
    await ann.send("leave!")
    await ann.expect("ok", cmd="leave")
    await ann.send("new 2 swap-before-extra manual-claim")
    await ann.expect("ok", cmd="sit")
    both = await help_texts(ann, "calls")
    at = both.index(TABLE_OPTIONS)
    assert _calls(both[at:]) == ["konets", "ne"], both
    assert "konets" not in _calls(both[:at]) and "ne" not in _calls(both[:at])
    told = await help_texts(ann, "help keep")
    assert told[1:] == [
        TABLE_OPTIONS,
        "  ne menyayu (не меняю, keep)          option swap-before-extra: no swap before",
        "                                       the last cards",
    ]


async def test_in_the_lobby_an_options_calls_are_under_the_options_heading(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    lobby = await help_texts(ann, "calls")
    at = lobby.index(LOBBY_OPTIONS)
    for word in ("konets", "ne", "dave"):
        assert word in _calls(lobby[at:]) and word not in _calls(lobby[:at]), word
    for topic in ("dave", "konets"):
        told = await help_texts(ann, f"help {topic}")
        assert told[1] == LOBBY_OPTIONS, told  # said to be an option's, not every table's
        assert told[2].startswith(f"  {topic} ("), told
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x.startswith("Язык"))
    told = await person_told(vera, "help конец")
    assert told[1] == "Заявки опций, за столами, где они играют:", told
    assert told[2].startswith("  конец (konets, claim, 501)           опция manual-claim:")


async def test_a_table_with_no_swap_of_the_seven_lists_neither_the_swap_nor_its_question(
    port: int, connect: Connector
) -> None:
    """An evening's four players read menyayu and prokhodit? in their table's 'calls'
    (docs/rules.md §8: no seven swap at four), and were refused both at the table."""
    ann = await connect.machine(port, "ann")
    for opened, swap in (("new 2", True), ("new 4", False), ("new 2 seven-swap-off", False)):
        await ann.send(opened)
        await ann.expect("ok", cmd="sit")
        listed = _calls(await help_texts(ann, "calls"))
        assert ("menyayu" in listed, "prokhodit?" in listed) == (swap, swap), (opened, listed)
        assert "rost?" in listed and "bella" in listed, listed
        await ann.send("leave!")
        await ann.expect("ok", cmd="leave")
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x.startswith("Язык"))
    await vera.send("new 4")
    await vera.read_until(lambda x: "стол" in x)
    told = await person_told(vera, "calls")
    assert not any(x.startswith(("  меняю (", "  проходит? (")) for x in told), told
    assert any(x.startswith("  рост? (") for x in told), told


async def test_a_table_with_no_swap_keeps_no_line_of_the_swaps_explanation(
    port: int, connect: Connector
) -> None:
    """An evening's four players read, under 'igrayu SUIT … name another suit', the
    lines 'the first trump, before your first card / and before you declare': the
    rest of menyayu's explanation, whose first line alone was left out."""
    swap_words = {"menyayu", "prokhodit?", "меняю", "проходит?"}
    for lang in ("en", "ru"):
        ann = await connect.machine(port, f"ann{lang}")
        listed = {}
        for opened in ("new 2", "new 4"):
            await ann.send(opened)
            await ann.expect("ok", cmd="sit")
            listed[opened] = _entries(await help_texts(ann, f"calls lang={lang}"))
            await ann.send("leave!")
            await ann.expect("ok", cmd="leave")
        kept = [e for e in listed["new 2"] if e[0].split()[0] not in swap_words]
        assert len(kept) == len(listed["new 2"]) - 2, listed["new 2"]
        assert listed["new 4"] == kept, listed["new 4"]
