"""One worker of ``serve --workers N``, forked by launch.py (forked.py), or run as
``python -m`` by a fresh one (after a rolling restart, or beside a plugin's thread):
the ordinary server, on the shared port, in the shared lobby."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from deberc_net.cli import _structlog_without_rich
from deberc_net.hangup import StopSignals

from . import DRAIN_WORD, STOP_WORD, WorkerPlace

if TYPE_CHECKING:
    from deberc_net.plugins import RuleBook

STDIN = 0  # the pipe from the parent (launch.py)


def import_the_server() -> RuleBook:
    """What a worker runs, imported, and the rules loaded: once, in the parent, before
    any worker is forked (forked.preload). A broken plugin raises PluginError here, in
    the parent, which says it as a lone ``serve`` does (cli.py), in two lines and status
    2: before, each worker raised it as a traceback and the parent ended with status 1.
    The logs are JSON lines: structlog without rich, as 'serve' itself does (cli.py), so
    the server is imported only once that is done."""
    _structlog_without_rich()
    import psycopg  # noqa: F401
    import psycopg_pool  # noqa: F401
    import trio  # noqa: F401

    import deberc_net.server.allocator
    import deberc_net.server.app
    import deberc_net.server.cluster.node
    import deberc_net.server.logs
    import deberc_net.server.running
    import deberc_net.server.store.migrations
    import deberc_net.server.store.postgres  # noqa: F401
    from deberc_net.plugins import RuleBook

    return RuleBook.load()


def worker_main(told: dict[str, Any], rules: RuleBook | None = None) -> int:
    """The worker's run (in the child forked.py made): ``told``, launch.py's
    ``start_worker``'s settings; ``rules``: loaded by the parent (None: loaded here);
    its exit status."""
    import psycopg
    import structlog
    import trio

    from deberc_net.plugins import RuleBook
    from deberc_net.server.allocator import keep_big_blocks_returned
    from deberc_net.server.app import ListenError, serve, sole_exception
    from deberc_net.server.config import Config
    from deberc_net.server.logs import configure_logging
    from deberc_net.server.store import StoreError, describe

    keep_big_blocks_returned()  # before any thread starts (server/allocator.py)
    # its stdout (a pipe to the parent) written at each line, as a terminal's is: a
    # plugin's print kept in a block buffer was lost with a worker killed (its log
    # lines, on stderr, are written and flushed one by one already: logs.py)
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(line_buffering=True)
    config = Config(**told["config"])
    place = WorkerPlace(
        int(told["index"]),
        int(told["count"]),
        str(told.get("parent", "")),
        int(told.get("parent_pid", 0)),
    )
    configure_logging(config.log_level, worker=place.index)
    if rules is None:
        rules = RuleBook.load()

    # a SIGTERM the server's stop left unread (Ctrl-C in a terminal reaches every
    # worker, then the parent passes SIGTERM on) killed the worker before its stop was
    # done (its writes, its bus's 'bye'): StopSignals ignores it once the server serves
    stops = StopSignals()
    stops.install()
    _stop_with_the_parent(place)

    def ready(port: int) -> None:
        stops.served(port)
        # with the database as its logs name it (a password hidden): the parent's
        # 'listening' line says it without importing psycopg to read the address
        sys.stdout.write(f"ready {json.dumps(describe(config.db))}\n")
        sys.stdout.flush()

    try:
        trio.run(lambda: serve(config, handle_signals=True, rules=rules, worker=place, ready=ready))
    except (OSError, StoreError, ListenError, psycopg.Error, BaseExceptionGroup) as exc:
        cause = sole_exception(exc)  # out of the server's nursery
        leaves = list(_leaves(exc))
        # a query the database refused (not OperationalError: a constraint, a
        # privilege, a sequence at its end, SQL of ours it will not take) is a bug or
        # the database's own settings, not an outage: it read "its database connection
        # failed" without a traceback (s45)
        lost = [e for e in leaves if isinstance(e, psycopg.OperationalError)]
        refused = [e for e in leaves if isinstance(e, psycopg.Error) and e not in lost]
        if refused:
            log = structlog.get_logger("deberc.workers")
            log.error("worker_error", exc_info=exc)
            said = " ".join(str(refused[0]).split())
            reason = (
                f"its database refused a query ({type(refused[0]).__name__}: {said}): a bug,"
                " or the database's own settings; the traceback is in the log (worker_error)"
            )
        elif lost and len(lost) == len(leaves):
            # its bus's connections (the database away): its listener and its publisher
            # may both have failed at once
            reason = f"its database connection failed: {' '.join(str(lost[0]).split())}"
        elif isinstance(cause, OSError | StoreError | ListenError):
            reason = str(cause)
        else:
            raise
        # the parent says it, in one line: the one line a single server says if the
        # service is not up yet, else its worker_died line's reason; status 2 either way
        sys.stdout.write(f"failed {reason}\n")
        sys.stdout.flush()
        return 2
    except KeyboardInterrupt:
        pass
    return 0


def _stop_with_the_parent(place: WorkerPlace) -> None:
    """SIGTERM to this worker once its parent is gone (even killed by SIGKILL): its
    stdin is a pipe the parent holds, and the parent's end closes with it. The worker
    then stops as on the parent's SIGTERM, telling its players (docs/protocol.md
    §11.4), and frees the ports for the next ``serve`` (docs/scaling.md). The words
    the parent writes there say the whole server drains, DRAIN_WORD (an admin's
    'drain' here then has nothing to ask: server/drain.py), or stops, STOP_WORD (the
    other workers' tables close with this one's: cluster/node.py): hear_the_parent."""

    def wait_for_eof() -> None:
        hear_the_parent(STDIN, place)
        place.parent_stops.set()  # the parent gone: every worker of it stops
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=wait_for_eof, name="parent-watch", daemon=True).start()


def hear_the_parent(fd: int, place: WorkerPlace) -> None:
    """Read the parent's words on ``fd`` until it closes (or cannot be read), setting
    ``place``'s event of each (parent_words). Every word counts: 'drain' then 'stop'
    in one read (the parent's drain, then its SIGTERM, read late) set both. Before
    (s46) only the last bytes read were looked at, and such a drain was lost."""
    rest = b""
    try:  # the file descriptor, not sys.stdin: a buffered reader's lock, held by
        # this daemon thread, would stop the interpreter's own exit with a fatal error
        while chunk := os.read(fd, 4096):
            words, rest = parent_words(rest, chunk)
            for word in words:
                if word == DRAIN_WORD:
                    place.parent_drains.set()
                elif word == STOP_WORD:
                    place.parent_stops.set()
    except OSError:
        pass  # no stdin to read: as if closed


# the longest line the parent writes: a longer one is no word of its, and only its
# first bytes are kept until its end (a pipe's stray bytes cannot grow the worker)
LONGEST_WORD = max(len(DRAIN_WORD), len(STOP_WORD))


def parent_words(rest: bytes, chunk: bytes) -> tuple[list[bytes], bytes]:
    """The whole lines (each with its newline) that ``chunk``, read after ``rest`` (what
    the last call left of a line not yet ended), ends, in order; and what is left of
    the line not ended yet, for the next call. A word may come in pieces, several in
    one read: each is told once, whole."""
    *lines, rest = (rest + chunk).split(b"\n")
    return [line + b"\n" for line in lines], rest[: LONGEST_WORD + 1]


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    """The exceptions in ``exc``'s nested groups (``exc`` itself if it is none)."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


def told_by_the_parent(argv: list[str]) -> dict[str, Any]:
    """A fresh worker's settings (forked.spawn_worker): read from the descriptor its
    argument ``--settings-fd N`` names, which is closed then (its house bots get
    nothing of it); with no argument, from the environment a parent of an earlier
    version put them in (a rolling upgrade's), dropped from it then, so that no process
    it starts inherits them. ValueError with the reason if they cannot be read."""
    from .forked import ENV, SETTINGS_FD

    if not argv:
        said = os.environ.pop(ENV, None)
        if said is None:
            raise ValueError(f"no settings: {SETTINGS_FD} N not given (serve --workers runs it)")
        where = f"${ENV}"
    elif len(argv) == 2 and argv[0] == SETTINGS_FD and argv[1].isdigit():
        where = f"descriptor {argv[1]}"
        try:
            with open(int(argv[1]), "rb") as file:
                said = file.read().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read its settings from {where}: {exc}") from None
    else:
        raise ValueError(f"unknown arguments {' '.join(argv)!r}: {SETTINGS_FD} N only")
    try:
        told = json.loads(said)
    except ValueError as exc:
        raise ValueError(f"its settings from {where} are not JSON: {exc}") from None
    if not isinstance(told, dict):
        raise ValueError(f"its settings from {where} are not a JSON object")
    return told


def fresh_worker_main(argv: list[str]) -> int:
    """A fresh worker's run: its settings read, then ``worker_main``; one it cannot
    read stops it, said to the parent as a failure to start is ('failed REASON')."""
    try:
        told = told_by_the_parent(argv)
    except ValueError as exc:
        sys.stdout.write(f"failed {exc}\n")
        sys.stdout.flush()
        return 2
    return worker_main(told)


if __name__ == "__main__":  # a fresh worker (forked.spawn_worker): its settings on a descriptor
    _structlog_without_rich()  # (the logs are JSON lines: before the server's imports)
    raise SystemExit(fresh_worker_main(sys.argv[1:]))
