"""A server process keeps no password hash's 16 MiB once it is done (server/allocator.py,
docs/security.md §1): in a process of its own, so the allocator's settings and heaps are
those of a fresh server, four threads hash at once, twice, and the memory they leave
held is measured, with and without the server's settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HASHES_AT_ONCE = """
import hashlib, sys, threading
from concurrent.futures import ThreadPoolExecutor

from deberc_net.server import accounts
from deberc_net.server.allocator import keep_big_blocks_returned

if sys.argv[1] == "server":
    assert keep_big_blocks_returned()

def resident_mib():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024

before = resident_mib()
together = threading.Barrier(4)

def check(i):
    together.wait()  # all four at once, each in a thread (and its heap) of its own
    accounts.password_hash("a password", bytes(16))

with ThreadPoolExecutor(4) as threads:
    for _ in range(2):
        list(threads.map(check, range(4)))
    print(resident_mib() - before)
"""


def _held_mib(settings: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", HASHES_AT_ONCE, settings],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    return int(done.stdout)


def _glibc() -> bool:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (ValueError, OSError):
        return False


@pytest.mark.skipif(not _glibc(), reason="the settings are glibc's allocator's")
def test_a_server_process_keeps_no_hashs_memory_once_it_is_done() -> None:
    # without them, each thread's heap keeps the 16 MiB of its last hash
    assert _held_mib("default") >= 48
    assert _held_mib("server") <= 16
