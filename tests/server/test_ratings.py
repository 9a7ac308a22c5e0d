"""Ratings for people over real sockets: a rated match moves 'top' and 'finger'; guests
and private tables are not rated, house bots only when asked for so, nor a match one
player left before making a call (an abort), nor one both players left (abandoned); at
three players a forfeiter ranks below the player who stayed, whatever the totals."""

from __future__ import annotations

import random
import sys
from collections.abc import Awaitable, Callable

import pytest
import trio
from trio.testing import MockClock

from deberc_net.server.house import HouseBots

from .client import BOT_START_S, LineClient, fields, is_event, next_ask, play_machine
from .conftest import Connector

Register = Callable[[str, str], Awaitable[None]]


async def _registered_pair(
    port: int, connect: Connector, register: Register
) -> tuple[LineClient, LineClient]:
    """ann and bob, registered and logged in with their passwords (a match of theirs at
    a public table is rated)."""
    await register("ann", "pw-ann-1")
    await register("bob", "pw-bob-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    bob = await connect.machine(port, "bob", "pw-bob-1")
    return ann, bob


async def _play(ann: LineClient, bob: LineClient, settings: str = "2 short") -> dict[str, str]:
    """A match of ann and bob at a new table (ann invites bob if it is private); its
    match-end fields."""
    await ann.send(f"new {settings}")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    if "private" in settings:
        await ann.send(f"invite {bob.label}")
        await ann.expect("ok", cmd="invite")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    ends: list[str] = []

    async def play(client: LineClient, seed: int) -> None:
        ends.append(await play_machine(client, random.Random(seed)))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, ann, 1)
        nursery.start_soon(play, bob, 2)
    start = [x for x in ann.lines if is_event(x, "start")][-1]
    return {**fields(ends[0])[1], "match": fields(start)[1]["match"]}


async def test_top_numbers_each_page_from_where_it_starts(
    start_server: Callable[..., Awaitable[int]], connect: Connector, register: Register
) -> None:
    port = await start_server(page_size=1)
    ann, bob = await _registered_pair(port, connect, register)
    winner = (await _play(ann, bob))["name"]
    loser = "bob" if winner == "ann" else "ann"
    for page, rank, name in (("1", "1", winner), ("2", "2", loser)):
        await ann.send(f"top moscow 2 {page}")
        top = await ann.expect("top")
        assert (top["count"], top["total"], top["page"], top["pages"]) == ("1", "2", page, "2")
        rated = await ann.expect("rated")
        assert (rated["rank"], rated["name"]) == (rank, name)


async def test_a_rated_match_moves_top_and_finger(
    port: int, connect: Connector, register: Register
) -> None:
    ann, bob = await _registered_pair(port, connect, register)
    await ann.send("top")
    assert await ann.expect("top") == {
        "variant": "moscow",
        "players": "2",
        "count": "0",
        "total": "0",
        "page": "1",
        "pages": "1",
    }
    end = await _play(ann, bob)
    winner = end["name"]
    loser = "bob" if winner == "ann" else "ann"
    await ann.send("top moscow 2")
    assert (await ann.expect("top"))["total"] == "2"
    first = await ann.expect("rated")
    second = await ann.expect("rated")
    assert (first["rank"], first["name"], first["wins"], first["losses"]) == ("1", winner, "1", "0")
    assert (second["rank"], second["name"], second["wins"], second["losses"]) == (
        "2",
        loser,
        "0",
        "1",
    )
    assert float(first["rating"]) > float(second["rating"])
    assert float(first["mu"]) > 25.0 > float(second["mu"])  # openskill's start is 25
    assert abs(float(first["rating"]) - (float(first["mu"]) - 3 * float(first["sigma"]))) < 0.01

    await bob.send(f"finger {winner.upper()}")
    finger = await bob.expect("finger")
    assert (finger["name"], finger["registered"], finger["online"], finger["ratings"]) == (
        winner,
        "1",
        "1",
        "1",
    )
    assert finger["last"] == end["match"]
    rated = await bob.expect("rated")
    assert (rated["rank"], rated["variant"], rated["players"], rated["games"]) == (
        "1",
        "moscow",
        "2",
        "1",
    )

    await ann.send("top kharkov 3")  # nobody rated there
    assert (await ann.expect("top"))["count"] == "0"
    for line, code in [
        ("top moscow 2 9", "bad-argument"),  # no page 9
        ("top moscow x", "bad-argument"),
        ("top 2 1 1", "bad-argument"),
        ("finger a b", "bad-argument"),
        ("finger x", "bad-argument"),
        ("finger zed", "unknown-player"),
    ]:
        await ann.send(line)
        assert (await ann.expect("error"))["code"] == code, line
    # no house bots here: a bot's name is nobody, told as it was typed
    await ann.send("finger House-Heuristic-2")
    error = await ann.expect("error")
    assert error["code"] == "unknown-player" and "House-Heuristic-2" in error["text"]
    # a page past the last says top's own usage (tryout s9, finding 18), as 'who' its
    for line, said in [
        ("top moscow 2 99999999999999999999", "top [VARIANT] [PLAYERS] [PAGE]: pages 1 to 1"),
        ("top 9", "top [VARIANT] [PLAYERS] [PAGE]: pages 1 to 1"),
        ("who 9", "who [PAGE]: pages 1 to 1"),
    ]:
        await ann.send(line)
        assert (await ann.expect("error"))["text"] == said, line


async def test_guests_and_private_tables_are_not_rated(
    port: int, connect: Connector, register: Register
) -> None:
    ann, bob = await _registered_pair(port, connect, register)
    cat = await connect.machine(port, "cat")  # a guest
    await _play(ann, bob, "2 private short")
    await _play(ann, cat)
    await ann.send("top")
    assert (await ann.expect("top"))["total"] == "0"
    await ann.send("finger cat")  # a guest who has played
    finger = await ann.expect("finger")
    assert (finger["registered"], finger["ratings"], finger["last"].count(",")) == ("0", "0", 0)


def _going_on(ask: dict[str, str]) -> str:
    """A call of ``ask``'s that passes the turn on: not chetyre-semerki (a seat may hold
    the four sevens, offered first), which redeals and asks the same seat again, so the
    other seat would never make a call of his own."""
    return next(c for c in ask["legal"].split(",") if c != "chetyre-semerki")


async def test_a_match_left_before_every_player_made_a_call_is_not_rated(
    port: int, connect: Connector, register: Register
) -> None:
    """The tryout's farm: bob (registered) sits and leaves at once, and ann gained a
    rating, bob lost one. A player who never made a call leaves the match unrated;
    once both have made one, leaving loses a rated match."""
    ann, bob = await _registered_pair(port, connect, register)

    async def seated() -> None:
        await ann.send("new 2")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")

    await seated()
    found = await next_ask(ann, bob)
    assert found is not None
    ask, first = found
    await first.send(ask["legal"].split(",")[0])  # one of them calls, the other never
    await bob.send("leave!")
    for client in (ann, bob):
        await client.read_until(lambda x: is_event(x, "match-end"), 30)
    await ann.send("top")
    assert (await ann.expect("top"))["total"] == "0"
    await ann.send("finger bob")
    assert (await ann.expect("finger"))["ratings"] == "0"

    await seated()
    for _ in range(2):  # both make a call of their own
        found = await next_ask(ann, bob)
        assert found is not None
        ask, who = found
        await who.send(_going_on(ask))
        await who.read_until(lambda x: is_event(x, "call") or is_event(x, "play"), 30)
    await bob.send("leave!")
    end = fields(await ann.read_until(lambda x: is_event(x, "match-end"), 30))[1]
    assert (end["name"], end["reason"]) == ("ann", "left")
    await ann.send("top")
    assert (await ann.expect("top"))["total"] == "2"


async def test_top_and_finger_for_people(port: int, connect: Connector, register: Register) -> None:
    ann, bob = await _registered_pair(port, connect, register)
    end = await _play(ann, bob)
    eve = await connect.human(port, "eve")
    await eve.send("top")
    head = await eve.read_until(lambda x: x.startswith("Standings"))
    assert head == "Standings: moscow for 2 players (2 rated)."
    first = await eve.read_until(lambda _: True)
    assert first.startswith(f"   1. {end['name']:<20} ")
    assert first.endswith("1 game: 1 won, 0 lost, 0 drawn")
    await eve.send("finger ann")
    told = await eve.read_until(lambda x: x.startswith("ann: registered, online. Last games: m"))
    assert told.endswith(".")
    rating = await eve.read_until(lambda _: True)
    assert rating.startswith("  moscow for 2 players: #") and len(rating) <= 80


async def test_a_house_bot_game_is_rated_only_when_asked_and_rates_the_bot_too(
    start_server: Callable[..., Awaitable[int]], connect: Connector, register: Register
) -> None:
    port = await start_server(house_bots=True)
    await register("ann", "pw-ann-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    await ann.send("new 2 private short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("bot heuristic rated")  # a private table's matches are never rated
    assert await ann.expect("error") == {
        "code": "not-allowed",
        "text": f"table {table}'s matches are not rated",
    }
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    # a bot the server seats is known before its first match (a tryout, s28)
    for name in ("house-heuristic", "house-heuristic-1"):
        await ann.send(f"finger {name}")
        assert await ann.expect("finger") == {
            "name": "house-heuristic",
            "registered": "0",
            "online": "0",
            "ratings": "0",
            "last": "",
            "house_bot": "1",
        }

    async def match_with(line: str) -> str:
        await ann.send("new 2 short")
        await ann.expect("ok", cmd="sit")
        await ann.send(line)
        ok = await ann.expect("ok", cmd="bot")
        assert ok["rated"] == ("1" if "rated" in line else "0")
        end = await play_machine(ann, random.Random(7), timeout=BOT_START_S)
        assert fields(end)[1]["kind"] == "match-end"  # the table is gone with it
        await ann.send("finger")  # her own last match
        return str((await ann.expect("finger"))["last"]).split(",")[0]

    await match_with("bot heuristic")  # not asked: not rated
    await ann.send("top")
    assert (await ann.expect("top"))["total"] == "0"
    await ann.send("bot random rated")  # never: its rating could be farmed
    assert (await ann.expect("error"))["code"] == "bad-argument"
    rated_match = await match_with("bot heuristic rated")
    await ann.send("top")
    assert (await ann.expect("top"))["total"] == "2"
    rated = [await ann.expect("rated"), await ann.expect("rated")]
    assert sorted(r["name"] for r in rated) == ["ann", "house-heuristic"]
    assert all(r["games"] == "1" for r in rated)
    await ann.send("finger house-heuristic")  # one name for every copy of that bot
    finger = await ann.expect("finger")
    assert (finger["registered"], finger["online"], finger["ratings"]) == ("0", "0", "1")
    # a house bot, and the rated match its copy played is its last game
    assert finger["house_bot"] == "1" and finger["last"] == rated_match
    # a copy's own name (as the table showed it) is told as its bot: it was called a
    # guest, not here, once its match was over (a tryout, s28)
    start = fields(next(x for x in reversed(ann.lines) if is_event(x, "start")))[1]
    [copy] = [n for n in start["players"].split(",") if n.startswith("house-heuristic-")]
    await ann.send(f"finger {copy.upper()}")
    assert await ann.expect("finger") == finger


async def test_a_match_both_players_left_is_not_rated(
    port: int,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """The tryout's rematch: both players dropped at once, and the one whose away limit
    passed first lost a rated match to the other, who had gone too. Forfeited while the
    winner is away too, a match is abandoned, not rated; with the winner still there,
    it is rated as any forfeit."""
    await register("ann", "pw-ann-1")
    await register("bob", "pw-bob-1")
    for winner_stays in (False, True):
        ann = await connect.machine(port, "ann", "pw-ann-1")
        bob = await connect.machine(port, "bob", "pw-bob-1")
        await ann.send("new 2")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")
        for _ in range(2):  # both make a call of their own: not an abort
            found = await next_ask(ann, bob)
            assert found is not None
            ask, who = found
            await who.send(_going_on(ask))
            await who.read_until(lambda x: is_event(x, "call") or is_event(x, "play"), 10)
        eve = await connect.machine(port, "eve")
        await eve.send(f"observe {table}")
        await eve.expect("ok", cmd="observe")
        if winner_stays:  # bob gives up, ann there
            await bob.send("leave!")
            reason = "left"
        else:  # bob's connection ends, then ann's: his away limit passes first
            await bob.aclose()
            await eve.expect("event", kind="away", name="bob")
            await trio.sleep(1)  # (virtual)
            await ann.aclose()
            await eve.expect("event", kind="away", name="ann")
            reason = "away"
        end = fields(await eve.read_until(lambda x: is_event(x, "match-end"), 300))[1]
        assert (end["name"], end["reason"]) == ("ann", reason)  # the result stands
        await eve.send("top")
        assert (await eve.expect("top"))["total"] == ("2" if winner_stays else "0")
        for client in (eve, ann, bob):
            await client.aclose()


async def test_top_alone_shows_the_game_its_asker_plays_rated_most(
    port: int, connect: Connector, register: Register
) -> None:
    # club tryout (s23): a club playing Kharkov read 'top' as Moscow for two, nobody yet
    ann, bob = await _registered_pair(port, connect, register)
    await _play(ann, bob, "2 kharkov short")
    await ann.send("top")
    top = await ann.expect("top")
    assert (top["variant"], top["players"], top["total"]) == ("kharkov", "2", "2"), top
    guest = await connect.machine(port, "cat")  # rated nowhere: the club's game
    await guest.send("top")
    top = await guest.expect("top")
    assert (top["variant"], top["players"], top["total"]) == ("kharkov", "2", "2"), top


async def test_top_alone_shows_the_clubs_game_to_one_who_played_none(
    port: int, connect: Connector, register: Register
) -> None:
    """A newcomer's `top` at a club whose rated games are Kharkov: its standings, not
    Moscow for two's "nobody yet" (a club-night tryout: four-handed matches rated, the
    latecomer told nobody was)."""
    ann, bob = await _registered_pair(port, connect, register)
    end = await _play(ann, bob, "2 kharkov short")
    eve = await connect.human(port, "eve")
    await eve.send("top")
    head = await eve.read_until(lambda x: x.startswith("Standings"))
    assert head == "Standings: kharkov for 2 players (2 rated)."
    assert (await eve.read_until(lambda _: True)).startswith(f"   1. {end['name']:<20} ")
    await eve.send("top moscow")  # asked by name: as it is, nobody yet
    told = await eve.read_until(lambda x: x.startswith("Standings"))
    assert told == "Standings: moscow for 2 players (nobody rated yet)."  # one colon


async def test_one_rated_copy_of_a_house_bot_a_table(
    start_server: Callable[..., Awaitable[int]], connect: Connector, register: Register
) -> None:
    """Two rated copies of one house bot at a table were rated twice in one match, both
    as its winners, and its page listed the match twice (a web tryout): a second rated
    copy of a kind and level is refused; another kind, or the copy unrated, may come."""
    port = await start_server(house_bots=True)
    await register("ann", "pw-ann-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    await ann.send("new 4 to-301")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot heuristic rated")
    assert (await ann.expect("ok", cmd="bot"))["rated"] == "1"
    await ann.send("bot heuristic rated")
    assert await ann.expect("error") == {
        "code": "not-allowed",
        "text": "house-heuristic plays rated at this table already: its rating is one"
        " player's; ask another without 'rated'",
    }
    await ann.send("bot heuristic")  # unrated: the match is then not rated (§5.15)
    assert (await ann.expect("ok", cmd="bot"))["rated"] == "0"
    await ann.send("bot search 1 rated")  # another rating: its own
    assert (await ann.expect("ok", cmd="bot"))["rated"] == "1"
    await ann.send("leave!")
    await ann.expect("ok", cmd="leave")


def _three_distinct_totals(line: str) -> bool:
    """A stop for play_machine: a deal ended with three different totals."""
    if not is_event(line, "deal-end"):
        return False
    totals = fields(line)[1]["totals"].split(",")
    return len(set(totals)) == 3


@pytest.mark.timeout(60)
async def test_a_three_player_forfeit_ranks_the_leaver_below_who_stayed(
    start_server: Callable[..., Awaitable[int]], connect: Connector, register: Register
) -> None:
    """A club's evening at three: boris left (leave!) the Kharkov match, vera won, and
    boris, with a higher total than anna, who stayed to the end, was ranked above her:
    leaving was rated above staying. The side that forfeits ranks last, whatever its
    total."""
    port = await start_server(match_seed="leaver34")  # the same decks every run
    names = ("vera", "boris", "anna")
    for name in names:
        await register(name, f"pw-{name}-1")
    clients = [await connect.machine(port, name, f"pw-{name}-1") for name in names]
    first = clients[0]
    await first.send("new 3 kharkov")
    table = (await first.expect("ok", cmd="sit"))["table"]
    for client in clients[1:]:
        await client.send(f"sit {table}")
        await client.expect("ok", cmd="sit")
    stops: list[str] = []

    async def play(client: LineClient, seed: int) -> None:
        stops.append(await play_machine(client, random.Random(seed), _three_distinct_totals))

    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            for seed, client in enumerate(clients):
                nursery.start_soon(play, client, seed)
        assert all(is_event(line, "deal-end") for line in stops), stops
        totals = [int(t) for t in fields(stops[0])[1]["totals"].split(",")]
        start = fields(next(x for x in reversed(first.lines) if is_event(x, "start")))[1]
        seated = start["players"].split(",")
        # the middle total leaves: above the one who stays, below the winner
        top, middle, bottom = sorted(range(3), key=lambda seat: -totals[seat])
        leaver, stayer, winner = seated[middle], seated[bottom], seated[top]
        assert totals[middle] > totals[bottom]
        await clients[names.index(leaver)].send("leave!")
        watcher = clients[names.index(stayer)]
        end = fields(await watcher.read_until(lambda x: is_event(x, "match-end"), 30))[1]
        assert (end["name"], end["reason"], end["forfeit"]) == (winner, "left", str(middle))
        await watcher.send("top kharkov 3")
        assert (await watcher.expect("top"))["total"] == "3"
        rated = {r["name"]: r for r in [await watcher.expect("rated") for _ in range(3)]}
    assert [rated[n]["rank"] for n in (winner, stayer, leaver)] == ["1", "2", "3"]
    assert float(rated[stayer]["rating"]) > float(rated[leaver]["rating"])
    assert float(rated[stayer]["mu"]) > float(rated[leaver]["mu"])
    assert (rated[leaver]["losses"], rated[stayer]["losses"]) == ("1", "1")


async def test_a_guests_rated_house_bot_is_refused_not_taken_and_forgotten(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """A guest's match is never rated (§5.18): his 'bot heuristic rated' was answered
    rated=1 and the match went unrated, told nowhere. It is refused, nothing started;
    without 'rated' the bot comes."""
    port = await start_server(house_bots=True)
    gus = await connect.machine(port, "gus")
    await gus.send("new 2 to-301")
    await gus.expect("ok", cmd="sit")
    await gus.send("bot heuristic rated")
    assert await gus.expect("error") == {
        "code": "not-allowed",
        "text": "a guest's matches are not rated: log in with a password to play rated;"
        " without 'rated' the bot comes",
    }
    await gus.send("bot heuristic")  # the seat was not kept for a bot: one comes now
    assert (await gus.expect("ok", cmd="bot"))["rated"] == "0"
    await gus.send("leave!")
    await gus.expect("ok", cmd="leave")


async def test_finger_of_the_random_house_bot_says_it_is_never_rated(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """'finger house-random' read 'a house bot, rated under this name however many
    copies play' of the one bot that is never rated; a copy's name is told the same."""
    port = await start_server(house_bots=True)
    eve = await connect.human(port, "eve")
    for name in ("house-random", "house-random-7"):
        await eve.send(f"finger {name}")
        told = await eve.read_until(lambda x: x.startswith("house-random"))
        assert told == "house-random: a house bot, never rated (its copies play as house-random-N)."
    ann = await connect.machine(port, "ann")  # a program reads it in a field of its own
    await ann.send("finger house-random")
    assert (await ann.expect("finger"))["never_rated"] == "1"
    await ann.send("finger house-search3")
    assert "never_rated" not in await ann.expect("finger")
    await eve.send("finger house-heuristic")  # a bot that may be rated is told as before
    told = await eve.read_until(lambda x: x.startswith("house-heuristic"))
    assert told.startswith("house-heuristic: a house bot, rated under this name")
    await eve.send("lang ru")
    await eve.send("finger house-random")
    told = await eve.read_until(lambda x: x.startswith("house-random"))
    told += await eve.read_until(lambda _: True)  # (wrapped at 80 columns)
    assert (
        told
        == "house-random: бот сервера, в рейтинг не играет (его копии играют как"
        + "  house-random-N)."
    )


def _rated_news(client: LineClient) -> list[str]:
    return [x for x in client.lines if x.startswith("info ") and " rated=" in x]


async def test_the_players_are_told_when_a_guest_or_an_unrated_bot_unrates_the_match(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    register: Register,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ann, registered, asked for a rated house bot at a table for four; a guest sat
    down, and the match he made unrated would have been played as if nothing had
    changed, nobody told. Each change is told the people seated, one line (§5.18), in
    their language. (The bots never come.)"""
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: sleeper)
    port = await start_server(house_bots=True)
    await register("ann", "pw-ann-1")
    await register("vera", "pw-vera-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    await ann.send("new 4")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("bot heuristic rated")  # rated as before: nothing to tell
    await ann.expect("ok", cmd="bot")
    vera = await connect.raw(port, "vera")
    await vera.send("login vera pw-vera-1 lang=ru")
    await vera.send(f"sit {table}")
    await ann.expect("event", kind="seated", name="vera")
    assert not _rated_news(ann)
    gus = await connect.machine(port, "gus")  # a guest
    await gus.send(f"sit {table}")
    unrated = {
        "table": table,
        "rated": "0",
        "text": f"Table {table}'s match will not be rated: gus is a guest.",
    }
    assert await ann.expect("info", table=table) == unrated
    # the guest is told of himself, the same fields (a tryout, s48: 'gus is a guest')
    yours = f"Table {table}'s match will not be rated: you are a guest."
    assert await gus.expect("info", table=table) == {**unrated, "text": yours}
    await vera.read_until(
        lambda x: x == f"Партия за столом {table} не пойдёт в рейтинг: gus — гость."
    )
    await gus.send("leave")
    await gus.expect("ok", cmd="leave")
    again = {"table": table, "rated": "1", "text": f"Table {table}'s match will be rated again."}
    assert await ann.expect("info", table=table) == again
    await vera.read_until(lambda x: x == f"Партия за столом {table} снова пойдёт в рейтинг.")
    await ann.send("bot random")  # never rated
    bot = (await ann.expect("ok", cmd="bot"))["name"]
    assert await ann.expect("info", table=table) == {
        "table": table,
        "rated": "0",
        "text": f"Table {table}'s match will not be rated: {bot} plays unrated.",
    }
    assert len(_rated_news(ann)) == 3  # one line each
    # a guest's own table: nobody registered expected a rated match, nothing is told
    await gus.send("new 2")
    await gus.expect("ok", cmd="sit")
    await gus.send("bot heuristic")
    await gus.expect("ok", cmd="bot")
    await gus.send("ping")
    await gus.expect("ok", cmd="ping")
    assert len(_rated_news(gus)) == 1  # (ann's table's)


async def test_a_guest_who_unrates_the_match_is_told_you_are_a_guest(
    port: int, connect: Connector, register: Register
) -> None:
    """stas, a guest, sat at a registered player's table and read "Table 43's match
    will not be rated: stas is a guest." about himself (a tryout, s48): he is told
    "you are a guest", in English and Russian, the others at the table still "stas is
    a guest"."""
    await register("ann", "pw-ann-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    stas = await connect.human(port, "stas")  # a guest, a person
    await stas.send(f"sit {table}")
    line = f"Table {table}'s match will not be rated: you are a guest."
    assert await stas.read_until(lambda x: "rated" in x) == line
    told = await ann.expect("info", table=table)
    assert told["text"] == f"Table {table}'s match will not be rated: stas is a guest."
    await stas.send("leave")
    assert (await ann.expect("info", table=table))["rated"] == "1"
    ivan = await connect.raw(port, "ivan")  # a guest in Russian
    await ivan.send("login ivan lang=ru")
    await ivan.send(f"sit {table}")
    said = f"Партия за столом {table} не пойдёт в рейтинг: вы гость."
    assert await ivan.read_until(lambda x: "рейтинг" in x) == said
    told = await ann.expect("info", table=table)
    assert told["text"] == f"Table {table}'s match will not be rated: ivan is a guest."


async def test_a_registered_player_sitting_where_the_match_is_unrated_is_told_so(
    port: int, connect: Connector, register: Register
) -> None:
    """ann, registered, sat down at a guest's table and was told nothing: the news said
    only changes, and none came of her sitting. The match started unrated for bob, who
    took the last seat beside a guest; and when the guest left, ann was told it 'will
    be rated again', never told it would not be. Whoever registered sits down where
    the match will not be rated is told so, himself, before any start (§5.18)."""
    await register("ann", "pw-ann-1")
    await register("bob", "pw-bob-1")
    gus = await connect.machine(port, "gus")  # a guest
    await gus.send("new 3")
    table = (await gus.expect("ok", cmd="sit"))["table"]
    ann = await connect.machine(port, "ann", "pw-ann-1")
    await ann.send(f"sit {table}")
    await ann.expect("ok", cmd="sit")
    assert await ann.expect("info", table=table) == {
        "table": table,
        "rated": "0",
        "text": f"Table {table}'s match will not be rated: gus is a guest.",
    }
    await gus.send("leave")
    await gus.expect("ok", cmd="leave")
    assert (await ann.expect("info", table=table))["rated"] == "1"
    dan = await connect.machine(port, "dan")  # a guest: a change, told both
    await dan.send(f"sit {table}")
    for told in (ann, dan):
        assert (await told.expect("info", table=table))["rated"] == "0"
    bob = await connect.machine(port, "bob", "pw-bob-1")
    await bob.send(f"sit {table}")  # the last seat: the match starts, unrated
    await bob.expect("ok", cmd="sit")
    info = await bob.expect("info", table=table)
    assert info["text"] == f"Table {table}'s match will not be rated: dan is a guest."
    await bob.expect("event", kind="start")
    await ann.expect("event", kind="start")
    await dan.expect("event", kind="start")
    for told, lines in ((ann, 3), (dan, 1)):  # bob's sitting changed nothing: not told again
        assert len(_rated_news(told)) == lines


async def test_a_registered_player_back_at_a_waiting_table_is_told_it_is_unrated(
    port: int, connect: Connector, register: Register
) -> None:
    """ann dropped from a waiting table; a guest took its last seat meanwhile, which
    was told those present only. The table waited for her, and her match started
    unrated, nothing told on her new connection. Back, she is told (§5.18)."""
    await register("ann", "pw-ann-1")
    await register("bob", "pw-bob-1")
    bob = await connect.machine(port, "bob", "pw-bob-1")
    await bob.send("new 3")
    table = (await bob.expect("ok", cmd="sit"))["table"]
    ann = await connect.machine(port, "ann", "pw-ann-1")
    await ann.send(f"sit {table}")
    await bob.expect("event", kind="seated", name="ann")
    await ann.aclose()
    await bob.expect("event", kind="away", name="ann")
    gus = await connect.machine(port, "gus")
    await gus.send(f"sit {table}")
    assert (await bob.expect("info", table=table))["rated"] == "0"
    ann = await connect.machine(port, "ann", "pw-ann-1")
    told = await ann.expect("info", table=table)
    assert told == {
        "table": table,
        "rated": "0",
        "text": f"Table {table}'s match will not be rated: gus is a guest.",
    }
    await ann.expect("event", kind="start")
    await bob.expect("event", kind="start")
    assert len(_rated_news(bob)) == 1


async def test_the_match_is_rated_again_when_an_unrated_bot_could_not_come(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    register: Register,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A house bot asked for without 'rated' that never comes (it keeps exiting) gives
    its seat up: what made the match unrated is gone, and ann is told (§5.18)."""
    failing = [sys.executable, "-c", "raise SystemExit(3)"]
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: failing)
    port = await start_server(house_bots=True)
    await register("ann", "pw-ann-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("bot heuristic")
    bot = (await ann.expect("ok", cmd="bot"))["name"]
    told = await ann.expect("info", table=table)
    assert (told["rated"], told["text"]) == (
        "0",
        f"Table {table}'s match will not be rated: {bot} plays unrated.",
    )
    said = await ann.expect("info", timeout=BOT_START_S)  # after its restarts
    assert said["text"] == f"{bot} could not come."
    assert await ann.expect("info", table=table) == {
        "table": table,
        "rated": "1",
        "text": f"Table {table}'s match will be rated again.",
    }
