"""The lobby commands over the wire, in both styles."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from deberc_net.game.deal import Deal
from deberc_net.game.rules import Settings
from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.protocol.commands import COMMANDS
from deberc_net.protocol.lang import spoken_call
from deberc_net.server.app import serve
from deberc_net.testing import rule_book

from .client import LineClient, fields, is_event, play_machine, seat_pair
from .conftest import Connector, make_config

Register = Callable[[str, str], Awaitable[None]]


async def _block(client: LineClient, command: str, tag: str) -> list[str]:
    """Send a command whose answer is a block of ``tag`` lines; their texts."""
    await client.send(command)
    await client.send("ping")  # a marker: the block has ended when its answer comes
    out: list[str] = []
    while True:
        t, f = fields(await client.read_until(lambda _: True))
        if t == "ok" and f.get("cmd") == "ping":
            return out
        if t == "event":  # table events may come in between
            continue
        assert t == tag, (command, t, f)
        out.append(f.get("text", ""))


async def test_help(port: int, connect: Connector) -> None:
    client = await connect.machine(port, "ann")
    lines = await _block(client, "help", "help")
    for name, spec in COMMANDS.items():  # in the lobby: every command but the table's,
        listed = any(line.strip().split()[0] == name for line in lines if line.strip())
        # login (done), and the admins' commands (ann is none)
        assert listed == (spec.phases != "table" and name != "login" and not spec.admins), name
    # an explanation that wraps keeps its column
    column = lines[1].index("Show")
    for line in lines[1:-1]:
        assert len(line) <= 80 and (
            (line.startswith("  ") and line[2] != " ") or line[:column].isspace()
        ), line
    for name, spec in COMMANDS.items():
        summary = spec.summary.format(human=60, bot=10, rematch=60)  # (the defaults)
        said = await _block(client, f"help {name}", "help")
        assert all(len(x) <= 80 for x in said) and all(x.startswith("  ") for x in said[1:])
        assert " ".join(x.strip() for x in said) == f"{spec.usage}: {summary}", said
    [nothing] = await _block(client, "help frobnicate", "help")
    assert "frobnicate" in nothing
    calls = await _block(client, "calls", "help")
    assert any("pas" in x for x in calls) and any("pishet" in x for x in calls)
    anon = await connect.raw(port, "anon")  # help needs no login
    await anon.send("help login")
    assert (await anon.read_until(lambda _: True)).startswith("login NAME [PASSWORD")
    await anon.send("help")
    assert "First log in" in await anon.read_until(lambda x: "log in" in x)


async def test_help_clock_says_this_servers_clocks(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """'help clock' said '60 s a call by default' and '10 s' whatever human_clock_ms and
    bot_clock_ms the server has: the operator's are said."""
    port = await start_server(human_clock_ms=120_000, bot_clock_ms=500)
    ann = await connect.machine(port, "ann")
    clock = " ".join(x.strip() for x in await _block(ann, "help clock", "help"))
    assert "a person's clock (120 s a call on this server) or a bot's (0.5 s)" in clock, clock
    listed = " ".join(" ".join(x.split()) for x in await _block(ann, "help", "help"))
    assert "clock (120 s a call on this server) or a bot's (0.5 s)" in listed, listed
    said = " ".join(x.strip() for x in await _block(ann, "help clock lang=ru", "help"))
    assert "Часы человека (120 с на ход на этом сервере) или бота (0,5 с)" in said, said


async def test_help_at_a_table_names_the_calls_of_the_moment(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    ask = await bob.read_until(lambda x: x.startswith("ask ") or x.startswith("state "))
    tag, view = fields(ask)
    asked = (bob, view) if tag == "ask" else (ann, None)
    client = asked[0]
    if asked[1] is None:
        view = fields(await ann.read_until(lambda x: x.startswith("ask ")))[1]
    lines = await _block(client, "help", "help")
    assert any(line.strip().startswith("leave") for line in lines)
    assert not any(line.strip().startswith("new ") for line in lines)
    assert f"Your table calls now: {' | '.join(view['legal'].split(','))}" in lines
    # the match is on: nobody more to invite or ask, and still no login
    listed = {line.split()[0] for line in lines if line.startswith("  ")}
    assert {"leave", "rules", "history"} <= listed
    assert not listed & {"invite", "bot", "login", "reserve", "release", "new"}


async def test_help_lists_the_admins_commands_to_admins_and_invite_at_a_waiting_table(
    start_server: Callable[..., Awaitable[int]], connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "owners")
    boss = await connect.machine(port, "boss", "owners")
    listed = {x.split()[0] for x in await _block(boss, "help", "help") if x.startswith("  ")}
    assert {"reserve", "release", "new"} <= listed and "login" not in listed
    await boss.send("new 2")
    await boss.expect("ok", cmd="sit")
    listed = {x.split()[0] for x in await _block(boss, "help", "help") if x.startswith("  ")}
    assert {"invite", "bot", "release"} <= listed


async def test_seek_reserved_is_told_to_admins_only_and_new_points_to_rules(
    start_server: Callable[..., Awaitable[int]], connect: Connector, register: Register
) -> None:
    """'seek reserved' is a ladder's (a bot seated by an admin's 'reserve'): 'help' and
    'help seek' showed it to everyone; 'help new' did not say where the variants and
    options are listed."""
    port = await start_server(admins=["boss"])
    await register("boss", "owners")
    ann = await connect.machine(port, "ann")
    boss = await connect.machine(port, "boss", "owners")
    for command in ("help", "help seek"):
        assert not any("reserved" in x for x in await _block(ann, command, "help")), command
        assert any("seek reserved" in x for x in await _block(boss, command, "help")), command
    new = " ".join(x.strip() for x in await _block(ann, "help new", "help"))
    assert new.endswith("'rules' in the lobby lists the variants and options.")


async def test_calls_keeps_its_column_when_an_explanation_wraps(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    lines = await _block(ann, "calls", "help")
    column = lines[1].index("pass in bidding")
    assert all(len(line) <= 80 for line in lines), lines
    for line, after in itertools.pairwise(lines[1:]):
        if line.startswith("  ") and "  " not in line[2:column]:  # a call wider than the
            # column (Tertz's hundreds, each named whole) has its explanation below, in it
            assert after[:column].isspace() and after[column] != " ", (line, after)
        elif line.startswith("  "):  # a block's header (Tertz's, the options') starts at 0
            assert line[column - 1] == " " and line[column] != " ", line


async def test_calls_lists_the_calls_of_the_tables_game_and_options(
    port: int, connect: Connector
) -> None:
    # failed before: one fixed text, Deberts's bidding at a Tertz table, no lomayu,
    # no sto-..., dvesti, konets or dave anywhere
    ann = await connect.machine(port, "ann")
    everything = await _block(ann, "calls", "help")
    for word in ("pas (", "lomayu N", "dvesti", "sto-pyat", "konets", "dave (", "perezdacha"):
        assert any(line.lstrip().startswith(word) for line in everything), word
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    tertz = await _block(ann, "calls", "help")
    assert tertz[0].startswith("Tertz table calls")
    for word in ("lomayu N", "dvesti", "sto-dam", "mariage (bella", "menyayu"):
        assert any(line.lstrip().startswith(word) for line in tertz), word
    for word in ("pas", "igrayu", "prokhodit?", "chetyre semerki", "dave", "Calls of"):
        assert not any(line.lstrip().startswith(word) for line in tertz), word
    await ann.send("leave!")
    await ann.expect("ok", cmd="leave")
    await ann.send("new 2 dave")
    await ann.expect("ok", cmd="sit")
    deberts = await _block(ann, "calls", "help")
    # each with what it does, not its option alone (black-box evening s40: 'option dave'
    # told a person nothing of what saying dave does)
    assert deberts[-7:] == [
        "Calls of this table's options:",
        "  dave (даве, double)                  option dave: offer the opponent to give",
        "                                       up at this stake",
        "  prinimayu (принимаю, accept)         option dave: answer dave, play on for the",
        "                                       next stake",
        "  sdayus (сдаюсь, give up, resign)     option dave: answer dave, give up and",
        "                                       lose this stake",
    ]
    assert not any("lomayu" in line for line in deberts)


class RingingDeal(Deal):
    """A third party's game of its own (docs/plugins.md, "Writing a whole new game")."""


class Ringing:
    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="ringing", kind="variant", summary="a game", players=(2,))

    @hookimpl
    def deberc_deal_class(self, settings: object) -> object:
        return RingingDeal

    @hookimpl
    def deberc_call_aliases(self) -> dict[str, tuple[str, ...]]:
        return {"zvonyu": ("звоню", "ring")}


RINGING = [
    "Calls of the game ringing (a plugin's game of its own), in its words:",
    "  zvonyu (звоню, ring)",
    "  Its other calls are the engine's (a card: 10h, Js); 'help' at its table lists"
    " those you may make now.",
]


async def test_calls_of_a_third_partys_own_game_are_its_own_not_deberts(
    nursery: trio.Nursery, db_path: Path, connect: Connector
) -> None:
    """A plugin's whole game lists its own calls (it was given Deberts's bidding), at
    its table and in the lobby; the calls of its rule set, not of its name."""
    config = make_config(db_path)
    port = await nursery.start(functools.partial(serve, config, rules=rule_book(Ringing())))
    ann = await connect.machine(port, "ann")
    lobby = await _block(ann, "calls", "help")
    at = lobby.index(RINGING[0])
    assert lobby[at : at + 3] == RINGING
    await ann.send("new 2 ringing")
    await ann.expect("ok", cmd="sit")
    assert await _block(ann, "calls", "help") == RINGING


class Chiming:
    """A variant that is a game of its own for three players only (its deal class is
    asked of each rule set, whose settings say the player count)."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="chiming", kind="variant", summary="a game", players=(2, 3))

    @hookimpl
    def deberc_deal_class(self, settings: Settings) -> object:
        return RingingDeal if settings.players == 3 else None


async def test_calls_are_of_the_tables_rule_set_with_its_player_count(
    nursery: trio.Nursery, db_path: Path, connect: Connector
) -> None:
    """'calls' at a two-player table of a variant, then at a three-player one whose rule
    set is a game of its own: each gets its own (the texts built were kept by variant
    and options only, and the second table was told Deberts's calls: failed before)."""
    config = make_config(db_path)
    port = await nursery.start(functools.partial(serve, config, rules=rule_book(Chiming())))
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 chiming")
    await ann.expect("ok", cmd="sit")
    two = await _block(ann, "calls", "help")
    assert not any("chiming" in line for line in two)
    await ann.send("leave!")
    await ann.expect("ok", cmd="leave")
    await ann.send("new 3 chiming")
    await ann.expect("ok", cmd="sit")
    three = await _block(ann, "calls", "help")
    assert three[0] == "Calls of the game chiming (a plugin's game of its own), in its words:"


class Kontra:
    """A third party's option with a call of its own (docs/plugins.md, "Spoken calls")."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="kontra", kind="option", summary="Say 'kontra': written double.")

    @hookimpl
    def deberc_call_aliases(self) -> dict[str, tuple[str, ...]]:
        return {"kontra": ("контра", "double")}


async def test_calls_of_a_third_partys_option_name_its_words_and_the_option(
    nursery: trio.Nursery, db_path: Path, connect: Connector
) -> None:
    """What 'calls' says of a plugin's call (docs/plugins.md): its words and the option,
    no sentence of its own, which the shipped options have: its summary, in 'rules',
    says what the call does."""
    config = make_config(db_path)
    port = await nursery.start(functools.partial(serve, config, rules=rule_book(Kontra())))
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 kontra")
    await ann.expect("ok", cmd="sit")
    told = await _block(ann, "calls", "help")
    assert told[-2:] == [
        "Calls of this table's options:",
        "  kontra (контра, double)              option kontra",
    ]


async def test_who_and_tables(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("who")
    assert (await ann.expect("who")) == {
        "count": "2",
        "names": "ann,bob",
        "total": "2",
        "page": "1",
        "pages": "1",
    }
    await ann.send("tables")
    assert (await ann.expect("tables"))["count"] == "0"
    await ann.send("new 2 to-301")
    sit = await ann.expect("ok", cmd="sit")
    await bob.send("tables")
    assert (await bob.expect("tables"))["count"] == "1"
    table = await bob.expect("table")
    assert table == {
        "id": sit["table"],
        "players": "2",
        "variant": "moscow",
        "options": "to-301",
        "seats": "ann,-",
        "state": "waiting",
        "observers": "0",
    }
    await bob.send(f"sit {sit['table']}")
    await bob.expect("ok", cmd="sit")
    await bob.expect("event", kind="start")
    await bob.send("tables")
    await bob.expect("tables")
    table = await bob.expect("table")
    assert table["seats"] == "ann,bob" and table["state"] == "playing"
    await ann.send("quit")
    await ann.read_until(lambda x: x.startswith("bye "))
    await ann.wait_closed()
    await bob.send("who")
    assert (await bob.expect("who"))["names"] == "bob"


async def test_rules(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    general = await _block(ann, "rules", "rules")
    assert any(x.startswith("moscow (variant") for x in general)
    assert any(x.startswith("to-301 (option") for x in general)
    await ann.send("new 2 to-301")
    sit = await ann.expect("ok", cmd="sit")
    for command in ("rules", f"rules {sit['table']}"):
        lines = await _block(ann, command, "rules")
        # the target once: to-301's own line says it ('options: to-301, to 301.' twice)
        assert lines[0] == f"Table {sit['table']}: moscow for 2 players, options: to-301.", lines
        assert lines[1].startswith("to-301: The match is played to 301 points"), lines
        clock = lines[-1]
        assert "Clock: 60 s a call for people, 10 s for bots ('clock')" in clock
        assert "3 calls in a row by the clock" in clock and "120 s disconnected" in clock
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    for rules, said in [  # said on the table's line where no option's line says it
        ("", "options: none, to 501."),
        ("posled-20", "options: posled-20, to 501."),
        ("short", "options: short."),  # short's line: 'One deal decides: …'
        ("tertz tertz-501", "options: tertz-501."),
    ]:
        await ann.send(f"new 2 {rules}")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        lines = await _block(ann, "rules", "rules")
        assert lines[0].endswith(f"2 players, {said}"), lines
        assert f"Table {table}: " in lines[0]
        await ann.send("leave")
        await ann.expect("ok", cmd="leave")
    vera = await connect.raw(port, "vera")
    await vera.send("login vera lang=ru")
    await vera.send("new 2 to-301")
    table = (await vera.read_until(lambda x: x.startswith("Вы за столом"))).split()[3]
    await vera.send("rules")
    assert await vera.read_until(lambda x: x.startswith("Стол ")) == (
        f"Стол {table.rstrip(',')}: moscow на двоих, опции: to-301."
    )
    # what players read names no source of the rules ('(seed 004)')
    general += await _block(ann, "rules", "rules")
    assert not [x for x in general if "seed" in x]
    assert any(x.startswith("ski-penalty (option") and "(seed" not in x for x in general)


async def test_rules_say_a_clock_of_part_of_a_second_as_help_clock_does(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """A table's 'rules' said its clocks in whole seconds, cut: a ladder's 1500 ms bot
    clock was '1 s for bots' beside 'help clock''s '1.5 s', and 500 ms was '0 s'."""
    port = await start_server(human_clock_ms=90_500, bot_clock_ms=1500, away_limit_ms=2250)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    clock = (await _block(ann, "rules", "rules"))[-1]
    assert "Clock: 90.5 s a call for people, 1.5 s for bots ('clock')" in clock, clock
    assert "or 2.25 s disconnected" in clock, clock
    said = " ".join(x.strip() for x in await _block(ann, "help clock", "help"))
    assert "(90.5 s a call on this server) or a bot's (1.5 s)" in said, said
    russian = (await _block(ann, "rules lang=ru", "rules"))[-1]
    assert "Часы: 90,5 с на ход людям, 1,5 с ботам" in russian, russian
    assert "или 2,25 с без связи" in russian, russian


async def test_rules_leave_the_target_to_the_table_line(port: int, connect: Connector) -> None:
    """A variant's summary states no target: an option may change it, and the table's
    line says the one played (the moscow line said 'game to 501' at a to-301 table;
    a regex rewrote only Tertz's wording). The list states each variant's own."""
    ann = await connect.machine(port, "ann")
    general = await _block(ann, "rules", "rules")
    assert any(x.startswith("moscow (variant, 2, 3 or 4 players, to 501): ") for x in general)
    assert any(x.startswith("tertz (variant, 2 players, to 500): ") for x in general)
    await ann.send("new 2 to-301")
    await ann.expect("ok", cmd="sit")
    lines = await _block(ann, "rules", "rules")
    [moscow] = [x for x in lines if x.startswith("moscow, where ")]
    assert "501" not in moscow, moscow


async def test_rules_while_observing_describe_the_observed_table(
    port: int, connect: Connector
) -> None:
    """As 'state', 'last' and 'sheet' do (docs/protocol.md §5.9); it listed the lobby's
    variants and options (tryout-s11, 8)."""
    ann = await connect.machine(port, "ann")
    zed = await connect.machine(port, "zed")
    await ann.send("new 2 tertz tertz-501")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await zed.send(f"observe {table}")
    await zed.expect("ok", cmd="observe")
    await zed.expect("info")  # the table waits for players
    watched = await _block(zed, "rules", "rules")
    assert watched == await _block(zed, f"rules {table}", "rules")
    assert watched[0].startswith(f"Table {table}: tertz")


async def test_rules_of_a_tertz_table_describe_tertz_not_moscow(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 tertz tertz-501")
    await ann.expect("ok", cmd="sit")
    lines = await _block(ann, "rules", "rules")
    assert lines[0].startswith("Table ") and "tertz" in lines[0]
    described = [x for x in lines[1:-3] if not x.startswith("  ")]
    assert [x.split(":")[0] for x in described] == ["tertz", "tertz-501"]
    assert not [x for x in lines if "seed" in x or "Moscow rules" in x]
    assert lines[-3].startswith("tertz is not played with the options: bella-after-trick,")
    assert lines[-2].startswith("tertz has no bidding: it refuses every option that needs")


async def test_rules_name_the_options_a_variant_refuses(port: int, connect: Connector) -> None:
    # failed before: docs/rules.md §12.8 said 'rules' lists them; no line did
    ann = await connect.machine(port, "ann")
    general = await _block(ann, "rules", "rules")
    at = next(i for i, x in enumerate(general) if x.startswith("tertz (variant"))
    refused = general[at + 1]
    assert refused.startswith("tertz is not played with the options: ") and "ski-penalty" in refused
    # a third party's option that needs bidding (examples/perezdacha), read off its
    # RuleInfo.needs_bidding: named too (it was only in the sentence below)
    assert "perezdacha" in refused.split(": ")[1].split(", ")
    assert "needs a player who orders" in general[at + 2]
    assert "tertz-501" not in refused  # (Tertz's own)
    await ann.send("new 2 tertz to-301")
    await ann.expect("ok", cmd="sit")
    lines = await _block(ann, "rules", "rules")
    [target] = [x for x in lines if x.startswith("to-301:")]
    assert "instead of 501" not in target and "tertz 500" in target  # failed before


async def test_rules_name_another_games_own_options_as_refused(
    port: int, connect: Connector
) -> None:
    """'rules moscow' named no option, yet 'new 2 moscow tertz-501' is refused: Tertz's
    own options (their requires name the variant tertz) are refused by every other
    game, in the list, by name and at the table (failed before)."""
    ann = await connect.machine(port, "ann")
    for lang, said in (
        ("en", "{} is not played with the options: "),
        ("ru", "{} не играется с опциями: "),
    ):
        for variant in ("moscow", "kharkov"):
            lines = await _block(ann, f"rules {variant} lang={lang}", "rules")
            [refused] = [x for x in lines if x.startswith(said.format(variant))]
            names = set(refused.removesuffix(".").split(": ")[1].split(", "))
            assert names == {"tertz-501", "tertz-swap-until-two"}, lines
    await ann.send("new 2 moscow tertz-501")
    assert "played only with the variant 'tertz'" in (await ann.expect("error"))["text"]
    await ann.send("new 3 kharkov")
    await ann.expect("ok", cmd="sit")
    lines = await _block(ann, "rules", "rules")
    assert "kharkov is not played with the options: tertz-501, tertz-swap-until-two." in lines


class NotWithTertz:
    """A third party's option refusing a variant from its own side (bella-40's way)."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(
            name="bella-40", kind="option", summary="bella counts 40", conflicts=("tertz",)
        )


async def test_rules_name_an_option_that_refuses_the_variant_itself(
    nursery: trio.Nursery, db_path: Path, connect: Connector
) -> None:
    """Only the variant's own conflicts were named: bella-40 (conflicts=("tertz",)) was
    missing from tertz's line, in the list and at a Tertz table (failed before)."""
    config = make_config(db_path)
    port = await nursery.start(functools.partial(serve, config, rules=rule_book(NotWithTertz())))
    ann = await connect.machine(port, "ann")
    general = await _block(ann, "rules", "rules")
    [refused] = [x for x in general if x.startswith("tertz is not played with the options: ")]
    assert {"bella-40", "ski-penalty"} <= set(refused.removesuffix(".").split(": ")[1].split(", "))
    await ann.send("new 2 tertz")
    await ann.expect("ok", cmd="sit")
    [at_table] = [
        x
        for x in await _block(ann, "rules", "rules")
        if x.startswith("tertz is not played with the options: ")
    ]
    assert at_table == refused


class ShortGame:
    """A third party's variant played only with the option short."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="short-game", kind="variant", summary="one deal", requires=("short",))


async def test_a_variant_needing_an_option_is_refused_as_a_variant(
    nursery: trio.Nursery, db_path: Path, connect: Connector
) -> None:
    """'new 2 short-game' was refused "option 'short-game' needs option 'short' too"
    («опции …»): the variant named an option (a review, s42)."""
    config = make_config(db_path)
    port = await nursery.start(functools.partial(serve, config, rules=rule_book(ShortGame())))
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 short-game")
    refused = await ann.expect("error", code="bad-rules")
    assert refused["text"] == "variant 'short-game' needs option 'short' too"
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: x.startswith("Язык"))
    await vera.send("new 2 short-game")
    said = await vera.read_until(lambda x: x.startswith("Ошибка"))
    assert said == "Ошибка (bad-rules): варианту «short-game» нужна и опция «short»"
    await ann.send("new 2 short-game short")
    await ann.expect("ok", cmd="sit")


async def test_say(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    carl = await connect.machine(port, "carl")
    await ann.send("say hello, lobby = everyone")
    for client in (ann, bob, carl):
        said = await client.expect("say")
        assert said == {"from": "ann", "table": "-", "text": "hello, lobby = everyone"}
    await seat_pair(ann, bob)
    await ann.send("say good luck")
    for client in (ann, bob):
        said = await client.expect("say")
        assert said["from"] == "ann" and said["text"] == "good luck" and said["table"] != "-"
    await carl.send("say lobby only")
    assert (await carl.expect("say"))["text"] == "lobby only"
    for client in (ann, bob):  # read all that came before an answer to a later command
        await client.send("who")
        await client.expect("who")
    # table talk stays at the table; lobby talk stays in the lobby
    assert not any("good luck" in x for x in carl.lines)
    assert not any("lobby only" in x for x in ann.lines + bob.lines)


async def test_leave_forfeits_a_running_game(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    table, seat_ann, seat_bob = await seat_pair(ann, bob)
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await ann.read_until(lambda x: x.startswith(("ask ", "state ")))
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    for client in (ann, bob, eve):
        end = await client.expect("event", kind="match-end")
        assert end["reason"] == "left" and end["winner"] == str(seat_bob)
        assert end["name"] == "bob"
    assert seat_ann != seat_bob
    await bob.send("games")  # the match, and who forfeited it
    await bob.expect("games", count="1")
    game = await bob.expect("game")
    assert (game["reason"], game["forfeit"]) == ("left", str(seat_ann)), game
    # asked in another spelling (full width, capitals): told as he is called in his
    # games, not as asked (a hostile tryout, s29); nobody's name as asked
    await eve.send("games \uff21\uff2e\uff2e")
    assert (await eve.expect("games"))["name"] == "ann"
    await eve.send("games Zed")  # nobody: told so, as asked
    assert await eve.expect("error") == {
        "code": "unknown-player",
        "text": "no player called Zed has played here",
    }
    await eve.send("leave")  # the table closes: eve stops watching, or watched no more
    reply = await eve.read_until(lambda x: x.startswith(("ok ", "error ")))
    assert reply.startswith(("ok cmd=leave", "error code=not-seated")), reply
    # both are free again; bob, whom ann left before the first deal ended, seeks
    # first in line if he seeks that game again (a program: docs/protocol.md §5.5)
    for client in (ann, bob):
        await client.send("leave")
        assert (await client.expect("error"))["code"] == "not-seated"
    await seat_pair(ann, eve)  # (bob and ann are kept apart by 'seek' for a while)
    await ann.send("seek 2")
    assert (await ann.expect("error"))["code"] == "already-seated"


async def test_leave_before_the_game_and_unseek(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("seek 2")
    await ann.expect("ok", cmd="seek")
    await ann.send("unseek")
    await ann.expect("ok", cmd="unseek")
    await ann.send("unseek")
    assert (await ann.expect("error"))["code"] == "not-allowed"
    await ann.send("new 2")
    sit = await ann.expect("ok", cmd="sit")
    await ann.send("new 2")
    assert (await ann.expect("error"))["code"] == "already-seated"
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    await ann.send("tables")
    assert (await ann.expect("tables"))["count"] == "0"  # an empty table closes
    await ann.send(f"sit {sit['table']}")
    assert (await ann.expect("error"))["code"] == "unknown-table"


async def test_observe_and_state(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    table, _, _ = await seat_pair(ann, bob)
    await eve.send("state")
    assert (await eve.expect("error"))["code"] == "not-seated"
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    first = await eve.expect("state", table=str(table))
    assert first["hand"] == "" and first["legal"] == "" and first["seat"] == "-"
    await eve.send("state")
    assert (await eve.expect("state"))["seq"] == first["seq"]
    await ann.send(f"observe {table}")
    error = await ann.take(lambda x: x.startswith("error"))  # its ask stays unread
    assert fields(error)[1]["code"] == "already-seated"
    await eve.send("leave")
    await eve.expect("ok", cmd="leave")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1))
        nursery.start_soon(play_machine, bob, random.Random(2))
    await eve.send("who")
    await eve.expect("who")
    assert not any(is_event(x, "match-end") for x in eve.lines)  # it stopped watching


async def test_style_switching(port: int, connect: Connector) -> None:
    client = await connect.raw(port, "ann")
    await client.send("login ann")
    assert (await client.read_until(lambda _: True)).startswith("Hello, ann (guest).")
    await client.send("who")  # after the rest of the welcome (cut to 80 columns)
    assert await client.read_until(lambda x: not x.startswith("  ")) == "1 here: ann"
    await client.send("style machine")
    styled = await client.read_until(lambda _: True)
    assert styled == "ok cmd=style style=machine text=Style machine."
    await client.send("who")
    assert await client.read_until(lambda _: True) == "who count=1 names=ann total=1 page=1 pages=1"
    await client.send("STYLE Human")
    assert await client.read_until(lambda _: True) == "Style human."
    await client.send("sit 7")
    assert await client.read_until(lambda _: True) == "Error (unknown-table): there is no table 7"
    await client.send("observe " + "9" * 900)  # said back in part
    said = await client.read_until(lambda _: True)
    assert said == "Error (unknown-table): there is no table 999999999999…"
    await client.send("style robot")
    assert (await client.read_until(lambda _: True)).startswith("Error (bad-argument)")
    # a seated client switches in the middle of a game and gets its state rendered anew
    bob = await connect.machine(port, "bob")
    await client.send("seek 2")
    await bob.send("seek 2")
    await bob.expect("ok", cmd="sit")
    await client.read_until(lambda x: x.startswith("Your hand:"))
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send("state")
    state = fields(await client.read_until(lambda x: x.startswith(("ask ", "state "))))[1]
    assert len(state["hand"].split(",")) == 6


async def test_help_in_the_human_style_speaks_the_calls(port: int, connect: Connector) -> None:
    """A person reads the calls of the moment as they are said and typed ('J♠', 'ot
    korolya'), not as the machine style's tokens ('Js', 'ot-K')."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    rng = random.Random(5)

    def spoken_differs(line: str) -> bool:  # an ask with a call whose spoken form is not its token
        tag, f = fields(line)  # (and two cards or more: how they are ordered shows)
        legal = f.get("legal", "").split(",")
        cards = [t for t in legal if t[:1] in tuple("789JQKA1")]
        return tag == "ask" and any(spoken_call(t) != t for t in legal) and len(cards) >= 2

    stopped: list[tuple[LineClient, dict[str, str]]] = []
    async with trio.open_nursery() as nursery:
        for client in (ann, bob):

            async def play(client: LineClient = client) -> None:
                line = await play_machine(client, rng, stop=spoken_differs)
                stopped.append((client, fields(line)[1]))
                nursery.cancel_scope.cancel()

            nursery.start_soon(play)
    [(asked, ask)] = stopped
    await asked.send("style human")
    await asked.read_until(lambda x: x == "Style human.")
    await asked.send("state")
    hand = _cards_shown(await asked.read_until(lambda x: x.startswith("Your hand: ")))
    await asked.send("help")
    said = [await asked.read_until(lambda x: x.startswith("Your table calls now: "))]
    while not (line := await asked.read_until(lambda _: True)).startswith("'calls' explains"):
        said.append(line.strip())  # a long list wraps at 80 columns
    tokens = ask["legal"].split(",")
    # as the prompt ('Your call') offers them: the talk, then the cards as one option in
    # the order the hand is shown (it listed each card alone, in legal= order)
    cards = sorted((spoken_call(t) for t in tokens if spoken_call(t) in hand), key=hand.index)
    talk = [spoken_call(t) for t in tokens if spoken_call(t) not in hand]
    options = talk + ([", ".join(cards)] if cards else [])
    assert " ".join(said) == "Your table calls now: " + " | ".join(options)
    assert any(spoken_call(t) not in tokens for t in tokens)


def _cards_shown(line: str) -> list[str]:
    """The cards of a 'Your hand: ♠ 7 9 J  ♥ 10 A' line, in the order shown."""
    cards, suit = [], ""
    for word in line.removeprefix("Your hand: ").split():
        if word in "♠♥♦♣":
            suit = word
        else:
            cards.append(word + suit)
    return cards


async def test_rules_at_a_variants_table_say_what_it_changes_before_the_builtins_words(
    port: int, connect: Connector
) -> None:
    """docs/protocol.md §5.9: at a Kharkov table with an option, the variant's line and
    the option's come first and Moscow's summary last, as what they leave of it (it
    came first, unqualified: its 'equal combinations … then to trump' read as the
    table's rules before Kharkov's line said otherwise)."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 kharkov posled-20")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    lines = await _block(ann, "rules", "rules")
    assert lines[0].startswith(f"Table {table}: kharkov for 2 players, options: posled-20, to 501.")
    assert lines[1].startswith("kharkov: Kharkov rules: as Moscow, but "), lines
    assert lines[2].startswith("posled-20: The last trick counts 20 points"), lines
    base = "moscow, where the lines above do not change it: Moscow rules: bidding on the turned"
    assert lines[3].startswith(base), lines
    # (Tertz's own options, refused here, before the clock: §5.9)
    assert lines[4].startswith("kharkov is not played with the options: tertz-501"), lines
    assert lines[5].startswith("Clock: ") and len(lines) == 6, lines
    # a table of the builtin alone says its words plainly, once
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    lines = await _block(ann, "rules", "rules")
    assert lines[1].startswith("moscow: Moscow rules: ") and len(lines) == 4, lines
