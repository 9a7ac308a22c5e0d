"""What a person is told of whom the table waits for, and why, over real sockets (a
black-box tryout over nc, s46): a rost? the declarer's partner answers for the pair
(docs/rules.md §8) shown to every seat and watcher in the human style, not only to
the answerer; four sevens held while another is to act, which may be shown now, out of
turn (docs/rules.md §2), told to their holder, and so is a rule plugin's call legal out
of turn (s50). Scripted deals (the server's ``match_seed``, docs/settings.md)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest

from .client import LineClient, fields
from .conftest import Connector
from .human import said_whole

StartServer = Callable[..., Awaitable[int]]


async def _seated(connect: Connector, port: int, names: tuple[str, ...]) -> list[LineClient]:
    """People at one new table, seated in ``names``' order (the first opened it)."""
    people = [await connect.human(port, name) for name in names]
    await people[0].send(f"new {len(names)}")
    sat = await people[0].read_until(lambda x: x.startswith("You sit at table"))
    table = int(re.findall(r"\d+", sat)[0])
    for person in people[1:]:
        await person.send(f"sit {table}")
        await person.read_until(lambda x: x.startswith("You sit at table"))
    return people


async def test_a_rost_the_partner_answers_is_told_to_every_seat_and_watcher(
    start_server: StartServer, connect: Connector
) -> None:
    """pa orders and declares a terts; pb asks rost?, which pc answers for the pair with
    his better terts. pa, pb and pd saw only "pb: rost?", and pa's own "ot tuza" was
    refused as waiting for pc: each is now shown the question and whom the table waits
    for (a Russian seat in Russian), a human-style watcher too; a machine-style
    watcher's lines are as before (the call's event only)."""
    port = await start_server(match_seed="q3106")
    pa, pb, pc, pd = await _seated(connect, port, ("pa", "pb", "pc", "pd"))
    await pd.send("lang ru")
    await pd.read_until(lambda x: x.startswith("Язык"))
    table = 1
    eve = await connect.human(port, "eve")
    await eve.send(f"observe {table}")
    bot = await connect.machine(port, "bot")
    await bot.send(f"observe {table}")
    await bot.expect("ok", cmd="observe")
    for word in ("igrayu", "terts", "7s"):
        await pa.read_until(lambda x: x.startswith("Your call"))
        await pa.send(word)
    await pb.read_until(lambda x: x.startswith("Your call") and "rost?" in x)
    await pb.send("rost?")
    await pc.read_until(lambda x: "you answer for the pair" in x)
    for person in (pa, pb, eve):
        await person.read_until(lambda x: x == "pb: rost?")
        told = await person.read_until(lambda x: "(rost?)" in x)
        assert "pc answers for the pair" in told, told
        await person.read_until(lambda x: x == "Waiting for pc.")
    await pd.read_until(lambda x: x == "pb: рост?")
    await pd.read_until(lambda x: "(«рост?»): за пару отвечает" in x)
    await pd.read_until(lambda x: x.startswith("  pc своей комбинацией"))
    await pd.read_until(lambda x: x == "Ход игрока pc.")
    said = await bot.read_until(lambda x: x.startswith("event ") and "call=rost?" in x)
    assert fields(said)[1]["seat"] == "1"
    assert not [x for x in await bot.caught_up() if x.startswith("state ")]


@pytest.mark.parametrize(
    ("lang", "waiting", "hint", "said"),
    [
        (
            "en",
            "Waiting for sb.",
            "You may say chetyre semerki now, out of turn: the deal is dealt again.",
            "sa: chetyre semerki",
        ),
        (
            "ru",
            "Ход игрока sb.",
            "Можно сказать «четыре семёрки» сейчас, не в свой ход: раздачу сдадут заново.",
            "sa: четыре семёрки",
        ),
    ],
    ids=["en", "ru"],
)
async def test_four_sevens_held_while_another_bids_are_offered_out_of_turn(
    start_server: StartServer, connect: Connector, lang: str, waiting: str, hint: str, said: str
) -> None:
    """sa holds the four sevens and sb bids first: sa was shown only whom the table
    waits for, with no word that he may show them now (docs/rules.md §2: "even out of
    turn"), which no prompt of his offers. He is told, in his language, and nobody
    else is; what he is told works."""
    port = await start_server(match_seed="s3724")
    sa = await connect.human(port, "sa")
    if lang == "ru":
        await sa.send("lang ru")
        await sa.read_until(lambda x: x.startswith("Язык"))
    sb = await connect.human(port, "sb")
    await sa.send("new 2")
    await sa.read_until(lambda x: x.startswith(("You sit at table", "Вы за столом")))
    await sb.send("sit 1")
    await sa.read_until(lambda x: x == waiting)
    assert await sa.read_until(lambda _: True) == hint
    await sb.read_until(lambda x: x.startswith("Your call"))
    await sa.send("state")
    await sa.read_until(lambda x: x == waiting)
    assert await sa.read_until(lambda _: True) == hint
    await sa.send(hint.split("«")[1].split("»")[0] if lang == "ru" else "chetyre semerki")
    await sa.read_until(lambda x: x == said)
    told = await sb.read_until(lambda x: x.startswith("sa:"))
    assert told == "sa: chetyre semerki"
    assert not [x for x in sb.lines if "out of turn" in x]


@pytest.mark.parametrize(
    ("lang", "passed"),
    [
        (
            "en",
            "A table waiting for this game is passed over: you and a player there were in a"
            " match one of you left early, and 'seek' does not pair you again for 10 min"
            " more. You wait for another player meanwhile, or 'new' opens a table of your"
            " own.",
        ),
        (
            "ru",
            "Стол, который ждёт эту партию, пропущен: вы с одним из его игроков были в"
            " партии, которую кто-то из вас рано покинул, и seek не сведёт вас ещё 10 мин."
            " Вы ждёте другого игрока — или откройте свой стол: new.",
        ),
    ],
    ids=["en", "ru"],
)
async def test_a_seek_passing_a_table_by_for_a_recent_leave_says_so(
    start_server: StartServer, connect: Connector, lang: str, passed: str
) -> None:
    """bob left ann's match at once; ann opens a table of the same game and bob seeks
    it: matchmaking keeps them apart for 10 min (docs/protocol.md §5.5) and bob was told
    only "Waiting for a 2-player moscow game.", as if no table waited. He is told the
    table is passed over and for how long, not by whom; a program's seek is answered as
    before."""
    port = await start_server()
    ann = await connect.human(port, "ann")
    bob = await connect.human(port, "bob")
    if lang == "ru":
        await bob.send("lang ru")
        await bob.read_until(lambda x: x.startswith("Язык"))
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith("You sit at table"))
    await bob.send("sit 1")
    await ann.read_until(lambda x: x.startswith("The game starts"))
    await bob.send("leave!")
    await ann.read_until(lambda x: x.startswith("Game over"))
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith("You sit at table"))
    await bob.send("seek 2")
    await bob.read_until(lambda x: x.startswith(("Waiting for a moscow game", "Ждём партию")))
    assert await said_whole(bob) == passed
    assert "ann" not in passed
    cat = await connect.machine(port, "cat")  # a program: kept apart from ann alike
    await cat.send("sit 2")
    await cat.expect("ok", cmd="sit")
    await cat.send("leave!")
    await cat.expect("ok", cmd="leave")
    await ann.read_until(lambda x: x.startswith("Game over"))
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith("You sit at table 3"))
    await cat.send("seek 2")
    await cat.expect("ok", cmd="seek")
    assert not [x for x in await cat.caught_up() if x.startswith("info ")]


async def _person_from(port: int, connect: Connector, name: str, source: str) -> LineClient:
    """A person (the human style) logged in from the address ``source``."""
    person = await connect.raw(port, name, source)
    await person.send(f"login {name}")
    await person.read_until(lambda x: x.startswith(f"Hello, {name}"))
    return person


async def _left_twice_from(port: int, connect: Connector, ann: LineClient, source: str) -> None:
    """Two names from ``source`` each sit at a table ann opens and leave its match at
    once: matchmaking keeps that address apart from her (docs/protocol.md §5.5)."""
    for n in (1, 2):
        await ann.send("new 2")
        sat = await ann.read_until(lambda x: x.startswith("You sit at table"))
        grief = await connect.machine(port, f"grief{n}", source=source)
        await grief.send(f"sit {re.findall(r'[0-9]+', sat)[0]}")
        await grief.expect("ok", cmd="sit")
        await ann.read_until(lambda x: x.startswith("The game starts"))
        await grief.send("leave!")
        await ann.read_until(lambda x: x.startswith("Game over"))


@pytest.mark.parametrize(
    ("lang", "passed"),
    [
        (
            "en",
            "A table waiting for this game is passed over: two players from your address"
            " (one address may be a whole household or network) left a match of a player"
            " there early, and 'seek' keeps your address apart from him for 10 min more."
            " You wait for another player meanwhile, or 'new' opens a table of your own.",
        ),
        (
            "ru",
            "Стол, который ждёт эту партию, пропущен: двое с вашего адреса (за одним адресом"
            " бывает целая семья или сеть) рано покинули партию одного из его игроков, и"
            " seek не сводит его с вашим адресом ещё 10 мин. Вы ждёте другого игрока — или"
            " откройте свой стол: new.",
        ),
    ],
    ids=["en", "ru"],
)
async def test_a_seek_passed_over_for_its_own_address_says_so_plainly(
    start_server: StartServer, connect: Connector, lang: str, passed: str
) -> None:
    """Two names from carl's address left ann's matches at once; carl, who left nobody,
    seeks her game: kept apart from her by that address. He was told a match was left
    "between you and someone there" (s47): now the rule, his address's part in it and
    what he may do, not whom."""
    port = await start_server()
    ann = await connect.human(port, "ann")
    await _left_twice_from(port, connect, ann, "127.0.0.5")
    carl = await _person_from(port, connect, "carl", "127.0.0.5")
    if lang == "ru":
        await carl.send("lang ru")
        await carl.read_until(lambda x: x.startswith("Язык"))
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith("You sit at table"))
    await carl.send("seek 2")
    await carl.read_until(lambda x: x.startswith(("Waiting for a moscow game", "Ждём партию")))
    assert await said_whole(carl) == passed


async def test_a_seek_passed_over_for_the_others_address_says_so_plainly(
    start_server: StartServer, connect: Connector
) -> None:
    """The other way round: ann seeks, and carl's table waits; two who left her matches
    came from carl's address."""
    port = await start_server()
    ann = await connect.human(port, "ann")
    await _left_twice_from(port, connect, ann, "127.0.0.5")
    carl = await _person_from(port, connect, "carl", "127.0.0.5")
    await carl.send("new 2")
    await carl.read_until(lambda x: x.startswith("You sit at table"))
    await ann.send("seek 2")
    await ann.read_until(lambda x: x.startswith("Waiting for a moscow game"))
    assert await said_whole(ann) == (
        "A table waiting for this game is passed over: a player there comes from the"
        " address of two players who left your matches early, and 'seek' keeps that"
        " address apart from you for 10 min more. You wait for another player meanwhile,"
        " or 'new' opens a table of your own."
    )


# a seek passed over beside a table of someone a leave keeps him apart from, in English
PASSED_FOR_A_LEAVE = (
    "A table waiting for this game is passed over: you and a player there were in a"
    " match one of you left early, and 'seek' does not pair you again for 10 min"
    " more. You wait for another player meanwhile, or 'new' opens a table of your"
    " own."
)


async def _ann_left_bobs_match(
    start_server: StartServer, connect: Connector
) -> tuple[int, LineClient, LineClient]:
    """ann opens a 2-player table, bob sits, ann leaves it at once: the port, ann, bob."""
    port = await start_server()
    ann = await connect.human(port, "ann")
    bob = await connect.human(port, "bob")
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith("You sit at table"))
    await bob.send("sit 1")
    await bob.read_until(lambda x: x.startswith("The game starts"))
    await ann.send("leave!")
    await bob.read_until(lambda x: x.startswith("Game over"))
    return port, ann, bob


async def test_a_seek_given_back_that_passes_a_table_by_says_why_once(
    start_server: StartServer, connect: Connector
) -> None:
    """ann left bob's match, and her table of his game waits; grief opens another, where
    bob's seek seats him, and leaves it in the first deal. bob's seek is given back,
    first in line (docs/protocol.md §5.5), beside ann's table: he was told only that he
    waits again (s47). He is told why that table is passed over, once."""
    port, ann, bob = await _ann_left_bobs_match(start_server, connect)
    await ann.send("new 2")
    await ann.read_until(lambda x: x.startswith("You sit at table 2"))
    await bob.send("seek 2")
    await bob.read_until(lambda x: x.startswith("Waiting for a moscow game"))
    await said_whole(bob, ("A table waiting for this game is passed over",))
    grief = await connect.machine(port, "grief")
    await grief.send("new 2")
    await grief.expect("ok", cmd="sit")
    await grief.expect("event", kind="start")
    await grief.send("leave!")
    await grief.expect("ok", cmd="leave")
    await bob.read_until(lambda x: x.startswith("grief left before the first deal ended"))
    passed = await said_whole(bob, ("A table waiting for this game",))
    assert passed == PASSED_FOR_A_LEAVE
    mark = bob.pos  # (what came since, before the answer to a 'ping': §2.3)
    await bob.send("ping")
    await bob.read_until(lambda x: x == "pong")
    assert [x for x in bob.lines[mark:] if "passed over" in x] == []  # once


async def test_a_seeker_waiting_when_a_table_he_is_kept_from_opens_is_told_why_once(
    start_server: StartServer, connect: Connector
) -> None:
    """ann left bob's match; bob seeks, nothing waits yet; then ann opens a table of his
    game. It passes his seek by (docs/protocol.md §5.5) and he was told nothing: his
    own seek and a seek given back say why, a table opened beside a waiting seek did
    not (s47). He is told why, once: not again as its seat comes free again."""
    port, ann, bob = await _ann_left_bobs_match(start_server, connect)
    await bob.send("seek 3")
    await bob.read_until(lambda x: x.startswith("Waiting for a moscow game for 3"))
    mark = bob.pos
    await ann.send("new 3")
    await ann.read_until(lambda x: x.startswith("You sit at table 2"))
    passed = await said_whole(bob, ("A table waiting for this game",))
    assert passed == PASSED_FOR_A_LEAVE
    # carl sits at ann's table and leaves it before it starts: its seat free again,
    # the table is offered to the seekers again, bob passed by again, not told again
    carl = await connect.machine(port, "carl")
    await carl.send("sit 2")
    await carl.expect("ok", cmd="sit")
    await carl.send("leave")
    await carl.expect("ok", cmd="leave")
    await ann.read_until(lambda x: x.startswith("carl leaves seat"))
    await bob.send("ping")
    await bob.read_until(lambda x: x == "pong")
    assert len([x for x in bob.lines[mark:] if "passed over" in x]) == 1


@pytest.mark.parametrize(
    ("lang", "asked", "waiting", "hint", "word"),
    [
        (
            "en",
            "Your call",
            "Waiting for {name}.",
            "You may say perezdacha now, out of turn.",
            "perezdacha",
        ),
        (
            "ru",
            "Ваш ход",
            "Ход игрока {name}.",
            "Можно сказать «пересдача» сейчас, не в свой ход.",
            "пересдача",
        ),
    ],
    ids=["en", "ru"],
)
async def test_a_rule_plugins_call_legal_out_of_turn_is_offered_to_its_holder(
    start_server: StartServer,
    connect: Connector,
    lang: str,
    asked: str,
    waiting: str,
    hint: str,
    word: str,
) -> None:
    """examples/perezdacha: the dealer who ordered may call the redeal while the leader
    is to act (docs/plugins.md, deberc_extra_calls). A tryout's plugin call so legal
    (s50: kontra, a defender's before the first card) was told to its holder nowhere:
    his state showed only whom the table waited for, while a program's legal= listed
    it. He is told, in his language, and the leader is not; what he is told works."""
    port = await start_server(match_seed="s50-perezdacha")
    people = [await connect.human(port, name) for name in ("pa", "pb")]
    for person in people:
        if lang == "ru":
            await person.send("lang ru")
            await person.read_until(lambda x: x.startswith("Язык"))
    await people[0].send("new 2 perezdacha")
    sat = await people[0].read_until(lambda x: x.startswith(("You sit at table", "Вы за столом")))
    table = re.findall(r"\d+", sat)[0]
    await people[1].send(f"sit {table}")
    first_line = await people[0].read_until(
        lambda x: x.startswith(asked) or x.startswith(waiting.format(name="pb"))
    )
    first, dealer = people if first_line.startswith(asked) else people[::-1]
    await first.send("pas")
    await dealer.read_until(lambda x: x.startswith(asked))
    await dealer.send("igrayu")
    await dealer.read_until(lambda x: x == waiting.format(name=first.label))
    assert await dealer.read_until(lambda _: True) == hint
    await first.read_until(lambda x: x.startswith(asked))
    assert not [x for x in first.lines if "out of turn" in x or "не в свой ход" in x]
    await dealer.send(word)
    told = await first.read_until(lambda x: x.startswith(f"{dealer.label}:"))
    assert told == f"{dealer.label}: {word}"
