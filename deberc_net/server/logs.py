"""structlog set-up: JSON lines off a terminal, readable console output on one."""

from __future__ import annotations

import codecs
import logging
import os
import sys
from typing import Any, TextIO, cast

import attrs
import structlog


def configure_logging(
    level: str = "info",
    json_output: bool | None = None,
    worker: int | None = None,
    lifecycle: bool = True,
) -> None:
    """``worker``: a ``serve --workers`` worker's index, on each of its lines (the
    workers share the parent's stderr, and each counts its connections from 1).
    ``lifecycle``: a server's lifecycle lines are written whatever ``level`` says
    (``LifecycleLog``); False for a ladder's own server, whose output is the ladder's."""
    global lifecycle_passes
    lifecycle_passes = lifecycle
    if json_output is None:
        json_output = not sys.stderr.isatty()
    renderer: structlog.typing.Processor = (
        # Cyrillic as written (a 'said' line in Russian read with less or grep), not
        # \u-escaped, where standard error writes UTF-8; elsewhere (an ASCII locale) it
        # would write 'é' as '\xe9', no JSON: escaped there
        structlog.processors.JSONRenderer(ensure_ascii=not _writes_utf8(sys.stderr))
        if json_output
        else structlog.dev.ConsoleRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            *([] if worker is None else [_Worker(worker)]),
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping()[level.upper()]
        ),
        # one write per line (print writes the text, then the newline): the workers of
        # 'serve --workers' share the parent's stderr, and a line written whole (under
        # PIPE_BUF) is never split by another process's line
        logger_factory=structlog.WriteLoggerFactory(cast(TextIO, _CurrentStderr())),
        cache_logger_on_first_use=True,
    )
    for name in ("psycopg", "psycopg_pool"):  # their own warnings, as lines of ours
        driver = logging.getLogger(name)
        driver.handlers = [_DriverLines()]
        driver.propagate = False


def _writes_utf8(stream: object) -> bool:
    encoding = getattr(stream, "encoding", None)
    try:
        return encoding is not None and codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


# whether a server's lifecycle lines pass the level filter (configure_logging's word)
lifecycle_passes = True
_UNFILTERED = structlog.make_filtering_bound_logger(logging.NOTSET)


@attrs.frozen
class LifecycleLog:
    """A logger whose lines pass whatever ``log_level`` says, at ``info``: a server's
    lifecycle (``listening``, ``shutdown``, ``stopped``), which an operator needs under
    ``log_level = "warning"`` too (docs/security.md's checklist), as the ``--workers``
    parent writes its own (docs/settings.md, "Logs"). A few lines a run: a logger
    made at each is cheap enough, and follows ``configure_logging`` made at any time."""

    name: str

    def info(self, event: str, **fields: Any) -> None:
        wrapper = _UNFILTERED if lifecycle_passes else None  # None: the configured one
        logger = structlog.wrap_logger(None, wrapper_class=wrapper, logger_factory_args=[self.name])
        logger.info(event, **fields)


def plain_unless_configured() -> None:
    """For a program that embeds the server (``serve``) and sets no logging up:
    structlog's own defaults, but its tracebacks plain. Its default draws every frame
    with its locals (rich): a table's failure once took 48 s to log, the table stalled."""
    if structlog.is_configured():
        return
    plain = structlog.dev.ConsoleRenderer(exception_formatter=structlog.dev.plain_traceback)
    processors = structlog.get_config()["processors"]
    structlog.configure(
        processors=[
            plain if isinstance(p, structlog.dev.ConsoleRenderer) else p for p in processors
        ]
    )


class _DriverLines(logging.Handler):
    """The PostgreSQL driver's log records (a pipeline given up on a lost connection) as
    JSON lines like every other, not bare text among them (``database_driver``)."""

    def emit(self, record: logging.LogRecord) -> None:
        log = structlog.get_logger("deberc.db")  # (warnings and errors only reach here)
        log.warning("database_driver", logger=record.name, text=record.getMessage())


class _Worker:
    """Puts ``worker`` on every line (first, as the parent's ``worker_*`` lines have it)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __call__(
        self, logger: object, method: str, event_dict: structlog.typing.EventDict
    ) -> structlog.typing.EventDict:
        return {"worker": self.index, **event_dict}


class _CurrentStderr:
    """Writes to ``sys.stderr`` as it is at each line, not as it was at set-up: a
    process that swaps it (and closes the old one, as a test's capture does) would
    otherwise make every later log line raise, hiding the error being logged.

    A line it cannot write is dropped, not raised: raised, it came out of whatever
    logged it (a connection's task, a table's), and a server whose log's reader went
    away (``serve 2>&1 | tee club.log``, tee stopped; a log shipper restarted) stopped
    with status 1 at its next line, every player cut off. A pipe with no reader never
    takes a line again: standard error becomes /dev/null (the lines it kept are
    dropped, and the exit does not fail flushing them). A full disk under ``2>> FILE``
    drops the lines until there is room."""

    def write(self, text: str) -> int:
        try:
            return sys.stderr.write(text)
        except OSError as exc:
            _gone(exc)
            return len(text)

    def flush(self) -> None:
        try:
            sys.stderr.flush()
        except OSError as exc:
            _gone(exc)


def _gone(exc: OSError) -> None:
    if isinstance(exc, BrokenPipeError):
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (kept open)
