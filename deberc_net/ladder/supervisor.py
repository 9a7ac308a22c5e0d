"""The bots of a ladder: start each copy, restart it when it exits, and give up (with
its last words) on one that cannot run at all. A bot given as a command runs as its own
process over TCP; one given as ``py:MODULE`` (a bot module of the client library with a
``brain(name, seed)``) runs inside the ladder's process, over memory streams to the
ladder's own server (over TCP to a ``--server``)."""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter, deque
from collections.abc import Callable
from types import ModuleType

import attrs
import trio

from clients.client import FAULT_COUNTS_ENV, Attach, Bot, Brain, Connect
from deberc_net.child_env import child_environment

from .bot_output import BotOutput, ErrorLines
from .schedule import BotsCannotPlay, ScheduleError

IN_PROCESS = "py:"  # the prefix of an in-process bot's spec: py:MODULE [--seed S]

# A copy restarted more than MAX_RESTARTS times within RESTART_WINDOW_S keeps exiting:
# the bot is given up. A rate, not a run's total: a bot that crashes now and then is
# restarted however long the run (a whole run's 20 stopped a long one).
MAX_RESTARTS = 20
RESTART_WINDOW_S = 600.0
# A copy that cannot start (a bad command, a missing module) exits at once, again and
# again: after QUICK_EXITS of those the bot is given up at once, not after MAX_RESTARTS.
# Only while the ladder starts: once every copy has logged in (``logged_in``), or one
# ran LIVED_S, the bot did start, and an exit is a crash (a bot that played a few calls
# and crashed was given up as one that could not start: a tryout's bot, 1.5 s a life).
QUICK_EXITS = 3
LIVED_S = 2.0
# a bot command that cannot start for these reasons never will, on any machine set up
# as the docs ask: no such program, not allowed to run it, not a program
_THE_COMMANDS_FAULT = frozenset(
    (errno.ENOENT, errno.EACCES, errno.ENOEXEC, errno.ENOTDIR, errno.ELOOP, errno.ENAMETOOLONG)
)
STOP_S = 2.0  # a bot process asked to stop (SIGTERM) is killed if still running after this


@attrs.define
class Restarts:
    """One copy's restarts within the last ``RESTART_WINDOW_S`` (trio's clock)."""

    times: deque[float] = attrs.Factory(deque)

    def count(self) -> int:
        """Count a restart now; how many there were in the window, this one too."""
        now = trio.current_time()
        self.times.append(now)
        while self.times[0] <= now - RESTART_WINDOW_S:
            self.times.popleft()
        return len(self.times)


class BotCannotRun(BotsCannotPlay):
    """A bot that cannot run at all (it cannot start, or keeps exiting or failing): a
    distributed ladder's worker fails the run with it and goes on to other runs."""

    def __init__(self, bot: str, error: str) -> None:
        super().__init__(error)
        self.bot = bot

    def __reduce__(self) -> tuple[type[BotCannotRun], tuple[str, str]]:
        return BotCannotRun, (self.bot, str(self))  # (its own arguments: pickled whole)


def start_refused(bot: str, exc: OSError) -> ScheduleError:
    """Why a bot's process could not start: the command's own fault fails a distributed
    run (BotCannotRun); this machine's passing want (memory, processes, descriptors)
    stops only the worker that met it, and another plays its boards."""
    said = f"cannot start bot {bot!r}: {exc}"
    return BotCannotRun(bot, said) if exc.errno in _THE_COMMANDS_FAULT else ScheduleError(said)


def _signal_group(pgid: int, signum: signal.Signals) -> None:
    """Signal a bot process's group: the bot and whatever it started (none left: no-op;
    nor one gone whose number another user's group took since)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


@attrs.frozen
class BotSpec:
    name: str
    command: str
    # an in-process bot whose brain acts on its asks alone (``Brain.asks_only``)
    asks_only: bool = attrs.field(default=False, eq=False)

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        name, sep, command = text.partition("=")
        if not sep or not name or not command.strip():
            raise ScheduleError(f"--bot takes NAME=COMMAND, got {text!r}")
        if not all(ch.isalnum() or ch in "_-" for ch in name) or len(name) > 16:
            raise ScheduleError(f"bot name {name!r}: up to 16 letters, digits, '_' or '-'")
        spec = cls(name, command)
        if spec.in_process:
            make = spec.brain_factory()  # a bad module stops the ladder before it starts
            try:
                brain = make(name)  # and so does a brain its settings refuse
            except (ValueError, TypeError) as exc:
                raise ScheduleError(f"bot {name!r}: {exc}") from exc
            spec = attrs.evolve(spec, asks_only=brain.asks_only)
        return spec

    @property
    def in_process(self) -> bool:
        return self.command.startswith(IN_PROCESS)

    def _module_and_seed(self) -> tuple[str, str | None]:
        words = shlex.split(self.command.removeprefix(IN_PROCESS))
        if len(words) == 1:
            return words[0], None
        if len(words) == 3 and words[1] == "--seed":
            return words[0], words[2]
        raise ScheduleError(f"bot {self.name!r}: py:MODULE [--seed S], got {self.command!r}")

    def brain_factory(self) -> BrainFactory:
        """The module's ``brain(name, seed)``, with the spec's seed."""
        module_name, seed = self._module_and_seed()
        try:
            module = _import_here_too(module_name)
        except ImportError as exc:
            raise ScheduleError(f"bot {self.name!r}: cannot import {module_name}: {exc}") from exc
        make = getattr(module, "brain", None)
        if not callable(make):
            raise ScheduleError(
                f"bot {self.name!r}: {module_name} has no brain(name, seed) for in-process play"
            )
        return lambda instance: make(instance, seed)

    def argv(self, host: str, port: int, instance: str) -> list[str]:
        if "{port}" in self.command or "{name}" in self.command:
            text = self.command.format(host=host, port=port, name=instance)
            return shlex.split(text)
        return [
            *shlex.split(self.command),
            "--host",
            host,
            "--port",
            str(port),
            "--name",
            instance,
            "--seek",
            "reserved",
        ]


BrainFactory = Callable[[str], Brain]


def missing_program(bot: BotSpec) -> str | None:
    """Why ``bot``'s command cannot start on this machine (its program is not found on
    PATH, nor an executable file; its words cannot be split), in the words of a ladder
    whose bot cannot start; None if it can, or if it is in-process (its module was
    imported by ``BotSpec.parse``)."""
    if bot.in_process:
        return None
    try:
        program = bot.argv("127.0.0.1", 1, f"{bot.name}-1")[0]
    except (ValueError, KeyError, IndexError) as exc:  # quotes, or braces, unmatched
        return f"cannot start bot {bot.name!r}: its command cannot be read: {exc}"
    if shutil.which(program) is None:  # (a path: that file, if it may be run)
        return (
            f"cannot start bot {bot.name!r}: no program {program!r} on this machine "
            "(not on PATH, or not an executable file)"
        )
    return None


def _import_here_too(module_name: str) -> ModuleType:
    """The module: installed, or else in the current
    directory (``deberc-net`` is a script, so that directory is not on the path)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        top = module_name.partition(".")[0]
        if exc.name != top or here in sys.path or "" in sys.path:
            raise
        sys.path.append(here)  # last: an installed module of that name comes first
        return importlib.import_module(module_name)


@attrs.define
class Supervisor:
    """Keeps every copy of every bot running until ``stop``; counts the crashes."""

    host: str
    port: int
    crashes: Counter[str] = attrs.Factory(Counter)
    # in-process bots reach the server this way (None: TCP to host:port)
    connect: Connect | None = None
    # … or, on our own server, by a link that hands them its bytes as written: they
    # answer in the server's call, with no task woken a line (clients/client.py, Handed)
    attach: Attach | None = None
    stopping: bool = False
    # where the process copies keep their guest tokens, so a restarted copy resumes its
    # seat (clients/client.py reads DEBERC_TOKEN_DIR); made as the first one starts (an
    # in-process copy keeps its token in its Bot: a ladder of those makes none)
    token_dir: str = ""
    # the in-process bots whose brains act on their asks alone are told only those
    # (and each match's end): the ladder sets it when every one of its bots is such
    asks_only: bool = False
    # told of a bot that cannot run (it returns then): the ladder stops as an interrupt
    # does, releasing its started boards, then fails with it; None: the error is raised
    on_give_up: Callable[[ScheduleError], None] | None = None
    # the in-process copies, by bot: their stats (fallbacks, first fault) go in the report
    in_process: list[tuple[str, Bot]] = attrs.Factory(list)
    # every process a copy ran as (a restart is another), by bot: the fault counts it
    # said go in the report (``process_faults``)
    outputs: list[tuple[str, BotOutput]] = attrs.Factory(list)
    # the copies' lines for the ladder's standard error, written by a thread: the ladder
    # runs ``lines.write`` beside them and ``lines.flush`` at its end
    lines: ErrorLines = attrs.Factory(ErrorLines)
    # every copy has logged in (the ladder saw them all in 'who' before its first
    # board): from then on no exit is a failure to start
    logged_in: bool = False

    def stop(self) -> None:
        self.stopping = True

    def _give_up(self, error: ScheduleError) -> None:
        if self.on_give_up is None:
            raise error
        self.on_give_up(error)

    def close(self) -> None:
        """After every copy has exited: the tokens are of no use any more."""
        if self.token_dir:
            shutil.rmtree(self.token_dir, ignore_errors=True)

    def _env(self) -> dict[str, str]:
        if not self.token_dir:
            self.token_dir = tempfile.mkdtemp(prefix="deberc-tokens-")
        # not the ladder's secrets (the admin's password, the database's): child_env.py
        return child_environment(DEBERC_TOKEN_DIR=self.token_dir, **{FAULT_COUNTS_ENV: "1"})

    def process_faults(
        self,
    ) -> tuple[dict[str, int], dict[str, int], dict[str, str], dict[str, int]]:
        """The process copies' fallbacks, exceptions, first fault and drops (reconnects),
        by bot, as they said them (``Summary.add_faults`` takes them)."""
        fallbacks: Counter[str] = Counter()
        raised: Counter[str] = Counter()
        reconnects: Counter[str] = Counter()
        first: dict[str, str] = {}
        for bot, output in self.outputs:
            fallbacks[bot] += output.fallbacks
            raised[bot] += output.exceptions
            reconnects[bot] += output.reconnects
            if output.first_fault is not None:
                first.setdefault(bot, output.first_fault)
        return dict(fallbacks), dict(raised), first, dict(reconnects)

    async def keep_running(self, bot: BotSpec, instance: str) -> None:
        if bot.in_process:
            await self._keep_in_process(bot, instance)
            return
        recent = Restarts()
        started_once = False
        while not self.stopping:
            argv = bot.argv(self.host, self.port, instance)
            try:
                proc = await trio.lowlevel.open_process(
                    argv,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    env=self._env(),
                    # a group of its own: what it starts (a wrapper script's children)
                    # is stopped with it
                    process_group=0,
                )
            except OSError as exc:
                self._give_up(start_refused(bot.name, exc))
                return
            assert proc.stderr is not None
            output = BotOutput(instance, self.lines)  # its stderr, passed on to the ladder's
            self.outputs.append((bot.name, output))
            async with trio.open_nursery() as relaying:
                relaying.start_soon(output.relay, proc.stderr)
                began = trio.current_time()
                try:
                    await proc.wait()
                finally:
                    if proc.returncode is None:
                        _signal_group(proc.pid, signal.SIGTERM)
                        with trio.CancelScope(shield=True), trio.move_on_after(STOP_S):
                            await proc.wait()
                    # what it started and left behind (exited or not) goes with it
                    _signal_group(proc.pid, signal.SIGKILL)
                # its last lines, unless a child of its own holds its stderr open
                relaying.cancel_scope.deadline = trio.current_time() + 1
                if self.stopping:
                    return
            tail = output.last_words
            lived = trio.current_time() - began > LIVED_S
            started_once = started_once or self.logged_in or lived
            self.crashes[bot.name] += 1
            restarts = recent.count()
            if restarts > MAX_RESTARTS or (not started_once and restarts >= QUICK_EXITS):
                # it cannot run at all: a ladder without it would wait for it forever
                self._give_up(
                    BotCannotRun(
                        bot.name,
                        f"bot {bot.name!r} keeps exiting (code {proc.returncode}); "
                        f"command: {shlex.join(argv)}; its last words: {tail or '(none)'}",
                    )
                )
                return
            await trio.sleep(min(1.0, 0.05 * restarts))

    async def _keep_in_process(self, spec: BotSpec, instance: str) -> None:
        """Play in this process until ``stop``; a copy that fails is restarted (the same
        ``Bot``, so it keeps its guest token and resumes its seat)."""
        brain = spec.brain_factory()(instance)
        bot = Bot(
            brain.choose,
            instance,
            self.host,
            self.port,
            seek="reserved",
            on_board=brain.on_board,
            on_event=brain.on_event,
            connect=self.connect,
            attach=self.attach,
            inline=True,
            pick=brain.pick,
            asks_only=self.asks_only and brain.asks_only,
            # its first fault said on standard error, as a process's would be
            tell=lambda text: self.lines.say(f"{instance}: {text}"),
        )
        self.in_process.append((spec.name, bot))
        recent = Restarts()
        while not self.stopping:
            try:
                await bot.run()
                last_words = "it stopped playing"
            except Exception as exc:  # its failure is a crash, as a process's exit is
                last_words = repr(exc)
            if self.stopping:
                return
            self.crashes[spec.name] += 1
            restarts = recent.count()
            if restarts > MAX_RESTARTS:
                self._give_up(
                    BotCannotRun(
                        spec.name, f"bot {spec.name!r} keeps failing; its last words: {last_words}"
                    )
                )
                return
            await trio.sleep(min(1.0, 0.05 * restarts))
