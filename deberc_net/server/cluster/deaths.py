"""A worker that dies again and again before it serves (its database away: each worker
started again fails at once, every ``worker_restart_ms``), said as operations people
want it (docs/settings.md, "Logs"): its first death a ``worker_died`` warning, as ever;
the deaths after it, until a worker in its place serves again, counted, not each a
warning (a database outage logged one a second a worker, s45), but said again at most
once a minute (``worker_died_again``, with the count), and summed up when the run of
them ends (``worker_deaths_ended``: a worker serves in its place, or the server stops).
The parent's loop (launch.py) tells it of each death and each worker serving."""

from __future__ import annotations

import attrs
import structlog

log = structlog.get_logger("deberc.workers")
SAID_AGAIN_S = 60.0  # a run of deaths is said again, with its count, at most this often


@attrs.define
class Run:
    """A worker's deaths since it last served."""

    first: float  # when the first died (the parent's monotonic clock)
    said: float  # when they were last said
    deaths: int = 1


@attrs.define
class Deaths:
    """The runs of deaths of the parent's workers, by worker index."""

    runs: dict[int, Run] = attrs.Factory(dict)

    def died(self, worker: int, pid: int, status: int, reason: str | None, now: float) -> None:
        """Worker ``worker`` (process ``pid``) ended with ``status`` (``reason``: its own
        words) other than as asked, not in a drain: it is started again."""
        run = self.runs.get(worker)
        if run is None:
            self.runs[worker] = Run(first=now, said=now)
            log.warning("worker_died", worker=worker, pid=pid, status=status, reason=reason)
            return
        run.deaths += 1
        if now - run.said >= SAID_AGAIN_S:
            run.said = now
            log.warning(
                "worker_died_again",
                worker=worker,
                pid=pid,
                status=status,
                reason=reason,
                deaths=run.deaths,
                seconds=round(now - run.first),
            )

    def serving(self, worker: int, now: float) -> None:
        """A worker in ``worker``'s place serves (its 'ready'): its run of deaths, if
        any, is over (summed up if it was more than the one death said)."""
        self._ended(worker, now, "serving")

    def stopped(self, now: float) -> None:
        """The server stops: every run still on is over."""
        for worker in sorted(self.runs):
            self._ended(worker, now, "stopped")

    def _ended(self, worker: int, now: float, how: str) -> None:
        run = self.runs.pop(worker, None)
        if run is not None and run.deaths > 1:
            log.info(
                "worker_deaths_ended",
                worker=worker,
                deaths=run.deaths,
                seconds=round(now - run.first),
                how=how,
            )
