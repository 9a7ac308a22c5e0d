"""A worker of ``serve --workers N`` forked from its parent (launch.py), which imported the
server once (``preload``): a worker skips the imports a fresh interpreter paid at every
start and restart (docs/performance.md, "Workers forked from a preloaded parent"), and
its imported modules' pages are the parent's, shared until written (``gc.freeze``).

The child is made what a fresh ``python -m`` worker was: its stdin and stdout the
parent's pipes (fd 0 and 1) and no other descriptor of the parent's but stderr (another
worker's stdin kept open here would hide the parent's death from that worker: worker.py
``_stop_with_the_parent``), the signals as a fresh interpreter has them, new file
objects on 0 and 1; it runs worker.py's ``worker_main`` and leaves by ``os._exit``,
never returning into the parent's loop. ``Child`` is the parent's handle on it, the few
things of ``subprocess.Popen`` launch.py uses.

A worker that cannot be a fork (a rolling upgrade's: the code installed may be newer
than the parent's imports; a parent that runs a thread, a plugin's) is a fresh
interpreter, ``spawn_worker``: ``subprocess.Popen``'s fork and exec, which runs no
Python in between and so is safe beside threads; its settings on a descriptor passed
to it, not in its environment."""

from __future__ import annotations

import contextlib
import fcntl
import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any, Protocol

import attrs

if TYPE_CHECKING:
    from deberc_net.plugins import RuleBook


class ForkRefused(Exception):
    """The parent runs threads: a fork would copy their locks as they are, held or not."""


class TimeoutExpired(Exception):
    """``Child.wait`` ran out of its time, the child still running."""


class Closable(Protocol):
    """A socket or a file: what a forked worker closes of its parent's."""

    def close(self) -> None: ...


# how often ``Child.wait`` looks (the parent's loop polls every 50 ms itself)
WAIT_STEP_S = 0.01


@attrs.define(eq=False)
class Child:
    """A forked worker as its parent sees it: its pid, the parent's ends of its pipes,
    and its ``returncode`` once reaped (as Popen gives it: -N for signal N)."""

    pid: int
    stdin: IO[bytes] | None
    stdout: IO[bytes] | None
    returncode: int | None = None
    # a spawned worker's (spawn_worker): it reaps it, and is kept so that its own
    # clean-up of dropped Popens never reaps it behind this handle's back
    popen: subprocess.Popen[bytes] | None = None

    def poll(self) -> int | None:
        """Its exit status if it has ended (reaped here), else None."""
        if self.returncode is None and self.popen is not None:
            self.returncode = self.popen.poll()
        elif self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped by someone else: its status is lost
                self.returncode = 0
            else:
                if pid == self.pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Its exit status once it has ended; ``TimeoutExpired`` after ``timeout`` s."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutExpired(f"worker {self.pid} still runs after {timeout} s")
            time.sleep(WAIT_STEP_S)
        return code

    def send_signal(self, signum: int) -> None:
        """``signum`` to it, unless it has been reaped (its pid may be another's now)."""
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def preload() -> RuleBook:
    """Import what a worker runs and load the rules, once, in the parent (worker.py
    ``import_the_server``: PluginError if a plugin is broken), and freeze what it
    made: every worker forked later shares it. The rules for ``fork_worker``."""
    from . import worker

    rules = worker.import_the_server()
    gc.freeze()
    return rules


def threads_running() -> int:
    """The threads of this process but the calling one: the kernel's count where there
    is /proc (a thread a C library started too), else ``threading``'s."""
    try:
        return len(os.listdir("/proc/self/task")) - 1
    except OSError:
        return threading.active_count() - 1


# a fresh worker's argument before the descriptor it reads ``told`` from (spawn_worker)
SETTINGS_FD = "--settings-fd"
# where a parent of an earlier version put ``told``, as JSON: its environment, which
# /proc/PID/environ showed, and every process the worker started (its house bots)
# inherited, the database's password with it. Read still (and dropped) by a worker
# a rolling upgrade started from such a parent (worker.py)
ENV = "DEBERC_NET_WORKER"


def fork_worker(
    told: dict[str, Any], rules: RuleBook | None, parents_own: Iterable[Closable]
) -> Child:
    """Worker ``told`` (worker.py ``worker_main``) forked, with the parent's ``rules``;
    ``parents_own``: what the child closes before it runs (the parent's bound socket,
    the other workers' pipes). ForkRefused if the parent runs a thread."""
    running = threads_running()
    if running:
        raise ForkRefused(
            f"cannot fork a worker: the parent of --workers runs {running} thread(s)"
            " besides its own, whose locks a child would inherit held"
        )
    for stream in (sys.stdout, sys.stderr):  # nothing written twice, by both
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    stdin_read, stdin_write = os.pipe()
    stdout_read, stdout_write = os.pipe()
    gc.freeze()  # what the parent made since is shared too, not copied at a collection
    # signals held over the fork: one come before the child has reset its handlers
    # would run the parent's handler there (a rolling restart's SIGTERM lost); the
    # child takes it with a fresh interpreter's handling, the parent with its own
    held = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    try:
        pid = os.fork()
        if pid == 0:  # the worker: it never returns from here
            code = 1
            try:
                code = _as_a_fresh_worker(told, rules, stdin_read, stdout_write, parents_own, held)
            finally:
                os._exit(code)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    os.close(stdin_read)
    os.close(stdout_write)
    # unbuffered: a line select saw is read whole, none kept behind (launch.heard_from)
    return Child(pid, open(stdin_write, "wb", buffering=0), open(stdout_read, "rb", buffering=0))


def spawn_worker(told: dict[str, Any]) -> Child:
    """Worker ``told`` as a fresh interpreter (``python -m
    deberc_net.server.cluster.worker``): it imports the code installed now and loads
    the rules itself (docs/scaling.md, "Forked workers"). Its settings, with the
    database's password, come on a descriptor of its own (``SETTINGS_FD``, a file of
    no name), not in its environment, which /proc shows and its house bots inherit.
    Its descriptors as a forked worker's (its pipes on 0 and 1, stderr, no other once it
    has read its settings); the signals the parent handles at their default, ignored
    ones ignored."""
    for stream in (sys.stdout, sys.stderr):  # nothing written twice, by both
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    settings = unnamed_settings_file(json.dumps(told).encode())
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "deberc_net.server.cluster.worker", SETTINGS_FD, str(settings)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            pass_fds=(settings,),  # (close-on-exec here: no other child gets it)
            bufsize=0,  # (as a fork's: a line select saw is read whole, launch.heard_from)
        )
    finally:
        os.close(settings)  # the worker's copy is its own
    return Child(process.pid, process.stdin, process.stdout, popen=process)


def unnamed_settings_file(data: bytes) -> int:
    """A descriptor of a file of no name holding ``data``, at its start: in memory
    (memfd) where there is one, else a temporary file unlinked as it was made. A file,
    not a pipe: the parent never waits on the worker to read it (a pipe holds 64 KiB,
    less for a user over the kernel's pipe limit), and no thread writes it (a thread in
    the parent would stop its forks). Close-on-exec, as every descriptor Python opens:
    no other child of the parent gets it."""
    memfd_create = getattr(os, "memfd_create", None)
    if memfd_create is not None:
        fd: int = memfd_create("deberc-net-worker-settings")
    else:
        with tempfile.TemporaryFile() as unnamed:
            fd = os.dup(unnamed.fileno())
    try:
        with open(fd, "wb", closefd=False) as file:
            file.write(data)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _as_a_fresh_worker(
    told: dict[str, Any],
    rules: RuleBook | None,
    stdin: int,
    stdout: int,
    parents_own: Iterable[Closable],
    mask: set[int | signal.Signals],
) -> int:
    """The child: made what a fresh interpreter was, then the worker; its exit status."""
    for thing in parents_own:  # (their objects closed too: no later close of a reused fd)
        with contextlib.suppress(OSError):
            thing.close()
    _pipes_on_0_and_1(stdin, stdout)
    _fresh_signals()
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # (the parent's, before the fork)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    errors = getattr(sys.stdout, "errors", None) or "strict"
    # the parent's objects stay behind sys.__stdin__/__stdout__ (their fds are ours now);
    # stdout line-buffered: worker.worker_main
    sys.stdin = open(0, encoding=encoding, errors=errors, closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding=encoding, errors=errors, closefd=False)  # noqa: SIM115
    from . import worker

    try:
        code = worker.worker_main(told, rules)
    except SystemExit as exc:
        code = _exit_status(exc)
    except KeyboardInterrupt:  # before its server took SIGINT: ended by it, as Python does
        _flushed()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        code = 130
    except BaseException:
        traceback.print_exc()
        code = 1
    # as the interpreter's exit: its non-daemon threads joined (the parent's atexit
    # functions are not this process's to run)
    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        shutdown()
    _flushed()
    return code


def _pipes_on_0_and_1(stdin: int, stdout: int) -> None:
    """The pipes' ends on fd 0 and 1, every other descriptor closed but stderr (2),
    as ``Popen(close_fds=True)`` left a fresh worker."""
    # above 2 first: a pipe may have been given fd 0 or 1 (the parent's closed)
    high_in = fcntl.fcntl(stdin, fcntl.F_DUPFD, 3)
    high_out = fcntl.fcntl(stdout, fcntl.F_DUPFD, 3)
    if 2 in (stdin, stdout):  # (its own stderr was closed: so is the worker's)
        os.close(2)
    os.dup2(high_in, 0)
    os.dup2(high_out, 1)
    try:
        open_fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        return
    for fd in open_fds:
        if fd > 2:
            with contextlib.suppress(OSError):  # (the listing's own, closed already)
                os.close(fd)


def _fresh_signals() -> None:
    """Each signal the parent handles back to what a fresh interpreter has: SIGINT
    Python's KeyboardInterrupt, the others their default; ignored ones (``nohup``'s
    SIGHUP, SIGPIPE) stay ignored, as across an exec."""
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    for signum in signal.valid_signals():
        try:
            handler = signal.getsignal(signum)
        except (OSError, ValueError):
            continue
        if callable(handler) and handler is not signal.default_int_handler:
            fresh = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
            signal.signal(signum, fresh)


def _exit_status(exc: SystemExit) -> int:
    """The status ``sys.exit(arg)`` ends a process with (a message printed: 1)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    print(exc.code, file=sys.stderr)
    return 1


def _flushed() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
