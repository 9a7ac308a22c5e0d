"""``deberc-net play`` headless: Textual's pilot types into the real app, which talks to
a real server on loopback; a whole match against a machine-style opponent.

The tests are plain functions running their own asyncio loop (the pilot's), since the
suite runs async tests on trio; the server lives in a thread (tests/play/server.py).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from clients.play.app import PlayApp, WireLine
from clients.play.cards import RANKS, SYMBOL
from clients.play.draw import SCORE_COLUMNS, TABLE_COLUMNS, spoken_calls
from clients.play.state import LOG_KEEP, fold
from deberc_net.cli import main
from deberc_net.protocol.wire import EventKind, parse_line

from .pilot import WAIT_S, answered, complete_and_send, enter, running, until
from .server import ServerThread

# after each key, a wait till the app has handled it, not for idleness (conftest.py)
pytestmark = pytest.mark.usefixtures("settled_keys")

CARD = r"(?:10|[789JQKA])[♠♥♦♣]"
LAST_TRICK = re.compile(
    rf"Last:   (?:rival {CARD}  tuiplayer {CARD}|tuiplayer {CARD}  rival {CARD})"
)


async def type_line(pilot: Pilot[None], text: str, *, by_key: bool = True) -> None:
    """Type ``text`` key by key, then Enter, as a person would; not ``by_key``: the line
    put in the input box whole (as a paste), then Enter, where the test is about what
    the line does, not the typing (each key waits till the app has handled it)."""
    if by_key:
        keys = ["space" if ch == " " else ch for ch in text]
        await pilot.press(*keys, "enter")
    else:
        await enter(pilot, text)


def drawn_hand_is_in_rank_order(text: str) -> bool:
    """The hand pane, read back: each suit's ranks strictly rising 7 8 9 10 J Q K A, and
    the suits in the order ♠ ♥ ♦ ♣."""
    assert text.startswith("Hand:")
    groups = text[len("Hand:") :].split("   ")
    suits = []
    for group in (g.strip() for g in groups if g.strip()):
        head, *ranks = group.split()
        suits.append(head.rstrip("*"))
        order = [RANKS.index(r) for r in ranks]
        if order != sorted(order) or len(set(order)) != len(order):
            return False
    symbols = list(SYMBOL.values())
    return [symbols.index(s) for s in suits] == sorted(symbols.index(s) for s in suits)


async def choose(pilot: Pilot[None], app: PlayApp) -> str:
    """Pick a call as the test's person: igrayu when offered (so a deal is played), else
    the first legal call; typed with its first letter and Tab, so completion is used."""
    call = "igrayu" if "igrayu" in app.state.legal else app.state.legal[0]
    return await complete_and_send(pilot, app, call, tabs=20)


@pytest.mark.timeout(120)
def test_a_whole_match_typed_through_the_terminal_client(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        server.opponent("rival", "seek 2 moscow short")
        asyncio.run(asyncio.wait_for(_whole_match(server), 100))
        assert not server.errors, server.errors


@pytest.mark.timeout(120)
def test_a_dropped_connection_resumes_the_seat_with_the_token(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        # the typing is the whole match's test: here the lines are put in whole
        match = _whole_match(server, drop_at=2, host=True, by_key=False)
        asyncio.run(asyncio.wait_for(match, 100))
        assert not server.errors, server.errors
        kinds = [parse_line(line).kind for line in server.opponent_lines]
        assert EventKind.AWAY in kinds and EventKind.BACK in kinds


@pytest.mark.timeout(120)
def test_a_new_client_given_the_token_takes_the_seat_back(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        server.opponent("rival", "seek 2 moscow short", seed=3)
        asyncio.run(asyncio.wait_for(_restart(server), 60))
        assert not server.errors, server.errors


async def _restart(server: ServerThread) -> None:
    """``play --name`` logs in by itself; closed mid-match, ``play --name --token`` takes
    the seat back."""
    first = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(first) as pilot:
        await until(pilot, lambda: first.state.token is not None, "login")
        await type_line(pilot, "seek 2 moscow short", by_key=False)  # typed in the others
        await until(pilot, lambda: bool(first.state.hand), "a hand")
        token, table = first.state.token, first.state.table
    second = PlayApp("127.0.0.1", server.port, name="tuiplayer", token=token)
    async with running(second) as pilot:
        await until(pilot, lambda: "tuiplayer is back" in second.state.log, "back")
        await until(pilot, lambda: bool(second.state.hand), "the seat's view")
        assert (second.state.table, second.state.token) == (table, token)
        assert drawn_hand_is_in_rank_order(second.pane("hand").text)
        assert f"token {token}" in second.pane("status").text


async def _resume(pilot: Pilot[None], app: PlayApp) -> None:
    """Drop the connection (Ctrl+R) while asked; the link logs in with the token and the
    same request comes back."""
    token, hand, legal = app.state.token, app.state.hand, app.state.legal
    full = app.state.clock_ms or 0
    await pilot.press("ctrl+r")
    back = f"Connected again: your seat at table {app.state.table} is back."
    await until(pilot, lambda: back in app.state.log, "back")
    # the request again, with the clock left on it (a fresh one would have it all)
    await until(
        pilot, lambda: app.state.asking and (app.state.clock_ms or full) < full, "the request again"
    )
    assert any(line.startswith("connection lost") for line in app.state.log)
    assert (app.state.token, app.state.hand, app.state.legal) == (token, hand, legal)
    # greeted once: the banner and 'Hello' are not logged again (a pty tryout)
    assert sum(line.startswith("deberc-net") for line in app.state.log) == 1
    assert sum(line.startswith("Hello, tuiplayer") for line in app.state.log) == 1


async def _lobby(pilot: Pilot[None], app: PlayApp, by_key: bool) -> None:
    """The lobby's keys and commands: who (F6), tables (F5), say."""
    await pilot.press("f6")
    await until(pilot, lambda: any(line.startswith("here: ") for line in app.state.log), "who")
    assert "tuiplayer" in next(line for line in app.state.log if line.startswith("here: "))
    await pilot.press("f5")
    await until(pilot, lambda: any(line.endswith(" tables") for line in app.state.log), "tables")
    await type_line(pilot, "say hello lobby", by_key=by_key)
    await until(pilot, lambda: "tuiplayer: hello lobby" in app.state.log, "say")


async def _whole_match(
    server: ServerThread, drop_at: int | None = None, host: bool = False, by_key: bool = True
) -> None:
    """Log in and play one short match to its end. ``host``: open the table with ``new``
    and let the opponent ``sit`` (else both ``seek``); ``drop_at``: drop the connection
    at that request and resume; ``by_key``: the lobby's lines typed key by key (else put
    in whole: the calls are still typed, with completion)."""
    app = PlayApp("127.0.0.1", server.port)
    async with running(app) as pilot:
        await until(pilot, lambda: any("deberc-net" in line for line in app.state.log), "banner")
        await type_line(pilot, "login tuiplayer", by_key=by_key)
        await until(pilot, lambda: app.state.name == "tuiplayer", "login")
        token = app.state.token
        assert token and f"token {token}" in app.pane("status").text
        await _lobby(pilot, app, by_key)
        if host:
            await type_line(pilot, "new 2 moscow short", by_key=by_key)
            await until(pilot, lambda: app.state.table is not None, "table")
            assert app.pane("table").text.startswith(f"Table {app.state.table}, deal -")
            server.opponent("rival", f"sit {app.state.table}", seed=2)
        else:
            await type_line(pilot, "seek 2 moscow short", by_key=by_key)
            await until(pilot, lambda: app.state.table is not None, "seat")

        last_tricks_drawn = 0
        calls = 0
        while app.state.result is None:
            await until(
                pilot, lambda: app.state.asking or app.state.result is not None, "request or end"
            )
            if app.state.result is not None:
                break
            assert drawn_hand_is_in_rank_order(app.pane("hand").text), app.pane("hand").text
            assert "YOU (tuiplayer)" in app.pane("table").text
            assert app.pane("legal").text == "Your call: " + " | ".join(
                spoken_calls(app.state.legal)
            )
            laid = [
                f"{app.state.who(seat)} {card[:-1]}{SYMBOL[card[-1]]}"
                for seat, card in app.state.trick
            ]  # what lies on the table, in order
            if laid:
                assert "Trick:  " + "  ".join(laid) in app.pane("table").text
                assert {name.split()[0] for name in laid} <= {"rival", "tuiplayer"}
            last = app.pane("table").text.splitlines()[5]
            if app.state.last_trick:  # the trick before: both cards, with who laid them
                assert LAST_TRICK.fullmatch(last), last
                last_tricks_drawn += 1
            if calls == 0:  # the client asked for a person's clock, not a bot's 10 s
                assert app.state.clock_ms == server.config.human_clock_ms + server.config.lag_ms
            if calls == drop_at:
                await _resume(pilot, app)
            asked = app.state.seq  # before typing: the answer may come at once
            await choose(pilot, app)
            calls += 1
            await until(pilot, answered(app, asked), "the call's answer")
            assert not any(line.startswith("! ") for line in app.state.log), app.state.log

        assert calls > 5 and last_tricks_drawn > 0
        # the score drawn is the one the opponent was told: every deal-end and the end
        ends = [parse_line(line) for line in server.opponent_lines]
        deal_ends = [e for e in ends if e.kind == EventKind.DEAL_END]
        match_end = next(e for e in ends if e.kind == EventKind.MATCH_END)
        ours = app.state.seat
        clock_made = [
            e.line
            for e in ends
            if e.kind in (EventKind.PLAY, EventKind.CALL)
            and e.get_int("seat") == ours
            and e.get_bool("auto")
        ]
        assert not clock_made, clock_made  # every call of ours was typed in time
        assert [d.deal for d in app.state.deals] == [e.get_int("deal") for e in deal_ends]
        totals = match_end.get_ints("totals")
        score = app.pane("score").text.splitlines()
        assert score[-1].split() == ["Tot", *map(str, totals)]
        # a name longer than its column keeps its head and its last two (docs/play.md)
        assert score[1].split() in (["Deal", "tui~er", "rival"], ["Deal", "rival", "tui~er"])
        drawn = app.pane("table").text  # the result last, wrapped to the pane's width
        assert app.state.result is not None and app.state.result.startswith("Game over:")
        assert " ".join(drawn.splitlines()).endswith(app.state.result)

        await pilot.press("f10")  # quit: the server says bye and the app ends
        await until(pilot, lambda: not app.is_running, "exit")


def test_play_refuses_an_address_without_a_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "localhost"]) == 2
    assert "HOST:PORT" in capsys.readouterr().err


@pytest.mark.timeout(120)
def test_a_whole_tertz_match_typed_through_the_terminal_client(tmp_path: Path) -> None:
    # seeded decks: a match of two deals (unseeded, two to four: each some 3 s of keys)
    with ServerThread(tmp_path / "db.sqlite3", match_seed="e") as server:
        server.opponent("rival", "seek 2 tertz to-301", seed=4)
        asyncio.run(asyncio.wait_for(_tertz_match(server), 100))
        assert not server.errors, server.errors


def tertz_choice(legal: tuple[str, ...], talon: int) -> str:
    """The first legal call; at the first trick the lowest card, to lose it and break."""
    cards = [t for t in legal if t[0].isdigit() or t[0] in "JQKA"]
    if talon == 14 and cards:
        return min(cards, key=lambda c: RANKS.index(c[:-1]))
    return legal[0]


async def _tertz_match(server: ServerThread) -> None:
    """A Tertz table: no bidding, the turned card is trump, the talon's count is drawn,
    the opponent's tricks while open, and the deck is broken with F8."""
    app = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.name == "tuiplayer", "login")
        await type_line(pilot, "seek 2 tertz to-301", by_key=False)  # typed in the others
        await until(pilot, lambda: app.state.table is not None, "seat")
        talons: set[int] = set()
        broke = theirs = calls = 0
        while app.state.result is None:
            await until(
                pilot, lambda: app.state.asking or app.state.result is not None, "request or end"
            )
            if app.state.result is not None:
                break
            state, table = app.state, app.pane("table").text.splitlines()
            assert state.phase == "play" and "igrayu" not in state.legal
            assert state.trump is not None and state.turned is not None
            # the turned card is the talon's last: drawn (talon 0), it is shown no more
            face_up = f"{state.turned[:-1]}{SYMBOL[state.turned[-1]]}" if state.talon else "-"
            assert table[2] == (
                f"Turned: {face_up}   Talon: {state.talon}   Trump: {SYMBOL[state.trump]}"
            )
            assert state.talon is not None
            talons.add(state.talon)
            if state.their_tricks:  # open while the talon holds four or more
                assert state.talon >= 4
                shown = " ".join(f"{c[:-1]}{SYMBOL[c[-1]]}" for c in state.their_tricks)
                assert table[6] == "Theirs: " + shown
                theirs += 1
            asked = state.seq
            if any(t.startswith("lomayu-") for t in state.legal):
                legal = app.pane("legal").text
                assert legal.startswith("Your call: lomayu 1..")
                assert legal.endswith("(F8: lomayu 6)")
                await pilot.press("f8")
                broke += 1
            else:  # typed whole (completion is tried in the Deberts match)
                await enter(pilot, tertz_choice(state.legal, state.talon))
            calls += 1
            await until(pilot, answered(app, asked), "the call's answer")
            assert not any(line.startswith("! ") for line in app.state.log), app.state.log
        assert calls > 20 and {14, 0} & talons and theirs > 0
        breaks = [
            parse_line(line)
            for line in server.opponent_lines
            if parse_line(line).kind == EventKind.CALL
        ]
        ours = [e for e in breaks if e.get_int("seat") == app.state.seat]
        # on the seeded decks (the rival seeded too) we lose a first trick: F8 is pressed
        assert broke > 0 and broke == sum(e.get_str("call") == "lomayu-6" for e in ours)
        # one sheet row per deal played (how many there were is the opponent's count,
        # not a guess: the decks are the seed's, and a single deal can reach 301)
        deal_ends = [
            line for line in server.opponent_lines if parse_line(line).kind == EventKind.DEAL_END
        ]
        assert len(app.state.deals) == len(deal_ends) >= 1
        assert all(d.outcome == "split" for d in app.state.deals)
        drawn = app.pane("table").text  # the result last, wrapped to the pane's width
        assert app.state.result is not None and app.state.result.startswith("Game over:")
        assert " ".join(drawn.splitlines()).endswith(app.state.result)
        # F7 after it seeks another game like it, not 'seek 2' (a Moscow game)
        await pilot.press("f7")
        await until(pilot, lambda: app.state.seeking is not None, "the seek's answer")
        assert app.state.seeking == "Waiting for a tertz game for 2 players (to-301).", (
            app.state.log
        )
        await pilot.press("f10")
        await until(pilot, lambda: not app.is_running, "exit")


ASK = (
    "ask seq={seq} table=1 deal=1 phase={phase} seat=0 dealer=1 to_act=0 "
    "hand=8h,Jh,Qh,7d,Qd,9d,Js,Qs,Kc turned=Ad fresa=- trump=- player=- round=1 leader=0 "
    "trick= tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk= "
    "clock=60500 legal={legal} players=2"
)


async def _a_key_and_tab_in_one_burst() -> None:
    """'i' and Tab arriving together (tmux's send-keys, a paste): Tab completes 'i', not
    the line as it was before the 'i' (which gave 'menyayui'). The keys are posted to
    the app at once, as the terminal's driver does with one read of both."""
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        box = app.query_one("#input", Input)
        app.state = fold(app.state, ASK.format(seq=3, phase="bidding", legal="pas,igrayu"))
        app.post_message(events.Key("i", "i"))
        app.post_message(events.Key("tab", None))
        await until(pilot, lambda: box.value != "", "a completion")
        await pilot.pause(0.1)
        assert box.value == "igrayu"
        box.value = ""
        app.state = fold(app.state, ASK.format(seq=4, phase="play", legal="menyayu,Js,Qs"))
        app.post_message(events.Key("x", "x"))
        app.post_message(events.Key("tab", None))
        await until(pilot, lambda: box.value != "", "the key")
        await pilot.pause(0.1)
        assert box.value == "x"  # no call nor command starts with 'x'; 'menyayu' is not one


def test_a_key_and_tab_in_one_burst_complete_what_was_typed() -> None:
    asyncio.run(_a_key_and_tab_in_one_burst())


async def _the_arrows_and_the_app_keys_with_the_line_focused() -> None:
    """Up and Down walk the history (docs/play.md, keys) now that they are the input
    line's own keys; F10, the app's, still acts while the line has text."""
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        box = app.query_one("#input", Input)
        for line in ("pas", "seek 2"):
            await type_line(pilot, line)
        assert box.value == "" and app.history.lines == ["pas", "seek 2"]
        await pilot.press("up")
        assert box.value == "seek 2" and box.cursor_position == len("seek 2")
        await pilot.press("up")
        assert box.value == "pas"
        await pilot.press("down")
        assert box.value == "seek 2"
        await pilot.press("f10")  # the app's key, the line's text aside: quit
        assert app.history.lines == ["pas", "seek 2"] and box.value == "seek 2"
        await until(pilot, lambda: not app.is_running, "exit")


def test_the_arrows_and_the_app_keys_with_the_line_focused() -> None:
    asyncio.run(_the_arrows_and_the_app_keys_with_the_line_focused())


@pytest.mark.timeout(120)
def test_a_resumed_client_learns_the_table_again(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        server.opponent("rival", "seek 2 moscow to-1001", seed=5)
        asyncio.run(asyncio.wait_for(_learns_again(server), 100))
        assert not server.errors, server.errors


async def _play_until(pilot: Pilot[None], app: PlayApp, done: Callable[[], bool]) -> None:
    """Answer each request with the first legal call (igrayu when offered) until
    ``done``; the calls put in whole (the typing is the whole match's test)."""
    while not done():
        await until(pilot, lambda: app.state.asking or done(), "a request")
        if done():
            return
        asked = app.state.seq
        await type_line(
            pilot, "igrayu" if "igrayu" in app.state.legal else app.state.legal[0], by_key=False
        )
        await until(pilot, answered(app, asked), "the call's answer")


def _a_trick_into_the_next_deal(app: PlayApp) -> bool:
    """A deal finished, a trick taken in the next, and ours to answer. Not just a deal
    and a last trick: between the first deal's end and the next deal's start (two lines
    read one after the other) the last trick was still the first deal's, and stopped
    there the client resumed into the next deal, where the server tells none: 'no the
    last trick in 15 s' (once, under -n 2). Ours to answer: the opponent cannot play on
    while the client is closed and started again (its card a line after 'here: ')."""
    state = app.state
    return (
        bool(state.deals)
        and state.deal != state.deals[-1].deal
        and bool(state.last_trick)
        and state.asking
    )


async def _learns_again(server: ServerThread) -> None:
    """Closed after a deal and a trick, the client started again with the token shows
    the names, the finished deal's row and the last trick (the events missed are not
    replayed: it asks), and the log pane keeps its newest line in view after 'rules'."""
    first = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(first) as pilot:
        await until(pilot, lambda: first.state.token is not None, "login")
        await type_line(pilot, "seek 2 moscow to-1001", by_key=False)
        await _play_until(pilot, first, lambda: _a_trick_into_the_next_deal(first))
        token, deals, last = first.state.token, first.state.deals, first.state.last_trick
        players = first.state.players
    assert set(players) == {"rival", "tuiplayer"}
    second = PlayApp("127.0.0.1", server.port, name="tuiplayer", token=token)
    async with running(second) as pilot:
        await until(pilot, lambda: "tuiplayer is back" in second.state.log, "back")
        await until(pilot, lambda: second.state.players == players, "the names")
        await until(pilot, lambda: second.state.deals == deals, "the finished deals")
        await until(pilot, lambda: second.state.last_trick == last, "the last trick")
        await pilot.pause(0.1)
        table = second.pane("table").text
        assert "seat 0" not in table and "seat 1" not in table and "rival" in table
        score = second.pane("score").text.splitlines()
        assert score[2].split()[0].rstrip("bhc") == "1" and "seat" not in score[1]
        # the lookups of a match, in words (the human style's)
        await type_line(pilot, "sheet", by_key=False)
        await until(
            pilot, lambda: any(x.startswith("Score sheet") for x in second.state.log), "sheet"
        )
        sheet = next(x for x in second.state.log if x.startswith("Score sheet"))
        assert "(to 1001)" in sheet
        await type_line(pilot, "history", by_key=False)
        await until(
            pilot, lambda: any(x.startswith("History of") for x in second.state.log), "history"
        )
        await type_line(pilot, "finger", by_key=False)
        await until(
            pilot, lambda: any(x.startswith("tuiplayer:") for x in second.state.log), "finger"
        )
        await type_line(pilot, "games rival", by_key=False)
        await until(pilot, lambda: "No finished games for rival." in second.state.log, "games")
        # a long reply, then a short one: the short one is the pane's last line
        await type_line(pilot, "rules", by_key=False)
        await type_line(pilot, "who", by_key=False)
        await until(pilot, lambda: second.state.log[-1].startswith("here: "), "who")
        await pilot.pause(0.1)
        log = second.pane("log")
        shown = log.text.splitlines()
        assert shown[-1].startswith("here: ") and len(shown) <= log.content_size.height
        assert all(len(line) <= log.content_size.width for line in shown)
        # a wrong call after a long reply is in view
        await type_line(pilot, "rules", by_key=False)
        await type_line(pilot, "7x", by_key=False)
        await until(pilot, lambda: second.state.log[-1].startswith("! "), "the error")
        await pilot.pause(0.1)
        assert second.state.log[-1] in log.text


async def _no_bidding_keys_at_a_tertz_table() -> None:
    """F2/F3 (pas, igrayu) are Deberts' bidding: at a Tertz table they are neither in
    the footer nor sent (the server would refuse them: 'bidding is over'). F8 (the
    break) is Tertz's alone: shown nowhere else (it was, at a Moscow table 100 wide),
    and there only while the break is ours (it showed from the deal's start, s47)."""
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        app.post_message(WireLine(ASK.format(seq=2, phase="bidding", legal="pas,igrayu")))
        await until(pilot, lambda: app.state.seq == 2, "the Deberts table")
        await pilot.pause()
        assert {"f2", "f3"} <= set(app.screen.active_bindings)
        assert "f8" not in app.screen.active_bindings
        tertz = ASK.format(seq=3, phase="play", legal="Js,Qs") + " players=2 talon=14"
        app.post_message(WireLine(tertz))
        await until(pilot, lambda: app.state.talon == 14, "the Tertz view")
        await pilot.pause()
        assert not {"f2", "f3", "f8"} & set(app.screen.active_bindings)
        logged = app.state.log
        await pilot.press("f2", "f3", "f8")
        await pilot.pause()
        # nothing sent (it would say: not connected); the link's retries go on meanwhile
        added = [line for line in app.state.log if line not in logged]
        link = ("cannot connect", "no connection yet", "the server cannot be reached")
        assert all(line.startswith(link) for line in added), added
        breaks = ",".join(f"lomayu-{n}" for n in range(1, 13))
        app.post_message(WireLine(ASK.format(seq=4, phase="play", legal=breaks) + " talon=14"))
        await until(pilot, lambda: app.state.seq == 4, "the break asked")
        await pilot.pause()
        assert "f8" in app.screen.active_bindings
        await pilot.press("f10")
        await until(pilot, lambda: not app.is_running, "exit")


def test_no_bidding_keys_at_a_tertz_table() -> None:
    asyncio.run(_no_bidding_keys_at_a_tertz_table())


def first_card(legal: tuple[str, ...]) -> str:
    """A card if one may be played (no declarations: no questions to answer), else the
    first call (the break)."""
    return next((t for t in legal if t[0].isdigit() or t[0] in "JQKA"), legal[0])


class HeldOpponent:
    """A machine-style player over a plain socket that acts only when the test says:
    the terminal's screen is checked while this opponent is the one to act."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.views: list[dict[str, str]] = []  # its asks and states, newest last

    @classmethod
    async def join(cls, port: int, name: str, table: int) -> HeldOpponent:
        held = cls(*await asyncio.open_connection("127.0.0.1", port))
        await held.send(f"style machine\nlogin {name}\nsit {table}")
        return held

    async def send(self, text: str) -> None:
        self.writer.write(f"{text}\n".encode())
        await self.writer.drain()

    async def ask(self) -> dict[str, str]:
        """The next request to act (the lines before it read and dropped)."""
        while True:
            line = (await asyncio.wait_for(self.reader.readline(), WAIT_S)).decode().rstrip()
            assert line, "the server closed the opponent's connection"
            parsed = parse_line(line)
            assert str(parsed.tag) != "error", line
            if str(parsed.tag) == "ask":
                return {
                    key: parsed.get_str(key) or "" for key in ("seq", "legal", "talon", "trick")
                }

    def close(self) -> None:
        self.writer.close()


async def _the_screen_after_the_draws_while_the_opponent_thinks(server: ServerThread) -> None:
    """Whenever the rival is to lead after the draws (so only it was asked), our screen
    already shows the talon it was told, nine cards in our hand, and its turn."""
    app = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.name == "tuiplayer", "login")
        await type_line(pilot, "new 2 tertz to-301", by_key=False)
        await until(pilot, lambda: app.state.table is not None, "seat")
        assert app.state.table is not None
        rival = await HeldOpponent.join(server.port, "rival", app.state.table)
        try:
            checked = 0
            while checked < 3 and app.state.result is None:
                # the rival acts only when it is asked; we act whenever we are
                waiting = asyncio.ensure_future(rival.ask())
                while not waiting.done():
                    await pilot.pause(0.02)
                    if app.state.asking:
                        asked = app.state.seq
                        await enter(pilot, first_card(app.state.legal))

                        def answered(asked: int | None = asked) -> bool:
                            return not app.state.asking or app.state.seq != asked

                        await until(pilot, answered, "our call's answer")
                ask = waiting.result()
                talon = int(ask["talon"])
                if talon < 14 and not ask["trick"]:

                    def drawn(talon: int = talon) -> bool:
                        return app.state.talon == talon and len(app.state.hand) == 9

                    # the rival leads after the draws: our screen shows the draws too
                    await until(
                        pilot, drawn, f"talon {talon} and nine cards while the rival thinks"
                    )
                    assert "Turn:   rival" in app.pane("table").text
                    checked += 1
                await rival.send(f"{first_card(tuple(ask['legal'].split(',')))} seq={ask['seq']}")
            assert checked == 3
        finally:
            rival.close()
        await pilot.press("f10")
        await until(pilot, lambda: not app.is_running, "exit")


@pytest.mark.timeout(120)
def test_the_screen_after_the_draws_while_the_opponent_thinks(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3", match_seed="e") as server:
        asyncio.run(
            asyncio.wait_for(_the_screen_after_the_draws_while_the_opponent_thinks(server), 100)
        )


@pytest.mark.timeout(120)
def test_calls_at_a_tertz_table_can_be_read_whole_with_page_up(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        server.opponent("rival", "seek 2 tertz", seed=5)
        asyncio.run(asyncio.wait_for(_calls_read_whole(server), 100))
        assert not server.errors, server.errors


async def _calls_read_whole(server: ServerThread) -> None:
    """'calls' at a Tertz table is taller than the log pane at 80×24 (tryout s13):
    PgUp pages back through it to its first line, PgDn back to the newest, and a line
    sent shows the newest again."""
    app = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.token is not None, "login")
        await type_line(pilot, "seek 2 tertz", by_key=False)
        await until(pilot, lambda: app.state.talon is not None, "the Tertz table")
        logged = len(app.state.log)
        await type_line(pilot, "calls", by_key=False)
        await until(pilot, lambda: len(app.state.log) > logged, "calls")
        await pilot.pause(0.2)
        reply = [x for entry in app.state.log[logged:] for x in entry.split("\n")]
        log = app.pane("log")
        assert len(reply) > log.content_size.height  # it does not fit
        seen = set(log.text.splitlines())
        for _ in range(5):
            await pilot.press("pageup")
            await pilot.pause(0.05)
            seen |= set(log.text.splitlines())
        assert "more lines below: PgDn" in log.text
        assert {line.strip() for line in reply} <= {line.strip() for line in seen}
        for _ in range(5):
            await pilot.press("pagedown")
        await pilot.pause(0.05)
        assert "more lines below" not in log.text and app.log_back == 0
        await pilot.press("pageup")
        await type_line(pilot, "who", by_key=False)
        await until(pilot, lambda: app.state.log[-1].startswith("here: "), "who")
        await pilot.pause(0.1)
        assert log.text.splitlines()[-1].startswith("here: ")
        await pilot.press("f10")
        await until(pilot, lambda: not app.is_running, "exit")


async def _what_is_read_stays_in_place_with_the_log_full() -> None:
    """Scrolled back (PgUp), the lines read stay in place as new ones come below them,
    also once the log holds its LOG_KEEP entries and each new one drops the oldest; a
    line sent, by a key too, shows the newest again."""
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        # logged in: F5 is no key before a login (the server would refuse 'tables')
        app.post_message(WireLine("ok cmd=login name=eve guest=1 token=T text=Hello."))
        for i in range(LOG_KEEP + 10):
            app.post_message(WireLine(f"say from=ann text=line{i}"))
        # (the link's notices, as it retries, come among them: new lines like any)
        await until(pilot, lambda: f"ann: line{LOG_KEEP + 9}" in app.state.log, "the log")
        await pilot.pause()
        log = app.pane("log")
        await pilot.press("pageup")
        await pilot.pause()
        read = log.text.splitlines()[:-1]  # the last line: how many lie below
        assert read and "more lines below" in log.text.splitlines()[-1]
        for i in range(3):
            app.post_message(WireLine(f"say from=bob text=more{i}"))
        await until(pilot, lambda: "bob: more2" in app.state.log, "the new lines")
        await pilot.pause()
        assert log.text.splitlines()[:-1] == read
        # a line sent by a key (F5: 'tables') shows the newest again, where its answer
        # comes, as a typed one does
        await pilot.press("f5")
        await pilot.pause()
        assert app.log_back == 0 and "more lines below" not in log.text
        assert log.text.splitlines()[-1] == app.state.log[-1]
        await pilot.press("f10")
        await until(pilot, lambda: not app.is_running, "exit")


def test_what_is_read_stays_in_place_with_the_log_full() -> None:
    asyncio.run(_what_is_read_stays_in_place_with_the_log_full())


async def _the_panes_are_as_wide_as_the_drawing_counts() -> None:
    """draw.py fits the score pane's lines to 25 columns, but its pane had 24 inside its
    border and padding: four players' rows ('Deal  kost+hous sash+volo') wrapped, the
    second pair's column under the first."""
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        await pilot.pause()
        assert app.query_one("#score").content_size.width == SCORE_COLUMNS
        assert app.query_one("#table").content_size.width == TABLE_COLUMNS
        await pilot.press("ctrl+q")


def test_the_panes_are_as_wide_as_the_drawing_counts() -> None:
    asyncio.run(_the_panes_are_as_wide_as_the_drawing_counts())


NARROW = [
    "ok cmd=login name=dasha34 guest=1 token=Tok123 text=Hello, dasha34 (guest).",
    "ok cmd=sit table=3 seat=0 text=You sit at table 3, seat 0.",
    "event seq=1 table=3 kind=seated name=dasha34 seat=0",
    "event seq=2 table=3 kind=seated name=house-heuristic-4 seat=1",
    "event seq=3 table=3 kind=start players=dasha34,house-heuristic-4 match=m3",
    "ask seq=7 table=3 deal=1 phase=play seat=0 dealer=0 to_act=0 "
    "hand=8h,Jh,Qh,7d,Qd,9d,Jd,8c,Kc turned=Ad fresa=10c trump=d player=1 round=1 leader=1 "
    "trick=7c tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= "
    "talk=1:igrayu clock=10500 legal=menyayu,Kc,8c players=2",
]


# the table pane's lines each start with one of these (a line folded: two spaces)
LABELS = ("Table 3", "Dealer:", "Turned:", "Talk:", "Trick:", "Last:", "Turn:")


async def _narrow_table_pane(columns: int) -> None:
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app, (columns, 24)) as pilot:
        for line in NARROW:
            app.post_message(WireLine(line))
        await until(pilot, lambda: app.state.asking, "the ask")
        await pilot.pause(0.1)
        pane, top = app.query_one("#table"), app.query_one("#top")
        lines = app.pane("table").text.splitlines()
        assert all(len(line) <= pane.content_size.width for line in lines), lines
        assert pane.content_size.height == len(lines) <= top.size.height, lines  # none hidden
        assert lines[-1].startswith("Turn:   YOU ("), lines  # your turn in view
        assert all(line.startswith(("  ", *LABELS)) for line in lines), lines  # folded
        # folded between its fields, each whole: not cut at the edge ('Trump: ♦ (hous')
        assert "Turned: A♦   Fresa: 10♣" in lines
        assert any(line.strip() == "Trump: ♦ (hou~-4 plays)" for line in lines), lines
        assert app.pane("log").content_size.height >= 5  # the log still has room
        await pilot.press("ctrl+q")


@pytest.mark.parametrize("columns", [60, 70])
def test_a_narrow_terminals_table_pane_folds_its_lines_and_grows(columns: int) -> None:
    """Below 80 columns the table pane's lines, fitted to its 51 columns at 80, wrapped
    where the pane cut them, mid-word ('(house-' / 'heuristic-4 plays)'), and pushed
    the last one, your turn, out of view (failed before). Each is fitted to the pane
    as it is, folded between its fields, and the panes grow by as many lines."""
    asyncio.run(asyncio.wait_for(_narrow_table_pane(columns), 50))


@pytest.mark.timeout(120)
def test_ctrl_r_after_the_client_gave_up_connects_and_logs_in_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server stopped and started again on its port (tryout 18, finding 1): the link
    tries again by itself while it is down, gives up after its time (here shortened),
    and then Ctrl+R connects and logs in again (it did nothing: 'not connected')."""
    # its pauses between tries from 0.02 s, not 0.5, doubling as ever (3 s of the test's
    # 3.4 were the three tries' pauses and a second of trying before it gave up, now 0.3)
    monkeypatch.setattr("clients.play.link.FIRST_PAUSE_S", 0.02)
    asyncio.run(asyncio.wait_for(_gave_up_then_ctrl_r(tmp_path / "db.sqlite3"), 100))


async def _gave_up_then_ctrl_r(db: Path) -> None:
    first = ServerThread(db).__enter__()
    port = first.port
    app = PlayApp("127.0.0.1", port, name="roman")

    def hello() -> int:  # logins answered so far (a later one is said in one line)
        return sum(x.startswith(("Hello, roman", "Connected again.")) for x in app.state.log)

    async with running(app) as pilot:
        await until(pilot, lambda: app.state.token is not None, "login")
        # down a little while: the link, pausing longer each time, gets in by itself
        first.__exit__()
        await until(pilot, lambda: any("(attempt 3)" in x for x in app.state.log), "a third try")
        with ServerThread(db, port=port) as back:
            await until(pilot, lambda: hello() == 2, "the login by itself")
            app.link.retry_for_s = 0.3  # gives up soon (the default is 120 s: the seat hold)
        assert not back.errors, back.errors
        await until(
            pilot,
            lambda: any(x.startswith("the server cannot be reached") for x in app.state.log),
            "giving up",
        )
        assert any(x.startswith("connection lost: trying again") for x in app.state.log)
        await type_line(pilot, "who", by_key=False)
        await until(pilot, lambda: app.state.log[-1].startswith("not connected"), "refusal")
        refusal = app.state.log[-1]
        with ServerThread(db, port=port) as again:
            await pilot.press("ctrl+r")
            await until(pilot, lambda: hello() == 3, "the login again")
            await type_line(pilot, "who", by_key=False)
            await until(
                pilot,
                lambda: any(x.startswith("here: ") and "roman" in x for x in app.state.log),
                "who",
            )
            await pilot.press("f10")
            await until(pilot, lambda: not app.is_running, "exit")
        assert "Ctrl+R" in refusal, refusal  # the refusal says the way back
        assert not again.errors, again.errors
    assert not first.errors, first.errors


@pytest.mark.timeout(120)
def test_a_seat_a_restarted_server_lost_is_said_after_the_login_again(tmp_path: Path) -> None:
    """Seated, then the server restarts (a real server stopped and started on its port):
    the link logs in again by itself and the server has no seat for it. The log said
    only 'Connected again.' and the table went with no word why."""
    asyncio.run(asyncio.wait_for(_seat_lost_in_a_restart(tmp_path / "db.sqlite3"), 100))


async def _seat_lost_in_a_restart(db: Path) -> None:
    first = ServerThread(db).__enter__()
    port = first.port
    app = PlayApp("127.0.0.1", port, name="roman")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.token is not None, "login")
        await type_line(pilot, "new 2", by_key=False)
        await until(pilot, lambda: app.state.table is not None, "a seat")
        table = app.state.table
        first.__exit__()
        with ServerThread(db, port=port) as again:
            said = (
                f"Connected again, but your seat at table {table} was not kept: the server"
                " holds none of yours now (a restarted server keeps no seats)."
            )
            await until(pilot, lambda: said in app.state.log, "the seat said lost")
            assert app.state.table is None and "Connected again." not in app.state.log
            assert app.pane("table").text.startswith("In the lobby.")
            await pilot.press("f10")
            await until(pilot, lambda: not app.is_running, "exit")
        assert not again.errors, again.errors
    assert not first.errors, first.errors


@pytest.mark.timeout(120)
def test_an_observer_joining_mid_match_is_shown_the_deals_and_the_last_trick(
    tmp_path: Path,
) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        server.opponent("rival", "seek 2 moscow to-1001", seed=5)
        asyncio.run(asyncio.wait_for(_observes_mid_match(server), 100))
        assert not server.errors, server.errors


async def _observes_mid_match(server: ServerThread) -> None:
    """A deal finished and a trick taken, 'observe 1' from another client shows that
    deal's row and the last trick at once (tryout 18, finding 5: 'Last: -' and no rows
    until 'last' and 'sheet' were typed; the client asked for them only after a drop)."""
    player = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(player) as pilot:
        await until(pilot, lambda: player.state.token is not None, "login")
        await type_line(pilot, "seek 2 moscow to-1001", by_key=False)
        await _play_until(
            pilot, player, lambda: bool(player.state.deals) and bool(player.state.last_trick)
        )
        deals, table = player.state.deals, player.state.table
    # the player gone, the seat held: the match waits on its clock, mid-deal
    watcher = PlayApp("127.0.0.1", server.port, name="watcher")
    async with running(watcher) as pilot:
        await until(pilot, lambda: watcher.state.token is not None, "login")
        await type_line(pilot, f"observe {table}", by_key=False)
        await until(pilot, lambda: watcher.state.deals[: len(deals)] == deals, "the deals")
        await until(pilot, lambda: bool(watcher.state.last_trick), "the last trick")
        await pilot.pause(0.1)
        assert "Last:   -" not in watcher.pane("table").text
        # told by 'last' (its leader places each card): who laid each is known
        assert all(seat >= 0 for seat, _ in watcher.state.last_trick), watcher.state.last_trick
        assert "not seen" not in watcher.pane("table").text
        assert not any(x.startswith("! ") for x in watcher.state.log), watcher.state.log
        assert not any(x.startswith("Score sheet") for x in watcher.state.log)  # asked quietly


@pytest.mark.timeout(60)
def test_leave_in_a_running_match_asks_first_and_the_result_names_the_players(
    tmp_path: Path,
) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        server.opponent("rival", "seek 2 moscow short", seed=5)
        asyncio.run(asyncio.wait_for(_leave_twice(server), 45))
        assert not server.errors, server.errors


async def _leave_twice(server: ServerThread) -> None:
    """'leave' asks (the machine style would forfeit at once), a second one leaves."""
    app = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.token is not None, "login")
        await type_line(pilot, "seek 2 moscow short", by_key=False)
        await until(pilot, lambda: bool(app.state.hand), "a hand")
        await type_line(pilot, "leave", by_key=False)
        await pilot.pause(0.3)
        assert "'leave' again within 10 s" in app.state.log[-1], app.state.log[-3:]
        assert app.state.table is not None and app.state.result is None
        await type_line(pilot, "leave", by_key=False)
        await until(pilot, lambda: app.state.result is not None, "the forfeit")
        assert app.state.result is not None and "left: tuiplayer" in app.state.result
        # (nothing written: no 'wins with 0', which said nothing, s44)
        assert "Game over: rival wins (left: tuiplayer), totals 0 : 0" in app.state.log[-1]
        assert app.pane("score").text == "Score\n-"  # the lobby's: no match


async def _lines_in_one_burst_or_pasted() -> None:
    """Two lines in one read ('bella', Enter, 'Jc', Enter: a terminal without bracketed
    paste) went out as 'bellaJc' twice; pasted with it, the second line was lost (a
    tryout, s29). Each line is its own, as typed."""
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        box = app.query_one("#input", Input)
        for key in ("b", "e", "l", "l", "a", "enter", "J", "c", "enter"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await until(pilot, lambda: len(app.history.lines) == 2, "two lines")
        assert app.history.lines == ["bella", "Jc"] and box.value == ""
        box.post_message(events.Paste("pas\nseek 2\nsa"))
        await until(pilot, lambda: len(app.history.lines) == 4, "two more")
        assert app.history.lines[2:] == ["pas", "seek 2"] and box.value == "sa"


def test_lines_in_one_burst_or_pasted_are_each_their_own() -> None:
    asyncio.run(_lines_in_one_burst_or_pasted())


@pytest.mark.timeout(60)
def test_no_after_the_leave_question_keeps_the_seat(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3") as server:
        server.opponent("rival", "seek 2 moscow short", seed=5)
        asyncio.run(asyncio.wait_for(_leave_then_no(server), 45))
        assert not server.errors, server.errors


async def _leave_then_no(server: ServerThread) -> None:
    """The client asks before 'leave' forfeits, as the human style does; 'no' answers it
    there (docs/protocol.md §5.6). Here it went to the server as the call 'no'
    (ne-prokhodit), refused: '! ne prokhodit answers a question …' (a pty tryout)."""
    app = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.token is not None, "login")
        await type_line(pilot, "seek 2 moscow short", by_key=False)
        await until(pilot, lambda: bool(app.state.hand), "a hand")
        await type_line(pilot, "leave", by_key=False)
        await type_line(pilot, "no", by_key=False)
        table = app.state.table
        await until(pilot, lambda: app.state.log[-1] == f"You stay at table {table}.", "a stay")
        await type_line(pilot, "ping", by_key=False)  # (anything the server got is answered)
        await pilot.pause(0.3)
        assert not any(x.startswith("! ") for x in app.state.log), app.state.log[-4:]
        await type_line(pilot, "leave", by_key=False)  # asked again, not left
        await pilot.pause(0.3)
        assert "'leave' again within 10 s" in app.state.log[-1], app.state.log[-3:]
        assert app.state.table == table and app.state.result is None


@pytest.mark.timeout(120)
def test_a_house_bot_coming_to_the_table_is_one_line(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "db.sqlite3", house_bots=True) as server:
        asyncio.run(asyncio.wait_for(_a_house_bot_comes(server), 100))
        assert not server.errors, server.errors


async def _a_house_bot_comes(server: ServerThread) -> None:
    """'bot random' was said twice in the log: the reply 'house-random-1 comes to table
    1.' and its seat 'house-random-1 sits at seat 1' (a club evening); its seat alone."""
    app = PlayApp("127.0.0.1", server.port, name="tuiplayer")
    async with running(app) as pilot:
        await until(pilot, lambda: app.state.token is not None, "login")
        await type_line(pilot, "new 2 private", by_key=False)
        await until(pilot, lambda: app.state.seat is not None, "the seat")
        await type_line(pilot, "bot random", by_key=False)
        await until(pilot, lambda: app.state.match is not None, "the bot seated, the match")
        bot = next(name for name in app.state.players if name.startswith("house-random"))
        arrival = ("comes to table", "sits at seat")
        told = [e for e in app.state.log if e.startswith(bot) and any(a in e for a in arrival)]
        assert told == [f"{bot} sits at seat 1"], app.state.log
        await pilot.press("f10")
        await until(pilot, lambda: not app.is_running, "exit")


async def _the_line_keys_in_one_burst() -> None:
    """Keys read at once (a fast typist, a paste of keys, tmux's send-keys): 'ig',
    Ctrl+U, 'terts', Enter sent 'igterts' (a tryout, s42), 'pax', Backspace, 's' 'paxs':
    the line's own editing keys
    running as bindings after the keys read with them; now each acts where it was typed
    (docs/play.md, keys)."""
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        box = app.query_one("#input", Input)
        bursts = [
            ("ig", "ctrl+u", "terts", "enter"),
            ("pax", "backspace", "s", "enter"),
            ("pas", "home", "ctrl+k", "igrayu", "enter"),  # Ctrl+K: what is right of it
            ("say hi x", "ctrl+w", "there", "enter"),  # Ctrl+W: the word left of it
        ]
        for burst in bursts:
            for part in burst:
                named = part in ("ctrl+u", "ctrl+k", "ctrl+w", "home", "backspace", "enter")
                for key in [part] if named else list(part):
                    if key == " ":  # (textual names the key)
                        app.post_message(events.Key("space", " "))
                    else:
                        app.post_message(events.Key(key, None if len(key) > 1 else key))
        sent = ["terts", "pas", "igrayu", "say hi there"]
        await until(pilot, lambda: len(app.history.lines) >= len(sent), "four lines sent")
        assert app.history.lines == sent and box.value == ""


def test_the_line_keys_act_in_order_in_one_burst() -> None:
    asyncio.run(_the_line_keys_in_one_burst())
