"""An audit of docs/bots.md against the client library, the reference bots and the
server, in the order a bot writer reads it. Each promise, and (→) the tests that pin it:
a module under tests/ and its tests, "here" for this module's. The page's examples are
run as written: a bot file written to tmp_path, against a real server on port 0.

§"A bot in any language" the shown bot, run as written (its file alone, no project on
its path), plays a match against itself and quits with status 0
    → here: test_the_docs_raw_bot_as_written_plays_a_match_and_quits;
    → clients/test_bots.py test_the_raw_bot_plays_one_game_against_a_random_bot (the file)
§ the shown loop is clients/raw_bot.py's
    → clients/test_raw_bot_doc.py test_the_docs_sample_bot_reads_its_lines_as_raw_bot_does
§ raw_bot.py is standalone: imports nothing from this project
    → here: test_the_raw_bot_and_the_docs_copy_import_the_standard_library_alone
§ it says why in one line when it cannot connect or the connection breaks; refusals,
the banner's protocol, a closed connection: one line, status 2
    → clients/test_refusals.py test_the_raw_bot_refused_at_login_says_so_and_exits_2,
      test_the_raw_bot_whose_seek_is_refused_says_so_and_exits_2,
      test_the_raw_bot_at_another_protocol_or_closed_without_bye_exits_2,
      test_the_raw_bot_that_cannot_connect_says_so_and_exits_2
§ a `slow-down` with `wait_ms=` waited out, the lines sent again, a few times at most; a
`login` put off waited out with its connection closed
    → clients/test_refusals.py test_the_raw_bot_put_off_waits_as_told_seeks_again_and_plays,
      test_the_raw_bot_put_off_again_and_again_stops_after_a_few_tries,
      test_the_raw_bot_whose_login_is_put_off_logs_in_again_on_a_new_connection
§ `login NAME style=machine` does both lines' work; a connection not logged in closed
after 15 s → docs/protocol.md §4.2, §2.1: protocol/test_protocol_audit.py (that audit)
§ `fields`: `text` runs to the end of the line (spaces, `=`, `text=`), other values end
at a space, unknown keys kept; the same as the library reads the line
    → here: test_the_docs_fields_splits_a_line_as_the_library_does
§ cards' order and points → docs/rules.md §1, §12.4 (rules' own audit; not this page's)
§ Tertz is two-player (`seek 3 tertz` is `bad-rules`); Moscow and Kharkov take 2, 3, 4
    → here: test_tertz_takes_two_players_moscow_and_kharkov_two_to_four;
    → server/test_tertz_human.py (the refusal's text)
§ pairing answers past the first three lines, unasked `ok cmd=sit`, `info closed=`,
`slow-down wait_ms=` → docs/protocol.md §2.3, §5.5, §7, §9.7, §10, §11.4: the protocol
audit (protocol/test_protocol_audit*.py)
§ more matches: a `seek` of the game already sought keeps its place; a call refused after
`match-end` (`wrong-phase`, `unknown-command` naming the match); `bot` answered `ok
cmd=bot`, past its starts `slow-down wait_ms=`
    → server/test_kept_seek_sought_again.py; server/test_rematch.py (the match over);
      protocol/test_protocol_audit_table.py (`the game is over`);
      server/test_house_bots.py, server/test_slow_down_waits.py
      test_a_house_bot_refused_by_both_its_limits_is_told_the_longer_wait

§"The Python client library" the example, run as it stands (one line and status 2 when
the server goes; an opponent who leaves: one line, seeks again)
    → clients/test_library_bot_doc.py (both tests)
§ typed, ships `py.typed` → clients/test_typed.py
§ a line over 1 MiB (`MOST_LINE_BYTES`) is `LineTooLong`, a `ConnectionError`
    → protocol/test_wire.py; → here: test_the_numbers_the_page_gives_are_the_librarys
§ `run_to_end`: one line and status 2, never a traceback; `Stats.matches`
(`MatchResult`, attrs, frozen; the last 1,000), its fields and the match line
    → clients/test_match_result.py; clients/test_library_bot_doc.py;
    → here: test_the_numbers_the_page_gives_are_the_librarys (1,000; frozen)
§ the names the page gives: `Bot`'s keywords (`password`, `seek`, `games`, `reconnects`,
`pick`, `asks_only`, `on_event`, `on_board`, `tell`, `on_fallback`, `attach`), `Brain`'s
fields, `Stats`' counts, `MatchResult`'s fields and `Outcome`'s values, the exceptions
and what they are (`Refused` a `PermissionError`, `LoginPutOff` and `SeekPutOff` a
`PutOff`, a `ConnectionError` with `what` and `wait_s`), `Handed`, `parse`'s types
and `Event`'s getters
    → here: test_the_library_has_what_the_page_names
§ `parse`: `View` needs `players` and `seq=` (`WireError`), `Event` typed on access
    → clients/test_protocol_parse.py
§ `Bot` answers with `seq=`, stops after `games`; a failing table counts toward `games`
    → clients/test_bots.py test_two_random_bots_play_n_games_and_stop;
    → ladder/test_table_failure.py
§ the clock: 0.3 s kept back, the first legal call a fallback
    → clients/test_bots.py (the `choose took longer than its 0.30 s` test);
    → here: test_the_numbers_the_page_gives_are_the_librarys (0.3 s)
§ quick bots (`pick`) → clients/test_bots.py, ladder/test_in_process.py; a bot with
`on_event` has its asks go to `choose`, `pick` given or not
    → here: test_on_fallback_is_called_after_each_fallback_and_each_on_event_fault
§ a bot's faults: `Bot(on_fallback=…)` called with `bot.stats` after each fallback and
after each exception of `on_event` (which costs no fallback); the first fault said once
through `tell` → here: test_on_fallback_is_called_after_each_fallback_and_each_on_event_fault;
→ ladder/test_bot_faults.py (in a ladder, its report)
§ told only the asks: `Bot(asks_only=True)` is told its asks, the match's end and the
replies, no other event and no deal record, and plays its match; with `on_event` it is
told every line → here: test_a_bot_told_only_its_asks_hears_nothing_else_and_plays;
→ server/test_tell_asks.py (the server's side)
§ drops: resumes by token or password; `ping` after 60 s; `reconnects` default 5
    → clients/test_bots.py (resume tests); clients/test_keep_alive.py;
    → here: test_the_numbers_the_page_gives_are_the_librarys (60 s, 5)
§ drops: with `DEBERC_TOKEN_DIR` the token is kept in `NAME.token` (the token alone, no
newline; what is read is stripped), so a restarted process resumes its seat
    → here: test_a_restarted_bot_resumes_its_seat_from_its_token_file
§ refusals and puts-off, their lines and status 2 → clients/test_refusals.py
§ a server it cannot reach: given up after its reconnects, some 5 s with the default 5;
seeks put off again after 1 s, doubling to 30 s at most; a wait said by `slow-down` at
most an hour; the login timeout of 15 s the raw bot minds
    → clients/test_refusals.py (the lines and statuses);
    → here: test_a_bot_that_cannot_connect_gives_up_after_some_5_s,
      test_the_numbers_the_page_gives_are_the_librarys
§ `run_brain`: a `ValueError` from `brain` is one line and status 2
    → here: test_a_brain_that_refuses_its_settings_is_one_line_and_status_2
§ your own command line (`bot_arguments`, `run_bot`, `run_brain`), both examples
    → ladder/test_docs_bots.py
§ a bot's faults → ladder/test_bot_faults.py
§ reference bots runnable as modules with the options listed; the search bot's
`--level 1..5` (default 3) and `--ms`
    → here: test_the_reference_bots_take_the_options_the_table_lists;
    → clients/test_search_levels.py (each level's own time)

§"The search bot" worlds weighed by the bids: a logistic, 6 points of strength e-fold,
never less than 8% → clients/test_search_bot.py (bid_likelihood);
→ here: test_the_search_bots_numbers_are_the_pages
§ the solver's rules of play checked against the engine → clients/test_search_bot.py
§ a ladder board: a won deal 150 more; three players: off (`win_bonus_three` 0); an
order must promise 10 points more than a pass; the whistlers searched apart (on by
default, `whistler_search`), `bid_own_policy` off
    → here: test_the_search_bots_numbers_are_the_pages
§ Levels: the table (worlds, depth, to the end from, bid worlds, time), level 3 the
default → here: test_the_levels_table_is_the_search_bots_levels;
→ clients/test_search_levels.py
§ a decision uses 85% of its time, aims at 12 worlds; `DEBERC_SEARCH_CLOCK=cpu`
    → here: test_the_search_bots_numbers_are_the_pages (the numbers and the variable's
      name; the CPU clock's effect is timing: bench/'s, not pinned)
§ before the first record it assumes its `--seek`'s rules; Tertz searched with the
engine's `TertzDeal` → clients/test_search_bot.py, clients/test_search_tertz.py,
clients/test_search_whistler.py
§"Strength" and the strength table: measurements (bench/search_ladder.py,
bench/search_duel.py), dated results, not promises a test can pin: not audited
"""

from __future__ import annotations

import ast
import contextlib
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

import clients.client
import clients.protocol
from clients.client import (
    CLOCK_MARGIN,
    KEEPALIVE_S,
    MATCHES_KEPT,
    RECONNECTS,
    SEEK_RETRY_MAX_S,
    SEEK_RETRY_S,
    SLOW_DOWN_MAX_S,
    Bot,
    MatchResult,
    Stats,
    bot_arguments,
)
from clients.protocol import Event, Record, View
from clients.search.clock import CLOCK_ENV
from clients.search.policy import (
    DEFAULT_LEVEL,
    LEVELS,
    MIN_WORLDS,
    ORDER_MARGIN,
    TIME_SHARE,
    WIN_BONUS,
    SearchPlayer,
)
from clients.search.world import BID_FLOOR, BID_SCALE
from deberc_net.protocol.wire import MOST_LINE_BYTES, LineTooLong, fields_of
from deberc_net.server.config import Config
from tests.server.conftest import Connector

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
StartServer = Callable[..., Awaitable[int]]


def raw_bot_example() -> str:
    """The page's first Python block: the bot for other languages to copy."""
    return DOC.split("```python\n", 1)[1].split("```", 1)[0]


def stdlib_imports(source: str) -> set[str]:
    """The top-level names of every module the source imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[0])
    return names


def test_the_raw_bot_and_the_docs_copy_import_the_standard_library_alone() -> None:
    for source in (raw_bot_example(), (ROOT / "clients" / "raw_bot.py").read_text("utf-8")):
        imported = stdlib_imports(source)
        assert imported and imported <= sys.stdlib_module_names, imported


@pytest.mark.timeout(60)
async def test_the_docs_raw_bot_as_written_plays_a_match_and_quits(
    start_server: StartServer, connect: Connector, tmp_path: Path
) -> None:
    port = await start_server()
    script = tmp_path / "bot.py"
    script.write_text(raw_bot_example(), encoding="utf-8")
    # -I -S: no PYTHONPATH, no site-packages (where the project is installed): a copy
    # that needed anything but the standard library could not start
    done: dict[str, subprocess.CompletedProcess[bytes]] = {}

    async def run(name: str) -> None:
        done[name] = await trio.run_process(
            [sys.executable, "-I", "-S", str(script), "127.0.0.1", str(port), name],
            cwd=tmp_path,
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )

    with trio.fail_after(45):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run, "north")
            nursery.start_soon(run, "south")
    for name, result in done.items():
        assert result.returncode == 0, (name, result.stderr.decode())
        assert result.stderr == b"", (name, result.stderr.decode())
    carl = await connect.machine(port, "carl")
    await carl.send("games north")
    assert (await carl.expect("games"))["count"] == "1"
    game = await carl.expect("game")
    assert sorted(game["players"].split(",")) == ["north", "south"]
    # both pass every bid (the first legal call): the deals void, the match ends on its
    # deal limit, played out, not forfeited
    assert game["reason"] in ("target", "claim", "most-deals"), game


def docs_fields() -> Callable[[str], tuple[str, dict[str, str]]]:
    """The example's `fields`, defined as the page writes it."""
    tree = ast.parse(raw_bot_example())
    (node,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "fields"]
    space: dict[str, Any] = {}
    exec(compile(ast.Module(body=[node], type_ignores=[]), "bots.md", "exec"), space)
    found: Callable[[str], tuple[str, dict[str, str]]] = space["fields"]
    return found


def test_the_docs_fields_splits_a_line_as_the_library_does() -> None:
    fields = docs_fields()
    line = "info closed=3 newkey=x text=Table 3 closes: a=b text=c  two spaces"
    tag, kv = fields(line)
    assert tag == "info"
    assert kv == {"closed": "3", "newkey": "x", "text": "Table 3 closes: a=b text=c  two spaces"}
    ask = "ask seq=4 legal=pass,K-spades deal=2 players=2 seat=0"
    assert fields(ask)[1]["legal"].split(",") == ["pass", "K-spades"]
    for sample in (line, ask):  # what the library reads from the same line
        assert fields(sample) == fields_of(sample)


@pytest.mark.timeout(30)
async def test_tertz_takes_two_players_moscow_and_kharkov_two_to_four(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server()
    for count, variant, tag in (
        ("3", "tertz", "error"),
        ("4", "tertz", "error"),
        ("2", "tertz", "ok"),
        ("2", "moscow", "ok"),
        ("3", "moscow", "ok"),
        ("4", "moscow", "ok"),
        ("2", "kharkov", "ok"),
        ("3", "kharkov", "ok"),
        ("4", "kharkov", "ok"),
    ):
        seeker = await connect.machine(port, f"s{count}{variant}")
        reply = await seeker.reply(f"seek {count} {variant}", "")
        assert reply.split()[0] == tag, (count, variant, reply)
        if tag == "error":
            assert "code=bad-rules" in reply, reply
        await seeker.aclose()


def test_the_numbers_the_page_gives_are_the_librarys() -> None:
    assert MOST_LINE_BYTES == 1 << 20 and issubclass(LineTooLong, ConnectionError)
    assert KEEPALIVE_S == 60 and RECONNECTS == 5 and CLOCK_MARGIN == 0.3
    assert (SEEK_RETRY_S, SEEK_RETRY_MAX_S, SLOW_DOWN_MAX_S) == (1, 30, 3600)
    assert Config().login_timeout_ms == 15_000
    assert bot_arguments("x").parse_args(["--name", "x"]).reconnects == RECONNECTS
    assert MATCHES_KEPT == 1000 and Stats().matches.maxlen == 1000
    assert attrs.has(MatchResult)
    assert MatchResult.__setattr__ is not object.__setattr__  # frozen: attrs guards it


REFERENCE_OPTIONS = ("--host", "--port", "--name", "--password", "--seek", "--games", "--seed")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("module", ["random_bot", "search_bot", "heuristic_bot"])
def test_the_reference_bots_take_the_options_the_table_lists(module: str) -> None:
    shown = subprocess.run(
        [sys.executable, "-m", f"clients.{module}", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    for option in (*REFERENCE_OPTIONS, "--reconnects"):
        assert option in shown.stdout, (module, option)
    said = " ".join(shown.stdout.split())  # argparse wraps the help texts
    assert "the server (default 127.0.0.1)" in said, module
    assert "the server's game port (default 7501)" in said, module
    assert "``" not in shown.stdout, module  # the docstring is the help: no reST markup
    if module == "search_bot":
        assert "{1,2,3,4,5}" in shown.stdout and "(default 3)" in shown.stdout
        assert (
            "--ms" in shown.stdout and "1: 50 ms" in shown.stdout and "5: 1000 ms" in shown.stdout
        )


def levels_table() -> list[list[str]]:
    """The rows of the page's Levels table: level, worlds, depth, exact, bid worlds, time."""
    block = DOC.split("| level | worlds for a card |", 1)[1].split("\n\n", 1)[0]
    rows = [line.strip().strip("|").split("|") for line in block.splitlines()[2:]]
    return [[cell.strip() for cell in row] for row in rows]


def test_the_levels_table_is_the_search_bots_levels() -> None:
    rows = levels_table()
    assert len(rows) == len(LEVELS) == 5
    for row in rows:
        level = int(row[0].split()[0])
        if "(default)" in row[0]:
            assert level == DEFAULT_LEVEL
        time = row[5]
        ms = int(time.removesuffix(" ms")) if time.endswith(" ms") else 1000 * int(time[:-2])
        kept = LEVELS[level]
        assert [int(cell) for cell in row[1:5]] == [
            kept.samples,
            kept.depth,
            kept.exact,
            kept.bid_samples,
        ], row
        assert kept.ms == ms, row


def test_the_search_bots_numbers_are_the_pages() -> None:
    assert (BID_SCALE, BID_FLOOR) == (6.0, 0.08)
    assert (WIN_BONUS, ORDER_MARGIN, TIME_SHARE, MIN_WORLDS) == (150, 10, 0.85, 12)
    player = SearchPlayer()
    assert player.win_bonus == 150 and player.win_bonus_three == 0  # off at three
    assert player.whistler_search and not player.bid_own_policy
    assert LEVELS[3].bid_samples == 96  # "96 at level 3" in the decisions' table
    assert CLOCK_ENV == "DEBERC_SEARCH_CLOCK"


@pytest.mark.timeout(60)
async def test_a_restarted_bot_resumes_its_seat_from_its_token_file(
    start_server: StartServer, connect: Connector, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEBERC_TOKEN_DIR", str(tmp_path))
    port = await start_server()
    asked = trio.Event()

    def first_ask(line: Event | View | Record) -> None:
        if isinstance(line, View) and line.kind == "ask":
            asked.set()

    def first(view: View) -> str:
        return view.legal[0]

    ann = Bot(first, "ann", port=port, seek="2", games=1, on_event=first_ask)
    bob = Bot(first, "bob", port=port, seek="2", games=1)
    again = Bot(first, "ann", port=port, seek="2", games=1)
    with trio.fail_after(45):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bob.run)
            with trio.CancelScope() as first_process:
                nursery.start_soon(ann.run)
                await asked.wait()
                first_process.cancel()  # the process gone mid-match
            kept = tmp_path / "ann.token"
            assert ann.token and kept.read_bytes() == ann.token.encode("utf-8")  # no newline
            # white space around it, as another bot or a hand may write it: stripped on reading
            kept.write_text(f" {ann.token}\n", encoding="utf-8")
            nursery.start_soon(again.run)  # a new process: nothing but the file
    assert again.token == ann.token and again.stats.games == bob.stats.games == 1
    carl = await connect.machine(port, "carl")
    await carl.send("games ann")
    assert (await carl.expect("games"))["count"] == "1"
    game = await carl.expect("game")
    assert sorted(game["players"].split(",")) == ["ann", "bob"] and game.get("forfeit") in (
        None,
        "-",
    )


def test_the_library_has_what_the_page_names() -> None:
    library: tuple[str, ...] = ("Bot", "Brain", "Handed", "run_to_end", "run_bot", "run_brain")
    library += ("Outcome", "bot_arguments", "LoginRefused", "SeekRefused", "LoginPutOff")
    assert all(
        hasattr(clients.client, name) for name in (*library, "SeekPutOff", "ProtocolMismatch")
    )
    parsing = ("parse", "View", "Record", "Event", "Tag", "EventKind", "MatchEnd", "WireError")
    assert all(hasattr(clients.protocol, name) for name in parsing)
    getters = ("get_int", "get_ints", "get_list", "get_str", "get_bool", "require")
    assert all(callable(getattr(clients.protocol.Event, name)) for name in getters)
    keywords = {"password", "seek", "games", "reconnects", "pick", "asks_only", "on_event"}
    keywords |= {"on_board", "tell", "on_fallback", "attach"}
    assert keywords <= {a.name for a in attrs.fields(Bot)}
    brain = {a.name for a in attrs.fields(clients.client.Brain)}
    assert brain == {"choose", "pick", "on_board", "on_event", "asks_only"}
    counts = {a.name for a in attrs.fields(Stats)}
    assert {"games", "asks", "fallbacks", "errors", "first_fault", "matches"} <= counts
    result = {a.name for a in attrs.fields(MatchResult)}
    assert result == {"outcome", "winner", "winners", "reason", "totals", "deals", "match"} | {
        "table",
        "forfeit",
        "claimed",
    }
    assert [o.name for o in clients.client.Outcome] == ["WON", "LOST", "DRAWN", "NO_RESULT"]
    refused = (clients.client.LoginRefused, clients.client.SeekRefused)
    assert all(issubclass(kind, clients.client.Refused) for kind in refused)
    assert issubclass(clients.client.Refused, PermissionError)
    put_off = (clients.client.LoginPutOff, clients.client.SeekPutOff)
    assert all(issubclass(kind, clients.client.PutOff) for kind in put_off)
    assert issubclass(clients.client.PutOff, ConnectionError)
    assert [kind.what for kind in put_off] == ["login", "seek"]
    assert clients.client.LoginPutOff("busy", wait_s=2.5).wait_s == 2.5
    assert clients.client.SeekPutOff("busy", wait_s=4.0).wait_s == 4.0


@pytest.mark.timeout(30)
async def test_a_bot_that_cannot_connect_gives_up_after_some_5_s(
    virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    with socket.socket() as held:  # bound, never listening: every connect is refused
        held.bind(("127.0.0.1", 0))
        bot = Bot(lambda view: view.legal[0], "ann", port=held.getsockname()[1])
        began = trio.current_time()
        with pytest.raises(OSError):
            await bot.run()
    waited = trio.current_time() - began
    assert 4 <= waited <= 6, waited  # "some 5 s", on the virtual clock
    assert len(bot.stats.errors) == RECONNECTS + 1  # the first try and its reconnects


async def recording_proxy(nursery: trio.Nursery, port: int, told: list[str]) -> int:
    """A port that passes one connection on to the server's, keeping what the server
    says on it, line by line."""
    (listener,) = await trio.open_tcp_listeners(0, host="127.0.0.1")

    async def serve() -> None:
        client = await listener.accept()
        server = await trio.open_tcp_stream("127.0.0.1", port)

        async def up() -> None:
            async for data in client:
                await server.send_all(data)

        async def down() -> None:
            pending = b""
            async for data in server:
                pending += data
                *lines, pending = pending.split(b"\n")
                told.extend(line.decode().rstrip("\r") for line in lines)
                await client.send_all(data)

        async def pump(direction: Callable[[], Awaitable[None]]) -> None:
            # either side closing (the bot's quit, its bye) ends the pair: a reset
            # after the bot has gone is that, not a failure
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await direction()
            pumps.cancel_scope.cancel()

        async with client, server, trio.open_nursery() as pumps:
            pumps.start_soon(pump, up)
            pumps.start_soon(pump, down)

    nursery.start_soon(serve)
    address: tuple[str, int] = listener.socket.getsockname()
    return address[1]


@pytest.mark.timeout(45)
async def test_a_bot_told_only_its_asks_hears_nothing_else_and_plays(
    start_server: StartServer, nursery: trio.Nursery
) -> None:
    port = await start_server()
    told: list[str] = []
    quiet = Bot(
        lambda view: view.legal[-1],
        "quiet",
        port=await recording_proxy(nursery, port, told),
        seek="2",
        games=1,
        asks_only=True,
    )
    heard: list[Event | View | Record] = []
    # asks_only with on_event: it would be fed nearly nothing, so it is told every line
    listening = Bot(
        lambda view: view.legal[-1], "listening", port=port, seek="2", games=1,
        asks_only=True, on_event=heard.append,
    )  # fmt: skip
    with trio.fail_after(40):
        async with trio.open_nursery() as both:
            both.start_soon(quiet.run)
            both.start_soon(listening.run)
    assert quiet.stats.games == listening.stats.games == 1 and quiet.stats.errors == []
    tags = [line.split(" ", 1)[0] for line in told]
    kinds = {fields_of(line)[1].get("kind") for line in told if line.startswith("event ")}
    assert "ask" in tags and kinds == {"match-end"}, kinds
    assert "record" not in tags
    assert len(told) < len(heard) / 2, (len(told), len(heard))  # the rest was not sent
    seen = {line.kind for line in heard if isinstance(line, Event)}
    assert {"play", "start", "match-end"} <= seen and any(isinstance(x, Record) for x in heard)


@pytest.mark.timeout(45)
async def test_on_fallback_is_called_after_each_fallback_and_each_on_event_fault(
    start_server: StartServer,
) -> None:
    port = await start_server()
    chosen: list[View] = []
    called: list[tuple[int, int]] = []  # (fallbacks, errors) as on_fallback saw them
    told: list[str] = []
    events = 0

    def choose(view: View) -> str:
        chosen.append(view)
        if len(chosen) == 1:
            raise RuntimeError("bug in choose")
        return view.legal[-1]

    def on_event(line: Event | View | Record) -> None:
        nonlocal events
        events += 1
        if events == 3:
            raise KeyError("bug in on_event")

    def never(legal: list[str]) -> str:
        raise AssertionError("a bot with on_event has its asks go to choose")

    ann = Bot(
        choose, "ann", port=port, seek="2", games=1, pick=never, on_event=on_event,
        tell=told.append,
        on_fallback=lambda stats: called.append((stats.fallbacks, len(stats.errors))),
    )  # fmt: skip
    bob = Bot(lambda view: view.legal[-1], "bob", port=port, seek="2", games=1)
    with trio.fail_after(40):
        async with trio.open_nursery() as both:
            both.start_soon(ann.run)
            both.start_soon(bob.run)
    assert chosen and len(chosen) == ann.stats.asks  # every ask went to choose
    assert ann.stats.fallbacks == 1  # choose's exception; on_event's costs none
    assert sorted(ann.stats.errors) == ["choose: RuntimeError('bug in choose')", "on_event: "
                                        "KeyError('bug in on_event')"]  # fmt: skip
    # the third line read (before any ask) raised in on_event, then the first ask in choose
    assert called == [(0, 1), (1, 2)], called
    faults = [line for line in told if " raised " in line]
    assert len(faults) == 1, told  # the first fault, said once
    assert faults[0].startswith("on_event raised KeyError('bug in on_event') at "), faults
    assert faults[0].endswith("; the bot plays on (that line was not taken in)"), faults


REFUSING_BRAIN = """
from clients.client import bot_arguments, run_brain


def brain(name, seed):
    raise ValueError(f"seed {seed!r} is not a number")


run_brain(brain, bot_arguments("refusing").parse_args())
"""


@pytest.mark.timeout(30)
def test_a_brain_that_refuses_its_settings_is_one_line_and_status_2(tmp_path: Path) -> None:
    script = tmp_path / "refusing.py"
    script.write_text(REFUSING_BRAIN, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), "--name", "me", "--seed", "x", "--port", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=25,
        check=False,
    )
    assert (done.returncode, done.stderr) == (
        2,
        "me: brain refused its settings: seed 'x' is not a number\n",
    )
