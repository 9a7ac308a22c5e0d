"""A table whose call fails (a bug: here a rule plugin raising in its hook) closes with
an apology to its players; the server, its other tables and the players go on
(docs/architecture.md: a bug in one message's handling must not take the server down)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import structlog
import trio

from deberc_net.game.calls import Call
from deberc_net.game.deal import Deal
from deberc_net.game.outcomes import MatchEndReason
from deberc_net.game.rules import Settings
from deberc_net.plugins import PluginDeal, RuleInfo, hookimpl
from deberc_net.protocol import render_ru
from deberc_net.protocol.lang import RU_MATCH_REASONS
from deberc_net.server.app import serve
from deberc_net.server.running import LocalLink
from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.testing import rule_book
from tests.store.failing import disk_full

from .client import LineClient, fields, is_event, log_in_machine, seat_pair
from .conftest import Connector, make_config
from .unreadable import SPOIL, Unreadable

BOOM = "boom"


class _Boom:
    """An option whose call 'boom', legal to whoever is asked, raises when made."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="boom-test", kind="option", summary="a call that fails")

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> list[Call]:
        return [Call(BOOM)]

    @hookimpl
    def deberc_apply_extra_call(self, deal: PluginDeal, seat: int, call: Call) -> bool | None:
        if call.name != BOOM:
            return None
        raise RuntimeError("this rule is broken on purpose")


async def _asked(a: LineClient, b: LineClient) -> tuple[LineClient, dict[str, str]]:
    """Which of two seated players is asked first, and the ask."""
    asked: list[tuple[LineClient, dict[str, str]]] = []
    async with trio.open_nursery() as nursery:

        async def wait(client: LineClient) -> None:
            ask = await client.expect("ask")
            asked.append((client, ask))
            nursery.cancel_scope.cancel()

        nursery.start_soon(wait, a)
        nursery.start_soon(wait, b)
    return asked[0]


async def test_a_failed_call_closes_its_table_only_and_frees_its_players(
    db_path: Path, connect: Connector
) -> None:
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            port = await nursery.start(functools.partial(serve, config, rules=rule_book(_Boom())))
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            cat = await connect.machine(port, "cat")
            dan = await connect.machine(port, "dan")
            broken, _, _ = await seat_pair(ann, bob, "2 boom-test")
            other, _, _ = await seat_pair(cat, dan, "2")
            asked, ask = await _asked(cat, dan)  # the other match is under way
            assert BOOM not in ask["legal"].split(",")
            booming, boom_ask = await _asked(ann, bob)
            assert BOOM in boom_ask["legal"].split(",")
            await booming.send(f"{BOOM} seq={boom_ask['seq']}")
            for client in (ann, bob):  # told, and back in the lobby: free to play on
                failed = await client.expect("error", code="internal")
                assert failed["text"] == f"table {broken} failed and closes; sorry"
            # the other table plays on: its asked player's call is told to both
            call = ask["legal"].split(",")[0]
            await asked.send(f"{call} seq={ask['seq']}")
            for client in (cat, dan):
                told = await client.expect("event", kind="call")
                assert told["table"] == str(other)
            await ann.send("seek 2")
            await ann.expect("ok", cmd="seek")
            await bob.send("seek 2")
            sit_ann, sit_bob = await ann.expect("ok", cmd="sit"), await bob.expect("ok", cmd="sit")
            assert sit_ann["table"] == sit_bob["table"] not in (str(broken), str(other))
            for client in (ann, bob):  # the apology their only error
                assert [fields(line)[0] for line in client.lines].count("error") == 1
            nursery.cancel_scope.cancel()
    failures = [entry for entry in logs if entry["event"] == "table_error"]
    # the rule whose hook raised, named (its plugin's name: docs/settings.md, Logs)
    assert [(entry["table"], entry["rule"]) for entry in failures] == [(broken, "boom-test")]


class _BrokenDeal(Deal):
    """A whole game's deals (a variant's own class), broken: any call raises in it."""

    def apply(self, seat: int, call: Call, *, ms: int = 0, auto: bool = False) -> Any:
        raise RuntimeError("this game's deal is broken on purpose")


class _BrokenGame:
    """A variant whose own deal class fails, called by the engine, not as a hook."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="brokendeal-test", kind="variant", summary="a game", players=(2,))

    @hookimpl
    def deberc_deal_class(self, settings: object) -> object:
        return _BrokenDeal


async def test_a_failed_game_deal_class_names_its_variant(
    db_path: Path, connect: Connector
) -> None:
    """table_error's rule: the variant whose own deal class raised (no hook did: it
    logged rule=null)."""
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            rules = rule_book(_BrokenGame())
            port = await nursery.start(functools.partial(serve, config, rules=rules))
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            broken, _, _ = await seat_pair(ann, bob, "2 brokendeal-test")
            asked, ask = await _asked(ann, bob)
            await asked.send(f"{ask['legal'].split(',')[0]} seq={ask['seq']}")
            for client in (ann, bob):
                await client.expect("error", code="internal")
            nursery.cancel_scope.cancel()
    failures = [entry for entry in logs if entry["event"] == "table_error"]
    assert [(entry["table"], entry["rule"]) for entry in failures] == [(broken, "brokendeal-test")]


@contextlib.asynccontextmanager
async def _asked_at_a_boom_table(
    db_path: Path, connect: Connector
) -> AsyncIterator[tuple[LineClient, dict[str, str]]]:
    """A server with the failing option; ann and bob at a 'boom-test' table: the one
    asked first, and the ask. The server stops when the block ends."""
    async with trio.open_nursery() as nursery:
        config = make_config(db_path)
        port = await nursery.start(functools.partial(serve, config, rules=rule_book(_Boom())))
        ann = await connect.machine(port, "ann")
        bob = await connect.machine(port, "bob")
        await seat_pair(ann, bob, "2 boom-test")
        yield await _asked(ann, bob)
        nursery.cancel_scope.cancel()


async def test_a_call_that_fails_behind_a_state_still_lets_the_next_line_be_answered(
    db_path: Path, connect: Connector
) -> None:
    """A call passed to the table behind a ``state`` fails there: its reader, waiting for
    it before the next line (docs/protocol.md §2.3), is let go all the same, and the
    replies come in order: the state, the apology and the match's end, then the
    ``ping``'s."""
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with _asked_at_a_boom_table(db_path, connect) as (booming, boom_ask):
            start = len(booming.lines)
            await booming.send_raw(f"state\n{BOOM} seq={boom_ask['seq']}\nping\n".encode())
            await booming.expect("ok", cmd="ping")
            tags = [fields(line)[0] for line in booming.lines[start:]]
            assert tags == ["ask", "error", "event", "ok"], booming.lines[start:]
    assert [entry["event"] for entry in logs].count("table_error") == 1


async def test_a_failure_logged_by_the_suites_own_renderer_holds_up_no_table(
    db_path: Path, connect: Connector
) -> None:
    """A table's failure logged as the tests log it when nothing captures the logs
    (tests/conftest.py): the apology comes at once. Failed before (structlog's default
    console renderer, with rich's tracebacks: the locals of every frame drawn, a table
    and its lobby's whole object graph, took over a minute inside ``log.exception``,
    the server's one thread stopped meanwhile)."""
    with trio.fail_after(20):
        async with _asked_at_a_boom_table(db_path, connect) as (booming, boom_ask):
            await booming.send(f"{BOOM} seq={boom_ask['seq']}")
            assert (await booming.expect("error"))["code"] == "internal"


async def test_a_failed_table_ends_its_match_for_machines(
    db_path: Path, connect: Connector
) -> None:
    """After the apology, the match's end (``reason=internal``, nobody wins, no seed):
    what a bot or a ladder waits for (docs/protocol.md §9.7), and no rematch offered.
    Failed before: only the ``error`` line came, and bots and ladders waited forever."""
    with trio.fail_after(20), structlog.testing.capture_logs():
        async with _asked_at_a_boom_table(db_path, connect) as (booming, boom_ask):
            await booming.send(f"{BOOM} seq={boom_ask['seq']}")
            await booming.expect("error", code="internal")
            end = await booming.expect("event", kind="match-end")
            assert (end["reason"], end["winner"], end["name"], end["seed"]) == (
                "internal",
                "-",
                "-",
                "-",
            )
            assert end["totals"] == "0,0"
            # no rematch of a failed match: the same rules would fail the same way
            await booming.send("rematch")
            refused = await booming.expect("error")
            assert refused["code"] == "not-allowed", refused


async def test_the_client_librarys_bots_count_a_failed_table_as_a_game_and_stop(
    db_path: Path,
) -> None:
    """Two ``clients.client.Bot``s with ``games=1`` at a table whose rule fails: each
    counts the game and quits (failed before: both waited forever)."""
    from clients.client import Bot
    from clients.protocol import View

    def choose(view: View) -> str:
        return BOOM if BOOM in view.legal else view.legal[0]

    with trio.fail_after(20), structlog.testing.capture_logs():
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            port = await nursery.start(functools.partial(serve, config, rules=rule_book(_Boom())))
            names = ("ann", "bob")
            bots = [Bot(choose, name, port=port, seek="2 boom-test", games=1) for name in names]
            async with trio.open_nursery() as playing:
                for bot in bots:
                    playing.start_soon(bot.run)
            for bot in bots:
                assert bot.stats.games == 1
                assert any("code=internal" in e for e in bot.stats.errors)
            nursery.cancel_scope.cancel()


class _FailsToDeal:
    """An option whose deal class cannot be made: the match fails as it starts, before
    the table has a match (its first deal is dealt as the match is made)."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="no-deal-test", kind="option", summary="a deal that fails")

    @hookimpl
    def deberc_deal_class(self, settings: Settings) -> type[Deal] | None:
        return _Undealt


class _Undealt(Deal):
    def __init__(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("this deal class is broken on purpose")


async def test_a_match_that_fails_as_it_starts_ends_for_its_seekers(
    db_path: Path, connect: Connector
) -> None:
    """Seekers seated at a table whose match fails while being made (no match yet) are
    told its end too, so bots seek on (failed before: only the apology, and a bot
    waited forever for an ask or the end)."""
    with trio.fail_after(20), structlog.testing.capture_logs():
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            rules = rule_book(_FailsToDeal())
            port = await nursery.start(functools.partial(serve, config, rules=rules))
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            for client in (ann, bob):
                await client.send("seek 2 no-deal-test")
            for client in (ann, bob):
                await client.expect("error", code="internal")
                end = await client.expect("event", kind="match-end")
                assert (end["reason"], end["winner"], end["totals"]) == ("internal", "-", "0,0")
            nursery.cancel_scope.cancel()


class _SpoilsTotals:
    """An option whose call 'spoil' ends the deal writing unreadable points: the deal's
    end fails to render, and so would the failed match's end, from the same totals."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="spoil-test", kind="option", summary="totals that cannot be told")

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> list[Call]:
        return [Call(SPOIL)]

    @hookimpl
    def deberc_apply_extra_call(self, deal: PluginDeal, seat: int, call: Call) -> bool | None:
        if call.name != SPOIL:
            return None
        deal.end_deal("spoiled", [0, 0], [Unreadable(), 0])  # type: ignore[list-item]
        return True


async def test_a_failed_table_whose_end_fails_too_still_closes_and_the_server_plays_on(
    db_path: Path, connect: Connector
) -> None:
    """The apology's match end cannot be rendered either (the rule's totals cannot be
    told): the server logs it, closes the table, frees its players and plays on (failed
    before: the second error escaped the table's guard into the server's nursery, and
    the server stopped)."""
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            rules = rule_book(_SpoilsTotals())
            port = await nursery.start(functools.partial(serve, config, rules=rules))
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            broken, _, _ = await seat_pair(ann, bob, "2 spoil-test")
            spoiling, ask = await _asked(ann, bob)
            await spoiling.send(f"{SPOIL} seq={ask['seq']}")
            for client in (ann, bob):
                failed = await client.expect("error", code="internal")
                assert failed["text"] == f"table {broken} failed and closes; sorry"
            cat = await connect.machine(port, "cat")  # the server plays on
            await ann.send("seek 2")
            await ann.expect("ok", cmd="seek")
            await cat.send("seek 2")
            sit_ann, sit_cat = await ann.expect("ok", cmd="sit"), await cat.expect("ok", cmd="sit")
            assert sit_ann["table"] == sit_cat["table"] != str(broken)
            nursery.cancel_scope.cancel()
    events = [(entry["event"], entry.get("table")) for entry in logs]
    assert ("table_error", broken) in events and ("table_end_failed", broken) in events
    # its hook returned; the builtin's match_end hook raised comparing the totals it
    # spoiled: the rule named is the one whose hook raised, not always the one to blame
    [logged] = [entry for entry in logs if entry["event"] == "table_error"]
    assert logged["rule"] == "moscow"


async def test_a_failed_table_whose_end_fails_too_tells_its_close_to_all_owed_its_end(
    db_path: Path, connect: Connector
) -> None:
    """A ladder's board (``reserve … watch=ends``) fails and its end cannot be told: its
    players and its admin, told its ends alone, are told the close instead, ``info
    closed=T`` (docs/protocol.md §11.4), as at a stop. Failed before: nobody was told, and
    a ladder's admin waited for that game's end for ever."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            links: list[LocalLink] = []
            config = make_config(db_path, admins=["boss"])
            rules = rule_book(_SpoilsTotals())
            serving = functools.partial(serve, config, rules=rules, local_bound=links.append)
            port = await nursery.start(serving)
            links[0].trust("boss", "s3cret")
            boss = await log_in_machine(
                await LineClient.over(await links[0].connect()), "boss", "s3cret"
            )
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            for player in (ann, bob):
                await player.send("seek reserved")
                await player.expect("ok", cmd="seek")
            reserve = "reserve 2 moscow spoil-test seats=ann,bob seed=s deals=1 board=k1"
            await boss.send(f"{reserve} watch=ends")
            table = (await boss.expect("ok", cmd="reserve"))["table"]
            await boss.expect("event", kind="start", table=table)
            spoiling, ask = await _asked(ann, bob)
            await spoiling.send(f"{SPOIL} seq={ask['seq']}")
            for client in (ann, bob, boss):
                closed = await client.expect("info", closed=table)
                assert closed["text"] == f"table {table} failed and closes; sorry"
            assert not any(is_event(line, "match-end") for line in boss.lines)
            nursery.cancel_scope.cancel()


FINISH = "finish"


class _Untellable(str):
    """A match's end reason a broken rule gives: fine on the wire and in the store, but
    people cannot be told it (formatting it fails)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        raise RuntimeError("this reason cannot be told to people")


class _EndsUntellably:
    """An option whose call 'finish' ends the deal and the match (side 0 wins) for a
    reason told to programs, then failing as it is told to people."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="untellable-test", kind="option", summary="an untellable end")

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> list[Call]:
        return [Call(FINISH)]

    @hookimpl
    def deberc_apply_extra_call(self, deal: PluginDeal, seat: int, call: Call) -> bool | None:
        if call.name != FINISH:
            return None
        deal.end_deal("finished", [0, 0], [0, 0], winner=0, reason=_Untellable("plugin-won"))
        return True


async def test_a_table_failing_as_its_end_is_told_tells_no_second_end(
    db_path: Path, connect: Connector
) -> None:
    """The match's end (stored: its players' result) is told to the machines, then fails
    as it is told to a person watching: the players get the apology, and the end they
    were told stands. Failed before: a second match end followed (``reason=internal``,
    nobody winning), against the first and what the store keeps."""
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            port = await nursery.start(
                functools.partial(serve, config, rules=rule_book(_EndsUntellably()))
            )
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            table, _, _ = await seat_pair(ann, bob, "2 untellable-test")
            zed = await connect.human(port, "zed")  # a person watching
            await zed.send(f"observe {table}")
            await zed.read_until(lambda line: "watch" in line)
            finishing, ask = await _asked(ann, bob)
            await finishing.send(f"{FINISH} seq={ask['seq']}")
            for client in (ann, bob):
                end = await client.expect("event", kind="match-end")
                assert (end["reason"], end["name"]) == ("plugin-won", "ann")
                await client.expect("error", code="internal")
                await client.send("ping")
                await client.expect("ok", cmd="ping")
                ends = [line for line in client.lines if "kind=match-end" in line]
                assert len(ends) == 1, ends
            # the person it failed for is told the close after the apology (he was
            # told neither end: before, the apology alone)
            await zed.send("ping")
            await zed.read_until(lambda line: line == "pong")
            failed = f"table {table} failed and closes; sorry"
            assert [line for line in zed.lines if failed in line] == [
                f"Error (internal): {failed}",
                failed,
            ], zed.lines
            nursery.cancel_scope.cancel()
    assert [entry["event"] for entry in logs].count("table_error") == 1


UNTELLABLE = "plugin-won"  # a match's end reason the English words tell, not the Russian


class _RussianWordsFailing(dict[str, str]):
    """The Russian words for a match's end, failing for ``UNTELLABLE`` (a bug of the
    Russian style's, as the table sees one)."""

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        if key == UNTELLABLE:
            raise RuntimeError("this reason cannot be told in Russian")
        return super().get(key, default)


class _EndsUntellablyInRussian(_EndsUntellably):
    """'finish' ends the match for a reason the Russian human style fails to tell."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="russian-untellable-test", kind="option", summary="an end")

    @hookimpl
    def deberc_apply_extra_call(self, deal: PluginDeal, seat: int, call: Call) -> bool | None:
        if call.name != FINISH:
            return None
        deal.end_deal("finished", [0, 0], [0, 0], winner=0, reason=UNTELLABLE)
        return True


async def test_a_table_failing_partway_through_telling_people_its_end_tells_no_second(
    db_path: Path, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only people listen (no machine told the end first): the match's end is told to
    the two players in English, then fails as it is told to a Russian watcher. The
    players were told their end: they get the apology, not a second end
    (``reason=internal``, nobody winning). Failed before: the table counted the end as
    told only once it had gone to everyone, and told the players a second one."""
    monkeypatch.setattr(render_ru, "RU_MATCH_REASONS", _RussianWordsFailing(RU_MATCH_REASONS))
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            port = await nursery.start(
                functools.partial(serve, config, rules=rule_book(_EndsUntellablyInRussian()))
            )
            ann = await connect.human(port, "ann")
            bob = await connect.human(port, "bob")
            await ann.send("new 2 russian-untellable-test")  # table 1, the server's first
            await ann.read_until(lambda line: "table 1" in line)
            ivan = await connect.human(port, "ivan")
            await ivan.send("lang ru")
            await ivan.send("observe 1")
            await ivan.read_until(lambda line: "смотрит" in line)
            await bob.send("sit 1")
            asked: list[LineClient] = []
            async with trio.open_nursery() as waiting:

                async def prompted(client: LineClient) -> None:
                    await client.read_until(lambda line: line.startswith("Your call"))
                    asked.append(client)
                    waiting.cancel_scope.cancel()

                waiting.start_soon(prompted, ann)
                waiting.start_soon(prompted, bob)
            await asked[0].send(FINISH)
            for client in (ann, bob):
                await client.read_until(lambda line: line.startswith("Game over: ann wins"))
                await client.read_until(lambda line: "failed and closes" in line)
                await client.send("ping")
                await client.read_until(lambda line: line == "pong")
                ends = [line for line in client.lines if line.startswith("Game over")]
                assert len(ends) == 1, ends
            nursery.cancel_scope.cancel()
    assert [entry["event"] for entry in logs].count("table_error") == 1


class _RussianWordsFailingInternal(dict[str, str]):
    """The Russian words for a match's end, failing for ``internal``: a failed table's
    end then fails as it is told to a Russian person, told to the machines already."""

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        if key == MatchEndReason.INTERNAL:
            raise RuntimeError("a failed table's end cannot be told in Russian")
        return super().get(key, default)


async def test_a_person_a_failed_tables_end_fails_for_is_told_its_close(
    db_path: Path, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed table's end (``reason=internal``) goes to its machines, then fails as it
    is written for a Russian person watching (``table_end_failed``): he is told the
    close, ``info closed=T``'s line (docs/protocol.md §11.4), after the apology. Failed
    before: the end counted as told (the machines had it), so he got the apology alone,
    and no word that the table was gone."""
    monkeypatch.setattr(
        render_ru, "RU_MATCH_REASONS", _RussianWordsFailingInternal(RU_MATCH_REASONS)
    )
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            port = await nursery.start(functools.partial(serve, config, rules=rule_book(_Boom())))
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            table, _, _ = await seat_pair(ann, bob, "2 boom-test")
            ivan = await connect.human(port, "ivan")
            await ivan.send("lang ru")
            await ivan.send(f"observe {table}")
            await ivan.read_until(lambda line: "смотрит" in line)
            booming, ask = await _asked(ann, bob)
            await booming.send(f"{BOOM} seq={ask['seq']}")
            for client in (ann, bob):  # the machines told the end
                await client.expect("error", code="internal")
                end = await client.expect("event", kind="match-end")
                assert end["reason"] == "internal"
            start = len(ivan.lines)
            await ivan.send("ping")
            await ivan.read_until(lambda line: line == "pong")
            failed = f"сбой стола {table}: стол закрывается, извините"
            # the apology, then the close (in the machine style, ``info closed=T``)
            assert ivan.lines[start:] == [f"Ошибка (internal): {failed}", failed, "pong"]
            nursery.cancel_scope.cancel()
    events = [entry["event"] for entry in logs]
    assert events.count("table_error") == events.count("table_end_failed") == 1


class _FailsToSetUp:
    """An option whose deberc_configure raises: the table's rules cannot be built."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="boom-config", kind="option", summary="fails to set up")

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        dict[str, int]()["x"]  # the bug


async def test_a_rule_failing_to_set_up_a_table_is_named_to_the_player_and_logged(
    db_path: Path, connect: Connector, register: Callable[[str, str], Awaitable[None]]
) -> None:
    """'new 2 boom-config' was told 'error code=internal text=the server could not do
    that; sorry' (a command_error), naming no rule. Now each command that builds the
    rules is refused naming the rule, and the server logs the plugin's traceback."""
    refusal = (
        "rule 'boom-config' (distribution '(registered in-process)') failed to set up the"
        " table: KeyError: 'x'"
    )
    commands = ("new 2 boom-config", "seek 2 boom-config", "reserve 2 boom-config seats=pa,pb")
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            config = make_config(db_path, admins=["boss"])
            rules = rule_book(_FailsToSetUp())
            await register("boss", "pw")  # reserve is an admin's
            port = await nursery.start(functools.partial(serve, config, rules=rules))
            boss = await connect.machine(port, "boss", "pw")
            for command in commands:
                await boss.send(command)
                refused = await boss.expect("error")
                assert (refused["code"], refused["text"]) == ("bad-rules", refusal), command
            nursery.cancel_scope.cancel()
    failed = [entry for entry in logs if entry["event"] == "rule_setup_failed"]
    assert len(failed) == len(commands)
    assert {entry["log_level"] for entry in failed} == {"error"}
    assert all(isinstance(entry["exc_info"].__cause__, KeyError) for entry in failed)
    assert not [entry for entry in logs if entry["event"] == "command_error"]


async def test_seekers_matched_to_a_table_that_fails_before_seating_them_are_told_it_closed(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, connect: Connector
) -> None:
    """A table opened for two seekers that fails drawing its match number (a full disk)
    tells them it closed (`info closed=T`, as a stopped server's table does), so that a
    bot seeks again and a person knows he waits for nothing. They were told `table 1 is
    already playing` (their sits refused by the closed table), their seeks gone: a bot
    waited for ever (seen on a club's server whose disk had filled)."""

    def full_disk(*_: Any, **__: Any) -> list[int]:
        raise disk_full()

    monkeypatch.setattr(SQLiteStore, "new_match_numbers", full_disk)
    with trio.fail_after(20), structlog.testing.capture_logs() as logs:
        async with trio.open_nursery() as nursery:
            rules = rule_book()
            port = await nursery.start(functools.partial(serve, make_config(db_path), rules=rules))
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            for client in (ann, bob):
                await client.send("seek 2")
            for client in (ann, bob):
                closed = await client.expect("info")
                assert (closed["closed"], closed["text"]) == (
                    "1",
                    "table 1 failed and closes; sorry",
                )
                await client.send("ping")  # nothing else came: no 'already playing'
                await client.expect("ok", cmd="ping")
                assert not [line for line in client.lines if line.startswith("error")]
            # one who opened it with 'new' has that command answered: an error, not info
            cyd = await connect.machine(port, "cyd")
            await cyd.send("new 2")
            failed = await cyd.expect("error")
            assert (failed["code"], failed["text"]) == (
                "internal",
                "table 2 failed and closes; sorry",
            )
            await cyd.send("seek 2")  # back in the lobby, free to seek
            await cyd.expect("ok", cmd="seek")
            nursery.cancel_scope.cancel()
    # a store's failure, not a bug: one warning a table, its error, no traceback
    # (table_error's traceback each, at the rate bots seek: operator evening s41)
    assert [e["event"] for e in logs if e["log_level"] == "error"] == []
    logged = [e for e in logs if e["event"] == "match_number_failed"]
    assert [(e["log_level"], e["table"], e["error"]) for e in logged] == [
        ("warning", 1, "database or disk is full"),
        ("warning", 2, "database or disk is full"),
    ]
    assert not [e for e in logged if "exc_info" in e]


async def test_the_client_librarys_bots_seek_again_when_their_matched_table_fails_unseated(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ``clients.client.Bot``s matched to a table that fails before seating them
    (its match number not drawn: the disk full, then freed) seek again on its `info
    closed=T` and play their match (they waited for ever: the line named a table the
    bot had not sat at, and it read only its own table's)."""
    from clients.client import Bot

    drawn = SQLiteStore.new_match_numbers
    failures = [disk_full()]

    def full_once(store: SQLiteStore, count: int) -> list[int]:
        if failures:
            raise failures.pop()
        return drawn(store, count)

    monkeypatch.setattr(SQLiteStore, "new_match_numbers", full_once)
    with trio.fail_after(30), structlog.testing.capture_logs():
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            port = await nursery.start(functools.partial(serve, config, rules=rule_book()))
            bots = [
                Bot(lambda view: view.legal[0], name, port=port, seek="2 to-301", games=1)
                for name in ("ann", "bob")
            ]
            async with trio.open_nursery() as playing:
                for bot in bots:
                    playing.start_soon(bot.run)
            assert [bot.stats.games for bot in bots] == [1, 1]
            nursery.cancel_scope.cancel()
