"""The C allocator's settings for a server process (glibc only; elsewhere nothing).

Each password check's scrypt takes 16 MiB. glibc serves such a block with its own
mapping and unmaps it when freed, but then raises its mapping threshold to that
size, so the next ones come from the heap of whichever thread runs the hash, and
every thread's heap (arena) keeps what it once held: a login flood on loopback grew a
server to 640 MiB. A fixed threshold keeps big blocks mapped (returned when freed)
and two arenas bound what the threads' small blocks may keep (docs/security.md §1).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameters (malloc.h)
M_ARENA_MAX = -8
MAPPED_FROM = 1 << 20  # blocks of 1 MiB and more are mapped, never kept in a heap
ARENAS = 2


def keep_big_blocks_returned() -> bool:
    """Set the allocator up for a server process, before its threads start; False
    where it is not glibc's (its settings are left as they are)."""
    if not _glibc():
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    # mallopt returns 1 on success, 0 on a refused value
    return bool(libc.mallopt(M_MMAP_THRESHOLD, MAPPED_FROM)) and bool(
        libc.mallopt(M_ARENA_MAX, ARENAS)
    )


def _glibc() -> bool:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (ValueError, OSError):  # a platform that does not know the name
        return False
