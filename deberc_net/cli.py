"""The ``deberc-net`` command."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import deberc_net
from deberc_net.process_exit import freeze_heap_at_exit
from deberc_net.start_up import collector_paused, resume

# Each command imports what it uses, when it runs: --help, --version and the store
# commands do not import the engine, the plugins or trio (a process's start-up).
if TYPE_CHECKING:
    from deberc_net.ladder.results import Summary
    from deberc_net.ladder.runner import LadderOptions
    from deberc_net.ladder.store import LadderStore
    from deberc_net.plugins import PluginError, RuleBook
    from deberc_net.server.config import Config
    from deberc_net.server.store import Store


MOST_LEASE_S = 86400.0  # a ladder board's lease at most (ladder worker --lease-s): a day


def _rule_book(command: str) -> RuleBook | None:
    """Load every rule plugin once, at start-up; None (after saying why) if one is broken."""
    from deberc_net.plugins import PluginError, RuleBook

    try:
        return RuleBook.load()
    except PluginError as exc:
        _say_broken_plugin(command, exc)
        return None


def _say_broken_plugin(command: str, exc: PluginError) -> None:
    """A plugin that cannot load, as every command says it (docs/plugins.md): the
    rule, its distribution and why, then which distribution to fix or uninstall."""
    print(f"deberc-net {command}: {exc}", file=sys.stderr)
    either = " or ".join(repr(name) for name in exc.distributions)
    print(f"deberc-net {command}: fix or uninstall distribution {either}", file=sys.stderr)


def _read_rule_names(book: RuleBook, args: argparse.Namespace) -> None:
    """--variant and --option read as 'new' and 'seek' read them on the wire
    (docs/protocol.md §5.3): in any case, a variant as a club spells it ('Kharkov',
    'терц'). A word that names no rule stays as typed, for the rule book to refuse."""
    from deberc_net.plugins.naming import rule_named, variant_named

    args.variant = variant_named(args.variant, book) or args.variant
    args.option = [rule_named(word, book) for word in args.option]


def _structlog_without_rich() -> None:
    """Import structlog without rich when our logs are JSON lines (stderr is not a
    terminal): structlog imports rich at its own import for the console's pretty
    tracebacks, which JSON lines never use, and rich was a fifth of a server's start-up
    CPU (docs/performance.md). rich stays importable (the ladder's progress bar). And
    without asyncio, unless something uses it: structlog imports it for its async
    methods, which our trio code never calls (deberc_net/asyncio_on_use.py)."""
    if "structlog" in sys.modules:
        return
    from deberc_net.asyncio_on_use import asyncio_on_use

    without_rich = not sys.stderr.isatty() and "rich" not in sys.modules
    with asyncio_on_use():
        if without_rich:  # `import rich` raises ImportError
            sys.modules["rich"] = None  # type: ignore[assignment]
        try:
            import structlog  # noqa: F401
        finally:
            if without_rich:
                del sys.modules["rich"]


def _selfplay(args: argparse.Namespace) -> int:
    from deberc_net.plugins import RuleError
    from deberc_net.selfplay import run

    book = _rule_book("selfplay")
    if book is None:
        return 2
    _read_rule_names(book, args)
    try:
        rules = book.ruleset(args.players, args.variant, args.option)
    except RuleError as exc:
        print(f"deberc-net selfplay: {exc}", file=sys.stderr)
        return 2
    try:
        with contextlib.ExitStack() as stack:
            out = None
            if args.records:
                out = stack.enter_context(open(args.records, "w", encoding="utf-8"))
            summary = run(rules, args.games, args.seed, out)
    except OSError as exc:
        # the records file's (the engine does no I/O): a missing or read-only folder,
        # before any deal, or a disk that fills mid-way, at a write or at the close's
        # last flush; a reader gone (--records /dev/stdout | head) is _main's, quiet
        if not args.records or isinstance(exc, BrokenPipeError):
            raise
        print(f"deberc-net selfplay: cannot write {args.records}: {exc.strerror}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary.as_dict(), sort_keys=True))
    else:
        print(summary.text())
    return 0


DEFAULT_HTTP_PORT = 7580
ADMIN_PASSWORD_ENV = "DEBERC_ADMIN_PASSWORD"  # ladder run --server's, if not given
LADDER_CLOCK_MS = 3000  # ladder run --clock-ms's default: its own server's clock a call
LADDER_AWAY_MS = 5000  # ladder run --away-ms's default: its own server's away limit
# the options of 'ladder run' that only the ladder's own server takes, each with what it
# sets there and the Config setting a --server's own applies instead: a --server run
# given one is warned, once for each (it played on silently by the other server's)
OWN_SERVER_ONLY = (
    ("--clock-ms", "clock_ms", "clock", "bot_clock_ms"),
    ("--away-ms", "away_ms", "away limit", "away_limit_ms"),
)
StoreT = TypeVar("StoreT")
T = TypeVar("T")


def _open_store(command: str, opener: Callable[[str], StoreT], db: str) -> StoreT | None:
    """A store for a one-shot command; None (after saying why) if it cannot be opened."""
    from deberc_net.server.store import StoreError

    try:
        return opener(db)
    except StoreError as exc:
        print(f"deberc-net {command}: {exc}", file=sys.stderr)
        return None


def said_each(command: str, problems: str) -> None:
    """A refusal on stderr, each of its lines (a settings file's problems, said at once)
    with the command's name, as a refusal of one line is."""
    for line in problems.splitlines():
        print(f"{command}: {line}", file=sys.stderr)


def serve_config(args: argparse.Namespace) -> Config:
    """The server's Config from 'serve''s arguments (the file, then the flags over it)."""
    from deberc_net.server.config import WEB_OFF, Config, setting_problem, shown

    overrides = {"host": args.host, "port": args.port, "db": args.db, "http_host": args.http_host}
    http_port = _http_port_flag(args.http_port)
    for flag, name, given in (
        ("--host", "host", args.host),
        ("--http-host", "http_host", args.http_host),
        ("--port", "port", args.port),
        ("--http-port", "http_port", None if http_port == WEB_OFF else http_port),
        ("--db", "db", args.db),
    ):
        if given is not None:  # said as the flag's, before a Config refuses it
            problem = setting_problem(name, given)
            if problem is not None:
                raise ValueError(f"{flag} {problem}, not {shown(given)}")
    if args.config:
        config = Config.from_toml(args.config, **overrides)
    else:
        config = Config(**{k: v for k, v in overrides.items() if v is not None})
    if args.house_bots:
        config.house_bots = True
    # 'off' turns the web face off, as in the file; the command line's 0 was refused
    if http_port == WEB_OFF:
        config.http_port = None
    elif isinstance(http_port, int):
        config.http_port = http_port
    elif config.http_port is None and not args.config:
        config.http_port = DEFAULT_HTTP_PORT
    for flag, name, port in (
        ("--port", "port", config.port),
        ("--http-port", "http_port", config.http_port),
    ):
        problem = None if port is None else setting_problem(name, port)
        if problem is not None:  # (the settings' own range, said as the flag's)
            raise ValueError(f"{flag} {problem}, not {port}")
    if args.workers > 1:  # one host: a dead worker is noticed in seconds
        from deberc_net.server.cluster.launch import workers_timing

        config = workers_timing(config, args.config)
    if config.http_port == config.port != 0:
        raise ValueError(_same_ports(args, config.port))
    return config


def _http_port_flag(given: str | None) -> int | str | None:
    """``--http-port``'s value: a port number, WEB_OFF, or None (not given); ValueError,
    said as the flag's, for anything else, and for 0, which once meant off there while
    a settings file's ``http_port = 0`` is a free port (docs/settings.md): a script that
    meant off is told what to type, not given a web face on some port."""
    from deberc_net.server.config import WEB_OFF

    if given is None or given == WEB_OFF:
        return given
    try:
        port = int(given, 10)
    except ValueError:
        raise ValueError(f"--http-port expects a port number or {WEB_OFF}, not {given!r}") from None
    if port == 0:
        raise ValueError(
            f"--http-port 0 no longer turns the web face off: give --http-port {WEB_OFF} for"
            " none (0 would be a free port, as http_port = 0 is in a settings file)"
        )
    return port


def _same_ports(args: argparse.Namespace, port: int) -> str:
    """What 'serve' says of a web face on the game's port, naming where the operator
    set each: a flag, the settings file, or neither (a default)."""
    from deberc_net.server.config import WEB_OFF

    given = _set_in_file(args.config) if args.config else set()
    if args.http_port is not None:
        web = "--http-port"
    elif "http_port" in given:
        web = f"http_port in {args.config}"
    else:
        web = "the web face's default"
    if args.port is not None:
        game = "--port"
    elif "port" in given:
        game = f"port in {args.config}"
    else:
        game = "the game's default"
    return (
        f"the web face's port {port} ({web}) is the game's port too ({game}): "
        f"give the web face another (--http-port {WEB_OFF}: none)"
    )


def _where_set(args: argparse.Namespace, said: str) -> str:
    """``said`` (a refusal of serve's), an address it cannot listen on naming where its
    settings came from: a flag, the settings file, a default, as a web face on the
    game's port is said (_same_ports); its server said only which settings they are."""
    from deberc_net.server.config import LISTEN_SETTINGS, listen_set_by

    for web, settings in LISTEN_SETTINGS.items():
        generic = f"; set by {listen_set_by(web)}"
        if not said.endswith(generic):
            continue
        in_file = _set_in_file(args.config) if args.config else set()
        given = {
            name: flag if getattr(args, name) is not None else args.config
            for name, flag in settings
            if getattr(args, name) is not None or name in in_file
        }
        return f"{said.removesuffix(generic)}; set by {listen_set_by(web, given)}"
    return said


def _set_in_file(path: str) -> set[str]:
    """The settings the file at ``path`` gives (read again once ``Config.from_toml``
    has checked it: only to say where a value came from)."""
    import tomllib
    from pathlib import Path

    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    return set(data.get("server", data))


def _hold_the_drain() -> list[int]:
    """SIGUSR1 (a drain, docs/protocol.md §11.4a) from here on is kept, not the end of
    the process its default would be: the list gets each one, until the server (or the
    parent of --workers) takes the signal over and begins the drain once it serves."""
    import signal

    from deberc_net.hangup import drain

    held: list[int] = []
    for signum in drain():  # (none on Windows)
        signal.signal(signum, lambda signum, _frame: held.append(signum))
    return held


def _serve(args: argparse.Namespace) -> int:
    if args.workers != 1:  # the parent of --workers lives on with its collector
        return _serve_now(args)
    with collector_paused():  # on again once it listens, its start-up frozen (running.py)
        return _serve_now(args)


def _serve_now(args: argparse.Namespace) -> int:
    # first: the settings, the imports and the rules take a good part of a second
    drains = _hold_the_drain()
    if args.workers != 1:  # serve_config imports the workers' launcher, with structlog
        _structlog_without_rich()
    try:  # refused settings are said before the logs' and the server's imports
        config = serve_config(args)
    except (OSError, ValueError, TypeError) as exc:
        said_each("deberc-net serve", str(exc))
        return 2
    _structlog_without_rich()  # before anything imports it
    from deberc_net.server.logs import configure_logging

    if args.workers != 1:
        from deberc_net.server.cluster.launch import WorkersError, check_workers, run_workers

        # the file's db, not a --db, is what the operator changes
        given = _set_in_file(args.config) if args.config and args.db is None else set()
        db_in = args.config if "db" in given else None
        try:
            check_workers(config, args.workers, db_in=db_in)
        except WorkersError as exc:
            print(f"deberc-net serve: {exc}", file=sys.stderr)
            return 2
        configure_logging("info")  # the parent's few lines (its port); workers use log_level
        _warn_of_a_known_seed(config)
        _warn_of_proxies_for_everyone(config)
        try:
            return run_workers(config, args.workers, drains)
        except WorkersError as exc:  # the port (in use, a host unknown), or a worker's start-up
            print(f"deberc-net serve: {_where_set(args, str(exc))}", file=sys.stderr)
            return 2
        except Exception as exc:
            # a broken plugin: the parent loads the rules its workers are forked with
            # (the plugins imported by then; not before, for a refused port's sake)
            from deberc_net.plugins import PluginError

            if not isinstance(exc, PluginError):
                raise
            _say_broken_plugin("serve", exc)
            return 2
    # the server itself only here: the parent of --workers starts processes, and does
    # not pay the server's imports (a third of a second of CPU)
    import trio

    from deberc_net.hangup import StopSignals
    from deberc_net.server.allocator import keep_big_blocks_returned
    from deberc_net.server.app import ListenError, serve, sole_exception
    from deberc_net.server.store import StoreError

    keep_big_blocks_returned()  # before any thread starts (server/allocator.py)

    book = _rule_book("serve")
    if book is None:
        return 2
    configure_logging(config.log_level)
    _warn_of_a_known_seed(config)
    _warn_of_proxies_for_everyone(config)
    stops = StopSignals()  # a second SIGTERM or SIGHUP does not cut the stop short
    stops.install()
    if drains:  # one came as the server started: its drain begins once it serves
        stops.drain_held = True
    try:
        trio.run(lambda: serve(config, handle_signals=True, rules=book, ready=stops.served))
    except KeyboardInterrupt:
        pass
    except (OSError, StoreError, ListenError, BaseExceptionGroup) as exc:
        # a start-up error (the store, a port) comes out of the server's nursery
        cause = sole_exception(exc)
        if not isinstance(cause, OSError | StoreError | ListenError):
            raise
        print(f"deberc-net serve: {_where_set(args, str(cause))}", file=sys.stderr)
        return 2
    return 0


def _warn_of_a_known_seed(config: Config) -> None:
    """A settings file copied from a test's keeps its match_seed: every match is then
    dealt from it, and one match's end tells every later one's decks (docs/security.md
    §5). Nothing else would say so: the log says it as the server starts."""
    if config.match_seed is None:
        return
    import structlog

    log = structlog.get_logger("deberc.server")
    log.warning(
        "match_seed_set",
        text="every match is dealt from the setting match_seed: once one match has"
        " ended, every later match's decks are known; never set it on a public server",
    )


# what a proxies setting that lists every address does (docs/security.md)
_EVERYONE_A_PROXY = {
    "trusted_proxies": "every web client is believed on the address its X-Forwarded-For"
    " names: anyone chooses his own, and every per-address web limit is void",
    "game_proxies": "every connection to the game port must begin with a PROXY header:"
    " every player who connects directly is refused (bad-proxy-header), and anyone who"
    " sends one chooses his address",
}


def _warn_of_proxies_for_everyone(config: Config) -> None:
    """``trusted_proxies`` or ``game_proxies`` whose networks cover every address of a
    family (``0.0.0.0/0``, ``::/0``, or halves that add up to one: ``0.0.0.0/1`` and
    ``128.0.0.0/1``) started without a word, though the one voids every per-address web
    limit and the other refuses every direct player: the log says so as the server
    starts, a line a setting naming the networks that cover it."""
    for setting, why in _EVERYONE_A_PROXY.items():
        every = _covering_every_address(getattr(config, setting))
        if not every:
            continue
        import structlog

        log = structlog.get_logger("deberc.server")
        log.warning("proxies_everyone", setting=setting, networks=every, text=why)


def _covering_every_address(listed: list[str]) -> list[str]:
    """The values of ``listed`` (a proxies setting) that cover every address of a family
    together (those not inside another listed network); none if no family is covered."""
    import ipaddress

    from deberc_net.server.addresses import networks

    every: list[str] = []
    for version in (4, 6):
        family = [
            (v, n) for v, n in zip(listed, networks(listed), strict=True) if n.version == version
        ]
        nets = [n for _, n in family]
        if any(not net.prefixlen for net in ipaddress.collapse_addresses(nets)):  # type: ignore[type-var]
            # (the networks that make the cover: one inside another listed says nothing)
            every += [v for v, n in family if not any(n != m and n.subnet_of(m) for m in nets)]  # type: ignore[arg-type]
    return every


def _ladder_run(args: argparse.Namespace) -> int:
    with collector_paused():  # on again once its server and bots started (runner.py)
        return _ladder_run_now(args)


def _ladder_run_now(args: argparse.Namespace) -> int:
    _structlog_without_rich()  # before anything imports it
    from deberc_net.ladder import report
    from deberc_net.ladder.runner import BotSpec, LadderOptions, run
    from deberc_net.ladder.schedule import BotsCannotPlay, ScheduleError, ServerGoing
    from deberc_net.ladder.stats import Sprt
    from deberc_net.ladder.store import of_game, open_ladder_store
    from deberc_net.ladder.stored_argv import without_secrets
    from deberc_net.plugins import RuleError
    from deberc_net.server.logs import configure_logging
    from deberc_net.server.store import StoreError

    book = _rule_book("ladder")
    if book is None:
        return 2
    _read_rule_names(book, args)
    configure_logging("warning", lifecycle=False)  # the ladder's own server: its warnings only
    try:
        book.ruleset(args.players, args.variant, args.option)
        server = None
        if args.server:
            host, _, port = args.server.rpartition(":")
            server = (host or "127.0.0.1", int(port))
        options = LadderOptions(
            bots=[BotSpec.parse(b) for b in args.bot],
            players=args.players,
            deals=args.deals,
            seed=args.seed,
            variant=args.variant,
            options=args.option,
            mode=args.schedule,
            server=server,
            # (from the environment: a command line is anyone's to read in 'ps')
            admin_password=args.admin_password or os.environ.get(ADMIN_PASSWORD_ENV),
            db=args.db,
            concurrency=args.concurrency,
            clock_ms=LADDER_CLOCK_MS if args.clock_ms is None else args.clock_ms,
            away_limit_ms=LADDER_AWAY_MS if args.away_ms is None else args.away_ms,
            sprt=Sprt.parse(args.sprt) if args.sprt else None,
            progress=not args.json,
            rules=book,
            asks_only=not args.tell_all,
            freeze_heap=True,  # this process is the ladder's (and so is each copy's)
        )
        _ladder_run_refused(args, options)  # before anything is started or stored
        if server is not None:
            _warn_own_server_only(args)
        store = open_ladder_store(args.db)
        stored = of_game(store.leaderboard(), options.variant, options.players)
        if args.distributed:  # the workers store the games
            resume()  # (this process waits on them, and lives as long as they do)
            from deberc_net.ladder.distributed import run_distributed
            from deberc_net.ladder.held_signals import stops_as_ctrl_c

            with stops_as_ctrl_c():  # SIGTERM, SIGHUP: the one line, as Ctrl-C's
                run_id, summary = run_distributed(
                    options, store, args.db, without_secrets(sys.argv[1:]), _db_wait_s(args.db_wait)
                )
            _warn_clock_calls_missing(summary, "ladder")  # (counted with its games)
        else:
            try:  # Ctrl-C before the run's own handling (its run stored): the same line
                _import_before_the_run(own_server=server is None, parts=args.processes > 1)
                before = _last_deal(args.db)  # the deals stored before the run's first
                run_id = store.start_run({"argv": without_secrets(sys.argv[1:])})
                try:
                    if args.processes > 1:  # the boards shared out among forked copies
                        from deberc_net.ladder.parallel import run_parallel

                        resume()  # (each copy is its own, its start-up collected)
                        summary = run_parallel(options, args.processes, stored)
                    else:
                        summary = run(options, stored, handle_signals=True)
                # stored as failed, not as being played
                except (BotsCannotPlay, ServerGoing) as exc:
                    _fail_run(store, run_id, exc)
                    raise
            except KeyboardInterrupt:
                from deberc_net.ladder.runner import INTERRUPTED

                raise ScheduleError(INTERRUPTED) from None
    except (RuleError, ScheduleError, ValueError, StoreError) as exc:
        print(f"deberc-net ladder: {exc}", file=sys.stderr)
        return 2
    from deberc_net.ladder.held_signals import signals_held

    try:
        with signals_held():  # a finished run is written whole (docs/bots.md)
            if not args.distributed:  # (counted with its games by run_distributed)
                _count_clock_calls(summary, args.db, before)
            data = summary.as_dict()
            if not args.distributed:  # (finished by run_distributed) one transaction for all
                store.add_games(run_id, [result.stored() for result in summary.results])
                store.finish_run(run_id, data, data["ratings"], dict(summary.games_by_bot))
            store.close()
            print(json.dumps(data, sort_keys=True) if args.json else report.text(data))
    except KeyboardInterrupt:  # a second signal: the database did not answer
        from deberc_net.ladder.runner import INTERRUPTED

        print(f"deberc-net ladder: {INTERRUPTED}", file=sys.stderr)
        return 2
    return 0


def _fail_run(store: LadderStore, run_id: int, error: Exception) -> None:
    """Store the run as failed with ``error`` (docs/bots.md): a database that fails this
    write leaves it as it was, the run's own error said all the same."""
    try:
        store.fail_run(run_id, str(error))
    except Exception as exc:
        if not _database_error(exc):
            raise


def _last_deal(db: str) -> int | Exception:
    """The last deal row stored in ``db`` as a run starts; the error if it could not be
    read, which the count of the clock's calls (best-effort) then says."""
    from deberc_net.server.store import open_store

    try:
        store = open_store(db)
        try:
            return store.last_deal()
        finally:
            store.close()
    except Exception as exc:  # (not a Ctrl-C: the run's own handling)
        return exc


def _count_clock_calls(summary: Summary, db: str, before: int | Exception) -> None:
    """The calls the clock made for each bot, from the deals stored in ``db`` (the
    ladder's own server's store; a ``--server`` run's are in that server's) after deal
    row ``before`` (``_last_deal`` at the run's start): a ``--server`` run's matches,
    numbered by that server, share their numbers with ``db``'s earlier ones, and with
    the same ``--seed`` their boards too. Best-effort:
    a count that fails (the database gone, a record it cannot read) is said as a
    warning and in the report, and the run is stored without it; it raised out of the
    finished run's writes, and the run played was never stored."""
    from deberc_net.ladder.clock_calls import clock_calls, not_counted
    from deberc_net.server.store import open_store

    try:
        store = open_store(db)
        try:
            # one query for the run's thousands of matches (a query each was as many
            # round trips to a PostgreSQL --db, Ctrl-C held meanwhile)
            ids = [r.match_id for r in summary.results if r.match_id is not None]
            if isinstance(before, Exception):  # (the run's own deals not told apart)
                raise before
            records = store.matches_records(ids, before)
            found = clock_calls(summary.results, records)
        finally:
            store.close()
    except Exception as exc:  # (not a second Ctrl-C: the writes' own handling)
        summary.clock_calls_missing = not_counted(exc)
        _warn_clock_calls_missing(summary, "ladder")
        return
    summary.clock_calls, summary.first_clock_calls = found.counts, found.first


def _warn_clock_calls_missing(summary: Summary, command: str) -> None:
    """The warning of a run stored without its clock's calls (their count failed)."""
    if summary.clock_calls_missing is not None:
        print(
            f"deberc-net {command}: warning: the clock's calls were not counted"
            f" ({summary.clock_calls_missing}); the run is stored without them",
            file=sys.stderr,
        )


def _warn_own_server_only(args: argparse.Namespace) -> None:
    """A --server run given an option only the ladder's own server takes (OWN_SERVER_ONLY)
    is told, not refused: one command line may serve a run here and on --server."""
    import attrs

    from deberc_net.server.config import Config

    for flag, attribute, what, setting in OWN_SERVER_ONLY:
        if getattr(args, attribute) is None:
            continue
        default = getattr(attrs.fields(Config), setting).default
        print(
            f"deberc-net ladder: warning: {flag} sets the ladder's own server's {what},"
            f" not --server's: that server's {setting} applies ({default} by default)",
            file=sys.stderr,
        )


def _ladder_run_refused(args: argparse.Namespace, options: LadderOptions) -> None:
    """A ScheduleError (its one line, status 2) for a ``ladder run`` that cannot play as
    asked, said before its server and bots start and before its run is stored: a run
    refused for its input leaves nothing in the store (docs/bots.md)."""
    from deberc_net.ladder.admin import ADMIN
    from deberc_net.ladder.schedule import ScheduleError, groups, seed_refused
    from deberc_net.ladder.supervisor import missing_program
    from deberc_net.server.store import is_postgres

    if args.seed is not None and (refused := seed_refused(args.seed)) is not None:
        raise ScheduleError(refused)
    for flag, value in (
        ("--deals", args.deals),
        ("--away-ms", options.away_limit_ms),  # (the defaults applied there)
        ("--clock-ms", options.clock_ms),
        ("--concurrency", args.concurrency),
    ):
        if value < 1:
            raise ScheduleError(f"{flag} must be at least 1")
    repeated = sorted({o for o in args.option if args.option.count(o) > 1})
    if repeated:  # refused, not silently dropped (docs/bots.md)
        raise ScheduleError(f"--option {repeated[0]} is given more than once")
    groups([b.name for b in options.bots], options.players, options.mode)  # two, named apart
    if (refused := _db_wait_refused(args.db_wait)) is not None:
        raise ScheduleError(refused)
    if args.db_wait is not None and not args.distributed:
        raise ScheduleError("--db-wait is for --distributed (its wait for the database)")
    if options.sprt is not None and len(options.bots) != 2:
        raise ScheduleError("--sprt compares exactly two bots")
    if args.distributed and not is_postgres(args.db):
        raise ScheduleError("--distributed needs --db postgresql://… (the workers' queue)")
    if args.processes < 1:
        raise ScheduleError("--processes takes a whole number from 1")
    if args.processes > 1 and args.distributed:
        raise ScheduleError("--processes is for a run on this machine, not --distributed")
    if args.processes > 1 and options.server is not None:  # (as run_parallel says it)
        raise ScheduleError("--processes plays on the ladder's own servers, not --server")
    if options.server is not None and args.distributed:
        return  # refused by run_distributed, before it stores anything
    if options.server is not None and options.admin_password is None:
        raise ScheduleError(
            f"--server needs --admin-password for {ADMIN!r}, listed in that server's admins"
        )
    if not args.distributed:  # (--distributed says it for every worker)
        for bot in options.bots:
            if (missing := missing_program(bot)) is not None:
                raise ScheduleError(missing)


def _import_before_the_run(own_server: bool, parts: bool) -> None:
    """Import what a ladder's run imports later in this thread, before the run is stored:
    CPython loses a Ctrl-C that lands in importlib's module-lock callback ("Exception
    ignored … in _get_module_lock"), and an import of the whole server gives it hundreds
    of chances: the run went on as if nothing was pressed (seen under load). Held to it by
    tests/ladder/test_imports_before_run.py."""
    import encodings.idna  # noqa: F401  (the bots' first connection encodes the host name)

    import openskill.models  # noqa: F401  (the ratings)

    import deberc_net.ladder.clock_calls  # (the clock's calls counted at the end)
    import deberc_net.ladder.held_signals  # (the finished run's writes)

    if parts:
        import deberc_net.ladder.parallel  # (the forked parts)
    if own_server:
        import deberc_net.server.running  # noqa: F401  (the whole server)


def _ladder_worker(args: argparse.Namespace) -> int:
    _structlog_without_rich()  # before anything imports it
    from deberc_net.ladder.schedule import ScheduleError
    from deberc_net.ladder.worker import work
    from deberc_net.server.logs import configure_logging
    from deberc_net.server.store import StoreError, is_postgres

    if not is_postgres(args.db):
        print(
            "deberc-net ladder worker: --db takes a postgresql:// address (the runs' queue),"
            f" not {args.db}; a settings file's db may give it (--config)",
            file=sys.stderr,
        )
        return 2
    if not 0 < args.lease_s <= MOST_LEASE_S:  # (nan too: the database refused it, and inf)
        print(
            f"deberc-net ladder worker: --lease-s takes seconds above 0, at most {MOST_LEASE_S:.0f}"
            " (a day: a dead worker's boards wait that long to be played again)",
            file=sys.stderr,
        )
        return 2
    if (refused := _db_wait_refused(args.db_wait)) is not None:
        print(f"deberc-net ladder worker: {refused}", file=sys.stderr)
        return 2
    book = _rule_book("ladder")
    if book is None:
        return 2
    configure_logging("warning", lifecycle=False)  # its own servers: their warnings only
    try:
        stored = work(
            args.db,
            lease_s=args.lease_s,
            exit_when_done=args.exit_when_done,
            rules=book,
            db_wait_s=_db_wait_s(args.db_wait),
        )
    except (ScheduleError, StoreError) as exc:
        print(f"deberc-net ladder worker: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    from deberc_net.ladder.report import count

    print(f"{count(stored, 'board')} played", file=sys.stderr)
    return 0


def _ladder_finish(args: argparse.Namespace) -> int:
    _structlog_without_rich()  # before anything imports it
    from deberc_net.ladder import report
    from deberc_net.ladder.distributed import finish_distributed
    from deberc_net.ladder.schedule import ScheduleError
    from deberc_net.server.store import StoreError

    if (refused := _run_in_database_refused(args)) is not None:
        print(f"deberc-net ladder finish: {refused}", file=sys.stderr)
        return 2
    book = _rule_book("ladder")
    if book is None:
        return 2
    from deberc_net.ladder.held_signals import stops_as_ctrl_c

    try:
        with stops_as_ctrl_c():  # SIGTERM, SIGHUP: the one line, as Ctrl-C's
            summary = finish_distributed(
                args.db, args.run, book, progress=not args.json, db_wait_s=_db_wait_s(args.db_wait)
            )
        data = summary.as_dict()
    except (ScheduleError, StoreError) as exc:
        print(f"deberc-net ladder finish: {exc}", file=sys.stderr)
        return 2
    _warn_clock_calls_missing(summary, "ladder finish")
    print(json.dumps(data, sort_keys=True) if args.json else report.text(data))
    return 0


def _ladder_cancel(args: argparse.Namespace) -> int:
    from deberc_net.ladder.cancel import cancel_distributed
    from deberc_net.ladder.schedule import ScheduleError
    from deberc_net.server.store import StoreError

    if (refused := _run_in_database_refused(args)) is not None:
        print(f"deberc-net ladder cancel: {refused}", file=sys.stderr)
        return 2
    try:
        said = cancel_distributed(args.db, args.run, _db_wait_s(args.db_wait))
    except (ScheduleError, StoreError) as exc:
        print(f"deberc-net ladder cancel: {exc}", file=sys.stderr)
        return 2
    print(said)
    return 0


def _run_in_database_refused(args: argparse.Namespace) -> str | None:
    """Why a command on one distributed run (``_run_in_database``'s arguments) is
    refused before it starts (None: it is not)."""
    from deberc_net.server.store import is_postgres

    if not is_postgres(args.db):
        return "--db takes a postgresql:// address (a distributed run's)"
    return _db_wait_refused(args.db_wait)


def _db_wait_refused(seconds: float | None) -> str | None:
    """Why ``--db-wait`` is refused (None: it is not)."""
    if seconds is not None and not 0 < seconds < math.inf:  # (nan too)
        return "--db-wait takes seconds above 0"
    return None


def _db_wait_s(seconds: float | None) -> float:
    """How long a distributed ladder's process waits for its database (docs/bots.md)."""
    from deberc_net.ladder.patience import WAIT_LIMIT_S

    return WAIT_LIMIT_S if seconds is None else seconds


def _ladder_table(args: argparse.Namespace) -> int:
    """The leaderboard; then (as text) the runs not counted yet and the board keys whose
    results await a release, alike from SQLite and PostgreSQL. A listing waits for no
    database: one away, or gone mid-way, is said at once (status 2)."""
    from deberc_net.ladder import report
    from deberc_net.ladder.store import open_ladder_store
    from deberc_net.server.store import is_postgres

    if args.runs and not args.json:
        print("deberc-net ladder table: --runs goes with --json", file=sys.stderr)
        return 2
    if not is_postgres(args.db) and not os.path.exists(args.db):
        print(f"deberc-net ladder table: no database at {args.db}", file=sys.stderr)
        return 2
    store = _open_store("ladder table", open_ladder_store, args.db)
    if store is None:
        return 2
    plain = args.json and not args.runs  # (the leaderboard's rows alone, as ever)
    listed = _read_or_say(
        "ladder table",
        args.db,
        store.close,
        lambda: (
            store.leaderboard(),
            [] if plain else store.uncounted_runs(),
            [] if plain else store.withheld_boards(),
            store.runs() if args.runs else [],
        ),
    )
    if listed is None:
        return 2
    rows, runs, kept, every = listed
    if args.runs:
        print(json.dumps(report.table_object(rows, every, runs, kept)))
        return 0
    print(json.dumps(rows) if args.json else report.leaderboard(rows, bool(runs)))
    # runs without boards: single-machine ones (or a distributed one not queued yet); a
    # stopped one stays so for good, so all of them are one line, however many
    alone = [str(run.id) for run in runs if run.total == 0 and run.stop is None]
    if len(alone) == 1:
        print(f"run {alone[0]}: not counted (being played now, or stopped before its end: "
              "it gets no summary)")  # fmt: skip
    elif alone:
        print(f"runs {', '.join(alone)}: not counted (each being played now, or stopped "
              "before its end: it gets no summary)")  # fmt: skip
    for run in runs:
        if run.stop is not None and run.total == 0:  # no boards to count (single-machine)
            print(f"{run.stop.line(run.id)}; not counted")
        elif run.stop is not None:  # failed or cancelled: a line each, as it says why
            print(f"{run.stop.line(run.id)}; not counted ({run.done} of {run.total} "
                  "boards played, their games stored)")  # fmt: skip
        elif run.total == 0:
            continue
        elif run.done < run.total:
            above = " above" if rows else ""  # (none yet: nothing is above)
            print(f"run {run.id} (distributed): {run.done} of {run.total} boards played so "
                  f"far; the ratings{above} take it in when it ends")  # fmt: skip
        else:  # its `ladder run --distributed` counts it within a second, if alive
            print(f"run {run.id} (distributed): every board played, not counted yet; "
                  f"if its 'ladder run' is gone, 'deberc-net ladder finish {run.id}' "
                  "counts it")  # fmt: skip
    for key, count in kept:  # (docs/bots.md "Killed outright")
        print(f"board {key}: {report.count(count, 'result')} withheld until its "
              "release (a ladder playing it now, or one killed)")  # fmt: skip
    return 0


def _database_error(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite's or PostgreSQL's error (psycopg only if loaded)."""
    import sqlite3

    psycopg = sys.modules.get("psycopg")
    if isinstance(exc, sqlite3.Error):
        return True
    return psycopg is not None and isinstance(exc, psycopg.Error)


def _read_or_say(
    command: str, db: str, close: Callable[[], object], read: Callable[[], T]
) -> T | None:
    """What ``read`` returns, the store closed (``close``) after it; None after a read-only
    command's one line for a database that failed it mid-way: said at once (a listing
    waits for no database)."""
    try:
        return read()
    except Exception as exc:  # the database's own error: its driver's class
        if not _database_error(exc):
            raise
        reason = " ".join(str(exc).split()) or type(exc).__name__
        where = _where(db)
        print(f"deberc-net {command}: the database at {where} stopped answering: {reason}",
              file=sys.stderr)  # fmt: skip
        return None
    finally:
        with contextlib.suppress(Exception):  # (a connection the database cut off)
            close()


def _where(db: str) -> str:
    """``db`` fit for an error line (a PostgreSQL address without its password)."""
    from deberc_net.server.store import is_postgres

    if is_postgres(db):
        from deberc_net.server.store.postgres import redacted

        return redacted(db)
    return db


def _records_export(args: argparse.Namespace) -> int:
    from deberc_net.server.store import is_postgres, open_store

    if not is_postgres(args.db) and not os.path.exists(args.db):
        print(f"deberc-net records export: no database at {args.db}", file=sys.stderr)
        return 2
    store = _open_store("records export", open_store, args.db)
    if store is None:
        return 2
    import logging  # (a connection the database cut off, discarded by the pool: said below)

    logging.getLogger("psycopg.pool").setLevel(logging.ERROR)

    def write_all() -> bool:
        for body in store.records():
            sys.stdout.write(body + "\n")
        return True

    return 2 if _read_or_say("records export", args.db, store.close, write_all) is None else 0


def _backup(args: argparse.Namespace) -> int:
    """A consistent copy of the SQLite store, a server running on it or not (a
    PostgreSQL one is pg_dump's): docs/security.md, "Backups and upgrades"."""
    from deberc_net.server.store import StoreError, describe
    from deberc_net.server.store.backup import back_up

    try:
        copied = back_up(args.db, args.out, replace=args.replace)
    except StoreError as exc:
        print(f"deberc-net backup: {exc}", file=sys.stderr)
        return 2
    print(copied.said(describe(args.db), args.out))
    return 0


def _move_store(args: argparse.Namespace) -> int:
    """The club's SQLite store copied whole into an empty PostgreSQL database, for
    'serve --workers' (docs/scaling.md, "From SQLite to PostgreSQL")."""
    from deberc_net.server.config import Config
    from deberc_net.server.store import StoreError, describe, is_postgres
    from deberc_net.server.store.move import MoveInterrupted, move, settings_line

    try:
        moved = move(args.db, args.to)
    except StoreError as exc:
        print(f"deberc-net move-store: {exc}", file=sys.stderr)
        return 2
    except MoveInterrupted as exc:  # said, then ended by SIGINT as Ctrl-C is (main)
        print(f"deberc-net move-store: {exc}", file=sys.stderr)
        raise KeyboardInterrupt from None
    print(moved.said(describe(args.db), args.to))
    # the file the server's settings name: they must name the database now (read
    # already); the same file however its path is written ('club.sqlite3', its full path)
    named = Config.from_toml(args.config).db if args.config else None
    if (
        named is not None
        and not is_postgres(named)
        and os.path.exists(named)
        and os.path.samefile(named, args.db)
    ):
        print(settings_line(args.config, named, args.to))
    return 0


def _admin(args: argparse.Namespace) -> int:
    """Register an admin's name (or, with --replace, change a registered name's
    password): the only way an admin's name is made."""
    from deberc_net.protocol.messages import Msg, phrase
    from deberc_net.server.accounts import set_password, valid_name
    from deberc_net.server.store import describe, is_postgres, open_store

    if not valid_name(args.name):  # (in the words the server's login refuses it)
        print(f"deberc-net admin: {phrase(Msg.LOGIN_NAME).text()}", file=sys.stderr)
        return 2
    store: Store | None = None
    # a name registered already, and a database that cannot be opened or made, are
    # refused before the password is asked for; a missing SQLite file registers nobody,
    # and is made only once the password is good
    if is_postgres(args.db) or os.path.exists(args.db):
        store = _open_store("admin", open_store, args.db)
        if store is None:
            return 2
    elif not os.path.isdir(os.path.dirname(args.db) or "."):  # nowhere to make it
        from deberc_net.server.store.sqlite import cannot_open

        refused = cannot_open(args.db, FileNotFoundError(args.db))
        print(f"deberc-net admin: {refused}", file=sys.stderr)
        return 2
    try:
        # a name already registered may be a player's: its password is replaced only
        # when the operator says so (docs/security.md)
        known = store is not None and store.account(args.name) is not None
        # a new name under a login's rules (one registered before may keep its own)
        why = None if known else _new_name_refused(args.name, store, args.admins or [])
        if why is not None:
            print(f"deberc-net admin: {why}", file=sys.stderr)
            return 2
        if known and not args.replace:
            print(
                f"deberc-net admin: {args.name} is registered already in {describe(args.db)}: "
                "--replace gives it this password (its old one stops working)",
                file=sys.stderr,
            )
            return 2
        password = _admin_password(args.name)
        if password is None:
            return 2
        if store is None:
            store = _open_store("admin", open_store, args.db)
            if store is None:
                return 2
        alike = set_password(store, args.name, password)
        if alike is not None:  # registered meanwhile (by a login at a running server)
            said = phrase(Msg.NAME_LOOKS_LIKE, name=args.name, other=alike)
            print(f"deberc-net admin: {said.text()}", file=sys.stderr)
            return 2
    finally:
        if store is not None:
            store.close()
    if known:
        print(
            f"{args.name} has a new password in {describe(args.db)} (the old one no longer "
            f"works); {_reset_hint(args)}"
        )
    else:
        print(f"{args.name} is registered in {describe(args.db)}; {_admins_hint(args)}")
    return 0


def _new_name_refused(name: str, store: Store | None, admins: list[str]) -> str | None:
    """Why ``admin`` refuses to register the new ``name``, as a login's registration is
    refused (server/login.py: the rules of new names, the house bots' prefix, a look-alike
    of a registered name or of an admin listed in the settings), or None."""
    from deberc_net.protocol.messages import Msg, phrase
    from deberc_net.server.accounts import new_name, new_name_refused
    from deberc_net.server.house import PREFIX
    from deberc_net.server.store import name_key
    from deberc_net.server.store.base import look_alike, look_key

    if not new_name(name):
        return phrase(new_name_refused(name)).text()
    if name_key(name).startswith(PREFIX) or look_key(name).startswith(look_key(PREFIX)):
        return phrase(Msg.HOUSE_NAMES, prefix=PREFIX).text()  # (no login could take it)
    others = [admin for admin in admins if name_key(admin) != name_key(name)]
    alike = look_alike(name, others) or (None if store is None else store.arrival(name).looks_like)
    if alike is None:
        return None
    return phrase(Msg.NAME_LOOKS_LIKE, name=name, other=alike).text()


def _admins_hint(args: argparse.Namespace) -> str:
    """What is left to do for an admin's name: its listing in the settings' admins."""
    # a running server read its admins when it started (an operator listed a name, was
    # told the file lists it, and the server went on refusing him the admins' commands)
    if args.admins is None:  # no settings file given: the server's is not known here
        return "list it in the server's admins (a server reads them when it starts)"
    from deberc_net.server.store import name_key

    # as the server reads its admins: 'Boss' is the admin the file lists as 'boss'
    if name_key(args.name) in {name_key(admin) for admin in args.admins}:
        return (
            f"{args.config} lists it in admins (a server reads the file when it starts: one"
            " started before the name was listed knows it after a restart)"
        )
    return (
        f"list it in admins in {args.config} (it is not there yet), then restart the server:"
        " it reads the file when it starts"
    )


def _reset_hint(args: argparse.Namespace) -> str:
    """What is left to do after --replace: nothing for a player's name (a forgotten
    password reset, docs/protocol.md §5.20), the admins' listing for an admin's."""
    from deberc_net.server.store import name_key

    # a player's reset was told to list him in admins, as if it made him an admin
    if args.admins is None:  # no settings file given: whose name it is is not known here
        return (
            "it logs in with it at once, at a running server too (an admin's name must be"
            " in the server's admins as well: a server reads them when it starts)"
        )
    if name_key(args.name) not in {name_key(admin) for admin in args.admins}:
        return (
            f"a player's name ({args.config} does not list it in admins): it logs in with"
            " the new password at once, at a running server too"
        )
    return _admins_hint(args)


def _admin_password(name: str) -> str | None:
    """The password for ``admin``, asked at a terminal or read from standard input;
    None (after saying why) if it is not one word."""
    if sys.stdin.isatty():
        import getpass

        password = getpass.getpass(f"password for {name}: ")
    else:
        password = sys.stdin.readline().rstrip("\r\n")
    if not password or " " in password:
        print(
            "deberc-net admin: the password is one word, read from standard input", file=sys.stderr
        )
        return None
    if not password.isprintable():  # a login splits at any space, and drops some bytes
        print(
            "deberc-net admin: no login can type a password with a tab, a no-break space or"
            " another invisible character: choose another",
            file=sys.stderr,
        )
        return None
    from deberc_net.protocol.login_words import typable
    from deberc_net.protocol.messages import Msg, phrase
    from deberc_net.server.accounts import PASSWORD_LEAST, short_password

    if short_password(password):  # (as a login's registration refuses it)
        said = phrase(Msg.PASSWORD_SHORT, least=PASSWORD_LEAST)
        print(f"deberc-net admin: {said.text()}", file=sys.stderr)
        return None
    if not typable(password):  # 'login NAME token=…' would read it as something else
        print(
            "deberc-net admin: no login can type a password beginning with token=, lang=,"
            " style=, tell=, sort= or clock= (it reads those words otherwise): choose another",
            file=sys.stderr,
        )
        return None
    return password


def _play(args: argparse.Namespace) -> int:
    host, _, port = args.address.rpartition(":")
    if not (port.isascii() and port.isdecimal()):
        print("deberc-net play: the address is HOST:PORT, e.g. 127.0.0.1:7501", file=sys.stderr)
        return 2
    if not 0 < int(port) < 65536:  # HOST:PORT it was: the number is what is wrong
        print(
            f"deberc-net play: port {port} is out of range: a port is 1 to 65535 (HOST:PORT,"
            " e.g. 127.0.0.1:7501)",
            file=sys.stderr,
        )
        return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):  # it would draw for nobody
        print(
            "deberc-net play: the terminal client needs a terminal (standard input and "
            "output); a program speaks the protocol itself (docs/bots.md)",
            file=sys.stderr,
        )
        return 2
    if os.environ.get("TERM") == "dumb":  # no cursor to move: the screen would be its codes
        print(
            "deberc-net play: this terminal (TERM=dumb) cannot draw the client's screen: "
            "play in another one, or over nc or telnet, whose plain lines need none "
            "(docs/play.md)",
            file=sys.stderr,
        )
        return 2
    from clients.play.app import play_app
    from clients.play.texts import lang_of

    play_app(lang_of(args.lang))(host or "127.0.0.1", int(port), args.name, args.token).run()
    return 0


class _PrintVersion(argparse.Action):
    """argparse's "version", the version read (from the package metadata) only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"deberc-net {deberc_net.__version__}")
        parser.exit()


DEFAULT_DB = "deberc.sqlite3"  # the server's (Config.db): every command's default
DB_HELP = (
    f"SQLite file or postgresql://USER@HOST[:PORT]/DB (default: --config's db, or {DEFAULT_DB})"
)
CONFIG_HELP = "the server's settings file: its db is this command's, unless --db is given"
PLAYERS_HELP = "players at each table (default 2)"
# the builtin games, named here without loading the rule book: --help stays quick
VARIANT_HELP = (
    "the game: moscow (default), kharkov, or tertz (2 players), or a rule plugin's; "
    "a name no rule knows is refused, listing them (docs/rules.md)"
)


def _store_command_logs() -> None:
    """A command that opens the store logs its warnings (a migration's ``migrated``) to
    standard error, as the server does: structlog's default is standard output, where
    ``records export`` writes its records. Unless the program calling it (a test) set
    structlog up itself."""
    _structlog_without_rich()  # before anything imports it
    import structlog

    from deberc_net.server.logs import configure_logging

    if not structlog.is_configured():
        configure_logging("warning")


def _db_from_config(args: argparse.Namespace) -> str | None:
    """A store command's --db: given, or the settings file's db (the server's), or the
    default (and the file's admins, for 'admin'); what is wrong with the file if it
    cannot be read."""
    args.admins = None  # the file's admins, when it is read
    if args.config:
        from deberc_net.server.config import Config

        try:
            config = Config.from_toml(args.config)
        except (OSError, ValueError, TypeError) as exc:
            return str(exc)
        args.db = args.db or config.db
        args.admins = config.admins
    if args.db is None:
        args.db = DEFAULT_DB
    from deberc_net.server.config import not_an_address, setting_problem, shown

    if not_an_address(args.db):  # (a file's was refused as it was read)
        return f"--db {setting_problem('db', args.db)}, not {shown(args.db)}"
    return None


class _CommandParser(argparse.ArgumentParser):
    """A command's parser: refuses the arguments it does not know with its own usage
    (argparse leaves that to the top level, whose usage lists only the commands:
    `serve --prot 7600` would be answered with no word of serve's options)."""

    def parse_known_args(  # type: ignore[override]  # (typeshed's overloads)
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error("unrecognized arguments: " + " ".join(extras))
        assert parsed is not None
        return parsed, extras


def _run_in_database(command: argparse.ArgumentParser) -> None:
    """The arguments of a command on one distributed run (ladder finish, ladder cancel):
    its number and the database that holds it."""
    command.add_argument("run", type=int, help="the run's number (ladder table, /ladders)")
    command.add_argument("--db", help="postgresql://USER@HOST[:PORT]/DB (default: --config's db)")
    command.add_argument("--config", metavar="FILE.toml", help=CONFIG_HELP)
    command.add_argument(
        "--db-wait",
        type=float,
        metavar="SECONDS",
        help="it waits this long for its database when it is away "
        "(a restart, a failover) before it gives up (docs/bots.md; default 300)",
    )


# `play --help` in the client's language (docs/play.md), English then Russian; the
# rest of the command line, and argparse's own refusals, stay English
_PLAY_HELP = {
    "help": (
        "play at a terminal: the table drawn, calls typed (docs/play.md)",
        "игра за терминалом: стол нарисован, заявки набираются (docs/play.ru.md)",
    ),
    "address": ("the server (default 127.0.0.1:7501)", "сервер (по умолчанию 127.0.0.1:7501)"),
    "name": (
        "log in as NAME on connecting (a guest)",
        "войти под именем NAME при подключении (гостем)",
    ),
    "token": (
        "with --name: a guest's resume token, to take the seat back after the client was closed",
        "вместе с --name: код возврата гостя, чтобы вернуть себе место после того, как "
        "клиент был закрыт",
    ),
    "lang": (
        "the client's language (default: Russian when LC_ALL, LC_MESSAGES or LANG names a "
        "Russian or Ukrainian locale, else English)",
        "язык клиента (по умолчанию русский, если LC_ALL, LC_MESSAGES или LANG называют "
        "русскую или украинскую локаль, иначе английский)",
    ),
    "-h": ("show this help message and exit", "показать эту справку и выйти"),
}


class _RussianHelp(argparse.HelpFormatter):
    """argparse's help with its own words in Russian (its usage line's prefix; the
    parser's section titles are set on the parser)."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, "использование: " if prefix is None else prefix)


def _play_parser(sub: Any, lang: str) -> None:
    """The `play` command, its help in ``lang`` (``en`` or ``ru``: ``play_help_lang``)."""
    ru = lang == "ru"

    def said(key: str) -> str:
        return _PLAY_HELP[key][ru]

    pl = sub.add_parser(
        "play",
        help=_PLAY_HELP["help"][0],  # (the top level's list of commands: English)
        description=said("help"),
        add_help=not ru,
        formatter_class=_RussianHelp if ru else argparse.HelpFormatter,
    )
    if ru:
        pl._positionals.title = "позиционные аргументы"
        pl._optionals.title = "параметры"
        pl.add_argument("-h", "--help", action="help", help=said("-h"))
    pl.add_argument(
        "address", nargs="?", default="127.0.0.1:7501", metavar="HOST:PORT", help=said("address")
    )
    pl.add_argument("--name", help=said("name"))
    pl.add_argument("--token", help=said("token"))
    pl.add_argument("--lang", choices=("en", "ru"), help=said("lang"))
    pl.set_defaults(func=_play)


def play_help_lang(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of `play`'s help, as the client itself will speak: its ``--lang``
    (``--lang ru``, ``--lang=ru``, or a prefix of it, as argparse takes one) if given
    and known, else the locale's (clients/play/texts.py ``lang_from``); ``en`` for any
    other command (nothing imported for them: a server's start-up pays nothing)."""
    if not argv or argv[0] != "play":
        return "en"
    args = list(argv[1:])
    for at, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if len(name) > 2 and "--lang".startswith(name):
            if not equals:
                value = args[at + 1] if at + 1 < len(args) else ""
            if value in ("en", "ru"):
                return value
    from clients.play.texts import lang_from

    return str(lang_from(environ))


def build_parser(play_lang: str = "en") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deberc-net", description="Deberts for people and bots.")
    parser.add_argument(
        "--version", action=_PrintVersion, help="show program's version number and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_CommandParser)

    sp = sub.add_parser("selfplay", help="play games between random legal players in-process")
    sp.add_argument("--games", type=int, default=10, help="matches to play (default 10)")
    sp.add_argument("--seed", default="0", help="match seed; the same seed replays the same")
    sp.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help=PLAYERS_HELP)
    sp.add_argument("--variant", default="moscow", help=VARIANT_HELP)
    sp.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME",
        help="a table option (repeatable), e.g. to-301",
    )
    sp.add_argument("--records", metavar="FILE", help="write every deal as a deberc-deal/1 line")
    sp.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sp.set_defaults(func=_selfplay)

    _play_parser(sub, play_lang)

    sv = sub.add_parser(
        "serve",
        help="run the server",
        # an operator's --help said nothing of the signals, and SIGHUP, which many a
        # daemon takes for "read your settings again", stops this one (a tryout, s50)
        epilog="Signals: SIGTERM, SIGINT and SIGHUP stop the server, cutting its running "
        "matches (nobody wins; SIGHUP reads no settings again: a log rotation must not "
        "send it); SIGUSR1, as an admin's 'drain', stops it once its running matches are "
        "over, for a supervisor to start it again. The settings file is read once, as the "
        "server starts (docs/settings.md; docs/protocol.md §11.4, §11.4a).",
    )
    sv.add_argument(
        "--host",
        help="address to listen on (default 127.0.0.1; the web face's too, unless --http-host)",
    )
    sv.add_argument("--port", type=int, help="TCP port (default 7501; 0 picks a free one)")
    sv.add_argument(
        "--http-host",
        help="address the web face listens on (default: --host's; 127.0.0.1 behind a "
        "proxy on this machine: docs/web.md)",
    )
    sv.add_argument("--db", help=DB_HELP)
    sv.add_argument(
        "--http-port",
        metavar="PORT|off",
        help=f"web pages and JSON (docs/web.md; default {DEFAULT_HTTP_PORT}, but with --config "
        'the file\'s http_port, none if it has none; off: none, as http_port = "off" there)',
    )
    sv.add_argument("--config", metavar="FILE.toml", help="settings file ([server] table)")
    sv.add_argument(
        "--house-bots",
        action="store_true",
        default=None,
        help="let players ask for the server's own bots at their table ('bot heuristic'); "
        "'make serve' turns it on",
    )
    sv.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="N server processes on one port with one lobby (above 1 needs --db "
        "postgresql://…; docs/scaling.md)",
    )
    sv.set_defaults(func=_serve)

    lad = sub.add_parser("ladder", help="bot-versus-bot ladders with duplicate deals")
    lad_sub = lad.add_subparsers(dest="ladder_command", required=True)
    lr = lad_sub.add_parser(
        "run", help="play a ladder between bots (commands over TCP, py: bots in memory)"
    )
    lr.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="NAME=COMMAND",
        help="a bot and the command that starts it (repeat for each bot); "
        "--host, --port, --name, --seek reserved are appended unless COMMAND uses "
        "{host} {port} {name} (then its bot must 'seek reserved' itself); COMMAND "
        "py:MODULE [--seed S] plays a client-library "
        "bot inside the ladder's process (docs/bots.md)",
    )
    lr.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help=PLAYERS_HELP)
    lr.add_argument("--deals", type=int, default=10, help="boards (each played in every seating)")
    lr.add_argument(
        "--seed",
        help="the boards' seed, to replay a ladder: 1-100 printable characters, no space "
        "(default: a random one, told at the end)",
    )
    lr.add_argument("--variant", default="moscow", help=VARIANT_HELP)
    lr.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME",
        help="a table option (repeatable), e.g. to-301",
    )
    lr.add_argument(
        "--schedule",
        choices=("round-robin", "gauntlet"),
        default="round-robin",
        help="gauntlet: the first bot against each other one",
    )
    lr.add_argument(
        "--db",
        help="records, results and ratings: " + DB_HELP + ", the server's own file, so its "
        "/ladders shows them",
    )
    lr.add_argument("--config", metavar="FILE.toml", help=CONFIG_HELP)
    lr.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="use this server instead of starting one (it must list ladder-admin in its admins)",
    )
    lr.add_argument(
        "--admin-password",
        help=f"ladder-admin's password on --server (or ${ADMIN_PASSWORD_ENV}, which 'ps' "
        "does not show)",
    )
    lr.add_argument(
        "--concurrency",
        type=int,
        default=2,
        help="copies of each bot, so boards are played side by side (default 2)",
    )
    lr.add_argument(
        "--clock-ms",
        type=int,
        help="clock per call on the ladder's own server; a server given plays on its own "
        f"(default {LADDER_CLOCK_MS})",
    )
    lr.add_argument(
        "--away-ms",
        type=int,
        help="a bot's seat away (disconnected) this long forfeits on the ladder's own "
        "server (a server given applies its own); raise it for bots slow to start again "
        f"after a crash (default {LADDER_AWAY_MS})",
    )
    lr.add_argument(
        "--sprt",
        metavar="ELO0,ELO1,ALPHA,BETA",
        help="stop early when the test decides (two bots only)",
    )
    lr.add_argument(
        "--distributed",
        action="store_true",
        help="queue the boards in --db (PostgreSQL) for 'ladder worker' processes to play; "
        "wait for them and report (docs/bots.md)",
    )
    lr.add_argument(
        "--processes",
        type=int,
        default=1,
        help="play the boards in this many processes of the ladder, each with its own "
        "server and copies of the bots, to use as many cores (docs/bots.md; default 1)",
    )
    lr.add_argument(
        "--tell-all",
        action="store_true",
        help="tell in-process bots every line, even when all of them need only their asks "
        "(docs/bots.md; to measure what telling costs)",
    )
    lr.add_argument(
        "--db-wait",
        type=float,
        metavar="SECONDS",
        help="--distributed: the run's waiter waits this long for its database when it is away "
        "(a restart, a failover) before it gives up (docs/bots.md; default 300)",
    )
    lr.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    lr.set_defaults(func=_ladder_run)
    lw = lad_sub.add_parser(
        "worker", help="play the boards of distributed ladders queued in a PostgreSQL store"
    )
    lw.add_argument("--db", help="postgresql://USER@HOST[:PORT]/DB (default: --config's db)")
    lw.add_argument("--config", metavar="FILE.toml", help=CONFIG_HELP)
    lw.add_argument(
        "--lease-s",
        type=float,
        default=60.0,
        help="a claimed board's lease, renewed while played; a dead worker's boards are "
        "played again after it (default 60, at most 86400: a day)",
    )
    lw.add_argument(
        "--exit-when-done",
        action="store_true",
        help="stop once no board of any run is left unplayed (default: wait for more)",
    )
    lw.add_argument(
        "--db-wait",
        type=float,
        metavar="SECONDS",
        help="the worker waits this long for its database when it is away "
        "(a restart, a failover) before it gives up (docs/bots.md; default 300)",
    )
    lw.set_defaults(func=_ladder_worker)
    lf = lad_sub.add_parser(
        "finish",
        help="count a distributed run whose 'ladder run --distributed' is gone, once "
        "its boards are played (docs/bots.md)",
    )
    _run_in_database(lf)
    lf.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    lf.set_defaults(func=_ladder_finish)
    lc = lad_sub.add_parser(
        "cancel",
        help="cancel a distributed run: its boards not played are dropped, it is never "
        "counted (docs/bots.md)",
    )
    _run_in_database(lc)
    lc.set_defaults(func=_ladder_cancel)
    lt = lad_sub.add_parser("table", help="the leaderboard")
    lt.add_argument("--db", help=DB_HELP)
    lt.add_argument("--config", metavar="FILE.toml", help=CONFIG_HELP)
    lt.add_argument("--json", action="store_true", help="the leaderboard's rows as JSON")
    lt.add_argument(
        "--runs",
        action="store_true",
        help="with --json: one object, the leaderboard, every run with its summary and "
        "settings, and what the text says below the ratings (docs/bots.md)",
    )
    lt.set_defaults(func=_ladder_table)

    adm = sub.add_parser(
        "admin",
        help="register an admin's name (password on standard "
        "input); a login can never register a name listed in admins",
    )
    adm.add_argument(
        "name",
        metavar="NAME",
        help="the name, as a login takes it (2-20 letters, digits, '_' or '-'); the "
        "server's admins setting must list it too",
    )
    adm.add_argument(
        "--replace",
        action="store_true",
        help="NAME is registered already (maybe a player's): give it this password, "
        "its old one stops working",
    )
    adm.add_argument("--db", help=DB_HELP)
    adm.add_argument("--config", metavar="FILE.toml", help=CONFIG_HELP)
    adm.set_defaults(func=_admin)

    bk = sub.add_parser(
        "backup",
        help="copy the SQLite store consistently, while a server runs on it too "
        "(a PostgreSQL store: pg_dump)",
    )
    bk.add_argument(
        "out", metavar="OUT", help="the copy's file, made 0600: it holds the password hashes"
    )
    bk.add_argument("--db", help="the SQLite file (default: --config's db, or deberc.sqlite3)")
    bk.add_argument("--config", metavar="FILE.toml", help=CONFIG_HELP)
    bk.add_argument("--replace", action="store_true", help="OUT exists already: write over it")
    bk.set_defaults(func=_backup)

    mv = sub.add_parser(
        "move-store",
        help="copy the club's SQLite store whole into an empty PostgreSQL database, its "
        "server stopped first (docs/scaling.md)",
    )
    mv.add_argument(
        "to", metavar="postgresql://USER@HOST[:PORT]/DB", help="the empty database (createdb)"
    )
    mv.add_argument("--db", help="the SQLite file (default: --config's db, or deberc.sqlite3)")
    mv.add_argument("--config", metavar="FILE.toml", help=CONFIG_HELP)
    mv.set_defaults(func=_move_store)

    rec = sub.add_parser("records", help="stored deal records")
    rec_sub = rec.add_subparsers(dest="records_command", required=True)
    export = rec_sub.add_parser("export", help="print every stored deal as a JSON line")
    export.add_argument("--db", help=DB_HELP)
    export.add_argument("--config", metavar="FILE.toml", help=CONFIG_HELP)
    export.set_defaults(func=_records_export)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C that no command handles (yet): during its imports
        if argv is not None:  # a program's own call (a test, a notebook): its to handle
            raise
        _end_by_sigint()  # the console script's (`deberc-net`, `python -m deberc_net`)


def _end_by_sigint() -> NoReturn:
    """End quietly, as an interrupted process does: no traceback, the process ended by
    SIGINT (a shell's status 130, a loop in a script stops), as Python ends on an
    uncaught KeyboardInterrupt once it has printed it."""
    import signal

    with contextlib.suppress(OSError):  # what is written is out first (a reader gone)
        sys.stdout.flush()
        sys.stderr.flush()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
    raise SystemExit(130)  # (where a SIGINT does not end a process at once)


def _main(argv: Sequence[str] | None) -> int:
    freeze_heap_at_exit()
    args = build_parser(
        play_help_lang(sys.argv[1:] if argv is None else argv, os.environ)
    ).parse_args(argv)
    if getattr(args, "games", 1) < 1:
        print("deberc-net selfplay: --games must be at least 1", file=sys.stderr)
        return 2
    if args.command != "serve" and hasattr(args, "db"):  # serve reads its whole file
        _store_command_logs()
        problem = _db_from_config(args)
        if problem is not None:
            command = " ".join(
                filter(None, (args.command, getattr(args, f"{args.command}_command", None)))
            )
            said_each(f"deberc-net {command}", problem)
            return 2
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # here, where a reader gone is caught, not at the exit
    except BrokenPipeError:  # `selfplay | head -1`: quiet, as cat or grep
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the exit's flush
        return 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
