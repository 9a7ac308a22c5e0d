"""Server settings, with defaults that need no configuration file."""

from __future__ import annotations

import difflib
import ipaddress
import os
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

# Type names as the fields' annotations spell them (``from __future__ import
# annotations``): a settings file's value is checked against its field's before use
_EXPECTS = {
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false",
    "str": "a string",
    "list[str]": "a list of strings",
}
MOST_SEND_TIMEOUT_MS = 2**31 - 1  # web_send_timeout_ms: what TCP_USER_TIMEOUT takes
_PROXY_LISTS = ("trusted_proxies", "game_proxies")  # addresses or networks, both versions
SETTINGS_PAGE = "docs/settings.md"  # every setting, its default and what it does
# the web face off, one spelling for both: `serve --http-port off`, `http_port = "off"`
# in a settings file (left out there too); 0 is a free port (docs/settings.md)
WEB_OFF = "off"
# the shortest max_line: a login fits, 'login NAME PASSWORD lang=ru' with a 20-letter
# name (80 bytes in UTF-8 at most) and a password of up to 150 bytes (10 let in no one)
SHORTEST_LINE = 256


@attrs.frozen
class Range:
    """The values a number setting takes, both ends included; ``unit`` is said with
    them when a value is refused."""

    least: int
    most: int
    unit: str


_SECOND_MS = 1000
_MINUTE_MS = 60 * _SECOND_MS
_HOUR_MS = 60 * _MINUTE_MS
_DAY_MS = 24 * _HOUR_MS
_WEEK_MS = 7 * _DAY_MS
_MONTH_MS = 30 * _DAY_MS
_YEAR_MS = 365 * _DAY_MS
# a rate or burst no client comes near (the tests' "no limit" is 1e6): more is a typo,
# or inf, which turns the limit off (0 does that where a row says so)
_MOST_RATE = 1_000_000
_RATE = Range(0, _MOST_RATE, "a second")
_BURST = Range(0, _MOST_RATE, "at once")
# things at once on one server (sockets, tables): a million is past any process's
# file descriptors; more is a typo
_MOST_AT_ONCE = 1_000_000
# house bots (a process each) and search bots' tables (a core each)
_MOST_BOTS = 1000
# threads hashing passwords: each keeps a core busy, no machine has more
_MOST_THREADS = 256
# counts of one address's or one name's attempts in a window: past that the limit
# limits nothing (a big NAT's address stays far below)
_MOST_PER_WINDOW = 10_000
# a window of counts, or of memory: past a month it is a ban's job, not a limit's
_WINDOW = Range(0, _MONTH_MS, "milliseconds: 30 days at most")
# Every number setting's range (docs/settings.md, each row's "range"). The least: where
# less breaks the server (none negative; where it is 1, 0 would drop every reader, queue
# no call, divide 'who' by zero, finish no login, beat without a pause, refuse every
# connection; a clock nobody can meet, a line no login fits); the most: where an
# operator's typo (an extra zero, seconds as milliseconds, 1e12, inf) is harm, not a
# wish: a clock of years, an outbox of terabytes, a limit that limits nothing, a number
# a float, trio or SQLite cannot take (a start-up, a stop or a 'top' that failed)
RANGES: dict[str, Range] = {
    "port": Range(0, 65535, "a port number"),
    "http_port": Range(0, 65535, "a port number"),
    "max_web_viewers": Range(0, _MOST_AT_ONCE, "sockets"),
    "web_viewers_per_address": Range(0, _MOST_AT_ONCE, "sockets"),
    "web_connections_per_address": Range(0, _MOST_AT_ONCE, "connections"),
    "max_web_connections": Range(0, _MOST_AT_ONCE, "connections"),
    "web_requests_per_address_per_s": _RATE,
    "web_requests_per_address_burst": _BURST,
    "web_requests_per_s": _RATE,
    "web_requests_burst": _BURST,
    # (the kernel's TCP_USER_TIMEOUT is a C int: more failed the web face's start)
    "web_send_timeout_ms": Range(0, MOST_SEND_TIMEOUT_MS, "milliseconds, some 24 days"),
    "web_socket_frames_per_s": _RATE,
    "web_socket_frames_burst": _BURST,
    # shorter forfeits every seat on time (a person needs seconds to read and type a
    # call, a program a network round trip); longer than a day a call, a silent
    # player holds his table for good
    "human_clock_ms": Range(5000, _DAY_MS, "milliseconds a call, a day at most"),
    "bot_clock_ms": Range(100, _DAY_MS, "milliseconds a call, a day at most"),
    "lag_ms": Range(0, _MINUTE_MS, "milliseconds: no network lags a minute"),
    "clock_warning_ms": Range(0, _DAY_MS, "milliseconds, a day at most as a clock"),
    "max_timeouts": Range(0, 1000, "timeouts in a row"),
    # each deal's records, memory and replay: 1000 deals is a 1 MB replay page
    "max_match_deals": Range(0, 1000, "deals: a match to 301 is some 8"),
    "away_limit_ms": Range(0, _DAY_MS, "milliseconds, a day at most"),
    # an unfinished line is held in memory, each connection's: 64 KiB is 64 times the
    # longest line a client needs, and a limit on one client's memory still
    "max_line": Range(SHORTEST_LINE, 65536, "bytes: a login must fit"),
    "partial_line_ms": Range(0, _HOUR_MS, "milliseconds, an hour at most"),
    "flood_lines_per_s": _RATE,
    # less than a line at once cut every connection off at its first line
    "flood_burst": Range(1, _MOST_RATE, "at once: less cuts every connection off"),
    # a slow reader's queue: 64 MiB is 256 times the default, and 5000 such readers
    # hold 320 GB already
    "outbox_bytes": Range(1, 64 * 1024 * 1024, "bytes, 64 MiB at most"),
    "say_per_s": _RATE,
    "say_burst": _BURST,
    "say_per_address_per_s": _RATE,
    "say_per_address_burst": _BURST,
    "seat_churn_per_s": _RATE,
    "seat_churn_burst": _BURST,
    "seat_churn_per_address_per_s": _RATE,
    "seat_churn_per_address_burst": _BURST,
    "seek_apart_ms": _WINDOW,
    "watch_news_window_ms": Range(0, _DAY_MS, "milliseconds, a day at most"),
    "watch_news_per_s": _RATE,
    "watch_news_burst": _BURST,
    "lists_per_s": _RATE,
    "lists_burst": _BURST,
    "lists_per_address_per_s": _RATE,
    "lists_per_address_burst": _BURST,
    # a page is one reply: 1000 names fit an outbox; 0 divides by zero
    "page_size": Range(1, 1000, "names or tables a page"),
    "max_connections": Range(1, _MOST_AT_ONCE, "connections"),
    "max_connections_per_address": Range(0, _MOST_AT_ONCE, "connections"),
    # 0 closed every connection before it could log in (an owner's "no timeout"), or
    # as it logged in: a second at least, a round trip and a password's hash
    "login_timeout_ms": Range(_SECOND_MS, _HOUR_MS, "milliseconds, a second to an hour"),
    "idle_timeout_ms": Range(_SECOND_MS, _WEEK_MS, "milliseconds, a second to a week"),
    "max_tables": Range(0, _MOST_AT_ONCE, "tables"),
    "max_tables_per_address": Range(0, _MOST_AT_ONCE, "tables"),
    "empty_table_ms": Range(0, _DAY_MS, "milliseconds, a day at most"),
    "table_requests_waiting": Range(1, 1000, "requests"),
    "house_bots_per_table": Range(0, _MOST_BOTS, "bots"),
    "max_house_bots": Range(0, _MOST_BOTS, "bot processes"),
    "house_bots_per_address": Range(0, _MOST_BOTS, "bots"),
    "house_bot_starts_per_address_per_s": _RATE,
    "house_bot_starts_per_address_burst": _BURST,
    "house_bot_starts_per_s": _RATE,
    "house_bot_starts_burst": _BURST,
    "house_search_tables_per_address": Range(0, _MOST_BOTS, "tables"),
    "max_house_search_tables": Range(0, _MOST_BOTS, "tables"),
    "house_bot_nice": Range(0, 19, "the kernel's nicest is 19"),
    "hash_workers": Range(1, _MOST_THREADS, "threads"),
    "registration_workers": Range(1, _MOST_THREADS, "threads"),
    "registrations_waiting": Range(0, _MOST_PER_WINDOW, "registrations"),
    "registrations_waiting_per_address": Range(0, _MOST_PER_WINDOW, "registrations"),
    "registrations_per_address": Range(0, _MOST_PER_WINDOW, "names a window"),
    "registration_window_ms": _WINDOW,
    "failed_logins_per_name": Range(0, _MOST_PER_WINDOW, "passwords a window"),
    "failed_logins_per_address": Range(0, _MOST_PER_WINDOW, "passwords a window"),
    "failure_window_ms": _WINDOW,
    "failed_logins_per_connection": Range(0, 1000, "passwords"),
    # the default is 30 days: a year is as long as an address stays a player's
    "known_address_ms": Range(0, _YEAR_MS, "milliseconds, a year at most"),
    "password_checks_per_address": Range(1, _MOST_PER_WINDOW, "checks a window"),
    "password_check_window_ms": _WINDOW,
    "password_checks_at_once_per_address": Range(1, _MOST_THREADS, "checks"),
    # a stop that waits longer is killed first (systemd's TimeoutStopSec: 90 s)
    "shutdown_grace_ms": Range(0, 10 * _MINUTE_MS, "milliseconds, 10 minutes at most"),
    "drain_limit_ms": Range(0, _WEEK_MS, "milliseconds, a week at most; 0: no limit"),
    # (the tests' "no heartbeat" is a day)
    "heartbeat_ms": Range(1, _DAY_MS, "milliseconds, a day at most"),
    "server_dead_ms": Range(0, _WEEK_MS, "milliseconds, a week at most"),
    "worker_restart_ms": Range(0, _HOUR_MS, "milliseconds, an hour at most"),
    "seek_patience_ms": Range(0, _HOUR_MS, "milliseconds, an hour at most"),
    # a second at least: a rematch nobody could ask for in time is none (told in whole
    # seconds, "'rematch' within 60 s …")
    "rematch_ms": Range(1000, _HOUR_MS, "milliseconds, 1 s to an hour"),
    # (a pipe's atomic write at least; a GiB of prints held for nobody is a leak)
    "output_backlog_bytes": Range(4096, 1 << 30, "bytes, 4 KiB to 1 GiB"),
}
# docs/settings.md's four: Python's others ("critical" dropped the error lines an
# operator alerts on, "notset" is debug by another name) are refused
LOG_LEVELS = ("debug", "info", "warning", "error")


def _check_setting(_config: object, field: attrs.Attribute[Any], value: object) -> None:
    """A Config built in code (a library caller's, a test's) is held to the settings
    file's rules: a bad value fails at once, named, not as a server that misbehaves."""
    if value is None and "None" in str(field.type):
        return
    problem = setting_problem(field.name, value, in_code=True)
    if problem is not None:
        raise ValueError(f"Config: setting {field.name} {problem}, not {shown(value)}")


def _checked(_cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
    """Every setting checked by ``setting_problem`` (on construction and assignment)."""
    return [field.evolve(validator=_check_setting) for field in fields]


@attrs.define(field_transformer=_checked)
class Config:
    host: str = "127.0.0.1"
    port: int = 7501
    # the web face (docs/web.md): None off (a file's "off", WEB_OFF), 0 any free port
    http_port: int | None = None
    max_web_viewers: int = 500  # live table sockets of web pages open at once ...
    web_viewers_per_address: int = 20  # ... and from one address (0: no limit)
    # connections to the web face one address holds open (live sockets, pages, idle
    # ones): each is a descriptor of the server's; past it 429 and a close (0: no limit)
    web_connections_per_address: int = 100
    # ... and all addresses together (a spray of addresses, each under its own limit,
    # held every descriptor): past it 503 and a close (0: no limit)
    max_web_connections: int = 2000
    # requests to the web face from one address (pages, JSON, static files, live sockets'
    # handshakes) a second on average ... and at once; beyond that: HTTP 429 (either 0:
    # no limit). A page with its files and socket is 5 of them: docs/security.md §8
    web_requests_per_address_per_s: float = 10.0
    web_requests_per_address_burst: float = 60.0
    # ... and from all addresses together, a second on average and at once: a request
    # past them waits its turn (it is not refused), so many addresses, each within its
    # own allowance, cannot take the loop from the tables (either 0: no limit)
    web_requests_per_s: float = 150.0
    web_requests_burst: float = 300.0
    # a web connection whose answer waits this long unread (the client takes nothing,
    # or is gone) is cut off by the kernel (TCP_USER_TIMEOUT): hypercorn's writes wait
    # otherwise as long as the connection lives, a stop too (docs/security.md §4;
    # 0: the system's own, some 15 min for a client gone and never for one that stalls)
    web_send_timeout_ms: int = 30_000
    # frames a live socket may send (pings, pongs, a message's pieces) a second on
    # average ... and at once; beyond that it is closed (1008; either 0: no limit). A page
    # sends a pong each 25 s; hypercorn reads the others without a pause of the loop
    web_socket_frames_per_s: float = 1.0
    web_socket_frames_burst: float = 20.0
    # Behind a reverse proxy (docs/web.md, "Behind a proxy")
    http_host: str | None = None  # the web face's address (None: the game's host)
    # the peers (addresses, CIDR networks) whose X-Forwarded-For names the web client
    # its limits count (none: every peer is its own client; docs/security.md checklist)
    trusted_proxies: list[str] = attrs.Factory(list)
    # Behind a TCP or TLS proxy (docs/security.md): the peers (addresses, CIDR networks)
    # that begin each game connection with a PROXY v1 header naming the client its
    # limits count (none: no header read, every peer is its own client)
    game_proxies: list[str] = attrs.Factory(list)
    db: str = "deberc.sqlite3"
    human_clock_ms: int = 60_000  # per call, a person
    bot_clock_ms: int = 10_000  # per call, a connection in the machine style
    lag_ms: int = 500  # allowance added to every clock
    clock_warning_ms: int = 10_000  # a person is told when this is left of a call (0: never)
    max_timeouts: int = 3  # consecutive clock timeouts that forfeit the game
    # a match ends after so many deals, the side ahead winning (a tie: a draw): two
    # players passing every deal never end one (a match to 301 is some 8 deals)
    max_match_deals: int = 200
    away_limit_ms: int = 120_000  # disconnected this long: the game is forfeited
    max_line: int = 1024  # bytes per input line
    partial_line_ms: int = 30_000  # an unfinished line older than this disconnects
    # Flow control (docs/security.md): an answer to an open request is never counted
    flood_lines_per_s: float = 200.0  # sustained other input lines a connection may send
    flood_burst: float = 1000.0  # ... and at once; beyond that it is disconnected
    outbox_bytes: int = 256 * 1024  # bytes queued for a slow reader before it is dropped
    say_per_s: float = 1.0  # 'say' and 'invite' lines a connection may send, on average
    say_burst: float = 5.0  # ... and at once; beyond that: error slow-down
    # the same, for all the connections of one address together: a room of 12 behind
    # one NAT greeting each other, and a noisy one's whole burst besides
    say_per_address_per_s: float = 5.0
    say_per_address_burst: float = 40.0
    # seats given up at waiting tables (each a 'seated' and a 'left' line on the other
    # players' screens): a connection that has used these up is refused 'sit', 'seek'
    # and 'new' (error slow-down) until it has one again
    seat_churn_per_s: float = 0.2
    seat_churn_burst: float = 5.0
    # the same, for all the connections of one address together (a room of 12 choosing
    # its tables, and a noisy one's whole burst besides)
    seat_churn_per_address_per_s: float = 0.5
    seat_churn_per_address_burst: float = 40.0
    # a player whose running match another left by his own 'leave' is not matched by
    # 'seek' with that name, nor with an address two such leavers came from, this long
    # (0: never kept apart); one aborted before its first deal ended keeps his seek
    seek_apart_ms: int = 600_000
    # watchers' comings and goings told to a table: a name's coming at most once in the
    # window (and its going only if its coming was told), and at one table no more
    # comings than the rate and burst, however many connections come and go
    watch_news_window_ms: int = 60_000
    watch_news_per_s: float = 0.2
    watch_news_burst: float = 10.0
    lists_per_s: float = 5.0  # who/tables pages, help/calls/rules/history/sheet texts a second ...
    lists_burst: float = 30.0  # ... and at once; beyond that: error slow-down
    # the same, for all the connections of one address together: each a long text or a
    # look in the store for a short line, and 100 connections had 100 times one's. A
    # room of 12 behind one NAT arriving (some 5 each), and a noisy one's whole burst
    lists_per_address_per_s: float = 20.0
    lists_per_address_burst: float = 120.0
    page_size: int = 100  # names in one 'who' page, tables in one 'tables' page
    # Slots
    max_connections: int = 5000  # when full, the oldest connection not logged in is closed
    max_connections_per_address: int = 100  # 0: no limit
    login_timeout_ms: int = 15_000  # a connection not logged in by then is closed
    idle_timeout_ms: int = 900_000  # logged in and silent this long: closed ('ping' resets)
    max_tables: int = 1000  # tables open at once ('new', 'seek' and 'reserve' respect it)
    max_tables_per_address: int = 10  # waiting tables opened with 'new' from one address
    empty_table_ms: int = 10_000  # a waiting table whose players all left the server closes
    table_requests_waiting: int = 8  # calls, 'state', 'say', 'sit', 'leave' a session has queued
    # House bots ('bot KIND' at a table; docs/protocol.md §5.15, docs/security.md)
    house_bots: bool = False  # 'serve --house-bots' (make serve passes it)
    house_bots_per_table: int = 3  # at one table, at once
    max_house_bots: int = 20  # processes at once on the whole server
    house_bots_per_address: int = 6  # asked for from one address, at once (0: no limit)
    # house bots started at the word of one address, a second on average ... and at
    # once; beyond that: error slow-down (a burst of 0: no limit). A bot given up once
    # its match began frees its place in the cap above at once: this bounds the starts
    house_bot_starts_per_address_per_s: float = 0.1
    house_bot_starts_per_address_burst: float = 6.0
    house_bot_starts_per_s: float = 1.0  # on the whole server, from every address
    house_bot_starts_burst: float = 20.0  # ... and at once (0: no limit)
    # tables where search bots play at once: asked for from one address (0: no limit),
    # and on the whole server (0: no search bot). A search bot thinks on its turn for
    # its level's time, and at a table one seat has the turn: against an opponent who
    # answers at once, about a core per table, whatever their number or level there
    house_search_tables_per_address: int = 1
    max_house_search_tables: int = 4
    # the house bots run this much nicer than the server (os.nice): on a busy machine
    # the kernel serves the server's players before the bots' thinking (0: as the server)
    house_bot_nice: int = 10
    # Accounts
    hash_workers: int = 2  # threads checking passwords of registered names
    registration_workers: int = 1  # threads hashing new registrations (apart from logins)
    registrations_waiting: int = 32  # registrations queued at once; beyond that: busy
    # ... of them from one address; beyond that: slow-down to it (others still come in).
    # A club room of 12 behind one NAT registers at once (docs/security.md, "Many
    # people behind one address"); a hostile address's share leaves 20 places to others
    registrations_waiting_per_address: int = 12
    registrations_per_address: int = 20  # per registration window, from one address
    registration_window_ms: int = 3_600_000
    failed_logins_per_name: int = 5  # wrong passwords for one name per failure window
    failed_logins_per_address: int = 20  # wrong passwords from one address per window
    failure_window_ms: int = 300_000
    failed_logins_per_connection: int = 3  # then the connection is closed
    # an address a name logged in from is known to it this long: the name's limit does
    # not slow it (its own wrong passwords for the name still do): docs/security.md §1
    known_address_ms: int = 30 * 24 * 3_600_000
    # passwords hashed for logins from one address, whatever the outcome (each costs a
    # scrypt hash on one of the hash_workers): per check window, and at once (the rest
    # from it wait their turn outside the pool's queue, so they hold up no one else)
    password_checks_per_address: int = 40  # a room of 12 logging in, and twice again
    password_check_window_ms: int = 60_000
    password_checks_at_once_per_address: int = 1
    shutdown_grace_ms: int = 2000  # after SIGTERM: time to flush what is queued
    # a drain (SIGUSR1) waits this long at most for the running matches, then stops as
    # SIGTERM does (those matches cut, stored 'shutdown'); 0: as long as they last
    drain_limit_ms: int = 0
    # Several servers on one database (docs/scaling.md): each says it is alive this often;
    # one silent for server_dead_ms is dead, and its running matches are over
    heartbeat_ms: int = 5_000
    server_dead_ms: int = 30_000
    worker_restart_ms: int = 1_000  # serve --workers: a worker that died starts again after
    # serve --workers: a seek waits this long for a partner on its own worker before it
    # goes to another's (a table of two workers' players costs the bus every call)
    seek_patience_ms: int = 1_000
    # how long after a match's end its players may agree to play it again (rematch.py)
    rematch_ms: int = 60_000
    # serve --workers: the most of the workers' prints the parent keeps for a stdout
    # not read, then drops (cluster/parent_out.py)
    output_backlog_bytes: int = 4 << 20
    log_level: str = "info"
    # names that may 'reserve' tables; they are registered only with 'deberc-net admin
    # NAME' (or by the ladder on its own server), never by a first-come 'login'
    admins: list[str] = attrs.Factory(list)
    # every match's decks from this seed, for a test that plays a known match (None: a
    # fresh random seed a match, as a server must; a ladder's board has its own)
    match_seed: str | None = None

    def web_host(self) -> str:
        """The address the web face listens on: its own, else the game's."""
        return self.host if self.http_host is None else self.http_host

    def web_off(self) -> dict[str, str]:
        """What the ``listening`` log line says of the web face: ``web=off`` when there
        is none ('--http-port off', 'http_port = "off"' or none in a file; 0 is a free
        port: docs/settings.md), nothing when there is (its own line names its port)."""
        return {"web": "off"} if self.http_port is None else {}

    @classmethod
    def from_toml(cls, path: str | Path, **overrides: Any) -> Config:
        try:
            raw = Path(path).read_bytes()
        except FileNotFoundError:
            raise ValueError(
                f"there is no settings file {path}: give the path of an existing TOML file"
            ) from None
        except IsADirectoryError:
            raise ValueError(
                f"{path} is a folder, not a settings file: give a file's path"
            ) from None
        except OSError as exc:
            raise ValueError(
                f"cannot read the settings file {path}: {exc.strerror or exc}"
            ) from None
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{path}: not a TOML file: {exc}") from None
        except ValueError:  # (Python's: it reads no number of more digits than this)
            raise ValueError(
                f"{path}: a number of more than {sys.get_int_max_str_digits()} digits;"
                " no setting takes one"
            ) from None
        section = data.get("server", data)
        if not isinstance(section, dict):
            raise ValueError(f"{path}: [server] must be a table of settings")
        known = {f.name for f in attrs.fields(cls)}
        # a table other than [server] (a misspelt [srv]) holds no setting: said as a
        # table, not as a setting named like it
        tables = sorted(
            name for name, value in data.items() if name != "server" and type(value) is dict
        )
        # every problem of the file, each its own line, said at once: one at a time, an
        # operator fixed the first and restarted to be told the next (a tryout, s48)
        problems: list[str] = []
        if tables:
            problems.append(
                f"unknown table in {path}: {', '.join(f'[{name}]' for name in tables)}"
                f" (the settings are in [server]; {SETTINGS_PAGE})"
            )
        outside = sorted(  # (a table beside [server] is said as one above, not here too)
            name for name in data if name != "server" and name not in tables and section is not data
        )
        if outside:  # a setting above the [server] line would be ignored
            problems.append(f"settings outside [server] in {path}: {', '.join(outside)}")
        unknown = sorted(set(section) - known - set(tables))  # (a table: said as one)
        if unknown:
            named = ", ".join(_with_guess(name, known) for name in unknown)
            problems.append(f"unknown settings in {path}: {named} (every setting: {SETTINGS_PAGE})")
        if section.get("http_port") == WEB_OFF:  # as left out: no web face
            del section["http_port"]
        wrong: set[str] = set()
        for name, value in section.items():
            problem = setting_problem(name, value) if name in known else None
            if problem is not None:
                problems.append(f"{path}: setting {name} {problem}, not {shown(value)}")
                wrong.add(name)
        timing = {"heartbeat_ms", "server_dead_ms"}
        if not timing & wrong:  # every other server dead at once
            default = cls()
            heartbeat: int = section.get("heartbeat_ms", default.heartbeat_ms)
            dead: int = section.get("server_dead_ms", default.server_dead_ms)
            if dead <= heartbeat:
                problems.append(
                    f"{path}: setting server_dead_ms expects more than heartbeat_ms"
                    f" ({heartbeat}), not {dead!r}"
                )
        if problems:  # (a line each: cli says each with its command's name)
            raise ValueError("\n".join(problems))
        if "db" in section:  # (the command line's --db stays the current directory's)
            section["db"] = beside(path, section["db"])
        merged = {**section, **{k: v for k, v in overrides.items() if v is not None}}
        return cls(**merged)


def beside(settings_file: str | Path, db: str) -> str:
    """A settings file's ``db``, an SQLite file's path relative to the file's own folder,
    not to the current directory: a service started elsewhere (systemd's working
    directory) opens the database the file names, not a new empty one (docs/settings.md).
    A PostgreSQL address, an absolute path and ``:memory:`` stay as they are."""
    from deberc_net.server.store import is_postgres

    if is_postgres(db) or db == ":memory:" or os.path.isabs(db):
        return db
    return os.path.abspath(os.path.join(os.path.dirname(settings_file), db))


def not_an_address(db: str) -> bool:
    """Whether ``db`` is an address of another scheme than PostgreSQL's
    ('postgresql+psycopg://…', SQLAlchemy's spelling): taken for an SQLite file's path,
    it was refused as a folder to create, named whole, its password with it."""
    from deberc_net.server.store import is_postgres

    return "://" in db and not is_postgres(db)


def shown(value: object) -> str:
    """A refused value as a refusal says it: whole if short, else its start and size (a
    string of megabytes would be a line of megabytes on the operator's terminal); an
    address's password as ``***`` (a ``db`` mistyped)."""
    if isinstance(value, int) and value.bit_length() > 80:  # some 24 digits
        return f"a whole number of {len(str(value))} digits"
    if isinstance(value, str):
        from deberc_net.server.store import without_password

        value = without_password(value)
    said = repr(value)
    if len(said) > 80:
        size = f"{len(value)} items" if isinstance(value, list) else f"{len(said)} characters"
        return f"{said[:60]}… ({size})"
    return said


def _with_guess(name: str, known: set[str]) -> str:
    """An unknown setting's name, with the known one it was likely meant to be."""
    close = difflib.get_close_matches(name, known, n=1)
    return f"{name} ({close[0]}?)" if close else name


# the clocks' least for a program's own Config: a clock a person cannot meet is an
# operator's typo in a file, but a ladder of bots (or a test) means a short one
_CODE_LEAST = {"human_clock_ms": 1, "bot_clock_ms": 1}


def setting_problem(name: str, value: object, *, in_code: bool = False) -> str | None:
    """What is wrong with ``value`` for the setting ``name`` ("expects ..."), or None.
    A settings file has no null, so an optional setting's value must be of its type.
    ``in_code``: a Config built by a program, whose clocks may be shorter."""
    kind = str(attrs.fields_dict(Config)[name].type).removesuffix(" | None")
    fits = {
        "int": type(value) is int,
        "float": type(value) in (int, float),
        "bool": type(value) is bool,
        "str": type(value) is str,
        "list[str]": type(value) is list and all(type(item) is str for item in value),
    }[kind]
    if not fits or value != value:  # TOML's nan is not a number either
        if name == "http_port":  # (a file's "off" is none: Config.from_toml)
            return f'expects a port number or "{WEB_OFF}"'
        return f"expects {_EXPECTS[kind]}"
    bounds = RANGES.get(name)
    if bounds is not None and in_code and name in _CODE_LEAST:
        bounds = attrs.evolve(bounds, least=_CODE_LEAST[name])
    if isinstance(value, int | float) and bounds and not bounds.least <= value <= bounds.most:
        what = "a port number" if name in ("port", "http_port") else _EXPECTS[kind]
        unit = "" if what == bounds.unit else f" ({bounds.unit})"
        return f"expects {what}, {bounds.least} to {bounds.most}{unit}"
    if name == "match_seed" and not value:  # '' would mean a fresh random seed a match
        return "expects a non-empty string (leave it out for a random seed a match)"
    if name == "http_host" and not value:  # '' would be every address, not the game's
        return "expects an address to listen on (leave it out for the game's host)"
    if name == "host" and not value:  # (it failed to listen, "Name or service not known")
        return 'expects an address to listen on ("0.0.0.0" for every address)'
    if name == "db" and not value:  # (in a file: its folder, opened as a database)
        return "expects an SQLite file's path or a postgresql:// address"
    if name == "db" and isinstance(value, str) and not_an_address(value):
        return "expects an SQLite file's path or a postgresql:// address"
    if name in ("host", "http_host") and isinstance(value, str) and not _is_host(value):
        # (a part past 63 letters failed the start with a traceback, not a refusal)
        return "expects an address or a host name (at most 253 characters, 63 between dots)"
    if name in _PROXY_LISTS and isinstance(value, list):
        fault = next((f for f in map(_network_fault, value) if f is not None), None)
        if fault is not None:
            such = 'IP addresses or networks such as "10.0.0.0/8" or "::1"'
            return f"expects {such} ({fault})"
    if name == "admins" and isinstance(value, list):
        # a name no login can have ('boss, ana' as one string) would make nobody admin
        from deberc_net.server.names import valid_name

        wrong = next((item for item in value if not valid_name(item)), None)
        if wrong is not None:
            rule = "each its own string of 2-20 letters, digits, '_' or '-'"
            return f"expects names, {rule} ({shown(wrong)} is not one)"
    if name == "log_level" and str(value).lower() not in LOG_LEVELS:
        return "expects a log level (debug, info, warning, error)"
    return None


def _is_host(text: str) -> bool:
    """An address or a name the resolver takes: DNS's 253 characters at most, no part
    between dots empty or past 63 (Python's idna codec refuses those, a UnicodeError)."""
    try:
        text.encode("idna")
    except UnicodeError:
        return False
    return len(text) <= 253


def _network_fault(text: str) -> str | None:
    """What is wrong with ``text`` as an address or a network, or None. One with host
    bits set ('10.0.0.1/8') is refused, not widened: what it meant to trust is unclear;
    its refusal says so and names the network it may have meant (it said 'neither an
    address nor a network', and the operator looked for a typo)."""
    try:
        ipaddress.ip_network(text)
    except ValueError:
        pass
    else:
        return None
    try:
        widened = ipaddress.ip_network(text, strict=False)
    except ValueError:
        return f"{shown(text)} is neither"
    return f"{shown(text)} has host bits set: the network is {shown(str(widened))}"


def cannot_listen(host: str, port: int | None, exc: OSError, *, web: bool = False) -> str:
    """What ``serve`` says of an address it cannot listen on (one server's port, its web
    face's: ``web``, or ``--workers``' shared port), and which settings name it: an
    owner told 'cannot listen on 10.9.9.9:0 (web)' looked for the web face's address
    under host (docs/settings.md)."""
    what = " (web)" if web else ""
    return (
        f"cannot listen on {host}:{port}{what}: {exc.strerror or exc}; set by {listen_set_by(web)}"
    )


# the settings that name the address ``serve`` listens on, and their flags: the game
# port's, the web face's
LISTEN_SETTINGS = {
    False: (("host", "--host"), ("port", "--port")),
    True: (("http_host", "--http-host"), ("http_port", "--http-port")),
}


def listen_set_by(web: bool, given: Mapping[str, str] | None = None) -> str:
    """Which settings name the address ``cannot_listen`` refuses: both, with their flags;
    with ``given`` (where ``serve`` read each it was given: its flag, or the settings
    file's path; a setting not in it was its default), where each came from, two from
    one file said once. A port from the settings file was said 'set by host and port
    (--host, --port)', and an operator looked for a flag he had not given."""
    (host, host_flag), (port, port_flag) = LISTEN_SETTINGS[web]
    if given is None:
        return f"{host} and {port} ({host_flag}, {port_flag})"
    came = [given.get(host), given.get(port)]
    if came[0] is not None and came[0] == came[1] and not came[0].startswith("--"):
        return f"{host} and {port} in {came[0]}"  # one file's
    named = [
        f"{name}'s default" if at is None else at if at.startswith("--") else f"{name} in {at}"
        for name, at in zip((host, port), came, strict=True)
    ]
    if web and came[0] is None:  # an unset http_host is no default of its own
        named[0] = f"the game's host ({host} unset)"
    return " and ".join(named)
