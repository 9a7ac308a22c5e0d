"""An audit of docs/architecture.md against the code. Each promise a reader of the map
may rely on, and (→) the tests that pin it: a module under tests/ and its tests, "here"
for this module's.

The map: every file it names is there (a module, a test module, a conftest)
    → here: test_every_file_the_document_names_is_there
The map and "The rest of the code": every module of deberc_net/ and clients/ is named, or
the document says why not (each package's `__init__.py`)
    → here: test_every_module_is_on_the_map_or_the_map_says_why_not
The map: each name it puts in a module is defined there (Server.handle,
Session.until_handled, Lobby.handlers, Table.call_here, running.LocalLink, Spawner,
Match.apply/forfeit/stop/finish_deal, Deal.apply, _HANDLERS, why_not, TertzDeal, Talk,
Tally, DealResult, RecordFold, Records, LazyRecord, unveil, replay_deal, ScoreSheet,
Clocks, automatic_call, in_telling_order, the inbox's messages, ReplayFold, ...)
    → here: test_the_names_the_map_puts_in_a_module_are_defined_there
lobby: each command's handler named in one table (Lobby.handlers), in the module the map
names for it; server/moderation.py and server/ignoring.py were missing from the map, and
`leave!`: a slip, corrected
    → here: test_the_lobby_hands_each_command_to_the_module_the_map_names
server/run_order.py: woken tasks served in the order they woke
    → here: test_run_order_serves_woken_tasks_in_the_order_they_woke
lobby: it owns no nursery (its tasks go to the Spawner) → server/test_lobby_tasks.py
protocol/connection.py: without I/O, the time a number; AWAITING_LOGIN -> LOGGED_IN ->
CLOSED by a transition table
    → protocol/test_connection.py;
    → here: test_the_connection_states_are_the_three_the_map_names
events: one NamedTuple class per kind, the kinds the map lists; protocol/events.py's
seat events (Watching was missing: a slip, corrected); TableEvent carries one of them
    → here: test_the_event_kinds_are_the_ones_the_map_lists; game/test_events.py
render.py: one rendering per event class (singledispatch); event_lines.py and
ask_line.py checked against it
    → protocol/test_event_lines.py (every kind, both ways); protocol/test_render.py
The table task: the telling order (calls, order, dealt, trick, shown, deal-end with its
record, the next deal or match-end) → protocol/test_protocol_audit_table.py
Records etc.: folds over the events → game/test_record_fold.py,
game/test_selfplay_digests.py, game/test_lazy_records.py, game/test_match_freed.py
The replay's hands: each seat's at its first card → web/test_replay.py
A deal's state, copies: Deal.copy / Match.copy play on alone → game/test_deal_copy.py;
the Deberts search "still rebuilds its copies from the log" (`_copy_deal`): it copies
with Deal.copy now (`_copy_with`): a slip, corrected
    → here: test_the_names_the_map_puts_in_a_module_are_defined_there (no _copy_deal)
protocol/wire.py: one formatter and parser; every line kind round-trips
    → protocol/test_wire.py
clients/raw_bot.py stays standalone → here: test_the_raw_bot_imports_nothing_of_ours
The pages it refers to (docs/protocol.md §2.3, docs/web.md, docs/scaling.md, ...)
    → here: test_every_page_and_section_the_map_refers_to_is_there
Each entry's job, in the map's few words → that module's own tests: server/proxy_header.py
→ server/test_game_proxy.py; server/running.py (a task per connection, a writer only while
a socket is full) → server/test_streams.py
test_an_idle_connection_has_no_writer_task_and_a_burst_gets_one_till_sent,
test_an_idle_logged_in_socket_connection_is_one_task_without_a_nursery; protocol/framing.py
→ protocol/test_framing_telnet.py, test_framing_fast_path.py; protocol/commands.py →
server/test_commands.py; server/password_change.py → server/test_password_change.py;
server/kept_apart.py → server/test_kept_apart_memory.py; server/table_numbers.py →
server/test_table_numbers.py; server/table.py (Table.call_here) → server/test_streams.py
test_a_call_to_a_waiting_table_is_handled_by_its_reader_without_waking_the_table;
server/inbox.py → server/test_inbox.py; server/rated_news.py → server/test_ratings.py;
server/seat_log.py → server/test_logs_ops.py; protocol/vocabulary.py →
protocol/test_vocabulary.py; protocol/hints.py → protocol/test_hints.py;
protocol/messages.py → protocol/test_messages.py; protocol/read_back.py →
protocol/test_read_back.py; game/talk.py, game/scoring.py, game/clock.py →
game/test_talk.py, test_scoring.py, test_clock.py
"Not done yet": a note on the tests' own state (which run over memory streams), not a
promise to a user: not pinned.
"""

from __future__ import annotations

import ast
import re
import typing
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import trio
import trio.testing

from deberc_net.game import events as game_events
from deberc_net.protocol import events as protocol_events
from deberc_net.protocol.connection import State
from deberc_net.server.config import Config
from deberc_net.server.lobby import Lobby
from deberc_net.server.run_order import restore, serve_in_arrival_order
from deberc_net.server.store import open_store
from deberc_net.testing import rule_book

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("deberc_net", "clients")


@cache
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def named_paths() -> set[str]:
    """Every ``….py`` the document names, as it writes it."""
    return set(re.findall(r"[\w/]+\.py\b", doc()))


def resolve(path: str) -> Path | None:
    """A path as the document writes it: deberc_net's (``game/deal.py``), or from the
    top (``clients/…``, ``tests/…``)."""
    for candidate in (ROOT / "deberc_net" / path, ROOT / path):
        if candidate.is_file():
            return candidate
    return None


def modules() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def test_every_file_the_document_names_is_there() -> None:
    everywhere = {p.name for top in (*PACKAGES, "tests") for p in (ROOT / top).rglob("*.py")}
    missing = [
        path
        for path in sorted(named_paths())
        # a bare name (``render.py's`` after protocol/render.py): some file of that name
        if (resolve(path) is None if "/" in path else path not in everywhere)
    ]
    assert missing == []


def test_every_module_is_on_the_map_or_the_map_says_why_not() -> None:
    named = {p for p in map(resolve, named_paths()) if p is not None}
    packages_said = "`__init__.py` only says what the package holds" in " ".join(doc().split())
    left = [
        str(path.relative_to(ROOT))
        for path in modules()
        if path not in named and not (path.name == "__init__.py" and packages_said)
    ]
    assert left == [], "on the map, or say why not"


def test_a_module_left_off_the_map_is_found() -> None:
    """The check can fail: a module of the package the document does not name."""
    named = {p for p in map(resolve, named_paths()) if p is not None}
    assert ROOT / "deberc_net" / "cli.py" in named
    assert ROOT / "deberc_net" / "server" / "__init__.py" not in named


# ---------------------------------------------------------------------- names
# (what the map says, the module, the name defined there: ``Class.member`` for a member)
NAMES: tuple[tuple[str, str, str], ...] = (
    ("Server.handle(stream, address, peer)", "server/running.py", "Server.handle"),
    ("Session.until_handled", "server/session.py", "Session.until_handled"),
    ("running.LocalLink", "server/running.py", "LocalLink"),
    ("server/spawner.py Spawner", "server/spawner.py", "Spawner"),
    ("(Lobby.handlers)", "server/lobby.py", "Lobby.handlers"),
    ("(Table.call_here)", "server/table.py", "Table.call_here"),
    ("(Sit, TableCall,", "server/table_messages.py", "Sit"),
    ("(Sit, TableCall,", "server/table_messages.py", "TableCall"),
    ("Away, ...)", "server/table_messages.py", "Away"),
    ("the same Observe message", "server/table_messages.py", "Observe"),
    ("Match.apply(seat, call) / forfeit / stop", "game/match.py", "Match.apply"),
    ("Match.apply(seat, call) / forfeit / stop", "game/match.py", "Match.forfeit"),
    ("Match.apply(seat, call) / forfeit / stop", "game/match.py", "Match.stop"),
    ("then Match.finish_deal", "game/match.py", "Match.finish_deal"),
    ("`Match.copy()`", "game/match.py", "Match.copy"),
    ("Deal.apply(seat, call) -> [events]; _HANDLERS", "game/deal.py", "Deal.apply"),
    ("Deal.apply(seat, call) -> [events]; _HANDLERS", "game/deal.py", "_HANDLERS"),
    ("`Deal.copy()`", "game/deal.py", "Deal.copy"),
    ("`Deal.record()`", "game/deal.py", "Deal.record"),
    ("(`Deal.history`)", "game/deal.py", "Deal.history"),
    ("game/refusals.py (why_not)", "game/refusals.py", "why_not"),
    ("(deberc_deal_class: Tertz,", "plugins/variants/tertz/plugin.py", "deberc_deal_class"),
    ("as\n`TertzDeal.copy`", "plugins/variants/tertz/deal.py", "TertzDeal.copy"),
    ("the table talk: Talk", "game/talk.py", "Talk"),
    ("(`Talk.window_hands`)", "game/talk.py", "Talk.window_hands"),
    ("(Tally: card points", "game/scoring.py", "Tally"),
    ("(DealResult, set once", "game/scoring.py", "DealResult"),
    ("RecordFold: a deal's", "game/record.py", "RecordFold"),
    ("`RecordFold.ended`", "game/record.py", "RecordFold.ended"),
    ("(Records, LazyRecord)", "game/record.py", "Records"),
    ("(Records, LazyRecord)", "game/record.py", "LazyRecord"),
    ("events; unveil", "game/record.py", "unveil"),
    ("replay_deal\n", "game/record.py", "replay_deal"),
    ("with `replay_calls`", "game/record.py", "replay_calls"),
    ("`replay_matches` compares", "game/record.py", "replay_matches"),
    ("ScoreSheet: the score sheet", "game/sheet.py", "ScoreSheet"),
    ("Clocks: deadlines", "game/clock.py", "Clocks"),
    ("`clocks.deadline()`", "game/clock.py", "Clocks.deadline"),
    ("automatic_call: what the clock says", "game/clock.py", "automatic_call"),
    ("`game/events.py: in_telling_order`", "game/events.py", "in_telling_order"),
    ("carries Unveiled", "game/events.py", "Unveiled"),
    ("`Table._apply` applies", "server/table.py", "Table._apply"),
    ("(`ReplayFold`:", "server/web/replay.py", "ReplayFold"),
    ("game/view.py's SeatView", "game/view.py", "SeatView"),
    ("(Session.table, .observing)", "server/session.py", "Session.table"),
    ("(Session.table, .observing)", "server/session.py", "Session.observing"),
    ("`jump_when_idle`", "tests/server/conftest.py", "jump_when_idle"),
)


def defined(path: Path) -> set[str]:
    """The names a module defines at its top and in its classes (``Class.member``):
    classes, functions, assignments, annotated fields."""
    names: set[str] = set()

    def targets(node: ast.stmt) -> list[str]:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            return [node.name]
        if isinstance(node, ast.Assign):
            return [t.id for t in node.targets if isinstance(t, ast.Name)]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return [node.target.id]
        return []

    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        names.update(targets(node))
        if isinstance(node, ast.ClassDef):
            names.update(f"{node.name}.{n}" for child in node.body for n in targets(child))
    return names


def test_the_names_the_map_puts_in_a_module_are_defined_there() -> None:
    text = doc()
    unsaid = [said for said, _, _ in NAMES if said not in text]
    assert unsaid == [], "the audit's table quotes the document"
    wrong = []
    for _, module, name in NAMES:
        path = resolve(module)
        assert path is not None, module
        if name not in defined(path):
            wrong.append(f"{module}: {name}")
    assert wrong == []
    # the Deberts search copies with Deal.copy: the old helper is gone, and so is its name
    assert "_copy_deal" not in text
    assert "_copy_deal" not in defined(ROOT / "clients" / "search" / "policy.py")


def test_the_definition_check_can_fail() -> None:
    assert "Match.apply" in defined(ROOT / "deberc_net" / "game" / "match.py")
    assert "Match.no_such_thing" not in defined(ROOT / "deberc_net" / "game" / "match.py")


# ---------------------------------------------------------------------- the lobby
def lobby_block() -> dict[str, set[str]]:
    """The map's lobby part: each server module's entry and the words of its text."""
    block = doc().split("lobby / table\n", 1)[1].split("\n  ▼", 1)[0]
    entries: dict[str, set[str]] = {}
    current = None
    for line in block.splitlines():
        body = line.lstrip(" │")
        if m := re.match(r"(server/\w+\.py|protocol/\w+\.py)\s+(.*)", body):
            current = m[1]
            entries[current] = set()
            body = m[2]
        if current is not None:
            entries[current] |= set(re.findall(r"[a-z]+!?", body))
    return entries


def test_the_lobby_hands_each_command_to_the_module_the_map_names(tmp_path: Path) -> None:
    class NoTasks:
        def start_soon(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("a handler's table is made without a task")

    store = open_store(str(tmp_path / "lobby.sqlite3"))
    try:
        lobby = Lobby(Config(db=str(tmp_path / "lobby.sqlite3")), store, NoTasks(), rule_book())
        handled = {
            command: f"{handler.__module__.removeprefix('deberc_net.').replace('.', '/')}.py"
            for command, handler in lobby.handlers.items()
        }
    finally:
        store.close()
    entries = lobby_block()
    wrong = {
        command: (module, sorted(m for m, words in entries.items() if command in words))
        for command, module in handled.items()
        if command not in entries.get(module, set())
    }
    assert wrong == {}, "command: (its handler's module, the modules the map names for it)"


def test_the_connection_states_are_the_three_the_map_names() -> None:
    said = re.search(r"States[\s│]+(\w+) -> (\w+) -> (\w+)", doc())
    assert said is not None
    assert [s.name for s in State] == list(said.groups())


# ---------------------------------------------------------------------- events
def listed_after(entry: str, stop: str) -> set[str]:
    """The capitalised names the map lists in ``entry``'s text, up to ``stop``."""
    text = doc().split(entry, 1)[1].split(stop, 1)[0]
    return set(re.findall(r"\b([A-Z][a-zA-Z]+)\b", text))


def test_the_event_kinds_are_the_ones_the_map_lists() -> None:
    kinds = {k.__name__ for k in typing.get_args(game_events.MatchEvent)}
    assert kinds == listed_after("game/events.py ", ": one immutable class per kind")
    tuples = [k for k in typing.get_args(game_events.MatchEvent) if not issubclass(k, tuple)]
    assert tuples == []  # a NamedTuple each
    seat = {k.__name__ for k in typing.get_args(protocol_events.SeatEvent)}
    listed = listed_after("the table's own seat events (", ")")
    assert seat == listed
    table_event = typing.get_type_hints(protocol_events.TableEvent)["event"]
    told = {k.__name__ for k in typing.get_args(table_event)}
    assert told == kinds | seat | {"Watching"}
    assert "Watching (an observer comes or goes)" in " ".join(doc().split())


def test_the_raw_bot_imports_nothing_of_ours() -> None:
    tree = ast.parse((ROOT / "clients" / "raw_bot.py").read_text(encoding="utf-8"))
    imported = {
        name.split(".")[0]
        for node in ast.walk(tree)
        for name in (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or "."]
            if isinstance(node, ast.ImportFrom)
            else []
        )
    }
    assert imported.isdisjoint({*PACKAGES, "."}), imported


def test_every_page_and_section_the_map_refers_to_is_there() -> None:
    pages = set(re.findall(r"docs/(\w+\.md)", doc()))
    assert pages and all((DOC.parent / page).is_file() for page in pages), pages
    for page, number in re.findall(r"docs/(\w+\.md) §(\d+(?:\.\d+)*)", doc()):
        heading = rf"^#+ {re.escape(number)}\.? "
        assert re.search(heading, (DOC.parent / page).read_text("utf-8"), re.M), number


def served_in_wake_order(rounds: int, tasks: int) -> list[bool]:
    """Each round: ``tasks`` tasks park on one event, which wakes them all in one batch
    in the order they parked; whether they then ran in that order."""
    rounds_in_order: list[bool] = []

    async def waiter(i: int, event: trio.Event, parked: list[int], ran: list[int]) -> None:
        parked.append(i)  # Event.wait parks at once: no checkpoint before it
        await event.wait()
        ran.append(i)

    async def main() -> None:
        for _ in range(rounds):
            event, parked, ran = trio.Event(), list[int](), list[int]()
            async with trio.open_nursery() as nursery:
                for i in range(tasks):
                    nursery.start_soon(waiter, i, event, parked, ran)
                await trio.testing.wait_all_tasks_blocked()
                event.set()
            rounds_in_order.append(ran == parked)

    trio.run(main)
    return rounds_in_order


def test_run_order_serves_woken_tasks_in_the_order_they_woke() -> None:
    """server/run_order.py: trio alone reverses a batch of woken tasks half the time; a
    server owning its process has them served as they woke."""
    assert not all(served_in_wake_order(30, 5))  # trio's own coin
    coin = serve_in_arrival_order()
    assert coin is not None
    try:
        assert all(served_in_wake_order(30, 5))
    finally:
        restore(coin)
    assert not all(served_in_wake_order(30, 5))  # given back
