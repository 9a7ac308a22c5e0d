"""A ``ladder run --server`` whose table closes with no match-end while the server plays
on (docs/bots.md, "Cut games"): that game is counted cut at once, not played again, the
run goes on and its report names it. The server's own close of that kind: a table that
fails and cannot tell its end either (a rule's points no line can show), which tells its
admin ``info closed=T`` (docs/protocol.md §11.4). Failed before: the ladder read that
line only after a stop, and waited for that game's end for ever."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio

from deberc_net.game.calls import Call
from deberc_net.ladder.distributed import options_from, spec_of
from deberc_net.ladder.ratings import Ratings
from deberc_net.ladder.report import text
from deberc_net.ladder.runner import Ladder, LadderOptions, run
from deberc_net.ladder.schedule import ScheduleError
from deberc_net.ladder.supervisor import BotSpec
from deberc_net.ladder.worker import WorkerLadder
from deberc_net.plugins import PluginDeal, RuleInfo, hookimpl
from deberc_net.server.app import serve
from deberc_net.testing import rule_book
from tests.server.conftest import make_config
from tests.server.unreadable import SPOIL, Unreadable
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 (fixtures)

from .board_queue import queued_run
from .helpers import RAND, RAND2, withheld


class _SpoilsOnce:
    """An option whose call 'spoil', legal until it is made once on the server, ends the
    deal writing unreadable points: the table fails, and its match's end cannot be told
    either (``table_end_failed``). The random bots make it sooner or later."""

    def __init__(self) -> None:
        self.spoiled = False

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="spoil-test", kind="option", summary="totals that cannot be told")

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> list[Call]:
        return [] if self.spoiled else [Call(SPOIL)]

    @hookimpl
    def deberc_apply_extra_call(self, deal: PluginDeal, seat: int, call: Call) -> bool | None:
        if call.name != SPOIL:
            return None
        self.spoiled = True
        deal.end_deal("spoiled", [0, 0], [Unreadable(), 0])  # type: ignore[list-item]
        return True


@pytest.mark.timeout(90)
async def test_a_game_whose_table_closes_with_no_end_is_counted_cut_and_the_run_goes_on(
    tmp_path: Path, db_path: Path, register: Callable[[str, str], Awaitable[None]]
) -> None:
    """One board, two seatings played one at a time over TCP: the first spoiled (its
    table closes, ``info closed=T``) is cut at once, its bots seated at the other, which
    is played; the run ends with one game, the cut one named, the board released."""
    await register("ladder-admin", "pw-1")
    spoils = _SpoilsOnce()
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            config = make_config(db_path, admins=["ladder-admin"])
            serving = functools.partial(serve, config, rules=rule_book(spoils))
            port = await nursery.start(serving)
            options = LadderOptions(
                bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)],
                deals=1,
                seed="cut1",
                options=["spoil-test"],
                server=("127.0.0.1", port),
                admin_password="pw-1",
                concurrency=1,  # one table at a time: the one spoiled is the first
                db=str(tmp_path / "results.sqlite3"),
                progress=False,
            )
            ladder = Ladder(options, Ratings.carried_on(["rand", "rand2"], []))
            summary = await ladder.run()
            nursery.cancel_scope.cancel()
    assert spoils.spoiled
    assert summary.games == 1, summary.as_dict()
    [cut] = summary.as_dict()["cut"]
    table = cut["table"]
    assert cut["said"] == f"table {table} failed and closes; sorry"
    [played] = summary.results
    assert sorted([cut["seating"], list(played.game.seating)]) == [
        ["rand", "rand2"],
        ["rand2", "rand"],
    ]
    assert played.game.board == cut["board"]
    said = text(summary.as_dict())
    assert (
        "Cut: 1 game whose table closed with no end, the server playing on (not played"
        f' again: docs/bots.md, "Cut games"):\n  board {cut["board"]} ('
        f"{', '.join(cut['seating'])}) at table {table}: {cut['said']}"
    ) in said, said
    assert withheld(db_path) == []  # the board released once its other seating was played


@pytest.mark.timeout(60)
def test_on_its_own_server_too_a_game_whose_table_closes_with_no_end_is_cut(
    tmp_path: Path,
) -> None:
    """The ladder's own server (its bots and admin over the in-process link): the same
    close is counted cut, the run goes on to its end."""
    spoils = _SpoilsOnce()
    options = LadderOptions(
        bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)],
        deals=2,
        seed="cut2",
        options=["spoil-test"],
        concurrency=1,
        db=str(tmp_path / "ladder.sqlite3"),
        rules=rule_book(spoils),
        progress=False,
    )
    summary = run(options)
    assert spoils.spoiled
    [cut] = summary.cut
    assert cut["said"] == f"table {cut['table']} failed and closes; sorry"
    assert summary.games == 3  # of four: the others played, in schedule order
    assert withheld(tmp_path / "ladder.sqlite3") == []


@pytest.mark.timeout(90)
async def test_a_distributed_worker_stops_on_such_a_close_and_stores_no_board_without_it(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    """A distributed run counts each board from every seating's stored result: its
    worker stops on such a close as on a failed table (status 2; the board played again
    once its lease runs out), storing nothing. Failed before: the worker counted the
    game cut and stored the board with one seating of two, and the run's count then
    failed on the missing one (distributed.py, count_and_finish: a KeyError)."""
    spoils = _SpoilsOnce()
    options = LadderOptions(
        bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)],
        deals=1,
        seed="cut3",
        options=["spoil-test"],
        concurrency=1,
        progress=False,
    )
    spec = spec_of(options, "cut3")
    queue, run_id = await trio.to_thread.run_sync(queued_run, postgres_url, spec)
    try:
        mine = await trio.to_thread.run_sync(queue.claim, "me", 3600.0, run_id)
        assert mine is not None
        ruled = options_from(spec, postgres_url, rule_book(spoils))
        worker = WorkerLadder(ruled, queue, "me", mine, 3600.0, 60.0)
        with trio.fail_after(60), pytest.raises(ScheduleError) as stopped:
            await worker.play()
        # the close named, in the server's words, with the logs it leaves (it named
        # table_error and match_number_failed, not table_end_failed: s50)
        said = str(stopped.value)
        assert said.startswith("table ") and " closed on the server with no end (board " in said
        assert "saying 'table " in said and " failed and closes; sorry':" in said, said
        assert "(table_error, then table_end_failed)" in said, said
        assert "match_number_failed" not in said, said
        assert spoils.spoiled
        assert await trio.to_thread.run_sync(queue.progress, run_id) == (0, 1)
    finally:
        await trio.to_thread.run_sync(queue.close)
