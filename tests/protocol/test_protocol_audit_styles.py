"""An audit of docs/protocol.md against the server, part 2 (styles): the styles and the
machine-style grammar (§3, §3.1, §3.2), and the session commands `style`, `sort`,
`clock`, `lang`, `help`, `calls`, `quit` and `ping` (§4.3–§4.6). Each promise a client
may rely on, and (→) the tests that pin it, as in part 1 (test_protocol_audit.py); the
examples of these sections are checked here against a real server, line for line.

§3 both styles accept exactly the same input (a spoken call from a machine-style seat, a
token from a human-style one)
    → here: test_both_styles_accept_the_same_input
§3 one card notation in every human line; input in either (§8.1)
    → server/test_human.py test_whole_matches_fit_80_columns_in_one_notation;
    → protocol/test_render.py test_engine_refusals_are_told_to_people_in_their_notation;
    → here: test_both_styles_accept_the_same_input
§3 80 columns (a wide character two), cut at a space, the rest indented two spaces
    → server/test_human.py test_whole_matches_fit_80_columns_in_one_notation;
    → server/test_human_columns.py test_columns_counts_what_a_terminal_shows,
      test_whole_matches_in_the_human_style_fit_80_columns;
    → protocol/test_lang.py test_names_in_wide_letters_still_fit_80_columns
§3 never inside a `'login NAME token=…'`, nor between a line's last number and its word
    → server/test_human.py test_the_resume_login_to_copy_is_never_cut_across_lines;
    → protocol/test_render_club.py test_a_long_history_heading_keeps_each_side_with_its_points
§3 a chat line goes on in `  | ` lines, its blanks one space; the machine style keeps it
    → protocol/test_render_chat.py (all four tests)
§3 each fact once: a deal announced once
    → server/test_human.py test_whole_matches_fit_80_columns_in_one_notation
§3 each card as it is laid, once; a request to act shows the hand, then the prompt
    → here: test_a_person_is_told_each_card_once_and_offered_cards_in_the_hands_order
§3 `state` shows the whole table: deal, dealer, score, trump or turned card, fresa, talk,
shown cards, tricks taken, the trick
    → server/test_human.py test_state_on_request_tells_the_whole_table,
      test_a_player_back_after_a_drop_is_told_the_talk_so_far;
    → protocol/test_render.py
      test_the_whole_table_tells_the_talk_the_shown_cards_and_the_tricks
§3 the turned card only while it lies face up (not the four players' dealer's once
ordered, not Tertz's once drawn)
    → here: test_the_four_players_dealer_is_shown_no_turned_card_once_it_is_ordered;
    → tertz/test_words_tertz.py
      test_a_tertz_state_shows_the_turned_card_only_while_it_lies_face_up
§3 names, not seat numbers; a question told to the seat it is about says `you`
    → server/test_human.py test_whole_matches_fit_80_columns_in_one_notation,
      test_a_refusal_names_the_player_whose_turn_it_is;
    → here: test_a_question_of_the_talk_says_you_to_the_seat_it_is_about;
    → protocol/test_render.py test_the_rost_exchange_reads_as_sentences;
    → protocol/test_lang.py test_the_rost_exchange_and_the_prompt_in_russian («вы»)
§3 an option's question says what is on offer and how to answer it
    → protocol/test_render.py test_the_options_questions_are_said_as_what_they_are_in_english;
    → protocol/test_russian_words.py test_the_options_questions_are_said_as_what_they_are
§3 the top card heard: a higher one offered only when legal; the others' sentence
    → protocol/test_rost_reply_offer.py; protocol/test_render.py
      test_the_rost_exchange_reads_as_sentences
§3 calls as spoken in human lines, each read back as the same call
    → protocol/test_lang.py
      test_the_talk_in_the_latin_human_style_is_spoken_and_reads_back,
      test_the_talk_in_russian_reads_back_as_the_same_call;
    → server/test_commands.py test_help_in_the_human_style_speaks_the_calls
§3 the hand by suit, each in rank order (or by strength, §4.3a); the prompt's cards in
the hand's order
    → server/test_human.py test_whole_matches_fit_80_columns_in_one_notation,
      test_sort_strength_and_back_to_rank;
    → here: test_a_person_is_told_each_card_once_and_offered_cards_in_the_hands_order
§3.1 the grammar: a tag, `key=value` fields one space apart, a value without a space
(`finished=2026-11-29_20:08:52`), `text=` last and to the end, lists without empty items
    → here: test_every_tag_3_2_lists_is_sent_with_its_fields_in_order (every line a
      real server sends in a match, a lobby, an admin's session);
    → protocol/test_wire.py test_values_none_bools_lists_and_spaces,
      test_text_is_last_and_runs_to_the_end_whatever_it_holds,
      test_the_formatter_refuses_field_names_outside_the_grammar
§3.1 `-` none, an empty value an empty list, pairs `a:b[:c]`, booleans `1`/`0`, seats
from 0, cards `RANK SUIT`
    → protocol/test_wire.py test_none_empty_lists_numbers_and_bools_are_typed_on_access,
      test_every_ask_and_state_of_a_whole_match_round_trips,
      test_golden_lines_parse_and_still_parse_with_fields_appended
§3.2 the tags of the table are the protocol's, each sent (but `hello`) with its row's
fields first and in order, `text=` last; no other tag is sent
    → here: test_the_tags_of_3_2_are_the_protocols_every_one,
      test_the_tags_the_servers_code_writes_are_those_3_2_lists,
      test_every_tag_3_2_lists_is_sent_with_its_fields_in_order,
      test_hello_is_defined_with_its_fields_as_3_2_has_it
§3.2 `help` and `rules` blocks: the consecutive lines with that tag
    → here: test_the_examples_of_4_4_are_what_the_server_sends;
    → server/test_commands.py test_rules
§4.3 the style at any time, before or after login; the reply in the new style
    → server/test_commands.py test_style_switching;
    → here: test_the_replies_4_3_to_4_6_quote_are_what_the_server_sends
§4.3–§4.6 each reply and refusal quoted (`style`, `tell=`, `sort`, `clock`, `lang`,
`ping`, `quit`), before login too; §4.3's transcript
    → here: test_the_replies_4_3_to_4_6_quote_are_what_the_server_sends
§4.3, §4.3c the style and the language belong to the connection (a reconnect drops them)
    → here: test_the_session_settings_belong_to_the_connection
§4.3 `login … style=machine`: its reply the first machine line
    → server/test_login_style.py
      test_login_with_style_machine_answers_in_it_and_registers_nothing
§4.3 tell=asks: only its asks and the match's end; no other event, record or state it
did not ask for; its replies and errors (`stale`, …) still come; the asks the same, their
`seq=` counting every event
    → server/test_tell_asks.py
      test_a_whole_match_told_only_the_asks_asks_the_same_as_told_everything,
      test_a_watcher_who_comes_mid_deal_to_seats_told_only_their_asks_misses_no_number
§4.3 tell=asks: not the table's talk, nor its accepted call's own event; `style machine`
or `tell=all` tells every line again
    → here: test_told_only_its_asks_a_seat_hears_no_table_talk_till_told_all_again
§4.3 tell=: a bad value, a second one, or with the human style refused, nothing changed
    → server/test_tell_asks.py test_bad_tell_values_are_refused_and_change_nothing;
    → server/test_login_style.py test_a_bad_style_or_another_setting_s_word_changes_nothing
§4.3 the out-of-turn calls offered only by a `state` line
    → §8.5's part of the audit
§4.3 tell=asks sent again before a resuming login: the seat's view, not `kind=back`
    → server/test_tell_asks.py
      test_told_only_its_asks_beside_a_seat_and_watchers_told_everything
§4.3a `strength`: each suit weakest to strongest in play; `rank` again
    → server/test_human.py test_sort_strength_and_back_to_rank
§4.3a, §4.3b, §4.3c `sort`, `clock` and `lang` work before `login`
    → protocol/test_protocol_audit.py test_before_login_the_session_commands_work_and_nothing_else;
    → here: test_the_replies_4_3_to_4_6_quote_are_what_the_server_sends
§4.3a `sort` belongs to the connection
    → here: test_sort_belongs_to_the_connection
§4.3a `sort` changes no machine line (the engine's order is by strength in play: the
rank order, the default, would put the hand otherwise)
    → here: test_sort_changes_no_machine_line
§4.3b the machine style gets the bot clock, `clock human` the human one; a change counts
from the next match
    → here: test_a_clock_chosen_counts_from_the_next_match_and_the_style_chooses_else;
    → server/test_clock.py test_clock_human_gives_a_machine_style_seat_the_human_clock,
      test_clock_refuses_a_bad_choice_and_keeps_the_style_default
§4.3b `help clock` says this server's clocks; `ms=` without the lag allowance
    → server/test_commands.py test_help_clock_says_this_servers_clocks;
    → server/test_clock.py test_clock_human_gives_a_machine_style_seat_the_human_clock
§4.3c the Ukrainian words listed are each refused saying so, and nothing changes
    → here: test_the_lang_uk_words_4_3c_lists_are_each_refused_so;
    → server/test_human_uk.py
§4.3c in Russian every line a person sees: the welcome and the lobby's replies
    → server/test_human_ru.py test_a_whole_two_player_match_in_russian,
      test_the_russian_welcome_fits_anyone_and_names_the_resume_code,
      test_lang_is_checked_and_can_go_back_to_english
§4.3c `help`, `help COMMAND` (placeholders Russian, the command Latin), a refusal's
usage, `calls`
    → here: test_help_answers_every_command_in_every_phase_in_both_languages;
    → protocol/test_messages.py
      test_russian_help_and_usage_refusals_name_the_placeholders_in_russian,
      test_the_russian_help_fits_80_columns_and_is_russian;
    → server/test_human_ru.py test_calls_in_russian_say_the_options_calls_russian_first
§4.3c who, tables, games, invite, bot, rematch, history, top, finger, last, sheet
    → server/test_human_club_ru.py
      test_a_private_table_invite_history_top_finger_and_rematch_in_russian;
    → protocol/test_render_club.py; server/test_human_sheet_ru.py;
    → server/test_human_ru.py test_a_refused_bot_says_its_usage_in_russian
§4.3c at the table: the seats, the start, deals, plays, tricks, the talk, the prompt, the
turn, the deal's end and record, the clock warning, watchers, the end, errors
    → server/test_human_ru.py test_a_whole_two_player_match_in_russian;
    → server/test_human_club_ru.py test_three_and_four_player_matches_in_russian_fit_80_columns;
    → server/test_human_columns.py test_the_clock_warning_and_leaves_question_in_russian;
    → protocol/test_lang.py test_watchers_in_russian, test_errors_in_russian_keep_their_code
§4.3c the prompt as the page shows it (`Ваш ход [60 с]: пас | играю | 7♠, В♠`, a prompt
no deal makes: a slip, corrected)
    → here: test_the_russian_prompts_4_3c_shows_are_the_servers
§4.3c cards with В Д К Т, never a Latin letter; the talk as said, a plugin's call in its
first Cyrillic word; each read back as the same call
    → protocol/test_lang.py test_cards_already_in_symbols_get_cyrillic_ranks,
      test_the_talk_in_russian_reads_back_as_the_same_call,
      test_a_plugins_call_is_said_in_its_first_cyrillic_word,
      test_every_tertz_call_is_said_in_russian_and_reads_back
§4.3c a Latin T where both the ten and the ace may be played: asked which
    → server/test_human_columns.py test_a_look_alike_t_is_asked_about_at_a_real_table
§4.3c an error said by its code without a sentence of its own; the lobby's refusals with
their limit and table or seat (the example `стол 3 закрытый: …` is sent by no server:
a private table is no table to the uninvited, §5.3; a slip, replaced by one it sends)
    → protocol/test_messages.py test_every_refusal_code_of_the_protocol_has_russian_words;
    → server/test_human_refusals_ru.py (every test)
§4.3c every refusal of the engine and of the rule book keeps its reason and detail
    → protocol/test_refusals.py test_a_refusal_in_russian_keeps_its_detail,
      test_every_engine_refusal_has_a_russian_reason;
    → protocol/test_rule_refusals.py; server/test_human_ru.py
      test_refused_rules_say_their_reason_in_russian
§4.3c the card table's words (байд, партия, код возврата with `lang=ru`), of a man or a
woman alike
    → protocol/test_russian_words.py; server/test_human_ru.py
      test_the_russian_resume_line_typed_as_shown_brings_the_seat_back_in_russian
§4.3c still English: a third-party rule's own description; an admin's words as written
    → server/test_human_ru.py test_rules_in_russian_describe_the_shipped_rules_in_russian;
    → server/test_moderation.py
      test_an_announcement_reaches_everyone_logged_in_marked_as_the_admins
§4.3c `login NAME … lang=ru` sets it with the login
    → protocol/test_protocol_audit.py
      test_lang_anywhere_after_the_name_and_the_password_still_the_password;
    → server/test_human_ru.py
§4.3c one catalogue: the English is the machine `text=`, so `lang` changes no machine line
    → protocol/test_messages.py
      test_the_english_line_is_the_protocols_text_and_russian_is_the_phrase;
    → here: test_lang_changes_no_machine_line
§4.4 `help` for where you are: before login, the lobby (no `login`; the admins' commands
and `seek reserved` to admins only; `invite` and `bot` at a waiting table), a table (the
calls of the moment, in `legal=` order)
    → server/test_commands.py test_help, test_help_at_a_table_names_the_calls_of_the_moment,
      test_help_lists_the_admins_commands_to_admins_and_invite_at_a_waiting_table,
      test_seek_reserved_is_told_to_admins_only_and_new_points_to_rules;
    → server/test_moderation.py
      test_help_tells_an_admin_the_moderation_commands_and_everyone_that_chat_is_logged;
    → server/test_drain_command.py test_help_lists_drain_to_the_admins
§4.4 the lobby's list ends with how to get a house bot; during a drain, with the restart
    → server/test_help_lang.py test_lobby_help_tells_a_lone_player_of_the_house_bots;
    → server/test_drain_command.py test_during_a_drain_the_lobby_offers_no_new_game
§4.4 `help COMMAND` in any phase, for every command, in both languages
    → here: test_help_answers_every_command_in_every_phase_in_both_languages;
    → server/test_commands.py test_help
§4.4 `calls`: a table's game's calls (no swap where there is none, Tertz's, a third
party's), its options' under their heading; in the lobby every game's and option's
    → server/test_commands.py test_calls_lists_the_calls_of_the_tables_game_and_options,
      test_calls_of_a_third_partys_own_game_are_its_own_not_deberts,
      test_calls_are_of_the_tables_rule_set_with_its_player_count;
    → server/test_calls_by_option.py (every test)
§4.4 laid out in 80 columns, an explanation keeping its column
    → server/test_commands.py test_help, test_calls_keeps_its_column_when_an_explanation_wraps
§4.4 the human style lists the calls now as the prompt offers them, in its language
    → server/test_commands.py test_help_in_the_human_style_speaks_the_calls;
    → here: test_help_at_a_table_offers_a_russian_player_the_calls_as_his_prompt_does
§4.4 `help` of a call's word, of a card, of another word for a call; `no command 'X'`;
a command mistyped or said by what it does
    → server/test_help_calls.py; server/test_help_words.py (every test);
    → server/test_human_ru.py test_help_on_a_table_call_tells_the_lines_of_calls_naming_it;
    → server/test_calls_by_option.py; server/test_call_hints.py
      test_help_of_a_command_said_by_its_meaning_or_mistyped_names_it
§4.4 `help` (bare or of no command), `calls` and `rules` spend `who`'s allowance;
`help COMMAND` none
    → here: test_help_calls_and_rules_spend_whos_allowance_and_help_command_none;
    → server/test_attacks.py test_help_on_a_call_spends_the_lists_allowance_and_a_command_none
§4.4 a language asked: that request only, either style, `lang=` anywhere in any case; a
bad or second one refused with the usage
    → server/test_help_lang.py test_help_calls_and_rules_come_in_the_language_asked;
    → here: test_a_language_asked_answers_that_request_only
§4.4 the example transcript (its `help` at a table cut the lines after `leave` without
a `…`: a slip, corrected)
    → here: test_the_examples_of_4_4_are_what_the_server_sends
§4.5 `bye …`, closed; a seat at a running match away from then on
    → here: test_quit_closes_and_a_seat_at_a_running_match_is_away
§4.6 `ok cmd=ping text=pong` in any phase, nothing else; counts toward the flood limit
    → here: test_ping_answers_in_every_phase_and_does_nothing_else,
      test_ping_counts_toward_the_flood_limit
§4.6 it keeps a waiting connection from the idle limit
    → server/test_streams.py
      test_silence_closes_a_connection_on_virtual_time_and_ping_delays_it
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import trio

from deberc_net.game.calls import parse_token
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import COMMANDS
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.protocol.wire import Tag
from tests.game.decks import match2, say
from tests.protocol.conftest import Register, Start
from tests.protocol.doc_examples import PROTOCOL, example, lines_until_pong, sent
from tests.protocol.golden_lines import TWO
from tests.server.client import (
    LineClient,
    a_whole_match,
    fields,
    next_ask,
    play_human,
    play_machine,
)
from tests.server.conftest import Connector

RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]

# ------------------------------------------------------------------ §3.1, §3.2
# §3.1's grammar, as a pattern: a tag, key=value fields (a value without a space), and
# a text= that runs to the end
GRAMMAR = re.compile(r"[a-z-]+(?: [a-z_]+=[^ ]*)*(?: text=.*)?")


def documented_tags() -> dict[str, list[str]]:
    """§3.2's table: each tag and the fields its third column names, in order (those
    it calls optional or conditional, and what a cell says after a `;`, left out)."""
    section = PROTOCOL.read_text(encoding="utf-8").split("\n### 3.2 Every tag\n", 1)[1]
    rows = section.split("\n## 4.", 1)[0]
    tags: dict[str, list[str]] = {}
    for row in rows.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        tag = re.fullmatch(r"`([a-z-]+)`", cells[0]) if cells else None
        if tag is None:
            continue
        said = cells[2].split(";", 1)[0]
        said = re.sub(r"\[[^]]*\]", "", said)  # [auto=]: optional
        said = re.sub(r"`[a-z_]+=` \(only when[^)]*\)", "", said)  # bye's by=
        said = re.sub(r"\(§[^)]*\)", "", said)  # (§5.17; Tertz appends …)
        tags[tag.group(1)] = re.findall(r"\b([a-z_]+)=", said)
    return tags


def test_the_tags_of_3_2_are_the_protocols_every_one() -> None:
    # §3.2 "Every tag": the table's tags are the wire module's Tag, no more, no less
    assert set(documented_tags()) == {tag.value for tag in Tag}


def test_the_tags_the_servers_code_writes_are_those_3_2_lists() -> None:
    # §3.2, from the other side: every tag a machine line is written with in the
    # server's code (the formatter's calls, the text blocks, the table's own templates
    # of its event lines, ask and state) is one of the table's, and each of the
    # table's is written somewhere
    package = Path(__file__).resolve().parents[2] / "deberc_net"
    written = {kind.value for kind in ev.AskKind}
    for path in package.rglob("*.py"):
        code = path.read_text(encoding="utf-8")
        alias = "line" if "format_line as line" in code else "format_line"
        for pattern in (
            rf"\b{alias}\(\s*\"([a-z-]+)\"",
            r"TextBlock\(\s*\"([a-z-]+)\"",
            r"f\"([a-z-]+) seq=\{seq\}",
        ):
            written |= set(re.findall(pattern, code))
    assert written == set(documented_tags()), written ^ set(documented_tags())


def test_hello_is_defined_with_its_fields_as_3_2_has_it() -> None:
    # §3.2: `hello` "reserved: defined but never sent in protocol 1": its fields as said
    [line] = render(ev.Hello("1.0", "1"), MACHINE)
    tag, said = fields(line)
    assert tag == "hello" and list(said) == documented_tags()["hello"]


async def told(client: LineClient, line: str) -> list[str]:
    return await lines_until_pong(client, line)


@pytest.mark.timeout(60)
async def test_every_tag_3_2_lists_is_sent_with_its_fields_in_order(
    start: Start, connect: Connector, register: Register
) -> None:
    # §3.2: each tag of the table is one the server sends (but `hello`), with the fields
    # its row names first and in that order (§1: fields are only appended), text= last;
    # and the server sends no tag the table does not list. §3.1: every line follows the
    # grammar; a value holds no space (`finished=2026-11-29_20:08:52`); lists hold no
    # empty item.
    await register("boss", "owners1")
    port = await start(admins=["boss"])
    ann = await connect.machine(port, "ann", "anns-pw1")
    bob = await connect.machine(port, "bob", "bobs-pw1")
    boss = await connect.machine(port, "boss", "owners1")
    table = await a_whole_match(ann, bob, "2 short")
    for line in ("who", "tables", "games", "last", "sheet", "history", "rules", "help"):
        await told(ann, line)
    await told(ann, "say hi")
    await told(ann, "finger")
    await told(ann, "top")
    await told(ann, "rematch")
    await told(bob, "leave")  # no rematch: ann opens another table, and invites boss
    await told(ann, "leave")
    await told(ann, "new 2")
    await told(ann, "invite boss")
    await told(ann, "state")  # a table waiting: info text=Table T waits for players
    await told(ann, "tables")
    await told(boss, "announce hello all")
    await told(boss, "mute bob 5 rude")
    await told(boss, "mutes")
    await told(boss, "ban eve cheat")
    await told(boss, "ban 203.0.113.0/24 60 trolls")  # (an address-ban line too)
    await told(boss, "bans")
    await told(boss, "bogus")
    await told(bob, "ping")  # (told of his mute by now)
    await ann.send("quit")
    await ann.wait_closed()
    assert table
    documented = documented_tags()
    seen: dict[str, str] = {}
    for client in (ann, bob, boss):
        for line in client.lines[2:]:  # after the banner, human text (§4.1)
            assert GRAMMAR.fullmatch(line), line
            tag, said = fields(line)
            assert tag in documented and tag != "hello", line
            keys = [key for key in said if key != "text"]
            want = documented[tag]
            want_keys = [key for key in want if key != "text"]
            assert keys[: len(want_keys)] == want_keys, line
            if "text" in want:
                assert "text" in said, line
            for key, value in said.items():
                if key != "text":
                    assert not re.search(r"(^,|,,|,$)", value), line
            seen.setdefault(tag, line)
    assert set(seen) == set(documented) - {"hello"}, set(documented) - set(seen)
    finished = fields(seen["game"])[1]["finished"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d", finished), seen["game"]


def row_fields(tag: str) -> set[str]:
    """Every field §3.2's row of ``tag`` names, those it calls optional or appended
    (in brackets, or said after the fields) too."""
    section = PROTOCOL.read_text(encoding="utf-8").split("\n### 3.2 Every tag\n", 1)[1]
    for row in section.split("\n## 4.", 1)[0].splitlines():
        if row.startswith(f"| `{tag}` |"):
            return set(re.findall(r"\b([a-z_]+)=", row.split("|")[3]))
    raise AssertionError(f"no row for {tag}")


async def test_a_table_with_a_player_away_and_a_forfeited_game_name_only_3_2s_fields(
    port: int, connect: Connector
) -> None:
    # §3.2: a `table` line appends `away=` while a player is away (§5.2), a `game`
    # line `forfeit=` for a match a forfeit ended (§5.11); the rows named neither, so a
    # bot written from §3.2 met fields it was never told of (a tryout, s43)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="start")
    await bob.send("quit")
    await ann.expect("event", kind="away", name="bob")
    await ann.send("tables")
    listed = fields(await ann.read_until(lambda x: x.startswith("table ")))[1]
    assert listed["away"] == "bob", listed
    await ann.send("leave")
    await ann.expect("event", kind="match-end")
    await ann.send("games")
    game = fields(await ann.read_until(lambda x: x.startswith("game ")))[1]
    assert game["forfeit"] == "0", game
    for tag, said in (("table", listed), ("game", game)):
        assert set(said) - {"text"} <= row_fields(tag), (tag, said)


# ----------------------------------------------------------------------- §4.4
async def help_lines(client: LineClient, line: str) -> list[str]:
    said = await lines_until_pong(client, line)
    assert all(x.startswith("help text=") for x in said), said
    return [fields(x)[1]["text"] for x in said]


async def seated_at_bidding(port: int, connect: Connector) -> tuple[LineClient, dict[str, str]]:
    """ann and bob at a 2-player table, its first request to act open: the seat asked
    and its ask."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    for client in (ann, bob):
        await client.read_until(lambda x: x.startswith(("ask ", "state ")))
    for client in (ann, bob):  # the one whose line was the ask
        if any(x.startswith("ask ") for x in client.lines):
            ask = next(x for x in client.lines if x.startswith("ask "))
            return client, fields(ask)[1]
    raise AssertionError("nobody asked")


@pytest.mark.timeout(60)
async def test_help_answers_every_command_in_every_phase_in_both_languages(
    port: int, connect: Connector
) -> None:
    # §4.4: "`help COMMAND` gives one command's usage in any phase": every command of
    # §4's list (the admins' too), before login, in the lobby, seated at a running match;
    # with lang=ru in Russian (§4.3c: "the command's words stay as they are typed,
    # Latin; its placeholders are Russian"), as a `lang ru` person reads it
    anon = await connect.raw(port, "anon")
    await anon.send("style machine")
    await anon.expect("ok", cmd="style")
    lobby = await connect.machine(port, "cid")
    seated, _ = await seated_at_bidding(port, connect)
    person = await connect.human(port, "dina")
    await person.send("lang ru")
    await person.read_until(lambda x: x == "Язык: русский.")
    for name in COMMANDS:
        english = await help_lines(lobby, f"help {name}")
        # wrapped to 80 columns in either language (the English was one long line)
        assert english[0].startswith((f"{name}: ", f"{name} ")), english
        assert all(len(x) <= 80 for x in english), english
        assert all(x.startswith("  ") for x in english[1:]), english
        usage = english[0].split(": ", 1)[0]
        russian = await help_lines(lobby, f"help {name} lang=ru")
        assert russian[0].startswith((f"{name}: ", f"{name} ")), russian
        assert all(len(x) <= 80 for x in russian), russian
        said = " ".join(x.strip() for x in russian)
        ru_usage, explained = said.split(": ", 1)
        assert re.search("[а-яё]", explained), said  # explained in Russian
        # a placeholder (an upper-case word of the English usage) is a Russian word
        placeholders = re.findall(r"\b[A-Z]{2,}\b", usage)
        assert not re.findall(r"\b[A-Z]{2,}\b", ru_usage), (usage, ru_usage)
        assert bool(placeholders) == bool(re.search("[А-ЯЁ]{2,}", ru_usage)), (usage, ru_usage)
        for client in (anon, seated):
            assert await help_lines(client, f"help {name}") == english, (name, client.label)
            assert await help_lines(client, f"help {name} lang=ru") == russian, name
        told = await lines_until_pong(person, f"help {name}")
        assert [x for x in told if x] == russian, name


@pytest.mark.timeout(30)
async def test_the_examples_of_4_4_are_what_the_server_sends(
    start: Start, connect: Connector
) -> None:
    # §4.4's transcript, line for line (`…` a cut: what comes before it opens the
    # answer, what comes after it ends it); the seat asked first bids: pas or igrayu
    port = await start(match_seed="audit-4.4")
    documented = example("### 4.4 `help [COMMAND]`, `calls`")
    assert sent(documented[0]) == "help new" and sent(documented[5]) == "help"
    lobby = await connect.machine(port, "cid")
    assert await lines_until_pong(lobby, "help new") == documented[1:5]
    seated, ask = await seated_at_bidding(port, connect)
    assert ask["legal"] == "pas,igrayu", ask
    said = await lines_until_pong(seated, "help")
    runs = [run.splitlines() for run in "\n".join(documented[6:]).split("\n…\n")]
    assert said[: len(runs[0])] == runs[0]
    assert said[-len(runs[-1]) :] == runs[-1]
    at = len(runs[0])
    for run in runs[1:-1]:  # each cut's run whole, in order
        found = [i for i in range(at, len(said)) if said[i : i + len(run)] == run]
        assert found, run
        at = found[0] + len(run)


# ------------------------------------------------------- §4.3–§4.3c, §4.5, §4.6
def section(heading: str) -> str:
    """A section of docs/protocol.md, from its heading to the next, its blanks folded
    (a quoted reply may wrap across the page's lines)."""
    text = PROTOCOL.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    return " ".join(re.split(r"\n#{2,3} ", text, maxsplit=1)[0].split())


@pytest.mark.timeout(30)
async def test_the_replies_4_3_to_4_6_quote_are_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    # each reply and refusal §4.3–§4.6 quote, over the wire (before login: each of these
    # commands works there, §4), and §4.3's transcript line for line
    client = await connect.raw(port, "anon")
    await client.send("style machine")
    assert (
        await client.read_until(lambda _: True) == "ok cmd=style style=machine text=Style machine."
    )
    quoted = {
        "### 4.3 `style human|machine`, `style machine tell=all|asks`": [
            ("style robot", "error code=bad-argument text=style human|machine"),
            ("style machine tell=all", "`tell=all` (reply with `tell=all`)"),
            ("style machine tell=asks", "ok cmd=style style=machine tell=asks text=Style machine."),
            ("style machine tell=some", "error code=bad-argument text=style machine tell=all|asks"),
        ],
        "### 4.3a `sort rank|strength`": [
            ("sort rank", "ok cmd=sort sort=rank text=Your hand is shown by rank."),
            ("sort weight", "error code=bad-argument text=sort rank|strength"),
        ],
        "### 4.3b `clock human|bot`": [
            (
                "clock human",
                "ok cmd=clock clock=human ms=60000 text=Your clock: 60 s a call, from your next"
                " match's start.",
            ),
            ("clock fast", "error code=bad-argument text=clock human|bot"),
        ],
        "### 4.3c `lang en|ru`": [
            ("lang ru", "ok cmd=lang lang=ru text=Язык: русский."),
            ("lang en", "`Language: English.` for `en`"),
            ("lang de", "error code=bad-argument text=lang en|ru"),
            (
                "lang uk",
                "error code=bad-argument text=lang en|ru: no Ukrainian lines yet. 'lang ru'",
            ),
        ],
        "### 4.6 `ping`": [("ping", "ok cmd=ping text=pong")],
        "### 4.5 `quit`": [("quit", "bye text=Bye. Your seat, if any, waits for you.")],
    }
    told = {
        "style machine tell=all": "ok cmd=style style=machine tell=all text=Style machine.",
        "lang en": "ok cmd=lang lang=en text=Language: English.",
    }
    for heading, replies in quoted.items():
        page = section(heading)
        for line, reply in replies:
            assert reply in page, (heading, reply)
            said = told.get(line, reply.strip("`").split("` ")[0])
            got = await client.reply(line)
            if reply.endswith("'lang ru'"):  # the sentence goes on: Ukrainian calls …
                got = got[: len(reply)]
            assert got == said, (line, got)
    await client.wait_closed()
    transcript = example("### 4.3 `style human|machine`, `style machine tell=all|asks`")
    again = await connect.machine(port, "ann")
    for asked, answer in zip(transcript[::2], transcript[1::2], strict=True):
        assert await lines_until_pong(again, sent(asked)) == [answer]


@pytest.mark.timeout(30)
async def test_the_lang_uk_words_4_3c_lists_are_each_refused_so(
    port: int, connect: Connector
) -> None:
    # §4.3c: "`lang uk` (or `ua`, `uk-UA`, `ukrainian`, `українська`, `укр`,
    # `украинский`) is refused as any other word, but says so", and nothing changes
    page = section("### 4.3c `lang en|ru`")
    words = re.search(r"`lang uk` \(or ([^)]*)\)", page)
    assert words is not None
    listed = ["uk", *re.findall(r"`([^`]+)`", words.group(1))]
    assert len(listed) == 7, listed
    ann = await connect.machine(port, "ann")
    for word in listed:
        [said] = await lines_until_pong(ann, f"lang {word}")
        assert said.startswith(
            "error code=bad-argument text=lang en|ru: no Ukrainian lines yet. 'lang ru' for"
            " Russian; Ukrainian calls (граю, пише, хід туз пік) are understood in either"
            " language"
        ), (word, said)
    person = await connect.human(port, "dina")
    await lines_until_pong(person, "lang укр")
    assert await lines_until_pong(person, "sit 9") == ["Error (unknown-table): there is no table 9"]


@pytest.mark.timeout(30)
async def test_lang_changes_no_machine_line(port: int, connect: Connector) -> None:
    # §4.3c: "the English one is the machine style's `text=`, so `lang` never changes a
    # machine line": a machine connection's lines with `lang ru` are those without it
    ann = await connect.machine(port, "ann")
    await lines_until_pong(ann, "new 2")
    lines = ("sit 9", "who", "help sit", "sort foo", "state", "rules", "tables", "bogus", "pas")
    english = [await lines_until_pong(ann, line) for line in lines]
    assert await lines_until_pong(ann, "lang ru") == ["ok cmd=lang lang=ru text=Язык: русский."]
    russian = [await lines_until_pong(ann, line) for line in lines]
    assert russian == english
    assert not any(re.search("[а-яё]", x) for said in russian for x in said)


@pytest.mark.timeout(30)
async def test_the_session_settings_belong_to_the_connection(port: int, connect: Connector) -> None:
    # §4.3, §4.3c: the style and the language "belong to the connection: after a
    # reconnect, send it again": a guest back with his token is greeted in the human
    # style, in English
    ann = await connect.raw(port, "ann")
    for line in ("style machine", "sort strength", "clock human", "lang ru"):
        await ann.reply(line)
    await ann.send("login ann")
    token = (await ann.expect("ok", cmd="login"))["token"]
    await ann.send("quit")
    await ann.wait_closed()
    again = await connect.raw(port, "again")
    await again.send(f"login ann token={token}")
    assert (await again.read_until(lambda _: True)).startswith("Hello, ann (guest).")


@pytest.mark.timeout(30)
async def test_sort_changes_no_machine_line(start: Start, connect: Connector) -> None:
    # §4.3a: "It changes no machine-style line (`hand=` in `ask`/`state` keeps the
    # engine's order)": a hand the rank order (the default) would put otherwise, and
    # the seat's view the same after `sort strength` (trump ordered: the order by
    # strength in play is the trump's too)
    port = await start(match_seed="a")
    seated, ask = await seated_at_bidding(port, connect)
    await seated.send(f"igrayu seq={ask['seq']}")

    async def view() -> dict[str, str]:
        said = await lines_until_pong(seated, "state")
        state = [x for x in said if x.startswith(("ask ", "state "))][-1]  # (its reply)
        return {**fields(state)[1], "clock": ""}  # (the time left moves on)

    before = await view()  # by rank, the default, were it the human style's
    hand = before["hand"].split(",")
    assert any(
        ranks != sorted(ranks, key=RANKS.index)
        for ranks in ([c[:-1] for c in hand if c[-1] == suit] for suit in "shdc")
    ), hand
    assert await lines_until_pong(seated, "sort strength") == [
        "ok cmd=sort sort=strength text=Your hand is shown by strength."
    ]
    assert await view() == before


@pytest.mark.timeout(60)
async def test_a_clock_chosen_counts_from_the_next_match_and_the_style_chooses_else(
    port: int, connect: Connector
) -> None:
    # §4.3b: "Without it the style decides: the machine style gets the bot clock";
    # "a seat's clock is fixed when its match starts, so a change counts from the next
    # match" (the server's defaults, 60 s and 10 s; no lag allowance in these tests)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")

    def clocks(client: LineClient, since: int) -> set[str]:
        return {fields(x)[1]["clock"] for x in client.lines[since:] if x.startswith("ask ")}

    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    # (take: the lines before the one waited for stay unread, an ask among them)
    await ann.take(lambda x: x.startswith("event ") and " kind=start " in x)
    await ann.send("clock human")  # in the match: from the next one
    assert (await ann.take(lambda x: x.startswith("ok cmd=clock "))).startswith(
        "ok cmd=clock clock=human ms=60000 "
    )
    mark = len(ann.lines)  # (an ask may come before the change: one after it does)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1))
        nursery.start_soon(play_machine, bob, random.Random(2))
    assert clocks(ann, mark) == {"10000"} and clocks(bob, 0) == {"10000"}
    marks = len(ann.lines), len(bob.lines)
    await a_whole_match(ann, bob, "2 short")
    assert clocks(ann, marks[0]) == {"60000"} and clocks(bob, marks[1]) == {"10000"}


@pytest.mark.timeout(30)
async def test_quit_closes_and_a_seat_at_a_running_match_is_away(
    port: int, connect: Connector
) -> None:
    # §4.5: "`bye text=Bye. Your seat, if any, waits for you.`, then the server closes
    # the connection. A seat at a running match is *away* from then on (§12)."
    seated, _ = await seated_at_bidding(port, connect)
    other = next(c for c in connect.clients if c.label in ("ann", "bob") and c is not seated)
    seat = fields(next(x for x in seated.lines if x.startswith("ok cmd=sit")))[1]["seat"]
    assert await seated.reply("quit") == "bye text=Bye. Your seat, if any, waits for you."
    await seated.wait_closed()
    away = await other.expect("event", kind="away")
    assert (away["name"], away["seat"]) == (seated.label, seat)


async def only_pong(client: LineClient) -> None:
    """A ping answered by its pong and nothing else (the round trip's own ping's too)."""
    assert await lines_until_pong(client, "ping") == []
    assert await client.read_until(lambda _: True) == "ok cmd=ping text=pong"


@pytest.mark.timeout(30)
async def test_ping_answers_in_every_phase_and_does_nothing_else(
    port: int, connect: Connector
) -> None:
    # §4.6: "`ok cmd=ping text=pong`, in any phase. It does nothing else": before login,
    # in the lobby, seeking, seated at a running match (its request still open, the
    # same), observing; in the human style `pong`
    anon = await connect.raw(port, "anon")
    assert await anon.reply("ping") == "pong"
    await anon.reply("style machine")
    assert await anon.reply("ping") == "ok cmd=ping text=pong"
    seeker = await connect.machine(port, "cid")
    [sought] = await lines_until_pong(seeker, "seek 3")
    assert sought.startswith("ok cmd=seek "), sought
    await only_pong(seeker)
    seated, ask = await seated_at_bidding(port, connect)
    await only_pong(seated)
    [again] = await lines_until_pong(seated, "state")  # the request still open, the same
    assert {**fields(again)[1], "clock": ""} == {**ask, "clock": ""}  # (but the time left)
    watcher = await connect.machine(port, "dina")
    table = fields(next(x for x in seated.lines if x.startswith("ok cmd=sit")))[1]["table"]
    await lines_until_pong(watcher, f"observe {table}")
    await only_pong(watcher)
    assert ask["legal"]


@pytest.mark.timeout(30)
async def test_ping_counts_toward_the_flood_limit(start: Start, connect: Connector) -> None:
    # §4.6: "It counts toward the flood limit like any line" (§2.2)
    port = await start(flood_burst=10, flood_lines_per_s=0.01)
    ann = await connect.machine(port, "ann")
    await ann.send_raw(b"ping\n" * 20)
    await ann.wait_closed()
    said = [x for x in ann.lines if not x.startswith("ok cmd=ping")]
    assert said[-1] == "error code=flood text=too many lines too fast: goodbye", said[-3:]
    assert len(ann.lines) - len(said) < 10


@pytest.mark.timeout(30)
async def test_help_calls_and_rules_spend_whos_allowance_and_help_command_none(
    start: Start, connect: Connector
) -> None:
    # §4.4: "`help` (without a COMMAND, or with any word that is no command), `calls`
    # and `rules` spend the allowance of `who` (§5.1): `error code=slow-down wait_ms=MS`
    # past it"; `help COMMAND` is not among them
    port = await start(lists_burst=1, lists_per_s=0.001)
    ann = await connect.machine(port, "ann")
    assert (await lines_until_pong(ann, "who"))[0].startswith("who ")
    for line in ("who", "help", "help nothing", "calls", "rules"):
        [refused] = await lines_until_pong(ann, line)
        said = fields(refused)[1]
        assert said["code"] == "slow-down" and int(said["wait_ms"]) > 0, (line, refused)
        assert said["text"].startswith(f"too many '{line.split()[0]}' at once: wait "), refused
        assert said["cmd"] == line.split()[0], refused  # the list refused, named (§10)
    for line in ("help sit", "help calls", "help help"):
        usage = (await lines_until_pong(ann, line))[0]
        assert re.match(rf"help text={line.split()[1]}[ :]", usage), usage


@pytest.mark.timeout(30)
async def test_a_language_asked_answers_that_request_only(port: int, connect: Connector) -> None:
    # §4.4 "In a language asked": lang=ru gives a machine connection the Russian lines a
    # `lang ru` connection reads, lang=en the English to a `lang ru` one; the
    # connection's lang and every other line as they were; `lang=` in any case,
    # anywhere after the command word; a second one refused with the usage
    bot = await connect.machine(port, "ann")
    person = await connect.human(port, "dina")
    assert (await lines_until_pong(person, "lang ru"))[-1] == "Язык: русский."
    russian = await help_lines(bot, "help sit lang=ru")
    assert [x for x in await lines_until_pong(person, "help sit") if x] == russian
    assert await help_lines(bot, "help LANG=ru sit") == russian
    english = await help_lines(bot, "help sit")
    assert [x for x in await lines_until_pong(person, "help sit lang=en") if x] == english
    assert (await lines_until_pong(person, "sit 9")) == ["Ошибка (unknown-table): стола 9 нет"]
    assert await lines_until_pong(bot, "calls lang=ru lang=ru") == [
        "error code=bad-argument text=calls [lang=en|ru]"
    ]


# ------------------------------------------------------------------------- §3
@pytest.mark.timeout(60)
async def test_a_person_is_told_each_card_once_and_offered_cards_in_the_hands_order(
    start: Start, connect: Connector
) -> None:
    # §3 "Each fact once": each card as it is laid, once; a request to act then shows
    # the hand and the prompt. "The hand": the prompt lists the playable cards in the
    # order the hand is shown (both in rank order by default, §4.3a)
    port = await start(match_seed="audit-3")
    person = await connect.human(port, "anna")
    bot = await connect.machine(port, "boris")
    await person.send("new 2 to-301")
    await person.read_until(lambda x: x.startswith("You sit at table 1"))
    await bot.send("sit 1")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, bot, random.Random(3))
        nursery.start_soon(play_human, person)
    deal, laid, prompts = "", list[str](), 0
    for before, line in zip(person.lines, person.lines[1:], strict=False):
        if re.match(r"Deal \d+\. ", line):
            assert not laid or len(laid) == len(set(laid)), laid
            deal, laid = line.split(".")[0], []
        played = re.fullmatch(r"(?:anna|boris) plays (\S+)", line)
        if played:
            laid.append(played.group(1))
        prompt = re.fullmatch(r"Your call \[\d+ s\]: (.+)", line)
        if prompt:
            assert before.startswith("Your hand: "), (before, line)
            cards = CARD.findall(prompt.group(1))
            hand = [card for group in hand_cards(before) for card in group]
            assert cards == [card for card in hand if card in cards], (before, line)
            prompts += bool(cards)
    assert deal and prompts > 5, person.lines[-3:]
    assert len(laid) == len(set(laid)), laid


CARD = re.compile(r"(?:10|[789JQKA])[♠♥♦♣]")
CARD_RU = re.compile(r"(?:10|[789ВДКТ])[♠♥♦♣]")


def hand_cards(line: str) -> list[list[str]]:
    """The cards of a 'Your hand: ♠ 7 9 J  ♥ 10 A' line by suit, in the order shown."""
    groups: list[list[str]] = []
    for word in line.removeprefix("Your hand: ").split():
        if word in "♠♥♦♣":
            groups.append([])
            suit = word
        else:
            groups[-1].append(word + suit)
    return groups


@pytest.mark.timeout(30)
async def test_the_four_players_dealer_is_shown_no_turned_card_once_it_is_ordered(
    port: int, connect: Connector
) -> None:
    # §3 "Each fact once": `state` shows the "trump or turned card while it lies face
    # up (not once it is in a hand: four players' dealer's once ordered …)"
    players = [await connect.machine(port, name) for name in ("ann", "bob", "cid", "dan")]
    for client in players:
        await client.send("seek 4")
    views = [
        fields(await client.read_until(lambda x: x.startswith(("ask ", "state "))))
        for client in players
    ]
    [(asked, ask)] = [(c, v) for c, (tag, v) in zip(players, views, strict=True) if tag == "ask"]
    assert "igrayu" in ask["legal"].split(","), ask
    turned = ask["turned"]
    dealer = players[int(ask["dealer"])]
    await dealer.reply("style human")
    said = await lines_until_pong(dealer, "state")
    assert any("Turned" in x for x in said), said  # face up while the bidding lasts
    await asked.send(f"igrayu seq={ask['seq']}")
    await dealer.read_until(lambda x: " orders " in x or " plays in " in x)
    said = await lines_until_pong(dealer, "state")
    hand = next(x for x in said if x.startswith("Your hand: "))
    card = f"{turned[:-1]}{dict(zip('shdc', '♠♥♦♣', strict=True))[turned[-1]]}"
    assert card in [c for group in hand_cards(hand) for c in group], said
    assert any(x.startswith("Trump: ") for x in said), said
    assert not any("Turned" in x for x in said), said


@pytest.mark.timeout(30)
async def test_told_only_its_asks_a_seat_hears_no_table_talk_till_told_all_again(
    port: int, connect: Connector
) -> None:
    # §4.3 "Told only the asks": not "the table's `said`" nor the other `event` lines;
    # every reply to what it sends still comes; "`tell=all` ... or a plain `style
    # machine` ... tells it every line again"
    seated, ask = await seated_at_bidding(port, connect)
    other = next(c for c in connect.clients if c.label in ("ann", "bob") and c is not seated)
    assert await lines_until_pong(seated, "style machine tell=asks") == [
        "ok cmd=style style=machine tell=asks text=Style machine."
    ]
    await lines_until_pong(other, "say one")
    assert await lines_until_pong(seated, "who") == [
        f"who count=2 names={','.join(sorted(('ann', 'bob')))} total=2 page=1 pages=1"
    ]
    for line in ("style machine", "style machine tell=all"):
        await lines_until_pong(seated, line)
        await lines_until_pong(other, "say two")
        [said] = await lines_until_pong(seated, "ping")
        assert said.startswith("say from=") and said.endswith(" text=two"), said
        await seated.read_until(lambda x: x == "ok cmd=ping text=pong")
        await lines_until_pong(seated, "style machine tell=asks")
    # a pass, which asks the other seat (not the first of legal=: chetyre-semerki, in
    # the rare deal that gives it four sevens, would redeal and ask this seat again)
    await seated.send(f"pas seq={ask['seq']}")
    assert await lines_until_pong(seated, "ping") == []  # its call's own event untold


@pytest.mark.timeout(30)
async def test_both_styles_accept_the_same_input(port: int, connect: Connector) -> None:
    # §3: "Both styles accept exactly the same input": a machine-style seat's call as
    # people say it (`играю`, no seq=), a human-style seat's card as a token (`9s`)
    seated, ask = await seated_at_bidding(port, connect)
    other = next(c for c in connect.clients if c.label in ("ann", "bob") and c is not seated)
    await seated.send("играю")
    called = await seated.expect("event", kind="call")
    assert (called["seat"], called["call"]) == (ask["seat"], "igrayu"), called
    asked = await next_ask(seated, other)
    assert asked is not None
    view, client = asked
    card = next(t for t in view["legal"].split(",") if t[-1] in "shdc" and t[0] in "789JQKA1")
    await client.reply("style human")
    await client.send(card)
    pretty = f"{card[:-1]}{dict(zip('shdc', '♠♥♦♣', strict=True))[card[-1]]}"
    await client.read_until(lambda x: x == f"{client.label} plays {pretty}")


def test_a_question_of_the_talk_says_you_to_the_seat_it_is_about() -> None:
    # §3 "Names, not seat numbers": "a question of the table talk told to a seat it is
    # about says `you` (`lev asks you to show the combination (pokazhi): you show
    # it.`)"; the asker reads `You ask …`, a watcher the names
    match = match2(("7s 8s 9s 10s Jh Qh Kh Ad 9c", "7d 8d 9d 10d As Ah 10h Jc Qc", "8c"), dealer=1)
    match.names = TWO
    say(match, 0, "igrayu", "pyatdesyat")
    match.apply(0, parse_token("7s"))
    say(match, 1, "pokazhi")
    asked = render(ev.Ask(1, 1, view(match, 0), 60_000), HUMAN)
    # lev has not played his card yet and it is his turn: skin is legal too, and said
    # (a club evening, s39: "you show it." alone, over "Your call: pokazyvayu | skin");
    # the lines as sent, a long one folded at 80 columns
    assert " ".join(x.strip() for x in asked).endswith(
        f"{TWO[1]} asks you to show the combination (pokazhi): you show it, or have"
        f" {TWO[1]} play his card first (skin). Your call [60 s]: pokazyvayu | skin"
    )
    asked_ru = render_ru(ev.Ask(1, 1, view(match, 0), 60_000))
    assert " ".join(x.strip() for x in asked_ru).endswith(
        f"{TWO[1]} просит вас показать комбинацию («покажи»): покажите её или велите"
        f" игроку {TWO[1]} сначала сходить («скинь»). Ваш ход [60 с]: показываю | скинь"
    )
    assert "lev asks you to show the combination (pokazhi): you show it." in section(
        "## 3. Styles and the machine-style grammar"
    )
    asker = render(ev.Ask(1, 1, view(match, 1), None, kind=ev.AskKind.STATE), HUMAN)
    assert f"You ask {TWO[0]} to show the combination (pokazhi): {TWO[0]} shows it." in asker
    watched = render(ev.Ask(1, 1, view(match, None), None, kind=ev.AskKind.STATE), HUMAN)
    assert f"{TWO[1]} asks {TWO[0]} to show the combination (pokazhi): {TWO[0]} shows it." in (
        watched
    )


@pytest.mark.timeout(30)
async def test_sort_belongs_to_the_connection(start: Start, connect: Connector) -> None:
    # §4.3a: "Like `style` it works before `login` and belongs to the connection": a
    # person back at his seat on a new connection sees his hand by rank again
    port = await start(match_seed="audit-4.3a")  # (a hand of a Q and a 10 of a suit)
    anna = await connect.raw(port, "anna")
    await anna.send("sort strength")
    await anna.send("login anna")
    token = re.search(r"token=(\S+)'", await anna.read_until(lambda x: "token=" in x))
    assert token is not None
    bob = await connect.machine(port, "bob")
    await anna.send("new 2")
    await anna.read_until(lambda x: x.startswith("You sit at table 1"))
    await bob.send("sit 1")
    by_strength = await anna.read_until(lambda x: x.startswith("Your hand: "))
    await anna.send("quit")
    await anna.wait_closed()
    again = await connect.raw(port, "again")
    await again.send(f"login anna token={token.group(1)}")
    by_rank = await again.read_until(lambda x: x.startswith("Your hand: "))
    assert sorted(by_rank.split()) == sorted(by_strength.split()) and by_rank != by_strength
    for group in hand_cards(by_rank):
        assert group == sorted(group, key=lambda card: RANKS.index(card[:-1])), by_rank


def test_the_russian_prompts_4_3c_shows_are_the_servers() -> None:
    # §4.3c: "the prompt (`Ваш ход [60 с]: пас | играю`, `Ваш ход [60 с]: 7♠, В♠`)":
    # the bidding's, and a card to follow suit with, its ranks Cyrillic (the page had
    # `пас | играю | 7♠, В♠`, a prompt no deal makes: a slip, corrected)
    page = section("### 4.3c `lang en|ru`")
    match = match2(("8s 9s Qs Jh As Kh Ad 9c 10c", "7s Js 7d 9d Jd Kd Ah 10h Qc", "8c"), dealer=1)
    match.names = TWO
    bidding = render_ru(ev.Ask(1, 1, view(match, 0), 60_000))[-1]
    say(match, 0, "igrayu")
    match.apply(0, parse_token("8s"))
    following = render_ru(ev.Ask(1, 1, view(match, 1), 60_000))[-1]
    for prompt in (bidding, following):
        assert f"`{prompt}`" in page, prompt
    assert following == "Ваш ход [60 с]: 7♠, В♠"


@pytest.mark.timeout(30)
async def test_help_at_a_table_offers_a_russian_player_the_calls_as_his_prompt_does(
    start: Start, connect: Connector
) -> None:
    # §4.4: "In the human style the calls you may make now are listed as your prompt
    # (`Your call`) offers them ..., in `lang ru` (§4.3c) in Russian as a Russian player
    # says them (`В♠`, `от короля`)": the bidding's and a card's, as the prompt
    port = await start(match_seed="audit-4.4")
    person = await connect.human(port, "anna")
    bot = await connect.machine(port, "boris")
    await lines_until_pong(person, "lang ru")
    await person.send("new 2")
    await person.read_until(lambda x: x.startswith("Вы за столом 1"))
    await bot.send("sit 1")
    seen: set[bool] = set()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, bot, random.Random(4))
        while len(seen) < 2:
            prompt = await person.read_until(lambda x: x.startswith("Ваш ход ["))
            offered = prompt.split("]: ", 1)[1]
            said = await lines_until_pong(person, "help")
            listed = [x for x in said if x.startswith("Ваши ходы сейчас: ")]
            assert listed, said
            at = said.index(listed[0])
            words = [listed[0], *(x for x in said[at + 1 :] if x.startswith("  "))]
            assert " ".join(x.strip() for x in words) == f"Ваши ходы сейчас: {offered}"
            seen.add(bool(CARD_RU.search(offered)))
            first = offered.split(" | ")[0].split(", ")[0]
            await person.send(first)
        nursery.cancel_scope.cancel()
    assert seen == {True, False}
