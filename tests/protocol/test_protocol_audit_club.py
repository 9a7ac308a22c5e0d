"""An audit of docs/protocol.md against the server, part 2: the club's commands, §5.11
`games` to §5.21 `ignore`. As part 1 (test_protocol_audit.py): each promise a client may
rely on, and (→) the tests that pin it, a module under tests/ and its tests, "here" for
this module's. Every example of these sections is checked here against a real server,
line for line (ids, totals and times by their shape where a server numbers them its own
way; §5.13's human sheets through the server's own renderer), but §5.17's human excerpts
(their "…" stand for lines a deal makes its own), whose lines server/test_history.py and
server/test_history_tertz.py hold to the deal's record.

§5.11 `games`: the 10 most recently finished matches, newest first, forfeited ones too
    → here: test_games_and_fingers_last_are_the_10_newest_matches_newest_first;
    → store/test_players_newest_matches.py
§5.11 NAME checked as `finger`'s: `a name is 2-20 …` (nothing looked up nor echoed),
`games [NAME]` for two words
    → server/test_input.py test_games_checks_the_name_as_finger_does
§5.11 `name` as he is called in his games (`games ＡＮＮ` is `name=ann`), as asked if none
    → server/test_commands.py test_leave_forfeits_a_running_game
§5.11 spends `who`'s allowance
    → server/test_attacks.py test_finger_and_games_spend_the_lists_allowance
§5.11 the `game` line's fields, `forfeit` the seat that forfeited; the example
    → here: test_the_games_example_of_5_11_is_what_the_server_sends;
    → protocol/test_wire.py test_blocks_tables_and_games_round_trip (no forfeit, no field)
§5.11 `winner=-` with `server-lost` or `shutdown` and the last stored deal's totals
    → store/test_stalled_server.py; web/test_stopped_match.py;
    → protocol/test_render_club.py test_a_stopped_match_in_games_says_why_in_both_languages
§5.11 the human line: its id first, the sides as pairs, who forfeited, the minute and zone;
`help games` names the replay
    → here: test_the_human_games_line_of_5_11_is_what_the_server_writes;
    → protocol/test_render_club.py test_games_names_each_match_by_its_id,
      test_a_four_player_game_in_games_names_the_pairs, test_games_names_who_forfeited;
    → protocol/test_render.py test_a_games_line_writes_negative_totals_apart
§5.12 `last`: the last trick at your table; observing, the lowest-numbered table watched
    → server/test_human_table.py test_last_tells_the_last_trick_to_players_and_observers;
    → here: test_a_watcher_of_two_tables_is_told_of_the_lowest_numbered
§5.12 before a deal's first trick, the last trick of an earlier deal
    → here: test_before_a_deals_first_trick_last_tells_the_earlier_deals_last
§5.12 at no table, the last trick of your last finished match, or of the match watched to
its end if that ended later (a tie of the store's whole seconds passed the watched one
over for his own: a server bug, fixed)
    → server/test_last_after.py;
    → here: test_a_watcher_is_told_the_match_he_watched_to_its_end_if_it_ended_later
§5.12, §5.13, §5.17 a kibitzer on another worker than the table's is told the match he
watched
    → store/test_workers_watched_match.py
§5.12 at no table it spends `sheet`'s and `history`'s allowance
    → here: test_last_at_no_table_spends_the_lists_allowance
§5.12 `deal`, `leader`, `cards` from the leader, `winner`; the example; the errors
(`no trick has been taken yet`, `the game has not started`, `not-seated` in `sheet`'s words)
    → server/test_last_after.py;
    → here: test_last_sheet_and_history_are_told_as_their_examples_show;
    → server/test_human_table.py test_last_and_sheet_before_any_trick_or_away_from_a_table
§5.12 the human line; `auto=` and `(by the clock)` for the clock's cards
    → server/test_human_table.py test_last_tells_the_last_trick_to_players_and_observers;
    → server/test_history_clock.py test_last_marks_the_cards_the_clock_played
§5.13 `sheet` takes no argument (`bad-argument text=sheet`)
    → server/test_history_arguments.py
§5.13 a `sheet` line, a `sheet-deal` per finished deal, oldest first, their fields; the
example
    → server/test_sheet_after.py test_after_the_match_sheet_tells_your_last_ones;
    → here: test_last_sheet_and_history_are_told_as_their_examples_show
§5.13 `target=-` where one deal decides
    → here: test_a_sheet_of_a_short_game_has_no_target
§5.13 a forfeit mid-deal: a last row, its outcome the reason, nobody writing
    → server/test_forfeit_record.py test_a_forfeit_mid_deal_records_the_cards_played_and_says_so
§5.13 at no table: the last finished match, or the one watched to its end if later (as
§5.12); `bad-rules` for rules since uninstalled
    → server/test_sheet_after.py
      test_sheet_of_a_last_match_whose_rules_are_gone_is_a_clear_refusal;
    → here: test_a_watcher_is_told_the_match_he_watched_to_its_end_if_it_ended_later,
      test_a_watcher_of_two_tables_is_told_of_the_lowest_numbered
§5.13 the three human sheets shown
    → here: test_the_human_sheets_of_5_13_are_what_the_server_writes
§5.13 the human table: columns by terminal columns, bides by name or number, numbered
columns past 80, a short game's winners and stakes
    → protocol/test_sheet_columns.py; server/test_human_table.py
      test_sheet_lists_every_deal_with_its_written_points_and_totals;
    → server/test_human_short.py; protocol/test_render_short.py
§5.14 `invite`: the only way into a private table; at a public table it just tells
    → server/test_private.py
      test_a_private_table_is_listed_to_nobody_and_entered_only_by_invitation,
      test_an_invitation_to_a_public_table_tells_the_guest_and_anyone_may_sit
§5.14 the reply and the `invite` line; the example
    → here: test_the_invite_example_of_5_14_is_what_the_server_sends
§5.14 a name invited once (`already-invited`, its text), told once
    → server/test_private.py test_a_standing_invitation_is_not_sent_again
§5.14 the invitation outlasts the start: one let in may watch the match
    → here: test_an_invitation_outlasts_the_start_to_watch_and_names_one_seated
§5.14 a guest's invitation is his, not his name's
    → server/test_private.py
      test_a_guests_invitation_goes_with_him_not_to_the_next_guest_of_his_name
§5.14 NAME wherever he is: on another worker too
    → store/test_workers.py
§5.14 invitations count with `say` lines; a refused one costs none
    → server/test_attacks.py test_invitations_share_the_chats_rate_limit_per_sender,
      test_a_refused_invitation_spends_no_chat_allowance
§5.14 NAME who ignores you is not told, and may sit all the same
    → server/test_ignore.py test_table_say_invite_and_rematch_are_kept_from_him_the_match_is_not
§5.14 the errors, nothing changed; the example's refusals (its "the table is full": of
others, misha not at it, or he would be `already-seated`; said so now, a slip corrected)
    → server/test_private.py test_invite_errors_change_nothing;
    → here: test_the_invite_refusals_of_5_14_are_what_the_server_sends,
      test_an_invitation_outlasts_the_start_to_watch_and_names_one_seated
§5.15 `bot`: the reply, the name `house-…` no person may take, the seat kept for it, the
order bots sit in, the seat's `seat-taken` texts, a `sit` without SEAT taking a seat not
kept; the example
    → here: test_the_bot_example_of_5_15_is_what_the_server_sends,
      test_a_sit_without_a_seat_takes_one_no_house_bot_waits_for;
    → server/test_house_bots.py test_a_house_bot_sits_plays_the_match_and_leaves,
      test_a_house_bot_name_cannot_be_taken_by_a_person,
      test_house_bots_sit_in_the_order_they_were_asked_for, test_bot_errors_change_nothing
§5.15 restarted 3 times, then `cannot go on …` (a forfeit) or `could not come`
    → server/test_house_bots.py test_a_house_bot_that_keeps_crashing_forfeits_the_match,
      test_a_house_bot_that_never_comes_frees_its_seat
§5.15 the errors: the kind named when near, LEVEL's usage, no house bots, a ladder's
board, `table-full`, the caps (`busy`, each text, the singular), the starts' rate
(`slow-down`, `wait_ms=`)
    → here: test_no_house_bot_comes_to_a_ladders_board;
    → server/test_house_bots.py test_bot_errors_change_nothing,
      test_without_house_bots_the_command_is_refused,
      test_one_address_cannot_take_every_house_bot,
      test_one_address_cannot_start_house_bots_without_end,
      test_many_addresses_cannot_start_house_bots_without_end,
      test_one_address_cannot_keep_the_server_thinking_with_search_bots,
      test_the_search_refusal_names_the_tables_of_the_address,
      test_the_search_refusal_names_no_private_table_the_asker_may_not_know_of,
      test_a_cap_of_one_is_said_in_the_singular;
    → server/test_slow_down_waits.py
§5.15 the numbers (3 a table, 6 an address, 20, levels 1-5 default 3, 3 restarts, search
tables 1 an address and 4, the starts' rates)
    → here: test_the_numbers_of_5_11_to_5_21_are_the_servers_defaults
§5.15 `rated`: one rated copy a table, never the random bot, nor a private table's or a
guest's match
    → server/test_ratings.py test_a_house_bot_game_is_rated_only_when_asked_and_rates_the_bot_too,
      test_one_rated_copy_of_a_house_bot_a_table,
      test_a_guests_rated_house_bot_is_refused_not_taken_and_forgotten
§5.16 `rematch`: all ask within 60 s, a new table, the same rules and privacy, the seats
one on, a new match
    → server/test_rematch.py test_a_rematch_when_both_ask_rotates_the_seats;
    → here: test_the_numbers_of_5_11_to_5_21_are_the_servers_defaults (60 s)
§5.16 a person is told the offer (not the leaver, nor a program, nor after a board's or a
house bot's match); in Russian
    → server/test_rematch.py test_the_one_who_left_is_not_told_a_rematch_is_on_offer;
    → here: test_a_person_is_not_offered_a_rematch_of_a_ladders_board,
      test_a_person_is_not_offered_a_rematch_of_a_house_bots_match;
    → server/test_human_club_ru.py
§5.16 the reply and the `rematch` line, told once; the others told `waiting=` before their
`ok cmd=sit`; the example
    → here: test_the_rematch_example_of_5_16_is_what_the_server_sends;
    → server/test_rematch.py test_asking_again_is_answered_but_the_others_are_told_once
§5.16 each `ok cmd=sit` before the reply to any later line, under `--workers` too
    → server/test_rematch.py test_a_rematch_seats_each_player_before_his_next_line_is_answered;
    → store/test_workers_rematch_order.py
§5.16 the offer off: `timeout`, `left`, `elsewhere`, `drain`, `server-stopped`,
`server-lost`; the example's `off=left`
    → server/test_rematch.py test_a_rematch_is_off_when_a_player_leaves_or_goes_elsewhere,
      test_a_rematch_not_agreed_in_time_is_off,
      test_offers_of_matches_ended_apart_are_off_each_at_its_own_time;
    → server/test_drain.py; store/test_workers_rematch_lost.py;
    → here: test_the_rematch_examples_offer_off_is_what_the_server_sends
§5.16 the errors: `bad-argument`, `already-seated`, `not-allowed` (none on offer, a
ladder's board, a house bot's match; in Russian); `busy` past the table cap (only the
first asks were checked, and the last opened a table past it: a server bug, fixed)
    → here: test_rematch_refusals_say_why_and_change_nothing,
      test_a_rematch_past_the_servers_table_cap_is_busy;
    → server/test_rematch.py test_a_rematch_when_both_ask_rotates_the_seats;
    → server/test_house_bots.py test_a_house_bot_sits_plays_the_match_and_leaves;
    → server/test_human_club_ru.py
§5.17 `history` takes no argument; the table watched, as for `last`
    → server/test_history_arguments.py;
    → here: test_a_watcher_of_two_tables_is_told_of_the_lowest_numbered
§5.17 the lines and their fields, the deal being played with `-`; only what the table saw
    → server/test_history.py test_history_tells_every_deal_and_trick;
    → here: test_last_sheet_and_history_are_told_as_their_examples_show (the example)
§5.17 Tertz: `broken=`, `draws=` of finished deals only, none of a board before release,
`swap=`
    → server/test_history_tertz.py; server/test_history_board.py; tertz/test_history_swap.py
§5.17 a trick left untaken: `unfinished_leader=`, `unfinished=`, `unfinished_swap=`, the
human line under the tricks
    → protocol/test_render_club.py test_history_shows_the_trick_a_deal_ended_on_untaken;
    → tertz/test_history_swap.py
§5.17 the clock's cards: `auto=`, `unfinished_auto=`, `by the clock:` lines
    → server/test_history_clock.py test_history_marks_the_cards_the_clock_played
§5.17 at no table the last match (or one watched to its end, if later), `deals=0` for one
ended before any call and its human words
    → server/test_history.py test_after_the_match_history_tells_your_last_one;
    → server/test_sheet_after.py
      test_a_match_left_before_any_call_still_has_its_history_and_sheet;
    → here: test_a_watcher_is_told_the_match_he_watched_to_its_end_if_it_ended_later
§5.17 the human style: title by sides, declarations scored, hanging points written, no
trump yet / void, within 80 columns; Tertz's break, swap and draws in words
    → server/test_history.py; protocol/test_render_club.py
      (test_history_says_what_each_deals_declarations_scored …
      test_a_long_history_heading_keeps_each_side_with_its_points);
    → server/test_history_tertz.py
§5.17 the errors (`the game has not started`, `you sit at no table, observe none, and have
no match`); `history` and `sheet` spend `who`'s allowance
    → server/test_history.py; server/test_attacks.py
      test_history_and_sheet_spend_the_lists_allowance;
    → here: test_last_sheet_and_history_are_told_as_their_examples_show
§5.18 what is rated: public tables of registered players; not private, reserved, a house
bot unasked, a guest, aborted, abandoned; the forfeiter ranks last
    → server/test_ratings.py test_guests_and_private_tables_are_not_rated,
      test_a_match_left_before_every_player_made_a_call_is_not_rated,
      test_a_match_both_players_left_is_not_rated,
      test_a_three_player_forfeit_ranks_the_leaver_below_who_stayed;
    → server/test_rating_ranks.py
§5.18 the ratings stored before the `match-end` is told
    → server/test_ratings.py test_a_rated_match_moves_top_and_finger;
    → here: test_the_top_and_finger_examples_of_5_18_are_what_the_server_sends (both read
      right after it)
§5.18 a waiting table tells its people when its match's rating changes (`info … rated=`)
    → server/test_ratings.py
      test_the_players_are_told_when_a_guest_or_an_unrated_bot_unrates_the_match,
      test_a_registered_player_sitting_where_the_match_is_unrated_is_told_so,
      test_a_registered_player_back_at_a_waiting_table_is_told_it_is_unrated,
      test_the_match_is_rated_again_when_an_unrated_bot_could_not_come
§5.18 `top`: the defaults (the asker's game, else the club's), variants named as for `new`,
100 to a page, the fields and their decimals; the example, in both styles
    → here: test_the_numbers_of_5_11_to_5_21_are_the_servers_defaults (100);
    → server/test_ratings.py test_top_alone_shows_the_game_its_asker_plays_rated_most,
      test_top_alone_shows_the_clubs_game_to_one_who_played_none,
      test_top_numbers_each_page_from_where_it_starts;
    → server/test_top_cost.py;
    → here: test_the_top_and_finger_examples_of_5_18_are_what_the_server_sends
§5.18 a number after a named VARIANT is PLAYERS, alone a PAGE; a page past the last
    → here: test_a_number_after_a_named_variant_is_players_and_alone_a_page;
    → server/test_top_cost.py
§5.18 each `top` read spends the allowance before the store is looked at; the page read,
not the standings
    → server/test_top_cost.py
§5.18 `finger`: the fields, `name` as he is called, `last` his 10 newest; the example, in
both styles
    → server/test_ratings.py test_a_rated_match_moves_top_and_finger;
    → here: test_the_top_and_finger_examples_of_5_18_are_what_the_server_sends,
      test_games_and_fingers_last_are_the_10_newest_matches_newest_first
§5.18 a house bot's name (`house_bot=1`, a copy answered as its bot, before its first
match), the random bot `never_rated=1`, and their words
    → server/test_ratings.py test_finger_of_the_random_house_bot_says_it_is_never_rated,
      test_a_house_bot_game_is_rated_only_when_asked_and_rates_the_bot_too;
    → protocol/test_messages.py
§5.18 the errors (`bad-argument`, `unknown-player` as typed, `slow-down`)
    → server/test_ratings.py test_top_and_finger_for_people;
    → server/test_attacks.py test_finger_and_games_spend_the_lists_allowance
§5.19 the eight commands the admins' (`… is for the server's admins`), listed by `help` to
them; none acts on an admin; NAME and REASON/TEXT refused as `login` and `say` refuse;
the usage without NAME
    → server/test_moderation.py test_the_moderation_commands_are_the_admins_own,
      test_help_tells_an_admin_the_moderation_commands_and_everyone_that_chat_is_logged
§5.19 under `--workers` each reaches a player on any worker
    → store/test_workers_moderation.py
§5.19 each action logged (`moderation`)
    → server/test_moderation.py
      test_a_kicked_player_is_told_why_his_seat_goes_away_and_he_may_come_back
§5.19 `announce` to everyone logged in, its tag and human words, in Russian too
    → server/test_moderation.py
      test_an_announcement_reaches_everyone_logged_in_marked_as_the_admins;
    → here: test_an_announcement_skips_connections_not_logged_in;
    → server/test_ignore.py test_an_admins_announcement_reaches_one_who_ignores_him
§5.19 `kick`: the `bye`, a disconnect like any other, back with the token;
`unknown-player`
    → server/test_moderation.py
      test_a_kicked_player_is_told_why_his_seat_goes_away_and_he_may_come_back,
      test_the_moderation_commands_are_the_admins_own
§5.19 `ban`: `banned` before any password, a guest's name too, kept through a restart,
`disconnected=1|0`, one logging in meanwhile; `unban`, `bans`; a name as its player is
called, else as typed
    → server/test_moderation.py test_a_ban_keeps_a_name_out_through_a_restart_until_unban,
      test_a_ban_made_while_the_name_logs_in_closes_that_login,
      test_a_ban_another_server_makes_while_the_name_logs_in_refuses_that_login,
      test_a_registered_name_away_is_banned_and_muted_as_its_account_spells_it;
    → store/test_bans.py
§5.19 `bans` the oldest first (to the store's whole second), a ban anew from now with its
new reason, a REASON's blanks one space, the human lines (which leave `: REASON` out
without one: the page had it always, a slip corrected, `mutes` alike)
    → here: test_bans_lists_the_oldest_first_a_ban_anew_from_now_in_either_style
§5.19 `mute`: MINUTES 60 by default, 1 to 10080, a number-like word refused; `muted` for
`say` and `invite`; told at once; kept through a restart and across servers; `unmute`,
`mutes` (the order, `left=`, the human lines)
    → server/test_moderation.py
      test_a_muted_player_may_not_say_or_invite_till_the_time_is_up_or_unmute,
      test_a_mute_outlasts_a_restart_and_unmute_ends_it_in_the_store_too,
      test_mutes_lists_who_is_muted_by_whom_why_and_for_how_long_still;
    → store/test_mutes.py; store/test_mutes_across_servers.py;
      store/test_workers_moderation.py;
    → here: test_the_numbers_of_5_11_to_5_21_are_the_servers_defaults
§5.19 the three sessions' example, and the banned login after it
    → here: test_the_moderation_examples_of_5_19_are_what_the_server_sends
§5.20 `password OLD NEW`: the reply, the new one logs in, the old one no longer; the
example
    → server/test_password_change.py test_the_new_password_logs_in_and_the_old_one_no_longer;
    → here: test_the_password_example_of_5_20_is_what_the_server_sends
§5.20 a wrong OLD counts as a login's, the third closes; logged `login_failed`
    → server/test_password_change.py
      test_a_wrong_old_password_changes_nothing_and_counts_as_a_wrong_login,
      test_a_wrong_old_password_is_logged_for_a_ban_tool
§5.20 a login checking the old password meanwhile is refused
    → server/test_password_changed_meanwhile.py
§5.20 the refusals before any check (usage, the same words, the reserved beginnings,
`Token=` taken), a guest's, a vouched-for admin's
    → server/test_password_change.py test_what_cannot_be_a_password_is_refused_before_any_check;
    → server/test_local_login.py
§5.20 `slow-down` as registrations, `busy` past their queue; neither word ever logged
    → server/test_password_change.py test_new_passwords_are_limited_as_registrations_are,
      test_a_bug_in_a_change_logs_neither_password;
    → here: test_a_new_password_past_the_registrations_queue_is_busy
§5.21 `ignore`: his `say` (lobby, table, watchers), `invite` and `rematch` ask kept from
you, he not told, the invitation still lets you in; an admin's `announce` and the
table's lines told as ever
    → server/test_ignore.py test_an_ignored_players_lobby_say_is_not_told,
      test_table_say_invite_and_rematch_are_kept_from_him_the_match_is_not,
      test_a_watchers_say_is_kept_from_a_watcher_who_ignores_him,
      test_an_admins_announcement_reaches_one_who_ignores_him
§5.21 NAME read as names are; any valid name; listed as its player writes it online, else
as typed, in the order added
    → server/test_ignore.py;
    → here: test_the_ignored_are_listed_as_they_write_their_names_online_else_as_typed
§5.21 the replies (added, already, unignore, the list, none); the example
    → server/test_ignore.py test_a_registered_list_outlasts_a_login_and_a_guests_does_not,
      test_the_list_is_bounded_and_bad_input_changes_nothing;
    → here: test_the_ignore_example_of_5_21_is_what_the_server_sends
§5.21 the refusals, 100 names at most; each change spends `who`'s allowance, a refusal none
    → server/test_ignore.py test_the_list_is_bounded_and_bad_input_changes_nothing,
      test_each_change_spends_a_list_and_one_refused_so_changes_nothing
§5.21 under `--workers`: a table another worker holds keeps his talk from you too
    → store/test_workers_ignore.py
§5.21 kept: a registered list in the store, a guest's with his connection (a token's
login taking it over keeps it); in his language
    → server/test_ignore.py test_a_registered_list_outlasts_a_login_and_a_guests_does_not,
      test_a_person_is_answered_in_his_language;
    → here: test_a_guests_list_goes_with_his_connection_to_a_token_login

Left unpinned: §5.16's "each new seat is held for its player only" (every player is
seated the moment the rematch completes: no line of a client's can come between).
"""

from __future__ import annotations

import random
import re
import sys
import threading
from collections.abc import Callable

import pytest
import trio

from deberc_net.game.sheet import SheetRow
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, render, sheet_lines
from deberc_net.server import accounts
from deberc_net.server.config import Config
from deberc_net.server.house import (
    DEFAULT_SEARCH_LEVEL,
    MAX_RESTARTS,
    SEARCH_LEVELS,
    HouseBots,
)
from deberc_net.server.ignoring import IGNORE_MOST
from deberc_net.server.moderation import MUTE_MINUTES, MUTE_MOST_MINUTES
from deberc_net.server.rematch import REMATCH_S
from tests.protocol.conftest import Register, Start
from tests.protocol.doc_examples import example, examples, lines_until_pong, sent
from tests.server.client import (
    BOT_START_S,
    LineClient,
    a_whole_match,
    fields,
    is_event,
    next_ask,
    play_human,
    play_machine,
    random_legal,
)
from tests.server.conftest import Connector


def shaped(
    documented: str, got: str, *, fixed: tuple[str, ...] = (), free: tuple[str, ...] = ()
) -> None:
    """``got`` is the documented line but for its numbers (ids, totals, times): the
    same tag, the same fields in the same order, the ``fixed`` ones to the letter (the
    ``free`` ones, a deal's own, are whatever the deal made them)."""
    want_tag, want = fields(documented)
    got_tag, have = fields(got)
    assert (got_tag, list(have)) == (want_tag, list(want)), got
    for key, value in want.items():
        if key in free:
            continue
        if key in fixed:
            assert have[key] == value, (key, got)
        else:
            pattern = re.sub(r"\\-?\d+|\d+", r"-?\\d+", re.escape(value))
            assert re.fullmatch(pattern, have[key]), (key, value, got)


async def tables_before(port: int, connect: Connector, count: int) -> None:
    """``count`` tables opened and left waiting, so the next one opened is count + 1."""
    for n in range(count):
        host = await connect.machine(port, f"host{n}")
        await host.send("new 2")
        assert (await host.expect("ok", cmd="sit"))["table"] == str(n + 1)


async def both_call_then_leave(stayer: LineClient, leaver: LineClient) -> None:
    """Each of the two seats makes a call of its own, then ``leaver`` leaves: a match
    over by forfeit that counts (§5.18: an aborted one would not be rated)."""
    rng = random.Random(3)
    called: set[str] = set()
    while len(called) < 2:
        asked = await next_ask(stayer, leaver)
        assert asked is not None
        ask, client = asked
        await client.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
        called.add(client.label)
    await leaver.send("leave!")
    await leaver.expect("ok", cmd="leave")
    await stayer.read_until(lambda x: is_event(x, "match-end"))


@pytest.mark.timeout(30)
async def test_the_ignore_example_of_5_21_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    documented = example("### 5.21 `ignore [NAME]`, `unignore NAME`")
    ann = await connect.machine(port, "ann")
    for line, answer in zip(documented[::2], documented[1::2], strict=True):
        assert await lines_until_pong(ann, sent(line)) == [answer], line


@pytest.mark.timeout(30)
async def test_the_password_example_of_5_20_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    [line, answer] = example("### 5.20 `password OLD NEW`")
    ann = await connect.machine(port, "ann", "first1")
    assert await lines_until_pong(ann, sent(line)) == [answer]
    await connect.machine(port, "ann", "second2")  # the new one logs in


@pytest.mark.timeout(30)
async def test_the_invite_example_of_5_14_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    invited = examples("### 5.14 `invite NAME`")[0]
    await tables_before(port, connect, 2)
    anna = await connect.machine(port, "anna")
    misha = await connect.machine(port, "misha")
    await anna.send("new 2 private")
    assert (await anna.expect("ok", cmd="sit"))["table"] == "3"
    await anna.expect("event", kind="seated")
    ask, answer, note, told = invited
    assert note == "(misha receives)"
    assert await lines_until_pong(anna, sent(ask)) == [answer]
    assert await misha.read_until(lambda _: True) == told


@pytest.mark.timeout(30)
async def test_the_invite_refusals_of_5_14_are_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    # "invite misha (the table is full)": full of others; misha, sitting there himself,
    # would be refused as already-seated, the error of that case
    ask_zed, no_zed, ask_full, full = examples("### 5.14 `invite NAME`")[1]
    await tables_before(port, connect, 2)
    anna = await connect.machine(port, "anna")
    await connect.machine(port, "misha")
    olga = await connect.machine(port, "olga")
    await anna.send("new 2")
    assert (await anna.expect("ok", cmd="sit"))["table"] == "3"
    assert await lines_until_pong(anna, sent(ask_zed)) == [
        "event seq=1 table=3 kind=seated name=anna seat=0",
        no_zed,
    ]
    assert ask_full.endswith("(the table is full of others)")
    await olga.send("sit 3")
    await anna.expect("event", kind="start")
    said = await lines_until_pong(anna, sent(ask_full))
    assert [x for x in said if not x.startswith(("event ", "ask ", "state "))] == [full]


async def a_match_at_table_3(port: int, connect: Connector) -> tuple[LineClient, LineClient]:
    """anna (seat 0) and misha (seat 1) after their match at table 3 ended (misha
    left it at once)."""
    await tables_before(port, connect, 2)
    anna = await connect.machine(port, "anna")
    misha = await connect.machine(port, "misha")
    await anna.send("new 2")
    assert (await anna.expect("ok", cmd="sit"))["table"] == "3"
    await misha.send("sit 3")
    await misha.expect("event", kind="start")
    await misha.send("leave!")
    for client in (anna, misha):
        await client.read_until(lambda x: is_event(x, "match-end"))
    return anna, misha


REMATCH = "### 5.16 `rematch`"


@pytest.mark.timeout(30)
async def test_the_rematch_example_of_5_16_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    ask, asked, note, told, agree, agreed, seated, *_ = example(REMATCH)
    assert note == "(misha receives)"
    anna, misha = await a_match_at_table_3(port, connect)
    assert await lines_until_pong(anna, sent(ask)) == [asked]
    assert await misha.read_until(lambda x: x.startswith("rematch ")) == told
    said = await lines_until_pong(misha, sent(agree))
    assert said[:2] == [agreed, seated]  # then the new table's own lines
    assert all(x.startswith(("event ", "ask ", "state ")) for x in said[2:]), said
    # "When the last one asks, everyone gets `ok cmd=sit` ... (the others a `rematch …
    # waiting=` line first)"
    assert [await anna.read_until(lambda _: True) for _ in "ab"] == [
        "rematch table=3 asked=anna,misha waiting= off=- by=- text=Everyone agrees: the"
        " rematch of table 3 starts.",
        "ok cmd=sit table=4 seat=1 seats=misha,anna text=You sit at table 4, seat 1. At the"
        " table: misha (seat 0).",
    ]


@pytest.mark.timeout(30)
async def test_the_rematch_examples_offer_off_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    ask, asked, *_, note, off = example(REMATCH)
    assert note == "(or, had misha gone)"
    anna, misha = await a_match_at_table_3(port, connect)
    assert await lines_until_pong(anna, sent(ask)) == [asked]
    await misha.send("quit")
    assert await anna.read_until(lambda _: True) == off


MODERATION = (
    "### 5.19 Moderation (admins): `announce`, `kick`, `ban`, `unban`, `bans`, `mute`,"
    " `unmute`, `mutes`"
)
SPOKEN = re.compile(r"\[(\w+)\]")  # the speaker, padded to 8 columns


@pytest.mark.timeout(30)
async def test_the_moderation_examples_of_5_19_are_what_the_server_sends(
    start: Start, connect: Connector, register: Register
) -> None:
    # three sessions, each line of the transcript read where it is said to arrive, in
    # its order there (the times of 'mutes' and 'bans' as the clock has them)
    sessions, after = examples(MODERATION)
    await register("boss", "owners")
    await register("anna", "secret1")
    port = await start(admins=["boss"])
    clients = {
        "boss": await connect.machine(port, "boss", "owners"),
        "anna": await connect.machine(port, "anna", "secret1"),
        "misha": await connect.human(port, "misha"),
    }
    await clients["misha"].send("ping")  # the rest of his greeting read
    await clients["misha"].read_until(lambda x: x == "pong")
    for line in sessions:
        said = SPOKEN.match(line)
        assert said and line[said.end() : 8].strip() == "", line
        who, text = said[1], line[8:]
        client = clients[who]
        if text.startswith("> "):
            await client.send(sent(text))
            continue
        got = await client.read_until(lambda _: True)
        if " since=" in text or " until=" in text:
            shaped(text, got, fixed=("name", "by", "left", "text"))
        else:
            assert got == text, line
    ask, refused = after
    newcomer = await connect.raw(port, "newcomer")
    await newcomer.send("style machine")
    await newcomer.expect("ok", cmd="style")
    assert await lines_until_pong(newcomer, sent(ask)) == [refused]


@pytest.mark.timeout(30)
async def test_the_games_example_of_5_11_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    # misha (seat 0) leaves the match: bot1 wins it by his forfeit, `forfeit=0`
    ask, head, game = example("### 5.11 `games [NAME]`")
    misha = await connect.machine(port, "misha")
    bot1 = await connect.machine(port, "bot1")
    await misha.send("new 2")
    table = (await misha.expect("ok", cmd="sit"))["table"]
    await bot1.send(f"sit {table}")
    await both_call_then_leave(bot1, misha)
    said = await lines_until_pong(bot1, sent(ask))
    assert said[0] == head
    shaped(game, said[1], fixed=("players", "variant", "winner", "reason", "forfeit"))
    assert len(said) == 2


@pytest.mark.timeout(60)
async def test_last_sheet_and_history_are_told_as_their_examples_show(
    port: int, connect: Connector
) -> None:
    # §5.12, §5.13, §5.17: the refusals before a trick, then each command's lines at the
    # table and, the match over, at no table (the match read from the store)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    no_match = "error code=not-seated text=you sit at no table, observe none, and have no match"
    for command in ("last", "sheet", "history"):
        assert await lines_until_pong(ann, command) == [no_match], command
    await ann.send("new 2 to-301")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    not_started = "error code=wrong-phase text=the game has not started"
    for command in ("last", "history"):
        assert await lines_until_pong(ann, command) == [not_started], command
    eve = await connect.machine(port, "eve")  # a watcher: the seats' asks stay unread
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")
    await eve.expect("event", kind="deal")
    said = await lines_until_pong(eve, "last")
    assert said[-1] == "error code=wrong-phase text=no trick has been taken yet", said
    await a_match_played_on(ann, bob)
    documented_last = example("### 5.12 `last`")[1]
    for client in (ann, bob):  # each at no table now: his last finished match
        [last] = await lines_until_pong(client, "last")
        shaped(
            documented_last,
            last.replace(f"table={table} ", "table=3 "),
            fixed=("table",),
            free=("cards",),
        )
    head, *deals = await lines_until_pong(ann, "sheet")
    documented_head, *documented_deals = example("### 5.13 `sheet`")[1:]
    shaped(documented_head, head.replace(f"table={table} ", "table=3 "), fixed=("table", "target"))
    assert len(deals) == int(fields(head)[1]["deals"]) > 1
    for n, deal in enumerate(deals, 1):
        assert fields(deal)[1]["deal"] == str(n)
        shaped(documented_deals[0], deal, free=("table", "deal", "outcome"))
    documented = example("### 5.17 `history`")[1:]
    told = await lines_until_pong(ann, "history")
    shaped(documented[0], told[0], free=("table", "match"))
    assert fields(told[0])[1]["deals"] == str(len(deals))
    for line in told[1:]:
        kind = line.split(" ", 1)[0]
        [model] = [x for x in documented[:3] if x.startswith(f"{kind} ")]
        # a deal whose declarations counted, that left points hanging or won them
        # appends them (§5.17's prose): the example's deal has none (a hanging bide's
        # 'hanging=' was missing here, and the test failed when the seed made one)
        told_fields = fields(line)[1]
        for item in told_fields.get("scored", "").split(","):
            assert not item or re.fullmatch(r"\d:\d+:\S+", item), line
        base = [w for w in line.split(" ") if w.split("=", 1)[0] not in HISTORY_APPENDED]
        shaped(model, " ".join(base), free=tuple(fields(model)[1]))  # the fields, in order


# the fields a history-deal appends only when its deal has them (docs/protocol.md §5.17)
HISTORY_APPENDED = frozenset(
    {"scored", "scored_to", "scored_hangs", "hung", "hanging", "hanging_after", "stake"}
)


async def a_match_played_on(ann: LineClient, bob: LineClient) -> None:
    """ann and bob, seated, play the match to its end at random."""
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(6))
        nursery.start_soon(play_machine, bob, random.Random(7))


RATINGS = "### 5.18 Ratings: `top [VARIANT] [PLAYERS] [PAGE]` and `finger [NAME]`"


@pytest.mark.timeout(60)
async def test_the_top_and_finger_examples_of_5_18_are_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    # anna's first match, with a guest, is not rated; her second, with misha, both
    # registered, each having made a call before he left, is: one game each
    (top, *standings), (finger, *fingered), human = examples(RATINGS)
    anna = await connect.machine(port, "anna", "secret1")
    misha = await connect.machine(port, "misha", "secret2")
    gus = await connect.machine(port, "gus")
    for other in (gus, misha):
        await anna.send("new 2")
        table = (await anna.expect("ok", cmd="sit"))["table"]
        await other.send(f"sit {table}")
        await both_call_then_leave(anna, other)
    assert await lines_until_pong(anna, sent(top)) == standings
    olga = await connect.machine(port, "olga")
    said = await lines_until_pong(olga, sent(finger))
    shaped(fingered[0], said[0], fixed=("name", "registered", "online", "ratings"))
    assert said[1:] == fingered[1:]
    person = await connect.human(port, "eve")
    await person.send("ping")  # the rest of the greeting read
    await person.read_until(lambda x: x == "pong")
    assert (await lines_until_pong(person, "top moscow 2"))[:2] == human[:2]
    told = await lines_until_pong(person, "finger anna")
    ids = re.findall(r"m\d+", told[0])
    assert told == [x.replace("m14 m9", " ".join(ids)) for x in human[2:]]


@pytest.mark.timeout(60)
async def test_the_bot_example_of_5_15_is_what_the_server_sends(
    start: Start, connect: Connector
) -> None:
    ask, ok, seated, started = example("### 5.15 `bot heuristic|random|search [LEVEL] [rated]`")
    port = await start(house_bots=True)
    await tables_before(port, connect, 4)
    anna = await connect.machine(port, "anna")
    await anna.send("new 2")
    assert (await anna.expect("ok", cmd="sit"))["table"] == "5"
    await anna.expect("event", kind="seated")
    assert await lines_until_pong(anna, sent(ask)) == [ok]
    assert await anna.read_until(lambda _: True, BOT_START_S) == seated
    shaped(started, await anna.read_until(lambda _: True), fixed=("table", "kind", "players"))
    await anna.send("leave!")  # the bot quits as its match ends
    await anna.expect("ok", cmd="leave")


async def a_match_left_at_once(host: LineClient, guest: LineClient) -> tuple[str, str]:
    """``host`` opens a table, ``guest`` sits and leaves the match at once: its table
    and match id."""
    await host.send("new 2")
    table = (await host.expect("ok", cmd="sit"))["table"]
    await guest.send(f"sit {table}")
    match = (await guest.expect("event", kind="start"))["match"]
    await guest.send("leave!")
    await host.read_until(lambda x: is_event(x, "match-end"))
    await guest.expect("ok", cmd="leave")
    return table, match


@pytest.mark.timeout(60)
async def test_games_and_fingers_last_are_the_10_newest_matches_newest_first(
    start: Start, connect: Connector
) -> None:
    # §5.11 "The 10 most recently finished matches ..., newest first, including
    # forfeited ones"; §5.18 finger's `last`: "his last 10 finished matches' ids"
    port = await start(seat_churn_burst=50.0)  # 11 tables taken and left at once
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    played = [(await a_match_left_at_once(ann, bob))[1] for _ in range(11)]
    newest = played[::-1][:10]
    asker = await connect.machine(port, "eve")
    head, *rows = await lines_until_pong(asker, "games ann")
    assert head == "games name=ann count=10"
    assert [fields(x)[1]["match"] for x in rows] == newest
    assert {fields(x)[1]["reason"] for x in rows} == {"left"}
    [finger] = await lines_until_pong(asker, "finger ann")
    assert fields(finger)[1]["last"] == ",".join(newest)


@pytest.mark.timeout(60)
async def test_a_watcher_of_two_tables_is_told_of_the_lowest_numbered(
    port: int, connect: Connector
) -> None:
    # §5.12 "observing and not seated: the lowest-numbered table you observe", and so
    # §5.13 and §5.17 ("as for `last`"), whichever he began to watch first
    pairs = [await connect.machine(port, name) for name in ("ann", "bob", "cid", "dan")]
    tables = []
    for host, guest in (pairs[:2], pairs[2:]):
        await host.send("new 2")
        tables.append((await host.expect("ok", cmd="sit"))["table"])
        await guest.send(f"sit {tables[-1]}")
        await guest.expect("event", kind="start")
    eve = await connect.machine(port, "eve")
    for table in reversed(tables):
        await eve.send(f"observe {table}")
        await eve.expect("ok", cmd="observe")
    await eve.read_until(lambda x: x.startswith("state ") and f"table={tables[0]} " in x)
    for command in ("history", "sheet"):
        said = await lines_until_pong(eve, command)
        heads = [x for x in said if x.startswith(f"{command} ")]
        assert [fields(x)[1]["table"] for x in heads] == [tables[0]], said


@pytest.mark.timeout(60)
async def test_before_a_deals_first_trick_last_tells_the_earlier_deals_last(
    port: int, connect: Connector
) -> None:
    # §5.12 "in this deal, or, before the first trick of a deal, the last trick of an
    # earlier deal"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")  # asks as a watcher: the seats' asks unread
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")

    def a_deal_after_a_trick() -> Callable[[str], bool]:
        """A stop: a deal dealt after a trick was taken in an earlier one."""
        taken = [False]

        def stop(line: str) -> bool:
            taken[0] = taken[0] or is_event(line, "trick")
            return taken[0] and is_event(line, "deal")

        return stop

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1), a_deal_after_a_trick())
        nursery.start_soon(play_machine, bob, random.Random(2), a_deal_after_a_trick())
    deal = fields(await eve.read_until(a_deal_after_a_trick()))[1]["deal"]
    tricks = [fields(x)[1] for x in eve.lines if is_event(x, "trick")]
    said = [x for x in await lines_until_pong(eve, "last") if x.startswith("last ")]
    assert len(said) == 1
    told = fields(said[0])[1]
    assert int(told["deal"]) < int(deal) and told["table"] == table
    assert (told["cards"], told["winner"]) == (tricks[-1]["cards"], tricks[-1]["winner"])


@pytest.mark.timeout(60)
async def test_a_watcher_is_told_the_match_he_watched_to_its_end_if_it_ended_later(
    port: int, connect: Connector
) -> None:
    # §5.12, §5.13, §5.17: at no table, "your last finished match (or, if it ended later,
    # that of the match this connection last observed to its end)"
    eve = await connect.machine(port, "eve")
    cid = await connect.machine(port, "cid")
    _, own = await a_match_left_at_once(eve, cid)
    for line in ("history", "games eve"):
        assert own in "".join(await lines_until_pong(eve, line)), line
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")
    watched = (await eve.expect("event", kind="start"))["match"]
    await a_match_played_on(ann, bob)
    await eve.read_until(lambda x: is_event(x, "match-end"))
    assert (await lines_until_pong(eve, "history"))[0].startswith(
        f"history table={table} match={watched} "
    )
    assert (await lines_until_pong(eve, "sheet"))[0].startswith(f"sheet table={table} ")
    assert (await lines_until_pong(eve, "last"))[0].startswith(f"last table={table} ")
    _, again = await a_match_left_at_once(eve, cid)  # her own, ended later: hers again
    assert f"match={again} " in (await lines_until_pong(eve, "history"))[0]


@pytest.mark.timeout(30)
async def test_last_at_no_table_spends_the_lists_allowance(
    start: Start, connect: Connector
) -> None:
    # §5.12: at no table `last` is "read from the store, it spends their allowance"
    # (that of `sheet` and `history`, §5.17: `who`'s)
    port = await start(lists_burst=2, lists_per_s=0.001)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await a_match_left_at_once(ann, bob)
    said = [fields(x) for x in await lines_until_pong(ann, "last")]
    assert said == [("error", {"code": "wrong-phase", "text": "no trick has been taken yet"})]
    [(tag, refused)] = [fields(x) for x in await lines_until_pong(ann, "history")]
    assert tag == "history"
    [(tag, refused)] = [fields(x) for x in await lines_until_pong(ann, "last")]
    seconds = -(-int(refused.pop("wait_ms")) // 1000)
    assert (tag, refused) == (
        "error",
        {"code": "slow-down", "cmd": "last", "text": f"too many 'last' at once: wait {seconds} s"},
    )


@pytest.mark.timeout(30)
async def test_an_invitation_outlasts_the_start_to_watch_and_names_one_seated(
    port: int, connect: Connector
) -> None:
    # §5.14: "Nor does it lapse when the match starts: ... one who was let in may still
    # watch a private table's match"; `already-seated` (NAME sits at this table)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    cat = await connect.machine(port, "cat")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    for name in ("bob", "cat"):
        await ann.send(f"invite {name}")
        await ann.expect("ok", cmd="invite", name=name)
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="start")
    said = [x for x in await lines_until_pong(ann, "invite BOB") if x.startswith("error ")]
    assert said == [f"error code=already-seated text=bob already sits at table {table}"]
    await cat.expect("invite")
    said = await lines_until_pong(cat, f"observe {table}")
    assert said[0] == f"ok cmd=observe table={table} text=You observe table {table}."
    assert any(x.startswith("state seq=") and " phase=bidding " in x for x in said), said


def test_the_numbers_of_5_11_to_5_21_are_the_servers_defaults() -> None:
    # §5.15: 3 house bots a table, 6 an address, 20 on the server, search levels 1-5
    # (3 by default), 3 restarts; search bots at 1 table an address, 4 on the server;
    # starts 6 at once an address then one every 10 s, 20 at once then one a second;
    # §5.16: 60 s; §5.18: 100 rated players a page; §5.19: a mute of 60 min, a week at
    # most; §5.21: 100 names
    config = Config()
    assert (config.house_bots_per_table, config.house_bots_per_address) == (3, 6)
    assert config.max_house_bots == 20 and not config.house_bots
    assert (config.house_search_tables_per_address, config.max_house_search_tables) == (1, 4)
    assert config.house_bot_starts_per_address_burst == 6
    assert config.house_bot_starts_per_address_per_s == 0.1
    assert (config.house_bot_starts_burst, config.house_bot_starts_per_s) == (20, 1)
    assert (list(SEARCH_LEVELS), DEFAULT_SEARCH_LEVEL, MAX_RESTARTS) == ([1, 2, 3, 4, 5], 3, 3)
    assert REMATCH_S == 60
    assert (MUTE_MINUTES, MUTE_MOST_MINUTES) == (60, 10080)
    assert IGNORE_MOST == 100
    assert config.page_size == 100  # §5.18: `top`'s 100 to a page, as `who`'s


@pytest.mark.timeout(30)
async def test_bans_lists_the_oldest_first_a_ban_anew_from_now_in_either_style(
    start: Start, connect: Connector, register: Register
) -> None:
    # §5.19 `bans`: "a line a ban, the oldest first", the human style's words; "A name
    # banned already is banned anew: the new reason, from now"; a REASON's "runs of
    # blanks one space"
    await register("boss", "owners")
    port = await start(admins=["boss"])
    boss = await connect.machine(port, "boss", "owners")

    async def in_words(line: str) -> list[str]:
        """What the human style says to ``line``."""
        await lines_until_pong(boss, "style human")
        said = await lines_until_pong(boss, line)
        await lines_until_pong(boss, "style machine")
        return said

    assert await in_words("bans") == ["No name is banned."]
    for line in ("ban ann  first   time", "ban bob", "ban ANN second"):
        [ok] = await lines_until_pong(boss, line)
        assert ok.startswith("ok cmd=ban "), ok
    head, *listed = await lines_until_pong(boss, "bans")
    assert head == "bans count=2 addresses=0"
    # (the store keeps whole seconds, a tie in the order of the names): ann's second
    # ban replaced her first, its reason and its time, and is named as typed now
    bans = sorted((f["since"], f["name"], f["text"]) for _, f in map(fields, listed))
    assert [fields(x)[1]["since"] for x in listed] == [since for since, _, _ in bans]
    assert {(name, text) for _, name, text in bans} == {("ANN", "second"), ("bob", "")}
    assert await in_words("bans") == ["Banned names: 2."] + [
        f"  {name}: by boss, {since.replace('_', ' ')} UTC" + (f": {text}" if text else "")
        for since, name, text in bans
    ]
    await lines_until_pong(boss, "ban cid  a \t  b")
    assert fields((await lines_until_pong(boss, "bans"))[-1])[1]["text"] == "a b"


@pytest.mark.timeout(30)
async def test_rematch_refusals_say_why_and_change_nothing(
    start: Start, connect: Connector, register: Register
) -> None:
    # §5.16 errors: `bad-argument` (any argument), `already-seated`, a ladder's board
    await register("boss", "owners")
    port = await start(admins=["boss"])
    anna, _ = await a_match_at_table_3(port, connect)
    assert await lines_until_pong(anna, "rematch 3") == ["error code=bad-argument text=rematch"]
    await anna.send("new 2")
    await anna.expect("ok", cmd="sit")
    said = await lines_until_pong(anna, "rematch")
    assert [fields(x)[1]["code"] for x in said if x.startswith("error ")] == ["already-seated"]
    boss = await connect.machine(port, "boss", "owners")
    pa, pb = await connect.machine(port, "pa"), await connect.machine(port, "pb")
    for player in (pa, pb):
        await player.send("seek reserved")
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=k1")
    await boss.expect("ok", cmd="reserve")
    await pb.read_until(lambda x: is_event(x, "start"))
    await pb.send("leave!")
    await pa.read_until(lambda x: is_event(x, "match-end"))
    board = ["error code=not-allowed text=a ladder's board is not played again"]
    assert await lines_until_pong(pa, "rematch") == board
    # "and after you went to another game too" (none was on offer for his step to call
    # off: he was told "the rematch of table T is off: you went to another game")
    await pa.send("new 2")
    await pa.expect("ok", cmd="sit")
    await lines_until_pong(pa, "leave")
    assert await lines_until_pong(pa, "rematch") == board


@pytest.mark.timeout(30)
async def test_the_ignored_are_listed_as_they_write_their_names_online_else_as_typed(
    port: int, connect: Connector
) -> None:
    # §5.21 "The list is listed by the name as its player writes it when he is online
    # ..., else as typed"; "in the order you added them"
    await connect.machine(port, "Vera")
    bob = await connect.machine(port, "bob")
    for typed, name in (("ZED", "ZED"), ("vera", "Vera")):
        [said] = await lines_until_pong(bob, f"ignore {typed}")
        assert fields(said)[1]["name"] == name, said
    assert await lines_until_pong(bob, "ignore") == [
        "ok cmd=ignore count=2 names=ZED,Vera text=You ignore 2: ZED, Vera."
    ]


@pytest.mark.timeout(30)
async def test_a_sheet_of_a_short_game_has_no_target(port: int, connect: Connector) -> None:
    # §5.13 "`target` is the match's target (`-`: one deal decides)": `short` (rules.md §11)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await a_whole_match(ann, bob, "2 short")
    head, *rows = await lines_until_pong(ann, "sheet")
    deals = fields(head)[1]["deals"]  # (a void deal, all passing, is dealt again)
    assert head == f"sheet table={table} deals={deals} target=-"
    assert [fields(x)[0] for x in rows] == ["sheet-deal"] * int(deals)


@pytest.mark.timeout(30)
async def test_a_number_after_a_named_variant_is_players_and_alone_a_page(
    port: int, connect: Connector
) -> None:
    # §5.18: "A number right after a named VARIANT is PLAYERS: `top moscow 7` is refused
    # ...(`top 7` is page 7 of the default standings); a page past the last says the
    # command's own usage"
    ann = await connect.machine(port, "ann")
    assert await lines_until_pong(ann, "top moscow 7") == [
        "error code=bad-argument text=top [VARIANT] [PLAYERS] [PAGE]: PLAYERS is 2, 3 or 4, not 7"
    ]
    assert await lines_until_pong(ann, "top 7") == [
        "error code=bad-argument text=top [VARIANT] [PLAYERS] [PAGE]: pages 1 to 1"
    ]
    assert await lines_until_pong(ann, "top moscow 3") == [
        "top variant=moscow players=3 count=0 total=0 page=1 pages=1"
    ]
    # a game that is none: Tertz is for two (a black-box evening read 'top tertz 3' as
    # "tertz for 3 players: nobody yet"), refused as 'new 3 tertz' is
    assert await lines_until_pong(ann, "top терц 3") == [
        "error code=bad-argument text=top [VARIANT] [PLAYERS] [PAGE]: tertz is for 2 players, not 3"
    ]
    # a word that is no variant is said so, with the variants (a tryout, s47: 'top
    # chess' was told the bare usage, 'top kharkof' too), and nothing is read
    assert await lines_until_pong(ann, "top kharkof") == [
        "error code=bad-argument text=top [VARIANT] [PLAYERS] [PAGE]: no variant 'kharkof':"
        " did you mean kharkov? Variants: kharkov, moscow, tertz"
    ]
    assert await lines_until_pong(ann, "top chess 2") == [
        "error code=bad-argument text=top [VARIANT] [PLAYERS] [PAGE]: no variant 'chess';"
        " variants: kharkov, moscow, tertz"
    ]
    # after a variant or a count, a word that is no number is the usage still
    for line in ("top moscow chess", "top 2 kharkov"):
        assert await lines_until_pong(ann, line) == [
            "error code=bad-argument text=top [VARIANT] [PLAYERS] [PAGE]"
        ]


def test_the_human_sheets_of_5_13_are_what_the_server_writes() -> None:
    # §5.13's three human sheets, written from the rows they show: two players; two
    # pairs of long names, the columns numbered; a short game's stakes and winners
    _, two, pairs, short = examples("### 5.13 `sheet`")
    made, bide = (
        SheetRow(1, "made", (62, 100), (62, 100), 0, (0, 0)),
        SheetRow(2, "bide", (0, 162), (62, 262), 0, (1, 0)),
    )
    assert sheet_lines(ev.Sheet(3, ("ann", "bob"), ((0,), (1,)), 301, (made, bide))) == two
    four = ("four4", "house-heuristic-5", "house-heuristic-7", "house-heuristic-9")
    row = SheetRow(1, "made", (145, 0), (145, 0), 0, (0, 0))
    assert sheet_lines(ev.Sheet(5, four, ((0, 2), (1, 3)), 301, (row,))) == pairs
    stakes = (
        SheetRow(1, "made", (1, 0), (1, 0), 0, (0, 0)),
        SheetRow(2, "made", (0, 1), (1, 1), 0, (0, 0)),
        SheetRow(3, "gave-up", (2, 0), (3, 1), 0, (0, 0)),
    )
    sheet = ev.Sheet(3, ("anna", "boris"), ((0,), (1,)), 9, stakes, deal_won_on_points=True)
    assert sheet_lines(sheet) == short


def test_the_human_games_line_of_5_11_is_what_the_server_writes() -> None:
    # §5.11: "its id first, its players by side as its totals are (four as their pairs,
    # partners opposite: `2026-11-29 20:08 UTC  m14  table 14  anna+olga v boris+vera
    # 0:0  winner boris+vera (left: anna)`, ... the time to the minute, its zone said)"
    four = ("anna", "boris", "olga", "vera")
    game = ev.Game("m14", 14, four, "moscow", "boris,vera", "left", (0, 0), FINISHED, 0)
    lines = render(ev.Games("anna", (game,)), HUMAN)
    assert all(len(x) <= 80 for x in lines)
    assert " ".join(x.strip() for x in lines) == (
        "2026-11-29 20:08 UTC  m14  table 14  anna+olga v boris+vera  0:0  winner"
        " boris+vera (left: anna)"
    )


FINISHED = "2026-11-29 20:08:52"  # as the store gives a match's end (UTC)


@pytest.mark.timeout(30)
async def test_a_rematch_past_the_servers_table_cap_is_busy(
    start: Start, connect: Connector
) -> None:
    # §5.16 errors: "`busy` (the rematch would open a table past the cap)": whoever asks
    # when the server's tables are at their cap, the first to ask or the last
    port = await start(max_tables=2)
    anna = await connect.machine(port, "anna")
    misha = await connect.machine(port, "misha")
    await a_match_left_at_once(anna, misha)
    await misha.read_until(lambda x: is_event(x, "match-end"))
    full = "error code=busy text=too many tables are open; sit at one or try again later"
    for name in ("cid", "dan"):  # the cap's two tables: anna's ask is refused
        host = await connect.machine(port, name)
        await host.send("new 2")
        await host.expect("ok", cmd="sit")
    assert await lines_until_pong(anna, "rematch") == [full]
    await lines_until_pong(host, "leave")  # dan's table closes: room for one
    assert (await lines_until_pong(anna, "rematch"))[0].startswith("ok cmd=rematch ")
    await misha.expect("rematch")
    await lines_until_pong(host, "new 2")  # the cap again: the last ask is refused too
    assert await lines_until_pong(misha, "rematch") == [full]
    [head, *_] = await lines_until_pong(misha, "tables")
    assert head == "tables count=2 total=2 page=1 pages=1"  # no third table


@pytest.mark.timeout(30)
async def test_no_house_bot_comes_to_a_ladders_board(
    start: Start, connect: Connector, register: Register
) -> None:
    # §5.15 errors: `not-allowed` (... the table is a ladder's board)
    await register("boss", "owners")
    port = await start(admins=["boss"], house_bots=True)
    boss = await connect.machine(port, "boss", "owners")
    pa = await connect.machine(port, "pa")
    await pa.send("seek reserved")
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=k1")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    await pa.expect("ok", cmd="sit", table=table)
    said = await lines_until_pong(pa, "bot heuristic")
    assert [x for x in said if x.startswith("error ")] == [
        f"error code=not-allowed text=table {table} is a ladder's board"
    ]


@pytest.mark.timeout(30)
async def test_an_announcement_skips_connections_not_logged_in(
    start: Start, connect: Connector, register: Register
) -> None:
    # §5.19 `announce`: "every connection logged in (the admin's too; not those that have
    # not logged in)"
    await register("boss", "owners")
    port = await start(admins=["boss"])
    stranger = await connect.raw(port, "stranger")
    await stranger.send("style machine")
    await stranger.expect("ok", cmd="style")
    boss = await connect.machine(port, "boss", "owners")
    said = await lines_until_pong(boss, "announce hello all")
    assert said == ["announce from=boss text=hello all", ANNOUNCED]
    assert await lines_until_pong(stranger, "ping") == []


ANNOUNCED = "ok cmd=announce text=Announced to everyone logged in."


@pytest.mark.timeout(30)
async def test_a_guests_list_goes_with_his_connection_to_a_token_login(
    port: int, connect: Connector
) -> None:
    # §5.21 Kept: "a guest's lives with his connection (a login that takes over his open
    # connection with his token keeps it; one after it closed starts empty ...)"
    dan = await connect.machine(port, "dan")
    await lines_until_pong(dan, "ignore ann")
    again = await connect.machine(port, "dan", token=dan.token)
    await dan.wait_closed()
    assert await lines_until_pong(again, "ignore") == [
        "ok cmd=ignore count=1 names=ann text=You ignore 1: ann."
    ]


@pytest.mark.timeout(30)
async def test_a_person_is_not_offered_a_rematch_of_a_ladders_board(
    start: Start, connect: Connector, register: Register
) -> None:
    # §5.16: a person is told "'rematch' within 60 s ..." "when the match may be played
    # again (not a ladder's board, nor a match with a house bot)"
    await register("boss", "owners")
    port = await start(admins=["boss"])
    boss = await connect.machine(port, "boss", "owners")
    pa = await connect.human(port, "pa")
    pb = await connect.machine(port, "pb")
    for player in (pa, pb):
        await player.send("seek reserved")
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=k1")
    await boss.expect("ok", cmd="reserve")
    await pb.read_until(lambda x: is_event(x, "start"))
    await pb.send("leave!")
    await pa.read_until(lambda x: x.startswith("Game over"))
    await lines_until_pong(pa, "ping")
    assert not [x for x in pa.lines if "rematch" in x], pa.lines


@pytest.mark.timeout(30)
async def test_a_sit_without_a_seat_takes_one_no_house_bot_waits_for(
    start: Start, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    # §5.15: "Until it sits, its seat waits for it: ... a `sit` without SEAT takes a free
    # seat that is not kept" (the bot's process here never comes: a program that sleeps)
    never = [sys.executable, "-c", "import time; time.sleep(60)"]
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: never)
    port = await start(house_bots=True)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("bot random")
    await ann.expect("ok", cmd="bot")  # seat 1 is kept for it
    await bob.send(f"sit {table}")
    assert (await bob.expect("ok", cmd="sit"))["seat"] == "2"
    await lines_until_pong(ann, "leave")  # the table closes, its bot's process with it
    await lines_until_pong(bob, "leave")


@pytest.mark.timeout(30)
async def test_a_new_password_past_the_registrations_queue_is_busy(
    start: Start, connect: Connector, register: Register, monkeypatch: pytest.MonkeyPatch
) -> None:
    # §5.20: "`NEW` being hashed as a registration is ..., and `busy` past their queue's"
    # (limits): one change's hash held in the queue of one, another is refused
    await register("vera", "first1")
    await register("olga", "first2")
    port = await start(registrations_waiting=1, registrations_waiting_per_address=5)
    # (from two addresses: an address's hashes take their turns one by one)
    vera = await connect.machine(port, "vera", "first1", source="127.0.0.2")
    olga = await connect.machine(port, "olga", "first2", source="127.0.0.3")
    released, hashing = threading.Event(), threading.Event()
    real = accounts.password_hash

    def held(password: str, salt: bytes) -> bytes:
        if password.startswith("held"):  # the new ones: the old ones are checked freely
            hashing.set()
            released.wait(30)  # (a hash thread's wait, not the loop's)
        return real(password, salt)

    monkeypatch.setattr(accounts, "password_hash", held)
    try:
        await vera.send("password first1 held-1")
        with trio.fail_after(30):
            while not hashing.is_set():
                await trio.sleep(0.01)
        assert await lines_until_pong(olga, "password first2 held-2") == [
            "error code=busy text=too many registrations at once: try again"
        ]
    finally:
        released.set()
    await vera.expect("ok", cmd="password")
    await connect.machine(port, "olga", "first2")  # hers unchanged


@pytest.mark.timeout(60)
async def test_a_person_is_not_offered_a_rematch_of_a_house_bots_match(
    start: Start, connect: Connector
) -> None:
    # §5.16: "when the match may be played again (not a ladder's board, nor a match with
    # a house bot)": a person plays a short match out against the random bot
    port = await start(house_bots=True)
    person = await connect.human(port, "pat")
    await person.send("new 2 short")
    await person.read_until(lambda x: x.startswith("You sit at table"))
    await person.send("bot random")
    await person.read_until(lambda x: "comes to table" in x)
    await play_human(person, BOT_START_S)
    await lines_until_pong(person, "ping")
    assert not [x for x in person.lines if "rematch" in x], person.lines
