"""Why a distributed run stopped before its count: a worker could not run one of its
bots (failed), or ``ladder cancel`` (cancelled); a single-machine run whose bots could
not play is stored as failed too (LadderStore.fail_run). Kept in ``ladder_runs.stopped`` and
``stop_reason`` (migration 9). A stopped run's boards are never claimed again, no
worker stores results for it, and it is never counted: the games stored for it before
the stop stay stored, uncounted (docs/bots.md "Distributed ladders")."""

from __future__ import annotations

import enum

import attrs

from .schedule import ScheduleError


class StopKind(enum.Enum):
    FAILED = "failed"
    CANCELLED = "cancelled"


@attrs.frozen
class RunStop:
    kind: StopKind
    # failed: the worker and its bot's error (``worker H/P/T: cannot start bot 'x': …``);
    # cancelled: who cancelled it (``by 'ladder cancel' on H, process P``)
    reason: str

    @classmethod
    def failed(cls, worker: str, error: str) -> RunStop:
        return cls(StopKind.FAILED, f"worker {worker}: {error}")

    @classmethod
    def from_row(cls, kind: str | None, reason: str | None) -> RunStop | None:
        """The stop of a ``ladder_runs`` row (None: not stopped)."""
        return None if kind is None else cls(StopKind(kind), reason or "")

    def line(self, run: int) -> str:
        """What the run's waiter, ``ladder finish`` and ``ladder table`` say of it."""
        if self.kind is StopKind.FAILED:
            return f"run {run} failed: {self.reason}"
        return f"run {run} was cancelled {self.reason}"

    def told(self) -> str:
        """The stop as the public web pages say it: not its reason, which names hosts,
        command lines and a bot's last lines of output (`ladder table` says it)."""
        if self.kind is StopKind.FAILED:
            return "failed: a bot could not run"
        return "cancelled"

    def already(self, run: int) -> str:
        """What a second stop of the run is told."""
        if self.kind is StopKind.FAILED:
            return f"run {run} failed already ({self.reason})"
        return f"run {run} is cancelled already ({self.reason})"


class RunStopped(ScheduleError):
    """The run stopped (failed or cancelled) while this process waited on it or played
    it: its one line, for the CLI's status 2."""

    def __init__(self, run: int, stop: RunStop, tail: str = "") -> None:
        super().__init__(stop.line(run) + tail)
        self.run = run
        self.stop = stop
