"""The clock a decision's time is measured on: the wall clock, or (``DEBERC_SEARCH_CLOCK=cpu``)
the thinking thread's own CPU time, so that a benchmark on a loaded machine gives the bot
the same amount of thinking as on a quiet one (its decisions then take longer)."""

from __future__ import annotations

import os
import time

CLOCK_ENV = "DEBERC_SEARCH_CLOCK"


now = time.thread_time if os.environ.get(CLOCK_ENV) == "cpu" else time.perf_counter
