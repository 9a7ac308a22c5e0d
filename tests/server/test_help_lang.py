"""'help', 'calls' and 'rules' with 'lang=en|ru': the answer in that language in either
style (docs/protocol.md §4.4, §5.9), so a program that shows them to a person (the
terminal client's --lang ru) gets the server's own Russian, not its English."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .client import LineClient, fields
from .conftest import Connector


async def told(client: LineClient, line: str) -> list[tuple[str, str]]:
    """The tags and texts of the lines answering ``line`` (a 'ping' marks their end)."""
    await client.send(line)
    await client.send("ping")
    said = []
    while (line := await client.read_until(lambda _: True)) != "ok cmd=ping text=pong":
        tag, values = fields(line)
        if tag in ("help", "rules", "error"):  # (not the table's events)
            said.append((tag, str(values.get("text", ""))))
    return said


def texts(said: list[tuple[str, str]]) -> list[str]:
    return [text for _, text in said]


async def test_help_calls_and_rules_come_in_the_language_asked(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    help_en = await told(ann, "help")
    help_ru = await told(ann, "help lang=ru")
    assert help_en[0] == ("help", "Commands here:")
    assert help_ru[0] == ("help", "Команды здесь:")
    assert len(help_ru) > 10 and {tag for tag, _ in help_ru} == {"help"}
    assert texts(await told(ann, "help LANG=en")) == texts(help_en)
    # one command's usage, 'calls' and 'rules' the same way, the words asked for kept
    assert texts(await told(ann, "help sit lang=ru"))[0].startswith("sit СТОЛ [МЕСТО]")
    calls_ru = texts(await told(ann, "calls lang=ru"))
    assert calls_ru != texts(await told(ann, "calls")) and any("рост?" in t for t in calls_ru)
    await ann.send("new 2 to-301")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    rules_ru = texts(await told(ann, f"rules {table} lang=ru"))
    assert rules_ru[0].startswith(f"Стол {table}: moscow"), rules_ru
    assert texts(await told(ann, "rules lang=ru")) == rules_ru  # (its own table)
    # the style's lines are as they were without it: English
    assert texts(await told(ann, "help")) != texts(await told(ann, "help lang=ru"))
    # another language is refused as 'lang' refuses it; nothing is listed
    assert await told(ann, "help lang=de") == [("error", "help [COMMAND] [lang=en|ru]")]
    assert (await told(ann, "calls lang=uk"))[0][1].startswith("lang en|ru: no Ukrainian")
    assert await told(ann, "rules lang=ru lang=en") == [
        ("error", "rules [TABLE|RULE] [lang=en|ru]")
    ]


async def test_help_on_help_calls_and_rules_says_lang_is_taken(
    port: int, connect: Connector
) -> None:
    """A reader of 'help rules' learns of 'lang=' there, in either language; the list of
    commands keeps its one line each."""
    ann = await connect.machine(port, "ann")
    for command in ("help", "calls", "rules"):
        assert "lang=en or lang=ru" in " ".join(texts(await told(ann, f"help {command}")))
        said_ru = " ".join(texts(await told(ann, f"help {command} lang=ru")))
        assert "lang=en или lang=ru" in said_ru
    assert not any("lang=" in text for text in texts(await told(ann, "help")))


async def test_lobby_help_tells_a_lone_player_of_the_house_bots(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """'bot' is listed at a waiting table only: the lobby's help says how to get one
    there on a server that seats house bots, and says nothing of them on another."""
    port = await start_server(house_bots=True)
    ann = await connect.machine(port, "ann")
    hint_en = " ".join(" ".join(texts(await told(ann, "help"))[-2:]).split())
    assert hint_en.startswith("Nobody to play with? 'new 2' opens a table, then")
    assert "'bot heuristic' seats a house bot at it ('help bot')." in hint_en
    hint_ru = " ".join(" ".join(texts(await told(ann, "help lang=ru"))[-2:]).split())
    assert "bot heuristic сажает за него бота сервера" in hint_ru
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    assert not any("Nobody to play" in t for t in texts(await told(ann, "help")))
    plain = await start_server()
    bob = await connect.machine(plain, "bob")
    assert not any("house bot" in t for t in texts(await told(bob, "help")))


async def test_help_bot_says_what_each_kind_is_in_both_languages(
    port: int, connect: Connector
) -> None:
    """A player choosing a bot learns from 'help bot' how each plays, the search bot's
    levels and what 'rated' does, in Russian as in English; on a person's screen in
    three lines, what a person choosing needs (it took five, the longest of all
    commands, with the search bot's think times: a Russian club evening)."""
    ann = await connect.machine(port, "ann")
    en = " ".join(" ".join(texts(await told(ann, "help bot"))).split())
    ru = " ".join(" ".join(texts(await told(ann, "help bot lang=ru"))).split())
    for said in (
        "A house bot plays one match at your waiting table.",
        "heuristic plays like a club player, random any card,",
        "search better still (LEVEL 1-5, default 3).",
        "'rated': a rated match (not random).",
    ):
        assert said in en, en
    for said in (
        "Бот сервера сыграет партию за вашим ждущим столом.",
        "Эвристический играет как клубный игрок, случайный — любой картой,",
        "поисковый сильней их (1-5, обычно 3).",
        "rated: в рейтинг (не случайный).",
    ):
        assert said in ru, ru
    for lang in ("en", "ru"):
        bea = await connect.human(port, f"bea{lang}")
        await bea.send("help фыва")  # (the greeting read first)
        await bea.read_until(lambda x: "фыва" in x)
        await bea.send("help bot lang=" + lang)
        start = bea.pos
        await bea.send("help фыва")  # (its answer marks the end)
        await bea.read_until(lambda x: "фыва" in x)
        lines = bea.lines[start : bea.pos - 1]
        assert lines[0].startswith("bot heuristic|random|search [")
        assert 1 < len(lines) <= 3 and all(len(x) <= 80 for x in lines), lines
