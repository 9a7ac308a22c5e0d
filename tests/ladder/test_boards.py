"""A ladder's boards on the server (``reserve … board=KEY``, ``release KEY``) and the
ladder's own promises: no record or seed reaches a bot before every seating of its
board is played, a random seed by default, the same results with several copies of a
seeded bot, and ratings that move with three players."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from deberc_net.protocol.wire import Tag, parse_line
from tests.server.client import fields, play_machine
from tests.server.conftest import Connector

from .helpers import HEUR, PY, RAND, games_in, ladder, script, summary

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]


async def test_a_boards_records_and_seed_wait_for_the_admins_release(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    pa, pb, nosy = [await connect.machine(port, n) for n in ("pa", "pb", "nosy")]
    await boss.send("reserve 2 moscow seats=pa,pb seed=secret-7 deals=1 board=k1")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    # an outsider may not watch (the play would show the deck: docs/protocol.md §5.5a),
    # and sees no record either
    assert fields(await nosy.reply(f"observe {table}", "error"))[1]["code"] == "not-allowed"
    for player in (pa, pb):
        await player.send("seek reserved")
        sit = await player.expect("ok", cmd="sit")
        assert sit["board"] == "k1" and sit["table"] == table  # the key a bot seeds from
    rng = random.Random(3)
    async with trio.open_nursery() as nursery:
        for player in (pa, pb):
            nursery.start_soon(play_machine, player, rng)
    record = json.loads((await boss.expect("record", table=table))["text"])
    assert record["seed"].startswith("secret-7")  # the last deal's: the admin's copy, at once
    end = parse_line(await boss.read_until(lambda x: "kind=match-end" in x))
    assert end.get_str("seed") is None  # the seed tells the deck: it waits too
    for client in (pa, pb, nosy):
        await client.caught_up()
        assert not any(parse_line(x).tag is Tag.RECORD for x in client.lines), client.label
        assert not any("secret-7" in x for x in client.lines), client.label

    # only an admin releases; a key with nothing held releases nothing
    refused = fields(await pa.reply("release k1", "error"))[1]
    assert refused["code"] == "not-allowed"
    assert fields(await boss.reply("release nothing-here", "ok"))[1]["records"] == "0"
    assert fields(await boss.reply("release", "error"))[1]["code"] == "bad-argument"
    released = fields(await boss.reply("release k1", "ok"))[1]
    assert released["board"] == "k1" and released["records"] == "1"
    for player in (pa, pb):
        got = json.loads((await player.expect("record", table=table))["text"])
        assert got == record  # the whole deal, seed included
    await nosy.caught_up()
    assert not any(parse_line(x).tag is Tag.RECORD for x in nosy.lines)
    again = fields(await boss.reply("release k1", "ok"))[1]
    assert again["records"] == "0"  # sent once


async def test_a_bad_board_key_is_refused(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    for key in ("", "x" * 65, "ключ", "a;b", "a=b"):
        line = await boss.reply(f"reserve 2 seats=pa,pb board={key}", "error")
        assert fields(line)[1]["code"] == "bad-argument", key
    await boss.send("tables")
    assert (await boss.expect("tables"))["count"] == "0"  # nothing was opened


# A bot that notes, in one file shared by every copy, when it sits at a board, when a
# record reaches it and the seed its match-ends carry.
LOGGER = """\
import sys
from pathlib import Path
import trio
from clients.client import Bot, bot_arguments
from clients.protocol import Event, Record
args = bot_arguments("notes what reaches it").parse_args()
log = Path(sys.argv[0]).with_name("seen.log")
def note(item):
    if isinstance(item, Record):
        text = f"record {item.table}"
    elif isinstance(item, Event) and item.tag == "ok" and item.get_str("cmd") == "sit":
        text = f"sit {item.get_str('board')} {item.get_str('table')}"
    elif isinstance(item, Event) and item.kind == "match-end":
        text = f"end {item.get_str('seed')}"
    else:
        return
    with log.open("a") as out:
        out.write(text + "\\n")
trio.run(Bot(lambda view: view.legal[0], args.name, args.host, args.port,
             seek=args.seek, on_event=note).run)
"""


def test_no_bot_sees_a_boards_record_before_every_seating_is_played(tmp_path: Path) -> None:
    logger = script(tmp_path, "logger", LOGGER)
    data = summary(
        ladder(
            tmp_path, "--bot", logger, "--bot", HEUR, "--deals", "3", "--concurrency", "1", "--json"
        )
    )
    assert data["games"] == 6
    seen = (tmp_path / "seen.log").read_text().splitlines()
    board_of = {line.split()[2]: line.split()[1] for line in seen if line.startswith("sit")}
    assert len(board_of) == 6 and len(set(board_of.values())) == 3  # 3 boards, 2 tables each
    records = [line.split()[1] for line in seen if line.startswith("record")]
    assert len(records) == len(set(records)) and set(records) <= set(board_of)
    # the bots are stopped once the last board is released: its records may not make it
    last_board = board_of[max(board_of, key=int)]
    assert {t for t, b in board_of.items() if b != last_board} <= set(records)
    for table in records:
        last_sit = max(i for i, x in enumerate(seen) if x.startswith(f"sit {board_of[table]} "))
        assert seen.index(f"record {table}") > last_sit, (table, seen)
    assert {line for line in seen if line.startswith("end")} == {"end None"}


def test_the_seed_is_random_unless_given_and_the_report_tells_it(tmp_path: Path) -> None:
    args = ("--bot", HEUR, "--bot", RAND, "--deals", "1")
    first = summary(ladder(tmp_path, *args, "--json"))
    assert first["random_seed"] and len(first["seed"]) == 16
    text = ladder(tmp_path, *args)
    assert text.returncode == 0, text.stderr
    last = text.stdout.strip().splitlines()[-1]
    assert last.startswith("Seed: ") and "drawn at random" in last and "--seed" in last
    assert last.split()[1].rstrip(";") != first["seed"]  # another run, another seed
    given = summary(ladder(tmp_path, *args, "--seed", "mine", "--json"))
    assert given["seed"] == "mine" and not given["random_seed"]
    assert first["lag_ms"] == 500  # the server's documented allowance (docs/protocol.md §11)


def test_seeded_copies_make_a_ladder_with_concurrency_reproducible(tmp_path: Path) -> None:
    args = (
        "--bot",
        f"rand={PY} -m clients.random_bot --seed 7",
        "--bot",
        HEUR,
        "--deals",
        "8",
        "--seed",
        "same",
        "--concurrency",
        "3",
        "--json",
    )
    one, two = tmp_path / "one.sqlite3", tmp_path / "two.sqlite3"
    first = summary(ladder(tmp_path, *args, db=one))
    second = summary(ladder(tmp_path, *args, db=two))
    for data in (first, second):
        data.pop("seconds"), data.pop("deals_per_second")
    assert first == second

    def results(db: Path) -> list[tuple[int, list[str], list[int]]]:
        return [(g["board"], g["seating"], g["written"]) for g in games_in(db)]

    assert results(one) == results(two)  # in schedule order, whichever copy played


def test_ratings_move_in_a_three_player_ladder_of_two_bots(tmp_path: Path) -> None:
    data = summary(
        ladder(
            tmp_path,
            "--bot",
            HEUR,
            "--bot",
            RAND,
            "--players",
            "3",
            "--deals",
            "2",
            "--seed",
            "three",
            "--json",
        )
    )
    assert data["games"] == 12
    for row in data["ratings"]:
        assert (row["mu"], row["sigma"]) != (25.0, 8.333), row
        assert row["sigma"] < 8.333
