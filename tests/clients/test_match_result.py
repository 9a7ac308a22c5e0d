"""A bot's match results, typed (``Stats.matches``, ``MatchResult``): who won, the
totals and the deals dealt, each said in one line on the bot's ``tell`` (a reference
bot's standard error). Failed before: ``run_to_end`` returned counts only (games, asks,
fallbacks) and a match played out was said nowhere (docs/bots.md)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import attrs
import pytest
import trio
import trio.testing

from clients.client import Bot, Connection, MatchResult, Outcome
from clients.match_result import match_result, summary
from clients.protocol import Event, MatchEnd, Record, View
from deberc_net.protocol.wire import parse_line
from deberc_net.server.local import local_stream_pair

StartServer = Callable[..., Awaitable[int]]
SEEK = "2 moscow to-301"


@pytest.mark.timeout(60)
async def test_each_match_leaves_its_result_and_says_it(start_server: StartServer) -> None:
    port = await start_server()
    seen: list[Event | View | Record] = []
    told: list[str] = []
    rng = random.Random(7)
    ann = Bot(
        lambda view: rng.choice(view.legal),
        "ann",
        port=port,
        seek=SEEK,
        games=1,
        on_event=seen.append,
        tell=told.append,
    )
    # a quick bot told only its asks: its deals read from asks it never parses whole
    bob = Bot(lambda view: view.legal[0], "bob", port=port, seek=SEEK, games=1, asks_only=True)
    bob.pick = lambda legal: legal[-1]
    with trio.fail_after(45):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ann.run)
            nursery.start_soon(bob.run)

    ends = [e for e in seen if isinstance(e, Event) and e.fields.get("kind") == "match-end"]
    assert len(ends) == 1
    end = MatchEnd.from_line(ends[0])
    deals = max(v.deal for v in seen if isinstance(v, View))
    assert end.deals == deals  # the server counts them (match-end's last field)
    # each appended after every older field (§1): deals=, then rematch_s=
    assert list(ends[0].fields)[-2:] == ["deals", "rematch_s"]
    assert deals >= 1 and end.reason in ("target", "claim") and end.winner is not None
    ann_won = end.names == ["ann"]
    expected = MatchResult(
        match=ends[0].get_str("match"),
        table=end.table,
        outcome=Outcome.WON if ann_won else Outcome.LOST,
        winner=end.winner,
        winners=end.names,
        reason=end.reason,
        totals=end.totals,
        deals=deals,
    )
    assert list(ann.stats.matches) == [expected]
    assert list(bob.stats.matches) == [
        attrs.evolve(expected, outcome=Outcome.LOST if ann_won else Outcome.WON)
    ]
    totals = " : ".join(map(str, end.totals))
    assert told == [
        f"match {expected.match} at table {end.table}: won by {end.names[0]}"
        f" with {end.totals[end.winner]}, totals {totals},"
        f" {deals} deals ({'target' if end.reason == 'target' else 'target mid-deal'});"
        " its last game: quitting"
    ]


@pytest.mark.parametrize(
    ("line", "outcome"),
    [
        (
            "event seq=9 table=2 kind=match-end winner=- name=- reason=deals totals=80,80"
            " seed=- match=m2",
            Outcome.DRAWN,
        ),
        (
            "event seq=9 table=2 kind=match-end winner=- name=- reason=internal totals=80,12"
            " seed=- match=m2",
            Outcome.NO_RESULT,
        ),
        (
            "event seq=9 table=2 kind=match-end winner=1 name=Ann,olga reason=left totals=0,0"
            " seed=5a forfeit=0 match=m2",
            Outcome.WON,
        ),
    ],
)
def test_a_results_outcome_is_the_bots_own(line: str, outcome: Outcome) -> None:
    """A draw and a failed table are told apart; names compare as the server folds them."""
    result = match_result(line, "ann", 3)
    assert result.outcome is outcome and result.deals == 3
    assert result.totals == parse_line(line).get_ints("totals")


def test_the_line_says_the_winners_own_total_by_his_name() -> None:
    """'won by h1, totals 467 : 513' read as if h1 had 467: the totals are by side, side
    0 first, and h1 sat at side 1 (a tryout, s43). The winner's total follows his name;
    the totals keep their order for tools that read them."""
    end = "event seq=9 table=3 kind=match-end winner=1 name=h1 reason=target totals=467,513"
    line = summary(match_result(end + " match=m3 deals=7", "h1", 7))
    assert line == "match m3 at table 3: won by h1 with 513, totals 467 : 513, 7 deals (target)"
    drawn = "event seq=9 table=3 kind=match-end reason=deals totals=300,300 match=m4 deals=8"
    assert summary(match_result(drawn, "h1", 8)) == (
        "match m4 at table 3: drawn, totals 300 : 300, 8 deals (deals)"
    )
    untold = "event seq=9 table=3 kind=match-end winner=1 name=h1 reason=left match=m5"
    assert summary(match_result(untold, "h1", 2)).startswith("match m5 at table 3: won by h1, ")


def test_a_results_deals_are_the_servers_count_when_told() -> None:
    """``match-end``'s ``deals=`` is the count; an older server's line without it leaves
    the last ``deal=`` the bot read (failed before: always that last ``deal=``)."""
    line = "event seq=9 table=2 kind=match-end winner=0 name=ann reason=left totals=0,0 seed=5a"
    assert match_result(f"{line} forfeit=1 match=m2 deals=5", "ann", 3).deals == 5
    assert match_result(f"{line} forfeit=1 match=m2", "ann", 3).deals == 3


@pytest.mark.parametrize("parsed", [False, True])
async def test_a_true_konets_is_said_konets_not_the_servers_claim(parsed: bool) -> None:
    """Both end with reason=claim (docs/protocol.md §9.7): a seat's konets said just
    before is told as 'konets', as 'games' tells it, the server's own claim as 'target
    mid-deal' (docs/bots.md; before, both were 'target mid-deal'). A quick bot, which
    parses no event but the match's end, and one told every event (``on_event``). The
    server is the test's, over an in-process link (``Bot.connect``)."""
    mine, theirs = local_stream_pair()
    server = Connection(theirs)
    told: list[str] = []

    async def connect() -> trio.abc.Stream:
        return mine

    async def answer(line: str) -> None:
        await server.send(line)
        await trio.testing.wait_all_tasks_blocked()

    async def hear() -> None:  # (what the bot says: read, not looked at)
        async for _ in server.lines():
            pass

    seen: list[Event | View | Record] = []
    bot = Bot(
        lambda view: view.legal[0],
        "bob",
        connect=connect,
        tell=told.append,
        on_event=seen.append if parsed else None,
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(hear)
        nursery.start_soon(bot.run)
        await answer("ok cmd=style text=Machine style.")
        await answer("ok cmd=login name=bob text=Hello, bob.")
        await answer("ok cmd=seek players=2 variant=moscow options=manual-claim text=Waiting.")
        end = "event seq={} table=1 kind=match-end winner=1 name=bob reason=claim totals=20,514"
        await answer("event seq=8 table=1 kind=call seat=1 call=konets auto=0")
        await answer(end.format(9) + " seed=x match=m3 deals=1")
        await answer(end.format(20) + " seed=x match=m4 deals=1")  # the server's claim
        nursery.cancel_scope.cancel()
    said = [t.split("; ")[0] for t in told]
    assert said == [
        "match m3 at table 1: won by bob with 514, totals 20 : 514, 1 deal (konets)",
        "match m4 at table 1: won by bob with 514, totals 20 : 514, 1 deal (target mid-deal)",
    ]
    assert [m.claimed for m in bot.stats.matches] == [True, False]
