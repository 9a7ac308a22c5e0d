"""An audit of docs/protocol.md against the server, part 2: the lobby's commands (§5.1
`who` to §5.10 `state`). Each promise a client may rely on, and (→) the tests that pin
it: a module under tests/ and its tests, "here" for this module's. The examples of these
sections are checked here against a real server, line for line (a table's number, a
deal's cards and a board's key as the server has them).

(table filled in below)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, phrase
from deberc_net.server.accounts import set_password
from deberc_net.server.config import Config
from deberc_net.server.store import open_store
from tests.protocol.conftest import Start
from tests.protocol.doc_examples import PROTOCOL, example, lines_until_pong, sent
from tests.server.client import LineClient, fields, next_ask
from tests.server.conftest import Connector

TABLE_NUMBER = re.compile(r"(?<=table=)\d+|(?<=[Tt]able )\d+|(?<=match=m)\d+")


def numbered(lines: list[str], table: str) -> list[str]:
    """An example's lines with its table's number made ``table``."""
    return [TABLE_NUMBER.sub(table, line) for line in lines]


def block_after(words: str) -> list[str]:
    """The lines of the first code block after ``words`` in docs/protocol.md."""
    text = PROTOCOL.read_text(encoding="utf-8").split(words, 1)[1]
    return text.split("```\n", 1)[1].split("\n```", 1)[0].splitlines()


def section(number: str) -> str:
    """The text of docs/protocol.md's section ``number`` (its subsections too), its
    lines joined with spaces."""
    text = PROTOCOL.read_text(encoding="utf-8").split(f"\n### {number} ", 1)[1]
    return " ".join(re.split(r"\n##+ \d", text, maxsplit=1)[0].split())


async def table_numbered(client: LineClient, wanted: int) -> None:
    """Tables are opened (and left) until the next one opened is numbered ``wanted``
    (a fresh server's first table is 1)."""
    while True:
        await client.send("new 2")
        opened = int((await client.expect("ok", cmd="sit"))["table"])
        await client.send("leave")
        await client.expect("ok", cmd="leave")
        assert opened < wanted, (opened, wanted)
        if opened == wanted - 1:
            return


async def admin(start: Start, tmp_path: Path, name: str = "boss", **settings: Any) -> int:
    """A server (of these settings) whose admin ``name`` (password pw) is registered as
    its owner does it."""
    port = await start(admins=[name], **settings)
    store = open_store(tmp_path / "audit.sqlite3")
    try:
        set_password(store, name, "pw")
    finally:
        store.close()
    return port


@pytest.mark.timeout(30)
async def test_the_tables_example_of_5_2_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    documented = example("### 5.2 `tables [PAGE]`")
    anna = await connect.machine(port, "anna")
    await table_numbered(anna, 2)
    await anna.send("new 2 to-301")
    await anna.expect("ok", cmd="sit", table="2")
    other = await connect.machine(port, "other")
    assert await lines_until_pong(other, sent(documented[0])) == documented[1:]


@pytest.mark.timeout(30)
async def test_the_examples_of_5_3_are_what_the_server_sends(port: int, connect: Connector) -> None:
    private = example("### 5.3 `new [PLAYERS] [VARIANT] [OPTION ...] [private]`")
    anna = await connect.machine(port, "anna")
    other = await connect.machine(port, "other")
    await table_numbered(anna, 3)
    assert await lines_until_pong(anna, sent(private[0])) == private[1:3]
    assert private[3] == "(another client)"
    assert await lines_until_pong(other, sent(private[4])) == private[5:]
    await anna.send("leave")
    await anna.expect("ok", cmd="leave")
    # the second block: anna's refusals, then a table (numbered as the server has it)
    *wrong, last, sat, seated = block_after("closes **10 s** after")
    for line, said in zip(wrong[::2], wrong[1::2], strict=True):
        assert await lines_until_pong(anna, sent(line)) == [said], line
    got = await lines_until_pong(anna, sent(last))
    assert got == numbered([sat, seated], fields(got[0])[1]["table"])


# the example's hand is no seed's the test can find in time; s38 deals it with the same
# dealer (seat 0) and turned card (Ah)
DEALT = ("hand",)
SEED_OF_5_4 = "s38"


def same_but_the_deal(got: list[str], documented: list[str]) -> None:
    """Each line as documented, tag, keys and their order and values, but for the
    hand dealt."""
    assert len(got) == len(documented), (got, documented)
    for line, want in zip(got, documented, strict=True):
        tag, said = fields(line)
        want_tag, wanted = fields(want)
        assert (tag, list(said)) == (want_tag, list(wanted)), (line, want)
        for key in set(wanted) - set(DEALT):
            assert said[key] == wanted[key], (key, line, want)


@pytest.mark.timeout(30)
async def test_the_sit_example_of_5_4_is_what_the_server_sends(
    start: Start, connect: Connector
) -> None:
    documented = example("### 5.4 `sit TABLE [SEAT]`")
    # the clock 10000 + 500 shown; 13 tables opened and left first
    port = await start(lag_ms=500, seat_churn_burst=20.0, match_seed=SEED_OF_5_4)
    misha = await connect.machine(port, "misha")
    await table_numbered(misha, 14)
    await misha.send("new 2")
    await misha.expect("ok", cmd="sit", table="14")
    bot1 = await connect.machine(port, "bot1")
    assert await lines_until_pong(bot1, sent(documented[0])) == [documented[1]]
    assert await lines_until_pong(bot1, sent(documented[2])) == [documented[3]]
    await bot1.send(sent(documented[4]))
    got = [await bot1.read_until(lambda _: True) for _ in documented[5:10]]
    assert got[:3] == documented[5:8]
    same_but_the_deal(got[3:], documented[8:10])
    # a table already playing: table 14 is
    assert sent(documented[10]) == "sit 22"
    late = await connect.machine(port, "late")
    assert await lines_until_pong(late, "sit 14") == [documented[11].replace("22", "14")]


@pytest.mark.timeout(30)
async def test_the_seek_example_of_5_5_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    documented = block_after("him and gives him his seek back there.")
    anna = await connect.machine(port, "anna")
    bot1 = await connect.machine(port, "bot1")
    await table_numbered(anna, 4)
    assert await lines_until_pong(anna, sent(documented[0].replace("(anna)", ""))) == [
        documented[1],
        "event seq=1 table=4 kind=seated name=anna seat=0",  # (left out of the example)
    ]
    await bot1.send(sent(documented[2].replace("(bot1)", "")))
    # (the table seats him: its ok cmd=sit may come after a next line's reply)
    assert [await bot1.read_until(lambda _: True) for _ in "ab"] == documented[3:5]


@pytest.mark.timeout(30)
async def test_the_seek_reserved_example_of_5_5_is_what_the_server_sends(
    start: Start, tmp_path: Path, connect: Connector
) -> None:
    documented = block_after("takes an `ok cmd=sit` as the answer of its `seek\nreserved` too:")
    port = await admin(start, tmp_path)
    boss = await connect.machine(port, "boss", "pw")
    nodev = await connect.machine(port, "nodev-1")
    rand = await connect.machine(port, "rand-1")
    key = "15b6d35172e90414"
    assert await lines_until_pong(rand, "seek reserved")  # both wait: rand-1 first
    assert await lines_until_pong(nodev, sent(documented[0])) == [documented[1]]
    await boss.send(f"reserve 2 moscow seats=nodev-1,rand-1 deals=1 board={key}")
    first = (await boss.expect("ok", cmd="reserve"))["table"]
    assert await nodev.read_until(lambda _: True) == numbered([documented[2]], first)[0]
    assert documented[3] == "…"
    await nodev.send("leave")  # the match ends (forfeited: the example's was played)
    await rand.expect("event", kind="match-end")
    await boss.send(f"reserve 2 moscow seats=rand-1,nodev-1 deals=1 board={key}")
    second = (await boss.expect("ok", cmd="reserve"))["table"]
    await rand.send("seek reserved")
    await rand.expect("ok", cmd="sit", table=second)
    await nodev.expect("event", kind="match-end")
    said = await lines_until_pong(nodev, sent(documented[4]))
    assert said[0] == numbered([documented[5]], second)[0]  # and no ok cmd=seek
    assert not [x for x in said if x.startswith("ok cmd=seek")]


@pytest.mark.timeout(30)
async def test_the_say_example_of_5_8_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    documented = example("### 5.8 `say TEXT`")
    anna = await connect.machine(port, "anna")
    await table_numbered(anna, 2)
    await anna.send("new 2")
    await anna.expect("ok", cmd="sit", table="2")
    await anna.expect("event", kind="seated")
    for line, said in zip(documented[::2], documented[1::2], strict=True):
        assert await lines_until_pong(anna, sent(line)) == [said], line


@pytest.mark.timeout(30)
async def test_the_rules_example_of_5_9_is_what_the_server_sends(
    start: Start, connect: Connector
) -> None:
    documented = example("### 5.9 `rules [TABLE|RULE]`")
    port = await start(lag_ms=500)  # the clock line's 500 ms lag allowance
    anna = await connect.machine(port, "anna")
    await table_numbered(anna, 2)
    await anna.send("new 2 to-301")
    await anna.expect("ok", cmd="sit", table="2")
    await anna.expect("event", kind="seated")
    said = await lines_until_pong(anna, sent(documented[0]))
    assert len(said) == len(documented) - 1
    for got, want in zip(said, documented[1:], strict=True):
        assert got.startswith(want.removesuffix("…")), (got, want)  # "…": cut short


@pytest.mark.timeout(30)
async def test_the_deal_limits_match_end_of_5_5a_is_as_the_example_has_it(
    start: Start, tmp_path: Path, connect: Connector
) -> None:
    port = await admin(start, tmp_path)
    boss = await connect.machine(port, "boss", "pw")
    pa, pb = await connect.machine(port, "pa"), await connect.machine(port, "pb")
    for player in (pa, pb):
        await player.send("seek reserved")
        await player.expect("ok", cmd="seek")
    await boss.send("reserve 2 moscow seats=pa,pb seed=x1 deals=1 board=k")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    while (asked := await next_ask(pa, pb)) is not None:  # all pass: a void deal, 0-0
        ask, player = asked
        assert "pas" in ask["legal"].split(","), ask
        await player.send(f"pas seq={ask['seq']}")
    documented = re.search(r"`(event seq=37 table=2 kind=match-end [^`]*)`", section("5.5a"))
    assert documented is not None
    [want] = numbered([documented[1]], table)
    for player in (pa, pb, boss):
        ended = [x for x in player.lines[: player.pos] if " kind=match-end " in x]
        got = ended[0] if ended else await player.read_until(lambda x: " kind=match-end " in x)
        assert re.sub(r"seq=\d+", "seq=37", got) == want


def test_the_numbers_of_5_are_the_servers_defaults() -> None:
    # "the numbers here are the defaults" (§2.1): those §5.1 to §5.8 state
    config = Config()
    assert config.page_size == 100  # §5.1, §5.2: 100 to a page
    assert (config.lists_burst, config.lists_per_s) == (30, 5)  # §5.1
    assert (config.lists_per_address_burst, config.lists_per_address_per_s) == (60, 10)
    assert config.max_tables == 1000 and config.max_tables_per_address == 10  # §5.3
    assert config.empty_table_ms == 10_000  # §5.3: closes 10 s after
    assert (config.seat_churn_burst, 1 / config.seat_churn_per_s) == (5, 5)  # §5.4
    assert (config.seat_churn_per_address_burst, 1 / config.seat_churn_per_address_per_s) == (
        20,
        2,
    )
    assert config.seek_apart_ms == 10 * 60_000  # §5.5: 10 min
    assert config.watch_news_window_ms == 60_000  # §5.7: once a minute
    assert (config.watch_news_burst, 1 / config.watch_news_per_s) == (10, 5)
    assert (config.say_burst, config.say_per_s) == (5, 1)  # §5.8
    assert (config.say_per_address_burst, config.say_per_address_per_s) == (20, 5)


@pytest.mark.timeout(30)
async def test_who_sorts_without_regard_to_case_and_tables_page_as_who_does(
    start: Start, connect: Connector
) -> None:
    # §5.1: "sorted without regard to case, 100 to a page: count and names are this
    # page's, total counts every page. PAGE (default 1) must be from 1 to pages"; §5.2:
    # "PAGE and the rate as for who"
    port = await start(page_size=2)
    clients = [await connect.machine(port, name) for name in ("Cid", "ann", "dan", "Bob")]
    ann = clients[1]
    assert await lines_until_pong(ann, "who") == [
        "who count=2 names=ann,Bob total=4 page=1 pages=2"
    ]
    assert await lines_until_pong(ann, "who 2") == [
        "who count=2 names=Cid,dan total=4 page=2 pages=2"
    ]
    tables = []
    for client in clients[:3]:
        await client.send("new 2")
        tables.append((await client.expect("ok", cmd="sit"))["table"])
        await client.expect("event", kind="seated")
    first, second = await lines_until_pong(ann, "tables"), await lines_until_pong(ann, "tables 2")
    assert first[0] == "tables count=2 total=3 page=1 pages=2"
    assert second[0] == "tables count=1 total=3 page=2 pages=2"
    assert [fields(x)[1]["id"] for x in first[1:] + second[1:]] == tables
    for line in ("who 0", "who 3", "tables 0", "tables 3", "tables x"):
        [refused] = await lines_until_pong(ann, line)
        assert fields(refused)[1]["code"] == "bad-argument", line


@pytest.mark.timeout(30)
async def test_the_lists_allowance_spares_the_admins(
    start: Start, tmp_path: Path, connect: Connector
) -> None:
    # §5.1: "admins are not limited"
    port = await admin(start, tmp_path, lists_burst=1, lists_per_s=0.001)
    boss = await connect.machine(port, "boss", "pw")
    ann = await connect.machine(port, "ann")
    for client, refused in ((boss, []), (ann, ["slow-down"])):
        said = [
            fields(x)[1].get("code")
            for line in ("who", "tables", "who")
            for x in await lines_until_pong(client, line)
            if x.startswith("error ")
        ]
        assert said == refused * 2, client.label


@pytest.mark.timeout(30)
async def test_leave_answers_each_case_in_the_words_of_5_6(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    # "Otherwise: error code=not-seated text=you sit at no table and observe none"
    assert await lines_until_pong(eve, "leave") == [
        "error code=not-seated text=you sit at no table and observe none"
    ]
    # waiting: "ok cmd=leave text=You leave table T.; the others see event … kind=left"
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await bob.expect("event", kind="seated")
    assert await lines_until_pong(bob, "leave") == [f"ok cmd=leave text=You leave table {table}."]
    await ann.expect("event", kind="seated")
    assert await lines_until_pong(ann, "ping") == [
        f"event seq=3 table={table} kind=left name=bob seat=1"
    ]
    # observing: one ok each; then seeking: as unseek
    await bob.send("new 2")
    other = (await bob.expect("ok", cmd="sit"))["table"]
    for watched in (other, table):
        await eve.send(f"observe {watched}")
        await eve.expect("info")  # (the table waits for players)
    assert sorted(await lines_until_pong(eve, "leave")) == [  # (each table answers: no order)
        f"ok cmd=leave text=You stop observing table {watched}." for watched in (table, other)
    ]
    await eve.send("seek 4")
    await eve.expect("ok", cmd="seek")
    assert await lines_until_pong(eve, "leave") == [
        "ok cmd=unseek text=You no longer wait for a game."
    ]
    assert await lines_until_pong(eve, "unseek") == [
        "error code=not-allowed text=you are not waiting for a game"
    ]


@pytest.mark.timeout(30)
async def test_observe_unobserve_and_state_answer_in_the_words_of_5_7_and_5_10(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2")
    waiting = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    # "ok cmd=observe table=T …, then at once your view": the observer line first (its
    # seq carried by the view, §5.7), and a waiting table's info
    waits = f"info text=Table {waiting} waits for players: ann, (free)"
    assert await lines_until_pong(eve, f"observe {waiting}") == [
        f"ok cmd=observe table={waiting} text=You observe table {waiting}.",
        f"event seq=2 table={waiting} kind=observer name=eve watching=1 observers=1",
        waits,
    ]
    assert await ann.read_until(lambda _: True) == (
        f"event seq=2 table={waiting} kind=observer name=eve watching=1 observers=1"
    )
    # §5.10: "At a table still waiting for players: info text=Table T waits for players:
    # anna, (free)" — seated there or watching it
    assert await lines_until_pong(ann, "state") == [waits]
    assert await lines_until_pong(eve, "state") == [waits]
    # a running match watched too: state is the lowest-numbered table's view
    await bob.send("new 2")
    running = (await bob.expect("ok", cmd="sit"))["table"]
    zed = await connect.machine(port, "zed")
    await zed.send(f"sit {running}")
    await bob.expect("event", kind="start")
    await eve.send(f"observe {running}")
    await eve.expect("ok", cmd="observe", table=running)
    view = fields(await eve.read_until(lambda x: x.startswith("state ")))[1]
    assert (view["table"], view["seat"], view["hand"]) == (running, "-", "")
    assert await lines_until_pong(eve, "state") == [waits]  # (table 1 before table 2)
    # §5.7 unobserve: a word is no table; every table, one ok naming them; then none
    assert await lines_until_pong(eve, "unobserve x") == [
        "error code=bad-argument text=unobserve [TABLE]"
    ]
    assert await lines_until_pong(eve, "unobserve") == [
        f"ok cmd=unobserve table={waiting},{running} text=You stop observing tables"
        f" {waiting} and {running}."  # (it said 'table 1,2': corrected)
    ]
    for line in ("unobserve", f"unobserve {running}"):
        [refused] = await lines_until_pong(eve, line)
        assert fields(refused)[1]["code"] == "not-allowed", line
    assert await lines_until_pong(ann, "ping") == [
        f"event seq=3 table={waiting} kind=observer name=eve watching=0 observers=0"
    ]


@pytest.mark.timeout(30)
async def test_watching_two_tables_say_rules_and_state_take_the_lowest_numbered(
    port: int, connect: Connector
) -> None:
    # §5.8: "to that table's watchers only (the lowest-numbered table you observe)";
    # §5.9 and §5.10 take the same table
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2")
    low = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send("new 3 to-301")
    high = (await bob.expect("ok", cmd="sit"))["table"]
    for table in (high, low):  # the higher first
        await eve.send(f"observe {table}")
        await eve.expect("info")
    assert await lines_until_pong(eve, "say hi") == [f"say from=eve table={low} watchers=1 text=hi"]
    # (§5.9 said "the first you observe": the lowest-numbered, a slip corrected)
    assert (await lines_until_pong(eve, "rules"))[0] == (
        f"rules text=Table {low}: moscow, 2 players, options: none, to 501."
    )
    assert await lines_until_pong(eve, "state") == [
        f"info text=Table {low} waits for players: ann, (free)"
    ]


@pytest.mark.timeout(30)
async def test_new_reads_options_in_any_case_sorted_once_and_caps_tables(
    start: Start, connect: Connector
) -> None:
    # §5.3: "Options are read in any case too (To-301 is to-301), sorted and
    # de-duplicated"; busy past the address's waiting tables (and the server's tables)
    port = await start(max_tables_per_address=2, max_tables=3)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 To-301 posled-20 TO-301")
    await ann.expect("ok", cmd="sit")
    listed = await lines_until_pong(ann, "tables")
    assert fields(listed[-1])[1]["options"] == "posled-20,to-301", listed
    bob = await connect.machine(port, "bob")
    await bob.send("new 2")
    await bob.expect("ok", cmd="sit")
    cid = await connect.machine(port, "cid")
    assert await lines_until_pong(cid, "new 2") == [
        "error code=busy text=your address has 2 waiting tables open; sit at one or wait"
    ]
    other = await connect.machine(port, "other", source="127.0.0.2")
    await other.send("new 2")
    await other.expect("ok", cmd="sit")
    elsewhere = await connect.machine(port, "far", source="127.0.0.3")
    [refused] = await lines_until_pong(elsewhere, "new 2")
    assert fields(refused)[1]["code"] == "busy"  # the server's 3 tables are open


@pytest.mark.timeout(30)
async def test_sit_refuses_words_and_seats_out_of_range_and_is_told_by_seat(
    port: int, connect: Connector
) -> None:
    # §5.4: bad-argument for "not numbers; SEAT out of range"; the reply's seats=, and
    # the seated line to everyone at the table
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    for line in ("sit x", f"sit {table} x", f"sit {table} 3", f"sit {table} -1"):
        [refused] = await lines_until_pong(bob, line)
        assert fields(refused)[1]["code"] == "bad-argument", (line, refused)
    assert await lines_until_pong(bob, f"sit {table} 2") == [
        f"ok cmd=sit table={table} seat=2 seats=ann,-,bob text=You sit at table {table},"
        " seat 2. At the table: ann (seat 0).",
        f"event seq=2 table={table} kind=seated name=bob seat=2",
    ]
    assert await lines_until_pong(ann, "ping") == [
        f"event seq=2 table={table} kind=seated name=bob seat=2"
    ]


@pytest.mark.timeout(30)
async def test_every_no_of_5_6_keeps_a_persons_seat(port: int, connect: Connector) -> None:
    # §5.6: "An answer no (or n, net, нет, Ukrainian ні, any case) within those 10 s keeps
    # the seat, info text=You stay at table T."; then leave! leaves with no question
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    sat = await ann.read_until(lambda x: x.startswith("You sit at table"))
    table = sat.split()[4].rstrip(",")
    await bob.send(f"sit {table}")
    await bob.expect("event", kind="start")
    for answer in ("n", "NET", "Нет", "ні", "НІ"):
        await ann.send("leave")
        await ann.read_until(lambda x: x.startswith("Leaving forfeits the game"))
        await ann.send(answer)
        said = await ann.read_until(lambda x: x.startswith(("You stay", "Error")))
        assert said == f"You stay at table {table}.", answer
    await ann.send("leave!")
    assert await ann.read_until(lambda x: x.startswith(("You leave", "Leaving"))) == (
        f"You leave table {table}."
    )
    await bob.expect("event", kind="match-end", reason="left")


@pytest.mark.timeout(30)
async def test_reserve_answers_in_the_words_of_5_5a(
    start: Start, tmp_path: Path, connect: Connector
) -> None:
    port = await admin(start, tmp_path)
    boss = await connect.machine(port, "boss", "pw")
    pa = await connect.machine(port, "pa", "pw1")  # registered: still no admin
    assert await lines_until_pong(pa, "reserve 2 moscow seats=pa,pb") == [
        "error code=not-allowed text=reserve is for the server's admins"
    ]
    for line in (
        "reserve 2 moscow seats=pa,pb watch=some",
        "reserve 2 moscow seats=pa,pb deals=1.5",
        "reserve 2 moscow seats=pa,pa",
        "reserve 3 moscow seats=pa,pb",
    ):
        [refused] = await lines_until_pong(boss, line)
        assert fields(refused)[1]["code"] == "bad-argument", (line, refused)
    said = await lines_until_pong(boss, "reserve 2 moscow seats=pa,pb")
    table = fields(said[0])[1]["table"]
    assert said[0] == f"ok cmd=reserve table={table} text=Table {table} is reserved for pa, pb."
    # "the admin then observes the table (§5.7) from its first event"
    await pa.send("seek reserved")
    await pa.expect("ok", cmd="sit", table=table)
    await boss.read_until(lambda x: " kind=seated " in x)
    told = [fields(x)[1] for x in boss.lines if x.startswith("event ")]
    assert [int(e["seq"]) for e in told] == list(range(1, len(told) + 1)), told
    assert told[-1]["name"] == "pa"
    [released] = await lines_until_pong(boss, "release nothing-held")
    assert released.startswith("ok cmd=release board=nothing-held records=0 text="), released


@pytest.mark.timeout(30)
async def test_rules_arguments_and_a_player_counts_line_as_5_9_says(
    start: Start, tmp_path: Path, connect: Connector
) -> None:
    port = await admin(start, tmp_path)
    boss = await connect.machine(port, "boss", "pw")
    ann = await connect.machine(port, "ann")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    said = await lines_until_pong(ann, f"rules {table}")
    # "the player count's ... names itself: Three players: …"
    assert said[1].startswith("rules text=Three players: "), said
    for line in (f"rules {table} {table}", "rules frob", "rules to-301 short"):
        [refused] = await lines_until_pong(ann, line)
        assert fields(refused)[1]["code"] == "bad-argument", (line, refused)
    # a ladder's board, not listed to a player there is none of: unknown-table
    await boss.send("reserve 2 moscow seats=pa,pb board=k")
    board = (await boss.expect("ok", cmd="reserve"))["table"]
    assert await lines_until_pong(ann, f"rules {board}") == [
        f"error code=unknown-table text=there is no table {board}"
    ]
    told = await lines_until_pong(boss, f"rules {board}")  # (after the observe's lines)
    assert next(x for x in told if x.startswith("rules ")).startswith(
        f"rules text=Table {board}: moscow"
    )


@pytest.mark.timeout(30)
async def test_a_table_leaves_the_list_when_its_match_ends(port: int, connect: Connector) -> None:
    # §5.2: "A table disappears from the list when its match ends or its last player
    # leaves" (its players still seated there, the match over)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("event", kind="start")
    listed = [x for x in await lines_until_pong(bob, "tables") if x.startswith("table")]
    assert listed[0].startswith("tables count=1 ") and len(listed) == 2, listed
    await ann.send("leave")  # forfeits: the match ends
    await bob.expect("event", kind="match-end")
    assert await lines_until_pong(bob, "tables") == ["tables count=0 total=0 page=1 pages=1"]


@pytest.mark.timeout(30)
async def test_seekers_sit_in_the_order_they_sought_and_a_seek_ends_as_5_5_says(
    port: int, connect: Connector
) -> None:
    ann, bob, cid, dan = [await connect.machine(port, n) for n in ("ann", "bob", "cid", "dan")]
    # "options= empty when none, and the text then names none"
    assert await lines_until_pong(bob, "seek 3") == [
        "ok cmd=seek players=3 variant=moscow options= text=Waiting for a 3-player moscow game."
    ]
    await ann.send("seek 3")
    await ann.expect("ok", cmd="seek")
    # a seek of another game, then of this one again: bob goes to the back, behind ann;
    # ann's seek of the game she waits for keeps her place (§5.5 said any second seek
    # went to the back: a slip, corrected)
    for client, line in ((bob, "seek 3 to-301"), (bob, "seek 3"), (ann, "seek 3")):
        await client.send(line)
        await client.expect("ok", cmd="seek")
    await cid.send("seek 3")
    seats = {c.label: (await c.expect("ok", cmd="sit"))["seat"] for c in (ann, bob, cid)}
    assert seats == {"ann": "0", "bob": "1", "cid": "2"}  # "the first seeker gets seat 0"
    # "Opening or sitting at a table ends a seek"
    await dan.send("seek 4")
    await dan.expect("ok", cmd="seek")
    await dan.send("new 2")
    await dan.expect("ok", cmd="sit")
    await dan.send("leave")
    await dan.expect("ok", cmd="leave")
    assert await lines_until_pong(dan, "unseek") == [
        "error code=not-allowed text=you are not waiting for a game"
    ]


@pytest.mark.timeout(30)
async def test_a_match_left_at_once_is_told_in_russian_as_5_5_has_it(
    port: int, connect: Connector
) -> None:
    vera = await connect.raw(port, "vera")
    await vera.send("login vera lang=ru")
    ivan = await connect.raw(port, "ivan")
    await ivan.send("style machine")
    await ivan.expect("ok", cmd="style")
    await ivan.send("login ivan lang=ru")
    await ivan.expect("ok", cmd="login")
    told = []
    for player, game in ((vera, "2"), (ivan, "2 to-301")):  # (vera's seek is kept)
        grief = await connect.machine(port, "grief", source=f"127.0.0.{2 + len(told)}")
        await player.send(f"seek {game}")
        await grief.send(f"seek {game}")
        await grief.expect("event", kind="start")
        await grief.send("leave!")
        await grief.expect("ok", cmd="leave")
        await grief.send("quit")  # (the next grief is another connection of that name)
        await grief.wait_closed()
        line = await player.read_until(lambda x: "first deal ended" in x or "первой раздачи" in x)
        while not line.endswith("."):  # a person's sentence, wrapped at 80 columns
            line += " " + (await player.read_until(lambda _: True)).strip()
        told.append(line)
    assert told == [
        "grief покидает стол до конца первой раздачи: вы снова ждёте партию (moscow,"
        " игроков: 2), первым в очереди, и с grief вас 10 мин не сведут.",
        # a program is told in English, whatever its lang (§4.2: lang is the human style's)
        "info text=grief left before the first deal ended: seek a 2-player moscow game"
        " (to-301) again and you are first in line, and are not matched with grief again"
        " for 10 min.",
    ]
    # the program's sentence in Russian, as §5.5 quotes it (a client may show it so)
    apart = phrase(Msg.SEEK_APART, name="grief", minutes=10)
    russian = phrase(
        Msg.SEEK_KEPT_PLACE, name="grief", players=2, variant="moscow", options="", apart=apart
    ).text(Lang.RU)
    quoted = section("5.5").split("(Russian: `… ", 1)[1].split("`)", 1)[0].removesuffix(" …")
    assert quoted in russian, (quoted, russian)


@pytest.mark.timeout(30)
async def test_a_watcher_who_sits_down_stops_watching_told_as_seated(
    port: int, connect: Connector
) -> None:
    # §5.7: "Sitting down at a table you observe ends the observing (a seat sees more)";
    # "a watcher who sits down is told as seated instead"; §5.3: new's defaults; §5.8:
    # no text is bad-argument
    ann = await connect.machine(port, "ann")
    eve = await connect.machine(port, "eve")
    assert await lines_until_pong(eve, "say") == ["error code=bad-argument text=say TEXT"]
    await ann.send("new")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    listed = fields((await lines_until_pong(eve, "tables"))[1])[1]
    assert (listed["players"], listed["variant"], listed["options"]) == ("2", "moscow", "")
    await eve.send(f"observe {table}")
    await eve.expect("info")
    await ann.expect("event", kind="observer", watching="1")
    await eve.send(f"sit {table}")
    await eve.expect("ok", cmd="sit")
    await ann.expect("event", kind="seated", name="eve")
    await ann.expect("event", kind="start")
    await lines_until_pong(ann, "ping")  # (all the table told her so far)
    assert not [x for x in ann.lines if "watching=0" in x]
    listed = fields((await lines_until_pong(eve, "tables"))[-1])[1]
    assert listed["observers"] == "0"
    assert await lines_until_pong(eve, "unobserve") == [
        "error code=not-allowed text=you observe no such table"
    ]


@pytest.mark.timeout(30)
async def test_a_private_tables_match_is_listed_in_games_as_any_other(
    port: int, connect: Connector
) -> None:
    # §5.3: "Its match is played and recorded like any other: once it is over it is
    # listed in games"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    await bob.send(f"sit {table}")
    await bob.expect("event", kind="start")
    await ann.send("leave")
    await bob.expect("event", kind="match-end")
    listed = await lines_until_pong(eve, "games ann")
    assert listed[0] == "games name=ann count=1", listed
    assert fields(listed[1])[1]["players"] == "ann,bob", listed
