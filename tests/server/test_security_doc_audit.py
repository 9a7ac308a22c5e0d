"""An audit of docs/security.md against the server: each promise a server owner may rely
on, and (→) the tests that pin it: a module under tests/ and its tests, "here" for this
module's. The page names its own tests after each promise (*Tests:* …, in
tests/server/test_attacks.py unless it names another file); those named are pinned by
them, and this module checks that each one named is there.

the page: every test it names (`test_…`, `tests/….py`, `tests/….py::test_…`) exists
    → here: test_every_test_the_page_names_exists
the page: every source file it names (server/….py, bench/soak.py) exists
    → here: test_every_source_file_the_page_names_exists

§1 the letters a new name's look makes one (I l 1 І Ӏ Ι; O o 0 О Ο; i і ı ι; rn cl vv
in lower case), the Cyrillic and Greek letters read as Latin (the page's lists), the
small capitals not; the index's coarser look; the examples both ways
    → here: test_the_letters_1_makes_one_are_the_servers
§1 a name in use is never taken over (password, a guest's resume token); the holder
notices nothing; a guest's name is not registered from under him; an admin's name
registered only by the owner
    → the tests §1 names (test_attacks.py, test_reconnect.py, clients/test_bots.py,
      test_admin_command.py)
§1 one alphabet a new name; look-alikes of a name taken refused, with the refusal's text;
the store's `latin_look` index (migration 21), old mixed names found by it, two
registrations at once
    → store/test_look_alike_race.py
    → server/test_input.py, server/test_look_alike_names.py,
      store/test_look_alike_accounts.py, store/test_workers_look_alike.py
§1 `deberc-net admin NAME` refuses a registered name, `--replace`, the password's words
    → server/test_admin_command.py;
    → here: test_the_words_a_password_may_not_begin_with_are_those_login_reads
§1 wrong passwords limited per name, per address, per connection (the third closes it);
unanswered checks count; across workers; `login_failed` logged
    → server/test_login_bursts.py, store/test_workers_limits.py, test_attacks.py,
      server/test_hardening.py test_wrong_passwords_close_the_connection,
      server/test_logs_ops.py
§1 the owner's known address (`known_address_ms`, 30 days) is let in past the name's limit
    → test_attacks.py test_guesses_for_a_name_do_not_lock_its_owner_out_of_his_seat,
      test_an_address_a_name_logged_in_from_is_slowed_by_its_own_guesses
§1 known addresses are "remembered in memory, so forgotten at a restart"
    → here: test_a_names_known_address_is_forgotten_at_a_restart
§1 under --workers a burst spread over N workers may have N × the limits hashed (12 at a
name limited to 3 on 2 workers: 6 hashed): a stated weakness, not pinned
§1 password checks: 20 a minute an address, 1 in the hash queue at once, fewest first
    → test_attacks.py (the three §1 names); server/test_fair_turns.py;
    → here: test_the_numbers_in_the_text_are_the_servers_defaults
§1 registrations in their own pool, bounded queue, per-address allowance
    → test_attacks.py test_registrations_are_limited_and_do_not_hold_up_logins
§1 passwords kept only as salted scrypt hashes
    → server/test_password_cost.py; here: test_a_password_is_kept_as_a_salted_scrypt_hash
§1 a private table answers as a table nobody has → server/test_private_unseen.py
§2 admins exempt from the lists allowance (theirs and their address's)
    → here: test_an_admin_spends_no_lists_allowance
§2 answers to an `ask` never counted; the seat allowance spares a played match; one read's
lines handled one at a time; long texts and store looks spend `lists_per_s`
    → the tests §2 names (test_attacks.py, test_input.py, test_announce_limits.py,
      test_top_cost.py, test_help_calls.py, test_rules_texts.py)
§3 `max_match_deals` (200) → server/test_most_deals.py; here: the numbers
§3 outboxes bounded; 5000 × 256 KiB ≈ 1.25 GiB, 25 MiB an address
    → test_attacks.py, server/test_unread_answers.py; here: the numbers
§3 in-process links hold 64 KiB a direction → server/test_local.py
§3 fan-out limited and paged (100 a page); invitations share the chat's allowance
    → the tests §3 names; here: the numbers
§3 scrypt's 16 MiB a hash, 3 at once; glibc's allocator set up
    → server/test_allocator.py; here: test_a_password_is_kept_as_a_salted_scrypt_hash,
      the numbers
§3 dropped bytes: every 64 a line, so 64 KB at once, 12.8 KB a second
    → server/test_input.py, protocol/test_connection.py; here: the numbers
§4 login and idle timeouts; a watched match is no silence; the oldest not logged in
makes room; per-address connections and tables → the tests §4 names
§4 house bots: 6 an address, starts 6 then one each 10 s, 20 then one a second on the
server; search bots' tables 1 and 4; nice 10; restarted at most 3 times
    → server/test_house_bots.py; here: the numbers
§4 the web face's sockets, non-readers (30 s), frames (1, 20), a 1 KiB message
    → web/test_live_socket*.py, web/test_web_non_reader.py; here: the numbers,
      test_the_web_refusals_the_page_quotes_are_the_servers
§5 no deck knowable early; the store file 0600 and made so on opening
    → test_attacks.py test_nothing_stored_tells_a_running_matchs_decks,
      server/test_secrecy.py, store/test_upgrade.py, store/test_store.py,
      server/test_games.py
§6 a `leave` of every table one observes is never refused
    → server/test_streams.py test_leave_stops_observing_every_table_however_many_are_watched
§6 `table_requests_waiting`; watchers' news (60 s, 10, 0.2); seats given up (0.2, 5;
0.5, 20); matches left kept apart (`seek_apart_ms` 10 min); a seated name's logins
(10, then one each 5 s)
    → the tests §6 names; here: the numbers
§6 "each player keeps the last 8 who left him": a slip, corrected (since 9a05d1bb he
keeps 16 addresses, each with its last 2 names, and 8 names of no known address)
    → server/test_seek_griefing.py; here: the numbers
§7 the spec kept (a second CR, away forfeits, forfeits record, shutdown answers)
    → the tests §7 names
§7a moderation, ignore lists (100 names), the chat log → the tests §7a names;
    → here: the numbers
§7a admin actions logged at warning (`minutes` of a mute, `text` of an announcement);
at `log_level = "warning"` no chat is kept
    → server/test_moderation.py (the level, in-process);
    → here: test_a_server_logging_warnings_keeps_what_an_operator_acts_on_and_no_chat
§8 web requests (60, 10; 429 with Retry-After; 1,000 allowances kept), HTTP/1.1 only,
keep-alive 5 s, connections (100 an address, 2000 in all) → the tests §8 names;
    → here: the numbers, test_the_web_refusals_the_page_quotes_are_the_servers
"Every limit, with its default": each row's default is the server's
    → here: test_every_limit_in_the_table_is_the_servers_default
"Every limit": the values checked before the server starts (ranges, at least 1, 256,
5000, 100, 65535) → server/test_config.py, server/test_serve_errors.py;
    → here: test_the_least_values_the_page_states_are_the_servers
"Every limit": a finished connection's queue waits 30 s (`FINAL_FLUSH_S`)
    → server/test_streams.py; here: the numbers
"Under serve --workers N": what is counted per worker → store/test_workers*.py
Checklist: addresses (/64), proxies (PROXY v1, 107 bytes at most, `game_proxies`),
descriptors (≈ 7800), logs, drains (`log_level = "warning"` keeps `refused`,
`login_failed` with its `peer`, `flood`: here:
test_a_server_logging_warnings_keeps_what_an_operator_acts_on_and_no_chat; `outbox_full`
at warning: read in the code, not run here)
    → server/test_addresses.py, server/test_game_proxy.py, store/test_workers_proxy.py,
      server/test_drain*.py; here: the numbers
Checklist, "Descriptors": out of them, the server waits and accepts again
(`accept_failed`), never stops
    → here: test_a_server_out_of_descriptors_waits_and_accepts_again
Backups: `deberc-net backup OUT --config FILE` and its line (schema, counts, "It holds
the password hashes", 0600), as the example; restoring with `--db BACKUP --replace`
    → here: test_the_backup_and_restore_examples_run_as_written;
    → store/test_backup.py (a live server's copy, in use, folders, a killed server's
      log, PostgreSQL's pg_dump, the old schema kept)
Backups and Upgrading, the examples named schema 12, "to": 9, and "version 13 ... (12)":
a slip, corrected (today's store is at the newest schema, 20)
    → here: test_the_backup_and_restore_examples_run_as_written,
      test_a_database_newer_than_the_code_is_refused_as_the_page_says
Upgrading: migrated at warning, 0600 on opening, no downgrade
    → store/test_upgrade.py, store/test_store.py
The database's growth (2–3 KB a deal, 20 MB a day at 1,000 matches): measurements, not
promises a test can hold; not pinned
The soak test: `bench/soak.py --minutes 1` prints RSS, help's p99, the matches and the
deals stored against those finished (equal), no takeover
    → here: test_the_soak_runs_as_the_page_says_and_loses_no_deal_nor_a_name (3 s of
      it, not the minute)
Checklist, "The game port behind a TCP or TLS proxy": the `[server]` example, run as
written (the header's SRC the `peer`, `bad-proxy-header` without it, an ordinary line from
127.0.0.1) → here: test_the_game_proxy_example_runs_as_written; the rest of the item
(v2, UNKNOWN, 107 bytes, health checks, the login's time, workers, house bots)
    → server/test_game_proxy.py, store/test_workers_proxy.py, play/test_no_terminal.py
Checklist: the proxies' configurations (haproxy, nginx, stunnel): not run here (none
installed); the header they send is server/test_game_proxy.py's
"""

from __future__ import annotations

import hashlib
import json
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio

from clients.search.policy import LEVELS as SEARCH_LEVELS
from deberc_net.protocol.connection import DROPPED_BYTES_PER_LINE
from deberc_net.protocol.login_words import RESERVED, TOKEN
from deberc_net.server.accounts import SCRYPT, set_password
from deberc_net.server.cluster.launch import WORKERS_DEAD_MS, WORKERS_HEARTBEAT_MS
from deberc_net.server.config import RANGES, SHORTEST_LINE, Config
from deberc_net.server.help import TOPIC_MOST
from deberc_net.server.house import MAX_RESTARTS as HOUSE_RESTARTS
from deberc_net.server.ignoring import IGNORE_MOST
from deberc_net.server.kept_apart import ADDRESS_NAMES, KEPT_ADDRESSES, KEPT_UNKNOWN
from deberc_net.server.local import LIMIT as LOCAL_LIMIT
from deberc_net.server.login import SEAT_LOGINS_BURST, SEAT_LOGINS_PER_S
from deberc_net.server.proxy_header import LONGEST as PROXY_HEADER_LONGEST
from deberc_net.server.running import FINAL_FLUSH_S, READ_SIZE
from deberc_net.server.session import TAKE_MOST
from deberc_net.server.store import open_store
from deberc_net.server.store.base import OTHER_ALPHABETS, latin_look, look_key
from deberc_net.server.store.migrations import MIGRATIONS
from deberc_net.server.store.sqlite import BUSY_TIMEOUT_S as SQLITE_BUSY_TIMEOUT_S
from deberc_net.server.web.app import PLAYER_RATED
from deberc_net.server.web.connection_limit import BUSY, BUSY_TEXT, REFUSAL, REFUSAL_TEXT
from deberc_net.server.web.ladders import GAMES_PAGE
from deberc_net.server.web.plot import MOST_POINTS
from deberc_net.server.web.request_limit import KEPT as REQUEST_ALLOWANCES_KEPT
from deberc_net.server.web.serve import KEEP_ALIVE_S, WEBSOCKET_MAX_MESSAGE, WEBSOCKET_PING_S
from deberc_net.server.web.ws_limit import TOO_MANY_FRAMES
from tests.ladder.helpers import run_cli
from tests.server.client import fields
from tests.server.conftest import Connector, StartServer, make_config, running_server
from tests.server.process import read_until, start_server_process

LATEST_SCHEMA = len(MIGRATIONS)
Register = Callable[[str, str], Awaitable[None]]
ROOT = Path(__file__).resolve().parents[2]
SECURITY = ROOT / "docs" / "security.md"
TESTS = ROOT / "tests"


def page() -> str:
    return SECURITY.read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text of the page under ``heading`` (a line starting with '#'), to the next
    heading of its level or above (a '#' in a code example is no heading)."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = page().split("\n")
    start = lines.index(heading) + 1
    fenced = False
    for end in range(start, len(lines)):
        fenced ^= lines[end].startswith("```")
        if not fenced and re.match(rf"#{{1,{level}}} ", lines[end]):
            return "\n".join(lines[start:end])
    return "\n".join(lines[start:])


def test_every_test_the_page_names_exists() -> None:
    # "which test shows it": a test named that is not there pins nothing
    text = page()
    defined = {
        match.group(1)
        for path in TESTS.rglob("test_*.py")
        for match in re.finditer(r"^(?:async )?def (test_\w+)\(", path.read_text("utf-8"), re.M)
    }
    files = set(re.findall(r"`?(tests/[\w/]+\.py)", text))
    assert files, "the page names its test files"
    for name in sorted(files):
        assert (ROOT / name).is_file(), name
    for name, test in re.findall(r"(tests/[\w/]+\.py)::(test_\w+)", text):
        assert re.search(rf"^(async )?def {test}\(", (ROOT / name).read_text("utf-8"), re.M), (
            f"{name}::{test}"
        )
    named = set(re.findall(r"`(test_\w+)`", text))
    assert len(named) > 50
    assert named <= defined, sorted(named - defined)


def test_every_source_file_the_page_names_exists() -> None:
    # "(server/kept_apart.py)", "(`FINAL_FLUSH_S` in `deberc_net/server/running.py`)",
    # "`bench/soak.py`": where the page sends a reader to look, the file is there
    text = page()
    named = set(re.findall(r"(?<![\w/])((?:deberc_net/)?server/[\w/]+\.py|bench/\w+\.py)", text))
    assert len(named) >= 15
    for name in sorted(named):
        path = (
            ROOT / name
            if name.startswith(("deberc_net/", "bench/"))
            else ROOT / "deberc_net" / name
        )
        assert path.is_file(), name


def number(said: str) -> float:
    """A number as the page writes it: '30 000', '262 144', '0.2', '30 days'."""
    said = said.strip()
    if said.endswith(" days"):
        return float(said.removesuffix(" days")) * 24 * 3_600_000
    return float(said.replace(" ", "").replace(",", ""))


def limits_table() -> list[tuple[list[str], list[str]]]:
    """The rows of 'Every limit, with its default': the settings, and their defaults."""
    rows = []
    for line in section("## Every limit, with its default").splitlines():
        if not line.startswith("| `"):
            continue
        settings_cell, default_cell = line.split("|")[1:3]
        settings = re.findall(r"`(\w+)`", settings_cell)
        default = re.sub(r"\(.*\)", "", default_cell).strip()
        rows.append((settings, [d.strip() for d in re.split(r", (?=\d)", default)]))
    return rows


def test_every_limit_in_the_table_is_the_servers_default() -> None:
    # "Every limit, with its default": each row's settings, and its defaults, are the
    # Config's fields and their values when no setting is given
    config = Config()
    rows = limits_table()
    assert len(rows) >= 45
    seen = set()
    for settings, defaults in rows:
        assert len(settings) == len(defaults), (settings, defaults)
        for setting, default in zip(settings, defaults, strict=True):
            seen.add(setting)
            value = getattr(config, setting)
            if default == "off":
                assert value is False, setting
            else:
                assert value == number(default), (setting, default, value)
            assert setting in RANGES or isinstance(value, bool), setting
    # every limit: a number setting that bounds what a client may do is in the table
    # (the others are clocks, ports and the operator's own choices: docs/settings.md)
    not_limits = {
        "port", "http_port", "human_clock_ms", "bot_clock_ms", "lag_ms",
        "clock_warning_ms", "seek_apart_ms", "max_match_deals", "house_bot_nice",
        "drain_limit_ms", "worker_restart_ms", "seek_patience_ms", "rematch_ms",
        "output_backlog_bytes",  # the parent's memory for its own stdout, no client's
    }  # fmt: skip
    assert set(RANGES) - seen <= not_limits, sorted(set(RANGES) - seen - not_limits)


def test_the_least_values_the_page_states_are_the_servers() -> None:
    # "Each value is checked before the server starts: ... a port at most 65535,
    # max_line at least 256 ..., [these] at least 1, ... human_clock_ms at least 5000
    # and bot_clock_ms at least 100"
    text = " ".join(section("## Every limit, with its default").split())
    assert RANGES["port"].most == RANGES["http_port"].most == 65535
    assert "`max_line` at least 256" in text and SHORTEST_LINE == RANGES["max_line"].least == 256
    at_least_1 = text.split("a port at most 65535, `max_line` at least 256 (a login with a long")[1]
    at_least_1 = at_least_1.split("at least 1,", 1)[0]
    listed = set(re.findall(r"`(\w+)`", at_least_1))
    assert len(listed) == 10
    assert {name for name, bound in RANGES.items() if bound.least == 1} == listed
    assert "`human_clock_ms` at least 5000" in text and RANGES["human_clock_ms"].least == 5000
    assert "`bot_clock_ms` at least 100" in text and RANGES["bot_clock_ms"].least == 100
    assert all(bound.least >= 0 for bound in RANGES.values())  # "none negative"


@pytest.mark.production_password_cost
def test_a_password_is_kept_as_a_salted_scrypt_hash(tmp_path: Path) -> None:
    # §1 "Passwords are kept only as salted scrypt hashes"; §3 "scrypt takes 16 MiB a
    # hash, and at most hash_workers + registration_workers (3) hashes run at once"
    db = tmp_path / "club.sqlite3"
    store = open_store(db)
    try:
        set_password(store, "ann", "hunter22")
        set_password(store, "bob", "hunter22")
        ann, bob = store.account("ann"), store.account("bob")
    finally:
        store.close()
    assert ann is not None and bob is not None
    assert ann[0] != bob[0] and ann[1] != bob[1]  # salted: one password, two hashes
    assert ann[1] == hashlib.scrypt(b"hunter22", salt=ann[0], n=2**14, r=8, p=1, dklen=32)
    assert 128 * SCRYPT["n"] * SCRYPT["r"] == 16 * 1024 * 1024  # scrypt's memory: 128·n·r
    assert b"hunter22" not in db.read_bytes()
    config = Config()
    assert config.hash_workers + config.registration_workers == 3


def defaults_stated() -> list[tuple[str, object, object]]:
    """(the page's words, the number they state, the server's): each number the text
    states outside the table, beside the default or constant it is."""
    c = Config()
    kib, mib, gib = 1024, 1024 * 1024, 1024**3
    return [
        # §1
        ("`password_checks_per_address` (40)", 40, c.password_checks_per_address),
        ("(`password_check_window_ms`;", 60_000, c.password_check_window_ms),  # "a minute"
        ("`password_checks_at_once_per_address` (1)", 1, c.password_checks_at_once_per_address),
        ("within `known_address_ms` (30 days;", 30 * 24 * 3_600_000, c.known_address_ms),
        ("closed after its third wrong password", 3, c.failed_logins_per_connection),
        ("take 15 s, the login timeout", 15_000, c.login_timeout_ms),
        # §2
        ("the lines of one read (up to 4 KiB,", 4096, READ_SIZE),
        ("one longer than any call's, 40 letters, none", 40, TOPIC_MOST),
        # §3
        ("at most `max_match_deals` deals** (200)", 200, c.max_match_deals),
        ("(5000 × 256 KiB = 1250 MiB, 1.2 GiB,", (5000, 256 * kib, 1250 * mib, 1.2),
         (c.max_connections, c.outbox_bytes, c.max_connections * c.outbox_bytes,
          round(c.max_connections * c.outbox_bytes / gib, 1))),  # (it said 1.25 GiB: a slip)
        ("`max_connections_per_address × outbox_bytes` (25 MiB)", 25 * mib,
         c.max_connections_per_address * c.outbox_bytes),
        ("each direction holds 64 KiB unread", 64 * kib, LOCAL_LIMIT),
        ("(and the one write being sent, about 64 KiB)", 64 * kib, TAKE_MOST),
        ("answer 100 entries a page", 100, c.page_size),
        ("every 64 as one line", 64, DROPPED_BYTES_PER_LINE),
        ("after 64 KB at the default limits (1,000 lines at once)", (64_000, 1000),
         (DROPPED_BYTES_PER_LINE * c.flood_burst, c.flood_burst)),
        ("no more than 12.8 KB a second", 12_800, DROPPED_BYTES_PER_LINE * c.flood_lines_per_s),
        ("`hash_workers + registration_workers` (3) hashes", 3,
         c.hash_workers + c.registration_workers),
        # §4
        ("your address has its 6 house bots already", 6, c.house_bots_per_address),
        ("`house_bot_starts_per_address_burst` (6) at once", 6,
         c.house_bot_starts_per_address_burst),
        ("10 s (`house_bot_starts_per_address_per_s` 0.1)", (10, 0.1),
         (1 / c.house_bot_starts_per_address_per_s, c.house_bot_starts_per_address_per_s)),
        ("(`house_bot_starts_burst` 20, then `house_bot_starts_per_s` one a second", (20, 1),
         (c.house_bot_starts_burst, c.house_bot_starts_per_s)),
        ("restarted at most 3 times", 3, HOUSE_RESTARTS),
        ("thinks on its turn for its level's time (1 s at level 5)", 1000, SEARCH_LEVELS[5].ms),
        ("`house_search_tables_per_address` (1)", 1, c.house_search_tables_per_address),
        ("`max_house_search_tables` (4)", 4, c.max_house_search_tables),
        ("already play at 4 tables, as many as this server allows", 4, c.max_house_search_tables),
        ("`house_bot_nice` (10)", 10, c.house_bot_nice),
        ("`web_send_timeout_ms` (30 s)", 30_000, c.web_send_timeout_ms),
        ("would pass 1 KiB", kib, WEBSOCKET_MAX_MESSAGE),
        ("(`web_socket_frames_per_s` 1, `web_socket_frames_burst` 20)", (1, 20),
         (c.web_socket_frames_per_s, c.web_socket_frames_burst)),
        ("A page sends one frame each 25 s", 25, WEBSOCKET_PING_S),
        # §5
        ("`match_seed` (unset by default: a fresh random seed a match)", None, c.match_seed),
        # §6
        ("`watch_news_window_ms` (60 s)", 60_000, c.watch_news_window_ms),
        ("(`watch_news_burst` 10, `watch_news_per_s` 0.2)", (10, 0.2),
         (c.watch_news_burst, c.watch_news_per_s)),
        ("2 × (10 + one per 5 s)", (10, 5), (c.watch_news_burst, 1 / c.watch_news_per_s)),
        ("`seat_churn_per_s`/`seat_churn_burst` (0.2, 5)", (0.2, 5),
         (c.seat_churn_per_s, c.seat_churn_burst)),
        ("`seat_churn_per_address_*` (0.5, 40", (0.5, 40),
         (c.seat_churn_per_address_per_s, c.seat_churn_per_address_burst)),
        ("now 5, then one every 5 s", (5, 5), (c.seat_churn_burst, 1 / c.seat_churn_per_s)),
        ("(and 40 at most from one address, then one every 2 s)", (40, 2),
         (c.seat_churn_per_address_burst, 1 / c.seat_churn_per_address_per_s)),
        ("for `seek_apart_ms` (10 min)", 600_000, c.seek_apart_ms),
        ("at most 16 addresses, each with the last 2 names from it, and 8 names",
         (16, 2, 8), (KEPT_ADDRESSES, ADDRESS_NAMES, KEPT_UNKNOWN)),
        ("10 at once, then one every 5 s, for each name that holds a seat", (10, 5),
         (SEAT_LOGINS_BURST, 1 / SEAT_LOGINS_PER_S)),
        # §7a
        ("at most 100 names, each a name key", 100, IGNORE_MOST),
        ("(5 at once, then one a second a connection; 40 and 5 a second an address)",
         (5, 1, 40, 5),
         (c.say_burst, c.say_per_s, c.say_per_address_burst, c.say_per_address_per_s)),
        # §8
        ("`web_requests_per_address_burst` (60) and `web_requests_per_address_per_s` (10)",
         (60, 10), (c.web_requests_per_address_burst, c.web_requests_per_address_per_s)),
        ("`web_requests_burst` (300) at once, then `web_requests_per_s` (150) a second", (300, 150),
         (c.web_requests_burst, c.web_requests_per_s)),
        ("once more than 1,000 are, the refilled ones are dropped", 1000, REQUEST_ALLOWANCES_KEPT),
        ("(at most the burst over the rate, 6 s)", 6,
         c.web_requests_per_address_burst / c.web_requests_per_address_per_s),
        ("read his last 500 rated matches", 500, PLAYER_RATED),
        ("a plot draws at most 500 points a line", 500, MOST_POINTS),
        ("list 100 of its games (`?page=N`)", 100, GAMES_PAGE),
        ("closed 5 s after it opened or after its last answer", 5, KEEP_ALIVE_S),
        ("`web_connections_per_address` (100) connections", 100, c.web_connections_per_address),
        ("(`web_viewers_per_address`, 20)", 20, c.web_viewers_per_address),
        ("`max_web_connections` (2000) connections", 2000, c.max_web_connections),
        # "Every limit": what a start says
        ("still after 5.0 s while writing this server's row", 5.0, SQLITE_BUSY_TIMEOUT_S),
        # not a setting; under --workers
        ("waits 30 s at most (`FINAL_FLUSH_S`", 30, FINAL_FLUSH_S),
        ("5000, 30 000 (1000, 5000 under `serve --workers` above 1", (1000, 5000),
         (WORKERS_HEARTBEAT_MS, WORKERS_DEAD_MS)),
        ("(one address gets up to N × 100 connections", 100, c.max_connections_per_address),
        ("(N × 6 and N × 20 bot processes)", (6, 20), (c.house_bots_per_address, c.max_house_bots)),
        # the checklist
        ("`idle_timeout_ms` (15 min)", 15 * 60_000, c.idle_timeout_ms),
        ("and CRLF (107 bytes at most)", 107, PROXY_HEADER_LONGEST),
        ("(100 connections in all)", 100, c.max_connections_per_address),
        ("3 wrong passwords a connection", 3, c.failed_logins_per_connection),
        ("20 wrong passwords per window and 40 password checks a minute", (20, 40, 60_000),
         (c.failed_logins_per_address, c.password_checks_per_address,
          c.password_check_window_ms)),
        ("20 registrations an hour", (20, 3_600_000),
         (c.registrations_per_address, c.registration_window_ms)),
        ("max_house_bots + max_web_connections + 200` (≈ 7800 with the defaults)", 7800,
         round(c.max_connections + c.max_web_viewers + 4 * c.max_house_bots
               + c.max_web_connections + 200, -2)),
        ("(`web_connections_per_address`, 100, each closed 5 s after its last answer",
         (100, 5), (c.web_connections_per_address, KEEP_ALIVE_S)),
    ]  # fmt: skip


def test_the_numbers_in_the_text_are_the_servers_defaults() -> None:
    # the numbers the sections state in passing, each where the page says it, are the
    # defaults and constants of the server's code
    text = " ".join(page().split())
    for words, stated, actual in defaults_stated():
        assert words in text, words
        assert stated == actual, (words, stated, actual)


def test_the_letters_1_makes_one_are_the_servers() -> None:
    # §1 "Nor does a new name look like a name taken": the letters made one, as the page
    # lists them, are those the comparison (look_key) and the index (latin_look) make one
    text = " ".join(section("## 1. Nobody takes another's seat or name").split())
    alike = [
        "Il1\u0406\u04c0\u04cf\u0399",  # I l 1, the Cyrillic І Ӏ ӏ, the Greek Ι
        "Oo0\u041e\u043e\u039f\u03bf",  # O o 0, the Cyrillic О о, the Greek Ο ο
        "i\u0456\u0131\u03b9",  # i, the Cyrillic і, the dotless ı, the Greek ι
    ]
    for letters in alike:
        assert len({look_key(letter) for letter in letters}) == 1, letters
    assert look_key("i") != look_key("l")  # "a lower-case i stays itself"
    for pair, letter in (("rn", "m"), ("cl", "d"), ("vv", "w")):
        assert look_key(pair) == look_key(letter), pair
        assert look_key(pair.upper()) != look_key(letter.upper()), pair  # "RN is no M"
    # the Cyrillic and Greek letters drawn as Latin ones: the page's lists are the code's
    lists = text.split("in the common faces are that letter, each in its own case (", 1)[1]
    small, capital, read_as_n, n, greek_small, greek = re.findall(
        r"`([^`]+)`", lists.split(")", 1)[0]
    )
    assert lists.startswith(f"Cyrillic `{small}` and `{capital}`, and the `{read_as_n}` read")
    assert n == "n" and look_key(read_as_n) == look_key(n)
    listed = {*small.split(), *capital.split(), read_as_n, *greek_small.split(), *greek.split()}
    assert "and the `п` read as an `n` at a glance" in text
    assert listed == set(OTHER_ALPHABETS)
    for letter, latin in OTHER_ALPHABETS.items():
        assert look_key(letter) == look_key(latin), letter  # "each in its own case"
    # "the small letters that are small capitals (в к м н т) are not made Latin", and
    # the Greek ν is a v, its capital an N
    assert "small capitals (`в к м н т`) are not made Latin" in text
    for letter in "вкмнт":
        assert letter not in OTHER_ALPHABETS and look_key(letter) == letter
    assert look_key("\u03bd") == look_key("v") and look_key("\u039d") == look_key("N")
    # the page's examples: refused beside ..., and taken beside ... (Arnold, clara,
    # vivian taken, burn and bum both logging in: server/test_look_alike_names.py)
    for new, taken in [
        ("AIice", "Alice"), ("a1ice", "Alice"), ("b0ss", "boss"), ("rnartin", "martin"),
        ("\u0430\u043f\u043f\u0430", "anna"), ("\u0422\u0415\u041e", "Teo"),
        ("Teo", "\u0422\u0415\u041e"), ("al\u0131ce", "Alice"), ("AL1CE", "ALICE"),
    ]:  # fmt: skip
        assert look_key(new) == look_key(taken), (new, taken)
        assert latin_look(taken) == latin_look(new), (new, taken)  # and the index finds it
    for new, taken in [
        ("\u0412\u0435\u0440\u0430", "Vera"), ("\u043d\u0435\u0445", "HEX"), ("ali", "all"),
        ("bili", "bill"), ("AL1CE", "Alice"),
    ]:  # fmt: skip
        assert look_key(new) != look_key(taken), (new, taken)
    # the index's coarser look: "i with l and 1, n with v, u with y, rn as m, cl as d,
    # w as vv, whatever the case", the Cyrillic and Greek letters read as Latin
    for group in (
        "il1IL", "nvNV", "uyUY", ("rn", "m", "RN", "M"), ("cl", "d", "CL", "D"),
        ("w", "vv", "W", "VV"), ("\u04bb", "\u043d", "h"), ("\u04af", "\u0443", "y"),
        ("\u0441\u04cf", "\u0501", "d"), ("\u03bd", "\u039d", "n"),
    ):  # fmt: skip
        assert len({latin_look(name) for name in group}) == 1, group


def _banner_within(
    sockets: list[socket.socket], seconds: float, count: int | None = None
) -> set[socket.socket]:
    """Those of ``sockets`` the server has sent something to within ``seconds`` (once
    ``count`` of them have been, if given: no longer waited for the rest)."""
    told: set[socket.socket] = set()
    deadline = time.monotonic() + seconds
    enough = len(sockets) if count is None else count
    while len(told) < enough and (left := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([s for s in sockets if s not in told], [], [], left)
        for sock in readable:
            assert sock.recv(4096), "closed, not greeted"
            told.add(sock)
    return told


@pytest.mark.timeout(60)
def test_a_server_out_of_descriptors_waits_and_accepts_again(tmp_path: Path) -> None:
    # the checklist, "Descriptors": "the server waits and retries when accept runs out
    # (accept_failed in the log) rather than failing"; a real `serve` whose ulimit -n
    # is 48, sent more connections than that
    command = [sys.executable, "-m", "deberc_net", "serve", "--port", "0", "--http-port", "off"]
    server = subprocess.Popen(
        ["sh", "-c", 'ulimit -n 48 && exec "$@"', "sh", *command, "--db", str(tmp_path / "d")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    sockets: list[socket.socket] = []
    try:
        events = (json.loads(line) for line in server.stderr)
        port = next(int(e["port"]) for e in events if e["event"] == "listening")
        sockets = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(50)]
        # the connections it took (each logs `connect` and is greeted as it is taken),
        # up to its second failure to accept: it tries again every 0.1 s, and each one
        # taken before has had its turn by then (not a fixed wait for the greetings)
        taken, failures = 0, list[dict[str, object]]()
        while len(failures) < 2:
            event = next(e for e in events if e["event"] in ("connect", "accept_failed", "stopped"))
            assert event["event"] != "stopped", event
            if event["event"] == "connect":
                taken += 1
            else:
                failures.append(event)
        assert failures[0] == failures[0] | {"error": "Too many open files"}, failures
        greeted = _banner_within(sockets, 10, count=taken)
        assert len(greeted) == taken  # each one taken is greeted
        waiting = [sock for sock in sockets if sock not in greeted]
        assert greeted and waiting and server.poll() is None  # out of descriptors, running
        for sock in greeted:
            sock.close()
        assert _banner_within(waiting, 10) == set(waiting)  # accepted once some are free
        assert server.poll() is None
    finally:
        for sock in sockets:
            sock.close()
        server.terminate()
        server.communicate(timeout=30)


def test_the_web_refusals_the_page_quotes_are_the_servers() -> None:
    # §4 "closed (1008, `too many frames: a live page sends none`)"; §8 "`429 Too Many
    # Requests` (`too many connections from your address: close one first`)", "`503
    # Service Unavailable` (`the server holds all the web connections it takes: try again
    # shortly`, with `Retry-After: 5`)" (web/test_live_socket_frames.py and
    # web/test_connection_limit.py check the server sends these constants)
    text = " ".join(page().split())
    assert f"(1008, `{TOO_MANY_FRAMES}`)" in text
    assert f"`429 Too Many Requests` (`{REFUSAL_TEXT.decode()}`)" in text
    assert f"`503 Service Unavailable` (`{BUSY_TEXT.decode()}`, with `Retry-After: 5`)" in text
    assert REFUSAL.startswith(b"HTTP/1.1 429 Too Many Requests\r\n")
    assert BUSY.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    assert b"\r\nretry-after: 5\r\n" in BUSY.lower()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deberc_net", *args], capture_output=True, text=True, timeout=60
    )


def _examples(heading: str) -> list[str]:
    """The ```sh examples under ``heading``."""
    return [part.split("```", 1)[0] for part in section(heading).split("```sh\n")[1:]]


@pytest.mark.timeout(60)
def test_the_backup_and_restore_examples_run_as_written(tmp_path: Path) -> None:
    # "Backups": `deberc-net backup OUT --config FILE` says what the example's comment
    # says (today's schema: the example's is the newest, as a server's database is),
    # the copy 0600; restoring is the same command, `--db BACKUP --replace`
    db, out = tmp_path / "club.sqlite3", tmp_path / "deberc-2026-12-04.sqlite3"
    config = tmp_path / "club.toml"
    config.write_text(f'[server]\ndb = "{db}"\n')
    store = open_store(db)
    try:
        set_password(store, "ann", "hunter22")
    finally:
        store.close()
    backup, restore = _examples("### Backups")
    command, *comment = backup.splitlines()
    stated = " ".join(line.removeprefix("# ") for line in comment)
    stated = stated.replace("/etc/deberc/club.sqlite3", str(db))
    stated = stated.replace("/var/backups/deberc-2026-12-04.sqlite3", str(out))
    assert f"(schema {LATEST_SCHEMA}):" in stated  # (the newest: update the examples)
    args = command.split()[1:]
    assert args == ["backup", "/var/backups/deberc-2026-12-04.sqlite3", "--config",
                    "/etc/deberc/club.toml"]  # fmt: skip
    # (the command's main in this process: the same command without a Python start-up)
    done = run_cli(["backup", str(out), "--config", str(config)])
    assert done.returncode == 0, done.stderr
    shape = re.compile(r"\d+ (account|match|deal|rating|ladder run)(e?s)?")
    assert shape.sub("N", done.stdout.strip()) == shape.sub("N", stated)
    assert "1 account, 0 matches, 0 deals, 0 ratings, 0 ladder runs." in done.stdout
    assert out.stat().st_mode & 0o777 == 0o600
    # restoring, the server stopped: the backup copied back to the database's place
    (args,) = [line.split()[1:] for line in restore.splitlines() if line.strip()]
    assert args == ["backup", "/etc/deberc/club.sqlite3", "--db",
                    "/var/backups/deberc-2026-12-04.sqlite3", "--replace"]  # fmt: skip
    done = run_cli(["backup", str(db), "--db", str(out), "--replace"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"copied {out} to {db} (schema {LATEST_SCHEMA}): 1 account,")


@pytest.mark.timeout(60)
def test_a_database_newer_than_the_code_is_refused_as_the_page_says(tmp_path: Path) -> None:
    # "Upgrading", 3: "`deberc-net serve: the database's schema is at version 24, newer
    # than this deberc-net knows (23): upgrade deberc-net`, status 2", before writing
    db = tmp_path / "newer.sqlite3"
    open_store(db).close()
    with sqlite3.connect(db) as later:
        later.execute(
            "INSERT INTO schema_migrations (number, description) VALUES (?, 'later')",
            (LATEST_SCHEMA + 1,),
        )
    later.close()
    before = db.read_bytes()
    done = _cli("serve", "--port", "0", "--http-port", "off", "--db", str(db))
    assert done.returncode == 2
    text = " ".join(section("### Upgrading").split())
    stated = text.split("before writing anything: `", 1)[1].split("`", 1)[0]
    assert stated == (
        f"deberc-net serve: the database's schema is at version {LATEST_SCHEMA + 1}, newer"
        f" than this deberc-net knows ({LATEST_SCHEMA}): upgrade deberc-net"
    )
    assert done.stderr.strip().endswith(stated.removeprefix("deberc-net serve: ")), done.stderr
    assert db.read_bytes() == before
    # and the `migrated` line's example names today's newest schema, as test_upgrade's
    assert f'"from": 0, "to": {LATEST_SCHEMA}, "event": "migrated"' in text


@pytest.mark.timeout(60)
@pytest.mark.production_password_cost  # (the server's process hashes at that cost)
def test_a_server_logging_warnings_keeps_what_an_operator_acts_on_and_no_chat(
    tmp_path: Path,
) -> None:
    # §7a "every admin action, at warning ...: moderation with action, admin, target,
    # reason (minutes of a mute, text of an announcement). Every line said ... at info
    # ... at log_level = "warning" no chat is kept"; the checklist's "Logs": at warning
    # the log "keeps what an operator acts on: refused (a full server turning players
    # away), login_failed (wrong passwords, with the guesser's peer), flood": a real
    # serve, logging warnings, with three connections at most and a flood limit of 5
    db = tmp_path / "club.sqlite3"
    store = open_store(db)
    try:
        set_password(store, "boss", "boss-secret-1")
    finally:
        store.close()
    settings = (
        'log_level = "warning"\nadmins = ["boss"]\nshutdown_grace_ms = 100\n'
        "max_connections = 3\nflood_burst = 5\nflood_lines_per_s = 0.1"
    )
    server, port = start_server_process(db, settings)
    try:
        with (
            socket.create_connection(("127.0.0.1", port), timeout=30) as boss,
            socket.create_connection(("127.0.0.1", port), timeout=30) as ann,
            socket.create_connection(("127.0.0.1", port), timeout=30) as carl,
        ):
            boss.sendall(b"style machine\nlogin boss boss-secret-1\n")
            read_until(boss, b"cmd=login")
            ann.sendall(b"style machine\nlogin ann\nsay a secret of mine\n")
            read_until(ann, b"a secret of mine")
            carl.sendall(b"style machine\nlogin boss guessed\n")
            read_until(carl, b"bad-password")
            carl.sendall(b"login carl\n")
            read_until(carl, b"cmd=login")
            with socket.create_connection(("127.0.0.1", port), timeout=30) as late:
                assert b"error code=busy" in read_until(late, b"full")
            boss.sendall(b"mute ann 5 spamming\nannounce be kind\n")
            read_until(boss, b"be kind")
            read_until(ann, b"be kind")
            carl.sendall(b"ping\n" * 20)
            assert b"error code=flood" in read_until(carl, b"code=flood")
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=30)
    logged = [json.loads(line) for line in err.splitlines()]
    assert "a secret of mine" not in err and all(e["event"] != "said" for e in logged)
    moderation = [
        {k: v for k, v in e.items() if k not in ("timestamp", "conn", "peer", "name")}
        for e in logged
        if e["event"] == "moderation"
    ]
    assert moderation == [
        {"event": "moderation", "level": "warning", "action": "mute", "admin": "boss",
         "target": "ann", "reason": "spamming", "minutes": 5},
        {"event": "moderation", "level": "warning", "action": "announce", "admin": "boss",
         "target": None, "text": "be kind"},  # (an announcement gives no reason)
    ], moderation  # fmt: skip
    [failed] = [e for e in logged if e["event"] == "login_failed"]
    assert (failed["name"], failed["peer"].split(":")[0]) == ("boss", "127.0.0.1")
    assert "guessed" not in err  # never the password
    [refused] = [e for e in logged if e["event"] == "refused"]
    assert refused["reason"] == "full"
    assert [e["event"] for e in logged if e["event"] == "flood"] == ["flood"]


@pytest.mark.timeout(60)
def test_the_game_proxy_example_runs_as_written(tmp_path: Path) -> None:
    # the checklist's `[server]` table for a TCP or TLS proxy at 127.0.0.2: a serve with
    # it reads the PROXY header of a connection from there (its SRC the client's `peer`
    # in the log), refuses one from there without it (`bad-proxy-header`), and from
    # 127.0.0.1 a PROXY line is an ordinary one (`not-logged-in`)
    checklist = section("## Running on a public port: a checklist")
    table = checklist.split("```toml\n", 1)[1].split("```", 1)[0]
    lines = [line.strip() for line in table.splitlines()]
    assert lines[0] == "[server]"
    settings = "\n".join([*lines[1:], "shutdown_grace_ms = 100"])
    server, port = start_server_process(tmp_path / "club.sqlite3", settings)
    header = f"PROXY TCP4 203.0.113.7 127.0.0.1 5555 {port}\r\n".encode()
    try:
        with socket.create_connection(("127.0.0.1", port), 30, ("127.0.0.2", 0)) as player:
            player.sendall(header + b"style machine\nlogin ann\n")
            assert b"ok cmd=login" in read_until(player, b"cmd=login")
        with socket.create_connection(("127.0.0.1", port), 30, ("127.0.0.2", 0)) as bare:
            bare.sendall(b"login bob\n")
            assert b"error code=bad-proxy-header" in read_until(bare, b"bad-proxy-header")
        with socket.create_connection(("127.0.0.1", port), 30, ("127.0.0.1", 0)) as direct:
            direct.sendall(b"style machine\n" + header)
            assert b"error code=not-logged-in" in read_until(direct, b"not-logged-in")
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=30)
    logged = [json.loads(line) for line in err.splitlines()]
    [login] = [e for e in logged if e["event"] == "login"]
    assert (login["name"], login["peer"]) == ("ann", "203.0.113.7:5555")


@pytest.mark.timeout(90)
def test_the_soak_runs_as_the_page_says_and_loses_no_deal_nor_a_name() -> None:
    # "The soak test": `bench/soak.py --minutes 1` (here a few seconds of it) prints the
    # server's RSS, help's p99 from an honest client, the matches finished and the deals
    # stored against those finished, "none may be fewer"; no takeover succeeds
    (command,) = [line for line in _examples("## The soak test")[0].splitlines() if line]
    assert command.split()[1:] == ["bench/soak.py", "--minutes", "1"]
    done = subprocess.run(
        # a deal and a takeover attempt at least: on a busy machine 3 s may end before
        # the bots are seated, or with the first attempt still in 127.0.0.1's line
        [sys.executable, str(ROOT / "bench" / "soak.py"), "--minutes", "0.05", "--pairs", "2",
         "--at-least-deals", "1", "--at-least-takeovers", "1"],
        capture_output=True, text=True, timeout=80, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    said = dict(line.split(":", 1) for line in done.stdout.splitlines() if ":  " in line)
    assert {"server RSS", "help latency p99", "matches finished", "records stored"} <= set(said)
    stored = re.fullmatch(
        r" *(\d+) of (\d+) deals finished( \(\+\d+ ended as the bots stopped\))?",
        said["records stored"],
    )  # none lost (the cut-off's deal may be one more, its end unread by its bots)
    assert stored is not None and int(stored[1]) >= int(stored[2]) > 0, said
    takeovers = re.fullmatch(r" *0 of (\d+) attempts", said["takeovers"])
    assert takeovers is not None and int(takeovers[1]) > 0, said


def test_the_words_a_password_may_not_begin_with_are_those_login_reads() -> None:
    # §1 "one beginning with token=, lang=, style=, tell=, sort= or clock= (words login
    # reads otherwise, docs/protocol.md §4.2) is refused": the page's list is the
    # server's (server/test_admin_command.py checks the refusal)
    text = " ".join(section("## 1. Nobody takes another's seat or name").split())
    listed = text.split("The password it reads is one word that a login can type: one", 1)[1]
    listed = listed.split("(words `login` reads otherwise", 1)[0]
    assert set(re.findall(r"`(\w+=)`", listed)) == {TOKEN, *RESERVED}


def _login_from(port: int, source: str, line: bytes) -> bytes:
    """The answer to one `login` line from ``source``: `ok cmd=login` or its error."""
    with socket.create_connection(("127.0.0.1", port), 30, (source, 0)) as client:
        client.sendall(b"style machine\n" + line + b"\n")
        told = b""
        while (found := re.search(rb"\n(ok cmd=login|error code=[\w-]+)", told)) is None:
            more = client.recv(4096)
            assert more, told
            told += more
    return found[1]


@pytest.mark.timeout(60)
async def test_a_names_known_address_is_forgotten_at_a_restart(
    db_path: Path, register: Register
) -> None:
    # §1 "once a name is past [its limit] every address is refused ... except one the
    # name has logged in from with its password within known_address_ms (30 days;
    # remembered in memory, so forgotten at a restart ...)": a server stopped and one
    # started again on its database (in this process: what is kept is the file's)
    await register("vera", "her-own-1")
    config = make_config(db_path, failed_logins_per_name=2, shutdown_grace_ms=100)
    home, guesser = "127.0.0.5", "127.0.0.9"

    async def login(port: int, source: str, line: bytes) -> bytes:
        return await trio.to_thread.run_sync(_login_from, port, source, line)

    with trio.fail_after(40):
        for restarted in (False, True):
            async with running_server(config) as port:
                if not restarted:  # her address, known from here on
                    assert await login(port, home, b"login vera her-own-1") == b"ok cmd=login"
                for guess in (b"login vera guess-1", b"login vera guess-2"):
                    assert await login(port, guesser, guess) == b"error code=bad-password"
                assert await login(port, guesser, b"login vera her-own-1") == (
                    b"error code=slow-down"
                )
                owner = await login(port, home, b"login vera her-own-1")
                assert owner == (b"error code=slow-down" if restarted else b"ok cmd=login")


@pytest.mark.timeout(30)
async def test_an_admin_spends_no_lists_allowance(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    # §2 "... each spend the connection's lists_per_s allowance (error code=slow-down
    # beyond; admins exempt), and its address's": an admin's `who`s spend neither
    await register("boss", "boss-secret-1")
    port = await start_server(
        admins=["boss"], lists_burst=2, lists_per_s=0.001,
        lists_per_address_burst=2, lists_per_address_per_s=0.001,
    )  # fmt: skip
    with trio.fail_after(20):
        boss = await connect.machine(port, "boss", "boss-secret-1")
        for _ in range(6):
            assert fields(await boss.reply("who"))[0] == "who"
        guest = await connect.machine(port, "guest")  # the same address: its 2 untouched
        answers = [fields(await guest.reply("who"))[0] for _ in range(3)]
        assert answers == ["who", "who", "error"]
        assert fields(await boss.reply("who"))[0] == "who"
