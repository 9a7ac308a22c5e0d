"""An audit of docs/protocol.md against the server, part 2: the lobby's commands (§5.1
`who` to §5.10 `state`). Each promise a client may rely on, and (→) the tests that pin
it: a module under tests/ and its tests, "here" for this module's. The examples of these
sections are checked here against a real server, line for line (the table's number as
the server gives it; §5.4's hand, which no seed found in time deals, by its fields). The
error codes §10 gives these commands are part 1's (protocol/test_protocol_audit.py).

§5.1 `who count= names= total= page= pages=`, sorted without regard to case, 100 a page
    → server/test_commands.py test_who_and_tables;
    → server/test_attacks.py test_who_and_tables_come_in_pages_at_a_limited_rate;
    → here: test_who_sorts_without_regard_to_case_and_tables_page_as_who_does,
      test_the_numbers_of_5_are_the_servers_defaults
§5.1 PAGE from 1 to `pages`, else `bad-argument`
    → server/test_attacks.py test_who_and_tables_come_in_pages_at_a_limited_rate;
    → here: test_who_sorts_without_regard_to_case_and_tables_page_as_who_does
§5.1 house bots listed by their `house-` names, which no person's may be; `finger` says
`house_bot=1`
    → server/test_house_bots.py test_a_house_bot_sits_plays_the_match_and_leaves (its
      name; that `who` lists it is only waited on there, not pinned: a house bot's
      process costs seconds to start), test_a_house_bot_name_cannot_be_taken_by_a_person;
    → protocol/test_messages.py test_finger_of_a_house_bot_says_what_it_is_in_both_languages
§5.1 who/tables/help/calls/rules: 30 at once, 5/s; an address 120, 20/s; `slow-down
wait_ms=` naming the command; admins not limited
    → server/test_attacks.py test_long_texts_are_rate_limited_and_a_help_flood_stalls_no_one,
      test_long_texts_from_one_address_share_one_allowance;
    → server/test_slow_down_waits.py test_a_list_past_the_lists_allowance_is_told_its_wait;
    → here: test_the_numbers_of_5_are_the_servers_defaults,
      test_the_lists_allowance_spares_the_admins
§5.2 `tables count= total= page= pages=`, a `table` line each (its fields), the example
    → server/test_commands.py test_who_and_tables;
    → here: test_the_tables_example_of_5_2_is_what_the_server_sends
§5.2 PAGE and the rate as for `who`
    → here: test_who_sorts_without_regard_to_case_and_tables_page_as_who_does;
    → server/test_attacks.py test_long_texts_from_one_address_share_one_allowance
§5.2 `seats` by seat, `-` free; `state` waiting or playing, waiting too when full with a
player away
    → server/test_commands.py test_who_and_tables;
    → server/test_full_table_waits.py
      test_a_table_filled_while_a_sitter_is_away_waits_and_deals_when_he_is_back
§5.2 `away=` appended only when someone is; human `(away)`, Russian `(нет связи)`, a pair's
`(away: vera)`
    → here: test_a_running_tables_line_names_its_players_away_only_when_one_is;
    → server/test_full_table_waits.py
      test_a_table_filled_while_a_sitter_is_away_waits_and_deals_when_he_is_back;
    → protocol/test_render_club.py test_a_tables_line_marks_a_seat_whose_player_is_away
§5.2 a private table listed only to its own people, `private=1`, human `Table 3
(private): …`
    → server/test_private.py
      test_a_private_table_is_listed_to_nobody_and_entered_only_by_invitation,
      test_a_private_table_is_marked_in_its_players_human_list
§5.2 the human style names a running match's deal and scores (by pair; in Russian)
    → server/test_human.py test_tables_tells_a_running_matchs_deal_and_score;
    → protocol/test_render_club.py test_tables_tells_a_running_matchs_deal_and_score_by_side
§5.2 a table leaves the list when its match ends or its last player leaves
    → here: test_a_table_leaves_the_list_when_its_match_ends;
    → server/test_commands.py test_leave_before_the_game_and_unseek
§5.2 table ids never reused: drawn 32 ahead, past a predecessor's block, above an
upgraded database's; a database away
    → server/test_table_numbers.py (every test);
    → store/test_store.py test_table_numbers_drawn_by_two_stores_never_repeat,
      test_table_numbers_start_above_every_table_an_upgraded_database_holds,
      test_servers_starting_at_once_on_an_upgraded_database_draw_tables_apart;
    → store/test_workers_database_away.py
§5.3 PLAYERS 2, VARIANT moscow by default; a word a variant only if it names one
    → here: test_a_watcher_who_sits_down_stops_watching_told_as_seated (`new`);
    → server/test_bad_rules_words.py test_a_variant_named_after_an_option_says_where_it_goes
§5.3 a variant in any case and a club's spellings (kharkiv, харьков, москва, терц); the
reply names the variant itself
    → server/test_bad_rules_words.py test_the_spellings_a_club_types_name_the_variant
§5.3 options in any case, sorted and de-duplicated
    → server/test_bad_rules_words.py test_an_option_is_read_in_any_case_as_the_variant_is;
    → here: test_new_reads_options_in_any_case_sorted_once_and_caps_tables
§5.3 `rules` lists the variants and options with their player counts; tertz 2 only, its
refusal's words
    → server/test_commands.py test_rules, test_rules_leave_the_target_to_the_table_line;
    → protocol/test_rule_refusals.py test_the_error_line_in_russian_and_in_english;
    → server/test_tertz_human.py test_the_machine_style_tells_the_talon_and_refuses_three_players
§5.3 reply `ok cmd=sit table=T seat=0 …` then `seated`
    → here: test_the_examples_of_5_3_are_what_the_server_sends
§5.3 `bad-rules`' words: an unknown word (the variants and options named), a near one
(`(to-301?)`), `new two`, a plugin's failing hook
    → server/test_bad_rules_words.py
      test_an_unknown_word_after_the_player_count_lists_the_variants_too,
      test_a_word_near_a_known_one_is_guessed_without_the_whole_list,
      test_a_player_count_in_words_is_told_to_be_a_number;
    → plugins/test_author_api.py test_a_failure_in_no_rules_own_code_names_the_variant
§5.3 the rules read first, before `slow-down` or `already-seated`; a seek and a rematch
offer stand
    → server/test_bad_rules_first.py (both tests)
§5.3 `busy`: 1000 tables; 10 waiting tables an address (`…10 waiting tables open; sit
at one or wait`; with a cap of 1, `…1 waiting table open; sit at it or wait`)
    → here: test_new_reads_options_in_any_case_sorted_once_and_caps_tables,
      test_the_numbers_of_5_are_the_servers_defaults;
    → server/test_house_bots.py (the cap of 1's words);
    → server/test_attacks.py test_tables_left_by_everyone_close_fast_and_are_capped_per_address
§5.3 `shutting-down`
    → server/test_drain.py test_a_drain_refuses_every_way_to_a_new_table
§5.3 `private` anywhere, any case; not listed (nor on the web); only its own people and
admins sit or watch; to anyone else it does not exist, byte for byte
    → server/test_bad_rules_words.py test_an_option_is_read_in_any_case_as_the_variant_is;
    → server/test_private.py;
    → server/test_private_unseen.py test_a_private_table_answers_an_outsider_as_no_table_does;
    → web/test_live_socket.py test_a_private_table_is_not_watched_live
§5.3 a private table's match is recorded and listed in `games`, its replay public
    → here: test_a_private_tables_match_is_listed_in_games_as_any_other;
    → web/test_pages.py (a private match's replay)
§5.3 a waiting table all of whose players left closes after 10 s; one back in time keeps
his seat
    → server/test_attacks.py test_tables_left_by_everyone_close_fast_and_are_capped_per_address;
    → server/test_missed.py test_a_lone_player_back_after_his_waiting_table_closed_is_told_why;
    → server/test_reconnect.py test_a_returning_player_is_seated_at_once;
    → here: test_the_numbers_of_5_are_the_servers_defaults
§5.3 the examples (a private table; the refusals; a table opened)
    → here: test_the_examples_of_5_3_are_what_the_server_sends
§5.4 SEAT or the lowest free; the reply's `seats=` and its text naming the others;
`seated` to everyone at the table (the human style's sitter told once)
    → here: test_sit_refuses_words_and_seats_out_of_range_and_is_told_by_seat,
      test_the_sit_example_of_5_4_is_what_the_server_sends;
    → server/test_human_table.py test_a_newcomer_is_told_who_sits_at_the_table_already;
    → server/test_human.py test_one_who_sits_is_told_it_once_in_his_words
§5.4 the same reply seats you for `new`, `seek` and `rematch`
    → here: test_the_examples_of_5_3_are_what_the_server_sends,
      test_the_seek_example_of_5_5_is_what_the_server_sends;
    → server/test_rematch.py test_the_second_seated_of_a_rematch_is_told_who_sits_already
§5.4 the last seat taken starts the match at once, unless a player there is away
    → here: test_the_sit_example_of_5_4_is_what_the_server_sends;
    → server/test_full_table_waits.py (every test)
§5.4 errors: `bad-argument` (words, a seat out of range), `unknown-table`,
`already-seated`, `table-full`, `seat-taken` (a full table waiting for one away too)
    → here: test_sit_refuses_words_and_seats_out_of_range_and_is_told_by_seat,
      test_the_sit_example_of_5_4_is_what_the_server_sends;
    → server/test_full_table_waits.py
      test_a_table_filled_while_a_sitter_is_away_waits_and_deals_when_he_is_back
§5.4 seats given up: 5 at once then one every 5 s; an address 40, one every 2 s; a name's
own; `slow-down wait_ms=` with its words; bad rules said first; only a seat left before
its match began counts
    → here: test_the_numbers_of_5_are_the_servers_defaults;
    → server/test_announce_limits.py
      (test_a_sit_leave_loop_at_a_waiting_table_is_refused_before_long,
      test_a_seat_given_up_at_a_waiting_table_comes_back_in_time,
      test_a_match_played_or_lost_to_a_leaver_costs_nothing,
      test_leaving_running_matches_again_and_again_is_refused_before_long);
    → server/test_slow_down_waits.py (test_a_seat_past_the_connections_allowance_is_told_its_wait
      and the name's and the address's);
    → server/test_bad_rules_first.py test_bad_rules_are_said_before_a_slow_down
§5.4 the example (the clock of 10 s plus a 500 ms lag allowance)
    → here: test_the_sit_example_of_5_4_is_what_the_server_sends
§5.5 seek's reply (`options=` empty and the text naming none when none); seekers of
exactly one game seated in the order they sought, the first at seat 0
    → here: test_the_seek_example_of_5_5_is_what_the_server_sends,
      test_seekers_sit_in_the_order_they_sought_and_a_seek_ends_as_5_5_says;
    → server/test_bad_rules_words.py test_seek_says_the_options_it_waits_for
§5.5 a second seek of another game goes to the back of its queue; one of the game waited
for keeps its place (§5.5 said every second seek went to the back: a slip, corrected); a
seat on its way given up by a seek of another game, kept by one of its own, given up by
`unseek`
    → here: test_seekers_sit_in_the_order_they_sought_and_a_seek_ends_as_5_5_says;
    → server/test_kept_seek_sought_again.py (every test)
§5.5 `unseek`'s words; `leave` while seeking unseeks
    → here: test_leave_answers_each_case_in_the_words_of_5_6;
    → server/test_commands.py test_leave_before_the_game_and_unseek
§5.5 `busy` when a seek would open a table past 1000 (not recorded; the others wait on)
    → server/test_attacks.py test_seek_respects_the_table_cap
§5.5 opening or sitting at a table ends a seek, and so does the server's stop
    → here: test_seekers_sit_in_the_order_they_sought_and_a_seek_ends_as_5_5_says;
    → server/test_drain.py test_a_drain_refuses_every_way_to_a_new_table
§5.5 a seek's own seat (at a waiting table, or with the seekers it completes) comes
before the reply to the next line (it came when the table got to it: a `new` read first
opened the seeker a table of his own, the promised one refusing him unasked; a server
bug, fixed)
    → here: test_a_seek_that_finds_a_waiting_table_is_seated_before_its_next_line,
      test_the_seek_example_of_5_5_is_what_the_server_sends
§5.5 a public waiting table takes seekers of exactly its game (oldest table first); a
`new` seats the waiting seekers; a seat left or a promised seat come free goes to one
    → server/test_seek_open_tables.py (every test);
    → server/test_seek_looks_again.py
      test_a_seek_looks_at_the_waiting_tables_up_to_the_one_it_takes;
    → server/test_full_table_waits.py
      test_a_seat_left_at_a_full_waiting_table_goes_to_a_seeker_and_it_waits_on
§5.5 a private table takes no seeker; `seek … private`'s words
    → server/test_bad_rules_words.py test_seek_private_says_how_a_private_table_is_made
§5.5 a match left at once (or dropped past the away limit): a person's seek kept first
in line, told so (in English and Russian); a program told to seek again; not seated
unasked; a crossing `leave`; not in a stop's grace
    → server/test_kept_seek_sought_again.py; server/test_seek_dropped_leaver.py;
      server/test_leave_crossing_a_leave.py;
      server/test_seek_griefing.py test_a_program_whose_match_was_left_is_not_seated_unasked;
      server/test_seek_looks_again.py test_a_look_in_a_stops_grace_tells_the_seekers_nothing_more;
    → here: test_a_match_left_at_once_is_told_in_russian_as_5_5_has_it
§5.5 kept apart for 10 min by name, by an address two names left from (not one's own);
the memory's bounds; across workers; the measure of s30
    → server/test_seek_griefing.py (every test); server/test_kept_apart_memory.py;
      store/test_workers_seek_apart.py;
    → here: test_the_numbers_of_5_are_the_servers_defaults
§5.5 `seek reserved`: its reply, or a waiting reserved table's `ok cmd=sit` and no
`ok cmd=seek`; the example
    → here: test_the_seek_reserved_example_of_5_5_is_what_the_server_sends;
    → server/test_reserve.py
      test_seek_reserved_at_a_waiting_board_is_answered_before_the_next_line
§5.5a seats by `seats=`, seed, deal limit, a draw's `winner=- name=- reason=deals`
    → server/test_reserve.py test_reserved_tables_seat_by_name_play_one_deal_and_share_the_deck;
    → here: test_the_deal_limits_match_end_of_5_5a_is_as_the_example_has_it
§5.5a admins only, in its words; an admin's name never registered by a login
    → server/test_reserve.py test_reserve_is_for_registered_admins;
    → server/test_attacks.py test_an_admins_name_is_never_registered_by_a_login;
    → here: test_reserve_answers_in_the_words_of_5_5a
§5.5a the reply's words; the admin observes from the first event; seekers seated;
`seat-reserved`; `watch=ends`
    → here: test_reserve_answers_in_the_words_of_5_5a;
    → server/test_reserve.py
      test_reserved_tables_seat_by_name_play_one_deal_and_share_the_deck,
      test_an_admin_reserving_with_watch_ends_is_told_only_each_match_start_and_end
§5.5a errors `bad-argument` (seats=, deals=, watch=), `bad-rules`, `shutting-down`
    → server/test_reserve.py test_reserve_refuses_bad_arguments;
    → here: test_reserve_answers_in_the_words_of_5_5a;
    → server/test_drain.py test_a_drain_refuses_every_way_to_a_new_table
§5.5a boards: `board=` in `ok cmd=sit`; watched by admins only (`observe`'s words); held
records, `seed=-`; `release` (`records=0`); a seating still played at its release
    → here: test_the_seek_reserved_example_of_5_5_is_what_the_server_sends,
      test_the_deal_limits_match_end_of_5_5a_is_as_the_example_has_it,
      test_reserve_answers_in_the_words_of_5_5a,
      test_rules_arguments_and_a_player_counts_line_as_5_9_says;
    → server/test_reserve.py (test_a_ladder_board_is_watched_by_the_servers_admins_only,
      test_a_boards_finished_seating_is_kept_withheld_through_a_stop_until_release,
      test_a_seating_still_played_at_its_boards_release_is_a_plain_match_from_then_on);
    → server/test_history_board.py
§5.5a a reserved seat away from the reservation; a leaver forfeits; it starts though one
is away
    → server/test_reserve.py test_a_reserved_player_who_never_comes_forfeits_after_the_away_limit,
      test_a_reserved_player_who_leaves_before_the_start_forfeits_too;
    → server/test_full_table_waits.py
      test_a_board_filled_while_a_player_is_away_starts_and_that_seat_forfeits
§5.6 the first case that holds, and only it (§5.6 did not say which when several held:
said now)
    → here: test_leave_does_the_first_case_of_5_6_that_holds_and_only_it
§5.6 waiting: `ok cmd=leave text=You leave table T.`, the others told `left`; the table
closes when nobody is left
    → here: test_leave_answers_each_case_in_the_words_of_5_6;
    → server/test_commands.py test_leave_before_the_game_and_unseek
§5.6 running: `ok cmd=leave`, the side forfeits (`reason=left`)
    → server/test_commands.py test_leave_forfeits_a_running_game
§5.6 the human style asks first (its words, 10 s); `no`, `n`, `net`, `нет`, `ні`, any
case, keep the seat (`You stay at table T.`); `no` the call when it is one; `leave!`;
the machine style never asked
    → server/test_human_table.py test_leave_in_a_running_game_asks_first,
      test_no_to_the_leave_question_keeps_the_seat_and_is_no_call,
      test_no_answering_prokhodit_after_leave_is_the_call_not_a_stay,
      test_leave_bang_leaves_at_once_and_bots_are_not_asked;
    → here: test_every_no_of_5_6_keeps_a_persons_seat
§5.6 observing: one `ok cmd=leave text=You stop observing table T.` a table; seeking: as
`unseek`; otherwise `not-seated`'s words
    → here: test_leave_answers_each_case_in_the_words_of_5_6
§5.7 `ok cmd=observe`, then the view: `state` (`seat=-`, no hand) or `info text=Table T
waits for players: …` (`…is full and waits for …`)
    → here: test_observe_unobserve_and_state_answer_in_the_words_of_5_7_and_5_10;
    → server/test_commands.py test_observe_and_state;
    → server/test_full_table_waits.py
§5.7 the table's events, says and records from then on; several tables
    → here: test_a_watcher_receives_the_tables_events_says_and_records;
    → server/test_commands.py test_leave_forfeits_a_running_game;
    → server/test_human_table.py test_a_watchers_say_goes_to_the_watchers_only;
    → here: test_observe_unobserve_and_state_answer_in_the_words_of_5_7_and_5_10
§5.7 errors: `bad-argument`, `unknown-table`, `already-seated`, `not-allowed` (a board)
    → server/test_input.py test_commands_before_login_and_bad_arguments;
    → server/test_private_unseen.py; server/test_commands.py test_observe_and_state;
    → server/test_reserve.py test_a_ladder_board_is_watched_by_the_servers_admins_only
§5.7 sitting down ends the watching, the watcher told as `seated` instead
    → here: test_a_watcher_who_sits_down_stops_watching_told_as_seated
§5.7 `observer` lines (before the watcher's view, its `seq`); `watching=0`; the human
words; a web page counted, not announced
    → here: test_observe_unobserve_and_state_answer_in_the_words_of_5_7_and_5_10;
    → server/test_seated_sessions.py test_a_watcher_is_told_while_watching_and_not_after;
    → server/test_human_table.py test_watchers_are_announced_to_the_players;
    → web/test_live_socket.py test_pages_come_and_go_and_each_gets_an_observers_lines
§5.7 the news bounded: once a minute a name, 10 at once then one every 5 s a table; a
going told only with its coming
    → server/test_announce_limits.py
      test_an_observe_loop_from_many_connections_tells_the_players_little,
      test_a_single_observe_and_unobserve_are_still_told;
    → here: test_the_numbers_of_5_are_the_servers_defaults
§5.7 `unobserve [TABLE]`: `ok cmd=unobserve table=T[,T…]` (its text said `table 1,2`;
now `tables 1 and 2`: a server wart, fixed), `unknown-table`, `bad-argument
text=unobserve [TABLE]`, `not-allowed`
    → here: test_observe_unobserve_and_state_answer_in_the_words_of_5_7_and_5_10,
      test_unobserve_of_several_tables_names_them_as_a_person_lists_them;
    → server/test_private_unseen.py
§5.8 seated: to the table and its watchers; watching: to its watchers only, `watchers=1`
(the lowest-numbered table); else the lobby: everyone at no table, watchers too
    → server/test_commands.py test_say;
    → here: test_a_lobby_say_reaches_watchers_not_players_and_rules_speak_russian_when_asked;
    → server/test_human_table.py test_a_watchers_say_goes_to_the_watchers_only;
    → here: test_watching_two_tables_say_rules_and_state_take_the_lowest_numbered
§5.8 no text: `bad-argument text=say TEXT`
    → here: test_a_watcher_who_sits_down_stops_watching_told_as_seated
§5.8 bidi controls, characters drawn as nothing, nothing to see, more than 4 combining
marks refused in their words; what writing needs let through; a refused say costs nothing
    → server/test_input.py test_a_say_with_bidi_controls_is_refused_and_reaches_nobody,
      test_a_say_with_characters_drawn_as_nothing_is_refused_and_costs_nothing,
      test_a_say_with_nothing_to_see_or_drawn_over_other_lines_is_refused
§5.8 5 at once then 1/s (invites with them), an address 40 and 5/s; `slow-down`'s words
    → server/test_attacks.py test_chat_from_one_address_shares_one_allowance,
      test_invitations_share_the_chats_rate_limit_per_sender;
    → server/test_slow_down_waits.py test_a_say_past_the_connections_allowance_is_told_its_wait,
      test_a_say_past_the_addresss_allowance_is_told_the_addresss_wait;
    → here: test_the_numbers_of_5_are_the_servers_defaults
§5.8 what is said is logged; `help say` says so
    → server/test_chat_log.py test_what_is_said_is_logged_with_the_speaker_and_the_table;
    → server/test_moderation.py
      test_help_tells_an_admin_the_moderation_commands_and_everyone_that_chat_is_logged
§5.8 muted: `muted`'s words; one who ignores the speaker is not told
    → server/test_moderation.py
      test_a_muted_player_may_not_say_or_invite_till_the_time_is_up_or_unmute;
    → server/test_ignore.py test_a_watchers_say_is_kept_from_a_watcher_who_ignores_him
§5.8 the example
    → here: test_the_say_example_of_5_8_is_what_the_server_sends
§5.9 no table: every variant and option, a variant's target; the table's: its rule set
in words, the player count's own line, the target said once, moscow's words after the
variant's, what a variant refuses, the clock's line (Tertz's break)
    → server/test_commands.py (test_rules, test_rules_leave_the_target_to_the_table_line,
      test_rules_of_a_tertz_table_describe_tertz_not_moscow,
      test_rules_name_the_options_a_variant_refuses,
      test_rules_name_an_option_that_refuses_the_variant_itself,
      test_rules_at_a_variants_table_say_what_it_changes_before_the_builtins_words);
    → server/test_tertz_rules_clock.py; server/test_rules_texts.py;
    → here: test_rules_arguments_and_a_player_counts_line_as_5_9_says,
      test_the_rules_list_leaves_out_a_target_that_differs_with_the_player_count
§5.9 watching: the lowest-numbered table watched (§5.9 said "the first you observe": a
slip, corrected)
    → server/test_commands.py test_rules_while_observing_describe_the_observed_table;
    → here: test_watching_two_tables_say_rules_and_state_take_the_lowest_numbered
§5.9 TABLE no number or several words: `bad-argument`; a table not listed to you:
`unknown-table`; a variant's or option's name answers its lines alone, anywhere
    → server/test_input.py test_commands_before_login_and_bad_arguments;
    → here: test_rules_arguments_and_a_player_counts_line_as_5_9_says;
    → server/test_private_unseen.py;
    → server/test_tertz_human.py test_rules_of_a_variant_or_option_named_say_that_one
§5.9 the clock line to the millisecond; `lang=ru` in either style
    → server/test_commands.py test_rules_say_a_clock_of_part_of_a_second_as_help_clock_does;
    → here: test_a_lobby_say_reaches_watchers_not_players_and_rules_speak_russian_when_asked
§5.9 the example (its "…" lines cut short)
    → here: test_the_rules_example_of_5_9_is_what_the_server_sends
§5.10 seated: an `ask` with the clock left if to act, else `state`; watching: the
lowest-numbered table's; waiting: `info text=Table T waits for players: anna, (free)`;
otherwise `not-seated`
    → here: test_state_seated_is_the_ask_with_the_clock_left_or_the_state;
    → server/test_reconnect.py test_reconnect_resumes_the_seat;
    → server/test_commands.py test_observe_and_state;
    → here: test_observe_unobserve_and_state_answer_in_the_words_of_5_7_and_5_10,
      test_watching_two_tables_say_rules_and_state_take_the_lowest_numbered
§5.10 a person's `state` while watching spends the lists allowance; a program's and a
seated player's never
    → server/test_observer_state.py test_a_persons_state_while_observing_spends_the_lists_allowance
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from trio.testing import MockClock

from deberc_net.game.rules import Settings
from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, game_for, phrase
from deberc_net.server.app import serve
from deberc_net.server.config import Config
from deberc_net.testing import rule_book
from tests.protocol.conftest import Register, Start
from tests.protocol.doc_examples import PROTOCOL, example, lines_until_pong, sent
from tests.server.client import LineClient, fields, next_ask, play_machine, seat_pair
from tests.server.conftest import Connector, make_config

TABLE_NUMBER = re.compile(r"(?<=table=)\d+|(?<=[Tt]able )\d+|(?<=match=m)\d+")


def numbered(lines: list[str], table: str) -> list[str]:
    """An example's lines with its table's number made ``table``."""
    return [TABLE_NUMBER.sub(table, line) for line in lines]


def starting(prefix: str) -> Callable[[str], bool]:
    """A line test: the line begins with ``prefix``."""
    return lambda line: line.startswith(prefix)


def block_after(words: str) -> list[str]:
    """The lines of the first code block after ``words`` in docs/protocol.md."""
    text = PROTOCOL.read_text(encoding="utf-8").split(words, 1)[1]
    return text.split("```\n", 1)[1].split("\n```", 1)[0].splitlines()


def section(number: str) -> str:
    """The text of docs/protocol.md's section ``number`` (its subsections too), its
    lines joined with spaces."""
    text = PROTOCOL.read_text(encoding="utf-8").split(f"\n### {number} ", 1)[1]
    return " ".join(re.split(r"\n##+ \d", text, maxsplit=1)[0].split())


async def table_numbered(client: LineClient, wanted: int) -> None:
    """Tables are opened (and left) until the next one opened is numbered ``wanted``
    (a fresh server's first table is 1)."""
    while True:
        await client.send("new 2")
        opened = int((await client.expect("ok", cmd="sit"))["table"])
        await client.send("leave")
        await client.expect("ok", cmd="leave")
        assert opened < wanted, (opened, wanted)
        if opened == wanted - 1:
            return


async def admin(start: Start, register: Register, name: str = "boss", **settings: Any) -> int:
    """A server (of these settings) whose admin ``name`` (password pw) is registered as
    its owner does it."""
    await register(name, "pw")
    return await start(admins=[name], **settings)


@pytest.mark.timeout(30)
async def test_the_tables_example_of_5_2_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    documented = example("### 5.2 `tables [PAGE]`")
    anna = await connect.machine(port, "anna")
    await table_numbered(anna, 2)
    await anna.send("new 2 to-301")
    await anna.expect("ok", cmd="sit", table="2")
    other = await connect.machine(port, "other")
    assert await lines_until_pong(other, sent(documented[0])) == documented[1:]


@pytest.mark.timeout(30)
async def test_the_examples_of_5_3_are_what_the_server_sends(port: int, connect: Connector) -> None:
    private = example("### 5.3 `new [PLAYERS] [VARIANT] [OPTION ...] [private]`")
    anna = await connect.machine(port, "anna")
    other = await connect.machine(port, "other")
    await table_numbered(anna, 3)
    assert await lines_until_pong(anna, sent(private[0])) == private[1:3]
    assert private[3] == "(another client)"
    assert await lines_until_pong(other, sent(private[4])) == private[5:]
    await anna.send("leave")
    await anna.expect("ok", cmd="leave")
    # the second block: anna's refusals, then a table (numbered as the server has it)
    *wrong, last, sat, seated = block_after("closes **10 s** after")
    for line, said in zip(wrong[::2], wrong[1::2], strict=True):
        assert await lines_until_pong(anna, sent(line)) == [said], line
    got = await lines_until_pong(anna, sent(last))
    assert got == numbered([sat, seated], fields(got[0])[1]["table"])


# the example's hand is no seed's the test can find in time; s38 deals it with the same
# dealer (seat 0) and turned card (Ah)
DEALT = ("hand",)
SEED_OF_5_4 = "s38"


def same_but_the_deal(got: list[str], documented: list[str]) -> None:
    """Each line as documented, tag, keys and their order and values, but for the
    hand dealt."""
    assert len(got) == len(documented), (got, documented)
    for line, want in zip(got, documented, strict=True):
        tag, said = fields(line)
        want_tag, wanted = fields(want)
        assert (tag, list(said)) == (want_tag, list(wanted)), (line, want)
        for key in set(wanted) - set(DEALT):
            assert said[key] == wanted[key], (key, line, want)


@pytest.mark.timeout(30)
async def test_the_sit_example_of_5_4_is_what_the_server_sends(
    start: Start, connect: Connector
) -> None:
    documented = example("### 5.4 `sit TABLE [SEAT]`")
    # the clock 10000 + 500 shown; 13 tables opened and left first
    port = await start(lag_ms=500, seat_churn_burst=20.0, match_seed=SEED_OF_5_4)
    misha = await connect.machine(port, "misha")
    await table_numbered(misha, 14)
    await misha.send("new 2")
    await misha.expect("ok", cmd="sit", table="14")
    bot1 = await connect.machine(port, "bot1")
    assert await lines_until_pong(bot1, sent(documented[0])) == [documented[1]]
    assert await lines_until_pong(bot1, sent(documented[2])) == [documented[3]]
    await bot1.send(sent(documented[4]))
    got = [await bot1.read_until(lambda _: True) for _ in documented[5:10]]
    assert got[:3] == documented[5:8]
    same_but_the_deal(got[3:], documented[8:10])
    # a table already playing: table 14 is
    assert sent(documented[10]) == "sit 22"
    late = await connect.machine(port, "late")
    assert await lines_until_pong(late, "sit 14") == [documented[11].replace("22", "14")]


@pytest.mark.timeout(30)
async def test_the_seek_example_of_5_5_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    documented = block_after("him and gives him his seek back there.")
    anna = await connect.machine(port, "anna")
    bot1 = await connect.machine(port, "bot1")
    await table_numbered(anna, 4)
    assert await lines_until_pong(anna, sent(documented[0].replace("(anna)", ""))) == [
        documented[1],
        "event seq=1 table=4 kind=seated name=anna seat=0",  # (left out of the example)
    ]
    said = await lines_until_pong(bot1, sent(documented[2].replace("(bot1)", "")))
    assert said[:2] == documented[3:5]  # (its seat the seek's reply: before the ping's)


@pytest.mark.timeout(30)
async def test_the_seek_reserved_example_of_5_5_is_what_the_server_sends(
    start: Start, register: Register, connect: Connector
) -> None:
    documented = block_after("takes an `ok cmd=sit` as the answer of its `seek\nreserved` too:")
    port = await admin(start, register)
    boss = await connect.machine(port, "boss", "pw")
    nodev = await connect.machine(port, "nodev-1")
    rand = await connect.machine(port, "rand-1")
    key = "15b6d35172e90414"
    assert await lines_until_pong(rand, "seek reserved")  # both wait: rand-1 first
    assert await lines_until_pong(nodev, sent(documented[0])) == [documented[1]]
    await boss.send(f"reserve 2 moscow seats=nodev-1,rand-1 deals=1 board={key}")
    first = (await boss.expect("ok", cmd="reserve"))["table"]
    assert await nodev.read_until(lambda _: True) == numbered([documented[2]], first)[0]
    assert documented[3] == "…"
    await nodev.send("leave")  # the match ends (forfeited: the example's was played)
    await rand.expect("event", kind="match-end")
    await boss.send(f"reserve 2 moscow seats=rand-1,nodev-1 deals=1 board={key}")
    second = (await boss.expect("ok", cmd="reserve"))["table"]
    await rand.send("seek reserved")
    await rand.expect("ok", cmd="sit", table=second)
    await nodev.expect("event", kind="match-end")
    said = await lines_until_pong(nodev, sent(documented[4]))
    assert said[0] == numbered([documented[5]], second)[0]  # and no ok cmd=seek
    assert not [x for x in said if x.startswith("ok cmd=seek")]


@pytest.mark.timeout(30)
async def test_the_say_example_of_5_8_is_what_the_server_sends(
    port: int, connect: Connector
) -> None:
    documented = example("### 5.8 `say TEXT`")
    anna = await connect.machine(port, "anna")
    await table_numbered(anna, 2)
    await anna.send("new 2")
    await anna.expect("ok", cmd="sit", table="2")
    await anna.expect("event", kind="seated")
    for line, said in zip(documented[::2], documented[1::2], strict=True):
        assert await lines_until_pong(anna, sent(line)) == [said], line


@pytest.mark.timeout(30)
async def test_the_rules_example_of_5_9_is_what_the_server_sends(
    start: Start, connect: Connector
) -> None:
    documented = example("### 5.9 `rules [TABLE|RULE]`")
    port = await start(lag_ms=500)  # the clock line's 500 ms lag allowance
    anna = await connect.machine(port, "anna")
    await table_numbered(anna, 2)
    await anna.send("new 2 to-301")
    await anna.expect("ok", cmd="sit", table="2")
    await anna.expect("event", kind="seated")
    said = await lines_until_pong(anna, sent(documented[0]))
    assert len(said) == len(documented) - 1
    for got, want in zip(said, documented[1:], strict=True):
        assert got.startswith(want.removesuffix("…")), (got, want)  # "…": cut short


@pytest.mark.timeout(30)
async def test_the_deal_limits_match_end_of_5_5a_is_as_the_example_has_it(
    start: Start, register: Register, connect: Connector
) -> None:
    port = await admin(start, register)
    boss = await connect.machine(port, "boss", "pw")
    pa, pb = await connect.machine(port, "pa"), await connect.machine(port, "pb")
    for player in (pa, pb):
        await player.send("seek reserved")
        await player.expect("ok", cmd="seek")
    await boss.send("reserve 2 moscow seats=pa,pb seed=x1 deals=1 board=k")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    while (asked := await next_ask(pa, pb)) is not None:  # all pass: a void deal, 0-0
        ask, player = asked
        assert "pas" in ask["legal"].split(","), ask
        await player.send(f"pas seq={ask['seq']}")
    documented = re.search(r"`(event seq=37 table=2 kind=match-end [^`]*)`", section("5.5a"))
    assert documented is not None
    [want] = numbered([documented[1]], table)
    for player in (pa, pb, boss):
        ended = [x for x in player.lines[: player.pos] if " kind=match-end " in x]
        got = ended[0] if ended else await player.read_until(lambda x: " kind=match-end " in x)
        assert re.sub(r"seq=\d+", "seq=37", got) == want


def test_the_numbers_of_5_are_the_servers_defaults() -> None:
    # "the numbers here are the defaults" (§2.1): those §5.1 to §5.8 state
    config = Config()
    assert config.page_size == 100  # §5.1, §5.2: 100 to a page
    assert (config.lists_burst, config.lists_per_s) == (30, 5)  # §5.1
    assert (config.lists_per_address_burst, config.lists_per_address_per_s) == (120, 20)
    assert config.max_tables == 1000 and config.max_tables_per_address == 10  # §5.3
    assert config.empty_table_ms == 10_000  # §5.3: closes 10 s after
    assert (config.seat_churn_burst, 1 / config.seat_churn_per_s) == (5, 5)  # §5.4
    assert (config.seat_churn_per_address_burst, 1 / config.seat_churn_per_address_per_s) == (
        40,
        2,
    )
    assert config.seek_apart_ms == 10 * 60_000  # §5.5: 10 min
    assert config.watch_news_window_ms == 60_000  # §5.7: once a minute
    assert (config.watch_news_burst, 1 / config.watch_news_per_s) == (10, 5)
    assert (config.say_burst, config.say_per_s) == (5, 1)  # §5.8
    assert (config.say_per_address_burst, config.say_per_address_per_s) == (40, 5)


@pytest.mark.timeout(30)
async def test_who_sorts_without_regard_to_case_and_tables_page_as_who_does(
    start: Start, connect: Connector
) -> None:
    # §5.1: "sorted without regard to case, 100 to a page: count and names are this
    # page's, total counts every page. PAGE (default 1) must be from 1 to pages"; §5.2:
    # "PAGE and the rate as for who"
    port = await start(page_size=2)
    clients = [await connect.machine(port, name) for name in ("Cid", "ann", "dan", "Bob")]
    ann = clients[1]
    assert await lines_until_pong(ann, "who") == [
        "who count=2 names=ann,Bob total=4 page=1 pages=2"
    ]
    assert await lines_until_pong(ann, "who 2") == [
        "who count=2 names=Cid,dan total=4 page=2 pages=2"
    ]
    tables = []
    for client in clients[:3]:
        await client.send("new 2")
        tables.append((await client.expect("ok", cmd="sit"))["table"])
        await client.expect("event", kind="seated")
    first, second = await lines_until_pong(ann, "tables"), await lines_until_pong(ann, "tables 2")
    assert first[0] == "tables count=2 total=3 page=1 pages=2"
    assert second[0] == "tables count=1 total=3 page=2 pages=2"
    assert [fields(x)[1]["id"] for x in first[1:] + second[1:]] == tables
    for line in ("who 0", "who 3", "tables 0", "tables 3", "tables x"):
        [refused] = await lines_until_pong(ann, line)
        assert fields(refused)[1]["code"] == "bad-argument", line


@pytest.mark.timeout(30)
async def test_the_lists_allowance_spares_the_admins(
    start: Start, register: Register, connect: Connector
) -> None:
    # §5.1: "admins are not limited"
    port = await admin(start, register, lists_burst=1, lists_per_s=0.001)
    boss = await connect.machine(port, "boss", "pw")
    ann = await connect.machine(port, "ann")
    for client, refused in ((boss, []), (ann, ["slow-down"])):
        said = [
            fields(x)[1].get("code")
            for line in ("who", "tables", "who")
            for x in await lines_until_pong(client, line)
            if x.startswith("error ")
        ]
        assert said == refused * 2, client.label


@pytest.mark.timeout(30)
async def test_leave_answers_each_case_in_the_words_of_5_6(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    # "Otherwise: error code=not-seated text=you sit at no table and observe none"
    assert await lines_until_pong(eve, "leave") == [
        "error code=not-seated nowhere=1 text=you sit at no table and observe none"
    ]
    # waiting: "ok cmd=leave text=You leave table T.; the others see event … kind=left"
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await bob.expect("event", kind="seated")
    assert await lines_until_pong(bob, "leave") == [f"ok cmd=leave text=You leave table {table}."]
    await ann.expect("event", kind="seated")
    assert await lines_until_pong(ann, "ping") == [
        f"event seq=3 table={table} kind=left name=bob seat=1"
    ]
    # observing: one ok each; then seeking: as unseek
    await bob.send("new 2")
    other = (await bob.expect("ok", cmd="sit"))["table"]
    for watched in (other, table):
        await eve.send(f"observe {watched}")
        await eve.expect("info")  # (the table waits for players)
    assert sorted(await lines_until_pong(eve, "leave")) == [  # (each table answers: no order)
        f"ok cmd=leave text=You stop observing table {watched}." for watched in (table, other)
    ]
    await eve.send("seek 4")
    await eve.expect("ok", cmd="seek")
    assert await lines_until_pong(eve, "leave") == [
        "ok cmd=unseek text=You no longer wait for a game."
    ]
    assert await lines_until_pong(eve, "unseek") == [
        "error code=not-allowed text=you are not waiting for a game"
    ]


@pytest.mark.timeout(30)
async def test_observe_unobserve_and_state_answer_in_the_words_of_5_7_and_5_10(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2")
    waiting = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    # "ok cmd=observe table=T …, then at once your view": the observer line first (its
    # seq carried by the view, §5.7), and a waiting table's info
    waits = f"info text=Table {waiting} waits for players: ann, (free)"
    assert await lines_until_pong(eve, f"observe {waiting}") == [
        f"ok cmd=observe table={waiting} text=You observe table {waiting}.",
        f"event seq=2 table={waiting} kind=observer name=eve watching=1 observers=1",
        waits,
    ]
    assert await ann.read_until(lambda _: True) == (
        f"event seq=2 table={waiting} kind=observer name=eve watching=1 observers=1"
    )
    # §5.10: "At a table still waiting for players: info text=Table T waits for players:
    # anna, (free)" — seated there or watching it
    assert await lines_until_pong(ann, "state") == [waits]
    assert await lines_until_pong(eve, "state") == [waits]
    # a running match watched too: state is the lowest-numbered table's view
    await bob.send("new 2")
    running = (await bob.expect("ok", cmd="sit"))["table"]
    zed = await connect.machine(port, "zed")
    await zed.send(f"sit {running}")
    await bob.expect("event", kind="start")
    await eve.send(f"observe {running}")
    await eve.expect("ok", cmd="observe", table=running)
    view = fields(await eve.read_until(lambda x: x.startswith("state ")))[1]
    assert (view["table"], view["seat"], view["hand"]) == (running, "-", "")
    assert await lines_until_pong(eve, "state") == [waits]  # (table 1 before table 2)
    # §5.7 unobserve: a word is no table; every table, one ok naming them; then none
    assert await lines_until_pong(eve, "unobserve x") == [
        "error code=bad-argument text=unobserve [TABLE]"
    ]
    assert await lines_until_pong(eve, "unobserve") == [
        f"ok cmd=unobserve table={waiting},{running} text=You stop observing tables"
        f" {waiting} and {running}."  # (it said 'table 1,2': corrected)
    ]
    for line in ("unobserve", f"unobserve {running}"):
        [refused] = await lines_until_pong(eve, line)
        assert fields(refused)[1]["code"] == "not-allowed", line
    assert await lines_until_pong(ann, "ping") == [
        f"event seq=3 table={waiting} kind=observer name=eve watching=0 observers=0"
    ]


@pytest.mark.timeout(30)
async def test_watching_two_tables_say_rules_and_state_take_the_lowest_numbered(
    port: int, connect: Connector
) -> None:
    # §5.8: "to that table's watchers only (the lowest-numbered table you observe)";
    # §5.9 and §5.10 take the same table
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2")
    low = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send("new 3 to-301")
    high = (await bob.expect("ok", cmd="sit"))["table"]
    for table in (high, low):  # the higher first
        await eve.send(f"observe {table}")
        await eve.expect("info")
    assert await lines_until_pong(eve, "say hi") == [f"say from=eve table={low} watchers=1 text=hi"]
    # (§5.9 said "the first you observe": the lowest-numbered, a slip corrected)
    assert (await lines_until_pong(eve, "rules"))[0] == (
        f"rules text=Table {low}: moscow for 2 players, options: none, to 501."
    )
    assert await lines_until_pong(eve, "state") == [
        f"info text=Table {low} waits for players: ann, (free)"
    ]


@pytest.mark.timeout(30)
async def test_new_reads_options_in_any_case_sorted_once_and_caps_tables(
    start: Start, connect: Connector
) -> None:
    # §5.3: "Options are read in any case too (To-301 is to-301), sorted and
    # de-duplicated"; busy past the address's waiting tables (and the server's tables)
    port = await start(max_tables_per_address=2, max_tables=3)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 To-301 posled-20 TO-301")
    await ann.expect("ok", cmd="sit")
    listed = await lines_until_pong(ann, "tables")
    assert fields(listed[-1])[1]["options"] == "posled-20,to-301", listed
    bob = await connect.machine(port, "bob")
    await bob.send("new 2")
    await bob.expect("ok", cmd="sit")
    cid = await connect.machine(port, "cid")
    assert await lines_until_pong(cid, "new 2") == [
        "error code=busy text=your address has 2 waiting tables open; sit at one or wait"
    ]
    other = await connect.machine(port, "other", source="127.0.0.2")
    await other.send("new 2")
    await other.expect("ok", cmd="sit")
    elsewhere = await connect.machine(port, "far", source="127.0.0.3")
    [refused] = await lines_until_pong(elsewhere, "new 2")
    assert fields(refused)[1]["code"] == "busy"  # the server's 3 tables are open


@pytest.mark.timeout(30)
async def test_sit_refuses_words_and_seats_out_of_range_and_is_told_by_seat(
    port: int, connect: Connector
) -> None:
    # §5.4: bad-argument for "not numbers; SEAT out of range"; the reply's seats=, and
    # the seated line to everyone at the table
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    for line in ("sit x", f"sit {table} x", f"sit {table} 3", f"sit {table} -1"):
        [refused] = await lines_until_pong(bob, line)
        assert fields(refused)[1]["code"] == "bad-argument", (line, refused)
    assert await lines_until_pong(bob, f"sit {table} 2") == [
        f"ok cmd=sit table={table} seat=2 seats=ann,-,bob text=You sit at table {table},"
        " seat 2. At the table: ann (seat 0).",
        f"event seq=2 table={table} kind=seated name=bob seat=2",
    ]
    assert await lines_until_pong(ann, "ping") == [
        f"event seq=2 table={table} kind=seated name=bob seat=2"
    ]


@pytest.mark.timeout(30)
async def test_every_no_of_5_6_keeps_a_persons_seat(port: int, connect: Connector) -> None:
    # §5.6: "An answer no (or n, net, нет, Ukrainian ні, any case) within those 10 s keeps
    # the seat, info text=You stay at table T."; then leave! leaves with no question
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    sat = await ann.read_until(lambda x: x.startswith("You sit at table"))
    table = sat.split()[4].rstrip(",")
    await bob.send(f"sit {table}")
    await bob.expect("event", kind="start")
    for answer in ("n", "NET", "Нет", "ні", "НІ"):
        await ann.send("leave")
        await ann.read_until(lambda x: x.startswith("Leaving forfeits the game"))
        await ann.send(answer)
        said = await ann.read_until(lambda x: x.startswith(("You stay", "Error")))
        assert said == f"You stay at table {table}.", answer
    await ann.send("leave!")
    assert await ann.read_until(lambda x: x.startswith(("You leave", "Leaving"))) == (
        f"You leave table {table}."
    )
    await bob.expect("event", kind="match-end", reason="left")


@pytest.mark.timeout(30)
async def test_reserve_answers_in_the_words_of_5_5a(
    start: Start, register: Register, connect: Connector
) -> None:
    port = await admin(start, register)
    boss = await connect.machine(port, "boss", "pw")
    pa = await connect.machine(port, "pa", "pw1-pa")  # registered: still no admin
    assert await lines_until_pong(pa, "reserve 2 moscow seats=pa,pb") == [
        "error code=not-allowed text=reserve is for the server's admins"
    ]
    for line in (
        "reserve 2 moscow seats=pa,pb watch=some",
        "reserve 2 moscow seats=pa,pb deals=1.5",
        "reserve 2 moscow seats=pa,pa",
        "reserve 3 moscow seats=pa,pb",
    ):
        [refused] = await lines_until_pong(boss, line)
        assert fields(refused)[1]["code"] == "bad-argument", (line, refused)
    said = await lines_until_pong(boss, "reserve 2 moscow seats=pa,pb")
    table = fields(said[0])[1]["table"]
    assert said[0] == f"ok cmd=reserve table={table} text=Table {table} is reserved for pa, pb."
    # "the admin then observes the table (§5.7) from its first event"
    await pa.send("seek reserved")
    await pa.expect("ok", cmd="sit", table=table)
    await boss.read_until(lambda x: " kind=seated " in x)
    told = [fields(x)[1] for x in boss.lines if x.startswith("event ")]
    assert [int(e["seq"]) for e in told] == list(range(1, len(told) + 1)), told
    assert told[-1]["name"] == "pa"
    [released] = await lines_until_pong(boss, "release nothing-held")
    assert released.startswith("ok cmd=release board=nothing-held records=0 text="), released


@pytest.mark.timeout(30)
async def test_rules_arguments_and_a_player_counts_line_as_5_9_says(
    start: Start, register: Register, connect: Connector
) -> None:
    port = await admin(start, register)
    boss = await connect.machine(port, "boss", "pw")
    ann = await connect.machine(port, "ann")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    said = await lines_until_pong(ann, f"rules {table}")
    # "the player count's ... names itself: Three players: …"
    assert said[1].startswith("rules text=Three players: "), said
    for line in (f"rules {table} {table}", "rules frob", "rules to-301 short"):
        [refused] = await lines_until_pong(ann, line)
        assert fields(refused)[1]["code"] == "bad-argument", (line, refused)
    # a ladder's board, not listed to a player there is none of: unknown-table
    await boss.send("reserve 2 moscow seats=pa,pb board=k")
    board = (await boss.expect("ok", cmd="reserve"))["table"]
    assert await lines_until_pong(ann, f"rules {board}") == [
        f"error code=unknown-table text=there is no table {board}"
    ]
    told = await lines_until_pong(boss, f"rules {board}")  # (after the observe's lines)
    assert next(x for x in told if x.startswith("rules ")).startswith(
        f"rules text=Table {board}: moscow"
    )


@pytest.mark.timeout(30)
async def test_a_table_leaves_the_list_when_its_match_ends(port: int, connect: Connector) -> None:
    # §5.2: "A table disappears from the list when its match ends or its last player
    # leaves" (its players still seated there, the match over)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("event", kind="start")
    listed = [x for x in await lines_until_pong(bob, "tables") if x.startswith("table")]
    assert listed[0].startswith("tables count=1 ") and len(listed) == 2, listed
    await ann.send("leave")  # forfeits: the match ends
    await bob.expect("event", kind="match-end")
    assert await lines_until_pong(bob, "tables") == ["tables count=0 total=0 page=1 pages=1"]


@pytest.mark.timeout(30)
async def test_seekers_sit_in_the_order_they_sought_and_a_seek_ends_as_5_5_says(
    port: int, connect: Connector
) -> None:
    ann, bob, cid, dan = [await connect.machine(port, n) for n in ("ann", "bob", "cid", "dan")]
    # "options= empty when none, and the text then names none"
    assert await lines_until_pong(bob, "seek 3") == [
        "ok cmd=seek players=3 variant=moscow options= text=Waiting for a moscow game for 3"
        " players."
    ]
    await ann.send("seek 3")
    await ann.expect("ok", cmd="seek")
    # a seek of another game, then of this one again: bob goes to the back, behind ann;
    # ann's seek of the game she waits for keeps her place (§5.5 said any second seek
    # went to the back: a slip, corrected)
    for client, line in ((bob, "seek 3 to-301"), (bob, "seek 3"), (ann, "seek 3")):
        await client.send(line)
        await client.expect("ok", cmd="seek")
    await cid.send("seek 3")
    seats = {c.label: (await c.expect("ok", cmd="sit"))["seat"] for c in (ann, bob, cid)}
    assert seats == {"ann": "0", "bob": "1", "cid": "2"}  # "the first seeker gets seat 0"
    # "Opening or sitting at a table ends a seek"
    await dan.send("seek 4")
    await dan.expect("ok", cmd="seek")
    await dan.send("new 2")
    await dan.expect("ok", cmd="sit")
    await dan.send("leave")
    await dan.expect("ok", cmd="leave")
    assert await lines_until_pong(dan, "unseek") == [
        "error code=not-allowed text=you are not waiting for a game"
    ]
    eli = await connect.machine(port, "eli")
    await eli.send("new 2 to-1001")
    waiting = (await eli.expect("ok", cmd="sit"))["table"]
    await dan.send("seek 4")
    await dan.expect("ok", cmd="seek")
    await dan.send(f"sit {waiting}")
    await dan.expect("ok", cmd="sit")
    await dan.send("leave!")
    await dan.expect("event", kind="match-end")  # (after its ok cmd=leave)
    assert await lines_until_pong(dan, "unseek") == [
        "error code=not-allowed text=you are not waiting for a game"
    ]


@pytest.mark.timeout(30)
async def test_a_match_left_at_once_is_told_in_russian_as_5_5_has_it(
    port: int, connect: Connector
) -> None:
    vera = await connect.raw(port, "vera")
    await vera.send("login vera lang=ru")
    ivan = await connect.raw(port, "ivan")
    await ivan.send("style machine")
    await ivan.expect("ok", cmd="style")
    await ivan.send("login ivan lang=ru")
    await ivan.expect("ok", cmd="login")
    told: list[str] = []
    for player, game in ((vera, "2"), (ivan, "2 to-301")):  # (vera's seek is kept)
        grief = await connect.machine(port, "grief", source=f"127.0.0.{2 + len(told)}")
        await player.send(f"seek {game}")
        await grief.send(f"seek {game}")
        await grief.expect("event", kind="start")
        await grief.send("leave!")
        await grief.expect("ok", cmd="leave")
        await grief.send("quit")  # (the next grief is another connection of that name)
        await grief.wait_closed()
        line = await player.read_until(lambda x: "first deal ended" in x or "первой раздачи" in x)
        while not line.endswith("."):  # a person's sentence, wrapped at 80 columns
            line += " " + (await player.read_until(lambda _: True)).strip()
        told.append(line)
    assert told == [
        "grief покидает стол до конца первой раздачи: вы снова ждёте партию moscow на"
        " двоих, в начале очереди, и с игроком grief вас 10 мин не сведут.",
        # a program is told in English, whatever its lang (§4.2: lang is the human style's)
        # (the game named in fields too, §5.5)
        "info first_in_line=1 players=2 variant=moscow options=to-301 leaver=grief"
        " apart_ms=600000 text=grief left before the first deal ended: seek a moscow game"
        " for 2 players (to-301) again and you are first in line, and are not matched"
        " with grief again for 10 min.",
    ]
    # the program's sentence in Russian, as §5.5 quotes it (a client may show it so)
    apart = phrase(Msg.SEEK_APART, name="grief", minutes=10)
    russian = phrase(
        Msg.SEEK_KEPT_PLACE,
        name="grief",
        for_players=game_for(2),
        variant="moscow",
        options="",
        apart=apart,
    ).text(Lang.RU)
    quoted = section("5.5").split("(Russian: `… ", 1)[1].split("`)", 1)[0].removesuffix(" …")
    assert quoted in russian, (quoted, russian)


@pytest.mark.timeout(30)
async def test_a_watcher_who_sits_down_stops_watching_told_as_seated(
    port: int, connect: Connector
) -> None:
    # §5.7: "Sitting down at a table you observe ends the observing (a seat sees more)";
    # "a watcher who sits down is told as seated instead"; §5.3: new's defaults; §5.8:
    # no text is bad-argument
    ann = await connect.machine(port, "ann")
    eve = await connect.machine(port, "eve")
    assert await lines_until_pong(eve, "say") == ["error code=bad-argument text=say TEXT"]
    await ann.send("new")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    listed = fields((await lines_until_pong(eve, "tables"))[1])[1]
    assert (listed["players"], listed["variant"], listed["options"]) == ("2", "moscow", "")
    await eve.send(f"observe {table}")
    await eve.expect("info")
    await ann.expect("event", kind="observer", watching="1")
    await eve.send(f"sit {table}")
    await eve.expect("ok", cmd="sit")
    await ann.expect("event", kind="seated", name="eve")
    await ann.expect("event", kind="start")
    await lines_until_pong(ann, "ping")  # (all the table told her so far)
    assert not [x for x in ann.lines if "watching=0" in x]
    listed = fields((await lines_until_pong(eve, "tables"))[-1])[1]
    assert listed["observers"] == "0"
    # a bare 'unobserve' names no table (a Tertz evening, s39: "you observe no such
    # table" pointed at one); a table named, not observed, is "no such table"
    assert await lines_until_pong(eve, "unobserve") == [
        "error code=not-allowed text=you observe no table"
    ]
    assert await lines_until_pong(eve, f"unobserve {table}") == [
        "error code=not-allowed text=you observe no such table"
    ]


@pytest.mark.timeout(30)
async def test_a_private_tables_match_is_listed_in_games_as_any_other(
    port: int, connect: Connector
) -> None:
    # §5.3: "Its match is played and recorded like any other: once it is over it is
    # listed in games"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    await bob.send(f"sit {table}")
    await bob.expect("event", kind="start")
    await ann.send("leave")
    await bob.expect("event", kind="match-end")
    listed = await lines_until_pong(eve, "games ann")
    assert listed[0] == "games name=ann count=1", listed
    assert fields(listed[1])[1]["players"] == "ann,bob", listed


@pytest.mark.timeout(30)
async def test_unobserve_of_several_tables_names_them_as_a_person_lists_them(
    port: int, connect: Connector
) -> None:
    # (it said 'table 1,2' and «за столом 1,2»)
    openers = [await connect.machine(port, name) for name in ("ann", "bob", "cid")]
    tables = []
    for opener in openers:
        await opener.send("new 2")
        tables.append((await opener.expect("ok", cmd="sit"))["table"])
    vera = await connect.raw(port, "vera")
    await vera.send("login vera lang=ru")
    for table in tables:
        await vera.send(f"observe {table}")
        await vera.read_until(starting(f"Стол {table} ждёт"))
    await vera.send("unobserve")
    first, second, third = tables
    assert await vera.read_until(lambda x: x.startswith("Вы больше не")) == (
        f"Вы больше не смотрите за столами {first}, {second} и {third}."
    )


@pytest.fixture
def still_clock() -> MockClock:
    """Time that moves only when the test jumps it (the test runs on it): the clock a
    state line gives is then the ask's less exactly the jump, however slow the host (on
    one that followed real time a stall of a second failed the check)."""
    return MockClock()


@pytest.mark.timeout(30)
async def test_state_seated_is_the_ask_with_the_clock_left_or_the_state(
    port: int, connect: Connector, still_clock: MockClock
) -> None:
    # §5.10: "Seated: your seat's view again — an ask (with the clock left) if you are to
    # act, else a state line"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    asked = await next_ask(ann, bob)
    assert asked is not None
    ask, player = asked
    other = bob if player is ann else ann
    still_clock.jump(3)
    [again] = await lines_until_pong(player, "state")
    tag, said = fields(again)
    spent = int(ask["clock"]) - int(said["clock"])
    assert tag == "ask" and spent == 3000, (ask, again)  # the jump; round trips take none
    assert {k: v for k, v in said.items() if k != "clock"} == {
        k: v for k, v in ask.items() if k != "clock"
    }
    view = (await lines_until_pong(other, "state"))[-1]  # (after what next_ask left)
    # nothing to do but, in the rare deal that gives it four sevens, show them (§8.4:
    # out of turn, so its state offers them)
    assert fields(view)[0] == "state" and fields(view)[1]["legal"] in ("", "chetyre-semerki")


@pytest.mark.timeout(30)
async def test_a_lobby_say_reaches_watchers_not_players_and_rules_speak_russian_when_asked(
    port: int, connect: Connector
) -> None:
    # §5.8: "Otherwise: to every logged-in connection that sits at no table (you
    # included)": a watcher sits at none; §5.9: "rules [TABLE] lang=ru answers in
    # Russian in either style"
    ann = await connect.machine(port, "ann")
    eve = await connect.machine(port, "eve")
    carl = await connect.machine(port, "carl")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    await eve.send(f"observe {table}")
    await eve.expect("info")
    await ann.expect("event", kind="observer")
    said = "say from=carl table=- text=hi lobby"
    assert await lines_until_pong(carl, "say hi lobby") == [said]
    assert await lines_until_pong(eve, "ping") == [said]
    assert await lines_until_pong(ann, "ping") == []
    russian = await lines_until_pong(carl, f"rules {table} lang=ru")
    assert russian[0] == f"rules text=Стол {table}: moscow на двоих, опции: нет, до 501."
    assert russian[-1].startswith("rules text=Часы: 60 с на ход людям, 10 с ботам"), russian


@pytest.mark.timeout(30)
async def test_leave_does_the_first_case_of_5_6_that_holds_and_only_it(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await bob.send("new 2")
    watched = (await bob.expect("ok", cmd="sit"))["table"]
    await ann.send("new 3")
    seat = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    await ann.send(f"observe {watched}")
    await ann.expect("info")
    stop = f"ok cmd=leave text=You stop observing table {watched}."
    assert await lines_until_pong(ann, "leave") == [f"ok cmd=leave text=You leave table {seat}."]
    assert await lines_until_pong(ann, "leave") == [stop]
    await ann.send("seek 4")
    await ann.expect("ok", cmd="seek")
    await ann.send(f"observe {watched}")
    await ann.expect("info")
    assert await lines_until_pong(ann, "leave") == [stop]
    assert await lines_until_pong(ann, "leave") == [
        "ok cmd=unseek text=You no longer wait for a game."
    ]


class TargetByPlayers:
    """A third party's variant that plays to 301 at three, to 501 else."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="bycount", kind="variant", summary="Plays to 301 at three.")

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        if players == 3:
            settings.target = 301


@pytest.mark.timeout(30)
async def test_the_rules_list_leaves_out_a_target_that_differs_with_the_player_count(
    nursery: trio.Nursery, tmp_path: Path, connect: Connector
) -> None:
    # §5.9: "a variant's line names the target it plays to without options (moscow
    # (variant, 2, 3 or 4 players, to 501): …); left out if it differs with the player count"
    config = make_config(tmp_path / "plugin.sqlite3")
    port = await nursery.start(functools.partial(serve, config, rules=rule_book(TargetByPlayers())))
    ann = await connect.machine(port, "ann")
    listed = [x for x in await lines_until_pong(ann, "rules") if "(variant, " in x]
    assert "rules text=bycount (variant, 2, 3 or 4 players): Plays to 301 at three." in listed
    moscow = "rules text=moscow (variant, 2, 3 or 4 players, to 501): "
    assert any(x.startswith(moscow) for x in listed)


@pytest.mark.timeout(30)
async def test_a_running_tables_line_names_its_players_away_only_when_one_is(
    port: int, connect: Connector
) -> None:
    # §5.2: "The players away ... are named in away, appended only when someone is"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    cid = await connect.machine(port, "cid")
    table, _, _ = await seat_pair(ann, bob)
    [_, line] = await lines_until_pong(cid, "tables")
    assert line.endswith(" state=playing observers=0"), line
    await bob.aclose()
    await ann.expect("event", kind="away", name="bob")
    [_, line] = await lines_until_pong(cid, "tables")
    assert fields(line)[1]["id"] == str(table)
    assert line.endswith(" state=playing observers=0 away=bob"), line


@pytest.mark.timeout(60)
async def test_a_seek_that_finds_a_waiting_table_is_seated_before_its_next_line(
    port: int, connect: Connector
) -> None:
    # §5.5: a seek made while a table of its game waits "sits there at once (ok
    # cmd=seek, then ok cmd=sit of that table)", and §2.3 answers the lines in order: a
    # 'new' on its heels is already-seated there. It was not always: the table seated
    # him whenever it came to it, and a 'new' read first opened him a table of his own,
    # the promised seat refused with an already-seated line of nobody's asking and the
    # waiting table left waiting (a race: some rounds of 16 met it)
    for round_ in range(16):
        opener = await connect.machine(port, f"op{round_}")
        await opener.send("new 2")
        table = (await opener.expect("ok", cmd="sit"))["table"]
        seeker = await connect.machine(port, f"sk{round_}")
        await seeker.send_raw(b"seek 2\nnew 2\nping\n")
        await seeker.expect("ok", cmd="ping")
        replies = [x for x in seeker.lines if x.startswith(("ok ", "error "))][2:]  # (login)
        assert [fields(x)[1].get("cmd", fields(x)[1].get("code")) for x in replies] == [
            "seek",
            "sit",
            "already-seated",
            "ping",
        ], (round_, replies)
        assert fields(replies[1])[1]["table"] == table, (round_, replies)
        assert (
            replies[2] == f"error code=already-seated text=you sit at table {table}: 'leave' first"
        )
    # and the seek that completes a group of seekers: seated at their new table first
    for round_ in range(16):
        first = await connect.machine(port, f"first{round_}")
        await first.send("seek 2 to-1001")
        await first.expect("ok", cmd="seek")
        last = await connect.machine(port, f"last{round_}")
        await last.send_raw(b"seek 2 to-1001\nnew 2\nping\n")
        await last.expect("ok", cmd="ping")
        replies = [x for x in last.lines if x.startswith(("ok ", "error "))][2:]
        codes = [fields(x)[1].get("cmd", fields(x)[1].get("code")) for x in replies]
        assert codes == ["seek", "sit", "already-seated", "ping"], (round_, replies)
        table = fields(replies[1])[1]["table"]
        assert (await first.expect("ok", cmd="sit"))["table"] == table


@pytest.mark.timeout(60)
async def test_a_watcher_receives_the_tables_events_says_and_records(
    port: int, connect: Connector
) -> None:
    # §5.7: "From then on you receive every event, say and record of that table"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.expect("info")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await ann.send("say good luck")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1))
        nursery.start_soon(play_machine, bob, random.Random(2))
    await eve.read_until(lambda x: " kind=match-end " in x)
    await lines_until_pong(eve, "ping")
    told = {x.split(" ", 1)[0] for x in eve.lines}
    assert {"event", "say", "record"} <= told, told
    seen = [x for x in eve.lines if x.startswith("event ")]
    kinds = [fields(x)[1]["kind"] for x in seen]
    assert kinds[0] == "observer" and "deal" in kinds and kinds[-1] == "match-end", kinds
    assert [x for x in seen if x not in ann.lines] == []  # the very lines the players get
    assert "say from=ann table=" + table + " text=good luck" in eve.lines
