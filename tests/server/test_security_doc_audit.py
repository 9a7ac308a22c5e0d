"""An audit of docs/security.md against the server: each promise a server owner may rely
on, and (→) the tests that pin it: a module under tests/ and its tests, "here" for this
module's. The page names its own tests after each promise (*Tests:* …, in
tests/server/test_attacks.py unless it names another file); those named are pinned by
them, and this module checks that each one named is there.

the page: every test it names (`test_…`, `tests/….py`, `tests/….py::test_…`) exists
    → here: test_every_test_the_page_names_exists

§1 a name in use is never taken over (password, a guest's resume token); the holder
notices nothing; a guest's name is not registered from under him; an admin's name
registered only by the owner
    → the tests §1 names (test_attacks.py, test_reconnect.py, clients/test_bots.py,
      test_admin_command.py)
§1 one alphabet a new name; look-alikes of a name taken refused, with the refusal's text;
the store's `key_look` index (migrations 18, 20)
    → server/test_input.py, server/test_look_alike_names.py,
      store/test_look_alike_accounts.py, store/test_workers_look_alike.py
§1 `deberc-net admin NAME` refuses a registered name, `--replace`, the password's words
    → server/test_admin_command.py
§1 wrong passwords limited per name, per address, per connection (the third closes it);
unanswered checks count; across workers; `login_failed` logged
    → server/test_login_bursts.py, store/test_workers_limits.py, test_attacks.py,
      server/test_hardening.py test_wrong_passwords_close_the_connection,
      server/test_logs_ops.py
§1 the owner's known address (`known_address_ms`, 30 days) is let in past the name's limit
    → test_attacks.py test_guesses_for_a_name_do_not_lock_its_owner_out_of_his_seat,
      test_an_address_a_name_logged_in_from_is_slowed_by_its_own_guesses
§1 password checks: 20 a minute an address, 1 in the hash queue at once, fewest first
    → test_attacks.py (the three §1 names); server/test_fair_turns.py;
    → here: test_the_numbers_in_the_text_are_the_servers_defaults
§1 registrations in their own pool, bounded queue, per-address allowance
    → test_attacks.py test_registrations_are_limited_and_do_not_hold_up_logins
§1 passwords kept only as salted scrypt hashes
    → server/test_password_cost.py; here: test_a_password_is_kept_as_a_salted_scrypt_hash
§1 a private table answers as a table nobody has → server/test_private_unseen.py
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
    → web/test_live_socket*.py, web/test_web_non_reader.py; here: the numbers
§5 no deck knowable early; the store file 0600 and made so on opening
    → test_attacks.py test_nothing_stored_tells_a_running_matchs_decks,
      server/test_secrecy.py, store/test_upgrade.py, store/test_store.py,
      server/test_games.py
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
§8 web requests (60, 10; 429 with Retry-After; 1,000 allowances kept), HTTP/1.1 only,
keep-alive 5 s, connections (100 an address, 2000 in all) → the tests §8 names;
    → here: the numbers
"Every limit, with its default": each row's default is the server's
    → here: test_every_limit_in_the_table_is_the_servers_default
"Every limit": the values checked before the server starts (ranges, at least 1, 256,
5000, 100, 65535) → server/test_config.py, server/test_serve_errors.py;
    → here: test_the_least_values_the_page_states_are_the_servers
"Every limit": a finished connection's queue waits 30 s (`FINAL_FLUSH_S`)
    → server/test_streams.py; here: the numbers
"Under serve --workers N": what is counted per worker → store/test_workers*.py
Checklist: addresses (/64), proxies (PROXY v1, 107 bytes at most, `game_proxies`),
descriptors (≈ 7800), logs, drains
    → server/test_addresses.py, server/test_game_proxy.py, store/test_workers_proxy.py,
      server/test_drain*.py; here: the numbers
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from deberc_net.server.accounts import SCRYPT, set_password
from deberc_net.server.config import RANGES, SHORTEST_LINE, Config
from deberc_net.server.store import open_store

ROOT = Path(__file__).resolve().parents[2]
SECURITY = ROOT / "docs" / "security.md"
TESTS = ROOT / "tests"


def page() -> str:
    return SECURITY.read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text of the page under ``heading`` (a line starting with '#'), to the next
    heading of its level or above."""
    text = page()
    start = text.index(f"\n{heading}\n")
    level = len(heading) - len(heading.lstrip("#"))
    rest = text[start + len(heading) + 2 :]
    ends = [m.start() for m in re.finditer(rf"^#{{1,{level}}} ", rest, re.M)]
    return rest[: ends[0]] if ends else rest


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
        "drain_limit_ms", "worker_restart_ms", "seek_patience_ms",
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
    assert len(listed) == 9
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
