"""An audit of docs/protocol.md against the server, part 2: at a table (§6), the table
calls (§8) and a deal step by step (§9). Each promise a client may rely on, and (→) the
tests that pin it: a module under tests/ and its tests, "here" for this module's. The
examples of these sections are checked here against a real server dealt the examples'
cards (the deck, the first dealer and a later deal's score fixed in-process, as the
examples were made: fixture `fixed`), line for line, `seq=` and the deal number moved
to the start of a match where an example is from later in one; the refusals of a deal's
later moments at the engine, at moments whose legal calls are the examples'.

§6.1 seats in the order of play; the seat after the dealer is dealt first, bids first and
leads the first trick
    → here: test_a_whole_match_is_told_as_6_says (2, 3, 4 players);
    → game/test_variants.py test_three_players_dealing_order,
      test_four_players_deal_six_then_two_turned_card_to_the_dealer;
      game/test_dealing.py
§6.1 with player-leads the one who ordered leads
    → game/test_options.py test_player_leads_the_dealer_who_ordered_leads
§6.1 the first dealer is drawn from the match seed
    → game/test_seeding.py
      test_the_first_dealer_is_the_standard_library_draw_of_the_seeded_generator
§6.1 sides (four players: 0 and 2, 1 and 3); every per-side list one entry a side, side 0
first; `winner=` a side, `name=` its seats' names
    → here: test_a_whole_match_is_told_as_6_says (score, tricks, points, written, totals
      by side; match-end's side and names); protocol/test_render.py
      test_four_player_totals_name_both_partners, test_match_end_for_a_pair_and_for_a_draw
§6.1 the four players' example
    → here: test_the_four_players_of_6_1_are_what_the_server_sends (to its "…"; the
      lines after it are a later deal's, their fields: protocol/test_wire.py golden lines)
§6.2 every event public: to every connected seat and every observer; `seq` 1, 2, … without
gaps
    → here: test_a_whole_match_is_told_as_6_says; protocol/test_protocol_audit.py
      test_seq_counts_every_event_without_gaps_and_asks_carry_the_last
§6.2 each kind's fields, as the table lists them, in its order
    → here: test_a_whole_match_is_told_as_6_says (every event of ten matches, 2 to 4
      players, plain and with options, held to the table read from the page: seated,
      observer, start, deal, call, play, order, dealt, trick, shown, deal-end,
      match-end); protocol/test_wire.py
      test_a_real_servers_lines_round_trip_and_only_append_to_the_documented_fields;
      away, back: server/test_away_told.py, server/test_reconnect.py; left:
      server/test_reconnect.py test_leaving_a_waiting_table_frees_the_seat; dealt and
      order's fresa=- with poltinniki or swap-before-extra: game/test_events.py
      test_swap_before_extra_the_order_then_the_last_cards_after_the_answers,
      game/test_short_games.py test_without_poltinniki_the_last_cards_come_at_once;
      penalty: here test_a_penalty_is_told_and_the_deal_ends, game/test_options.py
      (table-penalties); match-end's forfeit=: here
      test_a_forfeits_match_end_has_its_fields_in_the_order_6_2_and_9_7_give,
      game/test_forfeit_winner.py, game/test_events.py; poltinniki's and
      swap-before-extra's dealt: here test_a_whole_match_is_told_as_6_says
§6.2 the order of one call's events: the card, an engine-made pokazyvayu after it, each
shown right after its pokazyvayu, order, trick, deal-end + record + the next deal or
match-end
    → here: test_a_whole_match_is_told_as_6_says, test_skin_in_9_3_is_what_the_server_sends;
      game/test_events.py (dealt after order)
§6.2 `leader`: the previous trick's winner, or the deal's first leader
    → here: test_a_whole_match_is_told_as_6_says
§6.3 one `ask` after every accepted call (own talk calls included) and at a deal's start,
to the one seat the table waits for; `state` to every other seat when a deal is dealt
and when the game is ordered, and at no other moment of play; a seat not to act
follows through events (§6.3 did not say that with poltinniki or swap-before-extra the
states come with the last cards, at `dealt`, not at the order: a slip, corrected)
    → here: test_a_whole_match_is_told_as_6_says (plain, poltinniki, swap-before-extra),
      and every example test
§6.3 `state` to a reconnecting seat not to act (an `ask`, the clock left, to one to act)
    → here: test_a_seat_back_when_not_to_act_gets_a_state;
      server/test_reconnect.py test_reconnect_resumes_the_seat
§6.3 `state` to an observer as it starts observing, and on the `state` command
    → server/test_commands.py test_observe_and_state; protocol/test_protocol_audit.py
      test_a_seq_beyond_the_tables_is_no_request_yet_and_changes_nothing
§6.3 the example line
    → server/test_doc_ask_lines.py test_the_example_of_section_6_3_is_what_a_real_match_sends;
      here: test_the_errors_of_9_4_and_9_5_at_the_start_of_a_deal_are_the_servers (its
      moment over the wire)
§6.3 the fields, in order, `players` after `legal`, a game's own after it
    → server/test_doc_ask_lines.py (every example of the page); server/test_ask_line.py
      test_the_ask_line_is_the_rendered_view_on_every_state; protocol/test_wire.py
§6.3 `phase=ordered` until the last cards are dealt (said only of poltinniki; so it is with
swap-before-extra, whose question waits before them too: a slip, corrected)
    → here: test_a_whole_match_is_told_as_6_says[2 to-301 poltinniki],
      [2 to-301 swap-before-extra]
§6.3 each field's value: deal (void deals counted), phase, seat, dealer, to_act, trump,
player, round, leader, trick, tricks, score, hanging, target, pending, shown, talk,
players; an observer's seat=-, empty hand and legal, clock=-
    → here: test_a_whole_match_is_told_as_6_says (each held to what the events told),
      and the examples (pending rost, rost-reply, show; round=2 kept in play; turned=- and
      fresa=- with four players; turned after menyayu; the hand sorted by suit, trumps in
      trump order)
§6.3 `fresa=-` with fresa-hidden; a tertz table's own fields
    → game/test_options.py test_fresa_hidden_the_view_shows_no_fresa;
      server/test_ask_line.py; tertz/ (talon, their_tricks)
§6.3 `clock`: a fresh ask's full allowance with the lag allowance, a state's full
allowance, what is left in a repeated ask
    → here: the examples (clock=10500 at a server of lag_ms=500);
      server/test_reconnect.py test_reconnect_resumes_the_seat (what is left);
      server/test_clock.py
§6.3 `legal`: talk calls first, then cards, then an option's calls; a question's answers
first; empty in a state unless an out-of-turn call; empty for observers
    → here: the examples, test_a_whole_match_is_told_as_6_says,
      test_out_of_turn_calls_case_yo_hyphens_and_two_alphabets_on_the_wire,
      test_an_options_call_comes_after_the_cards_in_legal
§6.3 `legal` complete and exact: every token accepted, nothing else
    → here: test_a_whole_match_is_told_as_6_says (every call a random pick of legal=, none
      refused); game/test_properties.py test_apply_accepts_exactly_the_legal_calls;
      protocol/test_vocabulary.py test_every_legal_calls_own_token_reads_as_that_call
§6.3 one legal card is still asked; no automatic play but the clock's
    → here: test_a_whole_match_is_told_as_6_says
§8 not seated: `unknown-command`, `'WORD' is not a command, and you sit at no table.`
    → protocol/test_protocol_audit.py test_a_mistyped_commands_name_is_said_to_people_only;
      server/test_said_back.py
§8 seated at a table not started: a call (or near one) `wrong-phase` `the game has not
  started`, a line neither command nor call `unknown-command`, `command_hint=`, what it waits for
    → here: test_a_line_at_a_table_not_started_is_refused_as_a_call_or_as_no_command,
      test_no_command_at_a_table_not_started_in_russian_and_without_house_bots
§8 after match-end: `unknown-command` naming the match's table while its rematch is offered
(and in Russian)
    → server/test_rematch.py test_a_table_call_after_the_match_says_the_match_is_over
§8 a call reaching the table as its match ends: `wrong-phase` `the game is over`
    → here: test_a_call_that_reaches_the_table_as_its_match_ends_is_told_the_game_is_over
      (in-process: over the wire a race between two connections, which no test can make
      happen on purpose; a line read after match-end is the one above)
§8 a line that is no call: `unknown-command text=<what is wrong>. Type 'help' or 'calls'.`
    → here: test_the_errors_of_9_4_and_9_5_at_the_start_of_a_deal_are_the_servers
      (igrayu zz); server/test_said_back.py; server/test_call_hints.py
§8 case never matters, `ё` reads as `е`, `-` as a space
    → here: test_out_of_turn_calls_case_yo_hyphens_and_two_alphabets_on_the_wire;
      protocol/test_vocabulary.py test_spellings
§8 a word in two alphabets is the word it shows, played, and refused as itself
    → here: test_out_of_turn_calls_case_yo_hyphens_and_two_alphabets_on_the_wire;
      protocol/test_vocabulary.py test_a_word_in_two_alphabets_is_the_word_it_shows,
      test_a_word_in_two_alphabets_that_shows_no_word_is_no_call,
      test_a_plugins_word_in_two_alphabets_is_read_too; server/test_mixed_letters.py
§8 a hint: one call near, `hint=` before `text=`, people told "Did you mean"; none when
nothing or two are near; nothing played
    → protocol/test_hints.py; server/test_call_hints.py
      test_a_slip_of_the_keys_gets_a_hint_and_changes_nothing,
      test_people_are_asked_did_you_mean_in_their_language
§8 no hint for a line of more than 32 letters
    → here: test_no_hint_for_a_line_of_more_than_32_letters
§8 a command's name near, or a word for what it does, told to people only
    → protocol/test_hints.py test_a_mistyped_command_is_hinted,
      test_a_command_typed_by_what_it_does_is_named;
      server/test_call_hints.py test_a_mistyped_command_is_named_to_people_at_a_table_or_not
§8.1 ranks, suits, words, `hod`/`ход`/`хід`/`card`, English and Ukrainian words, genitives
    → here: test_every_spelling_8_1_and_8_2_list_is_its_call (each example the page gives);
      protocol/test_vocabulary.py test_spellings,
      test_words_and_look_alike_letters_that_mean_one_card, test_every_rank_said_in_english,
      test_nothing_but_of_is_no_call; protocol/test_vocabulary_uk.py
§8.1 the look-alike `T`/`Т`: the one legal it means is played, both asked
(`ambiguous-rank`), neither read as its alphabet says; a Cyrillic `Т` never the ten
unasked, a Latin `T` never the ace; `ot T`; the Russian style's `Т` always the ace
    → protocol/test_vocabulary.py test_a_look_alike_t_* ,
      test_a_cyrillic_t_is_never_read_as_the_ten_unasked,
      test_a_latin_t_is_never_read_as_the_ace_unasked,
      test_the_russian_ace_as_the_russian_style_shows_it_is_no_question;
      server/test_human_columns.py test_a_look_alike_t_is_asked_about_at_a_real_table;
      protocol/test_hints.py
      test_a_cyrillic_ace_not_held_hints_the_ten_of_its_suit_when_that_is_legal
§8.2 the canonical tokens and their aliases (Russian, English, Ukrainian, apostrophes), an
option's words, Tertz's
    → here: test_every_spelling_8_1_and_8_2_list_is_its_call (every spelling the tables
      list, read at a table of the game or option that has the call);
      protocol/test_vocabulary.py test_spellings,
      test_every_call_as_shown_reads_back_as_itself_even_among_all_the_others,
      test_the_counts_as_russian_players_say_them, test_ot_in_the_shapes_people_say_it,
      test_ot_with_other_words_is_a_clear_error; protocol/test_vocabulary_uk.py
§8.2 an option's calls: only at its tables (`not a table call here`), listed in legal=;
konets offered to people once it could reach the target, a good claim and a false one alike
    → here: test_an_options_words_are_no_call_at_a_table_without_it;
      server/test_input.py test_konets_is_a_call_only_at_a_manual_claim_table,
      test_ne_menyayu_is_a_call_only_at_a_swap_before_extra_table;
      server/test_calls_by_option.py; protocol/test_konets_offer.py;
      server/test_konets_offer.py
§8.2 a third party's tokens in legal= are accepted as they are
    → server/test_plugin_legal_calls.py
§8.2 tertz's own calls (lomayu N, the hundreds, dvesti, mariage, от чего?); another N or
none `bad-argument`
    → tertz/ (test_rules.py, test_words_tertz.py); protocol/test_vocabulary.py
      test_a_numbered_calls_number_is_read_as_a_commands_number_is;
      server/test_tertz_human.py (bad-argument, N from 1 to 12)
§8.2 words left out filled in from legal; a hundred alone, or `ambiguous-call`, or
`not-allowed`
    → protocol/test_vocabulary.py test_legal_calls_settle_what_was_left_out,
      test_a_count_left_out_in_the_genitive_is_filled_in,
      test_a_hundred_said_alone_is_asked_about_when_two_are_legal;
      server/test_tertz_spoken_counts.py
§8.2 a filled-in or aliased call is broadcast in canonical form
    → here: test_out_of_turn_calls_case_yo_hyphens_and_two_alphabets_on_the_wire,
      test_four_sevens_in_9_2_are_what_the_server_sends
§8.2 numbers as calls: 50 a fifty, 20 no terts (a hint a key away at most)
    → here: test_twenty_is_no_terts_and_fifty_is_a_fifty; protocol/test_vocabulary.py
      test_spellings (501 konets)
§8.2 «пишу» refused with what it may mean
    → protocol/test_vocabulary.py test_pishu_names_what_it_may_mean;
      server/test_tertz_spoken_counts.py test_pishu_*
§8.3 the codes listed are every code the engine refuses a call with (game-over aside)
    → here: test_the_codes_8_3_lists_are_every_code_the_engine_refuses_a_call_with
§8.3 the most specific code; the text the case that stops the call (menyayu's three
cases, swap-before-extra's, pokazhi's four, an answer with no question, waiting for a
seat, as spoken to people)
    → game/test_swap.py test_a_refused_swap_says_its_own_case_not_the_whole_rule,
      test_swap_before_extra_gives_the_case_a_refused_swap_meets,
      test_an_answer_with_no_question_says_so; game/test_talk.py
      test_a_refused_pokazhi_says_what_stops_it; protocol/test_refusals.py;
      tertz/test_question_named.py test_the_question_waited_for_is_named_as_spoken;
      here: the §9.4 and §9.5 tests,
      test_a_rost_answered_and_conceded_in_9_3_is_what_the_server_sends (waiting for seat
      1 to answer rost?, over the wire)
§8.3 nothing changes; the request stays open
    → testing.refused (every engine refusal test: the deal unchanged);
      server/test_input.py test_calls_out_of_turn_and_bad_calls_change_nothing;
      here: test_the_errors_of_9_4_and_9_5_at_the_start_of_a_deal_are_the_servers
§8.4 bidding rounds 1 and 2, void when all pass twice and the next seat deals
    → here: test_the_void_deal_of_9_2_is_what_the_server_sends,
      test_the_order_in_round_2_and_the_rost_of_9_3_are_what_the_server_sends;
      game/test_options.py test_without_commitment_all_passes_void_the_deal
§8.4 the options that change it: commitment, bella-after-trick, seven-swap-off
    → game/test_options.py test_commitment_the_dealer_must_name_a_suit_in_round_two,
      test_bella_after_trick_only_once_the_owner_took_a_trick, test_seven_swap_default_and_off
§8.4 four sevens until the first card, even out of turn
    → game/test_swap.py test_four_sevens_in_bidding_even_out_of_turn,
      test_four_sevens_after_the_order_until_the_first_card; here:
      test_out_of_turn_calls_case_yo_hyphens_and_two_alphabets_on_the_wire
§8.4 the talk window; play (follow, trump, overtrump); bella; pokazhi's end
    → game/test_talk.py, game/test_swap.py, game/test_play.py
      test_scripted_play_follow_trump_overtrump_and_winners
§8.4 a pending question: only its answers (and four sevens); answer-required for others
    → game/test_variants.py test_three_players_prokhodit_is_answered_by_both_opponents_in_turn;
      here: test_the_talk_errors_of_9_4_later_in_a_deal_are_the_engines
§8.4 three players: prokhodit? answered by each opponent in turn; four: no rost? or
pokazhi against a partner, no fresa, no swap
    → game/test_variants.py test_three_players_prokhodit_is_answered_by_both_opponents_in_turn,
      test_four_players_no_seven_swap, test_four_players_partner_* ;
      game/test_options.py test_table_penalties_no_rost_against_a_partner_is_no_penalty
§8.5 pokazhi and chetyre-semerki out of turn, sent without seq= or with the last seq seen;
a state lists them; the leader's card first ends four sevens (`not-allowed`)
    → here: test_out_of_turn_calls_case_yo_hyphens_and_two_alphabets_on_the_wire,
      test_an_out_of_turn_call_with_the_last_seq_seen_is_taken,
      test_the_talk_of_9_3_is_what_the_server_sends_in_both_styles (lev's pokazhi)
§8.5 an option's out-of-turn calls (perezdacha)
    → examples/perezdacha/tests/test_perezdacha.py; server/test_plugin_legal_calls.py
§9.1 the start: start, then each deal's deal event, a state to the others and an ask to
the seat after the dealer; the example
    → here: test_the_start_of_9_1_is_what_the_server_sends
§9.1 not while a seated player is away
    → server/test_full_table_waits.py
      test_a_table_filled_while_a_sitter_is_away_waits_and_deals_when_he_is_back
§9.2 each bid an event; the order, a state to the seat not to act and an ask to the leader;
the examples: round 2 and a void deal, an order in round 2, four sevens
    → here: test_the_void_deal_of_9_2_is_what_the_server_sends,
      test_the_order_in_round_2_and_the_rost_of_9_3_are_what_the_server_sends,
      test_four_sevens_in_9_2_are_what_the_server_sends
§9.2 the same dealer deals again after four sevens
    → here: test_four_sevens_in_9_2_are_what_the_server_sends;
      game/test_swap.py test_four_sevens_redeal_by_the_same_dealer
§9.2 the human style names who whistles, and a void deal as not played, with why
    → protocol/test_render.py test_the_order_names_who_whistles_for_two_three_and_four_players,
      test_a_void_deal_says_why_and_that_nothing_is_written; server/test_round_two_told.py
§9.3 questions put the table on hold: pending, to_act the answerer; the table of kinds
    → here: the §9.3 examples (prokhodit, rost, rost-reply, show);
      test_a_whole_match_is_told_as_6_says (every question met: the answerer to act, its
      legal the kind's answers; dave, offer?, offer, swap?, show); game/test_talk.py;
      game/test_variants.py; dave: game/test_short_games.py; offer?, offer:
      game/test_short_games.py test_poltinniki_*; swap?: game/test_rules_audit.py,
      game/test_events.py
§9.3 the sequence (1–6): the swap window, only the true declaration (false-declaration),
longer/same/shorter (forbidden-rost), pokazhi until the second trick's first card, skin,
the engine's pokazyvayu recorded "engine": true, only the declared category shown,
bella, nothing announced after the first trick
    → game/test_talk.py (test_pokazhi_skin_the_demander_plays_first_then_the_cards_are_shown,
      test_pokazhi_pokazyvayu_shows_the_declared_category_only,
      test_forbidden_rost_with_only_a_shorter_combination, test_bella_*);
      game/test_records.py ("engine": true); game/test_swap.py; here: the examples
§9.3 the examples: lev and dima in both styles, rost? answered and conceded, rost? won
by the asker, skin
    → here: test_the_talk_of_9_3_is_what_the_server_sends_in_both_styles (dima's
      transcript left out a `Your hand:` line the server sends before the pokazhi
      question: a slip, corrected),
      test_a_rost_answered_and_conceded_in_9_3_is_what_the_server_sends,
      test_the_order_in_round_2_and_the_rost_of_9_3_are_what_the_server_sends,
      test_skin_in_9_3_is_what_the_server_sends
§9.4 the talk errors, each at its example's moment
    → here: test_the_errors_of_9_4_and_9_5_at_the_start_of_a_deal_are_the_servers (terts in
      the bidding, igrayu s, igrayu zz, pyatdesyat),
      test_the_talk_errors_of_9_4_later_in_a_deal_are_the_engines (forbidden-rost,
      answer-required, rost? after the first card, prokhodit?); the tertz one: tertz/test_rules.py
§9.5 each card an event, the trick after its last card, its winner leads
    → here: test_a_whole_match_is_told_as_6_says; game/test_play.py
§9.5 the card errors, each at its example's moment
    → here: test_the_errors_of_9_4_and_9_5_at_the_start_of_a_deal_are_the_servers
      (must-follow-suit, not-your-turn), test_the_card_errors_of_9_5_later_in_a_deal_are_the_engines
      (illegal-card, must-trump, must-overtrump)
§9.6 deal-end, then record, then the next deal or match-end; the next deal's score and
hanging the deal-end's totals and hanging
    → here: test_a_whole_match_is_told_as_6_says
§9.6 the outcomes and what each writes
    → game/test_scoring.py (made, bide, hanging); here and game/test_swap.py (void);
      game/test_match_end.py (claim); game/test_options.py (false-claim, penalty, deberts);
      here: test_a_penalty_is_told_and_the_deal_ends (penalty, over the wire);
      game/test_short_games.py (gave-up, offer, short); protocol/test_render_short.py
§9.6 the human style: a short game's deal by its winner, a given-up dave's with how
    → protocol/test_render_short.py; server/test_human_short.py; here:
      test_a_dave_given_up_names_the_deals_winner_and_how
§9.6 the human style's lines of what declarations scored, of a bide's, of the points that
hung
    → protocol/test_render.py test_the_deal_end_says_what_the_declarations_scored,
      test_a_bide_says_whose_it_is, test_a_hanging_bide_says_whose_it_is_and_what_hangs,
      test_a_deal_that_wins_the_hanging_points_says_who_writes_them,
      test_a_deal_a_forfeit_ended_tells_no_combinations_as_scored;
      protocol/test_bide_combinations.py; server/test_history.py
§9.6, §9.7 the example lines (and every whole event line of §6 and §9)
    → here: test_the_event_lines_of_6_and_9_have_6_2s_fields_and_their_deal_ends_add_up;
      protocol/test_wire.py test_golden_lines_parse_and_still_parse_with_fields_appended
§9.7 match-end's fields (forfeit= before match=); its totals the last deal-end's, its
winner a side that reached the target, match= as start told it, deals= the deals played
(said "dealt": a deal given up before its first call was dealt, has no record and is
not counted; a slip, corrected)
    → here: test_a_whole_match_is_told_as_6_says,
      test_a_forfeits_match_end_has_its_fields_in_the_order_6_2_and_9_7_give;
      game/test_events.py test_forfeit_and_stop; server/test_reserve.py (deals, a
      ladder's seed=-)
§9.7 the reasons
    → game/test_match_end.py (target, claim); server/test_reserve.py (deals);
      server/test_most_deals.py (most-deals); game/test_forfeit_winner.py,
      server/test_reconnect.py (left, timeouts, away); server/test_table_failure.py
      (internal: winner=- name=- seed=-, no rematch); game/test_options.py (false-claim,
      deberts, short); game/test_short_games.py (stakes, gap)
§9.7 a person's Game over line: claim as target mid-deal, a true konets so said, forfeits
in words
    → protocol/test_konets_end.py; server/test_games.py; server/test_human_table.py
§9.7 the table closes: players back in the lobby, observers stop observing
    → server/test_commands.py test_observe_and_state; server/test_rematch.py
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs
import pytest
import trio

from deberc_net.game import errors as game_errors
from deberc_net.game import events as g
from deberc_net.game import match as match_module
from deberc_net.game.calls import Call
from deberc_net.game.cards import card_str
from deberc_net.game.deal import Deal
from deberc_net.game.match import Match
from deberc_net.game.seeding import deck_for as seeded_deck
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import parse_line
from deberc_net.protocol.hints import hint
from deberc_net.protocol.render import HUMAN, MACHINE, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.protocol.vocabulary import CallSyntaxError, parse_call
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.testing import (
    build_deck,
    build_deck_n,
    build_ruleset,
    legal,
    new_deal,
    refused,
    rule_book,
    say,
    spoken,
)
from tests.protocol.conftest import Start
from tests.protocol.doc_examples import PROTOCOL, example, lines_until_pong, sent
from tests.server.client import LineClient, fields, next_ask, play_machine
from tests.server.conftest import Connector, make_config, told_until

Fix = Callable[..., None]
TOLD = ("event ", "ask ", "state ", "record ", "error ")


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> Fix:
    """The server's seed fixed in-process, as the examples were made: deal N of every
    match is dealt from ``decks[N]``, the first dealer is ``dealer``, and a match starts
    at ``standing`` (the score an example's deal began at)."""
    seeded = seeded_deck
    started = Match.__attrs_post_init__

    def fix(decks: dict[int, tuple[int, ...]], dealer: int, standing: Sequence[int] = ()) -> None:
        def deck(seed: str, deal_no: int) -> tuple[int, ...]:
            return decks.get(deal_no) or seeded(seed, deal_no)

        def at_standing(match: Match) -> None:
            started(match)
            if standing:
                match.set_standing(list(standing))

        monkeypatch.setattr(match_module, "deck_for", deck)
        monkeypatch.setattr(match_module, "first_dealer", lambda seed, n: dealer)
        monkeypatch.setattr(Match, "__attrs_post_init__", at_standing)

    return fix


def block(heading: str, index: int) -> list[str]:
    """The ``index``-th code block (from 0) of the section under ``heading``."""
    section = PROTOCOL.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    section = section.split("\n#", 1)[0]
    return section.split("```\n")[1 + 2 * index].split("\n```", 1)[0].splitlines()


def trimmed(documented: str) -> re.Pattern[str]:
    """A documented line, its '…' standing for whatever the real line has there."""
    return re.compile(".*".join(re.escape(part) for part in documented.split("…")))


def moved(seq: int = 0, deal: int = 0) -> Callable[[str], str]:
    """A documented line as the same moment reads at the start of a match: its `seq=`
    less ``seq``, its deal numbers less ``deal`` (the example is from later in a match;
    its score is set by ``fixed``)."""

    def move(line: str) -> str:
        line = re.sub(r"\bseq=(\d+)", lambda m: f"seq={int(m[1]) - seq}", line)
        return re.sub(r"\bdeal=(\d+)", lambda m: f"deal={int(m[1]) - deal}", line)

    return move


def as_is(line: str) -> str:
    return line


async def transcript(
    seats: Sequence[LineClient],
    lines: list[str],
    move: Callable[[str], str] = as_is,
    keep: Callable[[str], bool] = lambda line: line.startswith(TOLD),
    viewer: int = 0,
    heard: Callable[[str], str] = as_is,
) -> None:
    """The documented ``lines`` are what the seats are told, in order: an `ask`/`state`
    line is read on its seat's connection (which becomes the viewer), any other line on
    the viewer's, each the next line ``keep`` takes there (events already read on another
    seat's connection skipped); a ``> `` line is sent by the viewer, a lone '…' skips
    lines up to the next documented one (so do the lines before the first)."""
    skip = True
    seen = 0
    for line in map(move, lines):
        if line.startswith("> "):
            await seats[viewer].send(sent(line))
            continue
        if line == "…":
            skip = True
            continue
        tag, said = fields(line)
        if tag in ("ask", "state") and "seat" in said:  # (a trimmed line: the viewer's)
            viewer = int(said["seat"])
        want = trimmed(line)
        client = seats[viewer]

        def new(got: str, seen: int = seen) -> bool:
            if not keep(got):
                return False
            tag, said = fields(got)
            return not (tag == "event" and int(said["seq"]) <= seen)

        got = heard(await client.read_until(new))
        while skip and not want.fullmatch(got):
            got = heard(await client.read_until(new))
        assert want.fullmatch(got), (line, got)
        if got.startswith("event "):
            seen = int(fields(got)[1]["seq"])
        skip = False


async def tables_taken(port: int, connect: Connector, count: int) -> None:
    """``count`` tables opened by others first, so the next is the example's number."""
    for i in range(count):  # each from an address of its own: few tables wait per address
        other = await connect.machine(port, f"x{i}", source=f"127.0.1.{i + 1}")
        await other.send("new 2")
        await other.expect("ok", cmd="sit")


async def seated(
    port: int, connect: Connector, names: Sequence[str], settings: str = "2", human: int = -1
) -> list[LineClient]:
    """``names`` at one new table, in seat order (seat ``human`` in the human style)."""
    seats = []
    table = ""
    for i, name in enumerate(names):
        client = await (connect.human(port, name) if i == human else connect.machine(port, name))
        await client.send(f"new {settings}" if i == 0 else f"sit {table}")
        if i == 0:
            table = (await client.expect("ok", cmd="sit"))["table"]
        seats.append(client)
    return seats


async def drive(seats: Sequence[LineClient], calls: Sequence[tuple[int, str]]) -> None:
    """Each seat in turn answers its next ask with its call (with the ask's seq)."""
    for seat, call in calls:
        ask = await seats[seat].expect("ask")
        await seats[seat].send(f"{call} seq={ask['seq']}")


async def scripted(client: LineClient, calls: list[str]) -> None:
    """A seat that answers its asks with ``calls`` in turn (each with its seq)."""
    for call in calls:
        ask = await client.expect("ask")
        await client.send(f"{call} seq={ask['seq']}")


@pytest.mark.timeout(30)
async def test_the_start_of_9_1_is_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    deck = build_deck("7s 9s Js 7h 9h Kh 7c 9c Jc", "8h Jh Qh 7d 9d Qd Jd Kc 8c", "Ad", "10c")
    fixed({1: deck}, dealer=0)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 2)
    b1, b2 = await seated(port, connect, ("b1", "b2"), "2 to-301")
    await transcript([b1, b2], example("### 9.1 Start"))


@pytest.mark.timeout(30)
async def test_the_void_deal_of_9_2_is_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """Round 2 and a void deal: deal 2 of a match at 55 to 23, its deal 1 here."""
    first = build_deck("Ks 9d Jd 10d 9c 10c 7s 8s 9s", "7d 8d Qd Kd Ad Jc 8c Qc Kc", "7h")
    third = build_deck("9s Ks 8h 9h Kh 10c Qs As 8c", "7s 7h Jh Qd Ad Jc 7d 9d Kd", "8d")
    fixed({1: first, 2: third}, dealer=0, standing=(55, 23))
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 4)
    seats = await seated(port, connect, ("ann", "bob"), "2 to-301")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(scripted, seats[0], ["pas", "pas"])
        await transcript(seats, block("### 9.2 Bidding and the order", 0), moved(33, 1), viewer=1)


@pytest.mark.timeout(30)
async def test_the_order_in_round_2_and_the_rost_of_9_3_are_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """One deal (deal 4 of table 7, its deal 1 here): seat 1 orders in clubs in round 2
    (§9.2), seat 0 declares a terts to the trump 10 and leads 10d, seat 1 asks rost? and
    wins it with its terts to the ace (§9.3)."""
    deck = build_deck("10d 8c 9c 10c As 7h 9h Qs 8d", "7s 8s Jh Kh Ad Jc 9s Qd Kd", "10s", "7d")
    fixed({1: deck}, dealer=1)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 6)
    seats = await seated(port, connect, ("ann", "bob"))
    order = block("### 9.2 Bidding and the order", 1)
    rost = block("### 9.3 The table talk", 3)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(scripted, seats[0], ["pas", "pas", "terts", "10d", "ot-10-kozyrnogo"])
        await scripted(seats[1], ["pas"])
        await transcript(seats, [*order, "…", *rost], moved(104, 3), viewer=1)


@pytest.mark.timeout(30)
async def test_a_rost_answered_and_conceded_in_9_3_is_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """Trump diamonds: seat 1 declared a terts 9-10-J of trump and led Ad; seat 0, with a
    terts to the 10 of spades, asks rost?, hears ot-J-kozyrnogo and concedes (deal 20
    of table 13, its deal 1 here)."""
    deck = build_deck("7d 9d 10d Jd Ad 7s 8h 9c Qc", "8s 9s 10s 7h 9h Qh 7c Jc Ac", "Kd")
    fixed({1: deck}, dealer=0)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 12)
    seats = await seated(port, connect, ("ann", "bob"))
    talk = [(1, "pas"), (0, "igrayu"), (1, "prokhodit?"), (0, "prokhodit"), (1, "terts")]
    await drive(seats, [*talk, (1, "Ad"), (0, "rost?")])
    await seats[0].send("pishet")  # §8.3: a call while the question is put to another
    assert await seats[0].expect("error") == {
        "code": "answer-required",
        "text": "waiting for seat 1 to answer rost?",
    }
    await transcript(seats, block("### 9.3 The table talk", 2), moved(222, 19))


@pytest.mark.timeout(30)
async def test_skin_in_9_3_is_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """Seat 1 orders in hearts, declares a terts and leads Ac; seat 0 demands the show;
    seat 1 makes it play first (deal 5 of table 5 at 132 to 98, its deal 1 here)."""
    deck = build_deck("7d Qs 10h Ac Jd Jh 7s 7c Qh", "8s Ks 8h 9h 8d 10d Qc Kc 9c", "Ah", "Kd")
    fixed({1: deck}, dealer=0, standing=(132, 98))
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 4)
    seats = await seated(port, connect, ("ann", "bob"), "2 to-301")
    await drive(seats, [(1, "igrayu")])
    async with trio.open_nursery() as nursery:
        nursery.start_soon(scripted, seats[0], ["pokazhi", "Qc"])
        await transcript(seats, block("### 9.3 The table talk", 4), moved(87, 4), viewer=1)


@pytest.mark.timeout(30)
async def test_four_sevens_in_9_2_are_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    first = build_deck("7s 7h 7d Qd 7c 10c 8s 9s 10s", "8h 9h 10h Jh Qh Kh 8d 9d 10d", "Kd")
    second = build_deck("7s 8s 9s 7h 8h 9h 7d 8d 9d", "10s Js Qs 10h Jh Qh 10d Jd Qd", "Ad")
    fixed({1: first, 2: second}, dealer=1)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 1)
    seats = await seated(port, connect, ("ann", "bob"))

    def ms(line: str) -> str:  # how long the call took is the clock's
        return re.sub(r'"ms":\d+', '"ms":801', line)

    lines = block("### 9.2 Bidding and the order", 2)
    await transcript(seats, lines, heard=ms)


@pytest.mark.timeout(30)
async def test_the_talk_of_9_3_is_what_the_server_sends_in_both_styles(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """lev (seat 0, machine style) orders in hearts, asks prokhodit?, declares two
    tertsas and leads; dima (seat 1, human style) declares a fifty, is asked out of turn
    to show it, shows it and plays."""
    deck = build_deck("8h Qh 7h Qd 9h 9s 7s 8s Ad", "10s Js Qs Ks Kh Ah 10c Jc Kc", "10h", "7d")
    fixed({1: deck}, dealer=1)
    port = await start(lag_ms=500)
    lev, dima = await seated(port, connect, ("lev", "dima"), human=1)
    await drive([lev], [(0, "igrayu")])
    async with trio.open_nursery() as nursery:
        nursery.start_soon(transcript, [lev], block("### 9.3 The table talk", 0))
        person = block("### 9.3 The table talk", 1)
        await transcript([dima], person, keep=lambda line: line.strip() != "")
        await dima.send("A♥")


@pytest.mark.timeout(30)
async def test_the_four_players_of_6_1_are_what_the_server_sends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """Seat 2 orders in hearts and leads Kd; seat 1, the dealer, holds the turned Jh, a
    terts J-Q-K of trump and the bella."""
    hands = (
        "9s 7h Jd Ad Qc Kc Qs 10d",
        "Qh Kh 7d 8s 10s 8c Jh Ac",
        "Kd 9d As Ks 9h Ah 7s Jc",
        "Qd 8d Js 8h 10h 7c 9c 10c",
    )
    fixed({1: build_deck_n(hands, dealer=1, turned="Jh")}, dealer=1)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 6)
    names = ("fo0", "fo1", "fo2", "fo3")
    seats = await seated(port, connect, names, "4 to-301")
    lines = example("### 6.1 Seats, sides, dealer")
    async with trio.open_nursery() as nursery:
        for seat, calls in ((1, ["terts", "bella", "7d"]), (2, ["igrayu", "Kd"]), (3, ["Qd"])):
            nursery.start_soon(scripted, seats[seat], calls)
        await transcript(seats, lines[: lines.index("…")])


def answered(heading: str, typed: str) -> str:
    """The documented line that answers the ``> typed`` line of ``heading``'s block."""
    lines = block(heading, 0)
    at = next(i for i, line in enumerate(lines) if line.startswith("> ") and sent(line) == typed)
    return lines[at + 1]


TALK_ERRORS = "### 9.4 Talk errors"
CARD_ERRORS = "### 9.5 Play"
SECTION_6_3_DECK = ("7s 9s Js 7h 9h Kh 7c 9c Jc", "8h Jh Qh 7d 9d Qd Jd Kc 8c", "Ad", "10c")


@pytest.mark.timeout(30)
async def test_the_errors_of_9_4_and_9_5_at_the_start_of_a_deal_are_the_servers(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """The deal of §9.1 and §6.3 (table 3; b2, seat 1, bids first and leads 7c; b1, the
    dealer, holds the trump 7): the refusals its moments meet in §9.4 and §9.5, each
    sent where the example's `ask` is, and the request still open after each."""
    fixed({1: build_deck(*SECTION_6_3_DECK)}, dealer=0)
    port = await start(lag_ms=500)
    await tables_taken(port, connect, 2)
    b1, b2 = await seated(port, connect, ("b1", "b2"), "2 to-301")
    ask = await b2.expect("ask", seq="4")
    assert ask["legal"] == "pas,igrayu" and ask["phase"] == "bidding"  # as §9.4 has it
    for typed in ("terts seq=4", "igrayu s", "igrayu zz"):
        assert await lines_until_pong(b2, typed) == [answered(TALK_ERRORS, typed)], typed
    assert await lines_until_pong(b2, "igrau") == [  # §8's hint, as the page writes it
        "error code=unknown-command hint=igrayu text=not a table call: 'igrau'. Type 'help'"
        " or 'calls'."
    ]
    await b2.send("igrayu seq=4")
    await drive([b1, b2], [(1, "7c")])
    ask = await b1.expect("ask", seq="7")
    assert ask["trick"] == "7c" and ask["legal"] == "menyayu,Kc,8c"
    assert await lines_until_pong(b1, "8h seq=7") == [answered(CARD_ERRORS, "8h seq=7")]
    await b2.expect("event", seq="7")
    not_to_act = "7s                          (the other seat, not to act)"
    assert await lines_until_pong(b2, "7s") == [answered(CARD_ERRORS, sent(f"> {not_to_act}"))]
    await b1.send("menyayu seq=7")
    ask = await b1.expect("ask", seq="8")
    assert ask["legal"] == "Kc,8c"
    assert ask["turned"] == "7d" and "Ad" in ask["hand"]  # §6.3: the seven lies face up
    said = await lines_until_pong(b1, "pyatdesyat seq=8")
    assert said == [answered(TALK_ERRORS, "pyatdesyat seq=8")]
    await b1.send("state")  # each refusal changed nothing: the same request is open
    assert (await b1.expect("ask"))["seq"] == "8"


def refusal_line(deal: Deal, seat: int, typed: str) -> str:
    """The machine line refusing ``typed`` from ``seat`` (the deal left as it was)."""
    error = refused(deal, seat, typed)
    return render(ev.Error(error.code, error.message), MACHINE)[0]


def asked(heading: str, typed: str) -> dict[str, str]:
    """The fields of the documented `ask` that ``> typed`` answers."""
    lines = block(heading, 0)
    at = next(i for i, line in enumerate(lines) if line.startswith("> ") and sent(line) == typed)
    return fields(lines[at - 1])[1]


def test_the_talk_errors_of_9_4_later_in_a_deal_are_the_engines() -> None:
    """Each example's moment (its `ask`'s legal calls) made again at the engine, and its
    refusal the line shown. (The Tertz one: tests/tertz/test_rules.py.)"""
    rules = build_ruleset(2)
    # seat 0 ordered in hearts, swapped, declared a terts and led Jd; seat 1 has none
    deal = new_deal(
        rules, build_deck("8s 9s 10s Jd 7h Kc 8h Qh Ac", "7d Js As 9h Kh 7c 9c Jc Ks", "Ah"), 1
    )
    say(deal, 0, "igrayu", "menyayu", "terts", "Jd")
    assert ",".join(legal(deal, 1)) == asked(TALK_ERRORS, "rost? seq=49")["legal"]
    assert refusal_line(deal, 1, "rost?") == answered(TALK_ERRORS, "rost? seq=49")
    # trump clubs: seat 0 led As and took the trick; seat 1 had declared a terts
    deal = new_deal(
        rules, build_deck("Jh Js 10s Kc Ad 7c As Kh 7d", "8s 7s 8d 9d 10d Qc 8h 9h Qh", "Jc"), 1
    )
    say(deal, 0, "igrayu", "As")
    say(deal, 1, "terts", "8s")
    assert ",".join(legal(deal, 0)) == asked(TALK_ERRORS, "rost? seq=82")["legal"]
    assert refusal_line(deal, 0, "rost?") == answered(TALK_ERRORS, "rost? seq=82")
    say(deal, 0, "pokazhi")  # after his first card: no skin
    assert deal.pending is not None
    assert ",".join(legal(deal, 1)) == asked(TALK_ERRORS, "7s seq=83")["legal"]
    assert refusal_line(deal, 1, "7s") == answered(TALK_ERRORS, "7s seq=83")
    # seat 1 ordered in diamonds and led 7c; seat 0 holds a terts but not the trump 7
    deal = new_deal(
        rules, build_deck("7s 9s Js 7h 9h Kh 7c 9c 7d", "10h Jh Qh 8s Qd Jd Kc 8c As", "Ad"), 0
    )
    say(deal, 1, "igrayu", "7c")
    assert ",".join(legal(deal, 0)) == asked(TALK_ERRORS, "prokhodit? seq=12")["legal"]
    assert refusal_line(deal, 0, "prokhodit?") == answered(TALK_ERRORS, "prokhodit? seq=12")


def test_the_card_errors_of_9_5_later_in_a_deal_are_the_engines() -> None:
    """As the talk errors: each moment's legal calls made again, and its refusal."""
    rules = build_ruleset(2)
    # the seat to act holds the example's hand, dealt in its legal= order
    moments: tuple[tuple[str, str, str, list[str], str], ...] = (
        ("7s 10s Qc Qs Kd Ac Ks 9h 7c", "8s 9s Js As 7h 8h 10h 8c 9c", "Jh", [], "8s seq=6"),
        ("Qs 7s 8s 9c Jc Ac 7d 10h Kh", "Qd 9d Jd Ad Jh 8h Kc 10c 7h", "8d", ["Qs"], "Jh seq=14"),
        ("10d 8s Js 7h 9h 7c 9c Jc 7d", "Kd Ad 7s 9s Jh Kh 8c Qc As", "8d", ["10d"], "Kd seq=124"),
    )
    for other, dealer, turned, led, typed in moments:
        deal = new_deal(rules, build_deck(other, dealer, turned), 0)
        say(deal, 1, "igrayu", *led)
        seat = deal.to_act
        assert seat is not None
        ask = asked(CARD_ERRORS, typed)
        assert ",".join(legal(deal, seat)) == ask["legal"], typed
        assert ",".join(card_str(card) for _, card in deal.trick.cards) == ask.get("trick", ""), (
            typed
        )
        assert refusal_line(deal, seat, typed.split()[0]) == answered(CARD_ERRORS, typed)


def documented_fields() -> dict[str, list[str]]:
    """§6.2's table: each event kind's fields, as listed."""
    section = PROTOCOL.read_text(encoding="utf-8").split("\n### 6.2 `event` lines\n", 1)[1]
    rows = re.findall(r"^\| `([a-z-]+)` \| (.*?) \|", section.split("\n### ", 1)[0], re.M)
    return {kind: re.findall(r"\b([a-z_]+)=", listed) for kind, listed in rows}


def told(client: LineClient) -> list[tuple[str, dict[str, str]]]:
    """The table lines ``client`` was told, parsed, from its first event on."""
    lines = [fields(line) for line in client.lines if line.startswith(TOLD)]
    first = next(i for i, (tag, _) in enumerate(lines) if tag == "event")
    return lines[first:]


@attrs.define
class Followed:
    """A deal as its events tell it: what every `ask` and `state` must then say (§6.3)."""

    n: int
    options: tuple[str, ...] = ()
    deal: int = 0
    dealer: int = 0
    leader: int = 0
    score: str = ""
    hanging: str = ""
    trump: str = "-"
    player: str = "-"
    turned: str = "-"
    fresa: str = "-"
    passes: int = 0
    phase: str = "bidding"
    later: bool = False  # the last cards wait past the order
    talk: list[str] = attrs.Factory(list)
    trick: list[str] = attrs.Factory(list)
    tricks: list[int] = attrs.Factory(list)
    shown: list[str] = attrs.Factory(list)

    def side(self, seat: int) -> int:
        return seat % 2 if self.n == 4 else seat

    def heard(self, event: dict[str, str]) -> None:
        kind = event["kind"]
        if kind == "deal":
            self.deal += 1
            assert event["deal"] == str(self.deal)  # void deals counted too
            self.dealer = int(event["dealer"])
            self.leader = (self.dealer + 1) % self.n
            self.score, self.hanging = event["score"], event["hanging"]
            self.trump = self.player = self.fresa = "-"
            self.turned, self.passes, self.phase = event["turned"], 0, "bidding"
            self.talk, self.trick, self.shown = [], [], []
            self.tricks = [0] * (2 if self.n == 4 else self.n)
        elif kind == "call":
            self.talk.append(f"{event['seat']}:{event['call']}")
            self.passes += event["call"] == "pas"
            if event["call"] == "menyayu":  # the trump 7 now lies face up
                self.turned = f"7{self.trump}"
        elif kind == "order":
            self.trump, self.player = event["trump"], event["player"]
            ordered = self.talk[-1].split(":")[1]
            assert event["first"] == ("1" if ordered == "igrayu" else "0"), event
            assert event["player"] == self.talk[-1].split(":")[0], event
            self.later = self.dealt_later()  # the last cards and the fresa: in `dealt`
            assert (event["fresa"] == "-") is (self.n == 4 or self.later), event
            self.fresa = event["fresa"]
            self.phase = "ordered" if self.later else "play"
            if self.n == 4:  # the turned card went to the dealer's hand
                self.turned = "-"
        elif kind == "dealt":
            assert self.later
            self.fresa, self.phase = event["fresa"], "play"
        elif kind == "play":
            self.trick.append(event["card"])
        elif kind == "shown":
            self.shown += [f"{event['seat']}:{card}" for card in event["cards"].split(",")]
        elif kind == "trick":
            assert event["cards"] == ",".join(self.trick)  # in play order, leader first
            self.leader = int(event["winner"])
            self.tricks[self.side(self.leader)] += 1
            self.trick = []

    def dealt_later(self) -> bool:
        """Whether the last cards wait past the order (§6.2's `dealt`): with poltinniki;
        with swap-before-extra after an order in the turned suit."""
        swap = "swap-before-extra" in self.options and self.talk[-1].endswith(":igrayu")
        return "poltinniki" in self.options or swap

    def view(self) -> dict[str, str]:
        return {
            "deal": str(self.deal),
            "phase": self.phase,
            "dealer": str(self.dealer),
            "turned": self.turned,
            "fresa": self.fresa,
            "round": "2" if self.passes >= self.n else "1",  # (kept in play)
            "trump": self.trump,
            "player": self.player,
            "leader": str(self.leader),
            "trick": ",".join(self.trick),
            "tricks": ",".join(map(str, self.tricks)),
            "score": self.score,
            "hanging": self.hanging,
            "target": "-" if {"short", "dave"} & set(self.options) else "301",
            "shown": ",".join(self.shown),
            "talk": ",".join(self.talk),
            "players": str(self.n),
        }


# §9.3's table: a question's kind -> the answers its answerer may give (and four sevens)
ANSWERS = {
    "prokhodit": {"prokhodit", "ne-prokhodit"},
    "show": {"pokazyvayu", "skin"},
    "dave": {"prinimayu", "sdayus"},
    "offer?": {"predlagayu", "igraem"},
    "offer": {"prinimayu", "igraem"},
    "swap?": {"ne-menyayu", "menyayu"},
}


def questioned(view: dict[str, str], deal: Followed) -> None:
    """A view with a question pending says it as §9.3's table does: `to_act` the
    answerer, whose `legal` is the question's answers only."""
    kind, asker, answerer = view["pending"].rsplit(":", 2)
    assert view["to_act"] == answerer, view
    if view["seat"] != answerer:
        return
    legal = set(view["legal"].split(",")) - {"chetyre-semerki"}
    ot = {call for call in legal if call.startswith("ot-")}
    if kind == "rost":
        assert len(ot) == 1 and legal == ot, view  # exactly the true top card
    elif kind == "rost-reply":
        assert asker == answerer and "pishet" in legal and legal - ot == {"pishet"}, view
    elif kind == "prokhodit":
        assert len(legal) == 1 and legal <= ANSWERS[kind], view  # the true answer only
    else:
        assert legal <= ANSWERS[kind] and len(legal) >= 1, view
        if kind in ("show", "dave", "offer?", "offer"):
            assert {"pokazyvayu", "prinimayu", "predlagayu", "igraem", "sdayus"} & legal, view
    if kind in ("offer?", "offer"):  # the player asks the whistler, who offers him
        player = deal.player
        assert (asker, answerer)[kind == "offer"] == player, view


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "settings",
    [
        "2 to-301",
        "3 to-301",
        "4 to-301",
        "2 to-301 poltinniki",
        "2 to-301 swap-before-extra",
        "3 to-301 swap-before-extra",
        "2 to-301 manual-claim",
        "2 dave",
        "2 short",
        "4 to-301 table-penalties",
    ],
)
async def test_a_whole_match_is_told_as_6_says(
    start: Start, connect: Connector, settings: str
) -> None:
    """§6.1–§6.3 and §9 over a whole match at random, seats and an observer watching from
    before the start: every event to everyone, in §6.2's fields; the seat after the
    dealer bids first and leads first; one `ask` after each accepted call, to the one
    seat the table waits for, a `state` to every other seat when a deal is dealt and when
    the game is ordered and at no other moment; every `ask` and `state` saying what the
    events told (deal, leader, trick, tricks and score by side, talk, shown, …); the
    events of one call in §6.2's order; a deal's end, its record, the next deal or the
    match's end as §9.6 and §9.7 say; one legal card still asked."""
    port = await start(match_seed=f"audit-{settings}")  # the same decks every run
    n = int(settings.split()[0])
    seats = [await connect.machine(port, f"p{i}") for i in range(n)]
    eve = await connect.machine(port, "eve")
    await seats[0].send(f"new {settings}")
    table = (await seats[0].expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    for client in seats[1:]:
        await client.send(f"sit {table}")
        await client.expect("ok", cmd="sit")
    with trio.fail_after(50):
        async with trio.open_nursery() as nursery:
            for i, client in enumerate(seats):
                nursery.start_soon(play_machine, client, random.Random(i))
            await eve.expect("event", kind="match-end", timeout=50)
    heard = {i: told(client) for i, client in enumerate(seats)}
    events = [said for tag, said in told(eve) if tag == "event"]
    # every event is public: each seat and the observer got the same lines (from the
    # start on: a seat that sat down later was not there to be told the earlier ones)
    first = int(next(e for e in events if e["kind"] == "start")["seq"])
    events = [e for e in events if int(e["seq"]) >= first]
    for i in range(n):
        assert [s for t, s in heard[i] if t == "event" and int(s["seq"]) >= first] == events, i
    assert [int(e["seq"]) for e in events] == list(range(first, first + len(events)))
    listed = documented_fields()
    everything = [said for tag, said in told(seats[0]) if tag == "event"]  # seated, observer
    assert {e["kind"] for e in everything} >= {"seated", "observer", "start", "deal", "trick"}
    for event in everything:  # §6.2's fields, in its order (a field it names "when…" or not)
        keys = [key for key in event if key not in ("seq", "table", "kind")]
        assert [k for k in listed[event["kind"]] if k in keys] == keys, (listed, event)
    asks: dict[int, int] = {}  # seq -> the seat asked then
    states: dict[int, set[int]] = {}
    views: dict[int, list[tuple[int | None, dict[str, str]]]] = {}  # seq -> (seat, view)
    for who, lines in [*heard.items(), (None, told(eve))]:
        for tag, said in lines:
            if tag == "ask":
                assert who is not None and int(said["seq"]) not in asks, said  # one a moment
                asks[int(said["seq"])] = who
            elif tag == "state" and who is not None:
                states.setdefault(int(said["seq"]), set()).add(who)
            if tag in ("ask", "state"):
                views.setdefault(int(said["seq"]), []).append((who, said))
    deal = Followed(n, tuple(settings.split()[1:]))
    begun = events[0]
    for at, event in enumerate(events):
        seq, kind = int(event["seq"]), event["kind"]
        deal.heard(event)
        if kind in ("call", "play"):  # an answer to the ask of the moment before it
            engines = kind == "call" and event["call"] == "pokazyvayu"  # after a skin
            if not (engines and events[at - 1]["kind"] == "play"):
                assert asks.get(seq - 1) == int(event["seat"]), event
        if kind in ("deal", "dealt") or (kind == "order" and not deal.later):
            assert asks[seq] == deal.leader, event  # the seat after the dealer bids, leads
            # (the hands changed: the last cards with the order, or in `dealt` after it)
            assert states.get(seq, set()) == set(range(n)) - {asks[seq]}, event
        else:
            assert seq not in states, event
        if seq in asks:  # a moment the table waits at: the next event is that seat's
            assert events[at + 1]["seat"] == str(asks[seq]), event
        for seat, view in views.get(seq, []):
            want = {**deal.view(), "to_act": str(asks.get(seq, "-"))}
            want["seat"] = "-" if seat is None else str(seat)
            differ = {key: (view[key], want[key]) for key in want if view[key] != want[key]}
            assert not differ, (differ, view, event)
            if seat is None or int(view["seq"]) not in asks or asks[seq] != seat:
                assert set(view["legal"].split(",")) <= {"", "pokazhi", "chetyre-semerki"}
            if seat is None:
                assert view["hand"] == view["legal"] == "" and view["clock"] == "-", view
            if view["pending"] != "-":
                questioned(view, deal)
        if kind == "deal-end":  # then its record, then the next deal or match-end (§9.6)
            lines = heard[0]
            i = next(k for k, (t, s) in enumerate(lines) if t == "event" and s["seq"] == str(seq))
            assert lines[i + 1][0] == "record" and lines[i + 2][1]["kind"] in ("deal", "match-end")
            after = events[at + 1]
            if after["kind"] == "deal":
                assert (after["score"], after["hanging"]) == (event["totals"], event["hanging"])
        before = [(e["kind"], e.get("call")) for e in events[max(at - 3, 0) : at]]
        if kind == "trick":  # after the card that completed it, and its engine-made show
            assert before[-1][0] == "play" or before == [
                ("play", None),
                ("call", "pokazyvayu"),
                ("shown", None),
            ], event
        if kind == "shown":  # right after the pokazyvayu that showed it
            assert before[-1] == ("call", "pokazyvayu"), event
    end, last = events[-1], events[-2]
    assert end["kind"] == "match-end" and last["kind"] == "deal-end"  # (reason target)
    totals = [int(x) for x in last["totals"].split(",")]
    winner = int(end["winner"])  # a side that reached the target: its seats' names (§6.1)
    names = begun["players"].split(",")
    if end["reason"] in ("target", "claim"):
        assert totals[winner] >= 301, (end, last)
    else:  # a false claim loses it; a short game's one deal, a dave given up
        assert end["reason"] in ("false-claim", "short", "stakes"), end
    assert end["totals"] == last["totals"]
    assert end["name"] == ",".join(names[s] for s in range(n) if deal.side(s) == winner)
    assert (end["match"], end["deals"]) == (begun["match"], str(deal.deal))
    one_card = [s for i in range(n) for t, s in heard[i] if t == "ask" and "," not in s["legal"]]
    assert one_card or deal.options != ("to-301",)  # one legal call, still asked: no auto play
    assert all(e["auto"] == "0" for e in events if "auto" in e)


@pytest.mark.timeout(30)
async def test_a_line_at_a_table_not_started_is_refused_as_a_call_or_as_no_command(
    start: Start, connect: Connector
) -> None:
    # §8: seated at a table not started, a table call or a line near one is
    # "error code=wrong-phase text=the game has not started"; a line that is neither a
    # command nor a call is the lobby's unknown-command with its command_hint=, saying
    # what the table waits for ('bott heuristic' was told only wrong-phase: tryout s49)
    port = await start(house_bots=True)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.expect("event", kind="seated")
    for line in ("pas", "10h seq=1", "igrayu zz", "pаs", "paas", "K", "ot zz", "пас", "konets"):
        assert await lines_until_pong(ann, line) == [
            "error code=wrong-phase text=the game has not started"
        ], line
    waits = f"the game at table {table} has not started: waiting for 1 more player"
    for line, word, near in (
        ("bott heuristic", "bott", " command_hint=bot"),
        ("histroy", "histroy", " command_hint=history"),
        ("бот эвристический", "бот", " command_hint=bot"),
        ("xyz", "xyz", ""),
    ):
        assert await lines_until_pong(ann, line) == [
            f"error code=unknown-command{near} text='{word}' is not a command, and {waits};"
            " 'bot' seats one. Type 'help'."
        ], line
    bob = await connect.machine(port, "bob")  # a table of three: how many more
    await bob.send("new 3")
    three = (await bob.expect("ok", cmd="sit"))["table"]
    await bob.expect("event", kind="seated")
    assert await lines_until_pong(bob, "xyz") == [
        "error code=unknown-command text='xyz' is not a command, and the game at table"
        f" {three} has not started: waiting for 2 more players; 'bot' seats one. Type 'help'."
    ]


@pytest.mark.timeout(30)
async def test_no_command_at_a_table_not_started_in_russian_and_without_house_bots(
    port: int, connect: Connector
) -> None:
    # §8: the Russian, «Может быть, bot?» as the lobby says it; no 'bot' where the
    # server runs no house bots
    ann = await connect.human(port, "ann")
    await ann.send("lang ru")
    await ann.send("new 2")
    await ann.read_until(lambda line: line.startswith("Вы за столом"))
    said = await lines_until_pong(ann, "бот эвристический")  # (wrapped at 80 columns)
    assert " ".join(line.strip() for line in said) == (
        "Ошибка (unknown-command): «бот» — не команда, а партия за столом 1 ещё не началась:"
        " стол ждёт ещё одного игрока. Наберите help. Может быть, bot?"
    )
    assert await lines_until_pong(ann, "пас") == ["Ошибка (wrong-phase): партия ещё не началась"]
    await ann.send("leave")
    await ann.send("new 4")  # how many more, the number before its noun
    seated = await ann.read_until(lambda line: line.startswith("Вы за столом"))
    four = seated.split()[3].strip(",")
    said = await lines_until_pong(ann, "xyz")
    assert " ".join(line.strip() for line in said) == (
        f"Ошибка (unknown-command): «xyz» — не команда, а партия за столом {four} ещё не"
        " началась: стол ждёт ещё 3 игроков. Наберите help."
    )


@pytest.mark.timeout(30)
async def test_out_of_turn_calls_case_yo_hyphens_and_two_alphabets_on_the_wire(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    """§8.5: the dealer holds four sevens and is not to act: his `state` lists
    chetyre-semerki; the leader's card arriving first ends the chance (`not-allowed`).
    §8: case never matters, `ё` reads as `е`, `-` as a space, and a word typed in two
    alphabets is the word it shows — each played, not only hinted."""
    deck = build_deck("8h 9h 10h Jh Qh Kh 8d 9d 10d", "7s 7h 7d Qd 7c 10c 8s 9s 10s", "Kd")
    fixed({1: deck}, dealer=1)
    port = await start()
    ann, bob = await seated(port, connect, ("ann", "bob"))
    await ann.expect("ask")
    await bob.send("state")
    assert (await bob.expect("state"))["legal"] == "chetyre-semerki"  # not to act
    await ann.send("Pаs")  # a Cyrillic а
    assert (await bob.expect("event", kind="call", seat="0"))["call"] == "pas"
    await bob.send("PAS")
    assert (await ann.expect("event", kind="call", seat="1"))["call"] == "pas"
    await ann.send("Играю-Чeрви")  # a Latin e, a hyphen for the space
    assert (await bob.expect("event", kind="call", seat="0"))["call"] == "igrayu-h"
    await bob.send("state")  # his state after the order: still offered, out of turn
    assert "chetyre-semerki" in (await bob.expect("state"))["legal"].split(",")
    ask = await ann.expect("ask", phase="play")
    assert await lines_until_pong(ann, "играю чeрви") == [  # read, so refused as itself
        "error code=wrong-phase text=bidding is over: it is the play now, and your turn:"
        " play a card"
    ]
    await ann.send(f"8d seq={ask['seq']}")
    assert "chetyre-semerki" not in (await bob.expect("ask", trick="8d"))["legal"]
    assert await lines_until_pong(bob, "ЧЕТЫРЕ-СЕМЁРКИ") == [
        "error code=not-allowed text=only a seat holding all four sevens, before the first card"
    ]


@pytest.mark.timeout(30)
async def test_a_seat_back_when_not_to_act_gets_a_state(port: int, connect: Connector) -> None:
    # §6.3: "The server sends state ... to a reconnecting seat that is not to act"
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    views = {
        c: fields(await c.read_until(lambda x: x.startswith(("ask ", "state "))))
        for c in (ann, bob)
    }
    waiting = next(c for c, (tag, _) in views.items() if tag == "state")
    other = ann if waiting is bob else bob
    await waiting.aclose()
    await other.expect("event", kind="away")
    again = await connect.machine(port, waiting.label, token=waiting.token)
    await again.expect("event", kind="back")
    tag, view = fields(await again.read_until(lambda x: x.startswith(("ask ", "state "))))
    before = views[waiting][1]
    assert tag == "state" and view["hand"] == before["hand"] and view["to_act"] == before["to_act"]
    assert int(view["seq"]) == int(before["seq"]) + 2  # the away and back events


@pytest.mark.parametrize(("length", "hinted"), [(32, True), (33, False)])
def test_no_hint_for_a_line_of_more_than_32_letters(length: int, hinted: bool) -> None:
    # §8: "No hint ... for a line of more than 32 letters" (a plugin's long word, one
    # letter off, is hinted up to that length)
    word = "ж" * length
    found = hint("ж" * (length - 1) + "ш", [Call("sdayus")], {word: "sdayus"})
    assert (found is not None and found.token() == "sdayus") is hinted


def test_twenty_is_no_terts_and_fifty_is_a_fifty() -> None:
    # §8.2 "Numbers as calls": `50` is pyatdesyat at every table; `20` is not terts
    # (unknown-command), though it may carry the hint of a call a key away
    assert parse_call("50", [Call("pyatdesyat")]) == Call("pyatdesyat")
    with pytest.raises(CallSyntaxError):
        parse_call("20", [Call("terts"), Call("pyatdesyat")])
    found = hint("20", [Call("pyatdesyat"), Call("pas")], {})
    assert found is not None and found.token() == "pyatdesyat"
    assert hint("20", [Call("terts")], {}) is None


def test_a_dave_given_up_names_the_deals_winner_and_how() -> None:
    # §9.6: "a dave declined, `Deal 1: won by anna (gave-up).`, `победитель — anna
    # (отказ)`"; the machine line's outcome stays gave-up
    end = g.DealEnded(1, "gave-up", (0, 0), (1, 0), (1, 0), 0, {})
    told = ev.TableEvent(9, 4, ("anna", "boris"), end, ((0,), (1,)), deal_won_on_points=True)
    assert render(told, HUMAN)[0].startswith("Deal 1: won by anna (gave-up). ")
    assert render_ru(told)[0].startswith("Раздача 1: победитель — anna (отказ). ")
    assert " outcome=gave-up " in render(told, MACHINE)[0]


def test_an_options_call_comes_after_the_cards_in_legal() -> None:
    # §6.3: "talk calls first, then cards, then the calls an option's plugin adds in play
    # (`dave` ...), so a program that stops reading at the first card misses them"
    deck = build_deck(*SECTION_6_3_DECK)
    deal = new_deal(build_ruleset(2, "moscow", ("dave",)), deck, 0)
    say(deal, 1, "igrayu", "7c")
    told = legal(deal, 0)
    assert told[0] == "menyayu" and told[-1] == "dave" and told[1:-1] == ["Kc", "8c"], told


# §8.1 and §8.2, every spelling the tables list: (a table's option or variant, typed, token)
SPELLINGS = [
    ("", "пас", "pas"),
    ("", "pass", "pas"),
    ("", "пасую", "pas"),
    ("", "играю", "igrayu"),
    ("", "igraju", "igrayu"),
    ("", "play", "igrayu"),
    ("", "граю", "igrayu"),
    ("", "igrayu h", "igrayu-h"),
    ("", "играю черви", "igrayu-h"),
    ("", "igrayu ♥", "igrayu-h"),
    ("", "play hearts", "igrayu-h"),
    ("", "меняю", "menyayu"),
    ("", "menyaju", "menyayu"),
    ("", "swap", "menyayu"),
    ("", "міняю", "menyayu"),
    ("", "проходит?", "prokhodit?"),
    ("", "passes?", "prokhodit?"),
    ("", "does my trump pass?", "prokhodit?"),
    ("", "проходить?", "prokhodit?"),
    ("", "проходит", "prokhodit"),
    ("", "passes", "prokhodit"),
    ("", "yes", "prokhodit"),
    ("", "проходить", "prokhodit"),
    ("", "ne prokhodit", "ne-prokhodit"),
    ("", "не проходит", "ne-prokhodit"),
    ("", "does not pass", "ne-prokhodit"),
    ("", "no", "ne-prokhodit"),
    ("", "не проходить", "ne-prokhodit"),
    ("", "chetyre semerki", "chetyre-semerki"),
    ("", "четыре семерки", "chetyre-semerki"),
    ("", "sevens", "chetyre-semerki"),
    ("", "four sevens", "chetyre-semerki"),
    ("", "чотири сімки", "chetyre-semerki"),
    ("", "терц", "terts"),
    ("", "tierce", "terts"),
    ("", "tertsa", "terts"),
    ("", "терца", "terts"),
    ("", "терць", "terts"),
    ("", "два терці", "dva-tertsa"),
    ("", "дві терці", "dva-tertsa"),
    ("", "two tierces", "dva-tertsa"),
    ("", "2 терца", "dva-tertsa"),
    ("", "tri tertsa", "tri-tertsa"),
    ("", "три терца", "tri-tertsa"),
    ("", "3 tertsa", "tri-tertsa"),
    ("", "poltinnik", "pyatdesyat"),
    ("", "berts", "pyatdesyat"),
    ("", "kopa", "pyatdesyat"),
    ("", "50", "pyatdesyat"),
    ("", "fifty", "pyatdesyat"),
    ("", "пятьдесят", "pyatdesyat"),
    ("", "полтинник", "pyatdesyat"),
    ("", "берц", "pyatdesyat"),
    ("", "копа", "pyatdesyat"),
    ("", "п'ятдесят", "pyatdesyat"),
    ("", "п’ятдесят", "pyatdesyat"),
    ("", "пʼятдесят", "pyatdesyat"),
    ("", "fifties", "dva-pyatdesyat"),
    ("", "два полтинника", "dva-pyatdesyat"),
    ("", "две копы", "dva-pyatdesyat"),
    ("", "dva bertsa", "dva-pyatdesyat"),
    ("", "dva poltinnika", "dva-pyatdesyat"),
    ("", "две копи", "dva-pyatdesyat"),
    ("", "dva kopy", "dva-pyatdesyat"),
    ("", "два берца", "dva-pyatdesyat"),
    ("", "rost", "rost?"),
    ("", "рост?", "rost?"),
    ("", "рост", "rost?"),
    ("", "height?", "rost?"),
    ("", "height", "rost?"),
    ("", "ріст?", "rost?"),
    ("", "ріст", "rost?"),
    ("", "зріст?", "rost?"),
    ("", "ot K", "ot-K"),
    ("", "ot korolya", "ot-K"),
    ("", "от туза козырного", "ot-A-kozyrnogo"),
    ("", "от козырного туза", "ot-A-kozyrnogo"),
    ("", "от козырной дамы", "ot-Q-kozyrnogo"),
    ("", "from ace trump", "ot-A-kozyrnogo"),
    ("", "від козирної дами", "ot-Q-kozyrnogo"),
    ("", "от вальта", "ot-J"),
    ("", "от валета", "ot-J"),
    ("", "ot valta", "ot-J"),
    ("", "ot semerki", "ot-7"),
    ("", "от девятки", "ot-9"),
    ("", "від сімки", "ot-7"),
    ("", "від дев'ятки", "ot-9"),
    ("", "ot K kozyr", "ot-K-kozyrnogo"),
    ("", "ot tuza kozyrnogo", "ot-A-kozyrnogo"),
    ("", "от козирного туза", "ot-A-kozyrnogo"),
    ("", "ot ten trump", "ot-10-kozyrnogo"),
    ("", "пишет", "pishet"),
    ("", "goditsya", "pishet"),
    ("", "годится", "pishet"),
    ("", "good", "pishet"),
    ("", "concede", "pishet"),
    ("", "пише", "pishet"),
    ("", "годиться", "pishet"),
    ("", "покажи", "pokazhi"),
    ("", "show", "pokazhi"),
    ("", "показываю", "pokazyvayu"),
    ("", "showing", "pokazyvayu"),
    ("", "here", "pokazyvayu"),
    ("", "показую", "pokazyvayu"),
    ("", "skin'", "skin"),
    ("", "скинь", "skin"),
    ("", "skin ubeysya", "skin"),
    ("", "скинь убейся", "skin"),
    ("", "play first", "skin"),
    ("", "белла", "bella"),
    ("", "belote", "bella"),
    ("", "бела", "bella"),
    ("", "hod 10h", "10h"),
    ("", "ход Кп", "Ks"),
    ("", "хід туз пік", "As"),
    ("", "card 10h", "10h"),
    ("", "king of hearts", "Kh"),
    ("", "ace ♠", "As"),
    ("", "Тк", "Ac"),
    ("", "10т", "10c"),
    ("", "Д♠", "Qs"),
    ("", "Вч", "Jh"),
    ("", "Th", "10h"),
    ("", "q s", "Qs"),
    ("", "туз пик", "As"),
    ("", "десятка ♥", "10h"),
    ("", "семерка пик", "7s"),
    ("", "сімка пік", "7s"),
    ("", "дев'ятка чирв", "9h"),
    ("", "король бубен", "Kd"),
    ("", "дама бубей", "Qd"),
    ("", "валет крестей", "Jc"),
    ("", "туз треф", "Ac"),
    ("", "Bч", "Jh"),
    ("", "Кп", "Ks"),
    ("", "7♤", "7s"),
    ("", "8♡", "8h"),
    ("", "9♢", "9d"),
    ("", "J♧", "Jc"),
    ("", "валет хрестів", "Jc"),
    ("", "дама бубон", "Qd"),
    ("", "сімка піки", "7s"),
    ("", "вісімка чирва", "8h"),
    ("", "tuz piki", "As"),
    ("", "desyatka chervi", "10h"),
    ("", "dve tertsa", "dva-tertsa"),
    ("", "two fifties", "dva-pyatdesyat"),
    ("", "2 fifty", "dva-pyatdesyat"),
    ("manual-claim", "конец", "konets"),
    ("manual-claim", "claim", "konets"),
    ("manual-claim", "501", "konets"),
    ("manual-claim", "301", "konets"),
    ("manual-claim", "1001", "konets"),
    ("manual-claim", "кінець", "konets"),
    ("dave", "даве", "dave"),
    ("dave", "double", "dave"),
    ("dave", "принимаю", "prinimayu"),
    ("dave", "accept", "prinimayu"),
    ("dave", "сдаюсь", "sdayus"),
    ("dave", "give up", "sdayus"),
    ("dave", "resign", "sdayus"),
    ("poltinniki", "предлагаю", "predlagayu"),
    ("poltinniki", "offer", "predlagayu"),
    ("poltinniki", "играем", "igraem"),
    ("poltinniki", "play on", "igraem"),
    ("swap-before-extra", "не меняю", "ne-menyayu"),
    ("swap-before-extra", "keep", "ne-menyayu"),
    ("swap-before-extra", "не міняю", "ne-menyayu"),
    ("swap-before-extra", "ne menyayu", "ne-menyayu"),
    ("tertz", "lomayu 5", "lomayu-5"),
    ("tertz", "ломаю 5", "lomayu-5"),
    ("tertz", "lomaju 5", "lomayu-5"),
    ("tertz", "break 5", "lomayu-5"),
    ("tertz", "lomayu 05", "lomayu-5"),
    ("tertz", "сто пять", "sto-pyat"),
    ("tertz", "hundred five", "sto-pyat"),
    ("tertz", "сто шесть", "sto-shest"),
    ("tertz", "сто семь", "sto-sem"),
    ("tertz", "сто восемь", "sto-vosem"),
    ("tertz", "сто дам", "sto-dam"),
    ("tertz", "сто королей", "sto-korolei"),
    ("tertz", "сто тузов", "sto-tuzov"),
    ("tertz", "hundred queens", "sto-dam"),
    ("tertz", "hundred ladies", "sto-dam"),
    ("tertz", "hundred kings", "sto-korolei"),
    ("tertz", "hundred aces", "sto-tuzov"),
    ("tertz", "двести", "dvesti"),
    ("tertz", "двести вальтов", "dvesti"),
    ("tertz", "two hundred", "dvesti"),
    ("tertz", "two hundred jacks", "dvesti"),
    ("tertz", "200", "dvesti"),
    ("tertz", "марьяж", "bella"),
    ("tertz", "mariazh", "bella"),
    ("tertz", "mariage", "bella"),
    ("tertz", "marriage", "bella"),
    ("tertz", "от чего?", "rost?"),
    ("tertz", "ot chego?", "rost?"),
    ("tertz", "from what?", "rost?"),
    ("tertz", "от чего", "rost?"),
    ("tertz", "ot chego", "rost?"),
    ("tertz", "from what", "rost?"),
    ("tertz", "сто", "sto-pyat"),
    ("tertz", "hundred", "sto-pyat"),
    ("tertz", "100", "sto-pyat"),
    ("tertz", "sto", "sto-pyat"),
]


@pytest.mark.parametrize(("table", "typed", "token"), SPELLINGS)
def test_every_spelling_8_1_and_8_2_list_is_its_call(table: str, typed: str, token: str) -> None:
    # read as a table of that game reads it, the call legal (words left out are filled
    # in from legal=, so the count-less and hundred words get their one call)
    if table == "tertz":
        rules = build_ruleset(2, "tertz")
    else:
        rules = build_ruleset(2, "moscow", (table,) if table else ())
    assert spoken(rules, typed, [token]).token() == token


@pytest.mark.timeout(30)
async def test_an_out_of_turn_call_with_the_last_seq_seen_is_taken(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    # §8.5: "Send them without seq= (or with the last seq you saw)": the dealer, not to
    # act, shows his four sevens while the first bidder thinks
    deck = build_deck("8h 9h 10h Jh Qh Kh 8d 9d 10d", "7s 7h 7d Qd 7c 10c 8s 9s 10s", "Kd")
    fixed({1: deck}, dealer=1)
    port = await start()
    ann, bob = await seated(port, connect, ("ann", "bob"))
    state = await bob.expect("state")
    assert state["to_act"] == "0" and state["legal"] == "chetyre-semerki"
    await bob.send(f"chetyre-semerki seq={state['seq']}")
    assert (await ann.expect("event", kind="call"))["call"] == "chetyre-semerki"
    assert (await ann.expect("event", kind="deal-end"))["outcome"] == "void"


@pytest.mark.timeout(30)
async def test_a_forfeits_match_end_has_its_fields_in_the_order_6_2_and_9_7_give(
    port: int, connect: Connector
) -> None:
    """§9.7: "`forfeit=SEAT` before `match=` after a forfeit"; reason `left`, the winner
    the other side; `deals=` counts a deal given up mid-deal, not one given up before
    its first call (it has no record, docs/records.md: §9.7 said "the deals dealt", and
    that one was dealt: a slip, corrected)."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    for calls, deals in ((0, "0"), (1, "1")):
        await ann.send("new 2")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await bob.send(f"sit {table}")
        start = await bob.expect("event", kind="start")
        if calls:
            asked = await next_ask(ann, bob)
            assert asked is not None
            await asked[1].send(f"pas seq={asked[0]['seq']}")
            await ann.expect("event", kind="call")
        else:
            await ann.expect("event", kind="deal")
        await ann.send("leave")
        end = await bob.expect("event", kind="match-end")
        keys = [key for key in end if key not in ("seq", "table", "kind")]
        assert keys == documented_fields()["match-end"]  # every field, forfeit= among them
        assert (end["reason"], end["forfeit"], end["winner"], end["name"]) == (
            "left",
            "0",
            "1",
            "bob",
        )
        assert (end["match"], end["deals"], end["totals"]) == (start["match"], deals, "0,0")


@pytest.mark.timeout(30)
async def test_a_penalty_is_told_and_the_deal_ends(
    start: Start, connect: Connector, fixed: Fix
) -> None:
    # §6.2 `penalty`: "with table-penalties: an illegal call was punished instead of
    # refused (the card stays in the hand); deal-end follows"; §9.6 outcome=penalty
    fixed({1: build_deck(*SECTION_6_3_DECK)}, dealer=0)
    port = await start()
    b1, b2 = await seated(port, connect, ("b1", "b2"), "2 to-301 table-penalties")
    await drive([b1, b2], [(1, "igrayu"), (1, "7c")])
    ask = await b1.expect("ask", trick="7c")
    await b1.send(f"8h seq={ask['seq']}")  # a renonce: b1 holds clubs
    penalty = await b2.expect("event", kind="penalty")
    assert penalty == {
        "seq": str(int(ask["seq"]) + 1),
        "table": penalty["table"],
        "kind": "penalty",
        "seat": "0",
        "call": "8h",
        "code": "must-follow-suit",
    }
    after = fields(await b2.read_until(lambda x: x.startswith("event ")))[1]
    assert after["kind"] == "deal-end" and after["outcome"] == "penalty", after


@pytest.mark.timeout(30)
async def test_a_call_that_reaches_the_table_as_its_match_ends_is_told_the_game_is_over(
    tmp_path: Path,
) -> None:
    """§8: "A call that reaches the table as its match ends (sent before its match-end
    was read: another seat's call ... ended the match first) is answered by the table
    itself, error code=wrong-phase text=the game is over". Over the wire a race between
    two connections; in-process, the lobby hands the table ann's leave (a forfeit: the
    match ends) and bob's pas, which was on its way, one after the other."""
    config = make_config(tmp_path / "over.sqlite3")
    store = open_store(config.db)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rule_book())
            ann = Session(1, Outbox(1 << 20), trio.CancelScope())
            bob = Session(2, Outbox(1 << 20), trio.CancelScope())
            for session, line in ((ann, "login ann"), (bob, "login bob"), (ann, "new 2")):
                await lobby.handle(session, parse_line("style machine"))
                await lobby.handle(session, parse_line(line))
            await lobby.handle(bob, parse_line("sit 1"))
            await told_until(bob, " kind=deal ")
            await lobby.handle(ann, parse_line("leave"))
            await lobby.handle(bob, parse_line("pas"))
            told = await told_until(bob, "error ")
            assert told.index(" kind=match-end ") < told.index("error ")
            assert told.endswith("error code=wrong-phase text=the game is over\r\n"), told
            nursery.cancel_scope.cancel()
    finally:
        store.close()


@pytest.mark.timeout(30)
async def test_an_options_words_are_no_call_at_a_table_without_it(
    port: int, connect: Connector
) -> None:
    # §8.2: "at a table without the option its words are not table calls
    # (`unknown-command`...)": a plugin's words, said at a plain table
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="deal")
    for word in ("double", "даве", "сдаюсь", "give up", "принимаю", "offer", "играем"):
        await ann.send(word)
        error = await ann.expect("error")
        assert error["code"] == "unknown-command", (word, error)


def test_the_codes_8_3_lists_are_every_code_the_engine_refuses_a_call_with() -> None:
    # §8.3: "refused with the most specific code (§10): not-your-turn, …, not-allowed";
    # game-over is the engine's but never sent (§8: the table says wrong-phase)
    section = PROTOCOL.read_text(encoding="utf-8").split("\n### 8.3 Errors for calls\n", 1)[1]
    listed = set(re.findall(r"`([a-z-]+)`", section.split("Nothing changes", 1)[0]))
    engines = {
        error.code
        for error in vars(game_errors).values()
        if isinstance(error, type) and issubclass(error, game_errors.IllegalCall)
    }
    assert listed - {"tertz"} == engines - {"illegal-call", "game-over"}


def test_the_event_lines_of_6_and_9_have_6_2s_fields_and_their_deal_ends_add_up() -> None:
    """Every event line the examples of §6 and §9 show whole: the fields §6.2 lists, in
    its order; a deal-end's written as its outcome says (§9.6: made, each its own; bide,
    the whistler both; hanging, the player's hang)."""
    text = PROTOCOL.read_text(encoding="utf-8")
    sections = text.split("\n## 6. ", 1)[1].split("\n## 7. ", 1)[0]
    sections += text.split("\n## 9. ", 1)[1].split("\n## 10. ", 1)[0]
    lines = [line for line in re.findall(r"^event seq=.*$", sections, re.M) if "…" not in line]
    listed = documented_fields()
    ends = 0
    for line in lines:
        said = fields(line)[1]
        keys = [key for key in said if key not in ("seq", "table", "kind")]
        assert [k for k in listed[said["kind"]] if k in keys] == keys, line
        if said["kind"] != "deal-end":
            continue
        ends += 1
        points = [int(x) for x in said["points"].split(",")]
        written = [int(x) for x in said["written"].split(",")]
        if said["outcome"] in ("made", "claim"):
            assert written == points, line
        elif said["outcome"] == "bide":
            assert sorted(written) == [0, sum(points)], line
        elif said["outcome"] == "hanging":
            assert points[0] == points[1] == int(said["hanging"]) and 0 in written, line
        elif said["outcome"] == "void":
            assert points == written == [0, 0], line
    assert len(lines) > 40 and ends >= 6
