"""An audit of docs/play.md against the terminal client `deberc-net play` (and of
docs/play.ru.md, which must promise the same). Each promise a player may rely on, and
(→) the tests that pin it: a module under tests/ and its tests, "here" for this
module's. The screen docs/play.md shows is checked here line for line against what the
app draws headless at 80×24 (each pane's text; the block leaves out the blank rows and
the log's older lines, and the app dials a closed port, whose notices are set aside).
The human style's own lines (over nc, and the club's commands) are docs/protocol.md's,
audited in tests/protocol/test_protocol_audit*.py: named below by section.

Top: needs only the install, works at 80×24; narrower (70, 60) folds the table pane's
lines between fields, the panes growing, the keys on two lines
    → play/test_app.py test_a_narrow_terminals_table_pane_folds_its_lines_and_grows,
      test_the_panes_are_as_wide_as_the_drawing_counts;
    → play/test_footer.py test_every_key_is_drawn_whole_below_80_columns
Top: `--name` logs in, `--token` takes the seat back, HOST:PORT dialed
    → play/test_app.py test_a_new_client_given_the_token_takes_the_seat_back,
      test_play_refuses_an_address_without_a_port; play/test_no_terminal.py
      test_an_address_with_no_port_number_is_refused_in_one_line
Top: `tables` lines with `(away)`; the lobby pane says how to find a game; a `seek`'s
wait and `unseek` said in the pane (both docs' quotes), ended by a seat, `leave`, `unseek`
    → play/test_state.py test_the_tables_list_marks_a_player_away_as_the_server_does,
      test_the_lobby_hint_names_every_player_count_seek_takes;
    → play/test_russian.py test_the_lobby_pane_says_the_wait_of_a_seek_and_how_to_end_it;
    → here: test_the_lobby_pane_says_what_a_seek_waits_for_and_how_to_stop
Top: no terminal, or TERM=dumb: said, exit 2 at once
    → play/test_no_terminal.py test_play_without_a_terminal_exits_2_saying_it_needs_one,
      test_play_in_a_dumb_terminal_exits_2_saying_it_cannot_draw
Top: `cannot connect …`, `no connection yet: trying again in 0.5 s (attempt 2)`, `connection
lost: …` at each try until one is made
    → play/test_no_terminal.py test_a_connection_never_made_is_retried_without_being_called_lost,
      test_a_connection_lost_is_said_lost_at_each_try_until_one_is_made
Top: the pause doubling 0.5 s to 10 s, for 2 minutes, the server's `away_limit_ms` default
    → here: test_the_link_pauses_doubling_from_half_a_second_to_ten_for_two_minutes (the
      pauses by the link's own function, not waited through: 2 minutes of real time)
Top: given up: `the server cannot be reached (tried N times in 120 s): Ctrl+R …`; Ctrl+R
then connects and logs in again
    → here: test_the_link_gives_up_saying_how_often_it_tried_and_what_the_keys_do;
    → play/test_app.py test_ctrl_r_after_the_client_gave_up_connects_and_logs_in_again
Top: a goodbye it did not ask for: no tries, it waits
    → here: test_a_goodbye_the_client_did_not_ask_for_is_not_followed_by_tries
Top: a line typed with no connection refused at once, not sent later; one caught unsent
dropped, said
    → play/test_no_terminal.py test_a_line_typed_while_trying_again_is_refused_not_sent_later
      (the second, `not connected: a line typed not sent`, is said in the screen test's
      log here, not pinned by its count)
Top: `busy` or a refused login not tried for ever; `bad-proxy-header` not tried again
    → play/test_no_terminal.py test_a_server_that_refuses_each_connection_is_not_tried_forever,
      test_a_port_that_wants_a_proxy_header_from_us_is_not_tried_again
Top: the password kept in memory with its `lang=`; a wrong one not sent again; `password
OLD NEW` fenced by a `ping`, each answer its own change's
    → play/test_no_terminal.py test_a_wrong_password_is_not_sent_again_after_a_drop,
      test_after_a_password_change_a_drop_logs_in_with_the_new_one,
      test_a_password_change_unanswered_before_a_drop_is_not_taken_for_a_wrong_old,
      test_an_error_of_another_line_leaves_a_password_change_pending,
      test_two_password_changes_sent_at_once_keep_the_one_the_server_did,
      test_a_password_typed_with_lang_logs_in_again_after_a_drop
The screen (the block): status, table, score, hand, call, log, prompt, keys
    → here: test_the_screen_the_doc_shows_is_the_one_the_client_draws
Status: the token; resumed after a drop in one line (`Connected again: …`), a seat not
kept said so with the server's reason; asks `tables`, `sheet`, `last` itself, unlogged
    → play/test_app.py test_a_dropped_connection_resumes_the_seat_with_the_token,
      test_a_resumed_client_learns_the_table_again,
      test_a_seat_a_restarted_server_lost_is_said_after_the_login_again;
    → play/test_state.py test_a_connection_made_again_is_said_in_one_line_not_greeted_again,
      test_a_seat_not_given_back_is_said_plainly,
      test_back_after_a_drop_asks_the_table_again_quietly,
      test_a_table_listed_on_a_later_page_is_asked_for_there,
      test_f4_asks_again_for_names_still_unknown
Table: pairs, `(free)`, target from `to-N`, turned card (four players; after `menyayu`),
talk as spoken (short names, leading `…`, only grows, punished calls), one short form a
name, `YOU` and the clock, the waiting line, the result (pairs, `claimed: konets`)
    → play/test_state.py test_four_players_are_shown_as_pairs_and_a_pair_wins_together,
      test_a_waiting_four_player_table_shows_its_free_seats_as_free,
      test_sitting_at_a_waiting_table_learns_who_is_there_and_the_target,
      test_an_observer_of_four_players_sees_the_turned_card_go_once_the_game_is_ordered,
      test_the_seven_swap_shows_the_trump_seven_at_once, test_the_talk_line_*,
      test_the_talk_of_a_deal_only_grows_whatever_a_view_says,
      test_a_punished_call_is_in_the_talk_as_the_views_count_it,
      test_four_players_with_long_names_keep_the_turn_line_in_the_table_pane,
      test_a_waiting_table_says_how_many_players_it_awaits_and_how_to_have_a_bot,
      test_a_match_a_true_konets_won_says_so_and_the_servers_claim_as_before;
    → play/test_screen_names.py test_a_long_name_has_one_short_form_on_the_whole_screen
Table: the Trick line empty once the deal is over, one a penalty or a forfeit cut short
mid-trick too
    → play/test_state.py test_a_deal_or_match_cut_short_mid_trick_leaves_no_trick_on_the_table;
    → play/test_trick_cut_short_served.py
      test_a_deal_cut_short_mid_trick_leaves_no_cards_on_the_trick_line
Table: `observe N` alone, `leave` back to the lobby; one table on screen; a finished
match stays till something else; closing, `you sit at no table`, a login with no seat
clear it; `leave` asks first (10 s, `leave!`, `no` keeps the seat); `(by the clock)`
    → play/test_app.py test_an_observer_joining_mid_match_is_shown_the_deals_and_the_last_trick,
      test_leave_in_a_running_match_asks_first_and_the_result_names_the_players,
      test_no_after_the_leave_question_keeps_the_seat;
    → play/test_state.py test_observing_*,
      test_a_table_closing_with_its_match_clears_the_table_pane,
      test_the_server_saying_we_sit_nowhere_clears_a_table_left_on_screen,
      test_a_login_with_no_seat_after_a_restart_clears_the_dead_table,
      test_a_table_watched_before_a_drop_is_said_to_be_left,
      test_leaving_a_finished_match_is_no_error, test_a_call_made_by_the_clock_is_said_so;
    → `leave!` itself: the server's (protocol/test_protocol_audit_lobby.py)
Table, Tertz: `Talon: N`, `Turned: -`, `Theirs:`, the view asked after a lost trick,
the breaker's turn, `mariage`, `Shown:`
    → play/test_state.py test_a_tertz_table_shows_the_talon_the_turned_trump_and_no_bidding,
      test_the_turned_card_is_no_longer_shown_once_drawn_from_the_talon,
      test_after_the_break_and_a_lost_trick_the_seat_asks_its_view_quietly,
      test_tertz_turn_goes_to_the_breaker_after_the_first_trick_then_to_the_winner,
      test_a_tertz_table_says_mariage_as_the_server_does,
      test_the_cards_shown_stay_in_view_and_a_second_show_says_all_face_up;
    → play/test_app.py test_a_whole_tertz_match_typed_through_the_terminal_client
Score: a row a deal with its outcome letter, the last five, totals of all, `Trk`; names
cut by columns (`ho~11`), pairs `kost+hous`, empty after `leave`
    → here: test_the_score_lists_the_last_five_deals_and_totals_them_all;
    → play/test_state.py test_the_score_is_the_deal_end_events_and_the_match_end,
      test_a_three_player_score_fits_its_pane_and_tells_long_names_apart,
      test_the_score_pane_heads_name_pairs_and_free_seats_readably,
      test_leaving_a_running_match_clears_the_score_until_the_next_one;
    → play/test_screen_names.py test_a_name_is_shortened_by_the_columns_it_takes_not_its_characters
Hand and Your call: rank order, `*` trump, empty after a claim or forfeit; calls as
spoken then cards, `lomayu 1..12`, `konets` last
    → play/test_state.py test_the_hand_is_drawn_in_rank_order_grouped_by_suit,
      test_the_calls_offered_are_spoken_and_the_cards_in_the_hands_order,
      test_the_break_is_one_option_with_a_default_for_f8,
      test_konets_is_offered_last_after_the_cards,
      test_a_claimed_deal_leaves_no_cards_in_the_hand,
      test_a_match_ended_mid_deal_by_a_forfeit_leaves_no_cards_in_the_hand
Log: calls, round two, questions put to you, deal scores (short games by winner), the
combinations scored, watchers, a house bot's one line, says (`  | `), admins, errors,
misspellings; PgUp/PgDn; an error kept among the last five
    → play/test_state.py test_talk_errors_and_lobby_lines_go_to_the_log,
      test_the_last_pas_of_round_one_says_round_two_opens,
      test_a_question_put_to_you_says_who_asks_it,
      test_a_watcher_coming_and_going_is_told_in_the_log,
      test_watchers_talk_is_marked_apart_from_the_tables,
      test_a_say_padded_to_wrap_sets_no_line_of_its_own_in_the_log,
      test_an_admins_announcement_and_bans_go_to_the_log_marked_as_his,
      test_an_error_is_shown_with_suit_signs_and_names_as_the_human_style_says_it,
      test_a_misspelled_command_is_told_the_one_it_is_close_to,
      test_the_log_pane_shows_the_newest_lines_that_fit_and_a_recent_error,
      test_the_log_pane_scrolls_back_a_reply_taller_than_it;
    → play/test_scored_shown.py;
      play/test_screen_names.py test_a_short_games_deal_names_its_winner_not_a_bide;
    → play/test_app.py test_a_house_bot_coming_to_the_table_is_one_line,
      test_calls_at_a_tertz_table_can_be_read_whole_with_page_up,
      test_what_is_read_stays_in_place_with_the_log_full
Keys: only those that work where you are, whole at 80 columns, two lines narrower; each
key line both docs quote is a footer drawn (the Language section's Russian line, which
no screen shows — F2 and F3 with F7 — a slip, corrected)
    → play/test_footer.py (every test);
    → here: test_each_key_line_the_docs_quote_is_one_the_client_draws
Typing: lines go as typed; lists written as the human style writes them, named by the
table kept by match id
    → play/test_state.py test_the_lookups_are_shown_in_words_as_the_human_style_writes_them,
      test_a_sheet_and_history_asked_after_leaving_name_the_seats_of_the_table_left,
      test_a_resumed_clients_table_left_still_names_its_match_in_history,
      test_a_restarted_servers_table_of_the_same_number_is_not_named_as_the_old_one
Keys table: Tab, →, ↑/↓ (no password lines), Enter (bursts and pastes), F-keys, Ctrl+R,
Ctrl+Q, Ctrl+P
    → play/test_state.py test_completion_offers_the_legal_calls_then_the_commands,
      test_history_walks_back_and_forward;
    → play/test_app.py test_a_key_and_tab_in_one_burst_complete_what_was_typed,
      test_the_arrows_and_the_app_keys_with_the_line_focused,
      test_lines_in_one_burst_or_pasted_are_each_their_own, test_no_bidding_keys_at_a_tertz_table;
    → play/test_russian.py test_the_command_palette_is_english_only_and_not_in_the_footer
Language: `--lang`, the locale; Russian labels (both docs' quotes, spaces too: play.ru.md
folded its quoted trump line inside the code span, one space shown for two, and left out
the score's `Взят`: slips, corrected), cards В Д К Т, calls, the log, the catalogue's
read-backs, `help lang=ru`, typing either language, tokens sent
    → here: test_the_russian_panes_both_docs_quote_are_the_ones_drawn;
    → play/test_russian.py (every test)
How it works: `clock human`, 60 s by default
    → play/test_app.py test_a_whole_match_typed_through_the_terminal_client (the clock of
      the first request is the server's human clock)
How it works: no control character shown; a line over 1 MiB ends the connection as a
drop; 5,000 lines waiting drop it
    → play/test_no_terminal.py test_the_link_hands_on_no_control_a_hostile_server_sends,
      test_the_link_drops_a_server_that_sends_more_than_the_screen_can_show;
    → here: test_a_line_longer_than_a_mib_ends_the_connection_as_a_drop_does
Over nc or telnet; Friends; Talk and admins; Looking back; rematch; Ratings; A bot at
your table: the server's human style and commands
    → protocol/test_protocol_audit_styles.py (help, calls, sort), _table.py (the prompt,
      round two, a swap, a deal's end, combinations scored), _clocks.py (the clocks,
      three timeouts, a match over before any call), _lobby.py (seek, leave), _club.py
      (§5.11–§5.21: games, last, sheet, history, invite, rematch, top, finger, bot,
      moderation, password, ignore); server/test_house_bots.py (a house bot's one match);
      tertz/test_declares_screen.py (what a declaration declares);
    → here: test_a_sheet_too_wide_for_its_names_numbers_its_columns_as_the_doc_quotes
      (the numbered sheet's quoted lines, in this client's log)
play.ru.md against play.md: the client's promises read side by side (keys, the seek's
wait, the leave question's 10 s, three clock moves, 2 minutes, 60 s, the Russian panes)
agree; the quoted ones are checked here in both
Not pinned here, left: play.ru.md's «За столом» nc transcript is the server's Russian
human style (server/test_human_ru.py, protocol/test_render.py render_ru), not run line
for line; its sheet example is the server's renderer's (server/test_human_sheet_ru.py),
its numbers ones a deal can make (the bide's 61 : 121 with boris's terts, 182 written:
the page had 45 : 64, 109, fewer than a deal's 162 card points)
"""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from pathlib import Path

import attrs
import pytest
import trio
import trio.testing
from textual.widgets import Input

from clients.play.app import PlayApp, RussianPlayApp, WireLine
from clients.play.draw import hand_text, legal_text, score_text, status_text, table_text
from clients.play.link import Link, pause_before
from clients.play.state import TableState, fold_all
from deberc_net.protocol.lang import Lang
from deberc_net.server.config import Config

from .pilot import footer_row, running, until
from .server import ServerThread

DOCS = Path(__file__).resolve().parents[2] / "docs"
PLAY_MD = (DOCS / "play.md").read_text(encoding="utf-8")
PLAY_RU_MD = (DOCS / "play.ru.md").read_text(encoding="utf-8")


def code_block_after(doc: str, heading: str) -> list[str]:
    """The lines of the first fenced block after ``heading``."""
    rest = doc[doc.index(heading) :]
    start = rest.index("```\n") + len("```\n")
    return rest[start : rest.index("```", start)].rstrip("\n").split("\n")


# the wire lines that make the doc's screen: robo (seat 0) ordered ♣ and led 8♥, misha
# (seat 1, the dealer) to play with 8 s on his clock
SCREEN_LINES = [
    "ok cmd=login name=misha guest=1 token=DTcJsVNrcT9GEvwY text=Hello, misha (guest).",
    "ok cmd=sit table=1 seat=1 text=You sit at table 1, seat 1.",
    "event seq=1 table=1 kind=seated name=robo seat=0",
    "event seq=2 table=1 kind=seated name=misha seat=1",
    "event seq=3 table=1 kind=start players=robo,misha match=m1",
    "event seq=4 table=1 kind=deal deal=1 dealer=1 turned=Jc score=0,0 hanging=0",
    "event seq=5 table=1 kind=call seat=0 call=igrayu auto=0",
    "event seq=6 table=1 kind=order player=0 trump=c first=0 fresa=Kd",
    "event seq=7 table=1 kind=play seat=0 card=8h auto=0",
    "ask seq=7 table=1 deal=1 phase=play seat=1 dealer=1 to_act=1 "
    "hand=7s,8s,9s,Qs,10h,8d,9d,8c,Kc turned=Jc fresa=Kd trump=c player=0 round=1 leader=0 "
    "trick=8h tricks=0,0 score=0,0 hanging=0 target=301 pending=- shown= talk=0:igrayu "
    "clock=8900 legal=terts,10h players=2",
]


def the_docs_screen() -> dict[str, list[str]]:
    """docs/play.md's screen, by pane: the status line; the table and score panes (left
    and right of '│'); the hand, the call; the log's lines shown; the input line's
    prompt; the keys. (The block leaves out the blank rows and the log's older lines.)"""
    rows = code_block_after(PLAY_MD, "## The screen")
    top = [row for row in rows[1:] if row.startswith(" ") and row.strip()]
    top = top[: next(i for i, row in enumerate(top) if row.strip().startswith("Turn:")) + 1]
    after = rows[1 + len(top) :]
    blocks: list[list[str]] = [[]]
    for row in after:
        if row.strip():
            blocks[-1].append(row.strip())
        elif blocks[-1]:
            blocks.append([])
    hand_and_call, log, (prompt, keys) = blocks
    return {
        "status": [rows[0]],
        "table": [row.split("│")[0].strip() for row in top],
        "score": [row.split("│")[1].strip() for row in top if "│" in row],
        "hand": hand_and_call[:1],
        "legal": hand_and_call[1:],
        "log": log,
        "prompt": [prompt],
        "keys": [keys],
    }


async def _the_screen() -> None:
    shown = the_docs_screen()
    # the status names the address dialed: the doc's 127.0.0.1:7501 is a real server's
    # port, so the app dials a closed one and its status is checked by the drawing
    state = fold_all(SCREEN_LINES)
    assert [status_text(state, "127.0.0.1:7501")] == shown["status"]
    app = PlayApp("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        for line in SCREEN_LINES:
            app.post_message(WireLine(line))
        await until(pilot, lambda: app.state.asking, "the ask")
        await pilot.pause(0.1)
        # the clock's seconds as the ask's own 8.9 s: a loaded machine's second between
        # the ask's arrival and this look read '7 s left'
        app.asked_at = time.monotonic()
        app.redraw()
        assert app.pane("status").text == shown["status"][0].replace(":7501", ":9")
        for pane in ("table", "score", "hand", "legal"):
            assert app.pane(pane).text.splitlines() == shown[pane], pane
        # the log's newest lines, those the doc shows last
        # (less the link's notices: it dials a closed port and says so as it retries)
        link = ("cannot connect", "no connection yet", "not connected")
        log = [line for line in app.pane("log").text.splitlines() if not line.startswith(link)]
        assert log[-len(shown["log"]) :] == shown["log"], log
        assert [app.query_one("#input", Input).placeholder] == shown["prompt"]
        # the keys are drawn by their own widgets, a moment later: a loaded machine's
        # look found the row still blank (a helper's run, s43)
        await until(pilot, lambda: footer_row(app).rstrip() == shown["keys"][0], "the keys")
        await pilot.press("ctrl+q")


@pytest.mark.timeout(60)
def test_the_screen_the_doc_shows_is_the_one_the_client_draws() -> None:
    asyncio.run(asyncio.wait_for(_the_screen(), 50))


LOGIN = "ok cmd=login name=misha guest=1 token=T text=Hello, misha (guest)."
BIDDING_ASK = (
    SCREEN_LINES[-1]
    .replace("phase=play", "phase=bidding")
    .replace("legal=terts,10h", "legal=pas,igrayu")
)


async def _footers(app_class: type[PlayApp]) -> list[str]:
    """The keys drawn at 80×24: before a login, in the lobby, asked to bid, asked to play."""
    drawn = []
    app = app_class("127.0.0.1", 9)  # nothing listens there: the link just retries
    async with running(app) as pilot:
        await pilot.pause()
        drawn.append(footer_row(app).rstrip())
        app.post_message(WireLine(LOGIN))
        await until(pilot, lambda: app.state.name == "misha", "the login")
        await pilot.pause()
        drawn.append(footer_row(app).rstrip())
        for line in (*SCREEN_LINES[1:-1], BIDDING_ASK):
            app.post_message(WireLine(line))
        await until(pilot, lambda: "pas" in app.state.legal, "the bid asked")
        await pilot.pause()
        drawn.append(footer_row(app).rstrip())
        app.post_message(WireLine(SCREEN_LINES[-1].replace("seq=7", "seq=8")))
        await until(pilot, lambda: "terts" in app.state.legal, "the card asked")
        await pilot.pause()
        drawn.append(footer_row(app).rstrip())
        await pilot.press("ctrl+q")
    return drawn


def quoted_footers(doc: str, first: str) -> set[str]:
    """Every key line ``doc`` quotes in backticks: a run of keys from ``first``."""
    quoted = {" ".join(found.split()) for found in re.findall(r"`(f1 [^`]+)`", doc)}
    return {
        line for line in quoted if line.startswith(first) and line.endswith(("redial", "связь"))
    }


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("app_class", "docs"),
    [(PlayApp, (PLAY_MD,)), (RussianPlayApp, (PLAY_MD, PLAY_RU_MD))],
)
def test_each_key_line_the_docs_quote_is_one_the_client_draws(
    app_class: type[PlayApp], docs: tuple[str, ...]
) -> None:
    """The key lines docs/play.md and docs/play.ru.md quote, before a login, in the lobby,
    at one's table (bidding, playing), are the lines the footer draws, word for word."""
    drawn = set(asyncio.run(asyncio.wait_for(_footers(app_class), 50)))
    first = "f1 help" if app_class is PlayApp else "f1 помощь"
    for doc in docs:
        quoted = quoted_footers(doc, first)
        assert quoted, first
        assert quoted <= drawn, (quoted - drawn, drawn)


def one_spaced(text: str) -> str:
    """``text`` as Markdown shows a code span: a line's end (and, here, any run of
    blanks) one space."""
    return " ".join(text.split())


def russian_screen() -> str:
    """The doc's screen at deal 2, drawn by the Russian client (its panes' text)."""
    lines = [line.replace("deal=1", "deal=2") for line in SCREEN_LINES]
    state = fold_all(lines, TableState(lang=Lang.RU))
    panes = [table_text(state, 8400), score_text(state), hand_text(state), legal_text(state)]
    return "\n".join(panes)


# the Russian panes' words both docs quote (docs/play.md "Language", docs/play.ru.md
# «Клиент говорит по-русски»)
RUSSIAN_LABELS = [
    "Стол 1, раздача 2: robo — misha*",
    "Сдаёт:",
    "Открыта: В♣  Фреза: К♦  Козырь: ♣ (играет robo)",
    "Разговор:",
    "Взятка:",
    "Прошлая:",
    "Ход:    ВАШ (misha), осталось 8 с",
    "Счёт",
    "Разд",
    "Итог",
    "Взят",
]


def test_the_russian_panes_both_docs_quote_are_the_ones_drawn() -> None:
    """Each Russian label docs/play.md and docs/play.ru.md quote is drawn so (whole, as
    quoted, spaces too: a code span folded across two lines of the Markdown is one
    space, and play.ru.md's split «К♦ / Козырь» read one space where two are drawn)."""
    drawn = russian_screen()
    for label in RUSSIAN_LABELS:
        assert label in drawn, label
        for doc in (PLAY_MD, PLAY_RU_MD):
            assert f"`{label}`" in doc.replace("`\n", "` ").replace("\n", " "), label
    assert "Рука:   ♠ 7 8 9 Д" in drawn and "`Рука:   ♠ 7 8 9 Д`" in PLAY_MD


def test_the_lobby_pane_says_what_a_seek_waits_for_and_how_to_stop() -> None:
    """docs/play.md: while a `seek` waits, the pane says what it waits for and that
    `unseek` stops waiting, in the words it quotes; docs/play.ru.md quotes the Russian.
    Before, the lobby's pane says how to find a game (`seek 2`, `new 2`, `tables`,
    `sit N`)."""
    login = "ok cmd=login name=misha guest=1 token=T text=Hello, misha (guest)."
    seek = (
        "ok cmd=seek players=2 variant=moscow options=to-301 "
        "text=Waiting for a moscow game for 2 players (to-301)."
    )
    lobby = one_spaced(table_text(fold_all([login])))
    for word in ("'seek 2'", "'seek 3'", "'seek 4'", "'new 2'", "'tables'", "'sit N'"):
        assert word in lobby, word
    english = table_text(fold_all([login, seek])).splitlines()[1:]
    quoted = [
        "Waiting for a moscow game for 2 players (to-301).",
        "'unseek' stops waiting; 'tables' lists the tables.",
    ]
    assert english == quoted
    assert all(f"`{line}`" in one_spaced(PLAY_MD) for line in quoted)
    russian = table_text(fold_all([login, seek], TableState(lang=Lang.RU))).splitlines()[1:]
    assert all(f"`{line}`" in one_spaced(PLAY_RU_MD) for line in russian), russian


@attrs.define
class Said:
    """The lines a link hands its screen, and an event per awaited kind of line."""

    lines: list[str] = attrs.Factory(list)
    events: dict[str, threading.Event] = attrs.Factory(dict)

    def deliver(self, line: str) -> None:
        self.lines.append(line)
        for part, event in self.events.items():
            if part in line:
                event.set()

    def awaited(self, part: str) -> threading.Event:
        return self.events.setdefault(part, threading.Event())


def test_the_link_pauses_doubling_from_half_a_second_to_ten_for_two_minutes() -> None:
    """docs/play.md: the pause doubles from 0.5 s up to 10 s a try, for 2 minutes after
    the connection was lost, as long as the server holds a seat by default
    (`away_limit_ms`)."""
    assert [pause_before(attempt) for attempt in range(1, 9)] == [0.5, 1, 2, 4, 8, 10, 10, 10]
    link = Link("127.0.0.1", 9, lambda line: None)
    assert link.retry_for_s == 120 == Config().away_limit_ms / 1000


@pytest.mark.timeout(30)
def test_the_link_gives_up_saying_how_often_it_tried_and_what_the_keys_do() -> None:
    """docs/play.md: after its time the client says `the server cannot be reached (tried
    N times in 120 s): Ctrl+R tries again, F10 or 'quit' leaves` and waits (here its time
    shortened to 1.2 s: three tries, 0.5 s and 1 s apart). On virtual time: the pauses
    and the time given up after are the link's own, exactly (on the wall clock a loaded
    machine's stall of seconds made it two tries in 5 s); a refused connect is real,
    and the clock jumps only once the link has idled 50 ms of real time."""
    said = Said()
    gave_up = said.awaited("cannot be reached")
    with socket.socket() as held:  # bound, never listening: every connect is refused
        held.bind(("127.0.0.1", 0))
        link = Link("127.0.0.1", held.getsockname()[1], said.deliver, name="x")
        link.retry_for_s = 1.2
        link.start(clock=trio.testing.MockClock(autojump_threshold=0.05))
        try:
            assert gave_up.wait(30), said.lines
        finally:
            link.stop()
    given_up = [line for line in said.lines if "cannot be reached" in line]
    assert len(given_up) == 1 and re.fullmatch(
        r"info text=the server cannot be reached \(tried 3 times in 2 s\): "
        r"Ctrl\+R tries again, F10 or 'quit' leaves",
        given_up[0],
    ), said.lines


@pytest.mark.timeout(60)
def test_a_goodbye_the_client_did_not_ask_for_is_not_followed_by_tries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/play.md: after a goodbye from the server it did not ask for (another client
    logged in under the name) the client does not try again by itself; it says what the
    keys do and waits."""
    # a try after a drop would come FIRST_PAUSE_S later: 0.02 s here, not 0.5 (the wait
    # for none below is a quarter second, not a whole one)
    monkeypatch.setattr("clients.play.link.FIRST_PAUSE_S", 0.02)
    said = Said()
    in_, told = said.awaited("ok cmd=login name=dup"), said.awaited("Ctrl+R connects again")
    with ServerThread(tmp_path / "db.sqlite3") as server:
        link = Link("127.0.0.1", server.port, said.deliver, name="dup")
        link.password = "secret1"  # as a typed 'login dup secret1' leaves it: registers
        link.start()
        try:
            assert in_.wait(20), said.lines
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as other:
                other.sendall(b"login dup secret1\n")  # the name, from elsewhere
                reader = other.makefile("rb")
                while b"Hello, dup" not in reader.readline():
                    pass
                assert told.wait(20), said.lines
                # a try would come 0.02 s after the drop: none in a dozen times that
                time.sleep(0.25)
        finally:
            link.stop()
        assert not server.errors, server.errors
    after = said.lines[said.lines.index("info text=Ctrl+R connects again; F10 or 'quit' leaves") :]
    assert any("You logged in from another connection" in line for line in said.lines)
    assert not any("trying again" in line for line in after), said.lines
    assert sum(line.startswith("ok cmd=login") for line in said.lines) == 1, said.lines


@pytest.mark.timeout(30)
def test_a_line_longer_than_a_mib_ends_the_connection_as_a_drop_does() -> None:
    """docs/play.md "How it works": a line longer than 1 MiB ends the connection (the
    server's longest are far shorter), as a drop does: the link says it lost it and tries
    again. A server that sends one and holds the connection open (a hostile one, its line
    without end) is left, and the line is not handed to the screen."""
    said = Said()
    lost = said.awaited("connection lost: trying again")
    with socket.create_server(("127.0.0.1", 0)) as hostile:
        hostile.settimeout(10)
        link = Link("127.0.0.1", hostile.getsockname()[1], said.deliver, name="x")
        link.start()
        try:
            peer, _ = hostile.accept()
            with peer:
                peer.sendall(b"info text=" + b"a" * 1000 + b"\n")  # a long line: shown
                peer.sendall(b"info text=" + b"a" * (1 << 20))  # past the limit, no end
                assert lost.wait(15), said.lines[-3:]
        finally:
            link.stop()
    assert said.lines[0] == "info text=" + "a" * 1000
    assert not any(len(line) > 1 << 20 for line in said.lines)


def test_a_sheet_too_wide_for_its_names_numbers_its_columns_as_the_doc_quotes() -> None:
    """docs/play.md "Looking back": when the sides' names make the sheet wider than 80
    columns (a house bot, here), its columns are numbered, the names listed once above
    them (`  1 = anna`, `  2 = house-heuristic-1`) and the bides follow the numbers
    (`bides #1 1, #2 0`): in this client's log as over nc."""
    state = fold_all(
        [
            "ok cmd=login name=anna guest=1 token=T text=Hello, anna (guest).",
            "ok cmd=sit table=5 seat=0 text=You sit at table 5, seat 0.",
            "event seq=1 table=5 kind=seated name=anna seat=0",
            "event seq=2 table=5 kind=seated name=house-heuristic-1 seat=1",
            "event seq=3 table=5 kind=start players=anna,house-heuristic-1 match=m5",
            "sheet table=5 deals=1 target=301",
            "sheet-deal table=5 deal=1 outcome=bide written=0,162 totals=0,162 hanging=0 bides=1,0",
        ]
    )
    sheet = list(state.log[state.log.index("  1 = anna") - 1 :])
    assert sheet[1:3] == ["  1 = anna", "  2 = house-heuristic-1"], sheet
    assert sheet[-1].endswith("  bides #1 1, #2 0"), sheet
    assert all(len(line) <= 80 for line in sheet), sheet
    for quoted in ("`  1 = anna`", "`  2 = house-heuristic-1`", "`bides #1 1, #2 0`"):
        assert quoted in PLAY_MD, quoted


def test_the_score_lists_the_last_five_deals_and_totals_them_all() -> None:
    """docs/play.md "Score": one row per finished deal, a letter after its number for an
    outcome other than `made` (`b` bide, `h` hanging), the last five deals listed and
    the totals counting them all."""
    ends = []
    totals = [0, 0]
    for deal in range(1, 8):
        written = [10 * deal, 0] if deal % 2 else [0, 20]
        totals = [t + w for t, w in zip(totals, written, strict=True)]
        outcome = "bide" if deal == 6 else "hanging" if deal == 7 else "made"
        ends.append(
            f"event seq={deal * 10} table=1 kind=deal-end deal={deal} outcome={outcome} "
            f"points=0,0 written={written[0]},{written[1]} totals={totals[0]},{totals[1]} "
            "hanging=0"
        )
    rows = score_text(fold_all([*SCREEN_LINES[:5], *ends])).splitlines()
    assert [row.split()[0] for row in rows[2:-1]] == ["3", "4", "5", "6b", "7h"], rows
    assert rows[-1].split() == ["Tot", str(totals[0]), str(totals[1])], rows
    assert totals == [160, 60]  # deals 1 and 2 count, though no longer listed
