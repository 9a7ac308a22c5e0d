"""An audit of docs/protocol.md against the server, part 1: connecting (§2.1), what
travels (§2.2, §2.3), the session before and at login (§4, §4.1, §4.2), `seq=` (§7) and
the errors (§10). Each promise a client may rely on, and (→) the tests that pin it: a
module under tests/ and its tests, "here" for this module's. The examples of these
sections are checked here against a real server, line for line.

§1 the banner names `(protocol 1)`; a client finds it there
    → protocol/test_wire.py
      test_unknown_tags_and_kinds_stay_strings_and_human_lines_parse_harmlessly;
    → here: test_the_banner_is_two_lines_each_in_80_columns_as_4_1_shows
§1 fields are only appended, `text=` last
    → protocol/test_wire.py
      test_a_real_servers_lines_round_trip_and_only_append_to_the_documented_fields,
      test_text_is_last_and_runs_to_the_end_whatever_it_holds
§2 the numbers stated (limits, times) are the server's defaults
    → here: test_the_numbers_of_2_and_4_2_are_the_servers_defaults
§2.1 full server: the oldest not logged in is closed with `busy` ("…make room")
    → server/test_attacks.py test_idle_sockets_that_never_log_in_do_not_keep_a_player_out;
    → server/test_game_proxy.py
§2.1 full of logged-in connections: the one line `error code=busy text=the server is full`
    → server/test_input.py test_a_full_server_refuses_politely
§2.1 shutting down: `busy text=the server is shutting down`
    → server/test_shutdown.py
§2.1 100 connections per address: `busy text=too many connections from your address`
    → server/test_attacks.py test_connections_are_limited_per_address;
    → server/test_streams.py
§2.1 a refused client still sending reads its refusal (no reset)
    → server/test_attacks.py
      test_a_refused_client_still_talking_is_not_reset_over_its_refusal
§2.1 PROXY header from a listed proxy; `bad-proxy-header`
    → server/test_game_proxy.py
§2.1 no login within 15 s: `login-timeout`, closed, trickling or not
    → server/test_attacks.py
      test_a_connection_that_does_not_log_in_is_closed_even_if_it_trickles;
    → protocol/test_connection.py
§2.1 15 min silence: `idle-timeout`; `ping` counts, an empty line does not; watching a match
is no silence
    → server/test_streams.py
      test_silence_closes_a_connection_on_virtual_time_and_ping_delays_it;
    → server/test_attacks.py test_an_idle_connection_is_closed_and_ping_keeps_one_open;
    → protocol/test_connection.py;
    → server/test_silent_observer.py
§2.2 LF or CRLF; a second CR is a control character
    → protocol/test_connection.py;
    → server/test_attacks.py test_a_second_cr_before_the_lf_is_a_control_character
§2.2 NULs dropped, telnet negotiation stripped, `IAC IAC`, a raw 255 is data
    → protocol/test_framing_telnet.py;
    → server/test_input.py test_telnet_negotiation_is_stripped,
      test_a_raw_255_before_a_line_end_is_no_telnet_and_eats_no_line
§2.2 every telnet option refused at once (DO: WONT, WILL: DONT), the rest unanswered;
     telnet's Ctrl-C (IAC IP, IAC DO TIMING-MARK) answered before the next line's reply
    → protocol/test_framing_telnet.py;
    → server/test_input.py
      test_a_real_telnet_is_refused_every_option_and_sees_replies_after_its_ctrl_c,
      test_a_client_that_refuses_or_never_negotiates_is_sent_no_telnet;
    → here: test_the_examples_of_2_2_are_what_the_server_sends
§2.2 dropped bytes count toward the flood limit
    → server/test_input.py
      test_a_stream_of_dropped_bytes_is_cut_off_as_a_flood_and_nobody_else_notices
§2.2 a tab is a space; an empty or all-blank line gets no reply at all
    → here: test_a_tab_is_a_space_and_a_lines_own_spaces_are_trimmed
    → server/test_input.py test_a_command_s_words_are_split_at_any_space_a_no_break_one_too;
    → here: test_an_all_blank_line_gets_no_reply_at_all
§2.2 1024 bytes with the CR; `line-too-long` once; nothing of it executed
    → here: test_the_line_limit_is_1024_bytes_before_the_lf_the_cr_counted
    → protocol/test_framing_fast_path.py;
    → protocol/test_connection.py;
    → server/test_input.py test_garbage_and_broken_lines
§2.2 Backspace and Delete erase the character before them
    → protocol/test_framing_erase.py;
    → server/test_input.py test_a_typo_corrected_key_by_key_is_the_line_meant
§2.2 `bad-encoding`; a BOM dropped; `control-character` (C0, C1, U+2028/9)
    → server/test_input.py test_garbage_and_broken_lines;
    → server/test_hardening.py test_unicode_line_breaks_and_c1_controls_are_refused;
    → protocol/test_receive_call.py
§2.2 an unfinished line: `line-timeout`, closed; an idle connection never is
    → here: test_an_over_long_line_being_discarded_waits_for_its_lf_as_long_as_any
    → server/test_input.py test_unfinished_line_is_disconnected,
      test_an_idle_client_is_not_disconnected;
    → here: test_the_examples_of_2_2_are_what_the_server_sends
§2.2 200 lines/s, 1000 at once: `flood`; an `ask`'s answer never counted
    → server/test_input.py test_a_flooding_client_is_cut_off_and_nobody_else_notices;
    → server/test_attacks.py test_instant_bots_answering_every_ask_are_never_cut_off
§2.2 the example transcript
    → here: test_the_examples_of_2_2_are_what_the_server_sends
§2.3 every line ends with CRLF
    → here: test_the_banner_is_two_lines_each_in_80_columns_as_4_1_shows,
      test_the_login_examples_of_4_2_are_what_the_server_sends
§2.3 replies in the order of the lines, each in the style of its moment
    → server/test_streams.py
      test_replies_come_in_the_order_of_the_lines_each_in_the_style_it_was_read_in,
      test_a_table_calls_reply_comes_before_a_later_pings_passed_on_or_not,
      test_new_and_a_resuming_login_are_answered_before_the_next_line
§2.3 a slow reader past 256 KiB is dropped
    → server/test_attacks.py test_chat_to_clients_that_never_read_is_bounded_in_bytes
§4 the commands listed are the server's, every other line a table call
    → here: test_the_commands_4_lists_are_the_servers
§4 the command word in any case, full width too; any Unicode space splits words
    → server/test_full_width_commands.py;
    → server/test_input.py test_a_command_s_words_are_split_at_any_space_a_no_break_one_too
§4 commands work in every phase, seated or not
    → here: test_commands_work_seated_at_a_running_match
§4 extra arguments are ignored
    → here: test_extra_arguments_are_ignored
§4 numbers are ASCII digits
    → server/test_input.py test_a_command_s_numbers_are_ascii_digits_only
§4 before login only help, calls, style, sort, clock, lang, login, ping, quit; else
`not-logged-in` (§10's row said it without sort, clock and lang: a slip, corrected)
    → server/test_input.py test_commands_before_login_and_bad_arguments;
    → here: test_before_login_the_session_commands_work_and_nothing_else
§4.1 two lines, human style, 80 columns, as shown
    → here: test_the_banner_is_two_lines_each_in_80_columns_as_4_1_shows
§4.2 `lang=`, `style=` at login; a bad value or `tell=`/`sort=`/`clock=` changes nothing
    → here: test_lang_anywhere_after_the_name_and_the_password_still_the_password
    → server/test_login_style.py;
    → server/test_help_lang.py
§4.2 a password beginning `style=` … is no longer typed
    → server/test_login_style.py test_a_password_that_begins_with_style_is_no_longer_typed
§4.2 NAME's form; blanks, compatibility form, mixed alphabets refused
    → here: test_a_names_grammar_at_its_edges,
      test_a_name_past_20_characters_is_refused_as_the_page_says
    → server/test_input.py (test_names_that_show_as_blanks_are_refused …
      test_a_name_registered_before_the_compatibility_rule_still_logs_in)
§4.2 one person however written; a registered name logs in as registered; a seat's spelling
kept
    → server/test_hardening.py test_full_width_names_are_the_same_person;
    → server/test_reconnect.py test_a_name_typed_in_another_case_takes_its_seats_spelling,
      test_a_registered_name_logs_in_as_it_was_registered
§4.2 registration, wrong password, a guest's name not registrable, being registered
    → server/test_attacks.py test_registering_a_name_a_guest_plays_under_is_refused,
      test_a_name_being_registered_is_refused_as_such_and_stays_free_to_its_registrant;
    → here: test_the_login_examples_of_4_2_are_what_the_server_sends
§4.2 an admin's name is never registered by a login
    → server/test_attacks.py test_an_admins_name_is_never_registered_by_a_login
§4.2 a guest's name: token only (a password told a guest's name is not registered); free
again once gone, a stale token then ignored and a new one given
    → here: test_a_guests_name_is_refused_to_a_token_and_to_a_password_each_in_its_words,
      test_a_stale_token_is_ignored_and_a_new_one_given
    → server/test_attacks.py test_a_connected_name_cannot_be_taken,
      test_an_away_guests_seat_is_resumed_only_with_its_token,
      test_a_finished_guests_name_is_free_again
§4.2 resuming: the old connection is told `bye …` and closed, its seek dropped; the guest
keeps his token
    → server/test_reconnect.py test_a_second_login_moves_the_session;
    → here: test_a_resuming_login_closes_the_old_connection_drops_its_seek_and_keeps_the_token,
      test_the_right_password_takes_a_registered_session_over
§4.2 limits: wrong passwords per name and address, checks, registrations
    → server/test_attacks.py (test_wrong_passwords_are_limited_per_name_across_connections …
      test_registrations_are_limited_and_do_not_hold_up_logins);
    → server/test_login_waits.py;
    → server/test_password_cost.py
§4.2 the third wrong password on one connection: `bye`, closed
    → server/test_hardening.py test_wrong_passwords_close_the_connection
§4.2 a banned name: `banned` before any password
    → server/test_moderation.py
§4.2 logging in twice: `not-allowed text=you are logged in as NAME`
    → server/test_input.py test_commands_before_login_and_bad_arguments (the code);
    → here: test_logging_in_twice_names_the_name_and_changes_nothing (the text)
§4.2 the greeting: counts, singular, a drain's commands, back at a seat
    → server/test_greeting.py;
    → server/test_drain_command.py;
    → server/test_protocol_transcripts.py
§4.2 the example transcript
    → here: test_the_login_examples_of_4_2_are_what_the_server_sends
§7 `seq` counts events 1, 2, … without gaps; `ask`/`state` carry the last (§7 said
`record` lines did too: they carry no `seq=`, as §3.2 and §14 have them; a slip, corrected)
    → here: test_seq_counts_every_event_without_gaps_and_asks_carry_the_last
    → protocol/test_wire.py test_every_ask_and_state_of_a_whole_match_round_trips;
    → server/test_doc_ask_lines.py
§7 `seq=N` at the line's end, ASCII digits, any space before it
    → protocol/test_connection.py test_seq_takes_ascii_digits_only,
      test_a_calls_seq_is_its_last_word
§7 N from the open request to the current `seq`; else `stale`, nothing changed
    → protocol/test_connection.py;
    → server/test_input.py test_calls_out_of_turn_and_bad_calls_change_nothing;
    → server/test_reconnect.py test_other_events_do_not_make_a_request_stale
§7 an N beyond the current `seq`: `there is no request N yet`, nothing changed; the stale
sentences as §7 gives them, over the wire
    → protocol/test_connection.py (the sentence);
    → here: test_a_seq_beyond_the_tables_is_no_request_yet_and_changes_nothing
§7 `seq=` is lower case
    → here: test_seq_is_lower_case
§7 commands never take `seq=`
    → protocol/test_connection.py
§10 an error changes no state; the request stays open
    → server/test_input.py test_calls_out_of_turn_and_bad_calls_change_nothing,
      test_bad_bytes_from_a_seat_change_nothing
§10 a mistyped command's name is said to people only
    → here: test_a_mistyped_commands_name_is_said_to_people_only
§10 a word quoted back is cut at 40 characters
    → server/test_said_back.py
§10 `slow-down` carries `wait_ms=` when its wait is known
    → server/test_slow_down_waits.py;
    → server/test_login_waits.py
§10 `internal`: the line refused, the connection stays; a failing table ends its match
    → server/test_table_failure.py;
    → server/test_hardening.py test_a_flaw_in_reading_a_call_costs_the_line_not_the_table
§10 each code of the table is sent where it says (the codes of §2 and §4 above; the rest, a
module that provokes each over the wire, or the engine's refusal for a call's codes):
    → busy, slow-down, name-in-use: server/test_attacks.py, server/test_login_waits.py;
      internal: server/test_table_failure.py; bad-rules: server/test_bad_rules_words.py;
      shutting-down: server/test_shutdown.py, server/test_drain_command.py;
      already-seated, not-seated, unknown-table, table-full, wrong-phase (a table not
      started), not-allowed (unseek): here test_the_lobbys_codes_are_sent_where_10_says,
      and server/test_private_unseen.py;
      seat-taken: server/test_full_table_waits.py; seat-reserved: server/test_reserve.py;
      not-invited (never sent): server/test_private_unseen.py; already-invited:
      server/test_private.py; unknown-player, banned, muted: server/test_moderation.py;
      stale, wrong-phase, not-your-turn, illegal-card, must-follow-suit, must-trump,
      must-overtrump: server/test_input.py test_calls_out_of_turn_and_bad_calls_change_nothing;
      ambiguous-rank: server/test_human_columns.py; ambiguous-call:
      server/test_tertz_spoken_counts.py; must-beat: tertz/test_rules.py; forbidden-rost,
      answer-required: game/test_talk.py; false-declaration: protocol/test_refusals.py;
      not-allowed: server/test_rematch.py, server/test_attacks.py
"""

from __future__ import annotations

import random
import re
import unicodedata

import pytest
import trio

from deberc_net import __version__
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import COMMANDS, TableCallText, parse_line
from deberc_net.protocol.connection import Connection, Reply, TimeoutCode
from deberc_net.protocol.framing import BadLine, Line, LineDecoder
from deberc_net.server.accounts import valid_name
from deberc_net.server.config import Config
from tests.protocol.conftest import Start
from tests.protocol.connection_inputs import inputs
from tests.protocol.doc_examples import PROTOCOL, example, lines_until_pong, only_crlf, sent
from tests.server.client import (
    LineClient,
    a_whole_match,
    fields,
    next_ask,
    random_legal,
    seat_pair,
)
from tests.server.conftest import Connector

PONG = b"pong\r\n"  # (the human style's, a new connection's)


@pytest.mark.timeout(30)
async def test_the_banner_is_two_lines_each_in_80_columns_as_4_1_shows(port: int) -> None:
    documented = example("### 4.1 Banner")
    assert documented[0].startswith(f"deberc-net {__version__} (protocol 1) — ")
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    raw = b""
    with trio.fail_after(20):
        while raw.count(b"\r\n") < 2:
            got = await stream.receive_some(4096)
            assert got, raw
            raw += got
        # nothing more comes unasked: the next line is the answer to a 'ping' sent now
        # (replies keep the order of the lines, §2.3), not a wait for what may be late
        await stream.send_all(b"ping\r\n")
        while not raw.endswith(PONG):
            got = await stream.receive_some(4096)
            assert got, raw
            raw += got
    await stream.aclose()
    assert raw.count(b"\r\n") == 3, raw
    raw = raw.removesuffix(PONG)
    assert only_crlf(raw) and raw.endswith(b"\r\n")
    lines = raw.decode("utf-8").split("\r\n")[:-1]
    assert lines == documented
    for line in lines:
        wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in line)
        assert len(line) + wide <= 80, line
    assert "=" not in lines[1]  # no tag, no key=value: a machine client ignores it


@pytest.mark.timeout(30)
async def test_an_all_blank_line_gets_no_reply_at_all(port: int, connect: Connector) -> None:
    client = await connect.machine(port, "ann")
    await client.send_raw(b"\n\r\n \t \r\n\t\n")
    await client.send("ping")
    assert await client.read_until(lambda _: True) == "ok cmd=ping text=pong"


@pytest.mark.timeout(30)
async def test_before_login_the_session_commands_work_and_nothing_else(
    port: int, connect: Connector
) -> None:
    client = await connect.raw(port, "anon")
    refusal = "error code=not-logged-in text=log in first: login NAME [PASSWORD]"
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    for line in ("help", "calls", "sort rank", "clock bot", "lang en"):
        answer = await lines_until_pong(client, line)
        assert answer and refusal not in answer, (line, answer)
    assert await lines_until_pong(client, "login") != [refusal]  # its usage, not that
    session = {"help", "calls", "style", "sort", "clock", "lang", "login", "ping", "quit"}
    others = sorted(set(COMMANDS) - session)
    assert "who" in others and "password" in others
    for line in [*others, "say hi", "observe 1", "invite bob", "igrayu", "10h seq=3"]:
        assert await lines_until_pong(client, line) == [refusal], line
    await client.send("quit")
    assert await client.read_until(lambda _: True) == (
        "bye text=Bye. Your seat, if any, waits for you."
    )
    await client.wait_closed()


@pytest.mark.timeout(30)
async def test_logging_in_twice_names_the_name_and_changes_nothing(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    assert await lines_until_pong(ann, "login bob") == [
        "error code=not-allowed text=you are logged in as ann"
    ]
    await ann.send("who")
    assert (await ann.expect("who"))["names"] == "ann"


@pytest.mark.timeout(30)
async def test_a_resuming_login_closes_the_old_connection_drops_its_seek_and_keeps_the_token(
    port: int, connect: Connector
) -> None:
    old = await connect.machine(port, "ann")
    await old.send("seek 2")
    await old.expect("ok", cmd="seek")
    new = await connect.machine(port, "ann", token=old.token)
    assert await old.read_until(lambda _: True) == (
        "bye text=You logged in from another connection; this one closes."
    )
    await old.wait_closed()
    assert new.token == old.token  # a guest keeps his token while the name is his
    await new.send("unseek")  # the seek went with the old connection
    assert (await new.expect("error"))["code"] == "not-allowed"
    bob = await connect.machine(port, "bob")
    await bob.send("seek 2")
    await bob.expect("ok", cmd="seek")  # he waits: nobody sought before him
    await bob.send("ping")
    assert await bob.read_until(lambda _: True) == "ok cmd=ping text=pong"


def _escaped(text: str) -> bytes:
    """Bytes as the page writes them (``\\xff\\xfc\\x06``)."""
    return text.encode().decode("unicode_escape").encode("latin-1")


@pytest.mark.timeout(30)
async def test_the_examples_of_2_2_are_what_the_server_sends(
    start: Start, connect: Connector
) -> None:
    lines = example("### 2.2 Input: what the client sends")
    port = await start(partial_line_ms=300)
    await connect.machine(port, "stayer")
    fedya = await connect.machine(port, "fedya")
    data = {
        '(1100 bytes of "A", then CRLF)': b"A" * 1100 + b"\r\n",
        "say caf\\xe9": b"say caf\xe9\n",
        "say a\\x07b": b"say a\x07b\n",
        "\\xff\\xfb\\x01\\xff\\xfd\\x03\\xff\\xfa\\x18\\x01\\xff\\xf0who": (
            b"\xff\xfb\x01\xff\xfd\x03\xff\xfa\x18\x01\xff\xf0who\n"
        ),
    }
    for typed, bytes_sent in data.items():
        at = next(i for i, line in enumerate(lines) if line.startswith(f"> {typed}"))
        await fedya.send_raw(bytes_sent)
        refusals = typed.startswith("\\xff")  # the refusals first: no line (telnet's)
        assert await fedya.read_until(lambda _: True) == lines[at + 1 + refusals], typed
        if refusals:
            assert fedya.telnet == _escaped(lines[at + 1].split()[0]), typed
    # telnet's Ctrl-C: its timing mark refused, and no line
    at = next(i for i, line in enumerate(lines) if line.startswith("> \\xff\\xf4"))
    await fedya.send_raw(b"\xff\xf4\xff\xfd\x06")
    await fedya.send("ping")
    assert await fedya.read_until(lambda _: True) == "ok cmd=ping text=pong"
    told = _escaped(lines[at + 1].split()[0])
    assert fedya.telnet.endswith(told) and told == b"\xff\xfc\x06"
    # the last: a fresh connection in the human style, a line never ended
    at = next(i for i, line in enumerate(lines) if line.startswith("> login slow"))
    slow = await connect.raw(port, "slow")
    await slow.send_raw(sent(lines[at]).encode())
    assert await slow.read_until(lambda _: True) == lines[at + 1]
    await slow.wait_closed()
    assert lines[at + 2].startswith("(connection closed after 30.0 s)")


@pytest.mark.timeout(60)
async def test_the_login_examples_of_4_2_are_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    """The transcript's lines, each sent on the connection it speaks of: anna registers
    on a new server; misha is connected; a third connection tries the names; then gus,
    a new connection in the human style (fedya gone by then: 3 players, as shown)."""
    lines = example(
        "### 4.2 `login NAME [PASSWORD | token=TOKEN] [lang=en|ru] [style=human|machine]`"
    )
    steps: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("> "):
            steps.append((sent(line), []))
        else:
            steps[-1][1].append(line)
    told = dict(steps)
    assert len(told) == len(steps) == 9

    anna = await connect.raw(port, "anna")
    await anna.send("style machine")
    await anna.expect("ok", cmd="style")
    assert await lines_until_pong(anna, "login anna secret1") == told["login anna secret1"]
    misha = await connect.machine(port, "misha")
    for opener in (anna, misha):  # the two tables of the later greetings
        await opener.send("new 2")
        await opener.expect("ok", cmd="sit")

    other = await connect.raw(port, "other")
    await other.send("style machine")
    await other.expect("ok", cmd="style")
    for line in ("login x", "login anna", "login anna wrong", "login misha"):
        assert await lines_until_pong(other, line) == told[line], line
    [greeting] = await lines_until_pong(other, "login fedya")
    token = fields(greeting)[1]["token"]
    [documented] = told["login fedya"]
    assert greeting == documented.replace(fields(documented)[1]["token"], token)
    await other.send("quit")
    await other.wait_closed()

    gus = await connect.raw(port, "gus")
    for line in ("login gus style=robot", "login gus tell=asks", "login gus secret1 style=machine"):
        assert await lines_until_pong(gus, line) == told[line], line
    for client in (anna, misha, gus):
        assert only_crlf(bytes(client.raw))


@pytest.mark.timeout(60)
async def test_a_seq_beyond_the_tables_is_no_request_yet_and_changes_nothing(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    asked = await next_ask(ann, bob)
    assert asked is not None
    ask, client = asked
    seq = int(ask["seq"])
    call = random_legal(ask, random.Random(1))
    assert await lines_until_pong(client, f"{call} seq={seq + 5}") == [
        f"error code=stale answers={seq + 5} open={seq} text=there is no request {seq + 5} yet; "
        f"the open request is {seq}"
    ]
    assert await lines_until_pong(client, f"{call} seq={seq - 1}") == [
        f"error code=stale answers={seq - 1} open={seq} text=that answers request {seq - 1}; "
        f"the open request is {seq}"
    ]
    await client.send("state")  # nothing changed: the same request, still open
    again = await client.read_until(lambda line: line.startswith("ask "))
    assert {**fields(again)[1], "clock": ""} == {**ask, "clock": ""}  # but the time left
    await client.send(f"{call} seq={seq}")
    answered = await client.read_until(lambda line: line.startswith(("event ", "error ")))
    assert fields(answered)[1]["seq"] == str(seq + 1), answered


@pytest.mark.parametrize(
    ("data", "read"),
    [
        (b"A" * 1024 + b"\n", Line("A" * 1024)),
        (b"A" * 1025 + b"\n", BadLine("line-too-long", "lines are limited to 1024 bytes")),
        (b"A" * 1023 + b"\r\n", Line("A" * 1023)),  # the CR counts: 1023 bytes of text
        (b"A" * 1024 + b"\r\n", BadLine("line-too-long", "lines are limited to 1024 bytes")),
    ],
)
def test_the_line_limit_is_1024_bytes_before_the_lf_the_cr_counted(
    data: bytes, read: Line | BadLine
) -> None:
    assert LineDecoder().feed(data) == [read]


@pytest.mark.parametrize("line", ["pas SEQ=4", "pas Seq=4"])
def test_seq_is_lower_case(line: str) -> None:
    # §7: "then lower-case `seq=`": any other case is the call's own text, refused
    assert parse_line(line) == TableCallText(line)


@pytest.mark.timeout(30)
async def test_a_stale_token_is_ignored_and_a_new_one_given(port: int, connect: Connector) -> None:
    # §4.2: "Once the guest has gone and holds no seat, the name is free again (a stale
    # token is then ignored, and a new one given)"
    ann = await connect.machine(port, "ann")
    await ann.send("quit")
    await ann.wait_closed()
    again = await connect.machine(port, "ann", token=ann.token)
    assert again.token and again.token != ann.token


@pytest.mark.timeout(30)
async def test_the_right_password_takes_a_registered_session_over(
    port: int, connect: Connector
) -> None:
    # §4.2 "Resuming: the right password ... from any connection, takes the session over"
    old = await connect.machine(port, "vera", password="secret1")
    new = await connect.machine(port, "vera", password="secret1")
    assert await old.read_until(lambda _: True) == (
        "bye text=You logged in from another connection; this one closes."
    )
    await old.wait_closed()
    await new.send("who")
    assert (await new.expect("who"))["names"] == "vera"


@pytest.mark.timeout(30)
async def test_extra_arguments_are_ignored(port: int, connect: Connector) -> None:
    # §4: "Extra arguments are ignored unless said otherwise"
    ann = await connect.machine(port, "ann")
    await ann.send("ping and more")
    assert await ann.read_until(lambda _: True) == "ok cmd=ping text=pong"
    await ann.send("who 1 extra")
    assert (await ann.expect("who"))["names"] == "ann"
    await ann.send("quit now please")
    assert await ann.read_until(lambda _: True) == "bye text=Bye. Your seat, if any, waits for you."
    await ann.wait_closed()


@pytest.mark.timeout(30)
async def test_a_guests_name_is_refused_to_a_token_and_to_a_password_each_in_its_words(
    port: int, connect: Connector
) -> None:
    # §4.2: a guest's name to anyone else: 'login NAME' or a wrong token is told how to
    # resume; a password, that a guest's name is not registered
    await connect.machine(port, "ann")
    other = await connect.raw(port, "other")
    await other.send("style machine")
    await other.expect("ok", cmd="style")
    resume = (
        "error code=name-in-use text=ann is in use: to resume that seat log in with its"
        " token (login NAME token=TOKEN); else choose another name"
    )
    for line in ("login ann", "login ann token=wrong"):
        assert await lines_until_pong(other, line) == [resume], line
    assert await lines_until_pong(other, "login ann secret1") == [
        "error code=name-in-use text=ann is in use by a guest: register another name"
    ]


@pytest.mark.timeout(30)
async def test_a_mistyped_commands_name_is_said_to_people_and_named_to_programs(
    port: int, connect: Connector
) -> None:
    # §10: "a mistyped command's likely name is said to people, and named to a program
    # in `command_hint=`"
    doc = " ".join(PROTOCOL.read_text(encoding="utf-8").split())
    assert "a mistyped command's likely name is said to people, and named to a program" in doc
    bot = await connect.machine(port, "ann")
    assert await lines_until_pong(bot, "whoo") == [
        "error code=unknown-command command_hint=who text='whoo' is not a command, and you sit"
        " at no table. Type 'help'."
    ]
    person = await connect.human(port, "hum")
    await person.send("ping")
    await person.read_until(lambda line: line == "pong")  # the rest of the greeting read
    said = await lines_until_pong(person, "whoo")
    assert " ".join(line.strip() for line in said) == (
        "Error (unknown-command): 'whoo' is not a command, and you sit at no table. Type"
        " 'help'. Did you mean 'who'?"
    )


@pytest.mark.timeout(60)
async def test_commands_work_seated_at_a_running_match(port: int, connect: Connector) -> None:
    # §4: "Commands work in every phase, seated or not (who, tables, games, rules,
    # observe of another table, say, … during a match)"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    cid = await connect.machine(port, "cid")
    await cid.send("new 2")
    other = (await cid.expect("ok", cmd="sit"))["table"]
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="deal")  # the match is on
    for line, tag in (
        ("who", "who"),
        ("tables", "tables"),
        ("games", "games"),
        ("rules", "rules"),
        (f"observe {other}", "ok"),
        ("say hi", "say"),
        ("finger bob", "finger"),
    ):
        await ann.send(line)
        ends = ("error ", f"{tag} ")

        def ended(x: str, ends: tuple[str, str] = ends) -> bool:
            return x.startswith(ends)

        got = await ann.read_until(ended)
        assert got.startswith(f"{tag} "), (line, got)


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("ab", True),
        ("a" * 20, True),
        ("12", True),  # "starting with a letter or a digit"
        ("ab_", True),
        ("a_b-c", True),
        ("аня", True),
        ("a", False),  # 2 to 20 characters
        ("a" * 21, False),
        ("_ab", False),
        ("-ab", False),
        ("a b", False),
        ("a.b", False),
    ],
)
def test_a_names_grammar_at_its_edges(name: str, valid: bool) -> None:
    # §4.2: "NAME: 2 to 20 characters, letters (any alphabet), digits, _ or -, starting
    # with a letter or a digit"
    assert valid_name(name) is valid


@pytest.mark.timeout(30)
async def test_a_name_past_20_characters_is_refused_as_the_page_says(
    port: int, connect: Connector
) -> None:
    client = await connect.raw(port, "long")
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    assert await lines_until_pong(client, "login " + "a" * 21) == [
        "error code=bad-argument text=a name is 2-20 letters, digits, '_' or '-'"
    ]
    await client.send("login " + "a" * 20)
    await client.expect("ok", cmd="login", name="a" * 20)


@pytest.mark.timeout(60)
async def test_the_lobbys_codes_are_sent_where_10_says(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")

    async def code(client: LineClient, line: str) -> str:
        [error] = await lines_until_pong(client, line)
        return fields(error)[1]["code"]

    for line in ("leave", "state", "invite bob"):  # with no table
        assert await code(eve, line) == "not-seated", line
    for line in ("sit 99", "observe 99", "unobserve 99", "rules 99"):
        assert await code(eve, line) == "unknown-table", line
    assert await code(eve, "unseek") == "not-allowed"
    assert await code(eve, "pas") == "unknown-command"  # no command, and no table
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    assert await code(ann, "pas") == "wrong-phase"  # a table that has not started
    for line in ("new 2", "seek 2", f"sit {table}", f"observe {table}"):
        assert await code(ann, line) == "already-seated", line
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="deal")
    await eve.send(f"sit {table}")
    assert (await eve.expect("error"))["code"] == "table-full"  # already playing


@pytest.mark.timeout(30)
async def test_lang_anywhere_after_the_name_and_the_password_still_the_password(
    port: int, connect: Connector
) -> None:
    # §4.2: "lang=ru (anywhere after NAME) sets the human style's language"; the key in
    # any case, as no password may begin with it
    first = await connect.raw(port, "first")
    said = await lines_until_pong(first, "login vera LANG=ru secret1")
    assert said[0].startswith("Здравствуйте, vera (имя зарегистрировано сейчас,"), said
    again = await connect.raw(port, "again")
    await again.send("style machine")
    await again.expect("ok", cmd="style")
    await again.send("login vera secret1")  # the password registered was secret1
    assert (await again.expect("ok", cmd="login"))["guest"] == "0"
    await first.wait_closed()  # taken over, and told so in Russian
    assert first.lines[-1] == "Вы вошли с другого соединения; это закрывается."


def test_the_numbers_of_2_and_4_2_are_the_servers_defaults() -> None:
    # "Every limit on this page is a setting of the server ...; the numbers here are the
    # defaults" (§2.1): those of §2 and §4.2, as a Config without settings has them
    config = Config()
    assert (config.host, config.port) == ("127.0.0.1", 7501)
    assert config.max_connections == 5000 and config.max_connections_per_address == 100
    assert config.login_timeout_ms == 15_000 and config.idle_timeout_ms == 15 * 60_000
    assert config.max_line == 1024 and config.partial_line_ms == 30_000
    assert (config.flood_lines_per_s, config.flood_burst) == (200, 1000)
    assert config.outbox_bytes == 256 * 1024
    assert (config.failed_logins_per_name, config.failed_logins_per_address) == (5, 20)
    assert config.failure_window_ms == 5 * 60_000 and config.failed_logins_per_connection == 3
    assert config.known_address_ms == 30 * 24 * 3_600_000
    assert (config.password_checks_per_address, config.password_check_window_ms) == (40, 60_000)
    assert config.registrations_per_address == 20 and config.registration_window_ms == 3_600_000
    assert config.registrations_waiting == 32 and config.registrations_waiting_per_address == 12
    assert config.table_requests_waiting == 8  # §10's busy: 8 requests waiting at tables


@pytest.mark.timeout(60)
async def test_seq_counts_every_event_without_gaps_and_asks_carry_the_last(
    port: int, connect: Connector
) -> None:
    # §7: "Each table counts its event lines: seq 1, 2, 3, …, across all deals of the
    # match, with no gaps. ask and state lines do not count; they carry the seq of the
    # last event before them." Both seats, a whole match of several deals.
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await a_whole_match(ann, bob, "2 to-301")
    for client in (ann, bob):
        last = 0
        deals = 0
        for line in client.lines:
            tag, said = fields(line)
            if tag == "event":
                seq = int(said["seq"])
                assert seq == last + 1 or (last == 0 and client is bob), (client.label, line)
                last = seq
                deals += said["kind"] == "deal"
            elif tag in ("ask", "state"):  # (a record carries no seq=: §3.2, §14)
                assert int(said["seq"]) == last, (client.label, line)
        assert deals > 1 and fields(client.lines[-1])[1].get("kind") == "match-end"


def test_the_commands_4_lists_are_the_servers() -> None:
    # §4: "A command is a line whose first word ... is one of ...; any other line is a
    # table call": the list, every command the server reads as one and no other
    section = PROTOCOL.read_text(encoding="utf-8").split("\n## 4. Session", 1)[1]
    listed = section.split("Any other\nline is a **table call**", 1)[0]
    assert set(re.findall(r"`([a-z!]+)`", listed)) == set(COMMANDS)


def test_an_over_long_line_being_discarded_waits_for_its_lf_as_long_as_any() -> None:
    # §2.2: "if bytes of a line (or of an over-long line being discarded) have been
    # waiting for their LF for 30 s, ... line-timeout and closes the connection"
    connection = Connection(0.0)
    connection.logged_in()
    got = inputs(connection, b"x" * 2000, now=100.0)  # past the limit, no LF yet
    assert got == [Reply(ev.Error("line-too-long", "lines are limited to 1024 bytes"))]
    inputs(connection, b"x" * 500, now=120.0)  # still discarded: no new line begins
    assert connection.deadline() == (130.0, TimeoutCode.LINE)
    assert connection.timed_out(130.0) == Reply(
        ev.Error("line-timeout", "an unfinished line waited too long"), hang_up=True
    )


@pytest.mark.timeout(30)
async def test_a_tab_is_a_space_and_a_lines_own_spaces_are_trimmed(
    port: int, connect: Connector
) -> None:
    # §2.2: "A tab becomes a space; leading and trailing spaces are removed" (a say's
    # TEXT keeping the spaces inside it, §4); NULs dropped everywhere
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    for raw, text in (
        (b"say a\tb\n", "a b"),
        (b"  \t say  x  y \t \r\n", "x  y"),
        (b"say a\x00b\n", "ab"),
    ):
        await ann.send_raw(raw)
        assert (await bob.expect("say"))["text"] == text, raw
