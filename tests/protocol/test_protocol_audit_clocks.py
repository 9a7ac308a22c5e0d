"""An audit of docs/protocol.md against the server, part 2: the clocks, automatic calls,
forfeits, a stop and a drain (§11), disconnects and reconnects (§12), observers and what
is never sent (§13), deal records (§14), the example sessions (§15), the minimal bot
(§16) and what protocol 1 does not have (§17). As part 1 (test_protocol_audit.py): each
promise a client may rely on, and (→) the tests that pin it, "here" for this module's.
The examples of these sections are held here to a real server line for line, dealt by a
seed where a deal shows (the seed its match-end names, or one found to deal it) and on
virtual time where the clock shows; an excerpt's lines are checked, its "…" skipped.

§11 the defaults are the server's; `rules TABLE` states the values in force
    → here: test_the_numbers_of_11_and_12_are_the_servers_defaults;
    → server/test_tertz_rules_clock.py test_a_deberts_tables_clock_line_says_nothing_of_a_break
§11.1 each request its own clock; a new ask after every accepted call (talk calls too),
the fresh ask's clock= the whole allowance
    → server/test_clock.py
      test_a_call_answered_late_in_the_clock_gives_the_next_seat_its_whole_clock;
    → here: test_the_bots_example_of_15_2_is_what_a_server_seeded_so_sends (after menyayu)
§11.1 10 s for the bot clock, 60 s for others, 500 ms lag: clock=10500 / 60500; the bot
clock by `clock bot`, or the machine style without `clock human`
    → server/test_clock.py test_clock_human_gives_a_machine_style_seat_the_human_clock,
      test_clock_refuses_a_bad_choice_and_keeps_the_style_default;
    → here: test_the_numbers_of_11_and_12_are_the_servers_defaults,
      test_the_machine_style_is_told_nothing_as_its_clock_runs_down (60500),
      test_the_netcat_session_of_15_1_is_what_a_server_seeded_so_sends ([60 s])
§11.1 fixed for the match: a clock or style asked for, or a reconnect in the other style,
changes nothing
    → here: test_a_clock_asked_for_mid_match_waits_for_the_next_match,
      test_a_person_back_in_the_machine_style_keeps_his_clock_as_12_shows
§11.1 the warning at 10 s left, once, to the human style; none for a clock no longer than
it; the machine style told nothing
    → server/test_clock.py test_a_person_is_warned_once_when_10_s_are_left,
      test_no_warning_when_the_clock_is_no_longer_than_the_warning;
    → game/test_clock.py test_a_seat_is_warned_once_a_request_when_its_warning_time_is_left;
    → here: test_the_machine_style_is_told_nothing_as_its_clock_runs_down
§11.1 an ask repeated by `state` or a reconnect: the milliseconds left
    → server/test_reconnect.py test_reconnect_resumes_the_seat;
    → here: test_a_person_back_in_the_machine_style_keeps_his_clock_as_12_shows
§11.1 no clock per match (and §17)
    → here: test_what_17_lists_is_not_there
§11.2 `auto=1` on the call or play, `"auto": true` in the record
    → server/test_reconnect.py test_automatic_calls_are_recorded;
    → here: test_the_forfeit_example_of_11_3_is_what_a_server_seeded_so_sends
§11.2 ` (by the clock)`, ` (по часам)`: the play, `history`, `last`, the web replay, the
deal's record as people are told it
    → server/test_clock.py test_a_person_is_warned_once_when_10_s_are_left;
    → server/test_history_clock.py; protocol/test_render.py; web/test_replay_clock.py,
      web/test_browser_clock_marks.py
§11.2 the call made: pas, the forced ot-, prokhodit, ne-prokhodit, pokazyvayu, pishet,
else the lowest legal card (plain before trump, the page's orders, ties in legal=
order), else legal='s first; no declaration, swap or bella; never a redeal
    → game/test_clock.py test_the_automatic_call_passes_then_plays_the_lowest_card;
    → here: test_the_clock_calls_as_11_2_says (against the page's own words, at every
      request of random matches of several rule sets),
      test_the_forfeit_example_of_11_3_is_what_a_server_seeded_so_sends (terts not declared)
§11.2 a pending question's answers (a plugin's too) first in the answerer's legal=
    → game/test_sources.py (legal= with ne-menyayu, predlagayu before chetyre-semerki);
    → here: test_the_clock_calls_as_11_2_says (never chetyre-semerki)
§11.3 a forfeit ends the match at once, `forfeit=SEAT`, stored with its reason and seat;
no deal-end; the deal given up recorded as it stood and sent as a record (before the
match-end); nobody writes
    → server/test_forfeit_record.py; game/test_forfeit_record.py;
      web/test_forfeit_seat.py;
    → here: test_the_forfeit_example_of_11_3_is_what_a_server_seeded_so_sends (the
      example showed no record, and named the winner `slowpoke` as though `name=` named
      the one who forfeited: slips, corrected)
§11.3 a forfeit before a deal's first call leaves no record of it; /games/ID still shows
the match
    → server/test_sheet_after.py; web/test_pages.py
§11.3 timeouts: 3 in a row; a call of the seat's own resets the count
    → game/test_clock.py test_timeouts_in_a_row_lose_and_an_answer_resets_them;
    → server/test_reconnect.py test_repeated_timeouts_make_automatic_calls_then_forfeit;
    → here: test_the_forfeit_example_of_11_3_is_what_a_server_seeded_so_sends
§11.3 away: 120 s from the disconnect, not reset; the clock's calls meanwhile not counted
    → server/test_reconnect.py test_away_too_long_forfeits;
    → server/test_away_told.py test_a_second_away_neither_restarts_the_limit_nor_is_told_again;
    → here: test_an_away_seats_clock_calls_do_not_forfeit_it_the_away_limit_does
§11.3 left: `leave` during the match
    → server/test_seek_dropped_leaver.py;
    → here: test_a_person_observing_is_told_what_13_shows (leave!, "left the table")
§11.3 the winner: the other side; of three, the highest total, a tie to the lower seat;
0 : 0 : 0 by the leaver's seat
    → game/test_forfeit_winner.py test_the_highest_other_side_wins_a_tie_going_to_the_lowest_seat;
    → web/test_forfeit_seat.py
§11.4 SIGTERM, SIGINT, SIGHUP (not under nohup); newcomers' one line; everyone told, logged
in or not; a stop once; signals before `listening`; the grace, at once with nobody left
    → server/test_shutdown.py (test_signal_stops_cleanly_and_tells_everyone …
      test_the_grace_is_waited_while_a_player_is_online_and_ends_when_he_goes)
§11.4 each table's `info closed=T …` line, a match's stopped unrated (Russian too); no
match-end; new/sit/seek refused `shutting-down`, and a closed table's calls and `state`;
a waiting seek ends with the stop's line alone, `unseek` then not-allowed
    → server/test_shutdown.py
      test_a_stop_names_the_matches_it_ends_and_tells_their_players_in_their_language;
    → server/test_seek_looks_again.py, server/test_lobby_tasks.py;
    → here: test_a_stop_tells_each_table_and_refuses_new_games_as_11_4_says
§11.4 the stopped match listed `winner=-`, `reason=shutdown`
    → store/test_store.py; store/test_rated_end_together.py
§11.4 `closed=T` read by the client library; --workers: seats kept elsewhere, a worker's
stop and its reasons
    → clients/test_handed.py
      test_a_bot_whose_table_closes_with_no_match_end_says_so_and_seeks_again;
    → store/test_workers_stopping.py, store/test_serve_stop_database_away.py,
      store/test_workers_two_hosts_stop.py, store/test_distributed_stops.py
§11.4a SIGUSR1 or `drain`: everyone told once (logins too); waiting tables closed in their
words; every way to a new game refused in its words, a waiting seek ended, a rematch off;
the running matches play on; the stop when none is left; SIGTERM during it, a second
SIGUSR1, one during a stop, one as serve starts; `drain_limit_ms`
    → server/test_drain.py; server/test_drain_start.py; store/test_workers_drain.py
§11.4a `drain`: the admins' own, no argument, its ok (matches, already), during a stop
refused, Russian
    → server/test_drain_command.py (the third Russian answer, «сервер уже
      останавливается: ждать нечего», is in the catalogue, not provoked over the wire)
§11.4a the example
    → here: test_the_drain_example_of_11_4a_is_what_the_server_sends
§12 away on any end of the connection (closed, reset, kick), `event kind=away`, the human
style's words for how long
    → server/test_reconnect.py test_reconnect_resumes_the_seat,
      test_a_reset_connection_is_an_ordinary_disconnect;
    → server/test_moderation.py
      test_a_kicked_player_is_told_why_his_seat_goes_away_and_he_may_come_back;
    → server/test_human.py test_the_away_notice_says_how_long_the_seat_is_held
§12 at a waiting table: the seat held the away limit, else freed (`left`, the human
words); nobody present: closed after 10 s; told at the next login
    → server/test_reconnect.py test_leaving_a_waiting_table_frees_the_seat;
    → server/test_missed.py (every test), store/test_workers_missed.py
§12 what was missed told once at the next login, to the name's owner only
    → server/test_missed.py test_a_match_lost_or_ended_while_away_is_told_at_the_next_login,
      test_a_guest_back_after_his_seat_was_freed_is_told_once
§12 a match cut off by a stop told once after the restart, from the store; not a guest
    → server/test_shutdown.py
      test_after_a_restart_a_registered_player_is_told_his_match_was_cut_off
§12 a full waiting table deals to no empty chair: the away events again, the `info` of
whom it waits for, `tables`' away=, the start at the return; a ladder board starts
    → server/test_full_table_waits.py (every test);
    → here: test_the_full_table_example_of_12_is_what_the_server_sends (its deal now a
      real one, seed full-2)
§12 coming back: login with the token or password; `name-in-use` else; the old
connection's `bye`; `back` to the table; the view (the ask with the clock left); no
replay, the next event seq+1 or later
    → server/test_reconnect.py test_reconnect_resumes_the_seat,
      test_a_second_login_moves_the_session;
    → server/test_streams.py test_a_guest_whose_stream_drops_comes_back_by_token;
    → here: test_a_person_back_in_the_machine_style_keeps_his_clock_as_12_shows (the
      example's lines and times: 41099, then 40499; the old connection's; the opponent's)
§12 a person back at an empty trick is shown the last trick taken
    → server/test_reconnect.py test_a_person_back_at_an_empty_trick_is_shown_the_last_trick_taken
§12 back at the seat or not: read from the login's reply, before a ping's; told only its
asks, the same
    → server/test_streams.py test_new_and_a_resuming_login_are_answered_before_the_next_line;
    → server/test_tell_asks.py
§13 an observer: every event, table say and record; on observe/state a state with
seat=- hand= clock=- legal=; the example's lines
    → server/test_commands.py test_observe_and_state;
    → here: test_an_observer_is_told_what_13_says
§13 a web page watching: the same lines but the records
    → web/test_live_socket.py
      test_the_page_gets_exactly_the_lines_of_an_observers_connection_but_records
§13 the human example; `Game over` names the match and the forfeit in words
    → server/test_silent_observer.py test_a_human_observer_is_told_the_match_id_at_its_end;
    → here: test_a_person_observing_is_told_what_13_shows (now §15.1's real match; the
      Game over line wrapped at 80 columns as the server wraps it)
§13 never sent: another hand, the talon, the deck, an unshown combination, any seed;
records seedless but the last
    → server/test_secrecy.py (every test)
§14 right after deal-end, to seats and observers, a record on one line; its example's
keys in order
    → here: test_a_void_deals_record_is_as_14_shows_it (the example lacked
      `hanging_pending_before`, which every record has: a slip, corrected),
      test_an_observer_is_told_what_13_says
§14 the stored copy seedless while the match runs; export leaves running matches out
    → store/test_store.py test_a_running_matchs_deals_are_withheld_and_seedless,
      test_records_leave_running_matches_out
§14 the human style's deal in full; (by the clock); (unfinished); no card was played
    → server/test_forfeit_record.py; protocol/test_render.py; server/test_history_clock.py;
    → here: test_the_netcat_session_of_15_1_is_what_a_server_seeded_so_sends (§14's
      lines now those of that deal)
§15.1 line for line, seeded (the example is now a real deal: seed netcat-284988; the
greeting wrapped as the server wraps it, a slip, corrected)
    → here: test_the_netcat_session_of_15_1_is_what_a_server_seeded_so_sends
§15.2 line for line up to its "…", by the seed its match-end names; deal 2 by the seed
(the ask after seat 0 took the first trick said leader=1: a slip, corrected)
    → here: test_the_bots_example_of_15_2_is_what_a_server_seeded_so_sends,
      test_the_second_deal_of_15_2_is_the_seeds;
    → server/test_doc_ask_lines.py; server/test_protocol_transcripts.py (the logins)
§15.3 line for line (the bad-rules list lacked to-1002: a slip, corrected)
    → here: test_the_lobby_example_of_15_3_is_what_the_server_sends
§16 the minimal bot, run as printed against a real server: a whole match, then seeks again
    → here: test_the_minimal_bot_of_16_plays_a_whole_match_and_seeks_again
§17 no hello, no clock per match, table or player, no replay after a reconnect, no end
marker for help and rules
    → here: test_what_17_lists_is_not_there,
      test_a_person_back_in_the_machine_style_keeps_his_clock_as_12_shows (no replay);
    → protocol/test_protocol_audit.py
      test_the_banner_is_two_lines_each_in_80_columns_as_4_1_shows (the banner alone)
"""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from deberc_net.game.cards import card_str, cards_str, sort_hand
from deberc_net.game.clock import automatic_call
from deberc_net.game.match import Match
from deberc_net.game.seeding import deck_for
from deberc_net.server.config import Config
from deberc_net.testing import build_ruleset
from tests.protocol.conftest import Start
from tests.protocol.doc_examples import PROTOCOL, example, lines_until_pong, sent
from tests.server.client import (
    PROMPT,
    LineClient,
    fields,
    human_choice,
    next_ask,
    play_machine,
    random_legal,
    seat_pair,
)
from tests.server.conftest import Connector
from tests.server.process import start_server_process


def same(documented: str, got: str, swaps: dict[str, str]) -> bool:
    """A documented line is the line got, its random and numbered parts (tokens, table
    and match numbers: the example's server had run longer) as this server has them;
    a ``…`` in it stands for any text."""
    for mine, theirs in swaps.items():
        documented = documented.replace(mine, theirs)
    pattern = ".*".join(re.escape(part.strip()) for part in documented.split("…"))
    return re.fullmatch(pattern, got) is not None


async def lobby_of(port: int, connect: Connector, players: int, tables: int) -> None:
    """The lobby an example's login counts: ``players`` others here, ``tables`` of
    them each at a table of his own (as server/test_protocol_transcripts.py sets it)."""
    for n in range(players):
        other = await connect.machine(port, f"other{n}")
        if n < tables:
            await other.send("new 2")
            await other.expect("ok", cmd="sit")


async def played(client: LineClient, transcript: list[str], swaps: dict[str, str]) -> None:
    """Send the transcript's ``> `` lines and read each line it shows, in order; a
    ``…`` line ends the part checked."""
    for line in transcript:
        if line == "…":
            return
        if line.startswith("> "):
            await client.send(sent(line))
            continue
        got = await client.read_until(lambda _: True)
        if "token=" in got and "token=" in line:
            swaps[fields(line)[1]["token"]] = fields(got)[1]["token"]
        assert same(line, got, swaps), (line, got)


@pytest.mark.timeout(30)
async def test_the_lobby_example_of_15_3_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    documented = example(
        "### 15.3 Lobby, errors and chat (machine style; excerpts of two sessions)"
    )
    await lobby_of(port, connect, 3, 2)
    fedya = await connect.raw(port, "fedya")
    await fedya.send("style machine")  # "machine style": the excerpt leaves it out
    await fedya.expect("ok", cmd="style")
    new = documented.index("> new")
    swaps: dict[str, str] = {}
    await played(fedya, documented[:new], swaps)
    await fedya.send("new")
    table = (await fedya.expect("ok", cmd="sit"))["table"]
    swaps.update({"table=21": f"table={table}", "table 21": f"table {table}"})
    fedya.pos -= 1  # the reply read again, as the transcript shows it
    await played(fedya, documented[new + 1 :], swaps)


SEED_15_2 = "256a0501ae6851ed"  # the match's, as its match-end line says


@pytest.mark.timeout(30)
async def test_the_bots_example_of_15_2_is_what_a_server_seeded_so_sends(
    start: Start, connect: Connector
) -> None:
    # §15.2 up to its first "…", line for line: the server dealt by the seed its
    # match-end names, and b2 calling as the example has it
    documented = example("### 15.2 A bot (machine style): connect, seek, one deal")
    port = await start(match_seed=SEED_15_2, lag_ms=500)
    b1 = await connect.raw(port, "b1")
    swaps: dict[str, str] = {}
    seek = documented.index("> seek 2 moscow to-301")
    assert b1.lines == documented[:2]  # the banner, read as b1 connected
    await played(b1, documented[2:seek], swaps)
    b2 = await connect.machine(port, "b2")
    await b1.send(sent(documented[seek]))
    await b1.expect("ok", cmd="seek")
    await b2.send("seek 2 moscow to-301")
    table = (await b2.expect("ok", cmd="sit"))["table"]
    match = (await b2.expect("event", kind="start"))["match"]
    swaps.update({"table=3 ": f"table={table} ", "table 3,": f"table {table},"})
    swaps["match=m3"] = f"match={match}"
    b1.pos -= 1  # the seek's reply read again, as the transcript shows it

    async def b2_calls() -> None:
        for call in ("igrayu", "7c", "9h", "Qs"):  # b2's, as b1 is told them
            ask = await b2.expect("ask")
            await b2.send(f"{call} seq={ask['seq']}")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(b2_calls)
        await played(b1, documented[seek + 1 :], swaps)


def test_the_second_deal_of_15_2_is_the_seeds() -> None:
    # §15.2 after its "…": deal 2, dealt by seat 0 again, turns 10c, the dealer holding
    # 9s,Ks,As,Qh,Jd,10d (its first six cards: 3 of deck[3:6], 3 of deck[9:12])
    documented = example("### 15.2 A bot (machine style): connect, seek, one deal")
    deal = fields(next(x for x in documented if " kind=deal deal=2 " in x))[1]
    view = fields(next(x for x in documented if x.startswith("state ") and " deal=2 " in x))[1]
    deck = deck_for(SEED_15_2, 2)
    assert deal["dealer"] == view["seat"] == "0"
    assert deal["turned"] == card_str(deck[12])
    assert view["hand"] == cards_str(sort_hand(deck[3:6] + deck[9:12]))
    end = fields(documented[-1])[1]
    assert end["kind"] == "match-end" and end["seed"] == SEED_15_2


def minimal_bot(port: int) -> str:
    """§16's program, as printed, but for the port of the server under test."""
    section = PROTOCOL.read_text(encoding="utf-8").split("\n## 16. A minimal bot\n", 1)[1]
    text = section.split("```python\n", 1)[1].split("\n```", 1)[0]
    assert text.count('("127.0.0.1", 7501)') == 1
    return text.replace('("127.0.0.1", 7501)', f'("127.0.0.1", {port})')


@pytest.mark.timeout(60)
async def test_the_minimal_bot_of_16_plays_a_whole_match_and_seeks_again(
    port: int, connect: Connector
) -> None:
    # §16: "Everything a legal bot needs": run as printed, in a process of its own,
    # against a real server, it plays a whole match (no forfeit: it answered every ask
    # in time, and legally) and then seeks the next
    opponent = await connect.machine(port, "opp")
    await opponent.send("seek 2 moscow")
    await opponent.expect("ok", cmd="seek")
    process = await trio.lowlevel.open_process(
        [sys.executable, "-c", minimal_bot(port)], stdout=subprocess.DEVNULL
    )
    try:
        start = await opponent.expect("event", timeout=20, kind="start")
        assert start["players"] in ("opp,mybot", "mybot,opp")
        end = fields(await play_machine(opponent, random.Random(16), timeout=20))[1]
        assert end["reason"] in ("target", "claim") and "forfeit" not in end, end
        await opponent.send("seek 2 moscow")  # the bot seeks again after match-end
        again = await opponent.expect("event", timeout=20, kind="start")
        assert again["match"] != start["match"] and "mybot" in again["players"]
        assert process.returncode is None
    finally:
        process.kill()
        await process.wait()


SEED_11_3 = "b8280db0e2760e91"  # the match's, as its match-end line says


@pytest.mark.timeout(30)
async def test_the_forfeit_example_of_11_3_is_what_a_server_seeded_so_sends(
    start: Start, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    # §11.3's example, line for line, on virtual time: seat 1 (a bot's clock, 10 s and
    # the 500 ms lag) never answers; the clock plays its lowest legal card twice (no
    # terts declared) and the third timeout forfeits the match
    documented = example("### 11.3 Forfeits")
    port = await start(match_seed=SEED_11_3, lag_ms=500)
    winner = fields(documented[-1])[1]["name"]
    ann = await connect.machine(port, winner)
    slow = await connect.machine(port, "slow")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await slow.send(f"sit {table}")
    swaps = {"table=10 ": f"table={table} ", "match=m7": "match=m1"}

    async def seat_0() -> None:
        for call in ("igrayu", "Kh", "Qs"):  # as the example has seat 0 call
            ask = await ann.expect("ask", timeout=30)
            await ann.send(f"{call} seq={ask['seq']}")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(seat_0)
        await slow.read_until(lambda line: line.startswith("ask seq=7 "), timeout=20)
        slow.pos -= 1
        for line in documented:
            got = await slow.read_until(lambda _: True, timeout=30)
            assert same(line, got, swaps), (line, got)
    assert trio.current_time() == 3 * 10.5
    # §11.2 "auto": true in the record, for the clock's calls alone; §11.3 "nobody writes"
    told = next(x for x in slow.lines if x.startswith("record "))
    record = json.loads(told.split(" text=", 1)[1])
    assert [c["seat"] for c in record["calls"] if c.get("auto")] == [1, 1]
    assert record["written"] == [0, 0] and record["totals"] == [0, 0]


async def answer_every_ask(client: LineClient, seed: int) -> None:
    """A bot at the table: every ask answered at once, at random (for ever)."""
    rng = random.Random(seed)
    while True:
        ask = await client.expect("ask", timeout=600)
        await client.send(f"{random_legal(ask, rng)} seq={ask['seq']}")


@pytest.mark.timeout(30)
async def test_a_person_back_in_the_machine_style_keeps_his_clock_as_12_shows(
    start: Start, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    # §12's example of a reconnect, the lines it shows, with its times: misha played in
    # the human style (60 s); 19.401 s into his request he logs in again in the machine
    # style: the old connection is told its line and closed; the new one gets the ok,
    # the back event and the request again with what is left of the clock, 41099 ms
    # (§11.1: fixed for the match, the time away counted), and 600 ms later `state`
    # repeats it with 40499
    documented = example("## 12. Disconnects and reconnects")
    port = await start(lag_ms=500)
    misha = await connect.raw(port, "misha")
    await misha.send("login misha")
    greeting = await misha.read_until(lambda line: "Your resume token is" in line)
    token = re.findall(r"token is ([\w-]+):", greeting)[0]
    await misha.send("new 2")
    table = re.findall(r"\d+", await misha.read_until(lambda x: x.startswith("You sit")))[0]
    bot1 = await connect.machine(port, "bot1")
    bot1_token = bot1.token
    assert bot1_token
    await bot1.send(f"sit {table}")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(answer_every_ask, bot1, 12)
        prompt = await misha.read_until(lambda line: line.startswith("Your call"), timeout=30)
        assert prompt.startswith("Your call [60 s]: ")
        await trio.sleep(19.401)
        again = await connect.raw(port, "again")
        assert [sent(x) for x in documented[:2:2]] == ["style machine"]
        await again.send("style machine")
        assert await again.read_until(lambda _: True) == documented[1]
        await again.send(f"login misha token={token}")
        swaps = {"table 14": f"table {table}", "Yx3dC0y0aQm7Rr2W": token}
        assert same(documented[3], await again.read_until(lambda _: True), swaps)
        back = fields(await again.read_until(lambda _: True))
        asked = fields(await again.read_until(lambda _: True))
        assert back[0] == "event" and back[1]["kind"] == "back" and back[1]["name"] == "misha"
        assert asked[0] == "ask" and int(asked[1]["seq"]) == int(back[1]["seq"])
        assert asked[1]["clock"] == fields(documented[5])[1]["clock"] == "41099"
        await trio.sleep(0.6)
        await again.send("state")
        repeated = fields(await again.read_until(lambda _: True))
        assert repeated[0] == "ask" and repeated[1]["seq"] == asked[1]["seq"]
        assert repeated[1]["clock"] == fields(documented[7])[1]["clock"] == "40499"
        old = example("The old connection (human style) saw:")
        await misha.wait_closed()
        assert misha.lines[-2:] == [prompt, old[2]]
        assert old[1].startswith("Your call [60 s]: ") and old[3] == "(connection closed)"
        nursery.cancel_scope.cancel()
    # the opponent drops and comes back: misha sees away then back; bot1 its ok, back,
    # and (not to act) a state with its clock's whole allowance and legal= empty
    await bot1.aclose()
    away = fields(await again.read_until(lambda _: True))[1]
    assert (away["kind"], away["name"]) == ("away", "bot1")
    bot1 = await connect.raw(port, "bot1 again")
    await bot1.send("style machine")
    await bot1.expect("ok", cmd="style")
    await bot1.send(f"login bot1 token={bot1_token}")
    theirs = example("And the opponent, reconnecting after a drop:")
    assert same(theirs[1], await bot1.read_until(lambda _: True), swaps | {"7pQ2…": bot1_token})
    came_back = fields(await bot1.read_until(lambda _: True))[1]
    assert came_back == fields(await again.read_until(lambda _: True))[1]
    assert (came_back["kind"], came_back["name"], came_back["seq"]) == (
        "back",
        "bot1",
        str(int(away["seq"]) + 1),
    )
    view = fields(await bot1.read_until(lambda _: True))
    documented_view = fields(theirs[3])[1]
    assert view[0] == "state" and view[1]["seq"] == came_back["seq"]
    assert view[1]["clock"] == documented_view["clock"] == "10500"
    # nothing to call (a state offers only the out-of-turn four sevens, which the rare
    # deal gives bot1: §8.4)
    assert documented_view["legal"] == ""
    assert view[1]["legal"] in (documented_view["legal"], "chetyre-semerki")


def test_the_numbers_of_11_and_12_are_the_servers_defaults() -> None:
    # §11: "The defaults below are the server's"; §11.1 10 s, 60 s, 500 ms, the warning
    # at 10 s; §11.3 3 timeouts in a row, 120 s away; §11.4 a stop's grace of about 2 s;
    # §11.4a no limit to a drain unless set; §12 a waiting table with nobody there, 10 s
    config = Config()
    assert (config.bot_clock_ms, config.human_clock_ms, config.lag_ms) == (10_000, 60_000, 500)
    assert config.clock_warning_ms == 10_000
    assert (config.max_timeouts, config.away_limit_ms) == (3, 120_000)
    assert config.shutdown_grace_ms == 2_000 and not config.drain_limit_ms
    assert config.empty_table_ms == 10_000


@pytest.mark.timeout(30)
async def test_what_17_lists_is_not_there(port: int, connect: Connector) -> None:
    # §17: no machine-style hello (the banner is the human lines: part 1), no clock per
    # match, table or player (a table's options have none; `clock` takes only the two
    # kinds), no end marker for help and rules (each line is its block's, the last too)
    ann = await connect.machine(port, "ann")
    assert await lines_until_pong(ann, "hello") == [
        "error code=unknown-command text='hello' is not a command, and you sit at no table."
        " Type 'help'."
    ]
    for line in ("new 2 clock=30", "new 2 clock-30", "seek 2 moscow clock=30"):
        [refused] = await lines_until_pong(ann, line)
        assert fields(refused)[1]["code"] == "bad-rules", (line, refused)
        options = refused.split("; options: ", 1)[1].split(", ")
        assert not [x for x in options if x.startswith(("clock", "time"))], refused
    assert await lines_until_pong(ann, "clock 30000") == [
        "error code=bad-argument text=clock human|bot"
    ]
    for command in ("help", "rules", "help rules"):
        block = await lines_until_pong(ann, command)
        tag = command.split()[0]
        assert len(block) > 1 or command == "help rules", command
        assert all(fields(x)[0] == tag and fields(x)[1]["text"].strip() for x in block), block
        assert set(fields(block[-1])[1]) == {"text"}, block[-1]  # no field that ends it


@pytest.mark.timeout(60)
async def test_an_observer_is_told_what_13_says(port: int, connect: Connector) -> None:
    # §13's machine example, the lines it shows (its deal aside): the ok, the observer
    # event, the state with seat=- hand= clock=- legal=; then every event (seq without a
    # gap), every table say and every record, and `state` the same view again
    documented = example("## 13. Observers, and what is never sent")
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="deal")  # seq 4, as the example's
    await eve.send(f"observe {table}")
    swaps = {"table=14": f"table={table}", "table 14": f"table {table}"}
    assert same(documented[1], await eve.read_until(lambda _: True), swaps)
    assert same(documented[2], await eve.read_until(lambda _: True), swaps)
    view = fields(await eve.read_until(lambda _: True))
    shown = fields(documented[3])
    assert view[0] == shown[0] == "state" and list(view[1]) == list(shown[1])
    for key in ("seq", "seat", "hand", "clock", "legal", "talk", "trick", "players"):
        assert view[1][key] == shown[1][key], key
    await eve.send("state")
    assert fields(await eve.read_until(lambda _: True)) == view
    await ann.send("say hello all")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(13))
        nursery.start_soon(play_machine, bob, random.Random(14))
    await eve.read_until(lambda line: fields(line)[1].get("kind") == "match-end", 20)
    told = [fields(x) for x in eve.lines]
    seqs = [int(said["seq"]) for tag, said in told if tag == "event"]
    assert seqs == list(range(5, seqs[-1] + 1))  # every event from the observer's on
    assert seqs[-1] == max(int(fields(x)[1]["seq"]) for x in ann.lines if x.startswith("event "))
    assert ("say", {"from": "ann", "table": table, "text": "hello all"}) in told
    deals = [said["deal"] for tag, said in told if tag == "event" and said["kind"] == "deal-end"]
    records = [said["deal"] for tag, said in told if tag == "record"]
    assert records == deals and len(deals) > 1
    assert not [said for tag, said in told if tag == "ask"]


# §11.2's orders, read from the page: "(plain 7 8 9 J Q K 10 A, trump 7 8 Q K 10 A 9 J)"
ORDERS = re.search(
    r"\(plain ([\dJQKA\s]+),\s+trump ([\dJQKA\s]+)\)", PROTOCOL.read_text(encoding="utf-8")
)
assert ORDERS is not None
PLAIN_ORDER, TRUMP_ORDER = ORDERS[1].split(), ORDERS[2].split()
FIRST_WORDS = ("pas", "ot-", "prokhodit", "ne-prokhodit", "pokazyvayu", "pishet")


def clock_says(legal: list[str], trump: str | None) -> str:
    """§11.2's automatic call, as the page states it, from the legal= tokens."""
    for word in FIRST_WORDS:
        if word == "ot-" and "pishet" in legal:  # the asker's reply: his choice, not forced
            continue
        said = [x for x in legal if x == word or (word == "ot-" and x.startswith(word))]
        if said:
            return said[0]
    played = [x for x in legal if re.fullmatch(r"(?:10|[789JQKA])[shdc]", x)]
    if played:

        def order(card: str) -> tuple[int, int]:
            rank, suit = card[:-1], card[-1]
            if suit == trump:
                return (1, TRUMP_ORDER.index(rank))
            return (0, PLAIN_ORDER.index(rank))

        return min(played, key=order)  # min keeps the first of equals: legal= order
    return legal[0]


@pytest.mark.parametrize(
    ("players", "variant", "options"),
    [
        (2, "moscow", ()),
        (3, "moscow", ()),
        (4, "moscow", ()),
        (2, "moscow", ("poltinniki",)),
        (2, "moscow", ("dave",)),
        (2, "moscow", ("swap-before-extra", "perezdacha", "show-combination")),
        (3, "kharkov", ("commitment", "manual-claim")),
    ],
)
def test_the_clock_calls_as_11_2_says(players: int, variant: str, options: tuple[str, ...]) -> None:
    # §11.2 at every request of random matches: the first legal of pas, the forced ot-
    # (the declarer's answer; not the asker's, offered beside pishet),
    # prokhodit, ne-prokhodit, pokazyvayu, pishet; else the lowest legal card, a plain
    # one before a trump, ties in legal= order; else legal='s first token; never a
    # redeal asked for
    rules = build_ruleset(players, variant, options)
    rng = random.Random(f"{players}{variant}{options}")
    asked = 0
    for game in range(200):
        if asked >= 1500:
            break
        match = Match(rules, seed=f"clock-{game}")
        while not match.over and asked < 1500:
            seat = match.to_act
            assert seat is not None
            legal = [call.token() for call in match.legal_calls(seat)]
            trump = match.deal.trump
            suit = None if trump is None else "shdc"[trump]
            auto = automatic_call(match, seat).token()
            assert auto == clock_says(legal, suit), (legal, suit, auto)
            assert auto not in ("chetyre-semerki", "perezdacha"), legal
            match.apply(seat, rng.choice(match.legal_calls(seat)))
            asked += 1
    assert asked == 1500


async def pass_or_play(client: LineClient, seed: int) -> None:
    """A seat that passes whenever it may (so deals are void), else calls at random."""
    rng = random.Random(seed)
    while True:
        ask = await client.expect("ask", timeout=600)
        legal = ask["legal"].split(",")
        call = "pas" if "pas" in legal else rng.choice(legal)
        await client.send(f"{call} seq={ask['seq']}")


@pytest.mark.timeout(30)
async def test_a_void_deals_record_is_as_14_shows_it(port: int, connect: Connector) -> None:
    # §14: right after deal-end, to each seat, `record table=T deal=D text=` one JSON
    # line; its example (a deal all passed) has a real void record's keys, in order,
    # and its values' kinds; "seed" null on the wire before the match's last deal
    section = PROTOCOL.read_text(encoding="utf-8").split("\n## 14. Deal records\n", 1)[1]
    whole = next(x for x in section.splitlines() if x.startswith("record table=5 deal=2 "))
    shown = json.loads(fields(whole)[1]["text"])
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob, "2 to-301")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pass_or_play, ann, 1)
        nursery.start_soon(pass_or_play, bob, 2)
        for client in (ann, bob):  # (each read by its seat's task)
            await client.seen(lambda x: x.startswith("record "))
        nursery.cancel_scope.cancel()
    for client in (ann, bob):
        at = next(i for i, x in enumerate(client.lines) if x.startswith("record "))
        end = fields(client.lines[at - 1])
        told = fields(client.lines[at])
        assert end[1]["kind"] == "deal-end" and told[1]["deal"] == end[1]["deal"]
        assert list(told[1]) == ["table", "deal", "text"]
    record = json.loads(told[1]["text"])
    assert record["outcome"] == shown["outcome"] == "void"
    assert record["void_reason"] == shown["void_reason"] == "all passed"
    assert list(record) == list(shown)
    for key, value in shown.items():
        assert type(record[key]) is type(value) or None in (value, record[key]), key
    assert record["seed"] is None and record["format"] == "deberc-deal/1"
    assert told[1]["table"] == record["table"] and told[1]["deal"] == str(record["deal_no"])


SEED_15_1 = "netcat-284988"  # deals §15.1's deal 1: bot1 deals and turns K♣, fresa 9♦


async def excerpt(client: LineClient, transcript: list[str], swaps: dict[str, str]) -> None:
    """A person's transcript with ``…`` lines, held to the server: each line it shows is
    the next line sent (a ``> `` line sent, as swapped); after a ``…`` the lines up to
    the next it shows are skipped, each prompt in them answered as a person picks
    (``human_choice``: a transcript's own answer there is one of these)."""
    skipping = False
    for line in transcript:
        if line.strip() == "…":
            skipping = True
            continue
        for mine, theirs in swaps.items():
            line = line.replace(mine, theirs)
        if line.startswith("> ") and not skipping:
            await client.send(sent(line))
            continue
        while line.startswith("> ") and skipping:  # sent where a person would
            prompt = PROMPT.match(await client.read_until(lambda _: True))
            if prompt:
                picked = human_choice(prompt.group(1))
                await client.send(picked)
                skipping = picked != sent(line)
        if line.startswith("> "):
            continue
        got = await client.read_until(lambda _: True)
        while skipping and got != line:
            prompt = PROMPT.match(got)
            if prompt:
                await client.send(human_choice(prompt.group(1)))
            got = await client.read_until(lambda _: True)
        skipping = False
        if "Your resume token is " in line:  # (wrapped at 80 columns; it is random)
            token = re.findall(r"token is ([\w-]+):", got)[0]
            swaps[re.findall(r"token is ([\w-]+):", line)[0]] = token
            line = line.replace(re.findall(r"token is ([\w-]+):", line)[0], token)
        assert got == line, (line, got)


async def bot1_at(port: int, connect: Connector, table: str) -> LineClient:
    """§15.1's bot1: sits at ``table`` and makes the clock's call every time (§11.2)."""
    bot1 = await connect.machine(port, "bot1")
    await bot1.send(f"sit {table}")
    await bot1.expect("ok", cmd="sit")
    return bot1


async def bot1_calls(bot1: LineClient) -> None:
    while True:
        ask = await bot1.expect("ask", timeout=600)
        trump = None if ask["trump"] == "-" else ask["trump"]
        await bot1.send(f"{clock_says(ask['legal'].split(','), trump)} seq={ask['seq']}")


@pytest.mark.timeout(30)
async def test_the_netcat_session_of_15_1_is_what_a_server_seeded_so_sends(
    start: Start, connect: Connector
) -> None:
    # §15.1 line for line (its "…" skipped, the prompts there answered as a person
    # picks), dealt by a known seed, bot1 making the clock's calls; and §14's human
    # "Deal 1 in full" is this deal's
    documented = example("### 15.1 A person with netcat (human style)")
    assert documented[0] == "$ nc localhost 7501"
    port = await start(match_seed=SEED_15_1, lag_ms=500)
    misha = await connect.raw(port, "misha")
    assert misha.lines == documented[1:3]  # the banner
    new = documented.index("> new 2")
    await excerpt(misha, documented[3:new], {})
    await misha.send("new 2")
    sat = await misha.read_until(lambda _: True)
    table = re.findall(r"\d+", sat)[0]
    misha.pos -= 1
    bot1 = await bot1_at(port, connect, table)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot1_calls, bot1)
        await excerpt(misha, documented[new + 1 :], {"table 18": f"table {table}"})
        nursery.cancel_scope.cancel()
    in_full = example(
        "Human style shows the deal trick by trick instead (who led, the cards in the order"
    )
    at = misha.lines.index(in_full[0])
    assert misha.lines[at : at + 3] == in_full[:3] and in_full[3] == "  …"


async def misha_plays_deal_1_and_leaves(misha: LineClient) -> None:
    """misha as §15.1 has him: igrayu, A♥ led, then as a person picks; then 'leave!'."""
    said = ["играю", "hod ah"]
    while not (line := await misha.read_until(lambda _: True, 20)).startswith("Deal 2."):
        prompt = PROMPT.match(line)
        if prompt:
            await misha.send(said.pop(0) if said else human_choice(prompt.group(1)))
    await misha.send("leave!")


@pytest.mark.timeout(30)
async def test_a_person_observing_is_told_what_13_shows(start: Start, connect: Connector) -> None:
    # §13's human example (its "…" skipped): §15.1's match watched by hugo from its
    # first deal, to misha's leave; its Game over line names the match
    documented = example("Human style, the same kind of stream:")
    port = await start(match_seed=SEED_15_1, lag_ms=500)
    misha = await connect.human(port, "misha")
    await misha.send("new 2")
    table = re.findall(r"\d+", await misha.read_until(lambda x: x.startswith("You sit")))[0]
    bot1 = await bot1_at(port, connect, table)
    await misha.read_until(lambda x: x.startswith("Deal 1."))
    hugo = await connect.human(port, "hugo")
    await hugo.send("ping")
    await hugo.read_until(lambda x: x == "pong")  # his greeting read
    swaps = {
        "observe 18": f"observe {table}",
        "table 18": f"table {table}",
        "Table 18": f"Table {table}",
    }
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot1_calls, bot1)
        await excerpt(hugo, documented[:6], swaps)  # up to "Waiting for misha."
        nursery.start_soon(misha_plays_deal_1_and_leaves, misha)
        await excerpt(hugo, documented[6:], swaps | {"m18": "m1"})
        nursery.cancel_scope.cancel()


DRAIN_LINE = re.compile(r"^\[(\w+)\]\s+(.*)$")


@pytest.mark.timeout(60)
async def test_the_drain_example_of_11_4a_is_what_the_server_sends(
    start_server: Start,
    register: Callable[[str, str], Awaitable[None]],
    connect: Connector,
) -> None:
    # §11.4a's example, each connection's lines in order: boss an admin, anna at a
    # running match (a short one, bob her opponent)
    documented = example(
        "**`drain` (admins)** begins the same drain over the protocol, for an operator who cannot"
    )
    await register("boss", "owners")
    port = await start_server(admins=["boss"], shutdown_grace_ms=100)
    boss = await connect.machine(port, "boss", "owners")
    anna = await connect.machine(port, "anna")
    bob = await connect.machine(port, "bob")
    await anna.send("new 2 short")
    table = (await anna.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await anna.expect("event", kind="start")
    clients = {"boss": boss, "anna": anna}
    for line in documented:
        if line.strip() == "(anna's match ends)":
            async with trio.open_nursery() as nursery:
                nursery.start_soon(play_machine, anna, random.Random(1))
                nursery.start_soon(play_machine, bob, random.Random(2))
            continue
        matched = DRAIN_LINE.match(line)
        assert matched, line
        client, said = clients[matched[1]], matched[2]
        if said.startswith("> "):
            await client.send(sent(said))
        elif client is anna:  # her match's lines aside, left for her play
            assert await anna.take(lambda x: x.startswith("info ")) == said
        else:
            assert await client.read_until(lambda _: True) == said


@pytest.mark.timeout(60)
async def test_a_stop_tells_each_table_and_refuses_new_games_as_11_4_says(
    tmp_path: Path, connect: Connector
) -> None:
    # §11.4, a `serve` process sent SIGTERM (a grace long enough to ask it things): the
    # stop's line to everyone; a running match's table and a waiting one each closed in
    # its own words, no match-end; new, sit, seek then shutting-down, and a table call
    # and state of a player whose table closed; a waiting seek ends with the stop's
    # line and nothing more, and unseek is then not-allowed
    proc, port = start_server_process(tmp_path / "s.sqlite3", "shutdown_grace_ms = 60000")
    try:
        ann, bob, carl, dan = [
            await connect.machine(port, name) for name in ("ann", "bob", "carl", "dan")
        ]
        await ann.send("new 2")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await bob.send(f"sit {table}")
        match = (await ann.expect("event", kind="start"))["match"]
        await carl.send("new 2")
        waiting = (await carl.expect("ok", cmd="sit"))["table"]
        await dan.send("seek 3")
        await dan.expect("ok", cmd="seek")
        for client in (ann, bob, carl, dan):  # every line so far read
            await client.send("ping")
            await client.read_until(lambda line: line == "ok cmd=ping text=pong")
        seen = len(dan.lines)
        proc.send_signal(signal.SIGTERM)
        stop = "info server=stopping text=The server is shutting down: SIGTERM received."
        for client in (ann, bob, carl, dan):
            await client.take(lambda line: line == stop)
        closes = f"info closed={table} text=Table {table} closes: SIGTERM received."
        for client in (ann, bob):
            assert await client.take(lambda x: x.startswith("info closed=")) == (
                f"{closes} Match {match} stops here: nobody wins or loses, and it is not rated."
            )
        assert await carl.take(lambda x: x.startswith("info closed=")) == (
            f"info closed={waiting} text=Table {waiting} closes: SIGTERM received."
        )
        for client in (ann, carl):
            await client.send("ping")
            await client.read_until(lambda line: line == "ok cmd=ping text=pong")
        for line in ("new 2", f"sit {waiting}", "seek 2"):
            [refused] = await lines_until_pong(carl, line)
            assert fields(refused)[1]["code"] == "shutting-down", (line, refused)
        for line in ("state", "pas"):
            [refused] = await lines_until_pong(ann, line)
            assert fields(refused)[1]["code"] == "shutting-down", (line, refused)
        [refused] = await lines_until_pong(dan, "unseek")
        assert fields(refused)[1]["code"] == "not-allowed"
        # (the stop's line, taken above, is the one other line he got since seeking)
        assert dan.lines[seen:] == [refused, "ok cmd=ping text=pong"]
        assert not [x for x in ann.lines + bob.lines if "kind=match-end" in x]
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.timeout(30)
async def test_the_full_table_example_of_12_is_what_the_server_sends(
    start: Start, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    # §12's last example, bob's connection line for line, on virtual time: ann sat at
    # bob's table for three and dropped; 23 s later carl took the last seat; the table
    # waits for her (97 s left), and deals the moment she is back
    documented = example(
        "and dropped; bob's connection (carl and ann are other people's, in parentheses):"
    )
    port = await start(match_seed="full-2")  # bob deals deal 1 and turns 7c
    bob = await connect.machine(port, "bob")
    await bob.send("new 3")
    await bob.expect("event", kind="seated", name="bob")
    ann = await connect.machine(port, "ann")
    await ann.send("sit 1")
    await ann.expect("ok", cmd="sit")
    await ann.aclose()
    carl = await connect.machine(port, "carl")
    for line in documented:
        if line == "(23 s later carl takes the last seat: 'sit 1')":
            await trio.sleep(23)
            await carl.send("sit 1")
        elif line == "(ann logs in again with her token)":
            await connect.machine(port, "ann", token=ann.token)
        elif line.startswith("> "):
            await bob.send(sent(line))
        else:
            got = await bob.read_until(lambda _: True)
            assert same(line, got, {}), (line, got)


@pytest.mark.timeout(30)
async def test_the_machine_style_is_told_nothing_as_its_clock_runs_down(
    start: Start, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    # §11.1: "The machine style is told nothing new: a program counts clock= down
    # itself": a program with a person's clock (60 s, the warning due at 10 s left)
    # hears nothing between its ask and the clock's call for it
    port = await start(lag_ms=500)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("clock human")
    await ann.expect("ok", cmd="clock")
    await bob.send("clock human")
    await bob.expect("ok", cmd="clock")
    await seat_pair(ann, bob)
    views = [
        fields(await c.read_until(lambda x: x.startswith(("ask ", "state ")))) for c in (ann, bob)
    ]
    [(asked, view)] = [(c, v[1]) for c, v in zip((ann, bob), views, strict=True) if v[0] == "ask"]
    assert view["clock"] == "60500"
    at = trio.current_time()
    made = await asked.read_until(lambda _: True, timeout=120)
    assert fields(made)[1].get("auto") == "1", made  # the very next line: nothing before
    assert trio.current_time() - at == 60.5


@pytest.mark.timeout(30)
async def test_an_away_seats_clock_calls_do_not_forfeit_it_the_away_limit_does(
    start: Start, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    # §11.3 away: the clock keeps calling for a disconnected seat, its calls not counted
    # toward timeouts (many more than 3 here), and the match is lost by the away limit,
    # 120 s from the disconnect
    port = await start(lag_ms=500)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    _, seat, _ = await seat_pair(ann, bob)
    await ann.expect("event", kind="deal")
    await ann.aclose()
    rng = random.Random(3)
    gone = None
    while (told := fields(await bob.read_until(lambda _: True, 300)))[1].get("kind") != (
        "match-end"
    ):
        if told[0] == "ask":  # bob answers at once
            await bob.send(f"{random_legal(told[1], rng)} seq={told[1]['seq']}")
        elif told[1].get("kind") == "away":
            gone = trio.current_time()
    end = told[1]
    assert gone is not None
    assert trio.current_time() - gone == 120.0
    assert (end["reason"], end["forfeit"]) == ("away", str(seat))
    made = [x for x in bob.lines if f" seat={seat} " in x and " auto=1" in x]
    assert len(made) > 3, made


@pytest.mark.timeout(30)
async def test_a_clock_asked_for_mid_match_waits_for_the_next_match(
    port: int, connect: Connector
) -> None:
    # §11.1: the clock "is fixed for the whole match: switching style or clock ... does
    # not change it": both seats ask for a person's clock once the match runs; the
    # requests of this match keep the bot's (lag 0 on this test server: 10000)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    for client in (ann, bob):
        await client.expect("event", kind="deal")
        await client.send("clock human")
        await client.take(lambda x: x.startswith("ok cmd=clock "))  # the ask left unread
    rng = random.Random(5)
    for _ in range(6):
        found = await next_ask(ann, bob)
        assert found is not None
        ask, client = found
        assert ask["clock"] == "10000", ask
        await client.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
