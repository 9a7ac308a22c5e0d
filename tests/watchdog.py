"""Clean-up that outlives the tests' process.

A PostgreSQL server (pg_ctl puts it in a session of its own) and Chromium (under
chromedriver) are not stopped by the death of the pytest process that started them: a run
killed mid-way (a timeout, ``kill -9``, a CI job cancelled) left them running for ever.
So each is watched: a shell in a session of its own waits on a pipe whose other end only
the tests' process holds, and when that end closes, because the tests are done with what
it watches or because their process died however it died, it runs the clean-up commands.
The normal stop goes the same way (``Watchdog.fire``): one way out, the one a kill takes.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Sequence

import attrs

# signals for a terminal's or a process group's Ctrl-C are not for it (its session is
# its own anyway); `read` returns at the end of the pipe: every writer is gone
_SCRIPT = "trap '' INT TERM HUP; read -r _; {first}; status=$?; {rest}exit $status"


@attrs.define
class Watchdog:
    process: subprocess.Popen[bytes]
    _pipe: int | None

    @classmethod
    def arm(cls, first: Sequence[str], *rest: Sequence[str]) -> Watchdog:
        """Run ``first`` and then each of ``rest`` once this process closes the pipe or
        dies; the watchdog's exit status is ``first``'s."""
        read_end, write_end = os.pipe()  # neither is inherited by the processes we start
        script = _SCRIPT.format(
            first=shlex.join(first), rest="".join(f"{shlex.join(c)}; " for c in rest)
        )
        try:
            process = subprocess.Popen(
                ["sh", "-c", script],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        return cls(process, write_end)

    def fire(self, timeout: float = 120) -> int:
        """Run the clean-up now and wait for it: its first command's exit status."""
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        return self.process.wait(timeout=timeout)
