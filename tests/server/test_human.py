"""The human style as people read it (issue #13): whole matches played over real sockets
by clients that read every line as a person would see it in an 80-column terminal."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
import trio

from .client import LineClient, fields, is_event, play_human
from .conftest import Connector
from .human import without_tokens

StartServer = Callable[..., Awaitable[int]]

NAMES = ("anna", "boris", "vera", "gleb")
LATIN_CARD = re.compile(r"(?<![\w-])(?:10|[789JQKA])[shdc](?![\w])")
RANK_ORDER = ("7", "8", "9", "10", "J", "Q", "K", "A")


async def seat_people(
    port: int, connect: Connector, players: int, settings: str
) -> list[LineClient]:
    """``players`` people seek the same game and are seated at one table."""
    people = [await connect.human(port, name) for name in NAMES[:players]]
    for person in people:
        await person.send(f"seek {players} {settings}")
    for person in people:
        await person.read_until(lambda line: line.startswith("You sit at table"))
    return people


async def play_match(people: list[LineClient]) -> None:
    async with trio.open_nursery() as nursery:
        for person in people:
            nursery.start_soon(play_human, person, 20)


async def next_said(client: LineClient) -> str:
    """The next line that starts something (not the rest of a line cut to 80 columns)."""
    return await client.read_until(lambda line: not line.startswith("  "))


def suit_groups(hand_line: str) -> list[list[str]]:
    """'Your hand: ♠ 7 9 J  ♥ 10 A' -> [['7', '9', 'J'], ['10', 'A']]."""
    groups = hand_line.removeprefix("Your hand: ").split("  ")
    return [group.split()[1:] for group in groups]


@pytest.mark.parametrize(("players", "settings"), [(2, "to-301"), (3, "to-301"), (4, "to-301")])
async def test_whole_matches_fit_80_columns_in_one_notation(
    port: int, connect: Connector, players: int, settings: str
) -> None:
    people = await seat_people(port, connect, players, settings)
    await play_match(people)
    for person in people:
        lines = person.lines
        assert lines[-1].startswith("Game over:") or any(x.startswith("Game over:") for x in lines)
        too_wide = [x for x in lines if len(x) > 80]
        assert too_wide == [], too_wide[:3]
        latin = [x for x in lines if LATIN_CARD.search(without_tokens(x))]
        assert latin == [], latin[:3]  # cards are 10♥ J♠ everywhere, never 10h Js
        assert not any("Fresa: -" in x for x in lines)
        assert not any(re.search(r"\bseat \d+'s turn", x) for x in lines)
        # the deal is announced once (with its turned card), not again by every request
        assert not any(x.startswith("Table ") and ", deal " in x for x in lines)
        deals = [x for x in lines if re.match(r"Deal \d+\. ", x)]
        numbers = [int(x.split()[1].rstrip(".")) for x in deals]
        assert numbers == sorted(set(numbers)) and numbers[0] == 1
        assert all(" turns " in x for x in deals)
        # by default the hand is in rank order, 7 8 9 10 J Q K A, in each suit
        hands = [x for x in lines if x.startswith("Your hand: ")]
        assert hands
        for hand in hands:
            for ranks in suit_groups(hand):
                assert ranks == sorted(ranks, key=RANK_ORDER.index), hand


async def test_four_players_are_told_who_partners_whom(port: int, connect: Connector) -> None:
    people = await seat_people(port, connect, 4, "to-301")
    start = await people[0].read_until(lambda line: line.startswith("The game starts"))
    seated = {}
    for line in people[0].lines:
        if m := re.fullmatch(r"(\w+) sits at seat (\d)\.", line):
            seated[int(m.group(2))] = m.group(1)
        elif m := re.match(r"You sit at table \d+, seat (\d)\.", line):  # (not of himself)
            seated[int(m.group(1))] = NAMES[0]
    assert len(seated) == 4, people[0].lines
    assert start == (
        f"The game starts: {seated[0]} and {seated[2]} against {seated[1]} "
        f"and {seated[3]} (partners sit opposite)."
    )


async def test_three_players_play_each_for_himself(port: int, connect: Connector) -> None:
    people = await seat_people(port, connect, 3, "to-301")
    start = await people[0].read_until(lambda line: line.startswith("The game starts"))
    # (it read 'anna v boris v vera' in a tryout, s27)
    assert re.fullmatch(r"The game starts: \w+, \w+ and \w+, each for himself\.", start)


async def test_sort_strength_and_back_to_rank(port: int, connect: Connector) -> None:
    anna = await connect.human(port, "anna")
    await anna.send("sort")
    assert await next_said(anna) == "Error (bad-argument): sort rank|strength"
    await anna.send("sort strength")
    assert await next_said(anna) == "Your hand is shown by strength."
    boris = await connect.human(port, "boris")
    for person in (anna, boris):
        await person.send("seek 2")
    by_strength = await anna.read_until(lambda line: line.startswith("Your hand: "))
    await anna.send("sort rank")
    assert await anna.read_until(lambda line: line.startswith("Your hand is")) == (
        "Your hand is shown by rank."
    )
    await anna.send("state")
    by_rank = await anna.read_until(lambda line: line.startswith("Your hand: "))
    # the same cards, in rank order now; in strength order a 10 comes after the K
    assert sorted(by_rank.split()) == sorted(by_strength.split())
    for ranks in suit_groups(by_rank):
        assert ranks == sorted(ranks, key=RANK_ORDER.index)
    strength = ("7", "8", "9", "J", "Q", "K", "10", "A")  # plain suits (trump not named yet)
    for ranks in suit_groups(by_strength):
        assert ranks == sorted(ranks, key=strength.index), by_strength
    # the machine style is not touched by it
    bot = await connect.machine(port, "bot")
    await bot.send("sort strength")
    await bot.expect("ok", cmd="sort", sort="strength")


async def test_state_on_request_tells_the_whole_table(port: int, connect: Connector) -> None:
    anna, _boris = await seat_people(port, connect, 2, "")
    await anna.read_until(lambda line: line.startswith("Your hand: "))
    await anna.send("state")
    header = await anna.read_until(lambda line: line.startswith("Table "))
    assert re.fullmatch(r"Table \d+, deal 1\. Dealer: \w+\. Score: \w+ 0, \w+ 0\.", header)
    turned = await anna.read_until(lambda _: True)
    assert re.fullmatch(
        r"Turned card: (10|[789JQKA])[♠♥♦♣] — first trump would be [♠♥♦♣]\. "
        r"Bidding round 1\.",
        turned,
    )


async def test_a_refusal_names_the_player_whose_turn_it_is(port: int, connect: Connector) -> None:
    anna, boris = await seat_people(port, connect, 2, "")
    waiting = None
    for person in (anna, boris):
        await person.send("state")
    for person, other in ((anna, boris), (boris, anna)):
        line = await person.read_until(
            lambda x: x.startswith("Your call") or x.startswith("Waiting for ")
        )
        if line.startswith("Waiting for "):
            waiting, turn = person, other
    assert waiting is not None
    await waiting.send("pas")
    error = await waiting.read_until(lambda x: x.startswith("Error"))
    assert error == f"Error (not-your-turn): it is {turn.label}'s turn to bid"


async def test_a_player_back_after_a_drop_is_told_the_talk_so_far(
    port: int, connect: Connector
) -> None:
    """The tryout's: back at the table (docs/protocol.md §12) a person was shown deal,
    dealer, score, trump and trick, not who had said what in the deal."""
    anna = await connect.raw(port, "anna")
    await anna.send("login anna secret-1")
    await anna.read_until(lambda line: line.startswith("Hello, anna"))
    boris = await connect.machine(port, "boris")
    for client in (anna, boris):
        await client.send("seek 2")
    await boris.read_until(lambda line: is_event(line, "deal"))
    tag, asked = fields(await boris.read_until(lambda line: line.startswith(("ask", "state"))))
    if tag == "ask":  # the first to bid orders the game
        await boris.send(f"igrayu seq={asked['seq']}")
    else:
        await anna.read_until(lambda line: line.startswith("Your call"))
        await anna.send("igrayu")
    order = fields(await boris.read_until(lambda line: is_event(line, "order")))[1]
    player = "boris" if tag == "ask" else "anna"
    assert order["player"] == asked["to_act"]
    await anna.aclose()
    await boris.read_until(lambda line: is_event(line, "away"))
    back = await connect.raw(port, "anna")
    await back.send("login anna secret-1")
    assert await back.read_until(lambda line: line.startswith("Talk: ")) == f"Talk: {player} igrayu"
    trump = next(x for x in back.lines if x.startswith("Trump: "))
    assert re.fullmatch(rf"Trump: [♠♥♦♣] \({player} plays\)\. Turned: \S+\. Fresa: \S+\.", trump)


async def test_the_away_notice_says_how_long_the_seat_is_held(
    start_server: StartServer, connect: Connector
) -> None:
    """'dan2 is disconnected; the seat waits and the clock runs.' said not for how long
    (the web page says it): the table's own away limit (docs/protocol.md §12)."""
    port = await start_server(away_limit_ms=90_000)
    anna, boris = await seat_people(port, connect, 2, "")
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda line: line == "Язык: русский.")
    table = re.search(r"table (\d+)", next(x for x in anna.lines if x.startswith("You sit")))
    assert table is not None
    await vera.send(f"observe {table.group(1)}")
    await vera.read_until(lambda line: line.startswith("Вы смотрите"))
    await boris.aclose()
    assert await anna.read_until(lambda line: line.startswith("boris is")) == (
        "boris is disconnected; the seat is held 90 s and the clock runs."
    )
    assert await vera.read_until(lambda line: line.startswith("boris: связь")) == (
        "boris: связь потеряна; место ждёт 90 с, часы идут."
    )


async def test_state_says_who_is_away_from_the_running_match(
    start_server: StartServer, connect: Connector
) -> None:
    """A player back at his seat, or asking 'state', read "Waiting for boris." of a
    boris gone a minute before, and only 'tables' said he was away (a tryout, s46): a
    person's whole view names the players away, how long each seat is still held, and
    that the clock runs. A program's view is as it was: it reads the away events."""
    port = await start_server(away_limit_ms=90_000)
    anna, boris = await seat_people(port, connect, 2, "")
    table = re.search(r"table (\d+)", next(x for x in anna.lines if x.startswith("You sit")))
    assert table is not None
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda line: line == "Язык: русский.")
    cat = await connect.machine(port, "cat")
    await boris.aclose()
    await anna.read_until(lambda line: line.startswith("boris is disconnected"))
    await anna.send("state")
    assert re.fullmatch(
        r"Disconnected, the seat held and the clock running: boris \((90|89|88) s left\)\.",
        await anna.read_until(lambda line: line.startswith("Disconnected")),
    )
    await vera.send(f"observe {table.group(1)}")  # a watcher joining now, in Russian
    assert re.fullmatch(
        r"Нет связи \(место ждёт, часы идут\): boris \(осталось \d+ с\)\.",
        await vera.read_until(lambda line: line.startswith("Нет связи")),
    )
    await cat.send(f"observe {table.group(1)}")
    await cat.send("ping")
    await cat.expect("ok", cmd="ping")
    assert not [x for x in cat.lines if x.startswith("info ")]  # the machine style: as ever


async def test_a_watcher_of_two_tables_is_told_who_is_away_too(
    start_server: StartServer, connect: Connector
) -> None:
    """The players away named after the whole view (above) reached a watcher of one
    table only: one watching a second table as well, whose lines say which table they
    are of, was shown the view and not who is away, which 'observe' promises
    (docs/protocol.md §12; a read-back, s46)."""
    port = await start_server(away_limit_ms=90_000)
    anna, boris = await seat_people(port, connect, 2, "")
    table = re.search(r"table (\d+)", next(x for x in anna.lines if x.startswith("You sit")))
    assert table is not None
    olga = await connect.human(port, "olga")  # a second table, waiting
    await olga.send("new 3")
    other = await olga.read_until(lambda line: line.startswith("You sit at table"))
    second = re.findall(r"\d+", other)[0]
    vera = await connect.human(port, "vera")
    await vera.send(f"observe {second}")
    await vera.read_until(lambda line: "waits for players" in line)
    await boris.aclose()
    await anna.read_until(lambda line: line.startswith("boris is disconnected"))
    await vera.send(f"observe {table.group(1)}")
    assert re.fullmatch(
        rf"\[table {table.group(1)}\] Disconnected, the seat held and the clock running:"
        r" boris \(\d+ s left\)\.",
        await vera.read_until(lambda line: "Disconnected" in line),
    )


async def test_tables_tells_a_running_matchs_deal_and_score(port: int, connect: Connector) -> None:
    """'Table 38: moscow for 2 players, playing: anna, boris': no deal number nor score,
    which the web index shows."""
    anna, _boris = await seat_people(port, connect, 2, "to-301")
    await anna.read_until(lambda line: line.startswith("Deal 1."))
    vera = await connect.human(port, "vera")
    await vera.send("tables")
    listed = await vera.read_until(lambda line: line.startswith("Table "))
    assert re.fullmatch(
        r"Table \d+: moscow for 2 players, to-301, playing deal 1:"
        r" (anna 0, boris 0|boris 0, anna 0)",
        listed,
    )
    await vera.send("lang ru")
    await vera.send("tables")
    listed = await vera.read_until(lambda line: line.startswith("Стол "))
    assert re.fullmatch(
        r"Стол \d+: moscow на двоих, to-301, играют, раздача 1: \w+ 0, \w+ 0", listed
    )


async def test_finger_of_nobody_says_no_player_of_that_name(port: int, connect: Connector) -> None:
    """'finger nobody' read 'nobody called nobody has played here' (and 'invite nobody'
    'nobody called nobody is here')."""
    anna = await connect.human(port, "anna")
    await anna.send("finger nobody")
    assert await anna.read_until(lambda x: x.startswith("Error")) == (
        "Error (unknown-player): no player called nobody has played here"
    )


async def test_the_resume_login_to_copy_is_never_cut_across_lines(
    port: int, connect: Connector
) -> None:
    """'login eve token=…' was wrapped onto two lines (a tryout, s28): copied, half a
    command. Whatever the name's length, it stays on one line, every line in 80."""
    for name in ("ev", "eve", "evelina", "evangelina_long", "e" * 20, "евангелина"):
        person = await connect.raw(port, name)
        await person.send(f"login {name}")
        await person.read_until(lambda x: "drops." in x)
        told = [x for x in person.lines if "token=" in x]
        assert len(told) == 1 and re.search(rf"'login {name} token=[\w-]+'", told[0]), told
        assert all(len(x) <= 80 for x in person.lines)


async def test_one_who_sits_is_told_it_once_in_his_words(port: int, connect: Connector) -> None:
    # (he was told 'You sit at table 1, seat 0.' and then 'anna sits at seat 0.')
    anna = await connect.human(port, "anna")
    await anna.send("new 2 to-301")
    await anna.read_until(lambda line: line.startswith("You sit at table"))
    bot = await connect.machine(port, "robo")  # a program is told its own event as ever
    await bot.send("sit 1")
    await bot.expect("ok", cmd="sit")
    seated = await bot.expect("event", kind="seated")
    assert (seated["name"], seated["seat"]) == ("robo", "1")
    await anna.read_until(lambda line: line == "robo sits at seat 1.")  # the others are
    assert not [line for line in anna.lines if line.startswith("anna sits at seat")]
