"""A settings file (`deberc-net serve --config FILE.toml`): every value is checked
against its setting before the server starts, and a bad one stops `serve` with status 2
and a line naming it, before anything is opened."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import attrs
import pytest

from deberc_net.cli import build_parser, main, serve_config
from deberc_net.server.config import RANGES, Config, setting_problem


def _settings(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "server.toml"
    path.write_text(f"[server]\n{text}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('port = "x"', "setting port expects a whole number, not 'x'"),
        ("port = 7501.0", "setting port expects a whole number, not 7501.0"),
        ("port = 70000", "setting port expects a port number, 0 to 65535"),
        # (the kernel's option is a C int: a traceback at the web face's start)
        ("web_send_timeout_ms = 2147483648", "web_send_timeout_ms expects a whole number, 0 to"),
        ("http_port = true", 'setting http_port expects a port number or "off", not True'),
        ("max_line = -1", "setting max_line expects a whole number, 256 to 65536"),
        ('say_per_s = "fast"', "setting say_per_s expects a number, not 'fast'"),
        ("house_bots = 1", "setting house_bots expects true or false, not 1"),
        ('admins = "boss"', "setting admins expects a list of strings, not 'boss'"),
        # no login can be that name: the file seemed to name an admin, and named none
        ('admins = ["boss, ana"]', "setting admins expects names, each its own string of"),
        ('admins = ["boss", "bo ss"]', "2-20 letters, digits, '_' or '-' ('bo ss' is not one)"),
        ('admins = ["b"]', "setting admins expects names, each its own string of 2-20"),
        ('match_seed = ""', "setting match_seed expects a non-empty string"),
        ("match_seed = 7", "setting match_seed expects a string, not 7"),
        ('log_level = "loud"', "setting log_level expects a log level"),
        # Python's other level names: "critical" dropped every error line to alert on
        ('log_level = "critical"', "log_level expects a log level (debug, info, warning, error"),
        ('log_level = "notset"', "setting log_level expects a log level"),
        ('log_level = "warn"', "setting log_level expects a log level"),
        ("say_per_s = nan", "setting say_per_s expects a number, not nan"),
        # 0 would divide by zero ('who'), never finish a login, beat without a pause
        ("page_size = 0", "setting page_size expects a whole number, 1 to 1000 (names or"),
        ("hash_workers = 0", "setting hash_workers expects a whole number, 1 to 256"),
        ("registration_workers = 0", "setting registration_workers expects a whole number, 1"),
        ("heartbeat_ms = 0", "setting heartbeat_ms expects a whole number, 1 to"),
        # a line shorter than a login lets nobody in; no connection at all, nobody
        ("max_line = 0", "setting max_line expects a whole number, 256 to 65536 (bytes: a login"),
        ("max_line = 10", "setting max_line expects a whole number, 256 to"),
        ("max_connections = 0", "setting max_connections expects a whole number, 1 to"),
        ("outbox_bytes = 0", "setting outbox_bytes expects a whole number, 1 to"),
        ("table_requests_waiting = 0", "setting table_requests_waiting expects a whole"),
        ("server_dead_ms = 5000", "setting server_dead_ms expects more than heartbeat_ms"),
        ("heartbeat_ms = 40000", "setting server_dead_ms expects more than heartbeat_ms"),
    ],
)
def test_a_bad_value_is_refused_naming_its_setting_and_what_it_expects(
    tmp_path: Path, line: str, said: str
) -> None:
    path = _settings(tmp_path, line)
    with pytest.raises(ValueError) as info:
        Config.from_toml(path)
    assert str(info.value).startswith(f"{path}: ") and said in str(info.value)


def test_the_least_values_allowed_are_taken(tmp_path: Path) -> None:
    config = Config.from_toml(_settings(tmp_path, "max_line = 256\nmax_connections = 1"))
    assert (config.max_line, config.max_connections) == (256, 1)


@pytest.mark.parametrize(
    ("settings", "flags", "said"),
    [
        (
            "port = 7611\nhttp_port = 7611",
            [],
            "the web face's port 7611 (http_port in {path}) is the game's port too "
            "(port in {path}): give the web face another (--http-port off: none)",
        ),
        (
            "http_port = 7501",
            [],
            "port 7501 (http_port in {path}) is the game's port too (the game's default)",
        ),
        (
            "http_port = 7611",
            ["--port", "7611"],
            "(http_port in {path}) is the game's port too (--port)",
        ),
        (
            "port = 7611",
            ["--http-port", "7611"],
            "(--http-port) is the game's port too (port in {path})",
        ),
        (
            None,
            ["--port", "7580"],
            "port 7580 (the web face's default) is the game's port too (--port)",
        ),
    ],
)
def test_the_web_face_on_the_games_port_names_where_each_was_set(
    tmp_path: Path, settings: str | None, flags: list[str], said: str
) -> None:
    """A file's http_port equal to its port was refused in the words of the --http-port
    and --port flags, which the operator had not given."""
    argv = ["serve", "--db", str(tmp_path / "s.sqlite3"), *flags]
    path = None
    if settings is not None:
        path = _settings(tmp_path, settings)
        argv += ["--config", str(path)]
    with pytest.raises(ValueError) as info:
        serve_config(build_parser().parse_args(argv))
    assert said.format(path=path) in str(info.value)


def test_serve_help_says_a_settings_file_decides_the_web_face() -> None:
    """``--help`` said 'default 7580', but with --config and no http_port there is none."""
    serve = next(
        action.choices["serve"]
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    said = " ".join(serve.format_help().split())
    assert "default 7580, but with --config the file's http_port, none if it has none" in said


def test_good_values_are_taken_a_whole_number_for_a_number_too(tmp_path: Path) -> None:
    path = _settings(
        tmp_path,
        'port = 0\nhttp_port = 0\nsay_per_s = 2\nhouse_bots = true\nadmins = ["boss"]\n'
        'match_seed = "s1"\nlog_level = "WARNING"',
    )
    config = Config.from_toml(path)
    assert (config.port, config.http_port, config.say_per_s) == (0, 0, 2)
    assert config.house_bots is True and config.admins == ["boss"]
    assert (config.match_seed, config.log_level) == ("s1", "WARNING")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('port = "x"', "server.toml: setting port expects a whole number, not 'x'"),
        ("prot = 7501", "unknown settings in"),
        ("port = ", "server.toml: not a TOML file: Invalid value (at line 2"),
    ],
)
def test_serve_exits_2_on_a_bad_settings_file_before_opening_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    path = tmp_path / "server.toml"
    path.write_text(f"[server]\n{text}\n", encoding="utf-8")
    db = tmp_path / "serve.sqlite3"
    assert main(["serve", "--config", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deberc-net serve: ") and said in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not db.exists()


def test_every_problem_of_a_settings_file_is_said_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two bad values were told one by one (the first alone, then the next once it was
    fixed), and an unknown setting hid a bad value after it (a tryout, s48): each
    problem of the file is its own line, in one go, then status 2 as before."""
    path = tmp_path / "server.toml"
    path.write_text(
        "[server]\nhuman_clock_ms = 100\nprot = 7501\nmax_line = 10\nsay_per_s = 2\n"
        "server_dead_ms = 5000\n",
        encoding="utf-8",
    )
    db = tmp_path / "serve.sqlite3"
    assert main(["serve", "--config", str(path), "--db", str(db)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        f"deberc-net serve: unknown settings in {path}: prot (port?) (every setting: "
        "docs/settings.md)",
        f"deberc-net serve: {path}: setting human_clock_ms expects a whole number, 5000 to "
        "86400000 (milliseconds a call, a day at most), not 100",
        f"deberc-net serve: {path}: setting max_line expects a whole number, "
        f"{RANGES['max_line'].least} to 65536 (bytes: a login must fit), not 10",
        f"deberc-net serve: {path}: setting server_dead_ms expects more than heartbeat_ms "
        "(5000), not 5000",
    ], lines
    assert not db.exists()
    # a store command reading the file says them alike, a line each
    assert main(["admin", "boss", "--config", str(path)]) == 2
    said = capsys.readouterr().err.splitlines()
    assert [x.split(": ", 1)[1] for x in said] == [x.split(": ", 1)[1] for x in lines], said
    assert all(x.startswith("deberc-net admin: ") for x in said), said


def test_serve_exits_2_when_the_server_table_is_not_a_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "server.toml"
    path.write_text("server = 5\n", encoding="utf-8")
    assert main(["serve", "--config", str(path), "--db", str(tmp_path / "s.sqlite3")]) == 2
    assert "[server] must be a table of settings" in capsys.readouterr().err


def test_every_settings_default_passes_its_own_check() -> None:
    """A new setting of a kind the check does not know fails here, not in a user's serve."""
    defaults = Config()
    for field in attrs.fields(Config):
        value = getattr(defaults, field.name)
        if value is not None:
            assert setting_problem(field.name, value) is None, field.name


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("human_clock_ms = 5", "setting human_clock_ms expects a whole number, 5000 to"),
        ("human_clock_ms = 4999", "setting human_clock_ms expects a whole number, 5000 to"),
        ("bot_clock_ms = 0", "setting bot_clock_ms expects a whole number, 100 to"),
        ("bot_clock_ms = 99", "setting bot_clock_ms expects a whole number, 100 to"),
    ],
)
def test_a_clock_too_short_to_play_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, said: str
) -> None:
    """5 ms a call would forfeit every seat on time (tryout s9, finding 10): a typo
    stops serve, naming the setting, before anything is opened."""
    path = _settings(tmp_path, line)
    db = tmp_path / "serve.sqlite3"
    assert main(["serve", "--config", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert said in err and "(milliseconds a call" in err, err
    assert not db.exists()


def test_the_shortest_clocks_allowed_are_taken(tmp_path: Path) -> None:
    config = Config.from_toml(_settings(tmp_path, "human_clock_ms = 5000\nbot_clock_ms = 100"))
    assert (config.human_clock_ms, config.bot_clock_ms) == (5000, 100)


@pytest.mark.parametrize(
    ("settings", "timing", "dead_for_one"),
    [
        (None, (1000, 5000), 30000),  # no file: the workers' own
        ("say_per_s = 2", (1000, 5000), 30000),  # a file that leaves both out: the same
        ("server_dead_ms = 60000", (5000, 60000), 60000),  # given: as given
        ("heartbeat_ms = 2000", (2000, 30000), 30000),
    ],
)
def test_workers_on_one_host_take_a_dead_worker_for_dead_in_seconds(
    tmp_path: Path, settings: str | None, timing: tuple[int, int], dead_for_one: int
) -> None:
    """The 30 s of silence after which a server is dead suit servers on other hosts;
    under '--workers N' a killed worker's tables and players would linger that long in
    the others' lobbies (tryout s9, finding 12, docs/scaling.md)."""
    argv = ["serve", "--workers", "2", "--db", "postgresql://nobody@127.0.0.1/none"]
    if settings is not None:
        argv += ["--config", str(_settings(tmp_path, settings))]
    config = serve_config(build_parser().parse_args(argv))
    assert (config.heartbeat_ms, config.server_dead_ms) == timing
    plain = serve_config(build_parser().parse_args([argv[0], *argv[3:]]))  # one process
    assert plain.server_dead_ms == dead_for_one


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a misspelt table is said as a table, not as a setting named like it
        ("[srv]\nmax_line = 5", "unknown table in {path}: [srv] (the settings are in [server]"),
        ("[server]\nport = 0\n[limits]\nmax_line = 5", "unknown table in {path}: [limits]"),
        # above the [server] line a setting would be ignored
        ("max_line = 5\n[server]\nport = 0", "settings outside [server] in {path}: max_line"),
        # an unknown setting: the one likely meant, and where every setting is listed
        (
            "[server]\nprot = 7501\nfrobnicate = 3",
            "unknown settings in {path}: frobnicate, prot (port?) (every setting: "
            "docs/settings.md)",
        ),
    ],
)
def test_an_unknown_table_or_setting_is_said_for_what_it_is(
    tmp_path: Path, text: str, said: str
) -> None:
    path = tmp_path / "server.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as info:
        Config.from_toml(path)
    assert said.format(path=path) in str(info.value)


@pytest.mark.parametrize(
    ("text", "outside"),
    [
        ("[server]\nport = 0\n[limits]\nmax_line = 5", None),
        ("log_level = 'debug'\n[server]\nport = 0\n[srv]\nmax_line = 5", "log_level"),
    ],
    ids=["table-alone", "table-and-setting"],
)
def test_a_table_beside_server_is_said_as_a_table_only_not_as_a_setting_outside_too(
    tmp_path: Path, text: str, outside: str | None
) -> None:
    """A tryout's file (s50) with a misspelt [srv] beside [server] was told both
    'unknown table in club.toml: [srv]' and 'settings outside [server] in club.toml:
    …, srv', the table's name listed among the settings above the [server] line."""
    path = tmp_path / "server.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as info:
        Config.from_toml(path)
    lines = str(info.value).splitlines()
    assert [line for line in lines if line.startswith("unknown table")] == [
        f"unknown table in {path}: [{'limits' if outside is None else 'srv'}] (the settings"
        " are in [server]; docs/settings.md)"
    ]
    said = [line for line in lines if line.startswith("settings outside")]
    assert said == ([] if outside is None else [f"settings outside [server] in {path}: {outside}"])


def test_settings_without_a_server_table_are_still_read(tmp_path: Path) -> None:
    path = tmp_path / "server.toml"
    path.write_text("max_line = 300\n", encoding="utf-8")
    assert Config.from_toml(path).max_line == 300


@pytest.mark.parametrize(
    ("line", "said"),
    [
        # a clock of years: a silent player held his table for good
        (
            "human_clock_ms = 100000000000000000000",
            "setting human_clock_ms expects a whole number, 5000 to 86400000 (milliseconds"
            " a call, a day at most), not 100000000000000000000",
        ),
        ("bot_clock_ms = 86400001", "setting bot_clock_ms expects a whole number, 100 to 86400000"),
        # an outbox of terabytes, a line of gigabytes held for one client
        ("outbox_bytes = 1000000000000", "setting outbox_bytes expects a whole number, 1 to"),
        ("max_line = 1000000000000", "setting max_line expects a whole number, 256 to 65536"),
        # SQLite took no such LIMIT: every 'top' failed (internal)
        ("page_size = 100000000000000000000", "setting page_size expects a whole number, 1 to"),
        # a stop after SIGTERM that never came
        ("shutdown_grace_ms = 100000000000", "setting shutdown_grace_ms expects a whole number"),
        # past a float: the start-up failed with a traceback
        ("login_timeout_ms = 1" + "0" * 400, "login_timeout_ms expects a whole number, 1000 to"),
        ("server_dead_ms = 1" + "0" * 400, "not a whole number of 401 digits"),
        # a rate or burst of inf (TOML's) or 1e12: a limit that limits nothing
        ("say_burst = inf", "setting say_burst expects a number, 0 to 1000000 (at once), not inf"),
        ("flood_lines_per_s = 1e12", "setting flood_lines_per_s expects a number, 0 to 1000000"),
        ("lists_per_s = +inf", "setting lists_per_s expects a number, 0 to 1000000 (a second)"),
        ("web_socket_frames_burst = -inf", "web_socket_frames_burst expects a number, 0 to"),
        ("seat_churn_burst = 1e400", "setting seat_churn_burst expects a number, 0 to 1000000"),
        ("failed_logins_per_name = 1000000", "failed_logins_per_name expects a whole number, 0"),
        ("hash_workers = 100000", "setting hash_workers expects a whole number, 1 to 256"),
        ("house_bot_nice = 20", "house_bot_nice expects a whole number, 0 to 19"),
        ("known_address_ms = 31536000001", "known_address_ms expects a whole number, 0 to"),
        # a float where a whole number goes, a true where a number does
        ("human_clock_ms = 6e4", "setting human_clock_ms expects a whole number, not 60000.0"),
        ("say_per_s = true", "setting say_per_s expects a number, not True"),
    ],
)
def test_a_number_past_its_range_is_refused_naming_it_and_the_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, said: str
) -> None:
    """An extra zero, seconds as milliseconds, 1e12 or inf was taken silently: a clock of
    years, an outbox of terabytes, a limit that limits nothing, a traceback at the start
    or the stop. Now serve stops with status 2 and one line, before opening anything."""
    path = _settings(tmp_path, line)
    db = tmp_path / "serve.sqlite3"
    assert main(["serve", "--config", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"deberc-net serve: {path}: ") and said in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not db.exists()


def test_the_ends_of_every_range_are_taken(tmp_path: Path) -> None:
    """Both ends are the setting's own (a heartbeat at its most, its dead time above)."""
    for end in ("least", "most"):
        values = {name: getattr(bounds, end) for name, bounds in RANGES.items()}
        values["server_dead_ms"] = values["heartbeat_ms"] + 1
        text = "\n".join(f"{name} = {value}" for name, value in values.items())
        config = Config.from_toml(_settings(tmp_path, text))
        assert all(getattr(config, name) == value for name, value in values.items()), end


def test_every_number_setting_has_a_range() -> None:
    """A number setting added without a range would take a typo's 1e12 silently."""
    numbers = {
        field.name
        for field in attrs.fields(Config)
        if str(field.type).removesuffix(" | None") in ("int", "float")
    }
    assert set(RANGES) == numbers


def test_a_number_too_long_for_python_is_said_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TOML has no limit of digits, Python reads 4300: the error said to call
    sys.set_int_max_str_digits() and named no file."""
    path = _settings(tmp_path, "human_clock_ms = 1" + "0" * 5000)
    assert main(["serve", "--config", str(path), "--db", str(tmp_path / "s.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"deberc-net serve: {path}: a number of more than 4300 digits; no setting takes one\n"
    )


def test_a_long_refused_value_is_said_cut_short(tmp_path: Path) -> None:
    """A refusal quoted the whole value: a megabyte's string was a megabyte's line."""
    path = _settings(tmp_path, f'log_level = "{"x" * 1_000_000}"')
    with pytest.raises(ValueError) as info:
        Config.from_toml(path)
    said = str(info.value)
    assert len(said) < 300 and said.endswith("… (1000002 characters)"), said


@pytest.mark.parametrize("count", ["0", "257", "100000"])
def test_serve_refuses_workers_out_of_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], count: str
) -> None:
    """--workers 100000 (an extra zero or two) started that many servers."""
    argv = ["serve", "--workers", count, "--db", "postgresql://nobody@127.0.0.1/none"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"deberc-net serve: --workers takes a whole number from 1 to 256, not {count}\n"


@pytest.mark.parametrize(
    ("argv", "settings", "said"),
    [
        ([], f'host = "{"a" * 64}"', "setting host expects an address or a host name"),
        ([], 'http_host = "a..b"', "setting http_host expects an address or a host name"),
        ([], f'host = "{"a." * 200}"', "(at most 253 characters, 63 between dots), not 'a.a."),
        (["--host", "b" * 64], None, "--host expects an address or a host name (at most 253"),
        (["--http-host", ".x"], None, "--http-host expects an address or a host name"),
    ],
)
def test_a_host_the_resolver_cannot_take_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    settings: str | None,
    said: str,
) -> None:
    """A part of a host name past 63 letters (or empty) stopped serve with Python's
    idna traceback as it bound the port, not a refusal naming the setting."""
    argv = ["serve", "--port", "0", "--db", str(tmp_path / "s.sqlite3"), *argv]
    if settings is not None:
        argv += ["--config", str(_settings(tmp_path, settings))]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("deberc-net serve: ") and said in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "s.sqlite3").exists()


def test_the_longest_host_names_are_taken(tmp_path: Path) -> None:
    name = ".".join(["a" * 63] * 4)[:253]
    config = Config.from_toml(_settings(tmp_path, f'host = "{name}"\nhttp_host = "::1"'))
    assert (config.host, config.http_host) == (name, "::1")


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"outbox_bytes": -1}, "setting outbox_bytes expects a whole number, 1 to"),
        ({"max_line": 0}, "setting max_line expects a whole number, 256 to"),
        ({"max_connections": 0}, "setting max_connections expects a whole number, 1 to"),
        ({"flood_burst": float("nan")}, "setting flood_burst expects a number, not nan"),
        ({"say_per_s": -0.5}, "setting say_per_s expects a number, 0 to"),
        ({"human_clock_ms": 10**12}, "setting human_clock_ms expects a whole number"),
        ({"port": True}, "setting port expects a whole number, not True"),
        ({"log_level": "loud"}, "setting log_level expects a log level"),
    ],
)
def test_a_config_built_in_code_is_checked_as_a_file_is(
    settings: dict[str, object], said: str
) -> None:
    """A library caller's Config(...) was taken as it came: a negative outbox or a zero
    line length made a server that dropped every client, with no word of why."""
    with pytest.raises(ValueError, match=r"^Config: " + re.escape(said)):
        Config(**settings)  # type: ignore[arg-type]


def test_a_config_is_checked_when_a_setting_is_changed_too() -> None:
    config = Config(http_port=None)  # an optional setting's None is its own value
    config.outbox_bytes = 1024
    with pytest.raises(ValueError, match=r"^Config: setting outbox_bytes expects"):
        config.outbox_bytes = 0
    assert config.outbox_bytes == 1024
