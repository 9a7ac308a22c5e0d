"""An audit of docs/settings.md against the server: each promise a server owner may rely
on, and (→) the tests that pin it: a module under tests/ and its tests, "here" for this
module's. The page's examples are run here as written.

§ (top) the example club.toml is taken as written, each value its setting's
    → here: test_the_pages_club_toml_is_taken_as_written
§ (top) an unknown setting: `unknown settings in club.toml: prot (port?) (every setting:
docs/settings.md)`, status 2, one line
    → server/test_config.py test_an_unknown_table_or_setting_is_said_for_what_it_is;
    → here: test_the_pages_refusals_are_said_word_for_word (the page's own line)
§ (top) a table other than [server]: `unknown table in club.toml: [srv]`; a setting above
the [server] line: refused; status 2, one line, before anything is opened
    → server/test_config.py test_an_unknown_table_or_setting_is_said_for_what_it_is,
      test_serve_exits_2_on_a_bad_settings_file_before_opening_anything;
    → here: test_the_pages_refusals_are_said_word_for_word
§ (top) a program's own Config(...) is held to the same rules, at once and on a change
(`Config: setting outbox_bytes expects a whole number, 1 to 67108864 (bytes, 64 MiB at
most), not -1`)
    → server/test_config.py test_a_config_built_in_code_is_checked_as_a_file_is,
      test_a_config_is_checked_when_a_setting_is_changed_too;
    → here: test_the_pages_refusals_are_said_word_for_word,
      test_every_number_past_either_end_of_its_rows_range_is_refused_naming_it
§ `host`, `http_host`, `db`: an address, a store ("" neither): refused at the start, file and flag
    → here: test_an_empty_host_http_host_or_db_is_refused_naming_it (`http_host` too,
      as its own words: "leave it out for the game's host"). A bug, fixed: `host = ""`
      failed to listen ("Name or service not known"); a file's `db = ""` was its own
      folder, `--db ""` SQLite's "No such file or directory"
§ (top) only the clocks may be shorter in code, down to 1 ms
    → here: test_only_the_clocks_may_be_shorter_in_a_programs_config
§ The file and the command line: the file is read once, as serve starts; SIGHUP stops
the server, it does not read the file again
    → server/test_shutdown.py (SIGHUP stops as SIGTERM does);
    → here: test_serve_reads_the_file_once_as_it_starts
§ the flag wins over the file, the file over the default
    → server/test_settings_doc.py test_the_flag_wins_over_the_file_and_the_file_over_the_default
§ `--host`, `--port`, `--db`, `--http-port`, `--http-host` replace the file's
    → server/test_settings_doc.py test_each_flag_on_the_page_is_serves_and_sets_its_setting;
    → here: test_each_flag_replaces_the_files_value
§ a relative `db` in the file is beside the file; `--db` the current directory's;
postgresql://, absolute, :memory: as written
    → test_config_db.py (the three tests the page names)
§ `--house-bots` turns house_bots on; without it the file's value stands
    → here: test_house_bots_flag_turns_it_on_and_the_files_value_stands_without_it
§ the web face: 7580 without --config; the file's http_port with it (left out: none);
`off` turns it off in both (`--http-port off`, `http_port = "off"`); `http_port = 0` a
free port, told by `http_listening`; `--http-port 0` refused, saying to type `off`
    → here: test_the_web_faces_port_from_the_command_line_and_the_file,
      test_the_command_lines_http_port_0_is_refused_saying_what_to_type,
      test_a_files_port_0_and_http_port_0_are_free_ports_told_in_the_log (a real
      server, from the file alone); the flag's `--http-port off`, a real server's
      `web` `off`: test_a_servers_log_is_json_on_stderr_utc_stamped_and_stdout_is_empty
§ the empty lists and unset strings: `trusted_proxies` [] (anyone's X-Forwarded-For
ignored)
    → web/test_proxy.py test_with_no_trusted_proxies_every_forwarded_address_is_ignored
§ `game_proxies` [] ("empty: no header is read")
    → server/test_game_proxy.py test_without_game_proxies_a_proxy_line_is_read_as_a_line
§ `http_host` unset: `host`'s
    → web/test_proxy.py test_without_http_host_the_web_face_listens_on_the_games_host
§ `admins` [] (nobody an admin), `match_seed` unset (a fresh seed a match): not pinned
here; `match_seed = ""` refused → server/test_config.py; `http_host = ""` → here,
test_an_empty_host_http_host_or_db_is_refused_naming_it
§ `port` 0: a free one, told in the `listening` line
    → here: test_a_files_port_0_and_http_port_0_are_free_ports_told_in_the_log (the
      file's); the flag's `--port 0`: every server process of the tests
      (server/process.py), here test_a_servers_log_is_json_on_stderr_utc_stamped_…
§ a web face on the game's port is refused naming where each was set, status 2
    → server/test_config.py test_the_web_face_on_the_games_port_names_where_each_was_set
§ `serve --help` says a settings file decides the web face
    → server/test_config.py test_serve_help_says_a_settings_file_decides_the_web_face
§ the store's other commands take --config for its db; their --db wins; a bad file is
status 2, one line; `admin` says whether the file's admins lists the name; with neither,
`deberc.sqlite3` in the current directory
    → test_config_db.py;
    → here: test_backup_takes_the_files_db_and_without_either_the_current_directorys
§ Every setting: each row's type, default, range and flag are the code's
    → server/test_settings_doc.py (every row)
§ Every setting: a number outside its row's range is refused naming the setting, its
range and the value, status 2, before anything is opened (the page's own example too)
    → server/test_config.py test_a_number_past_its_range_is_refused_naming_it_and_the_range
      (a few, through serve);
    → here: test_every_number_past_either_end_of_its_rows_range_is_refused_naming_it
      (every row, both ends, file and code), test_the_pages_refusals_are_said_word_for_word
§ both ends of every range are taken
    → server/test_config.py test_the_ends_of_every_range_are_taken
§ `nan` is no number; a whole number for a number is taken, a float for a whole number not
    → server/test_config.py
§ `serve --workers N` takes 1 to 256
    → server/test_config.py test_serve_refuses_workers_out_of_range
§ server_dead_ms more than heartbeat_ms; --workers' 1000 / 5000
    → server/test_config.py (the bad-value table;
      test_workers_on_one_host_take_a_dead_worker_for_dead_in_seconds)
§ each row's effect ("what it does"): pinned by the tests of the feature it names
(docs/security.md's, docs/protocol.md's audits); this page's own words for the effects
are not each re-tested here, but for what 0 does, each row's sharpest promise:
§ `login_timeout_ms`, `idle_timeout_ms` at least 1000, `flood_burst` at least 1: refused
at the start, naming the setting and its range, and in a program's Config
    → here: test_a_value_that_would_leave_the_server_unusable_is_refused_at_the_start.
      A bug, fixed: 0 was taken (the rows said "0: every connection is closed at once,
      before it can log in", "… as it logs in", "below 1: a connection is cut off at
      its first line"): a server nobody could use, and `login_timeout_ms = 0` is "no
      timeout" to many an owner
§ `partial_line_ms` 0: a line not whole in one read closes the connection
    → here: test_partial_line_0_closes_a_line_that_does_not_arrive_whole
§ `say_burst`, `say_per_address_burst`, `seat_churn_burst`,
`seat_churn_per_address_burst`, `lists_burst`, `lists_per_address_burst`, `max_tables`
0: none at all (`slow-down`; `busy` for tables)
    → here: test_a_burst_or_count_of_0_allows_none_at_all
§ `registrations_per_address` 0: no name registered by a `login`, nor a password changed;
`failed_logins_per_name`, `failed_logins_per_address` 0: every password login refused
(`slow-down`); `registrations_waiting` 0: `busy`; `..._per_address` 0: `slow-down`
    → here: test_a_registration_limit_of_0_refuses_every_registration,
      test_registrations_per_address_0_lets_no_password_be_changed.
      A bug, fixed: registrations_per_address = 0 was `error code=internal` and the
      connection cut off; the wrong passwords' 0 said passwords were "still being
      checked", none being (a window limit of 0 is now a wait without end, `wait ? s`)
§ `failed_logins_per_connection` 0 as 1: the first wrong password closes the connection
    → here: test_failed_logins_per_connection_0_is_as_1
§ `max_timeouts` 0 as 1: the first timeout forfeits
    → here: test_max_timeouts_0_is_as_1
§ `max_match_deals` 0: the row said nothing (a slip, corrected: "0 as 1: a match of one
deal")
    → here: test_max_match_deals_0_is_as_1
§ `max_connections_per_address`, `max_tables_per_address` 0: no limit
    → here: test_a_per_address_count_of_0_is_no_limit
§ `registration_window_ms`, `failure_window_ms`, `password_check_window_ms` 0: no limit,
nothing counted
    → here: test_a_window_of_0_counts_nothing
§ `empty_table_ms` 0: a deserted waiting table closes at once
    → here: test_empty_table_0_closes_a_deserted_waiting_table_at_once
§ `house_bots_per_table`, `max_house_bots` 0: no house bots; `max_house_search_tables`
0: no search bot (the other kinds still come)
    → here: test_a_house_bot_cap_of_0_is_no_house_bots_said_so.
      A bug, fixed: it was `busy`, "the server runs its 0 house bots already; try
      later" (and "search bots already play at 0 tables …; try later"): no later would
      do; now `not-allowed`, "this server runs no house bots" ("… no search bots")
§ `house_bots_per_address`, `house_search_tables_per_address`,
`house_bot_starts_per_address_burst`, `house_bot_starts_burst` 0: no limit
    → here: test_a_house_bot_limit_of_0_per_address_or_a_burst_of_0_is_no_limit
§ `house_bot_starts_per_address_per_s`, `house_bot_starts_per_s` 0: none past the burst,
ever (`slow-down`, no wait told)
    → here: test_a_house_bot_start_rate_of_0_is_the_burst_and_none_after_ever
§ `house_bot_nice` 0: as the server
    → server/test_house_bots.py test_house_bots_run_nicer_than_the_server
§ `say_per_s`, `say_per_address_per_s`, `lists_per_s`, `lists_per_address_per_s` 0:
none past the burst, ever (`slow-down`, no wait told)
    → here: test_a_rate_of_0_is_the_burst_and_none_past_it_ever
§ `seat_churn_per_s`, `seat_churn_per_address_per_s` 0: none given back, ever
    → here: test_a_seat_churn_rate_of_0_gives_no_seat_back_ever
§ `flood_lines_per_s` 0: none past the burst, ever
    → here: test_flood_lines_per_s_0_is_the_burst_and_none_past_it_ever
§ `clock_warning_ms` 0: never
    → here: test_clock_warning_0_warns_nobody
§ `away_limit_ms` 0: a dropped player's match forfeited at once
    → here: test_away_limit_0_forfeits_a_dropped_players_match_at_once
§ `seek_apart_ms` 0: nobody kept apart (and no "not matched with … again" told)
    → here: test_seek_apart_0_keeps_nobody_apart
§ `known_address_ms` 0: no address known to a name
    → here: test_known_address_0_knows_no_address_to_a_name
§ `max_web_viewers` 0: no live socket (the page still served)
    → web/test_live_socket.py test_no_live_socket_when_max_web_viewers_is_0
§ `web_viewers_per_address` 0: no limit (an address takes every place)
    → web/test_live_socket.py test_web_viewers_per_address_0_is_no_limit
§ `web_connections_per_address` 0, `max_web_connections` 0: no limit
    → web/test_connection_limit.py test_0_is_no_limit, test_the_servers_limit_0_is_no_limit
§ `web_requests_per_address_*` either 0: no limit
    → web/test_request_limit.py test_either_setting_0_is_no_limit
§ `web_socket_frames_*` either 0: no limit
    → web/test_live_socket_frames.py test_no_frame_allowance_when_either_is_0 (the
      burst's 0; the rate's 0 only as a unit: both turn the allowance off in
      server/web/ws_limit.py)
§ `watch_news_window_ms` 0: each coming told; `watch_news_burst` 0: no coming told
    → here: test_watch_news_window_0_tells_each_coming,
      test_watch_news_burst_0_tells_no_coming
§ `watch_news_per_s` 0: none past the burst
    → server/test_announce_limits.py (a rate near 0: the burst's five names, no more)
§ `shutdown_grace_ms` 0: at once (a player online, told why all the same)
    → here: test_shutdown_grace_0_stops_at_once_with_players_online (and the default's
      2 s waited, beside it)
§ `drain_limit_ms` 0 (its default): as long as the longest match lasts
    → server/test_drain_command.py
      test_an_admins_drain_lets_the_running_match_end_then_stops (a whole match played
      out under the default)
§ `lag_ms` 0: none
    → server/test_clock.py
      test_a_call_answered_late_in_the_clock_gives_the_next_seat_its_whole_clock (lag 0:
      the automatic call at 10 s exactly)
§ `web_send_timeout_ms` 0: the system's own limit: not pinned (the kernel's, past any
test's time)
§ `worker_restart_ms` 0 (at once), `seek_patience_ms` 0 (the next look): not pinned here
(`serve --workers` on PostgreSQL, seconds a test; read in cluster/launch.py and
cluster/node.py: a wait of 0)
§ "0 … each row says what that does, or that the setting refuses it"
    → here: test_every_row_that_takes_0_says_what_0_does (max_match_deals' said nothing)
§ "Six settings have a flag of `serve` too"
    → here: test_six_settings_have_a_flag_of_serve
§ Logs: "`debug` writes nothing more today"
    → here: test_debug_writes_nothing_more_today
§ Logs: JSON a line on standard error when it is not a terminal; standard output not
used; every line has `event`, `level`, `timestamp` (ISO 8601, UTC)
    → server/test_logs_doc.py test_a_servers_log_is_json_on_stderr_with_the_players_address;
    → here: test_a_servers_log_is_json_on_stderr_utc_stamped_and_stdout_is_empty
§ Logs: the example lines' fields (`listening`: host, port, db; web=off without a web face)
    → here: test_a_servers_log_is_json_on_stderr_utc_stamped_and_stdout_is_empty
§ Logs: a line that cannot be written is dropped, the server plays on
    → server/test_logs_stream.py
      test_a_server_whose_log_reader_went_away_plays_on_and_stops_cleanly
§ Logs: UTF-8 text as written, escapes elsewhere
    → server/test_logs_stream.py
      test_a_json_line_keeps_cyrillic_as_written_where_the_stream_takes_it
§ Logs: log_level; the lifecycle lines whatever it says; a ladder's own server its warnings
    → server/test_logs_ops.py test_a_lone_server_logs_its_lifecycle_under_log_level_warning;
    → server/test_logs_stream.py
§ Logs: an embedding program gets plain tracebacks
    → server/test_logs_embedded.py
§ Logs, floods: the first whole, then one summary a minute
    → server/test_summaries.py; server/test_streams.py; server/test_logs_ops.py
§ Logs table: every event listed is logged by the code at its level, and every event
logged is listed
    → server/test_logs_doc.py
§ Logs table: each event is logged ONLY at the row's level (no second call site at
another)
    → here: test_each_listed_event_is_logged_at_its_rows_level_only
§ Logs table: the fields each row names are on the line (listening, http_listening,
connect, register, login, login_failed, said, table_open, seat_taken, seat_left,
table_closed, match_start, deal, match_end, disconnect, shutdown, stopped,
password_changed, flood, timeout)
    → here: test_each_row_names_the_fields_this_audit_checks (the row says the field),
      test_the_fields_a_row_names_are_on_a_real_servers_lines,
      test_the_fields_of_a_password_change_a_flood_and_a_timeout (a real server's line
      carries it, at the row's level);
      the other rows' fields → the tests of their features (test_logs_ops.py, and the
      --workers, drain, store and ladder tests); not each pinned here by a real line
§ Logs table, every row: the fields it names are the fields the code's lines of its
event carry, no more, no fewer (read from the source: each logger call's fields, its
logger's own, a connection's or a table's; those passed on with ** listed apart, each
with the test whose real line pins it, or why none can)
    → here: test_every_row_of_the_logs_table_has_its_fields_written,
      test_every_field_the_code_logs_is_named_on_its_row,
      test_every_field_a_row_names_is_on_the_events_lines.
      Slips, corrected (fields logged that no row named): `worker`, `pid` of
      worker_died, worker_failed_to_start (and its `status`), worker_drained,
      worker_listening; the parent's `workers` on shutdown, drained, stopped;
      shutdown's `reason` (`drained`, `drain-limit`); `name` of house_bot_exit and
      house_bot_cannot_start; store_write_failed's `table`, `match`, `deal`;
      store_group_failed's `jobs`; store_open_failed's `db`; command_error's `item`;
      bus_message_failed's `payload`, bus_message_too_long's `kind`, `size`;
      bus_closed's counts; the ladder worker's `run`, `board`, `boards`;
      release_failed_asked_again's `board`, `text`. And words that named a field only
      with its value (`web=off`, `command=password`, `draining: true`) name it
"""

from __future__ import annotations

import ast
import functools
import io
import json
import re
import signal
import socket
import subprocess
import sys
import tomllib
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import structlog
import trio
import trio.testing

from deberc_net.cli import build_parser, main, serve_config
from deberc_net.server.app import serve
from deberc_net.server.config import Config
from deberc_net.server.house import HouseBots
from deberc_net.testing import rule_book

from .client import LineClient, a_whole_match, fields, seat_pair
from .conftest import Connector, make_config
from .process import read_until, start_server_process

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "settings.md"
ROW = re.compile(r"^\| `(\w+)` \|([^|]+)\|([^|]+)\|([^|]*)\|([^|]*)\|([^|]+)\|$")
RANGE = re.compile(r"^(\d+) to (\d+)")
# a clock's least in a program's own Config (the page: "down to 1 ms")
CODE_LEAST = {"human_clock_ms": 1, "bot_clock_ms": 1}


def _ranged_rows() -> list[tuple[str, str, int, int]]:
    """(setting, type, least, most) of each row of the page that gives a range."""
    rows = []
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found and (bounds := RANGE.match(found[4].strip())):
            rows.append((found[1], found[2].strip(), int(bounds[1]), int(bounds[2])))
    return rows


def _write(folder: Path, text: str, name: str = "club.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_page_gives_a_range_to_many_settings() -> None:
    """(The table-driven test below is not empty by a parsing slip.)"""
    assert len(_ranged_rows()) > 70


@pytest.mark.parametrize(
    ("name", "kind", "least", "most"), _ranged_rows(), ids=lambda part: str(part)
)
def test_every_number_past_either_end_of_its_rows_range_is_refused_naming_it(
    tmp_path: Path, name: str, kind: str, least: int, most: int
) -> None:
    """One past each end of the row's range, in a file and in a program's Config: the
    refusal names the setting, the row's range and the value ("expects a whole number,
    5000 to 86400000 (…), not 900000000"); one at each end is taken."""
    expects = "a port number" if name in ("port", "http_port") else f"a {kind}"
    for value in (most + 1, least - 1):
        path = _write(tmp_path, f"[server]\n{name} = {value}\n")
        with pytest.raises(ValueError) as info:
            Config.from_toml(path)
        said = str(info.value)
        assert said.startswith(f"{path}: setting {name} expects {expects}, {least} to {most}")
        assert said.endswith(f", not {value}"), said
    for wrong in (most + 1, CODE_LEAST.get(name, least) - 1):
        with pytest.raises(ValueError, match=rf"^Config: setting {name} expects .*, not "):
            Config(**{name: wrong})  # type: ignore[arg-type]
    for value in (least, most):
        text = f"[server]\n{name} = {value}\n"
        if name == "heartbeat_ms":  # (server_dead_ms must stay above it)
            text += f"server_dead_ms = {value + 1}\n"
        if name == "server_dead_ms":  # "more than heartbeat_ms", whose least is 1
            value = max(value, 2)
            text = f"[server]\n{name} = {value}\nheartbeat_ms = 1\n"
        assert getattr(Config.from_toml(_write(tmp_path, text)), name) == value


def test_only_the_clocks_may_be_shorter_in_a_programs_config(tmp_path: Path) -> None:
    config = Config(human_clock_ms=1, bot_clock_ms=1)
    assert (config.human_clock_ms, config.bot_clock_ms) == (1, 1)
    for name in CODE_LEAST:
        with pytest.raises(ValueError, match=rf"^Config: setting {name} expects .*, not 0$"):
            Config(**{name: 0})  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=rf"setting {name} expects .*, not 1$"):
            Config.from_toml(_write(tmp_path, f"[server]\n{name} = 1\n"))
    # any other setting's least is the file's in code too
    with pytest.raises(ValueError, match=r"^Config: setting max_line expects"):
        Config(max_line=255)


def _page_block(language: str) -> str:
    """The page's first code block in ``language``."""
    text = PAGE.read_text(encoding="utf-8")
    return text.split(f"```{language}\n", 1)[1].split("```", 1)[0]


def test_the_pages_club_toml_is_taken_as_written(tmp_path: Path) -> None:
    block = _page_block("toml")
    assert block.startswith("# club.toml\n")
    path = _write(tmp_path, block)
    config = serve_config(build_parser().parse_args(["serve", "--config", str(path)]))
    written = tomllib.loads(block)["server"]
    assert written["db"] == "club.sqlite3"
    written["db"] = str(tmp_path / "club.sqlite3")  # (beside the file, the page says)
    assert {name: getattr(config, name) for name in written} == written
    assert config.http_port is None  # with --config and no http_port: no web face


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # the page's own words, each a refusal's whole line
        (
            "[server]\nprot = 7600\n",
            "unknown settings in club.toml: prot (port?) (every setting: docs/settings.md)",
        ),
        ("[srv]\nport = 7600\n", "unknown table in club.toml: [srv]"),
        ("port = 7600\n[server]\ndb = 'x.sqlite3'\n", "settings outside [server] in club.toml"),
        (
            "[server]\nhuman_clock_ms = 900000000\n",
            "club.toml: setting human_clock_ms expects a whole number, 5000 to 86400000 "
            "(milliseconds a call, a day at most), not 900000000",
        ),
    ],
)
def test_the_pages_refusals_are_said_word_for_word(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
    said: str,
) -> None:
    """`serve --config club.toml` run as the page shows it, from the file's folder."""
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, text)
    assert main(["serve", "--config", "club.toml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"deberc-net serve: {said}"), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["club.toml"]  # nothing opened


def test_the_pages_config_refusal_is_said_word_for_word() -> None:
    with pytest.raises(ValueError) as info:
        Config(outbox_bytes=-1)
    assert str(info.value) == (
        "Config: setting outbox_bytes expects a whole number, 1 to 67108864 "
        "(bytes, 64 MiB at most), not -1"
    )


def _serve(*argv: str) -> Config:
    return serve_config(build_parser().parse_args(["serve", *argv]))


def test_each_flag_replaces_the_files_value(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[server]\nhost = "127.0.0.2"\nport = 7600\ndb = "file.sqlite3"\n'
        'http_port = 7610\nhttp_host = "127.0.0.3"\n',
    )
    from_file = _serve("--config", str(path))
    assert (from_file.host, from_file.port, from_file.http_port, from_file.http_host) == (
        "127.0.0.2",
        7600,
        7610,
        "127.0.0.3",
    )
    flags = _serve(
        "--config",
        str(path),
        *("--host", "127.0.0.4", "--port", "7700", "--db", "flag.sqlite3"),
        *("--http-port", "7710", "--http-host", "127.0.0.5"),
    )
    assert (flags.host, flags.port, flags.db, flags.http_port, flags.http_host) == (
        "127.0.0.4",
        7700,
        "flag.sqlite3",
        7710,
        "127.0.0.5",
    )


def test_house_bots_flag_turns_it_on_and_the_files_value_stands_without_it(
    tmp_path: Path,
) -> None:
    on = _write(tmp_path, "[server]\nhouse_bots = true\n", "on.toml")
    off = _write(tmp_path, "[server]\nhouse_bots = false\n", "off.toml")
    assert _serve().house_bots is False  # the default
    assert _serve("--house-bots").house_bots is True
    assert _serve("--config", str(on)).house_bots is True  # no flag: the file's stands
    assert _serve("--config", str(off)).house_bots is False
    assert _serve("--config", str(off), "--house-bots").house_bots is True


def test_the_web_faces_port_from_the_command_line_and_the_file(tmp_path: Path) -> None:
    bare = _write(tmp_path, "[server]\nport = 7600\n", "bare.toml")
    free = _write(tmp_path, "[server]\nhttp_port = 0\n", "free.toml")
    assert _serve().http_port == 7580  # no --config: 7580
    assert _serve("--config", str(bare)).http_port is None  # left out: no web face
    assert _serve("--config", str(free)).http_port == 0  # the file's 0: a free port
    # one spelling for none, on the command line and in the file
    off = _write(tmp_path, '[server]\nhttp_port = "off"\n', "off.toml")
    assert _serve("--http-port", "off").http_port is None
    assert _serve("--config", str(free), "--http-port", "off").http_port is None
    assert _serve("--config", str(off)).http_port is None
    assert _serve("--config", str(off), "--http-port", "7700").http_port == 7700  # the flag wins


def test_the_command_lines_http_port_0_is_refused_saying_what_to_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """'--http-port 0' meant off, where a file's 'http_port = 0' is a free port: the
    same 0 two ways. It is refused, not taken as a free port (a script that meant
    off would open a web face), with the words to type instead; nothing opens."""
    db = tmp_path / "s.sqlite3"
    assert main(["serve", "--db", str(db), "--http-port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "deberc-net serve: --http-port 0 no longer turns the web face off: give"
        " --http-port off for none (0 would be a free port, as http_port = 0 is in a"
        " settings file)\n"
    ), err
    assert not db.exists()
    assert main(["serve", "--db", str(db), "--http-port", "of"]) == 2
    err = capsys.readouterr().err
    assert "--http-port expects a port number or off, not 'of'" in err, err
    assert not db.exists()


# ---- Logs -----------------------------------------------------------------------------

LEVELS = {"debug", "info", "warning", "error", "exception", "critical"}
LOGGER = re.compile(r"(^|\.)(\w*log|bound)$")
LOG_ROW = re.compile(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \| ([a-z, ]+) \|(.*)\|$")


def _log_rows() -> dict[str, tuple[str, str]]:
    """Each event of the page's Logs table: its level and its row's words."""
    rows: dict[str, tuple[str, str]] = {}
    section = PAGE.read_text(encoding="utf-8").split("\n## Logs\n", 1)[1]
    for line in section.splitlines():
        found = LOG_ROW.match(line)
        if found:
            names = [name.strip("` ") for name in found[1].split(",")]
            levels = [level.strip() for level in found[2].split(",")]
            levels = levels * len(names) if len(levels) == 1 else levels
            for name, level in zip(names, levels, strict=True):
                rows[name] = (level, found[3])
    return rows


class LoggerCall(NamedTuple):
    """A logger call of deberc_net that names its event literally."""

    event: str
    level: str
    logger: str  # the logger, as the source writes it: `log`, `session.log`, `bound`
    named: frozenset[str]  # the fields it names (not exc_info, written as a traceback)
    passed_on: bool  # whether it passes more fields on with ``**``


@functools.cache  # (five tests read them: the sources parsed once, ~1 s)
def _logger_calls() -> tuple[LoggerCall, ...]:
    calls = []
    for path in (ROOT / "deberc_net").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in LEVELS
                and LOGGER.search(ast.unparse(node.func.value))
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                calls.append(
                    LoggerCall(
                        node.args[0].value,
                        "error" if node.func.attr == "exception" else node.func.attr,
                        ast.unparse(node.func.value),
                        frozenset(k.arg for k in node.keywords if k.arg not in (None, "exc_info")),
                        any(k.arg is None for k in node.keywords),
                    )
                )
    return tuple(calls)


def _levels_in_the_code() -> dict[str, frozenset[str]]:
    """Each event a logger call of deberc_net names literally: the levels it is logged at."""
    levels: dict[str, set[str]] = {}
    for call in _logger_calls():
        levels.setdefault(call.event, set()).add(call.level)
    return {event: frozenset(at) for event, at in levels.items()}


def test_each_listed_event_is_logged_at_its_rows_level_only() -> None:
    """server/test_logs_doc.py finds each row's (event, level) among the code's calls; a
    second call of the same event at another level (an operator filtering warnings
    misses it) passed there."""
    in_code = _levels_in_the_code()
    rows = _log_rows()
    assert len(rows) > 70
    other = {
        event: sorted(in_code[event])
        for event, (level, _) in rows.items()
        if event in in_code and in_code[event] != {level}
    }
    assert not other, f"logged at a level its row does not give: {other}"


# the fields each row names, as its words write them (`field`), and a real server's
# line of the event carries; the connection's own (`conn`, `peer`, and `name` once
# logged in) are on each of its lines, the page says, whether its row repeats them or not
FIELDS = {
    "listening": {"host", "port", "db"},
    "http_listening": {"host", "port"},
    "connect": {"conn", "peer"},
    "register": {"name", "conn", "peer"},
    "login": {"name", "guest", "conn", "peer"},
    "login_failed": {"name", "conn", "peer", "reason"},
    "said": {"name", "conn", "peer", "table", "text"},
    "table_open": {"table", "variant", "options"},
    "seat_taken": {"table", "seat", "guest", "conn", "peer", "name"},
    "seat_left": {"table", "seat", "name", "reason", "conn", "peer"},
    "table_closed": {"table", "match", "reason"},
    "match_start": {"table", "match", "players"},
    "deal": {"table", "match", "deal", "outcome", "written", "totals"},
    "match_end": {"table", "match", "winner", "reason", "totals"},
    "disconnect": {"reason"},
    "shutdown": {"signal"},
    "stopped": set(),
    "password_changed": {"name", "conn", "peer"},
    "flood": {"conn", "peer", "reason"},
    "timeout": {"code"},
}
CONNECTIONS = {"connect", "register", "login", "login_failed", "said", "disconnect", "timeout"}
# the events of test_the_fields_a_row_names_are_on_a_real_servers_lines' play
PLAYED = FIELDS.keys() - {"listening", "http_listening", "shutdown", "stopped"}
PLAYED -= {"password_changed", "flood", "timeout"}


def test_each_row_names_the_fields_this_audit_checks() -> None:
    rows = _log_rows()
    for event, named in FIELDS.items():
        _, words = rows[event]
        unnamed = {field for field in named if f"`{field}`" not in words}
        if event in CONNECTIONS:  # ("Each connection's lines carry `conn`, `peer`")
            unnamed -= {"conn", "peer"}
        assert not unnamed, (event, unnamed)


def _lines(err: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in err.splitlines()]


def _carries(line: dict[str, Any], event: str) -> None:
    level, _ = _log_rows()[event]
    assert line["level"] == level, line
    assert FIELDS[event] <= set(line), (event, FIELDS[event] - set(line))


@pytest.mark.timeout(60)
def test_a_servers_log_is_json_on_stderr_utc_stamped_and_stdout_is_empty(
    tmp_path: Path,
) -> None:
    """The page's example lines: `listening` with host, port, db (and `web=off` without
    a web face), `connect`, `login`, `disconnect`, `shutdown` (its `signal`), `stopped`;
    each line's `timestamp` ISO 8601 in UTC; nothing on standard output."""
    said: list[dict[str, Any]] = []
    proc, port = start_server_process(
        tmp_path / "log.sqlite3", "shutdown_grace_ms = 100", said=said
    )
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            read_until(sock, b"\n")
            sock.sendall(b"login misha\nquit\n")
            read_until(sock, b"bye")
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert out == ""
    lines = said + _lines(err)
    events = {line["event"]: line for line in lines}
    listening = events["listening"]
    _carries(listening, "listening")
    assert (listening["host"], listening["port"], listening["web"]) == ("127.0.0.1", port, "off")
    assert listening["db"] == str(tmp_path / "log.sqlite3")
    for event in ("connect", "login", "disconnect", "shutdown", "stopped"):
        _carries(events[event], event)
    assert events["shutdown"]["signal"] == "SIGTERM"
    for line in lines:
        stamp = datetime.fromisoformat(line["timestamp"].replace("Z", "+00:00"))
        assert line["timestamp"].endswith("Z") and stamp.utcoffset() == timedelta(0)


def _of(logs: Sequence[MutableMapping[str, Any]], event: str) -> list[dict[str, Any]]:
    """The captured lines of ``event``, with ``level`` as the JSON line says it."""
    return [{**line, "level": line["log_level"]} for line in logs if line["event"] == event]


@pytest.mark.timeout(60)
async def test_the_fields_a_row_names_are_on_a_real_servers_lines(
    port: int, connect: Connector
) -> None:
    with structlog.testing.capture_logs() as logs:
        vera = await connect.machine(port, "vera", "pw-vera-1")  # register, login
        guesser = await connect.raw(port, "guesser")
        await guesser.send("style machine")
        await guesser.expect("ok", cmd="style")
        await guesser.send("login vera not-her-password")
        assert (await guesser.expect("error"))["code"] == "bad-password"
        await vera.send("say hello all")
        await vera.expect("say")  # (its echo)
        await vera.send("new 2")
        await vera.expect("ok", cmd="sit")
        await vera.send("leave")
        await vera.expect("ok", cmd="leave")
        ann = await connect.machine(port, "ann")
        bob = await connect.machine(port, "bob")
        await a_whole_match(ann, bob, "2 short")
        await bob.send("quit")
        await bob.wait_closed()
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")  # (the match's end and bob's quit logged)
    for event in PLAYED:
        lines = _of(logs, event)
        assert lines, event
        for line in lines:
            _carries(line, event)
    assert [line["reason"] for line in _of(logs, "seat_left")] == ["left"]
    assert {line["reason"] for line in _of(logs, "table_closed")} == {"left", "match-over"}
    assert [line["table"] for line in _of(logs, "said")] == [None]
    assert "pw-vera-1" not in repr(logs) and "not-her-password" not in repr(logs)


# ---- Every setting: what 0 does, as each row says -------------------------------------


async def _all_it_is_told(port: int, lines: bytes) -> bytes:
    """Every byte a fresh connection that sends ``lines`` is told until it is closed."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    told = b""
    with trio.fail_after(10):
        try:
            await stream.send_all(lines)
            while chunk := await stream.receive_some(65536):
                told += chunk
        except trio.BrokenResourceError:  # (closed with our lines unread: a reset)
            pass
    await stream.aclose()
    return told


@pytest.mark.timeout(30)  # (were it taken, the server would start and serve)
@pytest.mark.parametrize(
    ("setting", "value", "least"),
    [
        # every connection closed before it could log in; closed as it logged in; cut
        # off at its first line: a server nobody can use, taken without a word
        ("login_timeout_ms", "0", "1000"),
        ("idle_timeout_ms", "0", "1000"),
        ("flood_burst", "0.5", "1"),
    ],
)
def test_a_value_that_would_leave_the_server_unusable_is_refused_at_the_start(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    setting: str,
    value: str,
    least: str,
) -> None:
    """A server nobody can use is refused as it starts, the setting and its least named
    (status 2, one line, nothing opened), and in a program's Config at once. It was
    taken: `login_timeout_ms = 0` (a "no timeout" to many an owner) closed every
    connection before it could log in."""
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, f"[server]\n{setting} = {value}\n")
    assert main(["serve", "--config", "club.toml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"deberc-net serve: club.toml: setting {setting} expects "), err
    assert f", {least} to " in err and err.rstrip().endswith(f"not {value}"), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["club.toml"]
    with pytest.raises(ValueError, match=rf"^Config: setting {setting} expects .*, {least} to "):
        Config(**{setting: float(value) if "." in value else int(value)})  # type: ignore[arg-type]


@pytest.mark.timeout(30)  # (were it taken, the server would start and serve)
@pytest.mark.parametrize(
    ("file", "argv", "said"),
    [
        # '' listened nowhere: "cannot listen on :7501: Name or service not known"
        (
            'host = ""',
            [],
            'club.toml: setting host expects an address to listen on ("0.0.0.0" for every'
            " address), not ''",
        ),
        (None, ["--host", ""], "--host expects an address to listen on"),
        # a file's '' was its own folder, opened as a database; the flag's '' SQLite's
        # "No such file or directory"
        ('db = ""', [], "club.toml: setting db expects an SQLite file's path or a postgresql"),
        (None, ["--db", ""], "--db expects an SQLite file's path or a postgresql:// address"),
        # '' would be every address, not the game's host
        ('http_host = ""', [], "club.toml: setting http_host expects an address to listen"),
        (None, ["--http-host", ""], "--http-host expects an address to listen on (leave it"),
    ],
)
def test_an_empty_host_http_host_or_db_is_refused_naming_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    file: str | None,
    argv: list[str],
    said: str,
) -> None:
    """An empty string where the page wants an address or a store: refused as `serve`
    starts, naming the setting (or the flag), status 2, one line, nothing opened."""
    monkeypatch.chdir(tmp_path)
    if file is not None:
        _write(tmp_path, f"[server]\n{file}\n")
        argv = ["--config", "club.toml"]
    assert main(["serve", "--port", "0", "--http-port", "off", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"deberc-net serve: {said}"), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert [path.name for path in tmp_path.iterdir()] == (["club.toml"] if file else [])


@pytest.mark.timeout(30)
async def test_partial_line_0_closes_a_line_that_does_not_arrive_whole(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(partial_line_ms=0)
    ann = await connect.machine(port, "ann")  # whole lines pass
    await ann.send_raw(b"pi")
    await ann.wait_closed()


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("setting", "command", "code"),
    [
        # "0: no `say` or `invite` at all"
        ("say_burst", "say hello", "slow-down"),
        ("say_per_address_burst", "say hello", "slow-down"),
        # "0: nobody may take a seat at all"
        ("seat_churn_burst", "new 2", "slow-down"),
        ("seat_churn_per_address_burst", "new 2", "slow-down"),
        # "0: none at all"
        ("lists_burst", "who", "slow-down"),
        ("lists_per_address_burst", "who", "slow-down"),
        # "0: no table opens, no game is played"
        ("max_tables", "new 2", "busy"),
    ],
)
async def test_a_burst_or_count_of_0_allows_none_at_all(
    start_server: StartServer, connect: Connector, setting: str, command: str, code: str
) -> None:
    port = await start_server(**{setting: 0})
    ann = await connect.machine(port, "ann")
    await ann.send(command)
    assert (await ann.expect("error"))["code"] == code


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("setting", "code"),
    [
        # "0: no name can be registered by a `login`"
        ("registrations_per_address", "slow-down"),
        # "0: every login with a password, a registration too, is refused (`slow-down`)"
        ("failed_logins_per_name", "slow-down"),
        ("failed_logins_per_address", "slow-down"),
        # "0: every registration gets `busy`" / "… gets `slow-down`"
        ("registrations_waiting", "busy"),
        ("registrations_waiting_per_address", "slow-down"),
    ],
)
async def test_a_registration_limit_of_0_refuses_every_registration(
    start_server: StartServer, connect: Connector, setting: str, code: str
) -> None:
    port = await start_server(**{setting: 0})
    newcomer = await connect.raw(port, "newcomer")
    await newcomer.send("style machine")
    await newcomer.expect("ok", cmd="style")
    with structlog.testing.capture_logs() as logs:
        await newcomer.send("login vera pw-vera-1")
        refused = await newcomer.expect("error")
    # (registrations_per_address = 0 was an internal error, the connection cut off; the
    # wrong passwords' 0 said passwords were "still being checked", none being)
    assert refused["code"] == code and "being checked" not in refused["text"], refused
    assert "wait_ms" not in refused  # no wait ends it
    assert _of(logs, "register") == []
    assert [line["reason"] for line in _of(logs, "login_failed")] == [code]


@pytest.mark.timeout(30)
async def test_failed_logins_per_connection_0_is_as_1(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """ "0 as 1": the first wrong password closes the connection."""
    port = await start_server(failed_logins_per_connection=0)
    await register("anna", "right-one")
    guesser = await connect.raw(port, "guesser")
    await guesser.send("style machine")
    await guesser.expect("ok", cmd="style")
    await guesser.send("login anna wrong-one")
    assert (await guesser.expect("error"))["code"] == "bad-password"
    await guesser.wait_closed()


@pytest.mark.timeout(30)
async def test_registrations_per_address_0_lets_no_password_be_changed(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """ "nor a password changed": it was an internal error, the connection cut off."""
    port = await start_server(registrations_per_address=0)
    await register("anna", "right-one")
    anna = await connect.machine(port, "anna", "right-one")
    await anna.send("password right-one other-one")
    refused = await anna.expect("error")
    assert refused["code"] == "slow-down" and "wait_ms" not in refused, refused
    await anna.send("ping")
    await anna.expect("ok", cmd="ping")  # still connected


def _is_match_end(line: str) -> bool:
    return line.startswith("event ") and "kind=match-end" in line


@pytest.mark.timeout(30)
async def test_max_timeouts_0_is_as_1(start_server: StartServer, connect: Connector) -> None:
    """ "0 as 1: the first timeout forfeits": neither player answers, and the first asked
    loses the match at his first timeout, asked nothing more."""
    port = await start_server(bot_clock_ms=150, lag_ms=0, max_timeouts=0)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    with trio.fail_after(30):
        end = fields(await ann.read_until(_is_match_end))[1]
        await bob.read_until(_is_match_end)
    assert end["reason"] == "timeouts" and end.get("forfeit") not in (None, "-")
    asks = [line for line in ann.lines + bob.lines if line.startswith("ask ")]
    assert len(asks) == 1, asks


@pytest.mark.timeout(30)
async def test_max_match_deals_0_is_as_1(start_server: StartServer, connect: Connector) -> None:
    """The row said nothing of 0 (the page: each row says what 0 does): a match of one
    deal, as 1. Two players passing every deal: one void deal, then `most-deals`."""
    port = await start_server(max_match_deals=0)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)

    async def pass_every_time(client: LineClient) -> None:
        while True:
            line = await client.read_until(lambda x: x.startswith("ask ") or _is_match_end(x))
            if _is_match_end(line):
                return
            await client.send(f"pas seq={fields(line)[1]['seq']}")

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pass_every_time, ann)
            nursery.start_soon(pass_every_time, bob)
    [end] = [fields(line)[1] for line in ann.lines if _is_match_end(line)]
    assert end["reason"] == "most-deals"
    deals = [line for line in ann.lines if line.startswith("event ") and "kind=deal-end" in line]
    assert len(deals) == 1


def test_every_row_that_takes_0_says_what_0_does() -> None:
    """The page: "0 means 'no limit' only where its row says so …, and each row says what
    that does". A row continued by the next ("… and at once; either 0: no limit") is
    said there; server_dead_ms's 0 is refused as "more than `heartbeat_ms`"."""
    rows = [
        ROW.match(line) for line in PAGE.read_text(encoding="utf-8").splitlines() if ROW.match(line)
    ]
    silent = []
    for at, row in enumerate(rows):
        assert row is not None
        if not row[4].strip().startswith("0 to"):
            continue
        words = row[6]
        following = rows[at + 1] if at + 1 < len(rows) else None
        said_next = following is not None and "either 0" in following[6]
        if not (re.search(r"\b0\b|below 1|more than `heartbeat_ms`", words) or said_next):
            silent.append(row[1])
    assert not silent, f"rows that take 0 and say nothing of it: {silent}"


def test_six_settings_have_a_flag_of_serve() -> None:
    """ "Six settings have a flag of `serve` too"."""
    flags = [row for row in PAGE.read_text(encoding="utf-8").splitlines() if ROW.match(row)]
    with_flag = [row for row in flags if (found := ROW.match(row)) and found[5].strip()]
    assert "Six settings have a flag of `serve` too" in PAGE.read_text(encoding="utf-8")
    assert len(with_flag) == 6


def test_debug_writes_nothing_more_today() -> None:
    """ "`debug` writes nothing more today": no event is logged at debug."""
    at_debug = sorted(event for event, levels in _levels_in_the_code().items() if "debug" in levels)
    assert not at_debug


@pytest.mark.timeout(30)
async def test_a_per_address_count_of_0_is_no_limit(
    start_server: StartServer, connect: Connector
) -> None:
    """`max_connections_per_address`, `max_tables_per_address` 0: "no limit", not none."""
    port = await start_server(max_connections_per_address=0, max_tables_per_address=0)
    players = [await connect.machine(port, f"p{n}") for n in range(3)]  # one address
    for player in players:
        await player.send("new 2")
        await player.expect("ok", cmd="sit")


@pytest.mark.timeout(30)
async def test_a_window_of_0_counts_nothing(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """`registration_window_ms`, `failure_window_ms`, `password_check_window_ms` 0: "no
    limit (nothing is counted)", the limits themselves at their least."""
    port = await start_server(
        registration_window_ms=0,
        registrations_per_address=1,
        failure_window_ms=0,
        failed_logins_per_name=1,
        failed_logins_per_address=1,
        password_check_window_ms=0,
        password_checks_per_address=1,
    )
    for name in ("vera", "olga"):  # two registrations from one address
        await connect.machine(port, name, f"pw-{name}-1")
    await register("anna", "right-one")
    for _ in range(3):  # wrong passwords, each its own connection: each checked
        guesser = await connect.raw(port, "guesser")
        await guesser.send("style machine")
        await guesser.expect("ok", cmd="style")
        await guesser.send("login anna wrong-one")
        assert (await guesser.expect("error"))["code"] == "bad-password"
    await connect.machine(port, "anna", "right-one")


@pytest.mark.timeout(30)
async def test_empty_table_0_closes_a_deserted_waiting_table_at_once(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(empty_table_ms=0)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with structlog.testing.capture_logs() as logs:
        await ann.send("quit")
        await ann.wait_closed()
        # virtual time (a loaded machine's real seconds are not the server's delay):
        # its default, 10 s, would fail here
        with trio.fail_after(2):
            while not _of(logs, "table_closed"):
                await trio.sleep(0.01)
    [closed] = _of(logs, "table_closed")
    assert closed["reason"] == "deserted"


@pytest.mark.timeout(30)
async def test_the_fields_of_a_password_change_a_flood_and_a_timeout(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    # (virtual time: the login timeout's second passes at once)
    port = await start_server(flood_burst=3.0, flood_lines_per_s=0.1, login_timeout_ms=1000)
    await register("anna", "right-one")
    with structlog.testing.capture_logs() as logs:
        anna = await connect.machine(port, "anna", "right-one")
        await anna.send("password right-one other-one")
        await anna.expect("ok", cmd="password")
        flooder = await connect.raw(port, "flooder")
        await flooder.send_raw(b"ping\n" * 10)
        await flooder.wait_closed()
        silent = await connect.raw(port, "silent")
        await silent.wait_closed()  # (login-timeout)
    for event in ("password_changed", "flood", "timeout"):
        [line] = _of(logs, event)
        _carries(line, event)
    assert _of(logs, "flood")[0]["reason"] == "flood"
    assert _of(logs, "timeout")[0]["code"] == "login-timeout"
    assert "other-one" not in repr(logs) and "right-one" not in repr(logs)


def test_backup_takes_the_files_db_and_without_either_the_current_directorys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`backup` among the commands that take --config for its db (test_config_db.py has
    the others): the file's relative db beside the file; with neither --db nor --config,
    `deberc.sqlite3` in the current directory."""
    folder = tmp_path / "etc"
    folder.mkdir()
    settings = _write(folder, '[server]\ndb = "club.sqlite3"\n')
    monkeypatch.setattr("sys.stdin", io.StringIO("bosspw1\n"))
    assert main(["admin", "boss", "--config", str(settings)]) == 0  # the store, made
    assert (folder / "club.sqlite3").exists()
    monkeypatch.chdir(tmp_path)  # (not the file's folder)
    assert main(["backup", "--config", str(settings), "copy.sqlite3"]) == 0
    assert (tmp_path / "copy.sqlite3").stat().st_size > 0
    capsys.readouterr()
    assert main(["backup", "other.sqlite3"]) == 2
    assert capsys.readouterr().err == "deberc-net backup: no database at deberc.sqlite3\n"


def _said_once(port: int) -> bytes:
    """What a guest's one `say` is answered, on a real server (read up to a `ping`'s
    answer sent after it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        read_until(sock, b"\n")
        sock.sendall(b"style machine\nlogin misha\nsay hello\nping\n")
        return read_until(sock, b"ok cmd=ping")


@pytest.mark.timeout(60)
def test_serve_reads_the_file_once_as_it_starts(tmp_path: Path) -> None:
    """ "a change … holds from the server's next start, not before"."""
    db = tmp_path / "once.sqlite3"
    proc, port = start_server_process(db, "shutdown_grace_ms = 100")
    try:
        db.with_suffix(".toml").write_text("[server]\nsay_burst = 0\n", encoding="utf-8")
        told = _said_once(port)  # the file changed: not read again
        assert b"say from=misha" in told and b"slow-down" not in told, told
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    proc, port = start_server_process(db, "shutdown_grace_ms = 100\nsay_burst = 0")
    try:
        assert b"error code=slow-down" in _said_once(port)  # its next start: read
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


# a house bot that never comes: a process that sleeps (its seat waits for it), so that
# the caps are counted without a match played
SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("setting", "line", "text"),
    [
        # "0: no house bots"
        ("house_bots_per_table", "bot random", "this server runs no house bots"),
        ("max_house_bots", "bot heuristic", "this server runs no house bots"),
        # "0: no search bot"
        ("max_house_search_tables", "bot search 1", "this server runs no search bots"),
    ],
)
async def test_a_house_bot_cap_of_0_is_no_house_bots_said_so(
    start_server: StartServer,
    connect: Connector,
    monkeypatch: pytest.MonkeyPatch,
    setting: str,
    line: str,
    text: str,
) -> None:
    """A cap of 0 is house bots (or search bots) off, said so: it was `busy`, "table 1
    has its 0 house bots already", "the server runs its 0 house bots already; try
    later" (no later would do)."""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: SLEEPER)
    port = await start_server(house_bots=True, **{setting: 0})
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.send(line)
    refused = await ann.expect("error")
    assert refused["code"] == "not-allowed" and refused["text"].startswith(text), refused
    assert "0" not in refused["text"] and "try later" not in refused["text"]
    if setting == "max_house_search_tables":  # the other kinds still come
        await ann.send("bot random")
        await ann.expect("ok", cmd="bot")


@pytest.mark.timeout(30)
async def test_a_house_bot_limit_of_0_per_address_or_a_burst_of_0_is_no_limit(
    start_server: StartServer, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`house_bots_per_address`, `house_search_tables_per_address`,
    `house_bot_starts_per_address_burst`, `house_bot_starts_burst` 0: "no limit", not
    none: one address starts 7 bots (past the default 6 an address, and its burst of
    6), with no start allowed past a burst (the rates 0), and search bots at 2 tables
    (past the default 1)."""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: SLEEPER)
    port = await start_server(
        house_bots=True,
        house_bots_per_address=0,
        house_search_tables_per_address=0,
        house_bot_starts_per_address_burst=0,
        house_bot_starts_per_address_per_s=0,
        house_bot_starts_burst=0,
        house_bot_starts_per_s=0,
    )
    players = [await connect.machine(port, f"p{n}") for n in range(3)]  # one address
    for player, bots in zip(players, (3, 3, 1), strict=True):
        await player.send("new 4")
        await player.expect("ok", cmd="sit")
        for _ in range(bots):
            await player.send("bot search 1")
            await player.expect("ok", cmd="bot")


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("setting", "burst", "command"),
    [
        ("say_per_s", "say_burst", "say hello"),
        ("say_per_address_per_s", "say_per_address_burst", "say hello"),
        ("lists_per_s", "lists_burst", "who"),
        ("lists_per_address_per_s", "lists_per_address_burst", "who"),
    ],
)
async def test_a_rate_of_0_is_the_burst_and_none_past_it_ever(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    setting: str,
    burst: str,
    command: str,
) -> None:
    """ "0: none past the burst, ever": the burst's two, then `slow-down` with no wait
    told (none would end it), still so ten minutes on."""
    port = await start_server(**{setting: 0, burst: 2})
    ann = await connect.machine(port, "ann")
    for _ in range(2):
        await ann.send(command)
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
    assert not [line for line in ann.lines if line.startswith("error ")], ann.lines
    for _ in range(2):
        await ann.send(command)
        refused = await ann.expect("error")
        assert refused["code"] == "slow-down" and "wait_ms" not in refused, refused
        await trio.sleep(600)  # (virtual; idle_timeout_ms is 15 min)


@pytest.mark.timeout(30)
async def test_flood_lines_per_s_0_is_the_burst_and_none_past_it_ever(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """ "0: none past the burst, ever": a connection's lines, ten minutes apart, the
    burst's 4 (its login among them) pass, the fifth cuts it off (`flood`)."""
    port = await start_server(flood_lines_per_s=0, flood_burst=4)
    ann = await connect.raw(port, "ann")
    for line in ("style machine", "login ann"):
        await ann.send(line)
        await ann.expect("ok")
    for _ in range(2):  # the third and the fourth
        await trio.sleep(600)  # (virtual; idle_timeout_ms is 15 min)
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
    await trio.sleep(600)
    await ann.send("ping")
    assert (await ann.expect("error"))["code"] == "flood"
    await ann.wait_closed()


@pytest.mark.timeout(30)
async def test_clock_warning_0_warns_nobody(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """ "0: never": a person whose whole clock runs out is told nothing before the
    clock calls for him (with the default he hears `10 s left to answer.`)."""
    port = await start_server(human_clock_ms=30_000, clock_warning_ms=0)
    ann = await connect.human(port, "ann")
    bob = await connect.human(port, "bob")
    await ann.send("new 2")
    sat = await ann.read_until(lambda line: line.startswith("You sit at table"))
    await bob.send(f"sit {re.findall(r'[0-9]+', sat)[0]}")
    made = await ann.read_until(lambda x: "(by the clock)" in x, timeout=60)
    heard = ann.lines + bob.lines + await bob.drain(1)
    assert not any("left to answer" in line for line in heard), made


@pytest.mark.timeout(30)
async def test_away_limit_0_forfeits_a_dropped_players_match_at_once(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """ "0: at once": the match of a player whose connection drops ends then, on `away`
    (with the default, two minutes later)."""
    port = await start_server(away_limit_ms=0)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    await bob.read_until(lambda x: x.startswith("event ") and "kind=start" in x)
    await ann.aclose()  # dropped, no quit
    with trio.fail_after(3):  # (virtual time: the default, 120 s, would fail here)
        end = fields(await bob.read_until(_is_match_end))[1]
    assert end["reason"] == "away", end


@pytest.mark.timeout(30)
async def test_seek_apart_0_keeps_nobody_apart(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """ "0: nobody is kept apart": one who left a seeker's match at once is matched with
    him again at his next seek, and the seeker is told no "not matched with … again"."""
    port = await start_server(seek_apart_ms=0)
    victim = await connect.machine(port, "victim")
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    leaver = await connect.machine(port, "leaver", source="127.0.0.2")
    for _ in range(2):
        await leaver.send("seek 2")
        await leaver.expect("ok", cmd="seek")
        sat = await leaver.expect("ok", cmd="sit")
        await leaver.read_until(lambda x: x.startswith("event ") and "kind=start" in x)
        await leaver.send("leave!")
        await leaver.expect("ok", cmd="leave")
        await victim.read_until(lambda x: _is_match_end(x) and "reason=left" in x)
        mark = victim.pos
        await victim.send("seek 2")
        await victim.expect("ok", cmd="seek")
        told = [fields(x)[1]["text"] for x in victim.lines[mark:] if x.startswith("info ")]
        assert told and not any("not matched with" in text for text in told), told
    assert sat["seat"] == "1"  # the second time too, at the seeker's table


@pytest.mark.timeout(30)
async def test_known_address_0_knows_no_address_to_a_name(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    """ "0: no address is known to a name": a name's wrong passwords from elsewhere,
    past its limit, slow its owner's own address down too (the default knows it for
    30 days, and lets him in)."""
    port = await start_server(known_address_ms=0, failed_logins_per_name=1)
    await register("anna", "right-one")
    anna = await connect.machine(port, "anna", "right-one")  # (her address, 127.0.0.1)
    await anna.send("quit")
    await anna.wait_closed()
    guesser = await connect.raw(port, "guesser", source="127.0.0.2")
    await guesser.send("style machine")
    await guesser.expect("ok", cmd="style")
    await guesser.send("login anna wrong-one")
    assert (await guesser.expect("error"))["code"] == "bad-password"
    again = await connect.raw(port, "again")
    await again.send("style machine")
    await again.expect("ok", cmd="style")
    await again.send("login anna right-one")
    assert (await again.expect("error"))["code"] == "slow-down"


# ---- Logs: each row's fields against the calls that log its event ----------------------

# the fields each row of the Logs table names (each written `field` in its words): the
# fields the code's lines of the event carry, no more and no fewer
ROW_FIELDS: dict[str, frozenset[str]] = {
    event: frozenset(fields.split())
    for event, fields in {
        "listening": "host port db workers web",
        "http_listening": "host port",
        "web_connection_failed": "peer reason exception",
        "worker_started": "worker pid how why",
        "workers_not_forked": "threads names",
        "worker_listening": "pid port shared_port server worker",
        "output_dropped": "lines ending",
        "worker_died": "worker pid status reason draining",
        "worker_died_again": "worker pid status reason deaths seconds",
        "worker_deaths_ended": "worker deaths seconds how",
        "worker_error": "",
        "worker_failed_to_start": "worker status reason",
        "peers_awaited": "peers",
        "peers_unheard": "peers",
        "worker_lost": "lost how",
        "worker_left": "left",
        "answer_late": "owner session",
        "worker_stalled": "seconds",
        "server_stalled": "seconds",
        "connect": "conn peer",
        "proxy_header_not_listed": "peer reason",
        "refused": "peer reason",
        "bad_proxy_header": "peer reason",
        "register": "name conn peer",
        "login": "name guest conn peer",
        "password_changed": "name conn peer",
        "login_failed": "name conn peer reason command",
        "password_asked": "name conn peer reason",
        "disconnect": "reason peer",
        "timeout": "code",
        "outbox_full": "limit",
        "flood": "conn peer name reason",
        "said": "name conn peer table watchers text",
        "moderation": "action admin conn peer name target reason minutes text",
        "table_open": "table variant options",
        "seat_taken": "table seat guest conn peer name",
        "seat_left": "table seat name reason conn peer",
        "away": "table seat name",
        "back": "table seat was_away conn peer name",
        "match_start": "table match players",
        "deal": "table match deal outcome written totals",
        "match_end": "table match winner reason totals",
        "rated": "match ratings",
        "table_closed": "table match reason",
        "house_bot_start": "name table kind bot_level",
        "house_bot_exit": "name code restarts",
        "house_bot_cannot_start": "name",
        "numbers_give_back_failed": "",
        "dead_servers_matches_ended": "matches at_start",
        "shutdown": "signal reason workers",
        "drain": "signal admin matches elsewhere workers",
        "drain_ignored": "signal admin",
        "worker_stopped": "worker pid status",
        "worker_drained": "worker pid status",
        "drain_limit": "matches elsewhere",
        "drained": "workers",
        "matches_stopped": "matches",
        "match_seed_set": "text",
        "proxies_everyone": "setting networks text",
        "stopped": "workers",
        "accept_failed": "error",
        "store_close_failed": "",
        "store_write_failed": "table match deal",
        "store_group_failed": "jobs",
        "migrated": "db from to",
        "store_made_private": "file was",
        "store_open_failed": "db step",
        "heartbeat_failed": "",
        "mutes_look_failed": "",
        "table_numbers_failed": "reading",
        "match_number_failed": "table error",
        "table_numbers_ahead_used": "then",
        "table_numbers_burst": "then",
        "command_error": "item",
        "connection_error": "",
        "writer_error": "",
        "table_error": "table rule",
        "table_end_failed": "table",
        "call_unreadable": "table player length",
        "rule_setup_failed": "reason",
        "tell_failed": "told",
        "bus_message_failed": "payload",
        "bus_message_too_long": "kind size",
        "bus_message_unencodable": "kind why",
        "bus_send_failed": "messages",
        "bus_farewell_failed": "",
        "database_driver": "logger text",
        "bus_lost": "",
        "bus_closed": "published sends heard kinds",
        "board_lost": "run board",
        "leases_lost": "run boards",
        "board_dropped": "run board",
        "board_release_not_asked": "run board",
        "database_back": "waited_s",
        "release_failed_asked_again": "board text",
    }.items()
}
# the fields a call passes on with ``**`` (its caller's, a summary's), which the source
# does not name at the call; where a real line pins them (→), or why none does
PASSED_ON: dict[str, frozenset[str]] = {
    # → here: test_a_servers_log_is_json_on_stderr_utc_stamped_and_stdout_is_empty
    "listening": frozenset({"web"}),
    # → here (signal); server/test_drain.py (reason: drained, drain-limit)
    "shutdown": frozenset({"signal", "reason"}),
    # → server/test_drain_command.py (admin); server/test_drain.py (signal)
    "drain": frozenset({"signal", "admin"}),
    # → server/test_password_change.py (command=password)
    "login_failed": frozenset({"command"}),
    # → server/test_logs_ops.py test_free_refusals_are_logged_once_then_counted
    "password_asked": frozenset({"name", "conn", "peer", "reason"}),
    # → server/test_security_doc_audit.py (reason, minutes, text), test_moderation.py
    "moderation": frozenset({"reason", "minutes", "text"}),
    # → store/test_upgrade.py
    "migrated": frozenset({"from", "to"}),
    # → server/test_store_writer.py (match, deal; table passed beside them)
    "store_write_failed": frozenset({"table", "match", "deal"}),
    # → server/test_streams.py, server/test_logs_ops.py
    "refused": frozenset({"peer", "reason"}),
    # → server/test_game_proxy.py
    "proxy_header_not_listed": frozenset({"peer", "reason"}),
    # → here: test_the_fields_of_a_password_change_a_flood_and_a_timeout
    "flood": frozenset({"conn", "peer", "name", "reason"}),
    # no real line: it logs a bug of the web face, which no test can call up; its one
    # caller (server/web/connection_limit.py) passes reason, peer and exc_info, which
    # the log writes as `exception`
    "web_connection_failed": frozenset({"peer", "reason", "exception"}),
}
# a connection's logger carries its `conn`, `peer` and (once logged in) `name`; a
# table's, its `table` (the page: "Each connection's lines carry …; a table's carry")
CONTEXT = {
    "session.log": {"conn", "peer", "name"},
    "self.log": {"conn", "peer", "name"},  # (server/session.py: the session's own)
    "admin.log": {"conn", "peer", "name"},
    "leaver_log": {"conn", "peer", "name"},
    "bound": {"table"},
}


def _calls_in_the_code() -> dict[str, list[LoggerCall]]:
    """Each event a logger call of deberc_net names literally: its calls."""
    calls: dict[str, list[LoggerCall]] = {}
    for call in _logger_calls():
        calls.setdefault(call.event, []).append(call)
    return calls


def test_every_row_of_the_logs_table_has_its_fields_written() -> None:
    """ROW_FIELDS covers the table, row for row, and each field it lists is one the
    row's words name (`field`)."""
    rows = _log_rows()
    assert set(ROW_FIELDS) == set(rows)
    unnamed = {
        event: sorted(field for field in named if f"`{field}`" not in rows[event][1])
        for event, named in ROW_FIELDS.items()
    }
    assert not {event: at for event, at in unnamed.items() if at}, unnamed


def test_every_field_the_code_logs_is_named_on_its_row() -> None:
    """Each event the code logs has its row, and each field a call names is on it (a
    field the page did not name was a slip: `house_bot_exit`'s `name`, the parent's
    `workers` on `stopped`, …)."""
    calls = _calls_in_the_code()
    assert set(calls) == set(ROW_FIELDS)  # every event logged is a row, every row logged
    unwritten = {
        event: sorted(set().union(*(call.named for call in at)) - ROW_FIELDS[event])
        for event, at in calls.items()
    }
    assert not {event: more for event, more in unwritten.items() if more}, unwritten


def test_every_field_a_row_names_is_on_the_events_lines() -> None:
    """Each field a row names is one a call of its event names, or its logger carries
    (a connection's, a table's), or one passed on with ``**`` (PASSED_ON, each pinned
    by a real line)."""
    calls = _calls_in_the_code()
    for event in PASSED_ON:  # (an excuse only where something is passed on)
        assert any(call.passed_on for call in calls[event]), event
    missing = {}
    for event, named_there in ROW_FIELDS.items():
        carried = set(PASSED_ON.get(event, ()))
        for call in calls[event]:
            carried |= call.named | CONTEXT.get(call.logger, set())
        if named_there - carried:
            missing[event] = sorted(named_there - carried)
    assert not missing, f"named on the page, on no line of the event: {missing}"


async def _comings_told(port: int, connect: Connector) -> list[str]:
    """A watcher comes to a running table and goes, twice: the `observer` lines its
    players are told (read up to a `ping` answered after)."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    nosy = await connect.machine(port, "nosy")
    for _ in range(2):
        for line in (f"observe {table}", f"unobserve {table}"):
            await nosy.send(line)
            await nosy.send("ping")
            await nosy.expect("ok", cmd="ping")
    await ann.send("ping")
    await ann.expect("ok", cmd="ping")
    return [line for line in ann.lines if line.startswith("event ") and "kind=observer" in line]


@pytest.mark.timeout(30)
async def test_watch_news_window_0_tells_each_coming(
    start_server: StartServer, connect: Connector
) -> None:
    """ "0: each coming told": the same watcher's second coming too (the default's
    minute tells it once)."""
    port = await start_server(watch_news_window_ms=0)
    told = await _comings_told(port, connect)
    assert [fields(line)[1]["watching"] for line in told] == ["1", "0", "1", "0"], told


@pytest.mark.timeout(30)
async def test_watch_news_burst_0_tells_no_coming(
    start_server: StartServer, connect: Connector
) -> None:
    """ "0: no coming told" (only counted in `observers`)."""
    port = await start_server(watch_news_burst=0)
    assert await _comings_told(port, connect) == []


@pytest.mark.timeout(30)
@pytest.mark.parametrize(("grace_ms", "at_once"), [(0, True), (None, False)])
async def test_shutdown_grace_0_stops_at_once_with_players_online(
    nursery: trio.Nursery,
    db_path: Path,
    connect: Connector,
    register: Register,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    grace_ms: int | None,
    at_once: bool,
) -> None:
    """ "0: at once": a stop with a player online does not wait (the default waits its
    2 s for him); he is told why all the same. (The stop: an admin's drain, no match
    running; virtual time.)"""
    await register("boss", "owners")
    settings = {} if grace_ms is None else {"shutdown_grace_ms": grace_ms}
    config = make_config(db_path, admins=["boss"], **settings)
    stopped = trio.Event()

    async def run(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        await serve(config, rules=rule_book(), task_status=task_status)
        stopped.set()

    port: int = await nursery.start(run)
    boss = await connect.machine(port, "boss", "owners")
    ann = await connect.machine(port, "ann")
    began = trio.current_time()
    await boss.send("drain")
    await ann.read_until(lambda line: "shutting down" in line)
    with trio.fail_after(10):
        await stopped.wait()
    waited = trio.current_time() - began  # (a stop's own steps take 0.2 s of it)
    assert waited < 1 if at_once else waited >= 2, waited


@pytest.mark.timeout(60)
def test_a_files_port_0_and_http_port_0_are_free_ports_told_in_the_log(tmp_path: Path) -> None:
    """`port`: "0 picks a free one, told in the `listening` log line"; `http_port`: "0:
    a free port", told in `http_listening`: from the file alone (the tests' servers
    take `--port 0` from the command line), each port answering."""
    settings = _write(
        tmp_path,
        f'[server]\nport = 0\nhttp_port = 0\ndb = "{tmp_path / "p.sqlite3"}"\n'
        "shutdown_grace_ms = 100\n",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "deberc_net", "serve", "--config", str(settings)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        lines: dict[str, dict[str, Any]] = {}
        while "listening" not in lines and (line := proc.stderr.readline()):
            entry = json.loads(line)
            if entry["event"] in ("listening", "http_listening"):
                lines[entry["event"]] = entry
                _carries(entry, entry["event"])
        told = {event: line["port"] for event, line in lines.items()}
        assert set(told) == {"listening", "http_listening"} and 0 not in told.values(), told
        assert lines["http_listening"]["host"] == "127.0.0.1"
        assert "web" not in lines["listening"]  # (no `web` `off`: a web face)
        with socket.create_connection(("127.0.0.1", told["listening"]), timeout=30) as game:
            assert read_until(game, b"\n").startswith(b"deberc-net ")
        with socket.create_connection(("127.0.0.1", told["http_listening"]), timeout=30) as web:
            web.sendall(b"GET / HTTP/1.0\r\nHost: x\r\n\r\n")
            assert read_until(web, b"\r\n").startswith(b"HTTP/1.")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("setting", "burst"),
    [
        ("seat_churn_per_s", "seat_churn_burst"),
        ("seat_churn_per_address_per_s", "seat_churn_per_address_burst"),
    ],
)
async def test_a_seat_churn_rate_of_0_gives_no_seat_back_ever(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    setting: str,
    burst: str,
) -> None:
    """ "0: none given back, ever": a burst of one seat given up, then `new` is
    `slow-down` with no wait told, still so ten minutes on."""
    port = await start_server(**{setting: 0, burst: 1})
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    for _ in range(2):
        await ann.send("new 2")
        refused = await ann.expect("error")
        assert refused["code"] == "slow-down" and "wait_ms" not in refused, refused
        await trio.sleep(600)  # (virtual; idle_timeout_ms is 15 min)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("setting", "burst"),
    [
        ("house_bot_starts_per_address_per_s", "house_bot_starts_per_address_burst"),
        ("house_bot_starts_per_s", "house_bot_starts_burst"),
    ],
)
async def test_a_house_bot_start_rate_of_0_is_the_burst_and_none_after_ever(
    start_server: StartServer,
    connect: Connector,
    monkeypatch: pytest.MonkeyPatch,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    setting: str,
    burst: str,
) -> None:
    """ "0: none past the burst, ever": one bot started, then `slow-down` with no wait
    told (none would end it), still so ten minutes on."""
    monkeypatch.setattr(HouseBots, "argv", lambda self, bot: SLEEPER)
    port = await start_server(house_bots=True, **{setting: 0, burst: 1})
    ann = await connect.machine(port, "ann")
    await ann.send("new 4")
    await ann.expect("ok", cmd="sit")
    await ann.send("bot random")
    await ann.expect("ok", cmd="bot")
    for _ in range(2):
        await ann.send("bot random")
        refused = await ann.expect("error")
        assert refused["code"] == "slow-down" and "wait_ms" not in refused, refused
        assert "inf" not in refused["text"], refused
        await trio.sleep(600)  # (virtual; idle_timeout_ms is 15 min)
